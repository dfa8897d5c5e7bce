//! Issue 12 ("Trust"), items 5 to 7, as reproduced on the main branch before it: each test fails
//! there and passes now. Imported logs checked against the source they embed, limits on imported
//! files, type-strict importers, and certificates that name what was judged. Real games are read
//! in place from ../shared/real-logs/tenhou.

use crate::util::{paifu, stderr, stdout};
use paifu_core::log::{self, Encoding};
use paifu_core::riichi::Action;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const GAME: &str = "2010081709gm-00a9-0000-fe3371ad.json";

fn real_path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou").join(file)
}

fn real(file: &str) -> String {
    std::fs::read_to_string(real_path(file)).unwrap()
}

/// `paifu CMD...` in `dir`: the exit status and everything it printed.
fn run(args: &[&str], dir: &Path) -> (i32, String) {
    let o = paifu(args, dir);
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!all.contains("panicked"), "{all}");
    (o.status.code().unwrap_or(-1), all)
}

/// Imports `text` (written as `name`) with `paifu import FORMAT` into `dir/out`.
fn import(dir: &Path, format: &str, name: &str, text: &[u8]) -> (i32, String) {
    std::fs::write(dir.join(name), text).unwrap();
    run(&["import", format, name, "-o", "out"], dir)
}

/// The JSON Lines of an imported log, as values.
fn lines_of(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn write_lines(path: &Path, lines: &[Value]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text).unwrap();
}

/// A real game imported with `paifu import` in a fresh folder: the folder and the log's path.
fn imported() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let (code, said) = import(t.path(), "tenhou", "game.json", real(GAME).as_bytes());
    assert_eq!(code, 0, "{said}");
    let log = t.path().join("out/game.paifu.jsonl");
    (t, log)
}

/// `paifu validate --json` on a log: its exit status and its one JSON line.
fn validate(dir: &Path, log: &Path) -> (i32, Value) {
    let (code, said) = run(&["validate", "--json", log.to_str().unwrap()], dir);
    (code, serde_json::from_str(said.lines().next().unwrap_or("null")).unwrap_or(Value::Null))
}

// ---- Item 5: limits. ----

/// A 76 MB file (the size the issue imported with 2.28 GB of memory) is refused by its size,
/// before it is read; the limit can be lowered with --max-bytes.
#[test]
fn a_source_past_the_size_limit_is_refused_before_it_is_read() {
    let t = tempfile::tempdir().unwrap();
    let f = std::fs::File::create(t.path().join("huge.json")).unwrap();
    f.set_len(76 << 20).unwrap();
    let (code, said) = run(&["import", "tenhou", "huge.json", "-o", "out"], t.path());
    assert_eq!(code, 2, "{said}");
    assert!(said.contains("huge.json: the file is 79691776 bytes or more"), "{said}");
    assert!(said.contains("at most 524288 bytes"), "{said}");
    // A real game (about 10 KB) under a lower limit.
    std::fs::write(t.path().join("game.json"), real(GAME)).unwrap();
    let (code, said) = run(&["import", "tenhou", "game.json", "-o", "out", "--max-bytes", "4096"], t.path());
    assert_eq!(code, 2, "{said}");
    assert!(said.contains("at most 4096 bytes (") || said.contains("at most 4096 bytes"), "{said}");
    assert!(!t.path().join("out/game.paifu.jsonl").exists());
    // The limit cannot be raised past what a log can embed.
    let (code, said) = run(&["import", "tenhou", "game.json", "-o", "out", "--max-bytes", "600000"], t.path());
    assert_eq!(code, 2, "{said}");
    assert!(said.contains("--max-bytes"), "{said}");
}

// ---- Item 6: imported records checked against their source. ----

/// The log holds its source, and its `source.digest` must be the source's blake3.
#[test]
fn the_source_digest_must_match_the_source_the_log_embeds() {
    let (t, log) = imported();
    let mut lines = lines_of(&log);
    assert_eq!(lines[0]["meta"]["source"].as_str(), Some(real(GAME).as_str()), "the log embeds its source");
    assert_eq!(validate(t.path(), &log).0, 0);
    lines[0]["source"]["digest"] = json!("11".repeat(32));
    let bad = t.path().join("digest.paifu.jsonl");
    write_lines(&bad, &lines);
    let (code, v) = validate(t.path(), &bad);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "source_digest_mismatch", "{v}");
    // The source edited instead (a player renamed in it): its digest no longer matches either.
    let mut lines = lines_of(&log);
    let src = lines[0]["meta"]["source"].as_str().unwrap().replacen("\"A\"", "\"Z\"", 1);
    lines[0]["meta"]["source"] = json!(src);
    write_lines(&bad, &lines);
    assert_eq!(validate(t.path(), &bad).1["error"]["code"], "source_digest_mismatch");
}

/// Every way into a log checks out against the source it embeds: tenhou.net/6, mjai, mjlog, and
/// an mjai export of an imported log (whose log is the one exported, with the first source).
#[test]
fn logs_imported_from_every_format_validate_against_their_source() {
    let t = tempfile::tempdir().unwrap();
    let text = real(GAME);
    let imp = paifu_recorder::import::tenhou6::import(&text, text.as_bytes()).unwrap();
    let export = paifu_recorder::import::mjai::export(&imp.log).unwrap();
    let files: [(&str, &str, String); 4] = [
        ("tenhou", "t6.json", text.clone()),
        ("mjai", "plain.mjson", mjai_text(&plain_mjai())),
        ("mjai", "export.mjson", export),
        ("tenhou", "ml.xml", super::mjlog::mjlog_of(&imp)),
    ];
    for (format, name, body) in files {
        let (code, said) = import(t.path(), format, name, body.as_bytes());
        assert_eq!(code, 0, "{name}: {said}");
        let stem = name.split('.').next().unwrap();
        let log = t.path().join(format!("out/{stem}.paifu.jsonl"));
        let lines = lines_of(&log);
        assert!(lines[0]["meta"]["source"].is_string(), "{name}");
        let (code, v) = validate(t.path(), &log);
        assert_eq!(code, 0, "{name}: {v}");
        // The first imported file is the source of the log from the export.
        let want = if name == "export.mjson" { text.as_str() } else { body.as_str() };
        assert_eq!(lines[0]["meta"]["source"].as_str(), Some(want), "{name}");
    }
}

/// An edited dora indicator, with the claims that would give it away removed, validated with
/// other final scores: it is now refused at the record, with the source's position.
#[test]
fn an_edited_dora_record_is_refused_at_the_record() {
    let (t, log) = imported();
    let mut lines = lines_of(&log);
    let i = lines.iter().position(|l| l["action"].as_str().is_some_and(|a| a.starts_with("dora "))).unwrap();
    let was = lines[i]["action"].as_str().unwrap().to_owned();
    lines[i]["action"] = json!(if was == "dora 9s" { "dora 8s" } else { "dora 9s" });
    for l in lines.iter_mut().skip(1) {
        l.as_object_mut().unwrap().remove("claim");
    }
    let bad = t.path().join("dora.paifu.jsonl");
    write_lines(&bad, &lines);
    let (code, v) = validate(t.path(), &bad);
    assert_eq!(code, 1, "{v}");
    let e = &v["error"];
    assert_eq!((e["code"].as_str(), e["index"].as_u64()), (Some("source_mismatch"), Some(i as u64 - 1)), "{v}");
    assert_eq!(e["round"], 1, "{v}");
    let m = e["message"].as_str().unwrap();
    assert!(m.contains(&format!("its embedded source gives seat 0 {was} (log[0][2][0])")), "{m}");
}

/// The archive judges an imported log as `paifu validate` does: an edited dora record is stored
/// as invalid, at the record, and does not count for its game (`paifu ingest` and the server's
/// uploads both store through `prepare`).
#[test]
fn the_archive_judges_an_imported_log_against_its_source() {
    let (t, log) = imported();
    let mut a = paifu_recorder::archive::Archive::open(&t.path().join("a.db")).unwrap();
    let genuine = a.ingest_bytes(&std::fs::read(&log).unwrap(), None, None).unwrap();
    assert!(genuine.valid && genuine.counted, "{:?}", genuine.fault);
    let mut lines = lines_of(&log);
    let i = lines.iter().position(|l| l["action"].as_str().is_some_and(|a| a.starts_with("dora "))).unwrap();
    let was = lines[i]["action"].as_str().unwrap().to_owned();
    lines[i]["action"] = json!(if was == "dora 9s" { "dora 8s" } else { "dora 9s" });
    for l in lines.iter_mut().skip(1) {
        l.as_object_mut().unwrap().remove("claim");
    }
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let edited = a.ingest_bytes(text.as_bytes(), None, None).unwrap();
    let f = edited.fault.as_ref().expect("the edited log is invalid");
    assert!(!edited.valid && !edited.counted);
    assert_eq!((f.code.as_str(), f.index), ("source_mismatch", Some(i - 1)), "{}", f.describe());
}

/// Any other difference from the source is refused at its record too: a draw, a claim, a
/// record left out at the end; and the header.
#[test]
fn every_record_claim_and_header_field_is_checked_against_the_source() {
    let (t, log) = imported();
    let good = lines_of(&log);
    let draw = good.iter().position(|l| l["action"].as_str().is_some_and(|a| a.starts_with("draw "))).unwrap();
    let claim = good.iter().position(|l| l.get("claim").is_some()).unwrap();
    let records = good.len() - 1;
    type Edit = Box<dyn Fn(&mut Vec<Value>)>;
    let cases: Vec<(&str, Edit, &str, Option<usize>)> = vec![
        ("a draw", Box::new(move |l| l[draw]["action"] = json!("draw 1z")), "source_mismatch", Some(draw - 1)),
        // A claim left out: nothing for the core validator to compare, but the source has it.
        (
            "a claim",
            Box::new(move |l| {
                l[claim].as_object_mut().unwrap().remove("claim");
            }),
            "source_mismatch",
            Some(claim - 1),
        ),
        // A claim changed: at the same record the core validator's claim_mismatch is reported.
        (
            "a claimed score",
            Box::new(move |l| l[claim]["claim"]["round"][0] = json!(123)),
            "claim_mismatch",
            Some(claim - 1),
        ),
        // The last record left out: the core validator's truncated, at the record that is missing.
        ("the last record", Box::new(|l| drop(l.pop())), "truncated", Some(records - 1)),
        ("the seats", Box::new(|l| l[0]["seats"][2] = json!("Mallory")), "source_mismatch", None),
        ("the source id", Box::new(|l| l[0]["source"]["id"] = json!("other")), "source_mismatch", None),
    ];
    for (what, edit, code, index) in cases {
        let mut lines = good.clone();
        edit(&mut lines);
        let bad = t.path().join("edited.paifu.jsonl");
        write_lines(&bad, &lines);
        let (status, v) = validate(t.path(), &bad);
        assert_eq!(status, 1, "{what}: {v}");
        assert_eq!(v["error"]["code"], code, "{what}: {v}");
        assert_eq!(v["error"]["index"].as_u64(), index.map(|i| i as u64), "{what}: {v}");
    }
    // The header's source can be checked without the records.
    let mut lines = good.clone();
    lines[0]["seats"][2] = json!("Mallory");
    let bad = t.path().join("edited.paifu.jsonl");
    write_lines(&bad, &lines);
    let m = validate(t.path(), &bad).1["error"]["message"].as_str().unwrap().to_owned();
    assert!(m.contains("the header's seats is [\"A\",\"B\",\"Mallory\",\"D\"], but its embedded source gives"), "{m}");
}

/// A made-up seed commitment on an imported log is refused with its own code.
#[test]
fn a_commitment_on_an_imported_log_is_refused() {
    let (t, log) = imported();
    let mut lines = lines_of(&log);
    lines[0]["commitment"] = json!("ab".repeat(32));
    let bad = t.path().join("committed.paifu.jsonl");
    write_lines(&bad, &lines);
    let (code, v) = validate(t.path(), &bad);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "imported_commitment", "{v}");
}

/// Where the source's own scoring differs from Paifu's (here a han), `paifu import` says so and
/// exits 1; `paifu validate` of the log it wrote says so too, at the record that ends the hand.
#[test]
fn the_sources_own_scoring_is_checked_by_the_validator_too() {
    let t = tempfile::tempdir().unwrap();
    let mut v: Value = serde_json::from_str(&real(GAME)).unwrap();
    let text = v["log"][0][16][2][3].as_str().unwrap().to_owned();
    assert_eq!(text, "30符4飜7700点");
    v["log"][0][16][2][3] = json!("30符5飜7700点");
    let (code, said) = import(t.path(), "tenhou", "han.json", v.to_string().as_bytes());
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("log[0][16][2]: claim_mismatch: han claimed 5, computed 4"), "{said}");
    let log = t.path().join("out/han.paifu.jsonl");
    let (code, v) = validate(t.path(), &log);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "claim_mismatch", "{v}");
    let m = v["error"]["message"].as_str().unwrap();
    assert!(m.contains("round East 1, 0 honba, log[0][16][2]: han claimed 5, computed 4"), "{m}");
    // The record that ends East 1: the first with a round claim.
    let lines = lines_of(&log);
    let end = lines.iter().position(|l| l.get("claim").is_some()).unwrap();
    assert_eq!(v["error"]["index"].as_u64(), Some(end as u64 - 1), "{v}");
}

/// Certificates name the game, the ruleset, the options' digest, the source and the Paifu
/// version; one made of an edited imported log says it is invalid, and still verifies as such.
#[test]
fn certificates_name_the_rules_the_source_and_the_paifu_version() {
    let (t, log) = imported();
    let p = t.path();
    assert_eq!(run(&["keygen", "-o", "k"], p).0, 0);
    let (code, said) = run(&["sign", log.to_str().unwrap(), "--key", "k.key", "-o", "c.json"], p);
    assert_eq!(code, 0, "{said}");
    let c: Value = serde_json::from_str(&std::fs::read_to_string(p.join("c.json")).unwrap()).unwrap();
    let body = &c["certificate"];
    assert_eq!(body["version"], 2);
    assert_eq!(body["game"], "riichi");
    assert_eq!(body["ruleset"], "standard");
    let no_options = paifu_core::cert::options_digest(&Default::default()).to_hex();
    assert_eq!(body["options_digest"].as_str(), Some(no_options.as_str()));
    let digest = paifu_recorder::import::to_log::source_digest(real(GAME).as_bytes()).to_hex();
    assert_eq!(body["source"], json!({"format": "tenhou6", "digest": digest}));
    assert_eq!(body["paifu_version"], env!("CARGO_PKG_VERSION"));
    let (code, said) = run(&["verify", "c.json", log.to_str().unwrap(), "--key", "k.pub"], p);
    assert_eq!(code, 0, "{said}");
    // The dora edit of the test above, signed: an invalid verdict at the record, which verifies.
    let mut lines = lines_of(&log);
    let i = lines.iter().position(|l| l["action"].as_str().is_some_and(|a| a.starts_with("dora "))).unwrap();
    lines[i]["action"] = json!("dora 9s");
    let bad = p.join("bad.paifu.jsonl");
    write_lines(&bad, &lines);
    assert_eq!(run(&["sign", "bad.paifu.jsonl", "--key", "k.key", "-o", "b.json"], p).0, 0);
    let b: Value = serde_json::from_str(&std::fs::read_to_string(p.join("b.json")).unwrap()).unwrap();
    assert_eq!(b["certificate"]["fault"]["code"], "source_mismatch");
    assert_eq!(run(&["verify", "b.json", "bad.paifu.jsonl", "--key", "k.pub"], p).0, 0);
    // The valid certificate does not hold for the edited log.
    let (code, said) = run(&["verify", "c.json", "bad.paifu.jsonl", "--key", "k.pub"], p);
    assert_eq!(code, 1, "{said}");
}

/// Certificates of version 1, made by Paifu before version 2 (kept in fixtures/certificates),
/// still verify against their logs, and still refuse another log.
#[test]
fn certificates_made_before_still_verify() {
    let dir = crate::util::fixtures_dir().join("certificates");
    for log in ["tzq.paifu.jsonl", "imported.paifu.jsonl"] {
        let cert = format!("{log}.cert.json");
        let text = std::fs::read_to_string(dir.join(&cert)).unwrap();
        assert!(text.contains("\"version\": 1") && !text.contains("ruleset"), "{cert} is a version 1 certificate");
        let (code, said) = run(&["verify", &cert, log, "--key", "referee.pub"], &dir);
        assert_eq!(code, 0, "{log}: {said}");
        assert!(said.contains("certificate OK"), "{said}");
    }
    let (code, said) =
        run(&["verify", "tzq.paifu.jsonl.cert.json", "imported.paifu.jsonl", "--key", "referee.pub"], &dir);
    assert_eq!(code, 1, "{said}");
}

// ---- Item 7: type-strict importers. ----

/// The big-three-dragons game of import_corners.rs (seat 3 fed the third dragon and pays all)
/// with `pao` naming another seat, or nobody: the liable seat is checked.
#[test]
fn tenhou_pao_is_checked_against_the_liable_seat_paifu_computes() {
    let game = |pao: u8| {
        let mut v: Value = serde_json::from_str(&super::corners::pao_game([0, 32000, 0, -32000], 3)).unwrap();
        v["log"][0][16][2][2] = json!(pao);
        v.to_string()
    };
    let t = tempfile::tempdir().unwrap();
    assert_eq!(import(t.path(), "tenhou", "pao3.json", game(3).as_bytes()).0, 0);
    for (pao, says) in [(2, "the source makes seat 2 liable"), (1, "the source makes no seat liable")] {
        let (code, said) = import(t.path(), "tenhou", "pao.json", game(pao).as_bytes());
        assert_eq!(code, 1, "{said}");
        assert!(said.contains(&format!("{says} (pao), Paifu's rules make seat 3 liable")), "{said}");
        assert!(said.contains("log[0][16][2][2]") || pao == 1, "{said}");
    }
    // The export writes the liable seat, so it comes back.
    let log = t.path().join("out/pao3.paifu.jsonl");
    let (code, said) = run(&["export", "tenhou", log.to_str().unwrap(), "-o", "back.json"], t.path());
    assert_eq!(code, 0, "{said}");
    let back: Value = serde_json::from_str(&std::fs::read_to_string(t.path().join("back.json")).unwrap()).unwrap();
    assert_eq!(back["log"][0][16][2][2], 3);
}

/// `sc`: the final points are claims on the last record; the results after uma and oka (the odd
/// entries) are checked too, as Tenhou rounds them or exactly.
#[test]
fn tenhou_sc_results_after_uma_are_checked() {
    let t = tempfile::tempdir().unwrap();
    let mut v: Value = serde_json::from_str(&real(GAME)).unwrap();
    assert_eq!(v["sc"], json!([20100, -20.0, 35800, 16.0, 5200, -45.0, 38900, 49.0]));
    v["sc"][7] = json!(59.0);
    let (code, said) = import(t.path(), "tenhou", "uma.json", v.to_string().as_bytes());
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains("sc: claim_mismatch: final results after uma and oka claimed [-20.0, 16.0, -45.0, 59.0]"),
        "{said}"
    );
    assert!(said.contains("(as Tenhou rounds them: [-20, 16, -45, 49])"), "{said}");
    // Exact results are accepted as well.
    v["sc"] = json!([20100, -19.9, 35800, 15.8, 5200, -44.8, 38900, 48.9]);
    assert_eq!(import(t.path(), "tenhou", "exact.json", v.to_string().as_bytes()).0, 0);
    // A result that is not a number is a located error.
    v["sc"][3] = json!("16");
    let (code, said) = import(t.path(), "tenhou", "text.json", v.to_string().as_bytes());
    assert_eq!(code, 2, "{said}");
    assert!(said.contains("sc[3]: expected a number, found \"16\""), "{said}");
}

/// An mjai log without an embedded Paifu log (as other writers make them), from a real game.
fn plain_mjai() -> Vec<Value> {
    let text = real(GAME);
    let imp = paifu_recorder::import::tenhou6::import(&text, text.as_bytes()).unwrap();
    let out = paifu_recorder::import::mjai::export(&imp.log).unwrap();
    let mut lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    lines[0].as_object_mut().unwrap().remove("paifu");
    lines
}

fn mjai_text(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn mjai_tsumogiri_must_be_true_or_false() {
    let t = tempfile::tempdir().unwrap();
    let mut lines = plain_mjai();
    assert_eq!(import(t.path(), "mjai", "ok.mjson", mjai_text(&lines).as_bytes()).0, 0);
    let i = lines.iter().position(|l| l["type"] == "dahai" && l["tsumogiri"] == false).unwrap();
    lines[i]["tsumogiri"] = json!("yes");
    let (code, said) = import(t.path(), "mjai", "yes.mjson", mjai_text(&lines).as_bytes());
    assert_eq!(code, 2, "{said}");
    assert!(said.contains(&format!("line {}: dahai: \"tsumogiri\" is not true or false: \"yes\"", i + 1)), "{said}");
    assert!(said.contains("round East 1, 0 honba"), "{said}");
    lines[i].as_object_mut().unwrap().remove("tsumogiri");
    let (code, said) = import(t.path(), "mjai", "none.mjson", mjai_text(&lines).as_bytes());
    assert_eq!(code, 2, "{said}");
    assert!(said.contains("missing field \"tsumogiri\""), "{said}");
}

#[test]
fn mjai_a_player_name_given_as_a_number_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let mut lines = plain_mjai();
    lines[0]["names"][1] = json!(7);
    let (code, said) = import(t.path(), "mjai", "names.mjson", mjai_text(&lines).as_bytes());
    assert_eq!(code, 2, "{said}");
    assert!(said.contains("line 1: start_game: names[1] is not a name (a string): 7"), "{said}");
    lines[0]["names"] = json!(["A", "B", "C"]);
    let (code, said) = import(t.path(), "mjai", "three.mjson", mjai_text(&lines).as_bytes());
    assert_eq!(code, 2, "{said}");
    assert!(said.contains("\"names\" has 3 names"), "{said}");
}

/// A missing required field or one of the wrong type is an error naming the file, the round
/// where there is one, and the field, never a default.
#[test]
fn missing_and_mistyped_fields_are_located_errors_not_defaults() {
    let t = tempfile::tempdir().unwrap();
    let base: Value = serde_json::from_str(&real(GAME)).unwrap();
    type Edit = fn(&mut Value);
    let tenhou: [(Edit, &str); 7] = [
        // Absent, these fields are accepted and said absent (import_shared.rs); present, they
        // are checked.
        (|v| v["name"] = json!(["a", "b"]), "name: expected the 4 players' names, found 2"),
        (|v| v["name"][2] = json!(null), "name[2]: expected a string, found null"),
        (|v| v["sc"] = json!("x"), "sc: expected an array, found \"x\""),
        (|v| v["rule"]["aka"] = json!("1"), "rule.aka: expected an integer, found \"1\""),
        (|v| v["ref"] = json!(5), "ref: expected a string, found 5"),
        (
            |v| v["log"][1][1][2] = json!(16300.0),
            "round East 2, 0 honba, log[1][1][2]: expected an integer, found 16300.0",
        ),
        (
            |v| v["log"][0][16][2][3] = json!("much"),
            "round East 1, 0 honba, log[0][16][2][3]: cannot read the score text",
        ),
    ];
    for (edit, says) in tenhou {
        let mut v = base.clone();
        edit(&mut v);
        let (code, said) = import(t.path(), "tenhou", "field.json", v.to_string().as_bytes());
        assert_eq!(code, 2, "{says}: {said}");
        assert!(said.contains("field.json: "), "{said}");
        assert!(said.contains(says), "{says} not in {said}");
    }
    // mjai: a hora's fu as text, a ryukyoku without its score changes.
    let lines = plain_mjai();
    let mut m = lines.clone();
    let h = m.iter().position(|l| l["type"] == "hora").unwrap();
    m[h]["fu"] = json!("30");
    let (code, said) = import(t.path(), "mjai", "fu.mjson", mjai_text(&m).as_bytes());
    assert_eq!(code, 2, "{said}");
    assert!(said.contains(&format!("line {}: hora: \"fu\" is not a non-negative integer: \"30\"", h + 1)), "{said}");
    // (Issue 26: a ryukyoku without its score changes is no longer refused for the missing
    // field: the next hand's scores state them, and a wrong one is a claim mismatch.)
    let mut m = lines.clone();
    let r = m.iter().position(|l| l["type"] == "ryukyoku").unwrap();
    m[r].as_object_mut().unwrap().remove("deltas");
    let (code, said) = import(t.path(), "mjai", "draw.mjson", mjai_text(&m).as_bytes());
    assert_eq!(code, 0, "{said}");
    for l in m.iter_mut().filter(|l| l["type"] == "reach_accepted") {
        l.as_object_mut().unwrap().remove("scores");
    }
    let next = (r..m.len()).find(|&i| m[i]["type"] == "start_kyoku").unwrap();
    let sc = m[next]["scores"].as_array_mut().unwrap();
    sc[0] = json!(sc[0].as_i64().unwrap() + 1000);
    sc[1] = json!(sc[1].as_i64().unwrap() - 1000);
    let (code, said) = import(t.path(), "mjai", "draw2.mjson", mjai_text(&m).as_bytes());
    assert_ne!(code, 0, "{said}");
    assert!(said.contains("claim_mismatch: round 2 score changes claimed [-500, -500, 1500, -1500]"), "{said}");
    // mjlog: a win without its ten= (fu, points, limit), a record without names.
    let imp = paifu_recorder::import::tenhou6::import(&real(GAME), real(GAME).as_bytes()).unwrap();
    let xml = super::mjlog::mjlog_of(&imp);
    assert_eq!(import(t.path(), "tenhou", "ok.xml", xml.as_bytes()).0, 0);
    let no_ten = regex_lite_free_remove(&xml, "<AGARI", " ten=\"");
    let (code, said) = import(t.path(), "tenhou", "ten.xml", no_ten.as_bytes());
    assert_eq!(code, 2, "{said}");
    assert!(said.contains("missing attribute ten"), "{said}");
    let start = xml.find("<UN ").unwrap();
    let end = start + xml[start..].find("/>").unwrap() + 2;
    let no_names = format!("{}{}", &xml[..start], &xml[end..]);
    let (code, said) = import(t.path(), "tenhou", "un.xml", no_names.as_bytes());
    assert_eq!(code, 2, "{said}");
    assert!(said.contains("no <UN"), "{said}");
}

/// `xml` with the first attribute `attr` (such as ` ten="`) of the first `tag` removed.
fn regex_lite_free_remove(xml: &str, tag: &str, attr: &str) -> String {
    let t = xml.find(tag).unwrap();
    let a = t + xml[t..].find(attr).unwrap();
    let close = a + attr.len() + xml[a + attr.len()..].find('"').unwrap() + 1;
    format!("{}{}", &xml[..a], &xml[close..])
}

/// The validator's source check never panics: byte mutations of an imported log's embedded
/// source, each validated.
#[test]
fn mutated_embedded_sources_never_panic_the_validator() {
    let text = real(GAME);
    let imp = paifu_recorder::import::tenhou6::import(&text, text.as_bytes()).unwrap();
    let mut seed = 12u64;
    for k in 0..60 {
        let mut src = text.clone().into_bytes();
        for _ in 0..1 + k % 3 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let i = (seed >> 33) as usize % src.len();
            if src[i].is_ascii_digit() {
                src[i] = b'0' + ((seed >> 20) % 10) as u8;
            }
        }
        let Ok(src) = String::from_utf8(src) else { continue };
        let mut log: log::Log<Action> = imp.log.clone();
        // The digest follows the edit, so that the records are what is compared.
        log.header.source.as_mut().unwrap().digest = paifu_recorder::import::to_log::source_digest(src.as_bytes());
        log.header.meta.insert("source".into(), src);
        let r = paifu_recorder::import::source::validate_bytes(&log::encode(&log, Encoding::JsonLines));
        if let Some(f) = r.verdict.fault() {
            assert!(!f.message.is_empty());
        }
    }
}
