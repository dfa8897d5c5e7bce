//! `paifu demo`: a small tournament, simulated, validated and signed.

use crate::cli::{certify, report_line};
use clap::Args;
use paifu_core::log::{self, Encoding};
use paifu_core::replay;
use paifu_core::tzq::Tzq;
use paifu_core::{Game, Seed};
use paifu_recorder::bots::Bots;
use paifu_recorder::play_game;
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Folder for the demo's logs, keys and certificates.
    #[arg(long, short, default_value = "paifu-demo")]
    pub out: PathBuf,
    /// The tournament seed.
    #[arg(long, default_value = "paifu demo")]
    pub seed: String,
}

/// The demo players: a name and the bot that plays for them.
const PLAYERS: [(&str, &str); 4] = [("Aiko", "greedy"), ("Bence", "greedy"), ("Chen", "random"), ("Dora", "random")];

#[derive(Default)]
struct Standing {
    played: u32,
    won: u32,
    drawn: u32,
    points: i64,
}

pub fn run(a: DemoArgs) -> Result<i32, String> {
    let seed = Seed::from_text(&a.seed);
    let logs = a.out.join("logs");
    let certs = a.out.join("certs");
    for d in [&logs, &certs] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    // The referee's key: kept from an earlier run, made otherwise.
    let key_path = a.out.join("referee.key");
    let pub_path = a.out.join("referee.pub");
    if !key_path.exists() {
        let (secret, public) = paifu_recorder::keys::generate().map_err(|e| e.to_string())?;
        paifu_recorder::keys::write_private(&key_path, &secret).map_err(|e| e.to_string())?;
        std::fs::write(&pub_path, public).map_err(|e| format!("{}: {e}", pub_path.display()))?;
    }
    let key = paifu_recorder::keys::read_private(&key_path).map_err(|e| e.to_string())?;

    println!(
        "Paifu demo: a Tien Zi Que round robin for {} players, every pairing twice (seats swapped).\n",
        PLAYERS.len()
    );
    let rules = Tzq::rules("standard", &Default::default()).map_err(|e| e.0)?;
    let mut standings: BTreeMap<&str, Standing> = BTreeMap::new();
    let (mut n, mut valid) = (0, 0);
    for (i, &(p, pb)) in PLAYERS.iter().enumerate() {
        for &(q, qb) in &PLAYERS[i + 1..] {
            for (s0, b0, s1, b1) in [(p, pb, q, qb), (q, qb, p, pb)] {
                n += 1;
                let label = format!("match/{n}");
                let mut bots: Vec<Box<dyn paifu_recorder::Bot<Tzq>>> = [b0, b1]
                    .iter()
                    .enumerate()
                    .filter_map(|(s, b)| Tzq::bot(b, &seed.child(&format!("{label}/bot/{s}"))))
                    .collect();
                let meta = BTreeMap::from([
                    ("event".to_owned(), "Paifu demo tournament".to_owned()),
                    ("match".to_owned(), n.to_string()),
                ]);
                let mut game = play_game::<Tzq>("standard", rules.clone(), seed.child(&label), &mut bots, meta)
                    .map_err(|e| format!("match {n}: {e}"))?;
                game.header.seats = vec![s0.to_owned(), s1.to_owned()];
                let path =
                    logs.join(format!("match-{n:02}-{}-vs-{}.paifu.jsonl", s0.to_lowercase(), s1.to_lowercase()));
                let bytes = log::encode(&game, Encoding::JsonLines);
                std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;

                let report = replay::validate_bytes(&bytes);
                println!("{}", report_line(&path, &report));
                if let Some(c) = certify(&report, &key) {
                    let cp = certs.join(format!("match-{n:02}.cert.json"));
                    std::fs::write(&cp, c.to_json()).map_err(|e| format!("{}: {e}", cp.display()))?;
                }
                if let Some(o) = report.verdict.outcome() {
                    valid += 1;
                    let sc = &o.final_scores;
                    for (seat, name) in [s0, s1].iter().enumerate() {
                        let st = standings.entry(name).or_default();
                        st.played += 1;
                        st.points += sc[seat];
                        match sc[seat].cmp(&sc[1 - seat]) {
                            std::cmp::Ordering::Greater => st.won += 1,
                            std::cmp::Ordering::Equal => st.drawn += 1,
                            std::cmp::Ordering::Less => {}
                        }
                    }
                }
            }
        }
    }
    let mut table: Vec<(&str, Standing)> = standings.into_iter().collect();
    table.sort_by_key(|(_, s)| std::cmp::Reverse((s.won, s.points)));
    println!("\nStandings ({valid} of {n} matches valid and signed):");
    println!("  {:<8} {:>6} {:>4} {:>5} {:>7}", "player", "played", "won", "drawn", "points");
    for (name, s) in &table {
        println!("  {:<8} {:>6} {:>4} {:>5} {:>7}", name, s.played, s.won, s.drawn, s.points);
    }
    let first = logs.join("match-01-aiko-vs-bence.paifu.jsonl");
    println!("\nEverything is in {}. Try:", a.out.display());
    println!("  paifu show {}", first.display());
    println!("  paifu validate {}", logs.display());
    println!(
        "  paifu verify {} {} --key {}",
        certs.join("match-01.cert.json").display(),
        first.display(),
        pub_path.display()
    );
    println!("Then change a card in {} and validate it again to see where and why it is rejected.", first.display());
    Ok(if valid == n { 0 } else { 1 })
}
