//! Replaying a stored log step by step for the move-by-move viewer.
//!
//! Step 0 is the position before the first record; step N the position after N records. Each
//! step's position is a JSON view: the engine's `Game::view()`, except for games whose engine
//! still only gives the text render and whose public accessors let us say more (TZQ), where a
//! structured view is built here. The view convention the pages draw is documented in
//! docs/web.md: `seats` (each with `name`, `score`, `hand`, `melds`, `kept`, `discards`),
//! `discards`, `indicators`, `board`, `text`, and anything else is shown as data.

use paifu_core::log;
use paifu_core::replay;
use paifu_core::tzq::Tzq;
use paifu_core::{Fault, Game};
use serde::Serialize;
use serde_json::{json, Value};

/// One step of a game, as the viewer shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
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
    pub view: Value,
    /// Set when the log is invalid: the replay stopped at the record with this fault, so steps
    /// after it cannot be shown.
    pub fault: Option<Fault>,
}

#[derive(Clone, Debug, Serialize)]
pub struct LastAction {
    pub seat: u8,
    pub player: String,
    pub action: String,
}

/// A structured TZQ view built from the engine's public accessors.
fn tzq_view(g: &Tzq, names: &[String]) -> Value {
    let cards = |c: &[paifu_core::tzq::Card]| c.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let scores = g.scores();
    let seats: Vec<Value> = (0..2u8)
        .map(|s| {
            json!({
                "name": names.get(usize::from(s)).cloned().unwrap_or_else(|| format!("seat {s}")),
                "score": scores.get(usize::from(s)).copied().unwrap_or(0),
                "hand": cards(g.hand(s)),
                "kept": cards(g.kept(s)),
                "to_act": g.to_act().contains(s),
            })
        })
        .collect();
    json!({
        "round": g.round(),
        "scores": scores,
        "to_act": g.to_act().iter().collect::<Vec<_>>(),
        "seats": seats,
        "discards": cards(g.discard_pile()),
        "chowable": cards(g.chowable()),
        "drawn": g.drawn().map(|c| c.to_string()),
        "pile": g.pile_len(),
        "text": g.render(),
    })
}

trait Viewable: Game {
    fn view_with(&self, names: &[String]) -> Value;
}

impl<G: Game + 'static> Viewable for G {
    fn view_with(&self, names: &[String]) -> Value {
        if let Some(t) = (self as &dyn std::any::Any).downcast_ref::<Tzq>() {
            return tzq_view(t, names);
        }
        let mut v = self.view();
        // Give seats their names when the engine lists seats.
        let key = if v.get("seats").is_some() { "seats" } else { "players" };
        if let Some(seats) = v.get_mut(key).and_then(Value::as_array_mut) {
            for (i, s) in seats.iter_mut().enumerate() {
                if let (Some(obj), Some(n)) = (s.as_object_mut(), names.get(i)) {
                    obj.entry("name").or_insert_with(|| json!(n));
                }
            }
        }
        v
    }
}

fn replay_to<G: Game + 'static>(bytes: &[u8], step: usize) -> Result<Step, Fault> {
    let (log, _) = log::decode::<G::Action>(bytes)?;
    let names = log.header.seats.clone();
    let mut state: G = replay::setup::<G>(&log.header)?;
    let steps = log.records.len();
    let step = step.min(steps);
    let mut round_starts = vec![(state.round(), 0usize)];
    let mut shown: Option<(Value, u32, Vec<String>)> =
        (step == 0).then(|| (state.view_with(&names), state.round(), vec![]));
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
            shown = Some((state.view_with(&names), state.round(), ended));
        }
    }
    // An invalid log stops early: show the last position reached.
    let reached = fault.as_ref().and_then(|f| f.index).unwrap_or(steps);
    let (view, round, ended) = match shown {
        Some(s) => s,
        None => (state.view_with(&names), state.round(), vec![]),
    };
    let step = step.min(reached);
    let last = step.checked_sub(1).and_then(|i| log.records.get(i)).map(|r| LastAction {
        seat: r.seat,
        player: names.get(usize::from(r.seat)).cloned().unwrap_or_default(),
        action: r.action.to_string(),
    });
    Ok(Step { step, steps, last, round, round_starts, ended, view, fault })
}

/// The position after `step` records of a stored log (any game with an engine).
pub fn step(bytes: &[u8], step: usize) -> Result<Step, Fault> {
    let header = log::read_header(bytes)?;
    paifu_core::for_game!(header.game.as_str(), G => replay_to::<G>(bytes, step))?
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
        assert_eq!(s0.view["seats"][0]["name"], "Ann");
        assert_eq!(s0.view["seats"][0]["hand"].as_array().unwrap().len(), 5);
        assert!(s0.round_starts.len() >= 2, "{:?}", s0.round_starts);
        let s1 = step(&bytes, 1).unwrap();
        assert_eq!(s1.last.as_ref().unwrap().action, "draw");
        let end = step(&bytes, usize::MAX).unwrap();
        assert_eq!(end.step, end.steps);
        assert!(!end.ended.is_empty());
        assert!(end.view["to_act"].as_array().unwrap().is_empty());
        assert!(step(b"junk", 0).is_err());
    }
}
