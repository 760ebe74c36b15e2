//! Name rules, in skills-ref's order and with its exact messages.

use super::Context;
use crate::diagnostic::{Diagnostic, Location};
use crate::rulebook::*;
use crate::target::Target;
use skill_model::Span;
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

/// Longest name allowed, in code points.
const MAX_NAME: usize = 64;

/// Every check of `name`: SK201 and SK202 here (the rest need a name to look at), then one
/// function per rule, in skills-ref's order.
pub fn check_name(cx: &Context, out: &mut Vec<Diagnostic>) {
    let (Some(manifest), Some(doc)) = (cx.manifest(), cx.document()) else {
        return;
    };
    let Some(entry) = manifest.get("name") else {
        let open = doc.frontmatter.map(|f| f.open).unwrap_or_default();
        out.push(cx.diagnostic(
            &NAME_MISSING,
            "Missing required field in frontmatter: name".into(),
            Location::Span(open),
        ));
        return;
    };
    let at = Location::Span(value_span(entry.key_span, entry.value.span));
    let raw = entry.value.scalar_text(cx.text()).unwrap_or("");
    if raw.trim().is_empty() {
        out.push(cx.diagnostic(
            &NAME_NOT_STRING,
            "Field 'name' must be a non-empty string".into(),
            at,
        ));
        return;
    }
    let name: String = raw.trim().nfkc().collect();
    let mut report = |rule: &'static Rule, message: String| {
        out.push(cx.diagnostic(rule, message, at.clone()));
    };
    for rule in NAME_RULES {
        rule(cx, &name, &mut report);
    }
}

/// Where a name rule reports what it found.
type Report<'a> = dyn FnMut(&'static Rule, String) + 'a;

/// A rule over a non-empty name as skills-ref compares it (NFKC).
type NameRule = fn(&Context, &str, &mut Report);

/// The rules over a non-empty name, in the order they report.
const NAME_RULES: &[NameRule] = &[
    name_too_long,
    name_not_lowercase,
    name_hyphen_edge,
    name_consecutive_hyphens,
    name_invalid_chars,
    name_dir_mismatch,
    name_non_ascii,
    name_reserved,
    todo_placeholder,
];

/// SK203: the spec's limit, or the target agent's where stricter.
fn name_too_long(cx: &Context, name: &str, report: &mut Report) {
    let len = name.chars().count();
    let max = cx
        .target
        .facts()
        .and_then(|f| f.name_max)
        .map_or(MAX_NAME, |m| m.min(MAX_NAME));
    if len > max {
        report(
            &NAME_TOO_LONG,
            format!("Skill name '{name}' exceeds {max} character limit ({len} chars)"),
        );
    }
}

/// SK204.
fn name_not_lowercase(_: &Context, name: &str, report: &mut Report) {
    if name != name.to_lowercase() {
        report(
            &NAME_NOT_LOWERCASE,
            format!("Skill name '{name}' must be lowercase"),
        );
    }
}

/// SK205.
fn name_hyphen_edge(_: &Context, name: &str, report: &mut Report) {
    if name.starts_with('-') || name.ends_with('-') {
        report(
            &NAME_HYPHEN_EDGE,
            "Skill name cannot start or end with a hyphen".into(),
        );
    }
}

/// SK206.
fn name_consecutive_hyphens(_: &Context, name: &str, report: &mut Report) {
    if name.contains("--") {
        report(
            &NAME_CONSECUTIVE_HYPHENS,
            "Skill name cannot contain consecutive hyphens".into(),
        );
    }
}

/// Only letters, digits (as Python's `isalnum` has them) and hyphens.
fn valid_chars(name: &str) -> bool {
    name.chars().all(|c| c == '-' || is_python_alnum(c))
}

/// SK207.
fn name_invalid_chars(_: &Context, name: &str, report: &mut Report) {
    if !valid_chars(name) {
        report(
            &NAME_INVALID_CHARS,
            format!(
                "Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed."
            ),
        );
    }
}

/// SK208.
fn name_dir_mismatch(cx: &Context, name: &str, report: &mut Report) {
    let dir: String = cx.skill.dir_name.nfkc().collect();
    if dir != name {
        report(
            &NAME_DIR_MISMATCH,
            format!(
                "Directory name '{}' must match skill name '{name}'",
                cx.skill.dir_name
            ),
        );
    }
}

/// SK209: only for names SK207 accepts, so one problem is reported once.
fn name_non_ascii(_: &Context, name: &str, report: &mut Report) {
    if valid_chars(name) && !name.is_ascii() {
        report(
            &NAME_NON_ASCII,
            format!(
                "Skill name '{name}' is not ASCII; Claude and several clients accept only a-z, 0-9 and '-'"
            ),
        );
    }
}

/// SK210: each word the target agent reserves that the name contains.
fn name_reserved(cx: &Context, name: &str, report: &mut Report) {
    // The words are refused by Claude's upload form, which a skill is held to only when the
    // user chose the target: Claude Code itself loads such names.
    let Some(facts) = cx.options.target.and_then(Target::facts) else {
        return;
    };
    for word in facts.reserved_name_words {
        if name.to_lowercase().contains(word) {
            report(
                &NAME_RESERVED,
                format!("Skill name '{name}' contains the reserved word '{word}'"),
            );
        }
    }
}

/// SK305 in the name.
fn todo_placeholder(_: &Context, name: &str, report: &mut Report) {
    if name.contains("TODO") {
        report(
            &TODO_PLACEHOLDER,
            "`name` still holds a TODO placeholder".into(),
        );
    }
}

/// The value's span, or the key's when the value is empty (nothing to underline).
pub(crate) fn value_span(key: Span, value: Span) -> Span {
    if value.end > value.start { value } else { key }
}

/// Python's `str.isalnum()` for one character: a letter (L*) or a number (N*).
fn is_python_alnum(c: char) -> bool {
    matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Letter | GeneralCategoryGroup::Number
    )
}

#[cfg(test)]
mod tests {
    use super::is_python_alnum;

    #[test]
    fn alnum_follows_python() {
        for c in ['a', 'é', '技', 'н', 'ß', '5', '²', 'Ⅻ'] {
            assert!(is_python_alnum(c), "{c}");
        }
        for c in ['_', ' ', '.', '\u{094D}', '\u{0301}'] {
            assert!(!is_python_alnum(c), "{c:?}");
        }
    }
}
