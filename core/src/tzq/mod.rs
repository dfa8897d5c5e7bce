//! Tien Zi Que: the two-player card mahjong of seed 000 (see docs/rules/tzq.md).

mod cards;
mod facts;
mod scoring;
mod view;

pub use cards::{cards, standard_deck, Card, CardCodeError, Colour, DeckError, Kind};
pub use facts::FactKind;
pub use scoring::{score, Category, Score};
pub use view::{SeatView, View};

use crate::error::Violation;
use crate::game::close_round;
use crate::incident::Incidents;
use crate::log::Action as _;
use crate::log::{NotationError, OptValue, Options};
use crate::random::Seed;
use crate::{placements_by_score, Fact, Game, GameKind, RoundResult, Seat, SeatSet, SetupError};
use serde::{Deserialize, Serialize};
use std::fmt::{self, Write as _};
use std::str::FromStr;

/// The times the draw pile may be rebuilt from the discards in one round: when it runs out once
/// more, the round ends drawn (docs/rules/tzq.md, "A round ends"), so that every round ends.
pub const MAX_RESHUFFLES: u32 = 3;

/// One TZQ decision.
///
/// Notation (JSON Lines logs, the command line): `draw`, `discard 5b`,
/// `pong 3b 4g 5r keep 4g`, `chow 3b 4g take 5r keep 5r`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "ActionRepr")]
pub enum Action {
    /// Draw the top card of the draw pile (then discard, or lay a set: Pong).
    Draw,
    /// After drawing: discard a card face up.
    Discard(Card),
    /// After drawing: lay a set of three hand cards, keep one as a scoring card.
    Pong { cards: [Card; 3], keep: Card },
    /// Instead of drawing: lay a set of two hand cards and one card the opponent discarded on
    /// their last turn, keep one as a scoring card.
    Chow { hand: [Card; 2], take: Card, keep: Card },
    /// An incident (`incident KIND[: DETAIL]`, core/src/incident.rs), last so that older logs keep
    /// their bytes.
    Incident(Box<crate::Incident>),
}

/// The binary form as read, before its order is checked.
#[derive(Deserialize)]
enum ActionRepr {
    Draw,
    Discard(Card),
    Pong { cards: [Card; 3], keep: Card },
    Chow { hand: [Card; 2], take: Card, keep: Card },
    Incident(Box<crate::Incident>),
}

/// A set whose cards are not in ascending order (the only form logs hold).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}: the cards of a set are written in ascending order")]
pub struct UnsortedSet(pub Action);

impl TryFrom<ActionRepr> for Action {
    type Error = UnsortedSet;
    fn try_from(r: ActionRepr) -> Result<Action, UnsortedSet> {
        let a = match r {
            ActionRepr::Draw => Action::Draw,
            ActionRepr::Discard(c) => Action::Discard(c),
            ActionRepr::Pong { cards, keep } => Action::Pong { cards, keep },
            ActionRepr::Chow { hand, take, keep } => Action::Chow { hand, take, keep },
            ActionRepr::Incident(i) => Action::Incident(i),
        };
        if a.is_canonical() {
            Ok(a)
        } else {
            Err(UnsortedSet(a))
        }
    }
}

impl Action {
    /// Whether a Pong's or Chow's hand cards are in ascending order, the only form logs hold.
    pub(crate) fn is_canonical(&self) -> bool {
        match self {
            Action::Pong { cards, .. } => cards.is_sorted(),
            Action::Chow { hand, .. } => hand.is_sorted(),
            _ => true,
        }
    }

    /// A Pong with its cards in canonical (sorted) order.
    pub fn pong(mut cards: [Card; 3], keep: Card) -> Action {
        cards.sort();
        Action::Pong { cards, keep }
    }

    /// A Chow with its hand cards in canonical (sorted) order.
    pub fn chow(mut hand: [Card; 2], take: Card, keep: Card) -> Action {
        hand.sort();
        Action::Chow { hand, take, keep }
    }
}

// Made of card bytes that refuse codes outside their range and enums, structs and fixed arrays of them; nothing on reading sorts or
// rewrites a value (a set in the wrong order is refused). The test
// `actions_encode_without_maps_chars_or_floats` checks every variant.
impl crate::log::Action for Action {
    const CANONICAL_UNLESS_OVERLONG: bool = true;

    crate::incident::incident_variant!();
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Draw => f.write_str("draw"),
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::Pong { cards: [a, b, c], keep } => write!(f, "pong {a} {b} {c} keep {keep}"),
            Action::Chow { hand: [a, b], take, keep } => write!(f, "chow {a} {b} take {take} keep {keep}"),
            Action::Incident(i) => write!(f, "{i}"),
        }
    }
}

impl FromStr for Action {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Action, NotationError> {
        if let Some(i) = crate::Incident::parse_notation(s)? {
            return Ok(Action::Incident(Box::new(i)));
        }
        let w = crate::log::words(s);
        let card = |t: &str| t.parse::<Card>();
        let usage = || {
            NotationError(format!(
                "{s:?} is not a TZQ action: write draw, discard CARD, pong CARD CARD CARD keep CARD, or chow CARD CARD take CARD keep CARD"
            ))
        };
        match w.as_slice() {
            ["draw"] => Ok(Action::Draw),
            ["discard", c] => Ok(Action::Discard(card(c)?)),
            ["pong", a, b, c, "keep", k] => Ok(Action::pong([card(a)?, card(b)?, card(c)?], card(k)?)),
            ["chow", a, b, "take", t, "keep", k] => Ok(Action::chow([card(a)?, card(b)?], card(t)?, card(k)?)),
            _ => Err(usage()),
        }
    }
}

/// TZQ rules with every option resolved (RULINGS.md, Tien Zi Que, "Options").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Advanced rule 1: the fifth set may only be made if the scoring cards are worth at least
    /// this many points (0 = no minimum; the advanced rule is 2).
    pub min_points: i64,
    /// Advanced rule 2: no reshuffling; the round is drawn when the draw pile is empty at the
    /// end of a turn.
    pub drawn_on_exhaustion: bool,
    /// Number of rounds in a match (4), unless `target` is set.
    pub rounds: u32,
    /// Play until a player has this many points (0 = off; the variant is 30).
    pub target: i64,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { min_points: 0, drawn_on_exhaustion: false, rounds: 4, target: 0 }
    }
}

/// The ruleset names TZQ knows.
pub(crate) const RULESETS: &[&str] = &["standard", "advanced", "to30"];

impl Rules {
    /// The named ruleset: `standard` (the seed's basic game), `advanced` (both advanced rules),
    /// `to30` (play to 30 points).
    pub fn named(name: &str) -> Option<Rules> {
        let d = Rules::default();
        Some(match name {
            "standard" => d,
            "advanced" => Rules { min_points: 2, drawn_on_exhaustion: true, ..d },
            "to30" => Rules { target: 30, ..d },
            _ => return None,
        })
    }
}

/// Where a turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The seat may draw, or chow one of the opponent's last discards.
    Start,
    /// The seat has drawn this card and must discard or lay a set (Pong).
    Drawn(Card),
    /// The match is over.
    Over,
}

/// A whole TZQ match.
#[derive(Clone, Debug)]
pub struct Tzq {
    rules: Rules,
    seed: Seed,
    deck: &'static [Card],
    round: u32,
    /// Who starts round 1 (drawn from the seed).
    first: Seat,
    scores: [i64; 2],
    results: Vec<RoundResult>,
    /// The draw pile; the top is the last element.
    pile: Vec<Card>,
    /// The discard pile in the order the cards were discarded.
    discards: Vec<Card>,
    /// The cards the player to act may chow: the opponent's discards of their last turn.
    chowable: Vec<Card>,
    hands: [Vec<Card>; 2],
    kept: [Vec<Card>; 2],
    turn: Seat,
    phase: Phase,
    reshuffles: u32,
    /// Turns played this round.
    turns: u32,
    incidents: Incidents,
    /// Records played, against the bound (docs/rules/tzq.md, "Length").
    length: crate::game::Length,
}

fn is_set(cards: [Card; 3]) -> bool {
    let sparrows = cards.iter().filter(|c| c.is_sparrow()).count();
    let others: Vec<Card> = cards.iter().copied().filter(|c| !c.is_sparrow()).collect();
    match sparrows {
        0 => {
            let (a, b, c) = (others[0].kind(), others[1].kind(), others[2].kind());
            if a == b && b == c {
                return true;
            }
            let mut n: Vec<u8> = others.iter().filter_map(|c| c.number()).collect();
            n.sort_unstable();
            n.len() == 3 && n[1] == n[0] + 1 && n[2] == n[1] + 1
        }
        1 => {
            let (a, b) = (others[0], others[1]);
            if a.kind() == b.kind() {
                return true;
            }
            match (a.number(), b.number()) {
                (Some(x), Some(y)) => x.abs_diff(y) <= 2,
                _ => false,
            }
        }
        _ => false,
    }
}

fn set_text(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("-")
}

/// Removes each of `cards` from `from` (a multiset); false, leaving `from` unchanged, if one is
/// missing.
fn take_all(from: &mut Vec<Card>, cards: &[Card]) -> bool {
    let mut copy = from.clone();
    for c in cards {
        match copy.iter().position(|x| x == c) {
            Some(i) => {
                copy.remove(i);
            }
            None => return false,
        }
    }
    *from = copy;
    true
}

fn holds(hand: &[Card], cards: &[Card]) -> bool {
    let mut h = hand.to_vec();
    take_all(&mut h, cards)
}

/// An unchecked position, for tests and tools: build one by hand, then [`Tzq::from_setup`]
/// checks that it is a position the cards allow.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    pub hands: [Vec<Card>; 2],
    pub kept: [Vec<Card>; 2],
    /// Draw pile, top first.
    pub pile: Vec<Card>,
    /// Discard pile, oldest first.
    pub discards: Vec<Card>,
    /// The opponent's discards of their last turn (also in `discards`).
    pub chowable: Vec<Card>,
    pub turn: Seat,
    /// The card the seat to act has drawn this turn (it must be in its hand).
    pub drawn: Option<Card>,
    pub round: u32,
    pub first: Seat,
    pub scores: [i64; 2],
}

impl Tzq {
    /// A validated position from a [`Setup`]: every card of the deck exactly once, five cards
    /// in each hand (six for a seat that has drawn), chowable cards on top of the discards.
    pub fn from_setup(setup: Setup, rules: Rules, seed: &Seed) -> Result<Tzq, SetupError> {
        let deck = standard_deck().map_err(|e| SetupError(e.to_string()))?;
        let mut all: Vec<Card> = Vec::new();
        for s in 0..2 {
            all.extend(&setup.hands[s]);
            all.extend(&setup.kept[s]);
        }
        all.extend(&setup.pile);
        all.extend(&setup.discards);
        let mut sorted_deck = deck.to_vec();
        sorted_deck.sort();
        all.sort();
        if all != sorted_deck {
            return Err(SetupError("the position does not hold every card of the deck exactly once".into()));
        }
        if setup.turn > 1 || setup.first > 1 {
            return Err(SetupError("seats are 0 and 1".into()));
        }
        for s in 0..2u8 {
            let want = if s == setup.turn && setup.drawn.is_some() { 6 } else { 5 };
            if setup.hands[usize::from(s)].len() != want {
                return Err(SetupError(format!("seat {s} should hold {want} cards")));
            }
            if setup.kept[usize::from(s)].len() >= 5 {
                return Err(SetupError(format!("seat {s} has already kept five scoring cards")));
            }
        }
        if let Some(d) = setup.drawn {
            if !setup.hands[usize::from(setup.turn)].contains(&d) {
                return Err(SetupError("the drawn card is not in the hand".into()));
            }
        }
        if !setup.discards.ends_with(&setup.chowable) || setup.chowable.len() > 2 {
            return Err(SetupError("the chowable cards must be the last one or two discards".into()));
        }
        Ok(Tzq {
            rules,
            seed: *seed,
            deck,
            round: setup.round.max(1),
            first: setup.first,
            scores: setup.scores,
            results: Vec::new(),
            pile: setup.pile.into_iter().rev().collect(),
            discards: setup.discards,
            chowable: setup.chowable,
            hands: setup.hands,
            kept: setup.kept,
            turn: setup.turn,
            phase: setup.drawn.map_or(Phase::Start, Phase::Drawn),
            reshuffles: 0,
            turns: 0,
            incidents: Incidents::default(),
            length: Default::default(),
        })
    }

    pub fn rules_in_force(&self) -> &Rules {
        &self.rules
    }

    /// The cards in a seat's hand.
    pub fn hand(&self, seat: Seat) -> &[Card] {
        &self.hands[usize::from(seat & 1)]
    }

    /// The scoring cards a seat has kept this round.
    pub fn kept(&self, seat: Seat) -> &[Card] {
        &self.kept[usize::from(seat & 1)]
    }

    /// The cards the seat to act may chow.
    pub fn chowable(&self) -> &[Card] {
        &self.chowable
    }

    pub fn pile_len(&self) -> usize {
        self.pile.len()
    }

    pub fn discard_pile(&self) -> &[Card] {
        &self.discards
    }

    /// The seat whose turn it is.
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// The card drawn this turn, if the seat has drawn.
    pub fn drawn(&self) -> Option<Card> {
        match self.phase {
            Phase::Drawn(c) => Some(c),
            _ => None,
        }
    }

    fn starter(&self, round: u32) -> Seat {
        if round % 2 == 1 {
            self.first
        } else {
            1 - self.first
        }
    }

    fn start_round(&mut self) {
        let r = self.round;
        let mut deck = self.deck.to_vec();
        self.seed.stream(&format!("tzq/round/{r}/deal")).shuffle(&mut deck);
        let starter = self.starter(r);
        self.hands = [Vec::new(), Vec::new()];
        // Dealt one at a time, alternately, starter first, from the top (index 0).
        for (i, &c) in deck.iter().take(10).enumerate() {
            let seat = if i % 2 == 0 { starter } else { 1 - starter };
            self.hands[usize::from(seat)].push(c);
        }
        self.pile = deck[10..].iter().rev().copied().collect();
        self.discards.clear();
        self.chowable.clear();
        self.kept = [Vec::new(), Vec::new()];
        self.turn = starter;
        self.phase = Phase::Start;
        self.reshuffles = 0;
        self.turns = 0;
    }

    /// Whether an emptied draw pile is rebuilt from the discards: not with `drawn_on_exhaustion`
    /// (advanced rule 2), nor once it was rebuilt [`MAX_RESHUFFLES`] times this round (the
    /// ruling "A round ends", docs/rules/tzq.md): the round then ends drawn when the turn ends.
    fn may_reshuffle(&self) -> bool {
        !self.rules.drawn_on_exhaustion && self.reshuffles < MAX_RESHUFFLES
    }

    /// Shuffles the discard pile, except its last `keep_back` cards, into a new draw pile.
    fn reshuffle(&mut self, keep_back: usize) {
        let split = self.discards.len().saturating_sub(keep_back);
        let mut cards: Vec<Card> = self.discards.drain(..split).collect();
        self.reshuffles += 1;
        self.seed.stream(&format!("tzq/round/{}/reshuffle/{}", self.round, self.reshuffles)).shuffle(&mut cards);
        // cards[0] is the new top.
        cards.reverse();
        cards.append(&mut self.pile);
        self.pile = cards;
        if keep_back == 0 {
            self.chowable.clear();
        }
    }

    /// Would laying this set, keeping `keep`, be the fifth set, and what would it score?
    fn fifth_set_score(&self, seat: Seat, keep: Card, pong: bool) -> Option<Score> {
        let kept = &self.kept[usize::from(seat)];
        if kept.len() + 1 < 5 {
            return None;
        }
        let mut five = kept.clone();
        five.push(keep);
        Some(score(&five, pong))
    }

    fn check_set(&self, seat: Seat, set: [Card; 3], keep: Card, pong: bool) -> Result<(), Violation> {
        if set.iter().filter(|c| c.is_sparrow()).count() > 1 {
            return Err(Violation::illegal(format!(
                "seat {seat} laid {}, which holds more than one Sparrow; a set may hold at most one",
                set_text(&set)
            )));
        }
        if !is_set(set) {
            return Err(Violation::illegal(format!(
                "seat {seat} laid {}, which is not a set (three identical cards or three consecutive numbers)",
                set_text(&set)
            )));
        }
        if !set.contains(&keep) {
            return Err(Violation::illegal(format!(
                "seat {seat} keeps {keep} as a scoring card, but it is not one of the set {}",
                set_text(&set)
            )));
        }
        if let Some(s) = self.fifth_set_score(seat, keep, pong) {
            if s.total() < self.rules.min_points {
                return Err(Violation::illegal(format!(
                    "seat {seat} would declare MahJong with {} points ({s}); this ruleset needs at least {}",
                    s.total(),
                    self.rules.min_points
                )));
            }
        }
        Ok(())
    }

    fn lay_set(&mut self, seat: Seat, set: [Card; 3], keep: Card, pong: bool) {
        let s = usize::from(seat);
        self.kept[s].push(keep);
        let mut rest = set.to_vec();
        if let Some(i) = rest.iter().position(|&c| c == keep) {
            rest.remove(i);
        }
        // The other two go onto the discard pile in ascending card-code order.
        rest.sort();
        if self.kept[s].len() == 5 {
            self.turns += 1;
            self.discards.extend_from_slice(&rest);
            let sc = score(&self.kept[s], pong);
            let mut deltas = vec![0, 0];
            deltas[s] = sc.total();
            let kept = self.kept[s].iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
            let mut facts = vec![
                Fact::seat(seat, FactKind::Win, 1),
                Fact::seat(seat, FactKind::Points, sc.total()),
                Fact::seat(seat, if pong { FactKind::WinByPong } else { FactKind::WinByChow }, 1),
            ];
            facts.extend(sc.items.iter().map(|(c, p)| Fact::seat(seat, FactKind::Category(*c), *p)));
            self.end_round(deltas, format!("seat {seat} declares MahJong with {kept}: {sc}"), facts);
            return;
        }
        self.discards.extend_from_slice(&rest);
        self.chowable = rest;
        // Refill the hand to five.
        while self.hands[s].len() < 5 {
            if self.pile.is_empty() {
                if !self.may_reshuffle() {
                    break;
                }
                self.reshuffle(2);
                if self.pile.is_empty() {
                    break;
                }
            }
            if let Some(c) = self.pile.pop() {
                self.hands[s].push(c);
            }
        }
        // The refill took the last card: the next player still needs a pile to draw from.
        if self.pile.is_empty() && self.may_reshuffle() {
            self.reshuffle(2);
        }
        self.end_turn();
    }

    fn end_turn(&mut self) {
        self.turns += 1;
        // With reshuffling the pile is only empty here if every other card is held or kept, or
        // it was rebuilt as often as a round allows.
        if self.pile.is_empty() {
            let why = if self.reshuffles >= MAX_RESHUFFLES && !self.rules.drawn_on_exhaustion {
                format!("the round is drawn: the draw pile ran out after {MAX_RESHUFFLES} rebuilds")
            } else {
                "the round is drawn: the draw pile ran out".to_owned()
            };
            self.end_round(vec![0, 0], why, vec![Fact::table(FactKind::Drawn, 1)]);
            return;
        }
        self.turn = 1 - self.turn;
        self.phase = Phase::Start;
    }

    fn end_round(&mut self, deltas: Vec<i64>, summary: String, mut facts: Vec<Fact>) {
        for (s, d) in deltas.iter().enumerate() {
            self.scores[s] += d;
        }
        facts.push(Fact::table(FactKind::Turns, i64::from(self.turns)));
        facts.push(Fact::table(FactKind::Reshuffles, i64::from(self.reshuffles)));
        self.results.push(RoundResult { round: self.round, deltas, summary, facts });
        let over = if self.rules.target > 0 {
            self.scores.iter().any(|&s| s >= self.rules.target)
        } else {
            self.round >= self.rules.rounds
        };
        if over {
            self.phase = Phase::Over;
        } else {
            self.round += 1;
            self.start_round();
        }
    }
}

impl Tzq {
    /// The safe action among `legal` (docs/rules/tzq.md).
    fn safe_of(&self, legal: &[Action]) -> Option<Action> {
        let want = match self.phase {
            Phase::Start => Some(Action::Draw),
            Phase::Drawn(c) => Some(Action::Discard(c)),
            Phase::Over => None,
        };
        want.filter(|w| legal.contains(w))
            .or_else(|| legal.iter().find(|a| matches!(a, Action::Discard(_))).cloned())
            .or_else(|| legal.first().cloned())
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        if !self.to_act().contains(seat) {
            return out;
        }
        let hand = &self.hands[usize::from(seat)];
        let push = |a: Action, out: &mut Vec<Action>| {
            if !out.contains(&a) {
                out.push(a);
            }
        };
        match self.phase {
            Phase::Over => {}
            Phase::Start => {
                if !self.pile.is_empty() {
                    out.push(Action::Draw);
                }
                for &take in self.chowable.iter().filter(|c| !c.is_sparrow()) {
                    for i in 0..hand.len() {
                        for j in i + 1..hand.len() {
                            let set = [hand[i], hand[j], take];
                            for keep in set {
                                if self.check_set(seat, set, keep, false).is_ok() {
                                    push(Action::chow([hand[i], hand[j]], take, keep), &mut out);
                                }
                            }
                        }
                    }
                }
            }
            Phase::Drawn(_) => {
                for &c in hand {
                    push(Action::Discard(c), &mut out);
                }
                for i in 0..hand.len() {
                    for j in i + 1..hand.len() {
                        for k in j + 1..hand.len() {
                            let set = [hand[i], hand[j], hand[k]];
                            for keep in set {
                                if self.check_set(seat, set, keep, true).is_ok() {
                                    push(Action::pong(set, keep), &mut out);
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn check_move(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        if !self.to_act().contains(seat) {
            return Err(Violation::new(
                crate::ErrorCode::NotYourTurn,
                format!("seat {seat} does not owe a decision now"),
            ));
        }
        if !action.is_canonical() {
            return Err(Violation::illegal(format!("{action}: the cards of a set are written in ascending order")));
        }
        let hand = &self.hands[usize::from(seat & 1)];
        match (self.phase, action) {
            (Phase::Over, _) => Err(Violation::illegal("the match is over")),
            (Phase::Start, Action::Draw) => {
                if self.pile.is_empty() {
                    Err(Violation::illegal(format!("seat {seat} draws, but the draw pile is empty")))
                } else {
                    Ok(())
                }
            }
            (Phase::Start, Action::Chow { hand: h, take, keep }) => {
                if take.is_sparrow() {
                    return Err(Violation::illegal(format!(
                        "seat {seat} takes a discarded Sparrow; a discarded Sparrow can never be taken"
                    )));
                }
                if !self.chowable.contains(take) {
                    let last = if self.chowable.is_empty() {
                        "nothing on the last turn".to_owned()
                    } else {
                        set_text(&self.chowable)
                    };
                    return Err(Violation::illegal(format!(
                        "seat {seat} chows {take}, which is not one of the cards the opponent discarded on their last turn ({last})"
                    )));
                }
                if !holds(hand, h) {
                    return Err(Violation::illegal(format!(
                        "seat {seat} lays {} from the hand, but holds {}",
                        set_text(h),
                        set_text(hand)
                    )));
                }
                self.check_set(seat, [h[0], h[1], *take], *keep, false)
            }
            (Phase::Start, other) => {
                Err(Violation::illegal(format!("seat {seat} must first draw or chow; {other} needs a drawn card")))
            }
            (Phase::Drawn(_), Action::Discard(c)) => {
                if hand.contains(c) {
                    Ok(())
                } else {
                    Err(Violation::illegal(format!("seat {seat} discards {c}, but holds {}", set_text(hand))))
                }
            }
            (Phase::Drawn(_), Action::Pong { cards, keep }) => {
                if !holds(hand, cards) {
                    return Err(Violation::illegal(format!(
                        "seat {seat} lays {} from the hand, but holds {}",
                        set_text(cards),
                        set_text(hand)
                    )));
                }
                self.check_set(seat, *cards, *keep, true)
            }
            (Phase::Drawn(_), Action::Draw) => Err(Violation::illegal(format!("seat {seat} draws twice in one turn"))),
            (Phase::Drawn(_), Action::Chow { .. }) => Err(Violation::illegal(format!(
                "seat {seat} chows after drawing; a turn is one action: draw then discard, draw then Pong, or Chow"
            ))),
            (_, Action::Incident(i)) => Err(Violation::illegal(format!("{i} is checked apart from the moves"))),
        }
    }

    fn apply_move(&mut self, seat: Seat, action: &Action) {
        let s = usize::from(seat & 1);
        match action {
            Action::Draw => {
                if let Some(c) = self.pile.pop() {
                    self.hands[s].push(c);
                    self.phase = Phase::Drawn(c);
                }
                if self.pile.is_empty() && self.may_reshuffle() {
                    self.reshuffle(0);
                }
            }
            Action::Discard(c) => {
                take_all(&mut self.hands[s], &[*c]);
                self.discards.push(*c);
                self.chowable = vec![*c];
                self.end_turn();
            }
            Action::Pong { cards, keep } => {
                take_all(&mut self.hands[s], cards);
                self.lay_set(seat, *cards, *keep, true);
            }
            Action::Chow { hand, take, keep } => {
                take_all(&mut self.hands[s], hand);
                if let Some(i) = self.discards.iter().rposition(|c| c == take) {
                    self.discards.remove(i);
                }
                self.chowable.clear();
                self.lay_set(seat, [hand[0], hand[1], *take], *keep, false);
            }
            Action::Incident(_) => {}
        }
    }
}

impl Game for Tzq {
    type Action = Action;
    type Rules = Rules;
    type View = View;
    type Fact = FactKind;
    const KIND: GameKind = GameKind::Tzq;
    const SEATS: std::ops::RangeInclusive<usize> = 2..=2;
    const MAX_RECORDS: u32 = 20_000;

    fn rules(ruleset: &str, options: &Options) -> Result<Rules, SetupError> {
        let mut r = Rules::named(ruleset)
            .ok_or_else(|| SetupError(format!("unknown tzq ruleset {ruleset:?}; known: {}", RULESETS.join(", "))))?;
        for (k, v) in options {
            match (k.as_str(), v) {
                ("min_points", v) => r.min_points = v.as_int(GameKind::Tzq, k)?,
                ("target", v) => r.target = v.as_int(GameKind::Tzq, k)?,
                ("rounds", v) => {
                    let n = v.as_int(GameKind::Tzq, k)?;
                    r.rounds = u32::try_from(n)
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| SetupError(format!("tzq option rounds must be at least 1, not {n}")))?;
                }
                ("drawn_on_exhaustion", OptValue::Bool(b)) => r.drawn_on_exhaustion = *b,
                ("drawn_on_exhaustion", other) => {
                    return Err(SetupError(format!("tzq option drawn_on_exhaustion takes true or false, not {other}")))
                }
                (other, _) => {
                    return Err(SetupError(format!(
                        "unknown tzq option {other:?}; known: min_points, drawn_on_exhaustion, rounds, target"
                    )))
                }
            }
        }
        if r.target < 0 || r.min_points < 0 {
            return Err(SetupError("tzq options min_points and target cannot be negative".into()));
        }
        Ok(r)
    }

    fn options(rules: &Rules) -> Options {
        let mut o = Options::new();
        o.insert("min_points".into(), OptValue::Int(rules.min_points));
        o.insert("drawn_on_exhaustion".into(), OptValue::Bool(rules.drawn_on_exhaustion));
        o.insert("rounds".into(), OptValue::Int(i64::from(rules.rounds)));
        o.insert("target".into(), OptValue::Int(rules.target));
        o
    }

    fn new(rules: Rules, seats: usize, seed: Option<&Seed>) -> Result<Tzq, SetupError> {
        let Some(seed) = seed else {
            return Err(SetupError("Tien Zi Que logs are replayed from their seed; this one has none".into()));
        };
        if seats != 2 {
            return Err(SetupError(format!("Tien Zi Que is a game for 2 players, not {seats}")));
        }
        let deck = standard_deck().map_err(|e| SetupError(e.to_string()))?;
        let first = seed.stream("tzq/first").below(2) as Seat;
        let mut g = Tzq {
            rules,
            seed: *seed,
            deck,
            round: 1,
            first,
            scores: [0, 0],
            results: Vec::new(),
            pile: Vec::new(),
            discards: Vec::new(),
            chowable: Vec::new(),
            hands: [Vec::new(), Vec::new()],
            kept: [Vec::new(), Vec::new()],
            turn: first,
            phase: Phase::Start,
            reshuffles: 0,
            turns: 0,
            incidents: Incidents::default(),
            length: Default::default(),
        };
        g.start_round();
        Ok(g)
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn to_act(&self) -> SeatSet {
        match self.phase {
            Phase::Over => SeatSet::EMPTY,
            _ => SeatSet::single(self.turn),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.incidents.narrow(seat, self.legal_moves(seat), |legal| self.safe_of(legal))
    }

    /// The drawn card discarded; at the start of a turn, the draw (the first chow when the pile
    /// is empty).
    fn safe_action(&self, seat: Seat) -> Option<Action> {
        self.safe_of(&self.legal_moves(seat))
    }

    fn check(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        if self.incidents.screen("tzq", seat, action.incident(), action, || self.safe_action(seat))? {
            return Ok(());
        }
        self.check_move(seat, action)
    }

    fn apply(&mut self, seat: Seat, action: &Action) {
        let before = self.results.len();
        match action {
            Action::Incident(i) => self.incidents.record(seat, i),
            _ => {
                self.incidents.acted(seat);
                self.apply_move(seat, action);
            }
        }
        close_round(&mut self.results, before, &mut self.incidents, FactKind::Incident);
        if self.length.count(Self::MAX_RECORDS) && !self.is_over() {
            self.phase = Phase::Over;
        }
    }

    /// By score; a seat that forfeited after the other.
    fn placements(&self) -> Vec<u32> {
        self.incidents.places(placements_by_score(&self.scores()))
    }

    fn round(&self) -> u32 {
        self.round
    }

    fn results(&self) -> &[RoundResult] {
        &self.results
    }

    fn into_results(self) -> Vec<RoundResult> {
        self.results
    }

    fn scores(&self) -> Vec<i64> {
        self.scores.to_vec()
    }

    fn view(&self) -> View {
        self.make_view()
    }

    fn seat_view(&self, seat: Seat) -> View {
        self.make_seat_view(seat)
    }

    fn render(&self) -> String {
        let mut o = String::new();
        let total = if self.rules.target > 0 {
            format!("to {} points", self.rules.target)
        } else {
            format!("of {}", self.rules.rounds)
        };
        let status = match self.phase {
            Phase::Over => "the match is over".to_owned(),
            Phase::Start => format!("seat {} to draw or chow", self.turn),
            Phase::Drawn(c) => format!("seat {} drew {c}, to discard or Pong", self.turn),
        };
        let _ = writeln!(o, "Round {} {total}: {status}", self.round);
        let _ = writeln!(o, "Scores: seat 0 {}, seat 1 {}", self.scores[0], self.scores[1]);
        for s in 0..2 {
            let _ = writeln!(
                o,
                "Seat {s}: hand [{}]  scoring cards [{}]",
                set_text(&self.hands[s]).replace('-', " "),
                set_text(&self.kept[s]).replace('-', " ")
            );
        }
        let top: Vec<String> = self.pile.iter().rev().take(5).map(|c| c.to_string()).collect();
        let _ = writeln!(o, "Draw pile: {} cards, next {}", self.pile.len(), top.join(" "));
        let _ = writeln!(
            o,
            "Discard pile: {} cards; may be chowed: [{}]",
            self.discards.len(),
            set_text(&self.chowable).replace('-', " ")
        );
        o
    }
}

#[cfg(test)]
mod tests;
