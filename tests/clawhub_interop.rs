//! The real `clawhub` CLI (npm `clawhub@0.23.3`, run by Node 22 from npm; `.ci/run` installs both
//! under `target/test-deps/npm`) against `skill registry serve` on loopback: login, whoami,
//! publish, search, install, a new version, update, list; then our client and the database agree.
//! Then every other `clawhub --help` command that needs no ClawHub service of its own (explore,
//! search --prefix/--exact, inspect, star, skill tag, delete/undelete --version, hide, sync, ...),
//! on SQLite and on PostgreSQL.

use crate::common;
use common::needs::{Need, lacks};

use common::clawhub::npm_bin;
use common::{Registry, registry_admin, skill};
use std::path::{Path, PathBuf};

#[test]
fn the_clawhub_cli_works_against_our_registry() {
    if lacks(&[Need::Clawhub]) {
        return;
    }
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
    let clawhub = |args: &[&str]| {
        let out = common::clawhub::command(&bin)
            .args(args)
            .current_dir(&work)
            .env("HOME", tmp.path())
            .env("XDG_CONFIG_HOME", tmp.path().join("config"))
            .env("CLAWHUB_REGISTRY", &url)
            .output()
            .unwrap();
        let all = common::printed(&out);
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

/// The `clawhub` CLI run in one work folder against one server, logged in or not.
struct Hub {
    bin: PathBuf,
    home: PathBuf,
    work: PathBuf,
    url: String,
}

impl Hub {
    /// The clawhub CLI in `bin`, with `home` as its HOME and `home/work` as its working folder
    /// (created), talking to the registry at `url`.
    fn new(bin: PathBuf, home: &Path, url: &str) -> Hub {
        let work = home.join("work");
        std::fs::create_dir_all(&work).unwrap();
        Hub {
            bin,
            home: home.to_owned(),
            work,
            url: url.to_owned(),
        }
    }

    fn output(&self, args: &[&str]) -> (bool, String, String) {
        let out = common::clawhub::command(&self.bin)
            .args(args)
            .current_dir(&self.work)
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join("config"))
            .env("CLAWHUB_REGISTRY", &self.url)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// Runs a command that must succeed; its stdout and stderr together.
    fn ok(&self, args: &[&str]) -> String {
        let (ok, stdout, stderr) = self.output(args);
        assert!(ok, "clawhub {args:?} failed:\n{stdout}{stderr}");
        format!("{stdout}{stderr}")
    }

    /// Runs a command that must fail; its stdout and stderr together.
    fn fails(&self, args: &[&str]) -> String {
        let (ok, stdout, stderr) = self.output(args);
        assert!(!ok, "clawhub {args:?} succeeded:\n{stdout}{stderr}");
        format!("{stdout}{stderr}")
    }

    /// Runs a `--json` command; its stdout parsed.
    fn json(&self, args: &[&str]) -> serde_json::Value {
        let (ok, stdout, stderr) = self.output(args);
        assert!(ok, "clawhub {args:?} failed:\n{stdout}{stderr}");
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}:\n{stdout}"))
    }

    /// `GET` of an API path on the server, parsed.
    fn api(&self, path: &str) -> serde_json::Value {
        let body = ureq::get(&format!("{}{path}", self.url))
            .call()
            .unwrap()
            .body_mut()
            .read_to_string()
            .unwrap();
        serde_json::from_str(&body).unwrap()
    }

    fn status(&self, path: &str) -> u16 {
        match ureq::get(&format!("{}{path}", self.url)).call() {
            Ok(r) => r.status().as_u16(),
            Err(ureq::Error::StatusCode(code)) => code,
            Err(e) => panic!("{path}: {e}"),
        }
    }
}

fn write_demo(work: &Path, slug: &str, description: &str, body: &str) {
    std::fs::create_dir_all(work.join(slug)).unwrap();
    std::fs::write(
        work.join(slug).join("SKILL.md"),
        format!("---\nname: {slug}\ndescription: {description}\n---\n\n{body}\n"),
    )
    .unwrap();
}

/// Lines of output that name a skill, in order (spinner lines and blanks left out).
fn slugs_in(output: &str, candidates: &[&str]) -> Vec<String> {
    output
        .lines()
        .filter_map(|l| {
            let first = l.split_whitespace().next()?;
            candidates.contains(&first).then(|| first.to_owned())
        })
        .collect()
}

/// Every `clawhub --help` command that makes sense without ClawHub's own services, on SQLite.
#[test]
fn every_clawhub_command_works_against_our_registry() {
    if lacks(&[Need::Clawhub]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    every_clawhub_command(&tmp, &["--data".into(), data.into_os_string()]);
}

/// The same on PostgreSQL (`SKILL_TEST_POSTGRES`, which `.ci/run` sets).
#[test]
fn every_clawhub_command_works_against_our_registry_on_postgres() {
    if lacks(&[Need::Clawhub, Need::Postgres]) {
        return;
    }
    let database = common::postgres::TestDatabase::create("skill_clawhub");
    let tmp = tempfile::tempdir().unwrap();
    every_clawhub_command(&tmp, &["--database".into(), (*database).into()]);
}

/// Each command's output and JSON asserted, and the state it changes read back through the
/// API, against a server on the store `store` names (`--data DIR` or `--database URL`).
fn every_clawhub_command(tmp: &tempfile::TempDir, store: &[std::ffi::OsString]) {
    let bin = npm_bin();
    assert!(
        bin.join("clawhub").exists(),
        "{} is missing: run .ci/run (npm install --prefix target/test-deps/npm node@22 clawhub@0.23.3)",
        bin.display()
    );
    let admin = |args: &[&str]| {
        let out = skill()
            .arg("registry")
            .args(args)
            .args(store)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    admin(&["user", "add", "alice"]);
    admin(&["user", "add", "bob"]);
    let token = admin(&["token", "create", "alice"]);
    let bob_token = admin(&["token", "create", "bob"]);
    let server = Registry::serve(store);
    let hub = Hub::new(bin, tmp.path(), &server.url);
    let work = hub.work.clone();

    // Auth: logged out first, then in; `auth` is the same commands under one name.
    assert!(hub.fails(&["whoami"]).contains("Not logged in"));
    assert!(
        hub.fails(&["star", "demo-skill", "--yes"])
            .contains("Not logged in")
    );
    assert!(
        hub.ok(&["auth", "login", "--token", &bob_token, "--no-browser"])
            .contains("OK. Logged in as @bob.")
    );
    assert!(hub.ok(&["auth", "whoami"]).contains("bob"));
    hub.ok(&["logout"]);
    assert!(hub.fails(&["whoami"]).contains("Not logged in"));
    assert!(
        hub.ok(&["login", "--token", &token, "--no-browser"])
            .contains("OK. Logged in as @alice.")
    );
    assert_eq!(hub.ok(&["token"]).trim(), token);

    // Publishing: the legacy alias and `skill publish`.
    write_demo(
        &work,
        "demo-skill",
        "Demonstrates the registry. Use when testing.",
        "Body.",
    );
    write_demo(
        &work,
        "demo-extra",
        "Extra demonstration of the registry.",
        "Extra.",
    );
    assert!(
        hub.ok(&[
            "publish",
            "./demo-skill",
            "--version",
            "1.0.0",
            "--tags",
            "latest,beta"
        ])
        .contains("OK. Published demo-skill@1.0.0")
    );
    write_demo(
        &work,
        "demo-skill",
        "Demonstrates the registry. Use when testing.",
        "Body v1.1.",
    );
    assert!(
        hub.ok(&["skill", "publish", "./demo-skill", "--version", "1.1.0"])
            .contains("OK. Published demo-skill@1.1.0")
    );
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(
        hub.ok(&["skill", "publish", "./demo-extra", "--version", "0.1.0"])
            .contains("OK. Published demo-extra@0.1.0")
    );

    // Installing moves stats.downloads.
    // The server writes counted downloads every second: the count gets a few to arrive.
    let downloads_reach = |slug: &str, expected: u64| {
        let count =
            || hub.api(&format!("/api/v1/skills/{slug}"))["skill"]["stats"]["downloads"].clone();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let mut last = count();
        while last != expected && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(100));
            last = count();
        }
        assert_eq!(last, expected, "downloads of {slug}");
    };
    downloads_reach("demo-skill", 0);
    assert!(
        hub.ok(&["install", "demo-skill"])
            .contains("Installed demo-skill v1.1.0")
    );
    downloads_reach("demo-skill", 1);
    assert!(hub.ok(&["list"]).contains("demo-skill  1.1.0"));
    std::thread::sleep(std::time::Duration::from_millis(20));
    write_demo(
        &work,
        "demo-skill",
        "Demonstrates the registry. Use when testing.",
        "Body v1.2.",
    );
    hub.ok(&["publish", "./demo-skill", "--version", "1.2.0"]);
    // pin keeps update away; unpin lets it through.
    let pinned = hub.ok(&["pin", "demo-skill", "--reason", "testing"]);
    assert!(pinned.to_lowercase().contains("pinned"), "{pinned}");
    let skipped = hub.fails(&["update", "demo-skill"]);
    assert!(skipped.contains("is pinned"), "{skipped}");
    assert!(
        hub.ok(&["unpin", "demo-skill"])
            .to_lowercase()
            .contains("unpinned")
    );
    assert!(
        hub.ok(&["update", "demo-skill"])
            .contains("Updated demo-skill -> v1.2.0")
    );
    downloads_reach("demo-skill", 2);

    // Search: words, a slug prefix with pages, an exact slug.
    let found = hub.ok(&["search", "registry"]);
    assert_eq!(
        slugs_in(&found, &["demo-skill", "demo-extra"]).len(),
        2,
        "{found}"
    );
    let page = hub.ok(&["search", "demo-", "--prefix", "--limit", "1"]);
    assert_eq!(
        slugs_in(&page, &["demo-skill", "demo-extra"]),
        ["demo-extra"],
        "{page}"
    );
    assert!(page.contains("demo-extra  v0.1.0"), "{page}");
    let cursor = page
        .lines()
        .find_map(|l| l.strip_prefix("Next cursor: "))
        .unwrap_or_else(|| panic!("no cursor: {page}"))
        .trim()
        .to_owned();
    let next = hub.ok(&[
        "search", "demo-", "--prefix", "--limit", "1", "--cursor", &cursor,
    ]);
    assert_eq!(
        slugs_in(&next, &["demo-skill", "demo-extra"]),
        ["demo-skill"],
        "{next}"
    );
    assert!(!next.contains("Next cursor"), "{next}");
    assert!(
        hub.ok(&["search", "zzz-", "--prefix"])
            .contains("No skills found.")
    );
    let exact = hub.ok(&["search", "demo-skill", "--exact"]);
    assert_eq!(
        slugs_in(&exact, &["demo-skill", "demo-extra"]),
        ["demo-skill"]
    );
    assert!(exact.contains("demo-skill v1.2.0  @alice"), "{exact}");
    assert!(!exact.contains("demo-extra"), "{exact}");
    assert!(!hub.ok(&["search", "demo", "--exact"]).contains("demo-"));

    // Stars: idempotent, counted, refused for unknown skills.
    assert!(
        hub.ok(&["star", "demo-extra", "--yes"])
            .contains("OK. Starred demo-extra")
    );
    assert!(
        hub.ok(&["star", "demo-extra", "--yes"])
            .contains("OK. demo-extra already starred.")
    );
    let unknown = hub.fails(&["star", "no-such-skill", "--yes"]);
    assert!(unknown.contains("Skill not found"), "{unknown}");
    assert!(
        hub.fails(&["unstar", "no-such-skill", "--yes"])
            .contains("Skill not found")
    );
    let inspected = hub.json(&["inspect", "demo-extra", "--json"]);
    assert_eq!(inspected["skill"]["stats"]["stars"], 1);
    assert!(
        hub.ok(&["unstar", "demo-extra", "--yes"])
            .contains("OK. Unstarred demo-extra")
    );
    assert!(
        hub.ok(&["unstar", "demo-extra", "--yes"])
            .contains("OK. demo-extra already unstarred.")
    );
    assert_eq!(
        hub.json(&["inspect", "demo-extra", "--json"])["skill"]["stats"]["stars"],
        0
    );
    hub.ok(&["star", "demo-extra", "--yes"]);

    // Explore: every sort, text and JSON.
    let candidates = ["demo-skill", "demo-extra"];
    let order = |sort: &str| {
        let out = hub.ok(&["explore", "--sort", sort]);
        slugs_in(&out, &candidates)
    };
    assert_eq!(order("newest"), ["demo-extra", "demo-skill"], "createdAt");
    assert_eq!(order("updated"), ["demo-skill", "demo-extra"]);
    assert_eq!(order("downloads"), ["demo-skill", "demo-extra"]);
    assert_eq!(order("installs"), ["demo-skill", "demo-extra"]);
    assert_eq!(order("rating"), ["demo-extra", "demo-skill"]);
    assert_eq!(order("trending"), ["demo-skill", "demo-extra"]);
    assert_eq!(
        slugs_in(&hub.ok(&["explore"]), &candidates),
        ["demo-extra", "demo-skill"]
    );
    let newest = hub.ok(&["explore", "--sort", "newest"]);
    // `slug  vVERSION  AGE  summary`, the age relative to now ("just now", "1m ago").
    assert!(
        newest.lines().any(|l| l.starts_with("demo-skill  v1.2.0  ")
            && (l.ends_with(" ago  Demonstrates the registry. Use when testing.")
                || l.ends_with("  just now  Demonstrates the registry. Use when testing."))),
        "{newest}"
    );
    let listed = hub.json(&["explore", "--json", "--limit", "1", "--sort", "downloads"]);
    assert_eq!(listed["items"].as_array().unwrap().len(), 1);
    assert_eq!(listed["items"][0]["slug"], "demo-skill");
    assert_eq!(listed["items"][0]["latestVersion"]["version"], "1.2.0");
    assert_eq!(listed["items"][0]["stats"]["downloads"], 2);
    assert_eq!(listed["items"][0]["tags"]["beta"], "1.0.0");
    assert_eq!(listed["nextCursor"], "1");
    let rated = hub.json(&["explore", "--json", "--sort", "rating"]);
    assert_eq!(rated["items"][0]["stats"]["stars"], 1);
    assert_eq!(hub.status("/api/v1/skills?sort=sideways"), 400);

    // Inspect: versions with a limit, files, one file, a version, a tag.
    let versions = hub.json(&[
        "inspect",
        "demo-skill",
        "--versions",
        "--limit",
        "2",
        "--json",
    ]);
    let numbers: Vec<&str> = versions["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_str().unwrap())
        .collect();
    assert_eq!(numbers, ["1.2.0", "1.1.0"]);
    let text = hub.ok(&["inspect", "demo-skill", "--versions", "--limit", "1"]);
    assert!(
        text.contains("Versions:") && text.contains("1.2.0") && !text.contains("1.1.0"),
        "{text}"
    );
    let files = hub.ok(&["inspect", "demo-skill", "--files"]);
    assert!(
        files.contains("Files:") && files.contains("SKILL.md"),
        "{files}"
    );
    assert!(
        hub.ok(&["inspect", "demo-skill", "--file", "SKILL.md"])
            .contains("Body v1.2.")
    );
    let old = hub.json(&["inspect", "demo-skill", "--version", "1.0.0", "--json"]);
    assert_eq!(old["version"]["version"], "1.0.0");
    let beta = hub.json(&["inspect", "demo-skill", "--tag", "beta", "--json"]);
    assert_eq!(beta["version"]["version"], "1.0.0");

    // skill tag: a new tag, and latest moved back and forward again.
    assert!(
        hub.ok(&[
            "skill",
            "tag",
            "demo-skill",
            "1.1.0",
            "--tag",
            "stable",
            "--yes"
        ])
        .contains("Set stable for demo-skill to 1.1.0")
    );
    assert_eq!(
        hub.api("/api/v1/skills/demo-skill")["skill"]["tags"]["stable"],
        "1.1.0"
    );
    assert_eq!(
        hub.json(&["inspect", "demo-skill", "--tag", "stable", "--json"])["version"]["version"],
        "1.1.0"
    );
    assert!(
        hub.ok(&["skill", "tag", "demo-skill", "1.1.0", "--yes"])
            .contains("Set latest for demo-skill to 1.1.0")
    );
    assert_eq!(
        hub.api("/api/v1/skills/demo-skill")["latestVersion"]["version"],
        "1.1.0"
    );
    hub.ok(&["skill", "tag", "demo-skill", "1.2.0", "--yes"]);
    assert!(
        hub.fails(&["skill", "tag", "demo-skill", "9.9.9", "--tag", "x", "--yes"])
            .contains("Version not found")
    );

    // delete / undelete of one version: withdrawn from lists and downloads, then restored;
    // the latest version is refused.
    assert!(
        hub.ok(&["delete", "demo-skill", "--version", "1.0.0", "--yes"])
            .contains("OK. Deleted demo-skill version 1.0.0")
    );
    let left = hub.api("/api/v1/skills/demo-skill/versions");
    let left: Vec<&str> = left["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_str().unwrap())
        .collect();
    assert_eq!(left, ["1.2.0", "1.1.0"]);
    assert_eq!(
        hub.status("/api/v1/download?slug=demo-skill&version=1.0.0"),
        410
    );
    assert!(
        hub.api("/api/v1/skills/demo-skill")["skill"]["tags"]
            .get("beta")
            .is_none()
    );
    let refused = hub.fails(&["delete", "demo-skill", "--version", "1.2.0", "--yes"]);
    assert!(refused.contains("latest version"), "{refused}");
    assert!(
        hub.ok(&["undelete", "demo-skill", "--version", "1.0.0", "--yes"])
            .contains("OK. Undeleted demo-skill version 1.0.0")
    );
    assert_eq!(
        hub.status("/api/v1/download?slug=demo-skill&version=1.0.0"),
        200
    );
    assert_eq!(
        hub.api("/api/v1/skills/demo-skill")["latestVersion"]["version"],
        "1.2.0"
    );

    // hide / unhide and delete / undelete of a whole skill; only its owner may.
    assert!(
        hub.ok(&["hide", "demo-extra", "--yes"])
            .contains("OK. Hidden demo-extra")
    );
    assert_eq!(hub.status("/api/v1/skills/demo-extra"), 404);
    assert!(
        hub.ok(&["unhide", "demo-extra", "--yes"])
            .contains("OK. Unhidden demo-extra")
    );
    assert!(
        hub.ok(&["delete", "demo-extra", "--yes"])
            .contains("OK. Deleted demo-extra")
    );
    assert_eq!(slugs_in(&hub.ok(&["explore"]), &candidates), ["demo-skill"]);
    assert!(
        hub.ok(&["undelete", "demo-extra", "--yes"])
            .contains("OK. Undeleted demo-extra")
    );
    assert_eq!(hub.status("/api/v1/skills/demo-extra"), 200);

    // sync publishes what changed under a root; uninstall removes the install.
    let root = tmp.path().join("sync-root");
    write_demo(
        &root,
        "synced-skill",
        "Published by clawhub sync.",
        "Synced.",
    );
    let dry = hub.ok(&["sync", "--root", root.to_str().unwrap(), "--dry-run"]);
    assert!(dry.contains("synced-skill"), "{dry}");
    assert_eq!(hub.status("/api/v1/skills/synced-skill"), 404);
    let synced = hub.ok(&["sync", "--root", root.to_str().unwrap(), "--all"]);
    assert!(synced.contains("synced-skill"), "{synced}");
    assert_eq!(
        hub.api("/api/v1/skills/synced-skill")["latestVersion"]["version"],
        "1.0.0"
    );
    hub.ok(&["uninstall", "demo-skill", "--yes"]);
    assert!(!work.join("skills/demo-skill").exists());
    assert!(!hub.ok(&["list"]).contains("demo-skill"));

    // Another user may not change alice's skills.
    hub.ok(&["login", "--token", &bob_token, "--no-browser"]);
    assert!(
        hub.fails(&["delete", "demo-skill", "--version", "1.0.0", "--yes"])
            .contains("owner")
    );
    assert!(
        hub.fails(&["skill", "tag", "demo-skill", "1.0.0", "--yes"])
            .contains("owner")
    );
    assert!(
        hub.ok(&["star", "demo-skill", "--yes"])
            .contains("OK. Starred demo-skill")
    );
    assert_eq!(
        hub.api("/api/v1/skills/demo-skill")["skill"]["stats"]["stars"],
        1
    );
}

/// Every file under `dir` (relative, `/`-separated), sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

/// The ClawHub skills of the shared corpus that lint without errors (sub-skills included; every
/// fourth and every bundle, or all of them: [`ROUND_TRIP_STRIDE`]),
/// with ClawHub's own `_meta.json` in it (and a `.clawhub/origin.json` added, as `clawhub
/// install` leaves one), publishes to `skill registry serve` and installs back with the same files, less ClawHub's
/// install metadata: the download's `_meta.json` is the registry's own, for the new slug.
#[test]
fn clawhub_skills_of_the_corpus_publish_and_install_again() {
    if lacks(&[Need::Clawhub]) {
        return;
    }
    let Some(corpus) =
        common::shared_corpus("clawhub_skills_of_the_corpus_publish_and_install_again")
    else {
        return;
    };
    let (_, stdout, _) = common::run(
        skill()
            .args(["lint", "--format", "json", "--no-env-checks"])
            .arg(corpus.join("clawhub")),
    );
    let eligible: Vec<PathBuf> = without_errors(&common::json(&stdout))
        .into_iter()
        .filter(|dir| dir.join("_meta.json").is_file() && dir.join("SKILL.md").is_file())
        .collect();
    assert!(eligible.len() > 1000, "only {} skills", eligible.len());
    let skills = round_trip_share(eligible);
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    registry_admin(&data, &["user", "add", "alice"]);
    let token = registry_admin(&data, &["token", "create", "alice"]);
    let server = Registry::serve(&[std::ffi::OsStr::new("--data"), data.as_os_str()]);
    let failures = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let worker = |w: usize| loop {
        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Some(source) = skills.get(i) else { break };
        let work = tmp.path().join(format!("w{w}/{i}"));
        let dir = work.join("src").join(source.file_name().unwrap());
        common::copy_tree(source, &dir);
        std::fs::create_dir_all(dir.join(".clawhub")).unwrap();
        std::fs::write(dir.join(".clawhub/origin.json"), "{\"version\":1}").unwrap();
        let slug = format!("rt-{i}");
        let cli = |args: &[&str]| {
            common::run(
                skill()
                    .current_dir(&work)
                    .env("SKILL_CONFIG_DIR", work.join("config"))
                    .env("SKILL_CACHE_DIR", work.join("cache"))
                    .env("SKILL_REGISTRY", &server.url)
                    .env("SKILL_TOKEN", &token)
                    .args(args),
            )
        };
        let (code, _, stderr) = cli(&[
            "publish",
            &dir.display().to_string(),
            "--slug",
            &slug,
            "--version",
            "1.0.0",
        ]);
        if code != 0 {
            failures
                .lock()
                .unwrap()
                .push(format!("{}: publish: {stderr}", source.display()));
            continue;
        }
        let (code, _, stderr) = cli(&["install", &slug, "--dir", "installed"]);
        if code != 0 {
            failures
                .lock()
                .unwrap()
                .push(format!("{}: install: {stderr}", source.display()));
            continue;
        }
        let shipped: Vec<String> = skill_archive::select_files(&dir, false, None)
            .unwrap()
            .into_iter()
            .map(|f| f.path)
            .collect();
        let installed_dir = work.join("installed").join(&slug);
        let installed: Vec<String> = files_under(&installed_dir)
            .into_iter()
            .filter(|p| p != "_meta.json" && !p.starts_with(".clawhub/"))
            .collect();
        let same_bytes = shipped
            .iter()
            .all(|p| std::fs::read(dir.join(p)).ok() == std::fs::read(installed_dir.join(p)).ok());
        let meta = std::fs::read_to_string(installed_dir.join("_meta.json")).unwrap_or_default();
        if shipped != installed
            || !same_bytes
            || shipped.iter().any(|p| p == "_meta.json")
            || (!meta.is_empty() && !meta.contains(&slug))
        {
            failures.lock().unwrap().push(format!(
                "{}: shipped {shipped:?}, installed {installed:?}, _meta.json {meta}",
                source.display()
            ));
        }
        std::fs::remove_dir_all(&work).unwrap();
    };
    std::thread::scope(|s| {
        for w in 0..2 {
            s.spawn(move || worker(w));
        }
    });
    let failures = failures.into_inner().unwrap();
    println!(
        "{} of {} ClawHub skills that lint without errors published and installed again",
        skills.len() - failures.len(),
        skills.len()
    );
    let bundles = skills.iter().filter(|dir| ships_sub_skill(dir)).count();
    println!("{bundles} of them are bundles that ship a sub-skill's SKILL.md");
    assert!(bundles > 0, "no bundle among the skills round-tripped");
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// How many of the eligible skills the round trip takes by default: every fourth, in path
/// order (so every author's skills are spread over the share), and every bundle. Each skill
/// costs two runs of the test build's `skill` and the server's work, about a quarter of a
/// second: the whole corpus was 550 of CI's seconds. `SKILL_TEST_WHOLE_CORPUS=1` takes them all.
const ROUND_TRIP_STRIDE: usize = 4;

/// The share of `eligible` the round trip publishes and installs (see [`ROUND_TRIP_STRIDE`]).
fn round_trip_share(eligible: Vec<PathBuf>) -> Vec<PathBuf> {
    let whole = std::env::var_os("SKILL_TEST_WHOLE_CORPUS").is_some_and(|v| v == "1");
    let total = eligible.len();
    let share: Vec<PathBuf> = eligible
        .into_iter()
        .enumerate()
        .filter(|(i, dir)| whole || i % ROUND_TRIP_STRIDE == 0 || ships_sub_skill(dir))
        .map(|(_, dir)| dir)
        .collect();
    println!(
        "round trip over {} of {total} eligible ClawHub skills{}",
        share.len(),
        if whole {
            ""
        } else {
            " (every fourth and every bundle; SKILL_TEST_WHOLE_CORPUS=1 for all)"
        }
    );
    share
}

/// The skills of a `skill lint --format json` report that lint without errors, their
/// sub-skills included: a bundle ships its sub-skills, and publish lints and scans them too.
fn without_errors(report: &serde_json::Value) -> Vec<PathBuf> {
    let skills = report["skills"].as_array().unwrap();
    let invalid: Vec<PathBuf> = skills
        .iter()
        .filter(|s| s["valid"] != true)
        .map(|s| PathBuf::from(s["path"].as_str().unwrap()))
        .collect();
    skills
        .iter()
        .map(|s| PathBuf::from(s["path"].as_str().unwrap()))
        .filter(|dir| !invalid.iter().any(|bad| bad.starts_with(dir)))
        .collect()
}

/// Whether the skill in `dir` ships a sub-skill's `SKILL.md` below its root (a bundle).
fn ships_sub_skill(dir: &Path) -> bool {
    skill_archive::select_files(dir, false, None)
        .unwrap()
        .iter()
        .any(|f| f.path.contains('/') && f.path.to_ascii_lowercase().ends_with("/skill.md"))
}

/// How many ClawHub skills of the corpus the real `clawhub sync` uploads in one run.
const SYNCED: usize = 40;

/// The real `clawhub sync` uploads a folder of ClawHub skills from the corpus, each with
/// ClawHub's `_meta.json` (and a `.clawhub/origin.json`, as an install folder has), to our
/// registry: every one is published, without the install metadata.
#[test]
fn clawhub_sync_uploads_corpus_skills_to_our_registry() {
    if lacks(&[Need::Clawhub]) {
        return;
    }
    let Some(corpus) = common::shared_corpus("clawhub_sync_uploads_corpus_skills_to_our_registry")
    else {
        return;
    };
    let bin = npm_bin();
    assert!(
        bin.join("clawhub").exists(),
        "{} is missing: run .ci/run",
        bin.display()
    );
    let (_, stdout, _) = common::run(
        skill()
            .args(["lint", "--format", "json", "--no-env-checks"])
            .arg(corpus.join("clawhub")),
    );
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("sync-root");
    let mut names: Vec<String> = Vec::new();
    // Every 30th valid ClawHub skill with its metadata whose folder name is a fresh slug, and
    // the first bundle whose folders hold sub-skills (`x/SKILL.md`) among them.
    let mut bundles: Vec<String> = Vec::new();
    let report = common::json(&stdout);
    let valid = without_errors(&report);
    for (i, s) in report["skills"].as_array().unwrap().iter().enumerate() {
        let dir = PathBuf::from(s["path"].as_str().unwrap());
        let bundle = bundles.is_empty() && valid.contains(&dir) && ships_sub_skill(&dir);
        if i % 30 != 0 && !bundle {
            continue;
        }
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let slug_like = name.len() >= 3
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !valid.contains(&dir)
            || !dir.join("_meta.json").is_file()
            || !slug_like
            || names.contains(&name)
            || names.len() == SYNCED
        {
            continue;
        }
        if ships_sub_skill(&dir) {
            bundles.push(name.clone());
        }
        common::copy_tree(&dir, &root.join(&name));
        std::fs::create_dir_all(root.join(&name).join(".clawhub")).unwrap();
        std::fs::write(
            root.join(&name).join(".clawhub/origin.json"),
            "{\"version\":1}",
        )
        .unwrap();
        names.push(name);
    }
    assert_eq!(names.len(), SYNCED);
    assert!(
        !bundles.is_empty(),
        "no bundle of sub-skills among {names:?}"
    );
    let data = tmp.path().join("data");
    registry_admin(&data, &["user", "add", "alice"]);
    let token = registry_admin(&data, &["token", "create", "alice"]);
    let server = Registry::serve(&[std::ffi::OsStr::new("--data"), data.as_os_str()]);
    let hub = Hub::new(bin, tmp.path(), &server.url);
    hub.ok(&["login", "--token", &token, "--no-browser"]);
    hub.ok(&["sync", "--root", root.to_str().unwrap(), "--all"]);
    let mut missing = Vec::new();
    for name in &names {
        if hub.status(&format!("/api/v1/skills/{name}")) != 200 {
            missing.push(name.clone());
            continue;
        }
        let detail = hub.api(&format!("/api/v1/skills/{name}/versions/1.0.0"));
        let files: Vec<&str> = detail["version"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap())
            .collect();
        assert!(
            files.contains(&"SKILL.md")
                && !files
                    .iter()
                    .any(|f| *f == "_meta.json" || f.starts_with(".clawhub")),
            "{name}: {files:?}"
        );
        assert!(
            !bundles.contains(name) || files.iter().any(|f| f.ends_with("/SKILL.md")),
            "{name}: its sub-skill did not arrive: {files:?}"
        );
    }
    assert!(
        missing.is_empty(),
        "not published by clawhub sync: {missing:?}"
    );
}
