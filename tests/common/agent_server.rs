//! A model on loopback for the real agent CLIs: it answers every request with the one word
//! "ok" in whichever API the CLI speaks (Anthropic messages, OpenAI Responses, OpenAI chat
//! completions, Gemini `generateContent`, streamed or whole as asked), and keeps each request's
//! path and body, so a test can read the system prompt and tools an agent sent. Other requests
//! (model lists, token counts, probes) get an empty success, so no CLI waits on a retry.

use axum::body::Body;
use axum::extract::State;
use axum::http::{Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

/// One request as it arrived.
#[derive(Debug, Clone)]
pub struct Request {
    /// The path and query.
    pub path: String,
    /// The JSON body (`Null` when there was none or it was not JSON).
    pub body: Value,
}

/// The running server.
pub struct AgentServer {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    requests: Arc<Mutex<Vec<Request>>>,
    _server: super::loopback::Loopback,
}

impl AgentServer {
    /// Starts the server on a free loopback port.
    pub fn start() -> AgentServer {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let app = axum::Router::new()
            .fallback(answer)
            .with_state(Arc::clone(&requests));
        let server = super::loopback::Loopback::start(app);
        AgentServer {
            url: server.url.clone(),
            requests,
            _server: server,
        }
    }

    /// Every model request received (those that ask for an answer), in order.
    pub fn model_requests(&self) -> Vec<Request> {
        self.requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| Api::of(&r.path).is_some() && r.body.is_object())
            .cloned()
            .collect()
    }
}

/// The APIs answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Api {
    Anthropic,
    Responses,
    Chat,
    Gemini { stream: bool },
}

impl Api {
    fn of(path: &str) -> Option<Api> {
        let path = path.split('?').next().unwrap_or(path);
        if path.ends_with("/messages") {
            Some(Api::Anthropic)
        } else if path.ends_with("/responses") {
            Some(Api::Responses)
        } else if path.ends_with("/chat/completions") {
            Some(Api::Chat)
        } else if path.ends_with(":streamGenerateContent") {
            Some(Api::Gemini { stream: true })
        } else if path.ends_with(":generateContent") {
            Some(Api::Gemini { stream: false })
        } else {
            None
        }
    }
}

async fn answer(
    State(requests): State<Arc<Mutex<Vec<Request>>>>,
    method: Method,
    uri: Uri,
    body: axum::body::Bytes,
) -> Response {
    let path = uri
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_default();
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    requests.lock().unwrap().push(Request {
        path: path.clone(),
        body: body.clone(),
    });
    let stream = body.get("stream").and_then(Value::as_bool) == Some(true);
    match (method, Api::of(&path)) {
        (Method::POST, Some(Api::Anthropic)) if stream => sse(anthropic_events(&body)),
        (Method::POST, Some(Api::Anthropic)) => json_response(anthropic_message(&body)),
        (Method::POST, Some(Api::Responses)) => sse(responses_events(&body)),
        (Method::POST, Some(Api::Chat)) if stream => sse(chat_events(&body)),
        (Method::POST, Some(Api::Chat)) => json_response(chat_completion(&body)),
        (Method::POST, Some(Api::Gemini { stream: true })) => {
            sse(format!("data: {}\r\n\r\n", gemini_reply()))
        }
        (Method::POST, Some(Api::Gemini { stream: false })) => json_response(gemini_reply()),
        (_, _) if path.contains(":countTokens") => json_response(json!({"totalTokens": 10})),
        (_, _) if path.contains("count_tokens") => json_response(json!({"input_tokens": 10})),
        _ => json_response(json!({"data": [], "models": [], "has_more": false})),
    }
}

fn model(body: &Value) -> String {
    body.get("model")
        .and_then(Value::as_str)
        .unwrap_or("test-model")
        .to_owned()
}

fn anthropic_message(body: &Value) -> Value {
    json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": model(body),
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn", "stop_sequence": null,
        "usage": {"input_tokens": 10, "output_tokens": 1}
    })
}

fn anthropic_events(body: &Value) -> String {
    let mut start = anthropic_message(body);
    start["content"] = json!([]);
    start["stop_reason"] = Value::Null;
    let events = [
        (
            "message_start",
            json!({"type": "message_start", "message": start}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 1}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ];
    named_events(&events)
}

fn responses_events(body: &Value) -> String {
    let item = json!({
        "type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
        "content": [{"type": "output_text", "text": "ok", "annotations": []}]
    });
    let response = json!({
        "id": "resp_1", "object": "response", "created_at": 0, "status": "in_progress",
        "model": model(body), "output": []
    });
    let mut done = response.clone();
    done["status"] = json!("completed");
    done["output"] = json!([item]);
    done["usage"] = json!({
        "input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 1, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 11
    });
    let mut added = item.clone();
    added["status"] = json!("in_progress");
    added["content"] = json!([]);
    let events = [
        (
            "response.created",
            json!({"type": "response.created", "response": response}),
        ),
        (
            "response.output_item.added",
            json!({"type": "response.output_item.added", "output_index": 0, "item": added}),
        ),
        (
            "response.output_text.delta",
            json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "ok"}),
        ),
        (
            "response.output_item.done",
            json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
        ),
        (
            "response.completed",
            json!({"type": "response.completed", "response": done}),
        ),
    ];
    named_events(&events)
}

fn chat_completion(body: &Value) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": model(body),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11}
    })
}

fn chat_events(body: &Value) -> String {
    let chunk = |delta: Value, finish: Value| {
        json!({
            "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0,
            "model": model(body),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        })
    };
    let mut last = chunk(json!({}), json!("stop"));
    last["usage"] = json!({"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11});
    let mut out = String::new();
    for event in [
        chunk(json!({"role": "assistant", "content": ""}), Value::Null),
        chunk(json!({"content": "ok"}), Value::Null),
        last,
    ] {
        out.push_str(&format!("data: {event}\n\n"));
    }
    out.push_str("data: [DONE]\n\n");
    out
}

fn gemini_reply() -> Value {
    json!({
        "candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 1, "totalTokenCount": 11}
    })
}

fn named_events(events: &[(&str, Value)]) -> String {
    events
        .iter()
        .map(|(name, data)| format!("event: {name}\ndata: {data}\n\n"))
        .collect()
}

fn sse(text: String) -> Response {
    Response::builder()
        .status(StatusCode::OK)
        .header("content-type", "text/event-stream")
        .header("cache-control", "no-cache")
        .body(Body::from(text))
        .unwrap()
}

fn json_response(value: Value) -> Response {
    Response::builder()
        .status(StatusCode::OK)
        .header("content-type", "application/json")
        .body(Body::from(value.to_string()))
        .unwrap()
}
