//! Issue 24, "An imported game is one game whatever its bytes": the same game in every import
//! format, its file changed only where the game does not change (spacing, line ends, a trailing
//! space, indentation), imported and stored, is one game: one entry counts, and its players show
//! one game. On e7c92f0 each variant was a game of its own, all counted. Lookalike names are
//! refused on upload too. The command-line tests run another `paifu` with `PAIFU_UNDER_TEST`.

use super::mjlog::mjlog_of;
use crate::mcr_import::{HAND, PMN};
use paifu_core::log::Encoding;
use paifu_recorder::archive::{Archive, Role};
use paifu_recorder::import::{mjai, tenhou6};
use paifu_recorder::samples::tzq_bytes;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;

const GAME: &str = "2010081709gm-00a9-0000-fe3371ad.json";

fn real(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou").join(file);
    std::fs::read_to_string(path).unwrap()
}

fn bin() -> PathBuf {
    std::env::var_os("PAIFU_UNDER_TEST").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_paifu")), PathBuf::from)
}

fn run(args: &[&str], dir: &Path) -> (i32, String) {
    let o = Command::new(bin()).args(args).current_dir(dir).output().unwrap();
    let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(!all.contains("panicked"), "{all}");
    (o.status.code().unwrap_or(-1), all)
}

fn count(db: &Path, sql: &str) -> i64 {
    rusqlite::Connection::open(db).unwrap().query_row(sql, [], |r| r.get(0)).unwrap()
}

/// The tenhou.net/6 file three ways: as it is, with a trailing space, indented again.
fn tenhou_variants() -> Vec<Vec<u8>> {
    let text = real(GAME);
    let v: Value = serde_json::from_str(&text).unwrap();
    vec![
        text.clone().into_bytes(),
        format!("{text} ").into_bytes(),
        serde_json::to_string_pretty(&v).unwrap().into_bytes(),
    ]
}

/// Each format's variants of one game: (the `paifu import` format, the file name, the files).
fn variants() -> Vec<(&'static str, &'static str, Vec<Vec<u8>>)> {
    let text = real(GAME);
    let imp = tenhou6::import(&text, text.as_bytes()).unwrap();
    let mjlog = mjlog_of(&imp);
    // mjai without the Paifu log an export embeds: a record as another program writes it.
    let mjai_lines: Vec<Value> = mjai::export(&imp.log)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if let Some(o) = v.as_object_mut() {
                o.remove("paifu");
            }
            v
        })
        .collect();
    let mjai_plain: String = mjai_lines.iter().map(|v| format!("{v}\n")).collect();
    let mjai_spaced: String = mjai_lines.iter().map(|v| format!("{v}  \r\n")).collect();
    let crlf = |s: &str| s.replace('\n', "\r\n").into_bytes();
    let trailing = |s: &str| s.lines().map(|l| format!("{l} \n")).collect::<String>().into_bytes();
    vec![
        ("tenhou", "game.json", tenhou_variants()),
        (
            "tenhou",
            "game.xml",
            vec![
                mjlog.clone().into_bytes(),
                format!("{mjlog}\n\n").into_bytes(),
                mjlog.replace("><", ">\n<").into_bytes(),
            ],
        ),
        ("mjai", "game.jsonl", vec![mjai_plain.into_bytes(), mjai_spaced.into_bytes()]),
        ("botzone", "hands.txt", vec![HAND.as_bytes().to_vec(), crlf(HAND), format!("{HAND}\n\n\n").into_bytes()]),
        ("pmn", "hands.pmn", vec![PMN.as_bytes().to_vec(), crlf(PMN), trailing(PMN)]),
    ]
}

#[test]
fn each_import_format_gives_one_game_whatever_its_bytes() {
    // e7c92f0: "tenhou6: 3 entries, 3 counted", and so for each format. Now: 1 counted each.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let mut figures = Vec::new();
    for (i, (format, name, files)) in variants().into_iter().enumerate() {
        let db = format!("f{i}.db");
        for (j, bytes) in files.iter().enumerate() {
            let src = d.join(format!("src{i}-{j}"));
            std::fs::create_dir_all(&src).unwrap();
            std::fs::write(src.join(name), bytes).unwrap();
            let out = format!("out{i}-{j}");
            let (code, said) = run(&["import", format, src.to_str().unwrap(), "-o", &out, "-q"], d);
            assert_eq!(code, 0, "{format} variant {j}: {said}");
            let (code, said) = run(&["ingest", &out, "--db", &db, "-q"], d);
            assert_eq!(code, 0, "{format} variant {j}: {said}");
        }
        let db = d.join(&db);
        let entries = count(&db, "SELECT COUNT(*) FROM logs");
        let counted = count(&db, "SELECT COUNT(*) FROM logs WHERE counted = 1");
        // The games each player is shown with.
        let games = count(&db, "SELECT MAX(games) FROM players");
        figures.push((format!("{format} {name}"), entries, counted, games));
    }
    eprintln!("{figures:#?}");
    for (what, entries, counted, games) in &figures {
        assert!(*entries >= 2, "{what}: the variants are entries of their own: {figures:?}");
        assert_eq!((*counted, *games), (1, 1), "{what}: one game counted, one game per player: {figures:?}");
    }
}

/// A running server over a fresh archive, an uploader's and an organiser's token.
fn server() -> (tempfile::TempDir, paifu_web::Running, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("one.db");
    let mut a = Archive::open(&db).unwrap();
    let up = a.create_token("up", Role::Uploader).unwrap().secret;
    let org = a.create_token("org", Role::Organiser).unwrap().secret;
    let server = paifu_web::spawn(paifu_web::Config::new(&db), "127.0.0.1:0").unwrap();
    (dir, server, up, org)
}

fn request(server: &paifu_web::Running, head: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(server.addr).unwrap();
    let req = format!("{head}\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", server.addr, body.len());
    s.write_all(req.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default())
}

fn upload(server: &paifu_web::Running, token: &str, query: &str, bytes: &[u8]) -> (u16, Value) {
    let head = format!("POST /api/upload?{query} HTTP/1.1\r\nAuthorization: Bearer {token}");
    let (status, body) = request(server, &head, bytes);
    (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}")))
}

#[test]
fn three_uploads_of_one_tenhou_file_are_one_game() {
    // e7c92f0: the file, the file with a trailing space and the file indented again were three
    // games, all counted; their first player showed three games.
    let (_d, server, up, _) = server();
    let mut ids = Vec::new();
    for bytes in tenhou_variants() {
        let (status, v) = upload(&server, &up, "name=game.json", &bytes);
        assert_eq!(status, 200, "{v}");
        ids.push(v["stored"]["id"].as_i64().unwrap());
        assert_eq!(v["stored"]["new"], true, "{v}");
    }
    let (_, body) = request(&server, &format!("GET /api/games/{} HTTP/1.1", ids[0]), b"");
    let g: Value = serde_json::from_str(&body).unwrap();
    let entries = g["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 3, "side by side: {body}");
    assert_eq!(entries.iter().filter(|e| e["counted"] == true).count(), 1);
    let player = g["seats"][0]["player"].as_str().unwrap().to_owned();
    let (_, body) = request(&server, "GET /api/players HTTP/1.1", b"");
    let players: Value = serde_json::from_str(&body).unwrap();
    let row = players.as_array().unwrap().iter().find(|p| p["name"] == player.as_str()).unwrap();
    assert_eq!(row["games"], 1, "{player}: {body}");
}

#[test]
fn lookalike_names_are_refused_on_upload() {
    let (_d, server, up, org) = server();
    let (status, v) = upload(
        &server,
        &org,
        "name=a.paifu&tournament=Cup",
        &tzq_bytes("one/names/0", ["Aiko", "Bo"], Encoding::Binary),
    );
    assert_eq!(status, 200, "{v}");
    let (status, v) =
        upload(&server, &up, "name=b.paifu", &tzq_bytes("one/names/1", ["Aiko\u{200B}", "Bo"], Encoding::Binary));
    assert_eq!(status, 422, "{v}");
    assert!(v.to_string().contains("Aiko"), "names the player it passes for: {v}");
    for t in ["Cup%E2%80%8B", "%D0%A1up"] {
        let (status, v) = upload(
            &server,
            &org,
            &format!("name=c.paifu&tournament={t}"),
            &tzq_bytes("one/names/2", ["Cy", "Dee"], Encoding::Binary),
        );
        assert_eq!(status, 422, "{t}: {v}");
        assert!(v.to_string().contains("Cup"), "{v}");
    }
}
