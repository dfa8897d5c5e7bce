//! What a viewer is shown of a Tien Zi Que position: both hands, the scoring cards kept, the
//! piles; every card as its notation.

use super::{Card, Phase, Tzq};
use crate::{Game, Seat};
use serde::Serialize;
use serde_with::{serde_as, DisplayFromStr};

/// A TZQ position.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub round: u32,
    pub scores: Vec<i64>,
    pub to_act: Vec<Seat>,
    /// The seat whose turn it is.
    pub turn: Seat,
    /// The card the seat to act has drawn this turn.
    #[serde_as(as = "Option<DisplayFromStr>")]
    pub drawn: Option<Card>,
    pub over: bool,
    pub seats: Vec<SeatView>,
    /// Cards left in the draw pile.
    pub pile: usize,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub discards: Vec<Card>,
    /// The cards the seat to act may chow.
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub chowable: Vec<Card>,
    /// The engine's text render of the position.
    pub text: String,
}

/// One seat of a TZQ position.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    /// The player's name, when the viewer knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub score: i64,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub hand: Vec<Card>,
    /// The scoring cards kept this round.
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub kept: Vec<Card>,
    pub to_act: bool,
}

impl View {
    /// Gives the seats their names, in seat order.
    pub fn name_seats(&mut self, names: &[String]) {
        for (seat, name) in self.seats.iter_mut().zip(names) {
            seat.name = Some(name.clone());
        }
    }
}

impl Tzq {
    pub(super) fn make_view(&self) -> View {
        let to_act = self.to_act();
        View {
            round: self.round,
            scores: self.scores.to_vec(),
            to_act: to_act.iter().collect(),
            turn: self.turn,
            drawn: self.drawn(),
            over: self.phase == Phase::Over,
            seats: (0..2u8)
                .map(|s| SeatView {
                    name: None,
                    score: self.scores[usize::from(s)],
                    hand: self.hand(s).to_vec(),
                    kept: self.kept(s).to_vec(),
                    to_act: to_act.contains(s),
                })
                .collect(),
            pile: self.pile.len(),
            discards: self.discards.clone(),
            chowable: self.chowable.clone(),
            text: self.render(),
        }
    }
}
