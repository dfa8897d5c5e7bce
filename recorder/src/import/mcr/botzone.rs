//! Botzone's Chinese Standard Mahjong match records: the text form of the public dataset of
//! about 98,000 hands played on botzone.org.cn (its `data/README` documents it; docs/import.md
//! cites it). A file holds hands one after another, each a block of lines:
//!
//! ```text
//! Match 61602cb45ddc087351c04358          the match id (botzone.org.cn/match/<id>)
//! Wind 1                                  the prevalent wind, 0 East .. 3 North
//! Player 0 Deal T8 B7 T1 W6 ...           four lines: each seat's 13 tiles (seat 0 deals)
//! Player 0 Draw J3                        Draw, Play, Chi (the chow's middle tile), Peng,
//! Player 2 Peng T3 Ignore Player 0 Chi T2   Gang (on a discard), AnGang, BuGang, Hu; claims
//! ...                                       set aside follow as `Ignore Player N Verb Tile`
//! Fan 9 五门齐*1+箭刻*1+幺九刻*1            or `Huang` (a drawn hand)
//! Score -8 33 -17 -8
//! ```
//!
//! Tiles: `W1`-`W9` characters, `B1`-`B9` dots, `T1`-`T9` bamboo, `F1`-`F4` East South West
//! North, `J1`-`J3` red, green, white; `H1`-`H8` the flowers (Botzone's judge has them, the
//! dataset's hands none). The records are played on walls of 34 tiles per seat, a kong's
//! replacement included (Paifu's `botzone` ruleset).

use super::{End, Scores, SourceHand, Step, What};
use crate::import::ImportError;
use paifu_core::log::Options;
use paifu_core::mahjong::{Piece, Tile};

/// The ruleset Botzone's records are played under.
pub const RULESET: &str = "botzone";

const LETTERS: [char; 6] = ['W', 'B', 'T', 'F', 'J', 'H'];
const WHAT: &str = "Botzone tile (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3, H1-H8)";

/// A Botzone tile or flower in Paifu's notation.
fn piece(s: &str, at: &str) -> Result<Piece, ImportError> {
    super::piece_of(s, LETTERS, WHAT, at)
}

fn tile(s: &str, at: &str) -> Result<Tile, ImportError> {
    super::tile_of(s, LETTERS, WHAT, at)
}

fn seat(s: &str, at: &str) -> Result<u8, ImportError> {
    match s {
        "0" => Ok(0),
        "1" => Ok(1),
        "2" => Ok(2),
        "3" => Ok(3),
        _ => Err(ImportError::new(at, format!("player {s:?}: players are 0 to 3"))),
    }
}

/// A verb and its tile.
fn what(verb: &str, t: &str, at: &str) -> Result<What, ImportError> {
    Ok(match verb.to_ascii_lowercase().as_str() {
        "draw" => What::Draw(piece(t, at)?),
        "play" => What::Discard(tile(t, at)?),
        "chi" => What::Chow(tile(t, at)?),
        "peng" => What::Pung(tile(t, at)?),
        "gang" => What::Kong(tile(t, at)?),
        "angang" => What::ConcealedKong(tile(t, at)?),
        "bugang" => What::AddedKong(tile(t, at)?),
        "hu" => What::Win(tile(t, at)?),
        other => {
            return Err(ImportError::new(
                at,
                format!("{other:?} is not a Botzone action (Draw, Play, Chi, Peng, Gang, AnGang, BuGang, Hu)"),
            ))
        }
    })
}

/// A step line: `Player N Verb Tile`, then any `Ignore Player M Verb Tile`.
fn step(words: &[&str], at: &str) -> Result<Step, ImportError> {
    let [_, n, verb, t, rest @ ..] = words else {
        return Err(ImportError::new(at, "a step is `Player N Verb Tile`"));
    };
    let mut ignored = Vec::new();
    let mut rest = rest;
    while !rest.is_empty() {
        let [ign, p, m, v, t, more @ ..] = rest else {
            return Err(ImportError::new(at, "after a step, only `Ignore Player N Verb Tile` may follow"));
        };
        if *ign != "Ignore" || *p != "Player" {
            return Err(ImportError::new(
                at,
                format!("{ign:?}: after a step, only `Ignore Player N Verb Tile` may follow"),
            ));
        }
        ignored.push((seat(m, at)?, what(v, t, at)?));
        rest = more;
    }
    Ok(Step { seat: seat(n, at)?, what: what(verb, t, at)?, ignored, at: at.to_owned() })
}

/// The lines of a file with their 1-based numbers and byte offsets, `\r` removed.
struct Lines<'a> {
    text: &'a str,
    items: Vec<(usize, usize, &'a str)>,
    next: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let mut items = Vec::new();
        let mut offset = 0;
        for (i, raw) in text.split_inclusive('\n').enumerate() {
            let line = raw.trim_end_matches(['\n', '\r']);
            items.push((i + 1, offset, line));
            offset += raw.len();
        }
        Lines { text, items, next: 0 }
    }

    fn peek(&self) -> Option<(usize, &'a str)> {
        self.items.get(self.next).map(|&(n, _, l)| (n, l))
    }

    fn take(&mut self, what: &str) -> Result<(String, Vec<&'a str>), ImportError> {
        let (n, line) = self.peek().ok_or_else(|| {
            ImportError::new(format!("line {}", self.items.len() + 1), format!("the file ends where {what} should be"))
        })?;
        self.next += 1;
        Ok((format!("line {n}"), line.split_whitespace().collect()))
    }

    /// The text from line index `from` to the last line taken.
    fn block(&self, from: usize) -> &'a str {
        let start = self.items.get(from).map_or(self.text.len(), |&(_, o, _)| o);
        let end = self.items.get(self.next).map_or(self.text.len(), |&(_, o, _)| o);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// Reads every hand of a Botzone records file.
pub fn read(text: &str) -> Result<Vec<SourceHand>, ImportError> {
    let mut lines = Lines::new(text);
    let mut hands = Vec::new();
    loop {
        while lines.peek().is_some_and(|(_, l)| l.trim().is_empty()) {
            lines.next += 1;
        }
        if lines.peek().is_none() {
            break;
        }
        hands.push(read_hand(&mut lines)?);
    }
    if hands.is_empty() {
        return Err(ImportError::new("line 1", "no hand: a Botzone record starts with `Match <id>`"));
    }
    Ok(hands)
}

fn read_hand(lines: &mut Lines) -> Result<SourceHand, ImportError> {
    let first = lines.next;
    let (at, w) = lines.take("a `Match <id>` line")?;
    let ["Match", id] = w[..] else {
        return Err(ImportError::new(at, "a hand starts with `Match <id>`"));
    };
    let id = id.to_owned();
    let in_hand = |e: ImportError| e.in_round(&format!("match {id}"));
    let (at, w) = lines.take("`Wind <0-3>`").map_err(in_hand)?;
    let prevalent_wind = match w[..] {
        ["Wind", n] => n.parse::<u8>().ok().filter(|&n| n < 4),
        _ => None,
    }
    .ok_or_else(|| in_hand(ImportError::new(&at, "the second line of a hand is `Wind <0-3>`")))?;
    let mut deals: [(Vec<Tile>, String); 4] = Default::default();
    for (s, deal) in deals.iter_mut().enumerate() {
        let (at, w) = lines.take("a deal").map_err(in_hand)?;
        let ok = matches!(w[..], ["Player", n, "Deal", ..] if n == s.to_string());
        if !ok {
            return Err(in_hand(ImportError::new(
                &at,
                format!("the deals follow the wind: `Player {s} Deal` and 13 tiles"),
            )));
        }
        let tiles = w[3..].iter().map(|t| tile(t, &at)).collect::<Result<Vec<_>, _>>().map_err(in_hand)?;
        *deal = (tiles, at);
    }
    let mut steps = Vec::new();
    let end = loop {
        let (at, w) = lines.take("the hand's end (`Fan ...` or `Huang`)").map_err(in_hand)?;
        match w.first().copied() {
            Some("Player") => steps.push(step(&w, &at).map_err(in_hand)?),
            Some("Huang") if w.len() == 1 => break End::Drawn { at },
            Some("Fan") => {
                let fan = w.get(1).and_then(|f| f.parse::<u32>().ok()).ok_or_else(|| {
                    in_hand(ImportError::new(&at, "`Fan <total> <name>*<count>+...`: the total is missing"))
                })?;
                let mut fans = Vec::new();
                for item in w.get(2..).unwrap_or_default().iter().flat_map(|d| d.split('+')).filter(|i| !i.is_empty()) {
                    let parsed = item.rsplit_once('*').and_then(|(n, c)| Some((n.to_owned(), c.parse::<u32>().ok()?)));
                    fans.push(parsed.ok_or_else(|| {
                        in_hand(ImportError::new(&at, format!("{item:?}: a fan is written <name>*<count>")))
                    })?);
                }
                break End::Won { fan, fans, at };
            }
            _ => {
                return Err(in_hand(ImportError::new(
                    &at,
                    "a step (`Player N ...`), `Fan ...` or `Huang` was expected",
                )))
            }
        }
    };
    let (at, w) = lines.take("`Score` and four numbers").map_err(in_hand)?;
    let scores = match w[..] {
        ["Score", a, b, c, d] => {
            let n = [a, b, c, d].map(|x| x.parse::<i64>().ok());
            match n {
                [Some(a), Some(b), Some(c), Some(d)] => Some(Scores { deltas: [a, b, c, d], at: at.clone() }),
                _ => None,
            }
        }
        _ => None,
    }
    .ok_or_else(|| in_hand(ImportError::new(&at, "a hand ends with `Score` and each player's four score changes")))?;
    if let End::Won { at: won_at, .. } = &end {
        if !matches!(steps.last(), Some(Step { what: What::Win(_), .. })) {
            return Err(in_hand(ImportError::new(won_at, "`Fan` follows a `Hu`")));
        }
    }
    Ok(SourceHand {
        format: "botzone",
        ruleset: RULESET,
        options: Options::new(),
        id,
        names: ["botzone 0", "botzone 1", "botzone 2", "botzone 3"].map(String::from),
        prevalent_wind,
        deals,
        steps,
        end,
        scores: Some(scores),
        text: lines.block(first).to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_read_as_botzone_writes_them() {
        let p = |s: &str| piece(s, "x").map(|p| p.to_string());
        assert_eq!(p("W1").unwrap(), "1m");
        assert_eq!(p("B9").unwrap(), "9p");
        assert_eq!(p("T5").unwrap(), "5s");
        assert_eq!(p("F4").unwrap(), "4z");
        assert_eq!([p("J1").unwrap(), p("J2").unwrap(), p("J3").unwrap()], ["7z", "6z", "5z"]);
        assert_eq!(p("H8").unwrap(), "8f");
        for bad in ["W0", "F5", "J4", "X1", "W", "W10", "H9", ""] {
            assert!(p(bad).unwrap_err().message.contains("not a Botzone tile"), "{bad}");
        }
    }

    #[test]
    fn steps_read_with_the_claims_set_aside() {
        let s = step(
            &"Player 1 Hu B3 Ignore Player 0 PENG B3 Ignore Player 3 CHI B4".split(' ').collect::<Vec<_>>(),
            "line 9",
        )
        .unwrap();
        let t = |x: &str| x.parse::<Tile>().unwrap();
        assert_eq!(s.seat, 1);
        assert_eq!(s.what, What::Win(t("3p")));
        assert_eq!(s.ignored, [(0, What::Pung(t("3p"))), (3, What::Chow(t("4p")))]);
        let e = step(&["Player", "1", "Hu", "B3", "Ignore", "Player"], "line 9").unwrap_err();
        assert!(e.message.contains("Ignore Player N Verb Tile"), "{e}");
        let e = step(&["Player", "4", "Play", "B3"], "line 9").unwrap_err();
        assert!(e.message.contains("players are 0 to 3"), "{e}");
        let e = step(&["Player", "1", "Riichi", "B3"], "line 9").unwrap_err();
        assert!(e.message.contains("not a Botzone action"), "{e}");
    }
}
