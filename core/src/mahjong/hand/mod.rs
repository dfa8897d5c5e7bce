//! Hand shapes, on tile counts by kind ([`Counts`](crate::mahjong::Counts): red fives count as plain fives, and flowers
//! are never part of a hand).
//!
//! - `tables.rs`: four sets and a pair through per-part shape tables: [`is_standard_win`],
//!   [`waits`] and riichi's [`is_win`], the checks a replay makes on every discard.
//! - `special.rs`: seven pairs (with or without a four counting as two pairs), thirteen
//!   orphans, and the knitted shapes of the Chinese Official rules ([`Knitted`]).
//! - `decompose.rs`: every reading of a standard hand as a pair and sets ([`decompositions`]).
//! - `shanten.rs`: how far a hand is from ready ([`shanten()`]).
//! - `reference.rs` (tests): the algorithms the tables replaced, which the tables are checked
//!   against.
//!
//! `is_standard_win`, `is_win` and `waits` read the counts of a hand, each 0..=4 and at most 14
//! tiles in all; beyond that their answers mean nothing (but they do not panic).

mod decompose;
#[cfg(test)]
mod reference;
mod shanten;
mod special;
mod tables;

pub use decompose::{decompositions, for_each_decomposition, Decomp, Set};
pub use shanten::{seven_pairs_shanten, shanten, standard_shanten, thirteen_orphans_shanten};
pub use special::{
    is_honours_and_knitted, is_knitted_straight_win, is_seven_distinct_pairs, is_seven_pairs, is_thirteen_orphans,
    knitted_straight, Knitted, YAOCHU,
};
pub use tables::{is_standard_win, is_win, standard_pairs, waits};

/// The counts of a hand in notation (tests).
#[cfg(test)]
fn counts(s: &str) -> crate::mahjong::Counts {
    crate::mahjong::counts_of(&crate::mahjong::parse_tiles(s).unwrap())
}

/// A mask of kinds in notation (tests).
#[cfg(test)]
fn kinds(mask: u64) -> String {
    let tiles: Vec<_> = (0..34).filter(|k| mask & (1 << k) != 0).map(crate::mahjong::Tile::kind_tile).collect();
    crate::mahjong::tiles_text(&tiles)
}
