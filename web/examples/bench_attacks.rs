//! The server under the attacks of docs/web.md, "Threats and what holds": the peak memory of the
//! server process and how long a dashboard page takes meanwhile.
//!
//! cargo run --release -p paifu-web --example bench_attacks -- PAIFU SCENARIO [N] [SIZE] [-- SERVE-FLAGS...]
//!
//! PAIFU is a `paifu` binary (this one, or an older build to compare with), started as
//! `PAIFU serve` on a new archive in a temporary folder, with SERVE-FLAGS after it. SCENARIO:
//!
//! - `verify N SIZE`: N clients at once each ask `POST /api/verify` to check a certificate
//!   against a log of SIZE bytes (default 48 clients, 8 MiB): a header and records that replay
//!   until a fault, which needs no token;
//! - `upload N SIZE`: N clients with an uploader's token at once each upload SIZE bytes of JSON
//!   that reads as a tenhou.net/6 record (default 1 client, 8 MiB);
//! - `slow N SECS`: N connections (default 300) from 127.0.0.2 each send a request's head and
//!   then a byte of its body every second, for SECS seconds (default 40).
//!
//! Meanwhile a visitor asks for `/games` from 127.0.0.1 every 250 ms (10 s at most each). It
//! prints the answers' statuses, the page's median and slowest time, how many slow connections
//! the server closed and when, and the server's peak resident memory (VmHWM) at the end.

use paifu_core::cert::{self, CertificateBody};
use paifu_core::log::Encoding;
use paifu_recorder::archive::prepare;
use paifu_recorder::samples::tzq_bytes;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A `paifu serve` process and the address it listens on.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(paifu: &str, db: &std::path::Path, flags: &[String]) -> Server {
        let mut child = Command::new(paifu)
            .args(["serve", "--db"])
            .arg(db)
            .args(["--addr", "127.0.0.1:0"])
            .args(flags)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start paifu serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).expect("its first line");
        // "Paifu dashboard for DB at http://ADDR/ (Ctrl-C stops it)"
        let at = line.find("http://").expect("the address in its first line") + "http://".len();
        let addr = line[at..].split('/').next().unwrap().parse().expect("an address");
        Server { child, addr }
    }

    /// The server's peak resident memory, in MiB.
    fn peak_mib(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        let kib: f64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0.0);
        kib / 1024.0
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A connection from `127.0.0.{host}`.
fn connect_from(host: u8, to: SocketAddr) -> std::io::Result<TcpStream> {
    use socket2::{Domain, Socket, Type};
    let s = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    s.bind(&SocketAddr::from((Ipv4Addr::new(127, 0, 0, host), 0)).into())?;
    s.connect(&to.into())?;
    Ok(s.into())
}

/// Sends a request and reads its answer's status (0 when none came), the connection closed by
/// the server.
fn exchange(host: u8, to: SocketAddr, request: &[u8], body: &[u8], wait: Duration) -> u16 {
    let Ok(mut s) = connect_from(host, to) else { return 0 };
    let _ = s.set_read_timeout(Some(wait));
    // The server may answer before the body is sent, and close: read whatever came.
    let _ = s.write_all(request).and_then(|()| s.write_all(body));
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out[..out.len().min(16)]).split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0)
}

/// A request's head.
fn head(path: &str, extra: &str, len: usize) -> Vec<u8> {
    format!("POST {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n{extra}Content-Length: {len}\r\n\r\n")
        .into_bytes()
}

/// A certificate check's form, with a log of `size` bytes that replays until a fault.
fn verify_body(size: usize) -> (String, Vec<u8>) {
    let small = tzq_bytes("bench/attacks", ["Ann", "Bo"], Encoding::JsonLines);
    let key = cert::secret_from_bytes([9; 32]);
    let report = prepare(&small).report();
    let body = CertificateBody::from_report(&report, "2026-01-01T00:00:00Z".into(), &key.verifying_key());
    let certificate = cert::sign(body.expect("a valid log"), &key).to_json();
    let mut log = small[..=small.iter().position(|&b| b == b'\n').unwrap()].to_vec();
    let mut seq = 0;
    while log.len() < size {
        log.extend(format!("{{\"seq\":{seq},\"seat\":0,\"action\":\"draw\"}}\n").bytes());
        seq += 1;
    }
    log.truncate(size);
    let b = "benchboundary";
    let mut form =
        format!("--{b}\r\nContent-Disposition: form-data; name=\"certificate\"\r\n\r\n{certificate}\r\n").into_bytes();
    form.extend(format!("--{b}\r\nContent-Disposition: form-data; name=\"log\"; filename=\"l\"\r\n\r\n").bytes());
    form.extend_from_slice(&log);
    form.extend(format!("\r\n--{b}--\r\n").bytes());
    (format!("Content-Type: multipart/form-data; boundary={b}\r\n"), form)
}

/// `size` bytes of JSON that read as a tenhou.net/6 record: numbers, the most values per byte.
fn record_body(size: usize) -> Vec<u8> {
    let n = size.saturating_sub(12) / 2;
    format!("{{\"log\":[[{}]]}}", vec!["0"; n.max(1)].join(",")).into_bytes()
}

/// Asks for `/games` every 250 ms until `stop`; the time of each answer (`None`: none in 10 s).
fn visitor(to: SocketAddr, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<Vec<Option<Duration>>> {
    std::thread::spawn(move || {
        let mut times = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let t = Instant::now();
            let status = exchange(
                1,
                to,
                b"GET /games HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n",
                b"",
                Duration::from_secs(10),
            );
            times.push((status == 200).then(|| t.elapsed()));
            std::thread::sleep(Duration::from_millis(250));
        }
        times
    })
}

fn report_pages(times: &[Option<Duration>]) {
    let mut ok: Vec<Duration> = times.iter().flatten().copied().collect();
    ok.sort();
    let failed = times.len() - ok.len();
    match (ok.get(ok.len() / 2), ok.last()) {
        (Some(median), Some(slowest)) => println!(
            "/games meanwhile: {} asked, {failed} not answered 200 within 10 s; median {median:.1?}, slowest {slowest:.1?}",
            times.len()
        ),
        _ => println!("/games meanwhile: {} asked, none answered", times.len()),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (ours, flags) = match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], args[i + 1..].to_vec()),
        None => (&args[..], Vec::new()),
    };
    let usage = "usage: bench_attacks PAIFU verify|upload|slow [N] [SIZE|SECS] [-- SERVE-FLAGS...]";
    let (paifu, scenario) = match ours {
        [p, s, ..] => (p.as_str(), s.as_str()),
        _ => panic!("{usage}"),
    };
    let n: Option<usize> = ours.get(2).and_then(|a| a.parse().ok());
    let size: Option<usize> = ours.get(3).and_then(|a| a.parse().ok());
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = dir.path().join("bench.db");
    let token = (scenario == "upload").then(|| {
        let out = Command::new(paifu)
            .args(["token", "create", "--db"])
            .arg(&db)
            .args(["--name", "bench", "--role", "uploader"])
            .output()
            .expect("paifu token create");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines().find(|l| l.starts_with("pft_")).expect("a token").to_owned()
    });
    let server = Server::start(paifu, &db, &flags);
    let to = server.addr;
    println!("{paifu} serve {} at {to}: {scenario}", flags.join(" "));
    let stop = Arc::new(AtomicBool::new(false));
    let pages = visitor(to, stop.clone());
    let statuses = Mutex::new(BTreeMap::<u16, usize>::new());
    let began = Instant::now();
    match scenario {
        "verify" | "upload" => {
            let clients = n.unwrap_or(if scenario == "verify" { 48 } else { 1 });
            let size = size.unwrap_or(8 << 20);
            let (request, body) = match &token {
                None => {
                    let (extra, body) = verify_body(size);
                    (head("/api/verify", &extra, body.len()), body)
                }
                Some(t) => {
                    let body = record_body(size);
                    (head("/api/upload", &format!("Authorization: Bearer {t}\r\n"), body.len()), body)
                }
            };
            println!("{clients} clients at once, {} bytes each", body.len());
            std::thread::scope(|scope| {
                for i in 0..clients {
                    let (request, body, statuses) = (&request, &body, &statuses);
                    // From 127.0.0.2 on, a few clients per address.
                    let host = 2 + (i / 4) as u8;
                    scope.spawn(move || {
                        let status = exchange(host, to, request, body, Duration::from_secs(120));
                        *statuses.lock().unwrap().entry(status).or_default() += 1;
                    });
                }
            });
            println!("all answered in {:.1?}", began.elapsed());
        }
        "slow" => {
            let clients = n.unwrap_or(300);
            let secs = size.unwrap_or(40);
            let mut slow: Vec<(TcpStream, Option<Duration>)> = (0..clients)
                .filter_map(|_| {
                    let mut s = connect_from(2, to).ok()?;
                    s.write_all(
                        b"POST /login HTTP/1.1\r\nHost: bench\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\ntoken=",
                    )
                    .ok()?;
                    s.set_nonblocking(true).ok()?;
                    Some((s, None))
                })
                .collect();
            println!("{} slow connections open, a byte each every second for {secs} s", slow.len());
            while began.elapsed() < Duration::from_secs(secs as u64) {
                for (s, closed) in slow.iter_mut().filter(|c| c.1.is_none()) {
                    let mut buf = [0u8; 4096];
                    let gone = loop {
                        match s.read(&mut buf) {
                            Ok(0) => break true,
                            Ok(n) => {
                                let status =
                                    String::from_utf8_lossy(&buf[..n.min(16)]).split(' ').nth(1).map(str::to_owned);
                                if let Some(code) = status.and_then(|c| c.parse().ok()) {
                                    *statuses.lock().unwrap().entry(code).or_default() += 1;
                                }
                            }
                            Err(e) if e.kind() == ErrorKind::WouldBlock => break false,
                            Err(_) => break true,
                        }
                    };
                    if gone || s.write_all(b"a").is_err() {
                        *closed = Some(began.elapsed());
                    }
                }
                std::thread::sleep(Duration::from_secs(1));
            }
            let mut lives: Vec<Duration> = slow.iter().filter_map(|c| c.1).collect();
            lives.sort();
            match (lives.first(), lives.last()) {
                (Some(first), Some(last)) => println!(
                    "slow connections closed by the server: {} of {}, the first after {first:.1?}, the last after {last:.1?}",
                    lives.len(),
                    slow.len()
                ),
                _ => println!("slow connections closed by the server: none of {} in {secs} s", slow.len()),
            }
        }
        _ => panic!("{usage}"),
    }
    stop.store(true, Ordering::Relaxed);
    report_pages(&pages.join().unwrap());
    println!("answers by status (0: none): {:?}", statuses.into_inner().unwrap());
    println!("server's peak resident memory: {:.0} MiB", server.peak_mib());
}
