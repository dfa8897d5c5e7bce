//! Test-only: the check every engine's seat views pass ([`crate::Game::seat_view`]), over random
//! games played by a seeded chooser over `legal_actions`.

use crate::{Game, Seat, Seed, Stream};

/// What [`check`] saw, for the engine's own assertions.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// Positions checked (each for every seat).
    pub(crate) positions: usize,
    /// Seat views checked against a position whose other seats' hidden information changed.
    pub(crate) perturbed: usize,
    /// Of those, how many times the full view changed (so the hidden change was a real one).
    pub(crate) differed: usize,
}

/// Plays `games` random games (`start` builds each from its seed; at most `steps` actions
/// each) and at every position, for every seat:
/// - `public(full, seen, seat)`: the engine asserts that the seat's view `seen` shows the
///   seat's own and the public parts as the full view does, and hides the rest;
/// - the seat view's JSON holds neither the seed's hex nor its first 8 bytes' hex;
/// - `perturb(game, seat, stream)` changes the hidden information of the other seats (`None`:
///   nothing to change here): the seat's view must stay the same.
pub(crate) fn check<G: Game>(
    start: impl Fn(&Seed) -> G,
    games: usize,
    steps: usize,
    perturb: impl Fn(&G, Seat, &mut Stream) -> Option<G>,
    public: impl Fn(&G::View, &G::View, Seat),
) -> Seen
where
    G::View: PartialEq,
{
    let mut seen = Seen::default();
    for i in 0..games {
        let seed = Seed::from_text(&format!("seat views {i}"));
        let hex = seed.to_hex();
        let mut chooser = seed.stream("test/chooser");
        let mut g = start(&seed);
        for step in 0..=steps {
            seen.positions += 1;
            let full = g.view();
            for seat in 0..g.seat_count() as Seat {
                let mine = g.seat_view(seat);
                public(&full, &mine, seat);
                let json = serde_json::to_string(&mine).unwrap();
                assert!(!json.contains(&hex) && !json.contains(&hex[..16]), "game {i} step {step}: seed in {json}");
                if let Some(other) = perturb(&g, seat, &mut chooser) {
                    seen.perturbed += 1;
                    if other.view() != full {
                        seen.differed += 1;
                    }
                    assert!(
                        other.seat_view(seat) == mine,
                        "game {i} step {step}: seat {seat}'s view changed with the other seats' hidden tiles"
                    );
                }
            }
            let to_act: Vec<Seat> = g.to_act().iter().collect();
            if to_act.is_empty() {
                break;
            }
            let seat = to_act[chooser.below(to_act.len() as u64) as usize];
            let legal = g.legal_actions(seat);
            assert!(!legal.is_empty(), "game {i} step {step}: seat {seat} owes a decision but has no legal action");
            let action = &legal[chooser.below(legal.len() as u64) as usize];
            g.play_mut(seat, action).unwrap();
        }
    }
    seen
}

/// A seat other than `seat` at a table of `seats`, chosen by `stream`.
pub(crate) fn other_seat(seat: Seat, seats: usize, stream: &mut Stream) -> Seat {
    let others: Vec<Seat> = (0..seats as Seat).filter(|&s| s != seat).collect();
    others[stream.below(others.len() as u64) as usize]
}
