//! `--baseline PATH|REF`: the earlier version of a skill an impact eval compares with, a
//! folder as it is or the skill's folder at a git revision, exported into a temporary folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Why the baseline could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// The folder has no SKILL.md.
    #[error("baseline {0}: a folder without SKILL.md")]
    NotASkill(PathBuf),
    /// The folder could not be copied, or git could not export the revision.
    #[error("baseline {reference}: {message}")]
    Git {
        /// What was asked for.
        reference: String,
        /// What went wrong.
        message: String,
    },
}

/// A prepared baseline: a skill folder, kept as long as this lives.
#[derive(Debug)]
pub struct Baseline {
    dir: PathBuf,
    _temporary: Option<tempfile::TempDir>,
}

impl Baseline {
    /// The baseline skill's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `reference` for the skill in `skill_dir` named `name`: an existing folder, else a git
    /// revision of the repository holding `skill_dir`.
    pub fn prepare(
        reference: &str,
        skill_dir: &Path,
        name: &str,
    ) -> Result<Baseline, BaselineError> {
        let folder = Path::new(reference);
        if folder.is_dir() {
            if !folder.join("SKILL.md").is_file() {
                return Err(BaselineError::NotASkill(folder.to_owned()));
            }
            return copy_as(folder, name);
        }
        export(reference, skill_dir, name)
    }
}

/// A copy of the skill in `folder` named `name`: an earlier version kept in a folder of
/// another name is still listed under the skill's own.
fn copy_as(folder: &Path, name: &str) -> Result<Baseline, BaselineError> {
    let fail = |message: String| BaselineError::Git {
        reference: folder.display().to_string(),
        message,
    };
    let temporary = tempfile::Builder::new()
        .prefix("skill-baseline-")
        .tempdir()
        .map_err(|e| fail(e.to_string()))?;
    let source = skill_archive::install::Input::FolderAs {
        path: folder.to_owned(),
        name: name.to_owned(),
    };
    skill_archive::install::install(&source, temporary.path(), true)
        .map_err(|e| fail(e.to_string()))?;
    Ok(Baseline {
        dir: temporary.path().join(name),
        _temporary: Some(temporary),
    })
}

fn export(reference: &str, skill_dir: &Path, name: &str) -> Result<Baseline, BaselineError> {
    let fail = |message: String| BaselineError::Git {
        reference: reference.to_owned(),
        message,
    };
    if reference.is_empty() || reference.starts_with('-') || reference.contains(':') {
        return Err(fail(
            "neither a folder nor a git revision (a commit, branch or tag)".to_owned(),
        ));
    }
    let line =
        |args: &[&str]| git(skill_dir, args).map(|out| out.trim_end_matches('\n').to_owned());
    let prefix = line(&["rev-parse", "--show-prefix"]).map_err(|e| {
        fail(format!(
            "not a folder, and {} is not in a git repository ({e})",
            skill_dir.display()
        ))
    })?;
    let top = PathBuf::from(line(&["rev-parse", "--show-toplevel"]).map_err(&fail)?);
    let common = PathBuf::from(
        line(&["rev-parse", "--path-format=absolute", "--git-common-dir"]).map_err(&fail)?,
    );
    // A `.git` file may point anywhere: a skill folder from a stranger could name the user's
    // other repositories. Only a repository whose history is its own `.git` folder is read.
    let own = std::fs::canonicalize(top.join(".git")).ok();
    if own.is_none() || own != std::fs::canonicalize(&common).ok() {
        return Err(fail(format!(
            "{} keeps its history elsewhere (a .git file, a worktree); export the revision to a folder and pass that",
            top.display()
        )));
    }
    let tree = format!("{reference}:{prefix}");
    let files = tree_files(&top, &tree).map_err(&fail)?;
    let temporary = tempfile::Builder::new()
        .prefix("skill-baseline-")
        .tempdir()
        .map_err(|e| fail(e.to_string()))?;
    let dir = temporary.path().join(name);
    for (path, object, executable) in &files {
        // `cat-file blob` gives the stored bytes: no filter, attribute or hook runs.
        let bytes = git_bytes(&top, &["cat-file", "blob", object]).map_err(&fail)?;
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| fail(e.to_string()))?;
        }
        std::fs::write(&target, bytes).map_err(|e| fail(e.to_string()))?;
        if *executable {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| fail(e.to_string()))?;
        }
    }
    if !dir.join("SKILL.md").is_file() {
        return Err(fail(format!("{tree} has no SKILL.md")));
    }
    Ok(Baseline {
        dir,
        _temporary: Some(temporary),
    })
}

/// The files of `tree` (path, object, executable), checked as a download's are: relative
/// paths of plain names, regular files only, within the archive limits.
fn tree_files(top: &Path, tree: &str) -> Result<Vec<(String, String, bool)>, String> {
    let limits = skill_archive::reader::Limits::default();
    let listing = git_bytes(top, &["ls-tree", "-r", "-z", "-l", "--full-tree", tree])
        .map_err(|e| format!("git could not read the skill at this revision: {e}"))?;
    let mut files = Vec::new();
    let mut total = 0u64;
    for entry in listing.split(|b| *b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8(entry.to_vec())
            .map_err(|_| "a path that is not UTF-8 in the revision".to_owned())?;
        let (meta, path) = entry
            .split_once('\t')
            .ok_or_else(|| format!("unreadable git listing: {entry}"))?;
        let fields: Vec<&str> = meta.split_whitespace().collect();
        let [mode, kind, object, size] = fields[..] else {
            return Err(format!("unreadable git listing: {entry}"));
        };
        if kind != "blob" || !(mode == "100644" || mode == "100755") {
            return Err(format!(
                "{path}: not a regular file ({kind} {mode}) in the revision"
            ));
        }
        let plain = Path::new(path)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(n) if n != ".git"));
        if !plain {
            return Err(format!("{path}: not a plain relative path"));
        }
        let size: u64 = size
            .parse()
            .map_err(|_| format!("unreadable git listing: {entry}"))?;
        total += size;
        if size > limits.file_bytes || total > limits.total_bytes || files.len() >= limits.entries {
            return Err(format!(
                "the skill at {tree} is over the limits of a download"
            ));
        }
        files.push((path.to_owned(), object.to_owned(), mode == "100755"));
    }
    Ok(files)
}

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    String::from_utf8(git_bytes(dir, args)?)
        .map_err(|e| format!("git {} printed text that is not UTF-8: {e}", args.join(" ")))
}

/// `git` in `dir`, never prompting, with neither the system's configuration nor hooks or a
/// file-system monitor that a repository's configuration could name.
fn git_bytes(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let output = Command::new("git")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .args([
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "core.fsmonitor=false",
        ])
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(String::from_utf8_lossy(&output.stderr).trim().to_owned())
    }
}
