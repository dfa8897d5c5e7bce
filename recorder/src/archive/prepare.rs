//! Validating and re-encoding a log before it is stored: pure computation, no database, so
//! many logs can be prepared in parallel and stored by one writer.

use paifu_core::games::{self, Registered, Visitor};
use paifu_core::log::{self, Encoding, Header};
use paifu_core::replay::{validate_log, Report};
use paifu_core::{Digest, Fault, Verdict};

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

fn raw(bytes: &[u8], header: Option<Header>, records: usize, verdict: Verdict) -> Prepared {
    Prepared {
        digest: Digest(*blake3::hash(bytes).as_bytes()),
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
/// as a raw [`Prepared`] carrying the fault.
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
            digest,
            digest_kind: DigestKind::Log,
            header: Some(header),
            stored,
            form: StoredForm::Binary,
            size: bytes.len(),
            records,
            verdict,
        },
    }
}
