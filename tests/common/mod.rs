//! Helpers shared by the integration tests: the binary, the corpora of real skills, snapshots.
#![allow(dead_code)]

pub mod agent_server;
pub mod browser;
pub mod clawhub;
pub mod corpus;
pub mod loopback;
pub mod model_server;
pub mod needs;
pub mod postgres;
pub mod router;
pub mod schemas;
pub mod worker;

use std::path::{Path, PathBuf};

/// The `skill` binary under test, with a clean environment for colours and its cache folder
/// under `target/tmp` rather than the user's.
pub fn skill() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new(env!("CARGO_BIN_EXE_skill"));
    cmd.env_remove("CLICOLOR_FORCE").env("NO_COLOR", "1").env(
        "SKILL_CACHE_DIR",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("skill-cache"),
    );
    cmd
}

/// The big corpus of real skills, `../shared/corpus` beside the repository, which only the
/// team's machines have (`SKILL_CORPUS_DIR`, or `SKILL_SHARED_DIR/corpus`, put it elsewhere).
/// `None`, after one line saying the test is skipped, when it is absent.
pub fn shared_corpus(test: &str) -> Option<PathBuf> {
    let dir = shared_corpus_dir();
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED {test}: needs ../shared/corpus, absent at {}",
            dir.display()
        );
        None
    }
}

/// Where the big corpus is looked for.
fn shared_corpus_dir() -> PathBuf {
    std::env::var_os("SKILL_CORPUS_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("SKILL_SHARED_DIR").map(|d| PathBuf::from(d).join("corpus")))
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

/// The corpus of real skills that `.ci/run` fetches by package name into
/// `target/test-deps/corpus` (openclaw's bundled skills, nanobot-ai's builtins).
pub fn package_corpus() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-deps/corpus");
    assert!(
        dir.join(".complete").is_file(),
        "{} is missing: run .ci/run, which fetches the openclaw and nanobot-ai packages' skills there",
        dir.display()
    );
    dir
}

/// Insta settings that keep snapshots in the top-level `snapshots/` folder.
pub fn snapshots() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings
}

/// Copies a directory tree (files and folders; symlinks copied as links).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), &target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
            let mut perms = std::fs::metadata(&target).unwrap().permissions();
            std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o644);
            std::fs::set_permissions(&target, perms).unwrap();
        }
    }
}

/// Everything a finished process printed: its stdout, then its stderr.
pub fn printed(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The agent CLI `name`, which `.ci/run` installs from npm under `target/test-deps/agents`.
pub fn agent_cli(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/test-deps/agents/node_modules/.bin")
        .join(name);
    assert!(
        path.exists(),
        "{} is missing: run .ci/run, which installs the agent CLIs from npm",
        path.display()
    );
    path
}

/// The Python of the venv with the official MCP SDK (PyPI `mcp`) that `.ci/run` makes.
pub fn mcp_python() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-deps/mcp-venv/bin/python");
    assert!(
        path.exists(),
        "{} is missing: run .ci/run, which installs the MCP Python SDK from PyPI",
        path.display()
    );
    path
}

/// Writes `SKILL.md` with `content` into `<parent>/<dir>` and returns the skill folder.
pub fn write_skill(parent: &Path, dir: &str, content: impl AsRef<[u8]>) -> PathBuf {
    let skill = parent.join(dir);
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(skill.join("SKILL.md"), content).unwrap();
    skill
}

/// Runs the command and returns (exit code, stdout, stderr).
pub fn run(cmd: &mut assert_cmd::Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Parses the JSON output of `skill lint --format json`.
pub fn json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}"))
}

/// The distinct slugs of every diagnostic in `skill lint --format json` output, sorted.
pub fn slugs(stdout: &str) -> Vec<String> {
    let mut found: Vec<String> = json(stdout)["skills"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["diagnostics"].as_array().unwrap().clone())
        .map(|d| d["slug"].as_str().unwrap().to_owned())
        .collect();
    found.sort();
    found.dedup();
    found
}

/// A `skill registry serve` on a free loopback port, killed when dropped.
pub struct Registry {
    /// The server process.
    pub child: std::process::Child,
    /// Its URL, the first line it prints.
    pub url: String,
}

impl Registry {
    /// Starts a server on the SQLite store in `data`, with `extra` arguments.
    pub fn on(data: &Path, extra: &[&str]) -> Registry {
        let mut args = vec![std::ffi::OsStr::new("--data"), data.as_os_str()];
        args.extend(extra.iter().map(std::ffi::OsStr::new));
        Registry::serve(&args)
    }

    /// Starts a server with `args` after `registry serve --addr 127.0.0.1:0`.
    pub fn serve<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Registry {
        Registry::serve_with(args, &[])
    }

    /// [`Registry::serve`] with these environment variables set for the server.
    pub fn serve_with<S: AsRef<std::ffi::OsStr>>(args: &[S], env: &[(&str, &str)]) -> Registry {
        use std::io::BufRead;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_skill"))
            // Quiet: the request log would fill every test's output.
            .args(["-q", "registry", "serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .envs(env.iter().copied())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut url = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut url)
            .unwrap();
        Registry {
            child,
            url: url.trim().to_owned(),
        }
    }
}

/// A registry's data folder in a fresh temp dir, with the user `alice` and a token of hers:
/// where most registry tests start.
pub struct Seeded {
    /// Holds the folder; dropping it removes everything.
    pub tmp: tempfile::TempDir,
    /// The data folder (`--data`).
    pub data: std::path::PathBuf,
    /// Alice's token.
    pub alice: String,
}

impl Seeded {
    /// Creates the folder, `alice` and her token.
    pub fn alice() -> Seeded {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        registry_admin(&data, &["user", "add", "alice"]);
        let alice = registry_admin(&data, &["token", "create", "alice"]);
        Seeded { tmp, data, alice }
    }
}

/// Sends SIGTERM to `child`, as an operator stopping a server does.
pub fn sigterm(child: &std::process::Child) {
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

impl Registry {
    /// Stops the server as an operator does (SIGTERM) and expects it to exit cleanly.
    pub fn terminate(mut self) {
        sigterm(&self.child);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "the server exited with {status}");
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `skill registry ARGS --data DATA` (user add, token create), expects success and returns
/// its trimmed stdout.
pub fn registry_admin(data: &Path, args: &[&str]) -> String {
    let out = skill()
        .arg("registry")
        .args(args)
        .arg("--data")
        .arg(data)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// What a user sees, made the same on every machine and run for a snapshot: `tmp` (the test's
/// temp dir) as `{tmp}`, and measured durations (`77 ms`, `0.1 s`) as `{ms} ms` and `{s} s`.
pub fn normalise(text: &str, tmp: &Path) -> String {
    let text = text.replace(&tmp.display().to_string(), "{tmp}");
    let text = durations(&text, " ms", "{ms}");
    durations(&text, " s", "{s}")
}

/// `text` with each number written before `unit` (and after a space or `(`) as `placeholder`.
fn durations(text: &str, unit: &str, placeholder: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(unit) {
        let after = &rest[at + unit.len()..];
        let number = rest[..at]
            .bytes()
            .rev()
            .take_while(|b| b.is_ascii_digit() || *b == b'.')
            .count();
        let start = at - number;
        let whole = number > 0
            && rest[..start].ends_with([' ', '('])
            && !after.starts_with(|c: char| c.is_alphanumeric());
        out.push_str(&rest[..start]);
        out.push_str(if whole { placeholder } else { &rest[start..at] });
        out.push_str(unit);
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Runs `git ARGS` in `cwd` with a test identity, no signing, `main` as the first branch and
/// `file://` remotes allowed, neither the system's nor the user's configuration (HOME is
/// `cwd`); expects success and returns its trimmed stdout.
pub fn git(cwd: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(["-c", "protocol.file.allow=always"])
        .args(args)
        .current_dir(cwd)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", cwd)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Asserts the refusal of a store a newer `skill` migrated (`migrated + 1`, one past the
/// `migrated` this one knows): exit 2, nothing on stdout, the message naming both versions.
pub fn assert_schema_too_new(
    (code, stdout, stderr): (i32, String, String),
    migrated: impl Into<i64>,
) {
    let migrated = migrated.into();
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        format!(
            "error: the database is at schema version {}, newer than the {migrated} this skill knows: upgrade skill to open it\n",
            migrated + 1
        )
    );
}
