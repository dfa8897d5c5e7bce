//! A round's wall as akochan writes it (`start_kyoku`'s `haiyama`, 136 tiles), and the check of
//! the deal, every draw and every indicator against it.
//!
//! The layout, from akochan's game manager (github.com/critter-mj/akochan, mjai_manager.cpp:
//! `get_haipai`, `add_tsumo`, `add_rinshan_tsumo`, `add_after_ankan`,
//! `add_accept_reach_or_dora_if_necessary`, the ura indicators in `add_move_after_dahai`):
//! - the deal: tiles 0-51, one at a time round the table from the dealer: tile `i` goes to the
//!   seat `(oya + i) % 4`, as its `i / 4`-th tile;
//! - the draws: tiles 52, 53, ... in order (the n-th draw of the hand that is not a replacement);
//! - the replacement draws after a kan: tiles 135, 134, 133, 132 (the last tile first);
//! - the dora indicators: tile 130, then 128, 126, 124, 122 for each kan;
//! - the ura indicators: tile 131, then 129, 127, 125, 123.

use crate::import::record::Tile;

/// The wall of the hand being read, with how far it has been drawn.
pub(super) struct Wall {
    tiles: Vec<Tile>,
    /// The line of the `start_kyoku` that gives it.
    line: usize,
    drawn: usize,
    replacements: usize,
    /// Whether the next draw is a replacement (a kan was declared since the last draw).
    after_kan: bool,
    indicators: usize,
}

fn show(t: &[Tile]) -> String {
    let mut v: Vec<Tile> = t.to_vec();
    v.sort();
    v.iter().map(|t| t.notation()).collect::<Vec<_>>().join(" ")
}

impl Wall {
    /// The wall of a hand (`tiles`, 136), checked against the hand's deal (each seat's 13 tiles,
    /// in any order) and first dora indicator.
    pub(super) fn new(
        tiles: Vec<Tile>,
        line: usize,
        oya: u8,
        hands: &[Vec<Tile>; 4],
        dora: Tile,
    ) -> Result<Wall, String> {
        let w = Wall { tiles, line, drawn: 0, replacements: 0, after_kan: false, indicators: 1 };
        for (s, hand) in hands.iter().enumerate() {
            let dealt: Vec<Tile> =
                (0..13).filter_map(|i| w.tiles.get(4 * i + (s + 4 - usize::from(oya)) % 4)).copied().collect();
            if show(&dealt) != show(hand) {
                return Err(format!(
                    "seat {s}'s starting hand is {}, but the wall (haiyama) deals it {}",
                    show(hand),
                    show(&dealt)
                ));
            }
        }
        w.expect(130, dora, "the dora indicator")?;
        Ok(w)
    }

    fn expect(&self, at: usize, found: Tile, what: &str) -> Result<(), String> {
        match self.tiles.get(at) {
            Some(&t) if t == found => Ok(()),
            Some(&t) => Err(format!(
                "{what} is {}, but the wall (haiyama, line {}) holds {} there (tile {at} of 136)",
                found.notation(),
                self.line,
                t.notation()
            )),
            None => Err(format!("{what}: the wall (haiyama, line {}) has no tile {at}", self.line)),
        }
    }

    /// A kan was declared: the next draw is a replacement.
    pub(super) fn kan(&mut self) {
        self.after_kan = true;
    }

    /// Seat `seat` draws `t`.
    pub(super) fn draw(&mut self, seat: u8, t: Tile) -> Result<(), String> {
        if std::mem::take(&mut self.after_kan) {
            let at = 135usize.checked_sub(self.replacements).filter(|&a| a >= 132);
            self.replacements += 1;
            let at =
                at.ok_or_else(|| format!("seat {seat}'s replacement draw: the wall has only 4 replacement tiles"))?;
            self.expect(at, t, &format!("seat {seat}'s replacement draw (after a kan)"))
        } else {
            let at = 52 + self.drawn;
            self.drawn += 1;
            self.expect(at, t, &format!("seat {seat}'s draw"))
        }
    }

    /// A kan dora indicator is turned.
    pub(super) fn indicator(&mut self, t: Tile) -> Result<(), String> {
        let at = 130usize.checked_sub(2 * self.indicators).filter(|&a| a >= 122);
        self.indicators += 1;
        let at = at.ok_or_else(|| "a sixth dora indicator: the wall has five".to_owned())?;
        self.expect(at, t, "the kan dora indicator")
    }

    /// The ura indicators a win shows.
    pub(super) fn ura(&self, ura: &[Tile]) -> Result<(), String> {
        for (i, &u) in ura.iter().enumerate() {
            self.expect(131usize.saturating_sub(2 * i), u, &format!("ura indicator {}", i + 1))?;
        }
        Ok(())
    }
}
