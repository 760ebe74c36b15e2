//! o200k token counts for budgets, computed only where a budget could be exceeded.
//!
//! Counting is tiktoken's: the text cut into pieces by o200k's pattern ([`split`]), each piece
//! merged byte pair by byte pair over the vocabulary's ranks ([`vocabulary`]). Both are done
//! here rather than through the bpe-openai crate, whose tokenizer loads three automata (70 MiB
//! and 70 ms) that a count does not need: this vocabulary is a 2 MiB table built in a few
//! milliseconds, and the tests hold every count to bpe-openai's. Only a piece longer than
//! [`LONG_PIECE`] goes to bpe-openai, which counts it in linear time.
//!
//! A text is still counted only when a cheap estimate (ASCII bytes / 4 + other characters)
//! reaches the budget. English Markdown runs at 3.5 to 4.5 bytes a token, so a skipped text is
//! under budget, or (for dense code at about 3 bytes a token) at most a quarter over it; every
//! count reported is exact.

mod split;
mod vocabulary;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::LazyLock;
use vocabulary::{Scratch, Vocabulary};

static VOCABULARY: LazyLock<Vocabulary> = LazyLock::new(Vocabulary::load);

/// Pieces longer than this are runs of one class (letters, spaces, punctuation) that no real
/// text has, but a hostile one can: merging a 10 MB run pair by pair takes seconds and a heap
/// of 400 MB, so such a piece is counted by bpe-openai's encoder, loaded only then.
const LONG_PIECE: usize = 16 * 1024;

/// Loads the vocabulary on another thread, so its few milliseconds overlap other work.
pub fn preload() {
    std::thread::spawn(|| LazyLock::force(&VOCABULARY));
}

/// The exact o200k token count of `text` when it exceeds `budget`; `None` when it does not, or
/// when a quick estimate (a quarter of the ASCII bytes plus the other characters) is under the
/// budget: counting exactly everywhere would double lint's time, and the estimate can miss a
/// text that is over by less than about a quarter.
pub(crate) fn over_budget(text: &str, budget: usize) -> Option<usize> {
    // Every character adds at least a quarter per byte to the estimate, so a text of four bytes
    // per budget token or more is counted without estimating it.
    if text.len() <= budget || (text.len() / 4 < budget && estimate(text) < budget) {
        return None;
    }
    let count = count(text);
    (count > budget).then_some(count)
}

/// The exact o200k token count of `text`, as tiktoken counts it (no normalisation, no
/// special tokens): its pieces, then the byte-pair merges of each. Counts are kept per thread
/// by piece, because words repeat and the vocabulary is too big to stay in cache.
pub fn count(text: &str) -> usize {
    thread_local! {
        static COUNTS: RefCell<Counts> = RefCell::new(Counts::default());
    }
    let vocabulary = &*VOCABULARY;
    let mut scratch = Scratch::default();
    COUNTS.with_borrow_mut(|counts| {
        if counts.short.len() + counts.long.len() > 100_000 {
            counts.short.clear();
            counts.long.clear();
        }
        split::pieces(text)
            .map(|piece| {
                let piece = piece.as_bytes();
                let merge = |scratch: &mut Scratch| vocabulary.count(piece, scratch);
                match ShortPiece::new(piece) {
                    Some(key) => *counts
                        .short
                        .entry(key)
                        .or_insert_with(|| merge(&mut scratch)),
                    None => match counts.long.get(piece) {
                        Some(n) => *n,
                        None if piece.len() > LONG_PIECE => {
                            bpe_openai::o200k_base().bpe.count(piece)
                        }
                        None => {
                            let n = merge(&mut scratch);
                            counts.long.insert(piece.into(), n);
                            n
                        }
                    },
                }
            })
            .sum()
    })
}

/// The per-thread counts by piece: most pieces are short words, kept in the key itself.
#[derive(Default)]
struct Counts {
    short: HashMap<ShortPiece, usize, PieceHash>,
    long: HashMap<Box<[u8]>, usize, PieceHash>,
}

/// A piece of up to 15 bytes held in the key (its length in the last byte), so a lookup
/// compares two words instead of following a pointer to the piece's own allocation.
#[derive(PartialEq, Eq, Hash)]
struct ShortPiece([u8; 16]);

impl ShortPiece {
    fn new(piece: &[u8]) -> Option<ShortPiece> {
        let mut key = [0; 16];
        key.get_mut(..piece.len())?.copy_from_slice(piece);
        key[15] = u8::try_from(piece.len()).ok().filter(|&n| n < 16)?;
        Some(ShortPiece(key))
    }
}

/// The vocabulary's hash for the cache's keys: pieces are a few bytes of the skill's own text,
/// so SipHash's resistance to chosen keys buys nothing and costs a third of each lookup.
#[derive(Clone, Copy, Default)]
struct PieceHash;

impl std::hash::BuildHasher for PieceHash {
    type Hasher = PieceHasher;
    fn build_hasher(&self) -> PieceHasher {
        PieceHasher(0)
    }
}

struct PieceHasher(u64);

impl std::hash::Hasher for PieceHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 ^= vocabulary::hash(bytes);
    }
}

fn estimate(text: &str) -> usize {
    // A character beyond ASCII starts with a byte 0b11xx_xxxx. Counted in byte-wide counters
    // over blocks short enough not to overflow them, which compilers turn into vector compares
    // and subtractions; a usize counter per byte stays scalar.
    let mut ascii = 0;
    let mut other = 0;
    for block in text.as_bytes().chunks(128) {
        let (mut a, mut o) = (0u8, 0u8);
        for &b in block {
            a += u8::from(b < 0x80);
            o += u8::from(b >= 0xC0);
        }
        ascii += usize::from(a);
        other += usize::from(o);
    }
    ascii / 4 + other
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_is_a_quarter_of_ascii_plus_other_characters() {
        let texts = [
            String::new(),
            "a".repeat(127),
            "ab".repeat(300),
            "é".repeat(200) + &"x".repeat(255),
            "技能".repeat(1000),
            "🦀 crab ".repeat(77),
        ];
        for text in &texts {
            let ascii = text.chars().filter(char::is_ascii).count();
            let other = text.chars().count() - ascii;
            assert_eq!(estimate(text), ascii / 4 + other, "{text:?}");
            // What lets `over_budget` skip the estimate of a long text.
            assert!(estimate(text) >= text.len() / 4, "{text:?}");
        }
    }

    #[test]
    fn short_pieces_are_keys_of_their_own() {
        assert!(ShortPiece::new(&[7; 15]).is_some());
        assert!(ShortPiece::new(&[7; 16]).is_none());
        // Padding cannot make two pieces one key: the length is part of it.
        assert!(ShortPiece::new(b"ab") != ShortPiece::new(b"ab\0"));
        assert!(ShortPiece::new(b"") != ShortPiece::new(b"\0"));
        // Repeated short and long pieces come from the cache and count the same.
        let text = "tokenization tokenization supercalifragilisticexpialidocious \
                    supercalifragilisticexpialidocious";
        assert_eq!(count(text), count(text));
        assert_eq!(count(text), bpe_openai::o200k_base().count(text));
    }

    #[test]
    fn counts_only_when_over() {
        assert_eq!(over_budget("hello world", 5), None);
        let long = vec!["word"; 100].join(" ");
        assert_eq!(over_budget(&long, 50), Some(100));
        assert_eq!(over_budget(&long, 99), Some(100));
        assert_eq!(over_budget(&long, 150), None);
        let cjk = "技能".repeat(300);
        assert!(over_budget(&cjk, 200).is_some());
        let text =
            "Use when the user asks for a PDF. Then run `pdftotext -layout in.pdf out.txt`.\n";
        assert_eq!(count(text), bpe_openai::o200k_base().count(text));
    }

    /// Every SKILL.md of the shared corpus counts as bpe-openai counts it (needs ../shared).
    #[test]
    fn counts_the_corpus_as_bpe_openai_does() {
        let Some(corpus) = crate::testing::shared_corpus() else {
            return;
        };
        let reference = bpe_openai::o200k_base();
        let mut checked = 0;
        for (path, text) in crate::testing::texts_under(&corpus, crate::testing::is_skill_md) {
            assert_eq!(count(&text), reference.count(&text), "{}", path.display());
            checked += 1;
        }
        assert!(checked > 3000, "{checked} files");
    }

    /// A hostile body of one long word, and long runs of the other classes, count exactly.
    #[test]
    fn counts_long_runs_as_bpe_openai_does() {
        let reference = bpe_openai::o200k_base();
        for text in [
            "a".repeat(LONG_PIECE + 1),
            format!("x{}", "é".repeat(LONG_PIECE)),
            " ".repeat(3 * LONG_PIECE),
            "-=".repeat(LONG_PIECE),
            "ab".repeat(LONG_PIECE / 2),
        ] {
            assert_eq!(count(&text), reference.count(&text), "{}", &text[..8]);
        }
    }
}
