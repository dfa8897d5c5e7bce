//! Replaying a stored log step by step for the move-by-move viewer.
//!
//! Step 0 is the position before the first record; step N the position after N records. Each
//! step's position is the game's typed view ([`View`]), its seats named after the header; the
//! page draws it with [`crate::view`], and the API gives its JSON form (docs/web.md).
//!
//! Step numbers are record indices, so every link stays valid; the viewer's own stepping skips
//! the steps whose record is only a pass on a claim (folded into the next step shown).

use paifu_core::games::{self, Registered, View, Visitor};
use paifu_core::log;
use paifu_core::replay;
use paifu_core::{Fault, RoundResult, Seat};
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
    /// Seats whose passes on a claim came just before `last` (their steps are folded into this).
    pub passes: Vec<Seat>,
    /// The round the position is in.
    pub round: u32,
    /// For each round, the first step in it.
    pub round_starts: Vec<(u32, usize)>,
    /// Each round's name, in the order of `round_starts` (`East 2, 1 honba`, `Round 3`).
    pub round_names: Vec<String>,
    /// Round results that ended with the record that led here: their summaries.
    pub ended: Vec<String>,
    /// The same results whole: score changes and facts (the hand-end screen).
    pub results: Vec<RoundResult>,
    /// The position.
    pub view: View,
    /// When the record that led here ended a round: the table as it stood just before, the
    /// last position of the round that ended (the hand-end screen sits over it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_table: Option<View>,
    /// At the end of a riichi game: how its final points are counted (`start 25000, return
    /// 30000, oka +20 to the first, uma +20/+10/-10/-20`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_terms: Option<String>,
    /// The position as the chosen seat saw it (`hide`): the other seats' concealed tiles left
    /// out.
    pub hidden: bool,
    /// Where the viewer's keys and buttons lead from here.
    pub nav: Nav,
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

/// The steps the viewer's stepping leads to from the step shown (`None`: nowhere).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Nav {
    /// The previous and next steps that are not only a pass.
    pub prev: Option<usize>,
    pub next: Option<usize>,
    /// The start of this hand (or of the previous one, at a start) and the end of this one.
    pub prev_hand: Option<usize>,
    pub next_hand: Option<usize>,
    /// The chosen seat's previous and next decisions: the positions where it acts next.
    pub prev_own: Option<usize>,
    pub next_own: Option<usize>,
    /// The last step that can be shown (the faulty record's for an invalid log).
    pub last: usize,
}

/// What a record was, for stepping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A pass on a claim: not a step of its own.
    Pass,
    /// A seat's choice.
    Decision,
    /// A record of what chance gave (an imported game's deal, draw or indicator).
    Chance,
}

fn kind_of(action: &str) -> Kind {
    match action.split(' ').next().unwrap_or("") {
        "pass" => Kind::Pass,
        "deal" | "draw" | "dora" | "ura" => Kind::Chance,
        _ => Kind::Decision,
    }
}

impl Nav {
    /// Stepping from `at` over records of these `kinds` by these `seats` (`reached` of them
    /// replayed), with the hands starting at `starts`; `own` the chosen seat.
    fn new(at: usize, kinds: &[(Seat, Kind)], reached: usize, starts: &[usize], own: Option<Seat>) -> Nav {
        // Step k shows the record k-1: a pass there is folded into the next step.
        let shown = |k: usize| k == 0 || k == reached || kinds.get(k - 1).is_some_and(|r| r.1 != Kind::Pass);
        let mine = |k: &usize| own.is_some_and(|s| kinds.get(*k).is_some_and(|r| r.0 == s && r.1 != Kind::Chance));
        Nav {
            prev: (0..at).rev().find(|&k| shown(k)),
            next: (at + 1..=reached).find(|&k| shown(k)),
            prev_hand: starts.iter().rev().copied().find(|&k| k < at),
            next_hand: starts.iter().copied().chain([reached]).find(|&k| k > at && k <= reached),
            prev_own: (0..at).rev().find(mine),
            next_own: (at + 1..reached).find(mine),
            last: reached,
        }
    }
}

/// What to show: the step asked for, the seat followed, and whether to show only what that
/// seat saw.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Want {
    pub step: Option<usize>,
    pub own: Option<Seat>,
    /// Show the position as `own` saw it at the table (the other hands hidden).
    pub hide: bool,
}

/// The position `state` is in, its seats named; as `seen_by` saw it when given.
fn view_with<G: Registered>(state: &G, names: &[String], seen_by: Option<Seat>) -> View {
    let mut v = match seen_by {
        Some(s) => G::any_view(state.seat_view(s)),
        None => View::of(state),
    };
    v.name_seats(names);
    v
}

/// A riichi hand's dora indicators as the table shows them from the hand's first step: an
/// imported hand's indicator is a record after the deal, so until it comes the view holds the
/// last hand's. `at` is the hand's first indicator record's step, `shown` the indicators then.
fn patch_dora(view: &mut View, at: usize, shown: &[paifu_core::mahjong::Tile], step: usize) {
    if let View::Riichi(v) = view {
        if step < at {
            v.dora_indicators = shown.to_vec();
        }
    }
}

/// A riichi game's final points terms, from its header's ruleset and options.
fn final_terms(header: &log::Header) -> Option<String> {
    use paifu_core::Game as _;
    (header.game == "riichi")
        .then(|| paifu_core::riichi::Riichi::rules(&header.ruleset, &header.options).ok())
        .flatten()
        .map(|r| r.final_points_terms())
}

/// The name of the round `state` is starting: the hand and honba for riichi.
fn round_name(view: &View, round: u32) -> String {
    match view {
        View::Riichi(v) => crate::table::hand_title(&v.hand, v.honba),
        View::Mcr(v) => format!("{} wind, hand {}", crate::table::wind_name(v.round_wind), v.hand),
        View::Hungarian(v) => format!("{} wind, hand {}", crate::table::wind_name(v.prevailing), v.hand),
        _ => format!("Round {round}"),
    }
}

/// The game's name in logs (`riichi`, `mcr`, ...) of a view.
pub(crate) fn game_of(view: &View) -> &'static str {
    match view {
        View::Tzq(_) => "tzq",
        View::Riichi(_) => "riichi",
        View::Mcr(_) => "mcr",
        View::Hungarian(_) => "hungarian",
        View::Tayu(_) => "tayu",
    }
}

/// `live`: the log is a game in progress, so ending before the game does is no fault.
fn replay_to<G: Registered>(bytes: &[u8], w: Want, live: bool) -> Result<Step, Fault> {
    let (want, own) = (w.step, w.own);
    let seen_by = own.filter(|_| w.hide);
    let (log, pos) = log::decode::<G::Action>(bytes)?;
    let names = log.header.seats.clone();
    let mut state: G = replay::setup::<G>(&log.header)?;
    let steps = log.records.len();
    let want = want.map(|w| w.min(steps));
    let first = view_with(&state, &names, seen_by);
    let mut round_names = vec![round_name(&first, state.round())];
    let mut round_starts = vec![(state.round(), 0usize)];
    let mut kinds = Vec::with_capacity(steps);
    // Every step's position would be too many views: the one asked for is kept as it passes
    // (the default, the last or the faulty record's, is known only at the end).
    let mut shown: Option<(usize, View, u32, Vec<RoundResult>)> =
        (want.unwrap_or(0) == 0).then(|| (0, first, state.round(), vec![]));
    // The position before the record asked for: the table a round ended on.
    let mut before_shown: Option<View> = None;
    // The step asked for's hand: where it starts, and its first dora indicator record's step
    // with the indicators it showed (riichi imported hands).
    let mut hand_of_want = 0usize;
    let mut first_dora: Option<(usize, usize, Vec<paifu_core::mahjong::Tile>)> = None;
    let mut want_dora = None;
    let mut fault = None;
    for (i, rec) in log.records.iter().enumerate() {
        let before = state.results().len();
        let action = rec.action.to_string();
        if want == Some(i + 1) {
            before_shown = Some(view_with(&state, &names, seen_by));
        }
        // A wrong claim is found once its record is applied: the faulty step shows the position
        // before it, like any other fault's.
        let saved = rec.claim.is_some().then(|| state.clone());
        if let Err(f) = replay::step(&mut state, i, rec, &pos) {
            if let Some(s) = saved {
                state = s;
            }
            fault = Some(f);
            break;
        }
        kinds.push((rec.seat, kind_of(&action)));
        let ended: Vec<RoundResult> = state.results()[before..].to_vec();
        if round_starts.last().is_some_and(|r| r.0 != state.round()) && !state.is_over() {
            round_starts.push((state.round(), i + 1));
            round_names.push(round_name(&View::of(&state), state.round()));
        }
        let start = round_starts.last().map_or(0, |r| r.1);
        if want.is_some_and(|w| w > i) {
            hand_of_want = start;
        }
        if action.starts_with("dora ") && first_dora.as_ref().is_none_or(|d| d.0 != start) {
            if let View::Riichi(v) = View::of(&state) {
                first_dora = Some((start, i + 1, v.dora_indicators));
            }
        }
        if first_dora.as_ref().is_some_and(|d| d.0 == hand_of_want)
            && want_dora.as_ref().is_none_or(|d: &(usize, usize, Vec<_>)| d.0 != hand_of_want)
        {
            want_dora = first_dora.clone();
        }
        if want == Some(i + 1) {
            shown = Some((i + 1, view_with(&state, &names, seen_by), state.round(), ended));
        }
    }
    if fault.is_none() && !state.is_over() && state.excerpt().is_none() && !live {
        fault = Some(replay::truncated(&state, steps));
    }
    // An invalid log stops early: its last step is the faulty record's. A log that opens
    // without a step asked for opens there.
    let reached = fault.as_ref().and_then(|f| f.index).unwrap_or(steps).min(steps);
    let step = match want {
        Some(w) => w.min(reached),
        None if fault.is_some() => reached,
        None => 0,
    };
    let (mut view, round, results) = match shown.filter(|s| s.0 == step) {
        Some((_, v, r, e)) => (v, r, e),
        None if step == reached => (view_with(&state, &names, seen_by), state.round(), vec![]),
        // The step asked for lies past the fault: replay to the one shown.
        None => return replay_to::<G>(bytes, Want { step: Some(step), ..w }, live),
    };
    if let Some((_, at, shown)) = want_dora.filter(|d| d.0 == hand_of_want) {
        patch_dora(&mut view, at, &shown, step);
    }
    let ended_table = before_shown.filter(|_| !results.is_empty() && want == Some(step));
    let final_terms = final_terms(&log.header).filter(|_| state.is_over() && step == steps);
    let last = step.checked_sub(1).and_then(|i| log.records.get(i)).map(|r| LastAction {
        seat: r.seat,
        player: names.get(usize::from(r.seat)).cloned().unwrap_or_default(),
        action: r.action.to_string(),
    });
    let passes = kinds[..step.saturating_sub(1).min(kinds.len())]
        .iter()
        .rev()
        .take_while(|k| k.1 == Kind::Pass)
        .map(|k| k.0)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let starts: Vec<usize> = round_starts.iter().map(|r| r.1).collect();
    let nav = Nav::new(step, &kinds, reached, &starts, own);
    let excerpt = state.excerpt().filter(|_| fault.is_none()).map(|e| e.to_string());
    let ended = results.iter().map(|r| r.summary.clone()).collect();
    Ok(Step {
        step,
        steps,
        last,
        passes,
        round,
        round_starts,
        round_names,
        ended,
        results,
        view,
        ended_table,
        final_terms,
        hidden: seen_by.is_some(),
        nav,
        fault,
        excerpt,
    })
}

/// The position after `step` records of a stored log (any game with an engine); without a
/// step, the first, or the faulty record's for an invalid log. `own` is the seat whose
/// decisions the viewer steps through.
pub(crate) fn step(bytes: &[u8], step: Option<usize>, own: Option<Seat>) -> Result<Step, Fault> {
    replay(bytes, Want { step, own, hide: false }, false)
}

/// [`step`] with everything the viewer may ask: the position as the followed seat saw it.
pub(crate) fn step_as(bytes: &[u8], want: Want) -> Result<Step, Fault> {
    replay(bytes, want, false)
}

/// [`step`] for the log so far of a game in progress: it ends before the game does, which is
/// no fault.
pub(crate) fn live_step(bytes: &[u8], step: Option<usize>, own: Option<Seat>) -> Result<Step, Fault> {
    replay(bytes, Want { step, own, hide: false }, true)
}

fn replay(bytes: &[u8], want: Want, live: bool) -> Result<Step, Fault> {
    struct Replay<'a>(&'a [u8], Want, bool);
    impl Visitor for Replay<'_> {
        type Output = Result<Step, Fault>;
        fn visit<G: Registered>(self) -> Self::Output {
            replay_to::<G>(self.0, self.1, self.2)
        }
    }
    let header = log::read_header(bytes)?;
    games::by_name(&header.game, Replay(bytes, want, live))?
}

#[cfg(test)]
mod tests {
    use super::*;
    use paifu_core::log::Encoding;

    #[test]
    fn steps_through_a_tzq_game() {
        let bytes = paifu_recorder::samples::tzq_bytes("viewer/1", ["Ann", "Bo"], Encoding::Binary);
        let s0 = step(&bytes, Some(0), None).unwrap();
        assert_eq!(s0.step, 0);
        assert!(s0.last.is_none());
        let json = serde_json::to_value(&s0.view).unwrap();
        assert_eq!(json["game"], "tzq");
        assert_eq!(json["seats"][0]["name"], "Ann");
        assert_eq!(json["seats"][0]["hand"].as_array().unwrap().len(), 5);
        assert!(s0.round_starts.len() >= 2, "{:?}", s0.round_starts);
        assert_eq!(s0.round_names[1], "Round 2");
        let s1 = step(&bytes, Some(1), None).unwrap();
        assert_eq!(s1.last.as_ref().unwrap().action, "draw");
        let end = step(&bytes, Some(usize::MAX), None).unwrap();
        assert_eq!(end.step, end.steps);
        assert!(!end.ended.is_empty());
        assert!(serde_json::to_value(&end.view).unwrap()["to_act"].as_array().unwrap().is_empty());
        assert!(step(b"junk", Some(0), None).is_err());
        // A valid log opens at its first step.
        assert_eq!(step(&bytes, None, None).unwrap().step, 0);
    }

    /// A real Tenhou game: the step that ends its first hand keeps the table the hand ended on
    /// (the next hand's deal is the position), and the next hand shows its own dora indicator
    /// from its first step, before the record that reveals it.
    #[test]
    fn a_hands_end_keeps_its_table_and_the_next_hand_shows_its_dora_from_the_start() {
        let real = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/real-logs/tenhou/2010081709gm-00a9-0000-fe3371ad.json");
        let text = std::fs::read_to_string(&real).unwrap();
        let imported = paifu_recorder::import::tenhou6::import(&text, text.as_bytes()).unwrap();
        let bytes = paifu_core::log::encode(&imported.log, Encoding::Binary);
        let s0 = step(&bytes, Some(0), None).unwrap();
        let end = s0.round_starts[1].1;
        let s = step(&bytes, Some(end), None).unwrap();
        assert!(!s.results.is_empty(), "step {end} ends the first hand");
        let (Some(View::Riichi(before)), View::Riichi(after)) = (&s.ended_table, &s.view) else {
            panic!("riichi views")
        };
        assert_eq!((before.hand.as_str(), after.hand.as_str()), ("E1", "E2"));
        assert!(before.players.iter().any(|p| !p.discards.is_empty()), "the table the hand ended on");
        assert!(after.hand_end.is_some());
        // The dora record of the second hand comes after its deal; its indicator shows from the
        // hand's first step on.
        let at =
            imported.log.records[end..].iter().position(|r| r.action.to_string().starts_with("dora ")).unwrap() + end;
        let revealed = step(&bytes, Some(at + 1), None).unwrap();
        let View::Riichi(r) = &revealed.view else { panic!() };
        assert_eq!(after.dora_indicators, r.dora_indicators, "step {end} shows the hand's own dora");
        let mid = step(&bytes, Some(end + 1), None).unwrap();
        let View::Riichi(m) = &mid.view else { panic!() };
        assert_eq!(m.dora_indicators, r.dora_indicators);
        assert!(mid.ended_table.is_none(), "only the step that ends a hand keeps its table");
        // A seat's view hides the others' hands.
        let hidden = step_as(&bytes, Want { step: Some(end + 20), own: Some(1), hide: true }).unwrap();
        let View::Riichi(h) = &hidden.view else { panic!() };
        assert!(hidden.hidden && h.players.iter().filter(|p| p.hidden.is_some()).count() == 3, "{h:?}");
        // The last step: the final points terms.
        let last = step(&bytes, Some(usize::MAX), None).unwrap();
        assert!(last.final_terms.as_deref().is_some_and(|t| t.contains("uma")), "{:?}", last.final_terms);
    }

    #[test]
    fn stepping_skips_passes_and_finds_hands_and_a_seats_decisions() {
        use Kind::*;
        // Records: 0 seat 0 decides, 1 seat 1 passes, 2 seat 2 passes, 3 seat 1 draws (chance),
        // 4 seat 1 decides, 5 seat 0 decides; a hand starts at step 4.
        let kinds = [(0, Decision), (1, Pass), (2, Pass), (1, Chance), (1, Decision), (0, Decision)];
        let nav = Nav::new(1, &kinds, 6, &[0, 4], Some(1));
        // Steps 2 and 3 show only a pass: the next step shown is 4.
        assert_eq!((nav.prev, nav.next), (Some(0), Some(4)));
        assert_eq!((nav.prev_hand, nav.next_hand), (Some(0), Some(4)));
        assert_eq!((nav.prev_own, nav.next_own), (None, Some(4)), "its draw is not a decision");
        // Seat 1's pass is a decision too (it could have called).
        assert_eq!(Nav::new(0, &kinds, 6, &[0, 4], Some(1)).next_own, Some(1));
        let nav = Nav::new(4, &kinds, 6, &[0, 4], Some(0));
        assert_eq!((nav.prev, nav.next, nav.prev_hand, nav.next_hand), (Some(1), Some(5), Some(0), Some(6)));
        assert_eq!((nav.prev_own, nav.next_own), (Some(0), Some(5)));
        let nav = Nav::new(6, &kinds, 6, &[0, 4], None);
        assert_eq!((nav.prev, nav.next, nav.next_hand, nav.prev_own, nav.next_own), (Some(5), None, None, None, None));
        // An invalid log reached only 3 records: nothing past them.
        let nav = Nav::new(1, &kinds[..3], 3, &[0], None);
        assert_eq!((nav.next, nav.next_hand, nav.last), (Some(3), Some(3), 3));
        assert_eq!(
            [kind_of("pass"), kind_of("draw 5m"), kind_of("discard 5m"), kind_of("ura 1p")],
            [Pass, Chance, Decision, Chance]
        );
    }
}
