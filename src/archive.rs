//! Opening the archive and reading the games the filters choose.

use crate::error::{Error, Result};
use paifu_analyzer::Analysis;
use paifu_recorder::archive::{Archive, Filter, GameRow};
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

/// Opens the archive at `db`, creating it if missing (for the commands that store).
pub(crate) fn open(db: &Path) -> Result<Archive> {
    Archive::open(db).map_err(Error::archive(db))
}

/// Opens an archive that must exist (for the commands that only read one). A PostgreSQL URL
/// (`postgres://...`) names a database that must exist already, which the server checks.
pub(crate) fn open_existing(db: &Path) -> Result<Archive> {
    let url = db.to_str().is_some_and(paifu_recorder::archive::is_postgres_url);
    if !url && !db.exists() {
        return Err(Error::NoArchive { path: db.to_owned() });
    }
    open(db)
}

/// `db` as messages show it: a PostgreSQL URL without its password.
pub(crate) fn shown(db: &Path) -> String {
    paifu_recorder::archive::shown_location(&db.to_string_lossy())
}

/// Every game matching `filter`, newest first.
pub(crate) fn games(archive: &Archive, db: &Path, filter: &Filter) -> Result<Vec<GameRow>> {
    archive.all_games(filter).map_err(Error::archive(db))
}

/// The statistics of every valid game matching `filter`; with a player in the filter, only
/// that player's beside the overall ones. The archive feeds the analyzer its replays. No game
/// matching is an error ([`no_match`]), as for every command that reads the archive's games.
pub(crate) fn analysis(archive: &Archive, db: &Path, filter: &Filter) -> Result<Analysis> {
    let mut total = Analysis::default();
    let n =
        archive.for_each_game(filter, |g| total.add_game(&g, filter.player.as_deref())).map_err(Error::archive(db))?;
    if n == 0 {
        return Err(no_match(archive, db, &Filter { valid: Some(true), ..filter.clone() }));
    }
    Ok(total)
}

/// The error of filters that chose no game (exit status 2 for every command): it names the
/// archive and the filters, and for a player the archive does not know, the players whose names
/// begin with the one given, in any case (the archive's search, docs/web.md "Search").
pub(crate) fn no_match(archive: &Archive, db: &Path, filter: &Filter) -> Error {
    let mut given = Vec::new();
    if let Some(g) = &filter.game {
        given.push(format!("--game {g}"));
    }
    for (flag, name) in [("--player", &filter.player), ("--tournament", &filter.tournament)] {
        if let Some(name) = name {
            given.push(format!("{flag} {name:?}"));
        }
    }
    if let Some(since) = filter.since {
        given.push(match u64::try_from(since) {
            Ok(s) => format!("--since {}", humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_secs(s))),
            Err(_) => format!("--since {since} seconds from 1970"),
        });
    }
    let what = match filter.valid {
        Some(true) => "valid games",
        Some(false) => "invalid games",
        None => "games",
    };
    let db = shown(db);
    let mut message = match given.is_empty() {
        true => format!("{db} has no {what}"),
        false => format!("no {what} in {db} match {}", given.join(" ")),
    };
    if let Some(p) = &filter.player {
        if matches!(archive.player(p), Ok(None)) {
            let like: Vec<String> =
                archive.players(Some(p), 10, 0).unwrap_or_default().into_iter().map(|r| r.name).collect();
            message.push_str(&match like.is_empty() {
                true => format!("; no player is named {p:?}"),
                false => format!("; no player is named {p:?}, did you mean: {}", like.join(", ")),
            });
        }
    }
    Error::NoMatch(message)
}

/// The bytes stored for game `id`: the binary encoding of the log, or the bytes as given when
/// they could not be decoded (decoding them again reports why).
pub(crate) fn stored_log(archive: &Archive, db: &Path, id: i64) -> Result<Vec<u8>> {
    match archive.log_bytes(id).map_err(Error::archive(db))? {
        Some((bytes, _form)) => Ok(bytes),
        None => Err(Error::Usage(format!("{}: there is no game {id}", shown(db)))),
    }
}

/// How a stored game is named in messages.
pub(crate) fn game_name(id: i64) -> String {
    format!("game #{id}")
}
