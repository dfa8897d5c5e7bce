//! Hungarian mahjong (1925) end to end: the conformance simulation over every match length and
//! both bots, bad logs refused at the right record (a chow from across the table, a discard added
//! to a laid-out pong, a wrong payment, a win claimed after the next draw), the bots' strength, and
//! the commands: simulate, validate, show, sign and verify, score, ingest and stats.

use crate::util::{paifu, paifu_with_input, stderr, stdout};
use paifu_core::hungarian::{Action, Hungarian, Rules};
use paifu_core::log::{self, Encoding, Log, Positions, Record};
use paifu_core::replay::validate_bytes;
use paifu_core::replay::{replay, validate_log};
use paifu_core::{ErrorCode, Game, Seed};
use paifu_recorder::bots::Bots;
use paifu_recorder::Bot;
use paifu_recorder::{conformance, play_game};

fn bots(names: &[&str; 4], seed: &Seed) -> Vec<Box<dyn Bot<Hungarian>>> {
    names.iter().enumerate().map(|(i, n)| Hungarian::bot(n, &seed.child(&format!("bot {i}"))).unwrap()).collect()
}

pub(crate) fn game(ruleset: &str, names: &[&str; 4], seed: &str) -> Log<Action> {
    let rules = Hungarian::rules(ruleset, &Default::default()).unwrap();
    let seed = Seed::from_text(seed);
    let mut b = bots(names, &seed);
    play_game::<Hungarian>(ruleset, rules, seed, &mut b, Default::default()).unwrap()
}

/// The conformance check over `games` games; every hand's payments add up to zero, every game's
/// final scores too, and each is the sum of its hands.
fn conform(ruleset: &str, names: &'static [&'static str; 4], games: usize, mutate_every: usize) -> conformance::Counts {
    let rules = Hungarian::rules(ruleset, &Default::default()).unwrap();
    let seed = Seed::from_text(&format!("hungarian conformance {ruleset} {names:?}"));
    let counts = conformance::run_with::<Hungarian, String>(
        ruleset,
        rules,
        seed,
        games,
        mutate_every,
        |i| bots(names, &Seed::from_text(&format!("bots {i}"))),
        |_, _, outcome| {
            for r in &outcome.rounds {
                if r.deltas.iter().sum::<i64>() != 0 {
                    return Err(format!("hand {} is not zero-sum: {:?}", r.round, r.deltas));
                }
            }
            let sums: Vec<i64> = (0..4).map(|s| outcome.rounds.iter().map(|r| r.deltas[s]).sum()).collect();
            if sums != outcome.final_scores || outcome.final_scores.iter().sum::<i64>() != 0 {
                return Err(format!("final scores {:?}, hands add up to {sums:?}", outcome.final_scores));
            }
            Ok(())
        },
    )
    .unwrap_or_else(|e| panic!("{ruleset} {names:?}: {e}"));
    assert_eq!(counts.games, games);
    assert!(counts.mutations_invalid * 10 >= counts.mutations * 9, "{counts:?}");
    counts
}

#[test]
fn conformance_thousands_of_hands_with_random_bots() {
    let c = conform("hand", &["random", "random", "random", "random"], 1500, 25);
    assert!(c.rounds >= 1500, "{c:?}");
}

#[test]
fn conformance_thousands_of_hands_with_greedy_and_random_bots() {
    let c = conform("hand", &["greedy", "random", "greedy", "random"], 1500, 25);
    assert!(c.rounds >= 1500, "{c:?}");
}

#[test]
fn conformance_whole_parties() {
    let c = conform("standard", &["greedy", "greedy", "greedy", "greedy"], 12, 4);
    assert!(c.rounds >= 12 * 16, "{c:?}");
    conform("sixteen", &["greedy", "random", "greedy", "random"], 8, 4);
    conform("game", &["random", "greedy", "random", "greedy"], 20, 5);
}

#[test]
fn conformance_with_every_other_reading() {
    for (k, v) in [
        ("seating", "dice"),
        ("break_throws", "1"),
        ("losers_settle", "false"),
        ("east_wins_doubling", "false"),
        ("honours_in", "pair"),
        ("seven_pairs_repeat", "false"),
    ] {
        let mut options = paifu_core::log::Options::new();
        let value = match v {
            "true" | "false" => log::OptValue::Bool(v == "true"),
            _ => v.parse().map(log::OptValue::Int).unwrap_or_else(|_| log::OptValue::Text(v.into())),
        };
        options.insert(k.into(), value);
        let rules = Hungarian::rules("game", &options).unwrap();
        let seed = Seed::from_text(&format!("options {k}"));
        let counts = conformance::run::<Hungarian>("game", rules, seed, 6, |i| {
            bots(&["greedy", "random", "greedy", "greedy"], &Seed::from_text(&format!("b {i}")))
        })
        .unwrap_or_else(|e| panic!("{k}={v}: {e}"));
        assert_eq!(counts.games, 6);
    }
}

/// Replays `log` record by record and answers the first position (before record `k`) where
/// `pick` finds a bad record to put there instead.
fn first_where(
    log: &Log<Action>,
    mut pick: impl FnMut(&Hungarian) -> Option<Record<Action>>,
) -> Option<(usize, Record<Action>)> {
    let mut state: Hungarian = paifu_core::replay::setup(&log.header).unwrap();
    for (k, rec) in log.records.iter().enumerate() {
        if let Some(mut bad) = pick(&state) {
            bad.seq = k as u32;
            return Some((k, bad));
        }
        state.play_mut(rec.seat, &rec.action).unwrap();
    }
    None
}

/// Searches simulated games for a position where `pick` finds a bad record, and checks that the
/// log cut there with that record appended is refused at it with `code` and `says` in the message.
fn refused_at_its_record(what: &str, pick: impl Fn(&Hungarian) -> Option<Record<Action>>, code: ErrorCode, says: &str) {
    for i in 0..60 {
        let log = game("game", &["greedy", "greedy", "greedy", "greedy"], &format!("{what} {i}"));
        let Some((k, bad)) = first_where(&log, &pick) else { continue };
        let mut cut = log.clone();
        cut.records.truncate(k);
        cut.records.push(bad);
        let f = validate_log::<Hungarian>(&cut, &Positions::default()).fault().cloned().unwrap();
        assert_eq!((f.index, f.code), (Some(k), code), "{what}: {}", f.describe());
        assert!(f.message.contains(says), "{what}: {}", f.message);
        // The same in binary, through the registry.
        let r = validate_bytes(&log::encode(&cut, Encoding::Binary));
        assert_eq!(r.verdict.fault().map(|f| (f.index, f.code)), Some((Some(k), code)));
        return;
    }
    panic!("no game gave a position for: {what}");
}

/// Byte-level changes of a Hungarian log in both encodings never panic, and a refusal says
/// something; every prefix of the binary encoding is refused.
#[test]
fn mutated_hungarian_logs_never_panic() {
    let log = game("game", &["greedy", "random", "greedy", "random"], "mutate");
    let mut s = Seed::from_text("hungarian mutations").stream("bytes");
    let mut refused = 0;
    for enc in [Encoding::JsonLines, Encoding::Binary] {
        let bytes = log::encode(&log, enc);
        for _ in 0..600 {
            let mut b = bytes.clone();
            let i = s.below(b.len() as u64) as usize;
            match s.below(4) {
                0 => b[i] = s.below(256) as u8,
                1 => b.truncate(i),
                2 => {
                    b.remove(i);
                }
                _ => b.insert(i, s.below(256) as u8),
            }
            let r = validate_bytes(&b);
            if let Some(f) = r.verdict.fault() {
                assert!(!f.message.is_empty());
                refused += 1;
            }
        }
        if enc == Encoding::Binary {
            for n in 0..bytes.len() {
                assert!(!validate_bytes(&bytes[..n]).verdict.is_valid(), "prefix {n}");
            }
        }
    }
    assert!(refused > 600, "{refused}");
}

fn rec(seat: u8, action: Action) -> Record<Action> {
    Record { seq: 0, seat, action, claim: None }
}

#[test]
fn a_chow_from_across_the_table_is_refused_at_its_record() {
    refused_at_its_record(
        "chow across",
        |g| {
            let (from, tile) = g.claim_window()?;
            if tile.is_honor() {
                return None;
            }
            let across = g.next_seat(g.next_seat(from));
            let hand = g.hand(across);
            let k = tile.kind();
            let n = k % 9;
            (n <= 6 && hand[k + 1] > 0 && hand[k + 2] > 0).then(|| {
                rec(
                    across,
                    Action::chow(
                        paifu_core::mahjong::Tile::kind_tile(k + 1),
                        paifu_core::mahjong::Tile::kind_tile(k + 2),
                    ),
                )
            })
        },
        ErrorCode::IllegalAction,
        "only the next player",
    );
}

#[test]
fn a_discard_added_to_a_laid_out_pong_is_refused_at_its_record() {
    refused_at_its_record(
        "added from a discard",
        |g| {
            let (from, tile) = g.claim_window()?;
            (0..4u8).filter(|&s| s != from).find_map(|s| {
                g.melds(s)
                    .iter()
                    .any(|m| m.kind == paifu_core::mahjong::MeldKind::Pung && m.base() == tile.kind())
                    .then(|| rec(s, Action::Kong))
            })
        },
        ErrorCode::IllegalAction,
        "cannot be added to a laid-out pong",
    );
}

#[test]
fn a_win_claimed_after_the_next_draw_is_refused_at_its_record() {
    // A seat that could win on a discard passes; everyone else passes; the next player draws; the
    // seat then claims the win.
    for i in 0..80 {
        let log = game("game", &["greedy", "greedy", "greedy", "greedy"], &format!("late win {i}"));
        let mut state: Hungarian = paifu_core::replay::setup(&log.header).unwrap();
        for (k, r) in log.records.iter().enumerate() {
            let winner = state
                .claim_window()
                .and_then(|_| state.to_act().iter().find(|&s| state.legal_actions(s).contains(&Action::Mahjong)));
            if let Some(w) = winner {
                let mut cut = log.clone();
                cut.records.truncate(k);
                let mut s = state.clone();
                while s.claim_window().is_some() {
                    let seat = s.to_act().iter().next().unwrap();
                    s.play_mut(seat, &Action::Pass).unwrap();
                    cut.records.push(Record { seq: cut.records.len() as u32, seat, action: Action::Pass, claim: None });
                }
                if s.drawn().is_none() || s.to_act().contains(w) {
                    break;
                }
                let at = cut.records.len();
                cut.records.push(Record { seq: at as u32, seat: w, action: Action::Mahjong, claim: None });
                let f = validate_log::<Hungarian>(&cut, &Positions::default()).fault().cloned().unwrap();
                assert_eq!((f.index, f.code), (Some(at), ErrorCode::IllegalAction), "{}", f.describe());
                assert!(f.message.contains("only until the next player draws"), "{}", f.message);
                return;
            }
            state.play_mut(r.seat, &r.action).unwrap();
        }
    }
    panic!("no game had a win on a discard");
}

#[test]
fn a_wrong_payment_is_refused_at_its_record() {
    let log = game("game", &["greedy", "random", "greedy", "random"], "wrong payment");
    let k = log
        .records
        .iter()
        .position(|r| r.claim.as_ref().and_then(|c| c.round.as_ref()).is_some_and(|d| d.iter().any(|&x| x != 0)))
        .unwrap();
    let mut bad = log.clone();
    let claim = bad.records[k].claim.as_mut().unwrap();
    let deltas = claim.round.as_mut().unwrap();
    // East's double payment paid single: still zero-sum, but wrong.
    let (a, b) = (deltas.iter().position(|&x| x > 0).unwrap(), deltas.iter().position(|&x| x < 0).unwrap());
    deltas[a] -= 1;
    deltas[b] += 1;
    let f = validate_log::<Hungarian>(&bad, &Positions::default()).fault().cloned().unwrap();
    assert_eq!((f.index, f.code), (Some(k), ErrorCode::ClaimMismatch), "{}", f.describe());
    assert!(f.message.contains("score changes claimed"), "{}", f.message);
}

#[test]
fn the_view_shows_the_table_the_flowers_the_sets_and_each_hands_settlement() {
    let log = game("game", &["greedy", "greedy", "greedy", "greedy"], "view");
    let k = log.records.iter().position(|r| r.claim.as_ref().is_some_and(|c| c.round.is_some())).unwrap();
    let (state, _) = replay::<Hungarian>(&log, &Positions::default(), Some(k)).unwrap();
    let v = serde_json::to_value(state.view()).unwrap();
    for key in ["hand", "prevailing", "east", "seating", "wall_break", "wall", "players", "last", "scores", "to_act"] {
        assert!(!v[key].is_null(), "{key}: {v}");
    }
    let last = &v["last"];
    let paid: i64 = last["players"].as_array().unwrap().iter().map(|p| p["settlement"].as_i64().unwrap()).sum();
    assert_eq!(paid, 0);
    let claimed = log.records[k].claim.as_ref().unwrap().round.clone().unwrap();
    for p in last["players"].as_array().unwrap() {
        let seat = p["seat"].as_u64().unwrap() as usize;
        assert_eq!(p["settlement"].as_i64().unwrap(), claimed[seat]);
        assert!(p["lines"].is_array() && p["flowers"].is_array() && p["melds"].is_array());
    }
    for p in v["players"].as_array().unwrap() {
        assert!(p["flowers"].is_array() && p["melds"].is_array() && p["discards"].is_array());
    }
    // Flowers show up over a game.
    let flowers: usize = (0..log.records.len())
        .step_by(40)
        .map(|k| {
            let (s, _) = replay::<Hungarian>(&log, &Positions::default(), Some(k)).unwrap();
            (0..4).map(|seat| s.flowers(seat).len()).sum::<usize>()
        })
        .sum();
    assert!(flowers > 0);
}

#[test]
fn greedy_beats_random() {
    let rules = Rules::default();
    let (mut greedy, mut random) = (0i64, 0i64);
    for i in 0..6 {
        let seed = Seed::from_text(&format!("strength {i}"));
        let names: [&str; 4] = if i % 2 == 0 {
            ["greedy", "random", "greedy", "random"]
        } else {
            ["random", "greedy", "random", "greedy"]
        };
        let mut b = bots(&names, &seed);
        let log = play_game::<Hungarian>(
            "game",
            Rules { length: paifu_core::hungarian::Length::Game, ..rules.clone() },
            seed,
            &mut b,
            Default::default(),
        )
        .unwrap();
        let scores = log.records.last().unwrap().claim.as_ref().unwrap().final_scores.clone().unwrap();
        for (s, n) in names.iter().enumerate() {
            if *n == "greedy" {
                greedy += scores[s];
            } else {
                random += scores[s];
            }
        }
    }
    assert!(greedy > random, "greedy {greedy} vs random {random}");
}

#[test]
fn the_commands_simulate_validate_show_sign_score_and_count_hungarian_games() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    let o = paifu(&["simulate", "hungarian", "--games", "3", "--ruleset", "game", "--seed", "cli", "--out", "logs"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = paifu(&["validate", "logs"], p);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(stdout(&o).lines().filter(|l| l.starts_with("valid ")).count(), 3, "{}", stdout(&o));
    let o = paifu(&["show", "logs/hungarian-0001.paifu.jsonl", "--at", "30"], p);
    assert!(o.status.success() && stdout(&o).contains("Hungarian mahjong, hand"), "{}{}", stdout(&o), stderr(&o));
    // Sign and verify.
    assert!(paifu(&["keygen", "-o", "ref"], p).status.success());
    let o = paifu(&["sign", "logs/hungarian-0001.paifu.jsonl", "--key", "ref.key"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = paifu(
        &["verify", "logs/hungarian-0001.paifu.jsonl.cert.json", "logs/hungarian-0001.paifu.jsonl", "--key", "ref.pub"],
        p,
    );
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    // The archive and the statistics.
    let o = paifu(&["ingest", "logs", "--db", "a.db", "--quiet"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = paifu(&["stats", "--db", "a.db", "--game", "hungarian", "--format", "json"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let stats: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let m = &stats["overall"]["hungarian"]["metrics"];
    for key in ["win_rate", "void_rate", "settlement:E", "settlement:N", "average_win_score", "line:mahjong"] {
        assert!(m[key].is_number(), "{key}: {m}");
    }
    let o = paifu(&["stats", "--db", "a.db", "--game", "hungarian"], p);
    assert!(stdout(&o).contains("Figures and premiums scored"), "{}", stdout(&o));
    // The referee's calculator.
    let hand = r#"{"id":"e","winner":"E","win":"1s","players":{"E":{"hand":"234m567m345p678s11s"},"S":{"hand":"147m258p369s1234z"},"W":{"hand":"258m369p147s1234z"},"N":{"hand":"369m147p258s1234z"}}}"#;
    let o = paifu_with_input(&["score", "hungarian"], p, &format!("{hand}\n{{\"winner\":\"Q\"}}\n"));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(first["payments"], serde_json::json!({"E": 240, "S": -80, "W": -80, "N": -80}));
    assert!(lines[1].contains("\"error\":\"bad_input\""), "{}", lines[1]);
}
