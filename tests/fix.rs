//! `--fix` and `--fix --diff`: every fix kind, idempotence, and nothing written with `--diff`.

use crate::common;

use common::{run, skill, snapshots, write_skill};

/// A SKILL.md needing every kind of fix at once.
const MESSY: &str = "\u{feff}---\r\nname: my-skill\r\ndescription: Fetches data. Use when asked.\r\nversion: 1.0.0\r\nauthor: Ana\r\nallowed-tools:\r\n  - Read\r\n  - Bash(curl:*)\r\n---\r\n\r\n```bash\r\ncurl -H \"Authorization: Bearer $ACME_TOKEN\" https://example.com | jq .\r\n```\r\n";

/// Lints `my-skill` with every rule reported whatever the skill's agent (`--select ALL`, unless
/// `args` selects) and unsafe fixes allowed: these tests are about how fixes edit text.
fn lint(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    lint_path(dir, "my-skill", args)
}

/// Lints every skill under `dir`, as [`lint`] does.
fn lint_all(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    lint_path(dir, ".", args)
}

fn lint_path(dir: &std::path::Path, path: &str, args: &[&str]) -> (i32, String, String) {
    let mut cmd = skill();
    cmd.current_dir(dir)
        .args(["lint", path, "--no-env-checks", "--unsafe-fixes"])
        .args(args);
    if !args.contains(&"--select") {
        cmd.args(["--select", "ALL"]);
    }
    run(&mut cmd)
}

#[test]
fn fixes_everything_and_a_second_run_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(tmp.path(), "my-skill", MESSY);
    let (code, stdout, stderr) = lint(tmp.path(), &["--fix"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    // The fix declared an openclaw block, so the skill is now linted for OpenClaw.
    assert_eq!(
        stdout,
        "No problems found in 1 skill.\nLinted for openclaw (inferred from metadata.openclaw; --target chooses).\n"
    );
    let fixed = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    snapshots().bind(|| {
        insta::assert_snapshot!("fix-all-report", stderr);
        insta::assert_snapshot!("fix-all-result", fixed);
    });
    let (code, stdout, stderr) = lint(tmp.path(), &["--fix"]);
    assert_eq!((code, stderr.as_str()), (0, ""), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        fixed
    );
}

#[test]
fn diff_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(tmp.path(), "my-skill", MESSY);
    let (code, stdout, _) = lint(tmp.path(), &["--fix", "--diff"]);
    assert_eq!(code, 1);
    assert!(
        stdout.starts_with("--- my-skill/SKILL.md\n+++ my-skill/SKILL.md\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("+allowed-tools: Read Bash(curl:*)"),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        MESSY
    );
}

#[test]
fn requirements_are_added_in_the_style_the_file_uses() {
    let body = "\n```bash\ngh pr list --json number > prs.json && jq length prs.json\n```\n";
    let cases = [
        (
            "fix-requires-flow",
            format!(
                "---\nname: my-skill\ndescription: Lists PRs. Use when asked.\nmetadata: {{\"openclaw\": {{\"emoji\": \"🐙\", \"requires\": {{\"bins\": [\"gh\"]}}}}}}\n---\n{body}"
            ),
        ),
        (
            "fix-requires-block",
            format!(
                "---\nname: my-skill\ndescription: Lists PRs. Use when asked.\nmetadata:\n  author: ana\n---\n{body}"
            ),
        ),
        (
            "fix-requires-flow-nested",
            format!(
                "---\nname: my-skill\ndescription: Lists PRs. Use when asked.\nmetadata: {{\"author\": {{\"name\": \"ana\"}}}}\n---\n{body}"
            ),
        ),
        (
            "fix-requires-nanobot",
            format!(
                "---\nname: my-skill\ndescription: Lists PRs. Use when asked.\nmetadata:\n  nanobot:\n    requires:\n      bins:\n        - gh\n---\n{body}"
            ),
        ),
    ];
    for (name, text) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_skill(tmp.path(), "my-skill", &text);
        let (code, stdout, stderr) = lint(
            tmp.path(),
            &["--fix", "--select", "undeclared-bin,undeclared-env"],
        );
        assert_eq!(code, 0, "{name}: {stdout}{stderr}");
        assert!(
            stdout.starts_with("No problems found in 1 skill.\n"),
            "{name}: {stdout}"
        );
        let fixed = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
        snapshots().bind(|| insta::assert_snapshot!(name, fixed));
    }
}

/// Found by the `lint` fuzz target: a new `metadata` block went at column 1 under a frontmatter
/// indented by one space (or after a flow mapping, or at the column after a tag), and the fix
/// made the YAML invalid.
#[test]
fn requirements_line_up_with_an_indented_or_flow_frontmatter() {
    let body = "\n```bash\ngh pr list --json number > prs.json && jq length prs.json\n```\n";
    let cases = [
        (
            " name: my-skill\n description: Lists PRs. Use when asked.\n",
            " name: my-skill\n description: Lists PRs. Use when asked.\n metadata:\n   openclaw:\n     requires:\n       bins:\n         - gh\n         - jq\n",
        ),
        // A tag or anchor before the first key (found by the lint fuzz target): the keys'
        // column is the line's, not the one after `!tag `.
        (
            "!!str name: my-skill\ndescription: Lists PRs. Use when asked.\n",
            "!!str name: my-skill\ndescription: Lists PRs. Use when asked.\nmetadata:\n  openclaw:\n    requires:\n      bins:\n        - gh\n        - jq\n",
        ),
        (
            "name: my-skill\ndescription: Lists PRs. Use when asked.\nmetadata:\n  &meta author: me\n",
            "name: my-skill\ndescription: Lists PRs. Use when asked.\nmetadata:\n  openclaw:\n    requires:\n      bins:\n        - gh\n        - jq\n  &meta author: me\n",
        ),
        (
            "{name: my-skill, description: Lists PRs. Use when asked.}\n",
            "{name: my-skill, description: Lists PRs. Use when asked., \"metadata\": {\"openclaw\": {\"requires\": {\"bins\": [\"gh\",\"jq\"]}}}}\n",
        ),
    ];
    for (frontmatter, fixed) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_skill(
            tmp.path(),
            "my-skill",
            format!("---\n{frontmatter}---\n{body}"),
        );
        let (code, stdout, stderr) = lint(
            tmp.path(),
            &[
                "--fix",
                "--select",
                "undeclared-bin,undeclared-env,invalid-yaml",
            ],
        );
        assert_eq!(code, 0, "{frontmatter}: {stdout}{stderr}");
        assert!(
            stdout.starts_with("No problems found in 1 skill.\n"),
            "{frontmatter}: {stdout}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
            format!("---\n{fixed}---\n{body}")
        );
    }
}

#[test]
fn quoting_an_unquoted_colon_makes_the_yaml_valid() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(
        tmp.path(),
        "my-skill",
        "---\nname: my-skill\ndescription: Use when: the user asks \"why\"\n---\n",
    );
    let (code, _, stderr) = lint(tmp.path(), &["--fix"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        "---\nname: my-skill\ndescription: \"Use when: the user asks \\\"why\\\"\"\n---\n"
    );
}

/// A YAML error names one line, so each broken line takes a round of fixing; sixteen of them
/// were left half quoted by a fixed eight rounds, and a second `--fix` changed the file again
/// (found by the lint fuzz target).
#[test]
fn many_broken_lines_are_all_quoted_in_one_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let keys: String = (1..=16)
        .map(|i| format!("note{i}: Use when: case {i}\n"))
        .collect();
    let dir = write_skill(
        tmp.path(),
        "my-skill",
        format!("---\nname: my-skill\ndescription: Formats files. Use when asked.\n{keys}---\n"),
    );
    lint(tmp.path(), &["--fix"]);
    let fixed = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    for i in 1..=16 {
        assert!(
            fixed.contains(&format!("note{i}: \"Use when: case {i}\"\n")),
            "{fixed}"
        );
    }
    let (code, _, stderr) = lint(tmp.path(), &["--fix"]);
    assert!(matches!(code, 0 | 1), "exit {code}: {stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        fixed
    );
}

/// Lines of one file that end differently (LF in the frontmatter, CRLF below it): an item
/// appended to a list went one byte into the closing `---`, and a key moved under metadata took
/// the first byte of the next line with it, each sized by the file's usual ending rather than
/// the line's own (found by the lint fuzz target).
#[test]
fn edits_follow_each_lines_own_ending() {
    let tmp = tempfile::tempdir().unwrap();
    let body = "---\r\n\r\n```bash\r\ncurl -H \"Authorization: Bearer $GITHUB_TOKEN\" https://api.github.com/user\r\n```\r\n";
    let appended = format!(
        "---\nname: my-skill\ndescription: Reads the user. Use when asked.\nmetadata:\n  openclaw:\n    requires:\n      bins: [curl]\n      env:\n        - IMAGE_TOKEN\n{body}"
    );
    let moved = "---\nname: moved\ndescription: Reads the user. Use when asked.\nauthor: Ana\nlicense: MIT\n---\r\n\r\nBody.\r\n";
    let dir = write_skill(tmp.path(), "my-skill", &appended);
    let moved_dir = write_skill(tmp.path(), "moved", moved);
    let (_, stdout, stderr) = lint_all(
        tmp.path(),
        &["--fix", "--select", "undeclared-env,unknown-key,crlf"],
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        format!(
            "---\nname: my-skill\ndescription: Reads the user. Use when asked.\nmetadata:\n  openclaw:\n    requires:\n      bins: [curl]\n      env:\n        - IMAGE_TOKEN\n        - GITHUB_TOKEN\n{}",
            body.replace("\r\n", "\n")
        ),
        "{stdout}{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(moved_dir.join("SKILL.md")).unwrap(),
        format!(
            "---\nname: moved\ndescription: Reads the user. Use when asked.\nlicense: MIT\nmetadata:\n  author: \"Ana\"\n{}",
            "---\n\nBody.\n"
        ),
        "{stdout}{stderr}"
    );
}

/// A lone CR is a line break to YAML but not to the spans: joining an `allowed-tools` list
/// whose items it separates left `-Read` behind as invalid YAML (found by the lint fuzz
/// target). The list is then left for the author.
#[test]
fn a_list_broken_by_a_lone_cr_is_not_joined() {
    let tmp = tempfile::tempdir().unwrap();
    let original = "---\nname: my-skill\ndescription: Reads. Use when asked.\nallowed-tools:\n\r- Bash\n  \r -Read\n---\n\nBody.\n";
    let dir = write_skill(tmp.path(), "my-skill", original);
    let (code, _, stderr) = lint(tmp.path(), &["--fix"]);
    assert!(matches!(code, 0 | 1), "exit {code}: {stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        original
    );
    let (_, stdout, _) = lint(tmp.path(), &["--format", "concise"]);
    assert!(!stdout.contains("SK103"), "{stdout}");
    assert!(stdout.contains("SK402"), "{stdout}");
}

#[test]
fn unfixable_errors_remain_and_fail() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(
        tmp.path(),
        "my-skill",
        "---\nname: Other\ndescription: Use when asked.\n---\n",
    );
    let (code, stdout, stderr) = lint(tmp.path(), &["--fix", "--format", "concise"]);
    assert_eq!(code, 1);
    assert_eq!(stderr, "");
    assert!(stdout.contains("SK204"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        "---\nname: Other\ndescription: Use when asked.\n---\n"
    );
}

/// A line ending in several CRs before its LF loses them all in one fix (the lint fuzz target
/// found a fix that removed one CR per run and never settled).
#[test]
fn line_endings_settle_in_one_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(
        tmp.path(),
        "my-skill",
        "---\r\nname: my-skill\r\ndescription: Formats files. Use when asked to format.\r\n---\r\n\r\nkey: value\r\r\r\r\nlast\r\n",
    );
    let (code, stdout, stderr) = lint(tmp.path(), &["--fix", "--select", "crlf"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let fixed = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    assert_eq!(
        fixed,
        "---\nname: my-skill\ndescription: Formats files. Use when asked to format.\n---\n\nkey: value\nlast\n"
    );
    let (code, stdout, _) = lint(tmp.path(), &["--fix", "--select", "crlf"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "No problems found in 1 skill.\n")
    );
}

/// YAML ends a line at a lone CR too: moving `author` under `metadata` must not take the key
/// after it (found by the lint fuzz target). `author` stays where it is, the list after it is
/// still fixed, and the YAML stays valid.
#[test]
fn a_lone_cr_keeps_the_next_key() {
    let tmp = tempfile::tempdir().unwrap();
    let original = "---\nname: my-skill\ndescription: Formats files. Use when asked to format.\nauthor: Ana\rallowed-tools:\n  - Read\n---\n\nBody.\n";
    let dir = write_skill(tmp.path(), "my-skill", original);
    lint(tmp.path(), &["--fix"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        original.replace("allowed-tools:\n  - Read", "allowed-tools: Read")
    );
    let (_, stdout, _) = lint(tmp.path(), &["--format", "concise"]);
    assert!(!stdout.contains("invalid-yaml"), "{stdout}");
    assert!(stdout.contains("SK401"), "{stdout}");
}

/// A key written twice at the top level, or one `metadata` already holds, stays where it is:
/// moving it doubled it under `metadata`, and the next `--fix` moved the other copy too (found
/// by the lint fuzz target). The other fixes still apply, and a second `--fix` changes nothing.
#[test]
fn a_doubled_key_is_not_moved_under_metadata() {
    let tmp = tempfile::tempdir().unwrap();
    let twice = "---\nname: my-skill\ndescription: Formats files. Use when asked to format.\nversion: 1.0\nversion: 2.0\nauthor: Ana\n---\n\nBody.\n";
    let held = "---\nname: held\ndescription: Formats files. Use when asked to format.\nversion: 1.0\nmetadata:\n  version: \"2.0\"\n---\n\nBody.\n";
    let dir = write_skill(tmp.path(), "my-skill", twice);
    let held_dir = write_skill(tmp.path(), "held", held);
    lint_all(tmp.path(), &["--fix"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        "---\nname: my-skill\ndescription: Formats files. Use when asked to format.\nversion: \"1.0\"\nversion: \"2.0\"\nmetadata:\n  author: \"Ana\"\n---\n\nBody.\n"
    );
    assert_eq!(
        std::fs::read_to_string(held_dir.join("SKILL.md")).unwrap(),
        held.replace("version: 1.0", "version: \"1.0\"")
    );
    let fixed = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    let (code, _, stderr) = lint_all(tmp.path(), &["--fix"]);
    assert_eq!(code, 1, "the doubled key is still an error: {stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        fixed
    );
    let (_, stdout, _) = lint_all(tmp.path(), &["--format", "concise"]);
    assert!(stdout.contains("SK105"), "{stdout}");
}

/// `--fix` alone never declares requirements, which would hide the skill where a command is
/// missing: it offers them as unsafe fixes, says what each changes, and applies them only with
/// `--unsafe-fixes`, naming the consequence.
#[test]
fn declaring_requirements_needs_unsafe_fixes() {
    let tmp = tempfile::tempdir().unwrap();
    let source = "---\nname: my-skill\ndescription: Lists pull requests. Use when asked about PRs.\nmetadata:\n  openclaw:\n    emoji: x\n---\n\n```bash\ngh pr list\n```\n";
    let dir = write_skill(tmp.path(), "my-skill", source);
    let safe = |args: &[&str]| {
        run(skill()
            .current_dir(tmp.path())
            .args(["lint", "my-skill", "--no-env-checks"])
            .args(args))
    };
    let (code, stdout, stderr) = safe(&["--fix"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        source
    );
    assert!(
        stdout.contains("help: unsafe fix available with --unsafe-fixes: declare gh in metadata.openclaw.requires (OpenClaw and nanobot hide this skill where `gh` is not on PATH)"),
        "{stdout}"
    );
    let (_, _, stderr) = safe(&["--show-fixes"]);
    assert!(
        stderr.contains("my-skill/SKILL.md:10: SK509: declare gh in metadata.openclaw.requires (unsafe, needs --unsafe-fixes: OpenClaw and nanobot hide this skill where `gh` is not on PATH)"),
        "{stderr}"
    );
    let (_, stdout, _) = safe(&["--statistics"]);
    assert_eq!(
        stdout,
        "1  SK509  [-] undeclared-bin\n[*] fixable with --fix; [-] fixable with --fix --unsafe-fixes\n"
    );
    let (code, _, stderr) = safe(&["--fix", "--unsafe-fixes"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "fixed my-skill/SKILL.md:10: undeclared-bin: declare gh in metadata.openclaw.requires (unsafe: OpenClaw and nanobot hide this skill where `gh` is not on PATH)\n"
    );
    assert!(
        std::fs::read_to_string(dir.join("SKILL.md"))
            .unwrap()
            .contains("    requires:\n      bins:\n        - gh\n"),
    );
}

/// When Codex's `agents/openai.yaml` keeps a skill from the model, the unsafe fix writes the
/// frontmatter key that does the same for Claude Code and OpenClaw, and only with
/// `--unsafe-fixes`; the fixed skill lints clean and a second run changes nothing.
#[test]
fn invocation_mismatch_is_fixed_in_the_frontmatter_only_when_unsafe_fixes_are_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let original = "---\nname: my-skill\ndescription: Drafts status updates. Use when asked for one.\n---\n\nBody.\n";
    let dir = write_skill(tmp.path(), "my-skill", original);
    std::fs::create_dir_all(dir.join("agents")).unwrap();
    std::fs::write(
        dir.join("agents/openai.yaml"),
        "policy:\n  allow_implicit_invocation: false\n",
    )
    .unwrap();
    let select = ["--select", "invocation-mismatch"];
    let (code, _, stderr) = run(skill()
        .current_dir(tmp.path())
        .args(["lint", "my-skill", "--fix"])
        .args(select));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        original,
        "a safe --fix leaves it"
    );
    let (_, out, err) = lint(tmp.path(), &["--fix", "--select", "invocation-mismatch"]);
    let fixed = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    assert!(
        fixed.contains("disable-model-invocation: true\n---\n"),
        "{fixed}\n{out}{err}"
    );
    let (code, out, _) = lint(tmp.path(), &["--select", "invocation-mismatch"]);
    assert_eq!(code, 0, "{out}");
}
