//! `paifu export tenhou` gives back what Tenhou wrote (issue 15, item 1): every one of the 31 real
//! records (../shared/real-logs/tenhou, read in place) is imported, exported and compared field
//! by field with its original. The only difference allowed is the key `paifu` (the embedded log,
//! docs/import.md), which the original has not. A win's yaku are in the order of the source the
//! imported log embeds (Tenhou lists them in its own calculation's order, which no public source
//! gives); a game with no such source (a simulated one) has riichi, double riichi, ippatsu and
//! menzen tsumo first, then Tenhou's yaku id, then dora, red fives, ura dora.

use super::{manifest, real};
use paifu_core::log::Log;
use paifu_core::riichi::Action;
use paifu_recorder::import::tenhou6;
use serde_json::Value;

/// Every place where `ours` differs from `orig` (paths as `log[2][16][2][3]`), the key `paifu`
/// apart.
fn differences(orig: &Value, ours: &Value, path: &str, out: &mut Vec<String>) {
    match (orig, ours) {
        (Value::Object(a), Value::Object(b)) => {
            for k in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k) && *k != "paifu")) {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) => differences(x, y, &p, out),
                    (x, y) => out.push(format!("{p}: {x:?} / {y:?}")),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                out.push(format!("{path}: {} entries / {}", a.len(), b.len()));
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                differences(x, y, &format!("{path}[{i}]"), out);
            }
        }
        // Numbers compare by value and kind (`-20.0` is not `-20`).
        (a, b) if a == b && a.is_f64() == b.is_f64() => {}
        (a, b) => out.push(format!("{path}: {a} / {b}")),
    }
}

fn export(log: &Log<Action>) -> Value {
    serde_json::from_str(&tenhou6::export(log).unwrap()).unwrap()
}

#[test]
fn every_real_record_exports_as_tenhou_wrote_it_field_by_field() {
    let mut all = Vec::new();
    let files = manifest();
    assert_eq!(files.len(), 31);
    for (file, _) in files {
        let text = real(&file);
        let orig: Value = serde_json::from_str(&text).unwrap();
        let log = tenhou6::import(&text, text.as_bytes()).unwrap().log;
        let ours = export(&log);
        assert!(ours["paifu"].is_object(), "{file}");
        let mut out = Vec::new();
        differences(&orig, &ours, "", &mut out);
        all.extend(out.into_iter().map(|d| format!("{file}: {d}")));
    }
    assert!(all.is_empty(), "{} differences:\n{}", all.len(), all.join("\n"));
}

/// The comparison above can fail: an export with the whole gain in a win's text (what Paifu wrote
/// before), another `sc` result, or a yaku left out is a difference at that very field.
#[test]
fn the_field_by_field_comparison_names_each_edited_field() {
    let file = "2011020401gm-00a9-0000-f6eff225.json";
    let text = real(file);
    let orig: Value = serde_json::from_str(&text).unwrap();
    let ours = export(&tenhou6::import(&text, text.as_bytes()).unwrap().log);
    let mut edited = ours.clone();
    edited["log"][0][16][2][3] = Value::from("20符3飜3700点");
    edited["sc"][1] = Value::from(-19.3);
    let yaku = edited["log"][4][16][2].as_array_mut().unwrap();
    yaku.pop();
    let mut out = Vec::new();
    differences(&orig, &edited, "", &mut out);
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[0].starts_with("sc[1]: -19.0 / -19.3"), "{out:?}");
    assert!(out[1].starts_with("log[0][16][2][3]: \"20符3飜700-1300点\" / \"20符3飜3700点\""), "{out:?}");
    assert!(out[2].starts_with("log[4][16][2]: 8 entries / 7"), "{out:?}");
}

/// Without the embedded log, the export of an imported game is the very file Tenhou wrote, byte
/// for byte, and imports with the original's digest.
#[test]
fn without_the_embedded_log_the_export_is_tenhous_file() {
    for (file, _) in manifest() {
        let text = real(&file);
        let imp = tenhou6::import(&text, text.as_bytes()).unwrap();
        let mut ours = export(&imp.log);
        ours.as_object_mut().unwrap().remove("paifu");
        let plain = ours.to_string();
        assert_eq!(plain, text.trim_end(), "{file}");
        let back = tenhou6::import(&plain, plain.as_bytes()).unwrap();
        assert_eq!(back.log.digest(), imp.log.digest(), "{file}");
    }
}

/// A log that embeds no source (imported before sources were embedded) has its yaku in the
/// export's own order: for this game, not Tenhou's, and the comparison says where.
#[test]
fn without_a_source_the_yaku_go_in_the_exports_own_order() {
    let file = "2020081220gm-00a9-0000-9ee6ab3b.json";
    let text = real(file);
    let orig: Value = serde_json::from_str(&text).unwrap();
    let mut log = tenhou6::import(&text, text.as_bytes()).unwrap().log;
    assert!(log.header.meta.remove("source").is_some());
    let mut out = Vec::new();
    differences(&orig, &export(&log), "", &mut out);
    assert!(!out.is_empty() && out.iter().all(|d| d.contains("[16][")), "{out:?}");
}

/// Tenhou's rounding of the results after uma and oka (riichi.wiki, "Oka and uma": each seat but
/// the top rounded to a thousand, halves toward zero; the top what makes the sum zero), written
/// here apart from the code: 30000 returned, uma 20/10/-10/-20 (Tenhou's ranked rules).
fn tenhou_rounded(points: &[i64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..4).collect();
    order.sort_by_key(|&s| (-points[s], s));
    let uma = [20, 10, -10, -20];
    let mut out = vec![0i64; 4];
    for (place, &s) in order.iter().enumerate().skip(1) {
        let x = points[s] - 30000;
        let whole = x.abs() / 1000 + i64::from(x.abs() % 1000 > 500);
        out[s] = x.signum() * whole + uma[place];
    }
    out[order[0]] = -out.iter().sum::<i64>();
    out.into_iter().map(|r| r as f64).collect()
}

/// Seeded (simulated) games are written by the same rules: `sc` rounded as Tenhou rounds, a
/// win's text gives the hand's value without honba and sticks, a draw where nobody pays is named.
#[test]
fn simulated_games_export_with_tenhous_strings_and_rounding() {
    let (mut wins, mut tsumo, mut rons) = (0, 0, 0);
    for i in 0..6 {
        let log = crate::util::riichi_game("faithful export", i);
        let v = export(&log);
        let sc = v["sc"].as_array().unwrap();
        let points: Vec<i64> = sc.iter().step_by(2).map(|p| p.as_i64().unwrap()).collect();
        let results: Vec<f64> = sc.iter().skip(1).step_by(2).map(|r| r.as_f64().unwrap()).collect();
        assert_eq!(results, tenhou_rounded(&points), "game {i}");
        for round in v["log"].as_array().unwrap() {
            let (honba, sticks) = (round[0][1].as_i64().unwrap(), round[0][2].as_i64().unwrap());
            let res = round[16].as_array().unwrap();
            match res[0].as_str().unwrap() {
                "和了" if res.len() == 3 => {
                    wins += 1;
                    let who = res[2][0].as_u64().unwrap() as usize;
                    let gain = res[1][who].as_i64().unwrap();
                    let text = res[2][3].as_str().unwrap();
                    // The value after `FU符HAN飜` or after the limit's name.
                    let value = numbers(text.rsplit('飜').next().unwrap_or(text));
                    let base = match value.as_slice() {
                        [p] if text.ends_with('∀') => {
                            tsumo += 1;
                            3 * p
                        }
                        [nd, d] => {
                            tsumo += 1;
                            2 * nd + d
                        }
                        [p] => {
                            rons += 1;
                            *p
                        }
                        other => panic!("game {i}: {text}: {other:?}"),
                    };
                    let extra = gain - base - 300 * honba;
                    assert!(
                        extra >= 1000 * sticks && extra % 1000 == 0,
                        "game {i}: {text}, gain {gain}, honba {honba}"
                    );
                }
                "流局" => assert!(res[1].as_array().unwrap().iter().any(|d| d != 0), "game {i}: {res:?}"),
                _ => {}
            }
        }
    }
    assert!(wins > 10 && tsumo > 0 && rons > 0, "{wins} {tsumo} {rons}");
}

/// The numbers in a text like `700-1300点` or `満貫2000点∀`.
fn numbers(text: &str) -> Vec<i64> {
    text.split(|c: char| !c.is_ascii_digit()).filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect()
}

/// Mortal's libriichi (github.com/Equim-chan/Mortal, libriichi/src/mjai/event.rs, `enum Event`,
/// serde-tagged by `type`, snake_case) reads each mjai event with these fields; fields it does not
/// name (`paifu`, `aka_flag`, `rule`, `id` in `start_game`; `yakus`, `fu`, `fan`, `pai` in `hora`;
/// `scores` in `reach_accepted` and `end_game`) are ignored, as the enum does not deny unknown
/// fields. Tiles are the strings of libriichi/src/tile.rs `MJAI_PAI_STRINGS`.
fn libriichi_reads(line: usize, v: &Value) -> Result<(), String> {
    const TILES: [&str; 37] = [
        "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p",
        "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "E", "S", "W", "N", "P", "F", "C", "5mr", "5pr", "5sr",
    ];
    let tile = |k: &str| v[k].as_str().is_some_and(|t| TILES.contains(&t));
    let tiles = |x: &Value, n: Option<usize>| {
        x.as_array().is_some_and(|a| {
            n.is_none_or(|n| a.len() == n) && a.iter().all(|t| t.as_str().is_some_and(|t| TILES.contains(&t)))
        })
    };
    let small = |k: &str, lo: u64, hi: u64| v[k].as_u64().is_some_and(|x| (lo..=hi).contains(&x));
    let actor = |k: &str| small(k, 0, 3);
    let four_i32 = |x: &Value| {
        x.as_array()
            .is_some_and(|a| a.len() == 4 && a.iter().all(|d| d.as_i64().is_some_and(|d| i32::try_from(d).is_ok())))
    };
    let optional = |k: &str, ok: &dyn Fn(&Value) -> bool| v.get(k).is_none_or(|x| x.is_null() || ok(x));
    let ty = v["type"].as_str().unwrap_or("");
    let ok = match ty {
        "start_game" => {
            v["names"].as_array().is_some_and(|n| n.len() == 4 && n.iter().all(Value::is_string))
                && optional("seed", &|s| s.as_array().is_some_and(|s| s.len() == 2 && s.iter().all(Value::is_u64)))
        }
        "start_kyoku" => {
            tile("bakaze")
                && tile("dora_marker")
                && small("kyoku", 1, 4)
                && small("honba", 0, 255)
                && small("kyotaku", 0, 255)
                && actor("oya")
                && four_i32(&v["scores"])
                && v["tehais"].as_array().is_some_and(|h| h.len() == 4 && h.iter().all(|h| tiles(h, Some(13))))
        }
        "tsumo" => actor("actor") && tile("pai"),
        "dahai" => actor("actor") && tile("pai") && v["tsumogiri"].is_boolean(),
        "chi" | "pon" => actor("actor") && actor("target") && tile("pai") && tiles(&v["consumed"], Some(2)),
        "daiminkan" => actor("actor") && actor("target") && tile("pai") && tiles(&v["consumed"], Some(3)),
        "kakan" => actor("actor") && tile("pai") && tiles(&v["consumed"], Some(3)),
        "ankan" => actor("actor") && tiles(&v["consumed"], Some(4)),
        "dora" => tile("dora_marker"),
        "reach" | "reach_accepted" => actor("actor"),
        "hora" => {
            actor("actor")
                && actor("target")
                && optional("deltas", &four_i32)
                && optional("ura_markers", &|u| tiles(u, None))
        }
        "ryukyoku" => optional("deltas", &four_i32),
        "end_kyoku" | "end_game" | "none" => true,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("line {line}: libriichi would not read {v}"))
    }
}

/// `paifu export mjai` writes what libriichi reads, for every real game and seeded games: each
/// event of a type libriichi knows, with its required fields of the right shape (above).
#[test]
fn mjai_exports_have_the_fields_and_shapes_libriichi_reads() {
    let mut logs: Vec<Log<Action>> = manifest()
        .into_iter()
        .map(|(file, _)| {
            let text = real(&file);
            tenhou6::import(&text, text.as_bytes()).unwrap().log
        })
        .collect();
    logs.extend((0..8).map(|i| crate::util::riichi_game("libriichi shapes", i)));
    let (mut events, mut calls_on_riichi) = (0, 0);
    for log in &logs {
        let out = paifu_recorder::import::mjai::export(log).unwrap();
        // A riichi declared, its discard made, not yet accepted.
        let mut unaccepted: Option<(u64, bool)> = None;
        for (i, l) in out.lines().enumerate() {
            let v: Value = serde_json::from_str(l).unwrap();
            libriichi_reads(i + 1, &v).unwrap();
            // libriichi replays events in order: a riichi accepted after a call of its discard
            // would keep its ippatsu (validate_logs then finds the winner's points too low).
            let actor = v["actor"].as_u64();
            match v["type"].as_str().unwrap_or("") {
                "reach" => unaccepted = actor.map(|a| (a, false)),
                "dahai" if unaccepted.is_some_and(|(a, d)| Some(a) == actor && !d) => {
                    unaccepted = actor.map(|a| (a, true));
                }
                "reach_accepted" => {
                    if unaccepted.is_some_and(|(a, _)| Some(a) == actor) {
                        calls_on_riichi += usize::from(out.lines().nth(i + 1).is_some_and(|n| {
                            n.contains("\"type\":\"chi\"")
                                || n.contains("\"type\":\"pon\"")
                                || n.contains("\"type\":\"daiminkan\"")
                        }));
                    }
                    unaccepted = None;
                }
                "chi" | "pon" | "daiminkan" => {
                    assert!(unaccepted.is_none(), "line {}: a call before reach_accepted", i + 1)
                }
                // Won on its discard: never accepted.
                "hora" | "ryukyoku" => unaccepted = None,
                _ => {}
            }
            // The ura indicators under libriichi's name (it reads no other).
            if v["type"] == "hora" {
                assert!(v["ura_markers"].is_array() && v.get("uradora_markers").is_none(), "{v}");
            }
            events += 1;
        }
    }
    assert!(events > 10_000 && calls_on_riichi > 0, "{events} {calls_on_riichi}");
    // The check can fail: the name Paifu wrote before, a missing tsumogiri, a fifth actor, an
    // unknown tile.
    for bad in [
        r#"{"type":"hora","actor":0,"target":1,"uradora_markers":["1m"],"ura_markers":"1m"}"#,
        r#"{"type":"dahai","actor":0,"pai":"1m"}"#,
        r#"{"type":"tsumo","actor":4,"pai":"1m"}"#,
        r#"{"type":"tsumo","actor":0,"pai":"0m"}"#,
        r#"{"type":"start_kyoku","bakaze":"E","dora_marker":"1m","kyoku":0,"honba":0,"kyotaku":0,"oya":0}"#,
    ] {
        assert!(libriichi_reads(1, &serde_json::from_str(bad).unwrap()).is_err(), "{bad}");
    }
}
