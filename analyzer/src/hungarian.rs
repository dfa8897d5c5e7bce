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
            // Every player's hand is scored in a won hand, a score of 0 too.
            if fact(F::Score).is_some() {
                b.fact("scored_hands", 1);
            }
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
            "Average hand score in a won hand (every player)",
            ratio(b.sum_of(F::Score) as f64, b.sum("scored_hands") as f64),
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
    // Each figure and doubling per seat-hand, each limit hand as a count: the ones that occurred.
    let named = Line::ALL
        .iter()
        .map(|&l| (F::Line(l), format!("Figure {} per hand", l.name().replace('_', " "))))
        .chain(
            Doubling::ALL
                .iter()
                .map(|&d| (F::Doubling(d), format!("Doubling {} per hand", d.name().replace('_', " ")))),
        )
        .chain(Limit::ALL.iter().map(|&l| (F::Limit(l), format!("Limit hand {}", l.name().replace('_', " ")))));
    for (k, label) in named {
        let n = b.sum_of(k) as f64;
        if n > 0.0 {
            let (value, unit) = if matches!(k, F::Limit(_)) { (n, Unit::Count) } else { (ratio(n, sr), Unit::Average) };
            m.push(Metric::new(k.key().into_owned(), label, value, unit));
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

#[cfg(test)]
mod tests {
    use crate::{distributions, metrics, Analysis};
    use paifu_core::hungarian::table::{Doubling, Limit, Line};
    use paifu_core::hungarian::FactKind as F;
    use paifu_core::placements_by_score;
    use paifu_core::replay::Played;
    use paifu_core::{Fact, GameKind, RoundResult};

    /// Seat `w` (East: seat 0) wins on seat 1's discard with `score` (`points` x 2^`doublings`,
    /// a limit's bonus on top); seats 1-3 score `losers` each; every seat settles `net`.
    fn won(round: u32, score: i64, points: i64, doublings: i64, losers: i64, net: [i64; 4]) -> RoundResult {
        let mut facts = vec![Fact::table(F::Kongs, 1), Fact::table(F::Flowers, 3)];
        for s in 0..4u8 {
            facts.push(Fact::seat(s, F::As(s), 1));
            facts.push(Fact::seat(s, F::Score, if s == 0 { score } else { losers }));
            facts.push(Fact::seat(s, F::Settlement(s), net[usize::from(s)]));
            facts.push(Fact::seat(s, F::Claims, i64::from(s == 2)));
        }
        facts.extend([
            Fact::seat(0, F::Win, 1),
            Fact::seat(0, F::Robbed, 1),
            Fact::seat(0, F::Points, points),
            Fact::seat(0, F::Doublings, doublings),
            Fact::seat(0, F::Line(Line::Mahjong), 1),
            Fact::seat(0, F::Line(Line::OwnFlower), 2),
            Fact::seat(0, F::Doubling(Doubling::EastWins), 1),
            Fact::seat(1, F::Discarder, 1),
        ]);
        if score > points << doublings {
            facts.push(Fact::seat(0, F::Limit(Limit::SevenPairs), 1));
        }
        RoundResult { round, deltas: net.to_vec(), summary: String::new(), facts }
    }

    fn void(round: u32) -> RoundResult {
        let mut facts = vec![Fact::table(F::Void, 1), Fact::table(F::Kongs, 0), Fact::table(F::Flowers, 1)];
        facts.extend((0..4u8).map(|s| Fact::seat(s, F::As(s), 1)));
        RoundResult { round, deltas: vec![0; 4], summary: String::new(), facts }
    }

    #[test]
    fn hungarian_statistics_from_its_facts() {
        // East wins 36 x2 = 72 (receives 144 from each loser, who settle nothing among
        // themselves); then a void hand; then East wins seven pairs, 20 + 1000.
        let rounds = vec![
            won(1, 72, 36, 1, 0, [432, -144, -144, -144]),
            void(2),
            won(3, 1020, 20, 0, 4, [6120, -2040, -2040, -2040]),
        ];
        let final_scores = [6552, -2184, -2184, -2184];
        let g = Played {
            game: GameKind::Hungarian,
            players: vec!["A".into(), "B".into(), "C".into(), "D".into()],
            final_scores: final_scores.to_vec(),
            placements: placements_by_score(&final_scores),
            rounds,
        };
        let a = Analysis::of_game(&g, None);
        let get = |who: &str, k: &str| {
            let m = metrics("hungarian", &a.players[who].kinds["hungarian"]);
            m.iter().find(|x| x.key == k).map(|x| x.value).unwrap_or(f64::NAN)
        };
        assert_eq!(get("A", "win_rate"), 2.0 / 3.0);
        assert_eq!(get("A", "void_rate"), 1.0 / 3.0);
        assert_eq!(get("A", "average_win_score"), (72.0 + 1020.0) / 2.0);
        assert_eq!(get("A", "average_win_points"), 28.0);
        assert_eq!(get("A", "average_win_doublings"), 0.5);
        // The void hand counts as a 0 under East.
        assert_eq!(get("A", "settlement:E"), (432.0 + 6120.0) / 3.0);
        assert_eq!(get("B", "settlement:S"), -(144.0 + 2040.0) / 3.0);
        assert_eq!(get("B", "discarder_rate"), 2.0 / 3.0);
        assert_eq!(get("B", "win_rate"), 0.0);
        assert_eq!(get("C", "claims_per_hand"), 2.0 / 3.0);
        assert_eq!(get("A", "line:own_flower"), 4.0 / 3.0);
        assert_eq!(get("A", "doubling:east_wins"), 2.0 / 3.0);
        assert_eq!(get("A", "limit:seven_pairs"), 1.0);
        assert_eq!(get("A", "limit_hands"), 1.0);
        // Every player's hand in the two won hands: 72, 0, 0, 0 and 1020, 4, 4, 4.
        let all = &a.overall.kinds["hungarian"];
        let m = metrics("hungarian", all);
        let get_all = |k: &str| m.iter().find(|x| x.key == k).map(|x| x.value).unwrap_or(f64::NAN);
        assert_eq!(get_all("average_hand_score"), (72.0 + 1020.0 + 12.0) / 8.0);
        assert_eq!(get_all("kongs_per_hand"), 2.0 / 3.0);
        assert_eq!(get_all("flowers_per_hand"), 7.0 / 3.0);
        assert_eq!(get_all("self_drawn_share"), 0.0);
        let d = distributions("hungarian", all);
        let dist = |name: &str| d.iter().find(|x| x.name == name).unwrap().values.clone();
        assert_eq!(dist("ends"), vec![("Robbed".to_owned(), 2.0), ("Void".to_owned(), 1.0)]);
        assert_eq!(dist("win_doublings"), vec![("0".to_owned(), 1.0), ("1".to_owned(), 1.0)]);
        assert_eq!(dist("limits"), vec![("Seven pairs".to_owned(), 1.0)]);
        assert_eq!(dist("settlement")[0], ("East".to_owned(), (432.0 + 6120.0) / 3.0));
        assert!(dist("figures").contains(&("Own flower".to_owned(), 4.0)));
    }
}
