//! The `lint` and `explain` commands as a user drives them: formats, targets, selection,
//! strictness, exit codes, and paths given in different ways.

use crate::common;

use common::{json, run, skill, snapshots, write_skill};

const CLEAN: &str = "---\nname: my-skill\ndescription: Formats things. Use when the user asks to format things.\n---\n\n# My skill\n";
const WARNS: &str = "---\nname: my-skill\ndescription: Formats things. Use when the user asks to format things.\nhomepage: https://example.com\n---\n\nFormat the file the user names.\n";

fn tree() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "skills/my-skill", CLEAN);
    write_skill(tmp.path(), "skills/other-dir", CLEAN);
    write_skill(
        tmp.path(),
        "skills/broken",
        "---\nname: broken\ndescription: Use when: things break\n---\n",
    );
    write_skill(
        tmp.path(),
        "skills/extra",
        WARNS.replace("my-skill", "extra"),
    );
    tmp
}

#[test]
fn human_concise_and_json_outputs() {
    let tmp = tree();
    let settings = snapshots();
    let _guard = settings.bind_to_scope();
    for format in ["human", "concise", "json"] {
        let (code, stdout, stderr) = run(skill()
            .current_dir(tmp.path())
            .args(["lint", "skills", "--format", format]));
        assert_eq!(code, 1, "{stderr}");
        insta::assert_snapshot!(format!("cli-lint-tree-{format}"), stdout);
    }
}

#[test]
fn output_is_deterministic() {
    let tmp = tree();
    let (code, first, stderr) = run(skill()
        .current_dir(tmp.path())
        .args(["lint", "--format", "json"]));
    assert_eq!(code, 1, "{stderr}");
    for _ in 0..5 {
        assert_eq!(
            run(skill()
                .current_dir(tmp.path())
                .args(["lint", "--format", "json"]))
            .1,
            first
        );
    }
}

#[test]
fn strict_fails_on_warnings() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "my-skill",
        format!("{CLEAN}\nTODO: write the steps.\n"),
    );
    assert_eq!(
        run(skill().current_dir(tmp.path()).args(["lint", "my-skill"])).0,
        0
    );
    assert_eq!(
        run(skill()
            .current_dir(tmp.path())
            .args(["lint", "my-skill", "--strict"]))
        .0,
        1
    );
    write_skill(tmp.path(), "clean", CLEAN.replace("my-skill", "clean"));
    let (code, stdout, _) = run(skill()
        .current_dir(tmp.path())
        .args(["lint", "clean", "--strict"]));
    assert_eq!(code, 0);
    assert_eq!(stdout, "No problems found in 1 skill.\n");
}

#[test]
fn targets_change_severity_and_known_keys() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "my-skill", WARNS);
    let severity = |target: &str| {
        let (code, stdout, _) = run(skill()
            .current_dir(tmp.path())
            .args(["lint", "my-skill", "--format", "json", "--target", target]));
        let report = json(&stdout);
        let found: Vec<String> = report["skills"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{} {}",
                    d["slug"].as_str().unwrap(),
                    d["severity"].as_str().unwrap()
                )
            })
            .collect();
        (code, found)
    };
    // An unknown key matters to skills-ref and Claude's upload form only: reported for those
    // targets, counted as not shown for the others (OpenClaw reads `homepage` besides).
    assert_eq!(severity("portable"), (0, vec![]));
    assert_eq!(
        severity("agentskills"),
        (1, vec!["unknown-key error".to_owned()])
    );
    assert_eq!(severity("openclaw"), (0, vec![]));
    assert_eq!(severity("nanobot"), (0, vec![]));
    assert_eq!(
        severity("claude"),
        (0, vec!["unknown-key warning".to_owned()])
    );
}

#[test]
fn claude_target_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let long = "Use when asked. ".repeat(20);
    write_skill(
        tmp.path(),
        "claude-café",
        format!("---\nname: claude-café\ndescription: {long}\n---\n"),
    );
    let (code, stdout, _) = run(skill().current_dir(tmp.path()).args([
        "lint",
        "claude-café",
        "--format",
        "concise",
        "--target",
        "claude",
    ]));
    assert_eq!(code, 1);
    snapshots().bind(|| insta::assert_snapshot!("cli-lint-claude-target", stdout));
}

#[test]
fn select_and_ignore() {
    let tmp = tree();
    let slugs = |args: &[&str]| {
        let (_, stdout, _) = run(skill()
            .current_dir(tmp.path())
            .args(["lint", "--format", "json"])
            .args(args));
        common::slugs(&stdout)
    };
    assert_eq!(slugs(&["--select", "SK208"]), ["name-dir-mismatch"]);
    assert_eq!(
        slugs(&["--select", "name-dir-mismatch,invalid-yaml"]),
        ["invalid-yaml", "name-dir-mismatch"]
    );
    assert!(!slugs(&["--ignore", "SK1"]).contains(&"invalid-yaml".to_owned()));
}

#[test]
fn dot_and_skill_md_paths_use_the_real_folder_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(tmp.path(), "my-skill", CLEAN);
    for arg in [".", "SKILL.md", "./SKILL.md"] {
        let (code, stdout, _) = run(skill().current_dir(&dir).args(["lint", arg]));
        assert_eq!(
            (code, stdout.as_str()),
            (0, "No problems found in 1 skill.\n"),
            "{arg}"
        );
    }
}

#[test]
fn explain_prints_rule_docs() {
    let (code, stdout, _) = run(skill().args(["explain", "SK208"]));
    assert_eq!(code, 0);
    snapshots().bind(|| insta::assert_snapshot!("cli-explain-sk208", stdout));
    let (code, by_slug, _) = run(skill().args(["explain", "name-dir-mismatch"]));
    assert_eq!((code, by_slug), (0, stdout));
    let (code, list, _) = run(skill().args(["explain"]));
    assert_eq!(code, 0);
    assert_eq!(list.lines().count(), skill_lint::rulebook::ALL.len());
    let (code, _, stderr) = run(skill().args(["explain", "SK999"]));
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: unknown rule 'SK999'; run `skill explain` to list the rules\n"
    );
}

#[test]
fn version_and_help() {
    let (code, stdout, _) = run(skill().arg("--version"));
    assert_eq!(
        (code, stdout),
        (0, format!("skill {}\n", env!("CARGO_PKG_VERSION")))
    );
    let (code, stdout, _) = run(skill().args(["lint", "--help"]));
    assert_eq!(code, 0);
    assert!(stdout.contains("Examples:"), "{stdout}");
}

#[test]
fn every_command_has_help_with_a_usage_line() {
    let commands: &[&[&str]] = &[
        &["lint"],
        &["explain"],
        &["new"],
        &["builtin"],
        &["builtin", "list"],
        &["builtin", "show"],
        &["summary"],
        &["prompt"],
        &["list"],
        &["check"],
        &["pack"],
        &["install"],
        &["uninstall"],
        &["registry"],
        &["registry", "serve"],
        &["registry", "user", "add"],
        &["registry", "token", "create"],
        &["login"],
        &["logout"],
        &["whoami"],
        &["search"],
        &["info"],
        &["publish"],
        &["update"],
    ];
    for command in commands {
        let (code, stdout, stderr) = run(skill().args(*command).arg("--help"));
        assert_eq!(code, 0, "{command:?}: {stderr}");
        assert!(stdout.contains("Usage: skill"), "{command:?}: {stdout}");
    }
}

/// `--target` for an agent reads that agent's row of the agents table: the keys it reads, the
/// requirements block names it reads and the requirements it checks.
#[test]
fn agent_targets_read_the_agents_table() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "site",
        "---\nname: site\ndescription: Opens the site. Use when the user asks for it.\nwebsite: https://example.org\n---\n\nBody.\n",
    );
    write_skill(
        tmp.path(),
        "old-block",
        "---\nname: old-block\ndescription: Formats things. Use when the user asks to format.\nmetadata:\n  moltbot:\n    requires:\n      bins: [skill-test-no-such-binary]\n---\n\nBody.\n",
    );
    write_skill(
        tmp.path(),
        "retired-block",
        "---\nname: retired-block\ndescription: Formats things. Use when the user asks to format.\nmetadata:\n  clawdis:\n    emoji: x\n---\n\nBody.\n",
    );
    write_skill(
        tmp.path(),
        "any-bins",
        "---\nname: any-bins\ndescription: Formats things. Use when the user asks to format.\nmetadata:\n  openclaw:\n    requires:\n      anyBins: [skill-test-no-such-binary]\n---\n\nBody.\n",
    );
    let found = |dir: &str, target: &str| -> Vec<String> {
        let (_, stdout, _) = run(skill().current_dir(tmp.path()).args([
            "lint",
            dir,
            "--format",
            "json",
            "--target",
            target,
            // Named one by one, so each target's message shows even where the rule does not
            // matter to it (the portable target and the gating rules).
            "--select",
            "unknown-key,requirements-block-name,invalid-requires,invalid-os,invalid-install,bin-missing,any-bin-missing,env-missing,os-unsupported,undeclared-bin,undeclared-env,unused-requirement",
        ]));
        json(&stdout)["skills"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{} {}: {}",
                    d["slug"].as_str().unwrap(),
                    d["severity"].as_str().unwrap(),
                    d["message"].as_str().unwrap()
                )
            })
            .collect()
    };
    // OpenClaw reads a top-level `website` (entry-status); nobody else does.
    assert_eq!(found("site", "openclaw"), Vec::<String>::new());
    // For the others it matters where an unknown key is refused: Claude's upload form.
    assert_eq!(
        found("site", "claude"),
        [
            "unknown-key warning: Unknown key 'website': read only by OpenClaw; skills-ref rejects it"
        ]
    );
    // No current agent reads `metadata.moltbot`: for OpenClaw the block, and the bin in it,
    // are not there at all.
    assert_eq!(
        found("old-block", "openclaw"),
        [
            "requirements-block-name warning: metadata.moltbot is not read by OpenClaw 2026.9.6, which reads openclaw or clawdbot; rename it to 'openclaw'"
        ]
    );
    let portable = found("old-block", "portable");
    assert!(portable.contains(&"requirements-block-name warning: metadata.moltbot is read by no current agent; rename it to 'openclaw'".to_owned()), "{portable:?}");
    assert!(
        portable
            .iter()
            .any(|d| d
                .starts_with("bin-missing warning: 'skill-test-no-such-binary' is not on PATH")),
        "{portable:?}"
    );
    // OpenClaw 2026.9.6 no longer reads `clawdis`.
    assert_eq!(
        found("retired-block", "portable"),
        [
            "requirements-block-name warning: metadata.clawdis is read by no current agent; rename it to 'openclaw'"
        ]
    );
    // nanobot checks bins and env only: a missing `anyBins` does not gate it there.
    assert_eq!(
        found("any-bins", "openclaw"),
        [
            "any-bin-missing warning: none of skill-test-no-such-binary is on PATH; unavailable here: any CLI of: skill-test-no-such-binary"
        ]
    );
    assert_eq!(found("any-bins", "nanobot"), Vec::<String>::new());
}

/// Claude Code and Codex read no requirements block: their targets still check what the skill
/// declares for the agents that do (no SK501 without a better name to give, no undeclared
/// command that is declared), and the fix that declares a command settles in one run (found
/// by the lint fuzzer: it used to add the command once per fix round, never seeing it).
#[test]
fn targets_reading_no_block_check_declarations_portably() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "declared",
        "---\nname: declared\ndescription: Converts images. Use when the user wants a PNG turned into a JPEG.\nmetadata:\n  openclaw:\n    requires:\n      bins:\n        - skill-test-no-such-binary\n---\n\n```sh\nskill-test-no-such-binary in.png out.jpg\n```\n",
    );
    let skill_md = write_skill(
        tmp.path(),
        "undeclared",
        "---\nname: undeclared\ndescription: Converts images. Use when the user wants a PNG turned into a JPEG.\n---\n\nConvert\r\nimages:\n\n```sh\nconvert in.png out.jpg\n```\n",
    )
    .join("SKILL.md");
    for target in ["codex", "claude"] {
        let (code, stdout, _) = run(skill().current_dir(tmp.path()).args([
            "lint", "declared", "--format", "concise", "--target", target, "--select", "SK5",
        ]));
        assert_eq!((code, stdout.as_str()), (0, ""), "{target}");
    }
    let fix = || {
        let (code, stdout, stderr) = run(skill().current_dir(tmp.path()).args([
            "lint",
            "undeclared",
            "--target",
            "codex",
            "--fix",
            "--unsafe-fixes",
            // Named, so reported for Codex, which gates on neither.
            "--select",
            "SK1,SK5,undeclared-bin,crlf",
        ]));
        assert_eq!(code, 0, "{stdout}{stderr}");
        std::fs::read_to_string(&skill_md).unwrap()
    };
    let once = fix();
    assert_eq!(
        once,
        "---\nname: undeclared\ndescription: Converts images. Use when the user wants a PNG turned into a JPEG.\nmetadata:\n  openclaw:\n    requires:\n      bins:\n        - convert\n---\n\nConvert\nimages:\n\n```sh\nconvert in.png out.jpg\n```\n"
    );
    assert_eq!(fix(), once, "a second --fix changed the fixed file");
}

/// A run of one family finds exactly what the whole run finds of that family: runs that read
/// no file of the skills skip listing them, which must change nothing but the time. The tree
/// holds every rule's bad fixture, a nested skill with only a lowercase `skill.md` and an
/// ignore file between the root and a skill.
#[test]
fn each_family_alone_finds_what_the_whole_run_finds() {
    let tmp = tempfile::tempdir().unwrap();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lint");
    for rule in std::fs::read_dir(&fixtures).unwrap().flatten() {
        let to = tmp.path().join("tree").join(rule.file_name());
        common::copy_tree(&rule.path().join("bad"), &to);
    }
    write_skill(tmp.path(), "tree/outer", CLEAN.replace("my-skill", "outer"));
    std::fs::write(tmp.path().join("tree/outer/notes.log"), "a log\n").unwrap();
    write_skill(
        tmp.path(),
        "tree/outer/inner",
        CLEAN.replace("my-skill", "inner"),
    );
    std::fs::rename(
        tmp.path().join("tree/outer/inner/SKILL.md"),
        tmp.path().join("tree/outer/inner/skill.md"),
    )
    .unwrap();
    std::fs::write(tmp.path().join("tree/.gitignore"), "*.log\n").unwrap();
    let found = |args: &[&str]| -> Vec<String> {
        let (_, stdout, stderr) = run(skill()
            .current_dir(tmp.path())
            .args(["lint", "tree", "--format", "json"])
            .args(args));
        let out = json(&stdout);
        let skills = out["skills"]
            .as_array()
            .unwrap_or_else(|| panic!("{stderr}"));
        skills
            .iter()
            .flat_map(|s| s["diagnostics"].as_array().unwrap().iter())
            .map(|d| {
                let keys = ["code", "file", "line", "column", "message"];
                keys.map(|k| d[k].to_string()).join(" ")
            })
            .collect()
    };
    let all = found(&[]);
    for family in 0..=9 {
        let prefix = format!("\"SK{family}");
        let expected: Vec<&String> = all.iter().filter(|d| d.starts_with(&prefix)).collect();
        assert!(
            !expected.is_empty(),
            "the tree has findings of SK{family}xx"
        );
        let alone = found(&["--select", &format!("SK{family}")]);
        assert_eq!(
            alone.iter().collect::<Vec<_>>(),
            expected,
            "SK{family}xx alone"
        );
    }
}

#[test]
fn every_todo_placeholder_in_the_body_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(
        tmp.path(),
        "notes",
        "---\nname: notes\ndescription: Keeps notes. Use when the user asks to keep a note.\n---\n\n# Notes\n\n1. [TODO: first step] then [TODO: second step]\n2. Save.\n\nTODO: explain the format\n",
    );
    let (_, stdout, _) = run(skill().args(["lint"]).arg(&dir).args([
        "--select",
        "todo-placeholder",
        "--format",
        "json",
    ]));
    let report = json(&stdout);
    let lines: Vec<u64> = report["skills"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [8, 8, 11], "{report}");
}

/// Codex's `agents/openai.yaml` is a file a stranger writes: broken YAML, bytes that are not
/// UTF-8 and a link out of the skill each end in a clear finding or none, never a panic, and
/// the link is not followed.
#[test]
fn a_hostile_openai_yaml_is_reported_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let skill_md =
        "---\nname: my-skill\ndescription: Drafts status updates. Use when asked.\n---\n\nBody.\n";
    let cases: [(&str, &[u8]); 2] = [
        ("broken", b"interface: [unclosed\n"),
        ("latin1", b"interface:\n  display_name: \"Caf\xe9\"\n"),
    ];
    for (name, bytes) in cases {
        let dir = common::write_skill(tmp.path(), name, skill_md.replace("my-skill", name));
        std::fs::create_dir_all(dir.join("agents")).unwrap();
        std::fs::write(dir.join("agents/openai.yaml"), bytes).unwrap();
    }
    let linked = common::write_skill(tmp.path(), "linked", skill_md.replace("my-skill", "linked"));
    std::fs::create_dir_all(linked.join("agents")).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", linked.join("agents/openai.yaml")).unwrap();
    let (code, out, err) = run(skill().current_dir(tmp.path()).args([
        "lint",
        ".",
        "--select",
        "openai-yaml",
        "--format",
        "concise",
    ]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("broken/agents/openai.yaml") && out.contains("not YAML Codex can read"),
        "{out}"
    );
    assert!(
        out.contains("latin1/agents/openai.yaml") && out.contains("not UTF-8"),
        "{out}"
    );
    assert!(!out.contains("linked/agents/openai.yaml"), "{out}");
}
