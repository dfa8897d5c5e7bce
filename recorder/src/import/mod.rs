//! Importers of other game-record formats.
//!
//! Each importer first parses its source into a typed form that mirrors the source (so every
//! error can name the round and the position in the source), then converts that into a Paifu
//! log for the game's engine.

pub mod embedded;
pub mod export;
pub mod export_mjai;
pub mod mjai;
pub mod mjai_log;
pub mod mjlog;
pub mod mjlog_log;
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

/// Imports a source of the given format (`tenhou`: tenhou.net/6 JSON, or mjlog XML recognised by
/// its content; `mjai`). `bytes` are the file's bytes (for the header's digest).
pub fn import_text(format: &str, text: &str, bytes: &[u8]) -> Result<riichi_log::Imported, ImportError> {
    match format {
        "tenhou" if text.trim_start().starts_with('<') => mjlog_log::import(text, bytes, ""),
        "tenhou" => riichi_log::from_tenhou6(&tenhou6::parse(text)?, bytes),
        "mjai" => mjai_log::import(text, bytes),
        other => Err(ImportError::new("", format!("unknown source format {other:?}: write tenhou or mjai"))),
    }
}
