//! An imported log checked against its source.
//!
//! `paifu import` writes the source file itself into the log: the header's `meta.source` holds
//! its text, exactly as read (`source.digest` is its blake3). So the log carries what it was made
//! from, covered by the log's digest, and anyone holding the log alone can check it:
//! [`validate_bytes`] validates a log as the core validator does, and for an imported riichi log
//! that embeds its source also
//!
//! 1. requires `source.digest` to be the blake3 of the embedded text (`source_digest_mismatch`);
//! 2. imports the text again, as `paifu import` does, and requires the very header (the engine
//!    name apart) and the very records, claims included, that the log holds: the first
//!    difference is `source_mismatch` at that record (an edited dora indicator, a draw, a claimed
//!    score);
//! 3. reports the source's own scoring that differs from Paifu's (a win's han, fu, yaku or
//!    liable seat, a hand's starting scores, the final results after uma), which `paifu import`
//!    reports and a log has no claim for, as `claim_mismatch` at the record that ends the hand.
//!
//! The verdict is the first fault in the log's order: one of these, or the core validator's.
//! Logs without an embedded source (seeded games, and logs imported before sources were
//! embedded) are validated by the core validator alone.

use super::to_log::{digest_fault, Imported};
use super::{mjai, mjlog, tenhou6, ImportError};
use paifu_core::log::{self, Header, Log, Positions, Record, Source};
use paifu_core::replay::{self, Report, Verdict};
use paifu_core::riichi::{Action, Riichi};
use paifu_core::{ErrorCode, Fault, Game, GameKind};

use super::to_log::META_KEY;

/// The source an imported log embeds: its source block and the text (`meta.source`).
pub fn embedded(h: &Header) -> Option<(&Source, &str)> {
    Some((h.source.as_ref()?, h.meta.get(META_KEY)?.as_str()))
}

/// Imports a source of a log header's `source.format` (`tenhou6`, `mjlog`, `mjai`), read as an
/// excerpt when `excerpt` says the log was (`paifu import --excerpt`: the reading asked for).
fn import_as(format: &str, text: &str, excerpt: bool) -> Result<Imported, ImportError> {
    match format {
        "tenhou6" => tenhou6::import_read(text, text.as_bytes(), excerpt),
        // `paifu import` gives mjlog records no id (they carry none).
        "mjlog" => mjlog::import_read(text, text.as_bytes(), "", excerpt),
        "mjai" => mjai::import_read(text, text.as_bytes(), excerpt),
        other => Err(ImportError::new("source.format", format!("{other:?} is not a format Paifu imports"))),
    }
}

/// A value for a message (`import::brief`, 60 characters).
fn brief(v: &impl serde::Serialize) -> String {
    super::brief(v, 60)
}

/// The first header field (the engine name apart, which says what wrote the log, not what was
/// played) in which the log differs from what its source gives.
fn header_difference(log: &Header, src: &Header) -> Option<String> {
    let differ = |field: &str, a: String, b: String| {
        (a != b).then(|| format!("the header's {field} is {a}, but its embedded source gives {b}"))
    };
    differ("paifu", brief(&log.paifu), brief(&src.paifu))
        .or_else(|| differ("game", brief(&log.game), brief(&src.game)))
        .or_else(|| differ("ruleset", brief(&log.ruleset), brief(&src.ruleset)))
        .or_else(|| differ("options", brief(&log.options), brief(&src.options)))
        .or_else(|| differ("seats", brief(&log.seats), brief(&src.seats)))
        .or_else(|| differ("seed", brief(&log.seed), brief(&src.seed)))
        .or_else(|| differ("commitment", brief(&log.commitment), brief(&src.commitment)))
        .or_else(|| differ("source", brief(&log.source), brief(&src.source)))
        .or_else(|| {
            let keys = log.meta.keys().chain(src.meta.keys());
            // A log imported before Paifu rebuilt Tenhou's walls does not say its wall was checked
            // (`meta.wall`): it claims less, and its source's wall is checked all the same.
            let unclaimed = |k: &str| k == mjlog::WALL_KEY && !log.meta.contains_key(k);
            keys.filter(|k| log.meta.get(*k) != src.meta.get(*k) && !unclaimed(k))
                .map(|k| differ(&format!("meta.{k}"), brief(&log.meta.get(k)), brief(&src.meta.get(k))))
                .next()
                .flatten()
        })
}

/// What a record says, for a message: its seat, action and claim.
fn show(r: &Record<Action>) -> String {
    let claim = r.claim.as_ref().map(|c| format!(" claiming {}", log::json_object(c))).unwrap_or_default();
    format!("seat {} {}{claim}", r.seat, r.action)
}

/// A fault at record `i` of the log, in the round record `i` is played in.
fn at_record(log: &Log<Action>, i: usize, pos: &Positions, code: ErrorCode, message: String) -> Fault {
    let mut f = Fault::new(code, message).at_index(i);
    f.line = pos.line_of(i);
    f.round = round_at(log, i);
    let rec = log.records.get(i);
    if let Some(r) = rec {
        f.seat = Some(r.seat);
        f.action = Some(r.action.to_string());
    }
    f
}

/// The round (1-based) record `i` of the log is played in: the state's after the records before
/// it (`None` when they do not replay).
fn round_at(log: &Log<Action>, i: usize) -> Option<u32> {
    let state: Riichi = match i.checked_sub(1) {
        None => replay::setup(&log.header).ok()?,
        Some(upto) => replay::replay(log, &Positions::default(), Some(upto)).ok()?.0,
    };
    Some(state.round())
}

/// Checks an imported riichi log against the source it embeds (the module's doc): the first
/// fault found, `None` when the log is what its source gives or embeds no source.
pub(crate) fn check_log(log: &Log<Action>, pos: &Positions) -> Option<Fault> {
    let (src, text) = embedded(&log.header)?;
    if let Some(f) = digest_fault(src, text) {
        return Some(f);
    }
    let excerpt = super::to_log::is_excerpt(&log.header);
    let imp = match import_as(&src.format, text, excerpt) {
        Ok(imp) => imp,
        // A Tenhou record whose own seed does not make its deals (mjlog/wall.rs).
        Err(e) if mjlog::is_wall_mismatch(&e) => {
            let what = e.message.strip_prefix("wall_mismatch: ").unwrap_or(&e.message).to_owned();
            let e = ImportError { message: what, ..e };
            return Some(Fault::new(
                ErrorCode::WallMismatch,
                format!("the source the log embeds ({}) is not what its own seed deals: {e}", src.format),
            ));
        }
        Err(e) => {
            return Some(Fault::new(
                ErrorCode::SourceMismatch,
                format!("the source the log embeds ({}) cannot be imported: {e}", src.format),
            ))
        }
    };
    if let Some(why) = header_difference(&log.header, &imp.log.header) {
        return Some(Fault::new(ErrorCode::SourceMismatch, why));
    }
    let (ours, theirs) = (&log.records, &imp.log.records);
    let place = |i: usize| imp.positions.get(i).map(|p| format!(" ({p})")).unwrap_or_default();
    for i in 0..ours.len().max(theirs.len()) {
        let message = match (ours.get(i), theirs.get(i)) {
            (Some(a), Some(b)) if a == b => continue,
            (Some(a), Some(b)) => {
                format!("the log has {}, but its embedded source gives {}{}", show(a), show(b), place(i))
            }
            (Some(a), None) => {
                format!("the log has {}, but its embedded source ends after {} records", show(a), theirs.len())
            }
            (None, b) => format!(
                "the log ends after {} records, but its embedded source goes on with {}{}",
                ours.len(),
                b.map(show).unwrap_or_default(),
                place(i)
            ),
        };
        return Some(at_record(log, i, pos, ErrorCode::SourceMismatch, message));
    }
    imp.mismatches.first().map(|m| {
        let what = m.error.message.strip_prefix("claim_mismatch: ").unwrap_or(&m.error.message);
        let e = ImportError { message: what.to_owned(), ..m.error.clone() };
        at_record(
            log,
            m.record,
            pos,
            ErrorCode::ClaimMismatch,
            format!("the embedded source's own scoring differs from Paifu's: {e}"),
        )
    })
}

/// The excerpt reading of an imported riichi log that is a whole game stopping early (`paifu
/// validate --excerpt`): the same log with the option `excerpt: true`, in the same encoding;
/// `None` for a log that is not an imported riichi game, or already says it is an excerpt. Its
/// records and source are the log's; its header (and so its digest) says what it is read as.
pub fn as_excerpt(bytes: &[u8]) -> Option<Vec<u8>> {
    let (mut l, _) = log::decode::<Action>(bytes).ok()?;
    if l.header.game != "riichi" || l.header.source.is_none() || super::to_log::is_excerpt(&l.header) {
        return None;
    }
    l.header.options.insert("excerpt".into(), log::OptValue::Bool(true));
    Some(log::encode(&l, log::Encoding::sniff(bytes)))
}

/// Whether fault `f` comes before `g` in the log: a fault of the header before any record's.
fn before(f: &Fault, g: &Fault) -> bool {
    f.index.map_or(0, |i| i + 1) < g.index.map_or(0, |i| i + 1)
}

/// Validates a log of any game, as `paifu_core::replay::validate_bytes` does, and checks an
/// imported riichi log that embeds its source against it ([`check_log`]; an imported MCR log
/// likewise, `mcr::source::check_log`). The report is the core
/// validator's, with the verdict replaced by the source's fault when that comes first in the
/// log (at the same record, the core validator's fault is kept).
///
/// This is the one function `paifu validate`, `paifu sign`, `paifu verify` and whoever stores
/// logs call.
pub fn validate_bytes(bytes: &[u8]) -> Report {
    let mut report = paifu_core::replay::validate_bytes(bytes);
    if let (Some(header), Some(_)) = (&report.header, &report.digest) {
        report.verdict = checked_against_source(header, bytes, report.verdict.clone());
    }
    report
}

/// `verdict` (the core validator's on the log `bytes` with this header) with the embedded
/// source's fault instead when the log is an imported riichi or MCR log that embeds its source and
/// the source's fault comes first. Any other log's verdict comes back as it was.
pub(crate) fn checked_against_source(header: &Header, bytes: &[u8], verdict: Verdict) -> Verdict {
    if embedded(header).is_none() {
        return verdict;
    }
    let found = match GameKind::from_name(&header.game) {
        Some(GameKind::Riichi) => log::decode::<Action>(bytes).ok().and_then(|(l, p)| check_log(&l, &p)),
        Some(GameKind::Mcr) => {
            log::decode::<paifu_core::mcr::Action>(bytes).ok().and_then(|(l, p)| super::mcr::source::check_log(&l, &p))
        }
        _ => None,
    };
    match found {
        Some(f) if verdict.fault().is_none_or(|g| before(&f, g)) => Verdict::Invalid(f),
        _ => verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::to_log::embeddable;

    #[test]
    fn a_source_is_embedded_only_when_it_fits_a_header_line() {
        assert_eq!(embeddable(b"{\"log\":[]}"), Some("{\"log\":[]}"));
        assert_eq!(embeddable(b""), None);
        assert_eq!(embeddable(b"\xff"), None, "not UTF-8");
        let max = crate::import::to_log::MAX_SOURCE_BYTES as usize;
        assert!(embeddable(&vec![b'x'; max]).is_some());
        assert_eq!(embeddable(&vec![b'x'; max + 1]), None, "past the limit");
        // Escaping makes a string of control characters six times as long: it does not fit.
        assert_eq!(embeddable(&vec![1u8; max]), None);
        // Half of it quotes (an mjai log is about a quarter): escaped 1.5 times as long, it fits.
        assert!(embeddable("x\"".repeat(max / 2).as_bytes()).is_some());
    }

    #[test]
    fn the_first_fault_in_the_log_wins() {
        let at = |i: Option<usize>| Fault { index: i, ..Fault::new(ErrorCode::SourceMismatch, "x") };
        assert!(before(&at(None), &at(Some(0))));
        assert!(before(&at(Some(3)), &at(Some(4))));
        assert!(!before(&at(Some(4)), &at(Some(4))), "at one record the core validator's fault is kept");
        assert!(!before(&at(Some(0)), &at(None)));
    }
}
