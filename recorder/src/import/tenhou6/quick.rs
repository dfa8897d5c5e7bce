//! The one-pass reading of a tenhou.net/6 record written in the plain form Tenhou writes (the
//! format: tenhou6/mod.rs): its rounds read straight from the text into the record model, with no
//! document of the whole text built first (`paifu validate` reads the source every imported log
//! embeds, and this is most of that reading).
//!
//! It reads only what it is sure of and gives up (`None`) on anything else: a round whose shape
//! is not the plain one (every entry where Tenhou writes it, integers without a fraction, strings
//! without an escape), a value that would be an error, a second `log`, an embedded Paifu log. The
//! full reading (read.rs) then reads the text, and writes the errors. What it reads is what the
//! full reading reads (test `the_quick_reading_is_the_full_reading`): the fields but `log` are read
//! by the full reading itself, from a text of those fields alone, and each round's result from a
//! document of that result alone.

use super::read::{call_take, game_of, outcome_of, score_text, string_discard, yaku_of, DRAWS};
use crate::import::json::Doc;
use crate::import::record::{Discard, Game, Outcome, Round, Take, Tile, Win};

/// Whether a byte is JSON's whitespace (space, tab, line feed, carriage return).
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// A reader of the text, at byte `at`.
struct Quick<'a> {
    text: &'a str,
    at: usize,
}

/// Room for a seat's takes or discards (a hand rarely has more; more are pushed).
const LIST_ROOM: usize = 24;

impl<'a> Quick<'a> {
    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// Skips JSON's whitespace, and gives the byte after it.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        let b = self.bytes();
        let c = *b.get(self.at)?;
        if !is_space(c) {
            return Some(c);
        }
        while b.get(self.at).is_some_and(|&c| is_space(c)) {
            self.at += 1;
        }
        b.get(self.at).copied()
    }

    /// `c` next (whitespace before it skipped).
    #[inline]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.at += 1)
    }

    /// `,` or `close` next: whether it was `close`.
    #[inline]
    fn comma_or(&mut self, close: u8) -> Option<bool> {
        match self.peek()? {
            b',' => {
                self.at += 1;
                Some(false)
            }
            c if c == close => {
                self.at += 1;
                Some(true)
            }
            _ => None,
        }
    }

    /// A string without escapes or control characters.
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.at;
        let len = self.bytes()[start..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        let end = start + len;
        (self.bytes()[end] == b'"').then_some(())?;
        self.at = end + 1;
        self.text.get(start..end)
    }

    /// An integer of at most 18 digits, without a leading zero, not `-0`, with no fraction or
    /// exponent after it.
    #[inline]
    fn int(&mut self) -> Option<i64> {
        // Most are tile codes and 60: two digits, then the array goes on or ends.
        let b = self.bytes();
        if let (Some(&x @ b'1'..=b'9'), Some(&y @ b'0'..=b'9'), Some(b',' | b']')) =
            (b.get(self.at), b.get(self.at + 1), b.get(self.at + 2))
        {
            self.at += 2;
            return Some(i64::from(x - b'0') * 10 + i64::from(y - b'0'));
        }
        self.any_int()
    }

    /// [`Quick::int`] of any length.
    fn any_int(&mut self) -> Option<i64> {
        let c = self.peek()?;
        let b = self.bytes();
        let neg = c == b'-';
        let start = self.at + usize::from(neg);
        let first = b.get(start)?.wrapping_sub(b'0');
        if first > 9 {
            return None;
        }
        let mut n = i64::from(first);
        let mut i = start + 1;
        loop {
            match b.get(i) {
                Some(&d) if d.is_ascii_digit() => {
                    if i - start >= 18 {
                        return None;
                    }
                    n = n * 10 + i64::from(d - b'0');
                    i += 1;
                }
                Some(b'.' | b'e' | b'E') => return None,
                _ => break,
            }
        }
        if (first == 0 && i - start > 1) || (neg && n == 0) {
            return None;
        }
        self.at = i;
        Some(if neg { -n } else { n })
    }

    #[inline]
    fn tile(&mut self) -> Option<Tile> {
        Tile::from_code(self.int()?)
    }

    /// An array, each item read by `item` into `out` (which is empty).
    #[inline]
    fn array<T>(&mut self, out: &mut Vec<T>, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<()> {
        self.eat(b'[')?;
        if self.peek()? == b']' {
            self.at += 1;
            return Some(());
        }
        loop {
            out.push(item(self)?);
            if self.comma_or(b']')? {
                return Some(());
            }
        }
    }

    fn tiles(&mut self, room: usize) -> Option<Vec<Tile>> {
        let mut out = Vec::with_capacity(room);
        self.array(&mut out, Self::tile)?;
        Some(out)
    }

    /// Exactly `N` integers.
    fn ints<const N: usize>(&mut self) -> Option<[i64; N]> {
        let mut out = [0; N];
        self.eat(b'[')?;
        for (k, o) in out.iter_mut().enumerate() {
            if k > 0 {
                self.eat(b',')?;
            }
            *o = self.int()?;
        }
        self.eat(b']')?;
        Some(out)
    }

    fn take(&mut self) -> Option<Take> {
        if self.peek()? == b'"' {
            return call_take(self.string()?).ok();
        }
        Some(Take::Draw(self.tile()?))
    }

    fn discard(&mut self) -> Option<Discard> {
        if self.peek()? == b'"' {
            return string_discard(self.string()?).ok();
        }
        Some(match self.int()? {
            60 => Discard::Tsumogiri,
            0 => Discard::Nothing,
            c => Discard::Tile(Tile::from_code(c)?),
        })
    }

    /// Skips a value of JSON (strings with escapes included): where it starts and ends. Whether it
    /// is JSON is left to the full reading of the text it is copied into.
    fn skip(&mut self) -> Option<(usize, usize)> {
        self.peek()?;
        let b = self.bytes();
        let start = self.at;
        let mut depth = 0usize;
        let mut i = start;
        loop {
            match *b.get(i)? {
                b'"' => {
                    i += 1;
                    loop {
                        match *b.get(i)? {
                            b'\\' => i += 2,
                            b'"' => break,
                            _ => i += 1,
                        }
                    }
                    i += 1;
                }
                b'[' | b'{' => {
                    depth += 1;
                    i += 1;
                }
                b']' | b'}' if depth > 0 => {
                    depth -= 1;
                    i += 1;
                }
                b',' | b']' | b'}' if depth == 0 => break,
                _ => i += 1,
            }
        }
        self.at = i;
        let value = self.text.get(start..i)?.trim_end_matches([' ', '\t', '\n', '\r']);
        Some((start, start + value.len()))
    }

    /// A round, in the plain shape (read.rs's `round` reads any).
    fn round(&mut self, doc: &mut Doc<'a>) -> Option<Round> {
        self.eat(b'[')?;
        let [kyoku, honba, sticks] = self.ints::<3>()?;
        if !(0..16).contains(&kyoku) || honba < 0 || sticks < 0 {
            return None;
        }
        self.eat(b',')?;
        let scores = self.ints::<4>()?;
        self.eat(b',')?;
        let dora = self.tiles(5)?;
        self.eat(b',')?;
        let ura = self.tiles(5)?;
        let mut hands: [Vec<Tile>; 4] = Default::default();
        let mut takes: [Vec<Take>; 4] = Default::default();
        let mut discards: [Vec<Discard>; 4] = Default::default();
        for s in 0..4 {
            self.eat(b',')?;
            hands[s] = self.tiles(13)?;
            if hands[s].len() != 13 {
                return None;
            }
            self.eat(b',')?;
            takes[s] = Vec::with_capacity(LIST_ROOM);
            self.array(&mut takes[s], Self::take)?;
            self.eat(b',')?;
            discards[s] = Vec::with_capacity(LIST_ROOM);
            self.array(&mut discards[s], Self::discard)?;
        }
        self.eat(b',')?;
        let at = self.at;
        let outcome = match self.outcome() {
            Some(o) => o,
            None => {
                // Any other form (a stripped win...) read by the full reading of its text alone.
                self.at = at;
                let (start, end) = self.skip()?;
                doc.read(self.text.get(start..end)?).ok()?;
                outcome_of(doc.root()).ok()?
            }
        };
        self.eat(b']')?;
        Some(Round {
            kyoku: kyoku as u8,
            honba: honba as u32,
            sticks: sticks as u32,
            scores,
            dora,
            ura,
            hands,
            takes,
            discards,
            outcome,
        })
    }

    /// A seat, 0 to 3.
    fn seat(&mut self) -> Option<u8> {
        u8::try_from(self.int()?).ok().filter(|&s| s < 4)
    }

    /// A round's result in its whole form, as read.rs's `outcome` reads it: `["和了", deltas,
    /// [who, from, pao, "text", "yaku"...], ...]` (every item there), a draw's name with its four
    /// score changes, or an abortive draw's name alone; `None` for anything else.
    fn outcome(&mut self) -> Option<Outcome> {
        self.eat(b'[')?;
        let name = self.string()?;
        if name == "和了" {
            let mut wins = Vec::with_capacity(1);
            while !self.comma_or(b']')? {
                let deltas = self.ints::<4>()?;
                self.eat(b',')?;
                self.eat(b'[')?;
                let who = self.seat()?;
                self.eat(b',')?;
                let from = self.seat()?;
                self.eat(b',')?;
                let pao = self.seat()?;
                self.eat(b',')?;
                let text = self.string()?;
                let (fu, han) = score_text(text)?;
                let mut yaku = Vec::new();
                while !self.comma_or(b']')? {
                    yaku.push(yaku_of(self.string()?)?);
                }
                let computed = if yaku.is_empty() { vec!["yaku"] } else { Vec::new() };
                let yaku = (!yaku.is_empty()).then_some(yaku);
                wins.push(Win { deltas, who, from, pao: Some(pao), text: text.to_owned(), fu, han, yaku, computed });
            }
            return (!wins.is_empty()).then_some(Outcome::Wins(wins));
        }
        if !DRAWS.contains(&name) {
            return None;
        }
        let deltas = match name {
            "流局" | "流し満貫" => {
                self.eat(b',')?;
                Some(self.ints::<4>()?)
            }
            _ => None,
        };
        self.eat(b']')?;
        Some(Outcome::Draw { name: name.to_owned(), deltas })
    }

    /// The `log` array's rounds.
    fn rounds(&mut self) -> Option<Vec<Round>> {
        let mut doc = Doc::default();
        let mut out = Vec::with_capacity(16);
        self.array(&mut out, |q| q.round(&mut doc))?;
        Some(out)
    }
}

/// A tenhou.net/6 record read in one pass (the module's doc); `None` where the full reading must
/// read it.
pub(super) fn game(text: &str) -> Option<Game> {
    let mut q = Quick { text, at: 0 };
    q.eat(b'{')?;
    // The fields but `log`, written again as an object of their own for the full reading.
    let mut rest = String::with_capacity(512);
    rest.push('{');
    let mut rounds = None;
    if q.peek()? != b'}' {
        loop {
            let key = q.string()?;
            q.eat(b':')?;
            match key {
                "log" if rounds.is_none() => rounds = Some(q.rounds()?),
                "log" | "paifu" => return None,
                _ => {
                    let (start, end) = q.skip()?;
                    if rest.len() > 1 {
                        rest.push(',');
                    }
                    rest.push('"');
                    rest.push_str(key);
                    rest.push_str("\":");
                    rest.push_str(text.get(start..end)?);
                }
            }
            if q.comma_or(b'}')? {
                break;
            }
        }
    } else {
        q.at += 1;
    }
    if q.peek().is_some() {
        return None;
    }
    let rounds = rounds?;
    if rest.len() > 1 {
        rest.push(',');
    }
    rest.push_str("\"log\":[]}");
    let doc = Doc::parse(&rest).ok()?;
    game_of(doc.root(), |_| Ok(rounds)).ok()
}

#[cfg(test)]
mod tests {
    use super::super::read::full;
    use super::*;

    fn real() -> Vec<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-logs/tenhou");
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .filter(|p| p.file_name().is_some_and(|n| n != "manifest.json"))
            .collect();
        paths.sort();
        paths.into_iter().map(|p| std::fs::read_to_string(p).unwrap()).collect()
    }

    /// Every real Tenhou record is read in one pass, to the very game the full reading gives; so
    /// is the same record written with whitespace everywhere; and texts changed byte by byte (cut,
    /// a byte dropped, or replaced by each of JSON's special characters, a digit or a letter of a
    /// call) are read in one pass to the game the full reading gives, or left to the full
    /// reading (which refuses those with a fault).
    #[test]
    fn the_quick_reading_is_the_full_reading() {
        let texts = real();
        assert!(texts.len() >= 31);
        for t in &texts {
            let q = game(t).unwrap_or_else(|| panic!("a real record read in one pass: {t:.100}"));
            assert_eq!(q, full(t).unwrap());
        }
        let v: serde_json::Value = serde_json::from_str(&texts[0]).unwrap();
        let pretty = serde_json::to_string_pretty(&v).unwrap();
        assert_eq!(game(&pretty).expect("spaced out, read in one pass"), full(&texts[0]).unwrap());

        let n = texts[0].len();
        let at = (0..n).step_by(41).chain([0, 1, n - 1]);
        let mut changed = crate::import::json::changed_texts(&texts[0], at, b"[]{},:\"\\-.0e \x0116rcpmka");
        let t = &texts[0];
        for (from, to) in [
            ("\"log\":", "\"paifu\":1,\"log\":"),
            ("\"log\":", "\"log\":[],\"log\":"),
            ("\"name\":[\"A\"", "\"name\":[\"\\u0041\""),
            ("\"c131415\"", "\"c13\\u0031415\""),
            ("\"自風 南(1飜)\"", "\"自風\\u0020南(1飜)\""),
            ("[0,0,0]", "[0,0,0,0]"),
            ("[0,0,0]", "[0,0.0,0]"),
            ("[0,0,0]", "[0,-0,0]"),
            ("[0,0,0]", "[16,0,0]"),
            ("[0,0,0]", "[0,-1,0]"),
            ("[16],[]", "[16],[],[]"),
            ("\"sc\":[20100", "\"sc\":[20100.0"),
            ("{\"ver\"", "{\"ver\":1,\"ver\""),
            ("[1,2,1,\"30符4飜7700点\"", "[1,2,1,\"30符4飜7700点\"],[0,0,0,0],[1,2,1,\"30符4飜7700点\""),
            ("[1,2,1,\"30符4飜7700点\"", "[1,2,4,\"30符4飜7700点\""),
            ("[1,2,1,\"30符4飜7700点\"", "[1,2,\"30符4飜7700点\""),
            ("[0,8700,-7700,0],[1,2,1,", "[0],[1,2,1,"),
            (
                "[0,8700,-7700,0],[1,2,1,\"30符4飜7700点\",\"自風 南(1飜)\",\"混一色(2飜)\",\"ドラ(1飜)\"]",
                "[0,8700,-7700,0],[1,2]",
            ),
            (
                "[0,8700,-7700,0],[1,2,1,\"30符4飜7700点\",\"自風 南(1飜)\",\"混一色(2飜)\",\"ドラ(1飜)\"]",
                "[0,8700,-7700,0],[1,2,1,\"30符4飜7700点\"]",
            ),
            ("\"混一色(2飜)\"", "\"混一色(役満)\""),
            ("\"混一色(2飜)\"", "\"混一色(2)\""),
            ("\"30符4飜7700点\"", "\"満貫8000点\""),
            ("\"30符4飜7700点\"", "\"30符4飜7700\""),
            ("[\"和了\",[0,8700,-7700,0]", "[\"流局\",[0,8700,-7700,0]"),
            ("[\"和了\",[0,8700,-7700,0]", "[\"九種九牌\"],[[0,8700,-7700,0]"),
            ("\"和了\"", "\"九種九牌\""),
            ("\"rule\":{\"disp\":\"鳳南喰赤\",\"aka\":1}", "\"rule\":{\"disp\":\"鳳南喰赤\"}"),
            ("\"rule\":{\"disp\":\"鳳南喰赤\",\"aka\":1}", "\"rule\":{\"disp\":\"三鳳南喰赤\",\"aka\":1}"),
        ] {
            assert!(t.contains(from), "{from}");
            changed.push(t.replacen(from, to, 1));
        }
        let (mut quick, mut refused) = (0, 0);
        for t in &changed {
            let f = full(t);
            match game(t) {
                Some(q) => {
                    assert_eq!(Ok(&q), f.as_ref(), "{t:.300}");
                    quick += 1;
                }
                None => refused += usize::from(f.is_err()),
            }
        }
        assert!(quick > 300 && refused > 1000, "{quick} read in one pass, {refused} refused");
    }
}
