//! `paifu demo`: a small tournament of every game Paifu plays, simulated, validated and signed,
//! then stored in an archive and served.

use crate::archive::open;
use crate::cmd::ingest::{ingest_files, prepare_tournament};
use crate::cmd::keygen::{read_key, write_key_pair};
use crate::cmd::serve::serve;
use crate::cmd::sign::certify;
use crate::error::{Error, Result, Status};
use crate::output::{make_dir, outln, report_line, write_file, Progress};
use clap::Args;
use paifu_core::cert::SecretKey;
use paifu_core::log::{self, Encoding};
use paifu_core::replay;
use paifu_core::Seed;
use paifu_recorder::archive::{Role, Standing};
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
    /// Stop once the games are signed and stored in the archive (paifu-demo/paifu.db): do not
    /// serve the dashboard.
    #[arg(long)]
    pub no_serve: bool,
}

/// The tournament the demo's games are stored in.
pub(crate) const DEMO_TOURNAMENT: &str = "Paifu demo";

/// The demo players: a name and the bot that plays for them.
pub(crate) const PLAYERS: [(&str, &str); 4] =
    [("Aiko", "greedy"), ("Bence", "greedy"), ("Chen", "random"), ("Dani", "random")];

/// What the demo made.
pub struct Made {
    pub logs: Vec<PathBuf>,
    pub valid: usize,
}

struct Ctx<'a> {
    seed: Seed,
    logs: PathBuf,
    certs: PathBuf,
    key: &'a SecretKey,
    made: Made,
}

/// Plays one game of `G` with these players in these seats, writes, validates and signs it.
fn table<G: Bots>(cx: &mut Ctx, ruleset: &str, label: &str, players: &[(&'static str, &str)]) -> Result<()> {
    let rules = G::rules(ruleset, &Default::default()).map_err(|e| Error::Usage(e.0))?;
    let mut bots: Vec<Box<dyn paifu_recorder::Bot<G>>> = players
        .iter()
        .enumerate()
        .filter_map(|(s, (_, b))| G::bot(b, &cx.seed.child(&format!("{label}/bot/{s}"))))
        .collect();
    let meta = BTreeMap::from([
        ("event".to_owned(), "Paifu demo tournament".to_owned()),
        ("table".to_owned(), label.to_owned()),
    ]);
    let mut game = play_game::<G>(ruleset, rules, cx.seed.child(label), &mut bots, meta)
        .map_err(|source| Error::Play { game: label.to_owned(), source })?;
    game.header.seats = players.iter().map(|(p, _)| (*p).to_owned()).collect();
    let path = cx.logs.join(format!("{}.paifu.jsonl", label.replace('/', "-")));
    let bytes = log::encode(&game, Encoding::JsonLines);
    write_file(&path, &bytes)?;
    let report = replay::validate_bytes(&bytes);
    outln!("{}", report_line(&path, &report))?;
    if let Some(c) = certify(&report, cx.key) {
        write_file(&cx.certs.join(format!("{}.cert.json", label.replace('/', "-"))), c.to_json().as_bytes())?;
    }
    if report.verdict.outcome().is_some() {
        cx.made.valid += 1;
    }
    cx.made.logs.push(path);
    Ok(())
}

/// Simulates the tournament into `out`; answers what was made.
pub fn make(out: &Path, seed: &str) -> Result<Made> {
    let logs = out.join("logs");
    let certs = out.join("certs");
    for d in [&logs, &certs] {
        make_dir(d)?;
    }
    // The referee's key: kept from an earlier run, made otherwise.
    let key_path = out.join("referee.key");
    if !key_path.exists() {
        write_key_pair(&key_path, &out.join("referee.pub"))?;
    }
    let key = read_key(&key_path)?;
    let mut cx = Ctx { seed: Seed::from_text(seed), logs, certs, key: &key, made: Made { logs: Vec::new(), valid: 0 } };

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
    // Chinese Official mahjong: one match of sixteen hands.
    table::<paifu_core::mcr::Mcr>(&mut cx, "standard", "mcr/01", &PLAYERS)?;
    // Hungarian mahjong: one party.
    table::<paifu_core::hungarian::Hungarian>(&mut cx, "standard", "hungarian/01", &PLAYERS)?;
    Ok(cx.made)
}

/// Prints the standings as the archive ranks them (riichi by points after uma and oka, the
/// other games by average place), one table per game and ruleset.
fn print_standings(lines: &[Standing]) -> Result<()> {
    let mut start = 0;
    while start < lines.len() {
        let first = &lines[start];
        let end =
            start + lines[start..].iter().take_while(|l| l.game == first.game && l.ruleset == first.ruleset).count();
        let title = paifu_core::GameKind::from_name(&first.game).map_or(first.game.as_str(), |k| k.title());
        let riichi = first.points.is_some();
        outln!(
            "\n{title} ({} rules), ranked by {}:",
            first.ruleset,
            if riichi { "points after uma and oka" } else { "average place" }
        )?;
        outln!(
            "  {:>4} {:<8} {:>5} {:>9} {:>6} {:>11}",
            "rank",
            "player",
            "games",
            "avg place",
            "firsts",
            if riichi { "points" } else { "total score" }
        )?;
        for l in &lines[start..end] {
            let last = match l.points {
                Some(p) => format!("{:+.1}", p as f64 / 1000.0),
                None => l.total_score.to_string(),
            };
            outln!(
                "  {:>4} {:<8} {:>5} {:>9.2} {:>6} {:>11}",
                l.rank,
                l.player,
                l.games,
                l.average_placement,
                l.firsts,
                last
            )?;
        }
        start = end;
    }
    Ok(())
}

/// Prints what to try next.
fn print_summary(made: &Made, out: &Path) -> Result<()> {
    outln!("\n{} of {} games valid and signed.", made.valid, made.logs.len())?;
    let first = out.join("logs/tzq-01.paifu.jsonl");
    outln!("\nEverything is in {}. Try:", out.display())?;
    outln!("  paifu show {}", first.display())?;
    outln!("  paifu validate {}", out.join("logs").display())?;
    outln!(
        "  paifu verify {} {} --key {}",
        out.join("certs/tzq-01.cert.json").display(),
        first.display(),
        out.join("referee.pub").display()
    )?;
    outln!("Then change a card in {} and validate it again to see where and why it is rejected.", first.display())
}

/// `paifu demo`: with --no-serve, 0 every game valid, signed and stored, 1 otherwise; else
/// serves until stopped.
pub fn run(a: DemoArgs) -> Result {
    outln!(
        "Paifu demo: a tournament of Tien Zi Que, riichi mahjong, Ta Yü, Chinese Official mahjong and Hungarian \
         mahjong for four players.\n"
    )?;
    let made = make(&a.out, &a.seed)?;
    let key = read_key(&a.out.join("referee.key"))?;
    // Store everything in the demo's archive as one tournament, with certificates.
    let db = a.out.join("paifu.db");
    let mut archive = open(&db)?;
    prepare_tournament(&mut archive, &db, DEMO_TOURNAMENT, Some(&key))?;
    let s = ingest_files(&mut archive, &made.logs, Some(DEMO_TOURNAMENT), Some(&key), &Progress::hidden())
        .map_err(Error::archive(&db))?;
    outln!()?;
    s.print()?;
    let standings = archive.standings(DEMO_TOURNAMENT).map_err(Error::archive(&db))?.unwrap_or_default();
    print_standings(&standings)?;
    print_summary(&made, &a.out)?;
    if a.no_serve {
        return Ok(Status::faulty_if(made.valid != made.logs.len()));
    }
    // A token for this run, so that the dashboard's uploads can be tried.
    let token = archive.create_token("demo", Role::Admin).map_err(Error::archive(&db))?;
    drop(archive);
    outln!("\nLog in at http://{}/login to upload (an admin token made for this demo, shown once):", a.addr)?;
    outln!("{}", token.secret)?;
    let mut config = paifu_web::Config::new(&db);
    config.key = Some(key);
    serve(config, &a.addr)
}
