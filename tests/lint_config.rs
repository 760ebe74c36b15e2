//! `skill.toml`'s `[lint]` table: found upwards, flags win, bad files are clear errors.

mod common;

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
    assert_eq!(
        slugs(&stdout),
        ["bin-missing", "env-missing", "strict-yaml"]
    );
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
    assert_eq!(slugs(&stdout), ["strict-yaml"]);
}
