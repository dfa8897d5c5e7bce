//! Tenhou's mjlog XML game records: the tags are read (read.rs, where the format is described;
//! meld.rs decodes tile ids and calls), gathered into the record model (to_record.rs) and
//! converted by the one converter (to_log/); positions are mapped back to the tags' byte offsets.
//! A record with Tenhou's seed (`<SHUFFLE seed="mt19937ar-sha512-n288-base64,...">`) has every
//! round's wall rebuilt from it (shuffle.rs) and its deals checked against them (wall.rs).
//! There is no mjlog export.

mod meld;
mod read;
mod shuffle;
mod to_record;
mod wall;

pub use wall::{is_wall_mismatch, META_KEY as WALL_KEY};

use super::positions::PosMap;
use super::record::Game;
use super::to_log::{self, Imported};
use super::ImportError;

/// Imports an mjlog XML record. `id` names the game (the file name without its extension).
pub fn import(text: &str, bytes: &[u8], id: &str) -> Result<Imported, ImportError> {
    import_read(text, bytes, id, to_log::Reading::default())
}

/// [`import`], read as an excerpt when `excerpt` asks for it (to_log::header).
pub(crate) fn import_read(text: &str, bytes: &[u8], id: &str, read: to_log::Reading) -> Result<Imported, ImportError> {
    let excerpt = read.excerpt;
    let mut r = read_game(text, id, excerpt)?;
    read.apply(&mut r.game);
    let mut h = to_log::header("mjlog", &r.game, bytes, excerpt);
    h.meta.extend(r.meta());
    to_log::convert(&r.game, h, &r.pm)
}

/// An mjlog record read: its game in the record model, where its places are in the file, and
/// whether its walls were rebuilt from Tenhou's seed and checked.
pub(crate) struct Read {
    pub(crate) game: Game,
    pub(crate) pm: PosMap,
    pub(crate) wall_checked: bool,
}

impl Read {
    /// What the log's header says of the record beyond its game: `meta.wall` when its walls
    /// were checked.
    pub(crate) fn meta(&self) -> Option<(String, String)> {
        self.wall_checked.then(|| (wall::META_KEY.to_owned(), shuffle::ALGORITHM.to_owned()))
    }
}

/// Reads an mjlog XML record into the record model, with where its places are in the file; a
/// record that ends inside a game is refused unless it is read as an excerpt, and one whose
/// seed does not deal its walls is refused (`wall_mismatch`, [`is_wall_mismatch`]).
pub(crate) fn read_game(text: &str, id: &str, excerpt: bool) -> Result<Read, ImportError> {
    let tags = read::parse(text)?;
    let (game, pm) = to_record::to_game(&tags, id)?;
    let excerpt = to_log::reads_as_excerpt(&game, excerpt);
    if !excerpt {
        read::check_ended(&tags, text.len())?;
    }
    let wall_checked = wall::check(text, &tags, excerpt)?;
    Ok(Read { game, pm, wall_checked })
}
