//! OpenCode 1.18.33's skills block, the end of its system message (`SystemPrompt.skills`):
//! skills sorted by name, names and descriptions as written, locations XML-escaped, no budget.

use super::Listing;

const INTRO: &str = "Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description.";

/// `$A`: the location's escaping.
fn escape(text: &str) -> String {
    super::escape_xml(text, "&#39;")
}

/// The block.
pub fn render(listings: &[Listing]) -> String {
    if listings.is_empty() {
        return format!("{INTRO}\nNo skills are currently available.");
    }
    let entries: String = listings
        .iter()
        .map(|l| {
            format!(
                "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>\n",
                l.name,
                l.description,
                escape(&l.location.display().to_string())
            )
        })
        .collect();
    format!("{INTRO}\n<available_skills>\n{entries}</available_skills>")
}
