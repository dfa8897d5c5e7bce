//! Flowers and seasons, and the pieces of a 144-tile set: a [`Tile`] or a [`Flower`].
//!
//! Only the games with flowers (the Chinese Official rules, Hungarian 1925) use these; riichi's
//! tiles, logs and walls are [`Tile`]s alone. One byte code space covers every piece: a tile's
//! id (0-36), then the flowers `1f`-`4f` and the seasons `5f`-`8f` as 37-44. A flower's code is
//! therefore never a tile's, and a riichi log refuses it as any other byte above 36.

use super::tile::Tile;
use crate::log::NotationError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A flower (`1f`-`4f`) or a season (`5f`-`8f`). The number of each within its four (1-4) names
/// the seat it belongs to: East 1, South 2, West 3, North 4.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Flower(u8);

/// A byte that is not a flower's code (37-44).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("flower code {0} is out of range (37..45)")]
pub struct FlowerCodeError(pub u8);

/// A byte that is not a piece's code (0-44).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("piece code {0} is out of range (0..45)")]
pub struct PieceCodeError(pub u8);

/// The first flower's code.
const FLOWER_BASE: u8 = 37;

impl Flower {
    /// The eight, `1f` to `8f`.
    pub const ALL: [Flower; 8] =
        [Flower(0), Flower(1), Flower(2), Flower(3), Flower(4), Flower(5), Flower(6), Flower(7)];

    /// The flower written `{n}f`, `n` 1-8.
    pub const fn numbered(n: u8) -> Option<Flower> {
        if n >= 1 && n <= 8 {
            Some(Flower(n - 1))
        } else {
            None
        }
    }

    /// Its number as written, 1-8.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// `5f`-`8f`.
    pub const fn is_season(self) -> bool {
        self.0 >= 4
    }

    /// The number of the seat it belongs to: 1 East, 2 South, 3 West, 4 North.
    pub const fn seat_number(self) -> u8 {
        self.0 % 4 + 1
    }

    /// Its byte code, 37-44.
    pub const fn code(self) -> u8 {
        FLOWER_BASE + self.0
    }
}

impl TryFrom<u8> for Flower {
    type Error = FlowerCodeError;
    fn try_from(v: u8) -> Result<Flower, FlowerCodeError> {
        match v.checked_sub(FLOWER_BASE) {
            Some(i) if i < 8 => Ok(Flower(i)),
            _ => Err(FlowerCodeError(v)),
        }
    }
}

impl From<Flower> for u8 {
    fn from(f: Flower) -> u8 {
        f.code()
    }
}

impl fmt::Display for Flower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}f", self.number())
    }
}

impl fmt::Debug for Flower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Flower {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Flower, NotationError> {
        match s.as_bytes() {
            [d @ b'1'..=b'8', b'f'] => Ok(Flower(d - b'1')),
            _ => {
                Err(NotationError(format!("{s:?} is not a flower: write 1f-4f for the flowers, 5f-8f for the seasons")))
            }
        }
    }
}

/// Any piece of a set with flowers: a tile or a flower.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum Piece {
    Tile(Tile),
    Flower(Flower),
}

impl Piece {
    /// The 144 pieces in order: the 136 tiles by kind (four of each), then `1f` to `8f`.
    pub fn set() -> [Piece; 144] {
        let tiles = Tile::set();
        std::array::from_fn(|i| match tiles.get(i) {
            Some(&t) => Piece::Tile(t),
            None => Piece::Flower(Flower::ALL[(i - 136) % 8]),
        })
    }

    /// Its byte code: a tile's id, or a flower's code.
    pub fn code(self) -> u8 {
        match self {
            Piece::Tile(t) => t.id(),
            Piece::Flower(f) => f.code(),
        }
    }

    pub fn tile(self) -> Option<Tile> {
        match self {
            Piece::Tile(t) => Some(t),
            Piece::Flower(_) => None,
        }
    }

    pub fn flower(self) -> Option<Flower> {
        match self {
            Piece::Flower(f) => Some(f),
            Piece::Tile(_) => None,
        }
    }
}

impl From<Tile> for Piece {
    fn from(t: Tile) -> Piece {
        Piece::Tile(t)
    }
}

impl From<Flower> for Piece {
    fn from(f: Flower) -> Piece {
        Piece::Flower(f)
    }
}

impl TryFrom<u8> for Piece {
    type Error = PieceCodeError;
    fn try_from(v: u8) -> Result<Piece, PieceCodeError> {
        match (Tile::new(v), Flower::try_from(v)) {
            (Some(t), _) => Ok(Piece::Tile(t)),
            (None, Ok(f)) => Ok(Piece::Flower(f)),
            (None, Err(_)) => Err(PieceCodeError(v)),
        }
    }
}

impl From<Piece> for u8 {
    fn from(p: Piece) -> u8 {
        p.code()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Piece::Tile(t) => fmt::Display::fmt(t, f),
            Piece::Flower(x) => fmt::Display::fmt(x, f),
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Piece {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Piece, NotationError> {
        if s.ends_with('f') {
            return s.parse().map(Piece::Flower);
        }
        s.parse().map(Piece::Tile).map_err(|_| {
            NotationError(format!(
                "{s:?} is not a tile: write 1-9 with m, p or s, 0m/0p/0s for a red five, 1z-7z for the honours, \
                 or 1f-8f for the flowers and seasons"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::counts_of;
    use crate::t;

    #[test]
    fn flowers_and_seasons() {
        let names: Vec<String> = Flower::ALL.iter().map(|f| f.to_string()).collect();
        assert_eq!(names, ["1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"]);
        for f in Flower::ALL {
            assert_eq!(f.to_string().parse::<Flower>().unwrap(), f);
            assert_eq!(Flower::numbered(f.number()), Some(f));
            assert_eq!(Flower::try_from(f.code()), Ok(f));
            assert_eq!(f.is_season(), f.number() > 4);
            assert_eq!(f.seat_number(), (f.number() - 1) % 4 + 1);
        }
        assert_eq!("7f".parse::<Flower>().unwrap().seat_number(), 3);
        for bad in ["0f", "9f", "1z", "f", "11f"] {
            assert!(bad.parse::<Flower>().is_err(), "{bad}");
        }
        assert_eq!(Flower::numbered(0), None);
        assert_eq!(Flower::try_from(36), Err(FlowerCodeError(36)));
        assert_eq!(Flower::try_from(45), Err(FlowerCodeError(45)));
    }

    #[test]
    fn pieces_share_one_code_space() {
        for code in 0..=255u8 {
            match Piece::try_from(code) {
                Ok(p) => {
                    assert!(code < 45);
                    assert_eq!(p.code(), code);
                    assert_eq!(p.to_string().parse::<Piece>().unwrap(), p);
                    assert_eq!(postcard::from_bytes::<Piece>(&postcard::to_allocvec(&p).unwrap()).unwrap(), p);
                    assert_eq!(p.tile().is_some(), code < 37);
                    assert_eq!(p.flower().is_some(), code >= 37);
                }
                Err(e) => assert!(code >= 45 && e == PieceCodeError(code)),
            }
        }
        assert_eq!("0p".parse::<Piece>().unwrap(), Piece::Tile(t!(0p)));
        assert!("8z".parse::<Piece>().is_err() && "9f".parse::<Piece>().is_err());
    }

    /// A flower's byte where a riichi tile is read is refused as any byte out of range is, with
    /// the same error.
    #[test]
    fn a_flower_is_no_tile() {
        for f in Flower::ALL {
            assert_eq!(
                Tile::try_from(f.code()).unwrap_err().to_string(),
                format!("tile id {} is out of range (0..37)", f.code())
            );
            let as_tile = postcard::from_bytes::<Tile>(&[f.code()]).unwrap_err();
            assert_eq!(as_tile, postcard::from_bytes::<Tile>(&[200]).unwrap_err());
        }
        assert!("3f".parse::<Tile>().is_err() && crate::mahjong::parse_tiles("3f").is_err());
    }

    #[test]
    fn the_set_with_flowers() {
        let set = Piece::set();
        let tiles: Vec<Tile> = set.iter().filter_map(|p| p.tile()).collect();
        assert_eq!(counts_of(&tiles), [4; 34]);
        let flowers: Vec<Flower> = set.iter().filter_map(|p| p.flower()).collect();
        assert_eq!(flowers, Flower::ALL);
    }
}
