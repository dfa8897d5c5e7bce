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
