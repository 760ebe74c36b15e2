//! Name rules, in skills-ref's order and with its exact messages.

use super::Context;
use crate::lint::catalog::*;
use crate::lint::diagnostic::{Diagnostic, Location};
use crate::lint::target::Target;
use crate::skill::Span;
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

/// Longest name allowed, in code points.
const MAX_NAME: usize = 64;

/// Every check of `name`.
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
    let mut push = |rule, message: String| out.push(cx.diagnostic(rule, message, at.clone()));
    let len = name.chars().count();
    if len > MAX_NAME {
        push(
            &NAME_TOO_LONG,
            format!("Skill name '{name}' exceeds {MAX_NAME} character limit ({len} chars)"),
        );
    }
    if name != name.to_lowercase() {
        push(
            &NAME_NOT_LOWERCASE,
            format!("Skill name '{name}' must be lowercase"),
        );
    }
    if name.starts_with('-') || name.ends_with('-') {
        push(
            &NAME_HYPHEN_EDGE,
            "Skill name cannot start or end with a hyphen".into(),
        );
    }
    if name.contains("--") {
        push(
            &NAME_CONSECUTIVE_HYPHENS,
            "Skill name cannot contain consecutive hyphens".into(),
        );
    }
    let valid_chars = name.chars().all(|c| c == '-' || is_python_alnum(c));
    if !valid_chars {
        push(
            &NAME_INVALID_CHARS,
            format!(
                "Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed."
            ),
        );
    }
    let dir: String = cx.skill.dir_name.nfkc().collect();
    if dir != name {
        push(
            &NAME_DIR_MISMATCH,
            format!(
                "Directory name '{}' must match skill name '{name}'",
                cx.skill.dir_name
            ),
        );
    }
    if valid_chars && !name.is_ascii() {
        push(
            &NAME_NON_ASCII,
            format!(
                "Skill name '{name}' is not ASCII; Claude and several clients accept only a-z, 0-9 and '-'"
            ),
        );
    }
    if cx.target == Target::Claude {
        for word in ["anthropic", "claude"] {
            if name.to_lowercase().contains(word) {
                push(
                    &NAME_RESERVED,
                    format!("Skill name '{name}' contains the reserved word '{word}'"),
                );
            }
        }
    }
    if name.contains("TODO") {
        push(
            &TODO_PLACEHOLDER,
            "`name` still holds a TODO placeholder".into(),
        );
    }
}

/// The value's span, or the key's when the value is empty (nothing to underline).
pub fn value_span(key: Span, value: Span) -> Span {
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
