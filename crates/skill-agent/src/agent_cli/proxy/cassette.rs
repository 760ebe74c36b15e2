//! A proxy cassette: every model exchange of one agent session, its requests normalised (the
//! paths of the temporary home and project, dates, ids and the agent's version replaced by
//! placeholders) and split into parts stored once by content hash. The system prompt and tools
//! an agent resends each turn, and the conversation it resends grown by a turn, are each one
//! blob, so a cassette grows with what was said, not with turns squared, and a re-recording
//! after an agent upgrade diffs as the parts that changed.

use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// The format this build writes and reads.
pub(crate) const FORMAT: u32 = 1;

/// One recorded session.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cassette {
    /// [`FORMAT`].
    pub format: u32,
    /// The harness (`claude-code`, `codex`...).
    pub harness: String,
    /// The agent's version when recorded.
    pub agent_version: Option<String>,
    /// Every model exchange, in the order the answers arrived.
    pub exchanges: Vec<Exchange>,
    /// The request parts, by hash.
    pub blobs: BTreeMap<String, Value>,
}

/// One request and the answer it got.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    /// The path, without the query.
    pub path: String,
    /// Each top-level field of the normalised body: a blob hash, or a list of them for the
    /// conversation.
    pub request: BTreeMap<String, Part>,
    /// The answer's status.
    pub status: u16,
    /// The answer's content type.
    pub content_type: String,
    /// The answer's body, as it came.
    pub response: String,
}

/// A field of a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Part {
    /// One blob.
    One(String),
    /// A conversation: a blob per item.
    Many(Vec<String>),
}

/// Why a cassette could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ProxyCassetteError {
    /// Reading or writing failed.
    #[error("{path}: {message}")]
    Io {
        /// The cassette.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// The file is not a cassette of this format.
    #[error("{path}: not a proxy cassette: {message}")]
    Format {
        /// The cassette.
        path: PathBuf,
        /// What is wrong, with the line where there is one.
        message: String,
    },
}

impl Cassette {
    /// Reads and checks the cassette at `path`.
    pub fn load(path: &Path) -> Result<Cassette, ProxyCassetteError> {
        let format = |message: String| ProxyCassetteError::Format {
            path: path.to_owned(),
            message,
        };
        let bytes = std::fs::read(path).map_err(|e| ProxyCassetteError::Io {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        let text = std::str::from_utf8(&bytes).map_err(|e| format(e.to_string()))?;
        let cassette: Cassette = serde_saphyr::from_str(text).map_err(|e| format(e.to_string()))?;
        if cassette.format != FORMAT {
            return Err(format(format!(
                "format {} (this build reads {FORMAT})",
                cassette.format
            )));
        }
        for exchange in &cassette.exchanges {
            if let Some(missing) = exchange.hashes().find(|h| !cassette.blobs.contains_key(*h)) {
                return Err(format(format!("blob {missing} is missing")));
            }
        }
        Ok(cassette)
    }

    /// Writes the cassette to `path` whole or not at all.
    pub fn save(&self, path: &Path) -> Result<(), ProxyCassetteError> {
        let io = |message: String| ProxyCassetteError::Io {
            path: path.to_owned(),
            message,
        };
        let text = serde_saphyr::to_string(self).map_err(|e| io(e.to_string()))?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(e.to_string()))?;
        }
        skill_archive::atomic_file::write(path, text.as_bytes()).map_err(|e| io(e.to_string()))
    }

    /// Splits a normalised request body into parts, storing the blobs it brings.
    pub fn split(&mut self, conversation_key: &str, body: &Value) -> BTreeMap<String, Part> {
        let mut parts = BTreeMap::new();
        let Some(fields) = body.as_object() else {
            parts.insert(String::new(), Part::One(self.store(body)));
            return parts;
        };
        for (key, value) in fields {
            let part = match value.as_array() {
                Some(items) if key == conversation_key => {
                    Part::Many(items.iter().map(|item| self.store(item)).collect())
                }
                _ => Part::One(self.store(value)),
            };
            parts.insert(key.clone(), part);
        }
        parts
    }

    /// The body `parts` stand for.
    pub fn join(&self, parts: &BTreeMap<String, Part>) -> Value {
        let blob = |hash: &String| self.blobs.get(hash).cloned().unwrap_or(Value::Null);
        if let Some(Part::One(hash)) = parts.get("") {
            return blob(hash);
        }
        let mut body = serde_json::Map::new();
        for (key, part) in parts {
            let value = match part {
                Part::One(hash) => blob(hash),
                Part::Many(hashes) => Value::Array(hashes.iter().map(blob).collect()),
            };
            body.insert(key.clone(), value);
        }
        Value::Object(body)
    }

    fn store(&mut self, value: &Value) -> String {
        let hash = hash_of(value);
        self.blobs
            .entry(hash.clone())
            .or_insert_with(|| value.clone());
        hash
    }
}

impl Exchange {
    fn hashes(&self) -> impl Iterator<Item = &String> {
        self.request.values().flat_map(|part| match part {
            Part::One(hash) => std::slice::from_ref(hash).iter(),
            Part::Many(hashes) => hashes.iter(),
        })
    }
}

/// The first 16 hex digits of the SHA-256 of `value`'s JSON.
fn hash_of(value: &Value) -> String {
    let digest = Sha256::digest(value.to_string().as_bytes());
    hex::encode(&digest[..8])
}

/// What a request may vary from run to run, replaced before it is stored or compared.
#[derive(Debug, Clone, Default)]
pub struct Normaliser {
    /// Literal texts (temporary folders, the agent's version) and their placeholders.
    literals: Vec<(String, String)>,
}

/// Run-to-run noise that is not literal: ids, dates and times.
static NOISE: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    let month = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\\.?";
    let day = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?";
    [
        (
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}".to_owned(),
            "<id>",
        ),
        ("[0-9a-f]{24,}".to_owned(), "<id>"),
        (
            "\\b\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?".to_owned(),
            "<date>",
        ),
        (format!("\\b(?:{day} +)?{month} +\\d{{1,2}},? +\\d{{4}}\\b"), "<date>"),
        (format!("\\b(?:{day} +)?\\d{{1,2}} +{month},? +\\d{{4}}\\b"), "<date>"),
        ("\\b\\d{1,2}/\\d{1,2}/\\d{4}\\b".to_owned(), "<date>"),
        // Codex's command output: a chunk id and the time the command took.
        ("Chunk ID: [0-9a-f]+".to_owned(), "Chunk ID: <id>"),
        ("Wall time: [0-9.]+ seconds".to_owned(), "Wall time: <duration>"),
        // Unix times in milliseconds or seconds, 2020 to 2033.
        ("\\b1[6-9]\\d{11}\\b".to_owned(), "<time>"),
        ("\\b1[6-9]\\d{8}(?:\\.\\d+)?\\b".to_owned(), "<time>"),
        ("\\b\\d{1,2}:\\d{2}(?::\\d{2})?(?: ?[AP]M)?\\b".to_owned(), "<time>"),
    ]
    .into_iter()
    .map(|(pattern, with)| (Regex::new(&pattern).expect("a valid pattern"), with))
    .collect()
});

impl Normaliser {
    /// Replaces `text` wherever it appears with `placeholder` (longer texts first).
    pub fn literal(mut self, text: &str, placeholder: &str) -> Normaliser {
        if !text.is_empty() {
            self.literals
                .push((text.to_owned(), placeholder.to_owned()));
            self.literals
                .sort_by_key(|(t, _)| std::cmp::Reverse(t.len()));
        }
        self
    }

    /// `text` with the run's literals (its folders, the agent's version) replaced: what an
    /// answer is stored as, so that a replay can put this run's back ([`Normaliser::expand`]).
    pub fn literals(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for (literal, placeholder) in &self.literals {
            text = text.replace(literal, placeholder);
        }
        text
    }

    /// A stored answer with this run's literals in place of the placeholders.
    pub fn expand(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for (literal, placeholder) in &self.literals {
            text = text.replace(placeholder, literal);
        }
        text
    }

    /// `body` with the run's noise replaced in every string and key, and every object's keys
    /// sorted (agents that build a request from a hash map vary its order).
    pub fn apply(&self, body: &Value) -> Value {
        sorted(self.walk(body))
    }

    fn walk(&self, value: &Value) -> Value {
        match value {
            Value::String(text) => Value::String(self.scrub(text)),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.walk(v)).collect()),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(key, v)| (self.scrub(key), self.walk(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// One string with the literals and the noise replaced, and a skills listing in one order.
    fn scrub(&self, text: &str) -> String {
        let mut text = self.literals(text);
        for (pattern, with) in NOISE.iter() {
            if pattern.is_match(&text) {
                text = pattern.replace_all(&text, *with).into_owned();
            }
        }
        sorted_listing(&text).unwrap_or(text)
    }
}

/// `text` with the `<skill>` entries of its `<available_skills>` block sorted: Gemini CLI
/// lists skills in the order its concurrent reads finish. `None` when there is no such block
/// made only of entries.
fn sorted_listing(text: &str) -> Option<String> {
    static ENTRY: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?s)\s*<skill>.*?</skill>").expect("a valid pattern"));
    let start = text.find("<available_skills>")? + "<available_skills>".len();
    let end = start + text[start..].find("</available_skills>")?;
    let block = &text[start..end];
    let mut entries: Vec<&str> = Vec::new();
    let mut covered = 0;
    for found in ENTRY.find_iter(block) {
        if found.start() != covered {
            return None;
        }
        covered = found.end();
        entries.push(found.as_str());
    }
    if entries.is_empty() || !block[covered..].trim().is_empty() {
        return None;
    }
    entries.sort_unstable();
    Some(format!(
        "{}{}{}{}",
        &text[..start],
        entries.concat(),
        &block[covered..],
        &text[end..]
    ))
}

fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_growing_conversation_is_stored_once_per_turn() {
        let mut cassette = Cassette::default();
        let system = "x".repeat(10_000);
        let mut messages = Vec::new();
        for turn in 0..20 {
            messages.push(json!({"role": "user", "content": format!("turn {turn}")}));
            let body = json!({"system": system, "messages": messages});
            let request = cassette.split("messages", &body);
            assert_eq!(cassette.join(&request), body);
        }
        assert_eq!(
            cassette.blobs.len(),
            1 + 20,
            "the system prompt once, each turn once"
        );
    }

    #[test]
    fn an_answer_stored_from_one_run_names_the_folders_of_the_run_that_replays_it() {
        let recording = Normaliser::default().literal("/tmp/skill-harness-aaa", "$RUN");
        let stored = recording.literals(r#"{"file_path":"/tmp/skill-harness-aaa/project/a.txt"}"#);
        assert_eq!(stored, r#"{"file_path":"$RUN/project/a.txt"}"#);
        let replaying = Normaliser::default().literal("/tmp/skill-harness-bbb", "$RUN");
        assert_eq!(
            replaying.expand(&stored),
            r#"{"file_path":"/tmp/skill-harness-bbb/project/a.txt"}"#
        );
    }

    #[test]
    fn a_skills_listing_read_in_any_order_is_one() {
        let a = "x <available_skills>\n  <skill>\n    <name>b</name>\n  </skill>\n  <skill>\n    <name>a</name>\n  </skill>\n</available_skills> y";
        let b = "x <available_skills>\n  <skill>\n    <name>a</name>\n  </skill>\n  <skill>\n    <name>b</name>\n  </skill>\n</available_skills> y";
        let normaliser = Normaliser::default();
        assert_eq!(normaliser.scrub(a), normaliser.scrub(b));
        assert_eq!(normaliser.scrub(b), b);
    }

    #[test]
    fn run_noise_is_replaced() {
        let normaliser = Normaliser::default()
            .literal("/tmp/skill-harness-ab12/home", "$HOME")
            .literal("2.1.328", "<version>");
        let body = json!({
            "system": "cwd /tmp/skill-harness-ab12/home/p, Today is Saturday, December 5, 2026 at 10:02 (2026-12-05T10:02:03Z)",
            "metadata": {"user_id": "user_3f2a9c0d1e4b5a6978877665544332211_session_123e4567-e89b-12d3-a456-426614174000"},
            "ua": "claude-cli/2.1.328",
            "meta": "{\"turn_started_at_unix_ms\":1796444147535,\"at\":1796444147}",
            "created": 1796444147
        });
        assert_eq!(
            normaliser.apply(&body),
            json!({
                "system": "cwd $HOME/p, Today is <date> at <time> (<date>)",
                "metadata": {"user_id": "user_<id>_session_<id>"},
                "ua": "claude-cli/<version>",
                "meta": "{\"turn_started_at_unix_ms\":<time>,\"at\":<time>}",
                "created": 1796444147
            })
        );
    }
}
