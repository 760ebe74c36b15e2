//! Structural edits of frontmatter YAML made as text insertions at spans, in the style the file
//! already uses: a block mapping gets an indented `key:` line, a flow mapping `, "key": value`
//! before its `}`; a block list gets a `- item` line, a flow list `, "item"` before its `]`.
//! Nothing is re-serialised, so bytes outside the insertion never change.

use super::diagnostic::Edit;
use super::edit::plain_or_quoted;
use skill_model::Span;
use skill_model::source::Source;
use skill_model::yaml::{Node, Value};

/// A value to add: a mapping of keys to values, or a list of strings.
pub enum New<'a> {
    /// Keys in order, each with its value.
    Map(Vec<(&'a str, New<'a>)>),
    /// A list of strings.
    List(&'a [String]),
}

impl<'a> New<'a> {
    /// `path[0]: path[1]: ... value`.
    pub fn nested(path: &[&'a str], value: New<'a>) -> New<'a> {
        match path.split_first() {
            Some((key, rest)) => New::Map(vec![(*key, New::nested(rest, value))]),
            None => value,
        }
    }
}

/// Edits that merge `value` into the mapping `map`: keys that exist are descended into, lists
/// that exist are appended to, the rest is inserted. `None` when the YAML there has a shape this
/// cannot edit safely.
pub fn merge(source: &Source, map: &Node, value: &New) -> Option<Vec<Edit>> {
    let New::Map(keys) = value else {
        return append_to_list(source, map, value);
    };
    let entries = map.as_map()?;
    let mut edits = Vec::new();
    let mut inserted = Vec::new();
    for (key, inner) in keys {
        match entries.iter().rev().find(|(k, _)| k.as_str() == Some(key)) {
            Some((_, child)) => edits.extend(merge(source, child, inner)?),
            None => inserted.push((*key, inner)),
        }
    }
    if !inserted.is_empty() {
        edits.extend(insert_keys(source, map, &inserted)?);
    }
    Some(edits)
}

/// The edits that add a whole new top-level `key: value` to the frontmatter mapping `root`:
/// before the closing line at `close`, indented as `root`'s keys are (YAML refuses a key out of
/// line with the others, and nothing says a frontmatter starts at column 1), or inside the
/// braces when `root` is a flow mapping.
pub(crate) fn insert_top_level(
    source: &Source,
    root: &Node,
    close: Span,
    key: &str,
    value: &New,
) -> Option<Vec<Edit>> {
    if root.is_flow(&source.text) {
        return insert_keys(source, root, &[(key, value)]);
    }
    let indent = root
        .as_map()
        .and_then(|entries| entries.first())
        .map_or(0, |(first_key, _)| key_indent(source, first_key));
    let nl = newline(source);
    let mut text = String::new();
    render_block(
        &New::Map(vec![(key, value.borrowed())]),
        indent,
        nl,
        &mut text,
    );
    Some(vec![Edit {
        span: Span::new(close.start, close.start),
        replacement: text,
    }])
}

/// The indentation of the block mapping whose first key is `key`: the key's column, or its
/// line's indentation when node properties come first (`!tag key:`, `&anchor key:`), since the
/// key's span starts after them and keys written at its column would be out of line (found by
/// the lint fuzz target).
pub(crate) fn key_indent(source: &Source, key: &Node) -> usize {
    let pos = source.position(key.span.start);
    let Some(before) = source
        .line_span(pos.line)
        .and_then(|line| source.text.get(line.start..key.span.start))
    else {
        return pos.column - 1;
    };
    let indent = before.len() - before.trim_start_matches(' ').len();
    if before[indent..].starts_with(['!', '&']) {
        indent
    } else {
        pos.column - 1
    }
}

fn newline(source: &Source) -> &'static str {
    if source.crlf_lines > 0 { "\r\n" } else { "\n" }
}

fn insert_keys(source: &Source, map: &Node, keys: &[(&str, &New)]) -> Option<Vec<Edit>> {
    let text = &source.text;
    if map.is_flow(text) {
        let close = map.end(text) - 1;
        let mut json = String::new();
        for (i, (key, value)) in keys.iter().enumerate() {
            if i > 0 || !map.as_map()?.is_empty() {
                json.push_str(", ");
            }
            json.push_str(&format!("\"{key}\": {}", render_flow(value)));
        }
        return Some(vec![Edit {
            span: Span::new(close, close),
            replacement: json,
        }]);
    }
    let (first_key, _) = map.as_map()?.first()?;
    let pos = source.position(first_key.span.start);
    let line = source.line_span(pos.line)?;
    let nl = newline(source);
    let mut out = String::new();
    render_block(
        &New::Map(keys.iter().map(|(k, v)| (*k, v.borrowed())).collect()),
        key_indent(source, first_key),
        nl,
        &mut out,
    );
    Some(vec![Edit {
        span: Span::new(line.start, line.start),
        replacement: out,
    }])
}

impl New<'_> {
    fn borrowed(&self) -> New<'_> {
        match self {
            New::Map(keys) => New::Map(keys.iter().map(|(k, v)| (*k, v.borrowed())).collect()),
            New::List(items) => New::List(items),
        }
    }
}

fn append_to_list(source: &Source, list: &Node, value: &New) -> Option<Vec<Edit>> {
    let New::List(items) = value else { return None };
    let text = &source.text;
    let existing = match &list.value {
        Value::Seq(existing) => existing,
        _ => return None,
    };
    if list.is_flow(text) {
        let close = list.end(text) - 1;
        let mut json = String::new();
        for (i, item) in items.iter().enumerate() {
            if i > 0 || !existing.is_empty() {
                json.push_str(", ");
            }
            json.push_str(&serde_json::to_string(item).ok()?);
        }
        return Some(vec![Edit {
            span: Span::new(close, close),
            replacement: json,
        }]);
    }
    let last = existing.last()?;
    let dash = source.position(list.span.start);
    let last_line = source.line_with_ending(source.position(last.end(text)).line)?;
    let nl = newline(source);
    // After the line's own ending, not `nl`'s length: lines of one file may end differently
    // (found by the lint fuzz target).
    let insert_at = last_line.end;
    let mut out = String::new();
    if !text[last_line.start..last_line.end].ends_with('\n') {
        out.push_str(nl);
    }
    for item in items.iter() {
        out.push_str(&format!(
            "{}- {}{nl}",
            " ".repeat(dash.column - 1),
            plain_or_quoted(item)
        ));
    }
    Some(vec![Edit {
        span: Span::new(insert_at, insert_at),
        replacement: out,
    }])
}

fn render_block(value: &New, indent: usize, nl: &str, out: &mut String) {
    let pad = " ".repeat(indent);
    match value {
        New::Map(keys) => {
            for (key, inner) in keys {
                out.push_str(&format!("{pad}{key}:{nl}"));
                render_block(inner, indent + 2, nl, out);
            }
        }
        New::List(items) => {
            for item in *items {
                out.push_str(&format!("{pad}- {}{nl}", plain_or_quoted(item)));
            }
        }
    }
}

fn render_flow(value: &New) -> String {
    match value {
        New::Map(keys) => {
            let inner: Vec<String> = keys
                .iter()
                .map(|(k, v)| format!("\"{k}\": {}", render_flow(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        New::List(items) => serde_json::to_string(items).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::apply;
    use skill_model::Document;

    fn add_bins(text: &str) -> String {
        let doc = Document::parse(Source::new(text.to_owned()));
        let manifest = doc.manifest().as_ref().unwrap();
        let items = vec!["jq".to_owned(), "gh".to_owned()];
        let env = vec!["TOKEN".to_owned()];
        let value = New::nested(
            &["openclaw", "requires"],
            New::Map(vec![("bins", New::List(&items)), ("env", New::List(&env))]),
        );
        let edits = match manifest.value("metadata") {
            Some(meta) => merge(&doc.source, meta, &value).unwrap(),
            None => insert_top_level(
                &doc.source,
                &manifest.root,
                doc.frontmatter.unwrap().close,
                "metadata",
                &value,
            )
            .unwrap(),
        };
        let fixed = apply(&doc.source.text, &edits).unwrap();
        let reparsed = Document::parse(Source::new(fixed.clone()));
        assert!(reparsed.manifest().is_ok(), "{fixed}");
        fixed
    }

    #[test]
    fn creates_the_block_when_absent() {
        assert_eq!(
            add_bins("---\nname: a\n---\nbody\n"),
            "---\nname: a\nmetadata:\n  openclaw:\n    requires:\n      bins:\n        - jq\n        - gh\n      env:\n        - TOKEN\n---\nbody\n"
        );
    }

    #[test]
    fn a_new_block_lines_up_with_an_indented_mapping() {
        assert_eq!(
            add_bins("---\n name: a\n---\nbody\n"),
            "---\n name: a\n metadata:\n   openclaw:\n     requires:\n       bins:\n         - jq\n         - gh\n       env:\n         - TOKEN\n---\nbody\n"
        );
        assert_eq!(
            add_bins("---\n{name: a}\n---\n"),
            "---\n{name: a, \"metadata\": {\"openclaw\": {\"requires\": {\"bins\": [\"jq\",\"gh\"], \"env\": [\"TOKEN\"]}}}}\n---\n"
        );
    }

    #[test]
    fn extends_block_and_flow_styles() {
        assert_eq!(
            add_bins("---\nmetadata:\n  author: me\n---\n"),
            "---\nmetadata:\n  openclaw:\n    requires:\n      bins:\n        - jq\n        - gh\n      env:\n        - TOKEN\n  author: me\n---\n"
        );
        assert_eq!(
            add_bins(
                "---\nmetadata:\n  openclaw:\n    requires:\n      bins:\n        - git\n---\n"
            ),
            "---\nmetadata:\n  openclaw:\n    requires:\n      env:\n        - TOKEN\n      bins:\n        - git\n        - jq\n        - gh\n---\n"
        );
        assert_eq!(
            add_bins("---\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"git\"]}}}\n---\n"),
            "---\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"git\", \"jq\", \"gh\"], \"env\": [\"TOKEN\"]}}}\n---\n"
        );
        assert_eq!(
            add_bins("---\nmetadata: {\"openclaw\": {\"emoji\": \"x\"}}\n---\n"),
            "---\nmetadata: {\"openclaw\": {\"emoji\": \"x\", \"requires\": {\"bins\": [\"jq\",\"gh\"], \"env\": [\"TOKEN\"]}}}\n---\n"
        );
    }
}
