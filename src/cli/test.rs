//! `skill test`: runs skills' scenarios offline from their cassettes and reports each.

use super::CliError;
use super::suite::{ModelArgs, skill_dirs};
use anstyle::AnsiColor;
use skill_agent::Stop;
use skill_agent::test::starter::write_starter;
use skill_agent::test::{Outcome, Report, junit, run_scenario, scenario::scenario_files};
use skill_agent::tools::{Confinement, Origin, decide};
use skill_model::builtin;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `skill test`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill test docker-deploy\n  skill test skills/ --junit report.xml\n  skill test docker-deploy --mode record\n  skill test --init my-skill"
)]
pub(crate) struct Args {
    /// Skill folders, or folders of skills [default: .]
    #[arg(value_name = "SKILL_DIR")]
    pub(crate) paths: Vec<PathBuf>,
    /// Also run the builtin skills' scenarios.
    #[arg(long)]
    pub(crate) builtin: bool,
    /// Write a JUnit XML report here.
    #[arg(long, value_name = "FILE")]
    pub(crate) junit: Option<PathBuf>,
    /// Write a starter scenario (evals/basic.yaml and its cassette) into each skill instead.
    #[arg(long, conflicts_with_all = ["builtin", "junit", "mode"])]
    pub(crate) init: bool,
    /// Run the scenarios' commands without the Landlock sandbox, where it is missing: only for
    /// cassettes you trust, since their tool calls run as you.
    #[arg(long)]
    pub(crate) no_sandbox: bool,
    /// Give the scenarios' commands this variable from your environment (repeatable). Nothing
    /// a skill declares in `requires.env` reaches them otherwise: the skill under test does not
    /// choose which of your secrets its commands see.
    #[arg(long, value_name = "NAME")]
    pub(crate) pass_env: Vec<String>,
    /// The cassette mode and the model provider.
    #[command(flatten)]
    pub(crate) model: ModelArgs,
}

/// Runs the scenarios.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    // `--init` conflicts with `--builtin`: it writes only into the skills named.
    let builtins = args
        .builtin
        .then(builtin::materialize)
        .transpose()
        .map_err(CliError::Builtin)?;
    let skills = skill_dirs(&args.paths, builtins.as_deref())?;
    if args.init {
        for dir in &skills {
            let starter = write_starter(dir)?;
            println!(
                "wrote {} and its cassette {} (from a scripted model)",
                starter.scenario.display(),
                starter.cassette.display()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mode = args.model.mode()?;
    let http = || args.model.http();
    let confinement = decide_confinement(Origin::Recorded, args.no_sandbox)?;
    let mut reports = Vec::new();
    for dir in &skills {
        for file in scenario_files(dir) {
            let report = run_scenario(dir, &file, mode, &http, confinement, &args.pass_env);
            print_report(&report);
            reports.push(report);
        }
    }
    if reports.is_empty() {
        return Err(CliError::Usage(
            "no scenarios found (evals/*.yaml in each skill); write a starter with `skill test --init SKILL_DIR`".to_owned(),
        ));
    }
    if let Some(path) = &args.junit {
        write_junit(path, &reports)?;
    }
    let passed = reports
        .iter()
        .filter(|r| r.outcome == Outcome::Passed)
        .count();
    let failed = reports.len() - passed;
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The confinement of a run's commands, decided in one place (`sandbox::decide`) for `try`,
/// `test` and `eval`; its warnings are printed here, and a refusal gets its hint.
pub(super) fn decide_confinement(
    origin: Origin,
    no_sandbox: bool,
) -> Result<Confinement, CliError> {
    let decision = decide(origin, no_sandbox).map_err(|e| {
        CliError::Usage(format!(
            "recorded commands cannot be confined here: {e}\nRecorded tool calls may come from anyone and are not run unconfined; pass --no-sandbox to run them anyway (only for cassettes you trust)"
        ))
    })?;
    for warning in &decision.warnings {
        eprintln!("warning: {warning}");
    }
    Ok(decision.confinement)
}

fn print_report(report: &Report) {
    if report.outcome == Outcome::Passed && super::output::quiet() {
        return;
    }
    let mut out = anstream::stdout();
    let (label, style) = match &report.outcome {
        Outcome::Passed => ("PASS ", AnsiColor::Green.on_default()),
        Outcome::Failed(_) => ("FAIL ", AnsiColor::Red.on_default().bold()),
        Outcome::Error(_) => ("ERROR", AnsiColor::Red.on_default().bold()),
    };
    // A stop other than an answer is named, so a pass that expects one says so too.
    let stop = match report.stop {
        Some(stop) if stop != Stop::Answer => format!(", stop: {stop}"),
        _ => String::new(),
    };
    let _ = writeln!(
        out,
        "{style}{label}{style:#} {}/{} ({} turn{}{stop}, {} ms)",
        report.skill,
        report.scenario,
        report.turns,
        if report.turns == 1 { "" } else { "s" },
        report.elapsed.as_millis()
    );
    if super::output::verbose() {
        let _ = writeln!(out, "      scenario {}", report.file.display());
    }
    match &report.outcome {
        Outcome::Passed => {}
        Outcome::Failed(reasons) => {
            for reason in reasons {
                let _ = writeln!(out, "      - {reason}");
            }
        }
        Outcome::Error(message) => {
            for line in message.lines() {
                let _ = writeln!(out, "      {line}");
            }
        }
    }
}

fn write_junit(path: &std::path::Path, reports: &[Report]) -> Result<(), CliError> {
    skill_archive::atomic_file::write(path, junit::render(reports)?.as_bytes())?;
    Ok(())
}
