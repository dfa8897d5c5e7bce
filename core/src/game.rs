//! The one interface every rules engine implements.
//!
//! Modelled on shakmaty's `Position`: a small required core (who must act, the legal actions,
//! checking an action, applying a checked one) and provided methods built on it. `play` takes
//! the state by value and hands it back untouched inside the error when the action is refused.
//!
//! The interface carries every game Paifu plays: 2 to 4 seats; hidden hands (the state holds
//! everything, bots and views choose what they look at); claim windows, where several seats owe
//! a decision on one discard at once and the engine resolves priority once all have answered;
//! multi-round matches with a score change per round; and boards (Ta Yü), which are just state.

use crate::error::{ErrorCode, Violation};
use crate::incident::{IncidentKind, Incidents};
use crate::log::{Action, Options};
use crate::random::Seed;
use serde::Serialize;
use std::borrow::Cow;
use std::fmt;

/// The games Paifu knows by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    Tzq,
    Riichi,
    Mcr,
    Hungarian,
    Tayu,
}

impl GameKind {
    pub const ALL: [GameKind; 5] =
        [GameKind::Tzq, GameKind::Riichi, GameKind::Mcr, GameKind::Hungarian, GameKind::Tayu];

    /// The name used in log headers and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Tzq => "tzq",
            GameKind::Riichi => "riichi",
            GameKind::Mcr => "mcr",
            GameKind::Hungarian => "hungarian",
            GameKind::Tayu => "tayu",
        }
    }

    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The game's full name.
    pub fn title(self) -> &'static str {
        match self {
            GameKind::Tzq => "Tien Zi Que",
            GameKind::Riichi => "Riichi mahjong",
            GameKind::Mcr => "Chinese Official mahjong (MCR)",
            GameKind::Hungarian => "Hungarian mahjong (1925)",
            GameKind::Tayu => "Ta Yü",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A seat number, 0-based, in header order.
pub type Seat = u8;

/// A set of seats, as a bit mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(pub u8);

impl SeatSet {
    pub(crate) const EMPTY: SeatSet = SeatSet(0);

    pub fn single(seat: Seat) -> SeatSet {
        SeatSet(1u8.checked_shl(u32::from(seat)).unwrap_or(0))
    }
    pub fn contains(self, seat: Seat) -> bool {
        seat < 8 && self.0 & (1 << seat) != 0
    }
    pub fn insert(&mut self, seat: Seat) {
        self.0 |= SeatSet::single(seat).0;
    }
    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !SeatSet::single(seat).0;
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..8u8).filter(move |&s| self.contains(s))
    }
}

/// A ruleset could not be built from the header's options, or a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

impl crate::log::OptValue {
    /// The value of `game`'s option `key` as a boolean, or an error naming both.
    pub fn as_bool(&self, game: GameKind, key: &str) -> Result<bool, SetupError> {
        match self {
            crate::log::OptValue::Bool(b) => Ok(*b),
            other => Err(SetupError(format!("{game} option {key} takes true or false, not {other}"))),
        }
    }

    /// The value of `game`'s option `key` as an integer, or an error naming both.
    pub(crate) fn as_int(&self, game: GameKind, key: &str) -> Result<i64, SetupError> {
        match self {
            crate::log::OptValue::Int(i) => Ok(*i),
            other => Err(SetupError(format!("{game} option {key} takes an integer, not {other}"))),
        }
    }
}

/// The result of one round.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RoundResult {
    /// 1-based round number.
    pub round: u32,
    /// Each seat's score change.
    pub deltas: Vec<i64>,
    /// What happened, in words: "seat 0 wins: Pair 2 + Honours 1 = 3".
    pub summary: String,
    /// Countable facts for statistics, each for one seat or the table: `win`, `deal_in`,
    /// `category:flush`, `length`, ... Each game documents its keys in docs/rules/GAME.md.
    /// Statistics add them up, so a fact's value must make sense summed.
    #[serde(default)]
    pub facts: Vec<Fact>,
}

/// One countable fact about a round, as results and the archive store it: the key as text.
/// Engines make facts from their typed keys ([`Game::Fact`]) and statistics read them back with
/// [`Fact::key_as`]; no engine or statistic writes a key as a free string.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fact {
    /// The seat it is about; `None` for the table.
    pub seat: Option<Seat>,
    pub key: String,
    pub value: i64,
}

impl Fact {
    pub fn seat<K: FactKey>(seat: Seat, key: K, value: i64) -> Fact {
        Fact { seat: Some(seat), key: key.key().into_owned(), value }
    }
    pub fn table<K: FactKey>(key: K, value: i64) -> Fact {
        Fact { seat: None, key: key.key().into_owned(), value }
    }
    /// The key as a game's typed fact key; `None` when it is not one of them.
    pub fn key_as<K: FactKey>(&self) -> Option<K> {
        K::parse(&self.key)
    }
}

/// A game's statistic fact keys, as a type: an enum whose every value has one text form
/// (`win`, `yaku:pinfu`, `category:flush`), the form results and the archive store.
/// `parse` reads every key's text back to a key with the same text (the same key, unless two
/// keys share a text on purpose), and refuses every other text.
pub trait FactKey: Copy + fmt::Debug + PartialEq + Sized {
    /// The key as text.
    fn key(&self) -> Cow<'static, str>;
    /// The key a text stands for.
    fn parse(text: &str) -> Option<Self>;
}

/// An action was refused; the state is handed back untouched.
#[derive(Clone, Debug)]
pub struct PlayError<G> {
    pub state: G,
    pub violation: Violation,
}

/// A rules engine.
pub trait Game: Clone + Sized {
    /// One decision of one seat.
    type Action: Action;
    /// The ruleset with every option resolved.
    type Rules: Clone + fmt::Debug + Default + Send + Sync;
    /// What a viewer is shown of a position: the whole state, every hidden thing visible, as
    /// typed data (the web dashboard draws it; its JSON form is the API's `view`).
    type View: Clone + fmt::Debug + Serialize;
    /// The keys of the countable facts this game's round results carry, for statistics.
    type Fact: FactKey;

    const KIND: GameKind;

    /// Seat counts the game can be played with.
    const SEATS: std::ops::RangeInclusive<usize>;

    /// The most records a game may hold. A game that reaches it is over there: the hand or round
    /// in play is void (no payments), the scores stand as they are; a record after it is refused
    /// like any record after a game's end (`after_game_end`). Far above any game played to its
    /// end (each game's docs/rules/GAME.md, "Length", says its bound and why), it makes every
    /// game end, whatever its players do (the engines count with [`Length`]).
    const MAX_RECORDS: u32;

    /// Builds the rules from a header's ruleset name and options; an unknown option or a bad
    /// value is an error that names it.
    fn rules(ruleset: &str, options: &Options) -> Result<Self::Rules, SetupError>;

    /// The options that describe `rules` (written into headers).
    fn options(rules: &Self::Rules) -> Options;

    /// A new game. With a seed, every chance event (shuffle, die) comes from it. Without one
    /// (an imported game), the chance events the source showed are themselves records of the
    /// log (for example a seat's `draw 5m`), checked for possibility (no fifth copy of a tile);
    /// an engine that cannot replay that way answers an error.
    fn new(rules: Self::Rules, seats: usize, seed: Option<&Seed>) -> Result<Self, SetupError>;

    /// Number of seats.
    fn seat_count(&self) -> usize;

    /// Seats that owe a decision now. Empty exactly when the game is over.
    fn to_act(&self) -> SeatSet;

    /// Every legal action of `seat` now (empty if it does not owe a decision). Incidents are
    /// never listed (a bot is not offered them); a seat that must play its safe action (after
    /// a host incident of it, or once it forfeited) is offered only that.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;

    /// The action a host plays for `seat` when its answer is missing or unusable, and that a
    /// forfeited seat plays at each of its decisions: in the mahjong games the drawn tile
    /// discarded (after a call, the first legal discard) and a claim passed; each game's rules
    /// page says its own. Always one of `legal_actions(seat)`; `None` when the seat owes no
    /// decision (or only a chance record of an imported game).
    fn safe_action(&self, seat: Seat) -> Option<Self::Action>;

    /// Checks an action of a seat that owes a decision, without changing anything. Callers
    /// that do not know whether the seat owes a decision use [`Game::validate`].
    fn check(&self, seat: Seat, action: &Self::Action) -> Result<(), Violation>;

    /// Applies an action that `check` accepted. Must not be called with anything else.
    fn apply(&mut self, seat: Seat, action: &Self::Action);

    /// The current round, 1-based.
    fn round(&self) -> u32;

    /// Results of the rounds finished so far.
    fn results(&self) -> &[RoundResult];

    /// The results, moved out of a state that is no longer needed (a replay's outcome). The
    /// default copies them; engines that own a `Vec` hand it over.
    fn into_results(self) -> Vec<RoundResult>
    where
        Self: Sized,
    {
        self.results().to_vec()
    }

    /// Each seat's score now (the final score once the game is over).
    fn scores(&self) -> Vec<i64>;

    /// Each seat's place once the game is over (1 = first). By default 1 + the number of
    /// seats with a strictly higher score, so ties share a place; games whose rules break ties
    /// (riichi: by seat order) override it.
    fn placements(&self) -> Vec<u32> {
        placements_by_score(&self.scores())
    }

    /// The whole state as text, every hidden thing visible.
    fn render(&self) -> String;

    /// The whole state as typed data, for viewers. Every view carries the round, the scores and
    /// the seats to act; the rest is the game's own.
    fn view(&self) -> Self::View;

    /// What a player at `seat` knows of the position at the table, as the same typed view:
    /// its own concealed tiles (cards, pieces) and its draw, and everything public (discards,
    /// melds, revealed indicators, the board, scores, how many tiles are left and how many each
    /// other seat holds); other seats' concealed tiles, the wall, unrevealed indicators, the
    /// stack's hidden pieces and anything derived from the seed are left out. A seat that does
    /// not exist sees only what is public. Each game says what its seats see in
    /// docs/rules/GAME.md ("What a seat sees").
    fn seat_view(&self, seat: Seat) -> Self::View;

    /// Whether the other seats at the table do not see `seat` play `action` now (asked before it
    /// is played): a pass on a claim, which a player at the table never sees (that nobody claimed
    /// is all the table learns when the window closes), and a host incident of a seat in a claim
    /// window (which would tell that the seat was asked). A live host never tells them to the
    /// other seats (docs/protocol.md). By default every action is seen; the games with claim
    /// windows override it with [`hidden_in_window`].
    fn hidden_from_others(&self, _seat: Seat, _action: &Self::Action) -> bool {
        false
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.to_act().is_empty()
    }

    /// When the game is an excerpt of an unknown game (its rules say so) and stands at the end
    /// of a round it played (or is over): the rounds it covers. A log that ends there is a
    /// valid excerpt rather than a truncated game. `None` for whole games, the default.
    fn excerpt(&self) -> Option<Excerpt> {
        None
    }

    /// Checks any seat's action: that the seat exists and owes a decision, then `check`.
    /// Accepts exactly the actions `legal_actions(seat)` lists, and besides them incidents
    /// (`incident KIND`, [`crate::Incident`]) of a seat that owes a decision, when the kind
    /// applies to the game and the moment.
    fn validate(&self, seat: Seat, action: &Self::Action) -> Result<(), Violation> {
        if usize::from(seat) >= self.seat_count() {
            return Err(Violation::new(
                ErrorCode::NotYourTurn,
                format!("seat {seat} does not exist at this {}-seat table", self.seat_count()),
            ));
        }
        if !self.to_act().contains(seat) {
            let who: Vec<String> = self.to_act().iter().map(|s| s.to_string()).collect();
            return Err(Violation::new(
                ErrorCode::NotYourTurn,
                if who.is_empty() {
                    format!("seat {seat} acted after the game was over")
                } else {
                    format!("seat {seat} acted, but it is seat {}'s turn", who.join(" or "))
                },
            ));
        }
        self.check(seat, action)
    }

    /// Checks and applies in place; the state is untouched on error.
    fn play_mut(&mut self, seat: Seat, action: &Self::Action) -> Result<(), Violation> {
        self.validate(seat, action)?;
        self.apply(seat, action);
        Ok(())
    }

    /// shakmaty-style: the new state, or the untouched state with the reason.
    fn play(mut self, seat: Seat, action: &Self::Action) -> Result<Self, PlayError<Self>> {
        match self.play_mut(seat, action) {
            Ok(()) => Ok(self),
            Err(violation) => Err(PlayError { state: self, violation }),
        }
    }
}

/// The rounds an excerpt of an unknown game covers, as players name them (`South 2-1`: South 2,
/// 1 honba).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Excerpt {
    /// The first round the excerpt plays.
    pub first: String,
    /// The last round it plays to the end.
    pub last: String,
}

impl fmt::Display for Excerpt {
    /// `excerpt: rounds South 2-1 to South 3-0 of an unknown game` (`round ...` for one).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "excerpt: round {} of an unknown game", self.first)
        } else {
            write!(f, "excerpt: rounds {} to {} of an unknown game", self.first, self.last)
        }
    }
}

/// The records a game has played, against its bound ([`Game::MAX_RECORDS`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Length(pub(crate) u32);

impl Length {
    /// Counts one record played; answers whether the game has now reached `max` records (the
    /// engine then ends it).
    pub(crate) fn count(&mut self, max: u32) -> bool {
        self.0 = self.0.saturating_add(1);
        self.0 >= max
    }
}

/// Checks that `g`, once `near` made it one record short of its bound, is over after its next
/// record (the first legal action of a seat to act), with the scores as they stood unless that
/// record ended a round, and refuses any record after it.
#[cfg(test)]
pub(crate) fn ends_at_its_bound<G: Game>(mut g: G, near: impl FnOnce(&mut G)) {
    near(&mut g);
    assert!(!g.is_over(), "one record short of the bound, the game goes on");
    let seat = g.to_act().iter().next().expect("a seat to act");
    let action = g.legal_actions(seat).into_iter().next().expect("a legal action");
    let (scores, rounds) = (g.scores(), g.results().len());
    g.play_mut(seat, &action).expect("the last record within the bound is played");
    assert!(g.is_over(), "{}: the game is over at its bound", G::KIND);
    if g.results().len() == rounds {
        assert_eq!(g.scores(), scores, "the scores stand as they were");
    }
    for s in 0..g.seat_count() as Seat {
        assert_eq!(g.validate(s, &action).map_err(|v| v.code), Err(ErrorCode::NotYourTurn));
    }
}

/// [`Game::hidden_from_others`] for a game with claim windows: in a window (`in_window`), a pass
/// (`is_pass`), a host incident and a forfeit are hidden; everything else is seen.
pub(crate) fn hidden_in_window<A: Action>(in_window: bool, action: &A, is_pass: bool) -> bool {
    in_window && (is_pass || action.incident().is_some_and(|i| i.kind.is_host() || i.kind == IncidentKind::Forfeit))
}

/// Places from scores: 1 + the number of seats with a strictly higher score (ties share).
pub fn placements_by_score(scores: &[i64]) -> Vec<u32> {
    scores.iter().map(|s| 1 + scores.iter().filter(|o| *o > s).count() as u32).collect()
}

/// Ends a round's incidents: when `results` holds a result past the first `before` (an action
/// just ended a round), its facts get one per incident of the round (`key` makes the game's
/// fact key of a kind) and its deltas the round's penalty payments (which the engine added to
/// the scores when it charged them).
pub(crate) fn close_round<K: FactKey>(
    results: &mut [RoundResult],
    before: usize,
    incidents: &mut Incidents,
    key: fn(IncidentKind) -> K,
) {
    let Some(result) = results.get_mut(before) else { return };
    result.facts.extend(incidents.take_round().into_iter().map(|(seat, kind)| Fact::seat(seat, key(kind), 1)));
    let penalty = incidents.take_penalty();
    for (d, p) in result.deltas.iter_mut().zip(&penalty) {
        *d = d.saturating_add(*p);
    }
}
