//! What a run produced: its final answer and the files it created or changed in its workspace
//! (the installed skills and the eval's unchanged inputs left out).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Most bytes of one output file shown to a grader.
const SHOWN_BYTES: usize = 16 * 1024;
/// Most output files kept from one run, in path order: an agent that writes a tree of
/// thousands is cut, the same way on every file system.
const MAX_FILES: usize = 200;
/// Most bytes kept of one output file (a prefix; its size is kept whole).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// Most bytes kept of one run's files together.
const MAX_RUN_BYTES: u64 = 16 * 1024 * 1024;
/// Folders of caches and tools, not outputs: what package managers and interpreters leave in
/// a workspace that is also the run's HOME.
const NOT_OUTPUTS: &[&str] = &[".git", ".cache", ".npm", "node_modules", "__pycache__"];

/// One produced file.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputFile {
    /// Its path relative to the workspace, with `/`.
    pub path: String,
    /// Its bytes, or their first [`MAX_FILE_BYTES`].
    pub bytes: Vec<u8>,
    /// Its size.
    pub size: u64,
}

impl OutputFile {
    /// Whether only a prefix of it was kept.
    pub fn cut(&self) -> bool {
        self.size > self.bytes.len() as u64
    }

    /// Its text, when it is UTF-8 (a kept prefix may end inside a character).
    pub fn text(&self) -> Option<&str> {
        match std::str::from_utf8(&self.bytes) {
            Ok(text) => Some(text),
            Err(e) if self.cut() && e.error_len().is_none() => {
                std::str::from_utf8(&self.bytes[..e.valid_up_to()]).ok()
            }
            Err(_) => None,
        }
    }

    /// Whether `name` names it: its whole relative path, or its file name alone.
    pub fn named(&self, name: &str) -> bool {
        let name = name.trim_start_matches("./");
        self.path == name || (!name.contains('/') && self.path.rsplit('/').next() == Some(name))
    }
}

/// A run's outputs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outputs {
    /// The final answer (empty when the run gave none).
    pub answer: String,
    /// Files created or changed, by path.
    pub files: Vec<OutputFile>,
    /// Produced files not kept: past the limits, or named in bytes that are not UTF-8.
    pub left_out: usize,
}

impl Outputs {
    /// Every text a statement about "the output" may be checked against: the answer first,
    /// then each text file, with its name.
    pub fn texts(&self) -> Vec<(String, &str)> {
        let mut texts = vec![("the answer".to_owned(), self.answer.as_str())];
        for file in &self.files {
            if let Some(text) = file.text() {
                texts.push((format!("`{}`", file.path), text));
            }
        }
        texts
    }

    /// The outputs as a grader reads them: the answer, then each file (text cut at a limit,
    /// binaries by size).
    pub fn shown(&self) -> String {
        let mut shown = format!("## Final answer\n\n{}\n", self.answer);
        for file in &self.files {
            match file.text() {
                Some(text) if text.len() > SHOWN_BYTES || file.cut() => {
                    let cut = text.floor_char_boundary(SHOWN_BYTES);
                    shown.push_str(&format!(
                        "\n## File `{}` (first {cut} of {} bytes)\n\n{}\n",
                        file.path,
                        file.size,
                        &text[..cut]
                    ));
                }
                Some(text) => shown.push_str(&format!("\n## File `{}`\n\n{text}\n", file.path)),
                None => shown.push_str(&format!(
                    "\n## File `{}` ({} bytes, binary)\n",
                    file.path, file.size
                )),
            }
        }
        if self.left_out > 0 {
            shown.push_str(&format!(
                "\n({} more files were produced and not kept)\n",
                self.left_out
            ));
        }
        shown
    }
}

/// A file as a snapshot holds it: its size and kept bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Seen {
    size: u64,
    bytes: Vec<u8>,
}

/// The files under `root` by relative path, in path order: not under `skills/` or a cache
/// folder, links not followed, names in UTF-8 only (the others counted), each read up to
/// [`MAX_FILE_BYTES`].
pub fn snapshot(root: &Path) -> (BTreeMap<String, Seen>, usize) {
    let mut files = BTreeMap::new();
    let mut unnamed = 0;
    let walker = ignore::WalkBuilder::new(root)
        .standard_filters(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|entry| {
            let name = entry.file_name();
            let installed = entry.depth() == 1 && name == "skills";
            !installed && !NOT_OUTPUTS.iter().any(|n| name == *n)
        })
        .build();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Some(relative) = entry.path().strip_prefix(root).ok().and_then(slashed) else {
            unnamed += 1;
            continue;
        };
        if let Some(seen) = read_prefix(entry.path()) {
            files.insert(relative, seen);
        }
    }
    (files, unnamed)
}

fn read_prefix(path: &Path) -> Option<Seen> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    let mut bytes = Vec::with_capacity(size.min(MAX_FILE_BYTES) as usize);
    file.take(MAX_FILE_BYTES).read_to_end(&mut bytes).ok()?;
    Some(Seen { size, bytes })
}

/// The files of `after` that `before` lacks or holds otherwise, within the limits of a run,
/// and how many were left out.
pub(crate) fn produced(
    before: &BTreeMap<String, Seen>,
    (after, unnamed): (BTreeMap<String, Seen>, usize),
) -> (Vec<OutputFile>, usize) {
    let mut kept = Vec::new();
    let mut left_out = unnamed;
    let mut total = 0u64;
    for (path, seen) in after {
        if before.get(&path) == Some(&seen) {
            continue;
        }
        total += seen.bytes.len() as u64;
        if kept.len() >= MAX_FILES || total > MAX_RUN_BYTES {
            left_out += 1;
            continue;
        }
        kept.push(OutputFile {
            path,
            bytes: seen.bytes,
            size: seen.size,
        });
    }
    (kept, left_out)
}

/// Writes `files` under `dir` (created), each at its relative path.
pub fn write(dir: &Path, files: &[OutputFile]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for file in files {
        let target: PathBuf = dir.join(&file.path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, &file.bytes)?;
    }
    Ok(())
}

/// `path` with `/`, when every name in it is UTF-8.
fn slashed(path: &Path) -> Option<String> {
    let names: Option<Vec<&str>> = path.components().map(|c| c.as_os_str().to_str()).collect();
    names.map(|names| names.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn outputs_are_kept_in_path_order_within_the_limits() {
        let root = tempfile::tempdir().unwrap();
        let at = |p: &str| root.path().join(p);
        std::fs::create_dir_all(at("skills/x")).unwrap();
        std::fs::write(at("skills/x/SKILL.md"), "installed").unwrap();
        std::fs::write(at("input.csv"), "a,b").unwrap();
        let before = snapshot(root.path()).0;
        std::fs::create_dir_all(at(".cache/pip")).unwrap();
        std::fs::write(at(".cache/pip/wheel"), "cache").unwrap();
        for i in 0..MAX_FILES + 5 {
            std::fs::write(at(&format!("f{i:04}.txt")), "x").unwrap();
        }
        std::fs::write(at("report.json"), "{}").unwrap();
        let big = std::fs::File::create(at("big.bin")).unwrap();
        big.set_len(50 * MAX_FILE_BYTES).unwrap();
        let odd = std::ffi::OsStr::from_bytes(b"odd\xff");
        std::fs::write(root.path().join(odd), "x").unwrap();
        let (files, left_out) = produced(&before, snapshot(root.path()));
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths[0], "big.bin", "path order");
        assert!(files[0].cut() && files[0].size == 50 * MAX_FILE_BYTES);
        assert_eq!(files[0].bytes.len() as u64, MAX_FILE_BYTES);
        assert_eq!(files.len(), MAX_FILES);
        assert!(
            !paths
                .iter()
                .any(|p| p.starts_with(".cache") || p.starts_with("skills"))
        );
        assert!(
            !paths.contains(&"input.csv"),
            "an unchanged input is no output"
        );
        // 207 produced files past the 200 kept (report.json among them), and the name that is
        // not UTF-8.
        assert_eq!(left_out, 8);
        let outputs = Outputs {
            files,
            left_out,
            ..Outputs::default()
        };
        assert!(
            outputs
                .shown()
                .contains("(8 more files were produced and not kept)")
        );
    }
}
