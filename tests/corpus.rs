//! Real third-party skills are linted: no crash, one entry per skill folder, a concise line per
//! diagnostic, and a snapshot of how many diagnostics each rule gives, so any change of
//! behaviour shows up in review. Two corpora: the skills that `.ci/run` fetches by package name
//! (always), and the big `../shared/corpus` (skipped, saying so, where it is absent).

mod common;

use common::{json, package_corpus, run, shared_corpus, skill, snapshots};
use std::collections::BTreeMap;
use std::path::Path;

/// Counts folders holding a `SKILL.md` or `skill.md`, the way a reader of the corpus would.
fn count_skill_folders(dir: &Path) -> usize {
    let mut count = 0;
    let mut has_manifest = false;
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if entry.file_type().unwrap().is_dir() {
            count += count_skill_folders(&entry.path());
        } else if name == "SKILL.md" || name == "skill.md" {
            has_manifest = true;
        }
    }
    count + usize::from(has_manifest)
}

/// Lints `corpus` as JSON, expects exit `code` (1 when it has errors) and snapshots the
/// diagnostics per slug and the totals under `name`.
fn lint_and_snapshot(corpus: &Path, expected_code: i32, name: &str) {
    let (code, stdout, stderr) = run(skill()
        .args(["lint", "--format", "json", "--no-env-checks"])
        .arg(corpus));
    assert_eq!(code, expected_code, "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let report = json(&stdout);
    let skills = report["skills"].as_array().unwrap();
    assert_eq!(skills.len(), count_skill_folders(corpus));
    assert_eq!(
        report["summary"]["skills"].as_u64().unwrap() as usize,
        skills.len()
    );

    let mut per_slug: BTreeMap<String, usize> = BTreeMap::new();
    let mut invalid = 0;
    for s in skills {
        let diagnostics = s["diagnostics"].as_array().unwrap();
        let has_error = diagnostics.iter().any(|d| d["severity"] == "error");
        assert_eq!(s["valid"].as_bool().unwrap(), !has_error, "{s}");
        invalid += usize::from(has_error);
        for d in diagnostics {
            *per_slug
                .entry(d["slug"].as_str().unwrap().to_owned())
                .or_default() += 1;
        }
    }
    snapshots().bind(|| {
        insta::assert_json_snapshot!(format!("{name}-diagnostics-per-slug"), per_slug);
        insta::assert_snapshot!(
            format!("{name}-totals"),
            format!(
                "skills: {}\ninvalid: {invalid}\nsummary: {}",
                skills.len(),
                report["summary"]
            )
        );
    });
}

/// Lints `corpus` for the agentskills target in the concise format: every line is one
/// `path:line:col: CODE [severity] message` (or `path: CODE ...` for a whole folder), and at
/// least one skill is refused, as the reference validator refuses many real skills.
fn lint_agentskills_concise(corpus: &Path) {
    let (code, stdout, stderr) = run(skill()
        .args([
            "lint",
            "--target",
            "agentskills",
            "--format",
            "concise",
            "--no-env-checks",
        ])
        .arg(corpus));
    assert_eq!(code, 1, "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let line =
        regex::Regex::new(r"^\S.*?(:\d+:\d+)?: SK\d{3} \[(error|warning|info)\] \S").unwrap();
    let mut errors = 0;
    for l in stdout.lines() {
        assert!(line.is_match(l), "not a concise diagnostic: {l}");
        errors += usize::from(l.contains(" [error] "));
    }
    assert!(errors > 0, "no errors in:\n{stdout}");
}

#[test]
fn lints_the_package_corpus() {
    // The packages' own skills pass in the portable target: warnings and infos only.
    lint_and_snapshot(&package_corpus(), 0, "package-corpus");
}

#[test]
fn agentskills_target_on_the_package_corpus() {
    lint_agentskills_concise(&package_corpus());
}

#[test]
fn lints_the_whole_shared_corpus() {
    let Some(corpus) = shared_corpus("lints_the_whole_shared_corpus") else {
        return;
    };
    lint_and_snapshot(&corpus, 1, "corpus");
}

#[test]
fn agentskills_target_on_the_shared_corpus() {
    let Some(corpus) = shared_corpus("agentskills_target_on_the_shared_corpus") else {
        return;
    };
    lint_agentskills_concise(&corpus);
}
