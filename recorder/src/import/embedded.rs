//! The Paifu log a `paifu export` embeds in its file, so that importing the export gives the very
//! log that was exported (the same digest).
//!
//! The export writes, as the top-level key `paifu` of tenhou.net/6 JSON or the field `paifu` of
//! mjai's `start_game`, an object `{"header", "order", "claims"}`: the log's header as its JSON
//! Lines header object (seed included when the log has one), the seat of every record as a string
//! of digits (`"0000123..."`: the order in which seats answered each claim window, which the
//! source formats do not keep) and every record's claim as `[index, claim]`.
//!
//! The importer still plays the file through the engine in imported mode (every tile is checked
//! as usual), then:
//! - for a seeded log (the header has a seed) it keeps only the decisions (no deal, draw, dora or
//!   ura records) and checks, by replaying them on the seed, that the seed deals the starting
//!   hands and first indicators the file shows;
//! - it puts each claim window's answers in the embedded order, and the embedded claims on the
//!   records;
//! - it writes the rebuilt log out again in the file's format and requires the file to be exactly
//!   that (as JSON values, so spacing and key order are free): every tile, draw, indicator, name,
//!   rule and result of the file is what the embedded header (and seed) and the decisions give.
//!   The first difference is an import error naming the round and the position.

use super::riichi_log::{self, Imported};
use super::{export, export_mjai, mjai, tenhou6, ImportError};
use paifu_core::game::Game;
use paifu_core::log::{self, Claim, Header, Log, Record};
use paifu_core::riichi::{Action, Riichi};
use serde_json::{json, Value};

/// The embedded log, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Embedded {
    pub header: Header,
    /// The seat of each record, in order.
    pub order: Vec<u8>,
    /// `(record index, claim)` for every record with a claim.
    pub claims: Vec<(usize, Claim)>,
    /// `(record index, action)` for every chi, pon and open kan answer.
    pub calls: Vec<(usize, Action)>,
}

/// The object an export embeds for a log.
pub fn write(log: &Log<Action>) -> Value {
    let header = paifu_core::log::json_object(&log.header);
    let order: String = log.records.iter().map(|r| char::from(b'0' + r.seat.min(9))).collect();
    let claims: Vec<Value> = log
        .records
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some(json!([i, paifu_core::log::json_object(r.claim.as_ref()?)])))
        .collect();
    let calls: Vec<Value> = log
        .records
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.action, Action::Chi(..) | Action::Pon(..) | Action::Minkan(_)))
        .map(|(i, r)| json!([i, r.action.to_string()]))
        .collect();
    json!({"header": header, "order": order, "claims": claims, "calls": calls})
}

/// Reads the embedded object.
pub fn read(v: &Value) -> Result<Embedded, String> {
    let m = v.as_object().ok_or("\"paifu\" is not an object {\"header\", \"order\", \"claims\", \"calls\"}")?;
    if let Some(k) = m.keys().find(|k| !["header", "order", "claims", "calls"].contains(&k.as_str())) {
        return Err(format!("unknown field {k:?} in \"paifu\""));
    }
    let hv = m.get("header").ok_or("\"paifu\" has no \"header\"")?;
    let header = log::read_jsonl_header(&hv.to_string()).map_err(|f| format!("paifu.header: {}", f.message))?;
    if header.game != "riichi" {
        return Err(format!("paifu.header: the game is {:?}, not riichi", header.game));
    }
    let order = m
        .get("order")
        .and_then(Value::as_str)
        .ok_or("\"paifu\" has no \"order\" string")?
        .bytes()
        .map(|b| if (b'0'..=b'3').contains(&b) { Ok(b - b'0') } else { Err("paifu.order: seats are 0-3") })
        .collect::<Result<Vec<u8>, _>>()?;
    let mut claims = Vec::new();
    for (k, c) in
        m.get("claims").and_then(Value::as_array).ok_or("\"paifu\" has no \"claims\" list")?.iter().enumerate()
    {
        let bad = |why: String| format!("paifu.claims[{k}]: {why}");
        let (Some(i), Some(c)) = (c.get(0).and_then(Value::as_u64), c.get(1)) else {
            return Err(bad("a claim is [record index, claim]".into()));
        };
        let claim: Claim = serde_json::from_value(c.clone()).map_err(|e| bad(e.to_string()))?;
        claims.push((usize::try_from(i).map_err(|e| bad(e.to_string()))?, claim));
    }
    let mut calls = Vec::new();
    for (k, c) in m.get("calls").and_then(Value::as_array).ok_or("\"paifu\" has no \"calls\" list")?.iter().enumerate()
    {
        let bad = |why: String| format!("paifu.calls[{k}]: {why}");
        let (Some(i), Some(a)) = (c.get(0).and_then(Value::as_u64), c.get(1).and_then(Value::as_str)) else {
            return Err(bad("a call is [record index, action]".into()));
        };
        let a: Action = a.parse().map_err(|e: log::NotationError| bad(e.0))?;
        if !matches!(a, Action::Chi(..) | Action::Pon(..) | Action::Minkan(_)) {
            return Err(bad(format!("{a} is not a chi, pon or open kan")));
        }
        calls.push((usize::try_from(i).map_err(|e| bad(e.to_string()))?, a));
    }
    Ok(Embedded { header, order, claims, calls })
}

/// The round a tenhou.net/6 path (`log[3][5][2]`) is in.
fn round_at(g: &tenhou6::Game, path: &str) -> Option<String> {
    let rest = path.strip_prefix("log[")?;
    let ri: usize = rest[..rest.find(']')?].parse().ok()?;
    g.rounds.get(ri).map(tenhou6::Round::name)
}

fn error(g: &tenhou6::Game, pos: &str, message: String) -> ImportError {
    let e = ImportError::new(pos, message);
    match round_at(g, pos) {
        Some(r) => e.in_round(&r),
        None => e,
    }
}

/// Rebuilds the embedded log from a game in tenhou.net/6 form. Positions are tenhou.net/6 paths.
pub fn rebuild(g: &tenhou6::Game, e: &Embedded) -> Result<Imported, ImportError> {
    let seeded = e.header.seed.is_some();
    let (imp, windowed) = riichi_log::from_game_windows(g, e.header.clone())?;
    if let Some((i, why)) = &imp.refused {
        let pos = imp.positions.get(*i).cloned().unwrap_or_default();
        return Err(error(g, &pos, format!("the rules refuse this play: {why}")));
    }
    // Runs of answers to one claim window, numbered.
    let mut run = Vec::with_capacity(windowed.len());
    let mut id = 0usize;
    for (i, w) in windowed.iter().enumerate() {
        if *w && !(i > 0 && windowed[i - 1]) {
            id += 1;
        }
        run.push(w.then_some(id));
    }
    let chance = |a: &Action| matches!(a, Action::Deal(_) | Action::Draw(_) | Action::Dora(_) | Action::Ura(_));
    let kept: Vec<(Record<Action>, String, Option<usize>)> = imp
        .log
        .records
        .iter()
        .zip(&imp.positions)
        .zip(&run)
        .filter(|((r, _), _)| !(seeded && chance(&r.action)))
        .map(|((r, p), w)| (r.clone(), p.clone(), *w))
        .collect();
    if e.order.len() != kept.len() {
        return Err(ImportError::new(
            "paifu.order",
            format!("the embedded log has {} records, the file gives {}", e.order.len(), kept.len()),
        ));
    }
    // Each window's answers in the embedded order.
    let mut records = Vec::with_capacity(kept.len());
    let mut positions = Vec::with_capacity(kept.len());
    let mut k = 0;
    while k < kept.len() {
        let end = match kept[k].2 {
            Some(w) => k + kept[k..].iter().take_while(|x| x.2 == Some(w)).count(),
            None => k + 1,
        };
        let mut used = vec![false; end - k];
        for j in k..end {
            let want = e.order[j];
            let Some(x) = (k..end).find(|&x| !used[x - k] && kept[x].0.seat == want) else {
                return Err(error(
                    g,
                    &kept[j].1,
                    format!("the embedded record order has seat {want} answer here, but the file does not"),
                ));
            };
            used[x - k] = true;
            let (mut r, p, _) = kept[x].clone();
            r.seq = records.len() as u32;
            r.claim = None;
            records.push(r);
            positions.push(p);
        }
        k = end;
    }
    // A call that was not made (a pon or ron took the tile) is not in the file: the importer
    // answered `pass` for it.
    for (i, a) in &e.calls {
        let r = records.get_mut(*i).filter(|r| r.action == *a || (r.action == Action::Pass && windowed_at(&kept, *i)));
        match r {
            Some(r) => r.action = *a,
            None => {
                let pos = positions.get(*i).cloned().unwrap_or_else(|| "paifu.calls".into());
                return Err(error(g, &pos, format!("the embedded log calls {a} here, but the file does not")));
            }
        }
    }
    for (i, c) in &e.claims {
        let r = records.get_mut(*i).ok_or_else(|| {
            ImportError::new("paifu.claims", format!("a claim on record {i}, but the log has {}", positions.len()))
        })?;
        r.claim = Some(c.clone());
    }
    let log = Log { header: e.header.clone(), records };
    if seeded {
        check_seed(g, &log, &positions)?;
    }
    Ok(Imported { log, positions, refused: None, mismatches: imp.mismatches })
}

/// Whether the record at `i` of the rebuilt order answers a claim window (reordering stays
/// inside runs, so the run flags keep their places).
fn windowed_at(kept: &[(Record<Action>, String, Option<usize>)], i: usize) -> bool {
    kept.get(i).is_some_and(|k| k.2.is_some())
}

fn notation(codes: &[i64]) -> String {
    codes.iter().map(|c| tenhou6::Tile(*c as u8).notation()).collect::<Vec<_>>().join(" ")
}

/// Replays the decisions on the seed: each hand's starting hands and first dora indicator must be
/// the file's, and every decision must be legal.
fn check_seed(g: &tenhou6::Game, log: &Log<Action>, positions: &[String]) -> Result<(), ImportError> {
    let h = &log.header;
    let rules = Riichi::rules(&h.ruleset, &h.options).map_err(|e| ImportError::new("paifu.header", e.0))?;
    let mut game = Riichi::new(rules, 4, h.seed.as_ref()).map_err(|e| ImportError::new("paifu.header", e.0))?;
    let mut checked = None;
    for (k, rec) in log.records.iter().enumerate() {
        let ri = game.results().len();
        if checked != Some(ri) {
            checked = Some(ri);
            if let Some(r) = g.rounds.get(ri) {
                let drawn = game.drawn_tile();
                for s in 0..4u8 {
                    let mut hand = game.hand(s).to_vec();
                    if let Some((_, t, _)) = drawn.filter(|(d, _, _)| *d == s) {
                        if let Some(p) = hand.iter().position(|x| *x == t) {
                            hand.remove(p);
                        }
                    }
                    let mut seed: Vec<i64> = hand.iter().map(|t| export::code(*t)).collect();
                    let mut file: Vec<i64> = r.hands[usize::from(s)].iter().map(|t| i64::from(t.0)).collect();
                    seed.sort_unstable();
                    file.sort_unstable();
                    if seed != file {
                        return Err(error(
                            g,
                            &format!("log[{ri}][{}]", 4 + 3 * usize::from(s)),
                            format!(
                                "seat {s}'s starting hand: the file shows {}, the embedded seed deals {}",
                                notation(&file),
                                notation(&seed)
                            ),
                        ));
                    }
                }
                let seed_dora = game.dora_indicators().first().map(|t| export::code(*t));
                let file_dora = r.dora.first().map(|t| i64::from(t.0));
                if seed_dora != file_dora {
                    return Err(error(
                        g,
                        &format!("log[{ri}][2][0]"),
                        format!(
                            "the dora indicator: the file shows {}, the embedded seed gives {}",
                            notation(&file_dora.into_iter().collect::<Vec<_>>()),
                            notation(&seed_dora.into_iter().collect::<Vec<_>>())
                        ),
                    ));
                }
            }
        }
        if let Err(v) = game.play_mut(rec.seat, &rec.action) {
            let pos = positions.get(k).cloned().unwrap_or_default();
            return Err(error(g, &pos, format!("on the embedded seed this play is refused: {}", v.message)));
        }
    }
    Ok(())
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".to_owned(), Value::to_string)
}

/// The first place where two JSON values differ: its path (`log[2][5][7]`, `name[1]`,
/// `paifu.header.seats[0]`), the first value there and the second.
pub fn first_difference(a: &Value, b: &Value, path: &str) -> Option<(String, String, String)> {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            for i in 0..x.len().max(y.len()) {
                let p = format!("{path}[{i}]");
                match (x.get(i), y.get(i)) {
                    (Some(u), Some(v)) => {
                        if let Some(d) = first_difference(u, v, &p) {
                            return Some(d);
                        }
                    }
                    (u, v) => return Some((p, show(u), show(v))),
                }
            }
            None
        }
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                match (x.get(k), y.get(k)) {
                    (Some(u), Some(v)) => {
                        if let Some(d) = first_difference(u, v, &p) {
                            return Some(d);
                        }
                    }
                    (u, v) => return Some((p, show(u), show(v))),
                }
            }
            None
        }
        _ if a == b => None,
        _ => Some((path.to_owned(), a.to_string(), b.to_string())),
    }
}

fn mismatch(seeded: bool, file: &str, ours: &str) -> String {
    format!(
        "the file does not match the Paifu log it embeds (\"paifu\"): the file has {file}, the embedded {} give \
         {ours}",
        if seeded { "header, seed and decisions" } else { "header and records" }
    )
}

/// Imports a tenhou.net/6 file that embeds a Paifu log. `bytes` are the file.
pub fn import_tenhou6(g: &tenhou6::Game, v: &Value, bytes: &[u8]) -> Result<Imported, ImportError> {
    let e = read(v).map_err(|m| ImportError::new("paifu", m))?;
    let imp = rebuild(g, &e)?;
    let file: Value = serde_json::from_slice(bytes).map_err(|err| ImportError::new("", err.to_string()))?;
    let out = export::to_tenhou6(&imp.log).map_err(|m| ImportError::new("paifu", m))?;
    let out: Value = serde_json::from_str(&out).map_err(|err| ImportError::new("", err.to_string()))?;
    if let Some((path, a, b)) = first_difference(&file, &out, "") {
        return Err(error(g, &path, mismatch(e.header.seed.is_some(), &a, &b)));
    }
    Ok(imp)
}

/// Checks that an mjai file is exactly the mjai export of the log rebuilt from it (blank lines
/// and `none` events apart).
pub fn check_mjai(text: &str, lines: &[mjai::Line], log: &Log<Action>) -> Result<(), ImportError> {
    let out = export_mjai::to_mjai(log).map_err(|m| ImportError::new("line 1", m))?;
    let file: Vec<(usize, Value)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, serde_json::from_str(l).unwrap_or(Value::Null)))
        .filter(|(_, v)| v["type"] != "none")
        .collect();
    let ours: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap_or(Value::Null)).collect();
    let last = file.last().map_or(1, |(n, _)| *n);
    let round = |n: usize| lines.iter().rev().filter(|l| l.line <= n).find_map(|l| mjai::round_of(&l.event));
    let seeded = log.header.seed.is_some();
    for i in 0..file.len().max(ours.len()) {
        let (n, diff) = match (file.get(i), ours.get(i)) {
            (Some((n, a)), Some(b)) => match first_difference(a, b, "") {
                Some((p, x, y)) => (*n, (if p.is_empty() { String::new() } else { format!(" ({p})") }, x, y)),
                None => continue,
            },
            (Some((n, a)), None) => (*n, (String::new(), a.to_string(), "nothing (the game is over)".to_owned())),
            (None, b) => (last, (String::new(), "nothing more".to_owned(), show(b))),
        };
        let e = ImportError::new(format!("line {n}{}", diff.0), mismatch(seeded, &diff.1, &diff.2));
        return Err(match round(n) {
            Some(r) => e.in_round(&r),
            None => e,
        });
    }
    Ok(())
}
