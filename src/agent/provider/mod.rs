//! Models the loop can talk to: one trait, with HTTP providers for OpenAI-compatible chat
//! completions and Anthropic's messages API (both streaming or not), the cassette replayer and
//! recorder (`agent::cassette`), and a scripted model for starter cassettes.

mod anthropic;
mod openai;
pub mod script;
mod sse;

use super::cassette::CassetteError;
use super::message::{Reply, Request};
use crate::http::Failure;
use std::time::Duration;

pub use anthropic::Anthropic;
pub use openai::OpenAi;

/// A model: answers one request at a time, calling `on_text` with text as it arrives.
pub trait Model {
    /// Answers `request`.
    fn complete(
        &mut self,
        request: &Request,
        on_text: &mut dyn FnMut(&str),
    ) -> Result<Reply, ModelError>;

    /// Called once when the run ends without error (`answered` when the model gave its final
    /// answer rather than reaching the turn limit): a replayer checks every exchange was used,
    /// a recorder writes its cassette.
    fn finish(&mut self, answered: bool) -> Result<(), ModelError> {
        let _ = answered;
        Ok(())
    }
}

/// Why a model gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The provider could not be reached.
    #[error(
        "{url}: cannot reach the model provider ({message}); check --base-url and the *_BASE_URL env vars"
    )]
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
    /// A streamed answer stopped before its end marker.
    #[error("{url}: the stream ended before the answer was complete")]
    StreamEnded {
        /// The URL.
        url: String,
    },
    /// The provider needs a key that is not set.
    #[error("{variable} is not set; export it, or pass --base-url for a server that needs no key")]
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
}

/// The HTTP APIs we speak.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// OpenAI-compatible chat completions (OpenAI, OpenRouter, Ollama, vLLM, llama.cpp).
    Openai,
    /// Anthropic's messages API.
    Anthropic,
}

impl ProviderKind {
    /// Its name, as flags and cassettes spell it.
    pub fn name(self) -> &'static str {
        match self {
            ProviderKind::Openai => "openai",
            ProviderKind::Anthropic => "anthropic",
        }
    }

    /// The env var holding the API key.
    pub fn key_variable(self) -> &'static str {
        match self {
            ProviderKind::Openai => "OPENAI_API_KEY",
            ProviderKind::Anthropic => "ANTHROPIC_API_KEY",
        }
    }

    /// The env var holding the base URL.
    pub fn base_variable(self) -> &'static str {
        match self {
            ProviderKind::Openai => "OPENAI_BASE_URL",
            ProviderKind::Anthropic => "ANTHROPIC_BASE_URL",
        }
    }

    /// The base URL as the official SDKs default it: OpenAI's ends in `/v1`, Anthropic's is the
    /// bare host.
    pub fn default_base(self) -> &'static str {
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
}

impl HttpConfig {
    /// The configuration for `kind`: flags win over `*_BASE_URL` / `*_API_KEY`, which win over
    /// the defaults. A key is required only for the provider's own host.
    pub fn resolve(
        kind: ProviderKind,
        base_url: Option<String>,
        model: Option<String>,
        stream: bool,
    ) -> Result<HttpConfig, ModelError> {
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

/// Reads a streamed answer, passing text on as it arrives.
type StreamReader<'a> =
    &'a dyn Fn(&mut dyn std::io::BufRead, &mut dyn FnMut(&str)) -> Result<Reply, ModelError>;

/// How a provider reads its answers: a stream of events, or one JSON document.
struct Wire<'a> {
    read_stream: StreamReader<'a>,
    read_response: &'a dyn Fn(&serde_json::Value) -> Result<Reply, ModelError>,
}

/// Sends the request `build` makes (with the shared retry policy) and reads the answer as a
/// stream or whole; a whole answer's text still reaches `on_text`.
fn exchange(
    url: &str,
    build: &dyn Fn() -> reqwest::blocking::RequestBuilder,
    stream: bool,
    wire: &Wire,
    on_text: &mut dyn FnMut(&str),
) -> Result<Reply, ModelError> {
    let response =
        crate::http::send_with_retries(build).map_err(|f| ModelError::from_failure(url, f))?;
    if stream {
        return (wire.read_stream)(&mut std::io::BufReader::new(response), on_text);
    }
    let bytes = response.bytes().map_err(|e| ModelError::Network {
        url: url.to_owned(),
        message: e.to_string(),
    })?;
    let value: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| ModelError::protocol(url, format!("not JSON: {e}")))?;
    let reply = (wire.read_response)(&value)?;
    if !reply.text.is_empty() {
        on_text(&reply.text);
    }
    Ok(reply)
}

/// The HTTP client the providers share: generous timeouts, since models think for a while.
fn http_client() -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .connect_timeout(Duration::from_secs(30))
        .timeout(Duration::from_secs(600))
        .user_agent(concat!("skill/", env!("CARGO_PKG_VERSION")))
        .build()
        .unwrap_or_default()
}
