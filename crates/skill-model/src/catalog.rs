//! Catalogs: the skills an agent would see, from skill roots in precedence order. The first skill
//! of a name wins; later ones are kept as shadowed. Agent presets name each agent's roots.

use super::agents::facts;
use super::builtin;
use super::discovery::{SKILL_MD, SKILL_MD_LOWER};
use super::environment::Environment;
use super::{Skill, SkillLocation};
use std::path::{Path, PathBuf};

crate::choices! {
    /// An agent whose skill roots can be used as a preset.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Agent {
        Openclaw = "openclaw": "OpenClaw: workspace, `.agents`, user and managed roots.",
        Nanobot = "nanobot": "nanobot: its workspace's `skills/`.",
        Claude = "claude": "Claude Code: personal `~/.claude/skills`, then the project's `.claude/skills`.",
        Codex = "codex": "Codex: `.codex/skills` and `.agents/skills` up to the repository root, then user, system and admin roots.",
        Gemini = "gemini": "Gemini CLI: `~/.gemini/skills`, `~/.agents/skills`, then this folder's `.gemini/skills` and `.agents/skills`.",
        Opencode = "opencode": "OpenCode: `.claude/skills` and `.agents/skills` at home and up to the repository root, then its own config folders.",
        Copilot = "copilot": "GitHub Copilot CLI: `.github`, `.agents` and `.claude` skills up to the repository root, then `~/.copilot/skills` and `~/.agents/skills`.",
    }
}

/// A folder of skill folders (or one skill folder), with a label for listings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// The folder.
    pub path: PathBuf,
    /// A short label (`workspace`, `user`, `builtin`, or the path as given).
    pub label: String,
}

impl Root {
    /// A root labelled with its own path.
    pub fn plain(path: impl Into<PathBuf>) -> Root {
        let path = path.into();
        Root {
            label: path.display().to_string(),
            path,
        }
    }
}

/// The roots `agent` reads, highest precedence first (the builtin root is added separately);
/// `env` gives the variables some agents read their folders from (`OPENCLAW_WORKSPACE`,
/// `CODEX_HOME`, `GEMINI_CLI_HOME`). Each agent's rule lives in its own file under `agents/`.
pub fn agent_roots(agent: Agent, home: &Path, cwd: &Path, env: &dyn Environment) -> Vec<Root> {
    use crate::agents::{claude, codex, copilot, gemini, nanobot, openclaw, opencode};
    match agent {
        Agent::Openclaw => openclaw::roots(home, env),
        Agent::Nanobot => nanobot::roots(home),
        Agent::Claude => claude::roots(home, cwd),
        Agent::Codex => codex::roots(home, cwd, env),
        Agent::Gemini => gemini::roots(home, cwd, env),
        Agent::Opencode => opencode::roots(home, cwd),
        Agent::Copilot => copilot::roots(home, cwd),
    }
}

/// A root at `path` labelled `label`.
pub(crate) fn root(path: PathBuf, label: &str) -> Root {
    Root {
        path,
        label: label.to_owned(),
    }
}

/// `cwd` and its parents up to the repository's root (the first with a `.git`), else all.
pub(crate) fn up_to_repository(cwd: &Path) -> Vec<&Path> {
    match cwd.ancestors().position(|d| d.join(".git").exists()) {
        Some(top) => cwd.ancestors().take(top + 1).collect(),
        None => cwd.ancestors().collect(),
    }
}

/// `cwd` and the folders above it that belong to its project: up to the repository's root
/// (the first with a `.git`), else up to but not including `home` when `cwd` is under it,
/// else every one.
pub(crate) fn project_dirs<'a>(cwd: &'a Path, home: &'a Path) -> impl Iterator<Item = &'a Path> {
    let repo = cwd.ancestors().find(|d| d.join(".git").exists());
    let mut done = false;
    cwd.ancestors().take_while(move |dir| {
        let keep = !done && (repo.is_some() || *dir != home);
        done = done || repo == Some(*dir);
        keep
    })
}

/// The root a user-level install for `agent` goes into: one of [`agent_roots`], under `home`.
pub(crate) fn user_root(agent: Agent, home: &Path) -> PathBuf {
    home.join(facts(agent).user_folder)
}

/// The folder every agent that follows the Agent Skills layout reads, relative to a project or
/// the home folder: where a shared install keeps its one copy (vercel's `skills` CLI does too).
pub const SHARED_ROOT: &str = ".agents/skills";

/// Where `agent` reads a project's skills, relative to the project: the shared root for the
/// agents that read it there (Codex, Gemini CLI, OpenCode and Copilot CLI, see [`agent_roots`];
/// OpenClaw through its workspace's `.agents/skills` when the project is its workspace), else
/// the agent's own folder (Claude Code's `.claude/skills`; nanobot's workspace `skills`).
pub fn project_root(agent: Agent) -> &'static Path {
    Path::new(facts(agent).project_folder)
}

/// Where `agent` reads a user's skills for a shared install: `~/.agents/skills` when it is one
/// of the agent's roots, else its own user folder ([`user_root`]).
pub fn global_root(agent: Agent, home: &Path, env: &dyn Environment) -> PathBuf {
    let shared = home.join(SHARED_ROOT);
    if agent_roots(agent, home, home, env)
        .iter()
        .any(|r| r.path == shared)
    {
        shared
    } else {
        user_root(agent, home)
    }
}

/// Whether `agent` looks installed for the user at `home`: the folder it keeps its settings in
/// exists (what `--all-agents` installs for).
pub fn is_present(agent: Agent, home: &Path) -> bool {
    facts(agent)
        .settings_folders
        .iter()
        .any(|f| home.join(f).is_dir())
}

/// Whether two paths lead to the same folder (through links).
fn same_folder(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// The builtin root, written to the cache on first use.
pub fn builtin_root() -> std::io::Result<Root> {
    Ok(Root {
        path: builtin::materialize()?,
        label: "builtin".to_owned(),
    })
}

/// One skill of a catalog.
#[derive(Debug, Clone)]
pub struct CatalogSkill {
    /// Its name: the folder name, as agents key skills.
    pub name: String,
    /// Index of its root in [`Catalog::roots`].
    pub root: usize,
    /// The skill.
    pub skill: Skill,
}

/// A skill hidden by another of the same name (in `skill`'s catalog and in every agent's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shadowed {
    /// The name both have.
    pub name: String,
    /// The hidden one's folder.
    pub dir: PathBuf,
    /// Its root.
    pub root: usize,
    /// The root of the one that wins.
    pub by_root: usize,
    /// The folder of the one that wins.
    pub by_dir: PathBuf,
}

/// The skills an agent would see.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// Roots, highest precedence first.
    pub roots: Vec<Root>,
    /// Visible skills, sorted by (root, name).
    pub skills: Vec<CatalogSkill>,
    /// Skills hidden by higher roots.
    pub shadowed: Vec<Shadowed>,
}

impl Catalog {
    /// Loads every skill of `roots`. Missing roots are skipped: agents do the same.
    pub fn load(roots: Vec<Root>) -> Catalog {
        let mut catalog = Catalog {
            roots,
            ..Catalog::default()
        };
        let mut winners: std::collections::HashMap<String, (usize, PathBuf)> =
            std::collections::HashMap::new();
        let mut visible = Vec::new();
        for (index, root) in catalog.roots.iter().enumerate() {
            let mut found = skills_in(&root.path);
            found.sort_by(|a, b| a.0.cmp(&b.0));
            for (name, location) in found {
                if let Some((by_root, dir)) = winners.get(&name) {
                    // A shared install's link in one root and its copy in another are one
                    // skill, not one hiding the other.
                    if !same_folder(dir, &location.dir) {
                        catalog.shadowed.push(Shadowed {
                            name,
                            dir: location.dir,
                            root: index,
                            by_root: *by_root,
                            by_dir: dir.clone(),
                        });
                    }
                } else {
                    winners.insert(name.clone(), (index, location.dir.clone()));
                    visible.push((name, index, location));
                }
            }
        }
        // Reading and parsing every SKILL.md is the work: on both cores.
        use rayon::prelude::*;
        catalog.skills = visible
            .into_par_iter()
            .map(|(name, root, location)| CatalogSkill {
                name,
                root,
                skill: Skill::load(location),
            })
            .collect();
        catalog
    }

    /// Keeps only the skills named in `names`; the names that match nothing are returned.
    pub fn retain_named(&mut self, names: &[String]) -> Vec<String> {
        let missing = names
            .iter()
            .filter(|n| !self.skills.iter().any(|e| &e.name == *n))
            .cloned()
            .collect();
        self.skills.retain(|e| names.contains(&e.name));
        missing
    }
}

/// The skills of one root: the root itself when it holds a SKILL.md, else its child folders
/// that do (checked in parallel: on a large root this is thousands of stats).
fn skills_in(root: &Path) -> Vec<(String, SkillLocation)> {
    use rayon::prelude::*;
    if let Some(file) = manifest_in(root) {
        let canonical = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let name = canonical
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return vec![(
            name,
            SkillLocation {
                dir: root.to_path_buf(),
                file: Some(file),
                files: None,
            },
        )];
    }
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let children: Vec<(String, PathBuf)> = entries
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    children
        .into_par_iter()
        .filter_map(|(name, dir)| {
            let file = manifest_in(&dir)?;
            Some((
                name,
                SkillLocation {
                    dir,
                    file: Some(file),
                    files: None,
                },
            ))
        })
        .collect()
}

fn manifest_in(dir: &Path) -> Option<PathBuf> {
    [SKILL_MD, SKILL_MD_LOWER]
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(root: &Path, name: &str) {
        std::fs::create_dir_all(root.join(name)).unwrap();
        std::fs::write(
            root.join(name).join(SKILL_MD),
            format!("---\nname: {name}\ndescription: d\n---\n"),
        )
        .unwrap();
    }

    #[test]
    fn first_root_wins_and_the_rest_are_shadowed() {
        let tmp = tempfile::tempdir().unwrap();
        let (high, low) = (tmp.path().join("high"), tmp.path().join("low"));
        skill(&high, "b");
        skill(&low, "a");
        skill(&low, "b");
        let catalog = Catalog::load(vec![
            Root::plain(&high),
            Root::plain(&low),
            Root::plain(tmp.path().join("missing")),
        ]);
        let names: Vec<(&str, usize)> = catalog
            .skills
            .iter()
            .map(|e| (e.name.as_str(), e.root))
            .collect();
        assert_eq!(names, [("b", 0), ("a", 1)]);
        assert_eq!(
            catalog.shadowed,
            [Shadowed {
                name: "b".into(),
                dir: low.join("b"),
                root: 1,
                by_root: 0,
                by_dir: high.join("b"),
            }]
        );
    }

    #[test]
    fn agents_find_their_folders_through_the_environment_they_are_given() {
        let home = Path::new("/home/ana");
        let mut env = crate::environment::FakeEnvironment::default();
        for (var, value) in [
            ("OPENCLAW_WORKSPACE", "/srv/claw"),
            ("CODEX_HOME", "/srv/codex"),
            ("GEMINI_CLI_HOME", "/srv/gemini"),
        ] {
            env.vars.insert(var.into(), value.into());
        }
        let first = |agent| {
            agent_roots(agent, home, Path::new("/"), &env)[0]
                .path
                .clone()
        };
        assert_eq!(first(Agent::Openclaw), Path::new("/srv/claw/skills"));
        assert_eq!(
            first(Agent::Gemini),
            Path::new("/srv/gemini/.gemini/skills")
        );
        let codex = agent_roots(Agent::Codex, home, Path::new("/"), &env);
        let user: Vec<&Path> = codex
            .iter()
            .filter(|r| r.label == "user")
            .map(|r| r.path.as_path())
            .collect();
        assert_eq!(
            user,
            [
                Path::new("/srv/codex/skills"),
                Path::new("/home/ana/.agents/skills")
            ]
        );
        let plain = crate::environment::FakeEnvironment::default();
        let roots = agent_roots(Agent::Openclaw, home, Path::new("/"), &plain);
        assert_eq!(
            roots[0].path,
            Path::new("/home/ana/.openclaw/workspace/skills")
        );
    }

    #[test]
    fn presets() {
        let home = Path::new("/home/ana");
        let env = crate::environment::FakeEnvironment::default();
        let roots = agent_roots(Agent::Claude, home, Path::new("/work/p"), &env);
        assert_eq!(roots[0].path, Path::new("/home/ana/.claude/skills"));
        assert_eq!(roots[1].path, Path::new("/work/p/.claude/skills"));
        let nanobot = agent_roots(Agent::Nanobot, home, Path::new("/"), &env);
        assert_eq!(
            nanobot[0].path,
            Path::new("/home/ana/.nanobot/workspace/skills")
        );
    }
}
