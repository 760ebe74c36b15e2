//! Gemini CLI 0.61.0's reading of skill roots, seen in the requests the real CLI sends and read
//! in its bundle (`skills/skillLoader.js`, `skills/skillManager.js`): `SKILL.md` in a root or
//! one folder down (dot folders not), the frontmatter `name` (with `:\/<>*?"|` made `-`) and
//! `description` as YAML gives them, else read line by line; a skill without either is left
//! out. A later root's skill of the same name replaces an earlier one in its place.

use super::text::js_trim;
use super::{AgentCatalog, AgentSkill, DropReason, Dropped, Shadowed};
use super::{Facts, NO_GATES};
use crate::catalog::SHARED_ROOT;
use crate::catalog::root;
use crate::catalog::{Agent, Root};
use crate::environment::Environment;
use crate::layout::SKILL_MD;
use crate::yaml;
use std::path::{Path, PathBuf};

/// Gemini CLI, read from the requests the real CLI (npm `@google/gemini-cli@0.61.0`) sends and
/// from its bundle (`skills/skillLoader.js`, `skills/skillManager.js`). The oracle test is
/// `tests/agent_clis.rs`.
pub(crate) const FACTS: Facts = Facts {
    agent: Agent::Gemini,
    name: "Gemini CLI",
    release: "Gemini CLI 0.61.0",
    identity_is_folder: false,
    skill_files: &[SKILL_MD],
    metadata_blocks: &[],
    gates: NO_GATES,
    // `parseFrontmatter`: js-yaml, else `parseSimpleFrontmatter` line by line.
    yaml: "YAML frontmatter, else name and description read line by line",
    requires_description: true,
    description_max: None,
    name_max: None,
    // No budget: every skill is listed whole.
    budget: None,
    // `skill-creator` and `antigravity-support`, listed first, from its package.
    bundled: &[],
    root_limits: None,
    skips_hidden: true,
    lists_nested: false,
    resolves_links: false,
    keys: &[],
    reserved_name_words: &[],
    description_advice: None,
    runtime: &["node"],
    user_folder: ".gemini/skills",
    project_folder: SHARED_ROOT,
    settings_folders: &[".gemini"],
    tools: &[],
};

/// Gemini CLI 0.61.0's roots (`discoverSkills`): the user's (under `$GEMINI_CLI_HOME`, else
/// home), then the working folder's only.
pub(crate) fn roots(home: &Path, cwd: &Path, env: &dyn Environment) -> Vec<Root> {
    let gemini_home = env
        .var("GEMINI_CLI_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.to_path_buf());
    vec![
        root(gemini_home.join(".gemini/skills"), "user"),
        root(gemini_home.join(".agents/skills"), "user"),
        root(cwd.join(".gemini/skills"), "project"),
        root(cwd.join(".agents/skills"), "project"),
    ]
}

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

/// `parseSimpleFrontmatter`: line by line, the last `name:` as written on its line and the last
/// `description:` with the indented lines after it joined by spaces.
fn line_by_line(block: &str) -> (Option<String>, Option<String>) {
    let lines: Vec<&str> = block.lines().collect();
    let value = |line: &str, key: &str| {
        js_trim(line)
            .strip_prefix(key)
            .and_then(|r| r.strip_prefix(':'))
            .map(|r| js_trim(r).to_owned())
    };
    let (mut name, mut description) = (None, None);
    let mut i = 0;
    while i < lines.len() {
        if let Some(n) = value(lines[i], "name") {
            name = Some(n);
        } else if let Some(first) = value(lines[i], "description") {
            let mut parts = vec![first];
            while i + 1 < lines.len()
                && lines[i + 1].starts_with([' ', '\t'])
                && !js_trim(lines[i + 1]).is_empty()
            {
                i += 1;
                parts.push(js_trim(lines[i]).to_owned());
            }
            parts.retain(|p| !p.is_empty());
            description = Some(parts.join(" "));
        }
        i += 1;
    }
    (name, description)
}

/// The block's `name` and `description` when js-yaml reads both as strings (it refuses a
/// repeated key).
fn from_yaml(block: &str) -> Option<(String, String)> {
    let node = yaml::parse(block, 0).ok()?;
    let keys: Vec<&str> = node
        .as_map()?
        .iter()
        .filter_map(|(k, _)| k.as_str())
        .collect();
    if keys.iter().enumerate().any(|(i, k)| keys[..i].contains(k)) {
        return None;
    }
    let name = node.get("name")?.as_str()?.to_owned();
    let description = node.get("description")?.as_str()?.to_owned();
    Some((name, description))
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
    let (name, description) = match from_yaml(block) {
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

/// Loads `roots` (in Gemini CLI's load order) as it does.
pub fn load(roots: Vec<Root>) -> AgentCatalog {
    let mut skills: Vec<AgentSkill> = Vec::new();
    let mut dropped = Vec::new();
    let mut shadowed = Vec::new();
    for (index, root) in roots.iter().enumerate() {
        dropped.extend(super::lowercase_only(&root.path, index));
        for file in files(root) {
            let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
            // Read as Node reads UTF-8: a byte that is not UTF-8 becomes U+FFFD.
            let read = std::fs::read(&file)
                .map_err(|e| DropReason::Unreadable {
                    detail: e.to_string(),
                })
                .and_then(|bytes| read(&String::from_utf8_lossy(&bytes)));
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
            let new = AgentSkill::listed(name, file, index, description);
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
        assert_eq!(
            read("---\nname: outer\ndescription: Use when: x\nmetadata:\n name: inner\n---\n")
                .unwrap()
                .0,
            "inner"
        );
        assert_eq!(
            read("---\nname: \"a\"\nname: \"b\"\ndescription: d\n---\n")
                .unwrap()
                .0,
            "-b-"
        );
    }
}
