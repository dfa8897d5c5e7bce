//! Tenhou's walls from Tenhou's seeds: a real seeded mjlog imports with its wall rebuilt and
//! checked, and says so when validated and signed; an edited deal is refused as `wall_mismatch`
//! (recorder/src/import/mjlog/wall.rs, docs/import.md).

use crate::util::{paifu, stderr, stdout};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A real Tenhou game with its `<SHUFFLE seed>` (fixtures/mjlog-seed/README.md says where from).
fn real_game() -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/mjlog-seed/2016022509gm-0009-0000-b327da61.xml");
    std::fs::read_to_string(p).unwrap()
}

/// `paifu import tenhou` of `text` (as `name`) in `dir`: the exit code and everything printed.
fn import(dir: &Path, name: &str, text: &str) -> (i32, String) {
    std::fs::write(dir.join(name), text).unwrap();
    let o = paifu(&["import", "tenhou", name, "-o", "out"], dir);
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    (o.status.code().unwrap_or(-1), format!("{}{}", stdout(&o), stderr(&o)))
}

/// `paifu validate --json` of a log: its object.
fn validate_json(dir: &Path, log: &str) -> Value {
    let o = paifu(&["validate", "--json", log], dir);
    serde_json::from_str(stdout(&o).trim()).unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&o), stderr(&o)))
}

/// Seat 3's draw of the red five of bamboo (tile 88), which it discards at once (`<W88/><G88/>`),
/// made a plain five of bamboo (tile 91, which stays in the dead wall unseen): the game is as legal
/// as before and every claimed score the same, but the seed does not deal it.
fn tampered(text: &str) -> String {
    assert!(text.contains("<W88/><G88/>"));
    text.replace("<W88/><G88/>", "<W91/><G91/>")
}

#[test]
fn a_real_seeded_game_imports_with_its_wall_checked_and_says_so_when_validated_and_signed() {
    let t = tempfile::tempdir().unwrap();
    let (code, out) = import(t.path(), "game.xml", &real_game());
    assert_eq!(code, 0, "{out}");
    let log = "out/game.paifu.jsonl";
    let v = validate_json(t.path(), log);
    assert_eq!((v["valid"].as_bool(), v["wall_checked"].as_bool()), (Some(true), Some(true)), "{v}");
    let o = paifu(&["validate", log], t.path());
    assert!(stdout(&o).contains("wall checked"), "{}", stdout(&o));
    // The certificate states it, signed.
    let o = paifu(&["keygen", "-o", "k"], t.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = paifu(&["sign", log, "--key", "k.key", "-o", "game.cert.json"], t.path());
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let cert: Value = serde_json::from_str(&std::fs::read_to_string(t.path().join("game.cert.json")).unwrap()).unwrap();
    assert_eq!(cert["certificate"]["wall_checked"], Value::Bool(true), "{cert}");
    let o = paifu(&["verify", "game.cert.json", log, "--key", "k.pub"], t.path());
    assert!(o.status.success() && stdout(&o).contains("certificate OK"), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn a_game_without_a_seed_is_imported_without_the_claim() {
    let t = tempfile::tempdir().unwrap();
    let text = real_game();
    let start = text.find("<SHUFFLE").unwrap();
    let end = start + text[start..].find("/>").unwrap() + 2;
    let unseeded = format!("{}{}", &text[..start], &text[end..]);
    let (code, out) = import(t.path(), "game.xml", &unseeded);
    assert_eq!(code, 0, "{out}");
    let v = validate_json(t.path(), "out/game.paifu.jsonl");
    assert_eq!((v["valid"].as_bool(), v["wall_checked"].as_bool()), (Some(true), Some(false)), "{v}");
    // And the same edit as below is then not seen: nothing says what the deal was.
    let (code, out) = import(t.path(), "edited.xml", &tampered(&unseeded));
    assert_eq!(code, 0, "{out}");
}

#[test]
fn an_edited_draw_is_refused_as_wall_mismatch_naming_the_round_and_the_tile() {
    let t = tempfile::tempdir().unwrap();
    let text = tampered(&real_game());
    let (code, out) = import(t.path(), "edited.xml", &text);
    assert_eq!(code, 1, "{out}");
    let at = text.find("<W91/>").unwrap();
    assert!(
        out.contains(&format!(
            "round East 1, 0 honba, <W91> at byte {at}: wall_mismatch: seat 3 draws 5s (tile 91), but"
        )) && out.contains("is 0s (tile 88) in the seed's wall"),
        "{out}"
    );
    assert!(out.contains("refused, invalid: 1"), "{out}");
    assert!(!t.path().join("out/edited.paifu.jsonl").exists());
    // An edited dora indicator, deal or die likewise.
    for (from, to, says) in [
        ("0,0,0,5,1,19\"", "0,0,0,5,1,18\"", "the dora indicator is"),
        ("hai1=\"80,", "hai1=\"91,", "seat 1's deal (hai1)"),
        ("0,0,0,5,1,19\"", "0,0,0,4,1,19\"", "the dice are 4 and 1"),
    ] {
        let (code, out) = import(t.path(), "edited.xml", &real_game().replacen(from, to, 1));
        assert_eq!(code, 1, "{from}: {out}");
        assert!(out.contains("wall_mismatch") && out.contains(says), "{from}: {out}");
    }
}

#[test]
fn a_log_whose_source_and_records_were_edited_alike_is_refused_by_validate_as_wall_mismatch() {
    // The attack: edit a draw in the embedded source and in the records alike, give the source its
    // new digest, and drop the header's claim that the wall was checked (as a log made before the
    // check would have none). Every record is what the edited source gives, so only the wall shows it.
    let t = tempfile::tempdir().unwrap();
    let (code, out) = import(t.path(), "game.xml", &real_game());
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(t.path().join("out/game.paifu.jsonl")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut header: Value = serde_json::from_str(&lines[0]).unwrap();
    let source = tampered(header["meta"]["source"].as_str().unwrap());
    header["source"]["digest"] = Value::from(blake3::hash(source.as_bytes()).to_hex().to_string());
    header["meta"]["source"] = Value::from(source);
    header["meta"].as_object_mut().unwrap().remove("wall");
    lines[0] = header.to_string();
    let edited: Vec<String> =
        lines.iter().map(|l| l.replace("draw 0s\"", "draw 5s\"").replace("tsumogiri 0s\"", "tsumogiri 5s\"")).collect();
    assert_eq!(edited.iter().zip(&lines).filter(|(a, b)| a != b).count(), 2, "the draw and its discard");
    std::fs::write(t.path().join("edited.paifu.jsonl"), edited.join("\n") + "\n").unwrap();
    let v = validate_json(t.path(), "edited.paifu.jsonl");
    assert_eq!(v["valid"], Value::Bool(false), "{v}");
    assert_eq!(v["error"]["code"], Value::from("wall_mismatch"), "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("seat 3 draws 5s (tile 91)"), "{v}");
    // Without the edit, a log that does not claim the check (made before it) is still valid; it
    // just does not say its wall was checked.
    lines[0] = {
        let mut h: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        h["meta"].as_object_mut().unwrap().remove("wall");
        h.to_string()
    };
    std::fs::write(t.path().join("older.paifu.jsonl"), lines.join("\n") + "\n").unwrap();
    let v = validate_json(t.path(), "older.paifu.jsonl");
    assert_eq!((v["valid"].as_bool(), v["wall_checked"].as_bool()), (Some(true), Some(false)), "{v}");
}

#[test]
fn a_claim_of_a_checked_wall_the_source_does_not_make_is_refused() {
    // A log of a game without a seed that says its wall was checked: its source, imported again,
    // gives no such claim.
    let t = tempfile::tempdir().unwrap();
    let text = real_game();
    let start = text.find("<SHUFFLE").unwrap();
    let end = start + text[start..].find("/>").unwrap() + 2;
    let (code, out) = import(t.path(), "game.xml", &format!("{}{}", &text[..start], &text[end..]));
    assert_eq!(code, 0, "{out}");
    let log = std::fs::read_to_string(t.path().join("out/game.paifu.jsonl")).unwrap();
    let (head, rest) = log.split_once('\n').unwrap();
    let mut h: Value = serde_json::from_str(head).unwrap();
    h["meta"]["wall"] = Value::from("mt19937ar-sha512-n288-base64");
    std::fs::write(t.path().join("claims.paifu.jsonl"), format!("{h}\n{rest}")).unwrap();
    let v = validate_json(t.path(), "claims.paifu.jsonl");
    assert_eq!((v["valid"].as_bool(), v["wall_checked"].as_bool()), (Some(false), Some(false)), "{v}");
    assert_eq!(v["error"]["code"], Value::from("source_mismatch"), "{v}");
}
