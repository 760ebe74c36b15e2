//! The skills part of a system prompt as the agent loop uses it: the always-on skills in full
//! under `# Active Skills`, then the summary section, joined as nanobot joins prompt parts.

use super::Listing;

/// What separates system-prompt parts.
pub const PART_SEPARATOR: &str = "\n\n---\n\n";

/// `# Active Skills` with every always-on, available skill's body; empty when there is none.
pub fn active_skills(listings: &[Listing]) -> String {
    let blocks: Vec<String> = listings
        .iter()
        .filter(|l| l.always && l.available)
        .map(|l| format!("### Skill: {}\n\n{}", l.name, l.body))
        .collect();
    if blocks.is_empty() {
        String::new()
    } else {
        format!("# Active Skills\n\n{}", blocks.join(PART_SEPARATOR))
    }
}

/// The active skills, then `summary_section`, skipping empty parts.
pub fn skills_prompt(listings: &[Listing], summary_section: &str) -> String {
    [active_skills(listings), summary_section.to_owned()]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(PART_SEPARATOR)
}
