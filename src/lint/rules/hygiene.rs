//! Hygiene rules: secrets, symlinks, junk files, `{baseDir}` and leftover TODOs.

use super::Context;
use crate::lint::catalog::*;
use crate::lint::diagnostic::{Diagnostic, Location};
use crate::skill::Span;
use crate::skill::files::FileKind;
use crate::skill::span::Position;
use regex::Regex;
use std::sync::OnceLock;

/// Largest file scanned for secrets.
const MAX_SCAN_BYTES: u64 = 1024 * 1024;

/// Symbolic links anywhere in the skill.
pub fn check_symlinks(cx: &Context, out: &mut Vec<Diagnostic>) {
    for entry in &cx.files.entries {
        if let FileKind::Symlink(target) = &entry.kind {
            out.push(cx.diagnostic(
                &SYMLINK,
                format!(
                    "'{}' is a symlink to '{}'; archives and registries do not carry symlinks",
                    entry.path,
                    target.display()
                ),
                Location::Folder,
            ));
        }
    }
}

/// OS and build leftovers.
pub fn check_junk(cx: &Context, out: &mut Vec<Diagnostic>) {
    let mut reported_dirs: Vec<&str> = Vec::new();
    for entry in &cx.files.entries {
        if reported_dirs
            .iter()
            .any(|d| entry.path.starts_with(d) && entry.path.as_bytes().get(d.len()) == Some(&b'/'))
        {
            continue;
        }
        let name = entry.path.rsplit('/').next().unwrap_or(&entry.path);
        let junk = match entry.kind {
            FileKind::Dir => matches!(
                name,
                "__MACOSX" | "__pycache__" | ".pytest_cache" | ".mypy_cache"
            ),
            _ => {
                matches!(name, ".DS_Store" | "Thumbs.db" | "desktop.ini")
                    || name.ends_with(".pyc")
                    || name.ends_with(".pyo")
                    || name.ends_with(".swp")
                    || (name.ends_with('~') && name.len() > 1)
            }
        };
        if junk {
            if entry.kind == FileKind::Dir {
                reported_dirs.push(&entry.path);
            }
            out.push(
                cx.diagnostic(
                    &JUNK_FILE,
                    format!("'{}' is an OS or build leftover", entry.path),
                    Location::Folder,
                )
                .with_help("delete it, or list it in .skillignore"),
            );
        }
    }
}

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

/// Secrets in text files, and `.env` files.
pub fn check_secrets(cx: &Context, out: &mut Vec<Diagnostic>) {
    // Reading every text file is costly; skip it when the rule is not selected.
    if !cx.options.selection.allows(&SECRET) {
        return;
    }
    for file in cx.files.files() {
        let name = file.path.rsplit('/').next().unwrap_or(&file.path);
        if is_env_file(name) {
            out.push(
                cx.diagnostic(
                    &SECRET,
                    format!("'{}' is an env file; it usually holds secrets", file.path),
                    Location::Folder,
                )
                .with_help("delete it and ship a .env.example without values"),
            );
            continue;
        }
        // The shortest pattern is 20 characters.
        if file.size > MAX_SCAN_BYTES || file.size < 20 {
            continue;
        }
        let is_skill_md = cx.skill.file.as_deref().is_some_and(|f| {
            f.file_name()
                .is_some_and(|n| n.eq_ignore_ascii_case("SKILL.md"))
        }) && file.path.eq_ignore_ascii_case("SKILL.md");
        let text_owned;
        let text = if is_skill_md {
            cx.text()
        } else {
            match std::fs::read(cx.skill.dir.join(&file.path))
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
            {
                Some(t) => {
                    text_owned = t;
                    &text_owned
                }
                None => continue,
            }
        };
        for found in secret_regex().captures_iter(text) {
            let Some((index, m)) = found
                .iter()
                .enumerate()
                .skip(1)
                .find_map(|(i, m)| m.map(|m| (i, m)))
            else {
                continue;
            };
            if !looks_real(m.as_str())
                || (m.as_str().starts_with("-----BEGIN") && !key_has_body(&text[m.start()..]))
            {
                continue;
            }
            let kind = SECRET_PATTERNS[index - 1].0;
            let message = format!("{kind} '{}' is committed in the skill", redact(m.as_str()));
            let d = if is_skill_md {
                cx.diagnostic(
                    &SECRET,
                    message,
                    Location::Span(Span::new(m.start(), m.end())),
                )
            } else {
                let mut d =
                    cx.diagnostic(&SECRET, message, Location::Point(position(text, m.start())));
                d.file = cx.skill.dir.join(&file.path);
                d
            };
            out.push(d.with_help(
                "revoke it, remove it, and read it from an env var declared in requires.env",
            ));
        }
    }
}

fn is_env_file(name: &str) -> bool {
    (name == ".env" || name.starts_with(".env."))
        && !["example", "sample", "template", "dist", "defaults"]
            .iter()
            .any(|s| name.contains(s))
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
fn redact(token: &str) -> String {
    let prefix: String = token.chars().take(8).collect();
    format!("{prefix}…")
}

fn position(text: &str, offset: usize) -> Position {
    let before = &text[..offset];
    Position {
        line: before.matches('\n').count() + 1,
        column: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
    }
}

/// `{baseDir}` in the body: only OpenClaw substitutes it.
pub fn check_base_dir(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(fm) = cx.document().and_then(|d| d.frontmatter) else {
        return;
    };
    let body = cx.text().get(fm.body.range()).unwrap_or("");
    if let Some(i) = body.find("{baseDir}") {
        let at = fm.body.start + i;
        out.push(
            cx.diagnostic(
                &BASE_DIR_PLACEHOLDER,
                "'{baseDir}' is replaced by OpenClaw only; other agents show it as written".into(),
                Location::Span(Span::new(at, at + "{baseDir}".len())),
            )
            .with_help("use paths relative to the skill folder, such as scripts/run.sh"),
        );
    }
}

/// Scaffold placeholders left in the body: `[TODO ...]` or a line starting with `TODO:`.
pub fn check_todo_in_body(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(fm) = cx.document().and_then(|d| d.frontmatter) else {
        return;
    };
    let body = cx.text().get(fm.body.range()).unwrap_or("");
    let mut offset = fm.body.start;
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim_start_matches(|c: char| c.is_whitespace() || "#-*>".contains(c));
        let found = line.find("[TODO").or_else(|| {
            trimmed
                .starts_with("TODO:")
                .then(|| line.len() - trimmed.len())
        });
        if let Some(i) = found {
            out.push(cx.diagnostic(
                &TODO_PLACEHOLDER,
                "a TODO placeholder is left in the body".into(),
                Location::Span(Span::new(offset + i, offset + i + 5)),
            ));
            return;
        }
        offset += line.len();
    }
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
