//! Text helpers for fixes: quoting YAML scalars, reading one-line `key: value` pairs, and
//! applying edits to `SKILL.md` without touching any other byte.

use super::diagnostic::Edit;
pub use skill_model::yaml::{plain_or_quoted, quote_yaml};

/// A top-level one-line `key: value` whose value is plain (not quoted, block or flow):
/// the key, the byte offset of the value in the line, and the value.
pub(crate) fn yaml_value_line(line: &str) -> Option<(&str, usize, &str)> {
    if line.starts_with([' ', '\t', '#', '-']) {
        return None;
    }
    let colon = line.find(": ")?;
    let key = &line[..colon];
    let after = &line[colon + 1..];
    let value = after.trim_start();
    let offset = colon + 1 + (after.len() - value.len());
    let quoted_or_structured = value.starts_with(['"', '\'', '|', '>', '[', '{', '&', '*', '!']);
    (!key.is_empty() && !value.is_empty() && !quoted_or_structured).then_some((key, offset, value))
}

/// Applies non-overlapping `edits` to `text`; `None` when two edits overlap.
pub fn apply(text: &str, edits: &[Edit]) -> Option<String> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for edit in sorted {
        if edit.span.start < pos {
            return None;
        }
        out.push_str(text.get(pos..edit.span.start)?);
        out.push_str(&edit.replacement);
        pos = edit.span.end;
    }
    out.push_str(text.get(pos..)?);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skill_model::Span;

    #[test]
    fn reads_plain_one_line_values() {
        assert_eq!(
            yaml_value_line("description: Use when: x"),
            Some(("description", 13, "Use when: x"))
        );
        assert_eq!(yaml_value_line("description: \"quoted: x\""), None);
        assert_eq!(yaml_value_line("  nested: x"), None);
    }

    #[test]
    fn quotes_and_applies() {
        assert_eq!(quote_yaml("a \"b\": c"), r#""a \"b\": c""#);
        let edits = [Edit {
            span: Span::new(0, 1),
            replacement: "X".into(),
        }];
        assert_eq!(apply("abc", &edits).as_deref(), Some("Xbc"));
    }
}
