//! OpenAI-compatible chat completions (`POST {base}/chat/completions`), streamed or not. The
//! request follows the official SDK's `CompletionCreateParams` types field for field; replies
//! are read as the SDK reads them, refusals and cut-offs included.

use super::sse::Events;
use super::{HttpConfig, Model, ModelError, Wire, exchange, http_client};
use crate::message::{Delta, Message, Reply, Request, ToolCall, Usage};
use serde_json::{Value, json};
use std::collections::HashMap;

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
        on_delta: &mut dyn FnMut(Delta),
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
            read_stream: &|reader, on_delta| read_stream(&url, reader, on_delta),
            read_response: &|value| read_response(&url, value),
        };
        exchange(&url, &build, self.config.stream, &wire, on_delta)
    }
}

/// The request body.
fn wire_request(config: &HttpConfig, request: &Request) -> Value {
    let messages: Vec<Value> = request
        .messages
        .iter()
        .map(|m| wire_message(m, config.options.tool_message_name))
        .collect();
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
    if let Some(max_tokens) = config.options.max_tokens {
        body["max_completion_tokens"] = json!(max_tokens);
    }
    if config.stream {
        body["stream"] = json!(true);
        body["stream_options"] = json!({"include_usage": true});
    }
    body
}

/// One message. Thinking blocks are Anthropic's and have no place here.
fn wire_message(message: &Message, tool_message_name: bool) -> Value {
    match message {
        Message::System { content } => json!({"role": "system", "content": content}),
        Message::User { content } => json!({"role": "user", "content": content}),
        Message::Assistant {
            content,
            tool_calls,
            refusal,
            ..
        } => {
            let mut m = json!({"role": "assistant"});
            m["content"] = if content.is_empty() {
                Value::Null
            } else {
                json!(content)
            };
            if let Some(refusal) = refusal {
                m["refusal"] = json!(refusal);
            }
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
            ..
        } => {
            let mut m = json!({"role": "tool", "tool_call_id": call_id, "content": content});
            if tool_message_name {
                m["name"] = json!(name);
            }
            m
        }
    }
}

fn usage(value: &Value) -> Usage {
    Usage {
        input: value["prompt_tokens"].as_u64().unwrap_or(0),
        output: value["completion_tokens"].as_u64().unwrap_or(0),
    }
}

/// The provider's error, when `value` carries one.
fn error_in(url: &str, value: &Value) -> Option<ModelError> {
    let error = value.get("error").filter(|e| !e.is_null())?;
    Some(ModelError::provider(url, error))
}

/// OpenRouter and others end a reply that failed upstream with `finish_reason: "error"`.
fn failed_finish(url: &str, reason: &str) -> Option<ModelError> {
    (reason == "error").then(|| ModelError::Provider {
        url: url.to_owned(),
        kind: "error".to_owned(),
        message: "the reply ended with finish_reason \"error\"".to_owned(),
    })
}

/// A whole (non-streamed) completion.
fn read_response(url: &str, value: &Value) -> Result<Reply, ModelError> {
    if let Some(error) = error_in(url, value) {
        return Err(error);
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
    let stop_reason = choice["finish_reason"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    if let Some(error) = failed_finish(url, &stop_reason) {
        return Err(error);
    }
    Ok(Reply {
        text: message["content"].as_str().unwrap_or_default().to_owned(),
        tool_calls: with_ids(tool_calls),
        refusal: message["refusal"]
            .as_str()
            .filter(|r| !r.is_empty())
            .map(str::to_owned),
        usage: usage(&value["usage"]),
        stop_reason,
        ..Reply::default()
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
    on_delta: &mut dyn FnMut(Delta),
) -> Result<Reply, ModelError> {
    let mut reply = Reply::default();
    // Which call each stream index is on now: a new id on an index in use starts a new call.
    let mut calls_by_index: HashMap<u64, usize> = HashMap::new();
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
        if let Some(error) = error_in(url, &chunk) {
            return Err(error);
        }
        if chunk["usage"].is_object() {
            reply.usage = usage(&chunk["usage"]);
        }
        let Some(choice) = chunk["choices"].as_array().and_then(|c| c.first()) else {
            continue;
        };
        add_choice(url, &mut reply, &mut calls_by_index, choice, on_delta)?;
    }
    finish_stream(url, reply, done)
}

/// Adds a chunk's first choice to `reply`: its text, refusal and tool-call parts, and its
/// finish reason.
fn add_choice(
    url: &str,
    reply: &mut Reply,
    calls_by_index: &mut HashMap<u64, usize>,
    choice: &Value,
    on_delta: &mut dyn FnMut(Delta),
) -> Result<(), ModelError> {
    let delta = &choice["delta"];
    if let Some(text) = delta["content"].as_str().filter(|t| !t.is_empty()) {
        on_delta(Delta::Text(text));
        reply.text.push_str(text);
    }
    // Servers that copy OpenAI's shape send `"refusal": ""` or null in every chunk.
    if let Some(text) = delta["refusal"].as_str().filter(|t| !t.is_empty()) {
        on_delta(Delta::Refusal(text));
        reply.refusal.get_or_insert_default().push_str(text);
    }
    for part in delta["tool_calls"].as_array().into_iter().flatten() {
        let index = call_for(url, &mut reply.tool_calls, calls_by_index, part)?;
        let call = &mut reply.tool_calls[index];
        if let Some(id) = part["id"].as_str().filter(|id| !id.is_empty()) {
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
        if let Some(error) = failed_finish(url, reason) {
            return Err(error);
        }
        reply.stop_reason = reason.to_owned();
    }
    Ok(())
}

/// The reply of a stream that ended (`done` when at `[DONE]`): an error when it ended early or
/// a call has no name.
fn finish_stream(url: &str, mut reply: Reply, done: bool) -> Result<Reply, ModelError> {
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

/// The place in `calls` of the call a streamed tool-call `part` belongs to, a new one when it
/// starts one.
fn call_for(
    url: &str,
    calls: &mut Vec<ToolCall>,
    calls_by_index: &mut HashMap<u64, usize>,
    part: &Value,
) -> Result<usize, ModelError> {
    let id = part["id"].as_str().filter(|id| !id.is_empty());
    let start = |calls: &mut Vec<ToolCall>| {
        calls.push(ToolCall {
            id: String::new(),
            name: String::new(),
            arguments: String::new(),
        });
        calls.len() - 1
    };
    let Some(index) = part["index"].as_u64() else {
        // Without an index, a part carrying an id or a name starts the next call.
        return Ok(match calls.len() {
            0 => start(calls),
            _ if id.is_some() || part["function"]["name"].is_string() => start(calls),
            n => n - 1,
        });
    };
    match calls_by_index.get(&index) {
        // Some compatible servers give every parallel call index 0: a different id is a
        // different call, whatever its index.
        Some(&at) if id.is_some_and(|id| !calls[at].id.is_empty() && calls[at].id != id) => {
            let at = start(calls);
            calls_by_index.insert(index, at);
            Ok(at)
        }
        Some(&at) => Ok(at),
        // Indexes come in order; one far ahead is not a stream to trust.
        None if index as usize > calls_by_index.len() => Err(ModelError::protocol(
            url,
            format!(
                "tool call index {index} skips ahead of {} calls",
                calls_by_index.len()
            ),
        )),
        None => {
            let at = start(calls);
            calls_by_index.insert(index, at);
            Ok(at)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::Finish;

    fn text_of(stream: &str) -> (Result<Reply, ModelError>, String) {
        let mut seen = String::new();
        let reply = read_stream("u", stream.as_bytes(), &mut |d| match d {
            Delta::Text(t) => seen.push_str(t),
            Delta::Refusal(t) => {
                seen.push_str("[refusal]");
                seen.push_str(t)
            }
            Delta::Thinking(_) => {}
        });
        (reply, seen)
    }

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
        let (reply, seen) = text_of(stream);
        let reply = reply.unwrap();
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
        let error = text_of(wild).0.unwrap_err();
        assert!(error.to_string().contains("skips ahead"), "{error}");
        let unindexed = concat!(
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"a\",\"function\":{\"name\":\"read_file\",\"arguments\":\"{}\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"b\",\"function\":{\"name\":\"list_dir\",\"arguments\":\"{\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":\"}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n",
        );
        let reply = text_of(unindexed).0.unwrap();
        let names: Vec<&str> = reply.tool_calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["read_file", "list_dir"]);
        assert_eq!(reply.tool_calls[1].arguments, "{}");
    }

    #[test]
    fn a_new_id_on_a_used_index_is_a_new_call() {
        let chunk = |part: Value| {
            format!(
                "data: {}\n\n",
                json!({"choices": [{"index": 0, "delta": {"tool_calls": [part]}}]})
            )
        };
        let stream = [
            chunk(json!({"index": 0, "id": "a", "function": {"name": "list_dir", "arguments": "{\"path\""}})),
            chunk(json!({"index": 0, "function": {"arguments": ": \".\"}"}})),
            chunk(json!({"index": 0, "id": "b", "function": {"name": "read_file", "arguments": "{\"path\": \"x\"}"}})),
            // The same id again is the same call.
            chunk(json!({"index": 0, "id": "b", "function": {"arguments": ""}})),
            "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n".to_owned(),
        ]
        .concat();
        let reply = text_of(&stream).0.unwrap();
        let calls: Vec<(&str, &str, &str)> = reply
            .tool_calls
            .iter()
            .map(|c| (c.id.as_str(), c.name.as_str(), c.arguments.as_str()))
            .collect();
        assert_eq!(
            calls,
            [
                ("a", "list_dir", "{\"path\": \".\"}"),
                ("b", "read_file", "{\"path\": \"x\"}")
            ]
        );
    }

    #[test]
    fn refusals_are_kept_streamed_or_whole() {
        let stream = concat!(
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"refusal\":\"\"}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"I can't \"}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"help with that.\"}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
            "data: [DONE]\n\n"
        );
        let (reply, seen) = text_of(stream);
        let reply = reply.unwrap();
        assert_eq!(reply.refusal.as_deref(), Some("I can't help with that."));
        assert_eq!(reply.finish(), Finish::Refusal);
        assert_eq!(seen, "[refusal]I can't [refusal]help with that.");
        let whole = json!({"choices": [{"index": 0, "finish_reason": "stop", "message":
            {"role": "assistant", "content": null, "refusal": "No."}}]});
        let reply = read_response("u", &whole).unwrap();
        assert_eq!(reply.refusal.as_deref(), Some("No."));
        // Servers that copy the shape send an empty refusal with every answer.
        let answer = json!({"choices": [{"index": 0, "finish_reason": "stop", "message":
            {"role": "assistant", "content": "Hi", "refusal": ""}}]});
        assert_eq!(
            read_response("u", &answer).unwrap().finish(),
            Finish::Complete
        );
    }

    #[test]
    fn error_chunks_name_the_providers_type_and_message() {
        let stream = concat!(
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hal\"}}]}\n\n",
            "data: {\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\",\"code\":null}}\n\n",
        );
        let error = text_of(stream).0.unwrap_err();
        assert_eq!(
            error.to_string(),
            "u: the provider reported server_error: The server had an error"
        );
        assert!(error.is_transient());
        let finish_error =
            "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"error\"}]}\n\n";
        let error = text_of(finish_error).0.unwrap_err();
        assert!(
            error.to_string().contains("finish_reason \"error\""),
            "{error}"
        );
        let code = json!({"error": {"code": 429, "message": "slow down"}});
        let error = read_response("u", &code).unwrap_err();
        assert_eq!(error.to_string(), "u: the provider reported 429: slow down");
        assert!(error.is_transient());
        let bad = json!({"error": {"type": "invalid_request_error", "message": "no"}});
        assert!(!read_response("u", &bad).unwrap_err().is_transient());
    }

    #[test]
    fn tool_messages_carry_a_name_only_when_asked() {
        let mut config = HttpConfig {
            kind: super::super::ProviderKind::Openai,
            base_url: "http://127.0.0.1:1/v1".into(),
            api_key: None,
            model: "m".into(),
            stream: false,
            options: super::super::ProviderOptions::default(),
        };
        let request = Request {
            messages: vec![Message::Tool {
                call_id: "c".into(),
                name: "read_file".into(),
                content: "x".into(),
                is_error: false,
            }],
            tools: Vec::new(),
        };
        let body = wire_request(&config, &request);
        assert!(body["messages"][0].get("name").is_none(), "{body}");
        assert!(body.get("max_completion_tokens").is_none(), "{body}");
        config.options.tool_message_name = true;
        config.options.max_tokens = Some(300);
        let body = wire_request(&config, &request);
        assert_eq!(body["messages"][0]["name"], "read_file");
        assert_eq!(body["max_completion_tokens"], 300);
    }

    #[test]
    fn a_stream_cut_short_is_an_error() {
        let stream = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n";
        let error = text_of(stream).0.unwrap_err();
        assert!(matches!(error, ModelError::StreamEnded { .. }));
    }

    #[test]
    fn empty_choices_are_an_error() {
        let error = read_response("u", &json!({"choices": []})).unwrap_err();
        assert!(error.to_string().contains("no choices"), "{error}");
    }
}
