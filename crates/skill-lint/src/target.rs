//! Lint targets: which agent's (or validator's) rules a skill is checked against.

use skill_model::Skill;
use skill_model::agents::{Agent, Facts, Reading, facts};
use skill_model::layout::{CLAWHUB_DIR, META_FILE};
use skill_model::requirements::{BLOCK_NAMES, metadata_node};

skill_model::choices! {
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
        Gemini = "gemini": "Gemini CLI.",
        Opencode = "opencode": "OpenCode.",
        Copilot = "copilot": "GitHub Copilot CLI.",
    }
}

impl Target {
    /// The agent whose facts (`skill_model::agents`) this target checks against, if it is one.
    pub fn agent(self) -> Option<Agent> {
        match self {
            Target::Portable | Target::Agentskills => None,
            Target::Openclaw => Some(Agent::Openclaw),
            Target::Nanobot => Some(Agent::Nanobot),
            Target::Claude => Some(Agent::Claude),
            Target::Codex => Some(Agent::Codex),
            Target::Gemini => Some(Agent::Gemini),
            Target::Opencode => Some(Agent::Opencode),
            Target::Copilot => Some(Agent::Copilot),
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
    pub(crate) fn declared_blocks(self) -> &'static [&'static str] {
        match self.reading().metadata_blocks {
            [] => Reading::PORTABLE.metadata_blocks,
            blocks => blocks,
        }
    }
}

/// The target a skill was linted for, and what chose it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chosen {
    /// The target.
    pub target: Target,
    /// What chose it: `--target` (or skill.toml), or what the skill declares
    /// (`metadata.openclaw`, `agents/openai.yaml`, `when_to_use`, `_meta.json`, ...).
    pub from: &'static str,
}

impl Chosen {
    /// A target the user chose.
    pub fn given(target: Target) -> Chosen {
        Chosen {
            target,
            from: "--target",
        }
    }

    /// Whether the target was inferred from the skill rather than given.
    pub(crate) fn is_inferred(&self) -> bool {
        self.from != "--target"
    }
}

/// The agent a skill was written for, from what it declares, in order of how plainly it says
/// so: a requirements block under `metadata` (OpenClaw's names, else nanobot's), nanobot's
/// `always`, Codex's `agents/openai.yaml`, a frontmatter key only Claude Code reads, a key only
/// OpenClaw reads, ClawHub's install metadata (a skill downloaded from ClawHub, which serves
/// OpenClaw), and `{baseDir}`, which only OpenClaw substitutes. Otherwise the spec (portable).
pub fn infer(skill: &Skill) -> Chosen {
    let chosen = |target, from| Chosen { target, from };
    if let Some(block) = declared_block(skill) {
        let target = match block {
            "nanobot" => Target::Nanobot,
            _ => Target::Openclaw,
        };
        return chosen(target, block_label(block));
    }
    let keys: Vec<&str> = skill
        .manifest()
        .map(|m| m.entries.iter().map(|e| e.key.as_str()).collect())
        .unwrap_or_default();
    if keys.contains(&"always") {
        return chosen(Target::Nanobot, "always");
    }
    if skill.dir.join("agents/openai.yaml").is_file() {
        return chosen(Target::Codex, "agents/openai.yaml");
    }
    let only = |agent: Agent, other: Agent| {
        facts(agent)
            .keys
            .iter()
            .copied()
            .find(|k| keys.contains(k) && !facts(other).keys.contains(k))
    };
    if let Some(key) = only(Agent::Claude, Agent::Openclaw) {
        return chosen(Target::Claude, key);
    }
    if let Some(key) = names_claude(skill) {
        return chosen(Target::Claude, key);
    }
    if let Some(key) = only(Agent::Openclaw, Agent::Claude) {
        return chosen(Target::Openclaw, key);
    }
    if skill.dir.join(META_FILE).is_file() {
        return chosen(Target::Openclaw, META_FILE);
    }
    if skill.dir.join(CLAWHUB_DIR).is_dir() {
        return chosen(Target::Openclaw, CLAWHUB_DIR);
    }
    // A skill nested in a ClawHub download (a bundle of sub-skills) has the bundle's.
    if skill
        .dir
        .ancestors()
        .skip(1)
        .take(ANCESTORS_SEARCHED)
        .any(|dir| dir.join(META_FILE).is_file())
    {
        return chosen(Target::Openclaw, "_meta.json of the folder above");
    }
    let text = skill
        .document
        .as_ref()
        .map_or("", |d| d.source.text.as_str());
    if memchr::memmem::find(text.as_bytes(), b"{baseDir}").is_some() {
        return chosen(Target::Openclaw, "{baseDir}");
    }
    chosen(Target::Portable, "no agent's fields")
}

/// The key that says the skill was made for Claude (`models: [claude-sonnet-4]`, `author:
/// claude-office-skills`); a description that mentions Claude talks about it, and does not count.
fn names_claude(skill: &Skill) -> Option<&'static str> {
    let manifest = skill.manifest()?;
    ["models", "model", "author"].into_iter().find(|key| {
        manifest.get(key).is_some_and(|e| {
            let text = skill
                .document
                .as_ref()
                .map_or("", |d| d.source.slice(e.value.span));
            text.to_ascii_lowercase().contains("claude")
        })
    })
}

/// How many folders above a skill are searched for the ClawHub bundle it came in.
const ANCESTORS_SEARCHED: usize = 3;

/// The frontmatter's text (empty without one).
fn frontmatter_text(skill: &Skill) -> &str {
    skill
        .document
        .as_ref()
        .ok()
        .and_then(|d| Some(d.source.slice(d.frontmatter?.yaml)))
        .unwrap_or("")
}

/// The requirements block the skill declares, by name; for a frontmatter YAML refuses (which
/// OpenClaw still reads line by line), a block name written as a key in its text.
fn declared_block(skill: &Skill) -> Option<&'static str> {
    if let Some(manifest) = skill.manifest() {
        let metadata = manifest.value("metadata").and_then(metadata_node)?;
        return BLOCK_NAMES
            .iter()
            .copied()
            .find(|b| metadata.get(b).is_some());
    }
    let frontmatter = frontmatter_text(skill);
    BLOCK_NAMES.iter().copied().find(|b| {
        frontmatter.contains(&format!("{b}:")) || frontmatter.contains(&format!("\"{b}\""))
    })
}

/// `metadata.NAME` as a static label.
fn block_label(block: &str) -> &'static str {
    match block {
        "openclaw" => "metadata.openclaw",
        "clawdbot" => "metadata.clawdbot",
        "moltbot" => "metadata.moltbot",
        "clawdis" => "metadata.clawdis",
        _ => "metadata.nanobot",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skill_model::agents::AGENTS;
    use skill_model::choice::Choice;

    #[test]
    fn every_agent_is_a_target() {
        for agent in AGENTS {
            assert!(Target::ALL.iter().any(|t| t.agent() == Some(agent)));
        }
    }
}
