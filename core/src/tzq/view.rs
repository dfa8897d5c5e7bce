//! What a viewer is shown of a Tien Zi Que position: both hands, the scoring cards kept, the
//! piles; every card as its notation. A seat's view ([`Game::seat_view`]) leaves out the other
//! hand and the other seat's draw.

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
    /// The engine's text render of the position (a seat's view: what that seat sees).
    pub text: String,
    /// Whose view it is: none for the full view, every card visible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seen_by: Option<Seat>,
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
    /// In another seat's view: how many cards the hand holds (`hand` is then empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<usize>,
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
                    hidden: None,
                })
                .collect(),
            pile: self.pile.len(),
            discards: self.discards.clone(),
            chowable: self.chowable.clone(),
            text: self.render(),
            seen_by: None,
        }
    }

    /// What `seat` sees: its own hand and draw, the scoring cards, the piles' sizes and the
    /// discards; of the other hand, only how many cards it holds.
    pub(super) fn make_seat_view(&self, seat: Seat) -> View {
        let mut v = self.make_view();
        v.seen_by = Some(seat);
        if self.turn != seat {
            v.drawn = None;
        }
        for (s, sv) in v.seats.iter_mut().enumerate() {
            if s != usize::from(seat) {
                sv.hidden = Some(sv.hand.len());
                sv.hand.clear();
            }
        }
        v.text = seat_text(&v);
        v
    }
}

/// A seat view as text: the hands it sees, the other hand's size, the piles.
fn seat_text(v: &View) -> String {
    let cards = |cs: &[Card]| cs.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
    let mut o = if v.over {
        format!("Round {}: the match is over", v.round)
    } else {
        format!("Round {}: seat {} to act", v.round, v.turn)
    };
    if let Some(c) = v.drawn {
        o.push_str(&format!(" (drew {c})"));
    }
    for (s, sv) in v.seats.iter().enumerate() {
        let hand = match sv.hidden {
            Some(n) => format!("{n} cards"),
            None => format!("[{}]", cards(&sv.hand)),
        };
        o.push_str(&format!("\nSeat {s} ({}): hand {hand}  scoring cards [{}]", sv.score, cards(&sv.kept)));
    }
    o.push_str(&format!(
        "\nDraw pile: {} cards\nDiscard pile: {} cards; may be chowed: [{}]\n",
        v.pile,
        v.discards.len(),
        cards(&v.chowable)
    ));
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat_views::check;
    use crate::tzq::Rules;
    use crate::{Seed, Stream};

    /// The position with one card of `seat`'s opponent's hand (not a card it has just drawn)
    /// swapped with a card of the draw pile.
    fn swap_other_hand(g: &Tzq, seat: Seat, stream: &mut Stream) -> Option<Tzq> {
        let other = usize::from(seat == 0);
        let drawn = if usize::from(g.turn) == other { g.drawn() } else { None };
        let free: Vec<usize> = (0..g.hands[other].len()).filter(|&i| Some(g.hands[other][i]) != drawn).collect();
        if free.is_empty() || g.pile.is_empty() {
            return None;
        }
        let mut p = g.clone();
        let h = free[stream.below(free.len() as u64) as usize];
        let w = stream.below(p.pile.len() as u64) as usize;
        std::mem::swap(&mut p.hands[other][h], &mut p.pile[w]);
        Some(p)
    }

    fn words(text: &str) -> Vec<&str> {
        text.split(|c: char| !c.is_alphanumeric()).collect()
    }

    #[test]
    fn a_seat_sees_its_hand_and_the_table_and_only_the_size_of_the_other_hand() {
        let start = |seed: &Seed| Tzq::new(Rules::default(), 2, Some(seed)).unwrap();
        let seen = check(start, 6, 400, swap_other_hand, |full, mine, seat| {
            let me = usize::from(seat);
            assert_eq!((full.seen_by, mine.seen_by), (None, Some(seat)));
            assert_eq!(mine.seats[me].hand, full.seats[me].hand);
            assert_eq!(mine.seats[me].hidden, None);
            let other = 1 - me;
            assert!(mine.seats[other].hand.is_empty());
            assert_eq!(mine.seats[other].hidden, Some(full.seats[other].hand.len()));
            let mut public: Vec<&Card> = mine.seats.iter().flat_map(|s| s.hand.iter().chain(&s.kept)).collect();
            public.extend(mine.discards.iter().chain(&mine.chowable));
            for c in full.seats[other].hand.iter().filter(|c| !public.contains(c)) {
                assert!(!words(&mine.text).contains(&c.to_string().as_str()), "{c} in {}", mine.text);
            }
            for (a, b) in full.seats.iter().zip(&mine.seats) {
                assert_eq!((&a.kept, a.score, a.to_act), (&b.kept, b.score, b.to_act));
            }
            assert_eq!(mine.drawn, if full.turn == seat { full.drawn } else { None });
            assert_eq!(
                (mine.round, &mine.scores, &mine.to_act, mine.turn, mine.over),
                (full.round, &full.scores, &full.to_act, full.turn, full.over)
            );
            assert_eq!((mine.pile, &mine.discards, &mine.chowable), (full.pile, &full.discards, &full.chowable));
        });
        assert!(seen.positions > 1000, "{seen:?}");
        assert!(seen.differed * 10 > seen.perturbed * 9, "{seen:?}");
    }

    #[test]
    fn the_full_view_is_seen_by_nobody_and_shows_both_hands() {
        let g = Tzq::new(Rules::default(), 2, Some(&Seed::from_text("full"))).unwrap();
        let v = g.view();
        assert_eq!(v.seen_by, None);
        assert!(v.seats.iter().all(|s| s.hand.len() == 5 && s.hidden.is_none()));
        let json = serde_json::to_value(&v).unwrap();
        assert!(json.get("seen_by").is_none() && json["seats"][0].get("hidden").is_none());
        let mine = serde_json::to_value(g.seat_view(1)).unwrap();
        assert_eq!((mine["seen_by"].as_u64(), mine["seats"][0]["hidden"].as_u64()), (Some(1), Some(5)));
    }

    #[test]
    fn a_seat_that_does_not_exist_sees_no_hand() {
        let g = Tzq::new(Rules::default(), 2, Some(&Seed::from_text("nobody"))).unwrap();
        let v = g.seat_view(7);
        assert!(v.seats.iter().all(|s| s.hand.is_empty() && s.hidden == Some(5)));
        assert_eq!(v.drawn, None);
    }
}
