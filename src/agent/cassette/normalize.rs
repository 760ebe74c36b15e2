//! Placeholders for what differs between runs of the same scenario: the workspace path, the home
//! folder, the commands' TMPDIR, and the values of secret env vars.

use crate::agent::message::{Message, Reply, Request, ToolCall};

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
pub struct Normalizer {
    /// (this run's text, placeholder), longest text first.
    pairs: Vec<(String, String)>,
    /// The secret placeholders a replayed reply may have expanded: those of the variables the
    /// commands are given anyway. Any other secret stays a placeholder, or a cassette anyone
    /// wrote could put `{secret:AWS_SECRET_ACCESS_KEY}` in a command and get the key.
    expandable: Vec<String>,
}

impl Normalizer {
    /// A normaliser for a run in `workspace`, with `home` and this process's secret env values.
    pub fn new(workspace: &std::path::Path, home: Option<&std::path::Path>) -> Normalizer {
        let mut pairs = Vec::new();
        for (name, value) in std::env::vars() {
            if value.len() >= MIN_SECRET_LEN && is_secret_name(&name) {
                pairs.push((value, format!("{{secret:{name}}}")));
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
        let mut normalizer = Normalizer {
            pairs,
            expandable: Vec::new(),
        };
        normalizer.sort();
        normalizer
    }

    /// The same normaliser with `path` also replaced by `placeholder`.
    pub fn with_path(mut self, path: &std::path::Path, placeholder: &str) -> Normalizer {
        let text = path.display().to_string();
        if text.len() > 1 {
            self.pairs.push((text, placeholder.to_owned()));
            self.sort();
        }
        self
    }

    /// The same normaliser, expanding into replayed replies only the secrets of the variables
    /// named in `names`.
    pub fn expanding_secrets(mut self, names: &[String]) -> Normalizer {
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
    pub fn normalize_text(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for (value, placeholder) in &self.pairs {
            if out.contains(value.as_str()) {
                out = out.replace(value.as_str(), placeholder);
            }
        }
        out
    }

    /// `text` with this run's paths and secret values in place of the placeholders: what a
    /// replayed tool call runs with (secrets are put back in memory only, never written).
    pub fn expand_text(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for (value, placeholder) in &self.pairs {
            if placeholder.starts_with("{secret:") && !self.expandable.contains(placeholder) {
                continue;
            }
            if out.contains(placeholder.as_str()) {
                out = out.replace(placeholder.as_str(), value);
            }
        }
        out
    }

    /// The request as a cassette stores it: placeholders in, tools sorted by name.
    pub fn normalize_request(&self, request: &Request) -> Request {
        let mut tools = request.tools.clone();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        for tool in &mut tools {
            tool.description = self.normalize_text(&tool.description);
        }
        Request {
            messages: request
                .messages
                .iter()
                .map(|m| self.map_message(m, &|t| self.normalize_text(t)))
                .collect(),
            tools,
        }
    }

    /// The reply as a cassette stores it.
    pub fn normalize_reply(&self, reply: &Reply) -> Reply {
        self.map_reply(reply, &|t| self.normalize_text(t))
    }

    /// A stored reply made ready for this run.
    pub fn expand_reply(&self, reply: &Reply) -> Reply {
        self.map_reply(reply, &|t| self.expand_text(t))
    }

    fn map_reply(&self, reply: &Reply, f: &dyn Fn(&str) -> String) -> Reply {
        Reply {
            text: f(&reply.text),
            tool_calls: reply.tool_calls.iter().map(|c| map_call(c, f)).collect(),
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
                tool_calls,
            } => Message::Assistant {
                content: f(content),
                tool_calls: tool_calls.iter().map(|c| map_call(c, f)).collect(),
            },
            Message::Tool {
                call_id,
                name,
                content,
            } => Message::Tool {
                call_id: call_id.clone(),
                name: name.clone(),
                content: f(content),
            },
        }
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
