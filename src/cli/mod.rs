//! The command line: one module per command, each a clap `Args` struct and a thin `run` that
//! calls the library and prints. Only this layer prints or chooses exit codes.

pub mod explain;
pub mod lint;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The toolkit for agent skills: scaffold, lint, package, publish and test SKILL.md skills.
#[derive(Debug, Parser)]
#[command(name = "skill", version, about, propagate_version = true)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Every command.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check skills against the Agent Skills spec and what agents accept.
    Lint(lint::Args),
    /// Print the documentation of a lint rule (or list all rules).
    Explain(explain::Args),
}

/// An error that ends a command; printed as `error: ...` with exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A path named no skill.
    #[error(transparent)]
    Discovery(#[from] crate::skill::DiscoveryError),
    /// A `--select`/`--ignore` value matched no rule.
    #[error(transparent)]
    Selector(#[from] crate::lint::selection::UnknownSelector),
    /// `skill explain` of a rule that does not exist.
    #[error("unknown rule '{0}'; run `skill explain` to list the rules")]
    UnknownRule(String),
    /// skill.toml could not be read or understood.
    #[error(transparent)]
    Config(#[from] crate::lint::config::ConfigError),
    /// A fixed SKILL.md could not be written.
    #[error(transparent)]
    Fix(#[from] crate::lint::fix::WriteError),
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Output(#[from] std::io::Error),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Lint(args) => lint::run(args),
        Command::Explain(args) => explain::run(args),
    }
}
