//! Tests of the fan calculator: a test per fan (the example hands of docs/rules/mcr.md), the
//! principles' worked examples, the line protocol.

use super::*;
use serde_json::Value;

/// Scores a line and answers the total and the fan as `name` or `name xN`.
fn fans(line: &str) -> (u64, Vec<String>) {
    let out: Value = serde_json::from_str(&score_line(line)).unwrap();
    assert_eq!(out["ok"], true, "{line} -> {out}");
    let list = out["fans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let n = f["count"].as_u64().unwrap();
            let name = f["name"].as_str().unwrap();
            if n == 1 {
                name.to_string()
            } else {
                format!("{name} x{n}")
            }
        })
        .collect();
    (out["fan"].as_u64().unwrap(), list)
}

#[test]
fn a_first_hand() {
    let (total, list) = fans(r#"{"hand":"123m456p789s111z55z","win":"5z","tsumo":true,"flowers":1}"#);
    assert_eq!(
        list,
        [
            "mixed_straight",
            "all_types",
            "fully_concealed_hand",
            "prevalent_wind",
            "seat_wind",
            "single_wait",
            "flower_tiles"
        ]
    );
    assert_eq!(total, 8 + 6 + 4 + 2 + 2 + 1 + 1);
}

/// The rules page, whose every example hand is a test.
const RULES_PAGE: &str = include_str!("../../../docs/rules/mcr.md");

/// Every example of docs/rules/mcr.md: an indented JSON line, then `=> total: fan, fan xN, ...`.
#[test]
fn every_example_of_the_rules_page_scores_as_it_says() {
    let lines: Vec<&str> = RULES_PAGE.lines().collect();
    let mut checked = 0;
    let mut named = std::collections::BTreeSet::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(input) = l.strip_prefix("    {").map(|r| format!("{{{r}")) else { continue };
        if !input.contains("\"hand\"") {
            continue;
        }
        let want = lines
            .get(i + 1)
            .and_then(|n| n.strip_prefix("    => "))
            .unwrap_or_else(|| panic!("line {}: no => line", i + 2));
        let (total, list) = want.split_once(": ").unwrap();
        let (got_total, got) = fans(&input);
        assert_eq!(
            (got_total.to_string(), got.join(", ")),
            (total.to_string(), list.to_string()),
            "docs line {}: {input}",
            i + 1
        );
        // The fan this example is about (its heading just above), when it is one.
        if let Some(h) = lines[..i].iter().rev().find(|h| h.starts_with("**")) {
            if let Some(name) = h.split('`').nth(1) {
                named.insert(name.to_string());
            }
        }
        checked += 1;
    }
    assert!(checked >= 81 + 8, "only {checked} examples");
    for f in Fan::ALL {
        assert!(named.contains(f.name()), "no example for {f}");
        let heading = format!("**{}. `{}`**", f.number(), f.name());
        let line = lines.iter().find(|l| l.starts_with(&heading)).unwrap_or_else(|| panic!("no heading {heading}"));
        // Each heading states the fan's value and what it excludes, as the data file has them.
        assert!(line.contains(&format!(", {} fan.", f.value())), "{line}");
        for x in f.excludes().iter() {
            assert!(line.contains(&format!("`{x}`")), "{f}'s heading does not say it excludes {x}: {line}");
        }
    }
}

/// The error a line answers: (code, message).
fn refused(line: &str) -> (String, String) {
    let out: Value = serde_json::from_str(&score_line(line)).unwrap();
    assert_eq!(out["ok"], false, "{line} -> {out}");
    (out["error"].as_str().unwrap().to_string(), out["message"].as_str().unwrap().to_string())
}

#[test]
fn the_line_protocol_refuses_bad_input_with_a_reason() {
    let cases: &[(&str, &str, &str)] = &[
        ("not json", "bad_input", "not JSON"),
        ("[1]", "bad_input", "one JSON object"),
        (r#"{"win":"1m"}"#, "bad_input", "hand is missing"),
        (r#"{"hand":"123m"}"#, "bad_input", "win is missing"),
        (r#"{"hand":"123m","win":"1m","riichi":true}"#, "bad_input", "unknown field \"riichi\""),
        (r#"{"hand":"123m","win":"1m","tsumo":1}"#, "bad_input", "tsumo must be true or false"),
        (r#"{"hand":"123m","win":"1m","seat_wind":"X"}"#, "bad_input", "seat_wind must be"),
        (r#"{"hand":"123m","win":"1m","flowers":9}"#, "bad_input", "from 0 to 8"),
        (r#"{"hand":"123m","win":"1m","melds":["pung:777z"]}"#, "bad_input", "unknown meld kind"),
        (r#"{"hand":"123m","win":"1m","melds":["777z"]}"#, "bad_input", "must look like"),
        (r#"{"hand":"123x","win":"1m"}"#, "invalid_tiles", "hand"),
        (r#"{"hand":"123m406p789s11z","win":"1z"}"#, "invalid_tiles", "red five"),
        (r#"{"hand":"123m","win":"1m2m"}"#, "invalid_tiles", "one tile"),
        (r#"{"hand":"11111m456p789s111z","win":"1z"}"#, "invalid_tiles", "5 tiles of 1m"),
        (r#"{"hand":"123m456p789s11z","win":"1z"}"#, "invalid_tiles", "11 concealed tiles"),
        (r#"{"hand":"123m456p789s111z55z","win":"2z"}"#, "invalid_tiles", "not among the concealed"),
        (r#"{"hand":"123m456p","win":"1m","melds":["chi:124m"]}"#, "invalid_tiles", "not a chi"),
        (r#"{"hand":"123m456p789s11z123z","win":"2z"}"#, "not_a_win", "not complete"),
        (
            r#"{"hand":"123m456p789s111z22z","win":"2z","tsumo":true,"kong_related":true}"#,
            "inconsistent",
            "needs a kong",
        ),
        (r#"{"hand":"123m456p789s111z22z","win":"2z","kong_related":true}"#, "inconsistent", "robbing a kong"),
        (r#"{"hand":"123m456p789s111z22z","win":"2z","last_tile":true}"#, "inconsistent", "holds another 2z"),
    ];
    for (line, code, words) in cases {
        let (c, m) = refused(line);
        assert_eq!(c, *code, "{line}: {m}");
        assert!(m.contains(words), "{line}: {m:?} does not say {words:?}");
    }
    // The id comes back, also on errors.
    let out: Value = serde_json::from_str(&score_line(r#"{"id":"h7","hand":"1m","win":"1m"}"#)).unwrap();
    assert_eq!(out["id"], "h7");
}

#[test]
fn the_minimum_is_measured_without_flowers() {
    let line = r#"{"hand":"567m44678p123s","melds":["chi:789p"],"win":"8p","flowers":8}"#;
    let out: Value = serde_json::from_str(&score_line(line)).unwrap();
    assert_eq!((out["fan"].as_u64(), out["meets_minimum"].as_bool()), (Some(10), Some(false)));
    let line = r#"{"hand":"444777m456s33z","melds":["chi:345p"],"win":"4m"}"#;
    let out: Value = serde_json::from_str(&score_line(line)).unwrap();
    assert_eq!((out["fan"].as_u64(), out["meets_minimum"].as_bool()), (Some(8), Some(true)));
}

/// Lines cut and mutated byte by byte never make the calculator panic, and every answer is one
/// JSON object with `ok`.
#[test]
fn mutated_lines_never_panic() {
    let base = r#"{"id":3,"hand":"123m456p789s111z55z","melds":["kakan:5555s"],"win":"5z","tsumo":true,"flowers":1,"kong_related":true}"#;
    let bytes = base.as_bytes();
    let mut seen = 0;
    for i in 0..bytes.len() {
        for b in [b'0', b'9', b'z', b'f', b'"', b'}', b' ', 0xff] {
            let mut m = bytes.to_vec();
            m[i] = b;
            let line = String::from_utf8_lossy(&m);
            let out: Value = serde_json::from_str(&score_line(&line)).unwrap();
            assert!(out["ok"].is_boolean(), "{line} -> {out}");
            seen += 1;
        }
        let out: Value = serde_json::from_str(&score_line(&base[..i])).unwrap();
        assert_eq!(out["ok"], false);
    }
    assert!(seen > 500);
}

/// The score of a hand as the engine asks for it (typed, not through JSON).
#[test]
fn typed_scores_and_their_summary() {
    use crate::mahjong::{parse_tiles, Meld, MeldKind};
    let hand = parse_tiles("123m456p789s55z").unwrap();
    let melds = [Meld::new(MeldKind::ConcealedKong, &parse_tiles("1111z").unwrap(), None, None).unwrap()];
    let win = hand[0];
    let sit = Situation { self_drawn: true, flowers: 2, ..Situation::default() };
    let sc = score(&WinHand { concealed: &hand, melds: &melds, win }, &sit, &ScoreRules::default()).unwrap();
    assert_eq!(sc.fan, 8 + 6 + 4 + 2 + 2 + 2);
    assert_eq!((sc.total(), sc.meets_minimum()), (26, true));
    assert_eq!(
        sc.summary(),
        "mixed_straight 8 + all_types 6 + fully_concealed_hand 4 + prevalent_wind 2 + seat_wind 2 + concealed_kong 2 + flower_tiles 1x2 = 26"
    );
    // One concealed and one melded kong: 3 by default, 5 if the rules say so.
    let melds = [
        Meld::new(MeldKind::ConcealedKong, &parse_tiles("1111z").unwrap(), None, None).unwrap(),
        Meld::new(MeldKind::ClaimedKong, &parse_tiles("2222z").unwrap(), None, None).unwrap(),
    ];
    let hand = parse_tiles("123m456p55z").unwrap();
    let wh = WinHand { concealed: &hand, melds: &melds, win: hand[0] };
    let three = score(&wh, &Situation::default(), &ScoreRules::default()).unwrap();
    let five = score(&wh, &Situation::default(), &ScoreRules { concealed_and_melded_kong: 5 }).unwrap();
    assert_eq!(five.fan, three.fan + 2);
    assert_eq!(ScoreError::NotAWin.code(), "not_a_win");
}

/// `Score::fans` reads the counts eight at a time: on random counts (few fan or many, counts up
/// to 255, the flowers in the last, short group) it lists what a walk of all 81 lists, in order.
#[test]
fn the_fan_of_a_score_are_every_count_not_zero_in_table_order() {
    let mut s = crate::Seed::from_text("mcr score fans").stream("counts");
    for i in 0..5_000 {
        let mut counts = [0u8; 81];
        for _ in 0..(i % 12) {
            counts[s.below(81) as usize] = [1, 2, 3, 127, 128, 255][s.below(6) as usize];
        }
        if i % 7 == 0 {
            counts[80] = 1 + s.below(8) as u8;
        }
        let sc = Score { counts, fan: 0 };
        let walked: Vec<(Fan, u8)> =
            Fan::ALL.into_iter().filter(|&f| counts[f as usize] > 0).map(|f| (f, counts[f as usize])).collect();
        assert_eq!(sc.fans().collect::<Vec<_>>(), walked, "{counts:?}");
    }
}
