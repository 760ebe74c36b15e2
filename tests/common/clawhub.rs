//! The real `clawhub` CLI (npm `clawhub@0.23.3`, run by Node 22 from npm), as `.ci/run` installs
//! it under `target/test-deps/npm` (or `CLAWHUB_NPM_PREFIX`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The npm prefix's `.bin` folder, which holds `clawhub` and `node`.
pub fn npm_bin() -> PathBuf {
    std::env::var_os("CLAWHUB_NPM_PREFIX")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-deps/npm"))
        .join("node_modules/.bin")
}

/// `clawhub` from `bin` with the `node` beside it first on PATH, telemetry off, and ArkType in
/// its interpreting mode (`tests/oracle/arktype_jitless.mjs` says why).
pub fn command(bin: &Path) -> Command {
    let mut cmd = Command::new(bin.join("clawhub"));
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    cmd.env("PATH", path).env("CLAWHUB_DISABLE_TELEMETRY", "1");
    let arktype = bin.join("../arktype/out/config.js");
    if arktype.is_file() {
        let preload =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/arktype_jitless.mjs");
        cmd.env("SKILL_TEST_ARKTYPE_CONFIG", arktype).env(
            "NODE_OPTIONS",
            format!("--import=\"{}\"", preload.display()),
        );
    }
    cmd
}
