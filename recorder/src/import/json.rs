//! A JSON text read into one flat list of its values, strings borrowed from the text: what the
//! readers of tenhou.net/6 records and mjai events walk. serde_json parses (its errors, with
//! line and column, are the readers'); each value is one entry of a single list, in the order
//! of the text (an array or object followed by its items), so reading a game record allocates
//! that list and the strings that have escapes, not a list per array and a string per string as
//! `serde_json::Value` does. The list can be reused for the next text (mjai: one per line).

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::borrow::Cow;
use std::fmt;

/// One value of a document. An array or object is followed by its items (an object's as key,
/// value, key, value...); `end` is the index just past its last item's values.
#[derive(Clone, Debug, PartialEq)]
enum Node<'a> {
    Null,
    Bool(bool),
    /// An integer of at least 0 (serde_json's reading of one).
    Pos(u64),
    /// An integer below 0.
    Neg(i64),
    Float(f64),
    Str(Cow<'a, str>),
    Array {
        len: u32,
        end: u32,
    },
    Object {
        len: u32,
        end: u32,
    },
}

/// A JSON text read into its values.
#[derive(Clone, Debug, Default)]
pub(crate) struct Doc<'a> {
    nodes: Vec<Node<'a>>,
}

impl<'a> Doc<'a> {
    /// Reads a JSON text.
    pub(crate) fn parse(text: &'a str) -> Result<Doc<'a>, serde_json::Error> {
        let mut doc = Doc::default();
        doc.read(text)?;
        Ok(doc)
    }

    /// Reads a JSON text in place of the one read before, keeping the room it took.
    ///
    /// A text of the plain JSON game records are written in (no escape in a string) is read by
    /// [`Scan`], by hand; any other, and any text that is not JSON, by
    /// serde_json (which reads the plain ones to the same values, and writes the errors).
    pub(crate) fn read(&mut self, text: &'a str) -> Result<(), serde_json::Error> {
        self.nodes.clear();
        if Scan::whole(text, &mut self.nodes).is_some() {
            return Ok(());
        }
        self.nodes.clear();
        let mut de = serde_json::Deserializer::from_str(text);
        Seed(&mut self.nodes).deserialize(&mut de)?;
        de.end()
    }

    /// The value the text holds.
    pub(crate) fn root(&self) -> Json<'_, 'a> {
        Json { doc: self, i: 0 }
    }
}

/// A hand reader of the JSON texts game records are written in, onto a [`Doc`]'s list: the
/// values serde_json reads them to (test `the_scan_reads_what_serde_json_reads`). It gives up
/// (`None`) on anything outside that plain form, and then serde_json reads the text: a string
/// with an escape, a number with a leading zero or more than 18 digits before its fraction,
/// `-0`, nesting deeper than [`Scan::DEPTH`], and every text that is not JSON. (A number with a
/// fraction or an exponent is read by serde_json alone, where the scan finds it.)
struct Scan<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Scan<'a> {
    /// Deeper than this, serde_json reads the text (its own limit is 128).
    const DEPTH: u32 = 64;

    /// Reads the whole `text` onto `nodes`; `None` where it gives up (`nodes` then holds part).
    fn whole(text: &'a str, nodes: &mut Vec<Node<'a>>) -> Option<()> {
        let mut s = Scan { text, at: 0 };
        s.value(nodes, 0)?;
        s.space();
        (s.at == text.len()).then_some(())
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.at).copied()
    }

    /// Skips JSON's whitespace (space, tab, line feed, carriage return).
    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Skips whitespace and then `b`, which must come next.
    fn expect(&mut self, b: u8) -> Option<()> {
        self.space();
        (self.peek()? == b).then(|| self.at += 1)
    }

    fn word(&mut self, w: &str, node: Node<'a>, nodes: &mut Vec<Node<'a>>) -> Option<()> {
        self.bytes()[self.at..].starts_with(w.as_bytes()).then(|| {
            self.at += w.len();
            nodes.push(node);
        })
    }

    /// A string without escapes or control characters, after its opening quote.
    fn string(&mut self) -> Option<&'a str> {
        let start = self.at;
        let len = self.bytes()[start..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        let end = start + len;
        (self.bytes()[end] == b'"').then_some(())?;
        self.at = end + 1;
        // The text is UTF-8, and the quote is a character of its own.
        self.text.get(start..end)
    }

    /// An integer of at most 18 digits, without a leading zero, not `-0`; or such an integer
    /// part followed by a fraction or an exponent ([`Scan::float`]).
    fn number(&mut self, nodes: &mut Vec<Node<'a>>) -> Option<()> {
        let neg = self.peek() == Some(b'-');
        let start = self.at + usize::from(neg);
        let digits = self.bytes()[start..].iter().take_while(|b| b.is_ascii_digit()).count();
        let end = start + digits;
        if digits == 0 || digits > 18 || (digits > 1 && self.bytes()[start] == b'0') {
            return None;
        }
        if matches!(self.bytes().get(end), Some(b'.' | b'e' | b'E')) {
            return self.float(end, nodes);
        }
        let mut n: u64 = 0;
        for &d in &self.bytes()[start..end] {
            n = n * 10 + u64::from(d - b'0');
        }
        self.at = end;
        nodes.push(match neg {
            false => Node::Pos(n),
            true if n == 0 => return None,
            // 18 digits fit in an i64.
            true => Node::Neg(-(n as i64)),
        });
        Some(())
    }

    /// A number with a fraction or an exponent (Tenhou's results after uma, `-19.7`), whose
    /// integer part ends at `end`: its extent found by JSON's grammar and its value read by
    /// serde_json itself (its reading of a float is not always the nearest one: the same text
    /// must give the same bits).
    fn float(&mut self, end: usize, nodes: &mut Vec<Node<'a>>) -> Option<()> {
        let b = self.bytes();
        let digits_from = |i: usize| b[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        let mut i = end;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let n = digits_from(i);
            if n == 0 {
                return None;
            }
            i += n;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let n = digits_from(i);
            if n == 0 {
                return None;
            }
            i += n;
        }
        let f: f64 = serde_json::from_str(self.text.get(self.at..i)?).ok()?;
        self.at = i;
        nodes.push(Node::Float(f));
        Some(())
    }

    /// One value (and its items) onto `nodes`, whitespace before it skipped.
    fn value(&mut self, nodes: &mut Vec<Node<'a>>, depth: u32) -> Option<()> {
        self.space();
        match self.peek()? {
            b'"' => {
                self.at += 1;
                let s = self.string()?;
                nodes.push(Node::Str(Cow::Borrowed(s)));
                Some(())
            }
            b'[' => self.container(nodes, depth, false),
            b'{' => self.container(nodes, depth, true),
            b'n' => self.word("null", Node::Null, nodes),
            b't' => self.word("true", Node::Bool(true), nodes),
            b'f' => self.word("false", Node::Bool(false), nodes),
            b'-' | b'0'..=b'9' => self.number(nodes),
            _ => None,
        }
    }

    /// An array or (`object`) an object, at its opening bracket.
    fn container(&mut self, nodes: &mut Vec<Node<'a>>, depth: u32, object: bool) -> Option<()> {
        if depth >= Self::DEPTH {
            return None;
        }
        self.at += 1;
        let at = nodes.len();
        nodes.push(Node::Null);
        let close = if object { b'}' } else { b']' };
        let mut len: u32 = 0;
        self.space();
        if self.peek()? == close {
            self.at += 1;
        } else {
            loop {
                if object {
                    self.expect(b'"')?;
                    let key = self.string()?;
                    nodes.push(Node::Str(Cow::Borrowed(key)));
                    self.expect(b':')?;
                }
                self.value(nodes, depth + 1)?;
                len = len.checked_add(1)?;
                self.space();
                match self.peek()? {
                    b',' => self.at += 1,
                    b if b == close => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        let end = u32::try_from(nodes.len()).ok()?;
        nodes[at] = if object { Node::Object { len, end } } else { Node::Array { len, end } };
        Some(())
    }
}

/// A value of a [`Doc`].
#[derive(Clone, Copy)]
pub(crate) struct Json<'d, 'a> {
    doc: &'d Doc<'a>,
    i: usize,
}

impl fmt::Debug for Json<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<'d, 'a> Json<'d, 'a> {
    fn node(&self) -> &'d Node<'a> {
        // `i` is always a node of the document (the root, or one an array or object lists).
        &self.doc.nodes[self.i]
    }

    /// The index just past this value's items.
    fn end(&self) -> usize {
        match *self.node() {
            Node::Array { end, .. } | Node::Object { end, .. } => end as usize,
            _ => self.i + 1,
        }
    }

    pub(crate) fn as_i64(&self) -> Option<i64> {
        match *self.node() {
            Node::Pos(n) => i64::try_from(n).ok(),
            Node::Neg(n) => Some(n),
            _ => None,
        }
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        match *self.node() {
            Node::Pos(n) => Some(n),
            _ => None,
        }
    }

    /// Any number, as a float.
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match *self.node() {
            Node::Pos(n) => Some(n as f64),
            Node::Neg(n) => Some(n as f64),
            Node::Float(f) => Some(f),
            _ => None,
        }
    }

    pub(crate) fn as_bool(&self) -> Option<bool> {
        match *self.node() {
            Node::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&'d str> {
        match self.node() {
            Node::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    pub(crate) fn is_null(&self) -> bool {
        matches!(self.node(), Node::Null)
    }

    pub(crate) fn is_array(&self) -> bool {
        matches!(self.node(), Node::Array { .. })
    }

    pub(crate) fn is_object(&self) -> bool {
        matches!(self.node(), Node::Object { .. })
    }

    /// The items of an array; `None` for anything else.
    pub(crate) fn items(&self) -> Option<Items<'d, 'a>> {
        match *self.node() {
            Node::Array { len, .. } => Some(Items { doc: self.doc, next: self.i + 1, left: len as usize }),
            _ => None,
        }
    }

    /// The item `k` of an array.
    pub(crate) fn at(&self, k: usize) -> Option<Json<'d, 'a>> {
        self.items()?.nth(k)
    }

    /// The entries of an object, as (key, value) in the text's order; `None` for anything else.
    pub(crate) fn entries(&self) -> Option<Entries<'d, 'a>> {
        match *self.node() {
            Node::Object { len, .. } => Some(Entries { doc: self.doc, next: self.i + 1, left: len as usize }),
            _ => None,
        }
    }

    /// The value of an object's key (the last, if it is given twice, as `serde_json::Value`
    /// keeps it); `None` for anything else.
    pub(crate) fn get(&self, key: &str) -> Option<Json<'d, 'a>> {
        self.entries()?.filter(|(k, _)| *k == key).last().map(|(_, v)| v)
    }

    /// Whether an object has the key.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.entries().is_some_and(|mut e| e.any(|(k, _)| k == key))
    }

    /// Where this value is in the text, as a path from the whole: `log[3][5][7]`, `rule.aka`
    /// (empty for the whole). Found by walking down from the whole: for messages only.
    pub(crate) fn path(&self) -> String {
        let mut out = String::new();
        let mut cur = self.doc.root();
        while cur.i != self.i {
            let holds = |c: &Json| c.i <= self.i && self.i < c.end();
            let next = match cur.items() {
                Some(items) => items.enumerate().find(|(_, c)| holds(c)).map(|(k, c)| (format!("[{k}]"), c)),
                None => cur
                    .entries()
                    .and_then(|mut e| e.find(|(_, c)| holds(c)))
                    .map(|(key, c)| (if out.is_empty() { key.to_owned() } else { format!(".{key}") }, c)),
            };
            let Some((step, c)) = next else { break };
            out.push_str(&step);
            cur = c;
        }
        out
    }

    /// The same value as a `serde_json::Value` (for the few readers that keep a subtree as it is).
    pub(crate) fn to_value(self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// The items of an array.
#[derive(Clone)]
pub(crate) struct Items<'d, 'a> {
    doc: &'d Doc<'a>,
    next: usize,
    left: usize,
}

impl<'d, 'a> Iterator for Items<'d, 'a> {
    type Item = Json<'d, 'a>;

    fn next(&mut self) -> Option<Json<'d, 'a>> {
        if self.left == 0 {
            return None;
        }
        let v = Json { doc: self.doc, i: self.next };
        self.next = v.end();
        self.left -= 1;
        Some(v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Items<'_, '_> {}

/// The entries of an object.
#[derive(Clone)]
pub(crate) struct Entries<'d, 'a> {
    doc: &'d Doc<'a>,
    next: usize,
    left: usize,
}

impl<'d, 'a> Iterator for Entries<'d, 'a> {
    type Item = (&'d str, Json<'d, 'a>);

    fn next(&mut self) -> Option<(&'d str, Json<'d, 'a>)> {
        if self.left == 0 {
            return None;
        }
        let key = Json { doc: self.doc, i: self.next }.as_str().unwrap_or_default();
        let v = Json { doc: self.doc, i: self.next + 1 };
        self.next = v.end();
        self.left -= 1;
        Some((key, v))
    }
}

impl Serialize for Json<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.node() {
            Node::Null => s.serialize_unit(),
            Node::Bool(b) => s.serialize_bool(*b),
            Node::Pos(n) => s.serialize_u64(*n),
            Node::Neg(n) => s.serialize_i64(*n),
            Node::Float(f) => s.serialize_f64(*f),
            Node::Str(t) => s.serialize_str(t),
            Node::Array { len, .. } => {
                let mut seq = s.serialize_seq(Some(*len as usize))?;
                for v in self.items().into_iter().flatten() {
                    seq.serialize_element(&v)?;
                }
                seq.end()
            }
            Node::Object { len, .. } => {
                let mut map = s.serialize_map(Some(*len as usize))?;
                for (k, v) in self.entries().into_iter().flatten() {
                    map.serialize_entry(k, &v)?;
                }
                map.end()
            }
        }
    }
}

impl fmt::Display for Json<'_, '_> {
    /// The value as compact JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| fmt::Error)?)
    }
}

/// Reads one value (and its items) onto the end of the list.
struct Seed<'v, 'a>(&'v mut Vec<Node<'a>>);

impl<'de> DeserializeSeed<'de> for Seed<'_, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// The index a container's end is kept as: a text of more than 4 G values is not a game record.
fn index<E: de::Error>(n: usize) -> Result<u32, E> {
    u32::try_from(n).map_err(|_| E::custom("too many values"))
}

impl<'de> Visitor<'de> for Seed<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        self.0.push(Node::Null);
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        self.0.push(Node::Null);
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        Seed(self.0).deserialize(d)
    }

    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.0.push(Node::Bool(v));
        Ok(())
    }

    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.0.push(Node::Pos(v));
        Ok(())
    }

    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.0.push(if v >= 0 { Node::Pos(v as u64) } else { Node::Neg(v) });
        Ok(())
    }

    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        self.0.push(Node::Float(v));
        Ok(())
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<(), E> {
        self.0.push(Node::Str(Cow::Borrowed(v)));
        Ok(())
    }

    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.0.push(Node::Str(Cow::Owned(v.to_owned())));
        Ok(())
    }

    fn visit_string<E>(self, v: String) -> Result<(), E> {
        self.0.push(Node::Str(Cow::Owned(v)));
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let at = self.0.len();
        self.0.push(Node::Array { len: 0, end: 0 });
        let mut len = 0;
        while seq.next_element_seed(Seed(&mut *self.0))?.is_some() {
            len += 1;
        }
        self.0[at] = Node::Array { len: index(len)?, end: index(self.0.len())? };
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let at = self.0.len();
        self.0.push(Node::Object { len: 0, end: 0 });
        let mut len = 0;
        // A key is a string: read as any value, it is one.
        while map.next_key_seed(Seed(&mut *self.0))?.is_some() {
            map.next_value_seed(Seed(&mut *self.0))?;
            len += 1;
        }
        self.0[at] = Node::Object { len: index(len)?, end: index(self.0.len())? };
        Ok(())
    }
}

/// For the readers' tests: the texts made from `text` at each of byte offsets `at` (each below
/// its length) that are still UTF-8: cut there, that byte dropped, that byte replaced by each of
/// `bytes`.
#[cfg(test)]
pub(crate) fn changed_texts(text: &str, at: impl IntoIterator<Item = usize>, bytes: &[u8]) -> Vec<String> {
    let b = text.as_bytes();
    let mut changed = Vec::new();
    for i in at {
        changed.extend(String::from_utf8(b[..i].to_vec()).ok());
        let mut v = b.to_vec();
        v.remove(i);
        changed.extend(String::from_utf8(v).ok());
        for &c in bytes {
            let mut v = b.to_vec();
            v[i] = c;
            changed.extend(String::from_utf8(v).ok());
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// serde_json's reading of a text onto a list of values (what [`Doc::read`] falls back to).
    fn by_serde(text: &str) -> Option<Vec<Node<'_>>> {
        let mut nodes = Vec::new();
        let mut de = serde_json::Deserializer::from_str(text);
        Seed(&mut nodes).deserialize(&mut de).ok()?;
        de.end().ok()?;
        Some(nodes)
    }

    /// Where the hand reader reads a text, it reads the values serde_json reads (strings
    /// borrowed alike); it reads every real Tenhou record whole; and texts changed byte by byte
    /// (cut, a byte dropped or replaced by each of JSON's special characters) read either the same
    /// or by serde_json, which refuses those that are not JSON.
    #[test]
    fn the_scan_reads_what_serde_json_reads() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-logs/tenhou");
        let mut texts: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect();
        assert!(texts.len() >= 31);
        let real = texts.len();
        for t in &texts {
            let mut nodes = Vec::new();
            assert!(Scan::whole(t, &mut nodes).is_some(), "a real record read by hand");
            assert_eq!(Some(nodes), by_serde(t));
        }
        let small = [
            r#"{"a":[1,-2,3.5,"x",true,null,{"k":"v\n"},[]],"b":18446744073709551615,"a":0}"#,
            r#" { "type" : "dahai" , "actor" : 0 , "pai" : "5m" , "tsumogiri" : false } "#,
            "[[1,2,[3,[4,[]]]],{},{\"\":\"\"},-1,-0,0,00,01,-01,1e3,1E3,1.0,123456789012345678,1234567890123456789]",
            "[\t\r\n1\n]",
            "\"錯\"",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "[-9223372036854775808,-999999999999999999,999999999999999999]",
            "[16.3,-19.7,0.5,-0.5,1e3,1E-3,2.5e+10,-0.0,0.1e1,123456789.123456789e-300]",
            "[1e999]",
            "[1.]",
            "[.5]",
            "[1.e3]",
            "[1e]",
            "[1.5.3]",
        ];
        let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
        texts.extend(small.iter().map(|s| s.to_string()));
        texts.push(deep);
        let b = texts[0].len();
        let mut changed = changed_texts(&texts[0], (0..b).step_by(97).chain([0, 1, b - 1]), b"[]{},:\"\\-.0e \x01");
        for s in &small {
            changed.extend(changed_texts(s, 0..s.len(), b""));
        }
        texts.extend(changed);
        // `by_hand` counts the texts past the real records (those are read by hand above): the
        // small and changed texts the scanner takes, so that the comparison is made on them.
        let (mut by_hand, mut refused) = (0, 0);
        for (i, t) in texts.iter().enumerate() {
            let serde = by_serde(t);
            let mut nodes = Vec::new();
            if Scan::whole(t, &mut nodes).is_some() {
                assert_eq!(Some(&nodes), serde.as_ref(), "{t:.200}");
                by_hand += usize::from(i >= real);
            }
            let mut doc = Doc::default();
            match (doc.read(t), serde) {
                (Ok(()), Some(n)) => assert_eq!(doc.nodes, n, "{t:.200}"),
                (Err(_), None) => refused += 1,
                (r, n) => panic!("{t:.200}: read {r:?}, serde_json {n:?}"),
            }
        }
        assert!(by_hand > 300 && refused > 100, "{by_hand} read by hand, {refused} refused");
    }

    /// Every kind of value reads as serde_json reads it, strings without escapes borrowed, and
    /// writes back as the same JSON.
    #[test]
    fn values_read_and_write_as_serde_json_does() {
        let text = r#"{"a":[1,-2,3.5,"x",true,null,{"k":"v\n"},[]],"b":18446744073709551615,"a":0}"#;
        let doc = Doc::parse(text).unwrap();
        let j = doc.root();
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(j.to_value(), v);
        assert_eq!(j.get("a").and_then(|a| a.as_i64()), Some(0), "the last of a repeated key, as Value keeps it");
        assert!(j.has("b") && !j.has("c") && j.is_object());
        let (_, first) = j.entries().unwrap().next().unwrap();
        let arr: Vec<Json> = first.items().unwrap().collect();
        assert_eq!(arr.len(), 8);
        assert_eq!(first.items().unwrap().len(), 8);
        assert!(matches!(arr[3].node(), Node::Str(Cow::Borrowed("x"))));
        assert!(matches!(arr[6].get("k").map(|k| k.node()), Some(Node::Str(Cow::Owned(s))) if s == "v\n"));
        assert_eq!(
            (arr[0].as_i64(), arr[1].as_i64(), arr[1].as_u64(), arr[2].as_i64()),
            (Some(1), Some(-2), None, None)
        );
        assert_eq!((arr[2].as_f64(), arr[4].as_bool(), arr[5].is_null()), (Some(3.5), Some(true), true));
        assert!(arr[7].is_array() && arr[7].items().unwrap().next().is_none());
        assert_eq!(first.at(6).map(|o| o.to_string()), Some(r#"{"k":"v\n"}"#.to_owned()));
        assert!(first.at(8).is_none() && arr[0].at(0).is_none() && arr[0].get("k").is_none());
        assert_eq!(j.get("b").and_then(|b| b.as_i64()), None, "past i64 as serde_json's as_i64");
        assert_eq!(Doc::parse("16300.0").unwrap().root().to_string(), "16300.0");
        assert!(Doc::parse("[1,").is_err());
        assert!(Doc::parse("[1] 2").is_err(), "trailing values");
        // Paths, for messages.
        let k = arr[6].get("k").unwrap();
        assert_eq!((k.path(), arr[3].path(), j.path()), ("a[6].k".to_owned(), "a[3]".to_owned(), String::new()));
        // Read again in place: the earlier text is gone.
        let mut d = Doc::parse("[1,2]").unwrap();
        d.read("{\"z\":[true]}").unwrap();
        assert_eq!(d.root().to_string(), "{\"z\":[true]}");
    }
}
