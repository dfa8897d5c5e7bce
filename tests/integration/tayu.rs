//! Ta Yü end to end: conformance over 2, 3 and 4 players, bad logs rejected at the right
//! record, final scores recounted from the board, and the bots.

use paifu_core::log::{self, Encoding, Positions};
use paifu_core::replay::{replay, validate_log};
use paifu_core::tayu::{Action, Rules, Tayu};
use paifu_core::{log::Log, replay::validate_bytes, ErrorCode, Game, Seed};
use paifu_recorder::bots::Bots;
use paifu_recorder::conformance;
use paifu_recorder::play_game;
use paifu_recorder::Bot;

fn bots(names: &[&str], seed: &Seed) -> Vec<Box<dyn Bot<Tayu>>> {
    names.iter().enumerate().map(|(i, n)| Tayu::bot(n, &seed.child(&format!("bot {i}"))).unwrap()).collect()
}

fn game(ruleset: &str, names: &[&str], seed: &str) -> Log<Action> {
    let rules = Tayu::rules(ruleset, &Default::default()).unwrap();
    let seed = Seed::from_text(seed);
    let mut b = bots(names, &seed);
    play_game::<Tayu>(ruleset, rules, seed, &mut b, Default::default()).unwrap()
}

fn conform(ruleset: &str, names: &'static [&'static str], games: usize) {
    let rules = Tayu::rules(ruleset, &Default::default()).unwrap();
    let seed = Seed::from_text(&format!("tayu conformance {ruleset} {names:?}"));
    let counts =
        conformance::run::<Tayu>(ruleset, rules, seed, games, |i| bots(names, &Seed::from_text(&format!("bots {i}"))))
            .unwrap_or_else(|e| panic!("{ruleset} {names:?}: {e}"));
    assert_eq!(counts.games, games);
    assert!(counts.actions > games * 20, "{counts:?}");
}

#[test]
fn conformance_two_players() {
    conform("standard", &["random", "random"], 4);
    conform("standard", &["greedy", "random"], 3);
}

#[test]
fn conformance_two_players_face_up() {
    conform("faceup", &["random", "greedy"], 4);
}

#[test]
fn conformance_three_players() {
    conform("standard", &["random", "random", "random"], 4);
    conform("standard", &["greedy", "greedy", "random"], 3);
}

#[test]
fn conformance_four_players() {
    conform("standard", &["random", "random", "random", "random"], 4);
    conform("standard", &["greedy", "random", "greedy", "random"], 2);
}

/// Recounts the final scores from the pieces in the view: an exit whose neighbour square is
/// off the 19 x 19 board is a mouth, worth 2 at positions 3, 9, 15 of its coast, else 1.
fn recount(view: &serde_json::Value) -> [i64; 4] {
    let mut pts = [0i64; 4];
    for p in view["pieces"].as_array().unwrap() {
        for e in p["exits"].as_array().unwrap() {
            let (r, c) = (e["row"].as_i64().unwrap(), e["col"].as_i64().unwrap());
            let (coast, pos) = match e["side"].as_str().unwrap() {
                "N" if r == 0 => (0, c),
                "E" if c == 18 => (1, r),
                "S" if r == 18 => (2, c),
                "W" if c == 0 => (3, r),
                _ => continue,
            };
            pts[coast] += if [3, 9, 15].contains(&pos) { 2 } else { 1 };
        }
    }
    pts
}

#[test]
fn final_scores_are_the_products_of_the_coasts_recounted_from_the_board() {
    for (seats, k) in [(2, 0), (2, 1), (4, 0), (3, 0), (3, 1)] {
        let names = vec!["greedy"; seats];
        let log = game("standard", &names, &format!("recount {seats} {k}"));
        let (state, _) = replay::<Tayu>(&log, &Positions::default(), None).unwrap();
        // The view as the dashboard's API writes it.
        let view = serde_json::to_value(state.view()).unwrap();
        let pts = recount(&view);
        let ns = pts[0] * pts[2];
        let ew = pts[1] * pts[3];
        let scores = state.scores();
        let last = log.records.last().unwrap().claim.clone().unwrap();
        assert_eq!(last.final_scores.as_ref(), Some(&scores));
        match seats {
            2 => assert_eq!(scores, vec![ns, ew]),
            4 => assert_eq!(scores, vec![ns, ew, ns, ew]),
            _ => {
                let (flood, bid) = state.flood().unwrap();
                let won = ns < i64::from(bid) && ew < i64::from(bid);
                for s in 0..3u8 {
                    let want = match state.side(s) {
                        Some(paifu_core::tayu::Side::NorthSouth) => ns,
                        Some(paifu_core::tayu::Side::EastWest) => ew,
                        None if won => i64::from(bid),
                        None => 0,
                    };
                    assert_eq!(scores[usize::from(s)], want, "seat {s}, flood {flood}");
                }
            }
        }
        // The view carries the board for the web viewer.
        for key in ["pieces", "open_ends", "coasts", "stack", "drawable", "seats", "board", "scores", "to_act"] {
            assert!(!view[key].is_null(), "{key}");
        }
    }
}

fn first_place(log: &Log<Action>, from: usize) -> usize {
    (from..log.records.len()).find(|&i| matches!(log.records[i].action, Action::Place(_))).unwrap()
}

#[test]
fn a_placement_on_a_covered_square_is_rejected_at_its_record() {
    let log = game("standard", &["greedy", "random"], "bad place");
    let first = first_place(&log, 0);
    let k = first_place(&log, first + 1);
    let mut bad = log.clone();
    let Action::Place(p) = log.records[first].action.clone() else { unreachable!() };
    let Action::Place(mut q) = log.records[k].action.clone() else { unreachable!() };
    q.row = p.row;
    q.col = p.col;
    q.facing = p.facing;
    bad.records[k].action = Action::Place(q);
    let f = validate_log::<Tayu>(&bad, &Positions::default()).fault().cloned().unwrap();
    assert_eq!((f.index, f.code), (Some(k), ErrorCode::IllegalAction), "{}", f.describe());
    assert!(f.message.contains("already covered"), "{}", f.message);
}

#[test]
fn a_draw_from_a_far_column_is_rejected_at_its_record() {
    let log = game("standard", &["random", "random"], "bad draw");
    let k = 4;
    assert!(matches!(log.records[k].action, Action::Draw(_)));
    let mut bad = log.clone();
    bad.records[k].action = Action::Draw(9);
    let f = validate_log::<Tayu>(&bad, &Positions::default()).fault().cloned().unwrap();
    assert_eq!((f.index, f.code), (Some(k), ErrorCode::IllegalAction));
    assert!(f.message.contains("nearest"), "{}", f.message);
}

#[test]
fn a_wrong_final_claim_and_a_truncated_log_are_rejected() {
    let log = game("standard", &["greedy", "greedy", "greedy"], "claims");
    let n = log.records.len();
    let mut bad = log.clone();
    if let Some(c) = bad.records[n - 1].claim.as_mut() {
        c.final_scores = Some(vec![1, 2, 3]);
    }
    let f = validate_log::<Tayu>(&bad, &Positions::default()).fault().cloned().unwrap();
    assert_eq!((f.index, f.code), (Some(n - 1), ErrorCode::ClaimMismatch));
    let mut cut = log.clone();
    cut.records.truncate(n - 1);
    let f = validate_log::<Tayu>(&cut, &Positions::default()).fault().cloned().unwrap();
    assert_eq!((f.index, f.code), (Some(n - 1), ErrorCode::Truncated));
}

#[test]
fn bad_notation_in_a_jsonl_log_is_rejected_at_its_line() {
    let log = game("standard", &["random", "random", "random", "random"], "notation");
    let text = String::from_utf8(log::encode(&log, Encoding::JsonLines)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Line 1 is the header; record 3 is on line 5.
    let target = lines[4];
    let broken = target.replacen("\"draw ", "\"drew ", 1).replacen("\"place ", "\"put ", 1);
    assert_ne!(broken, target);
    let mut out = lines.clone();
    out[4] = &broken;
    let bytes = (out.join("\n") + "\n").into_bytes();
    let report = validate_bytes(&bytes);
    let f = report.verdict.fault().unwrap();
    assert_eq!((f.code, f.line), (ErrorCode::BadEncoding, Some(5)), "{}", f.describe());
    // The untouched log validates through the registry, in both encodings.
    for enc in [Encoding::JsonLines, Encoding::Binary] {
        let r = validate_bytes(&log::encode(&log, enc));
        assert!(r.verdict.is_valid(), "{:?}", r.verdict);
    }
}

#[test]
fn the_board_is_drawn_after_every_record() {
    let log = game("faceup", &["greedy", "random"], "render");
    for k in [0, 1, 2, 3, 10, log.records.len() - 1] {
        let (state, _) = replay::<Tayu>(&log, &Positions::default(), Some(k)).unwrap();
        let text = state.render();
        assert!(text.contains("Coasts: North"), "{text}");
        // 19 board rows, each numbered.
        assert!(text.lines().filter(|l| l.trim_start().starts_with("18 ")).count() == 1, "{text}");
    }
}

#[test]
fn greedy_beats_random_more_often_than_not() {
    let mut wins = 0;
    let games = 12;
    for k in 0..games {
        // Greedy plays both sides in turn.
        let g = k % 2;
        let names = if g == 0 { ["greedy", "random"] } else { ["random", "greedy"] };
        let log = game("standard", &names, &format!("strength {k}"));
        let fin = log.records.last().unwrap().claim.clone().unwrap().final_scores.unwrap();
        if fin[g] > fin[1 - g] {
            wins += 1;
        }
    }
    assert!(wins * 2 > games, "greedy won {wins} of {games}");
}

#[test]
fn the_engine_needs_the_seed() {
    assert!(Tayu::new(Rules::default(), 2, None).is_err());
}

#[test]
fn a_bid_that_is_not_lower_is_rejected_at_its_record() {
    let log = game("standard", &["greedy", "greedy", "greedy"], "bad bid");
    // The greedy bots open at 24 and go 3 lower: record 1 is the second bid.
    assert_eq!(log.records[0].action, Action::Bid(24));
    assert_eq!(log.records[1].action, Action::Bid(21));
    let mut bad = log.clone();
    bad.records[1].action = Action::Bid(24);
    let f = validate_log::<Tayu>(&bad, &Positions::default()).fault().cloned().unwrap();
    assert_eq!((f.index, f.code), (Some(1), ErrorCode::IllegalAction), "{}", f.describe());
    assert!(f.message.contains("bid lower or pass"), "{}", f.message);
    // The opener passing is refused too.
    let mut bad = log.clone();
    bad.records[0].action = Action::Pass;
    let f = validate_log::<Tayu>(&bad, &Positions::default()).fault().cloned().unwrap();
    assert_eq!((f.index, f.code), (Some(0), ErrorCode::IllegalAction));
}
