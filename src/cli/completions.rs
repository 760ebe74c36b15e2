//! `skill completions SHELL` and `skill man`: shell completion scripts and the man page, both
//! generated from the command definitions so they never go stale.

use super::{Cli, CliError};
use clap::CommandFactory;
use std::process::ExitCode;

/// Arguments of `skill completions`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill completions bash > ~/.local/share/bash-completion/completions/skill\n  skill completions zsh > \"${fpath[1]}/_skill\"\n  skill completions fish > ~/.config/fish/completions/skill.fish"
)]
pub(crate) struct Args {
    /// The shell.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}

/// Arguments of `skill man`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  skill man > ~/.local/share/man/man1/skill.1 && man skill")]
pub(crate) struct ManArgs {}

/// Prints the completion script.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let mut command = Cli::command();
    // Rendered in memory: the generator panics on a failed write, a closed pipe should not.
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "skill", &mut out);
    std::io::Write::write_all(&mut std::io::stdout(), &out)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the man page (roff), the commands listed with their options.
pub(crate) fn run_man(_args: ManArgs) -> Result<ExitCode, CliError> {
    let command = Cli::command();
    let mut out = Vec::new();
    clap_mangen::Man::new(command.clone()).render(&mut out)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("skill {}", sub.get_name());
        let page = clap_mangen::Man::new(sub.clone());
        out.extend_from_slice(format!(".SH \"{}\"\n", name.to_uppercase()).as_bytes());
        page.render_description_section(&mut out)?;
        page.render_options_section(&mut out)?;
        page.render_subcommands_section(&mut out)?;
        page.render_extra_section(&mut out)?;
    }
    std::io::Write::write_all(&mut std::io::stdout(), &out)?;
    Ok(ExitCode::SUCCESS)
}
