//! Each game's bots, and choosing a bot by name.

pub mod riichi;
pub mod tayu;
pub mod tzq;

use crate::bot::{Bot, RandomBot};
use paifu_core::{Game, Seed};

/// A game's bots by name: every game has `random`; games add their own.
pub trait Bots: Game {
    /// Names of the bots this game has, the first being the default for simulation.
    const BOTS: &'static [&'static str];
    /// A bot by name, seeded.
    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Self>>>;
}

pub(crate) fn random<G: Game>(seed: &Seed) -> Box<dyn Bot<G>> {
    Box::new(RandomBot::new(seed))
}
