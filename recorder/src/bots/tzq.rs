//! Tien Zi Que bots: `random` and `greedy`.

use super::Bots;
use crate::bot::Bot;
use paifu_core::tzq::{score, Action, Card, Kind, Tzq};
use paifu_core::{Game, Seat, Seed};

impl Bots for Tzq {
    const BOTS: &'static [&'static str] = &["greedy", "random"];
    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Tzq>>> {
        match name {
            "random" => Some(super::random(seed)),
            "greedy" => Some(Box::new(Greedy)),
            _ => None,
        }
    }
}

/// Plays to win: lays a set whenever it can (a Chow rather than a draw), keeps the scoring card
/// that adds most to its scoring cards, and otherwise discards the card that fits least with
/// the rest of its hand. Looks only at its own hand, its own scoring cards and the discards.
pub struct Greedy;

/// How well a card fits with the rest of a hand: partners for a set, Sparrows are wild.
fn fit(card: Card, hand: &[Card]) -> i32 {
    if card.is_sparrow() {
        return 100;
    }
    let mut f = 0;
    let mut skipped = false;
    for &o in hand {
        if o == card && !skipped {
            skipped = true;
            continue;
        }
        if o.kind() == card.kind() {
            f += 6;
        } else if let (Some(a), Some(b)) = (card.number(), o.number()) {
            match a.abs_diff(b) {
                1 => f += 4,
                2 => f += 2,
                _ => {}
            }
        } else if o.is_sparrow() {
            f += 1;
        }
    }
    if matches!(card.kind(), Kind::Wind(_) | Kind::Dragon) {
        f += 1;
    }
    f
}

fn keep_value(kept: &[Card], keep: Card, pong: bool) -> i64 {
    let mut k = kept.to_vec();
    k.push(keep);
    let s = score(&k, pong && k.len() == 5).total();
    // Winning now is worth a lot on its own.
    if k.len() == 5 {
        1000 + s
    } else {
        s
    }
}

impl Bot<Tzq> for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn act(&mut self, game: &Tzq, seat: Seat) -> Action {
        let legal = game.legal_actions(seat);
        let kept = game.kept(seat);
        let hand = game.hand(seat);
        let best_set = legal
            .iter()
            .filter_map(|a| match a {
                Action::Pong { keep, .. } => Some((keep_value(kept, *keep, true), a)),
                Action::Chow { keep, .. } => Some((keep_value(kept, *keep, false), a)),
                _ => None,
            })
            .max_by_key(|(v, _)| *v);
        if let Some((_, a)) = best_set {
            return a.clone();
        }
        if legal.contains(&Action::Draw) {
            return Action::Draw;
        }
        legal
            .iter()
            .filter_map(|a| match a {
                Action::Discard(c) => Some((fit(*c, hand), a)),
                _ => None,
            })
            .min_by_key(|(f, _)| *f)
            .map(|(_, a)| a.clone())
            .unwrap_or_else(|| legal[0].clone())
    }
}
