//! The end of a round: its claim (the source's score changes in Paifu's convention) and the
//! source's scoring of each win compared with Paifu's.

use super::builder::Builder;
use super::Mismatch;
use crate::import::record::{Discard, Outcome, Round, Win};
use crate::import::{yaku, ImportError};
use paifu_core::riichi::{Riichi, Score};
use paifu_core::Game as _;

/// Puts the round's claim on its last record and reports where the source's scoring of a win
/// differs from Paifu's.
pub(super) fn conclude(b: &mut Builder, ri: usize, r: &Round, mismatches: &mut Vec<Mismatch>) {
    let name = r.name();
    let err = |pos: String, msg: String| ImportError { round: Some(name.clone()), position: pos, message: msg };
    // The round's score changes in Paifu's convention: Tenhou's leave out the riichi deposits.
    let mut d = [0i64; 4];
    match &r.outcome {
        Outcome::Wins(ws) => {
            for w in ws {
                for (x, y) in d.iter_mut().zip(w.deltas) {
                    *x += y;
                }
            }
        }
        Outcome::Draw { deltas: Some(x), .. } => d = *x,
        Outcome::Draw { deltas: None, .. } => {}
    }
    for s in 0..4u8 {
        let ds = &r.discards[usize::from(s)];
        if let Some(i) = ds.iter().position(|x| matches!(x, Discard::Riichi(_))) {
            let ronned = i + 1 == ds.len()
                && match &r.outcome {
                    Outcome::Wins(ws) => ws.iter().any(|w| w.from == s && w.who != s),
                    Outcome::Draw { name, .. } => name == "三家和了",
                };
            if !ronned {
                d[usize::from(s)] -= 1000;
            }
        }
    }
    // Score changes the source left out are computed, not claimed: no claim (never a claim of
    // nothing).
    let unclaimed = matches!(&r.outcome, Outcome::Wins(ws) if ws.iter().any(|w| w.computed.contains(&"score changes")));
    if !unclaimed {
        b.claim(Some(d.to_vec()), None);
    }
    let record = b.records.len().saturating_sub(1);
    let mut found = Vec::new();
    if let Outcome::Wins(ws) = &r.outcome {
        let wins = b.game.last_wins().to_vec();
        for (k, w) in ws.iter().enumerate() {
            let pos = format!("log[{ri}][16][{}]", 2 * k + 2);
            match wins.iter().find(|(s, _)| *s == w.who) {
                Some((_, sc)) => found.extend(compare_win(sc, w.han, w.fu, w.yaku.as_deref(), &name, &pos)),
                None => {
                    found.push(err(pos, format!("claim_mismatch: the source has seat {} win, Paifu does not", w.who)))
                }
            }
        }
        let liable = b
            .game
            .results()
            .last()
            .map(|res| res.facts.iter().filter(|f| f.key == "liable").filter_map(|f| f.seat).collect::<Vec<_>>());
        found.extend(compare_liable(ws, &liable.unwrap_or_default(), ri, &name));
    }
    mismatches.extend(found.into_iter().map(|error| Mismatch { record, error }));
}

/// Compares the seats the source makes liable (pao: Tenhou's third win entry, mjlog's `paoWho`)
/// with the seats Paifu's engine makes liable in the hand. Sources that do not say (mjai) are not
/// compared.
fn compare_liable(ws: &[Win], computed: &[u8], ri: usize, round: &str) -> Option<ImportError> {
    if ws.iter().any(|w| w.pao.is_none()) {
        return None;
    }
    let mut claimed: Vec<u8> = ws.iter().filter_map(|w| w.pao.filter(|p| *p != w.who)).collect();
    let mut computed = computed.to_vec();
    claimed.sort_unstable();
    computed.sort_unstable();
    if claimed == computed {
        return None;
    }
    let k = ws.iter().position(|w| w.pao.is_some_and(|p| p != w.who)).unwrap_or(0);
    let show = |v: &[u8]| {
        if v.is_empty() {
            "no seat".to_owned()
        } else {
            v.iter().map(|s| format!("seat {s}")).collect::<Vec<_>>().join(" and ")
        }
    };
    Some(ImportError {
        round: Some(round.to_owned()),
        position: format!("log[{ri}][16][{}][2]", 2 * k + 2),
        message: format!(
            "claim_mismatch: the source makes {} liable (pao), Paifu's rules make {} liable",
            show(&claimed),
            show(&computed)
        ),
    })
}

/// Compares the source's final results after uma and oka (tenhou.net/6 `sc`, mjlog `owari`, in
/// thousands) with Paifu's: each seat's must be either the exact result (`final_points`) or the
/// one Tenhou writes (below).
pub(super) fn final_results(game: &Riichi, claimed: &[f64]) -> Option<ImportError> {
    let exact = game.final_points();
    let tenhou = tenhou_results(game);
    let close = |c: f64, want: f64, within: f64| (c - want).abs() < within;
    let all_exact = claimed.len() == 4 && (0..4).all(|s| close(claimed[s] * 1000.0, exact[s] as f64, 0.5));
    let all_tenhou = claimed.len() == 4 && tenhou.is_some_and(|t| (0..4).all(|s| close(claimed[s], t[s] as f64, 1e-9)));
    let ok = all_exact || all_tenhou;
    if ok {
        return None;
    }
    let mut message = format!(
        "claim_mismatch: final results after uma and oka claimed {claimed:?}, computed {:?}",
        exact.iter().map(|e| *e as f64 / 1000.0).collect::<Vec<_>>()
    );
    if let Some(t) = tenhou {
        message.push_str(&format!(" (as Tenhou rounds them: {t:?})"));
    }
    Some(ImportError::new("sc", message))
}

/// The results Tenhou writes, in thousands: for each seat but the top, (score − return points)
/// rounded to a thousand with halves toward zero (五捨六入: −5500 is −5, −5600 is −6), plus the
/// uma of its place; the top gets what makes the four sum to zero. `None` under sanmanten.
pub(crate) fn tenhou_results(game: &Riichi) -> Option<[i64; 4]> {
    let rules = game.rules_in_force();
    if rules.sanmanten {
        return None;
    }
    let scores = game.scores();
    let rank = game.ranking();
    let mut out = [0i64; 4];
    for (place, &s) in rank.iter().enumerate().skip(1) {
        let x = scores[s] - rules.return_points;
        out[s] = x.signum() * ((x.abs() / 100 + 4) / 10) + rules.uma[place];
    }
    out[rank[0]] = -rank.iter().skip(1).map(|&s| out[s]).sum::<i64>();
    Some(out)
}

/// Compares the source's han, fu and yaku of a win with Paifu's score of it.
fn compare_win(
    sc: &Score,
    han: Option<u32>,
    fu: Option<u32>,
    yaku_src: Option<&[(String, u32)]>,
    round: &str,
    pos: &str,
) -> Vec<ImportError> {
    let mut out = Vec::new();
    let mk = |msg: String| ImportError {
        round: Some(round.to_owned()),
        position: pos.to_owned(),
        message: format!("claim_mismatch: {msg}"),
    };
    let mut theirs = Vec::new();
    for (name, h) in yaku_src.unwrap_or_default() {
        match yaku::paifu_name(name) {
            Some(p) if *h > 0 => theirs.push((p.to_owned(), *h)),
            Some(_) => {}
            None => out.push(mk(format!("the source names a yaku Paifu does not know: {name:?}"))),
        }
    }
    let mut ours: Vec<(String, u32)> =
        sc.yaku.iter().filter(|(_, h)| *h > 0).map(|(y, h)| (y.name().to_owned(), *h)).collect();
    theirs.sort();
    ours.sort();
    if yaku_src.is_some() && theirs != ours && out.is_empty() {
        let show = |v: &[(String, u32)]| v.iter().map(|(n, h)| format!("{n} {h}")).collect::<Vec<_>>().join(", ");
        out.push(mk(format!("yaku claimed [{}], computed [{}]", show(&theirs), show(&ours))));
    }
    // The han: as given, or the sum of the yaku; not compared when the source gives neither.
    let their_han = han.or_else(|| yaku_src.map(|y| y.iter().map(|(_, h)| h).sum()));
    if let Some(h) = their_han.filter(|h| *h != sc.han) {
        out.push(mk(format!("han claimed {h}, computed {}", sc.han)));
    }
    if let Some(f) = fu {
        if f != sc.fu && sc.yakuman == 0 {
            out.push(mk(format!("fu claimed {f}, computed {}", sc.fu)));
        }
    }
    out
}
