//! Paifu's integration tests: one binary, a module per area (ripgrep style).

mod architecture;
mod archive_attacks;
mod arena;
mod arena_threats;
mod cli;
mod cli_archive;
mod conformance;
mod duplicate_standings;
mod fixtures;
mod hungarian;
mod import;
mod import_mjlog_seed;
mod incidents;
mod log_format;
mod mcr;
mod mcr_import;
mod readme;
mod report;
mod riichi;
mod robustness;
mod tables;
mod tayu;
mod tenhou;
mod util;
mod web_crawl;
mod web_e2e;
