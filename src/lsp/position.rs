//! Offsets in a text as the Language Server Protocol counts them: a zero-based line and a
//! column in UTF-16 code units, which is what editors send and expect whatever the file's bytes.

use lsp_types::{Position, Range};

/// The LSP position of byte `offset` of `text` (clamped to the text, and back to the start of a
/// character it falls inside).
pub(crate) fn at(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Position {
        line: before.matches('\n').count() as u32,
        character: before[line_start..].encode_utf16().count() as u32,
    }
}

/// The LSP range of bytes `start..end` of `text`.
pub(crate) fn range(text: &str, start: usize, end: usize) -> Range {
    Range {
        start: at(text, start),
        end: at(text, end),
    }
}

/// The byte offset of an LSP position in `text` (the end of the line or text when it lies past
/// them).
pub(crate) fn offset(text: &str, position: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..position.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    let mut units = 0;
    for (i, c) in text[line_start..line_end].char_indices() {
        if units >= position.character as usize {
            return line_start + i;
        }
        units += c.len_utf16();
    }
    line_end
}

/// The byte offset of a one-based line and character column (lint's [`skill_model::span::Position`]).
pub(crate) fn from_line_column(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    text[start..]
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(text.len(), |(i, _)| start + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units_and_offsets_come_back() {
        let text = "a\nx😀é = 1\n";
        let after_emoji = "a\nx😀".len();
        assert_eq!(
            at(text, after_emoji),
            Position {
                line: 1,
                character: 3
            }
        );
        assert_eq!(offset(text, at(text, after_emoji)), after_emoji);
        assert_eq!(at(text, after_emoji - 1), at(text, "a\nx".len()));
        assert_eq!(
            offset(
                text,
                Position {
                    line: 9,
                    character: 0
                }
            ),
            text.len()
        );
        assert_eq!(from_line_column(text, 2, 3), "a\nx😀".len());
    }
}
