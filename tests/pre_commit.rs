//! The hooks of `.pre-commit-hooks.yaml`, run by the real `pre-commit` (PyPI; `.ci/run` installs
//! it into `target/test-deps/pre-commit-venv`) on commits in a temporary git repository that takes
//! them from a copy of this repository's manifest. The copy runs the `skill` these tests built
//! (`language: system` and its path) instead of building one with `language: rust`, which would
//! compile the whole crate again; ids, entries, arguments and file patterns are the manifest's.

use crate::common;
use common::needs::{Need, lacks};

use common::{copy_tree, write_skill};
use std::path::{Path, PathBuf};
use std::process::Command;

fn pre_commit() -> Option<PathBuf> {
    let path = std::env::var_os("SKILL_TEST_PRE_COMMIT")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("target/test-deps/pre-commit-venv/bin/pre-commit")
        });
    if path.is_file() {
        return Some(path);
    }
    eprintln!(
        "SKIPPED pre-commit hooks: no pre-commit at {} (bash .ci/run installs it)",
        path.display()
    );
    None
}

/// `git ARGS` in `dir` with a HOME of the test's own (no user or global configuration).
fn git(dir: &Path, home: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env("PRE_COMMIT_HOME", home.join("pre-commit"))
        .env_remove("SKILL_RECORD")
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// A git repository holding this repository's hook manifest, its hooks running the built binary;
/// returns its commit.
fn hook_source(dir: &Path, home: &Path) -> String {
    let manifest = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml"),
    )
    .unwrap();
    assert_eq!(
        manifest.matches("\n  language: rust").count(),
        manifest.matches("\n- id:").count()
    );
    let local = manifest
        .replace("\n  language: rust", "\n  language: system")
        .replace(
            "entry: skill ",
            &format!("entry: {} ", env!("CARGO_BIN_EXE_skill")),
        );
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(".pre-commit-hooks.yaml"), local).unwrap();
    for args in [
        &["init", "-q"][..],
        &["add", "."],
        &["commit", "-qm", "hooks"],
    ] {
        let (ok, out) = git(dir, home, args);
        assert!(ok, "{out}");
    }
    git(dir, home, &["rev-parse", "HEAD"]).1.trim().to_owned()
}

#[test]
fn a_bad_skill_blocks_the_commit_a_good_one_passes_and_fix_rewrites_once() {
    if lacks(&[Need::PreCommit]) {
        return;
    }
    let Some(pre_commit) = pre_commit() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let rev = hook_source(&tmp.path().join("hooks"), &home);
    let project = tmp.path().join("project");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/skills/docker-deploy"),
        &project.join("skills/docker-deploy"),
    );
    let config = format!(
        "repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: skill-lint\n      - id: skill-lint-fix\n      - id: skill-test\n      - id: skill-eval\n",
        tmp.path().join("hooks").display()
    );
    std::fs::write(project.join(".pre-commit-config.yaml"), config).unwrap();
    let (ok, out) = git(&project, &home, &["init", "-q"]);
    assert!(ok, "{out}");
    // skill-eval replays trigger sets: each skill gets its starter one.
    let triggers = |dir: &Path| {
        let init = common::skill()
            .args(["eval", "--init"])
            .arg(dir)
            .env("SKILL_CACHE_DIR", home.join("cache"))
            .output()
            .unwrap();
        assert!(init.status.success(), "{init:?}");
    };
    triggers(&project.join("skills/docker-deploy"));
    let install = Command::new(&pre_commit)
        .arg("install")
        .current_dir(&project)
        .env("HOME", &home)
        .env("PRE_COMMIT_HOME", home.join("pre-commit"))
        .output()
        .unwrap();
    assert!(install.status.success(), "{install:?}");
    let commit = |message: &str| {
        let (ok, out) = git(&project, &home, &["add", "-A"]);
        assert!(ok, "{out}");
        git(&project, &home, &["commit", "-qm", message])
    };

    let (ok, out) = commit("a good skill");
    assert!(ok, "{out}");
    for hook in ["skill lint", "skill test", "skill eval"] {
        let passed = out
            .lines()
            .any(|l| l.starts_with(hook) && l.ends_with("Passed"));
        assert!(passed, "{hook}: {out}");
    }

    // A new skill is a new distractor in every other skill's trigger set, whose cassettes must
    // then be recorded again with a model: the rest runs without skill-eval.
    let config = std::fs::read_to_string(project.join(".pre-commit-config.yaml")).unwrap();
    let without_eval = config.replace("      - id: skill-eval\n", "");
    std::fs::write(project.join(".pre-commit-config.yaml"), without_eval).unwrap();
    write_skill(
        &project.join("skills"),
        "broken",
        "---\nname: [broken\n---\n",
    );
    let (ok, out) = commit("a broken skill");
    assert!(!ok, "{out}");
    assert!(out.contains("skills/broken/SKILL.md"), "{out}");
    std::fs::remove_dir_all(project.join("skills/broken")).unwrap();

    let bom = "\u{feff}---\nname: with-bom\ndescription: Says hello. Use when the user asks for a greeting.\n---\n\nSay hello.\n";
    let skill_md = write_skill(&project.join("skills"), "with-bom", bom).join("SKILL.md");
    let (ok, out) = commit("a skill with a byte-order mark");
    assert!(!ok, "{out}");
    assert!(out.contains("files were modified by this hook"), "{out}");
    let fixed = std::fs::read_to_string(&skill_md).unwrap();
    assert_eq!(fixed, bom.trim_start_matches('\u{feff}'));
    let (ok, out) = commit("a skill with a byte-order mark, fixed");
    assert!(ok, "{out}");
}
