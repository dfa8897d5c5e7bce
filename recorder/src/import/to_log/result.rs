//! The end of a round: its claim (the source's score changes in Paifu's convention) and the
//! source's scoring of each win compared with Paifu's.

use super::builder::Builder;
use crate::import::record::{Discard, Outcome, Round};
use crate::import::{yaku, ImportError};
use paifu_core::riichi::Score;

/// Puts the round's claim on its last record and reports where the source's scoring of a win
/// differs from Paifu's.
pub(super) fn conclude(b: &mut Builder, ri: usize, r: &Round, mismatches: &mut Vec<ImportError>) {
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
    b.claim(Some(d.to_vec()), None);
    if let Outcome::Wins(ws) = &r.outcome {
        let wins = b.game.last_wins().to_vec();
        for (k, w) in ws.iter().enumerate() {
            let pos = format!("log[{ri}][16][{}]", 2 * k + 2);
            match wins.iter().find(|(s, _)| *s == w.who) {
                Some((_, sc)) => mismatches.extend(compare_win(sc, w.han, w.fu, &w.yaku, &name, &pos)),
                None => mismatches
                    .push(err(pos, format!("claim_mismatch: the source has seat {} win, Paifu does not", w.who))),
            }
        }
    }
}

/// Compares the source's han, fu and yaku of a win with Paifu's score of it.
fn compare_win(
    sc: &Score,
    han: Option<u32>,
    fu: Option<u32>,
    yaku_src: &[(String, u32)],
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
    for (name, h) in yaku_src {
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
    if theirs != ours && out.is_empty() {
        let show = |v: &[(String, u32)]| v.iter().map(|(n, h)| format!("{n} {h}")).collect::<Vec<_>>().join(", ");
        out.push(mk(format!("yaku claimed [{}], computed [{}]", show(&theirs), show(&ours))));
    }
    let their_han = han.unwrap_or_else(|| yaku_src.iter().map(|(_, h)| h).sum());
    if their_han != sc.han {
        out.push(mk(format!("han claimed {their_han}, computed {}", sc.han)));
    }
    if let Some(f) = fu {
        if f != sc.fu && sc.yakuman == 0 {
            out.push(mk(format!("fu claimed {f}, computed {}", sc.fu)));
        }
    }
    out
}
