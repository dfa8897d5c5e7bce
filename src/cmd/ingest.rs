//! `paifu ingest`: logs validated and stored in the archive, valid and invalid alike.

use crate::archive::open;
use crate::args::DEFAULT_DB;
use crate::cmd::keygen::read_key;
use crate::cmd::sign::certify;
use crate::error::{Error, Result, Status};
use crate::output::progress;
use clap::Args;
use indicatif::ProgressBar;
use paifu_core::cert::SecretKey;
use paifu_recorder::archive::{prepare, Archive, ArchiveError, Prepared};
use paifu_recorder::files::{collect_logs, read_log_bytes, ReadError};
use rayon::prelude::*;
use std::path::PathBuf;

/// Logs validated together before they are stored; each stored batch is committed.
const CHUNK: usize = 64;

#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Files and folders (searched for *.paifu and *.paifu.jsonl) are validated in parallel and every \
log is stored with its verdict, an invalid one with its fault, once: a log already in the archive is not stored \
again. Each batch is committed before it is counted, so an interrupted ingest keeps every log it reported stored.

Exit status: 0 every log valid, 1 some log invalid, 2 a file or the database could not be used."
)]
/// Validate logs and store them in the archive, valid and invalid alike.
///
/// Files and folders (searched recursively for *.paifu and *.paifu.jsonl) are validated in
/// parallel; every log is stored with its verdict (an invalid one with its fault), in the
/// binary encoding, once: a log already in the archive is not stored again. Progress is
/// committed in small batches, so an interrupted ingest keeps every log reported stored.
/// Exit code: 0 all valid, 1 some log invalid, 2 a file or the database could not be used.
pub struct IngestArgs {
    /// Log files or folders.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The archive's database file (created if missing).
    #[arg(long, value_name = "FILE", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// Put the logs in this tournament (created if missing).
    #[arg(long, value_name = "NAME")]
    pub tournament: Option<String>,
    /// Sign a certificate for each new log with this ed25519 private key (PKCS#8 PEM) and store it.
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
    /// No progress bar, only the summary.
    #[arg(long, short)]
    pub quiet: bool,
}

/// What an ingest did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct IngestSummary {
    pub files: usize,
    pub new_valid: usize,
    pub new_invalid: usize,
    pub already: usize,
    pub unreadable: Vec<String>,
    /// `path: fault` of each invalid log (new or already stored).
    pub invalid: Vec<String>,
}

impl IngestSummary {
    pub fn print(&self) {
        println!(
            "{} files: {} stored ({} valid, {} invalid), {} already in the archive, {} unreadable",
            self.files,
            self.new_valid + self.new_invalid,
            self.new_valid,
            self.new_invalid,
            self.already,
            self.unreadable.len()
        );
        for (i, line) in self.invalid.iter().enumerate() {
            if i == 20 {
                println!("  ... and {} more invalid logs", self.invalid.len() - 20);
                break;
            }
            println!("  invalid: {line}");
        }
        for e in &self.unreadable {
            println!("  unreadable: {e}");
        }
    }

    /// 0 every log valid, 1 some log invalid, 2 some file unreadable.
    pub fn status(&self) -> Status {
        if !self.unreadable.is_empty() {
            return Status::Failed;
        }
        Status::faulty_if(!self.invalid.is_empty())
    }
}

/// Validates and stores files; the library side of `paifu ingest`.
pub fn ingest_files(
    archive: &mut Archive,
    files: &[PathBuf],
    tournament: Option<&str>,
    key: Option<&SecretKey>,
    progress: &ProgressBar,
) -> std::result::Result<IngestSummary, ArchiveError> {
    let mut s = IngestSummary { files: files.len(), ..IngestSummary::default() };
    for chunk in files.chunks(CHUNK) {
        let prepared: Vec<(&PathBuf, std::result::Result<Prepared, ReadError>)> =
            chunk.par_iter().map(|p| (p, read_log_bytes(p).map(|b| prepare(&b)))).collect();
        let mut items = Vec::new();
        let mut names = Vec::new();
        for (path, r) in prepared {
            match r {
                Ok(p) => {
                    items.push(p);
                    names.push(path.display().to_string());
                }
                Err(e) => s.unreadable.push(e.to_string()),
            }
        }
        let sources: Vec<Option<&str>> = names.iter().map(|n| Some(n.as_str())).collect();
        let stored = archive.store_batch(&items, &sources, tournament)?;
        for ((st, p), name) in stored.iter().zip(&items).zip(&names) {
            match (st.new, st.valid) {
                (false, _) => s.already += 1,
                (true, true) => s.new_valid += 1,
                (true, false) => s.new_invalid += 1,
            }
            if let Some(f) = &st.fault {
                s.invalid.push(format!("{name}: {}", f.describe()));
            }
            if let (Some(k), true) = (key, st.new) {
                if let Some(c) = certify(&p.report(), k) {
                    let signer = hex::encode(k.verifying_key().to_bytes());
                    archive.put_certificate(st.id, &signer, &c.certificate.issued_at, &c.to_json())?;
                }
            }
        }
        // Everything counted here is committed.
        progress.inc(chunk.len() as u64);
    }
    Ok(s)
}

/// `paifu ingest`: 0 every log valid, 1 some log invalid, 2 a file or the database unusable.
pub fn run(a: IngestArgs) -> Result {
    let files = collect_logs(&a.paths)?;
    let key = a.key.as_deref().map(read_key).transpose()?;
    let mut archive = open(&a.db)?;
    let pb = progress(files.len() as u64, "{bar:40} {pos}/{len} logs stored ({per_sec}, {eta} left)", a.quiet);
    let s = ingest_files(&mut archive, &files, a.tournament.as_deref(), key.as_ref(), &pb)
        .map_err(Error::archive(&a.db))?;
    pb.finish_and_clear();
    s.print();
    Ok(s.status())
}
