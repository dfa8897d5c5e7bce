//! Hungarian mahjong bots: `greedy` and `random`.

use super::Bots;
use crate::bot::Bot;
use paifu_core::hungarian::{Action, Hungarian};
use paifu_core::mahjong::hand::shanten;
use paifu_core::mahjong::{Counts, Tile};
use paifu_core::{Game, Seat, Seed, Stream};

impl Bots for Hungarian {
    const BOTS: &'static [&'static str] = &["greedy", "random"];
    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Hungarian>>> {
        match name {
            "random" => Some(Box::new(Random { stream: seed.stream("bot/hungarian/random") })),
            "greedy" => Some(Box::new(Greedy)),
            _ => None,
        }
    }
}

/// A uniformly random legal move, except that it always declares Mahjong when it can (a match of
/// bots that never did would hardly end).
pub struct Random {
    stream: Stream,
}

impl Bot<Hungarian> for Random {
    fn name(&self) -> String {
        "random".into()
    }

    fn act(&mut self, game: &Hungarian, seat: Seat) -> Action {
        let mut legal = game.legal_actions(seat);
        if legal.contains(&Action::Mahjong) {
            return Action::Mahjong;
        }
        let i = self.stream.below(legal.len() as u64) as usize;
        legal.swap_remove(i)
    }
}

/// Plays to win fast and to score: declares Mahjong whenever it can, lays out every kong it may
/// (kongs score most), discards toward the fewest tiles from a winning hand (ties: the tile least
/// connected to the rest, keeping dragons and its own wind), pongs dragons and its own wind, and
/// claims other sets when they bring it nearer to winning. Looks only at its own hand and sets.
pub struct Greedy;

fn distance(hand: &Counts, sets: usize) -> i8 {
    shanten(hand, sets)
}

/// How much a kind is worth keeping beside the rest of the hand (higher keeps it).
fn keep_value(hand: &Counts, k: usize, own_wind: usize) -> i32 {
    let mut v = 4 * i32::from(hand[k].saturating_sub(1));
    if k < 27 {
        let n = k % 9;
        for (d, w) in [(1usize, 3), (2, 2)] {
            if n + d < 9 {
                v += w * i32::from(hand[k + d].min(1));
            }
            if n >= d {
                v += w * i32::from(hand[k - d].min(1));
            }
        }
        if n == 0 || n == 8 {
            v -= 1;
        }
    } else if k >= 31 || k == own_wind {
        // A dragon or the own wind: a pong of it doubles the hand.
        v += 2;
    } else {
        v -= 2;
    }
    v
}

/// The best distance after discarding one tile from `hand`.
fn best_after_discard(hand: &Counts, sets: usize) -> i8 {
    let mut best = i8::MAX;
    for k in 0..34 {
        if hand[k] > 0 {
            let mut h = *hand;
            h[k] -= 1;
            best = best.min(distance(&h, sets));
        }
    }
    best
}

impl Bot<Hungarian> for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn act(&mut self, game: &Hungarian, seat: Seat) -> Action {
        let legal = game.legal_actions(seat);
        if legal.contains(&Action::Mahjong) {
            return Action::Mahjong;
        }
        if let Some(k) =
            legal.iter().find(|a| matches!(a, Action::ConcealedKong(_) | Action::AddedKong(_) | Action::Kong))
        {
            return k.clone();
        }
        let hand = game.hand(seat);
        let sets = game.melds(seat).len();
        let own_wind = 27 + usize::from(game.wind(seat));
        if legal.iter().any(|a| matches!(a, Action::Discard(_))) {
            let mut best: Option<(i8, i32, Action)> = None;
            for a in &legal {
                let Action::Discard(t) = *a else { continue };
                let mut h = *hand;
                h[t.kind()] -= 1;
                let key = (distance(&h, sets), keep_value(hand, t.kind(), own_wind));
                if best.as_ref().is_none_or(|&(d, v, _)| key < (d, v)) {
                    best = Some((key.0, key.1, a.clone()));
                }
            }
            return best.map_or_else(|| legal[0].clone(), |(_, _, a)| a);
        }
        // A claim window.
        let Some((_, tile)) = game.claim_window() else { return Action::Pass };
        let now = distance(hand, sets);
        let mut best: Option<(i8, Action)> = None;
        for a in &legal {
            let used: Vec<Tile> = match *a {
                Action::Pong => vec![tile, tile],
                Action::Chow(x, y) => vec![x, y],
                _ => continue,
            };
            let mut h = *hand;
            for u in &used {
                h[u.kind()] -= 1;
            }
            let after = best_after_discard(&h, sets + 1);
            let valued = *a == Action::Pong && (tile.kind() >= 31 || tile.kind() == own_wind);
            if (valued || after < now) && best.as_ref().is_none_or(|&(b, _)| after < b) {
                best = Some((after, a.clone()));
            }
        }
        best.map_or(Action::Pass, |(_, a)| a)
    }
}
