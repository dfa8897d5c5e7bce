//! How a hand ended, as the engine keeps it for the viewer: every player's hand with its score
//! and payment (made in `end.rs`, shown by `view.rs`).

use super::score::Scored;
use crate::mahjong::{Flower, Meld, Tile};
use crate::Seat;

/// One player's hand at the end, as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Shown {
    pub(super) seat: Seat,
    pub(super) wind: u8,
    pub(super) hand: Vec<Tile>,
    pub(super) melds: Vec<Meld>,
    pub(super) flowers: Vec<Flower>,
    pub(super) scored: Scored,
    pub(super) delta: i64,
}

/// How a hand ended: its number, the winner (none for a void hand), the winning tile and where
/// it came from, and every player's hand with its score and payment, by seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Settled {
    pub(super) hand_no: u32,
    pub(super) winner: Option<Seat>,
    pub(super) tile: Option<Tile>,
    /// The seat whose discard was robbed for the win.
    pub(super) robbed_from: Option<Seat>,
    pub(super) heavenly: bool,
    pub(super) players: Vec<Shown>,
}
