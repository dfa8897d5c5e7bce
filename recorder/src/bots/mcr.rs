//! MCR bots: `greedy` (toward 8 fan) and `random`.

use super::Bots;
use crate::bot::Bot;
use paifu_core::mahjong::hand::shanten;
use paifu_core::mahjong::{counts_of, Tile};
use paifu_core::mcr::{Action, Mcr};
use paifu_core::{Game, Seat, Seed};

impl Bots for Mcr {
    const BOTS: &'static [&'static str] = &["greedy", "random"];
    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Mcr>>> {
        match name {
            "random" => Some(super::random(seed)),
            "greedy" => Some(Box::new(Greedy)),
            _ => None,
        }
    }
}

/// Plays toward a hand worth 8 fan: it always wins when the rules let it (the engine offers a
/// win only at 8 fan or more), aims at a half flush in the suit it holds most of (6 fan, with
/// a pung of honours or a few small fan that makes 8), discards toward the lowest shanten
/// and, between equal discards, a tile off its suit, then the least connected; it pungs value
/// honours (dragons, its own and the prevalent wind) and, once it holds its suit and honours
/// only, claims what lowers its shanten. Looks only at its own hand and melds.
pub struct Greedy;

fn shanten_of(hand: &[Tile], melds: usize) -> i8 {
    shanten(&counts_of(hand), melds)
}

/// The suit (0 m, 1 p, 2 s) the hand and melds hold most of.
fn target_suit(hand: &[Tile], melded: &[Tile]) -> usize {
    let mut n = [0usize; 3];
    for t in hand.iter().chain(melded) {
        if !t.is_honor() {
            n[t.suit()] += 1;
        }
    }
    (0..3).max_by_key(|&s| n[s]).unwrap_or(0)
}

fn on_target(t: Tile, suit: usize) -> bool {
    t.is_honor() || t.suit() == suit
}

/// How connected a tile is to the rest of the hand (higher keeps it).
fn connection(tile: Tile, hand: &[Tile]) -> i32 {
    let k = tile.kind();
    hand.iter()
        .map(|o| {
            let ok = o.kind();
            if ok == k {
                4
            } else if !tile.is_honor() && ok < 27 && ok / 9 == k / 9 {
                match ok.abs_diff(k) {
                    1 => 3,
                    2 => 2,
                    _ => 0,
                }
            } else {
                0
            }
        })
        .sum()
}

fn is_value_honor(game: &Mcr, seat: Seat, tile: Tile) -> bool {
    let k = tile.kind();
    k >= 31 || k == 27 + usize::from(game.wind_of(seat)) || k == 27 + usize::from(game.prevalent_wind())
}

impl Bot<Mcr> for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn act(&mut self, game: &Mcr, seat: Seat) -> Action {
        let legal = game.legal_actions(seat);
        if legal.contains(&Action::Win) {
            return Action::Win;
        }
        let hand = game.hand(seat);
        let melds = game.melds(seat);
        let melded: Vec<Tile> = melds.iter().flat_map(|m| m.tiles().iter().copied()).collect();
        let suit = target_suit(hand, &melded);
        if legal.iter().any(|a| matches!(a, Action::Discard(_))) {
            let mut best: Option<((i8, bool, i32), Action)> = None;
            for a in &legal {
                let Action::Discard(tile) = *a else { continue };
                let mut rest = hand.to_vec();
                if let Some(i) = rest.iter().position(|&x| x == tile) {
                    rest.remove(i);
                }
                let key = (shanten_of(&rest, melds.len()), on_target(tile, suit), connection(tile, &rest));
                if best.as_ref().is_none_or(|b| key < b.0) {
                    best = Some((key, a.clone()));
                }
            }
            return best.map(|b| b.1).unwrap_or_else(|| legal[0].clone());
        }
        // A claim window: value honours, or anything on target that brings the hand closer.
        let now = shanten_of(hand, melds.len());
        let clean = hand.iter().chain(&melded).all(|&t| on_target(t, suit));
        let mut best: Option<(i8, Action)> = None;
        for a in &legal {
            let (used, tile): (Vec<Tile>, Tile) = match *a {
                Action::Pung(t) => (vec![t, t], t),
                Action::Kong(t) => (vec![t, t, t], t),
                Action::Chow(x, y) => (vec![x, y], x),
                _ => continue,
            };
            let mut rest = hand.to_vec();
            for u in &used {
                if let Some(i) = rest.iter().position(|t| t == u) {
                    rest.remove(i);
                }
            }
            let after = match a {
                Action::Kong(_) => shanten_of(&rest, melds.len() + 1),
                _ => (0..rest.len())
                    .map(|i| {
                        let mut r = rest.clone();
                        r.remove(i);
                        shanten_of(&r, melds.len() + 1)
                    })
                    .min()
                    .unwrap_or(8),
            };
            let value = matches!(a, Action::Pung(_) | Action::Kong(_)) && is_value_honor(game, seat, tile);
            let wanted = value || (clean && on_target(tile, suit) && after < now);
            if wanted && best.as_ref().is_none_or(|b| after < b.0) {
                best = Some((after, a.clone()));
            }
        }
        best.map(|b| b.1).unwrap_or(Action::Pass)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::RandomBot;

    /// Greedy bots finish matches, win hands worth 8 fan or more, and only play legal actions.
    #[test]
    fn greedy_bots_win_hands() {
        let mut wins = 0;
        for i in 0..3 {
            let seed = Seed::from_text(&format!("greedy mcr {i}"));
            let mut g = Mcr::new(Mcr::rules("standard", &Default::default()).unwrap(), 4, Some(&seed)).unwrap();
            let mut bots: Vec<Box<dyn Bot<Mcr>>> =
                vec![Box::new(Greedy), Box::new(Greedy), Box::new(Greedy), Box::new(RandomBot::new(&seed))];
            while !g.is_over() {
                let seat = g.to_act().iter().next().unwrap();
                let a = bots[usize::from(seat)].act(&g, seat);
                g.play_mut(seat, &a).unwrap();
            }
            for r in g.results() {
                if let Some(f) = r.facts.iter().find(|f| f.key == "fan") {
                    assert!(f.value >= 8, "{}", r.summary);
                    wins += 1;
                }
            }
        }
        assert!(wins >= 10, "greedy bots won {wins} of 48 hands");
    }
}
