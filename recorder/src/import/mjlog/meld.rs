//! Tenhou's mjlog tile ids and the meld bits of `<N who m>`, decoded.

use crate::import::record::Tile;

/// A tile id, 0-135.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct TileId(pub(crate) u8);

impl TileId {
    pub(crate) fn kind(self) -> u8 {
        self.0 / 4
    }

    /// The tile in the record model's code; red fives only when `red` is on.
    pub(crate) fn to_record(self, red: bool) -> Tile {
        if red && matches!(self.0, 16 | 52 | 88) {
            return Tile(51 + self.0 / 36);
        }
        let k = self.kind();
        Tile(if k >= 27 { 41 + k - 27 } else { (k / 9 + 1) * 10 + k % 9 + 1 })
    }
}

/// Which seat a called tile came from, relative to the caller (Tenhou: 1 right, 2 across, 3 left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rel {
    Right,
    Across,
    Left,
}

/// A decoded `m` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Meld {
    Chi {
        tiles: [TileId; 3],
        called: TileId,
    },
    Pon {
        tiles: [TileId; 3],
        called: TileId,
        from: Rel,
    },
    AddedKan {
        tiles: [TileId; 4],
        added: TileId,
        from: Rel,
    },
    OpenKan {
        tiles: [TileId; 4],
        called: TileId,
        from: Rel,
    },
    ClosedKan {
        tiles: [TileId; 4],
    },
    /// A North taken out (three-player games only).
    Nuki,
}

fn rel(bits: u32) -> Option<Rel> {
    match bits & 3 {
        1 => Some(Rel::Right),
        2 => Some(Rel::Across),
        3 => Some(Rel::Left),
        _ => None,
    }
}

/// Decodes Tenhou's meld bits.
pub(crate) fn decode_meld(m: u32) -> Option<Meld> {
    let id = |v: u32| u8::try_from(v).ok().filter(|&v| v < 136).map(TileId);
    if m & 0x4 != 0 {
        // Chi: base = 3 * (lowest kind, as 0-20 over the three suits) + which tile was called.
        let b = m >> 10;
        let called = b % 3;
        let low = b / 3;
        let kind = low / 7 * 9 + low % 7;
        if low >= 21 {
            return None;
        }
        let copies = [(m >> 3) & 3, (m >> 5) & 3, (m >> 7) & 3];
        let tiles = [id((kind) * 4 + copies[0])?, id((kind + 1) * 4 + copies[1])?, id((kind + 2) * 4 + copies[2])?];
        return Some(Meld::Chi { tiles, called: tiles[called as usize] });
    }
    if m & 0x18 != 0 {
        // Pon (0x8) or added kan (0x10): base = 3 * kind + which of the three was called.
        let unused = (m >> 5) & 3;
        let b = m >> 9;
        let called = (b % 3) as usize;
        let kind = b / 3;
        if kind >= 34 {
            return None;
        }
        let from = rel(m)?;
        let three: Vec<TileId> = (0..4).filter(|&c| c != unused).map(|c| id(kind * 4 + c)).collect::<Option<_>>()?;
        let tiles = [three[0], three[1], three[2]];
        if m & 0x8 != 0 {
            return Some(Meld::Pon { tiles, called: tiles[called], from });
        }
        let added = id(kind * 4 + unused)?;
        return Some(Meld::AddedKan { tiles: [tiles[0], tiles[1], tiles[2], added], added, from });
    }
    if m & 0x20 != 0 {
        return Some(Meld::Nuki);
    }
    // Kan from a discard or closed kan: base = 4 * kind + which copy was called.
    let b = m >> 8;
    let kind = b / 4;
    if kind >= 34 {
        return None;
    }
    let tiles = [id(kind * 4)?, id(kind * 4 + 1)?, id(kind * 4 + 2)?, id(kind * 4 + 3)?];
    match rel(m) {
        None => Some(Meld::ClosedKan { tiles }),
        Some(from) => Some(Meld::OpenKan { tiles, called: tiles[(b % 4) as usize], from }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs melds the way Tenhou does, to check decoding against values built from the layout.
    fn chi(low_kind: u32, called: u32, copies: [u32; 3]) -> u32 {
        let low = low_kind / 9 * 7 + low_kind % 9;
        ((low * 3 + called) << 10) | (copies[2] << 7) | (copies[1] << 5) | (copies[0] << 3) | 0x4 | 3
    }

    fn pon(kind: u32, called: u32, unused: u32, from: u32, added: bool) -> u32 {
        ((kind * 3 + called) << 9) | (unused << 5) | if added { 0x10 } else { 0x8 } | from
    }

    fn kan(kind: u32, called: u32, from: u32) -> u32 {
        ((kind * 4 + called) << 8) | from
    }

    #[test]
    fn chi_decodes_the_called_tile_and_copies() {
        // 3p-4p-5p (kinds 11, 12, 13), the 4p called, copies 1, 0, 2.
        let m = decode_meld(chi(11, 1, [1, 0, 2])).unwrap();
        assert_eq!(m, Meld::Chi { tiles: [TileId(45), TileId(48), TileId(54)], called: TileId(48) });
        let Meld::Chi { tiles, .. } = m else { panic!() };
        assert_eq!(tiles.map(|t| t.to_record(true).notation()), ["3p", "4p", "5p"]);
        // 7s-8s-9s: the highest chi of a suit.
        let Some(Meld::Chi { tiles, .. }) = decode_meld(chi(24, 0, [0, 0, 0])) else { panic!() };
        assert_eq!(tiles.map(|t| t.to_record(false).notation()), ["7s", "8s", "9s"]);
    }

    #[test]
    fn pon_added_kan_and_kans_decode() {
        // Pon of red dragon (kind 33) from the left, copy 3 unused, second tile called.
        let m = decode_meld(pon(33, 1, 3, 3, false)).unwrap();
        assert_eq!(
            m,
            Meld::Pon { tiles: [TileId(132), TileId(133), TileId(134)], called: TileId(133), from: Rel::Left }
        );
        let m = decode_meld(pon(4, 0, 0, 2, true)).unwrap();
        assert_eq!(
            m,
            Meld::AddedKan {
                tiles: [TileId(17), TileId(18), TileId(19), TileId(16)],
                added: TileId(16),
                from: Rel::Across
            }
        );
        assert_eq!(TileId(16).to_record(true).notation(), "0m");
        assert_eq!(
            decode_meld(kan(9, 2, 0)).unwrap(),
            Meld::ClosedKan { tiles: [TileId(36), TileId(37), TileId(38), TileId(39)] }
        );
        assert_eq!(
            decode_meld(kan(27, 1, 1)).unwrap(),
            Meld::OpenKan {
                tiles: [TileId(108), TileId(109), TileId(110), TileId(111)],
                called: TileId(109),
                from: Rel::Right
            }
        );
        assert_eq!(decode_meld(kan(40, 0, 0)), None, "no kind 40");
    }
}
