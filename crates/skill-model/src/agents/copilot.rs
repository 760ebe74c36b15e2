//! GitHub Copilot CLI 1.0.102's reading of skill roots, seen in the requests the real CLI sends
//! and in strings of its runtime library: every `SKILL.md` below a root, the first skill of a
//! name in discovery order winning. The frontmatter must be YAML; `name` falls back to the
//! folder (at most 64 ASCII letters, digits, `-_.:` and spaces, starting with a letter or
//! digit); a missing `description` is taken from the body, and one over 1,024 UTF-16 code
//! units drops the skill. `disable-model-invocation: true` keeps it from the model, and the
//! user's `disabledSkills` (`~/.copilot/settings.json`) removes it.

use super::text::js_len;
use super::{AgentCatalog, AgentSkill, DropReason, Dropped, facts};
use super::{BundledSkill, Facts, Measure, NO_GATES, PromptBudget};
use crate::catalog::SHARED_ROOT;
use crate::catalog::{Agent, Root};
use crate::catalog::{root, up_to_repository};
use crate::layout::SKILL_MD;
use crate::yaml::{self, Node, Value};
use std::path::{Path, PathBuf};

/// GitHub Copilot CLI, read from the requests the real CLI (npm `@github/copilot@1.0.102`) sends
/// and from strings in its runtime library. The oracle test is `tests/agent_clis.rs`.
pub(crate) const FACTS: Facts = Facts {
    agent: Agent::Copilot,
    name: "Copilot CLI",
    release: "Copilot CLI 1.0.102",
    identity_is_folder: false,
    skill_files: &[SKILL_MD],
    metadata_blocks: &[],
    gates: NO_GATES,
    yaml: "YAML frontmatter; unreadable YAML drops the skill",
    // A description missing is taken from the body; a null one drops the skill.
    requires_description: false,
    // "Skill description must be at most 1024 characters" (UTF-16 code units).
    description_max: Some(1024),
    // "Skill name must be at most 64 characters".
    name_max: Some(64),
    budget: Some(PromptBudget {
        // `skillsGetSkillCharBudget`: 15,000 UTF-16 code units of whole entries.
        default_chars: 15_000,
        measure: Measure::Utf16,
        context_percent: None,
        env_override: Some("SKILL_CHAR_BUDGET"),
        description_cap: None,
        max_skills: None,
        steps: &["names only from the first entry that does not fit"],
    }),
    // Listed last, with their entries' lengths.
    bundled: &[
        BundledSkill {
            name: "customize-cloud-agent",
            size: 444,
            collapsible: true,
        },
        BundledSkill {
            name: "github-pr-media",
            size: 325,
            collapsible: true,
        },
    ],
    root_limits: None,
    skips_hidden: false,
    lists_nested: true,
    resolves_links: false,
    keys: &[],
    reserved_name_words: &[],
    description_advice: None,
    runtime: &[],
    user_folder: ".copilot/skills",
    project_folder: SHARED_ROOT,
    settings_folders: &[".copilot"],
    tools: &[],
};

/// Copilot CLI 1.0.102's roots: `.github`, then `.agents`, then `.claude` skills, each in this
/// folder (`project`) and then up to the repository's root (`inherited`), then the user's.
pub(crate) fn roots(home: &Path, cwd: &Path) -> Vec<Root> {
    let up = up_to_repository(cwd);
    let mut roots = Vec::new();
    for kind in [".github", ".agents", ".claude"] {
        for (i, dir) in up.iter().enumerate() {
            let label = if i == 0 { "project" } else { "inherited" };
            roots.push(root(dir.join(kind).join("skills"), label));
        }
    }
    roots.push(root(home.join(".copilot/skills"), "personal-copilot"));
    roots.push(root(home.join(".agents/skills"), "personal-agents"));
    roots
}

/// Deepest folder searched below a root; only a guard against a loop of links.
const MAX_DEPTH: usize = 32;

fn refused(detail: impl Into<String>) -> DropReason {
    DropReason::Name {
        detail: detail.into(),
    }
}

/// The body's text lines, headings left out, joined by spaces and cut to the limit.
fn from_body(body: &str, max: usize) -> String {
    let text = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join(" ");
    text.chars().take(max).collect()
}

fn split(text: &str) -> Result<(&str, &str), DropReason> {
    let bad = || DropReason::Yaml {
        detail: "missing or malformed YAML frontmatter".to_owned(),
    };
    let rest = text.strip_prefix("---\n").ok_or_else(bad)?;
    let end = rest
        .match_indices("\n---")
        .map(|(i, _)| i)
        .find(|&i| matches!(rest[i + 4..].chars().next(), None | Some('\n')))
        .ok_or_else(bad)?;
    let body = rest[end + 4..]
        .strip_prefix('\n')
        .unwrap_or(&rest[end + 4..]);
    Ok((&rest[..end], body))
}

/// Whether `key` is the last entry of the frontmatter.
fn ends_block(node: &Node, key: &str) -> bool {
    node.as_map()
        .and_then(|entries| entries.last())
        .is_some_and(|(k, _)| k.as_str() == Some(key))
}

/// The name, description and whether the model may invoke it, as Copilot CLI reads `file`.
fn read(file: &Path, dir_name: &str) -> Result<(String, String, bool), DropReason> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| DropReason::Unreadable {
            detail: e.to_string(),
        })?
        .replace("\r\n", "\n");
    let (block, body) = split(&text)?;
    let node = yaml::parse(block, 0).map_err(|e| DropReason::Yaml {
        detail: format!("failed to parse YAML frontmatter: {}", e.message),
    })?;
    let name = node
        .get("name")
        .and_then(Node::as_str)
        .unwrap_or(dir_name)
        .to_owned();
    let max_name = facts(Agent::Copilot).name_max.unwrap_or(usize::MAX);
    if name.chars().count() > max_name {
        return Err(refused(format!("at most {max_name} characters")));
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | ' ');
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) || !name.chars().all(allowed) {
        return Err(refused(
            "must start with an ASCII letter or number and use ASCII letters, numbers, hyphens, underscores, dots, colons and spaces",
        ));
    }
    let max = facts(Agent::Copilot).description_max.unwrap_or(usize::MAX);
    let description = match node.get("description").map(|d| &d.value) {
        None => from_body(body, max),
        // Its parser is given the block without the line break before the closing `---`, so
        // a block scalar that ends the block ends without one.
        Some(Value::Str(d)) if ends_block(&node, "description") => {
            d.strip_suffix('\n').unwrap_or(d).to_owned()
        }
        Some(Value::Str(d)) => d.clone(),
        Some(_) => {
            return Err(DropReason::Yaml {
                detail: "Skill description must be a string".to_owned(),
            });
        }
    };
    let units = js_len(&description);
    if units > max {
        return Err(DropReason::DescriptionTooLong { chars: units, max });
    }
    let hidden = node
        .get("disable-model-invocation")
        .is_some_and(|v| matches!(v.value, Value::Bool(true)));
    Ok((name, description, !hidden))
}

/// The names the user turned off (`copilot skill disable NAME`), from the settings beside the
/// user's skill root.
pub fn disabled(roots: &[Root]) -> Vec<String> {
    let Some(root) = roots.iter().find(|r| r.label == "personal-copilot") else {
        return Vec::new();
    };
    let settings = root.path.with_file_name("settings.json");
    std::fs::read_to_string(settings)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| {
            v["disabledSkills"].as_array().map(|names| {
                names
                    .iter()
                    .filter_map(|n| n.as_str().map(str::to_owned))
                    .collect()
            })
        })
        .unwrap_or_default()
}

/// Loads `roots` (in Copilot CLI's discovery order) as it does, listed in its order: by name
/// within each run of skills from roots of one kind.
pub fn load(roots: Vec<Root>) -> AgentCatalog {
    let off = disabled(&roots);
    let mut skills: Vec<AgentSkill> = Vec::new();
    let mut dropped = Vec::new();
    let mut shadowed = Vec::new();
    for (index, root) in roots.iter().enumerate() {
        dropped.extend(super::lowercase_only(&root.path, index));
        // Files in the order of their paths as strings (`a-2/SKILL.md` before `a/SKILL.md`):
        // of two skills of a name in one root, that one wins.
        let mut files = super::skill_files(&root.path, MAX_DEPTH, false);
        files.sort_by(|a, b| {
            a.as_os_str()
                .as_encoded_bytes()
                .cmp(b.as_os_str().as_encoded_bytes())
        });
        for file in files {
            let dir: PathBuf = file.parent().map(Path::to_path_buf).unwrap_or_default();
            let dir_name = dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let (name, description, invocable) = match read(&file, &dir_name) {
                Ok(read) => read,
                Err(reason) => {
                    dropped.push(Dropped {
                        dir,
                        root: index,
                        reason,
                    });
                    continue;
                }
            };
            if let Some(shadow) = super::shadowed_by(&skills, &name, &dir, index) {
                shadowed.push(shadow);
                continue;
            }
            if off.contains(&name) {
                dropped.push(Dropped {
                    dir,
                    root: index,
                    reason: DropReason::TurnedOff {
                        by: "~/.copilot/settings.json (disabledSkills)".to_owned(),
                    },
                });
                continue;
            }
            let mut skill = AgentSkill::listed(name, file, index, description);
            skill.hidden = (!invocable).then_some(super::DISABLED_INVOCATION);
            skills.push(skill);
        }
    }
    sort_runs(&mut skills, &roots);
    AgentCatalog {
        agent: Agent::Copilot,
        roots,
        skills,
        dropped,
        shadowed,
    }
}

/// Sorts by name (byte order) within each run of consecutive skills whose roots share a label.
fn sort_runs(skills: &mut [AgentSkill], roots: &[Root]) {
    let mut start = 0;
    while start < skills.len() {
        let label = &roots[skills[start].root].label;
        let len = skills[start..]
            .iter()
            .take_while(|s| roots[s.root].label == *label)
            .count();
        skills[start..start + len].sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        start += len;
    }
}
