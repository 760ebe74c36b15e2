//! OpenCode 1.18.33's reading of skill roots, seen in the requests the real CLI sends and read in
//! the JavaScript its binary holds (`EA`, `uA`, `qq`): every `SKILL.md` below a root (dot
//! folders too, but not under its own config folders), the frontmatter `name` and
//! `description` as written (no trimming, no limits). YAML that fails is retried once with each
//! `key: value` line holding a colon made a block scalar. A skill without a description loads
//! but is not listed; one without a string name is dropped.

use super::{AgentCatalog, AgentSkill, DropReason, Dropped, Shadowed};
use crate::skill::availability::Availability;
use crate::skill::catalog::{Agent, Root};
use crate::skill::requirements::Requirements;
use crate::skill::yaml::{self, Node, Value};
use std::path::{Path, PathBuf};

/// Deepest folder searched; its glob has no limit, this only stops a loop of links.
const MAX_DEPTH: usize = 32;

/// The sanitising retry: `key: value` lines whose unquoted value holds a colon become
/// `key: |-` with the value indented below.
fn sanitise(block: &str) -> String {
    block
        .split('\n')
        .map(|line| {
            let Some((key, value)) = line.split_once(": ") else {
                return line.to_owned();
            };
            let plain_key = !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            let value = value.trim();
            if plain_key && value.contains(':') && !value.starts_with(['"', '\'', '|', '>']) {
                format!("{key}: |-\n  {value}")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The frontmatter mapping, as gray-matter reads it.
fn frontmatter(text: &str) -> Result<Node, DropReason> {
    let bad = |detail: &str| DropReason::Yaml {
        detail: detail.to_owned(),
    };
    let text = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .replace("\r\n", "\n");
    let rest = text
        .strip_prefix("---\n")
        .ok_or_else(|| bad("no frontmatter at the start of the file"))?;
    let end = rest
        .split_inclusive('\n')
        .scan(0, |at, line| {
            let start = *at;
            *at += line.len();
            Some((start, line))
        })
        .find(|(_, line)| line.trim_end_matches('\n') == "---")
        .map(|(start, _)| start)
        .ok_or_else(|| bad("no closing ---"))?;
    let block = &rest[..end];
    yaml::parse(block, 0)
        .or_else(|_| yaml::parse(&sanitise(block), 0))
        .map_err(|e| bad(&e.message))
}

fn read(file: &Path) -> Result<(String, String), DropReason> {
    let text = std::fs::read_to_string(file).map_err(|e| DropReason::Unreadable {
        detail: e.to_string(),
    })?;
    let node = frontmatter(&text)?;
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
            if let Some(winner) = skills.iter().find(|s| s.name == name) {
                shadowed.push(Shadowed {
                    name,
                    dir,
                    root: index,
                    by_root: winner.root,
                    by_dir: winner.dir.clone(),
                });
                continue;
            }
            skills.push(AgentSkill {
                declared_name: name.clone(),
                name,
                dir_name: dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                file: std::path::absolute(&file).unwrap_or(file),
                dir,
                root: index,
                description,
                requirements: Requirements::default(),
                availability: Availability::default(),
                always: false,
                model_invocable: true,
                body: String::new(),
            });
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
    }
}
