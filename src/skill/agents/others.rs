//! Claude Code's and Codex's reading of skill roots, from their public documentation and issues
//! (see the facts table for the sources and doubts): direct child folders with a `SKILL.md`,
//! YAML frontmatter, the first root of a name wins. Neither gates on declared requirements.

use super::{AgentCatalog, AgentSkill, DropReason, Dropped, Shadowed, facts};
use crate::skill::Skill;
use crate::skill::SkillLocation;
use crate::skill::availability::Availability;
use crate::skill::catalog::{Agent, Root};
use crate::skill::document::ManifestError;
use crate::skill::environment::Environment;
use crate::skill::layout::SKILL_MD;
use crate::skill::requirements::Requirements;

/// The first paragraph of `body`: Claude Code's description when the frontmatter has none.
fn first_paragraph(body: &str) -> String {
    body.split("\n\n")
        .map(str::trim)
        .find(|p| !p.is_empty() && !p.starts_with('#'))
        .unwrap_or("")
        .to_owned()
}

/// What `agent` makes of one skill folder.
fn read(agent: Agent, skill: &Skill) -> Result<(String, String), DropReason> {
    let facts = facts(agent);
    let doc = skill
        .document
        .as_ref()
        .map_err(|e| DropReason::Unreadable {
            detail: format!("{e:?}"),
        })?;
    let manifest = match &doc.manifest {
        Ok(m) => Some(m),
        Err(ManifestError::NoFrontmatter) if !facts.requires_description => None,
        Err(e) => {
            return Err(DropReason::Yaml {
                detail: match e {
                    ManifestError::NoFrontmatter => "no frontmatter".to_owned(),
                    ManifestError::Unclosed => "no closing --- line".to_owned(),
                    ManifestError::Yaml { message, position } => {
                        format!("{message} (line {})", position.line)
                    }
                    ManifestError::NotMapping { .. } => "not a mapping".to_owned(),
                },
            });
        }
    };
    let text = &doc.source.text;
    let field = |key: &str| {
        manifest
            .and_then(|m| m.value(key))
            .and_then(|v| v.scalar_text(text))
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    };
    let name = field("name").unwrap_or_else(|| skill.dir_name.clone());
    if let Some(max) = facts.name_max {
        let chars = name.chars().count();
        if chars > max {
            return Err(DropReason::Name {
                detail: format!("{chars} characters, over {max}"),
            });
        }
    }
    let description = match field("description") {
        Some(d) => d,
        None if !facts.requires_description => first_paragraph(doc.body()),
        None => return Err(DropReason::NoDescription),
    };
    if let Some(max) = facts.description_max {
        let chars = description.chars().count();
        if chars > max {
            return Err(DropReason::DescriptionTooLong { chars, max });
        }
    }
    Ok((name, description))
}

/// Loads `roots` (highest precedence first) as `agent` does.
pub fn load(agent: Agent, roots: Vec<Root>, _env: &dyn Environment) -> AgentCatalog {
    let mut skills: Vec<AgentSkill> = Vec::new();
    let mut dropped = Vec::new();
    let mut shadowed = Vec::new();
    for (index, root) in roots.iter().enumerate() {
        let Ok(entries) = std::fs::read_dir(&root.path) else {
            continue;
        };
        let mut dirs: Vec<std::path::PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for dir in dirs {
            let file = dir.join(SKILL_MD);
            if !file.is_file() {
                if dir.join("skill.md").is_file() {
                    dropped.push(Dropped {
                        dir,
                        root: index,
                        reason: DropReason::LowercaseFile,
                    });
                }
                continue;
            }
            let skill = Skill::load(SkillLocation {
                dir: dir.clone(),
                file: Some(file.clone()),
                files: None,
            });
            let (name, description) = match read(agent, &skill) {
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
                dir_name: skill.dir_name.clone(),
                file: super::openclaw::resolve(&file),
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
    AgentCatalog {
        agent,
        roots,
        skills,
        dropped,
        shadowed,
    }
}
