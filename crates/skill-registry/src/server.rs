//! `skill registry serve`: ClawHub's HTTP API over a [`Store`], enough for the `clawhub` CLI's
//! login, whoami, search, install, update and publish (upload tickets), plus skill detail,
//! versions, files, resolve, download and delete/undelete. Errors are plain text with ClawHub's
//! status codes and messages.

use super::api;
use super::download_cache::{Download, DownloadCache, Wanted};
use super::download_counts::{DownloadCounts, FLUSH_EVERY};
use super::metrics::Metrics;
use super::store::{
    ExploreOrder, FileInfo, HeldVersion, Moderation, NewFile, PublishRequest, REUSED_TICKET,
    SkillInfo, Store, StoreError, UploadTicket, User, VersionInfo, now_ms,
};
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use skill_archive::reader::META_FILE;
use skill_model::fingerprint::{locale_compare, sha256_hex};
use skill_model::layout::SKILL_MD;
use std::sync::Arc;
use std::time::Duration;

/// Largest request body (a 50 MiB bundle in JSON or one 10 MiB file, with room for encoding).
const BODY_LIMIT: usize = 64 * 1024 * 1024;

/// What handlers share.
#[derive(Clone)]
pub(crate) struct AppState {
    store: Arc<dyn Store>,
    base_url: String,
    ticket_lifetime_ms: i64,
    downloads: Arc<DownloadCache>,
    counts: Arc<DownloadCounts>,
    metrics: Arc<Metrics>,
    review: Option<Arc<PublishReviews>>,
}

/// The model reviews of new versions, when the server is configured to make them: one at a
/// time, after the publish has been answered, and at most [`REVIEWS_WAITING`] waiting (a burst
/// of publishes beyond that goes unreviewed, with a warning, rather than hold threads).
struct PublishReviews {
    http: skill_agent::provider::HttpConfig,
    one_at_a_time: std::sync::Mutex<()>,
    waiting: std::sync::atomic::AtomicUsize,
}

/// Most model reviews waiting for their turn.
const REVIEWS_WAITING: usize = 16;

/// A plain-text error response.
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.0,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            self.1,
        )
            .into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        let status = match e {
            StoreError::Invalid(_) => StatusCode::BAD_REQUEST,
            StoreError::Forbidden(_) => StatusCode::FORBIDDEN,
            StoreError::NotFound(_) | StoreError::NoUser(_) | StoreError::NoToken { .. } => {
                StatusCode::NOT_FOUND
            }
            StoreError::Conflict(_) => StatusCode::CONFLICT,
            StoreError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            StoreError::Database { .. }
            | StoreError::SchemaTooNew { .. }
            | StoreError::Blobs { .. } => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError(status, e.to_string())
    }
}

type ApiResult = Result<Response, ApiError>;

fn bad(message: &str) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.to_owned())
}

fn not_found(message: &str) -> ApiError {
    ApiError(StatusCode::NOT_FOUND, message.to_owned())
}

/// Runs a store call off the async threads.
async fn blocking<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    super::store::off_async(&state.store, f)
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(ApiError::from)
}

/// The token of an `Authorization: Bearer` header, as sent (the API's only way to sign in; the
/// pages also take the sign-in cookie).
pub(crate) fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
}

/// The registry's routes and the downloads they count, which [`serve`] writes to the store.
pub struct App {
    router: Router,
    counts: Arc<DownloadCounts>,
}

impl App {
    /// The routes alone, to drive without a socket (the counts they make stay in memory).
    pub fn router(&self) -> Router {
        self.router.clone()
    }
}

/// The registry, with `base_url` (no trailing `/`) used in discovery and upload URLs, upload
/// tickets valid for `ticket_lifetime` (ClawHub's is an hour), and each new version reviewed by
/// the model `review` names, when given (see [`super::review`]).
pub fn app(
    store: Arc<dyn Store>,
    base_url: &str,
    ticket_lifetime: Duration,
    review: Option<skill_agent::provider::HttpConfig>,
) -> App {
    let counts = Arc::new(DownloadCounts::new(store.clone()));
    let state = AppState {
        store,
        base_url: base_url.trim_end_matches('/').to_owned(),
        ticket_lifetime_ms: i64::try_from(ticket_lifetime.as_millis()).unwrap_or(i64::MAX),
        downloads: Arc::default(),
        counts: counts.clone(),
        metrics: Arc::default(),
        review: review.map(|http| {
            Arc::new(PublishReviews {
                http,
                one_at_a_time: std::sync::Mutex::default(),
                waiting: std::sync::atomic::AtomicUsize::new(0),
            })
        }),
    };
    App {
        router: router(state),
        counts,
    }
}

impl AppState {
    /// Counts a download of `slug` (as stored), for the store and for `/metrics`.
    fn count_download(&self, slug: &str) {
        self.counts.add(slug);
        self.metrics.downloaded();
    }
}

fn router(state: AppState) -> Router {
    let pages = super::web::router(state.store.clone(), &state.base_url);
    let metrics = state.metrics.clone();
    Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics_text))
        .route("/.well-known/clawhub.json", get(well_known))
        .route("/.well-known/clawdhub.json", get(well_known))
        .route("/api/v1/whoami", get(whoami))
        .route("/api/v1/search", get(search))
        .route("/api/v1/resolve", get(resolve))
        .route("/api/v1/download", get(download))
        .route("/api/v1/download/signature", get(download_signature))
        .route("/api/v1/skills", get(list_skills).post(publish))
        .route("/api/v1/skills/-/upload-url", post(upload_url))
        .route("/api/v1/skills/export", get(export))
        .route("/api/v1/skills/-/upload/{ticket}", post(upload))
        .route(
            "/api/v1/skills/{slug}",
            get(skill_detail).delete(delete_skill),
        )
        .route("/api/v1/skills/{slug}/undelete", post(undelete_skill))
        .route("/api/v1/skills/{slug}/versions", get(versions))
        .route(
            "/api/v1/skills/{slug}/versions/{version}",
            get(version_detail).delete(delete_version),
        )
        .route(
            "/api/v1/skills/{slug}/versions/{version}/restore",
            post(restore_version),
        )
        .route("/api/v1/skills/{slug}/tags/{tag}", post(set_tag))
        .route("/api/v1/skills/{slug}/file", get(file))
        .route("/api/v1/skills/{slug}/moderation", get(moderation))
        .route("/api/cli/telemetry/install", post(telemetry))
        .route("/api/v1/stars/{slug}", delete(unstar).post(star))
        // The web pages (HTML); a path neither knows is the API's plain 404, or a page for a browser.
        .merge(pages)
        .fallback(super::web::not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            metrics,
            super::metrics::record,
        ))
        .with_state(state)
}

/// How long `/healthz` waits for the store: a load balancer's probe should not hang on a pool
/// that keeps trying to reconnect.
const HEALTH_TIMEOUT: Duration = Duration::from_secs(2);

/// Most skills on one page of `/api/v1/skills/export`, and how many without `limit`.
const EXPORT_LIMIT: usize = 50;

/// An export cursor: the last listed skill's change time and slug, `MS:SLUG`.
fn export_cursor(at: i64, slug: &str) -> String {
    format!("{at}:{slug}")
}

fn parse_export_cursor(cursor: &str) -> Option<(i64, String)> {
    let (at, slug) = cursor.split_once(':')?;
    Some((at.parse().ok()?, slug.to_owned()))
}

/// `GET /api/v1/skills/export?cursor=&limit=`: live skills in the order they last changed,
/// each with its owner, tags and live versions (fingerprint, signature): what `skill registry
/// mirror` pages through. The last page's cursor is where a later run starts.
async fn export(State(state): State<AppState>, Query(q): Query<api::ListQuery>) -> ApiResult {
    let limit = limit_param(&q, EXPORT_LIMIT)?;
    let after = match q.cursor.as_deref() {
        Some(c) => Some(parse_export_cursor(c).ok_or_else(|| bad("Invalid cursor"))?),
        None => None,
    };
    let page = blocking(&state, move |s| export_page(s, after, limit)).await?;
    Ok(Json(page).into_response())
}

fn export_page(
    store: &dyn Store,
    after: Option<(i64, String)>,
    limit: usize,
) -> Result<api::ExportPage, StoreError> {
    let mut changed =
        store.changed_after(after.as_ref().map(|(at, s)| (*at, s.as_str())), limit + 1)?;
    let more = changed.len() > limit;
    changed.truncate(limit);
    let next_cursor = match changed.last() {
        Some(last) => Some(export_cursor(last.updated_at, &last.slug)),
        None => after.map(|(at, slug)| export_cursor(at, &slug)),
    };
    let mut items = Vec::new();
    for summary in changed {
        let Some(skill) = store.skill(&summary.slug)? else {
            continue;
        };
        let mut versions: Vec<api::ExportedVersion> = store
            .versions(&summary.slug)?
            .into_iter()
            .filter(|v| v.moderation == Moderation::Live)
            .map(|v| api::ExportedVersion {
                version: v.version,
                changelog: v.changelog,
                fingerprint: v.fingerprint,
                signature: v.signature,
            })
            .collect();
        versions.reverse();
        items.push(api::ExportedSkill {
            slug: skill.slug,
            display_name: skill.display_name,
            summary: skill.summary,
            owner: skill.owner_handle,
            tags: skill.tags,
            versions,
        });
    }
    Ok(api::ExportPage {
        items,
        next_cursor,
        more,
    })
}

/// `GET /healthz`: 200 `ok` when the store (and with it every blob) answers, else a 503 saying
/// what failed, for a load balancer to take this server out of rotation.
async fn healthz(State(state): State<AppState>) -> Response {
    let why = match tokio::time::timeout(HEALTH_TIMEOUT, blocking(&state, |s| s.ping())).await {
        Ok(Ok(())) => return (StatusCode::OK, "ok\n").into_response(),
        Ok(Err(ApiError(_, why))) => why,
        Err(_) => format!("no answer within {} s", HEALTH_TIMEOUT.as_secs()),
    };
    ApiError(
        StatusCode::SERVICE_UNAVAILABLE,
        format!("The store does not answer: {why}"),
    )
    .into_response()
}

/// `GET /metrics`: Prometheus's scrape, in the OpenMetrics text format.
async fn metrics_text(State(state): State<AppState>) -> ApiResult {
    let held = blocking(&state, |s| s.quarantined_count()).await?;
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        state.metrics.render(held),
    )
        .into_response())
}

async fn well_known(State(state): State<AppState>) -> Json<api::WellKnown> {
    let base = &state.base_url;
    Json(api::WellKnown {
        api_base: base.clone(),
        auth_base: base.clone(),
        min_cli_version: "0.1.0".to_owned(),
        registry: base.clone(),
    })
}

/// What a request needs its token to allow.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    /// Reading: every token may.
    Read,
    /// Writing: publish, delete, restore, tags, stars.
    Publish,
}

/// The user a request's bearer token belongs to (an administrator only when the token carries
/// the admin scope), or ClawHub's 401, or a 403 when the token may not do what `need` says.
/// `what` names the route in the audit log (see [`super::store::use_token`]).
async fn authenticate(
    state: &AppState,
    headers: &HeaderMap,
    need: Need,
    what: &'static str,
) -> Result<User, ApiError> {
    let token = bearer_token(headers)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            ApiError(
                StatusCode::UNAUTHORIZED,
                "Unauthorized: API token is missing. Run `clawhub login` to authenticate.".into(),
            )
        })?
        .to_owned();
    let grant = blocking(state, move |s| super::store::use_token(s, &token, what))
        .await?
        .ok_or_else(|| {
            ApiError(
                StatusCode::UNAUTHORIZED,
                "Unauthorized: API token is invalid, expired or revoked. Run `clawhub login` again."
                    .into(),
            )
        })?;
    if need == Need::Publish && !grant.scopes.publish {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            format!(
                "Forbidden: this token's scopes are {}; {what} needs a token with the publish scope",
                grant.scopes.to_text()
            ),
        ));
    }
    Ok(grant.user)
}

/// The user a request's token belongs to, if it carries a valid one; anonymous reads go on
/// without. Decides who may see quarantined versions.
async fn viewer(
    state: &AppState,
    headers: &HeaderMap,
    what: &'static str,
) -> Result<Option<User>, ApiError> {
    if !headers.contains_key(header::AUTHORIZATION) {
        return Ok(None);
    }
    match authenticate(state, headers, Need::Read, what).await {
        Ok(user) => Ok(Some(user)),
        Err(ApiError(StatusCode::UNAUTHORIZED, _)) => Ok(None),
        Err(e) => Err(e),
    }
}

async fn whoami(State(state): State<AppState>, headers: HeaderMap) -> ApiResult {
    let user = authenticate(&state, &headers, Need::Read, "whoami").await?;
    let role = if user.admin { "admin" } else { "user" };
    let user = api::Account {
        handle: user.handle,
        display_name: user.display_name,
        image: None,
        role: Some(role.to_owned()),
    };
    Ok(Json(api::WhoAmI { user }).into_response())
}

fn owner(handle: &str) -> api::Owner {
    api::Owner {
        handle: handle.to_owned(),
        display_name: None,
        image: None,
    }
}

async fn search(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<api::ListQuery>,
) -> ApiResult {
    let limit = limit_param(&q, 25)?;
    let query = q.q.clone().unwrap_or_default();
    let exact = match q.mode.as_deref() {
        None | Some("" | "default" | "semantic") => false,
        Some("exact") => true,
        Some(_) => return Err(bad("Invalid mode")),
    };
    let viewer = viewer(&state, &headers, "search").await?;
    let hits = blocking(&state, move |s| {
        if exact {
            return exact_hit(s, &query);
        }
        s.search(&query, limit)
    })
    .await?;
    // A hit without a live `latest` has no version to install: only its owner and admins see it.
    let results = hits
        .into_iter()
        .filter(|h| {
            super::moderation::may_see_skill(
                viewer.as_ref(),
                u64::from(h.version.is_some()),
                &h.owner_handle,
            )
        })
        .map(|h| api::SearchHit {
            score: h.score,
            slug: h.slug,
            display_name: Some(h.display_name),
            summary: h.summary,
            version: h.version,
            updated_at: h.updated_at,
            owner: Some(owner(&h.owner_handle)),
            owner_handle: Some(h.owner_handle),
        })
        .collect();
    Ok(Json(api::SearchResults { results }).into_response())
}

/// `mode=exact`: the skill whose slug is the query, if there is one (ClawHub skips its vector
/// search and matches the slug exactly).
fn exact_hit(store: &dyn Store, query: &str) -> Result<Vec<super::store::SearchHit>, StoreError> {
    let slug = super::rules::normalise_slug(query);
    if slug.is_empty() {
        return Ok(Vec::new());
    }
    Ok(store
        .skill(&slug)?
        .map(|k| super::store::SearchHit {
            version: k
                .tags
                .get("latest")
                .cloned()
                .or(k.latest.map(|v| v.version)),
            slug: k.slug,
            display_name: k.display_name,
            summary: k.summary,
            owner_handle: k.owner_handle,
            updated_at: k.updated_at,
            score: 1.0,
        })
        .into_iter()
        .collect())
}

/// A skill's detail as ClawHub sends it, with `stars` counted.
fn skill_detail_of(s: SkillInfo, stars: u64) -> api::SkillDetail {
    // Only live versions are ever `latest`; its scan is what a client installing it meets.
    let mut reason_codes: Vec<String> = s
        .latest
        .iter()
        .flat_map(|v| v.findings.iter().map(|f| f.code.clone()))
        .collect();
    reason_codes.dedup();
    let latest_version = s.latest.map(|v| api::VersionSummary {
        version: v.version,
        created_at: v.created_at,
        changelog: Some(v.changelog),
        license: Some("MIT-0".into()),
    });
    api::SkillDetail {
        skill: api::SkillSummary {
            slug: s.slug,
            display_name: Some(s.display_name),
            summary: s.summary,
            topics: Vec::new(),
            tags: s.tags,
            stats: Some(api::Stats {
                downloads: s.downloads,
                stars,
                versions: s.versions,
            }),
            created_at: s.created_at,
            updated_at: s.updated_at,
        },
        latest_version,
        metadata: None,
        owner: Some(owner(&s.owner_handle)),
        moderation: Some(api::ModerationSummary {
            is_suspicious: false,
            is_malware_blocked: false,
            verdict: "clean".into(),
            reason_codes,
        }),
    }
}

async fn skill_detail(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult {
    let viewer = viewer(&state, &headers, "skill detail").await?;
    let (skill, stars) = blocking(&state, move |s| listed_skill(s, &slug))
        .await?
        .filter(|(k, _)| visible(viewer.as_ref(), k))
        .ok_or_else(|| not_found("Skill not found"))?;
    Ok(Json(skill_detail_of(skill, stars)).into_response())
}

/// True when `viewer` may know `skill` exists (see `moderation::may_see_skill`).
fn visible(viewer: Option<&User>, skill: &SkillInfo) -> bool {
    super::moderation::may_see_skill(viewer, skill.versions, &skill.owner_handle)
}

/// A live skill as the API shows it, with its star count: its `latest` is the version the
/// `latest` tag points at (its owner may move it back: `clawhub skill tag`), else the highest.
fn listed_skill(store: &dyn Store, slug: &str) -> Result<Option<(SkillInfo, u64)>, StoreError> {
    let Some(mut skill) = store.skill(slug)? else {
        return Ok(None);
    };
    if let Some(tagged) = skill.tags.get("latest")
        && skill.latest.as_ref().is_none_or(|v| &v.version != tagged)
        && let Some(version) = store.version(&skill.slug, tagged)?
    {
        skill.latest = Some(version);
    }
    let stars = store.stars(&skill.slug)?;
    Ok(Some((skill, stars)))
}

/// A `limit` query parameter: 1 to 200, `default` when absent; ClawHub's 400 otherwise.
fn limit_param(q: &api::ListQuery, default: usize) -> Result<usize, ApiError> {
    match q.limit.as_deref() {
        Some(l) => l
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|l| (1..=api::MAX_LIMIT).contains(l))
            .ok_or_else(|| bad("Invalid limit")),
        None => Ok(default),
    }
}

/// A `cursor` query parameter: the offset the previous page ended at (our cursors are the
/// decimal offset; ClawHub's are opaque, so clients only hand back what they were given).
fn cursor_param(q: &api::ListQuery) -> Result<usize, ApiError> {
    match q.cursor.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) => c.parse().map_err(|_| bad("Invalid cursor")),
        None => Ok(0),
    }
}

/// `GET /api/v1/skills?limit=&cursor=&sort=&prefix=`: what `clawhub explore` and
/// `clawhub search --prefix` list; items are skill details' `skill` objects with
/// `latestVersion` and `metadata`, pages chained by `nextCursor`.
async fn list_skills(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<api::ListQuery>,
) -> ApiResult {
    let viewer = viewer(&state, &headers, "list skills").await?;
    let limit = limit_param(&q, 25)?;
    let offset = cursor_param(&q)?;
    let prefix = q.prefix.clone();
    let order = match q.sort.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(word) => {
            ExploreOrder::parse(word).ok_or_else(|| bad(&format!("Invalid sort: {word}")))?
        }
        None if prefix.is_some() => ExploreOrder::Name,
        None => ExploreOrder::Updated,
    };
    let (listed, more) = blocking(&state, move |s| {
        let mut slugs = s.explore(order, prefix.as_deref(), offset, limit + 1)?;
        let more = slugs.len() > limit;
        slugs.truncate(limit);
        let mut listed = Vec::new();
        for (at, slug) in slugs.iter().enumerate() {
            listed.extend(listed_skill(s, slug)?.map(|found| (at, found)));
        }
        Ok((listed, more))
    })
    .await?;
    let items: Vec<(usize, api::ListedSkill)> = listed
        .into_iter()
        .filter(|(_, (skill, _))| visible(viewer.as_ref(), skill))
        .map(|(at, (skill, stars))| {
            let detail = skill_detail_of(skill, stars);
            let item = api::ListedSkill {
                skill: detail.skill,
                latest_version: detail.latest_version,
                metadata: None,
                owner: detail.owner,
            };
            (at, item)
        })
        .collect();
    let (items, cut) = within_page_bytes(items, |(_, item)| item);
    let next_cursor = match items.last() {
        Some((at, _)) if cut => Some(offset + at + 1),
        _ => more.then_some(offset + limit),
    };
    Ok(Json(api::SkillPage {
        items: items.into_iter().map(|(_, item)| item).collect(),
        next_cursor: next_cursor.map(|n| n.to_string()),
    })
    .into_response())
}

/// The first of `items` whose JSON adds up to at most `MAX_PAGE_BYTES` (the first always), and
/// whether any were left out: a page stays bounded whatever publishers write.
fn within_page_bytes<T, S: serde::Serialize>(
    items: Vec<T>,
    shown: impl Fn(&T) -> &S,
) -> (Vec<T>, bool) {
    let mut total = 0;
    let mut kept = Vec::new();
    let count = items.len();
    for item in items {
        let size = serde_json::to_vec(shown(&item)).map_or(0, |b| b.len()) + 1;
        if !kept.is_empty() && total + size > super::rules::MAX_PAGE_BYTES {
            break;
        }
        total += size;
        kept.push(item);
    }
    let cut = kept.len() < count;
    (kept, cut)
}

/// `POST /api/v1/stars/{slug}`: `{"ok":true,"starred":true,"alreadyStarred":bool}`.
async fn star(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult {
    let user = authenticate(&state, &headers, Need::Publish, "star").await?;
    let added = blocking(&state, move |s| s.star(&user, &slug)).await?;
    let reply = api::Starred {
        ok: true,
        starred: true,
        already_starred: !added,
    };
    Ok(Json(reply).into_response())
}

/// `DELETE /api/v1/stars/{slug}`: `{"ok":true,"unstarred":true,"alreadyUnstarred":bool}`.
async fn unstar(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult {
    let user = authenticate(&state, &headers, Need::Publish, "unstar").await?;
    let removed = blocking(&state, move |s| s.unstar(&user, &slug)).await?;
    let reply = api::Unstarred {
        ok: true,
        unstarred: true,
        already_unstarred: !removed,
    };
    Ok(Json(reply).into_response())
}

/// `DELETE /api/v1/skills/{slug}/versions/{version}`: withdraws a version that is not latest.
async fn delete_version(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((slug, version)): Path<(String, String)>,
) -> ApiResult {
    let user = authenticate(&state, &headers, Need::Publish, "delete version").await?;
    blocking(&state, move |s| s.delete_version(&user, &slug, &version)).await?;
    state.downloads.invalidate();
    Ok(Json(api::Done::OK).into_response())
}

/// `POST /api/v1/skills/{slug}/versions/{version}/restore`: brings a withdrawn version back.
async fn restore_version(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((slug, version)): Path<(String, String)>,
) -> ApiResult {
    let user = authenticate(&state, &headers, Need::Publish, "restore version").await?;
    blocking(&state, move |s| s.restore_version(&user, &slug, &version)).await?;
    state.downloads.invalidate();
    Ok(Json(api::Done::OK).into_response())
}

/// `POST /api/v1/skills/{slug}/tags/{tag}` with `{"version"}`: points the tag at it.
async fn set_tag(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((slug, tag)): Path<(String, String)>,
    body: Bytes,
) -> ApiResult {
    let user = authenticate(&state, &headers, Need::Publish, "set tag").await?;
    let request: api::VersionBody = serde_json::from_slice(&body).unwrap_or_default();
    let version = request
        .version
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| bad("Version required"))?
        .to_owned();
    let (slug, tag) = (super::rules::normalise_slug(&slug), tag.trim().to_owned());
    let answer = api::Tagged {
        ok: true,
        slug: slug.clone(),
        tag: tag.clone(),
        version: version.clone(),
    };
    blocking(&state, move |s| s.set_tag(&user, &slug, &tag, &version)).await?;
    state.downloads.invalidate();
    Ok(Json(answer).into_response())
}

fn version_files(files: &[FileInfo]) -> Vec<api::VersionFile> {
    files
        .iter()
        .map(|f| api::VersionFile {
            path: f.path.clone(),
            size: f.size,
            sha256: f.sha256.clone(),
            content_type: f.content_type.clone(),
        })
        .collect()
}

async fn versions(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    Query(q): Query<api::ListQuery>,
) -> ApiResult {
    let limit = limit_param(&q, api::MAX_LIMIT)?;
    let offset = cursor_param(&q)?;
    let list = blocking(&state, move |s| s.versions(&slug)).await?;
    let items: Vec<api::VersionEntry> = list
        .iter()
        .skip(offset)
        .take(limit)
        .map(|v| api::VersionEntry {
            version: v.version.clone(),
            created_at: v.created_at,
            changelog: v.changelog.clone(),
            changelog_source: "user".to_owned(),
        })
        .collect();
    let (items, _) = within_page_bytes(items, |item| item);
    let shown = offset.saturating_add(items.len());
    let next_cursor = (list.len() > shown).then(|| shown.to_string());
    Ok(Json(api::VersionsPage { items, next_cursor }).into_response())
}

/// A version's detail, quarantined ones included (with their findings: the reason an install
/// of it is refused), so a client can say why instead of "not found".
async fn version_detail(
    State(state): State<AppState>,
    Path((slug, version)): Path<(String, String)>,
) -> ApiResult {
    let (skill, found) = blocking(&state, move |s| {
        let live = s.version(&slug, &version)?;
        let found = match live {
            Some(v) => Some(v),
            None => s.held_version(&slug, &version)?.map(|h| h.version),
        };
        Ok((s.skill(&slug)?, found))
    })
    .await?;
    let skill = skill.ok_or_else(|| not_found("Skill not found"))?;
    let v = found.ok_or_else(|| not_found("Version not found"))?;
    Ok(Json(api::VersionDetail {
        skill: api::SkillName {
            slug: skill.slug,
            display_name: skill.display_name,
        },
        version: api::VersionFull {
            files: version_files(&v.files),
            security: serde_json::to_value(super::moderation::security(&v)).unwrap_or_default(),
            signature: signature_summary(v.signature.as_deref()),
            version: v.version,
            created_at: v.created_at,
            changelog: v.changelog,
            changelog_source: "user".to_owned(),
            license: "MIT-0".to_owned(),
        },
    })
    .into_response())
}

/// Who signed a version and what the signature says (`null` when unsigned); the signature
/// itself is at `/api/v1/download/signature`.
fn signature_summary(text: Option<&str>) -> Option<api::SignatureSummary> {
    text.and_then(|t| skill_archive::signature::describe("signature", t).ok())
        .map(|s| api::SignatureSummary {
            key_id: s.key_id,
            trusted_comment: s.trusted_comment,
        })
}

/// A quarantined version that `q` names explicitly, when there is one: what the download and
/// file routes answer for a version that is not live. Tags never point at one.
async fn held(
    state: &AppState,
    slug: &str,
    q: &api::VersionQuery,
) -> Result<Option<HeldVersion>, ApiError> {
    let Some(version) = q.version().map(str::to_owned) else {
        return Ok(None);
    };
    let slug = slug.to_owned();
    blocking(state, move |s| s.held_version(&slug, &version)).await
}

/// `GET /api/v1/skills/{slug}/moderation`, as the clawhub CLI's `inspect` asks it: the scan's
/// verdict on `?version=`, else on the newest version the caller may see (its owner and admins
/// see quarantined ones).
async fn moderation(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    Query(q): Query<api::VersionQuery>,
) -> ApiResult {
    let viewer = viewer(&state, &headers, "moderation").await?;
    let (skill, live, held) = {
        let (slug, version) = (slug.clone(), q.version().map(str::to_owned));
        blocking(&state, move |s| {
            let skill = s.skill(&slug)?;
            let live = match &version {
                Some(v) => s.version(&slug, v)?,
                None => skill.as_ref().and_then(|k| k.latest.clone()),
            };
            let held: Vec<HeldVersion> = match &version {
                Some(v) => s.held_version(&slug, v)?.into_iter().collect(),
                None => s
                    .quarantined()?
                    .into_iter()
                    .filter(|h| h.slug == skill.as_ref().map_or("", |k| k.slug.as_str()))
                    .collect(),
            };
            Ok((skill, live, held))
        })
        .await?
    };
    skill.ok_or_else(|| not_found("Skill not found"))?;
    let visible_held = held
        .into_iter()
        .filter(|h| super::moderation::may_see_held(viewer.as_ref(), &h.owner_handle))
        .map(|h| h.version);
    let newest = live.into_iter().chain(visible_held).max_by(|a, b| {
        let parse = |v: &str| semver::Version::parse(v).ok();
        parse(&a.version)
            .cmp(&parse(&b.version))
            .then(a.created_at.cmp(&b.created_at))
    });
    Ok(Json(super::moderation::moderation(newest.as_ref())).into_response())
}

/// What a download's query asks for, in [`pick_version`]'s order: `version`, else `tag`, else
/// `latest`.
fn wanted(q: &api::VersionQuery) -> Wanted {
    match q.version() {
        Some(version) => Wanted::Version(version.to_owned()),
        None => Wanted::Tag(q.tag().to_owned()),
    }
}

/// The version a request names: `version`, else the version `tag` points at, else `latest`.
fn pick_version(skill: &SkillInfo, q: &api::VersionQuery) -> Option<String> {
    q.version()
        .map(str::to_owned)
        .or_else(|| skill.tags.get(q.tag()).cloned())
}

async fn file(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    Query(q): Query<api::VersionQuery>,
) -> ApiResult {
    let path = q.path.clone().ok_or_else(|| bad("Missing path"))?;
    let skill = {
        let s = slug.clone();
        blocking(&state, move |st| st.skill(&s)).await?
    }
    .ok_or_else(|| not_found("Skill not found"))?;
    let version = pick_version(&skill, &q).ok_or_else(|| not_found("Version not found"))?;
    if let Some(held) = held(&state, &skill.slug, &q).await? {
        shown_to(&state, &headers, &held).await?;
        let bytes = blocking(&state, move |s| s.held_file(&slug, &version, &path))
            .await?
            .ok_or_else(|| not_found("File not found"))?;
        return Ok(([(header::CONTENT_TYPE, "application/octet-stream")], bytes).into_response());
    }
    let bytes = blocking(&state, move |s| s.file(&slug, &version, &path))
        .await?
        .ok_or_else(|| not_found("File not found"))?;
    Ok(([(header::CONTENT_TYPE, "application/octet-stream")], bytes).into_response())
}

async fn resolve(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<api::VersionQuery>,
) -> ApiResult {
    let (Some(slug), Some(hash)) = (q.slug.clone(), q.hash.clone()) else {
        return Err(bad("Missing slug or hash"));
    };
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad("Invalid hash"));
    }
    let (skill, matched) = {
        let slug = slug.clone();
        blocking(&state, move |s| {
            let skill = s.skill(&slug)?;
            let matched = match skill {
                Some(_) => s.resolve(&slug, &hash)?,
                None => None,
            };
            Ok((skill, matched))
        })
        .await?
    };
    let viewer = viewer(&state, &headers, "resolve").await?;
    let skill = skill
        .filter(|k| visible(viewer.as_ref(), k))
        .ok_or_else(|| not_found("Skill not found"))?;
    let resolution = api::Resolution {
        slug: skill.slug,
        matched: matched.map(|version| api::VersionNumber { version }),
        latest_version: skill
            .latest
            .map(|v| api::VersionNumber { version: v.version }),
    };
    Ok(Json(resolution).into_response())
}

async fn download(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<api::VersionQuery>,
) -> ApiResult {
    let slug = q.slug.clone().ok_or_else(|| bad("Missing slug"))?;
    let (cached_slug, wanted) = (super::rules::normalise_slug(&slug), wanted(&q));
    // Before any store call: answering a popular archive costs a lookup and a count in memory.
    if let Some(cached) = state.downloads.get(&cached_slug, &wanted) {
        state.count_download(&cached_slug);
        return Ok(zip_response(cached));
    }
    // Read before the lookups, so a write during them keeps this archive out of the cache.
    let generation = state.downloads.generation();
    let skill = {
        let s = slug.clone();
        blocking(&state, move |st| st.skill(&s)).await?
    }
    .ok_or_else(|| not_found("Skill not found"))?;
    let version = pick_version(&skill, &q).ok_or_else(|| not_found("Version not found"))?;
    let Some((info, files)) = live_version_files(&state, &slug, &version).await? else {
        return not_live(&state, &headers, &skill, &q, &version).await;
    };
    state.count_download(&skill.slug);
    let zip = bundle(&skill, &info.version, info.created_at, files)
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let download = Download {
        body: zip.into(),
        file_name: format!("{}-{}.zip", skill.slug, info.version),
        signature: info.signature.clone(),
    };
    // Kept only under what the request resolved to, so no spelling of it mints a key.
    let resolved = match &wanted {
        Wanted::Version(v) => *v == info.version,
        Wanted::Tag(_) => true,
    };
    if resolved && cached_slug == skill.slug {
        state
            .downloads
            .put(&skill.slug, &wanted, generation, download.clone());
    }
    Ok(zip_response(download))
}

/// A live version and each of its files' bytes, by path; `None` when no live version has that
/// number.
async fn live_version_files(
    state: &AppState,
    slug: &str,
    version: &str,
) -> Result<Option<(VersionInfo, Vec<(String, Vec<u8>)>)>, ApiError> {
    let (slug, version) = (slug.to_owned(), version.to_owned());
    blocking(state, move |s| {
        let Some(info) = s.version(&slug, &version)? else {
            return Ok(None);
        };
        let mut files = Vec::new();
        for f in &info.files {
            files.push((
                f.path.clone(),
                s.file(&slug, &version, &f.path)?.unwrap_or_default(),
            ));
        }
        Ok(Some((info, files)))
    })
    .await
}

/// The download answer for a version that is not live: a held version to those it is shown to,
/// ClawHub's 410 for a withdrawn one, else 404.
async fn not_live(
    state: &AppState,
    headers: &HeaderMap,
    skill: &SkillInfo,
    q: &api::VersionQuery,
    version: &str,
) -> ApiResult {
    match held(state, &skill.slug, q).await? {
        Some(h) => download_held(state, headers, skill, h).await,
        None => {
            let (slug, version) = (skill.slug.clone(), version.to_owned());
            if blocking(state, move |s| s.withdrawn(&slug, &version)).await? {
                // ClawHub's answer for a version its owner withdrew.
                Err(ApiError(StatusCode::GONE, "Version not available".into()))
            } else {
                Err(not_found("Version not found"))
            }
        }
    }
}

/// Lets a quarantined version's owner and admins through; everyone else gets a plain-text 403
/// saying why.
async fn shown_to(
    state: &AppState,
    headers: &HeaderMap,
    held: &HeldVersion,
) -> Result<(), ApiError> {
    let viewer = viewer(state, headers, "a quarantined version").await?;
    if super::moderation::may_see_held(viewer.as_ref(), &held.owner_handle) {
        Ok(())
    } else {
        Err(ApiError(
            StatusCode::FORBIDDEN,
            super::moderation::refusal(&held.slug, &held.version),
        ))
    }
}

/// The download of a quarantined version: for its owner and admins (never cached, never
/// counted), a plain-text 403 saying why for everyone else.
async fn download_held(
    state: &AppState,
    headers: &HeaderMap,
    skill: &SkillInfo,
    held: HeldVersion,
) -> ApiResult {
    shown_to(state, headers, &held).await?;
    let files = {
        let (slug, version, paths) = (
            held.slug.clone(),
            held.version.version.clone(),
            held.version
                .files
                .iter()
                .map(|f| f.path.clone())
                .collect::<Vec<_>>(),
        );
        blocking(state, move |s| {
            let mut files = Vec::new();
            for path in paths {
                let bytes = s.held_file(&slug, &version, &path)?.unwrap_or_default();
                files.push((path, bytes));
            }
            Ok(files)
        })
        .await?
    };
    let zip = bundle(skill, &held.version.version, held.version.created_at, files)
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(zip_response(Download {
        body: zip.into(),
        file_name: format!("{}-{}.zip", skill.slug, held.version.version),
        signature: held.version.signature.clone(),
    }))
}

fn zip_response(download: Download) -> Response {
    use base64::Engine;
    let disposition = format!("attachment; filename=\"{}\"", download.file_name);
    let mut response = (
        [
            (header::CONTENT_TYPE, "application/zip".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "private, max-age=60".to_owned()),
        ],
        download.body,
    )
        .into_response();
    // A `.minisig` is several lines; a header value is one, so it travels base64-encoded.
    if let Some(signature) = download.signature {
        let encoded = base64::engine::general_purpose::STANDARD.encode(signature);
        if let Ok(value) = header::HeaderValue::from_str(&encoded) {
            response.headers_mut().insert(SIGNATURE_HEADER, value);
        }
    }
    response
}

/// The download response header carrying the version's signature, base64-encoded.
pub(crate) const SIGNATURE_HEADER: &str = "x-skill-signature";

/// `GET /api/v1/download/signature?slug=&version=` (or `&tag=`): the version's `.minisig` as
/// text, 404 when it is unsigned; a quarantined version's only for its owner and admins.
async fn download_signature(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<api::VersionQuery>,
) -> ApiResult {
    let slug = q.slug.clone().ok_or_else(|| bad("Missing slug"))?;
    let skill = {
        let s = slug.clone();
        blocking(&state, move |st| st.skill(&s)).await?
    }
    .ok_or_else(|| not_found("Skill not found"))?;
    let version = pick_version(&skill, &q).ok_or_else(|| not_found("Version not found"))?;
    let info = {
        let (slug, version) = (skill.slug.clone(), version.clone());
        blocking(&state, move |s| s.version(&slug, &version)).await?
    };
    let info = match info {
        Some(info) => info,
        None => {
            let held = held(&state, &skill.slug, &q)
                .await?
                .ok_or_else(|| not_found("Version not found"))?;
            shown_to(&state, &headers, &held).await?;
            held.version
        }
    };
    let signature = info
        .signature
        .ok_or_else(|| not_found("Version is not signed"))?;
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        signature,
    )
        .into_response())
}

/// The download archive as ClawHub builds it: files at their relative paths (no wrapping
/// folder), sorted by the fingerprint collation, 1980 timestamps, and a `_meta.json` that is
/// the same bytes on every download of a version.
pub fn bundle(
    skill: &SkillInfo,
    version: &str,
    published_at: i64,
    mut files: Vec<(String, Vec<u8>)>,
) -> Result<Vec<u8>, BundleError> {
    use std::io::Write;
    files.retain(|(p, _)| p != META_FILE);
    let meta = serde_json::to_string_pretty(&api::DownloadMeta {
        owner_id: skill.owner_handle.clone(),
        slug: skill.slug.clone(),
        version: version.to_owned(),
        published_at,
    })?;
    files.push((META_FILE.to_owned(), meta.into_bytes()));
    files.sort_by(|a, b| locale_compare(&a.0, &b.0));
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default())
        .unix_permissions(0o644);
    for (path, bytes) in files {
        zip.start_file(path, options)?;
        zip.write_all(&bytes)?;
    }
    Ok(zip.finish()?.into_inner())
}

/// Why a download's archive could not be built; each keeps the library's error as its source.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// `_meta.json` did not serialise.
    #[error("writing _meta.json: {0}")]
    Meta(#[from] serde_json::Error),
    /// The zip writer refused an entry.
    #[error("writing the archive: {0}")]
    Zip(#[from] zip::result::ZipError),
    /// Writing a file's bytes into the archive failed.
    #[error("writing a file into the archive: {0}")]
    Write(#[from] std::io::Error),
}

async fn upload_url(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> ApiResult {
    let user = authenticate(&state, &headers, Need::Publish, "upload url").await?;
    let request: api::UploadRequest =
        serde_json::from_slice(&body).map_err(|_| bad("Invalid JSON body"))?;
    let path = request
        .path
        .as_deref()
        .ok_or_else(|| bad("path is required"))?;
    // Tickets want a relative path; only the publish itself strips a leading `/`.
    if path.starts_with('/') {
        return Err(bad(&format!("Invalid file path: {path:?}")));
    }
    let path = super::rules::sanitise_path(path)
        .map_err(|e| bad(&e))?
        .ok_or_else(|| bad("This file is not accepted"))?;
    if path.len() > 500 {
        return Err(bad("path is too long"));
    }
    let size = request.size.ok_or_else(|| bad("size is required"))?;
    if size > skill_model::limits::FILE_BYTES {
        return Err(ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("File \"{path}\" exceeds 10MB limit"),
        ));
    }
    let sha256 = request
        .sha256
        .as_deref()
        .filter(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| bad("sha256 must be 64 hex digits"))?;
    let ticket_id = super::store::new_token()
        .map_err(ApiError::from)?
        .replacen("skl_", "upl_", 1);
    let ticket = UploadTicket {
        user_id: user.id,
        path,
        size,
        sha256: sha256.to_lowercase(),
        content_type: request.content_type,
        expires_at: now_ms().saturating_add(state.ticket_lifetime_ms),
        bytes: None,
    };
    {
        let id = ticket_id.clone();
        blocking(&state, move |s| s.create_ticket(&id, &ticket)).await?;
    }
    let url = format!("{}/api/v1/skills/-/upload/{ticket_id}", state.base_url);
    Ok(Json(api::UploadTicket {
        upload_url: url,
        upload_ticket: ticket_id,
    })
    .into_response())
}

async fn upload(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(ticket_id): Path<String>,
    body: Bytes,
) -> ApiResult {
    let user = authenticate(&state, &headers, Need::Publish, "upload").await?;
    let gone = || bad("Skill upload ticket is missing, used, or expired");
    let ticket = {
        let id = ticket_id.clone();
        blocking(&state, move |s| s.ticket(&id)).await?
    }
    .ok_or_else(gone)?;
    if ticket.user_id != user.id || ticket.expires_at < now_ms() || ticket.bytes.is_some() {
        return Err(gone());
    }
    if body.len() as u64 > ticket.size {
        return Err(ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Uploaded file exceeds its declared size".into(),
        ));
    }
    if body.len() as u64 != ticket.size {
        return Err(bad("Uploaded file size does not match its upload ticket"));
    }
    if sha256_hex(&body) != ticket.sha256 {
        return Err(bad(
            "Uploaded file SHA-256 does not match its upload ticket",
        ));
    }
    let filled = {
        let id = ticket_id.clone();
        blocking(&state, move |s| s.fill_ticket(&id, &body)).await?
    };
    if !filled {
        return Err(gone());
    }
    Ok(Json(api::Stored {
        storage_id: ticket_id,
    })
    .into_response())
}

async fn publish(
    State(state): State<AppState>,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> ApiResult {
    let user = authenticate(&state, &headers, Need::Publish, "publish").await?;
    let multipart = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    if multipart {
        return publish_multipart(state, user, request).await;
    }
    let body = axum::body::to_bytes(request.into_body(), BODY_LIMIT)
        .await
        .map_err(|_| {
            ApiError(
                StatusCode::PAYLOAD_TOO_LARGE,
                "Request body is too large".into(),
            )
        })?;
    let mut payload: api::PublishPayload =
        serde_json::from_slice(&body).map_err(|_| bad("Invalid JSON payload"))?;
    accepts_license(&payload)?;
    let announced = payload
        .files
        .take()
        .ok_or_else(|| bad("files is required"))?;
    // The tickets are read here and used up by the publish's own transaction, so a failed
    // publish leaves them for a retry and two publishes cannot both use one.
    let (files, ids) = ticketed_files(&state, &user, &announced).await?;
    let mut request = publish_request(payload, files)?;
    request.tickets = ids;
    store_publish(&state, &user, request).await
}

/// The files a JSON publish announces, each with the bytes of its upload ticket, and the
/// tickets' ids.
async fn ticketed_files(
    state: &AppState,
    user: &User,
    announced: &[api::PublishedFile],
) -> Result<(Vec<NewFile>, Vec<String>), ApiError> {
    let mut files = Vec::new();
    let mut ids = Vec::new();
    for entry in announced {
        let id = entry
            .ticket()
            .ok_or_else(|| bad("Every directly uploaded skill file requires an upload ticket"))?
            .to_owned();
        let ticket = {
            let id = id.clone();
            blocking(state, move |s| s.ticket(&id)).await?
        }
        .ok_or_else(|| bad(REUSED_TICKET))?;
        let matches = ticket_matches(&ticket, user, &entry.file);
        let Some(bytes) = ticket.bytes.filter(|_| matches) else {
            return Err(bad("Skill upload ticket does not match this publish"));
        };
        files.push(NewFile {
            path: ticket.path,
            bytes,
            content_type: ticket.content_type,
        });
        ids.push(id);
    }
    Ok((files, ids))
}

/// Whether `ticket` is `user`'s and promised the path, size and hash the publish announces.
fn ticket_matches(ticket: &UploadTicket, user: &User, announced: &api::UploadRequest) -> bool {
    ticket.user_id == user.id
        && announced
            .path
            .as_deref()
            .and_then(|p| super::rules::sanitise_path(p).ok().flatten())
            .as_deref()
            == Some(ticket.path.as_str())
        && announced.size == Some(ticket.size)
        && announced
            .sha256
            .as_deref()
            .map(str::to_lowercase)
            .as_deref()
            == Some(ticket.sha256.as_str())
}

/// ClawHub publishes everything under MIT-0, and a publish must say it accepts that.
fn accepts_license(payload: &api::PublishPayload) -> Result<(), ApiError> {
    if payload.accept_license_terms == Some(true) {
        Ok(())
    } else {
        Err(bad(
            "MIT-0 license terms must be accepted to publish skills",
        ))
    }
}

/// The store's request from a publish payload (either flavour) and its files.
fn publish_request(
    payload: api::PublishPayload,
    files: Vec<NewFile>,
) -> Result<PublishRequest, ApiError> {
    Ok(PublishRequest {
        slug: payload.slug.ok_or_else(|| bad("slug is required"))?,
        display_name: payload.display_name.unwrap_or_default(),
        // ClawHub's CLI sends no summary: the registry takes SKILL.md's description.
        summary: payload.summary.or_else(|| described(&files)),
        version: payload.version.ok_or_else(|| bad("version is required"))?,
        changelog: payload.changelog.unwrap_or_default(),
        tags: payload.tags.unwrap_or_default(),
        files,
        tickets: Vec::new(),
        signature: payload.signature,
    })
}

/// The trimmed `description` of the `SKILL.md` among `files`, if it has one.
fn described(files: &[NewFile]) -> Option<String> {
    use skill_model::document::Document;
    use skill_model::source::Source;
    let file = files.iter().find(|f| {
        let path = f.path.trim_start_matches('/');
        path == SKILL_MD || path == "skill.md"
    })?;
    let document = Document::parse(Source::new(
        String::from_utf8_lossy(&file.bytes).into_owned(),
    ));
    let description = document
        .manifest()
        .as_ref()
        .ok()?
        .value("description")?
        .as_str()?
        .trim()
        .to_owned();
    (!description.is_empty()).then_some(description)
}

async fn store_publish(state: &AppState, user: &User, request: PublishRequest) -> ApiResult {
    let publisher = user.clone();
    let published = blocking(state, move |s| s.publish(&publisher, &request)).await?;
    state.downloads.invalidate();
    state
        .metrics
        .published(published.moderation != Moderation::Live);
    if let Some(reviews) = state.review.clone() {
        review_later(reviews, state.store.clone(), &published);
    }
    // "pending" is ClawHub's word for a version held back by its scans; the clawhub CLI then
    // prints "pending security scans before it becomes public".
    let status = match published.moderation {
        Moderation::Live => "published",
        _ => "pending",
    };
    Ok(Json(api::Published {
        ok: true,
        skill_id: published.skill_id.to_string(),
        version_id: published.version_id.to_string(),
        moderation: Some(api::PublishedModeration {
            state: published.moderation.as_str().to_owned(),
            findings: published.findings.iter().filter(|f| f.is_error()).count(),
        }),
        slug: Some(published.slug),
        version: Some(published.version),
        status: Some(status.to_owned()),
        publication_status: Some(status.to_owned()),
    })
    .into_response())
}

/// Queues the model review of a new version, unless [`REVIEWS_WAITING`] already wait.
fn review_later(
    reviews: Arc<PublishReviews>,
    store: Arc<dyn Store>,
    published: &super::store::Published,
) {
    use std::sync::atomic::Ordering;
    let (slug, version) = (published.slug.clone(), published.version.clone());
    let id = published.version_id;
    if reviews.waiting.fetch_add(1, Ordering::AcqRel) >= REVIEWS_WAITING {
        reviews.waiting.fetch_sub(1, Ordering::AcqRel);
        tracing::warn!(
            slug,
            version,
            "model review skipped: {REVIEWS_WAITING} reviews already wait"
        );
        return;
    }
    tokio::task::spawn_blocking(move || {
        let _turn = reviews
            .one_at_a_time
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        reviews.waiting.fetch_sub(1, Ordering::AcqRel);
        match super::review::review_version(store.as_ref(), &reviews.http, &slug, &version, id) {
            Ok(n) => tracing::info!(slug, version, findings = n, "model review added"),
            Err(e) => tracing::warn!(slug, version, error = %e, "model review failed"),
        }
    });
}

/// The legacy flavour older clawhub CLIs use: a `payload` part with the JSON (no `files`), and
/// one `files` part per file whose file name is its relative path.
async fn publish_multipart(
    state: AppState,
    user: User,
    request: axum::extract::Request,
) -> ApiResult {
    use axum::extract::FromRequest;
    let mut form = axum::extract::Multipart::from_request(request, &state)
        .await
        .map_err(|_| bad("Invalid multipart body"))?;
    let mut payload: Option<api::PublishPayload> = None;
    let mut files = Vec::new();
    while let Some(field) = form
        .next_field()
        .await
        .map_err(|_| bad("Invalid multipart body"))?
    {
        match field.name() {
            Some("payload") => {
                let text = field
                    .text()
                    .await
                    .map_err(|_| bad("Invalid multipart body"))?;
                payload =
                    Some(serde_json::from_str(&text).map_err(|_| bad("Invalid JSON payload"))?);
            }
            Some("files") => {
                let path = field
                    .file_name()
                    .map(str::to_owned)
                    .ok_or_else(|| bad("Every file part needs a file name"))?;
                let content_type = field.content_type().map(str::to_owned);
                let bytes = field
                    .bytes()
                    .await
                    .map_err(|_| bad("Invalid multipart body"))?;
                files.push(NewFile {
                    path,
                    bytes: bytes.to_vec(),
                    content_type,
                });
            }
            _ => {}
        }
    }
    let payload = payload.ok_or_else(|| bad("Missing payload"))?;
    accepts_license(&payload)?;
    let request = publish_request(payload, files)?;
    store_publish(&state, &user, request).await
}

async fn delete_skill(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult {
    let user = authenticate(&state, &headers, Need::Publish, "delete skill").await?;
    blocking(&state, move |s| s.delete_skill(&user, &slug)).await?;
    state.downloads.invalidate();
    Ok(Json(api::Done::OK).into_response())
}

async fn undelete_skill(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> ApiResult {
    let user = authenticate(&state, &headers, Need::Publish, "undelete skill").await?;
    blocking(&state, move |s| s.undelete_skill(&user, &slug)).await?;
    state.downloads.invalidate();
    Ok(Json(api::Done::OK).into_response())
}

async fn telemetry() -> Json<api::Done> {
    Json(api::Done::OK)
}

/// How [`serve`] treats connections: the defences against clients that connect and then send
/// slowly, or not at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServeLimits {
    /// Time a request's line and headers have to arrive, counted from when the server starts
    /// waiting for them; past it the connection is closed.
    pub header_timeout: Duration,
    /// Time a request's whole body has to arrive once its headers have; past it the answer is a
    /// 408 and the connection is closed.
    pub body_timeout: Duration,
    /// Connections served at once; further ones wait in the listen queue until one closes.
    pub max_connections: usize,
}

impl Default for ServeLimits {
    fn default() -> ServeLimits {
        ServeLimits {
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(60),
            max_connections: 512,
        }
    }
}

/// How long connections already open get to finish after a shutdown signal.
const DRAIN_TIME: Duration = Duration::from_secs(10);

/// Longest request path written to the log; a 404 for a path of 60 KiB is logged by its start.
const LOGGED_PATH_CHARS: usize = 200;

/// Reads the whole body before the handler runs, so that a client that stops sending halfway
/// is answered with a 408 after `limit` instead of holding a task and a connection forever.
async fn read_body_in_time(
    State(limit): State<Duration>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(limit, axum::body::to_bytes(body, BODY_LIMIT)).await {
        Ok(Ok(bytes)) => {
            next.run(axum::extract::Request::from_parts(parts, bytes.into()))
                .await
        }
        Ok(Err(e)) => {
            let too_large = std::error::Error::source(&e)
                .is_some_and(|e| e.is::<http_body_util::LengthLimitError>());
            if too_large {
                ApiError(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "Request body is too large".into(),
                )
                .into_response()
            } else {
                bad("Invalid request body").into_response()
            }
        }
        Err(_) => {
            let mut response = ApiError(
                StatusCode::REQUEST_TIMEOUT,
                "Request body took too long to arrive".into(),
            )
            .into_response();
            // The rest of the body may still be on its way: the connection cannot be reused.
            response.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
            response
        }
    }
}

/// The path a request is logged under: never its query string (tokens and junk travel there),
/// an upload ticket replaced by its route's placeholder (a ticket is a credential), and at most
/// [`LOGGED_PATH_CHARS`] characters.
fn logged_path<B>(request: &axum::http::Request<B>) -> String {
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map(axum::extract::MatchedPath::as_str);
    let path = match route {
        Some(route) if route.contains("{ticket}") => route,
        _ => request.uri().path(),
    };
    match path.char_indices().nth(LOGGED_PATH_CHARS) {
        Some((end, _)) => format!("{}…", &path[..end]),
        None => path.to_owned(),
    }
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate => {}
    }
}

/// Serves `app` on an already bound listener until Ctrl-C or SIGTERM, within `limits`, logging
/// one `tracing` event per request (method and path in its span; status, bytes and duration).
/// Counted downloads reach the store every [`FLUSH_EVERY`], and once more after the last
/// request has been answered.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: App,
    limits: ServeLimits,
) -> std::io::Result<()> {
    let flusher = tokio::spawn(flush_counts(app.counts.clone()));
    let router = with_request_log(app.router, limits.body_timeout);
    accept_until_shutdown(listener, router, limits).await;
    flusher.abort();
    let counts = app.counts;
    if let Ok(Err(e)) = tokio::task::spawn_blocking(move || counts.flush()).await {
        tracing::error!(error = %e, "the last download counts were not saved");
    }
    Ok(())
}

/// Writes counted downloads to the store every [`FLUSH_EVERY`], until aborted.
async fn flush_counts(counts: Arc<DownloadCounts>) {
    let mut ticks = tokio::time::interval(FLUSH_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let counts = counts.clone();
        if let Ok(Err(e)) = tokio::task::spawn_blocking(move || counts.flush()).await {
            tracing::warn!(error = %e, "saving download counts failed; kept for the next try");
        }
    }
}

/// `router` with a deadline for each request's body and one log event per request.
fn with_request_log(router: Router, body_timeout: Duration) -> Router {
    use tower_http::trace::TraceLayer;
    router
        .layer(axum::middleware::from_fn_with_state(
            body_timeout,
            read_body_in_time,
        ))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &axum::http::Request<_>| {
                    tracing::info_span!(
                        "request",
                        method = %request.method(),
                        path = %logged_path(request),
                    )
                })
                .on_request(())
                .on_body_chunk(())
                .on_eos(())
                // A 5xx is logged by `on_response` like any other status: one line per request.
                .on_failure(())
                .on_response(
                    |response: &Response, latency: Duration, _span: &tracing::Span| {
                        let hint = axum::body::HttpBody::size_hint(response.body());
                        tracing::info!(
                            status = response.status().as_u16(),
                            bytes = hint.exact().unwrap_or(hint.lower()),
                            // Whole microseconds, so the figure prints short.
                            duration_ms = latency.as_micros() as f64 / 1000.0,
                        );
                    },
                ),
        )
}

/// Accepts connections until Ctrl-C or SIGTERM, then lets open ones finish within
/// [`DRAIN_TIME`].
async fn accept_until_shutdown(
    listener: tokio::net::TcpListener,
    app: Router,
    limits: ServeLimits,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let service = hyper_util::service::TowerToHyperService::new(app);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let permits = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let shutdown = shutdown_signal();
    tokio::pin!(shutdown);
    loop {
        // A permit before accepting: connections beyond the limit wait in the kernel's queue
        // rather than being accepted and starved.
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => {
                permit.expect("the connection semaphore is never closed")
            }
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!(error = %e, "accepting a connection failed");
                    // Out of file descriptors, most likely: let some connections close.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let connection =
            graceful.watch(http.serve_connection(TokioIo::new(stream), service.clone()));
        tokio::spawn(async move {
            // A connection's end (a reset, a timeout) is the client's business, not the log's.
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(DRAIN_TIME) => {}
    }
}
