//! JSON Lines: one header object on the first line, one record object per line after it.

use super::{check_version, Action, Claim, Header, Log, Record};
use crate::error::{ErrorCode, Fault};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;

/// A record line as read: the action borrowed from the line (copied only when it holds an
/// escape), the claim's lists the only allocations.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordIn<'a> {
    seq: u32,
    seat: u8,
    #[serde(borrow)]
    action: Cow<'a, str>,
    #[serde(default)]
    claim: Option<Claim>,
}

/// A value as JSON Lines writes it: absent optional fields left out.
pub fn json_object<T: serde::Serialize>(value: &T) -> Value {
    let mut v = serde_json::to_value(value).unwrap_or(Value::Null);
    strip_nulls(&mut v);
    v
}

fn strip_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, v| !v.is_null());
            m.values_mut().for_each(strip_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

/// Writes a log as JSON Lines; absent optional fields are left out.
pub(crate) fn encode_jsonl<A: Action>(log: &Log<A>) -> Vec<u8> {
    // An imported log's header holds its source, escaped (mjai: about 1.26 times its length).
    let meta: usize = log.header.meta.values().map(String::len).sum();
    let mut out = Vec::with_capacity(64 * log.records.len() + meta * 4 / 3 + 256);
    write_header_line(&log.header, &mut out);
    for r in &log.records {
        write_record_line(r, &mut out);
    }
    out
}

/// The header's line of a JSON Lines log, with its newline: a log written as it is played is
/// this line, then [`record_line`] per record.
pub fn header_line(header: &Header) -> String {
    let mut out = Vec::new();
    write_header_line(header, &mut out);
    // serde_json writes UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// Appends the header's line, with its newline, to `out`: the same bytes as [`header_line`],
/// serialized straight from the header's fields (before, through a `serde_json::Value` copy of
/// the header, which for an imported game copied its whole source first): the fields in the
/// header's order, the absent ones left out, as [`json_object`] writes them (this module's tests
/// compare the two).
pub(super) fn write_header_line(header: &Header, out: &mut Vec<u8>) {
    #[derive(Serialize)]
    struct HeaderOut<'a> {
        paifu: u32,
        game: &'a str,
        ruleset: &'a str,
        options: &'a super::Options,
        engine: &'a str,
        seats: &'a [String],
        #[serde(skip_serializing_if = "Option::is_none")]
        seed: Option<&'a crate::Seed>,
        #[serde(skip_serializing_if = "Option::is_none")]
        commitment: Option<&'a crate::Digest>,
        #[serde(skip_serializing_if = "Option::is_none")]
        source: Option<&'a super::Source>,
    }
    let h = header;
    let line = HeaderOut {
        paifu: h.paifu,
        game: &h.game,
        ruleset: &h.ruleset,
        options: &h.options,
        engine: &h.engine,
        seats: &h.seats,
        seed: h.seed.as_ref(),
        commitment: h.commitment.as_ref(),
        source: h.source.as_ref(),
    };
    // Writing into a Vec cannot fail, nor can serializing strings, numbers and maps of them.
    let _ = serde_json::to_writer(&mut *out, &line);
    // `meta`, the last field, by hand: an imported log's holds its whole source.
    out.pop();
    out.extend_from_slice(b",\"meta\":{");
    for (i, (k, v)) in h.meta.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_json_str(k, out);
        out.push(b':');
        write_json_str(v, out);
    }
    out.extend_from_slice(b"}}\n");
}

/// Appends `s` as a JSON string, the bytes serde_json writes: `"`, `\\` and the control
/// characters escaped (`\b \f \n \r \t` short, the others `\u00XX` in lowercase hex), everything
/// else as it is. Byte by byte through a table into a small buffer on the stack, moved into `out`
/// when full: serde_json's writer copies the run before each escape on its own, which for an
/// embedded mjai source (JSON: a quote every few bytes) cost about 22 instructions a byte, this
/// about 13 (callgrind, `paifu import mjai` of the 31 real games).
fn write_json_str(s: &str, out: &mut Vec<u8>) {
    // What follows the backslash of each byte's escape; 0 for a byte written as it is, `u` for
    // `\u00XX`.
    const ESCAPE: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 0x20 {
            t[i] = b'u';
            i += 1;
        }
        t[b'"' as usize] = b'"';
        t[b'\\' as usize] = b'\\';
        t[b'\n' as usize] = b'n';
        t[b'\r' as usize] = b'r';
        t[b'\t' as usize] = b't';
        t[0x08] = b'b';
        t[0x0c] = b'f';
        t
    };
    const HEX: &[u8; 16] = b"0123456789abcdef";
    const ROOM: usize = 256;
    out.reserve(s.len() + 2);
    out.push(b'"');
    // Room for one more escape (six bytes) past ROOM.
    let mut buf = [0u8; ROOM + 6];
    let mut n = 0;
    for &b in s.as_bytes() {
        if n >= ROOM {
            out.extend_from_slice(&buf[..n]);
            n = 0;
        }
        match ESCAPE[usize::from(b)] {
            0 => {
                buf[n] = b;
                n += 1;
            }
            b'u' => {
                buf[n..n + 6].copy_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 15)],
                ]);
                n += 6;
            }
            e => {
                buf[n] = b'\\';
                buf[n + 1] = e;
                n += 2;
            }
        }
    }
    out.extend_from_slice(&buf[..n]);
    out.push(b'"');
}

/// One record's line of a JSON Lines log, with its newline.
pub fn record_line<A: Action>(r: &Record<A>) -> String {
    let mut out = Vec::with_capacity(64);
    write_record_line(r, &mut out);
    // serde_json writes UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// Appends one record's line, with its newline, to `out`: the same bytes as [`record_line`],
/// written in place by hand (serde_json's writer cost about 1,400 instructions a line: a map
/// serializer, and the notation through `collect_str`'s escaping adapter). The bytes are those
/// serde_json writes for `{"seq", "seat", "action", "claim"}` with an absent claim and absent
/// lists left out (the reference writer in this module's tests compares them over every record
/// of real and simulated games of all five games).
pub fn write_record_line<A: Action>(r: &Record<A>, out: &mut Vec<u8>) {
    let mut num = itoa::Buffer::new();
    out.extend_from_slice(b"{\"seq\":");
    out.extend_from_slice(num.format(r.seq).as_bytes());
    out.extend_from_slice(b",\"seat\":");
    out.extend_from_slice(num.format(r.seat).as_bytes());
    out.extend_from_slice(b",\"action\":\"");
    write_notation(&r.action, out);
    out.push(b'"');
    if let Some(c) = &r.claim {
        out.extend_from_slice(b",\"claim\":{");
        let mut first = true;
        for (key, list) in [(&b"\"round\":["[..], &c.round), (&b"\"final\":["[..], &c.final_scores)] {
            let Some(list) = list else { continue };
            if !first {
                out.push(b',');
            }
            first = false;
            out.extend_from_slice(key);
            for (i, v) in list.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(num.format(*v).as_bytes());
            }
            out.push(b']');
        }
        out.push(b'}');
    }
    out.extend_from_slice(b"}\n");
}

/// Appends `action`'s notation as the inside of a JSON string: written by the action
/// (`Action::write_notation`, its `Display` unless the engine writes it straight) into `out`,
/// then, only if it holds a byte JSON escapes (a quote, a backslash or a control character: an
/// incident's detail may hold the first two), written again through serde_json's string
/// escaping, so the bytes are serde_json's in every case.
fn write_notation<A: Action>(action: &A, out: &mut Vec<u8>) {
    let start = out.len();
    action.write_notation(out);
    if out[start..].iter().any(|&b| b == b'"' || b == b'\\' || b < 0x20) {
        let text = String::from_utf8_lossy(&out[start..]).into_owned();
        out.truncate(start);
        let mut quoted = Vec::with_capacity(text.len() + 8);
        // Serializing a string into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut quoted, &text);
        out.extend_from_slice(quoted.get(1..quoted.len().saturating_sub(1)).unwrap_or_default());
    }
}

fn json_fault(e: &serde_json::Error, what: &str, line: usize, last: bool) -> Fault {
    // Running out of input is a cut-off file only on the last line; inside it is a bad line.
    let code = if e.is_eof() && last { ErrorCode::Truncated } else { ErrorCode::BadEncoding };
    // serde_json reports "line 1 column N" for the single line it saw; keep the column only.
    let msg = e.to_string();
    let msg = match msg.rfind(" at line ") {
        Some(i) => format!("{} (column {})", &msg[..i], e.column()),
        None => msg,
    };
    Fault::new(code, format!("{what}: {msg}")).at_line(line)
}

/// A line that could not be read: the fault, or the JSON error whose fault depends on whether
/// the line is the last of the file (running out of input there is a cut-off file), which only
/// the reader can tell.
pub(super) enum LineError {
    Fault(Fault),
    Json { error: serde_json::Error, line: usize, index: Option<usize>, header_ok: bool },
}

impl From<Fault> for LineError {
    fn from(f: Fault) -> LineError {
        LineError::Fault(f)
    }
}

impl LineError {
    /// Whether the fault depends on the line being the last.
    pub(super) fn needs_last(&self) -> bool {
        matches!(self, LineError::Json { error, header_ok: false, .. } if error.is_eof())
    }

    /// The fault, `last` saying whether no other line follows.
    pub(super) fn fault(self, last: bool) -> Fault {
        match self {
            LineError::Fault(f) => f,
            LineError::Json { error, line, index: None, header_ok } => {
                let what = if header_ok { "bad header" } else { "the header is not valid JSON" };
                json_fault(&error, what, line, last && !header_ok)
            }
            LineError::Json { error, line, index: Some(index), .. } => {
                json_fault(&error, &format!("record {index} is not a valid record"), line, last).at_index(index)
            }
        }
    }
}

/// Reads the header line (line `line_no`).
pub(super) fn parse_header(line_no: usize, line: &str) -> Result<Header, LineError> {
    // Only the format version is looked at first (the other fields skipped, not copied: the
    // header may carry a source of half a megabyte), then the line is read as a header once.
    #[derive(serde::Deserialize)]
    struct Probe {
        paifu: Option<Value>,
    }
    let json = |error| LineError::Json { error, line: line_no, index: None, header_ok: false };
    // (A struct would also be read from an array: only an object is a header.)
    let v = if line.trim_start().starts_with('{') {
        serde_json::from_str::<Probe>(line).map_err(json)?
    } else {
        serde_json::from_str::<serde::de::IgnoredAny>(line).map_err(json)?;
        Probe { paifu: None }
    };
    if v.paifu.is_none() {
        return Err(Fault::new(
            ErrorCode::BadEncoding,
            "not a Paifu log: the first line must be the header, a JSON object with a \"paifu\" format version",
        )
        .at_line(line_no)
        .into());
    }
    // A newer format may have other fields: say so before judging them.
    if let Some(version) = v.paifu.as_ref().and_then(Value::as_u64) {
        if version > u64::from(super::FORMAT_VERSION) {
            let mut probe = super::binary::empty_header();
            probe.paifu = u32::try_from(version).unwrap_or(u32::MAX);
            check_version(&probe).map_err(|f| f.at_line(line_no))?;
        }
    }
    let h: Header = serde_json::from_str(line).map_err(|error| LineError::Json {
        error,
        line: line_no,
        index: None,
        header_ok: true,
    })?;
    check_version(&h).map_err(|f| f.at_line(line_no))?;
    Ok(h)
}

/// A record line exactly as Paifu writes one without a claim, `{"seq":12,"seat":1,"action":"discard 5m"}`
/// (no space, these keys in this order, plain numbers, an action of printable ASCII without an
/// escape): its fields. `None` for any other line, which serde_json then reads: every line this
/// accepts, serde_json reads to the same values (it is a strict part of JSON), only faster. Every
/// line it accepts is ASCII, so its bytes need no UTF-8 check before it is tried.
pub(super) fn canonical_record(line: &[u8]) -> Option<(u32, u8, &[u8])> {
    /// A JSON number without sign, fraction or exponent, and without a leading zero, of at most
    /// ten digits (which fit a `u64`).
    fn number(s: &[u8]) -> Option<(u64, &[u8])> {
        let mut n = 0u64;
        let mut digits = 0;
        for &b in s {
            if !b.is_ascii_digit() {
                break;
            }
            if digits == 10 {
                return None;
            }
            n = n * 10 + u64::from(b - b'0');
            digits += 1;
        }
        if digits == 0 || (digits > 1 && s[0] == b'0') {
            return None;
        }
        Some((n, &s[digits..]))
    }
    let rest = line.strip_prefix(b"{\"seq\":")?;
    let (seq, rest) = number(rest)?;
    let rest = rest.strip_prefix(b",\"seat\":")?;
    let (seat, rest) = number(rest)?;
    let rest = rest.strip_prefix(b",\"action\":\"")?;
    // The action ends at its closing quote; a backslash, a control or a byte past ASCII stops it
    // too, and then what follows is not `"}`.
    let end = rest.iter().position(|&b| b == b'"' || b == b'\\' || !(0x20..0x7f).contains(&b))?;
    let (action, rest) = rest.split_at(end);
    if rest != b"\"}" {
        return None;
    }
    Some((u32::try_from(seq).ok()?, u8::try_from(seat).ok()?, action))
}

/// Record `index`, line `line_no`, from the fields [`canonical_record`] read. Nothing is
/// allocated for it; a line serde_json reads allocates only if its claim lists scores or its
/// action's notation holds an escape (an incident's detail with a quote).
pub(super) fn record_of_fields<A: Action>(
    index: usize,
    line_no: usize,
    (seq, seat, action): (u32, u8, &[u8]),
) -> Result<Record<A>, LineError> {
    if let Some(action) = A::from_ascii_notation(action) {
        return Ok(Record { seq, seat, action, claim: None });
    }
    // The canonical line is ASCII, so the action is text.
    let action = String::from_utf8_lossy(action);
    record_of(index, line_no, RecordIn { seq, seat, action, claim: None })
}

/// Record `index`, line `line_no`, read by serde_json (any line that is not canonical).
pub(super) fn parse_by_serde<A: Action>(index: usize, line_no: usize, line: &str) -> Result<Record<A>, LineError> {
    let r: RecordIn<'_> = serde_json::from_str(line).map_err(|error| LineError::Json {
        error,
        line: line_no,
        index: Some(index),
        header_ok: false,
    })?;
    record_of(index, line_no, r)
}

fn record_of<A: Action>(index: usize, line_no: usize, r: RecordIn<'_>) -> Result<Record<A>, LineError> {
    if r.claim.as_ref().is_some_and(|c| !c.is_bounded()) {
        return Err(Fault::new(ErrorCode::BadEncoding, format!("record {index}: a claim lists more than 8 seats"))
            .at_line(line_no)
            .at_index(index)
            .into());
    }
    let action = r.action.parse::<A>().map_err(|e| {
        let mut f =
            Fault::new(ErrorCode::BadEncoding, format!("record {index}: cannot read the action {:?}: {e}", r.action))
                .at_line(line_no)
                .at_index(index);
        f.seat = Some(r.seat);
        f
    })?;
    Ok(Record { seq: r.seq, seat: r.seat, action, claim: r.claim })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::{encode, random_log, Encoding};
    use crate::Seed;

    /// The header line as it was written before (through a `serde_json::Value`, nulls
    /// stripped): the reference the direct writer's bytes are compared with.
    fn header_line_by_value(header: &Header) -> Vec<u8> {
        let mut out = serde_json::to_vec(&json_object(header)).unwrap();
        out.push(b'\n');
        out
    }

    #[test]
    fn the_header_line_written_from_the_fields_is_the_one_written_through_a_json_value() {
        use crate::log::{OptValue, Source};
        let seed = Seed::from_text("header lines");
        let mut headers = vec![Header::new("riichi", "tenhou", Default::default(), vec!["A".into(), "B".into()], seed)];
        let mut h = headers[0].clone();
        h.seed = None;
        h.options.insert("red".into(), OptValue::Int(-3));
        h.options.insert("aka".into(), OptValue::Bool(true));
        h.options.insert("name \"q\"".into(), OptValue::Text("a\\b\u{1}錯".into()));
        headers.push(h.clone());
        h.commitment = None;
        h.source = Some(Source { format: "tenhou6".into(), id: "x\"y".into(), digest: crate::Digest([7; 32]) });
        h.meta.insert("source".into(), "{\"log\":[[1,2],\"\\u0000\"]}\n\t錯".into());
        h.meta.insert("event".into(), String::new());
        // Every ASCII character, the controls among them, and a few others.
        let all: String = (0u8..128).map(char::from).chain("é錯\u{2028}\u{10ffff}".chars()).collect();
        // Long enough that the escapes fall across the writer's buffer at every offset.
        h.meta.insert("long".into(), (0..300).map(|i| format!("{}{all}", "x".repeat(i % 7))).collect());
        h.meta.insert("all".into(), all);
        h.seats = vec![];
        headers.push(h);
        for g in [
            random_log::<crate::tzq::Tzq>("standard", 2, "header 1").header,
            random_log::<crate::riichi::Riichi>("tenhou", 4, "header 2").header,
        ] {
            headers.push(g);
        }
        for h in &headers {
            let mut out = Vec::new();
            write_header_line(h, &mut out);
            assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&header_line_by_value(h)));
            assert_eq!(header_line(h).as_bytes(), &out[..]);
        }
    }

    /// What serde_json reads from a line, as the quick reading answers it.
    fn by_serde(line: &str) -> Option<(u32, u8, String)> {
        let r: RecordIn<'_> = serde_json::from_str(line).ok()?;
        r.claim.is_none().then(|| (r.seq, r.seat, r.action.into_owned()))
    }

    /// Every line the quick reading accepts, serde_json reads to the same values: the record
    /// lines of games (every line without a claim is read the quick way), and lines made from
    /// them by changing, inserting and dropping bytes.
    #[test]
    fn the_quick_reading_of_a_record_line_agrees_with_serde_json() {
        let log = random_log::<crate::tzq::Tzq>("standard", 2, "quick lines");
        let text = String::from_utf8(encode(&log, Encoding::JsonLines)).unwrap();
        let lines: Vec<&str> = text.lines().skip(1).collect();
        for l in &lines {
            let quick = canonical_record(l.as_bytes()).map(|(s, t, a)| (s, t, String::from_utf8(a.to_vec()).unwrap()));
            assert_eq!(quick.is_some(), !l.contains("claim"), "{l}");
            if quick.is_some() {
                assert_eq!(quick, by_serde(l), "{l}");
            }
        }
        let extra = [
            r#"{"seq":0,"seat":0,"action":"draw"}"#,
            r#"{"seq":4294967295,"seat":255,"action":"draw"}"#,
            r#"{"seq":4294967296,"seat":0,"action":"draw"}"#,
            r#"{"seq":0,"seat":256,"action":"draw"}"#,
            r#"{"seq":01,"seat":0,"action":"draw"}"#,
            r#"{"seq":1,"seat":0,"action":"incident illegal: \"x\""}"#,
            r#"{"seq":1,"seat":0,"action":"a	b"}"#,
            r#"{"seq":1,"seat":0,"action":"draw"} "#,
            r#"{"seq":1,"seat":0,"action":"draw"}}"#,
            r#"{"seq":1,"seat":0,"action":"東 draw"}"#,
            r#"{"seq":-1,"seat":0,"action":"draw"}"#,
            r#"{"seq":1.0,"seat":0,"action":"draw"}"#,
        ];
        let mut s = Seed::from_text("quick lines").stream("mutations");
        let mut cases: Vec<String> = extra.iter().map(|l| l.to_string()).collect();
        for _ in 0..20_000 {
            let mut b = lines[s.below(lines.len() as u64) as usize].as_bytes().to_vec();
            s.mutate(&mut b, b"{}\":, 0123456789-.eE\\\t\x01abc");
            if let Ok(l) = String::from_utf8(b) {
                cases.push(l);
            }
        }
        let mut quick = 0;
        for l in &cases {
            if let Some((seq, seat, action)) = canonical_record(l.as_bytes()) {
                quick += 1;
                assert_eq!(Some((seq, seat, String::from_utf8(action.to_vec()).unwrap())), by_serde(l), "{l}");
            }
        }
        assert!(quick > 1000, "{quick}");
    }

    /// The reader skips the UTF-8 check of a line the quick reading accepts: such a line is ASCII,
    /// whatever bytes (valid UTF-8 or not) surround or replace its parts.
    #[test]
    fn a_line_the_quick_reading_accepts_is_ascii() {
        let base = br#"{"seq":12,"seat":1,"action":"discard 5m"}"#;
        assert!(canonical_record(base).is_some());
        let mut s = Seed::from_text("ascii lines").stream("mutations");
        let (mut accepted, mut refused_high) = (0, 0);
        for _ in 0..20_000 {
            let mut b = base.to_vec();
            s.mutate(&mut b, b"\x80\xbf\xc3\xa9\xe6\x9d\xb1\xff\x7f\"}0 ");
            match canonical_record(&b) {
                Some(_) => {
                    accepted += 1;
                    assert!(b.is_ascii(), "{b:?}");
                }
                None => refused_high += usize::from(!b.is_ascii()),
            }
        }
        assert!(accepted > 1000 && refused_high > 1000, "{accepted} {refused_high}");
        // A UTF-8 action is read by serde_json, not the quick way.
        assert_eq!(canonical_record(r#"{"seq":1,"seat":0,"action":"discard é"}"#.as_bytes()), None);
    }

    #[test]
    fn words_are_split_where_split_whitespace_splits() {
        for s in [
            "discard 5m",
            "  chow 4m\t6m  ",
            "a\u{b}b\u{c}c\rd\ne",
            "a\u{a0}b",
            "東 南\u{3000}西",
            "",
            "   ",
            "one two three four five six seven eight",
            "one two three four five six seven eight nine",
        ] {
            let want: Vec<&str> = s.split_whitespace().collect();
            let got = crate::log::words(s);
            if want.len() <= 8 {
                assert_eq!(got.as_slice(), want.as_slice(), "{s:?}");
            } else {
                assert!(got.as_slice().is_empty(), "{s:?}");
            }
        }
    }
}
