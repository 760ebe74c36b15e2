//! Shared installs, laid out as vercel's `skills` CLI lays them out: one copy of each skill in
//! `.agents/skills/NAME` (a project's) or `~/.agents/skills/NAME` (the user's), a relative
//! symbolic link (or a copy) in the root of each agent that does not read that folder, and
//! vercel's lock file ([`lock`]) recording where each skill came from and the hash of its
//! folder ([`hash`]). Installing the copy itself is the archive and registry installers' work;
//! this module places it for the agents and says where each agent finds it.

pub mod hash;
pub mod lock;
pub mod sources;

use crate::skill::catalog::{Agent, SHARED_ROOT, global_root, project_root};
use crate::skill::choice::Choice;
use lock::SkillsLock;
use std::path::{Component, Path, PathBuf};

/// A project's folders, or the user's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Under a project folder.
    Project,
    /// Under the home folder (`--global`).
    Global,
}

/// Where a shared install goes and which agents it is for.
#[derive(Debug, Clone)]
pub struct Placement {
    /// The project folder, or the home folder for [`Scope::Global`]; absolute.
    pub base: PathBuf,
    /// Which of the two.
    pub scope: Scope,
    /// The agents to place the skill for.
    pub agents: Vec<Agent>,
    /// Copy into agents' roots instead of linking.
    pub copy: bool,
}

/// How one agent finds a shared skill.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "how", rename_all = "lowercase")]
pub enum Reach {
    /// The agent reads the shared folder itself.
    Reads,
    /// A symbolic link in the agent's root points at the shared copy.
    Linked {
        /// The link.
        path: PathBuf,
    },
    /// A folder in the agent's root, made by `--copy`, holds the same files as the shared copy.
    Copied {
        /// The copy.
        path: PathBuf,
    },
    /// The agent's root holds the skill itself and there is no shared copy: how vercel's CLI
    /// installs when every agent named reads one folder.
    Holds {
        /// The install.
        path: PathBuf,
    },
    /// A folder in the agent's root holds the files the lock records, not the shared copy's: a
    /// copy an earlier install made, replaced when the skill is placed again.
    Stale {
        /// The copy.
        path: PathBuf,
    },
    /// Nothing is there: the agent does not see the skill.
    Missing {
        /// Where the link belongs.
        path: PathBuf,
    },
    /// Something else is there (another skill, a stale copy, a link elsewhere).
    Other {
        /// What is there.
        path: PathBuf,
    },
}

impl Reach {
    /// Whether the agent sees the shared copy.
    pub fn is_reached(&self) -> bool {
        matches!(
            self,
            Reach::Reads | Reach::Linked { .. } | Reach::Copied { .. } | Reach::Holds { .. }
        )
    }
}

/// Why placing or removing a shared install failed.
#[derive(Debug, thiserror::Error)]
pub enum SharedError {
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
    Lock(#[from] crate::registry::lock::LockError),
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
    Install(#[from] crate::archive::install::InstallError),
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> SharedError + '_ {
    move |e| SharedError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

impl Placement {
    /// The shared skills folder.
    pub fn shared(&self) -> PathBuf {
        self.base.join(SHARED_ROOT)
    }

    /// The folder `agent` reads this scope's skills from.
    pub fn root(&self, agent: Agent) -> PathBuf {
        match self.scope {
            Scope::Project => self.base.join(project_root(agent)),
            Scope::Global => global_root(agent, &self.base),
        }
    }

    /// This placement for the agents `entry` records as well as those named.
    pub fn for_entry(&self, entry: &lock::Entry) -> Placement {
        let mut agents: Vec<Agent> = entry
            .agents
            .iter()
            .filter_map(|a| Agent::parse(a))
            .collect();
        for agent in &self.agents {
            if !agents.contains(agent) {
                agents.push(*agent);
            }
        }
        Placement {
            agents,
            copy: self.copy || entry.copy,
            ..self.clone()
        }
    }

    /// Records `entry` for the installed skill `name` in `lock` (with its folder hash, the
    /// agents recorded before and these, and the fields other tools wrote), for the caller to
    /// write, then places it for this placement's agents. The entry is recorded even when
    /// placing fails: the copy is installed, and `verify` names the agent that misses it.
    pub fn record(
        &self,
        name: &str,
        mut entry: lock::Entry,
        lock: &mut SkillsLock,
        force: bool,
    ) -> Result<Vec<(Agent, Reach)>, SharedError> {
        let dir = self.shared().join(name);
        let old = lock.skills.get(name).cloned().unwrap_or_default();
        entry.computed_hash = Some(hash::folder_hash(&dir).map_err(io(&dir))?);
        entry.skill_folder_hash = None;
        entry.agents = old.agents.clone();
        for agent in &self.agents {
            if !entry.agents.iter().any(|a| a == agent.name()) {
                entry.agents.push(agent.name().to_owned());
            }
        }
        entry.extra = old.extra.clone();
        entry.copy = self.copy;
        // Placing decides what is this install's own by the lock as it was.
        let before = lock.clone();
        lock.set(name, entry);
        self.place(name, &before, force)
    }

    /// This scope's lock file, read.
    pub fn lock(&self) -> Result<SkillsLock, SharedError> {
        let path = SkillsLock::path_for(self.scope, &self.base);
        Ok(SkillsLock::read(self.scope, &path)?)
    }

    /// `source` as this scope's lock file records a local source: relative to the project
    /// (`./skills/notes`, `../other/notes`), or absolute in the user's lock.
    pub fn lock_source(&self, source: &Path) -> String {
        let absolute = std::path::absolute(source).unwrap_or_else(|_| source.to_path_buf());
        let absolute = normalize(&absolute);
        if self.scope == Scope::Global {
            return absolute.to_string_lossy().into_owned();
        }
        let relative = relative(&self.base, &absolute);
        let text = relative.to_string_lossy();
        if text.is_empty() {
            ".".to_owned()
        } else if text.starts_with("..") {
            text.into_owned()
        } else {
            format!("./{text}")
        }
    }

    /// The folder a lock's local `source` names: in a project's lock, only one inside the
    /// project (the lock came with the project, from whoever wrote it), else `None`.
    pub fn local_source(&self, source: &str) -> Option<PathBuf> {
        let path = normalize(&self.base.join(source));
        if self.scope == Scope::Global {
            return Some(path);
        }
        // Where it really is: a link in the project may lead anywhere.
        let real = path.canonicalize().ok()?;
        real.starts_with(self.base.canonicalize().ok()?)
            .then_some(path)
    }

    /// `path` as messages show it: relative to the project, or `~/...` for the user's.
    pub fn shown(&self, path: &Path) -> String {
        match (path.strip_prefix(&self.base), self.scope) {
            (Ok(rest), Scope::Project) => rest.display().to_string(),
            (Ok(rest), Scope::Global) => format!("~/{}", rest.display()),
            (Err(_), _) => path.display().to_string(),
        }
    }

    /// How `agent` finds the skill `name` now. A folder in the agent's root counts as this
    /// install's own only when `lock` lists `name`, the folder is not the skill's own source,
    /// and its files are the recorded ones (or, for a copy made with `--copy`, the shared
    /// copy's); anything else is someone else's.
    pub fn reach(&self, agent: Agent, name: &str, lock: &SkillsLock) -> Reach {
        let root = self.root(agent);
        let shared = self.shared();
        if root == shared || same_folder(&root, &shared) {
            return Reach::Reads;
        }
        let path = root.join(name);
        let target = shared.join(name);
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            return Reach::Missing { path };
        };
        if meta.is_symlink() {
            return if target.is_dir() && same_folder(&path, &target) {
                Reach::Linked { path }
            } else {
                Reach::Other { path }
            };
        }
        let entry = lock.skills.get(name);
        let Some(entry) = entry.filter(|e| meta.is_dir() && !self.is_source(e, &path)) else {
            return Reach::Other { path };
        };
        let here = hash::folder_hash(&path).ok();
        let recorded = here.is_some() && here.as_deref() == entry.hash();
        if !target.is_dir() {
            return if recorded {
                Reach::Holds { path }
            } else {
                Reach::Other { path }
            };
        }
        if entry.copy && here.is_some() && here == hash::folder_hash(&target).ok() {
            Reach::Copied { path }
        } else if recorded {
            Reach::Stale { path }
        } else {
            Reach::Other { path }
        }
    }

    /// Whether `path` is the folder the entry's local source names (a project that keeps its
    /// skills in `skills/`, nanobot's root).
    fn is_source(&self, entry: &lock::Entry, path: &Path) -> bool {
        entry.source_type == lock::LOCAL_SOURCE
            && same_folder(&normalize(&self.base.join(&entry.source)), path)
    }

    /// Fails when an agent's root holds something under `name` that placing would replace and
    /// `force` was not given: checked before anything is installed.
    pub fn check_room(
        &self,
        name: &str,
        force: bool,
        lock: &SkillsLock,
    ) -> Result<(), SharedError> {
        for &agent in &self.agents {
            if let Reach::Other { path } = self.reach(agent, name, lock)
                && !force
            {
                return Err(SharedError::Taken(path));
            }
        }
        Ok(())
    }

    /// Links (or copies) the shared skill `name` into each agent's root that needs it; what is
    /// already in place is left alone, so a second run changes nothing. Something else in the
    /// way is replaced only with `force`.
    pub fn place(
        &self,
        name: &str,
        lock: &SkillsLock,
        force: bool,
    ) -> Result<Vec<(Agent, Reach)>, SharedError> {
        let mut out = Vec::new();
        for &agent in &self.agents {
            let reach = match self.reach(agent, name, lock) {
                Reach::Other { path } if !force => return Err(SharedError::Taken(path)),
                Reach::Linked { path } if self.copy => self.put(&path, name)?,
                Reach::Copied { path } if !self.copy => self.put(&path, name)?,
                Reach::Missing { path }
                | Reach::Other { path }
                | Reach::Holds { path }
                | Reach::Stale { path } => self.put(&path, name)?,
                reached => reached,
            };
            out.push((agent, reach));
        }
        Ok(out)
    }

    /// Replaces whatever is at `path` with a link to (or a copy of) the shared skill.
    fn put(&self, path: &Path, name: &str) -> Result<Reach, SharedError> {
        let target = self.shared().join(name);
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        // The new entry is made beside the old one, so a failure while making it leaves the
        // old one. A rename replaces a link at once; a folder has to be removed first.
        let staging = tempfile::Builder::new()
            .prefix(&format!(".{name}.tmp-"))
            .tempdir_in(dir)
            .map_err(io(dir))?;
        let new = staging.path().join(name);
        if self.copy {
            copy_tree(&target, &new)?;
        } else {
            // From where the folders really are: a link made from a path through another link
            // (a dotfiles folder linked as ~/.claude) would point nowhere.
            let real_dir = dir.canonicalize().map_err(io(dir))?;
            let real_target = target.canonicalize().map_err(io(&target))?;
            std::os::unix::fs::symlink(relative(&real_dir, &real_target), &new)
                .map_err(io(&new))?;
        }
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
            remove_entry(path)?;
        }
        std::fs::rename(&new, path).map_err(io(path))?;
        let path = path.to_path_buf();
        Ok(if self.copy {
            Reach::Copied { path }
        } else {
            Reach::Linked { path }
        })
    }

    /// Removes what this install put in agents' roots for `name`: every link to the shared
    /// copy (in any agent's root: a link left behind points nowhere), and the copies and own
    /// installs of the agents the lock records or that are named.
    pub fn unplace(&self, name: &str, lock: &SkillsLock) -> Result<Vec<PathBuf>, SharedError> {
        let mine = lock
            .skills
            .get(name)
            .map_or_else(|| self.clone(), |entry| self.for_entry(entry));
        let mut removed = Vec::new();
        for &agent in Agent::ALL {
            let path = match self.reach(agent, name, lock) {
                Reach::Linked { path } => path,
                Reach::Copied { path } | Reach::Stale { path } | Reach::Holds { path }
                    if mine.agents.contains(&agent) =>
                {
                    path
                }
                _ => continue,
            };
            if !removed.contains(&path) {
                remove_entry(&path)?;
                removed.push(path);
            }
        }
        Ok(removed)
    }

    /// Fails when, in a project, the shared folder or an agent's root leads out of the project
    /// through a link: a project's lock must not reach the user's own folders.
    pub fn check_contained(&self) -> Result<(), SharedError> {
        if self.scope == Scope::Global {
            return Ok(());
        }
        let base = self.base.canonicalize().map_err(io(&self.base))?;
        let roots = std::iter::once(self.shared()).chain(Agent::ALL.iter().map(|&a| self.root(a)));
        for root in roots {
            // The deepest part that exists is where a link could lead.
            let Some(real) = root.ancestors().find_map(|p| p.canonicalize().ok()) else {
                continue;
            };
            if !real.starts_with(&base) {
                return Err(SharedError::Escapes {
                    path: root,
                    to: real,
                });
            }
        }
        Ok(())
    }
}

/// Whether two paths lead to the same folder.
fn same_folder(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// One skill of a shared install's lock file, as `verify` finds it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Checked {
    /// The skill's name.
    pub name: String,
    /// The shared copy is gone.
    pub folder_missing: bool,
    /// The copy's folder hash differs from the lock's (`false` when the lock records none).
    pub hash_changed: bool,
    /// How each agent the lock names (and each named on the command line) finds it.
    pub agents: Vec<AgentReach>,
}

/// How one agent finds a shared skill.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AgentReach {
    /// The agent.
    pub agent: Agent,
    /// How.
    #[serde(flatten)]
    pub reach: Reach,
}

impl Checked {
    /// Whether the skill is as installed and every agent sees it.
    pub fn is_clean(&self) -> bool {
        !self.folder_missing
            && !self.hash_changed
            && self.agents.iter().all(|a| a.reach.is_reached())
    }
}

impl Placement {
    /// Compares each skill of `lock` with its shared copy, and checks that each agent it was
    /// installed for (and each of [`Placement::agents`]) still finds it.
    pub fn check(&self, lock: &SkillsLock) -> Vec<Checked> {
        let mut out = Vec::new();
        for (name, entry) in &lock.skills {
            let agents: Vec<AgentReach> = self
                .for_entry(entry)
                .agents
                .into_iter()
                .map(|agent| AgentReach {
                    agent,
                    reach: self.reach(agent, name, lock),
                })
                .collect();
            // The shared copy, or the agent's folder that holds the install itself.
            let copy = Some(self.shared().join(name))
                .filter(|c| c.is_dir())
                .or_else(|| {
                    agents.iter().find_map(|a| match &a.reach {
                        Reach::Holds { path } => Some(path.clone()),
                        _ => None,
                    })
                });
            let hash_changed = entry.source_type != lock::REGISTRY_SOURCE
                && copy.as_ref().is_some_and(|copy| {
                    entry.hash().is_some_and(|recorded| {
                        hash::folder_hash(copy).map_or(true, |now| now != recorded)
                    })
                });
            out.push(Checked {
                name: name.clone(),
                folder_missing: copy.is_none(),
                hash_changed,
                agents,
            });
        }
        out
    }
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
