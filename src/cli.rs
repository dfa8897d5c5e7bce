//! Command-line parsing and the commands that work on logs.

use clap::{Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use paifu_core::cert::{self, Certificate, CertificateBody};
use paifu_core::games::{self, Registered, Visitor};
use paifu_core::log::{self, Encoding, OptValue, Options};
use paifu_core::replay::{self, Report, Verdict};
use paifu_core::{Fault, Game, Seed};
use paifu_recorder::bots::Bots;
use paifu_recorder::files::{collect_logs, read_log_bytes};
use paifu_recorder::play_game;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

const ABOUT: &str = "Paifu records, validates and signs game logs of tile and card games.

A log is a header (game, rules, seats, seed) and the players' decisions. Paifu replays it against
the game's rules from the seed, checks every action and every claimed score, and can sign the
verdict as a certificate that anyone can verify with the signer's public key.";

const AFTER: &str = r#"Examples:
  paifu simulate tzq --games 5 --seed club-night --out logs/
  paifu simulate tayu --players 3 --games 5 --out tayu/
  paifu simulate riichi --games 5 --out riichi/
  echo '{"hand":"123m456p789s11z22z2z","win":"2z","tsumo":true}' | paifu score riichi
  paifu validate logs/
  paifu show logs/tzq-0001.paifu.jsonl --at 10
  paifu keygen -o referee
  paifu sign logs/tzq-0001.paifu.jsonl --key referee.key
  paifu verify logs/tzq-0001.paifu.jsonl.cert.json logs/tzq-0001.paifu.jsonl --key referee.pub
  paifu ingest logs/ --tournament "Club night"     # store in ./paifu.db
  paifu stats --game riichi --player Aiko
  paifu serve                                      # the dashboard on http://127.0.0.1:8080
  paifu demo

Exit status: 0 success (every log valid), 1 a log is invalid or a certificate does not verify,
2 usage or I/O error."#;

#[derive(Parser, Debug)]
#[command(name = "paifu", version, about = "Replay recorder, validator and analyzer for tile and card games", long_about = ABOUT, after_help = AFTER)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play games with bots and write one log per game.
    Simulate(SimulateArgs),
    /// Replay logs against the rules; report each log's verdict.
    Validate(ValidateArgs),
    /// Print a game move by move, every hand visible (or the state after one record).
    Show(ShowArgs),
    /// Print each log's blake3 digest (the same for both encodings of a log).
    Digest(DigestArgs),
    /// Convert a log between JSON Lines (.paifu.jsonl) and binary (.paifu).
    Convert(ConvertArgs),
    /// Write a new ed25519 key pair for signing certificates.
    Keygen(KeygenArgs),
    /// Validate a log and write a signed certificate of the verdict.
    Sign(SignArgs),
    /// Check a certificate against its log and the signer's public key.
    Verify(VerifyArgs),
    /// Score hands: one JSON object per line on standard input, one result per line out.
    Score(ScoreArgs),
    /// Simulate a small tournament of every game, sign it, store it and serve the dashboard.
    Demo(crate::demo::DemoArgs),
    /// Validate logs and store them in the archive, valid and invalid alike.
    Ingest(crate::cmd_archive::IngestArgs),
    /// Statistics over the archive's valid games, overall and per player.
    Stats(crate::cmd_archive::StatsArgs),
    /// Draw a plot from the archive as an SVG file.
    Plot(crate::cmd_archive::PlotArgs),
    /// Serve the web dashboard over the archive.
    Serve(crate::cmd_archive::ServeArgs),
    /// Import riichi game records: tenhou (tenhou.net/6 JSON) into Paifu logs, validated.
    Import(crate::cmd_import::ImportArgs),
    /// Export a riichi log as tenhou.net/6 JSON.
    Export(crate::cmd_import::ExportArgs),
}

#[derive(Args, Debug)]
#[command(after_help = r#"Input, one JSON object per line (absent fields are false / none / default rules):
  id, hand (concealed tiles with the winning tile: 123m456p789s1234567z, 0m/0p/0s red fives),
  melds ["chi:345m", "pon:777z", "minkan:1111s", "ankan:9999p", "kakan:5555m"], win, tsumo,
  riichi, double_riichi, ippatsu, rinshan, chankan, haitei, houtei, tenhou, chiihou, seat_wind,
  round_wind ("E" "S" "W" "N"), dora, ura (indicator tiles), honba, riichi_sticks, rules.
Output, one JSON object per line: {"id", "ok": true, "han", "fu", "yaku": [{"name", "han"}],
  "yakuman", "limit", "payment", "total"} or {"id", "ok": false, "error", "message"}.

Example:
  echo '{"id":1,"hand":"123m456p789s11z22z2z","win":"2z","tsumo":true}' | paifu score riichi"#)]
pub struct ScoreArgs {
    /// The game whose hands to score: riichi.
    pub game: String,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum Format {
    /// JSON Lines, `.paifu.jsonl`: readable and diffable.
    Jsonl,
    /// Compact binary (postcard frames), `.paifu`.
    Binary,
}

impl Format {
    fn encoding(self) -> Encoding {
        match self {
            Format::Jsonl => Encoding::JsonLines,
            Format::Binary => Encoding::Binary,
        }
    }
}

#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// The game: tzq (Tien Zi Que), riichi, tayu (Ta Yü).
    pub game: String,
    /// How many games to play.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// The series seed: any text, or 64 hex digits. Game i gets its own seed derived from it, so
    /// the same arguments always write byte-identical files.
    #[arg(long, default_value = "paifu")]
    pub seed: String,
    /// Folder to write the logs into (created if missing).
    #[arg(long, short)]
    pub out: PathBuf,
    /// The bot every seat plays (default: the game's strongest). Use --bots for one per seat.
    #[arg(long)]
    pub bot: Option<String>,
    /// One bot per seat, comma-separated, e.g. greedy,random.
    #[arg(long, value_delimiter = ',', conflicts_with = "bot")]
    pub bots: Vec<String>,
    /// Number of players (default: the game's smallest table).
    #[arg(long)]
    pub players: Option<usize>,
    /// The ruleset (or variant): each game's rules page lists them, e.g. tzq: standard,
    /// advanced, to30; tayu: standard, faceup.
    #[arg(long, visible_alias = "variant", default_value = "standard")]
    pub ruleset: String,
    /// A rules option, KEY=VALUE (repeatable): true/false, an integer, or text.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The encoding to write.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Log files, or folders to search for *.paifu.jsonl and *.paifu files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Print one JSON object per log instead of a line of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The log to show.
    pub log: PathBuf,
    /// Show only the state after record N (0-based, as in validator messages).
    #[arg(long, value_name = "N")]
    pub at: Option<usize>,
}

#[derive(Args, Debug)]
pub struct DigestArgs {
    /// Log files or folders.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Also print the header's and every record's link of the digest chain.
    #[arg(long)]
    pub chain: bool,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The log to read (either encoding).
    pub input: PathBuf,
    /// The file to write; its name chooses the encoding (.paifu.jsonl or .paifu) unless --to.
    #[arg(long, short)]
    pub output: PathBuf,
    /// The encoding to write.
    #[arg(long, value_enum)]
    pub to: Option<Format>,
}

#[derive(Args, Debug)]
pub struct KeygenArgs {
    /// Base name: writes BASE.key (private, mode 0600) and BASE.pub (public).
    #[arg(long, short, default_value = "paifu")]
    pub output: PathBuf,
    /// Overwrite existing key files.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args, Debug)]
pub struct SignArgs {
    /// The log to validate and certify.
    pub log: PathBuf,
    /// The private key file (from `paifu keygen`).
    #[arg(long)]
    pub key: PathBuf,
    /// Where to write the certificate (default: LOG.cert.json).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The certificate (.cert.json).
    pub certificate: PathBuf,
    /// The log it certifies.
    pub log: PathBuf,
    /// The signer's public key: a .pub file from `paifu keygen`, or 64 hex digits.
    #[arg(long)]
    pub key: String,
}

pub fn run(cli: Cli) -> Result<i32, String> {
    match cli.command {
        Command::Simulate(a) => simulate(a),
        Command::Validate(a) => validate(a),
        Command::Show(a) => show(a),
        Command::Digest(a) => digest(a),
        Command::Convert(a) => convert(a),
        Command::Keygen(a) => keygen(a),
        Command::Sign(a) => sign(a),
        Command::Verify(a) => verify(a),
        Command::Score(a) => score(a),
        Command::Demo(a) => crate::demo::run(a),
        Command::Ingest(a) => crate::cmd_archive::ingest(a),
        Command::Stats(a) => crate::cmd_archive::stats(a),
        Command::Plot(a) => crate::cmd_archive::plot(a),
        Command::Serve(a) => crate::cmd_archive::serve(a),
        Command::Import(a) => crate::cmd_import::import(a),
        Command::Export(a) => crate::cmd_import::export(a),
    }
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    read_log_bytes(path).map_err(|e| e.to_string())
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn parse_options(items: &[String]) -> Result<Options, String> {
    let mut o = Options::new();
    for item in items {
        let (k, v) = item.split_once('=').ok_or_else(|| format!("--option {item:?}: write KEY=VALUE"))?;
        let value = match v {
            "true" => OptValue::Bool(true),
            "false" => OptValue::Bool(false),
            _ => v.parse::<i64>().map(OptValue::Int).unwrap_or_else(|_| OptValue::Text(v.to_owned())),
        };
        o.insert(k.trim().to_owned(), value);
    }
    Ok(o)
}

/// Everything needed to simulate one series, independent of the game.
pub struct SimPlan {
    pub games: usize,
    pub seed: Seed,
    pub seed_text: String,
    pub out: PathBuf,
    pub bots: Vec<String>,
    pub players: Option<usize>,
    pub ruleset: String,
    pub options: Options,
    pub encoding: Encoding,
    pub seat_names: Option<Vec<String>>,
    pub meta: BTreeMap<String, String>,
    pub quiet: bool,
}

/// Simulates a series of one game; answers the files written.
pub fn simulate_typed<G: Bots>(plan: &SimPlan) -> Result<Vec<PathBuf>, String> {
    let rules = G::rules(&plan.ruleset, &plan.options).map_err(|e| e.0)?;
    let seats = plan.players.unwrap_or(*G::SEATS.start());
    if !G::SEATS.contains(&seats) {
        return Err(format!(
            "{} is played by {} to {} players, not {seats}",
            G::KIND.title(),
            G::SEATS.start(),
            G::SEATS.end()
        ));
    }
    let bot_names: Vec<String> = match plan.bots.len() {
        0 => vec![G::BOTS[0].to_owned(); seats],
        1 => vec![plan.bots[0].clone(); seats],
        n if n == seats => plan.bots.clone(),
        n => return Err(format!("--bots names {n} bots for {seats} seats")),
    };
    for b in &bot_names {
        if G::bot(b, &plan.seed).is_none() {
            return Err(format!("{} has no bot {b:?}; it has: {}", G::KIND.name(), G::BOTS.join(", ")));
        }
    }
    std::fs::create_dir_all(&plan.out).map_err(|e| format!("{}: {e}", plan.out.display()))?;
    let bar = progress(plan.games as u64, "simulating", plan.quiet);
    let files: Result<Vec<PathBuf>, String> = (0..plan.games)
        .into_par_iter()
        .map(|i| {
            let game_seed = plan.seed.child(&format!("game/{i}"));
            let mut bots: Vec<Box<dyn paifu_recorder::Bot<G>>> = bot_names
                .iter()
                .enumerate()
                .filter_map(|(s, b)| G::bot(b, &plan.seed.child(&format!("bot/{i}/{s}"))))
                .collect();
            let mut meta = plan.meta.clone();
            meta.insert("series_seed".into(), plan.seed_text.clone());
            meta.insert("game_number".into(), (i + 1).to_string());
            let mut log = play_game::<G>(&plan.ruleset, rules.clone(), game_seed, &mut bots, meta)
                .map_err(|e| format!("game {}: {e}", i + 1))?;
            if let Some(names) = &plan.seat_names {
                log.header.seats = names.clone();
            }
            let path = plan.out.join(format!("{}-{:04}.{}", G::KIND.name(), i + 1, plan.encoding.extension()));
            write_file(&path, &log::encode(&log, plan.encoding))?;
            bar.inc(1);
            Ok(path)
        })
        .collect();
    bar.finish_and_clear();
    files
}

fn progress(len: u64, what: &str, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} [{elapsed_precise}, {eta} left]") {
        bar.set_style(style);
    }
    bar.set_message(what.to_owned());
    bar
}

fn simulate(a: SimulateArgs) -> Result<i32, String> {
    let mut bots = a.bots.clone();
    if let Some(b) = &a.bot {
        bots = vec![b.clone()];
    }
    let plan = SimPlan {
        games: a.games,
        seed: Seed::from_text(&a.seed),
        seed_text: a.seed.clone(),
        out: a.out.clone(),
        bots,
        players: a.players,
        ruleset: a.ruleset.clone(),
        options: parse_options(&a.options)?,
        encoding: a.format.encoding(),
        seat_names: None,
        meta: BTreeMap::new(),
        quiet: false,
    };
    struct Simulate<'a>(&'a SimPlan);
    impl paifu_recorder::bots::Visitor for Simulate<'_> {
        type Output = Result<Vec<PathBuf>, String>;
        fn visit<G: Bots>(self) -> Self::Output {
            simulate_typed::<G>(self.0)
        }
    }
    let files = paifu_recorder::bots::by_name(&a.game, Simulate(&plan)).map_err(|f| f.message)??;
    println!("wrote {} {} logs to {}", files.len(), a.game, a.out.display());
    Ok(0)
}

/// One log's verdict as `validate --json` prints it.
pub fn report_json(file: &Path, r: &Report) -> serde_json::Value {
    let mut v = serde_json::json!({
        "file": file.display().to_string(),
        "valid": r.verdict.is_valid(),
        "game": r.header.as_ref().map(|h| h.game.clone()),
        "digest": r.digest.map(|d| d.to_hex()),
        "records": r.records,
        "final_scores": r.verdict.outcome().map(|o| o.final_scores.clone()),
    });
    if let Some(f) = r.verdict.fault() {
        v["error"] = serde_json::to_value(f).unwrap_or_default();
    }
    v
}

/// One log's verdict as a line of text.
pub fn report_line(file: &Path, r: &Report) -> String {
    match &r.verdict {
        Verdict::Valid(o) => format!(
            "valid    {}  {} records, final scores {:?}, digest {}",
            file.display(),
            r.records,
            o.final_scores,
            r.digest.map(|d| d.to_hex()).unwrap_or_default()
        ),
        Verdict::Invalid(f) => format!("INVALID  {}: {}", file.display(), f.describe()),
    }
}

/// What `paifu validate` prints for one file.
enum Checked {
    /// The file could not be read: the message, and the JSON line for `--json`.
    Unreadable { message: String, line: Option<String> },
    /// A log was read and checked: its verdict and its line.
    Log { valid: bool, line: String },
}

fn validate(a: ValidateArgs) -> Result<i32, String> {
    let files = collect_logs(&a.paths).map_err(|e| e.to_string())?;
    if files.is_empty() {
        return Err("no logs found (files named *.paifu.jsonl or *.paifu)".into());
    }
    let bar = progress(files.len() as u64, "validating", files.len() < 50);
    // Each log's line is written where the log is checked, and only the line is kept until the
    // lines are printed in file order: a report holds every round's summary and facts.
    let results: Vec<Checked> = files
        .par_iter()
        .map(|f| {
            let checked = match read(f) {
                Err(e) => {
                    let line = a.json.then(|| {
                        serde_json::json!({"file": f.display().to_string(), "valid": false, "io_error": e}).to_string()
                    });
                    Checked::Unreadable { message: e, line }
                }
                Ok(b) => {
                    let r = replay::validate_bytes(&b);
                    let line = if a.json { report_json(f, &r).to_string() } else { report_line(f, &r) };
                    Checked::Log { valid: r.verdict.is_valid(), line }
                }
            };
            bar.inc(1);
            checked
        })
        .collect();
    bar.finish_and_clear();
    let (mut invalid, mut io_errors) = (0, 0);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for c in &results {
        match c {
            Checked::Unreadable { message, line } => {
                io_errors += 1;
                match line {
                    Some(l) => {
                        let _ = writeln!(out, "{l}");
                    }
                    None => eprintln!("paifu: {message}"),
                }
            }
            Checked::Log { valid, line } => {
                if !valid {
                    invalid += 1;
                }
                let _ = writeln!(out, "{line}");
            }
        }
    }
    if !a.json && results.len() > 1 {
        let _ = writeln!(
            out,
            "{} logs: {} valid, {} invalid, {} unreadable",
            results.len(),
            results.len() - invalid - io_errors,
            invalid,
            io_errors
        );
    }
    Ok(if io_errors > 0 {
        2
    } else if invalid > 0 {
        1
    } else {
        0
    })
}

/// Text from a log made safe for a terminal: control characters are shown escaped.
pub fn printable(s: &str) -> String {
    s.chars().flat_map(|c| if c.is_control() { c.escape_default().collect::<Vec<_>>() } else { vec![c] }).collect()
}

fn show_typed<G: Game>(bytes: &[u8], at: Option<usize>) -> Result<i32, String> {
    let (log, pos) = log::decode::<G::Action>(bytes).map_err(|f| f.describe())?;
    let h = &log.header;
    if let Some(n) = at {
        if n >= log.records.len() {
            return Err(format!(
                "--at {n}: the log has {} records (0 to {})",
                log.records.len(),
                log.records.len().saturating_sub(1)
            ));
        }
    }
    let mut state: G = replay::setup(h).map_err(|f| f.describe())?;
    let mut out = String::new();
    let seats: Vec<String> = h.seats.iter().enumerate().map(|(i, s)| format!("seat {i} {}", printable(s))).collect();
    out.push_str(&format!("{} ({} rules), {}\n", G::KIND.title(), printable(&h.ruleset), seats.join(", ")));
    for (k, v) in &h.meta {
        out.push_str(&format!("  {}: {}\n", printable(k), printable(v)));
    }
    if at.is_none() {
        out.push_str(&format!("\n{}", state.render()));
    }
    let mut fault = None;
    for (i, rec) in log.records.iter().enumerate() {
        if at.is_some_and(|n| i > n) {
            break;
        }
        let before = state.results().len();
        if let Err(f) = replay::step(&mut state, i, rec, &pos) {
            fault = Some(f);
            break;
        }
        if at.is_none() {
            out.push_str(&format!("\n#{i} seat {}: {}\n", rec.seat, rec.action));
            for r in &state.results()[before..] {
                out.push_str(&format!("== round {} ends: {} (score changes {:?})\n", r.round, r.summary, r.deltas));
            }
            out.push_str(&state.render());
        }
    }
    if let (Some(n), None) = (at, &fault) {
        out.push_str(&format!("\nAfter record #{n} (seat {}: {}):\n", log.records[n].seat, log.records[n].action));
        out.push_str(&state.render());
    }
    if at.is_none() && fault.is_none() && !state.is_over() {
        fault = Some(replay::truncated(&state, log.records.len()));
    }
    print!("{out}");
    if let Some(f) = fault {
        println!("\nThe log is invalid here: {}", f.describe());
        return Ok(1);
    }
    if state.is_over() {
        println!("\nFinal scores: {:?}", state.scores());
    }
    Ok(0)
}

fn show(a: ShowArgs) -> Result<i32, String> {
    let bytes = read(&a.log)?;
    let header = log::read_header(&bytes).map_err(|f| format!("{}: {}", a.log.display(), f.describe()))?;
    struct Show<'a>(&'a [u8], Option<usize>);
    impl Visitor for Show<'_> {
        type Output = Result<i32, String>;
        fn visit<G: Registered>(self) -> Self::Output {
            show_typed::<G>(self.0, self.1)
        }
    }
    games::by_name(&header.game, Show(&bytes, a.at)).map_err(|f| f.message)?
}

fn digest_typed<G: Game>(bytes: &[u8], chain: bool) -> Result<(String, Vec<String>), Fault> {
    let (log, _) = log::decode::<G::Action>(bytes)?;
    let links = if chain {
        std::iter::once(paifu_core::log::Chain::new(&log.header).digest())
            .chain(log.chain())
            .map(|d| d.to_hex())
            .collect()
    } else {
        Vec::new()
    };
    Ok((log.digest().to_hex(), links))
}

struct Digest<'a>(&'a [u8], bool);
impl Visitor for Digest<'_> {
    type Output = Result<(String, Vec<String>), Fault>;
    fn visit<G: Registered>(self) -> Self::Output {
        digest_typed::<G>(self.0, self.1)
    }
}

fn digest(a: DigestArgs) -> Result<i32, String> {
    let files = collect_logs(&a.paths).map_err(|e| e.to_string())?;
    let mut code = 0;
    for f in files {
        let bytes = read(&f)?;
        let r = log::read_header(&bytes).and_then(|h| games::by_name(&h.game, Digest(&bytes, a.chain)).and_then(|r| r));
        match r {
            Ok((d, links)) => {
                println!("{d}  {}", f.display());
                for (i, l) in links.iter().enumerate() {
                    match i {
                        0 => println!("  header:   {l}"),
                        _ => println!("  record {}: {l}", i - 1),
                    }
                }
            }
            Err(fault) => {
                eprintln!("paifu: {}: {}", f.display(), fault.describe());
                code = 1;
            }
        }
    }
    Ok(code)
}

fn convert_typed<G: Game>(bytes: &[u8], enc: Encoding) -> Result<Vec<u8>, Fault> {
    let (log, _) = log::decode::<G::Action>(bytes)?;
    Ok(log::encode(&log, enc))
}

struct Convert<'a>(&'a [u8], Encoding);
impl Visitor for Convert<'_> {
    type Output = Result<Vec<u8>, Fault>;
    fn visit<G: Registered>(self) -> Self::Output {
        convert_typed::<G>(self.0, self.1)
    }
}

fn convert(a: ConvertArgs) -> Result<i32, String> {
    let enc = match a.to {
        Some(f) => f.encoding(),
        None => {
            let name = a.output.to_string_lossy();
            if name.ends_with(".paifu.jsonl") || name.ends_with(".jsonl") {
                Encoding::JsonLines
            } else if name.ends_with(".paifu") {
                Encoding::Binary
            } else {
                return Err(format!("{}: name the output *.paifu.jsonl or *.paifu, or give --to", a.output.display()));
            }
        }
    };
    let bytes = read(&a.input)?;
    let out = log::read_header(&bytes)
        .and_then(|h| games::by_name(&h.game, Convert(&bytes, enc)).and_then(|r| r))
        .map_err(|f| format!("{}: {}", a.input.display(), f.describe()))?;
    write_file(&a.output, &out)?;
    println!("wrote {}", a.output.display());
    Ok(0)
}

fn score(a: ScoreArgs) -> Result<i32, String> {
    use std::io::BufRead;
    if a.game != "riichi" {
        return Err(format!("paifu score knows riichi hands only, not {:?}", a.game));
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = false;
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| format!("standard input: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = paifu_core::riichi::score_line(&line);
        failed |= answer.contains("\"ok\":false");
        writeln!(out, "{answer}").map_err(|e| format!("standard output: {e}"))?;
    }
    out.flush().map_err(|e| format!("standard output: {e}"))?;
    Ok(i32::from(failed))
}

fn keygen(a: KeygenArgs) -> Result<i32, String> {
    let (private, public) = key_paths(&a.output);
    for p in [&private, &public] {
        if p.exists() && !a.force {
            return Err(format!("{} exists; use --force to overwrite it", p.display()));
        }
    }
    let (secret_pem, public_pem) = paifu_recorder::keys::generate().map_err(|e| e.to_string())?;
    paifu_recorder::keys::write_private(&private, &secret_pem).map_err(|e| e.to_string())?;
    write_file(&public, public_pem.as_bytes())?;
    println!("wrote {} (private, keep it secret) and {} (public)", private.display(), public.display());
    Ok(0)
}

fn key_paths(base: &Path) -> (PathBuf, PathBuf) {
    let s = base.to_string_lossy();
    let stem = s.strip_suffix(".key").unwrap_or(&s);
    (PathBuf::from(format!("{stem}.key")), PathBuf::from(format!("{stem}.pub")))
}

/// The current time as RFC 3339 UTC, whole seconds.
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// Signs a report with a key; `None` when the log could not be decoded (nothing to certify).
pub fn certify(report: &Report, key: &cert::SecretKey) -> Option<Certificate> {
    CertificateBody::from_report(report, now_rfc3339(), &key.verifying_key()).map(|b| cert::sign(b, key))
}

fn sign(a: SignArgs) -> Result<i32, String> {
    let key = paifu_recorder::keys::read_private(&a.key).map_err(|e| e.to_string())?;
    let bytes = read(&a.log)?;
    let report = replay::validate_bytes(&bytes);
    let Some(c) = certify(&report, &key) else {
        let f = report.verdict.fault().map(|f| f.describe()).unwrap_or_default();
        eprintln!("paifu: {}: cannot be certified, it is not a readable log: {f}", a.log.display());
        return Ok(1);
    };
    let out = a.output.unwrap_or_else(|| PathBuf::from(format!("{}.cert.json", a.log.display())));
    write_file(&out, c.to_json().as_bytes())?;
    println!("{}", report_line(&a.log, &report));
    println!("wrote {}", out.display());
    Ok(0)
}

fn verify(a: VerifyArgs) -> Result<i32, String> {
    let key_text = if Path::new(&a.key).exists() {
        paifu_recorder::files::read_small_text(Path::new(&a.key)).map_err(|e| e.to_string())?
    } else {
        a.key.clone()
    };
    let key = cert::public_from_text(&key_text).map_err(|e| format!("--key {}: {e}", a.key))?;
    let cert_text = paifu_recorder::files::read_small_text(&a.certificate).map_err(|e| e.to_string())?;
    let c = Certificate::from_json(&cert_text).map_err(|e| format!("{}: {e}", a.certificate.display()))?;
    let report = replay::validate_bytes(&read(&a.log)?);
    match c.verify(&key, &report) {
        Ok(()) => {
            println!(
                "certificate OK: {} is {} (signed {} by {})",
                a.log.display(),
                match &c.certificate.final_scores {
                    Some(s) => format!("valid with final scores {s:?}"),
                    None => "invalid, as certified".to_owned(),
                },
                c.certificate.issued_at,
                c.certificate.signer
            );
            Ok(0)
        }
        Err(e) => {
            println!("certificate REJECTED: {e}");
            Ok(1)
        }
    }
}
