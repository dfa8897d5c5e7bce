//! Tournaments: who owns one, which signing keys it trusts, and its standings, which count only
//! the games that are valid and certified valid by a key it trusts.

use super::db::{params, Db};
use super::names::{check_name, skeleton, NameKind};
use super::tokens::{Role, Token};
use super::{now, Archive, ArchiveError, Result};
use paifu_core::cert::PublicKey;
use paifu_core::riichi::FactKind;
use paifu_core::Fact;
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
    /// The counted games a player needs for a ranked line in each standings table; `None`: no
    /// minimum (every line is ranked).
    pub min_games: Option<u64>,
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
    /// `None` for a ranked line; for a line below the tournament's minimum number of games,
    /// `unranked (N of M games)` (its `rank` is then 0, and it is listed after the ranked ones).
    pub unranked: Option<String>,
    /// Penalties recorded against the player in the counted games: the rule incidents `chombo`
    /// (riichi), `false_win` (MCR) and `talk` (Ta Yü), one per incident.
    pub penalties: u64,
    /// What those penalties cost in score units, as the games' rulesets charge them at the table
    /// (already in the final scores, never taken off again); `None` when no penalty of the line
    /// has a cost in its ruleset (riichi `chombo=none`, MCR `false_win=0`, Ta Yü's talk).
    pub penalty_points: Option<i64>,
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
/// A key trusted by a tournament (once).
const TRUST_KEY: &str = "INSERT INTO tournament_keys(tournament_id, signer) VALUES (?1, ?2) ON CONFLICT DO NOTHING";

pub(super) const COUNTS_IN_STANDINGS: &str = "EXISTS (SELECT 1 FROM tournament_counted tc
                 WHERE tc.tournament_id = tg.tournament_id AND tc.log_id = tg.log_id)";

/// Makes the tournament `name` if there is none, owned by `owner` and trusting `trusted`;
/// answers its id and whether it was made now. A new name must pass
/// [`super::names::check_new_name`] and may not read as the name of a tournament the archive
/// holds ([`super::NameError::Confusable`] names it).
pub(super) fn ensure(tx: Db<'_>, name: &str, owner: Option<&str>, trusted: &[String]) -> Result<(i64, bool)> {
    let found: Option<i64> = tx.opt("SELECT id FROM tournaments WHERE name = ?1", [name], |r| r.get(0))?;
    if let Some(id) = found {
        return Ok((id, false));
    }
    if let Some(e) = super::new_name_refusal(tx, NameKind::Tournament, name)? {
        return Err(e.into());
    }
    let skeleton = skeleton(name);
    // No games yet: the Merkle root of none (`publish.rs` keeps it as games come).
    let id: i64 = tx.row(
        "INSERT INTO tournaments(name, created_at, owner, skeleton, root) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
        params![name, now(), owner, skeleton, paifu_core::manifest::merkle_root(&[]).to_hex()],
        |r| r.get(0),
    )?;
    for k in trusted {
        tx.exec(TRUST_KEY, params![id, k])?;
    }
    Ok((id, true))
}

impl Archive {
    /// Who owns the tournament `name` and which keys it trusts; `None` when there is none.
    pub fn tournament_info(&self, name: &str) -> Result<Option<TournamentInfo>> {
        let db = self.db();
        let row: Option<(i64, Option<String>, i64, Option<i64>)> =
            db.opt("SELECT id, owner, created_at, min_games FROM tournaments WHERE name = ?1", [name], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?;
        let Some((id, owner, created_at, min_games)) = row else { return Ok(None) };
        let min_games = min_games.and_then(|m| u64::try_from(m).ok()).filter(|m| *m > 0);
        let trusted_keys =
            db.rows("SELECT signer FROM tournament_keys WHERE tournament_id = ?1 ORDER BY signer", [id], |r| r.get(0))?;
        Ok(Some(TournamentInfo { name: name.to_owned(), owner, trusted_keys, created_at, min_games }))
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
        let found = self.write_kept(|tx, kept| {
            let Some(id) = tx.opt("SELECT id FROM tournaments WHERE name = ?1", [name], |r| r.get::<_, i64>(0))? else {
                return Ok(false);
            };
            tx.exec("DELETE FROM tournament_keys WHERE tournament_id = ?1", [id])?;
            for k in &keys {
                tx.exec(TRUST_KEY, params![id, k])?;
            }
            // Which of its entries count, here and in the archive, follows the keys.
            super::counting::recount_tournament(tx, id, kept)?;
            // Its manifest entries list the certificates of the keys it trusts now.
            kept.keys_changed(id);
            Ok(true)
        })?;
        if !found {
            return Err(ArchiveError::NoTournament(name.to_owned()));
        }
        self.tournament_info(name)?.ok_or_else(|| ArchiveError::NoTournament(name.to_owned()))
    }

    /// Sets the counted games a player needs for a ranked line in the tournament's standings
    /// (`None` or 0: no minimum). Lines with fewer are listed after the ranked ones, unranked.
    /// Nothing kept changes: the minimum applies as the standings are read.
    pub fn set_min_games(&mut self, name: &str, min_games: Option<u64>) -> Result<TournamentInfo> {
        let min = min_games.filter(|m| *m > 0).map(|m| i64::try_from(m).unwrap_or(i64::MAX));
        let changed =
            self.write(|tx| tx.exec("UPDATE tournaments SET min_games = ?2 WHERE name = ?1", params![name, min]))?;
        if changed == 0 {
            return Err(ArchiveError::NoTournament(name.to_owned()));
        }
        self.tournament_info(name)?.ok_or_else(|| ArchiveError::NoTournament(name.to_owned()))
    }

    /// Every tournament, newest first.
    pub fn tournaments(&self) -> Result<Vec<TournamentRow>> {
        // The counts kept as games, certificates and keys are added (see `aggregates`).
        self.db().rows(
            "SELECT t.name, t.owner, t.games, t.valid, t.counted FROM tournaments t ORDER BY t.id DESC",
            params![],
            |r| {
                Ok(TournamentRow {
                    name: r.get(0)?,
                    owner: r.get(1)?,
                    games: r.get::<_, i64>(2)? as u64,
                    valid: r.get::<_, i64>(3)? as u64,
                    counted: r.get::<_, i64>(4)? as u64,
                })
            },
        )
    }

    /// A tournament's standings over the games that count (valid, and certified valid by a key
    /// the tournament trusts), read from the lines kept as games count and stop counting: best
    /// average placement first, then more first places, then higher total score. `None` when
    /// there is no such tournament.
    pub fn standings(&self, tournament: &str) -> Result<Option<Vec<Standing>>> {
        let db = self.db();
        let exists: Option<(i64, Option<i64>)> =
            db.opt("SELECT id, min_games FROM tournaments WHERE name = ?1", [tournament], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
        let Some((tid, min_games)) = exists else { return Ok(None) };
        let lines: Vec<Standing> = db.rows(
            "SELECT ts.game, ts.ruleset, p.name, ts.games, ts.firsts, ts.placement_sum, ts.total_score, ts.points,
                    ts.point_games, COALESCE(tp.penalties, 0), COALESCE(tp.penalty_points, 0),
                    COALESCE(tp.costed, 0)
             FROM tournament_standings ts JOIN players p ON p.id = ts.player_id
             LEFT JOIN tournament_penalties tp ON tp.tournament_id = ts.tournament_id AND tp.game = ts.game
                  AND tp.ruleset = ts.ruleset AND tp.player_id = ts.player_id
             WHERE ts.tournament_id = ?1",
            [tid],
            |r| {
                let n = |i| r.get::<_, i64>(i).map(|v| v.max(0) as u64);
                Ok(Standing {
                    game: r.get(0)?,
                    ruleset: r.get(1)?,
                    rank: 0,
                    player: r.get(2)?,
                    games: n(3)?,
                    firsts: n(4)?,
                    placement_sum: n(5)?,
                    average_placement: 0.0,
                    total_score: r.get(6)?,
                    points: (r.get::<_, i64>(8)? > 0).then(|| r.get(7)).transpose()?,
                    unranked: None,
                    penalties: n(9)?,
                    penalty_points: (r.get::<_, i64>(11)? > 0).then(|| r.get(10)).transpose()?,
                })
            },
        )?;
        Ok(Some(ranked(lines, min_games.and_then(|m| u64::try_from(m).ok()))))
    }
}

/// Lines of standings ranked: a table per game and ruleset (in their order), each line's
/// average place, its rank in its table (equal lines share one). With a minimum number of games,
/// only lines with at least that many are ranked; the others follow them, rank 0 and marked
/// `unranked (N of M games)`, most games first (then as ranked lines are ordered).
pub(super) fn ranked(lines: Vec<Standing>, min_games: Option<u64>) -> Vec<Standing> {
    let min = min_games.unwrap_or(0);
    let mut tables: BTreeMap<(String, String), Vec<Standing>> = BTreeMap::new();
    for l in lines {
        tables.entry((l.game.clone(), l.ruleset.clone())).or_default().push(l);
    }
    let mut out = Vec::new();
    for (_, mut v) in tables {
        for l in &mut v {
            l.average_placement = l.placement_sum as f64 / l.games.max(1) as f64;
        }
        let (mut v, mut below): (Vec<Standing>, Vec<Standing>) = v.into_iter().partition(|l| l.games >= min);
        v.sort_by(|a, b| a.order(b).then_with(|| a.player.cmp(&b.player)));
        for i in 0..v.len() {
            let same = i > 0 && v[i].order(&v[i - 1]).is_eq();
            v[i].rank = if same { v[i - 1].rank } else { i as u32 + 1 };
        }
        below.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.order(b)).then_with(|| a.player.cmp(&b.player)));
        for l in &mut below {
            l.rank = 0;
            l.unranked = Some(format!("unranked ({} of {min} games)", l.games));
        }
        out.extend(v);
        out.extend(below);
    }
    out
}

/// One seat's part in a line of standings.
#[derive(Default)]
struct Part {
    games: i64,
    firsts: i64,
    placement_sum: i64,
    total_score: i64,
    points: i64,
    point_games: i64,
}

/// Adds to the kept standings what each change means: `(tournament, entry, n)`, the entry now
/// counting in the tournament's standings (`n` 1) or no longer (-1). Each seat of the entry
/// is a game of its player's line (a player in two seats, two); a riichi entry's final points
/// are its last round's `final_points` facts, and how its ruleset counts them is kept beside
/// the standings (`tournament_terms`).
pub(super) fn keep_standings(c: Db<'_>, changes: &[(i64, i64, i64)]) -> Result<()> {
    if changes.is_empty() {
        return Ok(());
    }
    let mut lines: BTreeMap<(i64, String, String, i64), Part> = BTreeMap::new();
    let mut terms: BTreeMap<(i64, String, String), i64> = BTreeMap::new();
    for &(tid, id, n) in changes {
        let (game, ruleset, header, last_facts): (String, String, Option<String>, Option<String>) = c.row(
            "SELECT COALESCE(l.game, ''), COALESCE(l.ruleset, ''), l.header_json,
                    (SELECT r.facts FROM rounds r WHERE r.log_id = l.id ORDER BY r.round DESC LIMIT 1)
             FROM logs l WHERE l.id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        let rows: Vec<(i64, Option<i64>, Option<i64>, i64)> = c.rows(
            "SELECT s.player_id, s.placement, s.final_score, s.seat FROM seats s WHERE s.log_id = ?1 ORDER BY s.seat",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        for (player, placement, score, seat) in rows {
            let points = match game.as_str() {
                "riichi" => final_points(last_facts.as_deref(), seat)?,
                _ => None,
            };
            let place = placement.and_then(|p| u64::try_from(p).ok()).unwrap_or(0) as i64;
            let line = lines.entry((tid, game.clone(), ruleset.clone(), player)).or_default();
            line.games += n;
            line.firsts += n * i64::from(place == 1);
            line.placement_sum += n * place;
            line.total_score += n * score.unwrap_or(0);
            if let Some(p) = points {
                line.points += n * p;
                line.point_games += n;
            }
        }
        if game == "riichi" {
            if let Some(header) = header {
                let header: paifu_core::log::Header = super::parse_json(&header, "a stored header")?;
                let rules = <paifu_core::riichi::Riichi as paifu_core::Game>::rules(&ruleset, &header.options)
                    .map_err(|e| ArchiveError::Corrupt(format!("a counted riichi game's options: {}", e.0)))?;
                *terms.entry((tid, ruleset.clone(), rules.final_points_terms())).or_default() += n;
            }
        }
    }
    for ((tid, game, ruleset, player), p) in &lines {
        let games: i64 = c.row(
            "INSERT INTO tournament_standings AS ts(tournament_id, game, ruleset, player_id, games, firsts,
                                                    placement_sum, total_score, points, point_games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
             ON CONFLICT(tournament_id, game, ruleset, player_id) DO UPDATE SET
                 games = ts.games + excluded.games, firsts = ts.firsts + excluded.firsts,
                 placement_sum = ts.placement_sum + excluded.placement_sum,
                 total_score = ts.total_score + excluded.total_score,
                 points = ts.points + excluded.points, point_games = ts.point_games + excluded.point_games
             RETURNING games",
            params![
                tid,
                game,
                ruleset,
                player,
                p.games,
                p.firsts,
                p.placement_sum,
                p.total_score,
                p.points,
                p.point_games
            ],
            |r| r.get(0),
        )?;
        match games {
            0 => {
                c.exec(
                    "DELETE FROM tournament_standings
                     WHERE tournament_id = ?1 AND game = ?2 AND ruleset = ?3 AND player_id = ?4",
                    params![tid, game, ruleset, player],
                )?;
            }
            g if g < 0 => return Err(ArchiveError::Corrupt(format!("a line of standings fell below no games: {g}"))),
            _ => {}
        }
    }
    for ((tid, ruleset, text), n) in terms.iter().filter(|(_, n)| **n != 0) {
        let games: i64 = c.row(
            "INSERT INTO tournament_terms(tournament_id, ruleset, terms, games) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT(tournament_id, ruleset, terms) DO UPDATE SET games = tournament_terms.games + excluded.games
             RETURNING games",
            params![tid, ruleset, text, n],
            |r| r.get(0),
        )?;
        if games <= 0 {
            c.exec(
                "DELETE FROM tournament_terms WHERE tournament_id = ?1 AND ruleset = ?2 AND terms = ?3",
                params![tid, ruleset, text],
            )?;
        }
    }
    Ok(())
}

/// A seat's penalties in one game: how many, what the costed ones cost (score units), how many
/// had a cost.
#[derive(Clone, Copy, Default)]
struct Penalty {
    count: i64,
    points: i64,
    costed: i64,
}

/// Each seat's penalties in entry `id`: the rule incidents its rounds' facts record (one fact
/// per incident, `close_round` in core), and what each cost as the ruleset charges it at the
/// table: a riichi chombo, the offender's deltas of its annulled round (the penalty alone,
/// docs/rules/riichi.md "Chombo"), costed when the ruleset's `chombo` is `mangan`; an MCR
/// false win, the ruleset's `false_win` to each other player (docs/rules/mcr.md), costed when it
/// is not 0; a Ta Yü talk costs a turn, never points.
fn penalties_of(
    c: Db<'_>,
    id: i64,
    game: &str,
    ruleset: &str,
    header: Option<&str>,
    seats: usize,
) -> Result<BTreeMap<i64, Penalty>> {
    use paifu_core::IncidentKind;
    let mut out: BTreeMap<i64, Penalty> = BTreeMap::new();
    // Only the rounds whose facts name a rule incident are read (the text is checked again below).
    let rows: Vec<(String, String)> = c.rows(
        "SELECT facts, deltas FROM rounds WHERE log_id = ?1
             AND (facts LIKE '%\"chombo\"%' OR facts LIKE '%\"false_win\"%' OR facts LIKE '%\"talk\"%')
         ORDER BY round",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let mut options = None;
    for (facts, deltas) in rows {
        let facts: Vec<Fact> = super::parse_json(&facts, "round facts")?;
        for f in &facts {
            let Some(seat) = f.seat else { continue };
            let kind = IncidentKind::from_fact_key(game, &f.key);
            if !matches!(kind, Some(IncidentKind::Chombo | IncidentKind::FalseWin | IncidentKind::Talk)) {
                continue;
            }
            if options.is_none() {
                let text =
                    header.ok_or_else(|| ArchiveError::Corrupt(format!("entry {id}: penalties but no header")))?;
                let h: paifu_core::log::Header = super::parse_json(text, "a stored header")?;
                options = Some(h.options);
            }
            let Some(opts) = options.as_ref() else { continue };
            let bad = |e: paifu_core::SetupError| ArchiveError::Corrupt(format!("entry {id}'s options: {}", e.0));
            let cost = match kind {
                Some(IncidentKind::Chombo) => {
                    let rules = <paifu_core::riichi::Riichi as paifu_core::Game>::rules(ruleset, opts).map_err(bad)?;
                    if rules.chombo == paifu_core::riichi::Chombo::Off {
                        None
                    } else {
                        let d: Vec<i64> = super::parse_json(&deltas, "round deltas")?;
                        Some(-d.get(usize::from(seat)).copied().unwrap_or(0).min(0))
                    }
                }
                Some(IncidentKind::FalseWin) => {
                    let rules = <paifu_core::mcr::Mcr as paifu_core::Game>::rules(ruleset, opts).map_err(bad)?;
                    (rules.false_win > 0).then(|| rules.false_win * (seats.max(1) as i64 - 1))
                }
                _ => None,
            };
            let p = out.entry(i64::from(seat)).or_default();
            p.count += 1;
            if let Some(cost) = cost {
                p.points += cost;
                p.costed += 1;
            }
        }
    }
    Ok(out)
}

/// Adds to the kept penalties (`tournament_penalties`, migration 10) what each change means,
/// as [`keep_standings`] does for the standings: `(tournament, entry, n)`, each seat's rule
/// incidents in the entry and their cost (see [`penalties_of`]) added `n` times to its player's
/// line; a line back at no penalty is dropped.
pub(super) fn keep_penalties(c: Db<'_>, changes: &[(i64, i64, i64)]) -> Result<()> {
    for &(tid, id, n) in changes {
        let (game, ruleset, header, seats): (String, String, Option<String>, i64) = c.row(
            "SELECT COALESCE(l.game, ''), COALESCE(l.ruleset, ''), l.header_json,
                    (SELECT COUNT(*) FROM seats s WHERE s.log_id = l.id)
             FROM logs l WHERE l.id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        let seats = usize::try_from(seats).unwrap_or(0);
        for (seat, p) in penalties_of(c, id, &game, &ruleset, header.as_deref(), seats)? {
            let Some(pid) =
                c.opt("SELECT player_id FROM seats WHERE log_id = ?1 AND seat = ?2", params![id, seat], |r| {
                    r.get::<_, i64>(0)
                })?
            else {
                return Err(ArchiveError::Corrupt(format!("entry {id}: a penalty of seat {seat}, which it has not")));
            };
            let left: i64 = c.row(
                "INSERT INTO tournament_penalties AS tp(tournament_id, game, ruleset, player_id, penalties,
                                                       penalty_points, costed)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT(tournament_id, game, ruleset, player_id) DO UPDATE SET
                     penalties = tp.penalties + excluded.penalties,
                     penalty_points = tp.penalty_points + excluded.penalty_points,
                     costed = tp.costed + excluded.costed
                 RETURNING penalties",
                params![tid, game, ruleset, pid, n * p.count, n * p.points, n * p.costed],
                |r| r.get(0),
            )?;
            match left {
                0 => {
                    c.exec(
                        "DELETE FROM tournament_penalties
                         WHERE tournament_id = ?1 AND game = ?2 AND ruleset = ?3 AND player_id = ?4",
                        params![tid, game, ruleset, pid],
                    )?;
                }
                l if l < 0 => return Err(ArchiveError::Corrupt(format!("a line's penalties fell below none: {l}"))),
                _ => {}
            }
        }
    }
    Ok(())
}

/// How the counted riichi games of tournament `tid` count their final points, per ruleset
/// (kept by [`keep_standings`]): each distinct setting once, in order.
pub(super) fn final_points_terms(c: Db<'_>, tid: i64) -> Result<BTreeMap<(String, String), Vec<String>>> {
    let rows: Vec<(String, String)> = c.rows(
        "SELECT ruleset, terms FROM tournament_terms WHERE tournament_id = ?1 AND games > 0 ORDER BY ruleset, terms",
        [tid],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let mut out: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for (ruleset, terms) in rows {
        out.entry(("riichi".to_owned(), ruleset)).or_default().push(terms);
    }
    Ok(out)
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
            unranked: None,
            penalties: 0,
            penalty_points: None,
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
