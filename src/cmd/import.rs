//! `paifu import`: riichi game records from Tenhou (tenhou.net/6 JSON, mjlog XML) and mjai, and
//! Chinese Official hands from Botzone's match records and PMN, into Paifu logs, each validated
//! as strictly as Paifu's own. Files are imported in parallel; a file
//! that is not a game record of the format is skipped, one that is but cannot be imported is
//! refused, and a summary ends the run.

use crate::error::{Error, Result, Status};
use crate::output::{outln, progress_of, write_file};
use clap::Args;
use paifu_core::log::{self, Encoding, Positions};
use paifu_core::replay::{validate_log, Verdict};
use paifu_recorder::files::{read_text_limited, ReadError};
use paifu_recorder::import::import_with;
use paifu_recorder::import::mjlog::is_wall_mismatch;
use paifu_recorder::import::to_log::MAX_SOURCE_BYTES;
use paifu_recorder::import::to_log::{excerpt_note, Reading, ABSENT_KEY, COMPUTED_KEY, TABLE_KEY};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// Runs with at least this many files show a progress bar (on a terminal, unless --quiet).
const PROGRESS_FROM: usize = 16;

#[derive(Args, Debug)]
#[command(after_help = "Formats (FORMAT, then what it reads and where such files come from):
  tenhou   tenhou.net/6 JSON: a Tenhou game as Tenhou's viewer (tenhou.net/6) shows it, one JSON object with \
\"log\"; what mjai-reviewer reads, and what converters write from Tenhou's mjlog (mjlog2json) or from Mahjong Soul \
(tensoul).
  tenhou   Tenhou mjlog XML, read under the same name and told apart by its content (it starts with <): Tenhou's \
own record of a game, <mjloggm> with a tag per draw, discard and call, downloaded by game id from tenhou.net (the \
ids of the Phoenix room's games are listed in tenhou.net/sc/raw). Its <SHUFFLE seed=\"mt19937ar-sha512-n288-base64,...\"> \
is Tenhou's own seed: every round's wall and dice are rebuilt from it, and every dealt, drawn, dead-wall and \
indicator tile and the dice must be the seed's (else the game is refused as wall_mismatch, exit 1; docs/import.md).
  mjai     mjai JSON Lines with every hand shown: an event a line (start_game, start_kyoku, tsumo, dahai, hora...), \
as Mortal and mjai-reviewer read and write them, bot matches on mjai servers, and converters from Tenhou and Mahjong \
Soul write them (paifu export mjai too).
  botzone  Botzone's Chinese Standard Mahjong match records (Chinese Official mahjong): the text of the PKU AI \
Lab's dataset of 98,209 hands played on botzone.org.cn, many hands a file.
  pmn      PMN, the Portable Majiang Notation of python-majiang: Chinese Official hands replayed on mahjongsoft.com, \
blocks of tag pairs, many hands a file.

Each source file becomes OUT/NAME.paifu.jsonl, then is validated; a game that does not \
validate names the place in the source where it fails. The log holds the source file itself (meta.source), so \
`paifu validate` and `paifu sign` check the log against it: an edited record, claim or source is refused.

Folders are searched recursively (hidden files aside). Files are imported in parallel (--jobs). A file that is not a \
game record of the format (a manifest.json beside the games, a README, a picture) is skipped with one line saying \
why; a file that is one but cannot be read or imported is refused with the round and position; an imported game \
that does not validate or differs from its source is refused as invalid. The run ends with a summary: imported, \
skipped, refused, by reason.

Botzone's Chinese Standard Mahjong records (format botzone) and PMN hand records (format pmn, the notation of \
mahjongsoft.com's MCR replays) hold many hands a file: each hand becomes OUT/<match id or site>.paifu.jsonl, \
holding that hand's text; the fan total and the scores each hand states are checked against Paifu's count, and a \
difference is reported with the hand's line.

Limits: a source file is at most --max-bytes (default and largest for riichi formats 524288, 512 KiB; a real game \
is 10 to 100 KiB; a botzone or pmn file may be up to 1 GiB); a larger one is refused before it is read.

Exit status: 0 nothing refused (skipped files aside), 1 some imported game is invalid or differs from its source, \
2 some file could not be read or imported.

Examples:
  paifu import tenhou game.json -o imported/
  paifu import tenhou downloads/ -o imported/       (every record in the folder; the rest skipped)
  paifu import tenhou one-round.json -o imported/   (a shared round: absent ref, sc, rule.disp said, not refused)
  paifu import tenhou wrc-game.json --start-points 30000 -o imported/
  paifu import mjai game.mjson -o imported/
  paifu import botzone sample.txt -o mcr-imported/
  paifu import pmn hands.pmn -o mcr-imported/")]
pub struct ImportArgs {
    /// The source: `tenhou` (tenhou.net/6 JSON, or Tenhou's mjlog XML, recognized by content),
    /// `mjai` (mjai JSON Lines with every hand shown), `botzone` (Botzone's Chinese Standard
    /// Mahjong match records) or `pmn` (PMN hand records of Chinese Official mahjong).
    pub format: String,
    /// Source files and folders (searched recursively).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The folder for the logs (one NAME.paifu.jsonl per source file).
    #[arg(short, long)]
    pub out: PathBuf,
    /// The largest source file to read, in bytes (riichi formats: at most 524288, the most a log
    /// can embed; botzone and pmn: at most 1 GiB, each hand embedded on its own).
    #[arg(long, default_value_t = MAX_SOURCE_BYTES, value_parser = clap::value_parser!(u64).range(1..=MAX_BOTZONE_BYTES))]
    pub max_bytes: u64,
    /// Files imported at once (0: one per core).
    #[arg(long, short, default_value_t = 0)]
    pub jobs: usize,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Read a record that starts as a whole game but stops early as an excerpt of an unknown
    /// game (valid at the end of any round, verdict "excerpt: rounds X to Y of an unknown game",
    /// no final standings) instead of refusing it as truncated. A record that does not start at
    /// East 1 with the start points is read as an excerpt without it.
    #[arg(long)]
    pub excerpt: bool,
    /// Each seat's points at the start of the game, for records of games that did not start
    /// at the points of the rule set they name (Tenhou, Mahjong Soul and M-League: 25000; WRC and
    /// EMA: 30000), or that name none. A record that names no known rule set and does not start at
    /// East 1 is an excerpt whose table holds what its record states, without this option; with
    /// it, the table must hold four times these points.
    #[arg(long, value_parser = clap::value_parser!(i64).range(100..=1_000_000))]
    pub start_points: Option<i64>,
}

/// The largest Botzone records file `paifu import` reads (1 GiB; the dataset's 98,209 hands are
/// about 600 MB).
const MAX_BOTZONE_BYTES: u64 = 1 << 30;

/// What became of one source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Imported, valid and faithful to its source.
    Imported,
    /// Not a game record of the format: not read further.
    Skipped(&'static str),
    /// A game record that could not be imported, or that imported but is invalid or differs from
    /// its source: the reason's kind.
    Refused(Refusal),
}

/// Why a game record was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Refusal {
    /// The file could not be read (too large, not a file, an I/O error).
    Unreadable,
    /// The record could not be read or its order of play rebuilt.
    NotImported,
    /// Another source file becomes the same log file.
    SameOutput,
    /// The game imported but does not validate.
    Invalid,
    /// The game validates but its han, fu or yaku differ from the source's.
    Differs,
}

impl Refusal {
    fn describe(self) -> &'static str {
        match self {
            Refusal::Unreadable => "unreadable",
            Refusal::NotImported => "not importable",
            Refusal::SameOutput => "same output name as another file",
            Refusal::Invalid => "invalid",
            Refusal::Differs => "differs from its source",
        }
    }
}

/// One file's outcome and the lines that report it.
#[derive(Debug, Clone)]
pub struct FileReport {
    pub path: PathBuf,
    pub outcome: Outcome,
    pub lines: Vec<String>,
}

/// What an import run did, file by file in the order given.
#[derive(Debug, Clone, Default)]
pub struct ImportSummary {
    pub files: Vec<FileReport>,
}

impl ImportSummary {
    /// How many files ended as imported.
    pub fn imported(&self) -> usize {
        self.files.iter().filter(|f| f.outcome == Outcome::Imported).count()
    }

    /// Skipped files by reason.
    pub fn skipped(&self) -> BTreeMap<&'static str, usize> {
        let mut m = BTreeMap::new();
        for f in &self.files {
            if let Outcome::Skipped(why) = f.outcome {
                *m.entry(why).or_default() += 1;
            }
        }
        m
    }

    /// Refused files by reason.
    pub fn refused(&self) -> BTreeMap<Refusal, usize> {
        let mut m = BTreeMap::new();
        for f in &self.files {
            if let Outcome::Refused(r) = f.outcome {
                *m.entry(r).or_default() += 1;
            }
        }
        m
    }

    /// The summary lines printed at the end of a run.
    pub fn summary_lines(&self) -> Vec<String> {
        let (skipped, refused) = (self.skipped(), self.refused());
        let mut out = vec![format!(
            "{} files: {} imported, {} skipped, {} refused",
            self.files.len(),
            self.imported(),
            skipped.values().sum::<usize>(),
            refused.values().sum::<usize>()
        )];
        out.extend(skipped.iter().map(|(why, n)| format!("  skipped, {why}: {n}")));
        out.extend(refused.iter().map(|(why, n)| format!("  refused, {}: {n}", why.describe())));
        out
    }

    /// 0 nothing refused, 1 only invalid or differing games refused, 2 some file unreadable or
    /// not importable.
    pub fn status(&self) -> Status {
        let refused = self.refused();
        if refused.keys().any(|r| matches!(r, Refusal::Unreadable | Refusal::NotImported | Refusal::SameOutput)) {
            Status::Failed
        } else {
            Status::faulty_if(!refused.is_empty())
        }
    }
}

/// The name endings of source files; in a folder, other files are skipped unread.
const SOURCE_ENDINGS: [&str; 6] = [".json", ".jsonl", ".mjson", ".mjai", ".xml", ".mjlog"];

/// Why a text is not a game record of the format at all, if it is not: well-formed JSON or XML
/// of something else (a manifest.json). A damaged record, or text that is not well-formed, is
/// read as a record and refused with its error.
fn not_a_record(format: &str, text: &str) -> Option<&'static str> {
    let json = |t: &str| serde_json::from_str::<serde_json::Value>(t).ok();
    match format {
        "tenhou" if text.trim_start().starts_with('<') => {
            (!text.contains("<mjloggm")).then_some("XML without <mjloggm>, not an mjlog record")
        }
        "tenhou" => (!text.contains("\"log\"") && json(text).is_some())
            .then_some("JSON without \"log\", not a tenhou.net/6 record"),
        "mjai" => (!text.contains("\"start_game\"")
            && !text.contains("\"start_kyoku\"")
            && !text.trim().is_empty()
            && text.lines().filter(|l| !l.trim().is_empty()).all(|l| json(l).is_some()))
        .then_some("JSON without a start_game or start_kyoku event, not an mjai log"),
        _ => None,
    }
}

/// The log file a source file becomes.
fn out_path(path: &Path, out_dir: &Path) -> PathBuf {
    let stem = path.file_name().and_then(|s| s.to_str()).unwrap_or("game");
    let stem = SOURCE_ENDINGS.iter().find_map(|x| stem.strip_suffix(x)).unwrap_or(stem);
    out_dir.join(format!("{stem}.paifu.jsonl"))
}

/// Imports one file into `out`.
fn import_one(
    format: &str,
    path: &Path,
    out: &Path,
    max_bytes: u64,
    in_folder: bool,
    read: Reading,
) -> (Outcome, Vec<String>) {
    let excerpt = read.excerpt;
    let name = path.display();
    let skipped = |why: &'static str| (Outcome::Skipped(why), vec![format!("{name}: skipped: {why}")]);
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if in_folder && !SOURCE_ENDINGS.iter().any(|e| file_name.ends_with(e)) {
        return skipped("not named .json, .jsonl, .mjson, .mjai, .xml or .mjlog");
    }
    let refused = |r: Refusal, why: String| (Outcome::Refused(r), vec![format!("{name}: refused: {why}")]);
    let text = match read_text_limited(path, max_bytes, "source files (paifu import --max-bytes)") {
        Ok(t) => t,
        Err(ReadError::NotText { .. }) => return skipped("not UTF-8 text"),
        Err(e) => return refused(Refusal::Unreadable, e.to_string()),
    };
    if let Some(why) = not_a_record(format, &text) {
        return skipped(why);
    }
    let imp = match import_with(format, &text, text.as_bytes(), read) {
        Ok(imp) => imp,
        // A record whose own seed does not make its deals is read, and is not a valid game.
        Err(e) if is_wall_mismatch(&e) => return refused(Refusal::Invalid, e.to_string()),
        Err(e) => return refused(Refusal::NotImported, e.to_string()),
    };
    if let Err(e) = write_file(out, &log::encode(&imp.log, Encoding::JsonLines)) {
        return refused(Refusal::Unreadable, e.to_string());
    }
    let mut lines: Vec<String> =
        excerpt_note(&imp.log.header).map(|n| format!("{name}: note: {n}")).into_iter().collect();
    lines.extend(imp.mismatches.iter().map(|m| format!("{name}: {m}")));
    let outcome = match imp.verdict() {
        Verdict::Valid(o) => {
            let verdict = match &o.excerpt {
                Some(e) => format!("{e}, scores after it {:?}", o.final_scores),
                None => format!("valid, final scores {:?}", o.final_scores),
            };
            lines.push(format!("{name} -> {}: {} records, {verdict}", out.display(), imp.log.records.len()));
            if let Some(a) = imp.log.header.meta.get(ABSENT_KEY) {
                lines.push(format!("{name}: absent from the record: {a}"));
            }
            if let Some(t) = imp.log.header.meta.get(TABLE_KEY).filter(|_| o.excerpt.is_some()) {
                lines.push(format!("{name}: no standings: {t}"));
            }
            if let Some(c) = imp.log.header.meta.get(COMPUTED_KEY) {
                lines.push(format!("{name}: computed, not claimed (the source leaves them out): {c}"));
            }
            if imp.mismatches.is_empty() {
                Outcome::Imported
            } else {
                Outcome::Refused(Refusal::Differs)
            }
        }
        Verdict::Invalid(f) => {
            let pos = f.index.and_then(|i| imp.positions.get(i)).map(|p| format!(" at {p} (source)"));
            let hint = (f.code == paifu_core::ErrorCode::Truncated && !excerpt)
                .then_some(" (if the record is meant to hold only some rounds of a game, import it with --excerpt)");
            lines.push(format!(
                "{name} -> {}: INVALID{}: {f}{}",
                out.display(),
                pos.unwrap_or_default(),
                hint.unwrap_or_default()
            ));
            Outcome::Refused(Refusal::Invalid)
        }
    };
    (outcome, lines)
}

/// Expands files and folders into the files to import, each with whether it was found in a
/// folder (folders recursively, sorted, hidden files and folders left out).
fn collect(paths: &[PathBuf]) -> Result<Vec<(PathBuf, bool)>> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, bool)>) -> Result<()> {
        let mut found = Vec::new();
        for e in std::fs::read_dir(dir).map_err(Error::io(dir))? {
            let p = e.map_err(Error::io(dir))?.path();
            if !p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.')) {
                found.push(p);
            }
        }
        found.sort();
        for p in found {
            if p.is_dir() {
                walk(&p, out)?;
            } else {
                out.push((p, true));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else {
            out.push((p.clone(), false));
        }
    }
    Ok(out)
}

/// Imports files and folders into `out_dir` on `jobs` threads (0: one per core); the library
/// side of `paifu import`.
pub fn import_paths(
    format: &str,
    paths: &[PathBuf],
    out_dir: &Path,
    max_bytes: u64,
    jobs: usize,
    quiet: bool,
    read: Reading,
) -> Result<ImportSummary> {
    if !matches!(format, "tenhou" | "mjai") {
        return Err(Error::Usage(format!(
            "unknown source format {format:?}: write tenhou or mjai (riichi), botzone or pmn (Chinese Official)"
        )));
    }
    let files = collect(paths)?;
    let outs: Vec<PathBuf> = files.iter().map(|(p, _)| out_path(p, out_dir)).collect();
    // A later file that would overwrite an earlier one's log is refused.
    let mut first: HashMap<&Path, &Path> = HashMap::new();
    let same: Vec<Option<PathBuf>> = files
        .iter()
        .zip(&outs)
        .map(|((p, _), o)| match first.get(o.as_path()) {
            Some(earlier) => Some(earlier.to_path_buf()),
            None => {
                first.insert(o, p);
                None
            }
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| Error::Usage(format!("--jobs {jobs}: {e}")))?;
    let bar = progress_of(files.len() as u64, "importing", quiet || files.len() < PROGRESS_FROM);
    let reports: Vec<FileReport> = pool.install(|| {
        files
            .par_iter()
            .zip(&outs)
            .zip(&same)
            .map(|(((path, in_folder), out), same)| {
                let (outcome, lines) = match same {
                    Some(other) => (
                        Outcome::Refused(Refusal::SameOutput),
                        vec![format!(
                            "{}: refused: {} also becomes {}",
                            path.display(),
                            other.display(),
                            out.display()
                        )],
                    ),
                    None => import_one(format, path, out, max_bytes, *in_folder, read),
                };
                bar.inc(1);
                FileReport { path: path.clone(), outcome, lines }
            })
            .collect()
    });
    bar.finish();
    Ok(ImportSummary { files: reports })
}

/// A match id as a file name: letters, digits, `-` and `_` kept, anything else `_`.
fn file_stem(id: &str) -> String {
    let s: String =
        id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    if s.is_empty() {
        "hand".to_owned()
    } else {
        s
    }
}

/// Imports every hand of a Botzone or PMN records file, one log each; answers whether all imported
/// faithfully and validate.
fn import_mcr_hands(format: &str, path: &Path, out_dir: &Path, max_bytes: u64) -> Result<bool> {
    use paifu_core::mcr::Mcr;
    use paifu_recorder::import::mcr::{botzone, pmn, to_log};
    let text = read_text_limited(path, max_bytes, "source files (paifu import --max-bytes)")?;
    let name = path.display();
    let hands = if format == "pmn" { pmn::read(&text) } else { botzone::read(&text) };
    let hands = hands.map_err(|source| Error::Import { path: path.to_owned(), source })?;
    let (mut valid, mut invalid, mut differing) = (0usize, 0usize, 0usize);
    for hand in &hands {
        let imp = to_log(hand).map_err(|source| Error::Import { path: path.to_owned(), source })?;
        let out = out_dir.join(format!("{}.paifu.jsonl", file_stem(&hand.id)));
        write_file(&out, &log::encode(&imp.log, Encoding::JsonLines))?;
        for m in &imp.mismatches {
            outln!("{name}: hand {}: {m}", hand.id)?;
        }
        differing += usize::from(!imp.mismatches.is_empty());
        match validate_log::<Mcr>(&imp.log, &Positions::default()) {
            Verdict::Valid(o) => {
                valid += 1;
                outln!(
                    "{name}: hand {} -> {}: {} records, valid, scores {:?}",
                    hand.id,
                    out.display(),
                    imp.log.records.len(),
                    o.final_scores
                )?;
            }
            Verdict::Invalid(f) => {
                invalid += 1;
                let pos = f.index.and_then(|i| imp.positions.get(i)).map(ToString::to_string).unwrap_or_default();
                outln!("{name}: hand {} -> {}: INVALID at {pos} (source): {f}", hand.id, out.display())?;
            }
        }
    }
    outln!(
        "{name}: {} hands: {valid} valid, {invalid} invalid; {differing} with a fan count or result that differs from Paifu's",
        hands.len()
    )?;
    Ok(invalid == 0 && differing == 0)
}

/// `paifu import`: 0 nothing refused, 1 some game invalid or differing, 2 some file unreadable
/// or not importable.
pub fn run(a: ImportArgs) -> Result {
    if matches!(a.format.as_str(), "botzone" | "pmn") {
        if a.start_points.is_some() {
            return Err(Error::Usage(format!(
                "--start-points is for riichi records (tenhou, mjai): {} hands state their scores",
                a.format
            )));
        }
        let mut all = true;
        for (p, _) in collect(&a.paths)? {
            all &= import_mcr_hands(&a.format, &p, &a.out, a.max_bytes)?;
        }
        return Ok(Status::faulty_if(!all));
    }
    if a.max_bytes > MAX_SOURCE_BYTES {
        return Err(Error::Usage(format!(
            "--max-bytes {}: a {} file is embedded whole in its log, so it is at most {MAX_SOURCE_BYTES} bytes (only \
             botzone and pmn files, whose hands are embedded one by one, may be larger)",
            a.max_bytes, a.format
        )));
    }
    let s = import_paths(
        &a.format,
        &a.paths,
        &a.out,
        a.max_bytes,
        a.jobs,
        a.quiet,
        Reading { excerpt: a.excerpt, start_points: a.start_points },
    )?;
    for f in &s.files {
        let to_stderr =
            matches!(f.outcome, Outcome::Refused(Refusal::Unreadable | Refusal::NotImported | Refusal::SameOutput));
        for l in &f.lines {
            if to_stderr {
                eprintln!("paifu: {l}");
            } else {
                outln!("{l}")?;
            }
        }
    }
    for l in s.summary_lines() {
        outln!("{l}")?;
    }
    Ok(s.status())
}
