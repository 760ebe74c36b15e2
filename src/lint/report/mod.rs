//! Output formats for lint results. Each renders a whole [`LintRun`] to a string; the CLI
//! decides where it goes.

mod concise;
mod human;
mod json;

pub use concise::render as render_concise;
pub use human::render as render_human;
pub use json::render as render_json;

use super::SkillReport;
use super::diagnostic::{Diagnostic, Location};
use crate::skill::span::Position;

/// The output formats of `skill lint`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// rustc-style, with the SKILL.md snippet and a caret.
    Human,
    /// One line per diagnostic: `path:line:col: CODE message`.
    Concise,
    /// One JSON object (schema version 1).
    Json,
}

/// Start and end positions of a diagnostic in its file; `None` for folder-level findings.
pub fn positions(report: &SkillReport, d: &Diagnostic) -> Option<(Position, Position)> {
    match &d.location {
        Location::Folder => None,
        Location::Point(p) => Some((*p, *p)),
        Location::Span(span) => {
            // Spans are offsets into SKILL.md.
            let source = &report.skill.document.as_ref().ok()?.source;
            Some((source.position(span.start), source.position(span.end)))
        }
    }
}
