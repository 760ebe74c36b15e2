//! What the store's SQL is written against, so that it is written once for both engines: the
//! values a statement takes ([`Arg`]), the rows it gives back ([`Row`], read by column with a
//! typed check instead of a panic), and a connection that runs it ([`Conn`]). Statements number
//! their parameters PostgreSQL's way (`$1`); SQLite's connection renumbers them as `?1`.

use super::StoreError;

/// A value a statement is given. NULLs keep their type, which PostgreSQL checks.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Arg<'a> {
    /// An integer (`BIGINT` in PostgreSQL).
    Int(Option<i64>),
    /// Text.
    Text(Option<&'a str>),
    /// Bytes (`BYTEA`, `BLOB`).
    Bytes(Option<&'a [u8]>),
    /// A truth value (`BOOLEAN` in PostgreSQL, 0 or 1 in SQLite).
    Bool(bool),
}

impl From<i64> for Arg<'_> {
    fn from(n: i64) -> Self {
        Arg::Int(Some(n))
    }
}

impl From<Option<i64>> for Arg<'_> {
    fn from(n: Option<i64>) -> Self {
        Arg::Int(n)
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(text: &'a str) -> Self {
        Arg::Text(Some(text))
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(text: &'a String) -> Self {
        Arg::Text(Some(text))
    }
}

impl<'a> From<Option<&'a str>> for Arg<'a> {
    fn from(text: Option<&'a str>) -> Self {
        Arg::Text(text)
    }
}

impl<'a> From<&'a [u8]> for Arg<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        Arg::Bytes(Some(bytes))
    }
}

impl From<bool> for Arg<'_> {
    fn from(on: bool) -> Self {
        Arg::Bool(on)
    }
}

/// The arguments of a statement, each turned into an [`Arg`].
macro_rules! args {
    ($($arg:expr),* $(,)?) => {
        &[$($crate::store::sql::Arg::from($arg)),*]
    };
}
pub(crate) use args;

/// A value a row holds.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) enum Value {
    /// SQL's NULL (or a value already taken from the row).
    #[default]
    Null,
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Real(f64),
    /// Text.
    Text(String),
    /// Bytes.
    Bytes(Vec<u8>),
    /// A truth value (PostgreSQL's `BOOLEAN`; SQLite gives integers).
    Bool(bool),
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "NULL",
            Value::Int(_) => "an integer",
            Value::Real(_) => "a number",
            Value::Text(_) => "text",
            Value::Bytes(_) => "bytes",
            Value::Bool(_) => "a truth value",
        }
    }
}

/// Why a row could not be read as the store expected: the schema and the SQL disagree.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RowError {
    /// A statement expected to give a row gave none.
    #[error("the query gave no row")]
    NoRow,
    /// A row had fewer columns than asked for.
    #[error("the row has no column {0}")]
    NoColumn(usize),
    /// A column held another type than the one asked for.
    #[error("column {column} holds {found}, not {wanted}")]
    Type {
        /// The column's position, from 0.
        column: usize,
        /// What it holds.
        found: &'static str,
        /// What was asked for.
        wanted: &'static str,
    },
}

impl From<RowError> for StoreError {
    fn from(e: RowError) -> StoreError {
        StoreError::database(format!("reading a row: {e}"), e)
    }
}

/// A Rust type a column reads into.
pub(crate) trait FromValue: Sized {
    /// What the type is, for the error.
    const WANTED: &'static str;
    /// The value as this type; `None` when it is another type.
    fn from_value(value: Value) -> Option<Self>;
}

impl FromValue for i64 {
    const WANTED: &'static str = "an integer";
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }
}

impl FromValue for f64 {
    const WANTED: &'static str = "a number";
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Real(x) => Some(x),
            Value::Int(n) => Some(n as f64),
            _ => None,
        }
    }
}

impl FromValue for bool {
    const WANTED: &'static str = "a truth value";
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Bool(on) => Some(on),
            Value::Int(n) => Some(n != 0),
            _ => None,
        }
    }
}

impl FromValue for String {
    const WANTED: &'static str = "text";
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Text(text) => Some(text),
            _ => None,
        }
    }
}

impl FromValue for Vec<u8> {
    const WANTED: &'static str = "bytes";
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Bytes(bytes) => Some(bytes),
            _ => None,
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    const WANTED: &'static str = T::WANTED;
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Null => Some(None),
            value => T::from_value(value).map(Some),
        }
    }
}

/// A row a query gave, its values read out by position.
#[derive(Debug, Default)]
pub(crate) struct Row(pub(crate) Vec<Value>);

impl Row {
    /// Takes column `column` as a `T` (each column is read once: large blobs are moved, not
    /// copied); an error when the row lacks it or it holds another type.
    pub(crate) fn get<T: FromValue>(&mut self, column: usize) -> Result<T, StoreError> {
        let value = std::mem::take(self.0.get_mut(column).ok_or(RowError::NoColumn(column))?);
        let found = value.kind();
        T::from_value(value).ok_or_else(|| {
            RowError::Type {
                column,
                found,
                wanted: T::WANTED,
            }
            .into()
        })
    }

    /// A count in column `column` (`COUNT(*)`), never below 0.
    pub(crate) fn count(&mut self, column: usize) -> Result<u64, StoreError> {
        Ok(self.get::<i64>(column)?.max(0) as u64)
    }
}

/// A database connection, or a transaction on one, that runs the store's statements.
pub(crate) trait Conn {
    /// Every row `sql` gives.
    fn query(&mut self, sql: &str, args: &[Arg]) -> Result<Vec<Row>, StoreError>;

    /// Runs `sql`; how many rows it changed.
    fn execute(&mut self, sql: &str, args: &[Arg]) -> Result<u64, StoreError>;

    /// Runs an `INSERT`'s `sql`; `None` when a UNIQUE or PRIMARY KEY constraint refused it.
    fn insert_new(&mut self, sql: &str, args: &[Arg]) -> Result<Option<Vec<Row>>, StoreError>;
}

impl dyn Conn + '_ {
    /// The first row `sql` gives, if any.
    pub(crate) fn query_opt(&mut self, sql: &str, args: &[Arg]) -> Result<Option<Row>, StoreError> {
        Ok(self.query(sql, args)?.into_iter().next())
    }

    /// The first row `sql` gives; an error when it gives none.
    pub(crate) fn query_one(&mut self, sql: &str, args: &[Arg]) -> Result<Row, StoreError> {
        Ok(self.query_opt(sql, args)?.ok_or(RowError::NoRow)?)
    }

    /// Column 0 of every row `sql` gives.
    pub(crate) fn query_column<T: FromValue>(
        &mut self,
        sql: &str,
        args: &[Arg],
    ) -> Result<Vec<T>, StoreError> {
        self.query(sql, args)?
            .into_iter()
            .map(|mut row| row.get(0))
            .collect()
    }
}

/// `sql` with PostgreSQL's `$N` parameters written as SQLite's `?N` (the store's statements
/// hold no `$` in their literals).
pub(crate) fn numbered_for_sqlite(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        let parameter = c == '$' && chars.peek().is_some_and(char::is_ascii_digit);
        out.push(if parameter { '?' } else { c });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_renumbered_for_sqlite() {
        assert_eq!(
            numbered_for_sqlite("SELECT $1, $12 FROM t WHERE a = $2 AND b = '$'"),
            "SELECT ?1, ?12 FROM t WHERE a = ?2 AND b = '$'"
        );
    }

    #[test]
    fn a_column_of_another_type_is_an_error_not_a_panic() {
        let mut row = Row(vec![Value::Text("x".into()), Value::Null, Value::Int(1)]);
        let e = row.get::<i64>(0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "database error: reading a row: column 0 holds text, not an integer"
        );
        assert_eq!(row.get::<Option<String>>(1).unwrap(), None);
        assert!(row.get::<bool>(2).unwrap());
        let e = row.get::<i64>(3).unwrap_err();
        assert_eq!(
            e.to_string(),
            "database error: reading a row: the row has no column 3"
        );
    }
}
