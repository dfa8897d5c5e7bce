//! `paifu ingest`, `stats`, `plot` through their functions (src/cmd/), and the archive filters
//! that stats, plot, show and export share, through the command.

use paifu::args::FilterArgs;
use paifu::cmd::ingest::{self, IngestArgs};
use paifu::cmd::keygen;
use paifu::cmd::plot::{self, PlotArgs};
use paifu::cmd::stats::{self, OutputFormat, StatsArgs};
use paifu::Status;
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
    assert_eq!(ingest::run(args(vec![logs.clone()])).unwrap(), Status::Fine);
    // An invalid log: exit 1, kept with its fault.
    let mut bad = tzq_log("cli/bad", ["Ann", "Bo"]);
    bad.records.truncate(5);
    let badp = logs.join("bad.paifu.jsonl");
    std::fs::write(&badp, paifu_core::log::encode(&bad, Encoding::JsonLines)).unwrap();
    assert_eq!(ingest::run(args(vec![logs.clone()])).unwrap(), Status::Faulty);
    let a = Archive::open(&db).unwrap();
    let s = a.summary().unwrap();
    assert_eq!((s.games, s.valid, s.invalid, s.tournaments), (6, 5, 1, 1));
    drop(a);
    // A missing path is an I/O error.
    let e = ingest::run(args(vec![dir.path().join("missing")])).unwrap_err();
    assert_eq!(e.exit_code(), 2, "{e}");
}

#[test]
fn ingest_signs_with_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let logs = write_logs(dir.path());
    let keyfile = dir.path().join("k.pem");
    let (key, created) = keygen::read_or_create_key(&keyfile).unwrap();
    assert!(created);
    assert_eq!(keygen::read_key(&keyfile).unwrap().to_bytes(), key.to_bytes());
    let db = dir.path().join("k.db");
    let args = IngestArgs { paths: logs, db: db.clone(), tournament: None, key: Some(keyfile), quiet: true };
    assert_eq!(ingest::run(args).unwrap(), Status::Fine);
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
    assert_eq!(ingest::run(ingest).unwrap(), Status::Fine);
    for format in [OutputFormat::Text, OutputFormat::Json, OutputFormat::Csv] {
        let filter = FilterArgs { player: Some("Ann".into()), ..FilterArgs::default() };
        assert_eq!(stats::run(StatsArgs { db: db.clone(), filter, format }).unwrap(), Status::Fine);
    }
    let missing =
        StatsArgs { db: dir.path().join("none.db"), filter: FilterArgs::default(), format: OutputFormat::Text };
    assert!(stats::run(missing).unwrap_err().to_string().contains("no such archive"));
    let archive = Archive::open(&db).unwrap();
    let plot_args = |kind: &str, id: Option<i64>, player: Option<&str>| PlotArgs {
        kind: kind.into(),
        output: dir.path().join(format!("{kind}.svg")),
        db: db.clone(),
        id,
        filter: FilterArgs { player: player.map(str::to_owned), ..FilterArgs::default() },
    };
    for (kind, id, player) in
        [("scores", Some(1), None), ("placements", None, Some("Bo")), ("categories", None, None), ("turns", None, None)]
    {
        let svg = plot::plot_svg(&archive, &plot_args(kind, id, player)).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{kind}");
    }
    assert!(plot::plot_svg(&archive, &plot_args("scores", None, None)).unwrap_err().to_string().contains("--id"));
    assert!(plot::plot_svg(&archive, &plot_args("nope", None, None)).unwrap_err().to_string().contains("unknown plot"));
    assert_eq!(plot::run(plot_args("scores", Some(2), None)).unwrap(), Status::Fine);
    assert!(std::fs::read_to_string(dir.path().join("scores.svg")).unwrap().contains("<svg"));
    assert_eq!(archive.list_games(&Filter::default(), 1, 10).unwrap().total, 5);
}
