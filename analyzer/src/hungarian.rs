//! Hungarian mahjong statistics.
//!
//! Read from the facts of paifu-core's Hungarian engine ([`paifu_core::hungarian::FactKind`],
//! docs/statistics.md): figure frequencies, doublings, limit hands, how hands end, and the
//! average settlement by the wind a player held.

use crate::{ratio, Block, Distribution, Metric, Unit};
use paifu_core::hungarian::table::{Doubling, Limit, Line};
use paifu_core::hungarian::FactKind as F;
use paifu_core::replay::Played;
use paifu_core::FactKey;

const WINDS: [(&str, &str); 4] = [("E", "East"), ("S", "South"), ("W", "West"), ("N", "North")];

pub(crate) fn add_game(b: &mut Block, g: &Played, seats: &[usize]) {
    for r in &g.rounds {
        let table = |k: F| r.facts.iter().any(|f| f.seat.is_none() && f.key_as::<F>() == Some(k) && f.value != 0);
        for &s in seats {
            let fact =
                |k: F| r.facts.iter().find(|f| f.seat == Some(s as u8) && f.key_as::<F>() == Some(k)).map(|f| f.value);
            if fact(F::Win).unwrap_or(0) != 0 {
                b.fact("win_score", fact(F::Score).unwrap_or(0));
                b.dist("doublings", fact(F::Doublings).unwrap_or(0));
            }
        }
        let end = if table(F::Void) {
            "void"
        } else if r.facts.iter().any(|f| f.key_as::<F>() == Some(F::SelfDrawn) && f.value != 0) {
            "self_drawn"
        } else {
            "robbed"
        };
        b.fact(&format!("end:{end}"), 1);
    }
}

pub(crate) fn metrics(b: &Block) -> Vec<Metric> {
    let sr = b.seat_rounds as f64;
    let rounds = b.rounds as f64;
    let wins = b.sum_of(F::Win) as f64;
    let mut m = vec![
        Metric::new("win_rate", "Hands won", ratio(wins, sr), Unit::Ratio),
        Metric::new(
            "self_drawn_share",
            "Wins on one's own draw",
            ratio(b.sum_of(F::SelfDrawn) as f64, wins),
            Unit::Ratio,
        ),
        Metric::new(
            "discarder_rate",
            "Hands lost on one's own discard",
            ratio(b.sum_of(F::Discarder) as f64, sr),
            Unit::Ratio,
        ),
        Metric::new(
            "void_rate",
            "Void hands (only the dead wall left)",
            ratio(b.sum_of(F::Void) as f64, rounds),
            Unit::Ratio,
        ),
        Metric::new(
            "average_win_score",
            "Average winning score",
            ratio(b.sum("win_score") as f64, wins),
            Unit::Average,
        ),
        Metric::new(
            "average_win_points",
            "Average winning points before doubling",
            ratio(b.sum_of(F::Points) as f64, wins),
            Unit::Average,
        ),
        Metric::new(
            "average_win_doublings",
            "Average doublings of a win",
            ratio(b.sum_of(F::Doublings) as f64, wins),
            Unit::Average,
        ),
        Metric::new(
            "average_hand_score",
            "Average hand score (every player)",
            ratio(b.sum_of(F::Score) as f64, b.hit_of(F::Score).max(1) as f64),
            Unit::Average,
        ),
        Metric::new(
            "claims_per_hand",
            "Sets laid out on a claim, per player and hand",
            ratio(b.sum_of(F::Claims) as f64, sr),
            Unit::Average,
        ),
        Metric::new("kongs_per_hand", "Kongs per hand", ratio(b.sum_of(F::Kongs) as f64, rounds), Unit::Average),
        Metric::new(
            "flowers_per_hand",
            "Flowers and seasons per hand",
            ratio(b.sum_of(F::Flowers) as f64, rounds),
            Unit::Average,
        ),
        Metric::new(
            "limit_hands",
            "Limit hands won",
            Limit::ALL.iter().map(|&l| b.sum_of(F::Limit(l))).sum::<i64>() as f64,
            Unit::Count,
        ),
    ];
    for (w, (letter, name)) in WINDS.iter().enumerate() {
        let w = w as u8;
        m.push(Metric::new(
            format!("settlement:{letter}"),
            format!("Average settlement as {name}, per hand"),
            ratio(b.sum_of(F::Settlement(w)) as f64, b.sum_of(F::As(w)) as f64),
            Unit::Average,
        ));
    }
    for l in Line::ALL {
        let k = F::Line(l);
        if b.sum_of(k) > 0 {
            m.push(Metric::new(
                k.key().into_owned(),
                format!("Figure {} per hand", l.name().replace('_', " ")),
                ratio(b.sum_of(k) as f64, sr),
                Unit::Average,
            ));
        }
    }
    for d in Doubling::ALL {
        let k = F::Doubling(d);
        if b.sum_of(k) > 0 {
            m.push(Metric::new(
                k.key().into_owned(),
                format!("Doubling {} per hand", d.name().replace('_', " ")),
                ratio(b.sum_of(k) as f64, sr),
                Unit::Average,
            ));
        }
    }
    for l in Limit::ALL {
        let k = F::Limit(l);
        if b.sum_of(k) > 0 {
            m.push(Metric::new(
                k.key().into_owned(),
                format!("Limit hand {}", l.name().replace('_', " ")),
                b.sum_of(k) as f64,
                Unit::Count,
            ));
        }
    }
    m
}

pub(crate) fn distributions(b: &Block) -> Vec<Distribution> {
    let counts = |keys: Vec<(String, F)>| -> Vec<(String, f64)> {
        keys.into_iter().map(|(label, k)| (label, b.sum_of(k) as f64)).filter(|(_, v)| *v > 0.0).collect()
    };
    let figures = counts(Line::ALL.iter().map(|&l| (l.name().replace('_', " "), F::Line(l))).collect());
    let doublings = counts(Doubling::ALL.iter().map(|&d| (d.name().replace('_', " "), F::Doubling(d))).collect());
    let limits = counts(Limit::ALL.iter().map(|&l| (l.name().replace('_', " "), F::Limit(l))).collect());
    let settlement = WINDS
        .iter()
        .enumerate()
        .map(|(w, (_, name))| {
            let w = w as u8;
            (name.to_string(), ratio(b.sum_of(F::Settlement(w)) as f64, b.sum_of(F::As(w)) as f64))
        })
        .collect();
    let ends =
        b.sums.iter().filter_map(|(k, v)| k.strip_prefix("end:").map(|e| (e.replace('_', " "), *v as f64))).collect();
    let by_doublings = b
        .dists
        .get("doublings")
        .map(|d| d.iter().map(|(k, v)| (k.to_string(), *v as f64)).collect())
        .unwrap_or_default();
    vec![
        Distribution::new("figures", "Figures and premiums scored (every player)", figures),
        Distribution::new("doublings", "Doublings scored (every player)", doublings),
        Distribution::new("limits", "Limit hands", limits),
        Distribution::new("settlement", "Average settlement per hand by wind", settlement),
        Distribution::new("win_doublings", "Wins by number of doublings", by_doublings),
        Distribution::new("ends", "How hands end", ends),
    ]
}
