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
