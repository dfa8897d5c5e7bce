//! Tournaments: who owns one, which signing keys it trusts, and its standings, which count only
//! the games that are valid and certified valid by a key it trusts.

use super::names::{check_name, check_new_name, skeleton, NameError, NameKind};
use super::tokens::{Role, Token};
use super::{now, Archive, ArchiveError, Result};
use paifu_core::cert::PublicKey;
use paifu_core::riichi::FactKind;
use paifu_core::Fact;
use rusqlite::{params, OptionalExtension, Transaction};
use serde::Serialize;
use std::collections::BTreeMap;

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

/// One player's line in a tournament's standings. Standings are kept apart per game and ruleset
/// (`game`, `ruleset`): points of different games are never added together, and each table is
/// ranked on its own.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// The game kind of this table (`riichi`, `tzq`, ...).
    pub game: String,
    /// The ruleset of this table.
    pub ruleset: String,
    /// The rank within this table; equal lines (every ranking key equal) share a rank.
    pub rank: u32,
    pub player: String,
    pub games: u64,
    /// First places (shared firsts count).
    pub firsts: u64,
    /// Sum of places: the average place is `placement_sum / games`, compared exactly.
    pub placement_sum: u64,
    pub average_placement: f64,
    /// Sum of final scores.
    pub total_score: i64,
    /// Riichi: the sum of the final results after uma and oka as the game's ruleset counts them
    /// (the engine's `final_points` facts), in score units: 1000 is one point.
    pub points: Option<i64>,
}

impl Standing {
    /// The ranking keys, best first (docs/web.md "Standings"): riichi by points, then average
    /// place, then firsts; the other games by average place, then firsts, then total score.
    fn order(&self, other: &Standing) -> std::cmp::Ordering {
        // a/b < c/d exactly: a*d < c*b (no rounding of averages).
        let place = (u128::from(self.placement_sum) * u128::from(other.games))
            .cmp(&(u128::from(other.placement_sum) * u128::from(self.games)));
        match (self.points, other.points) {
            (Some(a), Some(b)) => b.cmp(&a).then(place).then(other.firsts.cmp(&self.firsts)),
            _ => place.then(other.firsts.cmp(&self.firsts)).then(other.total_score.cmp(&self.total_score)),
        }
    }
}

fn key_hex(k: &PublicKey) -> String {
    hex::encode(k.to_bytes())
}

/// The condition that a tournament game (`tg`) counts in its standings: it is the entry of its
/// game that the tournament counts (valid, not an excerpt, certified valid by a key the
/// tournament trusts, and the first such of its game in the tournament: `counting.rs`).
pub(super) const COUNTS_IN_STANDINGS: &str = "EXISTS (SELECT 1 FROM tournament_counted tc
                 WHERE tc.tournament_id = tg.tournament_id AND tc.log_id = tg.log_id)";

/// Makes the tournament `name` if there is none, owned by `owner` and trusting `trusted`;
/// answers its id and whether it was made now. A new name must pass
/// [`super::names::check_new_name`] and may not read as the name of a tournament the archive
/// holds ([`NameError::Confusable`] names it).
pub(super) fn ensure(tx: &Transaction<'_>, name: &str, owner: Option<&str>, trusted: &[String]) -> Result<(i64, bool)> {
    let found: Option<i64> =
        tx.query_row("SELECT id FROM tournaments WHERE name = ?1", [name], |r| r.get(0)).optional()?;
    if let Some(id) = found {
        return Ok((id, false));
    }
    check_name(NameKind::Tournament, name)?;
    let skeleton = skeleton(name);
    let like: Option<String> = tx
        .query_row("SELECT name FROM tournaments WHERE skeleton = ?1 ORDER BY id LIMIT 1", [&skeleton], |r| r.get(0))
        .optional()?;
    if let Some(existing) = like {
        return Err(NameError::Confusable { kind: NameKind::Tournament, existing }.into());
    }
    check_new_name(NameKind::Tournament, name)?;
    tx.execute(
        "INSERT INTO tournaments(name, created_at, owner, skeleton) VALUES (?1, ?2, ?3, ?4)",
        params![name, now(), owner, skeleton],
    )?;
    let id = tx.last_insert_rowid();
    for k in trusted {
        tx.execute("INSERT OR IGNORE INTO tournament_keys(tournament_id, signer) VALUES (?1, ?2)", params![id, k])?;
    }
    Ok((id, true))
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
        let (_, made) = self.write(|tx| ensure(tx, name, owner, &keys))?;
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
            // Which of its entries count, here and in the archive, follows the keys.
            super::counting::recount_tournament(tx, id)?;
            Ok(true)
        })?;
        if !found {
            return Err(ArchiveError::NoTournament(name.to_owned()));
        }
        self.tournament_info(name)?.ok_or_else(|| ArchiveError::NoTournament(name.to_owned()))
    }

    /// Every tournament, newest first.
    pub fn tournaments(&self) -> Result<Vec<TournamentRow>> {
        // The counts kept as games, certificates and keys are added (see `aggregates`).
        let mut st = self.conn.prepare_cached(
            "SELECT t.name, t.owner, t.games, t.valid, t.counted FROM tournaments t ORDER BY t.id DESC",
        )?;
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
            "SELECT COALESCE(l.game, ''), COALESCE(l.ruleset, ''), p.name, s.placement, s.final_score,
                    (SELECT r.facts FROM rounds r WHERE r.log_id = l.id ORDER BY r.round DESC LIMIT 1), s.seat
             FROM tournament_games tg
             JOIN logs l ON l.id = tg.log_id
             JOIN seats s ON s.log_id = tg.log_id
             JOIN players p ON p.id = s.player_id
             WHERE tg.tournament_id = ?1 AND {COUNTS_IN_STANDINGS}"
        ))?;
        type Line = (String, String, String, Option<i64>, Option<i64>, Option<String>, i64);
        let lines: Vec<Line> = st
            .query_map([tid], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?)))?
            .collect::<std::result::Result<_, _>>()?;
        let mut tables: BTreeMap<(String, String), BTreeMap<String, Standing>> = BTreeMap::new();
        for (game, ruleset, player, placement, score, last_facts, seat) in lines {
            let points = match game.as_str() {
                "riichi" => final_points(last_facts.as_deref(), seat)?,
                _ => None,
            };
            let line =
                tables.entry((game.clone(), ruleset.clone())).or_default().entry(player.clone()).or_insert(Standing {
                    game,
                    ruleset,
                    rank: 0,
                    player,
                    games: 0,
                    firsts: 0,
                    placement_sum: 0,
                    average_placement: 0.0,
                    total_score: 0,
                    points: None,
                });
            let place = placement.and_then(|p| u64::try_from(p).ok()).unwrap_or(0);
            line.games += 1;
            line.firsts += u64::from(place == 1);
            line.placement_sum += place;
            line.total_score += score.unwrap_or(0);
            if let Some(p) = points {
                line.points = Some(line.points.unwrap_or(0) + p);
            }
        }
        let mut out = Vec::new();
        for (_, lines) in tables {
            let mut v: Vec<Standing> = lines.into_values().collect();
            for l in &mut v {
                l.average_placement = l.placement_sum as f64 / l.games.max(1) as f64;
            }
            v.sort_by(|a, b| a.order(b).then_with(|| a.player.cmp(&b.player)));
            for i in 0..v.len() {
                let same = i > 0 && v[i].order(&v[i - 1]).is_eq();
                v[i].rank = if same { v[i - 1].rank } else { i as u32 + 1 };
            }
            out.extend(v);
        }
        Ok(Some(out))
    }
}

/// A riichi seat's final result after uma and oka: the engine's `final_points` fact in the
/// game's last round (stored facts that do not read are a corrupt archive, not a missing result).
fn final_points(last_facts: Option<&str>, seat: i64) -> Result<Option<i64>> {
    let Some(text) = last_facts else { return Ok(None) };
    let facts: Vec<Fact> = super::parse_json(text, "round facts")?;
    Ok(facts.iter().find_map(|f| {
        (f.key_as::<FactKind>() == Some(FactKind::FinalPoints) && f.seat.map(i64::from) == Some(seat))
            .then_some(f.value)
    }))
}

#[cfg(test)]
mod tests {
    use super::Standing;

    fn line(
        player: &str,
        games: u64,
        placement_sum: u64,
        firsts: u64,
        total_score: i64,
        points: Option<i64>,
    ) -> Standing {
        Standing {
            game: "g".into(),
            ruleset: "r".into(),
            rank: 0,
            player: player.into(),
            games,
            firsts,
            placement_sum,
            average_placement: placement_sum as f64 / games as f64,
            total_score,
            points,
        }
    }

    #[test]
    fn lines_rank_by_exact_averages_then_firsts_then_scores() {
        use std::cmp::Ordering::*;
        // 1/3 of a place better is better, however close the rounded averages.
        let a = line("a", 3, 4, 2, 0, None); // 1.333...
        let b = line("b", 2000, 2667, 2, 0, None); // 1.3335
        assert_eq!(a.order(&b), Less);
        // The same average (2/4 and 1/2 places) ties on it; firsts, then total score decide.
        let c = line("c", 4, 6, 2, 10, None);
        let d = line("d", 2, 3, 1, 99, None);
        assert_eq!(c.order(&d), Less);
        let e = line("e", 2, 3, 1, 50, None);
        assert_eq!(d.order(&e), Less);
        assert_eq!(e.order(&line("f", 2, 3, 1, 50, None)), Equal, "equal lines share a rank");
        // Riichi: points first, whatever the places.
        let r1 = line("r1", 2, 4, 0, 0, Some(5_000));
        let r2 = line("r2", 2, 2, 2, 0, Some(4_900));
        assert_eq!(r1.order(&r2), Less);
    }
}
