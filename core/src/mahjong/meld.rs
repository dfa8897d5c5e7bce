//! Melds: a chow, a pung or a kong laid down (or a concealed kong declared), with the tile taken
//! from a discard and the seat it came from.

use super::tile::Tile;
use crate::game::Seat;
use serde::{Deserialize, Serialize};

/// How a meld was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MeldKind {
    Chi,
    Pon,
    /// Open kan on a discard (daiminkan).
    Minkan,
    Ankan,
    /// A pon with the fourth tile added (shouminkan).
    Kakan,
}

impl MeldKind {
    pub fn name(self) -> &'static str {
        match self {
            MeldKind::Chi => "chi",
            MeldKind::Pon => "pon",
            MeldKind::Minkan => "minkan",
            MeldKind::Ankan => "ankan",
            MeldKind::Kakan => "kakan",
        }
    }
}

/// A meld: its tiles (3, or 4 for a kan), the tile taken from a discard and the seat it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Meld {
    pub kind: MeldKind,
    pub tiles: [Tile; 4],
    /// The tile taken from another seat (none for a closed kan).
    pub called: Option<Tile>,
    /// The seat it was taken from.
    pub from: Option<Seat>,
}

impl Meld {
    pub fn is_kan(&self) -> bool {
        matches!(self.kind, MeldKind::Minkan | MeldKind::Ankan | MeldKind::Kakan)
    }
    pub fn is_open(&self) -> bool {
        self.kind != MeldKind::Ankan
    }
    pub fn tiles(&self) -> &[Tile] {
        if self.is_kan() {
            &self.tiles
        } else {
            &self.tiles[..3]
        }
    }
    /// The lowest kind in the meld.
    pub fn base(&self) -> usize {
        self.tiles().iter().map(|t| t.kind()).min().unwrap_or(0)
    }
    /// A meld from its tiles, checked for shape. Tiles may be in any order.
    pub fn new(kind: MeldKind, tiles: &[Tile], called: Option<Tile>, from: Option<Seat>) -> Option<Meld> {
        let want = if matches!(kind, MeldKind::Chi | MeldKind::Pon) { 3 } else { 4 };
        if tiles.len() != want {
            return None;
        }
        let mut ks: Vec<usize> = tiles.iter().map(|t| t.kind()).collect();
        ks.sort_unstable();
        let ok = match kind {
            MeldKind::Chi => ks[0] < 27 && ks[0] % 9 <= 6 && ks[1] == ks[0] + 1 && ks[2] == ks[0] + 2,
            _ => ks.iter().all(|&k| k == ks[0]),
        };
        if !ok {
            return None;
        }
        let mut arr = [tiles[0]; 4];
        arr[..tiles.len()].copy_from_slice(tiles);
        if want == 3 {
            arr[3] = tiles[2];
        }
        Some(Meld { kind, tiles: arr, called, from })
    }
}
