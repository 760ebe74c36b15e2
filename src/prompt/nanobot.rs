//! nanobot v0.1's `<skills>` XML and the `# Skills` section around it. Quirks kept on purpose:
//! quotes are not escaped, the location is raw, `<requires>` appears only for unavailable
//! skills, and there is no trailing newline.

use super::Listing;

/// The text nanobot puts before the XML.
pub const HEADING: &str = "# Skills\n\nThe following skills extend your capabilities. To use a skill, read its SKILL.md file using the read_file tool.\nSkills with available=\"false\" need dependencies installed first - you can try installing them with apt/brew.";

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The `<skills>` block; empty when there are no skills.
pub fn render(listings: &[Listing]) -> String {
    if listings.is_empty() {
        return String::new();
    }
    let mut lines = vec!["<skills>".to_owned()];
    for l in listings {
        lines.push(format!("  <skill available=\"{}\">", l.available));
        lines.push(format!("    <name>{}</name>", escape(&l.name)));
        lines.push(format!(
            "    <description>{}</description>",
            escape(l.description.trim())
        ));
        lines.push(format!("    <location>{}</location>", l.location.display()));
        if !l.available && !l.missing.is_empty() {
            lines.push(format!("    <requires>{}</requires>", escape(&l.missing)));
        }
        lines.push("  </skill>".to_owned());
    }
    lines.push("</skills>".to_owned());
    lines.join("\n")
}

/// The whole `# Skills` section, or empty when there are no skills.
pub fn section(listings: &[Listing]) -> String {
    let block = render(listings);
    if block.is_empty() {
        block
    } else {
        format!("{HEADING}\n\n{block}")
    }
}
