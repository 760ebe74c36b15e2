//! Registry stories more than one backend runs: the same steps against SQLite and PostgreSQL.

pub mod downloads;
pub mod quarantine;
pub mod signed;
