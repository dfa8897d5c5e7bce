//! Riichi: conformance over simulated games, bad logs, options, replays.

use paifu_core::riichi::Riichi;
use paifu_core::{Game, Seed};
use paifu_recorder::bot::Bot;
use paifu_recorder::bots::Bots;
use paifu_recorder::conformance;

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

#[test]
fn conformance_standard() {
    let seed = Seed::from_text("riichi conformance");
    let games: usize = std::env::var("RIICHI_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let rules = Riichi::rules("standard", &Default::default()).unwrap();
    let counts = conformance::run::<Riichi>("standard", rules, seed, games, |i| mixed(i, &seed)).unwrap();
    assert_eq!(counts.games, games);
    eprintln!("{counts:?}");
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
