//! `--format github`: GitHub Actions workflow commands, which annotate the pull request.
//! Chosen automatically when `GITHUB_ACTIONS=true`.

use super::positions;
use crate::LintRun;
use crate::diagnostic::Severity;
use std::fmt::Write;

/// Renders one `::error`/`::warning`/`::notice` line per diagnostic.
pub fn render(run: &LintRun) -> String {
    let mut out = String::new();
    for report in &run.skills {
        for d in &report.diagnostics {
            let command = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let mut props = format!("file={}", escape_property(&d.file.display().to_string()));
            if let Some((start, end)) = positions(report, d) {
                let _ = write!(
                    props,
                    ",line={},col={},endLine={},endColumn={}",
                    start.line, start.column, end.line, end.column
                );
            }
            let title = escape_property(&format!("{} {}", d.rule.code, d.rule.slug));
            let _ = writeln!(
                out,
                "::{command} {props},title={title}::{}",
                escape_data(&d.message)
            );
        }
    }
    out
}

/// Escapes a message as the runner requires (`%`, CR, LF).
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value (also `:` and `,`).
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}
