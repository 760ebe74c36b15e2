//! `skill explain [CODE]`.

use super::CliError;
use skill_lint::rulebook::{self, Rule};
use skill_lint::rules::checks_of;
use skill_lint::target::Target;
use skill_model::choice::Choice;
use std::process::ExitCode;

/// Arguments of `skill explain`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill explain SK208\n  skill explain name-dir-mismatch\n  skill explain            list every rule"
)]
pub(crate) struct Args {
    /// A rule code (SK208) or slug (name-dir-mismatch); without it, every rule is listed.
    pub(crate) rule: Option<String>,
}

/// Prints one rule's documentation, or the table of all rules.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    match args.rule {
        None => {
            for rule in rulebook::ALL {
                println!(
                    "{} {:<28} {:<8} {}",
                    rule.code,
                    rule.slug,
                    rule.severity.as_str(),
                    rule.summary
                );
            }
        }
        Some(id) => {
            let rule = rulebook::find(&id).ok_or(CliError::UnknownRule(id))?;
            print!("{}", explain(rule));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The text `skill explain` prints for `rule`.
pub(crate) fn explain(rule: &Rule) -> String {
    let mut severities = rule.severity.as_str().to_owned();
    let overrides: Vec<String> = Target::ALL
        .iter()
        .filter(|t| rule.severity_for(**t) != rule.severity)
        .map(|t| {
            format!(
                "{} with --target {}",
                rule.severity_for(*t).as_str(),
                t.name()
            )
        })
        .collect();
    if !overrides.is_empty() {
        severities = format!("{severities} ({})", overrides.join(", "));
    }
    let checked_by = if super::output::verbose() {
        let checks: Vec<String> = checks_of(rule)
            .iter()
            .map(|c| format!("lint::rules::{c}"))
            .collect();
        format!("checked by: {}\n", checks.join(", "))
    } else {
        String::new()
    };
    format!(
        "{} {} ({} rules)\nseverity: {severities}\nmatters to: {}\n{checked_by}\n{}\n\n{}\n{}",
        rule.code,
        rule.slug,
        rule.family(),
        matters_to(rule),
        rule.summary,
        rule.doc,
        examples(rule)
    )
}

/// Whom the rule's findings matter to, as `skill lint` decides what to report.
fn matters_to(rule: &Rule) -> String {
    let names: Vec<&str> = Target::ALL
        .iter()
        .filter(|t| rule.matters_to(**t))
        .map(|t| t.name())
        .collect();
    match names.as_slice() {
        [] => "no agent: shown only when selected by name (--select)".to_owned(),
        _ if names.len() == Target::ALL.len() => "every target".to_owned(),
        _ => format!(
            "{} (skills written for other agents are not told; --target or --select shows it)",
            names.join(", ")
        ),
    }
}

/// The rule's failing and passing example: its own test fixtures.
fn examples(rule: &Rule) -> String {
    let Some((_, bad, good)) = skill_lint::examples::EXAMPLES
        .iter()
        .find(|(slug, _, _)| *slug == rule.slug)
    else {
        return String::new();
    };
    let indent = |text: &str| -> String {
        let lines: Vec<&str> = text.lines().collect();
        let mut out: String = lines
            .iter()
            .take(EXAMPLE_LINES)
            .map(|l| format!("    {l}\n"))
            .collect();
        if lines.len() > EXAMPLE_LINES {
            out.push_str("    ...\n");
        }
        out
    };
    format!(
        "\nReported (SKILL.md):\n{}\nNot reported (SKILL.md):\n{}",
        indent(bad),
        indent(good)
    )
}

/// Lines of each example shown.
const EXAMPLE_LINES: usize = 16;
