//! Importing real riichi game records: ../shared/real-logs/tenhou (read in place, never copied).

use paifu_core::log::Positions;
use paifu_core::replay::{validate_log, Verdict};
use paifu_core::riichi::Riichi;
use paifu_recorder::import::tenhou6;
use paifu_recorder::import::to_log::Imported;
use std::path::PathBuf;

fn real_logs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou")
}

fn manifest() -> Vec<(String, Vec<i64>)> {
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(real_logs().join("manifest.json")).unwrap()).unwrap();
    m.as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let f = e["file"].as_str().unwrap().to_owned();
            let s = e["final_scores"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
            (f, s)
        })
        .collect()
}

fn import_text(text: &str) -> Imported {
    tenhou6::import(text, text.as_bytes()).unwrap()
}

#[test]
fn every_real_tenhou_game_imports_and_validates_with_its_final_scores() {
    let mut failures = Vec::new();
    for (file, want) in manifest() {
        let text = std::fs::read_to_string(real_logs().join(&file)).unwrap();
        if let Err(e) = tenhou6::parse(&text) {
            failures.push(format!("{file}: parse: {e}"));
            continue;
        }
        let imp = match tenhou6::import(&text, text.as_bytes()) {
            Ok(i) => i,
            Err(e) => {
                failures.push(format!("{file}: import: {e}"));
                continue;
            }
        };
        for m in &imp.mismatches {
            failures.push(format!("{file}: {m}"));
        }
        match validate_log::<Riichi>(&imp.log, &Positions::default()) {
            Verdict::Valid(o) => {
                if o.final_scores != want {
                    failures.push(format!("{file}: final scores {:?}, manifest {want:?}", o.final_scores));
                }
            }
            Verdict::Invalid(f) => {
                let pos = f.index.and_then(|i| imp.positions.get(i)).map(ToString::to_string).unwrap_or_default();
                failures.push(format!("{file}: {} at {pos}: {f}", f.code));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

fn validate(imp: &Imported) -> Verdict {
    validate_log::<Riichi>(&imp.log, &Positions::default())
}

fn real(file: &str) -> String {
    std::fs::read_to_string(real_logs().join(file)).unwrap()
}

/// Regression: Tenhou 2018-01-07, East 2: a riichi player robs an added kan in its ippatsu turn.
/// The engine ended ippatsu when the kan was declared; a robbing win keeps it (the kan is not made).
#[test]
fn tenhou_2018010702gm_5dd4f9b4_round_e2_chankan_keeps_ippatsu() {
    let imp = import_text(&real("2018010702gm-00a9-0000-5dd4f9b4.json"));
    assert!(imp.mismatches.is_empty(), "{:?}", imp.mismatches);
    let Verdict::Valid(o) = validate(&imp) else { panic!("{:?}", validate(&imp)) };
    let e2 = &o.rounds[1];
    assert!(e2.summary.contains("robbing the kan") && e2.summary.contains("ippatsu"), "{}", e2.summary);
    assert_eq!(e2.deltas, vec![12000, 0, 0, -12000]);
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

/// The round's entries in a tenhou.net/6 value.
fn round_mut(v: &mut serde_json::Value, r: usize) -> &mut Vec<serde_json::Value> {
    v["log"][r].as_array_mut().unwrap()
}

fn code(c: &serde_json::Value) -> Option<i64> {
    c.as_i64()
}

/// Imports a mutated copy and returns the fault's code and the source position of its record.
fn fault_of(v: &serde_json::Value) -> (String, String, Option<u32>) {
    let text = v.to_string();
    let imp = import_text(&text);
    match validate(&imp) {
        Verdict::Invalid(f) => {
            let pos = f.index.and_then(|i| imp.positions.get(i)).map(ToString::to_string).unwrap_or_default();
            (f.code.to_string(), pos, f.round)
        }
        Verdict::Valid(_) => panic!("the mutated copy validates"),
    }
}

#[test]
fn a_fifth_copy_of_a_tile_is_rejected_at_its_draw() {
    // Find a round whose starting hands and dora indicator hold all four of some kind, and make
    // another seat's first draw a fifth.
    for (file, _) in manifest() {
        let mut v = json(&real(&file));
        let rounds = v["log"].as_array().unwrap().len();
        for r in 0..rounds {
            let rd = round_mut(&mut v, r);
            let mut count = std::collections::HashMap::new();
            let plain = |c: i64| if c > 50 { (c - 50) * 10 + 5 } else { c };
            for s in 0..4 {
                for t in rd[4 + 3 * s].as_array().unwrap() {
                    *count.entry(plain(t.as_i64().unwrap())).or_insert(0) += 1;
                }
            }
            *count.entry(plain(rd[2][0].as_i64().unwrap())).or_insert(0) += 1;
            let Some((&kind, _)) = count.iter().find(|(_, &n)| n == 4) else { continue };
            let dealer = (rd[0][0].as_i64().unwrap() % 4) as usize;
            let s = (dealer + 1) % 4;
            if code(&rd[5 + 3 * s][0]).is_none() {
                continue;
            }
            rd[5 + 3 * s][0] = serde_json::json!(kind);
            let (c, pos, round) = fault_of(&v);
            assert_eq!(c, "illegal_action", "{file}");
            assert_eq!(pos, format!("log[{r}][{}][0]", 5 + 3 * s), "{file}");
            assert_eq!(round, Some(r as u32 + 1));
            return;
        }
    }
    panic!("no round with four of a kind dealt");
}

#[test]
fn a_discard_of_a_tile_not_held_is_rejected_there() {
    let file = "2010081709gm-00a9-0000-fe3371ad.json";
    let mut v = json(&real(file));
    let rd = round_mut(&mut v, 0);
    // Seat 0's first discard from the hand becomes a tile seat 0 never holds in E1.
    let held: Vec<i64> = rd[4].as_array().unwrap().iter().chain(rd[5].as_array().unwrap()).filter_map(code).collect();
    let i = rd[6].as_array().unwrap().iter().position(|d| d.as_i64().is_some_and(|c| c != 60 && c != 0)).unwrap();
    let replacement = (11..48).find(|c| c % 10 != 0 && !held.contains(c)).unwrap();
    rd[6][i] = serde_json::json!(replacement);
    let (c, pos, round) = fault_of(&v);
    assert_eq!((c.as_str(), pos.as_str(), round), ("illegal_action", format!("log[0][6][{i}]").as_str(), Some(1)));
}

#[test]
fn a_moved_call_is_rejected_at_its_new_place() {
    // E1 of the first game: seat 1 calls pon (p434343) as its 5th take; move it one later.
    let file = "2010081709gm-00a9-0000-fe3371ad.json";
    let mut v = json(&real(file));
    let rd = round_mut(&mut v, 0);
    let takes = rd[8].as_array_mut().unwrap();
    let i = takes.iter().position(|t| t.is_string()).unwrap();
    takes.swap(i, i + 1);
    let (c, pos, round) = fault_of(&v);
    assert_eq!(round, Some(1));
    assert_eq!(c, "illegal_action");
    assert_eq!(pos, format!("log[0][8][{}]", i + 1));
}

#[test]
fn a_changed_score_is_a_claim_mismatch_at_the_rounds_last_record() {
    let file = "2010081709gm-00a9-0000-fe3371ad.json";
    let mut v = json(&real(file));
    let rd = round_mut(&mut v, 3);
    let res = rd[16].as_array_mut().unwrap();
    let d = res[1].as_array_mut().unwrap();
    let (a, b) = (d[0].as_i64().unwrap(), d[1].as_i64().unwrap());
    d[0] = serde_json::json!(a + 100);
    d[1] = serde_json::json!(b - 100);
    let (c, pos, round) = fault_of(&v);
    assert_eq!(c, "claim_mismatch");
    assert_eq!(round, Some(4));
    assert!(pos.starts_with("log[3]"), "{pos}");
}

fn export(imp: &Imported) -> String {
    paifu_recorder::import::tenhou6::export(&imp.log).unwrap()
}

#[test]
fn real_games_export_to_tenhou6_and_import_again_with_the_same_results() {
    for (file, want) in manifest() {
        let imp = import_text(&real(&file));
        let out = export(&imp);
        let again = import_text(&out);
        assert!(again.mismatches.is_empty(), "{file}: {:?}", again.mismatches);
        let (Verdict::Valid(a), Verdict::Valid(b)) = (validate(&imp), validate(&again)) else {
            panic!("{file}: {:?}", validate(&again).fault())
        };
        assert_eq!(b.final_scores, want, "{file}");
        let deltas = |o: &paifu_core::replay::Outcome| o.rounds.iter().map(|r| r.deltas.clone()).collect::<Vec<_>>();
        assert_eq!(deltas(&a), deltas(&b), "{file}");
        // The re-import has the same records (the source block differs: another file).
        assert_eq!(imp.log.records, again.log.records, "{file}");
        // export -> import -> export is byte-identical.
        assert_eq!(export(&again), out, "{file}");
    }
}

#[test]
fn seeded_games_export_and_import_with_the_same_results() {
    for i in 0..6 {
        let log = crate::util::riichi_game("import round trip", i);
        let Verdict::Valid(orig) = validate_log::<Riichi>(&log, &Positions::default()) else { panic!() };
        let out = paifu_recorder::import::tenhou6::export(&log).unwrap();
        if std::env::var("DEBUG_EXPORT").is_ok() {
            let v = json(&out);
            for r in v["log"].as_array().unwrap() {
                println!("{r}");
            }
            for r in &orig.rounds {
                println!("{}", r.summary);
            }
        }
        let imp = import_text(&out);
        assert!(imp.mismatches.is_empty(), "game {i}: {:?}", imp.mismatches);
        let v = validate(&imp);
        let Verdict::Valid(o) = v else {
            panic!(
                "game {i}: {:?} at {:?}",
                v.fault(),
                v.fault().and_then(|f| f.index).map(|x| imp.positions[x].to_string())
            )
        };
        assert_eq!(o.final_scores, orig.final_scores, "game {i}");
        let deltas = |o: &paifu_core::replay::Outcome| o.rounds.iter().map(|r| r.deltas.clone()).collect::<Vec<_>>();
        assert_eq!(deltas(&o), deltas(&orig), "game {i}");
        assert_eq!(export(&imp), out, "game {i}");
    }
}

#[path = "import_corners.rs"]
mod corners;

#[path = "import_export.rs"]
mod export;

#[path = "import_upload.rs"]
mod upload;

#[path = "import_help.rs"]
mod help;

#[path = "import_bad.rs"]
mod bad;

#[path = "import_mjai.rs"]
mod mjai;

#[path = "import_mjlog.rs"]
mod mjlog;

#[path = "import_one_game.rs"]
mod one_game;

#[path = "import_roundtrip.rs"]
mod roundtrip;

#[path = "import_trust.rs"]
mod trust;

#[path = "import_folder.rs"]
mod folder;

#[path = "import_excerpt.rs"]
mod excerpt;

#[path = "import_stripped.rs"]
mod stripped;

#[path = "import_shared.rs"]
mod shared;
