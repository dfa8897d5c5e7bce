//! Hosting matches between programs (issue 17, in progress): bots as child processes
//! ([`process`]). The match seed is fixed as `paifu_core::fair` specifies (docs/protocol.md).

pub mod process;
