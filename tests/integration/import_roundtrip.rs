//! import(export(log)) is the log itself (the same digest), for imported and seeded riichi logs,
//! through tenhou.net/6 and mjai; an edited embedded log or file does not pass silently.

use crate::util::{paifu, stdout};
use paifu_core::log::{self, Encoding, Log, Positions};
use paifu_core::replay::{validate_log, Verdict};
use paifu_core::riichi::{Action, Riichi};
use paifu_core::{Game, Seed};
use paifu_recorder::bots::Bots;
use paifu_recorder::import::mjai::export as to_mjai;
use paifu_recorder::import::tenhou6::export as to_tenhou6;
use paifu_recorder::import::{import_text, tenhou6, to_log, ImportError};
use serde_json::Value;
use std::path::PathBuf;

fn real_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou")
}

fn files() -> Vec<String> {
    let m: Value = serde_json::from_str(&std::fs::read_to_string(real_dir().join("manifest.json")).unwrap()).unwrap();
    m.as_array().unwrap().iter().map(|e| e["file"].as_str().unwrap().to_owned()).collect()
}

fn real(file: &str) -> Log<Action> {
    let text = std::fs::read_to_string(real_dir().join(file)).unwrap();
    tenhou6::import(&text, text.as_bytes()).unwrap().log
}

fn seeded(i: usize) -> Log<Action> {
    let s = Seed::from_text("digest round trip").child(&format!("g{i}"));
    let mut bots: Vec<Box<dyn paifu_recorder::Bot<Riichi>>> = (0..4)
        .map(|k| Riichi::bot(if (i + k) % 3 == 0 { "random" } else { "greedy" }, &s.child(&format!("b{k}"))).unwrap())
        .collect();
    let ruleset = if i % 3 == 2 { "tonpuu" } else { "standard" };
    let rules = Riichi::rules(ruleset, &Default::default()).unwrap();
    let mut meta = std::collections::BTreeMap::new();
    meta.insert("event".to_owned(), format!("round trip {i}"));
    paifu_recorder::play_game::<Riichi>(ruleset, rules, s, &mut bots, meta).unwrap()
}

fn import(format: &str, text: &str) -> Result<Log<Action>, ImportError> {
    import_text(format, text, text.as_bytes()).map(|imp| {
        assert!(imp.mismatches.is_empty(), "{:?}", imp.mismatches);
        imp.log
    })
}

fn round_trip(log: &Log<Action>, what: &str) {
    let t6 = to_tenhou6(log).unwrap_or_else(|e| panic!("{what}: {e}"));
    let back = import("tenhou", &t6).unwrap_or_else(|e| panic!("{what}: tenhou: {e}"));
    assert_eq!(back.header, log.header, "{what}: tenhou");
    for (a, b) in back.records.iter().zip(&log.records) {
        assert_eq!(a, b, "{what}: tenhou");
    }
    assert_eq!(back.records.len(), log.records.len(), "{what}: tenhou");
    assert_eq!(back.digest(), log.digest(), "{what}: tenhou");
    let mj = to_mjai(log).unwrap_or_else(|e| panic!("{what}: {e}"));
    let back = import("mjai", &mj).unwrap_or_else(|e| panic!("{what}: mjai: {e}"));
    assert_eq!(back.digest(), log.digest(), "{what}: mjai");
    assert_eq!(&back, log, "{what}: mjai");
}

#[test]
fn every_real_game_comes_back_with_the_same_digest_through_tenhou6_and_mjai() {
    let files = files();
    assert_eq!(files.len(), 31);
    for file in files {
        round_trip(&real(&file), &file);
    }
}

#[test]
fn seeded_games_come_back_with_their_seed_and_the_same_digest() {
    for i in 0..6 {
        let log = seeded(i);
        assert!(matches!(validate_log::<Riichi>(&log, &Positions::default()), Verdict::Valid(_)));
        round_trip(&log, &format!("game {i}"));
        // The re-import is the seeded log: its seed, no deal or draw records.
        let back = import("tenhou", &to_tenhou6(&log).unwrap()).unwrap();
        assert_eq!(back.header.seed, log.header.seed);
        assert!(back.records.iter().all(|r| !matches!(r.action, Action::Deal(_) | Action::Draw(_))));
    }
}

#[test]
fn a_seeded_game_with_answers_out_of_the_importers_order_keeps_its_order() {
    // play_game answers a claim window in seat order; the importer asks from the discarder's right.
    // Some window of these games has answers out of the importer's order, and the digest holds.
    let mut found = false;
    for i in 0..6 {
        let log = seeded(i);
        let t6 = to_tenhou6(&log).unwrap();
        let mut v: Value = serde_json::from_str(&t6).unwrap();
        v.as_object_mut().unwrap().remove("paifu");
        let plain = tenhou6::import(&v.to_string(), b"").unwrap().log;
        let decisions: Vec<u8> = plain
            .records
            .iter()
            .filter(|r| !matches!(r.action, Action::Deal(_) | Action::Draw(_) | Action::Dora(_) | Action::Ura(_)))
            .map(|r| r.seat)
            .collect();
        found |= decisions != log.records.iter().map(|r| r.seat).collect::<Vec<_>>();
    }
    assert!(found, "no game with a window answered out of the importer's order");
}

fn with_paifu(text: &str, f: impl Fn(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    f(&mut v);
    v.to_string()
}

#[test]
fn a_changed_seed_is_rejected_naming_the_round_and_position() {
    let log = seeded(0);
    let other = Seed::from_text("another seed");
    let t6 = with_paifu(&to_tenhou6(&log).unwrap(), |v| {
        v["paifu"]["header"]["seed"] = Value::String(other.to_string());
        v["paifu"]["header"]["commitment"] = Value::String(other.commitment().to_string());
    });
    let e = import("tenhou", &t6).unwrap_err();
    assert_eq!(e.round.as_deref(), Some("East 1, 0 honba"), "{e}");
    assert!(e.position.starts_with("log[0][4]"), "{e}");
    assert!(e.message.contains("the embedded seed deals"), "{e}");
    // The same through mjai: the start_kyoku line.
    let mj = to_mjai(&log).unwrap();
    let mut lines: Vec<Value> = mj.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    lines[0]["paifu"]["header"]["seed"] = Value::String(other.to_string());
    let mj: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let e = import("mjai", &mj).unwrap_err();
    assert_eq!((e.round.as_deref(), e.position.as_str()), (Some("East 1, 0 honba"), "line 2"), "{e}");
}

#[test]
fn a_changed_draw_in_a_seeded_export_is_rejected_there() {
    let log = seeded(1);
    let t6 = to_tenhou6(&log).unwrap();
    let v: Value = serde_json::from_str(&t6).unwrap();
    // Seat 1's third draw in East 1 swapped with its fourth (both tiles, so the play stays legal
    // as long as neither is discarded in between: pick a pair that the file allows).
    let takes = v["log"][0][8].as_array().unwrap();
    let draws: Vec<usize> = (0..takes.len()).filter(|&i| takes[i].is_i64()).collect();
    let mut rejected = false;
    for w in draws.windows(2) {
        if takes[w[0]] == takes[w[1]] {
            continue;
        }
        let mut m = v.clone();
        let (a, b) = (m["log"][0][8][w[0]].clone(), m["log"][0][8][w[1]].clone());
        m["log"][0][8][w[0]] = b;
        m["log"][0][8][w[1]] = a;
        match import("tenhou", &m.to_string()) {
            Ok(back) => panic!("a swapped draw imports, digest equal: {}", back.digest() == log.digest()),
            Err(e) => {
                assert_eq!(e.round.as_deref(), Some("East 1, 0 honba"), "{e}");
                assert!(e.position.starts_with("log[0][8]") || e.position.starts_with("log[0][9]"), "{e}");
                rejected = true;
            }
        }
        break;
    }
    assert!(rejected);
}

#[test]
fn an_edited_embedded_header_is_rejected_or_changes_the_digest() {
    let log = real("2010081709gm-00a9-0000-fe3371ad.json");
    let t6 = to_tenhou6(&log).unwrap();
    // A seat renamed in the embedded header only: the file's names differ from it.
    let e = import("tenhou", &with_paifu(&t6, |v| v["paifu"]["header"]["seats"][1] = "Mallory".into())).unwrap_err();
    assert_eq!(e.position, "name[1]", "{e}");
    assert!(e.message.contains("\"Mallory\""), "{e}");
    // A seat renamed in the file only.
    let e = import("tenhou", &with_paifu(&t6, |v| v["name"][2] = "Mallory".into())).unwrap_err();
    assert_eq!(e.position, "name[2]", "{e}");
    // Renamed in both: a different log, so a different digest.
    let both = with_paifu(&t6, |v| {
        v["name"][2] = "Mallory".into();
        v["paifu"]["header"]["seats"][2] = "Mallory".into();
    });
    let back = import("tenhou", &both).unwrap();
    assert_eq!(back.header.seats[2], "Mallory");
    assert_ne!(back.digest(), log.digest());
    // Another source id, another rule, a changed claim, a changed result.
    let e = import("tenhou", &with_paifu(&t6, |v| v["paifu"]["header"]["source"]["id"] = "x".into())).unwrap_err();
    assert_eq!(e.position, "ref", "{e}");
    let e = import("tenhou", &with_paifu(&t6, |v| v["paifu"]["header"]["ruleset"] = "tonpuu".into())).unwrap_err();
    assert!(e.message.contains("the game is over by the rules") || e.position.starts_with("log"), "{e}");
    let claimed = with_paifu(&t6, |v| v["paifu"]["claims"][0][1]["round"][0] = 1.into());
    let back = import("tenhou", &claimed).unwrap();
    assert_ne!(back.digest(), log.digest());
    assert!(matches!(validate_log::<Riichi>(&back, &Positions::default()), Verdict::Invalid(_)));
    let e = import("tenhou", &with_paifu(&t6, |v| v["log"][0][16][1][0] = 99999.into())).unwrap_err();
    assert_eq!((e.round.as_deref(), e.position.as_str()), (Some("East 1, 0 honba"), "log[0][16][1][0]"), "{e}");
    assert!(e.message.contains("the file has 99999, the embedded header and records give"), "{e}");
    // A window answered in another order than the importer's: still the same digest only if the
    // embedded order is kept; a malformed order is refused.
    let e = import("tenhou", &with_paifu(&t6, |v| v["paifu"]["order"] = "0123".into())).unwrap_err();
    assert!(e.message.contains("records"), "{e}");
    // The mjai export: a renamed seat in the embedded header.
    let mj = to_mjai(&log).unwrap();
    let mut lines: Vec<Value> = mj.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    lines[0]["paifu"]["header"]["seats"][0] = "Mallory".into();
    let e = import("mjai", &lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap_err();
    assert_eq!(e.position, "line 1 (names[0])", "{e}");
}

#[test]
fn files_without_an_embedded_log_import_as_before() {
    // A log that embeds no source exports its yaku in the export's own order, which for this game
    // is not Tenhou's (import_export.rs): another source, another digest.
    let mut log = real("2020081220gm-00a9-0000-9ee6ab3b.json");
    assert!(log.header.meta.remove("source").is_some());
    let plain = with_paifu(&to_tenhou6(&log).unwrap(), |v| {
        v.as_object_mut().unwrap().remove("paifu");
    });
    let back = import("tenhou", &plain).unwrap();
    assert_eq!(back.records, log.records);
    let src = back.header.source.as_ref().unwrap();
    assert_eq!(src.format, "tenhou6");
    assert_eq!(src.digest, to_log::source_digest(plain.as_bytes()));
    assert_ne!(back.digest(), log.digest());
}

#[test]
fn cli_export_then_import_gives_the_same_digest() {
    let dir = tempfile::tempdir().unwrap();
    let logs = [("real", real("2020052700gm-00a9-0000-75a4695c.json")), ("seeded", seeded(3))];
    for (name, lg) in logs {
        let src = dir.path().join(format!("{name}.paifu.jsonl"));
        std::fs::write(&src, log::encode(&lg, Encoding::JsonLines)).unwrap();
        for (fmt, ext) in [("tenhou", "json"), ("mjai", "mjson")] {
            let out = format!("{name}-x.{ext}");
            let o = paifu(&["export", fmt, src.to_str().unwrap(), "-o", &out], dir.path());
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let o = paifu(&["import", fmt, &out, "-o", fmt], dir.path());
            assert!(o.status.success(), "{}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
            let again = dir.path().join(fmt).join(format!("{name}-x.paifu.jsonl"));
            let d1 = paifu(&["digest", src.to_str().unwrap()], dir.path());
            let d2 = paifu(&["digest", again.to_str().unwrap()], dir.path());
            let first = |o: &std::process::Output| stdout(o).split_whitespace().next().unwrap_or_default().to_owned();
            assert_eq!(first(&d1), first(&d2), "{name} {fmt}");
            assert_eq!(first(&d1).len(), 64);
        }
    }
}

#[test]
fn a_log_that_does_not_validate_is_not_exported_and_the_error_says_why() {
    use paifu_recorder::import::ExportError;
    let log = real("2010081709gm-00a9-0000-fe3371ad.json");
    let mut cut = log.clone();
    cut.records.truncate(40);
    assert_eq!(to_tenhou6(&cut), Err(ExportError::Unfinished));
    assert_eq!(to_mjai(&cut), Err(ExportError::Unfinished));
    assert_eq!(to_tenhou6(&cut).unwrap_err().to_string(), "the log ends before the game does");
    // A discard of a tile the seat does not hold: refused at that record, by both exporters.
    let mut bad = log.clone();
    let i = bad.records.iter().position(|r| matches!(r.action, Action::Discard { .. })).unwrap();
    let held: Vec<_> = bad.records[..i]
        .iter()
        .filter(|r| r.seat == bad.records[i].seat)
        .flat_map(|r| match r.action {
            Action::Deal(t) => t.to_vec(),
            Action::Draw(t) => vec![t],
            _ => Vec::new(),
        })
        .collect();
    let other =
        (0..34).map(paifu_core::mahjong::Tile::kind_tile).find(|t| held.iter().all(|h| h.kind() != t.kind())).unwrap();
    bad.records[i].action = Action::discard(other);
    for e in [to_tenhou6(&bad).unwrap_err(), to_mjai(&bad).unwrap_err()] {
        assert!(matches!(&e, ExportError::Refused { index, .. } if *index == i), "{e}");
        assert!(e.to_string().starts_with(&format!("record {i}: ")), "{e}");
    }
    // Rules that do not exist.
    let mut rules = log;
    rules.header.ruleset = "nonesuch".into();
    assert!(matches!(to_tenhou6(&rules), Err(ExportError::Rules(_))));
    assert!(matches!(to_mjai(&rules), Err(ExportError::Rules(_))));
}
