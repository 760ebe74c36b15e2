//! A `SKILL.md` read from disk and parsed: its source text, where the frontmatter lies, and the
//! manifest (or why there is none).

use super::frontmatter::{self, Frontmatter, SplitError};
use super::manifest::Manifest;
use super::source::{DecodeError, Source};
use super::span::{Position, Span};
use super::yaml;
use std::path::{Path, PathBuf};

/// A decoded `SKILL.md` and its parse.
#[derive(Debug, Clone)]
pub struct Document {
    /// The text as on disk.
    pub source: Source,
    /// Where the frontmatter and body are, when the fences were found.
    pub frontmatter: Option<Frontmatter>,
    /// The manifest, or why the frontmatter gave none.
    pub manifest: Result<Manifest, ManifestError>,
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
    let manifest = document.manifest.ok()?;
    manifest.value("name")?.as_str().map(str::to_owned)
}

impl Document {
    /// Reads and parses the `SKILL.md` at `path`.
    pub fn read(path: &Path) -> Result<Document, LoadError> {
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
        if meta.len() > crate::limits::FILE_BYTES {
            return Err(LoadError::TooLarge { bytes: meta.len() });
        }
        let bytes = super::files::read_sized(path, meta.len()).map_err(io_error)?;
        let source = Source::decode(bytes).map_err(LoadError::Decode)?;
        Ok(Document::parse(source))
    }

    /// Splits and parses text already in memory.
    pub fn parse(source: Source) -> Document {
        let (frontmatter, manifest) = match frontmatter::split(&source.text) {
            Ok(fm) => (Some(fm), parse_manifest(&source, fm)),
            Err(SplitError::Missing) => (None, Err(ManifestError::NoFrontmatter)),
            Err(SplitError::Unclosed) => (None, Err(ManifestError::Unclosed)),
        };
        Document {
            source,
            frontmatter,
            manifest,
        }
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
            d.manifest.unwrap_err(),
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
            doc("---\n---\n").manifest,
            Err(ManifestError::NotMapping { .. })
        ));
        assert!(matches!(
            doc("---\n- a\n---\n").manifest,
            Err(ManifestError::NotMapping { .. })
        ));
        assert!(matches!(
            doc("---\n# c\n---\n").manifest,
            Err(ManifestError::NotMapping { .. })
        ));
    }

    #[test]
    fn key_spans_are_file_offsets() {
        let d = doc("---\nname: a\n---\n");
        let m = d.manifest.unwrap();
        assert_eq!(d.source.slice(m.get("name").unwrap().key_span), "name");
    }
}
