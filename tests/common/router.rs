//! A scripted OpenAI-compatible model on loopback that routes as a model would: it reads the
//! skills summary of the system prompt, and reads (`read_file`) the SKILL.md of the skill whose
//! name and description share the most words with the user's message, or answers directly when
//! none shares at least [`THRESHOLD`] words. A skill whose body is already in the prompt
//! (always-on, mentioned, preloaded: a `### Skill: NAME` block) is scored on its body and, when
//! it wins, used without a read. After a tool result it answers. Ties go to the first listed.
//! Asked to improve a description (the optimiser's proposer), it appends the content words of
//! the training queries that should have loaded the skill and did not, as a naive proposer
//! would.

use axum::body::Body;
use axum::extract::State;
use axum::response::Response;
use regex::Regex;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

/// Words a skill must share with the message to be read.
pub const THRESHOLD: usize = 2;

const STOP_WORDS: &[&str] = &[
    "the", "and", "for", "use", "when", "user", "with", "from", "into", "this", "that", "what",
    "asks", "wants", "are", "you", "your", "can", "how", "its", "any", "all", "out", "about",
];

#[derive(Default)]
struct Shared {
    requests: Mutex<Vec<Value>>,
}

/// The running server.
pub struct Router {
    /// `http://127.0.0.1:PORT/v1`.
    pub base: String,
    shared: Arc<Shared>,
    server: super::loopback::Loopback,
}

impl Router {
    /// Starts the server.
    pub fn start() -> Router {
        let shared = Arc::new(Shared::default());
        let app = axum::Router::new()
            .route("/v1/chat/completions", axum::routing::post(complete))
            .with_state(Arc::clone(&shared));
        let server = super::loopback::Loopback::start(app);
        Router {
            base: format!("{}/v1", server.url),
            shared,
            server,
        }
    }

    /// How many requests arrived.
    pub fn calls(&self) -> usize {
        self.shared.requests.lock().unwrap().len()
    }

    /// Every request body, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// Stops the server and waits until its port is closed.
    pub fn stop(self) {
        self.server.stop();
    }
}

/// The content words of `text`: lower case, three letters or more, no stop words.
pub fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::to_ascii_lowercase)
        .filter(|w| w.len() >= 3 && !STOP_WORDS.contains(&w.as_str()))
        .collect()
}

/// What the router does for a request: `Some(name)` to read that skill's SKILL.md, `None`
/// to answer. Public so tests can state the expected routing from the same rule.
pub fn route(system: &str, user: &str) -> (Option<String>, String) {
    let listed =
        Regex::new(r"<name>([^<]+)</name>\n\s*<description>([^<]*)</description>").unwrap();
    let loaded = Regex::new(r"(?m)^### Skill: (\S+)\n\n").unwrap();
    let (message, attached) = match user.split_once("\n\n[Active Skills — instructions") {
        Some((message, rest)) => (message, rest),
        None => (user, ""),
    };
    let wanted = words(message);
    let mut best: Option<(usize, String, bool)> = None;
    let mut consider = |score: usize, name: &str, is_loaded: bool| {
        if score >= THRESHOLD && best.as_ref().is_none_or(|(s, _, _)| score > *s) {
            best = Some((score, name.to_owned(), is_loaded));
        }
    };
    for text in [system, attached] {
        let heads: Vec<_> = loaded.captures_iter(text).collect();
        for (i, head) in heads.iter().enumerate() {
            let start = head.get(0).unwrap().end();
            let end = heads
                .get(i + 1)
                .map_or(text.len(), |next| next.get(0).unwrap().start());
            let body = &text[start..end];
            // A block ends at the next prompt part or the end of the mention block.
            let body = body.split("\n\n---\n\n").next().unwrap_or(body);
            let body = body.split("\n[/Active Skills]").next().unwrap_or(body);
            let name = &head[1];
            let score = wanted
                .intersection(&words(&format!("{name} {body}")))
                .count();
            consider(score, name, true);
        }
    }
    for entry in listed.captures_iter(system) {
        let score = wanted
            .intersection(&words(&format!("{} {}", &entry[1], &entry[2])))
            .count();
        consider(score, &entry[1], false);
    }
    match best {
        Some((_, name, false)) => (Some(name), String::new()),
        Some((_, name, true)) => (None, format!("Done, following the {name} skill.")),
        None => (None, "I can answer that without a skill.".to_owned()),
    }
}

async fn complete(State(shared): State<Arc<Shared>>, body: axum::body::Bytes) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    shared.requests.lock().unwrap().push(body.clone());
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let system = messages
        .first()
        .and_then(|m| m["content"].as_str())
        .unwrap_or("");
    let last = messages.last().cloned().unwrap_or(Value::Null);
    let (read, text) = if system.starts_with("You improve") {
        (None, propose(last["content"].as_str().unwrap_or("")))
    } else if last["role"] == "tool" {
        (None, "Done.".to_owned())
    } else {
        route(system, last["content"].as_str().unwrap_or(""))
    };
    let calls: Vec<Value> = read
        .iter()
        .map(|name| {
            json!({"id": "call_0", "type": "function", "function": {"name": "read_file",
                "arguments": json!({"path": format!("skills/{name}/SKILL.md")}).to_string()}})
        })
        .collect();
    let finish = if calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    let usage = json!({"prompt_tokens": 100, "completion_tokens": 10});
    if body["stream"] != json!(true) {
        let mut message = json!({"role": "assistant", "content": text});
        if !calls.is_empty() {
            message["tool_calls"] = json!(calls);
        }
        return json_response(
            json!({"choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": usage}),
        );
    }
    let mut out = String::new();
    let mut push = |v: Value| out.push_str(&format!("data: {v}\n\n"));
    push(json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": text}}]}));
    for (i, call) in calls.iter().enumerate() {
        push(
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": i,
            "id": call["id"], "type": "function", "function": call["function"]}]}}]}),
        );
    }
    push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}));
    push(json!({"choices": [], "usage": usage}));
    out.push_str("data: [DONE]\n\n");
    Response::builder()
        .header("content-type", "text/event-stream")
        .body(Body::from(out))
        .unwrap()
}

/// The proposer's reply: the current description and the words of the missed queries.
fn propose(message: &str) -> String {
    let current = message
        .split("## Current description\n\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or("");
    let mut missed: Vec<String> = Vec::new();
    for line in message.lines() {
        if let Some((_, query)) = line
            .strip_prefix("- should load the skill but did not")
            .and_then(|rest| rest.split_once("): "))
        {
            for word in words(query) {
                if !missed.contains(&word) && !current.to_lowercase().contains(&word) {
                    missed.push(word);
                }
            }
        }
    }
    format!(
        "<description>{current} Also for {}.</description>",
        missed.join(", ")
    )
}

fn json_response(value: Value) -> Response {
    Response::builder()
        .header("content-type", "application/json")
        .body(Body::from(value.to_string()))
        .unwrap()
}
