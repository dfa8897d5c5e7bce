//! The fan calculator's line protocol (`paifu score mcr`): one JSON object in, one out.
//!
//! Input: `{"id", "hand", "melds", "win", "tsumo", "flowers", "last_tile", "kong_related",
//! "wall_last", "seat_wind", "round_wind"}` (see docs/rules/mcr.md, "The calculator").
//! Output: `{"id", "ok": true, "fan", "fans": [{"name", "fan", "count"}], "meets_minimum"}` or
//! `{"id", "ok": false, "error", "message"}`.

use super::score::{score, ScoreError, ScoreRules, Situation, WinHand};
use crate::mahjong::{parse_tiles, Meld, MeldKind, Tile};
use serde_json::{json, Map, Value};

struct LineError {
    code: &'static str,
    message: String,
}

fn err(code: &'static str, message: impl Into<String>) -> LineError {
    LineError { code, message: message.into() }
}

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
    let (id, result) = match serde_json::from_str::<Value>(line) {
        Err(e) => (Value::Null, Err(err("bad_input", format!("not JSON: {e}")))),
        Ok(Value::Object(obj)) => (obj.get("id").cloned().unwrap_or(Value::Null), score_object(&obj)),
        Ok(_) => (Value::Null, Err(err("bad_input", "the input must be one JSON object"))),
    };
    match result {
        Ok(v) => {
            let mut out = Map::new();
            out.insert("id".into(), id);
            out.insert("ok".into(), Value::Bool(true));
            if let Value::Object(mut m) = v {
                out.append(&mut m);
            }
            Value::Object(out).to_string()
        }
        Err(e) => json!({"id": id, "ok": false, "error": e.code, "message": e.message}).to_string(),
    }
}

fn get_bool(obj: &Map<String, Value>, key: &str) -> Result<bool, LineError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(err("bad_input", format!("{key} must be true or false, not {other}"))),
    }
}

fn get_wind(obj: &Map<String, Value>, key: &str) -> Result<u8, LineError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(0),
        Some(Value::String(s)) => match s.as_str() {
            "E" => Ok(0),
            "S" => Ok(1),
            "W" => Ok(2),
            "N" => Ok(3),
            _ => Err(err("bad_input", format!("{key} must be \"E\", \"S\", \"W\" or \"N\", not {s:?}"))),
        },
        Some(other) => Err(err("bad_input", format!("{key} must be a wind letter, not {other}"))),
    }
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

fn score_object(obj: &Map<String, Value>) -> Result<Value, LineError> {
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
        seat_wind: get_wind(obj, "seat_wind")?,
        round_wind: get_wind(obj, "round_wind")?,
        flowers,
    };
    let wh = WinHand { concealed: &hand, melds: &melds, win };
    let sc = score(&wh, &sit, &ScoreRules::default()).map_err(|e: ScoreError| err(e.code(), e.to_string()))?;
    let fans: Vec<Value> = sc.fans().map(|(f, n)| json!({"name": f.name(), "fan": f.value(), "count": n})).collect();
    Ok(json!({
        "fan": sc.total(),
        "fans": fans,
        "meets_minimum": sc.meets_minimum(),
    }))
}
