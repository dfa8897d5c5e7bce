//! `paifu ingest`, `stats`, `plot` through their functions (src/cmd/), and the archive filters
//! that stats, plot, show and export share, through the command.

use crate::util::{paifu, stderr, stdout};
use paifu::args::FilterArgs;
use paifu::cmd::ingest::{self, IngestArgs};
use paifu::cmd::keygen;
use paifu::cmd::plot::{self, PlotArgs};
use paifu::cmd::stats::{self, OutputFormat, StatsArgs};
use paifu::Status;
use paifu_core::log::Encoding;
use paifu_recorder::archive::{Archive, Filter};
use paifu_recorder::samples::{tzq_bytes, tzq_log};
use std::path::PathBuf;

fn write_logs(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for i in 0..5 {
        let enc = if i % 2 == 0 { Encoding::JsonLines } else { Encoding::Binary };
        let p = dir.join(format!("g{i}.{}", enc.extension()));
        std::fs::write(&p, tzq_bytes(&format!("cli/{i}"), ["Ann", "Bo"], enc)).unwrap();
        out.push(p);
    }
    out
}

#[test]
fn ingest_stores_valid_and_invalid_once() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    write_logs(&logs);
    let db = dir.path().join("a.db");
    let args = |paths: Vec<PathBuf>| IngestArgs {
        paths,
        db: db.clone(),
        tournament: Some("Cup".into()),
        key: None,
        quiet: true,
        queue: false,
    };
    assert_eq!(ingest::run(args(vec![logs.clone()])).unwrap(), Status::Fine);
    // An invalid log: exit 1, kept with its fault.
    let mut bad = tzq_log("cli/bad", ["Ann", "Bo"]);
    bad.records.truncate(5);
    let badp = logs.join("bad.paifu.jsonl");
    std::fs::write(&badp, paifu_core::log::encode(&bad, Encoding::JsonLines)).unwrap();
    assert_eq!(ingest::run(args(vec![logs.clone()])).unwrap(), Status::Faulty);
    let a = Archive::open(&db).unwrap();
    let s = a.summary().unwrap();
    assert_eq!((s.games, s.valid, s.invalid, s.tournaments), (6, 5, 1, 1));
    drop(a);
    // A missing path is an I/O error.
    let e = ingest::run(args(vec![dir.path().join("missing")])).unwrap_err();
    assert_eq!(e.exit_code(), 2, "{e}");
}

#[test]
fn ingest_signs_with_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let logs = write_logs(dir.path());
    let keyfile = dir.path().join("k.pem");
    let (key, created) = keygen::read_or_create_key(&keyfile).unwrap();
    assert!(created);
    assert_eq!(keygen::read_key(&keyfile).unwrap().to_bytes(), key.to_bytes());
    let db = dir.path().join("k.db");
    let args =
        IngestArgs { paths: logs, db: db.clone(), tournament: None, key: Some(keyfile), quiet: true, queue: false };
    assert_eq!(ingest::run(args).unwrap(), Status::Fine);
    let a = Archive::open(&db).unwrap();
    let signer = hex::encode(key.verifying_key().to_bytes());
    let json = a.certificate(1, &signer).unwrap().expect("a stored certificate");
    assert_eq!(a.certificates(1).unwrap().len(), 1);
    let c = paifu_core::cert::Certificate::from_json(&json).unwrap();
    let (bytes, _) = a.log_bytes(1).unwrap().unwrap();
    c.verify(&key.verifying_key(), &paifu_core::replay::validate_bytes(&bytes)).unwrap();
}

#[test]
fn stats_and_plots_from_the_archive() {
    let dir = tempfile::tempdir().unwrap();
    let logs = write_logs(dir.path());
    let db = dir.path().join("s.db");
    let ingest = IngestArgs { paths: logs, db: db.clone(), tournament: None, key: None, quiet: true, queue: false };
    assert_eq!(ingest::run(ingest).unwrap(), Status::Fine);
    for format in [OutputFormat::Text, OutputFormat::Json, OutputFormat::Csv] {
        let filter = FilterArgs { player: Some("Ann".into()), ..FilterArgs::default() };
        assert_eq!(stats::run(StatsArgs { db: db.clone(), filter, format }).unwrap(), Status::Fine);
    }
    let missing =
        StatsArgs { db: dir.path().join("none.db"), filter: FilterArgs::default(), format: OutputFormat::Text };
    assert!(stats::run(missing).unwrap_err().to_string().contains("no such archive"));
    let archive = Archive::open(&db).unwrap();
    let plot_args = |kind: &str, id: Option<i64>, player: Option<&str>| PlotArgs {
        kind: kind.into(),
        output: dir.path().join(format!("{kind}.svg")),
        db: db.clone(),
        id,
        filter: FilterArgs { player: player.map(str::to_owned), ..FilterArgs::default() },
    };
    for (kind, id, player) in
        [("scores", Some(1), None), ("placements", None, Some("Bo")), ("categories", None, None), ("turns", None, None)]
    {
        let svg = plot::plot_svg(&archive, &plot_args(kind, id, player)).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{kind}");
    }
    assert!(plot::plot_svg(&archive, &plot_args("scores", None, None)).unwrap_err().to_string().contains("--id"));
    assert!(plot::plot_svg(&archive, &plot_args("nope", None, None)).unwrap_err().to_string().contains("unknown plot"));
    assert_eq!(plot::run(plot_args("scores", Some(2), None)).unwrap(), Status::Fine);
    assert!(std::fs::read_to_string(dir.path().join("scores.svg")).unwrap().contains("<svg"));
    assert_eq!(archive.list_games(&Filter::default(), 1, 10).unwrap().total, 5);
}

/// A small archive through the command: in the tournament "Cup", two TZQ games of Ann and Bo
/// and a riichi game of Ann, Cy, Dee and Eve (games 1 to 3); outside it, a broken TZQ game of Ann
/// and Dee, and TZQ games of Bo and Cy, and of Cy and Ann (games 4 to 6).
fn small_archive(dir: &std::path::Path) {
    use paifu_core::log::encode;
    let cup = dir.join("cup");
    let other = dir.join("other");
    std::fs::create_dir_all(&cup).unwrap();
    std::fs::create_dir_all(&other).unwrap();
    let riichi = paifu_recorder::samples::game_log::<paifu_core::riichi::Riichi>(
        "standard",
        "cli/filters/riichi",
        &["Ann", "Cy", "Dee", "Eve"],
    )
    .unwrap();
    std::fs::write(cup.join("r1.paifu.jsonl"), encode(&riichi, Encoding::JsonLines)).unwrap();
    std::fs::write(cup.join("t1.paifu"), tzq_bytes("cli/filters/1", ["Ann", "Bo"], Encoding::Binary)).unwrap();
    std::fs::write(cup.join("t2.paifu"), tzq_bytes("cli/filters/2", ["Ann", "Bo"], Encoding::Binary)).unwrap();
    let mut bad = tzq_log("cli/filters/bad", ["Ann", "Dee"]);
    bad.records.truncate(5);
    std::fs::write(other.join("bad.paifu.jsonl"), encode(&bad, Encoding::JsonLines)).unwrap();
    std::fs::write(other.join("t3.paifu"), tzq_bytes("cli/filters/3", ["Bo", "Cy"], Encoding::Binary)).unwrap();
    std::fs::write(other.join("t4.paifu"), tzq_bytes("cli/filters/4", ["Cy", "Ann"], Encoding::Binary)).unwrap();
    let o = paifu(&["ingest", "cup", "--db", "a.db", "--tournament", "Cup", "-q"], dir);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let o = paifu(&["ingest", "other", "--db", "a.db", "-q"], dir);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
}

/// The games `paifu show --db a.db ARGS` lists, by number.
fn listed(dir: &std::path::Path, args: &[&str]) -> Vec<i64> {
    let o = paifu(&[&["show", "--db", "a.db"], args].concat(), dir);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o).lines().filter_map(|l| l.strip_prefix('#')?.split_whitespace().next()?.parse().ok()).collect()
}

#[test]
fn the_filters_choose_the_same_games_in_show_stats_plot_and_export() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    small_archive(p);

    // show lists the chosen games, newest first, with their game, verdict and players.
    let o = paifu(&["show", "--db", "a.db"], p);
    let out = stdout(&o);
    assert!(
        out.lines().any(|l| l.starts_with("#1 ") && l.contains("riichi") && l.contains("Ann, Cy, Dee, Eve")),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("#4 ") && l.contains("INVALID truncated")), "{out}");
    assert!(out.contains("6 games; paifu show --id N shows one"), "{out}");
    assert_eq!(listed(p, &[]), [6, 5, 4, 3, 2, 1]);
    assert_eq!(listed(p, &["--game", "riichi"]), [1]);
    assert_eq!(listed(p, &["--game", "tzq"]), [6, 5, 4, 3, 2]);
    assert_eq!(listed(p, &["--player", "Ann"]), [6, 4, 3, 2, 1]);
    assert_eq!(listed(p, &["--tournament", "Cup"]), [3, 2, 1]);
    assert_eq!(listed(p, &["--tournament", "Cup", "--player", "Bo"]), [3, 2]);
    assert_eq!(listed(p, &["--since", "2000-01-01"]), [6, 5, 4, 3, 2, 1]);
    assert_eq!(listed(p, &["--invalid"]), [4]);
    assert_eq!(listed(p, &["--valid", "--player", "Dee"]), [1]);

    // show --id N shows one stored game as show LOG does, with the same exit status.
    let o = paifu(&["show", "--db", "a.db", "--id", "2"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("seat 0 Ann, seat 1 Bo") && stdout(&o).contains("Final scores"), "{}", stdout(&o));
    let o = paifu(&["show", "--db", "a.db", "--id", "2", "--at", "3"], p);
    assert!(stdout(&o).contains("After record #3") && !stdout(&o).contains("#4 seat"), "{}", stdout(&o));
    let o = paifu(&["show", "--db", "a.db", "--id", "4"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("The log is invalid here"), "{}", stdout(&o));
    let o = paifu(&["show", "--db", "a.db", "--id", "99"], p);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("a.db: there is no game 99"), "{}", stderr(&o));

    // stats: the same selection (valid games only).
    let stats = |args: &[&str]| -> serde_json::Value {
        let o = paifu(&[&["stats", "--db", "a.db", "--format", "json"], args].concat(), p);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        serde_json::from_str(&stdout(&o)).unwrap()
    };
    let all = stats(&[]);
    assert_eq!(
        (all["overall"]["tzq"]["block"]["games"].as_u64(), all["overall"]["riichi"]["block"]["games"].as_u64()),
        (Some(4), Some(1))
    );
    let cup_ann = stats(&["--tournament", "Cup", "--player", "Ann"]);
    assert_eq!(cup_ann["overall"]["tzq"]["block"]["games"], 2);
    assert_eq!(cup_ann["overall"]["riichi"]["block"]["games"], 1);
    assert_eq!(cup_ann["players"].as_object().unwrap().keys().collect::<Vec<_>>(), ["Ann"]);
    let tzq = stats(&["--game", "tzq", "--player", "Cy"]);
    assert_eq!(tzq["overall"].as_object().unwrap().keys().collect::<Vec<_>>(), ["tzq"]);
    assert_eq!(tzq["overall"]["tzq"]["block"]["games"], 2);
    assert_eq!(stats(&["--since", "2000-01-01"]), all);

    // plot: the same filters.
    let o = paifu(&["plot", "placements", "--db", "a.db", "--player", "Bo", "--tournament", "Cup", "-o", "bo.svg"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(p.join("bo.svg")).unwrap().contains("</svg>"));
    let o = paifu(&["plot", "turns", "--db", "a.db", "-o", "t.svg"], p);
    assert!(stderr(&o).contains("choose one with --game"), "{}", stderr(&o));

    // export: the chosen valid riichi games, one file per game, that import again.
    let o = paifu(&["export", "tenhou", "--db", "a.db", "--tournament", "Cup", "-o", "out"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("wrote 1 tenhou files to out"), "{}", stdout(&o));
    let files: Vec<String> =
        std::fs::read_dir(p.join("out")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(files, ["game-1.json"]);
    let o = paifu(&["import", "tenhou", "out/game-1.json", "-o", "again"], p);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let o = paifu(&["export", "mjai", "--db", "a.db", "--player", "Eve", "--since", "2000-01-01", "-o", "mj"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(p.join("mj/game-1.mjson").exists());
    for (args, needle) in [
        (&["--player", "Bo"][..], "no valid games in a.db match --game riichi --player \"Bo\""),
        (&["--game", "tzq"], "only riichi games can be exported, not tzq"),
    ] {
        let o = paifu(&[&["export", "tenhou", "--db", "a.db", "-o", "x"], args].concat(), p);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn filters_that_choose_nothing_end_every_command_alike() {
    // Issue 16: stats exited 0 and plot 2 when nothing matched; show printed "no games match".
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    small_archive(p);
    let late = ["--since", "2999-01-01T00:00:00+09:00"];
    for cmd in [
        &["show", "--db", "a.db"][..],
        &["stats", "--db", "a.db"],
        &["plot", "turns", "--db", "a.db", "-o", "none.svg"],
        &["export", "tenhou", "--db", "a.db", "-o", "none"],
    ] {
        let o = paifu(&[cmd, &late[..]].concat(), p);
        assert_eq!(o.status.code(), Some(2), "{cmd:?}: {}", stdout(&o));
        assert!(stdout(&o).is_empty(), "{cmd:?}: {}", stdout(&o));
        let e = stderr(&o);
        assert!(e.contains("games in a.db match ") && e.ends_with("--since 2998-12-31T15:00:00Z\n"), "{cmd:?}: {e}");
    }
    assert!(!p.join("none.svg").exists() && !p.join("none").exists());
    // A name the archive does not know: the names that contain it, whatever the case.
    for cmd in [
        &["show", "--db", "a.db"][..],
        &["stats", "--db", "a.db"],
        &["plot", "placements", "--db", "a.db", "-o", "x.svg"],
    ] {
        let o = paifu(&[cmd, &["--player", "an"][..]].concat(), p);
        assert_eq!(o.status.code(), Some(2), "{cmd:?}");
        assert!(stderr(&o).contains("no player is named \"an\", did you mean: Ann"), "{cmd:?}: {}", stderr(&o));
    }
    let o = paifu(&["stats", "--db", "a.db", "--player", "Zed"], p);
    assert!(stderr(&o).ends_with("match --player \"Zed\"; no player is named \"Zed\"\n"), "{}", stderr(&o));
    // A known player with no game in the selection is not told of other names.
    let o = paifu(&["show", "--db", "a.db", "--player", "Eve", "--game", "tzq"], p);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).ends_with("no games in a.db match --game tzq --player \"Eve\"\n"), "{}", stderr(&o));
}

#[test]
fn output_cut_short_by_its_reader_ends_quietly() {
    // Issue 16: `paifu show ... | head` panicked with "failed printing to stdout: Broken pipe".
    use std::io::Read;
    use std::process::{Command, Stdio};
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    let log = paifu_recorder::samples::game_log::<paifu_core::riichi::Riichi>(
        "standard",
        "cli/pipe",
        &["Ann", "Cy", "Dee", "Eve"],
    )
    .unwrap();
    std::fs::write(p.join("r.paifu.jsonl"), paifu_core::log::encode(&log, Encoding::JsonLines)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_paifu"))
        .args(["show", "r.paifu.jsonl"])
        .current_dir(p)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "no panic, no message");
    // The whole show is far longer than a pipe holds, so the reader did cut it short.
    let whole = paifu(&["show", "r.paifu.jsonl"], p);
    assert!(whole.stdout.len() > 1 << 17, "{} bytes", whole.stdout.len());
}

#[test]
fn ingest_refuses_what_is_not_a_log_and_says_what_it_already_holds() {
    // Issue 12, item 3: `paifu ingest` stored non-logs (as bad_encoding).
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    std::fs::create_dir(p.join("in")).unwrap();
    std::fs::write(p.join("in/good.paifu"), tzq_bytes("cli/refuse/good", ["Ann", "Bo"], Encoding::Binary)).unwrap();
    std::fs::write(p.join("in/junk.paifu"), b"\x00\x01 not a log").unwrap();
    let mut control = tzq_log("cli/refuse/name", ["Ann", "Bo"]);
    control.header.seats[1] = "Bo\u{1b}[2J".into();
    std::fs::write(p.join("in/name.paifu.jsonl"), paifu_core::log::encode(&control, Encoding::JsonLines)).unwrap();
    let o = paifu(&["ingest", "in", "--db", "a.db", "-q"], p);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("3 files: 1 stored (1 valid, 0 invalid), 0 already in the archive, 0 unreadable, 2 refused"),
        "{out}"
    );
    assert!(out.contains("refused, not stored: in/junk.paifu: not a readable Paifu log"), "{out}");
    assert!(out.contains("seat 1: a player name may not hold control"), "{out}");
    assert!(!out.contains('\u{1b}'), "the name is not printed: {out}");
    let a = Archive::open(&p.join("a.db")).unwrap();
    assert_eq!(a.summary().unwrap().games, 1);
    drop(a);
    // The same log again, in the other encoding: held already, unchanged.
    std::fs::remove_file(p.join("in/junk.paifu")).unwrap();
    std::fs::remove_file(p.join("in/name.paifu.jsonl")).unwrap();
    std::fs::write(p.join("in/good.paifu.jsonl"), tzq_bytes("cli/refuse/good", ["Ann", "Bo"], Encoding::JsonLines))
        .unwrap();
    let o = paifu(&["ingest", "in", "--db", "a.db", "-q"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o)
            .contains("2 files: 0 stored (0 valid, 0 invalid), 2 already in the archive, 0 unreadable, 0 refused"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("the logs already in the archive are unchanged"), "{}", stdout(&o));
    // A tournament name the archive does not keep: a usage error, nothing stored.
    let o = paifu(&["ingest", "in", "--db", "a.db", "--tournament", "Cup\u{7}"], p);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--tournament: a tournament name may not hold control"), "{}", stderr(&o));
    assert!(Archive::open(&p.join("a.db")).unwrap().tournaments().unwrap().is_empty());
}

#[test]
fn two_ingests_at_once_both_finish() {
    // Issue 12, item 4: two `paifu ingest` runs on one archive; one died with "database is
    // locked". Here four at once, on a new archive, their folders overlapping.
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    let logs: Vec<Vec<u8>> = (0..96)
        .map(|i| {
            tzq_bytes(
                &format!("cli/parallel/{i}"),
                ["Ann", "Bo"],
                if i % 2 == 0 { Encoding::Binary } else { Encoding::JsonLines },
            )
        })
        .collect();
    for w in 0..4 {
        let dir = p.join(format!("w{w}"));
        std::fs::create_dir(&dir).unwrap();
        // Each run has 48 logs: its own 24 and 24 another run has too.
        for i in (w * 24)..(w * 24 + 48) {
            let i = i % 96;
            std::fs::write(dir.join(format!("g{i}.paifu")), &logs[i]).unwrap();
        }
    }
    let runs: Vec<std::process::Child> = (0..4)
        .map(|w| {
            std::process::Command::new(env!("CARGO_BIN_EXE_paifu"))
                .args(["ingest", &format!("w{w}"), "--db", "a.db", "--tournament", "Busy", "-q"])
                .current_dir(p)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for r in runs {
        let o = r.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        assert!(!stderr(&o).contains("locked"), "{}", stderr(&o));
    }
    let a = Archive::open(&p.join("a.db")).unwrap();
    let s = a.summary().unwrap();
    assert_eq!((s.games, s.valid), (96, 96));
    assert_eq!(a.tournaments().unwrap()[0].games, 96);
}

#[test]
fn tokens_are_made_listed_and_revoked() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    let o = paifu(&["token", "create", "--db", "a.db", "--name", "alice", "--role", "organiser"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let token = out.lines().last().unwrap().to_owned();
    assert!(token.starts_with("pft_") && token.len() == 68, "the token is the last line: {out}");
    assert!(out.contains("made token 1 for alice (organiser)"), "{out}");
    let second =
        stdout(&paifu(&["token", "create", "--db", "a.db", "--name", "alice"], p)).lines().last().unwrap().to_owned();
    assert_ne!(second, token);
    // Stored hashed: neither the list nor the file holds the token.
    let list = stdout(&paifu(&["token", "list", "--db", "a.db"], p));
    assert!(list.contains("alice") && list.contains("organiser") && list.contains("uploader"), "{list}");
    assert!(!list.contains(&token[4..]));
    let file = std::fs::read(p.join("a.db")).unwrap();
    assert!(!file.windows(64).any(|w| w == &token.as_bytes()[4..]));
    let a = Archive::open(&p.join("a.db")).unwrap();
    assert_eq!(a.token_by_secret(&token).unwrap().unwrap().name, "alice");
    drop(a);
    let o = paifu(&["token", "revoke", "--db", "a.db", "1"], p);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("revoked"), "{}", stdout(&o));
    assert!(Archive::open(&p.join("a.db")).unwrap().token_by_secret(&token).unwrap().unwrap().is_revoked());
    let o = paifu(&["token", "revoke", "--db", "a.db", "--name", "alice"], p);
    assert_eq!(o.status.code(), Some(0));
    assert!(Archive::open(&p.join("a.db")).unwrap().token_by_secret(&second).unwrap().unwrap().is_revoked());
    // Errors: a name with a control character, an unknown role, nothing to revoke.
    for (args, needle) in [
        (&["token", "create", "--db", "a.db", "--name", "a\tb"][..], "--name: a token name may not hold control"),
        (&["token", "create", "--db", "a.db", "--name", "x", "--role", "root"], "uploader, organiser or admin"),
        (&["token", "revoke", "--db", "a.db", "99"], "there is no token 99"),
        (&["token", "revoke", "--db", "a.db", "--name", "alice"], "has no token that is not revoked"),
        (&["token", "list", "--db", "none.db"], "no such archive"),
    ] {
        let o = paifu(args, p);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn tournaments_trust_keys_and_count_only_what_those_keys_certified() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    for k in ["ref", "other"] {
        assert_eq!(paifu(&["keygen", "-o", k], p).status.code(), Some(0));
    }
    std::fs::create_dir(p.join("in")).unwrap();
    for i in 0..3 {
        std::fs::write(
            p.join(format!("in/g{i}.paifu")),
            tzq_bytes(&format!("cli/trust/{i}"), ["Ann", "Bo"], Encoding::Binary),
        )
        .unwrap();
    }
    // Made by the ingest, trusting the key it signs with.
    let o = paifu(&["ingest", "in", "--db", "a.db", "--tournament", "Cup", "--key", "ref.key", "-q"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let list = stdout(&paifu(&["tournament", "list", "--db", "a.db"], p));
    assert!(list.contains("Cup: 3 games, 3 valid, 3 counted in the standings"), "{list}");
    // Trusting another key only: nothing counts; both: everything.
    let o = paifu(&["tournament", "trust", "--db", "a.db", "Cup", "--key", "other.pub"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&paifu(&["tournament", "list", "--db", "a.db"], p)).contains("0 counted"));
    let o = paifu(&["tournament", "trust", "--db", "a.db", "Cup", "--key", "other.pub", "--key", "ref.key"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&paifu(&["tournament", "list", "--db", "a.db"], p)).contains("3 counted"));
    // A tournament for an organiser; made once.
    let pub_hex = {
        let a = Archive::open(&p.join("a.db")).unwrap();
        a.tournament_info("Cup").unwrap().unwrap().trusted_keys[0].clone()
    };
    let o = paifu(&["tournament", "create", "--db", "a.db", "League", "--owner", "alice", "--key", &pub_hex], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("owner: alice") && stdout(&o).contains(&pub_hex), "{}", stdout(&o));
    for (args, needle) in [
        (&["tournament", "create", "--db", "a.db", "League"][..], "exists already"),
        (&["tournament", "create", "--db", "a.db", "\u{1}"], "may not hold control"),
        (&["tournament", "trust", "--db", "a.db", "Nope", "--key", "ref.pub"], "there is no tournament"),
        (&["tournament", "trust", "--db", "a.db", "Cup", "--key", "zz"], "--key zz"),
    ] {
        let o = paifu(args, p);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
    // Stats count the same valid games as before.
    let o = paifu(&["stats", "--db", "a.db", "--format", "json"], p);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["overall"]["tzq"]["block"]["games"], 3);
}
