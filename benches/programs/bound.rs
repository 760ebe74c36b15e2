//! A lower bound for a full `skill lint` over a corpus: the work that no implementation of its
//! rules can skip, done with the fastest crates for each part and nothing else, on two threads.
//! It walks every folder, reads every file (the secret and security rules look into each one),
//! parses each `SKILL.md` frontmatter with serde-saphyr, parses each body as CommonMark with
//! pulldown-cmark (the link, code and command rules need its blocks, links and code spans) and
//! finds the line starts of every text file (each rule reports a line). It applies no rule,
//! counts no token and writes no output, so a real lint is slower: `benches/compare.py` runs it
//! beside the floor to show how much of lint's time the rules' inputs alone cost.
//!
//! Usage: `cargo run --release --example bound -- CORPUS_DIR`

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

#[path = "corpus.rs"]
mod corpus;

/// What one file costs at the least; returns a number so the work cannot be optimised away.
fn inspect(path: &Path) -> usize {
    let Ok(bytes) = std::fs::read(path) else {
        return 0;
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return 1;
    };
    let lines = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    if path.file_name().is_none_or(|name| name != "SKILL.md") {
        return lines;
    }
    let Some((yaml, body)) = corpus::split(text) else {
        return lines;
    };
    let parsed = serde_saphyr::from_str::<serde_json::Value>(yaml).is_ok() as usize;
    let events = pulldown_cmark::Parser::new(body).count();
    lines + parsed + events
}

fn main() {
    let corpus = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .expect("usage: bound CORPUS_DIR");
    let mut files = Vec::new();
    corpus::walk(&corpus, &|_| true, &mut files);
    // Files are taken one at a time from a shared counter, so neither thread waits on the other.
    let next = AtomicUsize::new(0);
    let work = || {
        let mut sum = 0;
        while let Some(path) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
            sum += inspect(path);
        }
        sum
    };
    let total: usize = std::thread::scope(|s| {
        let other = s.spawn(work);
        work() + other.join().unwrap_or(0)
    });
    println!(
        "{} files, {total} lines, frontmatters and events",
        files.len()
    );
}
