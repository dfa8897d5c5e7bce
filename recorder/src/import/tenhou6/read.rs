//! Reading tenhou.net/6 JSON records into the record model (the format: tenhou6/mod.rs).

use crate::import::json::{Doc, Items, Json};
use crate::import::record::{round_name, CalledFrom, Discard, Game, Outcome, Round, Take, Tile, Win};
use crate::import::{brief, ImportError};

/// A value of the record, its place in it written out only for an error.
#[derive(Clone, Copy)]
struct At<'p, 'a> {
    value: Json<'p, 'a>,
}

impl<'p, 'a> At<'p, 'a> {
    fn err(&self, msg: impl Into<String>) -> ImportError {
        ImportError::new(self.value.path(), msg)
    }

    fn index(&self, i: usize) -> Result<At<'p, 'a>, ImportError> {
        let mut a = self.array()?;
        let n = a.len();
        let v = a.nth(i).ok_or_else(|| self.err(format!("the array ends before item {i} (it has {n})")))?;
        Ok(At { value: v })
    }

    /// The items of an array.
    fn items(&self) -> Result<impl ExactSizeIterator<Item = At<'p, 'a>> + 'p, ImportError> {
        Ok(self.array()?.map(|value| At { value }))
    }

    /// What `read` reads of each item of an array, or the first error.
    fn each<T>(&self, read: impl Fn(At<'p, 'a>) -> Result<T, ImportError>) -> Result<Vec<T>, ImportError> {
        let items = self.items()?;
        let mut out = Vec::with_capacity(items.len());
        for x in items {
            out.push(read(x)?);
        }
        Ok(out)
    }

    fn len(&self) -> Result<usize, ImportError> {
        Ok(self.array()?.len())
    }

    fn array(&self) -> Result<Items<'p, 'a>, ImportError> {
        self.value.items().ok_or_else(|| self.err(format!("expected an array, found {}", brief(&self.value, 40))))
    }

    fn int(&self) -> Result<i64, ImportError> {
        self.value.as_i64().ok_or_else(|| self.err(format!("expected an integer, found {}", brief(&self.value, 40))))
    }

    /// A number, integer or not (the results after uma in `sc`).
    fn number(&self) -> Result<f64, ImportError> {
        self.value.as_f64().ok_or_else(|| self.err(format!("expected a number, found {}", brief(&self.value, 40))))
    }

    fn string(&self) -> Result<&'p str, ImportError> {
        self.value.as_str().ok_or_else(|| self.err(format!("expected a string, found {}", brief(&self.value, 40))))
    }

    /// A field of an object; a missing one is an error naming it.
    fn field(&self, key: &'static str) -> Result<At<'p, 'a>, ImportError> {
        if !self.value.is_object() {
            return Err(self.err(format!("expected an object, found {}", brief(&self.value, 40))));
        }
        let value = self.value.get(key).ok_or_else(|| {
            let path = self.value.path();
            let path = if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") };
            ImportError::new(path, format!("missing field {key:?}"))
        })?;
        Ok(At { value })
    }

    fn tile(&self) -> Result<Tile, ImportError> {
        let c = self.int()?;
        Tile::from_code(c)
            .ok_or_else(|| self.err(format!("{c} is not a Tenhou tile code (11-19, 21-29, 31-39, 41-47, 51-53)")))
    }

    fn tiles(&self) -> Result<Vec<Tile>, ImportError> {
        self.each(|t| t.tile())
    }

    fn four_ints(&self) -> Result<[i64; 4], ImportError> {
        let n = self.len()?;
        if n != 4 {
            return Err(self.err(format!("expected 4 numbers, found {n}")));
        }
        let mut out = [0; 4];
        for (o, x) in out.iter_mut().zip(self.items()?) {
            *o = x.int()?;
        }
        Ok(out)
    }
}

/// A call string's tiles (two-digit codes, at most 4) and the place of its letter.
struct CallParts {
    letter: char,
    at: usize,
    tiles: [Tile; 4],
    len: usize,
}

impl CallParts {
    fn tiles(&self) -> &[Tile] {
        &self.tiles[..self.len]
    }

    /// The tiles but the `k`th, in order (`N` of them).
    fn others<const N: usize>(&self, k: usize) -> [Tile; N] {
        let mut out = [Tile(0); N];
        for (o, t) in out.iter_mut().zip(self.tiles().iter().enumerate().filter(|(i, _)| *i != k)) {
            *o = *t.1;
        }
        out
    }
}

/// Splits a call string into its tiles (two-digit codes) and the position of its letter; the
/// message of what is wrong with it.
fn call_parts(s: &str) -> Result<CallParts, String> {
    let bad = || format!("cannot read the call string {s:?}");
    let mut letter = None;
    let mut parts = CallParts { letter: ' ', at: 0, tiles: [Tile(0); 4], len: 0 };
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() {
            if letter.is_some() {
                return Err(bad());
            }
            letter = Some((b[i] as char, i));
            i += 1;
            continue;
        }
        let code = s.get(i..i + 2).and_then(|d| d.parse::<i64>().ok()).ok_or_else(bad)?;
        let t = Tile::from_code(code).ok_or_else(|| format!("{s:?}: {code} is not a tile code"))?;
        *parts.tiles.get_mut(parts.len).ok_or_else(bad)? = t;
        parts.len += 1;
        i += 2;
    }
    (parts.letter, parts.at) = letter.ok_or_else(bad)?;
    Ok(parts)
}

fn take(at: At) -> Result<Take, ImportError> {
    let Some(s) = at.value.as_str() else { return Ok(Take::Draw(at.tile()?)) };
    call_take(s).map_err(|m| at.err(m))
}

/// A take written as a call string (`c275226`, `p434343`, `m39393939`...); the message of what is
/// wrong with it.
pub(super) fn call_take(s: &str) -> Result<Take, String> {
    let c = call_parts(s)?;
    let t = c.tiles();
    let bad = |what: &str| format!("{s:?} is not a valid {what} call string");
    match (c.letter, c.at, t.len()) {
        ('c', 0, 3) => Ok(Take::Chi { called: t[0], own: [t[1], t[2]] }),
        ('p', p, 3) if p % 2 == 0 && p <= 4 => {
            let k = p / 2;
            let from = [CalledFrom::Left, CalledFrom::Across, CalledFrom::Right][k];
            Ok(Take::Pon { called: t[k], own: c.others(k), from })
        }
        ('m', p, 4) if p == 0 || p == 2 || p == 6 => {
            let k = p / 2;
            let from = match p {
                0 => CalledFrom::Left,
                2 => CalledFrom::Across,
                _ => CalledFrom::Right,
            };
            Ok(Take::OpenKan { called: t[k], own: c.others(k), from })
        }
        ('c', ..) => Err(bad("chi")),
        ('p', ..) => Err(bad("pon")),
        ('m', ..) => Err(bad("open kan")),
        _ => Err(format!("{s:?}: a take is a tile code or a c/p/m call string")),
    }
}

fn discard(at: At) -> Result<Discard, ImportError> {
    let Some(s) = at.value.as_str() else {
        return match at.int()? {
            60 => Ok(Discard::Tsumogiri),
            0 => Ok(Discard::Nothing),
            _ => Ok(Discard::Tile(at.tile()?)),
        };
    };
    string_discard(s).map_err(|m| at.err(m))
}

/// A discard written as a string (`r35`, `r60`, `4242k4242`, `393939a39`); the message of what is
/// wrong with it.
pub(super) fn string_discard(s: &str) -> Result<Discard, String> {
    if let Some(rest) = s.strip_prefix('r') {
        return match rest.parse::<i64>() {
            Ok(60) => Ok(Discard::Riichi(None)),
            Ok(c) => Tile::from_code(c)
                .map(|t| Discard::Riichi(Some(t)))
                .ok_or_else(|| format!("{s:?}: {c} is not a tile code")),
            Err(_) => Err(format!("cannot read the riichi discard {s:?}")),
        };
    }
    let c = call_parts(s)?;
    let t = c.tiles();
    match (c.letter, t.len()) {
        ('k', 4) if c.at % 2 == 0 && c.at <= 4 => {
            let k = c.at / 2;
            Ok(Discard::AddedKan { added: t[k], pon: c.others(k) })
        }
        ('a', 4) => Ok(Discard::ClosedKan { tiles: [t[0], t[1], t[2], t[3]] }),
        _ => Err(format!("{s:?}: a discard is a tile code, 60, r+tile, or a k/a kan string")),
    }
}

fn yaku(s: &str, at: At) -> Result<(String, u32), ImportError> {
    yaku_of(s).ok_or_else(|| at.err(format!("cannot read the yaku {s:?}")))
}

/// A yaku as Tenhou writes it, `NAME(N飜)` or `NAME(役満)`: its name and han (13 for a yakuman).
pub(super) fn yaku_of(s: &str) -> Option<(String, u32)> {
    let (name, rest) = s.split_once('(')?;
    let inner = rest.strip_suffix(')')?;
    let han = if inner == "役満" { 13 } else { inner.strip_suffix("飜").and_then(|h| h.parse().ok())? };
    Some((name.to_owned(), han))
}

/// A win: its score changes and its details `[who, from, pao, "text", yaku...]`. Exporters that
/// strip results write fewer: score changes shorter than four (`[0]`), details that stop after
/// the winner and the seat it won from; what is left out is computed, not claimed
/// ([`Win::computed`]). The winner and the seat it won from are needed.
fn win(deltas: At, info: At) -> Result<Win, ImportError> {
    let seat = |a: At| -> Result<u8, ImportError> {
        let v = a.int()?;
        u8::try_from(v).ok().filter(|&s| s < 4).ok_or_else(|| a.err(format!("{v} is not a seat (0-3)")))
    };
    let mut computed = Vec::new();
    let stripped = deltas.value.items().is_some_and(|mut d| d.len() < 4 && d.all(|x| x.is_i64()));
    let deltas = if stripped {
        computed.push("score changes");
        [0; 4]
    } else {
        deltas.four_ints()?
    };
    let needed = |i: usize, what: &str| {
        info.index(i).map_err(|_| {
            info.err(format!(
                "a win names {what} (item {i} of [who, from, pao, text, yaku...]): Paifu computes a stripped win's \
                 results, but not who won or from whom"
            ))
        })
    };
    let who = seat(needed(0, "its winner")?)?;
    let from = seat(needed(1, "the seat it won from (the winner itself for a self-draw)")?)?;
    let item = |i: usize| info.index(i).ok();
    let pao = match item(2) {
        Some(a) => Some(seat(a)?),
        None => {
            computed.push("liable seat");
            None
        }
    };
    let (text, fu, han) = match item(3) {
        Some(text_at) => {
            let text = text_at.string()?.to_owned();
            let (fu, han) = score_text(&text).ok_or_else(|| {
                text_at.err(format!(
                    "cannot read the score text {text:?}: expected FU符HAN飜 or a limit (満貫 跳満 倍満 三倍満 役満), \
                     then the points (8000点, 2000-4000点 or 4000点∀)"
                ))
            })?;
            (text, fu, han)
        }
        None => {
            computed.extend(["fu", "han"]);
            (String::new(), None, None)
        }
    };
    let mut yakus = Vec::new();
    for y in info.items()?.skip(4) {
        yakus.push(yaku(y.string()?, y)?);
    }
    if yakus.is_empty() {
        computed.push("yaku");
    }
    Ok(Win { deltas, who, from, pao, text, fu, han, yaku: (!yakus.is_empty()).then_some(yakus), computed })
}

/// Tenhou's score text: `30符1飜1000点`, `30符1飜300-500点`, `40符3飜1300点∀`, or a limit
/// (`満貫8000点`, `跳満3000-6000点`, ...): the fu and han when it gives them, `None` when the text
/// is not of this form.
pub(super) fn score_text(text: &str) -> Option<(Option<u32>, Option<u32>)> {
    const LIMITS: [&str; 6] = ["満貫", "跳満", "倍満", "三倍満", "数え役満", "役満"];
    let (fu, han, points) = match LIMITS.iter().find_map(|l| text.strip_prefix(l)) {
        Some(rest) => (None, None, rest),
        None => {
            let (fu, rest) = text.split_once('符')?;
            let (han, rest) = rest.split_once('飜')?;
            (Some(digits(fu)?), Some(digits(han)?), rest)
        }
    };
    let points = points.strip_suffix('∀').unwrap_or(points).strip_suffix('点')?;
    let ok = match points.split_once('-') {
        Some((a, b)) => digits(a).is_some() && digits(b).is_some(),
        None => digits(points).is_some(),
    };
    ok.then_some((fu, han))
}

/// A number written in ASCII digits only.
fn digits(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The names of the results that are draws.
pub(super) const DRAWS: [&str; 9] =
    ["流局", "流し満貫", "全員聴牌", "全員不聴", "九種九牌", "四風連打", "四家立直", "四槓散了", "三家和了"];

/// A round's result (its last entry), read from a value of a document.
pub(super) fn outcome_of(v: Json) -> Result<Outcome, ImportError> {
    outcome(At { value: v })
}

fn outcome(at: At) -> Result<Outcome, ImportError> {
    let name_at = at.index(0)?;
    let name = name_at.value.as_str().ok_or_else(|| name_at.err("expected the result's name"))?;
    if name == "和了" {
        let n = at.len()?;
        if n < 3 || n % 2 == 0 {
            return Err(at.err("a win result is 和了 followed by pairs of score changes and win details"));
        }
        let wins = (1..n).step_by(2).map(|i| win(at.index(i)?, at.index(i + 1)?)).collect::<Result<Vec<_>, _>>()?;
        return Ok(Outcome::Wins(wins));
    }
    if !DRAWS.contains(&name) {
        return Err(name_at.err(format!("unknown result {name:?}")));
    }
    // An exhaustive draw and nagashi mangan carry the score changes; the others nothing.
    let with_deltas = matches!(name, "流局" | "流し満貫");
    let want = if with_deltas { 2 } else { 1 };
    if at.len()? != want {
        return Err(at.err(if with_deltas {
            format!("{name} is followed by the four score changes, and nothing more")
        } else {
            format!("{name} stands alone, with no score changes")
        }));
    }
    let deltas = if with_deltas { Some(at.index(1)?.four_ints()?) } else { None };
    Ok(Outcome::Draw { name: name.to_owned(), deltas })
}

fn round(at: At) -> Result<Round, ImportError> {
    let head = at.index(0)?;
    let kyoku = head.index(0)?.int()?;
    let honba = head.index(1)?.int()?;
    let sticks = head.index(2)?.int()?;
    if head.len()? != 3 {
        return Err(head.err("the round's first entry is [round, honba, riichi sticks], three numbers"));
    }
    // The round's name, written out only for an error.
    let name = || round_name(u8::try_from(kyoku.clamp(0, 15)).unwrap_or(0), u32::try_from(honba.max(0)).unwrap_or(0));
    let in_round = |e: ImportError| e.in_round(&name());
    if !(0..16).contains(&kyoku) || honba < 0 || sticks < 0 {
        return Err(head
            .err(format!("[{kyoku}, {honba}, {sticks}] is not a round number, honba and riichi sticks"))
            .in_round(&name()));
    }
    let n = at.len().map_err(in_round)?;
    if n != 17 {
        return Err(at.err(format!("a four-player round has 17 entries, this one {n}")).in_round(&name()));
    }
    let entry = |k: usize| at.index(k).map_err(in_round);
    let mut hands: [Vec<Tile>; 4] = Default::default();
    let mut takes: [Vec<Take>; 4] = Default::default();
    let mut discards: [Vec<Discard>; 4] = Default::default();
    for s in 0..4 {
        hands[s] = entry(4 + 3 * s)?.tiles().map_err(in_round)?;
        takes[s] = entry(5 + 3 * s)?.each(take).map_err(in_round)?;
        discards[s] = entry(6 + 3 * s)?.each(discard).map_err(in_round)?;
    }
    if hands[3].is_empty() {
        return Err(at
            .err("seat 4 has no tiles: this is a three-player game, which Paifu does not play yet")
            .in_round(&name()));
    }
    for (s, h) in hands.iter().enumerate() {
        if h.len() != 13 {
            return Err(entry(4 + 3 * s)?
                .err(format!("seat {s} starts with {} tiles, not 13", h.len()))
                .in_round(&name()));
        }
    }
    Ok(Round {
        kyoku: kyoku as u8,
        honba: honba as u32,
        sticks: sticks as u32,
        scores: entry(1)?.four_ints().map_err(in_round)?,
        dora: entry(2)?.tiles().map_err(in_round)?,
        ura: entry(3)?.tiles().map_err(in_round)?,
        hands,
        takes,
        discards,
        outcome: outcome(entry(16)?).map_err(in_round)?,
    })
}

/// The round a byte of an unreadable file is in: each round starts with `[[kyoku,honba,sticks]`
/// inside `"log"`; its index and name, read from the text itself.
fn round_at(text: &str, line: usize, column: usize) -> Option<(usize, String)> {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            offset += column.min(l.len());
            break;
        }
        offset += l.len();
    }
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let upto = &text[..offset];
    let log = upto.find("\"log\"")?;
    let body = &upto[log..];
    let starts: Vec<usize> = body.match_indices("[[").map(|(i, _)| i).collect();
    let last = *starts.last()?;
    let head: Vec<i64> = body[last..]
        .trim_start_matches('[')
        .split(']')
        .next()?
        .split(',')
        .map(|x| x.trim().parse().ok())
        .collect::<Option<_>>()?;
    let (k, h) = (head.first().copied()?, head.get(1).copied().unwrap_or(0));
    let name = round_name(u8::try_from(k.clamp(0, 15)).ok()?, u32::try_from(h.max(0)).ok()?);
    Some((starts.len() - 1, name))
}

/// Parses a tenhou.net/6 JSON record through a [`Doc`] of the whole text (the full reading:
/// `tenhou6::parse`).
pub(super) fn full(text: &str) -> Result<Game, ImportError> {
    let doc = Doc::parse(text).map_err(|e| {
        let what = if e.is_eof() { "the file is cut short" } else { "not valid JSON" };
        let err = ImportError::new(format!("line {}, column {}", e.line(), e.column()), format!("{what}: {e}"));
        match round_at(text, e.line(), e.column()) {
            Some((i, name)) => ImportError { position: format!("log[{i}], {}", err.position), ..err }.in_round(&name),
            None => err,
        }
    })?;
    game_of(doc.root(), |log| At { value: log }.each(round))
}

/// A record read from its object `v`, its rounds read by `rounds` from its `log` array.
pub(super) fn game_of<'p, 'a>(
    v: Json<'p, 'a>,
    rounds: impl FnOnce(Json<'p, 'a>) -> Result<Vec<Round>, ImportError>,
) -> Result<Game, ImportError> {
    let root = At { value: v };
    if !v.is_object() {
        return Err(root.err("a tenhou.net/6 record is a JSON object with \"log\""));
    }
    let mut absent = Vec::new();
    // Every field but `log` may be absent (one-round records shared from Tenhou's viewer, records
    // converted from Mahjong Soul): each absent one is said (`Game::absent`), each present one
    // checked.
    let rule = optional(root, "rule")?;
    let disp = match rule.map(|r| optional(r, "disp")).transpose()?.flatten() {
        Some(d) => d.string()?,
        None => {
            absent.push(ABSENT_DISP.to_owned());
            ""
        }
    };
    let names = match optional(root, "name")? {
        Some(names_at) => {
            let names: Vec<String> = names_at.each(|n| n.string().map(str::to_owned))?;
            if names.len() != 3 && names.len() != 4 {
                return Err(names_at.err(format!("expected the 4 players' names, found {}", names.len())));
            }
            names
        }
        None => {
            absent.push("name (the seats are named seat 0 to seat 3)".to_owned());
            (0..4).map(|s| format!("seat {s}")).collect()
        }
    };
    if crate::import::rules::three_player(disp) || names.len() == 3 {
        return Err(ImportError::new(
            "rule",
            format!("this is a three-player game ({disp}), which Paifu does not play yet"),
        ));
    }
    for (key, what) in [("dan", "rank"), ("rate", "rating"), ("sx", "sex")] {
        if let Some(a) = optional(root, key)? {
            per_seat(a, what, key == "rate")?;
        }
    }
    for key in ["title", "ver"] {
        if let Some(a) = optional(root, key)? {
            check_title_or_version(a, key)?;
        }
    }
    let id = match optional(root, "ref")? {
        Some(r) => r.string()?.to_owned(),
        None => {
            absent.push(ABSENT_REF.to_owned());
            String::new()
        }
    };
    let (final_scores, final_results) = match optional(root, "sc")? {
        Some(sc) => {
            let n = sc.len()?;
            if n != 8 {
                return Err(
                    sc.err(format!("expected 8 numbers (each seat's final points and result after uma), found {n}"))
                );
            }
            let scores = (0..4).map(|i| sc.index(2 * i)?.int()).collect::<Result<Vec<_>, _>>()?;
            let results = (0..4).map(|i| sc.index(2 * i + 1)?.number()).collect::<Result<Vec<_>, _>>()?;
            (Some(scores), Some(results))
        }
        None => {
            absent.push(ABSENT_SC.to_owned());
            (None, None)
        }
    };
    let log = root.field("log")?;
    if !log.value.is_array() {
        return Err(log.err("the record has no \"log\" array of rounds"));
    }
    let rounds = rounds(log.value)?;
    let red_fives = match rule {
        Some(rule) if ["aka", "aka51", "aka52", "aka53"].iter().any(|k| rule.value.has(k)) => red_fives(rule)?,
        _ => {
            // No red-five flag: a record that shows a red five has them; one that shows none plays
            // the same under either reading (an unseen red five scores nothing).
            let shown = rounds.iter().any(shows_red_five);
            absent.push(format!(
                "{} (red fives {}: the record shows {})",
                if rule.is_some() { "rule.aka" } else { "rule" },
                if shown { "played" } else { "not played" },
                if shown { "one" } else { "none" }
            ));
            shown
        }
    };
    Ok(Game {
        id,
        rule: disp.to_owned(),
        red_fives,
        names,
        final_scores,
        final_results,
        absent,
        start_points: crate::import::rules::known_start(disp),
        start_points_given: false,
        rounds,
        paifu: v.get("paifu").map(|p| p.to_value()),
    })
}

/// What the absence of `ref` means (said in the log's `meta.absent`).
pub(crate) const ABSENT_REF: &str = "ref (the game's id is unknown: the record is known by its content's digest)";
/// What the absence of `rule.disp` means.
pub(crate) const ABSENT_DISP: &str =
    "rule.disp (the rule set is unknown: Tenhou's rules are played, the start points are not known)";
/// What the absence of `sc` means.
pub(crate) const ABSENT_SC: &str = "sc (the final scores and results are computed, not claimed)";

/// A field that may be absent: `None` when it is (never an error), the field when it is there.
fn optional<'p, 'a>(at: At<'p, 'a>, key: &'static str) -> Result<Option<At<'p, 'a>>, ImportError> {
    if !at.value.is_object() {
        return Err(at.err(format!("expected an object, found {}", brief(&at.value, 40))));
    }
    at.value.has(key).then(|| at.field(key)).transpose()
}

/// `dan`, `rate` or `sx` when present: one value a seat (numbers for `rate`, strings for the
/// others).
fn per_seat(at: At, what: &str, numbers: bool) -> Result<(), ImportError> {
    let n = at.len()?;
    if n != 4 {
        return Err(at.err(format!("expected each of the 4 players' {what}, found {n} values")));
    }
    for x in at.items()? {
        if numbers {
            x.number()?;
        } else {
            x.string()?;
        }
    }
    Ok(())
}

/// `title` (strings, or an array of them) and `ver` (a number or a string) when present.
fn check_title_or_version(at: At, key: &str) -> Result<(), ImportError> {
    let ok = match key {
        "ver" => at.value.as_f64().is_some() || at.value.as_str().is_some(),
        _ => at.value.as_str().is_some() || at.items().is_ok_and(|mut i| i.all(|x| x.value.as_str().is_some())),
    };
    if ok {
        Ok(())
    } else {
        let want = if key == "ver" { "a number or a string" } else { "a string or an array of strings" };
        Err(at.err(format!("{key} is {want}, not {}", brief(&at.value, 40))))
    }
}

/// Whether a round shows a red five anywhere (hands, takes, discards, indicators).
fn shows_red_five(r: &Round) -> bool {
    let red = |t: &Tile| (51..=53).contains(&t.0);
    let take = |t: &Take| match t {
        Take::Draw(t) => red(t),
        Take::Chi { called, own } => red(called) || own.iter().any(red),
        Take::Pon { called, own, .. } => red(called) || own.iter().any(red),
        Take::OpenKan { called, own, .. } => red(called) || own.iter().any(red),
    };
    let discard = |d: &Discard| match d {
        Discard::Tile(t) | Discard::Riichi(Some(t)) => red(t),
        Discard::AddedKan { added, pon } => red(added) || pon.iter().any(red),
        Discard::ClosedKan { tiles } => tiles.iter().any(red),
        Discard::Tsumogiri | Discard::Riichi(None) | Discard::Nothing => false,
    };
    r.dora.iter().chain(&r.ura).any(red)
        || r.hands.iter().flatten().any(red)
        || r.takes.iter().flatten().any(take)
        || r.discards.iter().flatten().any(discard)
}

/// Whether the rule has red fives: `aka` (0 none, 1 one red five of each suit), or Tenhou's
/// per-suit `aka51`, `aka52`, `aka53` (all 1, or all 0). When both are given, the per-suit flags
/// decide (the more exact of the two) and `aka` beside them is checked, not read: `0` beside
/// per-suit 1s is how mjai-reviewer's split rounds of a Mahjong Soul game write it (tensoul's
/// per-suit flags kept, `aka` 0 added: killerducky/killer_mortal_gui `e2e/report.json`), `1`
/// beside per-suit 0s contradicts them and is refused.
fn red_fives(rule: At) -> Result<bool, ImportError> {
    let aka = match rule.value.has("aka") {
        true => {
            let aka = rule.field("aka")?;
            match aka.int()? {
                0 => Some(false),
                1 => Some(true),
                n => return Err(aka.err(format!("aka is 0 (no red fives) or 1 (one of each suit), not {n}"))),
            }
        }
        false => None,
    };
    let suits = ["aka51", "aka52", "aka53"];
    if !suits.iter().any(|k| rule.value.has(k)) {
        return aka.ok_or_else(|| {
            ImportError::new("rule.aka", "missing field \"aka\" (0 or 1: whether there are red fives)")
        });
    }
    let [a51, a52, a53] = suits.map(|k| rule.field(k).and_then(|a| a.int()));
    let red = match (a51?, a52?, a53?) {
        (1, 1, 1) => true,
        (0, 0, 0) => false,
        _ => {
            return Err(rule.err(
                "aka51, aka52 and aka53 are all 1 or all 0: Paifu plays one red five of each suit, or none".to_owned(),
            ))
        }
    };
    if aka == Some(true) && !red {
        return Err(rule.err("aka is 1 (red fives) but aka51, aka52 and aka53 are 0 (none)".to_owned()));
    }
    Ok(red)
}

#[cfg(test)]
mod tests {
    use super::full as parse;
    use super::*;

    const ROUND: &str = r#"[[0,0,0],[25000,25000,25000,25000],[18],[],
        [12,16,16,18,21,22,23,33,33,34,53,43,45],[33,"c275226"],[43,45],
        [11,14,15,17,19,19,23,26,34,34,37,38,43],["42p4242"],["r35"],
        [13,14,15,16,18,22,23,26,28,31,35,39,41],["393939m39"],[0],
        [11,15,17,24,25,27,28,28,29,32,41,42,42],[41],["393939a39","4242k4242"],
        ["和了",[-500,-300,1100,-300],[2,2,2,"30符1飜300-500点","門前清自摸和(1飜)"]]]"#;

    fn game(round: &str) -> String {
        format!(
            r#"{{"ref":"x","rule":{{"disp":"鳳南喰赤","aka":1}},"name":["A","B","C","D"],"sc":[250,0,250,0,250,0,250,0],"log":[{round}]}}"#
        )
    }

    #[test]
    fn reads_calls_discards_and_results() {
        let g = parse(&game(ROUND)).unwrap();
        let r = &g.rounds[0];
        assert_eq!(r.name(), "East 1, 0 honba");
        assert_eq!(r.takes[0][1], Take::Chi { called: Tile(27), own: [Tile(52), Tile(26)] });
        assert_eq!(r.takes[1][0], Take::Pon { called: Tile(42), own: [Tile(42), Tile(42)], from: CalledFrom::Across });
        assert_eq!(r.takes[2][0], Take::OpenKan { called: Tile(39), own: [Tile(39); 3], from: CalledFrom::Right });
        assert_eq!(r.discards[1][0], Discard::Riichi(Some(Tile(35))));
        assert_eq!(r.discards[2][0], Discard::Nothing);
        assert_eq!(r.discards[3][0], Discard::ClosedKan { tiles: [Tile(39); 4] });
        assert_eq!(r.discards[3][1], Discard::AddedKan { added: Tile(42), pon: [Tile(42); 3] });
        let Outcome::Wins(w) = &r.outcome else { panic!() };
        assert_eq!((w[0].who, w[0].fu, w[0].han), (2, Some(30), Some(1)));
        assert_eq!(w[0].yaku, Some(vec![("門前清自摸和".to_owned(), 1)]));
        assert_eq!(g.final_scores, Some(vec![250; 4]));
        assert_eq!(Tile(53).notation(), "0s");
        assert_eq!(Tile(47).notation(), "7z");
        assert_eq!(CalledFrom::Left.seat(0), 3);
    }

    #[test]
    fn bad_input_names_the_round_and_position() {
        let e = parse(&game(&ROUND.replace("[33,\"c275226\"]", "[33,\"c27x226\"]"))).unwrap_err();
        assert_eq!(e.round.as_deref(), Some("East 1, 0 honba"));
        assert_eq!(e.position, "log[0][5][1]");
        assert!(e.message.contains("c27x226"), "{e}");
        let e = parse(&game(&ROUND.replace("[43,45]", "[43,99]"))).unwrap_err();
        assert_eq!(e.position, "log[0][6][1]");
        assert!(e.message.contains("99 is not a Tenhou tile code"), "{e}");
        let e = parse(&game(ROUND)[..200]).unwrap_err();
        assert!(e.message.contains("cut short"), "{e}");
        assert_eq!(e.round.as_deref(), Some("East 1, 0 honba"), "{e}");
        assert!(e.position.starts_with("log[0], line 2, column "), "{e}");
        let three = game(ROUND).replace("鳳南喰赤", "三鳳南喰赤");
        assert!(parse(&three).unwrap_err().message.contains("three-player"));
        let e = parse(&game(&ROUND.replace("\"和了\"", "\"謎\""))).unwrap_err();
        assert!(e.message.contains("unknown result"), "{e}");
        let e = parse(&game(&ROUND.replace("[0,0,0]", "[0,0]"))).unwrap_err();
        assert!(e.position.starts_with("log[0][0]"), "{e}");
        assert!(parse("[]").is_err());
        assert!(parse("{}").is_err());
    }
}
