//! `skill install SOURCE` and `skill uninstall NAME`.

use super::CliError;
use crate::archive::install::{Source, install, uninstall};
use crate::lint::{Options, Target, lint_paths};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `skill install`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill install my-skill.skill\n  skill install ../other-repo/skills/pdf-tools --dir ~/.claude/skills\n  skill install my-skill.skill --force"
)]
pub struct Args {
    /// A `.skill` or `.zip` archive, or a skill folder.
    pub source: String,
    /// The skills folder to install into.
    #[arg(long, default_value = "skills")]
    pub dir: PathBuf,
    /// Replace an existing install (atomically).
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `skill uninstall`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill uninstall pdf-tools\n  skill uninstall pdf-tools --dir ~/.claude/skills"
)]
pub struct UninstallArgs {
    /// The installed skill's name (its folder name).
    pub name: String,
    /// The skills folder it is in.
    #[arg(long, default_value = "skills")]
    pub dir: PathBuf,
}

/// Installs, then lints the installed skill and shows its findings.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let source = Source::from_arg(&args.source)?;
    let installed = install(&source, &args.dir, args.force)?;
    let verb = if installed.replaced {
        "Replaced"
    } else {
        "Installed"
    };
    println!(
        "{verb} {} in {} ({} files)",
        installed.name,
        installed.dir.display(),
        installed.files
    );
    let run = lint_paths(
        std::slice::from_ref(&installed.dir),
        &Options::new(Target::Portable),
    )?;
    let findings = crate::lint::report::render_concise(&run);
    if !findings.is_empty() {
        eprint!("{findings}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Removes an installed skill.
pub fn run_uninstall(args: UninstallArgs) -> Result<ExitCode, CliError> {
    let removed = uninstall(&args.dir, &args.name)?;
    println!("Removed {}", removed.display());
    Ok(ExitCode::SUCCESS)
}
