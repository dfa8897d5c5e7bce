//! How soon a seat's move reaches the other seats' pages: the time from sending a person's
//! action (`POST /api/play/{token}`) to each other person's event stream
//! (`GET /api/play/{token}/events`, server-sent events: the update as the page receives it,
//! its drawing included) delivering the position after it.
//!
//! cargo run --release -p paifu-web --example bench_push -- [MOVES] [GAME]
//!
//! A server is started in this process on a new archive in a temporary folder; a table of
//! people only is opened (GAME: `riichi`, East only, four people, by default; or `tzq`, two),
//! every seat listens to its event stream on a connection of its own, and one client plays
//! every seat's decisions in turn (a win when it may, else a pass, else the first legal action)
//! until MOVES moves (default 2000) are made, over as many games as that takes. Each move's
//! figure is the time until the *last* other seat has its update (the worst of them); the
//! program prints the median, the 90th and 99th percentiles and the slowest, and the same for
//! the seat's own answer (`200`). The records are synced to the disk as `paifu serve` syncs them.

use paifu_recorder::archive::{Archive, Role};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// One request on a connection of its own: the status and the body as JSON.
fn call(addr: SocketAddr, method: &str, path: &str, auth: Option<&str>, body: Option<&Value>) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_nodelay(true).ok();
    let auth = auth.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut out = Vec::new();
    s.read_to_end(&mut out).expect("answer");
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// One update a seat's stream delivered: which seat, when, and what it said.
struct Update {
    seat: usize,
    at: Instant,
    seat_now: Value,
}

/// Reads seat `seat`'s event stream, sending every update it delivers.
fn listen(addr: SocketAddr, token: String, seat: usize, tx: mpsc::Sender<Update>) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_nodelay(true).ok();
    write!(s, "GET /api/play/{token}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n").unwrap();
    let mut r = BufReader::new(s);
    let mut line = String::new();
    // The answer's head, then the body in chunks ("SIZE\r\n" lines between the data lines).
    loop {
        line.clear();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if let Some(data) = line.strip_prefix("data: ") {
            let at = Instant::now();
            let Ok(seat_now) = serde_json::from_str::<Value>(data.trim_end()) else { continue };
            if tx.send(Update { seat, at, seat_now }).is_err() {
                return;
            }
        }
    }
}

/// A win when the seat may, else a pass, else the first legal action.
fn pick(legal: &[Value]) -> String {
    let legal: Vec<&str> = legal.iter().filter_map(Value::as_str).collect();
    let win = ["tsumo", "ron", "win", "mahjong"];
    legal
        .iter()
        .find(|a| win.iter().any(|w| a.starts_with(w)))
        .or_else(|| legal.iter().find(|a| **a == "pass"))
        .or_else(|| legal.first())
        .map(|a| (*a).to_owned())
        .expect("a legal action")
}

fn percentiles(name: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{name}: {} moves; median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, slowest {:.2} ms",
        ms.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        ms[ms.len() - 1]
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let moves: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let game = args.get(1).map_or("riichi", String::as_str);
    let (ruleset, people) = match game {
        "tzq" => ("standard", 2),
        "riichi" => ("tonpuu", 4),
        other => panic!("GAME is riichi or tzq, not {other}"),
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = dir.path().join("bench.db");
    let org = Archive::open(&db).unwrap().create_token("org", Role::Organiser).unwrap().secret;
    let server = paifu_web::spawn(paifu_web::Config::new(&db), "127.0.0.1:0").expect("the server starts");
    let addr = server.addr;
    let seats: Vec<Value> = (0..people).map(|k| json!({ "name": format!("P{k}") })).collect();
    let request = json!({ "game": game, "ruleset": ruleset, "games": 64, "seats": seats });
    let (status, opened) = call(addr, "POST", "/api/tables", Some(&org), Some(&request));
    assert_eq!(status, 201, "{opened}");
    let tokens: Vec<String> = opened["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["join"].as_str().unwrap().trim_start_matches("/play/").to_owned())
        .collect();
    let (tx, rx) = mpsc::channel();
    for (k, t) in tokens.iter().enumerate() {
        let (t, tx) = (t.clone(), tx.clone());
        std::thread::spawn(move || listen(addr, t, k, tx));
    }
    // Each seat's share of the seed: committed, then revealed.
    let share = |k: usize| [k as u8 + 1; 32];
    for (k, t) in tokens.iter().enumerate() {
        let c = paifu_core::fair::commit(&format!("seat {k}"), &share(k)).to_string();
        assert_eq!(call(addr, "POST", &format!("/api/play/{t}/seed"), None, Some(&json!({ "commitment": c }))).0, 200);
    }
    for (k, t) in tokens.iter().enumerate() {
        let v = json!({ "contribution": hex::encode(share(k)) });
        assert_eq!(call(addr, "POST", &format!("/api/play/{t}/seed"), None, Some(&v)).0, 200);
    }
    let mut latest: Vec<u64> = vec![0; people];
    let (mut pushed, mut answered) = (Vec::with_capacity(moves), Vec::with_capacity(moves));
    let started = Instant::now();
    while pushed.len() < moves {
        // Where every seat is now, as the server says; with people only nothing moves until the
        // seat asked answers. Every stream is read up to it before the move is timed.
        let now: Vec<Value> =
            tokens.iter().map(|t| call(addr, "GET", &format!("/api/play/{t}"), None, None).1).collect();
        assert!(now.iter().all(|n| n["state"] != "ended"), "the table's games are over: give fewer MOVES");
        for (k, n) in now.iter().enumerate() {
            let want = n["version"].as_u64().unwrap_or(0);
            while latest[k] < want {
                let u = rx.recv_timeout(Duration::from_secs(30)).expect("an update within 30 s");
                latest[u.seat] = latest[u.seat].max(u.seat_now["version"].as_u64().unwrap_or(0));
            }
        }
        let Some(k) = (0..people).find(|&k| now[k]["to_act"] == json!(true)) else {
            std::thread::sleep(Duration::from_millis(1));
            continue;
        };
        let action = pick(now[k]["legal"].as_array().unwrap());
        let before = latest.clone();
        let sent = Instant::now();
        let (status, v) =
            call(addr, "POST", &format!("/api/play/{}", tokens[k]), None, Some(&json!({ "action": action })));
        let answer = sent.elapsed();
        assert_eq!(status, 200, "{action}: {v}");
        // Every other seat's next update is the position after the move.
        let mut waiting: Vec<usize> = (0..people).filter(|&s| s != k).collect();
        let mut last = sent;
        while !waiting.is_empty() {
            let u = rx.recv_timeout(Duration::from_secs(30)).expect("an update within 30 s");
            let v = u.seat_now["version"].as_u64().unwrap_or(0);
            if v > before[u.seat] {
                if let Some(i) = waiting.iter().position(|&s| s == u.seat) {
                    waiting.remove(i);
                    last = last.max(u.at);
                }
            }
            latest[u.seat] = latest[u.seat].max(v);
        }
        pushed.push((last - sent).as_secs_f64() * 1000.0);
        answered.push(answer.as_secs_f64() * 1000.0);
    }
    let secs = started.elapsed().as_secs_f64();
    println!("{game}, {people} people, {moves} moves in {secs:.1} s");
    percentiles("pushed to every other seat", pushed);
    percentiles("the seat's own answer (200)", answered);
    server.stop();
}
