//! The machine formats: SARIF (validated against the SARIF 2.1.0 JSON schema) and GitHub
//! workflow commands.

use crate::common;
use common::needs::{Need, lacks};

use common::{json, run, skill, snapshots, write_skill};
use std::path::PathBuf;

fn tree() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "skills/other-dir",
        "---\nname: my-skill\ndescription: Use when asked.\n---\n",
    );
    write_skill(
        tmp.path(),
        "skills/extra",
        "---\nname: extra\ndescription: Use when asked: x, y\nhomepage: https://example.com\n---\n",
    );
    std::fs::write(tmp.path().join("skills/extra/.DS_Store"), "x").unwrap();
    tmp
}

/// The schema `.ci/run` unpacks from the npm package `@microsoft/jest-sarif`.
fn schema_path() -> PathBuf {
    std::env::var_os("SARIF_SCHEMA")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("target/test-deps/sarif-schema-2.1.0.json")
        })
}

#[test]
fn sarif_is_valid_against_the_schema() {
    if lacks(&[Need::SarifSchema]) {
        return;
    }
    let path = schema_path();
    let schema = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("{}: {e}; run .ci/run (or `npm pack @microsoft/jest-sarif` and unpack lib/schemas/sarif-2.1.0-rtm.5.json there)", path.display())
    });
    // The published schema's `language` pattern has a stray `]` that regex checkers reject;
    // the intent (a language tag such as `en` or `en-US`) is kept.
    let schema = schema.replace(
        r#"^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$"#,
        r#"^[a-zA-Z]{2}(-[a-zA-Z]{2})?$"#,
    );
    let schema: serde_json::Value = serde_json::from_str(&schema).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let broken = serde_json::json!({"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]});
    assert!(
        !validator.is_valid(&broken),
        "the schema must reject a driver without a name"
    );
    let tmp = tree();
    let (code, stdout, _) = run(skill()
        .current_dir(tmp.path())
        .args(["lint", "skills", "--format", "sarif"]));
    assert_eq!(code, 1);
    let log = json(&stdout);
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(
        results
            .iter()
            .any(|r| r["ruleId"] == "SK208" && r["level"] == "error")
    );
    assert!(results.iter().any(|r| {
        r["ruleId"] == "SK803"
            && r["locations"][0]["physicalLocation"]
                .get("region")
                .is_none()
    }));
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    for r in results {
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
    }
}

#[test]
fn github_workflow_commands() {
    let tmp = tree();
    let (code, stdout, _) = run(skill()
        .current_dir(tmp.path())
        .args(["lint", "skills", "--format", "github"]));
    assert_eq!(code, 1);
    snapshots().bind(|| insta::assert_snapshot!("format-github", stdout));
    let (_, chosen, _) = run(skill()
        .current_dir(tmp.path())
        .env("GITHUB_ACTIONS", "true")
        .args(["lint", "skills"]));
    assert_eq!(chosen, stdout);
}
