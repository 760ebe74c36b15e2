//! The JSON schemas of `schemas/`, compiled and applied to what the binary prints.

use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas")
}

pub fn schema(name: &str) -> Value {
    let path = schemas_dir().join(format!("{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn validator(name: &str) -> jsonschema::Validator {
    jsonschema::draft202012::new(&schema(name))
        .unwrap_or_else(|e| panic!("schemas/{name}.schema.json does not compile: {e}"))
}

/// Every way `document` breaks schema `name`, one line each with its instance path.
pub fn violations(name: &str, document: &Value) -> Vec<String> {
    validator(name)
        .iter_errors(document)
        .map(|e| format!("  at '{}': {e}", e.instance_path()))
        .collect()
}

/// Parses `stdout` and asserts that schema `name` accepts it; returns the document, so the
/// test can check that the parts worth validating are there (an empty array validates
/// anything).
pub fn conforms(name: &str, stdout: &str) -> Value {
    let document = super::json(stdout);
    let errors = violations(name, &document);
    assert!(
        errors.is_empty(),
        "schemas/{name}.schema.json rejects the output:\n{}\n\n{stdout}",
        errors.join("\n")
    );
    document
}
