//! Stable error codes and the fault a validator reports.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A stable, machine-readable code for everything that can make a log invalid.
///
/// The snake_case names are part of Paifu's interface (`paifu validate --json`, certificates,
/// fixtures): they never change meaning, and new ones are only added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The action is not allowed by the rules in this position.
    IllegalAction,
    /// The seat that acted does not owe a decision now.
    NotYourTurn,
    /// A result written in the log differs from the computed one.
    ClaimMismatch,
    /// The seed does not match the commitment in the header.
    SeedCommitmentMismatch,
    /// The log has no seed (only a commitment), so it cannot be replayed yet.
    MissingSeed,
    /// The log ends before the game does, or a binary frame is cut short.
    Truncated,
    /// The header names a game Paifu does not know.
    UnknownGame,
    /// The bytes are not a Paifu log (malformed JSON, bad frame, unknown field, bad notation).
    BadEncoding,
    /// Record sequence numbers are not 0, 1, 2, ... (a record was dropped, inserted or moved).
    BadSequence,
    /// The header is well-formed but unusable (seat count, unknown option, bad value).
    BadHeader,
    /// The log's format version is newer than this Paifu understands.
    UnsupportedVersion,
    /// A record follows the end of the game.
    AfterGameEnd,
    /// An imported game (its header has a `source`) claims a seed or a seed commitment: its tiles
    /// come from its records, so it has neither.
    ImportedCommitment,
    /// An imported log's `source.digest` is not the blake3 of the source it embeds.
    SourceDigestMismatch,
    /// An imported log differs from what its embedded source gives (a record, a claim or a header
    /// field), or the embedded source cannot be imported.
    SourceMismatch,
    /// A declared win is worth less than the rules' minimum (MCR: 8 fan without flowers).
    BelowMinimum,
    /// A seat that must play its safe action (after a host incident of it, or once it has
    /// forfeited) played something else.
    NotSafeAction,
    /// An imported game's deals are not the ones the platform's own seed makes (a Tenhou mjlog's
    /// `<SHUFFLE seed>`): a deal, a draw, a dead-wall draw, an indicator or the dice differ.
    WallMismatch,
}

impl ErrorCode {
    /// The stable snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::IllegalAction => "illegal_action",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::ClaimMismatch => "claim_mismatch",
            ErrorCode::SeedCommitmentMismatch => "seed_commitment_mismatch",
            ErrorCode::MissingSeed => "missing_seed",
            ErrorCode::Truncated => "truncated",
            ErrorCode::UnknownGame => "unknown_game",
            ErrorCode::BadEncoding => "bad_encoding",
            ErrorCode::BadSequence => "bad_sequence",
            ErrorCode::BadHeader => "bad_header",
            ErrorCode::UnsupportedVersion => "unsupported_version",
            ErrorCode::AfterGameEnd => "after_game_end",
            ErrorCode::ImportedCommitment => "imported_commitment",
            ErrorCode::SourceDigestMismatch => "source_digest_mismatch",
            ErrorCode::SourceMismatch => "source_mismatch",
            ErrorCode::BelowMinimum => "below_minimum",
            ErrorCode::NotSafeAction => "not_safe_action",
            ErrorCode::WallMismatch => "wall_mismatch",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why an engine refused an action: a code and a sentence a referee understands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct Violation {
    pub code: ErrorCode,
    pub message: String,
}

impl Violation {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Violation { code, message: message.into() }
    }
    pub fn illegal(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::IllegalAction, message)
    }
}

/// The first fault found in a log, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{}", self.describe())]
pub struct Fault {
    pub code: ErrorCode,
    /// Index of the record (0-based) where the fault is, if it is in a record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// Line of the JSON Lines file (1-based), when the log was read from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Round (1-based) in which the fault happened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// Seat that acted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The action as written in the log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    pub message: String,
}

impl Fault {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Fault { code, index: None, line: None, round: None, seat: None, action: None, message: message.into() }
    }

    pub(crate) fn at_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }

    pub fn at_index(mut self, index: usize) -> Self {
        self.index = Some(index);
        self
    }

    /// One line: where, code, message.
    pub fn describe(&self) -> String {
        let mut place = Vec::new();
        if let Some(i) = self.index {
            place.push(format!("record {i}"));
        }
        if let Some(l) = self.line {
            place.push(format!("line {l}"));
        }
        if let Some(r) = self.round {
            place.push(format!("round {r}"));
        }
        if let Some(s) = self.seat {
            place.push(format!("seat {s}"));
        }
        let mut out = String::new();
        if !place.is_empty() {
            out.push_str(&place.join(", "));
            out.push_str(": ");
        }
        out.push_str(self.code.as_str());
        out.push_str(": ");
        out.push_str(&self.message);
        if let Some(a) = &self.action {
            out.push_str(&format!(" [action: {a}]"));
        }
        out
    }
}
