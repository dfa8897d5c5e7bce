//! Turning a game in the record model (read from any source) into a Paifu riichi log (an imported
//! game: no seed, the deals, draws and indicators are records), with the source's results as
//! claims.
//!
//! The conversion drives the riichi engine itself: it asks the engine who owes a decision and
//! answers from the source (each seat's next take or discard), so the records come out in the
//! global order of play, with an explicit `pass` for every seat that could have claimed a discard
//! and did not. When the engine refuses a record, the log ends with that record: the validator
//! then reports it as the first fault, at the right place. Positions are the record model's paths
//! (`log[r][k][i]`); each format maps them back to its own.

mod builder;
mod derive;
mod result;

pub(crate) use derive::{Derive, Derived, Ends};
pub(crate) use result::tenhou_results;

use super::positions::{Place, PosMap};
use super::record::{self, Game};
use super::{rules, ImportError};
use builder::Builder;
use paifu_core::log::{Header, Log, Options, Positions, Source, FORMAT_VERSION, MAX_ITEM_BYTES};
use paifu_core::replay::{validate_log, Verdict};
use paifu_core::riichi::{Action, ExcerptStart, Riichi};
use paifu_core::Digest;
use paifu_core::Game as _;
use std::collections::BTreeMap;

/// An imported game (riichi's, or with `A` another game's actions: MCR's, import/mcr/).
#[derive(Clone, Debug)]
pub struct Imported<A: paifu_core::log::Action = Action> {
    pub log: Log<A>,
    /// For each record, where it comes from in the source (a line, a byte, a JSON path).
    pub positions: Vec<Place>,
    /// The record the engine refused while importing (the log ends with it), and why.
    pub refused: Option<(usize, String)>,
    /// Where the source's own scoring differs from Paifu's (a win's han, fu, yaku or liable seat,
    /// a hand's starting scores, the final results after uma): the facts a `Claim` has no place
    /// for, reported like a `claim_mismatch`, with the round and the position in the source.
    pub mismatches: Vec<Mismatch>,
    /// The verdict of the log, when the import found it valid while it played the records with
    /// the validator's checks (`None`: [`Imported::verdict`] replays the log).
    pub(crate) verdict: Option<Verdict>,
}

/// One place where the source's own scoring differs from Paifu's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The record it is found at: the one that ends the hand (the last record for the final
    /// results, the hand's first for its starting scores).
    pub record: usize,
    /// The round, the position in the source and what differs (`claim_mismatch: ...`).
    pub error: ImportError,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl Imported {
    /// The validator's verdict on the log: the one found while importing when the import played
    /// every record with the validator's checks and found the log valid, or else the log
    /// replayed by the validator, which names the fault. The same verdict either way (tested
    /// on every real game, as tenhou.net/6 and as mjai: this module's tests).
    pub fn verdict(&self) -> Verdict {
        match &self.verdict {
            Some(v) => v.clone(),
            None => validate_log::<Riichi>(&self.log, &Positions::default()),
        }
    }

    /// The import with its records' and mismatches' places (record-model paths) written as the
    /// source's own positions.
    pub(crate) fn located(mut self, pm: &PosMap) -> Imported {
        for p in &mut self.positions {
            *p = pm.locate(std::mem::replace(p, Place::text("")));
        }
        for m in &mut self.mismatches {
            m.error.position = pm.map(&m.error.position);
        }
        self
    }
}

/// What the one importing a record states of it beyond the record (`paifu import --excerpt`,
/// `--start-points`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Read a record that starts as a whole game as an excerpt.
    pub excerpt: bool,
    /// Each seat's start points, overriding those of the rule set the record names.
    pub start_points: Option<i64>,
}

impl Reading {
    /// The reading a log's header states: its excerpt flag and its `start_points` option (the
    /// log's own statement of them, which its source is read again under).
    pub(crate) fn of_header(h: &Header) -> Reading {
        let start_points = match h.options.get("start_points") {
            Some(paifu_core::log::OptValue::Int(n)) => Some(*n),
            _ => None,
        };
        Reading { excerpt: is_excerpt(h), start_points }
    }

    /// The start points stated, put into the game read.
    pub(crate) fn apply(self, g: &mut Game) {
        if let Some(n) = self.start_points {
            g.start_points = Some(n);
            g.start_points_given = true;
        }
    }
}

/// The key of the header's `meta` that holds an imported log's source text.
pub(crate) const META_KEY: &str = "source";

/// The source an imported log embeds: its source block and the text (`meta.source`); `None`
/// for a log that embeds none.
pub fn embedded_source(h: &Header) -> Option<(&Source, &str)> {
    Some((h.source.as_ref()?, h.meta.get(META_KEY)?.as_str()))
}

/// The largest source file Paifu imports (512 KiB), and the default of `paifu import
/// --max-bytes`: a log's header line is at most 1 MiB ([`MAX_ITEM_BYTES`]) and holds the
/// source, escaped as a JSON string. Real games are far smaller (a tenhou.net/6 game about
/// 10 KiB, its mjai form about 100 KiB).
pub const MAX_SOURCE_BYTES: u64 = 512 << 10;

/// Room left in a header line for everything but the source (names, rules, the source block).
pub(crate) const HEADER_ROOM: usize = 64 << 10;

/// The source text to embed: the bytes when they are UTF-8 text of at most [`MAX_SOURCE_BYTES`]
/// that, escaped as JSON, leave the header line under [`MAX_ITEM_BYTES`]; `None` otherwise.
pub(crate) fn embeddable(bytes: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(bytes).ok().filter(|t| !t.is_empty())?;
    if text.len() as u64 > MAX_SOURCE_BYTES {
        return None;
    }
    // Escaping at most sextuples a text (`\u001f`): only a text that could then overflow the
    // line is measured exactly (real games never are).
    let fits = |len: usize| len + HEADER_ROOM <= MAX_ITEM_BYTES;
    (fits(6 * text.len() + 2) || fits(escaped_len(text))).then_some(text)
}

/// The length of a text written as a JSON string (quotes included), as serde_json writes it:
/// `"` and `\` and the control characters with short escapes take two bytes, the other control
/// characters six (`\u001f`), everything else itself.
fn escaped_len(text: &str) -> usize {
    2 + text
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..=0x1f => 6,
            _ => 1,
        })
        .sum::<usize>()
}

/// blake3 of a source file's bytes.
pub fn source_digest(bytes: &[u8]) -> Digest {
    Digest(*blake3::hash(bytes).as_bytes())
}

/// The `source_digest_mismatch` fault of a log whose embedded source `text` does not have the
/// digest its source block `src` states; `None` when it has.
pub(crate) fn digest_fault(src: &Source, text: &str) -> Option<paifu_core::Fault> {
    let actual = source_digest(text.as_bytes());
    (actual != src.digest).then(|| {
        paifu_core::Fault::new(
            paifu_core::ErrorCode::SourceDigestMismatch,
            format!(
                "source.digest is {}, but the source the log embeds (meta.source, {} bytes) has the digest {actual}",
                src.digest,
                text.len()
            ),
        )
    })
}

/// The header of an imported game: the rules from the rule's name, the source block for
/// `format` with the digest of the source file's `bytes`, and the source itself in
/// `meta.source` (the module `source`) when it is UTF-8 text that fits a header.
///
/// A record that does not start as a whole game does (East 1, 0 honba, no riichi sticks, every
/// seat at the ruleset's start points) is an excerpt of an unknown game: the options state where
/// it starts ([`excerpt_start`]). One that does is read as an excerpt only when `excerpt` asks
/// for it (`paifu import --excerpt`: a whole game that stops early).
pub(crate) fn header(format: &str, g: &Game, bytes: &[u8], excerpt: bool) -> Header {
    let mut h = bare_header(format, g, source_digest(bytes), excerpt);
    if let Some(text) = embeddable(bytes) {
        h.meta.insert(META_KEY.into(), text.to_owned());
    }
    h
}

/// The ruleset and options of a game read from a record (its rule's name, and its start points
/// when they differ from that ruleset's; where an excerpt starts, [`header`]). A game whose start
/// points are unknown is read with the ruleset's for a whole game; an excerpt of it states its
/// scores.
fn rules_of(g: &Game, excerpt: bool) -> (&'static str, Options) {
    let (ruleset, mut options) = rules::from_rule_name(&g.rule, g.red_fives);
    let named = start_of(ruleset, &options);
    let start_points = g.start_points.unwrap_or(named);
    if start_points != named || g.start_points_given {
        options.insert("start_points".into(), paifu_core::log::OptValue::Int(start_points));
    }
    if let Some(e) = excerpt_start(g, start_points, excerpt) {
        options.extend(e.to_options());
    }
    (ruleset, options)
}

/// The key of the header's `meta` that says which fields the source leaves out and what that
/// means (`ref (the game's id is unknown: ...)`).
pub const ABSENT_KEY: &str = "absent";

/// The key of the header's `meta` that says an excerpt's start points are unknown, and the
/// points its table holds as its record states them.
pub const TABLE_KEY: &str = "table";

/// Each seat's start points under a ruleset and options.
fn start_of(ruleset: &str, options: &Options) -> i64 {
    Riichi::rules(ruleset, options).map_or(25000, |r| r.start_points)
}

/// Whether a game read from a record is read as an excerpt ([`header`]).
pub(crate) fn reads_as_excerpt(g: &Game, excerpt: bool) -> bool {
    is_excerpt_options(&rules_of(g, excerpt).1)
}

/// [`header`] without the source text (`meta.source`), the source block stating `digest`.
pub(crate) fn bare_header(format: &str, g: &Game, digest: Digest, excerpt: bool) -> Header {
    let (ruleset, options) = rules_of(g, excerpt);
    let mut meta = BTreeMap::new();
    if !g.rule.is_empty() {
        meta.insert("rule".into(), g.rule.clone());
    }
    if !g.absent.is_empty() {
        meta.insert(ABSENT_KEY.into(), g.absent.join("; "));
    }
    // Said of a record that does not start as a whole game (one read as an excerpt only when
    // asked, `--excerpt`, starts with the start points).
    let unknown_start = !g.start_points_given && excerpt_start(g, start_of(ruleset, &options), false).is_some();
    if let (true, Some(first)) = (unknown_start, g.rounds.first()) {
        meta.insert(
            TABLE_KEY.into(),
            format!(
                "the start points are unknown: the table holds {} points, as the record states them (scores and riichi \
                 sticks), and keeps them from hand to hand",
                table_total(first)
            ),
        );
    }
    Header {
        paifu: FORMAT_VERSION,
        game: "riichi".into(),
        ruleset: ruleset.into(),
        options,
        engine: paifu_core::ENGINE.into(),
        seats: g.names.clone(),
        seed: None,
        commitment: None,
        source: Some(Source { format: format.into(), id: g.id.clone(), digest }),
        meta,
    }
}

/// Where the excerpt a record holds starts: the state its first round states, when that is not
/// a whole game's start or when the excerpt reading is asked for; `None` for a whole game.
pub(crate) fn excerpt_start(g: &Game, start_points: i64, asked: bool) -> Option<ExcerptStart> {
    let first = g.rounds.first()?;
    let whole = first.kyoku == 0 && first.honba == 0 && first.sticks == 0 && first.scores == [start_points; 4];
    if whole && !asked {
        return None;
    }
    Some(ExcerptStart {
        round_wind: first.kyoku / 4 % 4,
        kyoku: first.kyoku % 4,
        honba: first.honba,
        sticks: first.sticks,
        scores: (first.scores != [start_points; 4]).then_some(first.scores),
    })
}

/// The note `paifu import` prints for a log read as an excerpt without being asked to (its
/// record does not start as a whole game does); `None` for a whole game, or an excerpt asked for
/// from East 1.
pub fn excerpt_note(h: &Header) -> Option<String> {
    let rules = Riichi::rules(&h.ruleset, &h.options).ok()?;
    let e = rules.excerpt.filter(|e| e.to_options().len() > 1)?;
    let scores = e.scores.unwrap_or([rules.start_points; 4]);
    let start = match h.meta.get(TABLE_KEY) {
        Some(t) => format!("East 1 ({t})"),
        None => format!("East 1 with {} each", rules.start_points),
    };
    Some(format!(
        "read as an excerpt of an unknown game: the record starts at {} with {} riichi sticks and scores {scores:?}, \
         not at {start}",
        record::round_name(e.round_wind * 4 + e.kyoku, e.honba),
        e.sticks,
    ))
}

/// The points on a hand's table as its record states them: the scores and the riichi sticks.
fn table_total(r: &record::Round) -> i64 {
    r.scores.iter().sum::<i64>() + 1000 * i64::from(r.sticks)
}

/// An excerpt's stated starting position checked as far as it can be. Every payment moves points
/// between the players in hundreds, and every seat starts with the same points, a multiple of
/// 100: the points on the table (scores and riichi sticks) are a multiple of 400, and, when the
/// start points are stated (`paifu import --start-points`), four times them. Otherwise the start
/// is unknown (a rule set's name says how its games start, not where a shared excerpt came from):
/// the table's total is taken as stated, and every later hand's stated scores are checked against
/// it. `None` when the points are right, or the game is not an excerpt.
fn excerpt_points(g: &Game, game: &Riichi) -> Option<ImportError> {
    let rules = game.rules_in_force();
    let first = g.rounds.first().filter(|_| rules.excerpt.is_some())?;
    let total = table_total(first);
    let held = format!(
        "claim_mismatch: the starting scores {:?} and {} riichi sticks hold {total} points",
        first.scores, first.sticks
    );
    let error = |why: String| Some(ImportError::new("log[0][1]", format!("{held}, {why}")).in_round(&first.name()));
    if !g.start_points_given {
        if total % 400 == 0 {
            return None;
        }
        return error(
            "which four players who started with the same points cannot hold: every payment is in hundreds, so the \
             table holds a multiple of 400"
                .into(),
        );
    }
    let want = 4 * rules.start_points;
    if total == want {
        return None;
    }
    error(format!("but four players who each started with {} hold {want}", rules.start_points))
}

/// The key of the header's `meta` that says which results the source left out and Paifu
/// computed (`paifu import` of stripped records): computed, not claimed.
pub const COMPUTED_KEY: &str = "computed";

/// What the source's wins leave out, hand by hand (`South 2, 1 honba, seat 3's win: score
/// changes, yaku`); `None` when nothing is.
pub(crate) fn computed_note(g: &Game) -> Option<String> {
    let mut parts = Vec::new();
    for r in &g.rounds {
        if let record::Outcome::Wins(ws) = &r.outcome {
            for w in ws.iter().filter(|w| !w.computed.is_empty()) {
                parts.push(format!("{}, seat {}'s win: {}", r.name(), w.who, w.computed.join(", ")));
            }
        }
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// Whether a header is an excerpt's (option `excerpt: true`).
pub(crate) fn is_excerpt(h: &Header) -> bool {
    is_excerpt_options(&h.options)
}

fn is_excerpt_options(o: &Options) -> bool {
    o.get("excerpt") == Some(&paifu_core::log::OptValue::Bool(true))
}

/// About how many records a game becomes: each take and discard is one, and the passes of the
/// seats that could claim a discard and did not are a few more (the 31 real games: 1.15 to 1.25
/// records a take or discard); a little more than that, so that the lists are reserved once.
fn records_about(g: &Game) -> usize {
    let moves: usize = g.rounds.iter().flat_map(|r| (0..4).map(|s| r.takes[s].len() + r.discards[s].len())).sum();
    moves * 13 / 10 + 16
}

/// Converts a game under the given header; places are written as the source's positions (`pm`:
/// empty for tenhou.net/6, whose positions are the model's).
pub(crate) fn convert(g: &Game, h: Header, pm: &PosMap) -> Result<Imported, ImportError> {
    convert_windows(g, h, pm).map(|(imp, _)| imp)
}

/// [`convert`], also telling for each record whether it answers a claim window.
pub(crate) fn convert_windows(g: &Game, h: Header, pm: &PosMap) -> Result<(Imported, Vec<bool>), ImportError> {
    let mut b = Builder::new(&h).map_err(|e| pm.error(e))?;
    b.reserve(records_about(g));
    let mut d = Derive::new();
    loop {
        let next = d.next(g, &b.game, b.records.len()).map_err(|e| pm.error(e))?;
        let Some((seat, action, pos)) = next else { break };
        if !b.push(seat, action, pos) {
            break;
        }
        let ends = d.played(g, &b.game, b.records.len() - 1).map_err(|e| pm.error(e))?;
        b.claim(ends, g.final_scores.as_ref());
    }
    let windowed = std::mem::take(&mut b.windowed);
    let mut h = h;
    if let Some(c) = computed_note(g) {
        h.meta.insert(COMPUTED_KEY.into(), c);
    }
    let mismatches = std::mem::take(&mut d.mismatches);
    Ok((b.finish(h, mismatches, pm), windowed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use paifu_core::ErrorCode;

    /// The real Tenhou games of ../shared/real-logs/tenhou (read in place): name and text.
    fn real_games() -> Vec<(String, String)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-logs/tenhou");
        let mut games: Vec<(String, String)> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("manifest.json"))
            .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
            .collect();
        games.sort();
        assert!(games.len() >= 31, "{} games in {}", games.len(), dir.display());
        games
    }

    fn import(format: &str, text: &str) -> Imported {
        crate::import::import_with(format, text, text.as_bytes(), Reading::default()).unwrap()
    }

    #[test]
    fn the_verdict_found_while_importing_is_the_validators_on_every_real_game() {
        for (name, text) in real_games() {
            let tenhou = import("tenhou", &text);
            // As converters write mjai: without the Paifu log `paifu export mjai` embeds.
            let mjai_text: String = crate::import::mjai::export(&tenhou.log)
                .unwrap()
                .lines()
                .map(|l| {
                    let mut e: serde_json::Value = serde_json::from_str(l).unwrap();
                    e.as_object_mut().unwrap().remove("paifu");
                    e.to_string() + "\n"
                })
                .collect();
            for (format, imp) in [("tenhou", tenhou), ("mjai", import("mjai", &mjai_text))] {
                let replayed = validate_log::<Riichi>(&imp.log, &Positions::default());
                assert!(replayed.is_valid(), "{name} ({format}): {replayed:?}");
                assert_eq!(imp.verdict.as_ref(), Some(&replayed), "{name} ({format})");
                assert_eq!(imp.verdict(), replayed, "{name} ({format})");
            }
        }
    }

    /// The record line as serde_json writes it (the writer `write_record_line` had before it
    /// was written by hand): the reference its bytes are compared with.
    fn serde_record_line<A: paifu_core::log::Action>(r: &paifu_core::log::Record<A>) -> Vec<u8> {
        #[derive(serde::Serialize)]
        struct RecordOut<'a, A: std::fmt::Display> {
            seq: u32,
            seat: u8,
            #[serde(serialize_with = "notation")]
            action: &'a A,
            #[serde(skip_serializing_if = "Option::is_none")]
            claim: Option<ClaimOut<'a>>,
        }
        #[derive(serde::Serialize)]
        struct ClaimOut<'a> {
            #[serde(skip_serializing_if = "Option::is_none")]
            round: Option<&'a Vec<i64>>,
            #[serde(rename = "final", skip_serializing_if = "Option::is_none")]
            final_scores: Option<&'a Vec<i64>>,
        }
        fn notation<A: std::fmt::Display, S: serde::Serializer>(a: &&A, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(*a)
        }
        let claim =
            r.claim.as_ref().map(|c| ClaimOut { round: c.round.as_ref(), final_scores: c.final_scores.as_ref() });
        let mut out = serde_json::to_vec(&RecordOut { seq: r.seq, seat: r.seat, action: &r.action, claim }).unwrap();
        out.push(b'\n');
        out
    }

    /// Compares the hand-written record lines of `log` with serde_json's; answers how many.
    fn same_lines<A: paifu_core::log::Action>(what: &str, log: &Log<A>) -> usize {
        // The header line too (written from its fields; before, through a `serde_json::Value`).
        let mut by_value = serde_json::to_string(&paifu_core::log::json_object(&log.header)).unwrap();
        by_value.push('\n');
        assert_eq!(paifu_core::log::header_line(&log.header), by_value, "{what}: header");
        let mut out = Vec::new();
        for r in &log.records {
            out.clear();
            paifu_core::log::write_record_line(r, &mut out);
            let want = serde_record_line(r);
            assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&want), "{what}, record {}", r.seq);
            assert_eq!(out, want, "{what}, record {}", r.seq);
        }
        log.records.len()
    }

    #[test]
    fn lines_written_by_hand_are_serde_jsons_bytes_for_real_and_simulated_games_of_every_game() {
        use crate::samples::{game_log, game_log_with_incident};
        use paifu_core::log::{Claim, Record};
        use paifu_core::{hungarian::Hungarian, mcr::Mcr, tayu::Tayu, tzq::Tzq, IncidentKind};
        let four = ["Ann", "Bo", "Cy", "Ed"];
        let mut lines = 0;
        for (name, text) in real_games() {
            let imp = import("tenhou", &text);
            lines += same_lines(&name, &imp.log);
        }
        assert!(lines > 30_000, "{lines} lines of real games");
        let real = lines;
        for seed in ["lines/1", "lines/2"] {
            lines += same_lines("tzq", &game_log::<Tzq>("standard", seed, &four[..2]).unwrap());
            lines += same_lines("riichi", &game_log::<Riichi>("standard", seed, &four).unwrap());
            lines += same_lines("mcr", &game_log::<Mcr>("standard", seed, &four).unwrap());
            lines += same_lines("hungarian", &game_log::<Hungarian>("standard", seed, &four).unwrap());
            lines += same_lines("tayu", &game_log::<Tayu>("standard", seed, &four).unwrap());
        }
        assert!(lines > real + 1_000, "{} lines of simulated games", lines - real);
        // Incidents whose details hold what JSON escapes (a quote, a backslash) and what it
        // does not (non-ASCII text).
        let detail = r#"a "wrong" ron \ 錯和 é"#;
        let chombo = game_log_with_incident::<Riichi>("tenhou", "lines/i", &four, (1, 3), IncidentKind::Chombo, detail);
        let false_win =
            game_log_with_incident::<Mcr>("standard", "lines/i", &four, (2, 2), IncidentKind::FalseWin, detail);
        for (what, line) in [
            ("riichi chombo", same_lines("riichi chombo", &chombo.unwrap())),
            ("mcr false win", same_lines("mcr false win", &false_win.unwrap())),
        ] {
            assert!(line > 0, "{what}");
        }
        // Claims of every shape: empty, one list, both lists, negative and large numbers.
        let action = game_log::<Tzq>("standard", "lines/c", &four[..2]).unwrap().records[0].action.clone();
        for claim in [
            Claim { round: None, final_scores: None },
            Claim { round: Some(vec![]), final_scores: None },
            Claim { round: None, final_scores: Some(vec![i64::MIN, i64::MAX]) },
            Claim { round: Some(vec![-8000, 8000]), final_scores: Some(vec![0, 25000]) },
        ] {
            let rec = Record { seq: u32::MAX, seat: u8::MAX, action: action.clone(), claim: Some(claim) };
            let mut out = Vec::new();
            paifu_core::log::write_record_line(&rec, &mut out);
            assert_eq!(out, serde_record_line(&rec));
        }
    }

    #[test]
    fn a_source_is_embedded_only_when_it_fits_the_header_line_once_escaped() {
        let kib = |n: usize, c: char| c.to_string().repeat(n << 10);
        // Plain text fits whole; control characters take six bytes each once escaped.
        assert!(embeddable(kib(500, 'a').as_bytes()).is_some());
        assert!(embeddable(kib(150, '\u{1}').as_bytes()).is_some(), "900 KiB escaped");
        assert!(embeddable(kib(170, '\u{1}').as_bytes()).is_none(), "1020 KiB escaped, past the room");
        let mixed = kib(100, '"') + &kib(300, 'a');
        assert!(embeddable(mixed.as_bytes()).is_some(), "500 KiB escaped");
        assert!(embeddable(&[0xff, 0xfe]).is_none(), "not UTF-8");
        assert!(embeddable(b"").is_none());
    }

    #[test]
    fn a_wrong_claim_leaves_the_verdict_to_the_validator_which_names_it() {
        let (name, text) = real_games().swap_remove(0);
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        // The first hand's score changes as the record states them, two of them moved by 1000.
        let deltas = v["log"][0][16][1].as_array_mut().unwrap_or_else(|| panic!("{name}: no deltas"));
        let (a, b) = (deltas[0].as_i64().unwrap(), deltas[1].as_i64().unwrap());
        deltas[0] = (a + 1000).into();
        deltas[1] = (b - 1000).into();
        let imp = import("tenhou", &v.to_string());
        assert_eq!(imp.verdict, None, "{name}: a wrong claim is not found valid while importing");
        match imp.verdict() {
            Verdict::Invalid(f) => assert_eq!(f.code, ErrorCode::ClaimMismatch, "{name}: {f}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}
