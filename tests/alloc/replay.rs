//! The replay side (issue 25): validating a log of Paifu's own, in either encoding, allocates a
//! fixed few times however many records it has: the header and the engine's state are built,
//! and then each record is read into borrowed fields, its action decoded without allocating,
//! played and checked, its incident screened without formatting (messages and notations are
//! written only for a fault). What is left grows with rounds (a round's deal and its result),
//! never with records.
//!
//! Games: simulated games of every engine, and the real Tenhou games of ../shared/real-logs
//! (read in place), imported and then validated by the replay alone (the check against the
//! embedded source is the `import` module's).

use crate::allocations;
use paifu_core::log::{encode, Encoding, Log};
use paifu_core::replay::{validate_bytes, validate_read, validate_records, Watch};
use paifu_core::{log::LogReader, log::Record, Fault, Game, Seed};
use paifu_recorder::bots::Bots;

/// The most allocations validating one riichi game may make, simulated or real (imported, by
/// the replay alone), in either encoding: the real games of ../shared/real-logs need 450-880
/// (845-1905 records; what is left is per round: a deal, a result).
const MOST_RIICHI: u64 = 1000;

/// The other engines still allocate inside the engine for every record they play (MCR about 10
/// a record, Tayu 9, Hungarian 7, TZQ 3.5, where reading and checking the record allocate
/// nothing, as riichi shows): held at that rate, as a ceiling per record and a fixed part, until
/// their engines are reworked.
const PER_RECORD: [(&str, u64); 4] = [("mcr", 11), ("hungarian", 8), ("tayu", 10), ("tzq", 4)];
const FIXED_PART: u64 = 300;

/// The bound for a game of `game` with `records` records.
fn bound(game: &str, records: usize) -> u64 {
    match PER_RECORD.iter().find(|(g, _)| *g == game) {
        Some((_, rate)) => FIXED_PART + rate * records as u64,
        None => MOST_RIICHI,
    }
}

/// A game of `G` played by its default bots, as a log.
fn simulated<G: Game + Bots>(ruleset: &str, seed: &str) -> Log<G::Action> {
    let rules = G::rules(ruleset, &Default::default()).unwrap();
    let seed = Seed::from_text(seed);
    let seats = *G::SEATS.start();
    let mut bots: Vec<_> = (0..seats).map(|s| G::bot(G::BOTS[0], &seed.child(&s.to_string())).unwrap()).collect();
    paifu_recorder::play_game::<G>(ruleset, rules, seed, &mut bots, Default::default()).unwrap()
}

/// The allocations of validating `bytes` (after one validation not counted, which reads the
/// tables a process reads once), checked valid.
fn counted(what: &str, bytes: &[u8]) -> u64 {
    assert!(validate_bytes(bytes).verdict.is_valid(), "{what}");
    let (report, n) = allocations(|| validate_bytes(bytes));
    assert!(report.verdict.is_valid(), "{what}: {:?}", report.verdict.fault());
    n
}

/// Both encodings of a log: their names and bytes.
fn encodings<G: Game>(log: &Log<G::Action>) -> [(&'static str, Vec<u8>); 2] {
    [("JSON Lines", encode(log, Encoding::JsonLines)), ("binary", encode(log, Encoding::Binary))]
}

fn simulated_games_within_bound<G: Game + Bots>(ruleset: &str) {
    for i in 0..3 {
        let log = simulated::<G>(ruleset, &format!("alloc {} {i}", G::KIND.name()));
        for (what, bytes) in encodings::<G>(&log) {
            let n = counted(what, &bytes);
            let records = log.records.len();
            println!("{} {ruleset} game {i} {what}: {records} records, {n} allocations", G::KIND.name());
            let most = bound(G::KIND.name(), records);
            assert!(
                n <= most,
                "{} {ruleset} game {i} ({what}, {records} records): {n} allocations, more than {most}",
                G::KIND.name()
            );
        }
    }
}

#[test]
fn validating_a_simulated_riichi_game_allocates_a_fixed_few_times() {
    simulated_games_within_bound::<paifu_core::riichi::Riichi>("standard");
}

#[test]
fn validating_a_simulated_game_of_every_other_engine_allocates_at_most_todays_rate() {
    simulated_games_within_bound::<paifu_core::mcr::Mcr>("standard");
    simulated_games_within_bound::<paifu_core::hungarian::Hungarian>("standard");
    simulated_games_within_bound::<paifu_core::tzq::Tzq>("standard");
    simulated_games_within_bound::<paifu_core::tayu::Tayu>("standard");
}

#[test]
fn validating_a_real_game_by_its_replay_allocates_a_fixed_few_times() {
    let mut most = 0;
    for f in crate::real_tenhou_games() {
        let text = std::fs::read_to_string(&f).unwrap();
        let log = paifu_recorder::import::import_text("tenhou", &text, text.as_bytes()).unwrap().log;
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        for (what, bytes) in encodings::<paifu_core::riichi::Riichi>(&log) {
            let n = counted(&name, &bytes);
            println!("{name} {what}: {} records, {n} allocations", log.records.len());
            assert!(
                n <= MOST_RIICHI,
                "{name} ({what}, {} records): {n} allocations, more than {MOST_RIICHI}",
                log.records.len()
            );
            most = most.max(n);
        }
    }
    println!("at most {most} allocations");
}

/// Read from a file through a reader rather than from memory: the reader's buffer is added, and
/// nothing per record.
#[test]
fn validating_a_log_read_from_a_file_allocates_a_fixed_few_times() {
    let log = simulated::<paifu_core::riichi::Riichi>("standard", "alloc file");
    let dir = tempfile::tempdir().unwrap();
    for (what, bytes) in encodings::<paifu_core::riichi::Riichi>(&log) {
        let path = dir.path().join("game.log");
        std::fs::write(&path, &bytes).unwrap();
        let read = || validate_read(std::io::BufReader::new(std::fs::File::open(&path).unwrap())).unwrap();
        assert!(read().verdict.is_valid());
        let (report, n) = allocations(read);
        assert!(report.verdict.is_valid(), "{what}");
        println!("riichi from a file, {what}: {} records, {n} allocations", log.records.len());
        assert!(n <= MOST_RIICHI, "{what}: {n} allocations, more than {MOST_RIICHI}");
    }
}

/// The guard bites: a check beside the engine that allocated once per record (as writing a
/// record's notation for every record would) takes the same validation over the bound.
#[test]
fn a_check_that_allocates_per_record_goes_over_the_bound() {
    /// Writes each record's notation when `write` (and counts its bytes), else only counts.
    struct Notes {
        write: bool,
        seen: usize,
    }
    impl<G: Game> Watch<G> for Notes {
        fn record(&mut self, _: usize, record: &Record<G::Action>, _: &G) -> Result<(), Fault> {
            self.seen += if self.write { record.action.to_string().len() } else { 1 };
            Ok(())
        }
    }
    type R = paifu_core::riichi::Riichi;
    let log = simulated::<R>("standard", "alloc bites");
    let records = log.records.len();
    let bytes = encode(&log, Encoding::Binary);
    let validate = |write: bool| {
        let mut notes = Notes { write, seen: 0 };
        let mut reader = LogReader::open(&bytes[..]).unwrap_or_else(|_| panic!("the header reads"));
        let (_, _, verdict) = validate_records::<R, _>(&mut reader, &mut notes).unwrap();
        assert!(verdict.is_valid());
        notes.seen
    };
    validate(false);
    let (seen, quiet) = allocations(|| validate(false));
    assert_eq!(seen, records);
    assert!(quiet <= MOST_RIICHI, "{quiet}");
    let (written, noisy) = allocations(|| validate(true));
    assert!(written > records);
    assert!(noisy > MOST_RIICHI, "{records} records, each written: only {noisy} allocations");
}
