//! Paifu's core: tiles and cards, one rules engine per game behind one interface ([`Game`]),
//! the log format ([`log`]), the seeded random stream ([`Stream`]), replay and validation
//! ([`replay`]), digests and certificates ([`cert`]), tournament manifests ([`manifest`]).
//!
//! No I/O happens here: every function takes bytes or values and returns values or typed
//! errors, and no input makes it panic.

pub mod cert;
mod digest;
mod error;
pub mod fair;
mod game;
pub mod games;
pub mod hungarian;
mod incident;
pub mod log;
pub mod mahjong;
pub mod manifest;
pub mod mcr;
mod random;
pub mod replay;
pub mod riichi;
#[cfg(test)]
mod seat_views;
pub mod tayu;
pub mod tzq;

// The vocabulary every engine and every crate shares lives at the root; the modules behind it
// are private, so that each item has one path.
pub use digest::{BadHex, Digest};
pub use error::{ErrorCode, Fault, Violation};
pub use game::{
    placements_by_score, Excerpt, Fact, FactKey, Game, GameKind, PlayError, RoundResult, Seat, SeatSet, SetupError,
};
pub use incident::{Detail, Incident, IncidentError, IncidentKind, MAX_DETAIL};
pub use random::{Seed, Stream};

/// The engine name and version written into logs and certificates.
pub const ENGINE: &str = concat!("paifu-core ", env!("CARGO_PKG_VERSION"));
