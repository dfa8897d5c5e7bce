//! `paifu import`: riichi game records from Tenhou (tenhou.net/6 JSON, mjlog XML) and mjai into
//! Paifu logs, each validated as strictly as Paifu's own.

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

Limits: a source file is at most --max-bytes (default and largest 524288, 512 KiB; a real game is 10 to 100 KiB); \
a larger one is refused before it is read.

Exit status: 0 every file imported and valid, 1 some imported game is invalid or differs from its source, \
2 a file could not be read or is not a game record of the format.

Examples:
  paifu import tenhou game.json -o imported/
  paifu import mjai game.mjson -o imported/")]
pub struct ImportArgs {
    /// The source: `tenhou` (tenhou.net/6 JSON, or Tenhou's mjlog XML, recognized by content) or
    /// `mjai` (mjai JSON Lines with every hand shown).
    pub format: String,
    /// Source files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The folder for the logs (one NAME.paifu.jsonl per source file).
    #[arg(short, long)]
    pub out: PathBuf,
    /// The largest source file to read, in bytes (at most 524288, the most a log can embed).
    #[arg(long, default_value_t = MAX_SOURCE_BYTES, value_parser = clap::value_parser!(u64).range(1..=MAX_SOURCE_BYTES))]
    pub max_bytes: u64,
}

/// Imports one file into `out_dir`; answers whether it imported faithfully and validates.
fn import_one(format: &str, path: &Path, out_dir: &Path, max_bytes: u64) -> Result<bool> {
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

/// `paifu import`: 0 every file imports and validates, 1 some game is invalid.
pub fn run(a: ImportArgs) -> Result {
    let mut all = true;
    for p in &a.paths {
        all &= import_one(&a.format, p, &a.out, a.max_bytes)?;
    }
    Ok(Status::faulty_if(!all))
}
