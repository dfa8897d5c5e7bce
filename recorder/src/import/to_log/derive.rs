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
        if let (Phase::Play, Some(r)) = (self.phase, g.rounds.get(self.ri)) {
            if let Some(d) = self.plain(r, game) {
                return Ok(Some(d));
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

    /// Most records in play, the way [`Derive::play`] derives them: a draw the engine asks for
    /// that the source lists as a draw, and a seat's discard of a tile (its drawn tile, a riichi
    /// discard) where it is not in a claim window; `None` for anything else (a claim window, a
    /// call, a kan, a win, the hand's or the game's end, an error), which [`Derive::play`]
    /// derives.
    #[inline]
    fn plain(&mut self, r: &Round, game: &Riichi) -> Option<Derived> {
        let ri = self.ri;
        if let Some((s, _)) = game.draw_pending() {
            let su = usize::from(s);
            let Some(Take::Draw(t)) = r.takes[su].get(self.ti[su]) else { return None };
            let pos = Pos::item(ri, 5 + 3 * su, self.ti[su]);
            self.ti[su] += 1;
            return Some((s, Action::Draw(t.to_paifu()), pos));
        }
        // A seat's turn (the seat with a drawn tile, or after a call, the one seat to act).
        let s = match game.drawn_tile() {
            Some((s, _, _)) => s,
            None if game.claim_window().is_none() => game.to_act().iter().next()?,
            None => return None,
        };
        let su = usize::from(s);
        let drawn = game.drawn_tile().map(|(_, t, _)| t);
        let a = match r.discards[su].get(self.di[su])? {
            Discard::Tile(t) => Action::discard(t.to_paifu()),
            Discard::Tsumogiri => Action::tsumogiri(drawn?),
            Discard::Riichi(Some(t)) => Action::Discard { tile: t.to_paifu(), drawn: false, riichi: true },
            Discard::Riichi(None) => Action::Discard { tile: drawn?, drawn: true, riichi: true },
            _ => return None,
        };
        let pos = Pos::item(ri, 6 + 3 * su, self.di[su]);
        self.di[su] += 1;
        Some((s, a, pos))
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
                // Who calls this tile: a seat whose next take is a call of it from `from` (pon
                // and kan before chi), or nobody, as the rest of the hand's lists allow (`choose`).
                let mut cands: [(Seat, Action, u8); 3] = std::array::from_fn(|_| (0, Action::Pass, 0));
                let mut nc = 0;
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
                        cands[nc] = (s, a, p);
                        nc += 1;
                    }
                }
                // The first of the highest priority, nearest the discarder, is tried first.
                let mut best: Option<usize> = None;
                for i in 0..nc {
                    if best.is_none_or(|b| cands[i].2 > cands[b].2) {
                        best = Some(i);
                    }
                }
                let seated = [cands[0].0, cands[1].0, cands[2].0];
                let chosen = best.and_then(|b| choose(r, self.ti, self.di, from, wtile, &seated[..nc], b));
                let caller = chosen.map(|i| cands[i].clone());
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
    #[inline]
    pub(crate) fn played(&mut self, g: &Game, game: &Riichi, index: usize) -> Result<Ends, ImportError> {
        // Most records end nothing and refuse nothing.
        if self.refuse.is_none() && game.results().len() == self.start {
            return Ok(Ends::default());
        }
        self.played_at_end(g, game, index)
    }

    /// [`Derive::played`] where a hand may have ended or a call is refused.
    fn played_at_end(&mut self, g: &Game, game: &Riichi, index: usize) -> Result<Ends, ImportError> {
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

/// How many steps of the lists one choice of a caller may look through ([`choose`]): a real
/// hand's rest is a few hundred at most; a record built to branch at every call stops here.
const LOOKAHEAD_STEPS: u32 = 20_000;
/// How many claim windows with a caller to choose one look-ahead goes through inside another.
const LOOKAHEAD_DEPTH: u32 = 48;

/// Who calls `from`'s discard `tile`, when the source lists a call of it next in the takes of
/// the seats `cands`: the index of the caller in `cands`, or `None` for nobody.
///
/// tenhou.net/6 lists each seat's takes and discards apart, so a call says which seat's tile of
/// which kind it took but not which of that seat's discards: when `from` discards the same tile
/// again later, a call next in a seat's takes may be of this discard or of a later one (the
/// caller draws nothing between: a call elsewhere skips its turn). The lists decide: a choice
/// stands when the hand's lists can be read to their ends after it, each seat drawing when the
/// turn comes to it and a discard going on to the next seat unless it is called; so it is read
/// ahead on the lists alone, from the state after each choice (`cands[best]` first, the others in
/// seat order, then nobody), and the first that reads to the end is taken. Where none does (a
/// record whose lists do not interleave), `cands[best]` is taken and the engine refuses where
/// the record goes wrong. A tile `from` does not discard again has no other reading: taken as it
/// is, with no look-ahead.
fn choose(
    r: &Round,
    ti: [usize; 4],
    di: [usize; 4],
    from: Seat,
    tile: Tile,
    cands: &[Seat],
    best: usize,
) -> Option<usize> {
    let next = (from + 1) % 4;
    if !discards_again(r, from, ti, di, tile) || (cands.len() == 1 && cands[best] == next) {
        return Some(best);
    }
    let mut budget = LOOKAHEAD_STEPS;
    let order = std::iter::once(Some(best)).chain((0..cands.len()).filter(|&i| i != best).map(Some)).chain([None]);
    for option in order {
        let at = Lists { ti, di, next: Next::Window(from, tile) };
        let caller = option.and_then(|i| cands.get(i).copied());
        if at.after(r, from, caller).is_some_and(|at| at.reads_to_the_end(r, &mut budget, 0)) {
            return option;
        }
    }
    Some(best)
}

/// Whether `from` may discard `tile` again after its discard `di[from]` (a drawn tile's discard
/// counted when a later draw is `tile`): only then can a call of `tile` from `from` be of a later
/// discard.
fn discards_again(r: &Round, from: Seat, ti: [usize; 4], di: [usize; 4], tile: Tile) -> bool {
    let f = usize::from(from);
    let drawn_later = || r.takes[f].iter().skip(ti[f]).any(|t| matches!(t, Take::Draw(d) if d.to_paifu() == tile));
    r.discards[f].iter().skip(di[f]).any(|d| match d {
        Discard::Tile(t) | Discard::Riichi(Some(t)) => t.to_paifu() == tile,
        Discard::Tsumogiri | Discard::Riichi(None) => drawn_later(),
        _ => false,
    })
}

/// What comes next in the look-ahead.
#[derive(Clone, Copy, Debug)]
enum Next {
    /// The seat draws (its next take must be a draw).
    Draw(Seat),
    /// The seat's turn, with the tile it drew (none after a chi or pon).
    Turn(Seat, Option<Tile>),
    /// The seat's discard of the tile may be called.
    Window(Seat, Tile),
}

/// A place in a hand's lists: each seat's next take and discard, and what comes next.
#[derive(Clone, Copy, Debug)]
struct Lists {
    ti: [usize; 4],
    di: [usize; 4],
    next: Next,
}

impl Lists {
    /// Every list read to its end: the hand is over.
    fn ended(&self, r: &Round) -> bool {
        (0..4).all(|s| self.ti[s] == r.takes[s].len() && self.di[s] == r.discards[s].len())
    }

    /// After the window on `from`'s discard: `caller`'s call (its next take), or the next seat's
    /// draw; `None` when the lists cannot go on so (an open kan not followed by 0).
    fn after(mut self, r: &Round, from: Seat, caller: Option<Seat>) -> Option<Lists> {
        let Some(c) = caller else {
            self.next = Next::Draw((from + 1) % 4);
            return Some(self);
        };
        let cu = usize::from(c);
        let take = r.takes[cu].get(self.ti[cu])?;
        self.ti[cu] += 1;
        self.next = match take {
            Take::OpenKan { .. } => {
                if !matches!(r.discards[cu].get(self.di[cu]), Some(Discard::Nothing)) {
                    return None;
                }
                self.di[cu] += 1;
                Next::Draw(c)
            }
            _ => Next::Turn(c, None),
        };
        Some(self)
    }

    /// Whether the lists read on from here to their ends, in the order of play: every draw where
    /// the turn comes, every discard passed on or called by a seat whose next take calls it
    /// (each such choice tried in turn, `depth` of them already open), within `budget` steps.
    fn reads_to_the_end(mut self, r: &Round, budget: &mut u32, depth: u32) -> bool {
        loop {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            if self.ended(r) {
                return true;
            }
            match self.next {
                Next::Draw(s) => {
                    let su = usize::from(s);
                    let Some(Take::Draw(t)) = r.takes[su].get(self.ti[su]) else { return false };
                    self.ti[su] += 1;
                    self.next = Next::Turn(s, Some(t.to_paifu()));
                }
                Next::Turn(s, drawn) => {
                    let su = usize::from(s);
                    let Some(d) = r.discards[su].get(self.di[su]) else { return false };
                    self.di[su] += 1;
                    self.next = match (d, drawn) {
                        (Discard::Tile(t) | Discard::Riichi(Some(t)), _) => Next::Window(s, t.to_paifu()),
                        (Discard::Tsumogiri | Discard::Riichi(None), Some(t)) => Next::Window(s, t),
                        (Discard::AddedKan { .. } | Discard::ClosedKan { .. }, _) => Next::Draw(s),
                        _ => return false,
                    };
                }
                Next::Window(from, tile) => {
                    let mut callers = [None; 3];
                    let mut n = 0;
                    for s in (1..4).map(|d| (from + d) % 4) {
                        if calls(r.takes[usize::from(s)].get(self.ti[usize::from(s)]), s, from, tile) {
                            callers[n] = Some(s);
                            n += 1;
                        }
                    }
                    if n == 0 {
                        self.next = Next::Draw((from + 1) % 4);
                        continue;
                    }
                    if depth >= LOOKAHEAD_DEPTH {
                        return false;
                    }
                    return callers[..n]
                        .iter()
                        .copied()
                        .chain([None])
                        .any(|c| self.after(r, from, c).is_some_and(|at| at.reads_to_the_end(r, budget, depth + 1)));
                }
            }
        }
    }
}

/// Whether `take`, `s`'s next take, calls `from`'s discard `tile`.
fn calls(take: Option<&Take>, s: Seat, from: Seat, tile: Tile) -> bool {
    match take {
        Some(Take::Chi { called, .. }) => called.to_paifu() == tile && (s + 3) % 4 == from,
        Some(Take::Pon { called, from: f, .. } | Take::OpenKan { called, from: f, .. }) => {
            called.to_paifu() == tile && f.seat(s) == from
        }
        _ => false,
    }
}
