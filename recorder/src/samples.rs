//! Sample logs made by bots, for tests, benchmarks and demonstrations.

use crate::bots::Bots;
use crate::simulate::play_game;
use paifu_core::log::{self, Encoding};
use paifu_core::tzq::{Rules, Tzq};
use paifu_core::{log::Log, Game, Seed};
use std::collections::BTreeMap;

/// One simulated Tien Zi Que game between greedy bots, seeded by `seed_text`, with the seats
/// renamed to `players` (two names).
pub fn tzq_log(seed_text: &str, players: [&str; 2]) -> Log<<Tzq as Game>::Action> {
    let seed = Seed::from_text(seed_text);
    let mut bots: Vec<_> = (0..2)
        .map(|i| Tzq::bot(Tzq::BOTS[0], &seed.child(&format!("bot/{i}"))).expect("the default TZQ bot exists"))
        .collect();
    let mut log = play_game::<Tzq>("standard", Rules::default(), seed, &mut bots, BTreeMap::new())
        .expect("greedy bots finish a standard TZQ game");
    log.header.seats = players.iter().map(|p| p.to_string()).collect();
    log
}

/// The same, encoded.
pub fn tzq_bytes(seed_text: &str, players: [&str; 2], encoding: Encoding) -> Vec<u8> {
    log::encode(&tzq_log(seed_text, players), encoding)
}

/// Why a sample game could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    #[error("{0}")]
    Rules(#[from] paifu_core::SetupError),
    #[error("the game has no default bot")]
    NoBot,
    #[error(transparent)]
    Play(#[from] crate::simulate::SimError),
    #[error("the incident could not be entered: {0}")]
    Incident(String),
}

/// One simulated game of any game with bots (its default bot at every seat), seeded by
/// `seed_text`, with the seats named `players` (as many seats as names).
pub fn game_log<G: Bots>(ruleset: &str, seed_text: &str, players: &[&str]) -> Result<Log<G::Action>, SampleError> {
    let seed = Seed::from_text(seed_text);
    let rules = G::rules(ruleset, &Default::default())?;
    let mut bots: Vec<_> = (0..players.len())
        .map(|i| G::bot(G::BOTS[0], &seed.child(&format!("bot/{i}"))).ok_or(SampleError::NoBot))
        .collect::<Result<_, _>>()?;
    let mut log = play_game::<G>(ruleset, rules, seed, &mut bots, BTreeMap::new())?;
    log.header.seats = players.iter().map(|p| p.to_string()).collect();
    Ok(log)
}

/// The same, encoded.
pub fn game_bytes<G: Bots>(
    ruleset: &str,
    seed_text: &str,
    players: &[&str],
    encoding: Encoding,
) -> Result<Vec<u8>, SampleError> {
    game_log::<G>(ruleset, seed_text, players).map(|l| log::encode(&l, encoding))
}

/// One simulated game as [`game_log`] plays it, with a rule incident of `kind` (`chombo`,
/// `false_win`, `talk`) entered by a referee at seat `seat`'s `at`-th decision (counted from 1;
/// its detail `detail`), as `incident KIND: DETAIL` before that decision; the bots play on.
/// Every record that ends a round claims its score changes, the last the final scores.
pub fn game_log_with_incident<G: Bots>(
    ruleset: &str,
    seed_text: &str,
    players: &[&str],
    (seat, at): (u8, usize),
    kind: paifu_core::IncidentKind,
    detail: &str,
) -> Result<Log<G::Action>, SampleError> {
    use paifu_core::log::{Action as _, Record};
    let played = game_log::<G>(ruleset, seed_text, players)?;
    let seed = Seed::from_text(seed_text);
    let mut bots: Vec<_> = (0..players.len())
        .map(|i| G::bot(G::BOTS[0], &seed.child(&format!("bot/{i}"))).ok_or(SampleError::NoBot))
        .collect::<Result<_, _>>()?;
    let mut game: G = paifu_core::replay::setup(&played.header).map_err(|e| SampleError::Incident(e.to_string()))?;
    let incident = paifu_core::Incident::new(kind, detail).map_err(|e| SampleError::Incident(e.to_string()))?;
    let mut records: Vec<Record<G::Action>> = Vec::new();
    let mut decisions = 0;
    while !game.is_over() {
        if records.len() >= crate::simulate::MAX_ACTIONS {
            return Err(crate::simulate::SimError::TooLong(crate::simulate::MAX_ACTIONS).into());
        }
        let Some(act) = game.to_act().iter().next() else { break };
        let entered = records.iter().any(|r| r.action.incident().is_some());
        let action = if act == seat && decisions + 1 == at && !entered {
            G::Action::from_incident(incident)
        } else {
            decisions += usize::from(act == seat);
            bots[usize::from(act)].act(&game, act)
        };
        let before = game.results().len();
        game.play_mut(act, &action).map_err(|v| SampleError::Incident(format!("{action}: {}", v.message)))?;
        let claim = crate::simulate::claim_after(&game, before);
        records.push(Record { seq: records.len() as u32, seat: act, action, claim });
    }
    if !records.iter().any(|r| r.action.incident().is_some()) {
        return Err(SampleError::Incident(format!("seat {seat} had no decision {at}")));
    }
    Ok(Log { header: played.header, records })
}
