//! Importers and exporters of other riichi game-record formats, laid out by format over one
//! shared model.
//!
//! - `tenhou6/`, `mjlog/`, `mjai/`: one module per format, each with its reader (a typed form that
//!   mirrors the source, so every error can name the round and the position in the source), its
//!   gathering into the record model where the source is not already in that form, and its
//!   writer (`tenhou6::export`, `mjai::export`).
//! - `record.rs`: the shared riichi-record model (hands, takes, discards, indicators, results).
//! - `to_log/`: the one converter from the record model to a Paifu log, through the engine.
//! - `embedded/`: the Paifu log an export carries in its file, read back and rebuilt.
//! - `source.rs`: the other way round, the source an imported log carries (`meta.source`), and
//!   [`source::validate_bytes`], which checks an imported log against it.
//! - `rules.rs` (Tenhou's rule names), `yaku.rs` (Tenhou's yaku table), `positions.rs` (record
//!   paths mapped to a source's own positions).
//!
//! Dependencies point one way: source -> formats -> embedded -> to_log -> record.
//!
//! `mcr/`: the Chinese Official (MCR) formats (Botzone's match records), apart from the riichi
//! ones, with their own hand model and converter.

mod embedded;
mod json;
pub mod mcr;
pub mod mjai;
pub mod mjlog;
mod positions;
pub use positions::Place;
pub mod record;
mod rules;
pub mod source;
pub mod tenhou6;
pub mod to_log;
pub mod yaku;

use paifu_core::SetupError;

/// A source record could not be read. Says where: the round and the position in the source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}{}{message}",
    .round.as_ref().map(|r| format!("round {r}, ")).unwrap_or_default(),
    if .position.is_empty() { String::new() } else { format!("{}: ", .position) }
)]
pub struct ImportError {
    /// The round as players name it (`East 2, 1 honba`), when the error is inside one.
    pub round: Option<String>,
    /// Where in the source: a JSON path such as `log[3][5][7]`, or a line number.
    pub position: String,
    pub message: String,
}

impl ImportError {
    pub(crate) fn new(position: impl Into<String>, message: impl Into<String>) -> ImportError {
        ImportError { round: None, position: position.into(), message: message.into() }
    }

    pub(crate) fn in_round(mut self, round: &str) -> ImportError {
        self.round = Some(round.to_owned());
        self
    }
}

/// A value as an error message shows it: its JSON, cut short past `max` characters, so that a
/// message never echoes a large input.
pub(crate) fn brief(v: &impl serde::Serialize, max: usize) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s,
    }
}

/// A riichi log could not be exported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// The header's ruleset and options do not make a riichi game.
    #[error(transparent)]
    Rules(#[from] SetupError),
    /// The engine refuses a record: the log does not validate.
    #[error("record {index}: {message}")]
    Refused { index: usize, message: String },
    /// The log stops before the game is over.
    #[error("the log ends before the game does")]
    Unfinished,
    /// mjai: a record after the last hand of the log's tenhou.net/6 form.
    #[error("record {0}: past the last hand")]
    PastLastHand(usize),
    /// mjai: the log's tenhou.net/6 form does not read back (it always does for a valid log).
    #[error(transparent)]
    Reread(#[from] ImportError),
}

/// Imports a source of the given format (`tenhou`: tenhou.net/6 JSON, or mjlog XML recognised by
/// its content; `mjai`). `bytes` are the file's bytes (for the header's digest). The log embeds
/// the source (source.rs); a file too large for that is refused.
pub fn import_text(format: &str, text: &str, bytes: &[u8]) -> Result<to_log::Imported, ImportError> {
    import_read(format, text, bytes, false)
}

/// [`import_text`], with the excerpt reading when `excerpt` asks for it (`paifu import
/// --excerpt`): a record that starts as a whole game does but stops early is then an excerpt of
/// an unknown game, valid at the end of any round, rather than a truncated game. A record that
/// does not start as a whole game does is an excerpt either way (`to_log::excerpt_note`).
pub fn import_read(format: &str, text: &str, bytes: &[u8], excerpt: bool) -> Result<to_log::Imported, ImportError> {
    import_with(format, text, bytes, to_log::Reading { excerpt, start_points: None })
}

/// [`import_read`] with everything `paifu import` may state of a record: the excerpt reading,
/// and each seat's start points (`--start-points`), which then override the rule set's.
pub fn import_with(
    format: &str,
    text: &str,
    bytes: &[u8],
    read: to_log::Reading,
) -> Result<to_log::Imported, ImportError> {
    let imp = match format {
        "tenhou" if text.trim_start().starts_with('<') => mjlog::import_read(text, bytes, "", read),
        "tenhou" => tenhou6::import_read(text, bytes, read),
        "mjai" => mjai::import_read(text, bytes, read),
        other => return Err(ImportError::new("", format!("unknown source format {other:?}: write tenhou or mjai"))),
    }?;
    // A log made from this very file (not one the file embeds) holds the file.
    let h = &imp.log.header;
    // (The file is hashed again only when the log holds no source, which is rare.)
    let made_here = || h.source.as_ref().is_some_and(|s| s.digest == to_log::source_digest(bytes));
    if to_log::embedded_source(h).is_none() && made_here() {
        return Err(ImportError::new(
            "",
            format!(
                "the file ({} bytes) cannot be embedded in the log, which holds its source so that it can be checked \
                 against it: a source is UTF-8 text of at most {} bytes that fits a log's header line (1 MiB) once \
                 escaped as JSON",
                bytes.len(),
                to_log::MAX_SOURCE_BYTES
            ),
        ));
    }
    Ok(imp)
}

#[cfg(test)]
mod error_tests {
    use super::*;

    #[test]
    fn an_error_without_a_position_has_no_empty_field() {
        assert_eq!(ImportError::new("", "not a record").to_string(), "not a record");
        assert_eq!(ImportError::new("log[0]", "bad").in_round("East 1").to_string(), "round East 1, log[0]: bad");
        assert_eq!(ImportError::new("", "bad").in_round("East 1").to_string(), "round East 1, bad");
    }
}
