//! The import side (issue 25): validating a real imported Tenhou game, its records checked
//! against the source it embeds, allocates a fixed few times, in either encoding, however many
//! records the game has: nothing per record (the source is read into one list of values and a
//! model of its hands, each record derived and compared in place, places and messages written
//! only for a fault).
//!
//! Real games are read in place from ../shared/real-logs/tenhou.

use crate::allocations;
use paifu_core::log::{encode, Encoding};
use paifu_recorder::import::{import_text, source};
use std::path::PathBuf;

/// The real games, each imported: its name, its records, its rounds, and its log in both
/// encodings.
fn imported() -> Vec<(String, usize, usize, Vec<u8>, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("manifest.json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 31, "the real games in {}", dir.display());
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let imp = import_text("tenhou", &text, text.as_bytes()).unwrap();
            let rounds = imp.log.records.iter().filter(|r| r.claim.as_ref().is_some_and(|c| c.round.is_some())).count();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            (
                name,
                imp.log.records.len(),
                rounds,
                encode(&imp.log, Encoding::JsonLines),
                encode(&imp.log, Encoding::Binary),
            )
        })
        .collect()
}

/// The most allocations validating one real imported game with its source may make: binary
/// logs, JSON Lines logs.
const MOST_BINARY: u64 = 1000;
const MOST_JSON_LINES: u64 = 6000;

#[test]
fn validating_a_real_imported_game_allocates_a_fixed_few_times() {
    let games = imported();
    // Data read once per process (the yaku table) is read before counting.
    assert!(source::validate_bytes(&games[0].4).verdict.is_valid());
    let mut most = (0, 0);
    for (name, records, rounds, jsonl, binary) in &games {
        for (bytes, bound, what) in [(binary, MOST_BINARY, "binary"), (jsonl, MOST_JSON_LINES, "JSON Lines")] {
            let (report, n) = allocations(|| source::validate_bytes(bytes));
            println!("{name} {what} {records} records {rounds} hands: {n}");
            assert!(report.verdict.is_valid(), "{name}: {:?}", report.verdict.fault());
            assert!(
                n <= bound,
                "{name} ({what}, {records} records, {rounds} hands): {n} allocations, more than {bound}"
            );
            if what == "binary" {
                most = most.max((n, *records));
            }
        }
    }
    println!("at most {} allocations (binary)", most.0);
}
