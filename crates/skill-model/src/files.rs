//! The files of a skill folder, as publishing and packing would see them: ignore files honoured
//! (`.gitignore`, `.ignore`, `.skillignore`, `.clawhubignore`), `.git/` and `node_modules/`
//! skipped, nested skills left to themselves, symlinks listed but not followed.

use super::layout::SKILL_MD;
use std::path::{Path, PathBuf};

/// Ignore files honoured besides `.gitignore` and `.ignore`.
pub(crate) const IGNORE_FILES: [&str; 2] = [".skillignore", ".clawhubignore"];

/// A walker over `root` with the project's ignore rules: `.gitignore` (in or out of a git
/// repository), `.ignore`, [`IGNORE_FILES`]; hidden files seen; no user-global excludes, so the
/// result is the same on every machine; symlinks not followed.
pub fn walker(root: &Path) -> ignore::WalkBuilder {
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .hidden(false)
        .require_git(false)
        .git_global(false)
        .git_exclude(false)
        .follow_links(false);
    for name in IGNORE_FILES {
        builder.add_custom_ignore_filename(name);
    }
    builder
}

/// One entry under a skill folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    /// Path relative to the skill folder, `/`-separated.
    pub path: String,
    /// What it is.
    pub kind: FileKind,
    /// Size in bytes (0 for folders and symlinks).
    pub size: u64,
    /// True when any executable bit is set.
    pub executable: bool,
    /// When it was last modified, as `stat` gave it (not followed for a symlink).
    pub modified: Option<std::time::SystemTime>,
}

/// Reads the file at `path` whose size a `stat` already gave: `std::fs::read` would `stat` it
/// again to size its buffer, one more system call for every file lint reads.
pub fn read_sized(path: &Path, size: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // `File::read_to_end` would `stat` the open file for the same hint; through `Take` it
    // reads into the capacity given.
    file.take(u64::MAX).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The kind of a [`FileEntry`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file.
    File,
    /// A folder.
    Dir,
    /// A symbolic link and where it points, as written.
    Symlink(PathBuf),
    /// A FIFO, socket or device: never read (reading could block forever).
    Other,
}

/// Every entry under a skill folder, sorted by path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillFiles {
    /// The entries.
    pub entries: Vec<FileEntry>,
    /// When the folder itself last changed (a file added or removed in it), as the listing saw
    /// it; `None` when unknown.
    pub modified: Option<std::time::SystemTime>,
}

impl SkillFiles {
    /// Lists `dir`. Unreadable entries are skipped: lint reports what it can see.
    pub fn list(dir: &Path) -> SkillFiles {
        let root = dir.to_path_buf();
        let walker = walker(dir)
            .filter_entry(move |e| {
                let skipped = matches!(e.file_name().to_str(), Some(".git" | "node_modules"));
                let nested_skill = e.depth() > 0
                    && e.file_type().is_some_and(|t| t.is_dir())
                    && e.path() != root
                    && e.path().join(SKILL_MD).is_file();
                !skipped && !nested_skill
            })
            .build();
        let mut entries: Vec<FileEntry> = walker
            .flatten()
            .filter(|e| e.depth() > 0)
            .filter_map(|e| entry(dir, e.path()))
            .collect();
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        let modified = std::fs::metadata(dir).and_then(|m| m.modified()).ok();
        SkillFiles { entries, modified }
    }

    /// Wraps entries already listed (by discovery's walk), sorting them.
    pub(crate) fn from_entries(
        mut entries: Vec<FileEntry>,
        modified: Option<std::time::SystemTime>,
    ) -> SkillFiles {
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        SkillFiles { entries, modified }
    }

    /// The regular files.
    pub fn files(&self) -> impl Iterator<Item = &FileEntry> {
        self.entries.iter().filter(|e| e.kind == FileKind::File)
    }

    /// The entry at `path` (relative, `/`-separated), if listed.
    pub fn get(&self, path: &str) -> Option<&FileEntry> {
        self.entries
            .binary_search_by(|e| e.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.entries[i])
    }

    /// The entry whose path equals `path` ignoring ASCII case, if any.
    pub fn get_ignore_case(&self, path: &str) -> Option<&FileEntry> {
        self.entries
            .iter()
            .find(|e| e.path.eq_ignore_ascii_case(path))
    }
}

/// The entry for `path`, named relative to `dir` (no symlink is followed).
pub fn entry(dir: &Path, path: &Path) -> Option<FileEntry> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(path).ok()?;
    // A walked path is `dir` joined with clean names, so on Unix it is `/`-separated already.
    let rel = path.strip_prefix(dir).ok()?.to_string_lossy().into_owned();
    let kind = if meta.file_type().is_symlink() {
        FileKind::Symlink(std::fs::read_link(path).unwrap_or_default())
    } else if meta.is_dir() {
        FileKind::Dir
    } else if meta.is_file() {
        FileKind::File
    } else {
        FileKind::Other
    };
    Some(FileEntry {
        path: rel,
        size: if kind == FileKind::File {
            meta.len()
        } else {
            0
        },
        executable: meta.permissions().mode() & 0o111 != 0,
        modified: meta.modified().ok(),
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn lists_honouring_ignores_and_nested_skills() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        fs::create_dir_all(d.join("scripts")).unwrap();
        fs::create_dir_all(d.join("nested")).unwrap();
        fs::create_dir_all(d.join("node_modules/x")).unwrap();
        fs::write(d.join("SKILL.md"), "x").unwrap();
        fs::write(d.join("scripts/run.sh"), "#!/bin/sh\n").unwrap();
        fs::write(d.join("nested/SKILL.md"), "x").unwrap();
        fs::write(d.join("secret.txt"), "x").unwrap();
        fs::write(d.join(".skillignore"), "secret.txt\n").unwrap();
        std::os::unix::fs::symlink("scripts/run.sh", d.join("link")).unwrap();
        let files = SkillFiles::list(d);
        let paths: Vec<&str> = files.entries.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                ".skillignore",
                "SKILL.md",
                "link",
                "scripts",
                "scripts/run.sh"
            ]
        );
        assert!(matches!(
            files.get("link").unwrap().kind,
            FileKind::Symlink(_)
        ));
        assert!(files.get_ignore_case("skill.MD").is_some());
    }
}
