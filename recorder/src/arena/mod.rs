//! Hosting matches between programs (issue 17, in progress): bots as child processes
//! ([`process`]) spoken to in a [`protocol`], each game's log written as it is played
//! ([`journal`]). The match seed is fixed as `paifu_core::fair` specifies (docs/protocol.md).

pub mod journal;
pub mod mjai;
pub mod process;
pub mod protocol;
