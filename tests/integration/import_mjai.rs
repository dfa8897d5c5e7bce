//! mjai import and export: round trips of the real Tenhou games (../shared, read in place) and of
//! seeded games, the field variants that writers in the wild use, and bad mjai input.

use super::bad::import_any;
use crate::util::{paifu, stderr, stdout};
use paifu_core::log::Positions;
use paifu_core::replay::{validate_log, Outcome as Played, Verdict};
use paifu_core::riichi::Riichi;
use paifu_recorder::import::mjai::export as to_mjai;
use paifu_recorder::import::to_log::Imported;
use paifu_recorder::import::{tenhou6, yaku};
use std::path::PathBuf;

fn real_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou")
}

fn files() -> Vec<String> {
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(real_dir().join("manifest.json")).unwrap()).unwrap();
    m.as_array().unwrap().iter().map(|e| e["file"].as_str().unwrap().to_owned()).collect()
}

fn tenhou(file: &str) -> Imported {
    let text = std::fs::read_to_string(real_dir().join(file)).unwrap();
    tenhou6::import(&text, text.as_bytes()).unwrap()
}

fn mjai(text: &str) -> Imported {
    paifu_recorder::import::mjai::import(text, text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn valid(imp: &Imported, what: &str) -> Played {
    assert!(imp.mismatches.is_empty(), "{what}: {:?}", imp.mismatches);
    match validate_log::<Riichi>(&imp.log, &Positions::default()) {
        Verdict::Valid(o) => o,
        Verdict::Invalid(f) => panic!("{what}: {f} at {:?}", f.index.map(|i| imp.positions[i].to_string())),
    }
}

fn deltas(o: &Played) -> Vec<Vec<i64>> {
    o.rounds.iter().map(|r| r.deltas.clone()).collect()
}

#[test]
fn real_games_go_through_mjai_with_the_same_records_and_results() {
    for file in files() {
        let imp = tenhou(&file);
        let a = valid(&imp, &file);
        let out = to_mjai(&imp.log).unwrap_or_else(|e| panic!("{file}: {e}"));
        let again = mjai(&out);
        let b = valid(&again, &file);
        assert_eq!(imp.log.records, again.log.records, "{file}");
        assert_eq!(deltas(&a), deltas(&b), "{file}");
        assert_eq!(a.final_scores, b.final_scores, "{file}");
        // The header comes back too, source block included (the export embeds it).
        assert_eq!(imp.log.header, again.log.header, "{file}");
        // Without the embedded log, the rules, seats and meta still come back; the source block
        // is the mjai file's.
        let mut lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        lines[0].as_object_mut().unwrap().remove("paifu").unwrap();
        let plain = mjai(&text(&lines));
        assert_eq!(imp.log.records, plain.log.records, "{file}");
        assert_eq!(imp.log.header.ruleset, plain.log.header.ruleset, "{file}");
        assert_eq!(imp.log.header.options, plain.log.header.options, "{file}");
        assert_eq!(imp.log.header.seats, plain.log.header.seats, "{file}");
        // The meta but the source, which is each file's own (the mjai file's here).
        let but_source = |h: &paifu_core::log::Header| {
            let mut m = h.meta.clone();
            m.remove("source");
            m
        };
        assert_eq!(but_source(&imp.log.header), but_source(&plain.log.header), "{file}");
        assert!(plain.log.header.meta["source"].starts_with("{\"type\":\"start_game\""), "{file}");
        assert_eq!(plain.log.header.source.as_ref().unwrap().format, "mjai");
        assert_eq!(plain.log.header.source.as_ref().unwrap().id, imp.log.header.source.as_ref().unwrap().id);
        // export -> import -> export is byte-identical.
        assert_eq!(to_mjai(&again.log).unwrap(), out, "{file}");
    }
}

#[test]
fn seeded_games_go_through_mjai_with_the_same_results() {
    for i in 0..4 {
        let log = crate::util::riichi_game("mjai round trip", i);
        let Verdict::Valid(orig) = validate_log::<Riichi>(&log, &Positions::default()) else { panic!() };
        let out = to_mjai(&log).unwrap();
        let imp = mjai(&out);
        let o = valid(&imp, &format!("game {i}"));
        assert_eq!(deltas(&o), deltas(&orig), "game {i}");
        assert_eq!(o.final_scores, orig.final_scores, "game {i}");
        assert_eq!(to_mjai(&imp.log).unwrap(), out, "game {i}");
    }
}

const GAME: &str = "2020052700gm-00a9-0000-75a4695c.json";

/// The mjai export of a real game without its embedded Paifu log (`paifu` on `start_game`), so
/// that it imports as a file from elsewhere: these tests edit it to exercise the mjai reader.
fn export_lines(file: &str) -> Vec<serde_json::Value> {
    let mut lines: Vec<serde_json::Value> =
        to_mjai(&tenhou(file).log).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    lines[0].as_object_mut().unwrap().remove("paifu").unwrap();
    lines
}

fn text(lines: &[serde_json::Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn english_yaku_names_the_older_ura_field_and_aka_field_mean_the_same() {
    let orig = tenhou(GAME);
    let mut lines = export_lines(GAME);
    let table = yaku::table().unwrap();
    for l in &mut lines {
        if l["type"] == "start_game" {
            let a = l.as_object_mut().unwrap();
            let flag = a.remove("aka_flag").unwrap();
            a.insert("aka".into(), serde_json::json!(if flag == true { 1 } else { 0 }));
        }
        if l["type"] == "hora" {
            let a = l.as_object_mut().unwrap();
            let ura = a.remove("ura_markers").unwrap();
            a.insert("uradora_markers".into(), ura);
            // Mahjong Soul converters: English names, {"name", "han"} objects.
            let yakus: Vec<serde_json::Value> = a["yakus"]
                .as_array()
                .unwrap()
                .iter()
                .map(|y| {
                    let ja = y[0].as_str().unwrap();
                    let en = match table.iter().find(|t| t.japanese == ja) {
                        Some(t) => t.english.clone(),
                        None => ja.to_owned(), // 自風 東 ...: kept in Japanese
                    };
                    serde_json::json!({"name": en, "han": y[1]})
                })
                .collect();
            a.insert("yakus".into(), serde_json::json!(yakus));
        }
    }
    let imp = mjai(&text(&lines));
    valid(&imp, GAME);
    assert_eq!(imp.log.records, orig.log.records);
}

#[test]
fn a_changed_score_in_a_hora_is_a_claim_mismatch_at_its_line() {
    let mut lines = export_lines(GAME);
    let i = lines.iter().position(|l| l["type"] == "hora").unwrap();
    let who = lines[i]["actor"].as_u64().unwrap() as usize;
    let target = lines[i]["target"].as_u64().unwrap() as usize;
    let dd = lines[i]["deltas"].as_array_mut().unwrap();
    dd[who] = serde_json::json!(dd[who].as_i64().unwrap() + 1000);
    dd[target] = serde_json::json!(dd[target].as_i64().unwrap() - 1000);
    let imp = mjai(&text(&lines));
    match validate_log::<Riichi>(&imp.log, &Positions::default()) {
        Verdict::Invalid(f) => {
            assert_eq!(f.code.to_string(), "claim_mismatch");
            assert_eq!(imp.positions[f.index.unwrap()].to_string(), format!("line {}", i + 1));
        }
        Verdict::Valid(_) => panic!("a changed score validates"),
    }
}

#[test]
fn a_draw_of_a_fifth_tile_is_rejected_at_its_line() {
    let mut lines = export_lines(GAME);
    // The first tsumo of the first hand becomes a tile the dealer already holds four of... or
    // simply the dora indicator's kind five times: use the start_kyoku hands to pick one.
    let sk = lines.iter().position(|l| l["type"] == "start_kyoku").unwrap();
    let mut count = std::collections::HashMap::new();
    for h in lines[sk]["tehais"].as_array().unwrap() {
        for t in h.as_array().unwrap() {
            *count.entry(t.as_str().unwrap().to_owned()).or_insert(0) += 1;
        }
    }
    *count.entry(lines[sk]["dora_marker"].as_str().unwrap().to_owned()).or_insert(0) += 1;
    let (kind, _) = count.iter().max_by_key(|(k, n)| (**n, (*k).clone())).unwrap();
    let kind = kind.clone();
    // Add tsumo of that kind until it is the fifth: replace the next draws.
    let have = count[&kind];
    let mut replaced = 0;
    let mut at = 0;
    for (i, l) in lines.iter_mut().enumerate().skip(sk) {
        if l["type"] == "tsumo" && replaced < 5 - have {
            l["pai"] = serde_json::json!(kind);
            replaced += 1;
            at = i;
        }
    }
    let imp = mjai(&text(&lines));
    match validate_log::<Riichi>(&imp.log, &Positions::default()) {
        Verdict::Invalid(f) => {
            let pos = imp.positions[f.index.unwrap()].to_string();
            let line: usize = pos.strip_prefix("line ").unwrap().parse().unwrap();
            assert!(line <= at + 1, "{f} at {pos}, the fifth at line {}", at + 1);
        }
        Verdict::Valid(_) => panic!("a fifth tile validates"),
    }
}

fn cli(args: &[&str], files: &[(&str, &str)]) -> (i32, String, tempfile::TempDir) {
    let t = tempfile::tempdir().unwrap();
    for (n, c) in files {
        std::fs::write(t.path().join(n), c).unwrap();
    }
    let o = paifu(args, t.path());
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    (o.status.code().unwrap_or(-1), format!("{}{err}", stdout(&o)), t)
}

#[test]
fn paifu_export_mjai_and_import_mjai_on_the_command_line() {
    let src = std::fs::read_to_string(real_dir().join(GAME)).unwrap();
    let (code, msg, t) = cli(&["import", "tenhou", "g.json", "-o", "logs"], &[("g.json", &src)]);
    assert_eq!(code, 0, "{msg}");
    let o = paifu(&["export", "mjai", "logs/g.paifu.jsonl", "-o", "g.mjson"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = paifu(&["import", "mjai", "g.mjson", "-o", "again"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("valid"), "{}", stdout(&o));
    let o = paifu(&["export", "mjai", "again/g.paifu.jsonl", "-o", "g2.mjson"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read(t.path().join("g.mjson")).unwrap(), std::fs::read(t.path().join("g2.mjson")).unwrap());
}

fn bad(text: &str, needles: &[&str]) {
    let (code, msg, _t) = cli(&["import", "mjai", "bad.mjson", "-o", "out"], &[("bad.mjson", text)]);
    assert_eq!(code, 2, "{msg}");
    for n in needles {
        assert!(msg.contains(n), "{n:?} not in {msg}");
    }
}

#[test]
fn bad_mjai_input_is_a_clear_error_naming_the_round_and_line() {
    let lines = export_lines(GAME);
    let t = text(&lines);
    let sk: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| l["type"] == "start_kyoku").map(|(i, _)| i).collect();
    // Hidden tiles: a player's view of a game.
    let mut hidden = lines.clone();
    hidden[sk[1]]["tehais"][2] = serde_json::json!(vec!["?"; 13]);
    bad(&text(&hidden), &["full-information", &format!("line {}", sk[1] + 1), "round East 2, 1 honba"]);
    // Three players: three hands.
    let mut three = lines.clone();
    three[sk[0]]["tehais"].as_array_mut().unwrap().pop();
    bad(&text(&three), &["four-player", &format!("line {}", sk[0] + 1)]);
    // A malformed line inside the second hand.
    let ls: Vec<&str> = t.lines().collect();
    let mut broken: Vec<String> = ls.iter().map(|s| s.to_string()).collect();
    broken[sk[1] + 3] = "{\"type\":\"dahai\",\"actor\":1,".into();
    bad(&broken.join("\n"), &["round East 2, 1 honba", &format!("line {}", sk[1] + 4), "cut short"]);
    broken[sk[1] + 3] = "{\"type\":\"dahai\",\"actor\":1,\"pai\":\"5x\"}".into();
    bad(&broken.join("\n"), &["round East 2, 1 honba", &format!("line {}", sk[1] + 4), "\"5x\" is not an mjai tile"]);
    broken[sk[1] + 3] = "[1,2]".into();
    bad(&broken.join("\n"), &["round East 2, 1 honba", &format!("line {}", sk[1] + 4), "JSON object"]);
    // A file cut inside a hand.
    let cut: String = ls[..sk[1] + 5].iter().map(|l| format!("{l}\n")).collect();
    bad(&cut, &["round East 2, 1 honba", "cut short"]);
}

#[test]
fn byte_mutations_of_an_mjai_export_never_panic_the_importer() {
    let src = to_mjai(&tenhou(GAME).log).unwrap();
    let mut x: u64 = 7;
    let mut next = |n: usize| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 33) % n as u64) as usize
    };
    for k in 0..300 {
        let mut b = src.clone().into_bytes();
        for _ in 0..1 + k % 3 {
            let i = next(b.len());
            b[i] = if b[i].is_ascii_digit() { b'0' + next(10) as u8 } else { next(128) as u8 };
        }
        if std::panic::catch_unwind(|| import_any("mjai", &b)).is_err() {
            let p = std::env::temp_dir().join("paifu-mjai-fuzz-case.jsonl");
            std::fs::write(&p, &b).unwrap();
            panic!("mutation {k} panics the importer; the input is in {}", p.display());
        }
    }
}

/// Mortal's libriichi reads `hora` with `ura_markers` (libriichi/src/mjai/event.rs); the export
/// writes that name, reads back, and an export of before (`uradora_markers`) still reads back.
#[test]
fn the_export_names_ura_markers_as_libriichi_does_and_reads_back() {
    let imp = tenhou(GAME);
    let out = to_mjai(&imp.log).unwrap();
    let horas: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "hora")
        .collect();
    assert!(!horas.is_empty());
    for h in &horas {
        assert!(h["ura_markers"].is_array() && h.get("uradora_markers").is_none(), "{h}");
    }
    assert_eq!(mjai(&out).log, imp.log);
    let older = out.replace("\"ura_markers\":", "\"uradora_markers\":");
    assert_ne!(older, out);
    assert_eq!(mjai(&older).log, imp.log);
}

/// Results as each seat's points after them (`scores`), as some bots and simulators write them,
/// in place of `deltas`: the same game.
#[test]
fn results_as_scores_after_them_mean_the_same_as_deltas() {
    for file in ["2018040923gm-00a9-0000-1833afca.json", GAME, "2019082700gm-00a9-0000-63d1f136.json"] {
        let orig = tenhou(file);
        let mut lines = export_lines(file);
        let mut now = [0i64; 4];
        for l in &mut lines {
            let add = |now: &mut [i64; 4], d: &serde_json::Value| {
                for (i, x) in now.iter_mut().enumerate() {
                    *x += d[i].as_i64().unwrap();
                }
            };
            match l["type"].as_str().unwrap() {
                "start_kyoku" => now = std::array::from_fn(|i| l["scores"][i].as_i64().unwrap()),
                "reach_accepted" => now[l["actor"].as_u64().unwrap() as usize] -= 1000,
                "hora" | "ryukyoku" => {
                    let a = l.as_object_mut().unwrap();
                    let d = a.remove("deltas").unwrap();
                    add(&mut now, &d);
                    a.insert("scores".into(), serde_json::json!(now));
                }
                _ => {}
            }
        }
        let imp = mjai(&text(&lines));
        valid(&imp, file);
        assert_eq!(imp.log.records, orig.log.records, "{file}");
    }
}

/// A `ryukyoku` without `reason`: a nine-terminals draw is recognised from the tiles, an
/// exhaustive draw from the wall; any other is a located error.
#[test]
fn a_draw_without_a_reason_is_recognised_from_the_tiles() {
    let games = [
        "2010112714gm-00a9-0000-d497e395.json",
        "2011020613gm-00a9-0000-3774f8d1.json",
        "2018022422gm-00a9-0000-0067d2a4.json",
    ];
    let mut stripped = 0;
    for file in games {
        let orig = tenhou(file);
        let mut lines = export_lines(file);
        for l in &mut lines {
            if l["type"] == "ryukyoku"
                && matches!(l["reason"].as_str(), Some("kyushukyuhai" | "fanpai" | "exhaustive") | None)
            {
                l.as_object_mut().unwrap().remove("reason");
                stripped += 1;
            }
        }
        let imp = mjai(&text(&lines));
        valid(&imp, file);
        let (a, b) = (&imp.log.records, &orig.log.records);
        if let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
            panic!("{file}: record {i}: {:?}, the Tenhou import has {:?}", a.get(i), b.get(i));
        }
    }
    assert!(stripped >= 3, "{stripped}");
    // Four riichi (2018040923, East 3) written without a reason, as Mortal's libriichi writes
    // every draw (issue 26): recognised from the four riichi discards.
    let file = "2018040923gm-00a9-0000-1833afca.json";
    let mut lines = export_lines(file);
    let i = lines.iter().position(|l| l["type"] == "ryukyoku" && l["reason"] == "suuchariichi").unwrap();
    lines[i].as_object_mut().unwrap().remove("reason");
    let imp = mjai(&text(&lines));
    valid(&imp, file);
    assert_eq!(imp.log.records, tenhou(file).log.records);
    // An exhaustive draw before the wall is used up (its last 10 draws and discards cut): a
    // draw of no rule, refused at its line.
    let file = "2010112714gm-00a9-0000-d497e395.json";
    let mut lines = export_lines(file);
    let i = lines.iter().position(|l| l["type"] == "ryukyoku" && l["reason"] == "fanpai").unwrap();
    lines.drain(i - 20..i);
    lines[i - 20].as_object_mut().unwrap().remove("reason");
    let e = paifu_recorder::import::mjai::import(&text(&lines), b"x").unwrap_err();
    assert_eq!(e.position, format!("line {}", i - 19));
    assert!(e.message.contains("without \"reason\"") && e.message.contains("suuchariichi"), "{e}");
}

// ---- mjai as each writer writes it (issue 26): the real games rewritten into each writer's
// dialect (docs/import.md, "Writers and their dialects", cites the source of each rewrite), each
// importing to the records of its Tenhou import.

/// The lines of the real game `file` rewritten by `dialect`, imported: a valid game of the same
/// moves and results as its Tenhou import (the claims may differ: a writer that states the
/// results of a nine terminals draw claims what Tenhou's record leaves out).
fn same_game_as(file: &str, dialect: impl Fn(Vec<serde_json::Value>) -> Vec<serde_json::Value>) -> Imported {
    let orig = tenhou(file);
    let imp = mjai(&text(&dialect(export_lines(file))));
    let (o, p) = (valid(&orig, file), valid(&imp, file));
    let moves = |l: &paifu_core::log::Log<paifu_core::riichi::Action>| -> Vec<_> {
        l.records.iter().map(|r| (r.seat, r.action.clone())).collect()
    };
    let (a, b) = (moves(&imp.log), moves(&orig.log));
    if let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
        panic!("{file}: record {i}: {:?}, the Tenhou import has {:?}", a.get(i), b.get(i));
    }
    assert_eq!((deltas(&p), &p.final_scores), (deltas(&o), &o.final_scores), "{file}");
    imp
}

fn obj(l: &mut serde_json::Value) -> &mut serde_json::Map<String, serde_json::Value> {
    l.as_object_mut().unwrap()
}

fn keep(l: &mut serde_json::Value, keys: &[&str]) {
    obj(l).retain(|k, _| k == "type" || keys.contains(&k.as_str()));
}

/// Each seat's concealed tiles (mjai notation) as the events leave them; `at_hora[i]` the
/// winner's at the i-th hora.
fn concealed_at_horas(lines: &[serde_json::Value]) -> Vec<Vec<String>> {
    let mut hands: Vec<Vec<String>> = vec![Vec::new(); 4];
    let mut out = Vec::new();
    let strs = |v: &serde_json::Value| -> Vec<String> {
        v.as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_owned()).collect()
    };
    let give = |h: &mut Vec<String>, t: &str| {
        let i = h.iter().position(|x| x == t).unwrap();
        h.remove(i);
    };
    for l in lines {
        let a = l["actor"].as_u64().map(|a| a as usize);
        match l["type"].as_str().unwrap() {
            "start_kyoku" => hands = l["tehais"].as_array().unwrap().iter().map(strs).collect(),
            "tsumo" => hands[a.unwrap()].push(l["pai"].as_str().unwrap().to_owned()),
            "dahai" | "kakan" => give(&mut hands[a.unwrap()], l["pai"].as_str().unwrap()),
            "chi" | "pon" | "daiminkan" | "ankan" => {
                for t in strs(&l["consumed"]) {
                    give(&mut hands[a.unwrap()], &t);
                }
            }
            "hora" => out.push(hands[a.unwrap()].clone()),
            _ => {}
        }
    }
    out
}

/// `start_kyoku`'s `haiyama` as akochan lays the wall out (mjai_manager.cpp: the deal from tile
/// 0 round the table from the dealer, draws from tile 52, replacement draws from tile 135 down,
/// dora indicators at 130, 128, ..., ura indicators at 131, 129, ...), the tiles no event shows
/// in the places left.
fn with_haiyama(mut lines: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    let mut starts: Vec<usize> =
        lines.iter().enumerate().filter(|(_, l)| l["type"] == "start_kyoku").map(|(i, _)| i).collect();
    starts.push(lines.len());
    for w in starts.windows(2) {
        let (s, e) = (w[0], w[1]);
        let mut wall: Vec<Option<String>> = vec![None; 136];
        let start = &lines[s];
        let oya = start["oya"].as_u64().unwrap() as usize;
        for (seat, hand) in start["tehais"].as_array().unwrap().iter().enumerate() {
            for (i, t) in hand.as_array().unwrap().iter().enumerate() {
                wall[4 * i + (seat + 4 - oya) % 4] = Some(t.as_str().unwrap().to_owned());
            }
        }
        wall[130] = Some(start["dora_marker"].as_str().unwrap().to_owned());
        let (mut drawn, mut replaced, mut doras, mut after_kan) = (0, 0, 1, false);
        for l in &lines[s + 1..e] {
            match l["type"].as_str().unwrap() {
                "daiminkan" | "kakan" | "ankan" => after_kan = true,
                "tsumo" if after_kan => {
                    after_kan = false;
                    wall[135 - replaced] = Some(l["pai"].as_str().unwrap().to_owned());
                    replaced += 1;
                }
                "tsumo" => {
                    wall[52 + drawn] = Some(l["pai"].as_str().unwrap().to_owned());
                    drawn += 1;
                }
                "dora" => {
                    wall[130 - 2 * doras] = Some(l["dora_marker"].as_str().unwrap().to_owned());
                    doras += 1;
                }
                "hora" => {
                    for (i, u) in l["ura_markers"].as_array().unwrap().iter().enumerate() {
                        wall[131 - 2 * i] = Some(u.as_str().unwrap().to_owned());
                    }
                }
                _ => {}
            }
        }
        // The 136 tiles, less those placed, in the places left.
        let mut rest: Vec<String> = Vec::new();
        for suit in ["m", "p", "s"] {
            for n in 1..=9 {
                let copies = if n == 5 { 3 } else { 4 };
                rest.extend(std::iter::repeat_n(format!("{n}{suit}"), copies));
            }
            rest.push(format!("5{suit}r"));
        }
        for h in ["E", "S", "W", "N", "P", "F", "C"] {
            rest.extend(std::iter::repeat_n(h.to_owned(), 4));
        }
        for t in wall.iter().flatten() {
            let i = rest.iter().position(|x| x == t).unwrap();
            rest.remove(i);
        }
        let mut rest = rest.into_iter();
        let wall: Vec<String> = wall.into_iter().map(|t| t.unwrap_or_else(|| rest.next().unwrap())).collect();
        obj(&mut lines[s]).insert("haiyama".into(), serde_json::json!(wall));
    }
    lines
}

/// akochan's self-play log (mjai_manager.cpp, share/make_move.cpp): `start_game` with
/// `aka_flag` and `kyoku_first` and no names; `start_kyoku` with `haiyama`; `reach_accepted`
/// bare; `hora` with `pai`, `hora_tehais` (the hand without the winning tile), `fan`, `fu`,
/// `scores` (after it), `uradora_marker` (only for a winner in riichi), no yaku; `ryukyoku` with
/// `reason` (`fanpai`), `tenpais`, `tehais`, `scores`; `end_game` with `scores`.
fn akochan(lines: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    let mut lines = with_haiyama(lines);
    let hands = concealed_at_horas(&lines);
    let mut horas = hands.into_iter();
    let mut now = [0i64; 4];
    for l in &mut lines {
        match l["type"].as_str().unwrap() {
            "start_game" => *l = serde_json::json!({"type": "start_game", "aka_flag": l["aka_flag"], "kyoku_first": 0}),
            "start_kyoku" => {
                for (s, x) in l["scores"].as_array().unwrap().iter().enumerate() {
                    now[s] = x.as_i64().unwrap();
                }
            }
            "reach_accepted" => {
                now[l["actor"].as_u64().unwrap() as usize] -= 1000;
                keep(l, &["actor"]);
            }
            "hora" | "ryukyoku" => {
                let d = l["deltas"].clone();
                for (s, x) in d.as_array().unwrap().iter().enumerate() {
                    now[s] += x.as_i64().unwrap();
                }
                if l["type"] == "hora" {
                    let mut hand = horas.next().unwrap();
                    if l["actor"] == l["target"] {
                        let i = hand.iter().position(|t| t == l["pai"].as_str().unwrap()).unwrap();
                        hand.remove(i);
                    }
                    let ura = l["ura_markers"].clone();
                    keep(l, &["actor", "target", "pai", "fan", "fu"]);
                    obj(l).insert("hora_tehais".into(), serde_json::json!(hand));
                    if !ura.as_array().unwrap().is_empty() {
                        obj(l).insert("uradora_marker".into(), ura);
                    }
                } else {
                    let tenpais: Vec<bool> = d.as_array().unwrap().iter().map(|x| x.as_i64().unwrap() > 0).collect();
                    keep(l, &["reason"]);
                    obj(l).insert("tenpais".into(), serde_json::json!(tenpais));
                    obj(l).insert("tehais".into(), serde_json::json!([["?"], ["?"], ["?"], ["?"]]));
                }
                obj(l).insert("scores".into(), serde_json::json!(now));
            }
            _ => {}
        }
    }
    lines
}

#[test]
fn akochans_self_play_logs_import_with_every_draw_checked_against_the_wall() {
    for file in files() {
        let imp = same_game_as(&file, akochan);
        assert_eq!(imp.log.header.seats, ["seat 0", "seat 1", "seat 2", "seat 3"], "{file}");
        assert!(imp.log.header.meta["absent"].contains("names"), "{file}");
        assert_eq!(
            (&imp.log.header.ruleset, &imp.log.header.options),
            (&tenhou(&file).log.header.ruleset, &tenhou(&file).log.header.options),
            "{file}"
        );
    }
}

/// An mjai tile in Paifu's notation (`5mr` is `0m`, `E` `1z`, `C` `7z`).
fn paifu_tile(t: &str) -> String {
    match ["E", "S", "W", "N", "P", "F", "C"].iter().position(|h| *h == t) {
        Some(i) => format!("{}z", i + 1),
        None if t.ends_with('r') => format!("0{}", &t[1..2]),
        None => t.to_owned(),
    }
}

/// The real game with 6 kans, as akochan writes it but with its players' names (so that an
/// importer that does not read `haiyama` takes it as it is).
const KANS: &str = "2016052515gm-00a9-0000-c4d72066.json";

/// Each hand: its `start_kyoku` line index, and the index of each event of `kind` in it.
fn hands_with(lines: &[serde_json::Value], kind: &str) -> Vec<(usize, Vec<usize>)> {
    let mut out: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l["type"] == "start_kyoku" {
            out.push((i, Vec::new()));
        } else if l["type"] == kind {
            if let Some(h) = out.last_mut() {
                h.1.push(i);
            }
        }
    }
    out
}

/// Swaps tile `at` of hand `start`'s wall with a tile of a different kind that no event shows;
/// the swapped-in tile.
fn swap_in_wall(lines: &mut [serde_json::Value], start: usize, at: usize) -> String {
    let end = (start + 1..lines.len()).find(|&i| lines[i]["type"] == "start_kyoku").unwrap_or(lines.len());
    let drawn = lines[start..end].iter().filter(|l| l["type"] == "tsumo").count();
    let wall = lines[start]["haiyama"].as_array_mut().unwrap();
    // The live wall past the last draw, or the fourth and fifth kan dora and ura indicators.
    let j = (52 + drawn..118).chain(122..126).find(|&j| wall[j] != wall[at]).expect("an unseen tile of another kind");
    wall.swap(at, j);
    wall[at].as_str().unwrap().to_owned()
}

#[test]
fn a_record_whose_tiles_differ_from_its_own_wall_is_refused_at_the_tile() {
    let named = |file: &str| {
        let mut lines = akochan(export_lines(file));
        obj(&mut lines[0]).insert("names".into(), serde_json::json!(["A", "B", "C", "D"]));
        lines
    };
    let lines = named(KANS);
    valid(&mjai(&text(&lines)), KANS);
    let refused = |lines: &[serde_json::Value], line: usize, says: &[&str]| {
        let t = text(lines);
        let e = paifu_recorder::import::mjai::import(&t, t.as_bytes())
            .err()
            .unwrap_or_else(|| panic!("accepted: {says:?}"));
        assert_eq!(e.position, format!("line {}", line + 1), "{e}");
        for s in says {
            assert!(e.message.contains(s), "{s:?} not in {e}");
        }
    };
    let draws = hands_with(&lines, "tsumo");
    // A draw: the hand's 5th draw is not the wall's tile 56.
    let mut m = lines.clone();
    let (start, ts) = &draws[0];
    let drew = m[ts[4]]["pai"].as_str().unwrap().to_owned();
    let there = swap_in_wall(&mut m, *start, 56);
    let seat = m[ts[4]]["actor"].as_u64().unwrap();
    let drew = paifu_tile(&drew);
    refused(
        &m,
        ts[4],
        &[&format!(
            "seat {seat}'s draw is {drew}, but the wall (haiyama, line {}) holds {} there (tile 56 of 136)",
            start + 1,
            paifu_tile(&there)
        )],
    );
    // A replacement draw after a kan: from the wall's last tile.
    let kans = hands_with(&lines, "daiminkan")
        .into_iter()
        .chain(hands_with(&lines, "ankan"))
        .chain(hands_with(&lines, "kakan"));
    let (start, k) = kans.into_iter().find(|(_, k)| !k.is_empty()).unwrap();
    let after = (k[0]..lines.len()).find(|&i| lines[i]["type"] == "tsumo").unwrap();
    let mut m = lines.clone();
    swap_in_wall(&mut m, start, 135);
    refused(&m, after, &["replacement draw (after a kan) is", "(tile 135 of 136)"]);
    // The dora indicator of a hand, and a kan dora.
    let mut m = lines.clone();
    swap_in_wall(&mut m, start, 130);
    refused(&m, start, &["the dora indicator is", "(tile 130 of 136)"]);
    let (start, d) = hands_with(&lines, "dora").into_iter().find(|(_, d)| !d.is_empty()).unwrap();
    let mut m = lines.clone();
    swap_in_wall(&mut m, start, 128);
    refused(&m, d[0], &["the kan dora indicator is", "(tile 128 of 136)"]);
    // An ura indicator.
    let horas = hands_with(&lines, "hora");
    let (start, h) = horas.iter().find(|(_, h)| h.iter().any(|&i| lines[i].get("uradora_marker").is_some())).unwrap();
    let mut m = lines.clone();
    swap_in_wall(&mut m, *start, 131);
    refused(&m, h[0], &["ura indicator 1 is", "(tile 131 of 136)"]);
    // A starting hand: the dealer's first tile is the wall's tile 0.
    let (start, _) = &draws[1];
    let oya = lines[*start]["oya"].as_u64().unwrap();
    let mut m = lines.clone();
    swap_in_wall(&mut m, *start, 0);
    refused(&m, *start, &[&format!("seat {oya}'s starting hand is"), "but the wall (haiyama) deals it"]);
    // A wall that is not 136 tiles.
    let mut m = lines.clone();
    m[*start]["haiyama"].as_array_mut().unwrap().pop();
    refused(&m, *start, &["\"haiyama\" has 135 tiles: a wall has 136"]);
}

/// Mortal's libriichi (libriichi/src/mjai/event.rs, commit d5e80bf): `start_game` with `names`
/// and `seed`; `reach_accepted` bare; `hora` with `actor`, `target`, `deltas`, `ura_markers`
/// only; `ryukyoku` with `deltas` only; `end_game` bare.
fn libriichi(mut lines: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    for l in &mut lines {
        match l["type"].as_str().unwrap() {
            "start_game" => {
                keep(l, &["names"]);
                obj(l).insert("seed".into(), serde_json::json!([20_260_526u64, 7]));
            }
            "reach_accepted" => keep(l, &["actor"]),
            "hora" => keep(l, &["actor", "target", "deltas", "ura_markers"]),
            "ryukyoku" => keep(l, &["deltas"]),
            "end_game" => keep(l, &[]),
            _ => {}
        }
    }
    lines
}

/// RiichiEnv (riichienv-core/src/state/mod.rs, commit 0c1e575): `start_game` bare; `hora` with
/// `actor`, `target`, `deltas`, `tsumo` and `ura_markers`; `ryukyoku` with its own `reason`
/// names and `deltas`; `end_game` bare.
fn riichienv(mut lines: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    for l in &mut lines {
        match l["type"].as_str().unwrap() {
            "start_game" | "end_game" => keep(l, &[]),
            "reach_accepted" => keep(l, &["actor"]),
            "hora" => {
                let tsumo = l["actor"] == l["target"];
                keep(l, &["actor", "target", "deltas", "ura_markers"]);
                obj(l).insert("tsumo".into(), serde_json::json!(tsumo));
            }
            "ryukyoku" => {
                let reason = match l["reason"].as_str().unwrap().to_owned().as_str() {
                    "fanpai" => "exhaustive_draw".to_owned(),
                    "kyushukyuhai" => "kyushu_kyuhai".to_owned(),
                    "suufonrenda" => "sufuurenta".to_owned(),
                    "suukaikan" => "suukansansen".to_owned(),
                    "suuchariichi" => "suucha_riichi".to_owned(),
                    r => r.to_owned(), // sanchaho, nagashimangan
                };
                keep(l, &["deltas"]);
                obj(l).insert("reason".into(), serde_json::json!(reason));
            }
            _ => {}
        }
    }
    lines
}

/// The original mjai's yaku name for one of Tenhou's (lib/mjai/hora.rb, `add_yaku`).
fn ruby_name(ja: &str) -> &'static str {
    let table = [
        ("門前清自摸和", "menzenchin_tsumoho"),
        ("立直", "reach"),
        ("一発", "ippatsu"),
        ("槍槓", "chankan"),
        ("嶺上開花", "rinshankaiho"),
        ("海底摸月", "haiteiraoyue"),
        ("河底撈魚", "hoteiraoyui"),
        ("平和", "pinfu"),
        ("断幺九", "tanyaochu"),
        ("一盃口", "ipeko"),
        ("自風", "jikaze"),
        ("場風", "bakaze"),
        ("役牌", "sangenpai"),
        ("両立直", "double_reach"),
        ("七対子", "chitoitsu"),
        ("混全帯幺九", "honchantaiyao"),
        ("一気通貫", "ikkitsukan"),
        ("三色同順", "sanshokudojun"),
        ("三色同刻", "sanshokudoko"),
        ("三槓子", "sankantsu"),
        ("対々和", "toitoiho"),
        ("三暗刻", "sananko"),
        ("小三元", "shosangen"),
        ("混老頭", "honroto"),
        ("二盃口", "ryanpeko"),
        ("純全帯幺九", "junchantaiyao"),
        ("混一色", "honiso"),
        ("清一色", "chiniso"),
        ("人和", "renho"),
        ("天和", "tenho"),
        ("地和", "chiho"),
        ("大三元", "daisangen"),
        ("四暗刻", "suanko"),
        ("字一色", "tsuiso"),
        ("緑一色", "ryuiso"),
        ("清老頭", "chinroto"),
        ("九蓮宝燈", "churenpoton"),
        ("純正九蓮宝燈", "churenpoton"),
        ("国士無双", "kokushimuso"),
        ("大四喜", "daisushi"),
        ("小四喜", "shosushi"),
        ("四槓子", "sukantsu"),
        ("ドラ", "dora"),
        ("裏ドラ", "uradora"),
        ("赤ドラ", "akadora"),
    ];
    let base = ja.split([' ', '単', '１']).next().unwrap();
    table.iter().find(|(j, _)| *j == base).map(|(_, r)| *r).unwrap_or_else(|| panic!("no mjai name for {ja}"))
}

/// The original mjai (gimite/mjai, lib/mjai/active_game.rb and tenhou_archive.rb): `start_game`
/// with `names` and `uri`; `reach_accepted` with `deltas` and `scores`; `hora` with
/// `uradora_markers`, `hora_tehais` (the winner's tiles), `yakus` in its romanised names (a
/// yakuman 100 han, the dragons counted as one `sangenpai`), `fu`, `fan`, `hora_points`,
/// `deltas`, `scores`; `ryukyoku` with `tenpais`, `tehais`, `deltas`, `scores`.
fn ruby_mjai(mut lines: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    let mut hands = concealed_at_horas(&lines).into_iter();
    for l in &mut lines {
        match l["type"].as_str().unwrap() {
            "start_game" => {
                keep(l, &["names"]);
                obj(l).insert("uri".into(), serde_json::json!("http://tenhou.net/0/?log=x"));
            }
            "reach_accepted" => {
                let a = l["actor"].as_u64().unwrap() as usize;
                let d: Vec<i64> = (0..4).map(|s| if s == a { -1000 } else { 0 }).collect();
                obj(l).insert("deltas".into(), serde_json::json!(d));
            }
            "hora" => {
                let mut yakus: Vec<(String, u64)> = Vec::new();
                for y in l["yakus"].as_array().unwrap() {
                    let (name, han) = (ruby_name(y[0].as_str().unwrap()), y[1].as_u64().unwrap());
                    let han = if han >= 13 { han / 13 * 100 } else { han };
                    match yakus.iter_mut().find(|(n, _)| n == name && name == "sangenpai") {
                        Some(e) => e.1 += han,
                        None if han > 0 => yakus.push((name.to_owned(), han)),
                        None => {}
                    }
                }
                let fan: u64 = yakus.iter().map(|y| y.1).sum();
                let o = obj(l);
                let ura = o.remove("ura_markers").unwrap();
                o.insert("uradora_markers".into(), ura);
                o.insert("hora_tehais".into(), serde_json::json!(hands.next().unwrap()));
                o.insert("yakus".into(), serde_json::json!(yakus));
                o.insert("fan".into(), serde_json::json!(fan));
                o.insert("hora_points".into(), serde_json::json!(8000));
            }
            "ryukyoku" => {
                let tenpais: Vec<bool> =
                    l["deltas"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap() > 0).collect();
                obj(l).insert("tenpais".into(), serde_json::json!(tenpais));
                obj(l).insert("tehais".into(), serde_json::json!([["?"], ["?"], ["?"], ["?"]]));
            }
            _ => {}
        }
    }
    lines
}

/// mjx's translator to mjai (mjx-project/mjx_mjai_translater, lib/mjx_mjai_translater/
/// mjx_to_mjai.rb): the original mjai's events, and a `start_kyoku` without `scores`.
fn mjx(lines: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    let mut lines = ruby_mjai(lines);
    for l in lines.iter_mut().filter(|l| l["type"] == "start_kyoku") {
        obj(l).remove("scores");
    }
    lines
}

#[test]
fn each_writers_dialect_imports_to_the_same_game() {
    for (i, file) in files().into_iter().enumerate() {
        same_game_as(&file, libriichi);
        let imp = same_game_as(&file, riichienv);
        assert_eq!(imp.log.header.seats, ["seat 0", "seat 1", "seat 2", "seat 3"], "{file}");
        // The original mjai's yaku names are compared as Paifu's (no mismatch, above).
        same_game_as(&file, ruby_mjai);
        if i % 4 == 0 {
            same_game_as(&file, mjx);
        }
    }
}

/// mjai.app (smly/mjai.app, python/mjai/game.py `merge_logs`): libriichi's arena logs of each
/// run joined under one `start_game`, closed by a bare `end_game`; a hand a bot's error stopped
/// ends in `ryukyoku` with `reason` `error` (the penalty as deltas), RiichiEnv's in
/// `Error: Illegal Action by Player N`. Such a stop is no rule of the game: refused at its line.
#[test]
fn mjai_apps_logs_import_and_a_hand_stopped_for_a_bots_error_is_refused() {
    let file = GAME;
    let lines = libriichi(export_lines(file));
    same_game_as(file, libriichi);
    let r = lines.iter().position(|l| l["type"] == "ryukyoku").unwrap();
    for (reason, says) in [
        ("error", "mjai.app's `error`"),
        ("Error: Illegal Action by Player 2", "RiichiEnv's \"Error: Illegal Action by Player 2\""),
    ] {
        let mut m = lines.clone();
        obj(&mut m[r]).insert("reason".into(), serde_json::json!(reason));
        let e = paifu_recorder::import::mjai::import(&text(&m), b"x").unwrap_err();
        assert_eq!(e.position, format!("line {}", r + 1), "{e}");
        assert!(e.message.contains(says) && e.message.contains("which no rule of the game provides"), "{e}");
    }
    let mut m = lines.clone();
    obj(&mut m[r]).insert("reason".into(), serde_json::json!("timeout"));
    let e = paifu_recorder::import::mjai::import(&text(&m), b"x").unwrap_err();
    assert!(e.message.contains("ryukyoku reason \"timeout\" is no draw of the rules"), "{e}");
}

/// akochan's `kyoku_first` (mjai_client.cpp: "4 -> tonpu match, 0 -> tonnan match") sets the
/// game's length as Tenhou's rule name would.
#[test]
fn kyoku_first_is_the_games_length() {
    let lines = akochan(export_lines(GAME));
    let rules_with = |k: serde_json::Value, rule: Option<&str>| {
        let mut m = lines.clone();
        obj(&mut m[0]).insert("kyoku_first".into(), k);
        if let Some(r) = rule {
            obj(&mut m[0]).insert("rule".into(), serde_json::json!(r));
        }
        let t = text(&m);
        let (g, _) = paifu_recorder::import::mjai::import(&t, t.as_bytes()).map(|i| (i.log.header, ())).unwrap();
        (g.ruleset, g.options)
    };
    assert_eq!(rules_with(serde_json::json!(0), None), rules_with(serde_json::json!(0), Some("鳳南喰赤")));
    // The same East-South game said to be East-only: over by the rules after East 4 (someone
    // holds 30000), refused where it goes on.
    let mut m = lines.clone();
    obj(&mut m[0]).insert("kyoku_first".into(), serde_json::json!(4));
    let south = m.iter().position(|l| l["type"] == "start_kyoku" && l["bakaze"] == "S").unwrap();
    let e = paifu_recorder::import::mjai::import(&text(&m), b"x").unwrap_err();
    assert_eq!(
        (e.position.as_str(), e.round.as_deref()),
        (format!("line {}", south + 1).as_str(), Some("South 1, 0 honba")),
        "{e}"
    );
    assert!(e.message.contains("the game is over by the rules, but the source goes on"), "{e}");
    let mut m = lines.clone();
    obj(&mut m[0]).insert("kyoku_first".into(), serde_json::json!(2));
    let e = paifu_recorder::import::mjai::import(&text(&m), b"x").unwrap_err();
    assert_eq!(e.position, "line 1");
    assert!(e.message.contains("kyoku_first 2: akochan writes 0 (an East-South game) or 4 (an East-only game)"), "{e}");
}

/// Fields a writer adds that say something about the game are checked: `hora_tehais`, the
/// original mjai's `pao`, `reach_accepted` `deltas` and `ryukyoku` `tenpais`, RiichiEnv's `tsumo`; one that
/// contradicts the record is refused at its line (or, for the liable seat, is a claim mismatch).
#[test]
fn fields_writers_add_are_checked_against_the_game() {
    let lines = ruby_mjai(export_lines(GAME));
    same_game_as(GAME, ruby_mjai);
    let refused = |m: &[serde_json::Value], line: usize, says: &str| {
        let e = paifu_recorder::import::mjai::import(&text(m), b"x").unwrap_err();
        assert_eq!(e.position, format!("line {}", line + 1), "{e}");
        assert!(e.message.contains(says), "{says:?} not in {e}");
    };
    let h = lines.iter().position(|l| l["type"] == "hora").unwrap();
    let mut m = lines.clone();
    let held = m[h]["hora_tehais"].as_array_mut().unwrap();
    held[0] = serde_json::json!(if held[0] == "C" { "P" } else { "C" });
    refused(&m, h, "hora_tehais gives seat");
    let r = lines.iter().position(|l| l["type"] == "reach_accepted").unwrap();
    let mut m = lines.clone();
    m[r]["deltas"] = serde_json::json!([-1000, -1000, 0, 0]);
    refused(&m, r, "a riichi deposit is 1000 points from seat");
    // `tenpais` against the draw's payments (which the engine checks against the hands).
    let d =
        lines.iter().position(|l| l["type"] == "ryukyoku" && l["deltas"].as_array().unwrap().iter().any(|x| x != 0));
    let d = d.unwrap();
    let mut m = lines.clone();
    let t = m[d]["tenpais"].as_array_mut().unwrap();
    t[0] = serde_json::json!(!t[0].as_bool().unwrap());
    refused(&m, d, "ryukyoku: \"tenpais\" makes");
    let lines = riichienv(export_lines(GAME));
    let mut m = lines.clone();
    let flag = m[h]["tsumo"].as_bool().unwrap();
    m[h]["tsumo"] = serde_json::json!(!flag);
    refused(&m, h, "hora: \"tsumo\"");
    // A liable seat where there is none: the win's claim differs from Paifu's.
    let mut m = ruby_mjai(export_lines(GAME));
    let one =
        (1..m.len()).find(|&i| m[i]["type"] == "hora" && m[i - 1]["type"] != "hora" && m[i + 1]["type"] != "hora");
    let one = one.unwrap();
    let who = m[one]["actor"].as_u64().unwrap();
    m[one]["pao"] = serde_json::json!((who + 1) % 4);
    let imp = mjai(&text(&m));
    assert!(imp.mismatches.iter().any(|x| x.error.message.contains("claim_mismatch")), "{:?}", imp.mismatches);
    // The original mjai's `sangenpai` that counts more dragon pungs than the winner holds.
    let mut m = ruby_mjai(export_lines(GAME));
    let y = m.iter().position(|l| l["type"] == "hora").unwrap();
    m[y]["yakus"].as_array_mut().unwrap().push(serde_json::json!(["sangenpai", 3]));
    let imp = mjai(&text(&m));
    assert!(imp.mismatches.iter().any(|x| x.error.message.contains("sangenpai")), "{:?}", imp.mismatches);
}
