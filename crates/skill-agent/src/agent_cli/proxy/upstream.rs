//! The real provider behind the proxy: its base URL and key, as the provider's own variables
//! set them, and the forwarding of one request with the user's key in place of the
//! placeholder the agent was given.

use axum::http::HeaderMap;
use serde_json::Value;

/// A provider family: one key and base URL serve every API it offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Anthropic's messages API.
    Anthropic,
    /// OpenAI's Responses and chat completions.
    OpenAi,
    /// Google's Gemini API.
    Gemini,
}

impl Family {
    /// The variables of the base URL and the key, and the provider's own base URL.
    fn variables(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Family::Anthropic => (
                "ANTHROPIC_BASE_URL",
                "ANTHROPIC_API_KEY",
                "https://api.anthropic.com",
            ),
            Family::OpenAi => (
                "OPENAI_BASE_URL",
                "OPENAI_API_KEY",
                "https://api.openai.com/v1",
            ),
            Family::Gemini => (
                "GOOGLE_GEMINI_BASE_URL",
                "GEMINI_API_KEY",
                "https://generativelanguage.googleapis.com",
            ),
        }
    }
}

/// Where requests are forwarded, and with which key (never shown by `Debug`).
#[derive(Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// The family.
    pub family: Family,
    /// The base URL, without a trailing `/`.
    pub base: String,
    key: Option<String>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("family", &self.family)
            .field("base", &self.base)
            .field("key", &self.key.as_ref().map(|_| "<hidden>"))
            .finish()
    }
}

/// The provider's answer.
pub struct Reply {
    /// Its status.
    pub status: u16,
    /// Its content type.
    pub content_type: String,
    /// Its body.
    pub body: String,
}

/// Headers of the agent's request that the provider needs to see.
const PASSED_HEADERS: &[&str] = &[
    "content-type",
    "accept",
    "anthropic-version",
    "anthropic-beta",
    "openai-beta",
    "user-agent",
];

/// Seconds a provider may take for one answer.
const TIMEOUT_SECS: u64 = 600;

impl Endpoint {
    /// The endpoint of `family`: `base` (a flag) wins over the base URL variable, which wins
    /// over the provider's own; a key is required only for the provider's own host.
    pub fn resolve(family: Family, base: Option<&str>) -> Result<Endpoint, super::ProxyError> {
        let (base_var, key_var, default) = family.variables();
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let base = base
            .map(str::to_owned)
            .or_else(|| var(base_var))
            .unwrap_or_else(|| default.to_owned())
            .trim_end_matches('/')
            .to_owned();
        let key = var(key_var);
        if key.is_none() && base == default {
            return Err(super::ProxyError::MissingKey { variable: key_var });
        }
        Ok(Endpoint { family, base, key })
    }

    /// The provider's URL for the agent's `path`: OpenAI's base already ends in `/v1`, the
    /// prefix the agents add themselves.
    fn url(&self, path: &str) -> String {
        let path = match self.family {
            Family::OpenAi if self.base.ends_with("/v1") => {
                path.strip_prefix("/v1").unwrap_or(path)
            }
            _ => path,
        };
        format!("{}{path}", self.base)
    }

    /// Forwards one request and reads the whole answer.
    pub async fn send(
        &self,
        client: &reqwest::Client,
        path: &str,
        headers: &HeaderMap,
        body: &Value,
    ) -> Result<Reply, String> {
        let url = self.url(&without_key(path));
        let mut request = client
            .post(&url)
            .timeout(std::time::Duration::from_secs(TIMEOUT_SECS))
            .body(body.to_string());
        for name in PASSED_HEADERS {
            if let Some(value) = headers.get(*name) {
                request = request.header(*name, value);
            }
        }
        if let Some(key) = &self.key {
            request = match self.family {
                Family::Anthropic => request.header("x-api-key", key),
                Family::OpenAi => request.bearer_auth(key),
                Family::Gemini => request.header("x-goog-api-key", key),
            };
        }
        let response = request
            .send()
            .await
            .map_err(|e| format!("POST {url}: {e}"))?;
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("application/json")
            .to_owned();
        let body = response
            .text()
            .await
            .map_err(|e| format!("POST {url}: reading the answer: {e}"))?;
        Ok(Reply {
            status,
            content_type,
            body,
        })
    }
}

/// `path` without a `key=` query parameter (Gemini's placeholder key may ride there).
fn without_key(path: &str) -> String {
    let Some((bare, query)) = path.split_once('?') else {
        return path.to_owned();
    };
    let kept: Vec<&str> = query
        .split('&')
        .filter(|p| !p.starts_with("key="))
        .collect();
    if kept.is_empty() {
        bare.to_owned()
    } else {
        format!("{bare}?{}", kept.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agents_v1_prefix_is_not_doubled_and_its_key_is_dropped() {
        let openai = Endpoint {
            family: Family::OpenAi,
            base: "https://api.openai.com/v1".to_owned(),
            key: None,
        };
        assert_eq!(
            openai.url("/v1/responses"),
            "https://api.openai.com/v1/responses"
        );
        assert_eq!(
            without_key("/v1beta/models/m:streamGenerateContent?alt=sse&key=placeholder"),
            "/v1beta/models/m:streamGenerateContent?alt=sse"
        );
    }
}
