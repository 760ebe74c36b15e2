//! Lint targets: which agent's (or validator's) rules a skill is checked against.

use skill_model::Skill;
use skill_model::agents::{AGENTS, Agent, Facts, Reading, facts};
use skill_model::layout::{CLAWHUB_DIR, META_FILE};
use skill_model::requirements::{BLOCK_NAMES, metadata_node};
use std::path::Path;

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
            from: GIVEN,
        }
    }

    /// Whether the target was inferred from the skill rather than given.
    pub(crate) fn is_inferred(&self) -> bool {
        self.from != GIVEN
    }
}

/// What chose a target the user gave.
const GIVEN: &str = "--target";
/// What chose OpenClaw for a skill in a folder a ClawHub download holds.
const FROM_ABOVE: &str = "_meta.json of the folder above";
const ALWAYS: &str = "always";
const OPENAI_YAML: &str = "agents/openai.yaml";
const BASE_DIR: &str = "{baseDir}";
const NO_FIELDS: &str = "no agent's fields";
/// The keys whose value naming Claude says the skill was made for it.
const CLAUDE_NAMING_KEYS: [&str; 3] = ["models", "model", "author"];

/// What a skill's own folder says of its target. A folder above may still decide it when the
/// skill says nothing plainer: a skill nested in a ClawHub download has the download's. The
/// lint cache keeps this with a skill's findings, so a skill nothing changed in is not parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "(Target, String, bool)", try_from = "(Target, String, bool)")]
pub(crate) struct Declared {
    chosen: Chosen,
    above_decides: bool,
}

impl Declared {
    /// The target to lint the skill in `dir` for: `given` by the user, else this one.
    pub(crate) fn or_given(self, given: Option<Target>, dir: &Path) -> Chosen {
        self.or_given_asking(given, dir, &|folder| folder.join(META_FILE).is_file())
    }

    /// [`Declared::or_given`], asking `holds_meta` whether a folder holds a `_meta.json`.
    pub(crate) fn or_given_asking(
        self,
        given: Option<Target>,
        dir: &Path,
        holds_meta: &dyn Fn(&Path) -> bool,
    ) -> Chosen {
        given.map_or_else(|| self.resolve(dir, holds_meta), Chosen::given)
    }

    /// The target, after looking at the folders above the skill in `dir` when they decide.
    fn resolve(self, dir: &Path, holds_meta: &dyn Fn(&Path) -> bool) -> Chosen {
        let above = || {
            dir.ancestors()
                .skip(1)
                .take(ANCESTORS_SEARCHED)
                .any(holds_meta)
        };
        if self.above_decides && above() {
            return Chosen {
                target: Target::Openclaw,
                from: FROM_ABOVE,
            };
        }
        self.chosen
    }
}

impl From<Declared> for (Target, String, bool) {
    fn from(declared: Declared) -> Self {
        let Chosen { target, from } = declared.chosen;
        (target, from.to_owned(), declared.above_decides)
    }
}

impl TryFrom<(Target, String, bool)> for Declared {
    type Error = String;

    fn try_from((target, from, above_decides): (Target, String, bool)) -> Result<Self, String> {
        let from = label(&from).ok_or_else(|| format!("no target is chosen by {from:?}"))?;
        Ok(Declared {
            chosen: Chosen { target, from },
            above_decides,
        })
    }
}

/// The label of what chose a target, among those inference gives.
fn label(text: &str) -> Option<&'static str> {
    [
        GIVEN,
        FROM_ABOVE,
        ALWAYS,
        OPENAI_YAML,
        BASE_DIR,
        NO_FIELDS,
        META_FILE,
        CLAWHUB_DIR,
    ]
    .into_iter()
    .chain(CLAUDE_NAMING_KEYS)
    .chain(BLOCK_NAMES.iter().map(|b| block_label(b)))
    .chain(
        AGENTS
            .into_iter()
            .flat_map(|a| facts(a).keys.iter().copied()),
    )
    .find(|label| *label == text)
}

/// The agent a skill was written for, from what it declares, in order of how plainly it says
/// so: a requirements block under `metadata` (OpenClaw's names, else nanobot's), nanobot's
/// `always`, Codex's `agents/openai.yaml`, a frontmatter key only Claude Code reads, a key only
/// OpenClaw reads, ClawHub's install metadata (a skill downloaded from ClawHub, which serves
/// OpenClaw), and `{baseDir}`, which only OpenClaw substitutes. Otherwise the spec (portable).
pub fn infer(skill: &Skill) -> Chosen {
    declared(skill).or_given(None, &skill.dir)
}

/// [`infer`] as far as the skill's own folder decides it.
pub(crate) fn declared(skill: &Skill) -> Declared {
    let chosen = |target, from| Declared {
        chosen: Chosen { target, from },
        above_decides: false,
    };
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
    if keys.contains(&ALWAYS) {
        return chosen(Target::Nanobot, ALWAYS);
    }
    if skill.dir.join(OPENAI_YAML).is_file() {
        return chosen(Target::Codex, OPENAI_YAML);
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
    unless_above(skill)
}

/// What a skill that says nothing plainer is written for, unless a folder above decides.
fn unless_above(skill: &Skill) -> Declared {
    let text = skill
        .document
        .as_ref()
        .map_or("", |d| d.source.text.as_str());
    let otherwise = if memchr::memmem::find(text.as_bytes(), BASE_DIR.as_bytes()).is_some() {
        Chosen {
            target: Target::Openclaw,
            from: BASE_DIR,
        }
    } else {
        Chosen {
            target: Target::Portable,
            from: NO_FIELDS,
        }
    };
    Declared {
        chosen: otherwise,
        above_decides: true,
    }
}

/// The key that says the skill was made for Claude (`models: [claude-sonnet-4]`, `author:
/// claude-office-skills`); a description that mentions Claude talks about it, and does not count.
fn names_claude(skill: &Skill) -> Option<&'static str> {
    let manifest = skill.manifest()?;
    CLAUDE_NAMING_KEYS.into_iter().find(|key| {
        manifest.get(key).is_some_and(|e| {
            let text = skill
                .document
                .as_ref()
                .map_or("", |d| d.source.slice(e.value.span));
            text.to_ascii_lowercase().contains("claude")
        })
    })
}

/// Whether the skill in `dir` lies inside another skill's folder: one of the folders above it
/// (as far as a bundle is searched) holds a `SKILL.md`, as `holds_skill` says. OpenClaw and
/// nanobot look no further into a folder that holds a `SKILL.md`, so such a skill is never
/// listed, or gated, on its own: its parent is what they load.
pub(crate) fn nested(dir: &Path, holds_skill: &dyn Fn(&Path) -> bool) -> bool {
    dir.ancestors()
        .skip(1)
        .take(ANCESTORS_SEARCHED)
        .any(holds_skill)
}

/// [`nested`] as the disk answers it: a folder holds a skill when its `SKILL.md` is a file.
pub(crate) fn nested_on_disk(dir: &Path) -> bool {
    nested(dir, &|folder| {
        folder.join(skill_model::layout::SKILL_MD).is_file()
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

    /// A skill in `tmp/parent/skill` with `frontmatter` (and `body`) and `files` beside it.
    fn skill_in(tmp: &Path, frontmatter: &str, body: &str, files: &[&str]) -> Skill {
        let dir = tmp.join("parent/skill");
        for file in files {
            let path = tmp.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "{}").unwrap();
        }
        std::fs::create_dir_all(&dir).unwrap();
        let text = format!("---\nname: skill\ndescription: Does it.\n{frontmatter}---\n{body}");
        Skill::from_bytes(&dir, text.into_bytes())
    }

    /// One skill per way [`declared`] decides: frontmatter, body, files written beside it, and
    /// the label expected (`Claude`, `OpenClaw`: the first key only that agent reads).
    fn every_way() -> Vec<(String, &'static str, Vec<&'static str>, &'static str)> {
        let only = |agent: Agent, other: Agent| {
            let key = facts(agent)
                .keys
                .iter()
                .find(|k| !facts(other).keys.contains(k))
                .unwrap();
            format!("{key}: x\n")
        };
        vec![
            (
                "metadata:\n  openclaw: {}\n".into(),
                "",
                vec![],
                "metadata.openclaw",
            ),
            (
                "metadata:\n  nanobot: {}\n".into(),
                "",
                vec![],
                "metadata.nanobot",
            ),
            ("always: true\n".into(), "", vec![], ALWAYS),
            (
                String::new(),
                "",
                vec!["parent/skill/agents/openai.yaml"],
                OPENAI_YAML,
            ),
            (only(Agent::Claude, Agent::Openclaw), "", vec![], "Claude"),
            (
                "author: claude-office-skills\n".into(),
                "",
                vec![],
                "author",
            ),
            (only(Agent::Openclaw, Agent::Claude), "", vec![], "OpenClaw"),
            (
                String::new(),
                "",
                vec!["parent/skill/_meta.json"],
                META_FILE,
            ),
            (
                String::new(),
                "",
                vec!["parent/skill/.clawhub/origin.json"],
                CLAWHUB_DIR,
            ),
            (String::new(), "", vec!["parent/_meta.json"], FROM_ABOVE),
            (String::new(), "Run {baseDir}/x.\n", vec![], BASE_DIR),
            (String::new(), "", vec![], NO_FIELDS),
        ]
    }

    #[test]
    fn what_a_skill_declares_of_its_target_reads_back_as_the_cache_keeps_it() {
        for (frontmatter, body, files, from) in every_way() {
            let tmp = tempfile::tempdir().unwrap();
            let skill = skill_in(tmp.path(), &frontmatter, body, &files);
            let declared = declared(&skill);
            let kept: Declared = rmp_serde::from_slice(&rmp_serde::to_vec(&declared).unwrap())
                .unwrap_or_else(|e| panic!("{frontmatter:?}: {e}"));
            assert_eq!(kept, declared);
            let chosen = kept.or_given(None, &skill.dir);
            assert_eq!(chosen, infer(&skill));
            if from != "Claude" && from != "OpenClaw" {
                assert_eq!(chosen.from, from, "{frontmatter:?} {body:?} {files:?}");
            }
            assert_eq!(kept.or_given(Some(Target::Gemini), &skill.dir).from, GIVEN);
        }
    }

    #[test]
    fn a_label_no_inference_gives_is_not_read_back() {
        let stored = rmp_serde::to_vec(&(Target::Openclaw, "somewhere else", false)).unwrap();
        assert!(rmp_serde::from_slice::<Declared>(&stored).is_err());
    }

    #[test]
    fn every_agent_is_a_target() {
        for agent in AGENTS {
            assert!(Target::ALL.iter().any(|t| t.agent() == Some(agent)));
        }
    }
}
