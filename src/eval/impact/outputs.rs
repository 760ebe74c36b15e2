//! What a run produced: its final answer and the files it created or changed in its workspace
//! (the installed skills and the eval's unchanged inputs left out).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Most bytes of one output file shown to a grader.
const SHOWN_BYTES: usize = 16 * 1024;
/// Most output files kept from one run: an agent that writes a tree of thousands is cut.
const MAX_FILES: usize = 200;

/// One produced file.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputFile {
    /// Its path relative to the workspace, with `/`.
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

impl OutputFile {
    /// Its text, when it is UTF-8.
    pub fn text(&self) -> Option<&str> {
        std::str::from_utf8(&self.bytes).ok()
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
                Some(text) if text.len() > SHOWN_BYTES => {
                    let cut = text.floor_char_boundary(SHOWN_BYTES);
                    shown.push_str(&format!(
                        "\n## File `{}` (first {cut} of {} bytes)\n\n{}\n",
                        file.path,
                        text.len(),
                        &text[..cut]
                    ));
                }
                Some(text) => shown.push_str(&format!("\n## File `{}`\n\n{text}\n", file.path)),
                None => shown.push_str(&format!(
                    "\n## File `{}` ({} bytes, binary)\n",
                    file.path,
                    file.bytes.len()
                )),
            }
        }
        shown
    }
}

/// The files under `root` (not under `skills/`) with their bytes, by relative path.
pub fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let walker = ignore::WalkBuilder::new(root)
        .standard_filters(false)
        .follow_links(false)
        .filter_entry(|entry| entry.depth() != 1 || entry.file_name() != "skills")
        .build();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(relative) = entry.path().strip_prefix(root) else {
            continue;
        };
        if let Ok(bytes) = std::fs::read(entry.path()) {
            files.insert(slashed(relative), bytes);
        }
        if files.len() > MAX_FILES * 4 {
            break;
        }
    }
    files
}

/// The files of `after` that `before` lacks or holds other bytes for.
pub fn produced(
    before: &BTreeMap<String, Vec<u8>>,
    after: BTreeMap<String, Vec<u8>>,
) -> Vec<OutputFile> {
    after
        .into_iter()
        .filter(|(path, bytes)| before.get(path) != Some(bytes))
        .take(MAX_FILES)
        .map(|(path, bytes)| OutputFile { path, bytes })
        .collect()
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

fn slashed(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
