//! Placeholders for what differs between runs of the same scenario: the workspace path, the home
//! folder, the commands' TMPDIR, and the values of secret env vars, whole or in part.

use crate::message::{Message, Reply, Request, Thinking, ToolCall};
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Env var names whose values are secrets: one of their `_`-separated words is, or ends with,
/// one of these (`OPENAI_API_KEY`, `GH_TOKEN`, `APIKEY`, `DB_PASSWORD`).
const SECRET_WORDS: &[&str] = &[
    "KEY",
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "CREDENTIAL",
    "CREDENTIALS",
    "AUTH",
];
/// Names with a secret word whose values are not secrets.
const NOT_SECRETS: &[&str] = &["SSH_AUTH_SOCK", "GPG_AGENT_INFO", "XAUTHORITY"];
/// Shorter values are too likely to occur by chance to be replaced.
const MIN_SECRET_LEN: usize = 8;
/// The shortest run of a secret's characters replaced wherever it appears: a command that
/// prints most of a key (`cut -c1-31`) must not put most of it in a cassette.
const MIN_SECRET_PART: usize = 12;

/// Whether the env var `name` holds a secret.
fn is_secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    !NOT_SECRETS.contains(&upper.as_str())
        && upper
            .split('_')
            .any(|word| SECRET_WORDS.iter().any(|s| word.ends_with(s)))
}

/// Replaces run-specific strings with placeholders, and placeholders with this run's strings.
#[derive(Debug, Clone, Default)]
pub struct Normaliser {
    /// (this run's text, placeholder), longest text first.
    pairs: Vec<(String, String)>,
    /// The secret placeholders a replayed reply may have expanded: those of the variables the
    /// commands are given anyway. Any other secret stays a placeholder, or a cassette anyone
    /// wrote could put `{secret:AWS_SECRET_ACCESS_KEY}` in a command and get the key.
    expandable: Vec<String>,
    /// Secret env vars (name, value) at least [`MIN_SECRET_PART`] long.
    secrets: Vec<(String, String)>,
    /// Every [`MIN_SECRET_PART`]-byte window of those values that starts on a character:
    /// (secret, byte offset) by its bytes, to find any part of a secret in one pass.
    windows: HashMap<Vec<u8>, Vec<(usize, usize)>>,
}

impl Normaliser {
    /// A normaliser for a run in `workspace`, with `home` and this process's secret env values.
    pub fn new(workspace: &std::path::Path, home: Option<&std::path::Path>) -> Normaliser {
        let mut pairs = Vec::new();
        let mut secrets = Vec::new();
        for (name, value) in std::env::vars() {
            if value.len() >= MIN_SECRET_LEN && is_secret_name(&name) {
                pairs.push((value.clone(), format!("{{secret:{name}}}")));
                if value.len() >= MIN_SECRET_PART {
                    secrets.push((name, value));
                }
            }
        }
        let mut add_path = |path: &std::path::Path, placeholder: &str| {
            let text = path.display().to_string();
            if text.len() > 1 {
                pairs.push((text, placeholder.to_owned()));
            }
            if let Ok(real) = std::fs::canonicalize(path) {
                let real = real.display().to_string();
                if real.len() > 1 {
                    pairs.push((real, placeholder.to_owned()));
                }
            }
        };
        add_path(workspace, "{workspace}");
        if let Some(home) = home {
            add_path(home, "{home}");
        }
        let mut normaliser = Normaliser {
            pairs,
            expandable: Vec::new(),
            secrets: Vec::new(),
            windows: HashMap::new(),
        };
        normaliser.sort();
        normaliser.with_secrets(secrets)
    }

    /// The same normaliser replacing any part of these secrets (name, value) at least
    /// [`MIN_SECRET_PART`] bytes long.
    fn with_secrets(mut self, mut secrets: Vec<(String, String)>) -> Normaliser {
        secrets.sort();
        secrets.dedup();
        let mut windows: HashMap<Vec<u8>, Vec<(usize, usize)>> = HashMap::new();
        for (index, (_, value)) in secrets.iter().enumerate() {
            for (offset, _) in value.char_indices() {
                if let Some(window) = value.as_bytes().get(offset..offset + MIN_SECRET_PART) {
                    windows
                        .entry(window.to_vec())
                        .or_default()
                        .push((index, offset));
                }
            }
        }
        self.secrets = secrets;
        self.windows = windows;
        self
    }

    /// `text` with every run of at least [`MIN_SECRET_PART`] bytes of a secret replaced:
    /// `{secret:NAME}` for the whole value, `{secret:NAME[a..b]}` for bytes `a..b` of it.
    fn redact_parts(&self, text: &str) -> String {
        if self.windows.is_empty() || text.len() < MIN_SECRET_PART {
            return text.to_owned();
        }
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let (mut copied, mut at) = (0, 0);
        while at + MIN_SECRET_PART <= bytes.len() {
            let found = text
                .is_char_boundary(at)
                .then(|| self.windows.get(&bytes[at..at + MIN_SECRET_PART]))
                .flatten()
                .and_then(|hits| self.longest_part(text, at, hits));
            let Some((secret, offset, len)) = found else {
                at += 1;
                continue;
            };
            let (name, value) = &self.secrets[secret];
            out.push_str(&text[copied..at]);
            if offset == 0 && len == value.len() {
                out.push_str(&format!("{{secret:{name}}}"));
            } else {
                out.push_str(&format!("{{secret:{name}[{offset}..{}]}}", offset + len));
            }
            at += len;
            copied = at;
        }
        out.push_str(&text[copied..]);
        out
    }

    /// The longest run of a secret starting at byte `at` of `text`, among the secret windows
    /// `hits` found there: (secret, offset in it, length), ending on a character.
    fn longest_part(
        &self,
        text: &str,
        at: usize,
        hits: &[(usize, usize)],
    ) -> Option<(usize, usize, usize)> {
        let bytes = &text.as_bytes()[at..];
        hits.iter()
            .map(|&(secret, offset)| {
                let value = &self.secrets[secret].1.as_bytes()[offset..];
                let mut len = bytes.iter().zip(value).take_while(|(a, b)| a == b).count();
                while !text.is_char_boundary(at + len) {
                    len -= 1;
                }
                (secret, offset, len)
            })
            .filter(|&(_, _, len)| len >= MIN_SECRET_PART)
            .max_by_key(|&(secret, offset, len)| (len, std::cmp::Reverse((secret, offset))))
    }

    /// The same normaliser with `path` also replaced by `placeholder`.
    pub(crate) fn with_path(mut self, path: &std::path::Path, placeholder: &str) -> Normaliser {
        let text = path.display().to_string();
        if text.len() > 1 {
            self.pairs.push((text, placeholder.to_owned()));
            self.sort();
        }
        self
    }

    /// The same normaliser, expanding into replayed replies only the secrets of the variables
    /// named in `names`.
    pub(crate) fn expanding_secrets(mut self, names: &[String]) -> Normaliser {
        self.expandable = names.iter().map(|n| format!("{{secret:{n}}}")).collect();
        self
    }

    /// The longest first, so a workspace inside the home folder becomes `{workspace}`.
    fn sort(&mut self) {
        self.pairs
            .sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        self.pairs.dedup_by(|a, b| a.0 == b.0);
    }

    /// `text` with placeholders.
    pub(crate) fn normalise_text(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for (value, placeholder) in &self.pairs {
            if out.contains(value.as_str()) {
                out = out.replace(value.as_str(), placeholder);
            }
        }
        self.redact_parts(&out)
    }

    /// `text` with this run's paths and secret values in place of the placeholders: what a
    /// replayed tool call runs with (secrets are put back in memory only, never written).
    pub(crate) fn expand_text(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for (value, placeholder) in &self.pairs {
            if placeholder.starts_with("{secret:") && !self.expandable.contains(placeholder) {
                continue;
            }
            if out.contains(placeholder.as_str()) {
                out = out.replace(placeholder.as_str(), value);
            }
        }
        if !out.contains("{secret:") {
            return out;
        }
        static PART: OnceLock<Regex> = OnceLock::new();
        let part = PART.get_or_init(|| {
            Regex::new(r"\{secret:([^\[\]{}]+)\[(\d+)\.\.(\d+)\]\}").expect("valid regex")
        });
        part.replace_all(&out, |caps: &regex::Captures| {
            let name = &caps[1];
            let value = self
                .secrets
                .iter()
                .find(|(n, _)| n == name)
                .filter(|_| self.expandable.contains(&format!("{{secret:{name}}}")))
                .map(|(_, v)| v.as_str());
            let range = caps[2].parse::<usize>().ok()..caps[3].parse::<usize>().ok();
            match (value, range) {
                (
                    Some(value),
                    std::ops::Range {
                        start: Some(a),
                        end: Some(b),
                    },
                ) => value.get(a..b).unwrap_or(&caps[0]).to_owned(),
                _ => caps[0].to_owned(),
            }
        })
        .into_owned()
    }

    /// The request as a cassette stores it: placeholders in, tools sorted by name.
    pub fn normalise_request(&self, request: &Request) -> Request {
        let mut tools = request.tools.clone();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        for tool in &mut tools {
            tool.description = self.normalise_text(&tool.description);
        }
        Request {
            messages: request
                .messages
                .iter()
                .map(|m| self.map_message(m, &|t| self.normalise_text(t)))
                .collect(),
            tools,
        }
    }

    /// The reply as a cassette stores it.
    pub fn normalise_reply(&self, reply: &Reply) -> Reply {
        self.map_reply(reply, &|t| self.normalise_text(t))
    }

    /// A stored reply made ready for this run.
    pub fn expand_reply(&self, reply: &Reply) -> Reply {
        self.map_reply(reply, &|t| self.expand_text(t))
    }

    fn map_reply(&self, reply: &Reply, f: &dyn Fn(&str) -> String) -> Reply {
        Reply {
            text: f(&reply.text),
            thinking: reply.thinking.iter().map(|t| map_thinking(t, f)).collect(),
            tool_calls: reply.tool_calls.iter().map(|c| map_call(c, f)).collect(),
            refusal: reply.refusal.as_deref().map(f),
            ..reply.clone()
        }
    }

    fn map_message(&self, message: &Message, f: &dyn Fn(&str) -> String) -> Message {
        match message {
            Message::System { content } => Message::System {
                content: f(content),
            },
            Message::User { content } => Message::User {
                content: f(content),
            },
            Message::Assistant {
                content,
                thinking,
                tool_calls,
                refusal,
            } => Message::Assistant {
                content: f(content),
                thinking: thinking.iter().map(|t| map_thinking(t, f)).collect(),
                tool_calls: tool_calls.iter().map(|c| map_call(c, f)).collect(),
                refusal: refusal.as_deref().map(f),
            },
            Message::Tool {
                call_id,
                name,
                content,
                is_error,
            } => Message::Tool {
                call_id: call_id.clone(),
                name: name.clone(),
                content: f(content),
                is_error: *is_error,
            },
        }
    }
}

/// Thinking text gets placeholders like any text; a signature or redacted data is the
/// provider's and stays as it is.
fn map_thinking(block: &Thinking, f: &dyn Fn(&str) -> String) -> Thinking {
    match block {
        Thinking::Thinking {
            thinking,
            signature,
        } => Thinking::Thinking {
            thinking: f(thinking),
            signature: signature.clone(),
        },
        redacted @ Thinking::RedactedThinking { .. } => redacted.clone(),
    }
}

fn map_call(call: &ToolCall, f: &dyn Fn(&str) -> String) -> ToolCall {
    ToolCall {
        id: call.id.clone(),
        name: call.name.clone(),
        arguments: f(&call.arguments),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(secrets: &[(&str, &str)]) -> Normaliser {
        let mut normaliser = Normaliser::default().with_secrets(
            secrets
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
        );
        for (name, value) in secrets {
            normaliser
                .pairs
                .push((value.to_string(), format!("{{secret:{name}}}")));
        }
        normaliser.sort();
        normaliser
    }

    #[test]
    fn any_part_of_a_secret_of_twelve_bytes_or_more_is_redacted() {
        let secret = "sk-proj-4f8a9b2c7d1e6f3a0b5c8d9e2f7a1b4"; // 39 characters
        let n = with(&[("OPENAI_API_KEY", secret)]);
        let prefix = &secret[..31];
        assert_eq!(
            n.normalise_text(&format!("key={prefix}\n")),
            "key={secret:OPENAI_API_KEY[0..31]}\n"
        );
        let middle = &secret[5..17];
        assert_eq!(
            n.normalise_text(&format!("[{middle}]")),
            "[{secret:OPENAI_API_KEY[5..17]}]"
        );
        assert_eq!(
            n.normalise_text(&format!("{secret} and {secret}")),
            "{secret:OPENAI_API_KEY} and {secret:OPENAI_API_KEY}"
        );
        // Eleven bytes may be chance; they stay.
        let short = &secret[3..14];
        assert_eq!(n.normalise_text(short), short);
        // What is put back is only ever the part, and only for secrets the commands get.
        let placeholder = n.normalise_text(prefix);
        assert_eq!(n.expand_text(&placeholder), placeholder);
        let n = n.expanding_secrets(&["OPENAI_API_KEY".to_owned()]);
        assert_eq!(n.expand_text(&placeholder), prefix);
        assert_eq!(
            n.expand_text("{secret:OPENAI_API_KEY[30..99]}"),
            "{secret:OPENAI_API_KEY[30..99]}"
        );
    }

    #[test]
    fn parts_never_split_a_character() {
        let secret = "pässwörd-ünïcödé-välüé";
        let n = with(&[("DB_PASSWORD", secret)]);
        let part = &secret[..secret.char_indices().nth(14).unwrap().0];
        let out = n.normalise_text(&format!("{part}x"));
        assert!(out.starts_with("{secret:DB_PASSWORD[0.."), "{out}");
        assert!(out.ends_with('x'), "{out}");
    }

    #[test]
    fn secret_names_are_whole_words_or_endings() {
        for name in [
            "OPENAI_API_KEY",
            "GH_TOKEN",
            "APIKEY",
            "DB_PASSWORD",
            "AWS_SECRET_ACCESS_KEY",
        ] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in [
            "GIT_AUTHOR_NAME",
            "XAUTHORITY",
            "SSH_AUTH_SOCK",
            "KEYBOARD",
            "PATH",
        ] {
            assert!(!is_secret_name(name), "{name}");
        }
    }
}
