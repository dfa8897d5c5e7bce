//! Opening the archive and reading the games the filters choose.

use crate::error::{Error, Result};
use paifu_analyzer::Analysis;
use paifu_recorder::archive::{Archive, Filter, GameRow};
use std::path::Path;

/// Opens the archive at `db`, creating it if missing (for the commands that store).
pub(crate) fn open(db: &Path) -> Result<Archive> {
    Archive::open(db).map_err(Error::archive(db))
}

/// Opens an archive that must exist (for the commands that only read one).
pub(crate) fn open_existing(db: &Path) -> Result<Archive> {
    if !db.exists() {
        return Err(Error::NoArchive { path: db.to_owned() });
    }
    open(db)
}

/// Every game matching `filter`, newest first.
pub(crate) fn games(archive: &Archive, db: &Path, filter: &Filter) -> Result<Vec<GameRow>> {
    archive.all_games(filter).map_err(Error::archive(db))
}

/// The statistics of every valid game matching `filter`; with a player in the filter, only
/// that player's beside the overall ones. The archive feeds the analyzer its replays.
pub(crate) fn analysis(archive: &Archive, db: &Path, filter: &Filter) -> Result<Analysis> {
    let mut total = Analysis::default();
    archive.for_each_game(filter, |g| total.add_game(&g, filter.player.as_deref())).map_err(Error::archive(db))?;
    Ok(total)
}

/// The bytes stored for game `id`: the binary encoding of the log, or the bytes as given when
/// they could not be decoded (decoding them again reports why).
pub(crate) fn stored_log(archive: &Archive, db: &Path, id: i64) -> Result<Vec<u8>> {
    match archive.log_bytes(id).map_err(Error::archive(db))? {
        Some((bytes, _form)) => Ok(bytes),
        None => Err(Error::Usage(format!("{}: there is no game {id}", db.display()))),
    }
}

/// How a stored game is named in messages.
pub(crate) fn game_name(id: i64) -> String {
    format!("game #{id}")
}
