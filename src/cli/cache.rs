//! `skill cache dir|clean`: where `skill` keeps what it can always make again.

use super::CliError;
use skill_lint::cache::Cache;
use std::process::ExitCode;

/// Arguments of `skill cache`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill cache dir      print the cache folder\n  skill cache clean    remove lint's cache of findings\n\nThe folder is $SKILL_CACHE_DIR, else the user's cache folder ($XDG_CACHE_HOME/skill or ~/.cache/skill on Linux)."
)]
pub(crate) struct Args {
    /// What to do.
    #[command(subcommand)]
    pub(crate) action: Action,
}

/// What `skill cache` does.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Action {
    /// Print the cache folder.
    #[command(after_help = "Examples:\n  skill cache dir\n  du -sh \"$(skill cache dir)\"")]
    Dir,
    /// Remove lint's cache of findings (the next `skill lint` checks every skill again).
    #[command(after_help = "Example:\n  skill cache clean")]
    Clean,
}

/// Prints the folder, or removes the lint cache and says what it did.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let folder = skill_model::folders::cache();
    match args.action {
        Action::Dir => println!("{}", folder.display()),
        Action::Clean => {
            let removed = Cache::clean(&folder)
                .map_err(|e| CliError::Usage(format!("cannot remove the lint cache: {e}")))?;
            if removed {
                eprintln!("Removed the lint cache in {}", folder.display());
            } else {
                eprintln!("No lint cache in {}", folder.display());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
