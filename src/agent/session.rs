//! The loop: ask the model, run the tools it calls, append their results, until it answers
//! without calling a tool or the turn limit is reached. Events go to the caller as they happen;
//! the transcript says what happened, including which skills' SKILL.md the model read.

use super::message::{Message, Request, ToolCall, Usage};
use super::provider::{Model, ModelError};
use super::tools::{ToolBox, specs};
use regex::Regex;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Something that happened during a run, reported as it happens.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// A turn starts (counted from 1).
    Turn(usize),
    /// Text from the model, as it streams.
    Text(&'a str),
    /// The model calls a tool.
    Call(&'a ToolCall),
    /// A tool's result.
    Result(&'a ToolCall, &'a str),
}

/// Why a run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// The model answered without calling a tool.
    Answer,
    /// The turn limit was reached.
    MaxTurns,
}

/// What a run did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Transcript {
    /// Why it stopped.
    pub stop: Stop,
    /// The final answer (`<think>` blocks removed), when the model gave one.
    pub final_answer: Option<String>,
    /// Model turns taken.
    pub turns: usize,
    /// Tokens the provider reported, summed over the turns.
    pub usage: Usage,
    /// Wall time of the whole run, in milliseconds.
    pub elapsed_ms: u64,
    /// Time spent inside tools, in milliseconds.
    pub tool_ms: u64,
    /// The skills installed in the workspace.
    pub skills: Vec<String>,
    /// The skills whose SKILL.md the model read, in the order it first read them.
    pub skills_read: Vec<String>,
    /// The conversation, system prompt first.
    pub messages: Vec<Message>,
}

/// Runs the loop for `prompt` and returns the transcript. `skills` are the names installed in
/// the tools' workspace, so reads of their SKILL.md can be told apart.
pub fn run(
    model: &mut dyn Model,
    tools: &ToolBox,
    system_prompt: String,
    skills: &[String],
    prompt: &str,
    max_turns: usize,
    on_event: &mut dyn FnMut(Event),
) -> Result<Transcript, ModelError> {
    let started = Instant::now();
    let mut tool_time = Duration::ZERO;
    let mut request = Request {
        messages: vec![
            Message::System {
                content: system_prompt,
            },
            Message::User {
                content: prompt.to_owned(),
            },
        ],
        tools: specs(),
    };
    let mut usage = Usage::default();
    let mut skills_read: Vec<String> = Vec::new();
    let mut final_answer = None;
    let mut turns = 0;
    while turns < max_turns {
        turns += 1;
        on_event(Event::Turn(turns));
        let reply = model.complete(&request, &mut |text| on_event(Event::Text(text)))?;
        usage += reply.usage;
        request.messages.push(Message::Assistant {
            content: reply.text.clone(),
            tool_calls: reply.tool_calls.clone(),
        });
        if reply.tool_calls.is_empty() {
            final_answer = Some(strip_thinking(&reply.text));
            break;
        }
        for call in &reply.tool_calls {
            on_event(Event::Call(call));
            if let Some(name) = skill_read(tools, skills, call)
                && !skills_read.contains(&name)
            {
                skills_read.push(name);
            }
        }
        let tools_started = Instant::now();
        let results = tools.run_all(&reply.tool_calls);
        tool_time += tools_started.elapsed();
        for (call, content) in reply.tool_calls.iter().zip(results) {
            on_event(Event::Result(call, &content));
            request.messages.push(Message::Tool {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content,
            });
        }
    }
    model.finish(final_answer.is_some())?;
    Ok(Transcript {
        stop: if final_answer.is_some() {
            Stop::Answer
        } else {
            Stop::MaxTurns
        },
        final_answer,
        turns,
        usage,
        elapsed_ms: started.elapsed().as_millis() as u64,
        tool_ms: tool_time.as_millis() as u64,
        skills: skills.to_vec(),
        skills_read,
        messages: request.messages,
    })
}

/// The text without `<think>…</think>` blocks, trimmed.
fn strip_thinking(text: &str) -> String {
    static THINK: OnceLock<Regex> = OnceLock::new();
    THINK
        .get_or_init(|| Regex::new(r"(?s)<think>.*?</think>").expect("valid regex"))
        .replace_all(text, "")
        .trim()
        .to_owned()
}

/// The installed skill whose SKILL.md `call` reads: through `read_file`, or named in an `exec`
/// command (`cat skills/x/SKILL.md`).
fn skill_read(tools: &ToolBox, skills: &[String], call: &ToolCall) -> Option<String> {
    let arguments: serde_json::Value = serde_json::from_str(&call.arguments).ok()?;
    match call.name.as_str() {
        "read_file" => {
            let path =
                super::tools::resolve(tools.workspace(), arguments["path"].as_str()?).ok()?;
            let relative = path.strip_prefix(tools.workspace().join("skills")).ok()?;
            let mut parts = relative.iter();
            let name = parts.next()?.to_str()?;
            let file = parts.next()?.to_str()?;
            (parts.next().is_none()
                && file.eq_ignore_ascii_case("SKILL.md")
                && skills.iter().any(|s| s == name))
            .then(|| name.to_owned())
        }
        "exec" => {
            static MENTION: OnceLock<Regex> = OnceLock::new();
            let mention = MENTION.get_or_init(|| {
                Regex::new(r"(?i)skills/([a-z0-9._-]+)/SKILL\.md(?:$|[^a-z0-9._-])")
                    .expect("valid regex")
            });
            let command = arguments["command"]
                .as_str()
                .map_or_else(|| arguments["argv"].to_string(), str::to_owned);
            mention
                .captures_iter(&command)
                .filter_map(|c| c.get(1))
                .map(|m| m.as_str())
                .find(|name| skills.iter().any(|s| s == name))
                .map(str::to_owned)
        }
        _ => None,
    }
}
