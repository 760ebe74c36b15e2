//! `skill lint [PATHS...]`.

use super::CliError;
use crate::lint::report::{self, Format};
use crate::lint::{Options, Selection, Target, lint_paths};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `skill lint`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill lint                      lint every skill under the current folder\n  skill lint skills/ --format json\n  skill lint my-skill --target agentskills --strict"
)]
pub struct Args {
    /// Skill folders, SKILL.md files, or trees to search for skills.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Whose rules apply.
    #[arg(long, value_enum, default_value_t = Target::Portable)]
    pub target: Target,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Exit with 1 on warnings too, not only on errors.
    #[arg(long)]
    pub strict: bool,
    /// Run only these rules (codes, code prefixes such as SK2, or slugs; comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub select: Vec<String>,
    /// Skip these rules (codes, code prefixes, or slugs; comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Do not check declared bins, env vars and os against this machine (for deterministic CI).
    #[arg(long)]
    pub no_env_checks: bool,
}

/// Lints, prints in the chosen format, and returns 0 (clean), 1 (errors, or warnings with
/// `--strict`) or 2 (a SKILL.md could not be read).
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let options = Options {
        selection: Selection::new(args.select, args.ignore)?,
        env_checks: !args.no_env_checks,
        ..Options::new(args.target)
    };
    let run = lint_paths(&args.paths, &options)?;
    match args.format {
        // Colours go through anstream, which drops them for pipes and NO_COLOR.
        Format::Human => write(anstream::stdout().lock(), &report::render_human(&run, true))?,
        Format::Concise => write(std::io::stdout().lock(), &report::render_concise(&run))?,
        Format::Json => write(std::io::stdout().lock(), &report::render_json(&run))?,
    }
    let summary = run.summary();
    let failed = summary.errors > 0 || (args.strict && summary.warnings > 0);
    Ok(if run.had_io_error() {
        ExitCode::from(2)
    } else if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn write(mut out: impl Write, text: &str) -> std::io::Result<()> {
    out.write_all(text.as_bytes())?;
    out.flush()
}
