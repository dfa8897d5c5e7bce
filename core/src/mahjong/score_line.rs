//! What every ruleset's `paifu score` line protocol shares (riichi, MCR, Hungarian): one JSON object
//! in; one out with the input's `id`, `ok`, and either the ruleset's own fields or a stable
//! `error` code and a `message`.
//!
//! Two readings of a line. The reference ([`answer`]) reads it as a `serde_json` value and checks
//! each field in turn, for messages that say what is wrong. A ruleset may also read it the quick
//! way ([`answer_typed`]): straight into a struct of borrowed fields, nothing allocated, for the
//! lines a calculator mostly gets; a line it cannot read so (a field of another type, an escape in
//! a string, a rare field) goes to the reference. Both write the answer with the same code, and
//! each ruleset's tests check that both readings answer every line alike.

use super::tile::for_each_tile;
use super::Tile;
use crate::log::NotationError;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// A hand that cannot be scored: a stable code (`bad_input`, `invalid_tiles`, ...) and what is
/// wrong.
pub(crate) struct LineError {
    pub(crate) code: &'static str,
    /// Borrowed when the message is fixed text (nothing formatted or allocated: a riichi
    /// calculator refuses two hands in five for want of a yaku).
    pub(crate) message: Cow<'static, str>,
}

pub(crate) fn err(code: &'static str, message: impl Into<Cow<'static, str>>) -> LineError {
    LineError { code, message: message.into() }
}

/// An answer's own fields, which follow `id` and `ok`: written as JSON members, each after a
/// comma (`,"han":3,"fu":30`), straight into the output.
pub(crate) trait Fields {
    fn write_fields(&self, out: &mut Vec<u8>);
}

/// Fields given as a JSON object (Hungarian's answer).
impl Fields for Map<String, Value> {
    fn write_fields(&self, out: &mut Vec<u8>) {
        let start = out.len();
        // Writing into a Vec cannot fail; a map writes as `{...}`: the opening brace becomes
        // the comma, the closing one goes.
        let _ = serde_json::to_writer(&mut *out, self);
        out.pop();
        if out.len() == start + 1 {
            out.pop();
        } else {
            out[start] = b',';
        }
    }
}

/// Appends `s` as a JSON string: as it is between quotes when nothing in it needs an escape
/// (the names of yaku and fan), else escaped by serde_json.
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    if s.bytes().all(|b| (0x20..0x80).contains(&b) && b != b'"' && b != b'\\') {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        // Writing into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

/// Appends an integer.
#[inline]
pub(crate) fn write_int(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Appends `,"key":` (`key` needs no escape).
#[inline]
pub(crate) fn write_key(out: &mut Vec<u8>, key: &str) {
    out.extend_from_slice(b",\"");
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
}

/// Answers one input line (no newline) the reference way: `score` reads the object and gives the
/// answer's own fields, which follow `id` and `ok` in the output. Never panics.
pub(crate) fn answer<F: Fields>(line: &str, score: impl FnOnce(&Map<String, Value>) -> Result<F, LineError>) -> String {
    let mut out = Vec::new();
    answer_into(line, &mut out, score);
    // serde_json writes UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// [`answer`], appended to `out`; whether the hand was scored.
pub(crate) fn answer_into<F: Fields>(
    line: &str,
    out: &mut Vec<u8>,
    score: impl FnOnce(&Map<String, Value>) -> Result<F, LineError>,
) -> bool {
    let parsed: Result<Value, _> = serde_json::from_str(line);
    let (id, result) = match parsed {
        Err(e) => (Value::Null, Err(err("bad_input", format!("not JSON: {e}")))),
        Ok(Value::Object(obj)) => {
            let id = obj.get("id").cloned().unwrap_or(Value::Null);
            (id, score(&obj))
        }
        Ok(_) => (Value::Null, Err(err("bad_input", "the input must be one JSON object"))),
    };
    write_answer(out, &id, result)
}

/// Answers a line read the quick way, straight into `T` (see the module's notes), appended to
/// `out`: whether the hand was scored, or `None` (nothing written) when the line does not read
/// as a `T` or `score` declines it (answers `None`), for [`answer_into`] to answer.
pub(crate) fn answer_typed<'a, T: Deserialize<'a> + Identified<'a>, F: Fields>(
    line: &'a str,
    out: &mut Vec<u8>,
    score: impl FnOnce(&T) -> Option<Result<F, LineError>>,
) -> Option<bool> {
    // A struct reads from a JSON list too (its fields by position): only an object is read.
    if !line.trim_start().starts_with('{') {
        return None;
    }
    let input: T = serde_json::from_str(line).ok()?;
    let result = score(&input)?;
    Some(write_answer(out, &input.id(), result))
}

/// Answers a line the quick way ([`answer_typed`]) when it reads as a `T` and `quick` takes it,
/// else the reference way ([`answer_into`]), appended to `out`: whether the hand was scored.
pub(crate) fn answer_either<'a, T: Deserialize<'a> + Identified<'a>, F: Fields, G: Fields>(
    line: &'a str,
    out: &mut Vec<u8>,
    quick: impl FnOnce(&T) -> Option<Result<F, LineError>>,
    reference: impl FnOnce(&Map<String, Value>) -> Result<G, LineError>,
) -> bool {
    match answer_typed(line, out, quick) {
        Some(ok) => ok,
        None => answer_into(line, out, reference),
    }
}

/// A member's value as [`scan_object`] reads it: the few JSON values the usual line holds.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Plain<'a> {
    Null,
    Bool(bool),
    /// An integer written as plain digits, no sign, no fraction, no exponent, no leading zero.
    Count(u64),
    /// A string without escapes or control characters.
    Text(&'a str),
    /// A list of at most ten such strings.
    Texts(Texts<'a, 10>),
}

/// An input the scanner ([`scan_object`]) fills member by member: `member` takes one and
/// answers its key's bit (one bit of its own for each key it knows, for the scanner to see a key
/// given twice), or `None` when its key is unknown or its value of a type the quick reading
/// would not take.
pub(crate) trait Scanned<'a>: Default {
    fn member(&mut self, key: &'a str, value: Plain<'a>) -> Option<u32>;
}

/// For [`Scanned::member`]: stores a member's value in its field and answers the member's bit
/// (`1 << bit`); `None`, the field untouched, when the value is not of the field's type.
pub(crate) fn keep<T>(field: &mut T, value: Option<T>, bit: u32) -> Option<u32> {
    *field = value?;
    Some(1 << bit)
}

/// Where the text of a JSON string that starts at `start` stops: the first `"`, `\\` or
/// control character (below 0x20) at or after `start`, `None` when there is none. Eight bytes
/// are looked at a time: a string's text is a few bytes to a few dozen, and a byte at a time
/// was most of what the scan of a line cost.
fn string_stop(b: &[u8], start: usize) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    // The high bit of each byte of `x` below `n`: exact up to the first such byte (a borrow
    // can mark only the bytes after it), and the first is all that is used.
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let mut at = start;
    while let Some(chunk) = b.get(at..at + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let found = below(w ^ (ONES * u64::from(b'"')), 1) | below(w ^ (ONES * u64::from(b'\\')), 1) | below(w, 0x20);
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let rest = b.get(at..)?;
    rest.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20).map(|i| at + i)
}

/// Reads a line that is one JSON object of plain members ([`Plain`]) into `out` (a `T` as
/// `Default` makes it, filled where it lies: a riichi input is several hundred bytes, and
/// returning it moved it three times a line), a member at a time, without serde: `None` for any
/// other line (another value, an escape, a number with a sign or a fraction, a key twice, a key
/// `T` does not know, anything after the object), which
/// then goes to serde's quick reading and the reference reading as before. What it reads, it
/// reads as `serde_json` reads that object into `T` (the rulesets' tests check it on thousands of
/// lines): a hand-written scan of the usual line is about four times faster than serde's.
pub(crate) fn scan_object<'a, T: Scanned<'a>>(line: &'a str, out: &mut T) -> Option<()> {
    let b = line.as_bytes();
    let mut at = 0;
    let skip_ws = |at: &mut usize| {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(*at) {
            *at += 1;
        }
    };
    // A string without escapes: its text, and where it ends.
    let text = |at: &mut usize| -> Option<&'a str> {
        if b.get(*at) != Some(&b'"') {
            return None;
        }
        let start = *at + 1;
        let end = string_stop(b, start)?;
        if b[end] != b'"' {
            return None;
        }
        *at = end + 1;
        // The quotes are ASCII: the text between them is whole characters.
        line.get(start..end)
    };
    // The keys read so far, a bit each (`Scanned::member`).
    let mut seen = 0u32;
    skip_ws(&mut at);
    if b.get(at) != Some(&b'{') {
        return None;
    }
    at += 1;
    skip_ws(&mut at);
    if b.get(at) == Some(&b'}') {
        at += 1;
    } else {
        loop {
            let key = text(&mut at)?;
            skip_ws(&mut at);
            if b.get(at) != Some(&b':') {
                return None;
            }
            at += 1;
            skip_ws(&mut at);
            let value = match *b.get(at)? {
                b'"' => Plain::Text(text(&mut at)?),
                b't' if b[at..].starts_with(b"true") => {
                    at += 4;
                    Plain::Bool(true)
                }
                b'f' if b[at..].starts_with(b"false") => {
                    at += 5;
                    Plain::Bool(false)
                }
                b'n' if b[at..].starts_with(b"null") => {
                    at += 4;
                    Plain::Null
                }
                b'0'..=b'9' => {
                    let digits = b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
                    if digits > 1 && b[at] == b'0' {
                        return None;
                    }
                    let n = line.get(at..at + digits)?.parse::<u64>().ok()?;
                    at += digits;
                    Plain::Count(n)
                }
                b'[' => {
                    at += 1;
                    let mut list = Texts { items: [""; 10], len: 0 };
                    skip_ws(&mut at);
                    if b.get(at) == Some(&b']') {
                        at += 1;
                    } else {
                        loop {
                            let item = text(&mut at)?;
                            *list.items.get_mut(list.len)? = item;
                            list.len += 1;
                            skip_ws(&mut at);
                            match b.get(at)? {
                                b',' => {
                                    at += 1;
                                    skip_ws(&mut at);
                                }
                                b']' => {
                                    at += 1;
                                    break;
                                }
                                _ => return None,
                            }
                        }
                    }
                    Plain::Texts(list)
                }
                _ => return None,
            };
            // A literal or a number runs to the next delimiter (`truex`, `1.5` are not read).
            if !matches!(b.get(at), Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b'}')) {
                return None;
            }
            let bit = out.member(key, value)?;
            if seen & bit != 0 {
                return None;
            }
            seen |= bit;
            skip_ws(&mut at);
            match b.get(at)? {
                b',' => {
                    at += 1;
                    skip_ws(&mut at);
                }
                b'}' => {
                    at += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    skip_ws(&mut at);
    (at == b.len()).then_some(())
}

/// Answers a line read by [`scan_object`] when it reads so and `quick` takes it, else as
/// [`answer_either`] does (serde's quick reading, then the reference), appended to `out`:
/// whether the hand was scored.
pub(crate) fn answer_scanned<'a, T, F: Fields, G: Fields>(
    line: &'a str,
    out: &mut Vec<u8>,
    quick: impl Fn(&T) -> Option<Result<F, LineError>>,
    reference: impl FnOnce(&Map<String, Value>) -> Result<G, LineError>,
) -> bool
where
    T: Scanned<'a> + Deserialize<'a> + Identified<'a>,
{
    match answer_scan(line, out, &quick) {
        Some(ok) => ok,
        None => answer_either(line, out, quick, reference),
    }
}

/// Answers a line read by [`scan_object`], appended to `out`: whether the hand was scored, or
/// `None` (nothing written) when the line does not scan or `quick` declines it.
pub(crate) fn answer_scan<'a, T: Scanned<'a> + Identified<'a>, F: Fields>(
    line: &'a str,
    out: &mut Vec<u8>,
    quick: impl FnOnce(&T) -> Option<Result<F, LineError>>,
) -> Option<bool> {
    let mut input = T::default();
    scan_object(line, &mut input)?;
    let result = quick(&input)?;
    Some(write_answer(out, &input.id(), result))
}

/// The answer `write` appends to an empty buffer, as a string.
pub(crate) fn answer_string(write: impl FnOnce(&mut Vec<u8>) -> bool) -> String {
    let mut out = Vec::new();
    write(&mut out);
    // Answers are written from strings and numbers: UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// An input read the quick way: its `id`.
pub(crate) trait Identified<'a> {
    fn id(&self) -> Id<'a>;
}

/// Writes the answer: `{"id", "ok": true, the fields...}` or `{"id", "ok": false, "error",
/// "message"}`; whether it was the first.
fn write_answer<I: Serialize, F: Fields>(out: &mut Vec<u8>, id: &I, result: Result<F, LineError>) -> bool {
    out.extend_from_slice(b"{\"id\":");
    // Writing into a Vec cannot fail, nor can serializing a JSON value.
    let _ = serde_json::to_writer(&mut *out, id);
    match &result {
        Ok(fields) => {
            out.extend_from_slice(b",\"ok\":true");
            fields.write_fields(out);
        }
        Err(e) => {
            out.extend_from_slice(b",\"ok\":false,\"error\":");
            write_str(out, e.code);
            out.extend_from_slice(b",\"message\":");
            write_str(out, &e.message);
        }
    }
    out.push(b'}');
    result.is_ok()
}

/// An `id` read the quick way: absent or null, an integer, or a string without escapes (any
/// other `id` sends the line to the reference reading, which echoes every JSON value).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) enum Id<'a> {
    #[default]
    Null,
    Unsigned(u64),
    Signed(i64),
    Text(&'a str),
}

impl Serialize for Id<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Id::Null => s.serialize_unit(),
            Id::Unsigned(n) => s.serialize_u64(n),
            Id::Signed(n) => s.serialize_i64(n),
            Id::Text(t) => s.serialize_str(t),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Id<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Id<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("null, an integer or a plain string")
            }
            fn visit_unit<E>(self) -> Result<Id<'de>, E> {
                Ok(Id::Null)
            }
            fn visit_none<E>(self) -> Result<Id<'de>, E> {
                Ok(Id::Null)
            }
            fn visit_u64<E>(self, n: u64) -> Result<Id<'de>, E> {
                Ok(Id::Unsigned(n))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Id<'de>, E> {
                Ok(Id::Signed(n))
            }
            fn visit_borrowed_str<E>(self, t: &'de str) -> Result<Id<'de>, E> {
                Ok(Id::Text(t))
            }
        }
        d.deserialize_any(V)
    }
}

/// A field that must be a string when it is there (null is not its absence: the reference
/// reading refuses it), read the quick way: `None` when absent.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Given<'a>(pub(crate) Option<&'a str>);

impl<'de: 'a, 'a> Deserialize<'de> for Given<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <&'de str>::deserialize(d).map(|s| Given(Some(s)))
    }
}

/// A list of at most `N` strings without escapes, read the quick way (a longer list, or any
/// other item, sends the line to the reference reading).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Texts<'a, const N: usize> {
    items: [&'a str; N],
    len: usize,
}

impl<'a, const N: usize> Texts<'a, N> {
    pub(crate) fn as_slice(&self) -> &[&'a str] {
        &self.items[..self.len]
    }

    /// The same strings in a list of at most `M`; `None` when there are more.
    pub(crate) fn narrow<const M: usize>(&self) -> Option<Texts<'a, M>> {
        let mut t = Texts { items: [""; M], len: self.len };
        t.items.get_mut(..self.len)?.copy_from_slice(self.as_slice());
        Some(t)
    }
}

impl<'a> Plain<'a> {
    /// The value of an `id`: null, a count or a string.
    pub(crate) fn id(self) -> Option<Id<'a>> {
        match self {
            Plain::Null => Some(Id::Null),
            Plain::Count(n) => Some(Id::Unsigned(n)),
            Plain::Text(t) => Some(Id::Text(t)),
            _ => None,
        }
    }
    /// A field that must be a string ([`Given`]).
    pub(crate) fn given(self) -> Option<Given<'a>> {
        match self {
            Plain::Text(t) => Some(Given(Some(t))),
            _ => None,
        }
    }
    /// An optional true or false.
    pub(crate) fn flag(self) -> Option<Option<bool>> {
        match self {
            Plain::Null => Some(None),
            Plain::Bool(b) => Some(Some(b)),
            _ => None,
        }
    }
    /// An optional count.
    pub(crate) fn count(self) -> Option<Option<u64>> {
        match self {
            Plain::Null => Some(None),
            Plain::Count(n) => Some(Some(n)),
            _ => None,
        }
    }
    /// An optional string.
    pub(crate) fn text(self) -> Option<Option<&'a str>> {
        match self {
            Plain::Null => Some(None),
            Plain::Text(t) => Some(Some(t)),
            _ => None,
        }
    }
    /// An optional list of at most `N` strings.
    pub(crate) fn texts<const N: usize>(self) -> Option<Option<Texts<'a, N>>> {
        match self {
            Plain::Null => Some(None),
            Plain::Texts(t) => t.narrow().map(Some),
            _ => None,
        }
    }
    /// Optional tiles: a string or a list of at most ten ([`TileTexts`]).
    pub(crate) fn tile_texts(self) -> Option<Option<TileTexts<'a, 10>>> {
        match self {
            Plain::Null => Some(None),
            Plain::Text(t) => Some(Some(TileTexts::One(t))),
            Plain::Texts(t) => Some(Some(TileTexts::List(t))),
            _ => None,
        }
    }
}

impl<'de: 'a, 'a, const N: usize> Deserialize<'de> for Texts<'a, N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const N: usize>;
        impl<'de, const N: usize> serde::de::Visitor<'de> for V<N> {
            type Value = Texts<'de, N>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a list of at most {N} strings")
            }
            fn visit_seq<S: serde::de::SeqAccess<'de>>(self, mut seq: S) -> Result<Texts<'de, N>, S::Error> {
                let mut t = Texts { items: [""; N], len: 0 };
                while let Some(item) = seq.next_element::<&'de str>()? {
                    let Some(slot) = t.items.get_mut(t.len) else {
                        return Err(serde::de::Error::custom("too many items"));
                    };
                    *slot = item;
                    t.len += 1;
                }
                Ok(t)
            }
        }
        d.deserialize_seq(V::<N>)
    }
}

/// Tiles given as one string of compact notation or as a list of such strings (at most `N`),
/// read the quick way.
#[derive(Clone, Copy, Debug)]
pub(crate) enum TileTexts<'a, const N: usize> {
    One(&'a str),
    List(Texts<'a, N>),
}

impl<'de: 'a, 'a, const N: usize> Deserialize<'de> for TileTexts<'a, N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const N: usize>;
        impl<'de, const N: usize> serde::de::Visitor<'de> for V<N> {
            type Value = TileTexts<'de, N>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("tiles, or a list of tiles")
            }
            fn visit_borrowed_str<E>(self, t: &'de str) -> Result<TileTexts<'de, N>, E> {
                Ok(TileTexts::One(t))
            }
            fn visit_seq<S: serde::de::SeqAccess<'de>>(self, seq: S) -> Result<TileTexts<'de, N>, S::Error> {
                let texts = Texts::<'de, N>::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
                Ok(TileTexts::List(texts))
            }
        }
        d.deserialize_any(V::<N>)
    }
}

/// Tiles parsed into a fixed buffer (a hand is at most 64 tiles: `parse_tiles` refuses more).
#[derive(Clone, Copy)]
pub(crate) struct TileBuf {
    tiles: [Tile; TileBuf::MAX],
    len: usize,
}

impl TileBuf {
    const MAX: usize = 64;

    pub(crate) fn new() -> TileBuf {
        TileBuf { tiles: [Tile::kind_tile(0); TileBuf::MAX], len: 0 }
    }

    /// The tiles of compact notation, as `parse_tiles` reads them.
    pub(crate) fn parse(s: &str) -> Result<TileBuf, NotationError> {
        let mut b = TileBuf::new();
        b.extend(s)?;
        Ok(b)
    }

    /// Adds the tiles of `s`, as `parse_tiles` reads them; `Ok(false)` when they do not all fit
    /// (the buffer then holds a part of them).
    pub(crate) fn extend(&mut self, s: &str) -> Result<bool, NotationError> {
        // One tile (a winning tile, an indicator) is read without the walk through notation.
        if let &[d, suit] = s.as_bytes() {
            if let Some(t) = Tile::from_chars(d, suit) {
                let Some(slot) = self.tiles.get_mut(self.len) else { return Ok(false) };
                *slot = t;
                self.len += 1;
                return Ok(true);
            }
        }
        let mut fits = true;
        for_each_tile(s, |t| match self.tiles.get_mut(self.len) {
            Some(slot) => {
                *slot = t;
                self.len += 1;
            }
            None => fits = false,
        })?;
        Ok(fits)
    }

    pub(crate) fn as_slice(&self) -> &[Tile] {
        &self.tiles[..self.len]
    }
}

/// A true-or-false field; absent or null is false.
pub(crate) fn get_bool(obj: &Map<String, Value>, key: &str) -> Result<bool, LineError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(err("bad_input", format!("{key} must be true or false, not {other}"))),
    }
}

/// A seat or round wind as a letter, `"E"` `"S"` `"W"` `"N"`, as 0-3; absent or null is
/// `default`.
pub(crate) fn get_wind(obj: &Map<String, Value>, key: &str, default: u8) -> Result<u8, LineError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::String(s)) => match s.as_str() {
            "E" => Ok(0),
            "S" => Ok(1),
            "W" => Ok(2),
            "N" => Ok(3),
            _ => Err(err("bad_input", format!("{key} must be \"E\", \"S\", \"W\" or \"N\", not {s:?}"))),
        },
        Some(other) => Err(err("bad_input", format!("{key} must be a wind letter, not {other}"))),
    }
}

/// Lines for checking that a ruleset's two readings answer alike: `base` (well-formed hands),
/// each also with its fields given other values (`variants`: a field name and JSON values to put
/// there), and many lines made from them by changing, inserting and dropping bytes.
#[cfg(test)]
pub(crate) fn lines_to_agree_on(base: &[String], variants: &[(&str, &[&str])]) -> Vec<String> {
    let mut out = base.to_vec();
    let odd = ["", "{}", "[]", "[1]", "[1,\"123m\"]", "null", "1", "\"x\"", " {\"id\":2}", "{\"id\":2} x"];
    out.extend(odd.map(String::from));
    for line in base {
        let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(line) else { continue };
        for (key, values) in variants {
            for v in *values {
                let mut o = obj.clone();
                match serde_json::from_str::<Value>(v) {
                    Ok(v) => drop(o.insert((*key).to_owned(), v)),
                    Err(_) => drop(o.remove(*key)),
                }
                out.push(Value::Object(o).to_string());
            }
        }
        // A field twice, an unknown field, spaces, an escape.
        out.push(line.replacen('{', r#"{"id":1,"#, 1));
        out.push(line.replacen('{', r#"{"nope":1,"#, 1));
        out.push(line.replace(',', " , "));
        out.push(line.replacen('{', r#"{"id":"a\"b","#, 1));
        // What the scanner must leave to serde: leading zeros, literals run on, other spaces,
        // something after the object.
        out.push(line.replacen(r#"{"id":"#, r#"{"id":0"#, 1));
        out.push(line.replace("true", "truex").replace("false", "fals"));
        out.push(line.replace(':', " :\t\r\n "));
        out.push(format!("{line} x"));
        out.push(format!(" {line}\t"));
    }
    let mut s = crate::Seed::from_text("score lines agree").stream("mutations");
    let alphabet = b"{}[]\":, 0123456789-.eEmpsz\\nulltrue";
    for _ in 0..5000 {
        let mut b = base[s.below(base.len() as u64) as usize].as_bytes().to_vec();
        for _ in 0..=s.below(2) {
            s.mutate(&mut b, alphabet);
        }
        if let Ok(l) = String::from_utf8(b) {
            out.push(l);
        }
    }
    out
}

/// Both readings answer every line alike: `quick` (which may decline a line) and `reference`.
/// Answers how many lines the quick reading answered.
#[cfg(test)]
pub(crate) fn readings_agree(
    lines: &[String],
    quick: impl Fn(&str, &mut Vec<u8>) -> Option<bool>,
    reference: impl Fn(&str) -> String,
) -> usize {
    let mut answered = 0;
    for l in lines {
        let mut out = Vec::new();
        let Some(ok) = quick(l, &mut out) else {
            assert!(out.is_empty(), "{l}");
            continue;
        };
        answered += 1;
        let want = reference(l);
        assert_eq!(String::from_utf8(out).unwrap(), want, "{l}");
        assert_eq!(ok, want.contains("\"ok\":true"), "{l}");
    }
    answered
}

/// Random winning shapes for the readings' tests: the concealed tiles (with the winning tile),
/// melds as the contract writes them (`chi:345m`, `pon:777z`), and the winning tile.
#[cfg(test)]
pub(crate) fn random_shapes(label: &str, n: usize) -> Vec<(String, Vec<String>, String)> {
    use crate::mahjong::tiles_text;
    let mut s = crate::Seed::from_text(label).stream("shapes");
    let mut out = Vec::new();
    while out.len() < n {
        let mut counts = [0u8; 34];
        let mut concealed = Vec::new();
        let mut melds = Vec::new();
        for _ in 0..4 {
            let run = s.below(2) == 0;
            let k = if run { (s.below(3) * 9 + s.below(7)) as usize } else { s.below(34) as usize };
            let kinds = if run { [k, k + 1, k + 2] } else { [k; 3] };
            let tiles: Vec<Tile> = kinds.iter().map(|&k| Tile::kind_tile(k)).collect();
            kinds.iter().for_each(|&k| counts[k] += 1);
            if s.below(4) == 0 {
                melds.push(format!("{}:{}", if run { "chi" } else { "pon" }, tiles_text(&tiles)));
            } else {
                concealed.extend(tiles);
            }
        }
        let p = s.below(34) as usize;
        counts[p] += 2;
        concealed.extend([Tile::kind_tile(p); 2]);
        if counts.iter().any(|&c| c > 4) {
            continue;
        }
        let win = concealed[s.below(concealed.len() as u64) as usize];
        out.push((tiles_text(&concealed), melds, win.to_string()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The answers, byte for byte, that `paifu score` gave before its output was written by hand
    /// (e7c92f0): the quick reading, the reference reading and the Hungarian map agree with them.
    #[test]
    fn answers_are_written_as_they_always_were() {
        type Scorer = fn(&str) -> String;
        let cases: [(Scorer, &str, &str); 9] = [
            (
                crate::riichi::score_line,
                r#"{"id":"h1","hand":"123m456p789s11z22z2z","win":"2z","tsumo":true}"#,
                r#"{"id":"h1","ok":true,"han":2,"fu":40,"yaku":[{"name":"menzen_tsumo","han":1},{"name":"seat_wind","han":1}],"yakuman":0,"limit":"none","payment":{"dealer":1300,"non_dealer":700},"total":2700}"#,
            ),
            (
                crate::riichi::score_line,
                r#"{"id":2,"hand":"234m456p678s55p","melds":["chi:345s"],"win":"5p","dora":["4p"],"honba":2,"riichi_sticks":1}"#,
                r#"{"id":2,"ok":true,"han":4,"fu":30,"yaku":[{"name":"tanyao","han":1},{"name":"dora","han":3}],"yakuman":0,"limit":"none","payment":{"ron":8300},"total":9300}"#,
            ),
            (
                crate::riichi::score_line,
                r#"{"id":3,"hand":"123m456p789s11z","melds":["pon:777z"],"win":"1z","seat_wind":"E"}"#,
                r#"{"id":3,"ok":true,"han":1,"fu":30,"yaku":[{"name":"yakuhai_chun","han":1}],"yakuman":0,"limit":"none","payment":{"ron":1500},"total":1500}"#,
            ),
            (
                crate::riichi::score_line,
                r#"{"id":4,"hand":"123m","win":"1m"}"#,
                r#"{"id":4,"ok":false,"error":"invalid_tiles","message":"a winning hand has 14 tiles (a kan counts as 3): 3 concealed and 0 melds make 3"}"#,
            ),
            (
                crate::riichi::score_line,
                r#"{"id":"a\"b","hand":"111m","win":"1m"}"#,
                r#"{"id":"a\"b","ok":false,"error":"invalid_tiles","message":"a winning hand has 14 tiles (a kan counts as 3): 3 concealed and 0 melds make 3"}"#,
            ),
            (
                crate::mcr::score_line,
                r#"{"id":1,"hand":"123m456p789s111z55z","win":"5z","tsumo":true,"flowers":1}"#,
                r#"{"id":1,"ok":true,"fan":24,"fans":[{"name":"mixed_straight","fan":8,"count":1},{"name":"all_types","fan":6,"count":1},{"name":"fully_concealed_hand","fan":4,"count":1},{"name":"prevalent_wind","fan":2,"count":1},{"name":"seat_wind","fan":2,"count":1},{"name":"single_wait","fan":1,"count":1},{"name":"flower_tiles","fan":1,"count":1}],"meets_minimum":true}"#,
            ),
            (
                crate::mcr::score_line,
                r#"{"id":2,"hand":"11m","melds":["pon:777z","chi:123s","chi:456s","ankan:9999p"],"win":"1m","seat_wind":"S"}"#,
                r#"{"id":2,"ok":true,"fan":7,"fans":[{"name":"dragon_pung","fan":2,"count":1},{"name":"concealed_kong","fan":2,"count":1},{"name":"short_straight","fan":1,"count":1},{"name":"pung_of_terminals_or_honors","fan":1,"count":1},{"name":"single_wait","fan":1,"count":1}],"meets_minimum":false}"#,
            ),
            (
                crate::mcr::score_line,
                r#"{"id":3,"hand":"123m","win":"9m"}"#,
                r#"{"id":3,"ok":false,"error":"invalid_tiles","message":"3 concealed tiles with 0 melds: a winning hand has 14 (the winning tile included)"}"#,
            ),
            (
                crate::hungarian::score_line,
                r#"{"id":3,"winner":"E","win":"1s","players":{"E":{"hand":"234m567m345p678s11s"},"S":{"hand":"147m258p369s1234z"},"W":{"hand":"258m369p147s1234z"},"N":{"hand":"369m147p258s1234z"}}}"#,
                r#"{"id":3,"ok":true,"players":{"E":{"points":20,"doublings":1,"score":40,"lines":[{"name":"mahjong","points":20},{"name":"x2 east_wins","points":0}],"limit":null},"S":{"points":0,"doublings":0,"score":0,"lines":[],"limit":null},"W":{"points":0,"doublings":0,"score":0,"lines":[],"limit":null},"N":{"points":0,"doublings":0,"score":0,"lines":[],"limit":null}},"payments":{"E":240,"S":-80,"W":-80,"N":-80}}"#,
            ),
        ];
        for (score, line, want) in cases {
            assert_eq!(score(line), want, "{line}");
        }
    }

    #[test]
    fn the_answer_echoes_the_id_and_says_ok_or_why_not() {
        let fields = |o: &Map<String, Value>| {
            let mut m = Map::new();
            m.insert("seen".into(), json!(o.len()));
            if get_bool(o, "fail")? {
                return Err(err("invalid_tiles", "as asked"));
            }
            Ok(m)
        };
        assert_eq!(answer(r#"{"id":3,"x":1}"#, fields), r#"{"id":3,"ok":true,"seen":2}"#);
        assert_eq!(answer(r#"{"id":1.5e3,"x":[1]}"#, fields), r#"{"id":1500.0,"ok":true,"seen":2}"#);
        assert_eq!(
            answer(r#"{"id":"a","fail":true}"#, fields),
            r#"{"id":"a","ok":false,"error":"invalid_tiles","message":"as asked"}"#
        );
        let v: Value = serde_json::from_str(&answer(r#"{"fail":1}"#, fields)).unwrap();
        assert_eq!((v["id"].clone(), v["error"].as_str()), (Value::Null, Some("bad_input")));
        assert!(v["message"].as_str().unwrap().contains("fail must be true or false"), "{v}");
        assert!(answer("[1]", fields).contains("the input must be one JSON object"));
        assert!(answer("{", fields).contains("not JSON"));
    }

    /// The end of a string's text found eight bytes at a time is the first quote, backslash or
    /// control byte, as a byte-by-byte search finds it: from every start, in bytes of every kind
    /// (ASCII, the three stops, bytes of UTF-8 characters), at every distance from the end.
    #[test]
    fn a_strings_end_is_found_as_byte_by_byte() {
        let slow = |b: &[u8], start: usize| {
            b[start..].iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20).map(|i| start + i)
        };
        let kinds =
            [b'a', b'z', b' ', b'!', b'#', b'[', b']', b'~', 0x7f, 0x80, 0xc3, 0xff, b'"', b'\\', 0, 0x1f, b'\n'];
        let mut s = crate::Seed::from_text("string stops").stream("bytes");
        for _ in 0..20_000 {
            let len = s.below(40) as usize;
            let mut b: Vec<u8> = (0..len).map(|_| kinds[s.below(kinds.len() as u64) as usize]).collect();
            // Mostly plain bytes, the stops rarer.
            for c in b.iter_mut() {
                if s.below(3) != 0 {
                    *c = b'a' + s.below(26) as u8;
                }
            }
            for start in 0..=len {
                assert_eq!(string_stop(&b, start), slow(&b, start), "{b:?} from {start}");
            }
        }
    }

    #[test]
    fn winds_are_letters_and_default_when_absent() {
        let obj = |v: Value| v.as_object().unwrap().clone();
        assert_eq!(get_wind(&obj(json!({"w": "N"})), "w", 0).ok(), Some(3));
        assert_eq!(get_wind(&obj(json!({})), "w", 2).ok(), Some(2));
        let bad = get_wind(&obj(json!({"w": "X"})), "w", 0).err().unwrap();
        assert_eq!(bad.code, "bad_input");
        assert!(bad.message.contains("w must be \"E\", \"S\", \"W\" or \"N\""), "{}", bad.message);
        assert!(get_wind(&obj(json!({"w": 1})), "w", 0).is_err());
    }
}
