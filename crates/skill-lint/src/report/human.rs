//! `--format human`: rustc-style diagnostics with the SKILL.md snippet and a caret, then a
//! one-line summary.

use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::{LintRun, SkillReport, Summary};
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use skill_model::Source;

/// Renders the run for a terminal; `styled` adds ANSI colours.
pub fn render(run: &LintRun, styled: bool) -> String {
    let mut out = String::new();
    let mut footer = Footer::default();
    for report in &run.skills {
        out.push_str(&render_skill(report, styled));
        footer.add(report);
    }
    out.push_str(&footer.render());
    out
}

/// One skill's findings as [`render`] prints them, for output written as each skill is linted.
pub fn render_skill(report: &SkillReport, styled: bool) -> String {
    let renderer = if styled {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for d in &report.diagnostics {
        out.push_str(&renderer.render(&group(report, d)));
        out.push_str("\n\n");
    }
    out
}

/// What the lines after the findings say of the whole run, gathered a skill at a time: the
/// counts, the targets inferred, and the findings left out by rule.
#[derive(Debug, Default)]
pub struct Footer {
    summary: Summary,
    inferred: Vec<crate::target::Chosen>,
    not_shown: Vec<(&'static crate::rulebook::Rule, usize)>,
}

impl Footer {
    /// Counts one skill's report.
    pub fn add(&mut self, report: &SkillReport) {
        self.summary += report.summary();
        if report.target.is_inferred() {
            self.inferred.push(report.target);
        }
        for rule in &report.not_shown {
            match self.not_shown.iter_mut().find(|(r, _)| r.code == rule.code) {
                Some((_, n)) => *n += 1,
                None => self.not_shown.push((rule, 1)),
            }
        }
    }

    /// Adds what another footer counted.
    pub fn merge(&mut self, other: &Footer) {
        self.summary += other.summary;
        self.inferred.extend_from_slice(&other.inferred);
        for &(rule, n) in &other.not_shown {
            match self.not_shown.iter_mut().find(|(r, _)| r.code == rule.code) {
                Some((_, total)) => *total += n,
                None => self.not_shown.push((rule, n)),
            }
        }
    }

    /// The counts by severity.
    pub fn summary(&self) -> Summary {
        self.summary
    }

    /// The summary line, then the targets and not-shown lines when they say anything.
    pub fn render(&self) -> String {
        let mut out = summary_line(self.summary);
        out.push('\n');
        for line in [self.targets_line(), self.not_shown_line()]
            .into_iter()
            .flatten()
        {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// Which agents the skills were linted for, when some were inferred to be written for one:
    /// `Linted for openclaw (inferred from metadata.openclaw; --target chooses).` for one
    /// skill, counts for many. Nothing when every skill was linted for the spec alone.
    fn targets_line(&self) -> Option<String> {
        if self
            .inferred
            .iter()
            .all(|t| t.target == crate::Target::Portable)
        {
            return None;
        }
        match self.inferred.as_slice() {
            [] => None,
            [one] => Some(format!(
                "Linted for {} (inferred from {}; --target chooses).",
                one.target, one.from
            )),
            many => {
                let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
                for chosen in many {
                    *counts.entry(chosen.target.to_string()).or_default() += 1;
                }
                let parts: Vec<String> = counts
                    .iter()
                    .map(|(target, n)| format!("{target} {n}"))
                    .collect();
                Some(format!(
                    "Linted each skill for the agent it declares: {} (--target chooses one for all).",
                    parts.join(", ")
                ))
            }
        }
    }

    /// The findings left out because they do not matter to the skills' targets, by rule, most
    /// first: one line instead of one warning per skill.
    fn not_shown_line(&self) -> Option<String> {
        if self.not_shown.is_empty() {
            return None;
        }
        let mut counts = self.not_shown.clone();
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.code.cmp(b.0.code)));
        let parts: Vec<String> = counts
            .iter()
            .map(|(rule, n)| format!("{n} {} ({})", rule.slug, rule.code))
            .collect();
        Some(format!(
            "Not shown, as they matter to no agent these skills were written for: {}. `skill explain CODE` says whom they matter to; --target or --select shows them.",
            parts.join(", ")
        ))
    }
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

fn group<'a>(report: &'a SkillReport, d: &'a Diagnostic) -> Vec<Group<'a>> {
    let title = level(d.severity)
        .primary_title(d.message.as_str())
        .id(d.rule.code);
    let path = d.file.display().to_string();
    // Snippets come from SKILL.md only; findings in other files show their path and line.
    let in_skill_md = d.file == report.skill.file_path();
    let source = report
        .skill
        .document
        .as_ref()
        .ok()
        .filter(|_| in_skill_md)
        .map(|doc| &doc.source);
    let mut main = match (source, &d.location) {
        (Some(source), Location::Span(span)) if printable(source, span.start, span.end) => {
            title.element(snippet(source, span.start, span.end, path, d.rule.slug))
        }
        (Some(source), Location::Span(span)) => {
            let p = source.position(span.start);
            title.element(Origin::path(path).line(p.line).char_column(p.column))
        }
        (Some(source), Location::Point(p)) => match source.offset_of(p.line, p.column) {
            Some(at) if printable(source, at, at) => {
                title.element(snippet(source, at, at, path, d.rule.slug))
            }
            _ => title.element(Origin::path(path).line(p.line).char_column(p.column)),
        },
        (None, Location::Point(p)) => {
            title.element(Origin::path(path).line(p.line).char_column(p.column))
        }
        _ => title.element(Origin::path(path)),
    };
    if let Some(note) = &d.note {
        main = main.element(Level::NOTE.message(note.as_str()));
    }
    if let Some(help) = &d.help {
        main = main.element(Level::HELP.message(help.as_str()));
    }
    if let Some(fix) = &d.fix {
        let offer = match &fix.unsafe_because {
            None => format!("fix available: {}", fix.message),
            Some(consequence) => format!(
                "unsafe fix available with --unsafe-fixes: {} ({consequence})",
                fix.message
            ),
        };
        main = main.element(Level::HELP.message(offer));
    }
    vec![main]
}

/// True when the lines `start..end` touch hold no bidirectional control and no tag character:
/// printed raw, those would reorder what the terminal shows or carry hidden text, so such a
/// line is named by position only (the message shows it escaped).
fn printable(source: &Source, start: usize, end: usize) -> bool {
    let first = source.position(start).line;
    let last = source.position(end.max(start)).line.min(first + 5);
    let from = source.line_span(first).map_or(0, |s| s.start);
    let to = source.line_span(last).map_or(source.text.len(), |s| s.end);
    !source.text[from..to.max(from)]
        .chars()
        .any(|c| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{E0000}'..='\u{E007F}'))
}

/// A snippet of the lines `start..end` touch, with the span underlined.
fn snippet<'a>(
    source: &'a Source,
    start: usize,
    end: usize,
    path: String,
    label: &'a str,
) -> Snippet<'a, annotate_snippets::Annotation<'a>> {
    let first = source.position(start).line;
    let last = source.position(end.max(start)).line.min(first + 5);
    let from = source.line_span(first).map_or(0, |s| s.start);
    let to = source.line_span(last).map_or(source.text.len(), |s| s.end);
    let text = &source.text[from..to.max(from)];
    let local_start = start - from;
    let local_end = end.clamp(start, to.max(start)) - from;
    Snippet::source(text)
        .line_start(first)
        .path(path)
        .annotation(
            AnnotationKind::Primary
                .span(local_start..local_end)
                .label(label),
        )
}

/// `Found 2 errors and 1 warning in 3 skills.` or `No problems found in 3 skills.`
fn summary_line(s: Summary) -> String {
    let skills = plural(s.skills, "skill");
    let parts: Vec<String> = [
        (s.errors, "error"),
        (s.warnings, "warning"),
        (s.infos, "info"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| plural(n, what))
    .collect();
    if parts.is_empty() {
        format!("No problems found in {skills}.")
    } else {
        format!("Found {} in {skills}.", parts.join(", "))
    }
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
