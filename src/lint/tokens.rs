//! o200k token counts for budgets, computed only where a budget could be exceeded.
//!
//! Encoding costs about 50 ns a byte and loading the encoder 70 ms, so a text is encoded only
//! when a cheap estimate (ASCII bytes / 4 + other characters) reaches the budget. English
//! Markdown runs at 3.5 to 4.5 bytes a token, so a skipped text is under budget, or (for dense
//! code at about 3 bytes a token) at most a quarter over it; every count reported is exact.

/// Loads the encoder on another thread, so its 70 ms overlap other work.
pub fn preload() {
    std::thread::spawn(|| {
        let _ = bpe_openai::o200k_base();
    });
}

/// The exact o200k token count of `text` when it exceeds `budget`; `None` when it does not, or
/// when a quick estimate (a quarter of the ASCII bytes plus the other characters) is under the
/// budget: counting exactly everywhere would double lint's time, and the estimate can miss a
/// text that is over by less than about a quarter.
pub fn over_budget(text: &str, budget: usize) -> Option<usize> {
    if text.len() <= budget || estimate(text) < budget {
        return None;
    }
    let count = count(text);
    (count > budget).then_some(count)
}

/// The exact o200k token count of `text`: tiktoken's pre-tokenization, then byte-pair counts of
/// each piece, cached per thread because words repeat (the encoder allocates for every piece).
pub fn count(text: &str) -> usize {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static CACHE: RefCell<HashMap<String, usize, PieceHash>> =
            const { RefCell::new(HashMap::with_hasher(PieceHash)) };
    }
    let tokenizer = bpe_openai::o200k_base();
    CACHE.with_borrow_mut(|cache| {
        if cache.len() > 200_000 {
            cache.clear();
        }
        tokenizer
            .split(text)
            .map(|piece| match cache.get(piece) {
                Some(n) => *n,
                None => {
                    let n = tokenizer.bpe.count(piece.as_bytes());
                    cache.insert(piece.to_owned(), n);
                    n
                }
            })
            .sum()
    })
}

/// FNV-1a for the cache's keys: pieces are a few bytes of the skill's own text, so SipHash's
/// resistance to chosen keys buys nothing and costs a third of each lookup.
#[derive(Clone, Copy, Default)]
struct PieceHash;

impl std::hash::BuildHasher for PieceHash {
    type Hasher = Fnv;
    fn build_hasher(&self) -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn estimate(text: &str) -> usize {
    let ascii = text.bytes().filter(u8::is_ascii).count();
    let other = text.chars().filter(|c| !c.is_ascii()).count();
    ascii / 4 + other
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
