//! The `paifu` command as a library: [`cli`] parses the command line, [`cmd`] holds a module per
//! command, and every command answers a [`Status`] or an [`Error`], each with its exit status.
//!
//! Shared pieces: [`args`] (the log encoding, the archive filters), [`archive`] (opening the
//! archive, reading the games the filters choose), [`output`] (files, progress, verdict lines).

mod archive;
pub mod args;
mod cli;
pub mod cmd;
mod error;
mod output;

pub use cli::{Cli, Command};
pub use error::{Error, Status};

use std::process::ExitCode;

/// Runs a parsed command line: prints an error as `paifu: ...` on standard error, and answers
/// the exit status (0 fine, 1 an input was found faulty, 2 usage or unreadable input). A reader
/// that closed standard output early (`paifu show ... | head`) ends the command quietly, as
/// other command-line tools do.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command.run() {
        Ok(status) => status.into(),
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("paifu: {e}");
            e.status().into()
        }
    }
}
