//! Writes `examples.rs`: for each rule, the SKILL.md of its failing and passing fixtures
//! (`tests/fixtures/lint/<slug>/{bad,good}/`), which `skill explain` shows as the examples the
//! rule's own tests prove.

use std::path::{Path, PathBuf};

/// The first SKILL.md under `dir` (fixtures keep one skill folder per case).
fn first_skill_md(dir: &Path) -> Option<String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.file_name().is_some_and(|n| n == "SKILL.md") && path.is_file() {
            return std::fs::read_to_string(path).ok();
        }
        if path.is_dir()
            && let Some(text) = first_skill_md(&path)
        {
            return Some(text);
        }
    }
    None
}

/// `static EXAMPLES: &[(slug, failing, passing)]`, from the rule fixtures.
fn write_examples(out: &Path) {
    let root = Path::new("../../tests/fixtures/lint");
    println!("cargo::rerun-if-changed={}", root.display());
    let mut slugs: Vec<String> = std::fs::read_dir(root)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    slugs.sort();
    let mut code = String::from(
        "/// Per rule slug: its failing and passing fixture's SKILL.md.\npub static EXAMPLES: &[(&str, &str, &str)] = &[\n",
    );
    for slug in slugs {
        let bad = first_skill_md(&root.join(&slug).join("bad"));
        let good = first_skill_md(&root.join(&slug).join("good"));
        if let (Some(bad), Some(good)) = (bad, good) {
            code.push_str(&format!("    ({slug:?}, {bad:?}, {good:?}),\n"));
        }
    }
    code.push_str("];\n");
    std::fs::write(out.join("examples.rs"), code).expect("OUT_DIR is writable");
}

fn main() {
    let dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    write_examples(&dir);
    println!("cargo::rerun-if-changed=build.rs");
}
