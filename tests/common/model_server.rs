//! A scripted model on loopback: it answers OpenAI chat-completions and Anthropic messages
//! requests from a script, streamed (SSE) or whole as the request asks, keeps every request
//! body for the test to inspect, and refuses what the real APIs refuse: tool results that do
//! not pair with their calls, a tool message with a `name` (a strict gateway; the model
//! `needs-tool-names` stands for an old server that wants it instead), `max_tokens` over 4096
//! for a `claude-3-haiku` model, and, with thinking on, an assistant turn that calls tools
//! without its thinking block first. Replies can refuse, be cut off at the token limit, think,
//! stream parallel calls all on index 0, or fail mid-stream, as real providers do.

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
    /// A reply shaped as described.
    Scripted(Scripted),
}

/// A reply with the shapes real providers send.
#[derive(Debug, Clone, Default)]
pub struct Scripted {
    /// The text.
    pub text: &'static str,
    /// Tool calls (name, arguments as JSON text).
    pub calls: Vec<(&'static str, String)>,
    /// A refusal: OpenAI's `refusal` field (no content); Anthropic's text with
    /// `stop_reason: refusal`.
    pub refusal: Option<&'static str>,
    /// The token limit cuts the reply: `length` / `max_tokens`, and the last call's arguments
    /// stop halfway (whole Anthropic answers keep an object: the API's `input` is one).
    pub cut_off: bool,
    /// A thinking block (text, signature), Anthropic only.
    pub thinking: Option<(&'static str, &'static str)>,
    /// Every streamed call on index 0, told apart by id only (OpenAI streams).
    pub shared_index: bool,
    /// An error event (type, message) after the text, instead of the end of the reply.
    pub error: Option<(&'static str, &'static str)>,
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
    server: super::loopback::Loopback,
}

impl ModelServer {
    /// Starts a server that plays `script`.
    pub fn start(script: Vec<Step>) -> ModelServer {
        let shared = Arc::new(Shared {
            script: Mutex::new(script.into()),
            ..Shared::default()
        });
        let app = axum::Router::new()
            .route("/v1/chat/completions", axum::routing::post(openai))
            .route("/v1/messages", axum::routing::post(anthropic))
            .with_state(Arc::clone(&shared));
        let server = super::loopback::Loopback::start(app);
        ModelServer {
            url: server.url.clone(),
            shared,
            server,
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
    pub fn stop(self) {
        self.server.stop();
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
    let wants_names = body["model"] == "needs-tool-names";
    for m in messages.iter().filter(|m| m["role"] == "tool") {
        match (m.get("name").is_some(), wants_names) {
            (true, false) => {
                return Err("messages.tool.name: Extra inputs are not permitted".into());
            }
            (false, true) => return Err("tool messages need a name".into()),
            _ => {}
        }
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
    let model = body["model"].as_str().unwrap_or_default();
    let max_tokens = body["max_tokens"].as_u64().unwrap_or(0);
    if model.starts_with("claude-3-haiku") && max_tokens > 4096 {
        return Err(format!(
            "max_tokens: {max_tokens} > 4096, which is the maximum allowed number of output tokens for {model}"
        ));
    }
    if body["thinking"]["type"] == "enabled" {
        for m in messages.iter().filter(|m| m["role"] == "assistant") {
            let blocks = m["content"].as_array().cloned().unwrap_or_default();
            let calls = blocks.iter().any(|b| b["type"] == "tool_use");
            let first = blocks.first().map(|b| b["type"].clone());
            if calls
                && first != Some(json!("thinking"))
                && first != Some(json!("redacted_thinking"))
            {
                return Err("messages: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block".into());
            }
        }
    }
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

/// A byte offset near the middle of `text`, on a character boundary.
fn half(text: &str) -> usize {
    (0..=text.len() / 2)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

/// The calls as sent: with the last one's arguments stopping halfway when the reply is cut.
fn cut(reply: &Scripted) -> Vec<(&'static str, String)> {
    let mut calls = reply.calls.clone();
    if reply.cut_off
        && let Some((_, args)) = calls.last_mut()
    {
        args.truncate(half(args));
    }
    calls
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
    let reply = match step {
        Step::Status(status, retry, text) => return status_step(status, retry, text),
        Step::NoChoices => return json_response(json!({"choices": []})),
        Step::CutStream => {
            return sse("data: {\"choices\":[{\"delta\":{\"content\":\"Half\"}}]}\n\n".into());
        }
        Step::Reply(text, calls) => Scripted {
            text,
            calls,
            ..Scripted::default()
        },
        Step::Scripted(reply) => reply,
    };
    let (text, calls) = (reply.text, cut(&reply));
    let usage = json!({"prompt_tokens": 100, "completion_tokens": 10});
    let finish = if reply.cut_off {
        "length"
    } else if calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    if !stream {
        if let Some((kind, message)) = reply.error {
            return json_response(json!({"error": {"type": kind, "message": message}}));
        }
        let mut message = json!({"role": "assistant", "content": text, "refusal": null});
        if let Some(refusal) = reply.refusal {
            message["content"] = Value::Null;
            message["refusal"] = json!(refusal);
        }
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
    push(
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "", "refusal": null}}]}),
    );
    for piece in pieces(text) {
        push(json!({"choices": [{"index": 0, "delta": {"content": piece}}]}));
    }
    for piece in pieces(reply.refusal.unwrap_or_default()) {
        push(json!({"choices": [{"index": 0, "delta": {"refusal": piece}}]}));
    }
    if let Some((kind, message)) = reply.error {
        push(json!({"error": {"message": message, "type": kind, "param": null, "code": null}}));
        return sse(out);
    }
    for (i, (name, args)) in calls.iter().enumerate() {
        let index = if reply.shared_index { 0 } else { i };
        let half = half(args);
        push(
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index,
            "id": format!("call_{i}"), "type": "function",
            "function": {"name": name, "arguments": &args[..half]}}]}}]}),
        );
        push(
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index,
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
    let reply = match step {
        Step::Status(status, retry, text) => return status_step(status, retry, text),
        Step::NoChoices => return json_response(json!({"type": "message", "content": []})),
        Step::CutStream => {
            return sse("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5}}}\n\n".into());
        }
        Step::Reply(text, calls) => Scripted {
            text,
            calls,
            ..Scripted::default()
        },
        Step::Scripted(reply) => reply,
    };
    let text = reply.refusal.unwrap_or(reply.text);
    let whole_calls = reply.calls.clone();
    let calls = cut(&reply);
    let stop = if reply.refusal.is_some() {
        "refusal"
    } else if reply.cut_off {
        "max_tokens"
    } else if calls.is_empty() {
        "end_turn"
    } else {
        "tool_use"
    };
    let stop_details = if reply.refusal.is_some() {
        json!({"type": "refusal", "category": null, "explanation": null})
    } else {
        Value::Null
    };
    if !stream {
        if let Some((kind, message)) = reply.error {
            return json_response(
                json!({"type": "error", "error": {"type": kind, "message": message}}),
            );
        }
        let mut content = Vec::new();
        if let Some((thinking, signature)) = reply.thinking {
            content.push(json!({"type": "thinking", "thinking": thinking, "signature": signature}));
        }
        if !text.is_empty() {
            content.push(json!({"type": "text", "text": text}));
        }
        // The API's `input` is always an object, even when the limit cut the call.
        for (i, (name, args)) in whole_calls.iter().enumerate() {
            let input: Value = serde_json::from_str(args).unwrap_or(json!({}));
            content.push(json!({"type": "tool_use", "id": format!("toolu_{i}"), "name": name, "input": input}));
        }
        return json_response(
            json!({"type": "message", "role": "assistant", "content": content,
            "stop_reason": stop, "stop_details": stop_details,
            "usage": {"input_tokens": 100, "output_tokens": 10}}),
        );
    }
    let mut out = String::new();
    let mut push = |name: &str, v: Value| out.push_str(&format!("event: {name}\ndata: {v}\n\n"));
    push(
        "message_start",
        json!({"type": "message_start", "message": {"usage": {"input_tokens": 100, "output_tokens": 1}}}),
    );
    let mut index = 0;
    if let Some((thinking, signature)) = reply.thinking {
        push(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
        );
        for piece in pieces(thinking) {
            push(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": 0,
                "delta": {"type": "thinking_delta", "thinking": piece}}),
            );
        }
        push(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "signature_delta", "signature": signature}}),
        );
        push(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        );
        index = 1;
    }
    if !text.is_empty() {
        push(
            "content_block_start",
            json!({"type": "content_block_start", "index": index,
            "content_block": {"type": "text", "text": ""}}),
        );
        for piece in pieces(text) {
            push(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index,
                "delta": {"type": "text_delta", "text": piece}}),
            );
        }
        push(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        );
        index += 1;
    }
    if let Some((kind, message)) = reply.error {
        push(
            "error",
            json!({"type": "error", "error": {"type": kind, "message": message}}),
        );
        return sse(out);
    }
    for (i, (name, args)) in calls.iter().enumerate() {
        let block = index + i;
        push(
            "content_block_start",
            json!({"type": "content_block_start", "index": block,
            "content_block": {"type": "tool_use", "id": format!("toolu_{i}"), "name": name, "input": {}}}),
        );
        let half = half(args);
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
        json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_details": stop_details},
        "usage": {"output_tokens": 10}}),
    );
    push("message_stop", json!({"type": "message_stop"}));
    sse(out)
}
