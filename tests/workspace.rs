//! The layering the crates promise, read from `cargo metadata`: each crate under `crates/`
//! depends only on the crates below it, the model on none, and only the `skill` package (the CLI)
//! on clap.

use serde_json::Value;
use std::process::Command;

/// The workspace's library crates, lowest first: each may depend only on those before it.
const LAYERS: &[&str] = &[
    "skill-model",
    "skill-lint",
    "skill-prompt",
    "skill-archive",
    "skill-http",
    "skill-agent",
    "skill-registry",
];

/// The workspace's packages as `cargo metadata` lists them (no registry access).
fn packages() -> Vec<Value> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).unwrap();
    metadata["packages"].as_array().unwrap().clone()
}

/// The names of `package`'s normal (not dev or build) dependencies.
fn normal_dependencies(package: &Value) -> Vec<String> {
    package["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"].is_null())
        .map(|d| d["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn each_crate_depends_only_on_the_crates_below_it() {
    let packages = packages();
    let members: Vec<&str> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let mut listed: Vec<&str> = LAYERS.to_vec();
    listed.push("skill");
    let mut sorted_members = members.clone();
    sorted_members.sort_unstable();
    listed.sort_unstable();
    assert_eq!(
        sorted_members, listed,
        "every crate has its place in LAYERS"
    );
    for (height, name) in LAYERS.iter().enumerate() {
        let package = packages.iter().find(|p| p["name"] == *name).unwrap();
        for dependency in normal_dependencies(package) {
            if let Some(at) = members.iter().position(|m| *m == dependency) {
                let dependency_height = LAYERS.iter().position(|l| *l == members[at]);
                assert!(
                    dependency_height.is_some_and(|h| h < height),
                    "{name} depends on {dependency}, which is not below it"
                );
            }
        }
    }
    let model = packages
        .iter()
        .find(|p| p["name"] == "skill-model")
        .unwrap();
    let inside: Vec<String> = normal_dependencies(model)
        .into_iter()
        .filter(|d| members.contains(&d.as_str()))
        .collect();
    assert!(
        inside.is_empty(),
        "the model depends on no other crate: {inside:?}"
    );
}

#[test]
fn only_the_cli_depends_on_clap() {
    for package in packages() {
        let name = package["name"].as_str().unwrap();
        let clap: Vec<String> = normal_dependencies(&package)
            .into_iter()
            .filter(|d| d.starts_with("clap"))
            .collect();
        assert!(
            name == "skill" || clap.is_empty(),
            "{name} depends on {clap:?}; only the CLI parses arguments"
        );
    }
}
