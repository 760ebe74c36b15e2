//! `skill install git:URL[@REF][#PATH]` and GitHub's `OWNER/REPO[/PATH]`, from a bare
//! repository on this machine (`file://`; GitHub's address is mapped onto it with git's own
//! `url.<base>.insteadOf`, and every transport but `file` is refused, so nothing leaves the
//! machine): pinned by commit in the lock, restored exactly by `--frozen`, moved by `update`.

use crate::common;

use common::git;

use common::{run, skill};
use std::path::PathBuf;

const PDF: &str = "---\nname: pdf\ndescription: Extracts tables from PDF files. Use when the user shares a PDF.\n---\n\nRun pdftotext.\n";

struct Repo {
    tmp: tempfile::TempDir,
}

impl Repo {
    /// A repository with `skills/pdf` tagged `v1`, then a second commit that changes it,
    /// served as the bare `github/acme/tools.git`.
    fn new() -> Repo {
        let tmp = tempfile::tempdir().unwrap();
        let work = tmp.path().join("work");
        std::fs::create_dir_all(work.join("skills/pdf")).unwrap();
        std::fs::write(work.join("skills/pdf/SKILL.md"), PDF).unwrap();
        std::fs::write(work.join("README.md"), "tools\n").unwrap();
        git(&work, &["init", "-q"]);
        git(&work, &["add", "."]);
        git(&work, &["commit", "-qm", "one"]);
        git(&work, &["tag", "v1"]);
        std::fs::write(work.join("skills/pdf/tables.md"), "More on tables.\n").unwrap();
        git(&work, &["add", "."]);
        git(&work, &["commit", "-qm", "two"]);
        std::fs::create_dir_all(tmp.path().join("github/acme")).unwrap();
        let bare = tmp.path().join("github/acme/tools.git");
        git(
            tmp.path(),
            &["clone", "-q", "--bare", "work", bare.to_str().unwrap()],
        );
        std::fs::create_dir_all(tmp.path().join("proj/.git")).unwrap();
        std::fs::create_dir_all(tmp.path().join("home")).unwrap();
        Repo { tmp }
    }

    fn url(&self) -> String {
        format!(
            "file://{}",
            self.tmp.path().join("github/acme/tools.git").display()
        )
    }

    fn proj(&self) -> PathBuf {
        self.tmp.path().join("proj")
    }

    fn commit(&self, rev: &str) -> String {
        git(&self.tmp.path().join("work"), &["rev-parse", rev])
    }

    /// A new commit on the served repository's main branch.
    fn push_change(&self) -> String {
        let work = self.tmp.path().join("work");
        std::fs::write(work.join("skills/pdf/forms.md"), "Forms.\n").unwrap();
        git(&work, &["add", "."]);
        git(&work, &["commit", "-qm", "three"]);
        let bare = self.tmp.path().join("github/acme/tools.git");
        git(&work, &["push", "-q", bare.to_str().unwrap(), "main"]);
        self.commit("HEAD")
    }

    fn skill(&self, args: &[&str]) -> (i32, String, String) {
        let github = format!("file://{}/", self.tmp.path().join("github").display());
        run(skill()
            .current_dir(self.proj())
            .env("HOME", self.tmp.path().join("home"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_ALLOW_PROTOCOL", "file")
            .env("GIT_CONFIG_COUNT", "1")
            .env("GIT_CONFIG_KEY_0", format!("url.{github}.insteadOf"))
            .env("GIT_CONFIG_VALUE_0", "https://github.com/")
            .args(args))
    }

    fn ok(&self, args: &[&str]) -> String {
        let (code, stdout, stderr) = self.skill(args);
        assert_eq!(code, 0, "skill {args:?}:\n{stdout}{stderr}");
        stdout
    }

    fn entry(&self) -> serde_json::Value {
        let text = std::fs::read_to_string(self.proj().join("skills-lock.json")).unwrap();
        serde_json::from_str::<serde_json::Value>(&text).unwrap()["skills"]["pdf"].clone()
    }
}

#[test]
fn a_git_url_installs_the_skill_at_its_path_and_the_lock_pins_the_commit() {
    let r = Repo::new();
    let source = format!("git:{}#skills/pdf", r.url());
    let out = r.ok(&["install", &source, "--agent", "claude"]);
    assert!(
        out.contains("Installed pdf in .agents/skills/pdf (2 files)"),
        "{out}"
    );
    let entry = r.entry();
    assert_eq!(entry["sourceType"], "git");
    assert_eq!(entry["source"], r.url().as_str());
    assert_eq!(entry["skillPath"], "skills/pdf/SKILL.md");
    assert_eq!(entry["commit"], r.commit("HEAD").as_str());
    assert!(entry.get("ref").is_none());
    assert!(r.proj().join(".claude/skills/pdf/tables.md").is_file());
}

/// A checkout carries no signature: `--require-signature` refuses it as it refuses an unsigned
/// archive or folder, and nothing is written.
#[test]
fn a_required_signature_refuses_a_git_source() {
    let r = Repo::new();
    let source = format!("git:{}#skills/pdf", r.url());
    let (code, stdout, stderr) = r.skill(&["install", &source, "--require-signature"]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.contains("not signed, and a signature is required"),
        "{stderr}"
    );
    assert!(!r.proj().join("skills").exists());
    assert!(!r.proj().join("skills-lock.json").exists());
}

#[test]
fn a_reference_picks_the_tag_and_github_shorthand_reads_the_mapped_repository() {
    let r = Repo::new();
    let source = format!("git:{}@v1#skills/pdf", r.url());
    r.ok(&["install", &source, "--agent", "codex"]);
    assert!(
        !r.proj().join(".agents/skills/pdf/tables.md").exists(),
        "v1 has no tables.md"
    );
    assert_eq!(r.entry()["ref"], "v1");
    assert_eq!(r.entry()["commit"], r.commit("v1").as_str());
    r.ok(&["uninstall", "pdf", "--agent", "codex"]);
    r.ok(&["install", "acme/tools/skills/pdf", "--agent", "codex"]);
    let entry = r.entry();
    assert_eq!(entry["sourceType"], "github");
    assert_eq!(entry["source"], "acme/tools");
    assert_eq!(entry["sourceUrl"], "https://github.com/acme/tools.git");
    assert!(r.proj().join(".agents/skills/pdf/tables.md").is_file());
    // Without a lock, into a plain skills folder.
    r.ok(&["install", "acme/tools/skills/pdf", "--dir", "vendor"]);
    assert!(r.proj().join("vendor/pdf/SKILL.md").is_file());
}

#[test]
fn frozen_checks_out_the_pinned_commit_and_update_moves_the_pin() {
    let r = Repo::new();
    r.ok(&["install", "acme/tools/skills/pdf", "--agent", "codex"]);
    let pinned = r.commit("HEAD");
    let newer = r.push_change();
    std::fs::remove_dir_all(r.proj().join(".agents")).unwrap();
    let out = r.ok(&["install", "--frozen", "--agent", "codex"]);
    assert!(out.contains("Installed pdf as locked"), "{out}");
    assert!(
        !r.proj().join(".agents/skills/pdf/forms.md").exists(),
        "the pinned commit, not main"
    );
    assert_eq!(r.entry()["commit"], pinned.as_str());
    assert_eq!(r.ok(&["verify", "--agent", "codex"]), "pdf: ok\n");
    let out = r.ok(&["update", "--agent", "codex"]);
    assert!(
        out.contains(&format!("Updated pdf from acme/tools at {}", &newer[..12])),
        "{out}"
    );
    assert!(r.proj().join(".agents/skills/pdf/forms.md").is_file());
    assert_eq!(r.entry()["commit"], newer.as_str());
    let out = r.ok(&["update", "--agent", "codex"]);
    assert!(out.contains("pdf up to date"), "{out}");
}

#[test]
fn hostile_and_broken_git_sources_are_refused_and_nothing_is_written() {
    let r = Repo::new();
    // The skill folder is a link in the repository to a folder of this machine.
    let outside = r.tmp.path().join("secret");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("SKILL.md"), PDF).unwrap();
    let work = r.tmp.path().join("work");
    std::os::unix::fs::symlink(&outside, work.join("linked")).unwrap();
    git(&work, &["add", "."]);
    git(&work, &["commit", "-qm", "link"]);
    let bare = r.tmp.path().join("github/acme/tools.git");
    git(&work, &["push", "-q", bare.to_str().unwrap(), "main"]);
    let url = r.url();
    let cases = [
        (format!("git:{url}#linked"), "a path inside the repository"),
        (
            format!("git:{url}#../secret"),
            "a path inside the repository",
        ),
        (
            format!("git:{url}@no-such-tag#skills/pdf"),
            "has no branch, tag or commit no-such-tag",
        ),
        (
            format!("git:{url}"),
            "no SKILL.md in the repository's root\nhint: name a skill folder: #skills/pdf",
        ),
        (
            "git:--upload-pack=touch${IFS}pwned".to_owned(),
            "git clone of --upload-pack",
        ),
        (
            "acme/missing".to_owned(),
            "acme/missing: no such file or folder here, and as the GitHub repository",
        ),
    ];
    for (source, expected) in cases {
        let (code, stdout, stderr) = r.skill(&["install", &source, "--agent", "claude"]);
        assert_eq!(code, 2, "{source}: {stdout}{stderr}");
        assert!(stderr.contains(expected), "{source}: {stderr}");
        let proj: Vec<_> = std::fs::read_dir(r.proj())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(proj, [std::ffi::OsString::from(".git")], "{source}");
    }
    assert!(!r.proj().join("pwned").exists());
}

#[test]
fn a_skill_at_the_root_is_named_by_its_frontmatter_and_vercels_github_entries_are_fetched() {
    let r = Repo::new();
    // A repository whose root is the skill.
    let solo = r.tmp.path().join("solo");
    std::fs::create_dir_all(&solo).unwrap();
    std::fs::write(solo.join("SKILL.md"), PDF).unwrap();
    git(&solo, &["init", "-q"]);
    git(&solo, &["add", "."]);
    git(&solo, &["commit", "-qm", "one"]);
    let bare = r.tmp.path().join("github/acme/solo-repo.git");
    git(
        r.tmp.path(),
        &["clone", "-q", "--bare", "solo", bare.to_str().unwrap()],
    );
    let out = r.ok(&["install", "acme/solo-repo", "--agent", "codex"]);
    assert!(out.contains("Installed pdf in .agents/skills/pdf"), "{out}");
    assert_eq!(r.entry()["skillPath"], "SKILL.md");
    // vercel's lock for a GitHub source has no URL: `source` is OWNER/REPO.
    std::fs::remove_dir_all(r.proj().join(".agents")).unwrap();
    std::fs::write(
        r.proj().join("skills-lock.json"),
        "{\"version\": 1, \"skills\": {\"pdf\": {\"source\": \"acme/tools\", \"sourceType\": \"github\", \"skillPath\": \"skills/pdf/SKILL.md\"}}}",
    )
    .unwrap();
    let out = r.ok(&["update", "--agent", "codex"]);
    assert!(out.contains("Updated pdf from acme/tools"), "{out}");
    assert!(r.proj().join(".agents/skills/pdf/tables.md").is_file());
    assert_eq!(r.entry()["commit"], r.commit("HEAD").as_str());
}

#[test]
fn a_projects_lock_cannot_clone_a_repository_of_this_machine_outside_the_project() {
    let r = Repo::new();
    let source = format!("git:{}#skills/pdf", r.url());
    let out = r.ok(&["install", &source, "--agent", "codex"]);
    assert!(out.contains("Installed pdf"), "{out}");
    std::fs::remove_dir_all(r.proj().join(".agents")).unwrap();
    for args in [
        &["install", "--frozen", "--agent", "codex"][..],
        &["update", "--agent", "codex"],
    ] {
        let (code, _, stderr) = r.skill(args);
        assert_ne!(code, 0, "{args:?}");
        assert!(
            stderr.contains("is outside the project"),
            "{args:?}: {stderr}"
        );
        assert!(!r.proj().join(".agents/skills/pdf").exists(), "{args:?}");
    }
}
