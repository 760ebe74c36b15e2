//! The files a skill ships: regular files, sorted by path, minus version-control and build
//! leftovers, secrets-prone dotfiles, `evals/`, archives, and whatever `.skillignore`,
//! `.clawhubignore` or `.gitignore` exclude. Symlinks are refused unless followed inside the
//! skill.

use std::path::{Path, PathBuf};

/// A file that goes into an archive or a publish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShippedFile {
    /// Path relative to the skill folder, `/`-separated.
    pub path: String,
    /// Where its bytes are (the link's target for a followed symlink).
    pub source: PathBuf,
    /// Size in bytes.
    pub size: u64,
    /// Whether any executable bit is set.
    pub executable: bool,
}

/// Why the file set could not be built.
#[derive(Debug, thiserror::Error)]
pub enum SelectError {
    /// A symlink, not allowed.
    #[error("{path} is a symlink; archives do not carry links")]
    Symlink {
        /// The link.
        path: PathBuf,
    },
    /// A symlink pointing outside the skill (or nowhere).
    #[error("{path} is a symlink to {target}, outside the skill folder")]
    SymlinkOutside {
        /// The link.
        path: PathBuf,
        /// Where it points.
        target: PathBuf,
    },
    /// Walking or reading failed.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        message: String,
    },
}

pub use skill_model::layout::EVALS_DIR;

/// Names never shipped, wherever they are.
const EXCLUDED_NAMES: &[&str] = &["node_modules", "__pycache__", "__MACOSX", "Thumbs.db"];

/// Whether `path` (relative, `/`-separated) is left out regardless of ignore files. Every
/// segment starting with `.` is left out, as ClawHub does (`.git/`, `.env`, `.DS_Store`,
/// `.clawhub/`), so packed and published file sets, and their fingerprints, agree; so is the
/// `_meta.json` a ClawHub download carries, which the registry writes anew for each version.
pub fn excluded(path: &str) -> bool {
    if skill_model::layout::is_install_metadata(path) {
        return true;
    }
    let segments: Vec<&str> = path.split('/').collect();
    let name = segments.last().copied().unwrap_or("");
    skill_model::layout::is_hidden(path)
        || segments.iter().any(|s| EXCLUDED_NAMES.contains(s))
        || segments.first() == Some(&EVALS_DIR)
        || name.ends_with(".pyc")
        || name.ends_with(".skill")
}

/// The files of `dir` to ship, sorted by path. `skip` is a file never to include (the output
/// archive, when it is being written somewhere the walk can see).
pub fn select_files(
    dir: &Path,
    follow_symlinks: bool,
    skip: Option<&Path>,
) -> Result<Vec<ShippedFile>, SelectError> {
    use std::os::unix::fs::PermissionsExt;
    let root = std::fs::canonicalize(dir).map_err(|e| io_error(dir, &e))?;
    let skip = skip.and_then(|p| std::fs::canonicalize(p).ok());
    // The skill's own ignore files only: a parent's .gitignore says nothing about what it ships.
    let walker = skill_model::files::walker(dir)
        .parents(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .build();
    let mut files = Vec::new();
    for entry in walker {
        let entry = entry.map_err(|e| io_error(dir, &e))?;
        let Ok(rel) = entry.path().strip_prefix(dir) else {
            continue;
        };
        let rel = slash_path(rel);
        if rel.is_empty() || excluded(&rel) {
            continue;
        }
        let source = file_source(entry.path(), &root, follow_symlinks)?;
        let meta = std::fs::metadata(&source).map_err(|e| io_error(&source, &e))?;
        if !meta.is_file()
            || skip
                .as_deref()
                .is_some_and(|s| std::fs::canonicalize(&source).ok().as_deref() == Some(s))
        {
            continue;
        }
        files.push(ShippedFile {
            path: rel,
            source,
            size: meta.len(),
            executable: meta.permissions().mode() & 0o111 != 0,
        });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    drop_sub_skill_evals(&mut files);
    Ok(files)
}

/// Leaves out a sub-skill's `evals/` (a bundle's `x/evals/` beside `x/SKILL.md`) as the root's
/// is left out: its tests and cassettes are the author's, and lint does not scan them.
fn drop_sub_skill_evals(files: &mut Vec<ShippedFile>) {
    let evals: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let (dir, name) = f.path.rsplit_once('/')?;
            name.eq_ignore_ascii_case(skill_model::layout::SKILL_MD)
                .then(|| format!("{dir}/{EVALS_DIR}/"))
        })
        .collect();
    if !evals.is_empty() {
        files.retain(|f| !evals.iter().any(|e| f.path.starts_with(e.as_str())));
    }
}

/// The error for a failed walk or read of `path`.
fn io_error(path: &Path, e: &dyn std::fmt::Display) -> SelectError {
    SelectError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// `rel` with `/` between its components, whatever the platform.
fn slash_path(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Where the bytes of the walked `path` are read from: the path itself, or a symlink's target
/// when links are followed and it lies inside `root`.
fn file_source(path: &Path, root: &Path, follow_symlinks: bool) -> Result<PathBuf, SelectError> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| io_error(path, &e))?;
    if !meta.file_type().is_symlink() {
        return Ok(path.to_path_buf());
    }
    if !follow_symlinks {
        return Err(SelectError::Symlink {
            path: path.to_path_buf(),
        });
    }
    let target = std::fs::canonicalize(path).unwrap_or_default();
    if !target.starts_with(root) || target.as_os_str().is_empty() {
        let written = std::fs::read_link(path).unwrap_or_default();
        return Err(SelectError::SymlinkOutside {
            path: path.to_path_buf(),
            target: written,
        });
    }
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::excluded;

    #[test]
    fn exclusions() {
        for path in [
            ".git/config",
            ".env",
            ".env.local",
            "a/.DS_Store",
            "node_modules/x/y.js",
            "scripts/__pycache__/a.pyc",
            "x.pyc",
            "evals/case.yaml",
            "old.skill",
            "__MACOSX/a",
            "Thumbs.db",
            "_meta.json",
            ".clawhub/origin.json",
        ] {
            assert!(excluded(path), "{path}");
        }
        for path in [
            "SKILL.md",
            "scripts/run.sh",
            "references/evals/x.md",
            "assets/env.txt",
            "references/_meta.json",
        ] {
            assert!(!excluded(path), "{path}");
        }
    }
}
