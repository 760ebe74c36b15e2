//! The floor for `skill lint` and `skill summary` over a corpus: walk it, read every `SKILL.md`
//! and parse its frontmatter with serde-saphyr, on two threads, and nothing else. No rule, no
//! output. `benches/compare.py` runs it as a process beside the tools.
//!
//! Usage: `cargo run --release --example floor -- CORPUS_DIR`

use std::path::PathBuf;

#[path = "corpus.rs"]
mod corpus;

fn main() {
    let corpus = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .expect("usage: floor CORPUS_DIR");
    let mut files = Vec::new();
    corpus::walk(&corpus, &|name| name == "SKILL.md", &mut files);
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
                            corpus::split(&text).is_some_and(|(yaml, _)| {
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
