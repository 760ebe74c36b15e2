//! What `verify` finds of a shared install: each skill of the lock against its copy, and how
//! each agent it was installed for finds it.

use super::lock::{REGISTRY_SOURCE, SkillsLock};
use super::{Placement, Reach, SharedError, hash};
use skill_model::catalog::Agent;

/// One skill of a shared install's lock file, as `verify` finds it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Checked {
    /// The skill's name.
    pub(crate) name: String,
    /// Neither the shared copy nor an agent's own install of it exists.
    pub(crate) folder_missing: bool,
    /// The copy's folder hash differs from the lock's (`false` when the lock records none).
    pub(crate) hash_changed: bool,
    /// How each agent the lock records (those named, when it records none) finds it.
    pub(crate) agents: Vec<AgentReach>,
}

/// How one agent finds a shared skill.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct AgentReach {
    /// The agent.
    pub(crate) agent: Agent,
    /// How.
    #[serde(flatten)]
    pub(crate) reach: Reach,
}

impl Checked {
    /// Whether the skill is as installed and every agent sees it.
    pub(crate) fn is_clean(&self) -> bool {
        !self.folder_missing
            && !self.hash_changed
            && self.agents.iter().all(|a| a.reach.is_reached())
    }
}

impl Placement {
    /// Compares each skill of `lock` with its shared copy, and checks that each agent it was
    /// installed for still finds it.
    pub(crate) fn check(&self, lock: &SkillsLock) -> Result<Vec<Checked>, SharedError> {
        let mut out = Vec::new();
        for (name, entry) in &lock.skills {
            let mine = self.for_entry(entry);
            for agent in &mine.agents {
                self.contain(&self.root(*agent))?;
            }
            let agents: Vec<AgentReach> = mine
                .agents
                .into_iter()
                .map(|agent| AgentReach {
                    agent,
                    reach: self.reach(agent, name, lock),
                })
                .collect();
            // The shared copy, or the agent's folder that holds the install itself.
            let copy = Some(self.copy_of(name)?)
                .filter(|c| c.is_dir())
                .or_else(|| {
                    agents.iter().find_map(|a| match &a.reach {
                        Reach::Holds { path } => Some(path.clone()),
                        _ => None,
                    })
                });
            let hash_changed = entry.source_type != REGISTRY_SOURCE
                && copy.as_ref().is_some_and(|copy| {
                    entry.hash().is_some_and(|recorded| {
                        hash::folder_hash(copy).map_or(true, |now| now != recorded)
                    })
                });
            out.push(Checked {
                name: name.clone(),
                folder_missing: copy.is_none(),
                hash_changed,
                agents,
            });
        }
        Ok(out)
    }
}
