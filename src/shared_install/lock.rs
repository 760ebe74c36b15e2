//! vercel's lock files, which a shared install reads and writes so that a folder set up by
//! either tool is understood by the other: a project's `skills-lock.json` (version 1) and the
//! user's `~/.agents/.skill-lock.json` (version 3, or `$XDG_STATE_HOME/skills/.skill-lock.json`),
//! as `readLocalLock` and `readSkillLock` in skills 1.7.4 read them. Entries are typed; fields
//! and entries this tool does not know are kept as they were, and writes are atomic.

use super::Scope;
use serde_json::{Map, Value};
use skill_registry::lock::{LockError, read_object, shape};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A project's lock file, at the project's root.
pub(crate) const PROJECT_LOCK: &str = "skills-lock.json";

/// The `sourceType` of a skill installed from a local folder, as vercel's CLI records it.
pub(crate) const LOCAL_SOURCE: &str = "local";

/// The `sourceType` this tool records for a registry install (vercel's CLI has none). Its
/// files are checked against the registry's own lock (`.clawhub/lock.json`), which also
/// restores it.
pub(crate) const REGISTRY_SOURCE: &str = "registry";

/// The `sourceType` of a skill from a git repository named by its URL (vercel's).
pub(crate) const GIT_SOURCE: &str = "git";

/// The `sourceType` of a skill from GitHub named `OWNER/REPO` (vercel's).
pub(crate) const GITHUB_SOURCE: &str = "github";

/// One skill's row in a lock file (a `skills` map value).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LockedSkill {
    /// Where it came from: a local folder (relative to the project in a project's lock), a
    /// repository, or for this tool's registry installs `SLUG@VERSION`.
    pub(crate) source: String,
    /// `local`, `github`, `git`, `gitlab`, `well-known` (vercel's); `archive` and `registry`
    /// (this tool's, for sources vercel's CLI has no kind for).
    pub(crate) source_type: String,
    /// The source's URL (the registry's, for a registry install).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) source_url: Option<String>,
    /// The branch, tag or commit a git source was asked for (vercel's `ref`).
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    pub(crate) reference: Option<String>,
    /// The skill's SKILL.md inside a repository (vercel's `skillPath`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) skill_path: Option<String>,
    /// The commit a git source was installed from, what `--frozen` checks out (this tool's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) commit: Option<String>,
    /// The folder hash, in a project's lock ([`super::hash::folder_hash`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) computed_hash: Option<String>,
    /// The folder hash, in the global lock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) skill_folder_hash: Option<String>,
    /// When it was first installed (global lock), ISO 8601.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) installed_at: Option<String>,
    /// When it was last written (global lock), ISO 8601.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) updated_at: Option<String>,
    /// The agents it was installed for (this tool's field; vercel's CLI keeps it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) agents: Vec<String>,
    /// The agents that got a copy rather than a link (`--copy`; this tool's field).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) copied: Vec<String>,
    /// Fields other tools write (`ref`, `skillPath`, ...), kept as they were.
    #[serde(flatten)]
    pub(crate) extra: Map<String, Value>,
}

impl LockedSkill {
    /// The recorded folder hash, wherever this lock keeps it.
    pub(crate) fn hash(&self) -> Option<&str> {
        self.computed_hash
            .as_deref()
            .or(self.skill_folder_hash.as_deref())
    }
}

/// A lock file: its skills by name, and whatever else it holds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SkillsLock {
    /// Where it is read from and written to.
    pub(crate) path: PathBuf,
    scope: Scope,
    /// The skills, by name.
    pub(crate) skills: BTreeMap<String, LockedSkill>,
    /// The top-level fields other than `version` and `skills` (`dismissed`, ...).
    other: Map<String, Value>,
}

impl SkillsLock {
    /// The lock file of a project at `base`, or the user's (`base` is then the home folder).
    pub(crate) fn path_for(scope: Scope, base: &Path) -> PathBuf {
        match scope {
            Scope::Project => base.join(PROJECT_LOCK),
            Scope::Global => match std::env::var_os("XDG_STATE_HOME") {
                Some(state) if !state.is_empty() => {
                    PathBuf::from(state).join("skills/.skill-lock.json")
                }
                _ => base.join(".agents/.skill-lock.json"),
            },
        }
    }

    /// The version each scope's file has.
    fn version(scope: Scope) -> u64 {
        match scope {
            Scope::Project => 1,
            Scope::Global => 3,
        }
    }

    /// Reads the lock at `path`; an empty one when there is none. An older or newer version
    /// than this tool writes is refused rather than overwritten, as is any entry of the wrong
    /// shape.
    pub(crate) fn read(scope: Scope, path: &Path) -> Result<SkillsLock, LockError> {
        let mut lock = SkillsLock {
            path: path.to_path_buf(),
            scope,
            skills: BTreeMap::new(),
            other: Map::new(),
        };
        let Some(mut object) = read_object(path)? else {
            if scope == Scope::Global {
                lock.other
                    .insert("dismissed".into(), Value::Object(Map::new()));
            }
            return Ok(lock);
        };
        let expected = Self::version(scope);
        match object.remove("version") {
            Some(Value::Number(n)) if n.as_u64() == Some(expected) => {}
            Some(v) => {
                return Err(shape(
                    path,
                    format!("`version` is {v}; this skill reads and writes version {expected}"),
                ));
            }
            None => return Err(shape(path, "has no `version`")),
        }
        let skills = match object.remove("skills") {
            Some(Value::Object(skills)) => skills,
            _ => return Err(shape(path, "`skills` must be an object of skills by name")),
        };
        for (name, value) in skills {
            // A name is a folder under the skills folder: never a path out of it.
            skill_model::layout::check_skill_name(&name)
                .map_err(|rule| shape(path, format!("`skills.{name}`: {rule}")))?;
            let entry = serde_json::from_value(value)
                .map_err(|e| shape(path, format!("`skills.{name}`: {e}")))?;
            lock.skills.insert(name, entry);
        }
        lock.other = object;
        Ok(lock)
    }

    /// The file's bytes, as vercel's CLI writes them (two-space indents, skills by name; a
    /// project's lock ends with a newline, the global one does not).
    pub(crate) fn render(&self) -> Vec<u8> {
        let mut object = Map::new();
        object.insert("version".into(), Self::version(self.scope).into());
        let skills: Map<String, Value> = self
            .skills
            .iter()
            .map(|(name, entry)| {
                let value = serde_json::to_value(entry).expect("an entry is a JSON object");
                (name.clone(), value)
            })
            .collect();
        object.insert("skills".into(), Value::Object(skills));
        object.extend(self.other.clone());
        let mut bytes = serde_json::to_vec_pretty(&Value::Object(object)).expect("a lock is JSON");
        if self.scope == Scope::Project {
            bytes.push(b'\n');
        }
        bytes
    }

    /// Writes the lock unless the file already holds exactly this; whether it wrote.
    pub(crate) fn write(&self) -> Result<bool, LockError> {
        let bytes = self.render();
        if std::fs::read(&self.path).is_ok_and(|old| old == bytes) {
            return Ok(false);
        }
        let io = |e: std::io::Error| LockError::Io(self.path.clone(), e.to_string());
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        skill_archive::atomic_file::write(&self.path, &bytes).map_err(io)?;
        Ok(true)
    }

    /// Records `entry` for `name`. In the global lock the first install time is kept and the
    /// update time moves only when the entry changed.
    pub(crate) fn set(&mut self, name: &str, mut entry: LockedSkill) {
        let old = self.skills.get(name);
        if self.scope == Scope::Global {
            entry.skill_folder_hash = entry.computed_hash.take();
            entry.source_url.get_or_insert_with(|| entry.source.clone());
            // JavaScript's `toISOString()`: milliseconds, always three digits.
            let now = jiff::Timestamp::now()
                .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
                .to_string();
            let first = old.and_then(|o| o.installed_at.clone());
            entry.installed_at = Some(first.unwrap_or_else(|| now.clone()));
            entry.updated_at = old.and_then(|o| o.updated_at.clone());
            if old.map(without_times) != Some(without_times(&entry)) {
                entry.updated_at = Some(now);
            }
        }
        self.skills.insert(name.to_owned(), entry);
    }
}

fn without_times(entry: &LockedSkill) -> LockedSkill {
    LockedSkill {
        installed_at: None,
        updated_at: None,
        ..entry.clone()
    }
}
