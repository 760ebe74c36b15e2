//! OpenAI-compatible chat completions (`POST {base}/chat/completions`), streamed or not.

use super::sse::Events;
use super::{HttpConfig, Model, ModelError, Wire, exchange, http_client};
use crate::agent::message::{Message, Reply, Request, ToolCall, Usage};
use serde_json::{Value, json};

/// A chat-completions endpoint.
pub struct OpenAi {
    config: HttpConfig,
    http: reqwest::blocking::Client,
}

impl OpenAi {
    /// A provider for `config`.
    pub fn new(config: HttpConfig) -> OpenAi {
        OpenAi {
            config,
            http: http_client(),
        }
    }
}

impl Model for OpenAi {
    fn complete(
        &mut self,
        request: &Request,
        on_text: &mut dyn FnMut(&str),
    ) -> Result<Reply, ModelError> {
        let url = format!("{}/chat/completions", self.config.base_url);
        let body = wire_request(&self.config, request);
        let build = || {
            let builder = self.http.post(&url).json(&body);
            match &self.config.api_key {
                Some(key) => builder.bearer_auth(key),
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

/// The request body.
fn wire_request(config: &HttpConfig, request: &Request) -> Value {
    let messages: Vec<Value> = request.messages.iter().map(wire_message).collect();
    let tools: Vec<Value> = request
        .tools
        .iter()
        .map(|t| {
            json!({"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": t.parameters}})
        })
        .collect();
    let mut body = json!({"model": config.model, "messages": messages});
    if !tools.is_empty() {
        body["tools"] = Value::Array(tools);
        body["tool_choice"] = json!("auto");
    }
    if config.stream {
        body["stream"] = json!(true);
        body["stream_options"] = json!({"include_usage": true});
    }
    body
}

fn wire_message(message: &Message) -> Value {
    match message {
        Message::System { content } => json!({"role": "system", "content": content}),
        Message::User { content } => json!({"role": "user", "content": content}),
        Message::Assistant {
            content,
            tool_calls,
        } => {
            let mut m = json!({"role": "assistant"});
            m["content"] = if content.is_empty() {
                Value::Null
            } else {
                json!(content)
            };
            if !tool_calls.is_empty() {
                m["tool_calls"] = tool_calls
                    .iter()
                    .map(|c| {
                        json!({"id": c.id, "type": "function",
                            "function": {"name": c.name, "arguments": c.arguments}})
                    })
                    .collect();
            }
            m
        }
        Message::Tool {
            call_id,
            name,
            content,
        } => json!({"role": "tool", "tool_call_id": call_id, "name": name, "content": content}),
    }
}

fn usage(value: &Value) -> Usage {
    Usage {
        input: value["prompt_tokens"].as_u64().unwrap_or(0),
        output: value["completion_tokens"].as_u64().unwrap_or(0),
    }
}

fn error_message(value: &Value) -> Option<String> {
    let error = value.get("error")?;
    Some(
        error["message"]
            .as_str()
            .map_or_else(|| error.to_string(), str::to_owned),
    )
}

/// A whole (non-streamed) completion.
fn read_response(url: &str, value: &Value) -> Result<Reply, ModelError> {
    if let Some(message) = error_message(value) {
        return Err(ModelError::protocol(url, message));
    }
    let Some(choice) = value["choices"].as_array().and_then(|c| c.first()) else {
        return Err(ModelError::protocol(url, "the response has no choices"));
    };
    let message = &choice["message"];
    let mut tool_calls = Vec::new();
    for call in message["tool_calls"].as_array().into_iter().flatten() {
        tool_calls.push(ToolCall {
            id: call["id"].as_str().unwrap_or_default().to_owned(),
            name: call["function"]["name"]
                .as_str()
                .ok_or_else(|| ModelError::protocol(url, "a tool call has no function name"))?
                .to_owned(),
            arguments: arguments_text(&call["function"]["arguments"]),
        });
    }
    Ok(Reply {
        text: message["content"].as_str().unwrap_or_default().to_owned(),
        tool_calls: with_ids(tool_calls),
        usage: usage(&value["usage"]),
        stop_reason: choice["finish_reason"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    })
}

/// Some servers send arguments as an object rather than a JSON string.
fn arguments_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Local servers sometimes leave ids out; results must still pair with their calls.
fn with_ids(mut calls: Vec<ToolCall>) -> Vec<ToolCall> {
    for (i, call) in calls.iter_mut().enumerate() {
        if call.id.is_empty() {
            call.id = format!("call_{}", i + 1);
        }
    }
    calls
}

/// A streamed completion, assembled; ends at `[DONE]` or a finish reason.
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
    let mut done = false;
    for event in Events::new(reader) {
        let event = event.map_err(|e| ModelError::Network {
            url: url.to_owned(),
            message: e.to_string(),
        })?;
        if event.data.trim() == "[DONE]" {
            done = true;
            break;
        }
        let chunk: Value = serde_json::from_str(&event.data)
            .map_err(|e| ModelError::protocol(url, format!("a stream chunk is not JSON: {e}")))?;
        if let Some(message) = error_message(&chunk) {
            return Err(ModelError::protocol(url, message));
        }
        if chunk["usage"].is_object() {
            reply.usage = usage(&chunk["usage"]);
        }
        let Some(choice) = chunk["choices"].as_array().and_then(|c| c.first()) else {
            continue;
        };
        let delta = &choice["delta"];
        if let Some(text) = delta["content"].as_str().filter(|t| !t.is_empty()) {
            on_text(text);
            reply.text.push_str(text);
        }
        for part in delta["tool_calls"].as_array().into_iter().flatten() {
            let count = reply.tool_calls.len();
            let index = match part["index"].as_u64() {
                Some(i) if i as usize <= count => i as usize,
                Some(i) => {
                    return Err(ModelError::protocol(
                        url,
                        format!("tool call index {i} skips ahead of {count} calls"),
                    ));
                }
                // Without an index, a part carrying an id or a name starts the next call.
                None if count == 0
                    || part["id"].is_string()
                    || part["function"]["name"].is_string() =>
                {
                    count
                }
                None => count - 1,
            };
            if index == count {
                reply.tool_calls.push(ToolCall {
                    id: String::new(),
                    name: String::new(),
                    arguments: String::new(),
                });
            }
            let call = &mut reply.tool_calls[index];
            if let Some(id) = part["id"].as_str() {
                call.id = id.to_owned();
            }
            if let Some(name) = part["function"]["name"].as_str() {
                call.name.push_str(name);
            }
            if let Some(arguments) = part["function"]["arguments"].as_str() {
                call.arguments.push_str(arguments);
            }
        }
        if let Some(reason) = choice["finish_reason"].as_str() {
            reply.stop_reason = reason.to_owned();
        }
    }
    if !done && reply.stop_reason.is_empty() {
        return Err(ModelError::StreamEnded {
            url: url.to_owned(),
        });
    }
    if reply.tool_calls.iter().any(|c| c.name.is_empty()) {
        return Err(ModelError::protocol(
            url,
            "a tool call has no function name",
        ));
    }
    reply.tool_calls = with_ids(reply.tool_calls);
    Ok(reply)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assembles_text_and_tool_calls_from_a_stream() {
        let stream = concat!(
            "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"content\":\"lo\"}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"read_file\",\"arguments\":\"{\\\"pa\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"th\\\": \\\"a\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n",
            "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":3}}\n\n",
            "data: [DONE]\n\n"
        );
        let mut seen = String::new();
        let reply = read_stream("u", stream.as_bytes(), &mut |t| seen.push_str(t)).unwrap();
        assert_eq!(seen, "Hello");
        assert_eq!(reply.text, "Hello");
        assert_eq!(reply.tool_calls[0].arguments, "{\"path\": \"a\"}");
        assert_eq!(
            reply.usage,
            Usage {
                input: 10,
                output: 3
            }
        );
        assert_eq!(reply.stop_reason, "tool_calls");
    }

    #[test]
    fn stream_indexes_are_checked_and_may_be_missing() {
        let wild = "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":18446744073709551615,\"id\":\"c\",\"function\":{\"name\":\"x\"}}]}}]}\n\n";
        let error = read_stream("u", wild.as_bytes(), &mut |_| {}).unwrap_err();
        assert!(error.to_string().contains("skips ahead"), "{error}");
        let unindexed = concat!(
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"a\",\"function\":{\"name\":\"read_file\",\"arguments\":\"{}\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"b\",\"function\":{\"name\":\"list_dir\",\"arguments\":\"{\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":\"}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n",
        );
        let reply = read_stream("u", unindexed.as_bytes(), &mut |_| {}).unwrap();
        let names: Vec<&str> = reply.tool_calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["read_file", "list_dir"]);
        assert_eq!(reply.tool_calls[1].arguments, "{}");
    }

    #[test]
    fn a_stream_cut_short_is_an_error() {
        let stream = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n";
        let error = read_stream("u", stream.as_bytes(), &mut |_| {}).unwrap_err();
        assert!(matches!(error, ModelError::StreamEnded { .. }));
    }

    #[test]
    fn empty_choices_are_an_error() {
        let error = read_response("u", &json!({"choices": []})).unwrap_err();
        assert!(error.to_string().contains("no choices"), "{error}");
    }
}
