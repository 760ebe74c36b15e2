//! Helpers for the library's unit tests.

use std::path::{Path, PathBuf};

/// The shared corpus of real skills (`$SKILL_SHARED_DIR/corpus`, else `../shared/corpus`):
/// only this team's machines have it, so without it this prints why the test skips and gives
/// `None`.
pub fn shared_corpus() -> Option<PathBuf> {
    let shared = std::env::var_os("SKILL_SHARED_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        PathBuf::from,
    );
    let corpus = shared.join("corpus");
    if corpus.is_dir() {
        Some(corpus)
    } else {
        println!("SKIPPED: no shared corpus at {}", corpus.display());
        None
    }
}

/// Every file under `dir` that `keep` takes (hidden ones included), with its text when it is
/// UTF-8.
pub(crate) fn texts_under(
    dir: &Path,
    keep: impl Fn(&Path) -> bool,
) -> impl Iterator<Item = (PathBuf, String)> {
    ignore::WalkBuilder::new(dir)
        .hidden(false)
        .build()
        .flatten()
        .filter(move |entry| keep(entry.path()))
        .filter_map(|entry| {
            let text = std::fs::read_to_string(entry.path()).ok()?;
            Some((entry.into_path(), text))
        })
}

/// True for a file named `SKILL.md`.
pub fn is_skill_md(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "SKILL.md")
}
