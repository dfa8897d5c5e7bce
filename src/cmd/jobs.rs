//! `paifu jobs`: the archive's queue as an operator sees it (counts per state, failed jobs with
//! their errors, re-validations that found a different verdict); `paifu jobs revalidate`
//! queues the re-validation of the stored entries.

use crate::archive::{open, shown};
use crate::args::DEFAULT_DB;
use crate::error::{Error, Result, Status};
use crate::output::outln;
use clap::{Args, Subcommand};
use paifu_recorder::archive::JobState;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "Without a subcommand: how many jobs are queued, running (and of those, how many under a lease that \
passed: their worker died, the next worker takes them again), done and failed; the failed ones with their errors; the \
arena's match jobs (paifu arena --queue: their kind, match or duplicate, the match and its game or deal, the bots \
they need by name, their state and worker); the entries that a re-validation found would now get another verdict.

Examples:
  paifu jobs --db postgres://paifu@db.example/paifu
  paifu jobs --failed 100 --db club.db
  paifu jobs --matches 200 --db club.db                             # the arena's match jobs
  paifu jobs revalidate --db postgres://paifu@db.example/paifu      # every stored entry, under this engine
  paifu jobs revalidate --from 1000 --to 1999 --db club.db

Exit status: 0 no job failed and no re-validation found a different verdict, 1 otherwise, 2 the database could not \
be used."
)]
/// Show the archive's queue of jobs; queue the re-validation of stored entries.
pub struct JobsArgs {
    #[command(subcommand)]
    pub action: Option<JobsAction>,
    #[command(flatten)]
    pub list: ListArgs,
}

#[derive(Subcommand, Debug, Clone)]
pub enum JobsAction {
    /// Queue the re-validation of stored entries under this build's engine (workers do it).
    Revalidate(RevalidateArgs),
}

#[derive(Args, Debug, Clone)]
pub struct ListArgs {
    /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME.
    #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// How many failed jobs to list, newest first.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub failed: u32,
    /// How many arena match jobs to list (kind, the match and game, state), newest first.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub matches: u32,
}

#[derive(Args, Debug, Clone)]
#[command(after_help = "The stored verdicts never change: a re-validation replays each entry's stored log again \
under this build's engine and records, in its job's result, the entries whose verdict would now differ (paifu jobs \
lists them). Run paifu worker to work the jobs.

Examples:
  paifu jobs revalidate --db postgres://paifu@db.example/paifu
  paifu jobs revalidate --from 1000 --to 1999 --per-job 50 --db club.db")]
pub struct RevalidateArgs {
    /// The archive: a SQLite file, or a PostgreSQL URL, postgres://USER@HOST:PORT/DBNAME.
    #[arg(long, value_name = "FILE|URL", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// The first entry (its number, as paifu show lists it).
    #[arg(long, value_name = "ID")]
    pub from: Option<i64>,
    /// The last entry.
    #[arg(long, value_name = "ID")]
    pub to: Option<i64>,
    /// Entries per job.
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub per_job: u32,
}

/// `paifu jobs`.
pub fn run(a: JobsArgs) -> Result {
    match a.action {
        Some(JobsAction::Revalidate(r)) => revalidate(r),
        None => list(a.list),
    }
}

fn list(a: ListArgs) -> Result {
    let archive = crate::archive::open_existing(&a.db)?;
    let c = archive.job_counts().map_err(Error::archive(&a.db))?;
    outln!(
        "{}: {} queued, {} running ({} under a lease that passed), {} done, {} failed",
        shown(&a.db),
        c.queued,
        c.running,
        c.expired,
        c.done,
        c.failed
    )?;
    let failed = archive.jobs(Some(JobState::Failed), a.failed).map_err(Error::archive(&a.db))?;
    for j in &failed {
        let what = match (&j.name, j.first, j.last) {
            (Some(n), _, _) => n.clone(),
            (None, Some(f), Some(l)) => format!("entries {f}-{l}"),
            _ => String::new(),
        };
        outln!(
            "  failed: job {} ({} {what}, {} attempts): {}",
            j.id,
            j.kind.as_str(),
            j.attempts,
            j.error.as_deref().unwrap_or("")
        )?;
    }
    if c.failed > failed.len() as u64 {
        outln!("  ... and {} more failed jobs (--failed N lists more)", c.failed - failed.len() as u64)?;
    }
    list_matches(&archive, &a)?;
    let mut differ = 0;
    for (id, r) in archive.revalidations().map_err(Error::archive(&a.db))? {
        for ch in &r.changed {
            differ += 1;
            outln!("  re-validation (job {id}, {}): entry #{}: stored {}, now {}", r.engine, ch.id, ch.stored, ch.now)?;
        }
    }
    Ok(Status::faulty_if(c.failed > 0 || differ > 0))
}

/// The arena's match jobs (`paifu arena --queue`): one line each, newest first.
fn list_matches(archive: &paifu_recorder::archive::Archive, a: &ListArgs) -> Result<()> {
    let rows = archive.match_jobs(a.matches).map_err(Error::archive(&a.db))?;
    for j in &rows {
        let state = match (j.state, j.worker.as_deref()) {
            (JobState::Queued, _) => "queued".to_owned(),
            (s, Some(w)) => format!("{} (worker {w}, attempt {})", s.as_str(), j.attempts),
            (s, None) => s.as_str().to_owned(),
        };
        outln!(
            "  {} job {}: {} (bots {}): {state}",
            j.kind.as_str(),
            j.id,
            j.title.as_deref().unwrap_or(""),
            j.bots.join(", ")
        )?;
    }
    if rows.len() as u32 == a.matches && a.matches > 0 {
        outln!("  ... (--matches N lists more match jobs)")?;
    }
    Ok(())
}

fn revalidate(a: RevalidateArgs) -> Result {
    if let (Some(f), Some(t)) = (a.from, a.to) {
        if f > t {
            return Err(Error::Usage(format!("--from {f} is after --to {t}")));
        }
    }
    let mut archive = open(&a.db)?;
    let ids = archive.enqueue_revalidate(a.from, a.to, a.per_job).map_err(Error::archive(&a.db))?;
    match (ids.first(), ids.last()) {
        (Some(first), Some(last)) => outln!(
            "queued {} re-validation jobs (ids {first}-{last}) of up to {} entries each; run paifu worker --db {} to work them",
            ids.len(),
            a.per_job,
            shown(&a.db)
        )?,
        _ => outln!("no stored entry to re-validate in {}", shown(&a.db))?,
    }
    Ok(Status::Fine)
}
