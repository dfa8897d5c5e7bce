//! Measures what a session costs a request (docs/web.md, "What needs a token").
//!
//! cargo run --release -p paifu-web --example bench_session -- [DB] [REQUESTS]
//!
//! Opens DB (default: a new SQLite file in a temporary folder; a `postgres://` URL works too),
//! makes an organiser's token, serves the archive on 127.0.0.1, logs in through `/login`, then
//! asks REQUESTS times (default 2000), one at a time on one kept-alive connection, for
//! `/tables/new` with the session's cookie (the page reads the session, then shows the form with
//! its CSRF token) and for the same page without a cookie (no session read): the median, 99th
//! percentile and slowest answer times of each, and the difference of the medians (the session's
//! cost).

use paifu_recorder::archive::{Archive, Role};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// One GET on a kept-alive connection; the status (the body is read whole and dropped).
fn get(conn: &mut BufReader<TcpStream>, path: &str, cookie: Option<&str>) -> u16 {
    let cookie = cookie.map(|c| format!("Cookie: paifu_session={c}\r\n")).unwrap_or_default();
    write!(conn.get_mut(), "GET {path} HTTP/1.1\r\nHost: bench\r\n{cookie}\r\n").expect("send");
    let mut line = String::new();
    conn.read_line(&mut line).expect("status");
    let status = line.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let mut length = 0usize;
    loop {
        line.clear();
        conn.read_line(&mut line).expect("header");
        if line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0; length];
    conn.read_exact(&mut body).expect("body");
    status
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = tempfile::tempdir().expect("temp dir");
    let db = args.next().unwrap_or_else(|| dir.path().join("bench.db").display().to_string());
    let requests: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000).max(1);
    let token = Archive::open(db.as_ref()).expect("archive").create_token("bench", Role::Organiser).expect("token");
    let mut config = paifu_web::Config::new(&db);
    config.tables.root = Some(dir.path().join("tables"));
    let server = paifu_web::spawn(config, "127.0.0.1:0").expect("serve");

    let mut s = TcpStream::connect(server.addr).expect("connect");
    let form = format!("token={}", token.secret);
    write!(
        s,
        "POST /login HTTP/1.1\r\nHost: bench\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
        form.len()
    )
    .expect("log in");
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("log-in answer");
    let cookie = answer
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: paifu_session=").or_else(|| l.strip_prefix("Set-Cookie: paifu_session="))
        })
        .and_then(|v| v.split(';').next())
        .expect("a session cookie")
        .to_owned();

    let shown = paifu_recorder::archive::shown_location(&db);
    println!("{shown}: /tables/new, {requests} requests one at a time on one connection");
    let mut conn = BufReader::new(TcpStream::connect(server.addr).expect("connect"));
    conn.get_ref().set_nodelay(true).expect("nodelay");
    let mut medians = Vec::new();
    for (what, cookie) in [("with the session", Some(cookie.as_str())), ("without a cookie", None)] {
        // Warm: the pool's connection, its prepared statements, the page cache.
        for _ in 0..50 {
            get(&mut conn, "/tables/new", cookie);
        }
        let mut times = Vec::with_capacity(requests);
        for _ in 0..requests {
            let t = Instant::now();
            assert_eq!(get(&mut conn, "/tables/new", cookie), 200);
            times.push(t.elapsed());
        }
        times.sort();
        let median = percentile(&times, 0.5);
        medians.push(median);
        println!(
            "  {what:17} median {:7.1} µs  p99 {:7.1} µs  slowest {:7.1} µs",
            median.as_secs_f64() * 1e6,
            percentile(&times, 0.99).as_secs_f64() * 1e6,
            times[times.len() - 1].as_secs_f64() * 1e6
        );
    }
    println!(
        "  the session's cost: {:.1} µs (median with minus median without)",
        (medians[0].as_secs_f64() - medians[1].as_secs_f64()) * 1e6
    );
    server.stop();
}
