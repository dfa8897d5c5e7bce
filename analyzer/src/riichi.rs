//! Riichi mahjong statistics.
//!
//! Computed from whichever of these fact keys the riichi engine emits (docs/statistics.md):
//! per seat `win`, `tsumo`, `ron`, `deal_in`, `riichi`, `calls` (or `call`), `han`, `fu`,
//! `points`, `yakuman`, `yaku:<name>`, `tenpai`; for the table `exhaustive_draw`,
//! `abortive_draw`, `abort:<kind>` (or `draw:<kind>`). A missing key only leaves its statistics
//! at 0.

use crate::{ratio, Block, Distribution, Metric, Unit};
use paifu_recorder::archive::GameData;

/// How a round ended: `tsumo`, `ron`, `exhaustive_draw`, an `abort:<kind>` or `draw:<kind>`
/// key, or `other`.
fn round_end(r: &paifu_core::RoundResult) -> String {
    let has = |k: &str| r.facts.iter().any(|f| f.key == k && f.value != 0);
    let table = |prefix: &str| {
        r.facts.iter().find(|f| f.seat.is_none() && f.key.starts_with(prefix) && f.value != 0).map(|f| f.key.clone())
    };
    if has("win") {
        if has("tsumo") {
            "tsumo".into()
        } else {
            "ron".into()
        }
    } else if has("exhaustive_draw") {
        "exhaustive_draw".into()
    } else if let Some(k) = table("abort:").or_else(|| table("draw:")) {
        k
    } else if has("abortive_draw") {
        "abortive_draw".into()
    } else {
        "other".into()
    }
}

pub fn add_game(b: &mut Block, g: &GameData, seats: &[usize]) {
    for r in &g.rounds {
        b.fact(&format!("end:{}", round_end(r)), 1);
        for &s in seats {
            let fact = |k: &str| r.facts.iter().find(|f| f.seat == Some(s as u8) && f.key == k).map(|f| f.value);
            let delta = r.deltas.get(s).copied().unwrap_or(0);
            if fact("win").unwrap_or(0) != 0 {
                if let Some(h) = fact("han") {
                    b.dist("han", h);
                }
                if let Some(f) = fact("fu") {
                    b.dist("fu", f);
                }
                // The win's value: the engine's `points` if it gives one, else the score change.
                b.fact("win_value", fact("points").unwrap_or(delta));
            }
            if fact("deal_in").unwrap_or(0) != 0 {
                b.fact("deal_in_value", -delta);
            }
        }
    }
}

pub fn metrics(b: &Block) -> Vec<Metric> {
    let sr = b.seat_rounds as f64;
    let wins = b.sum("win") as f64;
    let deal_ins = b.sum("deal_in") as f64;
    let avg = |name: &str| {
        b.dists.get(name).map_or(0.0, |d| {
            let n: u64 = d.values().sum();
            ratio(d.iter().map(|(k, v)| *k as f64 * *v as f64).sum(), n as f64)
        })
    };
    let mut m = vec![
        Metric::new("win_rate", "Win rate", ratio(wins, sr), Unit::Ratio),
        Metric::new("tsumo_share", "Wins by self-draw (tsumo)", ratio(b.sum("tsumo") as f64, wins), Unit::Ratio),
        Metric::new("deal_in_rate", "Deal-in rate", ratio(deal_ins, sr), Unit::Ratio),
        Metric::new("riichi_rate", "Riichi rate", ratio(b.hit("riichi") as f64, sr), Unit::Ratio),
        Metric::new(
            "call_rate",
            "Call rate (rounds with an open meld)",
            ratio((b.hit("calls") + b.hit("call")) as f64, sr),
            Unit::Ratio,
        ),
        Metric::new("average_win_value", "Average win value", ratio(b.sum("win_value") as f64, wins), Unit::Average),
        Metric::new(
            "average_deal_in_value",
            "Average deal-in value",
            ratio(b.sum("deal_in_value") as f64, deal_ins),
            Unit::Average,
        ),
        Metric::new("average_han", "Average han of wins", avg("han"), Unit::Average),
    ];
    if b.dists.contains_key("fu") {
        m.push(Metric::new("average_fu", "Average fu of wins", avg("fu"), Unit::Average));
    }
    m.push(Metric::new("yakuman", "Yakuman wins", b.hit("yakuman") as f64, Unit::Count));
    // Tenpai at exhaustive draws: per seat present at such a draw.
    let seats_per_round = ratio(sr, b.rounds as f64);
    m.push(Metric::new(
        "tenpai_at_draw",
        "Tenpai at exhaustive draws",
        ratio(b.sum("tenpai") as f64, b.sum("end:exhaustive_draw") as f64 * seats_per_round),
        Unit::Ratio,
    ));
    for (k, v) in b.sums.iter().filter(|(k, _)| k.starts_with("end:")) {
        m.push(Metric::new(
            k.clone(),
            format!("Rounds ending by {}", &k[4..]),
            ratio(*v as f64, b.rounds as f64),
            Unit::Ratio,
        ));
    }
    for (k, v) in b.hits.iter().filter(|(k, _)| k.starts_with("yaku:")) {
        m.push(Metric::new(
            k.clone(),
            format!("Yaku {} (share of wins)", &k[5..]),
            ratio(*v as f64, wins),
            Unit::Ratio,
        ));
    }
    m
}

pub fn distributions(b: &Block) -> Vec<Distribution> {
    let hist = |name: &str| -> Vec<(String, f64)> {
        b.dists.get(name).map(|d| d.iter().map(|(k, v)| (k.to_string(), *v as f64)).collect()).unwrap_or_default()
    };
    let mut yaku: Vec<(String, f64)> =
        b.hits.iter().filter_map(|(k, v)| k.strip_prefix("yaku:").map(|y| (y.replace('_', " "), *v as f64))).collect();
    yaku.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let ends = b.sums.iter().filter_map(|(k, v)| k.strip_prefix("end:").map(|e| (e.to_owned(), *v as f64))).collect();
    vec![
        Distribution::new("yaku", "Yaku frequencies (wins with each)", yaku),
        Distribution::new("han", "Wins by han", hist("han")),
        Distribution::new("fu", "Wins by fu", hist("fu")),
        Distribution::new("ends", "How rounds end", ends),
    ]
}
