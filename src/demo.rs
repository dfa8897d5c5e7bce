//! `paifu demo`: a small tournament of every game Paifu plays, simulated, validated and signed.

use crate::cli::{certify, report_line};
use clap::Args;
use paifu_core::log::{self, Encoding};
use paifu_core::replay;
use paifu_core::Seed;
use paifu_recorder::bots::Bots;
use paifu_recorder::play_game;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Folder for the demo's logs, keys and certificates.
    #[arg(long, short, default_value = "paifu-demo")]
    pub out: PathBuf,
    /// The tournament seed.
    #[arg(long, default_value = "paifu demo")]
    pub seed: String,
    /// Where to serve the dashboard.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Stop after signing: do not store the games or serve the dashboard.
    #[arg(long)]
    pub no_serve: bool,
}

/// The demo players: a name and the bot that plays for them.
pub const PLAYERS: [(&str, &str); 4] =
    [("Aiko", "greedy"), ("Bence", "greedy"), ("Chen", "random"), ("Dani", "random")];

/// One player's line in a game's standings.
#[derive(Default, Debug)]
pub struct Standing {
    pub played: u32,
    /// Games finished first (alone or shared).
    pub won: u32,
    pub points: i64,
}

/// What the demo made.
pub struct Made {
    pub logs: Vec<PathBuf>,
    pub valid: usize,
    pub standings: BTreeMap<&'static str, BTreeMap<&'static str, Standing>>,
}

struct Ctx<'a> {
    seed: Seed,
    logs: PathBuf,
    certs: PathBuf,
    key: &'a paifu_core::cert::SecretKey,
    made: Made,
}

/// Plays one game of `G` with these players in these seats, writes, validates and signs it.
fn table<G: Bots>(cx: &mut Ctx, ruleset: &str, label: &str, players: &[(&'static str, &str)]) -> Result<(), String> {
    let rules = G::rules(ruleset, &Default::default()).map_err(|e| e.0)?;
    let mut bots: Vec<Box<dyn paifu_recorder::Bot<G>>> = players
        .iter()
        .enumerate()
        .filter_map(|(s, (_, b))| G::bot(b, &cx.seed.child(&format!("{label}/bot/{s}"))))
        .collect();
    let meta = BTreeMap::from([
        ("event".to_owned(), "Paifu demo tournament".to_owned()),
        ("table".to_owned(), label.to_owned()),
    ]);
    let mut game =
        play_game::<G>(ruleset, rules, cx.seed.child(label), &mut bots, meta).map_err(|e| format!("{label}: {e}"))?;
    game.header.seats = players.iter().map(|(p, _)| (*p).to_owned()).collect();
    let path = cx.logs.join(format!("{}.paifu.jsonl", label.replace('/', "-")));
    let bytes = log::encode(&game, Encoding::JsonLines);
    std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let report = replay::validate_bytes(&bytes);
    println!("{}", report_line(&path, &report));
    if let Some(c) = certify(&report, cx.key) {
        let cp = cx.certs.join(format!("{}.cert.json", label.replace('/', "-")));
        std::fs::write(&cp, c.to_json()).map_err(|e| format!("{}: {e}", cp.display()))?;
    }
    if let Some(o) = report.verdict.outcome() {
        cx.made.valid += 1;
        let best = o.final_scores.iter().copied().max().unwrap_or(0);
        let st = cx.made.standings.entry(G::KIND.title()).or_default();
        for (seat, (name, _)) in players.iter().enumerate() {
            let s = st.entry(name).or_default();
            s.played += 1;
            s.points += o.final_scores[seat];
            s.won += u32::from(o.final_scores[seat] == best);
        }
    }
    cx.made.logs.push(path);
    Ok(())
}

/// Simulates the tournament into `out`; answers what was made.
pub fn make(out: &Path, seed: &str) -> Result<Made, String> {
    let logs = out.join("logs");
    let certs = out.join("certs");
    for d in [&logs, &certs] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    // The referee's key: kept from an earlier run, made otherwise.
    let key_path = out.join("referee.key");
    let pub_path = out.join("referee.pub");
    if !key_path.exists() {
        let (secret, public) = paifu_recorder::keys::generate().map_err(|e| e.to_string())?;
        paifu_recorder::keys::write_private(&key_path, &secret).map_err(|e| e.to_string())?;
        std::fs::write(&pub_path, public).map_err(|e| format!("{}: {e}", pub_path.display()))?;
    }
    let key = paifu_recorder::keys::read_private(&key_path).map_err(|e| e.to_string())?;
    let mut cx = Ctx {
        seed: Seed::from_text(seed),
        logs,
        certs,
        key: &key,
        made: Made { logs: Vec::new(), valid: 0, standings: BTreeMap::new() },
    };

    // Tien Zi Que: a round robin, every pairing twice with the seats swapped.
    let mut n = 0;
    for (i, &p) in PLAYERS.iter().enumerate() {
        for &q in &PLAYERS[i + 1..] {
            for pair in [[p, q], [q, p]] {
                n += 1;
                table::<paifu_core::tzq::Tzq>(&mut cx, "standard", &format!("tzq/{n:02}"), &pair)?;
            }
        }
    }
    // Riichi: two East+South games at one table, the seats rotated.
    for g in 0..2 {
        let seats: Vec<_> = (0..4).map(|s| PLAYERS[(s + g) % 4]).collect();
        table::<paifu_core::riichi::Riichi>(&mut cx, "standard", &format!("riichi/{:02}", g + 1), &seats)?;
    }
    // Ta Yü: two two-player games, a team game and a three-player game with a flood.
    table::<paifu_core::tayu::Tayu>(&mut cx, "standard", "tayu/01", &[PLAYERS[0], PLAYERS[2]])?;
    table::<paifu_core::tayu::Tayu>(&mut cx, "standard", "tayu/02", &[PLAYERS[1], PLAYERS[3]])?;
    table::<paifu_core::tayu::Tayu>(&mut cx, "standard", "tayu/03", &PLAYERS)?;
    table::<paifu_core::tayu::Tayu>(&mut cx, "standard", "tayu/04", &PLAYERS[..3])?;
    Ok(cx.made)
}

pub fn run(a: DemoArgs) -> Result<i32, String> {
    println!("Paifu demo: a tournament of Tien Zi Que, riichi mahjong and Ta Yü for four players.\n");
    let made = make(&a.out, &a.seed)?;
    let n = made.logs.len();
    println!("\n{} of {n} games valid and signed.", made.valid);
    for (game, table) in &made.standings {
        println!("\n{game}:");
        println!("  {:<8} {:>6} {:>4} {:>9}", "player", "played", "won", "points");
        let mut rows: Vec<_> = table.iter().collect();
        rows.sort_by_key(|(_, s)| std::cmp::Reverse((s.won, s.points)));
        for (name, s) in rows {
            println!("  {:<8} {:>6} {:>4} {:>9}", name, s.played, s.won, s.points);
        }
    }
    let first = a.out.join("logs/tzq-01.paifu.jsonl");
    println!("\nEverything is in {}. Try:", a.out.display());
    println!("  paifu show {}", first.display());
    println!("  paifu validate {}", a.out.join("logs").display());
    println!(
        "  paifu verify {} {} --key {}",
        a.out.join("certs/tzq-01.cert.json").display(),
        first.display(),
        a.out.join("referee.pub").display()
    );
    println!("Then change a card in {} and validate it again to see where and why it is rejected.", first.display());
    if a.no_serve {
        return Ok(if made.valid == n { 0 } else { 1 });
    }
    let key = paifu_recorder::keys::read_private(&a.out.join("referee.key")).map_err(|e| e.to_string())?;
    println!();
    crate::cmd_archive::ingest_and_serve(&made.logs, &a.out.join("paifu.db"), "Paifu demo", &key, &a.addr)
}
