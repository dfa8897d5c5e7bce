//! mjlog import: the real Tenhou games (../shared, read in place) written as mjlog XML by a small
//! test-only writer, imported, and compared with the tenhou.net/6 import of the same game.
//!
//! The writer works from Paifu's full-information mjai export (the events in the order of play)
//! and gives each tile an id 0-135: copies are taken in order per kind (copy 0 of the fives is
//! the red five with red fives on: ids 16, 52, 88); melds are packed as mjlog/read.rs decodes them.

use crate::util::{paifu, stderr, stdout};
use paifu_core::log::Positions;
use paifu_core::replay::{replay, validate_log, Verdict};
use paifu_core::riichi::Riichi;
use paifu_recorder::import::mjai::export as to_mjai;
use paifu_recorder::import::record::round_name;
use paifu_recorder::import::to_log::Imported;
use paifu_recorder::import::{mjlog, tenhou6, yaku};
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;

fn real_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou")
}

fn files() -> Vec<String> {
    let m: Value = serde_json::from_str(&std::fs::read_to_string(real_dir().join("manifest.json")).unwrap()).unwrap();
    m.as_array().unwrap().iter().map(|e| e["file"].as_str().unwrap().to_owned()).collect()
}

fn tenhou(file: &str) -> Imported {
    let text = std::fs::read_to_string(real_dir().join(file)).unwrap();
    tenhou6::import(&text, text.as_bytes()).unwrap()
}

/// 0-33 for an mjai tile; red fives are their fives' kinds.
fn kind(p: &str) -> u32 {
    let honours = ["E", "S", "W", "N", "P", "F", "C"];
    if let Some(i) = honours.iter().position(|h| *h == p) {
        return 27 + i as u32;
    }
    let b = p.as_bytes();
    let n = u32::from(b[0] - b'1');
    n + 9 * ["m", "p", "s"].iter().position(|s| s.as_bytes()[0] == b[1]).unwrap() as u32
}

struct Writer {
    red: bool,
    free: HashMap<u32, Vec<u32>>,
    held: [Vec<(String, u32)>; 4],
    drawn: [Option<u32>; 4],
    last_discard: u32,
    pons: HashMap<(u64, u32), ([u32; 3], u32, u32)>,
    tags: Vec<String>,
    last_result: usize,
    ura: Vec<u32>,
    /// Each seat's final result after uma and oka, in thousands (`owari`'s odd entries).
    results: Vec<f64>,
}

impl Writer {
    fn new_hand(&mut self) {
        self.free = (0..34).map(|k| (k, (0..4).rev().collect())).collect();
        self.held = Default::default();
        self.drawn = [None; 4];
        self.pons.clear();
        self.ura.clear();
    }

    fn alloc(&mut self, p: &str) -> u32 {
        let k = kind(p);
        let f = self.free.get_mut(&k).unwrap();
        let red_kind = self.red && [4, 13, 22].contains(&k);
        let copy = if p.ends_with('r') {
            f.retain(|c| *c != 0);
            0
        } else {
            let i = f.iter().rposition(|c| !(red_kind && *c == 0)).expect("a fifth copy");
            f.remove(i)
        };
        k * 4 + copy
    }

    fn give(&mut self, s: usize, p: &str) -> u32 {
        let id = self.alloc(p);
        self.held[s].push((p.to_owned(), id));
        id
    }

    /// Takes a tile out of a seat's hand, not `avoid` unless it must.
    fn take(&mut self, s: usize, p: &str, avoid: Option<u32>) -> u32 {
        let h = &mut self.held[s];
        let i = h
            .iter()
            .position(|(q, id)| q == p && Some(*id) != avoid)
            .or_else(|| h.iter().position(|(q, _)| q == p))
            .unwrap_or_else(|| panic!("seat {s} does not hold {p}"));
        h.remove(i).1
    }

    fn event(&mut self, e: &Value) {
        let ty = e["type"].as_str().unwrap();
        let actor = e["actor"].as_u64().unwrap_or(0) as usize;
        let strs = |v: &Value| -> Vec<String> {
            v.as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_owned()).collect()
        };
        let rel = |target: u64| ((target as usize + 4 - actor) % 4) as u32;
        match ty {
            "start_game" => {
                self.red = e["aka_flag"].as_bool().unwrap();
                let rule = e["rule"].as_str().unwrap_or("");
                let mut t = 0x01;
                if rule.contains('鳳') {
                    t |= 0xA0;
                }
                if rule.contains('南') {
                    t |= 0x08;
                }
                if !rule.contains('喰') {
                    t |= 0x04;
                }
                if !self.red {
                    t |= 0x02;
                }
                self.tags.push(format!("<GO type=\"{t}\" lobby=\"0\"/>"));
                let names = strs(&e["names"]);
                let enc = |n: &str| n.bytes().map(|b| format!("%{b:02X}")).collect::<String>();
                self.tags.push(format!(
                    "<UN n0=\"{}\" n1=\"{}\" n2=\"{}\" n3=\"{}\" dan=\"0,0,0,0\"/>",
                    enc(&names[0]),
                    enc(&names[1]),
                    enc(&names[2]),
                    enc(&names[3])
                ));
            }
            "start_kyoku" => {
                self.new_hand();
                let hands: Vec<Vec<u32>> =
                    (0..4).map(|s| strs(&e["tehais"][s]).iter().map(|p| self.give(s, p)).collect::<Vec<_>>()).collect();
                let dora = self.alloc(e["dora_marker"].as_str().unwrap());
                let wind = ["E", "S", "W", "N"].iter().position(|w| e["bakaze"] == *w).unwrap() as u64;
                let k = wind * 4 + e["kyoku"].as_u64().unwrap() - 1;
                let ten: Vec<String> =
                    e["scores"].as_array().unwrap().iter().map(|x| (x.as_i64().unwrap() / 100).to_string()).collect();
                let hai = |h: &Vec<u32>| h.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
                self.tags.push(format!(
                    "<INIT seed=\"{k},{},{},0,0,{dora}\" ten=\"{}\" oya=\"{}\" hai0=\"{}\" hai1=\"{}\" hai2=\"{}\" hai3=\"{}\"/>",
                    e["honba"],
                    e["kyotaku"],
                    ten.join(","),
                    e["oya"],
                    hai(&hands[0]),
                    hai(&hands[1]),
                    hai(&hands[2]),
                    hai(&hands[3])
                ));
            }
            "tsumo" => {
                let id = self.give(actor, e["pai"].as_str().unwrap());
                self.drawn[actor] = Some(id);
                self.tags.push(format!("<{}{id}/>", ["T", "U", "V", "W"][actor]));
            }
            "dahai" => {
                let p = e["pai"].as_str().unwrap();
                let id = match self.drawn[actor].filter(|_| e["tsumogiri"] == true) {
                    Some(d) => {
                        let h = &mut self.held[actor];
                        let i = h.iter().position(|(_, id)| *id == d).unwrap();
                        h.remove(i).1
                    }
                    None => self.take(actor, p, self.drawn[actor]),
                };
                self.drawn[actor] = None;
                self.last_discard = id;
                self.tags.push(format!("<{}{id}/>", ["D", "E", "F", "G"][actor]));
            }
            "reach" => self.tags.push(format!("<REACH who=\"{actor}\" step=\"1\"/>")),
            "reach_accepted" => self.tags.push(format!("<REACH who=\"{actor}\" step=\"2\"/>")),
            "chi" | "pon" | "daiminkan" => {
                self.drawn[actor] = None;
                let called = self.last_discard;
                let own: Vec<u32> = strs(&e["consumed"]).iter().map(|p| self.take(actor, p, None)).collect();
                let r = rel(e["target"].as_u64().unwrap());
                let m = match ty {
                    "chi" => {
                        let mut three = [called, own[0], own[1]];
                        three.sort_by_key(|id| id / 4);
                        let k0 = three[0] / 4;
                        let low = k0 / 9 * 7 + k0 % 9;
                        let c = three.iter().position(|x| *x == called).unwrap() as u32;
                        ((low * 3 + c) << 10)
                            | ((three[2] % 4) << 7)
                            | ((three[1] % 4) << 5)
                            | ((three[0] % 4) << 3)
                            | 0x4
                            | 3
                    }
                    "pon" => {
                        let mut three = [called, own[0], own[1]];
                        three.sort();
                        let k = called / 4;
                        let unused = (0..4).find(|c| !three.contains(&(k * 4 + c))).unwrap();
                        let c = three.iter().position(|x| *x == called).unwrap() as u32;
                        self.pons.insert((actor as u64, k), ([three[0], three[1], three[2]], c, r));
                        ((k * 3 + c) << 9) | (unused << 5) | 0x8 | r
                    }
                    _ => ((called / 4 * 4 + called % 4) << 8) | r,
                };
                self.tags.push(format!("<N who=\"{actor}\" m=\"{m}\"/>"));
            }
            "kakan" => {
                let added = self.take(actor, e["pai"].as_str().unwrap(), None);
                let k = added / 4;
                let (_, c, r) = self.pons[&(actor as u64, k)];
                let m = ((k * 3 + c) << 9) | ((added % 4) << 5) | 0x10 | r;
                self.tags.push(format!("<N who=\"{actor}\" m=\"{m}\"/>"));
            }
            "ankan" => {
                let four: Vec<u32> = strs(&e["consumed"]).iter().map(|p| self.take(actor, p, None)).collect();
                let m = (four[0] / 4 * 4) << 8;
                self.tags.push(format!("<N who=\"{actor}\" m=\"{m}\"/>"));
            }
            "dora" => {
                let id = self.alloc(e["dora_marker"].as_str().unwrap());
                self.tags.push(format!("<DORA hai=\"{id}\"/>"));
            }
            "hora" => {
                if self.ura.is_empty() {
                    self.ura = strs(&e["ura_markers"]).iter().map(|p| self.alloc(p)).collect();
                }
                let table = yaku::table().unwrap();
                let mut ys = Vec::new();
                let mut yakuman = Vec::new();
                for y in e["yakus"].as_array().unwrap() {
                    let id = table.iter().find(|t| t.japanese == y[0].as_str().unwrap()).unwrap().id;
                    let han = y[1].as_u64().unwrap();
                    if han == 13 {
                        yakuman.push(id.to_string());
                    } else {
                        ys.push(format!("{id},{han}"));
                    }
                }
                let d: Vec<i64> = e["deltas"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
                let sc: Vec<String> = d.iter().map(|x| format!("0,{}", x / 100)).collect();
                let ura: Vec<String> = self.ura.iter().map(u32::to_string).collect();
                let mut tag = format!(
                    "<AGARI ten=\"{},{},0\" who=\"{actor}\" fromWho=\"{}\" sc=\"{}\"",
                    e["fu"],
                    d[actor],
                    e["target"],
                    sc.join(",")
                );
                if !ys.is_empty() {
                    tag.push_str(&format!(" yaku=\"{}\"", ys.join(",")));
                }
                if !yakuman.is_empty() {
                    tag.push_str(&format!(" yakuman=\"{}\"", yakuman.join(",")));
                }
                if !ura.is_empty() {
                    tag.push_str(&format!(" doraHaiUra=\"{}\"", ura.join(",")));
                }
                tag.push_str("/>");
                self.last_result = self.tags.len();
                self.tags.push(tag);
            }
            "ryukyoku" => {
                let kind = match e["reason"].as_str().unwrap() {
                    "kyushukyuhai" => " type=\"yao9\"",
                    "suufonrenda" => " type=\"kaze4\"",
                    "suuchariichi" => " type=\"reach4\"",
                    "suukaikan" => " type=\"kan4\"",
                    "sanchaho" => " type=\"ron3\"",
                    "nagashimangan" => " type=\"nm\"",
                    _ => "",
                };
                let sc: Vec<String> = e["deltas"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| format!("0,{}", x.as_i64().unwrap() / 100))
                    .collect();
                self.last_result = self.tags.len();
                self.tags.push(format!("<RYUUKYOKU{kind} sc=\"{}\"/>", sc.join(",")));
            }
            "end_game" => {
                let o: Vec<String> = e["scores"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .zip(&self.results)
                    .map(|(x, r)| format!("{},{r:.1}", x.as_i64().unwrap() / 100))
                    .collect();
                let t = &mut self.tags[self.last_result];
                t.truncate(t.len() - 2);
                t.push_str(&format!(" owari=\"{}\"/>", o.join(",")));
            }
            _ => {}
        }
    }
}

/// An mjlog XML record of a riichi log (through its mjai export).
pub(super) fn mjlog_of(imp: &Imported) -> String {
    let mjai = to_mjai(&imp.log).unwrap();
    // The exact results after uma and oka, which the importer accepts as well as Tenhou's rounded ones.
    let (end, _) = replay::<Riichi>(&imp.log, &Positions::default(), None).unwrap();
    let results = end.final_points().iter().map(|p| *p as f64 / 1000.0).collect();
    let mut w = Writer {
        red: true,
        free: HashMap::new(),
        held: Default::default(),
        drawn: [None; 4],
        last_discard: 0,
        pons: HashMap::new(),
        tags: Vec::new(),
        last_result: 0,
        ura: Vec::new(),
        results,
    };
    for l in mjai.lines() {
        w.event(&serde_json::from_str(l).unwrap());
    }
    format!("<mjloggm ver=\"2.3\"><SHUFFLE seed=\"\" ref=\"\"/>{}</mjloggm>", w.tags.join(""))
}

#[test]
fn real_games_as_mjlog_import_with_the_same_records_and_results() {
    for file in files() {
        let imp = tenhou(&file);
        let xml = mjlog_of(&imp);
        let again = mjlog::import(&xml, xml.as_bytes(), "x").unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(again.mismatches.is_empty(), "{file}: {:?}", again.mismatches);
        let (Verdict::Valid(a), Verdict::Valid(b)) = (
            validate_log::<Riichi>(&imp.log, &Positions::default()),
            validate_log::<Riichi>(&again.log, &Positions::default()),
        ) else {
            panic!("{file}")
        };
        assert_eq!(imp.log.records, again.log.records, "{file}");
        let d = |o: &paifu_core::replay::Outcome| o.rounds.iter().map(|r| r.deltas.clone()).collect::<Vec<_>>();
        assert_eq!(d(&a), d(&b), "{file}");
        assert_eq!(a.final_scores, b.final_scores, "{file}");
        assert_eq!(imp.log.header.ruleset, again.log.header.ruleset, "{file}");
        assert_eq!(imp.log.header.options, again.log.header.options, "{file}");
    }
}

fn cli(name: &str, text: &str) -> (i32, String) {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join(name), text).unwrap();
    let o = paifu(&["import", "tenhou", name, "-o", "out"], t.path());
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    (o.status.code().unwrap_or(-1), format!("{}{}", stdout(&o), stderr(&o)))
}

const GAME: &str = "2016052515gm-00a9-0000-c4d72066.json";

#[test]
fn paifu_import_tenhou_recognises_mjlog_xml_by_content() {
    let xml = mjlog_of(&tenhou(GAME));
    let (code, msg) = cli("game.txt", &xml);
    assert_eq!(code, 0, "{msg}");
    assert!(msg.contains("valid"), "{msg}");
}

#[test]
fn bad_mjlog_input_names_the_round_and_byte() {
    let xml = mjlog_of(&tenhou(GAME));
    // The first call's meld bits replaced by a chi of a run that does not exist (low kind 21).
    let at = xml.find("<N who=").unwrap();
    let round_start = xml[..at].rfind("<INIT seed=\"").unwrap();
    let head: Vec<u32> =
        xml[round_start + 12..].split('"').next().unwrap().split(',').take(2).map(|x| x.parse().unwrap()).collect();
    let name = round_name(head[0] as u8, head[1]);
    let m_at = at + xml[at..].find("m=\"").unwrap();
    let end = m_at + 3 + xml[m_at + 3..].find('"').unwrap();
    let bad = format!("{}m=\"{}\"{}", &xml[..m_at], (21 * 3) << 10 | 0x4 | 3, &xml[end + 1..]);
    let (code, msg) = cli("bad.xml", &bad);
    assert_eq!(code, 2, "{msg}");
    assert!(
        msg.contains(&format!("round {name}"))
            && msg.contains(&format!("at byte {at}"))
            && msg.contains("is not a meld"),
        "{msg}"
    );
    // Cut short inside the record.
    let (code, msg) = cli("cut.xml", &xml[..xml.len() / 2]);
    assert_eq!(code, 2, "{msg}");
    assert!(msg.contains("round ") && msg.contains("byte"), "{msg}");
    // Three players.
    let sanma = xml.replace("<GO type=\"169\"", "<GO type=\"185\"");
    let (code, msg) = cli("sanma.xml", &sanma);
    assert_eq!(code, 2, "{msg}");
    assert!(msg.contains("three-player"), "{msg}");
}
