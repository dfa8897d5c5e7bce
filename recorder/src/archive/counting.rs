//! Which entry of a game counts, and which one a tournament's standings count.
//!
//! **In the archive** (statistics, players' aggregates, the games a player is shown): among the
//! entries of one game (one game key) that may count (valid, not an excerpt), the one with the
//! highest trust counts (`logs.counted`):
//!
//! 2. certified valid by a key that a tournament it is in trusts;
//! 1. certified valid by any other key (certificates enter the archive only through a server,
//!    signed with its key, or through someone who can write the archive's file, `paifu ingest
//!    --key`);
//! 0. no certificate says it is valid.
//!
//! Among equals the one that counts stays (or, when none counts yet, the first stored). A later
//! entry of higher trust takes over; the earlier one stays stored, unchanged, marked not counted.
//! All valid entries of one game replay to the same results (the game key holds every move and
//! the rules), so a takeover changes no statistic.
//!
//! The **lead** entry of a game (`logs.lead`) is the one that stands for it where a list shows
//! one line per game (a player's games): the counted entry, or, while none counts, the first
//! stored.
//!
//! **In a tournament** (its standings and manifest, `tournament_counted`): among the entries of
//! one game in the tournament that are valid, not excerpts and certified valid by a key the
//! tournament trusts, one counts: the one that counted stays while it still may, else the first
//! stored. Entries outside the tournament never take a game out of its standings, whoever
//! stored them and whatever key signed them; and the choice depends only on the tournament's own
//! entries, certificates and keys, which its published report holds (docs/report.md).

use super::db::{params, Db};
use super::kept::Kept;
use super::Result;

/// An entry's trust, as SQL over the entry `l` (see the module's doc).
pub(super) const TRUST: &str = "CASE
    WHEN EXISTS (SELECT 1 FROM certificates c
                 JOIN tournament_games tg ON tg.log_id = c.log_id
                 JOIN tournament_keys k ON k.tournament_id = tg.tournament_id AND k.signer = c.signer
                 WHERE c.log_id = l.id AND c.valid = 1) THEN 2
    WHEN EXISTS (SELECT 1 FROM certificates c WHERE c.log_id = l.id AND c.valid = 1) THEN 1
    ELSE 0 END";

/// What recounting a game found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Recounted {
    /// The entry that counted before, if one did.
    pub(super) before: Option<i64>,
    /// The entry that counts now, if one does.
    pub(super) now: Option<i64>,
}

/// One entry of a game, as recounting reads it.
struct Entry {
    id: i64,
    eligible: bool,
    trust: i64,
    counted: bool,
    lead: bool,
}

/// Sets which entry of the game `key` counts and which leads (see the module's doc).
/// What changes is gathered in `kept` (a player's games list shows the lead entry).
pub(super) fn recount_game(c: Db<'_>, key: &str, kept: &mut Kept) -> Result<Recounted> {
    let entries: Vec<Entry> = c.rows(
        &format!(
            "SELECT l.id, v.valid = 1 AND v.excerpt IS NULL, {TRUST}, l.counted, l.lead
             FROM logs l JOIN verdicts v ON v.log_id = l.id WHERE l.game_key = ?1 ORDER BY l.id"
        ),
        [key],
        |r| {
            Ok(Entry {
                id: r.get(0)?,
                eligible: r.get::<_, i64>(1)? != 0,
                trust: r.get(2)?,
                counted: r.get::<_, i64>(3)? != 0,
                lead: r.get::<_, i64>(4)? != 0,
            })
        },
    )?;
    let before = entries.iter().find(|e| e.counted).map(|e| e.id);
    let best = entries.iter().filter(|e| e.eligible).map(|e| e.trust).max();
    let now = match (entries.iter().find(|e| e.counted), best) {
        (Some(e), Some(b)) if e.eligible && e.trust == b => Some(e.id),
        (_, Some(b)) => entries.iter().find(|e| e.eligible && e.trust == b).map(|e| e.id),
        (_, None) => None,
    };
    let lead_before = entries.iter().find(|e| e.lead).map(|e| e.id);
    let lead = now.or(lead_before).or(entries.first().map(|e| e.id));
    // Clear before setting: at most one counted and one lead entry per game, at every step.
    if before != now {
        if let Some(old) = before {
            super::exec(c, "UPDATE logs SET counted = 0 WHERE id = ?1", [old])?;
        }
        if let Some(new) = now {
            super::exec(c, "UPDATE logs SET counted = 1 WHERE id = ?1", [new])?;
        }
    }
    if lead_before != lead {
        kept.lead_moved(c, lead_before, lead)?;
        if let Some(old) = lead_before {
            super::exec(c, "UPDATE logs SET lead = 0 WHERE id = ?1", [old])?;
        }
        if let Some(new) = lead {
            super::exec(c, "UPDATE logs SET lead = 1 WHERE id = ?1", [new])?;
        }
    }
    Ok(Recounted { before, now })
}

/// Sets which entry of the game `key` the standings of tournament `tid` count (see the
/// module's doc); the standings' changes are gathered in `kept`.
pub(super) fn recount_in_tournament(c: Db<'_>, tid: i64, key: &str, kept: &mut Kept) -> Result<()> {
    let eligible: Vec<i64> = c.rows(
        "SELECT l.id FROM logs l
         JOIN tournament_games tg ON tg.log_id = l.id AND tg.tournament_id = ?1
         JOIN verdicts v ON v.log_id = l.id
         WHERE l.game_key = ?2 AND v.valid = 1 AND v.excerpt IS NULL
           AND EXISTS (SELECT 1 FROM certificates c JOIN tournament_keys k ON k.signer = c.signer
                       WHERE c.log_id = l.id AND c.valid = 1 AND k.tournament_id = ?1)
         ORDER BY l.id",
        params![tid, key],
        |r| r.get(0),
    )?;
    let current: Vec<i64> = c.rows(
        "SELECT tc.log_id FROM logs l JOIN tournament_counted tc ON tc.log_id = l.id AND tc.tournament_id = ?1
         WHERE l.game_key = ?2 ORDER BY tc.log_id",
        params![tid, key],
        |r| r.get(0),
    )?;
    let keep = current.iter().find(|id| eligible.contains(id)).or(eligible.first()).copied();
    for &id in current.iter().filter(|id| Some(**id) != keep) {
        super::exec(c, "DELETE FROM tournament_counted WHERE tournament_id = ?1 AND log_id = ?2", params![tid, id])?;
        kept.counted_in(tid, id, -1);
    }
    if let Some(id) = keep.filter(|id| !current.contains(id)) {
        super::exec(c, "INSERT INTO tournament_counted(tournament_id, log_id) VALUES (?1, ?2)", params![tid, id])?;
        kept.counted_in(tid, id, 1);
    }
    Ok(())
}

/// After entry `id` (of the game `key`) changed (stored, certified, put in a tournament): its
/// game recounted, and the game in every tournament the entry is in.
pub(super) fn recount_entry(c: Db<'_>, id: i64, key: &str, kept: &mut Kept) -> Result<Recounted> {
    let recounted = recount_game(c, key, kept)?;
    let tournaments: Vec<i64> =
        c.rows("SELECT tournament_id FROM tournament_games WHERE log_id = ?1", [id], |r| r.get(0))?;
    for t in tournaments {
        recount_in_tournament(c, t, key, kept)?;
    }
    Ok(recounted)
}

/// After the keys tournament `tid` trusts changed: every game in it recounted, in the archive
/// (an entry's trust depends on the keys of its tournaments) and in the tournament.
pub(super) fn recount_tournament(c: Db<'_>, tid: i64, kept: &mut Kept) -> Result<()> {
    let keys: Vec<String> = c.rows(
        "SELECT DISTINCT l.game_key FROM tournament_games tg JOIN logs l ON l.id = tg.log_id
         WHERE tg.tournament_id = ?1",
        [tid],
        |r| r.get(0),
    )?;
    for key in keys {
        recount_game(c, &key, kept)?;
        recount_in_tournament(c, tid, &key, kept)?;
    }
    Ok(())
}

/// The game key of entry `id`.
pub(super) fn key_of(c: Db<'_>, id: i64) -> Result<Option<String>> {
    c.opt("SELECT game_key FROM logs WHERE id = ?1", [id], |r| r.get(0))
}
