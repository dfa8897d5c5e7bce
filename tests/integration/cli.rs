//! The `paifu` command, run as a user would.

use crate::util::{paifu, paifu_with_input, stderr, stdout};
use std::fs;

#[test]
fn simulate_writes_byte_identical_files_for_the_same_arguments() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    for out in ["a", "b"] {
        let o = paifu(&["simulate", "tzq", "--games", "4", "--seed", "same", "--out", out], p);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = paifu(&["simulate", "tzq", "--games", "4", "--seed", "other", "--out", "c"], p);
    assert!(o.status.success());
    for i in 1..=4 {
        let name = format!("tzq-{i:04}.paifu.jsonl");
        let a = fs::read(p.join("a").join(&name)).unwrap();
        assert_eq!(a, fs::read(p.join("b").join(&name)).unwrap(), "{name}");
        assert_ne!(a, fs::read(p.join("c").join(&name)).unwrap(), "{name}");
    }
}

#[test]
fn simulate_refuses_unknown_games_bots_and_options() {
    let t = tempfile::tempdir().unwrap();
    let o = paifu(&["simulate", "chess", "--out", "x"], t.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown game \"chess\""), "{}", stderr(&o));
    let o = paifu(&["simulate", "tzq", "--bot", "genius", "--out", "x"], t.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("greedy, random"), "{}", stderr(&o));
    let o = paifu(&["simulate", "tzq", "--option", "speed=9", "--out", "x"], t.path());
    assert!(stderr(&o).contains("unknown tzq option \"speed\""), "{}", stderr(&o));
    let o = paifu(&["simulate", "tzq", "--players", "3", "--out", "x"], t.path());
    assert!(stderr(&o).contains("2 to 2 players"), "{}", stderr(&o));
}

#[test]
fn simulate_names_the_players_as_asked() {
    // Issue 16: the README's `paifu stats --player Aiko` found nobody: seats were "greedy N".
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    let o = paifu(&["simulate", "tzq", "--games", "2", "--names", "Aiko,Bao", "--out", "n"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = fs::read(p.join("n/tzq-0002.paifu.jsonl")).unwrap();
    let (log, _) = paifu_core::log::decode::<paifu_core::tzq::Action>(&bytes).unwrap();
    assert_eq!(log.header.seats, ["Aiko", "Bao"]);
    let o = paifu(&["simulate", "tzq", "--names", "Aiko,Bao,Chen", "--out", "m"], p);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--names gives 3 names for 2 seats"), "{}", stderr(&o));
    assert!(!p.join("m").exists(), "nothing written");
    let o = paifu(&["simulate", "tzq", "--names", "Aiko, ", "--out", "m"], p);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("a player's name cannot be empty"), "{}", stderr(&o));
}

#[test]
fn validate_reports_each_log_and_sets_the_exit_status() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    assert!(paifu(&["simulate", "tzq", "--games", "3", "--seed", "v", "--out", "logs", "--bot", "random"], p)
        .status
        .success());
    let o = paifu(&["validate", "logs"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o).lines().filter(|l| l.starts_with("valid ")).count(), 3);

    // Break one log by hand: the first discard becomes a card the seat does not hold.
    let f = p.join("logs/tzq-0002.paifu.jsonl");
    let text = fs::read_to_string(&f).unwrap();
    let (log, _) = paifu_core::log::decode::<paifu_core::tzq::Action>(text.as_bytes()).unwrap();
    let k = log.records.iter().position(|r| matches!(r.action, paifu_core::tzq::Action::Discard(_))).unwrap();
    let (state, _) =
        paifu_core::replay::replay::<paifu_core::tzq::Tzq>(&log, &Default::default(), Some(k - 1)).unwrap();
    let seat = log.records[k].seat;
    let missing = paifu_core::tzq::standard_deck().unwrap().iter().find(|c| !state.hand(seat).contains(c)).unwrap();
    let n = k + 1; // the header is line 1, record k is line k + 2
    let held = log.records[k].action.to_string();
    let broken: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| if i == n { l.replace(&held, &format!("discard {missing}")) } else { l.to_owned() })
        .collect();
    fs::write(&f, broken.join("\n") + "\n").unwrap();
    let o = paifu(&["validate", "logs"], p);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let bad = out.lines().find(|l| l.starts_with("INVALID")).unwrap();
    assert!(bad.contains(&format!("record {k}, line {}", n + 1)), "{bad}");
    assert!(bad.contains("illegal_action"), "{bad}");
    assert!(out.contains("3 logs: 2 valid, 1 invalid"), "{out}");

    let o = paifu(&["validate", "--json", "logs"], p);
    let objs: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(objs.len(), 3);
    let bad = objs.iter().find(|v| v["valid"] == false).unwrap();
    assert_eq!(bad["error"]["code"], "illegal_action");
    assert_eq!(bad["error"]["index"], k);
    assert_eq!(bad["error"]["line"], n + 1);
    assert!(bad["error"]["message"].as_str().unwrap().contains("but holds"));
    let good = objs.iter().find(|v| v["valid"] == true).unwrap();
    assert_eq!(good["final_scores"].as_array().unwrap().len(), 2);
    assert_eq!(good["digest"].as_str().unwrap().len(), 64);

    let o = paifu(&["validate", "no-such-file.paifu.jsonl"], p);
    assert_eq!(o.status.code(), Some(2));
    let o = paifu(&["validate"], p);
    assert_eq!(o.status.code(), Some(2), "usage error");
}

/// A file that cannot be read among logs, a named pipe (opening one used to wait for a writer
/// forever): the others are still checked and listed in order, the pipe is named, and the exit
/// status says an input could not be read.
#[test]
fn validate_names_a_named_pipe_instead_of_waiting_on_it() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    assert!(paifu(&["simulate", "tzq", "--games", "3", "--seed", "v", "--out", "logs", "--bot", "random"], p)
        .status
        .success());
    let fifo = p.join("pipe.paifu");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let args = ["validate", "logs/tzq-0001.paifu.jsonl", "pipe.paifu", "logs/tzq-0003.paifu.jsonl"];
    let o = paifu(&args, p);
    assert_eq!(o.status.code(), Some(2));
    let lines: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    assert!(lines[0].starts_with("valid ") && lines[0].contains("tzq-0001"), "{lines:?}");
    assert!(lines[1].starts_with("valid ") && lines[1].contains("tzq-0003"), "{lines:?}");
    assert!(lines[2].contains("3 logs: 2 valid, 0 invalid, 1 unreadable"), "{lines:?}");
    assert!(stderr(&o).contains("pipe.paifu"), "{}", stderr(&o));
    let mut json = vec!["validate", "--json"];
    json.extend_from_slice(&args[1..]);
    let o = paifu(&json, p);
    assert_eq!(o.status.code(), Some(2));
    let objs: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(objs.len(), 3);
    assert_eq!((objs[0]["valid"].as_bool(), objs[2]["valid"].as_bool()), (Some(true), Some(true)));
    assert_eq!(objs[1]["valid"], false);
    assert!(objs[1]["file"].as_str().unwrap().ends_with("pipe.paifu"), "{}", objs[1]);
    assert!(objs[1]["io_error"].as_str().unwrap().contains("pipe.paifu"), "{}", objs[1]);
}

#[test]
fn convert_round_trips_and_digest_is_encoding_independent() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    assert!(paifu(&["simulate", "tzq", "--games", "1", "--seed", "c", "--out", "."], p).status.success());
    let o = paifu(&["convert", "tzq-0001.paifu.jsonl", "-o", "g.paifu"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(paifu(&["convert", "g.paifu", "-o", "back.paifu.jsonl"], p).status.success());
    assert_eq!(fs::read(p.join("tzq-0001.paifu.jsonl")).unwrap(), fs::read(p.join("back.paifu.jsonl")).unwrap());
    let o = paifu(&["digest", "tzq-0001.paifu.jsonl", "g.paifu"], p);
    let out = stdout(&o);
    let digests: Vec<&str> = out.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(digests.len(), 2);
    assert_eq!(digests[0], digests[1]);
    let o = paifu(&["validate", "g.paifu"], p);
    assert!(o.status.success());
    assert!(stdout(&o).contains(digests[0]));
}

#[test]
fn show_prints_the_game_and_the_state_after_a_record() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    assert!(paifu(&["simulate", "tzq", "--games", "1", "--seed", "show", "--out", "."], p).status.success());
    let o = paifu(&["show", "tzq-0001.paifu.jsonl"], p);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("#0 seat"), "{out}");
    assert!(out.contains("Seat 0: hand ["));
    assert!(out.contains("round 1 ends"));
    assert!(out.contains("Final scores"));
    let o = paifu(&["show", "tzq-0001.paifu.jsonl", "--at", "3"], p);
    let out = stdout(&o);
    assert!(out.contains("After record #3"), "{out}");
    assert!(!out.contains("#4 seat"));
    let o = paifu(&["show", "tzq-0001.paifu.jsonl", "--at", "100000"], p);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the log has"), "{}", stderr(&o));
}

#[test]
fn keygen_sign_and_verify() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    assert!(paifu(&["simulate", "tzq", "--games", "2", "--seed", "sign", "--out", "."], p).status.success());
    let o = paifu(&["keygen", "-o", "ref"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(fs::metadata(p.join("ref.key")).unwrap().permissions().mode() & 0o777, 0o600);
    }
    assert_eq!(paifu(&["keygen", "-o", "ref"], p).status.code(), Some(2), "no silent overwrite");
    assert!(paifu(&["keygen", "-o", "other"], p).status.success());

    let o = paifu(&["sign", "tzq-0001.paifu.jsonl", "--key", "ref.key"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let cert = "tzq-0001.paifu.jsonl.cert.json";
    let c: serde_json::Value = serde_json::from_str(&fs::read_to_string(p.join(cert)).unwrap()).unwrap();
    assert_eq!(c["certificate"]["verdict"], "valid");
    assert_eq!(c["certificate"]["final_scores"].as_array().unwrap().len(), 2);
    assert_eq!(c["signature"].as_str().unwrap().len(), 128);

    let ok = paifu(&["verify", cert, "tzq-0001.paifu.jsonl", "--key", "ref.pub"], p);
    assert_eq!(ok.status.code(), Some(0), "{}{}", stdout(&ok), stderr(&ok));
    // The same certificate for another log, or with another key, does not verify.
    let other_log = paifu(&["verify", cert, "tzq-0002.paifu.jsonl", "--key", "ref.pub"], p);
    assert_eq!(other_log.status.code(), Some(1));
    assert!(stdout(&other_log).contains("is for the log"));
    let other_key = paifu(&["verify", cert, "tzq-0001.paifu.jsonl", "--key", "other.pub"], p);
    assert_eq!(other_key.status.code(), Some(1));
    // A certificate edited after signing does not verify.
    let edited = fs::read_to_string(p.join(cert)).unwrap().replacen("\"valid\"", "\"invalid\"", 1);
    fs::write(p.join("edited.cert.json"), edited).unwrap();
    let o = paifu(&["verify", "edited.cert.json", "tzq-0001.paifu.jsonl", "--key", "ref.pub"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("signature does not match"), "{}", stdout(&o));
    // A log changed after signing does not verify.
    let text = fs::read_to_string(p.join("tzq-0001.paifu.jsonl")).unwrap();
    fs::write(p.join("changed.paifu.jsonl"), text.replacen("\"series_seed\":\"sign\"", "\"series_seed\":\"x\"", 1))
        .unwrap();
    let o = paifu(&["verify", cert, "changed.paifu.jsonl", "--key", "ref.pub"], p);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn help_teaches_with_examples() {
    let t = tempfile::tempdir().unwrap();
    let o = paifu(&["--help"], t.path());
    let out = stdout(&o);
    for cmd in [
        "simulate",
        "validate",
        "show",
        "digest",
        "convert",
        "keygen",
        "sign",
        "verify",
        "demo",
        "Examples:",
        "Exit status",
    ] {
        assert!(out.contains(cmd), "--help lacks {cmd}");
    }
    let o = paifu(&["simulate", "--help"], t.path());
    assert!(stdout(&o).contains("byte-identical"));
}

#[test]
fn demo_runs_a_tournament_and_signs_every_game() {
    let t = tempfile::tempdir().unwrap();
    let o = paifu(&["demo", "--out", "d", "--no-serve"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("20 of 20 games valid and signed"), "{out}");
    // Every game the README lists, each ranked as the archive ranks it: riichi by points after
    // uma and oka, the others by average place.
    for game in [
        "Tien Zi Que (standard rules), ranked by average place:",
        "Riichi mahjong (standard rules), ranked by points after uma and oka:",
        "Ta Yü (standard rules), ranked by average place:",
        "Chinese Official mahjong (MCR) (standard rules), ranked by average place:",
        "Hungarian mahjong (1925) (standard rules), ranked by average place:",
    ] {
        assert!(out.contains(game), "{game}: {out}");
    }
    assert_eq!(fs::read_dir(t.path().join("d/certs")).unwrap().count(), 20);
    // --no-serve still stores every game in the archive.
    let a = paifu_recorder::archive::Archive::open(&t.path().join("d/paifu.db")).unwrap();
    let standings = a.standings("Paifu demo").unwrap().unwrap();
    assert_eq!(standings.iter().filter(|l| l.game == "riichi").count(), 4, "{standings:?}");
    assert!(standings.iter().filter(|l| l.game == "riichi").all(|l| l.points.is_some()));
    // A second run keeps the referee's key.
    let key = fs::read(t.path().join("d/referee.key")).unwrap();
    assert_eq!(paifu(&["demo", "--out", "d", "--no-serve"], t.path()).status.code(), Some(0));
    assert_eq!(fs::read(t.path().join("d/referee.key")).unwrap(), key);
    let v = paifu(&["validate", "d/logs"], t.path());
    assert_eq!(v.status.code(), Some(0));
}

#[test]
fn show_checks_claims_and_sequence_like_validate() {
    let t = tempfile::tempdir().unwrap();
    let fx = crate::util::fixtures_dir().join("tzq");
    for (name, code) in
        [("wrong-claimed-score.paifu.jsonl", "claim_mismatch"), ("dropped-record.paifu.jsonl", "bad_sequence")]
    {
        let o = paifu(&["show", fx.join(name).to_str().unwrap()], t.path());
        assert_eq!(o.status.code(), Some(1), "{name}");
        assert!(stdout(&o).contains("The log is invalid here: record"), "{name}");
        assert!(stdout(&o).contains(code), "{name}: {}", stdout(&o));
        assert!(!stdout(&o).contains("Final scores"), "{name}");
    }
    let o = paifu(&["show", fx.join("truncated-game.paifu.jsonl").to_str().unwrap()], t.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("truncated"));
}

#[test]
fn certificates_of_another_version_or_game_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    assert!(paifu(&["simulate", "tzq", "--games", "1", "--seed", "ver", "--out", "."], p).status.success());
    assert!(paifu(&["keygen", "-o", "k"], p).status.success());
    assert!(paifu(&["sign", "tzq-0001.paifu.jsonl", "--key", "k.key", "-o", "c.json"], p).status.success());
    let text = fs::read_to_string(p.join("c.json")).unwrap();
    assert!(text.contains("\"version\": 2"), "{text}");
    fs::write(p.join("v3.json"), text.replacen("\"version\": 2", "\"version\": 3", 1)).unwrap();
    let o = paifu(&["verify", "v3.json", "tzq-0001.paifu.jsonl", "--key", "k.pub"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("certificate version 3"), "{}", stdout(&o));
    // A key file readable by others is refused for signing.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(p.join("k.key"), fs::Permissions::from_mode(0o644)).unwrap();
        let o = paifu(&["sign", "tzq-0001.paifu.jsonl", "--key", "k.key"], p);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("chmod 600"), "{}", stderr(&o));
    }
}

/// Each way a command can end maps to its documented exit status (0 fine, 1 an input checked and
/// found faulty, 2 usage or unreadable input), with a message that names what went wrong.
#[test]
fn every_command_ends_with_its_documented_exit_status() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    assert!(paifu(&["simulate", "tzq", "--games", "1", "--seed", "exit", "--out", "."], p).status.success());
    assert!(paifu(&["keygen", "-o", "k"], p).status.success());
    assert!(paifu(&["sign", "tzq-0001.paifu.jsonl", "--key", "k.key", "-o", "c.json"], p).status.success());
    fs::write(p.join("junk.paifu.jsonl"), "hello\n").unwrap();
    let cases: &[(&[&str], i32, &str)] = &[
        (&["digest", "tzq-0001.paifu.jsonl"], 0, ""),
        (&["digest", "tzq-0001.paifu.jsonl", "junk.paifu.jsonl"], 1, "junk.paifu.jsonl: line 1: bad_encoding"),
        (&["digest", "missing.paifu"], 2, "missing.paifu"),
        (&["convert", "tzq-0001.paifu.jsonl", "-o", "out.txt"], 2, "name the output"),
        (&["convert", "junk.paifu.jsonl", "-o", "j.paifu"], 2, "junk.paifu.jsonl: line 1"),
        (&["sign", "junk.paifu.jsonl", "--key", "k.key"], 1, "cannot be certified, it is not a readable log"),
        (&["verify", "c.json", "tzq-0001.paifu.jsonl", "--key", "00"], 2, "--key 00: no such file"),
        (&["verify", "c.json", "tzq-0001.paifu.jsonl", "--key", "junk.paifu.jsonl"], 2, "not an ed25519 public key"),
        (&["verify", "junk.paifu.jsonl", "tzq-0001.paifu.jsonl", "--key", "k.pub"], 2, "junk.paifu.jsonl: "),
        (&["verify", "c.json", "missing.paifu", "--key", "k.pub"], 2, "missing.paifu"),
        (&["export", "pdf", "tzq-0001.paifu.jsonl", "-o", "x"], 2, "unknown export format \"pdf\""),
        (&["export", "tenhou", "tzq-0001.paifu.jsonl", "-o", "x.json"], 2, "tzq-0001.paifu.jsonl: record 0"),
        (&["import", "tenhou", "missing.json", "-o", "imported"], 2, "missing.json"),
        (&["import", "tenhou", "junk.paifu.jsonl", "-o", "imported"], 2, "junk.paifu.jsonl"),
        (&["stats", "--db", "none.db"], 2, "none.db: no such archive"),
        (&["plot", "yaku", "--db", "none.db", "-o", "y.svg"], 2, "none.db: no such archive"),
        (&["show", "--db", "none.db"], 2, "none.db: no such archive"),
        (&["export", "tenhou", "--db", "none.db", "-o", "out"], 2, "none.db: no such archive"),
        (&["stats", "--since", "yesterday"], 2, "write a date"),
        (&["show", "tzq-0001.paifu.jsonl", "--player", "Ann"], 2, "cannot be used with"),
        (&["simulate", "tzq", "--option", "speed", "--out", "x"], 2, "--option \"speed\": write KEY=VALUE"),
        (&["simulate", "tzq", "--players", "3", "--out", "x"], 2, "2 to 2 players"),
        (&["serve", "--db", "s.db", "--addr", "nowhere"], 2, "cannot listen on nowhere"),
    ];
    for (args, code, needle) in cases {
        let o = paifu(args, p);
        let said = format!("{}{}", stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), Some(*code), "{args:?}: {said}");
        assert!(said.contains(needle), "{args:?}: {needle:?} not in {said}");
        // Usage errors from parsing start with "error:", the commands' own with "paifu:".
        if *code != 0 {
            let err = stderr(&o);
            assert!(err.starts_with("paifu: ") || err.starts_with("error: ") || *code == 1, "{args:?}: {err}");
        }
    }
    // The calculator: 0 every hand scored, 1 some hand not, 2 a game it does not know.
    let hand = r#"{"hand":"123m456p789s11z22z2z","win":"2z","tsumo":true}"#;
    let o = paifu_with_input(&["score", "riichi"], p, &format!("{hand}\n\n{hand}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().filter(|l| l.contains("\"ok\":true")).count(), 2);
    let o = paifu_with_input(&["score", "riichi"], p, &format!("{hand}\n{{\"hand\":\"123m\"}}\n"));
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("the field win is missing"), "{}", stdout(&o));
    // No input: the command refuses the game before it reads any (writing some could meet a
    // closed pipe).
    let o = paifu(&["score", "tzq"], p);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("knows riichi, mcr and hungarian hands"), "{}", stderr(&o));
}

/// `paifu ingest` stores what it can read and exits 2 when a file could not be read.
#[test]
fn ingest_exits_2_when_a_file_is_unreadable() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    assert!(paifu(&["simulate", "tzq", "--games", "2", "--seed", "ing", "--out", "logs"], p).status.success());
    assert!(std::process::Command::new("mkfifo").arg(p.join("logs/pipe.paifu")).status().unwrap().success());
    let o = paifu(&["ingest", "logs", "--db", "a.db", "--quiet"], p);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("3 files: 2 stored (2 valid, 0 invalid), 0 already in the archive, 1 unreadable"), "{out}");
    assert!(out.contains("unreadable: ") && out.contains("pipe.paifu: not a regular file"), "{out}");
}

/// `paifu score` with raw bytes on standard input: its exit status and its answers.
fn score_bytes(args: &[&str], input: &[u8]) -> (i32, Vec<String>) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let t = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_paifu"))
        .args(args)
        .current_dir(t.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from another thread: the answers are read while the input is still being written.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stdout).lines().map(str::to_owned).collect())
}

/// Issue 12, item 5: a 50 MB line was echoed back. A line past the limit gets a short error line
/// that does not echo it, and the lines after it are scored.
#[test]
fn score_answers_an_overlong_line_without_echoing_it() {
    let hand = r#"{"id":2,"hand":"123m456p789s11z22z2z","win":"2z","tsumo":true}"#;
    let long = format!("{{\"id\":\"{}\",\"hand\":\"123m\"}}", "x".repeat(8 << 20));
    let (code, out) = score_bytes(&["score", "riichi"], format!("{long}\n{hand}\n").as_bytes());
    assert_eq!(code, 1, "{out:?}");
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].len() < 300, "the answer echoes the line: {} bytes", out[0].len());
    let e: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    assert_eq!((e["ok"].as_bool(), e["error"].as_str()), (Some(false), Some("too_long")), "{e}");
    let said = format!("line 1 is {} bytes long; lines are at most 65536 bytes", long.len());
    assert!(e["message"].as_str().unwrap().contains(&said), "{e}");
    assert!(out[1].contains("\"id\":2") && out[1].contains("\"ok\":true"), "{}", out[1]);
    // The limit is an option.
    let (code, out) = score_bytes(&["score", "riichi", "--max-line-bytes", "20"], format!("{hand}\n").as_bytes());
    assert_eq!((code, out.len()), (1, 1));
    assert!(out[0].contains("at most 20 bytes"), "{}", out[0]);
}

/// Issue 12, item 5: one line that is not UTF-8 stopped `score` for every line after it.
#[test]
fn score_answers_a_line_that_is_not_utf8_and_goes_on() {
    let hand = r#"{"hand":"123m456p789s11z22z2z","win":"2z","tsumo":true}"#;
    let mut input = format!("{hand}\n").into_bytes();
    input.extend_from_slice(b"{\"hand\":\"\xff\xfe\"}\n");
    input.extend_from_slice(format!("{hand}\n").as_bytes());
    let (code, out) = score_bytes(&["score", "riichi"], &input);
    assert_eq!(code, 1, "{out:?}");
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[0].contains("\"ok\":true") && out[2].contains("\"ok\":true"), "{out:?}");
    assert!(out[1].contains("\"error\":\"bad_input\""), "{}", out[1]);
    assert!(out[1].contains("line 2 is not UTF-8 text (byte 9 is not)"), "{}", out[1]);
}

/// Issue 12, item 7: `paifu verify` with a key file that is not there said the key was not PEM.
#[test]
fn verify_with_a_missing_key_file_says_the_file_is_not_there() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    assert!(paifu(&["simulate", "tzq", "--games", "1", "--seed", "key", "--out", "."], p).status.success());
    assert!(paifu(&["keygen", "-o", "k"], p).status.success());
    assert!(paifu(&["sign", "tzq-0001.paifu.jsonl", "--key", "k.key", "-o", "c.json"], p).status.success());
    let o = paifu(&["verify", "c.json", "tzq-0001.paifu.jsonl", "--key", "referee.pub"], p);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("--key referee.pub: no such file"), "{err}");
    assert!(!err.contains("PEM"), "{err}");
    // The key itself, as 64 hex digits, still works.
    let hex = paifu_core::cert::public_from_text(&fs::read_to_string(p.join("k.pub")).unwrap()).unwrap();
    let hex = hex::encode(hex.to_bytes());
    let o = paifu(&["verify", "c.json", "tzq-0001.paifu.jsonl", "--key", &hex], p);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

/// A riichi game written to `p`, its first win's record and what `paifu show --at` prints there.
fn show_at_first_win(
    p: &std::path::Path,
) -> (paifu_core::log::Log<paifu_core::riichi::Action>, usize, std::process::Output) {
    let log = crate::util::riichi_game("show/at", 0);
    fs::write(p.join("r.paifu.jsonl"), paifu_core::log::encode(&log, paifu_core::log::Encoding::JsonLines)).unwrap();
    let n = log.records.iter().position(|r| matches!(r.action.to_string().as_str(), "ron" | "tsumo")).expect("a win");
    let o = paifu(&["show", "r.paifu.jsonl", "--at", &n.to_string()], p);
    (log, n, o)
}

#[test]
fn show_at_a_win_shows_that_hands_end_not_the_next_deal() {
    // Issue 16: `paifu show --at N` on a win showed the next hand, already dealt.
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    let (log, n, o) = show_at_first_win(p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "After record #{n} (seat {}: {}), the hand ends:",
            log.records[n].seat, log.records[n].action
        )),
        "{out}"
    );
    let (ends, table) = out.split_once("The table as it was played:").expect("the table");
    let round = ends.split("== round ").nth(1).and_then(|r| r.split(" ends: ").nth(1)).expect("the hand's result");
    // The table is the hand that ended (its name opens the result line), not the next deal.
    let hand = round.split(':').next().unwrap();
    assert!(table.trim_start().starts_with(hand), "{hand} / {table}");
    // A record that ends no hand shows the state after it, as before.
    let o = paifu(&["show", "r.paifu.jsonl", "--at", "3"], p);
    assert!(stdout(&o).contains("After record #3 (seat") && !stdout(&o).contains("the hand ends"), "{}", stdout(&o));
}

#[test]
fn show_at_a_win_prints_the_yaku_and_who_paid_whom() {
    let t = tempfile::tempdir().unwrap();
    let (log, n, o) = show_at_first_win(t.path());
    let out = stdout(&o);
    let (ends, _) = out.split_once("The table as it was played:").expect("the table");
    assert!(ends.contains(&format!("Seat {} wins by ", log.records[n].seat)) && ends.contains("  yaku: "), "{ends}");
    // The payments add up, seat by seat, to the score changes the log claims for the hand.
    let line = ends.lines().find_map(|l| l.strip_prefix("Payments: ")).expect("the payments");
    let mut d = [0i64; 4];
    for pay in line.split(", ") {
        let (from, rest) = pay.split_once(" -> ").unwrap();
        let (to, points) = rest.rsplit_once(' ').unwrap();
        let points: i64 = points.parse().unwrap();
        let seat = |s: &str| s.strip_prefix("seat ").map(|x| x.parse::<usize>().unwrap());
        if let Some(f) = seat(from) {
            d[f] -= points;
        }
        if let Some(t) = seat(to) {
            d[t] += points;
        }
    }
    let claimed = log.records[n].claim.as_ref().and_then(|c| c.round.clone()).expect("the log claims the result");
    assert_eq!(d.to_vec(), claimed, "{line}");
    assert!(ends.contains("Scores after the hand: "), "{ends}");
}
