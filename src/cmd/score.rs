//! `paifu score`: a referee's calculator, one JSON hand per line in, one result per line out.

use crate::error::{Error, Result, Status};
use clap::Args;
use std::io::{BufRead, Write};

#[derive(Args, Debug)]
#[command(after_help = r#"Input, one JSON object per line (absent fields are false / none / default rules):
  id, hand (concealed tiles with the winning tile: 123m456p789s1234567z, 0m/0p/0s red fives),
  melds ["chi:345m", "pon:777z", "minkan:1111s", "ankan:9999p", "kakan:5555m"], win, tsumo,
  riichi, double_riichi, ippatsu, rinshan, chankan, haitei, houtei, tenhou, chiihou, seat_wind,
  round_wind ("E" "S" "W" "N"), dora, ura (indicator tiles), honba, riichi_sticks, rules.
Output, one JSON object per line: {"id", "ok": true, "han", "fu", "yaku": [{"name", "han"}],
  "yakuman", "limit", "payment", "total"} or {"id", "ok": false, "error", "message"}.

Exit status: 0 every hand scored, 1 some hand could not be, 2 usage or I/O error.

Example:
  echo '{"id":1,"hand":"123m456p789s11z22z2z","win":"2z","tsumo":true}' | paifu score riichi"#)]
pub struct ScoreArgs {
    /// The game whose hands to score: riichi.
    pub game: String,
}

/// `paifu score`: 0 every hand scored, 1 some hand could not be.
pub fn run(a: ScoreArgs) -> Result {
    if a.game != "riichi" {
        return Err(Error::Usage(format!("paifu score knows riichi hands only, not {:?}", a.game)));
    }
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
        let answer = paifu_core::riichi::score_line(&line);
        failed |= answer.contains("\"ok\":false");
        writeln!(out, "{answer}").map_err(output)?;
    }
    out.flush().map_err(output)?;
    Ok(Status::faulty_if(failed))
}
