//! `skill.toml`'s `[lint]` table: found upwards, flags win, bad files are clear errors.

use crate::common;

use common::{json, run, skill, slugs, write_skill};

const SKILL: &str = "---\nname: my-skill\ndescription: Formats things.\nhomepage: https://example.com\n---\n\n```bash\njq . x.json\n```\n";

#[test]
fn config_is_found_upwards_and_flags_win() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "skills/my-skill", SKILL);
    std::fs::write(
        tmp.path().join("skill.toml"),
        "[lint]\ntarget = \"agentskills\"\nignore = [\"description-no-trigger\"]\nenv-checks = false\n\n[lint.per-path-ignores]\n\"skills/my-*\" = [\"undeclared-bin\"]\n",
    )
    .unwrap();
    let inner = tmp.path().join("skills");
    let (code, stdout, stderr) = run(skill()
        .current_dir(&inner)
        .args(["lint", "--format", "json"]));
    assert_eq!(code, 1, "{stderr}");
    // agentskills from the config: the unknown key is an error; the ignores hold.
    assert_eq!(slugs(&stdout), ["unknown-key"]);
    let (code, stdout, _) = run(skill()
        .current_dir(&inner)
        .args(["lint", "--format", "json", "--target", "openclaw"]));
    assert_eq!(code, 0);
    assert_eq!(slugs(&stdout), Vec::<String>::new());
}

#[test]
fn budgets_are_configurable() {
    let tmp = tempfile::tempdir().unwrap();
    let body: String = (0..30).map(|i| format!("Line {i}.\n")).collect();
    write_skill(
        tmp.path(),
        "my-skill",
        format!("---\nname: my-skill\ndescription: Use when asked.\n---\n{body}"),
    );
    std::fs::write(
        tmp.path().join("skill.toml"),
        "[lint.budgets]\nbody-lines = 20\n",
    )
    .unwrap();
    let (code, stdout, _) = run(skill()
        .current_dir(tmp.path())
        .args(["lint", "my-skill", "--format", "concise"]));
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "my-skill/SKILL.md:5:1: SK702 [warning] the body is 30 lines; the budget is 20\n"
    );
}

#[test]
fn a_bad_config_names_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "my-skill", SKILL);
    std::fs::write(
        tmp.path().join("skill.toml"),
        "[lint]\ntarget = \"agentskills\"\nbogus = 1\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run(skill().current_dir(tmp.path()).args(["lint", "my-skill"]));
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains("skill.toml") && stderr.contains("line 3") && stderr.contains("bogus"),
        "{stderr}"
    );
    std::fs::write(
        tmp.path().join("skill.toml"),
        "[lint]\nselect = [\"SK999\"]\n",
    )
    .unwrap();
    let (code, _, stderr) = run(skill().current_dir(tmp.path()).args(["lint", "my-skill"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("SK999"), "{stderr}");
}

#[test]
fn no_env_checks_silences_gating() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "my-skill",
        "---\nname: my-skill\ndescription: Use when asked.\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"skill-test-missing-bin\"], \"env\": [\"SKILL_TEST_MISSING_VAR\"]}}}\n---\nRun `skill-test-missing-bin` with `$SKILL_TEST_MISSING_VAR`.\n",
    );
    let (_, stdout, _) = run(skill()
        .current_dir(tmp.path())
        .env_remove("SKILL_TEST_MISSING_VAR")
        .args(["lint", "my-skill", "--format", "json"]));
    // The flow mapping skills-ref refuses is counted, not shown: OpenClaw reads it.
    assert_eq!(slugs(&stdout), ["bin-missing", "env-missing"]);
    let report = json(&stdout);
    let message = report["skills"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["slug"] == "bin-missing")
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .unwrap();
    assert_eq!(
        message,
        "'skill-test-missing-bin' is not on PATH; unavailable here: CLI: skill-test-missing-bin, ENV: SKILL_TEST_MISSING_VAR"
    );
    let (_, stdout, _) = run(skill().current_dir(tmp.path()).args([
        "lint",
        "my-skill",
        "--format",
        "json",
        "--no-env-checks",
    ]));
    assert_eq!(slugs(&stdout), Vec::<String>::new());
}

/// `per-path-ignores` are applied inside the library: a caller of `lint_paths` with the
/// config's options gets them, and every output of the command does (not only the streamed
/// JSON), while a skill outside the glob keeps its finding.
#[test]
fn per_path_ignores_hold_for_library_callers_and_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "skills/my-skill", SKILL);
    write_skill(tmp.path(), "other/my-skill", SKILL);
    let config_file = tmp.path().join("skill.toml");
    std::fs::write(
        &config_file,
        "[lint]\nignore = [\"description-no-trigger\"]\nenv-checks = false\n\n[lint.per-path-ignores]\n\"skills/my-*\" = [\"undeclared-bin\"]\n",
    )
    .unwrap();

    let config = skill_lint::config::Config::load(&config_file).unwrap();
    let options = skill_lint::Options {
        path_ignores: config.path_ignores().unwrap(),
        env_checks: false,
        ..skill_lint::Options::new(skill_lint::Target::Openclaw)
    };
    let run = skill_lint::lint_paths(
        &[tmp.path().join("skills"), tmp.path().join("other")],
        &options,
    )
    .unwrap();
    let bins: Vec<(String, bool)> = run
        .skills
        .iter()
        .map(|r| {
            let root = r.skill.dir.parent().unwrap().file_name().unwrap();
            let has = r
                .diagnostics
                .iter()
                .any(|d| d.rule.slug == "undeclared-bin");
            (root.to_string_lossy().into_owned(), has)
        })
        .collect();
    // In path order; skills/my-skill is the one the glob names.
    assert_eq!(
        bins,
        [("other".to_owned(), true), ("skills".to_owned(), false)]
    );

    let (code, stdout, stderr) = run_cli(tmp.path(), &["--format", "concise"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        !stdout.is_empty() && stdout.lines().all(|l| l.starts_with("other/my-skill/")),
        "{stdout}"
    );
    let (_, json, _) = run_cli(tmp.path(), &["--format", "json"]);
    assert_eq!(slugs(&json), ["undeclared-bin"]);
}

/// `skill lint skills other --target openclaw` in `dir`, with these flags.
fn run_cli(dir: &std::path::Path, flags: &[&str]) -> (i32, String, String) {
    run(skill()
        .current_dir(dir)
        .args(["lint", "skills", "other", "--target", "openclaw"])
        .args(flags))
}
