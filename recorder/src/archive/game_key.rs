//! The game key: what makes two entries of the archive one game.
//!
//! An entry is keyed by its identity, the blake3 of its stored bytes: a byte-exact upload of a
//! stored log (in either encoding) is that entry again. The game key groups entries into games:
//! it is computed from what the game is, never from bytes that do not change it:
//!
//! - the game kind and the ruleset's name;
//! - the rules in force: the options resolved by the engine and written out again by it
//!   (`Game::rules`, then `Game::options`), so that restating a default, or writing an option
//!   another way, is the same rules (options the engine refuses are kept as written: the log is
//!   invalid anyway);
//! - the seats' names;
//! - the deal: the seed's commitment (the seed itself makes the same commitment, so a log with
//!   the seed revealed, or with the commitment left out beside the seed, is the same game); an
//!   imported game has no seed, and its deal, draws and indicators are records;
//! - every record's seat and action, in order: the moves, and for an imported game the records
//!   its source gives.
//!
//! Left out: the format version, the engine that wrote the log, the `source` block (the file's
//! blake3 and its id), `meta` (free text, and for an imported game the source file itself, so a
//! tenhou.net/6 file with a trailing space or indented again, the same game in mjlog XML, an mjai
//! file with other spacing, or a Paifu log with one more `meta` key are one game), the records'
//! sequence numbers and every claim (results written by whoever kept score: they are checked,
//! not played; a log with claims and one without are one game, and only a valid entry counts).
//!
//! It is blake3 in key-derivation mode (context `paifu 2026-11 archive game key v1`) over the
//! postcard encoding of `(game, ruleset, options, seats, commitment)`, then of `(seat, action)`
//! for every record. The archive's column `logs.game_key` holds it (hex).

use paifu_core::games::Registered;
use paifu_core::log::{Log, Options};
use paifu_core::Digest;

const CONTEXT: &str = "paifu 2026-11 archive game key v1";

/// The game key of a decoded log of game `G`; `None` when a part of it does not encode (then
/// the caller keys the log as a game of its own: a part left out could merge distinct games).
pub(super) fn game_key<G: Registered>(log: &Log<G::Action>) -> Option<Digest> {
    let h = &log.header;
    let options: Options =
        G::rules(&h.ruleset, &h.options).map(|r| G::options(&r)).unwrap_or_else(|_| h.options.clone());
    let commitment = h.seed.as_ref().map(|s| s.commitment()).or(h.commitment);
    let mut hasher = blake3::Hasher::new_derive_key(CONTEXT);
    feed(&mut hasher, &(&h.game, &h.ruleset, &options, &h.seats, &commitment))?;
    for r in &log.records {
        feed(&mut hasher, &(r.seat, &r.action))?;
    }
    Some(Digest(*hasher.finalize().as_bytes()))
}

/// Hashes the postcard encoding of `value`; `None` when it does not encode.
fn feed(hasher: &mut blake3::Hasher, value: &impl serde::Serialize) -> Option<()> {
    postcard::to_io(value, hasher).ok().map(|_| ())
}

/// The game key of stored bytes: decoded by their game's engine; `None` when they do not
/// decode (bytes stored raw by an early version), whose game is then their own digest.
pub(super) fn game_key_of_bytes(bytes: &[u8]) -> Option<Digest> {
    struct Key<'a>(&'a [u8]);
    impl paifu_core::games::Visitor for Key<'_> {
        type Output = Option<Digest>;
        fn visit<G: Registered>(self) -> Option<Digest> {
            let (log, _) = paifu_core::log::decode::<G::Action>(self.0).ok()?;
            game_key::<G>(&log)
        }
    }
    let header = paifu_core::log::read_header(bytes).ok()?;
    paifu_core::games::by_name(&header.game, Key(bytes)).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value whose encoding fails.
    struct Unencodable;
    impl serde::Serialize for Unencodable {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no"))
        }
    }

    #[test]
    fn a_part_that_does_not_encode_makes_no_key() {
        let mut h = blake3::Hasher::new_derive_key(CONTEXT);
        assert_eq!(feed(&mut h, &Unencodable), None);
        assert_eq!(feed(&mut h, &("riichi", 3u8)), Some(()));
    }
}
