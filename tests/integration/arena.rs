//! `paifu arena`: matches between bot programs recorded as they are played (issue 17): fair
//! seeds, misbehaving bots handled by the policy, a killed host resumed to the same logs, the
//! archive.

use crate::util::{paifu, stderr, stdout};
use paifu_core::fair;
use paifu_core::log::{decode, Log};
use paifu_core::riichi::{Action, Riichi};
use paifu_core::{Digest, Game};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The built-in bot's command for `game`.
fn builtin(game: &str, strategy: &str) -> String {
    format!("{} bot {game} --strategy {strategy} --seed s{{seat}}", env!("CARGO_BIN_EXE_paifu"))
}

/// A seed file of two parties with fixed contributions, and the match seed they make.
pub(crate) fn seed_file(p: &Path) -> String {
    let parties = [("organiser", [7u8; 32]), ("alice", [9u8; 32])];
    let commitments: serde_json::Map<String, serde_json::Value> =
        parties.iter().map(|(n, v)| (n.to_string(), fair::commit(n, v).to_string().into())).collect();
    let contributions: serde_json::Map<String, serde_json::Value> =
        parties.iter().map(|(n, v)| (n.to_string(), Digest(*v).to_string().into())).collect();
    let body = serde_json::json!({ "commitments": commitments, "contributions": contributions });
    std::fs::write(p.join("seeds.json"), body.to_string()).unwrap();
    "seeds.json".into()
}

fn riichi_log(path: &Path) -> Log<Action> {
    decode::<Action>(&std::fs::read(path).unwrap()).unwrap().0
}

fn validates(p: &Path, log: &str) {
    let o = paifu(&["validate", log], p);
    assert_eq!(o.status.code(), Some(0), "{log} validates: {}{}", stdout(&o), stderr(&o));
}

/// Replays a log and answers the final state.
fn replayed(log: &Log<Action>) -> Riichi {
    let rules = Riichi::rules(&log.header.ruleset, &log.header.options).unwrap();
    let mut g = Riichi::new(rules, log.header.seats.len(), log.header.seed.as_ref()).unwrap();
    for r in &log.records {
        g.play_mut(r.seat, &r.action).unwrap();
    }
    g
}

#[test]
fn a_match_between_bot_programs_is_recorded_fairly_and_validates() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let seeds = seed_file(p);
    let bot = builtin("tzq", "random");
    let o = paifu(
        &[
            "arena",
            "tzq",
            "--bot",
            &bot,
            "--name",
            "Ann",
            "--bot",
            &bot,
            "--name",
            "Bo",
            "--games",
            "2",
            "--out",
            "m",
            "--seed-from",
            &seeds,
            "-q",
        ],
        p,
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let reveal: serde_json::Value = serde_json::from_slice(&std::fs::read(p.join("m/reveal.json")).unwrap()).unwrap();
    let parties = [("organiser", [7u8; 32]), ("alice", [9u8; 32])];
    let commitments = parties.iter().map(|(n, v)| (n.to_string(), fair::commit(n, v))).collect();
    let reveals = parties.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    let seed = fair::seed_of(&commitments, &reveals).unwrap();
    assert_eq!(reveal["match_seed"], seed.to_hex(), "the match seed is the parties' seed");
    for (n, first) in [(1, "Ann"), (2, "Bo")] {
        let name = format!("m/game-000{n}.paifu.jsonl");
        validates(p, &name);
        let log = decode::<paifu_core::tzq::Action>(&std::fs::read(p.join(&name)).unwrap()).unwrap().0;
        assert_eq!(
            log.header.seed,
            Some(seed.child(&format!("game/{n}"))),
            "game {n}'s seed is the match seed's child"
        );
        assert_eq!(log.header.seats[0], first, "seats rotate each game");
        assert_eq!(log.header.meta["commitments"], fair::commitments_digest(&commitments).to_string());
        assert!(
            !p.join(format!("m/live/game-000{n}.paifu.jsonl")).exists(),
            "the journal is gone once the log is written"
        );
    }
    // A wrong contribution is refused before any deal.
    let text = std::fs::read_to_string(p.join(&seeds))
        .unwrap()
        .replace(&Digest([9u8; 32]).to_string(), &Digest([8u8; 32]).to_string());
    std::fs::write(p.join("bad.json"), text).unwrap();
    let o = paifu(&["arena", "tzq", "--bot", &bot, "--games", "1", "--out", "m2", "--seed-from", "bad.json", "-q"], p);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("alice") && stderr(&o).contains("not the one committed"), "{}", stderr(&o));
    assert!(!p.join("m2").exists(), "nothing dealt");
}

/// A riichi bot in Python that plays the first legal action but misbehaves as `mode` says, at
/// its `at`-th question: `slow` (answers after the deadline, with a line that would be an illegal
/// answer to any later question), `illegal` (an unknown action, then an incident it may not
/// record), `garbage` (bytes that are not UTF-8), `exit` (ends).
const MISBEHAVING: &str = r#"
import json, sys, time
mode, at = sys.argv[1], int(sys.argv[2])
n = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] != "ask":
        print("ok", flush=True)
        continue
    n += 1
    if n == at and mode == "slow":
        time.sleep(1.0)
        print("too late", flush=True)
        continue
    if n in (at, at + 1) and mode == "illegal":
        print("fly away" if n == at else "incident chombo", flush=True)
        continue
    if n == at and mode == "garbage":
        sys.stdout.buffer.write(b"\xff\xfe\n")
        sys.stdout.flush()
        continue
    if n == at and mode == "exit":
        sys.exit(3)
    print(m["legal"][0], flush=True)
"#;

fn misbehaving(p: &Path, mode: &str, at: u32) -> String {
    std::fs::write(p.join("bad_bot.py"), MISBEHAVING).unwrap();
    format!("python3 bad_bot.py {mode} {at}")
}

/// The incidents of a log: (record index, seat, notation).
fn incidents(log: &Log<Action>) -> Vec<(usize, u8, String)> {
    log.records
        .iter()
        .enumerate()
        .filter(|(_, r)| r.action.to_string().starts_with("incident "))
        .map(|(i, r)| (i, r.seat, r.action.to_string()))
        .collect()
}

#[test]
fn bots_that_time_out_answer_illegally_print_garbage_or_exit_are_handled_and_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let seeds = seed_file(p);
    let bots = [
        misbehaving(p, "slow", 3),
        misbehaving(p, "illegal", 2),
        misbehaving(p, "garbage", 5),
        misbehaving(p, "exit", 4),
    ];
    let mut args =
        vec!["arena", "riichi", "--games", "1", "--out", "m", "--seed-from", &seeds, "--timeout-ms", "300", "-q"];
    for b in &bots {
        args.extend(["--bot", b.as_str()]);
    }
    let o = paifu(&args, p);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    validates(p, "m/game-0001.paifu.jsonl");
    let log = riichi_log(&p.join("m/game-0001.paifu.jsonl"));
    let found = incidents(&log);
    let of = |seat: u8, kind: &str| {
        found.iter().filter(|(_, s, a)| *s == seat && a.starts_with(&format!("incident {kind}"))).count()
    };
    assert!(of(0, "timeout") >= 1, "{found:?}");
    assert_eq!(of(0, "illegal"), 0, "the late answer is never taken for the answer to a later question: {found:?}");
    assert_eq!(of(1, "illegal"), 2, "an unknown action and an incident a bot may not record: {found:?}");
    assert_eq!(of(2, "garbage"), 1, "{found:?}");
    assert!(of(2, "exited") >= 1, "after garbage the bot is not asked again: {found:?}");
    assert!(of(3, "exited") >= 2, "an ended bot's every later decision is played for it: {found:?}");
    for (i, seat, _) in &found {
        let next = log.records[i + 1..].iter().find(|r| r.seat == *seat).expect("the incident is followed");
        assert!(!next.action.to_string().starts_with("incident "), "an incident is followed by the seat's safe action");
    }
    assert!(replayed(&log).is_over(), "the game was played to its end");

    // The forfeit policy: one incident, the seat played safely to the end and placed last.
    let bots =
        [builtin("riichi", "first"), builtin("riichi", "first"), builtin("riichi", "first"), misbehaving(p, "exit", 2)];
    let mut args =
        vec!["arena", "riichi", "--games", "1", "--out", "f", "--seed-from", &seeds, "--policy", "forfeit", "-q"];
    for b in &bots {
        args.extend(["--bot", b.as_str()]);
    }
    let o = paifu(&args, p);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    validates(p, "f/game-0001.paifu.jsonl");
    let log = riichi_log(&p.join("f/game-0001.paifu.jsonl"));
    let found = incidents(&log);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1 == 3 && found[0].2.starts_with("incident forfeit: exited"), "{found:?}");
    assert_eq!(replayed(&log).placements()[3], 4, "a forfeited seat is placed last");
}

#[test]
fn a_host_killed_mid_game_resumes_to_the_logs_of_an_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let seeds = seed_file(p);
    let bot = builtin("riichi", "first");
    let args = |out: &str| -> Vec<String> {
        ["arena", "riichi", "--bot", &bot, "--games", "2", "--out", out, "--seed-from", &seeds, "-q"]
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    let o = paifu(&args("whole").iter().map(String::as_str).collect::<Vec<_>>(), p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    // The same match, killed once game 1's journal holds 200 records.
    let mut host = Command::new(env!("CARGO_BIN_EXE_paifu"))
        .args(args("cut"))
        .current_dir(p)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal = p.join("cut/live/game-0001.paifu.jsonl");
    let start = Instant::now();
    while std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 200 {
        assert!(start.elapsed() < Duration::from_secs(120), "the host never wrote 200 records");
        assert!(host.try_wait().unwrap().is_none(), "the host ended before it was killed");
        std::thread::sleep(Duration::from_millis(5));
    }
    host.kill().unwrap();
    host.wait().unwrap();
    // A record cut short by the kill.
    use std::io::Write;
    std::fs::OpenOptions::new().append(true).open(&journal).unwrap().write_all(b"{\"seq\":").unwrap();
    assert!(!p.join("cut/game-0001.paifu.jsonl").exists());

    let o = paifu(&["arena", "--resume", "cut", "-q"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("1 resumed"), "{}", stdout(&o));
    for n in 1..=2 {
        let name = format!("game-000{n}.paifu.jsonl");
        assert_eq!(
            std::fs::read(p.join("cut").join(&name)).unwrap(),
            std::fs::read(p.join("whole").join(&name)).unwrap(),
            "game {n} resumed is the game played uninterrupted"
        );
    }
    // A finished match resumed plays nothing again.
    let o = paifu(&["arena", "--resume", "cut", "-q"], p);
    assert!(stdout(&o).contains("0 games played") && stdout(&o).contains("2 finished before"), "{}", stdout(&o));
    // A new match in a folder that holds one is refused.
    let o = paifu(&args("cut").iter().map(String::as_str).collect::<Vec<_>>(), p);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
}

#[test]
fn finished_games_go_into_the_archive_with_their_certificates() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    assert_eq!(paifu(&["keygen", "-o", "ref"], p).status.code(), Some(0));
    let bot = builtin("tzq", "random");
    let o = paifu(
        &[
            "arena",
            "tzq",
            "--bot",
            &bot,
            "--games",
            "2",
            "--out",
            "m",
            "--db",
            "a.db",
            "--tournament",
            "Bot cup",
            "--key",
            "ref.key",
            "-q",
        ],
        p,
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let a = paifu_recorder::archive::Archive::open(&p.join("a.db")).unwrap();
    let s = a.summary().unwrap();
    assert_eq!((s.games, s.valid), (2, 2), "{s:?}");
    let o = paifu(&["tournament", "list", "--db", "a.db"], p);
    let listed = stdout(&o);
    let line = listed.lines().find(|l| l.contains("Bot cup")).unwrap_or_else(|| panic!("{listed}"));
    assert!(
        line.contains("2 games") && line.contains("2 counted"),
        "both games count, certified by the key it trusts: {line}"
    );
}

/// A folder under the target folder that holds the `mjai` package (mjai.app's reference bots),
/// installed there once: the bots run in the sandbox, which hides the home folders where pip may
/// have put it for the host's own `python3`, so they are given it by `PYTHONPATH`.
fn mjai_path() -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_BIN_EXE_paifu")).ancestors().nth(2).expect("the target folder").join("pydeps");
    let imports = || {
        // Without site-packages (-S): the sandbox may not show them (a pyenv under /root is
        // hidden), so the folder must hold the package and its dependencies on its own.
        Command::new("python3")
            .args(["-S", "-c", "import mjai.bot.rulebase, mjai.bot.riichibot"])
            .env("PYTHONPATH", &dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !imports() {
        let o = Command::new("python3")
            .args(["-m", "pip", "install", "--quiet", "--target"])
            .arg(&dir)
            .arg("mjai==0.2.1")
            .output();
        assert!(
            o.as_ref().is_ok_and(|o| o.status.success()) && imports(),
            "the Python package mjai is needed (python3 -m pip install --target target/pydeps mjai==0.2.1): {o:?}"
        );
    }
    dir
}

#[test]
fn mjai_app_reference_bots_play_whole_games_under_the_host() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let seeds = seed_file(p);
    // In the sandbox (the default): mjai.app's bots play there unchanged.
    let env = format!("env PYTHONPATH={} ", mjai_path().display());
    let bot = |class: &str, module: &str| {
        format!("{env}python3 -c 'from mjai.bot.{module} import {class}; {class}(player_id={{seat}}).start()'")
    };
    let bots = [
        bot("RulebaseBot", "rulebase"),
        bot("RiichiBot", "riichibot"),
        bot("RulebaseBot", "rulebase"),
        bot("RiichiBot", "riichibot"),
    ];
    // A generous time per decision: python starting mjai.app's bots in the sandbox can take
    // seconds on a loaded machine, and lateness is the business of the timeout tests, not this one.
    let mut args = vec![
        "arena",
        "riichi",
        "--protocol",
        "mjai",
        "--games",
        "2",
        "--out",
        "m",
        "--seed-from",
        &seeds,
        "--timeout-ms",
        "60000",
        "-q",
    ];
    for b in &bots {
        args.extend(["--bot", b.as_str()]);
    }
    let o = paifu(&args, p);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    for n in 1..=2 {
        let name = format!("m/game-000{n}.paifu.jsonl");
        validates(p, &name);
        let log = riichi_log(&p.join(&name));
        assert!(incidents(&log).is_empty(), "every answer was in time and legal: {:?}", incidents(&log));
        let game = replayed(&log);
        assert!(game.is_over() && game.results().len() >= 4, "a whole game of {} hands", game.results().len());
    }
    for e in std::fs::read_dir(p.join("m/bots")).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        assert!(!text.contains("Exception"), "a bot found the events it was sent wrong: {text}");
    }
}

#[test]
fn a_game_in_progress_is_shown_live_from_the_archive_until_it_is_stored() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let seeds = seed_file(p);
    let bot = builtin("riichi", "first");
    let mut host = Command::new(env!("CARGO_BIN_EXE_paifu"))
        .args([
            "arena",
            "riichi",
            "--bot",
            &bot,
            "--games",
            "1",
            "--out",
            "m",
            "--seed-from",
            &seeds,
            "--db",
            "a.db",
            "-q",
        ])
        .current_dir(p)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal = p.join("m/live/game-0001.paifu.jsonl");
    let start = Instant::now();
    while std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 100 {
        assert!(start.elapsed() < Duration::from_secs(120), "the host never wrote 100 records");
        assert!(host.try_wait().unwrap().is_none(), "the host ended before it was killed");
        std::thread::sleep(Duration::from_millis(5));
    }
    host.kill().unwrap();
    host.wait().unwrap();
    // The live rows count what the table sees: every record but the passes.
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().skip(1).collect();
    let seen = |lines: &[&str]| lines.iter().filter(|l| !l.contains("\"action\":\"pass\"")).count() as u64;
    let (all, all_but_last) = (seen(&lines), seen(&lines[..lines.len() - 1]));
    let a = paifu_recorder::archive::Archive::open(&p.join("a.db")).unwrap();
    let live = a.live_games(None).unwrap();
    assert_eq!(live.len(), 1, "{live:?}");
    assert_eq!(live[0].key, "m/game-0001");
    assert!(
        live[0].records >= all_but_last && live[0].records <= all,
        "{live:?}: {} journaled, {all} but the passes",
        lines.len()
    );
    let (text, _) = a.live_log(live[0].id, None).unwrap().unwrap();
    let seed = std::fs::read_to_string(p.join("m/arena.seed")).unwrap();
    let game_seed = seed.trim().parse::<paifu_core::Seed>().unwrap().child("game/1");
    assert!(!text.contains(&game_seed.to_hex()), "a live game never shows its seed");
    drop(a);

    let o = paifu(&["arena", "--resume", "m", "--db", "a.db", "-q"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let a = paifu_recorder::archive::Archive::open(&p.join("a.db")).unwrap();
    assert!(a.live_games(None).unwrap().is_empty(), "a stored game is no longer in progress");
    assert_eq!(a.summary().unwrap().valid, 1);
}
