//! Ta Yü statistics.
//!
//! Fact keys read (paifu-core's Ta Yü engine, docs/rules/tayu.md): per seat `score`, `mouths`,
//! `coast_points`, `zero_coast`, `placed`, `win`, `tie`, `flood`, `bid`; for the table
//! `pieces_placed`, `set_aside`, `mouths`, `special_mouths`, `stack_left`, `end_no_placement`,
//! `end_stack_empty`. A game is one round.

use crate::{ratio, Block, Distribution, Metric, Unit};
use paifu_recorder::archive::GameData;

pub fn add_game(b: &mut Block, g: &GameData, seats: &[usize]) {
    for r in &g.rounds {
        for f in &r.facts {
            if let Some(s) = f.seat {
                if seats.contains(&usize::from(s)) && f.key == "score" {
                    b.dist("score", f.value);
                }
            }
        }
    }
}

pub fn metrics(b: &Block) -> Vec<Metric> {
    let sg = b.seat_games as f64;
    let games = b.games as f64;
    vec![
        Metric::new("win_rate", "Games won (a winning side)", ratio(b.sum("win") as f64, sg), Unit::Ratio),
        Metric::new("tie_rate", "Games tied for the top", ratio(b.sum("tie") as f64, sg), Unit::Ratio),
        Metric::new("average_score", "Average score", ratio(b.sum("score") as f64, sg), Unit::Average),
        Metric::new(
            "average_placed",
            "Pieces placed per game (per seat)",
            ratio(b.sum("placed") as f64, sg),
            Unit::Average,
        ),
        Metric::new(
            "average_coast_points",
            "Coast points (per seat with coasts)",
            ratio(b.sum("coast_points") as f64, b.hit("coast_points").max(b.hit("mouths")) as f64),
            Unit::Average,
        ),
        Metric::new("zero_coasts", "Seats left with a coast of no points", b.sum("zero_coast") as f64, Unit::Count),
        Metric::new("floods", "Floods", b.sum("flood") as f64, Unit::Count),
        Metric::new(
            "average_bid",
            "Average flood bid",
            ratio(b.sum("bid") as f64, b.sum("flood") as f64),
            Unit::Average,
        ),
        Metric::new(
            "pieces_per_game",
            "Pieces on the board per game",
            ratio(b.sum("pieces_placed") as f64, games),
            Unit::Average,
        ),
        Metric::new(
            "special_mouths_per_game",
            "Mouths on special spaces per game",
            ratio(b.sum("special_mouths") as f64, games),
            Unit::Average,
        ),
        Metric::new(
            "end_no_placement",
            "Games ended by no possible placement",
            ratio(b.sum("end_no_placement") as f64, games),
            Unit::Ratio,
        ),
        Metric::new(
            "end_stack_empty",
            "Games ended by an empty stack",
            ratio(b.sum("end_stack_empty") as f64, games),
            Unit::Ratio,
        ),
    ]
}

pub fn distributions(b: &Block) -> Vec<Distribution> {
    let scores =
        b.dists.get("score").map(|d| d.iter().map(|(k, v)| (k.to_string(), *v as f64)).collect()).unwrap_or_default();
    let ends = ["end_no_placement", "end_stack_empty"]
        .iter()
        .map(|k| (k.trim_start_matches("end_").replace('_', " "), b.sum(k) as f64))
        .filter(|(_, v)| *v > 0.0)
        .collect();
    vec![Distribution::new("score", "Games by score", scores), Distribution::new("ends", "How games end", ends)]
}
