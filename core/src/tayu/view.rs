//! What a viewer is shown of a Ta Yü position: the board with every piece and channel end, the
//! coasts' mouths and points, the stack, the pieces held, the bidding. A seat's view
//! (`Game::seat_view`) leaves out the piece another seat has drawn and not yet placed.

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
    /// The engine's text render of the position (a seat's view: the status and the board).
    pub text: String,
    /// Whose view it is: none for the full view, every piece visible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seen_by: Option<Seat>,
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
    /// In another seat's view: how many pieces the seat holds unseen (`held` is then empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<usize>,
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
                    hidden: None,
                })
                .collect(),
            bids: self.bids.iter().map(|&(seat, bid)| Bid { seat, bid }).collect(),
            flood: self.flood.map(|(seat, bid)| Flood { seat, bid, stopped: self.flood_out }),
            over: self.phase == Phase::Over,
            text: self.render(),
            seen_by: None,
        }
    }

    /// What `seat` sees: everything but the piece another seat has drawn and not yet placed
    /// (the stack shows only its columns' heights and the marks on their tops in every view).
    /// With the face-up variant every held piece lies face up, and at the game's end the piece
    /// that cannot be placed is shown (seed: "megmutatja azt ellenfelének"), so nothing is held
    /// unseen then.
    pub(super) fn make_seat_view(&self, seat: Seat) -> View {
        let mut v = self.make_view();
        v.seen_by = Some(seat);
        if !self.rules.face_up && self.phase != Phase::Over {
            for (s, sv) in v.seats.iter_mut().enumerate() {
                if s != usize::from(seat) && !sv.held.is_empty() {
                    sv.hidden = Some(sv.held.len());
                    sv.held.clear();
                }
            }
            if let Phase::Place { turn } = self.phase {
                if turn != seat {
                    v.status = format!("seat {turn} to place the piece it drew");
                }
            }
        }
        v.text = format!("Ta Yü, {} players: {}\n{}", self.seats, v.status, self.board.draw());
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat_views::check;
    use crate::tayu::Rules;
    use crate::{Seed, Stream};

    /// The positions of the stack's pieces under the columns' tops.
    fn under_tops(g: &Tayu) -> Vec<(usize, usize)> {
        g.stack.iter().enumerate().flat_map(|(c, col)| (0..col.len().saturating_sub(1)).map(move |i| (c, i))).collect()
    }

    /// The position with two pieces under the stack's tops swapped, and the piece another seat
    /// than `seat` holds unseen swapped with a third (none when no other seat holds one).
    fn swap_hidden(g: &Tayu, seat: Seat, stream: &mut Stream) -> Option<Tayu> {
        let o = (0..g.seats).find(|&s| s != usize::from(seat) && !g.held[s].is_empty())?;
        let under = under_tops(g);
        let held = g.held[o][0];
        let differ: Vec<&(usize, usize)> = under.iter().filter(|&&(c, i)| g.stack[c][i] != held).collect();
        if g.rules.face_up || g.phase == Phase::Over || differ.is_empty() || under.len() < 2 {
            return None;
        }
        let mut p = g.clone();
        let &(c, i) = differ[stream.below(differ.len() as u64) as usize];
        p.held[o][0] = std::mem::replace(&mut p.stack[c][i], held);
        let (a, b) =
            (under[stream.below(under.len() as u64) as usize], under[stream.below(under.len() as u64) as usize]);
        let x = p.stack[a.0][a.1];
        p.stack[a.0][a.1] = std::mem::replace(&mut p.stack[b.0][b.1], x);
        Some(p)
    }

    fn views_of(rules: Rules, seats: usize, games: usize) -> crate::seat_views::Seen {
        let start = |seed: &Seed| Tayu::new(rules.clone(), seats, Some(seed)).unwrap();
        check(start, games, 600, swap_hidden, |full, mine, seat| {
            assert_eq!((full.seen_by, mine.seen_by), (None, Some(seat)));
            let shown = rules.face_up || full.over;
            for (s, (a, b)) in full.seats.iter().zip(&mine.seats).enumerate() {
                if s == usize::from(seat) || shown || a.held.is_empty() {
                    assert_eq!((&b.held, b.hidden), (&a.held, None));
                } else {
                    assert!(b.held.is_empty(), "seat {s} in seat {seat}'s view: {b:?}");
                    assert_eq!(b.hidden, Some(a.held.len()));
                    for p in &a.held {
                        let p = p.to_string();
                        assert!(!mine.status.contains(&p) && !mine.text.contains(&p), "{p} in {}", mine.text);
                    }
                }
                assert_eq!((b.side, b.flood), (a.side, a.flood));
            }
            if shown || full.seats.iter().enumerate().all(|(s, a)| s == usize::from(seat) || a.held.is_empty()) {
                assert_eq!(mine.status, full.status);
            }
            assert!(mine.text.contains(&mine.status));
            assert_eq!(
                (mine.round, &mine.scores, &mine.to_act, &mine.board, &mine.pieces, &mine.open_ends, &mine.coasts),
                (full.round, &full.scores, &full.to_act, &full.board, &full.pieces, &full.open_ends, &full.coasts)
            );
            assert_eq!(
                (&mine.stack, &mine.drawable, &mine.set_aside, &mine.bids, &mine.flood, mine.over),
                (&full.stack, &full.drawable, &full.set_aside, &full.bids, &full.flood, full.over)
            );
        })
    }

    #[test]
    fn a_seat_sees_the_board_and_the_stack_tops_but_not_a_piece_another_seat_drew() {
        for seats in 2..=4 {
            let seen = views_of(Rules::default(), seats, 3);
            assert!(seen.positions > 300, "{seats} seats: {seen:?}");
            assert!(seen.perturbed * 4 > seen.positions && seen.differed == seen.perturbed, "{seats} seats: {seen:?}");
        }
    }

    #[test]
    fn with_the_face_up_variant_every_held_piece_is_seen() {
        let rules = Rules { face_up: true, ..Rules::default() };
        let seen = views_of(rules.clone(), 2, 3);
        assert!(seen.positions > 300 && seen.perturbed == 0, "{seen:?}");
        let mut g = Tayu::new(rules, 2, Some(&Seed::from_text("face up"))).unwrap();
        while g.held.iter().any(Vec::is_empty) {
            let s = g.to_act().iter().next().unwrap();
            let a = g.legal_actions(s)[0].clone();
            g.play_mut(s, &a).unwrap();
        }
        assert!(g.seat_view(0).seats[1].held.len() == 1 && g.seat_view(1).seats[0].held.len() == 1);
    }
}
