//! `paifu tournament`: the archive's tournaments, who owns each and which signing keys it trusts.

use crate::archive::{open, open_existing};
use crate::args::DEFAULT_DB;
use crate::cmd::keygen::read_key;
use crate::error::{Error, Result, Status};
use crate::output::{outln, printable};
use clap::{Args, Subcommand};
use paifu_core::cert::{self, PublicKey};
use paifu_recorder::archive::{ArchiveError, TournamentInfo};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(after_help = "A tournament's standings count its valid games that a key it trusts certified valid. \
A tournament belongs to an organiser (a token name): over the web only they, or an admin, add games to it and \
set its keys. On the command line, whoever can write the archive's file may do everything.

A minimum number of games (--min-games N) ranks only the players with at least N counted games in a \
standings table; the others are listed after them as \"unranked (K of N games)\". Without one every line is \
ranked. The signed report states the minimum it was made with (docs/report.md).

KEY is a public key file (PEM, as paifu keygen writes BASE.pub), a private key file (its public half is used) or \
64 hex digits (GET /api/key shows a server's).

Examples:
  paifu tournament create --db club.db \"Club night\" --owner alice --key referee.pub --min-games 4
  paifu tournament min-games --db club.db \"Club night\" 6
  paifu tournament min-games --db club.db \"Club night\" 0      (no minimum)
  paifu tournament trust --db club.db \"Club night\" --key referee.pub --key new-referee.pub
  paifu tournament list --db club.db")]
/// List tournaments, make one for an organiser, set the keys it trusts and its minimum of games.
pub struct TournamentArgs {
    #[command(subcommand)]
    pub action: TournamentAction,
}

#[derive(Subcommand, Debug)]
pub enum TournamentAction {
    /// Each tournament: its games, those its standings count, its owner and trusted keys.
    List {
        /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME.
        #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
        db: PathBuf,
    },
    /// Make a tournament, owned by a token name, trusting keys.
    Create {
        /// The archive: a SQLite file (created if missing), or a PostgreSQL URL,
        /// postgres://USER@HOST:PORT/DBNAME (the PG* variables fill in what it leaves out).
        #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
        db: PathBuf,
        /// The tournament's name.
        name: String,
        /// The organiser who owns it (a token name); without one, only admins add games over the web.
        #[arg(long, value_name = "NAME")]
        owner: Option<String>,
        /// A key whose certificates its standings accept (repeat for several).
        #[arg(long = "key", value_name = "KEY")]
        keys: Vec<String>,
        /// The counted games a player needs for a ranked line (0 or none given: no minimum).
        #[arg(long, value_name = "N")]
        min_games: Option<u64>,
    },
    /// Set the counted games a player needs for a ranked line in the standings (0: no minimum).
    MinGames {
        /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME.
        #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
        db: PathBuf,
        /// The tournament's name.
        name: String,
        /// The minimum; players with fewer counted games are listed after the ranked ones.
        #[arg(value_name = "N")]
        games: u64,
    },
    /// Set the keys a tournament trusts, replacing the ones it trusted (none given: it trusts none).
    Trust {
        /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME.
        #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
        db: PathBuf,
        /// The tournament's name.
        name: String,
        /// A key whose certificates its standings accept (repeat for several).
        #[arg(long = "key", value_name = "KEY")]
        keys: Vec<String>,
    },
}

/// A public key from a PEM file (public or private) or 64 hex digits.
pub(crate) fn read_public_key(given: &str) -> Result<PublicKey> {
    let path = Path::new(given);
    if path.is_file() {
        let text = std::fs::read(path).map_err(Error::io(path))?;
        let text = String::from_utf8_lossy(&text);
        if text.contains("PRIVATE KEY") {
            return Ok(read_key(path)?.verifying_key());
        }
        return cert::public_from_text(&text).map_err(|source| Error::PublicKey { given: given.to_owned(), source });
    }
    cert::public_from_text(given).map_err(|source| Error::PublicKey { given: given.to_owned(), source })
}

fn show(t: &TournamentInfo) -> Result<()> {
    outln!("  owner: {}", t.owner.as_deref().map(printable).unwrap_or_else(|| "none (admins only)".into()))?;
    match t.min_games {
        Some(m) => outln!("  ranks players with at least {m} counted games; the others are listed unranked")?,
        None => outln!("  no minimum of games: every player is ranked")?,
    }
    if t.trusted_keys.is_empty() {
        outln!("  trusts no key: its standings count no game")?;
    }
    for k in &t.trusted_keys {
        outln!("  trusts {k}")?;
    }
    Ok(())
}

fn name_error(db: &Path) -> impl FnOnce(ArchiveError) -> Error + '_ {
    move |e| match e {
        ArchiveError::Name(n) => Error::Usage(n.to_string()),
        ArchiveError::NoTournament(t) => {
            Error::Usage(format!("{}: there is no tournament {:?}", crate::archive::shown(db), t))
        }
        other => Error::archive(db)(other),
    }
}

/// `paifu tournament`.
pub fn run(a: TournamentArgs) -> Result {
    match a.action {
        TournamentAction::List { db } => {
            let archive = open_existing(&db)?;
            let rows = archive.tournaments().map_err(Error::archive(&db))?;
            if rows.is_empty() {
                outln!("no tournaments yet")?;
            }
            for r in rows {
                outln!(
                    "{}: {} games, {} valid, {} counted in the standings",
                    printable(&r.name),
                    r.games,
                    r.valid,
                    r.counted
                )?;
                if let Some(t) = archive.tournament_info(&r.name).map_err(Error::archive(&db))? {
                    show(&t)?;
                }
            }
            Ok(Status::Fine)
        }
        TournamentAction::Create { db, name, owner, keys, min_games } => {
            let keys = keys.iter().map(|k| read_public_key(k)).collect::<Result<Vec<_>>>()?;
            let mut archive = open(&db)?;
            let (t, made) = archive.ensure_tournament(&name, owner.as_deref(), &keys).map_err(name_error(&db))?;
            if !made {
                return Err(Error::Usage(format!(
                    "{}: the tournament {:?} exists already (paifu tournament trust sets its keys)",
                    crate::archive::shown(&db),
                    printable(&name)
                )));
            }
            let t = match min_games {
                Some(_) => archive.set_min_games(&name, min_games).map_err(name_error(&db))?,
                None => t,
            };
            outln!("made the tournament {}", printable(&name))?;
            show(&t)?;
            Ok(Status::Fine)
        }
        TournamentAction::MinGames { db, name, games } => {
            let mut archive = open_existing(&db)?;
            let t = archive.set_min_games(&name, Some(games)).map_err(name_error(&db))?;
            outln!("{}:", printable(&name))?;
            show(&t)?;
            Ok(Status::Fine)
        }
        TournamentAction::Trust { db, name, keys } => {
            let keys = keys.iter().map(|k| read_public_key(k)).collect::<Result<Vec<_>>>()?;
            let mut archive = open_existing(&db)?;
            let t = archive.set_trusted_keys(&name, &keys).map_err(name_error(&db))?;
            outln!("{}:", printable(&name))?;
            show(&t)?;
            Ok(Status::Fine)
        }
    }
}
