//! The scale-out backend: PostgreSQL, which any number of server processes can share. Same
//! tables as SQLite; blobs in `bytea`; search with a `tsvector` column ranked by `ts_rank`;
//! publishes of one slug serialised across processes by a transaction-scoped advisory lock.

use super::flow::{self, Steps};
use super::migrations;
use super::*;
use crate::rules;
use ::postgres::NoTls;
use r2d2_postgres::PostgresConnectionManager;
use skill_model::fingerprint::sha256_hex;

/// How long a new connection to the server may take, unless the URL sets `connect_timeout`.
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The PostgreSQL store.
pub struct PostgresStore {
    pool: r2d2::Pool<PostgresConnectionManager<NoTls>>,
    blobs: Option<std::sync::Arc<S3Blobs>>,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore").finish_non_exhaustive()
    }
}

/// The driver's own message is terse ("db error"); the server's reason is in its source.
fn db(e: ::postgres::Error) -> StoreError {
    let reason = std::error::Error::source(&e).map(ToString::to_string);
    let message = match reason {
        Some(reason) => format!("PostgreSQL: {e}: {reason}"),
        None => format!("PostgreSQL: {e}"),
    };
    StoreError::database(message, e)
}

fn unique_violation(e: &::postgres::Error) -> bool {
    e.code() == Some(&::postgres::error::SqlState::UNIQUE_VIOLATION)
}

impl PostgresStore {
    /// Connects to `url` (`postgres://user:password@host/db`) with one connection and creates
    /// the tables if needed.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        PostgresStore::open_with(url, 1)
    }

    /// A file of a version in the given moderation state, from its row or the bucket.
    fn file_of(
        &self,
        moderation: Moderation,
        slug: &str,
        version: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        self.client()?
            .query_opt(
                "SELECT b.sha256, b.data FROM skills s JOIN versions v ON v.skill_id = s.id JOIN version_files f ON f.version_id = v.id JOIN blobs b ON b.sha256 = f.sha256
                 WHERE s.slug = $1 AND s.deleted_at IS NULL AND v.version = $2 AND v.deleted_at IS NULL AND v.moderation = $3 AND f.path = $4",
                &[&rules::normalise_slug(slug), &version.trim(), &moderation.as_str(), &path],
            )
            .map_err(db)?
            .map(|r| {
                let (sha256, data) = (r.try_get(0).map_err(db)?, r.try_get(1).map_err(db)?);
                blobs::load(self.blobs.as_deref(), sha256, data)
            })
            .transpose()
    }

    /// The same store with file contents kept in `blobs` instead of the database.
    pub fn with_blobs(self, blobs: std::sync::Arc<S3Blobs>) -> PostgresStore {
        PostgresStore {
            blobs: Some(blobs),
            ..self
        }
    }

    /// [`PostgresStore::open`], with a pool of up to `connections` connections.
    pub fn open_with(url: &str, connections: u32) -> Result<PostgresStore, StoreError> {
        let mut config: ::postgres::Config = url
            .parse()
            .map_err(|e: ::postgres::Error| StoreError::database(format!("{url}: {e}"), e))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        // One connection made directly first: a server that refuses, or refuses the password,
        // is reported at once instead of after the pool has retried for its whole timeout.
        let mut client = config.connect(NoTls).map_err(db)?;
        // Several processes may start at once: one creates the tables, the others wait.
        let mut tx = client.transaction().map_err(db)?;
        tx.execute("SELECT pg_advisory_xact_lock(7391)", &[])
            .map_err(db)?;
        migrate(&mut tx)?;
        tx.commit().map_err(db)?;
        drop(client);
        let manager = PostgresConnectionManager::new(config, NoTls);
        let pool = r2d2::Pool::builder()
            .max_size(connections.max(1))
            .min_idle(Some(1))
            .connection_timeout(CONNECT_TIMEOUT)
            .build(manager)
            .map_err(|e| StoreError::database(format!("PostgreSQL: {e}"), e))?;
        Ok(PostgresStore { pool, blobs: None })
    }

    fn client(
        &self,
    ) -> Result<r2d2::PooledConnection<PostgresConnectionManager<NoTls>>, StoreError> {
        self.pool
            .get()
            .map_err(|e| StoreError::database(format!("PostgreSQL: no connection free: {e}"), e))
    }
}

/// Runs the migrations the database has not had and records the version they bring it to, in
/// `tx` (which holds the advisory lock, so concurrent starts migrate once).
fn migrate(tx: &mut ::postgres::Transaction) -> Result<(), StoreError> {
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        .map_err(db)?;
    let recorded: Option<i32> = tx
        .query_one("SELECT max(version) FROM schema_version", &[])
        .and_then(|r| r.try_get(0))
        .map_err(db)?;
    let recorded = u32::try_from(recorded.unwrap_or(0)).unwrap_or(0);
    for migration in migrations::pending(migrations::POSTGRES, recorded)? {
        tx.batch_execute(migration.sql).map_err(db)?;
    }
    let latest = migrations::latest(migrations::POSTGRES) as i32;
    tx.execute("DELETE FROM schema_version", &[]).map_err(db)?;
    tx.execute(
        "INSERT INTO schema_version (version) VALUES ($1)",
        &[&latest],
    )
    .map_err(db)?;
    Ok(())
}

/// A skill summary from the columns `slug, display_name, summary, handle, updated_at,
/// downloads, latest version`.
fn summary_row(r: &::postgres::Row) -> Result<SkillSummary, ::postgres::Error> {
    Ok(SkillSummary {
        slug: r.try_get(0)?,
        display_name: r.try_get(1)?,
        summary: r.try_get(2)?,
        owner_handle: r.try_get(3)?,
        updated_at: r.try_get(4)?,
        downloads: r.try_get::<_, i64>(5)?.max(0) as u64,
        version: r.try_get(6)?,
    })
}

fn user_row(r: &::postgres::Row) -> Result<User, ::postgres::Error> {
    Ok(User {
        id: r.try_get(0)?,
        handle: r.try_get(1)?,
        display_name: r.try_get(2)?,
        admin: r.try_get(3)?,
    })
}

/// A file of a version from the columns `path, size, sha256, content_type`.
fn file_row(r: &::postgres::Row) -> Result<FileInfo, ::postgres::Error> {
    Ok(FileInfo {
        path: r.try_get(0)?,
        size: r.try_get::<_, i64>(1)? as u64,
        sha256: r.try_get(2)?,
        content_type: r.try_get(3)?,
    })
}

fn version_info(
    c: &mut impl ::postgres::GenericClient,
    version_id: i64,
) -> Result<VersionInfo, StoreError> {
    let row = c
        .query_one(
            "SELECT version, created_at, changelog, fingerprint, moderation, findings, signature FROM versions WHERE id = $1",
            &[&version_id],
        )
        .map_err(db)?;
    let files = c
        .query("SELECT path, size, sha256, content_type FROM version_files WHERE version_id = $1 ORDER BY path", &[&version_id])
        .map_err(db)?
        .iter()
        .map(file_row)
        .collect::<Result<_, _>>()
        .map_err(db)?;
    version_row(&row, files).map_err(db)
}

/// A version from the columns `version, created_at, changelog, fingerprint, moderation,
/// findings, signature`, with its `files`.
fn version_row(
    row: &::postgres::Row,
    files: Vec<FileInfo>,
) -> Result<VersionInfo, ::postgres::Error> {
    Ok(VersionInfo {
        version: row.try_get(0)?,
        created_at: row.try_get(1)?,
        changelog: row.try_get(2)?,
        fingerprint: row.try_get(3)?,
        files,
        moderation: Moderation::parse(row.try_get(4)?),
        findings: parse_findings(row.try_get(5)?),
        signature: row.try_get(6)?,
    })
}

/// A live (not deleted) skill's id and owner id.
fn live_skill(
    c: &mut impl ::postgres::GenericClient,
    slug: &str,
) -> Result<Option<(i64, i64)>, StoreError> {
    c.query_opt(
        "SELECT id, owner_id FROM skills WHERE slug = $1 AND deleted_at IS NULL",
        &[&slug],
    )
    .map_err(db)?
    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
    .transpose()
    .map_err(db)
}

/// How many matches of a search are ranked: enough that the best of any real query are among
/// them, few enough that a word every skill has costs the same at 100,000 skills as at 1,000.
const SEARCH_CANDIDATES: i64 = 500;

/// A tsquery matching any word of `query`, built from words only (no operators leak in).
fn ts_query(query: &str) -> Option<String> {
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    (!words.is_empty()).then(|| words.join(" | "))
}

impl Store for PostgresStore {
    fn explore(
        &self,
        order: ExploreOrder,
        prefix: Option<&str>,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let page = Page::new(offset, limit);
        let rows = self
            .client()?
            .query(
                &format!(
                    "SELECT s.slug FROM (
                         SELECT k.*, (SELECT COUNT(*) FROM stars st WHERE st.skill_id = k.id) AS stars FROM skills k
                         WHERE k.deleted_at IS NULL AND ($1::text IS NULL OR substr(k.slug, 1, length($1)) = $1)
                           AND EXISTS (SELECT 1 FROM versions v WHERE v.skill_id = k.id AND v.deleted_at IS NULL AND v.moderation = 'live')
                     ) s ORDER BY {} LIMIT $2 OFFSET $3",
                    order.order_by()
                ),
                &[&explore_prefix(prefix), &page.limit, &page.offset],
            )
            .map_err(db)?;
        rows.iter()
            .map(|r| r.try_get(0))
            .collect::<Result<_, _>>()
            .map_err(db)
    }

    fn star(&self, user: &User, slug: &str) -> Result<bool, StoreError> {
        flow::set_star(self, user, slug, true)
    }

    fn unstar(&self, user: &User, slug: &str) -> Result<bool, StoreError> {
        flow::set_star(self, user, slug, false)
    }

    fn stars(&self, slug: &str) -> Result<u64, StoreError> {
        let n: i64 = self
            .client()?
            .query_one(
                "SELECT COUNT(*) FROM stars st JOIN skills s ON s.id = st.skill_id WHERE s.slug = $1",
                &[&rules::normalise_slug(slug)],
            )
            .and_then(|r| r.try_get(0))
            .map_err(db)?;
        Ok(n.max(0) as u64)
    }

    fn withdrawn(&self, slug: &str, version: &str) -> Result<bool, StoreError> {
        flow::withdrawn(self, slug, version)
    }

    fn delete_version(&self, user: &User, slug: &str, version: &str) -> Result<(), StoreError> {
        flow::withdraw(self, user, slug, version, true)
    }

    fn restore_version(&self, user: &User, slug: &str, version: &str) -> Result<(), StoreError> {
        flow::withdraw(self, user, slug, version, false)
    }

    fn set_tag(&self, user: &User, slug: &str, tag: &str, version: &str) -> Result<(), StoreError> {
        flow::set_tag(self, user, slug, tag, version)
    }

    fn add_user(&self, handle: &str, display_name: Option<&str>) -> Result<User, StoreError> {
        let handle = super::new_handle(handle)?;
        let row = self
            .client()?
            .query_one("INSERT INTO users (handle, display_name, created_at) VALUES ($1, $2, $3) RETURNING id", &[&handle, &display_name, &now_ms()])
            .map_err(|e| if unique_violation(&e) { super::handle_taken(&handle) } else { db(e) })?;
        Ok(User {
            id: row.try_get(0).map_err(db)?,
            handle,
            display_name: display_name.map(str::to_owned),
            admin: false,
        })
    }

    fn create_token(&self, handle: &str, terms: &NewToken) -> Result<String, StoreError> {
        let handle = handle.trim().trim_start_matches('@').to_lowercase();
        let token = new_token()?;
        let mut c = self.client()?;
        let user_id: i64 = c
            .query_opt("SELECT id FROM users WHERE handle = $1", &[&handle])
            .and_then(|r| r.map(|r| r.try_get(0)).transpose())
            .map_err(db)?
            .ok_or_else(|| {
                StoreError::NotFound(format!(
                    "no user @{handle}; create it with `skill registry user add {handle}`"
                ))
            })?;
        c.execute(
            "INSERT INTO tokens (user_id, sha256, label, created_at, scopes, expires_at) VALUES ($1, $2, $3, $4, $5, $6)",
            &[&user_id, &sha256_hex(token.as_bytes()), &terms.label, &now_ms(), &terms.scopes.to_text(), &terms.expires_at],
        )
        .map_err(db)?;
        Ok(token)
    }

    fn tokens(&self, handle: &str) -> Result<Vec<TokenInfo>, StoreError> {
        let handle = handle.trim().trim_start_matches('@').to_lowercase();
        let rows = self
            .client()?
            .query(
                "SELECT t.id, t.label, t.created_at, t.scopes, t.expires_at FROM tokens t JOIN users u ON u.id = t.user_id WHERE u.handle = $1 ORDER BY t.id",
                &[&handle],
            )
            .map_err(db)?;
        rows.iter()
            .map(|r| {
                Ok(TokenInfo {
                    id: r.try_get(0)?,
                    label: r.try_get(1)?,
                    created_at: r.try_get(2)?,
                    scopes: Scopes::from_text(r.try_get(3)?),
                    expires_at: r.try_get(4)?,
                })
            })
            .collect::<Result<_, _>>()
            .map_err(db)
    }

    fn revoke_token(&self, handle: &str, id: i64) -> Result<(), StoreError> {
        let handle = handle.trim().trim_start_matches('@').to_lowercase();
        let removed = self
            .client()?
            .execute(
                "DELETE FROM tokens WHERE id = $1 AND user_id = (SELECT id FROM users WHERE handle = $2)",
                &[&id, &handle],
            )
            .map_err(db)?;
        if removed == 0 {
            return Err(super::no_token(&handle, id));
        }
        Ok(())
    }

    fn grant_for_token(&self, token: &str) -> Result<Option<Grant>, StoreError> {
        let row = self
            .client()?
            .query_opt(
                "SELECT u.id, u.handle, u.display_name, u.admin, t.id, t.scopes FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.sha256 = $1 AND (t.expires_at IS NULL OR t.expires_at > $2)",
                &[&sha256_hex(token.trim().as_bytes()), &now_ms()],
            )
            .map_err(db)?;
        row.map(|r| Ok(Grant::of(user_row(&r)?, r.try_get(4)?, r.try_get(5)?)))
            .transpose()
            .map_err(db)
    }

    fn record_audit(&self, entry: &AuditEntry) -> Result<(), StoreError> {
        self.client()?
            .execute(
                "INSERT INTO audit_log (at, actor, action, slug, version, note) VALUES ($1, $2, $3, $4, $5, $6)",
                &[&entry.at, &entry.actor, &entry.action, &entry.slug, &entry.version, &entry.note],
            )
            .map_err(db)?;
        Ok(())
    }

    fn publish(&self, user: &User, request: &PublishRequest) -> Result<Published, StoreError> {
        flow::publish(self, user, request)
    }

    fn skill(&self, slug: &str) -> Result<Option<SkillInfo>, StoreError> {
        let mut c = self.client()?;
        let row = c
            .query_opt(
                "SELECT s.id, s.slug, s.display_name, s.summary, u.handle, s.created_at, s.updated_at, s.downloads FROM skills s JOIN users u ON u.id = s.owner_id WHERE s.slug = $1 AND s.deleted_at IS NULL",
                &[&rules::normalise_slug(slug)],
            )
            .map_err(db)?;
        let Some(row) = row else { return Ok(None) };
        let id: i64 = row.try_get(0).map_err(db)?;
        let tags = c
            .query("SELECT t.tag, v.version FROM tags t JOIN versions v ON v.id = t.version_id WHERE t.skill_id = $1 ORDER BY t.tag", &[&id])
            .map_err(db)?
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<_, _>>()
            .map_err(db)?;
        let versions: i64 = c
            .query_one(
                "SELECT COUNT(*) FROM versions WHERE skill_id = $1 AND deleted_at IS NULL AND moderation = 'live'",
                &[&id],
            )
            .and_then(|r| r.try_get(0))
            .map_err(db)?;
        let latest = match flow::latest_version(&mut PgSteps(&mut *c), id)? {
            Some((version_id, _)) => Some(version_info(&mut *c, version_id)?),
            None => None,
        };
        Ok(Some(SkillInfo {
            slug: row.try_get(1).map_err(db)?,
            display_name: row.try_get(2).map_err(db)?,
            summary: row.try_get(3).map_err(db)?,
            owner_handle: row.try_get(4).map_err(db)?,
            created_at: row.try_get(5).map_err(db)?,
            updated_at: row.try_get(6).map_err(db)?,
            latest,
            tags,
            versions: versions as u64,
            downloads: row.try_get::<_, i64>(7).map_err(db)? as u64,
        }))
    }

    fn version(&self, slug: &str, version: &str) -> Result<Option<VersionInfo>, StoreError> {
        let mut c = self.client()?;
        let Some((skill_id, _)) = live_skill(&mut *c, &rules::normalise_slug(slug))? else {
            return Ok(None);
        };
        let id: Option<i64> = c
            .query_opt("SELECT id FROM versions WHERE skill_id = $1 AND version = $2 AND deleted_at IS NULL AND moderation = 'live'", &[&skill_id, &version.trim()])
            .and_then(|r| r.map(|r| r.try_get(0)).transpose())
            .map_err(db)?;
        id.map(|id| version_info(&mut *c, id)).transpose()
    }

    fn versions(&self, slug: &str) -> Result<Vec<VersionInfo>, StoreError> {
        let mut c = self.client()?;
        let Some((skill_id, _)) = live_skill(&mut *c, &rules::normalise_slug(slug))? else {
            return Err(StoreError::NotFound("Skill not found".into()));
        };
        let ids: Vec<i64> = c
            .query("SELECT id FROM versions WHERE skill_id = $1 AND deleted_at IS NULL AND moderation = 'live' ORDER BY created_at DESC, id DESC", &[&skill_id])
            .map_err(db)?
            .iter()
            .map(|r| r.try_get(0))
            .collect::<Result<_, _>>()
            .map_err(db)?;
        ids.into_iter()
            .map(|id| version_info(&mut *c, id))
            .collect()
    }

    fn file(&self, slug: &str, version: &str, path: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.file_of(Moderation::Live, slug, version, path)
    }

    fn resolve(&self, slug: &str, fingerprint: &str) -> Result<Option<String>, StoreError> {
        let mut c = self.client()?;
        let Some((skill_id, _)) = live_skill(&mut *c, &rules::normalise_slug(slug))? else {
            return Err(StoreError::NotFound("Skill not found".into()));
        };
        let row = c
            .query_opt(
                "SELECT version FROM versions WHERE skill_id = $1 AND fingerprint = $2 AND deleted_at IS NULL AND moderation = 'live' ORDER BY created_at DESC, id DESC LIMIT 1",
                &[&skill_id, &fingerprint.to_lowercase()],
            )
            .map_err(db)?;
        row.map(|r| r.try_get(0)).transpose().map_err(db)
    }

    fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, StoreError> {
        let Some(tsq) = ts_query(query) else {
            return Ok(Vec::new());
        };
        let rows = self
            .client()?
            .query(
                // The GIN index finds the matches; ranking reads at most SEARCH_CANDIDATES of
                // them (and the exact slug), and only the page's rows get a handle and version.
                "WITH q AS (SELECT to_tsquery('simple', $1) AS q),
                 candidates AS (
                     (SELECT s.id FROM skills s, q WHERE s.search @@ q.q AND s.deleted_at IS NULL LIMIT $3)
                     UNION SELECT s.id FROM skills s WHERE s.slug = $4 AND s.deleted_at IS NULL),
                 ranked AS (
                     SELECT s.id, s.slug, s.display_name, s.summary, s.owner_id, s.updated_at, ts_rank(s.search, q.q) AS rank
                     FROM candidates c JOIN skills s ON s.id = c.id, q
                     ORDER BY s.slug = $4 DESC, rank DESC LIMIT $2)
                 SELECT r.slug, r.display_name, r.summary, u.handle, r.updated_at, r.rank::float8,
                        (SELECT v.version FROM tags t JOIN versions v ON v.id = t.version_id WHERE t.skill_id = r.id AND t.tag = 'latest')
                 FROM ranked r JOIN users u ON u.id = r.owner_id",
                &[&tsq, &(limit as i64), &SEARCH_CANDIDATES, &rules::normalise_slug(query)],
            )
            .map_err(db)?;
        let wanted = rules::normalise_slug(query);
        let mut hits: Vec<SearchHit> = rows
            .iter()
            .map(|r| {
                let slug: String = r.try_get(0)?;
                let boost = if slug == wanted { 100.0 } else { 0.0 };
                Ok(SearchHit {
                    score: r.try_get::<_, f64>(5)? + boost + 0.001,
                    slug,
                    display_name: r.try_get(1)?,
                    summary: r.try_get(2)?,
                    owner_handle: r.try_get(3)?,
                    updated_at: r.try_get(4)?,
                    version: r.try_get(6)?,
                })
            })
            .collect::<Result<_, _>>()
            .map_err(db)?;
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        Ok(hits)
    }

    fn delete_skill(&self, user: &User, slug: &str) -> Result<(), StoreError> {
        flow::set_deleted(self, user, slug, Some(now_ms()))
    }

    fn undelete_skill(&self, user: &User, slug: &str) -> Result<(), StoreError> {
        flow::set_deleted(self, user, slug, None)
    }

    fn create_ticket(&self, id: &str, ticket: &UploadTicket) -> Result<(), StoreError> {
        let mut c = self.client()?;
        c.execute(
            "DELETE FROM upload_tickets WHERE expires_at < $1",
            &[&now_ms()],
        )
        .map_err(db)?;
        c.execute(
            "INSERT INTO upload_tickets (id, user_id, path, size, sha256, content_type, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            &[&id, &ticket.user_id, &ticket.path, &(ticket.size as i64), &ticket.sha256, &ticket.content_type, &ticket.expires_at],
        )
        .map_err(db)?;
        Ok(())
    }

    fn ticket(&self, id: &str) -> Result<Option<UploadTicket>, StoreError> {
        let row = self
            .client()?
            .query_opt(
                "SELECT user_id, path, size, sha256, content_type, expires_at, data FROM upload_tickets WHERE id = $1",
                &[&id],
            )
            .map_err(db)?;
        row.map(|r| {
            Ok(UploadTicket {
                user_id: r.try_get(0)?,
                path: r.try_get(1)?,
                size: r.try_get::<_, i64>(2)? as u64,
                sha256: r.try_get(3)?,
                content_type: r.try_get(4)?,
                expires_at: r.try_get(5)?,
                bytes: r.try_get(6)?,
            })
        })
        .transpose()
        .map_err(db)
    }

    fn fill_ticket(&self, id: &str, bytes: &[u8]) -> Result<bool, StoreError> {
        let filled = self
            .client()?
            .execute(
                "UPDATE upload_tickets SET data = $1 WHERE id = $2 AND data IS NULL",
                &[&bytes, &id],
            )
            .map_err(db)?;
        Ok(filled == 1)
    }

    fn user(&self, handle: &str) -> Result<Option<User>, StoreError> {
        let row = self
            .client()?
            .query_opt(
                "SELECT id, handle, display_name, admin FROM users WHERE handle = $1",
                &[&normalise_handle(handle)],
            )
            .map_err(db)?;
        row.as_ref().map(user_row).transpose().map_err(db)
    }

    fn list_skills(
        &self,
        owner: Option<&str>,
        order: SkillOrder,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<SkillSummary>, StoreError> {
        let order_by = order.order_by();
        let owner = owner.map(normalise_handle);
        let page = Page::new(offset, limit);
        let rows = self
            .client()?
            .query(
                &format!(
                    "SELECT s.slug, s.display_name, s.summary, u.handle, s.updated_at, s.downloads,
                            (SELECT v.version FROM tags t JOIN versions v ON v.id = t.version_id WHERE t.skill_id = s.id AND t.tag = 'latest')
                     FROM skills s JOIN users u ON u.id = s.owner_id
                     WHERE s.deleted_at IS NULL AND ($1::text IS NULL OR u.handle = $1)
                       AND EXISTS (SELECT 1 FROM versions v WHERE v.skill_id = s.id AND v.deleted_at IS NULL AND v.moderation = 'live')
                     ORDER BY {order_by} LIMIT $2 OFFSET $3"
                ),
                &[&owner, &page.limit, &page.offset],
            )
            .map_err(db)?;
        rows.iter()
            .map(summary_row)
            .collect::<Result<_, _>>()
            .map_err(db)
    }

    fn changed_after(
        &self,
        after: Option<(i64, &str)>,
        limit: usize,
    ) -> Result<Vec<SkillSummary>, StoreError> {
        let (at, slug) = after.unwrap_or((i64::MIN, ""));
        let limit = Page::new(0, limit).limit;
        // Byte order for slugs, as SQLite compares them, so a cursor means the same on both.
        let rows = self
            .client()?
            .query(
                "SELECT s.slug, s.display_name, s.summary, u.handle, s.updated_at, s.downloads,
                        (SELECT v.version FROM tags t JOIN versions v ON v.id = t.version_id WHERE t.skill_id = s.id AND t.tag = 'latest')
                 FROM skills s JOIN users u ON u.id = s.owner_id
                 WHERE s.deleted_at IS NULL AND (s.updated_at > $1 OR (s.updated_at = $1 AND s.slug COLLATE \"C\" > $2))
                   AND EXISTS (SELECT 1 FROM versions v WHERE v.skill_id = s.id AND v.deleted_at IS NULL AND v.moderation = 'live')
                 ORDER BY s.updated_at, s.slug COLLATE \"C\" LIMIT $3",
                &[&at, &slug, &limit],
            )
            .map_err(db)?;
        rows.iter()
            .map(summary_row)
            .collect::<Result<_, _>>()
            .map_err(db)
    }

    fn count_downloads(&self, counts: &[(String, u64)]) -> Result<(), StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(db)?;
        let stmt = tx
            .prepare("UPDATE skills SET downloads = downloads + $1 WHERE slug = $2 AND deleted_at IS NULL")
            .map_err(db)?;
        for (slug, n) in counts {
            let n = i64::try_from(*n).unwrap_or(i64::MAX);
            tx.execute(&stmt, &[&n, &rules::normalise_slug(slug)])
                .map_err(db)?;
        }
        tx.commit().map_err(db)
    }

    fn set_admin(&self, handle: &str, admin: bool) -> Result<User, StoreError> {
        let handle = normalise_handle(handle);
        let row = self
            .client()?
            .query_opt(
                "UPDATE users SET admin = $1 WHERE handle = $2 RETURNING id, handle, display_name, admin",
                &[&admin, &handle],
            )
            .map_err(db)?;
        let user = row.as_ref().map(user_row).transpose().map_err(db)?;
        user.ok_or_else(|| {
            StoreError::NotFound(format!(
                "no user @{handle}; create it with `skill registry user add {handle}`"
            ))
        })
    }

    fn held_version(&self, slug: &str, version: &str) -> Result<Option<HeldVersion>, StoreError> {
        let mut c = self.client()?;
        let row = c
            .query_opt(
                "SELECT v.id, s.slug, u.handle FROM versions v JOIN skills s ON s.id = v.skill_id JOIN users u ON u.id = s.owner_id
                 WHERE s.slug = $1 AND s.deleted_at IS NULL AND v.version = $2 AND v.deleted_at IS NULL AND v.moderation = 'quarantined'",
                &[&rules::normalise_slug(slug), &version.trim()],
            )
            .map_err(db)?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(HeldVersion {
            slug: row.try_get(1).map_err(db)?,
            owner_handle: row.try_get(2).map_err(db)?,
            version: version_info(&mut *c, row.try_get(0).map_err(db)?)?,
        }))
    }

    fn held_file(
        &self,
        slug: &str,
        version: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        self.file_of(Moderation::Quarantined, slug, version, path)
    }

    fn add_findings(&self, version_id: i64, findings: &[StoredFinding]) -> Result<(), StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(db)?;
        let stored: String = tx
            .query_one(
                "SELECT findings FROM versions WHERE id = $1 FOR UPDATE",
                &[&version_id],
            )
            .and_then(|r| r.try_get(0))
            .map_err(db)?;
        let mut all = parse_findings(&stored);
        all.extend_from_slice(findings);
        let json =
            serde_json::to_string(&all).map_err(|e| StoreError::database(e.to_string(), e))?;
        tx.execute(
            "UPDATE versions SET findings = $1 WHERE id = $2",
            &[&json, &version_id],
        )
        .map_err(db)?;
        tx.commit().map_err(db)
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.client()?
            .query_one("SELECT EXISTS (SELECT 1 FROM skills)", &[])
            .map_err(db)?;
        self.blobs.as_deref().map_or(Ok(()), S3Blobs::ping)
    }

    fn quarantined_count(&self) -> Result<u64, StoreError> {
        let row = self
            .client()?
            .query_one(
                "SELECT count(*) FROM versions v JOIN skills s ON s.id = v.skill_id
                 WHERE s.deleted_at IS NULL AND v.deleted_at IS NULL AND v.moderation = 'quarantined'",
                &[],
            )
            .map_err(db)?;
        Ok(row.try_get::<_, i64>(0).map_err(db)?.max(0) as u64)
    }

    fn quarantined(&self) -> Result<Vec<HeldVersion>, StoreError> {
        let mut c = self.client()?;
        let rows = c
            .query(
                "SELECT v.id, s.slug, u.handle FROM versions v JOIN skills s ON s.id = v.skill_id JOIN users u ON u.id = s.owner_id
                 WHERE s.deleted_at IS NULL AND v.deleted_at IS NULL AND v.moderation = 'quarantined' ORDER BY v.created_at, v.id",
                &[],
            )
            .map_err(db)?;
        rows.iter()
            .map(|row| {
                Ok(HeldVersion {
                    slug: row.try_get(1).map_err(db)?,
                    owner_handle: row.try_get(2).map_err(db)?,
                    version: version_info(&mut *c, row.try_get(0).map_err(db)?)?,
                })
            })
            .collect()
    }

    fn review(
        &self,
        slug: &str,
        version: &str,
        decision: Decision,
        actor: &str,
        note: Option<&str>,
    ) -> Result<Moderation, StoreError> {
        flow::review(self, slug, version, decision, actor, note)
    }

    fn audit_log(&self, slug: Option<&str>) -> Result<Vec<AuditEntry>, StoreError> {
        let slug = slug.map(rules::normalise_slug);
        let rows = self
            .client()?
            .query(
                "SELECT at, actor, action, slug, version, note FROM audit_log WHERE $1::text IS NULL OR slug = $1 ORDER BY id",
                &[&slug],
            )
            .map_err(db)?;
        rows.iter()
            .map(|r| {
                Ok(AuditEntry {
                    at: r.try_get(0)?,
                    actor: r.try_get(1)?,
                    action: r.try_get(2)?,
                    slug: r.try_get(3)?,
                    version: r.try_get(4)?,
                    note: r.try_get(5)?,
                })
            })
            .collect::<Result<_, _>>()
            .map_err(db)
    }
}

impl flow::Backend for PostgresStore {
    fn blobs(&self) -> Option<&S3Blobs> {
        self.blobs.as_deref()
    }

    fn in_transaction<T>(
        &self,
        flow: impl FnOnce(&mut dyn Steps) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut c = self.client()?;
        let mut tx = c.transaction().map_err(db)?;
        let out = flow(&mut PgSteps(&mut tx))?;
        tx.commit().map_err(db)?;
        Ok(out)
    }

    fn on_connection<T>(
        &self,
        flow: impl FnOnce(&mut dyn Steps) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut c = self.client()?;
        flow(&mut PgSteps(&mut *c))
    }
}

/// The flows' steps on one PostgreSQL client or transaction.
struct PgSteps<'a, C: ::postgres::GenericClient>(&'a mut C);

/// `INSERT INTO tags` that moves a tag already there.
const PUT_TAG: &str = "INSERT INTO tags (skill_id, tag, version_id) VALUES ($1, $2, $3) ON CONFLICT (skill_id, tag) DO UPDATE SET version_id = EXCLUDED.version_id";

impl<C: ::postgres::GenericClient> Steps for PgSteps<'_, C> {
    fn lock_slug(&mut self, slug: &str) -> Result<(), StoreError> {
        // Transaction-scoped, so it holds across server processes until commit or rollback.
        self.0
            .execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&slug])
            .map_err(db)?;
        Ok(())
    }

    fn use_ticket(&mut self, id: &str, user_id: i64) -> Result<bool, StoreError> {
        let used = self
            .0
            .execute(
                "DELETE FROM upload_tickets WHERE id = $1 AND user_id = $2 AND data IS NOT NULL",
                &[&id, &user_id],
            )
            .map_err(db)?;
        Ok(used == 1)
    }

    fn skill_owner(&mut self, slug: &str) -> Result<Option<(i64, i64)>, StoreError> {
        self.0
            .query_opt("SELECT id, owner_id FROM skills WHERE slug = $1", &[&slug])
            .and_then(|r| r.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose())
            .map_err(db)
    }

    fn live_skill(&mut self, slug: &str) -> Result<Option<(i64, i64)>, StoreError> {
        live_skill(self.0, slug)
    }

    fn insert_skill(
        &mut self,
        slug: &str,
        owner_id: i64,
        display_name: &str,
        summary: Option<&str>,
        now: i64,
    ) -> Result<i64, StoreError> {
        self
            .0
            .query_one(
                "INSERT INTO skills (slug, owner_id, display_name, summary, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id",
                &[&slug, &owner_id, &display_name, &summary, &now],
            )
            .and_then(|r| r.try_get(0))
            .map_err(db)
    }

    fn version_numbers(&mut self, skill_id: i64) -> Result<Vec<String>, StoreError> {
        self.0
            .query(
                "SELECT version FROM versions WHERE skill_id = $1",
                &[&skill_id],
            )
            .map_err(db)?
            .iter()
            .map(|r| r.try_get(0))
            .collect::<Result<_, _>>()
            .map_err(db)
    }

    fn insert_version(&mut self, row: &flow::NewVersion) -> Result<i64, StoreError> {
        self
            .0
            .query_one(
                "INSERT INTO versions (skill_id, version, changelog, fingerprint, created_at, moderation, findings, pending, signature) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
                &[
                    &row.skill_id,
                    &row.version,
                    &row.changelog,
                    &row.fingerprint,
                    &row.created_at,
                    &row.moderation.as_str(),
                    &row.findings,
                    &row.pending,
                    &row.signature,
                ],
            )
            .and_then(|r| r.try_get(0))
            .map_err(db)
    }

    fn put_blob(&mut self, sha256: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.0
            .execute(
                "INSERT INTO blobs (sha256, data) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&sha256, &bytes],
            )
            .map_err(db)?;
        Ok(())
    }

    fn insert_file(
        &mut self,
        version_id: i64,
        path: &str,
        size: i64,
        sha256: &str,
        content_type: Option<&str>,
    ) -> Result<bool, StoreError> {
        match self.0.execute(
            "INSERT INTO version_files (version_id, path, size, sha256, content_type) VALUES ($1, $2, $3, $4, $5)",
            &[&version_id, &path, &size, &sha256, &content_type],
        ) {
            Ok(_) => Ok(true),
            Err(e) if unique_violation(&e) => Ok(false),
            Err(e) => Err(db(e)),
        }
    }

    fn live_versions(&mut self, skill_id: i64) -> Result<Vec<(i64, String)>, StoreError> {
        self
            .0
            .query(
                "SELECT id, version FROM versions WHERE skill_id = $1 AND deleted_at IS NULL AND moderation = 'live'",
                &[&skill_id],
            )
            .map_err(db)?
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<_, _>>()
            .map_err(db)
    }

    fn latest_tag(&mut self, skill_id: i64) -> Result<Option<i64>, StoreError> {
        self.0
            .query_opt(
                "SELECT version_id FROM tags WHERE skill_id = $1 AND tag = 'latest'",
                &[&skill_id],
            )
            .and_then(|r| r.map(|r| r.try_get(0)).transpose())
            .map_err(db)
    }

    fn put_tag(&mut self, skill_id: i64, tag: &str, version_id: i64) -> Result<(), StoreError> {
        self.0
            .execute(PUT_TAG, &[&skill_id, &tag, &version_id])
            .map_err(db)?;
        Ok(())
    }

    fn set_listing(&mut self, listing: &flow::Listing) -> Result<(), StoreError> {
        let document = format!(
            "{} {} {} {}\n{}",
            listing.slug.replace('-', " "),
            listing.display_name,
            listing.summary.unwrap_or_default(),
            listing.tags,
            listing.skill_md
        );
        self.0
            .execute(
                "UPDATE skills SET display_name = $1, summary = $2, updated_at = $3, search = to_tsvector('simple', $4) WHERE id = $5",
                &[&listing.display_name, &listing.summary, &listing.now, &document, &listing.skill_id],
            )
            .map_err(db)?;
        Ok(())
    }

    fn touch_skill(&mut self, skill_id: i64, now: i64) -> Result<(), StoreError> {
        self.0
            .execute(
                "UPDATE skills SET updated_at = $1 WHERE id = $2",
                &[&now, &skill_id],
            )
            .map_err(db)?;
        Ok(())
    }

    fn audit(&mut self, entry: &AuditEntry) -> Result<(), StoreError> {
        self.0
            .execute(
                "INSERT INTO audit_log (at, actor, action, slug, version, note) VALUES ($1, $2, $3, $4, $5, $6)",
                &[&entry.at, &entry.actor, &entry.action, &entry.slug, &entry.version, &entry.note],
            )
            .map_err(db)?;
        Ok(())
    }

    fn review_row(
        &mut self,
        slug: &str,
        version: &str,
    ) -> Result<Option<flow::ReviewRow>, StoreError> {
        self
            .0
            .query_opt(
                "SELECT v.id, s.id, v.moderation, v.pending FROM versions v JOIN skills s ON s.id = v.skill_id
                 WHERE s.slug = $1 AND v.version = $2 AND v.deleted_at IS NULL FOR UPDATE",
                &[&slug, &version],
            )
            .and_then(|r| {
                r.map(|r| {
                    Ok(flow::ReviewRow {
                        version_id: r.try_get(0)?,
                        skill_id: r.try_get(1)?,
                        moderation: r.try_get(2)?,
                        pending: r.try_get(3)?,
                    })
                })
                .transpose()
            })
            .map_err(db)
    }

    fn skill_md(&mut self, version_id: i64) -> Result<Option<(String, Vec<u8>)>, StoreError> {
        self
            .0
            .query_opt(
                "SELECT b.sha256, b.data FROM version_files f JOIN blobs b ON b.sha256 = f.sha256 WHERE f.version_id = $1 AND lower(f.path) = 'skill.md'",
                &[&version_id],
            )
            .and_then(|r| r.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose())
            .map_err(db)
    }

    fn set_moderation(
        &mut self,
        version_id: i64,
        moderation: Moderation,
        deleted_at: Option<i64>,
    ) -> Result<(), StoreError> {
        self.0
            .execute(
                "UPDATE versions SET moderation = $1, pending = NULL, deleted_at = $2 WHERE id = $3",
                &[&moderation.as_str(), &deleted_at, &version_id],
            )
            .map_err(db)?;
        Ok(())
    }

    fn live_version_row(
        &mut self,
        skill_id: i64,
        version: &str,
    ) -> Result<Option<(i64, bool)>, StoreError> {
        self
            .0
            .query_opt(
                "SELECT id, deleted_at IS NOT NULL FROM versions WHERE skill_id = $1 AND version = $2 AND moderation = 'live'",
                &[&skill_id, &version.trim()],
            )
            .and_then(|r| r.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose())
            .map_err(db)
    }

    fn withdraw_version(&mut self, version_id: i64, now: i64) -> Result<(), StoreError> {
        self.0
            .execute(
                "UPDATE versions SET deleted_at = $1 WHERE id = $2",
                &[&now, &version_id],
            )
            .map_err(db)?;
        self.0
            .execute("DELETE FROM tags WHERE version_id = $1", &[&version_id])
            .map_err(db)?;
        Ok(())
    }

    fn restore_version(&mut self, version_id: i64) -> Result<(), StoreError> {
        self.0
            .execute(
                "UPDATE versions SET deleted_at = NULL WHERE id = $1",
                &[&version_id],
            )
            .map_err(db)?;
        Ok(())
    }

    fn set_skill_deleted(&mut self, skill_id: i64, at: Option<i64>) -> Result<(), StoreError> {
        self.0
            .execute(
                "UPDATE skills SET deleted_at = $1 WHERE id = $2",
                &[&at, &skill_id],
            )
            .map_err(db)?;
        Ok(())
    }

    fn set_star(
        &mut self,
        user_id: i64,
        skill_id: i64,
        on: bool,
        now: i64,
    ) -> Result<bool, StoreError> {
        let changed = if on {
            self.0.execute(
                "INSERT INTO stars (user_id, skill_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                &[&user_id, &skill_id, &now],
            )
        } else {
            self.0.execute(
                "DELETE FROM stars WHERE user_id = $1 AND skill_id = $2",
                &[&user_id, &skill_id],
            )
        }
        .map_err(db)?;
        Ok(changed > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store on a database of its own, dropped with its connections at the end of the test, so
    /// a server that outlives the tests does not pile them up.
    struct Fresh {
        store: PostgresStore,
        server: String,
        name: String,
    }

    impl Fresh {
        fn url(&self) -> String {
            let base = self.server.rsplit_once('/').map_or("", |(b, _)| b);
            format!("{base}/{}", self.name)
        }
    }

    impl std::ops::Deref for Fresh {
        type Target = PostgresStore;

        fn deref(&self) -> &PostgresStore {
            &self.store
        }
    }

    impl Drop for Fresh {
        fn drop(&mut self) {
            // Not a panic while a failed test unwinds; `.ci/run` drops what is left.
            if let Ok(mut admin) = ::postgres::Client::connect(&self.server, NoTls) {
                let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
                if let Err(e) = admin.batch_execute(&sql) {
                    eprintln!("could not drop the test database {}: {e}", self.name);
                }
            }
        }
    }

    /// A fresh database on the server `SKILL_TEST_POSTGRES` names (`.ci/run` starts one);
    /// `None`, after a line saying the test is skipped, where none is named (under
    /// `SKILL_TEST_REQUIRE_ALL`, which `.ci/run` sets, that fails the test instead).
    fn open() -> Option<Fresh> {
        let Ok(server) = std::env::var("SKILL_TEST_POSTGRES") else {
            let why = "a PostgreSQL server named by SKILL_TEST_POSTGRES (bash .ci/run starts one)";
            assert!(
                std::env::var_os("SKILL_TEST_REQUIRE_ALL").is_none(),
                "missing {why}"
            );
            println!("SKIPPED: needs {why}");
            return None;
        };
        let name = format!("skill_test_{}", &new_token().unwrap()[4..20]);
        let mut admin = ::postgres::Client::connect(&server, NoTls).unwrap();
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        let base = server.rsplit_once('/').map_or(server.as_str(), |(b, _)| b);
        let store = PostgresStore::open(&format!("{base}/{name}")).unwrap();
        Some(Fresh {
            store,
            server,
            name,
        })
    }

    #[test]
    fn tokens() {
        let Some(store) = open() else { return };
        super::super::suite::tokens(&*store);
    }

    #[test]
    fn publish_rules_versions_and_latest() {
        let Some(store) = open() else { return };
        super::super::suite::publish_rules_versions_and_latest(&*store);
    }

    #[test]
    fn listing_text_is_bounded() {
        let Some(store) = open() else { return };
        super::super::suite::listing_text_is_bounded(&*store);
    }

    #[test]
    fn build_metadata_makes_no_new_version() {
        let Some(store) = open() else { return };
        super::super::suite::build_metadata_makes_no_new_version(&*store);
    }

    #[test]
    fn upload_tickets() {
        let Some(store) = open() else { return };
        super::super::suite::upload_tickets(&*store);
    }

    #[test]
    fn a_failed_publish_leaves_nothing() {
        let Some(store) = open() else { return };
        super::super::suite::a_failed_publish_leaves_nothing(&*store);
    }

    #[test]
    fn twenty_concurrent_publishes_of_one_version_leave_one() {
        let Some(store) = open() else { return };
        super::super::suite::twenty_concurrent_publishes_of_one_version_leave_one(&*store);
    }

    #[test]
    fn two_stores_on_one_database_race_safely() {
        let Some(first) = open() else { return };
        let second = PostgresStore::open(&first.url()).unwrap();
        let alice = first.add_user("alice", None).unwrap();
        let stores: [&dyn Store; 2] = [&*first, &second];
        let results: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..10)
                .map(|i| {
                    let store = stores[i % 2];
                    let alice = alice.clone();
                    s.spawn(move || {
                        let request = PublishRequest {
                            slug: "shared-skill".into(),
                            display_name: "Shared".into(),
                            version: "1.0.0".into(),
                            files: vec![NewFile {
                                path: "SKILL.md".into(),
                                bytes: b"x".to_vec(),
                                content_type: None,
                            }],
                            ..PublishRequest::default()
                        };
                        store.publish(&alice, &request)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(
            results.iter().filter(|r| r.is_ok()).count(),
            1,
            "{results:?}"
        );
        assert_eq!(second.versions("shared-skill").unwrap().len(), 1);
    }

    #[test]
    fn signatures() {
        let Some(store) = open() else { return };
        super::super::suite::signatures(&*store);
    }

    #[test]
    fn token_scopes_and_expiry() {
        let Some(store) = open() else { return };
        super::super::suite::token_scopes_and_expiry(&*store);
    }

    #[test]
    fn lists_users_and_downloads() {
        let Some(store) = open() else { return };
        super::super::suite::lists_users_and_downloads(&*store);
    }

    #[test]
    fn search_and_soft_delete() {
        let Some(store) = open() else { return };
        super::super::suite::search_and_soft_delete(&*store);
    }

    #[test]
    fn explore_stars_tags_and_withdrawn_versions() {
        let Some(store) = open() else { return };
        super::super::suite::explore_stars_tags_and_withdrawn_versions(&*store);
    }
}
