//! The commands and the server on PostgreSQL (issue 29): `paifu ingest`, `stats`, `show`,
//! `tournament`, `report` and `serve` given a `postgres://` URL answer as they do on a SQLite file
//! for the same games; `paifu serve` refuses a schema it does not know on both; no message shows
//! a URL's password. The PostgreSQL is a throwaway cluster (`paifu_recorder::archive::pg_test`),
//! which fails the test, saying how to install one, where PostgreSQL is missing.

use crate::util::{http_get as get, paifu, spawn_serve, stderr, stdout, Served};
use paifu_core::log::Encoding;
use paifu_recorder::archive::pg_test;
use paifu_recorder::samples::tzq_bytes;
use std::io::BufRead;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `paifu` with `args` in `dir`, which must succeed; answers its standard output.
fn run(args: &[&str], dir: &Path) -> String {
    let o = paifu(args, dir);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}{}", stdout(&o), stderr(&o));
    stdout(&o)
}

/// A `paifu serve` process, killed when dropped.
/// `paifu serve --db db` in `dir`.
fn serve(dir: &Path, db: &str) -> Served {
    spawn_serve(dir, &["--db", db, "--addr", "127.0.0.1:0", "--key", "ref.key"])
}

/// The games of the test, in `dir/cup` (a tournament's) and `dir/more` (the archive's only).
fn write_games(dir: &Path) {
    for (folder, n) in [("cup", 4), ("more", 3)] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
        for i in 0..n {
            let (enc, seats) = match i % 2 {
                0 => (Encoding::JsonLines, ["Ann", "Bo"]),
                _ => (Encoding::Binary, ["Bo", "Cy"]),
            };
            let bytes = tzq_bytes(&format!("archive_pg/{folder}/{i}"), seats, enc);
            std::fs::write(dir.join(format!("{folder}/g{i}.{}", enc.extension())), bytes).unwrap();
        }
    }
}

/// What differs between two archives holding the same games, taken out: the archive's name as
/// given, and the times (of storing, of signing).
fn same_text(text: &str, db: &str) -> String {
    let mut text = text.replace(db, "DB");
    // A signature (128 hex digits) covers its time of signing.
    let mut from = 0;
    while let Some(at) = text[from..].find(|c: char| c.is_ascii_hexdigit()).map(|i| from + i) {
        let hex = text[at..].chars().take_while(char::is_ascii_hexdigit).count();
        if hex == 128 {
            text.replace_range(at..at + 128, "SIGNATURE");
            from = at + "SIGNATURE".len();
        } else {
            from = at + hex;
        }
    }
    // A tournament's Merkle root covers its certificates, and so their times of signing.
    for prefix in ["root ", "root\":\"", "root\": \"", "id=\"root\">"] {
        let mut from = 0;
        while let Some(at) = text[from..].find(prefix).map(|i| from + i + prefix.len()) {
            let hex = text[at..].chars().take_while(char::is_ascii_hexdigit).count();
            if hex == 64 {
                text.replace_range(at..at + 64, "ROOT");
            }
            from = at;
        }
    }
    // RFC 3339 times (certificates' `signed_at`, reports' `made_at`): 2026-01-02T03:04:05Z.
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let shape = "dddd-dd-ddTdd:dd:dd";
    while i < chars.len() {
        // RFC 3339's `T`, or the pages' space (`2026-01-02 03:04:05 UTC`).
        let fits = chars.len() - i >= shape.len()
            && shape.chars().zip(&chars[i..]).all(|(s, c)| match s {
                'd' => c.is_ascii_digit(),
                'T' => *c == 'T' || *c == ' ',
                _ => s == *c,
            });
        if fits {
            out.push_str("TIME");
            i += shape.len();
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// JSON with every field that holds a time (`added_at`, `*_at`, `*_ms`) set to 0.
fn same_json(text: &str) -> serde_json::Value {
    fn clear(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    if k.ends_with("_at") || k.ends_with("_ms") || k == "since" {
                        *x = serde_json::Value::from(0);
                    } else {
                        clear(x);
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(clear),
            _ => {}
        }
    }
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    clear(&mut v);
    v
}

/// Every answer the commands and the server give about the games of [`write_games`], stored in
/// the archive `db` from `dir`, each named.
fn answers(dir: &Path, db: &str, tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut note = |what: &str, text: String| out.push((what.to_owned(), text));
    note("ingest cup", run(&["ingest", "cup", "--db", db, "--tournament", "Cup", "--key", "ref.key"], dir));
    note("ingest more", run(&["ingest", "more", "--db", db], dir));
    // Again: nothing is stored twice.
    note("ingest again", run(&["ingest", "cup", "--db", db, "--tournament", "Cup", "--key", "ref.key"], dir));
    for args in [&["stats"][..], &["stats", "--player", "Bo"], &["stats", "--tournament", "Cup"]] {
        let text = run(&[args, &["--db", db, "--format", "json"]].concat(), dir);
        note(&args.join(" "), format!("{:#}", same_json(&text)));
    }
    note("stats (text)", run(&["stats", "--db", db], dir));
    for args in [&["show"][..], &["show", "--id", "2"], &["show", "--tournament", "Cup"], &["show", "--player", "Cy"]] {
        note(&args.join(" "), run(&[args, &["--db", db]].concat(), dir));
    }
    note("tournament list", run(&["tournament", "list", "--db", db], dir));
    let svg = format!("turns-{tag}.svg");
    run(&["plot", "turns", "-o", &svg, "--db", db], dir);
    note("plot turns", std::fs::read_to_string(dir.join(&svg)).unwrap());
    // Tokens: made (the secret differs, its line is left out), listed, revoked.
    let made = run(&["token", "create", "--db", db, "--name", "alice", "--role", "organiser"], dir);
    note("token create", made.lines().filter(|l| !l.contains("pft_")).collect::<Vec<_>>().join("\n"));
    run(&["token", "revoke", "--db", db, "1"], dir);
    note("token list", run(&["token", "list", "--db", db], dir));
    let o = paifu(&["show", "--db", db, "--player", "Bob"], dir);
    note("show --player Bob (no such player)", format!("{:?} {}", o.status.code(), stderr(&o)));
    // The tournament's report, and its check.
    let rep = format!("rep-{tag}");
    run(&["report", "--tournament", "Cup", "--db", db, "-o", &rep, "--key", "ref.key", "-q"], dir);
    note("report standings.csv", std::fs::read_to_string(dir.join(format!("{rep}/standings.csv"))).unwrap());
    // A certificate's file is named after its digest, which covers its time of signing: the
    // name's digest is left out (the same games, each with one certificate, either way).
    let mut files: Vec<String> = std::fs::read_dir(dir.join(format!("{rep}/games")))
        .unwrap()
        .map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            match name.strip_suffix(".cert.json").and_then(|n| n.rsplit_once('.')) {
                Some((game, _digest)) => format!("{game}.CERT.cert.json"),
                None => name,
            }
        })
        .collect();
    files.sort();
    note("report games", files.join("\n"));
    let manifest = format!("{rep}/manifest.json");
    let logs = format!("{rep}/games");
    note("verify tournament", run(&["verify", "tournament", &manifest, "--key", "ref.pub", "--logs", &logs], dir));
    // The server: pages and the API.
    let served = serve(dir, db);
    let addr = served.addr.clone();
    for path in ["/", "/games", "/games/2", "/players/Bo", "/tournaments/Cup", "/games?tournament=Cup"] {
        let (status, body) = get(&addr, path);
        assert_eq!(status, 200, "{tag} {path}: {body}");
        note(&format!("GET {path}"), body);
    }
    for path in ["/api/overview", "/api/games", "/api/games/2", "/api/players?q=b", "/api/tournaments/Cup"] {
        let (status, body) = get(&addr, path);
        assert_eq!(status, 200, "{tag} {path}: {body}");
        note(&format!("GET {path}"), format!("{:#}", same_json(&body)));
    }
    out.into_iter().map(|(what, text)| (what, same_text(&text, db))).collect()
}

#[test]
fn the_commands_and_the_server_answer_on_postgresql_as_on_sqlite() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    run(&["keygen", "-o", "ref"], dir);
    write_games(dir);
    let pg = pg_test::database();
    let lite = answers(dir, "a.db", "sqlite");
    let on_pg = answers(dir, &pg.url(), "postgres");
    assert_eq!(lite.len(), on_pg.len());
    for ((what, a), (_, b)) in lite.iter().zip(&on_pg) {
        assert!(!a.trim().is_empty() || what.starts_with("ingest"), "{what} answered nothing");
        assert_eq!(a, b, "{what}: SQLite's answer, then PostgreSQL's");
    }
    // The answers are about the games stored: 7 games, 4 of them the tournament's.
    let list = &on_pg.iter().find(|(w, _)| w == "tournament list").unwrap().1;
    assert!(list.contains("Cup: 4 games, 4 valid, 4 counted in the standings"), "{list}");
    let games = &on_pg.iter().find(|(w, _)| w == "GET /api/games").unwrap().1;
    assert_eq!(games.matches("\"id\":").count(), 7, "{games}");
    // The tables of a server on PostgreSQL are kept in a folder named after the database only.
    assert!(dir.join(format!("paifu-tables-{}", pg.name())).is_dir());
}

/// Runs `paifu serve --db db`, which must stop by itself (within a minute) without serving;
/// answers its exit status and what it said.
fn serve_refused(dir: &Path, db: &str) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_paifu"))
        .args(["serve", "--db", db, "--addr", "127.0.0.1:0"])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!("paifu serve --db {db} kept running: {}", stdout(&o));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    (o.status.code(), format!("{}{}", stdout(&o), stderr(&o)))
}

#[test]
fn serve_refuses_a_schema_it_does_not_know_on_both_backends() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    std::fs::write(dir.join("g.paifu"), tzq_bytes("archive_pg/schema", ["Ann", "Bo"], Encoding::Binary)).unwrap();
    let pg = pg_test::database();
    for db in ["a.db".to_owned(), pg.url()] {
        run(&["ingest", "g.paifu", "--db", &db, "-q"], dir);
        // A newer Paifu's schema.
        if db == "a.db" {
            let c = rusqlite::Connection::open(dir.join("a.db")).unwrap();
            c.execute_batch("PRAGMA user_version = 999").unwrap();
        } else {
            pg.execute("UPDATE paifu_schema SET version = 999").unwrap();
        }
        let (code, said) = serve_refused(dir, &db);
        assert_eq!(code, Some(2), "{db}: {said}");
        assert!(said.contains("was written by a newer Paifu (schema 999"), "{db}: {said}");
        assert!(!said.contains("Paifu dashboard for"), "{db}: it served: {said}");
    }
    // A PostgreSQL database whose schema table names no version Paifu has: refused as well.
    pg.execute("UPDATE paifu_schema SET version = 3").unwrap();
    let (code, said) = serve_refused(dir, &pg.url());
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("is at schema 3, and this Paifu has no PostgreSQL migration from it"), "{said}");
}

#[test]
fn serve_never_shows_a_urls_password() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    // Nothing listens on port 1, and the socket folder does not exist: the archive will not open.
    for (db, shown) in [
        ("postgres://paifu:s3cret@127.0.0.1:1/club", "postgres://paifu:***@127.0.0.1:1/club"),
        ("postgresql:///club?host=/nonexistent/pg&password=s3cret", "password=***"),
    ] {
        let (code, said) = serve_refused(dir, db);
        assert_eq!(code, Some(2), "{db}: {said}");
        assert!(said.contains(shown), "{db}: {said}");
        assert!(!said.contains("s3cret"), "the password is shown: {said}");
    }
}

/// Issue 29: the commands' messages name a PostgreSQL archive by its URL without the password
/// (`***` in its place), as `paifu serve` does; each of these messages showed it whole before.
#[test]
fn the_commands_never_show_a_urls_password() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    run(&["keygen", "-o", "ref"], dir);
    std::fs::write(dir.join("g.paifu"), tzq_bytes("archive_pg/password", ["Ann", "Bo"], Encoding::Binary)).unwrap();
    let pg = pg_test::database();
    // The throwaway cluster trusts its own socket: the password is sent and not needed.
    let url = pg.url().replacen("@localhost", ":s3cret@localhost", 1);
    assert!(url.contains(":s3cret@"), "{url}");
    let cases: [(&[&str], Option<i32>); 7] = [
        (&["token", "list", "--db", &url], Some(0)),
        (&["ingest", "g.paifu", "--db", &url, "--tournament", "Cup", "-q"], Some(0)),
        (&["tournament", "create", "--db", &url, "Cup"], Some(2)),
        (&["tournament", "trust", "--db", &url, "Nope", "--key", "ref.pub"], Some(2)),
        (&["token", "revoke", "--db", &url, "--name", "nobody"], Some(2)),
        (&["report", "--db", &url, "--tournament", "Nope", "-o", "out", "--key", "ref.key"], Some(2)),
        (&["show", "--db", &url, "--id", "999"], Some(2)),
    ];
    for (args, code) in cases {
        let o = paifu(args, dir);
        let said = format!("{}{}", stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), code, "{args:?}: {said}");
        assert!(said.contains(":***@localhost"), "{args:?} names the archive: {said}");
        assert!(!said.contains("s3cret"), "{args:?} shows the password: {said}");
    }
}

/// `paifu serve --db postgres://...` stops cleanly on Ctrl-C (SIGINT) and on SIGTERM: exit status
/// 0, no panic. Before, the server's state was dropped on a thread driving actix's runtime,
/// where closing its PostgreSQL connections panicked ("Cannot start a runtime from within a
/// runtime") and the process aborted.
#[test]
fn serve_on_postgresql_stops_cleanly_on_ctrl_c_and_sigterm() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    let pg = pg_test::database();
    for signal in ["INT", "TERM"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_paifu"))
            .args(["serve", "--db", &pg.url(), "--addr", "127.0.0.1:0"])
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line.split("http://").nth(1).and_then(|a| a.split('/').next()).unwrap_or_else(|| panic!("{line}"));
        // A page read, so that the server holds connections of its pool when it stops.
        assert_eq!(get(addr, "/api/overview").0, 200);
        let sent = Command::new("kill").arg(format!("-{signal}")).arg(child.id().to_string()).status().unwrap();
        assert!(sent.success(), "kill -{signal}");
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("paifu serve did not stop within a minute of SIG{signal}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let o = child.wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "SIG{signal}: {}: {said}", o.status);
        assert!(!said.contains("panicked"), "SIG{signal}: {said}");
    }
}
