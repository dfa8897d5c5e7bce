//! Riichi: conformance over simulated games, bad logs, options, replays.

use paifu_core::riichi::Riichi;
use paifu_core::{Game, Seed};
use paifu_recorder::bots::Bots;
use paifu_recorder::conformance;
use paifu_recorder::Bot;

fn bots(kind: &str, seed: &Seed) -> Vec<Box<dyn Bot<Riichi>>> {
    (0..4).map(|i| Riichi::bot(kind, &seed.child(&format!("bot/{i}"))).unwrap()).collect()
}

fn mixed(i: usize, seed: &Seed) -> Vec<Box<dyn Bot<Riichi>>> {
    // Mostly greedy tables (they win, call and riichi), some with random seats for odd moves.
    (0..4)
        .map(|s| {
            let name = if (i + s) % 5 == 0 { "random" } else { "greedy" };
            Riichi::bot(name, &seed.child(&format!("bot/{i}/{s}"))).unwrap()
        })
        .collect()
}

/// Every game's points balance: each round's changes sum to a multiple of 1000 (riichi sticks
/// only), all rounds together to minus the sticks left at the end, which go to the top; the final
/// scores are the start scores plus the changes, and sum to four times the start points.
fn zero_sum(start: i64) -> impl FnMut(usize, &Log<Action>, &Outcome) -> Result<(), String> {
    move |_, _, o| {
        let mut total = [0i64; 4];
        for r in &o.rounds {
            let sum: i64 = r.deltas.iter().sum();
            if sum % 1000 != 0 {
                return Err(format!("round changes sum to {sum}: {}", r.summary));
            }
            for (t, d) in total.iter_mut().zip(&r.deltas) {
                *t += d;
            }
        }
        let last = o.rounds.last().ok_or("no rounds")?;
        let leftover = last.facts.iter().find(|f| f.key == "leftover_sticks");
        let sticks = leftover.map_or(0, |f| f.value);
        if total.iter().sum::<i64>() != -1000 * sticks {
            return Err(format!("the rounds sum to {}, with {sticks} sticks left over", total.iter().sum::<i64>()));
        }
        let mut want: Vec<i64> = total.iter().map(|t| start + t).collect();
        if let Some(f) = leftover {
            want[usize::from(f.seat.unwrap_or(0))] += 1000 * sticks;
        }
        if o.final_scores != want || want.iter().sum::<i64>() != 4 * start {
            return Err(format!("final scores {:?}, changes give {want:?}", o.final_scores));
        }
        Ok(())
    }
}

/// Thousands of East+South games by mixed tables (greedy bots that win, call and riichi, random
/// seats for odd moves); the single-record changes on every 20th game. `RIICHI_GAMES` overrides
/// the count.
#[test]
fn conformance_standard() {
    let seed = Seed::from_text("riichi conformance");
    let games: usize = std::env::var("RIICHI_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(1500);
    let rules = Riichi::rules("standard", &Default::default()).unwrap();
    let counts =
        conformance::run_with::<Riichi, _>("standard", rules, seed, games, 20, |i| mixed(i, &seed), zero_sum(25000))
            .unwrap();
    assert_eq!(counts.games, games);
    eprintln!("{counts:?}");
}

/// Tables of random bots only (every legal action equally likely: odd calls, kans, passes).
#[test]
fn conformance_random_tables() {
    let seed = Seed::from_text("riichi conformance random");
    let games: usize = std::env::var("RIICHI_GAMES").ok().and_then(|v| v.parse::<usize>().ok()).map_or(150, |g| g / 8);
    let rules = Riichi::rules("standard", &Default::default()).unwrap();
    let counts = conformance::run_with::<Riichi, _>(
        "standard",
        rules,
        seed,
        games,
        10,
        |_| bots("random", &seed),
        zero_sum(25000),
    )
    .unwrap();
    assert_eq!(counts.games, games);
}

#[test]
fn random_bots_finish_games() {
    let seed = Seed::from_text("riichi random");
    let rules = Riichi::rules("tonpuu", &Default::default()).unwrap();
    let counts = conformance::run::<Riichi>("tonpuu", rules, seed, 3, |_| bots("random", &seed)).unwrap();
    assert_eq!(counts.games, 3);
}

#[test]
#[ignore]
fn print_some_games() {
    let seed = Seed::from_text("peek");
    for g in 0..3 {
        let s = seed.child(&format!("g{g}"));
        let mut b = mixed(g, &s);
        let log = paifu_recorder::play_game::<Riichi>(
            "standard",
            Riichi::rules("standard", &Default::default()).unwrap(),
            s,
            &mut b,
            Default::default(),
        )
        .unwrap();
        let v = paifu_core::replay::validate_log::<Riichi>(&log, &Default::default());
        let o = v.outcome().unwrap();
        for r in &o.rounds {
            println!("{} {:?} sum {}", r.summary, r.deltas, r.deltas.iter().sum::<i64>());
        }
        println!("final {:?} records {}", o.final_scores, log.records.len());
    }
}

use paifu_core::log::{OptValue, Options};
use paifu_core::mahjong::{counts_of, hand::is_win, Tile};
use paifu_core::replay::validate_log;
use paifu_core::riichi::Action;
use paifu_core::{log::Log, log::Record, replay::Outcome, ErrorCode};

/// Plays greedy games under `options` and, before each record, asks `bad` for a wrong move of
/// some seat in that position. Answers the log cut there with the wrong move appended.
fn find_bad(options: Options, mut bad: impl FnMut(&Riichi) -> Option<(u8, Action)>) -> (Log<Action>, usize, String) {
    let rules = Riichi::rules("standard", &options).unwrap();
    for g in 0..200 {
        let seed = Seed::from_text(&format!("bad logs {g}"));
        let mut b = bots("greedy", &seed);
        let mut log =
            paifu_recorder::play_game::<Riichi>("standard", rules.clone(), seed, &mut b, Default::default()).unwrap();
        let mut state = Riichi::new(rules.clone(), 4, Some(&seed)).unwrap();
        for i in 0..log.records.len() {
            if let Some((seat, action)) = bad(&state) {
                let text = state.render();
                log.records.truncate(i);
                log.records.push(Record { seq: i as u32, seat, action, claim: None });
                return (log, i, text);
            }
            let r = &log.records[i];
            state.play_mut(r.seat, &r.action).unwrap();
        }
    }
    panic!("no position found for the bad move");
}

#[track_caller]
fn rejected(log: &Log<Action>, index: usize, code: ErrorCode, words: &str, text: &str) {
    let v = validate_log::<Riichi>(log, &Default::default());
    let f = v.fault().unwrap_or_else(|| panic!("the bad log validates:\n{text}"));
    assert_eq!(f.index, Some(index), "{}\n{text}", f.describe());
    assert_eq!(f.code, code, "{}\n{text}", f.describe());
    assert!(f.message.contains(words), "{}\n{text}", f.describe());
}

fn claim_of(g: &Riichi) -> Option<(u8, Tile)> {
    g.view().claim.map(|c| (c.from, c.tile))
}

#[test]
fn bad_log_chi_from_across() {
    let (log, i, text) = find_bad(Options::new(), |g| {
        let (from, tile) = claim_of(g)?;
        if tile.is_honor() {
            return None;
        }
        let seat = g.to_act().iter().find(|&s| s != (from + 1) % 4)?;
        let hand = g.hand(seat);
        let k = tile.kind();
        let find = |kk: usize| hand.iter().copied().find(|t| t.kind() == kk);
        for (a, b) in [(k + 1, k + 2), (k.wrapping_sub(1), k + 1), (k.wrapping_sub(2), k.wrapping_sub(1))] {
            if a < 27 && b < 27 && a / 9 == k / 9 && b / 9 == k / 9 {
                if let (Some(x), Some(y)) = (find(a), find(b)) {
                    return Some((seat, Action::chi(x, y)));
                }
            }
        }
        None
    });
    rejected(&log, i, ErrorCode::IllegalAction, "only from the player on the left", &text);
}

#[test]
fn bad_log_ron_in_furiten() {
    let (log, i, text) = find_bad(Options::new(), |g| {
        let (_, tile) = claim_of(g)?;
        for seat in g.to_act().iter() {
            let mut c = counts_of(g.hand(seat));
            c[tile.kind()] += 1;
            let discarded = g.river(seat).iter().any(|r| r.tile.kind() == tile.kind());
            if is_win(&c) && discarded && !g.legal_actions(seat).contains(&Action::Ron) {
                return Some((seat, Action::Ron));
            }
        }
        None
    });
    rejected(&log, i, ErrorCode::IllegalAction, "furiten", &text);
}

#[test]
fn bad_log_riichi_with_900_points() {
    let mut o = Options::new();
    o.insert("start_points".into(), OptValue::Int(900));
    o.insert("bust".into(), OptValue::Bool(false));
    let (log, i, text) = find_bad(o, |g| {
        let seat = g.to_act().iter().next()?;
        if g.melds(seat).iter().any(|m| m.is_open()) || g.view().drawn.is_none() {
            return None;
        }
        let hand = g.hand(seat);
        for (j, &t) in hand.iter().enumerate() {
            let mut rest = hand.to_vec();
            rest.remove(j);
            let c = counts_of(&rest);
            if paifu_core::mahjong::hand::waits(&c) != 0 && g.scores()[usize::from(seat)] < 1000 {
                let drawn = g.view().drawn == Some(t);
                return Some((seat, Action::Discard { tile: t, drawn, riichi: true }));
            }
        }
        None
    });
    rejected(&log, i, ErrorCode::IllegalAction, "the deposit is 1000", &text);
}

#[test]
fn bad_log_discard_not_held() {
    let (log, i, text) = find_bad(Options::new(), |g| {
        let seat = g.to_act().iter().next()?;
        g.view().drawn?;
        let missing = (0..34).map(Tile::kind_tile).find(|t| !g.hand(seat).iter().any(|h| h.kind() == t.kind()))?;
        Some((seat, Action::discard(missing)))
    });
    rejected(&log, i, ErrorCode::IllegalAction, "but holds", &text);
}

#[test]
fn bad_log_wrong_claimed_payment() {
    let seed = Seed::from_text("bad claim");
    let rules = Riichi::rules("standard", &Default::default()).unwrap();
    let mut b = bots("greedy", &seed);
    let mut log = paifu_recorder::play_game::<Riichi>("standard", rules, seed, &mut b, Default::default()).unwrap();
    let i = log.records.iter().position(|r| r.claim.as_ref().is_some_and(|c| c.round.is_some())).unwrap();
    let claim = log.records[i].claim.as_mut().unwrap();
    let deltas = claim.round.as_mut().unwrap();
    deltas[0] += 100;
    deltas[1] -= 100;
    rejected(&log, i, ErrorCode::ClaimMismatch, "score changes claimed", "");
}

/// Every option flipped at least once (each against the defaults), East+South games.
#[test]
fn options_flipped_play_and_replay() {
    let flips: Vec<(&str, OptValue)> = vec![
        ("double_ron", OptValue::Bool(false)),
        ("triple_ron_abort", OptValue::Bool(false)),
        ("abortive_draws", OptValue::Bool(false)),
        ("red_fives", OptValue::Int(0)),
        ("red_fives", OptValue::Int(4)),
        ("kuitan", OptValue::Bool(false)),
        ("atozuke", OptValue::Bool(false)),
        ("tsumo_pinfu", OptValue::Bool(false)),
        ("ura_dora", OptValue::Bool(false)),
        ("kan_dora", OptValue::Bool(false)),
        ("kan_ura_dora", OptValue::Bool(false)),
        ("keishiki_tenpai", OptValue::Bool(false)),
        ("noten_penalty", OptValue::Bool(false)),
        ("noten_oyanagare", OptValue::Bool(false)),
        ("sanmanten", OptValue::Bool(true)),
        ("length", OptValue::Int(1)),
        ("length", OptValue::Int(4)),
        ("sha_nyuu", OptValue::Bool(false)),
        ("kiriage_mangan", OptValue::Bool(true)),
        ("renfuu_4fu", OptValue::Bool(false)),
        ("rinshan_pao", OptValue::Bool(true)),
        ("naki_pinfu_30", OptValue::Bool(false)),
        ("renhou", OptValue::Text("mangan".into())),
        ("renhou", OptValue::Text("yakuman".into())),
        ("pao_daisangen", OptValue::Bool(false)),
        ("pao_daisuushii", OptValue::Bool(false)),
        ("nagashi_mangan", OptValue::Bool(false)),
        ("kazoe_yakuman", OptValue::Bool(false)),
        ("double_yakuman", OptValue::Bool(true)),
        ("start_points", OptValue::Int(30000)),
        ("return_points", OptValue::Int(25000)),
        ("uma", OptValue::Text("30,10,-10,-30".into())),
        ("bust", OptValue::Bool(false)),
        ("agari_yame", OptValue::Bool(false)),
    ];
    let games: usize =
        std::env::var("RIICHI_GAMES").ok().and_then(|v| v.parse::<usize>().ok()).map_or(12, |g| (g / 100).max(1));
    for (k, v) in flips {
        let mut o = Options::new();
        o.insert(k.into(), v.clone());
        let rules = Riichi::rules("standard", &o).unwrap();
        let start = rules.start_points;
        let seed = Seed::from_text(&format!("option {k} {v}"));
        conformance::run_with::<Riichi, _>("standard", rules, seed, games, 6, |i| mixed(i, &seed), zero_sum(start))
            .unwrap_or_else(|e| panic!("option {k}={v}: {e}"));
    }
}

#[test]
fn round_deltas_sum_to_sticks_and_facts_match_summaries() {
    let seed = Seed::from_text("facts");
    let rules = Riichi::rules("standard", &Default::default()).unwrap();
    for g in 0..4 {
        let s = seed.child(&format!("{g}"));
        let mut b = mixed(g, &s);
        let log =
            paifu_recorder::play_game::<Riichi>("standard", rules.clone(), s, &mut b, Default::default()).unwrap();
        let o = validate_log::<Riichi>(&log, &Default::default()).outcome().cloned().unwrap();
        let mut total = 0;
        for r in &o.rounds {
            let sum: i64 = r.deltas.iter().sum();
            // Only riichi sticks (multiples of 1000) may unbalance a round.
            assert_eq!(sum % 1000, 0, "{}", r.summary);
            let wins = r.facts.iter().filter(|f| f.key == "win").count();
            assert_eq!(wins, r.summary.matches(" wins by ").count(), "{}", r.summary);
            let deal_in = r.facts.iter().filter(|f| f.key == "deal_in").count();
            assert_eq!(deal_in > 0, r.summary.contains(" by ron "), "{}", r.summary);
            let riichi = r.facts.iter().filter(|f| f.key == "riichi").count();
            assert!(riichi <= 4);
            if r.summary.contains("exhaustive draw") {
                assert!(r.facts.iter().any(|f| f.key == "exhaustive_draw"));
            }
            total += sum;
        }
        let start: i64 = 4 * 25000;
        assert_eq!(o.final_scores.iter().sum::<i64>(), start, "points are neither made nor lost");
        assert!(total <= 0 || o.final_scores.iter().sum::<i64>() == start);
        let last = o.rounds.last().unwrap();
        let mut ranks: Vec<i64> = last.facts.iter().filter(|f| f.key == "rank").map(|f| f.value).collect();
        ranks.sort();
        assert_eq!(ranks, [1, 2, 3, 4]);
        let fp: i64 = last.facts.iter().filter(|f| f.key == "final_points").map(|f| f.value).sum();
        assert_eq!(fp, 0, "uma and oka sum to zero");
    }
}

/// The long run: `cargo test --release --test integration conformance_long -- --ignored`.
#[test]
#[ignore]
fn conformance_long() {
    let seed = Seed::from_text("riichi conformance long");
    let rules = Riichi::rules("standard", &Default::default()).unwrap();
    let counts = conformance::run::<Riichi>("standard", rules, seed, 2000, |i| mixed(i, &seed)).unwrap();
    eprintln!("{counts:?}");
}

/// Every hand end of the real Tenhou games (../shared/real-logs/tenhou, read in place), as the
/// view shows it: payments that add up to the round's score changes, the round's winners with
/// their han and fu, the tenpai seats, the new scores.
#[test]
fn every_real_hand_end_agrees_with_its_round_result() {
    use paifu_core::riichi::HandEndKind;
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("manifest.json"));
    files.sort();
    let (mut wins, mut draws, mut uras) = (0, 0, 0);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let log = paifu_recorder::import::tenhou6::import(&text, text.as_bytes()).unwrap().log;
        let mut g: Riichi = paifu_core::replay::setup(&log.header).unwrap();
        let mut before = g.scores();
        for rec in &log.records {
            let n = g.results().len();
            g.play_mut(rec.seat, &rec.action).unwrap();
            let Some(r) = g.results()[n..].last().cloned() else { continue };
            let h = g.view().hand_end.expect("a hand ended");
            let mut paid = vec![0i64; 4];
            for t in &h.payments {
                t.from.inspect(|&f| paid[usize::from(f)] -= t.points);
                t.to.inspect(|&to| paid[usize::from(to)] += t.points);
            }
            assert_eq!((&paid, &h.deltas), (&r.deltas, &r.deltas), "{}: {}", file.display(), r.summary);
            // The scores after the hand (a game's leftover sticks go to the top seat only after).
            before = before.iter().zip(&r.deltas).map(|(b, d)| b + d).collect();
            assert_eq!(h.scores, before, "{}", r.summary);
            let fact =
                |seat: u8, key: &str| r.facts.iter().find(|f| f.seat == Some(seat) && f.key == key).map(|f| f.value);
            match &h.how {
                HandEndKind::Win { wins: w } => {
                    wins += 1;
                    uras += usize::from(!h.ura_indicators.is_empty());
                    let winners: Vec<u8> = r.facts.iter().filter(|f| f.key == "win").filter_map(|f| f.seat).collect();
                    assert_eq!(w.iter().map(|w| w.seat).collect::<Vec<_>>(), winners, "{}", r.summary);
                    for w in w {
                        assert_eq!(
                            (fact(w.seat, "han"), fact(w.seat, "fu")),
                            (Some(i64::from(w.han)), Some(i64::from(w.fu)))
                        );
                        assert_eq!(fact(w.seat, "points"), Some(w.points), "{}", r.summary);
                    }
                }
                HandEndKind::ExhaustiveDraw { tenpai, .. } => {
                    draws += 1;
                    let seats: Vec<u8> = r.facts.iter().filter(|f| f.key == "tenpai").filter_map(|f| f.seat).collect();
                    assert_eq!(tenpai.iter().map(|t| t.seat).collect::<Vec<_>>(), seats, "{}", r.summary);
                }
                HandEndKind::AbortiveDraw { abort } => {
                    assert!(r.facts.iter().any(|f| f.key == format!("abort:{}", abort.name())), "{}", r.summary);
                }
                HandEndKind::Chombo { seat } => panic!("an imported game has no chombo (seat {seat}): {}", r.summary),
            }
        }
    }
    assert!(
        files.len() >= 30 && wins > 100 && draws > 0 && uras > 0,
        "{} games: {wins} wins, {draws} draws, {uras} with ura",
        files.len()
    );
}
