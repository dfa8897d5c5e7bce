//! The `paifu` command (the library in src/lib.rs does the work).

use clap::Parser;

fn main() -> std::process::ExitCode {
    paifu::run(paifu::Cli::parse())
}
