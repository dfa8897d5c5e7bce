//! The fan calculator's line protocol (`paifu score mcr`): one JSON object in, one out.
//!
//! Input: `{"id", "hand", "melds", "win", "tsumo", "flowers", "last_tile", "kong_related",
//! "wall_last", "seat_wind", "round_wind"}` (see docs/rules/mcr.md, "The calculator").
//! Output: `{"id", "ok": true, "fan", "fans": [{"name", "fan", "count"}], "meets_minimum"}` or
//! `{"id", "ok": false, "error", "message"}`.

use super::fans::Fan;
use super::score::{score, Score, ScoreError, ScoreRules, Situation, WinHand};
use crate::mahjong::score_line::{
    answer_scanned, answer_string, err, get_bool, get_wind, keep, write_int, write_key, write_str, Fields, Given, Id,
    Identified, LineError, Plain, Scanned, Texts, TileBuf,
};
use crate::mahjong::{Meld, MeldKind, Tile};
use serde::Deserialize;
use serde_json::{Map, Value};

const FIELDS: &[&str] = &[
    "id",
    "hand",
    "melds",
    "win",
    "tsumo",
    "flowers",
    "last_tile",
    "kong_related",
    "wall_last",
    "seat_wind",
    "round_wind",
];

/// Scores one JSON input line and answers one JSON output line (no newline). Never panics.
pub fn score_line(line: &str) -> String {
    answer_string(|out| score_line_into(line, out))
}

/// [`score_line`], the answer appended to `out`; whether the hand was scored (`"ok": true`).
/// The usual line is read straight into borrowed fields, nothing allocated for it; any other
/// the reference way (`mahjong::score_line`), with the same answer.
pub fn score_line_into(line: &str, out: &mut Vec<u8>) -> bool {
    answer_scanned(line, out, score_quick, score_object)
}

/// A line read the quick way: every field of the contract, each of the type the reference
/// reading takes (strings without escapes).
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Quick<'a> {
    #[serde(default, borrow)]
    id: Id<'a>,
    #[serde(default, borrow)]
    hand: Given<'a>,
    #[serde(default, borrow)]
    melds: Option<Texts<'a, 4>>,
    #[serde(default, borrow)]
    win: Given<'a>,
    #[serde(default)]
    tsumo: Option<bool>,
    #[serde(default)]
    flowers: Option<u64>,
    #[serde(default)]
    last_tile: Option<bool>,
    #[serde(default)]
    kong_related: Option<bool>,
    #[serde(default)]
    wall_last: Option<bool>,
    #[serde(default, borrow)]
    seat_wind: Option<&'a str>,
    #[serde(default, borrow)]
    round_wind: Option<&'a str>,
}

impl<'a> Identified<'a> for Quick<'a> {
    fn id(&self) -> Id<'a> {
        self.id
    }
}

impl<'a> Scanned<'a> for Quick<'a> {
    fn member(&mut self, key: &'a str, v: Plain<'a>) -> Option<u32> {
        match key {
            "id" => keep(&mut self.id, v.id(), 0),
            "hand" => keep(&mut self.hand, v.given(), 1),
            "melds" => keep(&mut self.melds, v.texts(), 2),
            "win" => keep(&mut self.win, v.given(), 3),
            "tsumo" => keep(&mut self.tsumo, v.flag(), 4),
            "flowers" => keep(&mut self.flowers, v.count(), 5),
            "last_tile" => keep(&mut self.last_tile, v.flag(), 6),
            "kong_related" => keep(&mut self.kong_related, v.flag(), 7),
            "wall_last" => keep(&mut self.wall_last, v.flag(), 8),
            "seat_wind" => keep(&mut self.seat_wind, v.text(), 9),
            "round_wind" => keep(&mut self.round_wind, v.text(), 10),
            _ => None,
        }
    }
}

/// A wind letter as `get_wind` reads it.
fn wind(s: Option<&str>, key: &str) -> Result<u8, LineError> {
    match s {
        None | Some("E") => Ok(0),
        Some("S") => Ok(1),
        Some("W") => Ok(2),
        Some("N") => Ok(3),
        Some(s) => Err(err("bad_input", format!("{key} must be \"E\", \"S\", \"W\" or \"N\", not {s:?}"))),
    }
}

/// The quick reading's checks, in the reference reading's order (`score_object`).
fn score_quick(q: &Quick<'_>) -> Option<Result<Scored, LineError>> {
    Some((|| {
        let hand = match q.hand.0 {
            Some(s) => tiles(s, || "hand")?,
            None => return Err(err("bad_input", "the field hand is missing")),
        };
        let hand = hand.as_slice();
        if hand.len() > 14 {
            return Err(err("invalid_tiles", format!("hand: {} tiles; a hand has at most 14", hand.len())));
        }
        let filler = Meld { kind: MeldKind::Chow, tiles: [Tile::kind_tile(0); 4], called: None, from: None };
        let mut melds = [filler; 4];
        let given = q.melds.as_ref().map_or(&[][..], |m| m.as_slice());
        for (slot, s) in melds.iter_mut().zip(given) {
            *slot = parse_meld(s)?;
        }
        let win = match q.win.0 {
            Some(s) => one_tile(s)?,
            None => return Err(err("bad_input", "the field win is missing")),
        };
        let flowers = match q.flowers {
            None => 0,
            Some(n) => u8::try_from(n)
                .ok()
                .filter(|&v| v <= 8)
                .ok_or_else(|| err("bad_input", format!("flowers must be an integer from 0 to 8, not {n}")))?,
        };
        let flag = |f: Option<bool>| f.unwrap_or(false);
        let sit = Situation {
            self_drawn: flag(q.tsumo),
            last_tile: flag(q.last_tile),
            kong_related: flag(q.kong_related),
            wall_last: flag(q.wall_last),
            seat_wind: wind(q.seat_wind, "seat_wind")?,
            round_wind: wind(q.round_wind, "round_wind")?,
            flowers,
        };
        scored(hand, &melds[..given.len()], win, &sit)
    })())
}

/// The winning tile: exactly one.
fn one_tile(s: &str) -> Result<Tile, LineError> {
    match tiles(s, || "win")?.as_slice() {
        [one] => Ok(*one),
        _ => Err(err("invalid_tiles", format!("win must be one tile, not {s:?}"))),
    }
}

/// A scored hand, as the answer writes it: `fan`, `fans` (`name`, `fan`, `count`),
/// `meets_minimum`.
struct Scored(Score);

impl Fields for Scored {
    fn write_fields(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b",\"fan\":");
        write_int(out, self.0.total());
        out.extend_from_slice(b",\"fans\":[");
        let heads = fan_heads();
        for (i, (f, n)) in self.0.fans().enumerate() {
            // The comma that starts each head is left out before the first.
            let from = usize::from(i == 0);
            let Some(head) = heads.get(f as usize) else { continue };
            if n == 1 {
                out.extend_from_slice(head.once.get(from..).unwrap_or_default());
            } else {
                out.extend_from_slice(head.head.get(from..).unwrap_or_default());
                write_int(out, n);
                out.push(b'}');
            }
        }
        out.extend_from_slice(if self.0.meets_minimum() {
            b"],\"meets_minimum\":true"
        } else {
            b"],\"meets_minimum\":false"
        });
    }
}

/// A fan's answer, written once: `,{"name":"pure_double_chow","fan":1,"count":` up to its count,
/// and the whole of it for a count of one (the usual count).
struct FanHead {
    head: Vec<u8>,
    once: Vec<u8>,
}

/// Each fan's [`FanHead`], by the fan's number (an answer lists a handful of fan: writing each
/// name and value anew was a sixth of the time `paifu score mcr` took).
fn fan_heads() -> &'static [FanHead] {
    static HEADS: std::sync::OnceLock<Vec<FanHead>> = std::sync::OnceLock::new();
    HEADS.get_or_init(|| {
        Fan::ALL
            .iter()
            .map(|f| {
                let mut head = b",{\"name\":".to_vec();
                write_str(&mut head, f.name());
                write_key(&mut head, "fan");
                write_int(&mut head, f.value());
                write_key(&mut head, "count");
                let mut once = head.clone();
                once.extend_from_slice(b"1}");
                FanHead { head, once }
            })
            .collect()
    })
}

/// The score, once the fields are read.
fn scored(hand: &[Tile], melds: &[Meld], win: Tile, sit: &Situation) -> Result<Scored, LineError> {
    let wh = WinHand { concealed: hand, melds, win };
    let sc = score(&wh, sit, &ScoreRules::default()).map_err(|e: ScoreError| err(e.code(), e.to_string()))?;
    Ok(Scored(sc))
}

/// Tiles of compact notation without red fives; `what` names them in errors.
fn tiles(s: &str, what: impl Fn() -> &'static str) -> Result<TileBuf, LineError> {
    let t = TileBuf::parse(s).map_err(|e| err("invalid_tiles", format!("{}: {}", what(), e.0)))?;
    if let Some(red) = t.as_slice().iter().find(|t| t.is_aka()) {
        return Err(err(
            "invalid_tiles",
            format!("{}: {red} is a red five; the Chinese Official rules have none", what()),
        ));
    }
    Ok(t)
}

fn parse_meld(s: &str) -> Result<Meld, LineError> {
    let Some((kind, text)) = s.split_once(':') else {
        return Err(err("bad_input", format!("meld {s:?} must look like \"pon:777z\"")));
    };
    let kind = MeldKind::from_name(kind)
        .ok_or_else(|| err("bad_input", format!("unknown meld kind {kind:?}: chi, pon, minkan, ankan or kakan")))?;
    let what = || format!("meld {s:?}");
    let t = TileBuf::parse(text).map_err(|e| err("invalid_tiles", format!("{}: {}", what(), e.0)))?;
    if let Some(red) = t.as_slice().iter().find(|t| t.is_aka()) {
        return Err(err(
            "invalid_tiles",
            format!("{}: {red} is a red five; the Chinese Official rules have none", what()),
        ));
    }
    Meld::new(kind, t.as_slice(), None, None)
        .ok_or_else(|| err("invalid_tiles", format!("meld {s:?}: the tiles are not a {}", kind.name())))
}

fn score_object(obj: &Map<String, Value>) -> Result<Scored, LineError> {
    if let Some(k) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(err("bad_input", format!("unknown field {k:?}; known: {}", FIELDS.join(", "))));
    }
    let hand = match obj.get("hand") {
        Some(Value::String(s)) => tiles(s, || "hand")?,
        None => return Err(err("bad_input", "the field hand is missing")),
        Some(other) => return Err(err("bad_input", format!("hand must be a string, not {other}"))),
    };
    let hand = hand.as_slice();
    if hand.len() > 14 {
        return Err(err("invalid_tiles", format!("hand: {} tiles; a hand has at most 14", hand.len())));
    }
    let mut melds = Vec::new();
    match obj.get("melds") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            if items.len() > 4 {
                return Err(err("invalid_tiles", "a hand has at most four melds"));
            }
            for it in items {
                let Value::String(s) = it else {
                    return Err(err("bad_input", "melds must be strings like \"pon:777z\""));
                };
                melds.push(parse_meld(s)?);
            }
        }
        Some(other) => return Err(err("bad_input", format!("melds must be a list, not {other}"))),
    }
    let win = match obj.get("win") {
        Some(Value::String(s)) => one_tile(s)?,
        None => return Err(err("bad_input", "the field win is missing")),
        Some(other) => return Err(err("bad_input", format!("win must be a tile, not {other}"))),
    };
    let flowers = match obj.get("flowers") {
        None | Some(Value::Null) => 0,
        Some(Value::Number(n)) => n
            .as_u64()
            .filter(|&v| v <= 8)
            .ok_or_else(|| err("bad_input", format!("flowers must be an integer from 0 to 8, not {n}")))?
            as u8,
        Some(other) => return Err(err("bad_input", format!("flowers must be a count, not {other}"))),
    };
    let sit = Situation {
        self_drawn: get_bool(obj, "tsumo")?,
        last_tile: get_bool(obj, "last_tile")?,
        kong_related: get_bool(obj, "kong_related")?,
        wall_last: get_bool(obj, "wall_last")?,
        seat_wind: get_wind(obj, "seat_wind", 0)?,
        round_wind: get_wind(obj, "round_wind", 0)?,
        flowers,
    };
    scored(hand, &melds, win, &sit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::score_line::{lines_to_agree_on, random_shapes, readings_agree};
    use serde_json::json;

    /// The quick reading answers the lines a calculator mostly gets, and every line it answers
    /// it answers as the reference reading does (hands, wrong values, mutated bytes).
    #[test]
    fn both_readings_answer_alike() {
        let base: Vec<String> = random_shapes("mcr lines", 300)
            .into_iter()
            .enumerate()
            .map(|(i, (hand, melds, win))| {
                json!({"id": i, "hand": hand.replace('0', "5"), "melds": melds, "win": win.replace('0', "5"),
                       "tsumo": i % 2 == 0, "flowers": i % 3, "wall_last": i % 7 == 0,
                       "seat_wind": (["E", "S", "W", "N"][i % 4]), "round_wind": (["E", "S", "W", "N"][i / 4 % 4])})
                .to_string()
            })
            .collect();
        let variants: &[(&str, &[&str])] = &[
            ("id", &["null", "-3", "1.5", "\"x\"", "[1]", "true"]),
            (
                "hand",
                &["null", "1", "\"123m\"", "\"0m\"", "\"123x\"", "\"11112222333344m\"", "\"111122223333444m\"", "-"],
            ),
            (
                "melds",
                &[
                    "null",
                    "[]",
                    "[1]",
                    "[\"chi:124m\"]",
                    "[\"pon:0m0m0m\"]",
                    "[\"x\"]",
                    "[\"a\",\"b\",\"c\",\"d\",\"e\"]",
                ],
            ),
            ("win", &["null", "\"9x\"", "\"1m2m\"", "\"0p\"", "-", "5"]),
            ("flowers", &["null", "9", "-1", "8", "2.0"]),
            ("last_tile", &["true", "1"]),
            ("kong_related", &["true"]),
            ("round_wind", &["null", "\"Q\""]),
        ];
        let lines = lines_to_agree_on(&base, variants);
        let quick = |l: &str, out: &mut Vec<u8>| crate::mahjong::score_line::answer_typed(l, out, score_quick);
        let reference = |l: &str| crate::mahjong::score_line::answer(l, score_object);
        let answered = readings_agree(&lines, quick, reference);
        // The scanner reads every usual line, and answers what it reads as the reference does.
        let scanned = |l: &str, out: &mut Vec<u8>| crate::mahjong::score_line::answer_scan(l, out, score_quick);
        let scanned_count = readings_agree(&lines, scanned, reference);
        assert!(scanned_count * 3 > lines.len(), "{scanned_count} of {}", lines.len());
        assert!(answered * 3 > lines.len(), "{answered} of {}", lines.len());
        for l in &base {
            assert!(quick(l, &mut Vec::new()).is_some(), "{l}");
            assert!(scanned(l, &mut Vec::new()).is_some(), "{l}");
            assert_eq!(score_line(l), reference(l));
        }
    }
}
