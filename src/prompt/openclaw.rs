//! OpenClaw's `<available_skills>`: eligible, model-invocable skills sorted by name, values
//! XML-escaped, the home folder shown as `~`, and its budget: over the character or count limit,
//! descriptions go first (compact form), then the longest prefix that fits, with a warning line.

use super::Listing;
use std::path::Path;

/// OpenClaw's `maxSkillsInPrompt`.
pub const MAX_SKILLS: usize = 150;

/// The text OpenClaw puts before the block.
pub const PREAMBLE: &str = "The following skills provide specialized instructions for specific tasks.\nUse the read tool to load a skill's file when the task matches its description.\nWhen a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.";

/// The section heading and rules OpenClaw wraps the block in.
pub const HEADING: &str = "## Skills (mandatory)\nBefore replying: scan <available_skills> <description> entries.\n- If exactly one skill clearly applies: read its SKILL.md at <location> with `read`, then follow it.\n- If multiple could apply: choose the most specific one, then read/follow it.\n- If none clearly apply: do not read any SKILL.md.\nConstraints: never read more than one skill up front; only read after selecting.";

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

fn tilde(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

fn block(listings: &[&Listing], compact: bool, home: Option<&Path>) -> String {
    let mut out = String::from("<available_skills>\n");
    for l in listings {
        out.push_str("  <skill>\n");
        out.push_str(&format!("    <name>{}</name>\n", escape(&l.declared_name)));
        if !compact {
            out.push_str(&format!(
                "    <description>{}</description>\n",
                escape(l.description.trim())
            ));
        }
        out.push_str(&format!(
            "    <location>{}</location>\n",
            escape(&tilde(&l.location, home))
        ));
        out.push_str("  </skill>\n");
    }
    out.push_str("</available_skills>");
    out
}

/// The block for `listings` within `budget` characters (OpenClaw's rules), or empty.
pub fn render(listings: &[Listing], budget: usize, home: Option<&Path>) -> String {
    let mut shown: Vec<&Listing> = listings
        .iter()
        .filter(|l| l.available && !l.hidden)
        .collect();
    shown.sort_by(|a, b| a.declared_name.cmp(&b.declared_name));
    if shown.is_empty() {
        return String::new();
    }
    let total = shown.len();
    let fits = |n: usize, compact: bool| {
        n <= MAX_SKILLS && block(&shown[..n], compact, home).chars().count() <= budget
    };
    if fits(total, false) {
        return block(&shown, false, home);
    }
    if fits(total, true) {
        return format!(
            "⚠️ Skills catalog using compact format (descriptions omitted). Run `openclaw skills check` to audit.\n{}",
            block(&shown, true, home)
        );
    }
    // The longest prefix that fits, found by binary search as OpenClaw does.
    let (mut lo, mut hi) = (0, total);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(mid, true) {
            lo = mid
        } else {
            hi = mid - 1
        }
    }
    format!(
        "⚠️ Skills truncated: included {lo} of {total} (compact format, descriptions omitted). Run `openclaw skills check` to audit.\n{}",
        block(&shown[..lo], true, home)
    )
}

/// The section as OpenClaw's system prompt carries it, or empty.
pub fn section(listings: &[Listing], budget: usize, home: Option<&Path>) -> String {
    let block = render(listings, budget, home);
    if block.is_empty() {
        block
    } else {
        format!("{HEADING}\n\n{PREAMBLE}\n\n{block}")
    }
}
