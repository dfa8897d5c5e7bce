//! Playing whole games with bots and writing them down as logs.

use crate::bot::Bot;
use paifu_core::{log::Claim, log::Header, log::Log, log::Record, Game, Seed};
use std::collections::BTreeMap;

/// A simulation could not finish.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    #[error("the game could not be set up: {0}")]
    Setup(String),
    #[error("bot {bot} at seat {seat} chose {action}, which the rules refuse: {why}")]
    IllegalChoice { bot: String, seat: u8, action: String, why: String },
    #[error("seat {0} owes a decision but has no legal action")]
    NoLegalAction(u8),
    #[error("the game did not end within {0} actions")]
    TooLong(usize),
}

/// The most records a simulated game may have before it is called off.
pub(crate) const MAX_ACTIONS: usize = 2_000_000;

/// Plays one game to its end. Each record that ends a round carries the round's score changes
/// as a claim, and the last record the final scores, as a scorekeeper at the table would write.
pub fn play_game<G: Game>(
    ruleset: &str,
    rules: G::Rules,
    seed: Seed,
    bots: &mut [Box<dyn Bot<G> + '_>],
    meta: BTreeMap<String, String>,
) -> Result<Log<G::Action>, SimError> {
    let seats = bots.len();
    let mut game = G::new(rules.clone(), seats, Some(&seed)).map_err(|e| SimError::Setup(e.0))?;
    let names = bots.iter().enumerate().map(|(i, b)| format!("{} {}", b.name(), i + 1)).collect();
    let mut header = Header::new(G::KIND.name(), ruleset, G::options(&rules), names, seed);
    header.meta = meta;
    let mut records: Vec<Record<G::Action>> = Vec::new();
    while !game.is_over() {
        if records.len() >= MAX_ACTIONS {
            return Err(SimError::TooLong(MAX_ACTIONS));
        }
        // Every seat that owes a decision answers, in seat order.
        let Some(seat) = game.to_act().iter().next() else { break };
        if game.legal_actions(seat).is_empty() {
            return Err(SimError::NoLegalAction(seat));
        }
        let bot = &mut bots[usize::from(seat)];
        let action = bot.act(&game, seat);
        let before = game.results().len();
        game.play_mut(seat, &action).map_err(|v| SimError::IllegalChoice {
            bot: bot.name(),
            seat,
            action: action.to_string(),
            why: v.message,
        })?;
        let claim = claim_after(&game, before);
        records.push(Record { seq: records.len() as u32, seat, action, claim });
    }
    Ok(Log { header, records })
}

/// The claim a scorekeeper writes on the record just played, `before` being how many round
/// results there were before it: the round's score changes when it ended a round, and the final
/// scores when it ended the game.
pub(crate) fn claim_after<G: Game>(game: &G, before: usize) -> Option<Claim> {
    let mut claim = None;
    if let Some(r) = game.results().get(before..).and_then(<[_]>::last) {
        claim = Some(Claim { round: Some(r.deltas.clone()), final_scores: None });
    }
    if game.is_over() {
        claim.get_or_insert_with(Claim::default).final_scores = Some(game.scores());
    }
    claim
}
