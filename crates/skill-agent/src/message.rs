//! Provider-neutral messages: what the loop keeps, what cassettes store, and what each provider
//! translates to and from its own wire format. Also the closed set of reasons a run stops.

use serde::{Deserialize, Serialize};

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "lowercase")]
pub enum Message {
    /// The system prompt.
    System {
        /// Its text.
        content: String,
    },
    /// What the user asked.
    User {
        /// Its text.
        content: String,
    },
    /// A model turn: text, tool calls, or both.
    Assistant {
        /// The text (empty when the turn only calls tools).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        content: String,
        /// Extended-thinking blocks, with their signatures, in the order the model sent them:
        /// Anthropic's API wants them back unchanged when a turn calls tools.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        thinking: Vec<Thinking>,
        /// The calls, in the order the model made them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
        /// The model's refusal, when it refused.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refusal: Option<String>,
    },
    /// The result of one tool call.
    Tool {
        /// The id of the call it answers.
        call_id: String,
        /// The tool's name.
        name: String,
        /// What the tool returned.
        content: String,
        /// Whether the tool failed (the content then says why).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        is_error: bool,
    },
}

/// A block of the model's extended thinking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Thinking {
    /// Thinking in clear, signed by the provider.
    Thinking {
        /// The text.
        thinking: String,
        /// The provider's signature of it, sent back verbatim.
        signature: String,
    },
    /// Thinking the provider encrypted.
    RedactedThinking {
        /// The opaque data, sent back verbatim.
        data: String,
    },
}

/// A call the model asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id for the call, echoed in the result.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments as the model wrote them: a JSON object when the model behaves, anything
    /// (a cut-off object, say) when it does not.
    pub arguments: String,
}

/// A tool offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Its name.
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// JSON schema of its arguments.
    pub parameters: serde_json::Value,
}

/// Everything a model is asked in one exchange.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// The conversation so far, system prompt first.
    pub messages: Vec<Message>,
    /// The tools offered.
    pub tools: Vec<ToolSpec>,
}

/// Tokens a provider reports for one exchange.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub input: u64,
    /// Completion tokens.
    pub output: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input += other.input;
        self.output += other.output;
    }
}

/// A model's whole answer to one request, assembled from a stream when it streamed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    /// The text.
    #[serde(default)]
    pub text: String,
    /// Extended-thinking blocks, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub thinking: Vec<Thinking>,
    /// The tool calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// The refusal: OpenAI's `refusal` field, or the explanation Anthropic gives with its
    /// `refusal` stop reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<String>,
    /// The tokens used.
    #[serde(default)]
    pub usage: Usage,
    /// Why the model stopped, in the provider's words (`stop`, `tool_calls`, `end_turn`,
    /// `length`, `max_tokens`...).
    #[serde(default)]
    pub stop_reason: String,
}

/// Why a reply ended, the same for every provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// The model ended its turn (or a stop sequence ended it): what it wrote is whole.
    Complete,
    /// The model ended its turn to call tools.
    ToolCalls,
    /// The output token limit (or the context window) cut the reply off.
    Length,
    /// The model refused.
    Refusal,
    /// The provider's content filter withheld or cut the reply.
    ContentFilter,
}

impl Reply {
    /// Why this reply ended. Reasons no provider documents (local servers invent a few) count
    /// as a complete turn, as the SDKs treat them.
    pub fn finish(&self) -> Finish {
        if self.refusal.is_some() {
            return Finish::Refusal;
        }
        match self.stop_reason.as_str() {
            "length" | "max_tokens" | "model_context_window_exceeded" => Finish::Length,
            "refusal" => Finish::Refusal,
            "content_filter" => Finish::ContentFilter,
            "tool_calls" | "tool_use" | "function_call" => Finish::ToolCalls,
            _ => Finish::Complete,
        }
    }
}

/// Why a run stopped: a closed set, named the same in the live view, `--json`, transcripts,
/// cassettes and scenarios.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// The model answered without calling a tool, and the answer is whole.
    Answer,
    /// The model refused; its refusal is the final answer.
    Refusal,
    /// The output token limit cut the final answer (or the same tool call, twice) off.
    Length,
    /// The provider's content filter withheld or cut the final answer.
    ContentFilter,
    /// The turn limit was reached.
    MaxTurns,
    /// The model sent tool calls whose arguments could not be read, twice in a row.
    BadToolCalls,
    /// The provider or the cassette failed; the run has no answer.
    Error,
    /// The model chose: it read a skill's SKILL.md or called a tool other than a read, and a
    /// run that only asks which skill the model picks (`skill eval`) stops there.
    Routed,
}

impl Stop {
    /// Its name, as `--json`, cassettes and scenarios spell it.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Answer => "answer",
            Stop::Refusal => "refusal",
            Stop::Length => "length",
            Stop::ContentFilter => "content_filter",
            Stop::MaxTurns => "max_turns",
            Stop::BadToolCalls => "bad_tool_calls",
            Stop::Error => "error",
            Stop::Routed => "routed",
        }
    }

    /// Whether the run ended with something the model chose to do (an answer, a refusal, or
    /// a skill read or tool call that ended a routing run): only these say what the model
    /// decided, so `skill eval` counts only these as trigger decisions, and a replayer expects
    /// every recorded exchange to have been used.
    pub(crate) fn is_decision(self) -> bool {
        matches!(self, Stop::Answer | Stop::Refusal | Stop::Routed)
    }
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece of a reply as it arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delta<'a> {
    /// Answer text.
    Text(&'a str),
    /// Refusal text.
    Refusal(&'a str),
    /// Extended-thinking text.
    Thinking(&'a str),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_stop_reasons_map_to_one_set() {
        let reply = |reason: &str| Reply {
            stop_reason: reason.to_owned(),
            ..Reply::default()
        };
        assert_eq!(reply("length").finish(), Finish::Length);
        assert_eq!(reply("max_tokens").finish(), Finish::Length);
        assert_eq!(reply("refusal").finish(), Finish::Refusal);
        assert_eq!(reply("end_turn").finish(), Finish::Complete);
        assert_eq!(reply("").finish(), Finish::Complete);
        assert_eq!(reply("tool_use").finish(), Finish::ToolCalls);
        let refused = Reply {
            refusal: Some("no".into()),
            stop_reason: "stop".into(),
            ..Reply::default()
        };
        assert_eq!(refused.finish(), Finish::Refusal);
    }
}

/// Why a model's reply does not hold the JSON object asked of it.
#[derive(Debug, thiserror::Error)]
pub enum ReplyJsonError {
    /// No `{ … }` in the reply.
    #[error("no JSON object in the reply")]
    NoObject,
    /// The object is not the shape asked for.
    #[error(transparent)]
    Shape(#[from] serde_json::Error),
}

/// The JSON object in a model's `reply`, read as `T`: from its first `{` to its last `}`, as
/// models wrap the object in prose or a code fence.
pub fn json_in_reply<T: serde::de::DeserializeOwned>(reply: &str) -> Result<T, ReplyJsonError> {
    let (Some(start), Some(end)) = (reply.find('{'), reply.rfind('}')) else {
        return Err(ReplyJsonError::NoObject);
    };
    if end < start {
        return Err(ReplyJsonError::NoObject);
    }
    Ok(serde_json::from_str(&reply[start..=end])?)
}
