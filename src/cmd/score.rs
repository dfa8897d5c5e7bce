//! `paifu score`: a referee's calculator, one JSON hand per line in, one result per line out.

use crate::error::{Error, Result, Status};
use clap::Args;
use std::io::{BufRead, Write};

#[derive(Args, Debug)]
#[command(after_help = r#"riichi: one JSON object per line (absent fields are false / none / default rules):
  id, hand (concealed tiles with the winning tile: 123m456p789s1234567z, 0m/0p/0s red fives),
  melds ["chi:345m", "pon:777z", "minkan:1111s", "ankan:9999p", "kakan:5555m"], win, tsumo,
  riichi, double_riichi, ippatsu, rinshan, chankan, haitei, houtei, tenhou, chiihou, seat_wind,
  round_wind ("E" "S" "W" "N"), dora, ura (indicator tiles), honba, riichi_sticks, rules.
  Answer: {"id", "ok": true, "han", "fu", "yaku": [{"name", "han"}], "yakuman", "limit",
  "payment", "total"}.

hungarian (1925): every player's hand of one finished hand, and the settlement:
  id, winner ("E" "S" "W" "N" or null for a void hand), win (the winning tile), self_drawn,
  heavenly, players {"E": {"hand", "melds", "flowers": ["1f", "6f"]}, "S": ..., "W": ..., "N": ...},
  rules (options of docs/rules/hungarian.md, e.g. {"losers_settle": false}).
  Answer: {"id", "ok": true, "players": {"E": {"points", "doublings", "score", "lines":
  [{"name", "points"}], "limit": null or {"name", "bonus"}}, ...}, "payments": {"E": net, ...}}.

Either game answers {"id", "ok": false, "error", "message"} for a hand it cannot score.
Exit status: 0 every hand scored, 1 some hand could not be, 2 usage or I/O error.

Examples:
  echo '{"id":1,"hand":"123m456p789s11z22z2z","win":"2z","tsumo":true}' | paifu score riichi
  echo '{"id":2,"winner":"E","win":"1s","players":{"E":{"hand":"234m567m345p678s11s"},"S":{"hand":"147m258p369s1234z"},"W":{"hand":"258m369p147s1234z"},"N":{"hand":"369m147p258s1234z"}}}' | paifu score hungarian"#)]
pub struct ScoreArgs {
    /// The game whose hands to score: riichi or hungarian.
    pub game: String,
}

/// `paifu score`: 0 every hand scored, 1 some hand could not be.
pub fn run(a: ScoreArgs) -> Result {
    let score_line: fn(&str) -> String = match a.game.as_str() {
        "riichi" => paifu_core::riichi::score_line,
        "hungarian" => paifu_core::hungarian::score_line,
        other => return Err(Error::Usage(format!("paifu score knows riichi and hungarian hands, not {other:?}"))),
    };
    let input = |source| Error::Stdio { stream: "standard input", source };
    let output = |source| Error::Stdio { stream: "standard output", source };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = false;
    for line in stdin.lock().lines() {
        let line = line.map_err(input)?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = score_line(&line);
        failed |= answer.contains("\"ok\":false");
        writeln!(out, "{answer}").map_err(output)?;
    }
    out.flush().map_err(output)?;
    Ok(Status::faulty_if(failed))
}
