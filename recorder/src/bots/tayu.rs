//! Ta Yü bots: `greedy` and `random`.

use super::Bots;
use crate::bot::Bot;
use paifu_core::tayu::{Action, Side, Tayu};
use paifu_core::{Game, Seat, Seed};

impl Bots for Tayu {
    const BOTS: &'static [&'static str] = &["greedy", "random"];
    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Tayu>>> {
        match name {
            "random" => Some(super::random(seed)),
            "greedy" => Some(Box::new(Greedy)),
            _ => None,
        }
    }
}

/// Weighs its own mouths against the opponent's: places the piece where its own product minus
/// the opponent's is highest (then its own coast points minus theirs, then the most open
/// channel ends). As the flood it keeps the higher of the two products, then all mouths, as
/// low as it can and closes channels. Draws from a column showing the circles when it can.
/// Looks only at what the table shows: the board, the column tops, its own pieces.
pub struct Greedy;

/// The opening bid, and how far below the lowest bid it goes while that is above the floor.
const OPENING_BID: u16 = 24;
const BID_STEP: u16 = 3;
const BID_FLOOR: u16 = 12;

impl Greedy {
    fn value(game: &Tayu, seat: Seat, action: &Action) -> i64 {
        let Action::Place(p) = action else { return i64::MIN };
        let mut board = game.board().clone();
        if board.put(*p).is_err() {
            return i64::MIN;
        }
        let pts = board.coast_points();
        let open = board.open_ends().len() as i64;
        let sum = |s: Side| -> i64 { s.coasts().iter().map(|c| i64::from(pts[c.index()])).sum() };
        match game.side(seat) {
            Some(me) => {
                let them = me.other();
                100 * (me.product(&pts) - them.product(&pts)) + 10 * (sum(me) - sum(them)) + open
            }
            None => {
                let (ns, ew) = (Side::NorthSouth, Side::EastWest);
                -(100 * ns.product(&pts).max(ew.product(&pts)) + 10 * (sum(ns) + sum(ew)) + open)
            }
        }
    }
}

impl Bot<Tayu> for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn act(&mut self, game: &Tayu, seat: Seat) -> Action {
        let legal = game.legal_actions(seat);
        let Some(first) = legal.first().cloned() else { return Action::Pass };
        match first {
            Action::Bid(_) | Action::Pass => {
                let want = match game.lowest_bid() {
                    None => OPENING_BID,
                    Some((_, low)) if low > BID_FLOOR => low.saturating_sub(BID_STEP).max(BID_FLOOR),
                    Some(_) => 0,
                };
                let bid = Action::Bid(want);
                if want > 0 && legal.contains(&bid) {
                    bid
                } else if legal.contains(&Action::Pass) {
                    Action::Pass
                } else {
                    first
                }
            }
            Action::Choose(_) => Action::Choose(Side::NorthSouth),
            // Never offered (legal_actions lists no incident).
            Action::Incident(_) => first,
            Action::Draw(_) => legal
                .iter()
                .find(|a| matches!(a, Action::Draw(c) if game.column_marked(usize::from(*c)) == Some(true)))
                .cloned()
                .unwrap_or(first),
            Action::Place(_) => {
                let mut best = first;
                let mut best_value = i64::MIN;
                for a in &legal {
                    let v = Self::value(game, seat, a);
                    if v > best_value {
                        best_value = v;
                        best = a.clone();
                    }
                }
                best
            }
        }
    }
}
