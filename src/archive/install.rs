//! Installing a skill into a skills folder from an archive or a folder, atomically: everything
//! is checked, then written into a temporary folder beside the target and renamed into place;
//! an existing install is replaced only when asked, by a swap that rolls back on failure.
//! Also the ClawHub-compatible `.clawhub/lock.json` and `<skill>/.clawhub/origin.json`.

use super::reader::{ArchiveError, Limits, read_archive};
use super::select::{SelectError, select_files};
use crate::skill::fingerprint::{fingerprint, sha256_hex};
use crate::skill::layout::{self, PathError};
use std::path::{Path, PathBuf};

/// Where a skill comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A `.skill` or `.zip` file.
    Archive(PathBuf),
    /// A skill folder.
    Folder(PathBuf),
    /// Archive bytes already in memory (a registry download), installed under `name`.
    Bytes {
        /// The folder name to install as.
        name: String,
        /// The zip.
        bytes: Vec<u8>,
    },
}

impl Source {
    /// The source a command-line argument names: an existing folder or file.
    pub fn from_arg(arg: &str) -> Result<Source, InstallError> {
        let path = PathBuf::from(arg);
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => Ok(Source::Folder(path)),
            Ok(_) => Ok(Source::Archive(path)),
            Err(_) => Err(InstallError::NotFound(arg.to_owned())),
        }
    }
}

/// What was installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// The skill's name (its folder name).
    pub name: String,
    /// Where it now is.
    pub dir: PathBuf,
    /// Whether an earlier install was replaced.
    pub replaced: bool,
    /// Files written.
    pub files: usize,
    /// ClawHub fingerprint of the installed files.
    pub fingerprint: String,
    /// What was left out of the source, and why (for the user to read).
    pub notes: Vec<String>,
}

/// Why an install failed; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// The source does not exist.
    #[error("{0}: no such file, folder or registry skill")]
    NotFound(String),
    /// The archive was refused.
    #[error("{path}: {source}")]
    Archive {
        /// The archive.
        path: PathBuf,
        /// Why.
        source: ArchiveError,
    },
    /// The folder could not be read as a skill.
    #[error(transparent)]
    Select(#[from] SelectError),
    /// The folder has no SKILL.md.
    #[error("{0} has no SKILL.md")]
    NotASkill(PathBuf),
    /// No usable name.
    #[error("cannot name the installed folder {0:?}: {1}")]
    BadName(String, PathError),
    /// The folder's files break the skill path rules.
    #[error("{0}: {1}")]
    Layout(PathBuf, PathError),
    /// Installed already.
    #[error("Already installed: {0} (use --force)")]
    AlreadyInstalled(PathBuf),
    /// `uninstall` of something that is not an installed skill.
    #[error("{0} is not an installed skill (no SKILL.md there)")]
    NotInstalled(PathBuf),
    /// Reading or writing failed.
    #[error("{path}: {message}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        message: String,
    },
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> InstallError + '_ {
    move |e| InstallError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// A file to write: relative path, bytes, executable.
type Payload = Vec<(String, Vec<u8>, bool)>;

/// Installs `source` into `root` (a skills folder), replacing an existing install only with
/// `force`.
pub fn install(source: &Source, root: &Path, force: bool) -> Result<Installed, InstallError> {
    let mut notes = Vec::new();
    let (name, files) = match source {
        Source::Archive(path) => from_archive(path)?,
        Source::Folder(path) => {
            let (name, files) = from_folder(path)?;
            if path.join(layout::CLAWHUB_DIR).exists() {
                notes.push(format!(
                    "left out {name}/{}/: install metadata is written by the installer, never taken from a skill",
                    layout::CLAWHUB_DIR
                ));
            }
            (name, files)
        }
        Source::Bytes { name, bytes } => {
            let archive =
                super::reader::read_bytes(bytes, &Limits::default()).map_err(|source| {
                    InstallError::Archive {
                        path: PathBuf::from(name),
                        source,
                    }
                })?;
            (
                name.clone(),
                archive
                    .files
                    .into_iter()
                    .map(|f| (f.path, f.bytes, f.executable))
                    .collect(),
            )
        }
    };
    if let Err(rule) = layout::check_skill_name(&name) {
        return Err(InstallError::BadName(name, rule));
    }
    let target = root.join(&name);
    if target.exists() && !force {
        return Err(InstallError::AlreadyInstalled(target));
    }
    let created_root = !root.exists();
    std::fs::create_dir_all(root).map_err(io_error(root))?;
    let replaced = stage_and_swap(root, &name, &files, &target).inspect_err(|_| {
        // A failed first install leaves no empty skills folder behind (remove_dir refuses a
        // folder that holds anything).
        if created_root {
            let _ = std::fs::remove_dir(root);
        }
    })?;
    let hashes: Vec<(String, String)> = files
        .iter()
        .map(|(p, b, _)| (p.clone(), sha256_hex(b)))
        .collect();
    Ok(Installed {
        name,
        dir: target,
        replaced,
        files: files.len(),
        fingerprint: fingerprint(&hashes),
        notes,
    })
}

/// Writes `files` into a temporary folder in `root` and renames it to `target`.
fn stage_and_swap(
    root: &Path,
    name: &str,
    files: &Payload,
    target: &Path,
) -> Result<bool, InstallError> {
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.tmp-"))
        .tempdir_in(root)
        .map_err(io_error(root))?;
    write_files(staging.path(), files)?;
    let replaced = swap_in(staging.path(), target)?;
    let _ = staging.keep();
    Ok(replaced)
}

fn from_archive(path: &Path) -> Result<(String, Payload), InstallError> {
    let archive =
        read_archive(path, &Limits::default()).map_err(|source| InstallError::Archive {
            path: path.to_path_buf(),
            source,
        })?;
    let name = archive.top.clone().unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    Ok((
        name,
        archive
            .files
            .into_iter()
            .map(|f| (f.path, f.bytes, f.executable))
            .collect(),
    ))
}

fn from_folder(path: &Path) -> Result<(String, Payload), InstallError> {
    if !path.join("SKILL.md").is_file() {
        return Err(InstallError::NotASkill(path.to_path_buf()));
    }
    let name = super::pack::archive_name(path);
    let selected = select_files(path, false, None)?;
    layout::check_file_set(
        selected.iter().map(|f| f.path.as_str()),
        layout::FileSetKind::Download,
    )
    .map_err(|rule| InstallError::Layout(path.to_path_buf(), rule))?;
    let mut files = Vec::new();
    for file in selected {
        let bytes = std::fs::read(&file.source).map_err(io_error(&file.source))?;
        files.push((file.path, bytes, file.executable));
    }
    Ok((name, files))
}

fn write_files(dir: &Path, files: &Payload) -> Result<(), InstallError> {
    use std::os::unix::fs::PermissionsExt;
    for (path, bytes, executable) in files {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io_error(parent))?;
        }
        std::fs::write(&target, bytes).map_err(io_error(&target))?;
        let mode = if *executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(mode))
            .map_err(io_error(&target))?;
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).map_err(io_error(dir))
}

/// Renames `staging` to `target`; an existing target is moved aside first and restored if the
/// rename fails. Returns whether something was replaced.
fn swap_in(staging: &Path, target: &Path) -> Result<bool, InstallError> {
    if !target.exists() {
        std::fs::rename(staging, target).map_err(io_error(target))?;
        return Ok(false);
    }
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parent = target.parent().unwrap_or(Path::new("."));
    let backup = tempfile::Builder::new()
        .prefix(&format!(".{name}.old-"))
        .tempdir_in(parent)
        .map_err(io_error(parent))?;
    let backup_path = backup.path().join("previous");
    std::fs::rename(target, &backup_path).map_err(io_error(target))?;
    if let Err(e) = std::fs::rename(staging, target) {
        let _ = std::fs::rename(&backup_path, target);
        return Err(io_error(target)(e));
    }
    Ok(true)
}

/// Removes the installed skill `name` from `root`, and its lock entry if there is one.
pub fn uninstall(root: &Path, name: &str) -> Result<PathBuf, InstallError> {
    let dir = root.join(name);
    // An empty name would name the skills folder itself.
    if name.is_empty()
        || name.contains(['/', '\\'])
        || name.starts_with('.')
        || !(dir.join("SKILL.md").is_file() || dir.join("skill.md").is_file())
    {
        return Err(InstallError::NotInstalled(dir));
    }
    std::fs::remove_dir_all(&dir).map_err(io_error(&dir))?;
    let workdir = root.parent().unwrap_or(Path::new("."));
    if lock_path(workdir).is_file() {
        update_lock(workdir, name, None).map_err(io_error(&lock_path(workdir)))?;
    }
    Ok(dir)
}

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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner_handle: Option<String>,
    /// The version installed.
    pub installed_version: String,
    /// When, in milliseconds since the epoch (the same value as the lock entry's).
    pub installed_at: u64,
    /// The fingerprint of the tree right after extraction.
    pub fingerprint: String,
}

/// Writes `origin` to `<skill_dir>/.clawhub/origin.json` (2-space JSON and a newline, as the
/// clawhub CLI writes it).
pub fn write_origin(skill_dir: &Path, origin: &Origin) -> std::io::Result<()> {
    let dir = skill_dir.join(".clawhub");
    std::fs::create_dir_all(&dir)?;
    write_json(
        &dir.join("origin.json"),
        &serde_json::to_value(origin).map_err(std::io::Error::other)?,
    )
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner_handle: Option<String>,
}

/// `<workdir>/.clawhub/lock.json`.
pub fn lock_path(workdir: &Path) -> PathBuf {
    workdir.join(".clawhub/lock.json")
}

/// Sets (or with `None` removes) `key` in the lock file, keeping every other key and field as
/// it was. The legacy `.clawdhub/lock.json` is read when the current one does not exist.
pub fn update_lock(workdir: &Path, key: &str, entry: Option<&LockEntry>) -> std::io::Result<()> {
    let path = lock_path(workdir);
    let legacy = workdir.join(".clawdhub/lock.json");
    let existing = std::fs::read_to_string(&path)
        .or_else(|_| std::fs::read_to_string(&legacy))
        .ok();
    let mut lock: serde_json::Value = existing
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| serde_json::json!({"version": 1, "skills": {}}));
    if !lock["skills"].is_object() {
        lock["skills"] = serde_json::json!({});
    }
    let skills = lock["skills"]
        .as_object_mut()
        .expect("skills was just made an object");
    match entry {
        Some(entry) => {
            let value = serde_json::to_value(entry).map_err(std::io::Error::other)?;
            skills.insert(key.to_owned(), value);
        }
        None => {
            skills.shift_remove(key);
        }
    }
    std::fs::create_dir_all(path.parent().unwrap_or(workdir))?;
    write_json(&path, &lock)
}

/// Writes pretty JSON and a newline through a temporary file and a rename.
fn write_json(path: &Path, value: &serde_json::Value) -> std::io::Result<()> {
    let mut text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    text.push('\n');
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut temp, text.as_bytes())?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
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
        write_origin(&skill, &origin).unwrap();
        assert_eq!(
            std::fs::read_to_string(skill.join(".clawhub/origin.json")).unwrap(),
            "{\n  \"version\": 1,\n  \"registry\": \"https://reg.example.com\",\n  \"slug\": \"demo-skill\",\n  \"ownerHandle\": \"alice\",\n  \"installedVersion\": \"1.0.0\",\n  \"installedAt\": 1796030071275,\n  \"fingerprint\": \"4fdb\"\n}\n"
        );
        std::fs::create_dir_all(tmp.path().join(".clawhub")).unwrap();
        std::fs::write(lock_path(tmp.path()), "{\"version\":1,\"skills\":{\"other\":{\"version\":\"2.0.0\",\"installedAt\":1,\"pinned\":true}}}").unwrap();
        let entry = LockEntry {
            version: Some("1.0.0".into()),
            installed_at: 1_796_030_071_275,
            owner_handle: Some("alice".into()),
        };
        update_lock(tmp.path(), "demo-skill", Some(&entry)).unwrap();
        let lock: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(lock_path(tmp.path())).unwrap()).unwrap();
        assert_eq!(
            lock["skills"]["other"]["pinned"], true,
            "other entries keep their fields"
        );
        assert_eq!(
            lock["skills"]["demo-skill"],
            serde_json::json!({"version": "1.0.0", "installedAt": 1_796_030_071_275u64, "ownerHandle": "alice"})
        );
        update_lock(tmp.path(), "demo-skill", None).unwrap();
        let lock: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(lock_path(tmp.path())).unwrap()).unwrap();
        assert!(lock["skills"].get("demo-skill").is_none());
    }
}
