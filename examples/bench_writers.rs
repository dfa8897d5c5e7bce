//! Many writers on one archive at once (docs/web.md, "Security" and "Performance").
//!
//! cargo run --release --example bench_writers -- [PROCESSES] [UPLOADS] [CLIENTS]
//!
//! 1. PROCESSES (default 8) `paifu ingest` runs at once on one new archive, each a process of its
//!    own (this program started again, running the `paifu ingest` command), each with 100 logs of
//!    which half are another run's too: how long, the exit statuses, and that every log is stored
//!    once.
//! 2. UPLOADS (default 600) authenticated uploads from CLIENTS (default 60) clients at once to a
//!    server on 127.0.0.1, each log sent twice, into one tournament: the answers' statuses, p50
//!    and p99 of the answer times, and that every log is stored once.
//!
//! It exits with status 1 when any writer failed.

use clap::Parser as _;
use paifu_core::log::Encoding;
use paifu_recorder::archive::{Archive, Role};
use paifu_recorder::samples::tzq_bytes;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    // A child: run `paifu ingest` as the command does.
    if args.get(1).map(String::as_str) == Some("--child") {
        return paifu::run(paifu::Cli::parse_from(
            std::iter::once("paifu".to_owned()).chain(args[2..].iter().cloned()),
        ));
    }
    let num = |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default).max(1);
    let (processes, uploads, clients) = (num(1, 8), num(2, 600), num(3, 60));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let ok_ingest = ingests(dir.path(), processes);
    let ok_uploads = concurrent_uploads(dir.path(), uploads, clients);
    if ok_ingest && ok_uploads {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn logs(prefix: &str, n: usize) -> Vec<Vec<u8>> {
    (0..n).into_par_iter().map(|i| tzq_bytes(&format!("{prefix}/{i}"), ["Ann", "Bo"], Encoding::Binary)).collect()
}

/// `processes` ingests at once; true when all finished well and stored each log once.
fn ingests(dir: &Path, processes: usize) -> bool {
    let total = processes * 50;
    let all = logs("bench/writers/ingest", total);
    for w in 0..processes {
        let d = dir.join(format!("in{w}"));
        std::fs::create_dir_all(&d).expect("a folder");
        for i in (w * 50)..(w * 50 + 100) {
            let i = i % total;
            std::fs::write(d.join(format!("g{i}.paifu")), &all[i]).expect("a log file");
        }
    }
    let db = dir.join("ingest.db");
    let exe = std::env::current_exe().expect("this program");
    let t = Instant::now();
    let children: Vec<_> = (0..processes)
        .map(|w| {
            Command::new(&exe)
                .arg("--child")
                .args(["ingest", "--db"])
                .arg(&db)
                .arg(dir.join(format!("in{w}")))
                .args(["--tournament", "Busy", "--quiet"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start an ingest")
        })
        .collect();
    let mut failed = 0;
    for c in children {
        let o = c.wait_with_output().expect("an ingest ends");
        if !o.status.success() {
            failed += 1;
            eprintln!("an ingest failed: {}", String::from_utf8_lossy(&o.stderr));
        }
    }
    let took = t.elapsed();
    let a = Archive::open(&db).expect("the archive");
    let s = a.summary().expect("its summary");
    println!(
        "{processes} paifu ingest processes at once, 100 logs each ({total} different): {took:.2?}; \
         {failed} failed; {} games stored, {} valid",
        s.games, s.valid
    );
    failed == 0 && s.games as usize == total && s.valid as usize == total
}

/// One upload on its own connection: the status.
fn upload(addr: std::net::SocketAddr, token: &str, body: &[u8]) -> u16 {
    let Ok(mut s) = std::net::TcpStream::connect(addr) else { return 0 };
    let head = format!(
        "POST /api/upload?tournament=Bench HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let mut out = Vec::new();
    if s.write_all(head.as_bytes()).and_then(|_| s.write_all(body)).and_then(|_| s.read_to_end(&mut out)).is_err() {
        return 0;
    }
    String::from_utf8_lossy(&out[..out.len().min(16)]).split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0)
}

/// `uploads` uploads from `clients` clients at once; true when every answer was 200 and each
/// log was stored once.
fn concurrent_uploads(dir: &Path, uploads: usize, clients: usize) -> bool {
    let db = dir.join("uploads.db");
    let token = Archive::open(&db).and_then(|mut a| a.create_token("bench", Role::Organiser)).expect("a token").secret;
    let distinct = uploads.div_ceil(2);
    let all = logs("bench/writers/upload", distinct);
    let server = paifu_web::spawn(paifu_web::Config::new(&db), "127.0.0.1:0").expect("the server");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let t = Instant::now();
    let answers: Vec<(u16, Duration)> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..clients)
            .map(|_| {
                s.spawn(|| {
                    let mut out = vec![];
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if k >= uploads {
                            return out;
                        }
                        let t = Instant::now();
                        let status = upload(server.addr, &token, &all[k % distinct]);
                        out.push((status, t.elapsed()));
                    }
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });
    let took = t.elapsed();
    server.stop();
    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    for (s, _) in &answers {
        *statuses.entry(*s).or_default() += 1;
    }
    let mut times: Vec<Duration> = answers.iter().map(|a| a.1).collect();
    times.sort();
    let pct = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)].as_secs_f64() * 1000.0;
    let a = Archive::open(&db).expect("the archive");
    let stored = a.summary().expect("its summary").games as usize;
    println!(
        "{uploads} authenticated uploads from {clients} clients at once ({distinct} different logs, each sent twice): \
         {took:.2?}, statuses {statuses:?}, p50 {:.1} ms, p99 {:.1} ms; {stored} games stored",
        pct(0.5),
        pct(0.99)
    );
    statuses.keys().all(|&s| s == 200) && stored == distinct
}
