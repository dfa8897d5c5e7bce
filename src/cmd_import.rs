//! `paifu import` and `paifu export`: riichi game records from and to Tenhou and mjai formats.

use paifu_core::log::{self, Encoding, Positions};
use paifu_core::replay::{validate_log, Verdict};
use paifu_core::riichi::{Action, Riichi};
use paifu_recorder::import::{self as import, mjai, tenhou6};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
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

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The format to write: `tenhou` (tenhou.net/6 JSON) or `mjai` (full-information mjai JSON Lines).
    pub format: String,
    /// A riichi log (seeded or imported).
    pub log: PathBuf,
    /// The file to write.
    #[arg(short, long)]
    pub out: PathBuf,
}

fn import_one(format: &str, path: &Path, out_dir: &Path) -> Result<bool, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8(bytes.clone()).map_err(|_| format!("{}: not UTF-8 text", path.display()))?;
    let name = path.display();
    let imp = import::import_text(format, &text, &bytes).map_err(|e| format!("{name}: {e}"))?;
    let stem = path.file_name().and_then(|s| s.to_str()).unwrap_or("game");
    let stem = [".json", ".jsonl", ".mjson", ".mjai", ".xml", ".mjlog"]
        .iter()
        .find_map(|x| stem.strip_suffix(x))
        .unwrap_or(stem);
    let out = out_dir.join(format!("{stem}.paifu.jsonl"));
    std::fs::create_dir_all(out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    std::fs::write(&out, log::encode(&imp.log, Encoding::JsonLines)).map_err(|e| format!("{}: {e}", out.display()))?;
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

/// `paifu import`: exit 0 when every file imports and validates, 1 when one is invalid.
pub fn import(a: ImportArgs) -> Result<i32, String> {
    let mut all = true;
    for p in &a.paths {
        all &= import_one(&a.format, p, &a.out)?;
    }
    Ok(if all { 0 } else { 1 })
}

/// `paifu export`.
pub fn export(a: ExportArgs) -> Result<i32, String> {
    let bytes = paifu_recorder::files::read_log_bytes(&a.log).map_err(|e| e.to_string())?;
    let (lg, _) = log::decode::<Action>(&bytes).map_err(|f| format!("{}: {f}", a.log.display()))?;
    if lg.header.game != "riichi" {
        return Err(format!("{}: only riichi logs can be exported, not {}", a.log.display(), lg.header.game));
    }
    let text = match a.format.as_str() {
        "tenhou" => tenhou6::export(&lg).map_err(|e| format!("{}: {e}", a.log.display()))?,
        "mjai" => mjai::export(&lg).map_err(|e| format!("{}: {e}", a.log.display()))?,
        other => return Err(format!("unknown export format {other:?}: write tenhou or mjai")),
    };
    std::fs::write(&a.out, text).map_err(|e| format!("{}: {e}", a.out.display()))?;
    Ok(0)
}
