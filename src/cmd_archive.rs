//! The archive's commands: `paifu ingest`, `paifu stats`, `paifu plot`, `paifu serve`.
//!
//! Each returns the process exit code: 0 when all went well, 1 when some log is invalid (where
//! that matters), and `Err` (exit 2) for usage and I/O errors.

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use paifu_analyzer::{plot, Analysis, Format};
use paifu_core::cert::{self, SecretKey};
use paifu_recorder::archive::{prepare, Archive, Filter, Prepared};
use paifu_recorder::files::{collect_logs, read_log_bytes, ReadError};
use paifu_recorder::keys;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// The archive used when `--db` is not given.
pub const DEFAULT_DB: &str = "paifu.db";

/// Logs validated together before they are stored; each stored batch is committed.
const CHUNK: usize = 64;

#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Files and folders (searched for *.paifu and *.paifu.jsonl) are validated in parallel and every \
log is stored with its verdict, an invalid one with its fault, once: a log already in the archive is not stored \
again. Each batch is committed before it is counted, so an interrupted ingest keeps every log it reported stored.

Exit status: 0 every log valid, 1 some log invalid, 2 a file or the database could not be used."
)]
/// Validate logs and store them in the archive, valid and invalid alike.
///
/// Files and folders (searched recursively for *.paifu and *.paifu.jsonl) are validated in
/// parallel; every log is stored with its verdict (an invalid one with its fault), in the
/// binary encoding, once: a log already in the archive is not stored again. Progress is
/// committed in small batches, so an interrupted ingest keeps every log reported stored.
/// Exit code: 0 all valid, 1 some log invalid, 2 a file or the database could not be used.
pub struct IngestArgs {
    /// Log files or folders.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The archive's database file (created if missing).
    #[arg(long, value_name = "FILE", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// Put the logs in this tournament (created if missing).
    #[arg(long, value_name = "NAME")]
    pub tournament: Option<String>,
    /// Sign a certificate for each new log with this ed25519 private key (PKCS#8 PEM) and store it.
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
    /// No progress bar, only the summary.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Statistics add up over any set of games; the filters choose the set. With --player, only that \
player's statistics are shown beside those of everyone in the same games. docs/statistics.md says what each \
number means.

Examples:
  paifu stats --player Aiko
  paifu stats --tournament \"Spring Cup\" --game riichi --format csv"
)]
/// Statistics over the archive's valid games, overall and per player.
///
/// Statistics add up over any set of games; the filters choose the set. With --player, only
/// that player's statistics are shown beside the overall ones of the same games. See
/// docs/statistics.md for what each number means.
pub struct StatsArgs {
    /// The archive's database file.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// Only games this player played, and only their statistics.
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Only games of this tournament.
    #[arg(long, value_name = "NAME")]
    pub tournament: Option<String>,
    /// Only games of this kind (tzq, riichi, ...).
    #[arg(long, value_name = "KIND")]
    pub game: Option<String>,
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

#[derive(Args, Debug, Clone)]
#[command(after_help = "KIND is one of:
  scores       a game's scores after each round (needs --id N)
  placements   how often a player took each place (needs --player NAME)
  categories, win_points, turns   Tien Zi Que distributions
  yaku, han, fu, ends             riichi distributions
  score, ends                     Ta Yü distributions
Distributions are over the valid games the filters choose, for one game kind (--game when there are several).

Examples:
  paifu plot scores --id 12 -o game12.svg
  paifu plot placements --player Aiko -o aiko.svg
  paifu plot yaku --game riichi -o yaku.svg")]
/// Draw a plot from the archive as an SVG file.
///
/// KIND is one of:
///   scores      a game's scores after each round (needs --id)
///   placements  how often a player took each place (needs --player)
///   categories, win_points, turns   TZQ distributions
///   yaku, han, fu, ends             riichi distributions
///   score, ends                     Ta Yü distributions
/// Distributions are over the games the filters choose (all valid games by default), for one
/// game kind (--game; the only kind in the selection if there is one).
pub struct PlotArgs {
    /// What to plot.
    #[arg(value_name = "KIND")]
    pub kind: String,
    /// Where to write the SVG.
    #[arg(short, long, value_name = "FILE.svg")]
    pub output: PathBuf,
    /// The archive's database file.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// The game (its number in the archive) for `scores`.
    #[arg(long, value_name = "N")]
    pub id: Option<i64>,
    /// Only this player's games and statistics.
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Only games of this tournament.
    #[arg(long, value_name = "NAME")]
    pub tournament: Option<String>,
    /// The game kind (tzq, riichi, ...).
    #[arg(long, value_name = "KIND")]
    pub game: Option<String>,
}

#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Pages for the archive, the games (with a move-by-move viewer), players, tournaments, uploads and \
certificate checks, with a JSON API under /api/ and the server's public key at /api/key (docs/web.md).

Example:
  paifu serve --db club.db --addr 127.0.0.1:8080 --key referee.key"
)]
/// Serve the web dashboard over the archive.
///
/// Pages for the archive, games (with a move-by-move viewer), players, tournaments, uploads and
/// certificate checks, with a JSON API under /api/. Certificates are signed with --key, or with
/// a key made for this run.
pub struct ServeArgs {
    /// The archive's database file (created if missing).
    #[arg(long, value_name = "FILE", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// ed25519 private key (PKCS#8 PEM) to sign certificates with; created if the file does not exist.
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
    /// Largest upload accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = paifu_web::DEFAULT_MAX_UPLOAD)]
    pub max_upload: usize,
}

fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// Reads a PEM private key (readable by its owner only, as `paifu keygen` writes it).
pub fn read_key(path: &Path) -> Result<SecretKey, String> {
    keys::read_private(path).map_err(|e| e.to_string())
}

/// Reads a PEM private key, or makes one and writes it there (mode 0600) when the file does not
/// exist. Answers whether it was made.
pub fn read_or_create_key(path: &Path) -> Result<(SecretKey, bool), String> {
    if path.exists() {
        return Ok((read_key(path)?, false));
    }
    let (private, _public) = keys::generate().map_err(|e| e.to_string())?;
    keys::write_private(path, &private).map_err(|e| e.to_string())?;
    Ok((read_key(path)?, true))
}

fn open_existing(db: &Path) -> Result<Archive, String> {
    if !db.exists() {
        return Err(format!("{}: no such archive (make one with paifu ingest)", db.display()));
    }
    Archive::open(db).map_err(|e| format!("{}: {e}", db.display()))
}

/// What an ingest did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct IngestSummary {
    pub files: usize,
    pub new_valid: usize,
    pub new_invalid: usize,
    pub already: usize,
    pub unreadable: Vec<String>,
    /// `path: fault` of each invalid log (new or already stored).
    pub invalid: Vec<String>,
}

impl IngestSummary {
    fn print(&self) {
        println!(
            "{} files: {} stored ({} valid, {} invalid), {} already in the archive, {} unreadable",
            self.files,
            self.new_valid + self.new_invalid,
            self.new_valid,
            self.new_invalid,
            self.already,
            self.unreadable.len()
        );
        for (i, line) in self.invalid.iter().enumerate() {
            if i == 20 {
                println!("  ... and {} more invalid logs", self.invalid.len() - 20);
                break;
            }
            println!("  invalid: {line}");
        }
        for e in &self.unreadable {
            println!("  unreadable: {e}");
        }
    }
}

/// Validates and stores files; the library side of `paifu ingest`.
pub fn ingest_files(
    archive: &mut Archive,
    files: &[PathBuf],
    tournament: Option<&str>,
    key: Option<&SecretKey>,
    progress: &ProgressBar,
) -> Result<IngestSummary, String> {
    let mut s = IngestSummary { files: files.len(), ..IngestSummary::default() };
    for chunk in files.chunks(CHUNK) {
        let prepared: Vec<(&PathBuf, Result<Prepared, ReadError>)> =
            chunk.par_iter().map(|p| (p, read_log_bytes(p).map(|b| prepare(&b)))).collect();
        let mut items = Vec::new();
        let mut names = Vec::new();
        for (path, r) in prepared {
            match r {
                Ok(p) => {
                    items.push(p);
                    names.push(path.display().to_string());
                }
                Err(e) => s.unreadable.push(e.to_string()),
            }
        }
        let sources: Vec<Option<&str>> = names.iter().map(|n| Some(n.as_str())).collect();
        let stored = archive.store_batch(&items, &sources, tournament).map_err(|e| e.to_string())?;
        for ((st, p), name) in stored.iter().zip(&items).zip(&names) {
            match (st.new, st.valid) {
                (false, _) => s.already += 1,
                (true, true) => s.new_valid += 1,
                (true, false) => s.new_invalid += 1,
            }
            if let Some(f) = &st.fault {
                s.invalid.push(format!("{name}: {}", f.describe()));
            }
            if let (Some(k), true) = (key, st.new) {
                if let Some(body) = cert::CertificateBody::from_report(&p.report(), now_rfc3339(), &k.verifying_key()) {
                    let c = cert::sign(body, k);
                    let signer = hex::encode(k.verifying_key().to_bytes());
                    archive
                        .put_certificate(st.id, &signer, &c.certificate.issued_at, &c.to_json())
                        .map_err(|e| e.to_string())?;
                }
            }
        }
        // Everything counted here is committed.
        progress.inc(chunk.len() as u64);
    }
    Ok(s)
}

/// `paifu ingest`.
pub fn ingest(a: IngestArgs) -> Result<i32, String> {
    let files = collect_logs(&a.paths).map_err(|e| e.to_string())?;
    let key = a.key.as_deref().map(read_key).transpose()?;
    let mut archive = Archive::open(&a.db).map_err(|e| format!("{}: {e}", a.db.display()))?;
    let pb = if a.quiet { ProgressBar::hidden() } else { ProgressBar::new(files.len() as u64) };
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} logs stored ({per_sec}, {eta} left)")
            .map_err(|e| e.to_string())?,
    );
    let s = ingest_files(&mut archive, &files, a.tournament.as_deref(), key.as_ref(), &pb)?;
    pb.finish_and_clear();
    s.print();
    if !s.unreadable.is_empty() {
        return Ok(2);
    }
    Ok(if s.invalid.is_empty() { 0 } else { 1 })
}

fn filter(player: &Option<String>, tournament: &Option<String>, game: &Option<String>) -> Filter {
    Filter { game: game.clone(), player: player.clone(), tournament: tournament.clone(), valid: None }
}

/// The analysis of every valid game matching `filter`; with a player in the filter, only that
/// player's statistics beside the overall ones.
fn analysis_of(archive: &Archive, filter: &Filter) -> Result<Analysis, String> {
    let mut total = Analysis::default();
    archive.for_each_game(filter, |g| total.add_game(&g, filter.player.as_deref())).map_err(|e| e.to_string())?;
    Ok(total)
}

/// `paifu stats`.
pub fn stats(a: StatsArgs) -> Result<i32, String> {
    let archive = open_existing(&a.db)?;
    let analysis = analysis_of(&archive, &filter(&a.player, &a.tournament, &a.game))?;
    let format = match a.format {
        OutputFormat::Text => Format::Text,
        OutputFormat::Json => Format::Json,
        OutputFormat::Csv => Format::Csv,
    };
    print!("{}", paifu_analyzer::render(&analysis, format));
    Ok(0)
}

/// The SVG text of a plot; the library side of `paifu plot`.
pub fn plot_svg(archive: &Archive, a: &PlotArgs) -> Result<String, String> {
    match a.kind.as_str() {
        "scores" => {
            let id = a.id.ok_or("plot scores needs --id N (the game's number in the archive)")?;
            let g = archive.game(id).map_err(|e| e.to_string())?.ok_or(format!("there is no game {id}"))?;
            let names: Vec<String> = g.seats.iter().map(|s| s.player.clone()).collect();
            Ok(plot::score_chart(
                &names,
                &g.rounds,
                plot::starting_score(g.final_scores.as_deref().unwrap_or(&[]), &g.rounds),
                &format!("Game #{id}: scores after each round"),
            ))
        }
        kind => {
            let f = filter(&a.player, &a.tournament, &a.game);
            let analysis = analysis_of(archive, &f)?;
            let stats = match &a.player {
                Some(p) => analysis.players.get(p).ok_or(format!("{p} has no valid games in this selection"))?,
                None => &analysis.overall,
            };
            let game = match &a.game {
                Some(g) => g.clone(),
                None if stats.kinds.len() == 1 => stats.kinds.keys().next().cloned().unwrap_or_default(),
                None if stats.kinds.is_empty() => return Err("no valid games match".into()),
                None => {
                    let kinds: Vec<&str> = stats.kinds.keys().map(String::as_str).collect();
                    return Err(format!(
                        "the selection has several games ({}); choose one with --game",
                        kinds.join(", ")
                    ));
                }
            };
            let block = stats.kinds.get(&game).ok_or(format!("no valid {game} games match"))?;
            if kind == "placements" {
                let who = a.player.as_deref().ok_or("plot placements needs --player NAME")?;
                return Ok(plot::placement_chart(who, &block.placements));
            }
            let dists = paifu_analyzer::distributions(&game, block);
            let d = dists.iter().find(|d| d.name == kind).ok_or_else(|| {
                let names: Vec<&str> = dists.iter().map(|d| d.name.as_str()).collect();
                format!("unknown plot {kind:?} for {game}: use scores, placements, {}", names.join(", "))
            })?;
            let numeric = d.values.iter().all(|(l, _)| l.parse::<i64>().is_ok());
            Ok(if numeric {
                plot::bars(&d.title, &d.values, "", "count")
            } else {
                plot::frequency_bars(&d.title, &d.values)
            })
        }
    }
}

/// `paifu plot`.
pub fn plot(a: PlotArgs) -> Result<i32, String> {
    let archive = open_existing(&a.db)?;
    let svg = plot_svg(&archive, &a)?;
    std::fs::write(&a.output, svg).map_err(|e| format!("{}: {e}", a.output.display()))?;
    println!("wrote {}", a.output.display());
    Ok(0)
}

/// `paifu serve`.
pub fn serve(a: ServeArgs) -> Result<i32, String> {
    let mut config = paifu_web::Config::new(&a.db);
    config.max_upload = a.max_upload;
    if let Some(path) = &a.key {
        let (key, created) = read_or_create_key(path)?;
        if created {
            eprintln!("made a new signing key in {}", path.display());
        }
        config.key = Some(key);
    }
    let db = a.db.display().to_string();
    paifu_web::serve(config, &a.addr, |addr| {
        println!("Paifu dashboard for {db} at http://{addr}/ (Ctrl-C stops it)");
    })
    .map_err(|e| e.to_string())?;
    Ok(0)
}

/// For `paifu demo`: stores `logs` in the archive `db` as the tournament `tournament`, with
/// certificates signed by `key`, prints a summary, then serves the dashboard on `addr` (port 0
/// picks a free one), printing its address, until the process is stopped.
pub fn ingest_and_serve(
    logs: &[PathBuf],
    db: &Path,
    tournament: &str,
    key: &SecretKey,
    addr: &str,
) -> Result<i32, String> {
    let mut archive = Archive::open(db).map_err(|e| format!("{}: {e}", db.display()))?;
    let s = ingest_files(&mut archive, logs, Some(tournament), Some(key), &ProgressBar::hidden())?;
    drop(archive);
    s.print();
    let mut config = paifu_web::Config::new(db);
    config.key = Some(key.clone());
    let db = db.display().to_string();
    paifu_web::serve(config, addr, |addr| {
        println!("Paifu dashboard for {db} at http://{addr}/ (Ctrl-C stops it)");
    })
    .map_err(|e| e.to_string())?;
    Ok(0)
}
