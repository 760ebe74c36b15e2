//! `cargo bench --bench archive_scan`: the install door's scan of a 50 MB archive in memory
//! (issue 13: under a second). The archive is stored (not compressed) so it is 50 MB on disk,
//! the registry's per-skill limit, and holds the shared corpus's text files, cut and repeated,
//! as 1 MiB entries: the security rules read every byte.

use skill_archive::reader::{Limits, read_bytes};
use skill_lint::security::{Allows, ScanFile, scan};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

const ARCHIVE: usize = 50 * 1024 * 1024 - 64 * 1024;
const ENTRY: usize = 1024 * 1024;

fn texts(dir: &Path, out: &mut Vec<u8>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if out.len() > 64 * 1024 * 1024 {
            return;
        }
        if path.is_dir() {
            texts(&path, out);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            out.extend_from_slice(text.as_bytes());
        }
    }
}

fn main() {
    let shared = std::env::var_os("SKILL_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let mut corpus = Vec::new();
    texts(&shared.join("corpus"), &mut corpus);
    assert!(!corpus.is_empty(), "the shared corpus is needed");

    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("big-skill/SKILL.md", stored)
        .expect("zip entry");
    zip.write_all(
        b"---\nname: big-skill\ndescription: A large skill. Use when benchmarking.\n---\n# Big\n",
    )
    .expect("zip write");
    let (mut written, mut n, mut at) = (0, 0, 0);
    while written + ENTRY < ARCHIVE {
        let mut chunk = Vec::with_capacity(ENTRY);
        while chunk.len() < ENTRY {
            let end = (at + ENTRY - chunk.len()).min(corpus.len());
            chunk.extend_from_slice(&corpus[at..end]);
            at = if end == corpus.len() { 0 } else { end };
        }
        // Cut on a character boundary so every entry is text.
        let cut = (0..=3)
            .map(|back| ENTRY - back)
            .find(|&i| std::str::from_utf8(&chunk[..i]).is_ok())
            .unwrap_or(0);
        chunk.truncate(cut);
        let ext = ["md", "sh", "py", "txt"][n % 4];
        zip.start_file(format!("big-skill/references/part-{n:03}.{ext}"), stored)
            .expect("zip entry");
        zip.write_all(&chunk).expect("zip write");
        written += chunk.len() + 100;
        n += 1;
    }
    let bytes = zip.finish().expect("zip finish").into_inner();

    let mut times = Vec::new();
    let mut findings = 0;
    for _ in 0..5 {
        let started = Instant::now();
        let archive = read_bytes(&bytes, &Limits::default()).expect("the archive is within limits");
        let result = scan(
            archive.files.iter().map(|f| ScanFile {
                path: &f.path,
                bytes: &f.bytes,
            }),
            Allows::Show,
        );
        times.push(started.elapsed());
        findings = result.findings.len();
    }
    times.sort();
    println!(
        "scan of a {:.1} MB archive ({} entries) in memory: best {:?}, median {:?} of {} ({findings} findings)",
        bytes.len() as f64 / 1e6,
        n + 1,
        times[0],
        times[times.len() / 2],
        times.len()
    );
}
