//! One database interface over the archive's two backends: SQLite (rusqlite, a file) and
//! PostgreSQL (the `postgres` crate, a server). The archive's SQL is written once, in the subset
//! both accept (`INSERT ... ON CONFLICT`, `RETURNING`, `?N` placeholders); where the two must
//! differ, [`Db::pick`] chooses the backend's own text.
//!
//! - [`Db`]: a connection (or a transaction on it) of either backend, borrowed. Statements are
//!   kept prepared on the connection, by their text.
//! - [`Value`], [`ToValue`], [`Params`] and [`params!`](crate::db_params): parameters, bound, never
//!   written into SQL text. On PostgreSQL a value is encoded as the type the server inferred for
//!   its placeholder (an integer for a `BIGINT`, `INTEGER` or `BOOLEAN` column alike).
//! - [`Row`] and [`FromCol`]: a result row read by column number; on PostgreSQL an integer column
//!   of any width, or a boolean (what `EXISTS` and comparisons give), reads as an `i64`.
//! - [`pg_placeholders`]: SQLite's `?N` and `?` placeholders as PostgreSQL's `$N`.

use super::{ArchiveError, Result};
use postgres::types::{IsNull, ToSql, Type};
use std::cell::RefCell;
use std::collections::HashMap;

/// A parameter's value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Null,
    Int(i64),
    Text(String),
    Blob(Vec<u8>),
}

/// What can be bound as a parameter.
pub(crate) trait ToValue {
    fn to_value(&self) -> Value;
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

macro_rules! int_values {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::Int(i64::from(*self))
            }
        }
    )*};
}
int_values!(i64, i32, u32, u8, bool);

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::Text(self.to_owned())
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl ToValue for [u8] {
    fn to_value(&self) -> Value {
        Value::Blob(self.to_vec())
    }
}

impl ToValue for Vec<u8> {
    fn to_value(&self) -> Value {
        Value::Blob(self.clone())
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

/// A statement's parameters, in order.
pub(crate) trait Params {
    fn values(self) -> Vec<Value>;
}

impl<T: ToValue, const N: usize> Params for [T; N] {
    fn values(self) -> Vec<Value> {
        self.iter().map(ToValue::to_value).collect()
    }
}

impl Params for &[Value] {
    fn values(self) -> Vec<Value> {
        self.to_vec()
    }
}

impl Params for Vec<Value> {
    fn values(self) -> Vec<Value> {
        self
    }
}

/// Parameters of different types: `params![id, name, bytes]`.
#[macro_export]
#[doc(hidden)]
macro_rules! db_params {
    () => {
        ::std::vec::Vec::<$crate::archive::db::Value>::new()
    };
    ($($x:expr),+ $(,)?) => {
        ::std::vec![$($crate::archive::db::ToValue::to_value(&$x)),+]
    };
}
pub(crate) use crate::db_params as params;

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(*i),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
            Value::Blob(b) => ValueRef::Blob(b),
        }))
    }
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR | Type::UNKNOWN => i.to_string().to_sql(&Type::TEXT, out),
                _ => Err(format!("an integer bound where the server expects {ty}").into()),
            },
            Value::Text(s) => match *ty {
                Type::BYTEA => s.as_bytes().to_sql(ty, out),
                _ => s.as_str().to_sql(&Type::TEXT, out),
            },
            Value::Blob(b) => b.as_slice().to_sql(&Type::BYTEA, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

/// One result row of either backend.
pub(crate) enum Row<'r> {
    Lite(&'r rusqlite::Row<'r>),
    Pg(&'r postgres::Row),
}

impl Row<'_> {
    /// Column `i` (from 0) as a `T`. The index's type parameter is rusqlite's place for it, so
    /// that `r.get::<_, i64>(0)` reads alike on both.
    pub(crate) fn get<I: Idx, T: FromCol>(&self, i: I) -> Result<T> {
        let i = i.idx();
        match self {
            Row::Lite(r) => Ok(T::lite(r, i)?),
            Row::Pg(r) => T::pg(r, i),
        }
    }
}

/// A column's number (a trait with one implementation, so that a literal is a `usize`).
pub(crate) trait Idx {
    fn idx(self) -> usize;
}

impl Idx for usize {
    fn idx(self) -> usize {
        self
    }
}

/// A column's value read as a Rust type.
pub(crate) trait FromCol: Sized {
    fn lite(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Self>;
    fn pg(r: &postgres::Row, i: usize) -> Result<Self>;
}

/// An integer column of PostgreSQL of any width, or a boolean, as an `i64`.
fn pg_int(r: &postgres::Row, i: usize) -> Result<Option<i64>> {
    let ty = r.columns().get(i).map(|c| c.type_().clone()).unwrap_or(Type::INT8);
    Ok(match ty {
        Type::INT8 => r.try_get::<_, Option<i64>>(i)?,
        Type::INT4 => r.try_get::<_, Option<i32>>(i)?.map(i64::from),
        Type::INT2 => r.try_get::<_, Option<i16>>(i)?.map(i64::from),
        Type::BOOL => r.try_get::<_, Option<bool>>(i)?.map(i64::from),
        other => return Err(ArchiveError::Corrupt(format!("column {i} is a {other}, read as an integer"))),
    })
}

fn null_at(i: usize) -> ArchiveError {
    ArchiveError::Corrupt(format!("column {i} is NULL where a value must be"))
}

impl FromCol for i64 {
    fn lite(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn pg(r: &postgres::Row, i: usize) -> Result<Self> {
        pg_int(r, i)?.ok_or_else(|| null_at(i))
    }
}

impl FromCol for Option<i64> {
    fn lite(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn pg(r: &postgres::Row, i: usize) -> Result<Self> {
        pg_int(r, i)
    }
}

impl FromCol for bool {
    fn lite(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn pg(r: &postgres::Row, i: usize) -> Result<Self> {
        Ok(pg_int(r, i)?.ok_or_else(|| null_at(i))? != 0)
    }
}

impl FromCol for Option<String> {
    fn lite(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn pg(r: &postgres::Row, i: usize) -> Result<Self> {
        Ok(r.try_get(i)?)
    }
}

impl FromCol for String {
    fn lite(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn pg(r: &postgres::Row, i: usize) -> Result<Self> {
        <Option<String>>::pg(r, i)?.ok_or_else(|| null_at(i))
    }
}

impl FromCol for Option<Vec<u8>> {
    fn lite(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn pg(r: &postgres::Row, i: usize) -> Result<Self> {
        Ok(r.try_get(i)?)
    }
}

impl FromCol for Vec<u8> {
    fn lite(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn pg(r: &postgres::Row, i: usize) -> Result<Self> {
        <Option<Vec<u8>>>::pg(r, i)?.ok_or_else(|| null_at(i))
    }
}

/// A PostgreSQL connection with its statements kept prepared, by their text as written for
/// SQLite (each translated once, by [`pg_placeholders`]).
pub(crate) struct Pg {
    pub(crate) client: postgres::Client,
    statements: HashMap<String, postgres::Statement>,
}

impl Pg {
    pub(crate) fn new(client: postgres::Client) -> Pg {
        Pg { client, statements: HashMap::new() }
    }

    fn statement(&mut self, sql: &str) -> Result<postgres::Statement> {
        if let Some(s) = self.statements.get(sql) {
            return Ok(s.clone());
        }
        let s = self.client.prepare(&pg_placeholders(sql))?;
        self.statements.insert(sql.to_owned(), s.clone());
        Ok(s)
    }

    fn query(&mut self, sql: &str, values: &[Value]) -> Result<Vec<postgres::Row>> {
        let st = self.statement(sql)?;
        let refs: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
        Ok(self.client.query(&st, &refs)?)
    }

    fn execute(&mut self, sql: &str, values: &[Value]) -> Result<u64> {
        let st = self.statement(sql)?;
        let refs: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
        Ok(self.client.execute(&st, &refs)?)
    }
}

/// A connection of either backend (or a transaction on it), borrowed.
#[derive(Clone, Copy)]
pub(crate) enum Db<'a> {
    Lite(&'a rusqlite::Connection),
    Pg(&'a RefCell<Pg>),
}

impl<'a> Db<'a> {
    /// Whether this is PostgreSQL.
    pub(crate) fn is_pg(self) -> bool {
        matches!(self, Db::Pg(_))
    }

    /// The text of this backend, where the two must differ.
    pub(crate) fn pick(self, lite: &'static str, pg: &'static str) -> &'static str {
        if self.is_pg() {
            pg
        } else {
            lite
        }
    }

    /// Runs a statement; answers how many rows it changed.
    pub(crate) fn exec<P: Params>(self, sql: &str, p: P) -> Result<usize> {
        let values = p.values();
        match self {
            Db::Lite(c) => Ok(c.prepare_cached(sql)?.execute(rusqlite::params_from_iter(values.iter()))?),
            Db::Pg(c) => Ok(c.borrow_mut().execute(sql, &values)? as usize),
        }
    }

    /// Every row of a query, each read by `f`.
    pub(crate) fn rows<T, P: Params>(
        self,
        sql: &str,
        p: P,
        mut f: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let values = p.values();
        match self {
            Db::Lite(c) => {
                let mut st = c.prepare_cached(sql)?;
                let mut rows = st.query(rusqlite::params_from_iter(values.iter()))?;
                let mut out = Vec::new();
                while let Some(r) = rows.next()? {
                    out.push(f(&Row::Lite(r))?);
                }
                Ok(out)
            }
            Db::Pg(c) => {
                let rows = c.borrow_mut().query(sql, &values)?;
                rows.iter().map(|r| f(&Row::Pg(r))).collect()
            }
        }
    }

    /// The first row of a query, if it has one.
    pub(crate) fn opt<T, P: Params>(self, sql: &str, p: P, f: impl FnOnce(&Row<'_>) -> Result<T>) -> Result<Option<T>> {
        let values = p.values();
        match self {
            Db::Lite(c) => {
                let mut st = c.prepare_cached(sql)?;
                let mut rows = st.query(rusqlite::params_from_iter(values.iter()))?;
                match rows.next()? {
                    Some(r) => Ok(Some(f(&Row::Lite(r))?)),
                    None => Ok(None),
                }
            }
            Db::Pg(c) => {
                let rows = c.borrow_mut().query(sql, &values)?;
                rows.first().map(|r| f(&Row::Pg(r))).transpose()
            }
        }
    }

    /// The first row of a query, which must have one.
    pub(crate) fn row<T, P: Params>(self, sql: &str, p: P, f: impl FnOnce(&Row<'_>) -> Result<T>) -> Result<T> {
        match self.opt(sql, p, f)? {
            Some(v) => Ok(v),
            None => match self {
                // As rusqlite's `query_row` answers.
                Db::Lite(_) => Err(rusqlite::Error::QueryReturnedNoRows.into()),
                Db::Pg(_) => Err(ArchiveError::Corrupt(format!("no row where one must be: {sql}"))),
            },
        }
    }

    /// Statements without parameters, run one after another (a schema's).
    pub(crate) fn batch(self, sql: &str) -> Result<()> {
        match self {
            Db::Lite(c) => Ok(c.execute_batch(sql)?),
            Db::Pg(c) => Ok(c.borrow_mut().client.batch_execute(sql)?),
        }
    }
}

/// SQLite's placeholders as PostgreSQL's: `?N` becomes `$N`, and a bare `?` the number after the
/// largest one before it (as SQLite numbers it). Text in quotes and comments is left as it is.
pub(crate) fn pg_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut chars = sql.chars().peekable();
    let mut largest = 0u32;
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                out.push(c);
                for d in chars.by_ref() {
                    out.push(d);
                    if d == c {
                        break;
                    }
                }
            }
            '-' if chars.peek() == Some(&'-') => {
                out.push(c);
                for d in chars.by_ref() {
                    out.push(d);
                    if d == '\n' {
                        break;
                    }
                }
            }
            '?' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                let n = match digits.parse::<u32>() {
                    Ok(n) => n,
                    Err(_) => largest + 1,
                };
                largest = largest.max(n);
                out.push('$');
                out.push_str(&n.to_string());
            }
            _ => out.push(c),
        }
    }
    out
}

/// Whether an error is PostgreSQL's "try again": a serialization failure (40001) or a deadlock
/// (40P01), either of which rolled the transaction back.
pub(crate) fn pg_retryable(e: &postgres::Error) -> bool {
    use postgres::error::SqlState;
    matches!(e.code(), Some(c) if *c == SqlState::T_R_SERIALIZATION_FAILURE || *c == SqlState::T_R_DEADLOCK_DETECTED)
}

/// A PostgreSQL error as a person reads it: the server's message and detail, or the client's.
pub(crate) fn pg_message(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(d) => match d.detail() {
            Some(detail) => format!("{} ({}; {detail})", d.message(), d.code().code()),
            None => format!("{} ({})", d.message(), d.code().code()),
        },
        None => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::pg_placeholders;

    #[test]
    fn placeholders_are_numbered_as_sqlite_numbers_them() {
        assert_eq!(
            pg_placeholders("SELECT a FROM t WHERE b = ?1 AND c = ?2 OR d = ?1"),
            "SELECT a FROM t WHERE b = $1 AND c = $2 OR d = $1"
        );
        // Bare ones count on from the largest before them.
        assert_eq!(pg_placeholders("x = ? AND y = ? LIMIT ? OFFSET ?"), "x = $1 AND y = $2 LIMIT $3 OFFSET $4");
        assert_eq!(pg_placeholders("x = ?3 AND y = ?"), "x = $3 AND y = $4");
        assert_eq!(pg_placeholders("VALUES (?1, ?2, ?10, ?11)"), "VALUES ($1, $2, $10, $11)");
    }

    #[test]
    fn quoted_text_and_comments_keep_their_question_marks() {
        assert_eq!(
            pg_placeholders("SELECT '?1', \"a?\" FROM t WHERE x = ?1"),
            "SELECT '?1', \"a?\" FROM t WHERE x = $1"
        );
        assert_eq!(pg_placeholders("SELECT 'it''s ?' WHERE y = ?"), "SELECT 'it''s ?' WHERE y = $1");
        assert_eq!(pg_placeholders("-- why? because\nSELECT ?"), "-- why? because\nSELECT $1");
        // A lone minus is an operator, not a comment.
        assert_eq!(pg_placeholders("SELECT n - ?1"), "SELECT n - $1");
    }
}
