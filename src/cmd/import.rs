//! `paifu import`: riichi game records from Tenhou (tenhou.net/6 JSON, mjlog XML) and mjai, and
//! Chinese Official hands from Botzone's match records, into Paifu logs, each validated as
//! strictly as Paifu's own.

use crate::error::{Error, Result, Status};
use crate::output::write_file;
use clap::Args;
use paifu_core::log::{self, Encoding, Positions};
use paifu_core::replay::{validate_log, Verdict};
use paifu_core::riichi::Riichi;
use paifu_recorder::files::read_text_limited;
use paifu_recorder::import::import_text;
use paifu_recorder::import::to_log::MAX_SOURCE_BYTES;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(after_help = "Each source file becomes OUT/NAME.paifu.jsonl, then is validated; a game that does not \
validate names the place in the source where it fails. The log holds the source file itself (meta.source), so \
`paifu validate` and `paifu sign` check the log against it: an edited record, claim or source is refused.

Botzone's Chinese Standard Mahjong records (format botzone) and PMN hand records (format pmn, the notation of \
mahjongsoft.com's MCR replays) hold many hands a file: each hand becomes OUT/<match id or site>.paifu.jsonl, holding that hand's text; the fan total and the scores each hand states are checked \
against Paifu's count, and a difference is reported with the hand's line.

Limits: a source file is at most --max-bytes (default and largest for riichi formats 524288, 512 KiB; a real game \
is 10 to 100 KiB; a botzone file may be up to 1 GiB); a larger one is refused before it is read.

Exit status: 0 every file imported and valid, 1 some imported game is invalid or differs from its source, \
2 a file could not be read or is not a game record of the format.

Examples:
  paifu import tenhou game.json -o imported/
  paifu import mjai game.mjson -o imported/
  paifu import botzone sample.txt -o mcr-imported/
  paifu import pmn hands.pmn -o mcr-imported/")]
pub struct ImportArgs {
    /// The source: `tenhou` (tenhou.net/6 JSON, or Tenhou's mjlog XML, recognized by content),
    /// `mjai` (mjai JSON Lines with every hand shown), `botzone` (Botzone's Chinese Standard
    /// Mahjong match records) or `pmn` (PMN hand records of Chinese Official mahjong).
    pub format: String,
    /// Source files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The folder for the logs (one NAME.paifu.jsonl per source file).
    #[arg(short, long)]
    pub out: PathBuf,
    /// The largest source file to read, in bytes (riichi formats: at most 524288, the most a log
    /// can embed; botzone and pmn: at most 1 GiB, each hand embedded on its own).
    #[arg(long, default_value_t = MAX_SOURCE_BYTES, value_parser = clap::value_parser!(u64).range(1..=MAX_BOTZONE_BYTES))]
    pub max_bytes: u64,
}

/// The largest Botzone records file `paifu import` reads (1 GiB; the dataset's 98,209 hands are
/// about 600 MB).
const MAX_BOTZONE_BYTES: u64 = 1 << 30;

/// Imports one file into `out_dir`; answers whether it imported faithfully and validates.
fn import_one(format: &str, path: &Path, out_dir: &Path, max_bytes: u64) -> Result<bool> {
    if format == "botzone" || format == "pmn" {
        return import_mcr_hands(format, path, out_dir, max_bytes);
    }
    if max_bytes > MAX_SOURCE_BYTES {
        return Err(Error::Usage(format!(
            "--max-bytes {max_bytes}: a {format} file is embedded whole in its log, so it is at most {MAX_SOURCE_BYTES} \
             bytes (only botzone and pmn files, whose hands are embedded one by one, may be larger)"
        )));
    }
    let text = read_text_limited(path, max_bytes, "source files (paifu import --max-bytes)")?;
    let name = path.display();
    let imp = import_text(format, &text, text.as_bytes())
        .map_err(|source| Error::Import { path: path.to_owned(), source })?;
    let stem = path.file_name().and_then(|s| s.to_str()).unwrap_or("game");
    let stem = [".json", ".jsonl", ".mjson", ".mjai", ".xml", ".mjlog"]
        .iter()
        .find_map(|x| stem.strip_suffix(x))
        .unwrap_or(stem);
    let out = out_dir.join(format!("{stem}.paifu.jsonl"));
    write_file(&out, &log::encode(&imp.log, Encoding::JsonLines))?;
    let mut ok = imp.mismatches.is_empty();
    for m in &imp.mismatches {
        println!("{name}: {m}");
    }
    match validate_log::<Riichi>(&imp.log, &Positions::default()) {
        Verdict::Valid(o) => println!(
            "{name} -> {}: {} records, valid, final scores {:?}",
            out.display(),
            imp.log.records.len(),
            o.final_scores
        ),
        Verdict::Invalid(f) => {
            ok = false;
            let pos = f.index.and_then(|i| imp.positions.get(i)).cloned().unwrap_or_default();
            println!("{name} -> {}: INVALID at {pos} (source): {f}", out.display());
        }
    }
    Ok(ok)
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
            println!("{name}: hand {}: {m}", hand.id);
        }
        differing += usize::from(!imp.mismatches.is_empty());
        match validate_log::<Mcr>(&imp.log, &Positions::default()) {
            Verdict::Valid(o) => {
                valid += 1;
                println!(
                    "{name}: hand {} -> {}: {} records, valid, scores {:?}",
                    hand.id,
                    out.display(),
                    imp.log.records.len(),
                    o.final_scores
                );
            }
            Verdict::Invalid(f) => {
                invalid += 1;
                let pos = f.index.and_then(|i| imp.positions.get(i)).cloned().unwrap_or_default();
                println!("{name}: hand {} -> {}: INVALID at {pos} (source): {f}", hand.id, out.display());
            }
        }
    }
    println!(
        "{name}: {} hands: {valid} valid, {invalid} invalid; {differing} with a fan count or result that differs from Paifu's",
        hands.len()
    );
    Ok(invalid == 0 && differing == 0)
}

/// `paifu import`: 0 every file imports and validates, 1 some game is invalid.
pub fn run(a: ImportArgs) -> Result {
    let mut all = true;
    for p in &a.paths {
        all &= import_one(&a.format, p, &a.out, a.max_bytes)?;
    }
    Ok(Status::faulty_if(!all))
}
