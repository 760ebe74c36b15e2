//! A scripted model on loopback: it answers OpenAI chat-completions and Anthropic messages
//! requests from a script, streamed (SSE) or whole as the request asks, keeps every request
//! body for the test to inspect, and refuses conversations whose tool results do not pair with
//! their tool calls.

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Step {
    /// Text and tool calls (name, arguments as JSON text).
    Reply(&'static str, Vec<(&'static str, String)>),
    /// An error status, with a Retry-After header when given.
    Status(u16, Option<u64>, &'static str),
    /// A stream that stops halfway (no end marker).
    CutStream,
    /// A completion with no choices (OpenAI only).
    NoChoices,
}

/// A tool call step.
pub fn call(name: &'static str, arguments: Value) -> (&'static str, String) {
    (name, arguments.to_string())
}

#[derive(Default)]
struct Shared {
    script: Mutex<VecDeque<Step>>,
    requests: Mutex<Vec<Value>>,
    calls: Mutex<usize>,
}

/// The running server.
pub struct ModelServer {
    /// `http://127.0.0.1:PORT`: append `/v1` for OpenAI clients.
    pub url: String,
    shared: Arc<Shared>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ModelServer {
    /// Starts a server that plays `script`.
    pub fn start(script: Vec<Step>) -> ModelServer {
        let shared = Arc::new(Shared {
            script: Mutex::new(script.into()),
            ..Shared::default()
        });
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let state = Arc::clone(&shared);
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let app = axum::Router::new()
                    .route("/v1/chat/completions", axum::routing::post(openai))
                    .route("/v1/messages", axum::routing::post(anthropic))
                    .with_state(state);
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = rx.await;
                    })
                    .await
                    .unwrap();
            });
        });
        ModelServer {
            url,
            shared,
            shutdown: Some(tx),
            thread: Some(thread),
        }
    }

    /// The OpenAI-style base URL.
    pub fn openai_base(&self) -> String {
        format!("{}/v1", self.url)
    }

    /// Every request body received, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// How many requests arrived (including refused ones).
    pub fn calls(&self) -> usize {
        *self.shared.calls.lock().unwrap()
    }

    /// Stops the server and waits until its port is closed.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for ModelServer {
    fn drop(&mut self) {
        self.halt();
    }
}

/// The next step; `None` when the script is used up.
fn next(shared: &Shared, body: &Value) -> Option<Step> {
    *shared.calls.lock().unwrap() += 1;
    shared.requests.lock().unwrap().push(body.clone());
    shared.script.lock().unwrap().pop_front()
}

fn plain(status: u16, text: &str) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap())
        .body(Body::from(text.to_owned()))
        .unwrap()
}

fn status_step(status: u16, retry_after: Option<u64>, text: &str) -> Response {
    let mut response = plain(status, text);
    if let Some(seconds) = retry_after {
        response
            .headers_mut()
            .insert("retry-after", seconds.to_string().parse().unwrap());
    }
    response
}

fn sse(text: String) -> Response {
    Response::builder()
        .header("content-type", "text/event-stream")
        .body(Body::from(text))
        .unwrap()
}

fn json_response(value: Value) -> Response {
    Response::builder()
        .header("content-type", "application/json")
        .body(Body::from(value.to_string()))
        .unwrap()
}

/// Every assistant tool call must be answered by a tool message, in order, before anything else.
fn check_openai_pairing(body: &Value) -> Result<(), String> {
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    if messages.first().map(|m| &m["role"]) != Some(&json!("system")) {
        return Err("the first message is not the system prompt".into());
    }
    for (i, m) in messages.iter().enumerate() {
        for (k, call) in m["tool_calls"].as_array().into_iter().flatten().enumerate() {
            let answer = messages.get(i + 1 + k);
            if answer.map(|a| &a["tool_call_id"]) != Some(&call["id"]) {
                return Err(format!("tool call {} has no result after it", call["id"]));
            }
        }
    }
    Ok(())
}

fn check_anthropic_pairing(body: &Value) -> Result<(), String> {
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    for (i, m) in messages.iter().enumerate() {
        let ids: Vec<&Value> = m["content"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|b| b["type"] == "tool_use")
            .map(|b| &b["id"])
            .collect();
        if ids.is_empty() {
            continue;
        }
        let answered: Vec<&Value> = messages
            .get(i + 1)
            .and_then(|n| n["content"].as_array())
            .into_iter()
            .flatten()
            .filter(|b| b["type"] == "tool_result")
            .map(|b| &b["tool_use_id"])
            .collect();
        if answered != ids {
            return Err(format!("tool uses {ids:?} are answered by {answered:?}"));
        }
    }
    Ok(())
}

fn pieces(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(7).map(|c| c.iter().collect()).collect()
}

async fn openai(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let Some(step) = next(&shared, &body) else {
        return plain(500, "the script has no more steps");
    };
    if headers.contains_key("x-api-key") {
        return plain(400, "an OpenAI request carries an Anthropic header");
    }
    if let Err(e) = check_openai_pairing(&body) {
        return plain(400, &e);
    }
    let stream = body["stream"] == json!(true);
    let (text, calls) = match step {
        Step::Status(status, retry, text) => return status_step(status, retry, text),
        Step::NoChoices => return json_response(json!({"choices": []})),
        Step::CutStream => {
            return sse("data: {\"choices\":[{\"delta\":{\"content\":\"Half\"}}]}\n\n".into());
        }
        Step::Reply(text, calls) => (text, calls),
    };
    let usage = json!({"prompt_tokens": 100, "completion_tokens": 10});
    let finish = if calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    if !stream {
        let mut message = json!({"role": "assistant", "content": text});
        if !calls.is_empty() {
            message["tool_calls"] = calls
                .iter()
                .enumerate()
                .map(|(i, (name, args))| {
                    json!({"id": format!("call_{i}"), "type": "function",
                        "function": {"name": name, "arguments": args}})
                })
                .collect();
        }
        return json_response(json!({"choices": [{"index": 0, "message": message,
            "finish_reason": finish}], "usage": usage}));
    }
    let mut out = String::new();
    let mut push = |v: Value| out.push_str(&format!("data: {v}\n\n"));
    for piece in pieces(text) {
        push(json!({"choices": [{"index": 0, "delta": {"content": piece}}]}));
    }
    for (i, (name, args)) in calls.iter().enumerate() {
        let half = args.len() / 2;
        push(
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": i,
            "id": format!("call_{i}"), "type": "function",
            "function": {"name": name, "arguments": &args[..half]}}]}}]}),
        );
        push(
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": i,
            "function": {"arguments": &args[half..]}}]}}]}),
        );
    }
    push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}));
    push(json!({"choices": [], "usage": usage}));
    out.push_str("data: [DONE]\n\n");
    sse(out)
}

async fn anthropic(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let Some(step) = next(&shared, &body) else {
        return plain(500, "the script has no more steps");
    };
    if headers.get("anthropic-version").is_none() {
        return plain(400, "anthropic-version header missing");
    }
    if let Err(e) = check_anthropic_pairing(&body) {
        return plain(400, &e);
    }
    let stream = body["stream"] == json!(true);
    let (text, calls) = match step {
        Step::Status(status, retry, text) => return status_step(status, retry, text),
        Step::NoChoices => return json_response(json!({"type": "message", "content": []})),
        Step::CutStream => {
            return sse("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5}}}\n\n".into());
        }
        Step::Reply(text, calls) => (text, calls),
    };
    let stop = if calls.is_empty() {
        "end_turn"
    } else {
        "tool_use"
    };
    if !stream {
        let mut content = Vec::new();
        if !text.is_empty() {
            content.push(json!({"type": "text", "text": text}));
        }
        for (i, (name, args)) in calls.iter().enumerate() {
            let input: Value = serde_json::from_str(args).unwrap_or(json!({}));
            content.push(json!({"type": "tool_use", "id": format!("toolu_{i}"), "name": name, "input": input}));
        }
        return json_response(
            json!({"type": "message", "role": "assistant", "content": content,
            "stop_reason": stop, "usage": {"input_tokens": 100, "output_tokens": 10}}),
        );
    }
    let mut out = String::new();
    let mut push = |name: &str, v: Value| out.push_str(&format!("event: {name}\ndata: {v}\n\n"));
    push(
        "message_start",
        json!({"type": "message_start", "message": {"usage": {"input_tokens": 100, "output_tokens": 1}}}),
    );
    let mut index = 0;
    if !text.is_empty() {
        push(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "text", "text": ""}}),
        );
        for piece in pieces(text) {
            push(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": 0,
                "delta": {"type": "text_delta", "text": piece}}),
            );
        }
        push(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        );
        index = 1;
    }
    for (i, (name, args)) in calls.iter().enumerate() {
        let block = index + i;
        push(
            "content_block_start",
            json!({"type": "content_block_start", "index": block,
            "content_block": {"type": "tool_use", "id": format!("toolu_{i}"), "name": name, "input": {}}}),
        );
        let half = args.len() / 2;
        for part in [&args[..half], &args[half..]] {
            push(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": block,
                "delta": {"type": "input_json_delta", "partial_json": part}}),
            );
        }
        push(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": block}),
        );
    }
    push(
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": stop},
        "usage": {"output_tokens": 10}}),
    );
    push("message_stop", json!({"type": "message_stop"}));
    sse(out)
}
