//! Hungarian four-player mahjong, after Herger Emil's rules of 1925: seed
//! 001_bd4df34c4e188712.txt with RULINGS.md (see docs/rules/hungarian.md). A ruleset on the
//! shared mahjong layer ([`crate::mahjong`]: tiles and flowers, the wall with its loose tiles and
//! dead wall, melds, claim windows, hand shapes).
//!
//! - `table.rs`: the figure table, premiums, doublings and limit bonuses, read from
//!   core/data/hungarian-figures.txt and core/data/hungarian-limits.txt.
//! - `rules.rs`: the options ([`Rules`]).
//! - `score.rs`: scoring every player's finished hand and settling it, pure functions on tile
//!   counts.
//! - `score_line.rs`: `paifu score hungarian`, the referee's check of one hand.
//! - `action.rs`: the actions and their notation.
//! - `ritual.rs`: seating, the wall's ring, the break, the deal.
//! - `engine.rs`: the match and the hand's state, dealing and drawing (flowers replaced), the
//!   match's progress; `play.rs`: turns and claims; `end.rs`: a hand's end, scored and settled.
//! - `view.rs`, `facts.rs`: what viewers and statistics read.

mod action;
mod end;
mod engine;
mod facts;
mod play;
mod ritual;
mod rules;
pub mod score;
mod score_line;
pub mod table;
mod view;

pub use action::Action;
pub use engine::Hungarian;
pub use facts::FactKind;
pub use ritual::{Break, Seating as SeatingDraw};
pub use rules::{HonoursIn, Length, Rules, Seating};
pub use score_line::score_line;
pub use view::{
    BreakView, ClaimView, DiscardView, HandScoreView, LineView, MeldView, PlayerView, SeatingView, SettlementView, View,
};

use crate::error::{ErrorCode, Violation};
use crate::game::close_round;
use crate::log::Action as _;
use crate::log::Options;
use crate::random::Seed;
use crate::{placements_by_score, Game, GameKind, RoundResult, Seat, SeatSet, SetupError};

impl Game for Hungarian {
    type Action = Action;
    type Rules = Rules;
    type View = View;
    type Fact = FactKind;
    const KIND: GameKind = GameKind::Hungarian;
    const SEATS: std::ops::RangeInclusive<usize> = 4..=4;
    const MAX_RECORDS: u32 = 500_000;

    fn rules(ruleset: &str, options: &Options) -> Result<Rules, SetupError> {
        Rules::from_options(ruleset, options)
    }

    fn options(rules: &Rules) -> Options {
        rules.to_options()
    }

    fn new(rules: Rules, seats: usize, seed: Option<&Seed>) -> Result<Hungarian, SetupError> {
        if seats != 4 {
            return Err(SetupError(format!("Hungarian mahjong is played by 4 players, not {seats}")));
        }
        let Some(seed) = seed else {
            return Err(SetupError(
                "Hungarian mahjong replays only seeded games (no importer records its tiles)".into(),
            ));
        };
        Hungarian::new_match(rules, seed)
    }

    fn seat_count(&self) -> usize {
        4
    }

    fn to_act(&self) -> SeatSet {
        self.to_act_set()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if seat > 3 || !self.to_act_set().contains(seat) {
            return Vec::new();
        }
        self.incidents.narrow(seat, self.legal(self.chair_of(seat)), |legal| self.safe_of(seat, legal))
    }

    fn safe_action(&self, seat: Seat) -> Option<Action> {
        if seat > 3 || !self.to_act_set().contains(seat) {
            return None;
        }
        self.safe_of(seat, &self.legal(self.chair_of(seat)))
    }

    /// A pass on a claim, and a host incident in a claim window.
    fn hidden_from_others(&self, _seat: Seat, action: &Action) -> bool {
        crate::game::hidden_in_window(
            matches!(self.phase, engine::Phase::Claims { .. }),
            action,
            matches!(action, Action::Pass),
        )
    }

    fn check(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        if self.incidents.screen("hungarian", seat, action.incident(), action, || self.safe_action(seat))? {
            return Ok(());
        }
        self.check_action(seat, action)
    }

    /// As the trait's, but a move of a seat that owes nothing now says which rule it breaks
    /// when one does: a claim after the next draw, a chow from across the table, a discard added
    /// to a laid-out pong.
    fn validate(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        if seat > 3 {
            return Err(Violation::new(
                ErrorCode::NotYourTurn,
                format!("seat {seat} does not exist at this 4-seat table"),
            ));
        }
        if !self.to_act_set().contains(seat) {
            return Err(self.refusal(seat, action).unwrap_or_else(|| self.not_owed(seat)));
        }
        self.check(seat, action)
    }

    fn apply(&mut self, seat: Seat, action: &Action) {
        let before = self.results.len();
        match action {
            Action::Incident(i) => {
                self.incidents.record(seat, i);
            }
            _ => {
                self.incidents.acted(seat);
                self.apply_action(seat, action);
            }
        }
        close_round(&mut self.results, before, &mut self.incidents, FactKind::Incident);
        if self.length.count(Self::MAX_RECORDS) && !self.is_over() {
            self.phase = engine::Phase::Over;
        }
    }

    /// By score; a seat that forfeited after every other.
    fn placements(&self) -> Vec<u32> {
        self.incidents.places(placements_by_score(&self.scores()))
    }

    fn round(&self) -> u32 {
        self.results.len() as u32 + u32::from(!self.to_act_set().is_empty())
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

    fn render(&self) -> String {
        self.render_text()
    }

    fn view(&self) -> View {
        self.make_view()
    }

    fn seat_view(&self, seat: Seat) -> View {
        self.make_seat_view(seat)
    }
}

impl Hungarian {
    /// The safe action among `legal`: the drawn tile discarded (after a claim, the first legal
    /// discard), a claim passed.
    fn safe_of(&self, _seat: Seat, legal: &[Action]) -> Option<Action> {
        let want = match &self.phase {
            engine::Phase::Turn { drawn, .. } => drawn.map(Action::Discard),
            engine::Phase::Claims { .. } => Some(Action::Pass),
            engine::Phase::Over => return None,
        };
        want.filter(|w| legal.contains(w))
            .or_else(|| legal.iter().find(|a| matches!(a, Action::Discard(_))).cloned())
            .or_else(|| legal.first().cloned())
    }

    pub fn rules_in_force(&self) -> &Rules {
        &self.rules
    }

    /// How the players sat down.
    pub fn seating(&self) -> &SeatingDraw {
        &self.seating
    }

    /// A seat's concealed tiles, by kind.
    pub fn hand(&self, seat: Seat) -> &crate::mahjong::Counts {
        &self.hand.players[usize::from(self.chair_of(seat & 3))].hand
    }

    /// A seat's laid-out sets.
    pub fn melds(&self, seat: Seat) -> &[crate::mahjong::Meld] {
        &self.hand.players[usize::from(self.chair_of(seat & 3))].melds
    }

    /// A seat's flowers and seasons laid aside.
    pub fn flowers(&self, seat: Seat) -> &[crate::mahjong::Flower] {
        &self.hand.players[usize::from(self.chair_of(seat & 3))].flowers
    }

    /// A seat's wind this hand: 0 East .. 3 North.
    pub fn wind(&self, seat: Seat) -> u8 {
        self.wind_of(self.chair_of(seat & 3))
    }

    /// East's seat this hand.
    pub fn east(&self) -> Seat {
        self.seat_of(self.east)
    }

    /// The seat to the right of `seat` (the next in turn).
    pub fn next_seat(&self, seat: Seat) -> Seat {
        self.seat_of((self.chair_of(seat & 3) + 1) % 4)
    }

    /// The discard that may be claimed now, and whose it is.
    pub fn claim_window(&self) -> Option<(Seat, crate::mahjong::Tile)> {
        match &self.phase {
            engine::Phase::Claims { from, tile, .. } => Some((self.seat_of(*from), *tile)),
            _ => None,
        }
    }

    /// The tile the seat on turn has just drawn.
    pub fn drawn(&self) -> Option<crate::mahjong::Tile> {
        match &self.phase {
            engine::Phase::Turn { drawn, .. } => *drawn,
            _ => None,
        }
    }

    /// Tiles left to draw from the live wall.
    pub fn wall_left(&self) -> usize {
        self.hand.wall.left()
    }

    /// The hand's number in the match (void hands count).
    pub fn hand_number(&self) -> u32 {
        self.hand_no
    }
}

#[cfg(test)]
mod play_tests;
#[cfg(test)]
mod tests;
