//! `paifu import` on one thread and on all (issue 15, "Speed"; figures in docs/import.md).
//!
//! cargo run --release --example bench_import -- [FOLDER] [ROUNDS]
//!
//! Imports every record in FOLDER (default ../shared/real-logs/tenhou, read in place) ROUNDS
//! times (default 5) with `--jobs 1`, then with one thread per core, each into a fresh temporary
//! folder, as `paifu import tenhou FOLDER -o OUT` does (read, import, write, validate), and prints
//! the games per second of each and the ratio. It exits with status 1 when a run refuses a file
//! or the two runs import different numbers of games.

use paifu::cmd::import::import_paths;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let folder = args
        .get(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou"));
    let rounds: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5).max(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut rates = Vec::new();
    let mut counts = Vec::new();
    for jobs in [1, 0] {
        let start = Instant::now();
        let mut games = 0;
        for _ in 0..rounds {
            let out = match tempfile::tempdir() {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("a temporary folder: {e}");
                    return ExitCode::FAILURE;
                }
            };
            match import_paths(
                "tenhou",
                std::slice::from_ref(&folder),
                out.path(),
                524_288,
                jobs,
                true,
                Default::default(),
            ) {
                Ok(s) if s.refused().is_empty() => games += s.imported(),
                Ok(s) => {
                    eprintln!("refused: {:?}", s.summary_lines());
                    return ExitCode::FAILURE;
                }
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let threads = if jobs == 0 { cores } else { jobs };
        println!("{threads} thread(s): {games} games in {secs:.2} s, {:.1} games/s", games as f64 / secs);
        rates.push(games as f64 / secs);
        counts.push(games);
    }
    println!("all cores ({cores}) / one thread: {:.2}x", rates[1] / rates[0]);
    if counts[0] == counts[1] {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
