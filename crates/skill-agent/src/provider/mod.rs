//! Models the loop can talk to: one trait, with HTTP providers for OpenAI-compatible chat
//! completions and Anthropic's messages API (both streaming or not), the cassette replayer and
//! recorder (`crate::cassette`), and a scripted model for starter cassettes.

mod anthropic;
mod openai;
mod partial_json;
pub mod script;
mod sse;

use super::cassette::CassetteError;
use super::message::{Delta, Reply, Request, Stop};
use skill_http::Failure;
use std::time::Duration;

pub use anthropic::Anthropic;
pub use openai::OpenAi;

/// A model: answers one request at a time, calling `on_delta` with text as it arrives.
pub trait Model {
    /// Answers `request`.
    fn complete(
        &mut self,
        request: &Request,
        on_delta: &mut dyn FnMut(Delta),
    ) -> Result<Reply, ModelError>;

    /// Called once when the run ends without error, with why it stopped: a replayer checks
    /// every exchange was used, a recorder writes its cassette.
    fn finish(&mut self, stop: Stop) -> Result<(), ModelError> {
        let _ = stop;
        Ok(())
    }
}

/// Passes a whole reply (not streamed, or replayed) on as the deltas a stream would have given.
pub(crate) fn emit_reply(reply: &Reply, on_delta: &mut dyn FnMut(Delta)) {
    for block in &reply.thinking {
        if let super::message::Thinking::Thinking { thinking, .. } = block
            && !thinking.is_empty()
        {
            on_delta(Delta::Thinking(thinking));
        }
    }
    if !reply.text.is_empty() {
        on_delta(Delta::Text(&reply.text));
    }
    if let Some(refusal) = reply.refusal.as_deref().filter(|r| !r.is_empty()) {
        on_delta(Delta::Refusal(refusal));
    }
}

/// Why a model gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The provider could not be reached.
    #[error("{url}: cannot reach the model provider ({message})")]
    Network {
        /// The URL.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// The provider answered with an error status (after retries for 429 and 5xx).
    #[error("{url}: HTTP {status}: {body}")]
    Http {
        /// The URL.
        url: String,
        /// The status.
        status: u16,
        /// The body, verbatim.
        body: String,
    },
    /// The provider answered something its API does not allow.
    #[error("{url}: unexpected response: {message}")]
    Protocol {
        /// The URL.
        url: String,
        /// What was wrong.
        message: String,
    },
    /// The provider answered with an error of its own: an error event in a stream, or an
    /// error document where the answer should be.
    #[error("{url}: the provider reported {kind}: {message}")]
    Provider {
        /// The URL.
        url: String,
        /// The provider's error type (`overloaded_error`, `server_error`...) or code.
        kind: String,
        /// The provider's message.
        message: String,
    },
    /// Provider settings that cannot work together.
    #[error("{0}")]
    Setting(String),
    /// A streamed answer stopped before its end marker.
    #[error("{url}: the stream ended before the answer was complete")]
    StreamEnded {
        /// The URL.
        url: String,
    },
    /// The provider needs a key that is not set.
    #[error("{variable} is not set")]
    MissingKey {
        /// The env var to set.
        variable: &'static str,
    },
    /// A cassette could not be replayed or recorded.
    #[error(transparent)]
    Cassette(#[from] CassetteError),
}

impl ModelError {
    fn from_failure(url: &str, failure: Failure) -> ModelError {
        match failure {
            Failure::Network(message) => ModelError::Network {
                url: url.to_owned(),
                message,
            },
            Failure::Status { status, body } => ModelError::Http {
                url: url.to_owned(),
                status,
                body,
            },
        }
    }

    fn protocol(url: &str, message: impl Into<String>) -> ModelError {
        ModelError::Protocol {
            url: url.to_owned(),
            message: message.into(),
        }
    }

    /// The error a provider's `error` object describes: its type (or code) and message.
    fn provider(url: &str, error: &serde_json::Value) -> ModelError {
        let kind = ["type", "code"]
            .iter()
            .find_map(|key| match &error[key] {
                serde_json::Value::String(s) if !s.is_empty() => Some(s.clone()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .unwrap_or_else(|| "an error".to_owned());
        let message = error["message"]
            .as_str()
            .map_or_else(|| error.to_string(), str::to_owned);
        ModelError::Provider {
            url: url.to_owned(),
            kind,
            message,
        }
    }

    /// Whether asking again may help: a provider error that stands for a status the HTTP
    /// retry policy retries (429, 5xx; Anthropic's `overloaded_error` is its 529).
    fn is_transient(&self) -> bool {
        let ModelError::Provider { kind, .. } = self else {
            return false;
        };
        match kind.as_str() {
            "overloaded_error"
            | "rate_limit_error"
            | "api_error"
            | "server_error"
            | "rate_limit_exceeded" => true,
            code => code
                .parse::<u16>()
                .is_ok_and(|status| status == 429 || status >= 500),
        }
    }
}

skill_model::choices! {
    /// The HTTP APIs we speak.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum ProviderKind {
        Openai = "openai": "OpenAI-compatible chat completions (OpenAI, OpenRouter, Ollama, vLLM, llama.cpp).",
        Anthropic = "anthropic": "Anthropic's messages API.",
    }
}

impl ProviderKind {
    /// The env var holding the API key.
    pub(crate) fn key_variable(self) -> &'static str {
        match self {
            ProviderKind::Openai => "OPENAI_API_KEY",
            ProviderKind::Anthropic => "ANTHROPIC_API_KEY",
        }
    }

    /// The env var holding the base URL.
    pub(crate) fn base_variable(self) -> &'static str {
        match self {
            ProviderKind::Openai => "OPENAI_BASE_URL",
            ProviderKind::Anthropic => "ANTHROPIC_BASE_URL",
        }
    }

    /// The base URL as the official SDKs default it: OpenAI's ends in `/v1`, Anthropic's is the
    /// bare host.
    pub(crate) fn default_base(self) -> &'static str {
        match self {
            ProviderKind::Openai => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com",
        }
    }

    /// The model used when none is named.
    pub fn default_model(self) -> &'static str {
        match self {
            ProviderKind::Openai => "gpt-4.1-mini",
            ProviderKind::Anthropic => "claude-sonnet-4-5",
        }
    }
}

/// Output tokens per Anthropic reply when none is set: its API requires a limit.
pub(crate) const ANTHROPIC_MAX_TOKENS: u32 = 8192;
/// The smallest thinking budget Anthropic's API takes.
pub(crate) const MIN_THINKING_BUDGET: u32 = 1024;

/// What a request asks of the model beyond the conversation, and quirks of some servers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderOptions {
    /// Most output tokens per reply: OpenAI's `max_completion_tokens` (unset: the model's own
    /// limit), Anthropic's `max_tokens` (unset: [`ANTHROPIC_MAX_TOKENS`]).
    pub max_tokens: Option<u32>,
    /// Tokens of extended thinking per reply (Anthropic only); thinking is off when unset.
    pub thinking_budget: Option<u32>,
    /// Put the tool's `name` on OpenAI tool messages. The API's schema has no such field and
    /// strict gateways refuse it, but some older compatible servers want it.
    pub tool_message_name: bool,
}

/// How to reach an HTTP provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpConfig {
    /// Which API.
    pub kind: ProviderKind,
    /// The base URL, without a trailing `/`.
    pub base_url: String,
    /// The API key, if any (local servers often need none).
    pub api_key: Option<String>,
    /// The model name.
    pub model: String,
    /// Whether to ask for a streamed answer.
    pub stream: bool,
    /// Token limits, thinking, quirks.
    pub options: ProviderOptions,
}

impl HttpConfig {
    /// The configuration for `kind`: flags win over `*_BASE_URL` / `*_API_KEY`, which win over
    /// the defaults. A key is required only for the provider's own host; options that cannot
    /// work together are refused before any request.
    pub fn resolve(
        kind: ProviderKind,
        base_url: Option<String>,
        model: Option<String>,
        stream: bool,
        options: ProviderOptions,
    ) -> Result<HttpConfig, ModelError> {
        check_options(kind, &options)?;
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let base_url = base_url
            .or_else(|| var(kind.base_variable()))
            .unwrap_or_else(|| kind.default_base().to_owned())
            .trim_end_matches('/')
            .to_owned();
        let api_key = var(kind.key_variable());
        if api_key.is_none() && base_url == kind.default_base() {
            return Err(ModelError::MissingKey {
                variable: kind.key_variable(),
            });
        }
        Ok(HttpConfig {
            kind,
            base_url,
            api_key,
            model: model.unwrap_or_else(|| kind.default_model().to_owned()),
            stream,
            options,
        })
    }

    /// The provider this configuration reaches.
    pub fn connect(self) -> Box<dyn Model> {
        match self.kind {
            ProviderKind::Openai => Box::new(OpenAi::new(self)),
            ProviderKind::Anthropic => Box::new(Anthropic::new(self)),
        }
    }
}

/// Refuses what the API would answer 400 to, with the setting to change.
fn check_options(kind: ProviderKind, options: &ProviderOptions) -> Result<(), ModelError> {
    if options.max_tokens == Some(0) {
        return Err(ModelError::Setting(
            "max tokens must be at least 1".to_owned(),
        ));
    }
    let Some(budget) = options.thinking_budget else {
        return Ok(());
    };
    if kind != ProviderKind::Anthropic {
        return Err(ModelError::Setting(format!(
            "a thinking budget is for Anthropic's API (extended thinking); {} takes none: drop --thinking-budget or thinking_budget",
            kind.name()
        )));
    }
    if budget < MIN_THINKING_BUDGET {
        return Err(ModelError::Setting(format!(
            "the thinking budget is {budget} tokens; Anthropic's API takes at least {MIN_THINKING_BUDGET}"
        )));
    }
    let max_tokens = options.max_tokens.unwrap_or(ANTHROPIC_MAX_TOKENS);
    if budget >= max_tokens {
        return Err(ModelError::Setting(format!(
            "the thinking budget ({budget} tokens) must be below max tokens ({max_tokens}): raise --max-tokens or lower --thinking-budget"
        )));
    }
    Ok(())
}

/// Reads a streamed answer, passing text on as it arrives.
type StreamReader<'a> =
    &'a dyn Fn(&mut dyn std::io::BufRead, &mut dyn FnMut(Delta)) -> Result<Reply, ModelError>;

/// How a provider reads its answers: a stream of events, or one JSON document.
struct Wire<'a> {
    read_stream: StreamReader<'a>,
    read_response: &'a dyn Fn(&serde_json::Value) -> Result<Reply, ModelError>,
}

/// Sends the request `build` makes (with the shared retry policy) and reads the answer as a
/// stream or whole; a whole answer's text still reaches `on_delta`. An overloaded or failed
/// provider that says so inside a 200 (an error event before anything was streamed) is asked
/// again as a 529 or 500 would be; once text has reached the user, the error stands.
fn exchange(
    url: &str,
    build: &dyn Fn() -> reqwest::blocking::RequestBuilder,
    stream: bool,
    wire: &Wire,
    on_delta: &mut dyn FnMut(Delta),
) -> Result<Reply, ModelError> {
    let mut attempt = 1;
    loop {
        let mut streamed = false;
        let result = attempt_exchange(url, build, stream, wire, &mut |delta| {
            streamed = true;
            on_delta(delta);
        });
        match result {
            Err(error) if error.is_transient() && !streamed && attempt < skill_http::ATTEMPTS => {
                // The wait skill_http uses when a response names none.
                std::thread::sleep(Duration::from_millis(300 * 2u64.pow(attempt - 1)));
                attempt += 1;
            }
            Ok(reply) => {
                if !stream {
                    emit_reply(&reply, on_delta);
                }
                return Ok(reply);
            }
            Err(error) => return Err(error),
        }
    }
}

/// One request and its answer; a whole answer is not passed on (the caller does, once it
/// knows it will not ask again).
fn attempt_exchange(
    url: &str,
    build: &dyn Fn() -> reqwest::blocking::RequestBuilder,
    stream: bool,
    wire: &Wire,
    on_delta: &mut dyn FnMut(Delta),
) -> Result<Reply, ModelError> {
    let response =
        skill_http::send_with_retries(build).map_err(|f| ModelError::from_failure(url, f))?;
    if stream {
        return (wire.read_stream)(&mut std::io::BufReader::new(response), on_delta);
    }
    let bytes = response.bytes().map_err(|e| ModelError::Network {
        url: url.to_owned(),
        message: e.to_string(),
    })?;
    let value: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| ModelError::protocol(url, format!("not JSON: {e}")))?;
    (wire.read_response)(&value)
}

/// The HTTP client the providers share: generous timeouts, since models think for a while.
fn http_client() -> reqwest::blocking::Client {
    skill_http::client_builder()
        .connect_timeout(Duration::from_secs(30))
        .timeout(Duration::from_secs(600))
        .user_agent(concat!("skill/", env!("CARGO_PKG_VERSION")))
        .build()
        .unwrap_or_default()
}
