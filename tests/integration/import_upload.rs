//! Uploads by content (issue 15, item 3): `POST /api/upload` and the dashboard's upload form
//! take a Paifu log, tenhou.net/6 JSON, mjlog XML and mjai JSON Lines, whatever the file is
//! called, and import the records as `paifu import` does; a file that is none of them is refused
//! with what was tried. Over HTTP, against the server `paifu serve` runs.

use super::mjlog::mjlog_of;
use super::real;
use paifu_core::log::{self, Encoding};
use paifu_recorder::archive::{Archive, Role};
use paifu_recorder::import::{mjai, tenhou6};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;

const GAME: &str = "2020052700gm-00a9-0000-75a4695c.json";

/// A running server over a fresh archive, and an uploader's token.
fn server() -> (tempfile::TempDir, paifu_web::Running, String) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("upload.db");
    let token = Archive::open(&db).unwrap().create_token("uploader", Role::Uploader).unwrap().secret;
    let mut config = paifu_web::Config::new(&db);
    config.max_upload = 1 << 20;
    let server = paifu_web::spawn(config, "127.0.0.1:0").unwrap();
    (dir, server, token)
}

/// One HTTP/1.1 request: the status and the body.
fn request(server: &paifu_web::Running, head: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(server.addr).unwrap();
    let req = format!("{head}\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", server.addr, body.len());
    s.write_all(req.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
    (status, body)
}

fn upload(server: &paifu_web::Running, token: &str, name: &str, bytes: &[u8]) -> (u16, Value) {
    let head = format!("POST /api/upload?name={name} HTTP/1.1\r\nAuthorization: Bearer {token}");
    let (status, body) = request(server, &head, bytes);
    (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}")))
}

/// The game's log as stored: its digest through `/api/games/N`.
fn stored_game(server: &paifu_web::Running, id: i64) -> Value {
    let (status, body) = request(server, &format!("GET /api/games/{id} HTTP/1.1"), b"");
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

#[test]
fn each_format_is_recognised_by_its_content_and_imported_as_paifu_import_does() {
    let (_dir, server, token) = server();
    let text = real(GAME);
    let imp = tenhou6::import(&text, text.as_bytes()).unwrap();
    let mjai_text = mjai::export(&imp.log).unwrap();
    // A record without the Paifu log an export embeds: imported as a new game, as from Tenhou.
    let mjai_plain: String = mjai_text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if let Some(o) = v.as_object_mut() {
                o.remove("paifu");
            }
            format!("{v}\n")
        })
        .collect();
    let mjlog = mjlog_of(&imp);
    let paifu = log::encode(&imp.log, Encoding::JsonLines);
    // Every file named as something it is not: detection is by content.
    let cases: [(&str, &[u8], &str); 4] = [
        ("tenhou", text.as_bytes(), "game.mjson"),
        ("mjai", mjai_plain.as_bytes(), "game.json"),
        ("mjlog", mjlog.as_bytes(), "game.paifu.jsonl"),
        ("paifu", &paifu, "game.xml"),
    ];
    let mut ids = Vec::new();
    for (what, bytes, name) in cases {
        let (status, v) = upload(&server, &token, name, bytes);
        assert_eq!(status, 200, "{what}: {v}");
        assert_eq!(v["stored"]["valid"], true, "{what}: {v}");
        assert_eq!(v["game"], "riichi", "{what}: {v}");
        assert_eq!(v["players"], serde_json::json!(["A", "B", "C", "D"]), "{what}: {v}");
        let id = v["stored"]["id"].as_i64().unwrap();
        let g = stored_game(&server, id);
        assert_eq!(g["valid"], true, "{what}: {g}");
        ids.push((what, id, g));
    }
    // The Tenhou upload is the very log `paifu import` makes (same digest as the Paifu upload,
    // stored once); mjai and mjlog are the same game from other sources.
    let id_of = |w: &str| ids.iter().find(|(x, _, _)| *x == w).map(|(_, id, _)| *id).unwrap();
    assert_eq!(id_of("tenhou"), id_of("paifu"), "{ids:?}");
    for (w, _, g) in &ids {
        let want = match *w {
            "paifu" | "tenhou" => "tenhou6",
            other => other,
        };
        assert_eq!(g["header"]["source"]["format"], want, "{w}");
    }
    // An export that embeds its Paifu log gives that very log back.
    let (status, v) = upload(&server, &token, "export.txt", mjai_text.as_bytes());
    assert_eq!((status, v["stored"]["id"].as_i64()), (200, Some(id_of("tenhou"))), "{v}");
}

#[test]
fn what_cannot_be_imported_is_refused_naming_the_format_and_the_record_at_fault() {
    let (_dir, server, token) = server();
    let text = real(GAME);
    let mut bad: Value = serde_json::from_str(&text).unwrap();
    bad["log"][1][1][2] = serde_json::json!(16300.5);
    let mut lines: Vec<String> = mjai::export(&tenhou6::import(&text, text.as_bytes()).unwrap().log)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("paifu");
            v.to_string()
        })
        .collect();
    let dahai = lines.iter().position(|l| l.contains("\"dahai\"")).unwrap();
    lines[dahai] = lines[dahai]
        .replace("\"tsumogiri\":false", "\"tsumogiri\":\"yes\"")
        .replace("\"tsumogiri\":true", "\"tsumogiri\":\"yes\"");
    let mjai_bad = lines.join("\n");
    let dahai_line = dahai + 1;
    let cases: Vec<(Vec<u8>, String)> = vec![
        (
            bad.to_string().into_bytes(),
            "read as tenhou.net/6 JSON: round East 2, 1 honba, log[1][1][2]: expected an integer, found 16300.5".into(),
        ),
        (
            mjai_bad.into_bytes(),
            format!("read as mjai JSON Lines: round East 1, 0 honba, line {dahai_line}: dahai: \"tsumogiri\" is not true or false"),
        ),
        (b"<mjloggm ver=\"2.3\"><GO/></mjloggm>".to_vec(), "read as Tenhou mjlog XML:".into()),
        (
            b"hello, this is a note".to_vec(),
            "nor a tenhou.net/6, mjlog or mjai game record: its first line is not JSON nor XML".into(),
        ),
        (b"[{\"file\": \"a.json\"}]".to_vec(), "no \"log\"".into()),
        (b"<html><body>a page</body></html>".to_vec(), "XML without <mjloggm>".into()),
    ];
    for (bytes, needle) in cases {
        let (status, v) = upload(&server, &token, "game.json", &bytes);
        assert_eq!(status, 422, "{needle}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(&needle), "{needle}: {e}");
    }
    // Past `paifu import`'s limit: refused by its size.
    let big = [text.trim_end().trim_end_matches('}'), ",\"pad\":\"", &"x".repeat(600 << 10), "\"}"].concat();
    let (status, v) = upload(&server, &token, "big.json", big.as_bytes());
    assert_eq!(status, 413, "{v}");
    assert!(v["error"].as_str().unwrap().contains("read as tenhou.net/6 JSON: the file is"), "{v}");
    // Nothing was stored.
    let (_, body) = request(&server, "GET /api/games HTTP/1.1", b"");
    let games: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(games["games"]["total"], 0, "{games}");
}

/// The dashboard's form (`POST /upload`, multipart, the file in `log`) takes the same files and
/// answers with the same errors.
#[test]
fn the_upload_form_takes_game_records_too() {
    let (_dir, server, token) = server();
    let text = real(GAME);
    let boundary = "paifu-upload-boundary";
    let form = |name: &str, bytes: &[u8]| {
        let mut b = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"log\"; filename=\"{name}\"\r\nContent-Type: \
             application/octet-stream\r\n\r\n"
        )
        .into_bytes();
        b.extend_from_slice(bytes);
        b.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        b
    };
    let head = format!(
        "POST /upload HTTP/1.1\r\nAuthorization: Bearer {token}\r\nContent-Type: multipart/form-data; boundary={boundary}"
    );
    let (status, page) = request(&server, &head, &form("download.txt", text.as_bytes()));
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Stored as game #1") && page.contains("players: "), "{page}");
    let (status, page) = request(&server, &head, &form("notes.json", b"hello"));
    assert_eq!(status, 422, "{page}");
    assert!(page.contains("nor a tenhou.net/6, mjlog or mjai game record"), "{page}");
}
