//! The registry's web pages, served by `skill registry serve` beside the API: browse, search and
//! read skills in a browser (`/`, `/search`, `/skills/{slug}`, its versions and files, and
//! `/users/{handle}`). Server-rendered HTML from embedded templates, one stylesheet, no script,
//! so every page works with JavaScript off. Everything shown comes from the [`Store`] and is
//! untrusted: names are cleaned of invisible characters, bodies sanitised, files shown as escaped
//! text or served as `text/plain`, and every page carries a Content-Security-Policy that allows
//! no script at all. The JSON API is not here; it stays in `server`.

mod markdown;
mod pages;
mod templates;
pub mod text;

use super::store::{Store, StoreError, User};
use axum::Router;
use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use minijinja::Value;
use std::sync::Arc;

/// What the pages' handlers share.
#[derive(Clone)]
struct Web {
    store: Arc<dyn Store>,
    /// The registry's public URL, no trailing `/` (for install commands).
    base_url: String,
}

/// The name shown in every page's title and header.
const SITE: &str = "Skill registry";

/// The cookie a signed-in browser sends its API token in.
const TOKEN_COOKIE: &str = "skill_token";

/// Pages: no script from anywhere, styles and images from this origin only, forms posting
/// only here, and no framing (clickjacking).
const PAGE_CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// Raw files: nothing loads, and a document is sandboxed (no script, its own opaque origin)
/// even if a browser were to render it.
const RAW_CSP: &str = "default-src 'none'; sandbox";

/// Why a page could not be shown.
#[derive(Debug, thiserror::Error)]
enum PageError {
    /// 404, with what was not found.
    #[error("{0}")]
    NotFound(String),
    /// 400, with what is wrong with the request.
    #[error("{0}")]
    BadRequest(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The blocking task running a store call died.
    #[error("a store task failed: {0}")]
    Task(String),
}

impl PageError {
    fn status(&self) -> StatusCode {
        match self {
            PageError::NotFound(_)
            | PageError::Store(
                StoreError::NotFound(_) | StoreError::NoUser(_) | StoreError::NoToken { .. },
            ) => StatusCode::NOT_FOUND,
            PageError::BadRequest(_) | PageError::Store(StoreError::Invalid(_)) => {
                StatusCode::BAD_REQUEST
            }
            PageError::Store(StoreError::Forbidden(_)) => StatusCode::FORBIDDEN,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// A page ready to render: its template and the values it reads as `page`.
struct Page {
    template: &'static str,
    status: StatusCode,
    value: Value,
}

impl Page {
    /// A 200 page of `template` showing `value` (any `Serialize`).
    fn new(template: &'static str, value: &impl serde::Serialize) -> Page {
        Page {
            template,
            status: StatusCode::OK,
            value: Value::from(minijinja::value::Serde(value)),
        }
    }
}

/// Who is looking: a publisher (from a bearer token or the sign-in cookie) or nobody.
#[derive(Debug, Clone, Default)]
struct Viewer {
    user: Option<User>,
}

impl Viewer {
    /// True when the viewer may see what the scan found in `owner`'s skill, and its
    /// quarantined versions: its owner and the registry's administrators.
    fn may_review(&self, owner: &str) -> bool {
        super::moderation::may_see_held(self.user.as_ref(), owner)
    }

    fn handle(&self) -> Value {
        self.user
            .as_ref()
            .map_or(Value::from(()), |u| Value::from(u.handle.clone()))
    }
}

/// The pages' routes, with `base_url` (no trailing `/`) used in install commands. Merge it into
/// the API's router; it brings its own state, so it fits a router of any state type.
pub fn router<S: Clone + Send + Sync + 'static>(
    store: Arc<dyn Store>,
    base_url: &str,
) -> Router<S> {
    // Parsed now, so a server never starts with templates that do not.
    templates::Templates::shared();
    let web = Web {
        store,
        base_url: base_url.trim_end_matches('/').to_owned(),
    };
    Router::new()
        .route("/", get(index))
        .route("/search", get(search))
        .route("/skills/{slug}", get(skill))
        .route("/skills/{slug}/versions", get(versions))
        .route("/skills/{slug}/{version}/files", get(files))
        .route("/skills/{slug}/{version}/files/{*path}", get(file))
        .route("/skills/{slug}/{version}/raw/{*path}", get(raw))
        .route("/users/{handle}", get(user))
        .route("/login", get(login_form).post(login))
        .route("/logout", axum::routing::post(logout))
        .route("/static/style.css", get(stylesheet))
        .layer(axum::middleware::map_response(defend))
        .with_state(web)
}

/// Whatever answered (a page, a raw file, one of axum's own rejections), the browser sniffs
/// nothing and runs nothing unless the response said otherwise.
async fn defend(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(RAW_CSP),
        );
    }
    response
}

/// The answer for a path no route has: an HTML page for a browser outside `/api/`, ClawHub's
/// plain-text `Not found` for everyone else (API clients keep the API's errors).
pub(crate) async fn not_found(headers: HeaderMap, uri: Uri) -> Response {
    let api = uri.path().starts_with("/api/") || uri.path().starts_with("/.well-known/");
    if api || !wants_html(&headers) {
        return (
            StatusCode::NOT_FOUND,
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            "Not found",
        )
            .into_response();
    }
    let error = PageError::NotFound("There is no page at this address.".into());
    respond(Err(error), &Viewer::default(), "")
}

/// True when the client prefers HTML: a browser's `Accept` names `text/html` before JSON.
fn wants_html(headers: &HeaderMap) -> bool {
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    match (accept.find("text/html"), accept.find("application/json")) {
        (Some(html), Some(json)) => html < json,
        (Some(_), None) => true,
        _ => false,
    }
}

fn html_response(status: StatusCode, body: String) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, PAGE_CSP),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::X_FRAME_OPTIONS, "DENY"),
            (header::REFERRER_POLICY, "same-origin"),
            // Pages differ by who is signed in.
            (header::CACHE_CONTROL, "private, no-cache"),
        ],
        body,
    )
        .into_response()
}

impl Web {
    /// Runs a store call off the async threads.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, PageError> {
        crate::store::off_async(&self.store, f)
            .await
            .map_err(|e| PageError::Task(e.to_string()))?
            .map_err(PageError::from)
    }

    /// The viewer a request's bearer token or sign-in cookie names; nobody when neither names a
    /// user (a stale cookie is not an error: the page is shown as to anyone).
    async fn viewer(&self, headers: &HeaderMap) -> Viewer {
        let Some(token) = request_token(headers) else {
            return Viewer::default();
        };
        match self
            .run(move |s| super::store::use_token(s, &token, "a page"))
            .await
        {
            Ok(grant) => Viewer {
                user: grant.map(|g| g.user),
            },
            Err(e) => {
                tracing::warn!(error = %e, "looking up a page viewer's token failed");
                Viewer::default()
            }
        }
    }

    /// The response for a page, or for why there is none.
    fn finish(&self, result: Result<Page, PageError>, viewer: &Viewer, query: &str) -> Response {
        respond(result, viewer, query)
    }
}

/// A page rendered for `viewer` (with `query` in the search box), or the error page.
fn respond(result: Result<Page, PageError>, viewer: &Viewer, query: &str) -> Response {
    let page = match result {
        Ok(page) => page,
        Err(error) => error_page(&error),
    };
    let context = minijinja::context! {
        site => SITE, stylesheet => templates::stylesheet_url(), query => query,
        viewer => viewer.handle(), page => page.value,
    };
    match templates::Templates::shared().render(page.template, context) {
        Ok(body) => html_response(page.status, body),
        Err(e) => {
            tracing::error!(template = page.template, error = %e, "rendering a page failed");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                "The page could not be rendered.",
            )
                .into_response()
        }
    }
}

fn error_page(error: &PageError) -> Page {
    let status = error.status();
    let (title, message) = match status {
        StatusCode::NOT_FOUND => ("Not found", error.to_string()),
        StatusCode::BAD_REQUEST => ("Bad request", error.to_string()),
        StatusCode::FORBIDDEN => ("Forbidden", error.to_string()),
        _ => {
            // The details are for the operator's log, not for every visitor.
            tracing::error!(error = %error, "a page failed");
            (
                "Something went wrong",
                "The registry could not show this page. Try again later.".to_owned(),
            )
        }
    };
    Page {
        template: "error.html",
        status,
        value: minijinja::context! { title => title, message => message },
    }
}

/// The API token a request carries: `Authorization: Bearer`, else the sign-in cookie.
fn request_token(headers: &HeaderMap) -> Option<String> {
    let bearer = crate::server::bearer_token(headers);
    let cookie = || {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .find_map(|pair| {
                let (name, value) = pair.trim().split_once('=')?;
                (name == TOKEN_COOKIE).then_some(value)
            })
    };
    bearer
        .or_else(cookie)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
}

/// The `page` query parameter: 1 when absent, an error when not a page number.
/// The query of a listing page: which page, and on the search page the text.
#[derive(Debug, Default, serde::Deserialize)]
struct PageQuery {
    #[serde(default)]
    page: Option<String>,
    #[serde(default)]
    q: Option<String>,
}

fn page_number(query: &PageQuery) -> Result<usize, PageError> {
    match query.page.as_deref() {
        None => Ok(1),
        Some(p) => p
            .parse::<usize>()
            .ok()
            .filter(|p| (1..=pages::MAX_PAGE).contains(p))
            .ok_or_else(|| {
                PageError::BadRequest(format!(
                    "\"page\" must be a number from 1 to {}.",
                    pages::MAX_PAGE
                ))
            }),
    }
}

async fn index(State(web): State<Web>, headers: HeaderMap, Query(q): Query<PageQuery>) -> Response {
    let viewer = web.viewer(&headers).await;
    let result = match page_number(&q) {
        Ok(page) => pages::index(&web, page).await,
        Err(e) => Err(e),
    };
    web.finish(result, &viewer, "")
}

async fn search(
    State(web): State<Web>,
    headers: HeaderMap,
    Query(q): Query<PageQuery>,
) -> Response {
    let viewer = web.viewer(&headers).await;
    let query =
        q.q.as_deref()
            .map(|s| s.trim().to_owned())
            .unwrap_or_default();
    let result = match page_number(&q) {
        Ok(page) => pages::search(&web, &query, page).await,
        Err(e) => Err(e),
    };
    web.finish(result, &viewer, &query)
}

async fn skill(State(web): State<Web>, headers: HeaderMap, Path(slug): Path<String>) -> Response {
    let viewer = web.viewer(&headers).await;
    let result = pages::skill(&web, &viewer, slug).await;
    web.finish(result, &viewer, "")
}

async fn versions(
    State(web): State<Web>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    Query(q): Query<PageQuery>,
) -> Response {
    let viewer = web.viewer(&headers).await;
    let result = match page_number(&q) {
        Ok(page) => pages::versions(&web, &viewer, slug, page).await,
        Err(e) => Err(e),
    };
    web.finish(result, &viewer, "")
}

async fn files(
    State(web): State<Web>,
    headers: HeaderMap,
    Path((slug, version)): Path<(String, String)>,
) -> Response {
    let viewer = web.viewer(&headers).await;
    let result = pages::files(&web, &viewer, slug, version).await;
    web.finish(result, &viewer, "")
}

async fn file(
    State(web): State<Web>,
    headers: HeaderMap,
    Path((slug, version, path)): Path<(String, String, String)>,
) -> Response {
    let viewer = web.viewer(&headers).await;
    let result = pages::file(&web, &viewer, slug, version, path).await;
    web.finish(result, &viewer, "")
}

/// A file's bytes, served so that nothing in them can run here: raster images as themselves,
/// text as `text/plain` (as an attachment when a browser could render it as a document), the
/// rest as a download, always with `nosniff` and a sandboxing CSP.
async fn raw(
    State(web): State<Web>,
    headers: HeaderMap,
    Path((slug, version, path)): Path<(String, String, String)>,
) -> Response {
    let viewer = web.viewer(&headers).await;
    match pages::raw(&web, &viewer, slug, version, path.clone()).await {
        Ok(bytes) => {
            let attachment = format!("attachment; filename=\"{}\"", text::download_name(&path));
            let (content_type, disposition) = match text::file_kind(&path, &bytes) {
                text::FileKind::Image(mime) => (mime, None),
                text::FileKind::Text if !text::could_render(&path) => {
                    ("text/plain; charset=utf-8", None)
                }
                text::FileKind::Text => ("text/plain; charset=utf-8", Some(attachment)),
                text::FileKind::Binary => ("application/octet-stream", Some(attachment)),
            };
            let mut response = (
                [
                    (header::CONTENT_TYPE, content_type),
                    (header::CONTENT_SECURITY_POLICY, RAW_CSP),
                    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                    (header::CACHE_CONTROL, "private, max-age=60"),
                ],
                bytes,
            )
                .into_response();
            if let Some(value) = disposition.and_then(|d| HeaderValue::from_str(&d).ok()) {
                response
                    .headers_mut()
                    .insert(header::CONTENT_DISPOSITION, value);
            }
            response
        }
        Err(error) => web.finish(Err(error), &viewer, ""),
    }
}

async fn user(
    State(web): State<Web>,
    headers: HeaderMap,
    Path(handle): Path<String>,
    Query(q): Query<PageQuery>,
) -> Response {
    let viewer = web.viewer(&headers).await;
    let result = match page_number(&q) {
        Ok(page) => pages::user(&web, handle, page).await,
        Err(e) => Err(e),
    };
    web.finish(result, &viewer, "")
}

async fn stylesheet() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            // Pages link it with its hash in the query: a new stylesheet is a new address.
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        templates::STYLESHEET,
    )
        .into_response()
}

/// The sign-in form's fields.
#[derive(Debug, serde::Deserialize)]
struct LoginForm {
    token: String,
}

async fn login_form(State(web): State<Web>, headers: HeaderMap) -> Response {
    let viewer = web.viewer(&headers).await;
    let page = Page::new(
        "login.html",
        &minijinja::context! { error => Value::from(()) },
    );
    web.finish(Ok(page), &viewer, "")
}

/// True when a form post comes from one of this site's own pages (`base_url` is the public
/// address, which a proxy in front may not pass on as `Host`). The cookie is `SameSite=Strict`,
/// so other sites cannot post with it; this also stops them signing a browser in to an account
/// of theirs.
fn same_origin(headers: &HeaderMap, base_url: &str) -> bool {
    let get = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = get(header::HeaderName::from_static("sec-fetch-site")) {
        return site == "same-origin" || site == "none";
    }
    match (get(header::ORIGIN), get(header::HOST)) {
        (Some(origin), _) if origin == base_url => true,
        (Some(origin), Some(host)) => origin
            .split_once("://")
            .is_some_and(|(_, authority)| authority == host),
        (Some(_), None) => false,
        (None, _) => true,
    }
}

/// Signs a browser in: checks the token as the API does and keeps it in an HttpOnly cookie.
async fn login(
    State(web): State<Web>,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Response {
    if !same_origin(&headers, &web.base_url) {
        let error = PageError::BadRequest("Sign in from this registry's own page.".into());
        return web.finish(Err(error), &Viewer::default(), "");
    }
    let token = form.token.trim().to_owned();
    // Only a token's own characters go into the cookie header.
    let well_formed = !token.is_empty()
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let user = if well_formed {
        let t = token.clone();
        web.run(move |s| super::store::use_token(s, &t, "signing in"))
            .await
            .map(|grant| grant.map(|g| g.user))
    } else {
        Ok(None)
    };
    match user {
        Ok(Some(user)) => {
            let secure = if web.base_url.starts_with("https://") {
                "; Secure"
            } else {
                ""
            };
            let cookie = format!(
                "{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000{secure}"
            );
            let location = format!("/users/{}", text::encode_component(&user.handle));
            see_other(&location, &cookie)
        }
        Ok(None) => {
            let mut page = Page::new(
                "login.html",
                &minijinja::context! { error => "That token is not valid: check it, or create one with `skill registry token create HANDLE`." },
            );
            page.status = StatusCode::UNAUTHORIZED;
            web.finish(Ok(page), &Viewer::default(), "")
        }
        Err(e) => web.finish(Err(e), &Viewer::default(), ""),
    }
}

/// Signs a browser out: the cookie is cleared.
async fn logout(State(web): State<Web>, headers: HeaderMap) -> Response {
    if !same_origin(&headers, &web.base_url) {
        return (
            StatusCode::FORBIDDEN,
            "Sign out from this registry's own page.",
        )
            .into_response();
    }
    see_other(
        "/",
        &format!("{TOKEN_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"),
    )
}

fn see_other(location: &str, cookie: &str) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    let headers = response.headers_mut();
    if let (Ok(location), Ok(cookie)) = (
        HeaderValue::from_str(location),
        HeaderValue::from_str(cookie),
    ) {
        headers.insert(header::LOCATION, location);
        headers.insert(header::SET_COOKIE, cookie);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                header::HeaderName::from_static(name),
                HeaderValue::from_static(value),
            );
        }
        map
    }

    #[test]
    fn browsers_want_html_and_api_clients_do_not() {
        assert!(wants_html(&headers(&[(
            "accept",
            "text/html,application/xhtml+xml,*/*;q=0.8"
        )])));
        assert!(!wants_html(&headers(&[(
            "accept",
            "application/json, text/html"
        )])));
        assert!(!wants_html(&headers(&[("accept", "*/*")])));
        assert!(!wants_html(&headers(&[])));
    }

    #[test]
    fn the_token_comes_from_the_bearer_header_else_the_cookie() {
        let both = headers(&[
            ("authorization", "Bearer skl_header"),
            ("cookie", "theme=dark; skill_token=skl_cookie"),
        ]);
        assert_eq!(request_token(&both).as_deref(), Some("skl_header"));
        let cookie = headers(&[("cookie", "a=b"), ("cookie", "skill_token=skl_cookie; c=d")]);
        assert_eq!(request_token(&cookie).as_deref(), Some("skl_cookie"));
        assert_eq!(request_token(&headers(&[("cookie", "skill_token=")])), None);
        assert_eq!(
            request_token(&headers(&[("cookie", "my_skill_token=x")])),
            None
        );
    }

    #[test]
    fn form_posts_must_come_from_this_site() {
        let base = "https://skills.example.com";
        assert!(same_origin(
            &headers(&[("sec-fetch-site", "same-origin")]),
            base
        ));
        assert!(!same_origin(
            &headers(&[
                ("sec-fetch-site", "cross-site"),
                ("origin", "https://skills.example.com")
            ]),
            base
        ));
        assert!(same_origin(
            &headers(&[
                ("origin", "https://skills.example.com"),
                ("host", "127.0.0.1:8787")
            ]),
            base
        ));
        assert!(same_origin(
            &headers(&[
                ("origin", "http://127.0.0.1:8787"),
                ("host", "127.0.0.1:8787")
            ]),
            base
        ));
        assert!(!same_origin(
            &headers(&[
                ("origin", "https://evil.example"),
                ("host", "127.0.0.1:8787")
            ]),
            base
        ));
        assert!(
            same_origin(&headers(&[]), base),
            "no browser headers: not a browser's cross-site post"
        );
    }
}
