//! `skill eval --impact`: does the skill help? Each eval of `evals/evals.json` runs through the
//! agent loop of `skill try` with the skill installed and without it (or with an earlier
//! version), each run in a fresh workspace holding the eval's input files; every expectation is
//! graded with evidence; the results go into the spec's workspace layout
//! (`<skill>-workspace/iteration-N/eval-<id>/<config>/{outputs/,timing.json,grading.json}` and
//! `benchmark.json`). Every model exchange, the grader's included, has its cassette under
//! `evals/cassettes/impact/`, so an impact eval replays offline.

pub mod baseline;
pub mod blind;
pub mod evals_file;
pub mod grade;
pub mod html;
pub mod outputs;
pub mod real_agent;
pub mod report;
pub mod starter;
pub mod stats;

use crate::cassette::{Mode, Normaliser};
use crate::message::{Message, Request, Stop};
use crate::provider::{HttpConfig, ModelError};
use crate::tools::{Confinement, Passed};
use crate::r#try::{Answers, Loading, PassEnv, Trial, model_for, run_in};
use crate::{AgentError, Workspace};
pub use evals_file::{EVALS_FILE, Eval, EvalsFile, EvalsFileError};
use grade::{Graded, Grading};
use outputs::Outputs;
pub use report::{ConfigReport, EvalReport, ImpactReport, RunReport};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The folder of impact cassettes inside `evals/cassettes/`.
pub(crate) const CASSETTES_DIR: &str = "impact";
/// Runs per eval and configuration when none is asked for: enough for a spread.
pub const DEFAULT_RUNS: u32 = 3;
/// Timeout of a run's commands that name none.
const EXEC_TIMEOUT: Duration = Duration::from_secs(60);

skill_model::choices! {
    /// A configuration an eval runs in.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Config {
        WithSkill = "with_skill": "The skill under test installed.",
        WithoutSkill = "without_skill": "No skill installed: the baseline by default.",
        OldSkill = "old_skill": "An earlier version of the skill installed (--baseline).",
    }
}

/// A skill under test.
#[derive(Debug, Clone)]
pub struct Subject {
    /// The skill folder.
    pub dir: PathBuf,
    /// The name it is installed under.
    pub name: String,
    /// Its checked evals file.
    pub evals: EvalsFile,
}

/// Why an impact eval could not run.
#[derive(Debug, thiserror::Error)]
pub enum ImpactError {
    /// An evals file is wrong.
    #[error(transparent)]
    Evals(#[from] EvalsFileError),
    /// A skill folder has no evals file.
    #[error("{0}: no evals/evals.json")]
    NoEvals(PathBuf),
    /// The baseline could not be prepared.
    #[error(transparent)]
    Baseline(#[from] baseline::BaselineError),
    /// A replay found no cassette.
    #[error("{path}: no cassette for this eval and run\nRecord them with: {rerecord}")]
    NoCassette {
        /// The cassette it looked for.
        path: PathBuf,
        /// The command that records.
        rerecord: String,
    },
    /// A run failed.
    #[error("{skill}: eval {id} ({config}), run {run}: {error}")]
    Run {
        /// The skill under test.
        skill: String,
        /// The eval's id.
        id: String,
        /// The configuration.
        config: Config,
        /// The run (from 1).
        run: u32,
        /// What failed.
        error: Box<AgentError>,
    },
    /// A run through a real agent CLI failed.
    #[error("{skill}: eval {id} ({config}), run {run}: {error}")]
    Harness {
        /// The skill under test.
        skill: String,
        /// The eval's id.
        id: String,
        /// The configuration.
        config: Config,
        /// The run (from 1).
        run: u32,
        /// What failed.
        error: Box<crate::eval::harness::HarnessError>,
    },
    /// The results could not be written.
    #[error("{path}: {source}")]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The results page could not be rendered.
    #[error("{path}: {source}")]
    Page {
        /// The page.
        path: PathBuf,
        /// The template's error.
        #[source]
        source: minijinja::Error,
    },
    /// A starter was asked for where the evals file holds evals the author wrote, which a
    /// scripted model cannot answer.
    #[error("{path}: holds evals you wrote; a scripted model cannot stand in for them")]
    AuthoredEvals {
        /// The evals file.
        path: PathBuf,
        /// The skill folder.
        skill: PathBuf,
    },
    /// The iterations folder would be inside the skill folder, which every with-skill run
    /// installs, expectations and all.
    #[error("{target}: is inside the skill folder {skill}, which every with-skill run installs")]
    InsideSkill {
        /// Where the iterations would go.
        target: PathBuf,
        /// The skill folder.
        skill: PathBuf,
    },
}

/// How to run an impact eval.
pub struct Options<'a> {
    /// How the cassettes are used.
    pub mode: Mode,
    /// Runs per eval and configuration.
    pub runs: u32,
    /// The earlier version to compare with (`old_skill`); without one, no skill.
    pub baseline: Option<&'a Path>,
    /// The provider, when the mode calls one (never in replay).
    pub http: &'a dyn Fn() -> Result<HttpConfig, ModelError>,
    /// The command that records the cassettes again, for errors.
    pub rerecord: String,
    /// How the runs' commands are confined.
    pub confinement: Confinement,
    /// Most model turns of a run.
    pub max_turns: usize,
    /// The folder iterations are written in; `<skill>-workspace` beside the skill when `None`.
    pub workspace: Option<PathBuf>,
    /// The least pass-rate delta the gate accepts.
    pub min_delta: Option<f64>,
    /// Also compare each with-skill run blind with the baseline run of the same number.
    pub blind: bool,
    /// Record from these scripted replies (eval, configuration, skill) instead of a provider
    /// (starters).
    pub script: Option<&'a Script>,
    /// Run the evals through this real agent CLI instead of skill's own loop.
    pub agent: Option<&'a real_agent::RealAgent>,
}

/// Scripted replies for a run of an eval in a configuration, for a skill (starter recordings).
pub type Script = dyn Fn(&Eval, Config, &str) -> Vec<crate::message::Reply>;

/// The subjects of `dirs`, every evals file read and checked before anything runs.
pub fn load_subjects(dirs: &[PathBuf]) -> Result<Vec<Subject>, ImpactError> {
    dirs.iter()
        .map(|dir| {
            if !dir.join(EVALS_FILE).is_file() {
                return Err(ImpactError::NoEvals(dir.clone()));
            }
            Ok(Subject {
                dir: dir.clone(),
                name: crate::test::skill_name(dir),
                evals: EvalsFile::load(dir)?,
            })
        })
        .collect()
}

/// Runs `subject`'s evals in both configurations, writes the iteration and returns its report.
pub fn run(subject: &Subject, options: &Options) -> Result<ImpactReport, ImpactError> {
    let target = iterations_folder(subject, options)?;
    let baseline_config = if options.baseline.is_some() {
        Config::OldSkill
    } else {
        Config::WithoutSkill
    };
    let mut evals = Vec::new();
    for eval in &subject.evals.evals {
        let mut configs = Vec::new();
        for config in [Config::WithSkill, baseline_config] {
            let skill = match config {
                Config::WithSkill => Some(subject.dir.as_path()),
                Config::OldSkill => options.baseline,
                Config::WithoutSkill => None,
            };
            let runs = (1..=options.runs)
                .map(|run| match options.agent {
                    Some(agent) => {
                        real_agent::run_one(subject, eval, (config, skill), run, options, agent)
                    }
                    None => run_one(subject, eval, config, skill, run, options),
                })
                .collect::<Result<Vec<_>, _>>()?;
            configs.push(ConfigReport::of(config, runs));
        }
        let comparisons = if options.blind {
            compare(subject, eval, &configs, options)?
        } else {
            Vec::new()
        };
        evals.push(EvalReport::of(eval, configs, comparisons));
    }
    let mut report = ImpactReport::of(subject, baseline_config, options, evals);
    report::write_iteration(&target, &mut report)?;
    Ok(report)
}

/// Where `subject`'s iterations go: `--workspace`, else `<skill>-workspace` beside the skill
/// folder; never inside it, where the next run would install the results (expectations and
/// all) with the skill.
fn iterations_folder(subject: &Subject, options: &Options) -> Result<PathBuf, ImpactError> {
    let fail = |path: &Path, source: std::io::Error| ImpactError::Write {
        path: path.to_owned(),
        source,
    };
    let skill = std::fs::canonicalize(&subject.dir).map_err(|e| fail(&subject.dir, e))?;
    let beside = format!("{}-workspace", subject.name);
    let target = match (&options.workspace, subject.dir.file_name()) {
        (Some(dir), _) => dir.clone(),
        (None, Some(_)) => subject.dir.parent().unwrap_or(Path::new("")).join(beside),
        // `.` or `..`: the folder's own name is known only from its real path.
        (None, None) => skill.parent().unwrap_or(&skill).join(beside),
    };
    let mut existing = std::path::absolute(&target).map_err(|e| fail(&target, e))?;
    while !existing.exists() {
        if !existing.pop() {
            break;
        }
    }
    let resolved = std::fs::canonicalize(&existing).unwrap_or(existing);
    if resolved.starts_with(&skill) {
        return Err(ImpactError::InsideSkill {
            target,
            skill: subject.dir.clone(),
        });
    }
    Ok(target)
}

/// The cassette of `eval`'s run `run` in `config`; `suffix` tells the grader's apart.
pub fn cassette_path(
    subject: &Subject,
    eval: &Eval,
    config: Config,
    run: u32,
    suffix: &str,
) -> PathBuf {
    cassettes_of(subject, eval).join(format!("{}.{run}{suffix}.yaml", config.name()))
}

/// The folder of `eval`'s cassettes.
fn cassettes_of(subject: &Subject, eval: &Eval) -> PathBuf {
    subject
        .dir
        .join(crate::test::scenario::EVALS_DIR)
        .join(crate::test::scenario::CASSETTES_DIR)
        .join(CASSETTES_DIR)
        .join(eval.folder())
}

/// The blind comparisons of `eval`'s runs: the skill's run K against the baseline's run K.
fn compare(
    subject: &Subject,
    eval: &Eval,
    configs: &[ConfigReport],
    options: &Options,
) -> Result<Vec<blind::Comparison>, ImpactError> {
    let (with, base) = (&configs[0], &configs[1]);
    let mut comparisons = Vec::new();
    for (ours, theirs) in with.runs.iter().zip(&base.runs) {
        let (first, second) = if blind::skill_first(&eval.id, ours.run) {
            ((with.config, ours), (base.config, theirs))
        } else {
            ((base.config, theirs), (with.config, ours))
        };
        // Named by the baseline too: a judgement against no skill is not one against an
        // earlier version.
        let cassette = cassettes_of(subject, eval).join(format!(
            "blind.{}.{}.yaml",
            base.config.name(),
            ours.run
        ));
        let user = blind::request(
            &eval.task(),
            &eval.expected_output,
            &first.1.outputs,
            &second.1.outputs,
        );
        let roots = [first.1.workspace.as_path(), second.1.workspace.as_path()];
        let fresh = ours.recorded || theirs.recorded;
        let reply = ask(blind::RUBRIC, user, &roots, (&cassette, fresh), options).map_err(|e| {
            e.into_run(&|error| ImpactError::Run {
                skill: subject.name.clone(),
                id: eval.id.clone(),
                config: with.config,
                run: ours.run,
                error: Box::new(error),
            })
        })?;
        comparisons.push(blind::read(&reply, ours.run, first.0, second.0));
    }
    Ok(comparisons)
}

fn run_one(
    subject: &Subject,
    eval: &Eval,
    config: Config,
    skill: Option<&Path>,
    run: u32,
    options: &Options,
) -> Result<RunReport, ImpactError> {
    let fail = |error: AgentError| ImpactError::Run {
        skill: subject.name.clone(),
        id: eval.id.clone(),
        config,
        run,
        error: Box::new(error),
    };
    let skills: Vec<PathBuf> = skill.into_iter().map(Path::to_owned).collect();
    let workspace = Workspace::prepare(None, &skills, &[]).map_err(fail)?;
    copy_inputs(&subject.dir, eval, workspace.root()).map_err(fail)?;
    let before = outputs::snapshot(workspace.root());
    let cassette = cassette_path(subject, eval, config, run, "");
    // A scripted recording's time measures nothing worth keeping.
    let settled = match options.script {
        Some(_) => Mode::Live,
        None => options.mode.settle(&cassette),
    };
    let trial = run_trial_of(subject, eval, config, &cassette, options, &fail)?;
    let transcript = run_in(&workspace, &trial, &mut |_| {}).map_err(fail)?;
    let (files, left_out) = outputs::produced(&before.0, outputs::snapshot(workspace.root()));
    let outputs = Outputs {
        answer: transcript.final_answer.clone().unwrap_or_default(),
        files,
        left_out,
    };
    let grader = cassette_path(subject, eval, config, run, ".grade");
    let fresh = settled != Mode::Replay;
    let grading = grade(eval, &outputs, workspace.root(), (&grader, fresh), options)
        .map_err(|e| e.into_run(&fail))?;
    let duration_ms = run_duration(&cassette, settled, transcript.elapsed_ms)?;
    Ok(RunReport {
        run,
        stop: transcript.stop,
        turns: transcript.turns,
        total_tokens: transcript.usage.input + transcript.usage.output,
        duration_ms,
        skills_read: transcript.skills_read.clone(),
        grading,
        outputs,
        transcript,
        workspace: workspace.root().to_owned(),
        recorded: fresh,
    })
}

/// The trial of one run of `eval` under `config`, its replies from the script or `cassette`.
fn run_trial_of(
    subject: &Subject,
    eval: &Eval,
    config: Config,
    cassette: &Path,
    options: &Options,
    fail: &dyn Fn(AgentError) -> ImpactError,
) -> Result<Trial, ImpactError> {
    Ok(Trial {
        skills: Vec::new(),
        workspace: None,
        files: Vec::new(),
        prompt: eval.task(),
        max_turns: options.max_turns,
        exec_timeout: EXEC_TIMEOUT,
        answers: match options.script {
            Some(script) => {
                create_parent(cassette).map_err(|e| e.into_run(fail))?;
                Answers::Script(script(eval, config, &subject.name), cassette.to_owned())
            }
            None => answers(cassette, options, false).map_err(|e| e.into_run(fail))?,
        },
        rerecord: options.rerecord.clone(),
        confinement: options.confinement,
        env: PassEnv::Chosen(Passed::default()),
        loading: Loading::default(),
        stop_at_route: false,
    })
}

/// The run's duration in milliseconds: measured now, or the recorded one on a replay.
fn run_duration(cassette: &Path, settled: Mode, elapsed_ms: u64) -> Result<u64, ImpactError> {
    report::duration(cassette, settled, elapsed_ms).map_err(|source| ImpactError::Write {
        path: cassette.to_owned(),
        source,
    })
}

/// A failure before the run could be named: a missing cassette, or the model.
enum Early {
    NoCassette(ImpactError),
    Agent(AgentError),
}

impl Early {
    fn into_run(self, fail: &dyn Fn(AgentError) -> ImpactError) -> ImpactError {
        match self {
            Early::NoCassette(error) => error,
            Early::Agent(error) => fail(error),
        }
    }
}

/// The answers for `cassette`; `fresh` when what it answers about was just recorded, so that
/// `--mode auto` records it again instead of replaying an exchange about an older run.
fn answers(cassette: &Path, options: &Options, fresh: bool) -> Result<Answers, Early> {
    let mode = match (fresh, options.mode) {
        (true, Mode::Auto) => Mode::Record,
        (_, mode) => mode.settle(cassette),
    };
    if mode == Mode::Replay && !cassette.is_file() {
        return Err(Early::NoCassette(ImpactError::NoCassette {
            path: cassette.to_owned(),
            rerecord: options.rerecord.clone(),
        }));
    }
    if matches!(mode, Mode::Record | Mode::Auto) {
        create_parent(cassette)?;
    }
    Answers::for_mode(mode, cassette.to_owned(), || (options.http)())
        .map_err(|e| Early::Agent(e.into()))
}

fn create_parent(cassette: &Path) -> Result<(), Early> {
    let Some(parent) = cassette.parent() else {
        return Ok(());
    };
    std::fs::create_dir_all(parent).map_err(|e| {
        Early::Agent(AgentError::Workspace {
            path: parent.to_owned(),
            message: e.to_string(),
        })
    })
}

/// Copies `eval`'s input files from the skill folder into the workspace, at the same paths.
fn copy_inputs(skill_dir: &Path, eval: &Eval, root: &Path) -> Result<(), AgentError> {
    for file in &eval.files {
        let target = root.join(file);
        let fail = |e: std::io::Error| AgentError::Workspace {
            path: target.clone(),
            message: e.to_string(),
        };
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(fail)?;
        }
        std::fs::copy(skill_dir.join(file), &target).map_err(fail)?;
    }
    Ok(())
}

/// Grades every expectation of `eval`: by code where it can, the rest in one grader call.
fn grade(
    eval: &Eval,
    outputs: &Outputs,
    root: &Path,
    (cassette, fresh): (&Path, bool),
    options: &Options,
) -> Result<Grading, Early> {
    let tools = crate::tools::ToolBox::new(root.to_owned(), EXEC_TIMEOUT)
        .confined(options.confinement, Passed::default());
    let run = |command: &str| {
        let output = tools.run(&crate::message::ToolCall {
            id: "grade".to_owned(),
            name: "exec".to_owned(),
            arguments: serde_json::json!({ "command": command }).to_string(),
        });
        let failed = output.is_error
            || output.content.contains("\nExit code: ")
            || output.content.contains("\nKilled by a signal");
        (!failed, output.content)
    };
    let mut graded: Vec<Option<Graded>> = eval
        .expectations
        .iter()
        .map(|e| grade::grade_by_code(e, outputs, &run))
        .collect();
    let for_model: Vec<&str> = eval
        .expectations
        .iter()
        .zip(&graded)
        .filter(|(_, g)| g.is_none())
        .map(|(e, _)| e.as_str())
        .collect();
    if !for_model.is_empty() {
        let user = grade::grader_request(&eval.task(), &eval.expected_output, &for_model, outputs);
        let reply = ask(grade::RUBRIC, user, &[root], (cassette, fresh), options)?;
        let mut verdicts = grade::read_verdicts(&reply, &for_model, outputs).into_iter();
        for slot in graded.iter_mut().filter(|g| g.is_none()) {
            *slot = verdicts.next();
        }
    }
    Ok(Grading::of(graded.into_iter().flatten().collect()))
}

/// One exchange with the model (the grader or the judge), through its cassette. `roots` are
/// the workspaces whose paths the outputs may name, normalised like a run's.
fn ask(
    system: &str,
    user: String,
    roots: &[&Path],
    (cassette, fresh): (&Path, bool),
    options: &Options,
) -> Result<String, Early> {
    let answers = answers(cassette, options, fresh)?;
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut normaliser = Normaliser::new(roots[0], home.as_deref());
    for root in &roots[1..] {
        normaliser = normaliser.with_path(root, "{workspace}");
    }
    let mut model =
        model_for(&answers, normaliser, &options.rerecord).map_err(|e| Early::Agent(e.into()))?;
    let request = Request {
        messages: vec![
            Message::System {
                content: system.to_owned(),
            },
            Message::User { content: user },
        ],
        tools: Vec::new(),
    };
    let reply = model
        .complete(&request, &mut |_| {})
        .map_err(|e| Early::Agent(e.into()))?;
    model
        .finish(Stop::Answer)
        .map_err(|e| Early::Agent(e.into()))?;
    Ok(reply.text)
}
