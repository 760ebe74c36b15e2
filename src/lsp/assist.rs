//! What the server answers about an open `SKILL.md`: its capabilities, findings as LSP
//! diagnostics, code actions, hover, completion and document links.

use super::{Server, file_path, file_uri, position};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CompletionItem,
    CompletionItemKind, CompletionParams, DiagnosticSeverity, DocumentLink, DocumentLinkParams,
    GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents, HoverParams, MarkupContent,
    MarkupKind, NumberOrString, Range, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextEdit, WorkspaceEdit,
};
use skill_lint::diagnostic::{Fix, Location};
use skill_lint::{Diagnostic, Severity, rulebook};
use skill_model::agents;
use skill_model::body::Body;
use skill_model::requirements::{BLOCK_KEYS, BLOCK_NAMES, REQUIRES_KEYS};
use std::collections::HashMap;

/// What the server does.
pub(crate) fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            lsp_types::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(lsp_types::TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            },
        )),
        definition_provider: Some(lsp_types::OneOf::Left(true)),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp_types::CompletionOptions::default()),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
        document_link_provider: Some(lsp_types::DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        }),
        ..ServerCapabilities::default()
    }
}

/// A lint finding as an LSP diagnostic in `text` (the file it is about).
pub(crate) fn diagnostic(text: &str, finding: &Diagnostic) -> lsp_types::Diagnostic {
    let mut message = finding.message.clone();
    for (label, line) in [("why", &finding.note), ("help", &finding.help)] {
        if let Some(line) = line {
            message.push_str(&format!("\n{label}: {line}"));
        }
    }
    lsp_types::Diagnostic {
        range: range_of(text, &finding.location),
        severity: Some(match finding.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(finding.rule.code.to_owned())),
        source: Some("skill".to_owned()),
        message,
        ..lsp_types::Diagnostic::default()
    }
}

fn range_of(text: &str, location: &Location) -> Range {
    match location {
        Location::Folder => Range::default(),
        Location::Span(span) => position::range(text, span.start, span.end),
        Location::Point(point) => {
            let at = position::from_line_column(text, point.line, point.column);
            position::range(text, at, at)
        }
    }
}

/// The fixes of the findings under the requested range, and an allow comment for each security
/// finding there.
pub(crate) fn code_actions(server: &Server, params: CodeActionParams) -> Vec<CodeActionOrCommand> {
    let Some(path) = file_path(&params.text_document.uri) else {
        return Vec::new();
    };
    let Some(document) = server.documents.get(&path) else {
        return Vec::new();
    };
    let text = &document.text;
    let wanted = params.range;
    let mut actions = Vec::new();
    for finding in document.findings.iter().filter(|f| f.file == path) {
        let range = range_of(text, &finding.location);
        if range.end < wanted.start || wanted.end < range.start {
            continue;
        }
        if let Some(fix) = &finding.fix {
            actions.push(fix_action(&document.uri, text, finding, fix));
        }
        if finding.rule.code.starts_with("SK9") {
            actions.push(allow_action(&document.uri, text, finding));
        }
    }
    actions
}

fn fix_action(
    uri: &lsp_types::Uri,
    text: &str,
    finding: &Diagnostic,
    fix: &Fix,
) -> CodeActionOrCommand {
    let title = match &fix.unsafe_because {
        None => fix.message.clone(),
        Some(why) => format!("{} (unsafe: {why})", fix.message),
    };
    let edits = fix
        .edits
        .iter()
        .map(|e| TextEdit {
            range: position::range(text, e.span.start, e.span.end),
            new_text: e.replacement.clone(),
        })
        .collect();
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic(text, finding)]),
        edit: Some(one_file_edit(uri, edits)),
        is_preferred: Some(fix.is_safe()),
        ..CodeAction::default()
    })
}

/// `<!-- skill: allow CODE REASON -->` on the line above the finding, or above the code block
/// it sits in, with a reason for the author to write.
fn allow_action(uri: &lsp_types::Uri, text: &str, finding: &Diagnostic) -> CodeActionOrCommand {
    let at = match &finding.location {
        Location::Span(span) => span.start,
        _ => 0,
    };
    let body = Body::parse(text, 0);
    let at = body
        .code_blocks
        .iter()
        .find(|b| b.span.start <= at && at < b.span.end)
        .map_or(at, |b| b.span.start);
    let line_start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let code = finding.rule.code;
    let insert = position::at(text, line_start);
    let edit = TextEdit {
        range: Range {
            start: insert,
            end: insert,
        },
        new_text: format!("<!-- skill: allow {code} REASON: say why this is safe -->\n"),
    };
    CodeActionOrCommand::CodeAction(CodeAction {
        title: format!("Allow {code} here, with a reason"),
        kind: Some(CodeActionKind::QUICKFIX),
        edit: Some(one_file_edit(uri, vec![edit])),
        is_preferred: Some(false),
        ..CodeAction::default()
    })
}

fn one_file_edit(uri: &lsp_types::Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}

/// On a frontmatter key: which agents read it. On a finding: its rule's documentation. On the
/// description: its length and token cost.
pub(crate) fn hover(server: &Server, params: HoverParams) -> Option<Hover> {
    let at = params.text_document_position_params;
    let path = file_path(&at.text_document.uri)?;
    let document = server.documents.get(&path)?;
    let text = &document.text;
    let offset = position::offset(text, at.position);
    let finding = document.findings.iter().find(|f| {
        f.file == path
            && matches!(&f.location, Location::Span(s) if s.start <= offset && offset <= s.end)
    });
    let markdown = match finding {
        Some(finding) => rule_doc(finding.rule),
        None => rule_named_at(text, offset)
            .map(rule_doc)
            .or_else(|| key_doc(text, offset))
            .or_else(|| body_doc(text, offset))?,
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: markdown,
        }),
        range: None,
    })
}

/// The rule whose code or slug is the word at `offset` (in an allow comment, say).
fn rule_named_at(text: &str, offset: usize) -> Option<&'static rulebook::Rule> {
    let word_char = |c: char| c.is_ascii_alphanumeric() || c == '-';
    let start = text[..offset]
        .char_indices()
        .rfind(|(_, c)| !word_char(*c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[offset..]
        .find(|c: char| !word_char(c))
        .map_or(text.len(), |i| offset + i);
    let word = &text[start..end];
    (word.starts_with("SK") || word.contains('-'))
        .then(|| rulebook::find(word))
        .flatten()
}

fn rule_doc(rule: &rulebook::Rule) -> String {
    format!(
        "**{} {}**: {}\n\n{}",
        rule.code, rule.slug, rule.summary, rule.doc
    )
}

/// The frontmatter key on the line at `offset`, and what reads it.
fn key_doc(text: &str, offset: usize) -> Option<String> {
    let fences = skill_model::frontmatter::split(text).ok()?;
    if offset < fences.yaml.start || offset >= fences.yaml.end {
        return None;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next()?;
    let (key, value) = line.split_once(':')?;
    if key.starts_with([' ', '\t', '-']) {
        return None;
    }
    let key = key.trim();
    let mut out = format!("**`{key}`**: {}", readers(key));
    if key == "description" {
        let value = value.trim().trim_matches(['"', '\'']);
        out.push_str(&format!(
            "\n\n{} characters, {} tokens (o200k), in every prompt that lists the skill.",
            value.chars().count(),
            skill_lint::tokens::count(value)
        ));
    }
    Some(out)
}

/// In the body: what loading the skill costs.
fn body_doc(text: &str, offset: usize) -> Option<String> {
    let fences = skill_model::frontmatter::split(text).ok()?;
    if offset < fences.body.start {
        return None;
    }
    let body = &text[fences.body.start..fences.body.end];
    Some(format!(
        "The body: {} lines, {} tokens (o200k), read by the model when it loads the skill.",
        body.lines().count(),
        skill_lint::tokens::count(body)
    ))
}

fn readers(key: &str) -> String {
    let spec = skill_lint::rules::SPEC_KEYS.contains(&key);
    let agents: Vec<&str> = agents::readers_of_key(key).map(|f| f.name).collect();
    match (spec, agents.is_empty()) {
        (true, true) => "defined by the Agent Skills spec.".to_owned(),
        (true, false) => format!(
            "defined by the Agent Skills spec; also read by {}.",
            agents.join(", ")
        ),
        (false, false) => format!(
            "read by {} (not in the Agent Skills spec).",
            agents.join(", ")
        ),
        (false, true) => "read by no agent skill knows of: it changes nothing.".to_owned(),
    }
}

/// Frontmatter keys, when the cursor is at the start of a frontmatter line.
pub(crate) fn completion(server: &Server, params: CompletionParams) -> Vec<CompletionItem> {
    let at = params.text_document_position;
    let Some(document) = file_path(&at.text_document.uri).and_then(|p| server.documents.get(&p))
    else {
        return Vec::new();
    };
    let text = &document.text;
    let offset = position::offset(text, at.position);
    let in_yaml = skill_model::frontmatter::split(text)
        .is_ok_and(|f| f.yaml.start <= offset && offset <= f.yaml.end);
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let typed = &text[line_start..offset];
    if !in_yaml || typed.trim_start().contains([' ', ':']) {
        return Vec::new();
    }
    let parents = parents_of(&text[..line_start], typed.len() - typed.trim_start().len());
    let parents: Vec<&str> = parents.iter().map(String::as_str).collect();
    let (keys, detail): (Vec<&str>, fn(&str) -> String) = match parents.as_slice() {
        [] => (top_level_keys(), readers),
        ["metadata"] => (block_names(server), |_| "a requirements block".to_owned()),
        ["metadata", block] if BLOCK_NAMES.contains(block) => (BLOCK_KEYS.to_vec(), |_| {
            "read from the requirements block".to_owned()
        }),
        ["metadata", block, "requires"] if BLOCK_NAMES.contains(block) => {
            (REQUIRES_KEYS.to_vec(), |_| {
                "gates the skill where it does not hold".to_owned()
            })
        }
        _ => return Vec::new(),
    };
    keys.into_iter()
        .map(|key| CompletionItem {
            label: key.to_owned(),
            kind: Some(CompletionItemKind::PROPERTY),
            detail: Some(detail(key)),
            insert_text: Some(format!("{key}: ")),
            ..CompletionItem::default()
        })
        .collect()
}

fn top_level_keys() -> Vec<&'static str> {
    let mut keys: Vec<&str> = skill_lint::rules::SPEC_KEYS.to_vec();
    for facts in agents::AGENTS.iter().map(|a| agents::facts(*a)) {
        for key in facts.keys {
            if !keys.contains(key) {
                keys.push(key);
            }
        }
    }
    keys
}

/// The requirements blocks the target's agent reads, or every agent's without a target.
fn block_names(server: &Server) -> Vec<&'static str> {
    match server.options.target.and_then(|t| t.facts()) {
        Some(facts) if !facts.metadata_blocks.is_empty() => facts.metadata_blocks.to_vec(),
        _ => BLOCK_NAMES.to_vec(),
    }
}

/// The keys of the mappings a line indented by `indent` sits in, outermost first, read from the
/// frontmatter lines before it.
fn parents_of(before: &str, indent: usize) -> Vec<String> {
    let mut parents = Vec::new();
    let mut limit = indent;
    for line in before.lines().rev() {
        if line.trim() == "---" {
            break;
        }
        let depth = line.len() - line.trim_start().len();
        let Some((key, _)) = line.trim_start().split_once(':') else {
            continue;
        };
        if depth < limit && !key.starts_with('-') {
            parents.push(key.trim().to_owned());
            limit = depth;
        }
        if depth == 0 {
            break;
        }
    }
    parents.reverse();
    parents
}

/// The body's links to files of the skill, as document links (missing ones are lint's findings).
pub(crate) fn links(server: &Server, params: DocumentLinkParams) -> Vec<DocumentLink> {
    let Some(path) = file_path(&params.text_document.uri) else {
        return Vec::new();
    };
    let Some(document) = server.documents.get(&path) else {
        return Vec::new();
    };
    local_links(&path, &document.text)
        .into_iter()
        .filter_map(|(range, file, dest)| {
            Some(DocumentLink {
                range,
                target: Some(file_uri(&file)?),
                tooltip: Some(dest),
                data: None,
            })
        })
        .collect()
}

/// On a link to a file of the skill: that file.
pub(crate) fn definition(
    server: &Server,
    params: GotoDefinitionParams,
) -> Option<GotoDefinitionResponse> {
    let at = params.text_document_position_params;
    let path = file_path(&at.text_document.uri)?;
    let document = server.documents.get(&path)?;
    let (_, file, _) = local_links(&path, &document.text)
        .into_iter()
        .find(|(range, _, _)| range.start <= at.position && at.position <= range.end)?;
    Some(GotoDefinitionResponse::Scalar(lsp_types::Location {
        uri: file_uri(&file)?,
        range: Range::default(),
    }))
}

/// The body's relative links to files that exist: where each is, the file, and the link as
/// written.
fn local_links(skill_md: &std::path::Path, text: &str) -> Vec<(Range, std::path::PathBuf, String)> {
    let (Some(dir), Ok(fences)) = (skill_md.parent(), skill_model::frontmatter::split(text)) else {
        return Vec::new();
    };
    let body = Body::parse(&text[fences.body.start..fences.body.end], fences.body.start);
    body.links
        .iter()
        .filter(|l| !l.dest.contains("://") && !l.dest.starts_with(['#', '/']))
        .filter_map(|l| {
            let file = dir.join(l.dest.split(['#', '?']).next()?);
            file.exists().then(|| {
                let range = position::range(text, l.span.start, l.span.end);
                (range, file, l.dest.clone())
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_says_who_reads_it() {
        let text = "---\nname: x\ndescription: Reads PDFs.\nwhen_to_use: always\n---\nbody\n";
        let name = key_doc(text, 5).unwrap();
        assert!(name.contains("Agent Skills spec"), "{name}");
        let description = key_doc(text, text.find("description").unwrap()).unwrap();
        assert!(description.contains("11 characters"), "{description}");
        assert_eq!(key_doc(text, text.find("body").unwrap()), None);
        let allow = "<!-- skill: allow SK902 installs Docker -->";
        let rule = rule_named_at(allow, allow.find("902").unwrap()).unwrap();
        assert_eq!(rule.code, "SK902");
        assert!(rule_named_at(allow, allow.find("Docker").unwrap()).is_none());
        let accented = "---\nname: na\u{ef}ve\n---\nSK902 caf\u{e9}";
        for offset in (0..=accented.len()).filter(|&i| accented.is_char_boundary(i)) {
            let _ = rule_named_at(accented, offset);
            let _ = key_doc(accented, offset);
            let _ = body_doc(accented, offset);
        }
    }
}
