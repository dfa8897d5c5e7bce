//! The referee's check of one finished hand (`paifu score hungarian`): one JSON object in, one
//! out. The contract is in docs/rules/hungarian.md, "paifu score hungarian".

use super::play::set_of;
use super::rules::Rules;
use super::score::{score_loser, score_winner, settle, Hand, Scored, Set, Win};
use super::table::{table, Table};
use crate::log::OptValue;
use crate::mahjong::score_line::{answer, err, get_bool, LineError};
use crate::mahjong::{parse_tiles, Counts, Flower, Meld, MeldKind, Tile};
use serde::Deserialize;
use serde_json::{json, Map, Value};

const FIELDS: &[&str] = &["id", "winner", "win", "self_drawn", "heavenly", "players", "rules"];
const PLAYER_FIELDS: &[&str] = &["hand", "melds", "flowers"];
const WINDS: [&str; 4] = ["E", "S", "W", "N"];

/// Scores one JSON input line and answers one JSON output line (no newline). Never panics.
pub fn score_line(line: &str) -> String {
    answer(line, |obj| {
        let (players, payments) = score_object(obj)?;
        let mut fields = Map::new();
        fields.insert("players".into(), players);
        fields.insert("payments".into(), payments);
        Ok(fields)
    })
}

/// A tile of the Hungarian set: no red fives.
fn plain_tiles(text: &str, what: &str) -> Result<Vec<Tile>, LineError> {
    let tiles = parse_tiles(text).map_err(|e| err("invalid_tiles", format!("{what}: {}", e.0)))?;
    if let Some(t) = tiles.iter().find(|t| t.is_aka()) {
        return Err(err(
            "invalid_tiles",
            format!("{what}: {t} is a red five; the Hungarian set has none (write 5m, 5p, 5s)"),
        ));
    }
    Ok(tiles)
}

fn parse_meld(s: &str, who: &str) -> Result<(Set, Vec<Tile>), LineError> {
    let Some((kind, tiles)) = s.split_once(':') else {
        return Err(err("bad_input", format!("{who}: meld {s:?} must look like \"pon:777z\"")));
    };
    let kind = MeldKind::from_name(kind).ok_or_else(|| {
        err("bad_input", format!("{who}: unknown meld kind {kind:?}: chi, pon, minkan, ankan or kakan"))
    })?;
    let tiles = plain_tiles(tiles, who)?;
    let m = Meld::new(kind, &tiles, None, None)
        .ok_or_else(|| err("invalid_tiles", format!("{who}: meld {s:?}: the tiles are not a {}", kind.name())))?;
    Ok((set_of(&m), tiles))
}

/// One player's part of the input.
struct Player {
    concealed: Counts,
    melds: Vec<Set>,
    flowers: Vec<u8>,
    /// Concealed tiles and three per set: 13, or the winner's 14.
    size: usize,
}

fn parse_player(v: &Value, wind: &str, seen: &mut Counts, flowers_seen: &mut [bool; 9]) -> Result<Player, LineError> {
    let who = format!("player {wind}");
    let Value::Object(obj) = v else {
        return Err(err("bad_input", format!("{who} must be an object with hand, melds and flowers")));
    };
    if let Some(k) = obj.keys().find(|k| !PLAYER_FIELDS.contains(&k.as_str())) {
        return Err(err("bad_input", format!("{who}: unknown field {k:?}; known: {}", PLAYER_FIELDS.join(", "))));
    }
    let hand = match obj.get("hand") {
        Some(Value::String(s)) => plain_tiles(s, &who)?,
        None => return Err(err("bad_input", format!("{who}: the field hand is missing"))),
        Some(other) => return Err(err("bad_input", format!("{who}: hand must be a string of tiles, not {other}"))),
    };
    let mut all: Vec<Tile> = hand.clone();
    let mut melds = Vec::new();
    match obj.get("melds") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            if items.len() > 4 {
                return Err(err("invalid_tiles", format!("{who}: a hand has at most four laid-out sets")));
            }
            for it in items {
                let Value::String(s) = it else {
                    return Err(err("bad_input", format!("{who}: melds must be strings like \"pon:777z\"")));
                };
                let (set, tiles) = parse_meld(s, &who)?;
                melds.push(set);
                all.extend(tiles);
            }
        }
        Some(other) => return Err(err("bad_input", format!("{who}: melds must be a list, not {other}"))),
    }
    let mut flowers = Vec::new();
    match obj.get("flowers") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            for it in items {
                let n = match it {
                    Value::String(s) => {
                        s.parse::<Flower>().map_err(|e| err("invalid_tiles", format!("{who}: {}", e.0)))?.number()
                    }
                    other => {
                        return Err(err(
                            "bad_input",
                            format!("{who}: flowers must be strings like \"1f\", not {other}"),
                        ))
                    }
                };
                if std::mem::replace(&mut flowers_seen[usize::from(n)], true) {
                    return Err(err(
                        "invalid_tiles",
                        format!("{n}f appears twice; there is one of each flower and season"),
                    ));
                }
                flowers.push(n);
            }
        }
        Some(other) => return Err(err("bad_input", format!("{who}: flowers must be a list, not {other}"))),
    }
    for t in &all {
        seen[t.kind()] += 1;
        if seen[t.kind()] > 4 {
            return Err(err(
                "invalid_tiles",
                format!("{t} appears more than four times (hands and melds); there are four"),
            ));
        }
    }
    let mut concealed = [0u8; 34];
    for t in &hand {
        concealed[t.kind()] += 1;
    }
    Ok(Player { concealed, melds: melds.clone(), flowers, size: hand.len() + 3 * melds.len() })
}

fn scored_json(s: &Scored, t: &Table) -> Value {
    let mut lines: Vec<Value> = s.lines.iter().map(|(l, p)| json!({"name": l.name(), "points": p})).collect();
    for (d, n) in &s.doubled {
        lines.push(json!({"name": format!("x{} {}", 1u64 << n.min(&62), d.name()), "points": 0}));
    }
    let limit = match s.limit {
        Some((l, _)) => json!({"name": l.name(), "bonus": t.bonus(l)}),
        None => Value::Null,
    };
    json!({"points": s.points, "doublings": s.doublings, "score": s.score, "lines": lines, "limit": limit})
}

fn score_object(obj: &Map<String, Value>) -> Result<(Value, Value), LineError> {
    if let Some(k) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(err("bad_input", format!("unknown field {k:?}; known: {}", FIELDS.join(", "))));
    }
    let mut rules = Rules::default();
    match obj.get("rules") {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (k, v) in m {
                let ov = OptValue::deserialize(v).map_err(|e| err("bad_input", format!("rule {k}: {v}: {e}")))?;
                rules.set(k, &ov).map_err(|e| err("bad_input", e.0))?;
            }
        }
        Some(other) => return Err(err("bad_input", format!("rules must be an object, not {other}"))),
    }
    let winner = match obj.get("winner") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => match WINDS.iter().position(|w| w == s) {
            Some(i) => Some(i),
            None => {
                return Err(err("bad_input", format!("winner must be \"E\", \"S\", \"W\", \"N\" or null, not {s:?}")))
            }
        },
        Some(other) => return Err(err("bad_input", format!("winner must be a wind letter or null, not {other}"))),
    };
    let win = match obj.get("win") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => {
            let t = plain_tiles(s, "win")?;
            match t.as_slice() {
                [one] => Some(*one),
                _ => return Err(err("invalid_tiles", format!("win must be one tile, not {s:?}"))),
            }
        }
        Some(other) => return Err(err("bad_input", format!("win must be a tile, not {other}"))),
    };
    let self_drawn = get_bool(obj, "self_drawn")?;
    let heavenly = get_bool(obj, "heavenly")?;
    let Some(Value::Object(ps)) = obj.get("players") else {
        return Err(err("bad_input", "players must be an object with the four winds E, S, W, N"));
    };
    if let Some(k) = ps.keys().find(|k| !WINDS.contains(&k.as_str())) {
        return Err(err("bad_input", format!("players: {k:?} is not a wind; give E, S, W and N")));
    }
    let mut seen = [0u8; 34];
    let mut flowers_seen = [false; 9];
    let mut players = Vec::new();
    for w in WINDS {
        let v = ps.get(w).ok_or_else(|| err("bad_input", format!("players: {w} is missing; give E, S, W and N")))?;
        players.push(parse_player(v, w, &mut seen, &mut flowers_seen)?);
    }
    let bad = |m: String| Err(err("inconsistent", m));
    match winner {
        None => {
            if win.is_some() || self_drawn || heavenly {
                return bad("win, self_drawn and heavenly describe a winner; winner is null".into());
            }
        }
        Some(w) => {
            if heavenly && (w != 0 || !self_drawn || !players[w].melds.is_empty()) {
                return bad("heavenly is East's win on the dealt hand: winner E, self_drawn, no melds".into());
            }
        }
    }
    for (i, p) in players.iter().enumerate() {
        let want = if Some(i) == winner { 14 } else { 13 };
        if p.size != want && Some(i) != winner {
            return bad(format!(
                "player {} holds {} tiles (a kong counted as three); a loser holds 13",
                WINDS[i], p.size
            ));
        }
    }
    let t = table().map_err(|e| err("bad_input", format!("the scoring table cannot be read: {e}")))?;
    let mut scores = [0i64; 4];
    let mut out = Map::new();
    for (i, p) in players.iter().enumerate() {
        let hand = Hand { concealed: &p.concealed, melds: &p.melds, flowers: &p.flowers, wind: i as u8 };
        let s = if Some(i) == winner {
            let Some(tile) = win else {
                return Err(err("bad_input", "the field win (the winning tile) is missing"));
            };
            if p.concealed[tile.kind()] == 0 {
                return bad(format!("the winning tile {tile} is not in the winner's hand (the hand includes it)"));
            }
            let w = Win { tile: tile.kind() as u8, self_drawn, heavenly };
            score_winner(&hand, &w, i == 0, &rules, t).map_err(|e| err("not_a_winning_hand", e.to_string()))?
        } else {
            score_loser(&hand, t)
        };
        scores[i] = s.score;
        out.insert(WINDS[i].to_owned(), scored_json(&s, t));
    }
    let net = match winner {
        Some(w) => settle(&scores, w, 0, rules.losers_settle),
        None => [0; 4],
    };
    let payments: Map<String, Value> = WINDS.iter().zip(net).map(|(w, n)| ((*w).to_owned(), json!(n))).collect();
    Ok((Value::Object(out), Value::Object(payments)))
}
