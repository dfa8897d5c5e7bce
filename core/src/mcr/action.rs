//! MCR actions and their notation.

use crate::log::NotationError;
use crate::mahjong::{parse_tile_array, parse_tiles, tiles_text, Piece, Tile};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One MCR decision.
///
/// Notation: `discard 5m`; on a discard: `chow 4m 6m` (the two hand tiles; the discard is the
/// third), `pung 5m`, `kong 5m` (the discard's tile), `win`, `pass`; on one's turn after a draw:
/// `concealed_kong 5m`, `added_kong 5m` (the fourth tile onto one's own melded pung), `win`
/// (self-drawn); on a tile added to a kong: `win` (robbing the kong) or `pass`.
///
/// Imported games (no seed) also record the chance events their source shows: `deal TILES` (a
/// seat's 13 starting tiles, in tile order) and `draw T` (a seat's draw, a replacement draw
/// included; `draw 3f` a flower, which the seat sets aside and replaces by the next `draw`).
/// These are illegal in seeded games.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    Discard(Tile),
    Chow(Tile, Tile),
    Pung(Tile),
    Kong(Tile),
    ConcealedKong(Tile),
    AddedKong(Tile),
    Win,
    Pass,
    Deal([Tile; 13]),
    Draw(Piece),
    /// An incident (`incident KIND[: DETAIL]`, core/src/incident.rs), last so that older logs keep
    /// their bytes.
    Incident(Box<crate::Incident>),
}

impl Action {
    /// A chow with its two tiles in order.
    pub fn chow(a: Tile, b: Tile) -> Action {
        if a <= b {
            Action::Chow(a, b)
        } else {
            Action::Chow(b, a)
        }
    }

    /// A deal with its tiles in order.
    pub fn deal(mut tiles: [Tile; 13]) -> Action {
        tiles.sort();
        Action::Deal(tiles)
    }
}

// Made of tile and piece bytes that refuse codes outside their range, in enums and fixed arrays;
// nothing on reading sorts or rewrites a value (a deal or chow out of order is refused when
// checked, not reordered when read).
impl crate::log::Action for Action {
    const CANONICAL_UNLESS_OVERLONG: bool = true;

    crate::incident::incident_variant!();
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Discard(t) => write!(f, "discard {t}"),
            Action::Chow(a, b) => write!(f, "chow {a} {b}"),
            Action::Pung(t) => write!(f, "pung {t}"),
            Action::Kong(t) => write!(f, "kong {t}"),
            Action::ConcealedKong(t) => write!(f, "concealed_kong {t}"),
            Action::AddedKong(t) => write!(f, "added_kong {t}"),
            Action::Win => f.write_str("win"),
            Action::Pass => f.write_str("pass"),
            Action::Deal(tiles) => write!(f, "deal {}", tiles_text(tiles)),
            Action::Draw(p) => write!(f, "draw {p}"),
            Action::Incident(i) => write!(f, "{i}"),
        }
    }
}

/// A tile of MCR: no red fives.
fn tile(s: &str) -> Result<Tile, NotationError> {
    let t: Tile = s.parse()?;
    if t.is_aka() {
        return Err(NotationError(format!("{s:?}: the Chinese Official rules have no red fives")));
    }
    Ok(t)
}

impl FromStr for Action {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Action, NotationError> {
        if let Some(i) = crate::Incident::parse_notation(s)? {
            return Ok(Action::Incident(Box::new(i)));
        }
        let w = crate::log::words(s);
        Ok(match w.as_slice() {
            ["discard", x] => Action::Discard(tile(x)?),
            ["chow", a, b] => Action::chow(tile(a)?, tile(b)?),
            ["pung", x] => Action::Pung(tile(x)?),
            ["kong", x] => Action::Kong(tile(x)?),
            ["concealed_kong", x] => Action::ConcealedKong(tile(x)?),
            ["added_kong", x] => Action::AddedKong(tile(x)?),
            ["win"] => Action::Win,
            ["pass"] => Action::Pass,
            ["deal", hand] => {
                let tiles = parse_tile_array::<13>(hand)?;
                let red = match &tiles {
                    Ok(tiles) => tiles.iter().find(|t| t.is_aka()).copied(),
                    // A red five among more or fewer tiles is named first, as it always was.
                    Err(_) => parse_tiles(hand)?.into_iter().find(|t| t.is_aka()),
                };
                if let Some(t) = red {
                    return Err(NotationError(format!("{s:?}: {t}: the Chinese Official rules have no red fives")));
                }
                match tiles {
                    Ok(tiles) => Action::deal(tiles),
                    Err(n) => return Err(NotationError(format!("{s:?}: a deal is 13 tiles, not {n}"))),
                }
            }
            ["draw", x] => {
                let p: Piece = x.parse()?;
                if p.tile().is_some_and(Tile::is_aka) {
                    return Err(NotationError(format!("{s:?}: the Chinese Official rules have no red fives")));
                }
                Action::Draw(p)
            }
            _ => {
                return Err(NotationError(format!(
                    "{s:?} is not an MCR action: write discard T, chow T T, pung T, kong T, concealed_kong T, \
                     added_kong T, win, pass, or in imported games deal TILES, draw T"
                )))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLES: &[&str] = &[
        "discard 5m",
        "chow 4m 6m",
        "pung 7z",
        "kong 1s",
        "concealed_kong 9p",
        "added_kong 5m",
        "win",
        "pass",
        "deal 1234567899m123z",
        "draw 3s",
        "draw 7f",
        "incident illegal: answered \"discard 9z\"",
        "incident false_win",
    ];

    #[test]
    fn notation_round_trips() {
        for &s in EXAMPLES {
            let a: Action = s.parse().unwrap();
            assert_eq!(a.to_string(), s);
            let bytes = postcard::to_allocvec(&a).unwrap();
            assert_eq!(postcard::from_bytes::<Action>(&bytes).unwrap(), a);
        }
        assert_eq!("chow 6m 4m".parse::<Action>().unwrap().to_string(), "chow 4m 6m");
        for bad in
            ["", "discard", "discard 0m", "chow 4m", "pung", "win now", "deal 123m", "draw 9f", "draw 0p", "chi 4m 6m"]
        {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
        assert!(postcard::from_bytes::<Action>(&[0, 99]).is_err());
    }
}
