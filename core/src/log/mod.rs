//! The log: a header and a sequence of records, in two encodings with one digest.
//!
//! See docs/log-format.md for the specification. JSON Lines (`.paifu.jsonl`) is the readable
//! form; the binary form (`.paifu`) is postcard frames. Both decode to the same [`Log`], and the
//! digest is computed from the postcard encoding of the decoded values, so it does not depend on
//! which encoding was read.

mod binary;
mod jsonl;
mod read;

pub use binary::MAGIC;
pub use jsonl::{header_line, json_object, record_line, write_record_line};
pub use read::{read_jsonl_header, LogReader, ReadError};

use binary::encode_binary;
use jsonl::encode_jsonl;

#[cfg(test)]
pub(crate) use binary::tests::random_log;
#[cfg(test)]
pub(crate) mod plain;

use crate::digest::{context, Digest};
use crate::error::{ErrorCode, Fault};
use crate::incident::{Incident, IncidentError};
use crate::random::Seed;
use blake3::hazmat::ContextKey;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt::{Debug, Display};
use std::str::FromStr;
use std::sync::OnceLock;

/// The log format version this Paifu writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;

/// The longest JSON line or binary frame Paifu accepts (1 MiB): nothing legitimate comes close,
/// and a limit keeps a hostile file from exhausting memory.
pub const MAX_ITEM_BYTES: usize = 1 << 20;

/// A game action as it is written in logs: readable notation in JSON Lines (Display/FromStr),
/// serde's derived compact form in the binary encoding.
pub trait Action:
    Clone + Debug + Display + FromStr<Err = NotationError> + PartialEq + Serialize + DeserializeOwned
{
    /// Whether every value this type decodes from postcard bytes encodes back to those same
    /// bytes unless one of its varints was overlong (a number written with more bytes than it
    /// needs). The binary reader then finds a record's frame canonical by looking for the
    /// trace an overlong varint leaves in it instead of encoding the record again.
    ///
    /// Set it only for a type built, all the way down, of integers, `bool`s, strings, options,
    /// unit, structs, tuples, fixed arrays, lists (`Vec`) and enums of these, where any
    /// conversion on reading (`try_from`, `deserialize_with`) either refuses a value or keeps
    /// it as it is. Not with a map, a set or any collection that sorts or drops what it reads,
    /// a `char` (postcard reads the first character of a longer string), a float, or `flatten`.
    /// The default, `false`, keeps the full check: encode again and compare.
    const CANONICAL_UNLESS_OVERLONG: bool = false;

    /// The incident this action records, when it is the game's `Incident` variant.
    fn incident(&self) -> Option<&Incident>;

    /// The game's action recording `incident` (its `Incident` variant).
    fn from_incident(incident: Incident) -> Self;

    /// The action of a notation given as printable ASCII bytes, read without a UTF-8 check where
    /// the engine has a quick reading of its common notations (riichi has); `None` sends the
    /// notation to `FromStr`, which reads every notation and says why one is none. Where this
    /// answers, it must answer what `FromStr` would.
    fn from_ascii_notation(_notation: &[u8]) -> Option<Self> {
        None
    }

    /// Appends the notation (`Display`'s text) to `out`. An engine may write it straight, without
    /// `fmt` (riichi does: every record line of an imported log is written by it).
    fn write_notation(&self, out: &mut Vec<u8>) {
        struct Into<'a>(&'a mut Vec<u8>);
        impl std::fmt::Write for Into<'_> {
            fn write_str(&mut self, s: &str) -> std::fmt::Result {
                self.0.extend_from_slice(s.as_bytes());
                Ok(())
            }
        }
        // Writing into a Vec cannot fail.
        let _ = std::fmt::Write::write_fmt(&mut Into(out), format_args!("{self}"));
    }
}

impl From<IncidentError> for NotationError {
    fn from(e: IncidentError) -> NotationError {
        NotationError(e.to_string())
    }
}

/// The words of an action's notation, split at whitespace without allocating (reading a record
/// allocates nothing): `match words(s).as_slice() { ["discard", t] => ... }`.
pub(crate) fn words(s: &str) -> Words<'_> {
    if s.is_ascii() {
        // What `split_whitespace` splits at, in ASCII: tab, line feed, vertical tab, form feed,
        // carriage return and space.
        return words_of(s.split(|c: char| matches!(c, '\t'..='\r' | ' ')).filter(|w| !w.is_empty()));
    }
    words_of(s.split_whitespace())
}

fn words_of<'a>(each: impl Iterator<Item = &'a str>) -> Words<'a> {
    let mut w = Words { words: [""; Words::MAX], len: 0 };
    for word in each {
        match w.words.get_mut(w.len) {
            Some(slot) => *slot = word,
            // More words than any notation has: no pattern matches the empty list.
            None => {
                w.len = 0;
                return w;
            }
        }
        w.len += 1;
    }
    w
}

/// The words of a notation (see [`words`]).
pub(crate) struct Words<'a> {
    words: [&'a str; Words::MAX],
    len: usize,
}

impl<'a> Words<'a> {
    /// More words than the longest notation has (TZQ's chow, 7).
    const MAX: usize = 8;

    /// The words, or none at all when there were more than any notation has.
    pub(crate) fn as_slice(&self) -> &[&'a str] {
        &self.words[..self.len]
    }
}

/// An action string that is not valid notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotationError(pub String);

/// A ruleset option value: `true`, `2`, or `"text"` in JSON.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum OptValue {
    Bool(bool),
    Int(i64),
    Text(String),
}

impl Display for OptValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptValue::Bool(b) => write!(f, "{b}"),
            OptValue::Int(i) => write!(f, "{i}"),
            OptValue::Text(t) => write!(f, "{t:?}"),
        }
    }
}

#[derive(Serialize, Deserialize)]
enum OptRepr {
    Bool(bool),
    Int(i64),
    Text(String),
}

impl Serialize for OptValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            match self {
                OptValue::Bool(b) => s.serialize_bool(*b),
                OptValue::Int(i) => s.serialize_i64(*i),
                OptValue::Text(t) => s.serialize_str(t),
            }
        } else {
            match self {
                OptValue::Bool(b) => OptRepr::Bool(*b),
                OptValue::Int(i) => OptRepr::Int(*i),
                OptValue::Text(t) => OptRepr::Text(t.clone()),
            }
            .serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for OptValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = OptValue;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a boolean, an integer or a string")
            }
            fn visit_bool<E>(self, v: bool) -> Result<OptValue, E> {
                Ok(OptValue::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<OptValue, E> {
                Ok(OptValue::Int(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<OptValue, E> {
                i64::try_from(v).map(OptValue::Int).map_err(|_| E::custom("integer option out of range"))
            }
            fn visit_str<E>(self, v: &str) -> Result<OptValue, E> {
                Ok(OptValue::Text(v.to_owned()))
            }
        }
        if d.is_human_readable() {
            d.deserialize_any(V)
        } else {
            Ok(match OptRepr::deserialize(d)? {
                OptRepr::Bool(b) => OptValue::Bool(b),
                OptRepr::Int(i) => OptValue::Int(i),
                OptRepr::Text(t) => OptValue::Text(t),
            })
        }
    }
}

pub type Options = BTreeMap<String, OptValue>;

/// Reads a map refusing duplicate keys (serde's own maps keep the last silently), and in JSON
/// reads `null` as empty.
fn unique_map<'de, D, V>(d: D) -> Result<BTreeMap<String, V>, D::Error>
where
    D: Deserializer<'de>,
    V: Deserialize<'de>,
{
    struct Visit<V>(std::marker::PhantomData<V>);
    impl<'de, V: Deserialize<'de>> serde::de::Visitor<'de> for Visit<V> {
        type Value = BTreeMap<String, V>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a map with unique keys")
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(BTreeMap::new())
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(BTreeMap::new())
        }
        fn visit_map<M: serde::de::MapAccess<'de>>(self, mut m: M) -> Result<Self::Value, M::Error> {
            let mut out = BTreeMap::new();
            while let Some((k, v)) = m.next_entry::<String, V>()? {
                if out.contains_key(&k) {
                    return Err(serde::de::Error::custom(format!("duplicate key {k:?}")));
                }
                out.insert(k, v);
            }
            Ok(out)
        }
    }
    if d.is_human_readable() {
        d.deserialize_any(Visit(std::marker::PhantomData))
    } else {
        d.deserialize_map(Visit(std::marker::PhantomData))
    }
}

/// Where an imported game came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// The source format, for example `tenhou6` or `mjai`.
    pub format: String,
    /// The game's id in its source.
    pub id: String,
    /// blake3 of the source file's bytes.
    pub digest: Digest,
}

/// The first item of every log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Format version; in JSON Lines the key `paifu` also marks the file as a Paifu log.
    pub paifu: u32,
    /// Game kind: `tzq`, `riichi`, `mcr`, `hungarian`, `tayu`.
    pub game: String,
    /// Ruleset name, for example `standard`.
    pub ruleset: String,
    /// Options that differ from or restate the ruleset's defaults.
    #[serde(default, deserialize_with = "unique_map")]
    pub options: Options,
    /// The engine that wrote the log, `paifu-core 0.1.0`.
    pub engine: String,
    /// One name per seat, in seat order.
    pub seats: Vec<String>,
    /// The seed, once it is revealed.
    #[serde(default)]
    pub seed: Option<Seed>,
    /// blake3 commitment to the seed, published before the game ends.
    #[serde(default)]
    pub commitment: Option<Digest>,
    /// For imported games: where from.
    #[serde(default)]
    pub source: Option<Source>,
    /// Free metadata: event, table, round, date, ...
    #[serde(default, deserialize_with = "unique_map")]
    pub meta: BTreeMap<String, String>,
}

impl Header {
    /// A header for a new seeded game with the seed revealed.
    pub fn new(game: &str, ruleset: &str, options: Options, seats: Vec<String>, seed: Seed) -> Header {
        Header {
            paifu: FORMAT_VERSION,
            game: game.to_owned(),
            ruleset: ruleset.to_owned(),
            options,
            engine: crate::ENGINE.to_owned(),
            seats,
            seed: Some(seed),
            commitment: Some(seed.commitment()),
            source: None,
            meta: BTreeMap::new(),
        }
    }

    /// The header as the digest sees it: the seed itself is left out and only its commitment
    /// counts, so revealing the seed after the game does not change the log's digest.
    pub fn canonical(&self) -> Header {
        let mut h = self.clone();
        if let Some(seed) = h.seed.take() {
            h.commitment = Some(seed.commitment());
        }
        h
    }

    /// Checks the seed against its commitment.
    pub fn check_seed(&self) -> Result<(), Fault> {
        if let (Some(seed), Some(c)) = (&self.seed, &self.commitment) {
            if seed.commitment() != *c {
                return Err(Fault::new(
                    ErrorCode::SeedCommitmentMismatch,
                    format!("the seed {} does not match the commitment {} published for this game", seed, c),
                ));
            }
        }
        Ok(())
    }
}

/// Results written into the log by whoever kept score at the table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// Each seat's score change for the round that ends with this record.
    #[serde(default)]
    pub round: Option<Vec<i64>>,
    /// Each seat's final score, on the record that ends the game.
    #[serde(default, rename = "final")]
    pub final_scores: Option<Vec<i64>>,
}

impl Claim {
    /// The longest list a claim may hold (no game seats more than 8).
    pub(crate) const MAX_SEATS: usize = 8;

    /// Whether both lists are of a plausible length.
    pub(crate) fn is_bounded(&self) -> bool {
        self.round.as_ref().is_none_or(|v| v.len() <= Self::MAX_SEATS)
            && self.final_scores.as_ref().is_none_or(|v| v.len() <= Self::MAX_SEATS)
    }
}

/// One decision: who, what, and optionally the results claimed after it.
///
/// Apart from the action it holds integers and an optional [`Claim`] of optional lists only,
/// so its binary form is canonical unless a varint is overlong whenever its action's is (see
/// [`Action::CANONICAL_UNLESS_OVERLONG`]): keep it that way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "A: Action", deserialize = "A: Action"))]
pub struct Record<A> {
    pub seq: u32,
    pub seat: u8,
    pub action: A,
    pub claim: Option<Claim>,
}

/// A whole log.
#[derive(Clone, Debug, PartialEq)]
pub struct Log<A> {
    pub header: Header,
    pub records: Vec<Record<A>>,
}

/// Where each record came from in its file, for error messages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Positions {
    /// 1-based line of each record in a JSON Lines file; empty for binary.
    pub lines: Vec<usize>,
}

impl Positions {
    pub fn line_of(&self, index: usize) -> Option<usize> {
        self.lines.get(index).copied()
    }
}

/// The running record chain.
#[derive(Clone, Debug)]
pub struct Chain {
    link: Digest,
    buf: Vec<u8>,
    /// A hasher for records (derive-key mode with the record context), reset for each one.
    hasher: blake3::Hasher,
}

/// A context hashed once for blake3's derive-key mode (what `Digest::derive` does each time).
fn context_key(context: &'static str, cell: &'static OnceLock<ContextKey>) -> &'static ContextKey {
    cell.get_or_init(|| blake3::hazmat::hash_derive_key_context(context))
}

fn record_key() -> &'static ContextKey {
    static KEY: OnceLock<ContextKey> = OnceLock::new();
    context_key(context::RECORD, &KEY)
}

fn header_key() -> &'static ContextKey {
    static KEY: OnceLock<ContextKey> = OnceLock::new();
    context_key(context::HEADER, &KEY)
}

/// blake3 in derive-key mode with the header context over `parts`: `Digest::derive(context::HEADER, parts)`.
fn header_digest(parts: &[&[u8]]) -> Digest {
    use blake3::hazmat::HasherExt;
    let mut h = blake3::Hasher::new_from_context_key(header_key());
    for p in parts {
        h.update(p);
    }
    Digest(*h.finalize().as_bytes())
}

impl Chain {
    pub fn new(header: &Header) -> Chain {
        let bytes = postcard::to_stdvec(&header.canonical()).unwrap_or_default();
        Chain::at(header_digest(&[&bytes]))
    }

    /// A chain whose last link is `link`.
    fn at(link: Digest) -> Chain {
        use blake3::hazmat::HasherExt;
        Chain { link, buf: Vec::new(), hasher: blake3::Hasher::new_from_context_key(record_key()) }
    }

    /// The same as `Chain::new(header)` for a header decoded from `frame`, which must be its
    /// postcard encoding (the binary reader accepts a header frame only if it is): the canonical
    /// header's bytes are taken from the frame instead of encoding a copy of the header. (Only
    /// the seed's place in the frame is checked: if the seed is not there, the header is
    /// encoded after all.)
    pub(crate) fn from_frame(header: &Header, frame: &[u8]) -> Chain {
        match header_link_from_frame(header, frame) {
            Some(link) => Chain::at(link),
            None => Chain::new(header),
        }
    }

    /// Chains one record given as its postcard bytes (which must be the record's canonical
    /// encoding, as `push` would write it); answers the record's digest.
    pub(crate) fn push_bytes(&mut self, bytes: &[u8]) -> Digest {
        let h = self.hasher.reset();
        let mut small = [0u8; 128];
        if let Some(rest) = small.get_mut(32..32 + bytes.len()) {
            rest.copy_from_slice(bytes);
            small[..32].copy_from_slice(&self.link.0);
            h.update(&small[..32 + bytes.len()]);
        } else {
            h.update(&self.link.0);
            h.update(bytes);
        }
        self.link = Digest(*h.finalize().as_bytes());
        self.link
    }

    /// Chains one record; answers the record's digest.
    pub fn push<A: Action>(&mut self, record: &Record<A>) -> Digest {
        // The same as `Digest::derive(context::RECORD, &[&self.link.0, &postcard bytes])`; short
        // records are serialized on the stack.
        let h = self.hasher.reset();
        let mut small = [0u8; 128];
        small[..32].copy_from_slice(&self.link.0);
        match postcard::to_slice(record, &mut small[32..]) {
            Ok(b) => {
                let n = b.len();
                h.update(&small[..32 + n]);
            }
            Err(_) => {
                self.buf.clear();
                // Serializing into a Vec cannot fail for these types.
                let _ = postcard::to_io(record, &mut self.buf);
                h.update(&self.link.0);
                h.update(&self.buf);
            }
        }
        self.link = Digest(*h.finalize().as_bytes());
        self.link
    }

    pub fn digest(&self) -> Digest {
        self.link
    }
}

/// The header link (`Chain::new(header).digest()`) of a header whose postcard encoding is
/// `frame`, hashing the canonical header's bytes from the frame; `None` if the seed is not where
/// the header's encoding puts it (the caller then encodes the canonical header itself).
///
/// Without a seed the canonical header is the header: its encoding is the frame. With one, the
/// two encodings differ only in the `seed` and `commitment` fields, which come right before
/// `source` and `meta` (the end of the frame): the frame has `01` and the 32 seed bytes, then the
/// commitment as written (`00`, or `01` and 32 bytes); the canonical header has `00` (no seed),
/// then `01` and the seed's commitment.
fn header_link_from_frame(header: &Header, frame: &[u8]) -> Option<Digest> {
    let Some(seed) = &header.seed else {
        return Some(header_digest(&[frame]));
    };
    let tail_len = postcard::experimental::serialized_size(&(&header.source, &header.meta)).ok()?;
    let commitment_len = if header.commitment.is_some() { 33 } else { 1 };
    let seed_at = frame.len().checked_sub(tail_len + commitment_len + 33)?;
    let (head, rest) = frame.split_at(seed_at);
    let (seed_field, rest) = rest.split_at(33);
    if seed_field[0] != 1 || seed_field[1..] != seed.0 || rest.len() != commitment_len + tail_len {
        return None;
    }
    let mut middle = [0u8; 34];
    middle[1] = 1;
    middle[2..].copy_from_slice(&seed.commitment().0);
    Some(header_digest(&[head, &middle, &rest[commitment_len..]]))
}

impl<A: Action> Log<A> {
    /// The log digest: the last link of the chain.
    pub fn digest(&self) -> Digest {
        let mut c = Chain::new(&self.header);
        for r in &self.records {
            c.push(r);
        }
        c.digest()
    }

    /// Every record's digest, in order.
    pub fn chain(&self) -> Vec<Digest> {
        let mut c = Chain::new(&self.header);
        self.records.iter().map(|r| c.push(r)).collect()
    }
}

/// Which encoding a file is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    JsonLines,
    Binary,
}

impl Encoding {
    /// Recognises the encoding from the first bytes.
    pub fn sniff(bytes: &[u8]) -> Encoding {
        if bytes.starts_with(MAGIC) {
            Encoding::Binary
        } else {
            Encoding::JsonLines
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Encoding::JsonLines => "paifu.jsonl",
            Encoding::Binary => "paifu",
        }
    }
}

/// Reads the header, whatever the encoding, and keeps the rest to read: see [`LogReader`].
pub fn open(bytes: &[u8]) -> Result<LogReader<&[u8]>, Fault> {
    LogReader::open(bytes).map_err(ReadError::into_fault)
}

/// Reads only the header, whatever the encoding.
pub fn read_header(bytes: &[u8]) -> Result<Header, Fault> {
    open(bytes).map(LogReader::into_header)
}

/// Reads every record of an opened log, with their lines (JSON Lines) and the digest.
fn read_all<A: Action, R: std::io::BufRead>(
    reader: &mut LogReader<R>,
) -> Result<(Vec<Record<A>>, Positions, Digest), ReadError> {
    let mut records = Vec::new();
    let mut pos = Positions::default();
    while let Some(r) = reader.next_record()? {
        records.push(r);
        pos.lines.extend(reader.line());
    }
    Ok((records, pos, reader.digest()))
}

/// Decodes a log of a known action type, whatever the encoding.
pub fn decode<A: Action>(bytes: &[u8]) -> Result<(Log<A>, Positions), Fault> {
    decode_with_digest(bytes).map(|(log, pos, _)| (log, pos))
}

/// Decodes a log of a known action type, whatever the encoding, and computes its digest (the
/// same as [`Log::digest`]; from a binary file without encoding the records again).
pub fn decode_with_digest<A: Action>(bytes: &[u8]) -> Result<(Log<A>, Positions, Digest), Fault> {
    let mut reader = open(bytes)?;
    let (records, pos, digest) = read_all(&mut reader).map_err(ReadError::into_fault)?;
    Ok((Log { header: reader.into_header(), records }, pos, digest))
}

/// Encodes a log.
pub fn encode<A: Action>(log: &Log<A>, encoding: Encoding) -> Vec<u8> {
    match encoding {
        Encoding::Binary => encode_binary(log),
        Encoding::JsonLines => encode_jsonl(log),
    }
}

/// Appends the start of a log in `encoding` to `out`: for a log written a record at a time
/// ([`write_record`] after), the same bytes as [`encode`] writes.
pub fn write_header(header: &Header, encoding: Encoding, out: &mut Vec<u8>) {
    match encoding {
        Encoding::Binary => binary::write_binary_header(header, out),
        Encoding::JsonLines => out.extend_from_slice(header_line(header).as_bytes()),
    }
}

/// Appends one record in `encoding` to `out` (see [`write_header`]).
pub fn write_record<A: Action>(record: &Record<A>, encoding: Encoding, out: &mut Vec<u8>) {
    match encoding {
        Encoding::Binary => binary::write_frame(record, out),
        Encoding::JsonLines => write_record_line(record, out),
    }
}

pub(crate) fn check_version(h: &Header) -> Result<(), Fault> {
    if h.paifu > FORMAT_VERSION || h.paifu == 0 {
        return Err(Fault::new(
            ErrorCode::UnsupportedVersion,
            format!("log format version {} is not one this Paifu reads (it reads 1 to {FORMAT_VERSION})", h.paifu),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::Tile;
    use crate::riichi::Action;

    #[test]
    fn digest_computed_while_decoding_matches_the_log_digest() {
        let seed = Seed::from_text("chain while decoding");
        let header = Header::new("riichi", "standard", Options::new(), vec!["a".into(); 4], seed);
        let t = |k| Tile::kind_tile(k);
        let long = Claim { round: Some(vec![i64::MIN; 8]), final_scores: Some(vec![i64::MAX; 8]) };
        let records = vec![
            Record { seq: 0, seat: 0, action: Action::discard(t(3)), claim: None },
            Record { seq: 1, seat: 1, action: Action::Pass, claim: Some(Claim::default()) },
            // Longer than the stack buffer: hashed in two updates.
            Record { seq: 2, seat: 2, action: Action::deal([t(0); 13]), claim: Some(long) },
            Record {
                seq: 3,
                seat: 3,
                action: Action::Ron,
                claim: Some(Claim { round: Some(vec![1, -1]), ..Default::default() }),
            },
        ];
        let log = Log { header, records };
        for e in [Encoding::Binary, Encoding::JsonLines] {
            let bytes = encode(&log, e);
            let (back, _, digest) = decode_with_digest::<Action>(&bytes).unwrap();
            assert_eq!(back, log);
            assert_eq!(digest, log.digest(), "{e:?}");
        }
        assert!(postcard::to_stdvec(&log.records[2]).unwrap().len() > 96);
    }

    #[test]
    fn the_plain_walk_finds_maps_chars_and_floats() {
        use super::plain::Plain;
        let header = Header::new("tzq", "standard", Options::new(), vec![], Seed::from_text("plain"));
        assert!(header.serialize(Plain).is_err());
        assert!('x'.serialize(Plain).is_err() && 1.5f64.serialize(Plain).is_err());
    }
}
