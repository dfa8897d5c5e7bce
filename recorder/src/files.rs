//! Reading and writing log files, and finding logs in folders.

use paifu_core::Fault;
use std::path::{Path, PathBuf};

/// The largest log file Paifu reads (64 MiB); a longer file is refused with a clear error.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// A file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}: the file is {size} bytes; Paifu reads logs of at most {max} bytes")]
    TooLarge { path: String, size: u64, max: u64 },
}

/// Reads a file of at most [`MAX_FILE_BYTES`].
pub fn read_log_bytes(path: &Path) -> Result<Vec<u8>, ReadError> {
    let io = |source| ReadError::Io { path: path.display().to_string(), source };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge { path: path.display().to_string(), size: meta.len(), max: MAX_FILE_BYTES });
    }
    std::fs::read(path).map_err(io)
}

/// Whether a file name looks like a Paifu log.
pub fn is_log_name(p: &Path) -> bool {
    let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    n.ends_with(".paifu.jsonl") || n.ends_with(".paifu")
}

/// Expands files and folders into the log files they hold (folders recursively, sorted).
pub fn collect_logs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ReadError> {
    let mut out = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|source| ReadError::Io { path: p.display().to_string(), source })?;
        if meta.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found)?;
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), ReadError> {
    let rd = std::fs::read_dir(dir).map_err(|source| ReadError::Io { path: dir.display().to_string(), source })?;
    for e in rd {
        let e = e.map_err(|source| ReadError::Io { path: dir.display().to_string(), source })?;
        let p = e.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else if is_log_name(&p) {
            out.push(p);
        }
    }
    Ok(())
}

/// A fault with the file name in front, as the command line prints it.
pub fn fault_line(path: &Path, f: &Fault) -> String {
    format!("{}: {}", path.display(), f.describe())
}
