//! Codex 0.169.1's reading of skill roots, seen in the requests the real CLI sends and checked
//! against strings in its binary: every `SKILL.md` up to six folders below a root (dot folders
//! skipped, links followed), one skill per real file, no precedence by name (all of a name are
//! listed), entries ordered by scope (system, admin, repository, user), name and path. The
//! frontmatter must open the file; `name` falls back to the folder and is at most 64
//! characters; `description` is required, its whitespace collapsed and cut to 1,024.

use super::{AgentCatalog, AgentSkill, DropReason, Dropped, facts};
use super::{Facts, Measure, NO_GATES, PromptBudget};
use crate::catalog::SHARED_ROOT;
use crate::catalog::root;
use crate::catalog::{Agent, Root};
use crate::environment::Environment;
use crate::layout::SKILL_MD;
use crate::yaml::{self, Value};
use std::path::{Path, PathBuf};

/// Codex, read from the requests the real CLI (npm `@openai/codex@0.169.1`, a Rust binary) sends
/// and from strings in that binary. The oracle test is `tests/agent_clis.rs`.
pub(crate) const FACTS: Facts = Facts {
    agent: Agent::Codex,
    name: "Codex",
    release: "Codex 0.169.1",
    identity_is_folder: false,
    skill_files: &[SKILL_MD],
    metadata_blocks: &[],
    gates: NO_GATES,
    // "invalid YAML": strict YAML, with unquoted values holding `: ` read as strings.
    yaml: "YAML frontmatter from the first line; name and description required",
    // "missing field `description`".
    requires_description: true,
    // Longer descriptions are cut to 1,021 characters and "...", not refused.
    description_max: None,
    // "invalid name: exceeds maximum length of 64 characters".
    name_max: Some(64),
    budget: Some(PromptBudget {
        // "skills context budget of 2%": of the model's whole context window, in tokens
        // (5,440 for the 272,000 of a model Codex does not know).
        default_chars: 5_440,
        measure: Measure::Tokens,
        context_percent: Some(2),
        env_override: None,
        description_cap: Some(1024),
        max_skills: None,
        steps: &["descriptions shortened", "skills dropped"],
    }),
    // Its system skills are files it writes to `$CODEX_HOME/skills/.system` on every start,
    // read from there like any root.
    bundled: &[],
    root_limits: None,
    skips_hidden: true,
    lists_nested: true,
    resolves_links: false,
    keys: &[],
    reserved_name_words: &[],
    description_advice: None,
    runtime: &[],
    user_folder: SHARED_ROOT,
    project_folder: SHARED_ROOT,
    settings_folders: &[".codex"],
    tools: &[],
};

/// Codex 0.169.1's roots, in the order of its skill roots table: `.codex/skills` from here up
/// to the project root (the first folder with a `.git`, else here only), the user's
/// `$CODEX_HOME/skills` and `~/.agents/skills`, its system skills, the admin root, then
/// `.agents/skills` from the project root down to here.
pub(crate) fn roots(home: &Path, cwd: &Path, env: &dyn Environment) -> Vec<Root> {
    let project: Vec<&Path> = match cwd.ancestors().position(|d| d.join(".git").exists()) {
        Some(top) => cwd.ancestors().take(top + 1).collect(),
        None => vec![cwd],
    };
    let codex_home = env
        .var("CODEX_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".codex"));
    let mut roots: Vec<Root> = project
        .iter()
        .map(|d| root(d.join(".codex/skills"), "repo"))
        .collect();
    roots.push(root(codex_home.join("skills"), "user"));
    roots.push(root(home.join(".agents/skills"), "user"));
    roots.push(root(codex_home.join("skills/.system"), "system"));
    roots.push(root(PathBuf::from("/etc/codex/skills"), "admin"));
    let down = project.iter().rev();
    roots.extend(down.map(|d| root(d.join(".agents/skills"), "repo")));
    roots
}

/// Folders below a root searched for a `SKILL.md`.
const MAX_DEPTH: usize = 6;

/// Where a root's skills sort (`system` first, `user` last).
pub(crate) fn scope_rank(label: &str) -> usize {
    match label {
        "system" => 0,
        "admin" => 1,
        "repo" => 2,
        _ => 3,
    }
}

/// Whitespace runs as one space, ends trimmed.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Codex's rescue for unquoted values: a top-level `key: value` line whose value holds `: ` or
/// starts with `[`, `@` or a backtick is read as a plain string.
fn rescue(block: &str) -> String {
    let line = |l: &str| -> Option<String> {
        let (key, rest) = l.split_once(": ")?;
        if key.is_empty() || key.starts_with([' ', '\t', '-', '#']) {
            return None;
        }
        let value = rest.trim();
        let risky = value.contains(": ") || value.starts_with(['[', '@', '`']);
        (risky && !value.starts_with(['"', '\'']))
            .then(|| format!("{key}: {}", serde_json::Value::from(value)))
    };
    block
        .split('\n')
        .map(|l| line(l).unwrap_or_else(|| l.to_owned()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The frontmatter's keys with their scalar values as text (numbers as written, as serde
/// reads them into strings), or why Codex refuses the file.
fn frontmatter(text: &str) -> Result<Vec<(String, Option<String>)>, DropReason> {
    let no_frontmatter = || DropReason::Yaml {
        detail: "missing YAML frontmatter delimited by ---".to_owned(),
    };
    let text = text.replace("\r\n", "\n");
    let rest = text.strip_prefix("---\n").ok_or_else(no_frontmatter)?;
    let end = super::closing_fence(rest).ok_or_else(no_frontmatter)?;
    let block = &rest[..end];
    let rescued;
    let (source, node) = match yaml::parse(block, 0) {
        Ok(node) => (block, node),
        Err(_) => {
            rescued = rescue(block);
            let node = yaml::parse(&rescued, 0).map_err(|e| DropReason::Yaml {
                detail: format!("invalid YAML: {}", e.message),
            })?;
            (rescued.as_str(), node)
        }
    };
    let mut keys: Vec<(String, Option<String>)> = Vec::new();
    for (k, v) in node.as_map().unwrap_or_default() {
        let key = k.as_str().unwrap_or_default().to_owned();
        if keys.iter().any(|(seen, _)| *seen == key) {
            return Err(DropReason::Yaml {
                detail: format!("invalid YAML: duplicate key `{key}`"),
            });
        }
        let text = match v.value {
            Value::Null => None,
            _ => v.scalar_text(source).map(str::to_owned),
        };
        keys.push((key, text));
    }
    Ok(keys)
}

/// False when `agents/openai.yaml` says `policy: {allow_implicit_invocation: false}`.
fn implicit_invocation(dir: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(dir.join("agents/openai.yaml")) else {
        return true;
    };
    let Ok(root) = yaml::parse(&text, 0) else {
        return true;
    };
    !root
        .get("policy")
        .and_then(|p| p.get("allow_implicit_invocation"))
        .is_some_and(|v| matches!(v.value, Value::Bool(false)))
}

/// The name and description Codex lists for one file.
fn read(file: &Path, dir_name: &str) -> Result<(String, String), DropReason> {
    let text = std::fs::read_to_string(file).map_err(|e| DropReason::Unreadable {
        detail: e.to_string(),
    })?;
    let keys = frontmatter(&text)?;
    let string = |key: &str| {
        keys.iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.as_deref())
            .map(collapse)
            .filter(|s| !s.is_empty())
    };
    let name = string("name").unwrap_or_else(|| dir_name.to_owned());
    let chars = name.chars().count();
    let name_max = facts(Agent::Codex).name_max.unwrap_or(usize::MAX);
    if chars > name_max {
        return Err(DropReason::Name {
            detail: format!("{chars} characters, over {name_max}"),
        });
    }
    let description = string("description").ok_or(DropReason::NoDescription)?;
    let cap = facts(Agent::Codex)
        .budget
        .and_then(|b| b.description_cap)
        .unwrap_or(usize::MAX);
    let description = if description.chars().count() > cap {
        let kept: String = description.chars().take(cap - 3).collect();
        format!("{kept}...")
    } else {
        description
    };
    Ok((name, description))
}

/// Loads `roots` (in Codex's table order) as Codex does.
pub fn load(roots: Vec<Root>) -> AgentCatalog {
    let mut skills: Vec<AgentSkill> = Vec::new();
    let mut dropped = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    for (index, root) in roots.iter().enumerate() {
        for file in super::skill_files(&root.path, MAX_DEPTH, true) {
            let real = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
            if seen.contains(&real) {
                continue;
            }
            seen.push(real);
            let dir = file.parent().unwrap_or(&root.path).to_path_buf();
            let dir_name = dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match read(&file, &dir_name) {
                Ok((name, description)) => {
                    let mut skill = AgentSkill::listed(name, file, index, description);
                    // Codex shows the path as reached through its root.
                    skill.file = skill.dir.join(crate::layout::SKILL_MD);
                    skill.hidden = (!implicit_invocation(&dir))
                        .then_some("agents/openai.yaml: allow_implicit_invocation: false");
                    skills.push(skill);
                }
                Err(reason) => dropped.push(Dropped {
                    dir,
                    root: index,
                    reason,
                }),
            }
        }
    }
    // Paths compare as strings, byte by byte, not folder by folder.
    skills.sort_by(|a, b| {
        let rank = |s: &AgentSkill| scope_rank(&roots[s.root].label);
        let path = |s: &'_ AgentSkill| s.file.as_os_str().as_encoded_bytes().to_vec();
        (rank(a), a.name.as_bytes(), path(a)).cmp(&(rank(b), b.name.as_bytes(), path(b)))
    });
    AgentCatalog {
        agent: Agent::Codex,
        roots,
        skills,
        dropped,
        shadowed: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unquoted_values_are_rescued_and_duplicates_refused() {
        let keys = frontmatter("---\nname: a\ndescription: Use when: it breaks\n---\n").unwrap();
        assert_eq!(keys[1].1.as_deref(), Some("Use when: it breaks"));
        let keys = frontmatter("---\nname: 123\ndescription: 42\n---\n").unwrap();
        assert_eq!(keys[0].1.as_deref(), Some("123"));
        assert!(frontmatter("---\nname: a\nname: b\n---\n").is_err());
        assert!(frontmatter("\u{feff}---\nname: a\n---\n").is_err());
    }
}
