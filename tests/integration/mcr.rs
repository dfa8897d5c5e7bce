//! Chinese Official mahjong: the conformance simulation (whole matches between bots replay
//! valid, every hand zero-sum) and bad logs refused at the right record.

use paifu_core::log::{Header, Options, OptValue, Positions, Record, Source};
use paifu_core::mcr::{Action, Mcr};
use paifu_core::replay::validate_log;
use paifu_core::{Digest, ErrorCode, Game, Log, Seed, Verdict};
use paifu_recorder::bots::Bots;
use paifu_recorder::conformance;

fn conformance_run(games: usize, bots: [&'static str; 4], mutate_every: usize) -> conformance::Counts {
    let rules = Mcr::rules("standard", &Default::default()).unwrap();
    let seed = Seed::from_text(&format!("conformance mcr {bots:?}"));
    let counts = conformance::run_with::<Mcr, String>(
        "standard",
        rules,
        seed,
        games,
        mutate_every,
        |i| bots.iter().enumerate().map(|(s, b)| Mcr::bot(b, &seed.child(&format!("{i}/{s}"))).unwrap()).collect(),
        |_, _, outcome| {
            for r in &outcome.rounds {
                if r.deltas.iter().sum::<i64>() != 0 {
                    return Err(format!("hand {} is not zero-sum: {:?} ({})", r.round, r.deltas, r.summary));
                }
            }
            if outcome.rounds.len() != 16 {
                return Err(format!("{} hands, not 16", outcome.rounds.len()));
            }
            Ok(())
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(counts.games, games);
    assert_eq!(counts.rounds, games * 16);
    assert!(counts.mutations_invalid * 10 >= counts.mutations * 9, "{counts:?}");
    counts
}

#[test]
fn mcr_greedy_bots_play_valid_zero_sum_matches() {
    conformance_run(80, ["greedy", "greedy", "greedy", "random"], 10);
}

#[test]
fn mcr_random_bots_play_valid_zero_sum_matches() {
    conformance_run(50, ["random"; 4], 10);
}

/// An imported hand (no seed): 136 tiles, one hand, the deals then `records`.
fn imported_log(records: &[(u8, &str)]) -> Log<Action> {
    let deals = ["8m19m19p19s234567z", "123m456p789s111z5z", "234567m345s66s55z", "22m33m44p55p66p77p8s"];
    let options = Options::from([("flowers".to_string(), OptValue::Bool(false)), ("hands".to_string(), OptValue::Int(1))]);
    let mut header = Header::new("mcr", "standard", options, vec!["a".into(), "b".into(), "c".into(), "d".into()], Seed::from_text("unused"));
    header.seed = None;
    header.commitment = None;
    header.source = Some(Source { format: "test".into(), id: "bad logs".into(), digest: Digest([0; 32]) });
    let mut all: Vec<(u8, String)> = deals.iter().enumerate().map(|(s, d)| (s as u8, format!("deal {d}"))).collect();
    all.extend(records.iter().map(|(s, a)| (*s, a.to_string())));
    let records = all
        .iter()
        .enumerate()
        .map(|(i, (s, a))| Record { seq: i as u32, seat: *s, action: a.parse().unwrap(), claim: None })
        .collect();
    Log { header, records }
}

/// The fault of a log: its record index and code.
fn fault(records: &[(u8, &str)]) -> (usize, ErrorCode, String) {
    match validate_log::<Mcr>(&imported_log(records), &Positions::default()) {
        Verdict::Invalid(f) => (f.index.unwrap(), f.code, f.message),
        Verdict::Valid(_) => panic!("valid: {records:?}"),
    }
}

#[test]
fn a_good_imported_hand_validates_with_its_settlement() {
    let log = imported_log(&[(0, "draw 3p"), (0, "discard 5z"), (2, "pass"), (1, "win")]);
    let Verdict::Valid(o) = validate_log::<Mcr>(&log, &Positions::default()) else { panic!() };
    let fan = o.rounds[0].facts.iter().find(|f| f.key == "fan").unwrap().value;
    assert_eq!(o.final_scores, [-(8 + fan), 24 + fan, -8, -8]);
}

#[test]
fn bad_logs_are_refused_at_the_right_record() {
    // Records 0-3 are the deals.
    let (i, code, m) = fault(&[(0, "draw 6s"), (0, "discard 6s"), (2, "chow 7s 8s")]);
    assert_eq!((i, code), (6, ErrorCode::IllegalAction), "{m}");
    assert!(m.contains("only on the discard of the player before"), "{m}");

    let (i, code, m) = fault(&[(0, "draw 3p"), (0, "discard 5z"), (2, "win")]);
    assert_eq!((i, code), (6, ErrorCode::BelowMinimum), "{m}");
    assert!(m.contains("worth 6 fan"), "{m}");

    let (i, code, m) = fault(&[(0, "draw 6s"), (0, "discard 6s"), (1, "pass"), (2, "pass"), (1, "draw 2s"), (1, "concealed_kong 1z")]);
    assert_eq!((i, code), (9, ErrorCode::IllegalAction), "{m}");
    assert!(m.contains("a kong is four tiles"), "{m}");

    // A kong of three: seat 2 holds two 6s, so with the discard it would have three.
    let (i, code, m) = fault(&[(0, "draw 6s"), (0, "discard 6s"), (2, "kong 6s")]);
    assert_eq!((i, code), (6, ErrorCode::IllegalAction), "{m}");
    assert!(m.contains("with 2 in its hand: a kong on a discard needs three"), "{m}");

    // A claim after the next player has drawn.
    let (i, code, m) = fault(&[(0, "draw 6s"), (0, "discard 6s"), (1, "pass"), (2, "pass"), (1, "draw 2s"), (2, "pung 6s")]);
    assert_eq!((i, code), (9, ErrorCode::NotYourTurn), "{m}");
}
