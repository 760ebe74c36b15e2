//! The o200k vocabulary as a rank table, and tiktoken's byte-pair merge over it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The bpe-openai crate's o200k vocabulary in rank order, as a compact table: a little-endian
/// `u32` token count, each token's length in one byte, then the tokens' bytes. The crate loads it
/// with three automata (70 MiB, 70 ms) that counting does not need; this is 1.6 MiB.
/// Kept in the repository rather than written by a build script: building bpe-openai for the
/// build script too cost a test build about 45 s of CPU. The test `the_table_is_bpe_openais`
/// checks it against the crate and says how to write it again.
static TABLE: &[u8] = include_bytes!("o200k.vocab");

/// Every token's bytes and a hash index from bytes to rank (a token's rank is its id).
pub(crate) struct Vocabulary {
    starts: Vec<u32>,
    bytes: &'static [u8],
    /// Open addressing: in each used slot, rank + 1 in the low [`RANK_BITS`] bits and the top
    /// bits of the token's hash above them, so a probe rejects another token without reading
    /// its bytes (two more cache misses); 0 in an empty slot.
    slots: Vec<u32>,
    /// Rank + 1 of the token of each two-byte sequence (0: none), indexed by the bytes: most
    /// lookups of a merge are of two bytes.
    pairs: Vec<u32>,
}

/// Bits of a slot holding rank + 1: o200k has 200,019 tokens.
const RANK_BITS: u32 = 18;

/// The part of a slot that tells tokens apart by hash.
fn tag(hash: u64) -> u32 {
    (hash >> (64 - (32 - RANK_BITS))) as u32
}

impl Vocabulary {
    /// Reads [`TABLE`].
    pub fn load() -> Self {
        let count = u32::from_le_bytes(TABLE[..4].try_into().expect("4 bytes")) as usize;
        assert!(
            count < 1 << RANK_BITS,
            "{count} tokens fit {RANK_BITS} bits of rank"
        );
        let lengths = &TABLE[4..4 + count];
        let starts: Vec<u32> = std::iter::once(0)
            .chain(lengths.iter().scan(0u32, |end, &len| {
                *end += u32::from(len);
                Some(*end)
            }))
            .collect();
        let bytes = &TABLE[4 + count..];
        let mut vocabulary = Vocabulary {
            starts,
            bytes,
            slots: vec![0; (count * 2).next_power_of_two()],
            pairs: vec![0; 1 << 16],
        };
        let mask = vocabulary.slots.len() - 1;
        for rank in 0..count {
            let token = vocabulary.token(rank);
            if let [a, b] = token {
                vocabulary.pairs[usize::from(*a) << 8 | usize::from(*b)] = rank as u32 + 1;
            }
            let hash = hash(token);
            let mut slot = hash as usize & mask;
            while vocabulary.slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            vocabulary.slots[slot] = tag(hash) << RANK_BITS | (rank as u32 + 1);
        }
        vocabulary
    }

    fn token(&self, rank: usize) -> &'static [u8] {
        &self.bytes[self.starts[rank] as usize..self.starts[rank + 1] as usize]
    }

    /// The rank of the token spelled by `bytes`, when there is one.
    pub fn rank(&self, bytes: &[u8]) -> Option<u32> {
        if let [a, b] = bytes {
            let entry = self.pairs[usize::from(*a) << 8 | usize::from(*b)];
            return entry.checked_sub(1);
        }
        let mask = self.slots.len() - 1;
        let hash = hash(bytes);
        let tag = tag(hash);
        let mut slot = hash as usize & mask;
        loop {
            let entry = self.slots[slot];
            if entry == 0 {
                return None;
            }
            let rank = (entry & ((1 << RANK_BITS) - 1)) - 1;
            if entry >> RANK_BITS == tag && self.token(rank as usize) == bytes {
                return Some(rank);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// How many tokens tiktoken's byte-pair merge makes of one pre-tokenized piece: starting
    /// from single bytes, merge the adjacent pair whose joined bytes have the lowest rank
    /// (the leftmost on a tie) until no adjacent pair is a token. A heap of candidate pairs
    /// keeps a long piece (a blob of letters) at n log n rather than tiktoken's n squared.
    pub fn count(&self, piece: &[u8], scratch: &mut Scratch) -> usize {
        if piece.len() <= 1 || self.rank(piece).is_some() {
            return piece.len().min(1);
        }
        let n = piece.len();
        let Scratch { next, prev, heap } = scratch;
        next.clear();
        next.extend(1..=n);
        prev.clear();
        prev.extend((0..n).map(|i| i.wrapping_sub(1)));
        heap.clear();
        for i in 0..n - 1 {
            if let Some(rank) = self.rank(&piece[i..i + 2]) {
                heap.push(Reverse((rank, i, i + 2)));
            }
        }
        let mut parts = n;
        while let Some(Reverse((_, start, end))) = heap.pop() {
            // A pair is still there when its first part is (a part absorbed into its left
            // neighbour has usize::MAX as its next) and ends where it did.
            let second = next[start];
            if second >= n || next[second] != end {
                continue;
            }
            next[second] = usize::MAX;
            next[start] = end;
            if end < n {
                prev[end] = start;
                let after = next[end];
                if let Some(rank) = self.rank(&piece[start..after]) {
                    heap.push(Reverse((rank, start, after)));
                }
            }
            if start > 0 {
                let before = prev[start];
                if let Some(rank) = self.rank(&piece[before..end]) {
                    heap.push(Reverse((rank, before, end)));
                }
            }
            parts -= 1;
        }
        parts
    }
}

/// A multiplicative hash eight bytes at a time; the keys are pieces of text, not chosen to
/// collide with a vocabulary fixed at build time.
pub fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(K);
        h ^= h >> 29;
    }
    h
}

/// Buffers [`Vocabulary::count`] reuses from piece to piece.
#[derive(Default)]
pub(crate) struct Scratch {
    next: Vec<usize>,
    prev: Vec<usize>,
    heap: BinaryHeap<Reverse<(u32, usize, usize)>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of `bpe`'s vocabulary, in the layout [`TABLE`] has.
    fn table_of(bpe: &bpe_openai::byte_pair_encoding::BytePairEncoding) -> Vec<u8> {
        let count = u32::try_from(bpe.num_tokens()).expect("vocabulary fits u32");
        let mut out = count.to_le_bytes().to_vec();
        let mut bytes = Vec::new();
        for id in 0..count {
            let token = bpe.token_bytes(id);
            out.push(u8::try_from(token.len()).expect("a token is at most 255 bytes"));
            bytes.extend_from_slice(token);
        }
        out.extend_from_slice(&bytes);
        out
    }

    /// After a bpe-openai upgrade changes the vocabulary, write the table again with
    /// `SKILL_WRITE_VOCABULARY=1 cargo test -p skill-lint the_table_is_bpe_openais` (that run
    /// still compares the table it was built with; the next one passes).
    #[test]
    fn the_table_is_bpe_openais() {
        let table = table_of(&bpe_openai::o200k_base().bpe);
        if std::env::var_os("SKILL_WRITE_VOCABULARY").is_some() {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/tokens/o200k.vocab");
            std::fs::write(path, &table).expect("the source tree is writable");
        }
        assert!(
            table == TABLE,
            "src/tokens/o200k.vocab is not bpe-openai's vocabulary"
        );
    }

    #[test]
    fn ranks_are_the_vocabularys_ids() {
        let ours = Vocabulary::load();
        let reference = &bpe_openai::o200k_base().bpe;
        assert_eq!(ours.starts.len() - 1, reference.num_tokens());
        for id in (0..reference.num_tokens() as u32).step_by(97) {
            assert_eq!(ours.rank(reference.token_bytes(id)), Some(id));
        }
        assert_eq!(ours.rank(b"not a token at all"), None);
    }

    #[test]
    fn merges_count_as_bpe_openai_counts() {
        let ours = Vocabulary::load();
        let reference = &bpe_openai::o200k_base().bpe;
        let mut scratch = Scratch::default();
        let mut state: u64 = 1;
        let alphabet = b"aabbeeilnorsttz  .-_01\xc3\xa9\xe4\xb8\xad";
        for len in [2usize, 3, 5, 9, 17, 40, 300, 5000] {
            for _ in 0..200 {
                let piece: Vec<u8> = (0..len)
                    .map(|_| {
                        state = state
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(1);
                        alphabet[(state >> 33) as usize % alphabet.len()]
                    })
                    .collect();
                assert_eq!(
                    ours.count(&piece, &mut scratch),
                    reference.count(&piece),
                    "{:?}",
                    String::from_utf8_lossy(&piece)
                );
            }
        }
    }
}
