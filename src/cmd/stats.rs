//! `paifu stats`: statistics over the archive's valid games, overall and per player.

use crate::archive::open_existing;
use crate::args::{FilterArgs, DEFAULT_DB};
use crate::error::{Result, Status};
use crate::output::out;
use clap::{Args, ValueEnum};
use paifu_analyzer::Format;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Statistics add up over any set of games; the filters choose the set. With --player, only that \
player's statistics are shown beside those of everyone in the same games. docs/statistics.md says what each \
number means.

Examples:
  paifu stats --player Aiko
  paifu stats --tournament \"Spring Cup\" --game riichi --format csv
  paifu stats --since 2025-05-01            # games stored since the first of May (UTC)"
)]
/// Statistics over the archive's valid games, overall and per player.
///
/// Statistics add up over any set of games; the filters choose the set. With --player, only
/// that player's statistics are shown beside the overall ones of the same games. See
/// docs/statistics.md for what each number means.
pub struct StatsArgs {
    /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME.
    #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

/// `--format` of `paifu stats`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    Text,
    Json,
    Csv,
}

/// `paifu stats`.
pub fn run(a: StatsArgs) -> Result {
    let archive = open_existing(&a.db)?;
    let analysis = crate::archive::analysis(&archive, &a.db, &a.filter.filter())?;
    let format = match a.format {
        OutputFormat::Text => Format::Text,
        OutputFormat::Json => Format::Json,
        OutputFormat::Csv => Format::Csv,
    };
    out!("{}", paifu_analyzer::render(&analysis, format))?;
    Ok(Status::Fine)
}
