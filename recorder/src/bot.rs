//! Bots: anything that chooses an action for a seat.

use paifu_core::{Game, Seat, Seed, Stream};

/// A player program. A bot is given the whole state but, by contract, looks only at what its
/// seat could see at the table (its own hand, public discards and melds, the board).
pub trait Bot<G: Game> {
    /// A short name, written as the seat name in simulated logs.
    fn name(&self) -> String;
    /// Chooses one of `game.legal_actions(seat)`; `seat` owes a decision.
    fn act(&mut self, game: &G, seat: Seat) -> G::Action;
}

/// Plays a uniformly random legal action. Works for every game.
pub struct RandomBot {
    stream: Stream,
}

impl RandomBot {
    pub fn new(seed: &Seed) -> RandomBot {
        RandomBot { stream: seed.stream("bot/random") }
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn act(&mut self, game: &G, seat: Seat) -> G::Action {
        let mut legal = game.legal_actions(seat);
        let i = self.stream.below(legal.len() as u64) as usize;
        legal.swap_remove(i)
    }
}
