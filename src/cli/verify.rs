//! `skill verify`: do the installed skills still hold exactly what was installed?

use super::CliError;
use crate::registry::install::verify;
use std::process::ExitCode;

/// Arguments of `skill verify`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill verify\n  skill verify --dir ~/.openclaw/skills --json\n\nCompares every skill in the lock file (.clawhub/lock.json beside the skills folder) with the files recorded at install; exit 1 on any drift."
)]
pub struct Args {
    /// The skills folder.
    #[command(flatten)]
    pub skills: super::skills_dir::SkillsDir,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// One line per skill (`ok`, or what was added, removed or changed and how its install record
/// disagrees with the lock), exit 1 on drift.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let results = verify(&args.skills.path())?;
    let drift = results.iter().filter(|v| !v.is_clean()).count();
    if args.json {
        super::output::print_json(
            &serde_json::json!({"skills": results, "drift": drift}),
            true,
        )?;
    } else {
        for v in &results {
            if v.folder_removed {
                println!(
                    "{}: missing (in the lock file, not in {})",
                    v.name,
                    args.skills.path().display()
                );
                continue;
            }
            if v.is_clean() {
                let how = if v.fingerprint_only {
                    " (fingerprint only)"
                } else {
                    ""
                };
                println!("{}: ok{how}", v.name);
                continue;
            }
            println!("{}: changed", v.name);
            for (mark, paths) in [("+", &v.added), ("-", &v.removed), ("~", &v.changed)] {
                for path in paths {
                    println!("  {mark} {path}");
                }
            }
            for record in &v.records {
                println!("  ! {record}");
            }
        }
        if results.is_empty() {
            println!("No locked installs in {}", args.skills.path().display());
        }
    }
    Ok(ExitCode::from(u8::from(drift > 0)))
}
