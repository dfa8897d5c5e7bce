//! A seat of a riichi hand: its concealed tiles (with their counts by kind kept as they change),
//! melds, river and flags, and its waits, kept current after each discard.

use crate::mahjong::hand::waits as hand_waits;
use crate::mahjong::{counts_of, Counts, Meld, Tile};
use crate::riichi::score::Yaku;
use crate::Seat;

/// One discard in a river.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct River {
    pub tile: Tile,
    /// The tile was the one just drawn (tsumogiri).
    pub drawn: bool,
    /// The riichi declaration tile (turned sideways).
    pub riichi: bool,
    /// Taken by another seat's call.
    pub called: bool,
}

/// One seat in the hand being played.
#[derive(Clone, Debug, Default)]
pub(crate) struct Player {
    /// The concealed tiles, changed only through the methods below, which keep `counts`.
    tiles: Vec<Tile>,
    /// `counts_of(&tiles)`, kept as the tiles change (counting them again for every waits
    /// check was a chain of byte increments the processor could not run ahead of).
    counts: Kinds,
    pub melds: Vec<Meld>,
    pub river: Vec<River>,
    pub riichi: bool,
    pub double_riichi: bool,
    pub ippatsu: bool,
    /// Declared with the discard now in a claim window, not yet established.
    pub riichi_pending: bool,
    pub furiten_temp: bool,
    pub furiten_riichi: bool,
    /// Kinds this seat has discarded (bit mask).
    pub discarded: u64,
    /// The kinds that complete the hand as it was after the last discard (bit mask).
    pub waits: u64,
    /// The hand's counts by kind when `waits` was last computed: the hand of every seat but
    /// the one on turn (claims are checked against it).
    pub kinds: Kinds,
    /// `hand::waits(&kinds)`: the waits of the concealed part alone, kept to skip recomputing
    /// them when a discard leaves the counts as they were (tsumogiri, or a tile of the kind
    /// drawn).
    pub concealed_waits: u64,
    /// Every discard a terminal or honour and none called (nagashi mangan).
    pub nagashi: bool,
    /// The seat liable for a big three dragons / big four winds (pao), with which yakuman.
    pub pao: Option<(Yaku, Seat)>,
    /// The seat whose discard made this seat's last open kan (for rinshan liability).
    pub minkan_from: Option<Seat>,
    pub calls: u32,
}

/// Tile counts by kind (a newtype for `Default`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kinds(pub Counts);

impl Default for Kinds {
    fn default() -> Self {
        Kinds([0; 34])
    }
}

impl Player {
    /// The concealed tiles.
    #[inline]
    pub(crate) fn hand(&self) -> &[Tile] {
        &self.tiles
    }
    /// The concealed tiles' counts by kind.
    #[inline]
    pub(crate) fn counts(&self) -> Counts {
        debug_assert_eq!(self.counts.0, counts_of(&self.tiles));
        self.counts.0
    }
    #[inline]
    pub(crate) fn push(&mut self, t: Tile) {
        self.tiles.push(t);
        self.counts.0[t.kind()] += 1;
    }
    #[inline]
    pub(crate) fn extend(&mut self, ts: &[Tile]) {
        for &t in ts {
            self.push(t);
        }
    }
    /// Replaces the concealed tiles.
    #[inline]
    pub(crate) fn set_hand(&mut self, ts: &[Tile]) {
        self.tiles.clear();
        self.counts = Kinds::default();
        self.extend(ts);
    }
    /// Removes and answers the tile at `i`.
    #[inline]
    pub(super) fn take_at(&mut self, i: usize) -> Tile {
        let t = self.tiles.swap_remove(i);
        self.counts.0[t.kind()] -= 1;
        t
    }
    /// Removes every tile of kind `k` and answers them.
    pub(super) fn take_kind(&mut self, k: usize) -> Vec<Tile> {
        let taken: Vec<Tile> = self.tiles.iter().copied().filter(|x| x.kind() == k).collect();
        self.tiles.retain(|x| x.kind() != k);
        self.counts.0[k] = 0;
        taken
    }
    #[inline]
    pub(super) fn count_tile(&self, t: Tile) -> usize {
        self.tiles.iter().filter(|&&x| x == t).count()
    }
    #[inline]
    pub(super) fn count_kind(&self, k: usize) -> usize {
        usize::from(self.counts.0[k])
    }
    #[inline]
    pub(super) fn closed(&self) -> bool {
        self.melds.iter().all(|m| !m.is_open())
    }
    #[inline]
    pub(crate) fn remove(&mut self, t: Tile) -> bool {
        match self.tiles.iter().position(|&x| x == t) {
            Some(i) => {
                self.take_at(i);
                true
            }
            None => false,
        }
    }
    /// A new hand: no tiles, melds or discards (the vectors keep their room), every flag as
    /// `Default` gives, and nagashi mangan still possible.
    pub(super) fn reset(&mut self) {
        let (mut tiles, mut melds, mut river) =
            (std::mem::take(&mut self.tiles), std::mem::take(&mut self.melds), std::mem::take(&mut self.river));
        tiles.clear();
        melds.clear();
        river.clear();
        *self = Player { tiles, melds, river, nagashi: true, ..Player::default() };
    }
    #[inline]
    pub(crate) fn update_waits(&mut self) {
        let kinds = Kinds(self.counts());
        // (The default counts are all zero, and so are their waits.)
        // (A branch-free comparison: a call to memcmp costs more than the 34 bytes.)
        if kinds.0.iter().zip(&self.kinds.0).fold(0u8, |acc, (a, b)| acc | (a ^ b)) != 0 {
            self.kinds = kinds;
            self.concealed_waits = hand_waits(&kinds.0);
        }
        debug_assert_eq!(self.concealed_waits, hand_waits(&self.kinds.0));
        self.waits = held_out(self.concealed_waits, &self.kinds.0, &self.melds, None);
    }
}

/// The waits of a concealed part `c` with `melds` (and a closed kan of kind `extra_kan` about to
/// be made): a kind the seat holds all four of (concealed and melded) is no wait.
#[inline]
pub(super) fn seat_waits(c: &Counts, melds: &[Meld], extra_kan: Option<usize>) -> u64 {
    held_out(hand_waits(c), c, melds, extra_kan)
}

/// `w`, the waits of the concealed part `c`, without the kinds the seat holds all four of.
#[inline]
fn held_out(mut w: u64, c: &Counts, melds: &[Meld], extra_kan: Option<usize>) -> u64 {
    if w == 0 {
        return 0;
    }
    let mut held = *c;
    for m in melds {
        for t in m.tiles() {
            held[t.kind()] += 1;
        }
    }
    if let Some(k) = extra_kan {
        held[k] = 4;
    }
    for (k, &n) in held.iter().enumerate() {
        if n >= 4 {
            w &= !(1u64 << k);
        }
    }
    w
}

/// The distinct tiles (plain and red) of kind `k` in a hand.
pub(super) fn variants(hand: &[Tile], k: usize) -> Vec<Tile> {
    let mut v: Vec<Tile> = hand.iter().copied().filter(|t| t.kind() == k).collect();
    v.sort();
    v.dedup();
    v
}
