//! PMN (Portable Majiang Notation) hand records: the notation python-majiang specifies for the
//! hands of mahjongsoft.com's MCR replays (github.com/otobear/python-majiang, README "PMN";
//! docs/import.md cites it). A hand is a block of PBN-style tag pairs:
//!
//! ```text
//! [Site "https://mahjongsoft.com/mcrm_replay.php?session=74621&game=2&table=2"]
//! [PWind "E"]                                     the prevalent wind
//! [East "..."] [South "..."] [West "..."] [North "..."]
//! [Deal "c25566d579b2269wr2f c289d... ..."]       East's 13 tiles, South's, West's, North's
//! [Result "-8 -17 33 -8"]                         with [Starting "0 0 0 0"]
//! [Play "T0r3D0z1T1d3D1d6T2d1D2r1Z1r1..."]        four characters a step, then H<seat>
//! [Fan "None None 55/4/1.59/2/1.70/1/1 None"]     per seat: number/value/count of each fan
//! ```
//!
//! Tiles: `c` characters, `d` dots, `b` bamboo, `w1`-`w4` East South West North, `r1`-`r3` red,
//! green, white (the Chinese order 中发白), `f1`-`f8` flowers. Steps: `T` take (a draw), `D`
//! discard (`z1`: the tile just taken), `C` chow (named by its middle tile), `P` pung, `Z` kong on
//! a discard, `A` concealed kong, `B` added kong, `H` win (several for several winners, as
//! duplicate MCR allows), `N` no game (a drawn hand). Seat 0 is East and deals.

use super::{End, Scores, SourceHand, Step, What};
use crate::import::ImportError;
use paifu_core::log::{OptValue, Options};
use paifu_core::mahjong::{Piece, Tile};
use paifu_core::mcr::Fan;

/// The ruleset PMN hands are played under: the standard rules, one hand of 136 tiles (the
/// hands written so far have no flowers), and one concealed with one melded kong worth 5, as the
/// notation's fan table (number 82) has it.
fn options() -> Options {
    Options::from([
        ("flowers".to_owned(), OptValue::Bool(false)),
        ("hands".to_owned(), OptValue::Int(1)),
        ("concealed_and_melded_kong".to_owned(), OptValue::Int(5)),
    ])
}

const LETTERS: [char; 6] = ['c', 'd', 'b', 'w', 'r', 'f'];
const WHAT: &str = "PMN tile (c1-c9, d1-d9, b1-b9, w1-w4, r1-r3, f1-f8)";

/// A PMN tile, `<suit><number>`.
fn piece(s: &str, at: &str) -> Result<Piece, ImportError> {
    super::piece_of(s, LETTERS, WHAT, at)
}

fn tile(s: &str, at: &str) -> Result<Tile, ImportError> {
    super::tile_of(s, LETTERS, WHAT, at)
}

/// One seat's deal: `c<digits>d<digits>b<digits>w<digits>r<digits>f<digits>`.
fn deal(s: &str, at: &str) -> Result<Vec<Tile>, ImportError> {
    let mut tiles = Vec::new();
    let mut suit = None;
    let mut order = "cdbwrf".chars();
    for ch in s.chars() {
        if ch.is_ascii_digit() {
            let Some(su) = suit else {
                return Err(ImportError::new(at, format!("deal {s:?}: a digit before any suit letter")));
            };
            match piece(&format!("{su}{ch}"), at)? {
                Piece::Tile(t) => tiles.push(t),
                Piece::Flower(_) => {
                    return Err(ImportError::new(
                        at,
                        format!(
                        "deal {s:?} holds a flower: flowers in a deal are not imported yet (no record so far has one)"
                    ),
                    ))
                }
            }
        } else if order.any(|o| o == ch) {
            suit = Some(ch);
        } else {
            return Err(ImportError::new(at, format!("deal {s:?}: the suits are c, d, b, w, r, f, in that order")));
        }
    }
    Ok(tiles)
}

/// The tag pairs of a block, with their line numbers.
fn tags(block: &[(usize, &str)]) -> Result<Vec<(String, String, String)>, ImportError> {
    let mut out = Vec::new();
    for &(n, line) in block {
        let at = format!("line {n}");
        let l = line.trim();
        let inner = l.strip_prefix('[').and_then(|x| x.strip_suffix(']'));
        let pair = inner.and_then(|x| {
            let (k, v) = x.split_once(' ')?;
            Some((k.to_owned(), v.trim().strip_prefix('"')?.strip_suffix('"')?.to_owned()))
        });
        let (k, v) = pair.ok_or_else(|| ImportError::new(&at, "a PMN line is a tag pair: [Tag \"value\"]"))?;
        if out.iter().any(|(o, _, _): &(String, String, String)| *o == k) {
            return Err(ImportError::new(&at, format!("tag {k} twice in one hand")));
        }
        out.push((k, v, at));
    }
    Ok(out)
}

/// The play string: four characters a step (`T0r3`, `D1z1`, ...), then `H<seat>` for each
/// winner or `N`.
fn steps(play: &str, at: &str) -> Result<(Vec<Step>, bool), ImportError> {
    let chars: Vec<char> = play.chars().collect();
    let mut out: Vec<Step> = Vec::new();
    let mut i = 0;
    let mut won = false;
    let mut last_take: [Option<Piece>; 4] = [None; 4];
    while i < chars.len() {
        let here = format!("{at}, step {} (character {})", out.len() + 1, i + 1);
        let seat = chars.get(i + 1).and_then(|c| c.to_digit(10)).filter(|&d| d < 4).map(|d| d as u8);
        match chars[i] {
            'N' => {
                i = chars.len();
                continue;
            }
            'H' => {
                let seat = seat.ok_or_else(|| ImportError::new(&here, "H is followed by the winner's seat, 0 to 3"))?;
                // The tile is the one open to claim or the one just taken: the converter checks it.
                let t = out.iter().rev().find_map(|s| match s.what {
                    What::Discard(t) | What::AddedKong(t) => Some(t),
                    What::Draw(Piece::Tile(t)) if s.seat == seat => Some(t),
                    _ => None,
                });
                let t = t.ok_or_else(|| ImportError::new(&here, "a win before any tile was taken"))?;
                out.push(Step { seat, what: What::Win(t), ignored: Vec::new(), at: here });
                won = true;
                i += 2;
                continue;
            }
            _ => {}
        }
        if won {
            return Err(ImportError::new(&here, "after the wins (H), nothing but another win may follow"));
        }
        let code: String = chars.get(i..i + 4).map(|c| c.iter().collect()).unwrap_or_default();
        let seat =
            seat.ok_or_else(|| ImportError::new(&here, format!("{code:?}: a step is <action><seat 0-3><tile>")))?;
        let t = code.get(2..).unwrap_or("");
        let what = match chars[i] {
            'T' => {
                let p = piece(t, &here)?;
                last_take[usize::from(seat)] = Some(p);
                What::Draw(p)
            }
            'D' if t == "z1" => match last_take[usize::from(seat)].take() {
                Some(Piece::Tile(t)) => What::Discard(t),
                _ => return Err(ImportError::new(&here, "z1 discards the tile just taken, but the seat took none")),
            },
            'D' => What::Discard(tile(t, &here)?),
            'C' => What::Chow(tile(t, &here)?),
            'P' => What::Pung(tile(t, &here)?),
            'Z' => What::Kong(tile(t, &here)?),
            'A' => What::ConcealedKong(tile(t, &here)?),
            'B' => What::AddedKong(tile(t, &here)?),
            other => {
                return Err(ImportError::new(
                    &here,
                    format!("{other:?} is not a PMN action (T, D, C, P, Z, A, B, H, N; R, a flower's replacement, is not imported yet)"),
                ))
            }
        };
        if chars[i] != 'T' {
            last_take[usize::from(seat)] = None;
        }
        out.push(Step { seat, what, ignored: Vec::new(), at: here });
        i += 4;
    }
    Ok((out, won))
}

/// Four numbers, one a seat.
fn four(s: &str, at: &str, tag: &str) -> Result<[i64; 4], ImportError> {
    let v: Vec<i64> = s.split_whitespace().filter_map(|x| x.parse().ok()).collect();
    v.try_into().map_err(|_| ImportError::new(at, format!("[{tag}] holds four numbers, East's to North's")))
}

/// A winner's fan: `number/value/count` items separated by `.`, as (Chinese name, count) and
/// the total.
fn fans(s: &str, at: &str) -> Result<(u32, Vec<(String, u32)>), ImportError> {
    let mut total = 0;
    let mut out = Vec::new();
    for item in s.split('.') {
        let n: Vec<u32> = item.split('/').filter_map(|x| x.parse().ok()).collect();
        let [number, value, count] = n[..] else {
            return Err(ImportError::new(at, format!("{item:?}: a fan is number/value/count")));
        };
        let name =
            match number {
                82 => "明暗杠".to_owned(),
                n => u8::try_from(n).ok().and_then(Fan::from_number).map(|f| f.info().chinese.to_owned()).ok_or_else(
                    || ImportError::new(at, format!("fan number {number}: the table has 1 to 81 and 82")),
                )?,
            };
        total += value * count;
        out.push((name, count));
    }
    Ok((total, out))
}

/// Reads every hand of a PMN file (hands separated by blank lines).
pub fn read(text: &str) -> Result<Vec<SourceHand>, ImportError> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
    let mut hands = Vec::new();
    let mut start = 0;
    while start < lines.len() {
        if lines[start].1.trim().is_empty() {
            start += 1;
            continue;
        }
        let end = (start..lines.len()).find(|&i| lines[i].1.trim().is_empty()).unwrap_or(lines.len());
        let block = &lines[start..end];
        let text_of = block.iter().map(|(_, l)| *l).collect::<Vec<_>>().join("\n");
        hands.push(read_hand(block, text_of)?);
        start = end;
    }
    if hands.is_empty() {
        return Err(ImportError::new("line 1", "no hand: a PMN hand is a block of [Tag \"value\"] lines"));
    }
    Ok(hands)
}

fn read_hand(block: &[(usize, &str)], text: String) -> Result<SourceHand, ImportError> {
    let tags = tags(block)?;
    let first = format!("line {}", block[0].0);
    let get = |k: &str| tags.iter().find(|(t, _, _)| t == k).map(|(_, v, at)| (v.as_str(), at.as_str()));
    let need = |k: &str| get(k).ok_or_else(|| ImportError::new(&first, format!("the hand has no [{k}] tag")));
    let id = get("Site")
        .map(|(v, _)| v.to_owned())
        .or_else(|| get("Board").map(|(v, _)| format!("board {v}")))
        .unwrap_or_default();
    let in_hand = |e: ImportError| if id.is_empty() { e } else { e.in_round(&id) };
    let (w, at) = need("PWind").map_err(in_hand)?;
    let prevalent_wind = ["E", "S", "W", "N"]
        .iter()
        .position(|x| *x == w)
        .ok_or_else(|| in_hand(ImportError::new(at, format!("[PWind {w:?}]: E, S, W or N"))))?
        as u8;
    let names = ["East", "South", "West", "North"].map(|k| get(k).map_or_else(|| k.to_owned(), |(v, _)| v.to_owned()));
    let (d, at) = need("Deal").map_err(in_hand)?;
    let parts: Vec<&str> = d.split_whitespace().collect();
    let [a, b, c, e] = parts[..] else {
        return Err(in_hand(ImportError::new(at, "[Deal] holds four hands, East's to North's")));
    };
    let mut deals: [(Vec<Tile>, String); 4] = Default::default();
    for (s, part) in [a, b, c, e].into_iter().enumerate() {
        deals[s] = (deal(part, at).map_err(in_hand)?, at.to_owned());
    }
    let (play, play_at) = need("Play").map_err(in_hand)?;
    let (steps, won) = steps(play, play_at).map_err(in_hand)?;
    let scores = match (get("Result"), get("Starting")) {
        (Some((r, at)), start) => {
            let r = four(r, at, "Result").map_err(in_hand)?;
            let s = match start {
                Some((s, sat)) => four(s, sat, "Starting").map_err(in_hand)?,
                None => [0; 4],
            };
            Some(Scores { deltas: [0, 1, 2, 3].map(|i| r[i] - s[i]), at: at.to_owned() })
        }
        (None, _) => None,
    };
    let end = if won {
        let winner = steps.iter().rev().take_while(|s| matches!(s.what, What::Win(_))).last().map_or(0, |s| s.seat);
        let (f, fat) = need("Fan").map_err(in_hand)?;
        let per_seat: Vec<&str> = f.split_whitespace().collect();
        let mine = per_seat.get(usize::from(winner)).copied().filter(|x| *x != "None").ok_or_else(|| {
            in_hand(ImportError::new(fat, format!("[Fan] gives no fan for seat {winner}, the winner")))
        })?;
        let (fan, fans) = fans(mine, fat).map_err(in_hand)?;
        End::Won { fan, fans, at: play_at.to_owned() }
    } else {
        End::Drawn { at: play_at.to_owned() }
    };
    Ok(SourceHand {
        format: "pmn",
        ruleset: "standard",
        options: options(),
        id,
        names,
        prevalent_wind,
        deals,
        steps,
        end,
        scores,
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deals_steps_and_fan_read_as_pmn_writes_them() {
        let d = deal("c25566d579b2269wr2f", "x").unwrap();
        assert_eq!(paifu_core::mahjong::tiles_text(&d), "25566m579p2269s6z");
        assert!(deal("d5c1", "x").unwrap_err().message.contains("in that order"));
        assert!(deal("cf1", "x").unwrap_err().message.contains("not imported yet"));
        let (s, won) = steps("T0r3D0z1T1d3D1z1C2d4D2c1H3", "line 9").unwrap();
        assert!(won);
        let t = |x: &str| x.parse::<Tile>().unwrap();
        assert_eq!(s[1].what, What::Discard(t("5z")), "z1 is the tile just taken");
        assert_eq!(s[3].what, What::Discard(t("3p")));
        assert_eq!(s[4].what, What::Chow(t("4p")));
        assert_eq!((s[6].seat, s[6].what), (3, What::Win(t("1m"))), "a win on the last discard");
        assert!(steps("D0z1", "line 9").unwrap_err().message.contains("took none"));
        assert!(steps("X0c1", "line 9").unwrap_err().message.contains("not a PMN action"));
        assert!(steps("T0c1D0z1H1T2c2", "line 9").unwrap_err().message.contains("nothing but another win"));
        let (total, f) = fans("55/4/1.59/2/1.82/5/1", "x").unwrap();
        assert_eq!(total, 11);
        assert_eq!(f, [("全带幺".to_owned(), 1), ("箭刻".to_owned(), 1), ("明暗杠".to_owned(), 1)]);
        assert!(fans("90/1/1", "x").unwrap_err().message.contains("1 to 81"));
    }
}
