//! Reading mjai JSON Lines event logs (the protocol of mjai AI agents and of Mortal).
//!
//! One event per line: `start_game`, `start_kyoku`, `tsumo`, `dahai`, `chi`, `pon`,
//! `daiminkan`, `kakan`, `ankan`, `dora`, `reach`, `reach_accepted`, `hora`, `ryukyoku`,
//! `end_kyoku`, `end_game`. Tiles are `1m`-`9m`, `1p`-`9p`, `1s`-`9s`, `5mr` `5pr` `5sr` (red
//! fives), `E S W N P F C` (winds, then white, green, red dragons), and `?` for a hidden tile.
//!
//! Readers in the wild differ in a few field names; this parser accepts both forms of each:
//! `uradora_markers`, `ura_markers` or `uradora_marker` for the ura indicators, and `aka_flag`, `aka` or
//! `red_fives` for the red-five rule of `start_game`. Yaku lists may be `[name, han]` pairs or
//! `{"name", "han"}` objects, with Japanese or English (Mahjong Soul) names.

use crate::import::json::{Doc, Json};
use crate::import::record::round_name;
use crate::import::{brief, ImportError};

use serde_json::{Map, Value};

/// A tile in mjai notation, kept as Paifu notation (`5m`, `0m` red five, `7z`), or hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Pai {
    Known(u8, char),
    Hidden,
}

impl Pai {
    /// Paifu's notation: `5m`, `0p`, `7z`; `?` for a hidden tile.
    pub(crate) fn notation(self) -> String {
        match self {
            Pai::Known(n, s) => format!("{n}{s}"),
            Pai::Hidden => "?".into(),
        }
    }

    /// Paifu's tile (`None` for a hidden one).
    pub(crate) fn tile(self) -> Option<paifu_core::mahjong::Tile> {
        match self {
            Pai::Known(..) => self.notation().parse().ok(),
            Pai::Hidden => None,
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Pai> {
        let honours = ["E", "S", "W", "N", "P", "F", "C"];
        if s == "?" {
            return Some(Pai::Hidden);
        }
        if let Some(i) = honours.iter().position(|h| *h == s) {
            return Some(Pai::Known(i as u8 + 1, 'z'));
        }
        let b = s.as_bytes();
        match b {
            [d @ b'1'..=b'9', s @ (b'm' | b'p' | b's')] => Some(Pai::Known(d - b'0', *s as char)),
            [b'5', s @ (b'm' | b'p' | b's'), b'r'] => Some(Pai::Known(0, *s as char)),
            _ => None,
        }
    }
}

/// One event.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Event {
    StartGame {
        /// `None` when the writer names no one (akochan's self-play, RiichiEnv).
        names: Option<Vec<String>>,
        red_fives: Option<bool>,
        /// akochan's `kyoku_first`: 0 an East-South game, 4 an East-only one.
        east_only: Option<bool>,
        /// Tenhou's rule name (`鳳南喰赤`), when the writer gives it (`paifu export mjai` does).
        rule: Option<String>,
        /// The game's id, when given.
        id: Option<String>,
        /// The Paifu log a `paifu export mjai` embeds (embedded/), if any.
        paifu: Option<Value>,
    },
    StartKyoku {
        bakaze: Pai,
        kyoku: u8,
        honba: u32,
        kyotaku: u32,
        oya: u8,
        /// `None` when not given (mjx's translator).
        scores: Option<Vec<i64>>,
        dora_marker: Pai,
        tehais: Vec<Vec<Pai>>,
        /// akochan's `haiyama`: the round's whole wall, 136 tiles (to_record.rs checks the
        /// deal, the draws and the indicators against it).
        haiyama: Option<Vec<Pai>>,
    },
    Tsumo {
        actor: u8,
        pai: Pai,
    },
    Dahai {
        actor: u8,
        pai: Pai,
        tsumogiri: bool,
    },
    Chi {
        actor: u8,
        target: u8,
        pai: Pai,
        consumed: Vec<Pai>,
    },
    Pon {
        actor: u8,
        target: u8,
        pai: Pai,
        consumed: Vec<Pai>,
    },
    Daiminkan {
        actor: u8,
        target: u8,
        pai: Pai,
        consumed: Vec<Pai>,
    },
    Kakan {
        actor: u8,
        pai: Pai,
        consumed: Vec<Pai>,
    },
    Ankan {
        actor: u8,
        consumed: Vec<Pai>,
    },
    Dora {
        dora_marker: Pai,
    },
    Reach {
        actor: u8,
    },
    ReachAccepted {
        actor: u8,
        scores: Option<Vec<i64>>,
        /// The deposit as score changes (the original mjai), when given.
        deltas: Option<Vec<i64>>,
    },
    Hora {
        actor: u8,
        target: u8,
        pai: Option<Pai>,
        ura_markers: Vec<Pai>,
        /// `None` when the event lists no yaku (Mortal's `hora` gives only the deltas).
        yaku: Option<Vec<(String, u32)>>,
        fu: Option<u32>,
        han: Option<u32>,
        deltas: Option<Vec<i64>>,
        scores: Option<Vec<i64>>,
        /// The seat liable for the win (the original mjai's `pao`), when given.
        pao: Option<u8>,
        /// The winner's concealed tiles (`hora_tehais`: the original mjai, akochan, mjx), when
        /// given.
        hand: Option<Vec<Pai>>,
        /// RiichiEnv's `tsumo`: whether the win is by self-draw, when given.
        tsumo: Option<bool>,
    },
    Ryukyoku {
        reason: Option<String>,
        deltas: Option<Vec<i64>>,
        scores: Option<Vec<i64>>,
        /// Which seats are tenpai (the original mjai, akochan, mjx), when given.
        tenpais: Option<Vec<bool>>,
    },
    EndKyoku,
    EndGame {
        scores: Option<Vec<i64>>,
    },
}

/// An event with the line it was read from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Line {
    pub(crate) line: usize,
    pub(crate) event: Event,
}

/// An event's object (a key given twice: the last is read).
struct Obj<'o, 'a> {
    line: usize,
    kind: &'o str,
    m: Json<'o, 'a>,
}

impl<'o, 'a> Obj<'o, 'a> {
    fn err(&self, msg: impl Into<String>) -> ImportError {
        ImportError::new(format!("line {}", self.line), format!("{}: {}", self.kind, msg.into()))
    }

    /// The value of a key, if given (`null` included).
    fn field(&self, k: &str) -> Option<Json<'o, 'a>> {
        self.m.get(k)
    }

    fn has(&self, k: &str) -> bool {
        self.m.has(k)
    }

    fn get(&self, k: &str) -> Result<Json<'o, 'a>, ImportError> {
        self.field(k).ok_or_else(|| self.err(format!("missing field {k:?}")))
    }

    fn int(&self, k: &str) -> Result<i64, ImportError> {
        let v = self.get(k)?;
        v.as_i64().ok_or_else(|| self.err(format!("{k:?} is not an integer: {}", brief(&v, 40))))
    }

    /// An optional field that, when given (and not `null`), must be of its type.
    fn opt<T>(&self, k: &str, what: &str, read: impl Fn(Json<'o, 'a>) -> Option<T>) -> Result<Option<T>, ImportError> {
        match self.field(k) {
            None => Ok(None),
            Some(v) if v.is_null() => Ok(None),
            Some(v) => read(v).map(Some).ok_or_else(|| self.err(format!("{k:?} is not {what}: {}", brief(&v, 40)))),
        }
    }

    /// A field that must be `true` or `false`.
    fn bool(&self, k: &str) -> Result<bool, ImportError> {
        let v = self.get(k)?;
        v.as_bool().ok_or_else(|| self.err(format!("{k:?} is not true or false: {}", brief(&v, 40))))
    }

    /// An optional non-negative integer (fu, han).
    fn opt_count(&self, k: &str) -> Result<Option<u32>, ImportError> {
        self.opt(k, "a non-negative integer", |v| v.as_u64().and_then(|n| u32::try_from(n).ok()))
    }

    fn seat(&self, k: &str) -> Result<u8, ImportError> {
        let v = self.int(k)?;
        u8::try_from(v).ok().filter(|&s| s < 4).ok_or_else(|| self.err(format!("{k:?} = {v} is not a seat (0-3)")))
    }

    fn small(&self, k: &str) -> Result<u32, ImportError> {
        let v = self.int(k)?;
        u32::try_from(v).map_err(|_| self.err(format!("{k:?} = {v} cannot be negative")))
    }

    fn pai_value(&self, v: Json, what: &str) -> Result<Pai, ImportError> {
        let s = v.as_str().ok_or_else(|| self.err(format!("{what} is not a tile string")))?;
        Pai::parse(s).ok_or_else(|| self.err(format!("{s:?} is not an mjai tile")))
    }

    fn pai(&self, k: &str) -> Result<Pai, ImportError> {
        self.pai_value(self.get(k)?, k)
    }

    fn pais(&self, k: &str) -> Result<Vec<Pai>, ImportError> {
        let a = self.get(k)?.items().ok_or_else(|| self.err(format!("{k:?} is not a list of tiles")))?;
        a.map(|v| self.pai_value(v, k)).collect()
    }

    fn ints(&self, k: &str) -> Result<Option<Vec<i64>>, ImportError> {
        let Some(v) = self.field(k).filter(|v| !v.is_null()) else { return Ok(None) };
        match v.items() {
            Some(a) => a
                .map(|v| v.as_i64().ok_or_else(|| self.err(format!("{k:?} holds a non-integer: {}", brief(&v, 40)))))
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            None => Err(self.err(format!("{k:?} is not a list of integers: {}", brief(&v, 40)))),
        }
    }

    /// The yaku list (`yakus` or `yaku`): `[name, han]` pairs or `{"name", "han"}` objects; `None`
    /// when the event has none.
    fn yaku(&self) -> Result<Option<Vec<(String, u32)>>, ImportError> {
        let key = if self.has("yakus") { "yakus" } else { "yaku" };
        let Some(a) = self.opt(key, "a list of yaku", |v| v.items())? else { return Ok(None) };
        let han = |v: Option<Json>| v.and_then(|h| h.as_u64()).and_then(|h| u32::try_from(h).ok());
        a.enumerate()
            .map(|(i, y)| {
                let pair = match y.items() {
                    Some(p) if p.len() == 2 => y.at(0).and_then(|n| n.as_str()).zip(han(y.at(1))),
                    Some(_) => None,
                    None => y.get("name").and_then(|n| n.as_str()).zip(han(y.get("han").or_else(|| y.get("fan")))),
                };
                pair.map(|(n, h)| (n.to_owned(), h)).ok_or_else(|| {
                    self.err(format!(
                        "{key}[{i}] is not a yaku ([name, han] or {{\"name\", \"han\"}}, the han a non-negative integer): {}",
                        brief(&y, 40)
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }
}

fn event(o: &Obj) -> Result<Event, ImportError> {
    Ok(match o.kind {
        "start_game" => {
            let names = match o.opt("names", "a list of the 4 players' names", |v| v.items())? {
                None => None,
                Some(names) => {
                    let names = names
                        .enumerate()
                        .map(|(i, n)| {
                            n.as_str()
                                .map(str::to_owned)
                                .ok_or_else(|| o.err(format!("names[{i}] is not a name (a string): {}", brief(&n, 40))))
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    match names.len() {
                        4 => Some(names),
                        // akochan's sample log writes `"names": []`: no one named.
                        0 => None,
                        n => {
                            return Err(o.err(format!(
                                "\"names\" has {n} names: this is not a four-player game, which is all Paifu plays yet"
                            )))
                        }
                    }
                }
            };
            let mut red_fives = None;
            for k in ["aka_flag", "aka", "red_fives"] {
                let flag = o.opt(k, "true, false, 0 or 1", |v| {
                    v.as_bool().or_else(|| v.as_u64().filter(|n| *n <= 1).map(|n| n == 1))
                })?;
                if let (Some(a), Some(b)) = (red_fives, flag) {
                    if a != b {
                        return Err(o.err("the red-five flags (aka_flag, aka, red_fives) disagree"));
                    }
                }
                red_fives = red_fives.or(flag);
            }
            let east_only = match o.opt("kyoku_first", "an integer", |v| v.as_i64())? {
                None => None,
                Some(0) => Some(false),
                Some(4) => Some(true),
                Some(k) => {
                    return Err(o.err(format!(
                        "kyoku_first {k}: akochan writes 0 (an East-South game) or 4 (an East-only game)"
                    )))
                }
            };
            Event::StartGame {
                names,
                red_fives,
                east_only,
                rule: o.opt("rule", "a string (Tenhou's rule name)", |v| v.as_str().map(str::to_owned))?,
                id: o.opt("id", "a string", |v| v.as_str().map(str::to_owned))?,
                paifu: o.field("paifu").map(|p| p.to_value()),
            }
        }
        "start_kyoku" => {
            let tehais = o.get("tehais")?.items().ok_or_else(|| o.err("\"tehais\" is not a list of hands"))?;
            if tehais.len() != 4 {
                return Err(o.err(format!(
                    "{} hands: this is not a four-player game, which is all Paifu plays yet",
                    tehais.len()
                )));
            }
            let hands = tehais
                .map(|h| {
                    h.items()
                        .ok_or_else(|| o.err("a hand is not a list of tiles"))?
                        .map(|t| o.pai_value(t, "tehais"))
                        .collect::<Result<Vec<_>, _>>()
                })
                .collect::<Result<Vec<_>, _>>()?;
            let kyoku = o.int("kyoku")?;
            Event::StartKyoku {
                bakaze: o.pai("bakaze")?,
                kyoku: u8::try_from(kyoku)
                    .ok()
                    .filter(|k| (1..=4).contains(k))
                    .ok_or_else(|| o.err(format!("kyoku {kyoku} is not 1-4")))?,
                honba: o.small("honba")?,
                kyotaku: o.small("kyotaku")?,
                oya: o.seat("oya")?,
                scores: o.ints("scores")?,
                dora_marker: o.pai("dora_marker")?,
                tehais: hands,
                haiyama: match o.field("haiyama").filter(|v| !v.is_null()) {
                    None => None,
                    Some(_) => {
                        let wall = o.pais("haiyama")?;
                        if wall.len() != 136 {
                            return Err(o.err(format!("\"haiyama\" has {} tiles: a wall has 136", wall.len())));
                        }
                        Some(wall)
                    }
                },
            }
        }
        "tsumo" => Event::Tsumo { actor: o.seat("actor")?, pai: o.pai("pai")? },
        "dahai" => Event::Dahai { actor: o.seat("actor")?, pai: o.pai("pai")?, tsumogiri: o.bool("tsumogiri")? },
        "chi" | "pon" | "daiminkan" => {
            let (actor, target, pai, consumed) =
                (o.seat("actor")?, o.seat("target")?, o.pai("pai")?, o.pais("consumed")?);
            let need = if o.kind == "daiminkan" { 3 } else { 2 };
            if consumed.len() != need {
                return Err(o.err(format!("\"consumed\" has {} tiles, not {need}", consumed.len())));
            }
            match o.kind {
                "chi" => Event::Chi { actor, target, pai, consumed },
                "pon" => Event::Pon { actor, target, pai, consumed },
                _ => Event::Daiminkan { actor, target, pai, consumed },
            }
        }
        "kakan" => Event::Kakan { actor: o.seat("actor")?, pai: o.pai("pai")?, consumed: o.pais("consumed")? },
        "ankan" => Event::Ankan { actor: o.seat("actor")?, consumed: o.pais("consumed")? },
        "dora" => Event::Dora { dora_marker: o.pai("dora_marker")? },
        "reach" => Event::Reach { actor: o.seat("actor")? },
        "reach_accepted" => {
            Event::ReachAccepted { actor: o.seat("actor")?, scores: o.ints("scores")?, deltas: o.ints("deltas")? }
        }
        "hora" => {
            // Mortal's libriichi writes `ura_markers`, the mjai protocol `uradora_markers`, some
            // bots `uradora_marker`: one list, under any of the names; two that differ are refused.
            let mut ura: Option<(&str, Vec<Pai>)> = None;
            for name in ["ura_markers", "uradora_markers", "uradora_marker"] {
                if !o.has(name) {
                    continue;
                }
                let these = o.pais(name)?;
                match &ura {
                    Some((first, got)) if *got != these => {
                        return Err(o.err(format!("\"{first}\" and \"{name}\" give different ura indicators")))
                    }
                    Some(_) => {}
                    None => ura = Some((name, these)),
                }
            }
            let ura = ura.map(|(_, u)| u).unwrap_or_default();
            Event::Hora {
                actor: o.seat("actor")?,
                target: o.seat("target")?,
                pai: o.field("pai").map(|v| o.pai_value(v, "pai")).transpose()?,
                ura_markers: ura,
                yaku: o.yaku()?,
                fu: o.opt_count("fu")?,
                han: match (o.opt_count("fan")?, o.opt_count("han")?) {
                    (Some(a), Some(b)) if a != b => return Err(o.err(format!("\"fan\" {a} and \"han\" {b} disagree"))),
                    (a, b) => a.or(b),
                },
                deltas: o.ints("deltas")?,
                scores: o.ints("scores")?,
                pao: match o.field("pao").filter(|v| !v.is_null()) {
                    Some(_) => Some(o.seat("pao")?),
                    None => None,
                },
                hand: match o.field("hora_tehais").filter(|v| !v.is_null()) {
                    Some(_) => Some(o.pais("hora_tehais")?),
                    None => None,
                },
                tsumo: o.opt("tsumo", "true or false", |v| v.as_bool())?,
            }
        }
        "ryukyoku" => Event::Ryukyoku {
            reason: o.opt("reason", "a string", |v| v.as_str().map(str::to_owned))?,
            deltas: o.ints("deltas")?,
            scores: o.ints("scores")?,
            tenpais: match o.opt("tenpais", "a list of 4 true or false", |v| v.items())? {
                None => None,
                Some(t) => {
                    let t: Vec<Option<bool>> = t.map(|b| b.as_bool()).collect();
                    match t.iter().copied().collect::<Option<Vec<bool>>>() {
                        Some(t) if t.len() == 4 => Some(t),
                        _ => return Err(o.err("\"tenpais\" is not a list of 4 true or false")),
                    }
                }
            },
        },
        "end_kyoku" => Event::EndKyoku,
        "end_game" => Event::EndGame { scores: o.ints("scores")? },
        other => return Err(o.err(format!("unknown event type {other:?}"))),
    })
}

/// One event given as a JSON object (a bot's answer in the arena); the error's message says what
/// is wrong with it.
pub(crate) fn one_event(m: &Map<String, Value>) -> Result<Event, ImportError> {
    let kind =
        m.get("type").and_then(Value::as_str).ok_or_else(|| ImportError::new("", "an mjai event has a \"type\""))?;
    // Read as the line it would be in a log.
    let text = Value::Object(m.clone()).to_string();
    let doc = Doc::parse(&text).map_err(|e| ImportError::new("", e.to_string()))?;
    event(&Obj { line: 1, kind, m: doc.root() })
}

/// The round a `start_kyoku` starts, as players name it (`East 2, 1 honba`).
pub(crate) fn round_of(e: &Event) -> Option<String> {
    match e {
        Event::StartKyoku { bakaze, kyoku, honba, .. } => Some(round_name(kyoku_index(*bakaze, *kyoku), *honba)),
        _ => None,
    }
}

/// 0-based hand index: 0-3 East 1-4, 4-7 South, 8-11 West, 12-15 North.
pub(crate) fn kyoku_index(bakaze: Pai, kyoku: u8) -> u8 {
    let wind = match bakaze {
        Pai::Known(n @ 1..=4, 'z') => n - 1,
        _ => 0,
    };
    wind * 4 + kyoku.clamp(1, 4) - 1
}

/// Parses an mjai log without the hand scan of the other events (the tests' reading).
#[cfg(test)]
pub(crate) fn parse(text: &str) -> Result<Vec<Line>, ImportError> {
    parse_with(text, |_| None)
}

/// Parses an mjai log. `none` events (a player's answer that it does nothing) are skipped. The
/// draws and discards are read the quick way, then any other line by `scan` (mjai/scan.rs, given
/// by mod.rs), then what neither reads as JSON.
pub(crate) fn parse_with(text: &str, scan: fn(&str) -> Option<Event>) -> Result<Vec<Line>, ImportError> {
    // An event a line, and an mjai line is 40 bytes or more but for a few (`{"type":"end_kyoku"}`):
    // room for them all at once (a file of shorter lines grows the list as any).
    let mut out: Vec<Line> = Vec::with_capacity(text.len() / 40 + 1);
    // One document read line after line, in the same room.
    let mut doc = Doc::default();
    for (i, raw) in lines(text).enumerate() {
        let line = i + 1;
        if let Some(event) = quick_event(raw).or_else(|| scan(raw)) {
            out.push(Line { line, event });
            continue;
        }
        let in_round = |e: ImportError| match out.iter().rev().find_map(|l| round_of(&l.event)) {
            Some(r) => e.in_round(&r),
            None => e,
        };
        if let Some(event) = read_event(&mut doc, raw, line).map_err(in_round)? {
            out.push(Line { line, event });
        }
    }
    if out.is_empty() {
        return Err(ImportError::new("line 1", "the file holds no mjai events"));
    }
    Ok(out)
}

/// The lines of a text, as [`str::lines`] gives them (split at `\n`, a `\r` before it dropped,
/// no line after a last `\n`), found by `memchr` (SIMD: `str::lines` searches byte by byte
/// through its char searcher, about 4 instructions a byte of an mjai file).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, next) = match memchr::memchr(b'\n', rest.as_bytes()) {
            // `\n` is one byte of UTF-8, never inside a character: both slices are on boundaries.
            Some(i) => (rest[..i].strip_suffix('\r').unwrap_or(&rest[..i]), &rest[i + 1..]),
            None => (rest, ""),
        };
        rest = next;
        Some(line)
    })
}

/// The event of line `line` (`raw`), read as JSON into `doc`; `None` for a blank line or a
/// `none` event.
pub(super) fn read_event<'a>(doc: &mut Doc<'a>, raw: &'a str, line: usize) -> Result<Option<Event>, ImportError> {
    if raw.trim().is_empty() {
        return Ok(None);
    }
    doc.read(raw).map_err(|e| {
        let what = if e.is_eof() { "the line is cut short" } else { "not valid JSON" };
        ImportError::new(format!("line {line}, column {}", e.column()), format!("{what}: {e}"))
    })?;
    let m = doc.root();
    if !m.is_object() {
        return Err(ImportError::new(format!("line {line}"), "an mjai event is a JSON object"));
    }
    let kind = m
        .get("type")
        .and_then(|t| t.as_str())
        .ok_or_else(|| ImportError::new(format!("line {line}"), "an mjai event has a \"type\""))?;
    if kind == "none" {
        return Ok(None);
    }
    event(&Obj { line, kind, m }).map(Some)
}

/// The event of a draw or discard line written exactly as mjai's writers write one (Mortal,
/// `paifu export mjai`, Python's compact `json.dumps`): `{"type":"tsumo","actor":0,"pai":"5m"}`
/// or `{"type":"dahai","actor":0,"pai":"5m","tsumogiri":false}`, byte for byte, with a seat and a
/// tile. Nine lines in ten of a game are these; any other line (another event, another order or
/// spacing, anything wrong) answers `None` and is read as JSON. A line this accepts holds no
/// escape, no repeated key and no other field, so reading it as JSON gives the same event (the
/// tests compare the two readings).
fn quick_event(raw: &str) -> Option<Event> {
    let rest = raw.strip_prefix(r#"{"type":""#)?;
    let (draw, rest) = match rest.strip_prefix(r#"tsumo","actor":"#) {
        Some(r) => (true, r),
        None => (false, rest.strip_prefix(r#"dahai","actor":"#)?),
    };
    let actor = match rest.as_bytes().first()? {
        d @ b'0'..=b'3' => d - b'0',
        _ => return None,
    };
    let rest = rest.get(1..)?.strip_prefix(r#","pai":""#)?;
    // A tile is one to three bytes: its closing quote is among the next four (a later one
    // would end a text no tile is).
    let end = rest.bytes().take(4).position(|b| b == b'"')?;
    let pai = Pai::parse(&rest[..end])?;
    let rest = &rest[end + 1..];
    if draw {
        return (rest == "}").then_some(Event::Tsumo { actor, pai });
    }
    let tsumogiri = match rest {
        r#","tsumogiri":true}"# => true,
        r#","tsumogiri":false}"# => false,
        _ => return None,
    };
    Some(Event::Dahai { actor, pai, tsumogiri })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::mjai::as_json;

    const LOG: &str = r#"{"type":"start_game","names":["a","b","c","d"],"aka_flag":true}
{"type":"start_kyoku","bakaze":"E","dora_marker":"2s","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[25000,25000,25000,25000],"tehais":[["1m","2m","3m","4p","5pr","6p","7s","8s","9s","E","E","P","C"],["?","?","?","?","?","?","?","?","?","?","?","?","?"],["?","?","?","?","?","?","?","?","?","?","?","?","?"],["?","?","?","?","?","?","?","?","?","?","?","?","?"]]}
{"type":"tsumo","actor":0,"pai":"C"}
{"type":"reach","actor":0}
{"type":"dahai","actor":0,"pai":"P","tsumogiri":false}
{"type":"reach_accepted","actor":0,"scores":[24000,25000,25000,25000]}
{"type":"pon","actor":2,"target":0,"pai":"P","consumed":["P","P"]}
{"type":"none"}
{"type":"hora","actor":0,"target":0,"pai":"C","ura_markers":["3s"],"yakus":[["riichi",1],["menzen_tsumo",1]],"fu":40,"fan":2,"deltas":[5200,-1300,-2600,-1300]}
{"type":"end_kyoku"}
{"type":"end_game","scores":[30200,23700,22400,23700]}
"#;

    #[test]
    fn the_lines_found_by_memchr_are_str_lines() {
        let mut texts: Vec<String> =
            ["", "\n", "\n\n", "a", "a\n", "a\r\n", "a\r", "\r", "\r\n\r\n", "a\rb\n", "\r\r\n"]
                .iter()
                .map(|t| t.to_string())
                .collect();
        texts.extend(["\n\nx", "é\n\rü", "a\n\r", " \t\n", "\u{2028}\n\u{85}"].map(String::from));
        texts.push(LOG.to_owned());
        texts.push(LOG.replace('\n', "\r\n"));
        texts.push(LOG.trim_end().to_owned());
        // Every real game's mjai, and the same cut at every length (inside a line, a `\r\n`).
        let real = crate::import::mjai::real_lines().join("\r\n") + "\n";
        let mut cut: Vec<&str> = texts.iter().map(String::as_str).collect();
        cut.extend((0..real.len()).step_by(4999).filter(|&n| real.is_char_boundary(n)).map(|n| &real[..n]));
        cut.extend(["\r", "\r\n", "\n"].map(|end| &real[..real[..real.len() - 1].rfind(end).unwrap() + end.len()]));
        assert!(cut.len() > 300, "{} texts", cut.len());
        for t in cut {
            assert_eq!(lines(t).collect::<Vec<_>>(), t.lines().collect::<Vec<_>>(), "a text of {} bytes", t.len());
        }
    }

    #[test]
    fn the_quick_reading_of_draws_and_discards_agrees_with_the_json_reading() {
        let mut lines: Vec<String> = LOG.lines().map(str::to_owned).collect();
        lines.extend(crate::import::mjai::real_lines());
        let quick = lines.iter().filter(|l| quick_event(l).is_some()).count();
        assert!(quick * 10 > lines.len() * 8, "{quick} of {} lines read the quick way", lines.len());
        // Each line, and lines made from them by changing, dropping and inserting a byte.
        let mut tried = 0;
        for l in lines.iter().filter(|l| l.len() < 80) {
            let mut variants = vec![l.to_string()];
            variants.extend(crate::import::mjai::byte_variants(l, b"40 \"\\r}Ex"));
            for v in variants {
                if let Some(e) = quick_event(&v) {
                    tried += 1;
                    assert_eq!(as_json(&v), Ok(Some(e)), "{v}");
                }
            }
        }
        assert!(tried > 1000, "{tried}");
        // What the quick reading leaves to the JSON reading.
        for l in [
            r#"{"type":"tsumo","actor":4,"pai":"5m"}"#,
            r#"{"type":"tsumo","actor":01,"pai":"5m"}"#,
            r#"{"type":"tsumo","actor":0,"pai":"5m","pai":"6m"}"#,
            r#"{"type":"tsumo","actor":0,"pai":"0m"}"#,
            r#"{"type":"tsumo", "actor":0,"pai":"5m"}"#,
            r#"{"type":"tsumo","actor":0,"pai":"5\u006d"}"#,
            r#"{"type":"dahai","actor":0,"pai":"5m","tsumogiri":0}"#,
            r#"{"type":"dahai","actor":0,"pai":"5m"}"#,
            r#"{"type":"dahai","actor":0,"pai":"5m","tsumogiri":true} "#,
        ] {
            assert_eq!(quick_event(l), None, "{l}");
        }
        assert_eq!(
            quick_event(r#"{"type":"dahai","actor":3,"pai":"5sr","tsumogiri":true}"#),
            Some(Event::Dahai { actor: 3, pai: Pai::Known(0, 's'), tsumogiri: true })
        );
    }

    #[test]
    fn reads_every_event_kind_used_and_skips_none() {
        let ev = parse(LOG).unwrap();
        assert_eq!(ev.len(), 10);
        assert_eq!(
            ev[0].event,
            Event::StartGame {
                names: Some(vec!["a".into(), "b".into(), "c".into(), "d".into()]),
                red_fives: Some(true),
                east_only: None,
                rule: None,
                id: None,
                paifu: None
            }
        );
        let Event::StartKyoku { tehais, .. } = &ev[1].event else { panic!() };
        assert_eq!(tehais[0][4], Pai::Known(0, 'p'));
        assert_eq!(tehais[1][0], Pai::Hidden);
        assert_eq!(
            ev[6].event,
            Event::Pon { actor: 2, target: 0, pai: Pai::Known(5, 'z'), consumed: vec![Pai::Known(5, 'z'); 2] }
        );
        let Event::Hora { ura_markers, yaku, fu, han, .. } = &ev[7].event else { panic!() };
        assert_eq!(ura_markers, &vec![Pai::Known(3, 's')]);
        assert_eq!((fu, han), (&Some(40), &Some(2)));
        assert_eq!(yaku.as_ref().unwrap()[1], ("menzen_tsumo".to_owned(), 1));
        assert_eq!(ev[7].line, 9);
    }

    #[test]
    fn both_ura_field_names_are_read() {
        let a = parse(r#"{"type":"hora","actor":0,"target":1,"uradora_markers":["1m"]}"#).unwrap();
        let b = parse(r#"{"type":"hora","actor":0,"target":1,"ura_markers":["1m"]}"#).unwrap();
        // As some bots write it (issue 15): the singular, the same list.
        let c = parse(r#"{"type":"hora","actor":0,"target":1,"uradora_marker":["1m"]}"#).unwrap();
        assert_eq!(b[0].event, c[0].event);
        let both = r#"{"type":"hora","actor":0,"target":1,"ura_markers":["1m"],"uradora_marker":["2m"]}"#;
        let e = parse(both).unwrap_err();
        assert!(e.message.contains("\"ura_markers\" and \"uradora_marker\" give different"), "{e}");
        assert_eq!(a, b);
    }

    #[test]
    fn bad_lines_are_named() {
        let e = parse("{\"type\":\"tsumo\",\"actor\":0,\"pai\":\"0m\"}").unwrap_err();
        assert_eq!(e.position, "line 1");
        assert!(e.message.contains("\"0m\" is not an mjai tile"), "{e}");
        let start = r#"{"type":"start_game","names":["a","b","c","d"]}"#;
        let e = parse(&format!("{start}\n{{\"type\":\"tsumo\",\"actor\":7,\"pai\":\"1m\"}}")).unwrap_err();
        assert_eq!(e.position, "line 2");
        assert!(e.message.contains("not a seat"));
        let e = parse(&format!("{start}\n{{\"type\":\"tsu")).unwrap_err();
        assert!(e.message.contains("cut short"), "{e}");
        let cut = &LOG[..LOG.find("\"pon\"").unwrap()];
        let e = parse(cut).unwrap_err();
        assert_eq!((e.round.as_deref(), e.position.as_str()), (Some("East 1, 0 honba"), "line 7, column 8"), "{e}");
        let e = parse("{\"type\":\"teleport\"}").unwrap_err();
        assert!(e.message.contains("unknown event type"));
        let three = r#"{"type":"start_kyoku","bakaze":"E","dora_marker":"2s","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[1,2,3],"tehais":[[],[],[]]}"#;
        assert!(parse(three).unwrap_err().message.contains("four-player"));
        assert!(parse("").is_err());
    }
}
