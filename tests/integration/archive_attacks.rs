//! Issue 24, "The archive": each attack performed through the command line (and the server), as
//! an attacker would. Each fails on the main branch before it (e7c92f0); to see that, run these
//! tests against another `paifu` binary: `PAIFU_UNDER_TEST=/path/to/old/paifu cargo test --test
//! integration archive_attacks::` (the archive is read with SQL that both schemas answer).

use paifu_core::log::{self, Encoding};
use paifu_recorder::samples::{tzq_bytes, tzq_log};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The `paifu` under test: this build's, or the one `PAIFU_UNDER_TEST` names.
fn bin() -> PathBuf {
    std::env::var_os("PAIFU_UNDER_TEST").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_paifu")), PathBuf::from)
}

fn paifu(args: &[&str], dir: &Path) -> Output {
    Command::new(bin()).args(args).current_dir(dir).output().expect("run paifu")
}

/// `paifu ARGS` in `dir`: the exit status and everything it printed.
fn run(args: &[&str], dir: &Path) -> (i32, String) {
    let o = paifu(args, dir);
    let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(!all.contains("panicked"), "{all}");
    (o.status.code().unwrap_or(-1), all)
}

/// One number the archive's SQL answers (the tables both schemas have).
fn count(db: &Path, sql: &str) -> i64 {
    try_count(db, sql).unwrap_or_else(|e| panic!("{}: {sql}: {e}", db.display()))
}

/// [`count`], or the error of an archive not made yet (a process killed while it made it).
fn try_count(db: &Path, sql: &str) -> rusqlite::Result<i64> {
    rusqlite::Connection::open(db)?.query_row(sql, [], |r| r.get(0))
}

/// Entries with no certificate at all.
const UNSIGNED: &str =
    "SELECT COUNT(*) FROM logs l WHERE NOT EXISTS (SELECT 1 FROM certificates c WHERE c.log_id = l.id)";

/// A key pair `NAME.key`, `NAME.pub` in `dir`.
fn keygen(dir: &Path, name: &str) {
    let (code, out) = run(&["keygen", "-o", name], dir);
    assert_eq!(code, 0, "{out}");
}

/// `n` finished TZQ games in `dir/sub` (JSON Lines), the organiser's logs.
fn games(dir: &Path, sub: &str, n: usize, players: [&str; 2]) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir.join(sub)).unwrap();
    (0..n)
        .map(|i| {
            let path = dir.join(sub).join(format!("g{i:04}.paifu.jsonl"));
            std::fs::write(&path, tzq_bytes(&format!("attacks/{sub}/{i}"), players, Encoding::JsonLines)).unwrap();
            path
        })
        .collect()
}

/// The copy an attacker makes of a finished log: its header's `commitment` deleted (still
/// valid: the seed is there; the same game digest).
fn without_commitment(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut header: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    assert!(header.as_object_mut().unwrap().remove("commitment").is_some());
    lines[0] = header.to_string();
    (lines.join("\n") + "\n").into_bytes()
}

#[test]
fn a_copy_without_its_commitment_stored_first_never_empties_the_standings() {
    // Main: the copies count, the organiser's entries do not; "Cup: 6 games, 6 valid, 0 counted
    // in the standings", and the signed report is REJECTED by verify tournament. Now: 6 counted,
    // the report verifies, and each game's two entries stand side by side.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    keygen(d, "referee");
    let genuine = games(d, "organiser", 6, ["Ann", "Bo"]);
    std::fs::create_dir_all(d.join("copies")).unwrap();
    for (i, g) in genuine.iter().enumerate() {
        std::fs::write(
            d.join("copies").join(format!("c{i}.paifu.jsonl")),
            without_commitment(&std::fs::read(g).unwrap()),
        )
        .unwrap();
    }
    // The attacker's copies first, then the organiser's logs, signed.
    let (code, out) = run(&["ingest", "copies", "--db", "a.db", "-q"], d);
    assert_eq!(code, 0, "{out}");
    let (code, out) =
        run(&["ingest", "organiser", "--db", "a.db", "--tournament", "Cup", "--key", "referee.key", "-q"], d);
    assert_eq!(code, 0, "{out}");
    let (_, list) = run(&["tournament", "list", "--db", "a.db"], d);
    assert!(list.contains("Cup: 6 games, 6 valid, 6 counted in the standings"), "{list}");
    // One entry counts per game: the organiser's, certified by the key the tournament trusts.
    assert_eq!(count(&d.join("a.db"), "SELECT COUNT(*) FROM logs WHERE counted = 1"), 6);
    assert_eq!(
        count(
            &d.join("a.db"),
            "SELECT COUNT(*) FROM logs l JOIN tournament_games tg ON tg.log_id = l.id WHERE l.counted = 1"
        ),
        6
    );
    let (code, out) =
        run(&["report", "--tournament", "Cup", "--db", "a.db", "-o", "rep", "--key", "referee.key", "-q"], d);
    assert_eq!(code, 0, "{out}");
    let standings = std::fs::read_to_string(d.join("rep/standings.csv")).unwrap();
    assert!(standings.contains(",Ann,6,") || standings.contains(",Bo,6,"), "{standings}");
    let (code, out) =
        run(&["verify", "tournament", "rep/manifest.json", "--key", "referee.pub", "--logs", "rep/games", "-q"], d);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("tournament OK") && out.contains("6 games (6 counted)"), "{out}");
}

#[test]
fn a_report_signed_before_counting_moved_still_verifies() {
    // Two entries of each game in the tournament, each certified by another key; the report is
    // signed while the first key is trusted. The tournament then trusts only the second key:
    // counting moves to the other entry of each game. The report signed before still verifies
    // against its own folder (the archive as it was), and a new report verifies too.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    keygen(d, "one");
    keygen(d, "two");
    let genuine = games(d, "first", 3, ["Cy", "Dee"]);
    std::fs::create_dir_all(d.join("second")).unwrap();
    for (i, g) in genuine.iter().enumerate() {
        std::fs::write(
            d.join("second").join(format!("s{i}.paifu.jsonl")),
            without_commitment(&std::fs::read(g).unwrap()),
        )
        .unwrap();
    }
    assert_eq!(run(&["ingest", "first", "--db", "b.db", "--tournament", "Open", "--key", "one.key", "-q"], d).0, 0);
    assert_eq!(run(&["ingest", "second", "--db", "b.db", "--tournament", "Open", "--key", "two.key", "-q"], d).0, 0);
    let (code, out) =
        run(&["report", "--tournament", "Open", "--db", "b.db", "-o", "before", "--key", "one.key", "-q"], d);
    assert_eq!(code, 0, "{out}");
    let counted_first =
        "SELECT COUNT(*) FROM tournament_counted tc JOIN logs l ON l.id = tc.log_id WHERE l.source LIKE '%first%'";
    assert_eq!(count(&d.join("b.db"), counted_first), 3);
    let (code, out) = run(&["tournament", "trust", "--db", "b.db", "Open", "--key", "two.pub"], d);
    assert_eq!(code, 0, "{out}");
    assert_eq!(count(&d.join("b.db"), counted_first), 0, "counting moved to the entries the second key signed");
    let (_, list) = run(&["tournament", "list", "--db", "b.db"], d);
    assert!(list.contains("Open: 6 games, 6 valid, 3 counted"), "{list}");
    let (code, out) =
        run(&["verify", "tournament", "before/manifest.json", "--key", "one.pub", "--logs", "before/games", "-q"], d);
    assert_eq!(code, 0, "the report signed before: {out}");
    assert!(out.contains("3 games (3 counted)") || out.contains("6 games (3 counted)"), "{out}");
    let (code, out) =
        run(&["report", "--tournament", "Open", "--db", "b.db", "-o", "after", "--key", "two.key", "-q"], d);
    assert_eq!(code, 0, "{out}");
    let (code, out) =
        run(&["verify", "tournament", "after/manifest.json", "--key", "two.pub", "--logs", "after/games", "-q"], d);
    assert_eq!(code, 0, "the report signed after: {out}");
    let before = std::fs::read_to_string(d.join("before/manifest.json")).unwrap();
    let after = std::fs::read_to_string(d.join("after/manifest.json")).unwrap();
    assert_ne!(before, after);
}

#[test]
fn one_seeded_game_with_another_meta_key_is_one_game() {
    // Main: a Paifu log and the same log with one more `meta` key are two games, both counted:
    // "Ann" shows 2 games. Now: 1.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let bytes = tzq_bytes("attacks/meta", ["Ann", "Bo"], Encoding::JsonLines);
    let text = String::from_utf8(bytes).unwrap();
    let (head, rest) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(head).unwrap();
    header["meta"] = serde_json::json!({"table": "3"});
    std::fs::create_dir_all(d.join("logs")).unwrap();
    std::fs::write(d.join("logs/a.paifu.jsonl"), &text).unwrap();
    std::fs::write(d.join("logs/b.paifu.jsonl"), format!("{header}\n{rest}")).unwrap();
    let (code, out) = run(&["ingest", "logs", "--db", "m.db", "-q"], d);
    assert_eq!(code, 0, "{out}");
    assert_eq!(count(&d.join("m.db"), "SELECT COUNT(*) FROM logs"), 2, "both entries are kept");
    assert_eq!(count(&d.join("m.db"), "SELECT COUNT(*) FROM logs WHERE counted = 1"), 1);
    let (code, out) = run(&["stats", "--db", "m.db", "--player", "Ann", "--format", "json"], d);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["players"]["Ann"]["tzq"]["block"]["games"], 1, "{out}");
    let (_, shown) = run(&["show", "--db", "m.db", "--player", "Ann"], d);
    assert_eq!(shown.lines().filter(|l| l.contains("tzq")).count(), 1, "{shown}");
}

/// Whether `pid` still runs.
fn wait_gone(child: &mut std::process::Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn kill_9_during_ingest_never_leaves_an_entry_unsigned() {
    // Main: kill -9 during `paifu ingest --key` left entries without a certificate (the batch is
    // committed, then each entry is signed in a transaction of its own), and a re-run did not
    // sign them. Now: every entry stored is signed (one transaction), and a re-run signs any an
    // older Paifu left unsigned.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    keygen(d, "referee");
    let n = 400;
    games(d, "logs", n, ["Ann", "Bo"]);
    let mut landed = Vec::new();
    let mut delay = Duration::from_millis(40);
    for attempt in 0..60 {
        let db = d.join(format!("k{attempt}.db"));
        let mut child = Command::new(bin())
            .args(["ingest", "logs", "--db"])
            .arg(&db)
            .args(["--key", "referee.key", "-q"])
            .current_dir(d)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        // SIGKILL: no destructor, no flush.
        wait_gone(&mut child);
        delay += Duration::from_millis(29);
        if !db.exists() {
            continue;
        }
        let stored = try_count(&db, "SELECT COUNT(*) FROM logs").unwrap_or(0);
        if stored == 0 || stored == n as i64 {
            if stored == n as i64 {
                delay = Duration::from_millis(40 + 7 * attempt as u64);
            }
            continue;
        }
        landed.push((db.clone(), stored, count(&db, UNSIGNED)));
        if landed.len() == 4 {
            break;
        }
    }
    assert!(landed.len() >= 2, "no kill landed mid-ingest in 60 tries: {landed:?}");
    for (_, stored, unsigned) in &landed {
        assert_eq!(*unsigned, 0, "{stored} entries stored, {unsigned} without a certificate: {landed:?}");
    }
    // A re-run finishes: every log stored, every entry signed.
    let (db, _, _) = &landed[0];
    let (code, out) = run(&["ingest", "logs", "--db", db.to_str().unwrap(), "--key", "referee.key", "-q"], d);
    assert_eq!(code, 0, "{out}");
    assert_eq!((count(db, "SELECT COUNT(*) FROM logs"), count(db, UNSIGNED)), (n as i64, 0));
}

#[test]
fn a_rerun_signs_what_an_interrupted_ingest_left_unsigned() {
    // An archive as an interrupted ingest of main left it: entries stored, no certificate. A
    // re-run with the key signs them (main: "new: false", nothing signed).
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    keygen(d, "referee");
    games(d, "logs", 5, ["Ann", "Bo"]);
    assert_eq!(run(&["ingest", "logs", "--db", "u.db", "-q"], d).0, 0);
    assert_eq!(count(&d.join("u.db"), UNSIGNED), 5);
    let (code, out) = run(&["ingest", "logs", "--db", "u.db", "--key", "referee.key"], d);
    assert_eq!(code, 0, "{out}");
    assert_eq!(count(&d.join("u.db"), UNSIGNED), 0, "{out}");
    assert!(out.contains("5 of them had no certificate by this key"), "{out}");
}

/// The address `paifu serve` prints on its first line.
fn served_at(child: &mut std::process::Child) -> String {
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap()).read_line(&mut first).unwrap();
    let at = first.split("http://").nth(1).unwrap_or_else(|| panic!("{first}"));
    at.split('/').next().unwrap().to_owned()
}

/// `POST /api/upload` of `body` with a bearer token: the status (0 when the server is gone).
fn upload(addr: &str, token: &str, body: &[u8]) -> u16 {
    let Ok(mut s) = TcpStream::connect(addr) else { return 0 };
    let head = format!(
        "POST /api/upload HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    if s.write_all(head.as_bytes()).and_then(|_| s.write_all(body)).is_err() {
        return 0;
    }
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0)
}

#[test]
fn kill_9_of_the_server_mid_upload_leaves_no_acknowledged_entry_unsigned() {
    // Main: the server stored an upload, then signed it in a second transaction; killed between
    // the two, the entry stays unsigned. Now: one transaction.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    keygen(d, "server");
    let (code, out) = run(&["token", "create", "--db", "s.db", "--name", "up", "--role", "uploader"], d);
    assert_eq!(code, 0, "{out}");
    let token = out.lines().last().unwrap().trim().to_owned();
    let logs: Vec<Vec<u8>> =
        (0..3000).map(|i| tzq_bytes(&format!("attacks/serve/{i}"), ["Ann", "Bo"], Encoding::Binary)).collect();
    let mut next = 0;
    let mut kills = 0;
    let mut acknowledged = 0;
    while kills < 5 && next < logs.len() {
        let mut child = Command::new(bin())
            .args(["serve", "--db", "s.db", "--addr", "127.0.0.1:0", "--key", "server.key"])
            .current_dir(d)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let addr = served_at(&mut child);
        // Uploads from two clients at once; the server is killed while they go on.
        let started = Instant::now();
        let kill_after = Duration::from_millis(300 + 170 * kills);
        let (tx, rx) = std::sync::mpsc::channel();
        let chunk: Vec<Vec<u8>> = logs[next..(next + 400).min(logs.len())].to_vec();
        next += chunk.len();
        let halves: Vec<Vec<Vec<u8>>> = chunk.chunks(chunk.len().div_ceil(2)).map(|c| c.to_vec()).collect();
        let clients: Vec<_> = halves
            .into_iter()
            .map(|half| {
                let (addr, token, tx) = (addr.clone(), token.clone(), tx.clone());
                std::thread::spawn(move || {
                    for body in half {
                        let status = upload(&addr, &token, &body);
                        if status == 0 {
                            break;
                        }
                        let _ = tx.send(status);
                    }
                })
            })
            .collect();
        while started.elapsed() < kill_after {
            std::thread::sleep(Duration::from_millis(5));
        }
        wait_gone(&mut child);
        kills += 1;
        for c in clients {
            let _ = c.join();
        }
        drop(tx);
        acknowledged += rx.iter().filter(|s| *s == 200 || *s == 201).count();
    }
    let db = d.join("s.db");
    let stored = count(&db, "SELECT COUNT(*) FROM logs");
    assert!(stored > 0 && stored as usize >= acknowledged, "{stored} stored, {acknowledged} acknowledged");
    assert_eq!(count(&db, UNSIGNED), 0, "{stored} stored after {kills} kills");
}

#[test]
fn csv_files_neutralise_names_that_spreadsheets_would_run() {
    // Main: `=HYPERLINK(...)` and `-Bo` were written raw into stats CSV, standings.csv and
    // games.csv. Now each begins with `'`, and negative scores stay numbers.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    keygen(d, "referee");
    let evil = "=HYPERLINK(\"http://evil.example\",\"Ann\")";
    std::fs::create_dir_all(d.join("logs")).unwrap();
    for i in 0..3 {
        std::fs::write(
            d.join(format!("logs/{i}.paifu")),
            tzq_bytes(&format!("attacks/csv/{i}"), [evil, "-Bo"], Encoding::Binary),
        )
        .unwrap();
    }
    assert_eq!(run(&["ingest", "logs", "--db", "c.db", "--tournament", "Cup", "--key", "referee.key", "-q"], d).0, 0);
    let (code, csv) = run(&["stats", "--db", "c.db", "--format", "csv"], d);
    assert_eq!(code, 0, "{csv}");
    let cells = |line: &str| line.split(',').next().unwrap_or("").to_owned();
    assert!(csv.lines().skip(1).all(|l| !cells(l).starts_with(['=', '-', '+', '@'])), "{csv}");
    assert!(csv.contains("\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"Ann\"\")\",tzq,"), "{csv}");
    assert!(csv.contains("\n'-Bo,tzq,"), "{csv}");
    assert_eq!(
        run(&["report", "--tournament", "Cup", "--db", "c.db", "-o", "rep", "--key", "referee.key", "-q"], d).0,
        0
    );
    for file in ["standings.csv", "games.csv"] {
        let text = std::fs::read_to_string(d.join("rep").join(file)).unwrap();
        assert!(
            text.contains("'=HYPERLINK") && !text.contains(",=HYPERLINK") && !text.contains("\"=HYPERLINK"),
            "{text}"
        );
        assert!(!text.contains(",-Bo"), "{file}: {text}");
    }
    let standings = std::fs::read_to_string(d.join("rep/standings.csv")).unwrap();
    // A negative total score is a number, not text.
    let bo = standings.lines().find(|l| l.contains("'-Bo")).unwrap();
    let total: i64 = bo.split(',').nth(8).unwrap().parse().unwrap();
    let _ = total;
}

#[test]
fn lookalike_names_are_refused_naming_the_one_they_pass_for() {
    // Main: `Cup` + U+200B, Cyrillic `Сup`, `Aiko` + U+200B are accepted beside `Cup` and `Aiko`.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::create_dir_all(d.join("a")).unwrap();
    std::fs::write(d.join("a/g.paifu"), tzq_bytes("attacks/names/1", ["Aiko", "Bo"], Encoding::Binary)).unwrap();
    assert_eq!(run(&["ingest", "a", "--db", "n.db", "--tournament", "Cup", "-q"], d).0, 0);
    for lookalike in ["Cup\u{200B}", "\u{421}up"] {
        let (code, out) = run(&["tournament", "create", "--db", "n.db", lookalike], d);
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("\"Cup\""), "names the tournament it passes for: {out}");
        std::fs::create_dir_all(d.join("b")).unwrap();
        std::fs::write(d.join("b/g.paifu"), tzq_bytes("attacks/names/2", ["Cy", "Dee"], Encoding::Binary)).unwrap();
        let (code, out) = run(&["ingest", "b", "--db", "n.db", "--tournament", lookalike, "-q"], d);
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("\"Cup\""), "{out}");
    }
    std::fs::create_dir_all(d.join("c")).unwrap();
    std::fs::write(d.join("c/g.paifu"), tzq_bytes("attacks/names/3", ["Aiko\u{200B}", "Bo"], Encoding::Binary))
        .unwrap();
    let (code, out) = run(&["ingest", "c", "--db", "n.db", "-q"], d);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("refused, not stored") && out.contains("\"Aiko\""), "{out}");
    assert_eq!(count(&d.join("n.db"), "SELECT COUNT(*) FROM players"), 2);
    assert_eq!(count(&d.join("n.db"), "SELECT COUNT(*) FROM tournaments"), 1);
}

#[test]
fn an_invalid_log_is_kept_only_a_little_past_its_fault() {
    // Main: a log of 190,000 records with a fault at record 0 is stored whole. Now: the
    // records up to the fault and at most 64 KiB after it; the rest counted, not kept.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let game = tzq_log("attacks/long", ["Ann", "Bo"]);
    let mut long = game.clone();
    long.records.clear();
    while long.records.len() < 190_000 {
        for r in &game.records {
            let mut r = r.clone();
            r.seq = long.records.len() as u32;
            r.claim = None;
            long.records.push(r);
        }
    }
    // Record 0 played by the seat that does not owe it.
    long.records[0].seat ^= 1;
    long.records.truncate(190_000);
    std::fs::create_dir_all(d.join("logs")).unwrap();
    let bytes = log::encode(&long, Encoding::Binary);
    std::fs::write(d.join("logs/long.paifu"), &bytes).unwrap();
    let (code, out) = run(&["ingest", "logs", "--db", "l.db", "-q"], d);
    assert_eq!(code, 1, "stored, invalid: {out}");
    assert!(out.contains("record 0") || out.contains("record 1 "), "{out}");
    let db = d.join("l.db");
    let kept = count(&db, "SELECT length(bytes) FROM logs");
    eprintln!("given {} bytes, 190000 records; kept {kept} bytes", bytes.len());
    assert!(kept <= 64 * 1024 + 4096, "{kept} bytes kept of {}", bytes.len());
    assert!(count(&db, "SELECT records FROM logs") < 190_000);
    let (code, out) = run(&["show", "--db", "l.db", "--invalid"], d);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 game;"), "the stored game is listed as invalid: {out}");
    // What is kept replays to the verdict stored: the stored bytes, shown again, are invalid at
    // the same record.
    let (code, out) = run(&["show", "--db", "l.db", "--id", "1"], d);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("The log is invalid here") && (out.contains("record 0") || out.contains("record 1 ")),
        "{out}"
    );
}
