//! Gemini CLI 0.61.0's reading of skill roots, seen in the requests the real CLI sends and read
//! in its bundle (`skills/skillLoader.js`, `skills/skillManager.js`): `SKILL.md` in a root or
//! one folder down (dot folders not), the frontmatter `name` (with `:\/<>*?"|` made `-`) and
//! `description` as YAML gives them, else read line by line; a skill without either is left
//! out. A later root's skill of the same name replaces an earlier one in its place.

use super::text::js_trim;
use super::{AgentCatalog, AgentSkill, DropReason, Dropped, Shadowed};
use crate::skill::availability::Availability;
use crate::skill::catalog::{Agent, Root};
use crate::skill::layout::SKILL_MD;
use crate::skill::requirements::Requirements;
use crate::skill::yaml::{self, Value};
use std::path::{Path, PathBuf};

/// The files of one root in the order its glob gives them: the root's own `SKILL.md`, then the
/// folders in reverse byte order (what its asynchronous walk returns, though not always).
fn files(root: &Root) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    if root.path.join(SKILL_MD).is_file() {
        out.push(root.path.join(SKILL_MD));
    }
    let Ok(entries) = std::fs::read_dir(&root.path) else {
        return out;
    };
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path().join(SKILL_MD))
        .filter(|f| f.is_file())
        .collect();
    dirs.sort_by(|a, b| b.cmp(a));
    out.extend(dirs);
    out
}

/// `parseSimpleFrontmatter`: `name:` as written on its line, `description:` with the indented
/// lines after it joined by spaces.
fn line_by_line(block: &str) -> (Option<String>, Option<String>) {
    let lines: Vec<&str> = block.lines().collect();
    let value = |key: &str| {
        lines.iter().position(|l| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|r| r.starts_with(':'))
        })
    };
    let rest =
        |i: usize, key: &str| js_trim(&js_trim(lines[i]).trim_start()[key.len() + 1..]).to_owned();
    let name = value("name").map(|i| rest(i, "name"));
    let description = value("description").map(|i| {
        let mut parts = vec![rest(i, "description")];
        for l in &lines[i + 1..] {
            if !l.starts_with([' ', '\t']) || js_trim(l).is_empty() {
                break;
            }
            parts.push(js_trim(l).to_owned());
        }
        parts.retain(|p| !p.is_empty());
        parts.join(" ")
    });
    (name, description)
}

/// The name and description Gemini CLI lists for `text`.
fn read(text: &str) -> Result<(String, String), DropReason> {
    let no_frontmatter = || DropReason::Yaml {
        detail: "no frontmatter at the start of the file".to_owned(),
    };
    let text = text.replace("\r\n", "\n");
    let rest = text.strip_prefix("---\n").ok_or_else(no_frontmatter)?;
    let end = rest.find("\n---").ok_or_else(no_frontmatter)?;
    let block = &rest[..end];
    let yaml = yaml::parse(block, 0).ok().and_then(|node| {
        let name = node.get("name")?.as_str()?.to_owned();
        let description = node.get("description")?.as_str()?.to_owned();
        matches!(node.value, Value::Map(_)).then_some((name, description))
    });
    let (name, description) = match yaml {
        Some((n, d)) => (Some(n), Some(d)),
        None => line_by_line(block),
    };
    let name = name.ok_or(DropReason::Name {
        detail: "no name".to_owned(),
    })?;
    let description = description.ok_or(DropReason::NoDescription)?;
    let name = name.replace([':', '\\', '/', '<', '>', '*', '?', '"', '|'], "-");
    Ok((name, description))
}

fn skill(file: PathBuf, root: usize, name: String, description: String) -> AgentSkill {
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
        model_invocable: true,
        body: String::new(),
    }
}

/// Loads `roots` (in Gemini CLI's load order) as it does.
pub fn load(roots: Vec<Root>) -> AgentCatalog {
    let mut skills: Vec<AgentSkill> = Vec::new();
    let mut dropped = Vec::new();
    let mut shadowed = Vec::new();
    for (index, root) in roots.iter().enumerate() {
        dropped.extend(super::lowercase_only(&root.path, index));
        for file in files(root) {
            let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
            let read = std::fs::read_to_string(&file)
                .map_err(|e| DropReason::Unreadable {
                    detail: e.to_string(),
                })
                .and_then(|t| read(&t));
            let (name, description) = match read {
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
            let new = skill(file, index, name, description);
            match skills.iter_mut().find(|s| s.name == new.name) {
                Some(old) => {
                    shadowed.push(Shadowed {
                        name: old.name.clone(),
                        dir: old.dir.clone(),
                        root: old.root,
                        by_root: index,
                        by_dir: new.dir.clone(),
                    });
                    *old = new;
                }
                None => skills.push(new),
            }
        }
    }
    AgentCatalog {
        agent: Agent::Gemini,
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
    fn yaml_else_line_by_line() {
        assert_eq!(
            read("---\nname: a:b\ndescription: Use when: asked\n---\n").unwrap(),
            ("a-b".to_owned(), "Use when: asked".to_owned())
        );
        assert_eq!(
            read("---\nname: \"quoted\"\ndescription: [bad\n  more\n---\n").unwrap(),
            ("-quoted-".to_owned(), "[bad more".to_owned())
        );
        assert!(read("---\ndescription: no name\n---\n").is_err());
    }
}
