//! No request can starve the others (docs/web.md, "Threats and what holds"): each test performs an
//! attack on a real server over TCP, as an attacker would, and checks what holds.
//!
//! Attackers connect from other loopback addresses (127.0.0.2 and on) than the pages asked for
//! meanwhile (127.0.0.1), as they would from other machines: the server counts connections and
//! certificate checks per client address.

use paifu_core::cert::{self, CertificateBody};
use paifu_core::log::Encoding;
use paifu_recorder::archive::{prepare, Archive, Role};
use paifu_recorder::samples::tzq_bytes;
use paifu_web::{spawn, Config, Limits, Running};
use std::io::{ErrorKind, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// A server over an archive with one token, and a certificate of a small log.
struct Site {
    _dir: tempfile::TempDir,
    running: Running,
    /// A certificate (JSON) of a TZQ log this server's key signed.
    cert: String,
    /// An uploader's token.
    uploader: String,
}

impl Site {
    fn new(limits: Limits) -> Site {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("limits.db");
        let uploader = Archive::open(&db).unwrap().create_token("uma", Role::Uploader).unwrap().secret;
        let key = cert::secret_from_bytes([7; 32]);
        let p = prepare(&tzq_bytes("limits", ["Ann", "Bo"], Encoding::JsonLines));
        let body = CertificateBody::from_report(&p.report(), "2026-01-01T00:00:00Z".into(), &key.verifying_key());
        let cert = cert::sign(body.unwrap(), &key).to_json();
        let mut config = Config::new(&db);
        config.key = Some(key);
        config.max_upload = 2 << 20;
        config.max_form = 4 << 10;
        config.limits = limits;
        let running = spawn(config, "127.0.0.1:0").unwrap();
        Site { _dir: dir, running, cert, uploader }
    }

    fn addr(&self) -> SocketAddr {
        self.running.addr
    }
}

/// A connection to `to` from the loopback address `127.0.0.{host}`.
fn connect_from(host: u8, to: SocketAddr) -> TcpStream {
    use socket2::{Domain, Socket, Type};
    let s = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
    s.bind(&SocketAddr::from((Ipv4Addr::new(127, 0, 0, host), 0)).into()).unwrap();
    s.connect(&to.into()).unwrap();
    s.into()
}

/// An answer: its status, its head (lower case) and its body.
#[derive(Debug)]
struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(':').map(str::trim))
    }

    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {self:?}"))
    }
}

/// Reads one answer, to the end of its body, within `wait`; `None` when it did not come.
fn answer(s: &mut TcpStream, wait: Duration) -> Option<Answer> {
    s.set_read_timeout(Some(wait)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 16 << 10];
    loop {
        if let Some(end) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&got[..end]).to_lowercase();
            let len: usize =
                head.lines().find_map(|l| l.strip_prefix("content-length:")).map_or(0, |v| v.trim().parse().unwrap());
            if got.len() >= end + 4 + len {
                let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
                let body = String::from_utf8_lossy(&got[end + 4..end + 4 + len]).into_owned();
                return Some(Answer { status, head, body });
            }
        }
        match s.read(&mut buf) {
            Ok(0) => return None,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// A request's head for a body of `len` bytes.
fn head(method: &str, path: &str, extra: &str, len: usize) -> Vec<u8> {
    format!("{method} {path} HTTP/1.1\r\nHost: paifu\r\nConnection: close\r\n{extra}Content-Length: {len}\r\n\r\n")
        .into_bytes()
}

/// A page asked for from 127.0.0.1, as a visitor would while the attack goes on.
fn visit(to: SocketAddr, path: &str) -> Answer {
    let mut s = connect_from(1, to);
    s.write_all(&head("GET", path, "", 0)).unwrap();
    answer(&mut s, Duration::from_secs(10)).unwrap_or_else(|| panic!("{path} was not answered within 10 s"))
}

/// A certificate check's multipart form: the certificate and a log.
fn verify_form(cert: &str, log: &[u8]) -> (String, Vec<u8>) {
    let b = "limitsboundary";
    let mut body =
        format!("--{b}\r\nContent-Disposition: form-data; name=\"certificate\"\r\n\r\n{cert}\r\n").into_bytes();
    body.extend(format!("--{b}\r\nContent-Disposition: form-data; name=\"log\"; filename=\"l.jsonl\"\r\n\r\n").bytes());
    body.extend_from_slice(log);
    body.extend(format!("\r\n--{b}--\r\n").bytes());
    (format!("Content-Type: multipart/form-data; boundary={b}\r\n"), body)
}

/// A log of about `size` bytes: a TZQ header and records that replay until a fault (the kind
/// of log an attacker sends to make the server work: it must be read whole before the first
/// record is judged).
fn big_log(size: usize) -> Vec<u8> {
    let small = tzq_bytes("limits/big", ["Ann", "Bo"], Encoding::JsonLines);
    let mut log = small[..=small.iter().position(|&b| b == b'\n').unwrap()].to_vec();
    let mut seq = 0;
    while log.len() < size {
        log.extend(format!("{{\"seq\":{seq},\"seat\":0,\"action\":\"draw\"}}\n").bytes());
        seq += 1;
    }
    log
}

/// A certificate check that has sent its head and the first bytes of its body from
/// `127.0.0.{host}`, and waits.
fn held_check(host: u8, to: SocketAddr, extra: &str, body: &[u8]) -> TcpStream {
    held_check_at(host, to, "/api/verify", extra, body)
}

/// [`held_check`] at `path`.
fn held_check_at(host: u8, to: SocketAddr, path: &str, extra: &str, body: &[u8]) -> TcpStream {
    let mut s = connect_from(host, to);
    s.write_all(&head("POST", path, extra, body.len())).unwrap();
    s.write_all(&body[..16]).unwrap();
    s
}

/// Sends the rest of a held check's body and reads its answer.
fn finish(mut s: TcpStream, body: &[u8]) -> Answer {
    s.write_all(&body[16..]).unwrap();
    answer(&mut s, Duration::from_secs(60)).expect("a held check is answered once its body has come")
}

#[test]
fn certificate_checks_past_the_bound_are_refused_while_the_dashboard_answers() {
    let site = Site::new(Limits {
        anonymous_jobs: 2,
        anonymous_queue: 3,
        anonymous_per_client: 0,
        anonymous_wait: Duration::from_secs(60),
        anonymous_body: 1 << 20,
        body_timeout: Duration::from_secs(60),
        ..Limits::default()
    });
    let to = site.addr();
    let log = big_log(900 << 10);
    let (extra, body) = verify_form(&site.cert, &log);
    // Five checks of 900 KiB logs take the two jobs and the three places in the queue.
    let held: Vec<TcpStream> = (0..5).map(|i| held_check(2 + i, to, &extra, &body)).collect();
    std::thread::sleep(Duration::from_secs(1));
    // Sixteen more at once, from sixteen addresses: each is refused as soon as its head has
    // come (503, with Retry-After and the reason), none of their bodies read.
    let refused: Vec<Answer> = std::thread::scope(|scope| {
        let asked: Vec<_> = (0..16)
            .map(|i| {
                let (extra, body) = (&extra, &body);
                scope.spawn(move || {
                    let mut s = held_check(10 + i, to, extra, body);
                    answer(&mut s, Duration::from_secs(10))
                })
            })
            .collect();
        asked.into_iter().map(|h| h.join().unwrap().expect("a check past the queue is answered at once")).collect()
    });
    for a in &refused {
        assert_eq!(a.status, 503, "{a:?}");
        assert_eq!(a.header("retry-after"), Some("60"), "{a:?}");
        let j = a.json();
        assert_eq!(j["status"], 503);
        assert_eq!(j["retry_after"], 60);
        assert!(j["error"].as_str().unwrap().contains("--anonymous-queue"), "{j}");
    }
    // Meanwhile the dashboard answers.
    for path in ["/", "/api/overview", "/games", "/verify"] {
        assert_eq!(visit(to, path).status, 200, "{path}");
    }
    // The held checks go on: once their bodies have come, each is answered (the certificate is
    // of another log: 422), the queued ones after the first two.
    let answers: Vec<Answer> = std::thread::scope(|scope| {
        let done: Vec<_> = held.into_iter().map(|s| scope.spawn(|| finish(s, &body))).collect();
        done.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for a in &answers {
        assert_eq!(a.status, 422, "{a:?}");
        assert_eq!(a.json()["ok"], false);
    }
    // Past --anonymous-body: refused before its body is read.
    let mut s = held_check(2, to, &extra, &verify_form(&site.cert, &big_log(1100 << 10)).1);
    let a = answer(&mut s, Duration::from_secs(10)).expect("an oversized check is answered at once");
    assert_eq!(a.status, 413, "{a:?}");
    assert!(a.json()["error"].as_str().unwrap().contains("--anonymous-body"), "{a:?}");
}

/// A server that runs one check at a time and takes one from each address.
fn one_check_per_address() -> Site {
    Site::new(Limits {
        anonymous_jobs: 1,
        anonymous_queue: 4,
        anonymous_per_client: 1,
        anonymous_wait: Duration::from_secs(60),
        body_timeout: Duration::from_secs(60),
        ..Limits::default()
    })
}

#[test]
fn one_address_cannot_take_every_certificate_check() {
    let site = one_check_per_address();
    let to = site.addr();
    let (extra, body) = verify_form(&site.cert, &big_log(64 << 10));
    let first = held_check(2, to, &extra, &body);
    std::thread::sleep(Duration::from_millis(500));
    // A second check from the same address: 429, at once.
    let mut second = held_check(2, to, &extra, &body);
    let a = answer(&mut second, Duration::from_secs(10)).expect("a client's check past its share is answered at once");
    assert_eq!(a.status, 429, "{a:?}");
    assert_eq!(a.header("retry-after"), Some("5"), "{a:?}");
    assert!(a.json()["error"].as_str().unwrap().contains("--anonymous-per-client"), "{a:?}");
    // Another address waits its turn and is answered.
    let other = held_check(3, to, &extra, &body);
    assert_eq!(finish(first, &body).status, 422);
    assert_eq!(finish(other, &body).status, 422);
}

/// A certificate check whose path is percent-encoded (`/%76erify` is `/verify` to the router)
/// is held by the same gate: the gate classes requests by the path the router matches, not by
/// the bytes of the request's head.
#[test]
fn an_encoded_path_to_the_certificate_check_is_held_like_the_plain_one() {
    let site = one_check_per_address();
    let to = site.addr();
    let (extra, body) = verify_form(&site.cert, &big_log(64 << 10));
    let first = held_check_at(4, to, "/api/%76erify", &extra, &body);
    std::thread::sleep(Duration::from_millis(500));
    for path in ["/%76erify", "/api/%76erify", "/api/verify", "/%76%65rify"] {
        let mut again = held_check_at(4, to, path, &extra, &body);
        let a = answer(&mut again, Duration::from_secs(10))
            .unwrap_or_else(|| panic!("POST {path}: a client's check past its share is answered at once"));
        assert_eq!(a.status, 429, "{path}: {a:?}");
        assert_eq!(a.header("retry-after"), Some("5"), "{path}: {a:?}");
    }
    // The encoded path did reach the check: its answer is the check's.
    assert_eq!(finish(first, &body).status, 422);
}

/// The pages' Content-Security-Policy runs no inline script (an injected `<script>` would not
/// run), and the scripts the pages load are this server's files.
#[test]
fn pages_run_only_this_servers_script_files() {
    let site = Site::new(Limits::default());
    for path in ["/", "/live", "/verify"] {
        let a = visit(site.addr(), path);
        let csp = a.header("content-security-policy").unwrap_or_else(|| panic!("{path}: no CSP: {a:?}"));
        assert!(csp.contains("script-src 'self';"), "{path}: {csp}");
        assert!(!csp.split(';').any(|d| d.trim().starts_with("script-src") && d.contains("unsafe")), "{csp}");
        assert_eq!(a.body.matches("<script").count(), a.body.matches("<script src=\"/static/").count(), "{a:?}");
    }
    for (path, starts) in [("/static/live.js", "// The live pages"), ("/static/play.js", "\nconst B3IV")] {
        let a = visit(site.addr(), path);
        assert_eq!(a.status, 200, "{path}: {a:?}");
        assert_eq!(a.header("content-type"), Some("text/javascript; charset=utf-8"), "{path}");
        assert!(a.body.starts_with(starts), "{path}: {a:?}");
    }
}

/// Every route that takes a body, with what it needs to get that far (a token, a form's type).
fn body_routes(uploader: &str) -> Vec<(&'static str, &'static str, String)> {
    let bearer = format!("Authorization: Bearer {uploader}\r\n");
    let form = "Content-Type: application/x-www-form-urlencoded\r\n".to_owned();
    let multipart = "Content-Type: multipart/form-data; boundary=x\r\n".to_owned();
    vec![
        ("POST", "/api/upload", bearer.clone()),
        ("POST", "/api/upload", String::new()),
        ("POST", "/upload", multipart.clone()),
        ("POST", "/api/verify", multipart.clone()),
        ("POST", "/verify", multipart),
        ("POST", "/login", form.clone()),
        ("POST", "/logout", form.clone()),
        ("POST", "/games/1/certificate", form),
        ("POST", "/api/games/1/certificate", bearer.clone()),
        ("POST", "/api/tournaments", bearer.clone()),
        ("PUT", "/api/tournaments/Cup/keys", bearer),
        ("GET", "/", String::new()),
    ]
}

#[test]
fn bodies_past_their_cap_are_refused_before_they_are_read() {
    let site = Site::new(Limits::default());
    let to = site.addr();
    // A Content-Length past the route's cap and three bytes: 413 at once (the rest never sent).
    for (method, path, extra) in body_routes(&site.uploader) {
        let mut s = connect_from(2, to);
        s.write_all(&head(method, path, &extra, 300 << 20)).unwrap();
        s.write_all(b"abc").unwrap();
        let a = answer(&mut s, Duration::from_secs(5))
            .unwrap_or_else(|| panic!("{method} {path}: no answer within 5 s to a body past the cap"));
        assert_eq!(a.status, 413, "{method} {path}: {a:?}");
        assert!(a.body.contains("nothing of it was read"), "{method} {path}: {a:?}");
        assert_eq!(a.header("connection"), Some("close"), "{method} {path}: {a:?}");
        if path.starts_with("/api/") {
            assert_eq!(a.json()["status"], 413, "{method} {path}");
        } else {
            assert!(a.header("content-type").unwrap().starts_with("text/html"), "{method} {path}: {a:?}");
        }
    }
    // Chunked, no length said: counted as it comes, refused once past the cap while the client
    // is still sending, and the connection closed (what the client sends after is discarded
    // for the second the server gives a closing connection, then refused).
    let chunked = "Transfer-Encoding: chunked\r\n";
    for (path, extra) in [
        ("/api/upload", format!("Authorization: Bearer {}\r\n{chunked}", site.uploader)),
        ("/login", format!("Content-Type: application/x-www-form-urlencoded\r\n{chunked}")),
    ] {
        let mut s = connect_from(2, to);
        let head = format!("POST {path} HTTP/1.1\r\nHost: paifu\r\n{extra}\r\n");
        s.write_all(head.as_bytes()).unwrap();
        let mut sender = s.try_clone().unwrap();
        let chunk = [b"4000\r\n".as_slice(), &[b'x'; 0x4000], b"\r\n"].concat();
        let feeding = std::thread::spawn(move || {
            let began = Instant::now();
            // For 20 s at most, unless the server closes first.
            while began.elapsed() < Duration::from_secs(20) {
                if sender.write_all(&chunk).is_err() {
                    return Some(began.elapsed());
                }
            }
            None
        });
        let a = answer(&mut s, Duration::from_secs(10)).unwrap_or_else(|| panic!("{path}: no answer"));
        assert_eq!(a.status, 413, "{path}: {a:?}");
        // Refused by the guard, or by the handler's own count when that is lower.
        assert!(a.body.contains("went past") || a.body.contains("larger than"), "{path}: {a:?}");
        let closed = feeding.join().unwrap();
        assert!(closed.is_some_and(|t| t < Duration::from_secs(10)), "{path}: still reading after 20 s");
        drop(s);
    }
}

/// What a slow client does.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Slow {
    /// Sends a request's head a byte at a time.
    Head,
    /// Sends its head, then a body of the length it said, a byte at a time.
    Body,
    /// Sends its head, then a chunked body, a one-byte chunk at a time.
    Chunked,
}

#[test]
fn slow_clients_are_closed_within_the_timeouts_and_the_dashboard_answers() {
    let (head_timeout, body_timeout) = (Duration::from_secs(2), Duration::from_secs(3));
    let site = Site::new(Limits { head_timeout, body_timeout, ..Limits::default() });
    let to = site.addr();
    // Two hundred slow clients from one address, each sending a byte every 200 ms.
    let kinds = [Slow::Body, Slow::Body, Slow::Body, Slow::Chunked, Slow::Head];
    let mut slow: Vec<(Slow, TcpStream, Instant, Option<Duration>)> = (0..200)
        .map(|i| {
            let kind = kinds[i % kinds.len()];
            let mut s = connect_from(2, to);
            let start: &[u8] = match kind {
                Slow::Head => b"GET / HTTP/1.1\r\n",
                Slow::Body => b"POST /login HTTP/1.1\r\nHost: p\r\nContent-Length: 4000\r\n\r\ntoken=",
                Slow::Chunked => b"POST /login HTTP/1.1\r\nHost: p\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nt\r\n",
            };
            s.write_all(start).unwrap();
            s.set_nonblocking(true).unwrap();
            (kind, s, Instant::now(), None)
        })
        .collect();
    let began = Instant::now();
    let mut worst_page = Duration::ZERO;
    while slow.iter().any(|c| c.3.is_none()) && began.elapsed() < Duration::from_secs(20) {
        for (kind, s, opened, closed) in slow.iter_mut().filter(|c| c.3.is_none()) {
            let byte: &[u8] = match kind {
                Slow::Head => b"X",
                Slow::Body => b"a",
                Slow::Chunked => b"1\r\na\r\n",
            };
            let mut buf = [0u8; 4096];
            let gone = loop {
                match s.read(&mut buf) {
                    Ok(0) => break true,
                    Ok(_) => continue,
                    Err(e) if e.kind() == ErrorKind::WouldBlock => break false,
                    Err(_) => break true,
                }
            };
            if gone || s.write_all(byte).is_err() {
                *closed = Some(opened.elapsed());
            }
        }
        // A visitor's page, meanwhile.
        let t = Instant::now();
        assert_eq!(visit(to, "/games").status, 200);
        worst_page = worst_page.max(t.elapsed());
        std::thread::sleep(Duration::from_millis(200));
    }
    // Each slow client was closed within its timeout (and the second the server gives a closing
    // connection, and the loop's own pace).
    for kind in kinds {
        let bound = if kind == Slow::Head { head_timeout } else { body_timeout } + Duration::from_secs(3);
        let lives: Vec<_> = slow.iter().filter(|c| c.0 == kind).map(|c| c.3).collect();
        assert!(lives.iter().all(|l| l.is_some_and(|l| l <= bound)), "{kind:?}: {lives:?}, bound {bound:?}");
    }
    assert!(worst_page < Duration::from_secs(5), "the slowest page took {worst_page:?}");
}

#[test]
fn one_address_cannot_take_every_connection() {
    let site =
        Site::new(Limits { connections_per_client: 8, head_timeout: Duration::from_secs(30), ..Limits::default() });
    let to = site.addr();
    // Eight connections from 127.0.0.2 that send nothing: the most it may have.
    let idle: Vec<TcpStream> = (0..8).map(|_| connect_from(2, to)).collect();
    std::thread::sleep(Duration::from_millis(300));
    // A ninth from it: 429 as soon as its request has come, and closed.
    let mut ninth = connect_from(2, to);
    ninth.write_all(&head("GET", "/", "", 0)).unwrap();
    let a = answer(&mut ninth, Duration::from_secs(5)).expect("a connection past the cap is answered at once");
    assert_eq!(a.status, 429, "{a:?}");
    assert!(a.body.contains("--connections-per-client"), "{a:?}");
    assert_eq!(a.header("retry-after"), Some("5"), "{a:?}");
    // Others are served.
    assert_eq!(visit(to, "/").status, 200);
    // Once its connections close, the address is served again.
    drop(idle);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut s = connect_from(2, to);
        s.write_all(&head("GET", "/", "", 0)).unwrap();
        let status = answer(&mut s, Duration::from_secs(5)).map_or(0, |a| a.status);
        if status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "127.0.0.2 is still refused ({status}) after closing its connections");
        std::thread::sleep(Duration::from_millis(100));
    }
}
