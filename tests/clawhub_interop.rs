//! The real `clawhub` CLI (npm `clawhub@0.23.3`, run by Node 22 from npm; `.ci/run` installs both
//! under `target/test-deps/npm`) against `skill registry serve` on loopback: login, whoami,
//! publish, search, install, a new version, update, list; then our client and the database agree.

mod common;

use common::{Registry, registry_admin, skill};
use std::path::{Path, PathBuf};
use std::process::Command;

fn npm_bin() -> PathBuf {
    std::env::var_os("CLAWHUB_NPM_PREFIX")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-deps/npm"))
        .join("node_modules/.bin")
}

#[test]
fn the_clawhub_cli_works_against_our_registry() {
    let bin = npm_bin();
    assert!(
        bin.join("clawhub").exists(),
        "{} is missing: run .ci/run (npm install --prefix target/test-deps/npm node@22 clawhub@0.23.3)",
        bin.display()
    );
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let admin = |args: &[&str]| registry_admin(&data, args);
    admin(&["user", "add", "alice"]);
    let token = admin(&["token", "create", "alice"]);
    let server = Registry::serve(&[std::ffi::OsStr::new("--data"), data.as_os_str()]);
    let url = server.url.clone();
    let work = tmp.path().join("work");
    std::fs::create_dir_all(work.join("demo-skill")).unwrap();
    std::fs::write(work.join("demo-skill/SKILL.md"), "---\nname: demo-skill\ndescription: Demonstrates the registry. Use when testing.\n---\n\nBody.\n").unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let clawhub = |args: &[&str]| {
        let out = Command::new(bin.join("clawhub"))
            .args(args)
            .current_dir(&work)
            .env("PATH", &path)
            .env("HOME", tmp.path())
            .env("XDG_CONFIG_HOME", tmp.path().join("config"))
            .env("CLAWHUB_REGISTRY", &url)
            .env("CLAWHUB_DISABLE_TELEMETRY", "1")
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "clawhub {args:?} failed:\n{all}");
        all
    };
    assert!(
        clawhub(&["login", "--token", &token, "--no-browser"]).contains("OK. Logged in as @alice.")
    );
    assert!(clawhub(&["whoami"]).contains("alice"));
    assert!(
        clawhub(&["publish", "./demo-skill", "--version", "1.0.0"])
            .contains("OK. Published demo-skill@1.0.0")
    );
    assert!(clawhub(&["search", "registry"]).contains("demo-skill v1.0.0  @alice"));
    assert!(clawhub(&["install", "demo-skill"]).contains("Installed demo-skill v1.0.0"));
    assert!(work.join("skills/demo-skill/SKILL.md").is_file());
    let origin: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(work.join("skills/demo-skill/.clawhub/origin.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        (origin["slug"].as_str(), origin["installedVersion"].as_str()),
        (Some("demo-skill"), Some("1.0.0"))
    );
    // An untouched install is "up to date", not "local changes": the download is deterministic.
    assert!(
        clawhub(&["update", "demo-skill"])
            .to_lowercase()
            .contains("up to date")
    );
    std::fs::write(work.join("demo-skill/SKILL.md"), "---\nname: demo-skill\ndescription: Demonstrates the registry, better. Use when testing.\n---\n\nBody v2.\n").unwrap();
    assert!(
        clawhub(&["publish", "./demo-skill", "--version", "1.1.0"])
            .contains("OK. Published demo-skill@1.1.0")
    );
    assert!(clawhub(&["update", "demo-skill"]).contains("Updated demo-skill -> v1.1.0"));
    assert!(clawhub(&["list"]).contains("demo-skill  1.1.0"));
    // Our own client reads what clawhub published.
    let ours = |args: &[&str]| {
        let out = skill()
            .args(args)
            .args(["--registry", &url])
            .current_dir(tmp.path())
            .env("SKILL_CONFIG_DIR", tmp.path().join("skill-config"))
            .env_remove("SKILL_TOKEN")
            .env_remove("CLAWHUB_TOKEN")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let info = ours(&["info", "demo-skill"]);
    assert!(
        info.contains("latest:   1.1.0") && info.contains("owner:    @alice"),
        "{info}"
    );
    ours(&["install", "demo-skill@1.0.0", "--dir", "ours"]);
    assert!(
        std::fs::read_to_string(tmp.path().join("ours/demo-skill/SKILL.md"))
            .unwrap()
            .ends_with("Body.\n")
    );
    // And so does the server's database.
    let db = rusqlite::Connection::open(data.join("registry.sqlite3")).unwrap();
    let versions: Vec<String> = db
        .prepare("SELECT version FROM versions ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(versions, ["1.0.0", "1.1.0"]);
    let detail = ureq::get(&format!("{url}/api/v1/skills/demo-skill"))
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    let detail: serde_json::Value = serde_json::from_str(&detail).unwrap();
    assert_eq!(detail["skill"]["stats"]["versions"], 2);
    assert_eq!(detail["latestVersion"]["version"], "1.1.0");
}
