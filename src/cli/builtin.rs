//! `skill builtin list` and `skill builtin show NAME`.

use super::CliError;
use crate::skill::builtin::{self, BUILTINS};
use crate::skill::layout::SKILL_MD;
use crate::skill::{Document, Source};
use std::process::ExitCode;

/// Arguments of `skill builtin`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill builtin list\n  skill builtin show tmux\n  skill new my-tmux --from tmux"
)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
}

/// `skill builtin` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// List the skills shipped with skill.
    #[command(after_help = "Example:\n  skill builtin list")]
    List,
    /// Print a builtin skill's SKILL.md.
    #[command(after_help = "Example:\n  skill builtin show safe-shell")]
    Show {
        /// The skill's name.
        name: String,
    },
}

/// Lists or shows builtin skills.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    match args.action {
        Action::List => {
            for skill in BUILTINS {
                let (_, text) = skill
                    .files
                    .iter()
                    .find(|(p, _)| *p == SKILL_MD)
                    .copied()
                    .unwrap_or(("", ""));
                let doc = Document::parse(Source::new(text.to_owned()));
                let description = doc
                    .manifest
                    .as_ref()
                    .ok()
                    .and_then(|m| m.value("description"))
                    .and_then(|v| v.as_str())
                    .unwrap_or("");
                let short = description
                    .split(". ")
                    .next()
                    .unwrap_or(description)
                    .trim_end_matches('.');
                println!("{:<15} {short}", skill.name);
            }
        }
        Action::Show { name } => {
            let skill =
                builtin::find(&name).ok_or_else(|| CliError::UnknownSkills(name.clone()))?;
            let mut others = Vec::new();
            for (path, contents) in skill.files {
                if *path == SKILL_MD {
                    print!("{contents}");
                } else {
                    others.push(*path);
                }
            }
            if !others.is_empty() {
                eprintln!(
                    "also in {name}: {} (`skill new NAME --from {name}` copies the skill)",
                    others.join(", ")
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
