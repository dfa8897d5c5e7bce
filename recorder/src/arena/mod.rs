//! Hosting matches between programs (`paifu arena`, docs/protocol.md): bots as child processes
//! ([`process`]) spoken to in a [`protocol`] (Paifu's own, [`paifu_line`], or mjai.app's,
//! [`mjai`]), one game played by the [`host`], each record journaled as it is played
//! ([`journal`]), a match of games with rotated seats and its folder ([`matches`]), each bot in a
//! [`sandbox`] unless the operator opts out. The match seed is fixed as `paifu_core::fair`
//! specifies.

pub mod duplicate;
pub mod host;
pub mod journal;
pub mod matches;
pub mod mjai;
pub mod paifu_line;
pub mod person;
pub mod process;
pub mod protocol;
pub mod queued;
pub mod sandbox;
pub mod tables;
