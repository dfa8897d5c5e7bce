//! Playing one game between bot programs and people: every answer checked as it arrives, the
//! policy applied when an answer is missing or unusable, every record handed to a sink (the
//! journal, the archive's live rows) before play goes on. A seat is a bot program (spoken to in
//! a protocol) or a person (shown the seat and asked through a [`Desk`]), each on its own clock.
//!
//! The host asks the seats that owe a decision one at a time, in seat order, as the simulator
//! does: a claim window's seats answer in turn, and the engine resolves priority once all have.

use super::person::{hide_others_window, now_ms, Desk, Event, Stage, EVENTS_SHOWN};
use super::process::{BotFault, BotProcess};
use super::protocol::{Answer, Protocol, Table};
use crate::simulate::claim_after;
use paifu_core::games::Registered;
use paifu_core::log::{Action, Header, Log, Record};
use paifu_core::{Game, Seat};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the host does when a seat's answer is missing or unusable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The seat's safe action is played for it (the drawn tile discarded, a claim passed), the
    /// incident recorded before it; the bot is asked again at its next decision (unless it
    /// ended).
    SafeAction,
    /// The seat forfeits: a `forfeit` incident is recorded, the bot is stopped, and the seat's
    /// safe action is played for every decision it still owes.
    Forfeit,
}

/// Time limits for a seat's bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// For one decision.
    pub decision: Duration,
    /// For all of one game's decisions together.
    pub game: Duration,
}

/// Why a seat's answer could not be used, as its incident names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Miss {
    /// No answer within the time for one decision.
    Timeout(u128),
    /// The game's time budget ran out.
    Budget(u128),
    /// An answer that is no legal action now (or cannot be read as one).
    Illegal(String),
    /// Output that is not a line of text.
    Garbage(String),
    /// The bot ended.
    Exited(String),
}

impl Miss {
    /// The incident's kind, as the log writes it.
    pub fn kind(&self) -> &'static str {
        match self {
            Miss::Timeout(_) => "timeout",
            Miss::Budget(_) => "budget",
            Miss::Illegal(_) => "illegal",
            Miss::Garbage(_) => "garbage",
            Miss::Exited(_) => "exited",
        }
    }

    /// What happened, in words, for the incident's detail.
    pub fn detail(&self) -> String {
        match self {
            Miss::Timeout(ms) => format!("no answer within {ms} ms"),
            Miss::Budget(ms) => format!("the game's time budget of {ms} ms is spent"),
            Miss::Illegal(why) | Miss::Garbage(why) | Miss::Exited(why) => why.clone(),
        }
    }
}

/// A game could not be hosted to its end.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("the game could not be set up: {0}")]
    Setup(String),
    #[error("seat {0} owes a decision but has no legal action")]
    NoLegalAction(Seat),
    #[error("seat {seat} has no safe action at this point; the host cannot play for it")]
    NoSafeAction { seat: Seat },
    #[error("the host could not record {action}: {why}")]
    Unrecordable { action: String, why: String },
    #[error("record {index} of the journal does not replay: {why}")]
    Replay { index: usize, why: String },
    #[error("the game did not end within {0} records")]
    TooLong(usize),
    #[error("{0}")]
    Sink(String),
}

/// Where each record goes as soon as it is made (before anything else happens).
pub trait Sink<A> {
    fn record(&mut self, record: &Record<A>) -> Result<(), HostError>;
}

impl<A, F: FnMut(&Record<A>) -> Result<(), HostError>> Sink<A> for F {
    fn record(&mut self, record: &Record<A>) -> Result<(), HostError> {
        self(record)
    }
}

/// Who sits in a seat: a bot program and the protocol spoken to it, or a person whose decisions
/// arrive through a [`Desk`] (the web server's side of the seat).
enum Occupant<G: Game> {
    Bot {
        bot: BotProcess,
        protocol: Box<dyn Protocol<G>>,
        /// Lines sent that the bot has not answered yet. Every line gets one answer, so the
        /// answer to the last line sent is the `owed`-th line still to come: the ones before it
        /// are late answers to earlier lines, read and dropped, never taken for the answer to a
        /// later one.
        owed: usize,
    },
    Person {
        desk: Arc<Desk>,
        /// Events shown to the person so far (the next one's `seq`).
        seen: u32,
    },
}

/// One seat's player, with its clock.
pub struct Player<G: Game> {
    occupant: Occupant<G>,
    /// Its time for one decision and for the game.
    limits: Limits,
    /// Time the player has used on this game's decisions.
    spent: Duration,
    /// Why the bot is no longer asked (it ended, or printed garbage), if it is not.
    gone: Option<String>,
    forfeited: bool,
}

impl<G: Game> Player<G> {
    /// A bot program spoken to in `protocol`.
    pub fn new(bot: BotProcess, protocol: Box<dyn Protocol<G>>, limits: Limits) -> Player<G> {
        Player::with(Occupant::Bot { bot, protocol, owed: 0 }, limits)
    }

    /// A person, whose seat the host shows and asks through `desk`.
    pub fn person(desk: Arc<Desk>, limits: Limits) -> Player<G> {
        Player::with(Occupant::Person { desk, seen: 0 }, limits)
    }

    fn with(occupant: Occupant<G>, limits: Limits) -> Player<G> {
        Player { occupant, limits, spent: Duration::ZERO, gone: None, forfeited: false }
    }

    /// Sends one line to a bot and waits up to `deadline` for its answer, dropping late answers
    /// to earlier lines on the way.
    fn exchange(bot: &mut BotProcess, owed: &mut usize, line: &str, deadline: Duration) -> Result<String, BotFault> {
        let start = Instant::now();
        bot.send(line, deadline)?;
        *owed += 1;
        loop {
            let text = bot.answer(deadline.saturating_sub(start.elapsed()))?;
            *owed -= 1;
            if *owed == 0 {
                return Ok(text);
            }
        }
    }

    /// Sends a bot lines whose answers are read and ignored (a start, a notice, an end): a bot
    /// that does not answer within its time for a decision is not waited for longer, and its
    /// late answer is dropped before the next question.
    fn tell(&mut self, lines: Vec<String>) {
        let wait = self.limits.decision;
        let Occupant::Bot { bot, owed, .. } = &mut self.occupant else { return };
        for line in lines {
            if self.gone.is_some() {
                return;
            }
            match Player::<G>::exchange(bot, owed, &line, wait) {
                Ok(_) | Err(BotFault::Timeout(_)) => {}
                Err(e) => self.gone = Some(e.to_string()),
            }
        }
    }

    /// Stops the bot (nothing for a person, who may stay and watch).
    fn stop(&mut self) {
        if let Occupant::Bot { bot, .. } = &mut self.occupant {
            bot.stop();
        }
    }
}

impl<G: Registered> Player<G> {
    /// Shows a person its seat's view now: everything its seat sees, but a claim window open
    /// for other seats ([`hide_others_window`]).
    fn show_person(desk: &Desk, state: &G, seat: Seat, event: Option<Event>) {
        let mut view = G::any_view(state.seat_view(seat));
        if !state.to_act().contains(seat) {
            hide_others_window(&mut view);
        }
        desk.publish(|s| {
            s.view = Some(view);
            if let Some(e) = event {
                if s.events.len() == EVENTS_SHOWN {
                    s.events.remove(0);
                }
                s.events.push(e);
            }
        });
    }
}

/// What a hosted game cost: the time spent waiting for the bots' answers and the rest.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timing {
    /// Wall time of the whole game, from the first start message to the last end message.
    pub total: Duration,
    /// Time spent waiting for the bots (their thinking and the pipes).
    pub waiting: Duration,
    /// Time spent recording: each record written to the sink (the journal, synced to the disk,
    /// and the archive's live rows) before play goes on.
    pub recording: Duration,
    /// Decisions the bots were asked for.
    pub decisions: u64,
    /// Records played.
    pub records: u64,
}

impl Timing {
    pub fn add(&mut self, other: &Timing) {
        self.total += other.total;
        self.waiting += other.waiting;
        self.recording += other.recording;
        self.decisions += other.decisions;
        self.records += other.records;
    }
}

/// One game to host.
pub struct Hosted<'a, G: Game> {
    /// The game's header as the log will carry it (seed revealed once the game is over).
    pub header: Header,
    pub state: G,
    /// Records played before (from a journal, when resuming): replayed, shown to the players,
    /// not sent to the sink again.
    pub replay: Vec<Record<G::Action>>,
    pub players: &'a mut [Player<G>],
    pub policy: Policy,
    /// The game's number in the match (1-based).
    pub number: u32,
}

/// The incident record's action: `incident KIND: DETAIL` in the game's notation.
fn incident<A: Action>(kind: &str, detail: &str) -> Result<A, HostError> {
    let mut detail: String = detail.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    if detail.chars().count() > 200 {
        detail = detail.chars().take(197).collect::<String>() + "...";
    }
    let text = if detail.trim().is_empty() { format!("incident {kind}") } else { format!("incident {kind}: {detail}") };
    text.parse::<A>().map_err(|e| HostError::Unrecordable { action: text.clone(), why: e.to_string() })
}

impl<G: Registered> Hosted<'_, G> {
    /// Plays the game to its end. Answers the whole log (header with the seed as given, every
    /// record) and what it cost.
    pub fn play(mut self, sink: &mut dyn Sink<G::Action>) -> Result<(Log<G::Action>, Timing), HostError> {
        let started = Instant::now();
        let mut timing = Timing::default();
        let names = self.header.seats.clone();
        for (seat, p) in self.players.iter_mut().enumerate() {
            let table = Table {
                game: &self.header.game,
                ruleset: &self.header.ruleset,
                options: &self.header.options,
                names: &names,
                seat: seat as Seat,
                number: self.number,
            };
            let budget = p.limits.game;
            match &mut p.occupant {
                Occupant::Bot { protocol, .. } => {
                    let lines = protocol.begin(&table, &self.state);
                    p.tell(lines);
                }
                Occupant::Person { desk, seen } => {
                    *seen = 0;
                    let view = G::any_view(self.state.seat_view(seat as Seat));
                    let number = self.number;
                    desk.publish(|s| {
                        s.stage = Stage::Playing;
                        s.number = number;
                        s.names = names.clone();
                        s.view = Some(view);
                        s.events.clear();
                        s.legal.clear();
                        s.to_act = false;
                        s.deadline_at_ms = None;
                        s.budget_ms = budget.as_millis() as u64;
                        s.notice = None;
                    });
                }
            }
        }
        let mut records: Vec<Record<G::Action>> = Vec::new();
        for (index, r) in std::mem::take(&mut self.replay).into_iter().enumerate() {
            let hidden = self.state.hidden_from_others(r.seat, &r.action);
            self.state.play_mut(r.seat, &r.action).map_err(|v| HostError::Replay { index, why: v.message })?;
            self.show(r.seat, &r.action, hidden);
            records.push(r);
        }
        while !self.state.is_over() {
            // Every engine ends a game at its bound (`Game::MAX_RECORDS`): this never happens.
            if records.len() > G::MAX_RECORDS as usize {
                return Err(HostError::TooLong(G::MAX_RECORDS as usize));
            }
            let Some(seat) = self.state.to_act().iter().next() else { break };
            if self.state.legal_actions(seat).is_empty() {
                return Err(HostError::NoLegalAction(seat));
            }
            for action in self.decide(seat, &mut timing)? {
                let before = self.state.results().len();
                let hidden = self.state.hidden_from_others(seat, &action);
                self.state
                    .play_mut(seat, &action)
                    .map_err(|v| HostError::Unrecordable { action: action.to_string(), why: v.message })?;
                let record =
                    Record { seq: records.len() as u32, seat, action, claim: claim_after(&self.state, before) };
                let clock = Instant::now();
                sink.record(&record)?;
                timing.recording += clock.elapsed();
                timing.records += 1;
                self.show(seat, &record.action, hidden);
                records.push(record);
            }
        }
        for (seat, p) in self.players.iter_mut().enumerate() {
            match &mut p.occupant {
                Occupant::Bot { protocol, .. } => {
                    let lines = protocol.end(&self.state);
                    p.tell(lines);
                }
                Occupant::Person { desk, .. } => {
                    let view = G::any_view(self.state.seat_view(seat as Seat));
                    let (scores, places) = (self.state.scores(), self.state.placements());
                    desk.publish(|s| {
                        s.view = Some(view);
                        s.notice = Some(format!(
                            "game {} is over: place {} with {}",
                            s.number,
                            places.get(seat).copied().unwrap_or(0),
                            scores.get(seat).copied().unwrap_or(0)
                        ));
                    });
                }
            }
            p.stop();
        }
        timing.total = started.elapsed();
        Ok((Log { header: self.header, records }, timing))
    }

    /// Shows every seat the action just played (`hidden`: the other seats do not see it,
    /// [`Game::hidden_from_others`]): a bot's protocol notes it and sends the notices it makes;
    /// a person's seat shows its view now and the event.
    fn show(&mut self, seat: Seat, action: &G::Action, hidden: bool) {
        for (s, p) in self.players.iter_mut().enumerate() {
            let seen = !hidden || s == usize::from(seat);
            match &mut p.occupant {
                Occupant::Bot { protocol, .. } => {
                    protocol.observe(seat, action, &self.state, seen);
                    let notices = protocol.notices();
                    p.tell(notices);
                }
                Occupant::Person { desk, seen: count } => {
                    let event = seen.then(|| {
                        *count += 1;
                        Event { seq: *count - 1, seat, action: action.to_string() }
                    });
                    Player::show_person(desk, &self.state, s as Seat, event);
                }
            }
        }
    }

    /// The records a decision of `seat` comes to: its player's action, or an incident and the
    /// seat's safe action.
    fn decide(&mut self, seat: Seat, timing: &mut Timing) -> Result<Vec<G::Action>, HostError> {
        let safe = |state: &G| state.safe_action(seat).ok_or(HostError::NoSafeAction { seat });
        let p = &mut self.players[usize::from(seat)];
        if p.forfeited {
            return Ok(vec![safe(&self.state)?]);
        }
        let miss = match &p.gone {
            Some(_) => Miss::Exited("the bot ended earlier".into()),
            None => match ask(p, &self.state, seat, timing) {
                Ok(action) => return Ok(vec![action]),
                Err(miss) => miss,
            },
        };
        let bot = matches!(p.occupant, Occupant::Bot { .. });
        if bot && matches!(miss, Miss::Exited(_) | Miss::Garbage(_)) && p.gone.is_none() {
            p.gone = Some(miss.detail());
        }
        let first = match self.policy {
            Policy::SafeAction => incident(miss.kind(), &miss.detail())?,
            Policy::Forfeit => {
                p.forfeited = true;
                p.stop();
                if bot {
                    p.gone.get_or_insert_with(|| "it forfeited".into());
                }
                incident("forfeit", &format!("{}: {}", miss.kind(), miss.detail()))?
            }
        };
        if let Occupant::Person { desk, .. } = &p.occupant {
            let forfeit = p.forfeited;
            desk.publish(|s| {
                s.notice = Some(if forfeit {
                    format!("{}: the seat forfeits; the host plays its safe action to the end", miss.detail())
                } else {
                    format!("{}: the host played your safe action", miss.detail())
                });
            });
        }
        // The safe action is the one of the position after the incident, which changes nothing
        // for host incidents but may for a forfeit.
        let mut after = self.state.clone();
        after
            .play_mut(seat, &first)
            .map_err(|v| HostError::Unrecordable { action: first.to_string(), why: v.message })?;
        Ok(vec![first, safe(&after)?])
    }
}

/// Reads an action offered for `seat` and checks it against the legal set: the action, or why
/// it cannot be taken (it is not an action, not legal now, or an incident).
fn checked<G: Game>(state: &G, seat: Seat, text: &str, who: &str) -> Result<G::Action, String> {
    let text = text.trim();
    let a = text.parse::<G::Action>().map_err(|e| format!("{text:?} is not an action: {e}"))?;
    match state.validate(seat, &a) {
        Ok(()) if a.incident().is_none() => Ok(a),
        Ok(()) => Err(format!("answered {text:?}: {who} cannot record an incident")),
        Err(v) => Err(format!("answered {a}: {}", v.message)),
    }
}

/// The time `p` has for its next decision: its time for one decision or what is left of its
/// game's budget, whichever is less, and whether the budget is what limits it.
fn time_for(p: &Player<impl Game>) -> (Duration, bool) {
    let budget_left = p.limits.game.saturating_sub(p.spent);
    (budget_left.min(p.limits.decision), budget_left < p.limits.decision)
}

/// The miss of a decision that took all of its time.
fn out_of_time(limits: Limits, by_budget: bool) -> Miss {
    if by_budget {
        Miss::Budget(limits.game.as_millis())
    } else {
        Miss::Timeout(limits.decision.as_millis())
    }
}

/// Asks `p` for `seat`'s decision and checks it against the legal set.
fn ask<G: Registered>(p: &mut Player<G>, state: &G, seat: Seat, timing: &mut Timing) -> Result<G::Action, Miss> {
    timing.decisions += 1;
    let start = Instant::now();
    let result = match &p.occupant {
        Occupant::Bot { .. } => ask_bot(p, state, seat),
        Occupant::Person { desk, .. } => {
            let desk = desk.clone();
            ask_person(p, &desk, state, seat)
        }
    };
    let waited = start.elapsed();
    p.spent += waited;
    timing.waiting += waited;
    if let Occupant::Person { desk, .. } = &p.occupant {
        let left = p.limits.game.saturating_sub(p.spent).as_millis() as u64;
        desk.publish(|s| {
            s.to_act = false;
            s.legal.clear();
            s.deadline_at_ms = None;
            s.budget_ms = left;
        });
    }
    result
}

/// A person's decision: the seat's view, legal actions and deadline published, then each offer
/// checked as it arrives (a refused one is answered with the reason, and the person may offer
/// again until the deadline: an offer is not an answer the host must use, as a bot's line is).
fn ask_person<G: Registered>(p: &Player<G>, desk: &Desk, state: &G, seat: Seat) -> Result<G::Action, Miss> {
    let (wait, by_budget) = time_for(p);
    let until = Instant::now() + wait;
    let legal: Vec<String> = state.legal_actions(seat).iter().map(ToString::to_string).collect();
    let view = G::any_view(state.seat_view(seat));
    let budget = p.limits.game.saturating_sub(p.spent).as_millis() as u64;
    desk.open();
    desk.publish(|s| {
        s.view = Some(view);
        s.legal = legal;
        s.to_act = true;
        s.deadline_at_ms = Some(now_ms().saturating_add(wait.as_millis() as i64));
        s.budget_ms = budget;
        // A notice of what the host played for the seat stays until the person acts: a seat
        // asked again at once (a draw, then its discard) would otherwise never show it.
    });
    let result = loop {
        let Some(offer) = desk.next_offer(until) else { break Err(out_of_time(p.limits, by_budget)) };
        match checked(state, seat, &offer.text, "a person") {
            Ok(a) => {
                // The seat is shown that nothing more is asked of it before the request hears
                // that its action was taken: a page that looks again at once never finds the
                // decision still open and offers the same action twice.
                desk.publish(|s| {
                    s.to_act = false;
                    s.legal.clear();
                    s.deadline_at_ms = None;
                    s.notice = None;
                });
                desk.close("the seat's decision was taken already");
                offer.answer(Ok(()));
                break Ok(a);
            }
            Err(why) => offer.answer(Err(why)),
        }
    };
    desk.close("too late: the decision's time is over and the host played the seat's safe action");
    result
}

/// A bot's decision: asked in its protocol, the answer checked.
fn ask_bot<G: Game>(p: &mut Player<G>, state: &G, seat: Seat) -> Result<G::Action, Miss> {
    let limits = p.limits;
    let start = Instant::now();
    let spent = p.spent;
    let Occupant::Bot { bot, protocol, owed } = &mut p.occupant else {
        return Err(Miss::Exited("not a bot".into()));
    };
    // One decision may take more than one exchange (mjai's reach, then its discard), all on
    // one clock: the bot's time is the time the host waits for it.
    for _ in 0..4 {
        let waited = start.elapsed();
        let budget_left = limits.game.saturating_sub(spent + waited);
        let decision_left = limits.decision.saturating_sub(waited);
        let by_budget = budget_left < decision_left;
        let deadline = budget_left.min(decision_left);
        if deadline.is_zero() {
            return Err(out_of_time(limits, by_budget));
        }
        let line = protocol.ask(state, seat);
        return match Player::<G>::exchange(bot, owed, &line, deadline) {
            Ok(text) => match protocol.read(state, seat, &text) {
                Answer::Action(a) => match state.validate(seat, &a) {
                    Ok(()) if a.incident().is_none() => Ok(a),
                    Ok(()) => Err(Miss::Illegal(format!("answered {text:?}: a bot cannot record an incident"))),
                    Err(v) => Err(Miss::Illegal(format!("answered {a}: {}", v.message))),
                },
                Answer::Again => continue,
                Answer::Unreadable(why) => Err(Miss::Illegal(why)),
            },
            Err(BotFault::Timeout(_)) if by_budget => Err(Miss::Budget(limits.game.as_millis())),
            Err(BotFault::Timeout(ms)) => Err(Miss::Timeout(ms)),
            Err(BotFault::Garbage(why)) => Err(Miss::Garbage(format!("it answered {why}"))),
            Err(e) => Err(Miss::Exited(e.to_string())),
        };
    }
    Err(Miss::Illegal("the protocol asked again more than four times for one decision".into()))
}
