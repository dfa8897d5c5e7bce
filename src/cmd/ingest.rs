//! `paifu ingest`: logs validated and stored in the archive, valid and invalid alike.

use crate::archive::open;
use crate::args::DEFAULT_DB;
use crate::cmd::keygen::read_key;
use crate::cmd::sign::certify;
use crate::error::{Error, Result, Status};
use crate::output::{outln, progress, Progress};
use clap::Args;
use paifu_core::cert::{Certificate, SecretKey};
use paifu_recorder::archive::{check_name, prepare, Archive, ArchiveError, NameKind, Origin, Prepared};
use paifu_recorder::files::{collect_logs, read_log_bytes, ReadError};
use rayon::prelude::*;
use std::path::PathBuf;

/// Logs validated together before they are stored; each stored batch is committed.
const CHUNK: usize = 64;

#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Files and folders (searched for *.paifu and *.paifu.jsonl) are validated in parallel and every \
log is stored with its verdict, an invalid one with its fault. A log already in the archive (the same log, in either \
encoding) is not stored again and nothing about it changes; a log that differs in anything the validator reads (the \
seed too) is an entry of its own, shown beside the other entries of its game (one game: the same rules, seats, deal \
and moves, whatever its bytes). A file that is not a readable log, or whose seat names are refused (control or \
invisible characters, more than 80 characters, a new name that looks like a stored one), is reported and not \
stored. An invalid log is kept up to 64 KiB past its fault. Each batch is committed, with the certificates --key \
signs for it, before it is counted, so an interrupted ingest keeps every log it reported stored, and signed; run \
again, it signs any stored log that has no certificate by --key. Any number of ingests (and a server) may write to \
one archive at once.

A tournament named with --tournament is made if missing; with --key it trusts that key (its standings count the \
valid games certified by a key it trusts: see paifu tournament).

With --queue the files are read and queued in the archive as jobs, not validated: paifu worker processes (any number, on any machines sharing a PostgreSQL archive) validate and store them (see paifu worker --help).

Examples:
  paifu ingest logs/ --db club.db
  paifu ingest night-3/ --tournament \"Club night\" --key referee.key
  paifu ingest --queue drop/ --db postgres://paifu@db.example/paifu   # then: paifu worker --db ...

Exit status: 0 every log valid, 1 some log invalid, 2 a file could not be read or stored, or the database could \
not be used."
)]
/// Validate logs and store them in the archive, valid and invalid alike.
///
/// Files and folders (searched recursively for *.paifu and *.paifu.jsonl) are validated in
/// parallel; every log is stored with its verdict (an invalid one with its fault), in the
/// binary encoding, once: a log already in the archive is not stored again. Files that are not
/// readable logs are reported and not stored. Progress is committed in small batches, so an
/// interrupted ingest keeps every log reported stored.
pub struct IngestArgs {
    /// Log files or folders.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The archive: a SQLite file (created if missing), or a PostgreSQL URL,
    /// postgres://USER@HOST:PORT/DBNAME (the PG* variables fill in what it leaves out).
    #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// Put the logs in this tournament (made if missing, trusting --key's public key).
    #[arg(long, value_name = "NAME")]
    pub tournament: Option<String>,
    /// Sign a certificate for each log with this ed25519 private key (PKCS#8 PEM) and store it
    /// with the log, in one transaction (a log stored already gets one if it has none by this
    /// key).
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
    /// No progress bar, only the summary.
    #[arg(long, short)]
    pub quiet: bool,
    /// Queue the files as jobs for paifu worker instead of storing them now (prints how many and
    /// their numbers). Give --key to the workers.
    #[arg(long, conflicts_with = "key")]
    pub queue: bool,
}

/// What an ingest did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct IngestSummary {
    pub files: usize,
    pub new_valid: usize,
    pub new_invalid: usize,
    pub already: usize,
    /// Logs stored already that had no certificate by the key, signed now.
    pub signed_late: usize,
    pub unreadable: Vec<String>,
    /// `path: why` of each file that is not a log the archive stores.
    pub refused: Vec<String>,
    /// `path: fault` of each invalid log (new or already stored).
    pub invalid: Vec<String>,
}

impl IngestSummary {
    pub fn print(&self) -> Result<()> {
        outln!(
            "{} files: {} stored ({} valid, {} invalid), {} already in the archive, {} unreadable, {} refused",
            self.files,
            self.new_valid + self.new_invalid,
            self.new_valid,
            self.new_invalid,
            self.already,
            self.unreadable.len(),
            self.refused.len()
        )?;
        if self.already > 0 {
            outln!("  the logs already in the archive are unchanged")?;
        }
        if self.signed_late > 0 {
            outln!(
                "  {} of them had no certificate by this key (an earlier ingest stopped before storing it): signed now",
                self.signed_late
            )?;
        }
        for (i, line) in self.invalid.iter().enumerate() {
            if i == 20 {
                outln!("  ... and {} more invalid logs", self.invalid.len() - 20)?;
                break;
            }
            outln!("  invalid: {line}")?;
        }
        for e in &self.refused {
            outln!("  refused, not stored: {e}")?;
        }
        for e in &self.unreadable {
            outln!("  unreadable: {e}")?;
        }
        Ok(())
    }

    /// 0 every log valid, 1 some log invalid, 2 some file unreadable or refused.
    pub fn status(&self) -> Status {
        if !self.unreadable.is_empty() || !self.refused.is_empty() {
            return Status::Failed;
        }
        Status::faulty_if(!self.invalid.is_empty())
    }
}

/// Validates and stores files; the library side of `paifu ingest`. The tournament, when named,
/// must be one [`check_name`] accepts (see [`prepare_tournament`]).
pub(crate) fn ingest_files(
    archive: &mut Archive,
    files: &[PathBuf],
    tournament: Option<&str>,
    key: Option<&SecretKey>,
    progress: &Progress,
) -> std::result::Result<IngestSummary, ArchiveError> {
    let mut s = IngestSummary { files: files.len(), ..IngestSummary::default() };
    for chunk in files.chunks(CHUNK) {
        // Validated and signed in parallel; stored, each log with its certificate, by one writer.
        type Ready = (Prepared, Option<Certificate>);
        let prepared: Vec<(&PathBuf, std::result::Result<Ready, ReadError>)> = chunk
            .par_iter()
            .map(|path| {
                let ready = read_log_bytes(path).map(|b| {
                    let p = prepare(&b);
                    let c = key.filter(|_| p.refusal().is_none()).and_then(|k| certify(&p.report(), k));
                    (p, c)
                });
                (path, ready)
            })
            .collect();
        let mut items = Vec::new();
        let mut certificates = Vec::new();
        let mut names = Vec::new();
        for (path, r) in prepared {
            match r {
                Ok((p, c)) => match p.refusal() {
                    Some(why) => s.refused.push(format!("{}: {why}", path.display())),
                    None => {
                        items.push(p);
                        certificates.push(c);
                        names.push(path.display().to_string());
                    }
                },
                Err(e) => s.unreadable.push(e.to_string()),
            }
        }
        // A name the archive refuses only knowing what it holds (a new name that looks like a
        // stored one) refuses its log: the batch is stored again without it.
        let stored = loop {
            let sources: Vec<Option<&str>> = names.iter().map(|n| Some(n.as_str())).collect();
            let certs: Vec<Option<&Certificate>> = certificates.iter().map(Option::as_ref).collect();
            match archive.store_batch_certified(&items, &sources, &certs, tournament, Origin::CommandLine) {
                Ok(stored) => break stored,
                Err(ArchiveError::Refused { index, refusal }) if index < items.len() => {
                    s.refused.push(format!("{}: {refusal}", names[index]));
                    items.remove(index);
                    certificates.remove(index);
                    names.remove(index);
                }
                Err(e) => return Err(e),
            }
        };
        for (st, name) in stored.iter().zip(&names) {
            match (st.new, st.valid) {
                (false, _) => s.already += 1,
                (true, true) => s.new_valid += 1,
                (true, false) => s.new_invalid += 1,
            }
            s.signed_late += usize::from(!st.new && st.certified_now);
            if let Some(f) = &st.fault {
                s.invalid.push(format!("{name}: {}", f.describe()));
            }
        }
        // Everything counted here is committed.
        progress.inc(chunk.len() as u64);
    }
    Ok(s)
}

/// Checks the tournament's name and makes the tournament if missing, trusting `key`'s public
/// key; says so when it was made trusting no key.
pub(crate) fn prepare_tournament(
    archive: &mut Archive,
    db: &std::path::Path,
    name: &str,
    key: Option<&SecretKey>,
) -> Result<()> {
    check_name(NameKind::Tournament, name).map_err(|e| Error::Usage(format!("--tournament: {e}")))?;
    let trusted: Vec<_> = key.map(|k| k.verifying_key()).into_iter().collect();
    let (_, made) = archive.ensure_tournament(name, None, &trusted).map_err(|e| match e {
        ArchiveError::Name(n) => Error::Usage(format!("--tournament: {n}")),
        e => Error::archive(db)(e),
    })?;
    if made && trusted.is_empty() {
        eprintln!(
            "made the tournament {name:?}; it trusts no signing key yet, so its standings count no game until one is \
             trusted: paifu tournament trust --db {} {name:?} --key referee.pub",
            crate::archive::shown(db)
        );
    }
    Ok(())
}

/// Files queued together, each batch in one short transaction.
const QUEUE_CHUNK: usize = 256;

/// `paifu ingest --queue`: reads the files and queues one ingest job per file; 0 every file
/// queued, 2 some file unreadable.
fn queue(a: &IngestArgs, files: &[PathBuf]) -> Result {
    let mut archive = open(&a.db)?;
    let (mut ids, mut unreadable) = (Vec::new(), Vec::new());
    for chunk in files.chunks(QUEUE_CHUNK) {
        let mut batch = Vec::with_capacity(chunk.len());
        for path in chunk {
            match read_log_bytes(path) {
                Ok(b) => batch.push((path.display().to_string(), b)),
                Err(e) => unreadable.push(e.to_string()),
            }
        }
        ids.extend(
            archive
                .enqueue_ingest(&batch, a.tournament.as_deref(), Origin::CommandLine)
                .map_err(Error::archive(&a.db))?,
        );
    }
    let db = crate::archive::shown(&a.db);
    match (ids.iter().min(), ids.iter().max()) {
        (Some(first), Some(last)) => outln!(
            "{} files: {} jobs queued (ids {first}-{last}); run paifu worker --db {db} to work them",
            files.len(),
            ids.len()
        )?,
        _ => outln!("{} files: no job queued", files.len())?,
    }
    for e in &unreadable {
        outln!("  unreadable, not queued: {e}")?;
    }
    Ok(if unreadable.is_empty() { Status::Fine } else { Status::Failed })
}

/// `paifu ingest`: 0 every log valid, 1 some log invalid, 2 a file refused or unreadable, or the
/// database unusable.
pub fn run(a: IngestArgs) -> Result {
    if let Some(t) = &a.tournament {
        check_name(NameKind::Tournament, t).map_err(|e| Error::Usage(format!("--tournament: {e}")))?;
    }
    let files = collect_logs(&a.paths)?;
    if a.queue {
        return queue(&a, &files);
    }
    let key = a.key.as_deref().map(read_key).transpose()?;
    let mut archive = open(&a.db)?;
    if let Some(t) = &a.tournament {
        prepare_tournament(&mut archive, &a.db, t, key.as_ref())?;
    }
    let pb = progress(
        files.len() as u64,
        "{msg} {bar:40} {pos}/{len} logs stored ({per_sec}, {eta} left)",
        "storing",
        a.quiet,
    );
    let s = ingest_files(&mut archive, &files, a.tournament.as_deref(), key.as_ref(), &pb)
        .map_err(Error::archive(&a.db))?;
    pb.finish();
    s.print()?;
    Ok(s.status())
}
