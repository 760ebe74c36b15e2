//! The four model APIs the agent CLIs speak, as the proxy sees them: which API a request is
//! for, the tool calls already in its conversation, and the short final answer the proxy gives
//! in place of the model once an eval has seen the agent's choice.

use serde_json::{Value, json};

/// A model API, told by the request's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// Anthropic's messages (`/v1/messages`).
    Anthropic,
    /// OpenAI's Responses (`/v1/responses`).
    Responses,
    /// OpenAI's chat completions (`/v1/chat/completions`).
    Chat,
    /// Gemini's `generateContent`, streamed or whole.
    Gemini {
        /// `:streamGenerateContent`.
        stream: bool,
    },
}

impl Api {
    /// The API of a request for a model's answer at `path` (query included), if it is one.
    pub fn of(path: &str) -> Option<Api> {
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

    /// Where a request's conversation is: the key whose array grows turn by turn.
    pub(crate) fn conversation_key(self) -> &'static str {
        match self {
            Api::Anthropic | Api::Chat => "messages",
            Api::Responses => "input",
            Api::Gemini { .. } => "contents",
        }
    }
}

/// A call of a tool the model made earlier in a conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The tool's name.
    pub name: String,
    /// Its arguments (a string of JSON is parsed; one that is not JSON stays a string).
    pub arguments: Value,
}

/// The tool calls in the conversation of `body`, in order.
pub fn tool_calls(api: Api, body: &Value) -> Vec<ToolCall> {
    let items = body[api.conversation_key()].as_array();
    let items = items.into_iter().flatten();
    let call = |name: &Value, arguments: &Value| ToolCall {
        name: name.as_str().unwrap_or_default().to_owned(),
        arguments: match arguments {
            Value::String(text) => serde_json::from_str(text).unwrap_or_else(|_| arguments.clone()),
            other => other.clone(),
        },
    };
    match api {
        Api::Anthropic => items
            .flat_map(|m| m["content"].as_array().into_iter().flatten())
            .filter(|b| b["type"] == "tool_use")
            .map(|b| call(&b["name"], &b["input"]))
            .collect(),
        Api::Responses => items
            .filter_map(|item| match item["type"].as_str() {
                Some("function_call") => Some(call(&item["name"], &item["arguments"])),
                Some("custom_tool_call") => Some(call(&item["name"], &item["input"])),
                Some("local_shell_call") => Some(call(&json!("shell"), &item["action"])),
                _ => None,
            })
            .collect(),
        Api::Chat => items
            .flat_map(|m| m["tool_calls"].as_array().into_iter().flatten())
            .map(|c| call(&c["function"]["name"], &c["function"]["arguments"]))
            .collect(),
        Api::Gemini { .. } => items
            .flat_map(|c| c["parts"].as_array().into_iter().flatten())
            .filter_map(|p| p.get("functionCall"))
            .map(|f| call(&f["name"], &f["args"]))
            .collect(),
    }
}

/// A whole answer: its content type and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// `application/json` or `text/event-stream`.
    pub content_type: &'static str,
    /// The body.
    pub body: String,
}

/// The text the proxy answers with in place of the model.
const FINAL_TEXT: &str = "Done.";

/// A final answer of `FINAL_TEXT` in `api`'s shape, streamed when `body` asks for a stream.
pub fn final_answer(api: Api, body: &Value) -> Answer {
    let model = body["model"].as_str().unwrap_or("model").to_owned();
    let stream = body["stream"].as_bool() == Some(true);
    match api {
        Api::Anthropic if stream => sse(anthropic_events(&model)),
        Api::Anthropic => whole(anthropic_message(&model)),
        Api::Responses => sse(responses_events(&model)),
        Api::Chat if stream => sse(chat_events(&model)),
        Api::Chat => whole(chat_completion(&model)),
        Api::Gemini { stream: true } => sse(format!("data: {}\r\n\r\n", gemini_reply())),
        Api::Gemini { stream: false } => whole(gemini_reply()),
    }
}

fn whole(value: Value) -> Answer {
    Answer {
        content_type: "application/json",
        body: value.to_string(),
    }
}

fn sse(body: String) -> Answer {
    Answer {
        content_type: "text/event-stream",
        body,
    }
}

fn named_events(events: &[(&str, Value)]) -> String {
    events
        .iter()
        .map(|(name, data)| format!("event: {name}\ndata: {data}\n\n"))
        .collect()
}

fn anthropic_message(model: &str) -> Value {
    json!({
        "id": "msg_skill_proxy", "type": "message", "role": "assistant", "model": model,
        "content": [{"type": "text", "text": FINAL_TEXT}],
        "stop_reason": "end_turn", "stop_sequence": null,
        "usage": {"input_tokens": 0, "output_tokens": 0}
    })
}

fn anthropic_events(model: &str) -> String {
    let mut start = anthropic_message(model);
    start["content"] = json!([]);
    start["stop_reason"] = Value::Null;
    named_events(&[
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
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": FINAL_TEXT}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 0}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ])
}

fn responses_events(model: &str) -> String {
    let item = json!({
        "type": "message", "id": "msg_skill_proxy", "status": "completed", "role": "assistant",
        "content": [{"type": "output_text", "text": FINAL_TEXT, "annotations": []}]
    });
    let response = json!({
        "id": "resp_skill_proxy", "object": "response", "created_at": 0, "status": "in_progress",
        "model": model, "output": []
    });
    let mut done = response.clone();
    done["status"] = json!("completed");
    done["output"] = json!([item]);
    done["usage"] = json!({
        "input_tokens": 0, "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 0, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 0
    });
    let mut added = item.clone();
    added["status"] = json!("in_progress");
    added["content"] = json!([]);
    named_events(&[
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
            json!({"type": "response.output_text.delta", "item_id": "msg_skill_proxy", "output_index": 0, "content_index": 0, "delta": FINAL_TEXT}),
        ),
        (
            "response.output_item.done",
            json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
        ),
        (
            "response.completed",
            json!({"type": "response.completed", "response": done}),
        ),
    ])
}

fn chat_completion(model: &str) -> Value {
    json!({
        "id": "chatcmpl-skill-proxy", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": FINAL_TEXT}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
    })
}

fn chat_events(model: &str) -> String {
    let chunk = |delta: Value, finish: Value| {
        json!({
            "id": "chatcmpl-skill-proxy", "object": "chat.completion.chunk", "created": 0,
            "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        })
    };
    let mut last = chunk(json!({}), json!("stop"));
    last["usage"] = json!({"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0});
    let mut out = String::new();
    for event in [
        chunk(json!({"role": "assistant", "content": ""}), Value::Null),
        chunk(json!({"content": FINAL_TEXT}), Value::Null),
        last,
    ] {
        out.push_str(&format!("data: {event}\n\n"));
    }
    out.push_str("data: [DONE]\n\n");
    out
}

fn gemini_reply() -> Value {
    json!({
        "candidates": [{"content": {"role": "model", "parts": [{"text": FINAL_TEXT}]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 0, "candidatesTokenCount": 0, "totalTokenCount": 0}
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_calls_are_read_from_each_apis_conversation() {
        let anthropic = json!({"messages": [{"role": "assistant", "content": [
            {"type": "text", "text": "x"},
            {"type": "tool_use", "id": "t", "name": "Skill", "input": {"skill": "pdf"}}]}]});
        let responses = json!({"input": [{"type": "function_call", "name": "shell",
            "arguments": "{\"command\":[\"cat\",\"a/SKILL.md\"]}", "call_id": "c"}]});
        let chat = json!({"messages": [{"role": "assistant", "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "skill", "arguments": "{\"name\":\"pdf\"}"}}]}]});
        let gemini = json!({"contents": [{"role": "model", "parts": [
            {"functionCall": {"name": "activate_skill", "args": {"name": "pdf"}}}]}]});
        let first = |api, body| tool_calls(api, &body).remove(0);
        assert_eq!(
            first(Api::Anthropic, anthropic).arguments,
            json!({"skill": "pdf"})
        );
        assert_eq!(
            first(Api::Responses, responses).arguments,
            json!({"command": ["cat", "a/SKILL.md"]})
        );
        assert_eq!(first(Api::Chat, chat).name, "skill");
        assert_eq!(
            first(Api::Gemini { stream: true }, gemini).name,
            "activate_skill"
        );
    }

    #[test]
    fn the_api_is_told_by_the_path() {
        assert_eq!(Api::of("/v1/messages?beta=true"), Some(Api::Anthropic));
        assert_eq!(
            Api::of("/v1beta/models/m:streamGenerateContent?alt=sse"),
            Some(Api::Gemini { stream: true })
        );
        assert_eq!(Api::of("/v1/models"), None);
    }
}
