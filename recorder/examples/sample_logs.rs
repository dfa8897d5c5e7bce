//! Writes simulated TZQ logs into a folder, for trying `paifu ingest` and the dashboard.
//!
//! cargo run --release -p paifu-recorder --example sample_logs -- DIR [COUNT]

use paifu_core::log::Encoding;
use paifu_recorder::samples::tzq_bytes;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: sample_logs DIR [COUNT]");
        std::process::exit(2);
    };
    let count: usize = args.next().and_then(|c| c.parse().ok()).unwrap_or(20);
    let players = ["Akiko", "Bruno", "Chen", "Dana", "Emeka", "Fatima"];
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("{dir}: {e}");
        std::process::exit(2);
    }
    for i in 0..count {
        let pair = [players[i % players.len()], players[(i * 7 + 1) % players.len()]];
        let pair = if pair[0] == pair[1] { [pair[0], players[(i + 1) % players.len()]] } else { pair };
        let enc = if i % 2 == 0 { Encoding::JsonLines } else { Encoding::Binary };
        let path = format!("{dir}/game-{i:05}.{}", enc.extension());
        if let Err(e) = std::fs::write(&path, tzq_bytes(&format!("sample/{i}"), pair, enc)) {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    }
    println!("wrote {count} logs to {dir}");
}
