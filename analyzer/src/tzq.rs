//! Tien Zi Que statistics.
//!
//! Fact keys read (emitted by paifu-core's TZQ engine): per seat `win`, `points`,
//! `win_by_pong`, `win_by_chow`, `category:<key>`; for the table `drawn`, `turns`,
//! `reshuffles`.

use crate::{ratio, Block, Distribution, Metric, Unit};
use paifu_recorder::archive::GameData;

/// The scoring categories, in the order of the rules, with their names.
pub const CATEGORIES: &[(&str, &str)] = &[
    ("flush", "Flush"),
    ("white_flush", "White Flush"),
    ("elements", "Elements"),
    ("king_of_sparrows", "King of Sparrows"),
    ("daring_dragon", "Daring Dragon"),
    ("pair", "Pair"),
    ("three_of_a_kind", "Three of a Kind"),
    ("four_of_a_kind", "Four of a Kind"),
    ("honours", "Honours"),
    ("all_winds", "All Winds"),
    ("all_honours", "All Honours"),
    ("winning_draw", "Winning Draw"),
];

/// The distributions TZQ adds beyond the summed facts.
pub fn add_game(b: &mut Block, g: &GameData, seats: &[usize]) {
    for r in &g.rounds {
        for f in &r.facts {
            match (f.seat, f.key.as_str()) {
                (None, "turns") => b.dist("turns", f.value),
                (Some(s), "points") if seats.contains(&usize::from(s)) => b.dist("win_points", f.value),
                _ => {}
            }
        }
    }
}

pub fn metrics(b: &Block) -> Vec<Metric> {
    let wins = b.sum("win") as f64;
    let mut m = vec![
        Metric::new("wins", "Wins (MahJong)", wins, Unit::Count),
        Metric::new("win_rate", "Win rate (rounds won per seat)", ratio(wins, b.seat_rounds as f64), Unit::Ratio),
        Metric::new("win_by_pong", "Wins by Pong (after a draw)", b.sum("win_by_pong") as f64, Unit::Count),
        Metric::new("win_by_chow", "Wins by Chow (a discard taken)", b.sum("win_by_chow") as f64, Unit::Count),
        Metric::new(
            "average_win_points",
            "Average winning hand (points)",
            ratio(b.sum("points") as f64, wins),
            Unit::Average,
        ),
        Metric::new(
            "points_per_round",
            "Points per round (per seat)",
            ratio(b.sum("points") as f64, b.seat_rounds as f64),
            Unit::Average,
        ),
        Metric::new("drawn_rounds", "Drawn rounds", b.sum("drawn") as f64, Unit::Count),
        Metric::new("drawn_rate", "Drawn rounds (share)", ratio(b.sum("drawn") as f64, b.rounds as f64), Unit::Ratio),
        Metric::new(
            "average_turns",
            "Average round length (turns)",
            ratio(b.sum("turns") as f64, b.rounds as f64),
            Unit::Average,
        ),
        Metric::new(
            "reshuffles_per_round",
            "Reshuffles per round",
            ratio(b.sum("reshuffles") as f64, b.rounds as f64),
            Unit::Average,
        ),
    ];
    for (key, name) in CATEGORIES {
        let k = format!("category:{key}");
        m.push(Metric::new(
            format!("{k}:wins"),
            format!("{name}: winning hands with it"),
            b.hit(&k) as f64,
            Unit::Count,
        ));
        m.push(Metric::new(format!("{k}:points"), format!("{name}: points scored"), b.sum(&k) as f64, Unit::Count));
    }
    m
}

pub fn distributions(b: &Block) -> Vec<Distribution> {
    let cats = CATEGORIES
        .iter()
        .map(|(k, name)| (name.to_string(), b.hit(&format!("category:{k}")) as f64))
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
