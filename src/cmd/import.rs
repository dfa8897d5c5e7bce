//! `paifu import`: riichi game records from Tenhou (tenhou.net/6 JSON, mjlog XML) and mjai into
//! Paifu logs, each validated as strictly as Paifu's own.

use crate::error::{Error, Result, Status};
use crate::output::write_file;
use clap::Args;
use paifu_core::log::{self, Encoding, Positions};
use paifu_core::replay::{validate_log, Verdict};
use paifu_core::riichi::Riichi;
use paifu_recorder::import::import_text;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(after_help = "Each source file becomes OUT/NAME.paifu.jsonl, then is validated; a game that does not \
validate names the place in the source where it fails.

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
}

/// Imports one file into `out_dir`; answers whether it imported faithfully and validates.
fn import_one(format: &str, path: &Path, out_dir: &Path) -> Result<bool> {
    let bytes = std::fs::read(path).map_err(Error::io(path))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| Error::unreadable(path.display(), "not UTF-8 text"))?;
    let name = path.display();
    let imp = import_text(format, text, &bytes).map_err(|source| Error::Import { path: path.to_owned(), source })?;
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
        all &= import_one(&a.format, p, &a.out)?;
    }
    Ok(Status::faulty_if(!all))
}
