#![warn(missing_docs)]
// Functions stay short enough to read at once; clippy.toml sets the bound (60 code lines).
#![warn(clippy::too_many_lines)]
//! `skill lint`: checks skills against the Agent Skills spec and what agents actually accept.
//! Rules live in `rules/` (one function each), their codes and docs in `rulebook`, output
//! formats in `report/`. This module ties them together: discover, check in parallel, filter.

pub mod baseline;
pub mod cache;
pub mod config;
pub mod diagnostic;
pub mod edit;
/// The failing and passing example of each rule, `skill explain` shows: the rule's own test
/// fixtures, embedded by build.rs.
pub mod examples {
    include!(concat!(env!("OUT_DIR"), "/examples.rs"));
}
pub mod fix;
pub mod infer;
pub mod report;
pub mod rulebook;
pub mod rules;
pub mod selection;
pub mod target;
pub mod tokens;
pub mod yaml_edit;

pub use diagnostic::{Diagnostic, Severity};
pub use rules::security;
pub use selection::Selection;
pub use target::Target;

use config::PathIgnores;
use rayon::prelude::*;
use rules::overlap;
use skill_model::environment::{Environment, SystemEnvironment};
use skill_model::{DiscoveryError, Skill, SkillLocation, discover, discover_manifests};
use std::path::PathBuf;
use std::sync::Arc;

/// How to lint.
#[derive(Clone)]
pub struct Options {
    /// Whose rules apply; `None` infers each skill's agent from what it declares
    /// ([`target::infer`]).
    pub target: Option<Target>,
    /// Which rules run.
    pub selection: Selection,
    /// The rules `skill.toml`'s `per-path-ignores` turn off in some skills.
    pub path_ignores: PathIgnores,
    /// Whether to check declared bins, env vars and `os` against `environment`.
    pub env_checks: bool,
    /// The machine skills are checked against.
    pub environment: Arc<dyn Environment>,
    /// Size and token budgets.
    pub budgets: Budgets,
    /// Skills (name, description) compared with the linted ones by `description-overlap` but
    /// not linted themselves (`--with` roots).
    pub overlap_with: Vec<(String, String)>,
    /// Where each skill's findings are kept between runs; `None` lints every skill afresh.
    pub cache: Option<Arc<cache::Cache>>,
}

impl Options {
    /// Defaults for `target`: every rule, checks against this machine, default budgets.
    pub fn new(target: Target) -> Options {
        Options {
            target: Some(target),
            ..Options::inferring()
        }
    }

    /// Defaults, each skill linted for the agent it was written for ([`target::infer`]).
    pub fn inferring() -> Options {
        Options {
            target: None,
            selection: Selection::default(),
            path_ignores: PathIgnores::default(),
            env_checks: true,
            environment: Arc::new(SystemEnvironment::default()),
            budgets: Budgets::default(),
            overlap_with: Vec::new(),
            cache: None,
        }
    }
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("target", &self.target)
            .field("selection", &self.selection)
            .field("env_checks", &self.env_checks)
            .field("budgets", &self.budgets)
            .finish_non_exhaustive()
    }
}

/// Limits the budget rules enforce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Budgets {
    /// Most lines in the body (the spec asks for under 500).
    pub body_lines: usize,
    /// Most o200k tokens in the body (the spec asks for under 5000).
    pub body_tokens: usize,
    /// Most o200k tokens in the description, which every prompt carries.
    pub description_tokens: usize,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets {
            body_lines: 500,
            body_tokens: 5000,
            description_tokens: 200,
        }
    }
}

/// One skill and what lint found in it.
#[derive(Debug)]
pub struct SkillReport {
    /// The skill as loaded.
    pub skill: Skill,
    /// The target it was linted for, and what chose it.
    pub target: target::Chosen,
    /// Findings, in rule order.
    pub diagnostics: Vec<Diagnostic>,
    /// The rules of findings left out because they do not matter to the target (one entry per
    /// finding; see [`rulebook::Rule::matters_to`]).
    pub not_shown: Vec<&'static rulebook::Rule>,
    /// The skill's `name` as written, when it is a string: kept apart from `skill` because a
    /// skill replayed from the cache is never parsed.
    name: Option<String>,
}

/// What the rules of one skill found, and what they checked it for.
#[derive(Debug)]
pub(crate) struct Checked {
    target: target::Chosen,
    name: Option<String>,
    diagnostics: Vec<Diagnostic>,
    not_shown: Vec<&'static rulebook::Rule>,
}

impl SkillReport {
    /// Counts of this skill's diagnostics by severity (`skills` is 1).
    pub fn summary(&self) -> Summary {
        let mut s = Summary {
            skills: 1,
            ..Summary::default()
        };
        for d in &self.diagnostics {
            s.count(d.severity);
        }
        s.not_shown = self.not_shown.len();
        s
    }

    /// True when the skill's `SKILL.md` could not be read (an I/O error, exit code 2).
    pub fn had_io_error(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.rule == &rulebook::UNREADABLE)
    }

    /// True when the skill has no error.
    pub fn is_valid(&self) -> bool {
        !self
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// The skill's `name` as written, when it is a string.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }
}

/// The result of a lint run over many skills.
#[derive(Debug)]
pub struct LintRun {
    /// Per skill, sorted by path.
    pub skills: Vec<SkillReport>,
}

/// Counts of diagnostics by severity.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Skills linted.
    pub skills: usize,
    /// Errors.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Infos.
    pub infos: usize,
    /// Findings left out because they do not matter to their skill's target.
    pub not_shown: usize,
}

impl Summary {
    fn count(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => self.infos += 1,
        }
    }
}

impl std::ops::AddAssign for Summary {
    fn add_assign(&mut self, other: Summary) {
        self.skills += other.skills;
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.infos += other.infos;
        self.not_shown += other.not_shown;
    }
}

impl LintRun {
    /// Totals over all skills.
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        for report in &self.skills {
            s += report.summary();
        }
        s
    }

    /// True when some `SKILL.md` could not be read (an I/O error, exit code 2).
    pub fn had_io_error(&self) -> bool {
        self.skills.iter().any(SkillReport::had_io_error)
    }
}

/// Runs over this many skills load the o200k vocabulary and compile the security family's
/// patterns on threads of their own as they start: among so many, some text is long enough to
/// be counted (86 of the 3,215 corpus skills) and some line needs each pattern, and the few
/// milliseconds of each then overlap the linting. A run over a few skills loads and compiles
/// only what one of them needs.
const PRELOAD_AT: usize = 64;

/// Finds the skills under `paths` and lints each, in parallel; output order is by path.
pub fn lint_paths(paths: &[PathBuf], options: &Options) -> Result<LintRun, DiscoveryError> {
    let skills = lint_paths_each(paths, options, |report| report)?;
    Ok(LintRun { skills })
}

/// Finds the skills under `paths`, lints each in parallel and hands its report to `each`,
/// keeping only what `each` returns, in path order: a caller that renders as it goes holds no
/// skill (its text, files and findings) longer than its own lint.
pub fn lint_paths_each<T: Send>(
    paths: &[PathBuf],
    options: &Options,
    each: impl Fn(SkillReport) -> T + Sync,
) -> Result<Vec<T>, DiscoveryError> {
    let locations = if rules::reads_files(&options.selection) {
        discover(paths)?
    } else {
        discover_manifests(paths)?
    };
    // A warm cache replays most skills: loading for them would only take a core from the walk.
    let replaying = options
        .cache
        .as_ref()
        .is_some_and(|c| c.len() * 2 >= locations.len());
    if locations.len() >= PRELOAD_AT && !replaying {
        if options.selection.allows(&rulebook::TOKEN_BUDGET) {
            tokens::preload();
        }
        let security = |r: &&rulebook::Rule| r.family() == "security";
        if rulebook::ALL
            .iter()
            .any(|r| security(r) && options.selection.allows(r))
        {
            security::preload();
        }
    }
    if options.selection.allows(&rulebook::DESCRIPTION_OVERLAP) {
        return Ok(lint_across(locations, options, each));
    }
    Ok(locations
        .into_par_iter()
        .map(|location| each(lint_skill(Skill::load(location), options)))
        .collect())
}

/// [`lint_paths_each`] with the rule across skills. It reads only manifests, so every skill
/// is loaded first, and the comparison then runs on one thread while the others lint: a skill
/// linted after it ends is handed on at once with its findings across skills, one linted
/// before waits for them. (Holding every report until a comparison after the linting cost a
/// fifth of the run and 40 MiB; comparing between the two made one core idle.)
fn lint_across<T: Send>(
    locations: Vec<SkillLocation>,
    options: &Options,
    each: impl Fn(SkillReport) -> T + Sync,
) -> Vec<T> {
    // Each skill is read twice (for the comparison, then for its lint) rather than every skill
    // held at once: holding them was a third of the peak memory of a run over the corpus. The
    // cache answers the first read for a skill nothing changed in.
    let entries: Vec<overlap::ComparedSkill> = locations
        .par_iter()
        .map(|location| {
            options
                .cache
                .as_ref()
                .filter(|_| cache::applies(options))
                .and_then(|cache| cache.compared(location))
                .unwrap_or_else(|| overlap::ComparedSkill::of(&Skill::load(location.clone())))
        })
        .collect();
    let across = std::sync::OnceLock::new();
    let finish = |mut report: SkillReport, found: &[Diagnostic]| {
        report.diagnostics.extend_from_slice(found);
        report.keep_what_matters(&options.selection);
        drop_path_ignored(&mut report, &options.path_ignores);
        each(report)
    };
    let ((), staged) = rayon::join(
        || {
            let compare = || {
                overlap::check_run(
                    &entries,
                    &options.overlap_with,
                    options.target.unwrap_or(Target::Portable),
                )
            };
            let _ = across.set(match &options.cache {
                Some(cache) => cache.across(&entries, options, compare),
                None => compare(),
            });
        },
        || {
            locations
                .into_par_iter()
                .enumerate()
                .map(|(i, location)| {
                    let report = lint_own(Skill::load(location), options);
                    match across.get() {
                        Some(found) => Staged::Done(finish(report, &found[i])),
                        None => Staged::Waiting(Box::new(report)),
                    }
                })
                .collect::<Vec<_>>()
        },
    );
    let across: Vec<Vec<Diagnostic>> = across.into_inner().unwrap_or_default();
    staged
        .into_par_iter()
        .enumerate()
        .map(|(i, staged)| match staged {
            Staged::Done(done) => done,
            Staged::Waiting(report) => finish(*report, across.get(i).map_or(&[], Vec::as_slice)),
        })
        .collect()
}

/// A skill of [`lint_across`]: handed on, or linted before the comparison ended.
enum Staged<T> {
    Done(T),
    Waiting(Box<SkillReport>),
}

/// The `description-overlap` findings of one skill compared with `others` (name, description),
/// as a run over its folder would give them: for a skill linted alone, as an editor does.
pub fn overlap_of(
    skill: &Skill,
    others: &[(String, String)],
    options: &Options,
) -> Vec<Diagnostic> {
    let entries = [overlap::ComparedSkill::of(skill)];
    let target = options
        .target
        .unwrap_or_else(|| target::infer(skill).target);
    let mut found = overlap::check_run(&entries, others, target)
        .pop()
        .unwrap_or_default();
    found.retain(|d| {
        options.selection.allows(d.rule) && !options.path_ignores.ignores(&skill.dir, d)
    });
    found
}

/// Lints one loaded skill: the selected rules, less those its path ignores.
pub fn lint_skill(skill: Skill, options: &Options) -> SkillReport {
    let mut report = lint_own(skill, options);
    drop_path_ignored(&mut report, &options.path_ignores);
    report
}

/// The skill's own findings of the selected rules, before path ignores (which apply to the
/// findings across skills too): replayed from the cache when it holds them.
fn lint_own(skill: Skill, options: &Options) -> SkillReport {
    let own = |environment: &dyn Environment, target, nested| {
        check(&skill, target, nested, options, environment)
    };
    let checked = match &options.cache {
        Some(cache) if cache::applies(options) => cache.checked(&skill, options, own),
        _ => {
            let target = target::declared(&skill).or_given(options.target, &skill.dir);
            let nested = target::nested_on_disk(&skill.dir);
            own(options.environment.as_ref(), target, nested)
        }
    };
    SkillReport {
        skill,
        target: checked.target,
        diagnostics: checked.diagnostics,
        not_shown: checked.not_shown,
        name: checked.name,
    }
}

/// The findings of the selected rules for `skill` linted for `target`; `nested` when it lies
/// inside another skill's folder ([`target::nested`]).
fn check(
    skill: &Skill,
    target: target::Chosen,
    nested: bool,
    options: &Options,
    environment: &dyn Environment,
) -> Checked {
    let mut diagnostics = rules::check(skill, target.target, nested, options, environment);
    diagnostics.retain(|d| options.selection.allows(d.rule));
    let not_shown = keep_what_matters(&mut diagnostics, target.target, &options.selection);
    let name = skill
        .manifest()
        .and_then(|m| m.value("name")?.as_str())
        .map(|name| name.trim().to_owned());
    Checked {
        target,
        name,
        diagnostics,
        not_shown,
    }
}

impl SkillReport {
    /// Moves the findings that do not matter to the skill's target into `not_shown`, unless
    /// the user named their rule in `--select`.
    fn keep_what_matters(&mut self, selection: &Selection) {
        let left_out = keep_what_matters(&mut self.diagnostics, self.target.target, selection);
        self.not_shown.extend(left_out);
    }
}

/// Drops the findings that do not matter to `target` and returns their rules, keeping those
/// whose rule the user named in `--select`.
fn keep_what_matters(
    diagnostics: &mut Vec<Diagnostic>,
    target: Target,
    selection: &Selection,
) -> Vec<&'static rulebook::Rule> {
    let mut not_shown = Vec::new();
    diagnostics.retain(|d| {
        let shown = d.rule.matters_to(target) || d.for_every_target || selection.names(d.rule);
        if !shown {
            not_shown.push(d.rule);
        }
        shown
    });
    not_shown
}

/// Drops the findings `ignores` turns off in the report's skill.
fn drop_path_ignored(report: &mut SkillReport, ignores: &PathIgnores) {
    let SkillReport {
        skill, diagnostics, ..
    } = report;
    diagnostics.retain(|d| !ignores.ignores(&skill.dir, d));
}

#[cfg(test)]
mod testing;
