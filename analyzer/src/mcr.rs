//! Chinese Official mahjong (MCR) statistics.
//!
//! Read from the facts of paifu-core's MCR engine ([`paifu_core::mcr::FactKind`],
//! docs/statistics.md): per seat `win`, `fan` (the hand's total, flowers included),
//! `self_drawn`, `on_discard`, `robbed_kong`, `deal_in`, `fan:<name>` (how many times the fan
//! counted), `table_points` (on the match's last hand); for the table `drawn`, `turns`.

use crate::{ratio, Block, Distribution, Metric, Unit};
use paifu_core::mcr::{FactKind as F, Fan};
use paifu_core::replay::Played;
use paifu_core::FactKey;

pub(crate) fn add_game(b: &mut Block, g: &Played, seats: &[usize]) {
    for r in &g.rounds {
        for &s in seats {
            let fact =
                |k: F| r.facts.iter().find(|f| f.seat == Some(s as u8) && f.key_as::<F>() == Some(k)).map(|f| f.value);
            if fact(F::Win).unwrap_or(0) != 0 {
                if let Some(fan) = fact(F::Fan) {
                    b.dist("fan", fan);
                }
                b.fact("win_value", r.deltas.get(s).copied().unwrap_or(0));
            }
            if fact(F::DealIn).unwrap_or(0) != 0 {
                b.fact("deal_in_value", -r.deltas.get(s).copied().unwrap_or(0));
            }
        }
    }
}

/// The wins with each fan: its key, the number of wins and the fan, in table order.
fn fan_hits(b: &Block) -> impl Iterator<Item = (String, u64, Fan)> + '_ {
    Fan::ALL.into_iter().filter_map(|f| {
        let key = F::FanKind(f).key().into_owned();
        let n = b.hit(&key);
        (n > 0).then_some((key, n, f))
    })
}

pub(crate) fn metrics(b: &Block) -> Vec<Metric> {
    let sr = b.seat_rounds as f64;
    let wins = b.sum_of(F::Win) as f64;
    let deal_ins = b.sum_of(F::DealIn) as f64;
    let mut m = vec![
        Metric::new("win_rate", "Win rate", ratio(wins, sr), Unit::Ratio),
        Metric::new(
            "average_fan",
            "Average fan of wins (flowers included)",
            ratio(b.sum_of(F::Fan) as f64, wins),
            Unit::Average,
        ),
        Metric::new("self_drawn_share", "Wins by self-draw", ratio(b.sum_of(F::SelfDrawn) as f64, wins), Unit::Ratio),
        Metric::new(
            "discard_share",
            "Wins on a discard (robbing a kong included)",
            ratio(b.sum_of(F::OnDiscard) as f64, wins),
            Unit::Ratio,
        ),
        Metric::new("robbed_kongs", "Wins by robbing a kong", b.sum_of(F::RobbedKong) as f64, Unit::Count),
        Metric::new("deal_in_rate", "Deal-in rate", ratio(deal_ins, sr), Unit::Ratio),
        Metric::new("average_win_value", "Average win value", ratio(b.sum("win_value") as f64, wins), Unit::Average),
        Metric::new(
            "average_deal_in_value",
            "Average deal-in value",
            ratio(b.sum("deal_in_value") as f64, deal_ins),
            Unit::Average,
        ),
        Metric::new(
            "drawn_rate",
            "Hands drawn (the wall ran out)",
            ratio(b.sum_of(F::Drawn) as f64, b.rounds as f64),
            Unit::Ratio,
        ),
        Metric::new(
            "average_table_points",
            "Average table points (4-2-1-0) of a match",
            ratio(b.sum_of(F::TablePoints) as f64, b.seat_games as f64),
            Unit::Average,
        ),
    ];
    for (key, n, fan) in fan_hits(b) {
        m.push(Metric::new(key, format!("Wins with {}", fan.name()), ratio(n as f64, wins), Unit::Ratio));
    }
    m
}

pub(crate) fn distributions(b: &Block) -> Vec<Distribution> {
    let totals =
        b.dists.get("fan").map(|d| d.iter().map(|(k, v)| (k.to_string(), *v as f64)).collect()).unwrap_or_default();
    let mut fans: Vec<(String, f64)> = fan_hits(b).map(|(_, n, f)| (f.name().replace('_', " "), n as f64)).collect();
    fans.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let robbed = b.sum_of(F::RobbedKong) as f64;
    let types = [
        ("self-drawn", b.sum_of(F::SelfDrawn) as f64),
        ("on a discard", b.sum_of(F::OnDiscard) as f64 - robbed),
        ("robbing a kong", robbed),
    ]
    .into_iter()
    .map(|(label, v)| (label.to_owned(), v))
    .collect();
    let ends = [("won", b.sum_of(F::Win) as f64), ("drawn", b.sum_of(F::Drawn) as f64)]
        .into_iter()
        .map(|(label, v)| (label.to_owned(), v))
        .collect();
    vec![
        Distribution::new("fans", "Fan frequencies (wins with each)", fans),
        Distribution::new("fan", "Wins by fan total", totals),
        Distribution::new("win_types", "How hands are won", types),
        Distribution::new("ends", "How hands end", ends),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Analysis;
    use paifu_core::{Fact, GameKind, RoundResult};

    fn won(seat: u8, from: Option<u8>, fans: &[(Fan, i64)], robbed: bool) -> RoundResult {
        let fan: i64 = fans.iter().map(|(f, n)| i64::from(f.value()) * n).sum();
        let mut deltas = vec![0i64; 4];
        for s in 0..4u8 {
            if s != seat {
                let pay = if from.is_none() || from == Some(s) { 8 + fan } else { 8 };
                deltas[usize::from(s)] -= pay;
                deltas[usize::from(seat)] += pay;
            }
        }
        let mut facts = vec![
            Fact::seat(seat, F::Win, 1),
            Fact::seat(seat, F::Fan, fan),
            Fact::seat(seat, if from.is_none() { F::SelfDrawn } else { F::OnDiscard }, 1),
        ];
        if robbed {
            facts.push(Fact::seat(seat, F::RobbedKong, 1));
        }
        if let Some(f) = from {
            facts.push(Fact::seat(f, F::DealIn, 1));
        }
        facts.extend(fans.iter().map(|(f, n)| Fact::seat(seat, F::FanKind(*f), *n)));
        facts.push(Fact::table(F::Turns, 40));
        RoundResult { round: 1, deltas, summary: String::new(), facts }
    }

    #[test]
    fn fan_frequencies_averages_and_win_types_come_from_the_facts() {
        let rounds = vec![
            won(0, None, &[(Fan::MixedStraight, 1), (Fan::SelfDrawn, 1), (Fan::PureDoubleChow, 1)], false),
            won(1, Some(2), &[(Fan::MixedStraight, 1), (Fan::AllChows, 1), (Fan::PureDoubleChow, 2)], false),
            won(3, Some(0), &[(Fan::ThirteenOrphans, 1), (Fan::RobbingTheKong, 1)], true),
            RoundResult { round: 4, deltas: vec![0; 4], summary: String::new(), facts: vec![Fact::table(F::Drawn, 1)] },
        ];
        let mut scores = vec![0i64; 4];
        for r in &rounds {
            for (s, d) in scores.iter_mut().zip(&r.deltas) {
                *s += d;
            }
        }
        let played = Played {
            game: GameKind::Mcr,
            players: ["a", "b", "c", "d"].iter().map(|p| p.to_string()).collect(),
            placements: paifu_core::placements_by_score(&scores),
            final_scores: scores,
            rounds,
        };
        let a = Analysis::of_game(&played, None);
        let b = &a.overall.kinds["mcr"];
        let metric =
            |k: &str| crate::metrics("mcr", b).into_iter().find(|m| m.key == k).unwrap_or_else(|| panic!("{k}")).value;
        assert_eq!(metric("win_rate"), 3.0 / 16.0);
        // (8 + 1 + 1) + (8 + 2 + 2) + (88 + 8) fan over three wins.
        assert_eq!(metric("average_fan"), 118.0 / 3.0);
        assert_eq!(metric("self_drawn_share"), 1.0 / 3.0);
        assert_eq!(metric("discard_share"), 2.0 / 3.0);
        assert_eq!(metric("robbed_kongs"), 1.0);
        assert_eq!(metric("drawn_rate"), 0.25);
        assert_eq!(metric("fan:mixed_straight"), 2.0 / 3.0);
        assert_eq!(metric("fan:pure_double_chow"), 2.0 / 3.0);
        // The winner's score change: 3 x 18 self-drawn; 20 + 8 + 8 on a discard; 104 + 16.
        assert_eq!(metric("average_win_value"), (54.0 + 36.0 + 120.0) / 3.0);
        let d = crate::distributions("mcr", b);
        let fans = &d.iter().find(|d| d.name == "fans").unwrap().values;
        assert_eq!(fans[0], ("Mixed straight".to_owned(), 2.0));
        let types = &d.iter().find(|d| d.name == "win_types").unwrap().values;
        assert_eq!(
            types,
            &[("Self-drawn".to_owned(), 1.0), ("On a discard".to_owned(), 1.0), ("Robbing a kong".to_owned(), 1.0)]
        );
        let totals = &d.iter().find(|d| d.name == "fan").unwrap().values;
        assert_eq!(totals, &[("10".to_owned(), 1.0), ("12".to_owned(), 1.0), ("96".to_owned(), 1.0)]);
        // One player's statistics count only its seat.
        let a = Analysis::of_game(&played, Some("d"));
        let d = &a.players["d"].kinds["mcr"];
        assert_eq!((d.sum("win"), d.sum("deal_in"), d.sum("fan")), (1, 0, 96));
    }
}
