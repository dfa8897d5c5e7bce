//! The records of a game in the record model, derived one at a time as the engine plays them
//! (the module doc of to_log): asked for the next record in the engine's state, a [`Derive`]
//! answers it from the source (each seat's next take or discard, every claim window's answers);
//! told that the engine played it, it says whether it ended a hand or the game and what the
//! source claims there. `paifu import` plays the records it derives into a log; `paifu validate`
//! compares them with an imported log's records while the engine plays the log (source.rs), in
//! one pass. Nothing is allocated per record: places are numbers ([`Pos`]) and messages are
//! written only for an error.

use super::{result, Mismatch};
use crate::import::positions::Pos;
use crate::import::record::{round_name, Discard, Game, Outcome, Round, Take};
use crate::import::ImportError;
use paifu_core::mahjong::Tile;
use paifu_core::riichi::{Action, Riichi};
use paifu_core::{Game as _, Seat};

/// A record the source gives: the seat, its action, and where in the source it comes from.
pub(crate) type Derived = (Seat, Action, Pos);

/// Where the derivation stands in the current hand.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// Before the hand's first record: its start is checked first.
    Start,
    /// The deal: the `k`th seat from the dealer next.
    Deal(u8),
    /// The dora indicators, then the ura indicators the source shows, from the `i`th.
    Dora(usize),
    Ura(usize),
    /// Play: each seat's next take or discard, as the engine asks for them.
    Play,
    /// The answers to a claim window, all decided when it opened, given in seat order from the
    /// discarder: `answers[k..n]` of the derivation's are still to give.
    Window {
        k: u8,
        n: u8,
    },
}

/// What a record that was played ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ends {
    /// It ends a hand whose score changes the source states: the hand's claim (Paifu's
    /// convention: riichi deposits included).
    pub(crate) round: Option<[i64; 4]>,
    /// It ends the game: the source's final scores, if it states them, are claimed on it.
    pub(crate) game: bool,
}

/// The derivation of a game's records (the module's doc).
#[derive(Clone, Debug)]
pub(crate) struct Derive {
    /// The hand (an index into the game's rounds).
    ri: usize,
    phase: Phase,
    /// How many round results the engine had when the hand started.
    start: usize,
    dealer: Seat,
    /// Each seat's next take and next discard.
    ti: [usize; 4],
    di: [usize; 4],
    /// The answers to the open claim window ([`Phase::Window`]).
    answers: [Derived; 3],
    /// A call the source has where the engine asks the seat to draw, recorded as it stands so
    /// that the engine refuses it there; if the engine takes it, the source cannot be read.
    refuse: Option<(Seat, Pos)>,
    /// Where the source's own scoring differs from Paifu's, as found so far (in record order).
    pub(crate) mismatches: Vec<Mismatch>,
    begun: bool,
}

impl Derive {
    pub(crate) fn new() -> Derive {
        Derive {
            ri: 0,
            phase: Phase::Start,
            start: 0,
            dealer: 0,
            ti: [0; 4],
            di: [0; 4],
            answers: std::array::from_fn(|_| (0, Action::Pass, Pos::round(0))),
            refuse: None,
            mismatches: Vec::new(),
            begun: false,
        }
    }

    /// The next record of the source, as the engine in `game` asks for it, where record `index`
    /// of the log is due; `None` once the source has no more.
    pub(crate) fn next(&mut self, g: &Game, game: &Riichi, index: usize) -> Result<Option<Derived>, ImportError> {
        if !self.begun {
            self.begun = true;
            if let Some(error) = super::excerpt_points(g, game) {
                self.mismatches.push(Mismatch { record: 0, error });
            }
        }
        loop {
            let Some(r) = g.rounds.get(self.ri) else { return Ok(None) };
            let ri = self.ri;
            match self.phase {
                Phase::Start => {
                    self.start_hand(r, game, index)?;
                    self.phase = Phase::Deal(0);
                }
                Phase::Deal(k) if k < 4 => {
                    let s = (self.dealer + k) % 4;
                    let su = usize::from(s);
                    let pos = Pos::entry(ri, 4 + 3 * su);
                    let hand = &r.hands[su];
                    let mut tiles = [Tile::kind_tile(0); 13];
                    if hand.len() != 13 {
                        return Err(err(r, pos, "a hand is 13 tiles".into()));
                    }
                    for (t, h) in tiles.iter_mut().zip(hand) {
                        *t = h.to_paifu();
                    }
                    self.phase = Phase::Deal(k + 1);
                    return Ok(Some((s, Action::deal(tiles), pos)));
                }
                Phase::Deal(_) => self.phase = Phase::Dora(0),
                Phase::Dora(i) => match r.dora.get(i) {
                    Some(d) => {
                        self.phase = Phase::Dora(i + 1);
                        return Ok(Some((self.dealer, Action::Dora(d.to_paifu()), Pos::item(ri, 2, i))));
                    }
                    None => self.phase = Phase::Ura(0),
                },
                Phase::Ura(i) => match r.ura.get(i) {
                    Some(d) => {
                        self.phase = Phase::Ura(i + 1);
                        return Ok(Some((self.dealer, Action::Ura(d.to_paifu()), Pos::item(ri, 3, i))));
                    }
                    None => self.phase = Phase::Play,
                },
                Phase::Window { k, n } if k < n => {
                    self.phase = Phase::Window { k: k + 1, n };
                    return Ok(Some(self.answers[usize::from(k)].clone()));
                }
                Phase::Window { .. } => self.phase = Phase::Play,
                Phase::Play => return self.play(r, game).map(Some),
            }
        }
    }

    /// Checks where a hand starts (the hand, honba and riichi sticks the rules give; the
    /// starting scores, a mismatch at record `index` when they differ) and begins it.
    fn start_hand(&mut self, r: &Round, game: &Riichi, index: usize) -> Result<(), ImportError> {
        let ri = self.ri;
        if game.is_over() {
            return Err(err(r, Pos::round(ri), "the game is over by the rules, but the source goes on".into()));
        }
        if game.kyoku_index() != u32::from(r.kyoku) || game.honba() != r.honba || game.riichi_sticks() != r.sticks {
            let ki = game.kyoku_index().min(15) as u8;
            return Err(err(
                r,
                Pos::entry(ri, 0),
                format!(
                    "by the rules this hand is {} with {} riichi sticks on the table; the source says {} with {}",
                    round_name(ki, game.honba()),
                    game.riichi_sticks(),
                    r.name(),
                    r.sticks
                ),
            ));
        }
        let scores = game.scores();
        if scores[..] != r.scores[..] {
            self.mismatches.push(Mismatch {
                record: index,
                error: err(
                    r,
                    Pos::entry(ri, 1),
                    format!("claim_mismatch: starting scores claimed {:?}, computed {scores:?}", r.scores),
                ),
            });
        }
        self.start = game.results().len();
        self.dealer = game.dealer();
        self.ti = [0; 4];
        self.di = [0; 4];
        Ok(())
    }

    /// The next record in play: a draw the engine asks for, a claim window's answers, or a
    /// seat's turn.
    fn play(&mut self, r: &Round, game: &Riichi) -> Result<Derived, ImportError> {
        let ri = self.ri;
        let take_pos = |s: usize, i: usize| Pos::item(ri, 5 + 3 * s, i);
        let disc_pos = |s: usize, i: usize| Pos::item(ri, 6 + 3 * s, i);
        let result_pos = Pos::entry(ri, 16);
        if game.is_over() {
            return Err(err(r, Pos::round(ri), "the game is over by the rules, but the source goes on".into()));
        }
        if let Some((s, _)) = game.draw_pending() {
            let su = usize::from(s);
            let pos = take_pos(su, self.ti[su]);
            return match r.takes[su].get(self.ti[su]) {
                Some(Take::Draw(t)) => {
                    self.ti[su] += 1;
                    Ok((s, Action::Draw(t.to_paifu()), pos))
                }
                Some(call) => {
                    // A call out of its place: recorded as it stands, so the validator refuses it here.
                    let a = match call {
                        Take::Chi { own, .. } => Action::chi(own[0].to_paifu(), own[1].to_paifu()),
                        Take::Pon { own, .. } => Action::pon(own[0].to_paifu(), own[1].to_paifu()),
                        Take::OpenKan { called, .. } | Take::Draw(called) => Action::Minkan(called.to_paifu().deaka()),
                    };
                    self.refuse = Some((s, pos));
                    Ok((s, a, pos))
                }
                None => Err(err(
                    r,
                    Pos::entry(ri, 5 + 3 * su),
                    format!("seat {s} draws next in the order of play, but its takes in the source end here"),
                )),
            };
        }
        if let Some((from, wtile)) = game.claim_window() {
            let fu = usize::from(from);
            let to_act = game.to_act();
            let mut seats = [0u8; 3];
            let mut n = 0;
            for s in (1..4).map(|d| (from + d) % 4).filter(|&s| to_act.contains(s)) {
                seats[n] = s;
                n += 1;
            }
            let seats = &seats[..n];
            let last_disc = disc_pos(fu, self.di[fu].saturating_sub(1));
            let answers = &mut self.answers;
            let consumed = (0..4).all(|s| self.ti[s] == r.takes[s].len() && self.di[s] == r.discards[s].len());
            if consumed {
                for (a, &s) in answers.iter_mut().zip(seats) {
                    let ron = match &r.outcome {
                        Outcome::Wins(ws) => ws.iter().any(|w| w.who == s && w.from == from && w.who != w.from),
                        Outcome::Draw { name, .. } => name == "三家和了",
                    };
                    *a = if ron { (s, Action::Ron, result_pos) } else { (s, Action::Pass, last_disc) };
                }
            } else {
                // Who calls this tile: the seat whose next take is a call of it from `from`; pon
                // and kan before chi.
                let mut caller: Option<(Seat, Action, u8)> = None;
                for &s in seats {
                    let su = usize::from(s);
                    let a = match r.takes[su].get(self.ti[su]) {
                        Some(Take::Chi { called, own }) if called.to_paifu() == wtile && (s + 3) % 4 == from => {
                            Some((Action::chi(own[0].to_paifu(), own[1].to_paifu()), 1))
                        }
                        Some(Take::Pon { called, own, from: f }) if called.to_paifu() == wtile && f.seat(s) == from => {
                            Some((Action::pon(own[0].to_paifu(), own[1].to_paifu()), 2))
                        }
                        Some(Take::OpenKan { called, from: f, .. })
                            if called.to_paifu() == wtile && f.seat(s) == from =>
                        {
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
                for (a, &s) in answers.iter_mut().zip(seats) {
                    *a = match &caller {
                        Some((c, action, _)) if *c == s => {
                            (s, action.clone(), take_pos(usize::from(s), self.ti[usize::from(s)]))
                        }
                        _ => (s, Action::Pass, last_disc),
                    };
                }
                if let Some((c, a, _)) = caller {
                    let cu = usize::from(c);
                    self.ti[cu] += 1;
                    if matches!(a, Action::Minkan(_)) {
                        match r.discards[cu].get(self.di[cu]) {
                            Some(Discard::Nothing) => self.di[cu] += 1,
                            _ => {
                                return Err(err(
                                    r,
                                    disc_pos(cu, self.di[cu]),
                                    format!("seat {c}'s open kan must be followed by 0 in its discards"),
                                ))
                            }
                        }
                    }
                }
            }
            if n == 0 {
                return Err(err(r, last_disc, "a claim window that nobody answers".into()));
            }
            self.phase = Phase::Window { k: 1, n: n as u8 };
            return Ok(self.answers[0].clone());
        }
        // A seat's turn.
        let Some(s) = game.to_act().iter().next() else {
            return Err(err(r, Pos::round(ri), "nobody acts, but the hand has not ended".into()));
        };
        let su = usize::from(s);
        let drawn = game.drawn_tile().map(|(_, t, _)| t);
        let pos = disc_pos(su, self.di[su]);
        let Some(d) = r.discards[su].get(self.di[su]) else {
            let tsumo = matches!(&r.outcome, Outcome::Wins(ws) if ws.iter().any(|w| w.who == s && w.from == s));
            let nine = matches!(&r.outcome, Outcome::Draw { name, .. } if name == "九種九牌");
            return if tsumo && self.ti[su] == r.takes[su].len() {
                Ok((s, Action::Tsumo, result_pos))
            } else if nine {
                Ok((s, Action::Kyuushu, result_pos))
            } else {
                Err(err(
                    r,
                    Pos::entry(ri, 6 + 3 * su),
                    format!("seat {s} acts next in the order of play, but its discards in the source end here"),
                ))
            };
        };
        let need_drawn = || {
            drawn.ok_or_else(|| err(r, pos, format!("seat {s} discards the drawn tile (60), but it has drawn nothing")))
        };
        let a = match d {
            Discard::Tile(t) => Action::discard(t.to_paifu()),
            Discard::Tsumogiri => Action::tsumogiri(need_drawn()?),
            Discard::Riichi(Some(t)) => Action::Discard { tile: t.to_paifu(), drawn: false, riichi: true },
            Discard::Riichi(None) => Action::Discard { tile: need_drawn()?, drawn: true, riichi: true },
            Discard::AddedKan { added, .. } => Action::Kakan(added.to_paifu().deaka()),
            Discard::ClosedKan { tiles } => Action::Ankan(tiles[0].to_paifu().deaka()),
            Discard::Nothing => return Err(err(r, pos, format!("seat {s} must discard here, but the source has 0"))),
        };
        self.di[su] += 1;
        Ok((s, a, pos))
    }

    /// Record `index`, the last one [`Derive::next`] gave, was played into `game`: what it ends
    /// (the hand's claim, the game), and the source's own scoring compared with Paifu's where it
    /// ends a hand (into `mismatches`).
    pub(crate) fn played(&mut self, g: &Game, game: &Riichi, index: usize) -> Result<Ends, ImportError> {
        let Some(r) = g.rounds.get(self.ri) else { return Ok(Ends::default()) };
        if let Some((s, pos)) = self.refuse.take() {
            return Err(err(r, pos, format!("seat {s} draws here, but the source has a call")));
        }
        if game.results().len() == self.start {
            return Ok(Ends::default());
        }
        // The hand is over.
        let ri = self.ri;
        for s in 0..4 {
            let over = "the hand is over by the rules here, but the source goes on";
            if self.ti[s] < r.takes[s].len() {
                return Err(err(r, Pos::item(ri, 5 + 3 * s, self.ti[s]), over.into()));
            }
            if self.di[s] < r.discards[s].len() {
                return Err(err(r, Pos::item(ri, 6 + 3 * s, self.di[s]), over.into()));
            }
        }
        let round = result::conclude(game, ri, r, index, &mut self.mismatches);
        let mut ends = Ends { round, game: false };
        if game.is_over() {
            if let Some(next) = g.rounds.get(ri + 1) {
                return Err(ImportError::new(
                    Pos::round(ri + 1).to_string(),
                    "the game is over by the rules, but the source goes on",
                )
                .in_round(&next.name()));
            }
            ends.game = true;
            if let Some(claimed) = &g.final_results {
                self.mismatches
                    .extend(result::final_results(game, claimed).map(|error| Mismatch { record: index, error }));
            }
        }
        self.ri += 1;
        self.phase = Phase::Start;
        Ok(ends)
    }
}

/// An error at a place of round `r`.
fn err(r: &Round, pos: Pos, message: String) -> ImportError {
    ImportError { round: Some(r.name()), position: pos.to_string(), message }
}
