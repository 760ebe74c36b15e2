//! Agreement with the Agent Skills reference validator (skills-ref 0.1.1) on every case in
//! `../shared/conformance/agentskills/`: the same validity, and the same messages in the same
//! order among the diagnostics of the rules skills-ref also has.

mod common;

use common::{copy_tree, json, run, shared_dir, skill};

/// Slugs of the rules that mirror a skills-ref check (the others are ours alone).
const SPEC_SLUGS: &[&str] = &[
    "missing-skill-md",
    "missing-frontmatter",
    "unclosed-frontmatter",
    "invalid-yaml",
    "frontmatter-not-mapping",
    "unknown-key",
    "name-missing",
    "name-not-string",
    "name-too-long",
    "name-not-lowercase",
    "name-hyphen-edge",
    "name-consecutive-hyphens",
    "name-invalid-chars",
    "name-dir-mismatch",
    "description-missing",
    "description-empty",
    "description-too-long",
    "compatibility-type",
    "compatibility-too-long",
];

#[test]
fn agrees_with_skills_ref_on_every_case() {
    let cases_dir = shared_dir().join("conformance/agentskills");
    let mut cases: Vec<_> = std::fs::read_dir(&cases_dir)
        .unwrap_or_else(|e| panic!("{}: {e}", cases_dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 27, "found only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let expected = json(&std::fs::read_to_string(case.join("expected.json")).unwrap());
        let skill_dir = expected["skill_dir"].as_str().unwrap();
        let tmp = tempfile::tempdir().unwrap();
        copy_tree(case, tmp.path());
        let (code, stdout, stderr) = run(skill().current_dir(tmp.path()).args([
            "lint",
            "--target",
            "agentskills",
            "--format",
            "json",
            "--",
            skill_dir,
        ]));
        let report = json(&stdout);
        let skills = report["skills"].as_array().unwrap();
        assert_eq!(skills.len(), 1, "{}: {stdout}{stderr}", case.display());
        let valid = skills[0]["valid"].as_bool().unwrap();
        let messages: Vec<&str> = skills[0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| SPEC_SLUGS.contains(&d["slug"].as_str().unwrap()))
            .map(|d| d["message"].as_str().unwrap())
            .collect();
        let expected_messages: Vec<&str> = expected["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let expected_valid = expected["valid"].as_bool().unwrap();
        let expected_code = if expected_valid { 0 } else { 1 };
        if valid != expected_valid || messages != expected_messages || code != expected_code {
            failures.push(format!(
                "{}: valid {valid} (expected {expected_valid}), exit {code}\n  got:      {messages:?}\n  expected: {expected_messages:?}",
                case.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases disagree:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
