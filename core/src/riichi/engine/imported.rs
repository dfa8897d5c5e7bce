//! Imported games (no seed, docs/import.md): the deals, draws and dora and ura indicators are
//! records, each checked against the tiles the hand has shown (no fifth copy of a kind, no more
//! red fives than the rules have); the wall's counters are a seeded hand's.

use super::{Phase, Riichi};
use crate::error::Violation;
use crate::mahjong::Tile;
use crate::riichi::action::Action;
use crate::Seat;

/// What the records of an imported hand have shown.
#[derive(Clone, Debug)]
pub(crate) struct Imported {
    /// Copies of each tile id the records have shown this hand (hands dealt, draws,
    /// indicators).
    pub(crate) seen: [u8; 37],
    /// How many dora indicators the records gave.
    pub(crate) dora_known: usize,
    /// How many ura indicators the records gave.
    pub(crate) ura_known: usize,
}

impl Default for Imported {
    fn default() -> Imported {
        Imported { seen: [0; 37], dora_known: 0, ura_known: 0 }
    }
}

impl Riichi {
    /// An imported hand: the same counters as a dealt one (52 tiles dealt), the tiles to come as
    /// records.
    pub(super) fn start_imported_round(&mut self) {
        for p in self.players.iter_mut() {
            p.reset();
        }
        self.imported = Imported::default();
        // The wall keeps the tiles the records showed until they show others.
        self.table.wall.lay(136, Tile::kind_tile(0));
        self.table.wall.skip(52);
        self.reset_hand_counters();
        self.phase = Phase::Deal { seat: self.dealer() };
    }

    /// How many copies of tile id `id` the set has.
    fn copies(&self, id: usize) -> u8 {
        let reds = match self.rules.red_fives {
            0 => [0, 0, 0],
            3 => [1, 1, 1],
            _ => [1, 2, 1],
        };
        match id {
            34..=36 => reds[id - 34],
            4 | 13 | 22 => 4 - reds[[4, 13, 22].iter().position(|&k| k == id).unwrap_or(0)],
            _ => 4,
        }
    }

    /// Checks that `tiles` can still come out of the wall (imported games).
    fn check_possible(&self, seat: Seat, what: &str, tiles: &[Tile]) -> Result<(), Violation> {
        let mut seen = self.imported.seen;
        for t in tiles {
            let id = usize::from(t.id());
            seen[id] += 1;
            if seen[id] > self.copies(id) {
                let n = self.copies(id);
                return Err(Violation::illegal(format!(
                    "seat {seat} {what} {t}, but all {n} {} of {t} are already accounted for (hands, melds, rivers, \
                     indicators): there is no such tile left",
                    if n == 1 { "copy" } else { "copies" }
                )));
            }
        }
        Ok(())
    }

    /// Counts `tiles` as shown.
    fn note_seen(&mut self, tiles: &[Tile]) {
        for t in tiles {
            self.imported.seen[usize::from(t.id())] += 1;
        }
    }

    /// The ura indicators a riichi win of `seat` needs that the records have not given.
    pub(super) fn check_ura_known(&self, seat: Seat) -> Result<(), Violation> {
        let p = &self.players[usize::from(seat)];
        if self.seed.is_some() || !p.riichi || !self.rules.ura_dora {
            return Ok(());
        }
        let need = if self.rules.kan_ura_dora { self.table.dora_shown } else { 1 };
        if self.imported.ura_known < need {
            return Err(Violation::illegal(format!(
                "seat {seat} wins in riichi, but the records give {} of the {need} ura indicators",
                self.imported.ura_known
            )));
        }
        Ok(())
    }

    /// Kan dora that showing `more` indicators would need and the records have not given.
    pub(super) fn check_dora_known(&self, seat: Seat, more: usize) -> Result<(), Violation> {
        if self.seed.is_some() || !self.rules.kan_dora || more == 0 {
            return Ok(());
        }
        let need = (self.table.dora_shown + more).min(5);
        if self.imported.dora_known < need {
            return Err(Violation::illegal(format!(
                "seat {seat}'s kan reveals dora indicator {need}, but the records give only {}",
                self.imported.dora_known
            )));
        }
        Ok(())
    }

    pub(super) fn check_chance(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        let phase_seat = match self.phase {
            Phase::Deal { seat } | Phase::Draw { seat, .. } => Some(seat),
            _ => None,
        };
        if self.seed.is_some() || phase_seat.is_none() {
            return Err(Violation::illegal(if self.seed.is_some() {
                format!("{action}: deals, draws and indicators are records only in imported games (without a seed)")
            } else {
                format!("seat {seat} records {action}, but no tile is drawn or dealt now")
            }));
        }
        if phase_seat != Some(seat) {
            return Err(Violation::new(
                crate::ErrorCode::NotYourTurn,
                format!("it is seat {}'s turn", phase_seat.unwrap_or(0)),
            ));
        }
        match (&self.phase, action) {
            (Phase::Deal { .. }, Action::Deal(tiles)) => {
                if !Action::deal_is_canonical(tiles) {
                    return Err(Violation::illegal("a deal's tiles must be in canonical order"));
                }
                self.check_possible(seat, "is dealt", tiles)
            }
            (Phase::Deal { .. }, other) => {
                Err(Violation::illegal(format!("seat {seat} must record its starting tiles (deal), not {other}")))
            }
            (Phase::Draw { .. }, Action::Draw(t)) => {
                if self.imported.dora_known == 0 {
                    return Err(Violation::illegal("the first dora indicator must be recorded before the first draw"));
                }
                self.check_possible(seat, "draws", &[*t])
            }
            (Phase::Draw { .. }, Action::Dora(t)) => {
                if self.imported.dora_known >= 5 {
                    return Err(Violation::illegal("the dead wall has only 5 dora indicators"));
                }
                self.check_possible(seat, "shows the dora indicator", &[*t])
            }
            (Phase::Draw { .. }, Action::Ura(t)) => {
                if self.imported.ura_known >= 5 {
                    return Err(Violation::illegal("the dead wall has only 5 ura indicators"));
                }
                self.check_possible(seat, "shows the ura indicator", &[*t])
            }
            (_, other) => Err(Violation::illegal(format!("seat {seat} must record the tile it draws, not {other}"))),
        }
    }

    pub(super) fn apply_chance(&mut self, seat: Seat, action: &Action) {
        let s = usize::from(seat);
        match (self.phase.clone(), action.clone()) {
            (Phase::Deal { .. }, Action::Deal(tiles)) => {
                self.note_seen(&tiles);
                self.players[s].set_hand(&tiles);
                self.players[s].update_waits();
                let next = (seat + 1) % 4;
                self.phase = if next == self.dealer() {
                    Phase::Draw { seat: next, rinshan: false }
                } else {
                    Phase::Deal { seat: next }
                };
            }
            (Phase::Draw { rinshan, .. }, Action::Draw(t)) => {
                self.note_seen(&[t]);
                if !rinshan {
                    self.table.wall.skip(1);
                }
                self.players[s].push(t);
                self.phase = Phase::Turn { seat, drawn: Some(t), rinshan, kuikae: 0 };
            }
            (Phase::Draw { .. }, Action::Dora(t)) => {
                self.note_seen(&[t]);
                self.table.wall.set_at_end((4 + 2 * self.imported.dora_known).min(13), t);
                self.imported.dora_known += 1;
            }
            (Phase::Draw { .. }, Action::Ura(t)) => {
                self.note_seen(&[t]);
                self.table.wall.set_at_end((5 + 2 * self.imported.ura_known).min(13), t);
                self.imported.ura_known += 1;
            }
            _ => {}
        }
    }

    /// The tiles a seat may draw now (imported games; for `legal_actions`).
    fn possible_tiles(&self, seat: Seat) -> Vec<Tile> {
        (0..37u8).filter_map(Tile::new).filter(|t| self.check_possible(seat, "draws", &[*t]).is_ok()).collect()
    }

    /// The draws and indicators `seat` may record (a deal is not listed: the possible deals are
    /// too many).
    pub(super) fn legal_chances(&self, seat: Seat, out: &mut Vec<Action>) {
        // Any tile that can still come out of the wall.
        for t in self.possible_tiles(seat) {
            for a in [Action::Draw(t), Action::Dora(t), Action::Ura(t)] {
                if self.check_action(seat, &a).is_ok() {
                    out.push(a);
                }
            }
        }
    }
}
