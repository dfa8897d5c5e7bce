//! The dashboard's sessions (issue 29): a browser that logged in with a token, kept in the
//! archive so that every server on it answers the same cookie, and logging out (or revoking the
//! token) ends the session on all of them.
//!
//! A session's id is 32 random bytes (64 hex digits, the cookie). The archive keeps only its
//! blake3, the token it was opened with, and when it was made and ends: a copy of the database
//! (a dump, a backup, a replica) holds no cookie that logs anyone in. Its CSRF token is not
//! stored either: it is derived from the id ([`session_csrf`], blake3 in key-derivation mode
//! with a context of its own), so the forms of a session carry a value that only a holder of
//! the cookie can compute, and that does not lead back to the cookie. Reading a session is one
//! read of the primary key, joined to its token (revoked or not: the caller decides).
//!
//! Expired sessions are never answered; their rows are removed when they are met, and every
//! log-in removes all expired ones (by the index of expiry). A token has at most
//! [`MAX_SESSIONS_PER_TOKEN`] sessions: the one that ends soonest goes first.

use super::db::params;
use super::tokens::token_row;
use super::{now, Archive, ArchiveError, Result, Token};

/// The most sessions one token keeps at once (the one ending soonest goes first).
pub const MAX_SESSIONS_PER_TOKEN: i64 = 100;

/// The context of the derivation of a session's CSRF token from its id (blake3's KDF mode).
const CSRF_CONTEXT: &str = "paifu 2026-01 dashboard session CSRF token";

/// How a session's id is stored: blake3 of its text, in hex.
fn session_hash(id: &str) -> String {
    blake3::hash(id.as_bytes()).to_hex().to_string()
}

/// The CSRF token of the session whose id (the cookie) is `id`: 64 hex digits, the same on every
/// server, never stored.
pub fn session_csrf(id: &str) -> String {
    hex::encode(blake3::derive_key(CSRF_CONTEXT, id.as_bytes()))
}

/// A session as a request finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// The token it was opened with, as it is now (it may have been revoked since).
    pub token: Token,
    /// When it ends, seconds since the Unix epoch.
    pub expires_at: i64,
}

impl Archive {
    /// Opens a session for token `token` lasting `life_secs`; answers its id (the cookie), which
    /// is in the answer only. Expired sessions are removed, and the token's oldest past
    /// [`MAX_SESSIONS_PER_TOKEN`].
    pub fn open_session(&mut self, token: i64, life_secs: i64) -> Result<String> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| ArchiveError::Randomness(e.to_string()))?;
        let id = hex::encode(bytes);
        let hash = session_hash(&id);
        let at = now();
        self.write(|tx| {
            tx.exec("DELETE FROM sessions WHERE expires_at <= ?1", [at])?;
            tx.exec(
                "INSERT INTO sessions(id_hash, token_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
                params![hash, token, at, at.saturating_add(life_secs)],
            )?;
            tx.exec(
                "DELETE FROM sessions WHERE token_id = ?1 AND id_hash NOT IN
                     (SELECT id_hash FROM sessions WHERE token_id = ?1 ORDER BY expires_at DESC, id_hash LIMIT ?2)",
                params![token, MAX_SESSIONS_PER_TOKEN],
            )?;
            Ok(())
        })?;
        Ok(id)
    }

    /// The session whose id is `id`, with its token; `None` for an id this archive never made,
    /// one that was closed, or one that expired (its row is then removed).
    pub fn session(&mut self, id: &str) -> Result<Option<SessionRow>> {
        let hash = session_hash(id);
        let sql = "SELECT t.id, t.name, t.role, t.created_at, t.revoked_at, s.expires_at
                   FROM sessions s JOIN tokens t ON t.id = s.token_id WHERE s.id_hash = ?1";
        let found = self.db().opt(sql, [&hash], |r| Ok(SessionRow { token: token_row(r)?, expires_at: r.get(5)? }))?;
        match found {
            Some(s) if s.expires_at > now() => Ok(Some(s)),
            Some(_) => {
                self.write(|tx| {
                    tx.exec("DELETE FROM sessions WHERE id_hash = ?1 AND expires_at <= ?2", params![hash, now()])
                })?;
                Ok(None)
            }
            None => Ok(None),
        }
    }

    /// Ends a session (logging out, or its token found revoked): no server answers it again.
    /// Answers whether there was one.
    pub fn close_session(&mut self, id: &str) -> Result<bool> {
        let hash = session_hash(id);
        Ok(self.write(|tx| tx.exec("DELETE FROM sessions WHERE id_hash = ?1", [&hash]))? > 0)
    }

    /// How many sessions the archive holds (expired ones not yet removed too).
    pub fn session_count(&self) -> Result<u64> {
        let n: i64 = self.db().row("SELECT COUNT(*) FROM sessions", params![], |r| r.get(0))?;
        Ok(n as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::super::db::params;
    use super::super::tests::{on_both_backends, temp_archive, Backend};
    use super::super::Role;
    use super::*;

    on_both_backends!(
        a_session_is_found_by_its_id_and_only_its_hash_is_stored,
        sessions_expire_close_and_follow_their_token,
        a_token_keeps_a_bounded_number_of_sessions,
    );

    fn a_session_is_found_by_its_id_and_only_its_hash_is_stored(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let t = a.create_token("Ann", Role::Organiser).unwrap().token;
        let id = a.open_session(t.id, 3600).unwrap();
        assert_eq!(id.len(), 64);
        let s = a.session(&id).unwrap().expect("the session is there");
        assert_eq!((s.token.id, s.token.name.as_str()), (t.id, "Ann"));
        assert!(s.expires_at > now() + 3500);
        // A guessed id, or one of another form, opens nothing.
        assert!(a.session(&"0".repeat(64)).unwrap().is_none());
        assert!(a.session(&id[..63]).unwrap().is_none());
        // What is stored: the hash of the id, not the id, and nothing the CSRF token comes from.
        let stored: Vec<String> = a
            .db()
            .rows("SELECT id_hash || '|' || token_id || '|' || expires_at FROM sessions", params![], |r| r.get(0))
            .unwrap();
        assert_eq!(stored.len(), 1);
        assert!(stored[0].starts_with(&session_hash(&id)), "{stored:?}");
        let csrf = session_csrf(&id);
        assert_eq!(csrf.len(), 64);
        assert_ne!(csrf, id);
        assert!(!stored[0].contains(&id) && !stored[0].contains(&csrf), "{stored:?}");
        // What is stored does not open the session: its hash used as an id opens nothing.
        assert!(a.session(&session_hash(&id)).unwrap().is_none());
        assert_ne!(session_csrf(&session_hash(&id)), csrf);
    }

    fn sessions_expire_close_and_follow_their_token(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let t = a.create_token("Bo", Role::Uploader).unwrap().token;
        // Expired: never answered, its row removed when met.
        let old = a.open_session(t.id, -1).unwrap();
        assert_eq!(a.session_count().unwrap(), 1);
        assert!(a.session(&old).unwrap().is_none());
        assert_eq!(a.session_count().unwrap(), 0);
        // And every log-in removes the expired ones.
        a.open_session(t.id, -1).unwrap();
        let live = a.open_session(t.id, 3600).unwrap();
        assert_eq!(a.session_count().unwrap(), 1);
        // Closed: gone.
        assert!(a.close_session(&live).unwrap());
        assert!(a.session(&live).unwrap().is_none());
        assert!(!a.close_session(&live).unwrap());
        // Revoked token: the session answers the token as it is now, revoked.
        let s = a.open_session(t.id, 3600).unwrap();
        a.revoke_token(t.id).unwrap();
        assert!(a.session(&s).unwrap().unwrap().token.is_revoked());
    }

    fn a_token_keeps_a_bounded_number_of_sessions(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let t = a.create_token("Cy", Role::Uploader).unwrap().token;
        let other = a.create_token("Di", Role::Uploader).unwrap().token;
        let kept = a.open_session(other.id, 7200).unwrap();
        let first = a.open_session(t.id, 60).unwrap();
        for _ in 0..MAX_SESSIONS_PER_TOKEN {
            a.open_session(t.id, 3600).unwrap();
        }
        assert!(a.session(&first).unwrap().is_none(), "the one ending soonest went first");
        assert_eq!(a.session_count().unwrap(), MAX_SESSIONS_PER_TOKEN as u64 + 1);
        assert!(a.session(&kept).unwrap().is_some(), "another token's session is kept");
    }
}
