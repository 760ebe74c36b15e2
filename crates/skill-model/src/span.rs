//! Byte spans inside a `SKILL.md`, and their translation to 1-based lines and columns.

use std::ops::Range;

/// A half-open byte range into the text of a `SKILL.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The byte range this span covers.
    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

/// A 1-based line and column (columns count characters, as editors do).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column in characters.
    pub column: usize,
}

impl Position {
    /// The position of byte `offset` in `text`, for a single lookup (a [`LineIndex`] answers
    /// many); an offset past the end or inside a character is moved back to a boundary.
    pub fn of(text: &str, offset: usize) -> Position {
        let mut at = offset.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &text[..at];
        Position {
            line: before.matches('\n').count() + 1,
            column: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
        }
    }
}

/// Start offsets of every line, to turn byte offsets into positions.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the lines of `text` (a line ends at `\n`).
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        // Counted first: growing the list as lines are found was most of the index's cost.
        let mut starts = Vec::with_capacity(memchr::memchr_iter(b'\n', bytes).count() + 1);
        starts.push(0);
        starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1));
        LineIndex { starts }
    }

    /// The position of byte `offset` in `text` (clamped to the text's end).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let column = text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(offset - start);
        Position {
            line: line + 1,
            column: column + 1,
        }
    }

    /// The 1-based line holding byte `offset`.
    pub fn position_line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset)
    }

    /// The byte offset where 1-based `line` starts, if the text has that line.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.starts.get(line.checked_sub(1)?).copied()
    }

    /// The number of lines (a final line without `\n` counts).
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// True for an index of no text at all (never: an empty text has one empty line).
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters_not_bytes() {
        let text = "ab\nhé llo\n";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 0), Position { line: 1, column: 1 });
        assert_eq!(index.position(text, 3), Position { line: 2, column: 1 });
        assert_eq!(index.position(text, 6), Position { line: 2, column: 3 });
        assert_eq!(index.position(text, 100), Position { line: 3, column: 1 });
    }
}
