//! `paifu export`: riichi logs as tenhou.net/6 JSON or mjai JSON Lines, one log file or the
//! archive's games that the filters choose.

use crate::archive::{game_name, games, no_match, open_existing, stored_log};
use crate::args::{FilterArgs, DEFAULT_DB};
use crate::error::{Error, Result, Status};
use crate::output::{outln, write_file};
use clap::Args;
use paifu_core::log::{self, Log};
use paifu_core::riichi::Action;
use paifu_recorder::files::read_log_bytes;
use paifu_recorder::import::{mjai, tenhou6};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(after_help = "With a log file, writes that game to the file -o names. Without one, exports the valid \
riichi games of the archive (--db, default ./paifu.db) that the filters choose into the folder -o names, one \
file per game: game-N.json (tenhou) or game-N.mjson (mjai), N the game's number in the archive.

Examples:
  paifu export tenhou imported/game.paifu.jsonl -o back.json
  paifu export mjai --tournament \"Spring Cup\" -o spring-cup/")]
pub struct ExportArgs {
    /// The format to write: `tenhou` (tenhou.net/6 JSON) or `mjai` (full-information mjai JSON Lines).
    pub format: String,
    /// A riichi log (seeded or imported); without it, games from the archive.
    #[arg(conflicts_with_all = ["db", "game", "player", "tournament", "since"])]
    pub log: Option<PathBuf>,
    /// The file to write; for games from the archive, the folder (created if missing).
    #[arg(short, long)]
    pub out: PathBuf,
    /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME
    /// [default: paifu.db].
    #[arg(long, value_name = "FILE|URL")]
    pub db: Option<PathBuf>,
    #[command(flatten)]
    pub filter: FilterArgs,
}

/// The formats `paifu export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Tenhou,
    Mjai,
}

impl Format {
    fn parse(name: &str) -> Result<Format> {
        match name {
            "tenhou" => Ok(Format::Tenhou),
            "mjai" => Ok(Format::Mjai),
            other => Err(Error::Usage(format!("unknown export format {other:?}: write tenhou or mjai"))),
        }
    }

    /// The file name extension for games exported from the archive.
    fn extension(self) -> &'static str {
        match self {
            Format::Tenhou => "json",
            Format::Mjai => "mjson",
        }
    }

    /// A riichi log in this format; `name` says where it came from in messages.
    fn write(self, name: &str, log: &Log<Action>) -> Result<String> {
        let text = match self {
            Format::Tenhou => tenhou6::export(log),
            Format::Mjai => mjai::export(log),
        };
        text.map_err(|e| Error::unreadable(name, e))
    }
}

/// Decodes a riichi log; `name` says where its bytes came from in messages.
fn riichi_log(name: &str, bytes: &[u8]) -> Result<Log<Action>> {
    let (lg, _) = log::decode::<Action>(bytes).map_err(|f| Error::unreadable(name, f))?;
    if lg.header.game != "riichi" {
        return Err(Error::unreadable(name, format!("only riichi logs can be exported, not {}", lg.header.game)));
    }
    Ok(lg)
}

/// Exports the archive's valid riichi games that the filters choose into the folder `out`.
fn export_archive(format: Format, a: &ExportArgs, db: &Path) -> Result {
    let mut filter = a.filter.filter();
    match filter.game.as_deref() {
        None | Some("riichi") => filter.game = Some("riichi".into()),
        Some(other) => return Err(Error::Usage(format!("only riichi games can be exported, not {other}"))),
    }
    filter.valid = Some(true);
    let archive = open_existing(db)?;
    let rows = games(&archive, db, &filter)?;
    if rows.is_empty() {
        return Err(no_match(&archive, db, &filter));
    }
    for r in &rows {
        let name = game_name(r.id);
        let text = format.write(&name, &riichi_log(&name, &stored_log(&archive, db, r.id)?)?)?;
        write_file(&a.out.join(format!("game-{}.{}", r.id, format.extension())), text.as_bytes())?;
    }
    outln!("wrote {} {} files to {}", rows.len(), a.format, a.out.display())?;
    Ok(Status::Fine)
}

/// `paifu export`.
pub fn run(a: ExportArgs) -> Result {
    let format = Format::parse(&a.format)?;
    let Some(path) = &a.log else {
        let db = a.db.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_DB));
        return export_archive(format, &a, &db);
    };
    let name = path.display().to_string();
    let text = format.write(&name, &riichi_log(&name, &read_log_bytes(path)?)?)?;
    write_file(&a.out, text.as_bytes())?;
    Ok(Status::Fine)
}
