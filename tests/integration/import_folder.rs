//! A folder of downloads through `paifu import` (issue 15): every record imported, the rest
//! skipped with a reason, a summary by reason, exit 0 only when nothing was refused. The real
//! games are read in place from ../shared/real-logs.

use crate::util::{paifu, stderr, stdout};
use std::path::{Path, PathBuf};

fn real_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou")
}

fn run(args: &[&str], dir: &Path) -> (i32, String, String) {
    let o = paifu(args, dir);
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(!err.contains("panicked"), "{err}");
    for text in [&out, &err] {
        assert!(!text.contains(": :") && !text.contains(":  "), "an empty field in {text}");
    }
    (o.status.code().unwrap_or(-1), out, err)
}

#[test]
fn the_real_folder_imports_every_game_and_skips_the_manifest() {
    let t = tempfile::tempdir().unwrap();
    let dir = real_dir();
    let (code, out, err) = run(&["import", "tenhou", dir.to_str().unwrap(), "-o", "out", "-q"], t.path());
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("manifest.json: skipped: JSON without \"log\", not a tenhou.net/6 record"), "{out}");
    assert!(out.contains("32 files: 31 imported, 1 skipped, 0 refused"), "{out}");
    assert!(out.contains("  skipped, JSON without \"log\", not a tenhou.net/6 record: 1"), "{out}");
    assert_eq!(std::fs::read_dir(t.path().join("out")).unwrap().count(), 31);
}

#[test]
fn bad_files_are_refused_by_reason_and_the_run_goes_on() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("downloads");
    std::fs::create_dir_all(d.join("sub")).unwrap();
    let game = std::fs::read_to_string(real_dir().join("2010081709gm-00a9-0000-fe3371ad.json")).unwrap();
    std::fs::write(d.join("good.json"), &game).unwrap();
    std::fs::write(d.join("cut.json"), &game[..game.len() / 2]).unwrap();
    std::fs::write(d.join("sub/README.txt"), "games from the club night").unwrap();
    std::fs::write(d.join("photo.jpg"), [0xff, 0xd8, 0xff, 0xe0, 0x00]).unwrap();
    std::fs::write(d.join("photo.json"), [0xff, 0xd8, 0xff, 0xe0, 0x00]).unwrap();
    std::fs::write(d.join("sub/list.json"), r#"{"games": ["good.json"]}"#).unwrap();
    std::fs::write(d.join(".hidden.json"), "not looked at").unwrap();
    let (code, out, err) = run(&["import", "tenhou", "downloads", "-o", "out"], t.path());
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.starts_with("paifu: ") && err.contains("cut.json: refused: "), "{err}");
    assert!(out.contains("good.json -> "), "{out}");
    assert!(out.contains("photo.jpg: skipped: not named .json, "), "{out}");
    assert!(out.contains("README.txt: skipped: not named .json, "), "{out}");
    assert!(out.contains("photo.json: skipped: not UTF-8 text"), "{out}");
    assert!(out.contains("list.json: skipped: JSON without"), "{out}");
    assert!(!out.contains("hidden"), "{out}");
    assert!(out.contains("6 files: 1 imported, 4 skipped, 1 refused"), "{out}");
    assert!(out.contains("  refused, not importable: 1"), "{out}");
    assert!(t.path().join("out/good.paifu.jsonl").exists());
    // A file named on the command line is read whatever its name; one that is not well-formed
    // is refused with the reader's error, not skipped.
    std::fs::write(t.path().join("notes.txt"), "games from the club night").unwrap();
    let (code, out, err) = run(&["import", "tenhou", "notes.txt", "-o", "out"], t.path());
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("notes.txt: refused: line 1, column 1: not valid JSON"), "{err}");
}

#[test]
fn an_invalid_game_is_refused_with_exit_1_and_a_clash_of_names_with_exit_2() {
    let t = tempfile::tempdir().unwrap();
    let game = std::fs::read_to_string(real_dir().join("2010081709gm-00a9-0000-fe3371ad.json")).unwrap();
    // The final scores claimed by `sc` changed: the game imports, and does not validate.
    let v: serde_json::Value = serde_json::from_str(&game).unwrap();
    let mut edited = v.clone();
    let sc = edited["sc"][0].as_i64().unwrap();
    edited["sc"][0] = serde_json::json!(sc + 100);
    std::fs::create_dir_all(t.path().join("a")).unwrap();
    std::fs::write(t.path().join("a/g.json"), serde_json::to_string(&edited).unwrap()).unwrap();
    let (code, out, err) = run(&["import", "tenhou", "a", "-o", "out"], t.path());
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("1 files: 0 imported, 0 skipped, 1 refused"), "{out}{err}");
    assert!(out.contains("  refused, invalid: 1") || out.contains("  refused, differs from its source: 1"), "{out}");
    // Two files that become the same log: the second is refused, not written over the first.
    std::fs::create_dir_all(t.path().join("b")).unwrap();
    std::fs::write(t.path().join("b/g.json"), &game).unwrap();
    std::fs::write(t.path().join("b/g.mjson"), &game).unwrap();
    let (code, out, err) = run(&["import", "tenhou", "b", "-o", "out2"], t.path());
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("g.mjson: refused: ") && err.contains("g.json also becomes"), "{err}");
    assert!(out.contains("  refused, same output name as another file: 1"), "{out}");
}

#[test]
fn one_thread_and_many_give_the_same_report_and_logs() {
    let dir = real_dir();
    let t = tempfile::tempdir().unwrap();
    let (c1, one, _) = run(&["import", "tenhou", dir.to_str().unwrap(), "-o", "o", "-j", "1"], t.path());
    let (c2, many, _) = run(&["import", "tenhou", dir.to_str().unwrap(), "-o", "o", "-j", "4"], t.path());
    assert_eq!((c1, c2), (0, 0));
    assert_eq!(one, many);
}
