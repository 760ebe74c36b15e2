//! Reading untrusted `.skill` / `.zip` archives. Every entry is checked before a byte is
//! decompressed: names (traversal, absolute, drive, backslash, control characters, non-UTF-8),
//! types (links, devices), duplicates and case or Unicode-normalisation collisions, encryption,
//! nested archives, counts and sizes; then exactly one SKILL.md at the root or under one top
//! folder. Decompression is bounded by the declared sizes, so a lying header cannot inflate.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use unicode_normalization::UnicodeNormalization;

/// Limits for archives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest archive file read at all (ClawHub's per-skill limit).
    pub archive_bytes: u64,
    /// Most entries.
    pub entries: usize,
    /// Largest total uncompressed size.
    pub total_bytes: u64,
    /// Largest uncompressed file (ClawHub's per-file limit).
    pub file_bytes: u64,
    /// Highest compression ratio for entries over 1 MiB (a bomb otherwise).
    pub ratio: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            archive_bytes: 50 * 1024 * 1024,
            entries: 5_000,
            total_bytes: 100 * 1024 * 1024,
            file_bytes: 10 * 1024 * 1024,
            ratio: 200,
        }
    }
}

/// One file of a checked archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveFile {
    /// Path relative to the skill folder (the top folder removed), `/`-separated.
    pub path: String,
    /// The contents.
    pub bytes: Vec<u8>,
    /// Whether the entry's mode has an executable bit.
    pub executable: bool,
}

/// A checked archive: the skill's files and the top folder they were under, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillArchive {
    /// The common top folder (`my-skill` for `my-skill/SKILL.md`), if entries have one.
    pub top: Option<String>,
    /// The files, in archive order.
    pub files: Vec<ArchiveFile>,
}

/// Why an archive is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ArchiveError {
    /// Over the archive size limit.
    #[error("the archive is {0} bytes; the limit is {1}")]
    ArchiveTooLarge(u64, u64),
    /// Not a zip, truncated, or corrupt.
    #[error("not a readable zip archive: {0}")]
    Corrupt(String),
    /// Too many entries.
    #[error("the archive has {0} entries; the limit is {1}")]
    TooManyEntries(usize, usize),
    /// A name that is not UTF-8.
    #[error("entry name {0:?} is not UTF-8")]
    NonUtf8Name(String),
    /// A name with a NUL or control character.
    #[error("entry name {0:?} contains a control character")]
    ControlCharacter(String),
    /// An absolute path or a drive letter.
    #[error("entry {0:?} is an absolute path")]
    Absolute(String),
    /// A backslash (a Windows path).
    #[error("entry {0:?} contains a backslash")]
    Backslash(String),
    /// A `..` segment.
    #[error("entry {0:?} leaves the folder it is extracted into (..)")]
    Traversal(String),
    /// An empty or `.` segment.
    #[error("entry {0:?} has an empty or '.' path segment")]
    BadSegment(String),
    /// A symbolic link.
    #[error("entry {0:?} is a symbolic link")]
    Symlink(String),
    /// A device, FIFO or socket.
    #[error("entry {0:?} is not a regular file or folder")]
    SpecialFile(String),
    /// An encrypted entry.
    #[error("entry {0:?} is encrypted")]
    Encrypted(String),
    /// Another archive inside.
    #[error("entry {0:?} is an archive inside the archive")]
    NestedArchive(String),
    /// The same name twice.
    #[error("entry {0:?} appears twice")]
    Duplicate(String),
    /// Names equal up to case.
    #[error("entries {0:?} and {1:?} differ only in case")]
    CaseCollision(String, String),
    /// Names equal after Unicode normalisation.
    #[error("entries {0:?} and {1:?} are the same name in different Unicode forms")]
    NormalisationCollision(String, String),
    /// Over a size limit.
    #[error("entry {0:?} is {1} bytes uncompressed; the limit is {2}")]
    FileTooLarge(String, u64, u64),
    /// Total over the limit.
    #[error("the archive holds {0} bytes uncompressed; the limit is {1}")]
    TotalTooLarge(u64, u64),
    /// Compresses too well to be honest.
    #[error("entry {0:?} expands {1}x; refused as a zip bomb")]
    Bomb(String, u64),
    /// Holds more data than its header says.
    #[error("entry {0:?} holds more data than its header declares")]
    LyingSize(String),
    /// No SKILL.md.
    #[error("the archive has no SKILL.md")]
    NoSkillMd,
    /// Several SKILL.md files.
    #[error("the archive has {0} SKILL.md files; a skill archive holds exactly one")]
    ManySkillMd(usize),
    /// SKILL.md not at the root or under the one top folder.
    #[error("SKILL.md is at {0:?}; it must be at the root or under one top folder")]
    SkillMdMisplaced(String),
}

const ARCHIVE_EXTENSIONS: &[&str] = &[
    ".zip", ".skill", ".tar", ".tgz", ".gz", ".bz2", ".xz", ".7z", ".rar", ".jar", ".whl",
];

/// Reads and checks the archive at `path`.
pub fn read_archive(path: &Path, limits: &Limits) -> Result<SkillArchive, ArchiveError> {
    let size = std::fs::metadata(path)
        .map_err(|e| ArchiveError::Corrupt(e.to_string()))?
        .len();
    if size > limits.archive_bytes {
        return Err(ArchiveError::ArchiveTooLarge(size, limits.archive_bytes));
    }
    let bytes = std::fs::read(path).map_err(|e| ArchiveError::Corrupt(e.to_string()))?;
    read_bytes(&bytes, limits)
}

/// Checks and reads an archive held in memory.
pub fn read_bytes(bytes: &[u8], limits: &Limits) -> Result<SkillArchive, ArchiveError> {
    if bytes.len() as u64 > limits.archive_bytes {
        return Err(ArchiveError::ArchiveTooLarge(
            bytes.len() as u64,
            limits.archive_bytes,
        ));
    }
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| ArchiveError::Corrupt(e.to_string()))?;
    if zip.len() > limits.entries {
        return Err(ArchiveError::TooManyEntries(zip.len(), limits.entries));
    }
    // The zip reader indexes entries by name, so a repeated name is reported here, not below.
    if zip.has_duplicate_names() {
        return Err(ArchiveError::Duplicate("a name".to_owned()));
    }
    let entries = inspect(&mut zip, limits)?;
    let top = locate_skill_md(&entries)?;
    let mut files = Vec::new();
    for entry in entries.iter().filter(|e| !e.dir) {
        let mut file = zip
            .by_index(entry.index)
            .map_err(|e| ArchiveError::Corrupt(e.to_string()))?;
        let mut data = Vec::with_capacity(entry.size.min(limits.file_bytes) as usize);
        (&mut file)
            .take(entry.size + 1)
            .read_to_end(&mut data)
            .map_err(|e| ArchiveError::Corrupt(format!("{}: {e}", entry.name)))?;
        if data.len() as u64 > entry.size {
            return Err(ArchiveError::LyingSize(entry.name.clone()));
        }
        let path = match &top {
            Some(top) => entry.name[top.len() + 1..].to_owned(),
            None => entry.name.clone(),
        };
        files.push(ArchiveFile {
            path,
            bytes: data,
            executable: entry.executable,
        });
    }
    Ok(SkillArchive { top, files })
}

/// An entry's checked metadata.
struct Entry {
    index: usize,
    name: String,
    dir: bool,
    size: u64,
    executable: bool,
}

fn inspect<R: std::io::Read + std::io::Seek>(
    zip: &mut zip::ZipArchive<R>,
    limits: &Limits,
) -> Result<Vec<Entry>, ArchiveError> {
    let mut entries = Vec::with_capacity(zip.len());
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut folded: HashMap<String, String> = HashMap::new();
    let mut total = 0u64;
    for index in 0..zip.len() {
        let file = zip
            .by_index_raw(index)
            .map_err(|e| ArchiveError::Corrupt(e.to_string()))?;
        let name = std::str::from_utf8(file.name_raw())
            .map_err(|_| {
                ArchiveError::NonUtf8Name(String::from_utf8_lossy(file.name_raw()).into_owned())
            })?
            .to_owned();
        check_name(&name)?;
        if file.encrypted() {
            return Err(ArchiveError::Encrypted(name));
        }
        let mode = file.unix_mode().unwrap_or(0);
        let kind = mode & 0o170_000;
        if kind == 0o120_000 || file.is_symlink() {
            return Err(ArchiveError::Symlink(name));
        }
        let dir = file.is_dir() || kind == 0o040_000;
        if !dir && kind != 0 && kind != 0o100_000 {
            return Err(ArchiveError::SpecialFile(name));
        }
        let key = name.trim_end_matches('/').to_owned();
        if !dir {
            let lower = key.to_lowercase();
            if ARCHIVE_EXTENSIONS.iter().any(|ext| lower.ends_with(ext)) {
                return Err(ArchiveError::NestedArchive(name));
            }
            let size = file.size();
            if size > limits.file_bytes {
                return Err(ArchiveError::FileTooLarge(name, size, limits.file_bytes));
            }
            let ratio = size / file.compressed_size().max(1);
            if size > 1024 * 1024 && ratio > limits.ratio {
                return Err(ArchiveError::Bomb(name, ratio));
            }
            total += size;
            if total > limits.total_bytes {
                return Err(ArchiveError::TotalTooLarge(total, limits.total_bytes));
            }
        }
        let nfc: String = key.nfc().collect();
        if let Some(previous) = seen.insert(nfc.clone(), key.clone()) {
            return Err(if previous == key {
                ArchiveError::Duplicate(key)
            } else {
                ArchiveError::NormalisationCollision(previous, key)
            });
        }
        if let Some(previous) = folded.insert(nfc.to_lowercase(), key.clone()) {
            return Err(ArchiveError::CaseCollision(previous, key));
        }
        entries.push(Entry {
            index,
            name: key,
            dir,
            size: file.size(),
            executable: mode & 0o111 != 0,
        });
    }
    Ok(entries)
}

fn check_name(name: &str) -> Result<(), ArchiveError> {
    let owned = || name.to_owned();
    if name.chars().any(|c| c.is_control()) {
        return Err(ArchiveError::ControlCharacter(owned()));
    }
    if name.contains('\\') {
        return Err(ArchiveError::Backslash(owned()));
    }
    let bytes = name.as_bytes();
    if name.starts_with('/')
        || (bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':')
    {
        return Err(ArchiveError::Absolute(owned()));
    }
    let trimmed = name.strip_suffix('/').unwrap_or(name);
    for segment in trimmed.split('/') {
        match segment {
            ".." => return Err(ArchiveError::Traversal(owned())),
            "" | "." => return Err(ArchiveError::BadSegment(owned())),
            _ => {}
        }
    }
    Ok(())
}

/// Exactly one SKILL.md, at the root or under the one folder every entry is in; returns that
/// folder.
fn locate_skill_md(entries: &[Entry]) -> Result<Option<String>, ArchiveError> {
    let manifests: Vec<&Entry> = entries
        .iter()
        .filter(|e| {
            !e.dir
                && e.name
                    .rsplit('/')
                    .next()
                    .is_some_and(|n| n.eq_ignore_ascii_case("SKILL.md"))
        })
        .collect();
    let manifest = match manifests.as_slice() {
        [] => return Err(ArchiveError::NoSkillMd),
        [one] => one,
        many => return Err(ArchiveError::ManySkillMd(many.len())),
    };
    match manifest.name.split_once('/') {
        None => Ok(None),
        Some((top, rest)) if !rest.contains('/') => {
            let prefix = format!("{top}/");
            let shared = entries
                .iter()
                .all(|e| e.name.starts_with(&prefix) || (e.dir && e.name == top));
            if shared {
                Ok(Some(top.to_owned()))
            } else {
                Err(ArchiveError::SkillMdMisplaced(manifest.name.clone()))
            }
        }
        Some(_) => Err(ArchiveError::SkillMdMisplaced(manifest.name.clone())),
    }
}

/// The file a registry adds to each download (ClawHub's `_meta.json`).
pub const META_FILE: &str = "_meta.json";

/// Checks a download against the version's file list (path, SHA-256): every listed file is
/// there with that hash, nothing else is but the registry's [`META_FILE`], and the list is not
/// empty.
pub fn check_hashes(archive: &SkillArchive, expected: &[(String, String)]) -> Result<(), String> {
    if expected.is_empty() {
        return Err("the registry listed no files for this version".to_owned());
    }
    for (path, sha) in expected {
        let file = archive
            .files
            .iter()
            .find(|f| &f.path == path)
            .ok_or_else(|| format!("{path} is missing from the download"))?;
        if &crate::skill::fingerprint::sha256_hex(&file.bytes) != sha {
            return Err(format!("{path} does not match the registry's SHA-256"));
        }
    }
    // Only the registry's own `_meta.json` may come along unlisted.
    if let Some(extra) = archive
        .files
        .iter()
        .find(|f| f.path != META_FILE && !expected.iter().any(|(p, _)| p == &f.path))
    {
        return Err(format!(
            "{} is in the download but not in the version's file list",
            extra.path
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill::fingerprint::sha256_hex;

    fn archive(paths: &[&str]) -> SkillArchive {
        SkillArchive {
            top: None,
            files: paths
                .iter()
                .map(|p| ArchiveFile {
                    path: (*p).to_owned(),
                    bytes: p.as_bytes().to_vec(),
                    executable: false,
                })
                .collect(),
        }
    }

    fn listed(paths: &[&str]) -> Vec<(String, String)> {
        paths
            .iter()
            .map(|p| ((*p).to_owned(), sha256_hex(p.as_bytes())))
            .collect()
    }

    #[test]
    fn downloads_hold_the_listed_files_and_nothing_else() {
        let list = listed(&["SKILL.md", "a.txt"]);
        assert!(check_hashes(&archive(&["SKILL.md", "a.txt", META_FILE]), &list).is_ok());
        let extra = check_hashes(&archive(&["SKILL.md", "a.txt", "evil.sh"]), &list);
        assert_eq!(
            extra.unwrap_err(),
            "evil.sh is in the download but not in the version's file list"
        );
        let missing = check_hashes(&archive(&["SKILL.md"]), &list);
        assert_eq!(missing.unwrap_err(), "a.txt is missing from the download");
        assert!(check_hashes(&archive(&["SKILL.md"]), &[]).is_err());
        let mut wrong = list.clone();
        wrong[0].1 = sha256_hex(b"other");
        assert!(check_hashes(&archive(&["SKILL.md", "a.txt"]), &wrong).is_err());
    }
}
