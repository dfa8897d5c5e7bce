//! Paifu's core: tiles and cards, one rules engine per game behind one interface ([`Game`]),
//! the log format ([`log`]), the seeded random stream ([`random`]), replay and validation
//! ([`replay`]), digests and certificates ([`cert`]).
//!
//! No I/O happens here: every function takes bytes or values and returns values or typed
//! errors, and no input makes it panic.

pub mod cert;
pub mod digest;
pub mod error;
pub mod game;
pub mod games;
pub mod hungarian;
pub mod log;
pub mod mahjong;
pub mod random;
pub mod replay;
pub mod riichi;
pub mod tayu;
pub mod tzq;

pub use digest::Digest;
pub use error::{ErrorCode, Fault, Violation};
pub use game::{Fact, FactKey, Game, GameKind, PlayError, RoundResult, Seat, SeatSet, SetupError};
pub use log::{Claim, Encoding, Header, Log, Record};
pub use random::{Seed, Stream};
pub use replay::{validate_bytes, Outcome, Report, Verdict};

/// The engine name and version written into logs and certificates.
pub const ENGINE: &str = concat!("paifu-core ", env!("CARGO_PKG_VERSION"));
