//! Format rules: the file itself, the frontmatter fences, and the YAML.

use super::Context;
use crate::diagnostic::{Diagnostic, Edit, Fix, Location, Severity};
use crate::edit::{quote_yaml, yaml_value_line};
use crate::rulebook::*;
use skill_model::source::{BOM as BOM_TEXT, DecodeError};
use skill_model::yaml::{Node, Value};
use skill_model::{FrontmatterField, LoadError, ManifestError, Span};

/// File-level problems: missing, unreadable, binary, not UTF-8, far too large.
pub fn check_file(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Err(error) = &cx.skill.document else {
        return;
    };
    let d = match error {
        LoadError::Missing => cx.diagnostic(
            &MISSING_SKILL_MD,
            "Missing required file: SKILL.md".into(),
            Location::Folder,
        ),
        LoadError::IsDirectory => cx.diagnostic(
            &UNREADABLE,
            "SKILL.md is a directory, not a file".into(),
            Location::Folder,
        ),
        LoadError::Io { message } => cx.diagnostic(
            &UNREADABLE,
            format!("cannot read SKILL.md: {message}"),
            Location::Folder,
        ),
        LoadError::TooLarge { bytes } => {
            let mut d = cx
                .diagnostic(
                    &FILE_TOO_LARGE,
                    format!("SKILL.md is {bytes} bytes; files over 10 MiB are not read"),
                    Location::Folder,
                )
                .with_help("keep SKILL.md short and move long material into references/");
            d.severity = Severity::Error;
            d
        }
        LoadError::Decode(error) => decode_problem(cx, error),
        LoadError::SymlinkOutside { target } => cx.diagnostic(
            &UNREADABLE,
            format!(
                "SKILL.md is a symlink to {}, outside the skill folder; it is not read",
                target.display()
            ),
            Location::Folder,
        ),
    };
    out.push(d);
}

/// The finding for a SKILL.md that is not UTF-8 text.
fn decode_problem(cx: &Context, error: &DecodeError) -> Diagnostic {
    match error {
        DecodeError::Binary { position } => cx.diagnostic(
            &BINARY_FILE,
            format!(
                "SKILL.md is a binary file (NUL byte at line {}, column {})",
                position.line, position.column
            ),
            Location::Point(*position),
        ),
        DecodeError::NotUtf8 { position } => cx
            .diagnostic(
                &NOT_UTF8,
                format!(
                    "SKILL.md is not valid UTF-8 (invalid byte at line {}, column {})",
                    position.line, position.column
                ),
                Location::Point(*position),
            )
            .with_help("re-save the file as UTF-8"),
        DecodeError::WideEncoding { encoding } => cx
            .diagnostic(
                &NOT_UTF8,
                format!("SKILL.md is {encoding} encoded; save as UTF-8"),
                Location::Folder,
            )
            .with_help("agents read SKILL.md as UTF-8 only"),
    }
}

/// `skill.md` instead of `SKILL.md`.
pub(crate) fn check_lowercase_file(cx: &Context, out: &mut Vec<Diagnostic>) {
    if cx.skill.uses_lowercase_file() && cx.skill.document.is_ok() {
        out.push(
            cx.diagnostic(
                &SKILL_MD_LOWERCASE,
                "found 'skill.md'; most agents load only 'SKILL.md'".into(),
                Location::Folder,
            )
            .with_help("rename the file to SKILL.md"),
        );
    }
}

/// A byte-order mark before the opening `---`.
pub(crate) fn check_bom(cx: &Context, out: &mut Vec<Diagnostic>) {
    if cx.document().is_some_and(|d| d.source.has_bom) {
        let span = Span::new(0, BOM_TEXT.len());
        let fix = Fix {
            adds_key: None,
            unsafe_because: None,
            message: "remove the byte-order mark".into(),
            edits: vec![Edit {
                span,
                replacement: String::new(),
            }],
        };
        out.push(
            cx.diagnostic(
                &BOM,
                "SKILL.md starts with a UTF-8 byte-order mark; skills-ref and nanobot then find no frontmatter".into(),
                Location::Span(span),
            )
            .with_fix(Some(fix)),
        );
    }
}

/// Fences, YAML syntax, and the mapping shape.
pub(crate) fn check_frontmatter(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(doc) = cx.document() else {
        return;
    };
    let Err(error) = doc.manifest() else {
        return;
    };
    let first_line = doc.source.line_span(1).unwrap_or_default();
    let d = match error {
        ManifestError::NoFrontmatter => cx
            .diagnostic(
                &MISSING_FRONTMATTER,
                "SKILL.md must start with YAML frontmatter (---)".into(),
                Location::Span(first_line),
            )
            .with_help(
                "start the file with a `---` line, then `name:` and `description:`, then `---`",
            ),
        ManifestError::Unclosed => cx
            .diagnostic(
                &UNCLOSED_FRONTMATTER,
                "SKILL.md frontmatter not properly closed with ---".into(),
                Location::Span(first_line),
            )
            .with_help("add a line holding only `---` after the last frontmatter key"),
        ManifestError::Yaml { message, position } => yaml_error(cx, message, *position),
        ManifestError::NotMapping { span } => cx.diagnostic(
            &FRONTMATTER_NOT_MAPPING,
            "SKILL.md frontmatter must be a YAML mapping".into(),
            Location::Span(if span.start == span.end {
                first_line
            } else {
                *span
            }),
        ),
    };
    out.push(d);
}

fn yaml_error(cx: &Context, message: &str, position: skill_model::span::Position) -> Diagnostic {
    let d = cx.diagnostic(
        &INVALID_YAML,
        format!("Invalid YAML in frontmatter: {message}"),
        Location::Point(position),
    );
    let Some(doc) = cx.document() else {
        return d;
    };
    let line = doc.source.line_span(position.line).unwrap_or_default();
    let text = doc.source.slice(line);
    if text.contains('\t') {
        return d.with_help("YAML does not allow tabs for indentation; indent with spaces");
    }
    // The commonest real-world error: `key: text with: a colon` on one line.
    match yaml_value_line(text) {
        Some((key, offset, value)) if value.contains(": ") || value.trim_end().ends_with(':') => {
            let fix = Fix {
                adds_key: None,
                unsafe_because: None,
                message: format!("quote the value of `{key}`"),
                edits: vec![Edit {
                    span: Span::new(line.start + offset, line.end),
                    replacement: quote_yaml(value.trim_end()),
                }],
            };
            d.with_help(format!(
                "the value of `{key}` contains `: `, which YAML reads as a nested key; quote the whole value"
            ))
            .with_fix(Some(fix))
        }
        _ => d,
    }
}

/// Keys written twice.
pub(crate) fn check_duplicate_keys(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(manifest) = cx.manifest() else {
        return;
    };
    let Some(doc) = cx.document() else {
        return;
    };
    for (first, again) in manifest.duplicates() {
        let line = doc.source.position(first.key_span.start).line;
        out.push(cx.diagnostic(
            &DUPLICATE_KEY,
            format!(
                "Duplicate key '{}' in frontmatter (first defined on line {line})",
                again.key
            ),
            Location::Span(again.key_span),
        ));
    }
}

/// Tabs anywhere in a frontmatter that otherwise parsed.
pub(crate) fn check_tabs(cx: &Context, out: &mut Vec<Diagnostic>) {
    let (Some(doc), Some(_)) = (cx.document(), cx.manifest()) else {
        return;
    };
    let Some(fm) = doc.frontmatter else { return };
    if let Some(i) = doc.source.slice(fm.yaml).find('\t') {
        let at = fm.yaml.start + i;
        out.push(
            cx.diagnostic(
                &TAB,
                "tab character in frontmatter".into(),
                Location::Span(Span::new(at, at + 1)),
            )
            .with_help("use spaces; strict YAML parsers reject tabs"),
        );
    }
}

/// `---` inside a value, where skills-ref's text split would cut the frontmatter short.
pub(crate) fn check_dashes(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(doc) = cx.document() else { return };
    let Some(fm) = doc.frontmatter else { return };
    if let Some(i) = doc.source.slice(fm.yaml).find("---") {
        let at = fm.yaml.start + i;
        out.push(cx.diagnostic(
            &FRONTMATTER_DASHES,
            "`---` inside the frontmatter; skills-ref splits on this text and ends the frontmatter here".into(),
            Location::Span(Span::new(at, at + 3)),
        ));
    }
}

/// CRLF line endings.
pub(crate) fn check_crlf(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(doc) = cx.document() else { return };
    if doc.source.crlf_lines == 0 {
        return;
    }
    let text = &doc.source.text;
    let first = text.find("\r\n").unwrap_or(0);
    // Every CR before a line feed goes, not only the last: removing one of `\r\r\n` would
    // leave another CRLF, and the fix would never settle (found by the lint fuzz target).
    let edits = text
        .match_indices("\r\n")
        .map(|(at, _)| {
            let start = text[..at].trim_end_matches('\r').len();
            Edit {
                span: Span::new(start, at + 1),
                replacement: String::new(),
            }
        })
        .collect();
    let fix = Fix {
        adds_key: None,
        unsafe_because: None,
        message: "convert line endings to LF".into(),
        edits,
    };
    out.push(
        cx.diagnostic(
            &CRLF,
            format!(
                "SKILL.md uses CRLF line endings ({} lines)",
                doc.source.crlf_lines
            ),
            Location::Span(Span::new(first, first + 2)),
        )
        .with_fix(Some(fix)),
    );
}

/// YAML that strictyaml (skills-ref) rejects or reads differently: one finding per top-level key.
pub(crate) fn check_strict_yaml(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(manifest) = cx.manifest() else {
        return;
    };
    let text = cx.text();
    for entry in &manifest.entries {
        if let Some((node, what)) = first_rejected(&entry.value, text) {
            let span = Span::new(
                node.span.start,
                node.span.start.max(node.span.end).max(node.span.start + 1),
            );
            out.push(cx.diagnostic(
                &STRICT_YAML,
                format!(
                    "`{}` uses {what}, which skills-ref's strict YAML rejects as invalid",
                    entry.key
                ),
                Location::Span(span),
            ));
        } else if matches!(
            entry.value.value,
            Value::Bool(_) | Value::Int(_) | Value::Float(_)
        ) && !matches!(
            entry.key.as_str(),
            "always" | "user-invocable" | "disable-model-invocation"
        ) {
            out.push(string_in_strictyaml(cx, entry, text));
        }
    }
}

/// The first node in `value` (in document order) that strictyaml rejects, and what it is.
fn first_rejected<'n>(value: &'n Node, text: &str) -> Option<(&'n Node, &'static str)> {
    let mut found: Option<(&Node, &str)> = None;
    value.walk(&mut |node| {
        if found.is_some() {
            return;
        }
        if node.alias {
            found = Some((node, "an alias (`*name`)"));
        } else if node.is_flow(text) {
            found = Some((
                node,
                if node.as_map().is_some() {
                    "a flow mapping `{...}`"
                } else {
                    "a flow list `[...]`"
                },
            ));
        }
    });
    found
}

/// The finding for a boolean or number that strictyaml reads as a string, with the fix that
/// quotes it.
fn string_in_strictyaml(cx: &Context, entry: &FrontmatterField, text: &str) -> Diagnostic {
    cx.diagnostic(
        &STRICT_YAML,
        format!(
            "`{}` is {} in YAML but the string '{}' in strictyaml; quote it",
            entry.key,
            entry.value.type_name(),
            entry.value.scalar_text(text).unwrap_or("")
        ),
        Location::Span(entry.value.span),
    )
    .with_fix(Some(Fix {
        adds_key: None,
        unsafe_because: None,
        message: "quote the value".into(),
        edits: vec![Edit {
            span: entry.value.span,
            replacement: quote_yaml(entry.value.scalar_text(text).unwrap_or("")),
        }],
    }))
}
