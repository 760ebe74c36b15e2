//! A model on loopback for the real agent CLIs: it answers every request with the one word
//! "ok" in whichever API the CLI speaks (Anthropic messages, OpenAI Responses, OpenAI chat
//! completions, Gemini `generateContent`, streamed or whole as asked), and keeps each request's
//! path and body, so a test can read the system prompt and tools an agent sent. Other requests
//! (model lists, token counts, probes) get an empty success, so no CLI waits on a retry.
//!
//! Started `scripted` with routes (a word of the user's prompt, a skill), it plays a model that
//! picks a skill: when the last user text holds a route's word and no tool was called yet, it
//! calls the agent's own skill tool for that skill (`Skill`, `activate_skill`, `skill`), or,
//! for an agent without one, its shell tool on the skill's SKILL.md.

use axum::body::Body;
use axum::extract::State;
use axum::http::{Method, StatusCode, Uri};
use axum::response::Response;
// The paths of the four APIs, as the proxy under test tells them apart.
use serde_json::{Value, json};
use skill_agent::agent_cli::proxy::api::Api;
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

#[derive(Clone)]
struct Shared {
    requests: Arc<Mutex<Vec<Request>>>,
    routes: Arc<Vec<(String, String)>>,
    writer: Option<Arc<Writer>>,
    command: Option<Arc<String>>,
}

/// A Claude Code model that writes a file in the project when a skill is listed.
struct Writer {
    skill: String,
    file: String,
    content: String,
}

impl AgentServer {
    /// Starts the server on a free loopback port.
    pub fn start() -> AgentServer {
        AgentServer::scripted(&[])
    }

    /// Starts a server that picks the skill of the first route whose word (any case) the
    /// user's prompt holds.
    pub fn scripted(routes: &[(&str, &str)]) -> AgentServer {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let shared = Shared {
            requests: Arc::clone(&requests),
            routes: Arc::new(
                routes
                    .iter()
                    .map(|(w, s)| (w.to_lowercase(), (*s).to_owned()))
                    .collect(),
            ),
            writer: None,
            command: None,
        };
        AgentServer::serve(shared, requests)
    }

    /// Starts a server that plays Claude Code's model: while `skill` is in the listing it
    /// sent, it writes `content` to `file` in the project with the Write tool, then says "ok";
    /// without the skill it only says "ok".
    pub fn writing(skill: &str, file: &str, content: &str) -> AgentServer {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let shared = Shared {
            requests: Arc::clone(&requests),
            routes: Arc::new(Vec::new()),
            writer: Some(Arc::new(Writer {
                skill: skill.to_owned(),
                file: file.to_owned(),
                content: content.to_owned(),
            })),
            command: None,
        };
        AgentServer::serve(shared, requests)
    }

    /// Starts a server that plays Copilot CLI's model: it runs `command` with the bash tool,
    /// then says "ok".
    pub fn running(command: &str) -> AgentServer {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let shared = Shared {
            requests: Arc::clone(&requests),
            routes: Arc::new(Vec::new()),
            writer: None,
            command: Some(Arc::new(command.to_owned())),
        };
        AgentServer::serve(shared, requests)
    }

    fn serve(shared: Shared, requests: Arc<Mutex<Vec<Request>>>) -> AgentServer {
        let app = axum::Router::new().fallback(answer).with_state(shared);
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

async fn answer(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    body: axum::body::Bytes,
) -> Response {
    let path = uri
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_default();
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    shared.requests.lock().unwrap().push(Request {
        path: path.clone(),
        body: body.clone(),
    });
    let stream = body.get("stream").and_then(Value::as_bool) == Some(true);
    if method == Method::POST
        && let Some(api) = Api::of(&path)
        && let Some(skill) = pick(&shared.routes, api, &body)
    {
        return call_skill(api, &body, &skill, stream);
    }
    if let (true, Some(Api::Anthropic), Some(writer)) =
        (method == Method::POST, Api::of(&path), &shared.writer)
        && let Some(input) = write_input(writer, &body)
    {
        return tool_use(&body, "Write", input, stream);
    }
    if let (true, Some(Api::Chat), Some(command)) =
        (method == Method::POST, Api::of(&path), &shared.command)
        && body["tools"].is_array()
        && !body.to_string().contains("\"tool_calls\"")
    {
        let arguments = json!({"command": command.as_str(), "description": "Run it"});
        return chat_call(&body, "bash", &arguments.to_string(), stream);
    }
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

/// The skill to call for `body`: none once the conversation holds a tool call.
fn pick(routes: &[(String, String)], api: Api, body: &Value) -> Option<String> {
    if routes.is_empty() {
        return None;
    }
    let text = body.to_string();
    if [
        "\"tool_use\"",
        "\"function_call\"",
        "\"tool_calls\"",
        "\"functionCall\"",
    ]
    .iter()
    .any(|m| text.contains(m))
    {
        return None;
    }
    let prompt = last_user_text(api, body)?.to_lowercase();
    routes
        .iter()
        .find(|(word, _)| prompt.contains(word.as_str()))
        .map(|(_, skill)| skill.clone())
}

/// The last text of the last user turn.
fn last_user_text(api: Api, body: &Value) -> Option<String> {
    let (key, role) = match api {
        Api::Anthropic | Api::Chat => ("messages", "user"),
        Api::Responses => ("input", "user"),
        Api::Gemini { .. } => ("contents", "user"),
    };
    let turn = body[key]
        .as_array()?
        .iter()
        .rev()
        .find(|m| m["role"] == role)?;
    let content = if matches!(api, Api::Gemini { .. }) {
        &turn["parts"]
    } else {
        &turn["content"]
    };
    match content {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => parts
            .iter()
            .rev()
            .find_map(|p| p["text"].as_str().map(str::to_owned)),
        _ => None,
    }
}

/// The names of the tools a request offers.
fn tool_names(api: Api, body: &Value) -> Vec<String> {
    let tools = body["tools"].as_array().cloned().unwrap_or_default();
    let names = tools.iter().flat_map(|t| match api {
        Api::Gemini { .. } => t["functionDeclarations"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .filter_map(|f| f["name"].as_str().map(str::to_owned))
            .collect::<Vec<_>>(),
        Api::Chat => t["function"]["name"]
            .as_str()
            .map(str::to_owned)
            .into_iter()
            .collect(),
        _ => t["name"].as_str().map(str::to_owned).into_iter().collect(),
    });
    names.collect()
}

/// The call that loads `skill` with the tools offered: (tool, arguments).
fn skill_call(api: Api, body: &Value, skill: &str) -> (String, Value) {
    let names = tool_names(api, body);
    let has = |n: &str| names.iter().any(|t| t == n);
    if has("Skill") {
        ("Skill".into(), json!({"skill": skill}))
    } else if has("activate_skill") {
        ("activate_skill".into(), json!({"name": skill}))
    } else if has("skill") {
        ("skill".into(), json!({"name": skill}))
    } else {
        let shell = ["exec_command", "shell", "shell_command", "bash"]
            .into_iter()
            .find(|n| has(n))
            .unwrap_or("shell");
        let command = format!("cat .agents/skills/{skill}/SKILL.md");
        let args = match shell {
            "exec_command" => json!({"cmd": command}),
            "shell_command" => json!({"command": command}),
            _ => json!({"command": ["bash", "-lc", command]}),
        };
        (shell.into(), args)
    }
}

fn call_skill(api: Api, body: &Value, skill: &str, stream: bool) -> Response {
    let (tool, args) = skill_call(api, body, skill);
    let arguments = args.to_string();
    match api {
        Api::Anthropic => tool_use(body, &tool, args, stream),
        Api::Responses => {
            let item = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": tool, "arguments": arguments, "status": "completed"});
            let response = json!({"id": "resp_1", "object": "response", "created_at": 0, "status": "in_progress", "model": model(body), "output": []});
            let mut done = response.clone();
            done["status"] = json!("completed");
            done["output"] = json!([item]);
            done["usage"] = json!({"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 1, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 11});
            sse(named_events(&[
                (
                    "response.created",
                    json!({"type": "response.created", "response": response}),
                ),
                (
                    "response.output_item.added",
                    json!({"type": "response.output_item.added", "output_index": 0, "item": item}),
                ),
                (
                    "response.output_item.done",
                    json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
                ),
                (
                    "response.completed",
                    json!({"type": "response.completed", "response": done}),
                ),
            ]))
        }
        Api::Chat => chat_call(body, &tool, &arguments, stream),
        Api::Gemini { stream } => {
            let reply = json!({
                "candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": tool, "args": args}}]}, "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 1, "totalTokenCount": 11}
            });
            if stream {
                sse(format!("data: {reply}\r\n\r\n"))
            } else {
                json_response(reply)
            }
        }
    }
}

/// The Write call of `writer`: when its skill is listed, no tool was called yet, and the
/// request names the project (Claude Code's `Primary working directory: …`).
fn write_input(writer: &Writer, body: &Value) -> Option<Value> {
    let text = body.to_string();
    if !text.contains(&format!("- {}: ", writer.skill)) || text.contains("\"tool_use\"") {
        return None;
    }
    let marker = "working directory: ";
    let start = text.find(marker)? + marker.len();
    let cwd: String = text[start..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '\\')
        .collect();
    Some(json!({"file_path": format!("{cwd}/{}", writer.file), "content": writer.content}))
}

/// An Anthropic answer that calls `tool` with `input`.
fn tool_use(body: &Value, tool: &str, input: Value, stream: bool) -> Response {
    let mut message = anthropic_message(body);
    message["content"] =
        json!([{"type": "tool_use", "id": "toolu_1", "name": tool, "input": input}]);
    message["stop_reason"] = json!("tool_use");
    if !stream {
        return json_response(message);
    }
    let mut start = message.clone();
    start["content"] = json!([]);
    start["stop_reason"] = Value::Null;
    sse(named_events(&[
        (
            "message_start",
            json!({"type": "message_start", "message": start}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": tool, "input": {}}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": input.to_string()}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null}, "usage": {"output_tokens": 1}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ]))
}

/// A chat completion that calls `tool` with `arguments` (JSON text).
fn chat_call(body: &Value, tool: &str, arguments: &str, stream: bool) -> Response {
    let call = json!({"id": "call_1", "type": "function", "function": {"name": tool, "arguments": arguments}});
    if !stream {
        let mut reply = chat_completion(body);
        reply["choices"][0]["message"] =
            json!({"role": "assistant", "content": null, "tool_calls": [call]});
        reply["choices"][0]["finish_reason"] = json!("tool_calls");
        return json_response(reply);
    }
    let chunk = |delta: Value, finish: Value| json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": model(body), "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    let mut streamed = call.clone();
    streamed["index"] = json!(0);
    let mut last = chunk(json!({}), json!("tool_calls"));
    last["usage"] = json!({"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11});
    let mut out = String::new();
    for event in [
        chunk(
            json!({"role": "assistant", "content": null, "tool_calls": [streamed]}),
            Value::Null,
        ),
        last,
    ] {
        out.push_str(&format!("data: {event}\n\n"));
    }
    out.push_str("data: [DONE]\n\n");
    sse(out)
}
