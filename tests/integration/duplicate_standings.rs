//! The archive's standings of a duplicate match (issue 27, docs/play.md "Duplicate tables"):
//! each player's mean rank points with a 95% interval over the complete duplicate sets, and how
//! many sets, in the tournament's page, its JSON and `paifu report`, equal to what `paifu arena
//! --duplicate` printed for the same games; a set not finished is not counted, and said.

use crate::tables::{call, serve};
use crate::util::{paifu, stderr, stdout};
use std::collections::BTreeMap;
use std::path::Path;

const PAIFU: &str = env!("CARGO_BIN_EXE_paifu");

/// `paifu arena tzq --duplicate --games DEALS` between Ann and Bo into the folder `m`, with `extra`.
fn arena(p: &Path, deals: &str, extra: &[&str]) -> String {
    let bot = |s: &str| format!("{PAIFU} bot tzq --strategy random --seed {s}");
    let (a, b) = (bot("a"), bot("b"));
    let mut args = vec![
        "arena",
        "tzq",
        "--bot",
        &a,
        "--bot",
        &b,
        "--name",
        "Ann",
        "--name",
        "Bo",
        "--duplicate",
        "--games",
        deals,
    ];
    args.extend(["--out", "m", "-q"]);
    args.extend(extra);
    let o = paifu(&args, p);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

/// The player lines of a duplicate summary as the arena prints them: name -> line.
fn player_lines(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter(|l| l.starts_with("  ") && l.contains(" games"))
        .map(|l| (l.trim().split(':').next().unwrap().to_owned(), l.trim().to_owned()))
        .collect()
}

/// Mean rank points (1 first, 0 last) of each player over games `numbers` of the folder `m`.
fn means_of(p: &Path, numbers: std::ops::RangeInclusive<u32>) -> BTreeMap<String, f64> {
    let mut points: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for n in numbers {
        let bytes = std::fs::read(p.join(format!("m/game-{n:04}.paifu.jsonl"))).unwrap();
        let report = paifu_core::replay::validate_bytes(&bytes);
        let paifu_core::replay::Verdict::Valid(outcome) = report.verdict else { panic!("game {n} is invalid") };
        for (name, place) in report.header.unwrap().seats.iter().zip(&outcome.placements) {
            points.entry(name.clone()).or_default().push(2.0 - f64::from(*place));
        }
    }
    points.into_iter().map(|(n, xs)| (n, xs.iter().sum::<f64>() / xs.len() as f64)).collect()
}

#[test]
fn the_archives_standings_of_a_duplicate_match_give_the_arenas_interval_and_its_sets() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    assert!(paifu(&["keygen", "-o", "k"], p).status.success());
    let out = arena(p, "3", &["--db", "t.db", "--tournament", "Cup", "--key", "k.key"]);
    assert!(out.contains("duplicate: 3 complete sets of 2 games"), "{out}");
    let arena_lines = player_lines(&out);
    assert_eq!(arena_lines.len(), 2, "{out}");
    assert!(arena_lines.values().all(|l| l.contains(" ± ")), "three sets give an interval: {out}");

    // paifu report: the same lines, and duplicate.csv.
    let o = paifu(&["report", "--tournament", "Cup", "--db", "t.db", "-o", "r", "--key", "k.key", "-q"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = stdout(&o);
    assert!(report.contains("tzq (standard rules): duplicate: 3 complete sets of 2 games"), "{report}");
    assert_eq!(player_lines(&report), arena_lines, "{report}\n---\n{out}");
    let csv = std::fs::read_to_string(p.join("r/duplicate.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    for (name, line) in &arena_lines {
        let (mean, rest) = line.trim_start_matches(&format!("{name}: ")).split_once(" ± ").unwrap();
        let half = rest.split(' ').next().unwrap();
        assert!(csv.contains(&format!("tzq,standard,3,0,{name},{mean},{half},")), "{csv}");
    }
    // The report's page shows them too: the sets' note and each player's mean and interval.
    let html = std::fs::read_to_string(p.join("r/index.html")).unwrap();
    assert!(html.contains("<h4>Duplicate sets</h4>") && html.contains("3 complete sets of 2 games"), "{html}");
    for (name, line) in &arena_lines {
        let (mean, rest) =
            line.trim_start_matches(&format!("{name}: ")).split_once(", ").unwrap().0.split_once(' ').unwrap();
        assert!(html.contains(&format!("<tr><td>{name}</td><td>{mean}</td><td>{rest}</td><td>")), "{name}: {html}");
    }

    // The dashboard: the tournament's JSON and page.
    let server = serve(p, &[]);
    let (s, v) = call(&server.addr, "GET", "/api/tournaments/Cup", None, None);
    assert_eq!(s, 200, "{v}");
    let d = &v["duplicate"][0];
    assert_eq!(
        (d["game"].as_str(), d["sets"].as_u64(), d["incomplete"].as_u64()),
        (Some("tzq"), Some(3), Some(0)),
        "{v}"
    );
    for st in d["standings"].as_array().unwrap() {
        let name = st["name"].as_str().unwrap();
        let (mean, h) = (st["mean"].as_f64().unwrap(), st["half_width"].as_f64().unwrap());
        let line = format!("{name}: {mean:.3} ± {h:.3} ({:.3} to {:.3}), {} games", mean - h, mean + h, st["games"]);
        assert_eq!(Some(&line), arena_lines.get(name), "{v}");
    }
    let page = std::process::Command::new("curl")
        .args(["-sf", &format!("http://{}/tournaments/Cup", server.addr)])
        .output()
        .unwrap();
    let page = String::from_utf8_lossy(&page.stdout);
    assert!(page.contains("Duplicate sets") && page.contains("3 complete sets of 2 games"), "{page}");
    let (name, line) = arena_lines.iter().next().unwrap();
    let interval = line.split(": ").nth(1).unwrap().split(", ").next().unwrap().split_once(' ').unwrap().1;
    assert!(page.contains(interval), "{name}'s interval {interval} on the page");
}

#[test]
fn a_set_not_finished_is_not_counted_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    assert!(paifu(&["keygen", "-o", "k"], p).status.success());
    arena(p, "3", &[]);
    // Games 1 to 5 stored: deal 3 was played in one rotation only.
    std::fs::create_dir(p.join("in")).unwrap();
    for n in 1..=5 {
        let f = format!("game-{n:04}.paifu.jsonl");
        std::fs::copy(p.join("m").join(&f), p.join("in").join(&f)).unwrap();
    }
    let o = paifu(&["ingest", "in", "--db", "t.db", "--tournament", "Cup", "--key", "k.key", "-q"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = paifu(&["report", "--tournament", "Cup", "--db", "t.db", "-o", "r", "--key", "k.key", "-q"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = stdout(&o);
    assert!(
        report.contains(
            "duplicate: 2 complete sets of 2 games (one deal in every seat rotation), 1 set(s) unfinished, not counted"
        ),
        "{report}"
    );
    let lines = player_lines(&report);
    for (name, mean) in means_of(p, 1..=4) {
        let line = &lines[&name];
        assert!(line.starts_with(&format!("{name}: {mean:.3} ± ")) && line.ends_with(", 4 games"), "{line} ({mean})");
    }
    // The page says it too.
    let server = serve(p, &[]);
    let (_, v) = call(&server.addr, "GET", "/api/tournaments/Cup", None, None);
    assert_eq!(
        (v["duplicate"][0]["sets"].as_u64(), v["duplicate"][0]["incomplete"].as_u64()),
        (Some(2), Some(1)),
        "{v}"
    );
}
