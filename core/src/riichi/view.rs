//! What a viewer is shown of a riichi position: every hand, meld and river, the wall, the dora
//! indicators, the claim window; every tile as its notation (`5m`, `0p` for a red five).

use crate::game::Seat;
use crate::mahjong::{Meld, MeldKind, Tile};
use serde::{Serialize, Serializer};
use serde_with::{serde_as, DisplayFromStr};

/// A riichi position.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub round: u32,
    pub scores: Vec<i64>,
    pub to_act: Vec<Seat>,
    /// The hand's name: `East 1`.
    pub hand: String,
    /// The round wind: `E`, `S`, `W` or `N`.
    pub round_wind: char,
    pub dealer: Seat,
    pub honba: u32,
    pub riichi_sticks: u32,
    /// Tiles left in the live wall.
    pub wall: usize,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub dora_indicators: Vec<Tile>,
    pub dice: [u8; 2],
    /// The tile the seat to act has just drawn.
    #[serde_as(as = "Option<DisplayFromStr>")]
    pub drawn: Option<Tile>,
    /// The discard that may be claimed now.
    pub claim: Option<ClaimView>,
    pub players: Vec<PlayerView>,
    pub over: bool,
}

/// The discard a claim window is open on.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimView {
    pub from: Seat,
    #[serde_as(as = "DisplayFromStr")]
    pub tile: Tile,
}

/// One seat of a riichi position.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// The player's name, when the viewer knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub seat: Seat,
    /// The seat's wind this hand: `E`, `S`, `W` or `N`.
    pub wind: char,
    pub score: i64,
    /// The concealed tiles, sorted.
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub hand: Vec<Tile>,
    pub melds: Vec<MeldView>,
    pub discards: Vec<DiscardView>,
    pub riichi: bool,
    pub furiten: bool,
}

/// A meld as shown.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MeldView {
    #[serde(serialize_with = "meld_kind")]
    pub kind: MeldKind,
    #[serde_as(as = "Vec<DisplayFromStr>")]
    pub tiles: Vec<Tile>,
    /// The tile taken from a discard (none for a closed kan).
    #[serde_as(as = "Option<DisplayFromStr>")]
    pub called: Option<Tile>,
    /// The seat it was taken from.
    pub from: Option<Seat>,
}

impl From<&Meld> for MeldView {
    fn from(m: &Meld) -> MeldView {
        MeldView { kind: m.kind, tiles: m.tiles().to_vec(), called: m.called, from: m.from }
    }
}

fn meld_kind<S: Serializer>(kind: &MeldKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.name())
}

/// One tile of a river.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiscardView {
    #[serde_as(as = "DisplayFromStr")]
    pub tile: Tile,
    /// The tile was the one just drawn.
    pub tsumogiri: bool,
    /// The riichi declaration tile.
    pub riichi: bool,
    /// Taken by another seat's call.
    pub called: bool,
}

impl View {
    /// Gives the seats their names, in seat order.
    pub fn name_seats(&mut self, names: &[String]) {
        for (p, name) in self.players.iter_mut().zip(names) {
            p.name = Some(name.clone());
        }
    }
}
