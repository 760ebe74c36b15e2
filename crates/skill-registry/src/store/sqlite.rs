//! The embedded backend: one SQLite database (WAL) under the data folder, blobs in it by SHA-256,
//! FTS5 for search. Writes run in `BEGIN IMMEDIATE` transactions, so a publish is all or nothing
//! and concurrent publishes of one version number serialise: one wins, the rest conflict.

use super::flow;
use super::migrations;
use super::sql::{Arg, Conn, Row, Value, args, numbered_for_sqlite};
use super::sql_store::{Engine, SqlStore, search_hit};
use super::*;
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, TransactionBehavior};
use std::path::Path;

/// How many matches of a search are ranked (the newest ones): enough that a query's best are
/// among them, few enough that a word every skill has costs the same at 100,000 skills as at
/// 1,000.
const SEARCH_CANDIDATES: i64 = 500;

/// The SQLite store.
pub type SqliteStore = SqlStore<Sqlite>;

/// The SQLite engine: a pool of connections to one database in WAL mode, so reads run side by
/// side and never wait for a write; writes take SQLite's write lock in `BEGIN IMMEDIATE`
/// transactions, one at a time, waiting up to the busy timeout.
#[derive(Debug)]
pub struct Sqlite {
    pool: r2d2::Pool<Connector>,
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

impl SqlStore<Sqlite> {
    /// Opens (creating if needed) `registry.sqlite3` under `data_dir`, with one connection
    /// (what an administrative command needs).
    pub fn open(data_dir: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(data_dir, 1)
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
        Ok(SqlStore {
            engine: Sqlite { pool },
            blobs: None,
        })
    }
}

impl Sqlite {
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

impl rusqlite::ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match *self {
            Arg::Int(Some(n)) => ValueRef::Integer(n),
            Arg::Text(Some(text)) => ValueRef::Text(text.as_bytes()),
            Arg::Bytes(Some(bytes)) => ValueRef::Blob(bytes),
            Arg::Bool(on) => ValueRef::Integer(i64::from(on)),
            Arg::Int(None) | Arg::Text(None) | Arg::Bytes(None) => ValueRef::Null,
        }))
    }
}

/// A row's values as the store reads them.
fn owned_row(row: &rusqlite::Row) -> rusqlite::Result<Row> {
    let columns = row.as_ref().column_count();
    let mut values = Vec::with_capacity(columns);
    for i in 0..columns {
        values.push(match row.get_ref(i)? {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(n) => Value::Int(n),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Text(text) => Value::Text(String::from_utf8_lossy(text).into_owned()),
            ValueRef::Blob(bytes) => Value::Bytes(bytes.to_vec()),
        });
    }
    Ok(Row(values))
}

/// A connection, or the transaction open on it, running the store's statements.
struct SqliteConn<'a>(&'a Connection);

impl SqliteConn<'_> {
    fn statement(&self, sql: &str) -> rusqlite::Result<rusqlite::CachedStatement<'_>> {
        self.0.prepare_cached(&numbered_for_sqlite(sql))
    }

    fn rows(&self, sql: &str, args: &[Arg]) -> rusqlite::Result<Vec<Row>> {
        self.statement(sql)?
            .query_map(rusqlite::params_from_iter(args), owned_row)?
            .collect()
    }
}

/// True for the error of a broken UNIQUE or PRIMARY KEY constraint.
fn constraint_violation(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation)
}

impl Conn for SqliteConn<'_> {
    fn query(&mut self, sql: &str, args: &[Arg]) -> Result<Vec<Row>, StoreError> {
        self.rows(sql, args).map_err(db)
    }

    fn execute(&mut self, sql: &str, args: &[Arg]) -> Result<u64, StoreError> {
        self.statement(sql)
            .and_then(|mut stmt| stmt.execute(rusqlite::params_from_iter(args)))
            .map(|n| n as u64)
            .map_err(db)
    }

    fn insert_new(&mut self, sql: &str, args: &[Arg]) -> Result<Option<Vec<Row>>, StoreError> {
        match self.rows(sql, args) {
            Ok(rows) => Ok(Some(rows)),
            Err(e) if constraint_violation(&e) => Ok(None),
            Err(e) => Err(db(e)),
        }
    }
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
fn search_floor(c: &mut dyn Conn, fts: &str) -> Result<i64, StoreError> {
    Ok(c.query_opt(
        "SELECT rowid FROM skill_search WHERE skill_search MATCH $1 ORDER BY rowid DESC LIMIT 1 OFFSET $2",
        args![fts, SEARCH_CANDIDATES - 1],
    )?
    .map(|mut r| r.get(0))
    .transpose()?
    .unwrap_or(0))
}

/// The search's ranked matches of `fts` whose rowid is from `low` to `high`, at most `limit`;
/// only the page's rows get a handle and a version.
const RANKED: &str = "WITH ranked AS (
         SELECT s.id, s.slug, s.display_name, s.summary, s.owner_id, s.updated_at, skill_search.rank AS rank
         FROM skill_search JOIN skills s ON s.id = skill_search.rowid
         WHERE skill_search MATCH $1 AND skill_search.rowid BETWEEN $2 AND $3 AND s.deleted_at IS NULL
         ORDER BY rank LIMIT $4)
     SELECT r.slug, r.display_name, r.summary, u.handle, r.updated_at, r.rank,
            (SELECT v.version FROM tags t JOIN versions v ON v.id = t.version_id WHERE t.skill_id = r.id AND t.tag = 'latest')
     FROM ranked r JOIN users u ON u.id = r.owner_id";

/// bm25 is lower-is-better and negative.
fn relevance(rank: f64) -> f64 {
    -rank
}

impl Engine for Sqlite {
    const BYTEWISE: &'static str = "";
    const FOR_UPDATE: &'static str = "";

    fn on_connection<T>(
        &self,
        work: impl FnOnce(&mut dyn Conn) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.conn()?;
        work(&mut SqliteConn(&conn))
    }

    fn in_transaction<T>(
        &self,
        work: impl FnOnce(&mut dyn Conn) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.conn()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let out = work(&mut SqliteConn(&tx))?;
        tx.commit().map_err(db)?;
        Ok(out)
    }

    fn lock_slug(_: &mut dyn Conn, _: &str) -> Result<(), StoreError> {
        // `BEGIN IMMEDIATE` took the database's write lock: writes already run one at a time.
        Ok(())
    }

    fn index_listing(c: &mut dyn Conn, listing: &flow::Listing) -> Result<(), StoreError> {
        c.execute(
            "DELETE FROM skill_search WHERE rowid = $1",
            args![listing.skill_id],
        )?;
        c.execute(
            "INSERT INTO skill_search (rowid, slug, display_name, summary, body) VALUES ($1, $2, $3, $4, $5)",
            args![
                listing.skill_id,
                &listing.slug.replace('-', " "),
                listing.display_name,
                listing.summary.unwrap_or_default(),
                &format!("{}\n{}", listing.tags, listing.skill_md)
            ],
        )?;
        Ok(())
    }

    fn search(c: &mut dyn Conn, query: &str, limit: usize) -> Result<Vec<SearchHit>, StoreError> {
        let Some(fts) = fts_query(query) else {
            return Ok(Vec::new());
        };
        // Ranking every match of a common word costs milliseconds per thousand skills, so only
        // the newest SEARCH_CANDIDATES matches are ranked: FTS5 finds the rowid that bounds them
        // without scoring anything, and a rowid range keeps its fast path.
        let floor = search_floor(c, &fts)?;
        let wanted = rules::normalise_slug(query);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let ranked = |c: &mut dyn Conn, low: i64, high: i64, limit: i64| {
            c.query(RANKED, args![&fts, low, high, limit])?
                .into_iter()
                .map(|r| search_hit(r, &wanted, relevance))
                .collect::<Result<Vec<_>, StoreError>>()
        };
        let mut hits = ranked(c, floor, i64::MAX, limit)?;
        // The skill the query names is found wherever it is in the window.
        if !hits.iter().any(|h| h.slug == wanted)
            && let Some((id, _)) = super::sql_store::live_skill(c, &wanted)?
        {
            hits.extend(ranked(c, id, id, 1)?);
        }
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(hits)
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
