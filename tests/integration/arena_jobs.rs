//! Arena matches and duplicate sets as the workers' jobs (issue 29): `paifu arena --queue`
//! queues a match (one job per game, one per deal of a duplicate match), `paifu worker --bot
//! NAME=CMD` plays it with its own bots and stores each job's games in one transaction. Every
//! game is stored once with its seed revealed, the same logs (digests) and duplicate standings as
//! `paifu arena` playing the match directly from the same contributions; a worker killed
//! mid-game stores nothing and the job is played again from its start by another; a job row
//! cannot make a worker run a command or change its sandbox. Each on PostgreSQL (a throwaway
//! cluster) and on SQLite.

use crate::arena::seed_file;
use crate::util::{paifu, stderr, stdout};
use crate::workers::{counts, finish, jobs_done, wait_for, worker, Db};
use paifu_core::replay::validate_bytes;
use paifu_core::{Digest, Seed};
use paifu_recorder::archive::{Filter, JobCounts, JobKind, JobState, MatchPlayed, NewMatchJob};
use paifu_recorder::arena::matches::{Folder, UNSANDBOXED};
use paifu_recorder::arena::queued::MatchJob;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// The built-in TZQ bot's command (deterministic: its seed is fixed by its seat).
fn builtin(strategy: &str) -> String {
    format!("{} bot tzq --strategy {strategy} --seed s{{seat}}", env!("CARGO_BIN_EXE_paifu"))
}

/// `paifu arena tzq --queue --db URL ARGS`: its standard output (it must succeed).
fn queue(dir: &Path, db: &Db, args: &[&str]) -> String {
    let url = db.url();
    let mut all = vec!["arena", "tzq", "--queue", "--db", &url];
    all.extend_from_slice(args);
    let o = paifu(&all, dir);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    stdout(&o)
}

/// `paifu arena tzq ARGS --out OUT -q`, played here: each finished game's digest by its file
/// name (`game-0001.paifu.jsonl`).
fn direct(dir: &Path, out: &str, args: &[&str]) -> BTreeMap<String, Digest> {
    let mut all = vec!["arena", "tzq"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", out, "-q"]);
    let o = paifu(&all, dir);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    std::fs::read_dir(dir.join(out))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".paifu.jsonl"))
        .map(|p| {
            let r = validate_bytes(&std::fs::read(&p).unwrap());
            (p.file_name().unwrap().to_string_lossy().into_owned(), r.digest.unwrap())
        })
        .collect()
}

/// One stored game: its source name, digest, revealed seed and header meta.
struct StoredGame {
    source: String,
    digest: Digest,
    seed: Option<Seed>,
    meta: BTreeMap<String, String>,
}

/// Every game stored, by entry.
fn stored(db: &Db) -> Vec<StoredGame> {
    let a = db.open();
    a.all_games(&Filter::default())
        .unwrap()
        .iter()
        .map(|row| {
            let detail = a.game(row.id).unwrap().unwrap();
            let (bytes, _) = a.log_bytes(row.id).unwrap().unwrap();
            let report = validate_bytes(&bytes);
            assert!(report.verdict.is_valid(), "entry {} validates", row.id);
            let header = report.header.unwrap();
            StoredGame {
                source: detail.source.unwrap_or_default(),
                digest: report.digest.unwrap(),
                seed: header.seed,
                meta: header.meta,
            }
        })
        .collect()
}

/// The file name a stored game's source ends with (`cup/game-0003.paifu.jsonl` ->
/// `game-0003.paifu.jsonl`).
fn file_of(source: &str) -> String {
    source.rsplit('/').next().unwrap().to_owned()
}

fn a_queued_match_is_drained_by_two_workers_every_game_stored_once(pg: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let db = Db::new(pg, dir);
    let seeds = seed_file(dir);
    let out = queue(
        dir,
        &db,
        &["--bot", "rnd", "--games", "4", "--seed-from", &seeds, "--match", "cup", "--tournament", "Cup"],
    );
    assert!(out.contains("queued match cup: 4 games as 4 match jobs (ids 1-4, one per game)"), "{out}");
    assert!(out.contains("--bot rnd=CMD"), "{out}");
    assert_eq!(db.open().job_counts().unwrap(), JobCounts { queued: 4, ..JobCounts::default() });
    let bot = format!("rnd={}", builtin("random"));
    let workers: Vec<_> = (0..2)
        .map(|i| worker(dir, &db, &format!("w{i}"), &["--bot", &bot, "--idle-exit", "2", "--lease", "60"], &[]))
        .collect();
    let mut done = Vec::new();
    for w in workers {
        let o = finish(w);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).lines().all(|l| l.contains(": played, stored as #")), "{}", stdout(&o));
        done.extend(jobs_done(&stdout(&o)));
    }
    done.sort_unstable();
    assert_eq!(done, vec![1, 2, 3, 4], "every job played once, by one worker");
    assert_eq!(db.open().job_counts().unwrap(), JobCounts { done: 4, ..JobCounts::default() });
    assert_eq!(counts(&db), (4, 4), "every game stored once; the kept counts equal a recount");
    // The same games as the match played directly from the same contributions, each revealing
    // its seed, derived from the match seed as the arena derives it.
    let here = direct(dir, "m", &["--bot", &builtin("random"), "--games", "4", "--seed-from", &seeds]);
    let reveal: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("m/reveal.json")).unwrap()).unwrap();
    let match_seed: Seed = reveal["match_seed"].as_str().unwrap().parse().unwrap();
    let mut games = stored(&db);
    games.sort_by(|a, b| a.source.cmp(&b.source));
    assert_eq!(
        games.iter().map(|g| g.source.as_str()).collect::<Vec<_>>(),
        (1..=4).map(|n| format!("cup/game-000{n}.paifu.jsonl")).collect::<Vec<_>>()
    );
    for (n, g) in (1..=4).zip(&games) {
        assert_eq!(g.seed, Some(match_seed.child(&format!("game/{n}"))), "game {n} reveals its seed");
        assert_eq!(Some(&g.digest), here.get(&file_of(&g.source)), "game {n} is the game the arena plays");
        assert!(!g.meta.contains_key("sandbox"), "the workers ran the bots in their sandbox");
    }
    let a = db.open();
    assert_eq!(a.tournaments().unwrap()[0].games, 4);
    assert!(a.jobs(Some(JobState::Done), 10).unwrap().iter().all(|j| j.attempts == 1));
    let o = paifu(&["jobs", "--db", &db.url()], dir);
    let listed = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{listed}");
    assert!(listed.contains("4 done, 0 failed"), "{listed}");
    let line = listed.lines().find(|l| l.contains("match job 3:")).unwrap_or_else(|| panic!("{listed}"));
    assert!(line.contains("cup: game 3 of 4 (bots rnd): done (worker w"), "{line}");
    assert!(!listed.contains(&match_seed.to_hex()), "the seed is never shown");
}

fn a_duplicate_set_is_stored_whole_with_the_standings_of_a_direct_match(pg: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let db = Db::new(pg, dir);
    let seeds = seed_file(dir);
    // The standings count the games a key the tournament trusts certified: the worker's key.
    for args in
        [&["keygen", "-o", "referee"][..], &["tournament", "create", "--db", &db.url(), "Dup", "--key", "referee.pub"]]
    {
        let o = paifu(args, dir);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}{}", stdout(&o), stderr(&o));
    }
    let out = queue(
        dir,
        &db,
        &[
            "--bot",
            "fst",
            "--bot",
            "rnd",
            "--duplicate",
            "--games",
            "2",
            "--seed-from",
            &seeds,
            "--match",
            "dup",
            "--tournament",
            "Dup",
        ],
    );
    assert!(out.contains("4 games as 2 duplicate jobs (ids 1-2, one per deal, 2 games each)"), "{out}");
    let (fst, rnd) = (format!("fst={}", builtin("first")), format!("rnd={}", builtin("random")));
    let o =
        finish(worker(dir, &db, "w", &["--bot", &fst, "--bot", &rnd, "--key", "referee.key", "--idle-exit", "1"], &[]));
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains("job 1: duplicate dup: deal 1 of 2 (games 1-2): played, stored as #1, #2"), "{out}");
    assert!(out.contains("job 2: duplicate dup: deal 2 of 2 (games 3-4): played, stored as #3, #4"), "{out}");
    assert_eq!(counts(&db), (4, 4));
    let a = db.open();
    for id in [1, 2] {
        let played: MatchPlayed = serde_json::from_str(a.job(id).unwrap().unwrap().result.as_deref().unwrap()).unwrap();
        assert_eq!(played.entries.len(), 2, "a set's games in one job");
    }
    // The same match played directly: the same games, the same standings.
    let here = direct(
        dir,
        "d",
        &[
            "--bot",
            &builtin("first"),
            "--bot",
            &builtin("random"),
            "--duplicate",
            "--games",
            "2",
            "--seed-from",
            &seeds,
        ],
    );
    let games = stored(&db);
    assert_eq!(games.len(), here.len());
    for g in &games {
        assert_eq!(Some(&g.digest), here.get(&file_of(&g.source)), "{}", g.source);
        assert!(g.meta["duplicate"].starts_with("deal "), "{:?}", g.meta);
    }
    let folder = Folder { root: dir.join("d") };
    let (plan, _) = folder.open().unwrap();
    let direct_summary = paifu_recorder::arena::duplicate::of_folder(&folder, &plan).unwrap();
    let tables = a.duplicate_standings("Dup").unwrap().expect("the tournament");
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0].summary, direct_summary, "the archive's duplicate standings are the direct match's");
    assert_eq!((direct_summary.sets, direct_summary.incomplete), (2, 0));
}

/// A TZQ bot in Python that plays the first legal action after `delay` seconds.
const SLOW_FIRST: &str = r#"
import json, sys, time
delay = float(sys.argv[1])
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "ask":
        time.sleep(delay)
        print(m["legal"][0], flush=True)
    else:
        print("ok", flush=True)
"#;

fn a_worker_killed_mid_game_stores_nothing_and_another_plays_the_job_once(pg: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let db = Db::new(pg, dir);
    let seeds = seed_file(dir);
    std::fs::write(dir.join("first.py"), SLOW_FIRST).unwrap();
    queue(dir, &db, &["--bot", "first", "--games", "1", "--seed-from", &seeds, "--match", "slow"]);
    let mut killed =
        worker(dir, &db, "killed", &["--bot", "first=python3 first.py 0.1", "--lease", "2", "--work-dir", "work"], &[]);
    // Mid-game: the worker's journal of the game holds its header and a few records.
    let journal = dir.join("work/job-1-1/live/game-0001.paifu.jsonl");
    let started = Instant::now();
    while std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 5 {
        assert!(started.elapsed() < Duration::from_secs(60), "the game never began");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(db.open().job_counts().unwrap().running, 1);
    killed.kill().unwrap();
    finish(killed);
    assert_eq!(counts(&db), (0, 0), "nothing of the killed run is stored");
    wait_for(&db, |c| c.expired == 1);
    let o = finish(worker(
        dir,
        &db,
        "survivor",
        &["--bot", "first=python3 first.py 0", "--idle-exit", "2", "--lease", "60", "--work-dir", "work2"],
        &[],
    ));
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains("job 1: match slow: game 1 of 1 (attempt 2): played, stored as #1"), "{out}");
    let a = db.open();
    let j = a.job(1).unwrap().unwrap();
    assert_eq!((j.state, j.attempts, j.worker.as_deref()), (JobState::Done, 2, Some("survivor")));
    assert_eq!(a.job_counts().unwrap(), JobCounts { done: 1, ..JobCounts::default() });
    assert_eq!(counts(&db), (1, 1), "stored once");
    // Played again from its start: the game an uninterrupted run plays.
    let here = direct(dir, "m", &["--bot", "python3 first.py 0", "--games", "1", "--seed-from", &seeds]);
    let games = stored(&db);
    assert_eq!(Some(&games[0].digest), here.get("game-0001.paifu.jsonl"));
    assert!(!dir.join("work2/job-1-2").exists(), "the worker's folder of the job is removed once stored");
}

fn a_job_row_cannot_make_a_worker_run_a_command(pg: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let db = Db::new(pg, dir);
    let pwned = |n: u32| dir.join(format!("pwned-{n}"));
    let legit = MatchJob {
        label: "evil".into(),
        game: "tzq".into(),
        ruleset: "standard".into(),
        options: Default::default(),
        bots: vec!["rnd".into(), "rnd".into()],
        names: vec!["Ann".into(), "Bo".into()],
        protocol: "paifu".into(),
        games: 1,
        decision_ms: 5_000,
        game_ms: 600_000,
        policy: "safe".into(),
        commitments: None,
        duplicate: false,
        numbers: vec![1],
    };
    let spec = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v = serde_json::to_value(&legit).unwrap();
        edit(&mut v);
        v.to_string()
    };
    let job = |title: &str, bots: Vec<String>, spec: String| NewMatchJob {
        kind: JobKind::Match,
        title: title.into(),
        bots,
        spec,
    };
    let touch = |n: u32| format!("sh -c 'touch {}'", pwned(n).display());
    let rnd = vec!["rnd".to_owned()];
    let jobs = [
        // A shell command as a bot's name.
        job("a command as a bot", vec![touch(1)], spec(&|v| v["bots"] = serde_json::json!([touch(1), touch(1)]))),
        // A command beside the bot's name.
        job("a command in the job", rnd.clone(), spec(&|v| v["commands"] = serde_json::json!({ "rnd": touch(2) }))),
        // The sandbox turned off by the job (this worker's is off by its own flag; a job may not
        // say either way).
        job("the sandbox set by the job", rnd.clone(), spec(&|v| v["sandbox"] = serde_json::json!(false))),
        // The list of bots says rnd, the games a command.
        job("a list that lies", rnd.clone(), spec(&|v| v["bots"] = serde_json::json!([touch(4), "rnd"]))),
        // A job this worker plays, with its own command for rnd.
        job("evil: game 1 of 1", rnd, spec(&|_| {})),
    ];
    let ids = db.open().enqueue_match(&jobs, &Seed::from_text("attack").to_hex(), None).unwrap();
    assert_eq!(ids, vec![1, 2, 3, 4, 5]);
    // The worker's own command for rnd leaves a mark (unsandboxed, so that a command run here
    // could write the test's folder): the files that appear are the worker's own doing.
    let control = dir.join("control");
    let own = format!(
        "rnd=sh -c 'touch {}; exec {} bot tzq --strategy random --seed s'",
        control.display(),
        env!("CARGO_BIN_EXE_paifu")
    );
    let o = finish(worker(dir, &db, "w", &["--bot", &own, "--no-sandbox", "--idle-exit", "1"], &[]));
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "failed jobs: exit status 1: {out}{}", stderr(&o));
    for n in [1, 2, 4] {
        assert!(!pwned(n).exists(), "job {n}'s command was run");
    }
    assert!(control.exists(), "the worker's own command ran (the check would see a file made)");
    assert!(out.contains("job 1: a command as a bot: needs bot sh -c 'touch"), "{out}");
    assert!(out.contains("left for another worker"), "{out}");
    let a = db.open();
    let state = |id: i64| a.job(id).unwrap().unwrap();
    assert_eq!((state(1).state, state(1).attempts), (JobState::Queued, 0), "left for a worker that has the bot");
    for (id, why) in [(2, "unknown field `commands`"), (3, "unknown field `sandbox`"), (4, "not a bot's name")] {
        let j = state(id);
        assert_eq!(j.state, JobState::Failed, "job {id}");
        assert!(j.error.as_deref().unwrap_or("").contains(why), "job {id}: {:?}", j.error);
    }
    assert_eq!(state(5).state, JobState::Done);
    let games = stored(&db);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].meta.get("sandbox").map(String::as_str), Some(UNSANDBOXED), "the worker's flag, said");
    // A worker without the bot never takes the job, and `paifu jobs` shows it waiting.
    let o = paifu(&["jobs", "--db", &db.url()], dir);
    assert!(stdout(&o).contains("match job 1: a command as a bot (bots sh -c"), "{}", stdout(&o));
    assert!(stdout(&o).contains("): queued"), "{}", stdout(&o));
}

#[test]
fn postgres_a_queued_match_is_drained_by_two_workers() {
    a_queued_match_is_drained_by_two_workers_every_game_stored_once(true);
}

#[test]
fn sqlite_a_queued_match_is_drained_by_two_workers() {
    a_queued_match_is_drained_by_two_workers_every_game_stored_once(false);
}

#[test]
fn postgres_a_duplicate_set_is_stored_whole_with_the_direct_standings() {
    a_duplicate_set_is_stored_whole_with_the_standings_of_a_direct_match(true);
}

#[test]
fn sqlite_a_duplicate_set_is_stored_whole_with_the_direct_standings() {
    a_duplicate_set_is_stored_whole_with_the_standings_of_a_direct_match(false);
}

#[test]
fn postgres_a_worker_killed_mid_game_stores_nothing() {
    a_worker_killed_mid_game_stores_nothing_and_another_plays_the_job_once(true);
}

#[test]
fn sqlite_a_worker_killed_mid_game_stores_nothing() {
    a_worker_killed_mid_game_stores_nothing_and_another_plays_the_job_once(false);
}

#[test]
fn postgres_a_job_row_cannot_make_a_worker_run_a_command() {
    a_job_row_cannot_make_a_worker_run_a_command(true);
}

#[test]
fn sqlite_a_job_row_cannot_make_a_worker_run_a_command() {
    a_job_row_cannot_make_a_worker_run_a_command(false);
}

#[test]
fn queueing_refuses_commands_and_sandbox_flags_and_the_help_teaches_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (args, wants) in [
        (&["arena", "tzq", "--queue", "--bot", "rnd"][..], "--db"),
        (&["arena", "tzq", "--queue", "--db", "q.db", "--bot", "paifu bot tzq"], "not a bot's name"),
        (&["arena", "tzq", "--queue", "--db", "q.db", "--bot", "rnd", "--no-sandbox"], "--no-sandbox"),
        (&["arena", "tzq", "--queue", "--db", "q.db", "--bot", "rnd", "--allow", "/opt"], "--allow"),
        (&["arena", "tzq", "--queue", "--db", "q.db", "--bot", "rnd", "--key", "k.key"], "--key"),
        (&["worker", "--db", "q.db", "--bot", "no equals sign"], "NAME=CMD"),
        (&["worker", "--db", "q.db", "--bot", "a b=true"], "not a bot's name"),
    ] {
        let o = paifu(args, dir);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}{}", stdout(&o), stderr(&o));
        assert!(stderr(&o).contains(wants), "{args:?}: {}", stderr(&o));
    }
    assert!(!dir.join("q.db").exists() || db_has_no_jobs(&dir.join("q.db")), "nothing queued");
    for (args, wants) in [
        (&["arena", "--help"][..], &["--queue", "--match", "paifu worker --bot", "NAME"][..]),
        (
            &["worker", "--help"],
            &["--bot <NAME=CMD>", "--bots-file", "--work-dir", "--no-sandbox", "left for another worker"],
        ),
        (&["jobs", "--help"], &["--matches", "match jobs"]),
    ] {
        let o = paifu(args, dir);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        // The help is wrapped to the terminal: its words compared, not its lines.
        let text = stdout(&o).split_whitespace().collect::<Vec<_>>().join(" ");
        for w in wants {
            assert!(text.contains(w), "{args:?} lacks {w:?}");
        }
    }
}

/// Issue 29's note: a match of one game was queued as "1 games as 1 match jobs (ids 1-1, ...)".
#[test]
fn issue29_a_match_of_one_game_is_said_in_the_singular() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let db = Db::new(false, dir);
    let out = queue(dir, &db, &["--bot", "rnd", "--games", "1", "--match", "one"]);
    assert!(out.contains("queued match one: 1 game as 1 match job (id 1, one per game)"), "{out}");
    let out = queue(dir, &db, &["--bot", "rnd", "--games", "2", "--match", "two"]);
    assert!(out.contains("queued match two: 2 games as 2 match jobs (ids 2-3, one per game)"), "{out}");
}

/// A player's name the archive would refuse when the first game is stored (an invisible
/// character) is refused when the match is queued: no game is played only to be thrown away.
#[test]
fn a_queued_match_with_a_name_the_archive_refuses_is_refused_before_it_is_played() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let o = paifu(
        &[
            "arena",
            "tzq",
            "--queue",
            "--db",
            "q.db",
            "--bot",
            "a",
            "--bot",
            "b",
            "--name",
            "Ann\u{200B}",
            "--name",
            "Bo",
        ],
        dir,
    );
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("--name \"Ann\\u{200b}\""), "{}", stderr(&o));
    assert!(db_has_no_jobs(&dir.join("q.db")), "nothing queued");
}

fn db_has_no_jobs(path: &Path) -> bool {
    let a = paifu_recorder::archive::Archive::open(path).unwrap();
    a.job_counts().unwrap() == JobCounts::default()
}
