//! nanobot v0.1's `<skills>` XML (`--format nanobot-xml`) and the `# Skills` section around it,
//! and nanobot 0.3.5's grouped Markdown (`--format nanobot`). Quirks of the XML kept on purpose:
//! quotes are not escaped, the location is raw, `<requires>` appears only for unavailable
//! skills, and there is no trailing newline.

use super::Listing;
use skill_model::layout::SKILL_MD;

/// The text nanobot puts before the XML.
pub(crate) const HEADING: &str = "# Skills\n\nThe following skills extend your capabilities. To use a skill, read its SKILL.md file using the read_file tool.\nSkills with available=\"false\" need dependencies installed first - you can try installing them with apt/brew.";

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

/// The text nanobot 0.3.5 puts before its grouped summary (`templates/agent/skills_section.md`,
/// rendered by Jinja, which drops the file's final newline).
pub(crate) const GROUPED_HEADING: &str = "# Skills\n\nThe following skills extend your capabilities. Each group lists one root and relative SKILL.md paths; join them when using `read_file`.";

/// nanobot 0.3.5's `build_skills_summary`: one group per root (`### Workspace skills (`skills`)`
/// for the first, `### Built-in skills (`skills`)` for the builtin root, other roots by their
/// path), each line `- **name** — description  `name/SKILL.md``, no escaping, the
/// description untrimmed. Groups joined by a blank line; empty when there are no skills.
pub fn grouped(listings: &[Listing], roots: &[skill_model::catalog::Root]) -> String {
    let mut sections = Vec::new();
    for (index, root) in roots.iter().enumerate() {
        let members: Vec<&Listing> = listings.iter().filter(|l| l.root == root.label).collect();
        if members.is_empty() {
            continue;
        }
        let header = if root.label == "builtin" {
            "### Built-in skills (`skills`)".to_owned()
        } else if index == 0 {
            "### Workspace skills (`skills`)".to_owned()
        } else {
            let shown = std::fs::canonicalize(&root.path).unwrap_or_else(|_| root.path.clone());
            format!("### Workspace skills (`{}`)", shown.display())
        };
        let mut lines = vec![header];
        for l in members {
            let suffix = match (l.available, l.missing.is_empty()) {
                (true, _) => String::new(),
                (false, true) => " (unavailable)".to_owned(),
                (false, false) => format!(" (unavailable: {})", l.missing),
            };
            let file = l
                .location
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| SKILL_MD.to_owned());
            lines.push(format!(
                "- **{}** — {}{suffix}  `{}/{file}`",
                l.name, l.description, l.name
            ));
        }
        sections.push(lines.join("\n"));
    }
    sections.join("\n\n")
}

/// The skills part of nanobot 0.3.5's system prompt (`ContextBuilder.build_system_prompt`):
/// `# Active Skills` with the always-on, available skills' bodies, then `# Skills` with the
/// summary of the others; parts joined by `\n\n---\n\n`.
pub fn prompt(listings: &[Listing], roots: &[skill_model::catalog::Root]) -> String {
    let rest: Vec<Listing> = listings
        .iter()
        .filter(|l| !(l.always && l.available))
        .cloned()
        .collect();
    let summary = grouped(&rest, roots);
    let section = if summary.is_empty() {
        summary
    } else {
        format!("{GROUPED_HEADING}\n\n{summary}")
    };
    super::system::skills_prompt(listings, &section)
}
