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

/// A replayed state hands over the same results it shows (`Game::into_results`, which the
/// validator's outcome uses instead of a copy), for every engine.
fn into_results_matches<G: Game + Bots>(ruleset: &str) {
    let rules = G::rules(ruleset, &Default::default()).unwrap();
    let seed = Seed::from_text(&format!("into_results {}", G::KIND.name()));
    let seats = *G::SEATS.start();
    let mut bots: Vec<_> = (0..seats).map(|s| G::bot(G::BOTS[0], &seed.child(&s.to_string())).unwrap()).collect();
    let log = paifu_recorder::play_game::<G>(ruleset, rules, seed, &mut bots, Default::default()).unwrap();
    let (state, _) = paifu_core::replay::replay::<G>(&log, &Default::default(), None).unwrap();
    let shown = state.results().to_vec();
    assert!(!shown.is_empty());
    assert_eq!(state.into_results(), shown);
}

#[test]
fn into_results_is_results_for_every_engine() {
    into_results_matches::<Tzq>("standard");
    into_results_matches::<paifu_core::riichi::Riichi>("standard");
    into_results_matches::<paifu_core::tayu::Tayu>("standard");
    into_results_matches::<paifu_core::mcr::Mcr>("standard");
    into_results_matches::<paifu_core::hungarian::Hungarian>("game");
}
