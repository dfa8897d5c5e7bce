//! The command line: `paifu COMMAND ...`, and which command runs.

use crate::cmd::{
    arena, bot, contribution, convert, demo, digest, export, import, ingest, jobs, keygen, plot, report, score, serve,
    show, sign, simulate, stats, token, tournament, validate, verify, worker,
};
use crate::error::Result;
use clap::{Parser, Subcommand};

const ABOUT: &str = "Paifu records, validates and signs game logs of tile and card games.

A log is a header (game, rules, seats, seed) and the players' decisions. Paifu replays it against
the game's rules from the seed, checks every action and every claimed score, and can sign the
verdict as a certificate that anyone can verify with the signer's public key.";

const AFTER: &str = r#"Examples:
  paifu simulate tzq --games 5 --seed club-night --out logs/
  paifu simulate tayu --players 3 --games 5 --out tayu/
  paifu simulate riichi --games 5 --out riichi/
  echo '{"hand":"123m456p789s11z22z2z","win":"2z","tsumo":true}' | paifu score riichi
  paifu validate logs/
  paifu show logs/tzq-0001.paifu.jsonl --at 10
  paifu keygen -o referee
  paifu sign logs/tzq-0001.paifu.jsonl --key referee.key
  paifu verify logs/tzq-0001.paifu.jsonl.cert.json logs/tzq-0001.paifu.jsonl --key referee.pub
  paifu ingest logs/ --tournament "Club night"     # store in ./paifu.db
  paifu ingest --queue drop/ --db postgres://paifu@db/paifu && paifu worker --db postgres://paifu@db/paifu
  paifu stats --game riichi --player Aiko
  paifu show --player Aiko --since 2025-05-01      # the archive's games: number, game, verdict, players
  paifu export tenhou --tournament "Club night" -o club-night/
  paifu token create --name alice --role organiser # a token that may write through the dashboard
  paifu tournament trust "Club night" --key referee.pub
  paifu report --tournament "Club night" -o report --key referee.key
  paifu verify tournament report/manifest.json --key referee.pub --logs report/games
  paifu serve                                      # the dashboard on http://127.0.0.1:8080
  paifu demo

The archive's games are chosen by the same filters in stats, plot, show and export: --game,
--player, --tournament and --since (when the game was stored).

Exit status: 0 success (every log valid), 1 a log is invalid or a certificate does not verify,
2 usage or I/O error."#;

#[derive(Parser, Debug)]
#[command(name = "paifu", version, about = "Replay recorder, validator and analyzer for tile and card games", long_about = ABOUT, after_help = AFTER)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play games with bots and write one log per game.
    Simulate(simulate::SimulateArgs),
    /// Replay logs against the rules; report each log's verdict.
    Validate(validate::ValidateArgs),
    /// Print a game move by move, every hand visible (or the state after one record); list the archive's games.
    Show(show::ShowArgs),
    /// Print each log's blake3 digest (the same for both encodings of a log).
    Digest(digest::DigestArgs),
    /// Convert a log between JSON Lines (.paifu.jsonl) and binary (.paifu).
    Convert(convert::ConvertArgs),
    /// Write a new ed25519 key pair for signing certificates.
    Keygen(keygen::KeygenArgs),
    /// Make a party's secret share of a fair seed, or assemble the seed file from every party's.
    Contribution(contribution::ContributionArgs),
    /// Validate a log and write a signed certificate of the verdict.
    Sign(sign::SignArgs),
    /// Check a certificate against its log and the signer's public key.
    Verify(verify::VerifyArgs),
    /// Score hands: one JSON object per line on standard input, one result per line out.
    Score(score::ScoreArgs),
    /// Simulate a small tournament of every game, sign it, store it and serve the dashboard.
    Demo(demo::DemoArgs),
    /// Validate logs and store them in the archive, valid and invalid alike.
    Ingest(ingest::IngestArgs),
    /// Take jobs from the archive's queue (ingest, re-validation) and work them until stopped.
    Worker(worker::WorkerArgs),
    /// Show the archive's queue of jobs; queue the re-validation of stored entries.
    Jobs(jobs::JobsArgs),
    /// Statistics over the archive's valid games, overall and per player.
    Stats(stats::StatsArgs),
    /// Draw a plot from the archive as an SVG file.
    Plot(plot::PlotArgs),
    /// Serve the web dashboard over the archive.
    Serve(serve::ServeArgs),
    /// Make, list and revoke the tokens that may write to the archive through the web server.
    Token(token::TokenArgs),
    /// List tournaments, make one for an organiser, set the keys it trusts.
    Tournament(tournament::TournamentArgs),
    /// Import game records into Paifu logs, validated: tenhou (tenhou.net/6 JSON or mjlog XML), mjai, botzone, pmn.
    Import(import::ImportArgs),
    /// A tournament's audit report: standings, every game, certificates and a signed manifest.
    Report(report::ReportArgs),
    /// Export riichi logs as tenhou.net/6 JSON or mjai: one log file, or games from the archive.
    Export(export::ExportArgs),
    /// Host a match between bot programs: deal, check every answer, record each game as played.
    Arena(arena::ArenaArgs),
    /// A bot program for paifu arena: Paifu's line protocol on standard input and output.
    Bot(bot::BotArgs),
}

impl Command {
    /// Runs the command.
    pub fn run(self) -> Result {
        match self {
            Command::Simulate(a) => simulate::run(a),
            Command::Validate(a) => validate::run(a),
            Command::Show(a) => show::run(a),
            Command::Digest(a) => digest::run(a),
            Command::Convert(a) => convert::run(a),
            Command::Keygen(a) => keygen::run(a),
            Command::Contribution(a) => contribution::run(a),
            Command::Sign(a) => sign::run(a),
            Command::Verify(a) => verify::run(a),
            Command::Score(a) => score::run(a),
            Command::Demo(a) => demo::run(a),
            Command::Ingest(a) => ingest::run(a),
            Command::Worker(a) => worker::run(a),
            Command::Jobs(a) => jobs::run(a),
            Command::Stats(a) => stats::run(a),
            Command::Plot(a) => plot::run(a),
            Command::Serve(a) => serve::run(a),
            Command::Token(a) => token::run(a),
            Command::Tournament(a) => tournament::run(a),
            Command::Import(a) => import::run(a),
            Command::Arena(a) => arena::run(a),
            Command::Bot(a) => bot::run(a),
            Command::Export(a) => export::run(a),
            Command::Report(a) => report::run(a),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn filters_parse_alike_in_every_archive_command() {
        let filters = ["--game", "riichi", "--player", "Aiko", "--tournament", "Cup", "--since", "1970-01-02"];
        let with = |head: &[&str]| Cli::try_parse_from(head.iter().chain(filters.iter())).map(|c| c.command);
        let expect = crate::args::FilterArgs {
            game: Some("riichi".into()),
            player: Some("Aiko".into()),
            tournament: Some("Cup".into()),
            since: Some(86_400),
        };
        for head in [
            &["paifu", "stats"][..],
            &["paifu", "plot", "yaku", "-o", "y.svg"],
            &["paifu", "show"],
            &["paifu", "export", "tenhou", "-o", "out"],
        ] {
            let filter = match with(head) {
                Ok(Command::Stats(a)) => a.filter,
                Ok(Command::Plot(a)) => a.filter,
                Ok(Command::Show(a)) => a.filter,
                Ok(Command::Export(a)) => a.filter,
                other => panic!("{head:?}: {other:?}"),
            };
            assert_eq!(filter, expect, "{head:?}");
        }
    }

    #[test]
    fn a_log_file_and_archive_filters_do_not_mix() {
        for args in [
            &["paifu", "show", "g.paifu", "--player", "Aiko"][..],
            &["paifu", "show", "g.paifu", "--db", "a.db"],
            &["paifu", "show", "g.paifu", "--id", "3"],
            &["paifu", "show", "--id", "3", "--since", "2025-01-01"],
            &["paifu", "show", "--at", "3"],
            &["paifu", "show", "--valid", "--invalid"],
            &["paifu", "export", "tenhou", "g.paifu", "-o", "x", "--tournament", "Cup"],
            &["paifu", "stats", "--since", "last week"],
        ] {
            let e = Cli::try_parse_from(args).expect_err(&args.join(" "));
            assert_eq!(e.exit_code(), 2, "{}", args.join(" "));
        }
        assert!(Cli::try_parse_from(["paifu", "show", "--id", "3", "--at", "5"]).is_ok());
        assert!(Cli::try_parse_from(["paifu", "show", "g.paifu", "--at", "5"]).is_ok());
    }
}
