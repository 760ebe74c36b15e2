//! Fuzzes the scenario reader of `skill test`: arbitrary bytes as `evals/NAME.yaml` load or are
//! refused with an error naming the file, never a panic; an accepted scenario's workspace files
//! and cassette stay inside the workspace and the evals folder.
#![no_main]

mod scratch;

use libfuzzer_sys::fuzz_target;
use skill_agent::test::scenario::Scenario;
use std::path::{Component, Path};

fn inside(path: &Path) -> bool {
    !path.is_absolute() && !path.components().any(|c| matches!(c, Component::ParentDir))
}

fuzz_target!(|data: &[u8]| {
    let tmp = scratch::tempdir();
    let evals = tmp.path().join("evals");
    std::fs::create_dir_all(&evals).expect("temp dir is writable");
    let path = evals.join("case.yaml");
    std::fs::write(&path, data).expect("temp dir is writable");
    match Scenario::load(&path) {
        Ok(scenario) => {
            for file in scenario.files.keys() {
                assert!(inside(Path::new(file)), "workspace file {file:?} escapes");
            }
            let cassette = scenario.cassette_path(&path);
            let relative = cassette
                .strip_prefix(&evals)
                .expect("the cassette is under evals/");
            assert!(inside(relative), "cassette {} escapes", cassette.display());
        }
        Err(e) => assert!(e.to_string().contains("case.yaml"), "{e}"),
    }
});
