//! Writes the o200k vocabulary, in rank order, as the compact table `src/lint/tokens` counts
//! with: `u32` token count, `u32` start offsets (count + 1 of them), then the token bytes, all
//! little-endian. The bpe-openai crate holds the vocabulary but loads it with three automata
//! (70 MiB, 70 ms) that counting does not need; this table is 2 MiB.

use std::path::PathBuf;

fn main() {
    let bpe = &bpe_openai::o200k_base().bpe;
    let count = u32::try_from(bpe.num_tokens()).expect("vocabulary fits u32");
    let mut starts = Vec::with_capacity(count as usize + 1);
    let mut bytes = Vec::new();
    for id in 0..count {
        starts.push(u32::try_from(bytes.len()).expect("vocabulary bytes fit u32"));
        bytes.extend_from_slice(bpe.token_bytes(id));
    }
    starts.push(u32::try_from(bytes.len()).expect("vocabulary bytes fit u32"));
    let mut out = Vec::with_capacity(4 + starts.len() * 4 + bytes.len());
    out.extend_from_slice(&count.to_le_bytes());
    for start in starts {
        out.extend_from_slice(&start.to_le_bytes());
    }
    out.extend_from_slice(&bytes);
    let dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(dir.join("o200k.vocab"), out).expect("OUT_DIR is writable");
    println!("cargo::rerun-if-changed=build.rs");
}
