//! Rebuilding the embedded log from the file's game: the answer order, the unmade calls and the
//! claims put back, and for a seeded log the decisions replayed on the seed.

use super::Embedded;
use crate::import::positions::{Place, PosMap};
use crate::import::record::{Game, Tile};
use crate::import::to_log::{self, Imported, Mismatch};
use crate::import::ImportError;
use paifu_core::log::{Log, Record};
use paifu_core::riichi::{Action, Riichi};
use paifu_core::Game as _;

/// Rebuilds the embedded log from a game in the record model. Positions are the model's paths.
pub(crate) fn rebuild(g: &Game, e: &Embedded) -> Result<Imported, ImportError> {
    let seeded = e.header.seed.is_some();
    let (imp, windowed) = to_log::convert_windows(g, e.header.clone(), &PosMap::default())?;
    if let Some((i, why)) = &imp.refused {
        let pos = imp.positions.get(*i).map(ToString::to_string).unwrap_or_default();
        return Err(g.error_at(&pos, format!("the rules refuse this play: {why}")));
    }
    // Runs of answers to one claim window, numbered.
    let mut run = Vec::with_capacity(windowed.len());
    let mut id = 0usize;
    for (i, w) in windowed.iter().enumerate() {
        if *w && !(i > 0 && windowed[i - 1]) {
            id += 1;
        }
        run.push(w.then_some(id));
    }
    let chance = |a: &Action| matches!(a, Action::Deal(_) | Action::Draw(_) | Action::Dora(_) | Action::Ura(_));
    let kept: Vec<(Record<Action>, Place, Option<usize>)> = imp
        .log
        .records
        .iter()
        .zip(&imp.positions)
        .zip(&run)
        .filter(|((r, _), _)| !(seeded && chance(&r.action)))
        .map(|((r, p), w)| (r.clone(), p.clone(), *w))
        .collect();
    // Where each record of the file's import is kept (a dropped one: where the next kept one is).
    let mut kept_at = Vec::with_capacity(imp.log.records.len());
    let mut n = 0;
    for r in &imp.log.records {
        kept_at.push(n);
        n += usize::from(!(seeded && chance(&r.action)));
    }
    if e.order.len() != kept.len() {
        return Err(ImportError::new(
            "paifu.order",
            format!("the embedded log has {} records, the file gives {}", e.order.len(), kept.len()),
        ));
    }
    // Each window's answers in the embedded order (within its run, so a record's run keeps its
    // place and `kept_at` stays right to the run).
    let mut records = Vec::with_capacity(kept.len());
    let mut positions = Vec::with_capacity(kept.len());
    let mut k = 0;
    while k < kept.len() {
        let end = match kept[k].2 {
            Some(w) => k + kept[k..].iter().take_while(|x| x.2 == Some(w)).count(),
            None => k + 1,
        };
        let mut used = vec![false; end - k];
        for j in k..end {
            let want = e.order[j];
            let Some(x) = (k..end).find(|&x| !used[x - k] && kept[x].0.seat == want) else {
                return Err(g.error_at(
                    &kept[j].1.to_string(),
                    format!("the embedded record order has seat {want} answer here, but the file does not"),
                ));
            };
            used[x - k] = true;
            let (mut r, p, _) = kept[x].clone();
            r.seq = records.len() as u32;
            r.claim = None;
            records.push(r);
            positions.push(p);
        }
        k = end;
    }
    // A call that was not made (a pon or ron took the tile) is not in the file: the importer
    // answered `pass` for it.
    for (i, a) in &e.calls {
        let r = records.get_mut(*i).filter(|r| r.action == *a || (r.action == Action::Pass && windowed_at(&kept, *i)));
        match r {
            Some(r) => r.action = a.clone(),
            None => {
                let pos = positions.get(*i).map_or_else(|| "paifu.calls".into(), ToString::to_string);
                return Err(g.error_at(&pos, format!("the embedded log calls {a} here, but the file does not")));
            }
        }
    }
    for (i, c) in &e.claims {
        let r = records.get_mut(*i).ok_or_else(|| {
            ImportError::new("paifu.claims", format!("a claim on record {i}, but the log has {}", positions.len()))
        })?;
        r.claim = Some(c.clone());
    }
    let log = Log { header: e.header.clone(), records };
    if seeded {
        check_seed(g, &log, &positions)?;
    }
    let last = log.records.len().saturating_sub(1);
    let mismatches = imp
        .mismatches
        .into_iter()
        .map(|m| Mismatch { record: kept_at.get(m.record).copied().unwrap_or(last).min(last), ..m })
        .collect();
    Ok(Imported { log, positions, refused: None, mismatches, verdict: None })
}

/// Whether the record at `i` of the rebuilt order answers a claim window (reordering stays
/// inside runs, so the run flags keep their places).
fn windowed_at(kept: &[(Record<Action>, Place, Option<usize>)], i: usize) -> bool {
    kept.get(i).is_some_and(|k| k.2.is_some())
}

fn notation(codes: &[i64]) -> String {
    codes.iter().map(|c| Tile(*c as u8).notation()).collect::<Vec<_>>().join(" ")
}

/// Replays the decisions on the seed: each hand's starting hands and first dora indicator must be
/// the file's, and every decision must be legal.
fn check_seed(g: &Game, log: &Log<Action>, positions: &[Place]) -> Result<(), ImportError> {
    let h = &log.header;
    let rules = Riichi::rules(&h.ruleset, &h.options).map_err(|e| ImportError::new("paifu.header", e.0))?;
    let mut game = Riichi::new(rules, 4, h.seed.as_ref()).map_err(|e| ImportError::new("paifu.header", e.0))?;
    let mut checked = None;
    for (k, rec) in log.records.iter().enumerate() {
        let ri = game.results().len();
        if checked != Some(ri) {
            checked = Some(ri);
            if let Some(r) = g.rounds.get(ri) {
                let drawn = game.drawn_tile();
                for s in 0..4u8 {
                    let mut hand = game.hand(s).to_vec();
                    if let Some((_, t, _)) = drawn.filter(|(d, _, _)| *d == s) {
                        if let Some(p) = hand.iter().position(|x| *x == t) {
                            hand.remove(p);
                        }
                    }
                    let mut seed: Vec<i64> = hand.iter().map(|t| i64::from(Tile::from_paifu(*t).0)).collect();
                    let mut file: Vec<i64> = r.hands[usize::from(s)].iter().map(|t| i64::from(t.0)).collect();
                    seed.sort_unstable();
                    file.sort_unstable();
                    if seed != file {
                        return Err(g.error_at(
                            &format!("log[{ri}][{}]", 4 + 3 * usize::from(s)),
                            format!(
                                "seat {s}'s starting hand: the file shows {}, the embedded seed deals {}",
                                notation(&file),
                                notation(&seed)
                            ),
                        ));
                    }
                }
                let seed_dora = game.dora_indicators().first().map(|t| i64::from(Tile::from_paifu(*t).0));
                let file_dora = r.dora.first().map(|t| i64::from(t.0));
                if seed_dora != file_dora {
                    return Err(g.error_at(
                        &format!("log[{ri}][2][0]"),
                        format!(
                            "the dora indicator: the file shows {}, the embedded seed gives {}",
                            notation(&file_dora.into_iter().collect::<Vec<_>>()),
                            notation(&seed_dora.into_iter().collect::<Vec<_>>())
                        ),
                    ));
                }
            }
        }
        if let Err(v) = game.play_mut(rec.seat, &rec.action) {
            let pos = positions.get(k).map(ToString::to_string).unwrap_or_default();
            return Err(g.error_at(&pos, format!("on the embedded seed this play is refused: {}", v.message)));
        }
    }
    Ok(())
}
