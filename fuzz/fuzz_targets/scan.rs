//! Fuzzes the security scan on hostile bytes: the input is scanned as a script, as SKILL.md
//! and as a reference, the three files of one skill. Asserts no panic and that every finding
//! has a place. Run with a short `-timeout` (see `.ci/run`), libFuzzer
//! reports any input the scan is slow on: every rule must stay linear.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skill_lint::security::{Allows, ScanFile, scan};

fuzz_target!(|data: &[u8]| {
    let files = [
        ScanFile {
            path: "scripts/run.sh",
            bytes: data,
        },
        ScanFile {
            path: "SKILL.md",
            bytes: data,
        },
        ScanFile {
            path: "references/notes.md",
            bytes: data,
        },
    ];
    for finding in scan(files, Allows::Show).findings {
        assert!(finding.position.line >= 1);
    }
});
