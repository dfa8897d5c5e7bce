//! Validating and re-encoding a log before it is stored: pure computation, no database, so
//! many logs can be prepared in parallel and stored by one writer.

use paifu_core::games::{self, Registered, Visitor};
use paifu_core::log::{self, Encoding, Header};
use paifu_core::replay::{validate_log, Report};
use paifu_core::{replay::Verdict, Digest, Fault};

use super::game_key::game_key;
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
    /// The log digest (the record chain, which leaves a revealed seed out): what certificates
    /// name.
    pub digest: Digest,
    pub digest_kind: DigestKind,
    /// The game key (see `game_key.rs`): entries of one game share it, whatever bytes that do
    /// not change the game (a source file's spacing, `meta`, claims) tell them apart.
    pub game_key: Digest,
    pub header: Option<Header>,
    /// The bytes to store (see `form`).
    pub stored: Vec<u8>,
    pub form: StoredForm,
    /// Size of the bytes given.
    pub size: usize,
    /// Records kept (and judged again: the stored log's verdict is the verdict of what is
    /// stored).
    pub records: usize,
    /// Records of an invalid log not kept, past [`KEEP_AFTER_FAULT_BYTES`] after its fault.
    pub dropped: usize,
    pub verdict: Verdict,
}

/// How much of an invalid log is kept past its fault: every record up to the fault's (a fault
/// in the header is before record 0), then records while their binary encoding (each record's
/// frame: its length and its bytes) adds at most this many bytes (64 KiB: a whole riichi game is about 6 KiB, so a log refused at its header,
/// such as one waiting for its seed, keeps every record of a real game). The rest is counted
/// (`dropped`), not stored.
pub const KEEP_AFTER_FAULT_BYTES: usize = 64 << 10;

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
        game_key: identity_of(bytes),
        header,
        stored: bytes.to_vec(),
        form: StoredForm::Raw,
        size: bytes.len(),
        records,
        dropped: 0,
        verdict,
    }
}

/// How many records of a log invalid at `fault` (a record's index, `None` for its header) are
/// kept: every record up to the fault's, then records while they add at most
/// [`KEEP_AFTER_FAULT_BYTES`] bytes.
fn records_kept<A: paifu_core::log::Action>(records: &[paifu_core::log::Record<A>], fault: Option<usize>) -> usize {
    let mut keep = fault.map_or(0, |i| i.saturating_add(1)).min(records.len());
    let mut added = 0usize;
    for r in &records[keep..] {
        // As the binary encoding stores it: a LEB128 length, then the postcard bytes.
        let size = postcard::experimental::serialized_size(r).unwrap_or(usize::MAX / 4);
        added += size + (usize::BITS - size.leading_zeros()).div_ceil(7).max(1) as usize;
        if added > KEEP_AFTER_FAULT_BYTES {
            break;
        }
        keep += 1;
    }
    keep
}

/// What the engine's pass over a log gives.
enum Judged {
    /// The log as it is stored: digest, binary encoding, records, verdict, header, game key.
    Whole(Box<(Digest, Vec<u8>, usize, Verdict, Header, Digest)>),
    /// An invalid log too long past its fault: the binary encoding of the part kept, and how
    /// many records were left out.
    Cut(Vec<u8>, usize),
}

/// Decodes, validates and re-encodes one log. Never fails: bytes that are not a log come back
/// as a raw [`Prepared`] carrying the fault, which the archive refuses to store
/// ([`Prepared::refusal`]). An invalid log is kept up to a little past its fault (see
/// [`KEEP_AFTER_FAULT_BYTES`]): what is stored is then that part, judged again, so that its
/// identity, digest, verdict and certificates are those of the bytes kept.
pub fn prepare(bytes: &[u8]) -> Prepared {
    prepare_pass(bytes, true)
}

fn prepare_pass(bytes: &[u8], may_cut: bool) -> Prepared {
    let header = match log::read_header(bytes) {
        Ok(h) => h,
        Err(f) => return raw(bytes, None, 0, Verdict::Invalid(f)),
    };
    struct Prepare<'a>(&'a [u8], bool);
    impl Visitor for Prepare<'_> {
        type Output = Result<Judged, (usize, Fault)>;
        fn visit<G: Registered>(self) -> Self::Output {
            let (mut log, pos) = log::decode::<G::Action>(self.0).map_err(|f| (f.index.unwrap_or(0), f))?;
            // An imported log is judged against the source it embeds, as `paifu validate` does
            // (an imported riichi log in the same pass as its replay: replayed once).
            let verdict = checked_against_source(&log.header, self.0, || validate_log::<G>(&log, &pos));
            if let (true, Some(fault)) = (self.1, verdict.fault()) {
                let keep = records_kept(&log.records, fault.index);
                if keep < log.records.len() {
                    let dropped = log.records.len() - keep;
                    log.records.truncate(keep);
                    return Ok(Judged::Cut(log::encode(&log, Encoding::Binary), dropped));
                }
            }
            // A log whose key does not encode is a game of its own (keyed by its digest).
            let digest = log.digest();
            let key = game_key::<G>(&log).unwrap_or(digest);
            Ok(Judged::Whole(Box::new((
                digest,
                log::encode(&log, Encoding::Binary),
                log.records.len(),
                verdict,
                log.header,
                key,
            ))))
        }
    }
    match games::by_name(&header.game, Prepare(bytes, may_cut)) {
        // The game has no engine here: keep the bytes with the fault.
        Err(f) => raw(bytes, Some(header), 0, Verdict::Invalid(f)),
        Ok(Err((records, f))) => raw(bytes, Some(header), records, Verdict::Invalid(f)),
        Ok(Ok(Judged::Cut(kept, dropped))) => {
            let mut p = prepare_pass(&kept, false);
            p.size = bytes.len();
            p.dropped = dropped;
            p
        }
        Ok(Ok(Judged::Whole(whole))) => {
            let (digest, stored, records, verdict, header, game_key) = *whole;
            Prepared {
                verdict,
                identity: identity_of(&stored),
                digest,
                digest_kind: DigestKind::Log,
                game_key,
                header: Some(header),
                stored,
                form: StoredForm::Binary,
                size: bytes.len(),
                records,
                dropped: 0,
            }
        }
    }
}
