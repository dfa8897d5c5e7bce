//! The statistic of a duplicate match (`paifu arena --duplicate`, a duplicate table, docs/play.md
//! "Duplicate tables"): each player's mean rank points per game with a 95% confidence interval
//! computed over the duplicate sets. The arena's summary (`paifu_recorder::arena::duplicate`)
//! and the archive's standings of a tournament's duplicate games (`Archive::duplicate_standings`)
//! both compute it here.
//!
//! A **set** is one deal played once in each rotation of the seats (as many games as seats), so
//! every player meets the same tiles from every seat and the luck of the deal cancels within
//! it. A player's games of one set share that deal and are not independent of each other; the
//! sets are (each deal is drawn from its own seed). So the interval is computed over the sets:
//! each player's mean over the games of a set is one observation, and with `D` sets the interval
//! is `mean ± t(0.975, D−1) · s / √D`, `s` the sample standard deviation of the `D` set means
//! (Student's t interval for a mean; the quantiles are those of the NIST/SEMATECH e-Handbook of
//! Statistical Methods, table 1.3.6.7.2, "Critical values of the Student's t distribution").
//! With one set there is no interval.
//!
//! **Rank points** of a game: `seats − place`, so 3 for first and 0 for last at four seats, 1
//! and 0 at two (a shared place scores the same for each who shares it).

use crate::spreadsheet::{table, Cell};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One finished game of the match: its deal, the players in seat order and their places.
#[derive(Clone, Debug, PartialEq)]
pub struct GamePlaces {
    pub deal: u32,
    pub names: Vec<String>,
    pub places: Vec<u32>,
}

/// One player's standing over the duplicate sets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub name: String,
    /// Mean rank points per game, over the complete sets.
    pub mean: f64,
    /// Half the 95% confidence interval's width (`None` with a single set).
    pub half_width: Option<f64>,
    /// Games counted.
    pub games: usize,
}

/// The summary: how many complete sets, of how many games each, and each player's standing,
/// best first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DuplicateSummary {
    pub sets: usize,
    pub seats: usize,
    /// Sets begun but not finished (not counted).
    pub incomplete: usize,
    pub standings: Vec<Standing>,
}

/// `t(0.975, df)` for `df` from 1 to 30, then 40, 50, 60, 80, 100 and 120 (NIST/SEMATECH
/// e-Handbook, table 1.3.6.7.2); beyond, the normal quantile 1.960.
const T_975: [(usize, f64); 36] = [
    (1, 12.706),
    (2, 4.303),
    (3, 3.182),
    (4, 2.776),
    (5, 2.571),
    (6, 2.447),
    (7, 2.365),
    (8, 2.306),
    (9, 2.262),
    (10, 2.228),
    (11, 2.201),
    (12, 2.179),
    (13, 2.160),
    (14, 2.145),
    (15, 2.131),
    (16, 2.120),
    (17, 2.110),
    (18, 2.101),
    (19, 2.093),
    (20, 2.086),
    (21, 2.080),
    (22, 2.074),
    (23, 2.069),
    (24, 2.064),
    (25, 2.060),
    (26, 2.056),
    (27, 2.052),
    (28, 2.048),
    (29, 2.045),
    (30, 2.042),
    (40, 2.021),
    (50, 2.009),
    (60, 2.000),
    (80, 1.990),
    (100, 1.984),
    (120, 1.980),
];

/// Student's t 0.975 quantile for `df` degrees of freedom (`df` ≥ 1): the table's value, or
/// between two of its rows the one of fewer degrees (the wider interval).
pub fn t_975(df: usize) -> f64 {
    if df > 120 {
        return 1.960;
    }
    T_975.iter().rev().find(|(d, _)| *d <= df).map_or(T_975[0].1, |(_, t)| *t)
}

/// A place's rank points at a table of `seats`.
pub fn rank_points(place: u32, seats: usize) -> f64 {
    (seats as f64 - f64::from(place)).max(0.0)
}

/// The summary of a match's finished games.
pub fn summarise(games: &[GamePlaces], seats: usize) -> DuplicateSummary {
    // deal -> player -> rank points of each of their games in it.
    let mut by_deal: BTreeMap<u32, BTreeMap<&str, Vec<f64>>> = BTreeMap::new();
    let mut count: BTreeMap<u32, usize> = BTreeMap::new();
    for g in games {
        *count.entry(g.deal).or_default() += 1;
        let deal = by_deal.entry(g.deal).or_default();
        for (name, place) in g.names.iter().zip(&g.places) {
            deal.entry(name).or_default().push(rank_points(*place, seats));
        }
    }
    let complete: Vec<u32> = count.iter().filter(|(_, n)| **n == seats).map(|(d, _)| *d).collect();
    let mut means: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let mut played: BTreeMap<&str, usize> = BTreeMap::new();
    for d in &complete {
        for (name, points) in &by_deal[d] {
            means.entry(name).or_default().push(points.iter().sum::<f64>() / points.len() as f64);
            *played.entry(name).or_default() += points.len();
        }
    }
    let mut standings: Vec<Standing> = means
        .iter()
        .map(|(name, xs)| {
            let n = xs.len() as f64;
            let mean = xs.iter().sum::<f64>() / n;
            let half_width = (xs.len() >= 2).then(|| {
                let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
                t_975(xs.len() - 1) * var.sqrt() / n.sqrt()
            });
            Standing { name: (*name).to_owned(), mean, half_width, games: played[name] }
        })
        .collect();
    standings.sort_by(|a, b| b.mean.total_cmp(&a.mean).then_with(|| a.name.cmp(&b.name)));
    DuplicateSummary { sets: complete.len(), seats, incomplete: count.len() - complete.len(), standings }
}

/// The duplicate games of one standings table (a game and ruleset) of a tournament, summarised.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DuplicateTable {
    pub game: String,
    pub ruleset: String,
    #[serde(flatten)]
    pub summary: DuplicateSummary,
}

/// The duplicate standings as CSV, a line per player and table:
/// `game,ruleset,sets,unfinished_sets,player,mean_rank_points,half_width_95,low_95,high_95,games`
/// (the interval's cells empty with a single set; text cells neutralised: `spreadsheet.rs`).
pub fn duplicate_csv(tables: &[DuplicateTable]) -> String {
    let header = [
        "game",
        "ruleset",
        "sets",
        "unfinished_sets",
        "player",
        "mean_rank_points",
        "half_width_95",
        "low_95",
        "high_95",
        "games",
    ];
    let rows = tables.iter().flat_map(|t| {
        t.summary.standings.iter().map(move |s| {
            let bound = |sign: f64| s.half_width.map(|h| format!("{:.3}", s.mean + sign * h)).unwrap_or_default();
            vec![
                Cell::Text(&t.game),
                Cell::Text(&t.ruleset),
                Cell::number(t.summary.sets),
                Cell::number(t.summary.incomplete),
                Cell::Text(&s.name),
                Cell::Number(format!("{:.3}", s.mean)),
                Cell::Number(s.half_width.map(|h| format!("{h:.3}")).unwrap_or_default()),
                Cell::Number(bound(-1.0)),
                Cell::Number(bound(1.0)),
                Cell::number(s.games),
            ]
        })
    });
    table(&header, rows)
}

impl DuplicateSummary {
    /// What was counted and what the numbers mean: the first line `paifu arena --duplicate`
    /// prints, and the note above the report's duplicate table.
    pub fn heading(&self) -> String {
        let last = self.seats.saturating_sub(1);
        let mut h = format!(
            "duplicate: {} complete set{} of {} games (one deal in every seat rotation){}; mean rank points a game \
             ({last} first .. 0 last)",
            self.sets,
            if self.sets == 1 { "" } else { "s" },
            self.seats,
            if self.incomplete > 0 {
                format!(", {} set(s) unfinished, not counted", self.incomplete)
            } else {
                String::new()
            },
        );
        if self.sets >= 2 {
            let _ = write!(
                h,
                " with a 95% confidence interval over the sets (Student's t, {} degrees of freedom)",
                self.sets - 1
            );
        } else {
            h.push_str(" (no interval from a single set)");
        }
        h
    }
}

impl std::fmt::Display for DuplicateSummary {
    /// The lines `paifu arena --duplicate` prints.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.heading())?;
        for s in &self.standings {
            write!(f, "\n  {}: {:.3}", s.name, s.mean)?;
            if let Some(h) = s.half_width {
                write!(f, " ± {h:.3} ({:.3} to {:.3})", s.mean - h, s.mean + h)?;
            }
            write!(f, ", {} games", s.games)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(deal: u32, names: [&str; 2], places: [u32; 2]) -> GamePlaces {
        GamePlaces { deal, names: names.map(str::to_owned).to_vec(), places: places.to_vec() }
    }

    #[test]
    fn the_interval_is_students_over_the_set_means() {
        // Three sets of two games: A's set means are 1, 0.5 and 0.5 (mean 2/3, s = 0.2887).
        let games = [
            game(1, ["A", "B"], [1, 2]),
            game(1, ["B", "A"], [2, 1]),
            game(2, ["A", "B"], [1, 2]),
            game(2, ["B", "A"], [1, 2]),
            game(3, ["A", "B"], [2, 1]),
            game(3, ["B", "A"], [2, 1]),
            // A set begun and not finished: not counted.
            game(4, ["A", "B"], [1, 2]),
        ];
        let s = summarise(&games, 2);
        assert_eq!((s.sets, s.incomplete), (3, 1));
        let a = &s.standings[0];
        assert_eq!((a.name.as_str(), a.games), ("A", 6));
        assert!((a.mean - 2.0 / 3.0).abs() < 1e-9, "{a:?}");
        let sd = (((1.0f64 - 2.0 / 3.0).powi(2) + 2.0 * (0.5f64 - 2.0 / 3.0).powi(2)) / 2.0).sqrt();
        let h = a.half_width.unwrap();
        assert!((h - 4.303 * sd / 3f64.sqrt()).abs() < 1e-9, "{h}");
        assert!((s.standings[1].mean - 1.0 / 3.0).abs() < 1e-9);
        let text = s.to_string();
        assert!(text.contains("3 complete sets of 2 games") && text.contains("1 set(s) unfinished"), "{text}");
        assert!(text.contains("A: 0.667 ± 0.717"), "{text}");
    }

    #[test]
    fn one_set_has_no_interval_and_the_quantiles_follow_the_table() {
        let s = summarise(&[game(1, ["A", "B"], [1, 2]), game(1, ["B", "A"], [1, 2])], 2);
        assert_eq!(s.sets, 1);
        assert!(s.standings.iter().all(|p| p.half_width.is_none() && (p.mean - 0.5).abs() < 1e-9));
        assert_eq!(t_975(1), 12.706);
        assert_eq!(t_975(30), 2.042);
        assert_eq!(t_975(45), 2.021);
        assert_eq!(t_975(1000), 1.960);
        assert_eq!(rank_points(1, 4), 3.0);
        assert_eq!(rank_points(4, 4), 0.0);
    }

    #[test]
    fn the_csv_has_a_line_per_player_and_the_interval_when_there_is_one() {
        let games = [
            game(1, ["=A", "B"], [1, 2]),
            game(1, ["B", "=A"], [2, 1]),
            game(2, ["=A", "B"], [2, 1]),
            game(2, ["B", "=A"], [2, 1]),
        ];
        let t = DuplicateTable { game: "tzq".into(), ruleset: "standard".into(), summary: summarise(&games, 2) };
        let csv = duplicate_csv(std::slice::from_ref(&t));
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3, "{csv}");
        // =A: set means 1 and 0.5: mean 0.75, s = 0.3536, t(0.975, 1) = 12.706.
        let h = 12.706 * (0.125f64).sqrt() / 2f64.sqrt();
        assert_eq!(
            lines[1],
            format!("tzq,standard,2,0,'=A,0.750,{h:.3},{:.3},{:.3},4", 0.75 - h, 0.75 + h),
            "a name that reads as a formula is neutralised"
        );
        let one = DuplicateTable { summary: summarise(&games[..2], 2), ..t };
        assert!(duplicate_csv(&[one]).lines().nth(1).unwrap().ends_with(",1.000,,,,2"));
    }
}
