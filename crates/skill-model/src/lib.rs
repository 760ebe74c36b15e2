#![warn(missing_docs)]
// Functions stay short enough to read at once; clippy.toml sets the bound (60 code lines).
#![warn(clippy::too_many_lines)]
//! The model: what a skill *is*. A skill directory, its `SKILL.md` split into frontmatter and
//! body, the typed manifest with spans, the requirements it declares, and discovery of skills from
//! paths. Nothing here prints or knows about commands.

pub mod agents;
pub mod availability;
pub mod body;
pub mod builtin;
pub mod catalog;
pub mod choice;
pub mod discovery;
pub mod document;
pub mod environment;
pub mod files;
pub mod fingerprint;
pub mod folders;
pub mod frontmatter;
pub mod layout;
pub mod limits;
pub mod manifest;
pub mod requirements;
pub mod secrets;
pub mod settings_file;
pub mod similarity;
pub mod source;
pub mod span;
pub mod yaml;

/// The `version` of every JSON document `skill` prints (`--json`, `--format json`), whose
/// shapes are the schemas in `schemas/`. It goes up when a field is removed or changes meaning;
/// new fields do not change it.
pub const JSON_VERSION: u32 = 1;

pub use discovery::{DiscoveryError, SkillLocation, discover, discover_manifests};
pub use document::{Document, LoadError, ManifestError};
pub use manifest::{FrontmatterField, Manifest};
pub use requirements::Requirements;
pub use source::Source;
pub use span::Span;

use self::layout::SKILL_MD;
use std::path::{Path, PathBuf};

/// A skill directory and what could be read of its `SKILL.md`.
#[derive(Debug, Clone)]
pub struct Skill {
    /// The skill directory as the user named it (relative paths stay relative).
    pub dir: PathBuf,
    /// The final component of the canonical directory path, which the name must match.
    pub dir_name: String,
    /// The manifest file found in the directory (`SKILL.md`, else `skill.md`), if any.
    pub file: Option<PathBuf>,
    /// The parsed file, or why it could not be read.
    pub document: Result<Document, LoadError>,
    /// The files of the skill folder, listed on first use (see [`Skill::files`]).
    files: std::sync::OnceLock<files::SkillFiles>,
}

impl Skill {
    /// Reads and parses the skill at `location`. Never fails: problems are kept in `document`.
    pub fn load(location: SkillLocation) -> Skill {
        let dir_name = dir_name(&location.dir);
        let document = match &location.file {
            Some(file) => Document::read_listed(file, listed_size(&location, file)),
            None => Err(LoadError::Missing),
        };
        let files = std::sync::OnceLock::new();
        if let Some(listed) = location.files {
            let _ = files.set(listed);
        }
        Skill {
            dir: location.dir,
            dir_name,
            file: location.file,
            document,
            files,
        }
    }

    /// A skill whose `SKILL.md` holds `bytes`, without touching the disk (fuzzing, tests).
    pub fn from_bytes(dir: &Path, bytes: Vec<u8>) -> Skill {
        let document = Source::decode(bytes)
            .map(Document::parse)
            .map_err(LoadError::Decode);
        Skill {
            dir: dir.to_path_buf(),
            dir_name: dir_name(dir),
            file: Some(dir.join(discovery::SKILL_MD)),
            document,
            files: std::sync::OnceLock::from(files::SkillFiles::default()),
        }
    }

    /// The files of the skill folder (ignore files honoured, nested skills left out), listed on
    /// first use: summaries never need them, lint always does.
    pub fn files(&self) -> &files::SkillFiles {
        self.files.get_or_init(|| {
            if self.dir.is_dir() {
                files::SkillFiles::list(&self.dir)
            } else {
                files::SkillFiles::default()
            }
        })
    }

    /// The same skill with `SKILL.md` holding `text` instead (fixes are checked this way before
    /// anything is written).
    pub fn with_text(&self, text: String) -> Skill {
        Skill {
            document: Ok(Document::parse(Source::new(text))),
            ..self.clone()
        }
    }

    /// The manifest, when the frontmatter parsed into a mapping.
    pub fn manifest(&self) -> Option<&Manifest> {
        self.document.as_ref().ok()?.manifest().as_ref().ok()
    }

    /// The path diagnostics about the manifest file should name.
    pub fn file_path(&self) -> PathBuf {
        self.file.clone().unwrap_or_else(|| self.dir.join(SKILL_MD))
    }

    /// True when the manifest file is the lower-case `skill.md` fallback.
    pub fn uses_lowercase_file(&self) -> bool {
        self.file
            .as_deref()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "skill.md")
    }
}

/// The size of `file` when the walk that found the skill saw it as a regular file.
fn listed_size(location: &SkillLocation, file: &Path) -> Option<u64> {
    let name = file.file_name()?.to_str()?;
    let entry = location.files.as_ref()?.get(name)?;
    (entry.kind == files::FileKind::File).then_some(entry.size)
}

/// The directory's own name as agents see it in their skill root: a symbolic link's own name,
/// not its target's, since an agent lists the entries of its root. A path ending in `.` or `..`
/// is resolved first (skills-ref compares against the path as given, so `validate .` sees an
/// empty name; we do not repeat that bug). Every folder name of a skill (lint's, an archive's,
/// an install's) is this one.
pub fn dir_name(dir: &Path) -> String {
    let named = match dir.components().next_back() {
        Some(std::path::Component::Normal(name)) => Some(name.to_string_lossy().into_owned()),
        _ => None,
    };
    named.unwrap_or_else(|| {
        std::fs::canonicalize(dir)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default()
    })
}
