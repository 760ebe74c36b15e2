//! The scale-out path: two `skill registry serve --database postgres://…` processes sharing one
//! PostgreSQL database. A skill published through one is found, described and installed through
//! the other, and a version published through one conflicts when pushed through the other; and
//! the quarantine of a risky version, reviewed through the store (`scenarios/quarantine.rs`).
//! `bash .ci/run` starts PostgreSQL from Debian's packages and names it in `SKILL_TEST_POSTGRES`.

use crate::common;
use common::needs::{Need, lacks};

use crate::scenarios::quarantine as scenario;

use crate::scenarios::signed;

use crate::scenarios::downloads;

use common::postgres::TestDatabase;
use common::{Registry, run, skill, write_skill};

/// A fresh, empty database on the test server, dropped when the test ends.
fn fresh_database() -> TestDatabase {
    TestDatabase::create("skill_it")
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
    if lacks(&[Need::Postgres]) {
        return;
    }
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
    if lacks(&[Need::Postgres]) {
        return;
    }
    let database = fresh_database();
    let tmp = tempfile::tempdir().unwrap();
    let start = || start(&database);
    scenario::quarantine_story(&["--database", &database], &start, tmp.path());
    let store = skill_registry::store::PostgresStore::open(&database).unwrap();
    let log = skill_registry::store::Store::audit_log(&store, Some("demo")).unwrap();
    let actions: Vec<&str> = log.iter().map(|l| l.action.as_str()).collect();
    assert_eq!(actions, ["quarantine", "approve", "quarantine", "reject"]);
}

#[test]
fn a_signed_publish_is_served_and_checked_at_install_on_postgres() {
    if lacks(&[Need::Postgres, Need::Minisign]) {
        return;
    }
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
    if lacks(&[Need::Postgres]) {
        return;
    }
    let database = fresh_database();
    let tmp = tempfile::tempdir().unwrap();
    admin(&database, &["user", "add", "alice"]);
    let token = admin(&database, &["token", "create", "alice"]);
    let start = || start(&database);
    downloads::download_count_story(&start, &token, tmp.path());
}

#[test]
fn healthz_answers_503_when_the_database_is_gone() {
    if lacks(&[Need::Postgres]) {
        return;
    }
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
    let name = database.name();
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
    if lacks(&[Need::Postgres]) {
        return;
    }
    let add_user = |database: &str| {
        run(skill().args(["registry", "user", "add", "alice", "--database", database]))
    };
    let (code, stdout, stderr) = add_user("postgres://nobody:nothing@127.0.0.1:1/none");
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.starts_with("error: ") && stderr.contains("Connection refused"),
        "{stderr}"
    );
    // A server that answers but refuses the user: the server's own reason, naming the user.
    let server = std::env::var("SKILL_TEST_POSTGRES").unwrap();
    let (_, rest) = server.split_once('@').expect("a URL with user@host");
    let (host, _) = rest.split_once('/').unwrap_or((rest, ""));
    let (code, stdout, stderr) = add_user(&format!("postgres://nobody:nothing@{host}/none"));
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains("\"nobody\""),
        "{stderr}"
    );
}

#[test]
fn a_ticket_from_one_server_is_used_through_another() {
    if lacks(&[Need::Postgres]) {
        return;
    }
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

/// The S3-compatible server `bash .ci/run` starts (Garage from crates.io): a bucket's location
/// (`SKILL_TEST_S3`, as `--blobs` takes it) and a key pair allowed to read and write it.
struct ObjectStore {
    location: String,
    key: String,
    secret: String,
}

impl ObjectStore {
    /// The test's object store, or `None` with one line saying why the test is skipped.
    fn from_env(test: &str) -> Option<ObjectStore> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        match (
            var("SKILL_TEST_S3"),
            var("SKILL_TEST_S3_KEY_ID"),
            var("SKILL_TEST_S3_SECRET"),
        ) {
            (Some(location), Some(key), Some(secret)) => Some(ObjectStore {
                location,
                key,
                secret,
            }),
            _ => {
                assert!(
                    lacks(&[Need::S3]),
                    "{test}: SKILL_TEST_S3 and its keys are half set"
                );
                None
            }
        }
    }

    /// A server on `database` keeping file contents in this store's bucket.
    fn serve(&self, database: &str) -> Registry {
        self.serve_at(database, &self.location)
    }

    fn serve_at(&self, database: &str, location: &str) -> Registry {
        Registry::serve_with(
            &["--database", database, "--blobs", location],
            &[
                ("AWS_ACCESS_KEY_ID", &self.key),
                ("AWS_SECRET_ACCESS_KEY", &self.secret),
            ],
        )
    }

    /// The object named by `sha256` as the bucket holds it, read with a signed request of the
    /// test's own, not through `skill`.
    fn object(&self, sha256: &str) -> Option<Vec<u8>> {
        use rusty_s3::S3Action;
        let url = reqwest::Url::parse(&self.location).unwrap();
        let query = |key: &str| {
            url.query_pairs()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.into_owned())
        };
        let bucket = rusty_s3::Bucket::new(
            query("endpoint").unwrap().parse().unwrap(),
            rusty_s3::UrlStyle::Path,
            url.host_str().unwrap().to_owned(),
            query("region").unwrap_or_else(|| "us-east-1".into()),
        )
        .unwrap();
        let credentials = rusty_s3::Credentials::new(&self.key, &self.secret);
        let key = format!("blobs/{}/{sha256}", &sha256[..2]);
        let signed = bucket
            .get_object(Some(&credentials), &key)
            .sign(std::time::Duration::from_secs(60));
        match ureq::get(signed.as_str()).call() {
            Ok(mut reply) => Some(reply.body_mut().read_to_vec().unwrap()),
            Err(ureq::Error::StatusCode(404)) => None,
            Err(e) => panic!("reading {key} from the bucket: {e}"),
        }
    }
}

/// Runs `skill ARGS --registry URL` with `token` from a folder of its own; code, stdout, stderr.
fn client(dir: &std::path::Path, token: &str, url: &str, args: &[&str]) -> (i32, String, String) {
    run(skill()
        .current_dir(dir)
        .env("SKILL_CONFIG_DIR", dir.join("config"))
        .env("SKILL_CACHE_DIR", dir.join("cache"))
        .env("SKILL_TOKEN", token)
        .env_remove("SKILL_REGISTRY")
        .env_remove("CLAWHUB_REGISTRY")
        .env_remove("CLAWHUB_TOKEN")
        .args(args)
        .args(["--registry", url]))
}

/// A skill whose SKILL.md no other test writes, so that its blob is this test's alone.
fn unique_skill(parent: &std::path::Path, slug: &str, words: &str) -> (std::path::PathBuf, String) {
    let nonce = format!(
        "{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    let text = format!(
        "---\nname: {slug}\ndescription: {words}. Use when the user asks for it.\n---\n\nRun it ({nonce}).\n"
    );
    let dir = write_skill(parent, slug, &text);
    (dir, skill_model::fingerprint::sha256_hex(text.as_bytes()))
}

#[test]
fn two_servers_share_one_database_and_one_bucket_which_holds_the_files() {
    if lacks(&[Need::Postgres]) {
        return;
    }
    let Some(s3) = ObjectStore::from_env("two_servers_share_one_database_and_one_bucket") else {
        return;
    };
    let database = fresh_database();
    let tmp = tempfile::tempdir().unwrap();
    admin(&database, &["user", "add", "alice"]);
    let token = admin(&database, &["token", "create", "alice"]);
    let (a, b) = (s3.serve(&database), s3.serve(&database));
    let (_, sha) = unique_skill(
        &tmp.path().join("src"),
        "pdf-tools",
        "Extract tables from PDF files",
    );
    assert_eq!(
        s3.object(&sha),
        None,
        "the bucket has the blob before the publish"
    );

    let (code, stdout, stderr) = client(tmp.path(), &token, &a.url, &["publish", "src/pdf-tools"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("Published pdf-tools@1.0.0"), "{stdout}");
    // The bytes are in the bucket; the database row keeps none of them.
    let original = std::fs::read(tmp.path().join("src/pdf-tools/SKILL.md")).unwrap();
    assert_eq!(s3.object(&sha).as_deref(), Some(original.as_slice()));
    let mut db = postgres::Client::connect(&database, postgres::NoTls).unwrap();
    let kept: i32 = db
        .query_one("SELECT length(data) FROM blobs WHERE sha256 = $1", &[&sha])
        .unwrap()
        .get(0);
    assert_eq!(kept, 0);

    // The other server answers with it at once.
    let (code, stdout, stderr) = client(
        tmp.path(),
        &token,
        &b.url,
        &["install", "pdf-tools", "--dir", "skills"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("Installed pdf-tools"), "{stdout}");
    assert_eq!(
        std::fs::read(tmp.path().join("skills/pdf-tools/SKILL.md")).unwrap(),
        original
    );
    let health = ureq::get(&format!("{}/healthz", b.url)).call().unwrap();
    assert_eq!(health.status(), 200);
}

#[test]
fn racing_publishes_of_one_version_through_two_servers_have_one_winner() {
    if lacks(&[Need::Postgres]) {
        return;
    }
    let Some(s3) = ObjectStore::from_env("racing_publishes_of_one_version") else {
        return;
    };
    let database = fresh_database();
    let tmp = tempfile::tempdir().unwrap();
    admin(&database, &["user", "add", "alice"]);
    let token = admin(&database, &["token", "create", "alice"]);
    let (a, b) = (s3.serve(&database), s3.serve(&database));
    for round in 0..4 {
        let version = format!("1.0.{round}");
        let sources: Vec<(String, std::path::PathBuf)> = [&a.url, &b.url]
            .iter()
            .enumerate()
            .map(|(i, url)| {
                let parent = tmp.path().join(format!("src-{round}-{i}"));
                unique_skill(&parent, "race", &format!("Race number {i}"));
                ((*url).clone(), parent.join("race"))
            })
            .collect();
        let outcomes: Vec<(i32, String, String)> = std::thread::scope(|scope| {
            let handles: Vec<_> = sources
                .iter()
                .map(|(url, dir)| {
                    let (token, version, home) = (&token, &version, tmp.path());
                    scope.spawn(move || {
                        let dir = dir.to_str().unwrap();
                        client(home, token, url, &["publish", dir, "--version", version])
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let winners: Vec<usize> = (0..2).filter(|&i| outcomes[i].0 == 0).collect();
        assert_eq!(winners.len(), 1, "round {round}: {outcomes:?}");
        let loser = &outcomes[1 - winners[0]];
        assert!(loser.2.contains("(409)"), "round {round}: {loser:?}");
        // Both servers serve the winner's files.
        let expected = std::fs::read(sources[winners[0]].1.join("SKILL.md")).unwrap();
        for url in [&a.url, &b.url] {
            let file = ureq::get(&format!(
                "{url}/api/v1/skills/race/file?path=SKILL.md&version={version}"
            ))
            .call()
            .unwrap()
            .body_mut()
            .read_to_vec()
            .unwrap();
            assert_eq!(file, expected, "round {round} from {url}");
        }
    }
}

#[test]
fn a_publish_the_bucket_refuses_stores_nothing_and_health_says_so() {
    if lacks(&[Need::Postgres]) {
        return;
    }
    let Some(s3) = ObjectStore::from_env("a_publish_the_bucket_refuses") else {
        return;
    };
    let database = fresh_database();
    let tmp = tempfile::tempdir().unwrap();
    admin(&database, &["user", "add", "alice"]);
    let token = admin(&database, &["token", "create", "alice"]);
    // Nothing listens on port 9: the object store is down.
    let down = s3.serve_at(&database, "s3://skill-blobs?endpoint=http://127.0.0.1:9");
    unique_skill(
        &tmp.path().join("src"),
        "pdf-tools",
        "Extract tables from PDF files",
    );
    let (code, _, stderr) = client(tmp.path(), &token, &down.url, &["publish", "src/pdf-tools"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("(500)") && stderr.contains("blob store error"),
        "{stderr}"
    );
    assert!(
        !stderr.contains(&s3.key) && !stderr.contains("X-Amz"),
        "{stderr}"
    );
    let health = ureq::get(&format!("{}/healthz", down.url))
        .config()
        .http_status_as_error(false)
        .build()
        .call()
        .unwrap();
    assert_eq!(health.status(), 503);
    let said = health.into_body().read_to_string().unwrap();
    assert!(
        said.contains("blob store error") && !said.contains(&s3.key),
        "{said}"
    );
    // Nothing was half-written: a working server sees no such skill, and the version is free.
    let up = s3.serve(&database);
    let (code, _, _) = client(tmp.path(), &token, &up.url, &["info", "pdf-tools"]);
    assert_eq!(code, 2);
    let (code, stdout, stderr) = client(tmp.path(), &token, &up.url, &["publish", "src/pdf-tools"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("Published pdf-tools@1.0.0"), "{stdout}");
    // A publish the registry would refuse is refused before the bucket is asked: a 409 while
    // the bucket is down, not a 500.
    let (code, _, stderr) = client(
        tmp.path(),
        &token,
        &down.url,
        &["publish", "src/pdf-tools", "--version", "1.0.0"],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("(409)"), "{stderr}");
    // A server started without --blobs on that database refuses to pass off an empty file.
    let without = start(&database);
    let reply = ureq::get(&format!(
        "{}/api/v1/skills/pdf-tools/file?path=SKILL.md",
        without.url
    ))
    .call();
    assert!(
        matches!(reply, Err(ureq::Error::StatusCode(500))),
        "{reply:?}"
    );
}

#[test]
fn an_older_database_is_migrated_once_and_a_newer_one_refused_on_postgres() {
    if lacks(&[Need::Postgres]) {
        return;
    }
    let database = fresh_database();
    let mut old = postgres::Client::connect(&database, postgres::NoTls).unwrap();
    // The tables as releases before schema versions made them: migration 1 alone, no version.
    old.batch_execute(include_str!(
        "../crates/skill-registry/src/store/migrations/postgres/0001_schema.sql"
    ))
    .unwrap();
    old.batch_execute("INSERT INTO users (handle, created_at) VALUES ('alice', 0)")
        .unwrap();
    let mut version = || -> i32 {
        old.query_one("SELECT version FROM schema_version", &[])
            .unwrap()
            .get(0)
    };
    // Scoped tokens and admins came after the first release: using them proves the migration.
    admin(&database, &["token", "create", "alice", "--scope", "read"]);
    admin(&database, &["user", "admin", "alice"]);
    let migrated = version();
    assert!(migrated >= 6, "the version is recorded: {migrated}");
    assert!(admin(&database, &["token", "list", "alice"]).contains("read"));
    assert_eq!(version(), migrated);

    let mut newer = postgres::Client::connect(&database, postgres::NoTls).unwrap();
    newer
        .execute("UPDATE schema_version SET version = $1", &[&(migrated + 1)])
        .unwrap();
    let refused = run(skill()
        .args(["registry", "token", "list", "alice", "--database"])
        .arg(&*database));
    common::assert_schema_too_new(refused, migrated);
}
