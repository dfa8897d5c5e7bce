//! Riichi bots: `greedy` and `random`.

use super::Bots;
use crate::arena::mjai::Mjai;
use crate::arena::paifu_line::PaifuLine;
use crate::arena::protocol::{Protocol, ProtocolKind};
use crate::bot::Bot;
use paifu_core::mahjong::hand::shanten;
use paifu_core::mahjong::{counts_of, Tile};
use paifu_core::riichi::{Action, Riichi};
use paifu_core::{Game, Seat, Seed};

impl Bots for Riichi {
    const BOTS: &'static [&'static str] = &["greedy", "random"];
    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Riichi>>> {
        match name {
            "random" => Some(super::random(seed)),
            "greedy" => Some(Box::new(Greedy)),
            _ => None,
        }
    }
    fn protocol(kind: ProtocolKind, seat: Seat) -> Option<Box<dyn Protocol<Riichi>>> {
        Some(match kind {
            ProtocolKind::Paifu => Box::new(PaifuLine::new()),
            ProtocolKind::Mjai => Box::new(Mjai::new(seat)),
        })
    }
}

/// Plays to win fast: always wins when it can, discards toward the lowest shanten (ties: the
/// least connected tile), declares riichi whenever it may, pons value honours and, once open,
/// calls when it lowers its shanten. Looks only at its own hand and melds.
pub struct Greedy;

fn shanten_of(hand: &[Tile], melds: usize) -> i8 {
    shanten(&counts_of(hand), melds)
}

/// How connected a tile is to the rest of the hand (higher keeps it).
fn connection(tile: Tile, hand: &[Tile]) -> i32 {
    let k = tile.kind();
    let mut v = 0;
    for o in hand {
        let ok = o.kind();
        if ok == k {
            v += 4;
        } else if !tile.is_honor() && ok / 9 == k / 9 && ok < 27 {
            match ok.abs_diff(k) {
                1 => v += 3,
                2 => v += 2,
                _ => {}
            }
        }
    }
    if tile.is_honor() {
        v -= 1;
    } else if tile.is_terminal() {
        v -= 0;
    } else {
        v += 1;
    }
    if tile.is_aka() {
        v += 2;
    }
    v
}

fn is_value_honor(game: &Riichi, seat: Seat, tile: Tile) -> bool {
    let k = tile.kind();
    let seat_wind = (seat + 4 - game.dealer()) % 4;
    k >= 31 || k == 27 + usize::from(seat_wind) || k == 27 + usize::from(game.round_wind() & 3)
}

impl Bot<Riichi> for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn act(&mut self, game: &Riichi, seat: Seat) -> Action {
        let seen = Seen {
            hand: game.hand(seat),
            melds: game.melds(seat).len(),
            open: game.melds(seat).iter().any(|m| m.is_open()),
            value: &|t| is_value_honor(game, seat, t),
        };
        greedy_choice(&game.legal_actions(seat), &seen)
    }
}

/// What the greedy bot looks at: the seat's concealed tiles (the drawn one among them), how
/// many melds it has and whether any is open, and which honours are worth a pon.
pub struct Seen<'a> {
    pub hand: &'a [Tile],
    pub melds: usize,
    pub open: bool,
    pub value: &'a dyn Fn(Tile) -> bool,
}

/// The greedy bot's choice among `legal` (not empty), from what its seat sees.
pub fn greedy_choice(legal: &[Action], seen: &Seen<'_>) -> Action {
    {
        let (hand, melds) = (seen.hand, seen.melds);
        for win in [Action::Tsumo, Action::Ron] {
            if legal.contains(&win) {
                return win;
            }
        }
        let is_turn = legal.iter().any(|a| matches!(a, Action::Discard { .. }));
        if is_turn {
            if legal.contains(&Action::Kyuushu) && shanten_of(hand, melds) >= 4 {
                return Action::Kyuushu;
            }
            // Best plain discard.
            let mut best: Option<(i8, i32, Action)> = None;
            for a in legal {
                let Action::Discard { tile, riichi: false, .. } = *a else { continue };
                let mut rest = hand.to_vec();
                if let Some(i) = rest.iter().position(|&x| x == tile) {
                    rest.swap_remove(i);
                }
                let key = (shanten_of(&rest, melds), connection(tile, &rest));
                if best.as_ref().is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
                    best = Some((key.0, key.1, a.clone()));
                }
            }
            let Some((_, _, choice)) = best else { return legal[0].clone() };
            if let Action::Discard { tile, drawn, .. } = choice {
                let r = Action::Discard { tile, drawn, riichi: true };
                if legal.contains(&r) {
                    return r;
                }
            }
            return choice;
        }
        // A claim window.
        let now = shanten_of(hand, melds);
        let open = seen.open;
        let mut best: Option<(i8, Action)> = None;
        for a in legal {
            let (used, tile): (Vec<Tile>, Option<Tile>) = match *a {
                Action::Pon(x, y) => (vec![x, y], Some(x)),
                Action::Chi(x, y) => (vec![x, y], None),
                _ => continue,
            };
            let mut rest = hand.to_vec();
            for u in &used {
                if let Some(i) = rest.iter().position(|t| t == u) {
                    rest.swap_remove(i);
                }
            }
            // After the call one more tile goes: the best shanten over the discards.
            let after = (0..rest.len())
                .map(|i| {
                    let mut r = rest.clone();
                    r.swap_remove(i);
                    shanten_of(&r, melds + 1)
                })
                .min()
                .unwrap_or(8);
            let value = tile.is_some_and(seen.value);
            if (value || open) && after < now && best.as_ref().is_none_or(|b| after < b.0) {
                best = Some((after, a.clone()));
            }
        }
        best.map(|b| b.1).unwrap_or(Action::Pass)
    }
}
