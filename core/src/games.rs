//! The registry of games: which engine replays a game named in a log header, and the one place
//! code that works for any game turns a name into an engine type.
//!
//! Code generic over [`Game`] is written once as a [`Visitor`] and run for the engine a name or
//! a [`GameKind`] stands for. The other crates keep their per-game parts (bots, importers,
//! statistics, the dashboard's drawings) in their own registries keyed by [`GameKind`], each an
//! exhaustive `match`, so that adding a game here makes the compiler point at every place that
//! still lacks it. ARCHITECTURE.md, "Adding a game", lists them.

use crate::error::{ErrorCode, Fault};
use crate::{hungarian, mcr, riichi, tayu, tzq};
use crate::{Game, GameKind};
use serde::Serialize;

/// An engine in the registry: a [`Game`] whose views this registry can carry.
pub trait Registered: Game + 'static {
    /// The game's view as the view of any game.
    fn any_view(view: Self::View) -> View;
}

/// Code written once for every engine: [`by_name`] or [`visit`] runs `visit::<G>` for the
/// engine `G` of a game.
pub trait Visitor {
    type Output;
    fn visit<G: Registered>(self) -> Self::Output;
}

/// The games this build replays, in the order lists show them.
pub const ENGINES: [GameKind; 5] =
    [GameKind::Tzq, GameKind::Riichi, GameKind::Mcr, GameKind::Hungarian, GameKind::Tayu];

/// Runs `v` with the engine of `kind`; `None` for a game without an engine in this build.
pub fn visit<V: Visitor>(kind: GameKind, v: V) -> Option<V::Output> {
    match kind {
        GameKind::Tzq => Some(v.visit::<tzq::Tzq>()),
        GameKind::Riichi => Some(v.visit::<riichi::Riichi>()),
        GameKind::Hungarian => Some(v.visit::<hungarian::Hungarian>()),
        GameKind::Tayu => Some(v.visit::<tayu::Tayu>()),
        GameKind::Mcr => Some(v.visit::<mcr::Mcr>()),
    }
}

/// The game a header or a command line names, if this build has its engine; otherwise the
/// `unknown_game` fault that says which games it has.
pub fn engine_kind(name: &str) -> Result<GameKind, Fault> {
    match GameKind::from_name(name) {
        Some(k) if ENGINES.contains(&k) => Ok(k),
        _ => Err(unknown_game(name)),
    }
}

/// Runs `v` with the engine of the game called `name` (as in a log header), or answers the
/// `unknown_game` fault.
pub fn by_name<V: Visitor>(name: &str, v: V) -> Result<V::Output, Fault> {
    let kind = engine_kind(name)?;
    visit(kind, v).ok_or_else(|| unknown_game(name))
}

/// The names of the games this build replays, for messages: `tzq, riichi, hungarian, tayu`.
pub(crate) fn engine_names() -> String {
    ENGINES.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
}

/// The fault for a header naming a game this Paifu cannot replay.
pub fn unknown_game(name: &str) -> Fault {
    let known = engine_names();
    match GameKind::from_name(name) {
        Some(k) => Fault::new(
            ErrorCode::UnknownGame,
            format!("{} ({name}) has no rules engine in this Paifu yet; it replays: {known}", k.title()),
        ),
        None => Fault::new(ErrorCode::UnknownGame, format!("unknown game {name:?}; Paifu replays: {known}")),
    }
}

/// A position of any game, as a viewer is shown it. In JSON, the game's own view with its name
/// under `game`.
///
/// One view is made per position shown, so the variants' sizes are left unequal.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "game", rename_all = "lowercase")]
#[allow(clippy::large_enum_variant)]
pub enum View {
    Tzq(tzq::View),
    Riichi(riichi::View),
    Mcr(mcr::View),
    Hungarian(hungarian::View),
    Tayu(tayu::View),
}

impl View {
    /// The position `state` is in.
    pub fn of<G: Registered>(state: &G) -> View {
        G::any_view(state.view())
    }

    /// Gives the seats their names (in seat order) where the view lists seats.
    pub fn name_seats(&mut self, names: &[String]) {
        match self {
            View::Tzq(v) => v.name_seats(names),
            View::Riichi(v) => v.name_seats(names),
            View::Mcr(v) => v.name_seats(names),
            View::Hungarian(v) => v.name_seats(names),
            View::Tayu(v) => v.name_seats(names),
        }
    }

    /// The round the position is in (1-based).
    pub fn round(&self) -> u32 {
        match self {
            View::Tzq(v) => v.round,
            View::Riichi(v) => v.round,
            View::Mcr(v) => v.round,
            View::Hungarian(v) => v.round,
            View::Tayu(v) => v.round,
        }
    }
}

impl Registered for tzq::Tzq {
    fn any_view(view: tzq::View) -> View {
        View::Tzq(view)
    }
}

impl Registered for riichi::Riichi {
    fn any_view(view: riichi::View) -> View {
        View::Riichi(view)
    }
}

impl Registered for mcr::Mcr {
    fn any_view(view: mcr::View) -> View {
        View::Mcr(view)
    }
}

impl Registered for hungarian::Hungarian {
    fn any_view(view: hungarian::View) -> View {
        View::Hungarian(view)
    }
}

impl Registered for tayu::Tayu {
    fn any_view(view: tayu::View) -> View {
        View::Tayu(view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Name;
    impl Visitor for Name {
        type Output = GameKind;
        fn visit<G: Registered>(self) -> GameKind {
            G::KIND
        }
    }

    #[test]
    fn every_engine_is_reached_by_its_own_name() {
        for k in ENGINES {
            assert_eq!(by_name(k.name(), Name).unwrap(), k);
            assert_eq!(engine_kind(k.name()).unwrap(), k);
        }
        for k in GameKind::ALL {
            assert_eq!(visit(k, Name).is_some(), ENGINES.contains(&k), "{k}");
        }
    }

    #[test]
    fn every_game_has_an_engine_and_an_unknown_one_is_named_in_the_fault() {
        assert_eq!(ENGINES.len(), GameKind::ALL.len());
        assert!(GameKind::ALL.iter().all(|k| ENGINES.contains(k)));
        let f = by_name("chess", Name).unwrap_err();
        assert!(f.message.contains("unknown game \"chess\""), "{}", f.message);
        assert!(f.message.contains("tzq, riichi, mcr, hungarian, tayu"), "{}", f.message);
    }
}
