//! Tournaments: who owns one, which signing keys it trusts, and its standings, which count only
//! the games that are valid and certified valid by a key it trusts.

use super::names::{check_name, NameKind};
use super::tokens::{Role, Token};
use super::{now, Archive, ArchiveError, Result};
use paifu_core::cert::PublicKey;
use rusqlite::{params, OptionalExtension, Transaction};
use serde::Serialize;

/// A tournament and its size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TournamentRow {
    pub name: String,
    /// Entries in it.
    pub games: u64,
    /// Valid entries in it.
    pub valid: u64,
    /// Games its standings count: valid, and certified valid by a key it trusts.
    pub counted: u64,
    pub owner: Option<String>,
}

/// Who owns a tournament and which keys it trusts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TournamentInfo {
    pub name: String,
    /// The name of the tokens that may add games to it (besides admins); `None` for one made on
    /// the command line or before tournaments had owners: only admins add to it over the web.
    pub owner: Option<String>,
    /// The public keys (64 hex digits) whose certificates its standings accept.
    pub trusted_keys: Vec<String>,
    pub created_at: i64,
}

impl TournamentInfo {
    /// Whether `token` may add games to this tournament: its owner (an organiser) or an admin.
    pub fn accepts_games_from(&self, token: &Token) -> bool {
        token.may(Role::Admin) || (token.may(Role::Organiser) && self.owner.as_deref() == Some(token.name.as_str()))
    }
}

/// One player's line in a tournament's standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub rank: u32,
    pub player: String,
    pub games: u64,
    /// First places (shared firsts count).
    pub firsts: u64,
    pub average_placement: f64,
    /// Sum of final scores.
    pub total_score: i64,
}

fn key_hex(k: &PublicKey) -> String {
    hex::encode(k.to_bytes())
}

/// The condition that a tournament game (`tg`) counts in its standings: the entry counts for its
/// game (valid, see `logs.counted`) and a key the tournament trusts certified it valid.
pub(super) const COUNTS_IN_STANDINGS: &str = "EXISTS (SELECT 1 FROM logs cl WHERE cl.id = tg.log_id AND cl.counted = 1)
     AND EXISTS (SELECT 1 FROM certificates c JOIN tournament_keys k ON k.signer = c.signer
                 WHERE c.log_id = tg.log_id AND c.valid = 1 AND k.tournament_id = tg.tournament_id)";

/// Makes the tournament `name` if there is none, owned by `owner` and trusting `trusted`;
/// answers its id and whether it was made now.
pub(super) fn ensure(
    tx: &Transaction<'_>,
    name: &str,
    owner: Option<&str>,
    trusted: &[String],
) -> rusqlite::Result<(i64, bool)> {
    let made = tx.execute(
        "INSERT INTO tournaments(name, created_at, owner) VALUES (?1, ?2, ?3) ON CONFLICT(name) DO NOTHING",
        params![name, now(), owner],
    )? == 1;
    let id: i64 = tx.query_row("SELECT id FROM tournaments WHERE name = ?1", [name], |r| r.get(0))?;
    if made {
        for k in trusted {
            tx.execute("INSERT OR IGNORE INTO tournament_keys(tournament_id, signer) VALUES (?1, ?2)", params![id, k])?;
        }
    }
    Ok((id, made))
}

impl Archive {
    /// Who owns the tournament `name` and which keys it trusts; `None` when there is none.
    pub fn tournament_info(&self, name: &str) -> Result<Option<TournamentInfo>> {
        let row: Option<(i64, Option<String>, i64)> = self
            .conn
            .prepare_cached("SELECT id, owner, created_at FROM tournaments WHERE name = ?1")?
            .query_row([name], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?;
        let Some((id, owner, created_at)) = row else { return Ok(None) };
        let mut st =
            self.conn.prepare_cached("SELECT signer FROM tournament_keys WHERE tournament_id = ?1 ORDER BY signer")?;
        let trusted_keys = st.query_map([id], |r| r.get(0))?.collect::<std::result::Result<_, _>>()?;
        Ok(Some(TournamentInfo { name: name.to_owned(), owner, trusted_keys, created_at }))
    }

    /// Makes the tournament `name`, owned by `owner` (a token name; `None`: admins only) and
    /// trusting the keys `trusted`. If it exists already nothing changes; the answer says who
    /// owns it and whether it was made now.
    pub fn ensure_tournament(
        &mut self,
        name: &str,
        owner: Option<&str>,
        trusted: &[PublicKey],
    ) -> Result<(TournamentInfo, bool)> {
        check_name(NameKind::Tournament, name)?;
        if let Some(o) = owner {
            check_name(NameKind::Token, o)?;
        }
        let keys: Vec<String> = trusted.iter().map(key_hex).collect();
        let (_, made) = self.write(|tx| Ok(ensure(tx, name, owner, &keys)?))?;
        let info = self.tournament_info(name)?.ok_or_else(|| ArchiveError::NoTournament(name.to_owned()))?;
        Ok((info, made))
    }

    /// Sets the keys a tournament trusts (replacing the ones it trusted): its standings count the
    /// valid games certified valid by one of them.
    pub fn set_trusted_keys(&mut self, name: &str, keys: &[PublicKey]) -> Result<TournamentInfo> {
        let keys: Vec<String> = keys.iter().map(key_hex).collect();
        let found = self.write(|tx| {
            let Some(id) = tx
                .query_row("SELECT id FROM tournaments WHERE name = ?1", [name], |r| r.get::<_, i64>(0))
                .optional()?
            else {
                return Ok(false);
            };
            tx.execute("DELETE FROM tournament_keys WHERE tournament_id = ?1", [id])?;
            for k in &keys {
                tx.execute(
                    "INSERT OR IGNORE INTO tournament_keys(tournament_id, signer) VALUES (?1, ?2)",
                    params![id, k],
                )?;
            }
            Ok(true)
        })?;
        if !found {
            return Err(ArchiveError::NoTournament(name.to_owned()));
        }
        self.tournament_info(name)?.ok_or_else(|| ArchiveError::NoTournament(name.to_owned()))
    }

    /// Every tournament, newest first.
    pub fn tournaments(&self) -> Result<Vec<TournamentRow>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT t.name, t.owner,
                    (SELECT COUNT(*) FROM tournament_games tg WHERE tg.tournament_id = t.id),
                    (SELECT COUNT(*) FROM tournament_games tg JOIN verdicts v ON v.log_id = tg.log_id
                     WHERE tg.tournament_id = t.id AND v.valid = 1),
                    (SELECT COUNT(*) FROM tournament_games tg WHERE tg.tournament_id = t.id AND {COUNTS_IN_STANDINGS})
             FROM tournaments t ORDER BY t.id DESC"
        ))?;
        let v = st
            .query_map([], |r| {
                Ok(TournamentRow {
                    name: r.get(0)?,
                    owner: r.get(1)?,
                    games: r.get::<_, i64>(2)? as u64,
                    valid: r.get::<_, i64>(3)? as u64,
                    counted: r.get::<_, i64>(4)? as u64,
                })
            })?
            .collect::<std::result::Result<_, _>>()?;
        Ok(v)
    }

    /// A tournament's standings over the games that count (valid, and certified valid by a key
    /// the tournament trusts): best average placement first, then more first places, then higher
    /// total score. `None` when there is no such tournament.
    pub fn standings(&self, tournament: &str) -> Result<Option<Vec<Standing>>> {
        let exists: Option<i64> =
            self.conn.query_row("SELECT id FROM tournaments WHERE name = ?1", [tournament], |r| r.get(0)).optional()?;
        let Some(tid) = exists else { return Ok(None) };
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT p.name, COUNT(*), SUM(s.placement = 1), AVG(s.placement), SUM(s.final_score)
             FROM tournament_games tg
             JOIN seats s ON s.log_id = tg.log_id
             JOIN players p ON p.id = s.player_id
             WHERE tg.tournament_id = ?1 AND {COUNTS_IN_STANDINGS}
             GROUP BY p.id
             ORDER BY AVG(s.placement) ASC, SUM(s.placement = 1) DESC, SUM(s.final_score) DESC, p.name"
        ))?;
        let mut v: Vec<Standing> = st
            .query_map([tid], |r| {
                Ok(Standing {
                    rank: 0,
                    player: r.get(0)?,
                    games: r.get::<_, i64>(1)? as u64,
                    firsts: r.get::<_, i64>(2)? as u64,
                    average_placement: r.get(3)?,
                    total_score: r.get(4)?,
                })
            })?
            .collect::<std::result::Result<_, _>>()?;
        for i in 0..v.len() {
            let same = i > 0
                && v[i].average_placement == v[i - 1].average_placement
                && v[i].firsts == v[i - 1].firsts
                && v[i].total_score == v[i - 1].total_score;
            v[i].rank = if same { v[i - 1].rank } else { i as u32 + 1 };
        }
        Ok(Some(v))
    }
}
