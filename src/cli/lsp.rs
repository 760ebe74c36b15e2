//! `skill lsp`: the language server, on stdin and stdout.

use super::CliError;
use skill_lint::Target;
use skill_lint::config::Config;
use std::process::ExitCode;

/// Arguments of `skill lsp`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  skill lsp                  started by an editor, which talks to it on stdin and stdout\n\nConfiguration: [lint] in skill.toml, found from the folder the editor starts it in upwards."
)]
pub(crate) struct Args {
    /// Whose rules apply [default: skill.toml's, else each skill's own agent].
    #[arg(long, value_parser = super::choice::parser::<Target>())]
    pub(crate) target: Option<Target>,
}

/// Serves one editor until it exits.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let config = Config::find(&std::env::current_dir()?)?;
    let options = super::lint::configured(&config, args.target, &[], &[])?;
    crate::lsp::serve(options).map_err(|e| CliError::Output(std::io::Error::other(e)))?;
    Ok(ExitCode::SUCCESS)
}
