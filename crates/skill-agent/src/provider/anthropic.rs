//! Anthropic's messages API (`POST {base}/v1/messages`), streamed or not. The request follows
//! the official SDK's `MessageCreateParams` types; thinking blocks go back with their
//! signatures, failed tools are marked `is_error`.

use super::partial_json::close_object;
use super::sse::Events;
use super::{ANTHROPIC_MAX_TOKENS, HttpConfig, Model, ModelError, Wire, exchange, http_client};
use crate::message::{Delta, Message, Reply, Request, Thinking, ToolCall, Usage};
use serde_json::{Value, json};

/// The API version header every request carries.
const API_VERSION: &str = "2023-06-01";

/// A messages endpoint.
pub struct Anthropic {
    config: HttpConfig,
    http: reqwest::blocking::Client,
}

impl Anthropic {
    /// A provider for `config`.
    pub fn new(config: HttpConfig) -> Anthropic {
        Anthropic {
            config,
            http: http_client(),
        }
    }
}

impl Model for Anthropic {
    fn complete(
        &mut self,
        request: &Request,
        on_delta: &mut dyn FnMut(Delta),
    ) -> Result<Reply, ModelError> {
        let url = format!("{}/v1/messages", self.config.base_url);
        let body = wire_request(&self.config, request);
        let build = || {
            let builder = self
                .http
                .post(&url)
                .header("anthropic-version", API_VERSION)
                .json(&body);
            match &self.config.api_key {
                Some(key) => builder.header("x-api-key", key),
                None => builder,
            }
        };
        let wire = Wire {
            read_stream: &|reader, on_delta| read_stream(&url, reader, on_delta),
            read_response: &|value| read_response(&url, value),
        };
        exchange(&url, &build, self.config.stream, &wire, on_delta)
    }
}

/// The request body: the system prompt apart, tool results as user turns of `tool_result`
/// blocks (consecutive ones together, as the API requires).
fn wire_request(config: &HttpConfig, request: &Request) -> Value {
    let mut system = Vec::new();
    let mut messages: Vec<Value> = Vec::new();
    for message in &request.messages {
        match message {
            Message::System { content } => system.push(content.as_str()),
            Message::User { content } => {
                messages.push(json!({"role": "user", "content": content}));
            }
            Message::Assistant {
                content,
                thinking,
                tool_calls,
                ..
            } => {
                let blocks = assistant_blocks(content, thinking, tool_calls);
                messages.push(json!({"role": "assistant", "content": blocks}));
            }
            Message::Tool {
                call_id,
                content,
                is_error,
                ..
            } => add_tool_result(&mut messages, call_id, content, *is_error),
        }
    }
    let tools: Vec<Value> = request
        .tools
        .iter()
        .map(
            |t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}),
        )
        .collect();
    let max_tokens = config.options.max_tokens.unwrap_or(ANTHROPIC_MAX_TOKENS);
    let mut body = json!({"model": config.model, "max_tokens": max_tokens, "messages": messages});
    if !system.is_empty() {
        body["system"] = json!(system.join("\n\n"));
    }
    if !tools.is_empty() {
        body["tools"] = Value::Array(tools);
    }
    if let Some(budget) = config.options.thinking_budget {
        body["thinking"] = json!({"type": "enabled", "budget_tokens": budget});
    }
    if config.stream {
        body["stream"] = json!(true);
    }
    body
}

/// An assistant turn's content blocks: thinking, text, tool calls.
fn assistant_blocks(content: &str, thinking: &[Thinking], tool_calls: &[ToolCall]) -> Vec<Value> {
    // Thinking first, unchanged: the API checks the signatures and the order.
    let mut blocks: Vec<Value> = thinking.iter().map(thinking_block).collect();
    // The API refuses text blocks of only white space.
    if !content.trim().is_empty() {
        blocks.push(json!({"type": "text", "text": content}));
    }
    for call in tool_calls {
        blocks.push(json!({"type": "tool_use", "id": call.id, "name": call.name,
            "input": tool_input(&call.arguments)}));
    }
    blocks
}

/// Adds a tool's result to `messages`: to the last user turn when it holds tool results.
fn add_tool_result(messages: &mut Vec<Value>, call_id: &str, content: &str, is_error: bool) {
    let mut block = json!({"type": "tool_result", "tool_use_id": call_id, "content": content});
    if is_error {
        block["is_error"] = json!(true);
    }
    match messages.last_mut() {
        Some(last) if last["role"] == "user" && last["content"].is_array() => {
            if let Some(blocks) = last["content"].as_array_mut() {
                blocks.push(block);
            }
        }
        _ => messages.push(json!({"role": "user", "content": [block]})),
    }
}

fn thinking_block(block: &Thinking) -> Value {
    match block {
        Thinking::Thinking {
            thinking,
            signature,
        } => json!({"type": "thinking", "thinking": thinking, "signature": signature}),
        Thinking::RedactedThinking { data } => json!({"type": "redacted_thinking", "data": data}),
    }
}

/// A call's `input`: the object the model sent, or, when the token limit cut its text off, as
/// much of it as parses (what the SDK keeps), never a made-up empty call when more was sent.
fn tool_input(arguments: &str) -> Value {
    match serde_json::from_str::<Value>(arguments) {
        Ok(object @ Value::Object(_)) => object,
        _ => Value::Object(close_object(arguments).unwrap_or_default()),
    }
}

/// The provider's error, when `value` is one.
fn error_in(url: &str, value: &Value) -> Option<ModelError> {
    (value["type"] == "error").then(|| ModelError::provider(url, &value["error"]))
}

/// The explanation Anthropic gives with a refusal, if any.
fn refusal_explanation(stop_details: &Value) -> Option<String> {
    stop_details["explanation"]
        .as_str()
        .filter(|e| !e.trim().is_empty())
        .map(str::to_owned)
}

/// A whole (non-streamed) message.
fn read_response(url: &str, value: &Value) -> Result<Reply, ModelError> {
    if let Some(error) = error_in(url, value) {
        return Err(error);
    }
    let Some(blocks) = value["content"].as_array() else {
        return Err(ModelError::protocol(url, "the response has no content"));
    };
    let stop_reason = value["stop_reason"].as_str().unwrap_or_default().to_owned();
    let mut reply = Reply {
        usage: Usage {
            input: value["usage"]["input_tokens"].as_u64().unwrap_or(0),
            output: value["usage"]["output_tokens"].as_u64().unwrap_or(0),
        },
        refusal: if stop_reason == "refusal" {
            refusal_explanation(&value["stop_details"])
        } else {
            None
        },
        stop_reason,
        ..Reply::default()
    };
    for block in blocks {
        let text = |key: &str| block[key].as_str().unwrap_or_default().to_owned();
        match block["type"].as_str() {
            Some("text") => reply.text.push_str(&text("text")),
            Some("tool_use") => reply.tool_calls.push(ToolCall {
                id: text("id"),
                name: tool_name(url, block)?,
                arguments: block["input"].to_string(),
            }),
            Some("thinking") => reply.thinking.push(Thinking::Thinking {
                thinking: text("thinking"),
                signature: text("signature"),
            }),
            Some("redacted_thinking") => {
                reply
                    .thinking
                    .push(Thinking::RedactedThinking { data: text("data") });
            }
            _ => {}
        }
    }
    Ok(reply)
}

/// What a content block of a stream is, by its index.
#[derive(Debug, Clone, Copy)]
enum Block {
    Text,
    Call(usize),
    Thinking(usize),
    Other,
}

/// A streamed message, assembled; ends at `message_stop`.
fn read_stream(
    url: &str,
    reader: impl std::io::BufRead,
    on_delta: &mut dyn FnMut(Delta),
) -> Result<Reply, ModelError> {
    let mut message = StreamedMessage::default();
    for event in Events::new(reader) {
        let event = event.map_err(|e| ModelError::Network {
            url: url.to_owned(),
            message: e.to_string(),
        })?;
        let data: Value = serde_json::from_str(&event.data)
            .map_err(|e| ModelError::protocol(url, format!("a stream event is not JSON: {e}")))?;
        if let Some(error) = error_in(url, &data) {
            return Err(error);
        }
        let index = data["index"].as_u64().unwrap_or(0) as usize;
        match data["type"].as_str().unwrap_or(&event.name) {
            "message_start" => message.start(&data["message"]["usage"]),
            "content_block_start" => message.start_block(url, index, &data["content_block"])?,
            "content_block_delta" => message.add_delta(url, index, &data["delta"], on_delta)?,
            "message_delta" => message.update(&data, on_delta),
            "message_stop" => return Ok(message.finish()),
            _ => {}
        }
    }
    Err(ModelError::StreamEnded {
        url: url.to_owned(),
    })
}

/// A stream's reply so far, with what each of its content blocks is (deltas name blocks by
/// index only).
#[derive(Default)]
struct StreamedMessage {
    reply: Reply,
    blocks: Vec<Block>,
}

impl StreamedMessage {
    /// `message_start`: the usage counted before any block.
    fn start(&mut self, usage: &Value) {
        self.reply.usage.input = usage["input_tokens"].as_u64().unwrap_or(0);
        self.reply.usage.output = usage["output_tokens"].as_u64().unwrap_or(0);
    }

    /// `content_block_start`: block `index` begins.
    fn start_block(&mut self, url: &str, index: usize, block: &Value) -> Result<(), ModelError> {
        // Blocks come in order; an index far ahead is not a stream to trust.
        if index > self.blocks.len() {
            return Err(ModelError::protocol(
                url,
                format!("content block {index} skips ahead"),
            ));
        }
        let kind = self.open_block(url, block)?;
        if index == self.blocks.len() {
            self.blocks.push(kind);
        } else {
            self.blocks[index] = kind;
        }
        Ok(())
    }

    /// The kind of a starting block, after adding the tool call or thinking it opens.
    fn open_block(&mut self, url: &str, block: &Value) -> Result<Block, ModelError> {
        let reply = &mut self.reply;
        let text = |key: &str| block[key].as_str().unwrap_or_default().to_owned();
        Ok(match block["type"].as_str() {
            Some("text") => Block::Text,
            Some("tool_use") => {
                reply.tool_calls.push(ToolCall {
                    id: text("id"),
                    name: tool_name(url, block)?,
                    arguments: String::new(),
                });
                Block::Call(reply.tool_calls.len() - 1)
            }
            Some("thinking") => {
                reply.thinking.push(Thinking::Thinking {
                    thinking: text("thinking"),
                    signature: text("signature"),
                });
                Block::Thinking(reply.thinking.len() - 1)
            }
            Some("redacted_thinking") => {
                reply
                    .thinking
                    .push(Thinking::RedactedThinking { data: text("data") });
                Block::Other
            }
            _ => Block::Other,
        })
    }

    /// `content_block_delta`: more of block `index`.
    fn add_delta(
        &mut self,
        url: &str,
        index: usize,
        delta: &Value,
        on_delta: &mut dyn FnMut(Delta),
    ) -> Result<(), ModelError> {
        let piece = |key: &str| delta[key].as_str().unwrap_or_default();
        match (delta["type"].as_str(), self.blocks.get(index).copied()) {
            (Some("text_delta"), _) => {
                let text = piece("text");
                on_delta(Delta::Text(text));
                self.reply.text.push_str(text);
            }
            (Some("input_json_delta"), Some(Block::Call(call))) => {
                self.reply.tool_calls[call]
                    .arguments
                    .push_str(piece("partial_json"));
            }
            (Some("input_json_delta"), _) => {
                return Err(ModelError::protocol(
                    url,
                    "tool input for a block that is not a tool call",
                ));
            }
            (Some(kind @ ("thinking_delta" | "signature_delta")), Some(Block::Thinking(at))) => {
                self.add_thinking(at, kind, delta, on_delta);
            }
            (Some("thinking_delta" | "signature_delta"), _) => {
                return Err(ModelError::protocol(
                    url,
                    "thinking for a block that is not a thinking block",
                ));
            }
            _ => {}
        }
        Ok(())
    }

    /// A `thinking_delta` or `signature_delta` (`kind`) for the thinking block at `at`.
    fn add_thinking(
        &mut self,
        at: usize,
        kind: &str,
        delta: &Value,
        on_delta: &mut dyn FnMut(Delta),
    ) {
        let piece = |key: &str| delta[key].as_str().unwrap_or_default();
        if let Thinking::Thinking {
            thinking,
            signature,
        } = &mut self.reply.thinking[at]
        {
            if kind == "thinking_delta" {
                let text = piece("thinking");
                on_delta(Delta::Thinking(text));
                thinking.push_str(text);
            } else {
                signature.push_str(piece("signature"));
            }
        }
    }

    /// `message_delta`: the stop reason (with a refusal's explanation) and the final usage.
    fn update(&mut self, data: &Value, on_delta: &mut dyn FnMut(Delta)) {
        let reply = &mut self.reply;
        if let Some(reason) = data["delta"]["stop_reason"].as_str() {
            reply.stop_reason = reason.to_owned();
            if reason == "refusal" {
                reply.refusal = refusal_explanation(&data["delta"]["stop_details"]);
                if let Some(explanation) = &reply.refusal {
                    on_delta(Delta::Refusal(explanation));
                }
            }
        }
        if let Some(output) = data["usage"]["output_tokens"].as_u64() {
            reply.usage.output = output;
        }
    }

    /// `message_stop`: the reply, a call sent with no input taking `{}`.
    fn finish(mut self) -> Reply {
        for call in &mut self.reply.tool_calls {
            if call.arguments.trim().is_empty() {
                call.arguments = "{}".to_owned();
            }
        }
        self.reply
    }
}

/// A `tool_use` block's tool name: a call without one cannot be run or answered, so it is a
/// protocol error (as it is from an OpenAI-compatible server), not a call to "".
fn tool_name(url: &str, block: &Value) -> Result<String, ModelError> {
    block["name"]
        .as_str()
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| ModelError::protocol(url, "a tool_use block has no name"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::ToolSpec;

    #[test]
    fn tool_results_in_a_row_share_one_user_turn() {
        let config = HttpConfig {
            kind: super::super::ProviderKind::Anthropic,
            base_url: "http://127.0.0.1:1".into(),
            api_key: None,
            model: "m".into(),
            stream: false,
            options: super::super::ProviderOptions::default(),
        };
        let call = |id: &str| ToolCall {
            id: id.into(),
            name: "read_file".into(),
            arguments: "{\"path\":\"a\"}".into(),
        };
        let request = Request {
            messages: vec![
                Message::System {
                    content: "sys".into(),
                },
                Message::User {
                    content: "hi".into(),
                },
                Message::Assistant {
                    content: String::new(),
                    thinking: Vec::new(),
                    tool_calls: vec![call("a"), call("b")],
                    refusal: None,
                },
                Message::Tool {
                    call_id: "a".into(),
                    name: "read_file".into(),
                    content: "1".into(),
                    is_error: false,
                },
                Message::Tool {
                    call_id: "b".into(),
                    name: "read_file".into(),
                    content: "2".into(),
                    is_error: true,
                },
            ],
            tools: vec![ToolSpec {
                name: "read_file".into(),
                description: "d".into(),
                parameters: json!({"type": "object"}),
            }],
        };
        let body = wire_request(&config, &request);
        assert_eq!(body["system"], "sys");
        assert_eq!(body["messages"].as_array().unwrap().len(), 3);
        assert_eq!(body["messages"][2]["content"][1]["tool_use_id"], "b");
        assert_eq!(body["messages"][1]["content"][0]["input"]["path"], "a");
        assert!(body["messages"][2]["content"][0].get("is_error").is_none());
        assert_eq!(body["messages"][2]["content"][1]["is_error"], true);
    }

    #[test]
    fn a_tool_use_without_a_name_is_an_error_whole_or_streamed() {
        let whole = json!({"content": [{"type": "tool_use", "id": "t1", "input": {}}], "stop_reason": "tool_use"});
        let error = read_response("u", &whole).unwrap_err();
        assert!(
            error.to_string().contains("a tool_use block has no name"),
            "{error}"
        );
        let stream = events(&[
            json!({"type": "message_start", "message": {"usage": {"input_tokens": 3}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t1", "input": {}}}),
        ]);
        let error = read_stream("u", stream.as_bytes(), &mut |_| {}).unwrap_err();
        assert!(
            error.to_string().contains("a tool_use block has no name"),
            "{error}"
        );
    }

    #[test]
    fn a_stream_without_message_stop_is_an_error() {
        let stream = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n";
        let error = read_stream("u", stream.as_bytes(), &mut |_| {}).unwrap_err();
        assert!(matches!(error, ModelError::StreamEnded { .. }));
    }

    fn events(events: &[Value]) -> String {
        events
            .iter()
            .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
            .collect()
    }

    #[test]
    #[allow(clippy::too_many_lines, reason = "one recorded stream, read whole")]
    fn thinking_streams_with_its_signature_and_goes_back_first() {
        let stream = events(&[
            json!({"type": "message_start", "message": {"usage": {"input_tokens": 3}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Let me "}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "look."}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "c2ln"}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "redacted_thinking", "data": "b3BhcXVl"}}),
            json!({"type": "content_block_stop", "index": 1}),
            json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "t1", "name": "list_dir", "input": {}}}),
            json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "{\"path\": \".\"}"}}),
            json!({"type": "content_block_stop", "index": 2}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}}),
            json!({"type": "message_stop"}),
        ]);
        let mut thought = String::new();
        let reply = read_stream("u", stream.as_bytes(), &mut |d| {
            if let Delta::Thinking(t) = d {
                thought.push_str(t)
            }
        })
        .unwrap();
        assert_eq!(thought, "Let me look.");
        assert_eq!(
            reply.thinking,
            [
                Thinking::Thinking {
                    thinking: "Let me look.".into(),
                    signature: "c2ln".into()
                },
                Thinking::RedactedThinking {
                    data: "b3BhcXVl".into()
                }
            ]
        );
        let config = HttpConfig {
            kind: super::super::ProviderKind::Anthropic,
            base_url: "http://127.0.0.1:1".into(),
            api_key: None,
            model: "m".into(),
            stream: true,
            options: super::super::ProviderOptions {
                max_tokens: Some(4096),
                thinking_budget: Some(2048),
                tool_message_name: false,
            },
        };
        let request = Request {
            messages: vec![Message::Assistant {
                content: "Looking.".into(),
                thinking: reply.thinking.clone(),
                tool_calls: reply.tool_calls.clone(),
                refusal: None,
            }],
            tools: Vec::new(),
        };
        let body = wire_request(&config, &request);
        assert_eq!(body["max_tokens"], 4096);
        assert_eq!(
            body["thinking"],
            json!({"type": "enabled", "budget_tokens": 2048})
        );
        let types: Vec<&str> = body["messages"][0]["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["type"].as_str().unwrap())
            .collect();
        assert_eq!(types, ["thinking", "redacted_thinking", "text", "tool_use"]);
        assert_eq!(body["messages"][0]["content"][0]["signature"], "c2ln");
    }

    #[test]
    fn a_cut_off_tool_input_goes_back_as_what_parses_of_it() {
        assert_eq!(
            tool_input("{\"path\": \"a.txt\", \"content\": \"hel"),
            json!({"path": "a.txt", "content": "hel"})
        );
        assert_eq!(tool_input(""), json!({}));
        assert_eq!(tool_input("{\"path\": \"a\"}"), json!({"path": "a"}));
    }

    #[test]
    fn refusals_and_error_events_are_reported() {
        let stream = events(&[
            json!({"type": "message_start", "message": {"usage": {"input_tokens": 3}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "I won't"}}),
            json!({"type": "message_delta", "delta": {"stop_reason": "refusal", "stop_details": {"category": "cyber", "explanation": "Malware."}}, "usage": {"output_tokens": 2}}),
            json!({"type": "message_stop"}),
        ]);
        let reply = read_stream("u", stream.as_bytes(), &mut |_| {}).unwrap();
        assert_eq!(reply.text, "I won't");
        assert_eq!(reply.refusal.as_deref(), Some("Malware."));
        assert_eq!(reply.finish(), crate::message::Finish::Refusal);
        let whole = json!({"type": "message", "content": [], "stop_reason": "refusal", "stop_details": null});
        let reply = read_response("u", &whole).unwrap();
        assert_eq!(reply.finish(), crate::message::Finish::Refusal);
        let stream = events(&[
            json!({"type": "message_start", "message": {"usage": {"input_tokens": 3}}}),
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        ]);
        let error = read_stream("u", stream.as_bytes(), &mut |_| {}).unwrap_err();
        assert_eq!(
            error.to_string(),
            "u: the provider reported overloaded_error: Overloaded"
        );
        assert!(error.is_transient());
    }
}
