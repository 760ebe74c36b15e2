//! `skill update` and `skill uninstall` with the install records ClawHub writes: a lock file of
//! the wrong shape stops them before anything changes, entries they do not know are kept, each
//! skill is reported and a broken one does not stop the rest, and nothing read from a skill
//! folder decides which registry gets the token or which skill is replaced.

use crate::common;

use common::{Registry, registry_admin, run, skill, write_skill};
use std::path::{Path, PathBuf};

struct Setup {
    tmp: tempfile::TempDir,
    server: Registry,
    token: String,
}

impl Setup {
    /// A registry with pdf-tools 1.0.0 and 1.1.0 and csv-tools 1.0.0 and 1.1.0, both installed
    /// at 1.0.0 into `proj/skills`.
    fn new() -> Setup {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        registry_admin(&data, &["user", "add", "alice"]);
        let token = registry_admin(&data, &["token", "create", "alice"]);
        let server = Registry::serve(&[std::ffi::OsStr::new("--data"), data.as_os_str()]);
        let setup = Setup { tmp, server, token };
        for name in ["pdf-tools", "csv-tools"] {
            let dir = write_skill(
                &setup.tmp.path().join("src"),
                name,
                format!(
                    "---\nname: {name}\ndescription: Handles {name} files. Use when the user shares one.\n---\n\nRun it.\n"
                ),
            );
            let src = format!("src/{name}");
            setup.ok(&["publish", &src]);
            std::fs::write(dir.join("notes.md"), "# Notes\n").unwrap();
            setup.ok(&["publish", &src, "--bump", "minor"]);
            setup.ok(&["install", &format!("{name}@1.0.0"), "--dir", "proj/skills"]);
        }
        setup
    }

    fn cli(&self, args: &[&str]) -> (i32, String, String) {
        run(skill()
            .current_dir(self.tmp.path())
            .env("SKILL_CONFIG_DIR", self.tmp.path().join("config"))
            .env("SKILL_CACHE_DIR", self.tmp.path().join("cache"))
            .env("SKILL_REGISTRY", &self.server.url)
            .env("SKILL_TOKEN", &self.token)
            .env_remove("CLAWHUB_REGISTRY")
            .env_remove("CLAWHUB_TOKEN")
            .args(args))
    }

    fn ok(&self, args: &[&str]) -> String {
        let (code, stdout, stderr) = self.cli(args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        stdout
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.tmp.path().join(relative)
    }

    fn lock(&self) -> PathBuf {
        self.path("proj/.clawhub/lock.json")
    }
}

fn version_of(skill_dir: &Path) -> String {
    let origin: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(skill_dir.join(".clawhub/origin.json")).unwrap(),
    )
    .unwrap();
    origin["installedVersion"].as_str().unwrap().to_owned()
}

#[test]
fn a_lock_file_of_the_wrong_shape_stops_everything_before_anything_changes() {
    let setup = Setup::new();
    let cases: &[(&str, &[u8], &str)] = &[
        ("an array", b"[1]", "must be a JSON object, not an array"),
        ("a number", b"42", "must be a JSON object, not a number"),
        (
            "truncated",
            b"{\"version\":1,\"skills\":{\"pdf-tools\":",
            "not valid JSON",
        ),
        (
            "a BOM",
            b"\xEF\xBB\xBF{\"version\":1,\"skills\":{}}",
            "byte-order mark",
        ),
        (
            "skills a list",
            b"{\"version\":1,\"skills\":[]}",
            "`skills` must be an object",
        ),
        (
            "an entry a string",
            b"{\"version\":1,\"skills\":{\"pdf-tools\":\"1.0.0\"}}",
            "skills.pdf-tools",
        ),
    ];
    let commands: &[&[&str]] = &[
        &["uninstall", "pdf-tools", "--dir", "proj/skills"],
        &[
            "install",
            "pdf-tools@1.1.0",
            "--dir",
            "proj/skills",
            "--force",
        ],
        &["update", "--dir", "proj/skills"],
    ];
    let mut failures = Vec::new();
    for (name, bytes, expected) in cases {
        for command in commands {
            std::fs::write(setup.lock(), bytes).unwrap();
            let (code, _, stderr) = setup.cli(command);
            let unchanged = std::fs::read(setup.lock()).unwrap() == *bytes;
            let still = setup.path("proj/skills/pdf-tools/SKILL.md").is_file()
                && version_of(&setup.path("proj/skills/pdf-tools")) == "1.0.0";
            if code != 2
                || !stderr.contains("proj/.clawhub/lock.json")
                || !stderr.contains(expected)
                || stderr.contains("panicked")
                || !unchanged
                || !still
            {
                failures.push(format!(
                    "{name} / {}: exit {code}, unchanged {unchanged}, skill kept {still}, {stderr:?}",
                    command[0]
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn entries_and_fields_the_installer_does_not_know_are_kept() {
    let setup = Setup::new();
    let mut lock: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(setup.lock()).unwrap()).unwrap();
    lock["skills"]["pinned-skill"] =
        serde_json::json!({"version": "3.0.0", "installedAt": 5, "pinned": true});
    lock["skills"]["pdf-tools"]["pinned"] = serde_json::json!(false);
    lock["comment"] = serde_json::json!("written by another tool");
    std::fs::write(setup.lock(), serde_json::to_string(&lock).unwrap()).unwrap();

    setup.ok(&["uninstall", "csv-tools", "--dir", "proj/skills"]);
    setup.ok(&[
        "install",
        "pdf-tools@1.1.0",
        "--dir",
        "proj/skills",
        "--force",
    ]);
    let after: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(setup.lock()).unwrap()).unwrap();
    assert_eq!(
        after["skills"]["pinned-skill"],
        serde_json::json!({"version": "3.0.0", "installedAt": 5, "pinned": true})
    );
    assert_eq!(after["skills"]["pdf-tools"]["version"], "1.1.0");
    assert_eq!(after["skills"]["pdf-tools"]["pinned"], false);
    assert_eq!(after["comment"], "written by another tool");
    assert!(after["skills"].get("csv-tools").is_none());
}

#[test]
fn update_reports_every_skill_and_goes_on_past_a_broken_one() {
    let setup = Setup::new();
    std::fs::write(
        setup.path("proj/skills/csv-tools/.clawhub/origin.json"),
        "{\"version\": 1, \"registry\":",
    )
    .unwrap();
    let (code, stdout, stderr) = setup.cli(&["update", "--dir", "proj/skills"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_eq!(stdout, "Updated pdf-tools -> v1.1.0\n");
    assert!(
        stderr.contains("proj/skills/csv-tools/.clawhub/origin.json:1:")
            && stderr.contains("not valid JSON"),
        "{stderr}"
    );
    assert!(!stderr.contains("no SKILL.md"), "{stderr}");
    assert_eq!(version_of(&setup.path("proj/skills/pdf-tools")), "1.1.0");
}

#[test]
fn a_registry_named_inside_a_skill_never_gets_the_token() {
    let setup = Setup::new();
    // A listener that would see the token if update followed origin.json.
    let trap = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    trap.set_nonblocking(true).unwrap();
    let trap_url = format!("http://{}", trap.local_addr().unwrap());
    let origin_path = setup.path("proj/skills/pdf-tools/.clawhub/origin.json");
    let origin = std::fs::read_to_string(&origin_path)
        .unwrap()
        .replace(&setup.server.url, &trap_url);
    std::fs::write(&origin_path, origin).unwrap();
    let (code, stdout, stderr) = setup.cli(&["update", "pdf-tools", "--dir", "proj/skills"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!(
            "pdf-tools: installed from {trap_url}, but the registry is {}",
            setup.server.url
        )),
        "{stderr}"
    );
    assert!(
        trap.accept().is_err(),
        "update connected to the URL in origin.json"
    );
    assert_eq!(version_of(&setup.path("proj/skills/pdf-tools")), "1.0.0");
}

#[test]
fn update_replaces_only_the_skill_its_own_lock_entry_names() {
    let setup = Setup::new();
    // pdf-tools' origin.json claims to be csv-tools: updating it must not install csv-tools
    // over pdf-tools' folder, nor touch csv-tools.
    let origin_path = setup.path("proj/skills/pdf-tools/.clawhub/origin.json");
    let origin = std::fs::read_to_string(&origin_path)
        .unwrap()
        .replace("\"slug\": \"pdf-tools\"", "\"slug\": \"csv-tools\"");
    std::fs::write(&origin_path, origin).unwrap();
    let (code, _, stderr) = setup.cli(&["update", "pdf-tools", "--dir", "proj/skills"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains(
            "origin.json names the skill \"csv-tools\", the lock entry and the folder \"pdf-tools\""
        ),
        "{stderr}"
    );
    assert_eq!(version_of(&setup.path("proj/skills/csv-tools")), "1.0.0");
    assert!(setup.path("proj/skills/pdf-tools/SKILL.md").is_file());

    // A folder the lock file does not list is not a registry install.
    std::fs::create_dir_all(setup.path("proj/skills/local-only")).unwrap();
    let (code, _, stderr) = setup.cli(&["update", "local-only", "--dir", "proj/skills"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains(
            "local-only: not in proj/.clawhub/lock.json; only registry installs can be updated"
        ),
        "{stderr}"
    );
}

#[test]
fn an_untouched_install_of_a_withdrawn_version_is_updated_and_said_so() {
    let setup = Setup::new();
    setup.ok(&["delete", "pdf-tools", "--version", "1.0.0"]);
    assert_eq!(
        setup.ok(&["verify", "--dir", "proj/skills"]),
        "pdf-tools: ok\ncsv-tools: ok\n"
    );
    let (code, stdout, stderr) = setup.cli(&["update", "--dir", "proj/skills"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        stdout,
        "pdf-tools: installed v1.0.0 was withdrawn from the registry; updated to v1.1.0\nUpdated csv-tools -> v1.1.0\n"
    );
    assert_eq!(version_of(&setup.path("proj/skills/pdf-tools")), "1.1.0");
}
