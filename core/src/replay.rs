//! Replay and validation: rebuild the game from the seed, apply each record, compare claims.

use crate::digest::Digest;
use crate::error::{ErrorCode, Fault};
use crate::games::{self, Registered, Visitor};
use crate::log::{self, Claim, Header, Log, LogReader, Positions, ReadError, Record};
use crate::{Game, GameKind, Incident, RoundResult, Seat};
use serde::Serialize;
use std::io::{self, BufRead};

/// What a valid log computes to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Each round's result.
    pub rounds: Vec<RoundResult>,
    /// Each seat's final score, in seat order.
    pub final_scores: Vec<i64>,
    /// Each seat's final place (1 = first), as the game's rules rank them ([`Game::placements`]);
    /// empty for an excerpt, which has no standings.
    #[serde(skip)]
    pub placements: Vec<u32>,
    /// For an excerpt of an unknown game: the rounds it covers. Its `final_scores` are then the
    /// scores after its last round, not a game's final standings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<crate::Excerpt>,
    /// The log's incidents (core/src/incident/mod.rs), in record order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub incidents: Vec<IncidentAt>,
}

/// An incident of a log: its record, its seat, and the incident.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IncidentAt {
    /// The record's index (0-based).
    pub index: usize,
    pub seat: Seat,
    pub kind: crate::IncidentKind,
    /// The detail, empty when there is none.
    pub detail: String,
}

impl IncidentAt {
    /// The incident of record `index`, if its action is one.
    fn of<A: log::Action>(index: usize, rec: &Record<A>) -> Option<IncidentAt> {
        rec.action.incident().map(|i: &Incident| IncidentAt {
            index,
            seat: rec.seat,
            kind: i.kind,
            detail: i.detail.as_str().to_owned(),
        })
    }
}

/// A valid game as statistics read it: who sat where, and what its replay computed. The archive
/// hands these to the analyzer, which never reads the archive itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub game: GameKind,
    /// Each seat's player, in seat order.
    pub players: Vec<String>,
    pub final_scores: Vec<i64>,
    /// Each seat's final place (1 = first).
    pub placements: Vec<u32>,
    pub rounds: Vec<RoundResult>,
}

/// The verdict on a log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Valid(Outcome),
    Invalid(Fault),
}

impl Verdict {
    pub fn is_valid(&self) -> bool {
        matches!(self, Verdict::Valid(_))
    }
    pub fn fault(&self) -> Option<&Fault> {
        match self {
            Verdict::Invalid(f) => Some(f),
            Verdict::Valid(_) => None,
        }
    }
    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            Verdict::Valid(o) => Some(o),
            Verdict::Invalid(_) => None,
        }
    }
}

/// Everything the validator says about one log.
#[derive(Clone, Debug)]
pub struct Report {
    /// The header, when it could be read.
    pub header: Option<Header>,
    /// The log digest, when the whole log could be decoded.
    pub digest: Option<Digest>,
    /// Number of records decoded.
    pub records: usize,
    pub verdict: Verdict,
}

fn locate(mut f: Fault, index: usize, line: Option<usize>) -> Fault {
    f.index = Some(index);
    if f.line.is_none() {
        f.line = line;
    }
    f
}

/// Builds the initial state a header describes.
pub fn setup<G: Game>(header: &Header) -> Result<G, Fault> {
    if header.source.is_some() && (header.seed.is_some() || header.commitment.is_some()) {
        // A commitment promises that the tiles come from a seed; an imported game's come from its
        // records, so a claimed one could only mislead (and a seed would not be used).
        let what = if header.seed.is_some() { "a seed" } else { "a seed commitment" };
        return Err(Fault::new(
            ErrorCode::ImportedCommitment,
            format!(
                "the log is an imported game (its header names a source) but claims {what}: an imported game's tiles \
                 come from its records, so it has no seed and no commitment"
            ),
        ));
    }
    header.check_seed()?;
    let seed = header.seed;
    if seed.is_none() && header.source.is_none() {
        return Err(Fault::new(
            ErrorCode::MissingSeed,
            match header.commitment {
                Some(c) => format!(
                    "the log has only the commitment {c} to its seed; it can be replayed once the seed is revealed"
                ),
                None => "the log has neither a seed nor a commitment, so the game cannot be rebuilt".to_owned(),
            },
        ));
    }
    let n = header.seats.len();
    if !G::SEATS.contains(&n) {
        return Err(Fault::new(
            ErrorCode::BadHeader,
            format!(
                "{} is played by {} to {} seats; the header names {n}",
                G::KIND.title(),
                G::SEATS.start(),
                G::SEATS.end()
            ),
        ));
    }
    let rules = G::rules(&header.ruleset, &header.options).map_err(|e| Fault::new(ErrorCode::BadHeader, e.0))?;
    G::new(rules, n, seed.as_ref()).map_err(|e| {
        // An imported log (no seed) for an engine that replays only from a seed.
        let code = if seed.is_none() { ErrorCode::MissingSeed } else { ErrorCode::BadHeader };
        Fault::new(code, e.0)
    })
}

/// Replays a decoded log and returns the verdict. `pos` gives line numbers for messages.
pub fn validate_log<G: Game>(log: &Log<G::Action>, pos: &Positions) -> Verdict {
    verdict::<G>(&log.header, &log.records, pos)
}

/// [`validate_log`] of the log with this header and these records.
fn verdict<G: Game>(header: &Header, records: &[Record<G::Action>], pos: &Positions) -> Verdict {
    match replay_records::<G>(header, records, pos, None) {
        Ok((state, _)) => conclude(state, records),
        Err(f) => Verdict::Invalid(f),
    }
}

/// The verdict on a state all `records` of a log were replayed into without a fault: valid,
/// with the results and final scores, once the game is over; truncated before. An excerpt
/// ([`Game::excerpt`]) is valid at the end of any round it played, with the rounds it covers
/// and no placements.
fn concluded<G: Game>(state: G, records: usize, incidents: Vec<IncidentAt>) -> Verdict {
    let excerpt = state.excerpt();
    if !state.is_over() && excerpt.is_none() {
        return Verdict::Invalid(truncated(&state, records));
    }
    let final_scores = state.scores();
    let placements = if excerpt.is_some() { Vec::new() } else { state.placements() };
    Verdict::Valid(Outcome { rounds: state.into_results(), final_scores, placements, excerpt, incidents })
}

/// Applies record `i` to `state` with every check the validator makes: the sequence number, the
/// game not being over, the action's legality, and the record's claims. On error the state is
/// as it was before the record, except that a wrong claim is found after the action is applied.
pub fn step<G: Game>(state: &mut G, i: usize, rec: &Record<G::Action>, pos: &Positions) -> Result<(), Fault> {
    step_at(state, i, rec, pos.line_of(i))
}

/// [`step`] with the record's line in a JSON Lines file (`None` in binary), for messages.
///
/// Nothing is written (no message, no notation) unless the record is refused.
fn step_at<G: Game>(state: &mut G, i: usize, rec: &Record<G::Action>, line: Option<usize>) -> Result<(), Fault> {
    // The round an error names is the round the record was played in: asked of the state only
    // for an error (nothing changes the state before `play_mut`, which leaves it untouched when
    // it refuses), or before the action for a record with claims, which are few.
    let mk = |code: ErrorCode, msg: String, round: u32| {
        let mut f = locate(Fault::new(code, msg), i, line);
        f.round = Some(round);
        f.seat = Some(rec.seat);
        f.action = Some(rec.action.to_string());
        f
    };
    if rec.seq as usize != i {
        return Err(mk(
            ErrorCode::BadSequence,
            format!("record {i} carries sequence number {}; a record was dropped, inserted or moved here", rec.seq),
            state.round(),
        ));
    }
    if state.is_over() {
        return Err(mk(ErrorCode::AfterGameEnd, "the game was already over before this record".into(), state.round()));
    }
    let Some(claim) = &rec.claim else {
        return state.play_mut(rec.seat, &rec.action).map_err(|v| mk(v.code, v.message, state.round()));
    };
    let before = state.results().len();
    let round = state.round();
    if let Err(v) = state.play_mut(rec.seat, &rec.action) {
        return Err(mk(v.code, v.message, round));
    }
    match claim_fault(state, claim, before, round) {
        Some((code, msg, round)) => Err(mk(code, msg, round)),
        None => Ok(()),
    }
}

/// Whether the claims of record `i` hold in `state`, the game just after the record was played:
/// the fault [`step`] finds when they do not. `results_before` is how many round results the
/// game had before the record, `round` the round it was played in.
pub fn check_claim<G: Game>(
    state: &G,
    i: usize,
    rec: &Record<G::Action>,
    results_before: usize,
    round: u32,
) -> Result<(), Fault> {
    let Some(claim) = &rec.claim else { return Ok(()) };
    match claim_fault(state, claim, results_before, round) {
        Some((code, msg, round)) => {
            let mut f = locate(Fault::new(code, msg), i, None);
            f.round = Some(round);
            f.seat = Some(rec.seat);
            f.action = Some(rec.action.to_string());
            Err(f)
        }
        None => Ok(()),
    }
}

/// What is wrong with a record's claims in the state after it (see [`check_claim`]): the code,
/// the message and the round to name.
fn claim_fault<G: Game>(state: &G, claim: &Claim, before: usize, round: u32) -> Option<(ErrorCode, String, u32)> {
    if let Some(claimed) = &claim.round {
        match state.results().get(before..).and_then(|r| r.last()) {
            None => {
                return Some((
                    ErrorCode::ClaimMismatch,
                    "the record claims a round result, but the round does not end here".into(),
                    round,
                ))
            }
            Some(r) if &r.deltas != claimed => {
                return Some((
                    ErrorCode::ClaimMismatch,
                    format!(
                        "round {} score changes claimed {:?}, computed {:?} ({})",
                        r.round, claimed, r.deltas, r.summary
                    ),
                    r.round,
                ))
            }
            Some(_) => {}
        }
    }
    if let Some(claimed) = &claim.final_scores {
        if !state.is_over() {
            return Some((
                ErrorCode::ClaimMismatch,
                "the record claims final scores, but the game does not end here".into(),
                state.round(),
            ));
        }
        let computed = state.scores();
        if &computed != claimed {
            return Some((
                ErrorCode::ClaimMismatch,
                format!("final scores claimed {claimed:?}, computed {computed:?}"),
                state.round(),
            ));
        }
    }
    None
}

/// The verdict on a game that played every record of `records` into `state` with every check
/// of [`step`] passed: what [`validate_log`] answers for that log.
pub fn conclude<G: Game>(state: G, records: &[Record<G::Action>]) -> Verdict {
    let incidents = records.iter().enumerate().filter_map(|(i, r)| IncidentAt::of(i, r)).collect();
    concluded(state, records.len(), incidents)
}

/// The fault for a log that ends before its game does.
pub fn truncated<G: Game>(state: &G, records: usize) -> Fault {
    let who: Vec<String> = state.to_act().iter().map(|s| s.to_string()).collect();
    let mut f = Fault::new(
        ErrorCode::Truncated,
        format!(
            "the log ends after {records} records in round {}, before the game is over (seat {} to act)",
            state.round(),
            who.join(" or ")
        ),
    );
    f.index = Some(records);
    f.round = Some(state.round());
    f
}

/// Replays `log` up to and including record `upto` (all records when `None`), checking every
/// record and claim. On success answers the state and how many records were applied; a log
/// replayed in full must also reach the end of the game.
pub fn replay<G: Game>(log: &Log<G::Action>, pos: &Positions, upto: Option<usize>) -> Result<(G, usize), Fault> {
    replay_records(&log.header, &log.records, pos, upto)
}

/// [`replay`] of the log with this header and these records.
fn replay_records<G: Game>(
    header: &Header,
    records: &[Record<G::Action>],
    pos: &Positions,
    upto: Option<usize>,
) -> Result<(G, usize), Fault> {
    let mut state: G = setup(header)?;
    let n = upto.map_or(records.len(), |u| u.saturating_add(1).min(records.len()));
    for (i, rec) in records.iter().take(n).enumerate() {
        step(&mut state, i, rec, pos)?;
    }
    if upto.is_none() && !state.is_over() && state.excerpt().is_none() {
        return Err(truncated(&state, records.len()));
    }
    Ok((state, n))
}

/// What looks at every record beside the engine while a log is validated, and may refuse one
/// with a fault of its own: an imported log's check against the source it embeds, in the same
/// pass as the replay. `()` looks at nothing.
pub trait Watch<G: Game> {
    /// Record `index`, which the engine has just accepted (`state` is the game after it).
    fn record(&mut self, index: usize, record: &Record<G::Action>, state: &G) -> Result<(), Fault>;

    /// Every record was read and accepted; `state` is the game after the last.
    fn end(&mut self, records: usize, state: &G) -> Result<(), Fault> {
        let _ = (records, state);
        Ok(())
    }
}

impl<G: Game> Watch<G> for () {
    fn record(&mut self, _: usize, _: &Record<G::Action>, _: &G) -> Result<(), Fault> {
        Ok(())
    }
}

/// What validating a log found: the digest (when every record could be read), the number of
/// records read, and the verdict.
pub type Checked = (Option<Digest>, usize, Verdict);

/// Reads the records of a log whose header is read, and validates the log: the digest, the
/// number of records read and the verdict of its [`Report`]. `watch` sees every record the
/// engine accepts (see [`Watch`]); the first fault in the log's order wins, the engine's before
/// the watcher's at one record.
///
/// The records are replayed as they are read, none kept: the same verdict as decoding the
/// whole log and then replaying it (a record that cannot be read wins over an illegal one
/// before it, a header the engine refuses over any record, the first illegal record over the
/// rest), from one pass over the file. Only a failing reader is an error.
pub fn validate_records<G: Game, R: BufRead>(
    reader: &mut LogReader<R>,
    watch: &mut impl Watch<G>,
) -> io::Result<Checked> {
    let mut state: Result<G, Fault> = setup(reader.header());
    let mut incidents = Vec::new();
    loop {
        let rec = match reader.next_record::<G::Action>() {
            Ok(Some(rec)) => rec,
            Ok(None) => break,
            Err(ReadError::Fault(f)) => return Ok((None, f.index.unwrap_or(0), Verdict::Invalid(f))),
            Err(ReadError::Io(e)) => return Err(e),
        };
        // After the first fault the records are only read (and chained).
        let Ok(s) = &mut state else { continue };
        let i = reader.records_read() - 1;
        let stepped = step_at(s, i, &rec, reader.line())
            .and_then(|()| watch.record(i, &rec, s).map_err(|f| locate(f, i, reader.line())));
        match stepped {
            Ok(()) => incidents.extend(IncidentAt::of(i, &rec)),
            Err(f) => state = Err(f),
        }
    }
    let n = reader.records_read();
    let verdict = match state.and_then(|s| watch.end(n, &s).map(|()| s)) {
        Err(f) => Verdict::Invalid(f),
        Ok(s) => concluded(s, n, incidents),
    };
    Ok((Some(reader.digest()), n, verdict))
}

/// Validates a log of any game the registry knows, by its header, read from `reader` (whose
/// header is read): the report, or the reader's error.
pub fn validate_reader<R: BufRead>(mut reader: LogReader<R>) -> io::Result<Report> {
    struct Validate<'a, R>(&'a mut LogReader<R>);
    impl<R: BufRead> Visitor for Validate<'_, R> {
        type Output = io::Result<Checked>;
        fn visit<G: Registered>(self) -> Self::Output {
            validate_records::<G, R>(self.0, &mut ())
        }
    }
    let game = reader.header().game.clone();
    let checked = games::by_name(&game, Validate(&mut reader));
    let header = Some(reader.into_header());
    Ok(match checked {
        Ok(read) => {
            let (digest, records, verdict) = read?;
            Report { header, digest, records, verdict }
        }
        Err(f) => Report { header, digest: None, records: 0, verdict: Verdict::Invalid(f) },
    })
}

/// Validates a log of any game the registry knows, read from `r` whatever its encoding: the
/// log is read once, a record at a time, and nothing of it is kept but the engine's state, so
/// that memory does not grow with the log. Only a failing reader is an error.
pub fn validate_read<R: BufRead>(r: R) -> io::Result<Report> {
    match LogReader::open(r) {
        Ok(reader) => validate_reader(reader),
        Err(ReadError::Fault(f)) => Ok(Report { header: None, digest: None, records: 0, verdict: Verdict::Invalid(f) }),
        Err(ReadError::Io(e)) => Err(e),
    }
}

/// Decodes and validates a log of any game the registry knows, by its header.
pub fn validate_bytes(bytes: &[u8]) -> Report {
    // Bytes in memory cannot fail to be read.
    validate_read(bytes).unwrap_or_else(|e| {
        let f = Fault::new(ErrorCode::BadEncoding, format!("the log could not be read: {e}"));
        Report { header: None, digest: None, records: 0, verdict: Verdict::Invalid(f) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::{random_log, Claim};
    use crate::riichi::Riichi;

    /// The report of the one-pass validator is the report of decoding the whole log first and
    /// replaying it after, for valid logs and for every kind of fault, in both encodings.
    #[test]
    fn validating_while_reading_reports_what_reading_then_replaying_does() {
        use crate::log::{decode_with_digest, encode, Encoding};
        let log = random_log::<Riichi>("standard", 4, "one pass");
        let n = log.records.len();
        let two_phase = |bytes: &[u8]| -> (Option<Digest>, usize, Verdict) {
            match decode_with_digest::<crate::riichi::Action>(bytes) {
                Err(f) => (None, f.index.unwrap_or(0), Verdict::Invalid(f)),
                Ok((l, pos, d)) => (Some(d), l.records.len(), validate_log::<Riichi>(&l, &pos)),
            }
        };
        // An action that is never legal where a discard is due.
        let illegal = |l: &mut Log<crate::riichi::Action>, k: usize| l.records[k].action = crate::riichi::Action::Pass;
        let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
        for enc in [Encoding::Binary, Encoding::JsonLines] {
            cases.push(("valid", encode(&log, enc)));
            let mut l = log.clone();
            l.records.truncate(n - 3);
            cases.push(("truncated", encode(&l, enc)));
            let mut l = log.clone();
            illegal(&mut l, 0);
            cases.push(("illegal first", encode(&l, enc)));
            let mut l = log.clone();
            illegal(&mut l, n / 2);
            illegal(&mut l, n / 2 + 5);
            cases.push(("illegal twice", encode(&l, enc)));
            let mut l = log.clone();
            l.records[n - 1].claim = Some(Claim { round: None, final_scores: Some(vec![1, 2, 3, 4]) });
            cases.push(("wrong claim", encode(&l, enc)));
            let mut l = log.clone();
            l.header.options.insert("red_fives".into(), crate::log::OptValue::Int(9));
            cases.push(("bad option", encode(&l, enc)));
            let mut l = log.clone();
            l.records[n / 3].seq += 1;
            cases.push(("sequence", encode(&l, enc)));
        }
        // An illegal record before one that cannot be read: the unreadable one is reported.
        let mut l = log.clone();
        illegal(&mut l, 2);
        let mut bytes = encode(&l, Encoding::Binary);
        let last = bytes.len() - 1;
        bytes[last] = 0xff;
        cases.push(("illegal then unreadable", bytes));
        for (name, bytes) in &cases {
            let one = validate_bytes(bytes);
            let (digest, records, verdict) = two_phase(bytes);
            assert_eq!((one.digest, one.records, &one.verdict), (digest, records, &verdict), "{name}");
            assert_eq!(one.header.as_ref().map(|h| &h.game), Some(&log.header.game), "{name}");
        }
        let kinds: Vec<bool> = cases.iter().map(|(_, b)| validate_bytes(b).verdict.is_valid()).collect();
        assert_eq!(kinds.iter().filter(|&&v| v).count(), 2, "only the two untouched logs are valid");
    }

    /// An imported game's tiles come from its records: a seed or a commitment claimed for one is
    /// refused before any record, with its own code, in both encodings.
    #[test]
    fn an_imported_log_with_a_seed_or_a_commitment_is_refused() {
        use crate::log::{encode, Encoding, Source};
        use crate::random::Seed;
        let seed = Seed::from_text("imported");
        let mut h = Header::new(
            "riichi",
            "standard",
            Default::default(),
            ["a", "b", "c", "d"].map(String::from).to_vec(),
            seed,
        );
        h.seed = None;
        h.commitment = None;
        h.source = Some(Source { format: "tenhou6".into(), id: "x".into(), digest: Digest([1; 32]) });
        assert!(setup::<Riichi>(&h).is_ok(), "an imported header without either is set up");
        let with_commitment = Header { commitment: Some(seed.commitment()), ..h.clone() };
        let with_seed = Header { seed: Some(seed), ..h.clone() };
        for (what, bad) in [("a seed commitment", with_commitment), ("a seed", with_seed)] {
            let Err(f) = setup::<Riichi>(&bad) else { panic!("{what}: set up") };
            assert_eq!(f.code, ErrorCode::ImportedCommitment, "{what}");
            assert!(f.message.contains(&format!("claims {what}:")), "{}", f.message);
            assert_eq!(f.index, None);
            for enc in [Encoding::JsonLines, Encoding::Binary] {
                let log = Log::<crate::riichi::Action> { header: bad.clone(), records: Vec::new() };
                let r = validate_bytes(&encode(&log, enc));
                assert_eq!(r.verdict.fault().map(|f| f.code), Some(ErrorCode::ImportedCommitment), "{what} {enc:?}");
            }
        }
        assert_eq!(ErrorCode::ImportedCommitment.as_str(), "imported_commitment");
    }

    #[test]
    fn faults_name_the_round_the_record_was_played_in() {
        let log = random_log::<Riichi>("standard", 4, "rounds in faults");
        let pos = Positions::default();
        let n = log.records.len();
        // The state before record `k`.
        let before = |k: usize| -> Riichi {
            let mut s: Riichi = setup(&log.header).unwrap();
            for (i, r) in log.records[..k].iter().enumerate() {
                step(&mut s, i, r, &pos).unwrap();
            }
            s
        };
        // The first record that ends a round.
        let ends = log.records.iter().position(|r| r.claim.is_some()).unwrap();
        for k in [1, ends, ends + 1, n - 1] {
            let s = before(k);
            let round = s.round();
            let fault = |r: &Record<crate::riichi::Action>| {
                let mut after = s.clone();
                let f = step(&mut after, k, r, &pos).unwrap_err();
                (f, after)
            };
            let mut r = log.records[k].clone();
            r.seq += 1;
            let (f, after) = fault(&r);
            assert_eq!((f.code, f.round, after.round()), (ErrorCode::BadSequence, Some(round), round));
            let mut r = log.records[k].clone();
            r.seat = 7;
            let (f, after) = fault(&r);
            assert_eq!((f.code, f.round, after.round()), (ErrorCode::NotYourTurn, Some(round), round));
            assert_eq!((f.index, f.seat), (Some(k), Some(7)));
            // A round result claimed where none ends, or a wrong one where one does.
            let mut r = log.records[k].clone();
            r.claim = Some(Claim { round: Some(vec![1, 2, 3, 4]), final_scores: None });
            let (f, _) = fault(&r);
            assert_eq!((f.code, f.round), (ErrorCode::ClaimMismatch, Some(round)), "{}", f.describe());
            assert_eq!(f.message.contains("does not end here"), log.records[k].claim.is_none(), "{}", f.message);
            if k != n - 1 {
                // Final scores claimed before the end: the round is the one after the action.
                r.claim = Some(Claim { round: None, final_scores: Some(vec![0; 4]) });
                let (f, after) = fault(&r);
                assert_eq!((f.code, f.round), (ErrorCode::ClaimMismatch, Some(after.round())), "{}", f.describe());
                assert_eq!(after.round(), round + u32::from(k == ends));
            }
        }
        let mut s = before(n);
        let mut r = log.records[n - 1].clone();
        r.seq = n as u32;
        let f = step(&mut s, n, &r, &pos).unwrap_err();
        assert_eq!((f.code, f.round), (ErrorCode::AfterGameEnd, Some(s.round())));
    }
}
