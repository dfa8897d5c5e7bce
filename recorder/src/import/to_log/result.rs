//! The end of a round: its claim (the source's score changes in Paifu's convention) and the
//! source's scoring of each win compared with Paifu's.

use super::Mismatch;
use crate::import::record::{Discard, Outcome, Round, Win};
use crate::import::{yaku, ImportError};
use paifu_core::riichi::{Riichi, Score};
use paifu_core::Game as _;

/// The round's claim, for the record `record` that ends it: its score changes in Paifu's
/// convention (`None` when the source leaves them out: computed, not claimed); and where the
/// source's scoring of a win differs from Paifu's, mismatches at that record.
pub(super) fn conclude(
    game: &Riichi,
    ri: usize,
    r: &Round,
    record: usize,
    mismatches: &mut Vec<Mismatch>,
) -> Option<[i64; 4]> {
    let mut found = |pos: String, msg: String| {
        let error = ImportError { round: Some(r.name()), position: pos, message: msg };
        mismatches.push(Mismatch { record, error });
    };
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
    if let Outcome::Wins(ws) = &r.outcome {
        let wins = game.last_wins();
        for (k, w) in ws.iter().enumerate() {
            let pos = || format!("log[{ri}][16][{}]", 2 * k + 2);
            match wins.iter().find(|(s, _)| *s == w.who) {
                Some((_, sc)) => compare_win(sc, w.han, w.fu, w.yaku.as_deref(), |m| found(pos(), m)),
                None => found(pos(), format!("claim_mismatch: the source has seat {} win, Paifu does not", w.who)),
            }
        }
        let mut liable = Seats::default();
        if let Some(res) = game.results().last() {
            for s in res.facts.iter().filter(|f| f.key == "liable").filter_map(|f| f.seat) {
                liable.push(s);
            }
        }
        if let Some((pos, msg)) = compare_liable(ws, liable, ri) {
            found(pos, msg);
        }
    }
    // Score changes the source left out are computed, not claimed: no claim (never a claim of
    // nothing).
    let unclaimed = matches!(&r.outcome, Outcome::Wins(ws) if ws.iter().any(|w| w.computed.contains(&"score changes")));
    (!unclaimed).then_some(d)
}

/// A few seats, sorted when compared (liable seats: one per win at most).
#[derive(Clone, Copy, Default)]
struct Seats {
    seats: [u8; 8],
    len: usize,
}

impl Seats {
    fn push(&mut self, s: u8) {
        if let Some(x) = self.seats.get_mut(self.len) {
            *x = s;
            self.len += 1;
        }
    }

    fn sorted(mut self) -> Seats {
        self.seats[..self.len].sort_unstable();
        self
    }

    fn as_slice(&self) -> &[u8] {
        &self.seats[..self.len]
    }
}

/// Compares the seats the source makes liable (pao: Tenhou's third win entry, mjlog's `paoWho`)
/// with the seats Paifu's engine makes liable in the hand. Sources that do not say (mjai) are not
/// compared. A difference: its position and message.
fn compare_liable(ws: &[Win], computed: Seats, ri: usize) -> Option<(String, String)> {
    if ws.iter().any(|w| w.pao.is_none()) {
        return None;
    }
    let mut claimed = Seats::default();
    for p in ws.iter().filter_map(|w| w.pao.filter(|p| *p != w.who)) {
        claimed.push(p);
    }
    let (claimed, computed) = (claimed.sorted(), computed.sorted());
    if claimed.as_slice() == computed.as_slice() {
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
    Some((
        format!("log[{ri}][16][{}][2]", 2 * k + 2),
        format!(
            "claim_mismatch: the source makes {} liable (pao), Paifu's rules make {} liable",
            show(claimed.as_slice()),
            show(computed.as_slice())
        ),
    ))
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

/// The yaku of a win with their han, in Paifu's names, sorted: what the source lists and what
/// Paifu counts are compared as these.
#[derive(Clone, Copy)]
struct YakuList {
    items: [(&'static str, u32); YakuList::MAX],
    len: usize,
}

impl YakuList {
    /// More yaku than any hand has (a hand has at most a dozen or so).
    const MAX: usize = 40;

    fn new() -> YakuList {
        YakuList { items: [("", 0); YakuList::MAX], len: 0 }
    }

    fn push(&mut self, name: &'static str, han: u32) {
        if let Some(x) = self.items.get_mut(self.len) {
            *x = (name, han);
        }
        self.len += 1;
    }

    fn sorted(mut self) -> YakuList {
        let n = self.len.min(YakuList::MAX);
        self.items[..n].sort_unstable();
        self
    }

    fn as_slice(&self) -> &[(&'static str, u32)] {
        &self.items[..self.len.min(YakuList::MAX)]
    }

    fn show(&self) -> String {
        self.as_slice().iter().map(|(n, h)| format!("{n} {h}")).collect::<Vec<_>>().join(", ")
    }
}

impl PartialEq for YakuList {
    fn eq(&self, other: &YakuList) -> bool {
        self.len == other.len && self.as_slice() == other.as_slice()
    }
}

/// Compares the source's han, fu and yaku of a win with Paifu's score of it; `found` is told
/// each difference (`claim_mismatch: ...`).
fn compare_win(
    sc: &Score,
    han: Option<u32>,
    fu: Option<u32>,
    yaku_src: Option<&[(String, u32)]>,
    mut found: impl FnMut(String),
) {
    let mut unknown = false;
    let mut theirs = YakuList::new();
    for (name, h) in yaku_src.unwrap_or_default() {
        match yaku::paifu_name(name) {
            Some(p) if *h > 0 => theirs.push(p, *h),
            Some(_) => {}
            None => {
                unknown = true;
                found(format!("claim_mismatch: the source names a yaku Paifu does not know: {name:?}"));
            }
        }
    }
    let mut ours = YakuList::new();
    for (y, h) in sc.yaku.iter().filter(|(_, h)| *h > 0) {
        ours.push(y.name(), *h);
    }
    let (theirs, ours) = (theirs.sorted(), ours.sorted());
    if yaku_src.is_some() && theirs != ours && !unknown {
        found(format!("claim_mismatch: yaku claimed [{}], computed [{}]", theirs.show(), ours.show()));
    }
    // The han: as given, or the sum of the yaku; not compared when the source gives neither.
    let their_han = han.or_else(|| yaku_src.map(|y| y.iter().map(|(_, h)| h).sum()));
    if let Some(h) = their_han.filter(|h| *h != sc.han) {
        found(format!("claim_mismatch: han claimed {h}, computed {}", sc.han));
    }
    if let Some(f) = fu {
        if f != sc.fu && sc.yakuman == 0 {
            found(format!("claim_mismatch: fu claimed {f}, computed {}", sc.fu));
        }
    }
}
