//! What the floor and bound programs share: the walk of a corpus and the frontmatter split.

use std::path::{Path, PathBuf};

/// Every file under `dir` that `keep` accepts by name, folders of links followed, `.git` and
/// `node_modules` left out (a summary's root may be a folder of links to skills).
pub fn walk(dir: &Path, keep: &dyn Fn(&std::ffi::OsStr) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(kind) = std::fs::metadata(entry.path()).map(|m| m.file_type()) else {
            continue;
        };
        let name = entry.file_name();
        if kind.is_dir() && name != ".git" && name != "node_modules" {
            walk(&entry.path(), keep, out);
        } else if kind.is_file() && keep(&name) {
            out.push(entry.path());
        }
    }
}

/// The frontmatter's YAML and the body after it, if the text opens with a `---` line.
pub fn split(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("---")?;
    let rest = rest
        .strip_prefix("\r\n")
        .or_else(|| rest.strip_prefix('\n'))?;
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some((&rest[..at], &rest[at + line.len()..]));
        }
        at += line.len();
    }
    None
}
