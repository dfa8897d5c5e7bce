//! The Paifu log a `paifu export` embeds in its file, so that importing the export gives the very
//! log that was exported (the same digest).
//!
//! The export writes, as the top-level key `paifu` of tenhou.net/6 JSON or the field `paifu` of
//! mjai's `start_game`, an object `{"header", "order", "claims", "calls"}`: the log's header as its JSON
//! Lines header object (seed included when the log has one), the seat of every record as a string
//! of digits (`"0000123..."`: the order in which seats answered each claim window, which the
//! source formats do not keep), every record's claim as `[index, claim]` and every chi, pon and
//! open kan answer as `[index, action]` (a call that a pon or ron overrode is not in the source).
//!
//! The importer still plays the file through the engine in imported mode (every tile is checked
//! as usual), then:
//! - for a seeded log (the header has a seed) it keeps only the decisions (no deal, draw, dora or
//!   ura records) and checks, by replaying them on the seed, that the seed deals the starting
//!   hands and first indicators the file shows;
//! - it puts each claim window's answers in the embedded order, and the embedded claims on the
//!   records;
//! - the format's importer writes the rebuilt log out again in the file's format and requires the
//!   file to be exactly that (as JSON values, so spacing and key order are free): every tile, draw, indicator, name,
//!   rule and result of the file is what the embedded header (and seed) and the decisions give.
//!   The first difference is an import error naming the round and the position.

mod compare;
mod rebuild;

pub(crate) use compare::{first_difference, mismatch, show};
pub(crate) use rebuild::rebuild;

use paifu_core::log::{self, Claim, Header, Log};
use paifu_core::riichi::Action;
use serde_json::{json, Value};

/// The embedded log, read.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Embedded {
    pub(crate) header: Header,
    /// The seat of each record, in order.
    pub(crate) order: Vec<u8>,
    /// `(record index, claim)` for every record with a claim.
    pub(crate) claims: Vec<(usize, Claim)>,
    /// `(record index, action)` for every chi, pon and open kan answer.
    pub(crate) calls: Vec<(usize, Action)>,
}

/// The object an export embeds for a log.
pub(crate) fn write(log: &Log<Action>) -> Value {
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
pub(crate) fn read(v: &Value) -> Result<Embedded, String> {
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
