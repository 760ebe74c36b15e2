//! `skill summary --format agentskills` is byte-identical to the real `agentskills to-prompt`
//! (PyPI skills-ref 0.1.1, installed by `.ci/run`) on every skill of the package corpus and on a
//! sample of the shared corpus where it is present.

use crate::common;
use common::needs::{Need, lacks};

use common::{package_corpus, run, shared_corpus, skill};
use std::path::{Path, PathBuf};
use std::process::Command;

fn agentskills() -> PathBuf {
    std::env::var_os("SKILLS_REF_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-deps/venv/bin/agentskills")
        })
}

fn skill_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    if entries
        .iter()
        .any(|p| p.file_name().is_some_and(|n| n == "SKILL.md"))
    {
        out.push(dir.to_path_buf());
    }
    for path in entries.into_iter().filter(|p| p.is_dir()) {
        skill_dirs(&path, out);
    }
}

/// Compares both outputs on every `step`th skill below `corpus` that to-prompt can read (it
/// aborts on the first one it cannot), one skill per name; at least `min` of them.
fn compare_on(corpus: &Path, step: usize, min: usize) {
    let bin = agentskills();
    assert!(
        bin.is_file(),
        "{} is missing: run .ci/run, which installs skills-ref==0.1.1 there",
        bin.display()
    );
    let mut all = Vec::new();
    skill_dirs(corpus, &mut all);
    let mut names = std::collections::HashSet::new();
    let mut sample: Vec<PathBuf> = Vec::new();
    for dir in all.iter().step_by(step) {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        // to-prompt aborts on the first skill it cannot read; keep the ones it reads.
        let readable = Command::new(&bin)
            .arg("to-prompt")
            .arg(dir)
            .output()
            .unwrap()
            .status
            .success();
        if readable && names.insert(name) {
            sample.push(dir.clone());
        }
    }
    assert!(
        sample.len() >= min,
        "only {} readable skills in the sample",
        sample.len()
    );
    let expected = Command::new(&bin)
        .arg("to-prompt")
        .args(&sample)
        .output()
        .unwrap();
    assert!(expected.status.success());
    let (code, stdout, stderr) = run(skill()
        .args(["summary", "--no-builtin", "--format", "agentskills"])
        .args(&sample));
    assert_eq!(code, 0, "{stderr}");
    let expected = String::from_utf8(expected.stdout).unwrap();
    if stdout != expected {
        let diff = similar::TextDiff::from_lines(&expected, &stdout)
            .unified_diff()
            .header("agentskills to-prompt", "skill summary")
            .to_string();
        panic!("outputs differ on {} skills:\n{diff}", sample.len());
    }
}

#[test]
fn summary_matches_to_prompt_on_the_package_corpus() {
    if lacks(&[Need::SkillsRef, Need::PackageCorpus]) {
        return;
    }
    // Most of these skills write `metadata` as a flow mapping, which to-prompt's strict YAML
    // refuses; 17 of the 70 are readable.
    compare_on(&package_corpus(), 1, 15);
}

#[test]
fn summary_matches_to_prompt_on_shared_corpus_skills() {
    if lacks(&[Need::SkillsRef]) {
        return;
    }
    let Some(corpus) = shared_corpus("summary_matches_to_prompt_on_shared_corpus_skills") else {
        return;
    };
    compare_on(&corpus, 53, 25);
}
