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
pub use score_line::score_line;
pub use view::{ClaimView, FanView, MeldView, PlayerView, View, WinView};

use crate::error::Violation;
use crate::log::Options;
use crate::random::Seed;
use crate::{Game, GameKind, RoundResult, Seat, SeatSet, SetupError};

impl Game for Mcr {
    type Action = Action;
    type Rules = Rules;
    type View = View;
    type Fact = FactKind;
    const KIND: GameKind = GameKind::Mcr;
    const SEATS: std::ops::RangeInclusive<usize> = 4..=4;

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
        self.legal(seat)
    }

    fn check(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        self.check_action(seat, action)
    }

    fn apply(&mut self, seat: Seat, action: &Action) {
        self.apply_action(seat, action)
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
