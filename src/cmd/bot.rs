//! `paifu bot`: a bot program speaking Paifu's line protocol, for `paifu arena`.

use crate::error::{Error, Result, Status};
use clap::{Args, ValueEnum};
use paifu_core::{Seed, Stream};
use std::io::{BufRead, Write};

const AFTER_HELP: &str = "\
Reads the host's messages on standard input, one JSON object per line, and answers each with one
line (docs/protocol.md, \"The Paifu line protocol\"): an action for an \"ask\", \"ok\" for anything
else. It looks only at the message's legal actions (and, for greedy riichi, the seat's own view).

Examples:
  paifu arena riichi --bot 'paifu bot riichi --strategy greedy' --games 4 --out match/
  paifu arena tzq --bot 'paifu bot tzq --strategy random --seed {seat}' --bot './mine' --out duel/";

/// How the bot chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Strategy {
    /// The first legal action listed.
    First,
    /// A legal action at random, from --seed.
    Random,
    /// Riichi only: Paifu's greedy bot (toward the lowest shanten), from the seat's view.
    Greedy,
}

#[derive(Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct BotArgs {
    /// The game it plays (tzq, riichi, mcr, hungarian, tayu); for messages and checks only.
    pub game: String,
    /// How it chooses.
    #[arg(long, value_enum, default_value = "first")]
    pub strategy: Strategy,
    /// The random strategy's seed (any text).
    #[arg(long, default_value = "paifu bot")]
    pub seed: String,
}

/// The answer to one message, or why the message cannot be answered.
pub(crate) fn answer(line: &str, strategy: Strategy, stream: &mut Stream) -> std::result::Result<String, String> {
    let message: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("the host sent a line that is not JSON: {e}"))?;
    if message.get("type").and_then(|t| t.as_str()) != Some("ask") {
        return Ok("ok".into());
    }
    let legal: Vec<&str> = message
        .get("legal")
        .and_then(|l| l.as_array())
        .map(|l| l.iter().filter_map(|a| a.as_str()).collect())
        .unwrap_or_default();
    if legal.is_empty() {
        return Err("the host asked for a decision with no legal action".into());
    }
    let i = match strategy {
        Strategy::First => 0,
        Strategy::Random => stream.below(legal.len() as u64) as usize,
        Strategy::Greedy => return riichi_greedy(&message, &legal),
    };
    Ok(legal[i].to_owned())
}

/// The greedy riichi bot's choice from an ask message: the seat's own concealed tiles, melds
/// and wind, and the round wind, read from its view.
fn riichi_greedy(message: &serde_json::Value, legal: &[&str]) -> std::result::Result<String, String> {
    use paifu_core::mahjong::Tile;
    use paifu_core::riichi::Action;
    use paifu_recorder::bots::riichi::{greedy_choice, Seen};
    let seat = message.get("seat").and_then(|s| s.as_u64()).ok_or("the ask names no seat")?;
    let view = message.get("view").ok_or("the ask carries no view")?;
    let me = view
        .get("players")
        .and_then(|p| p.as_array())
        .and_then(|p| p.iter().find(|p| p.get("seat").and_then(|s| s.as_u64()) == Some(seat)))
        .ok_or("the view has no player at the seat asked")?;
    let hand: Vec<Tile> = me
        .get("hand")
        .and_then(|h| h.as_array())
        .ok_or("the view shows no hand")?
        .iter()
        .map(|t| t.as_str().and_then(|t| t.parse().ok()).ok_or(format!("not a tile in the hand: {t}")))
        .collect::<std::result::Result<_, _>>()?;
    let melds = me.get("melds").and_then(|m| m.as_array()).map_or(&[][..], Vec::as_slice);
    let open = melds.iter().any(|m| m.get("called").is_some_and(|c| !c.is_null()));
    let wind = |v: Option<&serde_json::Value>| {
        v.and_then(|w| w.as_str()).and_then(|w| "ESWN".find(w)).ok_or("the view names no wind")
    };
    let (own, round) = (wind(me.get("wind"))?, wind(view.get("round_wind"))?);
    let value = |t: Tile| t.kind() >= 31 || t.kind() == 27 + own || t.kind() == 27 + round;
    let actions: Vec<Action> =
        legal.iter().map(|a| a.parse().map_err(|e| format!("{a:?}: {e}"))).collect::<std::result::Result<_, _>>()?;
    let seen = Seen { hand: &hand, melds: melds.len(), open, value: &value };
    Ok(greedy_choice(&actions, &seen).to_string())
}

/// `paifu bot`: answers until its input ends; 2 when a message cannot be answered.
pub fn run(a: BotArgs) -> Result {
    let kind = paifu_core::games::engine_kind(&a.game).map_err(|f| Error::Usage(f.message))?;
    if a.strategy == Strategy::Greedy && kind != paifu_core::GameKind::Riichi {
        return Err(Error::Usage(format!("--strategy greedy plays riichi only, not {kind}: use first or random")));
    }
    let mut stream = Seed::from_text(&a.seed).stream("paifu bot");
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let stdout = |e| Error::Stdio { stream: "standard output", source: e };
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| Error::Stdio { stream: "standard input", source: e })?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = answer(&line, a.strategy, &mut stream).map_err(Error::Usage)?;
        writeln!(out, "{reply}").and_then(|()| out.flush()).map_err(stdout)?;
    }
    Ok(Status::Fine)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asks_are_answered_with_a_legal_action_and_the_rest_with_ok() {
        let mut s = Seed::from_text("t").stream("t");
        let ask = r#"{"type":"ask","seat":1,"events":[],"view":{},"legal":["discard 1m","discard 2m","pass"]}"#;
        assert_eq!(answer(ask, Strategy::First, &mut s).unwrap(), "discard 1m");
        let picks: std::collections::BTreeSet<String> =
            (0..40).map(|_| answer(ask, Strategy::Random, &mut s).unwrap()).collect();
        assert_eq!(picks.len(), 3, "random picks every legal action sometimes: {picks:?}");
        assert_eq!(answer(r#"{"type":"start","seat":0}"#, Strategy::First, &mut s).unwrap(), "ok");
        assert!(answer("not json", Strategy::First, &mut s).unwrap_err().contains("not JSON"));
        assert!(answer(r#"{"type":"ask","legal":[]}"#, Strategy::First, &mut s).unwrap_err().contains("no legal"));
    }

    /// The greedy strategy, reading only the seat's view in the host's question, chooses what
    /// Paifu's greedy bot chooses with the whole state, at every decision of whole games.
    #[test]
    fn greedy_from_the_seat_view_plays_as_the_greedy_bot_with_the_whole_state() {
        use paifu_core::riichi::Riichi;
        use paifu_core::Game;
        use paifu_recorder::arena::paifu_line::PaifuLine;
        use paifu_recorder::arena::protocol::Protocol;
        use paifu_recorder::Bot;
        let mut s = Seed::from_text("t").stream("t");
        let mut decisions = 0;
        for i in 0..2 {
            let seed = Seed::from_text(&format!("greedy view {i}"));
            let rules = Riichi::rules("standard", &Default::default()).unwrap();
            let mut game = Riichi::new(rules, 4, Some(&seed)).unwrap();
            let mut protocol = PaifuLine::new();
            let mut bot = paifu_recorder::bots::riichi::Greedy;
            while let Some(seat) = game.to_act().iter().next() {
                let ask = Protocol::<Riichi>::ask(&mut protocol, &game, seat);
                let chosen = answer(&ask, Strategy::Greedy, &mut s).unwrap();
                let action = bot.act(&game, seat);
                assert_eq!(chosen, action.to_string(), "seat {seat}: {ask}");
                game.play_mut(seat, &action).unwrap();
                decisions += 1;
            }
        }
        assert!(decisions > 500, "{decisions} decisions compared");
    }
}
