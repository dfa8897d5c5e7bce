//! Mahjong tiles: a `u8` newtype in the style of Mortal's libriichi.
//!
//! Ids 0..34 are the 34 tile kinds (0-8 `1m`-`9m`, 9-17 `1p`-`9p`, 18-26 `1s`-`9s`, 27-33 `1z`-`7z`:
//! East South West North White Green Red); 34, 35, 36 are the red fives `0m`, `0p`, `0s`. These
//! ids are the tiles' bytes in binary logs. Flowers and seasons are not tiles of this type (see
//! `piece.rs`): their codes, 37-44, are refused here as every byte above 36 is.

use crate::log::NotationError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One tile. Always a valid id (0..37).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Tile(u8);

/// A tile by its notation, checked at compile time: `t!(5m)`, `t!(0p)`, `t!(7z)`.
#[macro_export]
macro_rules! t {
    ($s:tt) => {
        const { $crate::mahjong::Tile::parse_const(stringify!($s)) }
    };
}

/// A byte that is not a tile's id (a binary log's byte out of range).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("tile id {0} is out of range (0..37)")]
pub struct TileCodeError(pub u8);

impl TryFrom<u8> for Tile {
    type Error = TileCodeError;
    fn try_from(v: u8) -> Result<Tile, TileCodeError> {
        Tile::new(v).ok_or(TileCodeError(v))
    }
}

impl From<Tile> for u8 {
    fn from(t: Tile) -> u8 {
        t.0
    }
}

impl Tile {
    /// Number of tile kinds (red fives are kinds 4, 13, 22).
    pub const KINDS: usize = 34;

    /// The tile of id `id` (0..37); `None` if out of range.
    pub const fn new(id: u8) -> Option<Tile> {
        if id < 37 {
            Some(Tile(id))
        } else {
            None
        }
    }

    /// The tile of kind `k`; `k` must be below 34 (clamped otherwise).
    pub const fn kind_tile(k: usize) -> Tile {
        Tile(if k < 34 { k as u8 } else { 33 })
    }

    /// The 136 tiles of a set without red fives, in kind order, four of each.
    pub const fn set() -> [Tile; 136] {
        let mut tiles = [Tile(0); 136];
        let mut i = 0;
        while i < 136 {
            tiles[i] = Tile((i / 4) as u8);
            i += 1;
        }
        tiles
    }

    /// Parses `5m` at compile time (used by [`t!`]); panics (a compile error) on bad notation.
    pub const fn parse_const(s: &str) -> Tile {
        let b = s.as_bytes();
        assert!(b.len() == 2, "a tile is a digit and a suit letter");
        match Tile::from_chars(b[0], b[1]) {
            Some(t) => t,
            None => panic!("bad tile notation"),
        }
    }

    pub(crate) const fn from_chars(d: u8, suit: u8) -> Option<Tile> {
        if !d.is_ascii_digit() {
            return None;
        }
        let n = d - b'0';
        let base = match suit {
            b'm' => 0,
            b'p' => 9,
            b's' => 18,
            b'z' => 27,
            _ => return None,
        };
        if suit == b'z' {
            if n >= 1 && n <= 7 {
                Some(Tile(27 + n - 1))
            } else {
                None
            }
        } else if n == 0 {
            Some(Tile(34 + base / 9))
        } else {
            Some(Tile(base + n - 1))
        }
    }

    pub const fn id(self) -> u8 {
        self.0
    }

    /// The kind, 0..34 (a red five is its plain five).
    pub const fn kind(self) -> usize {
        match self.0 {
            34 => 4,
            35 => 13,
            36 => 22,
            k => k as usize,
        }
    }

    /// The plain tile of the same kind.
    pub const fn deaka(self) -> Tile {
        Tile(self.kind() as u8)
    }

    pub const fn is_aka(self) -> bool {
        self.0 >= 34
    }

    /// The red five of this suit (for a five), else itself.
    pub const fn akaize(self) -> Tile {
        match self.0 {
            4 => Tile(34),
            13 => Tile(35),
            22 => Tile(36),
            _ => self,
        }
    }

    /// 0 m, 1 p, 2 s, 3 z.
    pub const fn suit(self) -> usize {
        self.kind() / 9
    }

    /// 1-9 for suited tiles, 1-7 for honours.
    pub const fn num(self) -> u8 {
        (self.kind() % 9) as u8 + 1
    }

    pub const fn is_honor(self) -> bool {
        self.kind() >= 27
    }

    pub const fn is_terminal(self) -> bool {
        !self.is_honor() && (self.num() == 1 || self.num() == 9)
    }

    /// Terminal or honour.
    pub const fn is_yaochu(self) -> bool {
        self.is_honor() || self.is_terminal()
    }

    pub const fn is_wind(self) -> bool {
        let k = self.kind();
        k >= 27 && k < 31
    }

    pub const fn is_dragon(self) -> bool {
        self.kind() >= 31
    }

    /// The dora this tile indicates.
    pub const fn dora_of(self) -> Tile {
        let k = self.kind();
        Tile(match k {
            0..=26 => {
                if k % 9 == 8 {
                    k - 8
                } else {
                    k + 1
                }
            }
            30 => 27,
            33 => 31,
            _ => k + 1,
        } as u8)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suit = ['m', 'p', 's', 'z'][self.suit()];
        let n = if self.is_aka() { 0 } else { self.num() };
        write!(f, "{n}{suit}")
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Tile {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Tile, NotationError> {
        let b = s.as_bytes();
        if b.len() == 2 {
            if let Some(t) = Tile::from_chars(b[0], b[1]) {
                return Ok(t);
            }
        }
        Err(NotationError(format!(
            "{s:?} is not a tile: write 1-9 with m, p or s, 0m/0p/0s for a red five, or 1z-7z for the honours"
        )))
    }
}

/// Parses a hand in the usual compact notation, `123m456p789s1234567z`, `0m` for a red five.
/// Spaces are allowed between groups.
pub fn parse_tiles(s: &str) -> Result<Vec<Tile>, NotationError> {
    let mut out = Vec::new();
    for_each_tile(s, |t| out.push(t))?;
    Ok(out)
}

/// The tiles of a hand in compact notation (as [`parse_tiles`] reads it) handed to `each` in
/// order, nothing allocated; answers how many. At most 64 tiles are read (a longer hand is
/// refused, though `each` may have seen a few more of its last group).
pub(crate) fn for_each_tile(s: &str, mut each: impl FnMut(Tile)) -> Result<usize, NotationError> {
    let b = s.as_bytes();
    let mut count = 0;
    // Where the digits waiting for their suit letter start.
    let mut digits: Option<usize> = None;
    // Read a byte at a time: every byte before a character outside ASCII is an error is ASCII.
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                digits.get_or_insert(i);
            }
            b'm' | b'p' | b's' | b'z' => {
                let Some(from) = digits.take() else {
                    return Err(NotationError(format!("{s:?}: the suit letter {} follows no digit", char::from(c))));
                };
                for &d in b[from..i].iter().filter(|d| d.is_ascii_digit()) {
                    match Tile::from_chars(d, c) {
                        Some(t) => each(t),
                        None => {
                            return Err(NotationError(format!(
                                "{s:?}: {}{} is not a tile",
                                char::from(d),
                                char::from(c)
                            )));
                        }
                    }
                    count += 1;
                }
            }
            b' ' | b',' => {}
            _ => {
                // Every byte before this one is ASCII: a character starts here.
                let other = s.get(i..).and_then(|r| r.chars().next()).unwrap_or(char::REPLACEMENT_CHARACTER);
                return Err(NotationError(format!("{s:?}: unexpected character {other:?} in a hand")));
            }
        }
        if count > 64 {
            return Err(NotationError(format!("{s:?}: too many tiles")));
        }
    }
    if digits.is_some() {
        return Err(NotationError(format!("{s:?}: digits without a suit letter at the end")));
    }
    Ok(count)
}

/// Exactly `N` tiles of compact notation, nothing allocated: `None` for another count (the
/// count is then the second value).
pub(crate) fn parse_tile_array<const N: usize>(s: &str) -> Result<Result<[Tile; N], usize>, NotationError> {
    let mut out = [Tile::kind_tile(0); N];
    let mut n = 0;
    let count = for_each_tile(s, |t| {
        if let Some(slot) = out.get_mut(n) {
            *slot = t;
        }
        n += 1;
    })?;
    Ok(if count == N { Ok(out) } else { Err(count) })
}

/// Writes tiles in compact notation, grouped by suit: `123m456p`.
pub fn tiles_text(tiles: &[Tile]) -> String {
    let mut out = String::new();
    let mut sorted = tiles.to_vec();
    sorted.sort_by_key(|t| (t.suit(), t.num(), t.is_aka()));
    for suit in 0..4 {
        let mut any = false;
        for t in sorted.iter().filter(|t| t.suit() == suit) {
            out.push(char::from(b'0' + if t.is_aka() { 0 } else { t.num() }));
            any = true;
        }
        if any {
            out.push(['m', 'p', 's', 'z'][suit]);
        }
    }
    out
}

/// Tile counts by kind.
pub type Counts = [u8; 34];

pub fn counts_of(tiles: &[Tile]) -> Counts {
    let mut c = [0u8; 34];
    for t in tiles {
        c[t.kind()] += 1;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_tile() {
        for id in 0..37u8 {
            let t = Tile::new(id).unwrap();
            assert_eq!(t.to_string().parse::<Tile>().unwrap(), t);
        }
        assert_eq!(t!(5m).kind(), 4);
        assert_eq!(t!(0p).kind(), 13);
        assert!(t!(0s).is_aka());
        assert_eq!(t!(7z).kind(), 33);
        assert!("8z".parse::<Tile>().is_err());
        assert!("0z".parse::<Tile>().is_err());
        assert!("5x".parse::<Tile>().is_err());
        assert_eq!(Tile::try_from(37u8), Err(TileCodeError(37)));
        assert_eq!(TileCodeError(37).to_string(), "tile id 37 is out of range (0..37)");
    }

    #[test]
    fn dora_order_wraps() {
        assert_eq!(t!(9m).dora_of(), t!(1m));
        assert_eq!(t!(3m).dora_of(), t!(4m));
        assert_eq!(t!(0p).dora_of(), t!(6p));
        assert_eq!(t!(4z).dora_of(), t!(1z));
        assert_eq!(t!(7z).dora_of(), t!(5z));
        assert_eq!(t!(5z).dora_of(), t!(6z));
    }

    #[test]
    fn hands_parse() {
        let h = parse_tiles("123m406p789s1234567z").unwrap();
        assert_eq!(h.len(), 16);
        assert!(h.contains(&t!(0p)));
        assert_eq!(tiles_text(&h), "123m406p789s1234567z");
        assert!(parse_tiles("12").is_err());
        assert!(parse_tiles("m").is_err());
        assert!(parse_tiles("8z").is_err());
        assert!(parse_tiles("1x").is_err());
    }

    /// The notation's errors say what is wrong, as they did when the hand was read a character
    /// at a time (it is now read a byte at a time: a character outside ASCII is still named).
    #[test]
    fn notation_errors_name_what_is_wrong() {
        let message = |s: &str| for_each_tile(s, |_| {}).unwrap_err().0;
        assert_eq!(message("1\u{e9}2m"), "\"1\u{e9}2m\": unexpected character '\u{e9}' in a hand");
        assert_eq!(message("12m\u{1f004}"), "\"12m\u{1f004}\": unexpected character '\u{1f004}' in a hand");
        assert_eq!(message("1x"), "\"1x\": unexpected character 'x' in a hand");
        assert_eq!(message("12m p"), "\"12m p\": the suit letter p follows no digit");
        assert_eq!(message("1, 8z"), "\"1, 8z\": 8z is not a tile");
        assert_eq!(message("123m45"), "\"123m45\": digits without a suit letter at the end");
        let long = "1111m".repeat(17);
        assert_eq!(message(&long), format!("{long:?}: too many tiles"));
        assert_eq!(for_each_tile("1, 2 3m 0p", |_| {}).unwrap(), 4);
    }

    #[test]
    fn the_set_is_four_of_each_kind() {
        let set = Tile::set();
        assert_eq!(counts_of(&set), [4; 34]);
        assert!(set.windows(2).all(|w| w[0] <= w[1]) && !set.iter().any(|t| t.is_aka()));
    }
}
