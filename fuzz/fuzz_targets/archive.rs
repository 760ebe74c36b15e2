//! Fuzzes the checked archive reader on arbitrary bytes: it must refuse or read, never panic,
//! and never return a path that leaves the skill folder.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skill::archive::reader::{Limits, read_bytes};

fuzz_target!(|data: &[u8]| {
    if let Ok(archive) = read_bytes(data, &Limits::default()) {
        for file in &archive.files {
            assert!(!file.path.starts_with('/'));
            assert!(!file.path.split('/').any(|s| s == ".." || s.is_empty()));
        }
    }
});
