//! Provider-neutral messages: what the loop keeps, what cassettes store, and what each provider
//! translates to and from its own wire format.

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
        /// The calls, in the order the model made them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one tool call.
    Tool {
        /// The id of the call it answers.
        call_id: String,
        /// The tool's name.
        name: String,
        /// What the tool returned.
        content: String,
    },
}

/// A call the model asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id for the call, echoed in the result.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments as the model wrote them: a JSON object when the model behaves.
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    /// The text.
    #[serde(default)]
    pub text: String,
    /// The tool calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// The tokens used.
    #[serde(default)]
    pub usage: Usage,
    /// Why the model stopped, in the provider's words (`stop`, `tool_calls`, `end_turn`...).
    #[serde(default)]
    pub stop_reason: String,
}
