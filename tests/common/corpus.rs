//! Real skills for the oracle tests: every skill of the team's corpus (else the package
//! corpus), a seeded sample of them, and workspaces made of copies.

use std::path::{Path, PathBuf};

/// splitmix64: a fixed, dependency-free generator, so the sample is the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Every skill folder of the corpus (a `SKILL.md` or only a `skill.md`), sorted.
pub fn skills(test: &str) -> (String, Vec<PathBuf>) {
    let (which, root) = match super::shared_corpus(test) {
        Some(dir) => ("../shared/corpus".to_owned(), dir),
        None => (
            "target/test-deps/corpus".to_owned(),
            super::package_corpus(),
        ),
    };
    let mut found = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else if matches!(e.file_name().to_str(), Some("SKILL.md" | "skill.md")) {
                found.push(path);
            }
        }
    }
    found.sort();
    found.dedup_by(|a, b| a.parent() == b.parent());
    (which, found)
}

/// A seeded sample of `n` corpus skill files.
pub fn sample(test: &str, seed: u64, n: usize) -> (String, Vec<PathBuf>) {
    let (which, mut all) = skills(test);
    let mut rng = Rng(seed);
    for i in (1..all.len()).rev() {
        all.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
    all.truncate(n);
    (which, all)
}

/// Copies each file into `<skills>/<its folder name>/`, with a suffix when two folders of the
/// sample share a name.
pub fn workspace(skills: &Path, files: &[PathBuf]) {
    std::fs::create_dir_all(skills).unwrap();
    for file in files {
        let base = file
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let mut name = base.clone();
        let mut n = 2;
        while skills.join(&name).exists() {
            name = format!("{base}-{n}");
            n += 1;
        }
        std::fs::create_dir_all(skills.join(&name)).unwrap();
        std::fs::copy(file, skills.join(&name).join(file.file_name().unwrap())).unwrap();
    }
}
