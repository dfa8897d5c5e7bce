//! Furiten (docs/rules/riichi.md): a seat may not ron while one of its winning tiles is in its
//! own river; after passing a winning tile it may not ron until its next discard (temporary
//! furiten), or, in riichi, for the rest of the hand. Tsumo is never refused for furiten.

use super::player::Player;
use super::Riichi;
use crate::error::Violation;
use crate::mahjong::claim::seats_after;
use crate::mahjong::Tile;
use crate::Seat;

impl Player {
    /// Whether the seat may not ron now.
    #[inline]
    pub(crate) fn furiten(&self) -> bool {
        self.furiten_temp || self.furiten_riichi || self.waits & self.discarded != 0
    }

    /// The seat's own discard of `tile`: its kind is in the river now, and a temporary furiten
    /// ends.
    #[inline]
    pub(super) fn note_discard(&mut self, tile: Tile) {
        self.discarded |= 1 << tile.kind();
        self.furiten_temp = false;
    }
}

impl Riichi {
    /// The window on `from`'s `tile` closed with the wins of `rons`: every other seat it would
    /// have completed passed a winning tile.
    pub(super) fn miss_wins(&mut self, from: Seat, tile: Tile, rons: &[Seat]) {
        for s in seats_after(from) {
            let p = &mut self.players[usize::from(s)];
            if p.waits & (1 << tile.kind()) != 0 && !rons.contains(&s) {
                p.furiten_temp = true;
                if p.riichi {
                    p.furiten_riichi = true;
                }
            }
        }
    }

    /// The refusal of `seat`'s ron on `tile` when furiten is why.
    pub(super) fn furiten_refusal(&self, seat: Seat, tile: Tile) -> Option<Violation> {
        let p = &self.players[usize::from(seat & 3)];
        (p.waits & (1 << tile.kind()) != 0 && p.furiten()).then(|| {
            Violation::illegal(format!(
                "seat {seat} may not ron on {tile}: it is furiten (it discarded a winning tile, or passed one)"
            ))
        })
    }
}
