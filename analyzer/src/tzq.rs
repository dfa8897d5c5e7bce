//! Tien Zi Que statistics.
//!
//! Read from the facts of paifu-core's TZQ engine ([`paifu_core::tzq::FactKind`]).

use crate::{ratio, Block, Distribution, Metric, Unit};
use paifu_core::replay::Played;
use paifu_core::tzq::{Category, FactKind as F};
use paifu_core::FactKey;

/// The distributions TZQ adds beyond the summed facts.
pub(crate) fn add_game(b: &mut Block, g: &Played, seats: &[usize]) {
    for r in &g.rounds {
        for f in &r.facts {
            match (f.seat, f.key_as::<F>()) {
                (None, Some(F::Turns)) => b.dist("turns", f.value),
                (Some(s), Some(F::Points)) if seats.contains(&usize::from(s)) => b.dist("win_points", f.value),
                _ => {}
            }
        }
    }
}

pub(crate) fn metrics(b: &Block) -> Vec<Metric> {
    let wins = b.sum_of(F::Win) as f64;
    let mut m = vec![
        Metric::new("wins", "Wins (MahJong)", wins, Unit::Count),
        Metric::new("win_rate", "Win rate (rounds won per seat)", ratio(wins, b.seat_rounds as f64), Unit::Ratio),
        Metric::new("win_by_pong", "Wins by Pong (after a draw)", b.sum_of(F::WinByPong) as f64, Unit::Count),
        Metric::new("win_by_chow", "Wins by Chow (a discard taken)", b.sum_of(F::WinByChow) as f64, Unit::Count),
        Metric::new(
            "average_win_points",
            "Average winning hand (points)",
            ratio(b.sum_of(F::Points) as f64, wins),
            Unit::Average,
        ),
        Metric::new(
            "points_per_round",
            "Points per round (per seat)",
            ratio(b.sum_of(F::Points) as f64, b.seat_rounds as f64),
            Unit::Average,
        ),
        Metric::new("drawn_rounds", "Drawn rounds", b.sum_of(F::Drawn) as f64, Unit::Count),
        Metric::new(
            "drawn_rate",
            "Drawn rounds (share)",
            ratio(b.sum_of(F::Drawn) as f64, b.rounds as f64),
            Unit::Ratio,
        ),
        Metric::new(
            "average_turns",
            "Average round length (turns)",
            ratio(b.sum_of(F::Turns) as f64, b.rounds as f64),
            Unit::Average,
        ),
        Metric::new(
            "reshuffles_per_round",
            "Reshuffles per round",
            ratio(b.sum_of(F::Reshuffles) as f64, b.rounds as f64),
            Unit::Average,
        ),
    ];
    for c in Category::ALL {
        let (k, name) = (F::Category(c), c.name());
        m.push(Metric::new(
            format!("{}:wins", k.key()),
            format!("{name}: winning hands with it"),
            b.hit_of(k) as f64,
            Unit::Count,
        ));
        m.push(Metric::new(
            format!("{}:points", k.key()),
            format!("{name}: points scored"),
            b.sum_of(k) as f64,
            Unit::Count,
        ));
    }
    m
}

pub(crate) fn distributions(b: &Block) -> Vec<Distribution> {
    let cats = Category::ALL
        .iter()
        .map(|&c| (c.name().to_owned(), b.hit_of(F::Category(c)) as f64))
        .filter(|(_, v)| *v > 0.0)
        .collect();
    let hist = |name: &str| -> Vec<(String, f64)> {
        b.dists.get(name).map(|d| d.iter().map(|(k, v)| (k.to_string(), *v as f64)).collect()).unwrap_or_default()
    };
    vec![
        Distribution::new("categories", "Scoring categories (winning hands with each)", cats),
        Distribution::new("win_points", "Winning hands by points", hist("win_points")),
        Distribution::new("turns", "Rounds by length (turns)", hist("turns")),
    ]
}
