//! Each game's bots, and choosing a bot by name.

pub mod hungarian;
pub mod mcr;
pub mod riichi;
pub mod tayu;
pub mod tzq;

use crate::arena::paifu_line::PaifuLine;
use crate::arena::protocol::{Protocol, ProtocolKind};
use crate::bot::{Bot, RandomBot};
use paifu_core::games::Registered;
use paifu_core::{Game, GameKind, Seat, Seed};

/// A game's bots by name: every game has `random`; games add their own.
pub trait Bots: Registered {
    /// Names of the bots this game has, the first being the default for simulation.
    const BOTS: &'static [&'static str];
    /// A bot by name, seeded.
    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Self>>>;
    /// The protocol `kind` for this game's bot programs (docs/protocol.md); `None` where the
    /// game cannot be played in it. Every game speaks Paifu's own line protocol.
    fn protocol(kind: ProtocolKind, _seat: Seat) -> Option<Box<dyn Protocol<Self>>> {
        match kind {
            ProtocolKind::Paifu => Some(Box::new(PaifuLine::new())),
            ProtocolKind::Mjai => None,
        }
    }
}

pub(crate) fn random<G: Game>(seed: &Seed) -> Box<dyn Bot<G>> {
    Box::new(RandomBot::new(seed))
}

/// Code written once for every game that has bots: [`visit`] runs `visit::<G>` for the engine
/// of a game.
pub trait Visitor {
    type Output;
    fn visit<G: Bots>(self) -> Self::Output;
}

/// The recorder's registry: runs `v` with the engine of `kind` and its bots; `None` for a game
/// without an engine (and so without bots) in this build. Every engine of
/// [`paifu_core::games::ENGINES`] has an arm here.
pub fn visit<V: Visitor>(kind: GameKind, v: V) -> Option<V::Output> {
    match kind {
        GameKind::Tzq => Some(v.visit::<paifu_core::tzq::Tzq>()),
        GameKind::Riichi => Some(v.visit::<paifu_core::riichi::Riichi>()),
        GameKind::Hungarian => Some(v.visit::<paifu_core::hungarian::Hungarian>()),
        GameKind::Tayu => Some(v.visit::<paifu_core::tayu::Tayu>()),
        GameKind::Mcr => Some(v.visit::<paifu_core::mcr::Mcr>()),
    }
}

/// [`visit`] by the game's name, or core's `unknown_game` fault.
pub fn by_name<V: Visitor>(name: &str, v: V) -> Result<V::Output, paifu_core::Fault> {
    let kind = paifu_core::games::engine_kind(name)?;
    visit(kind, v).ok_or_else(|| paifu_core::games::unknown_game(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Names;
    impl Visitor for Names {
        type Output = (GameKind, &'static [&'static str]);
        fn visit<G: Bots>(self) -> Self::Output {
            (G::KIND, G::BOTS)
        }
    }

    #[test]
    fn every_engine_has_bots_and_random_among_them() {
        for k in paifu_core::games::ENGINES {
            let (kind, bots) = visit(k, Names).unwrap_or_else(|| panic!("{k} has no bots"));
            assert_eq!(kind, k);
            assert!(bots.contains(&"random"), "{k}: {bots:?}");
        }
    }
}
