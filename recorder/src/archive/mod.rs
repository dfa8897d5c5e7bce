//! The archive: every log Paifu was given, with its verdict, certificates, players, seats,
//! rounds and tournaments, in one SQLite file (WAL mode, migrated by `PRAGMA user_version`).
//!
//! Each entry is a log stored in the binary encoding (decoded, then re-encoded) under its
//! identity, the blake3 of that encoding: everything the validator reads (the header with the
//! seed as revealed, every record, every claim). The same log in either encoding is one entry;
//! logs that differ in anything the validator reads are two, each with its own verdict and
//! certificates, and neither ever changes the other. Entries of one game (the same game key,
//! computed from what the game is: `game_key.rs`) are kept side by side; one valid entry counts
//! for the game in statistics, the one certified with the most trust (`counting.rs`;
//! `logs.counted`, at most one per game), and a tournament's standings count one of its own
//! entries per game. Bytes that are not a readable log are refused, not stored; an invalid log
//! is kept up to a little past its fault (`prepare.rs`). Stored logs, verdicts and certificates
//! never change: a new signature is a new certificate, and the history is kept. An entry and the
//! certificate its writer signs for it are stored in one transaction
//! ([`Archive::store_batch_certified`]).
//!
//! Writers take the write lock when their transaction begins (`BEGIN IMMEDIATE`), wait for it
//! (busy timeout) and try again if it stays busy, so any number of processes may write at once.
//! On PostgreSQL (`Archive::open` of a `postgres://` URL) every write transaction takes one
//! advisory lock first (`pg_advisory_xact_lock`), the same one writer at a time on any number of
//! machines, readers never waiting; one that fails to serialize (40001) or deadlocks (40P01) is
//! tried again as a busy one is (docs/archive.md).
//!
//! Every query binds its inputs as parameters; no SQL text is ever built from input.

mod aggregates;
mod counting;
#[doc(hidden)]
pub mod db;
mod duplicate;
mod game_key;
mod jobs;
mod kept;
mod live;
mod names;
#[doc(hidden)]
pub mod pg_test;
mod prepare;
mod publish;
mod schema;
mod schema_pg;
mod sessions;
mod tables;
mod tokens;
mod tournaments;

pub use jobs::{
    Ingested, Job, JobCounts, JobKind, JobRow, JobState, MatchJobRow, MatchPlayed, NewMatchJob, Revalidated,
    VerdictChange, Worked, MAX_ATTEMPTS,
};
pub use live::{LiveGame, LiveRefusal};
pub use names::{check_name, check_new_name, skeleton, NameError, NameKind, MAX_NAME_CHARS};
pub use prepare::{identity_of, prepare, DigestKind, Prepared, Refusal, StoredForm, KEEP_AFTER_FAULT_BYTES};
pub use publish::{log_file_name, Published, PublishedGame, TournamentSummary};
pub use schema::SCHEMA_VERSION;
pub use sessions::{session_csrf, SessionRow, MAX_SESSIONS_PER_TOKEN};
pub use tables::{NewSeat, NewTable, SeedStepRefusal, TableRow, TableSeat, JOIN_PREFIX};
pub use tokens::{BadRole, NewToken, Role, Token, TOKEN_PREFIX};
pub use tournaments::{Standing, TournamentInfo, TournamentRow};

use db::{params, Db};
use paifu_core::cert::Certificate;
use paifu_core::replay::Played;
use paifu_core::{Fault, GameKind, RoundResult};
use rusqlite::Connection;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// The archive could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database error: {}", db::pg_message(.0))]
    Postgres(#[from] postgres::Error),
    /// A step of SQLite's own (its settings, its migrations) asked of a PostgreSQL archive: every
    /// operation of the archive runs on both backends (docs/archive.md, "What runs where").
    #[error("{0} is SQLite's own and not available on a PostgreSQL archive")]
    NotOnPostgres(&'static str),
    #[error("the database {path} was written by a newer Paifu (schema {found}; this one knows up to {known})")]
    TooNew { path: String, found: i64, known: i64 },
    #[error("the archive holds damaged data: {0}")]
    Corrupt(String),
    /// Something given to store is refused (`index`: its place in the batch).
    #[error("{refusal}")]
    Refused { index: usize, refusal: Box<Refusal> },
    #[error(transparent)]
    Name(#[from] NameError),
    #[error("no randomness for a token: {0}")]
    Randomness(String),
    #[error("there is no tournament {0:?}")]
    NoTournament(String),
    /// A game in progress's key or line is refused (see [`LiveRefusal`]).
    #[error(transparent)]
    Live(#[from] LiveRefusal),
    #[error("there is no game in progress numbered {0}: it ended, or never began")]
    NoLiveGame(i64),
    /// A worker's lease on a job passed and another worker took it: this worker's work on it
    /// was rolled back (the other one's counts).
    #[error("job {job}: the lease passed and another worker took the job; this worker's work on it was rolled back")]
    LostLease { job: i64 },
    #[error("there is no job numbered {0}")]
    NoJob(i64),
    #[error("the database stayed busy (another writer held it) through {tries} tries over {seconds} s")]
    Busy { tries: u32, seconds: u64 },
}

pub type Result<T> = std::result::Result<T, ArchiveError>;

/// Which games a query is about. Every field left `None` matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Filter {
    /// Game kind (`tzq`, `riichi`, ...).
    pub game: Option<String>,
    /// A player's name, as written in the seats of the header.
    pub player: Option<String>,
    /// A tournament's name.
    pub tournament: Option<String>,
    /// Only valid (`Some(true)`) or only invalid (`Some(false)`) logs.
    pub valid: Option<bool>,
    /// Only games the archive stored at or after this time, in whole seconds since the Unix
    /// epoch (UTC): when the game was stored (`added_at`), not a date a log may carry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<i64>,
}

/// Who stored an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `paifu ingest` (or another program) with the archive's file.
    CommandLine,
    /// The web server, for the bearer of this token.
    Web { token: i64 },
}

impl Origin {
    fn as_str(self) -> &'static str {
        match self {
            Origin::CommandLine => "cli",
            Origin::Web { .. } => "web",
        }
    }

    fn token(self) -> Option<i64> {
        match self {
            Origin::CommandLine => None,
            Origin::Web { token } => Some(token),
        }
    }
}

/// What storing one log did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stored {
    /// The entry's number in the archive.
    pub id: i64,
    /// False when the archive already held this very log (the same identity): nothing about the
    /// entry changed.
    pub new: bool,
    pub valid: bool,
    /// The log digest (hex): what certificates name.
    pub digest: String,
    /// The game key (hex): entries of one game share it.
    pub game: String,
    /// The entry's identity (hex): blake3 of the log's binary encoding.
    pub identity: String,
    pub fault: Option<Fault>,
    /// Whether this entry is the one that counts for its game in statistics (once this store is
    /// committed).
    pub counted: bool,
    /// Other entries of the same game in the archive.
    pub others: u64,
    /// Whether this store put the entry in the tournament named (false when none was named or
    /// it was in it already).
    pub added_to_tournament: bool,
    /// Whether this store added the certificate it was given (false when none was given, or the
    /// entry had one by that key already). For an entry that was stored already, this is a
    /// certificate an interrupted writer never stored.
    pub certified_now: bool,
}

/// Counts over the whole archive.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub games: u64,
    pub valid: u64,
    pub invalid: u64,
    pub players: u64,
    pub tournaments: u64,
    pub rounds: u64,
    /// Games per kind (`None` when the header could not be read), most first.
    pub per_game: Vec<(Option<String>, u64)>,
    /// Invalid logs per fault code, most first.
    pub faults: Vec<(String, u64)>,
}

/// One line of the games list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRow {
    pub id: i64,
    pub digest: String,
    pub game: Option<String>,
    pub ruleset: Option<String>,
    pub players: Vec<String>,
    pub valid: bool,
    pub fault_code: Option<String>,
    pub final_scores: Option<Vec<i64>>,
    pub rounds: u32,
    pub added_at: i64,
    /// For an excerpt of an unknown game, its verdict (`excerpt: rounds ... of an unknown game`);
    /// its `final_scores` are then the scores after its last round.
    pub excerpt: Option<String>,
}

/// A page of the games list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GamePage {
    pub rows: Vec<GameRow>,
    /// Games matching the filter in all.
    pub total: u64,
    /// The page the first row is on, counting pages of `per_page` from the newest game.
    pub page: u32,
    pub per_page: u32,
    /// The place of the first row among the games matching the filter, newest first (1 for the
    /// newest); 0 when the page is empty. The rows are `first..first + rows.len()` of `total`.
    pub first: u64,
    /// The cursor of the next older page ([`Cursor::After`] this game), when there are older games.
    pub older: Option<i64>,
    /// The cursor of the next newer page ([`Cursor::Before`] this game), when there are newer games.
    pub newer: Option<i64>,
}

/// Where a page of the games list (newest first) starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cursor {
    /// The newest games.
    Newest,
    /// The games just older than game `id` (an "older" link): read from the index, however deep.
    After(i64),
    /// The games just newer than game `id` (a "newer" link); the newest page when fewer than a
    /// page's worth are newer.
    Before(i64),
    /// Page `n` (1-based) of pages of `per_page` (the links of earlier versions): the rows it
    /// always held; past the last page, the last page.
    Page(u32),
}

/// One seat of a stored game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatRow {
    pub seat: u8,
    pub player: String,
    pub final_score: Option<i64>,
    /// 1 for first; tied seats share a place.
    pub placement: Option<u32>,
}

/// Everything the archive knows about one game, but its bytes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameDetail {
    pub id: i64,
    /// The log digest (what certificates name).
    pub digest: String,
    /// The game key: the entries of this game share it.
    pub game_key: String,
    /// `log` (the log digest) or `bytes` (blake3 of bytes that could not be decoded).
    pub digest_kind: String,
    pub game: Option<String>,
    pub ruleset: Option<String>,
    pub seats: Vec<SeatRow>,
    pub valid: bool,
    pub fault: Option<Fault>,
    pub final_scores: Option<Vec<i64>>,
    /// For an excerpt of an unknown game, its verdict (`excerpt: rounds ... of an unknown game`).
    pub excerpt: Option<String>,
    pub records: u64,
    /// Records of an invalid log not kept, past a little after its fault.
    pub dropped: u64,
    pub size: u64,
    /// `binary` or `raw`.
    pub form: String,
    pub header: Option<serde_json::Value>,
    pub source: Option<String>,
    pub added_at: i64,
    pub engine: String,
    pub tournaments: Vec<String>,
    pub rounds: Vec<RoundResult>,
    /// blake3 of the stored bytes (hex).
    pub identity: String,
    /// Whether this entry counts for its game in statistics and standings.
    pub counted: bool,
    /// Who stored it.
    pub stored_by: StoredBy,
    /// Every entry of this game (this one too), the one that counts first, then valid ones, then
    /// oldest first.
    pub entries: Vec<EntryRow>,
    /// Its certificates, oldest first: a new verdict or signature is a new one.
    pub certificates: Vec<CertificateRow>,
}

/// Who stored an entry, as shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoredBy {
    /// `web`, `cli`, or `migrated` (stored before the archive recorded who).
    pub origin: String,
    /// The token's number and name, for `web`.
    pub token: Option<i64>,
    pub name: Option<String>,
}

/// One entry of a game, beside the others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntryRow {
    pub id: i64,
    pub identity: String,
    pub valid: bool,
    pub fault_code: Option<String>,
    pub counted: bool,
    /// How much its certificates are trusted (docs/web.md, "Which entry counts"): 2 certified
    /// valid by a key a tournament it is in trusts, 1 certified valid by another key, 0 neither.
    pub trust: u8,
    /// Whether the header holds the seed.
    pub seed_revealed: bool,
    pub added_at: i64,
}

/// A stored certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CertificateRow {
    pub id: i64,
    /// The signer's public key (hex).
    pub signer: String,
    pub issued_at: String,
    /// Whether it certifies the entry valid.
    pub valid: bool,
    pub json: String,
}

/// A player and how many games the archive holds with them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerRow {
    pub name: String,
    pub games: u64,
}

/// The archive, on SQLite or PostgreSQL.
pub struct Archive {
    backend: Backend,
}

/// The connection an archive holds.
enum Backend {
    Lite(Connection),
    Pg(Box<RefCell<db::Pg>>),
}

/// The key of the advisory lock every write transaction on PostgreSQL takes first ("paifu" in
/// ASCII): one writer at a time, as SQLite's write lock.
const PG_WRITE_LOCK: i64 = 0x0070_6169_6675;

/// How long a writer waits for another to finish before its try fails (then it tries again).
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// How many times a write is tried while the database stays busy.
const WRITE_TRIES: u32 = 12;

fn is_busy(e: &ArchiveError) -> bool {
    match e {
        ArchiveError::Sqlite(rusqlite::Error::SqliteFailure(f, _)) => {
            matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
        }
        ArchiveError::Postgres(e) => db::pg_retryable(e),
        _ => false,
    }
}

/// Runs `f` again while it fails as busy ([`is_busy`]), up to [`WRITE_TRIES`] times with growing
/// pauses; then [`ArchiveError::Busy`].
fn retrying<T>(mut f: impl FnMut() -> Result<T>) -> Result<T> {
    let started = std::time::Instant::now();
    let mut tries = 0;
    loop {
        tries += 1;
        match f() {
            Err(e) if is_busy(&e) && tries < WRITE_TRIES => {
                std::thread::sleep(Duration::from_millis(20 * u64::from(tries)));
            }
            Err(e) if is_busy(&e) => return Err(ArchiveError::Busy { tries, seconds: started.elapsed().as_secs() }),
            other => return other,
        }
    }
}

pub(crate) fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// Whether `location` (what `--db` was given) names a PostgreSQL database rather than a SQLite
/// file.
pub fn is_postgres_url(location: &str) -> bool {
    location.starts_with("postgres://") || location.starts_with("postgresql://")
}

/// `location` (what `--db` was given) as messages show it: a PostgreSQL URL without its password.
pub fn shown_location(location: &str) -> String {
    if is_postgres_url(location) {
        schema_pg::shown(location)
    } else {
        location.to_owned()
    }
}

/// Runs `f` in a write transaction on `db`, committed when it answers `Ok`, rolled back when it
/// fails. SQLite takes the write lock at once (`BEGIN IMMEDIATE`); PostgreSQL takes the
/// archive's advisory lock first ([`PG_WRITE_LOCK`]), held until the transaction ends.
fn transaction<T>(db: Db<'_>, f: &mut impl FnMut(Db<'_>) -> Result<T>) -> Result<T> {
    match db {
        Db::Lite(_) => db.batch("BEGIN IMMEDIATE")?,
        Db::Pg(_) => db.batch("BEGIN")?,
    }
    let out = match db {
        Db::Pg(_) => db.exec("SELECT pg_advisory_xact_lock(?1)", [PG_WRITE_LOCK]).and_then(|_| f(db)),
        Db::Lite(_) => f(db),
    };
    match out.and_then(|v| db.batch("COMMIT").map(|()| v)) {
        Ok(v) => Ok(v),
        Err(e) => {
            // Nothing to roll back when the transaction had ended already.
            let _ = db.batch("ROLLBACK");
            Err(e)
        }
    }
}

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

fn parse_json<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|e| ArchiveError::Corrupt(format!("{what}: {e}")))
}

/// A games query: what it reads (`from`, where `l` is the logs and `v` their verdicts), the
/// column that orders the games (`key`, equal to `l.id`), its condition and the condition's
/// parameters in order. The SQL text is made only of the constant fragments below, one per
/// filter present (so that SQLite can drive each query from the right index); every value is a
/// bound parameter. `ids_from` is `from` with every table after the first LEFT JOINed on the
/// first one's game (`key`): the same rows (each entry has its log and its one verdict, stored
/// together), but a table the condition does not name is left out of the plan. PostgreSQL joined
/// the verdicts of a tournament's list by merging them from the newest game down to the page,
/// however deep (its bound on `tg.log_id` is not carried over to `v.log_id`): 24 000 verdicts
/// read for 50 rows. Where the condition names a table, its LEFT JOIN is an inner join again
/// (on both backends).
struct GamesQuery {
    from: &'static str,
    ids_from: &'static str,
    key: &'static str,
    cond: String,
    values: Vec<db::Value>,
}

/// A player's games are read from their seats, in the order of the index of seats by player and
/// game: a page of a player's games reads that page's rows, however many games they have (a
/// player in two seats of a game: the first seat, as "no seat of theirs before it": PostgreSQL
/// plans that as an anti-join, where `seat = (SELECT MIN ...)` made it read and sort all of the
/// player's seats, 150 ms for 7 500 games against 0.5 ms). One line per game: its lead entry (the
/// one that counts, or while none does the first stored; `counting.rs`).
const PLAYER_FROM: &str = "seats ps JOIN logs l ON l.id = ps.log_id JOIN verdicts v ON v.log_id = l.id";
const PLAYER_IDS: &str = "seats ps LEFT JOIN logs l ON l.id = ps.log_id LEFT JOIN verdicts v ON v.log_id = ps.log_id";
const PLAYER_COND: &str = "ps.player_id = (SELECT id FROM players WHERE name = ?)
     AND NOT EXISTS (SELECT 1 FROM seats s2 WHERE s2.log_id = ps.log_id AND s2.player_id = ps.player_id AND s2.seat < ps.seat)
     AND l.lead = 1";

/// The games of a tournament, as a list shows them: its entries, read from the index of the
/// tournament's entries (as a player's are from their seats), so that a page of them reads
/// that page's rows.
const TOURNAMENT_FROM: &str = "tournament_games tg JOIN logs l ON l.id = tg.log_id JOIN verdicts v ON v.log_id = l.id";
const TOURNAMENT_IDS: &str =
    "tournament_games tg LEFT JOIN logs l ON l.id = tg.log_id LEFT JOIN verdicts v ON v.log_id = tg.log_id";
const TOURNAMENT_ENTRIES: &str = "tg.tournament_id = (SELECT id FROM tournaments WHERE name = ?)";
/// The same, when the games are read from another index (a player's).
const IN_TOURNAMENT: &str = "l.id IN (SELECT tg.log_id FROM tournament_games tg
                      WHERE tg.tournament_id = (SELECT id FROM tournaments WHERE name = ?))";
/// The games of a tournament, as statistics count them: each game with an entry in it, read from
/// the entry that counts in the archive (the same results: `counting.rs`).
const TOURNAMENT_GAMES: &str =
    "l.game_key IN (SELECT tl.game_key FROM tournament_games tg JOIN logs tl ON tl.id = tg.log_id
                      WHERE tg.tournament_id = (SELECT id FROM tournaments WHERE name = ?))";
/// The games of one verdict (and no other filter but the time stored), read from the index of
/// verdicts.
const VERDICT_FROM: &str = "verdicts v JOIN logs l ON l.id = v.log_id";
const VERDICT_IDS: &str = "verdicts v LEFT JOIN logs l ON l.id = v.log_id";
/// Every game.
const ALL_FROM: &str = "logs l JOIN verdicts v ON v.log_id = l.id";
const ALL_IDS: &str = "logs l LEFT JOIN verdicts v ON v.log_id = l.id";

/// What a tournament filter chooses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum InTournament {
    /// Its entries (the games lists).
    Entries,
    /// The games it has an entry of (statistics).
    Games,
}

fn where_clause(filter: &Filter) -> GamesQuery {
    where_clause_of(filter, InTournament::Entries)
}

fn where_clause_of(filter: &Filter, in_tournament: InTournament) -> GamesQuery {
    use db::Value;
    let mut parts: Vec<&str> = vec!["1 = 1"];
    let mut values: Vec<Value> = Vec::new();
    let (mut from, mut ids_from, mut key) = (ALL_FROM, ALL_IDS, "l.id");
    match (&filter.player, &filter.tournament, in_tournament) {
        (Some(p), _, _) => {
            (from, ids_from, key) = (PLAYER_FROM, PLAYER_IDS, "ps.log_id");
            parts.push(PLAYER_COND);
            values.push(Value::Text(p.clone()));
        }
        (None, Some(t), InTournament::Entries) => {
            (from, ids_from, key) = (TOURNAMENT_FROM, TOURNAMENT_IDS, "tg.log_id");
            parts.push(TOURNAMENT_ENTRIES);
            values.push(Value::Text(t.clone()));
        }
        (None, None, _) if filter.valid.is_some() && filter.game.is_none() => {
            (from, ids_from, key) = (VERDICT_FROM, VERDICT_IDS, "v.log_id")
        }
        _ => {}
    }
    if let Some(g) = &filter.game {
        parts.push("l.game = ?");
        values.push(Value::Text(g.clone()));
    }
    if let (Some(t), false) = (&filter.tournament, key == "tg.log_id") {
        parts.push(match in_tournament {
            InTournament::Entries => IN_TOURNAMENT,
            InTournament::Games => TOURNAMENT_GAMES,
        });
        values.push(Value::Text(t.clone()));
    }
    if let Some(v) = filter.valid {
        parts.push("v.valid = ?");
        values.push(Value::Int(i64::from(v)));
    }
    if let Some(t) = filter.since {
        parts.push("l.added_at >= ?");
        values.push(Value::Int(t));
    }
    GamesQuery { from, ids_from, key, cond: parts.join(" AND "), values }
}

impl Archive {
    /// Opens (creating if needed) the archive at `path` and brings its schema up to date. A
    /// `postgres://` or `postgresql://` URL is a PostgreSQL database (which must exist; its
    /// tables are made if missing), completed from the usual environment variables
    /// (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`) where it says nothing; any other
    /// path is a SQLite file.
    pub fn open(path: &Path) -> Result<Archive> {
        match path.to_str().filter(|p| is_postgres_url(p)) {
            Some(url) => Archive::open_postgres(url),
            None => {
                let conn = Connection::open(path)?;
                Archive::setup(conn, &path.display().to_string())
            }
        }
    }

    /// Opens the PostgreSQL archive at `url` (see [`Archive::open`]).
    fn open_postgres(url: &str) -> Result<Archive> {
        let config = schema_pg::config(url)?;
        let client = config.connect(postgres::NoTls)?;
        let mut a = Archive { backend: Backend::Pg(Box::new(RefCell::new(db::Pg::new(client)))) };
        let name = schema_pg::shown(url);
        a.retry(|db| schema_pg::migrate(db, &name))?;
        Ok(a)
    }

    fn setup(conn: Connection, name: &str) -> Result<Archive> {
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let mut a = Archive { backend: Backend::Lite(conn) };
        // WAL: readers (the web server) never wait for a writer (an ingest) and vice versa.
        // Switching a new database to it needs a moment alone with the file: another process
        // opening it at the same time may make this busy, so it is tried again.
        a.retry(|db| db.row("PRAGMA journal_mode = WAL", params![], |r| r.get::<_, String>(0)))?;
        let c = a.lite("SQLite's settings")?;
        c.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")?;
        // Room for every statement an ingest and a page run, kept prepared.
        c.set_prepared_statement_cache_capacity(64);
        a.retry_lite(|c| schema::migrate(c, name))?;
        Ok(a)
    }

    /// The archive's connection, of either backend.
    pub(crate) fn db(&self) -> Db<'_> {
        match &self.backend {
            Backend::Lite(c) => Db::Lite(c),
            Backend::Pg(c) => Db::Pg(c),
        }
    }

    /// The SQLite connection, for SQLite's own steps (`what` names the step in the error a
    /// PostgreSQL archive answers).
    pub(crate) fn lite(&self, what: &'static str) -> Result<&Connection> {
        match &self.backend {
            Backend::Lite(c) => Ok(c),
            Backend::Pg(_) => Err(ArchiveError::NotOnPostgres(what)),
        }
    }

    /// [`Archive::retry`] with the SQLite connection itself (its migrations).
    fn retry_lite<T>(&mut self, mut f: impl FnMut(&mut Connection) -> Result<T>) -> Result<T> {
        retrying(|| match &mut self.backend {
            Backend::Lite(c) => f(c),
            Backend::Pg(_) => Err(ArchiveError::NotOnPostgres("a SQLite step")),
        })
    }

    /// Runs `f` again while the database stays busy (another writer holding it past the busy
    /// timeout; on PostgreSQL, a transaction that failed to serialize or deadlocked), up to
    /// [`WRITE_TRIES`] times with growing pauses.
    fn retry<T>(&mut self, mut f: impl FnMut(Db<'_>) -> Result<T>) -> Result<T> {
        retrying(|| f(self.db()))
    }

    /// Runs `f` in a write transaction that holds the write lock from its start (so it never
    /// has to upgrade a read lock, which fails at once when another writer went first), commits
    /// it, and tries again while the database stays busy. `f` may run more than once.
    fn write<T>(&mut self, mut f: impl FnMut(Db<'_>) -> Result<T>) -> Result<T> {
        self.retry(|db| transaction(db, &mut f))
    }

    /// [`Archive::write`], gathering what the transaction changes of the counts kept at ingest
    /// (`kept.rs`) and writing it, with the standings and Merkle roots it changed, before it
    /// commits: the counts change with the entries, never apart.
    fn write_kept<T>(&mut self, mut f: impl FnMut(Db<'_>, &mut kept::Kept) -> Result<T>) -> Result<T> {
        self.write(|tx| {
            let mut kept = kept::Kept::default();
            let out = f(tx, &mut kept)?;
            kept.write_counts(tx)?;
            tournaments::keep_standings(tx, &kept.standings)?;
            tournaments::keep_penalties(tx, &kept.standings)?;
            publish::keep_roots(tx, &kept.leaves, &kept.tournaments)?;
            Ok(out)
        })
    }

    /// The schema version of the open database.
    #[cfg(test)]
    pub(crate) fn schema_version(&self) -> Result<i64> {
        match self.db() {
            Db::Lite(c) => Ok(c.query_row("PRAGMA user_version", [], |r| r.get(0))?),
            db => schema_pg::version(db)?.ok_or_else(|| ArchiveError::Corrupt("no schema version".into())),
        }
    }

    /// Validates and stores one log as the command line does (see [`prepare`] and
    /// [`Archive::store`]).
    pub fn ingest_bytes(&mut self, bytes: &[u8], source: Option<&str>, tournament: Option<&str>) -> Result<Stored> {
        let p = prepare(bytes);
        self.store(&p, source, tournament, Origin::CommandLine)
    }

    /// Why `name` would be refused as a new player's or tournament's name (`kind`), if it would:
    /// the check storing makes, asked before (a table checks its seats' names when it opens).
    pub fn new_name_refusal(&self, kind: NameKind, name: &str) -> Result<Option<NameError>> {
        new_name_refusal(self.db(), kind, name)
    }

    /// Stores one prepared log in its own transaction; committed when this returns `Ok`.
    pub fn store(
        &mut self,
        p: &Prepared,
        source: Option<&str>,
        tournament: Option<&str>,
        origin: Origin,
    ) -> Result<Stored> {
        let mut out = self.store_batch(std::slice::from_ref(p), &[source], tournament, origin)?;
        out.pop().ok_or_else(|| ArchiveError::Corrupt("nothing stored".into()))
    }

    /// [`Archive::store`] with the certificate its writer signed for it, in the same transaction
    /// (see [`Archive::store_batch_certified`]).
    pub fn store_certified(
        &mut self,
        p: &Prepared,
        source: Option<&str>,
        certificate: Option<&Certificate>,
        tournament: Option<&str>,
        origin: Origin,
    ) -> Result<Stored> {
        let mut out =
            self.store_batch_certified(std::slice::from_ref(p), &[source], &[certificate], tournament, origin)?;
        out.pop().ok_or_else(|| ArchiveError::Corrupt("nothing stored".into()))
    }

    /// Stores several prepared logs in one transaction (faster for bulk ingest); all are
    /// committed when this returns `Ok`, none if it fails. `sources[i]` names where `items[i]`
    /// came from (missing entries mean unknown). A tournament named is made if missing (with no
    /// owner and no trusted key: see [`Archive::ensure_tournament`] to make one with them).
    ///
    /// Refuses the whole batch, storing nothing, when an item is not a readable log or has a
    /// seat name the archive does not keep ([`Prepared::refusal`], or a new name that is
    /// invisible in part or looks like a stored one: [`ArchiveError::Refused`] names the item),
    /// or when the tournament's name is not one it keeps.
    pub fn store_batch(
        &mut self,
        items: &[Prepared],
        sources: &[Option<&str>],
        tournament: Option<&str>,
        origin: Origin,
    ) -> Result<Vec<Stored>> {
        self.store_batch_certified(items, sources, &[], tournament, origin)
    }

    /// [`Archive::store_batch`], each item with the certificate its writer signed for it
    /// (`certificates[i]` for `items[i]`; missing entries mean none), stored in the same
    /// transaction as the entry: a writer that stops at any moment leaves every entry it stored
    /// with its certificate, or neither. An item stored already gets its certificate when it has
    /// none by that key (a writer interrupted before this was so stored it unsigned: running it
    /// again finishes its work). Each certificate must be of its item's log.
    pub fn store_batch_certified(
        &mut self,
        items: &[Prepared],
        sources: &[Option<&str>],
        certificates: &[Option<&Certificate>],
        tournament: Option<&str>,
        origin: Origin,
    ) -> Result<Vec<Stored>> {
        if let Some((index, refusal)) = items.iter().enumerate().find_map(|(i, p)| p.refusal().map(|r| (i, r))) {
            return Err(ArchiveError::Refused { index, refusal: Box::new(refusal) });
        }
        if let Some(t) = tournament {
            check_name(NameKind::Tournament, t)?;
        }
        for (i, (p, c)) in items.iter().zip(certificates).enumerate() {
            if let Some(c) = c {
                if c.certificate.log_digest != p.digest {
                    return Err(ArchiveError::Corrupt(format!(
                        "item {i}: its certificate names the log {}, not this log {}",
                        c.certificate.log_digest, p.digest
                    )));
                }
            }
        }
        let items: Vec<&Prepared> = items.iter().collect();
        self.write_kept(|tx, kept| store_items(tx, kept, &items, sources, certificates, tournament, origin))
    }

    /// Counts over the whole archive, read from the counts kept at ingest (`kept.rs`).
    pub fn summary(&self) -> Result<Summary> {
        let c = self.db();
        let any = |game: &str, valid: i64| kept::List { player: 0, tournament: 0, game: game.to_owned(), valid };
        let mut s = Summary {
            games: kept::total(c, &any("", -1))?,
            valid: kept::total(c, &any("", 1))?,
            players: kept::kept_total(c, "players")?,
            tournaments: kept::kept_total(c, "tournaments")?,
            rounds: kept::kept_total(c, "rounds")?,
            ..Summary::default()
        };
        s.invalid = s.games.saturating_sub(s.valid);
        let mut per_game: Vec<(Option<String>, u64)> = c.rows(
            "SELECT game, n FROM list_counts
             WHERE player_id = 0 AND tournament_id = 0 AND valid = -1 AND block = -1 AND game <> '' AND n > 0",
            params![],
            |r| Ok((Some(r.get::<_, String>(0)?), r.get::<_, i64>(1)? as u64)),
        )?;
        // Entries whose header could not be read are in no kind's list.
        let unread = s.games.saturating_sub(per_game.iter().map(|(_, n)| n).sum());
        if unread > 0 {
            per_game.push((None, unread));
        }
        per_game.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        s.per_game = per_game;
        s.faults = c.rows("SELECT code, n FROM fault_counts WHERE n > 0 ORDER BY n DESC, code", params![], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))
        })?;
        Ok(s)
    }

    /// The game kinds present in the archive.
    pub fn game_kinds(&self) -> Result<Vec<String>> {
        // From one kind to the next in the index of logs by game: a step per kind, not a row per
        // game (`SELECT DISTINCT` read every game).
        self.db().rows(
            "WITH RECURSIVE kinds(game) AS (
                 SELECT MIN(game) FROM logs WHERE game IS NOT NULL
                 UNION ALL
                 SELECT (SELECT MIN(l.game) FROM logs l WHERE l.game > kinds.game) FROM kinds WHERE kinds.game IS NOT NULL
             )
             SELECT game FROM kinds WHERE game IS NOT NULL",
            params![],
            |r| r.get(0),
        )
    }

    /// One page of the games matching `filter`, newest first. `page` is 1-based (past the last
    /// page: the last page); `per_page` is clamped to 1..=500. See [`Archive::games_page`].
    pub fn list_games(&self, filter: &Filter, page: u32, per_page: u32) -> Result<GamePage> {
        self.games_page(filter, Cursor::Page(page), per_page)
    }

    /// One page of the games matching `filter`, newest first, starting at `cursor`; `per_page`
    /// is clamped to 1..=500. The page says where it is among all the matching games (`first`,
    /// `total`, `page`) and where the pages beside it start (`older`, `newer`). Its rows are read
    /// from the index where it starts, however deep; its counts are the counts kept at ingest
    /// (`kept.rs`): the list's total, and its games in the blocks before the page's, so that
    /// only the games of one block (or, for a player's games in one tournament, theirs newer
    /// than the page) are counted row by row. A filter by the time stored is counted.
    pub fn games_page(&self, filter: &Filter, cursor: Cursor, per_page: u32) -> Result<GamePage> {
        use db::Value;
        let c = self.db();
        let per_page = per_page.clamp(1, 500);
        let per = i64::from(per_page);
        let q = where_clause(filter);
        let (cond, values, key) = (&q.cond, &q.values, q.key);
        let listed = kept::Listed::of(c, filter)?;
        // Games matching the filter, counted row by row: those newer than `after` and older
        // than `before` (all without them).
        let count = |after: Option<i64>, before: Option<i64>| -> Result<u64> {
            let mut vals = values.clone();
            vals.extend(after.map(Value::Int));
            vals.extend(before.map(Value::Int));
            let newer = if after.is_some() { format!(" AND {key} > ?") } else { String::new() };
            let older = if before.is_some() { format!(" AND {key} < ?") } else { String::new() };
            let n: i64 =
                c.row(&format!("SELECT COUNT(*) FROM {} WHERE {cond}{newer}{older}", q.ids_from), vals, |r| r.get(0))?;
            Ok(n as u64)
        };
        let total = match &listed {
            kept::Listed::Kept(l) => kept::total(c, l)?,
            kept::Listed::Empty => 0,
            kept::Listed::Counted => count(None, None)?,
        };
        // Games matching the filter newer than game `id`.
        let newer_than = |id: i64| -> Result<u64> {
            match &listed {
                kept::Listed::Kept(l) => match (kept::in_later_blocks(c, l, id)?, l.block_end(id)) {
                    (Some(later), Some(end)) => Ok(later + count(Some(id), Some(end))?),
                    _ => count(Some(id), None),
                },
                kept::Listed::Empty => Ok(0),
                kept::Listed::Counted => count(Some(id), None),
            }
        };
        // The page that starts `offset` games from the newest: read from the block that holds
        // it, skipping only that block's newer games.
        let page_of = |offset: u64| -> Result<Vec<GameRow>> {
            if let kept::Listed::Kept(l) = &listed {
                if let Some((end, later)) = kept::locate(c, l, offset)? {
                    let mut vals = values.clone();
                    vals.extend([Value::Int(end), Value::Int(per), Value::Int((offset - later) as i64)]);
                    return self.game_rows(&q, true, false, &vals);
                }
            }
            let mut vals = values.clone();
            vals.extend([Value::Int(per), Value::Int(offset as i64)]);
            self.game_rows(&q, false, false, &vals)
        };
        // Where the oldest page starts.
        let oldest = total.saturating_sub(1) / u64::from(per_page) * u64::from(per_page);
        let (rows, first) = match cursor {
            Cursor::Page(n) => {
                let offset = (u64::from(n.max(1) - 1) * u64::from(per_page)).min(oldest);
                (page_of(offset)?, offset + 1)
            }
            Cursor::Newest => (page_of(0)?, 1),
            Cursor::After(id) | Cursor::Before(id) => {
                let newer = matches!(cursor, Cursor::Before(_));
                let mut vals = values.clone();
                vals.extend([Value::Int(id), Value::Int(per), Value::Int(0)]);
                let mut rows = self.game_rows(&q, true, newer, &vals)?;
                if newer {
                    rows.reverse();
                }
                match rows.first() {
                    // Fewer than a page newer: the newest page.
                    _ if newer && rows.len() < per_page as usize => (page_of(0)?, 1),
                    Some(r) => {
                        let first = newer_than(r.id)? + 1;
                        (rows, first)
                    }
                    // Nothing older (a cursor at the oldest game): the oldest page.
                    None => (page_of(oldest)?, oldest + 1),
                }
            }
        };
        let first = if rows.is_empty() { 0 } else { first };
        let last = first + rows.len() as u64;
        Ok(GamePage {
            older: rows.last().filter(|_| last <= total).map(|r| r.id),
            newer: rows.first().filter(|_| first > 1).map(|r| r.id),
            page: u32::try_from(first.max(1).div_ceil(u64::from(per_page))).unwrap_or(u32::MAX),
            rows,
            total,
            per_page,
            first,
        })
    }

    /// Every game matching `filter`, newest first, read in one pass (the command line's list).
    pub fn all_games(&self, filter: &Filter) -> Result<Vec<GameRow>> {
        let q = where_clause(filter);
        // No limit (PostgreSQL refuses SQLite's -1): the same statement as a page of `list_games`.
        let mut values = q.values.clone();
        values.push(db::Value::Int(i64::MAX));
        values.push(db::Value::Int(0));
        self.game_rows(&q, false, false, &values)
    }

    /// The rows of the games list of `q`, newest first (oldest first when `ascending`), past a
    /// cursor when `bounded` (newer than it when `ascending`, else older); `values` are the
    /// condition's parameters, then the cursor's game when bounded, then the LIMIT and OFFSET.
    fn game_rows(&self, q: &GamesQuery, bounded: bool, ascending: bool, values: &[db::Value]) -> Result<Vec<GameRow>> {
        let (order, bound) = if ascending { ("ASC", ">") } else { ("DESC", "<") };
        let (ids_from, key, cond) = (q.ids_from, q.key, &q.cond);
        let bound = if bounded { format!(" AND {key} {bound} ?") } else { String::new() };
        let db = self.db();
        // The page's games are found first and only then read whole: PostgreSQL computes the
        // select list (the players' names, a subquery) for every row an OFFSET skips, up to a
        // block of 1 024 (`/api/games?page=500`: 12.7 ms, 807 subqueries, for 50 rows).
        let rows = db.rows(
            &format!(
                "SELECT l.id, l.digest, l.game, l.ruleset, v.valid, v.fault_code, v.final_scores, v.rounds, l.added_at,
                        {}, v.excerpt
                 FROM (SELECT {key} AS page_id FROM {ids_from} WHERE {cond}{bound}
                       ORDER BY {key} {order} LIMIT ? OFFSET ?) page
                 JOIN logs l ON l.id = page.page_id JOIN verdicts v ON v.log_id = l.id
                 ORDER BY l.id {order}",
                seat_names(db)
            ),
            values,
            |r| {
                let scores: Option<String> = r.get(6)?;
                let players: Option<String> = r.get(9)?;
                Ok(GameRow {
                    id: r.get(0)?,
                    digest: r.get(1)?,
                    game: r.get(2)?,
                    ruleset: r.get(3)?,
                    valid: r.get::<_, i64>(4)? != 0,
                    fault_code: r.get(5)?,
                    final_scores: scores.and_then(|s| serde_json::from_str(&s).ok()),
                    rounds: r.get::<_, i64>(7)? as u32,
                    added_at: r.get(8)?,
                    players: players.map(|p| p.split('\u{1f}').map(str::to_owned).collect()).unwrap_or_default(),
                    excerpt: r.get(10)?,
                })
            },
        )?;
        Ok(rows)
    }

    /// The entries with this log digest (hex), as a certificate names a log: the one that counts
    /// first, then valid ones, then oldest first.
    pub fn entries_of_game(&self, digest: &str) -> Result<Vec<EntryRow>> {
        self.entry_rows("l.digest", digest)
    }

    /// The entries of the game with this game key (hex): the one that counts first, then valid
    /// ones, then oldest first.
    pub fn entries_of_game_key(&self, key: &str) -> Result<Vec<EntryRow>> {
        self.entry_rows("l.game_key", key)
    }

    /// The entries whose `column` (one of the two constants above) is `value`.
    fn entry_rows(&self, column: &'static str, value: &str) -> Result<Vec<EntryRow>> {
        let db = self.db();
        let seed = db.pick("json_extract(l.header_json, '$.seed')", "(l.header_json::json ->> 'seed')");
        db.rows(
            &format!(
                "SELECT l.id, l.identity, v.valid, v.fault_code, l.counted, {seed} IS NOT NULL, l.added_at, {}
                 FROM logs l JOIN verdicts v ON v.log_id = l.id WHERE {column} = ?1
                 ORDER BY l.counted DESC, v.valid DESC, l.id",
                counting::TRUST
            ),
            [value],
            |r| {
                Ok(EntryRow {
                    id: r.get(0)?,
                    identity: r.get(1)?,
                    valid: r.get::<_, i64>(2)? != 0,
                    fault_code: r.get(3)?,
                    counted: r.get::<_, i64>(4)? != 0,
                    seed_revealed: r.get::<_, i64>(5)? != 0,
                    added_at: r.get(6)?,
                    trust: r.get::<_, i64>(7)?.clamp(0, 2) as u8,
                })
            },
        )
    }

    /// Everything about one game, or `None` when there is no such id.
    pub fn game(&self, id: i64) -> Result<Option<GameDetail>> {
        let row = self.db().opt(
            "SELECT l.digest, l.digest_kind, l.game, l.ruleset, v.valid, v.fault_json, v.final_scores, l.records,
                        l.size, l.form, l.header_json, l.source, l.added_at, v.engine,
                        l.identity, l.counted, l.origin, l.token_id, t.name, v.excerpt, l.game_key, l.dropped
                 FROM logs l JOIN verdicts v ON v.log_id = l.id LEFT JOIN tokens t ON t.id = l.token_id
                 WHERE l.id = ?1",
            [id],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, Option<String>>(6)?,
                    r.get::<_, i64>(7)?,
                    r.get::<_, i64>(8)?,
                    r.get::<_, String>(9)?,
                    r.get::<_, Option<String>>(10)?,
                    r.get::<_, Option<String>>(11)?,
                    r.get::<_, i64>(12)?,
                    r.get::<_, String>(13)?,
                    (
                        r.get::<_, String>(14)?,
                        r.get::<_, i64>(15)? != 0,
                        StoredBy { origin: r.get(16)?, token: r.get(17)?, name: r.get(18)? },
                        r.get::<_, Option<String>>(19)?,
                        r.get::<_, String>(20)?,
                        r.get::<_, i64>(21)?,
                    ),
                ))
            },
        )?;
        let Some((
            digest,
            kind,
            game,
            ruleset,
            valid,
            fault,
            scores,
            records,
            size,
            form,
            header,
            source,
            added,
            engine,
            (identity, counted, stored_by, excerpt, game_key, dropped),
        )) = row
        else {
            return Ok(None);
        };
        Ok(Some(GameDetail {
            entries: self.entries_of_game_key(&game_key)?,
            game_key,
            dropped: dropped as u64,
            certificates: self.certificates(id)?,
            identity,
            counted,
            stored_by,
            id,
            digest,
            digest_kind: kind,
            game,
            ruleset,
            seats: self.seats(id)?,
            valid: valid != 0,
            fault: fault.map(|f| parse_json(&f, "fault")).transpose()?,
            final_scores: scores.map(|s| parse_json(&s, "final scores")).transpose()?,
            excerpt,
            records: records as u64,
            size: size as u64,
            form,
            header: header.map(|h| parse_json(&h, "header")).transpose()?,
            source,
            added_at: added,
            engine,
            tournaments: self.tournaments_of(id)?,
            rounds: self.rounds(id)?,
        }))
    }

    fn seats(&self, id: i64) -> Result<Vec<SeatRow>> {
        seats_of(self.db(), id)
    }

    fn tournaments_of(&self, id: i64) -> Result<Vec<String>> {
        self.db().rows(
            "SELECT t.name FROM tournament_games tg JOIN tournaments t ON t.id = tg.tournament_id
             WHERE tg.log_id = ?1 ORDER BY t.name",
            [id],
            |r| r.get(0),
        )
    }

    /// A game's round results, in order.
    pub fn rounds(&self, id: i64) -> Result<Vec<RoundResult>> {
        rounds_of(self.db(), id)
    }

    /// The stored bytes of a game and their form (`binary`: the binary encoding of the decoded
    /// log; `raw`: the bytes as given, which could not be decoded).
    pub fn log_bytes(&self, id: i64) -> Result<Option<(Vec<u8>, StoredForm)>> {
        let row = self.db().opt("SELECT bytes, form FROM logs WHERE id = ?1", [id], |r| {
            Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, String>(1)?))
        })?;
        Ok(row.map(|(b, f)| (b, if f == "binary" { StoredForm::Binary } else { StoredForm::Raw })))
    }

    /// Players, most games first; `search` keeps the names that begin with it, compared
    /// case-folded (Unicode: `é` finds `Émile`, `strasse` finds `Straße`), read from an index of
    /// the folded names however many players there are.
    pub fn players(&self, search: Option<&str>, limit: u32, offset: u32) -> Result<Vec<PlayerRow>> {
        let row = |r: &db::Row<'_>| Ok(PlayerRow { name: r.get(0)?, games: r.get::<_, i64>(1)? as u64 });
        let (limit, offset) = (i64::from(limit), i64::from(offset));
        let db = self.db();
        match search.map(aggregates::fold_name) {
            None => db.rows(
                "SELECT name, games FROM players ORDER BY games DESC, name LIMIT ?1 OFFSET ?2",
                params![limit, offset],
                row,
            ),
            Some(folded) => match aggregates::prefix_end(&folded) {
                Some(end) => db.rows(
                    "SELECT name, games FROM players WHERE folded >= ?1 AND folded < ?2
                     ORDER BY games DESC, name LIMIT ?3 OFFSET ?4",
                    params![folded, end, limit, offset],
                    row,
                ),
                // A prefix with no end (its characters all the last one): no upper bound.
                None => db.rows(
                    "SELECT name, games FROM players WHERE folded >= ?1
                     ORDER BY games DESC, name LIMIT ?2 OFFSET ?3",
                    params![folded, limit, offset],
                    row,
                ),
            },
        }
    }

    /// One player by exact name.
    pub fn player(&self, name: &str) -> Result<Option<PlayerRow>> {
        self.db().opt("SELECT p.name, p.games FROM players p WHERE p.name = ?1", [name], |r| {
            Ok(PlayerRow { name: r.get(0)?, games: r.get::<_, i64>(1)? as u64 })
        })
    }

    /// Calls `f` with every game matching `filter` that counts (valid, and the one entry of its
    /// game that counts), oldest first, reading in chunks so that memory stays flat however many
    /// games there are.
    pub fn for_each_game(&self, filter: &Filter, mut f: impl FnMut(Played)) -> Result<u64> {
        counted_games(self.db(), filter, |g| {
            f(g);
            Ok(())
        })
    }

    /// A player's statistics per game kind (the analyzer's sums over the games of theirs that
    /// count), read from the aggregates kept at ingest: what adding every such game up gives, in
    /// one row per game kind.
    pub fn player_stats(&self, name: &str) -> Result<BTreeMap<String, paifu_analyzer::Block>> {
        aggregates::player_stats(self.db(), name)
    }

    /// The latest certificate of entry `id` signed by `signer` (hex public key), if one was
    /// stored.
    pub fn certificate(&self, id: i64, signer: &str) -> Result<Option<String>> {
        self.db().opt(
            "SELECT json FROM certificates WHERE log_id = ?1 AND signer = ?2 ORDER BY id DESC LIMIT 1",
            params![id, signer],
            |r| r.get(0),
        )
    }

    /// Every certificate of entry `id`, oldest first.
    pub fn certificates(&self, id: i64) -> Result<Vec<CertificateRow>> {
        self.db().rows(
            "SELECT id, signer, issued_at, valid, json FROM certificates WHERE log_id = ?1 ORDER BY id",
            [id],
            |r| {
                Ok(CertificateRow {
                    id: r.get(0)?,
                    signer: r.get(1)?,
                    issued_at: r.get(2)?,
                    valid: r.get::<_, i64>(3)? != 0,
                    json: r.get(4)?,
                })
            },
        )
    }

    /// Adds a certificate of entry `id` to its history (certificates are never replaced);
    /// answers the certificate's number. The game is recounted: a certificate may make the entry
    /// the most trusted of its game, or one its tournaments' standings count.
    pub fn add_certificate(&mut self, id: i64, c: &Certificate) -> Result<i64> {
        self.write_kept(|tx, kept| {
            let n = insert_certificate(tx, id, c)?;
            kept.certified(tx, id)?;
            if let Some(key) = counting::key_of(tx, id)? {
                counting::recount_entry(tx, id, &key, kept)?;
            }
            Ok(n)
        })
    }
}

/// The names at a game's seats (`l`), in order, joined by U+001F (as SQL in a list's query).
fn seat_names(db: Db<'_>) -> &'static str {
    db.pick(
        "(SELECT group_concat(name, char(31)) FROM (SELECT p.name AS name FROM seats s
            JOIN players p ON p.id = s.player_id WHERE s.log_id = l.id ORDER BY s.seat))",
        "(SELECT string_agg(p.name, chr(31) ORDER BY s.seat) FROM seats s
            JOIN players p ON p.id = s.player_id WHERE s.log_id = l.id)",
    )
}

fn seats_of(conn: Db<'_>, id: i64) -> Result<Vec<SeatRow>> {
    conn.rows(
        "SELECT s.seat, p.name, s.final_score, s.placement FROM seats s JOIN players p ON p.id = s.player_id
         WHERE s.log_id = ?1 ORDER BY s.seat",
        [id],
        |r| {
            Ok(SeatRow {
                seat: r.get::<_, i64>(0)? as u8,
                player: r.get(1)?,
                final_score: r.get(2)?,
                placement: r.get::<_, Option<i64>>(3)?.map(|p| p as u32),
            })
        },
    )
}

fn rounds_of(conn: Db<'_>, id: i64) -> Result<Vec<RoundResult>> {
    let raw =
        conn.rows("SELECT round, deltas, summary, facts FROM rounds WHERE log_id = ?1 ORDER BY round", [id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)?))
        })?;
    raw.into_iter()
        .map(|(round, deltas, summary, facts)| {
            Ok(RoundResult {
                round: round as u32,
                deltas: parse_json(&deltas, "round deltas")?,
                summary,
                facts: parse_json(&facts, "round facts")?,
            })
        })
        .collect()
}

/// Calls `f` with every game matching `filter` that counts (valid, and the one entry of its game
/// that counts), oldest first, reading in chunks so that memory stays flat; answers how many.
fn counted_games(conn: Db<'_>, filter: &Filter, mut f: impl FnMut(Played) -> Result<()>) -> Result<u64> {
    let GamesQuery { from, key, cond, values, .. } =
        where_clause_of(&Filter { valid: Some(true), ..filter.clone() }, InTournament::Games);
    let mut after = 0i64;
    let mut count = 0u64;
    let ids = format!(
        "SELECT l.id, l.game FROM {from}
         WHERE {cond} AND l.counted = 1 AND l.game IS NOT NULL AND {key} > ? ORDER BY {key} LIMIT 512"
    );
    loop {
        let mut vals = values.clone();
        vals.push(db::Value::Int(after));
        let chunk: Vec<(i64, String)> = conn.rows(&ids, vals, |r| Ok((r.get(0)?, r.get(1)?)))?;
        let Some(last) = chunk.last() else { break };
        after = last.0;
        for (id, name) in chunk {
            let game = GameKind::from_name(&name)
                .ok_or_else(|| ArchiveError::Corrupt(format!("game {id} is a valid game of unknown kind {name:?}")))?;
            f(played_from_rows(conn, id, game)?)?;
            count += 1;
        }
    }
    Ok(count)
}

/// Runs a statement kept prepared on the connection: a bulk ingest runs the same few statements
/// for every log, and parsing them each time was a sixth of its time.
fn exec<P: db::Params>(c: Db<'_>, sql: &str, p: P) -> Result<usize> {
    c.exec(sql, p)
}

/// One row of a statement kept prepared on the connection (see [`exec`]).
fn row<T, P: db::Params>(c: Db<'_>, sql: &str, p: P, f: impl FnOnce(&db::Row<'_>) -> Result<T>) -> Result<T> {
    c.row(sql, p, f)
}

/// Adds a certificate to entry `id`'s history; answers its number. A certificate of another
/// log (its `log_digest` is not the entry's digest) is refused: it would count toward the
/// entry's trust.
fn insert_certificate(tx: Db<'_>, id: i64, c: &Certificate) -> Result<i64> {
    let digest: Option<String> = tx.opt("SELECT digest FROM logs WHERE id = ?1", [id], |r| r.get(0))?;
    let digest = digest.ok_or_else(|| ArchiveError::Corrupt(format!("there is no entry {id} to certify")))?;
    if digest != c.certificate.log_digest.to_hex() {
        return Err(ArchiveError::Corrupt(format!(
            "entry {id}: the certificate names the log {}, not this entry's log {digest}",
            c.certificate.log_digest
        )));
    }
    row(
        tx,
        "INSERT INTO certificates(log_id, signer, issued_at, valid, json) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
        params![
            id,
            c.certificate.signer.to_hex(),
            c.certificate.issued_at,
            i64::from(c.certificate.verdict == "valid"),
            c.to_json()
        ],
        |r| r.get(0),
    )
}

/// The player named `name`, made if the archive has none: a new name must pass
/// [`names::check_new_name`] and may not read as one the archive holds ([`names::skeleton`]).
/// A refusal is [`ArchiveError::Refused`] (the batch's index is set by the caller).
fn player_id(tx: Db<'_>, seat: usize, name: &str) -> Result<i64> {
    if let Some(id) = tx.opt("SELECT id FROM players WHERE name = ?1", [name], |r| r.get(0))? {
        return Ok(id);
    }
    if let Some(error) = new_name_refusal(tx, NameKind::Player, name)? {
        return Err(ArchiveError::Refused { index: 0, refusal: Box::new(Refusal::PlayerName { seat, error }) });
    }
    row(
        tx,
        "INSERT INTO players(name, folded, skeleton) VALUES (?1, ?2, ?3) RETURNING id",
        params![name, aggregates::fold_name(name), names::skeleton(name)],
        |r| r.get(0),
    )
}

/// Why the archive would refuse `name` as a new player's or tournament's name, if it would
/// (`None`: it holds the name already, or would take it): the checks every name passes, then
/// a lookalike of a name it holds ([`names::skeleton`]; one with an invisible character names
/// the one it passes for), then [`names::check_new_name`]. Reads only.
pub(crate) fn new_name_refusal(c: Db<'_>, kind: NameKind, name: &str) -> Result<Option<NameError>> {
    let table = match kind {
        NameKind::Player => "players",
        NameKind::Tournament => "tournaments",
        NameKind::Token => return Ok(names::check_new_name(kind, name).err()),
    };
    let held = format!("SELECT 1 FROM {table} WHERE name = ?1");
    if c.opt(&held, [name], |_| Ok(()))?.is_some() {
        return Ok(None);
    }
    if let Err(e) = check_name(kind, name) {
        return Ok(Some(e));
    }
    let like = format!("SELECT name FROM {table} WHERE skeleton = ?1 ORDER BY id LIMIT 1");
    if let Some(existing) = c.opt(&like, [names::skeleton(name)], |r| r.get(0))? {
        return Ok(Some(NameError::Confusable { kind, existing }));
    }
    Ok(names::check_new_name(kind, name).err())
}

/// The body of [`Archive::store_batch_certified`]'s transaction, its checks made: each item
/// stored (`store_one`) and the players' aggregates written. Also run by a worker's job
/// (`jobs.rs`) inside the transaction that marks the job done.
fn store_items(
    tx: Db<'_>,
    kept: &mut kept::Kept,
    items: &[&Prepared],
    sources: &[Option<&str>],
    certificates: &[Option<&Certificate>],
    tournament: Option<&str>,
    origin: Origin,
) -> Result<Vec<Stored>> {
    let tid = match tournament {
        Some(name) => Some(tournaments::ensure(tx, name, None, &[])?.0),
        None => None,
    };
    let mut out = Vec::with_capacity(items.len());
    let mut pending = aggregates::Pending::default();
    for (i, p) in items.iter().enumerate() {
        let item = Item {
            p,
            source: sources.get(i).copied().flatten(),
            certificate: certificates.get(i).copied().flatten(),
            tournament: tid,
            origin,
        };
        let stored = store_one(tx, &item, &mut pending, kept).map_err(|e| match e {
            ArchiveError::Refused { refusal, .. } => ArchiveError::Refused { index: i, refusal },
            e => e,
        })?;
        out.push(stored);
    }
    pending.write(tx)?;
    Ok(out)
}

/// One log to store, with what goes with it.
struct Item<'a> {
    p: &'a Prepared,
    source: Option<&'a str>,
    certificate: Option<&'a Certificate>,
    /// The tournament to put it in.
    tournament: Option<i64>,
    origin: Origin,
}

fn store_one(tx: Db<'_>, item: &Item<'_>, pending: &mut aggregates::Pending, kept: &mut kept::Kept) -> Result<Stored> {
    let p = item.p;
    let digest = p.digest.to_hex();
    let identity = p.identity.to_hex();
    let key = p.game_key.to_hex();
    let existing = tx.opt(
        "SELECT l.id, v.valid, v.fault_json FROM logs l JOIN verdicts v ON v.log_id = l.id WHERE l.identity = ?1",
        [&identity],
        |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)? != 0, r.get::<_, Option<String>>(2)?)),
    )?;
    // What the kept lists know of a new entry (read again for one stored before).
    let mut facts = None;
    let (id, new, new_game, valid, fault) = match existing {
        // This very log is stored already: nothing about it changes (but a certificate its
        // writer never stored, and its place in the tournament).
        Some((id, valid, fault_json)) => {
            let fault = fault_json.filter(|_| !valid).map(|f| parse_json(&f, "fault")).transpose()?;
            (id, false, false, valid, fault)
        }
        None => {
            let f = insert_entry(tx, p, &key, item, pending, kept)?;
            let (id, new_game) = (f.id, f.lead);
            facts = Some(f);
            (id, true, new_game, p.verdict.is_valid(), p.verdict.fault().cloned())
        }
    };
    let mut certified_now = false;
    if let Some(c) = item.certificate {
        let signer = c.certificate.signer.to_hex();
        let has: bool = row(
            tx,
            "SELECT EXISTS (SELECT 1 FROM certificates WHERE log_id = ?1 AND signer = ?2)",
            params![id, signer],
            |r| r.get(0),
        )?;
        if !has {
            insert_certificate(tx, id, c)?;
            certified_now = true;
            if !new {
                kept.certified(tx, id)?;
            }
        }
    }
    let added_to_tournament = match item.tournament {
        Some(t) => {
            let added = exec(
                tx,
                "INSERT INTO tournament_games(tournament_id, log_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
                params![t, id],
            )? == 1;
            if added {
                let f = match facts.take() {
                    Some(f) => f,
                    None => kept::Facts::read(tx, id)?,
                };
                kept.joined(&f, t);
            }
            added
        }
        None => false,
    };
    if new || certified_now || added_to_tournament {
        let recounted = match new_game {
            // The game's only entry, stored counted when it may and leading (`insert_entry`):
            // nothing to weigh it against but in its tournament.
            true => {
                if let Some(t) = item.tournament {
                    counting::recount_in_tournament(tx, t, &key, kept)?;
                }
                let eligible = valid && p.verdict.outcome().is_some_and(|o| o.excerpt.is_none());
                counting::Recounted { before: None, now: eligible.then_some(id) }
            }
            false => counting::recount_entry(tx, id, &key, kept)?,
        };
        // The game's first counted entry: its statistics are added. (A takeover changes no
        // statistic: valid entries of one game replay alike.)
        if let (None, Some(now)) = (recounted.before, recounted.now) {
            match (now == id && new, p.verdict.outcome(), p.header.as_ref()) {
                (true, Some(o), Some(h)) => {
                    if let Some(game) = GameKind::from_name(&h.game) {
                        pending.counted(&Played {
                            game,
                            players: h.seats.clone(),
                            final_scores: (0..h.seats.len())
                                .map(|s| o.final_scores.get(s).copied().unwrap_or(0))
                                .collect(),
                            placements: (0..h.seats.len()).map(|s| o.placements.get(s).copied().unwrap_or(0)).collect(),
                            rounds: o.rounds.clone(),
                        });
                    }
                }
                _ => {
                    if let Some(g) = played_of(tx, now)? {
                        pending.counted(&g);
                    }
                }
            }
        }
    }
    let (counted, others): (bool, i64) = match new_game {
        true => (valid && p.verdict.outcome().is_some_and(|o| o.excerpt.is_none()), 0),
        false => row(
            tx,
            "SELECT (SELECT counted FROM logs WHERE id = ?1), (SELECT COUNT(*) FROM logs WHERE game_key = ?2 AND id <> ?1)",
            params![id, key],
            |r| Ok((r.get::<_, i64>(0)? != 0, r.get(1)?)),
        )?,
    };
    Ok(Stored {
        id,
        new,
        valid,
        digest,
        game: key,
        identity,
        fault,
        counted,
        others: others as u64,
        added_to_tournament,
        certified_now,
    })
}

/// A new entry: its log, verdict, seats and rounds. The first entry of a game counts when it
/// may (valid, not an excerpt) and leads; an entry of a game stored already is counted by the
/// caller (`counting.rs`). Answers what the kept lists know of it: its number, and whether it
/// leads (its game is new).
fn insert_entry(
    tx: Db<'_>,
    p: &Prepared,
    key: &str,
    item: &Item<'_>,
    pending: &mut aggregates::Pending,
    kept: &mut kept::Kept,
) -> Result<kept::Facts> {
    // A game the archive did not have: one more game for each of its players.
    let new_game: bool = !row(tx, "SELECT EXISTS (SELECT 1 FROM logs WHERE game_key = ?1)", [key], |r| r.get(0))?;
    let valid = p.verdict.is_valid();
    let excerpt = p.verdict.outcome().and_then(|o| o.excerpt.as_ref()).map(|e| e.to_string());
    // The players first: a refused name stores nothing.
    let players = match &p.header {
        Some(h) => {
            h.seats.iter().enumerate().map(|(seat, name)| player_id(tx, seat, name)).collect::<Result<Vec<_>>>()?
        }
        None => Vec::new(),
    };
    let id: i64 = row(
        tx,
        "INSERT INTO logs(identity, digest, digest_kind, game_key, game, ruleset, seat_count, form, bytes, size,
                          records, dropped, header_json, source, added_at, counted, lead, origin, token_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?18, ?19, ?16, ?17) RETURNING id",
        params![
            p.identity.to_hex(),
            p.digest.to_hex(),
            p.digest_kind.as_str(),
            key,
            p.header.as_ref().map(|h| h.game.as_str()),
            p.header.as_ref().map(|h| h.ruleset.as_str()),
            p.header.as_ref().map_or(0, |h| h.seats.len() as i64),
            p.form.as_str(),
            p.stored,
            p.size as i64,
            p.records as i64,
            p.dropped as i64,
            p.header.as_ref().map(json),
            item.source,
            now(),
            item.origin.as_str(),
            item.origin.token(),
            i64::from(new_game && valid && excerpt.is_none()),
            i64::from(new_game),
        ],
        |r| r.get(0),
    )?;
    let fault = p.verdict.fault();
    let outcome = p.verdict.outcome();
    let final_scores = outcome.map(|o| o.final_scores.clone());
    exec(
        tx,
        "INSERT INTO verdicts(log_id, valid, fault_code, fault_index, fault_message, fault_json, final_scores, rounds,
                              engine, checked_at, excerpt)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        params![
            id,
            i64::from(valid),
            fault.map(|f| f.code.as_str()),
            fault.and_then(|f| f.index).map(|i| i as i64),
            fault.map(|f| f.message.as_str()),
            fault.map(json),
            final_scores.as_ref().map(json),
            outcome.map_or(0, |o| o.rounds.len() as i64),
            paifu_core::ENGINE,
            now(),
            excerpt,
        ],
    )?;
    let places = outcome.map(|o| &o.placements);
    for (seat, pid) in players.iter().enumerate() {
        exec(
            tx,
            "INSERT INTO seats(log_id, seat, player_id, final_score, placement) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                id,
                seat as i64,
                pid,
                final_scores.as_ref().and_then(|s| s.get(seat)),
                places.as_ref().and_then(|p| p.get(seat)).map(|&p| i64::from(p)),
            ],
        )?;
    }
    if let Some(o) = outcome {
        // Up to 32 rounds to a statement: one round trip to PostgreSQL for a whole game.
        for chunk in o.rounds.chunks(32) {
            let values = (0..chunk.len())
                .map(|i| format!("(?1, ?{}, ?{}, ?{}, ?{})", 4 * i + 2, 4 * i + 3, 4 * i + 4, 4 * i + 5))
                .collect::<Vec<_>>()
                .join(", ");
            let mut p = params![id];
            for r in chunk {
                p.extend(params![i64::from(r.round), json(&r.deltas), r.summary, json(&r.facts)]);
            }
            exec(tx, &format!("INSERT INTO rounds(log_id, round, deltas, summary, facts) VALUES {values}"), p)?;
        }
    }
    if let (Some(h), true) = (&p.header, new_game) {
        pending.entry(&h.seats);
    }
    let mut distinct = players;
    distinct.sort_unstable();
    distinct.dedup();
    let facts = kept::Facts {
        id,
        game: p.header.as_ref().map(|h| h.game.clone()),
        valid,
        lead: new_game,
        players: distinct,
        tournaments: Vec::new(),
    };
    kept.entry(&facts, outcome.map_or(0, |o| o.rounds.len() as i64), fault.map(|f| f.code.as_str()));
    Ok(facts)
}

/// A stored valid game as the statistics read it (see `counted_games`); `None` for an entry
/// of a kind this build does not know.
fn played_of(conn: Db<'_>, id: i64) -> Result<Option<Played>> {
    let name: Option<String> = row(conn, "SELECT game FROM logs WHERE id = ?1", [id], |r| r.get(0))?;
    match name.as_deref().and_then(GameKind::from_name) {
        Some(game) => Ok(Some(played_from_rows(conn, id, game)?)),
        None => Ok(None),
    }
}

/// Entry `id`, a game of kind `game`, read back from its seats and rounds.
fn played_from_rows(conn: Db<'_>, id: i64, game: GameKind) -> Result<Played> {
    let seats = seats_of(conn, id)?;
    Ok(Played {
        game,
        players: seats.iter().map(|s| s.player.clone()).collect(),
        final_scores: seats.iter().map(|s| s.final_score.unwrap_or(0)).collect(),
        placements: seats.iter().map(|s| s.placement.unwrap_or(0)).collect(),
        rounds: rounds_of(conn, id)?,
    })
}

#[cfg(test)]
mod tests;
