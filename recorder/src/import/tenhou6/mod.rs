//! tenhou.net/6 JSON game records (the format of Tenhou's own viewer and of mjai-reviewer): read
//! into the record model (read.rs), imported, and written from any riichi log (write.rs).
//!
//! A record is an object `{ "ver", "ref", "rule": {"disp", "aka"}, "name": [4], "sc": [8],
//! "log": [rounds] }`. A round is an array: `[kyoku, honba, riichi sticks]`, the four starting
//! scores, the dora indicators, the ura indicators, then for each seat (0 to 3) its 13 starting
//! tiles, its takes and its discards, and last the result.
//!
//! Tiles are codes: 11-19 characters (m), 21-29 circles (p), 31-39 bamboo (s), 41-47 East South
//! West North White Green Red, 51 52 53 the red fives of m p s. Takes are drawn tiles or call
//! strings: `c275226` (chi of 27 with 52 26, always from the left), `p`/`m` (pon, open kan)
//! written before the called tile at the position of the seat it came from (0 left, 2 across,
//! 4 right for pon; 0, 2, 6 for open kan). Discards are tiles, 60 for the drawn tile
//! (tsumogiri), `r` + tile for a riichi discard (`r60` tsumogiri), `k` (added kan) and `a`
//! (closed kan) strings, and 0 where a call left no discard. A result is `["和了", deltas,
//! [who, from, pao, "text", yaku...], ...]` for wins (several for a double ron), `["流局",
//! deltas]`, `["流し満貫", deltas]`, or an abortive draw name alone.

mod quick;
mod read;
mod write;

pub use write::export;
pub(crate) use write::{abort_name, export_as, Style};

use super::embedded::{self, first_difference, mismatch};
use super::positions::PosMap;
use super::record::Game;
use super::to_log::{self, Imported};
use super::ImportError;
use paifu_core::ErrorCode;
use serde_json::Value;

/// Parses a tenhou.net/6 JSON record.
///
/// A record written in the plain form Tenhou writes is read in one pass (quick.rs: its rounds
/// straight into the record model); any other text, and every text with a fault, is read through
/// a document of the whole text (read.rs), which gives the same game (test
/// `the_quick_reading_is_the_full_reading`) and writes the errors.
pub fn parse(text: &str) -> Result<Game, ImportError> {
    match quick::game(text) {
        Some(g) => Ok(g),
        None => read::full(text),
    }
}

/// Imports a tenhou.net/6 record. `bytes` are the file's bytes (for the header's digest). A file
/// that embeds a Paifu log (`paifu export` writes one) gives that log (embedded/).
pub fn import(text: &str, bytes: &[u8]) -> Result<Imported, ImportError> {
    import_read(text, bytes, to_log::Reading::default())
}

/// [`import`], read as an excerpt when `excerpt` asks for it (to_log::header).
pub(crate) fn import_read(text: &str, bytes: &[u8], read: to_log::Reading) -> Result<Imported, ImportError> {
    let mut g = parse(text)?;
    read.apply(&mut g);
    let excerpt = read.excerpt;
    let Some(v) = &g.paifu else {
        let imp = to_log::convert(&g, to_log::header("tenhou6", &g, bytes, excerpt), &PosMap::default())?;
        if excerpt || g.final_scores.is_some() || !stops_early(&imp) {
            return Ok(imp);
        }
        // A record that states no final scores (no `sc`) and stops before the game is over, such
        // as the first round of a game copied from Tenhou's viewer: it claims no whole game, so
        // it is read as an excerpt of an unknown game (as `--excerpt` would), not as a truncated
        // game. The log's header says so, and the source check reads it the same way.
        return to_log::convert(&g, to_log::header("tenhou6", &g, bytes, true), &PosMap::default());
    };
    let e = embedded::read(v).map_err(|m| ImportError::new("paifu", m.to_string()))?;
    let imp = embedded::rebuild(&g, &e)?;
    let file: Value = serde_json::from_slice(bytes).map_err(|err| ImportError::new("", err.to_string()))?;
    // The file must be the export of the log it embeds, as Tenhou writes it or as Paifu's exports
    // before issue 15 wrote it; a difference is named against the first.
    let mut first = None;
    for style in [Style::Tenhou, Style::Before16] {
        let out = export_as(&imp.log, style).map_err(|m| ImportError::new("paifu", m.to_string()))?;
        let out: Value = serde_json::from_str(&out).map_err(|err| ImportError::new("", err.to_string()))?;
        match first_difference(&file, &out, "") {
            None => return Ok(imp),
            Some(d) => {
                first.get_or_insert(d);
            }
        }
    }
    let (path, a, b) = first.unwrap_or_default();
    Err(g.error_at(&path, mismatch(e.header.seed.is_some(), &a, &b)))
}

/// Whether an imported log, every record of it accepted, stops before its game is over (the
/// validator's `truncated`).
fn stops_early(imp: &Imported) -> bool {
    imp.refused.is_none() && imp.verdict().fault().is_some_and(|f| f.code == ErrorCode::Truncated)
}
