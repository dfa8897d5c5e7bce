//! Measures the dashboard with a large archive (docs/web.md, "Performance").
//!
//! cargo run --release -p paifu-web --example bench_archive -- [GAMES] [DB] [CLIENTS] [REQUESTS] [STAR] [SECONDS]
//!
//! Fills DB (default /tmp/paifu-bench.db) up to GAMES games (default 100000) through the archive's
//! own API, as `paifu ingest` stores them (every log validated, its rows, counts and aggregates
//! written in the entries' transaction), 1000 to a transaction: 256 simulated TZQ games, each
//! stored under many different seatings (200 players, 50 tournaments "Cup 00".."Cup 49" of a
//! fiftieth of the games each, 1 in 50 truncated so that it is invalid), every one a different
//! game. "Cup 17" trusts a signing key, and each of its games is stored with that key's
//! certificate, so that its standings count every valid game of its 1/50th (20 000 games in a
//! million). With STAR (default 0), one player, "Star", sits in STAR of the games (every
//! GAMES/STAR-th; `1000000 ... 50000`: a player with 50 000 games in an archive of a million).
//!
//! Then serves it on 127.0.0.1 and times pages over HTTP: median and slowest of 20 requests each
//! (5 for the home, player and tournament pages), one at a time. Last, the load test: each page
//! of issue 25's list (the home page, the games list's first page and a page deep in it, a game,
//! the player with the most games, the certified tournament's standings) and a few more, each
//! asked REQUESTS times (default 2000; at most SECONDS seconds per page, default 60) by CLIENTS
//! clients at once (default 20), each client on its own kept-alive connection: the 50th and 99th
//! percentiles of the answer times, and how many answers were not 200 OK. REQUESTS 0 only fills
//! the archive.
//!
//! DB may be a PostgreSQL URL (`postgres://...`): the same fill and the same pages, measured on
//! PostgreSQL (the size printed is then the database's, `pg_database_size`).
//!
//! cargo run --release -p paifu-web --example bench_archive -- queue GAMES URL [STAR] [KEYFILE]
//!
//! Queues the same games (the same distribution, game for game) as ingest jobs instead of storing
//! them (`paifu ingest --queue` does the same for files), 1000 to a job batch with its tournament,
//! from the number of jobs already queued on (it resumes), and writes the signing key that "Cup
//! 17" trusts to KEYFILE (default /tmp/bench-referee.key) for the workers:
//! `paifu worker --db URL --key KEYFILE`. The workers certify every game with it (the direct fill
//! certifies Cup 17's only; the other tournaments trust no key, so their pages are the same).

use paifu_core::cert::{self, CertificateBody, SecretKey};
use paifu_core::log::{self, Encoding};
use paifu_recorder::archive::{prepare, Archive, Origin};
use paifu_recorder::samples::tzq_log;
use rayon::prelude::*;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// The tournament whose games are certified by a key it trusts.
const CERTIFIED: &str = "Cup 17";

/// Game `k` of the bench's archive: a base game under its own seats (200 players, Star in every
/// `every`-th game with its own numbering, so that Star's games are all different games), its
/// table number in its header, every 50th cut in half (invalid).
fn game<A: Clone>(base: &[log::Log<A>], every: usize, k: usize) -> log::Log<A> {
    let (b, p1, p2) = match every > 0 && k % every == 0 {
        true => {
            let j = k / every;
            (j % 256, None, (j / 256) % 200)
        }
        false => {
            let p1 = k % 200;
            (k % 256, Some(p1), (p1 + 1 + (k / 200) % 199) % 200)
        }
    };
    let mut l = base[b].clone();
    let first = p1.map_or_else(|| "Star".to_owned(), |p| format!("Player {p:03}"));
    l.header.seats = vec![first, format!("Player {p2:03}")];
    l.header.meta.insert("table".into(), k.to_string());
    if k % 50 == 49 {
        l.records.truncate(l.records.len() / 2);
    }
    l
}

/// The tournament of game `k` (a fiftieth of the games each, 1000 at a time).
fn tournament_of(k: usize) -> String {
    format!("Cup {:02}", (k / 1000) % 50)
}

/// `queue GAMES URL [STAR] [KEYFILE]`: the games queued as ingest jobs (see the top).
fn queue(mut args: impl Iterator<Item = String>) {
    let games: usize = args.next().and_then(|a| a.parse().ok()).expect("queue GAMES URL [STAR] [KEYFILE]");
    let db = args.next().expect("queue GAMES URL [STAR] [KEYFILE]");
    let star: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(0).min(games);
    let keyfile = args.next().unwrap_or_else(|| "/tmp/bench-referee.key".into());
    let every = games.checked_div(star).unwrap_or(0);
    let key = SecretKey::from_bytes(&[17; 32]);
    {
        // Mode 0600 (made anew): paifu refuses a private key others can read.
        let _ = std::fs::remove_file(&keyfile);
        use std::os::unix::fs::OpenOptionsExt;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&keyfile)
            .expect("write the key");
        f.write_all(cert::secret_to_pem(&key).expect("the key as PEM").as_bytes()).expect("write the key");
    }
    let mut archive = Archive::open(std::path::Path::new(&db)).expect("open the archive");
    archive.ensure_tournament(CERTIFIED, None, &[key.verifying_key()]).expect("the certified tournament");
    let c = archive.job_counts().expect("job counts");
    let have = (c.queued + c.running + c.done + c.failed) as usize;
    println!("{have} jobs queued before; queueing games {have}..{games}; the key Cup 17 trusts: {keyfile}");
    let base: Vec<_> = (0..256).into_par_iter().map(|i| tzq_log(&format!("bench/{i}"), ["a", "b"])).collect();
    let t0 = Instant::now();
    let mut i = have;
    while i < games {
        // Within one block of 1000 (one tournament).
        let n = (1000 - i % 1000).min(games - i);
        let files: Vec<(String, Vec<u8>)> = (i..i + n)
            .into_par_iter()
            .map(|k| (format!("bench/{k}.paifu"), log::encode(&game(&base, every, k), Encoding::Binary)))
            .collect();
        archive.enqueue_ingest(&files, Some(&tournament_of(i)), Origin::CommandLine).expect("queue");
        i += n;
        if i % 10_000 == 0 {
            println!("  {i} games queued ({:.0} per second)", (i - have) as f64 / t0.elapsed().as_secs_f64());
        }
    }
    println!("queued {} games in {:.1?}", games - have, t0.elapsed());
}

fn get(addr: std::net::SocketAddr, path: &str) -> (u16, usize) {
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.write_all(format!("GET {path} HTTP/1.0\r\nHost: bench\r\n\r\n").as_bytes()).expect("send");
    let mut out = Vec::new();
    s.read_to_end(&mut out).expect("read");
    let head = String::from_utf8_lossy(&out[..out.len().min(16)]).to_string();
    (head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0), out.len())
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("queue") {
        args.next();
        return queue(args);
    }
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let db = args.next().unwrap_or_else(|| "/tmp/paifu-bench.db".into());
    let clients: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20).max(1);
    let requests: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let star: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(0).min(games);
    let budget = Duration::from_secs(args.next().and_then(|a| a.parse().ok()).unwrap_or(60));
    // Star sits in every `every`-th game.
    let every = games.checked_div(star).unwrap_or(0);
    let key = SecretKey::from_bytes(&[17; 32]);
    let t0 = Instant::now();
    let mut archive = Archive::open(std::path::Path::new(&db)).expect("open the archive");
    println!("opened {db} in {:.1?} (a migration, if the archive was older, included)", t0.elapsed());
    let t0 = Instant::now();
    let have = archive.summary().expect("summary").games as usize;
    println!("counted the games in {:.1?}", t0.elapsed());
    if have < games {
        let t0 = Instant::now();
        let base: Vec<_> = (0..256).into_par_iter().map(|i| tzq_log(&format!("bench/{i}"), ["a", "b"])).collect();
        println!("simulated 256 base games in {:.1?}", t0.elapsed());
        archive.ensure_tournament(CERTIFIED, None, &[key.verifying_key()]).expect("the certified tournament");
        let t0 = Instant::now();
        let batch = 1000;
        let mut i = have;
        while i < games {
            let n = batch.min(games - i);
            let t = tournament_of(i);
            let certify = t == CERTIFIED;
            let (items, certs): (Vec<_>, Vec<_>) = (i..i + n)
                .into_par_iter()
                .map(|k| {
                    let l = game(&base, every, k);
                    let p = prepare(&log::encode(&l, Encoding::Binary));
                    let c = certify
                        .then(|| {
                            CertificateBody::from_report(
                                &p.report(),
                                "2026-01-01T00:00:00Z".into(),
                                &key.verifying_key(),
                            )
                        })
                        .flatten()
                        .map(|body| cert::sign(body, &key));
                    (p, c)
                })
                .unzip();
            let certs: Vec<_> = certs.iter().map(Option::as_ref).collect();
            archive.store_batch_certified(&items, &[], &certs, Some(&t), Origin::CommandLine).expect("store");
            i += n;
            if i % 10_000 == 0 {
                println!("  {i} games stored ({:.0} per second)", (i - have) as f64 / t0.elapsed().as_secs_f64());
            }
        }
        let secs = t0.elapsed().as_secs_f64();
        println!("ingested {} games in {secs:.1} s ({:.0} per second)", games - have, (games - have) as f64 / secs);
    }
    let games_now = archive.summary().expect("summary").games;
    match std::fs::metadata(&db) {
        Ok(m) => println!("archive {db}: {games_now} games, {:.1} MiB", m.len() as f64 / 1048576.0),
        // A PostgreSQL database: its size is `SELECT pg_database_size(current_database())`.
        Err(_) => println!("archive {db}: {games_now} games"),
    }
    drop(archive);
    if requests == 0 {
        return;
    }

    let server = paifu_web::spawn(paifu_web::Config::new(&db), "127.0.0.1:0").expect("serve");
    // A valid game in the middle (every 50th is made invalid).
    let mid = games / 2 + 1;
    let cup = CERTIFIED.replace(' ', "%20");
    let pages = [
        "/".to_owned(),
        "/games".to_owned(),
        "/games?page=1000".to_owned(),
        "/games?player=Player%20042".to_owned(),
        "/games?player=Player%20042&page=20".to_owned(),
        format!("/games?tournament={cup}"),
        "/games?verdict=invalid&game=tzq".to_owned(),
        format!("/games/{mid}"),
        format!("/games/{mid}/view?step=100"),
        format!("/api/games/{mid}"),
        "/api/games?page=500".to_owned(),
        "/players".to_owned(),
        "/tournaments".to_owned(),
        format!("/tournaments/{cup}"),
        "/players/Player%20042".to_owned(),
        "/players/Star".to_owned(),
        "/games?player=Star".to_owned(),
        format!("/games?player=Star&after={mid}"),
        format!("/games?tournament={cup}&after={mid}"),
        format!("/games?after={mid}"),
        "/players?q=play".to_owned(),
    ];
    println!("{:<42} {:>6} {:>10} {:>10} {:>9}", "page", "status", "median", "slowest", "bytes");
    for p in &pages {
        let runs = if p.starts_with("/players/") || p.starts_with("/tournaments/") || p == "/" { 5 } else { 20 };
        let mut times: Vec<Duration> = Vec::new();
        let mut last = (0, 0);
        for _ in 0..runs {
            let t = Instant::now();
            last = get(server.addr, p);
            times.push(t.elapsed());
        }
        times.sort();
        println!(
            "{:<42} {:>6} {:>8.1}ms {:>8.1}ms {:>9}",
            p,
            last.0,
            times[times.len() / 2].as_secs_f64() * 1000.0,
            times[times.len() - 1].as_secs_f64() * 1000.0,
            last.1
        );
    }
    println!(
        "\nload: {clients} clients at once, {requests} requests per page (at most {} s each), kept-alive connections",
        budget.as_secs()
    );
    println!("{:<42} {:>8} {:>8} {:>10} {:>10} {:>8}", "page", "answers", "errors", "p50", "p99", "req/s");
    let player = if star > 0 { "/players/Star" } else { "/players/Player%20042" };
    let load_pages = [
        "/".to_owned(),
        "/games".to_owned(),
        format!("/games?after={mid}"),
        format!("/games/{mid}"),
        player.to_owned(),
        format!("/tournaments/{cup}"),
        format!("/games?player=Star&after={mid}"),
        format!("/games?tournament={cup}&after={mid}"),
        "/games?verdict=invalid&game=tzq".to_owned(),
        "/api/games?page=500".to_owned(),
    ];
    for p in &load_pages {
        let (mut times, errors, wall) = load(server.addr, p, clients, requests, budget);
        times.sort();
        let pct = |q: f64| {
            times
                .get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1)))
                .map_or(f64::NAN, |t| t.as_secs_f64() * 1000.0)
        };
        println!(
            "{:<42} {:>8} {:>8} {:>8.1}ms {:>8.1}ms {:>8.0}",
            p,
            times.len(),
            errors,
            pct(0.50),
            pct(0.99),
            times.len() as f64 / wall.as_secs_f64()
        );
    }
    server.stop();
}

/// One HTTP/1.1 answer on a kept-alive connection: its status (the body is read and dropped).
fn get_kept(s: &mut std::io::BufReader<std::net::TcpStream>, path: &str) -> std::io::Result<u16> {
    use std::io::BufRead;
    s.get_mut().write_all(format!("GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n").as_bytes())?;
    let mut line = String::new();
    s.read_line(&mut line)?;
    let status = line.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let (mut length, mut chunked) = (0usize, false);
    loop {
        line.clear();
        s.read_line(&mut line)?;
        let l = line.trim_end().to_ascii_lowercase();
        if l.is_empty() {
            break;
        }
        if let Some(v) = l.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        chunked |= l.starts_with("transfer-encoding:") && l.contains("chunked");
    }
    if chunked {
        loop {
            line.clear();
            s.read_line(&mut line)?;
            let n = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
            let mut skip = vec![0u8; n + 2];
            s.read_exact(&mut skip)?;
            if n == 0 {
                break;
            }
        }
    } else {
        std::io::copy(&mut s.by_ref().take(length as u64), &mut std::io::sink())?;
    }
    Ok(status)
}

/// `requests` requests for `path` from `clients` threads at once (no new one sent after `budget`):
/// each answer's time, how many failed or were not 200, and the wall time.
fn load(
    addr: std::net::SocketAddr,
    path: &str,
    clients: usize,
    requests: usize,
    budget: Duration,
) -> (Vec<Duration>, usize, Duration) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let start = Instant::now();
    let per: Vec<(Vec<Duration>, usize)> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..clients)
            .map(|_| {
                let next = &next;
                sc.spawn(move || {
                    let (mut times, mut errors) = (Vec::new(), 0);
                    let mut conn = None;
                    while next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < requests && start.elapsed() < budget
                    {
                        let c = match conn.take() {
                            Some(c) => c,
                            None => match std::net::TcpStream::connect(addr) {
                                Ok(s) => std::io::BufReader::new(s),
                                Err(_) => {
                                    errors += 1;
                                    continue;
                                }
                            },
                        };
                        let mut c = c;
                        let t = Instant::now();
                        match get_kept(&mut c, path) {
                            Ok(200) => {
                                times.push(t.elapsed());
                                conn = Some(c);
                            }
                            Ok(_) | Err(_) => errors += 1,
                        }
                    }
                    (times, errors)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
    });
    let wall = start.elapsed();
    let errors = per.iter().map(|p| p.1).sum();
    (per.into_iter().flat_map(|p| p.0).collect(), errors, wall)
}
