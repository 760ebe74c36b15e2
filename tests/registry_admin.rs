//! Registry administration from the command line: publishers and tokens.

use crate::common;

use common::{run, skill};

#[test]
fn users_and_tokens() {
    let tmp = tempfile::tempdir().unwrap();
    let admin = |args: &[&str]| run(skill().current_dir(tmp.path()).arg("registry").args(args));
    let (code, stdout, _) = admin(&["user", "add", "Alice", "--name", "Alice Martin"]);
    assert_eq!((code, stdout.as_str()), (0, "Created publisher @alice\n"));
    let (code, _, stderr) = admin(&["user", "add", "alice"]);
    assert_eq!(
        (code, stderr.as_str()),
        (2, "error: user @alice already exists\n")
    );
    let (code, _, stderr) = admin(&["user", "add", "bad handle!"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("invalid handle"), "{stderr}");
    let (code, token, _) = admin(&["token", "create", "alice", "--label", "ci"]);
    assert_eq!(code, 0);
    let token = token.trim_end();
    assert!(
        token.starts_with("skl_") && !token.contains(char::is_whitespace),
        "the token alone on stdout: {token:?}"
    );
    let db = std::fs::read(tmp.path().join("registry-data/registry.sqlite3")).unwrap();
    let wal =
        std::fs::read(tmp.path().join("registry-data/registry.sqlite3-wal")).unwrap_or_default();
    assert!(
        ![db, wal]
            .iter()
            .any(|bytes| bytes.windows(token.len()).any(|w| w == token.as_bytes())),
        "only the hash is stored"
    );
    let (code, _, stderr) = admin(&["token", "create", "nobody", "--data", "elsewhere"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: no user @nobody\nhint: create it with `skill registry user add nobody`\n"
    );
    let (code, _, stderr) = admin(&["token", "revoke", "alice", "999"]);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "error: @alice has no token 999\nhint: `skill registry token list alice` lists them\n"
        )
    );
}

/// The tables as releases before schema versions made them (migration 1 alone, no version).
const FIRST_SCHEMA: &str =
    include_str!("../crates/skill-registry/src/store/migrations/sqlite/0001_schema.sql");

#[test]
fn an_older_database_is_migrated_once_and_a_newer_one_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("registry-data");
    std::fs::create_dir_all(&data).unwrap();
    let path = data.join("registry.sqlite3");
    let old = rusqlite::Connection::open(&path).unwrap();
    old.execute_batch(FIRST_SCHEMA).unwrap();
    old.execute_batch("INSERT INTO users (handle, created_at) VALUES ('alice', 0)")
        .unwrap();
    drop(old);
    let admin = |args: &[&str]| run(skill().current_dir(tmp.path()).arg("registry").args(args));
    let version = || -> u32 {
        rusqlite::Connection::open(&path)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap()
    };

    // Tokens and admins came after the first release: using them proves the columns were added.
    let (code, _, stderr) = admin(&["token", "create", "alice", "--scope", "read"]);
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = admin(&["user", "admin", "alice"]);
    assert_eq!((code, stderr.as_str()), (0, ""), "{stdout}");
    let migrated = version();
    assert!(migrated >= 6, "the version is recorded: {migrated}");
    // Opening it again runs nothing: the recorded version stays, and so does the data.
    let (code, stdout, _) = admin(&["token", "list", "alice"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("read"), "{stdout}");
    assert_eq!(version(), migrated);

    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(&format!("PRAGMA user_version = {}", migrated + 1))
        .unwrap();
    common::assert_schema_too_new(admin(&["token", "list", "alice"]), migrated);
}

#[test]
fn a_database_the_last_unversioned_release_brought_up_to_date_opens_as_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("registry-data");
    std::fs::create_dir_all(&data).unwrap();
    let path = data.join("registry.sqlite3");
    // That release added every column on each start, and recorded no version.
    let old = rusqlite::Connection::open(&path).unwrap();
    for sql in [
        FIRST_SCHEMA,
        include_str!("../crates/skill-registry/src/store/migrations/sqlite/0002_moderation.sql"),
        include_str!("../crates/skill-registry/src/store/migrations/sqlite/0003_signature.sql"),
        include_str!("../crates/skill-registry/src/store/migrations/sqlite/0004_token_scopes.sql"),
        include_str!("../crates/skill-registry/src/store/migrations/sqlite/0005_admin.sql"),
        include_str!("../crates/skill-registry/src/store/migrations/sqlite/0006_audit_log.sql"),
    ] {
        old.execute_batch(sql).unwrap();
    }
    old.execute_batch("INSERT INTO users (handle, created_at, admin) VALUES ('alice', 0, 1)")
        .unwrap();
    drop(old);
    let (code, stdout, stderr) = run(skill()
        .current_dir(tmp.path())
        .args(["registry", "user", "admin", "alice", "--revoke"]));
    assert_eq!((code, stderr.as_str()), (0, ""), "{stdout}");
}
