//! `paifu worker`: takes jobs from the archive's queue (`paifu ingest --queue`, `paifu jobs
//! revalidate`) and works them until stopped (docs/archive.md, "The queue").

use crate::archive::open;
use crate::args::DEFAULT_DB;
use crate::cmd::keygen::read_key;
use crate::cmd::sign::certify;
use crate::error::{Error, Result, Status};
use crate::output::outln;
use clap::Args;
use paifu_core::cert::Certificate;
use paifu_recorder::archive::{ArchiveError, Job, JobKind, Prepared, Worked};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often an idle worker asks for a job.
const POLL: Duration = Duration::from_millis(250);

/// Test hooks (only the tests set them; documented in docs/archive.md): milliseconds a worker
/// sleeps after taking a job, before working it; and inside the transaction that finishes it,
/// after the entry is written and before the commit. A test kills the worker then.
const PAUSE_AFTER_TAKE: &str = "PAIFU_WORKER_TEST_PAUSE_MS";
const PAUSE_BEFORE_COMMIT: &str = "PAIFU_WORKER_TEST_PAUSE_IN_COMMIT_MS";

#[derive(Args, Debug, Clone)]
#[command(after_help = "A worker takes the oldest job of the archive's queue, works it and takes the next, until \
it is stopped. Any number of workers, on any number of machines, may share one archive (a PostgreSQL URL; a SQLite \
file serves the workers of one machine): each job is taken by one worker at a time, under a lease. A worker that \
dies (killed, its machine lost) leaves its job to another once the lease passes (--lease), and nothing of its work \
is kept: a job's effect and the job marked done are committed together. Storing the same log twice keeps one entry.

Jobs: ingest (queued by paifu ingest --queue: a file validated and stored as paifu ingest stores it, with a \
certificate signed by --key if given) and revalidate (queued by paifu jobs revalidate: entries replayed again under \
this build's engine; entries whose verdict would differ are listed by paifu jobs). A file that is not a log, or \
whose names are refused, makes a failed job with its error; the worker goes on.

One line is printed per job. Ctrl-C (or SIGTERM) finishes the current job, then stops; a second Ctrl-C stops at \
once (the job is then taken again after its lease).

Examples:
  paifu ingest --queue drop/ --db postgres://paifu@db.example/paifu
  paifu worker --db postgres://paifu@db.example/paifu                  # until Ctrl-C
  paifu worker --db postgres://paifu@db.example/paifu --idle-exit 60   # stop after a minute with nothing to do
  paifu worker --db club.db --once                                     # one job, then stop
  paifu jobs --db postgres://paifu@db.example/paifu                    # what the queue holds

Exit status: 0 every job it worked was done, 1 some job failed (its error is in paifu jobs), 2 the database could \
not be used.")]
/// Take jobs from the archive's queue (ingest, re-validation) and work them until stopped.
pub struct WorkerArgs {
    /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME.
    #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// This worker's name in the queue (default: HOST:PID). Two live workers must not share one.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Work one job (if one is queued), then stop.
    #[arg(long)]
    pub once: bool,
    /// Stop after this many seconds with no job to take.
    #[arg(long, value_name = "SECS")]
    pub idle_exit: Option<u64>,
    /// How long a job stays this worker's before another may take it, in seconds: longer than
    /// any job takes (a re-validation job is up to 200 entries).
    #[arg(long, value_name = "SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    pub lease: u64,
    /// Take up to this many queued ingest jobs at once and store them in one transaction (one
    /// commit and one turn of the archive's write lock for all, each job still stored once, or
    /// not at all, with its "done"). A job taken again after its worker died is taken alone.
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub batch: u32,
    /// Sign a certificate of each log ingested with this ed25519 private key (PKCS#8 PEM), stored
    /// with the entry in the same transaction.
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
}

/// Set by Ctrl-C or SIGTERM: finish the current job, then stop.
static STOP: AtomicBool = AtomicBool::new(false);

/// Ctrl-C and SIGTERM set [`STOP`]; a second one ends the process at once.
fn on_stop_signals() -> Result<()> {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the action only reads and writes an atomic and may call `_exit`, both
        // async-signal-safe; it allocates nothing and takes no lock.
        let registered = unsafe {
            signal_hook_registry::register(signal, || {
                if STOP.swap(true, Ordering::SeqCst) {
                    libc::_exit(130);
                }
            })
        };
        registered.map_err(|e| Error::Usage(format!("cannot handle Ctrl-C: {e}")))?;
    }
    Ok(())
}

/// Sleeps the milliseconds the test hook `var` names, if it is set.
fn test_pause(var: &str) {
    if let Some(ms) = std::env::var(var).ok().and_then(|v| v.parse::<u64>().ok()) {
        std::thread::sleep(Duration::from_millis(ms));
    }
}

/// This machine's name and this process's number.
fn default_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_owned())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "worker".into());
    format!("{host}:{}", std::process::id())
}

/// What the job was about, as its line names it.
fn subject(job: &Job) -> String {
    match job.kind {
        JobKind::Ingest => format!("ingest {}", job.name.as_deref().unwrap_or("(unnamed)")),
        JobKind::Revalidate => format!("revalidate entries {}-{}", job.first, job.last),
    }
}

/// `paifu worker`.
pub fn run(a: WorkerArgs) -> Result {
    let key = a.key.as_deref().map(read_key).transpose()?;
    let name = a.name.clone().unwrap_or_else(default_name);
    if name.is_empty() || name.chars().any(char::is_control) {
        return Err(Error::Usage("--name: a worker's name may not be empty or hold control characters".into()));
    }
    let mut archive = open(&a.db)?;
    on_stop_signals()?;
    let sign = |p: &Prepared| -> Option<Certificate> { key.as_ref().and_then(|k| certify(&p.report(), k)) };
    let lease = Duration::from_secs(a.lease);
    let (mut done, mut failed) = (0u64, 0u64);
    let mut idle = Instant::now();
    let batch = if a.once { 1 } else { a.batch };
    while !STOP.load(Ordering::SeqCst) {
        let jobs = archive.take_jobs(&name, lease, batch).map_err(Error::archive(&a.db))?;
        if jobs.is_empty() {
            if a.once {
                outln!("no job is queued")?;
                break;
            }
            if a.idle_exit.is_some_and(|s| idle.elapsed() >= Duration::from_secs(s)) {
                break;
            }
            std::thread::sleep(POLL);
            continue;
        }
        test_pause(PAUSE_AFTER_TAKE);
        let worked =
            archive.work_jobs(&jobs, &sign, &mut || test_pause(PAUSE_BEFORE_COMMIT)).map_err(Error::archive(&a.db))?;
        for (job, w) in jobs.iter().zip(worked) {
            let what = subject(job);
            let attempt = if job.attempt > 1 { format!(" (attempt {})", job.attempt) } else { String::new() };
            match w {
                Ok(Worked::Ingested(s)) => {
                    done += 1;
                    let verdict = match &s.fault {
                        Some(f) => format!("invalid ({})", f.code.as_str()),
                        None => "valid".into(),
                    };
                    let how = if s.new { "stored as" } else { "already stored as" };
                    outln!("job {}: {what}{attempt}: {verdict}, {how} #{}", job.id, s.id)?;
                }
                Ok(Worked::Revalidated(r)) => {
                    done += 1;
                    outln!(
                        "job {}: {what}{attempt}: {} checked, {} same, {} differ",
                        job.id,
                        r.checked,
                        r.same,
                        r.changed.len()
                    )?;
                    for c in &r.changed {
                        outln!("  #{}: stored {}, now {}", c.id, c.stored, c.now)?;
                    }
                }
                Ok(Worked::Failed(e)) => {
                    failed += 1;
                    outln!("job {}: {what}{attempt}: failed: {e}", job.id)?;
                }
                Err(ArchiveError::LostLease { .. }) => {
                    outln!(
                        "job {}: {what}{attempt}: not finished: its lease ({} s) passed and another worker took it",
                        job.id,
                        a.lease
                    )?;
                }
                Err(e) => return Err(Error::archive(&a.db)(e)),
            }
        }
        idle = Instant::now();
        if a.once {
            break;
        }
    }
    let why = if STOP.load(Ordering::SeqCst) { "stopped" } else { "done" };
    eprintln!("worker {name}: {why}: {done} jobs done, {failed} failed");
    Ok(Status::faulty_if(failed > 0))
}
