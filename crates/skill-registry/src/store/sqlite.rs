//! The embedded backend: one SQLite database (WAL) under the data folder, blobs in it by SHA-256,
//! FTS5 for search. Writes run in `BEGIN IMMEDIATE` transactions, so a publish is all or nothing
//! and concurrent publishes of one version number serialise: one wins, the rest conflict.

use super::flow::{self, Steps};
use super::migrations;
use super::*;
use crate::rules;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use skill_model::fingerprint::sha256_hex;
use std::path::Path;

/// How many matches of a search are ranked (the newest ones): enough that a query's best are
/// among them, few enough that a word every skill has costs the same at 100,000 skills as at
/// 1,000.
const SEARCH_CANDIDATES: i64 = 500;

/// The SQLite store: a pool of connections to one database in WAL mode, so reads run side by
/// side and never wait for a write; writes take SQLite's write lock in `BEGIN IMMEDIATE`
/// transactions, one at a time, waiting up to the busy timeout.
#[derive(Debug)]
pub struct SqliteStore {
    pool: r2d2::Pool<Connector>,
    blobs: Option<std::sync::Arc<S3Blobs>>,
}

/// SQLite counts every allocation under one process-wide mutex unless told not to before its
/// first connection, which makes parallel searches (FTS5 allocates a lot) take turns. Later
/// calls, or one after SQLite started, change nothing.
fn no_allocation_counts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: sqlite3_config with an integer argument, before this process opens any
        // connection through this store; SQLite refuses it harmlessly if it already started.
        unsafe {
            rusqlite::ffi::sqlite3_config(rusqlite::ffi::SQLITE_CONFIG_MEMSTATUS, 0);
        }
    });
}

/// Opens the pool's connections, each with the settings SQLite keeps per connection (WAL is a
/// setting of the database file, made once by [`SqliteStore::open_with`]).
#[derive(Debug)]
struct Connector {
    path: std::path::PathBuf,
}

impl r2d2::ManageConnection for Connector {
    type Connection = Connection;
    type Error = rusqlite::Error;

    fn connect(&self) -> Result<Connection, rusqlite::Error> {
        let conn = Connection::open(&self.path)?;
        conn.execute_batch(
            "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;",
        )?;
        Ok(conn)
    }

    fn is_valid(&self, conn: &mut Connection) -> Result<(), rusqlite::Error> {
        conn.execute_batch("")
    }

    fn has_broken(&self, _: &mut Connection) -> bool {
        false
    }
}

fn db(e: rusqlite::Error) -> StoreError {
    StoreError::database(e.to_string(), e)
}

impl SqliteStore {
    /// Opens (creating if needed) `registry.sqlite3` under `data_dir`, with one connection
    /// (what an administrative command needs).
    pub fn open(data_dir: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(data_dir, 1)
    }

    /// A file of a version in the given moderation state, from its row or the bucket.
    fn file_of(
        &self,
        moderation: Moderation,
        slug: &str,
        version: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        let row: Option<(String, Vec<u8>)> = self
            .conn()?
            .query_row(
                "SELECT b.sha256, b.data FROM skills s JOIN versions v ON v.skill_id = s.id JOIN version_files f ON f.version_id = v.id JOIN blobs b ON b.sha256 = f.sha256
                 WHERE s.slug = ? AND s.deleted_at IS NULL AND v.version = ? AND v.deleted_at IS NULL AND v.moderation = ? AND f.path = ?",
                params![rules::normalise_slug(slug), version.trim(), moderation.as_str(), path],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(db)?;
        row.map(|(sha, data)| blobs::load(self.blobs.as_deref(), &sha, data))
            .transpose()
    }

    /// The same store with file contents kept in `blobs` instead of the database.
    pub fn with_blobs(self, blobs: std::sync::Arc<S3Blobs>) -> SqliteStore {
        SqliteStore {
            blobs: Some(blobs),
            ..self
        }
    }

    /// [`SqliteStore::open`], with a pool of up to `connections` connections.
    pub fn open_with(data_dir: &Path, connections: u32) -> Result<SqliteStore, StoreError> {
        std::fs::create_dir_all(data_dir)
            .map_err(|e| StoreError::database(format!("{}: {e}", data_dir.display()), e))?;
        let path = data_dir.join("registry.sqlite3");
        no_allocation_counts();
        let connector = Connector { path };
        let conn = r2d2::ManageConnection::connect(&connector).map_err(db)?;
        conn.execute_batch("PRAGMA journal_mode = WAL;")
            .map_err(db)?;
        migrate(&conn)?;
        drop(conn);
        let pool = r2d2::Pool::builder()
            .max_size(connections.max(1))
            .min_idle(Some(1))
            .build(connector)
            .map_err(|e| StoreError::database(e.to_string(), e))?;
        Ok(SqliteStore { pool, blobs: None })
    }

    fn conn(&self) -> Result<r2d2::PooledConnection<Connector>, StoreError> {
        self.pool
            .get()
            .map_err(|e| StoreError::database(format!("no database connection free: {e}"), e))
    }
}

/// Runs the migrations the database has not had, and records the version they bring it to; in
/// one immediate transaction, so two processes opening it at once migrate it once.
fn migrate(conn: &Connection) -> Result<(), StoreError> {
    conn.execute_batch("BEGIN IMMEDIATE").map_err(db)?;
    let result = run_migrations(conn);
    match result {
        Ok(()) => conn.execute_batch("COMMIT").map_err(db),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

/// [`migrate`]'s work inside its transaction.
fn run_migrations(conn: &Connection) -> Result<(), StoreError> {
    let recorded: u32 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(db)?;
    for migration in migrations::pending(migrations::SQLITE, recorded)? {
        let had = match migration.adds {
            Some((table, column)) if recorded == 0 => has_column(conn, table, column)?,
            _ => false,
        };
        if !had {
            conn.execute_batch(migration.sql).map_err(db)?;
        }
    }
    let latest = migrations::latest(migrations::SQLITE);
    conn.execute_batch(&format!("PRAGMA user_version = {latest}"))
        .map_err(db)
}

/// Whether `table` has `column` (both names come from the migrations, never from input).
fn has_column(conn: &Connection, table: &str, column: &str) -> Result<bool, StoreError> {
    conn.prepare(&format!(
        "SELECT 1 FROM pragma_table_info('{table}') WHERE name = ?"
    ))
    .and_then(|mut stmt| stmt.exists([column]))
    .map_err(db)
}

/// A skill summary from the columns `slug, display_name, summary, handle, updated_at,
/// downloads, latest version`.
fn summary_row(r: &rusqlite::Row) -> rusqlite::Result<SkillSummary> {
    Ok(SkillSummary {
        slug: r.get(0)?,
        display_name: r.get(1)?,
        summary: r.get(2)?,
        owner_handle: r.get(3)?,
        updated_at: r.get(4)?,
        downloads: r.get::<_, i64>(5)?.max(0) as u64,
        version: r.get(6)?,
    })
}

fn user_row(r: &rusqlite::Row) -> rusqlite::Result<User> {
    Ok(User {
        id: r.get(0)?,
        handle: r.get(1)?,
        display_name: r.get(2)?,
        admin: r.get::<_, i64>(3)? != 0,
    })
}

fn version_info(conn: &Connection, version_id: i64) -> Result<VersionInfo, StoreError> {
    #[allow(clippy::type_complexity)]
    let (version, created_at, changelog, fingerprint, moderation, findings, signature): (
        String,
        i64,
        String,
        String,
        String,
        String,
        Option<String>,
    ) = conn
        .query_row(
            "SELECT version, created_at, changelog, fingerprint, moderation, findings, signature FROM versions WHERE id = ?",
            [version_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?)),
        )
        .map_err(db)?;
    let mut stmt = conn
        .prepare_cached("SELECT path, size, sha256, content_type FROM version_files WHERE version_id = ? ORDER BY path")
        .map_err(db)?;
    let files = stmt
        .query_map([version_id], |r| {
            Ok(FileInfo {
                path: r.get(0)?,
                size: r.get::<_, i64>(1)? as u64,
                sha256: r.get(2)?,
                content_type: r.get(3)?,
            })
        })
        .map_err(db)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(db)?;
    Ok(VersionInfo {
        version,
        created_at,
        changelog,
        fingerprint,
        files,
        moderation: Moderation::parse(&moderation),
        findings: parse_findings(&findings),
        signature,
    })
}

/// The live skill's id and owner id.
fn live_skill(conn: &Connection, slug: &str) -> Result<Option<(i64, i64)>, StoreError> {
    conn.query_row(
        "SELECT id, owner_id FROM skills WHERE slug = ? AND deleted_at IS NULL",
        [slug],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
    .map_err(db)
}

/// An FTS5 query matching any of the words of `query` (each quoted, so no syntax leaks in).
fn fts_query(query: &str) -> Option<String> {
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| format!("\"{}\"", w.to_lowercase()))
        .collect();
    (!words.is_empty()).then(|| words.join(" OR "))
}

/// The rowid of the oldest of the newest [`SEARCH_CANDIDATES`] matches of `fts` (0 when there
/// are fewer): the search ranks only the matches from there on.
fn search_floor(conn: &Connection, fts: &str) -> Result<i64, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT rowid FROM skill_search WHERE skill_search MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?",
        )
        .and_then(|mut stmt| {
            stmt.query_row(params![fts, SEARCH_CANDIDATES - 1], |r| r.get(0))
                .optional()
        })
        .map_err(db)?
        .unwrap_or(0))
}

/// A row of the search query, scored: `wanted` is the slug the query spells.
fn search_hit(r: &rusqlite::Row, wanted: &str) -> rusqlite::Result<SearchHit> {
    let slug: String = r.get(0)?;
    let rank: f64 = r.get(5)?;
    // bm25 is lower-is-better and negative; an exact slug outranks every text match.
    let boost = if slug == wanted { 100.0 } else { 0.0 };
    Ok(SearchHit {
        slug,
        display_name: r.get(1)?,
        summary: r.get(2)?,
        owner_handle: r.get(3)?,
        updated_at: r.get(4)?,
        version: r.get(6)?,
        score: -rank + boost + 0.001,
    })
}

/// The id of the skill `slug` unless it is deleted.
fn live_skill_id(conn: &Connection, slug: &str) -> Result<Option<i64>, StoreError> {
    conn.query_row(
        "SELECT id FROM skills WHERE slug = ? AND deleted_at IS NULL",
        [slug],
        |r| r.get(0),
    )
    .optional()
    .map_err(db)
}

impl Store for SqliteStore {
    fn explore(
        &self,
        order: ExploreOrder,
        prefix: Option<&str>,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let conn = self.conn()?;
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT s.slug FROM (
                     SELECT k.*, (SELECT COUNT(*) FROM stars st WHERE st.skill_id = k.id) AS stars FROM skills k
                     WHERE k.deleted_at IS NULL AND (?1 IS NULL OR substr(k.slug, 1, length(?1)) = ?1)
                       AND EXISTS (SELECT 1 FROM versions v WHERE v.skill_id = k.id AND v.deleted_at IS NULL AND v.moderation = 'live')
                 ) s ORDER BY {} LIMIT ?2 OFFSET ?3",
                order.order_by()
            ))
            .map_err(db)?;
        let page = Page::new(offset, limit);
        stmt.query_map(
            params![explore_prefix(prefix), page.limit, page.offset],
            |r| r.get(0),
        )
        .map_err(db)?
        .collect::<Result<Vec<_>, _>>()
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
            .conn()?
            .query_row(
                "SELECT COUNT(*) FROM stars st JOIN skills s ON s.id = st.skill_id WHERE s.slug = ?",
                [rules::normalise_slug(slug)],
                |r| r.get(0),
            )
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
        let conn = self.conn()?;
        conn.execute(
            "INSERT INTO users (handle, display_name, created_at) VALUES (?, ?, ?)",
            params![handle, display_name, now_ms()],
        )
        .map_err(|e| match e {
            rusqlite::Error::SqliteFailure(f, _)
                if f.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                super::handle_taken(&handle)
            }
            e => db(e),
        })?;
        Ok(User {
            id: conn.last_insert_rowid(),
            handle,
            display_name: display_name.map(str::to_owned),
            admin: false,
        })
    }

    fn create_token(&self, handle: &str, terms: &NewToken) -> Result<String, StoreError> {
        let handle = handle.trim().trim_start_matches('@').to_lowercase();
        let token = new_token()?;
        let conn = self.conn()?;
        let user_id: i64 = conn
            .query_row("SELECT id FROM users WHERE handle = ?", [&handle], |r| {
                r.get(0)
            })
            .optional()
            .map_err(db)?
            .ok_or_else(|| {
                StoreError::NotFound(format!(
                    "no user @{handle}; create it with `skill registry user add {handle}`"
                ))
            })?;
        conn.execute(
            "INSERT INTO tokens (user_id, sha256, label, created_at, scopes, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
            params![user_id, sha256_hex(token.as_bytes()), terms.label, now_ms(), terms.scopes.to_text(), terms.expires_at],
        )
        .map_err(db)?;
        Ok(token)
    }

    fn tokens(&self, handle: &str) -> Result<Vec<TokenInfo>, StoreError> {
        let handle = handle.trim().trim_start_matches('@').to_lowercase();
        let conn = self.conn()?;
        let mut stmt = conn
            .prepare(
                "SELECT t.id, t.label, t.created_at, t.scopes, t.expires_at FROM tokens t JOIN users u ON u.id = t.user_id WHERE u.handle = ? ORDER BY t.id",
            )
            .map_err(db)?;
        let rows = stmt
            .query_map([&handle], |r| {
                Ok(TokenInfo {
                    id: r.get(0)?,
                    label: r.get(1)?,
                    created_at: r.get(2)?,
                    scopes: Scopes::from_text(&r.get::<_, String>(3)?),
                    expires_at: r.get(4)?,
                })
            })
            .map_err(db)?;
        rows.collect::<Result<_, _>>().map_err(db)
    }

    fn revoke_token(&self, handle: &str, id: i64) -> Result<(), StoreError> {
        let handle = handle.trim().trim_start_matches('@').to_lowercase();
        let removed = self
            .conn()?
            .execute(
                "DELETE FROM tokens WHERE id = ? AND user_id = (SELECT id FROM users WHERE handle = ?)",
                params![id, handle],
            )
            .map_err(db)?;
        if removed == 0 {
            return Err(super::no_token(&handle, id));
        }
        Ok(())
    }

    fn grant_for_token(&self, token: &str) -> Result<Option<Grant>, StoreError> {
        self.conn()?
            .query_row(
                "SELECT u.id, u.handle, u.display_name, u.admin, t.id, t.scopes FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.sha256 = ? AND (t.expires_at IS NULL OR t.expires_at > ?)",
                params![sha256_hex(token.trim().as_bytes()), now_ms()],
                |r| Ok(Grant::of(user_row(r)?, r.get(4)?, &r.get::<_, String>(5)?)),
            )
            .optional()
            .map_err(db)
    }

    fn record_audit(&self, entry: &AuditEntry) -> Result<(), StoreError> {
        self.conn()?
            .execute(
                "INSERT INTO audit_log (at, actor, action, slug, version, note) VALUES (?, ?, ?, ?, ?, ?)",
                params![entry.at, entry.actor, entry.action, entry.slug, entry.version, entry.note],
            )
            .map_err(db)?;
        Ok(())
    }

    fn publish(&self, user: &User, request: &PublishRequest) -> Result<Published, StoreError> {
        flow::publish(self, user, request)
    }

    fn skill(&self, slug: &str) -> Result<Option<SkillInfo>, StoreError> {
        let conn = self.conn()?;
        let row = conn
            .query_row(
                "SELECT s.id, s.slug, s.display_name, s.summary, u.handle, s.created_at, s.updated_at, s.downloads FROM skills s JOIN users u ON u.id = s.owner_id WHERE s.slug = ? AND s.deleted_at IS NULL",
                [rules::normalise_slug(slug)],
                |r| Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get::<_, i64>(7)?)),
            )
            .optional()
            .map_err(db)?;
        let Some((
            id,
            slug,
            display_name,
            summary,
            owner_handle,
            created_at,
            updated_at,
            downloads,
        )) = row
        else {
            return Ok(None);
        };
        let mut stmt = conn.prepare_cached("SELECT t.tag, v.version FROM tags t JOIN versions v ON v.id = t.version_id WHERE t.skill_id = ? ORDER BY t.tag").map_err(db)?;
        let tags = stmt
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(db)?
            .collect::<Result<BTreeMap<_, _>, _>>()
            .map_err(db)?;
        let versions: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM versions WHERE skill_id = ? AND deleted_at IS NULL AND moderation = 'live'",
                [id],
                |r| r.get(0),
            )
            .map_err(db)?;
        let latest = match flow::latest_version(&mut SqliteSteps(&conn), id)? {
            Some((version_id, _)) => Some(version_info(&conn, version_id)?),
            None => None,
        };
        Ok(Some(SkillInfo {
            slug,
            display_name,
            summary,
            owner_handle,
            created_at,
            updated_at,
            latest,
            tags,
            versions: versions as u64,
            downloads: downloads as u64,
        }))
    }

    fn version(&self, slug: &str, version: &str) -> Result<Option<VersionInfo>, StoreError> {
        let conn = self.conn()?;
        let Some((skill_id, _)) = live_skill(&conn, &rules::normalise_slug(slug))? else {
            return Ok(None);
        };
        let id: Option<i64> = conn
            .query_row(
                "SELECT id FROM versions WHERE skill_id = ? AND version = ? AND deleted_at IS NULL AND moderation = 'live'",
                params![skill_id, version.trim()],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)?;
        id.map(|id| version_info(&conn, id)).transpose()
    }

    fn versions(&self, slug: &str) -> Result<Vec<VersionInfo>, StoreError> {
        let conn = self.conn()?;
        let Some((skill_id, _)) = live_skill(&conn, &rules::normalise_slug(slug))? else {
            return Err(StoreError::NotFound("Skill not found".into()));
        };
        let mut stmt = conn.prepare_cached("SELECT id FROM versions WHERE skill_id = ? AND deleted_at IS NULL AND moderation = 'live' ORDER BY created_at DESC, id DESC").map_err(db)?;
        let ids = stmt
            .query_map([skill_id], |r| r.get::<_, i64>(0))
            .map_err(db)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db)?;
        ids.into_iter().map(|id| version_info(&conn, id)).collect()
    }

    fn file(&self, slug: &str, version: &str, path: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.file_of(Moderation::Live, slug, version, path)
    }

    fn resolve(&self, slug: &str, fingerprint: &str) -> Result<Option<String>, StoreError> {
        let conn = self.conn()?;
        let Some((skill_id, _)) = live_skill(&conn, &rules::normalise_slug(slug))? else {
            return Err(StoreError::NotFound("Skill not found".into()));
        };
        conn.query_row(
            "SELECT version FROM versions WHERE skill_id = ? AND fingerprint = ? AND deleted_at IS NULL AND moderation = 'live' ORDER BY created_at DESC, id DESC LIMIT 1",
            params![skill_id, fingerprint.to_lowercase()],
            |r| r.get(0),
        )
        .optional()
        .map_err(db)
    }

    fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, StoreError> {
        let Some(fts) = fts_query(query) else {
            return Ok(Vec::new());
        };
        let conn = self.conn()?;
        // Ranking every match of a common word costs milliseconds per thousand skills, so only
        // the newest SEARCH_CANDIDATES matches are ranked: FTS5 finds the rowid that bounds them
        // without scoring anything, and a rowid range keeps its fast path.
        let floor = search_floor(&conn, &fts)?;
        let mut stmt = conn
            .prepare_cached(
                // Only the page's rows get a handle and a version.
                "WITH ranked AS (
                     SELECT s.id, s.slug, s.display_name, s.summary, s.owner_id, s.updated_at, skill_search.rank AS rank
                     FROM skill_search JOIN skills s ON s.id = skill_search.rowid
                     WHERE skill_search MATCH ? AND skill_search.rowid BETWEEN ? AND ? AND s.deleted_at IS NULL
                     ORDER BY rank LIMIT ?)
                 SELECT r.slug, r.display_name, r.summary, u.handle, r.updated_at, r.rank,
                        (SELECT v.version FROM tags t JOIN versions v ON v.id = t.version_id WHERE t.skill_id = r.id AND t.tag = 'latest')
                 FROM ranked r JOIN users u ON u.id = r.owner_id",
            )
            .map_err(db)?;
        let wanted = rules::normalise_slug(query);
        let mut ranked = |low: i64, high: i64, limit: usize| {
            stmt.query_map(params![fts, low, high, limit as i64], |r| {
                search_hit(r, &wanted)
            })?
            .collect::<Result<Vec<_>, _>>()
        };
        let mut hits = ranked(floor, i64::MAX, limit).map_err(db)?;
        // The skill the query names is found wherever it is in the window.
        if !hits.iter().any(|h| h.slug == wanted) {
            let id = live_skill_id(&conn, &wanted)?;
            if let Some(id) = id {
                hits.extend(ranked(id, id, 1).map_err(db)?);
            }
        }
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(limit);
        Ok(hits)
    }

    fn delete_skill(&self, user: &User, slug: &str) -> Result<(), StoreError> {
        flow::set_deleted(self, user, slug, Some(now_ms()))
    }

    fn undelete_skill(&self, user: &User, slug: &str) -> Result<(), StoreError> {
        flow::set_deleted(self, user, slug, None)
    }

    fn create_ticket(&self, id: &str, ticket: &UploadTicket) -> Result<(), StoreError> {
        let conn = self.conn()?;
        conn.execute(
            "DELETE FROM upload_tickets WHERE expires_at < ?",
            [now_ms()],
        )
        .map_err(db)?;
        conn.execute(
            "INSERT INTO upload_tickets (id, user_id, path, size, sha256, content_type, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            params![id, ticket.user_id, ticket.path, ticket.size as i64, ticket.sha256, ticket.content_type, ticket.expires_at],
        )
        .map_err(db)?;
        Ok(())
    }

    fn ticket(&self, id: &str) -> Result<Option<UploadTicket>, StoreError> {
        self.conn()?
            .query_row(
                "SELECT user_id, path, size, sha256, content_type, expires_at, data FROM upload_tickets WHERE id = ?",
                [id],
                |r| {
                    Ok(UploadTicket {
                        user_id: r.get(0)?,
                        path: r.get(1)?,
                        size: r.get::<_, i64>(2)? as u64,
                        sha256: r.get(3)?,
                        content_type: r.get(4)?,
                        expires_at: r.get(5)?,
                        bytes: r.get(6)?,
                    })
                },
            )
            .optional()
            .map_err(db)
    }

    fn fill_ticket(&self, id: &str, bytes: &[u8]) -> Result<bool, StoreError> {
        let filled = self
            .conn()?
            .execute(
                "UPDATE upload_tickets SET data = ? WHERE id = ? AND data IS NULL",
                params![bytes, id],
            )
            .map_err(db)?;
        Ok(filled == 1)
    }

    fn user(&self, handle: &str) -> Result<Option<User>, StoreError> {
        self.conn()?
            .query_row(
                "SELECT id, handle, display_name, admin FROM users WHERE handle = ?",
                [normalise_handle(handle)],
                user_row,
            )
            .optional()
            .map_err(db)
    }

    fn list_skills(
        &self,
        owner: Option<&str>,
        order: SkillOrder,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<SkillSummary>, StoreError> {
        let order_by = order.order_by();
        let conn = self.conn()?;
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT s.slug, s.display_name, s.summary, u.handle, s.updated_at, s.downloads,
                        (SELECT v.version FROM tags t JOIN versions v ON v.id = t.version_id WHERE t.skill_id = s.id AND t.tag = 'latest')
                 FROM skills s JOIN users u ON u.id = s.owner_id
                 WHERE s.deleted_at IS NULL AND (?1 IS NULL OR u.handle = ?1)
                   AND EXISTS (SELECT 1 FROM versions v WHERE v.skill_id = s.id AND v.deleted_at IS NULL AND v.moderation = 'live')
                 ORDER BY {order_by} LIMIT ?2 OFFSET ?3"
            ))
            .map_err(db)?;
        let owner = owner.map(normalise_handle);
        let page = Page::new(offset, limit);
        stmt.query_map(params![owner, page.limit, page.offset], summary_row)
            .map_err(db)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db)
    }

    fn changed_after(
        &self,
        after: Option<(i64, &str)>,
        limit: usize,
    ) -> Result<Vec<SkillSummary>, StoreError> {
        let (at, slug) = after.unwrap_or((i64::MIN, ""));
        let conn = self.conn()?;
        let mut stmt = conn
            .prepare_cached(
                "SELECT s.slug, s.display_name, s.summary, u.handle, s.updated_at, s.downloads,
                        (SELECT v.version FROM tags t JOIN versions v ON v.id = t.version_id WHERE t.skill_id = s.id AND t.tag = 'latest')
                 FROM skills s JOIN users u ON u.id = s.owner_id
                 WHERE s.deleted_at IS NULL AND (s.updated_at > ?1 OR (s.updated_at = ?1 AND s.slug > ?2))
                   AND EXISTS (SELECT 1 FROM versions v WHERE v.skill_id = s.id AND v.deleted_at IS NULL AND v.moderation = 'live')
                 ORDER BY s.updated_at, s.slug LIMIT ?3",
            )
            .map_err(db)?;
        let limit = Page::new(0, limit).limit;
        stmt.query_map(params![at, slug, limit], summary_row)
            .map_err(db)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db)
    }

    fn count_downloads(&self, counts: &[(String, u64)]) -> Result<(), StoreError> {
        let mut conn = self.conn()?;
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(db)?;
        {
            let mut stmt = tx
                .prepare_cached("UPDATE skills SET downloads = downloads + ? WHERE slug = ? AND deleted_at IS NULL")
                .map_err(db)?;
            for (slug, n) in counts {
                let n = i64::try_from(*n).unwrap_or(i64::MAX);
                stmt.execute(params![n, rules::normalise_slug(slug)])
                    .map_err(db)?;
            }
        }
        tx.commit().map_err(db)
    }

    fn set_admin(&self, handle: &str, admin: bool) -> Result<User, StoreError> {
        let handle = normalise_handle(handle);
        let conn = self.conn()?;
        let changed = conn
            .execute(
                "UPDATE users SET admin = ? WHERE handle = ?",
                params![i64::from(admin), handle],
            )
            .map_err(db)?;
        if changed == 0 {
            return Err(StoreError::NotFound(format!(
                "no user @{handle}; create it with `skill registry user add {handle}`"
            )));
        }
        conn.query_row(
            "SELECT id, handle, display_name, admin FROM users WHERE handle = ?",
            [handle],
            user_row,
        )
        .map_err(db)
    }

    fn held_version(&self, slug: &str, version: &str) -> Result<Option<HeldVersion>, StoreError> {
        let conn = self.conn()?;
        let row: Option<(i64, String, String)> = conn
            .query_row(
                "SELECT v.id, s.slug, u.handle FROM versions v JOIN skills s ON s.id = v.skill_id JOIN users u ON u.id = s.owner_id
                 WHERE s.slug = ? AND s.deleted_at IS NULL AND v.version = ? AND v.deleted_at IS NULL AND v.moderation = 'quarantined'",
                params![rules::normalise_slug(slug), version.trim()],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(db)?;
        row.map(|(id, slug, owner_handle)| {
            Ok(HeldVersion {
                slug,
                owner_handle,
                version: version_info(&conn, id)?,
            })
        })
        .transpose()
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
        let mut conn = self.conn()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let stored: String = tx
            .query_row(
                "SELECT findings FROM versions WHERE id = ?",
                [version_id],
                |r| r.get(0),
            )
            .map_err(db)?;
        let mut all = parse_findings(&stored);
        all.extend_from_slice(findings);
        let json =
            serde_json::to_string(&all).map_err(|e| StoreError::database(e.to_string(), e))?;
        tx.execute(
            "UPDATE versions SET findings = ? WHERE id = ?",
            params![json, version_id],
        )
        .map_err(db)?;
        tx.commit().map_err(db)
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.conn()?
            .query_row("SELECT EXISTS (SELECT 1 FROM skills)", [], |_| Ok(()))
            .map_err(db)?;
        self.blobs.as_deref().map_or(Ok(()), S3Blobs::ping)
    }

    fn quarantined_count(&self) -> Result<u64, StoreError> {
        self.conn()?
            .query_row(
                "SELECT count(*) FROM versions v JOIN skills s ON s.id = v.skill_id
                 WHERE s.deleted_at IS NULL AND v.deleted_at IS NULL AND v.moderation = 'quarantined'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n.max(0) as u64)
            .map_err(db)
    }

    fn quarantined(&self) -> Result<Vec<HeldVersion>, StoreError> {
        let conn = self.conn()?;
        let rows: Vec<(i64, String, String)> = conn
            .prepare(
                "SELECT v.id, s.slug, u.handle FROM versions v JOIN skills s ON s.id = v.skill_id JOIN users u ON u.id = s.owner_id
                 WHERE s.deleted_at IS NULL AND v.deleted_at IS NULL AND v.moderation = 'quarantined' ORDER BY v.created_at, v.id",
            )
            .and_then(|mut stmt| {
                stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                    .collect::<Result<_, _>>()
            })
            .map_err(db)?;
        rows.into_iter()
            .map(|(id, slug, owner_handle)| {
                Ok(HeldVersion {
                    slug,
                    owner_handle,
                    version: version_info(&conn, id)?,
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
        let conn = self.conn()?;
        let mut stmt = conn
            .prepare_cached(
                "SELECT at, actor, action, slug, version, note FROM audit_log WHERE ?1 IS NULL OR slug = ?1 ORDER BY id",
            )
            .map_err(db)?;
        stmt.query_map([slug.map(rules::normalise_slug)], |r| {
            Ok(AuditEntry {
                at: r.get(0)?,
                actor: r.get(1)?,
                action: r.get(2)?,
                slug: r.get(3)?,
                version: r.get(4)?,
                note: r.get(5)?,
            })
        })
        .map_err(db)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(db)
    }
}

impl flow::Backend for SqliteStore {
    fn blobs(&self) -> Option<&S3Blobs> {
        self.blobs.as_deref()
    }

    fn in_transaction<T>(
        &self,
        flow: impl FnOnce(&mut dyn Steps) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.conn()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let out = flow(&mut SqliteSteps(&tx))?;
        tx.commit().map_err(db)?;
        Ok(out)
    }

    fn on_connection<T>(
        &self,
        flow: impl FnOnce(&mut dyn Steps) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.conn()?;
        flow(&mut SqliteSteps(&conn))
    }
}

/// The flows' steps on one SQLite connection (or the transaction it is in).
struct SqliteSteps<'a>(&'a Connection);

/// True for the error of a broken UNIQUE or PRIMARY KEY constraint.
fn constraint_violation(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation)
}

impl Steps for SqliteSteps<'_> {
    fn lock_slug(&mut self, _slug: &str) -> Result<(), StoreError> {
        // `BEGIN IMMEDIATE` took the database's write lock: writes already run one at a time.
        Ok(())
    }

    fn use_ticket(&mut self, id: &str, user_id: i64) -> Result<bool, StoreError> {
        let used = self
            .0
            .execute(
                "DELETE FROM upload_tickets WHERE id = ? AND user_id = ? AND data IS NOT NULL",
                params![id, user_id],
            )
            .map_err(db)?;
        Ok(used == 1)
    }

    fn skill_owner(&mut self, slug: &str) -> Result<Option<(i64, i64)>, StoreError> {
        self.0
            .query_row(
                "SELECT id, owner_id FROM skills WHERE slug = ?",
                [slug],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
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
        self.0
            .execute(
                "INSERT INTO skills (slug, owner_id, display_name, summary, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                params![slug, owner_id, display_name, summary, now, now],
            )
            .map_err(db)?;
        Ok(self.0.last_insert_rowid())
    }

    fn version_numbers(&mut self, skill_id: i64) -> Result<Vec<String>, StoreError> {
        self.0
            .prepare_cached("SELECT version FROM versions WHERE skill_id = ?")
            .and_then(|mut stmt| {
                stmt.query_map([skill_id], |r| r.get(0))?
                    .collect::<Result<_, _>>()
            })
            .map_err(db)
    }

    fn insert_version(&mut self, row: &flow::NewVersion) -> Result<i64, StoreError> {
        self.0
            .execute(
                "INSERT INTO versions (skill_id, version, changelog, fingerprint, created_at, moderation, findings, pending, signature) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                params![
                    row.skill_id,
                    row.version,
                    row.changelog,
                    row.fingerprint,
                    row.created_at,
                    row.moderation.as_str(),
                    row.findings,
                    row.pending,
                    row.signature,
                ],
            )
            .map_err(db)?;
        Ok(self.0.last_insert_rowid())
    }

    fn put_blob(&mut self, sha256: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.0
            .execute(
                "INSERT OR IGNORE INTO blobs (sha256, data) VALUES (?, ?)",
                params![sha256, bytes],
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
            "INSERT INTO version_files (version_id, path, size, sha256, content_type) VALUES (?, ?, ?, ?, ?)",
            params![version_id, path, size, sha256, content_type],
        ) {
            Ok(_) => Ok(true),
            Err(e) if constraint_violation(&e) => Ok(false),
            Err(e) => Err(db(e)),
        }
    }

    fn live_versions(&mut self, skill_id: i64) -> Result<Vec<(i64, String)>, StoreError> {
        self.0
            .prepare_cached(
                "SELECT id, version FROM versions WHERE skill_id = ? AND deleted_at IS NULL AND moderation = 'live'",
            )
            .and_then(|mut stmt| {
                stmt.query_map([skill_id], |r| Ok((r.get(0)?, r.get(1)?)))?
                    .collect::<Result<_, _>>()
            })
            .map_err(db)
    }

    fn latest_tag(&mut self, skill_id: i64) -> Result<Option<i64>, StoreError> {
        self.0
            .query_row(
                "SELECT version_id FROM tags WHERE skill_id = ? AND tag = 'latest'",
                [skill_id],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)
    }

    fn put_tag(&mut self, skill_id: i64, tag: &str, version_id: i64) -> Result<(), StoreError> {
        self.0
            .execute(
                "INSERT OR REPLACE INTO tags (skill_id, tag, version_id) VALUES (?, ?, ?)",
                params![skill_id, tag, version_id],
            )
            .map_err(db)?;
        Ok(())
    }

    fn set_listing(&mut self, listing: &flow::Listing) -> Result<(), StoreError> {
        let conn = self.0;
        conn.execute(
            "UPDATE skills SET display_name = ?, summary = ?, updated_at = ? WHERE id = ?",
            params![
                listing.display_name,
                listing.summary,
                listing.now,
                listing.skill_id
            ],
        )
        .map_err(db)?;
        conn.execute(
            "DELETE FROM skill_search WHERE rowid = ?",
            [listing.skill_id],
        )
        .map_err(db)?;
        conn.execute(
            "INSERT INTO skill_search (rowid, slug, display_name, summary, body) VALUES (?, ?, ?, ?, ?)",
            params![
                listing.skill_id,
                listing.slug.replace('-', " "),
                listing.display_name,
                listing.summary.unwrap_or_default(),
                format!("{}\n{}", listing.tags, listing.skill_md)
            ],
        )
        .map_err(db)?;
        Ok(())
    }

    fn touch_skill(&mut self, skill_id: i64, now: i64) -> Result<(), StoreError> {
        self.0
            .execute(
                "UPDATE skills SET updated_at = ? WHERE id = ?",
                params![now, skill_id],
            )
            .map_err(db)?;
        Ok(())
    }

    fn audit(&mut self, entry: &AuditEntry) -> Result<(), StoreError> {
        self.0
            .execute(
                "INSERT INTO audit_log (at, actor, action, slug, version, note) VALUES (?, ?, ?, ?, ?, ?)",
                params![entry.at, entry.actor, entry.action, entry.slug, entry.version, entry.note],
            )
            .map_err(db)?;
        Ok(())
    }

    fn review_row(
        &mut self,
        slug: &str,
        version: &str,
    ) -> Result<Option<flow::ReviewRow>, StoreError> {
        self.0
            .query_row(
                "SELECT v.id, s.id, v.moderation, v.pending FROM versions v JOIN skills s ON s.id = v.skill_id
                 WHERE s.slug = ? AND v.version = ? AND v.deleted_at IS NULL",
                params![slug, version],
                |r| {
                    Ok(flow::ReviewRow {
                        version_id: r.get(0)?,
                        skill_id: r.get(1)?,
                        moderation: r.get(2)?,
                        pending: r.get(3)?,
                    })
                },
            )
            .optional()
            .map_err(db)
    }

    fn skill_md(&mut self, version_id: i64) -> Result<Option<(String, Vec<u8>)>, StoreError> {
        self.0
            .query_row(
                "SELECT b.sha256, b.data FROM version_files f JOIN blobs b ON b.sha256 = f.sha256 WHERE f.version_id = ? AND lower(f.path) = 'skill.md'",
                [version_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
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
                "UPDATE versions SET moderation = ?, pending = NULL, deleted_at = ? WHERE id = ?",
                params![moderation.as_str(), deleted_at, version_id],
            )
            .map_err(db)?;
        Ok(())
    }

    fn live_version_row(
        &mut self,
        skill_id: i64,
        version: &str,
    ) -> Result<Option<(i64, bool)>, StoreError> {
        self.0
            .query_row(
                "SELECT id, deleted_at IS NOT NULL FROM versions WHERE skill_id = ? AND version = ? AND moderation = 'live'",
                params![skill_id, version.trim()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(db)
    }

    fn withdraw_version(&mut self, version_id: i64, now: i64) -> Result<(), StoreError> {
        self.0
            .execute(
                "UPDATE versions SET deleted_at = ? WHERE id = ?",
                params![now, version_id],
            )
            .map_err(db)?;
        self.0
            .execute("DELETE FROM tags WHERE version_id = ?", [version_id])
            .map_err(db)?;
        Ok(())
    }

    fn restore_version(&mut self, version_id: i64) -> Result<(), StoreError> {
        self.0
            .execute(
                "UPDATE versions SET deleted_at = NULL WHERE id = ?",
                [version_id],
            )
            .map_err(db)?;
        Ok(())
    }

    fn set_skill_deleted(&mut self, skill_id: i64, at: Option<i64>) -> Result<(), StoreError> {
        self.0
            .execute(
                "UPDATE skills SET deleted_at = ? WHERE id = ?",
                params![at, skill_id],
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
                "INSERT OR IGNORE INTO stars (user_id, skill_id, created_at) VALUES (?, ?, ?)",
                params![user_id, skill_id, now],
            )
        } else {
            self.0.execute(
                "DELETE FROM stars WHERE user_id = ? AND skill_id = ?",
                params![user_id, skill_id],
            )
        }
        .map_err(db)?;
        Ok(changed > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open() -> (tempfile::TempDir, SqliteStore) {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path()).unwrap();
        (dir, store)
    }

    #[test]
    fn tokens_are_stored_as_hashes_only() {
        let (dir, store) = open();
        let token = super::super::suite::tokens(&store);
        drop(store);
        let raw = std::fs::read(dir.path().join("registry.sqlite3")).unwrap();
        let wal = std::fs::read(dir.path().join("registry.sqlite3-wal")).unwrap_or_default();
        let needle = token.as_bytes();
        assert!(
            !raw.windows(needle.len()).any(|w| w == needle)
                && !wal.windows(needle.len()).any(|w| w == needle)
        );
    }

    #[test]
    fn publish_rules_versions_and_latest() {
        super::super::suite::publish_rules_versions_and_latest(&open().1);
    }

    #[test]
    fn listing_text_is_bounded() {
        super::super::suite::listing_text_is_bounded(&open().1);
    }

    #[test]
    fn build_metadata_makes_no_new_version() {
        super::super::suite::build_metadata_makes_no_new_version(&open().1);
    }

    #[test]
    fn upload_tickets() {
        super::super::suite::upload_tickets(&open().1);
    }

    #[test]
    fn a_failed_publish_leaves_nothing() {
        super::super::suite::a_failed_publish_leaves_nothing(&open().1);
    }

    #[test]
    fn twenty_concurrent_publishes_of_one_version_leave_one() {
        super::super::suite::twenty_concurrent_publishes_of_one_version_leave_one(&open().1);
    }

    #[test]
    fn signatures() {
        super::super::suite::signatures(&open().1);
    }

    #[test]
    fn token_scopes_and_expiry() {
        super::super::suite::token_scopes_and_expiry(&open().1);
    }

    #[test]
    fn lists_users_and_downloads() {
        super::super::suite::lists_users_and_downloads(&open().1);
    }

    #[test]
    fn search_and_soft_delete() {
        super::super::suite::search_and_soft_delete(&open().1);
    }

    #[test]
    fn explore_stars_tags_and_withdrawn_versions() {
        super::super::suite::explore_stars_tags_and_withdrawn_versions(&open().1);
    }
}
