//! Output formats for lint results. Each renders a whole [`LintRun`] to a string; the CLI
//! decides where it goes.

mod concise;
mod github;
mod human;
mod json;
mod sarif;

pub use concise::render as render_concise;
pub use github::render as render_github;
pub use human::{
    Footer as HumanFooter, render as render_human, render_skill as render_human_skill,
};
pub use json::render as render_json;
pub use json::{render_skill as render_json_skill, write as write_json};
pub use sarif::render as render_sarif;

use super::SkillReport;
use super::diagnostic::{Diagnostic, Location};
use skill_model::span::Position;

skill_model::choices! {
    /// The output formats of `skill lint`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Format {
        Human = "human": "rustc-style, with the SKILL.md snippet and a caret.",
        Concise = "concise": "One line per diagnostic: `path:line:col: CODE message`.",
        Json = "json": "One JSON object (schema version 1).",
        Sarif = "sarif": "SARIF 2.1.0, for code-scanning services.",
        Github = "github": "GitHub Actions workflow commands (the default when `GITHUB_ACTIONS=true`).",
    }
}

impl Format {
    /// Renders `run` in this format; `styled` applies to `human` only.
    pub fn render(self, run: &crate::LintRun, styled: bool) -> String {
        match self {
            Format::Human => render_human(run, styled),
            Format::Concise => render_concise(run),
            Format::Json => render_json(run),
            Format::Sarif => render_sarif(run),
            Format::Github => render_github(run),
        }
    }
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
