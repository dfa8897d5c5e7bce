//! The abortive draws (option `abortive_draws`, on by default; docs/rules/riichi.md): nine
//! terminals declared on a first uninterrupted draw, four winds (the same wind discarded first
//! by all four), four riichi, four kans by more than one player, and three rons on one discard
//! (option `triple_ron_abort`). The hand is replayed by the same dealer with one more honba.

use super::round_end::Ending;
use super::Riichi;
use crate::error::Violation;
use crate::mahjong::hand::YAOCHU;
use crate::mahjong::Tile;
use crate::riichi::facts::{Abort, FactKind};
use crate::riichi::view::HandEndKind;
use crate::{Fact, Seat};

impl Riichi {
    /// Whether `seat` (on turn, `drawn` its draw) may declare nine terminals.
    pub(super) fn check_nine_terminals(&self, seat: Seat, drawn: Option<Tile>) -> Result<(), Violation> {
        let p = &self.players[usize::from(seat)];
        if !self.rules.abortive_draws {
            return Err(Violation::illegal("abortive draws are off in these rules"));
        }
        if drawn.is_none() || !self.first_go() || !p.river.is_empty() {
            return Err(Violation::illegal(format!(
                "seat {seat} may only abort with nine terminals on its first, uninterrupted draw"
            )));
        }
        let c = p.counts();
        let kinds = YAOCHU.iter().filter(|&&k| c[k] > 0).count();
        if kinds < 9 {
            return Err(Violation::illegal(format!(
                "seat {seat} has {kinds} different terminals and honours; nine terminals needs nine"
            )));
        }
        Ok(())
    }

    /// `seat` declares nine terminals.
    pub(super) fn nine_terminals(&mut self, seat: Seat) {
        self.abort(Abort::NineTerminals, format!("seat {seat} declares nine terminals: abortive draw"));
    }

    /// Three seats ron on `from`'s `tile` (`rons` of them did): an abortive draw when the rules
    /// say so. Whether the hand ended.
    pub(super) fn triple_ron(&mut self, from: Seat, tile: Tile, rons: usize) -> bool {
        if rons == 3 && self.rules.triple_ron_abort {
            self.abort(Abort::TripleRon, format!("three players ron on seat {from}'s {tile}: abortive draw"));
            return true;
        }
        false
    }

    /// After a riichi stands: all four seats in riichi. Whether the hand ended.
    pub(super) fn four_riichi(&mut self) -> bool {
        if self.rules.abortive_draws && self.players.iter().all(|p| p.riichi) {
            self.abort(Abort::FourRiichi, "all four players declared riichi: abortive draw".into());
            return true;
        }
        false
    }

    /// After the first go-around without calls: the same wind discarded by all four seats.
    /// Whether the hand ended.
    pub(super) fn four_winds(&mut self) -> bool {
        if self.rules.abortive_draws && self.table.discards_made == 4 && !self.table.any_call {
            let firsts: Vec<Tile> = self.players.iter().filter_map(|p| p.river.first().map(|r| r.tile)).collect();
            if firsts.len() == 4 && firsts[0].is_wind() && firsts.iter().all(|t| t.kind() == firsts[0].kind()) {
                self.abort(Abort::FourWinds, format!("all four players discarded {} first: abortive draw", firsts[0]));
                return true;
            }
        }
        false
    }

    /// After the fourth kan's replacement tile is discarded and passes: four kans by more than
    /// one seat. Whether the hand ended.
    pub(super) fn four_kans(&mut self) -> bool {
        if self.rules.abortive_draws && self.table.kans == 4 {
            let by_one = self.players.iter().any(|p| p.melds.iter().filter(|m| m.is_kong()).count() == 4);
            if !by_one {
                self.abort(Abort::FourKans, "four kans by more than one player: abortive draw".into());
                return true;
            }
        }
        false
    }

    fn abort(&mut self, kind: Abort, summary: String) {
        // A riichi declared on the discard that ends the hand does not stand (triple ron).
        for p in self.players.iter_mut() {
            p.riichi_pending = false;
        }
        let facts = vec![Fact::table(FactKind::AbortiveDraw, 1), Fact::table(FactKind::Abort(kind), 1)];
        let ending = Ending {
            summary,
            facts,
            renchan: true,
            dealer_won: false,
            next_honba: self.honba + 1,
            how: HandEndKind::AbortiveDraw { abort: kind },
            payments: Vec::new(),
        };
        self.end_round([0; 4], ending);
    }
}

#[cfg(test)]
mod tests {
    use crate::error::ErrorCode;
    use crate::riichi::{Action, Riichi, Rules};
    use crate::Game;

    /// Plays `records` (`seat notation`) into `g`; the first refusal, with its record.
    fn play(g: &mut Riichi, records: &[&str]) -> Result<(), (String, crate::error::Violation)> {
        for r in records {
            let (seat, a) = r.split_once(' ').unwrap();
            let a: Action = a.parse().unwrap_or_else(|e| panic!("{r}: {e:?}"));
            g.play_mut(seat.parse().unwrap(), &a).map_err(|v| (r.to_string(), v))?;
        }
        Ok(())
    }

    /// An imported hand (no seed) up to the dealer's discard of 9s into three double riichi, each
    /// waiting on 9s alone; the records give the ura indicators in `ura` (Tenhou's record of a
    /// triple ron, an abortive draw, shows none).
    fn to_the_triple_ron(rules: Rules, ura: &[&str]) -> Riichi {
        let mut g = Riichi::new(rules, 4, None).unwrap();
        let mut start = vec!["0 deal 99m99p112346789s", "1 deal 234678m234678p9s", "2 deal 234678m234678p9s"];
        start.extend(["3 deal 234678m234678p9s", "0 dora 7z"]);
        start.extend(ura);
        start.extend(["0 draw 1z", "0 tsumogiri 1z", "1 draw 2z", "1 riichi tsumogiri 2z", "2 draw 3z"]);
        start.extend(["2 riichi tsumogiri 3z", "3 draw 4z", "3 riichi tsumogiri 4z", "0 draw 5z", "0 discard 9s"]);
        play(&mut g, &start).unwrap_or_else(|(r, v)| panic!("{r}: {v:?}"));
        g
    }

    #[test]
    fn a_triple_ron_is_an_abortive_draw_before_any_ura_indicator_is_asked() {
        // Before: seat 1's ron was refused ("wins in riichi, but the records give 0 of the 1 ura
        // indicators"), though the third ron makes the hand a draw that shows none.
        let mut g = to_the_triple_ron(Rules::default(), &[]);
        play(&mut g, &["1 ron", "2 ron", "3 ron"]).unwrap_or_else(|(r, v)| panic!("{r}: {v:?}"));
        let r = g.results().last().unwrap();
        assert!(r.facts.iter().any(|f| f.key == "abort:triple_ron"), "{}", r.summary);
        assert!(!r.facts.iter().any(|f| f.key == "win"), "nobody wins: {}", r.summary);
        // Only the three riichi deposits, which stay on the table.
        assert_eq!((r.deltas.clone(), g.riichi_sticks()), (vec![0, -1000, -1000, -1000], 3));
    }

    #[test]
    fn two_rons_that_stand_still_need_their_ura_indicators() {
        // The attack: a riichi ron without ura indicators, given while a third ron could still
        // come, and the third seat passes: two rons stand, and the pass that settles it is
        // refused, naming the winner.
        let mut g = to_the_triple_ron(Rules::default(), &[]);
        let (at, v) = play(&mut g, &["1 ron", "2 ron", "3 pass"]).unwrap_err();
        assert_eq!((at.as_str(), v.code), ("3 pass", ErrorCode::IllegalAction), "{v:?}");
        assert!(v.message.contains("seat 1 wins in riichi, but the records give 0 of the 1 ura indicators"), "{v:?}");
        // Passed first, a third ron cannot come: the ron is refused where it is given.
        let mut g = to_the_triple_ron(Rules::default(), &[]);
        let (at, _) = play(&mut g, &["3 pass", "1 ron"]).unwrap_err();
        assert_eq!(at, "1 ron");
        // With the ura indicator recorded, the double ron is paid.
        let mut g = to_the_triple_ron(Rules::default(), &["0 ura 6z"]);
        play(&mut g, &["1 ron", "2 ron", "3 pass"]).unwrap_or_else(|(r, v)| panic!("{r}: {v:?}"));
        let r = g.results().last().unwrap();
        assert_eq!(r.facts.iter().filter(|f| f.key == "win").count(), 2, "{}", r.summary);
    }

    #[test]
    fn without_the_triple_ron_abort_every_riichi_ron_needs_its_ura_indicators() {
        let rules = Rules { triple_ron_abort: false, ..Rules::default() };
        let mut g = to_the_triple_ron(rules.clone(), &[]);
        let (at, v) = play(&mut g, &["1 ron"]).unwrap_err();
        assert!(at == "1 ron" && v.message.contains("ura indicators"), "{v:?}");
        let mut g = to_the_triple_ron(rules, &["0 ura 6z"]);
        play(&mut g, &["1 ron", "2 ron", "3 ron"]).unwrap_or_else(|(r, v)| panic!("{r}: {v:?}"));
        let r = g.results().last().unwrap();
        assert_eq!(r.facts.iter().filter(|f| f.key == "win").count(), 3, "{}", r.summary);
    }
}
