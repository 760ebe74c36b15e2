#![warn(missing_docs)]
// Functions stay short enough to read at once; clippy.toml sets the bound (60 code lines).
#![warn(clippy::too_many_lines)]
//! Sending HTTP requests with the retry policy every client of ours shares: bounded attempts on
//! 429 and 5xx, waiting as `Retry-After` says (seconds, at most [`MAX_WAIT`]), else backing off
//! exponentially.

use reqwest::blocking::{RequestBuilder, Response};
use std::time::Duration;

/// Attempts per request (the first and two retries), as the clawhub CLI does.
pub const ATTEMPTS: u32 = 3;
/// Longest wait between attempts.
pub(crate) const MAX_WAIT: Duration = Duration::from_secs(5);

/// Most bytes of an error body kept for the message.
const MAX_ERROR_BODY: u64 = 64 * 1024;

/// A blocking client builder, with the process's TLS provider installed first.
pub fn client_builder() -> reqwest::blocking::ClientBuilder {
    install_tls_provider();
    reqwest::blocking::Client::builder()
}

/// Makes ring the TLS provider of every HTTP client in this process; call it before building
/// one. reqwest is built without a provider of its own (the workspace `Cargo.toml` says why) and
/// panics at `build()` when the process has none.
pub fn install_tls_provider() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        // An error means another provider was installed first, which serves as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// The body of `response`, refused when it is over `limit` bytes (a server cannot fill memory).
pub fn read_capped(response: Response, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    response.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!(
            "the response is over {limit} bytes"
        )));
    }
    Ok(bytes)
}

/// Why a request did not get a 2xx.
#[derive(Debug)]
pub enum Failure {
    /// No answer (connection refused, timeout, TLS...).
    Network(String),
    /// A non-2xx status after the last attempt, with the body's text.
    Status {
        /// The status code.
        status: u16,
        /// The body, trimmed (`HTTP <status>` when empty).
        body: String,
    },
}

/// Sends the request `build` makes, again on 429 and 5xx up to [`ATTEMPTS`] times, and returns
/// the first 2xx response unread (so callers can stream it).
pub fn send_with_retries(build: &dyn Fn() -> RequestBuilder) -> Result<Response, Failure> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let response = build()
            .send()
            .map_err(|e| Failure::Network(error_chain(&e.without_url())))?;
        let status = response.status().as_u16();
        if (200..300).contains(&status) {
            return Ok(response);
        }
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        if (status == 429 || status >= 500) && attempt < ATTEMPTS {
            let wait = retry_after.map_or(
                Duration::from_millis(300 * 2u64.pow(attempt - 1)),
                Duration::from_secs,
            );
            std::thread::sleep(wait.min(MAX_WAIT));
            continue;
        }
        let bytes = read_capped(response, MAX_ERROR_BODY).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes).trim().to_owned();
        let body = if text.is_empty() {
            format!("HTTP {status}")
        } else {
            text
        };
        return Err(Failure::Status { status, body });
    }
}

/// An error with its causes, which reqwest keeps out of its own message.
pub(crate) fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}
