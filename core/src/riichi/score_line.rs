//! The hand scorer's line protocol (`paifu score riichi`): one JSON object in, one out.

use super::rules::Rules;
use super::score::{score, Payment, Score, Situation, WinHand, Yaku};
use crate::log::OptValue;
use crate::mahjong::score_line::{
    answer_scanned, answer_string, err, get_bool, get_wind, keep, write_int, write_key, write_str, Fields, Given, Id,
    Identified, LineError, Plain, Scanned, Texts, TileBuf, TileTexts,
};
use crate::mahjong::{parse_tiles, Meld, MeldKind, Tile};
use serde::Deserialize;
use serde_json::{Map, Value};

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
    answer_string(|out| score_line_into(line, out))
}

/// [`score_line`], the answer appended to `out`; whether the hand was scored (`"ok": true`).
/// The usual line is read straight into borrowed fields, nothing allocated for it; any other
/// the reference way (`mahjong::score_line`), with the same answer.
pub fn score_line_into(line: &str, out: &mut Vec<u8>) -> bool {
    answer_scanned(line, out, score_quick, score_object)
}

/// A line read the quick way: every field of the contract, each of the type the reference
/// reading takes (strings without escapes); `rules` is only looked at to send the line to the
/// reference reading.
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
    riichi: Option<bool>,
    #[serde(default)]
    double_riichi: Option<bool>,
    #[serde(default)]
    ippatsu: Option<bool>,
    #[serde(default)]
    rinshan: Option<bool>,
    #[serde(default)]
    chankan: Option<bool>,
    #[serde(default)]
    haitei: Option<bool>,
    #[serde(default)]
    houtei: Option<bool>,
    #[serde(default)]
    tenhou: Option<bool>,
    #[serde(default)]
    chiihou: Option<bool>,
    #[serde(default)]
    renhou: Option<bool>,
    #[serde(default, borrow)]
    seat_wind: Option<&'a str>,
    #[serde(default, borrow)]
    round_wind: Option<&'a str>,
    #[serde(default, borrow)]
    dora: Option<TileTexts<'a, 10>>,
    #[serde(default, borrow)]
    ura: Option<TileTexts<'a, 10>>,
    #[serde(default)]
    honba: Option<u64>,
    #[serde(default)]
    riichi_sticks: Option<u64>,
    #[serde(default)]
    rules: Option<serde::de::IgnoredAny>,
}

impl<'a> Identified<'a> for Quick<'a> {
    fn id(&self) -> Id<'a> {
        self.id
    }
}

impl<'a> Scanned<'a> for Quick<'a> {
    /// Every field but `rules` (which sends the line to the reference reading).
    fn member(&mut self, key: &'a str, v: Plain<'a>) -> Option<u32> {
        match key {
            "id" => keep(&mut self.id, v.id(), 0),
            "hand" => keep(&mut self.hand, v.given(), 1),
            "melds" => keep(&mut self.melds, v.texts(), 2),
            "win" => keep(&mut self.win, v.given(), 3),
            "tsumo" => keep(&mut self.tsumo, v.flag(), 4),
            "riichi" => keep(&mut self.riichi, v.flag(), 5),
            "double_riichi" => keep(&mut self.double_riichi, v.flag(), 6),
            "ippatsu" => keep(&mut self.ippatsu, v.flag(), 7),
            "rinshan" => keep(&mut self.rinshan, v.flag(), 8),
            "chankan" => keep(&mut self.chankan, v.flag(), 9),
            "haitei" => keep(&mut self.haitei, v.flag(), 10),
            "houtei" => keep(&mut self.houtei, v.flag(), 11),
            "tenhou" => keep(&mut self.tenhou, v.flag(), 12),
            "chiihou" => keep(&mut self.chiihou, v.flag(), 13),
            "renhou" => keep(&mut self.renhou, v.flag(), 14),
            "seat_wind" => keep(&mut self.seat_wind, v.text(), 15),
            "round_wind" => keep(&mut self.round_wind, v.text(), 16),
            "dora" => keep(&mut self.dora, v.tile_texts(), 17),
            "ura" => keep(&mut self.ura, v.tile_texts(), 18),
            "honba" => keep(&mut self.honba, v.count(), 19),
            "riichi_sticks" => keep(&mut self.riichi_sticks, v.count(), 20),
            _ => None,
        }
    }
}

/// A wind letter as `get_wind` reads it.
fn wind(s: Option<&str>, key: &str, default: u8) -> Result<u8, LineError> {
    match s {
        None => Ok(default),
        Some("E") => Ok(0),
        Some("S") => Ok(1),
        Some("W") => Ok(2),
        Some("N") => Ok(3),
        Some(s) => Err(err("bad_input", format!("{key} must be \"E\", \"S\", \"W\" or \"N\", not {s:?}"))),
    }
}

/// A count as `get_uint` reads it.
fn count(n: Option<u64>, key: &str) -> Result<u32, LineError> {
    match n {
        None => Ok(0),
        Some(v) => u32::try_from(v)
            .ok()
            .filter(|&v| v <= 1000)
            .ok_or_else(|| err("bad_input", format!("{key} must be an integer from 0 to 1000, not {v}"))),
    }
}

/// Indicators as `get_tiles` reads them; `None` when they do not fit the buffer (the reference
/// reading then answers).
fn indicators(t: Option<&TileTexts<'_, 10>>, key: &str) -> Option<Result<TileBuf, LineError>> {
    let mut out = TileBuf::new();
    let bad = |e: crate::log::NotationError| err("invalid_tiles", format!("{key}: {}", e.0));
    match t {
        None => {}
        Some(TileTexts::One(s)) => match out.extend(s) {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => return Some(Err(bad(e))),
        },
        Some(TileTexts::List(items)) => {
            for s in items.as_slice() {
                match out.extend(s) {
                    Ok(true) => {}
                    Ok(false) => return None,
                    Err(e) => return Some(Err(bad(e))),
                }
            }
            if out.as_slice().len() > 10 {
                return Some(Err(err("invalid_tiles", format!("{key}: at most 5 indicators (10 with ura)"))));
            }
        }
    }
    Some(Ok(out))
}

/// The quick reading's checks, in the reference reading's order (`score_object`); `None` sends
/// the line to the reference reading.
fn score_quick(q: &Quick<'_>) -> Option<Result<Scored, LineError>> {
    if q.rules.is_some() {
        return None;
    }
    let dora = indicators(q.dora.as_ref(), "dora")?;
    let ura = indicators(q.ura.as_ref(), "ura")?;
    Some((|| {
        let hand = match q.hand.0 {
            Some(s) => TileBuf::parse(s).map_err(|e| err("invalid_tiles", e.0))?,
            None => return Err(err("bad_input", "the field hand is missing")),
        };
        let filler = Meld { kind: MeldKind::Chow, tiles: [Tile::kind_tile(0); 4], called: None, from: None };
        let mut melds = [filler; 4];
        let given = q.melds.as_ref().map_or(&[][..], |m| m.as_slice());
        for (slot, s) in melds.iter_mut().zip(given) {
            *slot = parse_meld(s)?;
        }
        let win = match q.win.0 {
            Some(s) => s.parse::<Tile>().map_err(|e| err("invalid_tiles", e.0))?,
            None => return Err(err("bad_input", "the field win is missing")),
        };
        let (dora, ura) = (dora?, ura?);
        let flag = |f: Option<bool>| f.unwrap_or(false);
        let sit = Situation {
            tsumo: flag(q.tsumo),
            riichi: flag(q.riichi),
            double_riichi: flag(q.double_riichi),
            ippatsu: flag(q.ippatsu),
            rinshan: flag(q.rinshan),
            chankan: flag(q.chankan),
            haitei: flag(q.haitei),
            houtei: flag(q.houtei),
            tenhou: flag(q.tenhou),
            chiihou: flag(q.chiihou),
            renhou: flag(q.renhou),
            seat_wind: wind(q.seat_wind, "seat_wind", 1)?,
            round_wind: wind(q.round_wind, "round_wind", 0)?,
        };
        let honba = count(q.honba, "honba")?;
        let sticks = count(q.riichi_sticks, "riichi_sticks")?;
        let hand = Hand {
            concealed: hand.as_slice(),
            melds: &melds[..given.len()],
            win,
            dora: dora.as_slice(),
            ura: ura.as_slice(),
        };
        scored(&hand, &sit, honba, sticks, &Rules::default())
    })())
}

/// What both readings give [`scored`].
struct Hand<'a> {
    concealed: &'a [Tile],
    melds: &'a [Meld],
    win: Tile,
    dora: &'a [Tile],
    ura: &'a [Tile],
}

/// A scored hand, as the answer writes it: `han`, `fu`, `yaku` (`name`, `han`), `yakuman`,
/// `limit`, `payment` (`ron`; `dealer` and `non_dealer`; or `all`), `total`.
struct Scored {
    score: Score,
    /// The payment with the counters added.
    pay: Payment,
    sticks: u32,
}

impl Fields for Scored {
    fn write_fields(&self, out: &mut Vec<u8>) {
        let sc = &self.score;
        out.extend_from_slice(b",\"han\":");
        write_int(out, sc.han);
        out.extend_from_slice(b",\"fu\":");
        write_int(out, sc.fu);
        out.extend_from_slice(b",\"yaku\":[");
        let heads = yaku_heads();
        for (i, (y, h)) in sc.yaku.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            match heads.get(*y as usize) {
                Some(head) if !head.is_empty() => out.extend_from_slice(head),
                // A yaku missing from `Yaku::ALL` (a guard: it lists them all).
                _ => {
                    out.extend_from_slice(b"{\"name\":");
                    write_str(out, y.name());
                    write_key(out, "han");
                }
            }
            write_int(out, *h);
            out.push(b'}');
        }
        out.extend_from_slice(b"],\"yakuman\":");
        write_int(out, sc.yakuman);
        write_key(out, "limit");
        write_str(out, sc.limit.name());
        let mut member = |key: &[u8], v: i64| {
            out.extend_from_slice(key);
            write_int(out, v);
        };
        match self.pay {
            Payment::Ron(p) => member(b",\"payment\":{\"ron\":", p),
            Payment::Tsumo { dealer, non_dealer } => {
                member(b",\"payment\":{\"dealer\":", dealer);
                member(b",\"non_dealer\":", non_dealer);
            }
            Payment::TsumoDealer(a) => member(b",\"payment\":{\"all\":", a),
        }
        out.extend_from_slice(b"},\"total\":");
        write_int(out, self.pay.total() + 1000 * i64::from(self.sticks));
    }
}

/// Each yaku's answer up to its han, `{"name":"tanyao","han":`, by the yaku's number, written
/// once.
fn yaku_heads() -> &'static [Vec<u8>] {
    static HEADS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    HEADS.get_or_init(|| {
        let mut heads = vec![Vec::new(); Yaku::ALL.len()];
        for y in Yaku::ALL {
            let h = &mut heads[y as usize];
            h.extend_from_slice(b"{\"name\":");
            write_str(h, y.name());
            write_key(h, "han");
        }
        heads
    })
}

/// The checks after the fields are read, and the score.
fn scored(h: &Hand<'_>, sit: &Situation, honba: u32, sticks: u32, rules: &Rules) -> Result<Scored, LineError> {
    check_tiles(h.concealed, h.melds, h.dora, h.ura, rules)?;
    check_situation(sit, h.melds, rules)?;
    let wh = WinHand { concealed: h.concealed, melds: h.melds, win: h.win, dora: h.dora, ura: h.ura };
    let sc = score(&wh, sit, rules).map_err(|e| LineError { code: e.code(), message: e.into_message() })?;
    let pay = sc.payment.with_honba(honba);
    Ok(Scored { score: sc, pay, sticks })
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
    let tiles = TileBuf::parse(tiles).map_err(|e| err("invalid_tiles", e.0))?;
    Meld::new(kind, tiles.as_slice(), None, None)
        .ok_or_else(|| err("invalid_tiles", format!("meld {s:?}: the tiles are not a {}", kind.name())))
}

fn score_object(obj: &Map<String, Value>) -> Result<Scored, LineError> {
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
    let hand = Hand { concealed: &hand, melds: &melds, win, dora: &dora, ura: &ura };
    scored(&hand, &sit, honba, sticks, &rules)
}

fn check_tiles(hand: &[Tile], melds: &[Meld], dora: &[Tile], ura: &[Tile], rules: &Rules) -> Result<(), LineError> {
    let mut counts = [0u32; 34];
    let mut reds = [0u32; 3];
    // A loop a part: a chain of the four iterators tests at every tile which part it is in.
    let mut add = |tiles: &[Tile]| {
        for t in tiles {
            counts[t.kind()] += 1;
            if t.is_aka() {
                reds[t.suit()] += 1;
            }
        }
    };
    add(hand);
    for m in melds {
        add(m.tiles());
    }
    add(dora);
    add(ura);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::score_line::{lines_to_agree_on, random_shapes, readings_agree};
    use serde_json::json;

    /// The quick reading answers the lines a calculator mostly gets, and every line it answers
    /// it answers as the reference reading does (hands, wrong values, mutated bytes).
    #[test]
    fn both_readings_answer_alike() {
        let base: Vec<String> = random_shapes("riichi lines", 300)
            .into_iter()
            .enumerate()
            .map(|(i, (hand, melds, win))| {
                let closed = melds.is_empty();
                json!({"id": i, "hand": hand, "melds": melds, "win": win, "tsumo": i % 2 == 0,
                       "riichi": closed && i % 3 == 0, "seat_wind": (["E", "S", "W", "N"][i % 4]),
                       "round_wind": (["E", "S"][i % 2]), "dora": ["3p"], "honba": i % 3})
                .to_string()
            })
            .collect();
        let variants: &[(&str, &[&str])] = &[
            ("id", &["null", "-3", "1.5", "\"x\"", "[1]", "{\"a\":1}", "true", "18446744073709551615"]),
            ("hand", &["null", "1", "\"123m\"", "\"123x\"", "\"0m0m0m0m0m\"", "-"]),
            (
                "melds",
                &["null", "[]", "\"chi:123m\"", "[1]", "[\"chi:124m\"]", "[\"x\"]", "[\"a\",\"b\",\"c\",\"d\",\"e\"]"],
            ),
            ("win", &["null", "\"9x\"", "-", "5"]),
            ("tsumo", &["null", "1", "\"yes\""]),
            ("ippatsu", &["true"]),
            ("seat_wind", &["null", "\"Q\"", "0"]),
            (
                "dora",
                &[
                    "null",
                    "\"1m2m\"",
                    "[\"1m\",\"2m\",\"3m\",\"4m\",\"5m\",\"6m\"]",
                    "[\"1m2m3m4m5m6m7m8m9m1p2p\"]",
                    "[1]",
                    "\"9q\"",
                ],
            ),
            ("ura", &["[\"7z\"]", "[\"1m\",\"1m\",\"1m\",\"1m\",\"1m\",\"1m\",\"1m\",\"1m\",\"1m\",\"1m\",\"1m\"]"]),
            ("honba", &["null", "1001", "-1", "2.5", "1000"]),
            ("riichi_sticks", &["4", "99999999999"]),
            ("rules", &["null", "{\"red_fives\":0}", "1"]),
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
        // Every base line the quick way, and the command's function gives the same answer.
        for l in &base {
            assert!(quick(l, &mut Vec::new()).is_some(), "{l}");
            assert!(scanned(l, &mut Vec::new()).is_some(), "{l}");
            assert_eq!(score_line(l), reference(l));
        }
    }
}
