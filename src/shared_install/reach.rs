//! How each agent finds a shared skill, and placing it for them: what in an agent's folder is
//! this install's own (and may be replaced or removed) and what is not.

use super::lock::{LOCAL_SOURCE, LockedSkill, SkillsLock};
use super::{
    Placement, SharedError, copy_tree, hash, io, normalize, relative, remove_entry, same_folder,
};
use skill_model::catalog::Agent;
use skill_model::choice::Choice;
use std::path::{Path, PathBuf};

/// How one agent finds a shared skill.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "how", rename_all = "lowercase")]
pub(crate) enum Reach {
    /// The agent reads the shared folder itself.
    Reads,
    /// A symbolic link in the agent's root points at the shared copy.
    Linked {
        /// The link.
        path: PathBuf,
    },
    /// A link this install made points where the shared copy was; it is gone.
    Dangling {
        /// The link.
        path: PathBuf,
    },
    /// The copy the lock says this agent got (`--copy`) holds the shared copy's files.
    Copied {
        /// The copy.
        path: PathBuf,
    },
    /// A copy this install made holds other files than the shared copy: older ones, or the
    /// recorded ones; replaced when the skill is placed again.
    Stale {
        /// The copy.
        path: PathBuf,
    },
    /// The agent's root holds the skill itself, as the lock records it, and there is no
    /// shared copy: how vercel's CLI installs when every agent named reads one folder.
    Holds {
        /// The install.
        path: PathBuf,
    },
    /// The skill's own source folder is where the link would go; never replaced.
    Source {
        /// The source.
        path: PathBuf,
    },
    /// Nothing is there: the agent does not see the skill.
    Missing {
        /// Where the link belongs.
        path: PathBuf,
    },
    /// Something else is there (another skill, a folder this install did not make, a link
    /// elsewhere).
    Other {
        /// What is there.
        path: PathBuf,
    },
}

impl Reach {
    /// Whether the agent sees the shared copy.
    pub(crate) fn is_reached(&self) -> bool {
        matches!(
            self,
            Reach::Reads | Reach::Linked { .. } | Reach::Copied { .. } | Reach::Holds { .. }
        )
    }

    /// The entry in the agent's root, for all but [`Reach::Reads`].
    pub(crate) fn path(&self) -> Option<&Path> {
        match self {
            Reach::Reads => None,
            Reach::Linked { path }
            | Reach::Dangling { path }
            | Reach::Copied { path }
            | Reach::Stale { path }
            | Reach::Holds { path }
            | Reach::Source { path }
            | Reach::Missing { path }
            | Reach::Other { path } => Some(path),
        }
    }

    /// Whether it is something this install put there (removed by `uninstall`).
    fn is_own(&self) -> bool {
        matches!(
            self,
            Reach::Linked { .. }
                | Reach::Dangling { .. }
                | Reach::Copied { .. }
                | Reach::Stale { .. }
                | Reach::Holds { .. }
        )
    }
}

impl LockedSkill {
    /// Whether the lock says `agent` got a copy.
    fn copied_for(&self, agent: Agent) -> bool {
        self.copied.iter().any(|a| a == agent.name())
    }
}

impl Placement {
    /// How `agent` finds the skill `name` now. A folder in the agent's root is this install's
    /// own only when `lock` lists `name`, it is not the skill's own source, and it is the copy
    /// the lock says the agent got or holds the recorded files; a link is its own only when it
    /// points at the shared copy's place.
    pub(crate) fn reach(&self, agent: Agent, name: &str, lock: &SkillsLock) -> Reach {
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
        let entry = lock.skills.get(name);
        if self.is_source(entry, &path) {
            return Reach::Source { path };
        }
        if meta.is_symlink() {
            return match (points_at(&path, &shared, name), target.is_dir()) {
                (true, true) => Reach::Linked { path },
                (true, false) => Reach::Dangling { path },
                (false, _) => Reach::Other { path },
            };
        }
        let Some(entry) = entry.filter(|_| meta.is_dir()) else {
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
        let current = here.is_some() && here == hash::folder_hash(&target).ok();
        match (entry.copied_for(agent), current, recorded) {
            (true, true, _) => Reach::Copied { path },
            (true, false, _) | (false, _, true) => Reach::Stale { path },
            (false, _, false) => Reach::Other { path },
        }
    }

    /// Whether `path` is the skill's own source folder: the one this install reads from, or
    /// the one the lock's local source names (a project that keeps its skills in `skills/`,
    /// nanobot's root).
    fn is_source(&self, entry: Option<&LockedSkill>, path: &Path) -> bool {
        let recorded = entry
            .filter(|e| e.source_type == LOCAL_SOURCE)
            .map(|e| normalize(&self.base.join(&e.source)));
        [self.source.clone(), recorded]
            .into_iter()
            .flatten()
            .any(|source| same_folder(&source, path))
    }

    /// Fails when an agent's root holds something under `name` that placing would replace and
    /// `force` was not given, or the skill's own source: checked before anything is installed.
    pub(crate) fn check_room(
        &self,
        name: &str,
        force: bool,
        lock: &SkillsLock,
    ) -> Result<(), SharedError> {
        for &agent in &self.agents {
            self.contain(&self.root(agent))?;
            match self.reach(agent, name, lock) {
                Reach::Source { path } => return Err(SharedError::IsSource(path)),
                Reach::Other { path } if !force => return Err(SharedError::Taken(path)),
                _ => {}
            }
        }
        Ok(())
    }

    /// Links (or copies) the shared skill `name` into each agent's root that needs it; what is
    /// already in place is left alone, so a second run changes nothing. Something else in the
    /// way is replaced only with `force`, the skill's own source never. An agent that got a
    /// copy keeps getting one.
    pub(crate) fn place(
        &self,
        name: &str,
        lock: &SkillsLock,
        force: bool,
    ) -> Result<Vec<(Agent, Reach)>, SharedError> {
        let entry = lock.skills.get(name);
        let mut out = Vec::new();
        for &agent in &self.agents {
            self.contain(&self.root(agent))?;
            let copy = self.copy || entry.is_some_and(|e| e.copied_for(agent));
            let reach = match self.reach(agent, name, lock) {
                Reach::Source { path } => return Err(SharedError::IsSource(path)),
                Reach::Other { path } if !force => return Err(SharedError::Taken(path)),
                Reach::Linked { path } if copy => self.put(&path, name, copy)?,
                Reach::Copied { path } if !copy => self.put(&path, name, copy)?,
                Reach::Missing { path }
                | Reach::Other { path }
                | Reach::Holds { path }
                | Reach::Stale { path }
                | Reach::Dangling { path } => self.put(&path, name, copy)?,
                reached => reached,
            };
            out.push((agent, reach));
        }
        Ok(out)
    }

    /// Replaces whatever is at `path` with a link to (or a copy of) the shared skill.
    fn put(&self, path: &Path, name: &str, copy: bool) -> Result<Reach, SharedError> {
        let target = self.copy_of(name)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        self.contain(dir)?;
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        // The new entry is made beside the old one, so a failure while making it leaves the
        // old one. A rename replaces a link at once; a folder has to be removed first.
        let staging = tempfile::Builder::new()
            .prefix(&format!(".{name}.tmp-"))
            .tempdir_in(dir)
            .map_err(io(dir))?;
        let new = staging.path().join(name);
        if copy {
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
        Ok(if copy {
            Reach::Copied { path }
        } else {
            Reach::Linked { path }
        })
    }

    /// Removes what this install put in agents' roots for `name`: every link to the shared
    /// copy's place (in any agent's root inside the project: a link left behind points
    /// nowhere), and the copies and own installs of the agents the lock records or that are
    /// named.
    pub(crate) fn unplace(
        &self,
        name: &str,
        lock: &SkillsLock,
    ) -> Result<Vec<PathBuf>, SharedError> {
        let mine = lock
            .skills
            .get(name)
            .map_or_else(|| self.clone(), |entry| self.for_entry(entry));
        let mut removed = Vec::new();
        // The agents it was installed for must be inside the project, checked before anything
        // is removed; any other agent's root that leads out is not looked at.
        for &agent in &mine.agents {
            self.contain(&self.root(agent))?;
        }
        for &agent in Agent::ALL {
            if !self.is_contained(&self.root(agent))? {
                continue;
            }
            let reach = self.reach(agent, name, lock);
            let linked = matches!(reach, Reach::Linked { .. } | Reach::Dangling { .. });
            let Some(path) = reach
                .path()
                .filter(|_| reach.is_own() && (linked || mine.agents.contains(&agent)))
            else {
                continue;
            };
            if !removed.iter().any(|r: &PathBuf| r == path) {
                remove_entry(path)?;
                removed.push(path.to_path_buf());
            }
        }
        Ok(removed)
    }
}

/// Whether the link at `path` points at `shared/name`, read from where its folder really is
/// (how [`Placement::put`] makes it), whether or not anything is there now.
fn points_at(path: &Path, shared: &Path, name: &str) -> bool {
    let (Ok(text), Some(parent)) = (std::fs::read_link(path), path.parent()) else {
        return false;
    };
    let (Ok(real_parent), Ok(real_shared)) = (parent.canonicalize(), shared.canonicalize()) else {
        return false;
    };
    normalize(&real_parent.join(text)) == real_shared.join(name)
}
