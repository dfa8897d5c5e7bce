//! Riichi actions and their notation.

use crate::log::NotationError;
use crate::mahjong::{parse_tile_array, tiles_text, Tile};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One riichi decision.
///
/// Notation: `discard 5m` (a tile from the hand), `tsumogiri 5m` (the tile just drawn),
/// `riichi discard 5m` / `riichi tsumogiri 5m` (declare riichi with that discard), `chi 4m 6m`
/// and `pon 5m 0m` (the two hand tiles; the discard is the claimed tile), `minkan 5m` (open kan
/// on a discard), `ankan 5m`, `kakan 5m`, `tsumo`, `ron`, `pass`, `kyuushu` (nine terminals).
/// The kans name the kind (a red five is written and read as its plain five: the tiles used are
/// every copy, so there is no choice to record).
///
/// Imported games (no seed) also record the chance events the source shows, appended at the end
/// of the enum so that older binary logs keep their encoding: `deal 123m456p789s1234z` (a seat's
/// 13 starting tiles, in canonical order: by suit, number, red after plain), `draw 5m` (the seat's
/// draw, also the replacement draw after a kan), `dora 3p` (the next dora indicator of the dead
/// wall: the first before the dealer's first draw, kan dora as the source shows them) and
/// `ura 4s` (the next ura indicator). These are illegal in seeded games.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    Discard {
        tile: Tile,
        drawn: bool,
        riichi: bool,
    },
    Chi(Tile, Tile),
    Pon(Tile, Tile),
    Minkan(Tile),
    Ankan(Tile),
    Kakan(Tile),
    Tsumo,
    Ron,
    Pass,
    Kyuushu,
    Deal([Tile; 13]),
    Draw(Tile),
    Dora(Tile),
    Ura(Tile),
    /// An incident (`incident KIND[: DETAIL]`, core/src/incident.rs), last so that older logs keep
    /// their bytes.
    Incident(Box<crate::Incident>),
}

impl Action {
    pub fn discard(tile: Tile) -> Action {
        Action::Discard { tile, drawn: false, riichi: false }
    }
    pub fn tsumogiri(tile: Tile) -> Action {
        Action::Discard { tile, drawn: true, riichi: false }
    }
    /// A chi with its tiles in canonical order (lower id first... by kind, then plain before red).
    pub fn chi(a: Tile, b: Tile) -> Action {
        let (x, y) = order(a, b);
        Action::Chi(x, y)
    }
    pub fn pon(a: Tile, b: Tile) -> Action {
        let (x, y) = order(a, b);
        Action::Pon(x, y)
    }
    /// A deal with its tiles in canonical order.
    pub fn deal(mut tiles: [Tile; 13]) -> Action {
        tiles.sort_by_key(|t| deal_key(*t));
        Action::Deal(tiles)
    }
    /// Whether a deal's tiles are in canonical order.
    pub(crate) fn deal_is_canonical(tiles: &[Tile; 13]) -> bool {
        tiles.windows(2).all(|w| deal_key(w[0]) <= deal_key(w[1]))
    }
}

fn deal_key(t: Tile) -> (usize, bool) {
    (t.kind(), t.is_aka())
}

fn order(a: Tile, b: Tile) -> (Tile, Tile) {
    let key = |t: Tile| (t.kind(), t.is_aka());
    if key(a) <= key(b) {
        (a, b)
    } else {
        (b, a)
    }
}

// Made of tile bytes that refuse codes outside their range and enums, structs and fixed arrays of them; nothing on reading sorts or
// rewrites a value (a set in the wrong order is refused). The test
// `actions_encode_without_maps_chars_or_floats` checks every variant.
impl crate::log::Action for Action {
    const CANONICAL_UNLESS_OVERLONG: bool = true;

    crate::incident::incident_variant!();

    fn from_ascii_notation(notation: &[u8]) -> Option<Action> {
        quick(notation)
    }

    /// The notation written straight into the buffer, without `fmt` (every record line of an
    /// imported log is written by it, issue 25); the same text as `Display`'s (tested).
    fn write_notation(&self, out: &mut Vec<u8>) {
        let (word, tile) = match self {
            Action::Discard { tile, drawn, riichi } => {
                if *riichi {
                    out.extend_from_slice(b"riichi ");
                }
                (if *drawn { "tsumogiri " } else { "discard " }, *tile)
            }
            Action::Chi(a, b) | Action::Pon(a, b) => {
                out.extend_from_slice(if matches!(self, Action::Chi(..)) { b"chi " } else { b"pon " });
                out.extend_from_slice(tile_text(*a).as_bytes());
                out.push(b' ');
                out.extend_from_slice(tile_text(*b).as_bytes());
                return;
            }
            Action::Minkan(t) => ("minkan ", *t),
            Action::Ankan(t) => ("ankan ", *t),
            Action::Kakan(t) => ("kakan ", *t),
            Action::Tsumo | Action::Ron | Action::Pass | Action::Kyuushu => {
                out.extend_from_slice(match self {
                    Action::Tsumo => b"tsumo",
                    Action::Ron => b"ron",
                    Action::Pass => b"pass",
                    _ => b"kyuushu",
                });
                return;
            }
            Action::Deal(tiles) => {
                let mut buf = [0u8; 17];
                let n = deal_text(tiles, &mut buf);
                out.extend_from_slice(b"deal ");
                out.extend_from_slice(&buf[..n]);
                return;
            }
            Action::Draw(t) => ("draw ", *t),
            Action::Dora(t) => ("dora ", *t),
            Action::Ura(t) => ("ura ", *t),
            Action::Incident(i) => {
                out.extend_from_slice(i.to_string().as_bytes());
                return;
            }
        };
        out.extend_from_slice(word.as_bytes());
        out.extend_from_slice(tile_text(tile).as_bytes());
    }
}

/// Each tile's notation by id (0..37): what `Tile`'s `Display` writes, as text to copy.
const TILE_TEXT: [&str; 37] = [
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "1s",
    "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z", "0m", "0p", "0s",
];

fn tile_text(t: Tile) -> &'static str {
    TILE_TEXT[usize::from(t.id())]
}

/// A deal's tiles in compact notation (`mahjong::tiles_text`'s text) in a buffer on the stack:
/// 13 tiles and at most four suit letters.
fn deal_text(tiles: &[Tile; 13], buf: &mut [u8; 17]) -> usize {
    let mut sorted = *tiles;
    if !Action::deal_is_canonical(&sorted) {
        sorted.sort_by_key(|t| deal_key(*t));
    }
    let mut n = 0;
    for (i, t) in sorted.iter().enumerate() {
        buf[n] = if t.is_aka() { b'0' } else { b'0' + t.num() };
        n += 1;
        if sorted.get(i + 1).is_none_or(|u| u.suit() != t.suit()) {
            buf[n] = b"mpsz"[t.suit()];
            n += 1;
        }
    }
    n
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Discard { tile, drawn, riichi } => {
                if *riichi {
                    f.write_str("riichi ")?;
                }
                write!(f, "{} {tile}", if *drawn { "tsumogiri" } else { "discard" })
            }
            Action::Chi(a, b) => write!(f, "chi {a} {b}"),
            Action::Pon(a, b) => write!(f, "pon {a} {b}"),
            Action::Minkan(t) => write!(f, "minkan {t}"),
            Action::Ankan(t) => write!(f, "ankan {t}"),
            Action::Kakan(t) => write!(f, "kakan {t}"),
            Action::Tsumo => f.write_str("tsumo"),
            Action::Ron => f.write_str("ron"),
            Action::Pass => f.write_str("pass"),
            Action::Kyuushu => f.write_str("kyuushu"),
            Action::Deal(tiles) => write!(f, "deal {}", tiles_text(tiles)),
            Action::Draw(t) => write!(f, "draw {t}"),
            Action::Dora(t) => write!(f, "dora {t}"),
            Action::Ura(t) => write!(f, "ura {t}"),
            Action::Incident(i) => write!(f, "{i}"),
        }
    }
}

impl FromStr for Action {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Action, NotationError> {
        match quick(s.as_bytes()) {
            Some(a) => Ok(a),
            None => read(s),
        }
    }
}

/// A tile written as its two characters (`5m`, `0p`, `7z`), as `Tile::from_str` reads it.
fn tile2(b: &[u8]) -> Option<Tile> {
    match *b {
        [d, suit] => Tile::from_chars(d, suit),
        _ => None,
    }
}

/// The action of a notation written as Paifu writes it (the words one space apart, nothing
/// before or after), read straight from its bytes: nine records in ten of every log are such a
/// discard, draw or pass. `None` for any other text, which [`read`] reads (and refuses with its
/// message); where `quick` answers, it answers what `read` would (test
/// `the_quick_reading_is_the_full_reading`).
fn quick(b: &[u8]) -> Option<Action> {
    let one = |verb: &[u8]| b.strip_prefix(verb).and_then(tile2);
    let two = |verb: &[u8]| {
        let rest = b.strip_prefix(verb)?;
        match rest {
            [a, b1, b' ', c, d] => Some((tile2(&[*a, *b1])?, tile2(&[*c, *d])?)),
            _ => None,
        }
    };
    Some(match b.first()? {
        b'd' => {
            if let Some(t) = one(b"discard ") {
                Action::Discard { tile: t, drawn: false, riichi: false }
            } else if let Some(t) = one(b"draw ") {
                Action::Draw(t)
            } else {
                Action::Dora(one(b"dora ")?)
            }
        }
        b't' => match b {
            b"tsumo" => Action::Tsumo,
            _ => Action::Discard { tile: one(b"tsumogiri ")?, drawn: true, riichi: false },
        },
        b'p' => match b {
            b"pass" => Action::Pass,
            _ => two(b"pon ").map(|(x, y)| Action::pon(x, y))?,
        },
        b'r' => match b {
            b"ron" => Action::Ron,
            _ => match one(b"riichi discard ") {
                Some(t) => Action::Discard { tile: t, drawn: false, riichi: true },
                None => Action::Discard { tile: one(b"riichi tsumogiri ")?, drawn: true, riichi: true },
            },
        },
        b'c' => two(b"chi ").map(|(x, y)| Action::chi(x, y))?,
        b'm' => Action::Minkan(one(b"minkan ")?.deaka()),
        b'a' => Action::Ankan(one(b"ankan ")?.deaka()),
        b'k' => match b {
            b"kyuushu" => Action::Kyuushu,
            _ => Action::Kakan(one(b"kakan ")?.deaka()),
        },
        b'u' => Action::Ura(one(b"ura ")?),
        _ => return None,
    })
}

/// Reads any notation (see [`Action`]), or says why it is none.
fn read(s: &str) -> Result<Action, NotationError> {
    if let Some(i) = crate::Incident::parse_notation(s)? {
        return Ok(Action::Incident(Box::new(i)));
    }
    let w = crate::log::words(s);
    let t = |x: &str| x.parse::<Tile>();
    Ok(match w.as_slice() {
        ["discard", x] => Action::Discard { tile: t(x)?, drawn: false, riichi: false },
        ["tsumogiri", x] => Action::Discard { tile: t(x)?, drawn: true, riichi: false },
        ["riichi", "discard", x] => Action::Discard { tile: t(x)?, drawn: false, riichi: true },
        ["riichi", "tsumogiri", x] => Action::Discard { tile: t(x)?, drawn: true, riichi: true },
        ["chi", a, b] => Action::chi(t(a)?, t(b)?),
        ["pon", a, b] => Action::pon(t(a)?, t(b)?),
        ["minkan", x] => Action::Minkan(t(x)?.deaka()),
        ["ankan", x] => Action::Ankan(t(x)?.deaka()),
        ["kakan", x] => Action::Kakan(t(x)?.deaka()),
        ["tsumo"] => Action::Tsumo,
        ["ron"] => Action::Ron,
        ["pass"] => Action::Pass,
        ["kyuushu"] => Action::Kyuushu,
        ["deal", hand] => match parse_tile_array::<13>(hand)? {
            Ok(tiles) => Action::deal(tiles),
            Err(n) => return Err(NotationError(format!("{s:?}: a deal is 13 tiles, not {n}"))),
        },
        ["draw", x] => Action::Draw(t(x)?),
        ["dora", x] => Action::Dora(t(x)?),
        ["ura", x] => Action::Ura(t(x)?),
        _ => {
            return Err(NotationError(format!(
                "{s:?} is not a riichi action: write discard T, tsumogiri T, riichi discard T, riichi tsumogiri T, \
                 chi T T, pon T T, minkan T, ankan T, kakan T, tsumo, ron, pass, kyuushu, \
                 or in imported games deal TILES, draw T, dora T, ura T"
            )))
        }
    })
}

/// One written example of every variant and flag of the notation (tests of this module and of the
/// log encoding use them).
#[cfg(test)]
pub(crate) const NOTATION_EXAMPLES: &[&str] = &[
    "discard 5m",
    "tsumogiri 0p",
    "riichi discard 1z",
    "riichi tsumogiri 9s",
    "chi 4m 6m",
    "chi 0m 6m",
    "pon 5p 0p",
    "minkan 5s",
    "ankan 1z",
    "kakan 7z",
    "tsumo",
    "ron",
    "pass",
    "kyuushu",
    "deal 123m550p789s1234z",
    "draw 0s",
    "dora 7z",
    "ura 1m",
    "incident timeout",
    "incident chombo: ron without a yaku",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for &s in NOTATION_EXAMPLES {
            let a: Action = s.parse().unwrap();
            assert_eq!(a.to_string(), s);
            let bytes = postcard::to_allocvec(&a).unwrap();
            assert_eq!(postcard::from_bytes::<Action>(&bytes).unwrap(), a);
        }
        assert_eq!("chi 6m 4m".parse::<Action>().unwrap().to_string(), "chi 4m 6m");
        assert_eq!("pon 0p 5p".parse::<Action>().unwrap().to_string(), "pon 5p 0p");
        assert_eq!("ankan 0m".parse::<Action>().unwrap().to_string(), "ankan 5m");
        // The variants of imported games come after the older ones: older logs keep their bytes.
        assert_eq!(postcard::to_allocvec(&Action::Kyuushu).unwrap(), vec![9]);
        assert_eq!(postcard::to_allocvec(&Action::Draw(Tile::kind_tile(0))).unwrap(), vec![11, 0]);
        assert_eq!("deal 5m0m1m2m3m4m6m7m8m9m1z2z3z".parse::<Action>().unwrap().to_string(), "deal 1234506789m123z");
        for bad in ["", "discard", "discard 5x", "riichi 5m", "chi 4m", "pon", "draw", "deal 123m", "ron now"] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
        // A tile id out of range in the binary form is refused.
        assert!(postcard::from_bytes::<Action>(&[3, 99]).is_err());
    }

    /// Where the quick reading answers, it answers what the full reading does; and it answers
    /// for every action Paifu writes but a deal and an incident (so the quick path is the one
    /// taken). Texts tried: every action of every tile as written, and each of them and of the
    /// notation examples cut, lengthened, spaced and with every byte changed.
    #[test]
    fn the_quick_reading_is_the_full_reading() {
        let tiles: Vec<Tile> = Tile::set().into_iter().collect();
        let mut written: Vec<Action> = vec![Action::Tsumo, Action::Ron, Action::Pass, Action::Kyuushu];
        for &t in &tiles {
            for drawn in [false, true] {
                for riichi in [false, true] {
                    written.push(Action::Discard { tile: t, drawn, riichi });
                }
            }
            written.extend([Action::Minkan(t.deaka()), Action::Ankan(t.deaka()), Action::Kakan(t.deaka())]);
            written.extend([Action::Draw(t), Action::Dora(t), Action::Ura(t)]);
            for &u in tiles.iter().step_by(7) {
                written.extend([Action::chi(t, u), Action::pon(t, u)]);
            }
        }
        let mut texts: Vec<String> = NOTATION_EXAMPLES.iter().map(|s| s.to_string()).collect();
        for a in &written {
            let s = a.to_string();
            assert_eq!(quick(s.as_bytes()).as_ref(), Some(a), "{s}: written by Paifu, read quickly");
            texts.push(s);
        }
        let bytes = b"0123456789mpszx dtrcpkauMZ\t\x00";
        let mut tried = 0;
        for s in texts.clone() {
            let b = s.as_bytes();
            let mut variants = vec![
                format!(" {s}"),
                format!("{s} "),
                format!("{s}\n"),
                s.replacen(' ', "  ", 1),
                s.replacen(' ', "\t", 1),
                s.to_uppercase(),
                format!("{s} 5m"),
                format!("{s}m"),
            ];
            for i in 0..b.len() {
                variants.push(format!("{}{}", &s[..i], &s[i + 1..]));
                variants.push(s[..i].to_string());
                for &c in bytes {
                    let mut v = b.to_vec();
                    v[i] = c;
                    variants.extend(String::from_utf8(v).ok());
                }
            }
            for v in variants {
                if let Some(a) = quick(v.as_bytes()) {
                    assert_eq!(read(&v).as_ref(), Ok(&a), "{v:?}");
                    tried += 1;
                }
                assert_eq!(v.parse::<Action>(), read(&v), "{v:?}");
            }
        }
        assert!(tried > written.len(), "changed texts read quickly: {tried}");
    }

    /// The notation written straight into a buffer is `Display`'s (issue 25): every variant with
    /// every tile, deals in and out of canonical order, the notation examples (incidents too).
    #[test]
    fn notation_written_straight_is_the_displayed_one_for_every_tile() {
        let tiles: Vec<Tile> = (0..37).filter_map(Tile::new).collect();
        let mut actions = vec![Action::Tsumo, Action::Ron, Action::Pass, Action::Kyuushu];
        for (i, &t) in tiles.iter().enumerate() {
            for (drawn, riichi) in [(false, false), (true, false), (false, true), (true, true)] {
                actions.push(Action::Discard { tile: t, drawn, riichi });
            }
            let u = tiles[(i * 7 + 3) % tiles.len()];
            actions.extend([Action::Chi(t, u), Action::Pon(u, t), Action::Minkan(t), Action::Ankan(t)]);
            actions.extend([Action::Kakan(t), Action::Draw(t), Action::Dora(t), Action::Ura(t)]);
            let deal: [Tile; 13] = std::array::from_fn(|k| tiles[(i + k * 5) % tiles.len()]);
            actions.extend([Action::Deal(deal), Action::deal(deal)]);
        }
        actions.extend(NOTATION_EXAMPLES.iter().map(|s| s.parse::<Action>().unwrap()));
        for a in &actions {
            let mut out = b"x".to_vec();
            crate::log::Action::write_notation(a, &mut out);
            assert_eq!(String::from_utf8(out).unwrap(), format!("x{a}"), "{a:?}");
        }
    }
}
