//! Making Paifu logs: bots, simulation, the shared conformance check, reading and writing log
//! files, and keys.

pub mod archive;
pub mod arena;
mod bot;
pub mod bots;
pub mod conformance;
pub mod files;
pub mod import;
pub mod keys;
pub mod samples;
mod simulate;

pub use bot::{Bot, RandomBot};
pub use simulate::{play_game, SimError};
