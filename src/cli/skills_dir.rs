//! `--dir DIR`, or `--agent AGENT...` / `--all-agents` with `--global` and `--copy`: the skills
//! folder a command installs into or works on, named the same way by `install`, `uninstall`,
//! `update`, `verify` and `builtin install`.

use super::CliError;
use crate::shared_install::{Placement, Scope};
use skill_model::catalog::{Agent, SHARED_ROOT, is_present};
use skill_model::choice::Choice;
use std::path::PathBuf;

/// The skills folder, as the flags name it.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct SkillsDir {
    /// The skills folder [default: ./skills, or .agents/skills with --agent or --global].
    #[arg(long)]
    pub(crate) dir: Option<PathBuf>,
    /// A shared install for this agent (repeatable): one copy in .agents/skills (~/.agents/skills
    /// with --global) and a relative link in the folder of each agent that does not read it
    /// (claude: .claude/skills, nanobot: skills; openclaw, codex, gemini, opencode and copilot
    /// read .agents/skills), recorded in skills-lock.json as vercel's skills CLI does.
    #[arg(
        long = "agent",
        value_name = "AGENT",
        value_parser = super::choice::parser::<Agent>(),
        conflicts_with = "dir"
    )]
    pub(crate) agents: Vec<Agent>,
    /// A shared install for every agent found on this machine (its settings folder exists).
    #[arg(long, conflicts_with_all = ["dir", "agents"])]
    pub(crate) all_agents: bool,
    /// The user's folders (~/.agents/skills, ~/.claude/skills, ...) instead of this project's.
    #[arg(long, short = 'g', conflicts_with = "dir")]
    pub(crate) global: bool,
    /// Copy into agents' folders instead of linking.
    #[arg(long, conflicts_with = "dir")]
    pub(crate) copy: bool,
}

impl SkillsDir {
    /// The shared install these flags ask for, or `None` for a plain skills folder.
    pub(crate) fn placement(&self) -> Result<Option<Placement>, CliError> {
        if !(self.global || self.all_agents || !self.agents.is_empty()) {
            return Ok(None);
        }
        let home = home();
        if home.as_os_str().is_empty() {
            return Err(CliError::Usage(
                "HOME is not set, so no agent's folders can be found\nhint: set HOME, or name the skills folder with --dir".to_owned(),
            ));
        }
        let agents = if self.all_agents {
            let found: Vec<Agent> = Agent::ALL
                .iter()
                .copied()
                .filter(|&a| is_present(a, &home))
                .collect();
            if found.is_empty() {
                return Err(CliError::Usage(format!(
                    "--all-agents found no agent's settings folder in {}\nhint: name the agents with --agent ({})",
                    home.display(),
                    Agent::names()
                )));
            }
            found
        } else {
            let mut agents: Vec<Agent> = Vec::new();
            for agent in &self.agents {
                if !agents.contains(agent) {
                    agents.push(*agent);
                }
            }
            agents
        };
        let (base, scope) = if self.global {
            (home, Scope::Global)
        } else {
            (std::env::current_dir()?, Scope::Project)
        };
        let placement = Placement {
            base,
            scope,
            agents,
            copy: self.copy,
            source: None,
        };
        placement.check_contained()?;
        Ok(Some(placement))
    }

    /// The folder the skills themselves are in: `--dir`, the shared folder, or `./skills`.
    pub(crate) fn path(&self) -> PathBuf {
        match (
            &self.dir,
            self.global || self.all_agents || !self.agents.is_empty(),
        ) {
            (Some(dir), _) => dir.clone(),
            (None, true) if self.global => home().join(SHARED_ROOT),
            (None, true) => PathBuf::from(SHARED_ROOT),
            (None, false) => PathBuf::from("skills"),
        }
    }
}

fn home() -> PathBuf {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default()
}
