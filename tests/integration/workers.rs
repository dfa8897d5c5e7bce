//! Workers and the queue (issue 29): `paifu ingest --queue` queues files, `paifu worker`
//! processes drain the queue (two at once on one PostgreSQL database), every game is stored once
//! and the kept counts equal a recount; a worker killed with SIGKILL after taking a job, or inside
//! the transaction that finishes it, leaves the job to another once its lease passes, nothing
//! stored twice or lost; a file that is not a log becomes a failed job with its error. Each on
//! PostgreSQL (a throwaway cluster, `pg_test`) and on SQLite (one worker). Arena match jobs:
//! `arena_jobs.rs`, with these helpers.

use crate::util::{paifu, stderr, stdout};
use paifu_core::log::Encoding;
use paifu_recorder::archive::{pg_test, Archive, Filter, JobCounts, JobState};
use paifu_recorder::samples::tzq_bytes;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Where the test's archive is: a PostgreSQL database (kept alive with the test) or a SQLite
/// file in the test's folder.
pub(crate) enum Db {
    Pg(pg_test::TestDb),
    Lite(String),
}

impl Db {
    pub(crate) fn new(pg: bool, dir: &Path) -> Db {
        match pg {
            true => Db::Pg(pg_test::database()),
            false => Db::Lite(dir.join("queue.db").display().to_string()),
        }
    }

    pub(crate) fn url(&self) -> String {
        match self {
            Db::Pg(d) => d.url(),
            Db::Lite(p) => p.clone(),
        }
    }

    pub(crate) fn open(&self) -> Archive {
        Archive::open(Path::new(&self.url())).expect("open the archive")
    }
}

/// `n` different games in `dir/drop` (alternately binary and JSON Lines), and a copy of the first
/// in the other encoding (the same log: one entry).
fn write_games(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir.join("drop")).unwrap();
    for i in 0..n {
        let enc = if i % 2 == 0 { Encoding::Binary } else { Encoding::JsonLines };
        let bytes = tzq_bytes(&format!("workers/{i}"), ["Ann", "Bo"], enc);
        std::fs::write(dir.join(format!("drop/g{i:02}.{}", enc.extension())), bytes).unwrap();
    }
    let copy = tzq_bytes("workers/0", ["Ann", "Bo"], Encoding::JsonLines);
    std::fs::write(dir.join("drop/copy-of-g00.paifu.jsonl"), copy).unwrap();
}

/// `paifu ingest --queue drop`: its standard output (it must succeed).
fn queue(dir: &Path, db: &Db) -> String {
    let o = paifu(&["ingest", "--queue", "drop", "--db", &db.url()], dir);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    stdout(&o)
}

/// A `paifu worker` process named `name` with `args`, and `env` set.
pub(crate) fn worker(dir: &Path, db: &Db, name: &str, args: &[&str], env: &[(&str, &str)]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_paifu"))
        .args(["worker", "--db", &db.url(), "--name", name])
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run paifu worker")
}

/// Waits for a worker to end, within two minutes.
pub(crate) fn finish(child: Child) -> Output {
    child.wait_with_output().expect("paifu worker ends")
}

/// Waits until `test` holds of the archive's job counts, within a minute.
pub(crate) fn wait_for(db: &Db, test: impl Fn(&JobCounts) -> bool) {
    let a = db.open();
    let started = Instant::now();
    loop {
        let c = a.job_counts().unwrap();
        if test(&c) {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "the queue never got there: {c:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The archive's kept counts against a recount of its rows: (games, valid), which must agree.
pub(crate) fn counts(db: &Db) -> (u64, u64) {
    let a = db.open();
    let s = a.summary().unwrap();
    let rows = a.all_games(&Filter::default()).unwrap();
    let valid = rows.iter().filter(|r| r.valid).count() as u64;
    assert_eq!((s.games, s.valid), (rows.len() as u64, valid), "the kept counts equal a recount");
    if s.games > 0 {
        let games: Vec<u64> = a.players(None, 10, 0).unwrap().iter().map(|p| p.games).collect();
        assert_eq!(games, vec![s.games; 2], "each player's games, kept at ingest");
    }
    (s.games, s.valid)
}

/// The job numbers a worker's output says it finished ("job N: ...").
pub(crate) fn jobs_done(out: &str) -> Vec<i64> {
    out.lines().filter_map(|l| l.strip_prefix("job ")?.split(':').next()?.parse().ok()).collect()
}

fn workers_drain_the_queue_and_store_every_game_once(pg: bool) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::new(pg, dir.path());
    write_games(dir.path(), 16);
    let out = queue(dir.path(), &db);
    assert!(out.contains("17 files: 17 jobs queued (ids 1-17)"), "{out}");
    assert_eq!(db.open().job_counts().unwrap(), JobCounts { queued: 17, ..JobCounts::default() });
    // Two workers at once on PostgreSQL; one on SQLite (one machine's file).
    let n = if pg { 2 } else { 1 };
    let children: Vec<Child> = (0..n)
        .map(|i| worker(dir.path(), &db, &format!("w{i}"), &["--idle-exit", "2", "--lease", "60"], &[]))
        .collect();
    let mut done = Vec::new();
    for c in children {
        let o = finish(c);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        done.extend(jobs_done(&stdout(&o)));
    }
    done.sort_unstable();
    assert_eq!(done, (1..=17).collect::<Vec<_>>(), "every job worked once, by one worker");
    assert_eq!(db.open().job_counts().unwrap(), JobCounts { done: 17, ..JobCounts::default() });
    assert_eq!(counts(&db), (16, 16), "16 games, the copy stored once");
    let a = db.open();
    let rows = a.jobs(Some(JobState::Done), 100).unwrap();
    assert!(rows.iter().all(|j| j.attempts == 1 && j.error.is_none()), "{rows:?}");
    let o = paifu(&["jobs", "--db", &db.url()], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("0 queued, 0 running (0 under a lease that passed), 17 done, 0 failed"),
        "{}",
        stdout(&o)
    );
}

fn a_killed_worker_leaves_its_job_to_another_and_nothing_is_stored_twice(pg: bool) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::new(pg, dir.path());
    write_games(dir.path(), 4);
    queue(dir.path(), &db);
    // One killed after taking job 1, before working it.
    let mut taker = worker(
        dir.path(),
        &db,
        "killed-after-take",
        &["--lease", "5", "--batch", "1"],
        &[("PAIFU_WORKER_TEST_PAUSE_MS", "600000")],
    );
    wait_for(&db, |c| c.running == 1);
    taker.kill().unwrap();
    finish(taker);
    // One killed inside the transaction that stores job 2 and marks it done.
    let mut storer = worker(
        dir.path(),
        &db,
        "killed-in-commit",
        &["--lease", "2", "--batch", "1"],
        &[("PAIFU_WORKER_TEST_PAUSE_IN_COMMIT_MS", "600000")],
    );
    wait_for(&db, |c| c.running == 2);
    std::thread::sleep(Duration::from_millis(1500));
    storer.kill().unwrap();
    finish(storer);
    assert_eq!(counts(&db), (0, 0), "nothing of the killed workers' is kept");
    // Another worker takes the other jobs, then the two killed ones once their leases pass.
    let o = finish(worker(dir.path(), &db, "survivor", &["--idle-exit", "4", "--lease", "60"], &[]));
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    let mut done = jobs_done(&out);
    done.sort_unstable();
    assert_eq!(done, vec![1, 2, 3, 4, 5], "{out}");
    assert!(out.contains("job 1: ingest ") && out.contains("(attempt 2)"), "{out}");
    let a = db.open();
    assert_eq!(a.job_counts().unwrap(), JobCounts { done: 5, ..JobCounts::default() });
    for id in [1, 2] {
        let j = a.job(id).unwrap().unwrap();
        assert_eq!((j.attempts, j.worker.as_deref()), (2, Some("survivor")), "job {id}");
    }
    assert_eq!(counts(&db), (4, 4), "every game stored once, none lost");
}

fn a_bad_file_becomes_a_failed_job_with_its_error(pg: bool) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::new(pg, dir.path());
    write_games(dir.path(), 2);
    std::fs::write(dir.path().join("drop/junk.paifu.jsonl"), "not a log at all\n").unwrap();
    queue(dir.path(), &db);
    let o = finish(worker(dir.path(), &db, "w", &["--idle-exit", "1"], &[]));
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "a failed job: exit status 1: {out}{}", stderr(&o));
    let failed: Vec<&str> = out.lines().filter(|l| l.contains("junk.paifu.jsonl")).collect();
    assert_eq!(failed.len(), 1, "{out}");
    assert!(failed[0].contains(": failed: "), "{out}");
    assert_eq!(jobs_done(&out).len(), 4, "the worker went on: {out}");
    let o = paifu(&["jobs", "--db", &db.url()], dir.path());
    let listed = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{listed}");
    assert!(listed.contains("3 done, 1 failed"), "{listed}");
    let line = listed.lines().find(|l| l.contains("failed: job")).unwrap_or_else(|| panic!("{listed}"));
    assert!(line.contains("junk.paifu.jsonl") && line.contains("1 attempts"), "{line}");
    let error = db.open().jobs(Some(JobState::Failed), 1).unwrap().remove(0).error.unwrap();
    assert!(line.ends_with(&error) && !error.is_empty(), "{line} / {error}");
    assert_eq!(counts(&db), (2, 2));
    // `--once` on an empty queue says so and stops.
    let o = finish(worker(dir.path(), &db, "w", &["--once"], &[]));
    assert_eq!((o.status.code(), stdout(&o).trim()), (Some(0), "no job is queued"));
}

fn revalidation_jobs_replay_every_entry(pg: bool) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::new(pg, dir.path());
    write_games(dir.path(), 3);
    queue(dir.path(), &db);
    finish(worker(dir.path(), &db, "w", &["--idle-exit", "1"], &[]));
    let o = paifu(&["jobs", "revalidate", "--per-job", "2", "--db", &db.url()], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("queued 2 re-validation jobs"), "{}", stdout(&o));
    let o = finish(worker(dir.path(), &db, "w", &["--idle-exit", "1"], &[]));
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("revalidate entries 1-2: 2 checked, 2 same, 0 differ"), "{out}");
    assert!(out.contains("revalidate entries 3-3: 1 checked, 1 same, 0 differ"), "{out}");
}

#[test]
fn postgres_workers_drain_the_queue_and_store_every_game_once() {
    workers_drain_the_queue_and_store_every_game_once(true);
}

#[test]
fn sqlite_worker_drains_the_queue_and_stores_every_game_once() {
    workers_drain_the_queue_and_store_every_game_once(false);
}

#[test]
fn postgres_a_killed_worker_leaves_its_job_to_another() {
    a_killed_worker_leaves_its_job_to_another_and_nothing_is_stored_twice(true);
}

#[test]
fn sqlite_a_killed_worker_leaves_its_job_to_another() {
    a_killed_worker_leaves_its_job_to_another_and_nothing_is_stored_twice(false);
}

#[test]
fn postgres_a_bad_file_becomes_a_failed_job() {
    a_bad_file_becomes_a_failed_job_with_its_error(true);
}

#[test]
fn sqlite_a_bad_file_becomes_a_failed_job() {
    a_bad_file_becomes_a_failed_job_with_its_error(false);
}

#[test]
fn postgres_revalidation_jobs() {
    revalidation_jobs_replay_every_entry(true);
}

#[test]
fn sqlite_revalidation_jobs() {
    revalidation_jobs_replay_every_entry(false);
}

#[test]
fn the_help_teaches_the_queue() {
    let dir = tempfile::tempdir().unwrap();
    for (args, wants) in [
        (&["worker", "--help"][..], &["--once", "--idle-exit", "--lease", "Ctrl-C", "Examples:"][..]),
        (&["jobs", "--help"], &["revalidate", "failed", "Examples:"]),
        (&["jobs", "revalidate", "--help"], &["--from", "never change", "Examples:"]),
        (&["ingest", "--help"], &["--queue", "paifu worker"]),
    ] {
        let o = paifu(args, dir.path());
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        for w in wants {
            assert!(stdout(&o).contains(w), "{args:?} lacks {w:?}");
        }
    }
    let o = paifu(&["ingest", "--queue", "--key", "k.key", "x"], dir.path());
    assert_eq!(o.status.code(), Some(2), "--queue with --key is refused: the workers sign");
}
