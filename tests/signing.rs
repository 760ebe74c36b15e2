//! `skill keygen`, `skill pack --sign` and `skill install --trust`: minisign's formats both
//! ways (Debian's `minisign` CLI, installed by `.ci/run`, verifies what we sign and signs what
//! we accept), bad and foreign signatures refused, and unsigned archives refused on request.

use crate::common;
use common::needs::{Need, lacks};

use crate::scenarios::signed;

use common::{Registry, registry_admin, run, skill, write_skill};
use std::path::Path;
use std::process::Command;

const SKILL_MD: &str = "---\nname: demo\ndescription: Demonstrates signing. Use when testing.\nmetadata:\n  version: 1.2.0\n---\n\nInstructions.\n";

fn minisign() -> Command {
    let found = Command::new("minisign").arg("-v").output();
    assert!(
        found.is_ok_and(|o| o.status.success()),
        "minisign is missing: run .ci/run, which installs Debian's minisign"
    );
    Command::new("minisign")
}

fn cli(cwd: &Path, args: &[&str]) -> (i32, String, String) {
    run(skill()
        .current_dir(cwd)
        .env_remove("SKILL_SIGNING_PASSWORD")
        .args(args))
}

#[test]
fn keygen_writes_minisign_keys_and_never_overwrites() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = cli(tmp.path(), &["keygen", "alice", "--no-password"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("key id "), "{stdout}");
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(tmp.path().join("alice.key"))
            .unwrap()
            .permissions(),
    );
    assert_eq!(mode & 0o777, 0o600);
    let public = std::fs::read_to_string(tmp.path().join("alice.pub")).unwrap();
    assert!(
        public.starts_with("untrusted comment: minisign public key"),
        "{public}"
    );
    let before = std::fs::read(tmp.path().join("alice.key")).unwrap();
    let (code, _, stderr) = cli(tmp.path(), &["keygen", "alice", "--no-password"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("alice.key exists; keygen never overwrites a key"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(tmp.path().join("alice.key")).unwrap(), before);
}

#[test]
fn minisign_verifies_what_pack_signs_with_plain_and_encrypted_keys() {
    if lacks(&[Need::Minisign]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "demo", SKILL_MD);
    assert_eq!(cli(tmp.path(), &["keygen", "ci", "--no-password"]).0, 0);
    let (code, stdout, stderr) = cli(tmp.path(), &["pack", "demo", "--sign", "ci.key"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("signature    demo.skill.minisig"),
        "{stdout}"
    );
    let out = minisign()
        .current_dir(tmp.path())
        .args(["-Vm", "demo.skill", "-p", "ci.pub"])
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    let sha = stdout
        .lines()
        .find_map(|l| l.strip_prefix("sha256       "))
        .unwrap();
    assert!(
        said.contains(&format!(
            "Trusted comment: skill:demo version:1.2.0 sha256:{sha}"
        )),
        "{said}"
    );

    // An encrypted key, its password from the environment.
    std::fs::remove_file(tmp.path().join("demo.skill")).unwrap();
    let with_password = |args: &[&str]| {
        run(skill()
            .current_dir(tmp.path())
            .env("SKILL_SIGNING_PASSWORD", "correct horse")
            .args(args))
    };
    assert_eq!(with_password(&["keygen", "alice"]).0, 0);
    let key = std::fs::read_to_string(tmp.path().join("alice.key")).unwrap();
    assert!(key.contains("skill secret key"), "{key}");
    let (code, _, stderr) = with_password(&["pack", "demo", "--sign", "alice.key"]);
    assert_eq!(code, 0, "{stderr}");
    let out = minisign()
        .current_dir(tmp.path())
        .args(["-Vm", "demo.skill", "-p", "alice.pub"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The wrong password signs nothing.
    std::fs::remove_file(tmp.path().join("demo.skill.minisig")).unwrap();
    let (code, _, stderr) = run(skill()
        .current_dir(tmp.path())
        .env("SKILL_SIGNING_PASSWORD", "wrong")
        .args(["pack", "demo", "--sign", "alice.key"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("alice.key"), "{stderr}");
    assert!(!tmp.path().join("demo.skill.minisig").exists());
}

#[test]
fn install_trusts_minisign_signatures_and_refuses_bad_foreign_and_missing_ones() {
    if lacks(&[Need::Minisign]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "demo", SKILL_MD);
    assert_eq!(cli(tmp.path(), &["pack", "demo"]).0, 0);
    // A key pair and a signature made by Debian's minisign itself.
    let status = minisign()
        .current_dir(tmp.path())
        .args(["-G", "-W", "-p", "upstream.pub", "-s", "upstream.key"])
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let sign = |comment: &str| {
        let status = minisign()
            .current_dir(tmp.path())
            .args([
                "-S",
                "-s",
                "upstream.key",
                "-m",
                "demo.skill",
                "-t",
                comment,
            ])
            .output()
            .unwrap();
        assert!(
            status.status.success(),
            "{}",
            String::from_utf8_lossy(&status.stderr)
        );
    };
    // A signature binds the skill, its version and the archive's bytes: one whose trusted
    // comment names another version (or minisign's default, naming none) vouches for nothing
    // here.
    let sha = skill_model::fingerprint::sha256_hex(
        &std::fs::read(tmp.path().join("demo.skill")).unwrap(),
    );
    for comment in [
        format!("skill:demo version:2.0.0 sha256:{sha}"),
        "file:demo.skill hashed".to_owned(),
    ] {
        sign(&comment);
        let (code, _, stderr) = cli(
            tmp.path(),
            &[
                "install",
                "demo.skill",
                "--trust",
                "upstream.pub",
                "--dir",
                "a",
            ],
        );
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(&format!(
                "its trusted comment is \"{comment}\", expected \"skill:demo version:1.2.0 sha256:{sha}\""
            )),
            "{stderr}"
        );
        assert!(!tmp.path().join("a").exists());
    }
    sign(&format!("skill:demo version:1.2.0 sha256:{sha}"));

    let (code, _, stderr) = cli(
        tmp.path(),
        &[
            "install",
            "demo.skill",
            "--trust",
            "upstream.pub",
            "--dir",
            "a",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("note: signed by key "), "{stderr}");
    assert!(tmp.path().join("a/demo/SKILL.md").is_file());

    // Another trusted key: the signature is not by it.
    assert_eq!(cli(tmp.path(), &["keygen", "other", "--no-password"]).0, 0);
    let (code, _, stderr) = cli(
        tmp.path(),
        &[
            "install",
            "demo.skill",
            "--trust",
            "other.pub",
            "--dir",
            "b",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains(
            "which is not among the trusted keys\nhint: trust the key with --trust KEY.pub"
        ),
        "{stderr}"
    );
    assert!(!tmp.path().join("b").exists());

    // The archive changed after signing.
    let mut bytes = std::fs::read(tmp.path().join("demo.skill")).unwrap();
    bytes.extend_from_slice(b"appended");
    std::fs::write(tmp.path().join("tampered.skill"), &bytes).unwrap();
    std::fs::copy(
        tmp.path().join("demo.skill.minisig"),
        tmp.path().join("tampered.skill.minisig"),
    )
    .unwrap();
    let (code, _, stderr) = cli(
        tmp.path(),
        &[
            "install",
            "tampered.skill",
            "--trust",
            "upstream.pub",
            "--dir",
            "c",
        ],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("does not match"), "{stderr}");
    assert!(!tmp.path().join("c").exists());

    // Unsigned, when a signature is required.
    std::fs::copy(
        tmp.path().join("demo.skill"),
        tmp.path().join("plain.skill"),
    )
    .unwrap();
    let (code, _, stderr) = cli(
        tmp.path(),
        &[
            "install",
            "plain.skill",
            "--require-signature",
            "--trust",
            "upstream.pub",
            "--dir",
            "d",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("not signed, and a signature is required"),
        "{stderr}"
    );
    assert!(!tmp.path().join("d").exists());
    // Without --require-signature an unsigned archive installs as before.
    assert_eq!(
        cli(tmp.path(), &["install", "plain.skill", "--dir", "e"]).0,
        0
    );

    // A folder carries no signature: refused under the same policy, installed without it.
    let (code, _, stderr) = cli(
        tmp.path(),
        &["install", "./e/demo", "--require-signature", "--dir", "f"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("e/demo: not signed, and a signature is required"),
        "{stderr}"
    );
    assert!(!tmp.path().join("f").exists());
    assert_eq!(cli(tmp.path(), &["install", "./e/demo", "--dir", "f"]).0, 0);
}

#[test]
fn a_signed_publish_is_served_verified_by_minisign_and_checked_at_install_on_sqlite() {
    if lacks(&[Need::Minisign]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    registry_admin(&data, &["user", "add", "alice"]);
    let token = registry_admin(&data, &["token", "create", "alice"]);
    let start = || Registry::serve(&[std::ffi::OsStr::new("--data"), data.as_os_str()]);
    signed::signed_publish_story(&start, &token, tmp.path());
}
