//! Paifu's statistics and plots.
//!
//! Statistics add together: a [`Block`] holds only counts and sums (games, rounds, placements,
//! the sum and the number of nonzero occurrences of every fact key, and value distributions),
//! so the statistics of any set of games are the sum of each game's. [`Analysis`] holds one
//! [`Stats`] overall and one per player; each is a [`Block`] per game kind. Rates and averages
//! are derived from the sums only when shown ([`metrics`]), by each game's module.
//!
//! See docs/statistics.md for every statistic and the fact keys each game's module reads.

pub mod duplicate;
mod hungarian;
mod mcr;
pub mod plot;
pub mod report;
mod riichi;
mod spreadsheet;
mod tayu;
mod tzq;

use paifu_core::replay::Played;
use paifu_core::{FactKey, GameKind};
use serde::{Deserialize, Serialize};
use spreadsheet::Cell;
use std::collections::BTreeMap;
use std::ops::{Add, AddAssign};

/// Counts and sums for one subject (a player, or everyone) in one game kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    /// Games played.
    pub games: u64,
    /// Rounds played (for a player: rounds of their games).
    pub rounds: u64,
    /// Seat-rounds: each round counted once per seat of the subject (a player: once; everyone:
    /// once per seat at the table). Rates per seat divide by this.
    pub seat_rounds: u64,
    /// Seat-games, likewise.
    pub seat_games: u64,
    /// How often each place was taken (1 = first; ties share).
    pub placements: BTreeMap<u32, u64>,
    /// Sum of final scores over seat-games.
    pub final_score_sum: i64,
    /// Sum of round score changes over seat-rounds.
    pub delta_sum: i64,
    /// For each fact key (seat facts of the subject's seats, and table facts): the sum of values.
    pub sums: BTreeMap<String, i64>,
    /// For each fact key: how many facts had a nonzero value.
    pub hits: BTreeMap<String, u64>,
    /// Distributions: for a name (`turns`, `han`, `fu`, ...), how often each value occurred.
    pub dists: BTreeMap<String, BTreeMap<i64, u64>>,
}

fn add_maps<K: Ord + Clone, V: AddAssign + Copy>(into: &mut BTreeMap<K, V>, from: &BTreeMap<K, V>) {
    for (k, v) in from {
        match into.get_mut(k) {
            Some(x) => *x += *v,
            None => {
                into.insert(k.clone(), *v);
            }
        }
    }
}

impl Block {
    /// Adds `other` into `self`.
    pub(crate) fn merge(&mut self, other: &Block) {
        self.games += other.games;
        self.rounds += other.rounds;
        self.seat_rounds += other.seat_rounds;
        self.seat_games += other.seat_games;
        add_maps(&mut self.placements, &other.placements);
        self.final_score_sum += other.final_score_sum;
        self.delta_sum += other.delta_sum;
        add_maps(&mut self.sums, &other.sums);
        add_maps(&mut self.hits, &other.hits);
        for (k, d) in &other.dists {
            add_maps(self.dists.entry(k.clone()).or_default(), d);
        }
    }

    /// Counts one fact.
    pub fn fact(&mut self, key: &str, value: i64) {
        *self.sums.entry(key.to_owned()).or_default() += value;
        if value != 0 {
            *self.hits.entry(key.to_owned()).or_default() += 1;
        }
    }

    /// Counts one value in a distribution.
    pub(crate) fn dist(&mut self, name: &str, value: i64) {
        *self.dists.entry(name.to_owned()).or_default().entry(value).or_default() += 1;
    }

    pub fn sum(&self, key: &str) -> i64 {
        self.sums.get(key).copied().unwrap_or(0)
    }

    pub(crate) fn hit(&self, key: &str) -> u64 {
        self.hits.get(key).copied().unwrap_or(0)
    }

    /// The sum of a game's fact.
    pub(crate) fn sum_of<K: FactKey>(&self, key: K) -> i64 {
        self.sum(&key.key())
    }

    /// How many of a game's facts had a nonzero value.
    pub(crate) fn hit_of<K: FactKey>(&self, key: K) -> u64 {
        self.hit(&key.key())
    }

    /// Average place, if any game was placed.
    pub fn average_placement(&self) -> Option<f64> {
        let n: u64 = self.placements.values().sum();
        (n > 0).then(|| self.placements.iter().map(|(p, c)| f64::from(*p) * *c as f64).sum::<f64>() / n as f64)
    }

    /// The generic part of one game: games, rounds, placements, scores, every fact summed.
    /// `seats` are the subject's seats (one for a player, all for everyone).
    fn add_game_common(&mut self, g: &Played, seats: &[usize]) {
        self.games += 1;
        self.rounds += g.rounds.len() as u64;
        self.seat_games += seats.len() as u64;
        self.seat_rounds += (g.rounds.len() * seats.len()) as u64;
        // Every place of the table is counted, a place never taken as 0, so that a chart and a
        // table show it (issue 16).
        for place in 1..=g.players.len() as u32 {
            self.placements.entry(place).or_default();
        }
        for &s in seats {
            if let Some(&p) = g.placements.get(s) {
                *self.placements.entry(p).or_default() += 1;
            }
            self.final_score_sum += g.final_scores.get(s).copied().unwrap_or(0);
        }
        for r in &g.rounds {
            for &s in seats {
                self.delta_sum += r.deltas.get(s).copied().unwrap_or(0);
            }
            for f in &r.facts {
                match f.seat {
                    None => self.fact(&f.key, f.value),
                    Some(s) if seats.contains(&usize::from(s)) => self.fact(&f.key, f.value),
                    Some(_) => {}
                }
            }
        }
    }
}

impl AddAssign<&Block> for Block {
    fn add_assign(&mut self, rhs: &Block) {
        self.merge(rhs);
    }
}

/// One subject's statistics: a block per game kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    pub kinds: BTreeMap<String, Block>,
}

impl Stats {
    pub(crate) fn merge(&mut self, other: &Stats) {
        for (k, b) in &other.kinds {
            self.kinds.entry(k.clone()).or_default().merge(b);
        }
    }

    /// The statistics of one game for the seats `seats`.
    pub(crate) fn of_game(g: &Played, seats: &[usize]) -> Stats {
        let mut b = Block::default();
        b.add_game_common(g, seats);
        if let Some(m) = module(g.game) {
            (m.add_game)(&mut b, g, seats);
        }
        let mut s = Stats::default();
        s.kinds.insert(g.game.name().to_owned(), b);
        s
    }

    pub fn games(&self) -> u64 {
        self.kinds.values().map(|b| b.games).sum()
    }
}

impl Add for Stats {
    type Output = Stats;
    fn add(mut self, rhs: Stats) -> Stats {
        self.merge(&rhs);
        self
    }
}

/// Statistics over a set of games: overall and per player.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    pub overall: Stats,
    pub players: BTreeMap<String, Stats>,
}

impl Analysis {
    /// One game's analysis. `only` keeps a single player's statistics (the overall part is
    /// always the whole table).
    pub(crate) fn of_game(g: &Played, only: Option<&str>) -> Analysis {
        let all: Vec<usize> = (0..g.players.len()).collect();
        Analysis { overall: Stats::of_game(g, &all), players: Analysis::players_of_game(g, only) }
    }

    /// One game's statistics for each player at its table (a player with several seats counts
    /// them all), or for `only` that one: what [`Analysis::add_game`] adds to `players`. The
    /// archive keeps these sums per player as games are stored.
    pub fn players_of_game(g: &Played, only: Option<&str>) -> BTreeMap<String, Stats> {
        let mut by_name: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, p) in g.players.iter().enumerate() {
            if only.is_none_or(|o| o == p) {
                by_name.entry(p.as_str()).or_default().push(i);
            }
        }
        by_name.into_iter().map(|(name, seats)| (name.to_owned(), Stats::of_game(g, &seats))).collect()
    }

    pub(crate) fn merge(&mut self, other: &Analysis) {
        self.overall.merge(&other.overall);
        for (k, s) in &other.players {
            self.players.entry(k.clone()).or_default().merge(s);
        }
    }

    /// Adds one game's analysis (see [`Analysis::of_game`]).
    pub fn add_game(&mut self, g: &Played, only: Option<&str>) {
        self.merge(&Analysis::of_game(g, only));
    }
}

impl Add for Analysis {
    type Output = Analysis;
    fn add(mut self, rhs: Analysis) -> Analysis {
        self.merge(&rhs);
        self
    }
}

/// A statistic as shown: derived from a block's sums.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metric {
    /// Stable key, for JSON and CSV (`win_rate`, `category:flush:points`, ...).
    pub key: String,
    /// Human label.
    pub label: String,
    pub value: f64,
    /// How to print it.
    pub unit: Unit,
}

/// How a metric is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Count,
    Ratio,
    Average,
}

impl Metric {
    pub fn new(key: impl Into<String>, label: impl Into<String>, value: f64, unit: Unit) -> Metric {
        Metric { key: key.into(), label: label.into(), value, unit }
    }

    pub fn shown(&self) -> String {
        match self.unit {
            Unit::Count => format!("{}", self.value as i64),
            Unit::Ratio => format!("{:.1}%", self.value * 100.0),
            Unit::Average => format!("{:.2}", self.value),
        }
    }
}

/// `a / b`, or 0 when `b` is 0.
pub(crate) fn ratio(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        0.0
    } else {
        a / b
    }
}

/// The metrics every game has.
fn common_metrics(b: &Block) -> Vec<Metric> {
    let mut m = vec![
        Metric::new("games", "Games", b.games as f64, Unit::Count),
        Metric::new("rounds", "Rounds", b.rounds as f64, Unit::Count),
    ];
    if let Some(p) = b.average_placement() {
        m.push(Metric::new("average_placement", "Average placement", p, Unit::Average));
        m.push(Metric::new(
            "first_rate",
            "First places",
            ratio(b.placements.get(&1).copied().unwrap_or(0) as f64, b.seat_games as f64),
            Unit::Ratio,
        ));
    }
    m.push(Metric::new(
        "average_final_score",
        "Average final score",
        ratio(b.final_score_sum as f64, b.seat_games as f64),
        Unit::Average,
    ));
    m.push(Metric::new(
        "average_round_delta",
        "Average score change per round",
        ratio(b.delta_sum as f64, b.seat_rounds as f64),
        Unit::Average,
    ));
    m
}

/// The metrics of one game kind's block, in display order.
pub fn metrics(game: &str, b: &Block) -> Vec<Metric> {
    let mut m = common_metrics(b);
    match GameKind::from_name(game).and_then(module) {
        Some(g) => m.extend((g.metrics)(b)),
        None => {
            for (k, v) in &b.sums {
                m.push(Metric::new(format!("sum:{k}"), format!("Sum of {k}"), *v as f64, Unit::Count));
            }
        }
    }
    m
}

/// A distribution worth a chart: a stable name, a title, and labelled values in order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Distribution {
    pub name: String,
    pub title: String,
    pub values: Vec<(String, f64)>,
}

impl Distribution {
    /// A distribution; its labels are made readable ([`label`]).
    pub fn new(name: &str, title: &str, values: Vec<(String, f64)>) -> Distribution {
        let values = values.into_iter().map(|(l, v)| (label(&l), v)).collect();
        Distribution { name: name.to_owned(), title: title.to_owned(), values }
    }
}

/// A key as a reader wants it: `exhaustive_draw` reads "Exhaustive draw", `abort:nine_terminals`
/// "Abortive draw: nine terminals"; numbers stay as they are.
pub fn label(key: &str) -> String {
    let text = match key.split_once(':') {
        Some(("abort", what)) => format!("abortive draw: {what}"),
        Some((kind, what)) => format!("{kind}: {what}"),
        None => key.to_owned(),
    }
    .replace('_', " ");
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

/// The distributions worth a chart for a game kind.
pub fn distributions(game: &str, b: &Block) -> Vec<Distribution> {
    GameKind::from_name(game).and_then(module).map_or_else(Vec::new, |m| (m.distributions)(b))
}

/// One game's statistics module.
struct Module {
    /// What the game adds to a block beyond the summed facts (its distributions).
    add_game: fn(&mut Block, &Played, &[usize]),
    /// The game's own metrics, in display order.
    metrics: fn(&Block) -> Vec<Metric>,
    /// The game's distributions worth a chart.
    distributions: fn(&Block) -> Vec<Distribution>,
}

/// The analyzer's registry: each game's statistics module (`None`: only the common metrics and
/// the plain sums of its facts).
fn module(kind: GameKind) -> Option<Module> {
    Some(match kind {
        GameKind::Tzq => Module { add_game: tzq::add_game, metrics: tzq::metrics, distributions: tzq::distributions },
        GameKind::Riichi => {
            Module { add_game: riichi::add_game, metrics: riichi::metrics, distributions: riichi::distributions }
        }
        GameKind::Hungarian => Module {
            add_game: hungarian::add_game,
            metrics: hungarian::metrics,
            distributions: hungarian::distributions,
        },
        GameKind::Tayu => {
            Module { add_game: tayu::add_game, metrics: tayu::metrics, distributions: tayu::distributions }
        }
        GameKind::Mcr => Module { add_game: mcr::add_game, metrics: mcr::metrics, distributions: mcr::distributions },
    })
}

fn title_of(game: &str) -> String {
    paifu_core::GameKind::from_name(game).map_or_else(|| game.to_owned(), |k| k.title().to_owned())
}

/// The output formats of `paifu stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Csv,
}

/// A name that is not one of the output formats.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format {0:?}: use text, json or csv")]
pub struct UnknownFormat(pub String);

impl std::str::FromStr for Format {
    type Err = UnknownFormat;
    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        match s {
            "text" => Ok(Format::Text),
            "json" => Ok(Format::Json),
            "csv" => Ok(Format::Csv),
            other => Err(UnknownFormat(other.to_owned())),
        }
    }
}

fn subjects(a: &Analysis) -> Vec<(String, &Stats)> {
    let mut v = vec![("(all)".to_owned(), &a.overall)];
    v.extend(a.players.iter().map(|(k, s)| (k.clone(), s)));
    v
}

/// A JSON report: for each subject and game kind, the metrics and the raw sums (so that a
/// consumer can add reports together itself).
pub fn to_json(a: &Analysis) -> serde_json::Value {
    let subject = |s: &Stats| {
        serde_json::Value::Object(
            s.kinds
                .iter()
                .map(|(game, b)| {
                    let metrics: serde_json::Map<String, serde_json::Value> =
                        metrics(game, b).into_iter().map(|m| (m.key, serde_json::json!(m.value))).collect();
                    (game.clone(), serde_json::json!({ "metrics": metrics, "block": b }))
                })
                .collect(),
        )
    };
    serde_json::json!({
        "overall": subject(&a.overall),
        "players": a.players.iter().map(|(k, s)| (k.clone(), subject(s))).collect::<serde_json::Map<_, _>>(),
    })
}

/// CSV with one line per subject, game and metric: `subject,game,metric,value` (text cells
/// neutralised, `spreadsheet.rs`).
pub(crate) fn to_csv(a: &Analysis) -> String {
    let mut rows = Vec::new();
    let subjects = subjects(a);
    for (name, s) in &subjects {
        for (game, b) in &s.kinds {
            for m in metrics(game, b) {
                rows.push((name.as_str(), game.as_str(), m.key, m.value));
            }
        }
    }
    spreadsheet::table(
        &["subject", "game", "metric", "value"],
        rows.iter().map(|(name, game, key, value)| {
            vec![Cell::Text(name), Cell::Text(game), Cell::Text(key), Cell::number(value)]
        }),
    )
}

/// Plain text for a terminal.
pub(crate) fn to_text(a: &Analysis) -> String {
    let mut out = String::new();
    if a.overall.kinds.is_empty() {
        out.push_str("No valid games match.\n");
        return out;
    }
    for (name, s) in subjects(a) {
        for (game, b) in &s.kinds {
            let who = if name == "(all)" { "Everyone in these games".to_owned() } else { name.clone() };
            out.push_str(&format!("== {who}: {} ==\n", title_of(game)));
            for m in metrics(game, b) {
                out.push_str(&format!("  {:<44} {:>10}\n", m.label, m.shown()));
            }
            for Distribution { title, values, .. } in distributions(game, b) {
                if values.is_empty() {
                    continue;
                }
                out.push_str(&format!("  {title}:\n"));
                for (label, v) in values {
                    out.push_str(&format!("    {label:<42} {v:>10}\n"));
                }
            }
            out.push('\n');
        }
    }
    out
}

/// Renders an analysis in a format.
pub fn render(a: &Analysis, format: Format) -> String {
    match format {
        Format::Text => to_text(a),
        Format::Json => serde_json::to_string_pretty(&to_json(a)).unwrap_or_default() + "\n",
        Format::Csv => to_csv(a),
    }
}

#[cfg(test)]
mod tests;
