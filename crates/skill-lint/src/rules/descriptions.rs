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
    let lower = text.to_lowercase();
    if !TRIGGER_HINTS.iter().any(|h| lower.contains(h)) {
        out.push(
            cx.diagnostic(
                &DESCRIPTION_NO_TRIGGER,
                "Description does not say when to use the skill".into(),
                at,
            )
            .with_help("add a sentence such as \"Use when the user asks to ...\""),
        );
    }
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
