//! Chinese Official mahjong (the Mahjong Competition Rules, MCR): the Chinese part of seed 003
//! completed as the official rules per RULINGS.md (see docs/rules/mcr.md). A ruleset on the
//! shared mahjong layer (`crate::mahjong`: tiles and flowers, hand shapes, walls, melds, claim
//! windows).
//!
//! - `fans.rs`: the 81 fan ([`Fan`]) and their table (`core/data/mcr-fans.txt`).
//! - `score.rs`: the fan calculator ([`score`]): every reading of a hand, the principles, the
//!   best reading; `score_line.rs`: `paifu score mcr`'s JSON Lines contract ([`score_line`]).
//! - `rules.rs`: the options; `action.rs`: the actions and their notation.
//! - `engine.rs`: the match (seats and rounds), the wall, deal and flowers, turns, claims,
//!   kongs, settlement; `view.rs`, `facts.rs`: what viewers and statistics see.

// Seats and kinds index several arrays at once.
#![allow(clippy::needless_range_loop)]

mod action;
mod engine;
mod facts;
mod fans;
mod rules;
mod score;
mod score_line;
mod view;

pub use action::Action;
pub use engine::Mcr;
pub use facts::FactKind;
pub use fans::{Fan, FanInfo, FanSet, TableError};
pub use rules::{Rules, WallKind};
pub use score::{score, Score, ScoreError, ScoreRules, Situation, WinHand, MINIMUM};
pub use score_line::{score_line, score_line_into};
pub use view::{ClaimView, FanView, MeldView, PlayerView, View, WinView};

use crate::error::Violation;
use crate::game::close_round;
use crate::log::Action as _;
use crate::log::Options;
use crate::random::Seed;
use crate::{placements_by_score, Game, GameKind, RoundResult, Seat, SeatSet, SetupError};

impl Game for Mcr {
    type Action = Action;
    type Rules = Rules;
    type View = View;
    type Fact = FactKind;
    const KIND: GameKind = GameKind::Mcr;
    const SEATS: std::ops::RangeInclusive<usize> = 4..=4;
    const MAX_RECORDS: u32 = 100_000;

    fn rules(ruleset: &str, options: &Options) -> Result<Rules, SetupError> {
        Rules::from_options(ruleset, options)
    }

    fn options(rules: &Rules) -> Options {
        rules.to_options()
    }

    fn new(rules: Rules, seats: usize, seed: Option<&Seed>) -> Result<Mcr, SetupError> {
        if seats != 4 {
            return Err(SetupError(format!("Chinese Official mahjong is played by 4 players, not {seats}")));
        }
        Mcr::new_game(rules, seed)
    }

    fn seat_count(&self) -> usize {
        4
    }

    fn to_act(&self) -> SeatSet {
        self.to_act_set()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if !self.to_act_set().contains(seat) {
            return Vec::new();
        }
        self.incidents.narrow(seat, self.legal(seat), |legal| self.safe_of(seat, legal))
    }

    fn safe_action(&self, seat: Seat) -> Option<Action> {
        if !self.to_act_set().contains(seat) {
            return None;
        }
        self.safe_of(seat, &self.legal(seat))
    }

    /// A pass on a claim, and a host incident in a claim window.
    fn hidden_from_others(&self, _seat: Seat, action: &Action) -> bool {
        crate::game::hidden_in_window(
            matches!(self.phase, engine::Phase::Claims { .. } | engine::Phase::Rob { .. }),
            action,
            matches!(action, Action::Pass),
        )
    }

    fn check(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        if self.incidents.screen("mcr", seat, action.incident(), action, || self.safe_action(seat))? {
            return self.check_false_win(seat, action);
        }
        self.check_action(seat, action)
    }

    fn apply(&mut self, seat: Seat, action: &Action) {
        let before = self.results.len();
        match action {
            Action::Incident(i) => {
                self.incidents.record(seat, i);
                self.false_win(seat, i);
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

impl Mcr {
    /// The safe action among `legal`: the drawn tile discarded (after a claim, the first legal
    /// discard), a claim or a robbing passed; none while a chance record is due.
    fn safe_of(&self, _seat: Seat, legal: &[Action]) -> Option<Action> {
        let want = match &self.phase {
            engine::Phase::Turn { drawn, .. } => drawn.map(Action::Discard),
            engine::Phase::Claims { .. } | engine::Phase::Rob { .. } => Some(Action::Pass),
            engine::Phase::Deal { .. } | engine::Phase::Draw { .. } | engine::Phase::Over => return None,
        };
        want.filter(|w| legal.contains(w))
            .or_else(|| legal.iter().find(|a| matches!(a, Action::Discard(_))).cloned())
            .or_else(|| legal.first().cloned())
    }

    /// A false declaration of a win may be recorded at any decision the seat owes.
    fn check_false_win(&self, _seat: Seat, _action: &Action) -> Result<(), Violation> {
        Ok(())
    }

    /// A false declaration of a win: the seat pays each other player the rules' penalty
    /// (`false_win`, 10 by default), and play goes on as if nothing had been declared.
    fn false_win(&mut self, seat: Seat, incident: &crate::Incident) {
        if incident.kind != crate::IncidentKind::FalseWin {
            return;
        }
        let p = self.rules.false_win;
        let deltas: [i64; 4] = std::array::from_fn(|s| if s == usize::from(seat) { -3 * p } else { p });
        for (score, d) in self.scores.iter_mut().zip(deltas) {
            *score += d;
        }
        self.incidents.charge(&deltas);
    }

    pub fn rules_in_force(&self) -> &Rules {
        &self.rules
    }
    /// A seat's concealed tiles.
    pub fn hand(&self, seat: Seat) -> &[crate::mahjong::Tile] {
        &self.players[usize::from(seat & 3)].hand
    }
    pub fn melds(&self, seat: Seat) -> &[crate::mahjong::Meld] {
        &self.players[usize::from(seat & 3)].melds
    }
    /// A seat's wind this hand, 0 East .. 3 North.
    pub fn wind_of(&self, seat: Seat) -> u8 {
        self.seat_wind(seat)
    }
    /// The prevalent wind, 0 East .. 3 North.
    pub fn prevalent_wind(&self) -> u8 {
        self.round_wind()
    }
    /// The hand of the match being played, 1-based.
    pub fn hand_number(&self) -> u32 {
        self.hand_no + 1
    }
}

#[cfg(test)]
mod score_tests;
#[cfg(test)]
mod tests;
