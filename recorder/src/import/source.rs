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

use super::positions::PosMap;
use super::record::Game;
use super::to_log::{self, digest_fault, embedded_source, Derive, Derived, Ends, META_KEY};
use super::{mjai, mjlog, tenhou6, ImportError};
use paifu_core::log::{self, Claim, Header, Record};
use paifu_core::replay::{self, Report, Verdict, Watch};
use paifu_core::riichi::{Action, Riichi};
use paifu_core::{ErrorCode, Fault, Game as _, GameKind};

/// What the header of a log imported from a source says of it beyond its game (an mjlog
/// record's checked wall, `meta.wall`).
type Meta = Option<(String, String)>;

/// Reads a source of a log header's `source.format` (`tenhou6`, `mjlog`, `mjai`) as `paifu
/// import` reads a file of that format: its game in the record model, where its places are in
/// the source, and what the header says of it beyond the game; read as an excerpt when
/// `excerpt` says the log was (`paifu import --excerpt`).
fn read_as(format: &str, text: &str, excerpt: bool) -> Result<(Game, PosMap, Meta), ImportError> {
    match format {
        "tenhou6" => tenhou6::parse(text).map(|g| (g, PosMap::default(), None)),
        // `paifu import` gives mjlog records no id (they carry none).
        "mjlog" => mjlog::read_game(text, "", excerpt).map(|r| {
            let meta = r.meta();
            (r.game, r.pm, meta)
        }),
        "mjai" => mjai::read_game(text).map(|(g, pm)| (g, pm, None)),
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

/// Whether the log's header is the one its source gives (`expected`, made without the source
/// text, which the log's `meta.source` is: a source that fits a header is embedded in it),
/// the engine name apart. Compared field by field; the message is written only for a difference.
/// A log imported before Paifu rebuilt Tenhou's walls does not say its wall was checked
/// (`meta.wall`): it claims less, and its source's wall is checked all the same.
fn same_header(log: &Header, expected: &Header, text: &str) -> bool {
    let meta_but_source = log.meta.iter().filter(|(k, _)| *k != META_KEY);
    let unclaimed = |k: &str| k == mjlog::WALL_KEY && !log.meta.contains_key(k);
    let expected_meta = expected.meta.iter().filter(|(k, _)| !unclaimed(k));
    log.paifu == expected.paifu
        && log.game == expected.game
        && log.ruleset == expected.ruleset
        && log.options == expected.options
        && log.seats == expected.seats
        && log.seed == expected.seed
        && log.commitment == expected.commitment
        && log.source == expected.source
        && to_log::embeddable(text.as_bytes()).is_some()
        && meta_but_source.eq(expected_meta)
}

/// What a record says, for a message: its seat, action and claim.
fn show(r: &Record<Action>) -> String {
    let claim = r.claim.as_ref().map(|c| format!(" claiming {}", log::json_object(c))).unwrap_or_default();
    format!("seat {} {}{claim}", r.seat, r.action)
}

/// A fault at record `index` of the log (`rec`, when the log has it), played in round `round`;
/// the validator adds the line it is on.
fn at_record(index: usize, rec: Option<&Record<Action>>, round: u32, code: ErrorCode, message: String) -> Fault {
    let mut f = Fault::new(code, message).at_index(index);
    f.round = Some(round);
    if let Some(r) = rec {
        f.seat = Some(r.seat);
        f.action = Some(r.action.to_string());
    }
    f
}

/// The claim the source gives the record `ends` describes: the hand's score changes, and at
/// the game's end the final scores it states; `None` when it gives neither.
fn claim_of(ends: Ends, final_scores: Option<&Vec<i64>>) -> Option<Claim> {
    let fin = final_scores.filter(|_| ends.game);
    (ends.round.is_some() || fin.is_some())
        .then(|| Claim { round: ends.round.map(|d| d.to_vec()), final_scores: fin.cloned() })
}

/// Whether a record's claim is `ends`' (the same as comparing with [`claim_of`], without
/// making it).
fn claim_is(c: Option<&Claim>, ends: Ends, final_scores: Option<&Vec<i64>>) -> bool {
    let fin = final_scores.filter(|_| ends.game).map(Vec::as_slice);
    match c {
        None => ends.round.is_none() && fin.is_none(),
        Some(c) => {
            (ends.round.is_some() || fin.is_some())
                && c.round.as_deref() == ends.round.as_ref().map(|d| &d[..])
                && c.final_scores.as_deref() == fin
        }
    }
}

/// An imported riichi log checked against the source it embeds in the same pass as its replay
/// (the module's doc): each record derived from the source in the state the engine plays the
/// log's record in, and compared with it.
struct SourceCheck {
    format: String,
    game: Game,
    pm: PosMap,
    derive: Derive,
    /// What the source gives for the log's next record, derived in the state the engine plays
    /// it in (`None`: the source has no more).
    due: Option<Derived>,
    /// The source could not be read on to the log's next record: why.
    broken: Option<ImportError>,
    /// The round the log's next record is played in.
    round: u32,
}

impl SourceCheck {
    /// Reads the source a riichi log embeds and checks the header against it: the header's
    /// fault (the source's digest, a source that cannot be read, a header that differs) if it
    /// has one.
    fn new(h: &Header) -> Result<SourceCheck, Fault> {
        let mismatch = |m: String| Fault::new(ErrorCode::SourceMismatch, m);
        let Some((src, text)) = embedded_source(h) else {
            return Err(mismatch("the log embeds no source".into()));
        };
        if let Some(f) = digest_fault(src, text) {
            return Err(f);
        }
        let reading = to_log::Reading::of_header(h);
        let excerpt = reading.excerpt;
        let (mut game, pm, meta) = read_as(&src.format, text, excerpt).map_err(|e| {
            if mjlog::is_wall_mismatch(&e) {
                // A Tenhou record whose own seed does not make its deals (mjlog/wall.rs).
                let what = e.message.strip_prefix("wall_mismatch: ").unwrap_or(&e.message).to_owned();
                let e = ImportError { message: what, ..e };
                return Fault::new(
                    ErrorCode::WallMismatch,
                    format!("the source the log embeds ({}) is not what its own seed deals: {e}", src.format),
                );
            }
            mismatch(format!("the source the log embeds ({}) cannot be imported: {e}", src.format))
        })?;
        if game.paifu.is_some() {
            // Importing such a file gives the log it embeds (embedded/), whose header would have
            // to hold this very text, which holds that header: never the log's.
            return Err(mismatch(format!(
                "the source the log embeds ({}) carries a Paifu log of its own (\"paifu\"), which a log imported from \
                 it is; that log's header cannot hold this very source",
                src.format
            )));
        }
        reading.apply(&mut game);
        let mut expected = to_log::bare_header(&src.format, &game, src.digest, excerpt);
        expected.meta.extend(meta);
        if let Some(c) = to_log::computed_note(&game) {
            expected.meta.insert(to_log::COMPUTED_KEY.into(), c);
        }
        if !same_header(h, &expected, text) {
            if let Some(t) = to_log::embeddable(text.as_bytes()) {
                expected.meta.insert(META_KEY.into(), t.to_owned());
            }
            let why = header_difference(h, &expected)
                .unwrap_or_else(|| "the header differs from what its embedded source gives".into());
            return Err(mismatch(why));
        }
        let mut check = SourceCheck {
            format: src.format.clone(),
            game,
            pm,
            derive: Derive::new(),
            due: None,
            broken: None,
            round: 0,
        };
        // The first record is derived in the game the header sets up (a header the engine
        // refuses is the validator's fault, and no record is played).
        if let Ok(start) = replay::setup::<Riichi>(h) {
            check.derive_next(&start, 0);
        }
        Ok(check)
    }

    /// Derives what the source gives for record `index`, due in `state`.
    fn derive_next(&mut self, state: &Riichi, index: usize) {
        self.round = state.round();
        match self.derive.next(&self.game, state, index) {
            Ok(d) => self.due = d,
            Err(e) => {
                self.due = None;
                self.broken = Some(e);
            }
        }
    }

    /// The fault of a source that cannot be imported (found while deriving its records).
    fn unreadable(&self, e: ImportError) -> Fault {
        let e = self.pm.error(e);
        Fault::new(
            ErrorCode::SourceMismatch,
            format!("the source the log embeds ({}) cannot be imported: {e}", self.format),
        )
    }

    /// A derived record as a record, with the claim it ends with, for a message.
    fn record_of(&self, index: usize, d: Derived, claim: Option<Claim>) -> (Record<Action>, String) {
        let (seat, action, pos) = d;
        (Record { seq: index as u32, seat, action, claim }, self.pm.map_pos(pos))
    }
}

impl Watch<Riichi> for SourceCheck {
    fn record(&mut self, index: usize, rec: &Record<Action>, state: &Riichi) -> Result<(), Fault> {
        if let Some(e) = self.broken.take() {
            return Err(self.unreadable(e));
        }
        let mismatch = |m: String| at_record(index, Some(rec), self.round, ErrorCode::SourceMismatch, m);
        let Some(d) = &self.due else {
            return Err(mismatch(format!(
                "the log has {}, but its embedded source ends after {index} records",
                show(rec)
            )));
        };
        if rec.seat != d.0 || rec.action != d.1 {
            let (theirs, place) = self.record_of(index, d.clone(), None);
            return Err(mismatch(format!(
                "the log has {}, but its embedded source gives {} ({place})",
                show(rec),
                show(&theirs)
            )));
        }
        let ends = self.derive.played(&self.game, state, index).map_err(|e| self.unreadable(e))?;
        let final_scores = self.game.final_scores.as_ref();
        if !claim_is(rec.claim.as_ref(), ends, final_scores) {
            let (theirs, place) = self.record_of(index, d.clone(), claim_of(ends, final_scores));
            return Err(mismatch(format!(
                "the log has {}, but its embedded source gives {} ({place})",
                show(rec),
                show(&theirs)
            )));
        }
        if let Some(m) = self.derive.mismatches.first() {
            let e = self.pm.error(m.error.clone());
            let what = e.message.strip_prefix("claim_mismatch: ").unwrap_or(&e.message).to_owned();
            let e = ImportError { message: what, ..e };
            return Err(at_record(
                index,
                Some(rec),
                self.round,
                ErrorCode::ClaimMismatch,
                format!("the embedded source's own scoring differs from Paifu's: {e}"),
            ));
        }
        self.derive_next(state, index + 1);
        Ok(())
    }

    fn end(&mut self, records: usize, state: &Riichi) -> Result<(), Fault> {
        // A log that stops before its game is over is the validator's fault (truncated), which
        // says more than that the source goes on; an excerpt may stop at any hand's end.
        if !state.is_over() && state.excerpt().is_none() {
            return Ok(());
        }
        if let Some(e) = self.broken.take() {
            return Err(self.unreadable(e));
        }
        match &self.due {
            None => Ok(()),
            Some(d) => {
                let (theirs, place) = self.record_of(records, d.clone(), None);
                Err(at_record(
                    records,
                    None,
                    state.round(),
                    ErrorCode::SourceMismatch,
                    format!(
                        "the log ends after {records} records, but its embedded source goes on with {} ({place})",
                        show(&theirs)
                    ),
                ))
            }
        }
    }
}

/// The report with the header's fault `f` (of the check against the source) as its verdict when
/// the whole log was read and `f` comes before the validator's own fault.
fn with_header_fault(mut report: Report, f: Fault) -> Report {
    if report.digest.is_some() && report.verdict.fault().is_none_or(|g| before(&f, g)) {
        report.verdict = Verdict::Invalid(f);
    }
    report
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
/// imported riichi log that embeds its source against it, in the same pass (the module's doc;
/// an imported MCR log likewise, after it: `mcr::source::check_log`). The verdict is the first
/// fault in the log: the source's or the core validator's (at the same record, the core
/// validator's).
///
/// This is the one function `paifu validate`, `paifu sign`, `paifu verify` and whoever stores
/// logs call.
pub fn validate_bytes(bytes: &[u8]) -> Report {
    let reader = match log::open(bytes) {
        Ok(r) => r,
        Err(f) => return Report { header: None, digest: None, records: 0, verdict: Verdict::Invalid(f) },
    };
    let h = reader.header();
    if embedded_source(h).is_some() && h.game == GameKind::Mcr.name() {
        let mut report = replay::validate_bytes(bytes);
        if let (Some(header), Some(_)) = (&report.header, &report.digest) {
            let verdict = report.verdict.clone();
            report.verdict = checked_against_source(header, bytes, || verdict);
        }
        return report;
    }
    // Bytes in memory cannot fail to be read.
    validate_reader(reader).unwrap_or_else(|e| Report {
        header: None,
        digest: None,
        records: 0,
        verdict: Verdict::Invalid(Fault::new(ErrorCode::BadEncoding, format!("the log could not be read: {e}"))),
    })
}

/// Whether [`validate_reader`] checks the log with this header as [`validate_bytes`] would: every
/// log but an imported MCR log that embeds its source (its source check needs the log whole).
pub fn streams(header: &Header) -> bool {
    embedded_source(header).is_none() || header.game != GameKind::Mcr.name()
}

/// [`validate_bytes`] for a log being read, whose header is read: the records are checked as they
/// are read (an imported riichi log against its embedded source in the same pass), none kept, so
/// that a file is read once. For a log [`streams`] refuses, the core validator's report alone:
/// ask [`validate_bytes`] instead. Only a failing reader is an error.
pub fn validate_reader<R: std::io::BufRead>(mut reader: log::LogReader<R>) -> std::io::Result<Report> {
    let h = reader.header();
    if embedded_source(h).is_none() || h.game != GameKind::Riichi.name() {
        return replay::validate_reader(reader);
    }
    match SourceCheck::new(h) {
        Ok(mut check) => {
            let (digest, records, verdict) = replay::validate_records::<Riichi, _>(&mut reader, &mut check)?;
            Ok(Report { header: Some(reader.into_header()), digest, records, verdict })
        }
        Err(f) => Ok(with_header_fault(replay::validate_reader(reader)?, f)),
    }
}

/// The verdict on the log `bytes` with this header: `verdict()` (the core validator's), with the
/// embedded source's fault instead when the log is an imported MCR log that embeds its source and
/// the source's fault comes first. An imported riichi log that embeds its source is checked
/// against it in the same pass as its replay (`validate_bytes`), and `verdict` is not asked for:
/// the log is replayed once. Any other log's verdict is `verdict()`.
pub(crate) fn checked_against_source(header: &Header, bytes: &[u8], verdict: impl FnOnce() -> Verdict) -> Verdict {
    if embedded_source(header).is_none() {
        return verdict();
    }
    let found = match GameKind::from_name(&header.game) {
        // The check is made in the replay: the verdict is the one both give.
        Some(GameKind::Riichi) => return validate_bytes(bytes).verdict,
        Some(GameKind::Mcr) => {
            log::decode::<paifu_core::mcr::Action>(bytes).ok().and_then(|(l, p)| super::mcr::source::check_log(&l, &p))
        }
        _ => None,
    };
    let verdict = verdict();
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
