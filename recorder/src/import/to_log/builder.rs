//! Writing records while playing them through the engine.

use super::derive::Ends;
use super::{Imported, Mismatch};
use crate::import::positions::{Pos, PosMap};
use crate::import::ImportError;
use paifu_core::log::{Claim, Header, Log, Record};
use paifu_core::replay::{self, Verdict};
use paifu_core::riichi::{Action, Riichi};
use paifu_core::Game;
use paifu_core::Seat;

/// Writes records while playing them through the engine.
pub(crate) struct Builder {
    pub(crate) game: Riichi,
    pub(crate) records: Vec<Record<Action>>,
    pub(crate) positions: Vec<Pos>,
    pub(crate) refused: Option<(usize, String)>,
    /// For each record, whether it answers a claim window (the answers to one window are a run).
    pub(crate) windowed: Vec<bool>,
    /// The game's round results and round before the last record was played, for the check of
    /// the claims put on it.
    before: (usize, u32),
    /// Whether every claim put on a record held as the validator checks it ([`replay::step`]).
    claims_hold: bool,
}

impl Builder {
    pub(crate) fn new(header: &Header) -> Result<Builder, ImportError> {
        let rules = Riichi::rules(&header.ruleset, &header.options).map_err(|e| ImportError::new("rules", e.0))?;
        let game = Riichi::new(rules, 4, None).map_err(|e| ImportError::new("rules", e.0))?;
        Ok(Builder {
            game,
            records: Vec::new(),
            positions: Vec::new(),
            refused: None,
            windowed: Vec::new(),
            before: (0, 0),
            claims_hold: true,
        })
    }

    /// Room for `n` records more.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.records.reserve(n);
        self.positions.reserve(n);
        self.windowed.reserve(n);
    }

    /// Appends a record and plays it; false (and nothing more is recorded) once one is refused.
    pub(crate) fn push(&mut self, seat: Seat, action: Action, pos: Pos) -> bool {
        if self.refused.is_some() {
            return false;
        }
        let seq = self.records.len();
        self.records.push(Record { seq: seq as u32, seat, action: action.clone(), claim: None });
        self.positions.push(pos);
        self.windowed.push(self.game.claim_window().is_some());
        self.before = (self.game.results().len(), self.game.round());
        if self.game.is_over() {
            self.refused = Some((seq, "the game was already over before this record".into()));
            return false;
        }
        match self.game.play_mut(seat, &action) {
            Ok(()) => true,
            Err(v) => {
                self.refused = Some((seq, v.message));
                false
            }
        }
    }

    /// Puts what the last record ends on it as its claim: the hand's score changes, and at the
    /// game's end the final scores the source states.
    pub(crate) fn claim(&mut self, ends: Ends, final_scores: Option<&Vec<i64>>) {
        let fin = final_scores.filter(|_| ends.game);
        if ends.round.is_none() && fin.is_none() {
            return;
        }
        if let Some(r) = self.records.last_mut() {
            let c = r.claim.get_or_insert_with(Claim::default);
            if let Some(d) = ends.round {
                c.round = Some(d.to_vec());
            }
            if let Some(f) = fin {
                c.final_scores = Some(f.clone());
            }
            let (before, round) = self.before;
            let i = self.records.len() - 1;
            self.claims_hold &= replay::check_claim(&self.game, i, &self.records[i], before, round).is_ok();
        }
    }

    /// The import, its records' places written as the source's positions (`pm`).
    ///
    /// The records were played with every check of the validator ([`replay::step`]: the
    /// engine's, and the claims'), so a log the validator would accept has its verdict here
    /// without a second replay; any other is left to the validator ([`Imported::verdict`]),
    /// which names its fault.
    pub(crate) fn finish(self, header: Header, mismatches: Vec<Mismatch>, pm: &PosMap) -> Imported {
        let checked = self.refused.is_none() && self.claims_hold && replay::setup::<Riichi>(&header).is_ok();
        let verdict = checked.then(|| replay::conclude(self.game, &self.records)).filter(Verdict::is_valid);
        Imported {
            verdict,
            log: Log { header, records: self.records },
            positions: self.positions.iter().map(|p| pm.place(*p)).collect(),
            refused: self.refused,
            mismatches: mismatches.into_iter().map(|m| Mismatch { error: pm.error(m.error), ..m }).collect(),
        }
    }
}
