//! Paifu's integration tests: one binary, a module per area (ripgrep style).

mod cli;
mod cli_archive;
mod conformance;
mod fixtures;
mod import;
mod log_format;
mod riichi;
mod robustness;
mod tayu;
mod tenhou;
mod util;
mod web_e2e;

// The archive commands, compiled into the tests too so that they are tested directly.
#[path = "../../src/cmd_archive.rs"]
#[allow(dead_code)]
mod cmd_archive;
