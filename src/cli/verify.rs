//! `skill verify`: do the installed skills still hold exactly what was installed?

use super::CliError;
use crate::shared_install::{Checked, Placement, Reach};
use skill_registry::install::verify;
use std::process::ExitCode;

/// Arguments of `skill verify`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill verify\n  skill verify --dir ~/.openclaw/skills --json\n\nCompares every skill in the lock file (.clawhub/lock.json beside the skills folder) with the files recorded at install; exit 1 on any drift."
)]
pub(crate) struct Args {
    /// The skills folder.
    #[command(flatten)]
    pub(crate) skills: super::skills_dir::SkillsDir,
    /// Print the result as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

/// One line per skill (`ok`, or what was added, removed or changed and how its install record
/// disagrees with the lock), exit 1 on drift.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let results = verify(&args.skills.path())?;
    let shared = match args.skills.placement()? {
        Some(placement) => Some((placement.check(&placement.lock()?)?, placement)),
        None => None,
    };
    let checked = shared.as_ref().map_or(&[][..], |(c, _)| c.as_slice());
    let drift = results.iter().filter(|v| !v.is_clean()).count()
        + checked.iter().filter(|c| !c.is_clean()).count();
    if args.json {
        let mut document = serde_json::json!({"skills": results, "drift": drift});
        if shared.is_some() {
            document["shared"] = serde_json::to_value(checked).map_err(std::io::Error::other)?;
        }
        super::output::print_json(&document, true)?;
        return Ok(ExitCode::from(u8::from(drift > 0)));
    }
    if let Some((checked, placement)) = &shared {
        print_shared(checked, placement);
    }
    {
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
        if results.is_empty() && shared.is_none() {
            println!("No locked installs in {}", args.skills.path().display());
        }
    }
    Ok(ExitCode::from(u8::from(drift > 0)))
}

/// One line per skill of a shared install's lock file, and one per agent that does not see it.
fn print_shared(checked: &[Checked], placement: &Placement) {
    let lock = placement.shown(&crate::shared_install::lock::SkillsLock::path_for(
        placement.scope,
        &placement.base,
    ));
    for c in checked {
        if c.folder_missing {
            println!(
                "{}: missing (in {}, not in {})",
                c.name,
                lock,
                placement.shown(&placement.shared())
            );
        } else if c.hash_changed {
            println!(
                "{}: changed (its folder hash is not the one in {})",
                c.name, lock
            );
        } else {
            println!("{}: ok", c.name);
        }
        for a in &c.agents {
            let shown = |path: &std::path::Path| placement.shown(path);
            let problem = match &a.reach {
                Reach::Missing { path } => format!("nothing at {}", shown(path)),
                Reach::Dangling { path } => {
                    format!("{} links to a copy that is gone", shown(path))
                }
                Reach::Stale { path } => format!("{} is an older copy", shown(path)),
                Reach::Source { path } => format!("{} is the skill's own source", shown(path)),
                Reach::Other { path } => format!("{} is not the shared copy", shown(path)),
                Reach::Reads
                | Reach::Linked { .. }
                | Reach::Copied { .. }
                | Reach::Holds { .. } => {
                    continue;
                }
            };
            println!("  ! {}: {problem}", a.agent);
        }
    }
    if checked.is_empty() {
        println!("No skills in {}", lock);
    }
}
