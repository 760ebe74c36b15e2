//! Key rules: unknown top-level keys (skills-ref's exact message for `--target agentskills`),
//! `allowed-tools`, `metadata`, `compatibility`, and the types of known keys.

use super::Context;
use super::names::value_span;
use crate::diagnostic::{Diagnostic, Edit, Fix, Location};
use crate::edit::{plain_or_quoted, quote_yaml};
use crate::rulebook::*;
use crate::target::Target;
use skill_model::agents;
use skill_model::requirements::BLOCK_NAMES;
use skill_model::yaml::{Node, Value};
use skill_model::{Document, FrontmatterField, Manifest, Source, Span};

/// The keys the Agent Skills spec defines, sorted as skills-ref prints them.
pub const SPEC_KEYS: [&str; 6] = [
    "allowed-tools",
    "compatibility",
    "description",
    "license",
    "metadata",
    "name",
];

/// Top-level keys that belong under `metadata`.
const METADATA_KEYS: [&str; 2] = ["version", "author"];

/// The names of the agents that read `key` beyond the spec (the agents table).
fn readers(key: &str) -> Vec<&'static str> {
    agents::readers_of_key(key).map(|f| f.name).collect()
}

/// Whether `target` reads `key` (so it is not unknown there).
fn known(target: Target, key: &str) -> bool {
    SPEC_KEYS.contains(&key) || target.facts().is_some_and(|f| f.keys.contains(&key))
}

/// Unknown top-level keys.
pub(crate) fn check_unknown(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(manifest) = cx.manifest() else {
        return;
    };
    let mut seen = std::collections::HashSet::new();
    let unknown: Vec<&FrontmatterField> = manifest
        .entries
        .iter()
        .filter(|e| !known(cx.target, &e.key) && seen.insert(e.key.as_str()))
        .collect();
    if unknown.is_empty() {
        return;
    }
    let movable: Vec<&FrontmatterField> = unknown
        .iter()
        .copied()
        .filter(|e| METADATA_KEYS.contains(&e.key.as_str()))
        .collect();
    if cx.target == Target::Agentskills {
        let mut names: Vec<&str> = unknown.iter().map(|e| e.key.as_str()).collect();
        names.sort_unstable();
        let message = format!(
            "Unexpected fields in frontmatter: {}. Only {} are allowed.",
            names.join(", "),
            python_list(&SPEC_KEYS)
        );
        out.push(
            cx.diagnostic(&UNKNOWN_KEY, message, Location::Span(unknown[0].key_span))
                .with_fix(move_to_metadata(cx, &movable)),
        );
        return;
    }
    for entry in unknown {
        out.push(unknown_key(cx, entry));
    }
}

/// The finding for one unknown key outside `--target agentskills`: what it was probably meant
/// for, or which agents read it.
fn unknown_key(cx: &Context, entry: &FrontmatterField) -> Diagnostic {
    let key = entry.key.as_str();
    if METADATA_KEYS.contains(&key) {
        cx.diagnostic(
            &UNKNOWN_KEY,
            format!("Top-level '{key}' is not a spec key; it belongs under 'metadata'"),
            Location::Span(entry.key_span),
        )
        .with_fix(move_to_metadata(cx, &[entry]))
    } else if let Some(meant) = meant_for_an_agent(key) {
        cx.diagnostic(
            &UNKNOWN_KEY,
            format!("Unknown key '{key}': no agent reads it at the top level, so {meant}"),
            Location::Span(entry.key_span),
        )
        .for_every_target()
    } else {
        let who = readers(key);
        let message = if who.is_empty() {
            format!("Unknown key '{key}': no agent reads it, and skills-ref rejects it")
        } else {
            format!(
                "Unknown key '{key}': read only by {}; skills-ref rejects it",
                who.join(" and ")
            )
        };
        cx.diagnostic(&UNKNOWN_KEY, message, Location::Span(entry.key_span))
    }
}

/// What is lost when a key the author meant an agent to act on sits where no agent reads it:
/// a dotted `metadata.openclaw` key, a requirements block or an agent block at the top level,
/// trigger phrases outside the description.
fn meant_for_an_agent(key: &str) -> Option<&'static str> {
    let block = key.strip_prefix("metadata.").unwrap_or(key);
    if key.starts_with("metadata.") || BLOCK_NAMES.contains(&block) {
        Some("its requirements never gate the skill; nest it under 'metadata'")
    } else if matches!(key, "requires" | "bins" | "env" | "os") {
        Some("it gates nothing; put it under 'metadata.openclaw'")
    } else if matches!(
        key,
        "triggers" | "trigger" | "trigger_phrases" | "use_when" | "when"
    ) {
        Some("the model never sees these phrases; say them in the description")
    } else {
        None
    }
}

/// A Python list literal, as skills-ref prints the allowed keys.
fn python_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("'{i}'")).collect();
    format!("[{}]", quoted.join(", "))
}

/// Moves one-line scalar entries under a block `metadata` mapping (created when absent).
fn move_to_metadata(cx: &Context, entries: &[&FrontmatterField]) -> Option<Fix> {
    let doc = cx.document()?;
    let manifest = cx.manifest()?;
    let source = &doc.source;
    let nl = if source.crlf_lines > 0 { "\r\n" } else { "\n" };
    let mut edits = Vec::new();
    let mut moved = String::new();
    let (insert_at, indent, header) = metadata_insertion(doc, manifest, nl)?;
    let metadata = manifest.value("metadata");
    for entry in entries {
        let (whole, value) = line_to_move(source, manifest, metadata, entry)?;
        edits.push(Edit {
            span: whole,
            replacement: String::new(),
        });
        moved.push_str(&format!("{indent}{}: {}{nl}", entry.key, quote_yaml(value)));
    }
    let text = header.unwrap_or_default() + &moved;
    edits.push(Edit {
        span: Span::new(insert_at, insert_at),
        replacement: text,
    });
    let keys: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
    (!entries.is_empty()).then(|| Fix {
        adds_key: None,
        unsafe_because: None,
        message: format!("move {} under metadata", keys.join(", ")),
        edits,
    })
}

/// Where moved keys go: the offset to insert at, their indent, and the `metadata:` line to
/// write first when there is no block yet. `None` when `metadata` is not a block mapping.
fn metadata_insertion(
    doc: &Document,
    manifest: &Manifest,
    nl: &str,
) -> Option<(usize, String, Option<String>)> {
    let source = &doc.source;
    match manifest.value("metadata") {
        None => Some((
            doc.frontmatter?.close.start,
            "  ".to_owned(),
            Some(format!("metadata:{nl}")),
        )),
        Some(meta) => {
            let first = meta.as_map()?.first()?;
            if meta.is_flow(&source.text) {
                return None;
            }
            let pos = source.position(first.0.span.start);
            let line = source.line_span(pos.line)?;
            let indent = crate::yaml_edit::key_indent(source, &first.0);
            Some((line.start, " ".repeat(indent), None))
        }
    }
}

/// The whole line of `entry` (with its ending) and its value, when the entry can move: a
/// one-line scalar at the start of its line, written once and not already under `metadata`.
fn line_to_move<'s>(
    source: &'s Source,
    manifest: &Manifest,
    metadata: Option<&Node>,
    entry: &'s FrontmatterField,
) -> Option<(Span, &'s str)> {
    // A key written twice, or one metadata already holds, would be doubled under metadata
    // (found by the lint fuzz target): which value was meant is for the author to say.
    let twice = manifest
        .entries
        .iter()
        .filter(|e| e.key == entry.key)
        .count()
        > 1;
    if twice || metadata.is_some_and(|m| m.get(&entry.key).is_some()) {
        return None;
    }
    let value = entry.value.scalar_text(&source.text)?;
    let line_no = source.position(entry.key_span.start).line;
    let line = source.line_span(line_no)?;
    let single_line = source.position(entry.value.span.end).line == line_no
        && entry.value.as_map().is_none()
        && entry.value.as_seq().is_none();
    if !single_line
        || source.position(entry.key_span.start).column != 1
        || !ends_its_line(&source.text[entry.value.span.end.min(line.end)..line.end])
    {
        return None;
    }
    let whole = source.line_with_ending(line_no)?;
    Some((whole, value))
}

/// Whether what follows a value on its line is only blanks or a comment. YAML also breaks lines
/// at a lone CR, which the line spans do not: removing such a line would take the next key
/// with it (found by the lint fuzz target).
fn ends_its_line(rest: &str) -> bool {
    let rest = rest.trim_start_matches([' ', '\t']);
    rest.is_empty() || rest.starts_with('#')
}

/// `compatibility`: a string of at most 500 characters (skills-ref's messages).
pub(crate) fn check_compatibility(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(entry) = cx.manifest().and_then(|m| m.get("compatibility")) else {
        return;
    };
    let at = Location::Span(value_span(entry.key_span, entry.value.span));
    let Some(text) = entry.value.scalar_text(cx.text()) else {
        out.push(cx.diagnostic(
            &COMPATIBILITY_TYPE,
            "Field 'compatibility' must be a string".into(),
            at,
        ));
        return;
    };
    let len = text.chars().count();
    if len > 500 {
        out.push(cx.diagnostic(
            &COMPATIBILITY_TOO_LONG,
            format!("Compatibility exceeds 500 character limit ({len} chars)"),
            at,
        ));
    } else if text.trim().is_empty() {
        out.push(cx.diagnostic(
            &COMPATIBILITY_EMPTY,
            "'compatibility' is empty; the spec asks for 1-500 characters".into(),
            at,
        ));
    }
}

/// `allowed-tools` written as a list.
pub(crate) fn check_allowed_tools(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(entry) = cx.manifest().and_then(|m| m.get("allowed-tools")) else {
        return;
    };
    let Some(items) = entry.value.as_seq() else {
        return;
    };
    let text = cx.text();
    let words: Option<Vec<&str>> = items.iter().map(|i| i.scalar_text(text)).collect();
    let end = entry.value.end(text);
    // YAML breaks lines at a lone CR, which the node's end does not see: the list may go on
    // past `end`, and joining it left the rest as invalid YAML (found by the lint fuzz target).
    let lone_cr = text[entry.key_span.end..]
        .match_indices('\r')
        .any(|(i, _)| text.as_bytes().get(entry.key_span.end + i + 1) != Some(&b'\n'));
    let fix = words.filter(|_| !lone_cr).map(|words| Fix {
        adds_key: None,
        unsafe_because: None,
        message: "join the list into one space-separated string".into(),
        edits: vec![Edit {
            span: Span::new(entry.key_span.end, end),
            replacement: format!(": {}", plain_or_quoted(&words.join(" "))),
        }],
    });
    out.push(
        cx.diagnostic(
            &ALLOWED_TOOLS_LIST,
            "'allowed-tools' is a list; the spec wants one space-separated string".into(),
            Location::Span(entry.key_span),
        )
        .with_fix(fix),
    );
}

/// `metadata` should map strings to strings (agent blocks excepted).
pub(crate) fn check_metadata(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(entry) = cx.manifest().and_then(|m| m.get("metadata")) else {
        return;
    };
    let text = cx.text();
    let Some(map) = entry.value.as_map() else {
        let json_block = skill_model::requirements::metadata_node(&entry.value).is_some();
        if !json_block && !matches!(entry.value.value, Value::Null) {
            out.push(cx.diagnostic(
                &METADATA_TYPE,
                format!(
                    "'metadata' is {}; the spec wants a mapping of strings to strings",
                    entry.value.type_name()
                ),
                Location::Span(value_span(entry.key_span, entry.value.span)),
            ));
        }
        return;
    };
    for (key, value) in map {
        let name = key.scalar_text(text).unwrap_or("");
        if BLOCK_NAMES.contains(&name) || matches!(value.value, Value::Str(_)) {
            continue;
        }
        let fix = matches!(
            value.value,
            Value::Int(_) | Value::Float(_) | Value::Bool(_)
        )
        .then(|| Fix {
            adds_key: None,
            unsafe_because: None,
            message: "quote the value".into(),
            edits: vec![Edit {
                span: value.span,
                replacement: quote_yaml(value.scalar_text(text).unwrap_or("")),
            }],
        });
        out.push(
            cx.diagnostic(
                &METADATA_TYPE,
                format!(
                    "metadata.{name} is {}; the spec wants string values",
                    value.type_name()
                ),
                Location::Span(value_span(key.span, value.span)),
            )
            .with_fix(fix),
        );
    }
}

/// Known keys with values of the wrong type.
pub(crate) fn check_types(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(manifest) = cx.manifest() else {
        return;
    };
    for entry in &manifest.entries {
        let expected = match entry.key.as_str() {
            "license" | "homepage" => "a string",
            "always" | "user-invocable" | "disable-model-invocation" => "a boolean",
            _ => continue,
        };
        // An empty value (`homepage:`) is read as absent by every agent.
        let ok = match expected {
            _ if matches!(entry.value.value, Value::Null) => true,
            "a string" => matches!(entry.value.value, Value::Str(_)),
            _ => matches!(entry.value.value, Value::Bool(_)),
        };
        if !ok {
            out.push(cx.diagnostic(
                &KEY_TYPE,
                format!(
                    "'{}' is {}; it should be {expected}",
                    entry.key,
                    entry.value.type_name()
                ),
                Location::Span(value_span(entry.key_span, entry.value.span)),
            ));
        }
    }
}
