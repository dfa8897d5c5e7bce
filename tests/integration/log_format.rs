//! The log format: known-answer vectors, encodings, digests.

use crate::util::tzq_game;
use paifu_core::log::{self, Encoding};
use paifu_core::tzq::{standard_deck, Action, Card, Tzq};
use paifu_core::{Game, Seed};

// These vectors were computed by docs/reference/paifu_reference.py, a separate implementation of
// the stream in Python with the PyPI blake3 package; they are also printed in
// docs/log-format.md.
const SEED_PAIFU: &str = "7526b96a2b853902c7264906fea7ebed48af99de5e7c33d3aadc7bf7c0c9525a";

#[test]
fn seed_from_text_and_commitment_match_the_reference() {
    let seed = Seed::from_text("paifu");
    assert_eq!(seed.to_hex(), SEED_PAIFU);
    assert_eq!(seed.commitment().to_hex(), "3ab836c9c7b6256ffaeb2c94aa3770cccf96498a693a63582d38ed8361a26558");
    assert_eq!(seed.child("game/0").to_hex(), "3588230ebb80b097d8f682da5afc4b77490988441142e35fb3bfa02f1fe3d83c");
    assert_eq!(Seed::from_text(SEED_PAIFU), seed, "64 hex digits are the seed itself");
}

#[test]
fn stream_known_answers() {
    let seed = Seed::from_text("paifu");
    let mut s = seed.stream("example");
    assert_eq!(
        [s.next_u64(), s.next_u64(), s.next_u64()],
        [16500116390304114945, 15161163488112748999, 7439685850730549659]
    );
    let mut s = seed.stream("example/below");
    let v: Vec<u64> = (0..12).map(|_| s.below(6)).collect();
    assert_eq!(v, [4, 5, 0, 2, 5, 1, 2, 4, 1, 1, 0, 0]);
    let mut items: Vec<u32> = (0..10).collect();
    seed.stream("example/shuffle").shuffle(&mut items);
    assert_eq!(items, [4, 1, 9, 6, 7, 5, 8, 0, 2, 3]);
}

#[test]
fn tzq_deal_known_answer() {
    let seed = Seed::from_text("paifu");
    let mut deck: Vec<Card> = standard_deck().unwrap().to_vec();
    seed.stream("tzq/round/1/deal").shuffle(&mut deck);
    let first: Vec<String> = deck[..10].iter().map(|c| c.to_string()).collect();
    assert_eq!(first, ["9r", "8b", "Q", "Wg", "2r", "1r", "3w", "2w", "9w", "Rr"]);
    // Dealt alternately from the top, the starter (seat 0 for this seed) first.
    let g = Tzq::new(Default::default(), 2, Some(&seed)).unwrap();
    assert_eq!(g.turn(), 0);
    let hand0: Vec<String> = g.hand(0).iter().map(|c| c.to_string()).collect();
    assert_eq!(hand0, ["9r", "Q", "2r", "3w", "9w"]);
}

#[test]
fn both_encodings_round_trip_and_share_the_digest() {
    let log = tzq_game("encodings", ["greedy", "random"]);
    let jsonl = log::encode(&log, Encoding::JsonLines);
    let bin = log::encode(&log, Encoding::Binary);
    assert!(bin.len() < jsonl.len() / 3, "binary {} vs jsonl {}", bin.len(), jsonl.len());
    let (a, _) = log::decode::<Action>(&jsonl).unwrap();
    let (b, _) = log::decode::<Action>(&bin).unwrap();
    assert_eq!(a, log);
    assert_eq!(b, log);
    assert_eq!(a.digest(), b.digest());
    // Converting twice gives the same bytes.
    assert_eq!(log::encode(&b, Encoding::JsonLines), jsonl);
    assert_eq!(log::encode(&a, Encoding::Binary), bin);
}

#[test]
fn any_change_changes_the_digest() {
    let log = tzq_game("digest", ["greedy", "greedy"]);
    let d = log.digest();
    let mut changed = log.clone();
    changed.records[5].action = Action::Draw;
    assert_ne!(changed.digest(), d);
    let mut dropped = log.clone();
    dropped.records.remove(7);
    assert_ne!(dropped.digest(), d);
    let mut inserted = log.clone();
    inserted.records.insert(3, log.records[3].clone());
    assert_ne!(inserted.digest(), d);
    let mut reordered = log.clone();
    reordered.records.swap(10, 11);
    assert_ne!(reordered.digest(), d);
    let mut claim = log.clone();
    claim.records.last_mut().unwrap().claim = None;
    assert_ne!(claim.digest(), d);
    let mut header = log.clone();
    header.header.meta.insert("table".into(), "2".into());
    assert_ne!(header.digest(), d);
}

#[test]
fn revealing_the_seed_keeps_the_digest() {
    let log = tzq_game("reveal", ["greedy", "greedy"]);
    let mut hidden = log.clone();
    hidden.header.seed = None;
    assert!(hidden.header.commitment.is_some());
    assert_eq!(hidden.digest(), log.digest());
    // But a different seed with the same commitment is caught by the validator.
    let mut wrong = log.clone();
    wrong.header.seed = Some(Seed::from_text("other"));
    let v = paifu_core::replay::validate_log::<Tzq>(&wrong, &Default::default());
    assert_eq!(v.fault().unwrap().code, paifu_core::ErrorCode::SeedCommitmentMismatch);
    // Without the seed the log cannot be replayed yet.
    let v = paifu_core::replay::validate_log::<Tzq>(&hidden, &Default::default());
    assert_eq!(v.fault().unwrap().code, paifu_core::ErrorCode::MissingSeed);
}

#[test]
fn the_chain_has_one_link_per_record_ending_in_the_digest() {
    let log = tzq_game("chain", ["random", "greedy"]);
    let chain = log.chain();
    assert_eq!(chain.len(), log.records.len());
    assert_eq!(*chain.last().unwrap(), log.digest());
    let mut prefix = log.clone();
    prefix.records.truncate(10);
    assert_eq!(prefix.digest(), chain[9], "a prefix's digest is the chain link at its end");
}

/// The worked example of docs/log-format.md. Its bytes and digest links were computed by
/// docs/reference/paifu_reference.py, written from the specification alone.
fn worked_example() -> paifu_core::log::Log<Action> {
    use paifu_core::{log::Claim, log::Header, log::Record};
    let mut header = Header::new(
        "tzq",
        "standard",
        Default::default(),
        vec!["Aiko".into(), "Bence".into()],
        Seed::from_text("paifu"),
    );
    header.engine = "paifu-core 0.1.0".into();
    header.meta.insert("event".into(), "worked example".into());
    let rec =
        |seq: u32, seat: u8, a: &str, claim: Option<Claim>| Record { seq, seat, action: a.parse().unwrap(), claim };
    paifu_core::log::Log {
        header,
        records: vec![
            rec(0, 0, "draw", None),
            rec(1, 0, "discard 9w", None),
            rec(2, 1, "chow 7b 8g take 9w keep 9w", Some(Claim { round: Some(vec![0, 0]), final_scores: None })),
        ],
    }
}

#[test]
fn worked_example_matches_the_reference_implementation() {
    let log = worked_example();
    let header = postcard::to_stdvec(&log.header.canonical()).unwrap();
    assert_eq!(hex::encode(header), "0103747a71087374616e64617264001070616966752d636f726520302e312e30020441696b6f0542656e636500013ab836c9c7b6256ffaeb2c94aa3770cccf96498a693a63582d38ed8361a265580001056576656e740e776f726b6564206578616d706c65");
    let recs: Vec<String> = log.records.iter().map(|r| hex::encode(postcard::to_stdvec(r).unwrap())).collect();
    assert_eq!(recs, ["00000000", "0100012b00", "0201031e242b2b010102000000"]);
    let links: Vec<String> = log.chain().iter().map(|d| d.to_hex()).collect();
    assert_eq!(
        links,
        [
            "8e240cfec02bc14adfc2923557d6ced8af3e150d84113cb3b657f75cc0a65e92",
            "aece4474bb846d24bdb94b8b1fccce10a77c1e82f7e42fe46cb91f98a950ce9e",
            "d129035117db5f71cee09c55ad4c5e76fde2c3a43a5fd4d7101411ce6d92991b",
        ]
    );
    // And the JSON Lines text the document shows.
    let text = String::from_utf8(log::encode(&log, Encoding::JsonLines)).unwrap();
    assert_eq!(
        text.lines().nth(3).unwrap(),
        r#"{"seq":2,"seat":1,"action":"chow 7b 8g take 9w keep 9w","claim":{"round":[0,0]}}"#
    );
}
