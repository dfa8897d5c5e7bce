//! Melds: a chow, a pung or a kong laid down (or a concealed kong declared), with the tile taken
//! from a discard and the seat it came from. Their notation, the same in every ruleset:
//! `chi:345m`, `pon:777z`, `minkan:1111s`, `ankan:9999p`, `kakan:5555m`.

use super::tile::Tile;
use crate::Seat;
use serde::{Deserialize, Serialize};

/// How a meld was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MeldKind {
    /// A run of three, claimed (riichi: chi).
    #[serde(rename = "chi")]
    Chow,
    /// Three of a kind, claimed (riichi: pon).
    #[serde(rename = "pon")]
    Pung,
    /// Four of a kind made on a discard with three from the hand (riichi: daiminkan).
    #[serde(rename = "minkan")]
    ClaimedKong,
    /// Four of a kind from the hand, declared (riichi: ankan).
    #[serde(rename = "ankan")]
    ConcealedKong,
    /// A pung with the fourth tile added from the hand (riichi: shouminkan, kakan).
    #[serde(rename = "kakan")]
    AddedKong,
}

impl MeldKind {
    pub const ALL: [MeldKind; 5] =
        [MeldKind::Chow, MeldKind::Pung, MeldKind::ClaimedKong, MeldKind::ConcealedKong, MeldKind::AddedKong];

    /// Its name in the meld notation: `chi`, `pon`, `minkan`, `ankan`, `kakan`.
    pub fn name(self) -> &'static str {
        match self {
            MeldKind::Chow => "chi",
            MeldKind::Pung => "pon",
            MeldKind::ClaimedKong => "minkan",
            MeldKind::ConcealedKong => "ankan",
            MeldKind::AddedKong => "kakan",
        }
    }

    /// The kind of that name in the meld notation.
    pub fn from_name(name: &str) -> Option<MeldKind> {
        MeldKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// A kong of any of the three kinds.
    pub fn is_kong(self) -> bool {
        matches!(self, MeldKind::ClaimedKong | MeldKind::ConcealedKong | MeldKind::AddedKong)
    }
}

/// A meld: its tiles (3, or 4 for a kong), the tile taken from a discard and the seat it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Meld {
    pub kind: MeldKind,
    pub tiles: [Tile; 4],
    /// The tile taken from another seat (none for a concealed kong).
    pub called: Option<Tile>,
    /// The seat it was taken from.
    pub from: Option<Seat>,
}

impl Meld {
    pub fn is_kong(&self) -> bool {
        self.kind.is_kong()
    }
    /// Every meld but a concealed kong opens the hand.
    pub fn is_open(&self) -> bool {
        self.kind != MeldKind::ConcealedKong
    }
    /// Its three or four tiles.
    pub fn tiles(&self) -> &[Tile] {
        if self.is_kong() {
            &self.tiles
        } else {
            &self.tiles[..3]
        }
    }
    /// The lowest kind in the meld.
    pub fn base(&self) -> usize {
        self.tiles().iter().map(|t| t.kind()).min().unwrap_or(0)
    }
    /// A meld from its tiles, checked for shape (a run of one suit, or one kind three or four
    /// times), in any order; `None` when they are not that meld.
    pub fn new(kind: MeldKind, tiles: &[Tile], called: Option<Tile>, from: Option<Seat>) -> Option<Meld> {
        let want = if matches!(kind, MeldKind::Chow | MeldKind::Pung) { 3 } else { 4 };
        if tiles.len() != want {
            return None;
        }
        let mut ks = [0usize; 4];
        for (k, t) in ks.iter_mut().zip(tiles) {
            *k = t.kind();
        }
        let ks = &mut ks[..want];
        ks.sort_unstable();
        let ok = match kind {
            MeldKind::Chow => ks[0] < 27 && ks[0] % 9 <= 6 && ks[1] == ks[0] + 1 && ks[2] == ks[0] + 2,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::parse_tiles;
    use crate::t;

    fn meld(kind: MeldKind, tiles: &str) -> Option<Meld> {
        Meld::new(kind, &parse_tiles(tiles).unwrap(), None, None)
    }

    #[test]
    fn melds_are_checked_for_shape() {
        let chow = meld(MeldKind::Chow, "435m").unwrap();
        assert_eq!(
            (chow.tiles(), chow.base(), chow.is_open(), chow.is_kong()),
            (&[t!(4m), t!(3m), t!(5m)][..], 2, true, false)
        );
        assert!(meld(MeldKind::Chow, "406p").is_some());
        for (kind, bad) in
            [(MeldKind::Chow, "891m"), (MeldKind::Chow, "123z"), (MeldKind::Chow, "12m3p"), (MeldKind::Chow, "1234m")]
        {
            assert!(meld(kind, bad).is_none(), "{kind:?} {bad}");
        }
        assert!(meld(MeldKind::Pung, "550s").is_some());
        assert!(meld(MeldKind::Pung, "556s").is_none());
        assert!(meld(MeldKind::Pung, "5555s").is_none());
        let kong = meld(MeldKind::ConcealedKong, "9999p").unwrap();
        assert_eq!((kong.tiles().len(), kong.is_open(), kong.is_kong()), (4, false, true));
        assert!(meld(MeldKind::ClaimedKong, "1111z").unwrap().is_open());
        assert!(meld(MeldKind::AddedKong, "111z").is_none());
    }

    #[test]
    fn kinds_by_name() {
        for k in MeldKind::ALL {
            assert_eq!(MeldKind::from_name(k.name()), Some(k));
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
        }
        assert_eq!(MeldKind::from_name("chow"), None);
    }
}
