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
        "error: no user @nobody; create it with `skill registry user add nobody`\n"
    );
}
