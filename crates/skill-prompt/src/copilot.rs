//! GitHub Copilot CLI 1.0.102's skills block, inside the `<tools>` part of its system message:
//! whole entries while their running length stays within the budget (15,000 UTF-16 code
//! units), then, from the first entry that does not fit, bare names on one line, its own
//! bundled skills included.

use super::Listing;
use skill_model::agents::text::js_len;
use skill_model::agents::{Agent, facts};
use skill_model::catalog::Root;

fn escape(text: &str) -> String {
    super::escape_xml(text, "&apos;")
}

/// Where a skill comes from, as the entry says it.
fn location(root: &str) -> &'static str {
    match root {
        "personal-copilot" | "personal-agents" => "user",
        _ => "project",
    }
}

/// A name as listed: spaces become hyphens.
fn shown_name(name: &str) -> String {
    name.replace(' ', "-")
}

fn entry(l: &Listing) -> String {
    format!(
        "<skill>\n  <name>{}</name>\n  <description>{}</description>\n  <location>{}</location>\n</skill>\n",
        escape(&shown_name(&l.name)),
        escape(&l.description),
        location(&l.root)
    )
}

/// Per listed skill, whether its entry is whole; then the bundled skills that collapse (of
/// those the user has not turned off in the settings beside `roots`).
pub fn prepare(
    listings: &[Listing],
    roots: &[Root],
    budget: usize,
) -> (Vec<bool>, Vec<&'static str>) {
    let off = skill_model::agents::copilot::disabled(roots);
    let mut used = 0;
    let mut open = true;
    let mut fits = |len: usize| {
        open = open && used + len <= budget;
        if open {
            used += len;
        }
        open
    };
    let whole = listings.iter().map(|l| fits(js_len(&entry(l)))).collect();
    let bundled = facts(Agent::Copilot)
        .bundled
        .iter()
        .filter(|b| !listings.iter().any(|l| l.name == b.name) && !off.iter().any(|o| o == b.name))
        .filter(|b| !fits(b.size))
        .map(|b| b.name)
        .collect();
    (whole, bundled)
}

/// The block, its bundled skills' whole entries left out (their text is Copilot's own), or
/// nothing when no skill is listed.
pub fn render(listings: &[Listing], roots: &[Root], budget: usize) -> String {
    let shown: Vec<Listing> = listings.iter().filter(|l| !l.hidden).cloned().collect();
    if shown.is_empty() {
        return String::new();
    }
    let (whole, bundled) = prepare(&shown, roots, budget);
    let mut out = String::from("<skill>\n<available_skills>\n");
    let mut names: Vec<String> = Vec::new();
    for (l, whole) in shown.iter().zip(&whole) {
        if *whole {
            out.push_str(&entry(l));
        } else {
            names.push(shown_name(&l.name));
        }
    }
    names.extend(bundled.into_iter().map(str::to_owned));
    if !names.is_empty() {
        out.push_str(&format!(
            "Additional skills available (invoke by name): {}\n",
            names.join(", ")
        ));
    }
    out.push_str("</available_skills>\n</skill>\n");
    out
}
