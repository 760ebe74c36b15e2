//! `--baseline PATH|REF`: the earlier version of a skill an impact eval compares with, a
//! folder as it is or the skill's folder at a git revision, exported into a temporary folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Why the baseline could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// The folder has no SKILL.md.
    #[error("--baseline {0}: a folder without SKILL.md")]
    NotASkill(PathBuf),
    /// The folder could not be copied, or git could not export the revision.
    #[error("--baseline {reference}: {message}")]
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
    let source = crate::archive::install::Input::FolderAs {
        path: folder.to_owned(),
        name: name.to_owned(),
    };
    crate::archive::install::install(&source, temporary.path(), true)
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
    if reference.starts_with('-') || reference.contains(':') {
        return Err(fail(
            "neither a folder nor a git revision (a commit, branch or tag)".to_owned(),
        ));
    }
    let prefix = git(skill_dir, &["rev-parse", "--show-prefix"]).map_err(|e| {
        fail(format!(
            "not a folder, and {} is not in a git repository ({e})",
            skill_dir.display()
        ))
    })?;
    let prefix = prefix.trim_end_matches('\n');
    // Run from a subfolder, `git archive` keeps only that subfolder of the tree it is given.
    let top = git(skill_dir, &["rev-parse", "--show-toplevel"]).map_err(fail)?;
    let top = Path::new(top.trim_end_matches('\n'));
    let temporary = tempfile::Builder::new()
        .prefix("skill-baseline-")
        .tempdir()
        .map_err(|e| fail(e.to_string()))?;
    let dir = temporary.path().join(name);
    std::fs::create_dir_all(&dir).map_err(|e| fail(e.to_string()))?;
    let tree = format!("{reference}:{prefix}");
    let zip = git_bytes(top, &["archive", "--format=zip", &tree]).map_err(|e| {
        fail(format!(
            "git could not export the skill at this revision: {e}"
        ))
    })?;
    // Read as any download is: a revision is a stranger's as much as an archive is.
    let archive = crate::archive::reader::read_bytes(&zip, &Default::default())
        .map_err(|e| fail(format!("the skill at {tree}: {e}")))?;
    for file in &archive.files {
        let target = dir.join(&file.path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| fail(e.to_string()))?;
        }
        std::fs::write(&target, &file.bytes).map_err(|e| fail(e.to_string()))?;
    }
    Ok(Baseline {
        dir,
        _temporary: Some(temporary),
    })
}

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    String::from_utf8(git_bytes(dir, args)?).map_err(|e| e.to_string())
}

fn git_bytes(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let output = Command::new("git")
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
