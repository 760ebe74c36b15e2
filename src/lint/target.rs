//! Lint targets: which agent's (or validator's) rules a skill is checked against.

/// The consumer a skill is linted for.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// Works everywhere: the spec, plus warnings where agents differ (the default).
    Portable,
    /// Exactly what the Agent Skills reference validator (skills-ref) accepts.
    Agentskills,
    /// OpenClaw and ClawHub.
    Openclaw,
    /// nanobot.
    Nanobot,
    /// Claude (Claude Code and uploads to Claude apps).
    Claude,
    /// OpenAI Codex.
    Codex,
}

impl Target {
    /// The name used on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Target::Portable => "portable",
            Target::Agentskills => "agentskills",
            Target::Openclaw => "openclaw",
            Target::Nanobot => "nanobot",
            Target::Claude => "claude",
            Target::Codex => "codex",
        }
    }
}
