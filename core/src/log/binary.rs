//! The binary encoding: the magic, then length-prefixed postcard frames (header, records...).

use super::{check_version, Action, Header, Log, Record};
use crate::error::{ErrorCode, Fault};
use postcard::ser_flavors::Flavor;

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
pub(crate) fn encode_binary<A: Action>(log: &Log<A>) -> Vec<u8> {
    let mut out = Vec::new();
    write_binary_header(&log.header, &mut out);
    for r in &log.records {
        write_frame(r, &mut out);
    }
    out
}

/// Appends the start of a binary log to `out`: the magic and the header's frame.
pub(super) fn write_binary_header(header: &Header, out: &mut Vec<u8>) {
    out.extend_from_slice(MAGIC);
    write_frame(header, out);
}

/// Appends `value`'s frame to `out`: its length, then its postcard bytes.
pub(super) fn write_frame<T: serde::Serialize>(value: &T, out: &mut Vec<u8>) {
    // Serializing these types cannot fail.
    let len = postcard::experimental::serialized_size(value).unwrap_or(0);
    put_varint(out, len as u64);
    let _ = postcard::to_io(value, &mut *out);
}

/// A postcard output that compares what is written with `expected` instead of keeping it:
/// encoding a value through it tells whether the value encodes to exactly `expected`, without
/// a buffer, and stops at the first byte that differs.
struct SameAs<'a>(&'a [u8]);

impl Flavor for SameAs<'_> {
    /// Whether all of `expected` was written.
    type Output = bool;

    fn try_push(&mut self, byte: u8) -> postcard::Result<()> {
        match self.0.split_first() {
            Some((&b, rest)) if b == byte => {
                self.0 = rest;
                Ok(())
            }
            _ => Err(postcard::Error::SerializeBufferFull),
        }
    }

    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        match self.0.strip_prefix(data) {
            Some(rest) => {
                self.0 = rest;
                Ok(())
            }
            None => Err(postcard::Error::SerializeBufferFull),
        }
    }

    fn finalize(self) -> postcard::Result<bool> {
        Ok(self.0.is_empty())
    }
}

/// Whether the postcard encoding of `value` is exactly `bytes`.
pub(super) fn encodes_to<T: serde::Serialize + ?Sized>(value: &T, bytes: &[u8]) -> bool {
    matches!(postcard::serialize_with_flavor(value, SameAs(bytes)), Ok(true))
}

/// Whether `frame` may hold an overlong varint. A varint is overlong exactly when its last
/// byte, the one without the continuation bit, is 00 while a byte with the continuation bit
/// comes before it: so every overlong varint puts a byte >= 0x80 right before a 00 byte, and a
/// frame without such a pair holds none. (Other bytes can make such a pair too, a raw `u8` of
/// 0x80 before a varint 0 for example: those frames are only checked the long way.)
pub(super) fn may_hold_overlong_varint(frame: &[u8]) -> bool {
    frame.windows(2).any(|w| w[0] >= 0x80 && w[1] == 0)
}

/// Whether `frame`, from which `value` was decoded with nothing left over, is its canonical
/// encoding. `plain` says that the value's type encodes back to the bytes it was decoded from
/// unless a varint was overlong (see [`Action::CANONICAL_UNLESS_OVERLONG`]): then a frame
/// without the mark of an overlong varint is canonical as it stands, and only the others are
/// encoded again to be compared.
fn is_canonical<T: serde::Serialize>(value: &T, frame: &[u8], plain: bool) -> bool {
    (plain && !may_hold_overlong_varint(frame)) || encodes_to(value, frame)
}

/// Decodes a frame, which must be the canonical encoding of what it holds (minimal varints,
/// sorted unique map keys, sets in ascending order), so that one log has one binary form.
/// `plain` is as for [`is_canonical`].
fn decode_frame<T: serde::de::DeserializeOwned + serde::Serialize>(
    frame: &[u8],
    what: &str,
    plain: bool,
) -> Result<T, Fault> {
    match postcard::take_from_bytes::<T>(frame) {
        Ok((v, [])) => {
            if !is_canonical(&v, frame, plain) {
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

/// Decodes one record frame as [`decode_frame`] does (`what` names it in errors).
fn decode_record<A: Action>(frame: &[u8], what: &str) -> Result<Record<A>, Fault> {
    decode_frame(frame, what, A::CANONICAL_UNLESS_OVERLONG)
}

/// The record a frame holds if [`decode_record`] accepts it, without building an error when it
/// does not: the common case of the decoding loop.
fn try_decode_record<A: Action>(frame: &[u8]) -> Option<Record<A>> {
    // Record and Claim hold integers, an optional claim and optional lists only: they encode
    // back exactly unless a varint was overlong, so the action type decides whether the quick
    // check is enough.
    match postcard::take_from_bytes::<Record<A>>(frame) {
        Ok((r, [])) => is_canonical(&r, frame, A::CANONICAL_UNLESS_OVERLONG).then_some(r),
        _ => None,
    }
}

/// The record a frame holds: decoded, in canonical form, its claim of a plausible size. `what`
/// names the record for errors (called only for one: the failing step is run again with it,
/// both steps being deterministic).
pub(super) fn record_of_frame<A: Action>(frame: &[u8], what: &dyn Fn() -> String) -> Result<Record<A>, Fault> {
    let r: Record<A> = match try_decode_record(frame) {
        Some(r) => r,
        None => {
            let name = what();
            let e = decode_record::<A>(frame, &name).err();
            return Err(e.unwrap_or_else(|| Fault::new(ErrorCode::BadEncoding, name)));
        }
    };
    if r.claim.as_ref().is_some_and(|c| !c.is_bounded()) {
        return Err(Fault::new(ErrorCode::BadEncoding, format!("{}: a claim lists more than 8 seats", what())));
    }
    Ok(r)
}

/// The header a header frame holds, its version checked first.
pub(super) fn header_of_frame(h: &[u8]) -> Result<Header, Fault> {
    // The version is the first field, so it can be checked before the rest is trusted.
    if let Ok((v, _)) = postcard::take_from_bytes::<u32>(h) {
        if v > super::FORMAT_VERSION {
            check_version(&Header { paifu: v, ..empty_header() })?;
        }
    }
    // The header has maps (options, meta): always the full canonical check.
    let header: Header = decode_frame(h, "the header", false)?;
    check_version(&header)?;
    Ok(header)
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use crate::log::Chain;
    use crate::log::{Claim, Options};
    use crate::random::Seed;
    use crate::replay::{validate_bytes, Verdict};
    use crate::Game;

    /// A game played with random legal actions, its claims written as a scorekeeper writes them.
    pub(crate) fn random_log<G: Game>(ruleset: &str, seats: usize, seed: &str) -> Log<G::Action> {
        let seed = Seed::from_text(seed);
        let rules = G::rules(ruleset, &Options::new()).unwrap();
        let mut game = G::new(rules.clone(), seats, Some(&seed)).unwrap();
        let names = (0..seats).map(|i| format!("seat {i}")).collect();
        let header = Header::new(G::KIND.name(), ruleset, G::options(&rules), names, seed);
        let mut pick = seed.stream("test/pick");
        let mut records = Vec::new();
        while !game.is_over() && records.len() < 20_000 {
            let seat = game.to_act().iter().next().unwrap();
            let legal = game.legal_actions(seat);
            let action = legal[pick.below(legal.len() as u64) as usize].clone();
            let before = game.results().len();
            game.play_mut(seat, &action).unwrap();
            let mut claim =
                game.results()[before..].last().map(|r| Claim { round: Some(r.deltas.clone()), final_scores: None });
            if game.is_over() {
                claim.get_or_insert_with(Claim::default).final_scores = Some(game.scores());
            }
            records.push(Record { seq: records.len() as u32, seat, action, claim });
        }
        assert!(game.is_over(), "the random game does not end");
        Log { header, records }
    }

    /// The frames of a binary file: the header's, then the records'.
    fn frames_of(bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut pos = MAGIC.len();
        let mut out = Vec::new();
        while pos < bytes.len() {
            let (len, used) = varint(&bytes[pos..]);
            pos += used;
            out.push(bytes[pos..pos + len].to_vec());
            pos += len;
        }
        out
    }

    /// A varint at the start of `bytes`: its value and its length.
    fn varint(bytes: &[u8]) -> (usize, usize) {
        let mut v = 0;
        for (i, b) in bytes.iter().enumerate() {
            v |= usize::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return (v, i + 1);
            }
        }
        panic!("a varint that does not end")
    }

    /// A binary file made of these frames.
    fn file_of(frames: &[Vec<u8>]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for f in frames {
            put_varint(&mut out, f.len() as u64);
            out.extend_from_slice(f);
        }
        out
    }

    /// `bytes` with the varint starting at `at` written one byte longer (same value): its last
    /// byte gets the continuation bit and a 00 byte follows. `None` if no varint ends there.
    fn overlong_at(bytes: &[u8], at: usize) -> Option<Vec<u8>> {
        let len = bytes.get(at..)?.iter().position(|b| b & 0x80 == 0)? + 1;
        let mut out = bytes[..at + len].to_vec();
        *out.last_mut()? |= 0x80;
        out.push(0);
        out.extend_from_slice(&bytes[at + len..]);
        Some(out)
    }

    /// What the binary reader must decide for a record frame, found the long way: it decodes
    /// to a record with nothing left over and the record encodes to exactly these bytes.
    fn canonical_the_long_way<A: Action>(frame: &[u8]) -> bool {
        match postcard::take_from_bytes::<Record<A>>(frame) {
            Ok((r, [])) => postcard::to_stdvec(&r).unwrap() == frame,
            _ => false,
        }
    }

    #[test]
    fn a_minimal_varint_never_looks_overlong_and_an_overlong_one_always_does() {
        let mut values: Vec<u64> = (0..=1000).collect();
        for shift in 0..64 {
            let p = 1u64 << shift;
            values.extend([p - 1, p, p + 1, p.wrapping_mul(3)]);
        }
        values.push(u64::MAX);
        for v in values {
            let minimal = postcard::to_stdvec(&v).unwrap();
            assert!(!may_hold_overlong_varint(&minimal), "{v}: {minimal:02x?}");
            // Every longer form of the same value, up to the 10 bytes of a u64.
            let mut long = minimal.clone();
            while long.len() < 10 {
                long = overlong_at(&long, 0).unwrap();
                assert_eq!(postcard::from_bytes::<u64>(&long).unwrap(), v, "{long:02x?}");
                assert!(may_hold_overlong_varint(&long), "{v}: {long:02x?}");
                // Also inside other bytes.
                let inside = [&[0x80u8, 0x00, 0x7f][..], &long, &[0xff]].concat();
                assert!(may_hold_overlong_varint(&inside));
            }
        }
    }

    /// The quick check (no re-encoding for frames without the mark of an overlong varint) and
    /// encoding again agree: on every record of real games, and on many frames made from them by
    /// changing, inserting and dropping bytes and lengthening varints.
    fn quick_and_long_checks_agree<A: Action>(log: &Log<A>, label: &str) {
        assert!(A::CANONICAL_UNLESS_OVERLONG);
        let frames: Vec<Vec<u8>> = log.records.iter().map(|r| postcard::to_stdvec(r).unwrap()).collect();
        let mut quick = 0;
        for f in &frames {
            assert!(try_decode_record::<A>(f).is_some());
            assert!(canonical_the_long_way::<A>(f));
            quick += usize::from(!may_hold_overlong_varint(f));
        }
        // Most real records take the quick way (a u8 of 0x80 or more before a 00 is rare).
        assert!(quick * 10 > frames.len() * 9, "{label}: {quick} of {}", frames.len());
        let mut s = Seed::from_text(label).stream("mutations");
        let (mut decoded_not_canonical, mut marked_canonical) = (0, 0);
        for _ in 0..20_000 {
            let mut m = frames[s.below(frames.len() as u64) as usize].clone();
            for _ in 0..=s.below(2) {
                let at = s.below(m.len() as u64 + 1) as usize;
                match s.below(4) {
                    0 if at < m.len() => m[at] = s.below(256) as u8,
                    1 => m.insert(at, s.below(256) as u8),
                    2 if at < m.len() => drop(m.remove(at)),
                    _ => m = overlong_at(&m, at).unwrap_or(m),
                }
            }
            let long = canonical_the_long_way::<A>(&m);
            assert_eq!(try_decode_record::<A>(&m).is_some(), long, "{label}: {m:02x?}");
            assert_eq!(decode_record::<A>(&m, "record").is_ok(), long, "{label}: {m:02x?}");
            let decodes = matches!(postcard::take_from_bytes::<Record<A>>(&m), Ok((_, [])));
            decoded_not_canonical += usize::from(decodes && !long);
            marked_canonical += usize::from(long && may_hold_overlong_varint(&m));
        }
        // Both ways were exercised: frames refused only by the canonical check, and canonical
        // frames that had to be encoded again.
        assert!(decoded_not_canonical > 100, "{label}: {decoded_not_canonical}");
        assert!(marked_canonical > 0, "{label}");
    }

    #[test]
    fn the_quick_canonical_check_agrees_with_encoding_again() {
        use crate::{riichi::Riichi, tayu::Tayu, tzq::Tzq};
        for i in 0..3 {
            quick_and_long_checks_agree(&random_log::<Riichi>("standard", 4, &format!("agree riichi {i}")), "riichi");
            quick_and_long_checks_agree(&random_log::<Tzq>("standard", 2, &format!("agree tzq {i}")), "tzq");
            quick_and_long_checks_agree(&random_log::<Tayu>("standard", 3, &format!("agree tayu {i}")), "tayu");
        }
    }

    /// Lengthens every varint of records `which` in turn (and anything else whose lengthening
    /// decodes to the same record): each such file is refused as not canonical at that record,
    /// with the header still reported. Answers the positions that were lengthened, by record.
    fn overlong_refused_at_its_record<A: Action>(log: &Log<A>, which: &[usize]) -> Vec<Vec<usize>> {
        let bytes = encode_binary(log);
        let frames = frames_of(&bytes);
        assert_eq!(frames.len(), log.records.len() + 1);
        assert!(validate_bytes(&bytes).verdict.is_valid());
        let mut hits = Vec::new();
        for &k in which {
            let frame = &frames[k + 1];
            let mut positions = Vec::new();
            for at in 0..frame.len() {
                let mut long = frame.clone();
                for extra in 1..=2 {
                    let Some(l) = overlong_at(&long, at) else { break };
                    long = l;
                    match postcard::take_from_bytes::<Record<A>>(&long) {
                        Ok((r, [])) if r == log.records[k] => {}
                        _ => break,
                    }
                    if extra == 1 {
                        positions.push(at);
                    }
                    let mut fs = frames.clone();
                    fs[k + 1] = long.clone();
                    let report = validate_bytes(&file_of(&fs));
                    let Verdict::Invalid(f) = &report.verdict else { panic!("record {k}, byte {at}: accepted") };
                    assert_eq!((f.code, f.index), (ErrorCode::BadEncoding, Some(k)), "{}", f.describe());
                    assert!(f.message.contains(&format!("record {k} is not in canonical form")), "{}", f.message);
                    assert_eq!((report.records, report.digest), (k, None));
                    assert_eq!(report.header.as_ref(), Some(&log.header));
                }
            }
            hits.push(positions);
        }
        hits
    }

    /// A frame's length written with a needless extra byte (`85 00` for 5) is a second binary
    /// form of the same log: refused, at the header or at the record whose length it is.
    #[test]
    fn an_overlong_frame_length_is_refused() {
        let log = random_log::<crate::tzq::Tzq>("standard", 2, "overlong length");
        let frames: Vec<Vec<u8>> = std::iter::once(postcard::to_stdvec(&log.header).unwrap())
            .chain(log.records.iter().map(|r| postcard::to_stdvec(r).unwrap()))
            .collect();
        let write = |overlong: Option<usize>| {
            let mut out = MAGIC.to_vec();
            for (i, f) in frames.iter().enumerate() {
                let mut len = Vec::new();
                put_varint(&mut len, f.len() as u64);
                if overlong == Some(i) {
                    *len.last_mut().unwrap() |= 0x80;
                    len.push(0);
                }
                out.extend_from_slice(&len);
                out.extend_from_slice(f);
            }
            out
        };
        assert!(validate_bytes(&write(None)).verdict.is_valid());
        let header = validate_bytes(&write(Some(0)));
        let f = header.verdict.fault().unwrap();
        assert_eq!(f.code, ErrorCode::BadEncoding, "{f:?}");
        assert!(f.message.contains("overlong"), "{f:?}");
        for k in [0, log.records.len() / 2, log.records.len() - 1] {
            let r = validate_bytes(&write(Some(k + 1)));
            let f = r.verdict.fault().unwrap();
            assert_eq!((f.code, f.index), (ErrorCode::BadEncoding, Some(k)), "{f:?}");
            assert!(r.digest.is_none());
        }
    }

    #[test]
    fn an_overlong_number_anywhere_in_a_record_is_refused_at_that_record() {
        use crate::{riichi::Riichi, tayu::Tayu, tzq::Tzq};
        let log = random_log::<Riichi>("standard", 4, "overlong riichi");
        let last = log.records.len() - 1;
        // A record in the middle that ends a round: its claim lists the score changes.
        let mid = log.records.iter().position(|r| r.claim.is_some()).unwrap();
        assert!(0 < mid && mid < last);
        assert!(last >= 128, "seq needs two bytes at the end");
        let hits = overlong_refused_at_its_record(&log, &[0, mid, last]);
        for (k, positions) in [0, mid, last].into_iter().zip(&hits) {
            let r = &log.records[k];
            let frame = postcard::to_stdvec(r).unwrap();
            let seq_len = postcard::to_stdvec(&r.seq).unwrap().len();
            let action_at = seq_len + 1;
            let claim_at = action_at + postcard::to_stdvec(&r.action).unwrap().len();
            // The start of the frame (seq), the middle (the action's variant), the end.
            assert!(positions.contains(&0), "record {k}: {positions:?}");
            assert!(positions.contains(&action_at), "record {k}: {positions:?}");
            if let Some(c) = &r.claim {
                // The claim: some, round present, the list's length, then the deltas.
                let deltas = c.round.as_ref().unwrap();
                assert!(positions.contains(&(claim_at + 2)), "record {k}: {positions:?}");
                let mut at = claim_at + 3;
                for d in deltas {
                    assert!(positions.contains(&at), "record {k}: delta at {at}: {positions:?}");
                    at += postcard::to_stdvec(d).unwrap().len();
                }
                if let Some(fin) = &c.final_scores {
                    // `final`: present, length, scores; the last one ends the frame.
                    assert!(positions.contains(&(at + 1)), "record {k}: {positions:?}");
                    at += 2;
                    for s in fin {
                        assert!(positions.contains(&at), "record {k}: final at {at}: {positions:?}");
                        at += postcard::to_stdvec(s).unwrap().len();
                    }
                }
                assert_eq!(at, frame.len() - usize::from(c.final_scores.is_none()));
            }
        }
        assert!(log.records[last].claim.as_ref().is_some_and(|c| c.final_scores.is_some()));

        // TZQ; Ta Yü with three players, whose bids are varints inside the action.
        let log = random_log::<Tzq>("standard", 2, "overlong tzq");
        overlong_refused_at_its_record(&log, &[0, log.records.len() / 2, log.records.len() - 1]);
        let log = random_log::<Tayu>("standard", 3, "overlong tayu");
        let bid = log.records.iter().position(|r| matches!(r.action, crate::tayu::Action::Bid(_))).unwrap();
        let hits = overlong_refused_at_its_record(&log, &[bid, log.records.len() - 1]);
        let seq_len = postcard::to_stdvec(&log.records[bid].seq).unwrap().len();
        assert!(hits[0].contains(&(seq_len + 2)), "the bid: {:?}", hits[0]);
    }

    #[test]
    fn the_header_link_from_the_frame_is_the_header_link() {
        use crate::digest::Digest;
        let seed = Seed::from_text("header link");
        let mut options = Options::new();
        options.insert("aka".into(), crate::log::OptValue::Int(3));
        options.insert("kuitan".into(), crate::log::OptValue::Bool(false));
        let base = Header::new("riichi", "standard", options, vec!["a".into(), "b".into()], seed);
        let mut headers = vec![base.clone()];
        let mut h = base.clone();
        h.commitment = None;
        headers.push(h);
        let mut h = base.clone();
        h.commitment = Some(Digest([7; 32]));
        headers.push(h);
        let mut h = base.clone();
        h.seed = None;
        headers.push(h.clone());
        h.commitment = None;
        headers.push(h);
        let mut h = base.clone();
        h.meta.insert("event".into(), "club night".into());
        h.meta.insert("table".into(), "3".into());
        h.source = Some(crate::log::Source { format: "mjai".into(), id: "x".into(), digest: Digest([1; 32]) });
        headers.push(h.clone());
        h.seed = None;
        headers.push(h);
        for h in &headers {
            let frame = postcard::to_stdvec(h).unwrap();
            let want = Chain::new(h).digest();
            assert_eq!(Chain::from_frame(h, &frame).digest(), want, "{h:?}");
            if h.seed.is_some() {
                // A frame without the seed where the header puts it: the header is encoded.
                assert_eq!(Chain::from_frame(h, &frame[..frame.len() - 1]).digest(), want);
                assert_eq!(Chain::from_frame(h, &[]).digest(), want);
            }
            let log = Log::<crate::riichi::Action> { header: h.clone(), records: vec![] };
            let (_, _, d) = crate::log::decode_with_digest::<crate::riichi::Action>(&encode_binary(&log)).unwrap();
            assert_eq!(d, want);
        }
    }
}
