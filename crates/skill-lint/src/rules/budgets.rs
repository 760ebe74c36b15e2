//! Budget rules: size limits agents and registries enforce.

use super::Context;
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::rulebook::{BODY_TOO_LONG, EMPTY_BODY, FILE_TOO_LARGE, TOKEN_BUDGET};
use crate::tokens::over_budget;
use skill_model::Span;
use skill_model::layout::SKILL_MD;
use skill_model::limits;

/// OpenClaw skips larger SKILL.md files.
const MAX_SKILL_MD: usize = 256 * 1024;

/// A SKILL.md that was read but is over OpenClaw's limit (larger ones are refused unread).
pub(crate) fn check_skill_md_size(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(doc) = cx.document() else { return };
    let len = doc.source.text.len();
    if len > MAX_SKILL_MD {
        out.push(
            cx.diagnostic(
                &FILE_TOO_LARGE,
                format!("SKILL.md is {len} bytes; OpenClaw skips SKILL.md files over 256 KiB"),
                Location::Folder,
            )
            .with_help("move long material into references/ and link to it"),
        );
    }
}

/// A body longer than the line budget, or none at all.
pub(crate) fn check_body_lines(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(fm) = cx.document().and_then(|d| d.frontmatter) else {
        return;
    };
    let body = cx.text().get(fm.body.range()).unwrap_or("");
    if cx.has_no_body() {
        out.push(
            cx.diagnostic(
                &EMPTY_BODY,
                "SKILL.md has no body; the agent that picks the skill reads nothing more".into(),
                Location::Span(Span::new(fm.body.start, fm.body.start)),
            )
            .with_help("say how to do the task: the steps, the commands, when to use which file"),
        );
        return;
    }
    // What `str::lines` counts, without splitting: every `\n`, and a last line without one.
    let lines = memchr::memchr_iter(b'\n', body.as_bytes()).count()
        + usize::from(!body.is_empty() && !body.ends_with('\n'));
    let budget = cx.options.budgets.body_lines;
    if lines > budget {
        out.push(
            cx.diagnostic(
                &BODY_TOO_LONG,
                format!("the body is {lines} lines; the budget is {budget}"),
                Location::Span(Span::new(fm.body.start, fm.body.start)),
            )
            .with_help("move detail into references/ and link to it from SKILL.md"),
        );
    }
}

/// Body and description over their o200k token budgets.
pub(crate) fn check_tokens(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(doc) = cx.document() else { return };
    let budgets = cx.options.budgets;
    if let Some(fm) = doc.frontmatter
        && let Some(count) = over_budget(doc.source.slice(fm.body), budgets.body_tokens)
    {
        out.push(cx.diagnostic(
            &TOKEN_BUDGET,
            format!(
                "the body is {count} tokens (o200k); the budget is {}",
                budgets.body_tokens
            ),
            Location::Span(Span::new(fm.body.start, fm.body.start)),
        ));
    }
    let description = cx.manifest().and_then(|m| m.get("description"));
    if let Some(entry) = description {
        let text = entry.value.scalar_text(cx.text()).unwrap_or("");
        if let Some(count) = over_budget(text, budgets.description_tokens) {
            out.push(cx.diagnostic(
                &TOKEN_BUDGET,
                format!(
                    "the description is {count} tokens (o200k); the budget is {}",
                    budgets.description_tokens
                ),
                Location::Span(entry.key_span),
            ));
        }
    }
}

/// Files over ClawHub's per-file limit and skills over its per-skill limit.
pub(crate) fn check_file_sizes(cx: &Context, out: &mut Vec<Diagnostic>) {
    let mut total = 0;
    for file in cx.files().files() {
        total += file.size;
        if file.size > limits::FILE_BYTES && file.path != SKILL_MD {
            let mut d = cx.diagnostic(
                &FILE_TOO_LARGE,
                format!(
                    "'{}' is {} bytes; ClawHub refuses files over 10 MiB",
                    file.path, file.size
                ),
                Location::Folder,
            );
            d.severity = Severity::Error;
            out.push(d);
        }
    }
    if total > limits::BUNDLE_BYTES {
        let mut d = cx.diagnostic(
            &FILE_TOO_LARGE,
            format!("the skill is {total} bytes; ClawHub refuses skills over 50 MiB"),
            Location::Folder,
        );
        d.severity = Severity::Error;
        out.push(d);
    }
}
