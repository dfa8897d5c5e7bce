//! Hungarian actions and their notation (docs/rules/hungarian.md, "Log notation").

use crate::log::NotationError;
use crate::mahjong::Tile;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;
use std::str::FromStr;

/// One decision of one seat.
///
/// On one's turn: `discard 5m`, `kong 5m` (four of a kind declared from the hand), `add 5m` (a
/// fourth tile from the hand added to one's laid-out pong), `mahjong` (a win on the tile drawn, or
/// East's dealt hand). In a claim window on a discard: `chow 4m 6m` (the two hand tiles of the run;
/// the next player only), `pong`, `kong` (three of the kind from the hand), `mahjong`, `pass`.
/// Drawing, the deal and the flowers' replacement are not decisions: the engine does them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    Discard(#[serde(deserialize_with = "plain")] Tile),
    /// The two hand tiles, in ascending order.
    #[serde(deserialize_with = "ascending")]
    Chow(Tile, Tile),
    Pong,
    /// A kong claimed on the discard.
    Kong,
    /// A kong of four declared from the hand.
    ConcealedKong(#[serde(deserialize_with = "plain")] Tile),
    /// A fourth tile from the hand added to one's laid-out pong.
    AddedKong(#[serde(deserialize_with = "plain")] Tile),
    Mahjong,
    Pass,
    /// An incident (`incident KIND[: DETAIL]`, core/src/incident.rs), last so that older logs keep
    /// their bytes.
    Incident(Box<crate::Incident>),
}

/// A tile of the Hungarian set: the binary form refuses a red five's byte as any other byte out
/// of range.
fn plain<'de, D: Deserializer<'de>>(d: D) -> Result<Tile, D::Error> {
    let t = Tile::deserialize(d)?;
    if t.is_aka() {
        return Err(serde::de::Error::custom(format!("tile id {} is a red five; the Hungarian set has none", t.id())));
    }
    Ok(t)
}

/// A chow's two tiles: plain, in ascending order (any other order is not the canonical form).
fn ascending<'de, D: Deserializer<'de>>(d: D) -> Result<(Tile, Tile), D::Error> {
    let (a, b) = <(Tile, Tile)>::deserialize(d)?;
    if a.is_aka() || b.is_aka() || a > b {
        return Err(serde::de::Error::custom(format!("a chow's tiles {a} {b} are not plain tiles in ascending order")));
    }
    Ok((a, b))
}

impl Action {
    /// A chow with its two tiles in ascending order.
    pub fn chow(a: Tile, b: Tile) -> Action {
        if a <= b {
            Action::Chow(a, b)
        } else {
            Action::Chow(b, a)
        }
    }

    /// The tile it names, if any.
    pub fn tile(self) -> Option<Tile> {
        match self {
            Action::Discard(t) | Action::ConcealedKong(t) | Action::AddedKong(t) | Action::Chow(t, _) => Some(t),
            Action::Pong | Action::Kong | Action::Mahjong | Action::Pass | Action::Incident(_) => None,
        }
    }
}

// Made of tile bytes that refuse codes outside their range (and red fives) and unit variants;
// nothing on reading sorts or rewrites a value (a chow in the wrong order is refused by the
// binary reader, not rewritten).
impl crate::log::Action for Action {
    const CANONICAL_UNLESS_OVERLONG: bool = true;

    crate::incident::incident_variant!();
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Discard(t) => write!(f, "discard {t}"),
            Action::Chow(a, b) => write!(f, "chow {a} {b}"),
            Action::Pong => f.write_str("pong"),
            Action::Kong => f.write_str("kong"),
            Action::ConcealedKong(t) => write!(f, "kong {t}"),
            Action::AddedKong(t) => write!(f, "add {t}"),
            Action::Mahjong => f.write_str("mahjong"),
            Action::Pass => f.write_str("pass"),
            Action::Incident(i) => write!(f, "{i}"),
        }
    }
}

impl FromStr for Action {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Action, NotationError> {
        if let Some(i) = crate::Incident::parse_notation(s)? {
            return Ok(Action::Incident(Box::new(i)));
        }
        let tile = |x: &str| -> Result<Tile, NotationError> {
            let t: Tile = x.parse()?;
            if t.is_aka() {
                return Err(NotationError(format!("{x}: the Hungarian set has no red fives (write 5m, 5p or 5s)")));
            }
            Ok(t)
        };
        let w = crate::log::words(s);
        Ok(match w.as_slice() {
            ["discard", x] => Action::Discard(tile(x)?),
            ["chow", a, b] => Action::chow(tile(a)?, tile(b)?),
            ["pong"] => Action::Pong,
            ["kong"] => Action::Kong,
            ["kong", x] => Action::ConcealedKong(tile(x)?),
            ["add", x] => Action::AddedKong(tile(x)?),
            ["mahjong"] => Action::Mahjong,
            ["pass"] => Action::Pass,
            _ => {
                return Err(NotationError(format!(
                    "{s:?} is not a Hungarian mahjong action: write discard T, chow T T, pong, kong, kong T, add T, \
                     mahjong or pass"
                )))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::t;

    #[test]
    fn notation_round_trips_in_both_encodings() {
        for s in [
            "discard 5m",
            "chow 4m 6m",
            "pong",
            "kong",
            "kong 7z",
            "add 1s",
            "mahjong",
            "pass",
            "incident exited",
            "incident forfeit: budget",
        ] {
            let a: Action = s.parse().unwrap();
            assert_eq!(a.to_string(), s);
            let bytes = postcard::to_allocvec(&a).unwrap();
            assert_eq!(postcard::from_bytes::<Action>(&bytes).unwrap(), a);
        }
        assert_eq!("chow 6m 4m".parse::<Action>().unwrap(), Action::Chow(t!(4m), t!(6m)));
        assert_eq!(postcard::to_allocvec(&Action::Discard(t!(1p))).unwrap(), vec![0, 9]);
        assert_eq!(postcard::to_allocvec(&Action::Pass).unwrap(), vec![7]);
        for bad in ["", "discard", "discard 0m", "discard 3f", "chow 4m", "pong 5m", "add", "ron", "kong 5m 5m"] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
        // A red five's byte, a flower's byte and a byte out of range are refused in binary.
        for code in [34u8, 37, 99] {
            assert!(postcard::from_bytes::<Action>(&[0, code]).is_err(), "{code}");
        }
        assert!(postcard::from_bytes::<Action>(&[8]).is_err());
        // A chow's tiles in descending order are not its canonical form.
        assert!(postcard::from_bytes::<Action>(&[1, 5, 3]).is_err());
        assert_eq!(postcard::from_bytes::<Action>(&[1, 3, 5]).unwrap(), Action::Chow(t!(4m), t!(6m)));
        assert_eq!(Action::chow(t!(6m), t!(4m)).tile(), Some(t!(4m)));
    }
}
