//! The summary of a duplicate match (`paifu arena --duplicate`, docs/play.md, "Duplicate
//! tables"): each finished game of the match's folder read for its places, and summarised by
//! the analyzer's statistic (`paifu_analyzer::duplicate`: each player's mean rank points per game
//! with a 95% confidence interval over the duplicate sets), the same code the archive's standings
//! of a tournament's duplicate games use.

use super::matches::{duplicate_deal, Folder, MatchError, Plan};
use paifu_analyzer::duplicate::{summarise, DuplicateSummary, GamePlaces};

/// The summary of a duplicate match's folder: every finished game's log read and replayed for
/// its places.
pub fn of_folder(folder: &Folder, plan: &Plan) -> Result<DuplicateSummary, MatchError> {
    let seats = plan.bots.len();
    let mut games = Vec::new();
    for number in 1..=plan.games {
        let path = folder.log(number);
        if !path.exists() {
            continue;
        }
        let bytes = std::fs::read(&path).map_err(|e| MatchError::Plan(format!("{}: {e}", path.display())))?;
        let report = paifu_core::replay::validate_bytes(&bytes);
        let (Some(header), paifu_core::replay::Verdict::Valid(outcome)) = (report.header, report.verdict) else {
            return Err(MatchError::Plan(format!("{}: the finished game does not validate", path.display())));
        };
        games.push(GamePlaces { deal: duplicate_deal(number, seats), names: header.seats, places: outcome.placements });
    }
    Ok(summarise(&games, seats))
}
