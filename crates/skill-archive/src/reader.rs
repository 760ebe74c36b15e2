//! Reading untrusted `.skill` / `.zip` archives. Every entry is checked before a byte is
//! decompressed: names (non-UTF-8, and the skill path rules of [`layout`]), types (links,
//! devices), duplicates, entries sharing their data, encryption, nested archives, counts, sizes
//! and compression ratios; then the skill's SKILL.md at the root or under one top folder (one
//! deeper down is a sub-skill's, a file of the skill), and the file set as a whole
//! ([`layout::check_file_set`]). Decompression is bounded by the declared sizes, so a lying
//! header cannot inflate.

use skill_model::layout::{self, FileSetKind, PathError};
use std::io::Read;
use std::path::Path;

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
    /// Highest compression ratio of an entry of 1 MiB or more, and of the archive as a whole
    /// once it holds 1 MiB or more (a bomb otherwise).
    pub ratio: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            archive_bytes: skill_model::limits::BUNDLE_BYTES,
            entries: 5_000,
            total_bytes: 100 * 1024 * 1024,
            file_bytes: skill_model::limits::FILE_BYTES,
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
    /// A FIFO, device, socket or folder where an archive file was expected.
    #[error("not a regular file; an archive must be a file")]
    NotAFile,
    /// Not a zip, truncated, or corrupt.
    #[error("not a readable zip archive: {0}")]
    Corrupt(String),
    /// Too many entries.
    #[error("the archive has {0} entries; the limit is {1}")]
    TooManyEntries(usize, usize),
    /// A name that is not UTF-8.
    #[error("entry name {0:?} is not UTF-8")]
    NonUtf8Name(String),
    /// A name that breaks the skill path rules.
    #[error("entry {0}")]
    Path(#[from] PathError),
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
    /// Two central-directory entries share their data (a bomb, or a file that hides another).
    #[error("entries {0:?} and {1:?} overlap in the archive")]
    Overlap(String, String),
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
    /// The one SKILL.md is spelt in another case (`Skill.md`): agents look for `SKILL.md`, the
    /// lower-case fallback is `skill.md`, and an installed skill is recognised by those two only.
    #[error("{0:?} is named in the wrong case: name it SKILL.md")]
    SkillMdCase(String),
    /// Several SKILL.md files at the shallowest level any is at: none is the skill's own.
    #[error(
        "the archive has {0} SKILL.md files side by side; a skill archive holds one at its root"
    )]
    ManySkillMd(usize),
    /// SKILL.md not at the root or under the one top folder.
    #[error("SKILL.md is at {0:?}; it must be at the root or under one top folder")]
    SkillMdMisplaced(String),
}

/// The bytes of the archive file at `path`: a regular file (never a FIFO or a device), at most
/// `limits.archive_bytes` long, read once so what is checked is what is installed.
pub fn read_file(path: &Path, limits: &Limits) -> Result<Vec<u8>, ArchiveError> {
    use std::os::unix::fs::OpenOptionsExt;
    let corrupt = |e: std::io::Error| ArchiveError::Corrupt(e.to_string());
    // Opened without following a FIFO's writer-wait or a device's endless stream: the type is
    // checked on the open handle, so the path cannot be swapped in between.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(corrupt)?;
    let meta = file.metadata().map_err(corrupt)?;
    if !meta.is_file() {
        return Err(ArchiveError::NotAFile);
    }
    if meta.len() > limits.archive_bytes {
        return Err(ArchiveError::ArchiveTooLarge(
            meta.len(),
            limits.archive_bytes,
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limits.archive_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(corrupt)?;
    Ok(bytes)
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
    // The zip reader indexes entries by name, so a repeated name is found in the raw central
    // directory instead.
    if zip.has_duplicate_names() {
        let name = duplicate_name(bytes).unwrap_or_else(|| "a name".to_owned());
        return Err(PathError::Duplicate(name).into());
    }
    let entries = inspect(&mut zip, limits)?;
    let total: u64 = entries.iter().map(|e| e.size).sum();
    if total >= BOMB_FLOOR && total / (bytes.len() as u64).max(1) > limits.ratio {
        return Err(ArchiveError::Bomb(
            "the archive".to_owned(),
            total / (bytes.len() as u64).max(1),
        ));
    }
    let top = locate_skill_md(&entries)?;
    if let Some(top) = &top {
        layout::check_skill_name(top)?;
    }
    let paths: Vec<String> = entries
        .iter()
        .filter(|e| !e.dir)
        .map(|e| relative_path(top.as_deref(), &e.name))
        .collect();
    layout::check_file_set(paths.iter().map(String::as_str), FileSetKind::Download)?;
    let files = extract_files(&mut zip, &entries, top.as_deref(), limits)?;
    Ok(SkillArchive { top, files })
}

/// An entry's name relative to the skill folder: the `top` folder, if any, removed.
fn relative_path(top: Option<&str>, name: &str) -> String {
    match top {
        Some(top) => name[top.len() + 1..].to_owned(),
        None => name.to_owned(),
    }
}

/// Decompresses the checked file entries, refusing one that holds more than its header says.
fn extract_files<R: std::io::Read + std::io::Seek>(
    zip: &mut zip::ZipArchive<R>,
    entries: &[CheckedEntry],
    top: Option<&str>,
    limits: &Limits,
) -> Result<Vec<ArchiveFile>, ArchiveError> {
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
        let path = relative_path(top, &entry.name);
        files.push(ArchiveFile {
            path,
            bytes: data,
            executable: entry.executable,
        });
    }
    Ok(files)
}

/// An entry's checked metadata.
struct CheckedEntry {
    index: usize,
    name: String,
    dir: bool,
    size: u64,
    executable: bool,
}

fn inspect<R: std::io::Read + std::io::Seek>(
    zip: &mut zip::ZipArchive<R>,
    limits: &Limits,
) -> Result<Vec<CheckedEntry>, ArchiveError> {
    let mut entries = Vec::with_capacity(zip.len());
    let mut spans: Vec<(u64, u64, String)> = Vec::with_capacity(zip.len());
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
        layout::check_relative(name.strip_suffix('/').unwrap_or(&name))?;
        let start = file.header_start();
        let end = file.data_start().unwrap_or(start) + file.compressed_size();
        spans.push((start, end, name.clone()));
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
            let sizes = FileSizes {
                size: file.size(),
                compressed: file.compressed_size(),
            };
            check_file_entry(&name, &key, sizes, limits, &mut total)?;
        }
        entries.push(CheckedEntry {
            index,
            name: key,
            dir,
            size: file.size(),
            executable: mode & 0o111 != 0,
        });
    }
    check_overlaps(spans)?;
    Ok(entries)
}

/// A file entry's sizes as its header declares them.
struct FileSizes {
    /// Uncompressed.
    size: u64,
    /// Compressed.
    compressed: u64,
}

/// Refuses a file entry (`name` as written, `key` without a trailing `/`) that is an archive,
/// too large, too compressible, or takes the running `total` over the limit.
fn check_file_entry(
    name: &str,
    key: &str,
    sizes: FileSizes,
    limits: &Limits,
    total: &mut u64,
) -> Result<(), ArchiveError> {
    let lower = key.to_lowercase();
    if skill_model::layout::is_archive_name(&lower) {
        return Err(ArchiveError::NestedArchive(name.to_owned()));
    }
    let size = sizes.size;
    if size > limits.file_bytes {
        return Err(ArchiveError::FileTooLarge(
            name.to_owned(),
            size,
            limits.file_bytes,
        ));
    }
    let ratio = size / sizes.compressed.max(1);
    if size >= BOMB_FLOOR && ratio > limits.ratio {
        return Err(ArchiveError::Bomb(name.to_owned(), ratio));
    }
    *total += size;
    if *total > limits.total_bytes {
        return Err(ArchiveError::TotalTooLarge(*total, limits.total_bytes));
    }
    Ok(())
}

/// Below this many uncompressed bytes no ratio is suspicious (tiny files compress any way).
const BOMB_FLOOR: u64 = 1024 * 1024;

/// Refuses entries whose local header and data share bytes with another's: several
/// central-directory entries pointing into the same data inflate one payload many times.
fn check_overlaps(mut spans: Vec<(u64, u64, String)>) -> Result<(), ArchiveError> {
    spans.sort_by_key(|(start, _, _)| *start);
    for pair in spans.windows(2) {
        let ((_, end, first), (start, _, second)) = (&pair[0], &pair[1]);
        if start < end {
            return Err(ArchiveError::Overlap(first.clone(), second.clone()));
        }
    }
    Ok(())
}

/// The first name that appears twice in the raw central directory (the zip reader keeps one
/// entry per name, so it cannot say which).
fn duplicate_name(bytes: &[u8]) -> Option<String> {
    let u16_at = |i: usize| Some(u16::from_le_bytes(bytes.get(i..i + 2)?.try_into().ok()?));
    let u32_at = |i: usize| Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?));
    let eocd = (0..bytes.len().saturating_sub(21))
        .rev()
        .find(|&i| u32_at(i) == Some(0x0605_4b50))?;
    let mut at = u32_at(eocd + 16)? as usize;
    let mut seen = std::collections::HashSet::new();
    while u32_at(at) == Some(0x0201_4b50) {
        let name_len = usize::from(u16_at(at + 28)?);
        let rest = usize::from(u16_at(at + 30)?) + usize::from(u16_at(at + 32)?);
        let name = String::from_utf8_lossy(bytes.get(at + 46..at + 46 + name_len)?).into_owned();
        if !seen.insert(name.clone()) {
            return Some(name.trim_end_matches('/').to_owned());
        }
        at += 46 + name_len + rest;
    }
    None
}

/// The skill's SKILL.md: the one at the root, or else the one under the one folder every entry
/// is in; returns that folder. A SKILL.md deeper down is a file of the skill (ClawHub serves
/// bundles whose folders hold sub-skills the root's SKILL.md routes to).
fn locate_skill_md(entries: &[CheckedEntry]) -> Result<Option<String>, ArchiveError> {
    let depth_of = |e: &&CheckedEntry| -> Option<usize> {
        let is_manifest = !e.dir
            && e.name
                .rsplit('/')
                .next()
                .is_some_and(|n| n.eq_ignore_ascii_case(layout::SKILL_MD));
        is_manifest.then(|| e.name.matches('/').count())
    };
    let shallowest = entries.iter().filter_map(|e| depth_of(&e)).min();
    let manifests: Vec<&CheckedEntry> = entries
        .iter()
        .filter(|e| shallowest.is_some() && depth_of(e) == shallowest)
        .collect();
    let manifest = match manifests.as_slice() {
        [] => return Err(ArchiveError::NoSkillMd),
        [one] => one,
        many => return Err(ArchiveError::ManySkillMd(many.len())),
    };
    // Found in any case so that `SKILL.md` beside `Skill.md` counts as two, but accepted only
    // as the two names installers, discovery and the registry's publish recognise.
    let file_name = manifest.name.rsplit('/').next().unwrap_or_default();
    if file_name != layout::SKILL_MD && file_name != layout::SKILL_MD_LOWER {
        return Err(ArchiveError::SkillMdCase(manifest.name.clone()));
    }
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

pub use skill_model::layout::META_FILE;

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
        if &skill_model::fingerprint::sha256_hex(&file.bytes) != sha {
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
    use skill_model::fingerprint::sha256_hex;

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
