//! Several `paifu serve` on one PostgreSQL archive (issue 29, docs/deploy.md "Several servers"):
//! a session opened on one server works on the other (a page that needs it, a form that carries
//! its CSRF token) and ends on both when it is closed on either or its token is revoked; a live
//! row written by one server's table shows on the other; a table opened on one server is played
//! through the other, which answers each seat's request with a redirect (307) to the host. And
//! the attacks: a guessed session id, an id used after logging out, and everything a copy of the
//! database holds, each tried as a cookie and refused.

use crate::util::{paifu, spawn_serve, stderr, stdout, Served};
use paifu_core::fair;
use paifu_recorder::archive::{pg_test, session_csrf, Archive, Role};
use paifu_recorder::samples::tzq_bytes;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The server's URL.
fn url(s: &Served) -> String {
    format!("http://{}", s.addr)
}

/// A port free now (the server binds it a moment later: its public URL must be known first).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `paifu serve --db URL --public-url http://127.0.0.1:PORT` in `dir` (its tables' folder is
/// there: each server a machine of its own), on `port` (a free one when `None`).
fn serve(dir: &Path, db: &str, key: &Path, port: Option<u16>) -> Served {
    let port = port.unwrap_or_else(free_port);
    let addr = format!("127.0.0.1:{port}");
    let public = format!("http://{addr}");
    let key = key.to_str().unwrap();
    let served = spawn_serve(
        dir,
        &["--db", db, "--addr", &addr, "--public-url", &public, "--live-delay", "0", "--no-sync", "--key", key],
    );
    assert_eq!(served.addr, addr);
    served
}

/// An answer: its status, headers (lowercase names) and body.
struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
        })
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// One request (redirects not followed); `cookie`: the session's, `body` sent as `kind`.
fn request(addr: &str, method: &str, path: &str, cookie: Option<&str>, body: Option<(&str, &str)>) -> Answer {
    let mut s = TcpStream::connect(addr).unwrap();
    let cookie = cookie.map(|c| format!("Cookie: paifu_session={c}\r\n")).unwrap_or_default();
    let (kind, body) = body.unwrap_or(("application/json", ""));
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{cookie}Content-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = Vec::new();
    // An event stream does not end: read what came within a moment.
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    Answer { status, head: head.to_owned(), body: body.to_owned() }
}

/// A seat's request to `addr`, and, when answered with a redirect, the same request where it
/// points: both answers.
fn follow(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (Answer, Option<Answer>) {
    let text = body.map(Value::to_string);
    let first = request(addr, method, path, None, text.as_deref().map(|t| ("application/json", t)));
    if first.status != 307 {
        return (first, None);
    }
    let location = first.header("location").expect("a redirect says where");
    let rest = location.strip_prefix("http://").expect("to an http URL");
    let (host, target) = rest.split_at(rest.find('/').unwrap());
    let second = request(host, method, target, None, text.as_deref().map(|t| ("application/json", t)));
    (first, Some(second))
}

/// Logs in with `token` on `addr`; the session's cookie.
fn log_in(addr: &str, token: &str) -> String {
    let a = request(
        addr,
        "POST",
        "/login",
        None,
        Some(("application/x-www-form-urlencoded", &format!("token={token}&next=/"))),
    );
    assert_eq!(a.status, 303, "{}", a.body);
    let set = a.header("set-cookie").expect("a session cookie");
    set.strip_prefix("paifu_session=").and_then(|v| v.split(';').next()).unwrap().to_owned()
}

/// The CSRF token the form of `/tables/new` carries for the session `cookie` on `addr`; `None`
/// when the page is not a logged-in organiser's.
fn csrf_on(addr: &str, cookie: &str) -> Option<String> {
    let a = request(addr, "GET", "/tables/new", Some(cookie), None);
    let at = a.body.find("name=\"csrf\" value=\"")? + "name=\"csrf\" value=\"".len();
    Some(a.body[at..at + 64].to_owned())
}

/// Signing game 1 through the dashboard's form with `cookie` and `csrf`: the status.
fn sign(addr: &str, cookie: &str, csrf: &str) -> u16 {
    let form = format!("csrf={csrf}");
    request(addr, "POST", "/games/1/certificate", Some(cookie), Some(("application/x-www-form-urlencoded", &form)))
        .status
}

/// A dump of the database (`pg_dump`, of the cluster's own version: `PAIFU_PG_BIN`, else
/// Debian's newest, else on `PATH`, as `pg_test` finds the server).
fn dump(url: &str) -> String {
    let bin = std::env::var_os("PAIFU_PG_BIN").map(std::path::PathBuf::from).or_else(|| {
        let mut v: Vec<(u32, std::path::PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
            .collect();
        v.sort();
        v.pop().map(|(_, d)| d)
    });
    let pg_dump = bin.map_or_else(|| "pg_dump".into(), |d| d.join("pg_dump"));
    let o = Command::new(pg_dump).args(["--dbname", url]).output().unwrap();
    assert!(o.status.success(), "pg_dump: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Two servers on one fresh PostgreSQL archive holding one game; the database, its folder
/// (`a/`, `b/`: each server's own; the signing key beside them), an organiser's token.
fn setup() -> (pg_test::TestDb, tempfile::TempDir, String) {
    let db = pg_test::database();
    let dir = tempfile::tempdir().unwrap();
    for sub in ["a", "b", "games"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let bytes = tzq_bytes("serve_many/1", ["Ann", "Bo"], paifu_core::log::Encoding::Binary);

    let enc = paifu_core::log::Encoding::Binary;
    std::fs::write(dir.path().join(format!("games/g1.{}", enc.extension())), bytes).unwrap();
    let o = paifu(&["ingest", "games", "--db", &db.url()], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let org = Archive::open(&db.path()).unwrap().create_token("org", Role::Organiser).unwrap().secret;
    (db, dir, org)
}

#[test]
fn a_session_opened_on_one_server_works_on_the_other_and_ends_on_both() {
    let (db, dir, org) = setup();
    let key = dir.path().join("k.key");
    let a = serve(&dir.path().join("a"), &db.url(), &key, None);
    let b = serve(&dir.path().join("b"), &db.url(), &key, None);

    // Logged in on A: B knows the session (its page shows the form, with the same CSRF token).
    let cookie = log_in(&a.addr, &org);
    let csrf = csrf_on(&b.addr, &cookie).expect("B shows the form to A's session");
    assert_eq!(csrf_on(&a.addr, &cookie).as_deref(), Some(csrf.as_str()));
    assert_eq!(csrf, session_csrf(&cookie));
    // A form posted to B with the session and its CSRF token is taken; without it, or with
    // another's, refused.
    assert_eq!(sign(&b.addr, &cookie, "0".repeat(64).as_str()), 403);
    assert_eq!(sign(&b.addr, &cookie, ""), 403);
    assert_eq!(sign(&b.addr, &cookie, &csrf), 303);

    // The attacks: a guessed id; everything a copy of the database holds, each used as a
    // cookie (the stored hash among them) and as a CSRF token: no session, no form taken.
    let guessed = "7".repeat(64);
    assert!(csrf_on(&b.addr, &guessed).is_none());
    assert_eq!(sign(&b.addr, &guessed, &session_csrf(&guessed)), 401);
    let copy = dump(&db.url());
    assert!(!copy.contains(&cookie) && !copy.contains(&csrf), "the dump holds the cookie or the CSRF token");
    let hash = blake3::hash(cookie.as_bytes()).to_hex().to_string();
    assert!(copy.contains(&hash), "the dump holds the session's hash");
    let hex64: Vec<&str> = copy.split(|c: char| !c.is_ascii_hexdigit()).filter(|w| w.len() == 64).collect();
    assert!(hex64.len() > 3, "{copy}");
    for w in &hex64 {
        assert!(csrf_on(&a.addr, w).is_none(), "the dump's {w} opens a session");
        assert_ne!(sign(&a.addr, &cookie, w), 303, "the dump's {w} is taken as the CSRF token");
    }

    // Logged out on B: A refuses the cookie (the id, taken from wherever it was seen, is dead).
    let out = request(
        &b.addr,
        "POST",
        "/logout",
        Some(&cookie),
        Some(("application/x-www-form-urlencoded", &format!("csrf={csrf}"))),
    );
    assert_eq!(out.status, 303);
    assert!(csrf_on(&a.addr, &cookie).is_none());
    assert_eq!(sign(&a.addr, &cookie, &csrf), 401);
    assert_eq!(sign(&b.addr, &cookie, &csrf), 401);

    // A token revoked: its session ends on both servers.
    let second = Archive::open(&db.path()).unwrap().create_token("org2", Role::Organiser).unwrap();
    let cookie = log_in(&b.addr, &second.secret);
    let csrf = csrf_on(&a.addr, &cookie).expect("A shows the form to B's session");
    Archive::open(&db.path()).unwrap().revoke_token(second.token.id).unwrap();
    assert_eq!(sign(&a.addr, &cookie, &csrf), 401);
    assert_eq!(sign(&b.addr, &cookie, &csrf), 401);
    assert!(csrf_on(&b.addr, &cookie).is_none());
}

/// Each person commits, then reveals, every request sent to `addr` and followed where it points.
fn sit_down_through(addr: &str, tokens: &[String], host: &str) {
    let contribution = |k: usize| [k as u8 + 21; 32];
    for (k, t) in tokens.iter().enumerate() {
        let c = fair::commit(&format!("seat {k}"), &contribution(k)).to_string();
        let (first, then) = follow(addr, "POST", &format!("/api/play/{t}/seed"), Some(&json!({ "commitment": c })));
        assert_eq!(first.status, 307, "{}", first.body);
        assert_eq!(first.header("location"), Some(format!("{host}/api/play/{t}/seed")));
        assert_eq!(then.unwrap().status, 200);
    }
    for (k, t) in tokens.iter().enumerate() {
        let v = json!({ "contribution": hex::encode(contribution(k)) });
        let (first, then) = follow(addr, "POST", &format!("/api/play/{t}/seed"), Some(&v));
        assert_eq!((first.status, then.map(|a| a.status)), (307, Some(200)));
    }
}

#[test]
fn a_table_opened_on_one_server_is_played_through_the_other() {
    let (db, dir, org) = setup();
    let key = dir.path().join("k.key");
    let a = serve(&dir.path().join("a"), &db.url(), &key, None);
    let mut s = TcpStream::connect(&a.addr).unwrap();
    let body = json!({ "game": "tzq", "games": 1, "seats": [{ "name": "Aiko" }, { "name": "Bao" }] }).to_string();
    write!(
        s,
        "POST /api/tables HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {org}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        a.addr,
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let v: Value = serde_json::from_str(out.split_once("\r\n\r\n").unwrap_or_else(|| panic!("{out:?}")).1).unwrap();
    let id = v["id"].as_i64().unwrap_or_else(|| panic!("{out}"));
    let tokens: Vec<String> = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["join"].as_str().unwrap().trim_start_matches("/play/").to_owned())
        .collect();

    // B starts after the table was opened: it does not take A's table up.
    let b = serve(&dir.path().join("b"), &db.url(), &key, None);
    let table = request(&b.addr, "GET", &format!("/api/tables/{id}"), None, None).json();
    assert_eq!(table["host"], json!(url(&a)), "{table}");

    // Each seat's request to B: 307 to the same on A, which answers it.
    let t = &tokens[0];
    for path in [format!("/api/play/{t}"), format!("/play/{t}"), format!("/api/play/{t}/events")] {
        let r = request(&b.addr, "GET", &path, None, None);
        assert_eq!(r.status, 307, "{path}: {}", r.body);
        assert_eq!(r.header("location"), Some(format!("{}{path}", url(&a))));
        assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
    }
    let (_, on_a) = follow(&b.addr, "GET", &format!("/api/play/{t}"), None);
    let seat = on_a.unwrap();
    assert_eq!((seat.status, seat.json()["table"].as_i64()), (200, Some(id)), "{}", seat.body);
    // A link that opens nothing is 404 on B as on A, not a redirect.
    assert_eq!(request(&b.addr, "GET", &format!("/api/play/pfj_{}", "0".repeat(64)), None, None).status, 404);

    // Sat down through B: the game begins on A, and its live row shows on B.
    sit_down_through(&b.addr, &tokens, &url(&a));
    let started = Instant::now();
    let live = loop {
        let l = request(&b.addr, "GET", "/api/live", None, None).json();
        if l["games"].as_array().is_some_and(|g| !g.is_empty()) {
            break l;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no live game on B: {l}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(live.to_string().contains("Aiko"), "{live}");
    let on_a_live = request(&a.addr, "GET", "/api/live", None, None).json();
    assert_eq!(live["games"], on_a_live["games"]);

    // A decision sent to B is taken by A.
    let started = Instant::now();
    let taken = 'play: loop {
        assert!(started.elapsed() < Duration::from_secs(60), "no seat was asked");
        for t in &tokens {
            let (_, now) = follow(&b.addr, "GET", &format!("/api/play/{t}"), None);
            let now = now.unwrap().json();
            if now["to_act"] == json!(true) {
                let action = now["legal"][0].as_str().unwrap().to_owned();
                let (first, then) =
                    follow(&b.addr, "POST", &format!("/api/play/{t}"), Some(&json!({ "action": action })));
                assert_eq!(first.status, 307);
                break 'play then.unwrap();
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(taken.status, 200, "{}", taken.body);

    // A gone: B still points there (the table is A's: its journal is on A's machine); A
    // started again takes the table up from its journal, and the seat answers through B again.
    let port: u16 = a.addr.rsplit(':').next().unwrap().parse().unwrap();
    let a_url = url(&a);
    drop(a);
    let r = request(&b.addr, "GET", &format!("/api/play/{t}"), None, None);
    assert_eq!((r.status, r.header("location")), (307, Some(format!("{a_url}/api/play/{t}"))));
    let _a = serve(&dir.path().join("a"), &db.url(), &key, Some(port));
    let (_, again) = follow(&b.addr, "GET", &format!("/api/play/{t}"), None);
    let again = again.unwrap();
    assert_eq!((again.status, again.json()["table"].as_i64()), (200, Some(id)), "{}", again.body);
}
