//! What every ruleset's `paifu score` line protocol shares (riichi, MCR, Hungarian): one JSON object
//! in; one out with the input's `id`, `ok`, and either the ruleset's own fields or a stable
//! `error` code and a `message`.

use serde_json::{json, Map, Value};

/// A hand that cannot be scored: a stable code (`bad_input`, `invalid_tiles`, ...) and what is
/// wrong.
pub(crate) struct LineError {
    pub(crate) code: &'static str,
    pub(crate) message: String,
}

pub(crate) fn err(code: &'static str, message: impl Into<String>) -> LineError {
    LineError { code, message: message.into() }
}

/// Answers one input line (no newline): `score` reads the object and gives the answer's own
/// fields, which follow `id` and `ok` in the output. Never panics.
pub(crate) fn answer(
    line: &str,
    score: impl FnOnce(&Map<String, Value>) -> Result<Map<String, Value>, LineError>,
) -> String {
    let parsed: Result<Value, _> = serde_json::from_str(line);
    let (id, result) = match parsed {
        Err(e) => (Value::Null, Err(err("bad_input", format!("not JSON: {e}")))),
        Ok(Value::Object(obj)) => {
            let id = obj.get("id").cloned().unwrap_or(Value::Null);
            (id, score(&obj))
        }
        Ok(_) => (Value::Null, Err(err("bad_input", "the input must be one JSON object"))),
    };
    match result {
        Ok(mut fields) => {
            let mut out = Map::new();
            out.insert("id".into(), id);
            out.insert("ok".into(), Value::Bool(true));
            out.append(&mut fields);
            Value::Object(out).to_string()
        }
        Err(e) => json!({"id": id, "ok": false, "error": e.code, "message": e.message}).to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;

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
