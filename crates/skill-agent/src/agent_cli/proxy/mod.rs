//! The model proxy an agent CLI talks to: an HTTP server on 127.0.0.1 that forwards each model
//! request to the real provider with the user's key (recording the exchange), or answers it
//! from a cassette without opening a connection, and reports a request the cassette does not
//! hold as a diff. Requests that ask for no answer (model lists, token counts, update probes)
//! get an empty success, so no agent waits on a retry.

pub mod api;
pub mod cassette;
mod upstream;

use api::Api;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
pub use cassette::{Cassette, Normaliser, ProxyCassetteError};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
pub use upstream::{Endpoint, Family};

/// Where the answers come from.
#[derive(Debug, Clone)]
pub enum Source {
    /// The real provider; the exchanges are kept for a cassette when `record` is set.
    Forward {
        /// The provider.
        endpoint: Endpoint,
        /// Keep the exchanges.
        record: bool,
    },
    /// A recorded session; nothing leaves the machine.
    Replay(Cassette),
}

/// How the proxy behaves.
#[derive(Debug, Clone)]
pub struct Options {
    /// The key the agent was given: a request without it is refused, so no other program on
    /// this machine can spend the user's key through the proxy.
    pub token: String,
    /// Where the answers come from.
    pub source: Source,
    /// With the installed skills' names: answer "Done." in place of the model once the
    /// conversation holds the agent's choice (a call that loads one of them, or
    /// [`CHOICE_CALLS`] calls of other tools): an eval that asks which skill the agent picks
    /// needs nothing after the pick.
    pub stop_at_choice: Option<Vec<String>>,
    /// What a request may vary from run to run.
    pub normaliser: Normaliser,
}

/// Calls of other tools (a listing, a search) after which an agent that has loaded no skill
/// is taken to have chosen none.
pub(crate) const CHOICE_CALLS: usize = 4;

/// The largest request taken: a conversation carrying images and files.
const BODY_LIMIT: usize = 256 << 20;

/// What the proxy saw, once the agent is done.
#[derive(Debug, Clone, Default)]
pub struct Session {
    /// Every model request, normalised, with its API, in arrival order.
    pub requests: Vec<(Api, Value)>,
    /// The exchanges forwarded with `record` set (blobs included).
    pub recorded: Cassette,
    /// Requests a replay could not answer, each as a diff against the nearest recorded one.
    pub mismatches: Vec<String>,
    /// Requests the provider could not be reached for.
    pub errors: Vec<String>,
}

/// Why the proxy could not start.
#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    /// No loopback port.
    #[error("starting the model proxy on 127.0.0.1: {0}")]
    Bind(std::io::Error),
    /// The provider needs a key that is not set.
    #[error("{variable} is not set: the proxy forwards the agent's requests with your key")]
    MissingKey {
        /// The variable.
        variable: &'static str,
    },
}

struct Shared {
    options: Options,
    session: Mutex<Session>,
    used: Mutex<Vec<bool>>,
    client: reqwest::Client,
}

/// A running proxy.
pub(crate) struct Proxy {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    shared: Arc<Shared>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Proxy {
    /// Starts the proxy on a free loopback port.
    pub fn start(options: Options) -> Result<Proxy, ProxyError> {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(ProxyError::Bind)?;
        listener.set_nonblocking(true).map_err(ProxyError::Bind)?;
        let url = format!(
            "http://{}",
            listener.local_addr().map_err(ProxyError::Bind)?
        );
        let used = match &options.source {
            Source::Replay(cassette) => vec![false; cassette.exchanges.len()],
            Source::Forward { .. } => Vec::new(),
        };
        skill_http::install_tls_provider();
        let shared = Arc::new(Shared {
            options,
            session: Mutex::new(Session::default()),
            used: Mutex::new(used),
            // A redirect would carry the user's key to wherever it points.
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .map_err(|e| ProxyError::Bind(std::io::Error::other(e)))?,
        });
        let app = axum::Router::new()
            .fallback(answer)
            .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
            .with_state(Arc::clone(&shared));
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || serve(listener, app, rx));
        Ok(Proxy {
            url,
            shared,
            shutdown: Some(tx),
            thread: Some(thread),
        })
    }

    /// Stops the proxy and returns what it saw.
    pub fn finish(mut self) -> Session {
        self.halt();
        std::mem::take(&mut *lock(&self.shared.session))
    }

    fn halt(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.halt();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

fn serve(
    listener: std::net::TcpListener,
    app: axum::Router,
    stop: tokio::sync::oneshot::Receiver<()>,
) {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return;
    };
    runtime.block_on(async move {
        let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
            return;
        };
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stop.await;
            })
            .await;
    });
}

async fn answer(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let path = uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
    let api = match (method, Api::of(path)) {
        (Method::POST, Some(api)) => api,
        _ => return empty_success(path),
    };
    // Only model requests are forwarded with the user's key; only they need the agent's.
    if !carries(&headers, path, &shared.options.token) {
        return refuse("the request does not carry the key this session's agent was given");
    }
    let Ok(body) = serde_json::from_slice::<Value>(&body) else {
        return refuse("the request body is not JSON");
    };
    let normalised = shared.options.normaliser.apply(&body);
    lock(&shared.session)
        .requests
        .push((api, normalised.clone()));
    if let Some(names) = &shared.options.stop_at_choice
        && chose(&api::tool_calls(api, &body), names)
    {
        let answer = api::final_answer(api, &body);
        return respond(200, answer.content_type, answer.body);
    }
    let bare = uri.path().to_owned();
    match &shared.options.source {
        Source::Replay(cassette) => replay(&shared, cassette, api, &bare, &normalised),
        Source::Forward { endpoint, record } => {
            let sent = endpoint.send(&shared.client, path, &headers, &body).await;
            let exchange = Exchange {
                api,
                path: bare,
                normalised: &normalised,
            };
            forwarded(&shared, exchange, sent, *record)
        }
    }
}

/// A request forwarded to the provider.
struct Exchange<'a> {
    api: Api,
    path: String,
    normalised: &'a Value,
}

/// The provider's answer to `exchange`, recorded when `record`; an error is reported once and
/// answered so that no agent retries it (an agent that retries a refused key or an overloaded
/// provider for minutes helps no eval).
fn forwarded(
    shared: &Shared,
    exchange: Exchange,
    sent: Result<upstream::Reply, String>,
    record: bool,
) -> Response {
    let reply = match sent {
        Ok(reply) if reply.status < 400 => reply,
        Ok(reply) => {
            let excerpt: String = reply.body.chars().take(300).collect();
            let message = format!(
                "POST {}: the provider answered {}: {excerpt}",
                exchange.path, reply.status
            );
            lock(&shared.session).errors.push(message.clone());
            return refuse(&message);
        }
        Err(message) => {
            lock(&shared.session).errors.push(message.clone());
            return refuse(&message);
        }
    };
    if record {
        let mut session = lock(&shared.session);
        let request = session
            .recorded
            .split(exchange.api.conversation_key(), exchange.normalised);
        session.recorded.exchanges.push(cassette::Exchange {
            path: exchange.path,
            request,
            status: reply.status,
            content_type: reply.content_type.clone(),
            response: shared.options.normaliser.literals(&reply.body),
        });
    }
    respond(reply.status, &reply.content_type, reply.body)
}

fn replay(shared: &Shared, cassette: &Cassette, api: Api, path: &str, body: &Value) -> Response {
    let mut scratch = Cassette::default();
    let request = scratch.split(api.conversation_key(), body);
    let mut used = lock(&shared.used);
    let found = cassette
        .exchanges
        .iter()
        .enumerate()
        .find(|(i, e)| !used[*i] && e.path == path && e.request == request);
    if let Some((index, exchange)) = found {
        used[index] = true;
        return respond(
            exchange.status,
            &exchange.content_type,
            shared.options.normaliser.expand(&exchange.response),
        );
    }
    let nearest = cassette
        .exchanges
        .iter()
        .enumerate()
        .filter(|(i, e)| !used[*i] && e.path == path)
        .max_by_key(|(_, e)| shared_parts(&e.request, &request))
        .map(|(_, e)| cassette.join(&e.request));
    drop(used);
    let diff = mismatch(path, nearest.as_ref(), &scratch.join(&request));
    lock(&shared.session).mismatches.push(diff);
    refuse("this request is not in the cassette (skill's proxy replays a recording)")
}

/// How many parts two requests share.
fn shared_parts(
    a: &std::collections::BTreeMap<String, cassette::Part>,
    b: &std::collections::BTreeMap<String, cassette::Part>,
) -> usize {
    a.iter().filter(|(k, v)| b.get(*k) == Some(*v)).count()
}

/// A request the cassette lacks, as a unified diff against the nearest recorded one: each line
/// of a long prompt on a line of its own, at most 60 lines of at most 200 characters.
fn mismatch(path: &str, recorded: Option<&Value>, sent: &Value) -> String {
    let pretty = |v: &Value| {
        serde_json::to_string_pretty(v)
            .unwrap_or_default()
            .replace("\\n", "\\n\n")
    };
    let Some(recorded) = recorded else {
        return format!("POST {path}: the cassette holds no other request to this path");
    };
    let (old, new) = (pretty(recorded), pretty(sent));
    let diff = similar::TextDiff::from_lines(&old, &new);
    let text = diff
        .unified_diff()
        .context_radius(1)
        .header("recorded", "sent now")
        .to_string();
    let lines: Vec<String> = text
        .lines()
        .take(60)
        .map(|l| l.chars().take(200).collect())
        .collect();
    format!(
        "POST {path}: the agent's request changed\n{}",
        lines.join("\n")
    )
}

/// Whether `calls` hold a choice: a skill of `names` loaded, or [`CHOICE_CALLS`] other calls.
fn chose(calls: &[api::ToolCall], names: &[String]) -> bool {
    calls.len() >= CHOICE_CALLS || calls.iter().any(|c| super::skill_of(c, names).is_some())
}

/// Whether a request carries `token` where the agents put their key: `x-api-key`, a bearer
/// `authorization`, `x-goog-api-key` or a `key=` query parameter.
fn carries(headers: &HeaderMap, path: &str, token: &str) -> bool {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    header("x-api-key") == Some(token)
        || header("x-goog-api-key") == Some(token)
        || header("authorization").and_then(|v| v.strip_prefix("Bearer ")) == Some(token)
        || path.split_once('?').is_some_and(|(_, query)| {
            query
                .split('&')
                .any(|p| p.strip_prefix("key=") == Some(token))
        })
}

fn respond(status: u16, content_type: &str, body: String) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY))
        .header("content-type", content_type)
        .body(Body::from(body))
        .unwrap_or_default()
}

/// A 400 in the shape the agents' SDKs read, which none of them retries.
fn refuse(message: &str) -> Response {
    let body = json!({"type": "error", "error": {"type": "invalid_request_error", "message": format!("skill proxy: {message}"), "code": 400}});
    respond(400, "application/json", body.to_string())
}

fn empty_success(path: &str) -> Response {
    let body = if path.contains(":countTokens") {
        json!({"totalTokens": 0})
    } else if path.contains("count_tokens") {
        json!({"input_tokens": 0})
    } else {
        json!({"data": [], "models": [], "has_more": false})
    };
    respond(200, "application/json", body.to_string())
}
