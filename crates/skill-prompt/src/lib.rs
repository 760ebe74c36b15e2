#![warn(missing_docs)]
// Functions stay short enough to read at once; clippy.toml sets the bound (60 code lines).
#![warn(clippy::too_many_lines)]
//! The skills summary an agent puts in its system prompt, in the formats agents use: skills-ref's
//! `to-prompt` (`agentskills`), nanobot 0.3.5's grouped Markdown (`nanobot`) and v0.1's XML
//! (`nanobot-xml`), OpenClaw 2026.9.6's `<available_skills>` (`openclaw`), a Markdown list, and
//! JSON; the whole skills part of a system prompt; and `doctor`, what reaches the model.

mod agentskills;
pub mod claude;
pub mod codex;
pub mod copilot;
pub mod doctor;
pub mod gemini;
mod json;
mod markdown;
mod nanobot;
pub mod openclaw;
pub mod opencode;
mod system;
pub mod via;

pub use agentskills::render as render_agentskills;
pub use json::render as render_json;
pub use markdown::render as render_markdown;
pub use nanobot::{
    grouped as render_nanobot_grouped, prompt as nanobot_prompt, render as render_nanobot,
    section as nanobot_section,
};
pub use openclaw::{render as render_openclaw, section as openclaw_section};
pub use system::{PART_SEPARATOR, active_skills, skills_prompt};

use skill_model::agents::{Agent, AgentCatalog, Measure, Reading, facts, gated};
use skill_model::catalog::{Catalog, CatalogSkill, Root};
use skill_model::environment::Environment;
use skill_model::layout::SKILL_MD;
use skill_model::requirements::Requirements;
use skill_model::yaml::Value;
use std::path::{Path, PathBuf};

skill_model::choices! {
    /// Summary formats.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Format {
        Agentskills = "agentskills": "skills-ref `to-prompt`, byte for byte.",
        Nanobot = "nanobot": "nanobot 0.3.5's grouped Markdown, byte for byte (with nanobot's reading rules).",
        NanobotXml = "nanobot-xml": "nanobot v0.1's `<skills>` XML, byte for byte.",
        Openclaw = "openclaw": "OpenClaw 2026.9.6's catalog, byte for byte: its reading rules, order, budget and steps.",
        Markdown = "markdown": "One Markdown line per skill.",
        Json = "json": "JSON for scripts.",
    }
}

impl Format {
    /// The agent whose reading rules the format carries: a format that reproduces an agent
    /// reads skills that agent's way.
    pub fn agent(self) -> Option<Agent> {
        match self {
            Format::Openclaw => Some(Agent::Openclaw),
            Format::Nanobot => Some(Agent::Nanobot),
            _ => None,
        }
    }

    /// The format of `agent`'s own summary, else skills-ref's.
    pub fn of(agent: Option<Agent>) -> Format {
        match agent {
            Some(Agent::Nanobot) => Format::Nanobot,
            Some(Agent::Openclaw) => Format::Openclaw,
            _ => Format::Agentskills,
        }
    }
}

skill_model::choices! {
    /// Layouts of the skills part of a system prompt.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum PromptLayout {
        Nanobot = "nanobot": "nanobot 0.3.5's sections (`# Active Skills` and `# Skills`).",
        Openclaw = "openclaw": "OpenClaw 2026.9.6's `## Skills` section.",
        Claude = "claude": "Claude Code 2.1.328's skills listing (its own bundled skills left out).",
        Codex = "codex": "Codex 0.169.1's `<skills_instructions>`.",
        Gemini = "gemini": "Gemini CLI 0.61.0's `# Available Agent Skills` (its own built-in skills left out).",
        Opencode = "opencode": "OpenCode 1.18.33's skills block (its built-in skill left out).",
        Copilot = "copilot": "Copilot CLI 1.0.102's `<available_skills>` (its bundled skills counted, their text left out).",
    }
}

impl PromptLayout {
    /// The agent whose prompt this is.
    pub fn agent(self) -> Agent {
        match self {
            PromptLayout::Nanobot => Agent::Nanobot,
            PromptLayout::Openclaw => Agent::Openclaw,
            PromptLayout::Claude => Agent::Claude,
            PromptLayout::Codex => Agent::Codex,
            PromptLayout::Gemini => Agent::Gemini,
            PromptLayout::Opencode => Agent::Opencode,
            PromptLayout::Copilot => Agent::Copilot,
        }
    }

    /// `agent`'s own layout, else nanobot's.
    pub fn of(agent: Option<Agent>) -> PromptLayout {
        match agent {
            Some(Agent::Openclaw) => PromptLayout::Openclaw,
            Some(Agent::Claude) => PromptLayout::Claude,
            Some(Agent::Codex) => PromptLayout::Codex,
            Some(Agent::Gemini) => PromptLayout::Gemini,
            Some(Agent::Opencode) => PromptLayout::Opencode,
            Some(Agent::Copilot) => PromptLayout::Copilot,
            _ => PromptLayout::Nanobot,
        }
    }
}

/// What a rendering needs besides the listings.
#[derive(Debug, Clone, Copy)]
pub struct RenderContext<'a> {
    /// The roots the listings came from (nanobot groups by root).
    pub roots: &'a [Root],
    /// A character budget, if one was asked for.
    pub budget: Option<usize>,
    /// The home folder, which OpenClaw shows as `~`.
    pub home: Option<&'a Path>,
}

/// `listings` in `format`. OpenClaw's format applies its own budget steps (its default budget
/// when none is given); the others are not cut here (see [`fit`]).
pub fn render(format: Format, listings: &[Listing], cx: RenderContext) -> String {
    match format {
        Format::Agentskills => render_agentskills(listings),
        Format::Nanobot => render_nanobot_grouped(listings, cx.roots),
        Format::NanobotXml => render_nanobot(listings),
        Format::Openclaw => render_openclaw(
            listings,
            cx.budget.unwrap_or(openclaw::DEFAULT_BUDGET),
            cx.home,
        ),
        Format::Markdown => render_markdown(listings),
        Format::Json => render_json(listings),
    }
}

/// The skills part of a system prompt in `layout` (OpenClaw's at its default budget, the
/// others at `cx.budget`, else their agent's default).
pub fn render_prompt(layout: PromptLayout, listings: &[Listing], cx: RenderContext) -> String {
    let budget = |agent: Agent| {
        cx.budget
            .or(facts(agent).budget.map(|b| b.default_chars))
            .unwrap_or(usize::MAX)
    };
    match layout {
        PromptLayout::Nanobot => nanobot_prompt(listings, cx.roots),
        PromptLayout::Openclaw => openclaw_section(listings, openclaw::DEFAULT_BUDGET, cx.home),
        PromptLayout::Claude => claude::render(listings, budget(Agent::Claude)),
        PromptLayout::Codex => codex::render(listings, cx.roots, budget(Agent::Codex)),
        PromptLayout::Gemini => gemini::render(listings),
        PromptLayout::Opencode => opencode::render(listings),
        PromptLayout::Copilot => copilot::render(listings, cx.roots, budget(Agent::Copilot)),
    }
}

/// The prompt budget of `agent` here and where it comes from: the agent's env override, else
/// its share of `context_tokens` (at 4 characters per token unless it counts tokens), else its
/// default.
pub fn agent_budget(
    agent: Agent,
    env: &dyn Environment,
    context_tokens: Option<usize>,
) -> Option<(usize, String)> {
    let b = facts(agent).budget?;
    // Both agents with an override fall back to their default on 0 or on what is not a number.
    if let Some(name) = b.env_override
        && let Some(v) = env
            .var(name)
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|v| *v > 0)
    {
        return Some((v, name.to_owned()));
    }
    if let (Some(percent), Some(tokens)) = (b.context_percent, context_tokens) {
        return Some(match b.measure {
            // Saturating: a window of any size is a budget, never an overflow.
            Measure::Tokens => (
                tokens.saturating_mul(percent) / 100,
                format!("{percent}% of a {tokens}-token context"),
            ),
            _ => (
                tokens.saturating_mul(4 * percent) / 100,
                format!("{percent}% of a {tokens}-token context at 4 characters per token"),
            ),
        });
    }
    Some((b.default_chars, "default".to_owned()))
}

/// A summary cut to a budget: the text, and how many skills it left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fitted {
    /// The rendered summary.
    pub text: String,
    /// Skills dropped from the end to fit.
    pub dropped: usize,
}

/// Renders `listings` in `format`, dropping skills from the end until the text fits in
/// `budget` characters. OpenClaw's format has its own steps, so it is rendered as is.
pub fn fit(format: Format, listings: &mut Vec<Listing>, cx: RenderContext) -> Fitted {
    let before = listings.len();
    let mut text = render(format, listings, cx);
    if let (Some(budget), false) = (cx.budget, format == Format::Openclaw) {
        while text.chars().count() > budget && !listings.is_empty() {
            listings.pop();
            text = render(format, listings, cx);
        }
    }
    Fitted {
        text,
        dropped: before - listings.len(),
    }
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
    /// The absolute path of the skill's SKILL.md: symlink-free under the portable reading (as
    /// skills-ref resolves it), as reached through the root under an agent's.
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

/// The listings of every skill in `catalog`, in catalog order, requirements read and gated the
/// `reading`'s way.
pub fn listings(catalog: &Catalog, reading: Reading, env: &dyn Environment) -> Vec<Listing> {
    use rayon::prelude::*;
    catalog
        .skills
        .par_iter()
        .map(|entry| listing(catalog, entry, reading, env))
        .collect()
}

/// One catalog skill's listing: its frontmatter read the `reading`'s way.
fn listing(
    catalog: &Catalog,
    entry: &CatalogSkill,
    reading: Reading,
    env: &dyn Environment,
) -> Listing {
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
    let requirements = manifest
        .map(|m| Requirements::from_blocks(m, text, reading.metadata_blocks))
        .unwrap_or_default();
    let availability = gated(&requirements, reading.gates, env);
    Listing {
        name: entry.name.clone(),
        declared_name: field("name")
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| entry.name.clone()),
        description: field("description")
            .filter(|d| !d.trim().is_empty())
            .unwrap_or_else(|| entry.name.clone()),
        location: listed_file(skill, reading),
        root: catalog.roots[entry.root].label.clone(),
        available: availability.is_available(),
        missing: availability.describe(),
        always: requirements.always,
        hidden: manifest.is_some_and(invocation_disabled),
        body: skill
            .document
            .as_ref()
            .map(|d| d.body().trim().to_owned())
            .unwrap_or_default(),
    }
}

/// The skill's file as the agent names it: through its links when the `reading` resolves
/// them, else as an absolute path.
fn listed_file(skill: &skill_model::Skill, reading: Reading) -> PathBuf {
    let dir = if reading.resolves_links {
        std::fs::canonicalize(&skill.dir).unwrap_or_else(|_| skill.dir.clone())
    } else {
        std::path::absolute(&skill.dir).unwrap_or_else(|_| skill.dir.clone())
    };
    let file_name = skill
        .file
        .as_ref()
        .and_then(|f| f.file_name())
        .map(PathBuf::from)
        .unwrap_or_else(|| SKILL_MD.into());
    dir.join(file_name)
}

/// `disable-model-invocation: true`, as a boolean or as the text `true`.
fn invocation_disabled(manifest: &skill_model::Manifest) -> bool {
    manifest.value("disable-model-invocation").is_some_and(|v| {
        matches!(&v.value, Value::Bool(true)) || v.as_str().is_some_and(|s| s.trim() == "true")
    })
}

/// The listings of an agent's catalog (what that agent loaded, as it sees each skill) and its
/// roots. It takes the catalog, so each skill's body moves into its listing rather than being
/// copied: a summary of thousands of skills holds each text once.
pub fn agent_listings(catalog: AgentCatalog) -> (Vec<Listing>, Vec<Root>) {
    let listings = catalog
        .skills
        .into_iter()
        .map(|s| Listing {
            available: s.availability.is_available(),
            missing: s.availability.describe(),
            root: catalog.roots[s.root].label.clone(),
            declared_name: s.declared_name,
            name: s.name,
            description: s.description,
            location: s.file,
            always: s.always,
            hidden: s.hidden.is_some(),
            body: s.body,
        })
        .collect();
    (listings, catalog.roots)
}

/// `&`, `<`, `>` and `"` as XML entities, and `'` as `apostrophe`: each agent writes that one
/// its own way (`&apos;`, `&#39;`, Python's `&#x27;`).
pub(crate) fn escape_xml(text: &str, apostrophe: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', apostrophe)
}

/// Python's `html.escape(s, quote=True)`.
pub(crate) fn escape_html(text: &str) -> String {
    escape_xml(text, "&#x27;")
}
