//! `--dir DIR` or `--agent AGENT`: the skills folder a command installs into or works on, named
//! the same way by `install`, `uninstall`, `update`, `verify` and `builtin install`.

use crate::skill::catalog::{Agent, user_root};
use std::path::PathBuf;

/// The skills folder, as the flags name it.
#[derive(Debug, Clone, clap::Args)]
pub struct SkillsDir {
    /// The skills folder [default: ./skills].
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// This agent's user skills folder instead (openclaw: ~/.openclaw/skills, nanobot:
    /// ~/.nanobot/workspace/skills, claude: ~/.claude/skills, codex: ~/.agents/skills, gemini:
    /// ~/.gemini/skills, opencode: ~/.config/opencode/skills, copilot: ~/.copilot/skills).
    #[arg(long, value_parser = super::choice::parser::<Agent>(), conflicts_with = "dir")]
    pub agent: Option<Agent>,
}

impl SkillsDir {
    /// The folder: `--dir`, the agent's user folder, or `./skills`.
    pub fn path(&self) -> PathBuf {
        match (&self.dir, self.agent) {
            (Some(dir), _) => dir.clone(),
            (None, Some(agent)) => {
                let home = std::env::var_os("HOME")
                    .map(PathBuf::from)
                    .unwrap_or_default();
                user_root(agent, &home)
            }
            (None, None) => PathBuf::from("skills"),
        }
    }
}
