//! The scale-out path: two `skill registry serve --database postgres://…` processes sharing one
//! PostgreSQL database. A skill published through one is found, described and installed through
//! the other, and a version published through one conflicts when pushed through the other; and
//! the quarantine of a risky version, reviewed through the store (`scenarios/quarantine.rs`).
//! `bash .ci/run` starts PostgreSQL from Debian's packages and names it in `SKILL_TEST_POSTGRES`.

mod common;

#[path = "scenarios/quarantine.rs"]
mod scenario;

#[path = "scenarios/signed.rs"]
mod signed;

#[path = "scenarios/downloads.rs"]
mod downloads;

use common::{Registry, run, skill, write_skill};

/// A fresh, empty database on the test server; returns its URL.
fn fresh_database() -> String {
    let url = std::env::var("SKILL_TEST_POSTGRES")
        .expect("SKILL_TEST_POSTGRES must name a PostgreSQL server (bash .ci/run starts one)");
    let name = format!(
        "skill_it_{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    let base = url.rsplit_once('/').map_or(url.as_str(), |(b, _)| b);
    format!("{base}/{name}")
}

/// Runs `skill registry ARGS --database DATABASE`, expects success, returns its trimmed stdout.
fn admin(database: &str, args: &[&str]) -> String {
    let (code, stdout, stderr) = run(skill()
        .arg("registry")
        .args(args)
        .args(["--database", database]));
    assert_eq!(code, 0, "{stderr}");
    stdout.trim().to_owned()
}

fn start(database: &str) -> Registry {
    Registry::serve(&["--database", database])
}

#[test]
fn two_servers_share_one_database() {
    let database = fresh_database();
    let tmp = tempfile::tempdir().unwrap();
    let admin = |args: &[&str]| admin(&database, args);
    assert_eq!(admin(&["user", "add", "alice"]), "Created publisher @alice");
    let token = admin(&["token", "create", "alice"]);
    let (a, b) = (start(&database), start(&database));
    let cli = |registry: &str, args: &[&str]| {
        run(skill()
            .current_dir(tmp.path())
            .env("SKILL_CONFIG_DIR", tmp.path().join("config"))
            .env("SKILL_CACHE_DIR", tmp.path().join("cache"))
            .env("SKILL_TOKEN", &token)
            .env_remove("SKILL_REGISTRY")
            .env_remove("CLAWHUB_REGISTRY")
            .env_remove("CLAWHUB_TOKEN")
            .args(args)
            .args(["--registry", registry]))
    };
    write_skill(
        &tmp.path().join("src"),
        "pdf-tools",
        "---\nname: pdf-tools\ndescription: Extract tables from PDF files. Use when the user shares a PDF.\n---\n\nRun the extractor.\n",
    );
    let (code, stdout, stderr) = cli(&a.url, &["publish", "src/pdf-tools"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("Published pdf-tools@1.0.0"), "{stdout}");

    let (code, stdout, _) = cli(&b.url, &["search", "tables"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("pdf-tools v1.0.0  @alice"), "{stdout}");
    let (_, stdout, _) = cli(&b.url, &["info", "pdf-tools"]);
    assert!(stdout.contains("latest:   1.0.0"), "{stdout}");
    let (code, _, stderr) = cli(&b.url, &["publish", "src/pdf-tools", "--version", "1.0.0"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("(409): Version 1.0.0 already exists"),
        "{stderr}"
    );
    let (code, _, stderr) = cli(
        &b.url,
        &["publish", "src/pdf-tools", "--version", "1.0.0+build2"],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("(409): Version 1.0.0 already exists, and 1.0.0+build2 differs from it only in build metadata"),
        "{stderr}"
    );
    let (code, stdout, stderr) = cli(&b.url, &["install", "pdf-tools", "--dir", "skills"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        "Installed pdf-tools in skills/pdf-tools (2 files)\n"
    );
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("skills/pdf-tools/SKILL.md")).unwrap(),
        std::fs::read_to_string(tmp.path().join("src/pdf-tools/SKILL.md")).unwrap()
    );
}

#[test]
fn a_risky_version_is_quarantined_until_reviewed_on_postgres() {
    let database = fresh_database();
    let tmp = tempfile::tempdir().unwrap();
    let start = || start(&database);
    scenario::quarantine_story(&["--database", &database], &start, tmp.path());
    let store = skill::registry::store::PostgresStore::open(&database).unwrap();
    let log = skill::registry::store::Store::audit_log(&store, Some("demo")).unwrap();
    let actions: Vec<&str> = log.iter().map(|l| l.action.as_str()).collect();
    assert_eq!(actions, ["quarantine", "approve", "quarantine", "reject"]);
}

#[test]
fn a_signed_publish_is_served_and_checked_at_install_on_postgres() {
    let database = fresh_database();
    let tmp = tempfile::tempdir().unwrap();
    let admin = |args: &[&str]| admin(&database, args);
    admin(&["user", "add", "alice"]);
    let token = admin(&["token", "create", "alice"]);
    let start = || start(&database);
    signed::signed_publish_story(&start, &token, tmp.path());
}

#[test]
fn downloads_are_counted_exactly_under_load_and_across_a_restart_on_postgres() {
    let database = fresh_database();
    let tmp = tempfile::tempdir().unwrap();
    admin(&database, &["user", "add", "alice"]);
    let token = admin(&database, &["token", "create", "alice"]);
    let start = || start(&database);
    downloads::download_count_story(&start, &token, tmp.path());
}

#[test]
fn healthz_answers_503_when_the_database_is_gone() {
    let database = fresh_database();
    let server = start(&database);
    let healthz = || {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let mut response = agent.get(format!("{}/healthz", server.url)).call().unwrap();
        let status = response.status().as_u16();
        (status, response.body_mut().read_to_string().unwrap())
    };
    assert_eq!(healthz(), (200, "ok\n".to_owned()));
    let name = database.rsplit('/').next().unwrap();
    let mut admin = postgres::Client::connect(
        &std::env::var("SKILL_TEST_POSTGRES").unwrap(),
        postgres::NoTls,
    )
    .unwrap();
    admin
        .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .unwrap();
    let started = std::time::Instant::now();
    let (status, body) = healthz();
    assert_eq!(status, 503, "{body}");
    assert!(body.starts_with("The store does not answer: "), "{body}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(8),
        "a probe waits at most a few seconds"
    );
}

#[test]
fn an_unreachable_database_is_a_clear_error() {
    let (code, stdout, stderr) = run(skill().args([
        "registry",
        "user",
        "add",
        "alice",
        "--database",
        "postgres://nobody:nothing@127.0.0.1:1/none",
    ]));
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.to_lowercase().contains("connect"), "{stderr}");
}

#[test]
fn a_ticket_from_one_server_is_used_through_another() {
    let database = fresh_database();
    let admin = |args: &[&str]| admin(&database, args);
    admin(&["user", "add", "alice"]);
    let token = admin(&["token", "create", "alice"]);
    let (a, b) = (start(&database), start(&database));
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let post = |url: &str, body: Vec<u8>| {
        let mut response = agent
            .post(url)
            .header("Authorization", &format!("Bearer {token}"))
            .send(body)
            .unwrap();
        let status = response.status().as_u16();
        (status, response.body_mut().read_to_string().unwrap())
    };
    let content =
        "---\nname: roaming\ndescription: Travels between servers. Use when testing.\n---\n";
    let sha = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(content.as_bytes()));
    let meta = serde_json::json!({"path": "SKILL.md", "size": content.len(), "sha256": sha});
    let (status, body) = post(
        &format!("{}/api/v1/skills/-/upload-url", a.url),
        meta.to_string().into_bytes(),
    );
    assert_eq!(status, 200, "{body}");
    let ticket: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = ticket["uploadTicket"].as_str().unwrap();
    let (status, body) = post(
        &format!("{}/api/v1/skills/-/upload/{id}", b.url),
        content.as_bytes().to_vec(),
    );
    assert_eq!(status, 200, "uploaded through the other server: {body}");
    let payload = serde_json::json!({"slug": "roaming", "displayName": "Roaming", "version": "1.0.0",
        "acceptLicenseTerms": true, "files": [{"path": "SKILL.md", "size": content.len(), "sha256": sha,
        "storageId": id, "uploadTicket": id}]});
    let (status, body) = post(
        &format!("{}/api/v1/skills", a.url),
        payload.to_string().into_bytes(),
    );
    assert_eq!(status, 200, "published through the first: {body}");
    let (status, body) = post(
        &format!("{}/api/v1/skills", b.url),
        payload.to_string().into_bytes(),
    );
    assert_eq!(
        (status, body.as_str()),
        (400, "Skill upload tickets cannot be reused")
    );
}
