//! The commands' one error type, and how a command ended: each maps to the exit status the
//! README documents (0 fine, 1 an input was checked and found faulty, 2 usage or unreadable
//! input). Errors are turned into text only when `paifu` prints them.

use paifu_core::cert::KeyError;
use paifu_recorder::archive::ArchiveError;
use paifu_recorder::files::ReadError;
use paifu_recorder::import::ImportError;
use paifu_recorder::keys::KeyFileError;
use paifu_recorder::SimError;
use std::path::PathBuf;
use std::process::ExitCode;

/// How a command that reported its findings itself ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Everything was done and every input was fine: exit status 0.
    Fine,
    /// An input was checked and found faulty (an invalid log, a certificate that does not
    /// verify, an imported game that does not validate): exit status 1.
    Faulty,
    /// A usage error or an input that could not be read: exit status 2.
    Failed,
}

impl Status {
    /// The process exit status.
    pub fn code(self) -> u8 {
        match self {
            Status::Fine => 0,
            Status::Faulty => 1,
            Status::Failed => 2,
        }
    }

    /// `Faulty` when `faulty`, `Fine` otherwise.
    pub(crate) fn faulty_if(faulty: bool) -> Status {
        if faulty {
            Status::Faulty
        } else {
            Status::Fine
        }
    }
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(s.code())
    }
}

/// A command could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The arguments ask for something that cannot be done.
    #[error("{0}")]
    Usage(String),
    /// A file could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A file or folder could not be read or written.
    #[error("{}: {source}", .path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// Standard input or output failed.
    #[error("{stream}: {source}")]
    Stdio { stream: &'static str, source: std::io::Error },
    /// An input was read but is not what the command needs (not a log, not a certificate...).
    #[error("{what}: {message}")]
    Unreadable { what: String, message: String },
    /// A public key given on the command line is not one.
    #[error("--key {given}: {source}")]
    PublicKey { given: String, source: KeyError },
    /// A source file could not be imported.
    #[error("{}: {source}", .path.display())]
    Import { path: PathBuf, source: ImportError },
    /// A key file could not be made, read or written.
    #[error(transparent)]
    KeyFile(#[from] KeyFileError),
    /// `--db` names no archive (for the commands that only read one).
    #[error("{}: no such archive (make one with paifu ingest)", .path.display())]
    NoArchive { path: PathBuf },
    /// The archive failed.
    #[error("{}: {source}", .path.display())]
    Archive { path: PathBuf, source: ArchiveError },
    /// A game between bots could not be played.
    #[error("{game}: {source}")]
    Play { game: String, source: SimError },
    /// A match between bot programs could not go on.
    #[error(transparent)]
    Arena(#[from] paifu_recorder::arena::matches::MatchError),
    /// The dashboard could not be served.
    #[error(transparent)]
    Serve(#[from] paifu_web::ServeError),
    /// The filters chose no game of the archive.
    #[error("{0}")]
    NoMatch(String),
    /// An input was checked and found faulty, and the command stopped there.
    #[error("{0}")]
    Faulty(String),
}

impl Error {
    /// How a command that failed with this error ended.
    pub fn status(&self) -> Status {
        match self {
            Error::Faulty(_) => Status::Faulty,
            _ => Status::Failed,
        }
    }

    /// The process exit status: 1 when an input was found faulty, 2 otherwise.
    pub fn exit_code(&self) -> u8 {
        self.status().code()
    }

    /// Whether this is standard output closed by its reader (`paifu show ... | head`): not a
    /// failure, the reader has all it wanted.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Stdio { stream: "standard output", source } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Error {
        let path = path.into();
        move |source| Error::Io { path, source }
    }

    /// An error of the archive at `path`.
    pub fn archive(path: impl Into<PathBuf>) -> impl FnOnce(ArchiveError) -> Error {
        // A PostgreSQL URL is shown without its password.
        let path: PathBuf = path.into();
        let path = path.to_str().map_or(path.clone(), |p| paifu_recorder::archive::shown_location(p).into());
        move |source| Error::Archive { path, source }
    }

    /// `what` (a file, a stored game) is not what the command needs.
    pub fn unreadable(what: impl std::fmt::Display, message: impl std::fmt::Display) -> Error {
        Error::Unreadable { what: what.to_string(), message: message.to_string() }
    }
}

/// What the commands answer.
pub(crate) type Result<T = Status> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_the_documented_exit_codes() {
        assert_eq!([Status::Fine, Status::Faulty, Status::Failed].map(Status::code), [0, 1, 2]);
        assert_eq!(Status::faulty_if(true), Status::Faulty);
        assert_eq!(Status::faulty_if(false), Status::Fine);
        assert_eq!(Status::Fine.max(Status::Faulty).max(Status::Failed), Status::Failed);
    }

    #[test]
    fn only_a_faulty_input_exits_with_1() {
        assert_eq!(Error::Faulty("x.paifu: cannot be certified".into()).exit_code(), 1);
        let io = || std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        for e in [
            Error::Usage("--at 9: the log has 3 records".into()),
            Error::io("a/b")(io()),
            Error::Stdio { stream: "standard input", source: io() },
            Error::unreadable("g.paifu", "bad_encoding"),
            Error::NoArchive { path: "none.db".into() },
            Error::Serve(paifu_web::ServeError::NoAddress("127.0.0.1:80".into())),
        ] {
            assert_eq!(e.exit_code(), 2, "{e}");
        }
    }

    #[test]
    fn only_standard_output_closed_by_its_reader_is_a_broken_pipe() {
        let kind = |k| std::io::Error::new(k, "x");
        use std::io::ErrorKind::{BrokenPipe, Other};
        assert!(Error::Stdio { stream: "standard output", source: kind(BrokenPipe) }.is_broken_pipe());
        assert!(!Error::Stdio { stream: "standard output", source: kind(Other) }.is_broken_pipe());
        assert!(!Error::Stdio { stream: "standard input", source: kind(BrokenPipe) }.is_broken_pipe());
        assert!(!Error::io("out.svg")(kind(BrokenPipe)).is_broken_pipe());
    }

    #[test]
    fn messages_name_what_failed() {
        let e = Error::io("out/x.svg")(std::io::Error::new(std::io::ErrorKind::PermissionDenied, "denied"));
        assert_eq!(e.to_string(), "out/x.svg: denied");
        assert_eq!(
            Error::NoArchive { path: "a.db".into() }.to_string(),
            "a.db: no such archive (make one with paifu ingest)"
        );
        assert_eq!(Error::unreadable("game #3", "truncated").to_string(), "game #3: truncated");
    }
}
