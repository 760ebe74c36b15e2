//! `skill explain [CODE]`.

use super::CliError;
use crate::lint::rulebook::{self, Rule};
use crate::lint::rules::checks_of;
use crate::lint::target::Target;
use crate::skill::choice::Choice;
use std::process::ExitCode;

/// Arguments of `skill explain`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill explain SK208\n  skill explain name-dir-mismatch\n  skill explain            list every rule"
)]
pub struct Args {
    /// A rule code (SK208) or slug (name-dir-mismatch); without it, every rule is listed.
    pub rule: Option<String>,
}

/// Prints one rule's documentation, or the table of all rules.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
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
pub fn explain(rule: &Rule) -> String {
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
    let checks: Vec<String> = checks_of(rule)
        .iter()
        .map(|c| format!("lint::rules::{c}"))
        .collect();
    format!(
        "{} {} ({} rules)\nseverity: {severities}\nchecked by: {}\n\n{}\n\n{}\n",
        rule.code,
        rule.slug,
        rule.family(),
        checks.join(", "),
        rule.summary,
        rule.doc
    )
}
