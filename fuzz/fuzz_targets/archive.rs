//! Fuzzes the checked archive reader on arbitrary bytes: it must refuse or read, never panic,
//! and what it accepts follows the skill path rules: relative paths inside the skill, no two
//! alike, exactly one SKILL.md at the root (named `SKILL.md` or `skill.md`, the names
//! installers and discovery recognise), no install metadata.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skill_archive::reader::{Limits, read_bytes};
use skill_model::layout::{FileSetKind, check_file_set};

fuzz_target!(|data: &[u8]| {
    let Ok(archive) = read_bytes(data, &Limits::default()) else {
        return;
    };
    assert_eq!(
        check_file_set(
            archive.files.iter().map(|f| f.path.as_str()),
            FileSetKind::Download
        ),
        Ok(())
    );
    let manifests: Vec<&str> = archive
        .files
        .iter()
        .map(|f| f.path.as_str())
        .filter(|path| path.eq_ignore_ascii_case("SKILL.md"))
        .collect();
    assert!(
        matches!(manifests.as_slice(), ["SKILL.md" | "skill.md"]),
        "manifests {manifests:?}"
    );
    let total: usize = archive.files.iter().map(|f| f.bytes.len()).sum();
    assert!(total as u64 <= Limits::default().total_bytes);
});
