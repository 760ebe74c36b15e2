//! Gemini CLI 0.61.0's `# Available Agent Skills` section of its system instruction
//! (`renderAgentSkills`): every skill whole, nothing escaped, no budget. Its final prompt has
//! every run of three or more newlines made two.

use super::Listing;

/// The section's opening, before the call the model is told to make.
const INTRO: &str = "# Available Agent Skills\n\nYou have access to the following specialized skills. To activate a skill and receive its detailed instructions, ";

/// How Gemini 3 (and any model whose id does not start with `gemini-`) is told to call the tool;
/// Gemini 2 models read "you can call".
const CALL: &str = "call the `activate_skill` tool with the skill's name.";

/// The section, or nothing when there is no skill.
pub fn render(listings: &[Listing]) -> String {
    if listings.is_empty() {
        return String::new();
    }
    let entries: Vec<String> = listings
        .iter()
        .map(|l| {
            format!(
                "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>",
                l.name,
                l.description,
                l.location.display()
            )
        })
        .collect();
    let text = format!(
        "{INTRO}{CALL}\n\n<available_skills>\n{}\n</available_skills>",
        entries.join("\n")
    );
    collapse_blank_lines(&text)
}

/// `replace(/\n{3,}/g, "\n\n")`.
fn collapse_blank_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut newlines = 0;
    for c in text.chars() {
        if c == '\n' {
            newlines += 1;
            if newlines <= 2 {
                out.push(c);
            }
        } else {
            newlines = 0;
            out.push(c);
        }
    }
    out
}
