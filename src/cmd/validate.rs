//! `paifu validate`: each log's verdict, a line of text or a JSON object per log.
//!
//! A log is read from its file a record at a time and replayed as it is read (core's
//! `replay::validate_reader`): memory holds one record and the engine's state, whatever the
//! log's length. Only an imported log that embeds its source, and a log read again as an
//! excerpt, are read whole (both are bounded by the file limit), for the source check of
//! `paifu_recorder::import::source`. Files are checked a batch at a time and their lines printed
//! in file order as each batch ends, so that a folder of any size costs the memory of a batch.

use crate::error::{Error, Result, Status};
use crate::output::{progress_of, report_json, report_line};
use clap::Args;
use paifu_core::log::{LogReader, ReadError};
use paifu_core::replay::{Report, Verdict};
use paifu_core::ErrorCode;
use paifu_recorder::files::{collect_logs, open_log, read_log_bytes};
use paifu_recorder::import::source::{as_excerpt, streams, validate_bytes, validate_reader};
use rayon::prelude::*;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Log files, or folders to search for *.paifu.jsonl and *.paifu files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Print one JSON object per log instead of a line of text. A valid log's incidents (a
    /// bot's timeout, illegal answer, garbage or exit, a forfeit, a referee's rule incident:
    /// docs/protocol.md) follow its line ("; 2 incidents: #5 seat 1 timeout (no answer), ...")
    /// or are its object's "incidents" (record index, seat, kind, detail).
    #[arg(long)]
    pub json: bool,
    /// Read an imported riichi game that stops early (truncated) as an excerpt of an unknown
    /// game: valid at the end of any round it plays to its end, every record and result checked,
    /// verdict "excerpt: rounds X to Y of an unknown game" with no final standings. The digest
    /// printed is then that of the log with the option excerpt: true (what `paifu import
    /// --excerpt` writes).
    #[arg(long)]
    pub excerpt: bool,
    /// Logs checked at once: 0 (the default) one per core, 1 one at a time on one thread. Each
    /// log is read a record at a time, so memory grows with this number, not with the logs.
    #[arg(long, short = 'j', default_value_t = 0)]
    pub jobs: usize,
}

/// What `paifu validate` prints for one file.
enum Checked {
    /// The file could not be read: the message, and the JSON line for `--json`.
    Unreadable { message: String, line: Option<String> },
    /// A log was read and checked: its verdict and its line.
    Log { valid: bool, line: String },
}

/// Files checked before their lines are printed: enough to keep every thread busy, few enough
/// that the lines waiting are a few kilobytes.
const BATCH: usize = 64;

/// Buffer of the reader of a log file.
const READ_BUFFER: usize = 64 << 10;

/// `paifu validate`: 0 every log valid, 1 some log invalid, 2 some file unreadable.
pub fn run(a: ValidateArgs) -> Result {
    let files = collect_logs(&a.paths)?;
    if files.is_empty() {
        return Err(Error::Usage("no logs found (files named *.paifu.jsonl or *.paifu)".into()));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs)
        .build()
        .map_err(|e| Error::Usage(format!("--jobs {}: {e}", a.jobs)))?;
    let bar = progress_of(files.len() as u64, "validating", files.len() < 50);
    let (mut invalid, mut io_errors) = (0, 0);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for batch in files.chunks(BATCH) {
        // Each log's line is written where the log is checked, and only the line is kept until
        // the batch's lines are printed in file order: a report holds every round's summary.
        let results: Vec<Checked> = pool.install(|| {
            batch
                .par_iter()
                .map(|f| {
                    let checked = check(f, &a);
                    bar.inc(1);
                    checked
                })
                .collect()
        });
        bar.suspend(|| {
            for c in &results {
                match c {
                    Checked::Unreadable { message, line } => {
                        io_errors += 1;
                        match line {
                            Some(l) => {
                                let _ = writeln!(out, "{l}");
                            }
                            None => eprintln!("paifu: {message}"),
                        }
                    }
                    Checked::Log { valid, line } => {
                        if !valid {
                            invalid += 1;
                        }
                        let _ = writeln!(out, "{line}");
                    }
                }
            }
            let _ = out.flush();
        });
    }
    bar.finish();
    if !a.json && files.len() > 1 {
        let _ = writeln!(
            out,
            "{} logs: {} valid, {} invalid, {} unreadable",
            files.len(),
            files.len() - invalid - io_errors,
            invalid,
            io_errors
        );
    }
    Ok(if io_errors > 0 { Status::Failed } else { Status::faulty_if(invalid > 0) })
}

/// One file's line.
fn check(f: &Path, a: &ValidateArgs) -> Checked {
    match report_of(f, a.excerpt) {
        Err(message) => {
            let line = a.json.then(|| {
                serde_json::json!({"file": f.display().to_string(), "valid": false, "io_error": message}).to_string()
            });
            Checked::Unreadable { message, line }
        }
        Ok(r) => {
            let line = if a.json { report_json(f, &r).to_string() } else { report_line(f, &r) };
            Checked::Log { valid: r.verdict.is_valid(), line }
        }
    }
}

/// The report on one file, or why it could not be read.
fn report_of(f: &Path, excerpt: bool) -> std::result::Result<Report, String> {
    let file = open_log(f).map_err(|e| e.to_string())?;
    let io = |e: std::io::Error| format!("{}: {e}", f.display());
    let whole = || read_log_bytes(f).map_err(|e| e.to_string());
    let r = match LogReader::open(BufReader::with_capacity(READ_BUFFER, file)) {
        Err(ReadError::Io(e)) => return Err(io(e)),
        Err(ReadError::Fault(fault)) => {
            Report { header: None, digest: None, records: 0, verdict: Verdict::Invalid(fault) }
        }
        // An imported MCR log checked against the source it embeds: read whole.
        Ok(reader) if !streams(reader.header()) => validate_bytes(&whole()?),
        // Any other (an imported riichi log against its source in the same pass): read once.
        Ok(reader) => validate_reader(reader).map_err(io)?,
    };
    // Read again as an excerpt only when asked to and the game stops early.
    let truncated = r.verdict.fault().is_some_and(|f| f.code == ErrorCode::Truncated);
    if excerpt && truncated {
        if let Some(read) = as_excerpt(&whole()?) {
            return Ok(validate_bytes(&read));
        }
    }
    Ok(r)
}
