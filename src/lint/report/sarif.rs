//! `--format sarif`: SARIF 2.1.0, the format code-scanning services (GitHub, Azure DevOps)
//! ingest.

use super::positions;
use crate::lint::LintRun;
use crate::lint::diagnostic::Severity;
use crate::lint::rulebook::ALL;
use serde_json::{Value, json};

/// Renders the run as one SARIF log.
pub fn render(run: &LintRun) -> String {
    let rules: Vec<Value> = ALL
        .iter()
        .map(|r| {
            json!({
                "id": r.code,
                "name": r.slug,
                "shortDescription": {"text": r.summary},
                "fullDescription": {"text": r.doc},
                "defaultConfiguration": {"level": level(r.severity)},
            })
        })
        .collect();
    let mut results = Vec::new();
    for report in &run.skills {
        for d in &report.diagnostics {
            let mut location = json!({
                "physicalLocation": {"artifactLocation": {"uri": uri(&d.file.display().to_string())}}
            });
            if let Some((start, end)) = positions(report, d) {
                location["physicalLocation"]["region"] = json!({
                    "startLine": start.line,
                    "startColumn": start.column,
                    "endLine": end.line,
                    "endColumn": end.column.max(if end.line == start.line { start.column } else { 1 }),
                });
            }
            let index = ALL
                .iter()
                .position(|r| std::ptr::eq(*r, d.rule))
                .unwrap_or(0);
            results.push(json!({
                "ruleId": d.rule.code,
                "ruleIndex": index,
                "level": level(d.severity),
                "message": {"text": d.message},
                "locations": [location],
            }));
        }
    }
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "skill",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://agentskills.io",
                "rules": rules,
            }},
            "results": results,
        }],
    });
    let mut out = serde_json::to_string_pretty(&log).unwrap_or_default();
    out.push('\n');
    out
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A relative path as a URI reference: `/`-separated, spaces and `%` escaped.
fn uri(path: &str) -> String {
    path.replace('\\', "/")
        .replace('%', "%25")
        .replace(' ', "%20")
}
