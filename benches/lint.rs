//! `cargo bench`: times the lint library over the shared corpus (in process, no output), for
//! quick before/after comparisons. `benches/run.sh` compares the binary with its peers.

use skill_lint::{Options, Target, lint_paths};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let shared = std::env::var_os("SKILL_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let corpus = shared.join("corpus");
    let options = Options {
        env_checks: false,
        ..Options::new(Target::Portable)
    };
    let mut times = Vec::new();
    let mut diagnostics = 0;
    for _ in 0..10 {
        let start = Instant::now();
        let run = lint_paths(std::slice::from_ref(&corpus), &options).expect("corpus exists");
        times.push(start.elapsed());
        diagnostics = run.skills.iter().map(|s| s.diagnostics.len()).sum();
    }
    times.sort();
    println!(
        "lint corpus: best {:?}, median {:?} over {} runs ({diagnostics} diagnostics)",
        times[0],
        times[times.len() / 2],
        times.len()
    );
}
