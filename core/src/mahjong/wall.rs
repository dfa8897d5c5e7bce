//! Walls: the tiles in the order a broken wall gives them, draws from the front, replacement
//! draws from the other end, and the tiles kept apart there.
//!
//! The wall is the set shuffled by a seeded stream into a ring (the four sides in seat order,
//! each a row of stacks of two, the top tile first) and broken where the dice say
//! ([`dice_break`]). Draws from the front take the ring from the break on; replacement draws (for
//! a kong, a flower) take from the other end. The end is kept as the ruleset says
//! ([`WallEnd`]): riichi keeps a 14-tile dead wall, read stack by stack from the break backwards
//! (the last stack first, its top tile first), whose size each replacement draw keeps by taking
//! one tile from the live wall; Hungarian 1925 keeps 14 tiles apart beyond two loose tiles
//! lifted from the end a pair at a time; the Chinese Official rules keep nothing apart, and a
//! replacement draw takes the live wall's last tile.

use crate::Seat;

/// How a wall's end is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WallEnd {
    /// Tiles at the end that no draw from the front reaches (a dead wall). With a dead wall,
    /// replacement draws take the end stack by stack (the top tile first); without one, they
    /// take the live wall's last tile.
    pub(crate) dead: usize,
    /// Replacement tiles lifted onto the wall ahead of their use, this many at a time (loose
    /// tiles, beyond the dead wall); 0 when the dead wall gives them where they lie and gives
    /// up one live tile for each.
    pub(crate) loose: usize,
}

/// A wall: its tiles in draw order from the break, and how many were drawn from each end.
#[derive(Clone, Debug)]
pub(crate) struct Wall<T> {
    /// `tiles[0]` is drawn first from the front; the end's tiles are read back from the last
    /// stack ([`Wall::at_end`]).
    tiles: Vec<T>,
    /// Tiles drawn from the front.
    front: usize,
    /// Tiles drawn from the end (replacement draws).
    back: usize,
    /// One past the last tile the front may draw (kept as `back` changes).
    live_end: usize,
    end: WallEnd,
}

/// The ring position where a wall breaks: the side of the seat `sum` seats from `roller`
/// (counting the roller as 1, in turn order), after its `stacks`-th stack, each side `side` tiles
/// long (ring position 0 begins seat 0's side).
pub(crate) fn dice_break(roller: Seat, sum: usize, stacks: usize, side: usize) -> usize {
    side * ((usize::from(roller) + sum + 3) % 4) + 2 * stacks
}

impl<T: Copy> Wall<T> {
    /// A wall without tiles.
    pub(crate) fn new(end: WallEnd) -> Wall<T> {
        Wall { tiles: Vec::new(), front: 0, back: 0, live_end: 0, end }
    }

    /// The wall of `ring` broken at ring position `at`: the front draws `ring[at]`,
    /// `ring[at + 1]`, ... around the ring; the end is the stacks before `at`. Nothing is drawn.
    pub(crate) fn build(&mut self, ring: &[T], at: usize) {
        let (before, after) = ring.split_at(if ring.is_empty() { 0 } else { at % ring.len() });
        self.tiles.clear();
        self.tiles.extend_from_slice(after);
        self.tiles.extend_from_slice(before);
        self.restart();
    }

    /// A wall of `len` tiles not known yet (an imported game's: the records tell them), each
    /// `filler` until [`Wall::set`] or [`Wall::set_at_end`] says otherwise. A wall of that length
    /// already laid keeps its tiles. Nothing is drawn.
    pub(crate) fn lay(&mut self, len: usize, filler: T) {
        if self.tiles.len() != len {
            self.tiles.clear();
            self.tiles.resize(len, filler);
        }
        self.restart();
    }

    /// Nothing drawn yet.
    fn restart(&mut self) {
        self.front = 0;
        self.back = 0;
        self.update_live_end();
    }

    /// The live wall ends before the dead wall and before the tiles taken from the end or lifted
    /// ahead of their use.
    fn update_live_end(&mut self) {
        let lifted = match self.end.loose {
            0 => self.back,
            n => n * (self.back / n + 1),
        };
        self.live_end = self.tiles.len().saturating_sub(self.end.dead + lifted);
    }

    /// Where the `j`-th tile counted from the end lies (0 the top of the last stack, 1 its bottom,
    /// 2 the top of the stack before, ...).
    #[inline]
    fn end_position(&self, j: usize) -> Option<usize> {
        let from_back = 2 * (j / 2 + 1);
        (from_back <= self.tiles.len()).then(|| self.tiles.len() - from_back + j % 2)
    }

    /// The `j`-th tile counted from the end, stack by stack, the top first: the order
    /// replacement draws take them in (riichi reads its dead wall's indicators so).
    #[inline]
    pub(crate) fn at_end(&self, j: usize) -> Option<T> {
        self.end_position(j).map(|i| self.tiles[i])
    }

    /// Puts `t` where the `j`-th tile from the end lies (ignored beyond the wall).
    pub(crate) fn set_at_end(&mut self, j: usize, t: T) {
        if let Some(i) = self.end_position(j) {
            self.tiles[i] = t;
        }
    }

    /// Puts `t` at draw position `i` from the front (ignored beyond the wall).
    pub(crate) fn set(&mut self, i: usize, t: T) {
        if let Some(x) = self.tiles.get_mut(i) {
            *x = t;
        }
    }

    /// Tiles left to draw from the front.
    #[inline]
    pub(crate) fn left(&self) -> usize {
        self.live_end.saturating_sub(self.front)
    }

    /// The next tile from the front, if any is left.
    #[inline]
    pub(crate) fn draw(&mut self) -> Option<T> {
        if self.front >= self.live_end {
            return None;
        }
        let t = self.tiles.get(self.front).copied();
        self.front += 1;
        t
    }

    /// The next `n` tiles from the front, if so many are left.
    pub(crate) fn take(&mut self, n: usize) -> Option<&[T]> {
        if self.left() < n {
            return None;
        }
        self.front += n;
        self.tiles.get(self.front - n..self.front)
    }

    /// Counts `n` draws from the front without taking tiles (an imported game's draws).
    pub(crate) fn skip(&mut self, n: usize) {
        self.front += n;
    }

    /// A replacement draw from the end (the live wall gives up its last tile as the rules keep
    /// the end), if the end has a tile.
    pub(crate) fn draw_replacement(&mut self) -> Option<T> {
        let t = if self.end.dead == 0 && self.end.loose == 0 {
            if self.left() == 0 {
                return None;
            }
            self.tiles[self.tiles.len() - 1 - self.back]
        } else {
            self.at_end(self.back)?
        };
        self.skip_replacements(1);
        Some(t)
    }

    /// Counts `n` replacement draws without taking tiles (hand-built positions).
    pub(crate) fn skip_replacements(&mut self, n: usize) {
        self.back += n;
        self.update_live_end();
    }

    /// Tiles drawn from the front so far (tests count every tile of a hand in play).
    #[cfg(test)]
    pub(crate) fn drawn(&self) -> usize {
        self.front
    }

    /// Replacement draws so far (Hungarian shows the loose tiles taken).
    pub(crate) fn replaced(&self) -> usize {
        self.back
    }

    /// Puts `t` in the place of a tile still to draw, the first from the `start`-th on (round
    /// the live wall) for which `pick` holds, and answers that tile (none: no such tile, nothing
    /// changed): tests change what nobody has seen.
    #[cfg(test)]
    pub(crate) fn swap_live(&mut self, start: usize, t: T, pick: impl Fn(T) -> bool) -> Option<T> {
        let left = self.left();
        let at = (0..left)
            .map(|j| self.front + (start + j) % left)
            .find(|&i| self.tiles.get(i).is_some_and(|&x| pick(x)))?;
        Some(std::mem::replace(&mut self.tiles[at], t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEAD: WallEnd = WallEnd { dead: 14, loose: 0 };

    fn ring(n: usize) -> Vec<usize> {
        (0..n).collect()
    }

    #[test]
    fn the_front_draws_from_the_break_around_the_ring() {
        let mut w = Wall::new(DEAD);
        w.build(&ring(136), 130);
        assert_eq!(w.left(), 122);
        assert_eq!(w.take(4), Some(&[130, 131, 132, 133][..]));
        assert_eq!(w.draw(), Some(134));
        assert_eq!((w.draw(), w.draw(), w.draw()), (Some(135), Some(0), Some(1)));
        assert_eq!(w.left(), 114);
    }

    /// The end read stack by stack from the break backwards: riichi's dead wall layout (d0-d3
    /// the replacement tiles, d4 the first dora indicator and d5 its ura, ...).
    #[test]
    fn the_end_is_read_stack_by_stack_from_the_break() {
        let mut w = Wall::new(DEAD);
        let at = 40;
        w.build(&ring(136), at);
        let end: Vec<usize> = (0..14).filter_map(|j| w.at_end(j)).collect();
        let dead: Vec<usize> = (1..=7).flat_map(|k| [at - 2 * k, at - 2 * k + 1]).collect();
        assert_eq!(end, dead);
        assert_eq!(w.at_end(135), Some(at + 1));
        assert_eq!(w.at_end(136), None);
        // Each replacement draw moves the live wall's end back by one.
        assert_eq!(w.draw_replacement(), Some(at - 2));
        assert_eq!(w.draw_replacement(), Some(at - 1));
        assert_eq!(w.left(), 120);
        w.set_at_end(4, 999);
        assert_eq!(w.at_end(4), Some(999));
        w.set_at_end(200, 999);
    }

    #[test]
    fn the_live_wall_runs_out() {
        let mut w = Wall::new(WallEnd { dead: 0, loose: 0 });
        w.build(&ring(8), 0);
        assert_eq!(w.take(5).map(<[usize]>::len), Some(5));
        // Without a dead wall a replacement is the live wall's last tile.
        assert_eq!(w.draw_replacement(), Some(7));
        assert_eq!(w.left(), 2);
        assert_eq!(w.draw_replacement(), Some(6));
        assert_eq!((w.draw(), w.draw()), (Some(5), None));
        assert_eq!(w.take(1), None);
        assert_eq!(w.draw_replacement(), None);
        assert_eq!(w.left(), 0);
    }

    /// Loose tiles (Hungarian): two lifted at a time, the dead wall behind them stays 14.
    #[test]
    fn loose_tiles_are_lifted_a_pair_at_a_time() {
        let mut w = Wall::new(WallEnd { dead: 14, loose: 2 });
        w.build(&ring(144), 0);
        assert_eq!(w.left(), 144 - 16);
        assert_eq!(w.draw_replacement(), Some(142));
        assert_eq!(w.left(), 128);
        assert_eq!(w.draw_replacement(), Some(143));
        assert_eq!(w.left(), 126);
        assert_eq!(w.draw_replacement(), Some(140));
        assert_eq!(w.left(), 126);
        assert_eq!((w.drawn(), w.replaced()), (0, 3));
        assert_eq!(w.draw(), Some(0));
        assert_eq!((w.drawn(), w.replaced(), w.left()), (1, 3, 125));
    }

    #[test]
    fn a_laid_wall_counts_without_tiles() {
        let mut w = Wall::new(DEAD);
        w.lay(136, 0u8);
        w.set_at_end(4, 7);
        w.skip(52);
        assert_eq!(w.left(), 70);
        // Laid again at the same length, it keeps its tiles.
        w.lay(136, 0);
        assert_eq!((w.at_end(4), w.left()), (Some(7), 122));
        w.set(3, 5);
        w.set(500, 5);
        assert_eq!(w.draw(), Some(0));
        w.skip_replacements(4);
        assert_eq!(w.left(), 117);
        assert_eq!((w.at_end(135), w.at_end(136)), (Some(0), None));
    }

    #[test]
    fn dice_break_the_wall_of_the_seat_they_count_to() {
        // Riichi: seat 0 rolls 5: its own side (5 = 1 around the table), after the 5th stack.
        assert_eq!(dice_break(0, 5, 5, 34), 10);
        assert_eq!(dice_break(0, 2, 2, 34), 34 + 4);
        assert_eq!(dice_break(3, 7, 7, 34), 34 + 14);
        assert_eq!(dice_break(1, 12, 12, 36), 24);
    }
}
