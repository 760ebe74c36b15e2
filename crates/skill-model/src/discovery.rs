//! Finding skills from command-line paths: a skill directory, a `SKILL.md` file, or a tree in
//! which every directory holding a `SKILL.md` is a skill (ignore files honoured).

use super::files::{self, FileEntry, SkillFiles};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub use super::layout::{SKILL_MD, SKILL_MD_LOWER};

/// A skill directory found on disk and the manifest file in it, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillLocation {
    /// The skill directory, as reached from the path the user gave.
    pub dir: PathBuf,
    /// `SKILL.md` (or `skill.md` when that is all there is), or `None` when missing.
    pub file: Option<PathBuf>,
    /// The skill's files when the walk that found it listed them already.
    pub files: Option<SkillFiles>,
}

/// Why a path given on the command line names no skill.
#[derive(Debug, thiserror::Error)]
pub enum DiscoveryError {
    /// The path does not exist.
    #[error("{path}: no such file or directory")]
    NotFound {
        /// The path as given.
        path: PathBuf,
    },
    /// A file that is not a `SKILL.md`.
    #[error("{path}: not a skill directory or SKILL.md file")]
    NotASkill {
        /// The path as given.
        path: PathBuf,
    },
}

/// Finds the skills named by `paths`, sorted by directory and without duplicates, each with
/// the files the walk listed.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<SkillLocation>, DiscoveryError> {
    discover_listing(paths, true)
}

/// [`discover`] without listing the skills' files as it walks, for work that reads only
/// the manifests: the walk then costs no `stat` per file, and a skill whose files are asked
/// for after all lists them itself.
pub fn discover_manifests(paths: &[PathBuf]) -> Result<Vec<SkillLocation>, DiscoveryError> {
    discover_listing(paths, false)
}

fn discover_listing(paths: &[PathBuf], list: bool) -> Result<Vec<SkillLocation>, DiscoveryError> {
    let mut found = Vec::new();
    for path in paths {
        found.extend(discover_one(path, list)?);
    }
    found.sort_by(|a, b| a.dir.cmp(&b.dir));
    found.dedup_by(|a, b| a.dir == b.dir);
    Ok(found)
}

fn discover_one(path: &Path, list: bool) -> Result<Vec<SkillLocation>, DiscoveryError> {
    let meta = std::fs::metadata(path).map_err(|_| DiscoveryError::NotFound {
        path: path.to_path_buf(),
    })?;
    if !meta.is_dir() {
        return file_location(path).map(|l| vec![l]);
    }
    let below = walk(path, list);
    if below.is_empty() {
        // A folder with no skill anywhere below is taken as one skill missing its SKILL.md.
        return Ok(vec![SkillLocation {
            dir: clean(path),
            file: None,
            files: None,
        }]);
    }
    Ok(below)
}

fn file_location(path: &Path) -> Result<SkillLocation, DiscoveryError> {
    let is_manifest = path
        .file_name()
        .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(SKILL_MD));
    if !is_manifest {
        return Err(DiscoveryError::NotASkill {
            path: path.to_path_buf(),
        });
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok(SkillLocation {
        dir: clean(&dir),
        file: Some(clean(path)),
        files: None,
    })
}

/// What the walk saw: a manifest file (its directory, path, and whether it is upper case), or
/// any entry (listed relative to the walk's root).
enum Seen {
    Manifest(PathBuf, PathBuf, bool),
    Entry(FileEntry),
}

/// Every directory under `root` holding a `SKILL.md` or `skill.md` (file or not: a directory
/// named `SKILL.md` is a broken skill worth reporting), each with its files when `list`, from
/// one walk.
fn walk(root: &Path, list: bool) -> Vec<SkillLocation> {
    let seen: Mutex<Vec<Seen>> = Mutex::new(Vec::new());
    files::walker(root)
        .filter_entry(|e| !matches!(e.file_name().to_str(), Some(".git" | "node_modules")))
        .build_parallel()
        .visit(&mut Collectors {
            root,
            list,
            seen: &seen,
        });
    let mut manifests: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    let mut entries = Vec::new();
    for item in seen.into_inner().unwrap_or_else(|e| e.into_inner()) {
        match item {
            Seen::Manifest(dir, file, true) => {
                manifests.insert(dir, file);
            }
            Seen::Manifest(dir, file, false) => {
                manifests.entry(dir).or_insert(file);
            }
            Seen::Entry(entry) => entries.push(entry),
        }
    }
    entries.par_sort_unstable_by(|a, b| a.path.cmp(&b.path));
    let root_clean = clean(root);
    let relative: Vec<String> = manifests
        .keys()
        .map(|dir| relative_to(&root_clean, dir))
        .collect();
    let mut sorted = relative.clone();
    sorted.sort();
    manifests
        .into_iter()
        .collect::<Vec<_>>()
        .into_par_iter()
        .zip(relative)
        .map(|((dir, file), rel)| SkillLocation {
            files: list.then(|| files_under(&entries, &rel, &sorted, &dir)),
            dir,
            file: Some(file),
        })
        .collect()
}

/// Makes one [`Collector`] per thread of the walk.
struct Collectors<'s> {
    root: &'s Path,
    list: bool,
    seen: &'s Mutex<Vec<Seen>>,
}

impl<'s> ignore::ParallelVisitorBuilder<'s> for Collectors<'s> {
    fn build(&mut self) -> Box<dyn ignore::ParallelVisitor + 's> {
        Box::new(Collector {
            root: self.root,
            list: self.list,
            seen: self.seen,
            mine: Vec::new(),
        })
    }
}

/// What one thread of the walk saw, handed over whole when the thread is done: a lock taken for
/// every entry made the two threads wait on each other.
struct Collector<'s> {
    root: &'s Path,
    list: bool,
    seen: &'s Mutex<Vec<Seen>>,
    mine: Vec<Seen>,
}

impl ignore::ParallelVisitor for Collector<'_> {
    fn visit(&mut self, entry: Result<ignore::DirEntry, ignore::Error>) -> ignore::WalkState {
        let Ok(entry) = entry else {
            return ignore::WalkState::Continue;
        };
        if entry.depth() == 0 {
            return ignore::WalkState::Continue;
        }
        let name = entry.file_name();
        let upper = name == SKILL_MD;
        if let (true, Some(dir)) = (upper || name == SKILL_MD_LOWER, entry.path().parent()) {
            self.mine
                .push(Seen::Manifest(clean(dir), clean(entry.path()), upper));
        }
        if self.list {
            self.mine
                .extend(files::entry(self.root, entry.path()).map(Seen::Entry));
        }
        ignore::WalkState::Continue
    }
}

impl Drop for Collector<'_> {
    fn drop(&mut self) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.append(&mut self.mine);
    }
}

/// `dir` relative to `root`, `/`-separated (`""` for the root itself).
fn relative_to(root: &Path, dir: &Path) -> String {
    let rel = dir.strip_prefix(root).unwrap_or(dir);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// The entries under skill folder `dir` (relative to the walk root), renamed relative to it,
/// leaving out other skills nested inside it. Both slices are sorted by path.
fn files_under(
    entries: &[FileEntry],
    dir: &str,
    sorted_skill_dirs: &[String],
    path: &Path,
) -> SkillFiles {
    let prefix = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    let under = |list: &[String]| {
        let start = list.partition_point(|d| d.as_str() < prefix.as_str());
        list[start..]
            .iter()
            .take_while(|d| d.starts_with(&prefix))
            .filter(|d| d.len() > prefix.len())
            .map(|d| format!("{d}/"))
            .collect::<Vec<_>>()
    };
    let nested = under(sorted_skill_dirs);
    let start = entries.partition_point(|e| e.path.as_str() < prefix.as_str());
    let mut own = Vec::new();
    for entry in entries[start..]
        .iter()
        .take_while(|e| e.path.starts_with(&prefix))
    {
        let inside_nested = nested.iter().any(|n| {
            entry.path.starts_with(n.as_str())
                || (entry.path.len() + 1 == n.len() && n.starts_with(entry.path.as_str()))
        });
        if !inside_nested {
            own.push(FileEntry {
                path: entry.path[prefix.len()..].to_owned(),
                kind: entry.kind.clone(),
                size: entry.size,
                executable: entry.executable,
                modified: entry.modified,
            });
        }
    }
    // The walk saw the folder as an entry of the one above, unless it is where the walk began.
    let modified = match entries.binary_search_by(|e| e.path.as_str().cmp(dir)) {
        Ok(at) => entries[at].modified,
        Err(_) => std::fs::metadata(path).and_then(|m| m.modified()).ok(),
    };
    SkillFiles::from_entries(own, modified)
}

/// Drops `./` prefixes so paths print as users write them.
fn clean(path: &Path) -> PathBuf {
    let stripped = path.strip_prefix(".").unwrap_or(path);
    if stripped.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        stripped.to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn finds_skills_in_a_tree_and_honours_gitignore() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for dir in ["a", "b/c", "ignored/d", ".hidden/e", "lower"] {
            fs::create_dir_all(root.join(dir)).unwrap();
        }
        fs::write(root.join("a/SKILL.md"), "").unwrap();
        fs::write(root.join("b/c/SKILL.md"), "").unwrap();
        fs::write(root.join("ignored/d/SKILL.md"), "").unwrap();
        fs::write(root.join(".hidden/e/SKILL.md"), "").unwrap();
        fs::write(root.join("lower/skill.md"), "").unwrap();
        fs::write(root.join(".gitignore"), "ignored/\n").unwrap();
        let found = discover(&[root.to_path_buf()]).unwrap();
        let dirs: Vec<_> = found
            .iter()
            .map(|l| {
                l.dir
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(dirs, [".hidden/e", "a", "b/c", "lower"]);
        assert!(found[3].file.as_ref().unwrap().ends_with("skill.md"));
    }

    #[test]
    fn a_file_names_its_directory() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("SKILL.md"), "").unwrap();
        fs::write(tmp.path().join("x.txt"), "").unwrap();
        let found = discover(&[tmp.path().join("SKILL.md")]).unwrap();
        assert_eq!(found[0].dir, tmp.path());
        assert!(matches!(
            discover(&[tmp.path().join("x.txt")]),
            Err(DiscoveryError::NotASkill { .. })
        ));
        assert!(matches!(
            discover(&[tmp.path().join("nope")]),
            Err(DiscoveryError::NotFound { .. })
        ));
    }

    #[test]
    fn an_empty_folder_is_a_skill_missing_its_file() {
        let tmp = tempfile::tempdir().unwrap();
        let found = discover(&[tmp.path().to_path_buf()]).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].file, None);
    }
}
