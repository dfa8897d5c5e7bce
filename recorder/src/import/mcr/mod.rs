//! Importers of Chinese Official (MCR) hand records, kept apart from the riichi formats: each
//! source is read into the one model of this module ([`SourceHand`]: the deals, the steps of
//! play with the claims a source shows, how the hand ended and what the source says it was
//! worth), and [`to_log`] makes a Paifu log of it by driving the MCR engine in imported mode.
//!
//! - `botzone.rs`: Botzone's Chinese Standard Mahjong match records (the public dataset's text
//!   form, one hand per `Match` block).
//! - `pmn.rs`: PMN (Portable Majiang Notation) hand records, as mahjongsoft.com's replays are
//!   written down.
//! - `to_log.rs`: the converter, and the checks of the source's stated fan and scores.
//! - `source.rs`: an imported log checked against the hand it embeds.
//!
//! Dependencies point one way: formats -> to_log -> this model.

pub mod botzone;
pub mod pmn;
pub(crate) mod source;
mod to_log;

use crate::import::ImportError;
use paifu_core::log::Options;
use paifu_core::mahjong::{Piece, Tile};

pub use to_log::{to_log, Imported};

/// One hand as a source records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceHand {
    /// The source format's name (`botzone`, `pmn`), written into the log's source block.
    pub format: &'static str,
    /// The ruleset and options the source's hands are played under (the prevalent wind apart).
    pub ruleset: &'static str,
    pub options: Options,
    /// The source's own identifier of the hand (Botzone's match id).
    pub id: String,
    /// The players, in seat order (seat 0 deals).
    pub names: [String; 4],
    /// The prevalent wind, 0 East .. 3 North.
    pub prevalent_wind: u8,
    /// Each seat's 13 starting tiles, and where the source gives them.
    pub deals: [(Vec<Tile>, String); 4],
    pub steps: Vec<Step>,
    pub end: End,
    /// Each seat's score change as the source states it.
    pub scores: Option<Scores>,
    /// The hand's own text in the source (embedded in the log).
    pub text: String,
}

/// One step of play: a seat's action, the claims the source says were made and set aside, and
/// where in the source it is (`line 17`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub seat: u8,
    pub what: What,
    /// Claims on the same tile that lost to this one (Botzone's `Ignore Player N ...`).
    pub ignored: Vec<(u8, What)>,
    pub at: String,
}

/// What a seat does, as sources name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    /// A draw, a replacement draw included.
    Draw(Piece),
    Discard(Tile),
    /// A chow on the discard, named by the middle tile of the chow.
    Chow(Tile),
    Pung(Tile),
    /// A kong on a discard.
    Kong(Tile),
    ConcealedKong(Tile),
    AddedKong(Tile),
    /// A win on this tile: self-drawn after a draw, on a discard, or robbing a kong.
    Win(Tile),
}

/// How the hand ended, as the source says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Won (the last step is the win; several wins on one discard in formats that allow them):
    /// the fan total the source states and its list of fan as
    /// the source names them (Chinese names, with how many times each counts).
    Won { fan: u32, fans: Vec<(String, u32)>, at: String },
    /// Drawn: the wall ran out.
    Drawn { at: String },
}

/// Both formats write a piece as a letter and a digit, in the same six kinds: its letters are
/// `letters` in this order: characters, dots, bamboo, winds (East South West North), dragons
/// (red, green, white: Paifu's 7z, 6z, 5z), flowers. The piece in Paifu's notation, or an error
/// that names the format (`what`, such as "Botzone tile (W1-W9, ...)").
fn piece_of(s: &str, letters: [char; 6], what: &str, at: &str) -> Result<Piece, ImportError> {
    let bad = || ImportError::new(at, format!("{s:?} is not a {what}"));
    let mut c = s.chars();
    let (Some(kind), Some(n), None) = (c.next(), c.next().and_then(|d| d.to_digit(10)), c.next()) else {
        return Err(bad());
    };
    let text = match (letters.iter().position(|&l| l == kind), n) {
        (Some(0), 1..=9) => format!("{n}m"),
        (Some(1), 1..=9) => format!("{n}p"),
        (Some(2), 1..=9) => format!("{n}s"),
        (Some(3), 1..=4) => format!("{n}z"),
        (Some(4), 1..=3) => format!("{}z", 8 - n),
        (Some(5), 1..=8) => format!("{n}f"),
        _ => return Err(bad()),
    };
    text.parse().map_err(|_| bad())
}

/// [`piece_of`], a tile only.
fn tile_of(s: &str, letters: [char; 6], what: &str, at: &str) -> Result<Tile, ImportError> {
    match piece_of(s, letters, what, at)? {
        Piece::Tile(t) => Ok(t),
        Piece::Flower(_) => Err(ImportError::new(at, format!("{s}: a flower where a tile is needed"))),
    }
}

/// What the source says the hand was worth: each seat's score change, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scores {
    pub deltas: [i64; 4],
    pub at: String,
}
