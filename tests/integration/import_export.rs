//! `paifu export tenhou` gives back what Tenhou wrote (issue 15, item 1): every one of the 31 real
//! records (../shared/real-logs/tenhou, read in place) is imported, exported and compared field
//! by field with its original. The only differences allowed are named here:
//!
//! - the key `paifu` (the embedded log, docs/import.md), which the original has not;
//! - the order of the yaku in a win (`log[r][16][k][4..]`): Tenhou lists them in its own
//!   calculation's order, which no public source gives; the export writes riichi, double riichi,
//!   ippatsu and menzen tsumo first, then by Tenhou's yaku id, then dora, red fives, ura dora. The
//!   yaku and their han must be the same, as a multiset.

use super::{manifest, real};
use paifu_core::log::Log;
use paifu_core::riichi::Action;
use paifu_recorder::import::tenhou6;
use serde_json::Value;

/// Every place where `ours` differs from `orig` (paths as `log[2][16][2][3]`), the allowed ones
/// apart; a win's yaku are compared as a multiset.
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
        (Value::Array(a), Value::Array(b)) if is_win(a) && is_win(b) && a.len() == b.len() && a.len() >= 4 => {
            for i in 0..4 {
                differences(&a[i], &b[i], &format!("{path}[{i}]"), out);
            }
            let sorted = |v: &[Value]| {
                let mut s: Vec<String> = v.iter().map(Value::to_string).collect();
                s.sort();
                s
            };
            if sorted(&a[4..]) != sorted(&b[4..]) {
                out.push(format!("{path}[4..]: {:?} / {:?}", &a[4..], &b[4..]));
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

/// A win's entry in a result: `[who, from, pao, "text", yaku...]`.
fn is_win(v: &[Value]) -> bool {
    v.len() >= 4
        && v[0].is_u64()
        && v[1].is_u64()
        && v[2].is_u64()
        && v[3].as_str().is_some_and(|t| t.ends_with('点') || t.ends_with('∀'))
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

/// Without the embedded log, an export whose yaku are all in Tenhou's order is the very file
/// Tenhou wrote, byte for byte, and imports with the original's digest; the others differ in
/// that order only.
#[test]
fn without_the_embedded_log_the_export_is_tenhous_file() {
    let (mut same, mut other) = (0, 0);
    for (file, _) in manifest() {
        let text = real(&file);
        let orig: Value = serde_json::from_str(&text).unwrap();
        let imp = tenhou6::import(&text, text.as_bytes()).unwrap();
        let mut ours = export(&imp.log);
        ours.as_object_mut().unwrap().remove("paifu");
        let plain = ours.to_string();
        let in_order = plain_yaku(&orig) == plain_yaku(&ours);
        assert_eq!(plain == text.trim_end(), in_order, "{file}");
        if in_order {
            same += 1;
            let back = tenhou6::import(&plain, plain.as_bytes()).unwrap();
            assert_eq!(back.log.digest(), imp.log.digest(), "{file}");
        } else {
            other += 1;
        }
    }
    assert!(same > 0 && other > 0, "{same} {other}");
}

/// Every win's yaku list, in order.
fn plain_yaku(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    for round in v["log"].as_array().unwrap() {
        let res = round[16].as_array().unwrap();
        if res[0] == "和了" {
            out.extend(res.iter().skip(2).step_by(2).map(|w| Value::from(w.as_array().unwrap()[4..].to_vec())));
        }
    }
    out
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
