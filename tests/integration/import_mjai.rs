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
        Verdict::Invalid(f) => panic!("{what}: {f} at {:?}", f.index.map(|i| &imp.positions[i])),
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
            assert_eq!(imp.positions[f.index.unwrap()], format!("line {}", i + 1));
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
            let pos = &imp.positions[f.index.unwrap()];
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
        assert_eq!(imp.log.records, orig.log.records, "{file}");
    }
    assert!(stripped >= 3, "{stripped}");
    // Four riichi (2018040923, East 3) written without a reason: refused at its line.
    let mut lines = export_lines("2018040923gm-00a9-0000-1833afca.json");
    let i = lines.iter().position(|l| l["type"] == "ryukyoku" && l["reason"] == "suuchariichi").unwrap();
    lines[i].as_object_mut().unwrap().remove("reason");
    let e = paifu_recorder::import::mjai::import(&text(&lines), b"x").unwrap_err();
    assert_eq!(e.position, format!("line {}", i + 1));
    assert!(e.message.contains("without \"reason\"") && e.message.contains("suuchariichi"), "{e}");
}
