//! What a viewer is shown of an MCR position: every hand, meld, flower and discard, the wall,
//! the claim window, and the last win with its fan.

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
        }
    }
}
