//! The loop: ask the model, run the tools it calls, append their results, until it answers
//! without calling a tool, refuses, is cut off, or the turn limit is reached. Events go to the
//! caller as they happen; the transcript says what happened and why it stopped, including which
//! skills' SKILL.md the model read.

use super::message::{Delta, Finish, Message, Reply, Request, Stop, ToolCall, Usage};
use super::provider::{Model, ModelError};
use super::tools::{ToolBox, ToolOutput};
use regex::Regex;
use skill_model::layout::SKILL_MD;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Something that happened during a run, reported as it happens.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// A turn starts (counted from 1).
    Turn(usize),
    /// Answer text from the model, as it streams.
    Text(&'a str),
    /// Refusal text from the model, as it streams.
    Refusal(&'a str),
    /// Extended-thinking text from the model, as it streams.
    Thinking(&'a str),
    /// The model calls a tool.
    Call(&'a ToolCall),
    /// A tool's result.
    Result(&'a ToolCall, &'a ToolOutput),
}

impl<'a> From<Delta<'a>> for Event<'a> {
    fn from(delta: Delta<'a>) -> Event<'a> {
        match delta {
            Delta::Text(text) => Event::Text(text),
            Delta::Refusal(text) => Event::Refusal(text),
            Delta::Thinking(text) => Event::Thinking(text),
        }
    }
}

/// Turns in a row whose tool calls cannot be read before the loop gives up: one is answered
/// with an error the model can act on; a second means it will not.
const UNREADABLE_TURNS: usize = 2;

/// What a run did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Transcript {
    /// Why it stopped.
    pub stop: Stop,
    /// The final answer (`<think>` blocks removed) when the model gave one: its refusal when
    /// it refused, the cut-off text when the token limit cut it.
    pub final_answer: Option<String>,
    /// The error that ended the run, when `stop` is `error`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
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

/// A run a model or cassette error ended: the error, and the transcript up to it (its stop is
/// `error`).
#[derive(Debug)]
pub struct Interrupted {
    /// What failed.
    pub error: ModelError,
    /// What happened before.
    pub transcript: Transcript,
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
) -> Result<Transcript, Box<Interrupted>> {
    run_with(
        model,
        tools,
        system_prompt,
        skills,
        prompt,
        max_turns,
        false,
        on_event,
    )
}

/// [`run`], and with `stop_at_route` the run ends ([`Stop::Routed`]) at the model's first
/// choice: a reply that reads a skill's SKILL.md, or calls any tool but `read_file` and
/// `list_dir`. Those calls are not run, so a routing run changes nothing in the workspace.
#[allow(clippy::too_many_arguments)]
pub fn run_with(
    model: &mut dyn Model,
    tools: &ToolBox,
    system_prompt: String,
    skills: &[String],
    prompt: &str,
    max_turns: usize,
    stop_at_route: bool,
    on_event: &mut dyn FnMut(Event),
) -> Result<Transcript, Box<Interrupted>> {
    let started = Instant::now();
    let mut progress = Progress::new(tools, system_prompt, prompt);
    let mut stop = None;
    let mut failure = None;
    while progress.turns < max_turns {
        progress.turns += 1;
        on_event(Event::Turn(progress.turns));
        match progress.take_turn(model, tools, skills, stop_at_route, on_event) {
            Ok(None) => {}
            Ok(Some(why)) => {
                stop = Some(why);
                break;
            }
            Err(error) => {
                failure = Some(error);
                break;
            }
        }
    }
    let stop = stop.unwrap_or(Stop::MaxTurns);
    if failure.is_none()
        && let Err(error) = model.finish(stop)
    {
        failure = Some(error);
    }
    let mut transcript = progress.into_transcript(stop, started, skills);
    match failure {
        None => Ok(transcript),
        Some(error) => {
            transcript.stop = Stop::Error;
            transcript.error = Some(error.to_string());
            Err(Box::new(Interrupted { error, transcript }))
        }
    }
}

/// What a run has gathered so far, turn by turn.
struct Progress {
    request: Request,
    usage: Usage,
    skills_read: Vec<String>,
    final_answer: Option<String>,
    /// Turns in a row whose tool calls could not be read.
    unreadable_turns: usize,
    turns: usize,
    tool_time: Duration,
}

impl Progress {
    /// A run about to ask its first question.
    fn new(tools: &ToolBox, system_prompt: String, prompt: &str) -> Progress {
        Progress {
            request: Request {
                messages: vec![
                    Message::System {
                        content: system_prompt,
                    },
                    Message::User {
                        content: prompt.to_owned(),
                    },
                ],
                tools: tools.specs(),
            },
            usage: Usage::default(),
            skills_read: Vec::new(),
            final_answer: None,
            unreadable_turns: 0,
            turns: 0,
            tool_time: Duration::ZERO,
        }
    }

    /// One turn: the model's reply, then the tools it calls run and answered. Returns why the
    /// run stops when it stops here.
    fn take_turn(
        &mut self,
        model: &mut dyn Model,
        tools: &ToolBox,
        skills: &[String],
        stop_at_route: bool,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<Option<Stop>, ModelError> {
        let reply = model.complete(&self.request, &mut |delta| on_event(delta.into()))?;
        self.usage += reply.usage;
        let finish = reply.finish();
        self.request.messages.push(Message::Assistant {
            content: reply.text.clone(),
            thinking: reply.thinking.clone(),
            tool_calls: reply.tool_calls.clone(),
            refusal: reply.refusal.clone(),
        });
        if let Some((why, answer)) = final_stop(&reply, finish) {
            self.final_answer = Some(answer);
            return Ok(Some(why));
        }
        let routed = self.note_calls(tools, skills, &reply.tool_calls, on_event);
        if stop_at_route && routed {
            return Ok(Some(Stop::Routed));
        }
        let unreadable = self.answer_calls(tools, &reply.tool_calls, finish, on_event);
        self.unreadable_turns = if unreadable {
            self.unreadable_turns + 1
        } else {
            0
        };
        if self.unreadable_turns >= UNREADABLE_TURNS {
            return Ok(Some(if finish == Finish::Length {
                Stop::Length
            } else {
                Stop::BadToolCalls
            }));
        }
        Ok(None)
    }

    /// Reports the calls and records the skills they read; says whether they route (read a
    /// skill, or do more than look around).
    fn note_calls(
        &mut self,
        tools: &ToolBox,
        skills: &[String],
        calls: &[ToolCall],
        on_event: &mut dyn FnMut(Event),
    ) -> bool {
        let mut routed = false;
        for call in calls {
            on_event(Event::Call(call));
            if let Some(name) = skill_read(tools, skills, call) {
                routed = true;
                if !self.skills_read.contains(&name) {
                    self.skills_read.push(name);
                }
            } else if !matches!(call.name.as_str(), "read_file" | "list_dir") {
                routed = true;
            }
        }
        routed
    }

    /// Runs the calls and adds their results to the conversation; says whether any could not
    /// be read.
    fn answer_calls(
        &mut self,
        tools: &ToolBox,
        calls: &[ToolCall],
        finish: Finish,
        on_event: &mut dyn FnMut(Event),
    ) -> bool {
        let tools_started = Instant::now();
        let (results, unreadable) = run_calls(tools, calls, finish);
        self.tool_time += tools_started.elapsed();
        for (call, output) in calls.iter().zip(results) {
            on_event(Event::Result(call, &output));
            self.request.messages.push(Message::Tool {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content: output.content,
                is_error: output.is_error,
            });
        }
        unreadable
    }

    /// The transcript of a run that stopped for `stop`.
    fn into_transcript(self, stop: Stop, started: Instant, skills: &[String]) -> Transcript {
        Transcript {
            stop,
            final_answer: self.final_answer,
            error: None,
            turns: self.turns,
            usage: self.usage,
            elapsed_ms: started.elapsed().as_millis() as u64,
            tool_ms: self.tool_time.as_millis() as u64,
            skills: skills.to_vec(),
            skills_read: self.skills_read,
            messages: self.request.messages,
        }
    }
}

/// The stop and the final answer when `reply` ends the run: a refusal, or a reply without tool
/// calls (whole, cut off, or filtered).
fn final_stop(reply: &Reply, finish: Finish) -> Option<(Stop, String)> {
    if finish == Finish::Refusal {
        // OpenAI puts the refusal in a field of its own; Anthropic's is the text it gave.
        let refusal = reply
            .refusal
            .clone()
            .filter(|r| !r.trim().is_empty())
            .unwrap_or_else(|| strip_thinking(&reply.text));
        return Some((Stop::Refusal, refusal));
    }
    if !reply.tool_calls.is_empty() {
        return None;
    }
    let stop = match finish {
        Finish::Length => Stop::Length,
        Finish::ContentFilter => Stop::ContentFilter,
        _ => Stop::Answer,
    };
    Some((stop, strip_thinking(&reply.text)))
}

/// Runs the calls that can be run and answers the others with why not; says whether any could
/// not be read. A call whose arguments are not a JSON object is not run, nor is the last call
/// of a reply the token limit cut off: it was being written when the limit hit, so even
/// arguments that parse may be missing their end (a file half written).
fn run_calls(tools: &ToolBox, calls: &[ToolCall], finish: Finish) -> (Vec<ToolOutput>, bool) {
    let cut_off = finish == Finish::Length;
    let refusals: Vec<Option<ToolOutput>> = calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let last = i + 1 == calls.len();
            match super::tools::arguments(call) {
                Err(why) if cut_off && last => Some(ToolOutput::error(format!(
                    "{why}. The reply was cut off at the output token limit while this call was being written, so it was not run; send it again with shorter arguments (a long file can be written in parts)"
                ))),
                Err(why) => Some(ToolOutput::error(format!(
                    "{why}. The call was not run; send it again with arguments that are one JSON object"
                ))),
                Ok(_) if cut_off && last => Some(ToolOutput::error(format!(
                    "Error: the call to '{}' was not run: the reply was cut off at the output token limit while it was being written, so its arguments may be incomplete; send it again (with shorter arguments if they are long)",
                    call.name
                ))),
                Ok(_) => None,
            }
        })
        .collect();
    let unreadable = refusals.iter().any(Option::is_some);
    let runnable: Vec<ToolCall> = calls
        .iter()
        .zip(&refusals)
        .filter(|(_, refusal)| refusal.is_none())
        .map(|(call, _)| call.clone())
        .collect();
    let mut ran = tools.run_all(&runnable).into_iter();
    let results = refusals
        .into_iter()
        .map(|refusal| {
            refusal.unwrap_or_else(|| {
                ran.next().unwrap_or_else(|| {
                    ToolOutput::error("Error: the tool gave no result".to_owned())
                })
            })
        })
        .collect();
    (results, unreadable)
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
                && file.eq_ignore_ascii_case(SKILL_MD)
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
