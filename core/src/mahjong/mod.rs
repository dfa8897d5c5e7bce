//! The mahjong table every mahjong ruleset shares (riichi now; the Chinese Official rules and
//! Hungarian 1925 next), each ruleset a layer of its own rules, scoring and options on top:
//!
//! - `tile.rs`: [`Tile`] (the 34 kinds and the red fives as one byte), the [`t!`](crate::t) macro,
//!   the hand notation ([`parse_tiles`], [`tiles_text`]), counts by kind ([`Counts`]) and the
//!   136-tile set.
//! - `piece.rs`: flowers and seasons ([`Flower`], `1f`-`8f`) and the pieces of a 144-tile set
//!   ([`Piece`]: a tile or a flower), for the games that have them.
//! - [`hand`]: winning shapes (four sets and a pair, seven pairs, thirteen orphans, the knitted
//!   shapes), decompositions, waits and shanten.
//! - `meld.rs`: [`Meld`] and [`MeldKind`] (chow, pung, claimed, concealed and added kong).
//! - `wall.rs`: `Wall`, the seeded wall broken by dice (`dice_break`), draws from the front and
//!   replacement draws from the end, a dead wall or loose tiles (`WallEnd`).
//! - `claim.rs`: claim windows and their arbitration (priorities, seat order from the discarder,
//!   several winners).
//! - `score_line.rs`: what the rulesets' `paifu score` line protocols share (the answer's frame,
//!   its error codes).
//!
//! The wall and the claim windows are the engines' business (crate-only); tiles, flowers, hand
//! shapes and melds are also the bots', importers' and viewers'.

// Kinds, suits and seats index several arrays at once.
#![allow(clippy::needless_range_loop)]

pub(crate) mod claim;
pub mod hand;
mod meld;
mod piece;
pub(crate) mod score_line;
mod tile;
mod wall;

pub use meld::{Meld, MeldKind};
pub use piece::{Flower, FlowerCodeError, Piece, PieceCodeError};
pub(crate) use tile::parse_tile_array;
pub use tile::{counts_of, parse_tiles, tiles_text, Counts, Tile, TileCodeError};
pub(crate) use wall::{dice_break, Wall, WallEnd};
