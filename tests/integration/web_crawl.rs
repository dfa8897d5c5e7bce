//! Every link of the dashboard answers: a crawl from `/` over an archive holding a game of each
//! of the five games (one certified, one not), a tournament and a player, following every
//! `href` and `src` of every page, and answering 200 (or a redirect to a page that does).
//! Pages of the viewer are fetched but their step links not followed further (every step of
//! every game would be tens of thousands of pages).

use paifu_core::log::Encoding;
use paifu_recorder::archive::Archive;
use std::collections::{BTreeSet, VecDeque};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;

/// An archive with one game of each of the five games in one tournament: the riichi game
/// certified by the key answered (the tournament trusts it; serve with it), the others not.
pub(crate) fn five_games(db: &Path) -> (Vec<i64>, paifu_core::cert::SecretKey) {
    use paifu_core::{hungarian::Hungarian, mcr::Mcr, riichi::Riichi, tayu::Tayu, tzq::Tzq};
    use paifu_recorder::samples::game_bytes;
    let four = ["Aiko", "Bence", "Chen", "Dani"];
    let logs = [
        game_bytes::<Tzq>("standard", "crawl/tzq", &four[..2], Encoding::Binary).unwrap(),
        game_bytes::<Riichi>("standard", "crawl/riichi", &four, Encoding::Binary).unwrap(),
        game_bytes::<Mcr>("standard", "crawl/mcr", &four, Encoding::Binary).unwrap(),
        game_bytes::<Hungarian>("standard", "crawl/hungarian", &four, Encoding::Binary).unwrap(),
        game_bytes::<Tayu>("standard", "crawl/tayu", &four[..3], Encoding::Binary).unwrap(),
    ];
    let key = paifu_core::cert::SecretKey::from_bytes(&[7; 32]);
    let mut a = Archive::open(db).unwrap();
    a.ensure_tournament("Crawl Cup", None, &[key.verifying_key()]).unwrap();
    let mut ids = Vec::new();
    for (i, bytes) in logs.iter().enumerate() {
        let stored = a.ingest_bytes(bytes, None, Some("Crawl Cup")).unwrap();
        assert!(stored.valid, "game {i}");
        if i == 1 {
            let report = paifu_core::replay::validate_bytes(bytes);
            let body = paifu_core::cert::CertificateBody::from_report(
                &report,
                "2026-11-01T10:00:00Z".into(),
                &key.verifying_key(),
            )
            .unwrap();
            a.add_certificate(stored.id, &paifu_core::cert::sign(body, &key)).unwrap();
        }
        ids.push(stored.id);
    }
    (ids, key)
}

/// One GET over HTTP/1.1: the status, the `Location` header and the body.
pub(crate) fn get(addr: std::net::SocketAddr, path: &str) -> (u16, Option<String>, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(std::time::Duration::from_secs(30))).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: text/html\r\n\r\n").unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("an answer");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let location =
        head.lines().find(|l| l.to_ascii_lowercase().starts_with("location:")).map(|l| l[9..].trim().to_owned());
    let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
    (status, location, if chunked { unchunk(body) } else { body.to_owned() })
}

/// A chunked body put together.
fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// The links of a page: every `href="..."` and `src="..."`, as paths of this server (others,
/// fragments and `mailto:` left out), resolved against `from`.
fn links(from: &str, html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        for part in html.split(attr).skip(1) {
            let Some(end) = part.find('"') else { continue };
            let link = part[..end].replace("&amp;", "&");
            let link = link.split('#').next().unwrap_or("").to_owned();
            if link.is_empty() || link.contains("://") || link.starts_with("mailto:") || link.starts_with("data:") {
                continue;
            }
            let path = if link.starts_with('/') {
                link
            } else if link.starts_with('?') {
                format!("{}{link}", from.split('?').next().unwrap_or(from))
            } else {
                let dir = from.split('?').next().unwrap_or(from);
                format!("{}/{link}", &dir[..dir.rfind('/').unwrap_or(0)])
            };
            out.push(path);
        }
    }
    out
}

#[test]
fn every_link_from_the_overview_answers() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crawl.db");
    let (ids, key) = five_games(&db);
    let mut config = paifu_web::Config::new(&db);
    config.key = Some(key);
    let server = paifu_web::spawn(config, "127.0.0.1:0").expect("the server starts");
    let addr = server.addr;
    let mut seen = BTreeSet::from(["/".to_owned()]);
    let mut queue = VecDeque::from(["/".to_owned()]);
    let mut bad = Vec::new();
    let mut pages = 0;
    while let Some(path) = queue.pop_front() {
        pages += 1;
        assert!(pages < 5000, "the crawl does not end");
        let (mut status, mut location, mut body) = get(addr, &path);
        let mut hops = 0;
        while (300..400).contains(&status) && hops < 5 {
            let Some(to) = location.take() else { break };
            (status, location, body) = get(addr, &to);
            hops += 1;
        }
        if status != 200 {
            bad.push(format!("{path}: {status}"));
            continue;
        }
        // The JSON and the files are answered but not followed further; from a step of the
        // viewer, every link but the other steps.
        if path.starts_with("/api/") || path.ends_with("/log") || path.ends_with("/certificate") {
            continue;
        }
        let viewer = path.contains("/view");
        for l in links(&path, &body).into_iter().filter(|l| !viewer || !(l.contains("/view?") || l.ends_with("/view")))
        {
            if seen.insert(l.clone()) {
                queue.push_back(l);
            }
        }
    }
    server.stop();
    assert!(bad.is_empty(), "links that do not answer 200: {bad:#?}");
    // The crawl reached every game, its viewer and the tournament.
    for id in ids {
        assert!(seen.contains(&format!("/games/{id}")) && seen.contains(&format!("/games/{id}/view")), "game {id}");
    }
    assert!(seen.contains("/tournaments/Crawl%20Cup"), "{seen:?}");
    assert!(seen.contains("/static/viewer.js"), "the viewer's script is linked and served");
    assert!(pages > 40, "{pages} pages");
}
