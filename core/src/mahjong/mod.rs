//! The mahjong table every mahjong ruleset shares (riichi now; the Chinese Official rules and
//! Hungarian 1925 next): tiles, hand shapes, melds.
//!
//! - `tile.rs`: [`Tile`] (the 34 kinds and the red fives as one byte), the [`t!`](crate::t) macro,
//!   the hand notation ([`parse_tiles`], [`tiles_text`]) and counts by kind ([`Counts`]).
//! - `piece.rs`: flowers and seasons ([`Flower`], `1f`-`8f`) and the pieces of a 144-tile set
//!   ([`Piece`]: a tile or a flower), for the games that have them.
//! - [`hand`]: winning shapes, decompositions, waits and shanten.
//! - `meld.rs`: [`Meld`] and [`MeldKind`].

// Kinds, suits and seats index several arrays at once.
#![allow(clippy::needless_range_loop)]

pub mod hand;
mod meld;
mod piece;
mod tile;

pub use meld::{Meld, MeldKind};
pub use piece::{Flower, FlowerCodeError, Piece, PieceCodeError};
pub use tile::{counts_of, parse_tiles, tiles_text, Counts, Tile, TileCodeError};
