//! Description rules: presence, length (skills-ref's exact messages), and quality hints.

use super::Context;
use super::names::value_span;
use crate::diagnostic::{Diagnostic, Location};
use crate::rulebook::*;
use crate::target::Target;

/// Longest description the spec allows, in code points.
const MAX_DESCRIPTION: usize = skill_model::layout::DESCRIPTION_MAX;

/// Phrases that tell the model when to pick the skill.
const TRIGGER_HINTS: &[&str] = &[
    "when",
    "use for",
    "use this",
    "use it",
    "use to",
    "use if",
    "trigger",
    "invoke",
    "if the user",
    "if you",
    "for tasks",
    "helps with",
    "asked to",
    "ask for",
    "asks for",
    "needs to",
    // "Use PROACTIVELY for ...", "Use before ...", "Use after ...", "Use on ...".
    "use proactively",
    "use after",
    "use during",
    "use on ",
    "use whenever",
    // Scope cues that say which requests the skill is for and which it is not.
    "good for",
    "ideal for",
    "best for",
    "useful for",
    "perfect for",
    "great for",
    "not for",
    // A moment in the user's work: "before answering questions", "before you install them".
    "before ",
    // "When" in the other languages descriptions are written in: "usa cuando necesites",
    // "当学生提出问题时使用" (use when a student asks), "相談時に使用" (use when consulting),
    // "适用于" (suited to), as "good for".
    "cuando",
    "quand ",
    "lorsque",
    "wenn ",
    "quando",
    "时使用",
    "时调用",
    "时触发",
    "時に使用",
    "時に呼び出",
    "場合に使用",
    "适用于",
];

/// Every check of `description`.
pub(crate) fn check_description(cx: &Context, out: &mut Vec<Diagnostic>) {
    let (Some(manifest), Some(doc)) = (cx.manifest(), cx.document()) else {
        return;
    };
    let Some(entry) = manifest.get("description") else {
        let open = doc.frontmatter.map(|f| f.open).unwrap_or_default();
        out.push(cx.diagnostic(
            &DESCRIPTION_MISSING,
            "Missing required field in frontmatter: description".into(),
            Location::Span(open),
        ));
        return;
    };
    let at = Location::Span(value_span(entry.key_span, entry.value.span));
    let text = entry.value.scalar_text(cx.text()).unwrap_or("");
    if text.trim().is_empty() {
        out.push(cx.diagnostic(
            &DESCRIPTION_EMPTY,
            "Field 'description' must be a non-empty string".into(),
            at,
        ));
        return;
    }
    check_length(cx, text, &at, out);
    if text.contains(['<', '>']) {
        out.push(
            cx.diagnostic(
                &DESCRIPTION_ANGLE_BRACKETS,
                "Description contains '<' or '>'; quick_validate and Claude uploads refuse angle brackets".into(),
                at.clone(),
            )
            .with_help("describe the placeholder in words, or drop the brackets"),
        );
    }
    if text.contains("TODO") {
        out.push(cx.diagnostic(
            &TODO_PLACEHOLDER,
            "`description` still holds a TODO placeholder".into(),
            at.clone(),
        ));
        return;
    }
    check_trigger(cx, text, at, out);
}

/// A description that does not say when to use the skill: for OpenClaw, only when the body
/// does in its stead; never for a sub-skill the agent does not list on its own.
fn check_trigger(cx: &Context, text: &str, at: Location, out: &mut Vec<Diagnostic>) {
    let lower = text.to_lowercase();
    if !cx.listed_on_its_own() || TRIGGER_HINTS.iter().any(|h| lower.contains(h)) {
        return;
    }
    let (body, offset) = cx.body_text();
    let stranded = body_routing(body);
    // OpenClaw's own skills name their task in one line; only routing left in the body is lost.
    if cx.target == Target::Openclaw && stranded.is_none() {
        return;
    }
    let message = match stranded {
        Some(start) => format!(
            "Description does not say when to use the skill; the body does (line {}), but the model reads the body only after choosing",
            cx.text()[..offset + start].matches('\n').count() + 1
        ),
        None => "Description does not say when to use the skill".into(),
    };
    out.push(
        cx.diagnostic(&DESCRIPTION_NO_TRIGGER, message, at)
            .with_help("add a sentence such as \"Use when the user asks to ...\""),
    );
}

/// How a body says when to use the skill, at the start of a line or heading.
const BODY_ROUTING: &[&str] = &[
    "when to use",
    "when not to use",
    "use this skill when",
    "use this skill for",
    "use this skill if",
    "use when",
    "use for ",
    "trigger phrases",
];

/// Where in `body` the first line outside code starts that says when to use the skill.
fn body_routing(body: &str) -> Option<usize> {
    let mut fenced = false;
    let mut at = 0;
    for line in body.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        let opening = trimmed
            .trim_start_matches(['#', '*', '-', '>', ' '])
            .to_lowercase();
        if !fenced && BODY_ROUTING.iter().any(|r| opening.starts_with(r)) {
            return Some(start);
        }
    }
    None
}

/// The description's length against the target's limit, else against a limit the chosen
/// agent has cited (a warning).
fn check_length(cx: &Context, text: &str, at: &Location, out: &mut Vec<Diagnostic>) {
    let len = text.chars().count();
    // An agent's own cap, where stricter than the spec's, is the limit for its target.
    let max = cx
        .target
        .facts()
        .and_then(|f| f.description_max)
        .map_or(MAX_DESCRIPTION, |m| m.min(MAX_DESCRIPTION));
    if len > max {
        out.push(cx.diagnostic(
            &DESCRIPTION_TOO_LONG,
            format!("Description exceeds {max} character limit ({len} chars)"),
            at.clone(),
        ));
    } else if let Some(advice) = cx
        .options
        .target
        .and_then(Target::facts)
        .and_then(|f| f.description_advice)
        && len > advice.max
    {
        let mut d = cx.diagnostic(
            &DESCRIPTION_TOO_LONG,
            format!(
                "Description is {len} characters; {} has cited a {}-character limit",
                advice.cited_by, advice.max
            ),
            at.clone(),
        );
        d.severity = crate::Severity::Warning;
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::body_routing;

    #[test]
    fn routing_in_the_body_is_found_at_a_line_start_outside_code() {
        let body = "# Tool\n\nRuns things.\n\n## When to Use\n\n- the user asks\n";
        assert_eq!(body_routing(body), body.find("## When"));
        let bullet = "Intro.\n- **Use this skill when** the build breaks.\n";
        assert_eq!(body_routing(bullet), bullet.find("- **Use"));
        // In code, or inside a sentence, it says nothing about the skill.
        assert_eq!(body_routing("```text\nuse when ready\n```\n"), None);
        assert_eq!(body_routing("Tools to use when you are stuck.\n"), None);
    }
}
