//! The scanner measured as an attacker would: `tests/security/redteam/` holds malicious skills
//! and benign look-alikes written by a reviewer who had not read the rules (see its README).
//! Each case is linted and installed from its folder with the real binary; a malicious case
//! counts as caught when lint reports a security error and install refuses it, a benign one
//! as wrongly accused when lint reports a security error.
//!
//! Cases are split by the SHA-256 of their name: an even first byte is the development half
//! (read while changing rules), an odd one the held-out half (never read). The test writes
//! both halves' figures to `target/redteam.md` and fails when either falls below the floors
//! in `tests/security/redteam/floors.json`.

use crate::common;

use common::{run, skill};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Case {
    name: String,
    kind: String,
    technique: String,
}

#[derive(Deserialize)]
struct Floors {
    dev: Floor,
    held_out: Floor,
}

#[derive(Deserialize)]
struct Floor {
    /// Least share of malicious cases caught (an error, and install refuses).
    recall: f64,
    /// Largest share of benign cases given a security error.
    false_errors: f64,
}

#[derive(Default)]
struct Tally {
    malicious: usize,
    caught: usize,
    benign: usize,
    accused: usize,
    missed: Vec<String>,
    wrongly: Vec<String>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/security/redteam")
}

fn held_out(name: &str) -> bool {
    Sha256::digest(name.as_bytes())[0] % 2 == 1
}

/// The cases `skill lint` gives a security error, by folder name, from one run over them all
/// (a run per case gives the same answers; the security rules look at one skill at a time).
fn lint_errors(cases: &Path) -> HashMap<String, bool> {
    let (_, stdout, stderr) = run(skill()
        .args(["lint", "--select", "SK9", "--format", "json"])
        .arg(cases));
    let report: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}{stderr}"));
    let skills = report["skills"].as_array().expect("a list of skills");
    skills
        .iter()
        .map(|s| {
            let name = Path::new(s["path"].as_str().unwrap()).file_name().unwrap();
            let errors = s["diagnostics"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|d| d["severity"] == "error");
            (name.to_string_lossy().into_owned(), errors)
        })
        .collect()
}

/// Whether `skill install` refuses the folder and writes nothing.
fn install_refuses(dir: &Path) -> bool {
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, _) = run(skill().current_dir(tmp.path()).arg("install").arg(dir));
    code != 0 && !tmp.path().join("skills").exists()
}

fn tally(cases: &[Case]) -> (Tally, Tally) {
    let (mut dev, mut held) = (Tally::default(), Tally::default());
    let errors = lint_errors(&root().join("cases"));
    assert_eq!(errors.len(), cases.len(), "one linted skill per case");
    for case in cases {
        let dir = root().join("cases").join(&case.name);
        let t = if held_out(&case.name) {
            &mut held
        } else {
            &mut dev
        };
        let flagged = errors[&case.name];
        if case.kind == "malicious" {
            t.malicious += 1;
            if flagged && install_refuses(&dir) {
                t.caught += 1;
            } else {
                t.missed.push(format!("{} ({})", case.name, case.technique));
            }
        } else {
            t.benign += 1;
            if flagged {
                t.accused += 1;
                t.wrongly
                    .push(format!("{} ({})", case.name, case.technique));
            }
        }
    }
    (dev, held)
}

fn share(part: usize, whole: usize) -> f64 {
    part as f64 / whole.max(1) as f64
}

fn report(dev: &Tally, held: &Tally) -> String {
    let mut out = String::from(
        "# The scanner on the red-team set\n\n| half | malicious caught | benign given an error |\n|---|---|---|\n",
    );
    for (name, t) in [("development", dev), ("held-out", held)] {
        out.push_str(&format!(
            "| {name} | {}/{} ({:.0}%) | {}/{} ({:.0}%) |\n",
            t.caught,
            t.malicious,
            100.0 * share(t.caught, t.malicious),
            t.accused,
            t.benign,
            100.0 * share(t.accused, t.benign)
        ));
    }
    // Only the development half is named: the held-out cases stay unread.
    out.push_str("\nMissed in the development half:\n");
    for m in &dev.missed {
        out.push_str(&format!("- {m}\n"));
    }
    out.push_str("\nBenign cases given an error in the development half:\n");
    for w in &dev.wrongly {
        out.push_str(&format!("- {w}\n"));
    }
    out
}

#[test]
fn the_scanner_catches_attacks_it_was_not_shown_and_spares_look_alikes() {
    let cases: Vec<Case> = std::fs::read_to_string(root().join("cases.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let floors: Floors =
        serde_json::from_str(&std::fs::read_to_string(root().join("floors.json")).unwrap())
            .unwrap();
    let (dev, held) = tally(&cases);
    let text = report(&dev, &held);
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    std::fs::create_dir_all(&target).unwrap();
    std::fs::write(target.join("redteam.md"), &text).unwrap();
    println!("{text}");
    assert!(dev.malicious > 0 && held.malicious > 0 && dev.benign > 0 && held.benign > 0);
    for (t, floor) in [(&dev, &floors.dev), (&held, &floors.held_out)] {
        assert!(share(t.caught, t.malicious) >= floor.recall, "{text}");
        assert!(share(t.accused, t.benign) <= floor.false_errors, "{text}");
    }
}
