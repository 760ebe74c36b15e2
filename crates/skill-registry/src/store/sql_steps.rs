//! The write flows' steps ([`Steps`]) in SQL both engines run; the engine adds only its lock per
//! slug and its search index.

use super::flow::{self, Steps};
use super::sql::{Conn, args};
use super::sql_store::{Engine, live_skill};
use super::*;

/// The flows' steps on one connection (or the transaction it is in) of engine `E`.
pub(super) struct SqlSteps<'a, E> {
    conn: &'a mut dyn Conn,
    engine: std::marker::PhantomData<E>,
}

impl<'a, E> SqlSteps<'a, E> {
    pub(super) fn new(conn: &'a mut dyn Conn) -> Self {
        SqlSteps {
            conn,
            engine: std::marker::PhantomData,
        }
    }

    /// Column 0 of the row `sql` gives, if any.
    fn first<T: sql::FromValue>(
        &mut self,
        sql: &str,
        args: &[sql::Arg],
    ) -> Result<Option<T>, StoreError> {
        self.conn
            .query_opt(sql, args)?
            .map(|mut r| r.get(0))
            .transpose()
    }

    /// Columns 0 and 1 of the row `sql` gives, if any.
    fn pair<A: sql::FromValue, B: sql::FromValue>(
        &mut self,
        sql: &str,
        args: &[sql::Arg],
    ) -> Result<Option<(A, B)>, StoreError> {
        self.conn
            .query_opt(sql, args)?
            .map(|mut r| Ok((r.get(0)?, r.get(1)?)))
            .transpose()
    }
}

impl<E: Engine> Steps for SqlSteps<'_, E> {
    fn lock_slug(&mut self, slug: &str) -> Result<(), StoreError> {
        E::lock_slug(self.conn, slug)
    }

    fn use_ticket(&mut self, id: &str, user_id: i64) -> Result<bool, StoreError> {
        let used = self.conn.execute(
            "DELETE FROM upload_tickets WHERE id = $1 AND user_id = $2 AND data IS NOT NULL",
            args![id, user_id],
        )?;
        Ok(used == 1)
    }

    fn skill_owner(&mut self, slug: &str) -> Result<Option<(i64, i64)>, StoreError> {
        self.pair(
            "SELECT id, owner_id FROM skills WHERE slug = $1",
            args![slug],
        )
    }

    fn live_skill(&mut self, slug: &str) -> Result<Option<(i64, i64)>, StoreError> {
        live_skill(self.conn, slug)
    }

    fn insert_skill(
        &mut self,
        slug: &str,
        owner_id: i64,
        display_name: &str,
        summary: Option<&str>,
        now: i64,
    ) -> Result<i64, StoreError> {
        self.conn
            .query_one(
                "INSERT INTO skills (slug, owner_id, display_name, summary, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id",
                args![slug, owner_id, display_name, summary, now],
            )?
            .get(0)
    }

    fn version_numbers(&mut self, skill_id: i64) -> Result<Vec<String>, StoreError> {
        self.conn.query_column(
            "SELECT version FROM versions WHERE skill_id = $1",
            args![skill_id],
        )
    }

    fn insert_version(&mut self, row: &flow::NewVersion) -> Result<i64, StoreError> {
        self.conn
            .query_one(
                "INSERT INTO versions (skill_id, version, changelog, fingerprint, created_at, moderation, findings, pending, signature) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
                args![
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
            )?
            .get(0)
    }

    fn put_blob(&mut self, sha256: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO blobs (sha256, data) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            args![sha256, bytes],
        )?;
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
        let inserted = self.conn.insert_new(
            "INSERT INTO version_files (version_id, path, size, sha256, content_type) VALUES ($1, $2, $3, $4, $5)",
            args![version_id, path, size, sha256, content_type],
        )?;
        Ok(inserted.is_some())
    }

    fn live_versions(&mut self, skill_id: i64) -> Result<Vec<(i64, String)>, StoreError> {
        self.conn
            .query(
                "SELECT id, version FROM versions WHERE skill_id = $1 AND deleted_at IS NULL AND moderation = 'live'",
                args![skill_id],
            )?
            .into_iter()
            .map(|mut r| Ok((r.get(0)?, r.get(1)?)))
            .collect()
    }

    fn latest_tag(&mut self, skill_id: i64) -> Result<Option<i64>, StoreError> {
        self.first(
            "SELECT version_id FROM tags WHERE skill_id = $1 AND tag = 'latest'",
            args![skill_id],
        )
    }

    fn put_tag(&mut self, skill_id: i64, tag: &str, version_id: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO tags (skill_id, tag, version_id) VALUES ($1, $2, $3)
             ON CONFLICT (skill_id, tag) DO UPDATE SET version_id = excluded.version_id",
            args![skill_id, tag, version_id],
        )?;
        Ok(())
    }

    fn set_listing(&mut self, listing: &flow::Listing) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE skills SET display_name = $1, summary = $2, updated_at = $3 WHERE id = $4",
            args![
                listing.display_name,
                listing.summary,
                listing.now,
                listing.skill_id
            ],
        )?;
        E::index_listing(self.conn, listing)
    }

    fn touch_skill(&mut self, skill_id: i64, now: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE skills SET updated_at = $1 WHERE id = $2",
            args![now, skill_id],
        )?;
        Ok(())
    }

    fn audit(&mut self, entry: &AuditEntry) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO audit_log (at, actor, action, slug, version, note) VALUES ($1, $2, $3, $4, $5, $6)",
            args![entry.at, &entry.actor, &entry.action, &entry.slug, &entry.version, &entry.note],
        )?;
        Ok(())
    }

    fn review_row(
        &mut self,
        slug: &str,
        version: &str,
    ) -> Result<Option<flow::ReviewRow>, StoreError> {
        let sql = format!(
            "SELECT v.id, s.id, v.moderation, v.pending FROM versions v JOIN skills s ON s.id = v.skill_id
             WHERE s.slug = $1 AND v.version = $2 AND v.deleted_at IS NULL{}",
            E::FOR_UPDATE
        );
        self.conn
            .query_opt(&sql, args![slug, version])?
            .map(|mut r| {
                Ok(flow::ReviewRow {
                    version_id: r.get(0)?,
                    skill_id: r.get(1)?,
                    moderation: r.get(2)?,
                    pending: r.get(3)?,
                })
            })
            .transpose()
    }

    fn skill_md(&mut self, version_id: i64) -> Result<Option<(String, Vec<u8>)>, StoreError> {
        self.pair(
            "SELECT b.sha256, b.data FROM version_files f JOIN blobs b ON b.sha256 = f.sha256 WHERE f.version_id = $1 AND lower(f.path) = 'skill.md'",
            args![version_id],
        )
    }

    fn set_moderation(
        &mut self,
        version_id: i64,
        moderation: Moderation,
        deleted_at: Option<i64>,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE versions SET moderation = $1, pending = NULL, deleted_at = $2 WHERE id = $3",
            args![moderation.as_str(), deleted_at, version_id],
        )?;
        Ok(())
    }

    fn live_version_row(
        &mut self,
        skill_id: i64,
        version: &str,
    ) -> Result<Option<(i64, bool)>, StoreError> {
        self.pair(
            "SELECT id, deleted_at IS NOT NULL FROM versions WHERE skill_id = $1 AND version = $2 AND moderation = 'live'",
            args![skill_id, version.trim()],
        )
    }

    fn withdraw_version(&mut self, version_id: i64, now: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE versions SET deleted_at = $1 WHERE id = $2",
            args![now, version_id],
        )?;
        self.conn
            .execute("DELETE FROM tags WHERE version_id = $1", args![version_id])?;
        Ok(())
    }

    fn restore_version(&mut self, version_id: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE versions SET deleted_at = NULL WHERE id = $1",
            args![version_id],
        )?;
        Ok(())
    }

    fn set_skill_deleted(&mut self, skill_id: i64, at: Option<i64>) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE skills SET deleted_at = $1 WHERE id = $2",
            args![at, skill_id],
        )?;
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
            self.conn.execute(
                "INSERT INTO stars (user_id, skill_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                args![user_id, skill_id, now],
            )
        } else {
            self.conn.execute(
                "DELETE FROM stars WHERE user_id = $1 AND skill_id = $2",
                args![user_id, skill_id],
            )
        }?;
        Ok(changed > 0)
    }
}
