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

/// A real game imported: its name, its records, its rounds, and its log in JSON Lines and in
/// binary.
type Imported = (String, usize, usize, Vec<u8>, Vec<u8>);

/// The real games, each imported.
fn imported() -> Vec<Imported> {
    crate::real_tenhou_games()
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

/// The most allocations validating one real imported game with its source may make: a fixed
/// number for the game, and a few for each hand (its result and facts, the source's hand read
/// into the record model), never one per record: a hand has about 130 records, so one
/// allocation a record more would pass the bound in every long game. Measured at 027dee0: at
/// most 300 + 55 a hand in binary, 300 + 61 a hand in JSON Lines (whose record lines are read
/// with borrowed fields: the little more is the header's text).
const MOST_BINARY: (u64, u64) = (300, 60);
const MOST_JSON_LINES: (u64, u64) = (300, 70);

#[test]
fn validating_a_real_imported_game_allocates_a_fixed_few_times() {
    let games = imported();
    // Data read once per process (the yaku table) is read before counting.
    assert!(source::validate_bytes(&games[0].4).verdict.is_valid());
    let mut over = Vec::new();
    for (name, records, rounds, jsonl, binary) in &games {
        for (bytes, (fixed, per_hand), what) in
            [(binary, MOST_BINARY, "binary"), (jsonl, MOST_JSON_LINES, "JSON Lines")]
        {
            let bound = fixed + per_hand * *rounds as u64;
            let (report, n) = allocations(|| source::validate_bytes(bytes));
            println!("{name} {what} {records} records {rounds} hands: {n} (at most {bound})");
            assert!(report.verdict.is_valid(), "{name}: {:?}", report.verdict.fault());
            if n > bound {
                over.push(format!(
                    "{name} ({what}, {records} records, {rounds} hands): {n} allocations, more than {bound}"
                ));
            }
        }
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}
