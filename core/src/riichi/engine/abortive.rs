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
