//! Fuzzes installing an archive from bytes into a skills folder in a temporary directory:
//! whatever the archive holds, nothing is ever written outside the skills folder, no symlink
//! is created, and a refused archive leaves nothing behind.
#![no_main]

mod scratch;

use libfuzzer_sys::fuzz_target;
use skill_archive::install::{Input, install};
use std::path::Path;

/// Every path below `dir`, links not followed.
fn walk(dir: &Path, out: &mut Vec<(std::path::PathBuf, std::fs::FileType)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let kind = entry.file_type().expect("a listed entry has a type");
        out.push((entry.path(), kind));
        if kind.is_dir() {
            walk(&entry.path(), out);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let tmp = scratch::tempdir();
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&project).expect("temp dir is writable");
    let root = project.join("skills");
    let source = Input::Bytes {
        name: "fuzz-skill".to_owned(),
        bytes: data.to_vec(),
    };
    let result = install(&source, &root, false);
    let mut written = Vec::new();
    walk(tmp.path(), &mut written);
    for (path, kind) in &written {
        assert!(
            !kind.is_symlink(),
            "a symlink was created: {}",
            path.display()
        );
        assert!(
            path == &project || path.starts_with(&root),
            "written outside the skills folder: {}",
            path.display()
        );
    }
    match result {
        Ok(installed) => assert!(
            installed.dir.join("SKILL.md").is_file() || installed.dir.join("skill.md").is_file()
        ),
        Err(_) => assert!(
            written.iter().all(|(p, _)| p == &project),
            "a refused archive left {written:?}"
        ),
    }
});
