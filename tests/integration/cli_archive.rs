//! `paifu ingest`, `stats`, `plot` through their functions (src/cmd_archive.rs).

use crate::cmd_archive::{self, IngestArgs, OutputFormat, PlotArgs, StatsArgs};
use paifu_core::log::Encoding;
use paifu_recorder::archive::{Archive, Filter};
use paifu_recorder::samples::{tzq_bytes, tzq_log};
use std::path::PathBuf;

fn write_logs(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for i in 0..5 {
        let enc = if i % 2 == 0 { Encoding::JsonLines } else { Encoding::Binary };
        let p = dir.join(format!("g{i}.{}", enc.extension()));
        std::fs::write(&p, tzq_bytes(&format!("cli/{i}"), ["Ann", "Bo"], enc)).unwrap();
        out.push(p);
    }
    out
}

#[test]
fn ingest_stores_valid_and_invalid_once() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    write_logs(&logs);
    let db = dir.path().join("a.db");
    let args = |paths: Vec<PathBuf>| IngestArgs {
        paths,
        db: db.clone(),
        tournament: Some("Cup".into()),
        key: None,
        quiet: true,
    };
    assert_eq!(cmd_archive::ingest(args(vec![logs.clone()])), Ok(0));
    // An invalid log: exit 1, kept with its fault.
    let mut bad = tzq_log("cli/bad", ["Ann", "Bo"]);
    bad.records.truncate(5);
    let badp = logs.join("bad.paifu.jsonl");
    std::fs::write(&badp, paifu_core::log::encode(&bad, Encoding::JsonLines)).unwrap();
    assert_eq!(cmd_archive::ingest(args(vec![logs.clone()])), Ok(1));
    let a = Archive::open(&db).unwrap();
    let s = a.summary().unwrap();
    assert_eq!((s.games, s.valid, s.invalid, s.tournaments), (6, 5, 1, 1));
    drop(a);
    // A missing path is an I/O error.
    assert!(cmd_archive::ingest(args(vec![dir.path().join("missing")])).is_err());
}

#[test]
fn ingest_signs_with_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let logs = write_logs(dir.path());
    let keyfile = dir.path().join("k.pem");
    let (key, created) = cmd_archive::read_or_create_key(&keyfile).unwrap();
    assert!(created);
    assert_eq!(cmd_archive::read_key(&keyfile).unwrap().to_bytes(), key.to_bytes());
    let db = dir.path().join("k.db");
    let args = IngestArgs { paths: logs, db: db.clone(), tournament: None, key: Some(keyfile), quiet: true };
    assert_eq!(cmd_archive::ingest(args), Ok(0));
    let a = Archive::open(&db).unwrap();
    let signer = hex::encode(key.verifying_key().to_bytes());
    let json = a.certificate(1, &signer).unwrap().expect("a stored certificate");
    let c = paifu_core::cert::Certificate::from_json(&json).unwrap();
    let (bytes, _) = a.log_bytes(1).unwrap().unwrap();
    c.verify(&key.verifying_key(), &paifu_core::validate_bytes(&bytes)).unwrap();
}

#[test]
fn stats_and_plots_from_the_archive() {
    let dir = tempfile::tempdir().unwrap();
    let logs = write_logs(dir.path());
    let db = dir.path().join("s.db");
    let ingest = IngestArgs { paths: logs, db: db.clone(), tournament: None, key: None, quiet: true };
    assert_eq!(cmd_archive::ingest(ingest), Ok(0));
    for format in [OutputFormat::Text, OutputFormat::Json, OutputFormat::Csv] {
        let a = StatsArgs { db: db.clone(), player: Some("Ann".into()), tournament: None, game: None, format };
        assert_eq!(cmd_archive::stats(a), Ok(0));
    }
    let missing = StatsArgs {
        db: dir.path().join("none.db"),
        player: None,
        tournament: None,
        game: None,
        format: OutputFormat::Text,
    };
    assert!(cmd_archive::stats(missing).unwrap_err().contains("no such archive"));
    let archive = Archive::open(&db).unwrap();
    let plot = |kind: &str, id: Option<i64>, player: Option<&str>| PlotArgs {
        kind: kind.into(),
        output: dir.path().join(format!("{kind}.svg")),
        db: db.clone(),
        id,
        player: player.map(str::to_owned),
        tournament: None,
        game: None,
    };
    for (kind, id, player) in
        [("scores", Some(1), None), ("placements", None, Some("Bo")), ("categories", None, None), ("turns", None, None)]
    {
        let svg = cmd_archive::plot_svg(&archive, &plot(kind, id, player)).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{kind}");
    }
    assert!(cmd_archive::plot_svg(&archive, &plot("scores", None, None)).unwrap_err().contains("--id"));
    assert!(cmd_archive::plot_svg(&archive, &plot("nope", None, None)).unwrap_err().contains("unknown plot"));
    assert_eq!(cmd_archive::plot(plot("scores", Some(2), None)), Ok(0));
    assert!(std::fs::read_to_string(dir.path().join("scores.svg")).unwrap().contains("<svg"));
    assert_eq!(archive.list_games(&Filter::default(), 1, 10).unwrap().total, 5);
}
