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

use super::to_log::{self, Imported};
use super::ImportError;

/// Imports an mjlog XML record. `id` names the game (the file name without its extension).
pub fn import(text: &str, bytes: &[u8], id: &str) -> Result<Imported, ImportError> {
    import_read(text, bytes, id, false)
}

/// [`import`], read as an excerpt when `excerpt` asks for it (to_log::header).
pub(crate) fn import_read(text: &str, bytes: &[u8], id: &str, excerpt: bool) -> Result<Imported, ImportError> {
    let tags = read::parse(text)?;
    let (g, pm) = to_record::to_game(&tags, id)?;
    let mut h = to_log::header("mjlog", &g, bytes, excerpt);
    if !to_log::is_excerpt(&h) {
        read::check_ended(&tags, text.len())?;
    }
    if wall::check(text, &tags, to_log::is_excerpt(&h))? {
        h.meta.insert(wall::META_KEY.into(), shuffle::ALGORITHM.into());
    }
    let imp = to_log::convert(&g, h).map_err(|e| pm.error(e))?;
    Ok(pm.imported(imp))
}
