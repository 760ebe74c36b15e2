//! Anthropic's messages API (`POST {base}/v1/messages`), streamed or not.

use super::sse::Events;
use super::{HttpConfig, Model, ModelError, Wire, exchange, http_client};
use crate::agent::message::{Message, Reply, Request, ToolCall, Usage};
use serde_json::{Value, json};

/// The API version header every request carries.
const API_VERSION: &str = "2023-06-01";
/// Most tokens per answer: the API requires a limit.
const MAX_TOKENS: u32 = 8192;

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
        on_text: &mut dyn FnMut(&str),
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
            read_stream: &|reader, on_text| read_stream(&url, reader, on_text),
            read_response: &|value| read_response(&url, value),
        };
        exchange(&url, &build, self.config.stream, &wire, on_text)
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
                tool_calls,
            } => {
                let mut blocks = Vec::new();
                // The API refuses text blocks of only white space.
                if !content.trim().is_empty() {
                    blocks.push(json!({"type": "text", "text": content}));
                }
                for call in tool_calls {
                    let input: Value = serde_json::from_str(&call.arguments)
                        .ok()
                        .filter(Value::is_object)
                        .unwrap_or_else(|| json!({}));
                    blocks.push(
                        json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input}),
                    );
                }
                messages.push(json!({"role": "assistant", "content": blocks}));
            }
            Message::Tool {
                call_id, content, ..
            } => {
                let block =
                    json!({"type": "tool_result", "tool_use_id": call_id, "content": content});
                match messages.last_mut() {
                    Some(last) if last["role"] == "user" && last["content"].is_array() => {
                        if let Some(blocks) = last["content"].as_array_mut() {
                            blocks.push(block);
                        }
                    }
                    _ => messages.push(json!({"role": "user", "content": [block]})),
                }
            }
        }
    }
    let tools: Vec<Value> = request
        .tools
        .iter()
        .map(
            |t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}),
        )
        .collect();
    let mut body = json!({"model": config.model, "max_tokens": MAX_TOKENS, "messages": messages});
    if !system.is_empty() {
        body["system"] = json!(system.join("\n\n"));
    }
    if !tools.is_empty() {
        body["tools"] = Value::Array(tools);
    }
    if config.stream {
        body["stream"] = json!(true);
    }
    body
}

fn error_message(value: &Value) -> Option<String> {
    if value["type"] != "error" {
        return None;
    }
    Some(
        value["error"]["message"]
            .as_str()
            .map_or_else(|| value["error"].to_string(), str::to_owned),
    )
}

/// A whole (non-streamed) message.
fn read_response(url: &str, value: &Value) -> Result<Reply, ModelError> {
    if let Some(message) = error_message(value) {
        return Err(ModelError::protocol(url, message));
    }
    let Some(blocks) = value["content"].as_array() else {
        return Err(ModelError::protocol(url, "the response has no content"));
    };
    let mut reply = Reply {
        text: String::new(),
        tool_calls: Vec::new(),
        usage: Usage {
            input: value["usage"]["input_tokens"].as_u64().unwrap_or(0),
            output: value["usage"]["output_tokens"].as_u64().unwrap_or(0),
        },
        stop_reason: value["stop_reason"].as_str().unwrap_or_default().to_owned(),
    };
    for block in blocks {
        match block["type"].as_str() {
            Some("text") => reply
                .text
                .push_str(block["text"].as_str().unwrap_or_default()),
            Some("tool_use") => reply.tool_calls.push(ToolCall {
                id: block["id"].as_str().unwrap_or_default().to_owned(),
                name: block["name"].as_str().unwrap_or_default().to_owned(),
                arguments: block["input"].to_string(),
            }),
            _ => {}
        }
    }
    Ok(reply)
}

/// A streamed message, assembled; ends at `message_stop`.
fn read_stream(
    url: &str,
    reader: impl std::io::BufRead,
    on_text: &mut dyn FnMut(&str),
) -> Result<Reply, ModelError> {
    let mut reply = Reply {
        text: String::new(),
        tool_calls: Vec::new(),
        usage: Usage::default(),
        stop_reason: String::new(),
    };
    // Content blocks by index: tool calls get their place when their block starts.
    let mut calls_by_block: Vec<Option<usize>> = Vec::new();
    for event in Events::new(reader) {
        let event = event.map_err(|e| ModelError::Network {
            url: url.to_owned(),
            message: e.to_string(),
        })?;
        let data: Value = serde_json::from_str(&event.data)
            .map_err(|e| ModelError::protocol(url, format!("a stream event is not JSON: {e}")))?;
        if let Some(message) = error_message(&data) {
            return Err(ModelError::protocol(url, message));
        }
        let index = data["index"].as_u64().unwrap_or(0) as usize;
        match data["type"].as_str().unwrap_or(&event.name) {
            "message_start" => {
                let usage = &data["message"]["usage"];
                reply.usage.input = usage["input_tokens"].as_u64().unwrap_or(0);
                reply.usage.output = usage["output_tokens"].as_u64().unwrap_or(0);
            }
            "content_block_start" => {
                let block = &data["content_block"];
                // Blocks come in order; an index far ahead is not a stream to trust.
                if index > calls_by_block.len() {
                    return Err(ModelError::protocol(
                        url,
                        format!("content block {index} skips ahead"),
                    ));
                }
                if index == calls_by_block.len() {
                    calls_by_block.push(None);
                }
                if block["type"] == "tool_use" {
                    calls_by_block[index] = Some(reply.tool_calls.len());
                    reply.tool_calls.push(ToolCall {
                        id: block["id"].as_str().unwrap_or_default().to_owned(),
                        name: block["name"].as_str().unwrap_or_default().to_owned(),
                        arguments: String::new(),
                    });
                }
            }
            "content_block_delta" => {
                let delta = &data["delta"];
                match delta["type"].as_str() {
                    Some("text_delta") => {
                        let text = delta["text"].as_str().unwrap_or_default();
                        on_text(text);
                        reply.text.push_str(text);
                    }
                    Some("input_json_delta") => {
                        let call = calls_by_block.get(index).copied().flatten();
                        let Some(call) = call else {
                            return Err(ModelError::protocol(
                                url,
                                "tool input for a block that is not a tool call",
                            ));
                        };
                        reply.tool_calls[call]
                            .arguments
                            .push_str(delta["partial_json"].as_str().unwrap_or_default());
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(reason) = data["delta"]["stop_reason"].as_str() {
                    reply.stop_reason = reason.to_owned();
                }
                if let Some(output) = data["usage"]["output_tokens"].as_u64() {
                    reply.usage.output = output;
                }
            }
            "message_stop" => {
                for call in &mut reply.tool_calls {
                    if call.arguments.trim().is_empty() {
                        call.arguments = "{}".to_owned();
                    }
                }
                return Ok(reply);
            }
            _ => {}
        }
    }
    Err(ModelError::StreamEnded {
        url: url.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::message::ToolSpec;

    #[test]
    fn tool_results_in_a_row_share_one_user_turn() {
        let config = HttpConfig {
            kind: super::super::ProviderKind::Anthropic,
            base_url: "http://127.0.0.1:1".into(),
            api_key: None,
            model: "m".into(),
            stream: false,
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
                    tool_calls: vec![call("a"), call("b")],
                },
                Message::Tool {
                    call_id: "a".into(),
                    name: "read_file".into(),
                    content: "1".into(),
                },
                Message::Tool {
                    call_id: "b".into(),
                    name: "read_file".into(),
                    content: "2".into(),
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
    }

    #[test]
    fn a_stream_without_message_stop_is_an_error() {
        let stream = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n";
        let error = read_stream("u", stream.as_bytes(), &mut |_| {}).unwrap_err();
        assert!(matches!(error, ModelError::StreamEnded { .. }));
    }
}
