//! What a skill folder holds by name: the manifest file, the evals folder, the registry's and
//! the installer's reserved files, and the one set of rules every path and skill name must
//! follow wherever a file set crosses a boundary (pack, publish, install), so a registry never
//! accepts what an installer refuses.

use std::collections::HashMap;
use unicode_normalization::UnicodeNormalization;

/// The file name every agent looks for.
pub const SKILL_MD: &str = "SKILL.md";

/// The project's settings file, found from the working folder upwards (`[lint]`, `[trust]`,
/// registry and provider defaults).
pub const PROJECT_FILE: &str = "skill.toml";
/// The lower-case fallback that skills-ref accepts and most agents do not.
pub const SKILL_MD_LOWER: &str = "skill.md";
/// The longest description the Agent Skills specification allows, in characters.
pub const DESCRIPTION_MAX: usize = 1024;
/// The folder of scenarios, trigger sets and cassettes, shipped with no archive or install.
pub const EVALS_DIR: &str = "evals";
/// The file a registry adds to each download (ClawHub's `_meta.json`).
pub const META_FILE: &str = "_meta.json";
/// The folder where installers record where a skill came from (`.clawhub/origin.json`) and,
/// at the install root, what is installed (`.clawhub/lock.json`).
pub const CLAWHUB_DIR: &str = ".clawhub";
/// The origin record inside an installed skill folder.
pub const ORIGIN_FILE: &str = ".clawhub/origin.json";
/// The lock file at an install root (the skills folder's parent).
pub const LOCK_FILE: &str = ".clawhub/lock.json";
/// The file `skill` holds an exclusive lock on while it changes an install root's lock file,
/// so installs running at once record every skill (the lock file itself is replaced by a
/// rename, so it cannot be the one locked).
pub const LOCK_GUARD_FILE: &str = ".clawhub/lock.json.guard";
/// The lock file's name before ClawHub's rename, still read when the current one is absent.
pub const LEGACY_LOCK_FILE: &str = ".clawdhub/lock.json";

/// Whether `path` (relative to a skill folder, `/`-separated) is install metadata that a skill
/// downloaded from ClawHub carries: the registry's root `_meta.json` or anything under the
/// installer's `.clawhub/`. Pack and publish leave it out, since the registry writes its own.
pub fn is_install_metadata(path: &str) -> bool {
    path == META_FILE || path == CLAWHUB_DIR || path.starts_with(".clawhub/")
}

/// Whether `path` (relative to a skill folder, `/`-separated) has a segment starting with `.`
/// (`.git/`, `.github/workflows/ci.yml`, `templates/.vscode/tasks.json`, `.env`): packing leaves
/// such files out, as ClawHub does, so no archive and no install carries them.
pub fn is_hidden(path: &str) -> bool {
    path.split('/').any(|segment| segment.starts_with('.'))
}

/// The install metadata at the top of the skill folder `dir`, by name (`_meta.json`,
/// `.clawhub/`), for the one note pack and publish print when they leave it out.
pub fn install_metadata_in(dir: &std::path::Path) -> Vec<&'static str> {
    [(META_FILE, false), (CLAWHUB_DIR, true)]
        .into_iter()
        .filter(|(name, folder)| {
            std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| m.is_dir() == *folder)
        })
        .map(|(name, _)| name)
        .collect()
}

/// Who made a file set, which decides whether the registry's own `_meta.json` may be in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileSetKind {
    /// Written by an author: packed or published. No reserved files at all.
    Authored,
    /// An archive to install, which may be a registry download carrying `_meta.json`.
    Download,
}

/// A path or name that breaks a rule; each variant names the offending path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// A leading `/` or a drive letter.
    #[error("{0:?} is an absolute path")]
    Absolute(String),
    /// A `..` segment.
    #[error("{0:?} leaves the folder it is extracted into (..)")]
    Traversal(String),
    /// An empty or `.` segment (or an empty path).
    #[error("{0:?} has an empty or '.' path segment")]
    BadSegment(String),
    /// A `/` in a skill's folder name.
    #[error("{0:?} is a path, not a folder name")]
    NotAName(String),
    /// A backslash.
    #[error("{0:?} contains a backslash")]
    Backslash(String),
    /// A control character.
    #[error("{0:?} contains a control character")]
    ControlCharacter(String),
    /// A zero-width or bidirectional-control character, which makes a name look like another.
    #[error("{0:?} contains an invisible or bidirectional-control character")]
    InvisibleCharacter(String),
    /// A segment ending in `.` or a space, which Windows silently drops.
    #[error("{0:?} has a segment ending in a dot or a space")]
    TrailingDotOrSpace(String),
    /// A Windows device name (`CON`, `NUL`, `COM1`, ...).
    #[error("{0:?} uses a name Windows reserves for devices")]
    ReservedDeviceName(String),
    /// A `:` (an NTFS stream or a drive).
    #[error("{0:?} contains ':'")]
    Colon(String),
    /// A segment starting with `-`, which commands read as an option.
    #[error("{0:?} has a segment starting with '-'")]
    LeadingHyphen(String),
    /// Install metadata (`.clawhub/`) or the registry's `_meta.json` brought by the skill.
    #[error("{0:?} is reserved for install and registry metadata; a skill may not bring it")]
    Reserved(String),
    /// The same path twice.
    #[error("{0:?} appears twice")]
    Duplicate(String),
    /// Two paths equal up to case.
    #[error("{0:?} and {1:?} differ only in case")]
    CaseTwin(String, String),
    /// Two paths equal after Unicode normalisation.
    #[error("{0:?} and {1:?} are the same name in different Unicode forms")]
    NormalisationTwin(String, String),
    /// A file that is also a folder of another path.
    #[error("{0:?} is a file, but {1:?} needs it to be a folder")]
    FileIsFolder(String, String),
}

const WINDOWS_DEVICES: &[&str] = &[
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// Zero-width characters, bidi controls and the Tags block: invisible, or reorder what is shown.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}'
        | '\u{FEFF}'
        | '\u{E0000}'..='\u{E007F}')
}

/// The [`is_invisible`] characters of `text` with their byte offsets. Each such character is
/// encoded as one of four two-byte prefixes (U+2000–U+207F as `E2 80`/`E2 81`, U+FEFF as
/// `EF BB`, the Tags block as `F3 A0`), so the search looks for their lead bytes and decodes
/// only behind a matching second byte: Markdown is full of other `E2` characters (dashes,
/// arrows, box drawing).
pub fn invisible_chars(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let bytes = text.as_bytes();
    memchr::memchr3_iter(0xE2, 0xEF, 0xF3, bytes).filter_map(move |at| {
        let second = *bytes.get(at + 1)?;
        let prefix = matches!(
            (bytes[at], second),
            (0xE2, 0x80 | 0x81) | (0xEF, 0xBB) | (0xF3, 0xA0)
        );
        if !prefix {
            return None;
        }
        let c = text.get(at..)?.chars().next()?;
        is_invisible(c).then_some((at, c))
    })
}

/// Checks one path segment (a file or folder name, or a skill's folder name).
pub(crate) fn check_segment(segment: &str, path: &str) -> Result<(), PathError> {
    let owned = || path.to_owned();
    match segment {
        ".." => return Err(PathError::Traversal(owned())),
        "" | "." => return Err(PathError::BadSegment(owned())),
        _ => {}
    }
    if segment.chars().any(char::is_control) {
        return Err(PathError::ControlCharacter(owned()));
    }
    if segment.chars().any(is_invisible) {
        return Err(PathError::InvisibleCharacter(owned()));
    }
    if segment.contains('\\') {
        return Err(PathError::Backslash(owned()));
    }
    if segment.contains(':') {
        return Err(PathError::Colon(owned()));
    }
    if segment.ends_with(['.', ' ']) {
        return Err(PathError::TrailingDotOrSpace(owned()));
    }
    if segment.starts_with('-') {
        return Err(PathError::LeadingHyphen(owned()));
    }
    let stem = segment.split('.').next().unwrap_or(segment).trim_end();
    if WINDOWS_DEVICES.iter().any(|d| d.eq_ignore_ascii_case(stem)) {
        return Err(PathError::ReservedDeviceName(owned()));
    }
    Ok(())
}

/// Checks the syntax of one relative, `/`-separated path: not absolute, and every segment
/// passes [`check_segment`].
pub fn check_relative(path: &str) -> Result<(), PathError> {
    let bytes = path.as_bytes();
    if path.starts_with('/')
        || (bytes.first().is_some_and(u8::is_ascii_alphabetic) && bytes.get(1) == Some(&b':'))
    {
        return Err(PathError::Absolute(path.to_owned()));
    }
    for segment in path.split('/') {
        check_segment(segment, path)?;
    }
    Ok(())
}

/// Checks one relative, `/`-separated path of a skill's files: its syntax, and that it is not
/// install or registry metadata.
pub(crate) fn check_path(path: &str, kind: FileSetKind) -> Result<(), PathError> {
    check_relative(path)?;
    let first = path.split('/').next().unwrap_or(path);
    // The registry adds `_meta.json` to every download, so a skill's `_meta.json/...` folder or
    // `_META.JSON` twin would make that download one installers refuse.
    let meta_allowed = kind == FileSetKind::Download && path == META_FILE;
    if first.eq_ignore_ascii_case(CLAWHUB_DIR)
        || (first.eq_ignore_ascii_case(META_FILE) && !meta_allowed)
    {
        return Err(PathError::Reserved(path.to_owned()));
    }
    Ok(())
}

/// Names that installers take for archives, which a skill may not carry (an archive inside the
/// archive is refused, so neither is it published).
const ARCHIVE_EXTENSIONS: &[&str] = &[
    ".zip", ".skill", ".tar", ".tgz", ".gz", ".bz2", ".xz", ".7z", ".rar", ".jar", ".whl",
];

/// Whether installers take the file at `path` for an archive (by its name, any case).
pub fn is_archive_name(path: &str) -> bool {
    let lower = path.to_lowercase();
    ARCHIVE_EXTENSIONS.iter().any(|ext| lower.ends_with(ext))
}

/// Checks a whole file set: every path, then the set's collisions (duplicates, case and
/// Unicode twins, and a file that another path needs as a folder), so that the set extracts
/// to the same tree on every file system.
pub fn check_file_set<'a>(
    paths: impl IntoIterator<Item = &'a str>,
    kind: FileSetKind,
) -> Result<(), PathError> {
    let mut exact: HashMap<String, &str> = HashMap::new();
    let mut folded: HashMap<String, &str> = HashMap::new();
    let mut files: Vec<&str> = Vec::new();
    for path in paths {
        check_path(path, kind)?;
        let nfc: String = path.nfc().collect();
        if let Some(previous) = exact.insert(nfc.clone(), path) {
            return Err(if previous == path {
                PathError::Duplicate(path.to_owned())
            } else {
                PathError::NormalisationTwin(previous.to_owned(), path.to_owned())
            });
        }
        if let Some(previous) = folded.insert(nfc.to_lowercase(), path) {
            return Err(PathError::CaseTwin(previous.to_owned(), path.to_owned()));
        }
        files.push(path);
    }
    let folders: HashMap<String, &str> = files
        .iter()
        .flat_map(|path| {
            let lower = path.nfc().collect::<String>().to_lowercase();
            let mut prefixes = Vec::new();
            for (i, _) in lower.match_indices('/') {
                prefixes.push((lower[..i].to_owned(), *path));
            }
            prefixes
        })
        .collect();
    for path in &files {
        let key = path.nfc().collect::<String>().to_lowercase();
        if let Some(inner) = folders.get(&key) {
            return Err(PathError::FileIsFolder(
                (*path).to_owned(),
                (*inner).to_owned(),
            ));
        }
    }
    Ok(())
}

/// Checks a name a skill is installed or published under (its folder name).
pub fn check_skill_name(name: &str) -> Result<(), PathError> {
    if name.contains('/') {
        return Err(PathError::NotAName(name.to_owned()));
    }
    check_segment(name, name)?;
    if name.starts_with('.') {
        return Err(PathError::Reserved(name.to_owned()));
    }
    Ok(())
}

/// `docker-deploy` (or `docker_deploy`) as `Docker Deploy`: a title for people, and the display
/// name the clawhub CLI gives a published skill.
pub fn title_case(name: &str) -> String {
    name.split(['-', '_'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_chars_are_every_invisible_character() {
        let every: String = (0..=0x10FFFF).filter_map(char::from_u32).collect();
        let want: Vec<(usize, char)> = every
            .char_indices()
            .filter(|&(_, c)| is_invisible(c))
            .collect();
        assert_eq!(invisible_chars(&every).collect::<Vec<_>>(), want);
        assert_eq!(want.len(), 5 + 5 + 5 + 4 + 1 + 128);
        assert_eq!(
            invisible_chars("a\u{2014}b\u{202E}").collect::<Vec<_>>(),
            [(5, '\u{202E}')]
        );
    }

    fn set(paths: &[&str]) -> Result<(), PathError> {
        check_file_set(paths.iter().copied(), FileSetKind::Authored)
    }

    #[test]
    fn single_paths() {
        for bad in [
            "../x",
            "/etc/passwd",
            "C:/x",
            "a//b",
            "a\\b",
            "a\u{7}b",
            "a\u{202E}txt",
            "x\u{200B}",
            "notes.",
            "notes ",
            "CON",
            "scripts/nul.txt",
            "a:b",
            "-rf",
            "scripts/-x",
            ".clawhub/origin.json",
            ".clawhub",
            "_meta.json",
            "_meta.json/gui",
            "_META.json",
            ".ClawHub/x",
        ] {
            assert!(set(&[bad]).is_err(), "{bad:?} accepted");
        }
        for good in [
            "SKILL.md",
            "scripts/run.sh",
            "references/a-b.md",
            "console.md",
            "x/_meta.json",
        ] {
            assert_eq!(set(&[good]), Ok(()), "{good:?} refused");
        }
        assert_eq!(
            check_file_set(["_meta.json"], FileSetKind::Download),
            Ok(())
        );
        assert!(check_file_set(["_meta.json/x"], FileSetKind::Download).is_err());
    }

    #[test]
    fn collisions() {
        assert_eq!(set(&["a", "a"]), Err(PathError::Duplicate("a".into())));
        assert!(matches!(
            set(&["SKILL.md", "skill.md"]),
            Err(PathError::CaseTwin(..))
        ));
        assert!(matches!(
            set(&["caf\u{e9}", "cafe\u{301}"]),
            Err(PathError::NormalisationTwin(..))
        ));
        assert_eq!(
            set(&["x", "x/y"]),
            Err(PathError::FileIsFolder("x".into(), "x/y".into()))
        );
        assert_eq!(
            set(&["x/y", "X"]),
            Err(PathError::FileIsFolder("X".into(), "x/y".into()))
        );
        assert_eq!(set(&["x/y", "x/z", "xy"]), Ok(()));
    }

    #[test]
    fn skill_names() {
        assert_eq!(check_skill_name("pdf-tools"), Ok(()));
        for bad in [
            "",
            ".",
            "..",
            ".hidden",
            "a/b",
            "-x",
            "x.",
            "NUL",
            "a\u{202E}b",
        ] {
            assert!(check_skill_name(bad).is_err(), "{bad:?} accepted");
        }
    }
}
