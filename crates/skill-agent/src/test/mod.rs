//! `skill test`: runs each skill's scenarios (`evals/*.yaml`) through the agent loop, offline
//! from their cassettes by default, and checks the expectations.

pub mod expect;
pub mod junit;
pub mod scenario;
pub mod starter;

use crate::cassette::Mode;
use crate::provider::{HttpConfig, ModelError};
use crate::tools::{Confinement, Passed};
use crate::r#try::{Answers, PassEnv, Trial, run_trial, shell_path};
use crate::{DEFAULT_MAX_TURNS, Stop};
use scenario::Scenario;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The name a skill is installed under (its folder name), as the installer names it.
pub use skill_archive::pack::archive_name as skill_name;

/// How one scenario went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every expectation held.
    Passed,
    /// These expectations did not hold.
    Failed(Vec<String>),
    /// The scenario could not run (bad file, cassette mismatch, provider error...).
    Error(String),
}

/// One scenario's result.
#[derive(Debug, Clone)]
pub struct Report {
    /// The skill's folder name.
    pub skill: String,
    /// The scenario's name (its file stem).
    pub scenario: String,
    /// The scenario file.
    pub file: PathBuf,
    /// How it went.
    pub outcome: Outcome,
    /// Model turns taken.
    pub turns: usize,
    /// Why the run stopped, when it ran.
    pub stop: Option<Stop>,
    /// Wall time.
    pub elapsed: Duration,
}

/// Runs the scenario in `file` for the skill in `skill_dir`. `http` configures the provider
/// when the mode calls one; it is never called in replay. Commands run under the test policy
/// as `confinement` says, with the network only if the scenario allows it, and get the
/// variables named in `pass_env` (`--pass-env`) and the scenario's `env`, nothing the skill
/// declares by itself.
pub fn run_scenario(
    skill_dir: &Path,
    file: &Path,
    mode: Mode,
    http: &dyn Fn() -> Result<HttpConfig, ModelError>,
    confinement: Confinement,
    pass_env: &[String],
) -> Report {
    let started = Instant::now();
    let skill = skill_name(skill_dir);
    let scenario_name = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut report = Report {
        skill: skill.clone(),
        scenario: scenario_name,
        file: file.to_owned(),
        outcome: Outcome::Passed,
        turns: 0,
        stop: None,
        elapsed: Duration::ZERO,
    };
    report.outcome = match attempt(skill_dir, &skill, file, mode, http, confinement, pass_env) {
        Ok((outcome, turns, stop)) => {
            report.turns = turns;
            report.stop = Some(stop);
            outcome
        }
        Err(e) => Outcome::Error(e.to_string()),
    };
    report.elapsed = started.elapsed();
    report
}

/// Why a scenario could not run.
#[derive(Debug, thiserror::Error)]
enum AttemptError {
    #[error(transparent)]
    Scenario(#[from] scenario::ScenarioError),
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error(transparent)]
    Agent(#[from] crate::AgentError),
    /// An expectation that cannot be checked (a pattern that does not compile, a file that
    /// cannot be read).
    #[error("{0}")]
    Expectation(String),
}

fn attempt(
    skill_dir: &Path,
    skill: &str,
    file: &Path,
    mode: Mode,
    http: &dyn Fn() -> Result<HttpConfig, ModelError>,
    confinement: Confinement,
    pass_env: &[String],
) -> Result<(Outcome, usize, Stop), AttemptError> {
    let scenario = Scenario::load(file)?;
    let cassette = scenario.cassette_path(file);
    let answers = Answers::for_mode(mode.settle(&cassette), cassette, http)?;
    let trial = Trial {
        skills: vec![skill_dir.to_owned()],
        workspace: None,
        files: scenario.files.clone().into_iter().collect(),
        prompt: scenario.prompt.clone(),
        max_turns: scenario.expect.max_turns.unwrap_or(DEFAULT_MAX_TURNS),
        exec_timeout: crate::tools::DEFAULT_EXEC_TIMEOUT,
        answers,
        rerecord: format!("skill test {} --mode record", shell_path(skill_dir)),
        confinement: confinement.with_network(scenario.network),
        env: PassEnv::Chosen(Passed {
            names: pass_env.to_vec(),
            values: scenario.env.clone().into_iter().collect(),
        }),
        loading: crate::r#try::Loading::one(scenario.via, skill),
        stop_at_route: false,
    };
    let (workspace, transcript) = run_trial(&trial, &mut |_| {})?;
    let failures = expect::check(&scenario.expect, &transcript, workspace.root(), skill)
        .map_err(AttemptError::Expectation)?;
    let outcome = if failures.is_empty() {
        Outcome::Passed
    } else {
        Outcome::Failed(failures)
    };
    Ok((outcome, transcript.turns, transcript.stop))
}
