//! `paifu worker`: takes jobs from the archive's queue (`paifu ingest --queue`, `paifu jobs
//! revalidate`, `paifu arena --queue`) and works them until stopped (docs/archive.md, "The
//! queue"). Match jobs are played with the bots this worker was given itself (`--bot NAME=CMD`),
//! in the sandbox its own flags make: a job names bots, never commands.

use crate::archive::open;
use crate::args::DEFAULT_DB;
use crate::cmd::keygen::read_key;
use crate::cmd::sign::certify;
use crate::error::{Error, Result, Status};
use crate::output::outln;
use clap::Args;
use paifu_core::cert::Certificate;
use paifu_core::log::{Header, Record};
use paifu_core::Seed;
use paifu_recorder::archive::{is_postgres_url, Archive, ArchiveError, Job, JobKind, Prepared, Worked};
use paifu_recorder::arena::host::Timing;
use paifu_recorder::arena::matches::{Folder, MatchError, Plan, Watch, DEFAULT_BOT_MEMORY_MB};
use paifu_recorder::arena::queued::{check_bot_name, play_games, Confinement, MatchJob};
use paifu_recorder::arena::sandbox::{Rlimits, Sandbox, Secrets};
use paifu_recorder::bots::{self, Bots};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
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

Arena jobs (queued by paifu arena --queue): match (one game) and duplicate (one deal in every rotation of the \
seats, stored together or not at all). A job names its bots by NAME; the worker plays only with the bots given to \
it here, --bot NAME=CMD or --bots FILE (one NAME=CMD a line), and never runs a command read from the database. A \
job naming a bot this worker was not given is left for another worker (said once per job). The bots run in the \
sandbox of paifu arena (docs/protocol.md), made by this worker's own --no-sandbox, --allow and --bot-memory-mb; the \
games are played in --work-dir, which the bots do not see, and stored with the job marked done in one transaction. \
The lease is renewed as the games go on; a worker killed mid-game stores nothing, and the job is played again from \
its start by the next worker once the lease passes. A worker without --bot takes no arena job.

One line is printed per job. Ctrl-C (or SIGTERM) finishes the current job, then stops; a second Ctrl-C stops at \
once (the job is then taken again after its lease).

Examples:
  paifu ingest --queue drop/ --db postgres://paifu@db.example/paifu
  paifu worker --db postgres://paifu@db.example/paifu                  # until Ctrl-C
  paifu worker --db postgres://paifu@db.example/paifu --idle-exit 60   # stop after a minute with nothing to do
  paifu worker --db club.db --once                                     # one job, then stop
  paifu worker --db postgres://paifu@db.example/paifu \
      --bot greedy='paifu bot riichi --strategy first' --bot mine='/opt/bots/mine {seat}' --allow /opt/bots
  paifu worker --db postgres://paifu@db.example/paifu --bots /etc/paifu/bots.txt
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
    /// A bot this worker plays arena jobs with: NAME=CMD (repeatable). Jobs name bots by NAME
    /// (paifu arena --queue --bot NAME); CMD is run as paifu arena runs a --bot ({seat} becomes
    /// the seat number).
    #[arg(long = "bot", value_name = "NAME=CMD")]
    pub bots: Vec<String>,
    /// A file of bots, one NAME=CMD a line (blank lines and lines starting with # are skipped).
    #[arg(long, value_name = "FILE")]
    pub bots_file: Option<PathBuf>,
    /// Run the bots unsandboxed (the logs' headers then say so), as paifu arena --no-sandbox.
    #[arg(long)]
    pub no_sandbox: bool,
    /// A file or folder the sandboxed bots may read besides those their commands name
    /// (repeatable).
    #[arg(long, value_name = "PATH")]
    pub allow: Vec<PathBuf>,
    /// The address space each process of a sandboxed bot may use, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_BOT_MEMORY_MB)]
    pub bot_memory_mb: u64,
    /// Where arena jobs' games are played (a folder per job, removed when it is stored; hidden
    /// from the bots). Default: paifu-worker-PID in the system's temporary folder.
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
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
        JobKind::Match | JobKind::Duplicate => {
            format!("{} {}", job.kind.as_str(), job.name.as_deref().unwrap_or("(unnamed)"))
        }
    }
}

/// `paifu worker`.
pub fn run(a: WorkerArgs) -> Result {
    let key = a.key.as_deref().map(read_key).transpose()?;
    let name = a.name.clone().unwrap_or_else(default_name);
    if name.is_empty() || name.chars().any(char::is_control) {
        return Err(Error::Usage("--name: a worker's name may not be empty or hold control characters".into()));
    }
    let arena = Arena::of(&a)?;
    let mut archive = open(&a.db)?;
    on_stop_signals()?;
    let sign = |p: &Prepared| -> Option<Certificate> { key.as_ref().and_then(|k| certify(&p.report(), k)) };
    let lease = Duration::from_secs(a.lease);
    let (mut done, mut failed) = (0u64, 0u64);
    let mut idle = Instant::now();
    let batch = if a.once { 1 } else { a.batch };
    let mut told: BTreeSet<i64> = BTreeSet::new();
    while !STOP.load(Ordering::SeqCst) {
        let mut jobs = archive.take_jobs(&name, lease, batch).map_err(Error::archive(&a.db))?;
        if jobs.is_empty() && !arena.commands.is_empty() {
            let mut lacking = Vec::new();
            let job = archive
                .take_match_job(&name, lease, &arena.have(), &mut |id, title, missing| {
                    if told.insert(id) {
                        lacking.push(format!(
                            "job {id}: {title}: needs bot {}, which this worker was not given (--bot NAME=CMD): left for \
                             another worker",
                            missing.join(", ")
                        ));
                    }
                })
                .map_err(Error::archive(&a.db))?;
            for line in lacking {
                outln!("{line}")?;
            }
            jobs.extend(job);
        }
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
        // A match job is taken alone; ingest and re-validation jobs come in batches.
        let worked = match jobs[0].kind {
            JobKind::Match | JobKind::Duplicate => vec![arena.play(&mut archive, &jobs[0], lease, &sign)],
            JobKind::Ingest | JobKind::Revalidate => archive
                .work_jobs(&jobs, &sign, &mut || test_pause(PAUSE_BEFORE_COMMIT))
                .map_err(Error::archive(&a.db))?,
        };
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
                Ok(Worked::Played(stored)) => {
                    done += 1;
                    let entries: Vec<String> = stored.iter().map(|s| format!("#{}", s.id)).collect();
                    outln!("job {}: {what}{attempt}: played, stored as {}", job.id, entries.join(", "))?;
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

/// What this worker plays arena jobs with: its own bots (by name), its own sandbox options, its
/// folder, and what the bots must not see.
struct Arena {
    commands: BTreeMap<String, String>,
    confinement: Confinement,
    work_dir: PathBuf,
    /// The archive's files (a SQLite archive) and the key: hidden from the bots.
    secrets: Vec<PathBuf>,
}

/// `NAME=CMD` read as a bot (`from`: where it was given, for the message).
fn bot_entry(text: &str, from: &str) -> Result<(String, String)> {
    let Some((name, command)) = text.split_once('=') else {
        return Err(Error::Usage(format!("{from}: {text:?} is not NAME=CMD")));
    };
    let (name, command) = (name.trim(), command.trim());
    check_bot_name(name).map_err(|e| Error::Usage(format!("{from}: {e}")))?;
    if command.is_empty() {
        return Err(Error::Usage(format!("{from}: the bot {name:?} has no command")));
    }
    Ok((name.to_owned(), command.to_owned()))
}

impl Arena {
    fn of(a: &WorkerArgs) -> Result<Arena> {
        let mut entries = Vec::new();
        for b in &a.bots {
            entries.push(bot_entry(b, "--bot")?);
        }
        if let Some(file) = &a.bots_file {
            let text = std::fs::read_to_string(file).map_err(Error::io(file))?;
            for (i, line) in text.lines().enumerate() {
                let line = line.trim();
                if !line.is_empty() && !line.starts_with('#') {
                    entries.push(bot_entry(line, &format!("{}, line {}", file.display(), i + 1))?);
                }
            }
        }
        let mut commands = BTreeMap::new();
        for (name, command) in entries {
            if commands.insert(name.clone(), command).is_some() {
                return Err(Error::Usage(format!("the bot {name:?} is given twice")));
            }
        }
        let cwd = std::env::current_dir().map_err(Error::io(Path::new(".")))?;
        let absolute = |p: &Path| if p.is_absolute() { p.to_owned() } else { cwd.join(p) };
        let work_dir = match &a.work_dir {
            Some(d) => absolute(d),
            None => std::env::temp_dir().join(format!("paifu-worker-{}", std::process::id())),
        };
        let mut secrets = Vec::new();
        let db = a.db.display().to_string();
        if !is_postgres_url(&db) {
            secrets.extend(Secrets::archive_files(&absolute(&a.db)));
        }
        secrets.extend(a.key.as_deref().map(absolute));
        let confinement = Confinement {
            sandbox: !a.no_sandbox,
            allow: a.allow.iter().map(|p| absolute(p)).collect(),
            bot_memory_mb: a.bot_memory_mb,
        };
        let arena = Arena { commands, confinement, work_dir, secrets };
        // A sandbox that cannot start stops the worker before it takes a job.
        if !arena.commands.is_empty() {
            if let Some(s) = arena.sandbox(600_000)? {
                s.probe().map_err(|e| Error::Usage(e.to_string()))?;
            }
        }
        Ok(arena)
    }

    fn have(&self) -> BTreeSet<String> {
        self.commands.keys().cloned().collect()
    }

    /// The sandbox for a job whose games have `game_ms` each (`None`: --no-sandbox).
    fn sandbox(&self, game_ms: u64) -> Result<Option<Sandbox>> {
        if !self.confinement.sandbox {
            return Ok(None);
        }
        let cwd = std::env::current_dir().map_err(Error::io(Path::new(".")))?;
        let secrets = Secrets {
            folders: vec![self.work_dir.clone()],
            files: self.secrets.clone(),
            allow: self.confinement.allow.clone(),
        };
        let limits = Rlimits::new(self.confinement.bot_memory_mb, game_ms);
        let own = std::env::current_exe().ok();
        Sandbox::new(secrets, limits, &cwd, own).map(Some).map_err(|e| Error::Usage(e.to_string()))
    }

    /// Plays a match job this worker took and stores its games (see [`Archive::finish_match_job`]);
    /// a job that cannot be read or played is failed with the reason.
    fn play(
        &self,
        archive: &mut Archive,
        job: &Job,
        lease: Duration,
        sign: &dyn Fn(&Prepared) -> Option<Certificate>,
    ) -> std::result::Result<Worked, ArchiveError> {
        let prepared = match self.prepare(job) {
            Ok(p) => p,
            Err(e) => return archive.fail_job(job, &e).map(|()| Worked::Failed(e)),
        };
        let (spec, plan, seed) = prepared;
        let folder = Folder { root: self.work_dir.join(format!("job-{}-{}", job.id, job.attempt)) };
        let _ = std::fs::remove_dir_all(&folder.root);
        let played = self.play_games(archive, job, lease, &spec, &plan, &seed, &folder);
        let outcome = match played {
            Ok(logs) => archive.finish_match_job(job, &logs, sign, &mut || test_pause(PAUSE_BEFORE_COMMIT)),
            Err(Played::Lost) => Err(ArchiveError::LostLease { job: job.id }),
            Err(Played::Failed(e)) => archive.fail_job(job, &e).map(|()| Worked::Failed(e)),
        };
        let _ = std::fs::remove_dir_all(&folder.root);
        outcome
    }

    /// The job's games, the plan this worker plays them with, and the match seed.
    fn prepare(&self, job: &Job) -> std::result::Result<(MatchJob, Plan, Seed), String> {
        let spec: MatchJob = serde_json::from_str(job.spec.as_deref().unwrap_or(""))
            .map_err(|e| format!("not a match job this worker can read: {e}"))?;
        spec.check().map_err(|e| format!("not a match job this worker can play: {e}"))?;
        let seed: Seed =
            job.seed.as_deref().unwrap_or("").parse().map_err(|e| format!("the match seed is not a seed: {e}"))?;
        let plan = spec.plan(&self.commands, &self.confinement).map_err(|missing| {
            format!(
                "its games need bot {}, which its list of bots does not name (this worker was not given it)",
                missing.join(", ")
            )
        })?;
        Ok((spec, plan, seed))
    }

    #[allow(clippy::too_many_arguments)]
    fn play_games(
        &self,
        archive: &mut Archive,
        job: &Job,
        lease: Duration,
        spec: &MatchJob,
        plan: &Plan,
        seed: &Seed,
        folder: &Folder,
    ) -> std::result::Result<Vec<(String, Vec<u8>)>, Played> {
        let sandbox = self.sandbox(plan.game_ms).map_err(|e| Played::Failed(e.to_string()))?;
        std::fs::create_dir_all(&folder.root).map_err(|e| Played::Failed(format!("{}: {e}", folder.root.display())))?;
        let mut keep = KeepLease { archive, job, lease, renewed: Instant::now(), lost: false };
        let visit = PlayJob { folder, plan, seed, numbers: &spec.numbers, watch: &mut keep, sandbox: sandbox.as_ref() };
        let paths = bots::by_name(&plan.game, visit).map_err(|f| Played::Failed(f.message))?;
        let paths = match paths {
            Ok(p) => p,
            Err(_) if keep.lost => return Err(Played::Lost),
            Err(e) => return Err(Played::Failed(e.to_string())),
        };
        spec.numbers
            .iter()
            .zip(paths)
            .map(|(n, path)| {
                let bytes = std::fs::read(&path).map_err(|e| Played::Failed(format!("{}: {e}", path.display())))?;
                Ok((format!("{}/{}.paifu.jsonl", spec.label, paifu_recorder::arena::matches::game_key(*n)), bytes))
            })
            .collect()
    }
}

/// Why a match job's games were not played to their end.
enum Played {
    /// Another worker holds the job now (this one's lease passed).
    Lost,
    Failed(String),
}

/// Renews the job's lease as the games go on (at most every third of it), and notices when the
/// job is no longer this worker's: the game then stops.
struct KeepLease<'a> {
    archive: &'a mut Archive,
    job: &'a Job,
    lease: Duration,
    renewed: Instant,
    lost: bool,
}

impl KeepLease<'_> {
    fn renew(&mut self) -> std::result::Result<(), String> {
        if self.renewed.elapsed() < self.lease / 3 {
            return Ok(());
        }
        match self.archive.renew_lease(self.job, self.lease) {
            Ok(()) => {
                self.renewed = Instant::now();
                Ok(())
            }
            Err(e) => {
                self.lost = matches!(e, ArchiveError::LostLease { .. });
                Err(e.to_string())
            }
        }
    }
}

impl<A> Watch<A> for KeepLease<'_> {
    fn begin(&mut self, _: u32, _: &Header, _: &[Record<A>]) -> std::result::Result<(), String> {
        self.renew()
    }
    fn record(&mut self, _: u32, _: &Record<A>) -> std::result::Result<(), String> {
        self.renew()
    }
    fn finished(&mut self, _: u32, _: &Path, _: &Timing) -> std::result::Result<(), String> {
        self.renew()
    }
    fn settled(&mut self, _: u32, _: &Path) -> std::result::Result<(), String> {
        Ok(())
    }
}

/// Plays a job's games with the engine its plan names.
struct PlayJob<'a, 'w> {
    folder: &'a Folder,
    plan: &'a Plan,
    seed: &'a Seed,
    numbers: &'a [u32],
    watch: &'a mut KeepLease<'w>,
    sandbox: Option<&'a Sandbox>,
}

impl bots::Visitor for PlayJob<'_, '_> {
    type Output = std::result::Result<Vec<PathBuf>, MatchError>;
    fn visit<G: Bots>(self) -> Self::Output {
        play_games::<G>(self.folder, self.plan, self.seed, self.numbers, G::protocol, self.watch, self.sandbox)
    }
}
