//! `paifu validate`: each log's verdict, a line of text or a JSON object per log.

use crate::error::{Error, Result, Status};
use crate::output::{progress_of, report_json, report_line};
use clap::Args;
use paifu_core::ErrorCode;
use paifu_recorder::files::{collect_logs, read_log_bytes};
use paifu_recorder::import::source::{as_excerpt, validate_bytes};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

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
}

/// What `paifu validate` prints for one file.
enum Checked {
    /// The file could not be read: the message, and the JSON line for `--json`.
    Unreadable { message: String, line: Option<String> },
    /// A log was read and checked: its verdict and its line.
    Log { valid: bool, line: String },
}

/// `paifu validate`: 0 every log valid, 1 some log invalid, 2 some file unreadable.
pub fn run(a: ValidateArgs) -> Result {
    let files = collect_logs(&a.paths)?;
    if files.is_empty() {
        return Err(Error::Usage("no logs found (files named *.paifu.jsonl or *.paifu)".into()));
    }
    let bar = progress_of(files.len() as u64, "validating", files.len() < 50);
    // Each log's line is written where the log is checked, and only the line is kept until the
    // lines are printed in file order: a report holds every round's summary and facts.
    let results: Vec<Checked> = files
        .par_iter()
        .map(|f| {
            let checked = match read_log_bytes(f) {
                Err(e) => {
                    let message = e.to_string();
                    let line = a.json.then(|| {
                        serde_json::json!({"file": f.display().to_string(), "valid": false, "io_error": message})
                            .to_string()
                    });
                    Checked::Unreadable { message, line }
                }
                Ok(b) => {
                    let mut r = validate_bytes(&b);
                    let truncated = r.verdict.fault().is_some_and(|f| f.code == ErrorCode::Truncated);
                    // Only asked for: reading the log as an excerpt decodes it again.
                    if let Some(read) = (a.excerpt && truncated).then(|| as_excerpt(&b)).flatten() {
                        r = validate_bytes(&read);
                    }
                    let line = if a.json { report_json(f, &r).to_string() } else { report_line(f, &r) };
                    Checked::Log { valid: r.verdict.is_valid(), line }
                }
            };
            bar.inc(1);
            checked
        })
        .collect();
    bar.finish();
    let (mut invalid, mut io_errors) = (0, 0);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
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
    if !a.json && results.len() > 1 {
        let _ = writeln!(
            out,
            "{} logs: {} valid, {} invalid, {} unreadable",
            results.len(),
            results.len() - invalid - io_errors,
            invalid,
            io_errors
        );
    }
    Ok(if io_errors > 0 { Status::Failed } else { Status::faulty_if(invalid > 0) })
}
