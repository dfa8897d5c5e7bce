//! Chinese Official mahjong (the Mahjong Competition Rules, MCR): the Chinese part of seed 003
//! completed as the official rules per RULINGS.md (see docs/rules/mcr.md).
//!
//! - `fans.rs`: the 81 fan ([`Fan`]) and their table (`core/data/mcr-fans.txt`).
//! - `score.rs`: the fan calculator ([`score`]): every reading of a hand, the principles, the
//!   best reading.
//! - `score_line.rs`: `paifu score mcr`'s JSON Lines contract ([`score_line`]).

mod fans;
mod score;
mod score_line;

pub use fans::{Fan, FanInfo, FanSet, TableError};
pub use score::{score, Score, ScoreError, ScoreRules, Situation, WinHand, MINIMUM};
pub use score_line::score_line;

#[cfg(test)]
mod score_tests;
