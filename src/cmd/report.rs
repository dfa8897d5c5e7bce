//! `paifu report --tournament`: a tournament's audit report, its logs and certificates, and the
//! signed manifest that `paifu verify tournament` checks (docs/report.md).

use crate::archive::open_existing;
use crate::args::DEFAULT_DB;
use crate::cmd::keygen::read_key;
use crate::error::{Error, Result, Status};
use crate::output::{make_dir, now_rfc3339, outln, progress_of, write_file};
use clap::Args;
use paifu_analyzer::duplicate::duplicate_csv;
use paifu_analyzer::report::{games_csv, standings_csv, tournament_html, Replay};
use paifu_core::manifest::ManifestBody;
use paifu_recorder::archive::identity_of;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The folder of logs and certificates inside the report's folder.
pub(crate) const LOGS: &str = "games";

#[derive(Args, Debug)]
#[command(after_help = "Writes into DIR:
  index.html     the report, one file with nothing loaded from elsewhere: standings per game
                 and ruleset with a chart each (and the duplicate sets' standings, if any),
                 every game with its verdict, certificates and a link to replay it
  standings.csv  the standings, a line per player and table
  games.csv      every game: file, blake3, verdict, whether it counts, certificates
  duplicate.csv  only when counted games were played duplicate (paifu arena --duplicate, a
                 duplicate table): each player's mean rank points with a 95% interval over
                 the complete duplicate sets, a line per player and table (also printed)
  games/         each game's log as stored (GAME-B3.paifu) and the certificates of the keys the
                 tournament trusts (GAME-B3.C3.cert.json)
  manifest.json  every game's digests and certificates under one Merkle root, with the
                 standings, signed with --key (docs/report.md)

Anyone with the public key checks the whole tournament with paifu verify tournament, which \
names any game added, removed or changed. The dashboard's tournament page shows the same root.

Run again into the same DIR, it rewrites the report; it refuses when DIR/games holds a file the \
new manifest does not list (it would read as an added game).

Exit status: 0 written, 2 no such tournament or archive, or a file could not be written.

Examples:
  paifu report --tournament \"Club night\" --db club.db -o club-report --key referee.key
  paifu report --tournament Cup -o report --key referee.key --dashboard https://club.example")]
pub struct ReportArgs {
    /// The tournament to report on.
    #[arg(long, value_name = "NAME")]
    pub tournament: String,
    /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME.
    #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// The folder to write the report into (made if missing).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// The private key that signs the manifest (from paifu keygen).
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    /// The dashboard's address: each game links to its viewer there (else to its log file).
    #[arg(long, value_name = "URL")]
    pub dashboard: Option<String>,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `paifu report`.
pub fn run(a: ReportArgs) -> Result {
    let key = read_key(&a.key)?;
    let archive = open_existing(&a.db)?;
    let Some(published) = archive.published(&a.tournament).map_err(Error::archive(&a.db))? else {
        let names: Vec<String> =
            archive.tournaments().map_err(Error::archive(&a.db))?.into_iter().map(|t| t.name).collect();
        return Err(Error::NoMatch(format!(
            "{}: no tournament {:?} (the archive has {})",
            crate::archive::shown(&a.db),
            a.tournament,
            if names.is_empty() { "none".to_owned() } else { names.join(", ") }
        )));
    };
    let logs = a.output.join(LOGS);
    let listed: BTreeSet<String> = published
        .games
        .iter()
        .flat_map(|g| std::iter::once(g.entry.file.clone()).chain(g.entry.certificates.iter().map(|c| c.file.clone())))
        .collect();
    if logs.is_dir() {
        let mut strays: Vec<String> = std::fs::read_dir(&logs)
            .map_err(Error::io(&logs))?
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .filter(|n| !listed.contains(n))
            .collect();
        if !strays.is_empty() {
            strays.sort();
            return Err(Error::Usage(format!(
                "{}: holds {} file(s) this tournament's manifest does not list ({}{}): verify would read them as \
                 added games; move them away or report into another folder",
                logs.display(),
                strays.len(),
                strays.iter().take(5).cloned().collect::<Vec<_>>().join(", "),
                if strays.len() > 5 { ", ..." } else { "" }
            )));
        }
    }
    make_dir(&logs)?;
    let bar = progress_of(published.games.len() as u64, "writing games", a.quiet);
    let mut replay = Vec::with_capacity(published.games.len());
    let mut notes = Vec::with_capacity(published.games.len());
    for g in &published.games {
        let bytes = crate::archive::stored_log(&archive, &a.db, g.id)?;
        if identity_of(&bytes) != g.entry.blake3 {
            return Err(Error::archive(&a.db)(paifu_recorder::archive::ArchiveError::Corrupt(format!(
                "entry {}: its stored bytes are not its identity {}",
                g.id, g.entry.blake3
            ))));
        }
        write_file(&logs.join(&g.entry.file), &bytes)?;
        for (c, text) in g.entry.certificates.iter().zip(&g.certificate_texts) {
            write_file(&logs.join(&c.file), text.as_bytes())?;
        }
        // A match whose bots ran unsandboxed (paifu arena --no-sandbox) says so in its header.
        let sandbox = paifu_core::log::read_header(&bytes).ok().and_then(|h| h.meta.get("sandbox").cloned());
        notes.push(sandbox.map(|s| format!("sandbox: {s}")));
        replay.push(match &a.dashboard {
            Some(url) => Replay::Dashboard { url: url.clone(), id: g.id },
            None => Replay::File(format!("{LOGS}/{}", g.entry.file)),
        });
        bar.inc(1);
    }
    bar.finish();
    let mut body = ManifestBody::new(
        a.tournament.clone(),
        now_rfc3339(),
        &key.verifying_key(),
        published.trusted_keys(),
        published.games.iter().map(|g| g.entry.clone()).collect(),
        published.standing_lines(),
    );
    // The minimum its standings were ranked with, signed with them (docs/report.md).
    body.min_games = published.info.min_games;
    let manifest = body.sign(&key);
    let m = &manifest.manifest;
    write_file(&a.output.join("manifest.json"), manifest.to_json().as_bytes())?;
    // Duplicate games: the statistic `paifu arena --duplicate` prints, over the counted games
    // (not signed: anyone recomputes it from the logs the manifest lists).
    let duplicate = archive.duplicate_standings(&a.tournament).map_err(Error::archive(&a.db))?.unwrap_or_default();
    let html = tournament_html(m, &replay, &notes, LOGS, &published.terms, &duplicate);
    write_file(&a.output.join("index.html"), html.as_bytes())?;
    write_file(&a.output.join("standings.csv"), standings_csv(&m.standings, m.min_games).as_bytes())?;
    write_file(&a.output.join("games.csv"), games_csv(&m.games).as_bytes())?;
    if !duplicate.is_empty() {
        write_file(&a.output.join("duplicate.csv"), duplicate_csv(&duplicate).as_bytes())?;
    }
    let counted = m.games.iter().filter(|g| g.counted).count();
    for t in &duplicate {
        outln!("{} ({} rules): {}", t.game, t.ruleset, t.summary)?;
    }
    outln!(
        "wrote {}: {} games ({counted} counted), {} standings lines, root {}",
        a.output.display(),
        m.games.len(),
        m.standings.len(),
        m.root
    )?;
    outln!(
        "check it with: paifu verify tournament {} --key PUBLIC_KEY --logs {}",
        a.output.join("manifest.json").display(),
        logs.display()
    )?;
    Ok(Status::Fine)
}
