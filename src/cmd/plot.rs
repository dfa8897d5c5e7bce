//! `paifu plot`: a plot from the archive as an SVG file.

use crate::archive::open_existing;
use crate::args::{FilterArgs, DEFAULT_DB};
use crate::error::{Error, Result, Status};
use crate::output::{outln, write_file};
use clap::Args;
use paifu_analyzer::plot;
use paifu_recorder::archive::Archive;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
#[command(after_help = "KIND is one of:
  scores       a game's scores after each round (needs --id N)
  placements   how often a player took each place (needs --player NAME)
  categories, win_points, turns   Tien Zi Que distributions
  yaku, dora, han, fu, ends       riichi distributions
  score, ends                     Ta Yü distributions
Distributions are over the valid games the filters choose, for one game kind (--game when there are several).

Examples:
  paifu plot scores --id 12 -o game12.svg
  paifu plot placements --player Aiko -o aiko.svg
  paifu plot yaku --game riichi --since 2025-05-01 -o yaku.svg")]
/// Draw a plot from the archive as an SVG file.
///
/// KIND is one of:
///   scores      a game's scores after each round (needs --id)
///   placements  how often a player took each place (needs --player)
///   categories, win_points, turns   TZQ distributions
///   yaku, dora, han, fu, ends       riichi distributions
///   score, ends                     Ta Yü distributions
/// Distributions are over the games the filters choose (all valid games by default), for one
/// game kind (--game; the only kind in the selection if there is one).
pub struct PlotArgs {
    /// What to plot.
    #[arg(value_name = "KIND")]
    pub kind: String,
    /// Where to write the SVG.
    #[arg(short, long, value_name = "FILE.svg")]
    pub output: PathBuf,
    /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME.
    #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// The game (its number in the archive) for `scores`.
    #[arg(long, value_name = "N")]
    pub id: Option<i64>,
    #[command(flatten)]
    pub filter: FilterArgs,
}

/// The SVG text of a plot; the library side of `paifu plot`.
pub fn plot_svg(archive: &Archive, a: &PlotArgs) -> Result<String> {
    match a.kind.as_str() {
        "scores" => {
            let id =
                a.id.ok_or_else(|| Error::Usage("plot scores needs --id N (the game's number in the archive)".into()))?;
            let g = archive
                .game(id)
                .map_err(Error::archive(&a.db))?
                .ok_or_else(|| Error::Usage(format!("there is no game {id}")))?;
            let names: Vec<String> = g.seats.iter().map(|s| s.player.clone()).collect();
            Ok(plot::score_chart(
                &names,
                &g.rounds,
                plot::starting_score(g.final_scores.as_deref().unwrap_or(&[]), &g.rounds),
                &format!("Game #{id}: scores after each round"),
            ))
        }
        kind => {
            // No game matching is `archive::no_match` already, so the selection has a kind.
            let analysis = crate::archive::analysis(archive, &a.db, &a.filter.filter())?;
            let player = a.filter.player.as_ref();
            let stats = match player {
                Some(p) => analysis
                    .players
                    .get(p)
                    .ok_or_else(|| Error::Usage(format!("{p} has no valid games in this selection")))?,
                None => &analysis.overall,
            };
            let game = match &a.filter.game {
                Some(g) => g.clone(),
                None if stats.kinds.len() == 1 => stats.kinds.keys().next().cloned().unwrap_or_default(),
                None => {
                    let kinds: Vec<&str> = stats.kinds.keys().map(String::as_str).collect();
                    return Err(Error::Usage(format!(
                        "the selection has several games ({}); choose one with --game",
                        kinds.join(", ")
                    )));
                }
            };
            let block = stats.kinds.get(&game).ok_or_else(|| Error::Usage(format!("no valid {game} games match")))?;
            if kind == "placements" {
                let who = player.ok_or_else(|| Error::Usage("plot placements needs --player NAME".into()))?;
                return Ok(plot::placement_chart(who, &block.placements));
            }
            let dists = paifu_analyzer::distributions(&game, block);
            let d = dists.iter().find(|d| d.name == kind).ok_or_else(|| {
                let names: Vec<&str> = dists.iter().map(|d| d.name.as_str()).collect();
                Error::Usage(format!("unknown plot {kind:?} for {game}: use scores, placements, {}", names.join(", ")))
            })?;
            let numeric = d.values.iter().all(|(l, _)| l.parse::<i64>().is_ok());
            Ok(if numeric {
                plot::bars(&d.title, &d.values, "", "count")
            } else {
                plot::frequency_bars(&d.title, &d.values)
            })
        }
    }
}

/// `paifu plot`.
pub fn run(a: PlotArgs) -> Result {
    let archive = open_existing(&a.db)?;
    let svg = plot_svg(&archive, &a)?;
    write_file(&a.output, svg.as_bytes())?;
    outln!("wrote {}", a.output.display())?;
    Ok(Status::Fine)
}
