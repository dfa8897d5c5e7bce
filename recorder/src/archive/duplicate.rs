//! The standings of a tournament's duplicate games (docs/play.md, "Duplicate tables"): each
//! player's mean rank points with a 95% interval over the duplicate sets, computed by the
//! analyzer's statistic (`paifu_analyzer::duplicate`), the one `paifu arena --duplicate` prints.
//!
//! Which games form one set is read from what every duplicate game carries already, in the
//! arena and at a table alike: its header's meta `duplicate` (`deal D of N, rotation R of S`)
//! marks it, and the games of one deal share its seed, so its seed's commitment (the header's
//! `commitment`) names the set. A set is complete when it holds one counted game of each of its
//! S rotations; a set missing a rotation, or holding one twice, is not counted (and said).
//!
//! Plain SQL (a `LIKE` prefilter, no JSON function): the headers are read here.

use super::tournaments::COUNTS_IN_STANDINGS;
use super::{parse_json, Archive, Result};
use paifu_analyzer::duplicate::{summarise, DuplicateTable, GamePlaces};
use paifu_core::log::Header;
use std::collections::{BTreeMap, BTreeSet};

/// The header meta key that marks a duplicate game.
const META: &str = "duplicate";

/// The counted duplicate games of the tournament `?1`, oldest first: from the index of duplicate
/// games (migration 14, whose condition is this statement's `LIKE` word for word), each looked up
/// in the tournament. `CROSS JOIN` keeps SQLite's planner from starting at the tournament's games
/// and reading every one's header (PostgreSQL plans it freely, and starts at the index as well).
pub(super) fn games_sql() -> String {
    format!(
        "SELECT l.id, COALESCE(l.game, ''), COALESCE(l.ruleset, ''), l.header_json
         FROM logs l CROSS JOIN tournament_games tg
         WHERE tg.log_id = l.id AND tg.tournament_id = ?1 AND {COUNTS_IN_STANDINGS}
               AND l.header_json LIKE '%\"{META}\"%'
         ORDER BY l.id"
    )
}

/// `deal D of N, rotation R of S` read as `(R, S)`; `None` for any other text.
fn rotation(meta: &str) -> Option<(u32, u32)> {
    let (_, rest) = meta.split_once(", rotation ")?;
    let (r, s) = rest.split_once(" of ")?;
    let (r, s): (u32, u32) = (r.parse().ok()?, s.parse().ok()?);
    (1..=s).contains(&r).then_some((r, s))
}

/// One counted game of a set.
struct SetGame {
    rotation: u32,
    places: GamePlaces,
}

impl Archive {
    /// The duplicate standings of the tournament `name`, a table per game and ruleset that has
    /// duplicate games among the games its standings count (none: an empty list); `None` when
    /// there is no such tournament.
    pub fn duplicate_standings(&self, name: &str) -> Result<Option<Vec<DuplicateTable>>> {
        let db = self.db();
        let Some(tid) = db.opt("SELECT id FROM tournaments WHERE name = ?1", [name], |r| r.get::<_, i64>(0))? else {
            return Ok(None);
        };
        let sql = games_sql();
        let rows: Vec<(i64, String, String, Option<String>)> =
            db.rows(&sql, [tid], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        // (game, ruleset, seats) -> the deal's commitment -> its games.
        let mut sets: BTreeMap<(String, String, usize), BTreeMap<String, Vec<SetGame>>> = BTreeMap::new();
        for (id, game, ruleset, header) in rows {
            let Some(header) = header else { continue };
            let header: Header = parse_json(&header, "a stored header")?;
            let (Some((rotation, of)), Some(commitment)) =
                (header.meta.get(META).and_then(|m| rotation(m)), header.commitment)
            else {
                continue;
            };
            let seated: Vec<(String, Option<i64>)> = db.rows(
                "SELECT p.name, s.placement FROM seats s JOIN players p ON p.id = s.player_id
                 WHERE s.log_id = ?1 ORDER BY s.seat",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            if of as usize != seated.len() {
                continue;
            }
            let places = seated.iter().map(|(_, p)| p.and_then(|p| u32::try_from(p).ok()).unwrap_or(0)).collect();
            let names = seated.into_iter().map(|(n, _)| n).collect();
            sets.entry((game, ruleset, of as usize))
                .or_default()
                .entry(commitment.to_string())
                .or_default()
                .push(SetGame { rotation, places: GamePlaces { deal: 0, names, places } });
        }
        let mut out = Vec::new();
        for ((game, ruleset, n), deals) in sets {
            let mut played = Vec::new();
            let mut broken = 0;
            for (deal, set) in deals.into_values().enumerate() {
                let rotations: BTreeSet<u32> = set.iter().map(|g| g.rotation).collect();
                // A rotation twice: not one deal in every rotation, whatever the count.
                if rotations.len() != set.len() {
                    broken += 1;
                    continue;
                }
                let deal = u32::try_from(deal).unwrap_or(u32::MAX);
                played.extend(set.into_iter().map(|g| GamePlaces { deal, ..g.places }));
            }
            let mut summary = summarise(&played, n);
            summary.incomplete += broken;
            out.push(DuplicateTable { game, ruleset, summary });
        }
        Ok(Some(out))
    }
}

#[cfg(test)]
mod tests {
    use super::rotation;

    #[test]
    fn the_meta_reads_as_its_rotation_and_nothing_else_does() {
        assert_eq!(rotation("deal 2 of 3, rotation 4 of 4"), Some((4, 4)));
        assert_eq!(rotation("deal 1 of 1, rotation 1 of 2"), Some((1, 2)));
        for bad in
            ["", "deal 1 of 1", "deal 1 of 1, rotation 3 of 2", "deal 1 of 1, rotation 0 of 2", "rotation x of 2"]
        {
            assert_eq!(rotation(bad), None, "{bad:?}");
        }
    }
}
