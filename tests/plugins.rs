//! `skill pack --plugin claude|codex`: a marketplace folder of one plugin per skill, checked by
//! the real agents (installed by `.ci/run` under `target/test-deps/agents`), offline in a
//! temporary home: `claude plugin validate --strict` and an install; Codex's marketplace add,
//! plugin add and the prompt it would send, which lists each plugin's skill.

use crate::common;
use common::needs::{Need, lacks};

use common::{normalise, run, skill, snapshots, write_skill};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs an agent's CLI in `dir` with `home`, every update, telemetry and report call off;
/// (exit code, stdout and stderr).
fn run_agent(name: &str, dir: &Path, home: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(common::agent_cli(name))
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env("CODEX_HOME", home.join(".codex"))
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("DISABLE_ERROR_REPORTING", "1")
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    let all = common::printed(&out);
    (out.status.code().unwrap_or(-1), all)
}

/// Two skills under `skills/` of a temp folder, with a home beside them.
fn two_skills() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("home/.codex")).unwrap();
    let notes = write_skill(
        &tmp.path().join("skills"),
        "notes",
        "---\nname: notes\ndescription: Keeps notes. Use when the user asks to keep a note.\nlicense: MIT\nmetadata:\n  version: 1.2.0\n---\n\nAppend to notes.md.\n",
    );
    std::fs::create_dir_all(notes.join("scripts")).unwrap();
    std::fs::write(
        notes.join("scripts/add.sh"),
        "#!/bin/sh\necho \"$1\" >> notes.md\n",
    )
    .unwrap();
    write_skill(
        &tmp.path().join("skills"),
        "pdf-tables",
        "---\nname: pdf-tables\ndescription: Extracts tables from PDF files. Use when the user shares a PDF.\n---\n\nRun pdftotext -layout.\n",
    );
    tmp
}

fn pack(tmp: &Path, args: &[&str]) -> (i32, String, String) {
    let (code, stdout, stderr) = run(skill()
        .current_dir(tmp)
        .env("HOME", tmp.join("home"))
        .env("USER", "jane")
        .arg("pack")
        .args(args));
    (code, normalise(&stdout, tmp), normalise(&stderr, tmp))
}

/// Every file under `dir`, and the content of each JSON one.
fn listing(dir: &Path) -> String {
    let mut files: Vec<PathBuf> = ignore::WalkBuilder::new(dir)
        .hidden(false)
        .build()
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .map(|e| e.path().strip_prefix(dir).unwrap().to_path_buf())
        .collect();
    files.sort();
    let mut out = String::new();
    for file in files {
        out.push_str(&format!("{}\n", file.display()));
        if file.extension().is_some_and(|e| e == "json") {
            out.push_str(&std::fs::read_to_string(dir.join(&file)).unwrap());
        }
    }
    out
}

#[test]
fn claude_code_validates_and_installs_the_marketplace() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    let tmp = two_skills();
    let (code, stdout, stderr) = pack(tmp.path(), &["skills", "--plugin", "claude"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let out = tmp.path().join("skills-plugins");
    snapshots().bind(|| {
        insta::assert_snapshot!("plugin-claude", format!("{stdout}---\n{}", listing(&out)))
    });
    let home = tmp.path().join("home");
    for path in [
        out.clone(),
        out.join("plugins/notes"),
        out.join("plugins/pdf-tables"),
    ] {
        let target = path.to_string_lossy();
        let (code, said) = run_agent(
            "claude",
            tmp.path(),
            &home,
            &["plugin", "validate", "--strict", &target],
        );
        assert_eq!(code, 0, "{said}");
        assert!(said.contains("✔ Validation passed"), "{said}");
    }
    let (code, said) = run_agent(
        "claude",
        tmp.path(),
        &home,
        &["plugin", "marketplace", "add", "./skills-plugins"],
    );
    assert_eq!(code, 0, "{said}");
    let (code, said) = run_agent(
        "claude",
        tmp.path(),
        &home,
        &["plugin", "install", "notes@skills"],
    );
    assert_eq!(code, 0, "{said}");
    let (code, said) = run_agent(
        "claude",
        tmp.path(),
        &home,
        &["plugin", "details", "notes@skills"],
    );
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("notes"), "{said}");
}

#[test]
fn codex_installs_the_marketplace_and_lists_each_skill() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    let tmp = two_skills();
    let (code, stdout, stderr) = pack(
        tmp.path(),
        &[
            "skills",
            "--plugin",
            "codex",
            "-o",
            "market",
            "--marketplace",
            "team-skills",
        ],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    let out = tmp.path().join("market");
    snapshots().bind(|| insta::assert_snapshot!("plugin-codex", listing(&out)));
    let home = tmp.path().join("home");
    let (code, said) = run_agent(
        "codex",
        tmp.path(),
        &home,
        &["plugin", "marketplace", "add", "./market"],
    );
    assert_eq!(code, 0, "{said}");
    for plugin in ["notes", "pdf-tables"] {
        let (code, said) = run_agent(
            "codex",
            tmp.path(),
            &home,
            &["plugin", "add", &format!("{plugin}@team-skills")],
        );
        assert_eq!(code, 0, "{said}");
    }
    let (code, prompt) = run_agent("codex", tmp.path(), &home, &["debug", "prompt-input"]);
    assert_eq!(code, 0, "{prompt}");
    assert!(prompt.contains("- notes:notes: Keeps notes."), "{prompt}");
    assert!(
        prompt.contains("- pdf-tables:pdf-tables: Extracts tables"),
        "{prompt}"
    );
    assert!(
        prompt.contains("notes/1.2.0/skills/notes/SKILL.md"),
        "{prompt}"
    );
}

#[test]
fn what_an_agent_would_load_wrongly_or_not_at_all_is_refused_and_nothing_is_written() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    let tmp = two_skills();
    write_skill(
        &tmp.path().join("other"),
        "notes-v2",
        "---\nname: notes\ndescription: Keeps notes. Use when asked.\n---\n",
    );
    write_skill(
        &tmp.path().join("upper"),
        "My_Notes",
        "---\nname: My_Notes\ndescription: Keeps notes. Use when asked.\n---\n",
    );
    std::fs::create_dir_all(tmp.path().join("taken")).unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["other/notes-v2", "--plugin", "claude", "--no-lint"],
            "the frontmatter name is \"notes\" but the folder is \"notes-v2\"",
        ),
        (
            &["upper/My_Notes", "--plugin", "codex", "--no-lint"],
            "\"My_Notes\" cannot name a plugin",
        ),
        (
            &["skills", "--plugin", "codex", "--marketplace", "my.market"],
            "\"my.market\" cannot name a marketplace",
        ),
        (
            &["skills", "--plugin", "claude", "-o", "taken"],
            "taken exists",
        ),
    ];
    for (args, expected) in cases {
        let (code, stdout, stderr) = pack(tmp.path(), args);
        assert_eq!(code, 2, "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    let names: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| !n.contains("plugins") && !n.starts_with(".plugins")),
        "{names:?}"
    );
    assert_eq!(
        std::fs::read_dir(tmp.path().join("taken")).unwrap().count(),
        0
    );
}

#[test]
fn plugins_are_never_written_inside_what_is_packed() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    let tmp = two_skills();
    let skills = tmp.path().join("skills");
    let (code, _, stderr) = run(skill()
        .current_dir(&skills)
        .env("HOME", tmp.path().join("home"))
        .args(["pack", ".", "--plugin", "claude"]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("which is being packed; write the plugins elsewhere"),
        "{stderr}"
    );
    std::fs::create_dir_all(tmp.path().join("empty")).unwrap();
    let (code, _, stderr) = pack(tmp.path(), &["empty", "--plugin", "claude"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no skills to pack"), "{stderr}");
    let (code, _, stderr) = pack(
        tmp.path(),
        &["skills", "--plugin", "claude", "--owner", " "],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("needs an owner"), "{stderr}");
    write_skill(
        &tmp.path().join("odd"),
        "odd",
        "---\nname: odd\ndescription: Odd. Use when odd.\nmetadata:\n  version: 1.0 beta\n---\n",
    );
    let (code, _, stderr) = pack(tmp.path(), &["odd/odd", "--plugin", "codex"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot version a plugin"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(
        left.iter()
            .all(|n| !n.to_string_lossy().contains("plugins")),
        "{left:?}"
    );
}
