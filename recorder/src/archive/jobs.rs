//! The workers' queue (issue 29): jobs kept in the archive's own database, taken by any number
//! of `paifu worker` processes on any number of machines (docs/archive.md, "The queue").
//!
//! A job is `ingest` (a file's bytes, its name, tournament and who queued it: validated and
//! stored as `paifu ingest` stores it), `revalidate` (a range of entries, replayed again under
//! this build's engine; the stored verdicts never change, the new one is the job's result), or
//! an arena job, `match` (one game) or `duplicate` (a deal in every rotation): played by a worker
//! that has the bots it names, its games stored together (the section "Arena matches and
//! duplicate sets as jobs" below).
//!
//! - **Taking** ([`Archive::take_job`]): one short transaction picks the oldest job that is
//!   queued, or running under a lease that has passed (its worker died), and sets this worker's
//!   lease on it (its name, until when) and counts the attempt. On PostgreSQL the pick is
//!   `SELECT ... FOR UPDATE SKIP LOCKED LIMIT 1`: workers taking at once each get another job and
//!   never wait for each other (the archive's advisory write lock is not taken). On SQLite the
//!   transaction holds the file's write lock from its start (`BEGIN IMMEDIATE`), which
//!   serialises the takers.
//! - **Working**: validation runs with no transaction open ([`prepare`], or the replays of a
//!   re-validation): a long transaction would hold the writers and stall PostgreSQL's vacuum.
//! - **Finishing** ([`Archive::work_job`]): the job's effect (its entry stored, with the same
//!   one-counted-entry guarantees as [`Archive::store_batch`]) and the job marked done are ONE
//!   write transaction, which first checks that this worker still holds the lease (the same
//!   attempt): a worker killed before it commits leaves nothing, and the job is taken again when
//!   the lease passes; a worker whose lease passed while it worked is refused
//!   ([`ArchiveError::LostLease`]) and its work rolled back. Storing the same bytes twice keeps
//!   one entry in any case (the entry's identity).
//! - A job that fails (bytes that are not a log, a refused name) is `failed` with its error; a
//!   job whose workers died [`MAX_ATTEMPTS`] times is `failed` as abandoned.

use super::db::{params, Db};
use super::names::{check_name, NameKind};
use super::prepare::{prepare, Prepared};
use super::{now, parse_json, store_items, ArchiveError, Origin, Result, Stored};
use crate::archive::Archive;
use paifu_core::cert::Certificate;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How many times a job is taken before it is given up as abandoned (its workers died each
/// time: a file that kills its worker does not kill every worker in turn).
pub const MAX_ATTEMPTS: i64 = 5;

/// What a job does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobKind {
    Ingest,
    Revalidate,
    /// One game of an arena match (`paifu arena --queue`).
    Match,
    /// One deal of a duplicate match, every rotation of it: stored together or not at all.
    Duplicate,
}

impl JobKind {
    pub fn as_str(self) -> &'static str {
        match self {
            JobKind::Ingest => "ingest",
            JobKind::Revalidate => "revalidate",
            JobKind::Match => "match",
            JobKind::Duplicate => "duplicate",
        }
    }

    fn parse(s: &str) -> Result<JobKind> {
        match s {
            "ingest" => Ok(JobKind::Ingest),
            "revalidate" => Ok(JobKind::Revalidate),
            "match" => Ok(JobKind::Match),
            "duplicate" => Ok(JobKind::Duplicate),
            other => Err(ArchiveError::Corrupt(format!("a job of unknown kind {other:?}"))),
        }
    }
}

/// Where a job is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    Queued,
    /// Held by a worker (until its lease passes).
    Running,
    Done,
    Failed,
}

impl JobState {
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Failed => "failed",
        }
    }

    fn parse(s: &str) -> Result<JobState> {
        match s {
            "queued" => Ok(JobState::Queued),
            "running" => Ok(JobState::Running),
            "done" => Ok(JobState::Done),
            "failed" => Ok(JobState::Failed),
            other => Err(ArchiveError::Corrupt(format!("a job in unknown state {other:?}"))),
        }
    }
}

/// A job a worker took, with its lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub id: i64,
    pub kind: JobKind,
    /// Which time it is taken (1 the first): with `worker`, the lease's identity.
    pub attempt: i64,
    pub worker: String,
    /// The file's name (an ingest job).
    pub name: Option<String>,
    pub tournament: Option<String>,
    pub origin: Origin,
    /// The file's bytes (an ingest job).
    pub bytes: Vec<u8>,
    /// The entries `first..=last` (a re-validation).
    pub first: i64,
    pub last: i64,
    /// A match job's games, as the arena reads them (JSON: `arena::queued::MatchJob`).
    pub spec: Option<String>,
    /// A match job's match seed (hex): the database's secret, never shown to a bot.
    pub seed: Option<String>,
}

/// A job as `paifu jobs` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobRow {
    pub id: i64,
    pub kind: JobKind,
    pub state: JobState,
    pub name: Option<String>,
    pub tournament: Option<String>,
    pub first: Option<i64>,
    pub last: Option<i64>,
    pub attempts: i64,
    pub worker: Option<String>,
    pub created_at: i64,
    pub done_at: Option<i64>,
    /// What it did (JSON): an ingest's entry, a re-validation's [`Revalidated`].
    pub result: Option<String>,
    pub error: Option<String>,
}

/// How many jobs are in each state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct JobCounts {
    pub queued: u64,
    pub running: u64,
    /// Of the running ones, those whose lease passed (their worker died or stalls): taken again
    /// by the next worker that asks.
    pub expired: u64,
    pub done: u64,
    pub failed: u64,
}

/// A re-validation's result: the entries replayed under `engine`, and those whose verdict now
/// differs from the stored one (which never changes).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revalidated {
    pub engine: String,
    pub checked: u64,
    pub same: u64,
    pub changed: Vec<VerdictChange>,
}

/// An entry whose verdict under this engine differs from the one stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerdictChange {
    pub id: i64,
    /// The stored verdict: `valid [scores]` or `invalid CODE`, and the engine that gave it.
    pub stored: String,
    /// This engine's.
    pub now: String,
}

/// An ingest job's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ingested {
    pub entry: i64,
    /// False when the archive held this very log already.
    pub new: bool,
    pub valid: bool,
    pub fault: Option<String>,
    pub counted: bool,
}

/// What working a job came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Worked {
    /// Stored (an ingest job), committed with the job marked done.
    Ingested(Box<Stored>),
    /// Replayed again (a re-validation), the job marked done.
    Revalidated(Revalidated),
    /// The job is marked failed with this error (bytes that are not a log, a refused name).
    Failed(String),
    /// A match job's games stored (in order), committed with the job marked done.
    Played(Vec<Stored>),
}

/// Milliseconds since the Unix epoch (the leases' clock).
fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// Runs `f` in a short transaction that takes no advisory lock (the queue's own rows only): on
/// SQLite the write lock from the start, on PostgreSQL a plain transaction (the rows it picks
/// are locked `FOR UPDATE SKIP LOCKED`).
fn short<T>(db: Db<'_>, f: impl FnOnce(Db<'_>) -> Result<T>) -> Result<T> {
    db.batch(db.pick("BEGIN IMMEDIATE", "BEGIN"))?;
    match f(db).and_then(|v| db.batch("COMMIT").map(|()| v)) {
        Ok(v) => Ok(v),
        Err(e) => {
            let _ = db.batch("ROLLBACK");
            Err(e)
        }
    }
}

/// Marks `job` (this lease of it) finished as `state`; [`ArchiveError::LostLease`] when the
/// lease is no longer this worker's.
fn close(db: Db<'_>, job: &Job, state: JobState, result: Option<&str>, error: Option<&str>) -> Result<()> {
    let n = db.exec(
        "UPDATE jobs SET state = ?1, done_at = ?2, result = ?3, error = ?4, lease_until = NULL,
                bytes = CASE WHEN ?1 = 'done' THEN NULL ELSE bytes END
         WHERE id = ?5 AND state = 'running' AND worker = ?6 AND attempts = ?7",
        params![state.as_str(), now(), result, error, job.id, job.worker, job.attempt],
    )?;
    if n == 1 {
        Ok(())
    } else {
        Err(ArchiveError::LostLease { job: job.id })
    }
}

/// Sets `worker`'s lease on the job `(id, state, attempts)` picked in this transaction, and
/// answers it; or, when a worker died holding it [`MAX_ATTEMPTS`] times already, marks it failed
/// (abandoned) and answers `None`.
fn lease_job(db: Db<'_>, picked: (i64, &str, i64), worker: &str, until: i64) -> Result<Option<Job>> {
    let (id, state, attempts) = picked;
    if state == "running" && attempts >= MAX_ATTEMPTS {
        db.exec(
            "UPDATE jobs SET state = 'failed', done_at = ?2, lease_until = NULL, error = ?3 WHERE id = ?1",
            params![
                id,
                now(),
                format!("abandoned: taken {attempts} times, and each time its worker stopped before finishing it")
            ],
        )?;
        return Ok(None);
    }
    db.row(
        "UPDATE jobs SET state = 'running', worker = ?2, lease_until = ?3, attempts = attempts + 1
         WHERE id = ?1
         RETURNING id, kind, attempts, name, tournament, origin, token_id, bytes, first_id, last_id, spec, seed",
        params![id, worker, until],
        |r| job_of(r, worker),
    )
    .map(Some)
}

const JOB_COLUMNS: &str =
    "id, kind, state, name, tournament, first_id, last_id, attempts, worker, created_at, done_at, result, error";

fn job_row(r: &super::db::Row<'_>) -> Result<JobRow> {
    Ok(JobRow {
        id: r.get(0)?,
        kind: JobKind::parse(&r.get::<_, String>(1)?)?,
        state: JobState::parse(&r.get::<_, String>(2)?)?,
        name: r.get(3)?,
        tournament: r.get(4)?,
        first: r.get(5)?,
        last: r.get(6)?,
        attempts: r.get(7)?,
        worker: r.get(8)?,
        created_at: r.get(9)?,
        done_at: r.get(10)?,
        result: r.get(11)?,
        error: r.get(12)?,
    })
}

/// A verdict as a re-validation compares and shows it.
fn verdict_text(valid: bool, fault: Option<&str>, scores: Option<&str>) -> String {
    match (valid, fault) {
        (true, _) => format!("valid {}", scores.unwrap_or("[]")),
        (false, f) => format!("invalid {}", f.unwrap_or("?")),
    }
}

/// The oldest job waiting (queued, or running under a lease that passed before `at`), taken
/// for `worker` until `until`; one taken [`MAX_ATTEMPTS`] times already is marked failed
/// (abandoned) and the next is looked at. In the caller's transaction.
fn take_one(db: Db<'_>, worker: &str, at: i64, until: i64) -> Result<Option<Job>> {
    loop {
        let pick = db.pick(
            "SELECT id, state, attempts FROM jobs
             WHERE state IN ('queued', 'running') AND (state = 'queued' OR lease_until < ?1)
               AND kind IN ('ingest', 'revalidate')
             ORDER BY id LIMIT 1",
            "SELECT id, state, attempts FROM jobs
             WHERE state IN ('queued', 'running') AND (state = 'queued' OR lease_until < ?1)
               AND kind IN ('ingest', 'revalidate')
             ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED",
        );
        let Some((id, state, attempts)) =
            db.opt(pick, [at], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?)))?
        else {
            return Ok(None);
        };
        if let Some(job) = lease_job(db, (id, &state, attempts), worker, until)? {
            return Ok(Some(job));
        }
    }
}

/// A job as taken: the row `id, kind, attempts, name, tournament, origin, token_id, bytes,
/// first_id, last_id, spec, seed` of the statement that took it for `worker`.
fn job_of(r: &super::db::Row<'_>, worker: &str) -> Result<Job> {
    let origin = match (r.get::<_, String>(5)?.as_str(), r.get::<_, Option<i64>>(6)?) {
        ("web", Some(token)) => Origin::Web { token },
        _ => Origin::CommandLine,
    };
    Ok(Job {
        id: r.get(0)?,
        kind: JobKind::parse(&r.get::<_, String>(1)?)?,
        attempt: r.get(2)?,
        worker: worker.to_owned(),
        name: r.get(3)?,
        tournament: r.get(4)?,
        origin,
        bytes: r.get::<_, Option<Vec<u8>>>(7)?.unwrap_or_default(),
        first: r.get::<_, Option<i64>>(8)?.unwrap_or(0),
        last: r.get::<_, Option<i64>>(9)?.unwrap_or(-1),
        spec: r.get(10)?,
        seed: r.get(11)?,
    })
}

impl Archive {
    /// Queues one ingest job per file (`(name, bytes)`), in one short transaction; answers their
    /// numbers, in order. The tournament's name is checked now (a worker makes it if missing).
    pub fn enqueue_ingest(
        &mut self,
        files: &[(String, Vec<u8>)],
        tournament: Option<&str>,
        origin: Origin,
    ) -> Result<Vec<i64>> {
        self.check_queued_tournament(tournament)?;
        self.retry(|db| {
            short(db, |db| {
                let created = now();
                files
                    .iter()
                    .map(|(name, bytes)| {
                        db.row(
                            "INSERT INTO jobs(kind, state, name, tournament, origin, token_id, created_at, bytes)
                             VALUES ('ingest', 'queued', ?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
                            params![name, tournament, origin.as_str(), origin.token(), created, bytes],
                            |r| r.get(0),
                        )
                    })
                    .collect()
            })
        })
    }

    /// Queues the re-validation of every stored entry numbered `from..=to` (`None`: no bound), in
    /// jobs of up to `per_job` entries each (a job stays well inside its lease); answers their
    /// numbers. The entries' numbers are read before, with no transaction open.
    pub fn enqueue_revalidate(&mut self, from: Option<i64>, to: Option<i64>, per_job: u32) -> Result<Vec<i64>> {
        let per = i64::from(per_job.max(1));
        let (mut after, to) = (from.unwrap_or(1) - 1, to.unwrap_or(i64::MAX));
        let mut ranges = Vec::new();
        loop {
            let ids: Vec<i64> = self.db().rows(
                "SELECT id FROM logs WHERE id > ?1 AND id <= ?2 ORDER BY id LIMIT ?3",
                params![after, to, per],
                |r| r.get(0),
            )?;
            let (Some(&first), Some(&last)) = (ids.first(), ids.last()) else { break };
            ranges.push((first, last));
            after = last;
        }
        self.retry(|db| {
            short(db, |db| {
                let created = now();
                ranges
                    .iter()
                    .map(|(first, last)| {
                        db.row(
                            "INSERT INTO jobs(kind, state, origin, first_id, last_id, created_at)
                             VALUES ('revalidate', 'queued', 'cli', ?1, ?2, ?3) RETURNING id",
                            params![first, last, created],
                            |r| r.get(0),
                        )
                    })
                    .collect()
            })
        })
    }

    /// Takes the oldest job that is queued, or running under a lease that has passed, for
    /// `worker` with a lease of `lease`; `None` when there is none. One short transaction (see
    /// the module's comment). A job taken [`MAX_ATTEMPTS`] times already is marked failed
    /// (abandoned) instead, and the next one is looked at.
    pub fn take_job(&mut self, worker: &str, lease: Duration) -> Result<Option<Job>> {
        Ok(self.take_jobs(worker, lease, 1)?.pop())
    }

    /// Takes up to `max` jobs for `worker`, each under its own lease of `lease`, in one short
    /// transaction: the oldest job as [`Archive::take_job`] takes it, and when that is an ingest
    /// job taken for the first time, the next queued ingest jobs never taken before (oldest
    /// first, up to `max` in all), to be finished together ([`Archive::work_jobs`]). A job taken
    /// again (its worker died) is taken alone, so that a file that kills its worker spends no
    /// other job's attempts. Empty when no job is waiting.
    pub fn take_jobs(&mut self, worker: &str, lease: Duration, max: u32) -> Result<Vec<Job>> {
        let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX / 2);
        self.retry(|db| {
            short(db, |db| {
                let at = now_ms();
                let until = at.saturating_add(lease_ms);
                let Some(first) = take_one(db, worker, at, until)? else { return Ok(Vec::new()) };
                let mut jobs = vec![first];
                if max > 1 && jobs[0].kind == JobKind::Ingest && jobs[0].attempt == 1 {
                    let more = db.pick(
                        "UPDATE jobs SET state = 'running', worker = ?1, lease_until = ?2, attempts = attempts + 1
                         WHERE id IN (SELECT id FROM jobs WHERE state = 'queued' AND kind = 'ingest' AND attempts = 0
                                      AND id > ?3 ORDER BY id LIMIT ?4)
                         RETURNING id, kind, attempts, name, tournament, origin, token_id, bytes, first_id, last_id, spec, seed",
                        "UPDATE jobs SET state = 'running', worker = ?1, lease_until = ?2, attempts = attempts + 1
                         WHERE id IN (SELECT id FROM jobs WHERE state = 'queued' AND kind = 'ingest' AND attempts = 0
                                      AND id > ?3 ORDER BY id LIMIT ?4 FOR UPDATE SKIP LOCKED)
                         RETURNING id, kind, attempts, name, tournament, origin, token_id, bytes, first_id, last_id, spec, seed",
                    );
                    let mut rest =
                        db.rows(more, params![worker, until, jobs[0].id, i64::from(max - 1)], |r| job_of(r, worker))?;
                    rest.sort_by_key(|j| j.id);
                    jobs.extend(rest);
                }
                Ok(jobs)
            })
        })
    }

    /// Works a job this worker took: validates (no transaction open), then stores the entry, or
    /// records the re-validation, and marks the job done, in one transaction; a job that cannot
    /// be done (not a log, a refused name) is marked failed with its error. `sign` makes the
    /// certificate stored with an ingested entry (in the same transaction); `before_commit` runs
    /// inside the finishing transaction just before it commits (tests stop a worker there).
    /// [`ArchiveError::LostLease`] when another worker took the job meanwhile: nothing of this
    /// worker's is kept.
    pub fn work_job(
        &mut self,
        job: &Job,
        sign: &dyn Fn(&Prepared) -> Option<Certificate>,
        before_commit: &mut dyn FnMut(),
    ) -> Result<Worked> {
        match job.kind {
            JobKind::Ingest => self
                .work_ingests(&[job], sign, before_commit)?
                .pop()
                .unwrap_or_else(|| Err(ArchiveError::Corrupt("a job left unworked".into()))),
            JobKind::Match | JobKind::Duplicate => Err(ArchiveError::Corrupt(format!(
                "job {} is a match: it is played by paifu worker with its bots, and finished by finish_match_job",
                job.id
            ))),
            JobKind::Revalidate => {
                let r = self.revalidate(job.first, job.last)?;
                let text = super::json(&r);
                self.retry(|db| {
                    short(db, |db| {
                        close(db, job, JobState::Done, Some(&text), None)?;
                        before_commit();
                        Ok(())
                    })
                })?;
                Ok(Worked::Revalidated(r))
            }
        }
    }

    /// Works the jobs this worker took together ([`Archive::take_jobs`]); answers each one's
    /// outcome, in order, as [`Archive::work_job`] would. The ingest jobs are validated one by
    /// one with no transaction open, then stored and marked done in ONE write transaction (one
    /// lock taken, one commit, the kept counts written once for all): each with the guarantees
    /// of one job's (its entry and its "done" committed together; a job whose lease passed is
    /// left out, [`ArchiveError::LostLease`], nothing of it kept). A job whose name the archive
    /// refuses is marked failed and the others are stored without it. Other jobs are worked one
    /// at a time. `Err` when the database fails (nothing of the batch's transaction is kept).
    pub fn work_jobs(
        &mut self,
        jobs: &[Job],
        sign: &dyn Fn(&Prepared) -> Option<Certificate>,
        before_commit: &mut dyn FnMut(),
    ) -> Result<Vec<Result<Worked>>> {
        let ingests: Vec<&Job> = jobs.iter().filter(|j| j.kind == JobKind::Ingest).collect();
        let mut stored = self.work_ingests(&ingests, sign, before_commit)?.into_iter();
        let mut out = Vec::with_capacity(jobs.len());
        for job in jobs {
            out.push(match job.kind {
                JobKind::Ingest => {
                    stored.next().unwrap_or_else(|| Err(ArchiveError::Corrupt("a job left unworked".into())))
                }
                _ => self.work_job(job, sign, before_commit),
            });
        }
        Ok(out)
    }

    /// The ingest jobs of [`Archive::work_jobs`], in one finishing transaction.
    fn work_ingests(
        &mut self,
        jobs: &[&Job],
        sign: &dyn Fn(&Prepared) -> Option<Certificate>,
        before_commit: &mut dyn FnMut(),
    ) -> Result<Vec<Result<Worked>>> {
        let mut out: Vec<Option<Result<Worked>>> = jobs.iter().map(|_| None).collect();
        let prepared: Vec<Prepared> = jobs.iter().map(|j| prepare(&j.bytes)).collect();
        // The jobs still to store.
        let mut live = Vec::with_capacity(jobs.len());
        for (i, (job, p)) in jobs.iter().zip(&prepared).enumerate() {
            let refused = match (p.refusal(), job.tournament.as_deref().map(|t| check_name(NameKind::Tournament, t))) {
                (Some(r), _) => Some(r.to_string()),
                (None, Some(Err(e))) => Some(format!("--tournament: {e}")),
                _ => None,
            };
            match refused {
                Some(error) => out[i] = Some(self.fail_job(job, &error).map(|()| Worked::Failed(error))),
                None => live.push(i),
            }
        }
        let certificates: Vec<Option<Certificate>> =
            prepared.iter().enumerate().map(|(i, p)| if out[i].is_none() { sign(p) } else { None }).collect();
        while !live.is_empty() {
            let finished = self.write_kept(|tx, kept| {
                let mut done: Vec<(usize, Result<Stored>)> = Vec::with_capacity(live.len());
                // The leases first: a job whose lease passed stores nothing.
                let mut held = Vec::with_capacity(live.len());
                for &i in &live {
                    match close(tx, jobs[i], JobState::Done, None, None) {
                        Ok(()) => held.push(i),
                        Err(e @ ArchiveError::LostLease { .. }) => done.push((i, Err(e))),
                        Err(e) => return Err(e),
                    }
                }
                // Stored in runs of one tournament and origin.
                for run in held
                    .chunk_by(|&a, &b| (&jobs[a].tournament, jobs[a].origin) == (&jobs[b].tournament, jobs[b].origin))
                {
                    let items: Vec<&Prepared> = run.iter().map(|&i| &prepared[i]).collect();
                    let sources: Vec<Option<&str>> = run.iter().map(|&i| jobs[i].name.as_deref()).collect();
                    let certs: Vec<Option<&Certificate>> = run.iter().map(|&i| certificates[i].as_ref()).collect();
                    let first = jobs[run[0]];
                    let stored =
                        store_items(tx, kept, &items, &sources, &certs, first.tournament.as_deref(), first.origin)
                            .map_err(|e| match e {
                                ArchiveError::Refused { index, refusal } => {
                                    ArchiveError::Refused { index: run[index], refusal }
                                }
                                e => e,
                            })?;
                    for (&i, s) in run.iter().zip(stored) {
                        let result = Ingested {
                            entry: s.id,
                            new: s.new,
                            valid: s.valid,
                            fault: s.fault.as_ref().map(|f| f.code.as_str().to_owned()),
                            counted: s.counted,
                        };
                        tx.exec(
                            "UPDATE jobs SET result = ?1 WHERE id = ?2",
                            params![super::json(&result), jobs[i].id],
                        )?;
                        done.push((i, Ok(s)));
                    }
                }
                before_commit();
                Ok(done)
            });
            match finished {
                Ok(done) => {
                    for (i, s) in done {
                        out[i] = Some(s.map(|s| Worked::Ingested(Box::new(s))));
                    }
                    live.clear();
                }
                // A name refused only knowing what the archive holds (a lookalike of a stored
                // one): that job fails, the others are stored again without it.
                Err(ArchiveError::Refused { index, refusal }) if live.contains(&index) => {
                    let error = refusal.to_string();
                    out[index] = Some(self.fail_job(jobs[index], &error).map(|()| Worked::Failed(error)));
                    live.retain(|&i| i != index);
                }
                Err(e) => return Err(e),
            }
        }
        Ok(out
            .into_iter()
            .map(|o| o.unwrap_or_else(|| Err(ArchiveError::Corrupt("a job left unworked".into()))))
            .collect())
    }

    /// Marks a job this worker holds failed, with `error`.
    pub fn fail_job(&mut self, job: &Job, error: &str) -> Result<()> {
        self.retry(|db| short(db, |db| close(db, job, JobState::Failed, None, Some(error))))
    }

    /// Replays the entries numbered `first..=last` again under this build's engine and compares
    /// each verdict with the stored one; reads only (the stored verdicts never change).
    pub fn revalidate(&self, first: i64, last: i64) -> Result<Revalidated> {
        let mut r = Revalidated { engine: paifu_core::ENGINE.to_owned(), ..Revalidated::default() };
        let mut after = first - 1;
        loop {
            // A few at a time: the bytes of a range are not all held at once.
            let chunk = self.db().rows(
                "SELECT l.id, l.bytes, v.valid, v.fault_code, v.final_scores, v.engine
                 FROM logs l JOIN verdicts v ON v.log_id = l.id WHERE l.id > ?1 AND l.id <= ?2 ORDER BY l.id LIMIT 32",
                params![after, last],
                |row| {
                    Ok((
                        row.get::<_, i64>(0)?,
                        row.get::<_, Vec<u8>>(1)?,
                        row.get::<_, i64>(2)? != 0,
                        row.get::<_, Option<String>>(3)?,
                        row.get::<_, Option<String>>(4)?,
                        row.get::<_, String>(5)?,
                    ))
                },
            )?;
            let Some(end) = chunk.last().map(|c| c.0) else { break };
            after = end;
            for (id, bytes, valid, fault, scores, engine) in chunk {
                let stored = verdict_text(valid, fault.as_deref(), scores.as_deref());
                let p = prepare(&bytes);
                let now_scores = p.verdict.outcome().map(|o| super::json(&o.final_scores));
                let now = verdict_text(
                    p.verdict.is_valid(),
                    p.verdict.fault().map(|f| f.code.as_str()),
                    now_scores.as_deref(),
                );
                r.checked += 1;
                if now == stored {
                    r.same += 1;
                } else {
                    r.changed.push(VerdictChange { id, stored: format!("{stored} ({engine})"), now });
                }
            }
        }
        Ok(r)
    }

    /// How many jobs are in each state.
    pub fn job_counts(&self) -> Result<JobCounts> {
        let mut c = JobCounts::default();
        let rows: Vec<(String, i64, i64)> = self.db().rows(
            "SELECT state, COUNT(*), CAST(SUM(CASE WHEN state = 'running' AND lease_until < ?1 THEN 1 ELSE 0 END) AS BIGINT)
             FROM jobs GROUP BY state",
            [now_ms()],
            |r| Ok((r.get(0)?, r.get(1)?, r.get::<_, Option<i64>>(2)?.unwrap_or(0))),
        )?;
        for (state, n, expired) in rows {
            let n = n as u64;
            match JobState::parse(&state)? {
                JobState::Queued => c.queued = n,
                JobState::Running => (c.running, c.expired) = (n, expired as u64),
                JobState::Done => c.done = n,
                JobState::Failed => c.failed = n,
            }
        }
        Ok(c)
    }

    /// The jobs in `state` (all without one), newest first, at most `limit`.
    pub fn jobs(&self, state: Option<JobState>, limit: u32) -> Result<Vec<JobRow>> {
        let db = self.db();
        match state {
            Some(s) => db.rows(
                &format!("SELECT {JOB_COLUMNS} FROM jobs WHERE state = ?1 ORDER BY id DESC LIMIT ?2"),
                params![s.as_str(), i64::from(limit)],
                job_row,
            ),
            None => db.rows(
                &format!("SELECT {JOB_COLUMNS} FROM jobs ORDER BY id DESC LIMIT ?1"),
                params![i64::from(limit)],
                job_row,
            ),
        }
    }

    /// Job `id`, if there is one.
    pub fn job(&self, id: i64) -> Result<Option<JobRow>> {
        self.db().opt(&format!("SELECT {JOB_COLUMNS} FROM jobs WHERE id = ?1"), [id], job_row)
    }

    /// The re-validations done, each with its entries whose verdict changed (parsed from the
    /// jobs' results), oldest first.
    pub fn revalidations(&self) -> Result<Vec<(i64, Revalidated)>> {
        let rows: Vec<(i64, String)> = self.db().rows(
            "SELECT id, result FROM jobs WHERE kind = 'revalidate' AND state = 'done' ORDER BY id",
            params![],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        rows.into_iter().map(|(id, text)| Ok((id, parse_json(&text, "a re-validation's result")?))).collect()
    }
}

// Arena matches and duplicate sets as jobs (issue 29; docs/archive.md, "Arena matches as jobs").
//
// A match job holds its games as the arena reads them (`spec`, JSON: `arena::queued::MatchJob`,
// which the archive does not read), the bots it needs by name (`bots`, a JSON list), and the
// match seed (`seed`, hex): the database's secret, each game's seed derived from it as the arena
// derives it, revealed in each stored log. A worker takes only a job whose bots it was given
// itself ([`Archive::take_match_job`]); the commands are the worker's, never the job's.

/// A match job to queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMatchJob {
    /// [`JobKind::Match`] (one game) or [`JobKind::Duplicate`] (a deal in every rotation).
    pub kind: JobKind,
    /// What it is, as `paifu jobs` shows it: `cup: game 3 of 4`.
    pub title: String,
    /// The bots it needs, by name.
    pub bots: Vec<String>,
    /// The job as the arena reads it (JSON).
    pub spec: String,
}

/// A match job's result: the entries its games are stored as, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchPlayed {
    pub entries: Vec<i64>,
}

/// A match job as `paifu jobs` lists it (never its seed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchJobRow {
    pub id: i64,
    pub kind: JobKind,
    pub state: JobState,
    pub title: Option<String>,
    pub bots: Vec<String>,
    pub attempts: i64,
    pub worker: Option<String>,
    pub error: Option<String>,
}

impl Archive {
    /// A tournament named by queued jobs: a tournament that does not exist yet is made by the
    /// job, so its name is checked now as a new name (no invisible character), so that no job
    /// fails for it later.
    fn check_queued_tournament(&self, tournament: Option<&str>) -> Result<()> {
        if let Some(t) = tournament {
            match self.tournament_info(t)? {
                Some(_) => check_name(NameKind::Tournament, t)?,
                None => super::names::check_new_name(NameKind::Tournament, t)?,
            }
        }
        Ok(())
    }

    /// Queues a match's jobs, with its seed (hex) and the tournament its games go into, in one
    /// short transaction; answers their numbers, in order.
    pub fn enqueue_match(&mut self, jobs: &[NewMatchJob], seed: &str, tournament: Option<&str>) -> Result<Vec<i64>> {
        self.check_queued_tournament(tournament)?;
        if let Some(j) = jobs.iter().find(|j| !matches!(j.kind, JobKind::Match | JobKind::Duplicate)) {
            return Err(ArchiveError::Corrupt(format!("a {} job is not a match job", j.kind.as_str())));
        }
        self.retry(|db| {
            short(db, |db| {
                let created = now();
                jobs.iter()
                    .map(|j| {
                        db.row(
                            "INSERT INTO jobs(kind, state, name, tournament, origin, created_at, spec, seed, bots)
                             VALUES (?1, 'queued', ?2, ?3, 'cli', ?4, ?5, ?6, ?7) RETURNING id",
                            params![j.kind.as_str(), j.title, tournament, created, j.spec, seed, super::json(&j.bots)],
                            |r| r.get(0),
                        )
                    })
                    .collect()
            })
        })
    }

    /// Takes the oldest match job, queued or running under a lease that has passed, whose bots
    /// are all among `have` (the names of the bots this worker was given); `None` when there is
    /// none. A job needing a bot this worker lacks is left for another worker: `lacking` is told
    /// of it (its number, title and the bots missing). One short transaction; on PostgreSQL the
    /// job chosen is locked `FOR UPDATE SKIP LOCKED` (the others looked at are not locked).
    pub fn take_match_job(
        &mut self,
        worker: &str,
        lease: Duration,
        have: &std::collections::BTreeSet<String>,
        lacking: &mut dyn FnMut(i64, &str, &[String]),
    ) -> Result<Option<Job>> {
        let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX / 2);
        self.retry(|db| {
            short(db, |db| {
                let mut after = 0i64;
                loop {
                    let at = now_ms();
                    let waiting: Vec<(i64, Option<String>, Option<String>)> = db.rows(
                        "SELECT id, name, bots FROM jobs
                         WHERE state IN ('queued', 'running') AND (state = 'queued' OR lease_until < ?1)
                           AND kind IN ('match', 'duplicate') AND id > ?2
                         ORDER BY id LIMIT 64",
                        params![at, after],
                        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                    )?;
                    if waiting.is_empty() {
                        return Ok(None);
                    }
                    for (id, title, bots) in waiting {
                        after = id;
                        let needs: Vec<String> = match bots.as_deref().map(serde_json::from_str::<Vec<String>>) {
                            Some(Ok(b)) => b,
                            _ => vec!["(unreadable: the job's bots are not a list of names)".to_owned()],
                        };
                        let missing: Vec<String> = needs.into_iter().filter(|b| !have.contains(b)).collect();
                        if !missing.is_empty() {
                            lacking(id, title.as_deref().unwrap_or(""), &missing);
                            continue;
                        }
                        // Locked now, and still waiting (another worker may have taken it).
                        let pick = db.pick(
                            "SELECT id, state, attempts FROM jobs
                             WHERE id = ?1 AND state IN ('queued', 'running') AND (state = 'queued' OR lease_until < ?2)",
                            "SELECT id, state, attempts FROM jobs
                             WHERE id = ?1 AND state IN ('queued', 'running') AND (state = 'queued' OR lease_until < ?2)
                             FOR UPDATE SKIP LOCKED",
                        );
                        let picked = db.opt(pick, params![id, at], |r| {
                            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?))
                        })?;
                        if let Some((id, state, attempts)) = picked {
                            if let Some(job) = lease_job(db, (id, &state, attempts), worker, at.saturating_add(lease_ms))? {
                                return Ok(Some(job));
                            }
                        }
                    }
                }
            })
        })
    }

    /// Extends this worker's lease of `job` to `lease` from now (a match's games may outlast one
    /// lease: the worker renews it as it plays); [`ArchiveError::LostLease`] when the job is no
    /// longer this worker's.
    pub fn renew_lease(&mut self, job: &Job, lease: Duration) -> Result<()> {
        let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX / 2);
        let n = self.retry(|db| {
            short(db, |db| {
                db.exec(
                    "UPDATE jobs SET lease_until = ?1
                     WHERE id = ?2 AND state = 'running' AND worker = ?3 AND attempts = ?4",
                    params![now_ms().saturating_add(lease_ms), job.id, job.worker, job.attempt],
                )
            })
        })?;
        if n == 1 {
            Ok(())
        } else {
            Err(ArchiveError::LostLease { job: job.id })
        }
    }

    /// Finishes a match job this worker played: its games' logs (`(name, bytes)`, in order)
    /// validated with no transaction open, then every one stored (each with the certificate
    /// `sign` makes) and the job marked done in ONE transaction that first checks the lease: a
    /// duplicate set is stored whole or not at all. A game that does not validate, or a refused
    /// name, fails the job with its error and stores nothing. `before_commit` runs just before
    /// the commit (tests stop a worker there).
    pub fn finish_match_job(
        &mut self,
        job: &Job,
        logs: &[(String, Vec<u8>)],
        sign: &dyn Fn(&Prepared) -> Option<Certificate>,
        before_commit: &mut dyn FnMut(),
    ) -> Result<Worked> {
        let prepared: Vec<Prepared> = logs.iter().map(|(_, bytes)| prepare(bytes)).collect();
        let mut refused = None;
        for ((name, _), p) in logs.iter().zip(&prepared) {
            if let Some(r) = p.refusal() {
                refused = Some(format!("{name}: {r}"));
            } else if let Some(f) = p.verdict.fault() {
                refused = Some(format!("{name}: the game played does not validate: {}", f.code.as_str()));
            }
            if refused.is_some() {
                break;
            }
        }
        if refused.is_none() {
            if let Some(Err(e)) = job.tournament.as_deref().map(|t| check_name(NameKind::Tournament, t)) {
                refused = Some(format!("--tournament: {e}"));
            }
        }
        if let Some(error) = refused {
            return self.fail_job(job, &error).map(|()| Worked::Failed(error));
        }
        let certificates: Vec<Option<Certificate>> = prepared.iter().map(sign).collect();
        let certificates: Vec<Option<&Certificate>> = certificates.iter().map(Option::as_ref).collect();
        let sources: Vec<Option<&str>> = logs.iter().map(|(name, _)| Some(name.as_str())).collect();
        let items: Vec<&Prepared> = prepared.iter().collect();
        let stored = self.write_kept(|tx, kept| {
            // The lease first: a worker that lost it stores nothing.
            close(tx, job, JobState::Done, None, None)?;
            let s = store_items(tx, kept, &items, &sources, &certificates, job.tournament.as_deref(), job.origin)?;
            let result = MatchPlayed { entries: s.iter().map(|s| s.id).collect() };
            tx.exec("UPDATE jobs SET result = ?1 WHERE id = ?2", params![super::json(&result), job.id])?;
            before_commit();
            Ok(s)
        });
        match stored {
            Ok(s) => Ok(Worked::Played(s)),
            Err(ArchiveError::Refused { refusal, .. }) => {
                let error = refusal.to_string();
                self.fail_job(job, &error).map(|()| Worked::Failed(error))
            }
            Err(e) => Err(e),
        }
    }

    /// The match jobs, newest first, at most `limit`.
    pub fn match_jobs(&self, limit: u32) -> Result<Vec<MatchJobRow>> {
        self.db().rows(
            "SELECT id, kind, state, name, bots, attempts, worker, error FROM jobs
             WHERE kind IN ('match', 'duplicate') ORDER BY id DESC LIMIT ?1",
            params![i64::from(limit)],
            |r| {
                Ok(MatchJobRow {
                    id: r.get(0)?,
                    kind: JobKind::parse(&r.get::<_, String>(1)?)?,
                    state: JobState::parse(&r.get::<_, String>(2)?)?,
                    title: r.get(3)?,
                    bots: r
                        .get::<_, Option<String>>(4)?
                        .and_then(|b| serde_json::from_str(&b).ok())
                        .unwrap_or_default(),
                    attempts: r.get(5)?,
                    worker: r.get(6)?,
                    error: r.get(7)?,
                })
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{on_both_backends, temp_archive, Backend, Place};
    use super::*;
    use crate::samples::tzq_bytes;
    use paifu_core::log::Encoding;

    const LEASE: Duration = Duration::from_secs(60);

    fn no_sign(_: &Prepared) -> Option<Certificate> {
        None
    }

    fn files(n: usize, tag: &str) -> Vec<(String, Vec<u8>)> {
        (0..n)
            .map(|i| {
                (format!("{tag}/g{i}.paifu"), tzq_bytes(&format!("jobs/{tag}/{i}"), ["Ann", "Bo"], Encoding::Binary))
            })
            .collect()
    }

    /// Works every job there is as `worker`; answers how many.
    fn drain(a: &mut Archive, worker: &str) -> usize {
        let mut n = 0;
        while let Some(job) = a.take_job(worker, LEASE).unwrap() {
            a.work_job(&job, &no_sign, &mut || {}).unwrap();
            n += 1;
        }
        n
    }

    /// The entries stored, counted row by row (not from the counts kept at ingest).
    fn recount(a: &Archive) -> (u64, u64) {
        let games: i64 = a.db().row("SELECT COUNT(*) FROM logs", params![], |r| r.get(0)).unwrap();
        let valid: i64 = a.db().row("SELECT COUNT(*) FROM verdicts WHERE valid = 1", params![], |r| r.get(0)).unwrap();
        (games as u64, valid as u64)
    }

    /// Makes the lease of every running job pass now (as if its worker had died long ago).
    fn expire_leases(a: &Archive) {
        a.db().exec("UPDATE jobs SET lease_until = 0 WHERE state = 'running'", params![]).unwrap();
    }

    on_both_backends!(
        jobs_are_taken_oldest_first_each_by_one_worker,
        a_job_whose_lease_passed_is_taken_again_and_the_old_lease_stores_nothing,
        running_a_jobs_effect_twice_keeps_one_entry,
        a_worker_stopped_inside_the_finishing_transaction_leaves_nothing,
        bad_bytes_and_refused_names_become_failed_jobs_with_their_error,
        a_job_abandoned_too_often_is_failed,
        revalidation_reports_the_entries_whose_verdict_differs,
        match_jobs_are_taken_only_by_a_worker_that_has_their_bots,
        a_duplicate_set_is_stored_whole_or_not_at_all,
        a_renewed_lease_holds_and_a_lost_one_stores_nothing,
        a_batch_is_stored_in_one_transaction_each_entry_once_with_exact_counts,
        a_job_taken_again_is_taken_alone_and_spends_no_other_jobs_attempts,
        a_batch_with_a_lost_lease_stores_the_others_and_nothing_of_it,
        a_batch_stopped_inside_its_transaction_leaves_nothing,
        workers_racing_with_batches_store_each_game_once_and_count_exactly,
    );

    fn match_job(title: &str, bots: &[&str], kind: JobKind) -> NewMatchJob {
        NewMatchJob {
            kind,
            title: title.into(),
            bots: bots.iter().map(|b| b.to_string()).collect(),
            spec: format!("{{\"title\":{title:?}}}"),
        }
    }

    fn have(bots: &[&str]) -> std::collections::BTreeSet<String> {
        bots.iter().map(|b| b.to_string()).collect()
    }

    fn match_jobs_are_taken_only_by_a_worker_that_has_their_bots(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let ids = a
            .enqueue_match(
                &[
                    match_job("m: game 1 of 2", &["a", "b"], JobKind::Match),
                    match_job("m: game 2 of 2", &["a"], JobKind::Match),
                ],
                "00",
                Some("Cup"),
            )
            .unwrap();
        a.enqueue_ingest(&files(1, "mixed"), None, Origin::CommandLine).unwrap();
        // The ingest taker never takes a match job.
        let ingest = a.take_job("plain", LEASE).unwrap().expect("the ingest job");
        assert_eq!(ingest.kind, JobKind::Ingest);
        assert!(a.take_job("plain", LEASE).unwrap().is_none(), "match jobs are not the plain taker's");
        // A worker with bot a only: the first job (it lacks b) is left, and said; it takes the second.
        let mut told = Vec::new();
        let job = a
            .take_match_job("wa", LEASE, &have(&["a"]), &mut |id, title, missing| {
                told.push((id, title.to_owned(), missing.to_vec()))
            })
            .unwrap()
            .expect("the job it can play");
        assert_eq!((job.id, job.kind, job.seed.as_deref()), (ids[1], JobKind::Match, Some("00")));
        assert_eq!(job.tournament.as_deref(), Some("Cup"));
        assert_eq!(job.spec.as_deref(), Some("{\"title\":\"m: game 2 of 2\"}"));
        assert_eq!(told, vec![(ids[0], "m: game 1 of 2".to_owned(), vec!["b".to_owned()])]);
        assert!(a.take_match_job("wa", LEASE, &have(&["a"]), &mut |_, _, _| {}).unwrap().is_none());
        assert!(a.take_match_job("none", LEASE, &have(&[]), &mut |_, _, _| {}).unwrap().is_none());
        let job = a.take_match_job("wab", LEASE, &have(&["a", "b", "c"]), &mut |_, _, _| {}).unwrap().unwrap();
        assert_eq!(job.id, ids[0]);
        let rows = a.match_jobs(10).unwrap();
        assert_eq!(
            rows.iter().map(|r| (r.id, r.state)).collect::<Vec<_>>(),
            vec![(ids[1], JobState::Running), (ids[0], JobState::Running)]
        );
        assert_eq!(rows[1].bots, vec!["a".to_owned(), "b".to_owned()]);
        assert_eq!(a.job_counts().unwrap().running, 3);
        // Only match kinds are queued as match jobs.
        assert!(a.enqueue_match(&[match_job("x", &["a"], JobKind::Ingest)], "00", None).is_err());
    }

    fn a_duplicate_set_is_stored_whole_or_not_at_all(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let ids = a
            .enqueue_match(
                &[
                    match_job("d: deal 1", &["a"], JobKind::Duplicate),
                    match_job("d: deal 2", &["a"], JobKind::Duplicate),
                ],
                "00",
                Some("Dup"),
            )
            .unwrap();
        let set = |tag: &str| -> Vec<(String, Vec<u8>)> {
            (0..2)
                .map(|i| {
                    (
                        format!("d/{tag}{i}.paifu"),
                        tzq_bytes(&format!("dup/{tag}/{i}"), ["Ann", "Bo"], Encoding::JsonLines),
                    )
                })
                .collect()
        };
        // Deal 1: its second game does not validate: nothing of the set is stored.
        let job = a.take_match_job("w", LEASE, &have(&["a"]), &mut |_, _, _| {}).unwrap().unwrap();
        let mut broken = set("one");
        broken[1].1 = b"not a log".to_vec();
        let worked = a.finish_match_job(&job, &broken, &no_sign, &mut || {}).unwrap();
        assert!(matches!(&worked, Worked::Failed(e) if e.contains("d/one1.paifu")), "{worked:?}");
        assert_eq!(recount(&a), (0, 0), "not half a set");
        // Deal 2: both games, one transaction, the job done with their entries.
        let job = a.take_match_job("w", LEASE, &have(&["a"]), &mut |_, _, _| {}).unwrap().unwrap();
        assert_eq!(job.id, ids[1]);
        match a.finish_match_job(&job, &set("two"), &no_sign, &mut || {}).unwrap() {
            Worked::Played(s) => assert_eq!(s.iter().map(|s| s.new).collect::<Vec<_>>(), vec![true, true]),
            other => panic!("{other:?}"),
        }
        assert_eq!(recount(&a), (2, 2));
        assert_eq!(a.summary().unwrap().games, 2);
        assert_eq!(a.tournaments().unwrap()[0].games, 2);
        let row = a.job(ids[1]).unwrap().unwrap();
        let played: MatchPlayed = serde_json::from_str(row.result.as_deref().unwrap()).unwrap();
        assert_eq!(played.entries.len(), 2);
        assert_eq!(a.game(played.entries[1]).unwrap().unwrap().source.as_deref(), Some("d/two1.paifu"));
        assert_eq!(a.job(ids[0]).unwrap().unwrap().state, JobState::Failed);
        // A worker stopped inside the finishing transaction of a set leaves none of it.
        a.enqueue_match(&[match_job("d: deal 3", &["a"], JobKind::Duplicate)], "00", Some("Dup")).unwrap();
        let job = a.take_match_job("w", LEASE, &have(&["a"]), &mut |_, _, _| {}).unwrap().unwrap();
        let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            a.finish_match_job(&job, &set("three"), &no_sign, &mut || panic!("stopped")).unwrap();
        }));
        assert!(stopped.is_err());
        let _ = a.db().batch("ROLLBACK");
        assert_eq!(recount(&a), (2, 2), "nothing of the stopped set");
        // work_job does not play match jobs.
        assert!(a.work_job(&job, &no_sign, &mut || {}).is_err());
    }

    fn a_renewed_lease_holds_and_a_lost_one_stores_nothing(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        a.enqueue_match(&[match_job("m: game 1 of 1", &["a"], JobKind::Match)], "00", None).unwrap();
        let short_lease = Duration::from_millis(1);
        let job = a.take_match_job("w1", short_lease, &have(&["a"]), &mut |_, _, _| {}).unwrap().unwrap();
        a.renew_lease(&job, LEASE).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        assert!(
            a.take_match_job("w2", LEASE, &have(&["a"]), &mut |_, _, _| {}).unwrap().is_none(),
            "the renewed lease holds past the first one"
        );
        expire_leases(&a);
        let again = a.take_match_job("w2", LEASE, &have(&["a"]), &mut |_, _, _| {}).unwrap().unwrap();
        assert_eq!((again.id, again.attempt), (job.id, 2));
        assert!(matches!(a.renew_lease(&job, LEASE), Err(ArchiveError::LostLease { .. })));
        let logs = vec![("m/g1.paifu".to_owned(), tzq_bytes("lease/1", ["Ann", "Bo"], Encoding::Binary))];
        assert!(matches!(a.finish_match_job(&job, &logs, &no_sign, &mut || {}), Err(ArchiveError::LostLease { .. })));
        assert_eq!(recount(&a), (0, 0), "the stale worker stored nothing");
        assert!(matches!(a.finish_match_job(&again, &logs, &no_sign, &mut || {}).unwrap(), Worked::Played(_)));
        assert_eq!(recount(&a), (1, 1));
    }

    /// Every check of the kept counts against the rows (`tests.rs`).
    fn assert_counts_exact(a: &Archive) {
        use super::super::tests::{aggregated, assert_kept_counts_are_the_rows, recomputed, tournament_counts};
        let (stats, seats) = aggregated(a);
        assert_eq!(stats, recomputed(a), "the players' aggregates equal the counted games");
        assert!(seats.iter().all(|(_, kept, games)| kept == games), "{seats:?}");
        let (kept, from_rows) = tournament_counts(a);
        assert_eq!(kept, from_rows);
        assert_kept_counts_are_the_rows(a);
    }

    /// `n` files of two players out of five, in tournaments "A" and "B" by turns of `run`.
    fn mixed(n: usize, tag: &str, run: usize) -> Vec<(String, Vec<u8>, &'static str)> {
        let names = ["Ann", "Bo", "Cy", "Dee", "Eve"];
        (0..n)
            .map(|i| {
                let seats = [names[i % 5], names[(i + 1 + i / 5) % 5]];
                let seats = if seats[0] == seats[1] { [names[i % 5], names[(i + 2) % 5]] } else { seats };
                let bytes = tzq_bytes(&format!("jobs/{tag}/{i}"), seats, Encoding::Binary);
                (format!("{tag}/g{i}.paifu"), bytes, ["A", "B"][(i / run) % 2])
            })
            .collect()
    }

    fn enqueue_mixed(a: &mut Archive, files: &[(String, Vec<u8>, &'static str)]) -> Vec<i64> {
        files
            .iter()
            .flat_map(|(name, bytes, t)| {
                a.enqueue_ingest(&[(name.clone(), bytes.clone())], Some(t), Origin::CommandLine).unwrap()
            })
            .collect()
    }

    fn a_batch_is_stored_in_one_transaction_each_entry_once_with_exact_counts(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let referee = super::super::tests::key(3);
        a.ensure_tournament("A", None, &[referee.verifying_key()]).unwrap();
        let mut files = mixed(11, "batch", 3);
        // The same bytes twice in one batch, and a lookalike of a name stored before the batch:
        // refused only knowing what the archive holds.
        files.push(files[4].clone());
        a.ingest_bytes(&tzq_bytes("jobs/batch/first", ["Ann", "Bo"], Encoding::Binary), None, None).unwrap();
        files.push(("lookalike.paifu".into(), tzq_bytes("jobs/batch/x", ["\u{410}nn", "Bo"], Encoding::Binary), "A"));
        files.push(("bad.paifu.jsonl".into(), b"not a log".to_vec(), "B"));
        let ids = enqueue_mixed(&mut a, &files);
        let jobs = a.take_jobs("w", LEASE, 100).unwrap();
        assert_eq!(jobs.iter().map(|j| j.id).collect::<Vec<_>>(), ids, "every queued job, oldest first");
        assert!(a.take_jobs("w2", LEASE, 100).unwrap().is_empty(), "all held");
        let sign = |p: &Prepared| p.verdict.is_valid().then(|| super::super::tests::certify(p, &referee));
        let mut commits = 0;
        let worked = a.work_jobs(&jobs, &sign, &mut || commits += 1).unwrap();
        assert_eq!(commits, 1, "the batch's entries are stored in one transaction");
        assert_eq!(worked.len(), 14);
        let stored: Vec<&Stored> = worked[..12]
            .iter()
            .map(|w| match w {
                Ok(Worked::Ingested(s)) => &**s,
                other => panic!("{other:?}"),
            })
            .collect();
        assert!(stored[..11].iter().all(|s| s.new && s.valid), "{stored:?}");
        assert_eq!((stored[11].id, stored[11].new), (stored[4].id, false), "the copy is the same entry");
        assert!(matches!(&worked[12], Ok(Worked::Failed(e)) if e.contains("Ann")), "{:?}", worked[12]);
        assert!(matches!(&worked[13], Ok(Worked::Failed(_))), "{:?}", worked[13]);
        assert_eq!(a.job_counts().unwrap(), JobCounts { done: 12, failed: 2, ..JobCounts::default() });
        assert_eq!(recount(&a), (12, 12), "11 games of the batch and the one before, each once");
        assert_eq!(a.summary().unwrap().games, 12);
        // Each job's entry is its own file's, in its own tournament.
        for (job, s) in jobs.iter().zip(&stored) {
            let row = a.job(job.id).unwrap().unwrap();
            let result: Ingested = serde_json::from_str(row.result.as_deref().unwrap()).unwrap();
            assert_eq!(result.entry, s.id);
            let g = a.game(s.id).unwrap().unwrap();
            assert!(
                g.tournaments.contains(job.tournament.as_ref().unwrap()),
                "{:?} {:?}",
                g.tournaments,
                job.tournament
            );
        }
        let t: Vec<(String, u64)> = a.tournaments().unwrap().into_iter().map(|t| (t.name, t.games)).collect();
        assert!(t.contains(&("A".into(), 6)) && t.contains(&("B".into(), 5)), "{t:?}");
        assert_counts_exact(&a);
    }

    fn a_job_taken_again_is_taken_alone_and_spends_no_other_jobs_attempts(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let ids = a.enqueue_ingest(&files(5, "alone"), None, Origin::CommandLine).unwrap();
        let first = a.take_jobs("dead", LEASE, 3).unwrap();
        assert_eq!(first.iter().map(|j| j.id).collect::<Vec<_>>(), ids[..3]);
        expire_leases(&a);
        // Taken again: one at a time, each once more, and the jobs never taken are not added.
        for &id in &ids[..3] {
            let again = a.take_jobs("w", LEASE, 10).unwrap();
            assert_eq!(again.iter().map(|j| (j.id, j.attempt)).collect::<Vec<_>>(), vec![(id, 2)]);
        }
        let fresh = a.take_jobs("w", LEASE, 10).unwrap();
        assert_eq!(fresh.iter().map(|j| (j.id, j.attempt)).collect::<Vec<_>>(), vec![(ids[3], 1), (ids[4], 1)]);
    }

    fn a_batch_with_a_lost_lease_stores_the_others_and_nothing_of_it(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let ids = a.enqueue_ingest(&files(3, "lost"), None, Origin::CommandLine).unwrap();
        let slow = a.take_jobs("slow", LEASE, 3).unwrap();
        assert_eq!(slow.len(), 3);
        expire_leases(&a);
        let other = a.take_jobs("other", LEASE, 3).unwrap();
        assert_eq!(other.iter().map(|j| j.id).collect::<Vec<_>>(), vec![ids[0]], "taken again alone");
        let worked = a.work_jobs(&slow, &no_sign, &mut || {}).unwrap();
        assert!(matches!(&worked[0], Err(ArchiveError::LostLease { job }) if *job == ids[0]), "{:?}", worked[0]);
        assert!(worked[1..].iter().all(|w| matches!(w, Ok(Worked::Ingested(s)) if s.new)), "{worked:?}");
        assert_eq!(recount(&a), (2, 2), "the lost job's game is not stored by the slow worker");
        a.work_jobs(&other, &no_sign, &mut || {}).unwrap();
        assert_eq!(recount(&a), (3, 3));
        assert_eq!(a.job(ids[0]).unwrap().unwrap().worker.as_deref(), Some("other"));
        assert_eq!(a.summary().unwrap().games, 3);
    }

    fn a_batch_stopped_inside_its_transaction_leaves_nothing(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        a.enqueue_ingest(&files(4, "stopb"), Some("Cup"), Origin::CommandLine).unwrap();
        let jobs = a.take_jobs("w", LEASE, 4).unwrap();
        struct Stop;
        let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            a.work_jobs(&jobs, &no_sign, &mut || std::panic::panic_any(Stop)).unwrap();
        }));
        assert!(stopped.is_err());
        let _ = a.db().batch("ROLLBACK");
        assert_eq!(recount(&a), (0, 0), "nothing of the batch");
        assert_eq!(a.job_counts().unwrap().running, 4);
        expire_leases(&a);
        assert_eq!(drain(&mut a, "w2"), 4);
        assert_eq!(recount(&a), (4, 4));
        assert_eq!(a.tournaments().unwrap()[0].games, 4);
    }

    fn workers_racing_with_batches_store_each_game_once_and_count_exactly(b: Backend) {
        let (place, mut a) = temp_archive(b);
        // 40 files, 8 of them twice (the same bytes, as a file dropped in twice).
        let mut all = mixed(40, "race", 5);
        all.extend(all[..8].to_vec());
        enqueue_mixed(&mut a, &all);
        let path = place.path("test.db");
        let done: Vec<usize> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|w| {
                    let path = &path;
                    s.spawn(move || {
                        let mut a = Archive::open(path).expect("open");
                        let mut n = 0;
                        loop {
                            let jobs = a.take_jobs(&format!("w{w}"), LEASE, 3 + w as u32).unwrap();
                            if jobs.is_empty() {
                                break n;
                            }
                            for r in a.work_jobs(&jobs, &no_sign, &mut || {}).unwrap() {
                                assert!(matches!(r, Ok(Worked::Ingested(_))), "{r:?}");
                                n += 1;
                            }
                        }
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a worker")).collect()
        });
        assert_eq!(done.iter().sum::<usize>(), 48, "every job worked once: {done:?}");
        assert_eq!(a.job_counts().unwrap(), JobCounts { done: 48, ..JobCounts::default() });
        assert_eq!(recount(&a), (40, 40), "each game once");
        let t: Vec<u64> = a.tournaments().unwrap().into_iter().map(|t| t.games).collect();
        assert_eq!(t.iter().sum::<u64>(), 40);
        assert_counts_exact(&a);
    }

    fn jobs_are_taken_oldest_first_each_by_one_worker(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let ids = a.enqueue_ingest(&files(3, "order"), Some("Cup"), Origin::CommandLine).unwrap();
        assert_eq!(ids.len(), 3);
        assert_eq!(a.job_counts().unwrap(), JobCounts { queued: 3, ..JobCounts::default() });
        let one = a.take_job("w1", LEASE).unwrap().expect("a job");
        let two = a.take_job("w2", LEASE).unwrap().expect("a job");
        assert_eq!((one.id, two.id), (ids[0], ids[1]), "oldest first, and a held job is not taken again");
        assert_eq!((one.attempt, one.worker.as_str(), one.tournament.as_deref()), (1, "w1", Some("Cup")));
        assert_eq!(one.bytes, files(3, "order")[0].1);
        assert_eq!(a.job_counts().unwrap(), JobCounts { queued: 1, running: 2, ..JobCounts::default() });
        for job in [&two, &one] {
            assert!(matches!(a.work_job(job, &no_sign, &mut || {}).unwrap(), Worked::Ingested(s) if s.new && s.valid));
        }
        assert_eq!(drain(&mut a, "w3"), 1);
        assert!(a.take_job("w1", LEASE).unwrap().is_none(), "nothing left");
        assert_eq!(a.job_counts().unwrap(), JobCounts { done: 3, ..JobCounts::default() });
        assert_eq!(recount(&a), (3, 3));
        assert_eq!(a.summary().unwrap().games, 3, "the kept counts equal the recount");
        let row = a.job(one.id).unwrap().unwrap();
        assert_eq!((row.state, row.worker.as_deref(), row.attempts), (JobState::Done, Some("w1"), 1));
        let result: Ingested = serde_json::from_str(row.result.as_deref().unwrap()).unwrap();
        assert!(result.new && result.valid && result.counted, "{result:?}");
        assert_eq!(a.game(result.entry).unwrap().unwrap().source.as_deref(), Some("order/g0.paifu"));
        assert_eq!(a.game(result.entry).unwrap().unwrap().tournaments, vec!["Cup".to_owned()]);
        // A done job's bytes are dropped (its entry has them).
        let bytes: Option<Vec<u8>> =
            a.db().row("SELECT bytes FROM jobs WHERE id = ?1", [one.id], |r| r.get(0)).unwrap();
        assert_eq!(bytes, None);
    }

    fn a_job_whose_lease_passed_is_taken_again_and_the_old_lease_stores_nothing(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        a.enqueue_ingest(&files(1, "lease"), None, Origin::CommandLine).unwrap();
        let dead = a.take_job("dead", LEASE).unwrap().expect("a job");
        assert!(a.take_job("other", LEASE).unwrap().is_none(), "held under its lease");
        expire_leases(&a);
        assert_eq!(a.job_counts().unwrap().expired, 1);
        let again = a.take_job("other", LEASE).unwrap().expect("taken again once the lease passed");
        assert_eq!((again.id, again.attempt), (dead.id, 2));
        // The first worker wakes up and finishes: refused, nothing of it kept.
        let e = a.work_job(&dead, &no_sign, &mut || {}).unwrap_err();
        assert!(matches!(e, ArchiveError::LostLease { job } if job == dead.id), "{e}");
        assert_eq!(recount(&a), (0, 0), "the stale worker stored nothing");
        assert!(a.fail_job(&dead, "x").is_err(), "nor can it fail the job");
        a.work_job(&again, &no_sign, &mut || {}).unwrap();
        assert_eq!(recount(&a), (1, 1));
        let row = a.job(dead.id).unwrap().unwrap();
        assert_eq!((row.state, row.worker.as_deref(), row.attempts), (JobState::Done, Some("other"), 2));
    }

    fn running_a_jobs_effect_twice_keeps_one_entry(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        // The same bytes queued twice (a file dropped in twice, or a job's effect run again).
        let f = files(1, "twice");
        a.enqueue_ingest(&[f[0].clone(), f[0].clone()], Some("Cup"), Origin::CommandLine).unwrap();
        let mut stored = Vec::new();
        while let Some(job) = a.take_job("w", LEASE).unwrap() {
            match a.work_job(&job, &no_sign, &mut || {}).unwrap() {
                Worked::Ingested(s) => stored.push(*s),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(stored.len(), 2);
        assert_eq!(stored[0].id, stored[1].id, "one entry");
        assert!(stored[0].new && !stored[1].new);
        assert_eq!(recount(&a), (1, 1));
        let s = a.summary().unwrap();
        assert_eq!((s.games, s.valid), (1, 1), "counted once");
        assert_eq!(a.tournaments().unwrap()[0].games, 1);
    }

    fn a_worker_stopped_inside_the_finishing_transaction_leaves_nothing(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        a.enqueue_ingest(&files(1, "stop"), None, Origin::CommandLine).unwrap();
        let job = a.take_job("w", LEASE).unwrap().expect("a job");
        // The worker stops after storing, before the commit (a failure there rolls back the
        // transaction as a killed process's connection does).
        struct Stop;
        let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            a.work_job(&job, &no_sign, &mut || std::panic::panic_any(Stop)).unwrap();
        }));
        assert!(stopped.is_err());
        // The panic left the transaction open on this connection, as a killed worker's is
        // until its connection closes: roll it back as the server does then.
        let _ = a.db().batch("ROLLBACK");
        assert_eq!(recount(&a), (0, 0), "nothing half done");
        assert_eq!(a.job_counts().unwrap().running, 1, "the job stays taken until its lease passes");
        expire_leases(&a);
        assert_eq!(drain(&mut a, "w2"), 1);
        assert_eq!(recount(&a), (1, 1));
        assert_eq!(a.summary().unwrap().games, 1);
    }

    fn bad_bytes_and_refused_names_become_failed_jobs_with_their_error(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let mut f = files(1, "bad");
        f.push(("junk.paifu.jsonl".into(), b"this is not a log".to_vec()));
        f.push(("lookalike.paifu".into(), tzq_bytes("jobs/bad/x", ["\u{410}nn", "Bo"], Encoding::Binary)));
        f.push(("invisible.paifu".into(), tzq_bytes("jobs/bad/y", ["Q\u{200b}x", "Bo"], Encoding::Binary)));
        let ids = a.enqueue_ingest(&f, None, Origin::CommandLine).unwrap();
        let mut outcomes = Vec::new();
        while let Some(job) = a.take_job("w", LEASE).unwrap() {
            outcomes.push(a.work_job(&job, &no_sign, &mut || {}).unwrap());
        }
        assert!(matches!(&outcomes[0], Worked::Ingested(_)));
        for o in &outcomes[1..] {
            assert!(matches!(o, Worked::Failed(_)), "{o:?}");
        }
        assert_eq!(a.job_counts().unwrap(), JobCounts { done: 1, failed: 3, ..JobCounts::default() });
        let failed = a.jobs(Some(JobState::Failed), 10).unwrap();
        assert_eq!(failed.iter().map(|j| j.id).collect::<Vec<_>>(), vec![ids[3], ids[2], ids[1]]);
        let error = |id: i64| a.job(id).unwrap().unwrap().error.unwrap();
        assert!(!error(ids[1]).is_empty());
        assert!(error(ids[2]).contains("Ann"), "a lookalike of a stored name names it: {}", error(ids[2]));
        assert!(error(ids[3]).contains("invisible"), "{}", error(ids[3]));
        assert_eq!(recount(&a), (1, 1), "nothing of the failed ones stored");
        // A failed job keeps its bytes (to look at, to queue again).
        let bytes: Option<Vec<u8>> =
            a.db().row("SELECT bytes FROM jobs WHERE id = ?1", [ids[1]], |r| r.get(0)).unwrap();
        assert_eq!(bytes.as_deref(), Some(&b"this is not a log"[..]));
        // A bad tournament name is refused when queued.
        assert!(a.enqueue_ingest(&files(1, "t"), Some("a\u{200b}b"), Origin::CommandLine).is_err());
    }

    fn a_job_abandoned_too_often_is_failed(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let ids = a.enqueue_ingest(&files(2, "poison"), None, Origin::CommandLine).unwrap();
        for attempt in 1..=MAX_ATTEMPTS {
            let job = a.take_job("w", LEASE).unwrap().expect("taken again");
            assert_eq!((job.id, job.attempt), (ids[0], attempt));
            expire_leases(&a);
        }
        // The next worker gives the first up and takes the second.
        let next = a.take_job("w", LEASE).unwrap().expect("the next job");
        assert_eq!(next.id, ids[1]);
        let row = a.job(ids[0]).unwrap().unwrap();
        assert_eq!(row.state, JobState::Failed);
        assert!(row.error.unwrap().contains("abandoned"));
    }

    fn revalidation_reports_the_entries_whose_verdict_differs(b: Backend) {
        let (place, mut a) = temp_archive(b);
        a.enqueue_ingest(&files(5, "reval"), None, Origin::CommandLine).unwrap();
        drain(&mut a, "w");
        let ids = a.enqueue_revalidate(None, None, 2).unwrap();
        assert_eq!(ids.len(), 3, "5 entries in jobs of 2");
        // A stored verdict that this engine would not give (as an older engine's could be):
        // changed behind the archive's back, as verdicts never change through it.
        let forge = "UPDATE verdicts SET valid = 0, fault_code = 'E_FORGED' WHERE log_id = 3";
        match &place {
            Place::Folder(_) => a.db().batch(&format!("DROP TRIGGER verdicts_fixed; {forge}")).unwrap(),
            Place::Database(db) => {
                db.execute(&format!("ALTER TABLE verdicts DISABLE TRIGGER verdicts_fixed; {forge}")).unwrap()
            }
        }
        assert_eq!(drain(&mut a, "w"), 3);
        let done = a.revalidations().unwrap();
        assert_eq!(done.len(), 3);
        assert_eq!(done.iter().map(|(_, r)| r.checked).sum::<u64>(), 5);
        assert_eq!(done.iter().map(|(_, r)| r.same).sum::<u64>(), 4);
        let changed: Vec<&VerdictChange> = done.iter().flat_map(|(_, r)| &r.changed).collect();
        assert_eq!(changed.len(), 1);
        assert_eq!(changed[0].id, 3);
        assert!(changed[0].stored.starts_with("invalid E_FORGED"), "{:?}", changed[0]);
        assert!(changed[0].now.starts_with("valid ["), "{:?}", changed[0]);
        assert_eq!(done[0].1.engine, paifu_core::ENGINE);
        // The stored verdict is left as it is.
        assert!(!a.game(3).unwrap().unwrap().valid);
        // A range: only those entries.
        let one = a.enqueue_revalidate(Some(2), Some(3), 10).unwrap();
        assert_eq!(one.len(), 1);
        let job = a.take_job("w", LEASE).unwrap().unwrap();
        assert_eq!((job.first, job.last), (2, 3));
    }
}
