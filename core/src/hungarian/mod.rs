//! Hungarian four-player mahjong, after Herger Emil's rules of 1925: seed
//! 001_bd4df34c4e188712.txt with RULINGS.md (see docs/rules/hungarian.md).
//!
//! - `table.rs`: the figure table, premiums, doublings and limit bonuses, read from
//!   core/data/hungarian-figures.txt and core/data/hungarian-limits.txt.
//! - `rules.rs`: the options ([`Rules`]).
//! - `score.rs`: scoring every player's finished hand and settling it, pure functions on tile
//!   counts.
//! - `score_line.rs`: `paifu score hungarian`, the referee's check of one hand.

mod rules;
pub mod score;
mod score_line;
pub mod table;

pub use rules::{HonoursIn, Length, Rules, Seating};
pub use score_line::score_line;

#[cfg(test)]
mod tests;
