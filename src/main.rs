//! The `paifu` command.

mod cli;
mod cmd_archive;
mod cmd_import;
mod demo;

use clap::Parser;

fn main() {
    let cli = cli::Cli::parse();
    let code = match cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("paifu: {e}");
            2
        }
    };
    std::process::exit(code);
}
