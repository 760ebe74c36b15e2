//! `--format json`: one object, `{"version": 1, "skills": [...], "summary": {...}}`.

use super::positions;
use crate::lint::diagnostic::{Diagnostic, Fix, Severity};
use crate::lint::{LintRun, SkillReport, Summary};
use rayon::prelude::*;
use serde::Serialize;

#[derive(Serialize)]
struct Output<'a> {
    version: u32,
    skills: Vec<SkillOut<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct SkillOut<'a> {
    path: String,
    name: Option<&'a str>,
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
    help: Option<&'a str>,
    fix: Option<FixOut<'a>>,
}

#[derive(Serialize)]
struct FixOut<'a> {
    message: &'a str,
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
    let output = Output {
        version: 1,
        skills: run.skills.par_iter().map(skill).collect(),
        summary: run.summary(),
    };
    let mut out = serde_json::to_string_pretty(&output).unwrap_or_default();
    out.push('\n');
    out
}

fn skill(report: &SkillReport) -> SkillOut<'_> {
    SkillOut {
        path: report.skill.dir.display().to_string(),
        name: report.name(),
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
        edits,
    }
}
