//! Registry storage: users and tokens (SHA-256 only), skills, immutable versions, their files
//! (blobs by SHA-256), tags, and full-text search. One store ([`SqlStore`]) on two engines: SQLite
//! (embedded, the default) and PostgreSQL (for several server processes). The policy is written
//! once, here and in `flow` (the checks and the write flows), and so is the SQL (`sql_store`,
//! `sql_steps`); an engine holds its connections, migrations, search and lock per slug.

mod blobs;
mod flow;
mod migrations;
mod postgres;
mod sql;
mod sql_steps;
mod sql_store;
mod sqlite;
/// Runs a store call on tokio's blocking threads, off the async ones the servers answer on; the
/// outer error is the task's (a panic), the inner the store's.
pub(crate) async fn off_async<T: Send + 'static>(
    store: &std::sync::Arc<dyn Store>,
    f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<Result<T, StoreError>, tokio::task::JoinError> {
    let store = store.clone();
    tokio::task::spawn_blocking(move || f(store.as_ref())).await
}

#[cfg(test)]
mod suite;

pub use blobs::S3Blobs;
pub use postgres::{Postgres, PostgresStore};
pub use sql_store::SqlStore;
pub use sqlite::{Sqlite, SqliteStore};

use crate::rules;
use skill_model::layout::{SKILL_MD, SKILL_MD_LOWER};
use skill_model::limits;
use std::collections::BTreeMap;

/// A publisher.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct User {
    /// Database id.
    pub id: i64,
    /// Unique handle.
    pub handle: String,
    /// Display name, if set.
    pub display_name: Option<String>,
    /// True for a registry administrator, who reviews quarantined versions and may download
    /// them (`skill registry user add --admin`, `skill registry user admin`).
    pub admin: bool,
}

/// A file of a version being published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewFile {
    /// Path relative to the skill root.
    pub path: String,
    /// Contents.
    pub bytes: Vec<u8>,
    /// MIME type, if the client sent one.
    pub content_type: Option<String>,
}

/// A publish: one new version of one skill.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PublishRequest {
    /// The skill's slug.
    pub slug: String,
    /// Its display name.
    pub display_name: String,
    /// A one-line summary (the description).
    pub summary: Option<String>,
    /// The new version (semver).
    pub version: String,
    /// The changelog (may be empty).
    pub changelog: String,
    /// Tags to point at this version (`latest` is server-managed and ignored).
    pub tags: Vec<String>,
    /// The files.
    pub files: Vec<NewFile>,
    /// Upload tickets the publish uses up, in its own transaction (each must be uploaded).
    pub tickets: Vec<String>,
    /// The author's minisign signature of the version's file manifest, if signed.
    pub signature: Option<String>,
}

/// An upload ticket: what a client promised to upload and, once it has, the bytes. Kept in the
/// store, so a ticket issued by one server process can be used through another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadTicket {
    /// Who may use it.
    pub user_id: i64,
    /// The file's path in the skill.
    pub path: String,
    /// Its promised size.
    pub size: u64,
    /// Its promised SHA-256 (lower-case hex).
    pub sha256: String,
    /// Its MIME type, if the client gave one.
    pub content_type: Option<String>,
    /// When it stops being valid (ms since the epoch).
    pub expires_at: i64,
    /// The uploaded bytes, once uploaded.
    pub bytes: Option<Vec<u8>>,
}

/// What a publish created.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Published {
    /// The skill's id.
    pub skill_id: i64,
    /// The version's id.
    pub version_id: i64,
    /// The slug.
    pub slug: String,
    /// The version.
    pub version: String,
    /// The fingerprint of the files.
    pub fingerprint: String,
    /// Live, or quarantined by the publish scan.
    pub moderation: Moderation,
    /// What the publish scan found.
    pub findings: Vec<StoredFinding>,
}

/// Where a version stands with the registry's security scan and review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Moderation {
    /// Public: in search, resolve and downloads.
    Live,
    /// Held by the publish scan (a security error): stored, but out of search and resolve,
    /// and downloaded only by its owner and admins, until `skill registry review`.
    Quarantined,
    /// Refused by a review: removed, its number still taken.
    Rejected,
}

impl Moderation {
    /// The word stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Moderation::Live => "live",
            Moderation::Quarantined => "quarantined",
            Moderation::Rejected => "rejected",
        }
    }

    /// The state a stored word names (an unknown word is held, to be safe).
    pub fn parse(word: &str) -> Moderation {
        match word {
            "live" => Moderation::Live,
            "rejected" => Moderation::Rejected,
            _ => Moderation::Quarantined,
        }
    }
}

/// One finding of the publish scan, as the store keeps it (JSON in the version's row).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StoredFinding {
    /// The rule code (`SK903`).
    pub code: String,
    /// The rule slug (`obfuscated-exec`).
    pub slug: String,
    /// `error` or `warning`.
    pub severity: String,
    /// The file, relative to the skill.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// What was found.
    pub message: String,
    /// The line it was found on, made safe to print.
    pub excerpt: String,
    /// The author's reason, when an allow comment covers the finding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed: Option<String>,
}

impl StoredFinding {
    /// True for an error, which quarantines the version.
    pub fn is_error(&self) -> bool {
        self.severity == "error"
    }
}

/// A review's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Release the version: it goes live as if just published.
    Approve,
    /// Remove the version; its number stays taken.
    Reject,
}

/// A quarantined version, as a review sees it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HeldVersion {
    /// The skill's slug.
    pub slug: String,
    /// The owner's handle.
    pub owner_handle: String,
    /// The version, with its findings.
    pub version: VersionInfo,
}

/// One line of the store's audit log.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AuditEntry {
    /// When, ms since the epoch.
    pub at: i64,
    /// Who: a publisher's handle, or the operator who ran `skill registry review`.
    pub actor: String,
    /// `quarantine`, `approve`, `reject`, or `admin-token` (a request made with a token that
    /// carries an administrator's powers).
    pub action: String,
    /// The skill.
    pub slug: String,
    /// The version.
    pub version: String,
    /// What was decided or found, in words.
    pub note: String,
}

/// A file of a stored version.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FileInfo {
    /// Path relative to the skill root.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// Lowercase hex SHA-256.
    pub sha256: String,
    /// MIME type, if known.
    pub content_type: Option<String>,
}

/// A stored version.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct VersionInfo {
    /// The version.
    pub version: String,
    /// When it was published, ms since the epoch.
    pub created_at: i64,
    /// Its changelog.
    pub changelog: String,
    /// The fingerprint of its files.
    pub fingerprint: String,
    /// Its files, sorted by path.
    pub files: Vec<FileInfo>,
    /// Live or quarantined (rejected versions are not returned).
    pub moderation: Moderation,
    /// What the publish scan found (warnings of live versions, errors of held ones).
    pub findings: Vec<StoredFinding>,
    /// The author's minisign signature of the file manifest, if the version was signed.
    pub signature: Option<String>,
}

/// A stored skill.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SkillInfo {
    /// The slug.
    pub slug: String,
    /// The display name.
    pub display_name: String,
    /// The summary.
    pub summary: Option<String>,
    /// The owner's handle.
    pub owner_handle: String,
    /// Created, ms since the epoch.
    pub created_at: i64,
    /// Last published, ms since the epoch.
    pub updated_at: i64,
    /// The highest version by semver, if any is live.
    pub latest: Option<VersionInfo>,
    /// Tag → version.
    pub tags: BTreeMap<String, String>,
    /// Live versions.
    pub versions: u64,
    /// Downloads counted.
    pub downloads: u64,
}

/// A search result.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SearchHit {
    /// The slug.
    pub slug: String,
    /// The display name.
    pub display_name: String,
    /// The summary.
    pub summary: Option<String>,
    /// The latest version.
    pub version: Option<String>,
    /// The owner's handle.
    pub owner_handle: String,
    /// Last published.
    pub updated_at: i64,
    /// Relevance, higher is better, always positive.
    pub score: f64,
}

/// A skill as a list shows it (the web pages' recent, popular and per-user lists).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SkillSummary {
    /// The slug.
    pub slug: String,
    /// The display name.
    pub display_name: String,
    /// The summary.
    pub summary: Option<String>,
    /// The owner's handle.
    pub owner_handle: String,
    /// The version `latest` points at.
    pub version: Option<String>,
    /// Last published, ms since the epoch.
    pub updated_at: i64,
    /// Downloads counted.
    pub downloads: u64,
}

/// The order of [`Store::list_skills`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkillOrder {
    /// Last published first.
    Recent,
    /// Most downloaded first, then last published.
    Popular,
}

impl SkillOrder {
    /// The SQL `ORDER BY` of this order over `skills s`; the same text for both backends.
    fn order_by(self) -> &'static str {
        match self {
            SkillOrder::Recent => "s.updated_at DESC, s.id DESC",
            SkillOrder::Popular => "s.downloads DESC, s.updated_at DESC, s.id DESC",
        }
    }
}

/// A page of a list as SQL's `LIMIT` and `OFFSET` take it.
#[derive(Debug, Clone, Copy)]
struct Page {
    /// How many rows at most.
    limit: i64,
    /// How many rows to skip.
    offset: i64,
}

impl Page {
    /// `limit` rows after skipping `offset` (each saturated at `i64::MAX`, which SQL takes as
    /// "all").
    fn new(offset: usize, limit: usize) -> Page {
        let to_i64 = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        Page {
            limit: to_i64(limit),
            offset: to_i64(offset),
        }
    }
}

/// The order of [`Store::explore`] (`GET /api/v1/skills?sort=`, ClawHub's names in brackets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExploreOrder {
    /// Last published first (`updated`, the default).
    Updated,
    /// First published newest first (`createdAt`, `newest`: what `clawhub explore` sends).
    Created,
    /// Most downloaded first (`downloads`, `installs*`, `recommended`).
    Downloads,
    /// Most starred first (`stars`, `rating`).
    Stars,
    /// By slug (`name`; a `prefix` listing without a `sort`).
    Name,
    /// Stars and downloads together, then last published (`trending`: ClawHub ranks recent
    /// installs, which a self-hosted registry does not keep by day).
    Trending,
}

impl ExploreOrder {
    /// The order ClawHub's `sort` word names, `None` for a word it refuses with a 400.
    pub fn parse(word: &str) -> Option<ExploreOrder> {
        Some(match word.trim().to_ascii_lowercase().as_str() {
            "updated" | "updatedat" => ExploreOrder::Updated,
            "createdat" | "created-at" | "newest" => ExploreOrder::Created,
            "downloads" | "download" | "installs" | "install" | "installscurrent"
            | "installs-current" | "installsalltime" | "installs-all-time" | "recommended"
            | "default" => ExploreOrder::Downloads,
            "stars" | "star" | "rating" => ExploreOrder::Stars,
            "name" => ExploreOrder::Name,
            "trending" => ExploreOrder::Trending,
            _ => return None,
        })
    }

    /// The SQL `ORDER BY` of this order over `skills s` with `stars` (the star count) in scope;
    /// the same text for both backends.
    pub(super) fn order_by(self) -> &'static str {
        match self {
            ExploreOrder::Updated => "s.updated_at DESC, s.id DESC",
            ExploreOrder::Created => "s.created_at DESC, s.id DESC",
            ExploreOrder::Downloads => "s.downloads DESC, s.updated_at DESC, s.id DESC",
            ExploreOrder::Stars => "stars DESC, s.downloads DESC, s.id DESC",
            ExploreOrder::Name => "s.slug ASC",
            ExploreOrder::Trending => "(stars + s.downloads) DESC, s.updated_at DESC, s.id DESC",
        }
    }
}

/// Why a store operation failed, by the HTTP status a server answers with.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// 400: the request breaks a rule (the message is ClawHub's where it has one).
    #[error("{0}")]
    Invalid(String),
    /// 403: not the caller's to change.
    #[error("{0}")]
    Forbidden(String),
    /// 404.
    #[error("{0}")]
    NotFound(String),
    /// 404: no publisher has this handle.
    #[error("no user @{0}")]
    NoUser(String),
    /// 404: the publisher has no token with this id.
    #[error("@{handle} has no token {id}")]
    NoToken {
        /// The publisher.
        handle: String,
        /// The token's id.
        id: i64,
    },
    /// 409: a version number taken, a handle taken.
    #[error("{0}")]
    Conflict(String),
    /// 413: over a size limit.
    #[error("{0}")]
    TooLarge(String),
    /// The database failed: what was being done, with the driver's error kept as the source.
    #[error("database error: {message}")]
    Database {
        /// What failed, the driver's words included.
        message: String,
        /// The driver's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The database's recorded schema version is past every migration this build knows: a
    /// newer `skill` migrated it, and this one would misread its tables.
    #[error(
        "the database is at schema version {recorded}, newer than the {known} this skill knows: upgrade skill to open it"
    )]
    SchemaTooNew {
        /// The version the database records.
        recorded: u32,
        /// The latest version this build migrates to.
        known: u32,
    },
    /// The object store holding file contents failed (`--blobs`).
    #[error("blob store error: {message}")]
    Blobs {
        /// What failed, and where.
        message: String,
        /// The HTTP client's error, when it was one (without its URL, which is signed).
        #[source]
        source: Option<reqwest::Error>,
    },
}

/// Two errors are equal when they are of one kind and say the same: a database error's source
/// is not compared, as drivers' errors have no equality.
impl PartialEq for StoreError {
    fn eq(&self, other: &StoreError) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
            && self.to_string() == other.to_string()
    }
}

impl Eq for StoreError {}

impl StoreError {
    /// An object store failure that `message` says all of.
    pub(crate) fn blobs(message: impl Into<String>) -> StoreError {
        StoreError::Blobs {
            message: message.into(),
            source: None,
        }
    }

    /// A database failure: `message` says what failed, `source` is the driver's error.
    pub(crate) fn database(
        message: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> StoreError {
        StoreError::Database {
            message: message.into(),
            source: Box::new(source),
        }
    }
}

/// What a token may do beyond reading. Every token reads: `whoami`, its user's own
/// quarantined versions, signing in to the web pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Scopes {
    /// Publish, delete and restore, move tags, star.
    pub publish: bool,
    /// An administrator's powers (others' quarantined versions), when its user is one.
    pub admin: bool,
}

impl Scopes {
    /// Every power: what tokens made before scopes existed keep.
    pub const ALL: Scopes = Scopes {
        publish: true,
        admin: true,
    };

    /// The scopes as stored and shown: `read`, then `publish` and `admin` when granted.
    pub fn to_text(self) -> String {
        let mut words = vec!["read"];
        words.extend(self.publish.then_some("publish"));
        words.extend(self.admin.then_some("admin"));
        words.join(",")
    }

    /// The scopes [`Scopes::to_text`] wrote (a word it does not know grants nothing).
    pub(crate) fn from_text(text: &str) -> Scopes {
        let has = |word: &str| text.split(',').any(|w| w.trim() == word);
        Scopes {
            publish: has("publish"),
            admin: has("admin"),
        }
    }
}

/// The terms of a token being created.
#[derive(Debug, Clone, Copy, Default)]
pub struct NewToken<'a> {
    /// A label to tell it apart in `token list`.
    pub label: Option<&'a str>,
    /// What it may do.
    pub scopes: Scopes,
    /// When it stops working, ms since the epoch; never when `None`.
    pub expires_at: Option<i64>,
}

/// Who a live token speaks for and what it may do. `user.admin` is true only when the user is
/// an administrator *and* the token carries the admin scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// The token's user, with `admin` as the token allows it.
    pub user: User,
    /// The token's id.
    pub token_id: i64,
    /// What the token may do.
    pub scopes: Scopes,
}

impl Grant {
    /// A grant from a stored token row: `user` as stored, the token's id and scopes text.
    pub fn of(mut user: User, token_id: i64, scopes: &str) -> Grant {
        let scopes = Scopes::from_text(scopes);
        user.admin &= scopes.admin;
        Grant {
            user,
            token_id,
            scopes,
        }
    }
}

/// Looks a presented token up for `what` (a route's or page's name): who it speaks for and
/// what it may do, `None` when it is unknown, revoked or expired. A token that carries an
/// administrator's powers is written to the audit log at every use; when that cannot be
/// written, the use is refused with the store's error.
pub(crate) fn use_token(
    store: &dyn Store,
    token: &str,
    what: &str,
) -> Result<Option<Grant>, StoreError> {
    let Some(grant) = store.grant_for_token(token)? else {
        return Ok(None);
    };
    if grant.user.admin {
        store.record_audit(&AuditEntry {
            at: now_ms(),
            actor: grant.user.handle.clone(),
            action: "admin-token".into(),
            slug: String::new(),
            version: String::new(),
            note: format!("token {} used for {what}", grant.token_id),
        })?;
    }
    Ok(Some(grant))
}

/// A token as an administrator sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenInfo {
    /// Its id, which `revoke_token` takes.
    pub id: i64,
    /// The label given at creation.
    pub label: Option<String>,
    /// Created, ms since the epoch.
    pub created_at: i64,
    /// What it may do.
    pub scopes: Scopes,
    /// When it stops working, ms since the epoch.
    pub expires_at: Option<i64>,
}

/// The error for a token `id` that `handle` does not have.
fn no_token(handle: &str, id: i64) -> StoreError {
    StoreError::NoToken {
        handle: handle.to_owned(),
        id,
    }
}

/// Storage for a registry.
pub trait Store: Send + Sync {
    /// Creates a publisher.
    fn add_user(&self, handle: &str, display_name: Option<&str>) -> Result<User, StoreError>;
    /// Creates an API token for `handle` on `terms` and returns it; only its SHA-256 is kept.
    fn create_token(&self, handle: &str, terms: &NewToken) -> Result<String, StoreError>;
    /// Who a token speaks for and what it may do; `None` for a token that is unknown, revoked
    /// or expired.
    fn grant_for_token(&self, token: &str) -> Result<Option<Grant>, StoreError>;
    /// Appends `entry` to the audit log.
    fn record_audit(&self, entry: &AuditEntry) -> Result<(), StoreError>;
    /// `handle`'s tokens, oldest first (never the tokens themselves: only their SHA-256 is
    /// kept).
    fn tokens(&self, handle: &str) -> Result<Vec<TokenInfo>, StoreError>;
    /// Revokes `handle`'s token `id`: it stops working at once.
    fn revoke_token(&self, handle: &str, id: i64) -> Result<(), StoreError>;
    /// Publishes a version, all files or nothing.
    fn publish(&self, user: &User, request: &PublishRequest) -> Result<Published, StoreError>;
    /// A live skill.
    fn skill(&self, slug: &str) -> Result<Option<SkillInfo>, StoreError>;
    /// A live version of a live skill.
    fn version(&self, slug: &str, version: &str) -> Result<Option<VersionInfo>, StoreError>;
    /// The live versions of a skill, newest first.
    fn versions(&self, slug: &str) -> Result<Vec<VersionInfo>, StoreError>;
    /// The bytes of one file of a version.
    fn file(&self, slug: &str, version: &str, path: &str) -> Result<Option<Vec<u8>>, StoreError>;
    /// The version whose files have `fingerprint`, if any.
    fn resolve(&self, slug: &str, fingerprint: &str) -> Result<Option<String>, StoreError>;
    /// Full-text search over slug, name, summary and SKILL.md of latest versions.
    fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, StoreError>;
    /// Soft-deletes a skill (owner only).
    fn delete_skill(&self, user: &User, slug: &str) -> Result<(), StoreError>;
    /// Restores a soft-deleted skill (owner only).
    fn undelete_skill(&self, user: &User, slug: &str) -> Result<(), StoreError>;
    /// Records an upload ticket, and forgets expired ones.
    fn create_ticket(&self, id: &str, ticket: &UploadTicket) -> Result<(), StoreError>;
    /// A ticket no publish has used yet.
    fn ticket(&self, id: &str) -> Result<Option<UploadTicket>, StoreError>;
    /// Keeps the bytes uploaded for a ticket; false if it already had some.
    fn fill_ticket(&self, id: &str, bytes: &[u8]) -> Result<bool, StoreError>;
    /// A publisher by handle (`@` and case ignored).
    fn user(&self, handle: &str) -> Result<Option<User>, StoreError>;
    /// Live skills in `order`, only `owner`'s when given: `limit` of them after skipping `offset`.
    fn list_skills(
        &self,
        owner: Option<&str>,
        order: SkillOrder,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<SkillSummary>, StoreError>;
    /// Live skills whose last change (`updated_at`, then slug) comes after `after`, oldest
    /// change first, at most `limit`: what a mirror pages through.
    fn changed_after(
        &self,
        after: Option<(i64, &str)>,
        limit: usize,
    ) -> Result<Vec<SkillSummary>, StoreError>;
    /// Adds downloads to live skills, `(slug, how many)`, in one transaction (what
    /// [`SkillOrder::Popular`] ranks by); a slug no live skill has is passed over.
    fn count_downloads(&self, counts: &[(String, u64)]) -> Result<(), StoreError>;
    /// Makes `handle` an administrator, or not.
    fn set_admin(&self, handle: &str, admin: bool) -> Result<User, StoreError>;
    /// A quarantined version of a live skill (what [`Store::version`] leaves out).
    fn held_version(&self, slug: &str, version: &str) -> Result<Option<HeldVersion>, StoreError>;
    /// The bytes of one file of a quarantined version, for its owner and admins only: the
    /// caller checks who is asking.
    fn held_file(
        &self,
        slug: &str,
        version: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, StoreError>;
    /// Every quarantined version, oldest first.
    fn quarantined(&self) -> Result<Vec<HeldVersion>, StoreError>;
    /// How many versions [`Store::quarantined`] lists, without reading them.
    fn quarantined_count(&self) -> Result<u64, StoreError>;
    /// Appends `findings` to those of the version with id `version_id` (a later review's);
    /// its moderation state does not change.
    fn add_findings(&self, version_id: i64, findings: &[StoredFinding]) -> Result<(), StoreError>;
    /// Answers when the database (and with it every blob) can be read.
    fn ping(&self) -> Result<(), StoreError>;
    /// Releases or removes a quarantined version, writing a line to the audit log by `actor`.
    fn review(
        &self,
        slug: &str,
        version: &str,
        decision: Decision,
        actor: &str,
        note: Option<&str>,
    ) -> Result<Moderation, StoreError>;
    /// The audit log, oldest first; only `slug`'s lines when given.
    fn audit_log(&self, slug: Option<&str>) -> Result<Vec<AuditEntry>, StoreError>;
    /// The slugs of live skills with a live version, in `order`, only those starting with
    /// `prefix` when given: `limit` of them after skipping `offset`.
    fn explore(
        &self,
        order: ExploreOrder,
        prefix: Option<&str>,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<String>, StoreError>;
    /// Stars a live skill for `user`; false when it was starred already. `NotFound` for a
    /// skill that does not exist (or is deleted).
    fn star(&self, user: &User, slug: &str) -> Result<bool, StoreError>;
    /// Takes `user`'s star off a live skill; false when there was none.
    fn unstar(&self, user: &User, slug: &str) -> Result<bool, StoreError>;
    /// How many users starred a skill (0 for an unknown one).
    fn stars(&self, slug: &str) -> Result<u64, StoreError>;
    /// Withdraws one live version (owner only): out of lists, resolve and downloads, its tags
    /// removed, its number still taken. The version `latest` points at is refused: publish a
    /// replacement first.
    fn delete_version(&self, user: &User, slug: &str, version: &str) -> Result<(), StoreError>;
    /// Restores a withdrawn version (owner only), without moving `latest` or any tag back.
    fn restore_version(&self, user: &User, slug: &str, version: &str) -> Result<(), StoreError>;
    /// True when `version` of a live skill was withdrawn by [`Store::delete_version`] (what a
    /// download of it answers 410 for, as ClawHub does).
    fn withdrawn(&self, slug: &str, version: &str) -> Result<bool, StoreError>;
    /// Points `tag` (`latest` too) at an existing live version (owner only).
    fn set_tag(&self, user: &User, slug: &str, tag: &str, version: &str) -> Result<(), StoreError>;
}

/// A handle as users type it (`@Alice`), as stored (`alice`).
fn normalise_handle(handle: &str) -> String {
    handle.trim().trim_start_matches('@').to_lowercase()
}

/// What deleting the version `latest` points at says.
pub(crate) const LATEST_VERSION_REFUSED: &str =
    "Cannot delete the latest version; publish a replacement first, or move the latest tag";

/// The prefix of a prefix listing, as slugs are stored (`None` for an empty one).
fn explore_prefix(prefix: Option<&str>) -> Option<String> {
    prefix.map(rules::normalise_slug).filter(|p| !p.is_empty())
}

/// A new publisher's handle as stored (see [`normalise_handle`]), refused unless it is made of
/// a-z, 0-9, `.`, `_` and `-`.
pub(super) fn new_handle(handle: &str) -> Result<String, StoreError> {
    let handle = normalise_handle(handle);
    let ok = !handle.is_empty()
        && handle
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b));
    if !ok {
        return Err(StoreError::Invalid(format!(
            "invalid handle \"{handle}\": use a-z, 0-9, '.', '_' and '-'"
        )));
    }
    Ok(handle)
}

/// What adding a publisher whose handle exists says.
pub(super) fn handle_taken(handle: &str) -> StoreError {
    StoreError::Conflict(format!("user @{handle} already exists"))
}

/// What a publish of someone else's slug says (ClawHub's words).
pub(super) const SLUG_TAKEN: &str = "Slug is already taken. Choose a different slug.";

/// What a publish says when one of its tickets is gone (used, or never uploaded).
pub(crate) const REUSED_TICKET: &str = "Skill upload tickets cannot be reused";

/// A new random token (`skl_` and 48 hex digits from the OS's random source).
pub(crate) fn new_token() -> Result<String, StoreError> {
    use std::io::Read;
    let mut bytes = [0u8; 24];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| StoreError::database(format!("no random source: {e}"), e))?;
    Ok(format!("skl_{}", hex::encode(bytes)))
}

/// Milliseconds since the epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The tags a publish names, as text for the search index (`latest` names nothing to search for).
fn search_tags(tags: &[String]) -> String {
    let tags: Vec<&str> = tags
        .iter()
        .map(String::as_str)
        .filter(|t| *t != "latest")
        .collect();
    tags.join(" ")
}

/// What a quarantined publish asked for that only applies once it goes live: the skill's new
/// display name and summary, and its tags (kept as JSON in the version's row).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub(super) struct Pending {
    /// The display name.
    pub display_name: String,
    /// The summary.
    pub summary: Option<String>,
    /// The tags.
    pub tags: Vec<String>,
}

/// The publish scan's verdict on a version's files.
pub(super) struct Verdict {
    /// Every finding, warnings included.
    pub findings: Vec<StoredFinding>,
    /// Live, or quarantined when a finding is an error.
    pub moderation: Moderation,
}

/// Scans the files of a publish with the security rules. The author's allow comments do not
/// let a finding through here: a human reviews what the author says is fine.
pub(super) fn scan(files: &[(String, &NewFile)]) -> Verdict {
    use skill_lint::security::{self, Allows, ScanFile};
    let scan = security::scan(
        files.iter().map(|(path, f)| ScanFile {
            path,
            bytes: &f.bytes,
        }),
        Allows::Show,
    );
    let moderation = if scan.has_errors() {
        Moderation::Quarantined
    } else {
        Moderation::Live
    };
    let findings = scan
        .findings
        .iter()
        .map(|f| StoredFinding {
            code: f.rule.code.to_owned(),
            slug: f.rule.slug.to_owned(),
            severity: f.severity().as_str().to_owned(),
            path: f.path.clone(),
            line: f.position.line,
            message: f.message.clone(),
            excerpt: f.excerpt.clone(),
            allowed: f.allowed.clone(),
        })
        .collect();
    Verdict {
        findings,
        moderation,
    }
}

/// The audit note of a quarantine: how many errors, and which rules.
pub(super) fn quarantine_note(findings: &[StoredFinding]) -> String {
    let mut codes: Vec<&str> = findings
        .iter()
        .filter(|f| f.is_error())
        .map(|f| f.code.as_str())
        .collect();
    codes.dedup();
    format!(
        "the publish scan found {} security error(s): {}",
        findings.iter().filter(|f| f.is_error()).count(),
        codes.join(", ")
    )
}

/// The findings of a version row, as stored (a row that does not parse has none).
pub(super) fn parse_findings(json: &str) -> Vec<StoredFinding> {
    serde_json::from_str(json).unwrap_or_default()
}

/// The checks of a publish that need no database, shared by every backend; returns the kept files (sanitised paths).
pub(super) fn validate(request: &PublishRequest) -> Result<Vec<(String, &NewFile)>, StoreError> {
    if request.display_name.trim().is_empty() {
        return Err(StoreError::Invalid("displayName required".into()));
    }
    rules::parse_version(&request.version).map_err(StoreError::Invalid)?;
    rules::check_listing_text(
        &request.display_name,
        request.summary.as_deref(),
        &request.changelog,
        &request.tags,
    )
    .map_err(StoreError::Invalid)?;
    for tag in request.tags.iter().filter(|t| t.as_str() != "latest") {
        rules::check_tag(tag).map_err(StoreError::Invalid)?;
    }
    let files = kept_files(&request.files)?;
    check_installable(&files)?;
    Ok(files)
}

/// The files a publish keeps, with sanitised paths, within ClawHub's size limits.
fn kept_files(request_files: &[NewFile]) -> Result<Vec<(String, &NewFile)>, StoreError> {
    let mut files = Vec::new();
    let mut total: u64 = 0;
    for file in request_files {
        let Some(path) = rules::sanitise_path(&file.path).map_err(StoreError::Invalid)? else {
            continue;
        };
        // ClawHub's install metadata comes along when a downloaded skill is published again
        // (`clawhub sync` of an install folder): accepted and left out, as the registry writes
        // its own `_meta.json`.
        if skill_model::layout::is_install_metadata(&path) {
            continue;
        }
        if file.bytes.len() as u64 > limits::FILE_BYTES {
            return Err(StoreError::TooLarge(format!(
                "File \"{path}\" exceeds 10MB limit"
            )));
        }
        total += file.bytes.len() as u64;
        files.push((path, file));
    }
    if total > limits::BUNDLE_BYTES {
        return Err(StoreError::TooLarge(
            "Skill bundle exceeds 50MB limit".into(),
        ));
    }
    Ok(files)
}

/// The installer's rules, so nothing is published that every install would refuse.
fn check_installable(files: &[(String, &NewFile)]) -> Result<(), StoreError> {
    skill_model::layout::check_file_set(
        files.iter().map(|(p, _)| p.as_str()),
        skill_model::layout::FileSetKind::Authored,
    )
    .map_err(|rule| StoreError::Invalid(format!("Invalid file path: {rule}")))?;
    if let Some((path, _)) = files
        .iter()
        .find(|(p, _)| skill_model::layout::is_archive_name(p))
    {
        return Err(StoreError::Invalid(format!(
            "Invalid file path: {path:?} is an archive; installers refuse archives inside a skill"
        )));
    }
    // The installer's archive rules: its entry limit (less the `_meta.json` the registry adds)
    // and a root SKILL.md spelt as installers and discovery find it.
    let most = skill_archive::reader::Limits::default().entries - 1;
    if files.len() > most {
        return Err(StoreError::Invalid(format!(
            "The bundle has {} files; installers take at most {most}",
            files.len()
        )));
    }
    let root_manifest = |name: &str| files.iter().any(|(p, _)| p == name);
    if !root_manifest(SKILL_MD) && !root_manifest(SKILL_MD_LOWER) {
        let misspelt = files
            .iter()
            .find(|(p, _)| !p.contains('/') && p.eq_ignore_ascii_case(SKILL_MD));
        return Err(StoreError::Invalid(match misspelt {
            Some((p, _)) => format!("{p:?} is named in the wrong case: name it SKILL.md"),
            None => "SKILL.md is required at the root of the bundle".into(),
        }));
    }
    Ok(())
}

/// The longest signature a publish may carry: a minisign signature with a trusted comment is
/// about 350 bytes.
const MAX_SIGNATURE_BYTES: usize = 4096;

/// Refuses a publish's signature unless it is a minisign signature whose trusted comment names
/// this slug, version and `fingerprint` (the store cannot check the key, the installer does; this
/// catches a signature made for other files).
pub(super) fn check_signature(
    request: &PublishRequest,
    fingerprint: &str,
) -> Result<(), StoreError> {
    let Some(text) = &request.signature else {
        return Ok(());
    };
    if text.len() > MAX_SIGNATURE_BYTES {
        return Err(StoreError::Invalid(format!(
            "signature: longer than {MAX_SIGNATURE_BYTES} bytes"
        )));
    }
    let signer = skill_archive::signature::describe("signature", text)
        .map_err(|e| StoreError::Invalid(e.to_string()))?;
    let slug = rules::normalise_slug(&request.slug);
    let expected =
        skill_archive::signature::manifest_comment(&slug, request.version.trim(), fingerprint);
    if signer.trusted_comment != expected {
        return Err(StoreError::Invalid(format!(
            "signature: its trusted comment is \"{}\", but this version's is \"{expected}\" (sign the files you publish)",
            signer.trusted_comment
        )));
    }
    Ok(())
}

/// Refuses `version` if the skill already has one of the same semver precedence among
/// `existing` (all its versions, deleted ones included, since a number is published once):
/// build metadata does not make a new version, so `1.0.0+build2` is taken by `1.0.0+build1`.
/// `version` has passed [`validate`]; stored versions that do not parse are ignored.
pub(super) fn check_version_free(version: &str, existing: &[String]) -> Result<(), StoreError> {
    let wanted = rules::parse_version(version).map_err(StoreError::Invalid)?;
    let taken = existing
        .iter()
        .find(|v| semver::Version::parse(v).is_ok_and(|v| v.cmp_precedence(&wanted).is_eq()));
    match taken {
        None => Ok(()),
        Some(v) if v == version => Err(StoreError::Conflict(format!(
            "Version {version} already exists. Increment the version number and try again."
        ))),
        Some(v) => Err(StoreError::Conflict(format!(
            "Version {v} already exists, and {version} differs from it only in build metadata. Increment the version number and try again."
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(paths: &[&str]) -> PublishRequest {
        PublishRequest {
            slug: "demo".into(),
            display_name: "Demo".into(),
            summary: None,
            version: "1.0.0".into(),
            changelog: String::new(),
            tags: vec![],
            files: paths
                .iter()
                .map(|p| NewFile {
                    path: (*p).to_owned(),
                    content_type: None,
                    bytes: b"---\nname: demo\ndescription: d\n---\n".to_vec(),
                })
                .collect(),
            tickets: vec![],
            signature: None,
        }
    }

    fn refusal(paths: &[&str]) -> String {
        match validate(&request(paths)) {
            Err(StoreError::Invalid(m)) => m,
            other => panic!("{paths:?} was not refused: {other:?}"),
        }
    }

    #[test]
    fn publish_refuses_what_every_installer_refuses() {
        assert!(validate(&request(&["SKILL.md"])).is_ok());
        assert!(validate(&request(&["skill.md", "notes.md"])).is_ok());
        assert_eq!(
            refusal(&["skills.md"]),
            "SKILL.md is required at the root of the bundle"
        );
        assert_eq!(
            refusal(&["Skill.md"]),
            "\"Skill.md\" is named in the wrong case: name it SKILL.md"
        );
        let names: Vec<String> = (0..5_000).map(|i| format!("f/{i}.md")).collect();
        let mut many: Vec<&str> = names.iter().map(String::as_str).collect();
        many.push("SKILL.md");
        assert_eq!(
            refusal(&many),
            "The bundle has 5001 files; installers take at most 4999"
        );
        many.truncate(4_998);
        many.push("SKILL.md");
        assert!(validate(&request(&many)).is_ok());
    }
}
