//! Lint targets: which agent's (or validator's) rules a skill is checked against.

use crate::skill::agents::{Agent, Facts, Reading, facts};

crate::choices! {
    /// The consumer a skill is linted for.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Target {
        Portable = "portable": "Works everywhere: the spec, plus warnings where agents differ (the default).",
        Agentskills = "agentskills": "Exactly what the Agent Skills reference validator (skills-ref) accepts.",
        Openclaw = "openclaw": "OpenClaw and ClawHub.",
        Nanobot = "nanobot": "nanobot.",
        Claude = "claude": "Claude (Claude Code and uploads to Claude apps).",
        Codex = "codex": "OpenAI Codex.",
    }
}

impl Target {
    /// The agent whose facts (`skill::agents`) this target checks against, if it is one.
    pub fn agent(self) -> Option<Agent> {
        match self {
            Target::Portable | Target::Agentskills => None,
            Target::Openclaw => Some(Agent::Openclaw),
            Target::Nanobot => Some(Agent::Nanobot),
            Target::Claude => Some(Agent::Claude),
            Target::Codex => Some(Agent::Codex),
        }
    }

    /// The facts of [`Target::agent`].
    pub fn facts(self) -> Option<&'static Facts> {
        self.agent().map(facts)
    }

    /// How requirements are read and gated: the agent's way, else the portable one.
    pub fn reading(self) -> Reading {
        self.facts().map_or(Reading::PORTABLE, Facts::reading)
    }

    /// The requirements blocks whose declarations lint checks: those the agent reads, or every
    /// block for an agent that reads none (Claude Code, Codex), whose skills still declare
    /// requirements for the agents that do. Gating stays the agent's own ([`Target::reading`]).
    pub fn declared_blocks(self) -> &'static [&'static str] {
        match self.reading().metadata_blocks {
            [] => Reading::PORTABLE.metadata_blocks,
            blocks => blocks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill::agents::AGENTS;
    use crate::skill::choice::Choice;

    #[test]
    fn every_agent_is_a_target() {
        for agent in AGENTS {
            assert!(Target::ALL.iter().any(|t| t.agent() == Some(agent)));
        }
    }
}
