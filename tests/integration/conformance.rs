//! The shared conformance check, per engine.

use paifu_core::tzq::{Rules, Tzq};
use paifu_core::{Game, Seed};
use paifu_recorder::bots::Bots;
use paifu_recorder::conformance;

fn tzq(ruleset: &str, games: usize, bots: [&'static str; 2]) {
    let rules: Rules = Tzq::rules(ruleset, &Default::default()).unwrap();
    let seed = Seed::from_text(&format!("conformance {ruleset} {bots:?}"));
    let counts = conformance::run::<Tzq>(ruleset, rules, seed, games, |i| {
        bots.iter().enumerate().map(|(s, b)| Tzq::bot(b, &seed.child(&format!("{i}/{s}"))).unwrap()).collect()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(counts.games, games);
    assert!(counts.rounds >= games * 4);
    assert!(counts.mutations_invalid * 10 >= counts.mutations * 9, "{counts:?}");
}

#[test]
fn tzq_random_vs_random() {
    tzq("standard", 150, ["random", "random"]);
}

#[test]
fn tzq_greedy_vs_random() {
    tzq("standard", 150, ["greedy", "random"]);
}

#[test]
fn tzq_advanced_rules() {
    tzq("advanced", 150, ["greedy", "greedy"]);
}

#[test]
fn tzq_play_to_30() {
    tzq("to30", 60, ["greedy", "random"]);
}

#[test]
fn greedy_beats_random() {
    let rules = Tzq::rules("standard", &Default::default()).unwrap();
    let (mut greedy, mut random) = (0, 0);
    for i in 0..60 {
        let seed = Seed::from_text(&format!("strength {i}"));
        // Alternate seats so the first player's edge cancels out.
        let (g, r) = if i % 2 == 0 { (0, 1) } else { (1, 0) };
        let mut names = ["", ""];
        names[g] = "greedy";
        names[r] = "random";
        let mut bots: Vec<_> = names.iter().map(|n| Tzq::bot(n, &seed.child(n)).unwrap()).collect();
        let log =
            paifu_recorder::play_game::<Tzq>("standard", rules.clone(), seed, &mut bots, Default::default()).unwrap();
        let scores = log.records.last().unwrap().claim.as_ref().unwrap().final_scores.clone().unwrap();
        greedy += scores[g];
        random += scores[r];
    }
    assert!(greedy > 2 * random, "greedy {greedy} vs random {random}");
}
