//! Reading and writing log files, and finding logs in folders.

use std::path::{Path, PathBuf};

/// The largest log file Paifu reads (64 MiB); a longer file is refused with a clear error.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// A file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    /// The file is larger than the limit for its kind (`what`: `logs`, `source files`, ...).
    #[error("{path}: the file is {size} bytes or more; Paifu reads {what} of at most {max} bytes")]
    TooLarge { path: String, size: u64, max: u64, what: &'static str },
    #[error("{path}: not a regular file")]
    NotAFile { path: String },
    /// The file should be text and is not UTF-8; `at` is the offset of the first byte that is not.
    #[error("{path}: not UTF-8 text (byte {at} is not)")]
    NotText { path: String, at: usize },
}

/// Reads a log file of at most [`MAX_FILE_BYTES`].
pub fn read_log_bytes(path: &Path) -> Result<Vec<u8>, ReadError> {
    read_bounded(path, MAX_FILE_BYTES, "logs")
}

/// Opens a log file of at most [`MAX_FILE_BYTES`] to be read a piece at a time (the checks of
/// [`read_log_bytes`], nothing read yet). Should the file grow past the limit while it is read,
/// the read that passes it is an error: a log is never cut short without a word.
pub fn open_log(path: &Path) -> Result<LogFile, ReadError> {
    open_limited(path, MAX_FILE_BYTES)
}

fn open_limited(path: &Path, max: u64) -> Result<LogFile, ReadError> {
    let (file, _) = open_bounded(path, max, "logs")?;
    Ok(LogFile { file, left: max, max })
}

/// A log file opened by [`open_log`]: read as the file, with an error past [`MAX_FILE_BYTES`].
#[derive(Debug)]
pub struct LogFile {
    file: std::fs::File,
    left: u64,
    max: u64,
}

impl std::io::Read for LogFile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read(buf)?;
        self.left = self.left.checked_sub(n as u64).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("the file grew past {} bytes while it was read; Paifu reads logs of at most that", self.max),
            )
        })?;
        Ok(n)
    }
}

/// Reads a UTF-8 text file of at most `max` bytes; `what` names the kind of file in the error
/// when it is larger (`source files`). Memory is bounded by the limit: a larger file is refused
/// by its size before it is read, or once reading passes the limit.
pub fn read_text_limited(path: &Path, max: u64, what: &'static str) -> Result<String, ReadError> {
    let bytes = read_bounded(path, max, what)?;
    String::from_utf8(bytes)
        .map_err(|e| ReadError::NotText { path: path.display().to_string(), at: e.utf8_error().valid_up_to() })
}

fn read_bounded(path: &Path, max: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let (f, len) = open_bounded(path, max, what)?;
    let name = || path.display().to_string();
    let io = |source| ReadError::Io { path: name(), source };
    let mut out = Vec::with_capacity(len as usize);
    f.take(max + 1).read_to_end(&mut out).map_err(io)?;
    if out.len() as u64 > max {
        return Err(ReadError::TooLarge { path: name(), size: out.len() as u64, max, what });
    }
    Ok(out)
}

/// Opens a regular file of at most `max` bytes (checked before it is opened, and again on what
/// was opened); answers it and its length.
fn open_bounded(path: &Path, max: u64, what: &'static str) -> Result<(std::fs::File, u64), ReadError> {
    let name = || path.display().to_string();
    let io = |source| ReadError::Io { path: name(), source };
    // Look before opening: opening a named pipe waits for a writer, forever if none comes.
    if !std::fs::metadata(path).map_err(io)?.is_file() {
        return Err(ReadError::NotAFile { path: name() });
    }
    let f = std::fs::File::open(path).map_err(io)?;
    // And again on what was opened, in case the path changed in between.
    let meta = f.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile { path: name() });
    }
    if meta.len() > max {
        return Err(ReadError::TooLarge { path: name(), size: meta.len(), max, what });
    }
    Ok((f, meta.len()))
}

/// Reads a small text file (a key or a certificate, at most 1 MiB).
pub fn read_small_text(path: &Path) -> Result<String, ReadError> {
    read_text_limited(path, 1 << 20, "keys and certificates")
}

/// Whether a file name looks like a Paifu log.
pub(crate) fn is_log_name(p: &Path) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_that_grows_past_the_limit_while_it_is_read_is_an_error_not_cut_short() {
        use std::io::{Read, Write};
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("a.paifu.jsonl");
        std::fs::write(&p, "0123").unwrap();
        let mut log = open_limited(&p, 8).unwrap();
        std::fs::OpenOptions::new().append(true).open(&p).unwrap().write_all(b"456789").unwrap();
        let mut out = Vec::new();
        let e = log.read_to_end(&mut out).unwrap_err();
        assert!(e.to_string().contains("grew past 8 bytes"), "{e}");
        // Up to the limit, the file reads as it is.
        std::fs::write(&p, "0123").unwrap();
        let mut out = Vec::new();
        open_limited(&p, 8).unwrap().read_to_end(&mut out).unwrap();
        assert_eq!(out, b"0123");
    }

    #[test]
    fn text_is_read_up_to_its_limit_and_must_be_utf8() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("a.json");
        std::fs::write(&p, "東 1234").unwrap();
        assert_eq!(read_text_limited(&p, 8, "source files").unwrap(), "東 1234");
        let e = read_text_limited(&p, 7, "source files").unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { size: 8, max: 7, .. }), "{e}");
        assert!(e
            .to_string()
            .ends_with("a.json: the file is 8 bytes or more; Paifu reads source files of at most 7 bytes"));
        std::fs::write(&p, b"ok\xffno").unwrap();
        let e = read_text_limited(&p, 100, "source files").unwrap_err();
        assert!(matches!(e, ReadError::NotText { at: 2, .. }), "{e}");
        assert!(e.to_string().ends_with("a.json: not UTF-8 text (byte 2 is not)"), "{e}");
        let e = read_text_limited(t.path(), 100, "source files").unwrap_err();
        assert!(matches!(e, ReadError::NotAFile { .. }), "{e}");
    }
}
