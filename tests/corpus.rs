//! The whole shared corpus of real skills is linted: no crash, exit 1 (it has errors), one
//! entry per skill folder, and a snapshot of how many diagnostics each rule gives, so any change
//! of behaviour shows up in review.

mod common;

use common::{json, run, shared_dir, skill, snapshots};
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

#[test]
fn lints_the_whole_corpus() {
    let corpus = shared_dir().join("corpus");
    let (code, stdout, stderr) = run(skill()
        .args(["lint", "--format", "json", "--no-env-checks"])
        .arg(&corpus));
    assert_eq!(code, 1, "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let report = json(&stdout);
    let skills = report["skills"].as_array().unwrap();
    assert_eq!(skills.len(), count_skill_folders(&corpus));
    assert_eq!(
        report["summary"]["skills"].as_u64().unwrap() as usize,
        skills.len()
    );

    let mut per_slug: BTreeMap<String, usize> = BTreeMap::new();
    let mut invalid = 0;
    for s in skills {
        invalid += usize::from(!s["valid"].as_bool().unwrap());
        for d in s["diagnostics"].as_array().unwrap() {
            *per_slug
                .entry(d["slug"].as_str().unwrap().to_owned())
                .or_default() += 1;
        }
    }
    let settings = snapshots();
    settings.bind(|| {
        insta::assert_json_snapshot!("corpus-diagnostics-per-slug", per_slug);
        insta::assert_snapshot!(
            "corpus-totals",
            format!(
                "skills: {}\ninvalid: {invalid}\nsummary: {}",
                skills.len(),
                report["summary"]
            )
        );
    });
}

#[test]
fn agentskills_target_on_the_corpus_never_crashes() {
    let corpus = shared_dir().join("corpus");
    let (code, stdout, stderr) = run(skill()
        .args([
            "lint",
            "--target",
            "agentskills",
            "--format",
            "concise",
            "--no-env-checks",
        ])
        .arg(&corpus));
    assert_eq!(code, 1, "stderr: {stderr}");
    assert!(stdout.lines().count() > 1000);
}
