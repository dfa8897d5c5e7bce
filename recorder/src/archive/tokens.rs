//! Credentials: who may write to the archive through the web server.
//!
//! A token is 32 random bytes written as `pft_` and 64 hex digits. Only its blake3 is stored, so
//! the archive cannot show a token again: it is printed once when made. Each token has a name
//! (the person or program it was given to: tournaments are owned by a name, so a new token with
//! the same name keeps them) and a role.

use super::db::{params, Row};
use super::names::{check_name, NameKind};
use super::{now, Archive, ArchiveError, Result};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// What a token may do; each role may do what the ones before it may.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Uploads logs (outside tournaments).
    Uploader,
    /// Also makes tournaments, adds games to their own, sets the keys they trust, and has
    /// stored games signed on demand.
    Organiser,
    /// Also does all of that for every tournament.
    Admin,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Uploader, Role::Organiser, Role::Admin];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Uploader => "uploader",
            Role::Organiser => "organiser",
            Role::Admin => "admin",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A role name that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the role must be uploader, organiser or admin")]
pub struct BadRole;

impl FromStr for Role {
    type Err = BadRole;
    fn from_str(s: &str) -> std::result::Result<Role, BadRole> {
        Role::ALL.into_iter().find(|r| r.as_str() == s).ok_or(BadRole)
    }
}

/// A stored token, without its secret (which is not stored).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Token {
    pub id: i64,
    pub name: String,
    pub role: Role,
    /// When it was made, seconds since the Unix epoch.
    pub created_at: i64,
    /// When it was revoked, if it was.
    pub revoked_at: Option<i64>,
}

impl Token {
    pub fn is_revoked(&self) -> bool {
        self.revoked_at.is_some()
    }

    /// Whether it may do what `role` may.
    pub fn may(&self, role: Role) -> bool {
        !self.is_revoked() && self.role >= role
    }
}

/// A token just made: the secret is here and nowhere else.
#[derive(Clone, Debug)]
pub struct NewToken {
    pub token: Token,
    /// `pft_` and 64 hex digits.
    pub secret: String,
}

/// The prefix of every token.
pub const TOKEN_PREFIX: &str = "pft_";

/// How a token is stored: blake3 of its text, in hex.
fn token_hash(secret: &str) -> String {
    blake3::hash(secret.as_bytes()).to_hex().to_string()
}

pub(super) fn token_row(r: &Row<'_>) -> Result<Token> {
    let role: String = r.get(2)?;
    Ok(Token {
        id: r.get(0)?,
        name: r.get(1)?,
        // The column's CHECK allows only the three names.
        role: role.parse().unwrap_or(Role::Uploader),
        created_at: r.get(3)?,
        revoked_at: r.get(4)?,
    })
}

const TOKEN_COLUMNS: &str = "id, name, role, created_at, revoked_at";

impl Archive {
    /// Makes a token for `name` with `role`. The secret is in the answer only.
    pub fn create_token(&mut self, name: &str, role: Role) -> Result<NewToken> {
        check_name(NameKind::Token, name)?;
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| ArchiveError::Randomness(e.to_string()))?;
        let secret = format!("{TOKEN_PREFIX}{}", hex::encode(bytes));
        let hash = token_hash(&secret);
        let created_at = now();
        let id = self.write(|tx| {
            tx.row(
                "INSERT INTO tokens(name, role, hash, created_at) VALUES (?1, ?2, ?3, ?4) RETURNING id",
                params![name, role.as_str(), hash, created_at],
                |r| r.get(0),
            )
        })?;
        Ok(NewToken { token: Token { id, name: name.to_owned(), role, created_at, revoked_at: None }, secret })
    }

    /// Every token, oldest first.
    pub fn tokens(&self) -> Result<Vec<Token>> {
        self.db().rows(&format!("SELECT {TOKEN_COLUMNS} FROM tokens ORDER BY id"), params![], token_row)
    }

    /// One token by its number.
    pub fn token(&self, id: i64) -> Result<Option<Token>> {
        let sql = format!("SELECT {TOKEN_COLUMNS} FROM tokens WHERE id = ?1");
        self.db().opt(&sql, [id], token_row)
    }

    /// The token whose secret this is, revoked or not; `None` for a secret the archive never made.
    pub fn token_by_secret(&self, secret: &str) -> Result<Option<Token>> {
        let sql = format!("SELECT {TOKEN_COLUMNS} FROM tokens WHERE hash = ?1");
        self.db().opt(&sql, [token_hash(secret)], token_row)
    }

    /// Revokes a token: it no longer writes anything, from the next request on. Answers the
    /// token as it is now (`None` when there is no token `id`); revoking twice keeps the first
    /// time.
    pub fn revoke_token(&mut self, id: i64) -> Result<Option<Token>> {
        let at = now();
        self.write(|tx| {
            tx.exec("UPDATE tokens SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL", params![id, at])?;
            Ok(())
        })?;
        self.token(id)
    }
}
