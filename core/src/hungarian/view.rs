//! What a viewer is shown of a Hungarian position: the seating, the wall and its break, every
//! hand with its laid-out sets and flowers, the discards, the claim window, and the last hand's
//! settlement; every tile as its notation. A seat's view (`Game::seat_view`) leaves out the
//! other seats' concealed tiles and draws.

use super::engine::{Hungarian, Phase, Settled, Shown};
use crate::mahjong::{Flower, Meld, MeldKind, Tile};
use crate::{Game, Seat};
use serde::Serialize;
use serde_with::{serde_as, DisplayFromStr};

const WIND_LETTERS: [char; 4] = ['E', 'S', 'W', 'N'];

/// A Hungarian position.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub round: u32,
    pub scores: Vec<i64>,
    pub to_act: Vec<Seat>,
    /// The hand's number in the match (void hands count).
    pub hand: u32,
    /// The prevailing wind, the game of the party: `E`, `S`, `W` or `N`.
    pub prevailing: char,
    /// East's seat.
    pub east: Seat,
    pub seating: SeatingView,
    /// Where the wall was broken.
    pub wall_break: BreakView,
    /// Tiles left to draw from the live wall.
    pub wall: usize,
    /// Loose tiles drawn so far.
    pub loose_drawn: usize,
    /// The tile the player on turn has just drawn.
    #[serde_as(as = "Option<DisplayFromStr>")]
    pub drawn: Option<Tile>,
    /// The discard that may be claimed now.
    pub claim: Option<ClaimView>,
    /// By seat.
    pub players: Vec<PlayerView>,
    /// The last hand's end, with every player's score and payment.
    pub last: Option<SettlementView>,
    pub over: bool,
    /// Whose view it is: none for the full view, every tile visible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seen_by: Option<Seat>,
}

/// How the players sat down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatingView {
    /// Seat 0's two dice.
    pub dice: [u8; 2],
    /// The chair they counted to, East's place (chair k is where seat k sat down).
    pub east_chair: u8,
    /// The wind marker each seat drew.
    pub markers: Vec<char>,
}

/// Where the wall was broken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BreakView {
    /// East's two dice and (with two throws) the wall owner's.
    pub dice: Vec<u8>,
    /// Whose wall was opened: its wind.
    pub wall: char,
    /// The stack lifted, counted from that wall's right end.
    pub stack: u8,
}

/// The discard a claim window is open on.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimView {
    pub from: Seat,
    #[serde_as(as = "DisplayFromStr")]
    pub tile: Tile,
}

/// One seat.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub seat: Seat,
    /// This hand's wind.
    pub wind: char,
    pub score: i64,
    /// The concealed tiles, sorted.
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub hand: Vec<Tile>,
    /// The laid-out sets (a concealed kong among them).
    pub melds: Vec<MeldView>,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub flowers: Vec<Flower>,
    pub discards: Vec<DiscardView>,
    /// In another seat's view: how many concealed tiles the seat holds (`hand` is then empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<usize>,
}

/// A laid-out set.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MeldView {
    /// `chi`, `pon`, `minkan` (claimed kong), `ankan` (kong from the hand), `kakan` (added to).
    pub kind: MeldKind,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub tiles: Vec<Tile>,
    /// Concealed: a kong declared from the hand.
    pub concealed: bool,
    /// The seat whose discard it took.
    pub from: Option<Seat>,
}

impl From<&Meld> for MeldView {
    fn from(m: &Meld) -> MeldView {
        MeldView { kind: m.kind, tiles: m.tiles().to_vec(), concealed: !m.is_open(), from: m.from }
    }
}

/// One discard.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiscardView {
    #[serde_as(as = "DisplayFromStr")]
    pub tile: Tile,
    /// Taken by a claim.
    pub called: bool,
}

/// How the last hand ended.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SettlementView {
    pub hand: u32,
    /// None: the hand was void.
    pub winner: Option<Seat>,
    #[serde_as(as = "Option<DisplayFromStr>")]
    pub tile: Option<Tile>,
    /// The seat whose discard was robbed for the win (none: self-drawn).
    pub robbed_from: Option<Seat>,
    pub heavenly: bool,
    /// By seat.
    pub players: Vec<HandScoreView>,
}

/// One player's hand at a hand's end and what it scored.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandScoreView {
    pub seat: Seat,
    pub wind: char,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub hand: Vec<Tile>,
    pub melds: Vec<MeldView>,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub flowers: Vec<Flower>,
    pub points: i64,
    pub doublings: u32,
    pub score: i64,
    /// Each point line and doubling, as `paifu score hungarian` names them.
    pub lines: Vec<LineView>,
    pub limit: Option<LineView>,
    /// Its payment: what it received (positive) or paid.
    pub settlement: i64,
}

/// A scoring line: its name and points (a doubling's name holds its factor; a limit's points are
/// its bonus).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineView {
    pub name: String,
    pub points: i64,
}

impl From<&Shown> for HandScoreView {
    fn from(s: &Shown) -> HandScoreView {
        let mut lines: Vec<LineView> =
            s.scored.lines.iter().map(|(l, p)| LineView { name: l.name().to_owned(), points: *p }).collect();
        lines.extend(
            s.scored
                .doubled
                .iter()
                .map(|(d, n)| LineView { name: format!("x{} {}", 1u64 << n.min(&62), d.name()), points: 0 }),
        );
        HandScoreView {
            seat: s.seat,
            wind: WIND_LETTERS[usize::from(s.wind & 3)],
            hand: s.hand.clone(),
            melds: s.melds.iter().map(MeldView::from).collect(),
            flowers: s.flowers.clone(),
            points: s.scored.points,
            doublings: s.scored.doublings,
            score: s.scored.score,
            lines,
            limit: s.scored.limit.map(|(l, b)| LineView { name: l.name().to_owned(), points: b }),
            settlement: s.delta,
        }
    }
}

impl From<&Settled> for SettlementView {
    fn from(s: &Settled) -> SettlementView {
        SettlementView {
            hand: s.hand_no,
            winner: s.winner,
            tile: s.tile,
            robbed_from: s.robbed_from,
            heavenly: s.heavenly,
            players: s.players.iter().map(HandScoreView::from).collect(),
        }
    }
}

impl View {
    /// Gives the seats their names, in seat order.
    pub fn name_seats(&mut self, names: &[String]) {
        for (p, name) in self.players.iter_mut().zip(names) {
            p.name = Some(name.clone());
        }
    }
}

impl Hungarian {
    pub(super) fn make_view(&self) -> View {
        let players = (0..4u8)
            .map(|seat| {
                let chair = self.chair_of(seat);
                let p = &self.hand.players[usize::from(chair)];
                PlayerView {
                    name: None,
                    seat,
                    wind: WIND_LETTERS[usize::from(self.wind_of(chair))],
                    score: self.scores[usize::from(seat)],
                    hand: (0..34)
                        .flat_map(|k| std::iter::repeat_n(Tile::kind_tile(k), usize::from(p.hand[k])))
                        .collect(),
                    melds: p.melds.iter().map(MeldView::from).collect(),
                    flowers: p.flowers.clone(),
                    discards: p.discards.iter().map(|d| DiscardView { tile: d.tile, called: d.claimed }).collect(),
                    hidden: None,
                }
            })
            .collect();
        let (drawn, claim) = match &self.phase {
            Phase::Turn { drawn, .. } => (*drawn, None),
            Phase::Claims { from, tile, .. } => (None, Some(ClaimView { from: self.seat_of(*from), tile: *tile })),
            Phase::Over => (None, None),
        };
        let b = &self.hand.broken;
        View {
            round: self.round(),
            scores: self.scores.to_vec(),
            to_act: self.to_act().iter().collect(),
            hand: self.hand_no,
            prevailing: WIND_LETTERS[usize::from(self.prevailing_wind())],
            east: self.seat_of(self.east),
            seating: SeatingView {
                dice: self.seating.dice,
                east_chair: self.seating.east_chair,
                markers: self.seating.markers.iter().map(|&w| WIND_LETTERS[usize::from(w & 3)]).collect(),
            },
            wall_break: BreakView {
                dice: b.dice.iter().copied().filter(|&d| d > 0).collect(),
                wall: WIND_LETTERS[usize::from(b.wall & 3)],
                stack: b.stack,
            },
            wall: self.hand.wall.left(),
            loose_drawn: self.hand.wall.replaced(),
            drawn,
            claim,
            players,
            last: self.last.as_deref().map(SettlementView::from),
            over: matches!(self.phase, Phase::Over),
            seen_by: None,
        }
    }

    /// What `seat` sees: its own concealed tiles and draw; of the others, how many concealed
    /// tiles each holds (their sets are laid out, a concealed kong too: seed "A Kongot mindig
    /// ki kell rakni"); in a claim window, whether it is asked itself (who else may claim
    /// depends on hidden hands); everything else as the full view shows it, the last hand's
    /// end with every hand, as every hand is scored at the table.
    pub(super) fn make_seat_view(&self, seat: Seat) -> View {
        let mut v = self.make_view();
        v.seen_by = Some(seat);
        for p in v.players.iter_mut().filter(|p| p.seat != seat) {
            p.hidden = Some(p.hand.len());
            p.hand.clear();
        }
        match &self.phase {
            Phase::Turn { chair, .. } if self.seat_of(*chair) != seat => v.drawn = None,
            Phase::Claims { .. } => v.to_act.retain(|&s| s == seat),
            _ => {}
        }
        v
    }

    /// The whole state as text, every hand visible.
    pub(super) fn render_text(&self) -> String {
        let v = self.make_view();
        let mut o = format!(
            "Hungarian mahjong, hand {} ({} game), East: seat {}, wall {} left, scores {:?}\n",
            v.hand, v.prevailing, v.east, v.wall, v.scores
        );
        for p in &v.players {
            let tiles: Vec<String> = p.hand.iter().map(|t| t.to_string()).collect();
            let melds: Vec<String> = p
                .melds
                .iter()
                .map(|m| format!("{}:{}", m.kind.name(), m.tiles.iter().map(|t| t.to_string()).collect::<String>()))
                .collect();
            let flowers: Vec<String> = p.flowers.iter().map(|f| f.to_string()).collect();
            let discards: Vec<String> =
                p.discards.iter().map(|d| format!("{}{}", d.tile, if d.called { "*" } else { "" })).collect();
            o.push_str(&format!(
                "seat {} {} {:>6}: {} | {} | flowers {} | discards {}\n",
                p.seat,
                p.wind,
                p.score,
                tiles.join(" "),
                melds.join(" "),
                flowers.join(" "),
                discards.join(" ")
            ));
        }
        if let Some(c) = &v.claim {
            o.push_str(&format!("claim window on seat {}'s {}; to act: {:?}\n", c.from, c.tile, v.to_act));
        }
        if let Some(r) = self.results.last() {
            o.push_str(&format!("last hand: {}\n", r.summary));
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hungarian::Rules;
    use crate::mahjong::Piece;
    use crate::seat_views::{check, other_seat};
    use crate::{Seed, Stream};

    /// The position with one concealed tile of a seat other than `seat` swapped with a tile of
    /// the live wall (of another kind when one is found, so that the full view changes).
    fn swap_with_wall(g: &Hungarian, seat: Seat, stream: &mut Stream) -> Option<Hungarian> {
        let chair = usize::from(g.chair_of(other_seat(seat, 4, stream)));
        let kinds: Vec<usize> = (0..34).filter(|&k| g.hand.players[chair].hand[k] > 0).collect();
        if kinds.is_empty() || g.hand.wall.left() == 0 {
            return None;
        }
        let mut p = g.clone();
        let k = kinds[stream.below(kinds.len() as u64) as usize];
        let start = stream.below(g.hand.wall.left() as u64) as usize;
        let other_kind = |w| matches!(w, Piece::Tile(w) if w.kind() != k);
        let Piece::Tile(w) = p.hand.wall.swap_live(start, Piece::Tile(Tile::kind_tile(k)), other_kind)? else {
            return None;
        };
        p.hand.players[chair].hand[k] -= 1;
        p.hand.players[chair].hand[w.kind()] += 1;
        Some(p)
    }

    #[test]
    fn a_seat_sees_its_hand_and_the_table_and_only_how_many_tiles_the_others_hold() {
        let start = |seed: &Seed| Hungarian::new(Rules::default(), 4, Some(seed)).unwrap();
        let seen = check(start, 2, 1500, swap_with_wall, |full, mine, seat| {
            let me = usize::from(seat);
            assert_eq!((full.seen_by, mine.seen_by), (None, Some(seat)));
            for (s, (a, b)) in full.players.iter().zip(&mine.players).enumerate() {
                if s == me {
                    assert_eq!((&b.hand, b.hidden), (&a.hand, None));
                } else {
                    assert!(b.hand.is_empty(), "seat {s} in seat {seat}'s view: {b:?}");
                    assert_eq!(b.hidden, Some(a.hand.len()));
                }
                assert_eq!(
                    (b.seat, b.wind, b.score, &b.melds, &b.flowers, &b.discards),
                    (a.seat, a.wind, a.score, &a.melds, &a.flowers, &a.discards)
                );
            }
            assert_eq!(mine.drawn, if full.claim.is_none() && full.to_act == [seat] { full.drawn } else { None });
            let asked: Vec<Seat> = full.to_act.iter().copied().filter(|&s| s == seat).collect();
            assert_eq!(mine.to_act, if full.claim.is_some() { asked } else { full.to_act.clone() });
            assert_eq!(
                (mine.round, &mine.scores, mine.hand, mine.prevailing, mine.east, &mine.seating, &mine.wall_break),
                (full.round, &full.scores, full.hand, full.prevailing, full.east, &full.seating, &full.wall_break)
            );
            assert_eq!(
                (mine.wall, mine.loose_drawn, &mine.claim, &mine.last, mine.over),
                (full.wall, full.loose_drawn, &full.claim, &full.last, full.over)
            );
        });
        assert!(seen.positions > 2000, "{seen:?}");
        assert!(seen.differed * 10 > seen.perturbed * 9, "{seen:?}");
    }

    #[test]
    fn a_seat_that_does_not_exist_sees_no_concealed_tile() {
        let g = Hungarian::new(Rules::default(), 4, Some(&Seed::from_text("nobody"))).unwrap();
        let v = g.seat_view(9);
        assert!(v.players.iter().all(|p| p.hand.is_empty() && p.hidden.is_some_and(|n| n >= 13)));
        assert_eq!(v.seen_by, Some(9));
        assert!(g.view().players.iter().all(|p| p.hand.len() >= 13 && p.hidden.is_none()));
    }
}
