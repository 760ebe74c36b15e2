//! `skill install` / `uninstall`, and a suite of hostile archives, each built here, each refused
//! with a clear error, with nothing written and nothing left behind.

use crate::common;

use common::{run, skill, write_skill};
use std::io::Write;
use std::path::Path;

const SKILL_MD: &str = "---\nname: demo\ndescription: Demonstrates installing. Use when testing.\n---\n\nInstructions.\n";

fn install(cwd: &Path, args: &[&str]) -> (i32, String, String) {
    run(skill().current_dir(cwd).arg("install").args(args))
}

/// Every name in a folder, recursively, dotfiles included (to prove nothing was left).
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries {
            let e = e.unwrap();
            out.push(e.file_name().to_string_lossy().into_owned());
            for inner in tree(&e.path()) {
                out.push(format!("{}/{inner}", e.file_name().to_string_lossy()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn installs_from_archive_and_folder_and_replaces_only_with_force() {
    let tmp = tempfile::tempdir().unwrap();
    let src = write_skill(&tmp.path().join("src"), "demo", SKILL_MD);
    std::fs::create_dir(src.join("scripts")).unwrap();
    std::fs::write(src.join("scripts/run.sh"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(
        src.join("scripts/run.sh"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let (code, _, _) = run(skill().current_dir(tmp.path()).args(["pack", "src/demo"]));
    assert_eq!(code, 0);
    let (code, stdout, _) = install(tmp.path(), &["demo.skill"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "Installed demo in skills/demo (2 files)\n")
    );
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(tmp.path().join("skills/demo/scripts/run.sh"))
            .unwrap()
            .permissions(),
    );
    assert_eq!(mode & 0o777, 0o755);
    std::fs::write(tmp.path().join("skills/demo/local-edit.md"), "mine").unwrap();
    let (code, _, stderr) = install(tmp.path(), &["demo.skill"]);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "error: Already installed: skills/demo\nhint: pass --force to replace it\n"
        )
    );
    assert!(
        tmp.path().join("skills/demo/local-edit.md").exists(),
        "untouched without --force"
    );
    let (code, stdout, _) = install(tmp.path(), &["src/demo", "--force"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "Replaced demo in skills/demo (2 files)\n")
    );
    assert!(!tmp.path().join("skills/demo/local-edit.md").exists());
    assert_eq!(
        tree(&tmp.path().join("skills")),
        [
            "demo",
            "demo/SKILL.md",
            "demo/scripts",
            "demo/scripts/run.sh"
        ]
    );
    let (code, stdout, _) = run(skill().current_dir(tmp.path()).args(["uninstall", "demo"]));
    assert_eq!((code, stdout.as_str()), (0, "Removed skills/demo\n"));
    assert_eq!(tree(&tmp.path().join("skills")), Vec::<String>::new());
    let (code, _, stderr) = run(skill().current_dir(tmp.path()).args(["uninstall", "demo"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("is not an installed skill"), "{stderr}");
}

#[test]
fn lint_findings_are_shown_after_install() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        &tmp.path().join("src"),
        "demo",
        "---\nname: demo\ndescription: Runs jq. Use when asked.\nmetadata: {\"openclaw\": {\"emoji\": \"x\"}}\n---\n\n```bash\njq . x.json\n```\n",
    );
    let (code, _, stderr) = install(tmp.path(), &["src/demo", "--dir", "agent/skills"]);
    assert_eq!(code, 0);
    assert!(
        stderr.contains(
            "agent/skills/demo/SKILL.md:8:1: SK509 [warning] 'jq' is run but not declared"
        ),
        "{stderr}"
    );
}

/// A zip entry for the raw writer: name bytes, data, unix mode, general-purpose flags.
struct Raw<'a> {
    name: &'a [u8],
    data: &'a [u8],
    mode: u32,
    flags: u16,
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for byte in data {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A stored (uncompressed) zip written byte by byte, for entries the zip crate will not write.
fn raw_zip(entries: &[Raw]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for e in entries {
        let offset = out.len() as u32;
        let crc = crc32(e.data);
        let size = e.data.len() as u32;
        let flags = e.flags
            | if std::str::from_utf8(e.name).is_ok() {
                0x0800
            } else {
                0
            };
        out.extend(0x0403_4b50u32.to_le_bytes());
        out.extend(20u16.to_le_bytes());
        out.extend(flags.to_le_bytes());
        out.extend([0u8; 6]); // method, time, date
        out.extend(crc.to_le_bytes());
        out.extend(size.to_le_bytes());
        out.extend(size.to_le_bytes());
        out.extend((e.name.len() as u16).to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(e.name);
        out.extend(e.data);
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend((3u16 << 8 | 20).to_le_bytes()); // made by Unix
        central.extend(20u16.to_le_bytes());
        central.extend(flags.to_le_bytes());
        central.extend([0u8; 6]);
        central.extend(crc.to_le_bytes());
        central.extend(size.to_le_bytes());
        central.extend(size.to_le_bytes());
        central.extend((e.name.len() as u16).to_le_bytes());
        central.extend([0u8; 8]); // extra, comment, disk, internal attributes
        central.extend((e.mode << 16).to_le_bytes());
        central.extend(offset.to_le_bytes());
        central.extend(e.name);
    }
    let cd_offset = out.len() as u32;
    out.extend(&central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(cd_offset.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

fn file<'a>(name: &'a str, data: &'a str) -> Raw<'a> {
    Raw {
        name: name.as_bytes(),
        data: data.as_bytes(),
        mode: 0o100_644,
        flags: 0,
    }
}

/// A deflated zip from the zip crate: (name, data) pairs.
fn deflated(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in entries {
        zip.start_file(
            *name,
            zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated),
        )
        .unwrap();
        zip.write_all(data).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// Rewrites every uncompressed-size field (local and central headers) to `size`.
fn lie_about_size(mut zip: Vec<u8>, size: u32) -> Vec<u8> {
    for i in 0..zip.len().saturating_sub(30) {
        match u32::from_le_bytes(zip[i..i + 4].try_into().unwrap()) {
            0x0403_4b50 => zip[i + 22..i + 26].copy_from_slice(&size.to_le_bytes()),
            0x0201_4b50 => zip[i + 24..i + 28].copy_from_slice(&size.to_le_bytes()),
            _ => {}
        }
    }
    zip
}

/// A stored zip whose last central-directory entry points at the local header of the one
/// before it: two names, one payload.
fn overlapping_zip() -> Vec<u8> {
    let mut zip = raw_zip(&[
        file("demo/SKILL.md", SKILL_MD),
        file("demo/a.md", "payload"),
        file("demo/b.md", "payload"),
    ]);
    let central: Vec<usize> = (0..zip.len() - 4)
        .filter(|&i| zip[i..i + 4] == 0x0201_4b50u32.to_le_bytes())
        .collect();
    let offset_of = |zip: &[u8], at: usize| zip[at + 42..at + 46].to_vec();
    let second = offset_of(&zip, central[1]);
    zip[central[2] + 42..central[2] + 46].copy_from_slice(&second);
    zip
}

/// `count` deflated entries of `size` zero bytes each under `demo/`, with a SKILL.md.
fn zeros_zip(count: usize, size: usize) -> Vec<u8> {
    let zeros = vec![0u8; size];
    let names: Vec<String> = (0..count).map(|i| format!("demo/z{i}.bin")).collect();
    let mut entries: Vec<(&str, &[u8])> = vec![("demo/SKILL.md", SKILL_MD.as_bytes())];
    entries.extend(names.iter().map(|n| (n.as_str(), zeros.as_slice())));
    deflated(&entries)
}

fn hostile_cases() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let md = SKILL_MD;
    let many: Vec<String> = (0..5001).map(|i| format!("demo/f{i}.txt")).collect();
    let mut many_entries = vec![file("demo/SKILL.md", md)];
    many_entries.extend(many.iter().map(|n| file(n, "x")));
    let zeros = vec![0u8; 9 * 1024 * 1024];
    let valid = deflated(&[
        ("demo/SKILL.md", md.as_bytes()),
        ("demo/references/guide.md", b"# Guide\n"),
    ]);
    let mut corrupt = valid.clone();
    let central = corrupt.len() - 22 - 60;
    corrupt[central..central + 8].copy_from_slice(b"garbage!");
    vec![
        (
            "traversal",
            raw_zip(&[file("demo/SKILL.md", md), file("demo/../../evil.txt", "x")]),
            "leaves the folder",
        ),
        (
            "absolute",
            raw_zip(&[file("demo/SKILL.md", md), file("/etc/evil", "x")]),
            "is an absolute path",
        ),
        (
            "drive letter",
            raw_zip(&[file("demo/SKILL.md", md), file("C:/evil", "x")]),
            "is an absolute path",
        ),
        (
            "backslash",
            raw_zip(&[file("demo/SKILL.md", md), file("demo\\..\\evil", "x")]),
            "contains a backslash",
        ),
        (
            "symlink entry",
            raw_zip(&[
                file("demo/SKILL.md", md),
                Raw {
                    name: b"demo/link",
                    data: b"/etc/passwd",
                    mode: 0o120_777,
                    flags: 0,
                },
            ]),
            "is a symbolic link",
        ),
        (
            "device entry",
            raw_zip(&[
                file("demo/SKILL.md", md),
                Raw {
                    name: b"demo/dev",
                    data: b"",
                    mode: 0o020_644,
                    flags: 0,
                },
            ]),
            "is not a regular file or folder",
        ),
        (
            "fifo entry",
            raw_zip(&[
                file("demo/SKILL.md", md),
                Raw {
                    name: b"demo/fifo",
                    data: b"",
                    mode: 0o010_644,
                    flags: 0,
                },
            ]),
            "is not a regular file or folder",
        ),
        (
            "duplicate",
            raw_zip(&[
                file("demo/SKILL.md", md),
                file("demo/a.md", "1"),
                file("demo/a.md", "2"),
            ]),
            "entry \"demo/a.md\" appears twice",
        ),
        (
            "case collision",
            raw_zip(&[
                file("demo/SKILL.md", md),
                file("demo/Read.md", "1"),
                file("demo/read.md", "2"),
            ]),
            "differ only in case",
        ),
        (
            "normalisation collision",
            raw_zip(&[
                file("demo/SKILL.md", md),
                file("demo/caf\u{e9}.md", "1"),
                file("demo/cafe\u{301}.md", "2"),
            ]),
            "different Unicode forms",
        ),
        (
            "NUL in name",
            raw_zip(&[file("demo/SKILL.md", md), file("demo/a\0.md", "1")]),
            "control character",
        ),
        (
            "control character",
            raw_zip(&[file("demo/SKILL.md", md), file("demo/a\x1b[31m.md", "1")]),
            "control character",
        ),
        (
            "non-UTF-8 name",
            raw_zip(&[
                file("demo/SKILL.md", md),
                Raw {
                    name: b"demo/\xff\xfe.md",
                    data: b"1",
                    mode: 0o100_644,
                    flags: 0,
                },
            ]),
            "is not UTF-8",
        ),
        (
            "too many entries",
            raw_zip(&many_entries),
            "entries; the limit is 5000",
        ),
        (
            "zip bomb",
            deflated(&[("demo/SKILL.md", md.as_bytes()), ("demo/zeros.bin", &zeros)]),
            "refused as a zip bomb",
        ),
        (
            "lying size header",
            lie_about_size(
                deflated(&[
                    ("demo/SKILL.md", md.as_bytes()),
                    ("demo/zeros.txt", &zeros[..1024 * 1024]),
                ]),
                100,
            ),
            "larger than its declared",
        ),
        (
            "encrypted entry",
            raw_zip(&[
                file("demo/SKILL.md", md),
                Raw {
                    name: b"demo/secret.md",
                    data: b"xx",
                    mode: 0o100_644,
                    flags: 1,
                },
            ]),
            "is encrypted",
        ),
        (
            "truncated",
            valid[..valid.len() / 2].to_vec(),
            "not a readable zip archive",
        ),
        ("corrupt", corrupt, "not a readable zip archive"),
        (
            "two SKILL.md side by side",
            raw_zip(&[file("a/SKILL.md", md), file("b/SKILL.md", md)]),
            "2 SKILL.md files side by side",
        ),
        (
            "no SKILL.md",
            raw_zip(&[file("demo/README.md", "x")]),
            "has no SKILL.md",
        ),
        (
            "SKILL.md too deep",
            raw_zip(&[file("a/b/SKILL.md", md)]),
            "must be at the root or under one top folder",
        ),
        (
            "overlapping entries",
            overlapping_zip(),
            "overlap in the archive",
        ),
        (
            "entries of exactly 1 MiB",
            zeros_zip(3, 1024 * 1024),
            "refused as a zip bomb",
        ),
        (
            "a bomb of small entries",
            zeros_zip(150, 512 * 1024),
            "\"the archive\" expands",
        ),
        (
            "trailing dot",
            raw_zip(&[file("demo/SKILL.md", md), file("demo/notes.", "1")]),
            "ending in a dot or a space",
        ),
        (
            "trailing space",
            raw_zip(&[file("demo/SKILL.md", md), file("demo/notes ", "1")]),
            "ending in a dot or a space",
        ),
        (
            "zero-width character",
            raw_zip(&[
                file("demo/SKILL.md", md),
                file("demo/read\u{200b}me.md", "1"),
            ]),
            "invisible or bidirectional-control",
        ),
        (
            "bidi override",
            raw_zip(&[
                file("demo/SKILL.md", md),
                file("demo/gpj.\u{202e}exe.md", "1"),
            ]),
            "invisible or bidirectional-control",
        ),
        (
            "Windows device name",
            raw_zip(&[file("demo/SKILL.md", md), file("demo/scripts/CON.txt", "1")]),
            "Windows reserves for devices",
        ),
        (
            "colon",
            raw_zip(&[file("demo/SKILL.md", md), file("demo/a:stream", "1")]),
            "contains ':'",
        ),
        (
            "leading hyphen",
            raw_zip(&[file("demo/SKILL.md", md), file("demo/-rf", "1")]),
            "starting with '-'",
        ),
        (
            "install metadata",
            raw_zip(&[
                file("demo/SKILL.md", md),
                file("demo/.clawhub/origin.json", "{}"),
            ]),
            "reserved for install and registry metadata",
        ),
        (
            "a file where a folder is needed",
            raw_zip(&[
                file("demo/SKILL.md", md),
                file("demo/x", "1"),
                file("demo/x/y", "2"),
            ]),
            "is a file, but \"x/y\" needs it to be a folder",
        ),
        (
            "a bad top folder",
            raw_zip(&[file("demo./SKILL.md", md)]),
            "ending in a dot or a space",
        ),
        (
            "a manifest in another case",
            raw_zip(&[file("demo/Skill.md", md), file("demo/notes.md", "x")]),
            "\"demo/Skill.md\" is named in the wrong case: name it SKILL.md",
        ),
        (
            "archive inside",
            raw_zip(&[file("demo/SKILL.md", md), file("demo/inner.zip", "PK")]),
            "archive inside the archive",
        ),
    ]
}

#[test]
fn hostile_archives_are_refused_leaving_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (name, bytes, expected) in hostile_cases() {
        let archive = tmp.path().join("case.skill");
        std::fs::write(&archive, bytes).unwrap();
        let target = tmp.path().join("target");
        let (code, _, stderr) = install(tmp.path(), &["case.skill", "--dir", "target"]);
        // Not even an empty skills folder is left behind.
        let left: Vec<String> = tree(&target);
        if code != 2
            || target.exists()
            || !stderr.contains(expected)
            || !stderr.starts_with("error: case.skill: ")
            || !left.is_empty()
        {
            failures.push(format!(
                "{name}: exit {code}, left {left:?}, stderr {stderr:?}"
            ));
        }
        assert!(!tmp.path().join("evil.txt").exists() && !tmp.path().join("../evil.txt").exists());
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn an_archive_over_the_size_limit_is_not_read() {
    let tmp = tempfile::tempdir().unwrap();
    let big = std::fs::File::create(tmp.path().join("big.skill")).unwrap();
    big.set_len(51 * 1024 * 1024).unwrap();
    let (code, _, stderr) = install(tmp.path(), &["big.skill"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: big.skill: the archive is 53477376 bytes; the limit is 52428800\n"
    );
    assert!(!tmp.path().join("skills").join("big").exists());
}

#[test]
fn a_missing_source_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, stderr) = install(tmp.path(), &["nope.skill"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: nope.skill: no such file, folder or registry skill"),
        "{stderr}"
    );
}

#[test]
fn uninstall_of_an_empty_name_never_removes_the_skills_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    common::write_skill(
        tmp.path(),
        "skills",
        "---\nname: skills\ndescription: x\n---\n",
    );
    let (code, _, stderr) =
        run(skill()
            .current_dir(tmp.path())
            .args(["uninstall", "", "--dir", "skills"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(root.join("SKILL.md").is_file());
}

#[test]
fn a_fifo_or_a_device_is_refused_as_an_archive_without_reading_it() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("pipe.skill");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    for source in [fifo.to_str().unwrap(), "/dev/zero"] {
        let out = skill()
            .current_dir(tmp.path())
            .args(["install", source])
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{source}: {stderr}");
        assert!(
            stderr.contains("not a regular file; an archive must be a file"),
            "{source}: {stderr}"
        );
        assert!(!tmp.path().join("skills").exists());
    }
}

#[test]
fn a_folder_brings_no_install_metadata_of_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let source = write_skill(tmp.path(), "demo", SKILL_MD);
    std::fs::create_dir_all(source.join(".clawhub")).unwrap();
    std::fs::write(
        source.join(".clawhub/origin.json"),
        r#"{"version":1,"registry":"https://evil.example","slug":"other","installedVersion":"9.9.9","installedAt":1,"fingerprint":"x"}"#,
    )
    .unwrap();
    let (code, stdout, stderr) = install(tmp.path(), &["./demo", "--dir", "skills"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Installed demo"), "{stdout}");
    assert!(
        stderr.contains("left out demo/.clawhub/: install metadata is written by the installer, never taken from a skill"),
        "{stderr}"
    );
    assert!(!tmp.path().join("skills/demo/.clawhub").exists());
}

/// Valid archives of several shapes: a top folder with an executable script and nested
/// references, files at the root, folder entries, a registry download's `_meta.json`, and a
/// lower-case `skill.md`.
fn valid_shapes() -> Vec<(&'static str, Vec<u8>)> {
    let with_modes = |entries: &[(&str, &[u8], u32)], dirs: &[&str]| {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for dir in dirs {
            zip.add_directory(*dir, zip::write::SimpleFileOptions::default())
                .unwrap();
        }
        for (name, data, mode) in entries {
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated)
                .unix_permissions(*mode);
            zip.start_file(*name, options).unwrap();
            zip.write_all(data).unwrap();
        }
        zip.finish().unwrap().into_inner()
    };
    let md = SKILL_MD.as_bytes();
    vec![
        (
            "valid-top-folder",
            with_modes(
                &[
                    ("demo/SKILL.md", md, 0o644),
                    ("demo/scripts/run.sh", b"#!/bin/sh\necho run\n", 0o755),
                    (
                        "demo/references/deep/guide.md",
                        b"# Guide\n\nSee ../../SKILL.md\n",
                        0o644,
                    ),
                ],
                &[],
            ),
        ),
        (
            "valid-root",
            with_modes(
                &[("SKILL.md", md, 0o644), ("notes.txt", b"notes\n", 0o644)],
                &[],
            ),
        ),
        (
            "valid-folder-entries",
            with_modes(
                &[
                    ("demo/SKILL.md", md, 0o644),
                    ("demo/assets/logo.svg", b"<svg/>", 0o644),
                ],
                &["demo/", "demo/assets/"],
            ),
        ),
        (
            "valid-registry-download",
            with_modes(
                &[
                    ("SKILL.md", md, 0o644),
                    (
                        "_meta.json",
                        b"{\"slug\":\"demo\",\"version\":\"1.0.0\"}",
                        0o644,
                    ),
                ],
                &[],
            ),
        ),
        (
            "valid-lowercase-manifest",
            with_modes(&[("demo/skill.md", md, 0o644)], &[]),
        ),
    ]
}

#[test]
fn the_valid_shapes_install() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, bytes) in valid_shapes() {
        let archive = tmp.path().join(format!("{name}.skill"));
        std::fs::write(&archive, bytes).unwrap();
        let (code, _, stderr) = install(
            tmp.path(),
            &[archive.to_str().unwrap(), "--dir", &format!("out-{name}")],
        );
        assert_eq!(code, 0, "{name}: {stderr}");
    }
}

/// Writes every archive of this suite (hostile cases up to 64 KiB, and the valid shapes) into
/// the folder `SKILL_FUZZ_SEEDS` names: the seed corpus of the `archive` and `install` fuzz
/// targets (`SKILL_FUZZ_SEEDS=fuzz/corpus/archive cargo test --test integration install:: -- --ignored`).
#[test]
#[ignore = "writes the fuzz seed corpus into $SKILL_FUZZ_SEEDS; run by hand"]
fn write_fuzz_seeds() {
    let dir = std::path::PathBuf::from(
        std::env::var_os("SKILL_FUZZ_SEEDS").expect("set SKILL_FUZZ_SEEDS to a folder"),
    );
    std::fs::create_dir_all(&dir).unwrap();
    let hostile = hostile_cases()
        .into_iter()
        .map(|(name, bytes, _)| (name, bytes))
        .filter(|(_, bytes)| bytes.len() <= 64 * 1024);
    for (name, bytes) in hostile.chain(valid_shapes()) {
        let file: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        std::fs::write(dir.join(format!("{file}.zip")), bytes).unwrap();
    }
}

/// A bare name that is also a folder here could mean the folder or the registry skill: it is
/// refused naming both, before any registry is asked, unless `--registry` says which; and
/// `./NAME` installs the folder.
#[test]
fn a_bare_name_that_is_also_a_folder_is_refused_naming_both() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "pdf-tools",
        "---\nname: pdf-tools\ndescription: Extract tables from PDF files. Use when the user shares a PDF.\n---\n\nRun it.\n",
    );
    let (code, stdout, stderr) = run(skill()
        .current_dir(tmp.path())
        .env("SKILL_REGISTRY", "http://127.0.0.1:9")
        .args(["install", "pdf-tools"]));
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.contains("`pdf-tools` names both the path ./pdf-tools and the skill pdf-tools in the registry http://127.0.0.1:9"),
        "{stderr}"
    );
    assert!(
        stderr.contains("hint: write ./pdf-tools to install the path, or --registry http://127.0.0.1:9 to install the registry skill"),
        "{stderr}"
    );
    assert!(!tmp.path().join("skills").exists());
    // Naming the registry on the command line says which: it is asked (and here refuses).
    let (code, _, stderr) = run(skill().current_dir(tmp.path()).args([
        "install",
        "pdf-tools",
        "--registry",
        "http://127.0.0.1:9",
    ]));
    assert_eq!(code, 2);
    assert!(!stderr.contains("names both"), "{stderr}");
    assert!(stderr.contains("cannot reach the registry"), "{stderr}");
    assert!(
        stderr.contains("\nhint: check the URL (--registry, `skill config show`)"),
        "{stderr}"
    );
    assert!(!tmp.path().join("skills").exists());
    let (code, stdout, stderr) = run(skill()
        .current_dir(tmp.path())
        .args(["install", "./pdf-tools"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("Installed pdf-tools in skills/pdf-tools"),
        "{stdout}"
    );
}

/// A registry on loopback with `slugs` published by alice, and a `skill` command for a folder
/// `tmp` that talks to it.
fn registry_with(tmp: &Path, slugs: &[&str]) -> common::Registry {
    let data = tmp.join("data");
    common::registry_admin(&data, &["user", "add", "alice"]);
    let token = common::registry_admin(&data, &["token", "create", "alice"]);
    let server = common::Registry::on(&data, &[]);
    for slug in slugs {
        write_skill(
            &tmp.join("src"),
            slug,
            format!(
                "---\nname: {slug}\ndescription: Does {slug}. Use when asked for {slug}.\n---\n\nRun it.\n"
            ),
        );
        let (code, _, stderr) = run(skill()
            .current_dir(tmp)
            .env("SKILL_CONFIG_DIR", tmp.join("config"))
            .env("SKILL_TOKEN", &token)
            .args([
                "publish",
                &format!("src/{slug}"),
                "--version",
                "1.0.0",
                "--registry",
                &server.url,
            ]));
        assert_eq!(code, 0, "{stderr}");
    }
    server
}

fn installer(tmp: &Path, url: &str, slug: &str) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_skill"));
    cmd.current_dir(tmp)
        .env("SKILL_CONFIG_DIR", tmp.join("config"))
        .env("SKILL_CACHE_DIR", tmp.join("cache"))
        .env_remove("SKILL_TOKEN")
        .args(["install", slug, "--dir", "skills", "--registry", url]);
    cmd
}

#[test]
fn concurrent_installs_into_one_folder_each_get_their_lock_entry() {
    let tmp = tempfile::tempdir().unwrap();
    let slugs = ["one", "two", "three", "four", "five", "six"];
    let server = registry_with(tmp.path(), &slugs);
    let running: Vec<_> = slugs
        .iter()
        .map(|slug| {
            installer(tmp.path(), &server.url, slug)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in running {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join(".clawhub/lock.json")).unwrap())
            .unwrap();
    let mut listed: Vec<&str> = lock["skills"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    listed.sort();
    let mut expected = slugs.to_vec();
    expected.sort();
    assert_eq!(listed, expected, "{lock}");
}

#[test]
fn an_install_whose_lock_entry_cannot_be_written_is_undone() {
    let tmp = tempfile::tempdir().unwrap();
    let server = registry_with(tmp.path(), &["demo"]);
    // A small file-size limit lets the skill's files through and stops the lock file, whoever
    // runs the test (root ignores permissions, not this).
    let limited = |force: bool| {
        let mut cmd = installer(tmp.path(), &server.url, "demo");
        if force {
            cmd.arg("--force");
        }
        limit_file_size(&mut cmd);
        cmd.output().unwrap()
    };
    let out = limited(false);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(".clawhub/lock.json"), "{stderr}");
    assert!(
        !tmp.path().join("skills/demo").exists(),
        "the skill stayed installed without its lock entry"
    );
    assert!(!tmp.path().join(".clawhub/lock.json").exists());

    // A reinstall over an earlier one that fails the same way puts the earlier one back.
    let out = installer(tmp.path(), &server.url, "demo").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let skill_md = tmp.path().join("skills/demo/SKILL.md");
    std::fs::write(&skill_md, "---\nname: demo\ndescription: Edited.\n---\n").unwrap();
    let out = limited(true);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(&skill_md).unwrap(),
        "---\nname: demo\ndescription: Edited.\n---\n"
    );
}

/// Makes `cmd` run with a 420-byte file-size limit, a write past it failing with EFBIG.
fn limit_file_size(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit and signal are async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 420,
                rlim_max: 420,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
}

#[test]
fn agent_and_global_name_the_skills_folders_of_install_uninstall_update_and_verify() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    write_skill(
        tmp.path(),
        "notes",
        "---\nname: notes\ndescription: Keeps notes. Use when the user asks to keep a note.\n---\n\nAppend to notes.md.\n",
    );
    let cli = |args: &[&str]| {
        run(skill()
            .current_dir(tmp.path())
            .env("HOME", &home)
            .args(args))
    };
    let (code, stdout, stderr) = cli(&["install", "./notes", "--agent", "claude", "--global"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Installed notes in"), "{stdout}");
    assert!(home.join(".agents/skills/notes/SKILL.md").is_file());
    assert!(
        home.join(".claude/skills/notes/SKILL.md").is_file(),
        "through the link"
    );
    for command in ["verify", "update"] {
        let (code, stdout, stderr) = cli(&[command, "--agent", "claude", "--global"]);
        assert_eq!(code, 0, "{command}: {stderr}");
        assert!(stdout.contains("notes"), "{command}: {stdout}");
    }
    let (code, _, stderr) = cli(&["install", "./notes", "--agent", "claude", "--dir", "x"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
    let (code, _, stderr) = cli(&["uninstall", "notes", "--agent", "claude", "--global"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!home.join(".claude/skills/notes").exists());
    assert!(!home.join(".agents/skills/notes").exists());
    let (code, _, stderr) = cli(&["builtin", "install", "tmux", "--agent", "claude"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(tmp.path().join(".agents/skills/tmux/SKILL.md").is_file());
    assert!(
        tmp.path().join(".claude/skills/tmux/SKILL.md").is_file(),
        "through the link"
    );
    let lock = std::fs::read_to_string(tmp.path().join("skills-lock.json")).unwrap();
    assert!(lock.contains("\"sourceType\": \"builtin\""), "{lock}");
}
