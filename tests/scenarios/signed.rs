//! A signed publish through the real HTTP server and the real commands, on whichever store the
//! caller starts: `skill publish --sign` uploads a minisign signature of the version's file
//! manifest, the registry serves it (download header, `/api/v1/download/signature`, version
//! detail), Debian's `minisign` verifies it, and `skill install` checks it under `--trust`,
//! `--require-signature` and a `[trust]` table. `tests/signing.rs` runs it on SQLite,
//! `tests/registry_postgres.rs` on PostgreSQL.

use crate::common::{Registry, run, skill, write_skill};
use base64::Engine;
use std::path::Path;
use std::process::Command;

const SKILL_MD: &str = "---\nname: demo\ndescription: Demonstrates signed publishing. Use when testing.\n---\n\nRun `demo --help`.\n";

fn get(url: &str) -> (u16, Option<String>, Vec<u8>) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut response = agent.get(url).call().unwrap();
    let header = response
        .headers()
        .get("x-skill-signature")
        .map(|v| v.to_str().unwrap().to_owned());
    (
        response.status().as_u16(),
        header,
        response.body_mut().read_to_vec().unwrap(),
    )
}

fn key_id(cwd: &Path, name: &str) -> String {
    let (code, stdout, stderr) =
        run(skill()
            .current_dir(cwd)
            .args(["keygen", name, "--no-password"]));
    assert_eq!(code, 0, "{stderr}");
    stdout
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("key id "))
        .unwrap_or_else(|| panic!("{stdout}"))
        .to_owned()
}

/// Publishes `demo` 1.0.0 signed and 1.0.1 unsigned as `token`'s user to the server `start`
/// starts, then checks what the registry serves and what installs accept.
pub fn signed_publish_story(start: &dyn Fn() -> Registry, token: &str, tmp: &Path) {
    let server = start();
    let cwd = tmp.join("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let cli = |args: &[&str]| {
        run(skill()
            .current_dir(&cwd)
            .env("SKILL_CONFIG_DIR", cwd.join("config"))
            .env("SKILL_CACHE_DIR", cwd.join("cache"))
            .env("SKILL_REGISTRY", &server.url)
            .env("SKILL_TOKEN", token)
            .env_remove("CLAWHUB_REGISTRY")
            .env_remove("CLAWHUB_TOKEN")
            .env_remove("SKILL_SIGNING_PASSWORD")
            .args(args))
    };
    let alice = key_id(&cwd, "alice");
    key_id(&cwd, "mallory");
    let dir = write_skill(&cwd.join("src"), "demo", SKILL_MD);
    std::fs::write(dir.join("notes.md"), "# Notes\n").unwrap();
    let (code, stdout, stderr) = cli(&[
        "publish",
        "src/demo",
        "--version",
        "1.0.0",
        "--sign",
        "alice.key",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!("signing the files with key {alice}")),
        "{stderr}"
    );
    std::fs::write(dir.join("notes.md"), "# Notes, v1.0.1\n").unwrap();
    let (code, stdout, stderr) = cli(&["publish", "src/demo", "--version", "1.0.1"]);
    assert_eq!(code, 0, "{stdout}{stderr}");

    // The registry serves the signature three ways, and none for the unsigned version.
    let base = &server.url;
    let (status, _, text) = get(&format!(
        "{base}/api/v1/download/signature?slug=demo&version=1.0.0"
    ));
    assert_eq!(status, 200);
    let text = String::from_utf8(text).unwrap();
    assert!(text.starts_with("untrusted comment:"), "{text}");
    let (status, header, _) = get(&format!("{base}/api/v1/download?slug=demo&version=1.0.0"));
    assert_eq!(status, 200);
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(header.expect("x-skill-signature on a signed download"))
        .unwrap();
    assert_eq!(String::from_utf8(decoded).unwrap(), text);
    let (status, header, _) = get(&format!("{base}/api/v1/download?slug=demo&version=1.0.1"));
    assert_eq!((status, header), (200, None));
    let (status, _, body) = get(&format!(
        "{base}/api/v1/download/signature?slug=demo&version=1.0.1"
    ));
    assert_eq!(status, 404, "{}", String::from_utf8_lossy(&body));
    let (_, _, body) = get(&format!("{base}/api/v1/skills/demo/versions/1.0.0"));
    let detail: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let fingerprint_files: Vec<(String, String)> = detail["version"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_owned(),
                f["sha256"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let fingerprint = skill_model::fingerprint::fingerprint(&fingerprint_files);
    assert_eq!(
        detail["version"]["signature"],
        serde_json::json!({"keyId": alice,
            "trustedComment": format!("skill:demo version:1.0.0 fingerprint:{fingerprint}")})
    );

    // Debian's minisign verifies it over the manifest the installer rebuilds.
    let manifest = cwd.join("demo-1.0.0.manifest");
    std::fs::write(
        &manifest,
        skill_model::fingerprint::manifest(&fingerprint_files),
    )
    .unwrap();
    std::fs::write(cwd.join("demo-1.0.0.manifest.minisig"), &text).unwrap();
    let verified = Command::new("minisign")
        .current_dir(&cwd)
        .args(["-Vm", "demo-1.0.0.manifest", "-p", "alice.pub"])
        .output()
        .expect("minisign is missing: run .ci/run, which installs Debian's minisign");
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stderr)
    );

    // Installs: trusted key accepted and recorded; another key, or no signature where one is
    // required, refused with nothing written.
    let (code, stdout, stderr) = cli(&[
        "install",
        "demo@1.0.0",
        "--dir",
        "a/skills",
        "--trust",
        "alice.pub",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let lock: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cwd.join("a/.clawhub/lock.json")).unwrap())
            .unwrap();
    assert_eq!(lock["skills"]["demo"]["signer"], serde_json::json!(alice));
    let (code, _, stderr) = cli(&[
        "install",
        "demo@1.0.0",
        "--dir",
        "b/skills",
        "--trust",
        "mallory.pub",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "demo@1.0.0: signed by key {alice}, which is not among the trusted keys"
        )),
        "{stderr}"
    );
    assert!(!cwd.join("b").exists(), "a refused install writes nothing");
    let (code, _, stderr) = cli(&[
        "install",
        "demo@1.0.1",
        "--dir",
        "b/skills",
        "--trust",
        "alice.pub",
        "--require-signature",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("demo@1.0.1: not signed, and a signature is required"),
        "{stderr}"
    );
    assert!(!cwd.join("b").exists());
    let (code, stdout, stderr) = cli(&[
        "install",
        "demo@1.0.1",
        "--dir",
        "b/skills",
        "--trust",
        "alice.pub",
    ]);
    assert_eq!(
        code, 0,
        "unsigned is allowed unless required: {stdout}{stderr}"
    );
    let lock: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cwd.join("b/.clawhub/lock.json")).unwrap())
            .unwrap();
    assert_eq!(lock["skills"]["demo"]["signer"], serde_json::Value::Null);

    // `--frozen` applies the same policy to what it downloads.
    std::fs::remove_dir_all(cwd.join("b/skills/demo")).unwrap();
    let (code, _, stderr) = cli(&[
        "install",
        "--frozen",
        "--dir",
        "b/skills",
        "--require-signature",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("demo@1.0.1: not signed, and a signature is required"),
        "{stderr}"
    );
    assert!(!cwd.join("b/skills/demo").exists());
    let (code, stdout, stderr) = cli(&["install", "--frozen", "--dir", "b/skills"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("Installed demo v1.0.1 as locked"),
        "{stdout}"
    );

    // The same policy from the project's skill.toml, keys relative to it.
    std::fs::write(
        cwd.join("skill.toml"),
        "[trust]\nkeys = [\"alice.pub\"]\nrequire = true\n",
    )
    .unwrap();
    let (code, _, stderr) = cli(&["install", "demo@1.0.1", "--dir", "c/skills"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("[trust] require"), "{stderr}");
    let (code, stdout, stderr) = cli(&["install", "demo@1.0.0", "--dir", "c/skills"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    std::fs::write(cwd.join("skill.toml"), "[trust]\nkeys = \"alice.pub\"\n").unwrap();
    let (code, _, stderr) = cli(&["install", "demo@1.0.0", "--dir", "d/skills"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("skill.toml") && stderr.contains("keys"),
        "{stderr}"
    );
    std::fs::remove_file(cwd.join("skill.toml")).unwrap();
}
