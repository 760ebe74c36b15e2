//! Finding a fixed set of words in text, ASCII case-insensitively, leftmost-longest: the
//! trigger pass that reads every byte of every text file a scan sees.
//!
//! A general automaton (Aho-Corasick, a regex DFA) follows one table transition per byte, and
//! on these words it ran at about 3 ns a byte. Here each word is instead looked for through one
//! four-byte window of it, the one made of the rarest letters, so the loop over the text is a
//! hash and one compare per position; the few places where a window matches are then checked
//! against the whole words that own it. Words shorter than four bytes are found through their
//! first two bytes. With AVX2 the loop takes eight positions a step. The result is what `aho_corasick` with `ascii_case_insensitive` and
//! `MatchKind::LeftmostLongest` reports (the tests hold the two side by side).

use std::cmp::Reverse;

/// Bits of the window table's index: 4,096 slots for a few hundred windows.
const SLOT_BITS: u32 = 12;

/// The most distinct two-byte starts of short words the vector loop compares.
const MAX_VECTOR_SHORT: usize = 4;

/// Sets the ASCII lower-case bit of every byte of a window. Letters fold to lower case; a few
/// other bytes fold onto others (`[` onto `{`), which only adds candidates the check rejects.
const FOLD: u32 = 0x2020_2020;

/// A set of words and the tables that find them.
#[derive(Debug)]
pub struct Words {
    words: Vec<Box<[u8]>>,
    /// The folded window of each slot (0 for none: a folded window is never 0).
    slots: Box<[u32; 1 << SLOT_BITS]>,
    /// The words owning each slot's window: (word, offset of the window in it).
    owners: Vec<Vec<(u16, u8)>>,
    /// One bit per folded two-byte start of a word shorter than four bytes.
    short_starts: Box<[u64; 1 << 10]>,
    /// The same starts as a list, for the vector loop.
    short_keys: Vec<u32>,
    /// The words shorter than four bytes.
    short: Vec<u16>,
    multiplier: u32,
}

/// One word found: where it starts and which word it is (its index in the set).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// Byte offset of the word's first byte.
    pub start: usize,
    /// Index of the word in the list given to [`Words::new`].
    pub word: usize,
}

impl Words {
    /// The finder for `words`: a few hundred of them (see [`perfect_multiplier`]), each 2 to 255
    /// bytes long.
    pub fn new<W: AsRef<[u8]>>(words: &[W]) -> Words {
        let words: Vec<Box<[u8]>> = words.iter().map(|w| w.as_ref().into()).collect();
        let mut windows: Vec<(u32, u16, u8)> = Vec::new();
        let mut short = Vec::new();
        let mut short_starts = Box::new([0u64; 1 << 10]);
        let mut short_keys = Vec::new();
        for (i, word) in words.iter().enumerate() {
            let i = u16::try_from(i).expect("at most 65,536 words");
            assert!(word.len() >= 2, "a word of two bytes or more");
            if word.len() < 4 {
                let key = u32::from(u16::from_le_bytes([word[0], word[1]]) | 0x2020);
                short_starts[key as usize >> 6] |= 1 << (key & 63);
                if !short_keys.contains(&key) {
                    short_keys.push(key);
                }
                short.push(i);
                continue;
            }
            let offset = rarest_window(word);
            let key = fold4(&word[offset..offset + 4]);
            windows.push((key, i, u8::try_from(offset).expect("words under 256 bytes")));
        }
        let multiplier = perfect_multiplier(&windows);
        let mut slots = Box::new([0; 1 << SLOT_BITS]);
        let mut owners = vec![Vec::new(); 1 << SLOT_BITS];
        for (key, word, offset) in windows {
            let slot = slot_of(key, multiplier);
            slots[slot] = key;
            owners[slot].push((word, offset));
        }
        Words {
            words,
            slots,
            owners,
            short_starts,
            short_keys,
            short,
            multiplier,
        }
    }

    /// Every word in `text`, leftmost first; at one start the longest word, and the next search
    /// resumes after it.
    pub fn find(&self, text: &[u8]) -> Vec<Found> {
        self.find_with(text, true)
    }

    /// [`Words::find`], with or without the vector loop where the machine has one.
    fn find_with(&self, text: &[u8], vector: bool) -> Vec<Found> {
        let mut all: Vec<(usize, Reverse<usize>, u16)> = Vec::new();
        let done = if vector {
            self.scan_vector(text, &mut all)
        } else {
            0
        };
        self.scan(text, done, &mut all);
        for i in text.len().saturating_sub(3)..text.len() {
            self.check_short(text, i, &mut all);
        }
        all.sort_unstable();
        let mut found = Vec::new();
        let mut next = 0;
        for (start, Reverse(len), word) in all {
            if start >= next {
                found.push(Found {
                    start,
                    word: usize::from(word),
                });
                next = start + len;
            }
        }
        found
    }

    /// The candidates of every position from `from` that starts a four-byte window.
    fn scan(&self, text: &[u8], from: usize, all: &mut Vec<(usize, Reverse<usize>, u16)>) {
        // Locals and fixed-size tables keep the loop in registers and free of bounds checks.
        let (slots, short_starts, multiplier) =
            (&*self.slots, &*self.short_starts, self.multiplier);
        for (i, window) in text.windows(4).enumerate().skip(from) {
            let key = u32::from_le_bytes([window[0], window[1], window[2], window[3]]) | FOLD;
            let start = (key & 0xFFFF) as usize;
            if slots[slot_of(key, multiplier)] == key
                || short_starts[start >> 6] & (1 << (start & 63)) != 0
            {
                self.check_candidate(text, i, key, all);
            }
        }
    }

    /// The candidates of the positions a vector loop covers, eight at a time; returns how many
    /// positions it covered (none without AVX2, or with more short words than it compares).
    fn scan_vector(&self, text: &[u8], all: &mut Vec<(usize, Reverse<usize>, u16)>) -> usize {
        #[cfg(target_arch = "x86_64")]
        if self.short_keys.len() <= MAX_VECTOR_SHORT && std::arch::is_x86_feature_detected!("avx2")
        {
            // SAFETY: AVX2 is present, checked just above.
            return unsafe { self.scan_avx2(text, all) };
        }
        let _ = (text, all);
        0
    }

    /// Eight positions per step: their windows shuffled out of one 16-byte load, hashed, their
    /// slots gathered and compared, and the short starts compared, as in [`Words::scan`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn scan_avx2(&self, text: &[u8], all: &mut Vec<(usize, Reverse<usize>, u16)>) -> usize {
        use std::arch::x86_64::*;
        let windows_of = _mm256_setr_epi8(
            0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6, 4, 5, 6, 7, 5, 6, 7, 8, 6, 7, 8, 9, 7,
            8, 9, 10,
        );
        let fold = _mm256_set1_epi32(FOLD as i32);
        let multiplier = _mm256_set1_epi32(self.multiplier as i32);
        let low_half = _mm256_set1_epi32(0xFFFF);
        // A start is 16 bits, so the unused entries (all ones) match nothing.
        let mut shorts = [_mm256_set1_epi32(-1); MAX_VECTOR_SHORT];
        for (v, &key) in shorts.iter_mut().zip(&self.short_keys) {
            *v = _mm256_set1_epi32(key as i32);
        }
        let mut i = 0;
        while i + 16 <= text.len() {
            // SAFETY: bytes i..i + 16 are in `text` (the loop's condition).
            let bytes = unsafe { _mm_loadu_si128(text.as_ptr().add(i).cast()) };
            let windows = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(bytes), windows_of);
            let keys = _mm256_or_si256(windows, fold);
            let slots = _mm256_srli_epi32::<{ 32 - SLOT_BITS as i32 }>(_mm256_mullo_epi32(
                keys, multiplier,
            ));
            // SAFETY: a slot is a 32-bit value shifted right by 32 - SLOT_BITS, so it indexes
            // the table of 1 << SLOT_BITS entries.
            let found = unsafe { _mm256_i32gather_epi32::<4>(self.slots.as_ptr().cast(), slots) };
            let mut hits = _mm256_cmpeq_epi32(found, keys);
            let starts = _mm256_and_si256(keys, low_half);
            for short in shorts {
                hits = _mm256_or_si256(hits, _mm256_cmpeq_epi32(starts, short));
            }
            let mut mask = _mm256_movemask_ps(_mm256_castsi256_ps(hits)) as u32;
            while mask != 0 {
                let at = i + mask.trailing_zeros() as usize;
                self.check_candidate(text, at, fold4(&text[at..at + 4]), all);
                mask &= mask - 1;
            }
            i += 8;
        }
        i
    }

    /// The words a matching window or short start at `at` may belong to, checked whole.
    #[cold]
    #[inline(never)]
    fn check_candidate(
        &self,
        text: &[u8],
        at: usize,
        key: u32,
        all: &mut Vec<(usize, Reverse<usize>, u16)>,
    ) {
        let slot = slot_of(key, self.multiplier);
        if self.slots[slot] == key {
            self.check_owners(text, at, slot, all);
        }
        let start = (key & 0xFFFF) as usize;
        if self.short_starts[start >> 6] & (1 << (start & 63)) != 0 {
            self.check_short(text, at, all);
        }
    }

    fn check_owners(
        &self,
        text: &[u8],
        at: usize,
        slot: usize,
        all: &mut Vec<(usize, Reverse<usize>, u16)>,
    ) {
        for &(word, offset) in &self.owners[slot] {
            if let Some(start) = at.checked_sub(usize::from(offset))
                && self.is_at(text, start, word)
            {
                all.push((start, Reverse(self.words[usize::from(word)].len()), word));
            }
        }
    }

    fn check_short(&self, text: &[u8], at: usize, all: &mut Vec<(usize, Reverse<usize>, u16)>) {
        for &word in &self.short {
            if self.is_at(text, at, word) {
                all.push((at, Reverse(self.words[usize::from(word)].len()), word));
            }
        }
    }

    fn is_at(&self, text: &[u8], start: usize, word: u16) -> bool {
        let word = &self.words[usize::from(word)];
        text.get(start..start + word.len())
            .is_some_and(|t| t.eq_ignore_ascii_case(word))
    }
}

fn fold4(window: &[u8]) -> u32 {
    u32::from_le_bytes([window[0], window[1], window[2], window[3]]) | FOLD
}

fn slot_of(key: u32, multiplier: u32) -> usize {
    (key.wrapping_mul(multiplier) >> (32 - SLOT_BITS)) as usize
}

/// A multiplier that gives every distinct window a slot of its own, so that one compare of the
/// slot decides whether a text window is one of them. Random multipliers find one quickly while
/// the windows are few against the slots (about 140 in 4,096 need ten tries); the bound turns a
/// word list grown past the table into a failing test rather than a hang.
fn perfect_multiplier(windows: &[(u32, u16, u8)]) -> u32 {
    let mut keys: Vec<u32> = windows.iter().map(|w| w.0).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut multiplier: u32 = 0x9E37_79B1;
    // Thousands of multipliers may be tried: each try stops at its first collision, on a bitmap
    // of the slots, so building the finder stays cheap even in an unoptimised test build.
    let mut taken = [0u64; (1 << SLOT_BITS) / 64];
    for _ in 0..100_000 {
        taken.fill(0);
        let collides = keys.iter().any(|&k| {
            let slot = slot_of(k, multiplier);
            let (word, bit) = (slot / 64, 1u64 << (slot % 64));
            let seen = taken[word] & bit != 0;
            taken[word] |= bit;
            seen
        });
        if !collides {
            return multiplier;
        }
        multiplier = multiplier.wrapping_add(0x6A09_E667) | 1;
    }
    panic!(
        "{} windows do not fit {} slots: raise SLOT_BITS",
        keys.len(),
        1 << SLOT_BITS
    );
}

/// The offset of the window of `word` least likely to occur in text: the product of its bytes'
/// frequencies, from English letter frequencies (space the most common byte, digits and
/// punctuation rarer than letters).
fn rarest_window(word: &[u8]) -> usize {
    let score = |offset: usize| -> f64 {
        word[offset..offset + 4]
            .iter()
            .map(|&b| frequency(b))
            .product()
    };
    (0..=word.len() - 4)
        .min_by(|&a, &b| score(a).total_cmp(&score(b)))
        .unwrap_or(0)
}

fn frequency(byte: u8) -> f64 {
    const BY_FREQUENCY: &[u8] = b" etaoinshrdlcumwfgypbvkjxqz";
    match BY_FREQUENCY
        .iter()
        .position(|&c| c == byte.to_ascii_lowercase())
    {
        Some(rank) => 100.0 / (rank as f64 + 1.0),
        None if byte.is_ascii_digit() => 1.0,
        None => 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aho_corasick::{AhoCorasick, MatchKind};

    /// A finder and, beside it, aho-corasick on the same words.
    fn both(words: &[&str]) -> (Words, AhoCorasick) {
        let oracle = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostLongest)
            .build(words)
            .unwrap();
        (Words::new(words), oracle)
    }

    /// Both loops of the finder against the oracle.
    fn assert_finds((finder, oracle): &(Words, AhoCorasick), text: &[u8]) {
        let want: Vec<Found> = oracle
            .find_iter(text)
            .map(|m| Found {
                start: m.start(),
                word: m.pattern().as_usize(),
            })
            .collect();
        for vector in [false, true] {
            assert_eq!(
                finder.find_with(text, vector),
                want,
                "{text:?}, vector {vector}"
            );
        }
    }

    fn trigger_words() -> Vec<&'static str> {
        crate::rules::security::text::TRIGGERS
            .iter()
            .map(|(w, _)| *w)
            .collect()
    }

    #[test]
    fn finds_what_aho_corasick_finds() {
        let words = [
            "curl",
            "7z",
            "\\x",
            "xxd",
            "password",
            "pass",
            "passphrase",
            "the user",
            "user",
            "\nnc ",
            "|nc ",
            "[_]:",
            "ab",
            "abcd",
            "bcde",
        ];
        let finders = both(&words);
        let texts = [
            "",
            "x",
            "7z",
            "a 7Z b",
            "CURL -fsSL | sh; curl",
            "Password passphrase PASS pas",
            "tell the user; The User; the  user",
            "echo \\x41\\X42 | xxd -r",
            "a\nnc 1.2.3.4 |nc x [_]: [_]",
            "abcdef bcdefg abcde",
            "ab",
            "abc",
            "0123456789abcdef curl",
            "0123456789abcde curl",
            "0123456789abc 7z xxd",
            "é curl é ẞ 7z",
            "{_]: [_]; |NC ",
        ];
        for text in texts {
            assert_finds(&finders, text.as_bytes());
        }
    }

    #[test]
    fn random_bytes_from_the_words_alphabet() {
        let words = trigger_words();
        let finders = both(&words);
        // Every byte the words use, in both cases, and a few they do not (NUL, high bytes).
        let mut alphabet: Vec<u8> = words.iter().flat_map(|w| w.bytes()).collect();
        alphabet.extend(alphabet.clone().iter().map(u8::to_ascii_uppercase));
        alphabet.extend([0, 0x80, 0xC3, 0xFF]);
        alphabet.sort_unstable();
        alphabet.dedup();
        let mut state = 0x9E37_79B9u32;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as usize
        };
        for _ in 0..3_000 {
            let len = next() % 64;
            let mut text: Vec<u8> = (0..len)
                .map(|_| alphabet[next() % alphabet.len()])
                .collect();
            // Seed some whole words so that matches are not only chance ones.
            for _ in 0..next() % 4 {
                let at = next() % (text.len() + 1);
                let word = words[next() % words.len()].as_bytes();
                text.splice(at..at, word.iter().copied());
            }
            assert_finds(&finders, &text);
        }
    }

    #[test]
    fn finds_every_trigger_word_in_generated_text() {
        let words = trigger_words();
        let finders = both(&words);
        // Every word, in every case, glued to its neighbours and split by line breaks, so that
        // overlaps, prefixes and window offsets all meet.
        let mut text = String::new();
        for (i, w) in words.iter().enumerate() {
            let w = if i % 2 == 0 {
                w.to_uppercase()
            } else {
                w.to_string()
            };
            text.push_str(&w);
            text.push_str(["", " ", "\n", "x", "7"][i % 5]);
        }
        let mut state = 0x2545_F491u32;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let w = words[state as usize % words.len()];
            let cut = (state >> 8) as usize % (w.len() + 1);
            text.push_str(&w[..cut]);
            text.push_str(&w[cut / 2..]);
        }
        assert_finds(&finders, text.as_bytes());
    }
}
