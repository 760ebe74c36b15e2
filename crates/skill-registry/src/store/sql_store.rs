//! The one store: every read and every step of the write flows written once, in SQL that both
//! engines run, over an [`Engine`] that supplies connections and transactions and the little
//! only it can do (search, the search index, a lock per slug).

use super::flow::{self, Steps};
use super::sql::{Conn, Row, args};
use super::sql_steps::SqlSteps;
use super::*;
use skill_model::fingerprint::sha256_hex;

/// A registry store on a SQL engine ([`SqliteStore`], [`PostgresStore`]).
pub struct SqlStore<E> {
    pub(super) engine: E,
    pub(super) blobs: Option<std::sync::Arc<S3Blobs>>,
}

impl<E> std::fmt::Debug for SqlStore<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqlStore")
            .field("blobs", &self.blobs.is_some())
            .finish_non_exhaustive()
    }
}

impl<E> SqlStore<E> {
    /// The same store with file contents kept in `blobs` instead of the database.
    pub fn with_blobs(self, blobs: std::sync::Arc<S3Blobs>) -> SqlStore<E> {
        SqlStore {
            blobs: Some(blobs),
            ..self
        }
    }
}

/// What differs between SQL engines: how to get a connection and a write transaction, and the
/// statements the two cannot share.
pub(super) trait Engine: Send + Sync {
    /// The clause that orders text byte by byte after a column ("" where that is the default).
    const BYTEWISE: &'static str;
    /// The clause that locks the rows a query in a write transaction reads ("" where the
    /// transaction holds the whole database).
    const FOR_UPDATE: &'static str;

    /// Runs `work` on one connection, each statement on its own.
    fn on_connection<T>(
        &self,
        work: impl FnOnce(&mut dyn Conn) -> Result<T, StoreError>,
    ) -> Result<T, StoreError>;

    /// Runs `work` in one write transaction: committed when it returns `Ok`, rolled back when it
    /// returns an error.
    fn in_transaction<T>(
        &self,
        work: impl FnOnce(&mut dyn Conn) -> Result<T, StoreError>,
    ) -> Result<T, StoreError>;

    /// Serialises the transaction with every other write to `slug` (nothing to do where write
    /// transactions already run one at a time).
    fn lock_slug(conn: &mut dyn Conn, slug: &str) -> Result<(), StoreError>;

    /// Writes the search entry of a skill whose latest version changed.
    fn index_listing(conn: &mut dyn Conn, listing: &flow::Listing) -> Result<(), StoreError>;

    /// [`Store::search`].
    fn search(conn: &mut dyn Conn, query: &str, limit: usize)
    -> Result<Vec<SearchHit>, StoreError>;
}

/// The columns of a [`SkillSummary`], over `skills s JOIN users u`.
const SUMMARY_FROM: &str = "SELECT s.slug, s.display_name, s.summary, u.handle, s.updated_at, s.downloads,
        (SELECT v.version FROM tags t JOIN versions v ON v.id = t.version_id WHERE t.skill_id = s.id AND t.tag = 'latest')
 FROM skills s JOIN users u ON u.id = s.owner_id";

/// The condition of a skill the lists show: not deleted, with a live version.
const LISTED: &str = "s.deleted_at IS NULL
   AND EXISTS (SELECT 1 FROM versions v WHERE v.skill_id = s.id AND v.deleted_at IS NULL AND v.moderation = 'live')";

/// The columns of a [`User`].
const USER_COLUMNS: &str = "id, handle, display_name, admin";

const NO_SKILL: &str = "Skill not found";

/// A skill summary from [`SUMMARY_FROM`]'s columns.
fn summary_row(mut r: Row) -> Result<SkillSummary, StoreError> {
    Ok(SkillSummary {
        slug: r.get(0)?,
        display_name: r.get(1)?,
        summary: r.get(2)?,
        owner_handle: r.get(3)?,
        updated_at: r.get(4)?,
        downloads: r.count(5)?,
        version: r.get(6)?,
    })
}

/// A user from [`USER_COLUMNS`], starting at column `at`.
fn user_row(r: &mut Row, at: usize) -> Result<User, StoreError> {
    Ok(User {
        id: r.get(at)?,
        handle: r.get(at + 1)?,
        display_name: r.get(at + 2)?,
        admin: r.get(at + 3)?,
    })
}

/// A search hit from the columns `slug, display_name, summary, handle, updated_at, rank,
/// latest version`, scored by `relevance` of the engine's rank: `wanted` is the slug the query
/// spells, which outranks every text match.
pub(super) fn search_hit(
    mut r: Row,
    wanted: &str,
    relevance: fn(f64) -> f64,
) -> Result<SearchHit, StoreError> {
    let slug: String = r.get(0)?;
    let boost = if slug == wanted { 100.0 } else { 0.0 };
    Ok(SearchHit {
        score: relevance(r.get(5)?) + boost + 0.001,
        display_name: r.get(1)?,
        summary: r.get(2)?,
        owner_handle: r.get(3)?,
        updated_at: r.get(4)?,
        version: r.get(6)?,
        slug,
    })
}

fn version_info(c: &mut dyn Conn, version_id: i64) -> Result<VersionInfo, StoreError> {
    let mut r = c.query_one(
        "SELECT version, created_at, changelog, fingerprint, moderation, findings, signature FROM versions WHERE id = $1",
        args![version_id],
    )?;
    let files = c
        .query(
            "SELECT path, size, sha256, content_type FROM version_files WHERE version_id = $1 ORDER BY path",
            args![version_id],
        )?
        .into_iter()
        .map(|mut f| {
            Ok(FileInfo {
                path: f.get(0)?,
                size: f.count(1)?,
                sha256: f.get(2)?,
                content_type: f.get(3)?,
            })
        })
        .collect::<Result<_, StoreError>>()?;
    Ok(VersionInfo {
        version: r.get(0)?,
        created_at: r.get(1)?,
        changelog: r.get(2)?,
        fingerprint: r.get(3)?,
        files,
        moderation: Moderation::parse(&r.get::<String>(4)?),
        findings: parse_findings(&r.get::<String>(5)?),
        signature: r.get(6)?,
    })
}

/// A live (not deleted) skill's id and owner id.
pub(super) fn live_skill(c: &mut dyn Conn, slug: &str) -> Result<Option<(i64, i64)>, StoreError> {
    c.query_opt(
        "SELECT id, owner_id FROM skills WHERE slug = $1 AND deleted_at IS NULL",
        args![slug],
    )?
    .map(|mut r| Ok((r.get(0)?, r.get(1)?)))
    .transpose()
}

/// Held versions from the columns `version id, slug, owner's handle`.
fn held_versions(c: &mut dyn Conn, rows: Vec<Row>) -> Result<Vec<HeldVersion>, StoreError> {
    rows.into_iter()
        .map(|mut r| {
            Ok(HeldVersion {
                slug: r.get(1)?,
                owner_handle: r.get(2)?,
                version: version_info(c, r.get(0)?)?,
            })
        })
        .collect()
}

fn no_user(handle: &str) -> StoreError {
    StoreError::NoUser(handle.to_owned())
}

fn token_handle(handle: &str) -> String {
    handle.trim().trim_start_matches('@').to_lowercase()
}

/// A file of a version in the given moderation state, from its row or the bucket.
fn file_of<E: Engine>(
    store: &SqlStore<E>,
    moderation: Moderation,
    slug: &str,
    version: &str,
    path: &str,
) -> Result<Option<Vec<u8>>, StoreError> {
    let row = store.engine.on_connection(|c| {
        c.query_opt(
            "SELECT b.sha256, b.data FROM skills s JOIN versions v ON v.skill_id = s.id JOIN version_files f ON f.version_id = v.id JOIN blobs b ON b.sha256 = f.sha256
             WHERE s.slug = $1 AND s.deleted_at IS NULL AND v.version = $2 AND v.deleted_at IS NULL AND v.moderation = $3 AND f.path = $4",
            args![&rules::normalise_slug(slug), version.trim(), moderation.as_str(), path],
        )
    })?;
    row.map(|mut r| {
        let sha256: String = r.get(0)?;
        blobs::load(store.blobs.as_deref(), &sha256, r.get(1)?)
    })
    .transpose()
}

/// The id of the live version `version` of a skill.
fn live_version_id(
    c: &mut dyn Conn,
    skill_id: i64,
    version: &str,
) -> Result<Option<i64>, StoreError> {
    c.query_opt(
        "SELECT id FROM versions WHERE skill_id = $1 AND version = $2 AND deleted_at IS NULL AND moderation = 'live'",
        args![skill_id, version.trim()],
    )?
    .map(|mut r| r.get(0))
    .transpose()
}

impl<E: Engine> Store for SqlStore<E> {
    fn explore(
        &self,
        order: ExploreOrder,
        prefix: Option<&str>,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let sql = format!(
            "SELECT s.slug FROM (
                 SELECT k.*, (SELECT COUNT(*) FROM stars st WHERE st.skill_id = k.id) AS stars FROM skills k
                 WHERE k.deleted_at IS NULL AND (CAST($1 AS TEXT) IS NULL OR substr(k.slug, 1, length($1)) = $1)
                   AND EXISTS (SELECT 1 FROM versions v WHERE v.skill_id = k.id AND v.deleted_at IS NULL AND v.moderation = 'live')
             ) s ORDER BY {} LIMIT $2 OFFSET $3",
            order.order_by()
        );
        let page = Page::new(offset, limit);
        let prefix = explore_prefix(prefix);
        self.engine.on_connection(|c| {
            c.query_column(&sql, args![prefix.as_deref(), page.limit, page.offset])
        })
    }

    fn star(&self, user: &User, slug: &str) -> Result<bool, StoreError> {
        flow::set_star(self, user, slug, true)
    }

    fn unstar(&self, user: &User, slug: &str) -> Result<bool, StoreError> {
        flow::set_star(self, user, slug, false)
    }

    fn stars(&self, slug: &str) -> Result<u64, StoreError> {
        self.engine.on_connection(|c| {
            c.query_one(
                "SELECT COUNT(*) FROM stars st JOIN skills s ON s.id = st.skill_id WHERE s.slug = $1",
                args![&rules::normalise_slug(slug)],
            )?
            .count(0)
        })
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
        let inserted = self.engine.on_connection(|c| {
            c.insert_new(
                "INSERT INTO users (handle, display_name, created_at) VALUES ($1, $2, $3) RETURNING id",
                args![&handle, display_name, now_ms()],
            )
        })?;
        let mut row = inserted
            .and_then(|rows| rows.into_iter().next())
            .ok_or_else(|| super::handle_taken(&handle))?;
        Ok(User {
            id: row.get(0)?,
            handle,
            display_name: display_name.map(str::to_owned),
            admin: false,
        })
    }

    fn create_token(&self, handle: &str, terms: &NewToken) -> Result<String, StoreError> {
        let handle = token_handle(handle);
        let token = new_token()?;
        self.engine.on_connection(|c| {
            let user_id: i64 = c
                .query_opt("SELECT id FROM users WHERE handle = $1", args![&handle])?
                .ok_or_else(|| no_user(&handle))?
                .get(0)?;
            c.execute(
                "INSERT INTO tokens (user_id, sha256, label, created_at, scopes, expires_at) VALUES ($1, $2, $3, $4, $5, $6)",
                args![user_id, &sha256_hex(token.as_bytes()), terms.label, now_ms(), &terms.scopes.to_text(), terms.expires_at],
            )
        })?;
        Ok(token)
    }

    fn tokens(&self, handle: &str) -> Result<Vec<TokenInfo>, StoreError> {
        let handle = token_handle(handle);
        let rows = self.engine.on_connection(|c| {
            c.query(
                "SELECT t.id, t.label, t.created_at, t.scopes, t.expires_at FROM tokens t JOIN users u ON u.id = t.user_id WHERE u.handle = $1 ORDER BY t.id",
                args![&handle],
            )
        })?;
        rows.into_iter()
            .map(|mut r| {
                Ok(TokenInfo {
                    id: r.get(0)?,
                    label: r.get(1)?,
                    created_at: r.get(2)?,
                    scopes: Scopes::from_text(&r.get::<String>(3)?),
                    expires_at: r.get(4)?,
                })
            })
            .collect()
    }

    fn revoke_token(&self, handle: &str, id: i64) -> Result<(), StoreError> {
        let handle = token_handle(handle);
        let removed = self.engine.on_connection(|c| {
            c.execute(
                "DELETE FROM tokens WHERE id = $1 AND user_id = (SELECT id FROM users WHERE handle = $2)",
                args![id, &handle],
            )
        })?;
        if removed == 0 {
            return Err(super::no_token(&handle, id));
        }
        Ok(())
    }

    fn grant_for_token(&self, token: &str) -> Result<Option<Grant>, StoreError> {
        let row = self.engine.on_connection(|c| {
            c.query_opt(
                "SELECT u.id, u.handle, u.display_name, u.admin, t.id, t.scopes FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.sha256 = $1 AND (t.expires_at IS NULL OR t.expires_at > $2)",
                args![&sha256_hex(token.trim().as_bytes()), now_ms()],
            )
        })?;
        row.map(|mut r| {
            Ok(Grant::of(
                user_row(&mut r, 0)?,
                r.get(4)?,
                &r.get::<String>(5)?,
            ))
        })
        .transpose()
    }

    fn record_audit(&self, entry: &AuditEntry) -> Result<(), StoreError> {
        self.engine
            .on_connection(|c| SqlSteps::<E>::new(c).audit(entry))
    }

    fn publish(&self, user: &User, request: &PublishRequest) -> Result<Published, StoreError> {
        flow::publish(self, user, request)
    }

    fn skill(&self, slug: &str) -> Result<Option<SkillInfo>, StoreError> {
        self.engine.on_connection(|c| {
            let Some(mut row) = c.query_opt(
                "SELECT s.id, s.slug, s.display_name, s.summary, u.handle, s.created_at, s.updated_at, s.downloads FROM skills s JOIN users u ON u.id = s.owner_id WHERE s.slug = $1 AND s.deleted_at IS NULL",
                args![&rules::normalise_slug(slug)],
            )?
            else {
                return Ok(None);
            };
            let id: i64 = row.get(0)?;
            let tags = c
                .query(
                    "SELECT t.tag, v.version FROM tags t JOIN versions v ON v.id = t.version_id WHERE t.skill_id = $1 ORDER BY t.tag",
                    args![id],
                )?
                .into_iter()
                .map(|mut r| Ok((r.get(0)?, r.get(1)?)))
                .collect::<Result<_, StoreError>>()?;
            let versions = c
                .query_one(
                    "SELECT COUNT(*) FROM versions WHERE skill_id = $1 AND deleted_at IS NULL AND moderation = 'live'",
                    args![id],
                )?
                .count(0)?;
            let latest = match flow::latest_version(&mut SqlSteps::<E>::new(c), id)? {
                Some((version_id, _)) => Some(version_info(c, version_id)?),
                None => None,
            };
            Ok(Some(SkillInfo {
                slug: row.get(1)?,
                display_name: row.get(2)?,
                summary: row.get(3)?,
                owner_handle: row.get(4)?,
                created_at: row.get(5)?,
                updated_at: row.get(6)?,
                latest,
                tags,
                versions,
                downloads: row.count(7)?,
            }))
        })
    }

    fn version(&self, slug: &str, version: &str) -> Result<Option<VersionInfo>, StoreError> {
        self.engine.on_connection(|c| {
            let Some((skill_id, _)) = live_skill(c, &rules::normalise_slug(slug))? else {
                return Ok(None);
            };
            live_version_id(c, skill_id, version)?
                .map(|id| version_info(c, id))
                .transpose()
        })
    }

    fn versions(&self, slug: &str) -> Result<Vec<VersionInfo>, StoreError> {
        self.engine.on_connection(|c| {
            let Some((skill_id, _)) = live_skill(c, &rules::normalise_slug(slug))? else {
                return Err(StoreError::NotFound(NO_SKILL.into()));
            };
            let ids: Vec<i64> = c.query_column(
                "SELECT id FROM versions WHERE skill_id = $1 AND deleted_at IS NULL AND moderation = 'live' ORDER BY created_at DESC, id DESC",
                args![skill_id],
            )?;
            ids.into_iter().map(|id| version_info(c, id)).collect()
        })
    }

    fn file(&self, slug: &str, version: &str, path: &str) -> Result<Option<Vec<u8>>, StoreError> {
        file_of(self, Moderation::Live, slug, version, path)
    }

    fn resolve(&self, slug: &str, fingerprint: &str) -> Result<Option<String>, StoreError> {
        self.engine.on_connection(|c| {
            let Some((skill_id, _)) = live_skill(c, &rules::normalise_slug(slug))? else {
                return Err(StoreError::NotFound(NO_SKILL.into()));
            };
            c.query_opt(
                "SELECT version FROM versions WHERE skill_id = $1 AND fingerprint = $2 AND deleted_at IS NULL AND moderation = 'live' ORDER BY created_at DESC, id DESC LIMIT 1",
                args![skill_id, &fingerprint.to_lowercase()],
            )?
            .map(|mut r| r.get(0))
            .transpose()
        })
    }

    fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, StoreError> {
        self.engine.on_connection(|c| E::search(c, query, limit))
    }

    fn delete_skill(&self, user: &User, slug: &str) -> Result<(), StoreError> {
        flow::set_deleted(self, user, slug, Some(now_ms()))
    }

    fn undelete_skill(&self, user: &User, slug: &str) -> Result<(), StoreError> {
        flow::set_deleted(self, user, slug, None)
    }

    fn create_ticket(&self, id: &str, ticket: &UploadTicket) -> Result<(), StoreError> {
        let size = i64::try_from(ticket.size).unwrap_or(i64::MAX);
        self.engine.on_connection(|c| {
            c.execute("DELETE FROM upload_tickets WHERE expires_at < $1", args![now_ms()])?;
            c.execute(
                "INSERT INTO upload_tickets (id, user_id, path, size, sha256, content_type, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                args![id, ticket.user_id, &ticket.path, size, &ticket.sha256, ticket.content_type.as_deref(), ticket.expires_at],
            )
        })?;
        Ok(())
    }

    fn ticket(&self, id: &str) -> Result<Option<UploadTicket>, StoreError> {
        let row = self.engine.on_connection(|c| {
            c.query_opt(
                "SELECT user_id, path, size, sha256, content_type, expires_at, data FROM upload_tickets WHERE id = $1",
                args![id],
            )
        })?;
        row.map(|mut r| {
            Ok(UploadTicket {
                user_id: r.get(0)?,
                path: r.get(1)?,
                size: r.count(2)?,
                sha256: r.get(3)?,
                content_type: r.get(4)?,
                expires_at: r.get(5)?,
                bytes: r.get(6)?,
            })
        })
        .transpose()
    }

    fn fill_ticket(&self, id: &str, bytes: &[u8]) -> Result<bool, StoreError> {
        let filled = self.engine.on_connection(|c| {
            c.execute(
                "UPDATE upload_tickets SET data = $1 WHERE id = $2 AND data IS NULL",
                args![bytes, id],
            )
        })?;
        Ok(filled == 1)
    }

    fn user(&self, handle: &str) -> Result<Option<User>, StoreError> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE handle = $1");
        self.engine
            .on_connection(|c| c.query_opt(&sql, args![&normalise_handle(handle)]))?
            .map(|mut r| user_row(&mut r, 0))
            .transpose()
    }

    fn list_skills(
        &self,
        owner: Option<&str>,
        order: SkillOrder,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<SkillSummary>, StoreError> {
        let sql = format!(
            "{SUMMARY_FROM} WHERE {LISTED} AND (CAST($1 AS TEXT) IS NULL OR u.handle = $1) ORDER BY {} LIMIT $2 OFFSET $3",
            order.order_by()
        );
        let owner = owner.map(normalise_handle);
        let page = Page::new(offset, limit);
        self.engine
            .on_connection(|c| c.query(&sql, args![owner.as_deref(), page.limit, page.offset]))?
            .into_iter()
            .map(summary_row)
            .collect()
    }

    fn changed_after(
        &self,
        after: Option<(i64, &str)>,
        limit: usize,
    ) -> Result<Vec<SkillSummary>, StoreError> {
        let (at, slug) = after.unwrap_or((i64::MIN, ""));
        let bytewise = E::BYTEWISE;
        let sql = format!(
            "{SUMMARY_FROM} WHERE {LISTED} AND (s.updated_at > $1 OR (s.updated_at = $1 AND s.slug{bytewise} > $2))
             ORDER BY s.updated_at, s.slug{bytewise} LIMIT $3"
        );
        let limit = Page::new(0, limit).limit;
        self.engine
            .on_connection(|c| c.query(&sql, args![at, slug, limit]))?
            .into_iter()
            .map(summary_row)
            .collect()
    }

    fn count_downloads(&self, counts: &[(String, u64)]) -> Result<(), StoreError> {
        self.engine.in_transaction(|c| {
            for (slug, n) in counts {
                let n = i64::try_from(*n).unwrap_or(i64::MAX);
                c.execute(
                    "UPDATE skills SET downloads = downloads + $1 WHERE slug = $2 AND deleted_at IS NULL",
                    args![n, &rules::normalise_slug(slug)],
                )?;
            }
            Ok(())
        })
    }

    fn set_admin(&self, handle: &str, admin: bool) -> Result<User, StoreError> {
        let handle = normalise_handle(handle);
        let sql = format!("UPDATE users SET admin = $1 WHERE handle = $2 RETURNING {USER_COLUMNS}");
        self.engine
            .on_connection(|c| c.query_opt(&sql, args![admin, &handle]))?
            .map(|mut r| user_row(&mut r, 0))
            .transpose()?
            .ok_or_else(|| no_user(&handle))
    }

    fn held_version(&self, slug: &str, version: &str) -> Result<Option<HeldVersion>, StoreError> {
        self.engine.on_connection(|c| {
            let rows = c.query(
                "SELECT v.id, s.slug, u.handle FROM versions v JOIN skills s ON s.id = v.skill_id JOIN users u ON u.id = s.owner_id
                 WHERE s.slug = $1 AND s.deleted_at IS NULL AND v.version = $2 AND v.deleted_at IS NULL AND v.moderation = 'quarantined'",
                args![&rules::normalise_slug(slug), version.trim()],
            )?;
            Ok(held_versions(c, rows)?.into_iter().next())
        })
    }

    fn held_file(
        &self,
        slug: &str,
        version: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        file_of(self, Moderation::Quarantined, slug, version, path)
    }

    fn add_findings(&self, version_id: i64, findings: &[StoredFinding]) -> Result<(), StoreError> {
        let sql = format!(
            "SELECT findings FROM versions WHERE id = $1{}",
            E::FOR_UPDATE
        );
        self.engine.in_transaction(|c| {
            let stored: String = c.query_one(&sql, args![version_id])?.get(0)?;
            let mut all = parse_findings(&stored);
            all.extend_from_slice(findings);
            let json =
                serde_json::to_string(&all).map_err(|e| StoreError::database(e.to_string(), e))?;
            c.execute(
                "UPDATE versions SET findings = $1 WHERE id = $2",
                args![&json, version_id],
            )?;
            Ok(())
        })
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.engine
            .on_connection(|c| c.query_one("SELECT EXISTS (SELECT 1 FROM skills)", args![]))?;
        self.blobs.as_deref().map_or(Ok(()), S3Blobs::ping)
    }

    fn quarantined_count(&self) -> Result<u64, StoreError> {
        self.engine.on_connection(|c| {
            c.query_one(
                "SELECT count(*) FROM versions v JOIN skills s ON s.id = v.skill_id
                 WHERE s.deleted_at IS NULL AND v.deleted_at IS NULL AND v.moderation = 'quarantined'",
                args![],
            )?
            .count(0)
        })
    }

    fn quarantined(&self) -> Result<Vec<HeldVersion>, StoreError> {
        self.engine.on_connection(|c| {
            let rows = c.query(
                "SELECT v.id, s.slug, u.handle FROM versions v JOIN skills s ON s.id = v.skill_id JOIN users u ON u.id = s.owner_id
                 WHERE s.deleted_at IS NULL AND v.deleted_at IS NULL AND v.moderation = 'quarantined' ORDER BY v.created_at, v.id",
                args![],
            )?;
            held_versions(c, rows)
        })
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
        let rows = self.engine.on_connection(|c| {
            c.query(
                "SELECT at, actor, action, slug, version, note FROM audit_log WHERE CAST($1 AS TEXT) IS NULL OR slug = $1 ORDER BY id",
                args![slug.as_deref()],
            )
        })?;
        rows.into_iter()
            .map(|mut r| {
                Ok(AuditEntry {
                    at: r.get(0)?,
                    actor: r.get(1)?,
                    action: r.get(2)?,
                    slug: r.get(3)?,
                    version: r.get(4)?,
                    note: r.get(5)?,
                })
            })
            .collect()
    }
}

impl<E: Engine> flow::Backend for SqlStore<E> {
    fn blobs(&self) -> Option<&S3Blobs> {
        self.blobs.as_deref()
    }

    fn in_transaction<T>(
        &self,
        flow: impl FnOnce(&mut dyn Steps) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.engine
            .in_transaction(|c| flow(&mut SqlSteps::<E>::new(c)))
    }

    fn on_connection<T>(
        &self,
        flow: impl FnOnce(&mut dyn Steps) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.engine
            .on_connection(|c| flow(&mut SqlSteps::<E>::new(c)))
    }
}
