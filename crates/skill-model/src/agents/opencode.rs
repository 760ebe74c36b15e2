//! OpenCode 1.18.33's reading of skill roots, seen in the requests the real CLI sends and read in
//! the JavaScript its binary holds (`EA`, `uA`, `qq`): every `SKILL.md` below a root (dot
//! folders too, but not under its own config folders), the frontmatter `name` and
//! `description` as written (no trimming, no limits). YAML that fails is retried once with each
//! `key: value` line holding a colon made a block scalar. A skill without a description loads
//! but is not listed; one without a string name is dropped.

use super::{AgentCatalog, AgentSkill, DropReason, Dropped};
use super::{Facts, NO_GATES};
use crate::catalog::SHARED_ROOT;
use crate::catalog::{Agent, Root};
use crate::catalog::{root, up_to_repository};
use crate::layout::SKILL_MD;
use crate::yaml::{self, Node, Value};
use std::path::{Path, PathBuf};

/// OpenCode, read from the requests the real CLI (npm `opencode-ai@1.18.33`) sends and from the
/// JavaScript its binary holds. The oracle test is `tests/agent_clis.rs`.
pub(crate) const FACTS: Facts = Facts {
    agent: Agent::Opencode,
    name: "OpenCode",
    release: "OpenCode 1.18.33",
    identity_is_folder: false,
    skill_files: &[SKILL_MD],
    metadata_blocks: &[],
    gates: NO_GATES,
    // gray-matter, retried once with `key: value` lines holding `:` made block scalars.
    yaml: "YAML frontmatter (gray-matter), one retry with colons in values quoted",
    // A skill without a description loads but is not listed.
    requires_description: true,
    description_max: None,
    name_max: None,
    budget: None,
    // `customize-opencode`, at `<built-in>`.
    bundled: &[],
    root_limits: None,
    skips_hidden: false,
    lists_nested: true,
    resolves_links: false,
    keys: &[],
    reserved_name_words: &[],
    description_advice: None,
    runtime: &[],
    user_folder: ".config/opencode/skills",
    project_folder: SHARED_ROOT,
    settings_folders: &[".config/opencode", ".opencode"],
    tools: &[],
};

/// OpenCode 1.18.33's roots (`EA`): home's `.claude` and `.agents`, the same in each folder up
/// to the repository's root (outside one, to `/`), then its config folders' `skill(s)`.
pub(crate) fn roots(home: &Path, cwd: &Path) -> Vec<Root> {
    let mut roots = vec![
        root(home.join(".claude/skills"), "user"),
        root(home.join(".agents/skills"), "user"),
    ];
    let up = up_to_repository(cwd);
    for dir in &up {
        roots.push(root(dir.join(".claude/skills"), "project"));
        roots.push(root(dir.join(".agents/skills"), "project"));
    }
    let config = std::iter::once(home.join(".config/opencode"))
        .chain(up.iter().map(|d| d.join(".opencode")))
        .chain(std::iter::once(home.join(".opencode")));
    for dir in config {
        roots.push(root(dir.join("skill"), "config"));
        roots.push(root(dir.join("skills"), "config"));
    }
    roots
}

/// Deepest folder searched; its glob has no limit, this only stops a loop of links.
const MAX_DEPTH: usize = 32;

/// The sanitising retry: `key: value` lines (a key of letters, digits and `_`, not starting
/// with a digit) whose unquoted value holds a colon become `key: |-` with the value below.
fn sanitise(block: &str) -> String {
    let plain_key = |key: &str| {
        key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    block
        .split('\n')
        .map(|line| {
            let Some((key, value)) = line.split_once(": ") else {
                return line.to_owned();
            };
            let value = value.trim();
            if plain_key(key) && value.contains(':') && !value.starts_with(['"', '\'', '|', '>']) {
                format!("{key}: |-\n  {value}")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The frontmatter block as gray-matter cuts it: after an opening `---` (not `----`; the rest
/// of that line names a language), up to the first `\n---` anywhere, else to the end.
fn block(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("---")?;
    if rest.starts_with('-') {
        return None;
    }
    let matter = &rest[..rest.find("\n---").unwrap_or(rest.len())];
    Some(matter.split_once('\n').map_or("", |(_, block)| block))
}

/// The frontmatter mapping, as gray-matter reads it with js-yaml (which refuses a repeated key).
fn frontmatter(text: &str) -> Result<Node, DropReason> {
    let bad = |detail: &str| DropReason::Yaml {
        detail: detail.to_owned(),
    };
    let text = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .replace("\r\n", "\n");
    let block = block(&text).ok_or_else(|| bad("no frontmatter at the start of the file"))?;
    let parse = |source: &str| {
        let node = yaml::parse(source, 0).map_err(|e| e.message)?;
        let keys: Vec<&str> = node
            .as_map()
            .unwrap_or_default()
            .iter()
            .filter_map(|(k, _)| k.as_str())
            .collect();
        match keys
            .iter()
            .enumerate()
            .find(|(i, k)| keys[..*i].contains(k))
        {
            Some((_, k)) => Err(format!("duplicated mapping key `{k}`")),
            None => Ok(node),
        }
    };
    parse(block)
        .or_else(|_| parse(&sanitise(block)))
        .map_err(|e| bad(&e))
}

fn read(file: &Path) -> Result<(String, String), DropReason> {
    // Read as JavaScript reads UTF-8: a byte that is not UTF-8 becomes U+FFFD.
    let bytes = std::fs::read(file).map_err(|e| DropReason::Unreadable {
        detail: e.to_string(),
    })?;
    let node = frontmatter(&String::from_utf8_lossy(&bytes))?;
    let name = node
        .get("name")
        .and_then(Node::as_str)
        .ok_or(DropReason::Name {
            detail: "not a string".to_owned(),
        })?;
    let description = match node.get("description").map(|d| &d.value) {
        Some(Value::Str(d)) => d.clone(),
        None => return Err(DropReason::NoDescription),
        Some(_) => {
            return Err(DropReason::Yaml {
                detail: "description is not a string".to_owned(),
            });
        }
    };
    Ok((name.to_owned(), description))
}

/// Loads `roots` as OpenCode does; of two skills of a name the first found is kept (OpenCode
/// keeps whichever of its concurrent reads finishes last).
pub fn load(roots: Vec<Root>) -> AgentCatalog {
    let mut skills: Vec<AgentSkill> = Vec::new();
    let mut dropped = Vec::new();
    let mut shadowed = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    for (index, root) in roots.iter().enumerate() {
        dropped.extend(super::lowercase_only(&root.path, index));
        let skip_dots = root.label == "config";
        for file in super::skill_files(&root.path, MAX_DEPTH, skip_dots) {
            if seen.contains(&file) {
                continue;
            }
            seen.push(file.clone());
            let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
            let (name, description) = match read(&file) {
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
            skills.push(AgentSkill::listed(name, file, index, description));
        }
    }
    skills.sort_by(|a, b| super::text::locale_compare(&a.name, &b.name));
    AgentCatalog {
        agent: Agent::Opencode,
        roots,
        skills,
        dropped,
        shadowed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_colon_in_a_value_is_retried_as_a_block_scalar() {
        let node = frontmatter("---\nname: a\ndescription: Use when: asked\n---\n").unwrap();
        assert_eq!(
            node.get("description").and_then(Node::as_str),
            Some("Use when: asked")
        );
        assert!(frontmatter("\n---\nname: a\n---\n").is_err());
        assert!(frontmatter("---\nname: a\nname: b\n---\n").is_err());
        let open = frontmatter("--- \nname: a\ndescription: no closing fence").unwrap();
        assert_eq!(
            open.get("description").and_then(Node::as_str),
            Some("no closing fence")
        );
    }
}
