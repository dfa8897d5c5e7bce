//! `paifu simulate`: games between bots, one log file per game.

use crate::args::LogFormat;
use crate::error::{Error, Result, Status};
use crate::output::{make_dir, outln, progress_of, write_file};
use clap::Args;
use paifu_core::log::{self, Encoding, OptValue, Options};
use paifu_core::Seed;
use paifu_recorder::bots::Bots;
use paifu_recorder::play_game;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// The game: tzq (Tien Zi Que), riichi, mcr (Chinese Official mahjong), hungarian (Hungarian
    /// mahjong, 1925), tayu (Ta Yü).
    pub game: String,
    /// How many games to play.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// The series seed: any text, or 64 hex digits. Game i gets its own seed derived from it, so
    /// the same arguments always write byte-identical files.
    #[arg(long, default_value = "paifu")]
    pub seed: String,
    /// Folder to write the logs into (created if missing).
    #[arg(long, short)]
    pub out: PathBuf,
    /// The bot every seat plays (default: the game's strongest). Use --bots for one per seat.
    #[arg(long)]
    pub bot: Option<String>,
    /// One bot per seat, comma-separated, e.g. greedy,random.
    #[arg(long, value_delimiter = ',', conflicts_with = "bot")]
    pub bots: Vec<String>,
    /// Number of players (default: the game's smallest table).
    #[arg(long)]
    pub players: Option<usize>,
    /// The ruleset (or variant): each game's rules page lists them, e.g. tzq: standard,
    /// advanced, to30; tayu: standard, faceup; mcr: standard, botzone; hungarian: standard, game,
    /// sixteen, hand.
    #[arg(long, visible_alias = "variant", default_value = "standard")]
    pub ruleset: String,
    /// A rules option, KEY=VALUE (repeatable): true/false, an integer, or text.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The players' names, one per seat, comma-separated: `--names Aiko,Bao` (default: the
    /// bots' names, "greedy 0", "greedy 1", ...). `paifu stats --player` and the dashboard
    /// know the players by these names.
    #[arg(long, value_delimiter = ',', value_name = "NAME,NAME...")]
    pub names: Vec<String>,
    /// The encoding to write.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: LogFormat,
}

/// `--option KEY=VALUE` items as header options.
pub(crate) fn parse_options(items: &[String]) -> Result<Options> {
    let mut o = Options::new();
    for item in items {
        let (k, v) = item.split_once('=').ok_or_else(|| Error::Usage(format!("--option {item:?}: write KEY=VALUE")))?;
        let value = match v {
            "true" => OptValue::Bool(true),
            "false" => OptValue::Bool(false),
            _ => v.parse::<i64>().map(OptValue::Int).unwrap_or_else(|_| OptValue::Text(v.to_owned())),
        };
        o.insert(k.trim().to_owned(), value);
    }
    Ok(o)
}

/// Everything needed to simulate one series, independent of the game.
pub struct SimPlan {
    pub games: usize,
    pub seed: Seed,
    pub seed_text: String,
    pub out: PathBuf,
    pub bots: Vec<String>,
    pub players: Option<usize>,
    pub ruleset: String,
    pub options: Options,
    pub encoding: Encoding,
    pub seat_names: Option<Vec<String>>,
    pub meta: BTreeMap<String, String>,
    pub quiet: bool,
}

/// Simulates a series of one game; answers the files written.
pub(crate) fn simulate_typed<G: Bots>(plan: &SimPlan) -> Result<Vec<PathBuf>> {
    let rules = G::rules(&plan.ruleset, &plan.options).map_err(|e| Error::Usage(e.0))?;
    let seats = plan.players.unwrap_or(*G::SEATS.start());
    if !G::SEATS.contains(&seats) {
        return Err(Error::Usage(format!(
            "{} is played by {} to {} players, not {seats}",
            G::KIND.title(),
            G::SEATS.start(),
            G::SEATS.end()
        )));
    }
    let bot_names: Vec<String> = match plan.bots.len() {
        0 => vec![G::BOTS[0].to_owned(); seats],
        1 => vec![plan.bots[0].clone(); seats],
        n if n == seats => plan.bots.clone(),
        n => return Err(Error::Usage(format!("--bots names {n} bots for {seats} seats"))),
    };
    for b in &bot_names {
        if G::bot(b, &plan.seed).is_none() {
            return Err(Error::Usage(format!("{} has no bot {b:?}; it has: {}", G::KIND.name(), G::BOTS.join(", "))));
        }
    }
    if let Some(names) = &plan.seat_names {
        if names.len() != seats {
            return Err(Error::Usage(format!(
                "--names gives {} names for {seats} seats: name every seat, in seat order",
                names.len()
            )));
        }
        if let Some(bad) = names.iter().find(|n| n.trim().is_empty()) {
            return Err(Error::Usage(format!("--names: a player's name cannot be empty ({bad:?})")));
        }
    }
    make_dir(&plan.out)?;
    let bar = progress_of(plan.games as u64, "simulating", plan.quiet);
    let files: Result<Vec<PathBuf>> = (0..plan.games)
        .into_par_iter()
        .map(|i| {
            let game_seed = plan.seed.child(&format!("game/{i}"));
            let mut bots: Vec<Box<dyn paifu_recorder::Bot<G>>> = bot_names
                .iter()
                .enumerate()
                .filter_map(|(s, b)| G::bot(b, &plan.seed.child(&format!("bot/{i}/{s}"))))
                .collect();
            let mut meta = plan.meta.clone();
            meta.insert("series_seed".into(), plan.seed_text.clone());
            meta.insert("game_number".into(), (i + 1).to_string());
            let mut log = play_game::<G>(&plan.ruleset, rules.clone(), game_seed, &mut bots, meta)
                .map_err(|source| Error::Play { game: format!("game {}", i + 1), source })?;
            if let Some(names) = &plan.seat_names {
                log.header.seats = names.clone();
            }
            let path = plan.out.join(format!("{}-{:04}.{}", G::KIND.name(), i + 1, plan.encoding.extension()));
            write_file(&path, &log::encode(&log, plan.encoding))?;
            bar.inc(1);
            Ok(path)
        })
        .collect();
    bar.finish();
    files
}

/// `paifu simulate`.
pub fn run(a: SimulateArgs) -> Result {
    let bots = match &a.bot {
        Some(b) => vec![b.clone()],
        None => a.bots.clone(),
    };
    let plan = SimPlan {
        games: a.games,
        seed: Seed::from_text(&a.seed),
        seed_text: a.seed.clone(),
        out: a.out.clone(),
        bots,
        players: a.players,
        ruleset: a.ruleset.clone(),
        options: parse_options(&a.options)?,
        encoding: a.format.encoding(),
        seat_names: (!a.names.is_empty()).then(|| a.names.clone()),
        meta: BTreeMap::new(),
        quiet: false,
    };
    // The one place the game's engine is chosen.
    struct Simulate<'a>(&'a SimPlan);
    impl paifu_recorder::bots::Visitor for Simulate<'_> {
        type Output = Result<Vec<PathBuf>>;
        fn visit<G: Bots>(self) -> Self::Output {
            simulate_typed::<G>(self.0)
        }
    }
    let files = paifu_recorder::bots::by_name(&a.game, Simulate(&plan)).map_err(|f| Error::Usage(f.message))??;
    outln!("wrote {} {} logs to {}", files.len(), a.game, a.out.display())?;
    Ok(Status::Fine)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_typed_by_their_text() {
        let o = parse_options(&["red=true".into(), "goal=30".into(), " name =x=y".into()]).unwrap();
        assert_eq!(o.get("red"), Some(&OptValue::Bool(true)));
        assert_eq!(o.get("goal"), Some(&OptValue::Int(30)));
        assert_eq!(o.get("name"), Some(&OptValue::Text("x=y".into())));
        let e = parse_options(&["speed".into()]).unwrap_err();
        assert_eq!(e.to_string(), "--option \"speed\": write KEY=VALUE");
        assert_eq!(e.exit_code(), 2);
    }
}
