//! What a viewer is shown of a Ta Yü position: the board with every piece and channel end, the
//! coasts' mouths and points, the stack, the pieces held, the bidding.

use super::board::Mouth;
use super::pieces::{Dir, Exit, Pattern};
use super::{Phase, Tayu};
use crate::{Game, Seat};
use serde::Serialize;
use serde_with::{serde_as, DisplayFromStr};

/// A Ta Yü position.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub round: u32,
    pub scores: Vec<i64>,
    pub to_act: Vec<Seat>,
    /// What the game waits for, in words.
    pub status: String,
    pub board: BoardView,
    /// The pieces on the board, in the order they were placed.
    pub pieces: Vec<PieceView>,
    /// Channel ends still open.
    pub open_ends: Vec<Exit>,
    /// Each coast's points and mouths.
    pub coasts: PerCoast<CoastView>,
    pub stack: Vec<StackColumn>,
    /// The stack columns a piece may be drawn from now.
    pub drawable: Vec<u8>,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub set_aside: Vec<Pattern>,
    pub seats: Vec<SeatView>,
    pub bids: Vec<Bid>,
    pub flood: Option<Flood>,
    pub over: bool,
    /// The engine's text render of the position.
    pub text: String,
}

/// The board's shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    pub size: u8,
    /// The centre square, `[row, col]`.
    pub centre: [u8; 2],
    /// Per coast, the special (2-point) positions along it.
    pub special: PerCoast<Vec<u8>>,
}

/// One value per coast, written in JSON as `{"N": .., "E": .., "S": .., "W": ..}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PerCoast<T> {
    #[serde(rename = "N")]
    pub north: T,
    #[serde(rename = "E")]
    pub east: T,
    #[serde(rename = "S")]
    pub south: T,
    #[serde(rename = "W")]
    pub west: T,
}

impl<T> PerCoast<T> {
    fn from_fn(mut f: impl FnMut(Dir) -> T) -> PerCoast<T> {
        PerCoast { north: f(Dir::N), east: f(Dir::E), south: f(Dir::S), west: f(Dir::W) }
    }
}

/// A placed piece.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceView {
    /// Its place in the order of placing, from 0.
    pub index: usize,
    /// The seat that placed it (none for the centre piece).
    pub seat: Option<Seat>,
    #[serde_as(as = "DisplayFromStr")]
    pub pattern: Pattern,
    pub row: u8,
    pub col: u8,
    #[serde_as(as = "DisplayFromStr")]
    pub facing: Dir,
    /// The squares it covers, `[row, col]`.
    pub squares: Vec<[i16; 2]>,
    pub exits: Vec<Exit>,
}

/// A coast's points and the mouths that reach it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CoastView {
    pub points: u32,
    pub mouths: Vec<MouthView>,
}

/// A channel's mouth on a coast.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MouthView {
    /// Position along the coast.
    pub pos: u8,
    pub value: u32,
}

/// One column of the stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StackColumn {
    pub column: usize,
    pub height: usize,
    /// Whether the top piece shows circles (none for an empty column).
    pub marked: Option<bool>,
}

/// One seat of a Ta Yü position.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    /// The player's name, when the viewer knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The side the seat plays for: `ns` or `ew` (none before the three-player choice).
    pub side: Option<&'static str>,
    /// Whether the seat is the flood.
    pub flood: bool,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub held: Vec<Pattern>,
}

/// A seat's bid (none: it passed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bid {
    pub seat: Seat,
    pub bid: Option<u16>,
}

/// The flood of a three-player game and its bid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Flood {
    pub seat: Seat,
    pub bid: u16,
    /// Whether the flood's bid was stopped.
    pub stopped: bool,
}

impl View {
    /// Gives the seats their names, in seat order.
    pub fn name_seats(&mut self, names: &[String]) {
        for (seat, name) in self.seats.iter_mut().zip(names) {
            seat.name = Some(name.clone());
        }
    }
}

impl Tayu {
    pub(super) fn make_view(&self) -> View {
        let pieces = self
            .board
            .pieces()
            .iter()
            .enumerate()
            .map(|(i, p)| PieceView {
                index: i,
                seat: self.placed_by.get(i).copied(),
                pattern: p.piece,
                row: p.row,
                col: p.col,
                facing: p.facing,
                squares: p.squares().iter().map(|&(r, c)| [r, c]).collect(),
                exits: p.exits().to_vec(),
            })
            .collect();
        let mouths = self.board.mouths();
        let pts = self.board.coast_points();
        let coast = |d: Dir| CoastView {
            points: pts[d.index()],
            mouths: mouths
                .iter()
                .filter(|m| m.coast == d)
                .map(|&Mouth { pos, value, .. }| MouthView { pos, value })
                .collect(),
        };
        let spec = self.board.spec();
        View {
            round: self.round(),
            scores: self.scores(),
            to_act: self.to_act().iter().collect(),
            status: self.describe_phase(),
            board: BoardView {
                size: spec.size,
                centre: [spec.centre.0, spec.centre.1],
                special: PerCoast::from_fn(|d| spec.special[d.index()].clone()),
            },
            pieces,
            open_ends: self.board.open_ends(),
            coasts: PerCoast::from_fn(coast),
            stack: self
                .stack
                .iter()
                .enumerate()
                .map(|(i, c)| StackColumn { column: i, height: c.len(), marked: c.last().map(|p| p.marked()) })
                .collect(),
            drawable: self.drawable(),
            set_aside: self.set_aside.clone(),
            seats: (0..self.seats)
                .map(|s| SeatView {
                    name: None,
                    side: self.coasts.get(s).copied().flatten().map(|side| side.code()),
                    flood: self.flood.is_some_and(|(f, _)| usize::from(f) == s),
                    held: self.held.get(s).cloned().unwrap_or_default(),
                })
                .collect(),
            bids: self.bids.iter().map(|&(seat, bid)| Bid { seat, bid }).collect(),
            flood: self.flood.map(|(seat, bid)| Flood { seat, bid, stopped: self.flood_out }),
            over: self.phase == Phase::Over,
            text: self.render(),
        }
    }
}
