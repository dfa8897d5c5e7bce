//! A JSON value read from a text and borrowing its strings from it: what the readers of
//! tenhou.net/6 records and mjai events walk. serde_json parses (its errors, with line and
//! column, are the readers'); a string without escapes is not copied, an array is one list, an
//! object one list of its entries in the file's order. `serde_json::Value` copies every string
//! and keeps objects in maps, which cost more than reading a game record does.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::borrow::Cow;
use std::fmt;

/// A JSON value whose strings borrow from the text it was read from when they can.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json<'a> {
    Null,
    Bool(bool),
    /// An integer of at least 0 (serde_json's reading of one).
    Pos(u64),
    /// An integer below 0.
    Neg(i64),
    Float(f64),
    Str(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    /// The entries in the file's order; a key given twice keeps both, and [`Json::get`] reads the
    /// last (as `serde_json::Value` does).
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

impl<'a> Json<'a> {
    /// Reads a JSON text.
    pub(crate) fn parse(text: &'a str) -> Result<Json<'a>, serde_json::Error> {
        serde_json::from_str(text)
    }

    pub(crate) fn as_i64(&self) -> Option<i64> {
        match *self {
            Json::Pos(n) => i64::try_from(n).ok(),
            Json::Neg(n) => Some(n),
            _ => None,
        }
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        match *self {
            Json::Pos(n) => Some(n),
            _ => None,
        }
    }

    /// Any number, as a float.
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match *self {
            Json::Pos(n) => Some(n as f64),
            Json::Neg(n) => Some(n as f64),
            Json::Float(f) => Some(f),
            _ => None,
        }
    }

    pub(crate) fn as_bool(&self) -> Option<bool> {
        match *self {
            Json::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    pub(crate) fn as_object(&self) -> Option<&[(Cow<'a, str>, Json<'a>)]> {
        match self {
            Json::Object(m) => Some(m),
            _ => None,
        }
    }

    pub(crate) fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// The value of an object's key (the last, if it is given twice); `None` for anything else.
    pub(crate) fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.as_object()?.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether an object has the key.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The same value as a `serde_json::Value` (for the few readers that keep a subtree as it is).
    pub(crate) fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Pos(n) => s.serialize_u64(*n),
            Json::Neg(n) => s.serialize_i64(*n),
            Json::Float(f) => s.serialize_f64(*f),
            Json::Str(t) => s.serialize_str(t),
            Json::Array(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for v in a {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Json::Object(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m {
                    map.serialize_entry(k.as_ref(), v)?;
                }
                map.end()
            }
        }
    }
}

impl fmt::Display for Json<'_> {
    /// The value as compact JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| fmt::Error)?)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json<'de>, D::Error> {
        Json::deserialize(d)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json<'de>, E> {
        Ok(Json::Pos(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json<'de>, E> {
        Ok(if v >= 0 { Json::Pos(v as u64) } else { Json::Neg(v) })
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json<'de>, E> {
        Ok(Json::Float(v))
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Owned(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(v) = seq.next_element()? {
            out.push(v);
        }
        Ok(Json::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
        while let Some(Key(k)) = map.next_key()? {
            out.push((k, map.next_value()?));
        }
        Ok(Json::Object(out))
    }
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json<'de>, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

/// An object's key, borrowed from the text when it has no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key<'de>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of value reads as serde_json reads it, strings without escapes borrowed, and
    /// writes back as the same JSON.
    #[test]
    fn values_read_and_write_as_serde_json_does() {
        let text = r#"{"a":[1,-2,3.5,"x",true,null,{"k":"v\n"}],"b":18446744073709551615,"a":0}"#;
        let j = Json::parse(text).unwrap();
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(j.to_value(), serde_json::to_value(&j).unwrap());
        assert_eq!(j.get("a"), Some(&Json::Pos(0)), "the last of a repeated key, as Value keeps it");
        assert_eq!(v["a"], 0);
        let Json::Object(m) = &j else { panic!() };
        let arr = m[0].1.as_array().unwrap();
        assert!(matches!(arr[3], Json::Str(Cow::Borrowed("x"))));
        assert!(matches!(arr[6].get("k"), Some(Json::Str(Cow::Owned(s))) if s == "v\n"));
        assert_eq!(
            (arr[0].as_i64(), arr[1].as_i64(), arr[1].as_u64(), arr[2].as_i64()),
            (Some(1), Some(-2), None, None)
        );
        assert_eq!(arr[2].as_f64(), Some(3.5));
        assert_eq!(j.get("b").and_then(Json::as_i64), None, "past i64 as serde_json's as_i64");
        assert_eq!(Json::Float(16300.0).to_string(), "16300.0");
        assert!(Json::parse("[1,").is_err());
    }
}
