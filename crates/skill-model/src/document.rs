//! A `SKILL.md` read from disk and parsed: its source text, where the frontmatter lies, and the
//! manifest (or why there is none).

use super::frontmatter::{self, Frontmatter, SplitError};
use super::manifest::Manifest;
use super::source::{DecodeError, Source};
use super::span::{Position, Span};
use super::yaml;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A decoded `SKILL.md` and its parse.
#[derive(Debug, Clone)]
pub struct Document {
    /// The text as on disk.
    pub source: Source,
    /// Where the frontmatter and body are, when the fences were found.
    pub frontmatter: Option<Frontmatter>,
    /// The manifest, or why the frontmatter gave none: parsed on first use, since a lint run
    /// that replays a skill from its cache reads only the text, for the findings' lines.
    manifest: OnceLock<Result<Manifest, ManifestError>>,
}

/// Why a `SKILL.md` could not be read as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// The skill directory has no `SKILL.md` (nor `skill.md`).
    Missing,
    /// `SKILL.md` is a directory.
    IsDirectory,
    /// The file is larger than [`crate::limits::FILE_BYTES`].
    TooLarge {
        /// Its size.
        bytes: u64,
    },
    /// Reading failed (permissions, a dangling or looping symlink, ...).
    Io {
        /// The operating system's message.
        message: String,
    },
    /// The bytes are not UTF-8 text.
    Decode(DecodeError),
    /// `SKILL.md` is a symlink whose target lies outside the skill folder: it is
    /// never read, so a skill cannot make lint print a file such as `~/.git-credentials`.
    SymlinkOutside {
        /// Where the link points.
        target: PathBuf,
    },
}

/// Why the frontmatter did not give a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManifestError {
    /// The file does not start with a `---` line.
    NoFrontmatter,
    /// No closing `---` line.
    Unclosed,
    /// The YAML does not parse.
    Yaml {
        /// The parser's message.
        message: String,
        /// Where in `SKILL.md` the parser stopped.
        position: Position,
    },
    /// The YAML is not a mapping (a list, a scalar, or nothing at all).
    NotMapping {
        /// The frontmatter.
        span: Span,
    },
}

/// The `name` the SKILL.md of the skill folder `dir` declares, if it can be read.
pub fn declared_name(dir: &Path) -> Option<String> {
    let document = Document::read(&dir.join(super::layout::SKILL_MD)).ok()?;
    let manifest = document.into_manifest().ok()?;
    manifest.value("name")?.as_str().map(str::to_owned)
}

impl Document {
    /// Reads and parses the `SKILL.md` at `path`.
    pub fn read(path: &Path) -> Result<Document, LoadError> {
        Document::read_listed(path, None)
    }

    /// [`Document::read`] of a file a listing just saw as a regular file of `listed` bytes, which
    /// spares a `stat` per skill of a lint run.
    pub fn read_listed(path: &Path, listed: Option<u64>) -> Result<Document, LoadError> {
        let size = match listed {
            Some(size) => size,
            None => Document::checked_size(path)?,
        };
        if size > crate::limits::FILE_BYTES {
            return Err(LoadError::TooLarge { bytes: size });
        }
        let bytes = super::files::read_sized(path, size).map_err(io_error)?;
        let read = bytes.len() as u64;
        if read > crate::limits::FILE_BYTES {
            return Err(LoadError::TooLarge { bytes: read });
        }
        let source = Source::decode(bytes).map_err(LoadError::Decode)?;
        Ok(Document::parse(source))
    }

    /// The size of the regular file at `path`, refusing what lint must not read.
    fn checked_size(path: &Path) -> Result<u64, LoadError> {
        let mut meta = std::fs::symlink_metadata(path).map_err(io_error)?;
        if meta.is_symlink() {
            check_link_inside(path)?;
            meta = std::fs::metadata(path).map_err(io_error)?;
        }
        if meta.is_dir() {
            return Err(LoadError::IsDirectory);
        }
        if !meta.is_file() {
            return Err(LoadError::Io {
                message: "not a regular file (a FIFO, socket or device)".to_owned(),
            });
        }
        Ok(meta.len())
    }

    /// Splits text already in memory; its YAML is parsed when [`Document::manifest`] is
    /// first asked for.
    pub fn parse(source: Source) -> Document {
        let (frontmatter, manifest) = match frontmatter::split(&source.text) {
            Ok(fm) => (Some(fm), OnceLock::new()),
            Err(SplitError::Missing) => (None, Err(ManifestError::NoFrontmatter).into()),
            Err(SplitError::Unclosed) => (None, Err(ManifestError::Unclosed).into()),
        };
        Document {
            source,
            frontmatter,
            manifest,
        }
    }

    /// The manifest, or why the frontmatter gave none.
    pub fn manifest(&self) -> &Result<Manifest, ManifestError> {
        self.manifest.get_or_init(|| match self.frontmatter {
            Some(fm) => parse_manifest(&self.source, fm),
            None => Err(ManifestError::NoFrontmatter),
        })
    }

    /// [`Document::manifest`], taken out of the document.
    pub fn into_manifest(self) -> Result<Manifest, ManifestError> {
        self.manifest();
        self.manifest
            .into_inner()
            .unwrap_or(Err(ManifestError::NoFrontmatter))
    }

    /// The body (everything after the frontmatter; the whole file when there is none).
    pub fn body(&self) -> &str {
        match self.frontmatter {
            Some(fm) => self.source.slice(fm.body),
            None => &self.source.text,
        }
    }
}

/// Accepts a symlinked manifest only when its resolved target lies inside its own folder (or
/// when it resolves to nothing, which the read then reports).
fn check_link_inside(path: &Path) -> Result<(), LoadError> {
    let target = std::fs::read_link(path).map_err(io_error)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    // A dangling or looping link cannot be read anyway; the read below says why.
    let Ok(resolved) = std::fs::canonicalize(path) else {
        return Ok(());
    };
    let inside = std::fs::canonicalize(dir).is_ok_and(|dir| resolved.starts_with(dir));
    if inside {
        Ok(())
    } else {
        Err(LoadError::SymlinkOutside { target })
    }
}

fn parse_manifest(source: &Source, fm: Frontmatter) -> Result<Manifest, ManifestError> {
    let yaml_text = source.slice(fm.yaml);
    let node = yaml::parse(yaml_text, fm.yaml.start).map_err(|e| {
        let first_line = source.position(fm.yaml.start).line;
        let position = match (e.line, e.column) {
            (Some(line), Some(column)) => Position {
                line: first_line + line - 1,
                column,
            },
            _ => source.position(fm.yaml.start),
        };
        ManifestError::Yaml {
            message: e.message,
            position,
        }
    })?;
    Manifest::from_node(node, &source.text).ok_or(ManifestError::NotMapping { span: fm.yaml })
}

fn io_error(error: std::io::Error) -> LoadError {
    LoadError::Io {
        message: error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        Document::parse(Source::new(text.to_owned()))
    }

    #[test]
    fn yaml_errors_point_into_skill_md() {
        let d = doc("---\nname: a\ndescription: Use when: x\n---\n");
        assert_eq!(
            d.manifest().clone().unwrap_err(),
            ManifestError::Yaml {
                message: "mapping values are not allowed in this context".into(),
                position: Position {
                    line: 3,
                    column: 22
                },
            }
        );
    }

    #[test]
    fn empty_and_list_frontmatter_are_not_mappings() {
        assert!(matches!(
            doc("---\n---\n").manifest(),
            Err(ManifestError::NotMapping { .. })
        ));
        assert!(matches!(
            doc("---\n- a\n---\n").manifest(),
            Err(ManifestError::NotMapping { .. })
        ));
        assert!(matches!(
            doc("---\n# c\n---\n").manifest(),
            Err(ManifestError::NotMapping { .. })
        ));
    }

    #[test]
    fn key_spans_are_file_offsets() {
        let d = doc("---\nname: a\n---\n");
        let m = d.manifest().as_ref().unwrap();
        assert_eq!(d.source.slice(m.get("name").unwrap().key_span), "name");
    }
}
