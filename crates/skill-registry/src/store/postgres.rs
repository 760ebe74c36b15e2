//! The scale-out backend: PostgreSQL, which any number of server processes can share. Same
//! tables as SQLite; blobs in `bytea`; search with a `tsvector` column ranked by `ts_rank`;
//! publishes of one slug serialised across processes by a transaction-scoped advisory lock.

use super::flow;
use super::migrations;
use super::sql::{Arg, Conn, Row, Value, args};
use super::sql_store::{Engine, SqlStore, search_hit};
use super::*;
use ::postgres::types::{ToSql, Type};
use ::postgres::{GenericClient, NoTls};
use r2d2_postgres::PostgresConnectionManager;

/// How long a new connection to the server may take, unless the URL sets `connect_timeout`.
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The PostgreSQL store.
pub type PostgresStore = SqlStore<Postgres>;

/// The PostgreSQL engine: a pool of connections to one database, which any number of server
/// processes can share.
pub struct Postgres {
    pool: r2d2::Pool<PostgresConnectionManager<NoTls>>,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Postgres").finish_non_exhaustive()
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

impl SqlStore<Postgres> {
    /// Connects to `url` (`postgres://user:password@host/db`) with one connection and creates
    /// the tables if needed.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        PostgresStore::open_with(url, 1)
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
        Ok(SqlStore {
            engine: Postgres { pool },
            blobs: None,
        })
    }
}

impl Postgres {
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

/// An argument as the driver takes it (a NULL keeps its type, which PostgreSQL checks).
fn driver_arg<'a>(arg: &'a Arg) -> &'a (dyn ToSql + Sync) {
    match arg {
        Arg::Int(n) => n,
        Arg::Text(text) => text,
        Arg::Bytes(bytes) => bytes,
        Arg::Bool(on) => on,
    }
}

/// A row's values as the store reads them, by the type of each column.
fn owned_row(row: &::postgres::Row) -> Result<Row, ::postgres::Error> {
    let mut values = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let value = if *ty == Type::INT8 {
            row.try_get::<_, Option<i64>>(i)?.map(Value::Int)
        } else if *ty == Type::INT4 {
            row.try_get::<_, Option<i32>>(i)?
                .map(|n| Value::Int(n.into()))
        } else if *ty == Type::FLOAT8 {
            row.try_get::<_, Option<f64>>(i)?.map(Value::Real)
        } else if *ty == Type::FLOAT4 {
            row.try_get::<_, Option<f32>>(i)?
                .map(|x| Value::Real(x.into()))
        } else if *ty == Type::BOOL {
            row.try_get::<_, Option<bool>>(i)?.map(Value::Bool)
        } else if *ty == Type::BYTEA {
            row.try_get::<_, Option<Vec<u8>>>(i)?.map(Value::Bytes)
        } else {
            // Text of any kind; another type is the driver's error, not a panic.
            row.try_get::<_, Option<String>>(i)?.map(Value::Text)
        };
        values.push(value.unwrap_or(Value::Null));
    }
    Ok(Row(values))
}

/// A client, or a transaction, running the store's statements.
struct PgConn<'a, C: GenericClient>(&'a mut C);

impl<C: GenericClient> PgConn<'_, C> {
    fn rows(&mut self, sql: &str, args: &[Arg]) -> Result<Vec<Row>, ::postgres::Error> {
        let args: Vec<&(dyn ToSql + Sync)> = args.iter().map(driver_arg).collect();
        self.0.query(sql, &args)?.iter().map(owned_row).collect()
    }
}

impl<C: GenericClient> Conn for PgConn<'_, C> {
    fn query(&mut self, sql: &str, args: &[Arg]) -> Result<Vec<Row>, StoreError> {
        self.rows(sql, args).map_err(db)
    }

    fn execute(&mut self, sql: &str, args: &[Arg]) -> Result<u64, StoreError> {
        let args: Vec<&(dyn ToSql + Sync)> = args.iter().map(driver_arg).collect();
        self.0.execute(sql, &args).map_err(db)
    }

    fn insert_new(&mut self, sql: &str, args: &[Arg]) -> Result<Option<Vec<Row>>, StoreError> {
        match self.rows(sql, args) {
            Ok(rows) => Ok(Some(rows)),
            Err(e) if unique_violation(&e) => Ok(None),
            Err(e) => Err(db(e)),
        }
    }
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

/// The GIN index finds the matches; ranking reads at most SEARCH_CANDIDATES of them (and the
/// exact slug), and only the page's rows get a handle and version.
const SEARCH: &str = "WITH q AS (SELECT to_tsquery('simple', $1) AS q),
     candidates AS (
         (SELECT s.id FROM skills s, q WHERE s.search @@ q.q AND s.deleted_at IS NULL LIMIT $3)
         UNION SELECT s.id FROM skills s WHERE s.slug = $4 AND s.deleted_at IS NULL),
     ranked AS (
         SELECT s.id, s.slug, s.display_name, s.summary, s.owner_id, s.updated_at, ts_rank(s.search, q.q) AS rank
         FROM candidates c JOIN skills s ON s.id = c.id, q
         ORDER BY s.slug = $4 DESC, rank DESC LIMIT $2)
     SELECT r.slug, r.display_name, r.summary, u.handle, r.updated_at, r.rank::float8,
            (SELECT v.version FROM tags t JOIN versions v ON v.id = t.version_id WHERE t.skill_id = r.id AND t.tag = 'latest')
     FROM ranked r JOIN users u ON u.id = r.owner_id";

/// `ts_rank` is higher-is-better and positive.
fn relevance(rank: f64) -> f64 {
    rank
}

impl Engine for Postgres {
    const BYTEWISE: &'static str = " COLLATE \"C\"";
    const FOR_UPDATE: &'static str = " FOR UPDATE";

    fn on_connection<T>(
        &self,
        work: impl FnOnce(&mut dyn Conn) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut client = self.client()?;
        work(&mut PgConn(&mut *client))
    }

    fn in_transaction<T>(
        &self,
        work: impl FnOnce(&mut dyn Conn) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(db)?;
        let out = work(&mut PgConn(&mut tx))?;
        tx.commit().map_err(db)?;
        Ok(out)
    }

    fn lock_slug(c: &mut dyn Conn, slug: &str) -> Result<(), StoreError> {
        // Transaction-scoped, so it holds across server processes until commit or rollback.
        c.execute("SELECT pg_advisory_xact_lock(hashtext($1))", args![slug])?;
        Ok(())
    }

    fn index_listing(c: &mut dyn Conn, listing: &flow::Listing) -> Result<(), StoreError> {
        let document = format!(
            "{} {} {} {}\n{}",
            listing.slug.replace('-', " "),
            listing.display_name,
            listing.summary.unwrap_or_default(),
            listing.tags,
            listing.skill_md
        );
        c.execute(
            "UPDATE skills SET search = to_tsvector('simple', $1) WHERE id = $2",
            args![&document, listing.skill_id],
        )?;
        Ok(())
    }

    fn search(c: &mut dyn Conn, query: &str, limit: usize) -> Result<Vec<SearchHit>, StoreError> {
        let Some(tsq) = ts_query(query) else {
            return Ok(Vec::new());
        };
        let wanted = rules::normalise_slug(query);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut hits = c
            .query(SEARCH, args![&tsq, limit, SEARCH_CANDIDATES, &wanted])?
            .into_iter()
            .map(|r| search_hit(r, &wanted, relevance))
            .collect::<Result<Vec<_>, StoreError>>()?;
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        Ok(hits)
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
