//! `paifu show`: a game move by move (from a log file or the archive), or the archive's games
//! that the filters choose.

use crate::archive::{game_name, games, no_match, open_existing, stored_log};
use crate::args::{FilterArgs, DEFAULT_DB};
use crate::error::{Error, Result, Status};
use crate::output::{out, outln, printable};
use clap::{ArgGroup, Args};
use paifu_core::games::{self, Registered, Visitor};
use paifu_core::log;
use paifu_core::replay;
use paifu_recorder::archive::GameRow;
use paifu_recorder::files::read_log_bytes;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("one_game").args(["log", "id"])))]
#[command(after_help = "With a log file, shows that game. Without one, works on the archive (--db, default \
./paifu.db): lists the games the filters choose (number, game, verdict, players), newest first, or shows \
game N with --id N.

Incidents (a bot's timeout, illegal answer, garbage or exit, a forfeit, a referee's rule incident:
docs/protocol.md) are marked with `!` where they happen and listed at the end.

Examples:
  paifu show logs/tzq-0001.paifu.jsonl --at 12
  paifu show --player Aiko --since 2025-05-01
  paifu show --tournament \"Spring Cup\" --invalid
  paifu show --id 12")]
pub struct ShowArgs {
    /// The log to show; without it, games from the archive.
    #[arg(conflicts_with_all = ["db", "game", "player", "tournament", "since", "valid", "invalid"])]
    pub log: Option<PathBuf>,
    /// Show only the state after record N (0-based, as in validator messages); when record N ends a
    /// hand, that hand's end instead: its result and, for riichi, the winning hand with its tile
    /// apart, yaku, fu and points, the ura indicators, who paid whom and the new scores.
    #[arg(long, value_name = "N", requires = "one_game")]
    pub at: Option<usize>,
    /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME
    /// [default: paifu.db].
    #[arg(long, value_name = "FILE|URL")]
    pub db: Option<PathBuf>,
    /// Show game N of the archive (its number in the list).
    #[arg(long, value_name = "N", conflicts_with_all = ["game", "player", "tournament", "since", "valid", "invalid"])]
    pub id: Option<i64>,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// List only the valid games.
    #[arg(long, conflicts_with = "invalid")]
    pub valid: bool,
    /// List only the invalid games.
    #[arg(long)]
    pub invalid: bool,
}

/// Plays a log through its engine and prints every state (or the state after record `at`).
fn show_typed<G: Registered>(name: &str, bytes: &[u8], at: Option<usize>) -> Result {
    let (log, pos) = log::decode::<G::Action>(bytes).map_err(|f| Error::unreadable(name, f.describe()))?;
    let h = &log.header;
    if let Some(n) = at {
        if n >= log.records.len() {
            return Err(Error::Usage(format!(
                "--at {n}: the log has {} records (0 to {})",
                log.records.len(),
                log.records.len().saturating_sub(1)
            )));
        }
    }
    let mut state: G = replay::setup(h).map_err(|f| Error::unreadable(name, f.describe()))?;
    let mut out = String::new();
    let seats: Vec<String> = h.seats.iter().enumerate().map(|(i, s)| format!("seat {i} {}", printable(s))).collect();
    out.push_str(&format!("{} ({} rules), {}\n", G::KIND.title(), printable(&h.ruleset), seats.join(", ")));
    for (k, v) in &h.meta {
        out.push_str(&format!("  {}: {}\n", printable(k), printable(v)));
    }
    if at.is_none() {
        out.push_str(&format!("\n{}", state.render()));
    }
    let mut fault = None;
    let mut ended_at = false;
    for (i, rec) in log.records.iter().enumerate() {
        if at.is_some_and(|n| i > n) {
            break;
        }
        let before = state.results().len();
        // The table as record `at` is played: what `--at` shows when that record ends a hand.
        let table_before = (at == Some(i)).then(|| state.render());
        if let Err(f) = replay::step(&mut state, i, rec, &pos) {
            fault = Some(f);
            break;
        }
        if let Some(table) = table_before.filter(|_| state.results().len() > before) {
            // Record `at` ended a hand (a win, a draw): show that hand's end, not the next deal.
            out.push_str(&format!("\nAfter record #{i} (seat {}: {}), the hand ends:\n", rec.seat, rec.action));
            for r in &state.results()[before..] {
                out.push_str(&format!("== round {} ends: {} (score changes {:?})\n", r.round, r.summary, r.deltas));
            }
            // The engine's account of the hand's end, where its view has one (riichi).
            if let games::View::Riichi(v) = games::View::of(&state) {
                if let Some(end) = v.hand_end {
                    out.push_str(&end.to_string());
                }
            }
            out.push_str("\nThe table as it was played:\n");
            out.push_str(&table);
            ended_at = true;
        }
        if at.is_none() {
            out.push_str(&format!("\n#{i} seat {}: {}\n", rec.seat, record_text(&rec.action)));
            for r in &state.results()[before..] {
                out.push_str(&format!("== round {} ends: {} (score changes {:?})\n", r.round, r.summary, r.deltas));
            }
            out.push_str(&state.render());
        }
    }
    if let (Some(n), None, false) = (at, &fault, ended_at) {
        out.push_str(&format!("\nAfter record #{n} (seat {}: {}):\n", log.records[n].seat, log.records[n].action));
        out.push_str(&state.render());
    }
    if at.is_none() {
        out.push_str(&incident_summary(&log.records));
    }
    let excerpt = state.excerpt().filter(|_| at.is_none());
    if at.is_none() && fault.is_none() && !state.is_over() && excerpt.is_none() {
        fault = Some(replay::truncated(&state, log.records.len()));
    }
    out!("{out}")?;
    if let Some(f) = fault {
        outln!("\nThe log is invalid here: {}", f.describe())?;
        return Ok(Status::Faulty);
    }
    if let Some(e) = excerpt {
        outln!("\n{e}; scores after it: {:?}", state.scores())?;
    } else if state.is_over() {
        outln!("\nFinal scores: {:?}", state.scores())?;
    }
    Ok(Status::Fine)
}

/// A record's action as `show` prints it: an incident marked with `!` (its detail, free text,
/// made printable).
fn record_text<A: log::Action>(action: &A) -> String {
    match action.incident() {
        Some(_) => format!("! {}", printable(&action.to_string())),
        None => action.to_string(),
    }
}

/// The incidents of a log, counted by kind and listed (empty when there are none).
fn incident_summary<A: log::Action>(records: &[log::Record<A>]) -> String {
    let incidents: Vec<(usize, u8, &paifu_core::Incident)> =
        records.iter().enumerate().filter_map(|(i, r)| r.action.incident().map(|inc| (i, r.seat, inc))).collect();
    if incidents.is_empty() {
        return String::new();
    }
    let mut kinds: Vec<(paifu_core::IncidentKind, usize)> = Vec::new();
    for (_, _, inc) in &incidents {
        match kinds.iter_mut().find(|(k, _)| *k == inc.kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((inc.kind, 1)),
        }
    }
    kinds.sort();
    let counts: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let mut out = format!("\nIncidents: {} ({})\n", incidents.len(), counts.join(", "));
    for (i, seat, inc) in incidents {
        out.push_str(&format!("  ! #{i} seat {seat}: {}\n", printable(&inc.to_string())));
    }
    out
}

/// Shows one log's bytes; `name` says where they came from in messages.
fn show_bytes(name: &str, bytes: &[u8], at: Option<usize>) -> Result {
    let header = log::read_header(bytes).map_err(|f| Error::unreadable(name, f.describe()))?;
    // The one place the game's engine is chosen.
    struct Show<'a>(&'a str, &'a [u8], Option<usize>);
    impl Visitor for Show<'_> {
        type Output = Result;
        fn visit<G: Registered>(self) -> Result {
            show_typed::<G>(self.0, self.1, self.2)
        }
    }
    games::by_name(&header.game, Show(name, bytes, at)).map_err(|f| Error::unreadable(name, f.message))?
}

/// One line of the list of games.
fn game_line(r: &GameRow) -> String {
    let verdict = match (&r.valid, &r.fault_code) {
        (true, _) if r.excerpt.is_some() => "excerpt".to_owned(),
        (true, _) => "valid".to_owned(),
        (false, code) => format!("INVALID {}", code.as_deref().unwrap_or("")),
    };
    let players: Vec<String> = r.players.iter().map(|p| printable(p)).collect();
    let line = format!(
        "#{:<6} {:<7} {:<24} {}",
        r.id,
        printable(r.game.as_deref().unwrap_or("?")),
        verdict.trim_end(),
        players.join(", ")
    );
    line.trim_end().to_owned()
}

fn list(a: &ShowArgs, db: &Path) -> Result {
    let archive = open_existing(db)?;
    let mut filter = a.filter.filter();
    filter.valid = match (a.valid, a.invalid) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    };
    let rows = games(&archive, db, &filter)?;
    if rows.is_empty() {
        return Err(no_match(&archive, db, &filter));
    }
    for r in &rows {
        outln!("{}", game_line(r))?;
    }
    match rows.len() {
        0 | 1 => outln!("1 game; paifu show --id N shows it")?,
        n => outln!("{n} games; paifu show --id N shows one")?,
    }
    Ok(Status::Fine)
}

/// `paifu show`: 0 the game is valid (or the list was printed), 1 the game is invalid.
pub fn run(a: ShowArgs) -> Result {
    if let Some(path) = &a.log {
        let bytes = read_log_bytes(path)?;
        return show_bytes(&path.display().to_string(), &bytes, a.at);
    }
    let db = a.db.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_DB));
    match a.id {
        Some(id) => {
            let archive = open_existing(&db)?;
            show_bytes(&game_name(id), &stored_log(&archive, &db, id)?, a.at)
        }
        None => list(&a, &db),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_line_has_number_kind_verdict_and_players() {
        let row = GameRow {
            id: 7,
            digest: String::new(),
            game: Some("tzq".into()),
            ruleset: None,
            players: vec!["Ann".into(), "B\u{7}o".into()],
            valid: false,
            fault_code: Some("illegal_action".into()),
            final_scores: None,
            rounds: 0,
            added_at: 0,
            excerpt: None,
        };
        let line = game_line(&row);
        assert!(line.starts_with("#7 "), "{line}");
        assert!(line.contains(" tzq ") && line.contains("INVALID illegal_action"), "{line}");
        assert!(line.ends_with("Ann, B\\u{7}o"), "{line}");
        let valid = GameRow { valid: true, fault_code: None, game: None, players: vec![], ..row };
        assert_eq!(game_line(&valid), "#7      ?       valid");
        let excerpt = GameRow { excerpt: Some("excerpt: round East 2-0 of an unknown game".into()), ..valid };
        assert_eq!(game_line(&excerpt), "#7      ?       excerpt");
    }

    #[test]
    fn incidents_are_marked_and_summed_up() {
        use paifu_core::tzq::Action;
        let rec =
            |seq: u32, seat: u8, a: &str| log::Record { seq, seat, action: a.parse::<Action>().unwrap(), claim: None };
        let records = [
            rec(0, 0, "draw"),
            rec(1, 1, "incident timeout: no answer within 5000 ms"),
            rec(2, 1, "draw"),
            rec(3, 0, "incident forfeit"),
            rec(4, 1, "incident timeout"),
        ];
        assert_eq!(record_text(&records[0].action), "draw");
        assert_eq!(record_text(&records[1].action), "! incident timeout: no answer within 5000 ms");
        let summary = incident_summary(&records);
        assert!(summary.contains("Incidents: 3 (2 timeout, 1 forfeit)"), "{summary}");
        assert!(summary.contains("  ! #3 seat 0: incident forfeit\n"), "{summary}");
        assert_eq!(incident_summary(&records[..1]), "");
    }
}
