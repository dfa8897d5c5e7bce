//! Validating and re-encoding a log before it is stored: pure computation, no database, so
//! many logs can be prepared in parallel and stored by one writer.

use paifu_core::games::{self, Registered, Visitor};
use paifu_core::log::{self, Encoding, Header};
use paifu_core::replay::{validate_log, Report};
use paifu_core::{replay::Verdict, Digest, Fault};

use super::names::{check_name, NameError, NameKind};
use crate::import::source::checked_against_source;

/// What a stored log is keyed by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DigestKind {
    /// The log digest (the record chain): the same game in either encoding has the same one.
    Log,
    /// blake3 of the bytes, for bytes that could not be decoded as a log.
    Bytes,
}

impl DigestKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DigestKind::Log => "log",
            DigestKind::Bytes => "bytes",
        }
    }
}

/// In which form the bytes are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoredForm {
    /// The binary encoding of the decoded log.
    Binary,
    /// The bytes as they were given (they could not be decoded).
    Raw,
}

impl StoredForm {
    pub fn as_str(self) -> &'static str {
        match self {
            StoredForm::Binary => "binary",
            StoredForm::Raw => "raw",
        }
    }
}

/// A log validated and ready to store.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The archive's identity of the entry: blake3 of the stored bytes, which for a log are its
    /// binary encoding (canonical, whichever encoding it came in): the header with the seed as
    /// revealed, every record and every claim. Whatever the validator reads is in it.
    pub identity: Digest,
    /// The game digest (the record chain, which leaves a revealed seed out): entries of one
    /// game share it.
    pub digest: Digest,
    pub digest_kind: DigestKind,
    pub header: Option<Header>,
    /// The bytes to store (see `form`).
    pub stored: Vec<u8>,
    pub form: StoredForm,
    /// Size of the bytes given.
    pub size: usize,
    /// Records decoded.
    pub records: usize,
    pub verdict: Verdict,
}

impl Prepared {
    /// The validator's report, as certificates take it.
    pub fn report(&self) -> Report {
        Report {
            header: self.header.clone(),
            digest: (self.digest_kind == DigestKind::Log).then_some(self.digest),
            records: self.records,
            verdict: self.verdict.clone(),
        }
    }
}

/// Why the archive refuses to store something it was given.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// The bytes are not a Paifu log this Paifu can read (no header, a record that does not
    /// decode, a game it does not know): there is nothing to replay, so nothing to store.
    #[error("not a readable Paifu log: {}", .0.describe())]
    NotALog(Fault),
    /// A seat's name is not one the archive keeps.
    #[error("seat {seat}: {error}")]
    PlayerName { seat: usize, error: NameError },
}

impl Refusal {
    /// The fault behind a [`Refusal::NotALog`].
    pub fn fault(&self) -> Option<&Fault> {
        match self {
            Refusal::NotALog(f) => Some(f),
            Refusal::PlayerName { .. } => None,
        }
    }
}

impl Prepared {
    /// Why the archive would refuse this log, if it would: bytes that are not a readable log,
    /// or a seat name that [`check_name`] refuses. A log that decodes is stored whatever its
    /// verdict.
    pub fn refusal(&self) -> Option<Refusal> {
        if self.form == StoredForm::Raw {
            return Some(Refusal::NotALog(
                self.verdict.fault().cloned().unwrap_or_else(|| {
                    Fault::new(paifu_core::ErrorCode::BadEncoding, "the bytes could not be decoded")
                }),
            ));
        }
        let seats = self.header.as_ref().map_or(&[][..], |h| &h.seats[..]);
        seats.iter().enumerate().find_map(|(seat, name)| {
            check_name(NameKind::Player, name).err().map(|error| Refusal::PlayerName { seat, error })
        })
    }
}

/// The identity of stored bytes (see [`Prepared::identity`]).
pub fn identity_of(stored: &[u8]) -> Digest {
    Digest(*blake3::hash(stored).as_bytes())
}

fn raw(bytes: &[u8], header: Option<Header>, records: usize, verdict: Verdict) -> Prepared {
    Prepared {
        identity: identity_of(bytes),
        digest: identity_of(bytes),
        digest_kind: DigestKind::Bytes,
        header,
        stored: bytes.to_vec(),
        form: StoredForm::Raw,
        size: bytes.len(),
        records,
        verdict,
    }
}

/// Decodes, validates and re-encodes one log. Never fails: bytes that are not a log come back
/// as a raw [`Prepared`] carrying the fault, which the archive refuses to store
/// ([`Prepared::refusal`]).
pub fn prepare(bytes: &[u8]) -> Prepared {
    let header = match log::read_header(bytes) {
        Ok(h) => h,
        Err(f) => return raw(bytes, None, 0, Verdict::Invalid(f)),
    };
    struct Prepare<'a>(&'a [u8]);
    impl Visitor for Prepare<'_> {
        type Output = Result<(Digest, Vec<u8>, usize, Verdict, Header), (usize, Fault)>;
        fn visit<G: Registered>(self) -> Self::Output {
            let (log, pos) = log::decode::<G::Action>(self.0).map_err(|f| (f.index.unwrap_or(0), f))?;
            let verdict = validate_log::<G>(&log, &pos);
            Ok((log.digest(), log::encode(&log, Encoding::Binary), log.records.len(), verdict, log.header))
        }
    }
    let typed = games::by_name(&header.game, Prepare(bytes));
    match typed {
        // The game has no engine here: keep the bytes with the fault.
        Err(f) => raw(bytes, Some(header), 0, Verdict::Invalid(f)),
        Ok(Err((records, f))) => raw(bytes, Some(header), records, Verdict::Invalid(f)),
        Ok(Ok((digest, stored, records, verdict, header))) => Prepared {
            // An imported log is judged against the source it embeds, as `paifu validate` does.
            verdict: checked_against_source(&header, bytes, verdict),
            identity: identity_of(&stored),
            digest,
            digest_kind: DigestKind::Log,
            header: Some(header),
            stored,
            form: StoredForm::Binary,
            size: bytes.len(),
            records,
        },
    }
}
