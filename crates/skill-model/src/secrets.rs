//! Token-shaped strings (API keys, tokens, private keys) in text: what lint reports as committed
//! secrets and what a cassette may never contain.

use regex::Regex;
use std::sync::OnceLock;

/// Token-shaped strings: (name, pattern).
const SECRET_PATTERNS: &[(&str, &str)] = &[
    (
        "GitHub token",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})",
    ),
    ("Anthropic API key", r"\bsk-ant-[A-Za-z0-9_-]{32,}"),
    (
        "OpenAI API key",
        r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}",
    ),
    ("AWS access key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("Slack token", r"\bxox[abprs]-[0-9A-Za-z-]{20,}"),
    ("Google API key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
    ("Stripe key", r"\b[rs]k_live_[0-9A-Za-z]{24,}"),
    (
        "private key",
        r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----",
    ),
];

fn secret_regex() -> &'static Regex {
    static REGEX: OnceLock<Regex> = OnceLock::new();
    REGEX.get_or_init(|| {
        let alternation: Vec<String> = SECRET_PATTERNS
            .iter()
            .map(|(_, p)| format!("({p})"))
            .collect();
        Regex::new(&alternation.join("|")).expect("secret patterns are valid regexes")
    })
}

/// A secret found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// What kind of secret (`GitHub token`...).
    pub kind: &'static str,
    /// Its byte range.
    pub start: usize,
    /// End of its byte range.
    pub end: usize,
}

/// The real-looking secrets in `text`, in order; placeholders and documented key headers
/// without a body are left out.
pub fn find(text: &str) -> impl Iterator<Item = Found> + '_ {
    secret_regex().captures_iter(text).filter_map(|found| {
        let (index, m) = found
            .iter()
            .enumerate()
            .skip(1)
            .find_map(|(i, m)| m.map(|m| (i, m)))?;
        if !looks_real(m.as_str())
            || (m.as_str().starts_with("-----BEGIN") && !key_has_body(&text[m.start()..]))
        {
            return None;
        }
        Some(Found {
            kind: SECRET_PATTERNS[index - 1].0,
            start: m.start(),
            end: m.end(),
        })
    })
}

/// Placeholders (`sk-xxxx...`, `ghp_XXXX`, `AKIAIOSFODNN7EXAMPLE`) are not secrets: a real token
/// mixes many characters.
fn looks_real(token: &str) -> bool {
    if token.starts_with("-----BEGIN") {
        return true;
    }
    looks_random(token)
}

/// A key block is real when base64 lines follow its header (docs write `...` instead).
fn key_has_body(after: &str) -> bool {
    after.lines().skip(1).take(3).any(|l| {
        let l = l.trim();
        l.len() >= 40
            && l.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
    })
}

fn looks_random(token: &str) -> bool {
    let lower = token.to_ascii_lowercase();
    if [
        "xxxx", "example", "your", "0000", "1234", "abcd", "test", "fake", "dummy",
    ]
    .iter()
    .any(|p| lower.contains(p))
    {
        return false;
    }
    let mut distinct: Vec<char> = token.chars().collect();
    distinct.sort_unstable();
    distinct.dedup();
    distinct.len() >= 12 && token.chars().any(|c| c.is_ascii_digit())
}

/// The first characters and an ellipsis: enough to find it, not enough to use it.
pub fn redact(token: &str) -> String {
    let prefix: String = token.chars().take(8).collect();
    format!("{prefix}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_not_secrets() {
        assert!(!looks_real("sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
        assert!(!looks_real("AKIAIOSFODNN7EXAMPLE"));
        assert!(looks_real("ghp_8fK2mQ9xL4vB7nR1tY6wE3zA5cD0hJ2sP9uI"));
        assert_eq!(redact("ghp_8fK2mQ9xL4vB7nR1"), "ghp_8fK2…");
    }
}
