//! Riichi mahjong: the Japanese part of seed 003 with RULINGS.md (see docs/rules/riichi.md).
//! Defaults are Tenhou's ranked rules. Riichi's own rules on the shared table of
//! [`mahjong`](crate::mahjong) (tiles, hand shapes, melds, the wall, claim windows):
//!
//! - `mod.rs`: the [`Game`] implementation and what a position tells (hands, rivers, the wall).
//! - `engine/`: the match, by concern (its module documentation lists the files).
//! - `action.rs`: [`Action`] and its notation; `rules.rs`: [`Rules`], the options and rulesets.
//! - `score.rs` and `score/`: yaku, fu, limits, payments ([`score()`]); `score_line.rs`: the JSON
//!   calculator behind `paifu score riichi`.
//! - `facts.rs`: the facts a round result carries; `view.rs`: what a viewer sees.
//! - `setup.rs`: hand-built positions; `tests.rs`: the engine's tests on them.

#![allow(clippy::needless_range_loop)]

mod action;
mod engine;
mod facts;
mod rules;
mod score;
mod score_line;
mod setup;
mod view;

pub use action::Action;
#[cfg(test)]
pub(crate) use action::NOTATION_EXAMPLES;
pub use engine::{Riichi, River};
pub use facts::{Abort, FactKind};
pub use rules::{Chombo, ExcerptStart, Renhou, Rules};
pub use score::{score, Limit, Payment, Score, ScoreError, Situation, WinHand, Yaku};
pub use score_line::{score_line, score_line_into};
pub use setup::{SeatSetup, Setup, SetupPhase};
pub use view::{
    ClaimView, DiscardView, HandEnd, HandEndKind, MeldView, PlayerView, ShownHand, Transfer, View, WinView, YakuLine,
};

use crate::error::Violation;
use crate::game::close_round;
use crate::log::Action as _;
use crate::log::Options;
use crate::mahjong::{Meld, Tile};
use crate::random::Seed;
use crate::{Game, GameKind, RoundResult, Seat, SeatSet, SetupError};
use engine::Phase;

impl Game for Riichi {
    type Action = Action;
    type Rules = Rules;
    type View = View;
    type Fact = FactKind;
    const KIND: GameKind = GameKind::Riichi;
    const SEATS: std::ops::RangeInclusive<usize> = 4..=4;
    const MAX_RECORDS: u32 = 100_000;

    fn rules(ruleset: &str, options: &Options) -> Result<Rules, SetupError> {
        Rules::from_options(ruleset, options)
    }

    fn options(rules: &Rules) -> Options {
        rules.to_options()
    }

    fn new(rules: Rules, seats: usize, seed: Option<&Seed>) -> Result<Riichi, SetupError> {
        if seats != 4 {
            return Err(SetupError(format!("riichi mahjong is played by 4 players, not {seats}")));
        }
        Riichi::new_game(rules, seed)
    }

    fn seat_count(&self) -> usize {
        4
    }

    fn excerpt(&self) -> Option<crate::Excerpt> {
        self.excerpt_covered()
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
            matches!(self.phase, Phase::Claims { .. }),
            action,
            matches!(action, Action::Pass),
        )
    }

    fn check(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        if self.incidents.screen("riichi", seat, action.incident(), action, || self.safe_action(seat))? {
            return match action.incident() {
                Some(i) if i.kind == crate::IncidentKind::Chombo => self.check_chombo(seat),
                _ => Ok(()),
            };
        }
        self.check_action(seat, action)
    }

    fn apply(&mut self, seat: Seat, action: &Action) {
        let before = self.results.len();
        match action {
            Action::Incident(i) => {
                self.incidents.record(seat, i);
                if i.kind == crate::IncidentKind::Chombo {
                    self.chombo(seat);
                }
            }
            _ => {
                self.incidents.acted(seat);
                self.apply_action(seat, action);
            }
        }
        close_round(&mut self.results, before, &mut self.incidents, FactKind::Incident);
        if self.length.count(Self::MAX_RECORDS) && !self.is_over() {
            self.phase = Phase::Over;
        }
    }
    fn round(&self) -> u32 {
        self.results.len() as u32 + u32::from(!self.is_over_now())
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

    /// Ties are broken by seat order (the seat nearer the first dealer ranks higher).
    /// A seat that forfeited is placed after every other.
    fn placements(&self) -> Vec<u32> {
        let mut places = vec![0; 4];
        for (place, seat) in self.ranking().into_iter().enumerate() {
            places[seat] = place as u32 + 1;
        }
        self.incidents.places(places)
    }
}

impl Riichi {
    /// The safe action among `legal`: the drawn tile discarded (tsumogiri; after a call, the
    /// first legal discard), a claim passed; none while a chance record of an imported game is
    /// due.
    fn safe_of(&self, _seat: Seat, legal: &[Action]) -> Option<Action> {
        let want = match &self.phase {
            Phase::Turn { drawn, .. } => drawn.map(Action::tsumogiri),
            Phase::Claims { .. } => Some(Action::Pass),
            Phase::Deal { .. } | Phase::Draw { .. } | Phase::Over => return None,
        };
        want.filter(|w| legal.contains(w))
            .or_else(|| legal.iter().find(|a| matches!(a, Action::Discard { riichi: false, .. })).cloned())
            .or_else(|| legal.first().cloned())
    }

    fn is_over_now(&self) -> bool {
        self.to_act_set().is_empty()
    }

    pub fn rules_in_force(&self) -> &Rules {
        &self.rules
    }

    /// A seat's concealed tiles.
    pub fn hand(&self, seat: Seat) -> &[Tile] {
        self.players[usize::from(seat & 3)].hand()
    }

    pub fn melds(&self, seat: Seat) -> &[Meld] {
        &self.players[usize::from(seat & 3)].melds
    }

    pub fn river(&self, seat: Seat) -> &[River] {
        &self.players[usize::from(seat & 3)].river
    }

    pub fn in_riichi(&self, seat: Seat) -> bool {
        self.players[usize::from(seat & 3)].riichi
    }

    pub fn honba(&self) -> u32 {
        self.honba
    }

    pub fn riichi_sticks(&self) -> u32 {
        self.sticks
    }

    /// The wind of the current round, 0 East .. 3 North.
    pub fn round_wind(&self) -> u8 {
        self.round_wind
    }

    /// The wins (seat and score) of the last round that ended in a win.
    pub fn last_wins(&self) -> &[(Seat, Score)] {
        &self.last_wins
    }

    /// The dealer's seat in the current hand (0 = the first dealer) and the hand's number:
    /// 0-3 East 1-4, 4-7 South 1-4, ...
    pub fn kyoku_index(&self) -> u32 {
        u32::from(self.round_wind) * 4 + u32::from(self.kyoku)
    }

    /// The tile the seat to act has just drawn, and whether from the dead wall.
    pub fn drawn_tile(&self) -> Option<(Seat, Tile, bool)> {
        match self.phase {
            Phase::Turn { seat, drawn: Some(t), rinshan, .. } => Some((seat, t, rinshan)),
            _ => None,
        }
    }

    /// The open claim window: the seat whose tile may be claimed, and the tile.
    pub fn claim_window(&self) -> Option<(Seat, Tile)> {
        match &self.phase {
            Phase::Claims { tile, window, .. } => Some((window.from(), *tile)),
            _ => None,
        }
    }

    /// Imported games: the seat that records a draw now, and whether from the dead wall.
    pub fn draw_pending(&self) -> Option<(Seat, bool)> {
        match self.phase {
            Phase::Draw { seat, rinshan } => Some((seat, rinshan)),
            _ => None,
        }
    }

    /// The ura indicators under the shown dora indicators.
    pub fn ura_shown(&self) -> Vec<Tile> {
        self.indicator_row(true)[..self.table.dora_shown.min(5)].to_vec()
    }
}

#[cfg(test)]
mod tests;
