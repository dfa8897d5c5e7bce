//! The mjai events other than draws and discards, read by hand when a line is written as mjai's
//! writers write it (Mortal's libriichi, `paifu export mjai`, Python's compact `json.dumps`): one
//! object on one line, no whitespace, `"type"` first, each key once and known to its event, the
//! strings without escapes, the integers plainly written. Anything else (another key, a `null`, a
//! space, an escape, a value out of range, an event the JSON reading refuses) answers `None`, and
//! the line is read as JSON as before (read.rs), which gives its event or names what is wrong.
//! What this reads is what the JSON reading reads: the test compares the two on every line of the
//! real games' mjai and on lines made from them byte by byte.

use super::read::{Event, Pai};

/// The event of `raw`, read by hand, or `None` (the JSON reading then reads it).
pub(super) fn event(raw: &str) -> Option<Event> {
    let mut c = Cursor { s: raw.as_bytes(), text: raw, at: 0 };
    c.lit(b"{\"type\":")?;
    let kind = c.string()?;
    let mut seen = Seen::default();
    let e = match kind {
        "start_kyoku" => start_kyoku(&mut c, &mut seen)?,
        "chi" | "pon" | "daiminkan" => {
            let (mut actor, mut target, mut pai, mut consumed) = (None, None, None, None);
            c.members(&mut seen, |c, k| {
                match k {
                    "actor" => actor = Some(c.seat()?),
                    "target" => target = Some(c.seat()?),
                    "pai" => pai = Some(c.pai()?),
                    "consumed" => consumed = Some(c.pais()?),
                    _ => return None,
                }
                Some(())
            })?;
            let (actor, target, pai, consumed) = (actor?, target?, pai?, consumed?);
            let need = if kind == "daiminkan" { 3 } else { 2 };
            if consumed.len() != need {
                return None;
            }
            match kind {
                "chi" => Event::Chi { actor, target, pai, consumed },
                "pon" => Event::Pon { actor, target, pai, consumed },
                _ => Event::Daiminkan { actor, target, pai, consumed },
            }
        }
        "kakan" | "ankan" => {
            let (mut actor, mut pai, mut consumed) = (None, None, None);
            c.members(&mut seen, |c, k| {
                match k {
                    "actor" => actor = Some(c.seat()?),
                    "pai" if kind == "kakan" => pai = Some(c.pai()?),
                    "consumed" => consumed = Some(c.pais()?),
                    _ => return None,
                }
                Some(())
            })?;
            match kind {
                "kakan" => Event::Kakan { actor: actor?, pai: pai?, consumed: consumed? },
                _ => Event::Ankan { actor: actor?, consumed: consumed? },
            }
        }
        "dora" => {
            let mut marker = None;
            c.members(&mut seen, |c, k| {
                (k == "dora_marker").then_some(())?;
                marker = Some(c.pai()?);
                Some(())
            })?;
            Event::Dora { dora_marker: marker? }
        }
        "reach" => {
            let mut actor = None;
            c.members(&mut seen, |c, k| {
                (k == "actor").then_some(())?;
                actor = Some(c.seat()?);
                Some(())
            })?;
            Event::Reach { actor: actor? }
        }
        "reach_accepted" => {
            let (mut actor, mut scores, mut deltas) = (None, None, None);
            c.members(&mut seen, |c, k| {
                match k {
                    "actor" => actor = Some(c.seat()?),
                    "scores" => scores = Some(c.ints()?),
                    "deltas" => deltas = Some(c.ints()?),
                    _ => return None,
                }
                Some(())
            })?;
            Event::ReachAccepted { actor: actor?, scores, deltas }
        }
        "hora" => hora(&mut c, &mut seen)?,
        "ryukyoku" => {
            let (mut reason, mut deltas, mut scores) = (None, None, None);
            c.members(&mut seen, |c, k| {
                match k {
                    "reason" => reason = Some(c.string()?.to_owned()),
                    "deltas" => deltas = Some(c.ints()?),
                    "scores" => scores = Some(c.ints()?),
                    _ => return None,
                }
                Some(())
            })?;
            Event::Ryukyoku { reason, deltas, scores, tenpais: None }
        }
        "end_kyoku" => {
            c.members(&mut seen, |_, _| None)?;
            Event::EndKyoku
        }
        "end_game" => {
            let mut scores = None;
            c.members(&mut seen, |c, k| {
                (k == "scores").then_some(())?;
                scores = Some(c.ints()?);
                Some(())
            })?;
            Event::EndGame { scores }
        }
        "start_game" => {
            let (mut names, mut red, mut rule, mut id) = (None, None, None, None);
            c.members(&mut seen, |c, k| {
                match k {
                    "names" => names = Some(c.list(|c| c.string().map(str::to_owned))?),
                    "aka_flag" => red = Some(c.boolean()?),
                    "rule" => rule = Some(c.string()?.to_owned()),
                    "id" => id = Some(c.string()?.to_owned()),
                    _ => return None,
                }
                Some(())
            })?;
            // Four names, or none given; `[]` and other counts go to the JSON reading.
            let names = match names {
                Some(n) if n.len() == 4 => Some(n),
                Some(_) => return None,
                None => None,
            };
            Event::StartGame { names, red_fives: red, east_only: None, rule, id, paifu: None }
        }
        _ => return None,
    };
    Some(e)
}

fn start_kyoku(c: &mut Cursor, seen: &mut Seen) -> Option<Event> {
    let (mut bakaze, mut kyoku, mut honba, mut kyotaku, mut oya) = (None, None, None, None, None);
    let (mut scores, mut dora, mut tehais) = (None, None, None);
    c.members(seen, |c, k| {
        match k {
            "bakaze" => bakaze = Some(c.pai()?),
            "kyoku" => kyoku = Some(u8::try_from(c.int()?).ok().filter(|k| (1..=4).contains(k))?),
            "honba" => honba = Some(u32::try_from(c.int()?).ok()?),
            "kyotaku" => kyotaku = Some(u32::try_from(c.int()?).ok()?),
            "oya" => oya = Some(c.seat()?),
            "scores" => scores = Some(c.ints()?),
            "dora_marker" => dora = Some(c.pai()?),
            "tehais" => tehais = Some(c.list(Cursor::pais)?),
            _ => return None,
        }
        Some(())
    })?;
    let tehais = tehais.filter(|t: &Vec<Vec<Pai>>| t.len() == 4)?;
    Some(Event::StartKyoku {
        bakaze: bakaze?,
        kyoku: kyoku?,
        honba: honba?,
        kyotaku: kyotaku?,
        oya: oya?,
        scores,
        dora_marker: dora?,
        tehais,
        haiyama: None,
    })
}

fn hora(c: &mut Cursor, seen: &mut Seen) -> Option<Event> {
    let (mut actor, mut target, mut pai, mut ura, mut yaku) = (None, None, None, None, None);
    let (mut fu, mut han, mut deltas, mut scores) = (None, None, None, None);
    c.members(seen, |c, k| {
        match k {
            "actor" => actor = Some(c.seat()?),
            "target" => target = Some(c.seat()?),
            "pai" => pai = Some(c.pai()?),
            "ura_markers" => ura = Some(c.pais()?),
            "yakus" => {
                yaku = Some(c.list(|c| {
                    c.lit(b"[")?;
                    let name = c.string()?.to_owned();
                    c.lit(b",")?;
                    let han = u32::try_from(c.int()?).ok()?;
                    c.lit(b"]")?;
                    Some((name, han))
                })?)
            }
            "fu" => fu = Some(u32::try_from(c.int()?).ok()?),
            "fan" => han = Some(u32::try_from(c.int()?).ok()?),
            "deltas" => deltas = Some(c.ints()?),
            "scores" => scores = Some(c.ints()?),
            _ => return None,
        }
        Some(())
    })?;
    Some(Event::Hora {
        actor: actor?,
        target: target?,
        pai,
        ura_markers: ura.unwrap_or_default(),
        yaku,
        fu,
        han,
        deltas,
        scores,
        pao: None,
        hand: None,
        tsumo: None,
    })
}

/// The keys read so far, as bits of their places in [`KEYS`] (each may be given once).
#[derive(Default)]
struct Seen(u32);

struct Cursor<'a> {
    s: &'a [u8],
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn lit(&mut self, l: &[u8]) -> Option<()> {
        let end = self.at + l.len();
        (self.s.get(self.at..end)? == l).then(|| self.at = end)
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    /// A string without escapes or control characters.
    fn string(&mut self) -> Option<&'a str> {
        self.lit(b"\"")?;
        let start = self.at;
        let len = self.s[start..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        self.at = start + len;
        self.lit(b"\"")?;
        // Both ends are next to an ASCII quote: character boundaries.
        self.text.get(start..start + len)
    }

    /// An integer as JSON writes it plainly: `0`, `-12`, `25000` (at most 15 digits).
    fn int(&mut self) -> Option<i64> {
        let neg = self.lit(b"-").is_some();
        let start = self.at;
        let len = self.s[start..].iter().take_while(|b| b.is_ascii_digit()).count();
        if len == 0 || len > 15 || (self.s[start] == b'0' && (len > 1 || neg)) {
            return None;
        }
        // A number followed by `.`, `e` or `E` is a float: the JSON reading's.
        if matches!(self.s.get(start + len), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        self.at = start + len;
        let n = self.s[start..start + len].iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
        Some(if neg { -n } else { n })
    }

    fn boolean(&mut self) -> Option<bool> {
        if self.lit(b"true").is_some() {
            Some(true)
        } else {
            self.lit(b"false").map(|()| false)
        }
    }

    fn seat(&mut self) -> Option<u8> {
        u8::try_from(self.int()?).ok().filter(|&s| s < 4)
    }

    fn pai(&mut self) -> Option<Pai> {
        Pai::parse(self.string()?)
    }

    /// `[]` or `[item,item...]`.
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.lit(b"[")?;
        if self.lit(b"]").is_some() {
            return Some(Vec::new());
        }
        // Room for a starting hand (13 tiles), the longest list most events hold, at once.
        let mut out = Vec::with_capacity(13);
        loop {
            out.push(item(self)?);
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(out);
                }
                _ => return None,
            }
        }
    }

    fn pais(&mut self) -> Option<Vec<Pai>> {
        self.list(Cursor::pai)
    }

    fn ints(&mut self) -> Option<Vec<i64>> {
        self.list(Cursor::int)
    }

    /// The members after `"type"`: `,"key":value` each read by `member` (which answers `None`
    /// for a key it does not know), then `}` and the line's end. A key given twice answers `None`.
    fn members(&mut self, seen: &mut Seen, mut member: impl FnMut(&mut Self, &str) -> Option<()>) -> Option<()> {
        while self.lit(b",").is_some() {
            let key = self.string()?;
            self.lit(b":")?;
            let bit = 1u32 << KEYS.iter().position(|k| *k == key)?;
            if seen.0 & bit != 0 {
                return None;
            }
            seen.0 |= bit;
            member(self, key)?;
        }
        self.lit(b"}")?;
        (self.at == self.s.len()).then_some(())
    }
}

/// Every key `event` reads (`Seen` keeps them as these).
const KEYS: &[&str] = &[
    "actor",
    "target",
    "pai",
    "consumed",
    "dora_marker",
    "scores",
    "deltas",
    "reason",
    "names",
    "aka_flag",
    "rule",
    "id",
    "bakaze",
    "kyoku",
    "honba",
    "kyotaku",
    "oya",
    "tehais",
    "ura_markers",
    "yakus",
    "fu",
    "fan",
];
// Each key is a bit of a `u32` (`1u32 << position`): at most 32 of them.
const _: () = assert!(KEYS.len() <= 32);

#[cfg(test)]
mod tests {
    use super::super::{as_json, real_lines};
    use super::*;

    #[test]
    fn the_scanned_events_are_the_json_readings_of_the_same_lines() {
        let lines = real_lines();
        let mut by_kind: std::collections::BTreeMap<String, usize> = Default::default();
        let mut missed = Vec::new();
        for l in &lines {
            let kind = l.split('"').nth(3).unwrap_or_default().to_owned();
            match event(l) {
                Some(e) => {
                    assert_eq!(as_json(l), Ok(Some(e)), "{l}");
                    *by_kind.entry(kind).or_default() += 1;
                }
                None => missed.push(l),
            }
        }
        // Every line but the embedded log's `start_game` (and draws and discards, which the
        // quick reading takes before this) is read by hand.
        for l in &missed {
            assert!(
                l.contains("\"paifu\":") || l.starts_with(r#"{"type":"tsumo""#) || l.starts_with(r#"{"type":"dahai""#),
                "{l}"
            );
        }
        for kind in ["start_kyoku", "chi", "pon", "kakan", "ankan", "dora", "reach", "reach_accepted", "hora"] {
            assert!(by_kind.get(kind).is_some_and(|n| *n > 0), "{kind}: {by_kind:?}");
        }
        for kind in ["ryukyoku", "end_kyoku", "end_game", "daiminkan"] {
            assert!(by_kind.get(kind).is_some_and(|n| *n > 0), "{kind}: {by_kind:?}");
        }
        // A few lines of each kind, changed, dropped and inserted a byte at a time: whatever the
        // scanner still reads, the JSON reading reads the same.
        let mut taken: std::collections::BTreeMap<String, usize> = Default::default();
        let mut tried = 0;
        for l in lines.iter().filter(|l| !l.contains("\"paifu\":") && l.len() < 700) {
            let kind = l.split('"').nth(3).unwrap_or_default().to_owned();
            let n = taken.entry(kind).or_default();
            *n += 1;
            if *n > 3 {
                continue;
            }
            for v in crate::import::mjai::byte_variants(l, b"40- \"\\r}],E.x") {
                if let Some(e) = event(&v) {
                    tried += 1;
                    assert_eq!(as_json(&v), Ok(Some(e)), "{v}");
                }
            }
        }
        assert!(tried > 3000, "{tried}");
    }

    #[test]
    fn lines_off_the_usual_form_are_left_to_the_json_reading() {
        for l in [
            r#"{"type":"reach","actor":4}"#,
            r#"{"type":"reach","actor":-0}"#,
            r#"{"type":"reach","actor":01}"#,
            r#"{"type":"reach","actor":1.0}"#,
            r#"{"type":"reach","actor":1e0}"#,
            r#"{"type":"reach","actor":1,"actor":2}"#,
            r#"{"type":"reach","actor":1,"type":"dora"}"#,
            r#"{"type":"reach","actor":1,"x":1}"#,
            r#"{"type":"reach","actor":1} "#,
            r#"{"type":"reach", "actor":1}"#,
            r#"{"type":"reach"}"#,
            r#"{"type":"none"}"#,
            r#"{"actor":1,"type":"reach"}"#,
            r#"{"type":"pon","actor":2,"target":0,"pai":"P","consumed":["P"]}"#,
            r#"{"type":"daiminkan","actor":2,"target":0,"pai":"P","consumed":["P","P"]}"#,
            r#"{"type":"pon","actor":2,"target":0,"pai":"P\u0020","consumed":["P","P"]}"#,
            r#"{"type":"pon","actor":2,"target":0,"pai":"0m","consumed":["P","P"]}"#,
            r#"{"type":"hora","actor":1,"target":2,"yakus":[["a",-1]]}"#,
            r#"{"type":"hora","actor":1,"target":2,"yakus":[["a",1,2]]}"#,
            r#"{"type":"hora","actor":1,"target":2,"fu":null}"#,
            r#"{"type":"hora","actor":1,"target":2,"fu":4294967296}"#,
            r#"{"type":"start_game","names":["a","b","c"]}"#,
            r#"{"type":"start_game","names":[]}"#,
            r#"{"type":"start_game","aka_flag":1}"#,
            r#"{"type":"start_kyoku","bakaze":"E","kyoku":5,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"1m","tehais":[[],[],[],[]]}"#,
            r#"{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":-1,"kyotaku":0,"oya":0,"dora_marker":"1m","tehais":[[],[],[],[]]}"#,
            r#"{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"1m","tehais":[[],[],[]]}"#,
            r#"{"type":"end_game","scores":[1,2,99999999999999999999]}"#,
        ] {
            assert_eq!(event(l), None, "{l}");
        }
        let l = r#"{"type":"start_kyoku","bakaze":"S","kyoku":2,"honba":1,"kyotaku":0,"oya":1,"dora_marker":"5pr","tehais":[["1m"],["?"],[],["C"]]}"#;
        assert_eq!(event(l), as_json(l).unwrap());
        assert!(event(l).is_some());
        let l = r#"{"type":"hora","actor":1,"target":2,"pai":"6m","yakus":[["自風 南",1]],"fu":30,"fan":4,"deltas":[0,-8700,8700,0]}"#;
        assert_eq!(event(l), as_json(l).unwrap());
        assert!(event(l).is_some());
    }
}
