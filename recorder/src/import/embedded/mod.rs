//! The Paifu log a `paifu export` embeds in its file, so that importing the export gives the very
//! log that was exported (the same digest).
//!
//! The export writes, as the top-level key `paifu` of tenhou.net/6 JSON or the field `paifu` of
//! mjai's `start_game`, an object `{"header", "order", "claims", "calls"}`: the log's header as
//! its JSON Lines header object (seed included when the log has one), the seat of every record as
//! a string of digits (`"0000123..."`: the order in which seats answered each claim window, which the
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
//!   file to be exactly that (as JSON values, so spacing and key order are free; compare.rs):
//!   every tile, draw, indicator, name, rule and result of the file is what the embedded header
//!   (and seed) and the decisions give. The first difference is an import error naming the round
//!   and the position.

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

/// The embedded object cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum EmbeddedError {
    #[error("\"paifu\" is not an object {{\"header\", \"order\", \"claims\", \"calls\"}}")]
    NotAnObject,
    #[error("unknown field {0:?} in \"paifu\"")]
    UnknownField(String),
    /// A field missing or not of its kind: `"header"`, `"order" string`, `"claims" list`, ...
    #[error("\"paifu\" has no {0}")]
    Missing(&'static str),
    /// The header is not a JSON Lines log header: the reader's message.
    #[error("paifu.header: {0}")]
    Header(String),
    #[error("paifu.header: the game is {0:?}, not riichi")]
    NotRiichi(String),
    #[error("paifu.order: seats are 0-3")]
    Order,
    /// An entry of `claims` or `calls` (`list`) that cannot be read, and why.
    #[error("paifu.{list}[{index}]: {why}")]
    Entry { list: &'static str, index: usize, why: String },
}

/// Reads the embedded object.
pub(crate) fn read(v: &Value) -> Result<Embedded, EmbeddedError> {
    let m = v.as_object().ok_or(EmbeddedError::NotAnObject)?;
    if let Some(k) = m.keys().find(|k| !["header", "order", "claims", "calls"].contains(&k.as_str())) {
        return Err(EmbeddedError::UnknownField(k.clone()));
    }
    let hv = m.get("header").ok_or(EmbeddedError::Missing("\"header\""))?;
    let header = log::read_jsonl_header(&hv.to_string()).map_err(|f| EmbeddedError::Header(f.message))?;
    if header.game != "riichi" {
        return Err(EmbeddedError::NotRiichi(header.game));
    }
    let order = m
        .get("order")
        .and_then(Value::as_str)
        .ok_or(EmbeddedError::Missing("\"order\" string"))?
        .bytes()
        .map(|b| if (b'0'..=b'3').contains(&b) { Ok(b - b'0') } else { Err(EmbeddedError::Order) })
        .collect::<Result<Vec<u8>, _>>()?;
    let list = |key: &'static str, what: &'static str| {
        m.get(key).and_then(Value::as_array).ok_or(EmbeddedError::Missing(what)).map(|a| a.iter().enumerate())
    };
    let mut claims = Vec::new();
    for (index, c) in list("claims", "\"claims\" list")? {
        let bad = |why: String| EmbeddedError::Entry { list: "claims", index, why };
        let (Some(i), Some(c)) = (c.get(0).and_then(Value::as_u64), c.get(1)) else {
            return Err(bad("a claim is [record index, claim]".into()));
        };
        let claim: Claim = serde_json::from_value(c.clone()).map_err(|e| bad(e.to_string()))?;
        claims.push((usize::try_from(i).map_err(|e| bad(e.to_string()))?, claim));
    }
    let mut calls = Vec::new();
    for (index, c) in list("calls", "\"calls\" list")? {
        let bad = |why: String| EmbeddedError::Entry { list: "calls", index, why };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::record::Game;
    use crate::import::to_log;

    fn header() -> Header {
        let names = ["A", "B", "C", "D"].map(String::from).to_vec();
        let g = Game {
            absent: Vec::new(),
            start_points: Some(25000),
            start_points_given: false,
            id: "g".into(),
            rule: "南喰赤".into(),
            red_fives: true,
            names,
            final_scores: None,
            final_results: None,
            rounds: Vec::new(),
            paifu: None,
        };
        to_log::header("tenhou6", &g, b"", false)
    }

    #[test]
    fn what_write_embeds_reads_back() {
        let log = Log { header: header(), records: Vec::new() };
        let e = read(&write(&log)).unwrap();
        assert_eq!(e, Embedded { header: log.header, order: Vec::new(), claims: Vec::new(), calls: Vec::new() });
    }

    #[test]
    fn each_fault_of_the_embedded_object_is_named() {
        let log = Log { header: header(), records: Vec::new() };
        let good = write(&log);
        let with = |k: &str, v: Value| {
            let mut x = good.clone();
            x[k] = v;
            read(&x).unwrap_err()
        };
        assert_eq!(read(&json!([1])).unwrap_err(), EmbeddedError::NotAnObject);
        assert_eq!(with("extra", json!(1)).to_string(), "unknown field \"extra\" in \"paifu\"",);
        let mut x = good.clone();
        x.as_object_mut().unwrap().remove("header");
        assert_eq!(read(&x).unwrap_err().to_string(), "\"paifu\" has no \"header\"");
        assert_eq!(with("order", json!("014")), EmbeddedError::Order);
        assert_eq!(with("claims", json!(3)).to_string(), "\"paifu\" has no \"claims\" list");
        assert_eq!(with("claims", json!([[0]])).to_string(), "paifu.claims[0]: a claim is [record index, claim]");
        assert_eq!(
            with("calls", json!([[0, "pon 4p 4p"], [1, "discard 1m"]])).to_string(),
            "paifu.calls[1]: discard 1m is not a chi, pon or open kan"
        );
        let mut h = good["header"].clone();
        h["game"] = json!("tzq");
        assert_eq!(with("header", h), EmbeddedError::NotRiichi("tzq".into()));
    }
}
