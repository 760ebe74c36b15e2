//! `--format json`: one object, `{"version": 1, "skills": [...], "summary": {...}}`.

use super::positions;
use crate::lint::diagnostic::{Diagnostic, Fix};
use crate::lint::{LintRun, SkillReport};
use serde_json::{Value, json};

/// Renders the run as pretty JSON followed by a newline.
pub fn render(run: &LintRun) -> String {
    let skills: Vec<Value> = run.skills.iter().map(skill).collect();
    let value = json!({
        "version": 1,
        "skills": skills,
        "summary": run.summary(),
    });
    let mut out = serde_json::to_string_pretty(&value).unwrap_or_default();
    out.push('\n');
    out
}

fn skill(report: &SkillReport) -> Value {
    json!({
        "path": report.skill.dir.display().to_string(),
        "name": report.name(),
        "valid": report.is_valid(),
        "diagnostics": report.diagnostics.iter().map(|d| diagnostic(report, d)).collect::<Vec<_>>(),
    })
}

fn diagnostic(report: &SkillReport, d: &Diagnostic) -> Value {
    let (start, end) = positions(report, d).unzip();
    json!({
        "code": d.rule.code,
        "slug": d.rule.slug,
        "severity": d.severity,
        "message": d.message,
        "file": d.file.display().to_string(),
        "line": start.map(|p| p.line),
        "column": start.map(|p| p.column),
        "end_line": end.map(|p| p.line),
        "end_column": end.map(|p| p.column),
        "help": d.help,
        "fix": d.fix.as_ref().map(|f| fix(report, f)),
    })
}

fn fix(report: &SkillReport, fix: &Fix) -> Value {
    let source = report.skill.document.as_ref().ok().map(|d| &d.source);
    let edits: Vec<Value> = fix
        .edits
        .iter()
        .map(|e| {
            let (start, end) = source
                .map(|s| (s.position(e.span.start), s.position(e.span.end)))
                .unzip();
            json!({
                "line": start.map(|p| p.line),
                "column": start.map(|p| p.column),
                "end_line": end.map(|p| p.line),
                "end_column": end.map(|p| p.column),
                "replacement": e.replacement,
            })
        })
        .collect();
    json!({"message": fix.message, "edits": edits})
}
