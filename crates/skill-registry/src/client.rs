//! The registry client: ClawHub's HTTP API with bearer tokens, plain-text errors shown verbatim,
//! and bounded retries on 429 and 5xx that honour `Retry-After`.

use super::api::{
    Done, ListQuery, PublishPayload, Published, PublishedFile, Resolution, SearchHit,
    SearchResults, SkillDetail, SkillPage, Starred, Stored, Tagged, Unstarred, UploadRequest,
    UploadTicket, VersionBody, VersionQuery, WhoAmI,
};
use skill_http::{Failure, read_capped, send_with_retries};
use skill_model::fingerprint::sha256_hex;
use std::time::Duration;

/// Largest response read: above the largest bundle a registry serves (50 MiB) with room for
/// JSON around it.
const MAX_RESPONSE: u64 = 64 * 1024 * 1024;

/// Why a registry call failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server answered with an error; its body is the message. Said in words; the URL is
    /// left to [`ClientError::url`].
    #[error("{}", http_message(*status, body))]
    Http {
        /// The URL.
        url: String,
        /// The status code.
        status: u16,
        /// The body, verbatim (`HTTP <status>` when empty).
        body: String,
    },
    /// No answer.
    #[error("{url}: cannot reach the registry ({message})")]
    Network {
        /// The URL.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// An answer that is not what the API promises.
    #[error("{url}: unexpected response: {message}")]
    Invalid {
        /// The URL.
        url: String,
        /// What was wrong.
        message: String,
    },
}

impl ClientError {
    /// The URL of the call that failed.
    pub fn url(&self) -> &str {
        match self {
            ClientError::Http { url, .. }
            | ClientError::Network { url, .. }
            | ClientError::Invalid { url, .. } => url,
        }
    }
}

/// What an error status means for the user, followed by the registry's own words (what to do
/// is the command line's to say).
fn http_message(status: u16, body: &str) -> String {
    let what = match status {
        400 | 422 => "the registry refused the request",
        401 => "the registry does not accept your token",
        403 => "the registry does not allow this",
        404 => "not found in the registry",
        409 => "the registry has this already",
        413 => "too large for the registry",
        429 => "the registry is busy",
        500..=599 => "the registry failed",
        _ => "the registry answered with an error",
    };
    format!("{what} ({status}): {body}")
}

/// What `resolve` says: the version with the same files, if any, and the latest version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The version whose fingerprint matches.
    pub matched: Option<String>,
    /// The skill's latest version.
    pub latest: Option<String>,
}

/// A file to publish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadFile {
    /// Path relative to the skill.
    pub path: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

/// A client for one registry.
#[derive(Debug)]
pub struct Client {
    base: String,
    token: Option<String>,
    http: reqwest::blocking::Client,
}

impl Client {
    /// A client for `base` (no trailing `/`), authenticated with `token` when given.
    pub fn new(base: &str, token: Option<String>) -> Client {
        let http = skill_http::client_builder()
            .timeout(Duration::from_secs(120))
            .user_agent(concat!("skill/", env!("CARGO_PKG_VERSION")))
            .build()
            .unwrap_or_default();
        Client {
            base: base.trim_end_matches('/').to_owned(),
            token,
            http,
        }
    }

    /// The registry's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    fn url(&self, path: &str) -> String {
        if path.starts_with("http://") || path.starts_with("https://") {
            path.to_owned()
        } else {
            format!("{}{path}", self.base)
        }
    }

    /// Sends a request built by `build` with the shared retry policy; returns the body of a 2xx.
    fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        build: &dyn Fn(reqwest::blocking::RequestBuilder) -> reqwest::blocking::RequestBuilder,
    ) -> Result<Vec<u8>, ClientError> {
        let url = self.url(path);
        let network = |message: String| ClientError::Network {
            url: url.clone(),
            message,
        };
        let response = send_with_retries(&|| {
            let mut request = self
                .http
                .request(method.clone(), &url)
                .header("Accept", "application/json");
            // The token goes to this registry only, never to an upload URL elsewhere.
            if let Some(token) = &self.token
                && (url == self.base || url.starts_with(&format!("{}/", self.base)))
            {
                request = request.bearer_auth(token);
            }
            build(request)
        })
        .map_err(|failure| match failure {
            Failure::Network(message) => network(message),
            Failure::Status { status, body } => ClientError::Http {
                url: url.clone(),
                status,
                body,
            },
        })?;
        read_capped(response, MAX_RESPONSE).map_err(|e| network(e.to_string()))
    }

    /// Requests with no body pass this as theirs.
    const NO_BODY: Option<&'static ()> = None;

    fn json<T: serde::de::DeserializeOwned, B: serde::Serialize>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&B>,
    ) -> Result<T, ClientError> {
        let bytes = self.send(method, path, &|r| match body {
            Some(b) => r.json(b),
            None => r,
        })?;
        serde_json::from_slice(&bytes).map_err(|e| ClientError::Invalid {
            url: self.url(path),
            message: e.to_string(),
        })
    }

    /// The handle the token belongs to.
    pub fn whoami(&self) -> Result<String, ClientError> {
        let answer: WhoAmI = self.json(reqwest::Method::GET, "/api/v1/whoami", Self::NO_BODY)?;
        Ok(answer.user.handle)
    }

    /// Search results.
    pub fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, ClientError> {
        let query = ListQuery {
            q: Some(query.to_owned()),
            limit: Some(limit.to_string()),
            ..ListQuery::default()
        };
        let path = with_query("/api/v1/search", &query);
        let results: SearchResults = self.json(reqwest::Method::GET, &path, Self::NO_BODY)?;
        Ok(results.results)
    }

    /// A skill's detail, or `None` when the registry has no such skill.
    pub fn skill(&self, slug: &str) -> Result<Option<SkillDetail>, ClientError> {
        match self.json(
            reqwest::Method::GET,
            &format!("/api/v1/skills/{}", encode(slug)),
            Self::NO_BODY,
        ) {
            Ok(v) => Ok(Some(v)),
            Err(ClientError::Http { status: 404, .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// One page of the registry's skills (`GET /api/v1/skills`): in ClawHub's `sort` order
    /// (`None`: last updated first), only slugs starting with `prefix` when given, after `cursor`.
    pub fn explore(
        &self,
        sort: Option<&str>,
        prefix: Option<&str>,
        limit: usize,
        cursor: Option<&str>,
    ) -> Result<SkillPage, ClientError> {
        let query = ListQuery {
            limit: Some(limit.to_string()),
            sort: sort.map(str::to_owned),
            prefix: prefix.map(str::to_owned),
            cursor: cursor.map(str::to_owned),
            ..ListQuery::default()
        };
        let path = with_query("/api/v1/skills", &query);
        self.json(reqwest::Method::GET, &path, Self::NO_BODY)
    }

    /// Stars a skill (needs a token).
    pub fn star(&self, slug: &str) -> Result<Starred, ClientError> {
        let path = format!("/api/v1/stars/{}", encode(slug));
        self.json(reqwest::Method::POST, &path, Self::NO_BODY)
    }

    /// Takes the caller's star off a skill (needs a token).
    pub fn unstar(&self, slug: &str) -> Result<Unstarred, ClientError> {
        let path = format!("/api/v1/stars/{}", encode(slug));
        self.json(reqwest::Method::DELETE, &path, Self::NO_BODY)
    }

    /// Points `tag` of the caller's skill at an existing `version`.
    pub fn set_tag(&self, slug: &str, tag: &str, version: &str) -> Result<Tagged, ClientError> {
        let path = format!("/api/v1/skills/{}/tags/{}", encode(slug), encode(tag));
        self.json(
            reqwest::Method::POST,
            &path,
            Some(&VersionBody {
                version: Some(version.to_owned()),
            }),
        )
    }

    /// Soft-deletes the caller's skill, or withdraws one version of it (never the latest).
    pub fn delete(&self, slug: &str, version: Option<&str>) -> Result<(), ClientError> {
        let (path, body) = match version {
            Some(v) => (
                format!("/api/v1/skills/{}/versions/{}", encode(slug), encode(v)),
                Some(VersionBody {
                    version: Some(v.to_owned()),
                }),
            ),
            None => (format!("/api/v1/skills/{}", encode(slug)), None),
        };
        self.json::<Done, _>(reqwest::Method::DELETE, &path, body.as_ref())
            .map(drop)
    }

    /// Restores the caller's deleted skill, or one withdrawn version of it.
    pub fn undelete(&self, slug: &str, version: Option<&str>) -> Result<(), ClientError> {
        let path = match version {
            Some(v) => format!(
                "/api/v1/skills/{}/versions/{}/restore",
                encode(slug),
                encode(v)
            ),
            None => format!("/api/v1/skills/{}/undelete", encode(slug)),
        };
        self.json::<Done, _>(reqwest::Method::POST, &path, Self::NO_BODY)
            .map(drop)
    }

    /// A version's detail (with its files' hashes).
    pub fn version(
        &self,
        slug: &str,
        version: &str,
    ) -> Result<super::api::VersionDetail, ClientError> {
        self.json(
            reqwest::Method::GET,
            &format!(
                "/api/v1/skills/{}/versions/{}",
                encode(slug),
                encode(version)
            ),
            Self::NO_BODY,
        )
    }

    /// The version of `slug` whose files have `fingerprint`, and the latest version; `None` for
    /// a skill the registry does not have.
    pub fn resolve(&self, slug: &str, fingerprint: &str) -> Result<Option<Resolved>, ClientError> {
        let query = VersionQuery {
            slug: Some(slug.to_owned()),
            hash: Some(fingerprint.to_owned()),
            ..VersionQuery::default()
        };
        let path = with_query("/api/v1/resolve", &query);
        match self.json::<Resolution, _>(reqwest::Method::GET, &path, Self::NO_BODY) {
            Ok(r) => Ok(Some(Resolved {
                matched: r.matched.map(|v| v.version),
                latest: r.latest_version.map(|v| v.version),
            })),
            Err(ClientError::Http { status: 404, .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The zip of a version.
    pub fn download(&self, slug: &str, version: &str) -> Result<Vec<u8>, ClientError> {
        self.send(
            reqwest::Method::GET,
            &with_query("/api/v1/download", &VersionQuery::of(slug, version)),
            &|r| r,
        )
    }

    /// One page of `GET /api/v1/skills/export`, after `cursor` (from the start without one).
    pub fn export(&self, cursor: Option<&str>) -> Result<super::api::ExportPage, ClientError> {
        let query = ListQuery {
            cursor: cursor.map(str::to_owned),
            ..ListQuery::default()
        };
        let path = with_query("/api/v1/skills/export", &query);
        self.json(reqwest::Method::GET, &path, Self::NO_BODY)
    }

    /// A version's signature (its `.minisig` text), or `None` when its author did not sign it.
    pub fn signature(&self, slug: &str, version: &str) -> Result<Option<String>, ClientError> {
        let path = with_query(
            "/api/v1/download/signature",
            &VersionQuery::of(slug, version),
        );
        match self.send(reqwest::Method::GET, &path, &|r| r) {
            Ok(bytes) => String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| ClientError::Invalid {
                    url: self.url(&path),
                    message: "the signature is not UTF-8".into(),
                }),
            Err(ClientError::Http { status: 404, .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Publishes through upload tickets: one ticket and upload per file, then the payload.
    /// `progress` is called with each file's size after its upload.
    pub fn publish(
        &self,
        payload: &PublishPayload,
        files: &[UploadFile],
        progress: &mut dyn FnMut(u64),
    ) -> Result<Published, ClientError> {
        let mut entries = Vec::new();
        for file in files {
            let announced = UploadRequest {
                path: Some(file.path.clone()),
                size: Some(file.bytes.len() as u64),
                sha256: Some(sha256_hex(&file.bytes)),
                content_type: Some(content_type(&file.path).to_owned()),
            };
            let ticket: UploadTicket = match self.json(
                reqwest::Method::POST,
                "/api/v1/skills/-/upload-url",
                Some(&announced),
            ) {
                // Registries without upload tickets take the older multipart publish.
                Err(ClientError::Http {
                    status: 404 | 405, ..
                }) if entries.is_empty() => {
                    return self.publish_multipart(payload, files, progress);
                }
                other => other?,
            };
            let stored = self.upload(&ticket.upload_url, file)?;
            entries.push(PublishedFile {
                file: announced,
                storage_id: Some(stored.storage_id),
                upload_ticket: Some(ticket.upload_ticket),
            });
            progress(file.bytes.len() as u64);
        }
        let payload = PublishPayload {
            files: Some(entries),
            accept_license_terms: Some(true),
            ..payload.clone()
        };
        self.json(reqwest::Method::POST, "/api/v1/skills", Some(&payload))
    }
}

impl Client {
    /// Sends one file's bytes to the URL its ticket named.
    fn upload(&self, url: &str, file: &UploadFile) -> Result<Stored, ClientError> {
        let answer = self.send(reqwest::Method::POST, url, &|r| {
            r.header("Content-Type", content_type(&file.path))
                .body(file.bytes.clone())
        })?;
        serde_json::from_slice(&answer).map_err(|e| ClientError::Invalid {
            url: url.to_owned(),
            message: e.to_string(),
        })
    }

    /// The legacy publish: one multipart request with a `payload` part and a `files` part per
    /// file, named by its relative path.
    fn publish_multipart(
        &self,
        payload: &PublishPayload,
        files: &[UploadFile],
        progress: &mut dyn FnMut(u64),
    ) -> Result<Published, ClientError> {
        let payload = PublishPayload {
            accept_license_terms: Some(true),
            ..payload.clone()
        };
        let text = serde_json::to_string(&payload).map_err(|e| ClientError::Invalid {
            url: self.url("/api/v1/skills"),
            message: e.to_string(),
        })?;
        let body = self.send(reqwest::Method::POST, "/api/v1/skills", &|r| {
            let mut form = reqwest::blocking::multipart::Form::new().text("payload", text.clone());
            for file in files {
                let part = reqwest::blocking::multipart::Part::bytes(file.bytes.clone())
                    .file_name(file.path.clone())
                    .mime_str(content_type(&file.path))
                    .unwrap_or_else(|_| {
                        reqwest::blocking::multipart::Part::bytes(file.bytes.clone())
                            .file_name(file.path.clone())
                    });
                form = form.part("files", part);
            }
            r.multipart(form)
        })?;
        progress(files.iter().map(|f| f.bytes.len() as u64).sum());
        serde_json::from_slice(&body).map_err(|e| ClientError::Invalid {
            url: self.url("/api/v1/skills"),
            message: e.to_string(),
        })
    }
}

/// The MIME type the clawhub CLI would send for `path`.
fn content_type(path: &str) -> &'static str {
    match path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("md") => "text/markdown",
        Some("sh") => "application/x-sh",
        Some("json") => "application/json",
        Some("py") => "text/x-python",
        Some("js" | "mjs" | "cjs") => "text/javascript",
        Some("txt") => "text/plain",
        Some("yaml" | "yml") => "text/yaml",
        Some("html") => "text/html",
        _ => "application/octet-stream",
    }
}

/// Percent-encodes a query or path value.
/// `path` with `query`, the typed query the server reads, as its query string.
fn with_query<Q: serde::Serialize>(path: &str, query: &Q) -> String {
    // The queries are structs of optional strings, which always serialise.
    let query = serde_urlencoded::to_string(query).unwrap_or_default();
    if query.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{query}")
    }
}

fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
