//! Turning a parsed source into a Paifu riichi log (an imported game: no seed, the deals, draws
//! and indicators are records), with the source's results as claims.
//!
//! The conversion drives the riichi engine itself: it asks the engine who owes a decision and
//! answers from the source (each seat's next take or discard), so the records come out in the
//! global order of play, with an explicit `pass` for every seat that could have claimed a discard
//! and did not. When the engine refuses a record, the log ends with that record: the validator
//! then reports it as the first fault, at the right place.

use super::tenhou6::{self, Discard, Outcome, Take};
use super::{yaku, ImportError};
use paifu_core::game::Game;
use paifu_core::log::{Claim, Header, Log, Options, Record, Source, FORMAT_VERSION};
use paifu_core::riichi::{Action, Riichi, Score, Tile};
use paifu_core::{Digest, Seat};
use std::collections::BTreeMap;

/// An imported game.
#[derive(Clone, Debug)]
pub struct Imported {
    pub log: Log<Action>,
    /// For each record, where it comes from in the source (a JSON path or a line).
    pub positions: Vec<String>,
    /// The record the engine refused while importing (the log ends with it), and why.
    pub refused: Option<(usize, String)>,
    /// Where the source's own scoring of a win (han, fu, yaku) or its starting scores differ from
    /// Paifu's: reported like a `claim_mismatch`, with the round and the position in the source.
    pub mismatches: Vec<ImportError>,
}

/// blake3 of a source file's bytes.
pub fn source_digest(bytes: &[u8]) -> Digest {
    Digest(*blake3::hash(bytes).as_bytes())
}

/// A header for an imported riichi game.
pub fn header(format: &str, id: &str, bytes: &[u8], seats: Vec<String>, ruleset: &str, options: Options) -> Header {
    Header {
        paifu: FORMAT_VERSION,
        game: "riichi".into(),
        ruleset: ruleset.into(),
        options,
        engine: paifu_core::ENGINE.into(),
        seats,
        seed: None,
        commitment: None,
        source: Some(Source { format: format.into(), id: id.into(), digest: source_digest(bytes) }),
        meta: BTreeMap::new(),
    }
}

/// Writes records while playing them through the engine.
pub(crate) struct Builder {
    pub game: Riichi,
    pub records: Vec<Record<Action>>,
    pub positions: Vec<String>,
    pub refused: Option<(usize, String)>,
    /// For each record, whether it answers a claim window (the answers to one window are a run).
    pub windowed: Vec<bool>,
}

impl Builder {
    pub fn new(header: &Header) -> Result<Builder, ImportError> {
        let rules = Riichi::rules(&header.ruleset, &header.options).map_err(|e| ImportError::new("rules", e.0))?;
        let game = Riichi::new(rules, 4, None).map_err(|e| ImportError::new("rules", e.0))?;
        Ok(Builder { game, records: Vec::new(), positions: Vec::new(), refused: None, windowed: Vec::new() })
    }

    /// Appends a record and plays it; false (and nothing more is recorded) once one is refused.
    pub fn push(&mut self, seat: Seat, action: Action, pos: String) -> bool {
        if self.refused.is_some() {
            return false;
        }
        let seq = self.records.len();
        self.records.push(Record { seq: seq as u32, seat, action, claim: None });
        self.positions.push(pos);
        self.windowed.push(self.game.claim_window().is_some());
        match self.game.play_mut(seat, &action) {
            Ok(()) => true,
            Err(v) => {
                self.refused = Some((seq, v.message));
                false
            }
        }
    }

    pub fn stopped(&self) -> bool {
        self.refused.is_some()
    }

    /// Puts a claim on the last record.
    pub fn claim(&mut self, round: Option<Vec<i64>>, final_scores: Option<Vec<i64>>) {
        if let Some(r) = self.records.last_mut() {
            let c = r.claim.get_or_insert_with(Claim::default);
            if round.is_some() {
                c.round = round;
            }
            if final_scores.is_some() {
                c.final_scores = final_scores;
            }
        }
    }

    pub fn finish(self, header: Header, mismatches: Vec<ImportError>) -> Imported {
        Imported {
            log: Log { header, records: self.records },
            positions: self.positions,
            refused: self.refused,
            mismatches,
        }
    }
}

/// Paifu's tile for a Tenhou code.
pub fn tile(t: tenhou6::Tile) -> Tile {
    t.notation().parse().unwrap_or(Tile::kind_tile(0))
}

/// The ruleset and options for a Tenhou rule name such as `鳳南喰赤` (the red-five flag apart).
pub fn tenhou_rules(disp: &str, red_fives: bool) -> (&'static str, Options) {
    let mut o = Options::new();
    if !red_fives {
        o.insert("red_fives".into(), paifu_core::log::OptValue::Int(0));
    }
    if !disp.is_empty() && !disp.contains('喰') {
        o.insert("kuitan".into(), paifu_core::log::OptValue::Bool(false));
    }
    let ruleset = if disp.contains('東') { "tonpuu" } else { "standard" };
    (ruleset, o)
}

/// Compares the source's han, fu and yaku of a win with Paifu's score of it.
pub fn compare_win(
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

/// Converts a parsed tenhou.net/6 record. `bytes` are the source file's bytes (for the digest).
/// A file that embeds a Paifu log (`paifu export` writes one) gives that log (embedded.rs).
pub fn from_tenhou6(g: &tenhou6::Game, bytes: &[u8]) -> Result<Imported, ImportError> {
    if let Some(v) = &g.paifu {
        return super::embedded::import_tenhou6(g, v, bytes);
    }
    from_game(g, game_header("tenhou6", g, bytes))
}

/// The header of an imported game in tenhou.net/6 form: the rules from the rule's name, the
/// source block for `format`.
pub fn game_header(format: &str, g: &tenhou6::Game, bytes: &[u8]) -> Header {
    let (ruleset, options) = tenhou_rules(&g.rule, g.red_fives);
    let mut h = header(format, &g.id, bytes, g.names.clone(), ruleset, options);
    if !g.rule.is_empty() {
        h.meta.insert("rule".into(), g.rule.clone());
    }
    h
}

/// Converts a game in tenhou.net/6 form (read from any source) under the given header. The
/// positions are tenhou.net/6 JSON paths; other sources map them back to their own.
pub fn from_game(g: &tenhou6::Game, h: Header) -> Result<Imported, ImportError> {
    from_game_windows(g, h).map(|(imp, _)| imp)
}

/// [`from_game`], also telling for each record whether it answers a claim window.
pub(crate) fn from_game_windows(g: &tenhou6::Game, h: Header) -> Result<(Imported, Vec<bool>), ImportError> {
    let mut b = Builder::new(&h)?;
    let mut mismatches = Vec::new();
    for (ri, r) in g.rounds.iter().enumerate() {
        if b.stopped() {
            break;
        }
        round_tenhou6(&mut b, ri, r, &mut mismatches)?;
        if b.game.is_over() && !b.stopped() {
            if ri + 1 < g.rounds.len() {
                return Err(ImportError::new(
                    format!("log[{}]", ri + 1),
                    "the game is over by the rules, but the source goes on",
                )
                .in_round(&g.rounds[ri + 1].name()));
            }
            if let Some(f) = &g.final_scores {
                b.claim(None, Some(f.clone()));
            }
        }
    }
    let windowed = std::mem::take(&mut b.windowed);
    Ok((b.finish(h, mismatches), windowed))
}

fn round_tenhou6(
    b: &mut Builder,
    ri: usize,
    r: &tenhou6::Round,
    mismatches: &mut Vec<ImportError>,
) -> Result<(), ImportError> {
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
                tenhou6::round_name(ki, g.honba()),
                g.riichi_sticks(),
                r.sticks
            ),
        ));
    }
    if g.scores() != r.scores.to_vec() {
        mismatches.push(err(
            format!("log[{ri}][1]"),
            format!("claim_mismatch: starting scores claimed {:?}, computed {:?}", r.scores, g.scores()),
        ));
    }
    let start = b.game.results().len();
    let dealer = b.game.dealer();
    for k in 0..4u8 {
        let s = (dealer + k) % 4;
        let su = usize::from(s);
        let tiles: Vec<Tile> = r.hands[su].iter().map(|t| tile(*t)).collect();
        let arr: [Tile; 13] =
            tiles.try_into().map_err(|_| err(format!("log[{ri}][{}]", 4 + 3 * su), "a hand is 13 tiles".into()))?;
        b.push(s, Action::deal(arr), format!("log[{ri}][{}]", 4 + 3 * su));
    }
    for (i, d) in r.dora.iter().enumerate() {
        b.push(dealer, Action::Dora(tile(*d)), format!("log[{ri}][2][{i}]"));
    }
    for (i, d) in r.ura.iter().enumerate() {
        b.push(dealer, Action::Ura(tile(*d)), format!("log[{ri}][3][{i}]"));
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
                    b.push(s, Action::Draw(tile(*t)), take_pos(su, ti[su]));
                    ti[su] += 1;
                }
                Some(call) => {
                    // A call out of its place: recorded as it stands, so the validator refuses it here.
                    let a = match call {
                        Take::Chi { own, .. } => Action::chi(tile(own[0]), tile(own[1])),
                        Take::Pon { own, .. } => Action::pon(tile(own[0]), tile(own[1])),
                        Take::OpenKan { called, .. } | Take::Draw(called) => Action::Minkan(tile(*called).deaka()),
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
                    Some(Take::Chi { called, own }) if tile(*called) == wtile && (s + 3) % 4 == from => {
                        Some((Action::chi(tile(own[0]), tile(own[1])), 1))
                    }
                    Some(Take::Pon { called, own, from: f }) if tile(*called) == wtile && f.seat(s) == from => {
                        Some((Action::pon(tile(own[0]), tile(own[1])), 2))
                    }
                    Some(Take::OpenKan { called, from: f, .. }) if tile(*called) == wtile && f.seat(s) == from => {
                        Some((Action::Minkan(wtile.deaka()), 2))
                    }
                    _ => None,
                };
                if let Some((a, p)) = a {
                    if caller.is_none_or(|c| p > c.2) {
                        caller = Some((s, a, p));
                    }
                }
            }
            for &s in &seats {
                match caller {
                    Some((c, a, _)) if c == s => {
                        let su = usize::from(s);
                        b.push(s, a, take_pos(su, ti[su]));
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
            Discard::Tile(t) => Action::discard(tile(*t)),
            Discard::Tsumogiri => Action::tsumogiri(need_drawn()?),
            Discard::Riichi(Some(t)) => Action::Discard { tile: tile(*t), drawn: false, riichi: true },
            Discard::Riichi(None) => Action::Discard { tile: need_drawn()?, drawn: true, riichi: true },
            Discard::AddedKan { added, .. } => Action::Kakan(tile(*added).deaka()),
            Discard::ClosedKan { tiles } => Action::Ankan(tile(tiles[0]).deaka()),
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
    Ok(())
}
