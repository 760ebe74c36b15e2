//! `skill eval`: trigger and routing evals. Each query of a skill's `evals/triggers.yaml` goes
//! through the agent loop of `skill try` in one workspace holding the skills under test and the
//! distractors an agent would have; a run stops at the model's first choice (a SKILL.md read,
//! another tool call, or an answer), so it costs one or two turns. The result per skill is its
//! recall, its false-trigger rate and the routing table (which skill each run read first). One
//! cassette per query and run, under `evals/cassettes/triggers/`, replayed like `skill test`'s.
//! Printing is the CLI's; JUnit is [`junit`].

pub mod harness;
pub mod impact;
pub mod improve;
pub mod junit;
pub mod starter;
pub mod triggers;

use crate::cassette::Mode;
use crate::provider::{HttpConfig, ModelError};
use crate::tools::{Confinement, Passed};
use crate::r#try::{Answers, Loading, PassEnv, Trial, run_in};
use crate::{AgentError, Stop, Workspace};
use skill_model::choice::Choice;
use skill_prompt::via::Via;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
pub use triggers::{Query, TRIGGERS_FILE, TriggerSet, TriggersError};

/// The folder of trigger cassettes inside `evals/cassettes/`.
pub(crate) const CASSETTES_DIR: &str = "triggers";
/// Turns a routing run may take: reads of folders and other files before the choice.
pub(crate) const MAX_TURNS: usize = 4;

/// A skill under test: its folder, installed name and trigger set.
#[derive(Debug, Clone)]
pub struct Subject {
    /// The skill folder.
    pub dir: PathBuf,
    /// The name it is installed under (its folder name).
    pub name: String,
    /// Its checked trigger set.
    pub triggers: TriggerSet,
}

/// Why an eval could not run.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A trigger set is missing or wrong.
    #[error(transparent)]
    Triggers(#[from] TriggersError),
    /// A skill folder has no trigger set.
    #[error("{0}: no evals/triggers.yaml")]
    NoTriggers(PathBuf),
    /// A replay found no cassette.
    #[error("{path}: no cassette for this query and run\nRecord them with: {rerecord}")]
    NoCassette {
        /// The cassette it looked for.
        path: PathBuf,
        /// The command that records.
        rerecord: String,
    },
    /// The loop or the cassette failed.
    #[error("{skill}: query at {file}:{line}, run {run}: {error}")]
    Run {
        /// The skill under test.
        skill: String,
        /// Its trigger set.
        file: PathBuf,
        /// The query's line.
        line: u64,
        /// The run (from 1).
        run: u32,
        /// What failed.
        error: Box<AgentError>,
    },
    /// The workspace could not be prepared.
    #[error(transparent)]
    Workspace(AgentError),
    /// The agent CLI cannot be run at all.
    #[error(transparent)]
    HarnessSetup(Box<harness::HarnessError>),
    /// A run through a real agent CLI failed.
    #[error("{skill}: query at {file}:{line}, run {run}: {error}")]
    Harness {
        /// The skill under test.
        skill: String,
        /// Its trigger set.
        file: PathBuf,
        /// The query's line.
        line: u64,
        /// The run (from 1).
        run: u32,
        /// What failed.
        error: Box<harness::HarnessError>,
    },
    /// The description optimiser's proposer failed.
    #[error("{cassette}: proposing a description: {error}")]
    Propose {
        /// Its cassette.
        cassette: PathBuf,
        /// What failed.
        error: Box<AgentError>,
    },
}

/// The subjects of `dirs`, every trigger set read and checked before anything runs.
pub fn load_subjects(dirs: &[PathBuf]) -> Result<Vec<Subject>, EvalError> {
    dirs.iter()
        .map(|dir| {
            let path = dir.join(TRIGGERS_FILE);
            if !path.is_file() {
                return Err(EvalError::NoTriggers(dir.clone()));
            }
            Ok(Subject {
                dir: dir.clone(),
                name: crate::test::skill_name(dir),
                triggers: TriggerSet::load(&path)?,
            })
        })
        .collect()
}

/// Scripted replies for a query of a skill (starter recordings).
pub type Script = dyn Fn(&Query, &str) -> Vec<crate::message::Reply>;

/// How to run an eval.
pub struct Options<'a> {
    /// How the cassettes are used.
    pub mode: Mode,
    /// Runs per query instead of the trigger sets' `runs`.
    pub runs: Option<u32>,
    /// Also measure recall through these ways (`--compare-via`).
    pub compare: Vec<Via>,
    /// The provider, when the mode calls one (never in replay).
    pub http: &'a dyn Fn() -> Result<HttpConfig, ModelError>,
    /// The command that records the cassettes again, for errors.
    pub rerecord: String,
    /// Record from these scripted replies (query, skill) instead of a provider (starters).
    pub script: Option<&'a Script>,
    /// How the runs' commands are confined (see `sandbox::decide`).
    pub confinement: Confinement,
    /// The folder of the cassettes instead of `evals/cassettes/triggers/` (the description
    /// optimiser keeps each candidate's apart).
    pub cassettes: Option<PathBuf>,
}

/// One run of one query.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RunReport {
    /// The skill whose SKILL.md the model read first, or `null`; for a way that loads the
    /// skill without a read, the skill itself unless the model read another one.
    pub read: Option<String>,
    /// How the run stopped (`routed` at a read or a tool call, `answer`...).
    pub stop: Stop,
    /// Whether the run is a decision (counted in the rates): a cut-off or a turn limit is not.
    pub decided: bool,
    /// Model turns.
    pub turns: usize,
    /// Tokens in and out.
    pub tokens: u64,
}

/// One query and its runs.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct QueryReport {
    /// What the user asked.
    pub prompt: String,
    /// Whether it should have triggered the skill.
    pub should_trigger: bool,
    /// Its line in the trigger set.
    pub line: u64,
    /// Every run.
    pub runs: Vec<RunReport>,
}

impl QueryReport {
    /// The report of `query`, before any run.
    pub fn of(query: &Query) -> QueryReport {
        QueryReport {
            prompt: query.prompt.clone(),
            should_trigger: query.should_trigger,
            line: query.line,
            runs: Vec::new(),
        }
    }

    /// Runs that went the way the query wants, and decided runs.
    pub fn right(&self, skill: &str) -> (usize, usize) {
        let decided: Vec<&RunReport> = self.runs.iter().filter(|r| r.decided).collect();
        let right = decided
            .iter()
            .filter(|r| (r.read.as_deref() == Some(skill)) == self.should_trigger)
            .count();
        (right, decided.len())
    }
}

/// Another skill that took runs of this skill's should-trigger queries.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Steal {
    /// The skill the model read instead.
    #[serde(rename = "name")]
    pub skill: String,
    /// How many runs.
    pub runs: usize,
}

/// Recall and false rate through one way.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WayReport {
    /// The way.
    pub via: Via,
    /// Share of decided should-trigger runs that used the skill (`null` without any).
    pub recall: Option<f64>,
    /// Share of decided should-not runs that read it (`null` without any, and for ways that
    /// load the skill whatever the query).
    pub false_rate: Option<f64>,
    /// The counts behind `recall`: (hits, decided runs).
    #[serde(serialize_with = "tally")]
    pub recall_runs: (usize, usize),
    /// The counts behind `false_rate`.
    #[serde(serialize_with = "tally")]
    pub false_runs: (usize, usize),
}

/// A pair of counts as JSON: `{"read": runs that read the skill, "of": decided runs}`.
fn tally<S: serde::Serializer>(&(read, of): &(usize, usize), out: S) -> Result<S::Ok, S::Error> {
    #[derive(serde::Serialize)]
    struct Tally {
        read: usize,
        of: usize,
    }
    serde::Serialize::serialize(&Tally { read, of }, out)
}

/// One skill's result.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SkillReport {
    /// The skill's name.
    #[serde(rename = "name")]
    pub skill: String,
    /// Its trigger set.
    pub file: PathBuf,
    /// The way of the trigger set.
    pub via: Via,
    /// Share of decided should-trigger runs that read it (`null` when there are none).
    pub recall: Option<f64>,
    /// Share of decided should-not runs that read it (`null` when there are none).
    pub false_rate: Option<f64>,
    /// The counts behind `recall`: (hits, decided runs).
    #[serde(serialize_with = "tally")]
    pub recall_runs: (usize, usize),
    /// The counts behind `false_rate`.
    #[serde(serialize_with = "tally")]
    pub false_runs: (usize, usize),
    /// The file's threshold.
    pub min_recall: Option<f64>,
    /// The file's threshold.
    pub max_false_rate: Option<f64>,
    /// Whether both thresholds hold.
    pub passed: bool,
    /// The thresholds missed, in words.
    pub failures: Vec<String>,
    /// The routing table: every query and run.
    pub queries: Vec<QueryReport>,
    /// Skills that took this skill's should-trigger runs, most first.
    pub stolen_by: Vec<Steal>,
    /// Recall per way, with `--compare-via` (the trigger set's own way first).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compare: Vec<WayReport>,
}

/// The whole eval.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EvalReport {
    /// Every skill under test.
    pub skills: Vec<SkillReport>,
    /// The skills installed beside them, by name.
    pub distractors: Vec<String>,
}

/// The cassette of query `index` (from 0), run `run` (from 1), through `via` (`own`: the trigger
/// set's way, straight under `triggers/`).
pub fn cassette_path(subject: &Subject, index: usize, run: u32, via: Option<Via>) -> PathBuf {
    let dir = subject
        .dir
        .join(crate::test::scenario::EVALS_DIR)
        .join(crate::test::scenario::CASSETTES_DIR)
        .join(CASSETTES_DIR);
    cassette_in(dir, subject, index, run, via)
}

/// The cassette of query `index`, run `run`, through `via`, in the folder `dir`.
pub(crate) fn cassette_in(
    mut dir: PathBuf,
    subject: &Subject,
    index: usize,
    run: u32,
    via: Option<Via>,
) -> PathBuf {
    if let Some(via) = via {
        dir = dir.join(via.name());
    }
    let query = &subject.triggers.queries[index];
    dir.join(format!(
        "q{:02}-{}.{run}.yaml",
        index + 1,
        slug(&query.prompt)
    ))
}

/// The first words of `prompt`, lower case, hyphenated: enough to tell cassettes apart by eye.
fn slug(prompt: &str) -> String {
    let words: Vec<String> = prompt
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(6)
        .map(str::to_ascii_lowercase)
        .collect();
    if words.is_empty() {
        "query".to_owned()
    } else {
        words.join("-")
    }
}

/// Runs the eval of `subjects` with `distractors` (skill folders; a name already taken by a
/// subject or an earlier distractor is left out) installed beside them.
pub fn run(
    subjects: &[Subject],
    distractors: &[PathBuf],
    options: &Options,
) -> Result<EvalReport, EvalError> {
    let mut names: Vec<String> = subjects.iter().map(|s| s.name.clone()).collect();
    let mut installed: Vec<PathBuf> = subjects.iter().map(|s| s.dir.clone()).collect();
    let mut distractor_names = Vec::new();
    for dir in distractors {
        let name = crate::test::skill_name(dir);
        if !names.contains(&name) {
            names.push(name.clone());
            installed.push(dir.clone());
            distractor_names.push(name);
        }
    }
    let workspace = Workspace::prepare(None, &installed, &[]).map_err(EvalError::Workspace)?;
    let mut skills = Vec::new();
    for subject in subjects {
        let own = subject.triggers.via;
        let queries = run_way(&workspace, subject, own, None, options)?;
        let mut report = skill_report(subject, own, queries);
        if !options.compare.is_empty() {
            report
                .compare
                .push(way_report(&report.skill, own, &report.queries));
            for &via in Via::ALL {
                if via == own || !options.compare.contains(&via) {
                    continue;
                }
                let queries = run_way(&workspace, subject, via, Some(via), options)?;
                report
                    .compare
                    .push(way_report(&report.skill, via, &queries));
            }
        }
        skills.push(report);
    }
    Ok(EvalReport {
        skills,
        distractors: distractor_names,
    })
}

/// Creates the folder a cassette is written in.
fn create_parent(cassette: &Path) -> Result<(), AgentError> {
    let Some(parent) = cassette.parent() else {
        return Ok(());
    };
    std::fs::create_dir_all(parent).map_err(|e| AgentError::Workspace {
        path: parent.to_owned(),
        message: e.to_string(),
    })
}

fn run_way(
    workspace: &Workspace,
    subject: &Subject,
    via: Via,
    folder: Option<Via>,
    options: &Options,
) -> Result<Vec<QueryReport>, EvalError> {
    let way = Way {
        workspace,
        subject,
        via,
        folder,
        options,
    };
    let runs = options.runs.unwrap_or(subject.triggers.runs);
    let mut reports = Vec::new();
    for (index, query) in subject.triggers.queries.iter().enumerate() {
        let mut report = QueryReport::of(query);
        for run in 1..=runs {
            report.runs.push(way.run_once(index, query, run)?);
        }
        reports.push(report);
    }
    Ok(reports)
}

/// One way the skill reaches the model, run on a subject's queries in one workspace; `folder`
/// is the way's cassette folder (none for the skill's own way).
struct Way<'a> {
    workspace: &'a Workspace,
    subject: &'a Subject,
    via: Via,
    folder: Option<Via>,
    options: &'a Options<'a>,
}

impl Way<'_> {
    /// Run `run` (from 1) of the query at `index`.
    fn run_once(&self, index: usize, query: &Query, run: u32) -> Result<RunReport, EvalError> {
        let (subject, options) = (self.subject, self.options);
        let cassette = match &options.cassettes {
            Some(dir) => cassette_in(dir.clone(), subject, index, run, self.folder),
            None => cassette_path(subject, index, run, self.folder),
        };
        let fail = |error: AgentError| EvalError::Run {
            skill: subject.name.clone(),
            file: subject.triggers.path.clone(),
            line: query.line,
            run,
            error: Box::new(error),
        };
        let answers = self.answers(query, cassette, &fail)?;
        let trial = Trial {
            skills: Vec::new(),
            workspace: None,
            files: Vec::new(),
            prompt: query.prompt.clone(),
            max_turns: MAX_TURNS,
            exec_timeout: Duration::from_secs(10),
            answers,
            rerecord: options.rerecord.clone(),
            confinement: options.confinement,
            env: PassEnv::Chosen(Passed::default()),
            loading: Loading::one(self.via, &subject.name),
            stop_at_route: true,
        };
        let transcript = run_in(self.workspace, &trial, &mut |_| {}).map_err(fail)?;
        let first = transcript.skills_read.first().cloned();
        let decided = transcript.stop.is_decision();
        let read = match self.via {
            Via::Summary => first,
            // The body reached the model without a read: it used the skill unless it went
            // to read another one.
            _ if decided => first.or_else(|| Some(subject.name.clone())),
            _ => first,
        };
        Ok(RunReport {
            read,
            stop: transcript.stop,
            decided,
            turns: transcript.turns,
            tokens: transcript.usage.input + transcript.usage.output,
        })
    }

    /// Where a run's replies come from (the script, `cassette`, or the provider), the
    /// cassette's folder made when it is to be written.
    fn answers(
        &self,
        query: &Query,
        cassette: PathBuf,
        fail: &dyn Fn(AgentError) -> EvalError,
    ) -> Result<Answers, EvalError> {
        let options = self.options;
        let http = || (options.http)().map_err(|e| fail(e.into()));
        Ok(match (options.script, options.mode.settle(&cassette)) {
            (Some(script), _) => {
                create_parent(&cassette).map_err(fail)?;
                Answers::Script(script(query, &self.subject.name), cassette)
            }
            (None, Mode::Replay) if !cassette.is_file() => {
                return Err(EvalError::NoCassette {
                    path: cassette,
                    rerecord: options.rerecord.clone(),
                });
            }
            (None, mode) => {
                if matches!(mode, Mode::Record | Mode::Auto) {
                    create_parent(&cassette).map_err(fail)?;
                }
                Answers::for_mode(mode, cassette, http)?
            }
        })
    }
}

fn share((hits, total): (usize, usize)) -> Option<f64> {
    (total > 0).then(|| hits as f64 / total as f64)
}

fn counts(skill: &str, queries: &[QueryReport], should_trigger: bool) -> (usize, usize) {
    let runs = queries
        .iter()
        .filter(|q| q.should_trigger == should_trigger)
        .flat_map(|q| &q.runs)
        .filter(|r| r.decided);
    let mut hits = 0;
    let mut total = 0;
    for run in runs {
        total += 1;
        if run.read.as_deref() == Some(skill) {
            hits += 1;
        }
    }
    (hits, total)
}

fn way_report(skill: &str, via: Via, queries: &[QueryReport]) -> WayReport {
    let recall_runs = counts(skill, queries, true);
    let false_runs = counts(skill, queries, false);
    WayReport {
        via,
        recall: share(recall_runs),
        false_rate: (via == Via::Summary).then(|| share(false_runs)).flatten(),
        recall_runs,
        false_runs,
    }
}

pub(crate) fn skill_report(subject: &Subject, via: Via, queries: Vec<QueryReport>) -> SkillReport {
    let skill = subject.name.clone();
    let way = way_report(&skill, via, &queries);
    let set = &subject.triggers;
    let mut failures = Vec::new();
    if let (Some(min), Some(recall)) = (set.min_recall, way.recall)
        && recall < min
    {
        failures.push(format!(
            "recall {recall:.2} ({} of {} runs) is below min_recall {min:.2}",
            way.recall_runs.0, way.recall_runs.1
        ));
    }
    if let (Some(max), Some(rate)) = (set.max_false_rate, way.false_rate)
        && rate > max
    {
        failures.push(format!(
            "false rate {rate:.2} ({} of {} runs) is above max_false_rate {max:.2}",
            way.false_runs.0, way.false_runs.1
        ));
    }
    let mut stolen: BTreeMap<String, usize> = BTreeMap::new();
    for run in queries
        .iter()
        .filter(|q| q.should_trigger)
        .flat_map(|q| &q.runs)
    {
        if let Some(other) = run.read.as_ref().filter(|r| **r != skill) {
            *stolen.entry(other.clone()).or_default() += 1;
        }
    }
    let mut stolen_by: Vec<Steal> = stolen
        .into_iter()
        .map(|(skill, runs)| Steal { skill, runs })
        .collect();
    stolen_by.sort_by(|a, b| b.runs.cmp(&a.runs).then_with(|| a.skill.cmp(&b.skill)));
    SkillReport {
        skill,
        file: set.path.clone(),
        via,
        recall: way.recall,
        false_rate: way.false_rate,
        recall_runs: way.recall_runs,
        false_runs: way.false_runs,
        min_recall: set.min_recall,
        max_false_rate: set.max_false_rate,
        passed: failures.is_empty(),
        failures,
        queries,
        stolen_by,
        compare: Vec::new(),
    }
}

/// The folders of the skills under `roots` (each a folder of skills, highest precedence
/// first), by name, the first of a name winning.
pub fn skills_of_roots(roots: &[skill_model::catalog::Root]) -> Vec<PathBuf> {
    let catalog = skill_model::catalog::Catalog::load(roots.to_vec());
    catalog
        .skills
        .iter()
        .map(|entry| entry.skill.dir.clone())
        .collect()
}
