//! The compact Markdown list (nanobot v0.1.5.post2 style): `- **name** — description  `path``,
//! unavailable skills marked.

use super::Listing;

/// One line per skill, always-on skills included, joined with `\n`.
pub fn render(listings: &[Listing]) -> String {
    let lines: Vec<String> = listings
        .iter()
        .map(|l| {
            let unavailable = match (l.available, l.missing.is_empty()) {
                (true, _) => String::new(),
                (false, true) => " (unavailable)".to_owned(),
                (false, false) => format!(" (unavailable: {})", l.missing),
            };
            format!(
                "- **{}** — {}{unavailable}  `{}`",
                l.name,
                l.description.trim(),
                l.location.display()
            )
        })
        .collect();
    lines.join("\n")
}
