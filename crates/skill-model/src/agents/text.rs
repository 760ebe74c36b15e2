//! String rules of the agents' own languages, so that lengths, trims and sort orders agree with
//! theirs to the byte: JavaScript's `String.prototype.trim`, `\s`, `.length` (UTF-16 code units),
//! `localeCompare(x, "en")` (ICU's root collation), and Python's `str.strip`.

use icu_collator::options::CollatorOptions;
use icu_collator::{Collator, CollatorBorrowed};
use std::cmp::Ordering;
use std::sync::OnceLock;

/// JavaScript's `WhiteSpace` and `LineTerminator` code points (what `trim()` and `\s` match).
/// Not Rust's `char::is_whitespace`: JavaScript counts U+FEFF and leaves out U+0085.
pub(crate) fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}'..='\u{d}'
            | ' '
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
            | '\u{feff}'
    )
}

/// `s.trim()` in JavaScript.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// `s.trimEnd()` in JavaScript.
pub fn js_trim_end(s: &str) -> &str {
    s.trim_end_matches(is_js_space)
}

/// `s.length` in JavaScript: UTF-16 code units.
pub fn js_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// `s.replace(/\s+/g, " ").trim()` in JavaScript.
pub fn js_collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_space = false;
    for c in s.chars() {
        if is_js_space(c) {
            in_space = true;
        } else {
            if in_space && !out.is_empty() {
                out.push(' ');
            }
            in_space = false;
            out.push(c);
        }
    }
    out
}

/// The columns a terminal gives `s`, as Bun's `stringWidth` counts them (East Asian wide
/// characters and emoji two, ambiguous ones one, control characters none): Claude Code
/// measures its skills listing this way.
pub fn terminal_width(s: &str) -> usize {
    use unicode_width::UnicodeWidthStr;
    // Whole strings, so that an emoji joined with ZWJ or a variation selector counts as one
    // glyph; control characters, which the string measure counts, count nothing.
    s.split(char::is_control).map(UnicodeWidthStr::width).sum()
}

/// The first `max` UTF-16 code units of `s`, never splitting a surrogate pair (OpenClaw's
/// `truncateUtf16Safe`: a pair that would be cut is left out whole).
pub fn js_truncate(s: &str, max: usize) -> &str {
    let mut units = 0;
    for (i, c) in s.char_indices() {
        let next = units + c.len_utf16();
        if next > max {
            return &s[..i];
        }
        units = next;
    }
    s
}

/// JavaScript's default `Array.prototype.sort` order: UTF-16 code units.
pub(crate) fn js_code_unit_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

fn collator() -> &'static CollatorBorrowed<'static> {
    static COLLATOR: OnceLock<CollatorBorrowed<'static>> = OnceLock::new();
    COLLATOR.get_or_init(|| {
        // Node's `localeCompare(b, "en")` is ICU's collator for English, which has no tailoring:
        // the CLDR root collation with default options (tertiary strength, punctuation not
        // ignored), which is what the default preferences give.
        Collator::try_new(Default::default(), CollatorOptions::default())
            .expect("the collation data for English is compiled into icu_collator")
    })
}

/// `a.localeCompare(b, "en")` in Node.js.
pub fn locale_compare(a: &str, b: &str) -> Ordering {
    collator().compare(a, b)
}

/// Python's `str.isspace()` code points, which `str.strip()` removes.
pub(crate) fn is_py_space(c: char) -> bool {
    matches!(c, '\u{1c}'..='\u{1f}') || c.is_whitespace()
}

/// `s.strip()` in Python.
pub(crate) fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javascript_rules() {
        assert_eq!(js_trim("\u{feff} a \u{85}"), "a \u{85}");
        assert_eq!(js_len("a😀"), 3);
        assert_eq!(js_truncate("ab😀c", 3), "ab");
        assert_eq!(js_truncate("ab😀c", 4), "ab😀");
        assert_eq!(js_collapse_spaces("  a \n\t b  "), "a b");
        assert_eq!(js_code_unit_cmp("B", "a"), Ordering::Less);
        assert_eq!(terminal_width("a\nb日…😀"), 7);
        assert_eq!(terminal_width("👨\u{200d}👩\u{200d}👧 ☺\u{fe0f}"), 5);
    }

    #[test]
    fn english_collation_as_node_sorts_it() {
        let mut names = vec!["b", "A", "a_b", "a-b", "ab", "a1", "Zed", "émoji", "emoji"];
        names.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(
            names,
            ["A", "a_b", "a-b", "a1", "ab", "b", "emoji", "émoji", "Zed"]
        );
    }
}
