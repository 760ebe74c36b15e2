//! ClawHub's install records: `<root>/.clawhub/lock.json` (what is installed under a skills
//! folder's parent) and `<skill>/.clawhub/origin.json` (where one install came from). Both are
//! read into typed structs and checked as a whole before anything on disk changes; fields and
//! entries this tool does not know are kept as they were, and writes are atomic.

use serde_json::{Map, Value};
use skill_model::layout::{LEGACY_LOCK_FILE, LOCK_FILE, LOCK_GUARD_FILE, ORIGIN_FILE};
use std::path::{Path, PathBuf};

/// Where a registry install came from: `<skill>/.clawhub/origin.json`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Origin {
    /// Always 1.
    pub version: u32,
    /// The registry's base URL.
    pub registry: String,
    /// The skill's slug.
    pub slug: String,
    /// The publisher's handle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_handle: Option<String>,
    /// The version installed.
    pub installed_version: String,
    /// When, in milliseconds since the epoch (the same value as the lock entry's).
    pub installed_at: u64,
    /// The fingerprint of the tree right after extraction.
    pub fingerprint: String,
}

/// One skill in `.clawhub/lock.json`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LockEntry {
    /// The version installed (null for unversioned sources).
    pub version: Option<String>,
    /// When, in milliseconds since the epoch.
    pub installed_at: u64,
    /// The publisher's handle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_handle: Option<String>,
    /// The SHA-256 of the archive installed (this tool's; the clawhub CLI ignores it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// ClawHub's fingerprint of the installed files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// The key id of the archive's verified signer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signer: Option<String>,
    /// Every installed file's SHA-256 by path, for `skill verify` and `install --frozen`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<std::collections::BTreeMap<String, String>>,
    /// Fields other tools write (`pinned`, ...), kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `.clawhub/lock.json`: its entries in file order, and whatever else the file holds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LockFile {
    /// Where it is read from and written to.
    pub path: PathBuf,
    /// The skills, by slug, in file order.
    pub skills: Vec<(String, LockEntry)>,
    /// The top-level fields other than `skills`, in file order (`version` among them).
    other: Map<String, Value>,
}

/// A lock or origin file that cannot be used; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Reading or writing failed.
    #[error("{0}: {1}")]
    Io(PathBuf, String),
    /// A byte-order mark, which JSON readers refuse.
    #[error("{0}: starts with a byte-order mark; save it as UTF-8 without one")]
    Bom(PathBuf),
    /// Not JSON.
    #[error("{path}:{line}:{column}: not valid JSON: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// JSON of the wrong shape.
    #[error("{path}: {message}")]
    Shape {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the field.
        message: String,
    },
}

/// A lock file at `path` whose contents are not the shape a lock has.
pub fn shape(path: &Path, message: impl Into<String>) -> LockError {
    LockError::Shape {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// Reads a JSON object from `path`, or `None` when there is no such file.
pub fn read_object(path: &Path) -> Result<Option<Map<String, Value>>, LockError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(LockError::Io(path.to_path_buf(), e.to_string())),
    };
    if bytes.starts_with(b"\xEF\xBB\xBF")
        || bytes.starts_with(b"\xFF\xFE")
        || bytes.starts_with(b"\xFE\xFF")
    {
        return Err(LockError::Bom(path.to_path_buf()));
    }
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| LockError::Syntax {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        // The position is already in the prefix.
        message: e
            .to_string()
            .rsplit_once(" at line ")
            .map_or_else(|| e.to_string(), |(m, _)| m.to_owned()),
    })?;
    match value {
        Value::Object(map) => Ok(Some(map)),
        other => Err(shape(
            path,
            format!("must be a JSON object, not {}", kind(&other)),
        )),
    }
}

/// "an array", "a number", ... for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// An exclusive hold, between processes, on the lock file of one install root: taken before
/// the lock file is read for a change and released (when dropped) after it is written, so
/// concurrent installs each add their entry instead of overwriting the others'.
#[derive(Debug)]
pub(crate) struct LockGuard {
    _file: std::fs::File,
}

impl LockGuard {
    /// Waits for and takes the hold on `workdir`'s lock file.
    pub fn take(workdir: &Path) -> Result<LockGuard, LockError> {
        let path = workdir.join(LOCK_GUARD_FILE);
        let io = |e: std::io::Error| LockError::Io(path.clone(), e.to_string());
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io)?;
        rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)
            .map_err(|e| io(e.into()))?;
        Ok(LockGuard { _file: file })
    }
}

impl LockFile {
    /// The lock file of the install root `workdir` (the legacy `.clawdhub/lock.json` when only
    /// it exists); an empty one when neither does. A file of the wrong shape is an error.
    pub fn read(workdir: &Path) -> Result<LockFile, LockError> {
        let path = workdir.join(LOCK_FILE);
        let legacy = workdir.join(LEGACY_LOCK_FILE);
        let map = match read_object(&path)? {
            Some(map) => Some(map),
            None => read_object(&legacy)?,
        };
        let Some(mut map) = map else {
            let mut other = Map::new();
            other.insert("version".to_owned(), Value::from(1));
            return Ok(LockFile {
                path,
                skills: Vec::new(),
                other,
            });
        };
        let skills = match map.shift_remove("skills") {
            None => Vec::new(),
            Some(Value::Object(skills)) => skills
                .into_iter()
                .map(|(slug, entry)| {
                    let entry = serde_json::from_value(entry)
                        .map_err(|e| shape(&path, format!("skills.{slug}: {e}")))?;
                    Ok((slug, entry))
                })
                .collect::<Result<_, LockError>>()?,
            Some(other) => {
                return Err(shape(
                    &path,
                    format!("`skills` must be an object, not {}", kind(&other)),
                ));
            }
        };
        Ok(LockFile {
            path,
            skills,
            other: map,
        })
    }

    /// The entry for `slug`.
    pub fn get(&self, slug: &str) -> Option<&LockEntry> {
        self.skills.iter().find(|(s, _)| s == slug).map(|(_, e)| e)
    }

    /// Sets `slug`'s entry, in place when it exists, else at the end.
    pub fn set(&mut self, slug: &str, entry: LockEntry) {
        match self.skills.iter_mut().find(|(s, _)| s == slug) {
            Some((_, existing)) => *existing = entry,
            None => self.skills.push((slug.to_owned(), entry)),
        }
    }

    /// Removes `slug`'s entry.
    pub fn remove(&mut self, slug: &str) {
        self.skills.retain(|(s, _)| s != slug);
    }

    /// Writes the file (pretty JSON and a newline, as the clawhub CLI writes it) atomically.
    pub fn write(&self) -> Result<(), LockError> {
        let mut map = self.other.clone();
        let mut skills = Map::new();
        for (slug, entry) in &self.skills {
            let value = serde_json::to_value(entry)
                .map_err(|e| LockError::Io(self.path.clone(), e.to_string()))?;
            skills.insert(slug.clone(), value);
        }
        map.insert("skills".to_owned(), Value::Object(skills));
        write_json(&self.path, &Value::Object(map))
    }
}

impl Origin {
    /// Reads `<skill_dir>/.clawhub/origin.json`; `None` when there is none.
    pub fn read(skill_dir: &Path) -> Result<Option<Origin>, LockError> {
        let path = skill_dir.join(ORIGIN_FILE);
        let Some(map) = read_object(&path)? else {
            return Ok(None);
        };
        serde_json::from_value(Value::Object(map))
            .map(Some)
            .map_err(|e| shape(&path, e.to_string()))
    }

    /// Writes `<skill_dir>/.clawhub/origin.json` atomically.
    pub fn write(&self, skill_dir: &Path) -> Result<(), LockError> {
        let path = skill_dir.join(ORIGIN_FILE);
        let value =
            serde_json::to_value(self).map_err(|e| LockError::Io(path.clone(), e.to_string()))?;
        write_json(&path, &value)
    }
}

/// Writes pretty JSON and a newline through a temporary file beside `path` and a rename.
fn write_json(path: &Path, value: &Value) -> Result<(), LockError> {
    let io = |e: std::io::Error| LockError::Io(path.to_path_buf(), e.to_string());
    let mut text = serde_json::to_string_pretty(value)
        .map_err(|e| LockError::Io(path.to_path_buf(), e.to_string()))?;
    text.push('\n');
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    skill_archive::atomic_file::write(path, text.as_bytes()).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_and_lock_have_clawhubs_shapes() {
        let tmp = tempfile::tempdir().unwrap();
        let skill = tmp.path().join("skills/demo-skill");
        std::fs::create_dir_all(&skill).unwrap();
        let origin = Origin {
            version: 1,
            registry: "https://reg.example.com".into(),
            slug: "demo-skill".into(),
            owner_handle: Some("alice".into()),
            installed_version: "1.0.0".into(),
            installed_at: 1_796_030_071_275,
            fingerprint: "4fdb".into(),
        };
        origin.write(&skill).unwrap();
        assert_eq!(
            std::fs::read_to_string(skill.join(".clawhub/origin.json")).unwrap(),
            "{\n  \"version\": 1,\n  \"registry\": \"https://reg.example.com\",\n  \"slug\": \"demo-skill\",\n  \"ownerHandle\": \"alice\",\n  \"installedVersion\": \"1.0.0\",\n  \"installedAt\": 1796030071275,\n  \"fingerprint\": \"4fdb\"\n}\n"
        );
        assert_eq!(Origin::read(&skill).unwrap(), Some(origin));
        std::fs::create_dir_all(tmp.path().join(".clawhub")).unwrap();
        std::fs::write(
            tmp.path().join(LOCK_FILE),
            "{\"version\":1,\"skills\":{\"other\":{\"version\":\"2.0.0\",\"installedAt\":1,\"pinned\":true}},\"note\":\"kept\"}",
        )
        .unwrap();
        let mut lock = LockFile::read(tmp.path()).unwrap();
        lock.set(
            "demo-skill",
            LockEntry {
                version: Some("1.0.0".into()),
                installed_at: 1_796_030_071_275,
                owner_handle: Some("alice".into()),
                sha256: None,
                fingerprint: None,
                signer: None,
                files: None,
                extra: Map::new(),
            },
        );
        lock.write().unwrap();
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(tmp.path().join(LOCK_FILE)).unwrap())
                .unwrap();
        assert_eq!(written["skills"]["other"]["pinned"], true);
        assert_eq!(written["note"], "kept");
        assert_eq!(
            written["skills"]["demo-skill"],
            serde_json::json!({"version": "1.0.0", "installedAt": 1_796_030_071_275u64, "ownerHandle": "alice"})
        );
        let mut lock = LockFile::read(tmp.path()).unwrap();
        lock.remove("demo-skill");
        lock.write().unwrap();
        assert!(
            LockFile::read(tmp.path())
                .unwrap()
                .get("demo-skill")
                .is_none()
        );
    }

    #[test]
    fn wrong_shapes_are_errors_naming_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join(".clawhub")).unwrap();
        let cases: &[(&[u8], &str)] = &[
            (b"[1]", "must be a JSON object, not an array"),
            (b"42", "must be a JSON object, not a number"),
            (
                b"{\"version\":1,\"skills\":",
                "lock.json:1:22: not valid JSON: EOF while parsing a value",
            ),
            (b"\xEF\xBB\xBF{}", "byte-order mark"),
            (
                b"{\"skills\":[]}",
                "`skills` must be an object, not an array",
            ),
            (b"{\"skills\":{\"a\":7}}", "skills.a: invalid type"),
        ];
        for (text, expected) in cases {
            std::fs::write(tmp.path().join(LOCK_FILE), text).unwrap();
            let message = LockFile::read(tmp.path()).unwrap_err().to_string();
            assert!(message.contains(expected), "{message}");
            assert!(message.contains("lock.json"), "{message}");
        }
    }
}
