//! `skill eval --improve-description`: the description optimiser, and its summary.

use super::CliError;
use super::eval::Args;
use skill_agent::eval::Options;
use skill_agent::eval::improve::{Candidate, ImproveOptions, Improvement, improve};
use skill_agent::r#try::shell_path;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Runs the optimiser on each skill of `dirs` with `distractors` beside it.
pub(crate) fn run(
    args: &Args,
    dirs: &[PathBuf],
    distractors: Vec<PathBuf>,
) -> Result<ExitCode, CliError> {
    let mode = args.model.mode()?;
    let http = || args.model.http();
    let confinement =
        super::test::decide_confinement(skill_agent::tools::Origin::Recorded, args.no_sandbox)?;
    let mut results = Vec::new();
    for dir in dirs {
        let options = ImproveOptions {
            eval: Options {
                mode,
                runs: args.runs,
                compare: Vec::new(),
                http: &http,
                rerecord: rerecord_command(args, dir),
                script: None,
                confinement,
                cassettes: None,
            },
            distractors: distractors.clone(),
            iterations: args.iterations as usize,
            limit: limit(args.agent),
        };
        results.push(improve(dir, &options)?);
    }
    if args.json {
        #[derive(serde::Serialize)]
        struct Document<'a> {
            improve_description: &'a [Improvement],
        }
        super::output::print_json(
            &Document {
                improve_description: &results,
            },
            true,
        )?;
    } else {
        let mut out = anstream::stdout();
        for result in &results {
            print_result(&mut out, result);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The longest description `agent` keeps whole (the spec's limit without one).
fn limit(agent: Option<skill_model::catalog::Agent>) -> usize {
    let spec = skill_model::layout::DESCRIPTION_MAX;
    let Some(agent) = agent else {
        return spec;
    };
    let facts = skill_model::agents::facts(agent);
    [
        facts.description_max,
        facts.budget.and_then(|b| b.description_cap),
    ]
    .into_iter()
    .flatten()
    .fold(spec, usize::min)
}

fn rerecord_command(args: &Args, dir: &std::path::Path) -> String {
    let mut command = format!("skill eval --improve-description {}", shell_path(dir));
    if let Some(agent) = args.agent {
        command.push_str(&format!(" --agent {}", agent.name()));
    }
    for root in &args.with {
        command.push_str(&format!(" --with {}", shell_path(root)));
    }
    if let Some(runs) = args.runs {
        command.push_str(&format!(" --runs {runs}"));
    }
    command.push_str(&format!(" --iterations {} --mode record", args.iterations));
    command
}

fn score(candidate: &Candidate) -> (String, String) {
    if candidate.rejected.is_some() {
        return ("-".to_owned(), "-".to_owned());
    }
    let of = |s: &skill_agent::eval::improve::Scored| format!("{}/{}", s.passed, s.total);
    (of(&candidate.train), of(&candidate.validation))
}

fn print_result(out: &mut impl Write, result: &Improvement) {
    let first = &result.candidates[0];
    let _ = writeln!(
        out,
        "{}: {} (queries: {}, {} train / {} validation, limit {} characters)",
        result.skill,
        super::output::plural(result.candidates.len() as u64, "candidate", "candidates"),
        result.queries.display(),
        first.train.total,
        first.validation.total,
        result.limit
    );
    let _ = writeln!(out, "  #  train  validation  description");
    for candidate in &result.candidates {
        let (train, validation) = score(candidate);
        let text = match &candidate.rejected {
            Some(why) => format!("(rejected: {why})"),
            None => candidate.description.clone(),
        };
        let mark = if candidate.iteration == result.winner {
            '*'
        } else {
            ' '
        };
        let _ = writeln!(
            out,
            "{mark} {:<2} {:<6} {:<11} {}",
            candidate.iteration,
            train,
            validation,
            eval_line(&text)
        );
    }
    let winner = &result.candidates[result.winner];
    if result.winner == 0 {
        let _ = writeln!(
            out,
            "  the current description is the best on validation; keep it"
        );
        return;
    }
    let (train, validation) = score(winner);
    let (train0, validation0) = score(first);
    let _ = writeln!(
        out,
        "  candidate {}: train {train} (now {train0}), validation {validation} (now {validation0})",
        winner.iteration
    );
    let _ = writeln!(out, "- description: {}", first.description);
    let _ = writeln!(out, "+ description: {}", winner.description);
}

/// `text` on one line, cut for a table.
fn eval_line(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > 100 {
        format!("{}…", line.chars().take(99).collect::<String>())
    } else {
        line
    }
}
