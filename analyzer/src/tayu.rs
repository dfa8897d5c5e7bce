//! Ta Yü statistics.
//!
//! Read from the facts of paifu-core's Ta Yü engine ([`paifu_core::tayu::FactKind`]). A game
//! is one round.

use crate::{ratio, Block, Distribution, Metric, Unit};
use paifu_core::replay::Played;
use paifu_core::tayu::FactKind as F;

pub(crate) fn add_game(b: &mut Block, g: &Played, seats: &[usize]) {
    for r in &g.rounds {
        for f in &r.facts {
            if let Some(s) = f.seat {
                if seats.contains(&usize::from(s)) && f.key_as::<F>() == Some(F::Score) {
                    b.dist("score", f.value);
                }
            }
        }
    }
}

pub(crate) fn metrics(b: &Block) -> Vec<Metric> {
    let sg = b.seat_games as f64;
    let games = b.games as f64;
    vec![
        Metric::new("win_rate", "Games won (a winning side)", ratio(b.sum_of(F::Win) as f64, sg), Unit::Ratio),
        Metric::new("tie_rate", "Games tied for the top", ratio(b.sum_of(F::Tie) as f64, sg), Unit::Ratio),
        Metric::new("average_score", "Average score", ratio(b.sum_of(F::Score) as f64, sg), Unit::Average),
        Metric::new(
            "average_placed",
            "Pieces placed per game (per seat)",
            ratio(b.sum_of(F::Placed) as f64, sg),
            Unit::Average,
        ),
        Metric::new(
            "average_coast_points",
            "Coast points (per seat with coasts)",
            ratio(b.sum_of(F::CoastPoints) as f64, b.hit_of(F::CoastPoints).max(b.hit_of(F::Mouths)) as f64),
            Unit::Average,
        ),
        Metric::new("zero_coasts", "Seats left with a coast of no points", b.sum_of(F::ZeroCoast) as f64, Unit::Count),
        Metric::new("floods", "Floods", b.sum_of(F::Flood) as f64, Unit::Count),
        Metric::new(
            "average_bid",
            "Average flood bid",
            ratio(b.sum_of(F::Bid) as f64, b.sum_of(F::Flood) as f64),
            Unit::Average,
        ),
        Metric::new(
            "pieces_per_game",
            "Pieces on the board per game",
            ratio(b.sum_of(F::PiecesPlaced) as f64, games),
            Unit::Average,
        ),
        Metric::new(
            "special_mouths_per_game",
            "Mouths on special spaces per game",
            ratio(b.sum_of(F::SpecialMouths) as f64, games),
            Unit::Average,
        ),
        Metric::new(
            "end_no_placement",
            "Games ended by no possible placement",
            ratio(b.sum_of(F::EndNoPlacement) as f64, games),
            Unit::Ratio,
        ),
        Metric::new(
            "end_stack_empty",
            "Games ended by an empty stack",
            ratio(b.sum_of(F::EndStackEmpty) as f64, games),
            Unit::Ratio,
        ),
    ]
}

pub(crate) fn distributions(b: &Block) -> Vec<Distribution> {
    let scores =
        b.dists.get("score").map(|d| d.iter().map(|(k, v)| (k.to_string(), *v as f64)).collect()).unwrap_or_default();
    let ends = [("no placement", F::EndNoPlacement), ("stack empty", F::EndStackEmpty)]
        .into_iter()
        .map(|(label, k)| (label.to_owned(), b.sum_of(k) as f64))
        .filter(|(_, v)| *v > 0.0)
        .collect();
    vec![Distribution::new("score", "Games by score", scores), Distribution::new("ends", "How games end", ends)]
}
