//! Reading Tenhou's mjlog XML game records (`<mjloggm ver="2.3">`) into their game tags.
//!
//! Tiles are ids 0-135: the kind is `id / 4` (0-8 m, 9-17 p, 18-26 s, 27-33 E S W N White Green
//! Red), and with red fives on, ids 16, 52 and 88 are the red fives. Draws are tags `T`, `U`, `V`,
//! `W` followed by the tile id (seats 0-3), discards `D`, `E`, `F`, `G`. Calls are `<N who m>`,
//! where `m` packs the meld (decoded in meld.rs); `<REACH who step>`, `<DORA hai>`, `<INIT>` starts a
//! round, `<AGARI>` and `<RYUUKYOKU>` end one.

use super::meld::{decode_meld, Meld, TileId};
use crate::import::record::round_name;
use crate::import::ImportError;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// One tag of the record that matters to the game.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tag {
    /// `<GO type>`: the lobby's rule bits (0x10 = three players, 0x02 = no red fives, ...).
    Go {
        rule: u32,
    },
    /// `<UN n0..n3>`: the players' names (percent-decoded).
    Names(Vec<String>),
    Init {
        kyoku: u8,
        honba: u32,
        sticks: u32,
        dice: [u8; 2],
        dora: TileId,
        scores: [i64; 4],
        dealer: u8,
        hands: [Vec<TileId>; 4],
    },
    Draw {
        seat: u8,
        tile: TileId,
    },
    Discard {
        seat: u8,
        tile: TileId,
    },
    Call {
        seat: u8,
        meld: Meld,
    },
    Reach {
        seat: u8,
        step: u8,
    },
    Dora {
        tile: TileId,
    },
    Agari {
        who: u8,
        from: u8,
        pao: Option<u8>,
        fu: u32,
        points: i64,
        yaku: Vec<(u32, u32)>,
        yakuman: Vec<u32>,
        ura: Vec<TileId>,
        sc: Vec<i64>,
        owari: Option<Vec<f64>>,
    },
    Ryuukyoku {
        kind: Option<String>,
        sc: Vec<i64>,
        owari: Option<Vec<f64>>,
    },
}

/// A tag with its position in the file.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Positioned {
    /// Byte offset of the tag in the file.
    pub(crate) byte: u64,
    pub(crate) tag: Tag,
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

struct Attrs {
    byte: u64,
    name: String,
    list: Vec<(String, String)>,
}

impl Attrs {
    fn err(&self, msg: impl Into<String>) -> ImportError {
        ImportError::new(format!("<{}> at byte {}", self.name, self.byte), msg)
    }

    fn opt(&self, k: &str) -> Option<&str> {
        self.list.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str())
    }

    fn get(&self, k: &str) -> Result<&str, ImportError> {
        self.opt(k).ok_or_else(|| self.err(format!("missing attribute {k}")))
    }

    fn num<T: std::str::FromStr>(&self, k: &str) -> Result<T, ImportError> {
        let v = self.get(k)?;
        v.trim().parse().map_err(|_| self.err(format!("{k}={v:?} is not a number")))
    }

    fn nums<T: std::str::FromStr>(&self, k: &str) -> Result<Vec<T>, ImportError> {
        match self.opt(k) {
            None | Some("") => Ok(Vec::new()),
            Some(v) => v
                .split(',')
                .map(|x| x.trim().parse().map_err(|_| self.err(format!("{k}={v:?} is not a list of numbers"))))
                .collect(),
        }
    }

    fn tile(&self, v: i64) -> Result<TileId, ImportError> {
        u8::try_from(v)
            .ok()
            .filter(|&t| t < 136)
            .map(TileId)
            .ok_or_else(|| self.err(format!("{v} is not a tile id (0-135)")))
    }

    fn tiles(&self, k: &str) -> Result<Vec<TileId>, ImportError> {
        self.nums::<i64>(k)?.into_iter().map(|v| self.tile(v)).collect()
    }

    fn seat(&self, k: &str) -> Result<u8, ImportError> {
        let v: i64 = self.num(k)?;
        u8::try_from(v).ok().filter(|&s| s < 4).ok_or_else(|| self.err(format!("{k}={v} is not a seat (0-3)")))
    }
}

fn attrs(e: &BytesStart, byte: u64) -> Result<Attrs, ImportError> {
    let name = e.name().as_ref().to_owned();
    let mut list = Vec::new();
    for a in e.attributes() {
        let a =
            a.map_err(|err| ImportError::new(format!("<{name}> at byte {byte}"), format!("bad attribute: {err}")))?;
        list.push((a.key.as_ref().to_owned(), a.value.to_string()));
    }
    Ok(Attrs { byte, name, list })
}

fn owari(a: &Attrs) -> Result<Option<Vec<f64>>, ImportError> {
    Ok(match a.opt("owari") {
        None => None,
        Some(_) => {
            let o = a.nums::<f64>("owari")?;
            if o.len() != 8 || o.iter().any(|x| !x.is_finite()) {
                return Err(a.err("owari= must hold 8 numbers: each seat's final points (in hundreds) and result"));
            }
            Some(o)
        }
    })
}

/// `sc=`: each seat's score before the hand and its change, in hundreds (8 numbers), in points.
fn score_changes(a: &Attrs) -> Result<Vec<i64>, ImportError> {
    a.get("sc")?;
    let sc: Vec<i64> = a.nums("sc")?;
    if sc.len() != 8 {
        return Err(a.err(format!("sc= must hold each seat's score and its change (8 numbers), not {}", sc.len())));
    }
    Ok(sc.iter().map(|v| v * 100).collect())
}

fn tag(a: &Attrs) -> Result<Option<Tag>, ImportError> {
    let n = a.name.as_str();
    let first = n.chars().next().unwrap_or(' ');
    // T12, D34, ...: a draw or discard with the tile id in the tag name.
    if n.len() > 1 && "TUVWDEFG".contains(first) && n[1..].bytes().all(|b| b.is_ascii_digit()) {
        let id: i64 = n[1..].parse().map_err(|_| a.err("bad tile id"))?;
        let tile = a.tile(id)?;
        let idx = "TUVWDEFG".find(first).unwrap_or(0) as u8;
        return Ok(Some(if idx < 4 { Tag::Draw { seat: idx, tile } } else { Tag::Discard { seat: idx - 4, tile } }));
    }
    Ok(Some(match n {
        "GO" => Tag::Go { rule: a.num("type")? },
        "UN" => {
            // A reconnect (`<UN n2="..."/>`, mid-game): names only of who came back, and never
            // all four. The players' names are the tag that names every seat.
            if (0..4).any(|i| a.opt(&format!("n{i}")).is_none()) {
                return Ok(None);
            }
            let names = (0..4).map(|i| a.get(&format!("n{i}")).map(percent_decode)).collect::<Result<_, _>>()?;
            Tag::Names(names)
        }
        "INIT" => {
            let seed: Vec<i64> = a.nums("seed")?;
            let [k, honba, sticks, d0, d1, dora] = seed.as_slice() else {
                return Err(a.err("seed= must hold round, honba, sticks, two dice and the dora indicator"));
            };
            let ten: Vec<i64> = a.nums("ten")?;
            let scores: [i64; 4] = ten.iter().map(|t| t * 100).collect::<Vec<_>>().try_into().map_err(|_| {
                a.err(format!(
                    "ten= has {} scores: this is not a four-player game, which is all Paifu plays yet",
                    ten.len()
                ))
            })?;
            let mut hands: [Vec<TileId>; 4] = Default::default();
            for (s, h) in hands.iter_mut().enumerate() {
                *h = a.tiles(&format!("hai{s}"))?;
            }
            if hands[3].is_empty() {
                return Err(a.err("seat 4 has no tiles: this is a three-player game, which Paifu does not play yet"));
            }
            let small = |v: i64, what: &str| u32::try_from(v).map_err(|_| a.err(format!("{what} {v} is negative")));
            // Tenhou writes a die as 0-5; other writers as 1-6.
            let die = |d: i64| {
                u8::try_from(d).ok().filter(|d| *d <= 6).ok_or_else(|| a.err(format!("seed= has the die {d}: not 0-6")))
            };
            Tag::Init {
                kyoku: u8::try_from(*k)
                    .ok()
                    .filter(|k| *k < 16)
                    .ok_or_else(|| a.err(format!("round {k} out of range")))?,
                honba: small(*honba, "honba")?,
                sticks: small(*sticks, "riichi sticks")?,
                dice: [die(*d0)?, die(*d1)?],
                dora: a.tile(*dora)?,
                scores,
                dealer: a.seat("oya")?,
                hands,
            }
        }
        "N" => {
            let m: u32 = a.num("m")?;
            Tag::Call {
                seat: a.seat("who")?,
                meld: decode_meld(m).ok_or_else(|| a.err(format!("m={m} is not a meld")))?,
            }
        }
        "REACH" => Tag::Reach { seat: a.seat("who")?, step: a.num("step")? },
        "DORA" => Tag::Dora { tile: a.tile(a.num("hai")?)? },
        "AGARI" => {
            a.get("ten")?;
            let ten: Vec<i64> = a.nums("ten")?;
            let [fu, points, _limit] = ten.as_slice() else {
                return Err(a.err("ten= must hold the fu, the points and the limit"));
            };
            let pairs: Vec<u32> = a.nums("yaku")?;
            if pairs.len() % 2 != 0 {
                return Err(a.err("yaku= must hold pairs of a yaku id and its han"));
            }
            Tag::Agari {
                who: a.seat("who")?,
                from: a.seat("fromWho")?,
                pao: if a.opt("paoWho").is_some() { Some(a.seat("paoWho")?) } else { None },
                fu: u32::try_from(*fu).map_err(|_| a.err(format!("ten= has the fu {fu}")))?,
                points: *points,
                yaku: pairs.chunks(2).map(|c| (c[0], c[1])).collect(),
                yakuman: a.nums("yakuman")?,
                ura: a.tiles("doraHaiUra")?,
                sc: score_changes(a)?,
                owari: owari(a)?,
            }
        }
        "RYUUKYOKU" => {
            Tag::Ryuukyoku { kind: a.opt("type").map(str::to_owned), sc: score_changes(a)?, owari: owari(a)? }
        }
        _ => return Ok(None),
    }))
}

/// The round of the last `<INIT>` read, as players name it.
fn last_round(out: &[Positioned]) -> Option<String> {
    out.iter().rev().find_map(|p| match &p.tag {
        Tag::Init { kyoku, honba, .. } => Some(round_name(*kyoku, *honba)),
        _ => None,
    })
}

/// Parses an mjlog XML record into its game tags.
pub(crate) fn parse(text: &str) -> Result<Vec<Positioned>, ImportError> {
    let mut reader = Reader::from_str(text);
    let mut out: Vec<Positioned> = Vec::new();
    let mut seen_root = false;
    loop {
        let byte = reader.buffer_position();
        match reader.read_event() {
            Ok(Event::Eof) => break,
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                if e.name().as_ref() == "mjloggm" {
                    seen_root = true;
                    continue;
                }
                let in_round = |e: ImportError| match last_round(&out) {
                    Some(r) => e.in_round(&r),
                    None => e,
                };
                let a = attrs(&e, byte).map_err(in_round)?;
                if let Some(t) = tag(&a).map_err(in_round)? {
                    if let Tag::Go { rule } = t {
                        if rule & 0x10 != 0 {
                            return Err(a.err("this is a three-player game, which Paifu does not play yet"));
                        }
                    }
                    out.push(Positioned { byte, tag: t });
                }
            }
            Ok(_) => {}
            Err(e) => {
                let err =
                    ImportError::new(format!("byte {}", reader.error_position()), format!("not well-formed XML: {e}"));
                return Err(match last_round(&out) {
                    Some(r) => err.in_round(&r),
                    None => err,
                });
            }
        }
    }
    if !seen_root {
        return Err(ImportError::new("byte 0", "not an mjlog record: no <mjloggm> element"));
    }
    Ok(out)
}

/// Refuses the tags of a whole game that ends without its final result (`owari=`), the mark of a
/// file cut short; an excerpt (`paifu import --excerpt`, or a record that does not start at
/// East 1) may stop after any hand. `len` is the text's length.
pub(super) fn check_ended(tags: &[Positioned], len: usize) -> Result<(), ImportError> {
    if !tags.iter().any(|p| matches!(p.tag, Tag::Agari { owari: Some(_), .. } | Tag::Ryuukyoku { owari: Some(_), .. }))
    {
        return Err(ImportError::new(
            format!("byte {len}"),
            "the record ends before the game does (no final owari= result): the file is cut short (import it with \
             --excerpt if it is meant to hold only some rounds of a game)",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = r#"<mjloggm ver="2.3"><SHUFFLE seed="x" ref=""/><GO type="169" lobby="0"/><UN n0="%41" n1="B" n2="C" n3="D" dan="0,0,0,0" rate="1500,1500,1500,1500" sx="M,M,M,M"/><TAIKYOKU oya="0"/><INIT seed="0,0,0,2,3,50" ten="250,250,250,250" oya="0" hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" hai3="39,40,41,42,43,44,45,46,47,48,49,50,51"/><T60/><D60/><N who="1" m="1" /><REACH who="2" step="1"/><AGARI ba="0,0" hai="1" ten="30,1000,0" yaku="1,1,0,1" doraHai="50" doraHaiUra="70" who="0" fromWho="0" sc="250,10,250,-3,250,-4,250,-3" owari="260,1.0,247,-20.0,246,-30.0,247,49.0"/></mjloggm>"#;

    #[test]
    fn reads_a_record() {
        let t = parse(&GAME.replace(r#"<N who="1" m="1" />"#, "")).unwrap();
        assert!(matches!(t[0].tag, Tag::Go { rule: 169 }));
        assert_eq!(t[1].tag, Tag::Names(vec!["A".into(), "B".into(), "C".into(), "D".into()]));
        let Tag::Init { dice, dora, scores, .. } = &t[2].tag else { panic!() };
        assert_eq!((dice, dora.0, scores[0]), (&[2, 3], 50, 25000));
        assert_eq!(t[3].tag, Tag::Draw { seat: 0, tile: TileId(60) });
        assert_eq!(t[4].tag, Tag::Discard { seat: 0, tile: TileId(60) });
        let Tag::Agari { yaku, sc, owari, .. } = &t[6].tag else { panic!() };
        assert_eq!(yaku, &vec![(1, 1), (0, 1)]);
        assert_eq!(sc[1], 1000);
        assert_eq!(owari.as_ref().unwrap()[0], 260.0);
    }

    /// Issue 26: a player who reconnects mid-game is written `<UN n1="B"/>` (only that seat's
    /// name); a record with one was refused ("missing attribute n2"). It names nobody anew.
    #[test]
    fn a_reconnect_tag_naming_one_seat_is_read_as_nothing() {
        let plain = parse(GAME).unwrap();
        for tag in [r#"<UN n1="B"/>"#, r#"<UN n0="%41"/>"#, r#"<UN n3="D"/>"#] {
            let with = parse(&GAME.replace("<T60/>", &format!("{tag}<T60/>"))).unwrap_or_else(|e| panic!("{tag}: {e}"));
            let tags = |t: &[Positioned]| t.iter().map(|a| a.tag.clone()).collect::<Vec<_>>();
            assert_eq!(tags(&with), tags(&plain), "{tag}");
        }
    }

    #[test]
    fn bad_records_are_named() {
        // m = 40961 would be a kan of tile kind 40, which does not exist.
        let e = parse(&GAME.replace("m=\"1\"", "m=\"40961\"")).unwrap_err();
        assert!(e.message.contains("m=40961 is not a meld"), "{e}");
        assert!(e.position.starts_with("<N> at byte"), "{e}");
        let e = parse(&GAME.replace("<T60/>", "<T999/>")).unwrap_err();
        assert!(e.message.contains("999 is not a tile id"), "{e}");
        let e = parse(&GAME[..GAME.len() / 2]).unwrap_err();
        assert!(e.message.contains("cut short") || e.message.contains("XML"), "{e}");
        let e = parse(&GAME.replace("type=\"169\"", "type=\"185\"")).unwrap_err();
        assert!(e.message.contains("three-player"), "{e}");
        assert!(parse("<html/>").unwrap_err().message.contains("no <mjloggm>"));
    }
}
