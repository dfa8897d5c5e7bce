//! Riichi's wall (docs/rules/riichi.md, "Walls, deal and draws"): the 136 tiles with the
//! configured red fives, shuffled by the hand's `riichi/wall/{label}` stream, broken where the
//! `riichi/dice/{label}` dice say, dealt; the dead wall's 14 tiles with the replacement tiles
//! and the dora and ura indicators.

use super::{Phase, Riichi};
use crate::mahjong::{dice_break, Tile, WallEnd};
use crate::riichi::rules::Rules;
use crate::Seat;
use std::fmt::Write as _;

/// A 14-tile dead wall; each replacement draw moves one tile of the live wall into it.
pub(crate) const WALL_END: WallEnd = WallEnd { dead: 14, loose: 0 };

/// The tiles of one side of the wall (17 stacks).
const SIDE: usize = 34;

impl Riichi {
    /// The 136 tiles with the configured red fives.
    pub fn tile_set(rules: &Rules) -> Vec<Tile> {
        Riichi::tile_array(rules).to_vec()
    }

    /// The 136 tiles in kind order, four of each; the first copies of the configured red fives
    /// (of 5m, 5p, 5s; the second 5p too when there are four) are red.
    fn tile_array(rules: &Rules) -> [Tile; 136] {
        let mut tiles = Tile::set();
        let reds: &[usize] = match rules.red_fives {
            0 => &[],
            3 => &[4 * 4, 4 * 13, 4 * 22],
            _ => &[4 * 4, 4 * 13, 4 * 13 + 1, 4 * 22],
        };
        for &i in reds {
            tiles[i] = tiles[i].akaize();
        }
        tiles
    }

    /// The name of this hand's streams after `what`: `E1/0` (East 1, no honba), `S3/2`...
    fn stream_label(&self, what: &str) -> String {
        let mut label = String::with_capacity(what.len() + 16);
        let _ = write!(label, "{what}{}/{}", self.hand_name(), self.honba);
        if self.chombos > 0 {
            let _ = write!(label, "/chombo/{}", self.chombos);
        }
        label
    }

    /// Starts the current hand: a seeded one is dealt from its wall, an imported one waits for
    /// its deal records.
    pub(super) fn start_round(&mut self) {
        let Some(seed) = self.seed else { return self.start_imported_round() };
        let mut ring = Riichi::tile_array(&self.rules);
        seed.stream(&self.stream_label("riichi/wall/")).shuffle(&mut ring);
        let mut dice = seed.stream(&self.stream_label("riichi/dice/"));
        let d1 = dice.die(6) as u8;
        let d2 = dice.die(6) as u8;
        self.table.dice = (d1, d2);
        let sum = usize::from(d1 + d2);
        let dealer = self.dealer();
        // The dealer rolls: the side of the seat the sum counts to is broken after its sum-th stack.
        self.table.wall.build(&ring, dice_break(dealer, sum, sum, SIDE));
        for p in self.players.iter_mut() {
            p.reset();
        }
        // Three rounds of four tiles each, dealer first; then the dealer takes the 49th and the
        // 53rd tile (the latter counts as its first draw), the others the 50th to 52nd.
        let dealer = usize::from(dealer);
        for _ in 0..3 {
            for s in 0..4 {
                if let Some(tiles) = self.table.wall.take(4) {
                    self.players[(dealer + s) % 4].extend(tiles);
                }
            }
        }
        for s in 0..4 {
            if let Some(t) = self.table.wall.draw() {
                self.players[(dealer + s) % 4].push(t);
            }
        }
        let first = self.table.wall.draw();
        if let Some(t) = first {
            self.players[dealer].push(t);
        }
        self.reset_hand_counters();
        for s in 1..4 {
            self.players[(dealer + s) % 4].update_waits();
        }
        self.phase = Phase::Turn { seat: self.dealer(), drawn: first, rinshan: false, kuikae: 0 };
    }

    /// The per-hand counters every new hand starts from, seeded or imported: one dora indicator
    /// shown, no kans, calls, discards or score changes yet.
    pub(super) fn reset_hand_counters(&mut self) {
        self.table.dora_shown = 1;
        self.table.dora_pending = 0;
        self.table.kans = 0;
        self.table.any_call = false;
        self.table.discards_made = 0;
        self.table.deltas = [0; 4];
    }

    #[inline]
    pub(crate) fn tiles_left(&self) -> usize {
        self.table.wall.left()
    }

    /// The dora indicators (`ura`: the ura indicators under them) in the order kans reveal
    /// them: every other tile of the dead wall from d4 (dora) or d5 (ura).
    #[inline]
    pub(crate) fn indicator_row(&self, ura: bool) -> [Tile; 5] {
        std::array::from_fn(|i| self.table.wall.at_end(4 + usize::from(ura) + 2 * i).unwrap_or(Tile::kind_tile(0)))
    }

    pub fn dora_indicators(&self) -> Vec<Tile> {
        self.indicator_row(false)[..self.table.dora_shown.min(5)].to_vec()
    }

    /// One more kan dora indicator shown, when the rules have kan dora.
    pub(super) fn show_dora(&mut self) {
        if self.rules.kan_dora {
            self.table.dora_shown = (self.table.dora_shown + 1).min(5);
        }
    }

    /// The replacement draw after a kan (in an imported game, the record of it is asked for).
    pub(super) fn draw_rinshan(&mut self, seat: Seat) {
        let t = self.table.wall.draw_replacement();
        match t {
            Some(t) if self.seed.is_some() => {
                self.players[usize::from(seat)].push(t);
                self.phase = Phase::Turn { seat, drawn: Some(t), rinshan: true, kuikae: 0 };
            }
            _ => self.phase = Phase::Draw { seat, rinshan: true },
        }
    }
}
