//! Diagnostics: what a rule found, where, and how to fix it.

use super::rulebook::Rule;
use skill_model::Span;
use skill_model::span::Position;
use std::borrow::Cow;
use std::path::PathBuf;

/// How serious a finding is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never fails a run.
    Info,
    /// Likely a problem; fails only with `--strict`.
    Warning,
    /// The skill is broken for its target.
    Error,
}

impl Severity {
    /// The lower-case name used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Where a diagnostic points.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Location {
    /// The skill folder as a whole (no line).
    Folder,
    /// A byte span of `SKILL.md`.
    Span(Span),
    /// A line and column of `SKILL.md` (parser errors that give no span).
    Point(Position),
}

/// One text replacement in `SKILL.md`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Edit {
    /// The bytes to replace.
    pub span: Span,
    /// What to put there.
    pub replacement: String,
}

/// A change that resolves a diagnostic.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fix {
    /// Why the fix is unsafe: what it changes in what an agent loads, lists or runs
    /// ("OpenClaw and nanobot hide this skill where `jq` is not on PATH"). `None` for a safe
    /// fix, which `--fix` applies; an unsafe one needs `--unsafe-fixes`.
    pub unsafe_because: Option<String>,
    /// What the fix does, in a few words.
    pub message: String,
    /// The edits, non-overlapping.
    pub edits: Vec<Edit>,
    /// The top-level frontmatter key the fix adds, besides `metadata` (which any fix may add):
    /// a round that adds any other key is dropped.
    pub adds_key: Option<Cow<'static, str>>,
}

impl Fix {
    /// Whether `--fix` applies it without `--unsafe-fixes`.
    pub fn is_safe(&self) -> bool {
        self.unsafe_because.is_none()
    }
}

/// A finding of one rule in one skill.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    /// The rule that found it.
    #[serde(with = "rule_code")]
    pub rule: &'static Rule,
    /// Its severity for the chosen target.
    pub severity: Severity,
    /// The headline.
    pub message: String,
    /// The file it is about (the skill folder for folder-level findings).
    pub file: PathBuf,
    /// Where in the file.
    pub location: Location,
    /// Why the finding matters, when the headline alone does not say (security findings).
    pub note: Option<String>,
    /// A hint on what to do, when the fix is not mechanical.
    pub help: Option<String>,
    /// A mechanical fix, when one is safe.
    pub fix: Option<Fix>,
    /// Reported whatever the target, though its rule matters only to some: the finding says
    /// the skill does not do what its author meant (a `triggers:` list no agent reads).
    pub for_every_target: bool,
}

impl Diagnostic {
    /// Adds a help line.
    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Adds a note on why the finding matters.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }

    /// Marks the finding as one to report whatever the target.
    pub fn for_every_target(mut self) -> Diagnostic {
        self.for_every_target = true;
        self
    }

    /// Adds a fix.
    pub(crate) fn with_fix(mut self, fix: Option<Fix>) -> Diagnostic {
        self.fix = fix;
        self
    }
}

/// A rule as its code, for the lint cache: rules are `'static` and found again by code.
mod rule_code {
    use crate::rulebook::{Rule, find};
    use serde::de::Error;

    pub(super) fn serialize<S: serde::Serializer>(rule: &&Rule, out: S) -> Result<S::Ok, S::Error> {
        out.serialize_str(rule.code)
    }

    pub(super) fn deserialize<'de, D>(input: D) -> Result<&'static Rule, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let code: std::borrow::Cow<'de, str> = serde::Deserialize::deserialize(input)?;
        find(&code).ok_or_else(|| D::Error::custom(format!("no rule {code}")))
    }
}
