//! `paifu report --tournament` and `paifu verify tournament`: the published report, its signed
//! manifest, and every way a published tournament can differ from what was signed (issue 16).

use crate::util::{paifu, riichi_game, stderr, stdout};
use paifu_core::cert;
use paifu_core::log::{encode, Encoding};
use paifu_core::manifest::{root_of, Manifest};
use paifu_recorder::archive::Archive;
use paifu_recorder::samples::tzq_log as tzq_game;
use std::path::Path;

/// An archive `a.db` in `p` with the tournament "Cup": four TZQ games and one riichi game signed
/// by `ref`, one truncated TZQ game (invalid, certified invalid); keys `ref` and `other`.
fn cup(p: &Path) {
    for k in ["ref", "other"] {
        assert_eq!(paifu(&["keygen", "-o", k], p).status.code(), Some(0));
    }
    std::fs::create_dir(p.join("in")).unwrap();
    let names = [["Ann", "Bo"], ["Bo", "Cy"], ["Cy", "Ann"], ["Ann", "Bo"]];
    for (i, n) in names.iter().enumerate() {
        std::fs::write(
            p.join(format!("in/t{i}.paifu")),
            encode(&tzq_game(&format!("report/{i}"), *n), Encoding::Binary),
        )
        .unwrap();
    }
    let mut bad = tzq_game("report/bad", ["Ann", "Cy"]);
    bad.records.truncate(bad.records.len() / 2);
    std::fs::write(p.join("in/bad.paifu.jsonl"), encode(&bad, Encoding::JsonLines)).unwrap();
    std::fs::write(p.join("in/r0.paifu"), encode(&riichi_game("report", 0), Encoding::Binary)).unwrap();
    let o = paifu(&["ingest", "in", "--db", "a.db", "--tournament", "Cup", "--key", "ref.key", "-q"], p);
    assert_eq!(o.status.code(), Some(1), "one log is invalid: {}", stderr(&o));
}

fn report(p: &Path, out: &str) -> std::process::Output {
    paifu(&["report", "--tournament", "Cup", "--db", "a.db", "-o", out, "--key", "ref.key", "-q"], p)
}

fn verify(p: &Path, dir: &str, key: &str) -> (Option<i32>, String) {
    let o = paifu(
        &["verify", "tournament", &format!("{dir}/manifest.json"), "--key", key, "--logs", &format!("{dir}/games")],
        p,
    );
    (o.status.code(), stdout(&o) + &stderr(&o))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.join("games")).unwrap();
    for f in ["manifest.json", "index.html"] {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
    for e in std::fs::read_dir(from.join("games")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join("games").join(e.file_name())).unwrap();
    }
}

fn manifest(p: &Path, dir: &str) -> Manifest {
    Manifest::from_json(&std::fs::read_to_string(p.join(dir).join("manifest.json")).unwrap()).unwrap()
}

/// Signs `m` again with `ref` after a change, its root recomputed: the organiser's own word.
fn resign(p: &Path, dir: &str, mut m: Manifest) {
    let key = cert::secret_from_pem(&std::fs::read_to_string(p.join("ref.key")).unwrap()).unwrap();
    m.manifest.root = root_of(&m.manifest.games);
    std::fs::write(p.join(dir).join("manifest.json"), m.manifest.sign(&key).to_json()).unwrap();
}

#[test]
fn the_report_publishes_every_game_and_verify_finds_the_tournament_as_signed() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    cup(p);
    let o = report(p, "out");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let m = manifest(p, "out");
    let published = Archive::open(&p.join("a.db")).unwrap().published("Cup").unwrap().unwrap();
    // The manifest lists what the archive holds, under the root the dashboard shows.
    assert_eq!(m.manifest.root, published.root);
    assert!(stdout(&o).contains(&published.root.to_hex()), "{}", stdout(&o));
    assert_eq!(m.manifest.games.len(), 6);
    assert_eq!(m.manifest.games.iter().filter(|g| g.counted).count(), 5);
    assert_eq!(m.manifest.standings, published.standing_lines());
    assert!(m.manifest.standings.iter().any(|l| l.game == "riichi" && l.points.is_some()));
    let bad = m.manifest.games.iter().find(|g| !g.counted).unwrap();
    assert_eq!((bad.verdict.verdict.as_str(), bad.verdict.fault.as_deref()), ("invalid", Some("truncated")));
    for g in &m.manifest.games {
        let bytes = std::fs::read(p.join("out/games").join(&g.file)).unwrap();
        assert_eq!(paifu_recorder::archive::identity_of(&bytes), g.blake3, "{}", g.file);
        assert_eq!(g.certificates.len(), 1, "every game certified by ref: {}", g.file);
        assert!(p.join("out/games").join(&g.certificates[0].file).is_file());
    }
    // The page and the tables.
    let html = std::fs::read_to_string(p.join("out/index.html")).unwrap();
    assert!(html.contains(&format!("<code id=\"root\">{}</code>", m.manifest.root)));
    assert!(html.contains("invalid: <code>truncated</code>") && html.contains("<svg"), "verdicts and charts");
    // How the riichi table counts its points, from its games' options.
    let terms = "start 25000, return 30000, oka +20 to the first, uma +20/+10/-10/-20";
    assert_eq!(published.terms.values().collect::<Vec<_>>(), [&vec![terms.to_owned()]]);
    assert!(html.contains(&format!("Points here: {terms}.")), "{html}");
    let standings = std::fs::read_to_string(p.join("out/standings.csv")).unwrap();
    assert_eq!(standings.lines().count(), 1 + m.manifest.standings.len());
    let games = std::fs::read_to_string(p.join("out/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 6);
    // Checked as signed, also after writing the report again into the same folder.
    let (code, out) = verify(p, "out", "ref.pub");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("tournament OK: \"Cup\", 6 games (5 counted)"), "{out}");
    assert_eq!(report(p, "out").status.code(), Some(0));
    assert_eq!(verify(p, "out", "ref.pub").0, Some(0));
    // A file the manifest would not list: the report refuses rather than publish it as a game.
    std::fs::write(p.join("out/games/stray.paifu"), b"x").unwrap();
    let o = report(p, "out");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("stray.paifu"), "{}", stderr(&o));
    // No such tournament: named, with the ones there are.
    let o = paifu(&["report", "--tournament", "Nope", "--db", "a.db", "-o", "x", "--key", "ref.key"], p);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no tournament \"Nope\" (the archive has Cup)"), "{}", stderr(&o));
}

#[test]
fn verify_tournament_names_every_game_added_removed_or_changed() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    cup(p);
    assert_eq!(report(p, "out").status.code(), Some(0));
    let m = manifest(p, "out");
    let first = m.manifest.games[0].file.clone();
    let tzq: Vec<&str> = m.manifest.games.iter().filter(|g| g.game == "tzq").map(|g| g.file.as_str()).collect();
    let case = |name: &str, change: &dyn Fn(&Path)| {
        copy_dir(&p.join("out"), &p.join(name));
        change(&p.join(name));
        let (code, out) = verify(p, name, "ref.pub");
        assert_eq!(code, Some(1), "{name}: {out}");
        out
    };
    let out = case("removed", &|d| std::fs::remove_file(d.join("games").join(&first)).unwrap());
    assert!(out.contains(&format!("removed: {first}")), "{out}");
    let out = case("added", &|d| {
        std::fs::write(d.join("games/extra.paifu"), encode(&tzq_game("report/extra", ["Ann", "Bo"]), Encoding::Binary))
            .unwrap();
    });
    assert!(out.contains("added: extra.paifu"), "{out}");
    // Another game's bytes under a listed name.
    let out = case("swapped", &|d| {
        std::fs::copy(d.join("games").join(tzq[1]), d.join("games").join(tzq[0])).map(|_| ()).unwrap()
    });
    assert!(out.contains(&format!("changed: {}: its blake3 is", tzq[0])), "{out}");
    let out = case("certificate", &|d| {
        let c = d.join("games").join(&m.manifest.games[1].certificates[0].file);
        let text = std::fs::read_to_string(&c).unwrap().replacen("\"valid\"", "\"invalid\"", 1);
        std::fs::write(&c, text).unwrap();
    });
    assert!(out.contains(&format!("changed: certificate {}", m.manifest.games[1].certificates[0].file)), "{out}");
    // The manifest itself: edited after signing, or checked with another key.
    let out = case("edited", &|d| {
        let text = std::fs::read_to_string(d.join("manifest.json")).unwrap().replacen("\"Ann\"", "\"Anne\"", 1);
        std::fs::write(d.join("manifest.json"), text).unwrap();
    });
    assert!(out.contains("signature does not match its contents"), "{out}");
    let (code, out) = verify(p, "out", "other.pub");
    assert_eq!(code, Some(1));
    assert!(out.contains("the manifest was signed by"), "{out}");
    // Signed by the organiser, but not true of the logs: a verdict, and the standings.
    copy_dir(&p.join("out"), &p.join("lie"));
    let mut lie = m.clone();
    let g = lie.manifest.games.iter_mut().find(|g| g.verdict.fault.is_some()).unwrap();
    let lied = g.file.clone();
    g.verdict = paifu_core::manifest::ManifestVerdict::stored(true, None, Some(vec![60, -60]), None);
    resign(p, "lie", lie);
    let (code, out) = verify(p, "lie", "ref.pub");
    assert_eq!(code, Some(1));
    assert!(
        out.contains(&format!(
            "changed: {lied}: verdict valid with final scores [60, -60] in the manifest, invalid (truncated) now"
        )),
        "{out}"
    );
    let mut lie = m.clone();
    lie.manifest.standings[0].firsts += 1;
    let who = lie.manifest.standings[0].player.clone();
    resign(p, "lie", lie);
    let (code, out) = verify(p, "lie", "ref.pub");
    assert_eq!(code, Some(1));
    assert!(out.contains(&format!("standings: {who} in")), "{out}");
}

#[test]
fn a_minimum_of_games_is_set_on_the_command_line_signed_in_the_report_and_verified() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    cup(p);
    // Counted TZQ games: Ann 3, Bo 3, Cy 2 (her fourth is the invalid one); riichi: 1 each.
    let o = paifu(&["tournament", "min-games", "--db", "a.db", "Cup", "3"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("ranks players with at least 3 counted games"), "{}", stdout(&o));
    let o = report(p, "out");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let m = manifest(p, "out");
    assert_eq!(m.manifest.min_games, Some(3));
    let cy = m.manifest.standings.iter().find(|l| l.game == "tzq" && l.player == "Cy").unwrap();
    assert_eq!((cy.rank, cy.games), (0, 2), "Cy is below the minimum");
    let tzq: Vec<&str> = m.manifest.standings.iter().filter(|l| l.game == "tzq").map(|l| l.player.as_str()).collect();
    assert_eq!(tzq.last(), Some(&"Cy"), "unranked lines follow the ranked ones: {tzq:?}");
    let csv = std::fs::read_to_string(p.join("out/standings.csv")).unwrap();
    assert!(csv.contains("tzq,standard,unranked (2 of 3 games),Cy,2,"), "{csv}");
    let html = std::fs::read_to_string(p.join("out/index.html")).unwrap();
    assert!(html.contains("<td>unranked (2 of 3 games)</td><td>Cy</td>"), "{html}");
    assert!(html.contains("A ranked line needs at least 3 counted games"), "{html}");
    // Verified as signed, the standings ranked again with the signed minimum.
    let (code, out) = verify(p, "out", "ref.pub");
    assert_eq!(code, Some(0), "{out}");
    // The organiser re-signs the same standings claiming another minimum: the standings
    // recomputed with it are not the signed ones.
    let mut m2 = manifest(p, "out");
    m2.manifest.min_games = Some(2);
    resign(p, "out", m2);
    let (code, out) = verify(p, "out", "ref.pub");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("standings: ") && out.contains("Cy"), "{out}");
    // No minimum (0): the report ranks everyone and its manifest states none.
    assert_eq!(paifu(&["tournament", "min-games", "--db", "a.db", "Cup", "0"], p).status.code(), Some(0));
    assert_eq!(report(p, "out2").status.code(), Some(0));
    let m = manifest(p, "out2");
    assert_eq!(m.manifest.min_games, None);
    assert!(m.manifest.standings.iter().all(|l| l.rank >= 1));
    assert!(!std::fs::read_to_string(p.join("out2/manifest.json")).unwrap().contains("min_games"));
    assert_eq!(verify(p, "out2", "ref.pub").0, Some(0));
    // An unknown tournament is named.
    let o = paifu(&["tournament", "min-games", "--db", "a.db", "Nope", "2"], p);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no tournament \"Nope\""), "{}", stderr(&o));
}

/// The tournament "Pen" in `p/a.db`, stored with `paifu ingest` and certified by `ref`: a riichi
/// game with a referee's `incident chombo` of Bo (seat 1), an MCR game with a `false_win` of Cy
/// (seat 2), a Ta Yü game with a `talk` of Di (seat 3), and a second MCR game of Ann, Bo, Cy and
/// Ed with no incident (so that Di and Ed have one MCR game, the others two).
fn penalty_cup(p: &Path) {
    use paifu_core::{mcr::Mcr, riichi::Riichi, tayu::Tayu, IncidentKind};
    use paifu_recorder::samples::{game_log, game_log_with_incident};
    assert_eq!(paifu(&["keygen", "-o", "ref"], p).status.code(), Some(0));
    std::fs::create_dir(p.join("in")).unwrap();
    let names = ["Ann", "Bo", "Cy", "Di"];
    let riichi =
        game_log_with_incident::<Riichi>("tenhou", "pen/r", &names, (1, 3), IncidentKind::Chombo, "wrong ron").unwrap();
    let mcr =
        game_log_with_incident::<Mcr>("standard", "pen/m", &names, (2, 2), IncidentKind::FalseWin, "false hu").unwrap();
    // A talk is recorded while the talker owes the placement of the piece it drew: Di's first
    // decision at which the engine takes it (its bids come before).
    let tayu = (1..=40)
        .find_map(|at| {
            game_log_with_incident::<Tayu>("standard", "pen/t", &names, (3, at), IncidentKind::Talk, "told his partner")
                .ok()
        })
        .expect("Di owes a placement at one of his first 40 decisions");
    let second = game_log::<Mcr>("standard", "pen/m2", &["Ann", "Bo", "Cy", "Ed"]).unwrap();
    std::fs::write(p.join("in/r.paifu.jsonl"), encode(&riichi, Encoding::JsonLines)).unwrap();
    std::fs::write(p.join("in/m.paifu"), encode(&mcr, Encoding::Binary)).unwrap();
    std::fs::write(p.join("in/t.paifu.jsonl"), encode(&tayu, Encoding::JsonLines)).unwrap();
    std::fs::write(p.join("in/m2.paifu"), encode(&second, Encoding::Binary)).unwrap();
    let jsonl = std::fs::read_to_string(p.join("in/r.paifu.jsonl")).unwrap();
    assert!(jsonl.contains("\"incident chombo: wrong ron\""), "a real log line: {jsonl:.400}");
    let jsonl = std::fs::read_to_string(p.join("in/t.paifu.jsonl")).unwrap();
    assert!(jsonl.contains("\"incident talk: told his partner\""), "a real log line: {jsonl:.400}");
    let o = paifu(&["ingest", "in", "--db", "a.db", "--tournament", "Pen", "--key", "ref.key", "-q"], p);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

/// The penalties of [`penalty_cup`], with a minimum of two games: the standings' page, its JSON,
/// the signed report and its CSV all show each penalty and what it cost (docs/report.md
/// "Penalties"), and the lines below the minimum unranked. With PAIFU_SCREENSHOTS set, the page
/// is saved as docs/screenshots/tournament-penalties.png and tournament-penalties-phone.png.
#[test]
fn penalties_entered_as_incidents_show_in_every_standings_view() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    penalty_cup(p);
    assert_eq!(paifu(&["tournament", "min-games", "--db", "a.db", "Pen", "2"], p).status.code(), Some(0));
    // The report: signed as version 2, verified, the CSV and its page.
    let o = paifu(&["report", "--tournament", "Pen", "--db", "a.db", "-o", "out", "--key", "ref.key", "-q"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let m = manifest(p, "out");
    assert_eq!((m.manifest.version, m.manifest.min_games), (2, Some(2)));
    let pen: Vec<(&str, &str, u64, Option<i64>)> = m
        .manifest
        .standings
        .iter()
        .filter(|l| l.penalties > 0)
        .map(|l| (l.game.as_str(), l.player.as_str(), l.penalties, l.penalty_points))
        .collect();
    // Bo, not the dealer: a reverse mangan, 4000 + 2000 + 2000; Cy: 10 to each other player; Di's
    // talk costs a turn, no points.
    assert_eq!(pen, [("mcr", "Cy", 1, Some(30)), ("riichi", "Bo", 1, Some(8000)), ("tayu", "Di", 1, None)]);
    let mcr: Vec<(&str, u32)> =
        m.manifest.standings.iter().filter(|l| l.game == "mcr").map(|l| (l.player.as_str(), l.rank)).collect();
    assert_eq!(mcr.len(), 5, "{mcr:?}");
    assert!(mcr[..3].iter().all(|(_, r)| *r >= 1), "Ann, Bo and Cy ranked first: {mcr:?}");
    let mut below = mcr[3..].to_vec();
    below.sort();
    assert_eq!(below, [("Di", 0), ("Ed", 0)], "then Di and Ed, one game each: {mcr:?}");
    let (code, out) = verify(p, "out", "ref.pub");
    assert_eq!(code, Some(0), "{out}");
    let csv = std::fs::read_to_string(p.join("out/standings.csv")).unwrap();
    assert!(csv.lines().next().unwrap().ends_with(",penalties,penalty_points"), "{csv}");
    let bo = csv.lines().find(|l| l.starts_with("riichi,") && l.contains(",Bo,")).unwrap();
    assert!(bo.ends_with(",1,8000"), "{bo}");
    assert!(csv.contains("mcr,standard,unranked (1 of 2 games),Ed,1,"), "{csv}");
    let html = std::fs::read_to_string(p.join("out/index.html")).unwrap();
    assert!(html.contains("<td>1 (-8000)</td>") && html.contains("<td>1 (-30)</td>"), "{html}");
    // The penalty edited in the signed report is found.
    let mut edited = manifest(p, "out");
    edited.manifest.standings.iter_mut().find(|l| l.player == "Bo" && l.game == "riichi").unwrap().penalties = 0;
    std::fs::write(p.join("out/manifest.json"), edited.to_json()).unwrap();
    let (code, out) = verify(p, "out", "ref.pub");
    assert_eq!(code, Some(1), "{out}");
    // The dashboard's page and JSON.
    let server = paifu_web::spawn(paifu_web::Config::new(p.join("a.db")), "127.0.0.1:0").expect("the server starts");
    let (status, _, page) = crate::web_crawl::get(server.addr, "/tournaments/Pen");
    assert_eq!(status, 200);
    assert!(page.contains("<b>1</b> (-8000)") && page.contains("<b>1</b> (-30)"), "{page}");
    assert!(page.contains("<span title=\"unranked (1 of 2 games)\">unranked</span>"), "{page}");
    let (status, _, api) = crate::web_crawl::get(server.addr, "/api/tournaments/Pen");
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&api).unwrap();
    let line =
        v["standings"].as_array().unwrap().iter().find(|l| l["player"] == "Bo" && l["game"] == "riichi").unwrap();
    assert_eq!((line["penalties"].as_u64(), line["penalty_points"].as_i64()), (Some(1), Some(8000)), "{line}");
    let url = format!("http://{}/tournaments/Pen", server.addr);
    chromium_screenshot(&url, "tournament-penalties", (1366, 768));
    chromium_screenshot(&url, "tournament-penalties-phone", (390, 844));
    server.stop();
}

/// Ta Yü's `talk` (seed 002, line 113: the talker's team loses a turn) is a penalty with no cost
/// in points: Di's line counts it, its `penalty_points` is absent in the signed report, empty in
/// the CSV, null in the JSON, and the pages say the ruleset sets no cost.
#[test]
fn a_ta_yu_talk_is_counted_as_a_penalty_without_a_cost() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    penalty_cup(p);
    let o = paifu(&["report", "--tournament", "Pen", "--db", "a.db", "-o", "out", "--key", "ref.key", "-q"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let m = manifest(p, "out");
    let tayu: Vec<(&str, u64, Option<i64>)> = m
        .manifest
        .standings
        .iter()
        .filter(|l| l.game == "tayu")
        .map(|l| (l.player.as_str(), l.penalties, l.penalty_points))
        .collect();
    assert_eq!(tayu.len(), 4, "{tayu:?}");
    for (player, penalties, points) in &tayu {
        assert_eq!((*penalties, *points), (u64::from(*player == "Di"), None), "{tayu:?}");
    }
    assert_eq!(verify(p, "out", "ref.pub").0, Some(0));
    let csv = std::fs::read_to_string(p.join("out/standings.csv")).unwrap();
    let di = csv.lines().find(|l| l.starts_with("tayu,") && l.contains(",Di,")).unwrap();
    assert!(di.ends_with(",1,"), "one penalty, no cost: {di}");
    let html = std::fs::read_to_string(p.join("out/index.html")).unwrap();
    assert!(html.contains("<td>1 (no cost in the ruleset)</td>"), "{html}");
    // The talk taken out of the signed line is found.
    let mut edited = manifest(p, "out");
    edited.manifest.standings.iter_mut().find(|l| l.player == "Di" && l.game == "tayu").unwrap().penalties = 0;
    resign(p, "out", edited);
    let (code, out) = verify(p, "out", "ref.pub");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("standings: ") && out.contains("Di"), "{out}");
    let server = paifu_web::spawn(paifu_web::Config::new(p.join("a.db")), "127.0.0.1:0").expect("the server starts");
    let (status, _, page) = crate::web_crawl::get(server.addr, "/tournaments/Pen");
    assert_eq!(status, 200);
    assert!(page.contains("<b>1</b> (no cost)"), "{page}");
    let (status, _, api) = crate::web_crawl::get(server.addr, "/api/tournaments/Pen");
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&api).unwrap();
    let line = v["standings"].as_array().unwrap().iter().find(|l| l["player"] == "Di" && l["game"] == "tayu").unwrap();
    assert_eq!((line["penalties"].as_u64(), line["penalty_points"].is_null()), (Some(1), true), "{line}");
    server.stop();
}

/// Saves the page at `url` as docs/screenshots/NAME.png, a `width` x `height` window, with
/// headless Chromium's own `--screenshot`, when PAIFU_SCREENSHOTS is set (how those screenshots
/// are made). Its profile is a temporary folder; a browser still running after two minutes is
/// killed with its processes.
fn chromium_screenshot(url: &str, name: &str, (width, height): (u32, u32)) {
    if std::env::var_os("PAIFU_SCREENSHOTS").is_none() {
        return;
    }
    let profile = tempfile::tempdir().unwrap();
    let png = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("docs/screenshots/{name}.png"));
    let mut child = std::process::Command::new("/usr/bin/chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"])
        .args(["--disable-background-networking", "--disable-component-update", "--disable-sync"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("/usr/bin/chromium runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if std::time::Instant::now() > deadline {
            // Its renderers are its children: they end with their parent's process group.
            let _ = std::process::Command::new("pkill")
                .arg("-f")
                .arg(format!("user-data-dir={}", profile.path().display()))
                .status();
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    assert!(status.is_some_and(|s| s.success()), "Chromium's screenshot of {url}: {status:?}");
}
