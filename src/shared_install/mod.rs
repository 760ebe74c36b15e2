//! Shared installs, laid out as vercel's `skills` CLI lays them out: one copy of each skill in
//! `.agents/skills/NAME` (a project's) or `~/.agents/skills/NAME` (the user's), a relative
//! symbolic link (or a copy) in the root of each agent that does not read that folder, and
//! vercel's lock file ([`lock`]) recording where each skill came from and the hash of its
//! folder ([`hash`]). Installing the copy itself is the archive and registry installers' work;
//! this module places it for the agents and says where each agent finds it.

pub(crate) mod hash;
pub(crate) mod lock;
mod reach;
pub(crate) mod sources;
mod verify;

pub(crate) use reach::Reach;
pub(crate) use verify::Checked;

use lock::SkillsLock;
use skill_model::catalog::{Agent, SHARED_ROOT, global_root, project_root};
use skill_model::choice::Choice;
use std::path::{Component, Path, PathBuf};

/// A project's folders, or the user's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Under a project folder.
    Project,
    /// Under the home folder (`--global`).
    Global,
}

/// Where a shared install goes and which agents it is for.
#[derive(Debug, Clone)]
pub(crate) struct Placement {
    /// The project folder, or the home folder for [`Scope::Global`]; absolute.
    pub(crate) base: PathBuf,
    /// Which of the two.
    pub(crate) scope: Scope,
    /// The agents to place the skill for.
    pub(crate) agents: Vec<Agent>,
    /// Copy into agents' roots instead of linking (`--copy`).
    pub(crate) copy: bool,
    /// The local folder this command installs from, never replaced by a link to its copy.
    pub(crate) source: Option<PathBuf>,
}

/// Why placing or removing a shared install failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SharedError {
    /// Reading or writing failed.
    #[error("{path}: {message}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        message: String,
    },
    /// An agent's root already holds something under the skill's name.
    #[error(
        "{0} is in the way: it is not a link to the shared copy nor a copy of it\nhint: --force replaces it"
    )]
    Taken(PathBuf),
    /// The lock file is unusable.
    #[error(transparent)]
    Lock(#[from] skill_registry::lock::LockError),
    /// A lock's local source does not exist.
    #[error("{name}: its source {origin} does not exist")]
    NoSource {
        /// The skill.
        name: String,
        /// The source the lock names.
        origin: String,
    },
    /// The skill's own source folder is where an agent's link would go.
    #[error(
        "{0} is the skill's own source, in an agent's folder; it is never replaced\nhint: install from a copy elsewhere, or leave that agent out"
    )]
    IsSource(PathBuf),
    /// A project's lock names a local source outside the project.
    #[error("{name}: its source {origin} is outside the project; install it again by path")]
    OutsideProject {
        /// The skill.
        name: String,
        /// The source the lock names.
        origin: String,
    },
    /// The lock's source is of a kind that cannot be fetched again.
    #[error("{name}: a {kind} source cannot be fetched from the lock file; install it again")]
    Unfetchable {
        /// The skill.
        name: String,
        /// Its `sourceType`.
        kind: String,
    },
    /// `--frozen` of a git source the lock pins no commit of.
    #[error("{name}: the lock file pins no commit of {origin}; install it again")]
    NoCommit {
        /// The skill.
        name: String,
        /// The repository.
        origin: String,
    },
    /// What the source holds now is not what the lock pins; nothing was installed.
    #[error(
        "{name}: {origin} is not what the lock file pins (its folder hash differs); nothing was installed"
    )]
    NotLocked {
        /// The skill.
        name: String,
        /// The source.
        origin: String,
    },
    /// In a project, a folder leads out of it through a link.
    #[error("{path} leads out of the project (to {to}); a shared install stays in the project")]
    Escapes {
        /// The folder.
        path: PathBuf,
        /// Where it really is.
        to: PathBuf,
    },
    /// A source holds a skill of another name than the lock's.
    #[error("{name}: its source holds the skill {found}; the lock file names it {name}")]
    Renamed {
        /// The lock's name.
        name: String,
        /// The source's.
        found: String,
    },
    /// Fetching a git source failed.
    #[error(transparent)]
    Git(#[from] crate::git_source::GitError),
    /// Installing from the source failed.
    #[error(transparent)]
    Install(#[from] skill_archive::install::InstallError),
    /// The signature policy refuses the source (a folder or a checkout carries no signature).
    #[error(transparent)]
    Signature(#[from] skill_archive::signature::SignatureError),
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> SharedError + '_ {
    move |e| SharedError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

impl Placement {
    /// The shared skills folder.
    pub(crate) fn shared(&self) -> PathBuf {
        self.base.join(SHARED_ROOT)
    }

    /// The folder `agent` reads this scope's skills from.
    pub(crate) fn root(&self, agent: Agent) -> PathBuf {
        match self.scope {
            Scope::Project => self.base.join(project_root(agent)),
            Scope::Global => global_root(
                agent,
                &self.base,
                &skill_model::environment::SystemEnvironment::default(),
            ),
        }
    }

    /// This placement for the agents `entry` records (those named when it records none, as in
    /// vercel's lock), so `update` and `verify` work on what each skill was installed for.
    pub(crate) fn for_entry(&self, entry: &lock::LockedSkill) -> Placement {
        let recorded: Vec<Agent> = entry
            .agents
            .iter()
            .filter_map(|a| Agent::parse(a))
            .collect();
        Placement {
            agents: if recorded.is_empty() {
                self.agents.clone()
            } else {
                recorded
            },
            ..self.clone()
        }
    }

    /// Records `entry` for the installed skill `name` in `lock` (with its folder hash, the
    /// agents recorded before and these, which of them got copies, and the fields other tools
    /// wrote), for the caller to write, then places it for this placement's agents. The entry
    /// is recorded even when placing fails: the copy is installed, and `verify` names the
    /// agent that misses it.
    pub(crate) fn record(
        &self,
        name: &str,
        mut entry: lock::LockedSkill,
        lock: &mut SkillsLock,
        force: bool,
    ) -> Result<Vec<(Agent, Reach)>, SharedError> {
        let dir = self.copy_of(name)?;
        let old = lock.skills.get(name).cloned().unwrap_or_default();
        entry.computed_hash = Some(hash::folder_hash(&dir).map_err(io(&dir))?);
        entry.skill_folder_hash = None;
        entry.agents = old.agents.clone();
        entry.copied = old.copied.clone();
        for agent in &self.agents {
            for (list, add) in [(&mut entry.agents, true), (&mut entry.copied, self.copy)] {
                if add && !list.iter().any(|a| a == agent.name()) {
                    list.push(agent.name().to_owned());
                }
            }
        }
        entry.extra = old.extra.clone();
        // Placing decides what is this install's own by the lock as it was.
        let before = lock.clone();
        lock.set(name, entry);
        self.place(name, &before, force)
    }

    /// This scope's lock file, read.
    pub(crate) fn lock(&self) -> Result<SkillsLock, SharedError> {
        let path = SkillsLock::path_for(self.scope, &self.base);
        Ok(SkillsLock::read(self.scope, &path)?)
    }

    /// `source` as this scope's lock file records a local source: relative to the project
    /// (`./skills/notes`, `../other/notes`), or absolute in the user's lock; from where it
    /// really is, so a link in the path does not make the lock name another folder.
    pub(crate) fn lock_source(&self, source: &Path) -> String {
        let absolute = source
            .canonicalize()
            .unwrap_or_else(|_| normalize(&std::path::absolute(source).unwrap_or_default()));
        if self.scope == Scope::Global {
            return absolute.to_string_lossy().into_owned();
        }
        let base = self
            .base
            .canonicalize()
            .unwrap_or_else(|_| self.base.clone());
        let relative = relative(&base, &absolute);
        let text = relative.to_string_lossy();
        if text.is_empty() {
            ".".to_owned()
        } else if text.starts_with("..") {
            text.into_owned()
        } else {
            format!("./{text}")
        }
    }

    /// The folder a lock's local `source` names for the skill `name`: in a project's lock,
    /// only one that really is inside the project (the lock came with the project, from
    /// whoever wrote it).
    pub(crate) fn local_source(&self, name: &str, source: &str) -> Result<PathBuf, SharedError> {
        let path = normalize(&self.base.join(source));
        let real = path.canonicalize().map_err(|_| SharedError::NoSource {
            name: name.to_owned(),
            origin: source.to_owned(),
        })?;
        if self.scope == Scope::Project && !real.starts_with(self.real_base()?) {
            return Err(SharedError::OutsideProject {
                name: name.to_owned(),
                origin: source.to_owned(),
            });
        }
        Ok(path)
    }

    /// Whether `path` (which may not exist yet) really is inside the project; always true for
    /// the user's folders.
    pub(crate) fn is_contained(&self, path: &Path) -> Result<bool, SharedError> {
        if self.scope == Scope::Global {
            return Ok(true);
        }
        let base = self.real_base()?;
        // The deepest part that exists is where a link could lead.
        Ok(path
            .ancestors()
            .find_map(|p| p.canonicalize().ok())
            .is_none_or(|real| real.starts_with(&base)))
    }

    fn real_base(&self) -> Result<PathBuf, SharedError> {
        self.base.canonicalize().map_err(io(&self.base))
    }

    /// Fails when, in a project, `path` leads out of it through a link.
    fn contain(&self, path: &Path) -> Result<(), SharedError> {
        if self.is_contained(path)? {
            return Ok(());
        }
        let to = path
            .ancestors()
            .find_map(|p| p.canonicalize().ok())
            .unwrap_or_default();
        Err(SharedError::Escapes {
            path: path.to_path_buf(),
            to,
        })
    }

    /// Fails when the shared folder or the root of a named agent leads out of the project:
    /// a project's lock must not reach the user's own folders.
    pub(crate) fn check_contained(&self) -> Result<(), SharedError> {
        self.contain(&self.shared())?;
        for &agent in &self.agents {
            self.contain(&self.root(agent))?;
        }
        Ok(())
    }

    /// The shared copy of `name`, checked to be inside the project (a planted link there
    /// would otherwise be copied or linked from the user's own folders).
    pub(crate) fn copy_of(&self, name: &str) -> Result<PathBuf, SharedError> {
        let copy = self.shared().join(name);
        self.contain(&copy)?;
        Ok(copy)
    }

    /// `path` as messages show it: relative to the project, or `~/...` for the user's.
    pub(crate) fn shown(&self, path: &Path) -> String {
        match (path.strip_prefix(&self.base), self.scope) {
            (Ok(rest), Scope::Project) => rest.display().to_string(),
            (Ok(rest), Scope::Global) => format!("~/{}", rest.display()),
            (Err(_), _) => path.display().to_string(),
        }
    }
}

/// Whether two paths lead to the same folder.
fn same_folder(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// Removes a link, file or folder at `path`, if any.
fn remove_entry(path: &Path) -> Result<(), SharedError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io(path)(e)),
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path).map_err(io(path)),
        Ok(_) => std::fs::remove_file(path).map_err(io(path)),
    }
}

/// Copies the folder `from` to `to` (regular files and folders; links are not followed).
fn copy_tree(from: &Path, to: &Path) -> Result<(), SharedError> {
    std::fs::create_dir_all(to).map_err(io(to))?;
    for entry in std::fs::read_dir(from).map_err(io(from))? {
        let entry = entry.map_err(io(from))?;
        let kind = entry.file_type().map_err(io(&entry.path()))?;
        let dest = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &dest)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &dest).map_err(io(&dest))?;
        }
    }
    Ok(())
}

/// `path` with `.` and `..` resolved by name (a link is not followed).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `to` as a path relative to the folder `from` (both absolute and free of `..`).
fn relative(from: &Path, to: &Path) -> PathBuf {
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    std::iter::repeat_n(Component::ParentDir, from.len() - common)
        .chain(to[common..].iter().copied())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::relative;
    use std::path::{Path, PathBuf};

    #[test]
    fn links_climb_out_of_the_agents_root_to_the_shared_folder() {
        assert_eq!(
            relative(
                Path::new("/p/.claude/skills"),
                Path::new("/p/.agents/skills/notes")
            ),
            PathBuf::from("../../.agents/skills/notes")
        );
        assert_eq!(
            relative(
                Path::new("/h/.nanobot/workspace/skills"),
                Path::new("/h/.agents/skills/notes")
            ),
            PathBuf::from("../../../.agents/skills/notes")
        );
    }
}
