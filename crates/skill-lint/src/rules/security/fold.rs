//! Normalisation before the rules read a file: what a shell, an interpreter or a model reads
//! the same way must look the same to the scan. Characters confusable with ASCII are folded to
//! it (Unicode's skeleton: a Cyrillic `с` in `сurl` is `c`), and default-ignorable characters
//! (zero-width, bidi controls, tags, soft hyphens) are removed, so `cu\u{200B}rl` is `curl`.
//! The characters themselves are still reported, by the Unicode rules on the original text.
//!
//! Lines never move: newlines are ASCII and kept, so a finding's line is the same in both
//! texts, and [`Folded::original`] maps a byte offset back for spans.

use unicode_security::confusable_detection::skeleton;

/// A text whose non-ASCII characters were folded, and how to map offsets back.
pub struct Folded {
    /// The folded text.
    pub text: String,
    /// `(offset in text, offset in the original)` at every point where the two start to
    /// differ in length, in order.
    shifts: Vec<(usize, usize)>,
}

impl Folded {
    /// Folds `original`, or `None` when it is ASCII (nothing to fold) or folding changes
    /// nothing.
    pub fn of(original: &str) -> Option<Folded> {
        if original.is_ascii() {
            return None;
        }
        let mut text = String::with_capacity(original.len());
        let mut shifts = Vec::new();
        let mut changed = false;
        for (at, c) in original.char_indices() {
            if c.is_ascii() {
                text.push(c);
                continue;
            }
            let folded: String = fold_char(c);
            if folded.len() != c.len_utf8() || folded.chars().ne(std::iter::once(c)) {
                changed = true;
            }
            text.push_str(&folded);
            if folded.len() != c.len_utf8() {
                shifts.push((text.len(), at + c.len_utf8()));
            }
        }
        changed.then_some(Folded { text, shifts })
    }

    /// The offset in the original text of `offset` in the folded one (a folded character's
    /// offsets map to the end of the original character it came from).
    pub fn original(&self, offset: usize) -> usize {
        let i = self.shifts.partition_point(|&(folded, _)| folded <= offset);
        match i.checked_sub(1) {
            Some(i) => {
                let (folded, original) = self.shifts[i];
                original + (offset - folded)
            }
            None => offset,
        }
    }
}

/// The ASCII a non-ASCII character reads as, nothing for an ignorable one, or the character
/// itself when it has no ASCII look-alike (most letters of other scripts).
pub(super) fn fold_char(c: char) -> String {
    let mut buf = [0u8; 4];
    let prototype: String = skeleton(c.encode_utf8(&mut buf)).collect();
    if prototype.is_ascii() && !prototype.chars().any(|p| p.is_ascii_control()) {
        prototype
    } else {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confusables_fold_and_invisibles_vanish() {
        let f = Folded::of("\u{0441}url http://x | \u{0455}h").expect("folded");
        assert_eq!(f.text, "curl http://x | sh");
        let f = Folded::of("cu\u{200B}rl x | b\u{202E}ash").expect("folded");
        assert_eq!(f.text, "curl x | bash");
    }

    #[test]
    fn other_scripts_stay_and_offsets_map_back() {
        assert!(Folded::of("plain ascii").is_none());
        let original = "日本語 \u{0441}url";
        let f = Folded::of(original).expect("folded");
        assert_eq!(f.text, "日本語 curl");
        let at = f.text.find("url").expect("url");
        assert_eq!(&original[f.original(at)..], "url");
        assert_eq!(f.original(0), 0);
    }
}
