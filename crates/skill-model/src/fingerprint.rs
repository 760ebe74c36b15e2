//! ClawHub's skill fingerprint: SHA-256 of `path:sha256` lines sorted as JavaScript's
//! `localeCompare` sorts them (ICU root collation), which is not byte order.

use sha2::{Digest, Sha256};
use std::cmp::Ordering;

/// The fingerprint of files given as (relative path, file bytes' lowercase hex SHA-256).
pub fn fingerprint(files: &[(String, String)]) -> String {
    sha256_hex(manifest(files).as_bytes())
}

/// The text a fingerprint hashes: one `path:sha256` line per file, in fingerprint order, joined
/// by newlines. It names every file and its contents, so signing it signs the skill's files
/// whatever archive carries them.
pub fn manifest(files: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = files.iter().collect();
    sorted.sort_by(|a, b| locale_compare(&a.0, &b.0));
    let lines: Vec<String> = sorted
        .iter()
        .map(|(path, sha)| format!("{path}:{sha}"))
        .collect();
    lines.join("\n")
}

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// ICU root collation's primary order of printable ASCII punctuation and symbols, lowest first;
/// digits and letters follow.
const PUNCTUATION: &str = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";

/// Primary weight of a character: punctuation in ICU order, then digits, then letters
/// case-folded; other characters after all of them, by code point (an approximation of ICU
/// for non-ASCII paths, which real skills rarely have).
fn primary(c: char) -> (u8, u32) {
    if let Some(i) = PUNCTUATION.find(c) {
        (0, i as u32)
    } else if c.is_ascii_digit() {
        (1, c as u32)
    } else if c.is_ascii_alphabetic() {
        (2, c.to_ascii_lowercase() as u32)
    } else {
        (3, c.to_lowercase().next().unwrap_or(c) as u32)
    }
}

/// `a.localeCompare(b)` for the paths skills have: primary weights first (a shorter prefix
/// first), then the first case difference, lower case first.
pub fn locale_compare(a: &str, b: &str) -> Ordering {
    let primary_order = a.chars().map(primary).cmp(b.chars().map(primary));
    if primary_order != Ordering::Equal {
        return primary_order;
    }
    for (x, y) in a.chars().zip(b.chars()) {
        if x != y {
            return match (x.is_lowercase(), y.is_lowercase()) {
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
                _ => x.cmp(&y),
            };
        }
    }
    Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, content: &str) -> (String, String) {
        (path.to_owned(), sha256_hex(content.as_bytes()))
    }

    #[test]
    fn reference_test_vectors() {
        assert_eq!(
            fingerprint(&[file("SKILL.md", "")]),
            "31482ffa2cf304b9c49b328570c7be01877d99cd581ea662d71b05b7a72275fe"
        );
        let files = [
            file("SKILL.md", "# x\n"),
            file("reference.md", "ref\n"),
            file("Zeta.txt", "z\n"),
            file("alpha.txt", "a\n"),
            file("scripts/a_b.py", ""),
            file("scripts/a-b.py", ""),
            file("scripts/a.py", ""),
        ];
        let mut order: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        order.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(
            order,
            [
                "alpha.txt",
                "reference.md",
                "scripts/a_b.py",
                "scripts/a-b.py",
                "scripts/a.py",
                "SKILL.md",
                "Zeta.txt"
            ]
        );
        assert_eq!(
            fingerprint(&files),
            "a9bed0d49caf2d4610899717983d37db72536dd75b5708a5cb09f18d159bc73a"
        );
    }

    #[test]
    fn case_breaks_ties_lower_first() {
        assert_eq!(locale_compare("a.md", "A.md"), Ordering::Less);
        assert_eq!(locale_compare("ab", "abc"), Ordering::Less);
    }
}
