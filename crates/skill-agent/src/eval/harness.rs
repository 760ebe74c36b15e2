//! `skill eval --harness`: the trigger eval through a real agent CLI. Each query and run is one
//! headless session of the agent (see [`crate::agent_cli::session`]) with the skills under test
//! and the distractors installed where it reads them; the proxy records the session to a
//! cassette under `evals/cassettes/harness/<harness>/`, or replays it without a connection,
//! and answers "Done." once the agent has picked, so a run costs one model turn. The skill a
//! run picked is the first one the agent loaded through its skill tool or whose SKILL.md it
//! read.

use super::{EvalError, QueryReport, RunReport, SkillReport, Subject, skill_report};
use crate::Stop;
use crate::agent_cli::proxy::{self, Cassette, Endpoint, Source};
use crate::agent_cli::session::{self, Outcome, SessionError};
use crate::agent_cli::{Harness, Purpose};
use crate::cassette::Mode;
use skill_model::agents::AgentCatalog;
use skill_model::catalog::agent_roots;
use skill_model::environment::SystemEnvironment;
use skill_prompt::doctor::{self, State};
use skill_prompt::via::Via;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The folder of harness cassettes inside `evals/cassettes/`.
pub(crate) const CASSETTES_DIR: &str = "harness";

/// How to run an eval through a harness.
pub struct HarnessOptions {
    /// The agent.
    pub harness: Harness,
    /// How the cassettes are used.
    pub mode: Mode,
    /// Runs per query instead of the trigger sets' `runs`.
    pub runs: Option<u32>,
    /// The model the agent asks for (the harness's default when unset).
    pub model: Option<String>,
    /// The provider's base URL instead of its variable's or its own.
    pub base_url: Option<String>,
    /// The longest one session may take.
    pub timeout: Duration,
    /// The command that records the cassettes again, for errors.
    pub rerecord: String,
    /// How an agent replaying a cassette is confined.
    pub replay_confinement: crate::tools::Confinement,
}

/// The eval of every subject through one harness.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct HarnessReport {
    /// The agent.
    pub harness: Harness,
    /// Its installed version.
    pub agent_version: Option<String>,
    /// The versions the replayed cassettes were recorded with, when any differs from the
    /// installed one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub recorded_with: Vec<String>,
    /// Skills the agent's listing budget shortens or leaves out, as `skill doctor` judges
    /// this set of skills for the agent.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub listing: Vec<ListingEffect>,
    /// Every skill under test.
    pub skills: Vec<SkillReport>,
}

/// A skill the listing budget touches.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ListingEffect {
    /// The skill.
    pub name: String,
    /// `cut` (collapsed: its description shortened or gone) or `cut-out` (not listed).
    pub state: State,
    /// Which step of the agent's budget did it.
    pub why: String,
}

/// Why a harness run failed, beyond what every eval can.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// The agent could not be run.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// A cassette could not be read or written.
    #[error(transparent)]
    Cassette(#[from] proxy::ProxyCassetteError),
    /// The agent sent a request the cassette does not hold.
    #[error(
        "{cassette}: {mismatch}\nThe agent's requests changed since the recording; record again with: {rerecord}"
    )]
    Mismatch {
        /// The cassette.
        cassette: PathBuf,
        /// The first request it lacked, as a diff.
        mismatch: String,
        /// The command that records.
        rerecord: String,
    },
    /// The agent failed, or ended without asking the model anything.
    #[error(
        "{harness} ended (exit {exit}) without an answer of the model's to record or replay:\n{output}"
    )]
    Silent {
        /// The agent.
        harness: Harness,
        /// Its exit code, or `killed`.
        exit: String,
        /// The last lines of what it printed.
        output: String,
    },
    /// The provider could not be reached.
    #[error("{harness}: {message}")]
    Upstream {
        /// The agent.
        harness: Harness,
        /// What failed.
        message: String,
    },
}

/// The cassette of query `index` (from 0), run `run`, through `harness`.
pub fn cassette_path(subject: &Subject, harness: Harness, index: usize, run: u32) -> PathBuf {
    let dir = subject
        .dir
        .join(crate::test::scenario::EVALS_DIR)
        .join(crate::test::scenario::CASSETTES_DIR)
        .join(CASSETTES_DIR)
        .join(harness.name());
    super::cassette_in(dir, subject, index, run, None)
}

/// Runs the eval of `subjects`, with `distractors` installed beside them, through one harness.
pub fn run(
    subjects: &[Subject],
    distractors: &[PathBuf],
    options: &HarnessOptions,
) -> Result<HarnessReport, EvalError> {
    let program = session::locate(options.harness)
        .map_err(|e| EvalError::HarnessSetup(Box::new(e.into())))?;
    let version = session::version(&program);
    let mut installed: Vec<PathBuf> = subjects.iter().map(|s| s.dir.clone()).collect();
    let mut names: Vec<String> = subjects.iter().map(|s| s.name.clone()).collect();
    for dir in distractors {
        let name = crate::test::skill_name(dir);
        if !names.contains(&name) {
            names.push(name);
            installed.push(dir.clone());
        }
    }
    let context = Context {
        options,
        program: &program,
        version: version.as_deref(),
        skills: &installed,
    };
    let mut recorded_with = BTreeSet::new();
    let mut skills = Vec::new();
    for subject in subjects {
        let queries = run_subject(&context, subject, &mut recorded_with)?;
        skills.push(skill_report(subject, Via::Summary, queries));
    }
    recorded_with.retain(|v| Some(v) != version.as_ref());
    Ok(HarnessReport {
        harness: options.harness,
        agent_version: version,
        recorded_with: recorded_with.into_iter().collect(),
        listing: listing_effects(options.harness, &installed)?,
        skills,
    })
}

/// What the agent's budget does to the listing of `skills` installed as a session installs
/// them.
fn listing_effects(harness: Harness, skills: &[PathBuf]) -> Result<Vec<ListingEffect>, EvalError> {
    let setup = |e: SessionError| EvalError::HarnessSetup(Box::new(e.into()));
    let io = |path: &Path, e: std::io::Error| {
        setup(SessionError::Io {
            path: path.to_owned(),
            message: e.to_string(),
        })
    };
    let temp = tempfile::tempdir().map_err(|e| io(&std::env::temp_dir(), e))?;
    let (home, project) = (temp.path().join("home"), temp.path().join("project"));
    for dir in [home.clone(), project.join(".git")] {
        std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
    }
    session::install(&project.join(harness.skills_dir()), skills).map_err(setup)?;
    let agent = harness.agent();
    let env = SystemEnvironment::default();
    let catalog = AgentCatalog::load(agent, agent_roots(agent, &home, &project, &env), &env);
    let report = doctor::judge(&catalog, &env, Some(&home), None, None);
    Ok(report
        .rows
        .into_iter()
        .filter(|row| matches!(row.state, State::Cut | State::CutOut))
        .map(|row| ListingEffect {
            name: row.name,
            state: row.state,
            why: row.why,
        })
        .collect())
}

struct Context<'a> {
    options: &'a HarnessOptions,
    program: &'a Path,
    version: Option<&'a str>,
    skills: &'a [PathBuf],
}

fn run_subject(
    context: &Context,
    subject: &Subject,
    recorded_with: &mut BTreeSet<String>,
) -> Result<Vec<QueryReport>, EvalError> {
    let runs = context.options.runs.unwrap_or(subject.triggers.runs);
    let mut reports = Vec::new();
    for (index, query) in subject.triggers.queries.iter().enumerate() {
        let mut report = QueryReport::of(query);
        for run in 1..=runs {
            report
                .runs
                .push(run_once(context, subject, (index, run), recorded_with)?);
        }
        reports.push(report);
    }
    Ok(reports)
}

/// Query `index`'s run `run`: one session, from its cassette or recorded into it.
fn run_once(
    context: &Context,
    subject: &Subject,
    (index, run): (usize, u32),
    recorded_with: &mut BTreeSet<String>,
) -> Result<RunReport, EvalError> {
    let options = context.options;
    let query = &subject.triggers.queries[index];
    let cassette = cassette_path(subject, options.harness, index, run);
    let fail = |error: HarnessError| EvalError::Harness {
        skill: subject.name.clone(),
        file: subject.triggers.path.clone(),
        line: query.line,
        run,
        error: Box::new(error),
    };
    let mode = options.mode.settle(&cassette);
    let source = source(
        mode,
        &cassette,
        options.harness,
        options.base_url.as_deref(),
    )
    .map_err(fail)?
    .ok_or_else(|| EvalError::NoCassette {
        path: cassette.clone(),
        rerecord: options.rerecord.clone(),
    })?;
    let replaying = matches!(source, Source::Replay(_));
    if let Source::Replay(recorded) = &source {
        recorded_with.extend(recorded.agent_version.clone());
    }
    let outcome = session::run(session::Request {
        harness: options.harness,
        program: context.program,
        version: context.version,
        skills: context.skills,
        prompt: &query.prompt,
        model: options
            .model
            .as_deref()
            .unwrap_or(options.harness.default_model()),
        source,
        purpose: Purpose::Choose,
        timeout: options.timeout,
        keep: false,
        confinement: replaying.then_some(options.replay_confinement),
    })
    .map_err(|e| fail(e.into()))?;
    check_ran(&outcome, &cassette, options).map_err(fail)?;
    if matches!(mode, Mode::Record | Mode::Auto) {
        save(&outcome, &cassette, (options.harness, context.version)).map_err(fail)?;
    }
    Ok(run_report(&outcome))
}

/// An error when the session went off its cassette, or the agent failed without timing out.
fn check_ran(
    outcome: &Outcome,
    cassette: &Path,
    options: &HarnessOptions,
) -> Result<(), HarnessError> {
    check(outcome, cassette, options.harness, &options.rerecord)?;
    if !outcome.timed_out && outcome.exit != Some(0) {
        return Err(HarnessError::Silent {
            harness: options.harness,
            exit: exit_of(outcome),
            output: last_lines(outcome),
        });
    }
    Ok(())
}

/// Writes what `outcome` recorded to `cassette`; a session that asked the model nothing
/// recorded nothing worth replacing a cassette with.
pub fn save(
    outcome: &Outcome,
    cassette: &Path,
    (harness, version): (Harness, Option<&str>),
) -> Result<(), HarnessError> {
    let recording = outcome.recording(harness, version);
    if recording.exchanges.is_empty() {
        return Err(HarnessError::Silent {
            harness,
            exit: exit_of(outcome),
            output: last_lines(outcome),
        });
    }
    Ok(recording.save(cassette)?)
}

fn exit_of(outcome: &Outcome) -> String {
    outcome
        .exit
        .map_or_else(|| "killed".to_owned(), |code| code.to_string())
}

/// The last 20 lines the agent printed, without control characters (a replayed answer may
/// hold terminal escapes).
pub(crate) fn last_lines(outcome: &Outcome) -> String {
    let printed = format!(
        "{}\n{}",
        outcome.stdout.trim_end(),
        outcome.stderr.trim_end()
    );
    let clean: String = printed
        .chars()
        .filter(|c| *c == '\n' || !c.is_control())
        .collect();
    let lines: Vec<&str> = clean.trim().lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

/// Where a session's answers come from in `mode`: the cassette (`None` when a replay has none),
/// or the provider of `harness`'s family.
pub(crate) fn source(
    mode: Mode,
    cassette: &Path,
    harness: Harness,
    base_url: Option<&str>,
) -> Result<Option<Source>, HarnessError> {
    Ok(Some(match mode {
        Mode::Replay if !cassette.is_file() => return Ok(None),
        Mode::Replay => Source::Replay(Cassette::load(cassette)?),
        _ => Source::Forward {
            endpoint: Endpoint::resolve(harness.family(), base_url).map_err(SessionError::from)?,
            record: mode != Mode::Live,
        },
    }))
}

/// Refuses a session the proxy could not answer faithfully.
pub(crate) fn check(
    outcome: &Outcome,
    cassette: &Path,
    harness: Harness,
    rerecord: &str,
) -> Result<(), HarnessError> {
    if let Some(mismatch) = outcome.proxy.mismatches.first() {
        return Err(HarnessError::Mismatch {
            cassette: cassette.to_owned(),
            mismatch: mismatch.clone(),
            rerecord: rerecord.to_owned(),
        });
    }
    if outcome.proxy.requests.is_empty() && !outcome.timed_out {
        return Err(HarnessError::Silent {
            harness,
            exit: exit_of(outcome),
            output: last_lines(outcome),
        });
    }
    if let Some(message) = outcome.proxy.errors.first() {
        return Err(HarnessError::Upstream {
            harness,
            message: message.clone(),
        });
    }
    Ok(())
}

fn run_report(outcome: &Outcome) -> RunReport {
    let calls = session::calls(&outcome.proxy);
    let read = calls
        .iter()
        .find_map(|call| session::skill_of(call, &outcome.skills));
    let asked = !outcome.proxy.requests.is_empty();
    let decided = asked && !outcome.timed_out;
    let stop = if !decided {
        Stop::Error
    } else if calls.is_empty() {
        Stop::Answer
    } else {
        Stop::Routed
    };
    RunReport {
        read,
        stop,
        decided,
        turns: outcome.proxy.requests.len(),
        tokens: 0,
    }
}
