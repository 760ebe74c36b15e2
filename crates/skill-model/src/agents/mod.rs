//! What each agent does with a skill root, in one place: the table of facts (roots, which file
//! counts, which metadata names it reads, parser, caps, budgets) that `lint --target`, `summary`,
//! `check` and `doctor` read, and a reader per agent that loads roots the way that agent does,
//! keeping for every folder why it did or did not become a skill.
//!
//! Not here: rendering (see `prompt`), and the generic, spec-shaped catalog of
//! [`super::catalog`] that lint and the skills-ref format use.

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod gemini;
pub mod nanobot;
pub mod openclaw;
pub mod opencode;
pub mod text;

use super::availability::Availability;
pub use super::catalog::Agent;
use super::catalog::{Root, Shadowed};
use super::environment::Environment;
use super::requirements::{BLOCK_NAMES, Requirements};
use crate::layout::SKILL_MD;
use std::path::{Path, PathBuf};

/// Every agent with a preset, in the order reports list them.
pub const AGENTS: [Agent; 7] = [
    Agent::Openclaw,
    Agent::Nanobot,
    Agent::Claude,
    Agent::Codex,
    Agent::Gemini,
    Agent::Opencode,
    Agent::Copilot,
];

/// How an agent caps the skills list in its system prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromptBudget {
    /// The default size of the list, in characters.
    pub default_chars: usize,
    /// What the budget counts.
    pub measure: Measure,
    /// The share of the model's context window, in percent, when the agent scales the budget
    /// (at 4 characters per token); `None` when the budget is a fixed number.
    pub context_percent: Option<usize>,
    /// The env var that overrides the budget, if any.
    pub env_override: Option<&'static str>,
    /// The longest description one entry may keep, if the agent cuts each one.
    pub description_cap: Option<usize>,
    /// Most skills in the list.
    pub max_skills: Option<usize>,
    /// What happens over budget, in order.
    pub steps: &'static [&'static str],
}

/// What a prompt budget counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Unicode scalar values.
    Chars,
    /// UTF-16 code units (JavaScript's `.length`).
    Utf16,
    /// Terminal columns (Bun's `stringWidth`).
    Columns,
    /// Tokens, each line of the list costing its bytes and newline over four, rounded up.
    Tokens,
}

impl Measure {
    /// What a size in this measure is called.
    pub fn unit(self) -> &'static str {
        match self {
            Measure::Columns => "columns",
            Measure::Tokens => "tokens",
            Measure::Chars | Measure::Utf16 => "characters",
        }
    }
}

/// The reason a skill whose frontmatter says `disable-model-invocation: true` is hidden.
pub(crate) const DISABLED_INVOCATION: &str = "disable-model-invocation: true";

/// A skill an agent lists of its own, beside those of its roots: only what its budget needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BundledSkill {
    /// Its name.
    pub name: &'static str,
    /// The size of its entry, in the budget's measure.
    pub size: usize,
    /// Its entry may collapse to the bare name when over budget.
    pub collapsible: bool,
}

/// Limits an agent applies to each root it scans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootLimits {
    /// Folders looked at per root (sorted by name first).
    pub candidates: usize,
    /// Skills loaded per root.
    pub loaded: usize,
    /// Largest `SKILL.md` read, in bytes.
    pub file_bytes: usize,
    /// Deepest folder under a root where a `SKILL.md` is looked for.
    pub depth: usize,
}

/// The facts about one agent that decide what it loads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    /// The agent.
    pub agent: Agent,
    /// Its name in messages.
    pub name: &'static str,
    /// The release these facts describe.
    pub release: &'static str,
    /// How the agent keys skills: by the frontmatter `name` (else the folder), or the folder.
    pub identity_is_folder: bool,
    /// File names that make a folder a skill, in preference order.
    pub skill_files: &'static [&'static str],
    /// The `metadata` keys read for requirements, first present wins.
    pub metadata_blocks: &'static [&'static str],
    /// Which requirements gate a skill: bins, anyBins, env, config, os.
    pub gates: Gates,
    /// The YAML the frontmatter is read with.
    pub yaml: &'static str,
    /// A skill without a description is dropped (instead of shown with a fallback).
    pub requires_description: bool,
    /// Longest description accepted; longer ones drop the skill.
    pub description_max: Option<usize>,
    /// Longest name accepted; longer ones drop the skill.
    pub name_max: Option<usize>,
    /// The prompt budget.
    pub budget: Option<PromptBudget>,
    /// The skills the agent lists of its own, in its order.
    pub bundled: &'static [BundledSkill],
    /// Per-root limits.
    pub root_limits: Option<RootLimits>,
    /// Folders whose name starts with `.` are skipped.
    pub skips_hidden: bool,
    /// A skill inside another skill's folder is listed on its own (the agent keeps searching
    /// below a folder that holds a `SKILL.md`). Where it is not, its description routes
    /// nothing: the parent is what the model chooses.
    pub lists_nested: bool,
    /// The path shown for a skill has its symlinks resolved (else it is as reached through
    /// the root).
    pub resolves_links: bool,
    /// Top-level frontmatter keys the agent reads beyond the Agent Skills spec.
    pub keys: &'static [&'static str],
    /// Words a skill name may not contain.
    pub reserved_name_words: &'static [&'static str],
    /// A description length the agent's own tooling has advised, short of a limit.
    pub description_advice: Option<Advice>,
    /// Commands always on PATH where the agent runs, because the agent runs on them (OpenClaw is
    /// a Node.js program, nanobot a Python one): declaring them gates nothing.
    pub runtime: &'static [&'static str],
    /// Where a user-level install for the agent goes, relative to the home folder: one of its
    /// roots.
    pub user_folder: &'static str,
    /// Where the agent reads a project's skills, relative to the project.
    pub project_folder: &'static str,
    /// Folders under the home folder the agent keeps its settings in: one existing means the
    /// agent is installed for that user.
    pub settings_folders: &'static [&'static str],
    /// The tools the agent gives its model, by name. A skill's code block that calls one
    /// (`process action:log sessionId:X`, `message action=send ...`) shows the model a tool
    /// call, not a command on PATH.
    pub tools: &'static [&'static str],
}

/// A limit that is cited for an agent but not enforced by it: worth a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Advice {
    /// The advised maximum, in characters.
    pub max: usize,
    /// Who cites it, as messages say it.
    pub cited_by: &'static str,
}

impl Facts {
    /// How this agent reads requirements and paths, for listings built from a generic catalog.
    pub fn reading(&self) -> Reading {
        Reading {
            metadata_blocks: self.metadata_blocks,
            gates: self.gates,
            resolves_links: self.resolves_links,
        }
    }
}

/// How a listing reads a skill's requirements and shows its path: an agent's rules, or the
/// portable reading that takes every block name and every gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    /// The `metadata` keys read for requirements, first present wins.
    pub metadata_blocks: &'static [&'static str],
    /// Which requirements gate a skill.
    pub gates: Gates,
    /// Paths have their symlinks resolved.
    pub resolves_links: bool,
}

impl Reading {
    /// Every requirements block name any agent has read, every gate, resolved paths: what a
    /// skill needs wherever it runs.
    pub const PORTABLE: Reading = Reading {
        metadata_blocks: &BLOCK_NAMES,
        gates: ALL_GATES,
        resolves_links: true,
    };
}

/// The agents that read `key` at the top of the frontmatter, beyond the spec.
pub fn readers_of_key(key: &str) -> impl Iterator<Item = &'static Facts> + '_ {
    AGENTS
        .iter()
        .map(|a| facts(*a))
        .filter(move |f| f.keys.contains(&key))
}

/// The requirements block name every agent that reads one reads (`openclaw`).
pub fn universal_block() -> &'static str {
    BLOCK_NAMES
        .into_iter()
        .find(|name| {
            AGENTS
                .iter()
                .map(|a| facts(*a))
                .all(|f| f.metadata_blocks.is_empty() || f.metadata_blocks.contains(name))
        })
        .unwrap_or(BLOCK_NAMES[0])
}

/// The agents that read requirements from `metadata.<block>`.
pub fn readers_of_block(block: &str) -> impl Iterator<Item = &'static Facts> + '_ {
    AGENTS
        .iter()
        .map(|a| facts(*a))
        .filter(move |f| f.metadata_blocks.contains(&block))
}

/// Which declared requirements an agent checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Gates {
    /// `requires.bins`.
    pub bins: bool,
    /// `requires.anyBins`.
    pub any_bins: bool,
    /// `requires.env`.
    pub env: bool,
    /// `requires.config`.
    pub config: bool,
    /// `os`.
    pub os: bool,
}

/// The facts about `agent`.
pub const fn facts(agent: Agent) -> &'static Facts {
    match agent {
        Agent::Openclaw => &openclaw::FACTS,
        Agent::Nanobot => &nanobot::FACTS,
        Agent::Claude => &claude::FACTS,
        Agent::Codex => &codex::FACTS,
        Agent::Gemini => &gemini::FACTS,
        Agent::Opencode => &opencode::FACTS,
        Agent::Copilot => &copilot::FACTS,
    }
}

/// Every declared requirement gates a skill.
pub(crate) const ALL_GATES: Gates = Gates {
    bins: true,
    any_bins: true,
    env: true,
    config: true,
    os: true,
};

/// No requirements gate a skill.
pub(crate) const NO_GATES: Gates = Gates {
    bins: false,
    any_bins: false,
    env: false,
    config: false,
    os: false,
};

/// Every `SKILL.md` at or below `dir`, at most `depth` folders down, folders sorted by name
/// (dot folders left out when `skip_dots`), links followed but no real folder entered twice
/// (a link to a parent would otherwise loop).
fn skill_files(dir: &Path, depth: usize, skip_dots: bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut visited = std::collections::HashSet::new();
    let mut stack = vec![(dir.to_path_buf(), 0)];
    while let Some((dir, level)) = stack.pop() {
        let Ok(real) = std::fs::canonicalize(&dir) else {
            continue;
        };
        if !visited.insert(real) {
            continue;
        }
        let file = dir.join(SKILL_MD);
        if file.is_file() {
            found.push(file);
        }
        if level == depth {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut dirs: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| !(skip_dots && e.file_name().to_string_lossy().starts_with('.')))
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        stack.extend(dirs.into_iter().rev().map(|d| (d, level + 1)));
    }
    found
}

/// Where the frontmatter after an opening `---` line ends: the start of the first line that is
/// `---` (trailing spaces allowed).
fn closing_fence(rest: &str) -> Option<usize> {
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some(at);
        }
        at += line.len();
    }
    None
}

/// The folders directly in `root` with only a lower-case `skill.md`, which no agent here reads,
/// as drops of root `index`.
fn lowercase_only(root: &Path, index: usize) -> Vec<Dropped> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("skill.md").is_file() && !p.join(SKILL_MD).is_file())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| Dropped {
            dir,
            root: index,
            reason: DropReason::LowercaseFile,
        })
        .collect()
}

/// Why an agent does not make a skill of a folder.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum DropReason {
    /// Only a lower-case `skill.md`, which the agent does not read.
    LowercaseFile,
    /// The file could not be read (or is not UTF-8 text).
    Unreadable {
        /// What went wrong.
        detail: String,
    },
    /// Over the agent's file size limit.
    TooLarge {
        /// The file's size.
        bytes: u64,
        /// The limit.
        max: usize,
    },
    /// Frontmatter the agent's parser rejects.
    Yaml {
        /// The parser's complaint, in the agent's words where known.
        detail: String,
    },
    /// No description.
    NoDescription,
    /// A description over the agent's cap.
    DescriptionTooLong {
        /// Its length in characters.
        chars: usize,
        /// The cap.
        max: usize,
    },
    /// A name the agent refuses.
    Name {
        /// Which rule.
        detail: String,
    },
    /// The folder resolves outside its root (a symlink).
    OutsideRoot,
    /// The user turned it off in the agent's settings.
    TurnedOff {
        /// The settings file.
        by: String,
    },
    /// Beyond the per-root limit of folders looked at or skills loaded.
    RootLimit {
        /// The limit that was hit.
        detail: String,
    },
}

impl std::fmt::Display for DropReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DropReason::LowercaseFile => write!(f, "only skill.md; the agent reads SKILL.md"),
            DropReason::Unreadable { detail } => write!(f, "cannot read SKILL.md: {detail}"),
            DropReason::TooLarge { bytes, max } => {
                write!(f, "SKILL.md is {bytes} bytes, over the {max}-byte limit")
            }
            DropReason::Yaml { detail } => write!(f, "frontmatter it cannot read: {detail}"),
            DropReason::NoDescription => write!(f, "no description"),
            DropReason::DescriptionTooLong { chars, max } => write!(
                f,
                "description of {chars} characters, over the {max}-character cap"
            ),
            DropReason::Name { detail } => write!(f, "name: {detail}"),
            DropReason::OutsideRoot => write!(f, "resolves outside its root"),
            DropReason::RootLimit { detail } => write!(f, "beyond the root's limit: {detail}"),
            DropReason::TurnedOff { by } => write!(f, "turned off in {by}"),
        }
    }
}

/// A skill an agent loaded, as that agent sees it.
#[derive(Debug, Clone)]
pub struct AgentSkill {
    /// The name the agent keys it by.
    pub name: String,
    /// The frontmatter `name` as the agent reads it (its key when absent).
    pub declared_name: String,
    /// The folder's own name.
    pub dir_name: String,
    /// The skill folder, as reached through its root.
    pub dir: PathBuf,
    /// The `SKILL.md` path the agent shows the model (absolute).
    pub file: PathBuf,
    /// Index of its root.
    pub root: usize,
    /// The description as the agent shows it (untrimmed where the agent does not trim).
    pub description: String,
    /// The requirements the agent reads.
    pub requirements: Requirements,
    /// Whether those hold here, by the agent's gates.
    pub availability: Availability,
    /// Always-on (nanobot injects its body; OpenClaw skips the requirements).
    pub always: bool,
    /// Why the agent keeps it out of the model's list although it loaded it
    /// (`disable-model-invocation: true`, Codex's policy, Claude Code's `paths`), if it does.
    pub hidden: Option<&'static str>,
    /// What `# Active Skills` injects when always-on (nanobot's rules).
    pub body: String,
}

impl AgentSkill {
    /// A skill as an agent that gates nothing lists it: the frontmatter name is its key, the
    /// model may invoke it.
    fn listed(name: String, file: PathBuf, root: usize, description: String) -> AgentSkill {
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        AgentSkill {
            declared_name: name.clone(),
            name,
            dir_name: dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            file: std::path::absolute(&file).unwrap_or(file),
            dir,
            root,
            description,
            requirements: Requirements::default(),
            availability: Availability::default(),
            always: false,
            hidden: None,
            body: String::new(),
        }
    }
}

/// `dir` (of root `root`) as hidden by the skill of `name` already loaded, if there is one.
fn shadowed_by(skills: &[AgentSkill], name: &str, dir: &Path, root: usize) -> Option<Shadowed> {
    let winner = skills.iter().find(|s| s.name == name)?;
    Some(Shadowed {
        name: name.to_owned(),
        dir: dir.to_path_buf(),
        root,
        by_root: winner.root,
        by_dir: winner.dir.clone(),
    })
}

/// A folder that did not become a skill.
#[derive(Debug, Clone)]
pub struct Dropped {
    /// The folder.
    pub dir: PathBuf,
    /// Its root.
    pub root: usize,
    /// Why.
    pub reason: DropReason,
}

/// What one agent makes of its roots.
#[derive(Debug, Clone)]
pub struct AgentCatalog {
    /// The agent.
    pub agent: Agent,
    /// The roots, highest precedence first.
    pub roots: Vec<Root>,
    /// The skills it loaded, in the agent's own order (sorted where the agent sorts).
    pub skills: Vec<AgentSkill>,
    /// Folders it did not load, and why.
    pub dropped: Vec<Dropped>,
    /// Skills hidden by one of the same name.
    pub shadowed: Vec<Shadowed>,
}

impl AgentCatalog {
    /// Reads `roots` the way `agent` does; `env` decides availability.
    pub fn load(agent: Agent, roots: Vec<Root>, env: &dyn Environment) -> AgentCatalog {
        match agent {
            Agent::Openclaw => openclaw::load(roots, env),
            Agent::Nanobot => nanobot::load(roots, env),
            Agent::Claude => claude::load(roots),
            Agent::Codex => codex::load(roots),
            Agent::Gemini => gemini::load(roots),
            Agent::Opencode => opencode::load(roots),
            Agent::Copilot => copilot::load(roots),
        }
    }

    /// Keeps the skills named in `names` (by the agent's key or the folder name); the names
    /// that match nothing are returned.
    pub fn retain_named(&mut self, names: &[String]) -> Vec<String> {
        let hit = |s: &AgentSkill| names.contains(&s.name) || names.contains(&s.dir_name);
        let missing = names
            .iter()
            .filter(|n| {
                !self
                    .skills
                    .iter()
                    .any(|s| &s.name == *n || &s.dir_name == *n)
                    && !self
                        .dropped
                        .iter()
                        .any(|d| d.dir.file_name().is_some_and(|f| f == n.as_str()))
            })
            .cloned()
            .collect();
        self.skills.retain(hit);
        self.dropped.retain(|d| {
            d.dir
                .file_name()
                .is_some_and(|f| names.iter().any(|n| f == n.as_str()))
        });
        self.shadowed.retain(|s| names.contains(&s.name));
        missing
    }
}

/// The availability of `requirements` under `gates`: requirements an agent does not check
/// are left out first.
pub fn gated(requirements: &Requirements, gates: Gates, env: &dyn Environment) -> Availability {
    let kept = Requirements {
        bins: if gates.bins {
            requirements.bins.clone()
        } else {
            Vec::new()
        },
        any_bins: if gates.any_bins {
            requirements.any_bins.clone()
        } else {
            Vec::new()
        },
        env: if gates.env {
            requirements.env.clone()
        } else {
            Vec::new()
        },
        config: if gates.config {
            requirements.config.clone()
        } else {
            Vec::new()
        },
        os: if gates.os {
            requirements.os.clone()
        } else {
            Vec::new()
        },
        ..Requirements::default()
    };
    Availability::check(&kept, env)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::Choice;
    use crate::environment::FakeEnvironment;

    /// Each agent's reader lists a skill inside another skill's folder exactly when its facts
    /// say so.
    #[test]
    fn nested_skills_are_listed_as_each_agents_facts_say() {
        let tmp = tempfile::tempdir().unwrap();
        for (dir, name) in [("pdf", "pdf"), ("pdf/forms", "pdf-forms")] {
            let dir = tmp.path().join(dir);
            std::fs::create_dir_all(&dir).unwrap();
            let text =
                format!("---\nname: {name}\ndescription: Works with PDF files.\n---\n\nBody.\n");
            std::fs::write(dir.join(SKILL_MD), text).unwrap();
        }
        for agent in Agent::ALL {
            let roots = vec![Root::plain(tmp.path())];
            let catalog = AgentCatalog::load(*agent, roots, &FakeEnvironment::default());
            let names: Vec<&str> = catalog.skills.iter().map(|s| s.dir_name.as_str()).collect();
            assert!(names.contains(&"pdf"), "{agent:?}: {names:?}");
            assert_eq!(
                names.contains(&"forms"),
                facts(*agent).lists_nested,
                "{agent:?}: {names:?}"
            );
        }
    }
}
