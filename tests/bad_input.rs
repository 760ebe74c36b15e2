//! Bad input never panics: each case gets a clear message naming the file (and the line where
//! there is one) and a non-zero exit code.

use crate::common;

use common::{json, run, skill, snapshots, write_skill};
use std::path::Path;

const VALID: &str = "---\nname: my-skill\ndescription: Formats things. Use when the user asks to format things.\n---\n\n# My skill\n";

fn lint(dir: &Path, args: &[&str]) -> (i32, String, String) {
    run(skill().current_dir(dir).arg("lint").args(args))
}

fn only_diagnostic(stdout: &str) -> serde_json::Value {
    let report = json(stdout);
    let diagnostics = report["skills"][0]["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{stdout}");
    diagnostics[0].clone()
}

#[test]
fn empty_skill_md() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "my-skill", "");
    let (code, stdout, _) = lint(tmp.path(), &["my-skill", "--format", "concise"]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "my-skill/SKILL.md:1:1: SK101 [error] SKILL.md must start with YAML frontmatter (---)\n"
    );
}

#[test]
fn non_utf8_bytes_point_at_the_byte() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "my-skill",
        b"---\nname: my-skill\ndescription: caf\xe9\n---\n",
    );
    let (code, stdout, _) = lint(tmp.path(), &["my-skill", "--format", "concise"]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "my-skill/SKILL.md:3:17: SK004 [error] SKILL.md is not valid UTF-8 (invalid byte at line 3, column 17)\n"
    );
}

#[test]
fn binary_file() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "my-skill", b"\x7fELF\x02\x01\x01\x00\x00\x00");
    let (code, stdout, _) = lint(tmp.path(), &["my-skill", "--format", "json"]);
    assert_eq!(code, 1);
    let d = only_diagnostic(&stdout);
    assert_eq!(d["slug"], "binary-file");
    assert_eq!(d["file"], "my-skill/SKILL.md");
}

#[test]
fn fifty_megabyte_skill_md_is_refused_unread() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(tmp.path(), "my-skill", "");
    let file = std::fs::File::create(dir.join("SKILL.md")).unwrap();
    file.set_len(50 * 1024 * 1024).unwrap();
    let (code, stdout, _) = lint(tmp.path(), &["my-skill", "--format", "json"]);
    assert_eq!(code, 1);
    let d = only_diagnostic(&stdout);
    assert_eq!(d["slug"], "file-too-large");
    assert_eq!(d["severity"], "error");
    assert_eq!(
        d["message"],
        "SKILL.md is 52428800 bytes; files over 10 MiB are not read"
    );
}

/// One word of 2 MB (a run no tokenizer merges quickly pair by pair) is counted exactly.
#[test]
fn a_body_of_one_long_word_is_counted_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let body = format!("{}\n", "a".repeat(2_000_000));
    let head = "---\nname: my-skill\ndescription: Formats things. Use when the user asks to format things.\n---\n";
    write_skill(tmp.path(), "my-skill", format!("{head}{body}"));
    let (code, stdout, _) = lint(
        tmp.path(),
        &["my-skill", "--select", "SK703", "--format", "json"],
    );
    assert_eq!(code, 0, "{stdout}");
    let d = only_diagnostic(&stdout);
    let tokens = bpe_openai::o200k_base().count(body.as_str());
    assert_eq!(
        d["message"],
        format!("the body is {tokens} tokens (o200k); the budget is 5000")
    );
}

#[test]
fn skill_md_over_256_kib_warns() {
    let tmp = tempfile::tempdir().unwrap();
    let body = "Instructions.\n".repeat(20_000);
    write_skill(tmp.path(), "my-skill", format!("{VALID}{body}"));
    let (code, stdout, _) = lint(tmp.path(), &["my-skill", "--select", "file-too-large"]);
    assert_eq!(code, 0);
    snapshots().bind(|| insta::assert_snapshot!("rule-file-too-large", stdout));
}

#[test]
fn a_directory_named_skill_md() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("my-skill/SKILL.md")).unwrap();
    let (code, stdout, _) = lint(tmp.path(), &["my-skill", "--format", "concise"]);
    assert_eq!(code, 2);
    assert_eq!(
        stdout,
        "my-skill: SK003 [error] SKILL.md is a directory, not a file\n"
    );
}

#[test]
fn unreadable_files() {
    let tmp = tempfile::tempdir().unwrap();
    let looping = tmp.path().join("looping");
    std::fs::create_dir(&looping).unwrap();
    std::os::unix::fs::symlink("SKILL.md", looping.join("SKILL.md")).unwrap();
    let dangling = tmp.path().join("dangling");
    std::fs::create_dir(&dangling).unwrap();
    std::os::unix::fs::symlink("nowhere.md", dangling.join("SKILL.md")).unwrap();
    let (code, stdout, _) = lint(tmp.path(), &[".", "--format", "concise"]);
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stdout.contains("dangling: SK003 [error] cannot read SKILL.md: No such file or directory"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "looping: SK003 [error] cannot read SKILL.md: Too many levels of symbolic links"
        ),
        "{stdout}"
    );
}

#[test]
fn permission_denied_when_not_root() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(tmp.path(), "my-skill", VALID);
    let file = dir.join("SKILL.md");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o000)).unwrap();
    let readable = std::fs::read(&file).is_ok();
    let (code, stdout, _) = lint(tmp.path(), &["my-skill", "--format", "concise"]);
    if readable {
        // Root reads anything; the symlink cases above cover unreadable files for root.
        assert_eq!(code, 0, "{stdout}");
    } else {
        assert_eq!(code, 2);
        assert!(
            stdout.contains("cannot read SKILL.md: Permission denied"),
            "{stdout}"
        );
    }
}

#[test]
fn a_path_that_does_not_exist() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = lint(tmp.path(), &["nope"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert_eq!(stderr, "error: nope: no such file or directory\n");
}

#[test]
fn a_file_that_is_not_skill_md() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("notes.txt"), "hi").unwrap();
    let (code, _, stderr) = lint(tmp.path(), &["notes.txt"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: notes.txt: not a skill directory or SKILL.md file\n"
    );
}

#[test]
fn yaml_with_tabs_names_line_and_column() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "my-skill",
        "---\nname: my-skill\nmetadata:\n\tauthor: me\ndescription: x\n---\n",
    );
    let (code, stdout, _) = lint(tmp.path(), &["my-skill"]);
    assert_eq!(code, 1);
    snapshots().bind(|| insta::assert_snapshot!("bad-input-tabs", stdout));
}

#[test]
fn duplicate_key_points_at_both() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "my-skill",
        "---\nname: my-skill\ndescription: Use when asked.\nname: other\n---\n",
    );
    let (code, stdout, _) = lint(
        tmp.path(),
        &[
            "my-skill",
            "--format",
            "concise",
            "--select",
            "duplicate-key",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "my-skill/SKILL.md:4:1: SK105 [error] Duplicate key 'name' in frontmatter (first defined on line 2)\n"
    );
}

#[test]
fn a_frontmatter_of_100000_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let keys: String = (0..100_000).map(|i| format!("k{i}: v\n")).collect();
    write_skill(
        tmp.path(),
        "my-skill",
        format!("---\nname: my-skill\ndescription: Use when asked.\n{keys}---\n\nDo the task.\n"),
    );
    let (code, stdout, _) = lint(
        tmp.path(),
        &["my-skill", "--format", "json", "--target", "agentskills"],
    );
    assert_eq!(code, 1);
    let report = json(&stdout);
    let slugs: Vec<&str> = report["skills"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["slug"].as_str().unwrap())
        .collect();
    // One unknown-key error listing every key, and the file is over OpenClaw's size limit.
    assert_eq!(slugs, ["file-too-large", "unknown-key"]);
    assert_eq!(report["skills"][0]["diagnostics"][1]["line"], 4);
}

#[test]
fn deeply_nested_yaml_is_refused_without_overflow() {
    let tmp = tempfile::tempdir().unwrap();
    let flow = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    write_skill(
        tmp.path(),
        "flow",
        format!("---\nname: flow\nx: {flow}\n---\n"),
    );
    let block: String = (0..2_000)
        .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
        .collect();
    write_skill(
        tmp.path(),
        "block",
        format!("---\nname: block\n{block}---\n"),
    );
    let (code, stdout, stderr) = lint(
        tmp.path(),
        &[".", "--format", "json", "--select", "invalid-yaml"],
    );
    assert_eq!(code, 1, "{stderr}");
    let report = json(&stdout);
    for skill in report["skills"].as_array().unwrap() {
        let d = &skill["diagnostics"][0];
        assert_eq!(d["slug"], "invalid-yaml", "{skill}");
        assert!(
            d["message"]
                .as_str()
                .unwrap()
                .contains("nesting is deeper than 24 levels"),
            "{d}"
        );
        let expected_line = if skill["path"] == "flow" { 3 } else { 27 };
        assert_eq!(d["line"], expected_line, "{d}");
    }
}

#[test]
fn billion_laughs_does_not_expand() {
    let tmp = tempfile::tempdir().unwrap();
    let mut yaml = String::from("name: lol\na: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let refs = vec![format!("*{}", pair[0]); 9].join(",");
        yaml.push_str(&format!("{}: &{} [{refs}]\n", pair[1], pair[1]));
    }
    write_skill(tmp.path(), "lol", format!("---\n{yaml}---\n"));
    let (code, stdout, _) = lint(tmp.path(), &["lol", "--format", "json"]);
    assert_eq!(code, 1);
    let d = &json(&stdout)["skills"][0]["diagnostics"][0];
    assert_eq!(d["slug"], "invalid-yaml");
    assert!(d["message"].as_str().unwrap().contains("budget"), "{d}");
}

#[test]
fn unknown_selector_and_flags_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, stderr) = lint(tmp.path(), &["--select", "SK999"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown rule selector 'SK999'"), "{stderr}");
    let (code, _, stderr) = lint(tmp.path(), &["--no-such-flag"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--no-such-flag"), "{stderr}");
}

#[test]
fn files_and_skills_over_clawhub_limits() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(tmp.path(), "my-skill", VALID);
    std::fs::create_dir(dir.join("assets")).unwrap();
    // Sparse files: large on paper, nothing written.
    let big = std::fs::File::create(dir.join("assets/video.bin")).unwrap();
    big.set_len(11 * 1024 * 1024).unwrap();
    for i in 0..5 {
        let part = std::fs::File::create(dir.join(format!("assets/part{i}.bin"))).unwrap();
        part.set_len(9 * 1024 * 1024).unwrap();
    }
    let (code, stdout, _) = lint(
        tmp.path(),
        &[
            "my-skill",
            "--format",
            "concise",
            "--select",
            "file-too-large",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "my-skill: SK701 [error] 'assets/video.bin' is 11534336 bytes; ClawHub refuses files over 10 MiB\nmy-skill: SK701 [error] the skill is 58720361 bytes; ClawHub refuses skills over 50 MiB\n"
    );
}

#[test]
fn crlf_scripts_with_continuations_and_unicode_do_not_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(tmp.path(), "my-skill", VALID);
    std::fs::create_dir(dir.join("scripts")).unwrap();
    std::fs::write(
        dir.join("scripts/run.sh"),
        "#!/bin/sh\r\ncurl \\\r\n  \"ü\" \\\r\n  x;jq .\r\nnotarealtool-ü\r\n",
    )
    .unwrap();
    let (code, stdout, stderr) = lint(
        tmp.path(),
        &["my-skill", "--format", "concise", "--target", "openclaw"],
    );
    assert!(code == 0 || code == 1, "{code} {stderr}");
    assert!(stdout.contains("scripts/run.sh:"), "{stdout}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn fifos_in_a_skill_are_never_read() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(tmp.path(), "my-skill", VALID);
    std::fs::create_dir(dir.join("scripts")).unwrap();
    let mkfifo = |path: &Path| {
        assert!(
            std::process::Command::new("mkfifo")
                .arg(path)
                .status()
                .unwrap()
                .success()
        );
    };
    mkfifo(&dir.join("scripts/pipe.sh"));
    let (code, _, stderr) = lint(tmp.path(), &["my-skill", "--format", "concise"]);
    assert!(code == 0 || code == 1, "{code} {stderr}");

    let other = tmp.path().join("fifo-skill");
    std::fs::create_dir(&other).unwrap();
    mkfifo(&other.join("SKILL.md"));
    let (code, stdout, _) = lint(tmp.path(), &["fifo-skill", "--format", "concise"]);
    assert_eq!(code, 2);
    assert!(
        stdout.contains("not a regular file (a FIFO, socket or device)"),
        "{stdout}"
    );
}

#[test]
fn a_skill_md_linked_outside_the_skill_is_never_read() {
    let tmp = tempfile::tempdir().unwrap();
    let secret = tmp.path().join("git-credentials");
    std::fs::write(
        &secret,
        "---\nname: my-skill\ndescription: https://alice:ghp_SECRETSECRETSECRETSECRET1234@github.com\n---\n",
    )
    .unwrap();
    let dir = tmp.path().join("my-skill");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(&secret, dir.join("SKILL.md")).unwrap();
    for format in ["human", "concise", "json", "sarif", "github"] {
        let (code, stdout, stderr) = lint(tmp.path(), &["my-skill", "--format", format]);
        assert_eq!(code, 2, "{format}: {stdout}{stderr}");
        assert!(
            !stdout.contains("SECRET") && !stderr.contains("SECRET") && !stdout.contains("alice"),
            "{format} printed the link's target:\n{stdout}{stderr}"
        );
    }
    let (_, stdout, _) = lint(tmp.path(), &["my-skill", "--format", "concise"]);
    assert!(
        stdout.contains(&format!(
            "SKILL.md is a symlink to {}, outside the skill folder; it is not read",
            secret.display()
        )),
        "{stdout}"
    );
    assert!(stdout.contains("symlink"), "{stdout}");
    // Nor does the summary read it.
    let (code, stdout, stderr) =
        run(skill()
            .current_dir(tmp.path())
            .args(["summary", "--no-builtin", "my-skill"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains("SECRET"), "{stdout}");
}

#[test]
fn a_skill_md_linked_inside_the_skill_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(tmp.path(), "my-skill", VALID);
    std::fs::rename(dir.join("SKILL.md"), dir.join("manifest.md")).unwrap();
    std::os::unix::fs::symlink("manifest.md", dir.join("SKILL.md")).unwrap();
    let (code, stdout, stderr) = lint(tmp.path(), &["my-skill", "--format", "concise"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(!stdout.contains("not read"), "{stdout}");
    assert!(!stdout.contains("SK1"), "{stdout}");
}

#[test]
fn utf16_and_utf32_files_say_so() {
    let tmp = tempfile::tempdir().unwrap();
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(VALID.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let utf16be: Vec<u8> = [0xFE, 0xFF]
        .into_iter()
        .chain(VALID.encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    let utf32: Vec<u8> = [0xFF, 0xFE, 0, 0]
        .into_iter()
        .chain(VALID.chars().flat_map(|c| (c as u32).to_le_bytes()))
        .collect();
    for (bytes, encoding) in [
        (utf16, "UTF-16LE"),
        (utf16be, "UTF-16BE"),
        (utf32, "UTF-32LE"),
    ] {
        write_skill(tmp.path(), "my-skill", bytes);
        let (code, stdout, _) = lint(tmp.path(), &["my-skill", "--format", "json"]);
        assert_eq!(code, 1);
        let d = only_diagnostic(&stdout);
        assert_eq!(
            d["message"],
            format!("SKILL.md is {encoding} encoded; save as UTF-8"),
            "{stdout}"
        );
    }
}
