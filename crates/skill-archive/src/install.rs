//! Installing a skill into a skills folder from an archive or a folder, atomically: everything
//! is checked, then written into a temporary folder beside the target and renamed into place;
//! an existing install is replaced only when asked, by a swap that rolls back on failure.

use super::reader::{ArchiveError, Limits};
use super::select::{SelectError, select_files};
use skill_lint::security::{self, Allows, Scan, ScanFile};
use skill_model::fingerprint::{fingerprint, sha256_hex};
use skill_model::layout::{self, PathError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What to install: a skill folder, or an archive as a file or as bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A `.skill` or `.zip` file.
    Archive(PathBuf),
    /// A `.skill` or `.zip` file already read (and its signature checked), named as
    /// [`Input::Archive`] names it.
    ArchiveBytes {
        /// The file it was read from.
        path: PathBuf,
        /// Its bytes.
        bytes: Vec<u8>,
    },
    /// A skill folder.
    Folder(PathBuf),
    /// A skill folder installed under another name than its own (a lock's key).
    FolderAs {
        /// The folder.
        path: PathBuf,
        /// The folder name to install as.
        name: String,
    },
    /// Archive bytes already in memory (a registry download), installed under `name`.
    Bytes {
        /// The folder name to install as.
        name: String,
        /// The zip.
        bytes: Vec<u8>,
    },
}

impl Input {
    /// The source a command-line argument names: an existing folder or file.
    pub fn from_arg(arg: &str) -> Result<Input, InstallError> {
        let path = PathBuf::from(arg);
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => Ok(Input::Folder(path)),
            Ok(_) => Ok(Input::Archive(path)),
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
    /// Whether the skill was installed already with exactly these files, so nothing was
    /// written.
    pub unchanged: bool,
    /// Files written.
    pub files: usize,
    /// ClawHub fingerprint of the installed files.
    pub fingerprint: String,
    /// Each installed file's SHA-256, by path.
    pub hashes: Vec<(String, String)>,
    /// What was left out of the source, and why (for the user to read).
    pub notes: Vec<String>,
    /// What the security scan found: warnings, and errors when the install was let through
    /// with [`Risk::Allow`].
    pub scan: Scan,
}

/// What a security error does to an install.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Risk {
    /// Refuse the install, listing the findings (the default).
    #[default]
    Refuse,
    /// Install anyway (`--allow-risky`); the findings are still returned.
    Allow,
}

/// What an install accepts: what a security error does and which signatures it needs. The
/// caller (the CLI, from flags and settings) decides it once and hands it down unchanged.
#[derive(Debug, Clone, Default)]
pub struct InstallPolicy {
    /// What a security error in what is installed does.
    pub risk: Risk,
    /// Which signatures are trusted, and whether one is required.
    pub trust: crate::signature::TrustPolicy,
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
    /// The security scan found errors; nothing was written.
    #[error(
        "refusing to install {name}: the security scan found {count} error(s):\n{findings}",
        count = scan.errors().count(),
        findings = scan.render(true)
    )]
    Risky {
        /// The skill.
        name: String,
        /// What the scan found.
        scan: Scan,
    },
    /// Installed already.
    #[error("Already installed: {0}")]
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
/// `force`, and refusing a skill the security scan finds errors in.
pub fn install(source: &Input, root: &Path, force: bool) -> Result<Installed, InstallError> {
    install_with(source, root, force, Risk::Refuse)
}

/// [`install`], with what a security error does chosen by `risk`.
pub fn install_with(
    source: &Input,
    root: &Path,
    force: bool,
    risk: Risk,
) -> Result<Installed, InstallError> {
    install_pending(source, root, force, risk).map(Pending::commit)
}

/// An install whose replaced copy (if any) is kept aside until [`Pending::commit`], so a caller
/// whose own records then fail to write can put everything back with [`Pending::roll_back`].
#[derive(Debug)]
pub struct Pending {
    /// What was installed.
    pub installed: Installed,
    /// The previous install, moved aside (removed with this folder).
    backup: Option<tempfile::TempDir>,
    /// Whether the skills folder was made by this install.
    created_root: bool,
}

impl Pending {
    /// Keeps the install; the replaced copy is removed.
    pub fn commit(self) -> Installed {
        self.installed
    }

    /// Removes the install and puts back what it replaced, as if it never happened.
    pub fn roll_back(self) -> Result<(), InstallError> {
        if self.installed.unchanged {
            return Ok(());
        }
        let dir = &self.installed.dir;
        std::fs::remove_dir_all(dir).map_err(io_error(dir))?;
        if let Some(backup) = &self.backup {
            std::fs::rename(backup.path().join(PREVIOUS), dir).map_err(io_error(dir))?;
        }
        if self.created_root
            && let Some(root) = dir.parent()
        {
            let _ = std::fs::remove_dir(root);
        }
        Ok(())
    }
}

/// The name of the previous install inside its backup folder.
const PREVIOUS: &str = "previous";

/// The name of the skill `source` holds, as an install would name its folder.
pub fn name_of(source: &Input) -> Result<String, InstallError> {
    load(source).map(|(name, _, _)| name)
}

/// The skill's name, its files, and notes on what was left out.
fn load(source: &Input) -> Result<(String, Payload, Vec<String>), InstallError> {
    let mut notes = Vec::new();
    let (name, files) = match source {
        Input::Archive(path) => {
            let bytes = super::reader::read_file(path, &Limits::default()).map_err(|source| {
                InstallError::Archive {
                    path: path.clone(),
                    source,
                }
            })?;
            from_archive(path, &bytes)?
        }
        Input::ArchiveBytes { path, bytes } => from_archive(path, bytes)?,
        Input::Folder(path) | Input::FolderAs { path, .. } => {
            let (own, files) = from_folder(path)?;
            let name = match source {
                Input::FolderAs { name, .. } => name.clone(),
                _ => own,
            };
            if path.join(layout::CLAWHUB_DIR).exists() {
                notes.push(format!(
                    "left out {name}/{}/: install metadata is written by the installer, never taken from a skill",
                    layout::CLAWHUB_DIR
                ));
            }
            (name, files)
        }
        Input::Bytes { name, bytes } => {
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
    Ok((name, files, notes))
}

/// [`install_with`], keeping the previous install until the caller commits (see [`Pending`]).
pub fn install_pending(
    source: &Input,
    root: &Path,
    force: bool,
    risk: Risk,
) -> Result<Pending, InstallError> {
    let (name, files, notes) = load(source)?;
    if let Err(rule) = layout::check_skill_name(&name) {
        return Err(InstallError::BadName(name, rule));
    }
    // The files as they will be written, in memory: an archive's entries are scanned before
    // anything is extracted. The author's allow comments are shown, never obeyed.
    let scan = security::scan(
        files
            .iter()
            .map(|(path, bytes, _)| ScanFile { path, bytes }),
        Allows::Show,
    );
    if scan.has_errors() && risk == Risk::Refuse {
        return Err(InstallError::Risky { name, scan });
    }
    let hashes: Vec<(String, String)> = files
        .iter()
        .map(|(p, b, _)| (p.clone(), sha256_hex(b)))
        .collect();
    let target = root.join(&name);
    let unchanged = target.is_dir()
        && installed_files(&target)? == hashes.iter().cloned().collect()
        && same_modes(&target, &files);
    if target.exists() && !force && !unchanged {
        return Err(InstallError::AlreadyInstalled(target));
    }
    let created_root = !root.exists();
    let backup = if unchanged {
        None
    } else {
        replace_install(root, &name, &files, &target, created_root)?
    };
    let installed = Installed {
        name,
        dir: target,
        replaced: backup.is_some(),
        unchanged,
        files: files.len(),
        fingerprint: fingerprint(&hashes),
        hashes,
        notes,
        scan,
    };
    Ok(Pending {
        installed,
        backup,
        created_root,
    })
}

/// Writes the skill's files over `target`; returns the previous install, kept until the caller
/// commits.
fn replace_install(
    root: &Path,
    name: &str,
    files: &Payload,
    target: &Path,
    created_root: bool,
) -> Result<Option<tempfile::TempDir>, InstallError> {
    std::fs::create_dir_all(root).map_err(io_error(root))?;
    stage_and_swap(root, name, files, target).inspect_err(|_| {
        // A failed first install leaves no empty skills folder behind (remove_dir refuses
        // a folder that holds anything).
        if created_root {
            let _ = std::fs::remove_dir(root);
        }
    })
}

/// Every regular file below `dir` by `/`-separated path with its SHA-256, `.clawhub/` (the
/// installer's own records) left out; a link or anything else that is not a regular file is
/// listed with an empty hash, so it never matches.
pub fn installed_files(dir: &Path) -> Result<BTreeMap<String, String>, InstallError> {
    fn walk(
        root: &Path,
        dir: &Path,
        out: &mut BTreeMap<String, String>,
    ) -> Result<(), InstallError> {
        for entry in std::fs::read_dir(dir).map_err(io_error(dir))? {
            let entry = entry.map_err(io_error(dir))?;
            let path = entry.path();
            let relative = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            if relative == layout::CLAWHUB_DIR {
                continue;
            }
            let kind = entry.file_type().map_err(io_error(&path))?;
            if kind.is_dir() {
                walk(root, &path, out)?;
            } else if kind.is_file() {
                let bytes = std::fs::read(&path).map_err(io_error(&path))?;
                out.insert(relative, sha256_hex(&bytes));
            } else {
                out.insert(relative, String::new());
            }
        }
        Ok(())
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out)?;
    Ok(out)
}

/// Whether each file under `dir` is executable exactly when the payload's is.
fn same_modes(dir: &Path, files: &Payload) -> bool {
    use std::os::unix::fs::PermissionsExt;
    files.iter().all(|(path, _, executable)| {
        std::fs::metadata(dir.join(path))
            .is_ok_and(|m| (m.permissions().mode() & 0o111 != 0) == *executable)
    })
}

/// Writes `files` into a temporary folder in `root` and renames it to `target`.
fn stage_and_swap(
    root: &Path,
    name: &str,
    files: &Payload,
    target: &Path,
) -> Result<Option<tempfile::TempDir>, InstallError> {
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.tmp-"))
        .tempdir_in(root)
        .map_err(io_error(root))?;
    write_files(staging.path(), files)?;
    let replaced = swap_in(staging.path(), target)?;
    let _ = staging.keep();
    Ok(replaced)
}

fn from_archive(path: &Path, bytes: &[u8]) -> Result<(String, Payload), InstallError> {
    let archive = super::reader::read_bytes(bytes, &Limits::default()).map_err(|source| {
        InstallError::Archive {
            path: path.to_path_buf(),
            source,
        }
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
    if !path.join(layout::SKILL_MD).is_file() {
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

/// Renames `staging` to `target`; an existing target is moved aside first (into the returned
/// folder, which removes it when dropped) and restored if the rename fails.
fn swap_in(staging: &Path, target: &Path) -> Result<Option<tempfile::TempDir>, InstallError> {
    if !target.exists() {
        std::fs::rename(staging, target).map_err(io_error(target))?;
        return Ok(None);
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
    let backup_path = backup.path().join(PREVIOUS);
    std::fs::rename(target, &backup_path).map_err(io_error(target))?;
    if let Err(e) = std::fs::rename(staging, target) {
        let _ = std::fs::rename(&backup_path, target);
        return Err(io_error(target)(e));
    }
    Ok(Some(backup))
}

/// Removes the installed skill `name` from `root` (install records are the caller's: see
/// `skill_registry::install::uninstall`).
pub fn remove(root: &Path, name: &str) -> Result<PathBuf, InstallError> {
    let dir = root.join(name);
    // An empty name would name the skills folder itself.
    if layout::check_skill_name(name).is_err()
        || !(dir.join(layout::SKILL_MD).is_file() || dir.join(layout::SKILL_MD_LOWER).is_file())
    {
        return Err(InstallError::NotInstalled(dir));
    }
    std::fs::remove_dir_all(&dir).map_err(io_error(&dir))?;
    Ok(dir)
}
