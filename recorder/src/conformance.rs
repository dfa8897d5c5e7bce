//! The conformance check every engine shares (run by tests/integration/conformance.rs).
//!
//! Over many seeds, bots play whole games; for each game it checks that
//! 1. every chosen action is in the legal set of the seat, and `check` accepts exactly the
//!    legal actions among a set of candidates (the legal sets of the step before and now);
//! 2. replaying the written log reproduces the game: valid, the same round results and scores;
//! 3. JSON Lines and binary encodings decode to the same log with the same digest;
//! 4. any single-record change (drop, duplicate, swap, other seat, other action) makes the log
//!    invalid or changes its digest, and never makes the validator panic.

use crate::bot::Bot;
use crate::simulate::play_game;
use paifu_core::log::{self, Encoding, Positions};
use paifu_core::replay::validate_log;
use paifu_core::{log::Log, replay::Outcome, replay::Verdict, Game, Seed};

/// What a conformance run saw.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Counts {
    pub games: usize,
    pub actions: usize,
    pub rounds: usize,
    pub mutations: usize,
    pub mutations_invalid: usize,
}

/// The first check a conformance run found failing: which game, which check, what it saw.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game}: {check}: {detail}")]
pub struct Failure {
    /// The game's index in the run.
    pub game: usize,
    pub check: Check,
    pub detail: String,
}

/// The checks of a conformance run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Check {
    #[error("the bots could not finish the game")]
    Play,
    #[error("its own log does not validate")]
    OwnLog,
    #[error("an encoding does not give the log back")]
    Encoding,
    #[error("a single-record change is valid and keeps the digest")]
    Mutation,
    #[error("the engine's own check")]
    Extra,
}

fn failed(game: usize, check: Check, detail: impl Into<String>) -> Failure {
    Failure { game, check, detail: detail.into() }
}

/// Runs the checks over `games` seeds derived from `seed`. `bots(game_index)` gives the seats'
/// bots. Returns the first failure.
pub fn run<G: Game>(
    ruleset: &str,
    rules: G::Rules,
    seed: Seed,
    games: usize,
    bots: impl FnMut(usize) -> Vec<Box<dyn Bot<G>>>,
) -> Result<Counts, Failure> {
    run_with::<G, std::convert::Infallible>(ruleset, rules, seed, games, 1, bots, |_, _, _| Ok(()))
}

/// [`run`], with the single-record changes (check 4, the costly one: a partial replay per change)
/// made on every `mutate_every`-th game only (checks 1 to 3 on every game), and `extra` called
/// with each game's index, log and outcome for the engine's own checks.
pub fn run_with<G: Game, E: std::fmt::Display>(
    ruleset: &str,
    rules: G::Rules,
    seed: Seed,
    games: usize,
    mutate_every: usize,
    mut bots: impl FnMut(usize) -> Vec<Box<dyn Bot<G>>>,
    mut extra: impl FnMut(usize, &Log<G::Action>, &Outcome) -> Result<(), E>,
) -> Result<Counts, Failure> {
    let mut counts = Counts::default();
    for i in 0..games {
        let game_seed = seed.child(&format!("conformance/{i}"));
        let mut b = bots(i);
        let mut checked: Vec<Box<dyn Bot<G>>> =
            b.drain(..).map(|bot| Box::new(Checked { inner: bot, prev: Vec::new() }) as Box<dyn Bot<G>>).collect();
        let log = play_game::<G>(ruleset, rules.clone(), game_seed, &mut checked, Default::default())
            .map_err(|e| failed(i, Check::Play, e.to_string()))?;
        counts.games += 1;
        counts.actions += log.records.len();
        let outcome = check_log::<G>(i, &log, &mut counts, i % mutate_every.max(1) == 0)?;
        extra(i, &log, &outcome).map_err(|e| failed(i, Check::Extra, e.to_string()))?;
    }
    Ok(counts)
}

/// Wraps a bot and checks, before each decision, that `check` agrees with `legal_actions`.
struct Checked<G: Game> {
    inner: Box<dyn Bot<G>>,
    prev: Vec<G::Action>,
}

impl<G: Game> Bot<G> for Checked<G> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn act(&mut self, game: &G, seat: u8) -> G::Action {
        let legal = game.legal_actions(seat);
        for a in legal.iter().chain(self.prev.iter()) {
            let ok = game.validate(seat, a).is_ok();
            assert_eq!(
                ok,
                legal.contains(a),
                "check and legal_actions disagree on {a} for seat {seat}:\n{}",
                game.render()
            );
        }
        let a = self.inner.act(game, seat);
        assert!(legal.contains(&a), "bot {} chose {a}, not among the legal actions {legal:?}", self.inner.name());
        self.prev = legal;
        a
    }
}

fn check_log<G: Game>(i: usize, log: &Log<G::Action>, counts: &mut Counts, mutate: bool) -> Result<Outcome, Failure> {
    let pos = Positions::default();
    let outcome = match validate_log::<G>(log, &pos) {
        Verdict::Valid(o) => o,
        Verdict::Invalid(f) => return Err(failed(i, Check::OwnLog, f.describe())),
    };
    counts.rounds += outcome.rounds.len();
    // Both encodings, same log, same digest.
    let digest = log.digest();
    for enc in [Encoding::JsonLines, Encoding::Binary] {
        let bytes = log::encode(log, enc);
        let (back, _) = log::decode::<G::Action>(&bytes)
            .map_err(|f| failed(i, Check::Encoding, format!("{enc:?} does not decode: {}", f.describe())))?;
        if &back != log {
            return Err(failed(i, Check::Encoding, format!("{enc:?} round trip changed the log")));
        }
        if back.digest() != digest {
            return Err(failed(i, Check::Encoding, format!("{enc:?} digest differs")));
        }
    }
    if !mutate {
        return Ok(outcome);
    }
    // Single-record changes.
    let n = log.records.len();
    let picks: Vec<usize> = if n <= 24 { (0..n).collect() } else { (0..24).map(|k| k * (n - 1) / 23).collect() };
    for &k in &picks {
        let mut variants: Vec<Log<G::Action>> = Vec::new();
        let mut dropped = log.clone();
        dropped.records.remove(k);
        variants.push(dropped.clone());
        // The same with the sequence renumbered, so that only the rules can catch it.
        dropped.records.iter_mut().enumerate().for_each(|(j, r)| r.seq = j as u32);
        variants.push(dropped);
        let mut dup = log.clone();
        dup.records.insert(k, log.records[k].clone());
        variants.push(dup);
        if k + 1 < n {
            let mut swapped = log.clone();
            swapped.records.swap(k, k + 1);
            variants.push(swapped);
        }
        let seats = log.header.seats.len() as u8;
        let mut other_seat = log.clone();
        other_seat.records[k].seat = (log.records[k].seat + 1) % seats.max(1);
        variants.push(other_seat);
        // Another action: one of the other records' actions.
        if let Some(other) = log.records.iter().map(|r| &r.action).find(|a| **a != log.records[k].action) {
            let mut changed = log.clone();
            changed.records[k].action = other.clone();
            variants.push(changed);
        }
        for v in variants {
            counts.mutations += 1;
            let verdict = validate_log::<G>(&v, &pos);
            if !verdict.is_valid() {
                counts.mutations_invalid += 1;
            } else if v.digest() == digest {
                return Err(failed(i, Check::Mutation, format!("the change at record {k}")));
            }
        }
    }
    Ok(outcome)
}
