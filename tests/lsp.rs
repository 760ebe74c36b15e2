//! `skill lsp` end to end with a real client: pytest-lsp (PyPI; `.ci/run` installs it into
//! `target/test-deps/lsp-venv`) starts the built binary and drives it as an editor does
//! (`tests/lsp/test_skill_lsp.py`). The change-to-findings latency it measures is written to
//! `target/lsp-latency.txt`; it is reported, never asserted.

use crate::common;
use common::needs::{Need, lacks};

use common::run;
use std::path::Path;

#[test]
fn an_editor_client_gets_findings_fixes_hover_completion_and_links() {
    if lacks(&[Need::PytestLsp]) {
        return;
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pytest = repo.join("target/test-deps/lsp-venv/bin/pytest");
    if !pytest.is_file() {
        eprintln!(
            "SKIPPED skill lsp: no pytest-lsp at {} (bash .ci/run installs it)",
            pytest.display()
        );
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = run(assert_cmd::Command::new(&pytest)
        .args(["-q", "-p", "no:cacheprovider", "-s"])
        .arg(repo.join("tests/lsp"))
        .arg("--basetemp")
        .arg(tmp.path().join("pytest"))
        .current_dir(tmp.path())
        .env("SKILL_BIN", env!("CARGO_BIN_EXE_skill"))
        .env("SKILL_LSP_LATENCY", repo.join("target/lsp-latency.txt"))
        .env("SKILL_CACHE_DIR", tmp.path().join("cache")));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("8 passed"), "{stdout}");
}
