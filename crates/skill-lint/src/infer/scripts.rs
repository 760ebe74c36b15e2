//! Reading the skill's own scripts (by shebang or extension) for commands run and env vars read.

use super::shell::{self, Found, is_env_name};

/// The language of a script file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// sh, bash, zsh.
    Shell,
    /// Python.
    Python,
    /// JavaScript or TypeScript (node, deno, bun).
    Node,
}

/// The language of `path` with contents `text`, from the extension, else the shebang.
pub fn language(path: &str, text: &str) -> Option<Language> {
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("sh" | "bash" | "zsh") => return Some(Language::Shell),
        Some("py") => return Some(Language::Python),
        Some("js" | "mjs" | "cjs" | "ts" | "mts") => return Some(Language::Node),
        _ => {}
    }
    let shebang = text.lines().next().filter(|l| l.starts_with("#!"))?;
    if shebang.contains("python") {
        Some(Language::Python)
    } else if shebang.contains("node") || shebang.contains("deno") || shebang.contains("bun") {
        Some(Language::Node)
    } else if shebang.contains("sh") {
        Some(Language::Shell)
    } else {
        None
    }
}

/// Commands a script runs, with byte offsets.
pub fn commands(language: Language, text: &str) -> Vec<Found> {
    match language {
        Language::Shell => shell::commands(text),
        Language::Python => calls(
            text,
            &[
                "subprocess.run(",
                "subprocess.call(",
                "subprocess.check_call(",
                "subprocess.check_output(",
                "subprocess.Popen(",
                "os.system(",
                "os.popen(",
            ],
        ),
        Language::Node => calls(
            text,
            &[
                "execSync(",
                "exec(",
                "spawn(",
                "spawnSync(",
                "execFile(",
                "execFileSync(",
                "execa(",
            ],
        ),
    }
}

/// Env vars a script reads, with byte offsets.
pub(crate) fn env_vars(language: Language, text: &str) -> Vec<Found> {
    match language {
        Language::Shell => shell::env_vars(text),
        Language::Python => quoted_after(
            text,
            &["os.environ[", "os.getenv(", "os.environ.get("],
            true,
        ),
        Language::Node => {
            let mut found = quoted_after(text, &["process.env["], false);
            found.extend(dotted_after(text, "process.env."));
            found
        }
    }
}

/// The first string argument of each call to one of `calls`: a list's first element names the
/// command; a string is a shell command line.
fn calls(text: &str, calls: &[&str]) -> Vec<Found> {
    let mut out = Vec::new();
    for call in calls {
        for (at, _) in text.match_indices(call) {
            let args = &text[at + call.len()..];
            let trimmed = args.trim_start();
            let lead = at + call.len() + (args.len() - trimmed.len());
            if let Some(list) = trimmed.strip_prefix('[') {
                let inner = list.trim_start();
                let start = lead + 1 + (list.len() - inner.len());
                if let Some((word, offset)) = string_literal(inner) {
                    out.push((word.to_owned(), start + offset));
                }
            } else if let Some((line, offset)) = string_literal(trimmed) {
                out.extend(
                    shell::commands(line)
                        .into_iter()
                        .map(|(w, o)| (w, lead + offset + o)),
                );
            }
        }
    }
    out.retain(|(w, _)| !w.contains('/'));
    out
}

/// A string literal at the start of `text`: its contents and their offset.
fn string_literal(text: &str) -> Option<(&str, usize)> {
    let quote = text
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let end = text[1..].find(quote)?;
    Some((&text[1..1 + end], 1))
}

/// Env var names given as string literals right after one of `prefixes`. With
/// `skip_defaults`, `get("X", default)` is optional and not reported.
fn quoted_after(text: &str, prefixes: &[&str], skip_defaults: bool) -> Vec<Found> {
    let mut out = Vec::new();
    for prefix in prefixes {
        for (at, _) in text.match_indices(prefix) {
            let rest = &text[at + prefix.len()..];
            let Some((name, offset)) = string_literal(rest) else {
                continue;
            };
            let after = rest[offset + name.len() + 1..].trim_start();
            let optional = skip_defaults && prefix.ends_with('(') && after.starts_with(',');
            if is_env_name(name) && !optional {
                out.push((name.to_owned(), at + prefix.len() + offset));
            }
        }
    }
    out
}

fn dotted_after(text: &str, prefix: &str) -> Vec<Found> {
    text.match_indices(prefix)
        .filter_map(|(at, _)| {
            let start = at + prefix.len();
            let len = text[start..]
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            let name = &text[start..start + len];
            is_env_name(name).then(|| (name.to_owned(), start))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(found: Vec<Found>) -> Vec<String> {
        found.into_iter().map(|(n, _)| n).collect()
    }

    #[test]
    fn python() {
        let text = "import os, subprocess\nsubprocess.run([\"git\", \"status\"])\nos.system(\"jq . x | sort\")\nkey = os.environ[\"API_KEY\"]\nopt = os.environ.get(\"OPT\", \"x\")\nt = os.getenv('TOKEN')\n";
        assert_eq!(language("scripts/a.py", text), Some(Language::Python));
        assert_eq!(
            names(commands(Language::Python, text)),
            ["git", "jq", "sort"]
        );
        assert_eq!(
            names(env_vars(Language::Python, text)),
            ["API_KEY", "TOKEN"]
        );
        let found = commands(Language::Python, text);
        assert_eq!(&text[found[0].1..found[0].1 + 3], "git");
    }

    #[test]
    fn node_and_shebangs() {
        let text = "#!/usr/bin/env node\nconst k = process.env.OPENAI_API_KEY;\nexecSync('ffmpeg -i a b');\nspawn(\"yt-dlp\", [url]);\n";
        assert_eq!(language("scripts/run", text), Some(Language::Node));
        assert_eq!(names(commands(Language::Node, text)), ["ffmpeg", "yt-dlp"]);
        assert_eq!(names(env_vars(Language::Node, text)), ["OPENAI_API_KEY"]);
        assert_eq!(
            language("scripts/x", "#!/bin/bash\n"),
            Some(Language::Shell)
        );
        assert_eq!(language("data.txt", "hello"), None);
    }
}
