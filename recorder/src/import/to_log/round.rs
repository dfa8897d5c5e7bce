//! Playing one round of a game in the record model through the engine, answering it from the
//! source: the records come out in the global order of play (module doc of to_log).

use super::builder::Builder;
use super::{result, Mismatch};
use crate::import::record::{round_name, Discard, Outcome, Round, Take};
use crate::import::ImportError;
use paifu_core::mahjong::Tile;
use paifu_core::riichi::Action;
use paifu_core::Game;
use paifu_core::Seat;

/// Plays one round of the source through the engine (see the module's doc).
pub(super) fn play(b: &mut Builder, ri: usize, r: &Round, mismatches: &mut Vec<Mismatch>) -> Result<(), ImportError> {
    let name = r.name();
    let err = |pos: String, msg: String| ImportError { round: Some(name.clone()), position: pos, message: msg };
    if b.game.is_over() {
        return Err(err(format!("log[{ri}]"), "the game is over by the rules, but the source goes on".into()));
    }
    let g = &b.game;
    if g.kyoku_index() != u32::from(r.kyoku) || g.honba() != r.honba || g.riichi_sticks() != r.sticks {
        let ki = g.kyoku_index().min(15) as u8;
        return Err(err(
            format!("log[{ri}][0]"),
            format!(
                "by the rules this hand is {} with {} riichi sticks on the table; the source says {name} with {}",
                round_name(ki, g.honba()),
                g.riichi_sticks(),
                r.sticks
            ),
        ));
    }
    if g.scores() != r.scores.to_vec() {
        mismatches.push(Mismatch {
            record: b.records.len(),
            error: err(
                format!("log[{ri}][1]"),
                format!("claim_mismatch: starting scores claimed {:?}, computed {:?}", r.scores, g.scores()),
            ),
        });
    }
    let start = b.game.results().len();
    let dealer = b.game.dealer();
    for k in 0..4u8 {
        let s = (dealer + k) % 4;
        let su = usize::from(s);
        let tiles: Vec<Tile> = r.hands[su].iter().map(|t| t.to_paifu()).collect();
        let arr: [Tile; 13] =
            tiles.try_into().map_err(|_| err(format!("log[{ri}][{}]", 4 + 3 * su), "a hand is 13 tiles".into()))?;
        b.push(s, Action::deal(arr), format!("log[{ri}][{}]", 4 + 3 * su));
    }
    for (i, d) in r.dora.iter().enumerate() {
        b.push(dealer, Action::Dora(d.to_paifu()), format!("log[{ri}][2][{i}]"));
    }
    for (i, d) in r.ura.iter().enumerate() {
        b.push(dealer, Action::Ura(d.to_paifu()), format!("log[{ri}][3][{i}]"));
    }
    let mut ti = [0usize; 4];
    let mut di = [0usize; 4];
    let take_pos = |s: usize, i: usize| format!("log[{ri}][{}][{i}]", 5 + 3 * s);
    let disc_pos = |s: usize, i: usize| format!("log[{ri}][{}][{i}]", 6 + 3 * s);
    let result_pos = format!("log[{ri}][16]");
    while !b.stopped() && b.game.results().len() == start {
        if b.game.is_over() {
            break;
        }
        if let Some((s, _)) = b.game.draw_pending() {
            let su = usize::from(s);
            match r.takes[su].get(ti[su]) {
                Some(Take::Draw(t)) => {
                    b.push(s, Action::Draw(t.to_paifu()), take_pos(su, ti[su]));
                    ti[su] += 1;
                }
                Some(call) => {
                    // A call out of its place: recorded as it stands, so the validator refuses it here.
                    let a = match call {
                        Take::Chi { own, .. } => Action::chi(own[0].to_paifu(), own[1].to_paifu()),
                        Take::Pon { own, .. } => Action::pon(own[0].to_paifu(), own[1].to_paifu()),
                        Take::OpenKan { called, .. } | Take::Draw(called) => Action::Minkan(called.to_paifu().deaka()),
                    };
                    b.push(s, a, take_pos(su, ti[su]));
                    if !b.stopped() {
                        return Err(err(
                            take_pos(su, ti[su]),
                            format!("seat {s} draws here, but the source has a call"),
                        ));
                    }
                }
                None => {
                    return Err(err(
                        format!("log[{ri}][{}]", 5 + 3 * su),
                        format!("seat {s} draws next in the order of play, but its takes in the source end here"),
                    ))
                }
            }
            continue;
        }
        if let Some((from, wtile)) = b.game.claim_window() {
            let fu = usize::from(from);
            let seats: Vec<Seat> = (1..4).map(|d| (from + d) % 4).filter(|&s| b.game.to_act().contains(s)).collect();
            let consumed = (0..4).all(|s| ti[s] == r.takes[s].len() && di[s] == r.discards[s].len());
            let last_disc = disc_pos(fu, di[fu].saturating_sub(1));
            if consumed {
                for &s in &seats {
                    let ron = match &r.outcome {
                        Outcome::Wins(ws) => ws.iter().any(|w| w.who == s && w.from == from && w.who != w.from),
                        Outcome::Draw { name, .. } => name == "三家和了",
                    };
                    let (a, pos) =
                        if ron { (Action::Ron, result_pos.clone()) } else { (Action::Pass, last_disc.clone()) };
                    b.push(s, a, pos);
                }
                continue;
            }
            // Who calls this tile: the seat whose next take is a call of it from `from`; pon and
            // kan before chi.
            let mut caller: Option<(Seat, Action, u8)> = None;
            for &s in &seats {
                let su = usize::from(s);
                let a = match r.takes[su].get(ti[su]) {
                    Some(Take::Chi { called, own }) if called.to_paifu() == wtile && (s + 3) % 4 == from => {
                        Some((Action::chi(own[0].to_paifu(), own[1].to_paifu()), 1))
                    }
                    Some(Take::Pon { called, own, from: f }) if called.to_paifu() == wtile && f.seat(s) == from => {
                        Some((Action::pon(own[0].to_paifu(), own[1].to_paifu()), 2))
                    }
                    Some(Take::OpenKan { called, from: f, .. }) if called.to_paifu() == wtile && f.seat(s) == from => {
                        Some((Action::Minkan(wtile.deaka()), 2))
                    }
                    _ => None,
                };
                if let Some((a, p)) = a {
                    if caller.as_ref().is_none_or(|c| p > c.2) {
                        caller = Some((s, a, p));
                    }
                }
            }
            for &s in &seats {
                match &caller {
                    Some((c, a, _)) if *c == s => {
                        let su = usize::from(s);
                        b.push(s, a.clone(), take_pos(su, ti[su]));
                    }
                    _ => {
                        b.push(s, Action::Pass, last_disc.clone());
                    }
                }
            }
            if let Some((c, a, _)) = caller {
                let cu = usize::from(c);
                ti[cu] += 1;
                if matches!(a, Action::Minkan(_)) {
                    match r.discards[cu].get(di[cu]) {
                        Some(Discard::Nothing) => di[cu] += 1,
                        _ => {
                            return Err(err(
                                disc_pos(cu, di[cu]),
                                format!("seat {c}'s open kan must be followed by 0 in its discards"),
                            ))
                        }
                    }
                }
            }
            continue;
        }
        // A seat's turn.
        let Some(s) = b.game.to_act().iter().next() else { break };
        let su = usize::from(s);
        let drawn = b.game.drawn_tile().map(|(_, t, _)| t);
        let Some(d) = r.discards[su].get(di[su]) else {
            let tsumo = matches!(&r.outcome, Outcome::Wins(ws) if ws.iter().any(|w| w.who == s && w.from == s));
            let nine = matches!(&r.outcome, Outcome::Draw { name, .. } if name == "九種九牌");
            if tsumo && ti[su] == r.takes[su].len() {
                b.push(s, Action::Tsumo, result_pos.clone());
            } else if nine {
                b.push(s, Action::Kyuushu, result_pos.clone());
            } else {
                return Err(err(
                    format!("log[{ri}][{}]", 6 + 3 * su),
                    format!("seat {s} acts next in the order of play, but its discards in the source end here"),
                ));
            }
            continue;
        };
        let need_drawn = || {
            drawn.ok_or_else(|| {
                err(disc_pos(su, di[su]), format!("seat {s} discards the drawn tile (60), but it has drawn nothing"))
            })
        };
        let a = match d {
            Discard::Tile(t) => Action::discard(t.to_paifu()),
            Discard::Tsumogiri => Action::tsumogiri(need_drawn()?),
            Discard::Riichi(Some(t)) => Action::Discard { tile: t.to_paifu(), drawn: false, riichi: true },
            Discard::Riichi(None) => Action::Discard { tile: need_drawn()?, drawn: true, riichi: true },
            Discard::AddedKan { added, .. } => Action::Kakan(added.to_paifu().deaka()),
            Discard::ClosedKan { tiles } => Action::Ankan(tiles[0].to_paifu().deaka()),
            Discard::Nothing => {
                return Err(err(disc_pos(su, di[su]), format!("seat {s} must discard here, but the source has 0")))
            }
        };
        b.push(s, a, disc_pos(su, di[su]));
        di[su] += 1;
    }
    if b.stopped() {
        return Ok(());
    }
    for s in 0..4 {
        if ti[s] < r.takes[s].len() {
            return Err(err(take_pos(s, ti[s]), "the hand is over by the rules here, but the source goes on".into()));
        }
        if di[s] < r.discards[s].len() {
            return Err(err(disc_pos(s, di[s]), "the hand is over by the rules here, but the source goes on".into()));
        }
    }
    result::conclude(b, ri, r, mismatches);
    Ok(())
}
