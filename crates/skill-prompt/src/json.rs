//! `--format json`: every listing as an object, for scripts.

use super::Listing;

/// `{"version": 1, "skills": [...]}`, pretty-printed.
pub fn render(listings: &[Listing]) -> String {
    serde_json::to_string_pretty(
        &serde_json::json!({ "version": skill_model::JSON_VERSION, "skills": listings }),
    )
    .unwrap_or_default()
}
