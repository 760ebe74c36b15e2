//! `skill eval --harness`: the trigger eval through real agent CLIs, side by side.

use super::CliError;
use super::eval::{Args, print_skill, rate};
use crate::agent::trial::shell_path;
use crate::eval::Subject;
use crate::eval::harness::{self, HarnessOptions, HarnessReport};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The longest one agent session may take.
const SESSION_TIMEOUT: Duration = Duration::from_secs(300);

/// Every harness's report, and the distractors installed with the skills.
#[derive(serde::Serialize)]
struct Report<'a> {
    harnesses: &'a [HarnessReport],
    distractors: Vec<String>,
}

/// Runs the eval of `subjects` through each of `args.harness`.
pub fn run(
    args: &Args,
    subjects: &[Subject],
    distractors: &[PathBuf],
) -> Result<ExitCode, CliError> {
    let mode = args.model.mode()?;
    let mut reports = Vec::new();
    for &which in &args.harness {
        let options = HarnessOptions {
            harness: which,
            mode,
            runs: args.runs,
            model: args.model.provider.model.clone(),
            base_url: args.model.provider.base_url.clone(),
            timeout: SESSION_TIMEOUT,
            rerecord: rerecord_command(args, which),
        };
        reports.push(harness::run(subjects, distractors, &options)?);
    }
    let names: Vec<String> = subjects.iter().map(|s| s.name.clone()).collect();
    let distractors: Vec<String> = distractors
        .iter()
        .map(|d| crate::harness::skill_name(d))
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

fn rerecord_command(args: &Args, which: crate::agent_cli::Harness) -> String {
    let mut command = format!("skill eval --harness {which}");
    if args.builtin {
        command.push_str(" --builtin");
    }
    for path in &args.paths {
        command.push(' ');
        command.push_str(&shell_path(path));
    }
    for root in &args.with {
        command.push_str(" --with ");
        command.push_str(&shell_path(root));
    }
    if let Some(runs) = args.runs {
        command.push_str(&format!(" --runs {runs}"));
    }
    command.push_str(" --mode record");
    command
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
