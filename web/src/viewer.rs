//! Replaying a stored log step by step for the move-by-move viewer.
//!
//! Step 0 is the position before the first record; step N the position after N records. Each
//! step's position is the game's typed view ([`View`]), its seats named after the header; the
//! page draws it with [`crate::view`], and the API gives its JSON form (docs/web.md).

use paifu_core::games::{self, Registered, View, Visitor};
use paifu_core::log;
use paifu_core::replay;
use paifu_core::Fault;
use serde::Serialize;

/// One step of a game, as the viewer shows it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Step {
    /// The step shown (0..=steps).
    pub step: usize,
    /// Number of records: the last step.
    pub steps: usize,
    /// The record that led here (`None` at step 0): its seat and action.
    pub last: Option<LastAction>,
    /// The round the position is in.
    pub round: u32,
    /// For each round, the first step in it.
    pub round_starts: Vec<(u32, usize)>,
    /// Round results that ended with the record that led here.
    pub ended: Vec<String>,
    /// The position.
    pub view: View,
    /// Set when the log is invalid: the replay stopped at the record with this fault, so steps
    /// after it cannot be shown.
    pub fault: Option<Fault>,
    /// For an excerpt of an unknown game: `excerpt: rounds ... of an unknown game`.
    pub excerpt: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct LastAction {
    pub seat: u8,
    pub player: String,
    pub action: String,
}

/// The position `state` is in, its seats named.
fn view_with<G: Registered>(state: &G, names: &[String]) -> View {
    let mut v = View::of(state);
    v.name_seats(names);
    v
}

fn replay_to<G: Registered>(bytes: &[u8], step: usize) -> Result<Step, Fault> {
    let (log, _) = log::decode::<G::Action>(bytes)?;
    let names = log.header.seats.clone();
    let mut state: G = replay::setup::<G>(&log.header)?;
    let steps = log.records.len();
    let step = step.min(steps);
    let mut round_starts = vec![(state.round(), 0usize)];
    let mut shown: Option<(View, u32, Vec<String>)> =
        (step == 0).then(|| (view_with(&state, &names), state.round(), vec![]));
    let mut fault = None;
    for (i, rec) in log.records.iter().enumerate() {
        let before = state.results().len();
        if let Err(v) = state.play_mut(rec.seat, &rec.action) {
            let mut f = Fault::new(v.code, v.message).at_index(i);
            f.round = Some(state.round());
            f.seat = Some(rec.seat);
            f.action = Some(rec.action.to_string());
            fault = Some(f);
            break;
        }
        let ended: Vec<String> = state.results()[before..].iter().map(|r| r.summary.clone()).collect();
        if round_starts.last().is_some_and(|r| r.0 != state.round()) && !state.is_over() {
            round_starts.push((state.round(), i + 1));
        }
        if i + 1 == step {
            shown = Some((view_with(&state, &names), state.round(), ended));
        }
    }
    // An invalid log stops early: show the last position reached.
    let reached = fault.as_ref().and_then(|f| f.index).unwrap_or(steps);
    let (view, round, ended) = match shown {
        Some(s) => s,
        None => (view_with(&state, &names), state.round(), vec![]),
    };
    let step = step.min(reached);
    let last = step.checked_sub(1).and_then(|i| log.records.get(i)).map(|r| LastAction {
        seat: r.seat,
        player: names.get(usize::from(r.seat)).cloned().unwrap_or_default(),
        action: r.action.to_string(),
    });
    let excerpt = state.excerpt().filter(|_| fault.is_none()).map(|e| e.to_string());
    Ok(Step { step, steps, last, round, round_starts, ended, view, fault, excerpt })
}

/// The position after `step` records of a stored log (any game with an engine).
pub(crate) fn step(bytes: &[u8], step: usize) -> Result<Step, Fault> {
    struct Replay<'a>(&'a [u8], usize);
    impl Visitor for Replay<'_> {
        type Output = Result<Step, Fault>;
        fn visit<G: Registered>(self) -> Self::Output {
            replay_to::<G>(self.0, self.1)
        }
    }
    let header = log::read_header(bytes)?;
    games::by_name(&header.game, Replay(bytes, step))?
}

#[cfg(test)]
mod tests {
    use super::*;
    use paifu_core::log::Encoding;

    #[test]
    fn steps_through_a_tzq_game() {
        let bytes = paifu_recorder::samples::tzq_bytes("viewer/1", ["Ann", "Bo"], Encoding::Binary);
        let s0 = step(&bytes, 0).unwrap();
        assert_eq!(s0.step, 0);
        assert!(s0.last.is_none());
        let json = serde_json::to_value(&s0.view).unwrap();
        assert_eq!(json["game"], "tzq");
        assert_eq!(json["seats"][0]["name"], "Ann");
        assert_eq!(json["seats"][0]["hand"].as_array().unwrap().len(), 5);
        assert!(s0.round_starts.len() >= 2, "{:?}", s0.round_starts);
        let s1 = step(&bytes, 1).unwrap();
        assert_eq!(s1.last.as_ref().unwrap().action, "draw");
        let end = step(&bytes, usize::MAX).unwrap();
        assert_eq!(end.step, end.steps);
        assert!(!end.ended.is_empty());
        assert!(serde_json::to_value(&end.view).unwrap()["to_act"].as_array().unwrap().is_empty());
        assert!(step(b"junk", 0).is_err());
    }
}
