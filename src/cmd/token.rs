//! `paifu token`: the credentials that let the web server's users write to the archive.

use crate::archive::{open, open_existing};
use crate::args::DEFAULT_DB;
use crate::error::{Error, Result, Status};
use crate::output::{outln, printable};
use clap::{Args, Subcommand};
use paifu_recorder::archive::{Role, Token};
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(after_help = "Reading the dashboard needs nothing; every request that writes (an upload, signing a \
certificate on demand, making a tournament or setting the keys it trusts) carries a token: \
`Authorization: Bearer TOKEN`, or the dashboard's log-in form. The archive keeps only each token's blake3 \
hash, so a token is shown once, when it is made.

Roles, each allowed what the one before it is:
  uploader   uploads logs (outside tournaments)
  organiser  makes tournaments, adds games to their own, sets the keys they trust, signs stored games on demand
  admin      all of that for every tournament

Examples:
  paifu token create --db club.db --name alice --role organiser
  TOKEN=$(paifu token create --db club.db --name ci-bot | tail -n 1)
  paifu token list --db club.db
  paifu token revoke --db club.db 3
  paifu token revoke --db club.db --name alice      # every token of alice

A revoked token is refused (401) from the next request on.")]
/// Make, list and revoke the tokens that may write to the archive through the web server.
pub struct TokenArgs {
    #[command(subcommand)]
    pub action: TokenAction,
}

#[derive(Subcommand, Debug)]
pub enum TokenAction {
    /// Make a token; it is printed as the last line and never shown again.
    Create {
        /// The archive: a SQLite file (created if missing), or a PostgreSQL URL,
        /// postgres://USER@HOST:PORT/DBNAME (the PG* variables fill in what it leaves out).
        #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
        db: PathBuf,
        /// Who the token is for (a person or a program); tournaments belong to this name.
        #[arg(long, value_name = "NAME")]
        name: String,
        /// What it may do.
        #[arg(long, value_name = "ROLE", default_value = "uploader", value_parser = parse_role)]
        role: Role,
    },
    /// List the tokens: number, name, role, when made, when revoked.
    List {
        /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME.
        #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
        db: PathBuf,
    },
    /// Revoke a token by its number, or every token of a name.
    Revoke {
        /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME.
        #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
        db: PathBuf,
        /// The token's number (paifu token list shows it).
        #[arg(value_name = "ID", required_unless_present = "name", conflicts_with = "name")]
        id: Option<i64>,
        /// Revoke every token of this name instead.
        #[arg(long, value_name = "NAME")]
        name: Option<String>,
    },
}

fn parse_role(s: &str) -> std::result::Result<Role, String> {
    s.parse().map_err(|e: paifu_recorder::archive::BadRole| e.to_string())
}

fn time(t: i64) -> String {
    let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(t.max(0) as u64);
    humantime::format_rfc3339_seconds(at).to_string()
}

/// One token as a line of `paifu token list`.
fn line(t: &Token) -> String {
    format!(
        "{:>4}  {:<24} {:<9} made {}{}",
        t.id,
        printable(&t.name),
        t.role,
        time(t.created_at),
        t.revoked_at.map(|r| format!(", revoked {}", time(r))).unwrap_or_default()
    )
}

/// `paifu token`.
pub fn run(a: TokenArgs) -> Result {
    match a.action {
        TokenAction::Create { db, name, role } => {
            let mut archive = open(&db)?;
            let made = archive.create_token(&name, role).map_err(|e| match e {
                paifu_recorder::archive::ArchiveError::Name(n) => Error::Usage(format!("--name: {n}")),
                other => Error::archive(&db)(other),
            })?;
            outln!(
                "made token {} for {} ({}) in {}; it is shown only now, keep it secret:",
                made.token.id,
                printable(&name),
                role,
                crate::archive::shown(&db)
            )?;
            outln!("{}", made.secret)?;
            Ok(Status::Fine)
        }
        TokenAction::List { db } => {
            let archive = open_existing(&db)?;
            let tokens = archive.tokens().map_err(Error::archive(&db))?;
            if tokens.is_empty() {
                outln!("no tokens yet: paifu token create --db {} --name NAME", crate::archive::shown(&db))?;
            }
            for t in &tokens {
                outln!("{}", line(t))?;
            }
            Ok(Status::Fine)
        }
        TokenAction::Revoke { db, id, name } => {
            let mut archive = open_existing(&db)?;
            let ids: Vec<i64> = match (id, &name) {
                (Some(id), _) => vec![id],
                (None, Some(n)) => archive
                    .tokens()
                    .map_err(Error::archive(&db))?
                    .into_iter()
                    .filter(|t| &t.name == n && !t.is_revoked())
                    .map(|t| t.id)
                    .collect(),
                (None, None) => vec![],
            };
            if ids.is_empty() {
                let who = name.as_deref().map(printable).unwrap_or_default();
                return Err(Error::Usage(format!(
                    "{}: {who} has no token that is not revoked",
                    crate::archive::shown(&db)
                )));
            }
            for id in ids {
                match archive.revoke_token(id).map_err(Error::archive(&db))? {
                    Some(t) => outln!("revoked: {}", line(&t))?,
                    None => {
                        return Err(Error::Usage(format!("{}: there is no token {id}", crate::archive::shown(&db))))
                    }
                }
            }
            Ok(Status::Fine)
        }
    }
}
