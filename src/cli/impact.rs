//! `skill eval --impact`: outcome evals with and without the skill, and their summary.

use super::CliError;
use super::eval::Args;
use super::suite::skill_dirs;
use anstyle::AnsiColor;
use skill_agent::eval::impact::baseline::Baseline;
use skill_agent::eval::impact::html::{self, Extras, TriggerRates};
use skill_agent::eval::impact::real_agent::RealAgent;
use skill_agent::eval::impact::report::{Gate, Summary};
use skill_agent::eval::impact::stats::Spread;
use skill_agent::eval::impact::{self, Config, ImpactReport, Options};
use skill_agent::r#try::{shell_path, shell_quote};
use std::io::Write;
use std::process::ExitCode;

/// The longest an impact run through a real agent may take.
const AGENT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(1800);

/// Failed expectations of the skill's runs printed per skill before "and N more".
const SHOWN_FAILURES: usize = 10;

/// Runs the impact evals of the skills `args` name.
pub(crate) fn run(args: &Args) -> Result<ExitCode, CliError> {
    let builtins = skill_model::builtin::materialize().map_err(CliError::Builtin)?;
    let dirs = skill_dirs(&args.paths, args.builtin.then_some(builtins.as_path()))?;
    if args.init {
        return write_starters(&dirs);
    }
    // Every evals file is checked before any model is called.
    let subjects = impact::load_subjects(&dirs)?;
    if args.workspace.is_some() {
        one_workspace_each(&subjects)?;
    }
    let mode = args.model.mode()?;
    let http = || args.model.http();
    let confinement =
        super::test::decide_confinement(skill_agent::tools::Origin::Recorded, args.no_sandbox)?;
    let agent = real_agent(args)?;
    let mut reports = Vec::new();
    for subject in &subjects {
        let baseline = match &args.baseline {
            Some(reference) => Some(
                Baseline::prepare(reference, &subject.dir, &subject.name)
                    .map_err(impact::ImpactError::from)?,
            ),
            None => None,
        };
        let options = Options {
            mode,
            runs: args.runs.unwrap_or(impact::DEFAULT_RUNS),
            baseline: baseline.as_ref().map(Baseline::dir),
            http: &http,
            rerecord: rerecord_command(args),
            confinement,
            max_turns: skill_agent::DEFAULT_MAX_TURNS,
            workspace: args.workspace.as_ref().map(|w| w.join(&subject.name)),
            min_delta: args.min_delta,
            blind: args.blind,
            script: None,
            agent: agent.as_ref(),
        };
        reports.push(impact::run(subject, &options)?);
    }
    if let Some(path) = &args.report {
        write_html(path, &subjects, &reports, &builtins, confinement)?;
    }
    print_reports(args, &reports)?;
    Ok(if reports.iter().all(ImpactReport::passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `--report`: the HTML page of every skill's results, with its trigger rates where recorded.
fn write_html(
    path: &std::path::Path,
    subjects: &[impact::Subject],
    reports: &[ImpactReport],
    builtins: &std::path::Path,
    confinement: skill_agent::tools::Confinement,
) -> Result<(), CliError> {
    let pages: Vec<(ImpactReport, Extras)> = subjects
        .iter()
        .zip(reports)
        .map(|(subject, report)| {
            let extras = Extras {
                triggers: trigger_rates(&subject.dir, builtins, confinement),
            };
            (report.clone(), extras)
        })
        .collect();
    html::write(path, &pages)?;
    Ok(())
}

/// `--init`: writes a starter evals file in each skill and records its cassettes.
fn write_starters(dirs: &[std::path::PathBuf]) -> Result<ExitCode, CliError> {
    for dir in dirs {
        let written = impact::starter::write_impact_starter(dir)?;
        let cassettes = super::output::plural(written.cassettes as u64, "cassette", "cassettes");
        println!(
            "wrote {} (a starter, from the current description) and recorded {cassettes}",
            written.path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Refuses two skills of one name, whose iterations would share a folder of `--workspace`.
fn one_workspace_each(subjects: &[impact::Subject]) -> Result<(), CliError> {
    let twin = subjects
        .iter()
        .enumerate()
        .find(|(i, s)| subjects[..*i].iter().any(|t| t.name == s.name));
    match twin {
        Some((_, twin)) => Err(CliError::Usage(format!(
            "two skills are named {}: their iterations would share --workspace DIR/{}; evaluate them one at a time",
            twin.name, twin.name
        ))),
        None => Ok(()),
    }
}

/// The real agent CLI `--harness` names, if any (one at most).
fn real_agent(args: &Args) -> Result<Option<RealAgent>, CliError> {
    match args.harness.as_slice() {
        [] => Ok(None),
        [harness] => RealAgent::locate(
            *harness,
            args.model.provider.model.clone(),
            args.model.provider.base_url.clone(),
            AGENT_TIMEOUT,
        )
        .map(Some)
        .map_err(CliError::from),
        _ => Err(CliError::Usage(
            "--impact runs through one harness at a time".to_owned(),
        )),
    }
}

/// The reports as JSON (`--json`) or as text.
fn print_reports(args: &Args, reports: &[ImpactReport]) -> Result<(), CliError> {
    if args.json {
        #[derive(serde::Serialize)]
        struct Document<'a> {
            impact: &'a [ImpactReport],
        }
        super::output::print_json(&Document { impact: reports }, true)?;
    } else {
        let mut out = anstream::stdout();
        for report in reports {
            print_report(&mut out, report);
        }
    }
    Ok(())
}

/// The rates of the trigger set of the skill in `dir`, replayed as `skill eval DIR` would (the
/// builtin skills as distractors); `None` without a trigger set.
fn trigger_rates(
    dir: &std::path::Path,
    builtins: &std::path::Path,
    confinement: skill_agent::tools::Confinement,
) -> Option<Result<TriggerRates, String>> {
    if !dir.join(skill_agent::eval::TRIGGERS_FILE).is_file() {
        return None;
    }
    let no_provider = || {
        Err(skill_agent::provider::ModelError::Setting(
            "a replay calls no provider".to_owned(),
        ))
    };
    let options = skill_agent::eval::Options {
        mode: skill_agent::cassette::Mode::Replay,
        runs: None,
        compare: Vec::new(),
        http: &no_provider,
        rerecord: format!("skill eval {} --mode record", shell_path(dir)),
        script: None,
        confinement,
        cassettes: None,
    };
    let distractors = skill_agent::eval::skills_of_roots(&[skill_model::catalog::Root::plain(
        builtins.to_owned(),
    )]);
    let run = skill_agent::eval::load_subjects(&[dir.to_owned()])
        .and_then(|subjects| skill_agent::eval::run(&subjects, &distractors, &options));
    Some(match run {
        Ok(report) => Ok(TriggerRates {
            recall: report.skills[0].recall,
            false_rate: report.skills[0].false_rate,
        }),
        Err(e) => Err(e.to_string()),
    })
}

/// The command that records this impact eval again.
fn rerecord_command(args: &Args) -> String {
    let mut command = String::from("skill eval --impact");
    if args.builtin {
        command.push_str(" --builtin");
    }
    for path in &args.paths {
        command.push(' ');
        command.push_str(&shell_path(path));
    }
    if let Some(baseline) = &args.baseline {
        command.push_str(" --baseline ");
        command.push_str(&shell_quote(baseline));
    }
    if let Some(runs) = args.runs {
        command.push_str(&format!(" --runs {runs}"));
    }
    if args.blind {
        command.push_str(" --blind");
    }
    for harness in &args.harness {
        command.push_str(" --harness ");
        command.push_str(harness.name());
    }
    command.push_str(" --mode record");
    command
}

fn print_report(out: &mut impl Write, report: &ImpactReport) {
    let baseline = report.baseline;
    let against = match baseline {
        Config::OldSkill => "its earlier version",
        _ => "no skill",
    };
    let _ = writeln!(
        out,
        "{}: {} × {}, with the skill against {against}",
        report.skill_name,
        super::output::plural(report.evals.len() as u64, "eval", "evals"),
        super::output::plural(u64::from(report.runs_per_eval), "run", "runs"),
    );
    let _ = writeln!(
        out,
        "  {:<22} {:<16} {}",
        "",
        Config::WithSkill.name(),
        baseline.name()
    );
    for eval in &report.evals {
        let rate = |i: usize| pass_rate(eval.configs[i].pass_rate);
        let _ = writeln!(out, "  {:<22} {:<16} {}", eval.folder, rate(0), rate(1));
    }
    print_totals(out, report);
    if let Some(tally) = &report.blind {
        let _ = writeln!(
            out,
            "  {:<22} with_skill better in {}, {} better in {}, {} tie{}",
            "blind comparison",
            tally.with_skill,
            baseline.name(),
            tally.baseline,
            tally.ties,
            if tally.ties == 1 { "" } else { "s" }
        );
    }
    print_failures(out, report);
    let _ = writeln!(out, "  written to {}", report.iteration.display());
}

/// A column of a configuration's summary.
type Field = fn(&Summary) -> Option<Spread>;

fn print_totals(out: &mut impl Write, report: &ImpactReport) {
    let summary = &report.run_summary;
    let with = &summary.configs[&Config::WithSkill];
    let base = &summary.configs[&report.baseline];
    let delta = &summary.delta;
    let interval = report
        .delta_interval
        .map(|i| {
            format!(
                " ({:.0}% interval {:+.2} to {:+.2})",
                i.confidence * 100.0,
                i.low,
                i.high
            )
        })
        .unwrap_or_default();
    let rows: [(&str, Field, usize, Option<f64>); 3] = [
        ("pass rate", |s| s.pass_rate, 2, delta.pass_rate),
        ("time (s)", |s| s.time_seconds, 1, delta.time_seconds),
        ("tokens", |s| s.tokens, 0, delta.tokens),
    ];
    for (label, field, digits, change) in rows {
        let change = change.map_or("-".to_owned(), |d| format!("{d:+.digits$}"));
        let interval = if label == "pass rate" {
            interval.as_str()
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  {:<22} {:<16} {:<16} delta {change}{interval}",
            label,
            spread(field(with), digits),
            spread(field(base), digits)
        );
    }
    if let Some(gate) = &report.gate {
        print_gate(out, gate, delta.pass_rate);
    }
}

fn print_gate(out: &mut impl Write, gate: &Gate, delta: Option<f64>) {
    let (label, style) = if gate.passed {
        ("PASS", AnsiColor::Green.on_default())
    } else {
        ("FAIL", AnsiColor::Red.on_default().bold())
    };
    let delta = delta.map_or("none".to_owned(), |d| format!("{d:+.2}"));
    let sure = match (gate.interval, gate.certain) {
        (false, _) => "no interval from fewer than two runs a side: more runs would tell",
        (true, true) => "the whole interval is on this side",
        (true, false) => "the interval crosses it: more runs would decide",
    };
    let _ = writeln!(
        out,
        "  {style}{label}{style:#} gate: delta {delta} against --min-delta {:+.2} ({sure})",
        gate.min_delta
    );
}

fn print_failures(out: &mut impl Write, report: &ImpactReport) {
    let failures: Vec<String> = report
        .evals
        .iter()
        .flat_map(|eval| {
            eval.configs[0].runs.iter().flat_map(move |run| {
                run.grading
                    .expectations
                    .iter()
                    .filter(|g| !g.passed)
                    .map(move |g| {
                        format!(
                            "{} run {}: FAIL {:?}: {}",
                            eval.folder, run.run, g.text, g.evidence
                        )
                    })
            })
        })
        .collect();
    for failure in failures.iter().take(SHOWN_FAILURES) {
        let _ = writeln!(out, "  ! {failure}");
    }
    if failures.len() > SHOWN_FAILURES {
        let _ = writeln!(
            out,
            "  ! and {} more in grading.json",
            failures.len() - SHOWN_FAILURES
        );
    }
}

fn pass_rate(spread: Option<Spread>) -> String {
    spread.map_or("-".to_owned(), |s| format!("{:.2}", s.mean))
}

fn spread(spread: Option<Spread>, digits: usize) -> String {
    spread.map_or("-".to_owned(), |s| {
        format!("{:.digits$} ± {:.digits$}", s.mean, s.stddev)
    })
}
