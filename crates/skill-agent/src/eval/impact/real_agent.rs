//! An impact run through a real agent CLI (`--impact --harness`): the eval's task run headless
//! in the agent with the skill (or the baseline, or nothing) installed where it reads skills and
//! the eval's input files in its project; the files it made there are the outputs, what it
//! printed is the answer, and they are graded as any run's. The agent's model exchanges go
//! through the proxy into `eval-<id>/<config>.<run>.<harness>.yaml`.

use super::outputs::{self, Outputs};
use super::report::{self, RunReport};
use super::{Config, Eval, ImpactError, Options, Subject, cassette_path, copy_inputs, grade};
use crate::agent_cli::proxy::Source;
use crate::agent_cli::session;
use crate::agent_cli::{Harness, Purpose};
use crate::cassette::Mode;
use crate::eval::harness::{HarnessError, check, save, source};
use crate::message::Stop;
use crate::message::Usage;
use crate::{AgentError, Transcript};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The agent an impact eval runs through.
#[derive(Debug, Clone)]
pub struct RealAgent {
    /// The harness.
    pub harness: Harness,
    /// Its program.
    pub program: PathBuf,
    /// Its version.
    pub version: Option<String>,
    /// The model it asks for.
    pub model: String,
    /// The provider's base URL, when not the family's own.
    pub base_url: Option<String>,
    /// The longest a run may take.
    pub timeout: Duration,
}

impl RealAgent {
    /// The agent of `harness` on PATH, asking for `model` (its default when `None`).
    pub fn locate(
        harness: Harness,
        model: Option<String>,
        base_url: Option<String>,
        timeout: Duration,
    ) -> Result<RealAgent, HarnessError> {
        let program = session::locate(harness)?;
        Ok(RealAgent {
            version: session::version(&program),
            program,
            harness,
            model: model.unwrap_or_else(|| harness.default_model().to_owned()),
            base_url,
            timeout,
        })
    }
}

/// Which run failed, to name it in errors.
struct Named<'a> {
    subject: &'a Subject,
    eval: &'a Eval,
    config: Config,
    run: u32,
}

impl Named<'_> {
    fn harness(&self, error: HarnessError) -> ImpactError {
        ImpactError::Harness {
            skill: self.subject.name.clone(),
            id: self.eval.id.clone(),
            config: self.config,
            run: self.run,
            error: Box::new(error),
        }
    }

    fn agent(&self, error: AgentError) -> ImpactError {
        ImpactError::Run {
            skill: self.subject.name.clone(),
            id: self.eval.id.clone(),
            config: self.config,
            run: self.run,
            error: Box::new(error),
        }
    }
}

/// A finished session and what is needed to grade it.
struct Ran {
    outcome: session::Outcome,
    before: std::collections::BTreeMap<String, outputs::Seen>,
    cassette: PathBuf,
    settled: Mode,
    elapsed_ms: u64,
}

/// Runs `eval` once in `config` with `skill` installed, through `agent`.
pub(super) fn run_one(
    subject: &Subject,
    eval: &Eval,
    (config, skill): (Config, Option<&Path>),
    run: u32,
    options: &Options,
    agent: &RealAgent,
) -> Result<RunReport, ImpactError> {
    let named = Named {
        subject,
        eval,
        config,
        run,
    };
    let ran = run_session(&named, skill, options, agent)?;
    let project = ran.outcome.project.clone();
    let (files, left_out) = outputs::produced(&ran.before, outputs::snapshot(&project));
    let used = session::skills_used(&ran.outcome);
    let outputs = Outputs {
        answer: ran.outcome.stdout.trim_end().to_owned(),
        files,
        left_out,
    };
    let name = agent.harness.name();
    let grader = cassette_path(subject, eval, config, run, &format!(".{name}.grade"));
    let fresh = ran.settled != Mode::Replay;
    let grading = grade(eval, &outputs, &project, (&grader, fresh), options)
        .map_err(|e| e.into_run(&|error| named.agent(error)))?;
    let duration_ms =
        report::duration(&ran.cassette, ran.settled, ran.elapsed_ms).map_err(|source| {
            ImpactError::Write {
                path: ran.cassette.clone(),
                source,
            }
        })?;
    let transcript = transcript(&ran, &outputs.answer, used.clone());
    Ok(RunReport {
        run,
        stop: transcript.stop,
        turns: transcript.turns,
        total_tokens: 0,
        duration_ms,
        skills_read: used,
        grading,
        outputs,
        transcript,
        workspace: project,
        recorded: fresh,
    })
}

/// The session of one run: the skill installed, the eval's files in the project, the agent run
/// from the cassette or recorded into it.
fn run_session(
    named: &Named,
    skill: Option<&Path>,
    options: &Options,
    agent: &RealAgent,
) -> Result<Ran, ImpactError> {
    let (subject, eval) = (named.subject, named.eval);
    let suffix = format!(".{}", agent.harness.name());
    let cassette = cassette_path(subject, eval, named.config, named.run, &suffix);
    let settled = options.mode.settle(&cassette);
    let Some(answers) = source(settled, &cassette, agent.harness, agent.base_url.as_deref())
        .map_err(|e| named.harness(e))?
    else {
        return Err(ImpactError::NoCassette {
            path: cassette,
            rerecord: options.rerecord.clone(),
        });
    };
    let replaying = matches!(answers, Source::Replay(_));
    let skills: Vec<PathBuf> = skill.into_iter().map(Path::to_owned).collect();
    let task = eval.task();
    let prepared = session::prepare(session::Request {
        harness: agent.harness,
        program: &agent.program,
        version: agent.version.as_deref(),
        skills: &skills,
        prompt: &task,
        model: &agent.model,
        source: answers,
        purpose: Purpose::Work,
        timeout: agent.timeout,
        keep: false,
        confinement: replaying.then_some(options.confinement),
    })
    .map_err(|e| named.harness(e.into()))?;
    copy_inputs(&subject.dir, eval, &prepared.project()).map_err(|e| named.agent(e))?;
    let (before, _) = outputs::snapshot(&prepared.project());
    let started = Instant::now();
    let outcome = prepared.run().map_err(|e| named.harness(e.into()))?;
    let elapsed_ms = started.elapsed().as_millis() as u64;
    check(&outcome, &cassette, agent.harness, &options.rerecord).map_err(|e| named.harness(e))?;
    if matches!(settled, Mode::Record | Mode::Auto) {
        save(
            &outcome,
            &cassette,
            (agent.harness, agent.version.as_deref()),
        )
        .map_err(|e| named.harness(e))?;
    }
    Ok(Ran {
        outcome,
        before,
        cassette,
        settled,
        elapsed_ms,
    })
}

/// The transcript of a run the agent kept to itself: its answer and counts, no messages.
fn transcript(ran: &Ran, answer: &str, skills_read: Vec<String>) -> Transcript {
    let outcome = &ran.outcome;
    let stop = match (outcome.timed_out, outcome.exit) {
        (false, Some(0)) => Stop::Answer,
        _ => Stop::Error,
    };
    Transcript {
        stop,
        final_answer: Some(answer.to_owned()),
        error: (stop == Stop::Error).then(|| stderr_tail(&outcome.stderr)),
        turns: outcome.proxy.requests.len(),
        usage: Usage::default(),
        elapsed_ms: ran.elapsed_ms,
        tool_ms: 0,
        skills: outcome.skills.clone(),
        skills_read,
        messages: Vec::new(),
    }
}

/// The last lines the agent wrote on standard error.
fn stderr_tail(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.trim().lines().collect();
    lines[lines.len().saturating_sub(10)..].join("\n")
}
