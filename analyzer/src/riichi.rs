//! Riichi mahjong statistics.
//!
//! Read from the facts of paifu-core's riichi engine ([`paifu_core::riichi::FactKind`],
//! docs/statistics.md). A key missing from a round only leaves its statistics at 0.

use crate::{ratio, Block, Distribution, Metric, Unit};
use paifu_core::replay::Played;
use paifu_core::riichi::FactKind as F;
use paifu_core::riichi::Yaku;
use paifu_core::FactKey;

/// How a round ended: `tsumo`, `ron`, `exhaustive_draw`, an `abort:<kind>` key,
/// `abortive_draw` or `other`.
fn round_end(r: &paifu_core::RoundResult) -> String {
    let kinds = || r.facts.iter().filter(|f| f.value != 0).filter_map(|f| Some((f.seat, f.key_as::<F>()?)));
    let has = |k: F| kinds().any(|(_, x)| x == k);
    if has(F::Win) {
        if has(F::Tsumo) {
            "tsumo".into()
        } else {
            "ron".into()
        }
    } else if has(F::ExhaustiveDraw) {
        F::ExhaustiveDraw.key().into_owned()
    } else if let Some((_, abort)) = kinds().find(|(seat, k)| seat.is_none() && matches!(k, F::Abort(_))) {
        abort.key().into_owned()
    } else if has(F::AbortiveDraw) {
        F::AbortiveDraw.key().into_owned()
    } else {
        "other".into()
    }
}

pub(crate) fn add_game(b: &mut Block, g: &Played, seats: &[usize]) {
    for r in &g.rounds {
        b.fact(&format!("end:{}", round_end(r)), 1);
        for &s in seats {
            let fact =
                |k: F| r.facts.iter().find(|f| f.seat == Some(s as u8) && f.key_as::<F>() == Some(k)).map(|f| f.value);
            let delta = r.deltas.get(s).copied().unwrap_or(0);
            if fact(F::Win).unwrap_or(0) != 0 {
                if let Some(h) = fact(F::Han) {
                    b.dist("han", h);
                }
                if let Some(f) = fact(F::Fu) {
                    b.dist("fu", f);
                }
                // The win's value: the engine's `points` if it gives one, else the score change.
                b.fact("win_value", fact(F::Points).unwrap_or(delta));
            }
            if fact(F::DealIn).unwrap_or(0) != 0 {
                b.fact("deal_in_value", -delta);
            }
        }
    }
}

/// The wins with each yaku: its key, the count and the yaku.
fn yaku_hits(b: &Block) -> impl Iterator<Item = (&String, &u64, paifu_core::riichi::Yaku)> {
    b.hits.iter().filter_map(|(k, v)| match F::parse(k) {
        Some(F::Yaku(y)) => Some((k, v, y)),
        _ => None,
    })
}

pub(crate) fn metrics(b: &Block) -> Vec<Metric> {
    let sr = b.seat_rounds as f64;
    let wins = b.sum_of(F::Win) as f64;
    let deal_ins = b.sum_of(F::DealIn) as f64;
    let avg = |name: &str| {
        b.dists.get(name).map_or(0.0, |d| {
            let n: u64 = d.values().sum();
            ratio(d.iter().map(|(k, v)| *k as f64 * *v as f64).sum(), n as f64)
        })
    };
    let mut m = vec![
        Metric::new("win_rate", "Win rate", ratio(wins, sr), Unit::Ratio),
        Metric::new("tsumo_share", "Wins by self-draw (tsumo)", ratio(b.sum_of(F::Tsumo) as f64, wins), Unit::Ratio),
        Metric::new("deal_in_rate", "Deal-in rate", ratio(deal_ins, sr), Unit::Ratio),
        Metric::new("riichi_rate", "Riichi rate", ratio(b.hit_of(F::Riichi) as f64, sr), Unit::Ratio),
        Metric::new(
            "call_rate",
            "Call rate (rounds with an open meld)",
            ratio(b.hit_of(F::Calls) as f64, sr),
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
    m.push(Metric::new("yakuman", "Yakuman wins", b.hit_of(F::Yakuman) as f64, Unit::Count));
    // Tenpai at exhaustive draws: per seat present at such a draw.
    let seats_per_round = ratio(sr, b.rounds as f64);
    m.push(Metric::new(
        "tenpai_at_draw",
        "Tenpai at exhaustive draws",
        ratio(b.sum_of(F::Tenpai) as f64, b.sum("end:exhaustive_draw") as f64 * seats_per_round),
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
    for (k, v, yaku) in yaku_hits(b) {
        m.push(Metric::new(
            k.clone(),
            format!("Yaku {} (share of wins)", yaku.name()),
            ratio(*v as f64, wins),
            Unit::Ratio,
        ));
    }
    m
}

pub(crate) fn distributions(b: &Block) -> Vec<Distribution> {
    let hist = |name: &str| -> Vec<(String, f64)> {
        b.dists.get(name).map(|d| d.iter().map(|(k, v)| (k.to_string(), *v as f64)).collect()).unwrap_or_default()
    };
    // Dora are not yaku (a hand needs a yaku to win; dora only add han): a chart of their own.
    let is_dora = |y: &Yaku| matches!(y, Yaku::Dora | Yaku::AkaDora | Yaku::UraDora);
    let mut yaku: Vec<(String, f64)> =
        yaku_hits(b).filter(|(_, _, y)| !is_dora(y)).map(|(_, v, y)| (y.name().to_owned(), *v as f64)).collect();
    yaku.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let dora = [(Yaku::Dora, "dora"), (Yaku::AkaDora, "red fives"), (Yaku::UraDora, "ura dora")]
        .map(|(y, name)| {
            let wins = yaku_hits(b).find(|(_, _, x)| *x == y).map_or(0, |(_, v, _)| *v);
            (name.to_owned(), wins as f64)
        })
        .to_vec();
    let ends = b.sums.iter().filter_map(|(k, v)| k.strip_prefix("end:").map(|e| (e.to_owned(), *v as f64))).collect();
    vec![
        Distribution::new("yaku", "Yaku frequencies (wins with each)", yaku),
        Distribution::new("dora", "Wins with dora, red fives and ura dora", dora),
        Distribution::new("han", "Wins by han", hist("han")),
        Distribution::new("fu", "Wins by fu", hist("fu")),
        Distribution::new("ends", "How rounds end", ends),
    ]
}
