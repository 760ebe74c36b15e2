//! The text of a `SKILL.md` as read from disk: decoded, with its BOM and line endings remembered
//! and a line index for diagnostics.

use super::span::{LineIndex, Position, Span};
use std::sync::OnceLock;

/// A decoded `SKILL.md`. Offsets everywhere refer to `text`, which keeps the BOM and `\r\n`
/// exactly as on disk, so spans can be used to edit the file byte for byte.
#[derive(Debug, Clone)]
pub struct Source {
    /// The whole file, BOM and CRLF included.
    pub text: String,
    /// True when the file starts with a UTF-8 byte-order mark.
    pub has_bom: bool,
    /// Number of lines ending in `\r\n`.
    pub crlf_lines: usize,
    /// Built on the first position asked for: a skill replayed from lint's cache may need none.
    lines: OnceLock<LineIndex>,
}

/// Why bytes could not be taken as a `SKILL.md` text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// A NUL byte: the file is binary, not text.
    Binary {
        /// Where the first NUL byte is.
        position: Position,
    },
    /// Bytes that are not UTF-8.
    NotUtf8 {
        /// Where the first byte that is not UTF-8 is.
        position: Position,
    },
    /// A UTF-16 or UTF-32 byte-order mark: text, but not in UTF-8.
    WideEncoding {
        /// `UTF-16LE`, `UTF-16BE`, `UTF-32LE` or `UTF-32BE`.
        encoding: &'static str,
    },
}

/// The encoding a UTF-16 or UTF-32 byte-order mark announces (the UTF-32 ones first: UTF-32LE's
/// mark starts with UTF-16LE's).
fn wide_encoding(bytes: &[u8]) -> Option<&'static str> {
    const MARKS: [(&[u8], &str); 4] = [
        (b"\xFF\xFE\x00\x00", "UTF-32LE"),
        (b"\x00\x00\xFE\xFF", "UTF-32BE"),
        (b"\xFF\xFE", "UTF-16LE"),
        (b"\xFE\xFF", "UTF-16BE"),
    ];
    MARKS
        .iter()
        .find(|(mark, _)| bytes.starts_with(mark))
        .map(|(_, name)| *name)
}

/// The UTF-8 byte-order mark.
pub const BOM: &str = "\u{feff}";

impl Source {
    /// Decodes `bytes` as UTF-8 text.
    pub fn decode(bytes: Vec<u8>) -> Result<Source, DecodeError> {
        if let Some(encoding) = wide_encoding(&bytes) {
            return Err(DecodeError::WideEncoding { encoding });
        }
        if let Some(nul) = memchr::memchr(0, &bytes) {
            return Err(DecodeError::Binary {
                position: lossy_position(&bytes, nul),
            });
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            let valid = e.utf8_error().valid_up_to();
            DecodeError::NotUtf8 {
                position: lossy_position(e.as_bytes(), valid),
            }
        })?;
        Ok(Source::new(text))
    }

    /// Wraps text that is already decoded.
    pub fn new(text: String) -> Source {
        let has_bom = text.starts_with(BOM);
        let crlf_lines = memchr::memmem::find_iter(text.as_bytes(), b"\r\n").count();
        Source {
            text,
            has_bom,
            crlf_lines,
            lines: OnceLock::new(),
        }
    }

    /// The line and column of byte `offset`.
    pub fn position(&self, offset: usize) -> Position {
        self.lines().position(&self.text, offset)
    }

    fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }

    /// The text of `span`, or `""` when the span does not fall on character boundaries.
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }

    /// The span of the whole 1-based `line`, without its line ending.
    pub fn line_span(&self, line: usize) -> Option<Span> {
        let start = self.lines().line_start(line)?;
        let rest = &self.text[start..];
        let len = rest.find('\n').unwrap_or(rest.len());
        let len = if rest[..len].ends_with('\r') {
            len - 1
        } else {
            len
        };
        Some(Span::new(start, start + len))
    }

    /// The span of the whole 1-based `line` with its own line ending (`\n`, `\r\n`, or none at
    /// the end of the text): what removing the line removes, or where the next line starts, in
    /// a file whose lines do not all end alike.
    pub fn line_with_ending(&self, line: usize) -> Option<Span> {
        let start = self.lines().line_start(line)?;
        let rest = &self.text[start..];
        let len = rest.find('\n').map_or(rest.len(), |i| i + 1);
        Some(Span::new(start, start + len))
    }

    /// The byte offset of 1-based `line` and `column` (in characters), clamped to the line.
    pub fn offset_of(&self, line: usize, column: usize) -> Option<usize> {
        let span = self.line_span(line)?;
        let text = self.slice(span);
        let within = text
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(text.len(), |(i, _)| i);
        Some(span.start + within)
    }
}

/// The position of byte `offset` in bytes that may not all be UTF-8.
fn lossy_position(bytes: &[u8], offset: usize) -> Position {
    let before = &bytes[..offset];
    let line = before.iter().filter(|b| **b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    Position { line, column }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_points_at_the_byte() {
        let err = Source::decode(b"---\nname: a\xff\n".to_vec()).unwrap_err();
        assert_eq!(
            err,
            DecodeError::NotUtf8 {
                position: Position { line: 2, column: 8 }
            }
        );
    }

    #[test]
    fn nul_means_binary() {
        let err = Source::decode(b"\x89PNG\r\n\x00".to_vec()).unwrap_err();
        assert!(matches!(err, DecodeError::Binary { .. }));
    }

    #[test]
    fn remembers_bom_and_crlf() {
        let source = Source::decode("\u{feff}---\r\nname: a\r\n---\r\n".into()).unwrap();
        assert!(source.has_bom);
        assert_eq!(source.crlf_lines, 3);
        assert_eq!(source.slice(source.line_span(2).unwrap()), "name: a");
    }
}
