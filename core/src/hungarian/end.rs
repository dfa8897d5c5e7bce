//! The end of a hand (docs/rules/hungarian.md, "Scoring", "Settlement"): every player's hand
//! scored, the settlement, the round result with its facts, and what the viewer shows of it.

use super::engine::{Hungarian, Settled, Shown};
use super::facts::FactKind;
use super::score::{score_loser, score_winner, settle, Hand, Scored, Set, Win};
use super::table::table;
use crate::mahjong::Tile;
use crate::{Fact, RoundResult};

const WIND_LETTERS: [char; 4] = ['E', 'S', 'W', 'N'];

/// Each distinct item once, in the order it first comes, with how often it comes.
fn tally<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<(T, i64)> {
    let mut out: Vec<(T, i64)> = Vec::new();
    for x in items {
        match out.iter_mut().find(|(y, _)| *y == x) {
            Some((_, n)) => *n += 1,
            None => out.push((x, 1)),
        }
    }
    out
}

fn tiles_of(hand: &crate::mahjong::Counts) -> Vec<Tile> {
    (0..34).flat_map(|k| std::iter::repeat_n(Tile::kind_tile(k), usize::from(hand[k]))).collect()
}

impl Hungarian {
    /// The hand is void: only the dead wall is left. Nobody pays; the same East deals again.
    pub(super) fn void(&mut self) {
        let players: Vec<Shown> = (0..4u8)
            .map(|seat| {
                let chair = self.chair_of(seat);
                let p = &self.hand.players[usize::from(chair)];
                let sets: Vec<_> = p.melds.iter().map(Set::laid_out).collect();
                let numbers: Vec<u8> = p.flowers.iter().map(|f| f.number()).collect();
                let wind = self.wind_of(chair);
                let h = Hand { concealed: &p.hand, melds: &sets, flowers: &numbers, wind };
                let scored = table().map(|t| score_loser(&h, t)).unwrap_or_else(|_| Scored::default());
                Shown {
                    seat,
                    wind,
                    hand: tiles_of(&p.hand),
                    melds: p.melds.clone(),
                    flowers: p.flowers.clone(),
                    scored,
                    delta: 0,
                }
            })
            .collect();
        let mut facts = vec![Fact::table(FactKind::Void, 1)];
        facts.extend(self.table_facts());
        for s in &players {
            facts.push(Fact::seat(s.seat, FactKind::As(s.wind), 1));
        }
        self.results.push(RoundResult {
            round: self.round_no(),
            deltas: vec![0; 4],
            summary: format!("hand {} is void: only the dead wall is left; the same East deals again", self.hand_no),
            facts,
        });
        self.last = Some(Box::new(Settled {
            hand_no: self.hand_no,
            winner: None,
            tile: None,
            robbed_from: None,
            heavenly: false,
            players,
        }));
        self.next_hand(None);
    }

    fn table_facts(&self) -> Vec<Fact> {
        let ps = &self.hand.players;
        let kongs = ps.iter().flat_map(|p| &p.melds).filter(|m| m.is_kong()).count();
        let flowers = ps.iter().map(|p| p.flowers.len()).sum::<usize>();
        vec![Fact::table(FactKind::Kongs, kongs as i64), Fact::table(FactKind::Flowers, flowers as i64)]
    }

    /// `winner` has won, on `robbed`'s discard of `tile` (its hand already holds it) or on its
    /// own draw: every hand is scored, the hand settled, and the match moves on.
    pub(super) fn win(&mut self, winner: u8, robbed: Option<u8>, tile: Tile, heavenly: bool) {
        let Ok(t) = table() else { return self.void() };
        let mut by_chair: Vec<Scored> = Vec::with_capacity(4);
        for chair in 0..4u8 {
            let p = &self.hand.players[usize::from(chair)];
            let sets: Vec<_> = p.melds.iter().map(Set::laid_out).collect();
            let numbers: Vec<u8> = p.flowers.iter().map(|f| f.number()).collect();
            let h = Hand { concealed: &p.hand, melds: &sets, flowers: &numbers, wind: self.wind_of(chair) };
            let s = if chair == winner {
                let w = Win { tile: tile.kind() as u8, self_drawn: robbed.is_none(), heavenly };
                // The engine declares only winning hands; should one not read as such, it scores
                // as a loser's rather than stopping the match.
                score_winner(&h, &w, chair == self.east, &self.rules, t).unwrap_or_else(|_| score_loser(&h, t))
            } else {
                score_loser(&h, t)
            };
            by_chair.push(s);
        }
        let scores: [i64; 4] = std::array::from_fn(|c| by_chair[c].score);
        let net = settle(&scores, usize::from(winner), usize::from(self.east), self.rules.losers_settle);
        let mut deltas = vec![0i64; 4];
        for chair in 0..4u8 {
            let seat = usize::from(self.seat_of(chair));
            deltas[seat] = net[usize::from(chair)];
            self.scores[seat] = self.scores[seat].saturating_add(net[usize::from(chair)]);
        }
        let facts = self.win_facts(winner, robbed, &by_chair, &net);
        let win_seat = self.seat_of(winner);
        let ws = &by_chair[usize::from(winner)];
        let how = match robbed {
            Some(r) => format!("on seat {}'s {tile}", self.seat_of(r)),
            None if heavenly => "on the dealt hand (heaven's blessing)".to_owned(),
            None => format!("on its own draw, {tile}"),
        };
        let limit = ws.limit.map(|(l, b)| format!(" + {l} {b}")).unwrap_or_default();
        let summary = format!(
            "hand {}: seat {win_seat} ({}) wins {how}: {} points x{}{limit} = {}; each hand: {}; payments {:?}",
            self.hand_no,
            WIND_LETTERS[usize::from(self.wind_of(winner))],
            ws.points,
            1u64 << ws.doublings.min(62),
            ws.score,
            (0..4u8)
                .map(|s| format!("seat {s} {}", by_chair[usize::from(self.chair_of(s))].score))
                .collect::<Vec<_>>()
                .join(", "),
            deltas
        );
        self.results.push(RoundResult { round: self.round_no(), deltas: deltas.clone(), summary, facts });
        let players = (0..4u8)
            .map(|seat| {
                let chair = self.chair_of(seat);
                let p = &self.hand.players[usize::from(chair)];
                Shown {
                    seat,
                    wind: self.wind_of(chair),
                    hand: tiles_of(&p.hand),
                    melds: p.melds.clone(),
                    flowers: p.flowers.clone(),
                    scored: by_chair[usize::from(chair)].clone(),
                    delta: deltas[usize::from(seat)],
                }
            })
            .collect();
        self.last = Some(Box::new(Settled {
            hand_no: self.hand_no,
            winner: Some(win_seat),
            tile: Some(tile),
            robbed_from: robbed.map(|r| self.seat_of(r)),
            heavenly,
            players,
        }));
        self.next_hand(Some(winner));
    }

    fn win_facts(&self, winner: u8, robbed: Option<u8>, by_chair: &[Scored], net: &[i64; 4]) -> Vec<Fact> {
        let mut facts = self.table_facts();
        for chair in 0..4u8 {
            let seat = self.seat_of(chair);
            let s = &by_chair[usize::from(chair)];
            let wind = self.wind_of(chair);
            facts.push(Fact::seat(seat, FactKind::As(wind), 1));
            facts.push(Fact::seat(seat, FactKind::Score, s.score));
            facts.push(Fact::seat(seat, FactKind::Settlement(wind), net[usize::from(chair)]));
            let claims = self.hand.players[usize::from(chair)].melds.iter().filter(|m| m.called.is_some()).count();
            facts.push(Fact::seat(seat, FactKind::Claims, claims as i64));
            // Each line and doubling once, with how often it counted.
            let lines = tally(s.lines.iter().map(|(l, _)| *l));
            facts.extend(lines.into_iter().map(|(l, n)| Fact::seat(seat, FactKind::Line(l), n)));
            let doubled = tally(s.doubled.iter().map(|(d, _)| *d));
            facts.extend(doubled.into_iter().map(|(d, n)| Fact::seat(seat, FactKind::Doubling(d), n)));
            if chair == winner {
                facts.push(Fact::seat(seat, FactKind::Win, 1));
                facts.push(Fact::seat(seat, if robbed.is_some() { FactKind::Robbed } else { FactKind::SelfDrawn }, 1));
                facts.push(Fact::seat(seat, FactKind::Points, s.points));
                facts.push(Fact::seat(seat, FactKind::Doublings, i64::from(s.doublings)));
                if let Some((l, _)) = s.limit {
                    facts.push(Fact::seat(seat, FactKind::Limit(l), 1));
                }
            }
            if Some(chair) == robbed {
                facts.push(Fact::seat(seat, FactKind::Discarder, 1));
            }
        }
        facts
    }
}
