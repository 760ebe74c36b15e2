//! Getting a shared install's skills again from the sources its lock records: `install
//! --frozen` restores each as locked (its folder hash must be the locked one), `update`
//! refreshes it from a local folder or from its git reference.

use super::lock::{GIT_SOURCE, GITHUB_SOURCE, LOCAL_SOURCE, LockedSkill, REGISTRY_SOURCE};
use super::{Placement, SharedError, hash};
use crate::git_source::{Checkout, GitSource};
use skill_archive::install::{Input, InstallPolicy, Risk, install_pending, name_of};

impl LockedSkill {
    /// What a lock records of a git source installed at `commit`: vercel's `source`,
    /// `sourceUrl`, `ref` and `skillPath`, and the commit.
    pub(crate) fn from_git(git: &GitSource, commit: &str) -> LockedSkill {
        let (source, source_type) = match &git.github {
            Some(repo) => (repo.clone(), GITHUB_SOURCE),
            None => (git.url.clone(), GIT_SOURCE),
        };
        let skill_path = match git.path.as_deref() {
            Some(path) => format!("{path}/SKILL.md"),
            None => "SKILL.md".to_owned(),
        };
        LockedSkill {
            source,
            source_type: source_type.to_owned(),
            source_url: Some(git.url.clone()),
            reference: git.reference.clone(),
            skill_path: Some(skill_path),
            commit: Some(commit.to_owned()),
            ..LockedSkill::default()
        }
    }

    /// The git source this entry records, or `None` for other kinds.
    pub(crate) fn git(&self) -> Option<GitSource> {
        if self.source_type != GIT_SOURCE && self.source_type != GITHUB_SOURCE {
            return None;
        }
        let path = self
            .skill_path
            .as_deref()
            .map(|p| match p.strip_suffix("SKILL.md") {
                Some(dir) if dir.is_empty() || dir.ends_with('/') => dir.trim_matches('/'),
                _ => p,
            })
            .filter(|p| !p.is_empty())
            .map(str::to_owned);
        if self.source_type == GITHUB_SOURCE {
            // vercel's lock has no URL for GitHub: `source` is `OWNER/REPO`, and only that.
            let mut git = GitSource::github(&self.source).filter(|g| {
                g.path.is_none() && self.source_url.as_ref().is_none_or(|u| *u == g.url)
            })?;
            git.reference = self.reference.clone();
            git.path = path;
            return Some(git);
        }
        Some(GitSource {
            url: self
                .source_url
                .clone()
                .unwrap_or_else(|| self.source.clone()),
            reference: self.reference.clone(),
            path,
            github: None,
        })
    }

    /// Whether `update` can get this skill again (a local folder or a git repository).
    pub(crate) fn is_refetchable(&self) -> bool {
        self.source_type == LOCAL_SOURCE || self.git().is_some()
    }

    /// Whether the folder's hash is the recorded one (or none is recorded).
    fn matches(&self, dir: &std::path::Path) -> bool {
        self.hash()
            .is_none_or(|h| hash::folder_hash(dir).is_ok_and(|now| now == h))
    }
}

/// A lock entry's source, fetched: the folder to install from, and the commit for a git one.
struct Fetched {
    input: Input,
    commit: Option<String>,
    /// The clone the folder is in, kept until the install is done.
    _checkout: Option<Checkout>,
}

/// The folder as an install input: under `name` when the folder is named otherwise but its
/// frontmatter says `name` (vercel's CLI keys a skill by its frontmatter name).
fn as_named(path: std::path::PathBuf, name: &str) -> Input {
    let folder = path.file_name().map(|f| f.to_string_lossy().into_owned());
    if folder.as_deref() == Some(name)
        || skill_model::document::declared_name(&path).as_deref() != Some(name)
    {
        Input::Folder(path)
    } else {
        Input::FolderAs {
            path,
            name: name.to_owned(),
        }
    }
}

impl Fetched {
    /// Fails unless the source installs as `name`: the lock's key is the folder it goes to.
    fn check_name(&self, name: &str) -> Result<(), SharedError> {
        let found = name_of(&self.input)?;
        if found == name {
            Ok(())
        } else {
            Err(SharedError::Renamed {
                name: name.to_owned(),
                found,
            })
        }
    }
}

/// What `install --frozen` did for one skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Restored {
    /// Its copy was already as locked.
    AsLocked,
    /// Installed again from its source.
    Installed,
}

/// What `update` did for one skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refreshed {
    /// Its copy was edited since it was installed; left alone.
    LocalChanges,
    /// The source holds what is installed.
    UpToDate {
        /// The commit, for a git source.
        commit: Option<String>,
    },
    /// Installed again from the source.
    Updated {
        /// The commit, for a git source.
        commit: Option<String>,
    },
}

impl Placement {
    /// Fetches the source `entry` records: a local folder (inside the project for a project's
    /// lock), or a git repository at the pinned commit (`pinned`) or at its reference.
    fn fetch(&self, name: &str, entry: &LockedSkill, pinned: bool) -> Result<Fetched, SharedError> {
        if entry.source_type == LOCAL_SOURCE {
            let source = self.local_source(name, &entry.source)?;
            return Ok(Fetched {
                input: as_named(source, name),
                commit: None,
                _checkout: None,
            });
        }
        let git = entry.git().ok_or_else(|| SharedError::Unfetchable {
            name: name.to_owned(),
            kind: entry.source_type.clone(),
        })?;
        self.check_git_url(name, &git.url)?;
        let commit = match (pinned, entry.commit.as_deref()) {
            (true, None) => {
                return Err(SharedError::NoCommit {
                    name: name.to_owned(),
                    origin: entry.source.clone(),
                });
            }
            (pinned, commit) => commit.filter(|_| pinned),
        };
        let checkout = git.fetch(commit)?;
        Ok(Fetched {
            input: as_named(checkout.skill.clone(), name),
            commit: Some(checkout.commit.clone()),
            _checkout: Some(checkout),
        })
    }

    /// In a project's lock, a repository on this machine must be inside the project, as a
    /// local folder must: the lock came with the project, from whoever wrote it.
    fn check_git_url(&self, name: &str, url: &str) -> Result<(), SharedError> {
        let path = match url.strip_prefix("file://") {
            Some(path) => path,
            // `host:path` and `scheme://...` are remote; anything else is a path here.
            None if url.contains("://")
                || url.split('/').next().is_some_and(|h| h.contains(':')) =>
            {
                return Ok(());
            }
            None => url,
        };
        self.local_source(name, path).map(|_| ())
    }

    /// Puts the copy of `name` back as `entry` locks it: left alone when it is, else installed
    /// from its source (a local folder, or a git repository at the pinned commit) under `policy`
    /// and kept only when its folder hash is the locked one. A registry install is the registry
    /// lock's work.
    pub(crate) fn restore(
        &self,
        name: &str,
        entry: &LockedSkill,
        policy: &InstallPolicy,
    ) -> Result<Restored, SharedError> {
        let copy = self.copy_of(name)?;
        let as_locked =
            entry.source_type == REGISTRY_SOURCE || entry.hash().is_some() && entry.matches(&copy);
        if copy.is_dir() && as_locked {
            return Ok(Restored::AsLocked);
        }
        // A folder or a checkout carries no signature: refused where one is required.
        skill_archive::signature::check(&entry.source, &[], None, &policy.trust)?;
        let fetched = self.fetch(name, entry, true)?;
        fetched.check_name(name)?;
        let pending = install_pending(&fetched.input, &self.shared(), true, policy.risk)?;
        if !entry.matches(&copy) {
            pending.roll_back()?;
            return Err(SharedError::NotLocked {
                name: name.to_owned(),
                origin: entry.source.clone(),
            });
        }
        pending.commit();
        Ok(Restored::Installed)
    }

    /// Installs `name` again from the local folder or git reference `entry` records, unless
    /// its copy was edited and not `force`; `entry` then records the commit.
    pub(crate) fn refresh(
        &self,
        name: &str,
        entry: &mut LockedSkill,
        force: bool,
    ) -> Result<Refreshed, SharedError> {
        let copy = self.copy_of(name)?;
        if copy.is_dir() && !entry.matches(&copy) && !force {
            return Ok(Refreshed::LocalChanges);
        }
        let fetched = self.fetch(name, entry, false)?;
        fetched.check_name(name)?;
        let pending = install_pending(&fetched.input, &self.shared(), true, Risk::Refuse)?;
        let installed = pending.commit();
        let commit = fetched.commit;
        entry.commit = commit.clone().or(entry.commit.take());
        Ok(if installed.unchanged {
            Refreshed::UpToDate { commit }
        } else {
            Refreshed::Updated { commit }
        })
    }
}
