//! Riichi mahjong: the Japanese part of seed 003 with RULINGS.md (see docs/rules/riichi.md).
//! Defaults are Tenhou's ranked rules.

pub mod hand;
pub mod rules;
pub mod score;
mod score_line;
mod tile;

pub use rules::{Renhou, Rules};
pub use score::{score, Limit, Meld, MeldKind, Payment, Score, ScoreError, Situation, WinHand, Yaku};
pub use score_line::score_line;
pub use tile::{counts_of, parse_tiles, tiles_text, Counts, Tile};
