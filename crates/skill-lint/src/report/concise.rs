//! `--format concise`: `path:line:col: CODE message`, one line per diagnostic.

use super::positions;
use crate::LintRun;
use std::fmt::Write;

/// Renders every diagnostic on one line.
pub fn render(run: &LintRun) -> String {
    let mut out = String::new();
    for report in &run.skills {
        for d in &report.diagnostics {
            let file = d.file.display();
            let code = d.rule.code;
            let sev = d.severity.as_str();
            let _ = match positions(report, d) {
                Some((start, _)) => writeln!(
                    out,
                    "{file}:{}:{}: {code} [{sev}] {}",
                    start.line, start.column, d.message
                ),
                None => writeln!(out, "{file}: {code} [{sev}] {}", d.message),
            };
        }
    }
    out
}
