//! A game's log written as it is played: the header line, then one line per record, each
//! flushed to the disk before the game goes on, so that a host killed mid-game loses nothing it
//! recorded. A line cut short by the kill is dropped when the journal is opened again.

use paifu_core::log::{header_line, record_line, Action, Header, Record};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A journal could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("{}: {source}", .path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: exists already (a journal is never overwritten)", .0.display())]
    Exists(PathBuf),
    #[error("{}: holds no complete header line", .0.display())]
    NoHeader(PathBuf),
}

/// An open journal, appended to.
pub struct Journal {
    path: PathBuf,
    file: File,
    /// Whether each line is synced to the disk (the default) or only written to the system.
    sync: bool,
}

impl Journal {
    fn io(&self) -> impl FnOnce(std::io::Error) -> JournalError + '_ {
        |source| JournalError::Io { path: self.path.clone(), source }
    }

    /// Starts a journal at `path` (which must not exist) with the game's header.
    pub fn create(path: &Path, header: &Header) -> Result<Journal, JournalError> {
        let file = OpenOptions::new().write(true).create_new(true).open(path).map_err(|source| {
            if source.kind() == std::io::ErrorKind::AlreadyExists {
                JournalError::Exists(path.to_owned())
            } else {
                JournalError::Io { path: path.to_owned(), source }
            }
        })?;
        let mut j = Journal { path: path.to_owned(), file, sync: true };
        j.write_line(&header_line(header))?;
        Ok(j)
    }

    /// Appends one record; on return it is on the disk.
    pub fn append<A: Action>(&mut self, record: &Record<A>) -> Result<(), JournalError> {
        self.write_line(&record_line(record))
    }

    fn write_line(&mut self, line: &str) -> Result<(), JournalError> {
        let sync = self.sync;
        let r = self.file.write_all(line.as_bytes()).and_then(|()| if sync { self.file.sync_data() } else { Ok(()) });
        r.map_err(self.io())
    }

    /// Opens a journal written before (by a host that may have been killed): a last line without
    /// its newline was cut short and is removed from the file. Answers the journal, to append
    /// to, and its complete lines as text (the header and the records so far).
    pub fn reopen(path: &Path) -> Result<(Journal, String), JournalError> {
        let io = |source| JournalError::Io { path: path.to_owned(), source };
        let mut file = OpenOptions::new().read(true).write(true).open(path).map_err(io)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        let complete = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        if complete < bytes.len() {
            file.set_len(complete as u64).and_then(|()| file.sync_data()).map_err(io)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        bytes.truncate(complete);
        let text = String::from_utf8(bytes)
            .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string())))?;
        if text.lines().next().is_none_or(|l| l.trim().is_empty()) {
            return Err(JournalError::NoHeader(path.to_owned()));
        }
        Ok((Journal { path: path.to_owned(), file, sync: true }, text))
    }

    /// Whether each record is synced to the disk before `append` returns (the default) or only
    /// handed to the operating system: a host killed mid-game loses nothing either way; without
    /// sync, a power cut may lose the last records.
    pub fn set_sync(&mut self, sync: bool) {
        self.sync = sync;
    }

    /// Where it is written.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::tzq_log;
    use paifu_core::log::{decode, encode, Encoding};

    #[test]
    fn a_journal_is_the_log_as_played_and_survives_a_line_cut_short() {
        let log = tzq_log("journal", ["Ann", "Bo"]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.paifu.jsonl.partial");
        let mut j = Journal::create(&path, &log.header).unwrap();
        for r in &log.records {
            j.append(r).unwrap();
        }
        drop(j);
        // Line for line the log's own JSON Lines encoding.
        assert_eq!(std::fs::read(&path).unwrap(), encode(&log, Encoding::JsonLines));
        assert!(matches!(Journal::create(&path, &log.header), Err(JournalError::Exists(_))));

        // A host killed in the middle of writing its fourth record.
        let path = dir.path().join("cut.paifu.jsonl.partial");
        let mut j = Journal::create(&path, &log.header).unwrap();
        for r in &log.records[..3] {
            j.append(r).unwrap();
        }
        drop(j);
        let whole = std::fs::read(&path).unwrap();
        let fourth = record_line(&log.records[3]);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&fourth.as_bytes()[..fourth.len() / 2]).unwrap();
        drop(f);
        let (mut j, text) = Journal::reopen(&path).unwrap();
        assert_eq!(text.as_bytes(), &whole[..], "the cut line is gone");
        let (read, _) = decode::<paifu_core::tzq::Action>(text.as_bytes()).unwrap();
        assert_eq!(read.records, log.records[..3]);
        // Play goes on from there: the rest appended gives the whole log.
        for r in &log.records[3..] {
            j.append(r).unwrap();
        }
        assert_eq!(std::fs::read(&path).unwrap(), encode(&log, Encoding::JsonLines));
        // Nothing to go on from.
        std::fs::write(dir.path().join("empty"), b"{\"paif").unwrap();
        assert!(matches!(Journal::reopen(&dir.path().join("empty")), Err(JournalError::NoHeader(_))));
    }
}
