//! The hand scorer's line protocol (`paifu score riichi`): one JSON object in, one out.

use super::rules::Rules;
use super::score::{score, Payment, Situation, WinHand};
use crate::log::OptValue;
use crate::mahjong::score_line::{answer, err, get_bool, get_wind, LineError};
use crate::mahjong::{parse_tiles, Meld, MeldKind, Tile};
use serde_json::{json, Map, Value};

const FIELDS: &[&str] = &[
    "id",
    "hand",
    "melds",
    "win",
    "tsumo",
    "riichi",
    "double_riichi",
    "ippatsu",
    "rinshan",
    "chankan",
    "haitei",
    "houtei",
    "tenhou",
    "chiihou",
    "renhou",
    "seat_wind",
    "round_wind",
    "dora",
    "ura",
    "honba",
    "riichi_sticks",
    "rules",
];

/// Scores one JSON input line and answers one JSON output line (no newline). Never panics.
///
/// Input: `{"id", "hand", "melds", "win", "tsumo", "riichi", "double_riichi", "ippatsu",
/// "rinshan", "chankan", "haitei", "houtei", "tenhou", "chiihou", "renhou", "seat_wind",
/// "round_wind", "dora", "ura", "honba", "riichi_sticks", "rules"}`; see docs/rules/riichi.md.
pub fn score_line(line: &str) -> String {
    answer(line, score_object)
}

fn get_uint(obj: &Map<String, Value>, key: &str) -> Result<u32, LineError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(0),
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .filter(|&v| v <= 1000)
            .ok_or_else(|| err("bad_input", format!("{key} must be an integer from 0 to 1000, not {n}"))),
        Some(other) => Err(err("bad_input", format!("{key} must be an integer, not {other}"))),
    }
}

fn get_tiles(obj: &Map<String, Value>, key: &str) -> Result<Vec<Tile>, LineError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => {
            let mut out = Vec::new();
            for it in items {
                let Value::String(s) = it else {
                    return Err(err("bad_input", format!("{key} must be a list of tiles like \"3m\"")));
                };
                out.extend(parse_tiles(s).map_err(|e| err("invalid_tiles", format!("{key}: {}", e.0)))?);
            }
            if out.len() > 10 {
                return Err(err("invalid_tiles", format!("{key}: at most 5 indicators (10 with ura)")));
            }
            Ok(out)
        }
        Some(Value::String(s)) => parse_tiles(s).map_err(|e| err("invalid_tiles", format!("{key}: {}", e.0))),
        Some(other) => Err(err("bad_input", format!("{key} must be a list of tiles, not {other}"))),
    }
}

fn parse_meld(s: &str) -> Result<Meld, LineError> {
    let Some((kind, tiles)) = s.split_once(':') else {
        return Err(err("bad_input", format!("meld {s:?} must look like \"pon:777z\"")));
    };
    let Some(kind) = MeldKind::from_name(kind) else {
        return Err(err("bad_input", format!("unknown meld kind {kind:?}: chi, pon, minkan, ankan or kakan")));
    };
    let tiles = parse_tiles(tiles).map_err(|e| err("invalid_tiles", e.0))?;
    Meld::new(kind, &tiles, None, None)
        .ok_or_else(|| err("invalid_tiles", format!("meld {s:?}: the tiles are not a {}", kind.name())))
}

fn score_object(obj: &Map<String, Value>) -> Result<Map<String, Value>, LineError> {
    if let Some(k) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(err("bad_input", format!("unknown field {k:?}; known: {}", FIELDS.join(", "))));
    }
    let mut rules = Rules::default();
    match obj.get("rules") {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (k, v) in m {
                let ov = match v {
                    Value::Bool(b) => OptValue::Bool(*b),
                    Value::Number(n) => match n.as_i64() {
                        Some(i) => OptValue::Int(i),
                        None => return Err(err("bad_rules", format!("rule {k}: {n} is not an integer"))),
                    },
                    Value::String(s) => OptValue::Text(s.clone()),
                    other => return Err(err("bad_rules", format!("rule {k}: {other} is not a value"))),
                };
                rules.set(k, &ov).map_err(|e| err("bad_rules", e.0))?;
            }
        }
        Some(other) => return Err(err("bad_input", format!("rules must be an object, not {other}"))),
    }
    let hand = match obj.get("hand") {
        Some(Value::String(s)) => parse_tiles(s).map_err(|e| err("invalid_tiles", e.0))?,
        None => return Err(err("bad_input", "the field hand is missing")),
        Some(other) => return Err(err("bad_input", format!("hand must be a string, not {other}"))),
    };
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
        Some(Value::String(s)) => s.parse::<Tile>().map_err(|e| err("invalid_tiles", e.0))?,
        None => return Err(err("bad_input", "the field win is missing")),
        Some(other) => return Err(err("bad_input", format!("win must be a tile, not {other}"))),
    };
    let dora = get_tiles(obj, "dora")?;
    let ura = get_tiles(obj, "ura")?;
    let sit = Situation {
        tsumo: get_bool(obj, "tsumo")?,
        riichi: get_bool(obj, "riichi")?,
        double_riichi: get_bool(obj, "double_riichi")?,
        ippatsu: get_bool(obj, "ippatsu")?,
        rinshan: get_bool(obj, "rinshan")?,
        chankan: get_bool(obj, "chankan")?,
        haitei: get_bool(obj, "haitei")?,
        houtei: get_bool(obj, "houtei")?,
        tenhou: get_bool(obj, "tenhou")?,
        chiihou: get_bool(obj, "chiihou")?,
        renhou: get_bool(obj, "renhou")?,
        seat_wind: get_wind(obj, "seat_wind", 1)?,
        round_wind: get_wind(obj, "round_wind", 0)?,
    };
    let honba = get_uint(obj, "honba")?;
    let sticks = get_uint(obj, "riichi_sticks")?;
    check_tiles(&hand, &melds, &dora, &ura, &rules)?;
    check_situation(&sit, &melds, &rules)?;
    let wh = WinHand { concealed: &hand, melds: &melds, win, dora: &dora, ura: &ura };
    let sc = score(&wh, &sit, &rules).map_err(|e| LineError { code: e.code(), message: e.to_string() })?;
    let pay = sc.payment.with_honba(honba);
    let payment = match pay {
        Payment::Ron(p) => json!({"ron": p}),
        Payment::Tsumo { dealer, non_dealer } => json!({"dealer": dealer, "non_dealer": non_dealer}),
        Payment::TsumoDealer(a) => json!({"all": a}),
    };
    let yaku: Vec<Value> = sc.yaku.iter().map(|(y, h)| json!({"name": y.name(), "han": h})).collect();
    let fields = [
        ("han", json!(sc.han)),
        ("fu", json!(sc.fu)),
        ("yaku", json!(yaku)),
        ("yakuman", json!(sc.yakuman)),
        ("limit", json!(sc.limit.name())),
        ("payment", payment),
        ("total", json!(pay.total() + 1000 * i64::from(sticks))),
    ];
    Ok(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

fn check_tiles(hand: &[Tile], melds: &[Meld], dora: &[Tile], ura: &[Tile], rules: &Rules) -> Result<(), LineError> {
    let mut counts = [0u32; 34];
    let mut reds = [0u32; 3];
    let all = hand.iter().chain(melds.iter().flat_map(|m| m.tiles().iter())).chain(dora).chain(ura);
    for t in all {
        counts[t.kind()] += 1;
        if t.is_aka() {
            reds[t.suit()] += 1;
        }
    }
    if let Some(k) = counts.iter().position(|&c| c > 4) {
        return Err(err(
            "invalid_tiles",
            format!("{} appears {} times (hand, melds and indicators); there are four", Tile::kind_tile(k), counts[k]),
        ));
    }
    let allowed = match rules.red_fives {
        0 => [0, 0, 0],
        3 => [1, 1, 1],
        _ => [1, 2, 1],
    };
    for s in 0..3 {
        if reds[s] > allowed[s] {
            return Err(err(
                "invalid_tiles",
                format!("{} red 0{} but the rules have {}", reds[s], ['m', 'p', 's'][s], allowed[s]),
            ));
        }
    }
    if dora.len() > 5 || ura.len() > 5 {
        return Err(err("invalid_tiles", "there are at most five dora and five ura indicators"));
    }
    if !ura.is_empty() && ura.len() > dora.len() {
        return Err(err("inconsistent", "more ura indicators than dora indicators"));
    }
    Ok(())
}

fn check_situation(s: &Situation, melds: &[Meld], rules: &Rules) -> Result<(), LineError> {
    let closed = melds.iter().all(|m| !m.is_open());
    let bad = |m: &str| Err(err("inconsistent", m.to_owned()));
    if (s.riichi || s.double_riichi) && !closed {
        return bad("riichi needs a closed hand (closed kans allowed)");
    }
    if s.riichi && s.double_riichi {
        return bad("riichi and double_riichi are exclusive: give one");
    }
    if s.ippatsu && !(s.riichi || s.double_riichi) {
        return bad("ippatsu needs riichi");
    }
    if s.rinshan && (!s.tsumo || !melds.iter().any(|m| m.is_kong())) {
        return bad("rinshan needs tsumo and a kan");
    }
    if s.chankan && s.tsumo {
        return bad("chankan is a win on another player's tile (not tsumo)");
    }
    if s.haitei && (!s.tsumo || s.rinshan) {
        return bad("haitei is a tsumo on the last tile of the wall (not a replacement tile)");
    }
    if s.houtei && (s.tsumo || s.chankan) {
        return bad("houtei is a win on the last discard");
    }
    if (s.tenhou || s.chiihou) && (!s.tsumo || !melds.is_empty()) {
        return bad("tenhou and chiihou are tsumo wins without melds");
    }
    if s.tenhou && !s.dealer() {
        return bad("tenhou is the dealer's win; a non-dealer's is chiihou");
    }
    if s.chiihou && s.dealer() {
        return bad("chiihou is a non-dealer's win; the dealer's is tenhou");
    }
    if s.renhou && (s.tsumo || s.dealer() || !melds.is_empty()) {
        return bad("renhou is a non-dealer's ron before their first draw, without melds");
    }
    let _ = rules;
    Ok(())
}
