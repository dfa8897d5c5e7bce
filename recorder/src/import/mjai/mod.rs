//! mjai JSON Lines event logs: the events are read (read.rs, where the format is described; the
//! usual lines by hand, draws and discards there and every other event in scan.rs),
//! gathered into the record model (to_record.rs) and converted by the one converter (to_log/);
//! positions are mapped back to the mjai lines. Any riichi log is written as full-information
//! mjai (write.rs).

mod dialect;
pub(crate) mod read;
mod scan;
mod to_record;
mod wall;
pub(crate) mod write;

pub use write::export;
use write::export_as;

use super::embedded::{self, first_difference, mismatch, show};
use super::positions::PosMap;
use super::record::Game;
use super::tenhou6::Style;
use super::to_log::{self, Imported};
use super::ImportError;
use paifu_core::log::Log;
use paifu_core::riichi::Action;
use read::{Event, Line};
use serde_json::Value;

/// Imports an mjai log. `bytes` are the file's bytes (for the digest). A file that embeds a Paifu
/// log (`paifu export mjai` writes one) gives that log (embedded/).
pub fn import(text: &str, bytes: &[u8]) -> Result<Imported, ImportError> {
    import_read(text, bytes, to_log::Reading::default())
}

/// [`import`], read as an excerpt when `excerpt` asks for it (to_log::header).
pub(crate) fn import_read(text: &str, bytes: &[u8], read: to_log::Reading) -> Result<Imported, ImportError> {
    let lines = read::parse_with(text, scan::event)?;
    let (mut g, pm) = to_record::to_game(&lines)?;
    read.apply(&mut g);
    let excerpt = read.excerpt;
    let Some(v) = &g.paifu else {
        let h = to_log::header("mjai", &g, bytes, excerpt);
        return to_log::convert(&g, h, &pm);
    };
    let start = lines.iter().find(|l| matches!(l.event, Event::StartGame { .. })).map_or(1, |l| l.line);
    let e = embedded::read(v).map_err(|m| ImportError::new(format!("line {start}"), m.to_string()))?;
    let imp = embedded::rebuild(&g, &e).map_err(|e| pm.error(e))?.located(&pm);
    check_export(text, &lines, &imp.log)?;
    Ok(imp)
}

/// Reads an mjai log into the record model, with where its places are in the file.
pub(crate) fn read_game(text: &str) -> Result<(Game, PosMap), ImportError> {
    to_record::to_game(&read::parse_with(text, scan::event)?)
}

/// Checks that an mjai file is exactly the mjai export of the log rebuilt from it (blank lines
/// and `none` events apart).
fn check_export(text: &str, lines: &[Line], log: &Log<Action>) -> Result<(), ImportError> {
    let file: Vec<(usize, Value)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, serde_json::from_str(l).unwrap_or(Value::Null)))
        .filter(|(_, v)| v["type"] != "none")
        .map(|(n, mut v)| {
            // Exports before issue 15 named the ura indicators `uradora_markers`.
            if let Some(o) = v.as_object_mut().filter(|o| !o.contains_key("ura_markers")) {
                if let Some(u) = o.remove("uradora_markers") {
                    o.insert("ura_markers".into(), u);
                }
            }
            (n, v)
        })
        .collect();
    // The export as written now, or (a double ron's split) as written before issue 15; a
    // difference is named against the first.
    let mut first = None;
    for style in [Style::Tenhou, Style::Before16] {
        let out = export_as(log, style).map_err(|m| ImportError::new("line 1", m.to_string()))?;
        let ours: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap_or(Value::Null)).collect();
        match first_line_difference(&file, &ours, lines, log.header.seed.is_some()) {
            None => return Ok(()),
            Some(e) => {
                first.get_or_insert(e);
            }
        }
    }
    Err(first.unwrap_or_else(|| ImportError::new("line 1", "the file does not match the Paifu log it embeds")))
}

/// The first line where the file differs from the export (`ours`), as the error that names it.
fn first_line_difference(file: &[(usize, Value)], ours: &[Value], lines: &[Line], seeded: bool) -> Option<ImportError> {
    let last = file.last().map_or(1, |(n, _)| *n);
    let round = |n: usize| lines.iter().rev().filter(|l| l.line <= n).find_map(|l| read::round_of(&l.event));
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
        return Some(match round(n) {
            Some(r) => e.in_round(&r),
            None => e,
        });
    }
    None
}

/// Texts made from `line` by dropping one byte, and by putting each byte of `alphabet` in place
/// of one byte and before it (the hand readers' tests: whatever they read of these, the JSON
/// reading must read the same).
#[cfg(test)]
fn byte_variants(line: &str, alphabet: &[u8]) -> Vec<String> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    for i in 0..b.len() {
        out.push([&b[..i], &b[i + 1..]].concat());
        for &c in alphabet {
            out.push([&b[..i], &[c], &b[i + 1..]].concat());
            out.push([&b[..i], &[c], &b[i..]].concat());
        }
    }
    out.into_iter().filter_map(|v| String::from_utf8(v).ok()).collect()
}

/// The event of `raw` read as JSON, the readers' yardstick (`Err` when it is refused, `Ok(None)`
/// for no event).
#[cfg(test)]
fn as_json(raw: &str) -> Result<Option<read::Event>, String> {
    read::read_event(&mut crate::import::json::Doc::default(), raw, 1).map_err(|e| e.to_string())
}

/// Every line of the 31 real games as `paifu export mjai` writes them.
#[cfg(test)]
fn real_lines() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-logs/tenhou");
    let mut lines = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "json") || p.ends_with("manifest.json") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let imp = crate::import::import_with("tenhou", &text, text.as_bytes(), Default::default()).unwrap();
        lines.extend(export(&imp.log).unwrap().lines().map(str::to_owned));
    }
    lines
}
