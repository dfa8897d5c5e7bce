//! Importers of other game-record formats.
//!
//! Each importer first parses its source into a typed form that mirrors the source (so every
//! error can name the round and the position in the source), then converts that into a Paifu
//! log for the game's engine.

pub mod export;
pub mod mjai;
pub mod mjlog;
pub mod riichi_log;
pub mod tenhou6;
pub mod yaku;

/// A source record could not be read. Says where: the round and the position in the source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", .round.as_ref().map(|r| format!("round {r}, ")).unwrap_or_default(), .position)]
pub struct ImportError {
    /// The round as players name it (`East 2, 1 honba`), when the error is inside one.
    pub round: Option<String>,
    /// Where in the source: a JSON path such as `log[3][5][7]`, or a line number.
    pub position: String,
    pub message: String,
}

impl ImportError {
    pub fn new(position: impl Into<String>, message: impl Into<String>) -> ImportError {
        ImportError { round: None, position: position.into(), message: message.into() }
    }

    pub fn in_round(mut self, round: &str) -> ImportError {
        self.round = Some(round.to_owned());
        self
    }
}
