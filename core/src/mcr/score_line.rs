//! The fan calculator's line protocol (`paifu score mcr`): one JSON object in, one out.
//!
//! Input: `{"id", "hand", "melds", "win", "tsumo", "flowers", "last_tile", "kong_related",
//! "wall_last", "seat_wind", "round_wind"}` (see docs/rules/mcr.md, "The calculator").
//! Output: `{"id", "ok": true, "fan", "fans": [{"name", "fan", "count"}], "meets_minimum"}` or
//! `{"id", "ok": false, "error", "message"}`.

use super::score::{score, ScoreError, ScoreRules, Situation, WinHand};
use crate::mahjong::score_line::{answer, err, get_bool, get_wind, LineError};
use crate::mahjong::{parse_tiles, Meld, MeldKind, Tile};
use serde_json::{json, Map, Value};

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
    answer(line, score_object)
}

fn tiles(s: &str, what: &str) -> Result<Vec<Tile>, LineError> {
    let t = parse_tiles(s).map_err(|e| err("invalid_tiles", format!("{what}: {}", e.0)))?;
    if let Some(red) = t.iter().find(|t| t.is_aka()) {
        return Err(err("invalid_tiles", format!("{what}: {red} is a red five; the Chinese Official rules have none")));
    }
    Ok(t)
}

fn parse_meld(s: &str) -> Result<Meld, LineError> {
    let Some((kind, text)) = s.split_once(':') else {
        return Err(err("bad_input", format!("meld {s:?} must look like \"pon:777z\"")));
    };
    let kind = MeldKind::from_name(kind)
        .ok_or_else(|| err("bad_input", format!("unknown meld kind {kind:?}: chi, pon, minkan, ankan or kakan")))?;
    let t = tiles(text, &format!("meld {s:?}"))?;
    Meld::new(kind, &t, None, None)
        .ok_or_else(|| err("invalid_tiles", format!("meld {s:?}: the tiles are not a {}", kind.name())))
}

fn score_object(obj: &Map<String, Value>) -> Result<Map<String, Value>, LineError> {
    if let Some(k) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(err("bad_input", format!("unknown field {k:?}; known: {}", FIELDS.join(", "))));
    }
    let hand = match obj.get("hand") {
        Some(Value::String(s)) => tiles(s, "hand")?,
        None => return Err(err("bad_input", "the field hand is missing")),
        Some(other) => return Err(err("bad_input", format!("hand must be a string, not {other}"))),
    };
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
        Some(Value::String(s)) => {
            let t = tiles(s, "win")?;
            match t[..] {
                [one] => one,
                _ => return Err(err("invalid_tiles", format!("win must be one tile, not {s:?}"))),
            }
        }
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
    let wh = WinHand { concealed: &hand, melds: &melds, win };
    let sc = score(&wh, &sit, &ScoreRules::default()).map_err(|e: ScoreError| err(e.code(), e.to_string()))?;
    let fans: Vec<Value> = sc.fans().map(|(f, n)| json!({"name": f.name(), "fan": f.value(), "count": n})).collect();
    let mut out = Map::new();
    out.insert("fan".into(), json!(sc.total()));
    out.insert("fans".into(), Value::Array(fans));
    out.insert("meets_minimum".into(), Value::Bool(sc.meets_minimum()));
    Ok(out)
}
