//! A scripted OpenAI-compatible model on loopback that does tasks, for impact evals. As an
//! agent it reads the eval's first input file, reads the SKILL.md of the skill the router
//! (tests/common/router.rs) would pick, follows the skill's one instruction it understands
//! (a line "Write `FILE` containing `TEXT`.") and answers; with no skill it guesses. As a
//! grader (a system prompt starting "You grade") it passes an expectation when the outputs
//! hold the expectation's last word, quoting it, except that it lies for an expectation
//! ending "trust me": PASS with a quote found nowhere, which a careful grader loop refuses. As
//! a blind judge (a system prompt starting "You compare") it prefers the output that has a
//! `report.json`.

use axum::body::Body;
use axum::extract::State;
use axum::response::Response;
use regex::Regex;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Shared {
    requests: Mutex<Vec<Value>>,
}

/// The running server.
pub struct Worker {
    /// `http://127.0.0.1:PORT/v1`.
    pub base: String,
    shared: Arc<Shared>,
    server: super::loopback::Loopback,
}

impl Worker {
    /// Starts the server.
    pub fn start() -> Worker {
        let shared = Arc::new(Shared::default());
        let app = axum::Router::new()
            .route("/v1/chat/completions", axum::routing::post(complete))
            .with_state(Arc::clone(&shared));
        let server = super::loopback::Loopback::start(app);
        Worker {
            base: format!("{}/v1", server.url),
            shared,
            server,
        }
    }

    /// How many requests arrived.
    pub fn calls(&self) -> usize {
        self.shared.requests.lock().unwrap().len()
    }

    /// Stops the server and waits until its port is closed.
    pub fn stop(self) {
        self.server.stop();
    }
}

fn text_of(message: &Value) -> &str {
    message["content"].as_str().unwrap_or("")
}

/// The agent's next step: a tool call (name, arguments) or a final answer.
fn act(messages: &[Value]) -> Result<(&'static str, Value), String> {
    let system = messages.first().map(text_of).unwrap_or("");
    let user = messages.get(1).map(text_of).unwrap_or("");
    let calls: Vec<&Value> = messages
        .iter()
        .filter_map(|m| m["tool_calls"].as_array())
        .flatten()
        .collect();
    let called = |name: &str, needle: &str| {
        calls.iter().any(|c| {
            c["function"]["name"] == name
                && c["function"]["arguments"]
                    .as_str()
                    .is_some_and(|a| a.contains(needle))
        })
    };
    if let Some(input) = user.split("Input files: ").nth(1) {
        let first = input.split(", ").next().unwrap_or("").trim();
        if !called("read_file", first) {
            return Ok(("read_file", json!({"path": first})));
        }
    }
    let (skill, _) = super::router::route(system, user.split("\n\nInput files:").next().unwrap());
    if let Some(name) = &skill {
        let path = format!("skills/{name}/SKILL.md");
        if !called("read_file", &path) {
            return Ok(("read_file", json!({"path": path})));
        }
    }
    let instruction = Regex::new(r"Write `([^`]+)` containing `([^`]+)`\.").unwrap();
    let read = messages
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(text_of)
        .find_map(|text| instruction.captures(text));
    match read {
        Some(found) if !called("write_file", &found[1]) => Ok((
            "write_file",
            json!({"path": &found[1], "content": &found[2]}),
        )),
        Some(found) => Err(format!("Wrote {} with the total.", &found[1])),
        None => Err("The total is probably around 40.".to_owned()),
    }
}

/// The grader's reply to the user message of a grading request.
fn grade(message: &str) -> String {
    let (head, outputs) = message.split_once("\n# Outputs\n").unwrap_or((message, ""));
    let list = head.split("# Expectations\n").nth(1).unwrap_or("");
    let item = Regex::new(r"(?m)^\d+\. (.+)$").unwrap();
    let verdicts: Vec<Value> = item
        .captures_iter(list)
        .map(|c| {
            let text = c[1].to_owned();
            if text.ends_with("trust me") {
                return json!({"text": text, "passed": true,
                    "evidence": "The report says \"everything is verified\""});
            }
            let last = text
                .trim_end_matches('.')
                .rsplit(' ')
                .next()
                .unwrap_or("")
                .to_lowercase();
            let line = outputs
                .lines()
                .filter(|l| !l.starts_with('#'))
                .find(|l| l.to_lowercase().contains(&last));
            let passed = line.is_some();
            let evidence = match line {
                Some(line) => format!("The output says \"{}\"", line.trim()),
                None => format!("nothing in the output mentions {last}"),
            };
            json!({"text": text, "passed": passed, "evidence": evidence})
        })
        .collect();
    format!("Here is my grading:\n{}", json!({"expectations": verdicts}))
}

/// The judge's reply: the output with a `report.json` wins.
fn judge(message: &str) -> String {
    let (a, b) = message
        .split_once("\n# Output B\n")
        .unwrap_or((message, ""));
    let has = |text: &str| text.contains("## File `report.json`");
    let winner = match (has(a), has(b)) {
        (true, false) => "A",
        (false, true) => "B",
        _ => "tie",
    };
    json!({"winner": winner, "reason": "one output has \"report.json\""}).to_string()
}

async fn complete(State(shared): State<Arc<Shared>>, body: axum::body::Bytes) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    shared.requests.lock().unwrap().push(body.clone());
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let system = messages.first().map(text_of).unwrap_or("");
    let (text, call) = if system.starts_with("You compare") {
        (judge(messages.get(1).map(text_of).unwrap_or("")), None)
    } else if system.starts_with("You grade") {
        (grade(messages.get(1).map(text_of).unwrap_or("")), None)
    } else {
        match act(&messages) {
            Ok(call) => (String::new(), Some(call)),
            Err(answer) => (answer, None),
        }
    };
    let calls: Vec<Value> = call
        .iter()
        .map(|(name, arguments)| {
            json!({"id": format!("call_{}", messages.len()), "type": "function",
                "function": {"name": name, "arguments": arguments.to_string()}})
        })
        .collect();
    let finish = if calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    let mut message = json!({"role": "assistant", "content": text});
    if !calls.is_empty() {
        message["tool_calls"] = json!(calls);
    }
    let usage = json!({"prompt_tokens": 100 * messages.len(), "completion_tokens": 10});
    let reply = json!({"choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage});
    if body["stream"] == json!(true) {
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
        return Response::builder()
            .header("content-type", "text/event-stream")
            .body(Body::from(out))
            .unwrap();
    }
    Response::builder()
        .header("content-type", "application/json")
        .body(Body::from(reply.to_string()))
        .unwrap()
}
