//! What an upload holds, recognised by its content, never by its name: a Paifu log (JSON Lines
//! or binary) is stored as it is; a riichi game record (tenhou.net/6 JSON, Tenhou's mjlog XML,
//! mjai JSON Lines) is first imported exactly as `paifu import` imports it (the same size limit,
//! the log embedding its source, so that the archive then judges it against that source).

use paifu_core::log::{self, Encoding, MAGIC};
use paifu_recorder::import::to_log::MAX_SOURCE_BYTES;
use paifu_recorder::import::{import_text, ImportError};
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

/// The formats an upload may be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Paifu,
    Tenhou6,
    Mjlog,
    Mjai,
}

impl Format {
    /// The format as the answers name it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::Paifu => "a Paifu log",
            Format::Tenhou6 => "tenhou.net/6 JSON",
            Format::Mjlog => "Tenhou mjlog XML",
            Format::Mjai => "mjai JSON Lines",
        }
    }
}

/// Why an upload is refused before the archive sees it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum UploadError {
    /// Read as a game record, the file is larger than `paifu import` reads.
    #[error(
        "read as {}: the file is {size} bytes; game records are imported up to {max} bytes (as by paifu \
         import --max-bytes), the most a log can embed",
        format.name()
    )]
    TooLarge { format: Format, size: usize, max: u64 },
    /// Read as a game record, the file does not import: the importer's error names the round
    /// and the position (JSON path, line or byte).
    #[error("read as {}: {source}", format.name())]
    Import { format: Format, source: ImportError },
}

/// A JSON value read for what the detection needs and nothing more: serde skips everything
/// else without building it (`IgnoredAny`), so recognising an 8 MiB record takes no memory
/// beyond its bytes (a `serde_json::Value` of it took 37 times its size).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Field {
    /// Not in the object.
    #[default]
    Absent,
    Number,
    /// `"start_game"` or `"start_kyoku"`: an mjai event that begins a game or a hand.
    Start,
    /// Any other value.
    Other,
}

struct FieldVisitor;

impl<'de> Visitor<'de> for FieldVisitor {
    type Value = Field;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_u64<E>(self, _: u64) -> Result<Field, E> {
        Ok(Field::Number)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Field, E> {
        Ok(Field::Number)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Field, E> {
        Ok(Field::Number)
    }
    fn visit_str<E>(self, v: &str) -> Result<Field, E> {
        Ok(if v == "start_game" || v == "start_kyoku" { Field::Start } else { Field::Other })
    }
    fn visit_bool<E>(self, _: bool) -> Result<Field, E> {
        Ok(Field::Other)
    }
    fn visit_unit<E>(self) -> Result<Field, E> {
        Ok(Field::Other)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Field, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Field::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Field, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Field::Other)
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Field, D::Error> {
        d.deserialize_any(FieldVisitor)
    }
}

/// The fields of a JSON object that tell the formats apart; the rest is skipped unread.
#[derive(Deserialize)]
struct Probe {
    #[serde(default)]
    log: Field,
    #[serde(default, rename = "type")]
    kind: Field,
    #[serde(default)]
    paifu: Field,
}

/// `text` as one JSON object's telling fields; `None` when it is not one JSON object (serde
/// would read a struct from an array too, its fields by position).
fn probe(text: &str) -> Option<Probe> {
    text.trim_start().starts_with('{').then(|| serde_json::from_str::<Probe>(text).ok()).flatten()
}

/// The format of an upload, by its content, or why it is none of the game records: `Paifu`
/// when it looks like nothing else (the log reader then names its fault). Nothing is parsed
/// into memory: an upload of any size is told by its bytes (see [`Field`]).
pub(crate) fn detect(bytes: &[u8]) -> (Format, Option<&'static str>) {
    if bytes.starts_with(MAGIC) {
        return (Format::Paifu, None);
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return (Format::Paifu, Some("it is not UTF-8 text"));
    };
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if text.starts_with('<') {
        return if text.contains("<mjloggm") {
            (Format::Mjlog, None)
        } else {
            (Format::Paifu, Some("XML without <mjloggm>, not an mjlog record"))
        };
    }
    // A tenhou.net/6 record is one JSON object (on one line or many) with a `log`.
    if let Some(p) = probe(text) {
        if p.log != Field::Absent && p.paifu != Field::Number {
            return (Format::Tenhou6, None);
        }
    }
    let first = text.lines().next().unwrap_or("");
    match probe(first) {
        // mjai events have a `type`; a Paifu log's header a version number in `paifu` (an mjai
        // export's `start_game` carries an object there).
        Some(p) if p.kind != Field::Absent => {
            if text.lines().filter_map(probe).take(64).any(|p| p.kind == Field::Start) {
                (Format::Mjai, None)
            } else {
                (Format::Paifu, Some("JSON Lines without a start_game or start_kyoku event, not an mjai log"))
            }
        }
        Some(p) if p.paifu == Field::Number => (Format::Paifu, None),
        Some(_) => {
            (Format::Paifu, Some("JSON that is not a tenhou.net/6 record (no \"log\") nor an mjai event (no \"type\")"))
        }
        None if serde_json::from_str::<IgnoredAny>(first).is_ok() => {
            (Format::Paifu, Some("JSON that is not a tenhou.net/6 record (no \"log\") nor an mjai event (no \"type\")"))
        }
        None => (Format::Paifu, Some("its first line is not JSON nor XML")),
    }
}

/// The Paifu log an upload is: its bytes as they are, or the game record imported (JSON Lines).
pub(crate) fn to_log_bytes(format: Format, bytes: Vec<u8>) -> Result<Vec<u8>, UploadError> {
    let name = match format {
        Format::Paifu => return Ok(bytes),
        Format::Tenhou6 | Format::Mjlog => "tenhou",
        Format::Mjai => "mjai",
    };
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(UploadError::TooLarge { format, size: bytes.len(), max: MAX_SOURCE_BYTES });
    }
    // Detected formats are UTF-8 text.
    let text = String::from_utf8_lossy(&bytes);
    let imp = import_text(name, &text, &bytes).map_err(|source| UploadError::Import { format, source })?;
    Ok(log::encode(&imp.log, Encoding::JsonLines))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_apart_by_content() {
        assert_eq!(detect(b"PAIFULOG\x01").0, Format::Paifu);
        assert_eq!(detect(b"{\"paifu\":1,\"game\":\"tzq\"}\n{\"seat\":0}").0, Format::Paifu);
        assert_eq!(detect(b"{\"ver\":2.3,\"log\":[]}").0, Format::Tenhou6);
        assert_eq!(detect(b"{\n  \"name\": [],\n  \"log\": []\n}").0, Format::Tenhou6);
        assert_eq!(detect(b"  <mjloggm ver=\"2.3\"><GO type=\"169\"/></mjloggm>").0, Format::Mjlog);
        let mjai = b"{\"type\":\"start_game\",\"names\":[],\"paifu\":{}}\n{\"type\":\"start_kyoku\"}\n";
        assert_eq!(detect(mjai).0, Format::Mjai);
        assert_eq!(detect(b"<html></html>"), (Format::Paifu, Some("XML without <mjloggm>, not an mjlog record")));
        assert_eq!(
            detect(b"[1, 2]").1,
            Some("JSON that is not a tenhou.net/6 record (no \"log\") nor an mjai event (no \"type\")")
        );
        assert_eq!(detect(b"{\"type\":\"none\"}").1.map(|w| w.starts_with("JSON Lines without")), Some(true));
        assert_eq!(detect(b"\xff\xfe").1, Some("it is not UTF-8 text"));
        assert_eq!(detect(b"hello").1, Some("its first line is not JSON nor XML"));
    }

    #[test]
    fn a_record_past_the_import_limit_is_refused_before_it_is_read() {
        let big = [b"{\"log\":[],\"x\":\"".as_slice(), &vec![b'x'; 600 << 10], b"\"}"].concat();
        let e = to_log_bytes(Format::Tenhou6, big).unwrap_err();
        assert!(e.to_string().starts_with("read as tenhou.net/6 JSON: the file is 614417 bytes"), "{e}");
    }
}
