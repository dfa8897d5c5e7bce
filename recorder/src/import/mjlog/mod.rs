//! Tenhou's mjlog XML game records: the tags are read (read.rs, where the format is described;
//! meld.rs decodes tile ids and calls), gathered into the record model (to_record.rs) and
//! converted by the one converter (to_log/); positions are mapped back to the tags' byte offsets.
//! There is no mjlog export.

mod meld;
mod read;
mod to_record;

use super::positions::PosMap;
use super::record::Game;
use super::to_log::{self, Imported};
use super::ImportError;

/// Imports an mjlog XML record. `id` names the game (the file name without its extension).
pub fn import(text: &str, bytes: &[u8], id: &str) -> Result<Imported, ImportError> {
    import_read(text, bytes, id, false)
}

/// [`import`], read as an excerpt when `excerpt` asks for it (to_log::header).
pub(crate) fn import_read(text: &str, bytes: &[u8], id: &str, excerpt: bool) -> Result<Imported, ImportError> {
    let (g, pm) = read_game(text, id, excerpt)?;
    to_log::convert(&g, to_log::header("mjlog", &g, bytes, excerpt), &pm)
}

/// Reads an mjlog XML record into the record model, with where its places are in the file; a
/// record that ends inside a game is refused unless it is read as an excerpt.
pub(crate) fn read_game(text: &str, id: &str, excerpt: bool) -> Result<(Game, PosMap), ImportError> {
    let tags = read::parse(text)?;
    let (g, pm) = to_record::to_game(&tags, id)?;
    if !to_log::reads_as_excerpt(&g, excerpt) {
        read::check_ended(&tags, text.len())?;
    }
    Ok((g, pm))
}
