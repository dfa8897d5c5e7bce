//! The binary encoding: the magic, then length-prefixed postcard frames (header, records...).

use super::{check_version, Action, Chain, Header, Log, Record, MAX_ITEM_BYTES};
use crate::digest::Digest;
use crate::error::{ErrorCode, Fault};

/// The first eight bytes of every binary log.
pub const MAGIC: &[u8; 8] = b"PAIFULOG";

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Encodes a log: MAGIC, then for the header and each record a LEB128 length and the postcard
/// bytes.
pub fn encode_binary<A: Action>(log: &Log<A>) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    let frame = |out: &mut Vec<u8>, bytes: Vec<u8>| {
        put_varint(out, bytes.len() as u64);
        out.extend_from_slice(&bytes);
    };
    frame(&mut out, postcard::to_stdvec(&log.header).unwrap_or_default());
    for r in &log.records {
        frame(&mut out, postcard::to_stdvec(r).unwrap_or_default());
    }
    out
}

struct Frames<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Frames<'a> {
    /// The next frame; `None` at a clean end. `what` names the frame for errors.
    fn next(&mut self, what: &str) -> Result<Option<&'a [u8]>, Fault> {
        if self.pos == self.bytes.len() {
            return Ok(None);
        }
        let start = self.pos;
        let mut len: u64 = 0;
        let mut shift = 0;
        loop {
            let Some(&b) = self.bytes.get(self.pos) else {
                return Err(Fault::new(
                    ErrorCode::Truncated,
                    format!("the file ends inside the length of {what} (byte {start})"),
                ));
            };
            self.pos += 1;
            if shift > 28 {
                return Err(Fault::new(
                    ErrorCode::BadEncoding,
                    format!("the length of {what} at byte {start} is not a valid varint"),
                ));
            }
            len |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        if len > MAX_ITEM_BYTES as u64 {
            return Err(Fault::new(
                ErrorCode::BadEncoding,
                format!("{what} at byte {start} claims {len} bytes, more than the 1 MiB limit"),
            ));
        }
        let end = self.pos.saturating_add(len as usize);
        if end > self.bytes.len() {
            return Err(Fault::new(
                ErrorCode::Truncated,
                format!(
                    "the file ends inside {what}: {len} bytes announced at byte {start}, {} present",
                    self.bytes.len() - self.pos
                ),
            ));
        }
        let frame = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(Some(frame))
    }
}

/// Decodes a frame, which must be the canonical encoding of what it holds (minimal varints,
/// sorted unique map keys, sets in ascending order), so that one log has one binary form.
fn decode_frame<T: serde::de::DeserializeOwned + serde::Serialize>(frame: &[u8], what: &str) -> Result<T, Fault> {
    match postcard::take_from_bytes::<T>(frame) {
        Ok((v, [])) => {
            // Re-encode into a stack buffer (a frame longer than it goes through a vector).
            let mut buf = [0u8; 128];
            let canonical = if frame.len() < buf.len() {
                postcard::to_slice(&v, &mut buf).ok().map(|b| &*b == frame)
            } else {
                postcard::to_stdvec(&v).ok().map(|b| b == frame)
            };
            if canonical != Some(true) {
                return Err(Fault::new(
                    ErrorCode::BadEncoding,
                    format!("{what} is not in canonical form (overlong number, unsorted or repeated map key)"),
                ));
            }
            Ok(v)
        }
        Ok((_, rest)) => {
            Err(Fault::new(ErrorCode::BadEncoding, format!("{what} has {} stray bytes at its end", rest.len())))
        }
        Err(postcard::Error::SerdeDeCustom) => Err(Fault::new(
            ErrorCode::BadEncoding,
            format!("{what} holds a value its type does not allow (a card code outside the deck, the cards of a set not in ascending order, ...)"),
        )),
        Err(e) => Err(Fault::new(ErrorCode::BadEncoding, format!("{what} cannot be decoded: {e}"))),
    }
}

fn start(bytes: &[u8]) -> Result<(Frames<'_>, Header), Fault> {
    if !bytes.starts_with(MAGIC) {
        return Err(Fault::new(
            ErrorCode::BadEncoding,
            "not a binary Paifu log: the file does not start with PAIFULOG",
        ));
    }
    let mut frames = Frames { bytes, pos: MAGIC.len() };
    let Some(h) = frames.next("the header")? else {
        return Err(Fault::new(ErrorCode::Truncated, "the file ends after the magic, before the header"));
    };
    // The version is the first field, so it can be checked before the rest is trusted.
    if let Ok((v, _)) = postcard::take_from_bytes::<u32>(h) {
        if v > super::FORMAT_VERSION {
            check_version(&Header { paifu: v, ..empty_header() })?;
        }
    }
    let header: Header = decode_frame(h, "the header")?;
    check_version(&header)?;
    Ok((frames, header))
}

pub(super) fn empty_header() -> Header {
    Header {
        paifu: 0,
        game: String::new(),
        ruleset: String::new(),
        options: Default::default(),
        engine: String::new(),
        seats: vec![],
        seed: None,
        commitment: None,
        source: None,
        meta: Default::default(),
    }
}

/// Reads the header only.
pub fn read_binary_header(bytes: &[u8]) -> Result<Header, Fault> {
    start(bytes).map(|(_, h)| h)
}

/// Reads a whole binary log.
pub fn decode_binary<A: Action>(bytes: &[u8]) -> Result<Log<A>, Fault> {
    decode_binary_chained(bytes, false).map(|(log, _)| log)
}

/// Reads a whole binary log and, when `digest` is set, computes its digest on the way: a frame
/// is accepted only in canonical form, so its bytes are the postcard encoding the record chain
/// hashes and the records need not be encoded again.
pub(super) fn decode_binary_chained<A: Action>(bytes: &[u8], digest: bool) -> Result<(Log<A>, Option<Digest>), Fault> {
    let (mut frames, header) = start(bytes)?;
    let mut chain = digest.then(|| Chain::new(&header));
    let mut records = Vec::new();
    loop {
        let index = records.len();
        // The record's name is only written out for an error: the failing step is run again
        // with it (both steps are deterministic).
        let what = || format!("record {index}");
        let at = frames.pos;
        let f = match frames.next("") {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(_) => {
                frames.pos = at;
                let e = frames.next(&what()).err();
                return Err(e.unwrap_or_else(|| Fault::new(ErrorCode::BadEncoding, what())).at_index(index));
            }
        };
        let r: Record<A> = match decode_frame(f, "") {
            Ok(r) => r,
            Err(_) => {
                let e = decode_frame::<Record<A>>(f, &what()).err();
                return Err(e.unwrap_or_else(|| Fault::new(ErrorCode::BadEncoding, what())).at_index(index));
            }
        };
        if r.claim.as_ref().is_some_and(|c| !c.is_bounded()) {
            return Err(Fault::new(ErrorCode::BadEncoding, format!("{}: a claim lists more than 8 seats", what()))
                .at_index(index));
        }
        if let Some(c) = &mut chain {
            c.push_bytes(f);
        }
        records.push(r);
    }
    Ok((Log { header, records }, chain.map(|c| c.digest())))
}
