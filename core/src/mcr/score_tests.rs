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
        let want = lines.get(i + 1).and_then(|n| n.strip_prefix("    => ")).unwrap_or_else(|| panic!("line {}: no => line", i + 2));
        let (total, list) = want.split_once(": ").unwrap();
        let (got_total, got) = fans(&input);
        assert_eq!((got_total.to_string(), got.join(", ")), (total.to_string(), list.to_string()), "docs line {}: {input}", i + 1);
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
