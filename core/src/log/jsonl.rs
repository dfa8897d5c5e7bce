//! JSON Lines: one header object on the first line, one record object per line after it.

use super::{check_version, Action, Claim, Header, Log, Positions, Record, MAX_ITEM_BYTES};
use crate::error::{ErrorCode, Fault};
use serde::Deserialize;
use serde_json::{Map, Value};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordIn {
    seq: u32,
    seat: u8,
    action: String,
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
pub(crate) fn encode_jsonl<A: Action>(log: &Log<A>) -> String {
    let mut out = header_line(&log.header);
    for r in &log.records {
        out.push_str(&record_line(r));
    }
    out
}

/// The header's line of a JSON Lines log, with its newline: a log written as it is played is
/// this line, then [`record_line`] per record.
pub fn header_line(header: &Header) -> String {
    json_object(header).to_string() + "\n"
}

/// One record's line of a JSON Lines log, with its newline.
pub fn record_line<A: Action>(r: &Record<A>) -> String {
    let mut m = Map::new();
    m.insert("seq".into(), r.seq.into());
    m.insert("seat".into(), r.seat.into());
    m.insert("action".into(), r.action.to_string().into());
    if let Some(c) = &r.claim {
        m.insert("claim".into(), json_object(c));
    }
    Value::Object(m).to_string() + "\n"
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

fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
        .filter(|(_, l)| !l.trim_ascii().is_empty())
}

fn parse_header(line_no: usize, line: &str, last: bool) -> Result<Header, Fault> {
    if line.len() > MAX_ITEM_BYTES {
        return Err(Fault::new(ErrorCode::BadEncoding, "the header line is longer than 1 MiB").at_line(line_no));
    }
    let v: Value =
        serde_json::from_str(line).map_err(|e| json_fault(&e, "the header is not valid JSON", line_no, last))?;
    if v.get("paifu").is_none() {
        return Err(Fault::new(
            ErrorCode::BadEncoding,
            "not a Paifu log: the first line must be the header, a JSON object with a \"paifu\" format version",
        )
        .at_line(line_no));
    }
    // A newer format may have other fields: say so before judging them.
    if let Some(version) = v.get("paifu").and_then(Value::as_u64) {
        if version > u64::from(super::FORMAT_VERSION) {
            let mut probe = super::binary::empty_header();
            probe.paifu = u32::try_from(version).unwrap_or(u32::MAX);
            check_version(&probe).map_err(|f| f.at_line(line_no))?;
        }
    }
    // Read the line itself (not the Value, which keeps the last of duplicate keys).
    let h: Header = serde_json::from_str(line).map_err(|e| json_fault(&e, "bad header", line_no, false))?;
    check_version(&h).map_err(|f| f.at_line(line_no))?;
    Ok(h)
}

/// Reads the header line only.
pub fn read_jsonl_header(text: &str) -> Result<Header, Fault> {
    let mut it = lines(text);
    match it.next() {
        Some((n, l)) => parse_header(n, l, it.next().is_none()),
        None => Err(Fault::new(ErrorCode::Truncated, "the file is empty: a log starts with a header line").at_line(1)),
    }
}

/// Reads a whole JSON Lines log.
pub(crate) fn decode_jsonl<A: Action>(text: &str) -> Result<(Log<A>, Positions), Fault> {
    let mut it = lines(text).peekable();
    let header = match it.next() {
        Some((n, l)) => parse_header(n, l, it.peek().is_none())?,
        None => {
            return Err(
                Fault::new(ErrorCode::Truncated, "the file is empty: a log starts with a header line").at_line(1)
            )
        }
    };
    let mut records = Vec::new();
    let mut pos = Positions::default();
    while let Some((line_no, line)) = it.next() {
        let last = it.peek().is_none();
        let index = records.len();
        if line.len() > MAX_ITEM_BYTES {
            return Err(Fault::new(ErrorCode::BadEncoding, "a record line is longer than 1 MiB")
                .at_line(line_no)
                .at_index(index));
        }
        let r: RecordIn = serde_json::from_str(line).map_err(|e| {
            json_fault(&e, &format!("record {index} is not a valid record"), line_no, last).at_index(index)
        })?;
        if r.claim.as_ref().is_some_and(|c| !c.is_bounded()) {
            return Err(Fault::new(ErrorCode::BadEncoding, format!("record {index}: a claim lists more than 8 seats"))
                .at_line(line_no)
                .at_index(index));
        }
        let action = r.action.parse::<A>().map_err(|e| {
            let mut f = Fault::new(
                ErrorCode::BadEncoding,
                format!("record {index}: cannot read the action {:?}: {e}", r.action),
            )
            .at_line(line_no)
            .at_index(index);
            f.seat = Some(r.seat);
            f
        })?;
        records.push(super::Record { seq: r.seq, seat: r.seat, action, claim: r.claim });
        pos.lines.push(line_no);
    }
    Ok((Log { header, records }, pos))
}
