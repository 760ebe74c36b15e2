//! Lint targets: which agent's (or validator's) rules a skill is checked against.

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
