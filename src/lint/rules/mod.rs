//! The checks, one small function per rule, grouped by family. `CHECKS` fixes the order they
//! run in, which is the order diagnostics are reported in: for the rules skills-ref also has,
//! that is skills-ref's own order, so messages can be compared one for one.

mod budgets;
mod descriptions;
mod format;
mod keys;
mod names;

use super::catalog::Rule;
use super::diagnostic::{Diagnostic, Fix, Location};
use super::target::Target;
use crate::skill::{Document, Manifest, Skill};

/// What every check sees: the skill and the target.
pub struct Context<'a> {
    /// The skill being linted.
    pub skill: &'a Skill,
    /// The target chosen on the command line.
    pub target: Target,
}

impl<'a> Context<'a> {
    /// The parsed document, if the file could be read.
    pub fn document(&self) -> Option<&'a Document> {
        self.skill.document.as_ref().ok()
    }

    /// The manifest, if the frontmatter parsed into a mapping.
    pub fn manifest(&self) -> Option<&'a Manifest> {
        self.skill.manifest()
    }

    /// The text of `SKILL.md` (empty when unread).
    pub fn text(&self) -> &'a str {
        self.document().map_or("", |d| d.source.text.as_str())
    }

    /// A diagnostic of `rule` at `location` in SKILL.md, with the target's severity.
    pub fn diagnostic(
        &self,
        rule: &'static Rule,
        message: String,
        location: Location,
    ) -> Diagnostic {
        let file = match location {
            Location::Folder => self.skill.dir.clone(),
            _ => self.skill.file_path(),
        };
        Diagnostic {
            rule,
            severity: rule.severity_for(self.target),
            message,
            file,
            location,
            help: None,
            fix: None,
        }
    }
}

impl Diagnostic {
    /// Adds a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Adds a fix.
    pub fn with_fix(mut self, fix: Option<Fix>) -> Diagnostic {
        self.fix = fix;
        self
    }
}

/// A check: reads the context, appends what it finds.
pub type Check = fn(&Context, &mut Vec<Diagnostic>);

/// Every check, in reporting order.
pub const CHECKS: &[Check] = &[
    format::check_file,
    format::check_lowercase_file,
    budgets::check_skill_md_size,
    format::check_bom,
    format::check_frontmatter,
    format::check_duplicate_keys,
    keys::check_unknown,
    names::check_name,
    descriptions::check_description,
    keys::check_compatibility,
    keys::check_allowed_tools,
    keys::check_metadata,
    keys::check_types,
    format::check_tabs,
    format::check_dashes,
    format::check_crlf,
    format::check_strict_yaml,
];

/// Runs every check on `skill` for `target`.
pub fn check(skill: &Skill, target: Target) -> Vec<Diagnostic> {
    let cx = Context { skill, target };
    let mut out = Vec::new();
    for check in CHECKS {
        check(&cx, &mut out);
    }
    out
}
