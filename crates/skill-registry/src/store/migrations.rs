//! Numbered schema migrations, one list per backend, each applied once and in order. The
//! database records the number of the last one applied (SQLite's `PRAGMA user_version`,
//! PostgreSQL's `schema_version` table), so opening a store runs only what is new to it, and a
//! database a newer `skill` has migrated is refused rather than misread.
//!
//! Databases made before the number was recorded read as version 0. The first six migrations
//! are what those releases applied on every start; they are written so that running them on
//! such a database adds only what it lacks (`IF NOT EXISTS`, or the column they add checked
//! first where SQLite has no `IF NOT EXISTS`).

use super::StoreError;

/// One step of a backend's schema.
#[derive(Debug)]
pub(crate) struct Migration {
    /// Its number: the schema version a database is at once it has run.
    pub(crate) number: u32,
    /// The statements, run in the same transaction as the new version number.
    pub(crate) sql: &'static str,
    /// The table and column it adds, when running it twice would fail: a version-0 database
    /// that has the column already skips it.
    pub(crate) adds: Option<(&'static str, &'static str)>,
}

/// SQLite's migrations.
pub(crate) const SQLITE: &[Migration] = &[
    Migration {
        number: 1,
        sql: include_str!("migrations/sqlite/0001_schema.sql"),
        adds: None,
    },
    Migration {
        number: 2,
        sql: include_str!("migrations/sqlite/0002_moderation.sql"),
        adds: Some(("versions", "moderation")),
    },
    Migration {
        number: 3,
        sql: include_str!("migrations/sqlite/0003_signature.sql"),
        adds: Some(("versions", "signature")),
    },
    Migration {
        number: 4,
        sql: include_str!("migrations/sqlite/0004_token_scopes.sql"),
        adds: Some(("tokens", "scopes")),
    },
    Migration {
        number: 5,
        sql: include_str!("migrations/sqlite/0005_admin.sql"),
        adds: Some(("users", "admin")),
    },
    Migration {
        number: 6,
        sql: include_str!("migrations/sqlite/0006_audit_log.sql"),
        adds: None,
    },
];

/// PostgreSQL's migrations: every statement of the first six is `IF NOT EXISTS`.
pub(crate) const POSTGRES: &[Migration] = &[
    Migration {
        number: 1,
        sql: include_str!("migrations/postgres/0001_schema.sql"),
        adds: None,
    },
    Migration {
        number: 2,
        sql: include_str!("migrations/postgres/0002_moderation.sql"),
        adds: None,
    },
    Migration {
        number: 3,
        sql: include_str!("migrations/postgres/0003_signature.sql"),
        adds: None,
    },
    Migration {
        number: 4,
        sql: include_str!("migrations/postgres/0004_token_scopes.sql"),
        adds: None,
    },
    Migration {
        number: 5,
        sql: include_str!("migrations/postgres/0005_admin.sql"),
        adds: None,
    },
    Migration {
        number: 6,
        sql: include_str!("migrations/postgres/0006_audit_log.sql"),
        adds: None,
    },
];

/// The schema version `all` brings a database to.
pub(crate) fn latest(all: &[Migration]) -> u32 {
    all.last().map_or(0, |m| m.number)
}

/// The migrations a database at `recorded` still needs, in order; an error when a newer
/// `skill` has migrated it past what this one knows.
pub(crate) fn pending(all: &[Migration], recorded: u32) -> Result<&[Migration], StoreError> {
    let known = latest(all);
    if recorded > known {
        return Err(StoreError::SchemaTooNew { recorded, known });
    }
    Ok(&all[all.partition_point(|m| m.number <= recorded)..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_count_up_from_one_in_both_backends() {
        for all in [SQLITE, POSTGRES] {
            let numbers: Vec<u32> = all.iter().map(|m| m.number).collect();
            assert_eq!(numbers, (1..=all.len() as u32).collect::<Vec<_>>());
        }
        assert_eq!(latest(SQLITE), latest(POSTGRES));
    }

    #[test]
    fn pending_is_what_comes_after_the_recorded_version() {
        assert_eq!(pending(SQLITE, 0).unwrap().len(), SQLITE.len());
        assert_eq!(pending(SQLITE, 4).unwrap()[0].number, 5);
        assert!(pending(SQLITE, latest(SQLITE)).unwrap().is_empty());
        let newer = pending(SQLITE, latest(SQLITE) + 1).unwrap_err();
        assert_eq!(
            newer.to_string(),
            format!(
                "the database is at schema version {}, newer than the {} this skill knows: upgrade skill to open it",
                latest(SQLITE) + 1,
                latest(SQLITE)
            )
        );
    }
}
