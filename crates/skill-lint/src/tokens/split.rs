//! o200k's pre-tokenization: the text cut into the pieces byte-pair merging works on, as
//! tiktoken's pattern cuts it (leftmost-first alternatives, tried in order at each position):
//!
//! 1. `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`
//! 2. `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`
//! 3. `\p{N}{1,3}`
//! 4. ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
//! 5. `\s*[\r\n]+`
//! 6. `\s+(?!\S)`
//! 7. `\s+`
//!
//! Matched by hand rather than by a regex engine: every character matches some alternative, so
//! pieces are contiguous and each is found by a few forward runs over character classes. The
//! classes come from regex-syntax's Unicode tables, the ones the regex engines behind tiktoken
//! and bpe-openai use.

use regex_syntax::hir::{Class, HirKind};
use std::sync::LazyLock;

/// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`: what may start a capitalised word.
const UPPER: u8 = 1;
/// `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`: what continues a word.
const LOWER: u8 = 2;
/// `\p{L}`.
const LETTER: u8 = 4;
/// `\p{N}`.
const NUMBER: u8 = 8;
/// `\s`.
const SPACE: u8 = 16;
/// `\r` or `\n`.
const NEWLINE: u8 = 32;

/// The classes of the characters beyond ASCII, as sorted ranges per class.
struct Tables {
    ranges: Vec<(u8, Vec<(char, char)>)>,
    ascii: [u8; 128],
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let ranges: Vec<(u8, Vec<(char, char)>)> = [
        (UPPER, r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]"),
        (LOWER, r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]"),
        (LETTER, r"\p{L}"),
        (NUMBER, r"\p{N}"),
        (SPACE, r"\s"),
    ]
    .into_iter()
    .map(|(bit, pattern)| (bit, unicode_ranges(pattern)))
    .collect();
    let mut tables = Tables {
        ranges,
        ascii: [0; 128],
    };
    for b in 0..128u8 {
        tables.ascii[b as usize] = tables.lookup(char::from(b));
    }
    tables
});

fn unicode_ranges(pattern: &str) -> Vec<(char, char)> {
    let hir = regex_syntax::parse(pattern).expect("a valid Unicode class");
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .map(|r| (r.start(), r.end()))
            .collect(),
        _ => unreachable!("{pattern} is a Unicode class"),
    }
}

impl Tables {
    fn lookup(&self, c: char) -> u8 {
        let mut bits = 0;
        for (bit, ranges) in &self.ranges {
            let i = ranges.partition_point(|&(_, end)| end < c);
            if ranges.get(i).is_some_and(|&(start, _)| start <= c) {
                bits |= bit;
            }
        }
        if c == '\r' || c == '\n' {
            bits |= NEWLINE;
        }
        bits
    }

    fn bits(&self, c: char) -> u8 {
        match self.ascii.get(c as usize) {
            Some(bits) => *bits,
            None => self.lookup(c),
        }
    }
}

/// The pieces of `text`, in order; together they are the whole text.
pub fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let tables = &*TABLES;
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let end = Cutter { text, tables }.piece_end(at);
        let piece = &text[at..end];
        at = end;
        Some(piece)
    })
}

struct Cutter<'a> {
    text: &'a str,
    tables: &'a Tables,
}

impl Cutter<'_> {
    /// The character at byte `i` with its classes and its end, if `i` is not the end.
    fn at(&self, i: usize) -> Option<(char, u8, usize)> {
        // Most text is ASCII: one byte and one table load, without decoding.
        let &byte = self.text.as_bytes().get(i)?;
        if byte.is_ascii() {
            return Some((
                char::from(byte),
                self.tables.ascii[usize::from(byte)],
                i + 1,
            ));
        }
        let c = self.text[i..].chars().next()?;
        Some((c, self.tables.bits(c), i + c.len_utf8()))
    }

    /// The end of the run of characters from `i` whose classes satisfy `keep`.
    fn run(&self, mut i: usize, keep: impl Fn(u8) -> bool) -> usize {
        while let Some((_, bits, next)) = self.at(i) {
            if !keep(bits) {
                break;
            }
            i = next;
        }
        i
    }

    fn piece_end(&self, i: usize) -> usize {
        let (c, bits, after) = self.at(i).expect("not at the end");
        self.word(i, bits, after)
            .or_else(|| (bits & NUMBER != 0).then(|| self.digits(i)))
            .or_else(|| self.punctuation(i, c))
            .unwrap_or_else(|| self.whitespace(i))
    }

    /// Alternatives 1 and 2, each first with the optional leading character, then without.
    fn word(&self, i: usize, bits: u8, after: usize) -> Option<usize> {
        let lead = (bits & (NEWLINE | LETTER | NUMBER) == 0).then_some(after);
        let starts = [lead, Some(i)];
        let end = starts
            .iter()
            .flatten()
            .find_map(|&s| self.lower_word(s))
            .or_else(|| {
                starts.iter().flatten().find_map(|&s| {
                    let k = self.run(s, |b| b & UPPER != 0);
                    (k > s).then(|| self.run(k, |b| b & LOWER != 0))
                })
            })?;
        Some(self.contraction(end))
    }

    /// `U* L+` from `s`: the longest run of U, then L; when the run of U is followed by no L,
    /// U gives back characters until its last one that is also L ends the match.
    fn lower_word(&self, s: usize) -> Option<usize> {
        let mut i = s;
        let mut last_lower_end = None;
        while let Some((_, bits, next)) = self.at(i) {
            if bits & UPPER == 0 {
                break;
            }
            if bits & LOWER != 0 {
                last_lower_end = Some(next);
            }
            i = next;
        }
        match self.at(i) {
            Some((_, bits, _)) if bits & LOWER != 0 => Some(self.run(i, |b| b & LOWER != 0)),
            _ => last_lower_end,
        }
    }

    /// `(?i:'s|'t|'re|'ve|'m|'ll|'d)?` at `i`.
    fn contraction(&self, i: usize) -> usize {
        let mut chars = self.text[i..].chars();
        if chars.next() != Some('\'') {
            return i;
        }
        let letter = |c: Option<char>| match c {
            Some('\u{17F}') => Some('s'),
            Some(c) if c.is_ascii() => Some(c.to_ascii_lowercase()),
            _ => None,
        };
        let first = chars.clone().next();
        let len = match letter(first) {
            Some('s' | 't' | 'm' | 'd') => 1,
            Some('r' | 'v') if letter(chars.clone().nth(1)) == Some('e') => 2,
            Some('l') if letter(chars.clone().nth(1)) == Some('l') => 2,
            _ => return i,
        };
        i + 1 + chars.take(len).map(char::len_utf8).sum::<usize>()
    }

    /// `\p{N}{1,3}`.
    fn digits(&self, i: usize) -> usize {
        let mut end = i;
        for _ in 0..3 {
            match self.at(end) {
                Some((_, bits, next)) if bits & NUMBER != 0 => end = next,
                _ => break,
            }
        }
        end
    }

    /// ` ?[^\s\p{L}\p{N}]+[\r\n/]*`.
    fn punctuation(&self, i: usize, c: char) -> Option<usize> {
        let other = |b: u8| b & (SPACE | LETTER | NUMBER) == 0;
        let from = if c == ' ' { [i + 1, i] } else { [i, i] };
        from.into_iter().find_map(|s| {
            let k = self.run(s, other);
            (k > s).then(|| {
                let mut end = k;
                while let Some((c, _, next)) = self.at(end) {
                    if !matches!(c, '\r' | '\n' | '/') {
                        break;
                    }
                    end = next;
                }
                end
            })
        })
    }

    /// Alternatives 5 to 7 on a run of white space: up to its last line break; else all of it
    /// at the end of the text; else all but its last character when that is followed by
    /// something else; else the one character.
    fn whitespace(&self, i: usize) -> usize {
        let mut end = i;
        let mut last = i;
        let mut newline_end = None;
        while let Some((_, bits, next)) = self.at(end) {
            if bits & SPACE == 0 {
                break;
            }
            if bits & NEWLINE != 0 {
                newline_end = Some(next);
            }
            last = end;
            end = next;
        }
        if let Some(e) = newline_end {
            e
        } else if end == self.text.len() || last == i {
            end
        } else {
            last
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator, so a failure names a reproducible text.
    fn texts(pieces: &[&str], count: usize, len: usize) -> Vec<String> {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        (0..count)
            .map(|_| {
                (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        pieces[(state % pieces.len() as u64) as usize]
                    })
                    .collect()
            })
            .collect()
    }

    /// Characters from every class the pattern tells apart, and the places they meet.
    const PIECES: &[&str] = &[
        "a",
        "Z",
        "é",
        "É",
        "ǅ",
        "ʰ",
        "中",
        "\u{301}",
        "\u{903}",
        "1",
        "٣",
        "½",
        "Ⅳ",
        " ",
        "  ",
        "\t",
        "\n",
        "\r",
        "\r\n",
        "\u{a0}",
        "\u{2003}",
        "\u{85}",
        "\u{b}",
        "\u{c}",
        "\u{1c}",
        "'",
        "'s",
        "'S",
        "'ſ",
        "'re",
        "'Ve",
        "'LL",
        "'d",
        "'m",
        "'t",
        "'x",
        ".",
        "/",
        "//",
        "-",
        "_",
        "#",
        "`",
        "😀",
        "\u{200b}",
        "\u{e0041}",
        "\u{10ffff}",
        "\u{ffff}",
        "=",
    ];

    #[test]
    fn cuts_as_bpe_openai_cuts() {
        let reference = bpe_openai::o200k_base();
        for len in [1, 2, 3, 5, 8, 40] {
            for text in texts(PIECES, 4000, len) {
                let ours: Vec<&str> = pieces(&text).collect();
                let theirs: Vec<&str> = reference.split(&text).collect();
                assert_eq!(ours, theirs, "{text:?}");
            }
        }
    }

    #[test]
    fn contractions_fold_as_the_pattern_does() {
        let pattern = regex::Regex::new(r"\A(?i:'s|'t|'re|'ve|'m|'ll|'d)").unwrap();
        let cutter = Cutter {
            text: "",
            tables: &TABLES,
        };
        for c in (0..0x11_0000).filter_map(char::from_u32) {
            for tail in ["", "e", "l", "E", "L"] {
                let text = format!("'{c}{tail}");
                let expected = pattern.find(&text).map_or(0, |m| m.end());
                let ours = Cutter {
                    text: &text,
                    ..cutter
                }
                .contraction(0);
                assert_eq!(ours, expected, "{text:?}");
            }
        }
    }
}
