//! The real agent CLIs: `skill eval --harness` (the trigger eval through each, side by side)
//! and `skill try --harness` (one prompt in one, live or recorded).

use super::CliError;
use super::eval::{Args, print_skill, rate};
use skill_agent::agent_cli::proxy::{Cassette, Endpoint, Source};
use skill_agent::agent_cli::session::{self, SessionError};
use skill_agent::agent_cli::{Harness, Purpose};
use skill_agent::eval::Subject;
use skill_agent::eval::harness::{self, HarnessError, HarnessOptions, HarnessReport};
use skill_agent::tools::Origin;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The longest one agent session of an eval may take.
const SESSION_TIMEOUT: Duration = Duration::from_secs(300);
/// The longest a `skill try --harness` session may take.
const TRY_TIMEOUT: Duration = Duration::from_secs(1800);

/// What `skill try --harness --json` prints.
#[derive(serde::Serialize)]
struct Tried<'a> {
    harness: Harness,
    agent_version: Option<&'a str>,
    exit: Option<i32>,
    timed_out: bool,
    answer: &'a str,
    skills_used: Vec<String>,
    tool_calls: Vec<Call<'a>>,
    model_requests: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    workspace: Option<&'a std::path::Path>,
}

#[derive(serde::Serialize)]
struct Call<'a> {
    name: &'a str,
    arguments: &'a serde_json::Value,
}

/// `skill try --harness`: the prompt in the real agent, with the skills installed.
pub(crate) fn try_in(args: &super::r#try::Args, which: Harness) -> Result<ExitCode, CliError> {
    let prompt = args
        .prompt
        .as_deref()
        .ok_or_else(|| CliError::Usage("--harness needs --prompt".to_owned()))?;
    let program = session::locate(which).map_err(HarnessError::from)?;
    let version = session::version(&program);
    let (source, confinement) = try_source(args, which)?;
    let outcome = session::run(session::Request {
        harness: which,
        program: &program,
        version: version.as_deref(),
        skills: &args.skills,
        prompt,
        model: args
            .provider
            .model
            .as_deref()
            .unwrap_or(which.default_model()),
        source,
        purpose: Purpose::Work,
        timeout: TRY_TIMEOUT,
        keep: args.keep,
        confinement,
    })
    .map_err(HarnessError::from)?;
    if let Some(mismatch) = outcome.proxy.mismatches.first() {
        return Err(HarnessError::Mismatch {
            cassette: args.replay.clone().unwrap_or_default(),
            mismatch: mismatch.clone(),
            rerecord: "the same command with --record instead of --replay".to_owned(),
        }
        .into());
    }
    if let Some(path) = &args.record {
        harness::save(&outcome, path, (which, version.as_deref()))?;
    }
    let calls = session::calls(&outcome.proxy);
    let tried = tried(which, version.as_deref(), &outcome, &calls);
    if args.json {
        super::output::print_json(&tried, true)?;
    } else {
        print_tried(&tried, &outcome.stderr);
    }
    Ok(match (outcome.exit, &outcome.proxy.errors.first()) {
        (Some(0), None) => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// What `skill try --harness` shows of a session.
fn tried<'a>(
    harness: Harness,
    agent_version: Option<&'a str>,
    outcome: &'a session::Outcome,
    calls: &'a [skill_agent::agent_cli::proxy::api::ToolCall],
) -> Tried<'a> {
    Tried {
        harness,
        agent_version,
        exit: outcome.exit,
        timed_out: outcome.timed_out,
        answer: outcome.stdout.trim_end(),
        skills_used: session::skills_used(outcome),
        tool_calls: calls
            .iter()
            .map(|c| Call {
                name: &c.name,
                arguments: &c.arguments,
            })
            .collect(),
        model_requests: outcome.proxy.requests.len(),
        workspace: outcome.kept.as_deref(),
    }
}

/// Where `skill try --harness`'s answers come from, and how a replaying agent is confined.
fn try_source(
    args: &super::r#try::Args,
    which: Harness,
) -> Result<(Source, Option<skill_agent::tools::Confinement>), CliError> {
    Ok(match (&args.replay, &args.record) {
        (Some(path), _) => (
            Source::Replay(Cassette::load(path).map_err(HarnessError::from)?),
            Some(super::test::decide_confinement(
                Origin::Recorded,
                args.no_sandbox,
            )?),
        ),
        (None, record) => (
            Source::Forward {
                endpoint: Endpoint::resolve(which.family(), args.provider.base_url.as_deref())
                    .map_err(|e| HarnessError::from(SessionError::from(e)))?,
                record: record.is_some(),
            },
            None,
        ),
    })
}

fn print_tried(tried: &Tried, stderr: &str) {
    let mut out = anstream::stdout();
    let version = tried.agent_version.unwrap_or("version unknown");
    let _ = writeln!(out, "== {} {version}", tried.harness);
    for call in &tried.tool_calls {
        let _ = writeln!(out, "-> {} {}", call.name, call.arguments);
    }
    if !tried.answer.is_empty() {
        let _ = writeln!(out, "{}", super::output::untrusted(tried.answer, true));
    }
    let used = if tried.skills_used.is_empty() {
        "no skill".to_owned()
    } else {
        tried.skills_used.join(", ")
    };
    let ended = match (tried.exit, tried.timed_out) {
        (_, true) => "stopped at the time limit".to_owned(),
        (Some(code), _) => format!("exit {code}"),
        (None, _) => "killed".to_owned(),
    };
    let _ = writeln!(
        out,
        "-- used {used}; {} model requests; {ended}",
        tried.model_requests
    );
    if let Some(path) = tried.workspace {
        let _ = writeln!(out, "kept {}", path.display());
    }
    if tried.exit != Some(0) && !stderr.trim().is_empty() {
        let lines: Vec<&str> = stderr.trim().lines().collect();
        let _ = writeln!(
            out,
            "{}",
            lines[lines.len().saturating_sub(20)..].join("\n")
        );
    }
}

/// Every harness's report, and the distractors installed with the skills.
#[derive(serde::Serialize)]
struct Report<'a> {
    harnesses: &'a [HarnessReport],
    distractors: Vec<String>,
}

/// Runs the eval of `subjects` through each of `args.harness`.
pub(crate) fn run(
    args: &Args,
    subjects: &[Subject],
    distractors: &[PathBuf],
) -> Result<ExitCode, CliError> {
    let mode = args.model.mode()?;
    let replay_confinement = super::test::decide_confinement(Origin::Recorded, args.no_sandbox)?;
    let mut reports = Vec::new();
    for &which in &args.harness {
        let options = HarnessOptions {
            harness: which,
            mode,
            runs: args.runs,
            model: args.model.provider.model.clone(),
            base_url: args.model.provider.base_url.clone(),
            timeout: SESSION_TIMEOUT,
            rerecord: super::eval::rerecord_command(args, Some(which)),
            replay_confinement,
        };
        reports.push(harness::run(subjects, distractors, &options)?);
    }
    let names: Vec<String> = subjects.iter().map(|s| s.name.clone()).collect();
    let distractors: Vec<String> = distractors
        .iter()
        .map(|d| skill_agent::test::skill_name(d))
        .filter(|n| !names.contains(n))
        .collect();
    if args.json {
        super::output::print_json(
            &Report {
                harnesses: &reports,
                distractors,
            },
            true,
        )?;
    } else {
        print_reports(&reports, distractors.len());
    }
    let passed = reports.iter().flat_map(|r| &r.skills).all(|s| s.passed);
    Ok(if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_reports(reports: &[HarnessReport], distractors: usize) {
    let mut out = anstream::stdout();
    for report in reports {
        let version = report.agent_version.as_deref().unwrap_or("version unknown");
        let _ = writeln!(out, "== {} {version}", report.harness);
        if !report.recorded_with.is_empty() {
            let _ = writeln!(
                out,
                "note: the cassettes were recorded with {} {}; record again to see what changed in its requests",
                report.harness,
                report.recorded_with.join(", ")
            );
        }
        for effect in &report.listing {
            let _ = writeln!(
                out,
                "listing: {} is {} by {}'s budget ({})",
                effect.name,
                effect.state.label(),
                report.harness,
                effect.why
            );
        }
        for skill in &report.skills {
            print_skill(&mut out, skill);
        }
    }
    if reports.len() > 1 {
        let _ = writeln!(out, "side by side:");
        let _ = writeln!(
            out,
            "  skill                harness      recall       false rate"
        );
        for (index, skill) in reports[0].skills.iter().enumerate() {
            for report in reports {
                let row = &report.skills[index];
                let _ = writeln!(
                    out,
                    "  {:<20} {:<12} {:<12} {}",
                    skill.skill,
                    report.harness.name(),
                    rate(row.recall, row.recall_runs),
                    rate(row.false_rate, row.false_runs)
                );
            }
        }
    }
    let skills: Vec<_> = reports.iter().flat_map(|r| &r.skills).collect();
    let passed = skills.iter().filter(|s| s.passed).count();
    let _ = writeln!(
        out,
        "{passed} passed, {} failed ({})",
        skills.len() - passed,
        super::output::plural(distractors as u64, "distractor skill", "distractor skills")
    );
}
