//! The skills summary an agent puts in its system prompt, in the formats agents use: skills-ref's
//! `to-prompt` (`agentskills`), nanobot 0.3.5's grouped Markdown (`nanobot`) and v0.1's XML
//! (`nanobot-xml`), OpenClaw 2026.9.2's `<available_skills>` (`openclaw`), a Markdown list, and
//! JSON; the whole skills part of a system prompt; and `doctor`, what reaches the model.

mod agentskills;
pub mod doctor;
mod json;
mod markdown;
mod nanobot;
pub mod openclaw;
mod system;
pub mod via;

pub use agentskills::render as render_agentskills;
pub use json::render as render_json;
pub use markdown::render as render_markdown;
pub use nanobot::{
    grouped as render_nanobot_grouped, prompt as nanobot_prompt, render as render_nanobot,
    section as nanobot_section,
};
pub use openclaw::{
    Prepared, prepare as prepare_openclaw, render as render_openclaw, section as openclaw_section,
};
pub use system::{PART_SEPARATOR, active_skills, skills_prompt};

use crate::skill::agents::AgentCatalog;
use crate::skill::availability::Availability;
use crate::skill::catalog::Catalog;
use crate::skill::environment::Environment;
use crate::skill::requirements::{NANOBOT_BLOCK_NAMES, Requirements};
use crate::skill::yaml::Value;
use std::path::PathBuf;

crate::choices! {
    /// Summary formats.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Format {
        Agentskills = "agentskills": "skills-ref `to-prompt`, byte for byte.",
        Nanobot = "nanobot": "nanobot 0.3.5's grouped Markdown, byte for byte (with nanobot's reading rules).",
        NanobotXml = "nanobot-xml": "nanobot v0.1's `<skills>` XML, byte for byte.",
        Openclaw = "openclaw": "OpenClaw 2026.9.2's catalog, byte for byte: its reading rules, order, budget and steps.",
        Markdown = "markdown": "One Markdown line per skill.",
        Json = "json": "JSON for scripts.",
    }
}

/// Whose availability rules apply: nanobot reads `metadata.nanobot` (else `openclaw`) and checks
/// bins and env only; OpenClaw also checks `anyBins` and `os`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// nanobot's rules.
    Nanobot,
    /// OpenClaw's rules.
    Openclaw,
}

/// One skill as a summary shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Listing {
    /// The folder name (how agents key skills).
    pub name: String,
    /// The frontmatter `name` (the folder name when absent).
    pub declared_name: String,
    /// The description as parsed (the folder name when absent).
    pub description: String,
    /// The absolute path of the skill's SKILL.md: symlink-free (resolved) for the formats whose
    /// reference resolves it (skills-ref, OpenClaw), as reached through the root for nanobot.
    pub location: PathBuf,
    /// The label of the skill's root.
    pub root: String,
    /// Whether its requirements hold here.
    pub available: bool,
    /// What is missing, as nanobot words it (`CLI: gh, ENV: TOKEN`).
    pub missing: String,
    /// Always-on (`always: true` at the top or in the requirements block).
    pub always: bool,
    /// `disable-model-invocation: true`: kept out of the model's prompt by OpenClaw.
    pub hidden: bool,
    /// The body, trimmed: what `# Active Skills` injects when the skill is always-on.
    #[serde(skip)]
    pub body: String,
}

/// The listings of every skill in `catalog`, in catalog order.
pub fn listings(catalog: &Catalog, gate: Gate, env: &dyn Environment) -> Vec<Listing> {
    use rayon::prelude::*;
    catalog
        .skills
        .par_iter()
        .map(|entry| {
            let skill = &entry.skill;
            let manifest = skill.manifest();
            let text = skill
                .document
                .as_ref()
                .map(|d| d.source.text.as_str())
                .unwrap_or("");
            let field = |key: &str| {
                manifest
                    .and_then(|m| m.value(key))
                    .and_then(|v| v.scalar_text(text))
                    .map(str::to_owned)
            };
            let requirements = match (manifest, gate) {
                (Some(m), Gate::Nanobot) => {
                    nanobot_requirements(Requirements::from_blocks(m, text, &NANOBOT_BLOCK_NAMES))
                }
                (Some(m), Gate::Openclaw) => Requirements::from_manifest(m, text),
                (None, _) => Requirements::default(),
            };
            let availability = Availability::check(&requirements, env);
            let dir = match gate {
                Gate::Nanobot => {
                    std::path::absolute(&skill.dir).unwrap_or_else(|_| skill.dir.clone())
                }
                Gate::Openclaw => {
                    std::fs::canonicalize(&skill.dir).unwrap_or_else(|_| skill.dir.clone())
                }
            };
            let file_name = skill
                .file
                .as_ref()
                .and_then(|f| f.file_name())
                .map(PathBuf::from)
                .unwrap_or_else(|| "SKILL.md".into());
            let hidden = manifest
                .and_then(|m| m.value("disable-model-invocation"))
                .is_some_and(|v| {
                    matches!(&v.value, Value::Bool(true))
                        || v.as_str().is_some_and(|s| s.trim() == "true")
                });
            Listing {
                name: entry.name.clone(),
                declared_name: field("name")
                    .filter(|n| !n.trim().is_empty())
                    .unwrap_or_else(|| entry.name.clone()),
                description: field("description")
                    .filter(|d| !d.trim().is_empty())
                    .unwrap_or_else(|| entry.name.clone()),
                location: dir.join(file_name),
                root: catalog.roots[entry.root].label.clone(),
                available: availability.is_available(),
                missing: availability.describe(),
                always: requirements.always,
                hidden,
                body: skill
                    .document
                    .as_ref()
                    .map(|d| d.body().trim().to_owned())
                    .unwrap_or_default(),
            }
        })
        .collect()
}

/// The listings of an agent's catalog: what that agent loaded, as it sees each skill.
pub fn agent_listings(catalog: &AgentCatalog) -> Vec<Listing> {
    catalog
        .skills
        .iter()
        .map(|s| Listing {
            name: s.name.clone(),
            declared_name: s.name.clone(),
            description: s.description.clone(),
            location: s.file.clone(),
            root: catalog.roots[s.root].label.clone(),
            available: s.availability.is_available(),
            missing: s.availability.describe(),
            always: s.always,
            hidden: !s.model_invocable,
            body: s.body.clone(),
        })
        .collect()
}

/// nanobot gates on bins and env only.
fn nanobot_requirements(full: Requirements) -> Requirements {
    Requirements {
        any_bins: Vec::new(),
        os: Vec::new(),
        config: Vec::new(),
        ..full
    }
}

/// Python's `html.escape(s, quote=True)`.
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}
