//! The archive: every log Paifu was given, with its verdict, certificates, players, seats,
//! rounds and tournaments, in one SQLite file (WAL mode, migrated by `PRAGMA user_version`).
//!
//! Logs are stored in the binary encoding (decoded, then re-encoded), keyed by their digest, so
//! the same game ingested twice, in either encoding, is stored once. Bytes that cannot be decoded
//! at all are kept as they came, keyed by the blake3 of the bytes, with the fault: nothing given
//! to the archive is dropped.
//!
//! Every query binds its inputs as parameters; no SQL text is ever built from input.

mod prepare;
mod schema;

pub use prepare::{prepare, DigestKind, Prepared, StoredForm};
pub use schema::SCHEMA_VERSION;

use paifu_core::replay::Played;
use paifu_core::{ErrorCode, Fault, GameKind, RoundResult};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use std::path::Path;

/// The archive could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the database {path} was written by a newer Paifu (schema {found}; this one knows up to {known})")]
    TooNew { path: String, found: i64, known: i64 },
    #[error("the archive holds damaged data: {0}")]
    Corrupt(String),
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

/// What storing one log did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stored {
    /// The log's id in the archive.
    pub id: i64,
    /// False when the archive already held this log (it is stored once).
    pub new: bool,
    pub valid: bool,
    /// The digest the log is stored under (hex).
    pub digest: String,
    pub fault: Option<Fault>,
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
}

/// A page of the games list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GamePage {
    pub rows: Vec<GameRow>,
    /// Games matching the filter in all.
    pub total: u64,
    pub page: u32,
    pub per_page: u32,
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
    pub digest: String,
    /// `log` (the log digest) or `bytes` (blake3 of bytes that could not be decoded).
    pub digest_kind: String,
    pub game: Option<String>,
    pub ruleset: Option<String>,
    pub seats: Vec<SeatRow>,
    pub valid: bool,
    pub fault: Option<Fault>,
    pub final_scores: Option<Vec<i64>>,
    pub records: u64,
    pub size: u64,
    /// `binary` or `raw`.
    pub form: String,
    pub header: Option<serde_json::Value>,
    pub source: Option<String>,
    pub added_at: i64,
    pub engine: String,
    pub tournaments: Vec<String>,
    pub rounds: Vec<RoundResult>,
}

/// A player and how many games the archive holds with them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerRow {
    pub name: String,
    pub games: u64,
}

/// A tournament and its size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TournamentRow {
    pub name: String,
    pub games: u64,
    pub valid: u64,
}

/// One player's line in a tournament's standings (valid games only).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub rank: u32,
    pub player: String,
    pub games: u64,
    /// First places (shared firsts count).
    pub firsts: u64,
    pub average_placement: f64,
    /// Sum of final scores.
    pub total_score: i64,
}

/// The SQLite archive.
pub struct Archive {
    conn: Connection,
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

fn parse_json<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|e| ArchiveError::Corrupt(format!("{what}: {e}")))
}

/// The WHERE clause of a games query over `logs l JOIN verdicts v`, with its parameters in
/// order. The SQL text is made only of the constant fragments below, one per filter present
/// (so that SQLite can drive each query from the right index); every value is a bound
/// parameter.
fn where_clause(filter: &Filter) -> (String, Vec<rusqlite::types::Value>) {
    use rusqlite::types::Value;
    let mut parts: Vec<&str> = vec!["1 = 1"];
    let mut values: Vec<Value> = Vec::new();
    if let Some(g) = &filter.game {
        parts.push("l.game = ?");
        values.push(Value::Text(g.clone()));
    }
    if let Some(p) = &filter.player {
        parts
            .push("l.id IN (SELECT s.log_id FROM seats s WHERE s.player_id = (SELECT id FROM players WHERE name = ?))");
        values.push(Value::Text(p.clone()));
    }
    if let Some(t) = &filter.tournament {
        parts.push(
            "l.id IN (SELECT tg.log_id FROM tournament_games tg
                      WHERE tg.tournament_id = (SELECT id FROM tournaments WHERE name = ?))",
        );
        values.push(Value::Text(t.clone()));
    }
    if let Some(v) = filter.valid {
        parts.push("v.valid = ?");
        values.push(Value::Integer(i64::from(v)));
    }
    if let Some(t) = filter.since {
        parts.push("l.added_at >= ?");
        values.push(Value::Integer(t));
    }
    (parts.join(" AND "), values)
}

impl Archive {
    /// Opens (creating if needed) the archive at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Archive> {
        let conn = Connection::open(path)?;
        Archive::setup(conn, &path.display().to_string())
    }

    /// A private archive in memory (tests, one-off analysis).
    pub fn open_in_memory() -> Result<Archive> {
        Archive::setup(Connection::open_in_memory()?, ":memory:")
    }

    fn setup(conn: Connection, name: &str) -> Result<Archive> {
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // WAL: readers (the web server) never wait for a writer (an ingest) and vice versa.
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")?;
        let mut a = Archive { conn };
        schema::migrate(&mut a.conn, name)?;
        Ok(a)
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self.conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    /// Validates and stores one log (see [`prepare`] and [`Archive::store`]).
    pub fn ingest_bytes(&mut self, bytes: &[u8], source: Option<&str>, tournament: Option<&str>) -> Result<Stored> {
        let p = prepare(bytes);
        self.store(&p, source, tournament)
    }

    /// Stores one prepared log in its own transaction; committed when this returns `Ok`.
    pub fn store(&mut self, p: &Prepared, source: Option<&str>, tournament: Option<&str>) -> Result<Stored> {
        let mut out = self.store_batch(std::slice::from_ref(p), &[source], tournament)?;
        out.pop().ok_or_else(|| ArchiveError::Corrupt("nothing stored".into()))
    }

    /// Stores several prepared logs in one transaction (faster for bulk ingest); all are
    /// committed when this returns `Ok`, none if it fails. `sources[i]` names where `items[i]`
    /// came from (missing entries mean unknown).
    pub fn store_batch(
        &mut self,
        items: &[Prepared],
        sources: &[Option<&str>],
        tournament: Option<&str>,
    ) -> Result<Vec<Stored>> {
        let tx = self.conn.transaction()?;
        let tid: Option<i64> = match tournament {
            Some(name) => {
                tx.execute(
                    "INSERT INTO tournaments(name, created_at) VALUES (?1, ?2) ON CONFLICT(name) DO NOTHING",
                    params![name, now()],
                )?;
                Some(tx.query_row("SELECT id FROM tournaments WHERE name = ?1", [name], |r| r.get(0))?)
            }
            None => None,
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, p) in items.iter().enumerate() {
            let source = sources.get(i).copied().flatten();
            let stored = store_one(&tx, p, source)?;
            if let Some(t) = tid {
                tx.execute(
                    "INSERT OR IGNORE INTO tournament_games(tournament_id, log_id) VALUES (?1, ?2)",
                    params![t, stored.id],
                )?;
            }
            out.push(stored);
        }
        tx.commit()?;
        Ok(out)
    }

    /// Counts over the whole archive.
    pub fn summary(&self) -> Result<Summary> {
        let c = &self.conn;
        let one = |sql: &str| -> Result<u64> { Ok(c.query_row(sql, [], |r| r.get::<_, i64>(0))? as u64) };
        let mut s = Summary {
            games: one("SELECT COUNT(*) FROM logs")?,
            valid: one("SELECT COUNT(*) FROM verdicts WHERE valid = 1")?,
            players: one("SELECT COUNT(*) FROM players")?,
            tournaments: one("SELECT COUNT(*) FROM tournaments")?,
            rounds: one("SELECT COALESCE(SUM(rounds), 0) FROM verdicts")?,
            ..Summary::default()
        };
        s.invalid = s.games - s.valid;
        let mut st = c.prepare("SELECT game, COUNT(*) AS n FROM logs GROUP BY game ORDER BY n DESC, game")?;
        s.per_game = st
            .query_map([], |r| Ok((r.get::<_, Option<String>>(0)?, r.get::<_, i64>(1)? as u64)))?
            .collect::<std::result::Result<_, _>>()?;
        let mut st = c.prepare(
            "SELECT fault_code, COUNT(*) AS n FROM verdicts WHERE valid = 0 GROUP BY fault_code ORDER BY n DESC, fault_code",
        )?;
        s.faults = st
            .query_map([], |r| Ok((r.get::<_, Option<String>>(0)?.unwrap_or_default(), r.get::<_, i64>(1)? as u64)))?
            .collect::<std::result::Result<_, _>>()?;
        Ok(s)
    }

    /// The game kinds present in the archive.
    pub fn game_kinds(&self) -> Result<Vec<String>> {
        let mut st = self.conn.prepare("SELECT DISTINCT game FROM logs WHERE game IS NOT NULL ORDER BY game")?;
        let v = st.query_map([], |r| r.get(0))?.collect::<std::result::Result<_, _>>()?;
        Ok(v)
    }

    /// One page of the games matching `filter`, newest first. `page` is 1-based; `per_page` is
    /// clamped to 1..=500.
    pub fn list_games(&self, filter: &Filter, page: u32, per_page: u32) -> Result<GamePage> {
        let per_page = per_page.clamp(1, 500);
        let page = page.max(1);
        let (cond, mut values) = where_clause(filter);
        let total: i64 = self
            .conn
            .prepare_cached(&format!("SELECT COUNT(*) FROM logs l JOIN verdicts v ON v.log_id = l.id WHERE {cond}"))?
            .query_row(rusqlite::params_from_iter(values.iter()), |r| r.get(0))?;
        let offset = i64::from(page - 1) * i64::from(per_page);
        values.push(rusqlite::types::Value::Integer(i64::from(per_page)));
        values.push(rusqlite::types::Value::Integer(offset));
        let rows = self.game_rows(&cond, &values)?;
        Ok(GamePage { rows, total: total as u64, page, per_page })
    }

    /// Every game matching `filter`, newest first, read in one pass (the command line's list).
    pub fn all_games(&self, filter: &Filter) -> Result<Vec<GameRow>> {
        let (cond, mut values) = where_clause(filter);
        // SQLite reads a negative LIMIT as none: the same statement as a page of `list_games`.
        values.push(rusqlite::types::Value::Integer(-1));
        values.push(rusqlite::types::Value::Integer(0));
        self.game_rows(&cond, &values)
    }

    /// The rows of the games list: `cond` from [`where_clause`], `values` its parameters and then
    /// the LIMIT and OFFSET.
    fn game_rows(&self, cond: &str, values: &[rusqlite::types::Value]) -> Result<Vec<GameRow>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT l.id, l.digest, l.game, l.ruleset, v.valid, v.fault_code, v.final_scores, v.rounds, l.added_at,
                    (SELECT group_concat(name, char(31)) FROM (SELECT p.name AS name FROM seats s
                        JOIN players p ON p.id = s.player_id WHERE s.log_id = l.id ORDER BY s.seat))
             FROM logs l JOIN verdicts v ON v.log_id = l.id WHERE {cond}
             ORDER BY l.id DESC LIMIT ? OFFSET ?"
        ))?;
        let rows = st
            .query_map(rusqlite::params_from_iter(values.iter()), |r| {
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
                })
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// A game's id from its digest (hex).
    pub fn id_of_digest(&self, digest: &str) -> Result<Option<i64>> {
        Ok(self.conn.query_row("SELECT id FROM logs WHERE digest = ?1", [digest], |r| r.get(0)).optional()?)
    }

    /// Everything about one game, or `None` when there is no such id.
    pub fn game(&self, id: i64) -> Result<Option<GameDetail>> {
        let row = self
            .conn
            .query_row(
                "SELECT l.digest, l.digest_kind, l.game, l.ruleset, v.valid, v.fault_json, v.final_scores, l.records,
                        l.size, l.form, l.header_json, l.source, l.added_at, v.engine
                 FROM logs l JOIN verdicts v ON v.log_id = l.id WHERE l.id = ?1",
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
                    ))
                },
            )
            .optional()?;
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
        )) = row
        else {
            return Ok(None);
        };
        Ok(Some(GameDetail {
            id,
            digest,
            digest_kind: kind,
            game,
            ruleset,
            seats: self.seats(id)?,
            valid: valid != 0,
            fault: fault.map(|f| parse_json(&f, "fault")).transpose()?,
            final_scores: scores.map(|s| parse_json(&s, "final scores")).transpose()?,
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
        let mut st = self.conn.prepare_cached(
            "SELECT s.seat, p.name, s.final_score, s.placement FROM seats s JOIN players p ON p.id = s.player_id
             WHERE s.log_id = ?1 ORDER BY s.seat",
        )?;
        let v = st
            .query_map([id], |r| {
                Ok(SeatRow {
                    seat: r.get::<_, i64>(0)? as u8,
                    player: r.get(1)?,
                    final_score: r.get(2)?,
                    placement: r.get::<_, Option<i64>>(3)?.map(|p| p as u32),
                })
            })?
            .collect::<std::result::Result<_, _>>()?;
        Ok(v)
    }

    fn tournaments_of(&self, id: i64) -> Result<Vec<String>> {
        let mut st = self.conn.prepare_cached(
            "SELECT t.name FROM tournament_games tg JOIN tournaments t ON t.id = tg.tournament_id
             WHERE tg.log_id = ?1 ORDER BY t.name",
        )?;
        let v = st.query_map([id], |r| r.get(0))?.collect::<std::result::Result<_, _>>()?;
        Ok(v)
    }

    /// A game's round results, in order.
    pub fn rounds(&self, id: i64) -> Result<Vec<RoundResult>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT round, deltas, summary, facts FROM rounds WHERE log_id = ?1 ORDER BY round")?;
        let raw = st
            .query_map([id], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)?))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
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

    /// The stored bytes of a game and their form (`binary`: the binary encoding of the decoded
    /// log; `raw`: the bytes as given, which could not be decoded).
    pub fn log_bytes(&self, id: i64) -> Result<Option<(Vec<u8>, StoredForm)>> {
        let row = self
            .conn
            .query_row("SELECT bytes, form FROM logs WHERE id = ?1", [id], |r| {
                Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, String>(1)?))
            })
            .optional()?;
        Ok(row.map(|(b, f)| (b, if f == "binary" { StoredForm::Binary } else { StoredForm::Raw })))
    }

    /// Players, most games first; `search` keeps names containing it (case-insensitive).
    pub fn players(&self, search: Option<&str>, limit: u32, offset: u32) -> Result<Vec<PlayerRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT p.name, (SELECT COUNT(*) FROM seats s WHERE s.player_id = p.id) AS n FROM players p
             WHERE ?1 IS NULL OR instr(lower(p.name), lower(?1)) > 0
             ORDER BY n DESC, p.name LIMIT ?2 OFFSET ?3",
        )?;
        let v = st
            .query_map(params![search, i64::from(limit), i64::from(offset)], |r| {
                Ok(PlayerRow { name: r.get(0)?, games: r.get::<_, i64>(1)? as u64 })
            })?
            .collect::<std::result::Result<_, _>>()?;
        Ok(v)
    }

    /// One player by exact name.
    pub fn player(&self, name: &str) -> Result<Option<PlayerRow>> {
        Ok(self
            .conn
            .query_row(
                "SELECT p.name, (SELECT COUNT(*) FROM seats s WHERE s.player_id = p.id) FROM players p WHERE p.name = ?1",
                [name],
                |r| Ok(PlayerRow { name: r.get(0)?, games: r.get::<_, i64>(1)? as u64 }),
            )
            .optional()?)
    }

    /// Every tournament, newest first.
    pub fn tournaments(&self) -> Result<Vec<TournamentRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT t.name, COUNT(tg.log_id), COALESCE(SUM(v.valid), 0) FROM tournaments t
             LEFT JOIN tournament_games tg ON tg.tournament_id = t.id
             LEFT JOIN verdicts v ON v.log_id = tg.log_id
             GROUP BY t.id ORDER BY t.id DESC",
        )?;
        let v = st
            .query_map([], |r| {
                Ok(TournamentRow {
                    name: r.get(0)?,
                    games: r.get::<_, i64>(1)? as u64,
                    valid: r.get::<_, i64>(2)? as u64,
                })
            })?
            .collect::<std::result::Result<_, _>>()?;
        Ok(v)
    }

    /// A tournament's standings over its valid games: best average placement first, then more
    /// first places, then higher total score. `None` when there is no such tournament.
    pub fn standings(&self, tournament: &str) -> Result<Option<Vec<Standing>>> {
        let exists: Option<i64> =
            self.conn.query_row("SELECT id FROM tournaments WHERE name = ?1", [tournament], |r| r.get(0)).optional()?;
        let Some(tid) = exists else { return Ok(None) };
        let mut st = self.conn.prepare_cached(
            "SELECT p.name, COUNT(*), SUM(s.placement = 1), AVG(s.placement), SUM(s.final_score)
             FROM tournament_games tg
             JOIN verdicts v ON v.log_id = tg.log_id AND v.valid = 1
             JOIN seats s ON s.log_id = tg.log_id
             JOIN players p ON p.id = s.player_id
             WHERE tg.tournament_id = ?1
             GROUP BY p.id
             ORDER BY AVG(s.placement) ASC, SUM(s.placement = 1) DESC, SUM(s.final_score) DESC, p.name",
        )?;
        let mut v: Vec<Standing> = st
            .query_map([tid], |r| {
                Ok(Standing {
                    rank: 0,
                    player: r.get(0)?,
                    games: r.get::<_, i64>(1)? as u64,
                    firsts: r.get::<_, i64>(2)? as u64,
                    average_placement: r.get(3)?,
                    total_score: r.get(4)?,
                })
            })?
            .collect::<std::result::Result<_, _>>()?;
        for i in 0..v.len() {
            let same = i > 0
                && v[i].average_placement == v[i - 1].average_placement
                && v[i].firsts == v[i - 1].firsts
                && v[i].total_score == v[i - 1].total_score;
            v[i].rank = if same { v[i - 1].rank } else { i as u32 + 1 };
        }
        Ok(Some(v))
    }

    /// Calls `f` with every valid game matching `filter`, oldest first, reading in chunks so
    /// that memory stays flat however many games there are.
    pub fn for_each_game(&self, filter: &Filter, mut f: impl FnMut(Played)) -> Result<u64> {
        let (cond, values) = where_clause(&Filter { valid: Some(true), ..filter.clone() });
        let mut after = 0i64;
        let mut count = 0u64;
        let mut ids = self.conn.prepare_cached(&format!(
            "SELECT l.id, l.game FROM logs l JOIN verdicts v ON v.log_id = l.id
             WHERE {cond} AND l.game IS NOT NULL AND l.id > ? ORDER BY l.id LIMIT 512"
        ))?;
        loop {
            let mut vals = values.clone();
            vals.push(rusqlite::types::Value::Integer(after));
            let chunk: Vec<(i64, String)> = ids
                .query_map(rusqlite::params_from_iter(vals.iter()), |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<std::result::Result<_, _>>()?;
            let Some(last) = chunk.last() else { break };
            after = last.0;
            for (id, name) in chunk {
                let game = GameKind::from_name(&name).ok_or_else(|| {
                    ArchiveError::Corrupt(format!("game {id} is a valid game of unknown kind {name:?}"))
                })?;
                let seats = self.seats(id)?;
                f(Played {
                    game,
                    players: seats.iter().map(|s| s.player.clone()).collect(),
                    final_scores: seats.iter().map(|s| s.final_score.unwrap_or(0)).collect(),
                    placements: seats.iter().map(|s| s.placement.unwrap_or(0)).collect(),
                    rounds: self.rounds(id)?,
                });
                count += 1;
            }
        }
        Ok(count)
    }

    /// The certificate for a game signed by `signer` (hex public key), if one was stored.
    pub fn certificate(&self, id: i64, signer: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT json FROM certificates WHERE log_id = ?1 AND signer = ?2", params![id, signer], |r| {
                r.get(0)
            })
            .optional()?)
    }

    /// Stores (or replaces) a game's certificate by `signer`.
    pub fn put_certificate(&self, id: i64, signer: &str, issued_at: &str, json: &str) -> Result<()> {
        self.conn.execute(
            "INSERT INTO certificates(log_id, signer, issued_at, json) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT(log_id, signer) DO UPDATE SET issued_at = excluded.issued_at, json = excluded.json",
            params![id, signer, issued_at, json],
        )?;
        Ok(())
    }
}

fn store_one(tx: &rusqlite::Transaction<'_>, p: &Prepared, source: Option<&str>) -> Result<Stored> {
    let digest = p.digest.to_hex();
    let fault = p.verdict.fault().cloned();
    let existing = tx
        .query_row(
            "SELECT l.id, v.valid, v.fault_code, v.fault_json FROM logs l JOIN verdicts v ON v.log_id = l.id
             WHERE l.digest = ?1",
            [&digest],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)? != 0,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                ))
            },
        )
        .optional()?;
    let id = match existing {
        // Stored before with its seed still secret, and now given with the seed revealed (the
        // digest leaves the seed out): the stored log and its verdict are replaced.
        Some((id, false, Some(code), _)) if code == ErrorCode::MissingSeed.as_str() && p.verdict.is_valid() => {
            tx.execute(
                "UPDATE logs SET form = ?2, bytes = ?3, size = ?4, records = ?5, header_json = ?6,
                                 source = COALESCE(?7, source)
                 WHERE id = ?1",
                params![
                    id,
                    p.form.as_str(),
                    p.stored,
                    p.size as i64,
                    p.records as i64,
                    p.header.as_ref().map(json),
                    source
                ],
            )?;
            for table in [
                "DELETE FROM verdicts WHERE log_id = ?1",
                "DELETE FROM seats WHERE log_id = ?1",
                "DELETE FROM rounds WHERE log_id = ?1",
                "DELETE FROM certificates WHERE log_id = ?1",
            ] {
                tx.execute(table, [id])?;
            }
            id
        }
        Some((id, valid, _, fault_json)) => {
            let fault = fault_json.filter(|_| !valid).and_then(|f| serde_json::from_str(&f).ok());
            return Ok(Stored { id, new: false, valid, digest, fault });
        }
        None => {
            tx.execute(
                "INSERT INTO logs(digest, digest_kind, game, ruleset, seat_count, form, bytes, size, records,
                                  header_json, source, added_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    digest,
                    p.digest_kind.as_str(),
                    p.header.as_ref().map(|h| h.game.as_str()),
                    p.header.as_ref().map(|h| h.ruleset.as_str()),
                    p.header.as_ref().map_or(0, |h| h.seats.len() as i64),
                    p.form.as_str(),
                    p.stored,
                    p.size as i64,
                    p.records as i64,
                    p.header.as_ref().map(json),
                    source,
                    now(),
                ],
            )?;
            tx.last_insert_rowid()
        }
    };
    let outcome = p.verdict.outcome();
    let final_scores = outcome.map(|o| o.final_scores.clone());
    tx.execute(
        "INSERT INTO verdicts(log_id, valid, fault_code, fault_index, fault_message, fault_json, final_scores, rounds,
                              engine, checked_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            id,
            i64::from(p.verdict.is_valid()),
            fault.as_ref().map(|f| f.code.as_str()),
            fault.as_ref().and_then(|f| f.index).map(|i| i as i64),
            fault.as_ref().map(|f| f.message.as_str()),
            fault.as_ref().map(json),
            final_scores.as_ref().map(json),
            outcome.map_or(0, |o| o.rounds.len() as i64),
            paifu_core::ENGINE,
            now(),
        ],
    )?;
    if let Some(h) = &p.header {
        let places = outcome.map(|o| &o.placements);
        for (seat, name) in h.seats.iter().enumerate() {
            tx.execute("INSERT INTO players(name) VALUES (?1) ON CONFLICT(name) DO NOTHING", [name])?;
            let pid: i64 = tx.query_row("SELECT id FROM players WHERE name = ?1", [name], |r| r.get(0))?;
            tx.execute(
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
    }
    if let Some(o) = outcome {
        for r in &o.rounds {
            tx.execute(
                "INSERT INTO rounds(log_id, round, deltas, summary, facts) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, i64::from(r.round), json(&r.deltas), r.summary, json(&r.facts)],
            )?;
        }
    }
    Ok(Stored { id, new: true, valid: p.verdict.is_valid(), digest, fault })
}

/// The fault for bytes that were refused before validation (too large, unreadable).
pub fn refused(message: impl Into<String>) -> Fault {
    Fault::new(ErrorCode::BadEncoding, message)
}

#[cfg(test)]
mod tests;
