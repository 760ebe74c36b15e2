//! `--format json`: one object, `{"version": 1, "skills": [...], "summary": {...}}`.

use super::positions;
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::{LintRun, SkillReport, Summary};
use rayon::prelude::*;
use serde::Serialize;

#[derive(Serialize)]
struct SkillOut<'a> {
    path: String,
    name: Option<&'a str>,
    /// The target the skill was linted for, and what chose it (`--target`, or what the skill
    /// declares).
    target: crate::Target,
    target_from: &'static str,
    valid: bool,
    diagnostics: Vec<DiagnosticOut<'a>>,
}

#[derive(Serialize)]
struct DiagnosticOut<'a> {
    code: &'static str,
    slug: &'static str,
    severity: Severity,
    message: &'a str,
    file: String,
    line: Option<usize>,
    column: Option<usize>,
    end_line: Option<usize>,
    end_column: Option<usize>,
    /// Only security findings carry one; left out otherwise so the shape stays as it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    /// The OWASP Agentic Skills Top 10 category (`AST01`...), security findings only.
    #[serde(skip_serializing_if = "Option::is_none")]
    owasp: Option<&'static str>,
    help: Option<&'a str>,
    fix: Option<FixOut<'a>>,
}

#[derive(Serialize)]
struct FixOut<'a> {
    message: &'a str,
    /// `safe` (applied by `--fix`) or `unsafe` (needs `--unsafe-fixes`).
    applicability: &'static str,
    /// What an unsafe fix changes for agents.
    #[serde(skip_serializing_if = "Option::is_none")]
    consequence: Option<&'a str>,
    edits: Vec<EditOut<'a>>,
}

#[derive(Serialize)]
struct EditOut<'a> {
    line: Option<usize>,
    column: Option<usize>,
    end_line: Option<usize>,
    end_column: Option<usize>,
    replacement: &'a str,
}

/// Renders the run as pretty JSON followed by a newline.
pub fn render(run: &LintRun) -> String {
    let skills: Vec<String> = run.skills.par_iter().map(render_skill).collect();
    let mut out = Vec::new();
    write(&mut out, skills.iter().map(String::as_str), run.summary())
        .expect("writing to a Vec does not fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// One skill's entry of the `skills` array, pretty and indented as [`write`] places it, so a
/// caller can render each skill as soon as it is linted and drop it.
pub fn render_skill(report: &SkillReport) -> String {
    let alone = serde_json::to_vec_pretty(&skill(report)).unwrap_or_default();
    // JSON strings hold no raw newline, so every line break is the pretty printer's.
    let mut out = Vec::with_capacity(alone.len() + alone.len() / 4);
    out.extend_from_slice(b"    ");
    let mut from = 0;
    for at in memchr::memchr_iter(b'\n', &alone) {
        out.extend_from_slice(&alone[from..at]);
        out.extend_from_slice(b"\n    ");
        from = at + 1;
    }
    out.extend_from_slice(&alone[from..]);
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Writes `{"version": 1, "skills": [...], "summary": {...}}` as pretty JSON and a newline,
/// byte for byte what serializing the whole object at once gives, from entries made by
/// [`render_skill`].
pub fn write<'s>(
    out: &mut impl std::io::Write,
    skills: impl IntoIterator<Item = &'s str>,
    summary: Summary,
) -> std::io::Result<()> {
    write!(
        out,
        "{{\n  \"version\": {},\n  \"skills\": [",
        skill_model::JSON_VERSION
    )?;
    let mut empty = true;
    for entry in skills {
        out.write_all(if empty { b"\n" } else { b",\n" })?;
        out.write_all(entry.as_bytes())?;
        empty = false;
    }
    if !empty {
        out.write_all(b"\n  ")?;
    }
    out.write_all(b"],\n  \"summary\": ")?;
    let summary = serde_json::to_string_pretty(&summary).unwrap_or_default();
    out.write_all(summary.replace('\n', "\n  ").as_bytes())?;
    out.write_all(b"\n}\n")
}

fn skill(report: &SkillReport) -> SkillOut<'_> {
    SkillOut {
        path: report.skill.dir.display().to_string(),
        name: report.name(),
        target: report.target.target,
        target_from: report.target.from,
        valid: report.is_valid(),
        diagnostics: report
            .diagnostics
            .iter()
            .map(|d| diagnostic(report, d))
            .collect(),
    }
}

fn diagnostic<'a>(report: &'a SkillReport, d: &'a Diagnostic) -> DiagnosticOut<'a> {
    let (start, end) = positions(report, d).unzip();
    DiagnosticOut {
        code: d.rule.code,
        slug: d.rule.slug,
        severity: d.severity,
        message: &d.message,
        file: d.file.display().to_string(),
        line: start.map(|p| p.line),
        column: start.map(|p| p.column),
        end_line: end.map(|p| p.line),
        end_column: end.map(|p| p.column),
        note: d.note.as_deref(),
        owasp: crate::rulebook::owasp(d.rule).map(|c| c.id),
        help: d.help.as_deref(),
        fix: d.fix.as_ref().map(|f| fix(report, f)),
    }
}

fn fix<'a>(report: &'a SkillReport, fix: &'a Fix) -> FixOut<'a> {
    let source = report.skill.document.as_ref().ok().map(|d| &d.source);
    let edits = fix
        .edits
        .iter()
        .map(|e| {
            let (start, end) = source
                .map(|s| (s.position(e.span.start), s.position(e.span.end)))
                .unzip();
            EditOut {
                line: start.map(|p| p.line),
                column: start.map(|p| p.column),
                end_line: end.map(|p| p.line),
                end_column: end.map(|p| p.column),
                replacement: &e.replacement,
            }
        })
        .collect();
    FixOut {
        message: &fix.message,
        applicability: if fix.is_safe() { "safe" } else { "unsafe" },
        consequence: fix.unsafe_because.as_deref(),
        edits,
    }
}
