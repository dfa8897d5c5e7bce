//! What a viewer is shown of an MCR position: every hand, meld, flower and discard, the wall,
//! the claim window, and the last win with its fan. A seat's view (`Game::seat_view`) leaves
//! out the other seats' concealed tiles, draws and concealed kongs' tiles.

use super::engine::{Mcr, Phase};
use crate::mahjong::{Flower, Meld, MeldKind, Tile};
use crate::{Game, Seat};
use serde::Serialize;
use serde_with::{serde_as, DisplayFromStr};

/// An MCR position.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub round: u32,
    pub scores: Vec<i64>,
    pub to_act: Vec<Seat>,
    /// The hand of the match, 1-16, and how many the match has.
    pub hand: u32,
    pub hands: u32,
    /// The prevalent wind: `E`, `S`, `W` or `N`.
    pub round_wind: char,
    pub dealer: Seat,
    /// Tiles left to draw.
    pub wall: usize,
    pub dice: [u8; 4],
    /// The tile the seat to act has just drawn.
    #[serde_as(as = "Option<DisplayFromStr>")]
    pub drawn: Option<Tile>,
    /// The discard (or the tile added to a kong) that may be claimed now.
    pub claim: Option<ClaimView>,
    pub players: Vec<PlayerView>,
    /// The last hand won, with its fan.
    pub last_win: Option<WinView>,
    pub over: bool,
    /// Whose view it is: none for the full view, every tile visible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seen_by: Option<Seat>,
}

/// The tile a claim window is open on.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimView {
    pub from: Seat,
    #[serde_as(as = "DisplayFromStr")]
    pub tile: Tile,
    /// The tile is being added to a kong (only a win may claim it).
    pub robbing: bool,
}

/// One seat.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub seat: Seat,
    /// The seat's wind this hand.
    pub wind: char,
    pub score: i64,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub hand: Vec<Tile>,
    pub melds: Vec<MeldView>,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub flowers: Vec<Flower>,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub discards: Vec<Tile>,
    /// In another seat's view: how many concealed tiles the seat holds (`hand` is then empty,
    /// and its concealed kongs, laid face down, show no tiles).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<usize>,
}

/// A meld as shown: `chi`, `pon`, `minkan`, `ankan` or `kakan` (the meld notation's names).
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MeldView {
    pub kind: MeldKind,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub tiles: Vec<Tile>,
    pub from: Option<Seat>,
}

impl From<&Meld> for MeldView {
    fn from(m: &Meld) -> MeldView {
        MeldView { kind: m.kind, tiles: m.tiles().to_vec(), from: m.from }
    }
}

/// A won hand and its fan.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WinView {
    pub seat: Seat,
    #[serde_as(as = "DisplayFromStr")]
    pub tile: Tile,
    /// The seat that discarded it or whose kong was robbed; none when self-drawn.
    pub from: Option<Seat>,
    pub fan: u32,
    pub fans: Vec<FanView>,
}

/// One fan of a won hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FanView {
    pub name: &'static str,
    pub fan: u8,
    pub count: u8,
}

impl View {
    /// Gives the seats their names, in seat order.
    pub fn name_seats(&mut self, names: &[String]) {
        for (p, name) in self.players.iter_mut().zip(names) {
            p.name = Some(name.clone());
        }
    }
}

const WINDS: [char; 4] = ['E', 'S', 'W', 'N'];

impl Mcr {
    pub(super) fn make_view(&self) -> View {
        let to_act = self.to_act();
        let (drawn, claim) = match &self.phase {
            Phase::Turn { drawn, .. } => (*drawn, None),
            Phase::Claims { window, tile } => {
                (None, Some(ClaimView { from: window.from(), tile: *tile, robbing: false }))
            }
            Phase::Rob { window, tile } => (None, Some(ClaimView { from: window.from(), tile: *tile, robbing: true })),
            _ => (None, None),
        };
        View {
            round: self.round(),
            scores: self.scores.to_vec(),
            to_act: to_act.iter().collect(),
            hand: self.hand_no + 1,
            hands: self.rules.hands,
            round_wind: WINDS[usize::from(self.round_wind())],
            dealer: self.dealer(),
            wall: self.wall_left(),
            dice: self.dice,
            drawn,
            claim,
            players: (0..4u8)
                .map(|s| {
                    let p = &self.players[usize::from(s)];
                    PlayerView {
                        name: None,
                        seat: s,
                        wind: WINDS[usize::from(self.seat_wind(s))],
                        score: self.scores[usize::from(s)],
                        hand: p.hand.clone(),
                        melds: p.melds.iter().map(MeldView::from).collect(),
                        flowers: p.flowers.clone(),
                        discards: p.river.clone(),
                        hidden: None,
                    }
                })
                .collect(),
            last_win: self.last_win.as_ref().map(|w| WinView {
                seat: w.seat,
                tile: w.tile,
                from: w.from,
                fan: w.score.total(),
                fans: w.score.fans().map(|(f, n)| FanView { name: f.name(), fan: f.value(), count: n }).collect(),
            }),
            over: self.is_over(),
            seen_by: None,
        }
    }

    /// What `seat` sees: its own concealed tiles and draw; of the others, how many concealed
    /// tiles each holds, and their concealed kongs face down (the kind of meld, no tiles); in a
    /// claim window, whether it is asked itself (who else may claim depends on hidden hands);
    /// everything else as the full view shows it.
    pub(super) fn make_seat_view(&self, seat: Seat) -> View {
        let mut v = self.make_view();
        v.seen_by = Some(seat);
        for p in v.players.iter_mut().filter(|p| p.seat != seat) {
            p.hidden = Some(p.hand.len());
            p.hand.clear();
            for m in p.melds.iter_mut().filter(|m| m.kind == MeldKind::ConcealedKong) {
                m.tiles.clear();
            }
        }
        match &self.phase {
            Phase::Turn { seat: on_turn, .. } if *on_turn != seat => v.drawn = None,
            Phase::Claims { .. } | Phase::Rob { .. } => v.to_act.retain(|&s| s == seat),
            _ => {}
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::Piece;
    use crate::mcr::Rules;
    use crate::seat_views::{check, other_seat};
    use crate::{Seed, Stream};

    /// The position with one concealed tile of a seat other than `seat` swapped with a tile of
    /// the live wall (of another kind when one is found, so that the full view changes).
    fn swap_with_wall(g: &Mcr, seat: Seat, stream: &mut Stream) -> Option<Mcr> {
        let o = usize::from(other_seat(seat, 4, stream));
        if g.players[o].hand.is_empty() || g.wall.left() == 0 {
            return None;
        }
        let mut p = g.clone();
        let i = stream.below(p.players[o].hand.len() as u64) as usize;
        let start = stream.below(g.wall.left() as u64) as usize;
        let mine = p.players[o].hand[i];
        let other_kind = |w| matches!(w, Piece::Tile(w) if w.kind() != mine.kind());
        let Piece::Tile(w) = p.wall.swap_live(start, Piece::Tile(mine), other_kind)? else { return None };
        p.players[o].hand[i] = w;
        p.players[o].hand.sort();
        Some(p)
    }

    #[test]
    fn a_seat_sees_its_hand_and_the_table_and_only_how_many_tiles_the_others_hold() {
        let start = |seed: &Seed| Mcr::new(Rules::default(), 4, Some(seed)).unwrap();
        let seen = check(start, 3, 1500, swap_with_wall, |full, mine, seat| {
            let me = usize::from(seat);
            assert_eq!((full.seen_by, mine.seen_by), (None, Some(seat)));
            for (s, (a, b)) in full.players.iter().zip(&mine.players).enumerate() {
                if s == me {
                    assert_eq!((&b.hand, &b.melds, b.hidden), (&a.hand, &a.melds, None));
                } else {
                    assert!(b.hand.is_empty(), "seat {s} in seat {seat}'s view: {b:?}");
                    assert_eq!(b.hidden, Some(a.hand.len()));
                    assert_eq!(a.melds.len(), b.melds.len());
                    for (x, y) in a.melds.iter().zip(&b.melds) {
                        if x.kind == MeldKind::ConcealedKong {
                            assert!(y.tiles.is_empty() && y.kind == x.kind);
                        } else {
                            assert_eq!(x, y);
                        }
                    }
                }
                assert_eq!(
                    (b.seat, b.wind, b.score, &b.flowers, &b.discards),
                    (a.seat, a.wind, a.score, &a.flowers, &a.discards)
                );
            }
            assert_eq!(mine.drawn, if full.claim.is_none() && full.to_act == [seat] { full.drawn } else { None });
            let asked: Vec<Seat> = full.to_act.iter().copied().filter(|&s| s == seat).collect();
            assert_eq!(mine.to_act, if full.claim.is_some() { asked } else { full.to_act.clone() });
            assert_eq!(
                (mine.round, &mine.scores, mine.hand, mine.hands, mine.round_wind, mine.dealer, mine.wall, mine.dice),
                (full.round, &full.scores, full.hand, full.hands, full.round_wind, full.dealer, full.wall, full.dice)
            );
            assert_eq!((&mine.claim, &mine.last_win, mine.over), (&full.claim, &full.last_win, full.over));
        });
        assert!(seen.positions > 3000, "{seen:?}");
        assert!(seen.differed * 10 > seen.perturbed * 9, "{seen:?}");
    }

    #[test]
    fn a_seat_that_does_not_exist_sees_no_concealed_tile() {
        let g = Mcr::new(Rules::default(), 4, Some(&Seed::from_text("nobody"))).unwrap();
        let v = g.seat_view(9);
        assert!(v.players.iter().all(|p| p.hand.is_empty() && p.hidden.is_some_and(|n| n >= 13)));
        assert_eq!((v.drawn, v.seen_by), (None, Some(9)));
        assert!(g.view().drawn.is_some() && g.seat_view(g.dealer()).drawn.is_some());
    }
}
