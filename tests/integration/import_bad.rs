//! Bad input through `paifu import`: each is exit status 2 and a message naming the round and
//! the position in the source, never a panic. Real games are read in place from ../shared.

use crate::util::{paifu, stderr, stdout};
use std::path::PathBuf;

fn real(file: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou").join(file);
    std::fs::read_to_string(p).unwrap()
}

const GAME: &str = "2010081709gm-00a9-0000-fe3371ad.json";

/// Writes `text` as `name` in a fresh folder and runs `paifu import FORMAT name -o out`.
fn import_bad(format: &str, name: &str, text: &[u8]) -> (i32, String) {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join(name), text).unwrap();
    let o = paifu(&["import", format, name, "-o", "out"], t.path());
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    (o.status.code().unwrap_or(-1), format!("{}{err}", stdout(&o)))
}

fn expect(format: &str, name: &str, text: &[u8], needles: &[&str]) {
    let (code, msg) = import_bad(format, name, text);
    assert_eq!(code, 2, "{msg}");
    for n in needles {
        assert!(msg.contains(n), "{n:?} not in {msg}");
    }
}

#[test]
fn a_truncated_tenhou_file_names_the_round_it_stops_in() {
    let text = real(GAME);
    // Cut inside the fourth round (East 2, 2 honba).
    let log = text.find("\"log\"").unwrap();
    let starts: Vec<usize> = text[log..].match_indices("[[").map(|(i, _)| log + i).collect();
    let cut = starts[3] + 60;
    let name = "East 2, 2 honba";
    expect(
        "tenhou",
        "cut.json",
        &text.as_bytes()[..cut],
        &["cut short", &format!("round {name}"), "log[3], line 1, column"],
    );
}

#[test]
fn an_unknown_tile_code_names_the_round_and_json_path() {
    let mut v: serde_json::Value = serde_json::from_str(&real(GAME)).unwrap();
    v["log"][3][8][2] = serde_json::json!(58);
    expect(
        "tenhou",
        "tile.json",
        v.to_string().as_bytes(),
        &["round East 2, 2 honba", "log[3][8][2]", "58 is not a Tenhou tile code"],
    );
}

#[test]
fn an_unreadable_call_string_names_the_round_and_json_path() {
    let mut v: serde_json::Value = serde_json::from_str(&real(GAME)).unwrap();
    let takes = v["log"][3][8].as_array_mut().unwrap();
    let i = takes.iter().position(|t| t.as_str() == Some("c343233")).unwrap();
    takes[i] = serde_json::json!("c34x233");
    expect(
        "tenhou",
        "call.json",
        v.to_string().as_bytes(),
        &["round East 2, 2 honba", &format!("log[3][8][{i}]"), "c34x233"],
    );
    // A call string with a letter in a place no call has.
    takes_mut(&mut v, 3, 8)[i] = serde_json::json!("3432c33");
    expect("tenhou", "call.json", v.to_string().as_bytes(), &["round East 2, 2 honba", &format!("log[3][8][{i}]")]);
}

fn takes_mut(v: &mut serde_json::Value, r: usize, k: usize) -> &mut Vec<serde_json::Value> {
    v["log"][r][k].as_array_mut().unwrap()
}

#[test]
fn three_player_tenhou_games_are_refused() {
    // Tenhou's three-player records: 三 in the rule name, and a fourth seat without tiles.
    let mut v: serde_json::Value = serde_json::from_str(&real(GAME)).unwrap();
    v["rule"]["disp"] = serde_json::json!("三鳳南喰赤");
    expect("tenhou", "sanma.json", v.to_string().as_bytes(), &["three-player", "rule"]);
    let mut v: serde_json::Value = serde_json::from_str(&real(GAME)).unwrap();
    v["rule"]["disp"] = serde_json::json!("");
    for r in v["log"].as_array_mut().unwrap() {
        for k in 13..16 {
            r[k] = serde_json::json!([]);
        }
    }
    expect("tenhou", "sanma.json", v.to_string().as_bytes(), &["three-player", "round East 1, 0 honba", "log[0]"]);
}

#[test]
fn not_json_at_all_and_an_empty_file() {
    expect("tenhou", "x.json", b"\x00\x01garbage", &["not valid JSON", "line 1"]);
    expect("tenhou", "x.json", b"", &["cut short"]);
    // Well-formed JSON with no "log" anywhere is skipped, not refused (import_folder.rs).
    expect("tenhou", "x.json", br#"[{"log": 1}]"#, &["JSON object"]);
}

/// A small deterministic generator (no dependency).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Mutates bytes of a source: digits to other digits (the structure stays JSON, so the
/// importer's deeper checks are reached) and, less often, any byte to any byte.
fn mutate(src: &[u8], rng: &mut Lcg, n: usize) -> Vec<u8> {
    let mut b = src.to_vec();
    for _ in 0..n {
        let i = rng.next(b.len());
        if b[i].is_ascii_digit() && rng.next(4) != 0 {
            b[i] = b'0' + rng.next(10) as u8;
        } else {
            b[i] = rng.next(256) as u8;
        }
    }
    b
}

/// Runs the whole import (parse, convert, validate, and the log validated against the source it
/// embeds) on bytes; any panic fails the test.
pub(super) fn import_any(format: &str, bytes: &[u8]) {
    use paifu_core::log::{encode, Encoding, Positions};
    use paifu_core::replay::validate_log;
    use paifu_core::riichi::Riichi;
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    if let Ok(imp) = paifu_recorder::import::import_text(format, text, bytes) {
        let _ = validate_log::<Riichi>(&imp.log, &Positions::default());
        let _ = paifu_recorder::import::source::validate_bytes(&encode(&imp.log, Encoding::JsonLines));
    }
}

#[test]
fn byte_mutations_of_a_real_game_never_panic_the_importer() {
    let src = real(GAME);
    let mut rng = Lcg(4);
    for k in 0..400 {
        let m = mutate(src.as_bytes(), &mut rng, 1 + k % 4);
        let r = std::panic::catch_unwind(|| import_any("tenhou", &m));
        if r.is_err() {
            let p = std::env::temp_dir().join("paifu-import-fuzz-case.json");
            std::fs::write(&p, &m).unwrap();
            panic!("mutation {k} panics the importer; the input is in {}", p.display());
        }
    }
}
