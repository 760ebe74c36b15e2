//! The floor for `skill lint` and `skill summary` over a corpus: walk it, read every `SKILL.md`
//! and parse its frontmatter with serde-saphyr, on two threads, and nothing else. No rule, no
//! output. `benches/compare.py` runs it as a process beside the tools.
//!
//! Usage: `cargo run --release --example floor -- CORPUS_DIR`

use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        // Symlinks followed: a summary's root may be a folder of links to skills.
        let Ok(kind) = std::fs::metadata(entry.path()).map(|m| m.file_type()) else {
            continue;
        };
        let name = entry.file_name();
        if kind.is_dir() && name != ".git" && name != "node_modules" {
            walk(&entry.path(), out);
        } else if kind.is_file() && name == "SKILL.md" {
            out.push(entry.path());
        }
    }
}

/// The YAML between the opening `---` line and the next `---` line, if any.
fn frontmatter(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("---")?;
    let rest = rest
        .strip_prefix("\r\n")
        .or_else(|| rest.strip_prefix('\n'))?;
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some(&rest[..at]);
        }
        at += line.len();
    }
    None
}

fn main() {
    let corpus = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .expect("usage: floor CORPUS_DIR");
    let mut files = Vec::new();
    walk(&corpus, &mut files);
    let half = files.len().div_ceil(2);
    let parsed: usize = std::thread::scope(|s| {
        let workers: Vec<_> = files
            .chunks(half.max(1))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .filter(|path| {
                            let Ok(text) = std::fs::read_to_string(path) else {
                                return false;
                            };
                            frontmatter(&text).is_some_and(|yaml| {
                                serde_saphyr::from_str::<serde_json::Value>(yaml).is_ok()
                            })
                        })
                        .count()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
    });
    println!(
        "{} SKILL.md files, {parsed} frontmatters parsed",
        files.len()
    );
}
