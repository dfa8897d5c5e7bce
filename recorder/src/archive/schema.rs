//! The archive's schema and its migrations.
//!
//! `PRAGMA user_version` holds the number of migrations applied. Migrations are only ever
//! appended: migration N brings a database from version N-1 to N, inside one transaction that
//! takes the write lock first (`BEGIN IMMEDIATE`), so that several processes opening an old
//! archive at once migrate it once.

use super::db::Db;
use super::prepare::identity_of;
use super::{ArchiveError, Result};
use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};

/// One migration: SQL, or SQL and code for what SQL alone cannot compute.
enum Migration {
    Sql(&'static str),
    Code(fn(&Transaction<'_>) -> Result<()>),
}

/// Each migration, in order. Never edit one that has shipped; append a new one.
const MIGRATIONS: &[Migration] = &[
    Migration::Sql(
        // 1: the first schema.
        "CREATE TABLE logs(
        id INTEGER PRIMARY KEY,
        digest TEXT NOT NULL UNIQUE,
        digest_kind TEXT NOT NULL CHECK (digest_kind IN ('log', 'bytes')),
        game TEXT,
        ruleset TEXT,
        seat_count INTEGER NOT NULL,
        form TEXT NOT NULL CHECK (form IN ('binary', 'raw')),
        bytes BLOB NOT NULL,
        size INTEGER NOT NULL,
        records INTEGER NOT NULL,
        header_json TEXT,
        source TEXT,
        added_at INTEGER NOT NULL
    );
    CREATE INDEX logs_game ON logs(game, id);
    CREATE TABLE verdicts(
        log_id INTEGER PRIMARY KEY REFERENCES logs(id) ON DELETE CASCADE,
        valid INTEGER NOT NULL,
        fault_code TEXT,
        fault_index INTEGER,
        fault_message TEXT,
        fault_json TEXT,
        final_scores TEXT,
        rounds INTEGER NOT NULL DEFAULT 0,
        engine TEXT NOT NULL,
        checked_at INTEGER NOT NULL
    );
    CREATE INDEX verdicts_valid ON verdicts(valid, log_id);
    CREATE TABLE certificates(
        log_id INTEGER NOT NULL REFERENCES logs(id) ON DELETE CASCADE,
        signer TEXT NOT NULL,
        issued_at TEXT NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY(log_id, signer)
    );
    CREATE TABLE players(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
    );
    CREATE TABLE seats(
        log_id INTEGER NOT NULL REFERENCES logs(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id),
        final_score INTEGER,
        placement INTEGER,
        PRIMARY KEY(log_id, seat)
    );
    CREATE INDEX seats_player ON seats(player_id, log_id);
    CREATE TABLE rounds(
        log_id INTEGER NOT NULL REFERENCES logs(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        deltas TEXT NOT NULL,
        summary TEXT NOT NULL,
        facts TEXT NOT NULL,
        PRIMARY KEY(log_id, round)
    );
    CREATE TABLE tournaments(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE tournament_games(
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        log_id INTEGER NOT NULL REFERENCES logs(id) ON DELETE CASCADE,
        PRIMARY KEY(tournament_id, log_id)
    );
    CREATE INDEX tournament_games_log ON tournament_games(log_id);",
    ),
    Migration::Code(identity_and_credentials),
    Migration::Sql(
        // 3: an excerpt of an unknown game (issue 15) is marked by its verdict: the rounds it
        // covers (`excerpt: rounds South 2-1 to South 3-0 of an unknown game`), NULL for whole
        // games. An excerpt never counts (`logs.counted` 0): not in statistics, not in standings.
        "ALTER TABLE verdicts ADD COLUMN excerpt TEXT;",
    ),
    // 4: aggregates kept at ingest (issue 16): each player's statistics per game kind over the
    // entries that count, each player's seat count and case-folded name.
    Migration::Code(aggregates_from_rows),
    Migration::Sql(
        // 5: games in progress (issue 17): each its header line (never with the seed, which is
        // kept apart for the server's replay), and its record lines with the time each was
        // played (ms since the Unix epoch). Numbers are never reused (AUTOINCREMENT), so a link
        // to a game that ended never shows another. Live rows are deleted when the game ends.
        "CREATE TABLE live_games(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        key TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        seats TEXT NOT NULL,
        header TEXT NOT NULL,
        seed TEXT,
        started_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    );
    CREATE TABLE live_records(
        game_id INTEGER NOT NULL REFERENCES live_games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        line TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY(game_id, seq)
    ) WITHOUT ROWID;",
    ),
    // 6: which entry counts is decided by trust, and entries are grouped into games by what the
    // game is (issue 24): the logs get their game key, lead flag and dropped records count
    // (the table rebuilt, so that its bytes stay its last column), every game is recounted in
    // the archive and in each tournament, and the players' aggregates are added up again.
    Migration::Code(games_by_content_and_trust),
    // 7: lookalike names (issue 24): each player and tournament name's TR39 skeleton, indexed,
    // so that a new name that reads as an existing one is refused naming it.
    Migration::Code(name_skeletons),
    // 8: counts kept at ingest (issue 25): the games lists' counts (in all and per block of
    // entries), the overview's totals and faults, each tournament's standings and final points
    // terms, each tournament entry's manifest leaf and each tournament's Merkle root, all added
    // up from the stored rows.
    Migration::Code(kept_counts),
    Migration::Sql(
        // 9: tables where people play (issue 27): each table's plan (the host's JSON), stage and
        // folder, the host's commitment to its share of the seed, the digest of every party's
        // commitment once all are in, and what is published when it is over; its seats (a
        // person's name, or a bot's), each person's commitment; the join links of the people's
        // seats, by the blake3 of their secret only, revocable; the finished games.
        "CREATE TABLE play_tables(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        plan TEXT NOT NULL,
        stage TEXT NOT NULL CHECK (stage IN ('waiting', 'playing', 'ended')),
        folder TEXT NOT NULL,
        host_commitment TEXT NOT NULL,
        commitments_digest TEXT,
        reveal TEXT,
        opened_by INTEGER REFERENCES tokens(id),
        created_at INTEGER NOT NULL,
        ended_at INTEGER
    );
    CREATE TABLE play_seats(
        table_id INTEGER NOT NULL REFERENCES play_tables(id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        bot TEXT,
        commitment TEXT,
        PRIMARY KEY(table_id, seat)
    ) WITHOUT ROWID;
    CREATE TABLE play_joins(
        hash TEXT PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES play_tables(id),
        seat INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX play_joins_seat ON play_joins(table_id, seat);
    CREATE TABLE play_games(
        table_id INTEGER NOT NULL REFERENCES play_tables(id),
        number INTEGER NOT NULL,
        log_id INTEGER NOT NULL REFERENCES logs(id),
        PRIMARY KEY(table_id, number)
    ) WITHOUT ROWID;",
    ),
    // 10: organisers (issue 28): a tournament's minimum number of counted games for a ranked
    // line (NULL: none), and each line of standings' penalties (rule incidents: chombo,
    // false_win, talk) with the points they cost, in a table of their own.
    Migration::Code(minimum_and_penalties),
    Migration::Sql(
        // 11: the workers' queue (issue 29, `jobs.rs`): each job's kind (`ingest`: a file's
        // bytes, its name, tournament and who queued it; `revalidate`: a range of entries), its
        // state, how many times a worker took it, the lease of the worker that holds it (its
        // name, until when, in ms since the Unix epoch), when it was made and finished, and its
        // result (JSON) or error. The bytes of a done ingest job are dropped (its entry has them).
        "CREATE TABLE jobs(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('ingest', 'revalidate')),
        state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
        name TEXT,
        tournament TEXT,
        origin TEXT NOT NULL CHECK (origin IN ('cli', 'web')),
        token_id INTEGER REFERENCES tokens(id),
        first_id INTEGER,
        last_id INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        worker TEXT,
        lease_until INTEGER,
        created_at INTEGER NOT NULL,
        done_at INTEGER,
        result TEXT,
        error TEXT,
        bytes BLOB
    );
    CREATE INDEX jobs_waiting ON jobs(id) WHERE state IN ('queued', 'running');
    CREATE INDEX jobs_state ON jobs(state, id);",
    ),
    Migration::Sql(
        // 12: several servers on one archive (issue 29): the dashboard's sessions, kept here so
        // that any server answers them (only the blake3 of a session's id; its CSRF token is
        // derived from the id and never stored: `sessions.rs`), and which server hosts each
        // table (its public URL; NULL: the only one).
        "CREATE TABLE sessions(
        id_hash TEXT PRIMARY KEY,
        token_id INTEGER NOT NULL REFERENCES tokens(id),
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX sessions_expiry ON sessions(expires_at);
    CREATE INDEX sessions_token ON sessions(token_id, expires_at);
    ALTER TABLE play_tables ADD COLUMN host TEXT;",
    ),
    Migration::Sql(
        // 13: arena matches and duplicate sets as jobs (issue 29, `jobs.rs`): the kinds `match`
        // (one game) and `duplicate` (a deal in every rotation), each with its games as the
        // arena reads them (`spec`, JSON), the match seed (`seed`, hex: the database's secret)
        // and the bots it needs by name (`bots`, a JSON list; never a command). SQLite cannot
        // change a CHECK: the table is rebuilt, its rows and numbers kept.
        "CREATE TABLE jobs_13(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('ingest', 'revalidate', 'match', 'duplicate')),
        state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
        name TEXT,
        tournament TEXT,
        origin TEXT NOT NULL CHECK (origin IN ('cli', 'web')),
        token_id INTEGER REFERENCES tokens(id),
        first_id INTEGER,
        last_id INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        worker TEXT,
        lease_until INTEGER,
        created_at INTEGER NOT NULL,
        done_at INTEGER,
        result TEXT,
        error TEXT,
        bytes BLOB,
        spec TEXT,
        seed TEXT,
        bots TEXT
    );
    INSERT INTO jobs_13(id, kind, state, name, tournament, origin, token_id, first_id, last_id, attempts, worker,
                        lease_until, created_at, done_at, result, error, bytes)
        SELECT id, kind, state, name, tournament, origin, token_id, first_id, last_id, attempts, worker,
               lease_until, created_at, done_at, result, error, bytes FROM jobs;
    DROP TABLE jobs;
    ALTER TABLE jobs_13 RENAME TO jobs;
    CREATE INDEX jobs_waiting ON jobs(id) WHERE state IN ('queued', 'running');
    CREATE INDEX jobs_state ON jobs(state, id);",
    ),
    Migration::Sql(
        // 14: the duplicate games, indexed by the very condition `duplicate.rs` reads them by
        // (its header's meta `duplicate`): a tournament's duplicate standings start from the few
        // games this index holds instead of reading the header of every game the tournament
        // counts (26 ms for 3 920 games on PostgreSQL, growing with the tournament; 0.1 ms).
        "CREATE INDEX logs_duplicate ON logs(id) WHERE header_json LIKE '%\"duplicate\"%';",
    ),
];

/// The schema version this Paifu writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Migration 2, first part: credentials, the logs keyed by their identity instead of their game
/// digest (now shared by the entries of one game), who stored each, which entry counts for its
/// game, certificates as an immutable history, tournaments' owners and trusted keys.
const MIGRATION_2_BEFORE: &str = "
    CREATE TABLE tokens(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('uploader', 'organiser', 'admin')),
        hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
    );
    CREATE INDEX tokens_name ON tokens(name);
    CREATE TABLE logs_v2(
        id INTEGER PRIMARY KEY,
        identity TEXT NOT NULL UNIQUE,
        digest TEXT NOT NULL,
        digest_kind TEXT NOT NULL CHECK (digest_kind IN ('log', 'bytes')),
        game TEXT,
        ruleset TEXT,
        seat_count INTEGER NOT NULL,
        form TEXT NOT NULL CHECK (form IN ('binary', 'raw')),
        size INTEGER NOT NULL,
        records INTEGER NOT NULL,
        header_json TEXT,
        source TEXT,
        added_at INTEGER NOT NULL,
        counted INTEGER NOT NULL DEFAULT 0 CHECK (counted IN (0, 1)),
        origin TEXT NOT NULL CHECK (origin IN ('migrated', 'cli', 'web')),
        token_id INTEGER REFERENCES tokens(id),
        -- Last: a query that reads the other columns never walks the log's bytes.
        bytes BLOB NOT NULL
    );";

/// Migration 2, after the logs are copied with their identities.
const MIGRATION_2_AFTER: &str = "
    DROP TABLE logs;
    ALTER TABLE logs_v2 RENAME TO logs;
    CREATE INDEX logs_game ON logs(game, id);
    CREATE INDEX logs_digest ON logs(digest, id);
    CREATE INDEX logs_added ON logs(added_at);
    CREATE UNIQUE INDEX logs_counted ON logs(digest) WHERE counted = 1;
    CREATE TRIGGER logs_fixed BEFORE UPDATE OF identity, digest, digest_kind, form, bytes, header_json ON logs
        BEGIN SELECT RAISE(ABORT, 'a stored log never changes: a different log is a new entry'); END;
    CREATE TRIGGER logs_kept BEFORE DELETE ON logs
        BEGIN SELECT RAISE(ABORT, 'stored logs are never deleted'); END;
    CREATE TRIGGER verdicts_fixed BEFORE UPDATE ON verdicts
        BEGIN SELECT RAISE(ABORT, 'a stored verdict never changes'); END;
    CREATE TRIGGER verdicts_kept BEFORE DELETE ON verdicts
        BEGIN SELECT RAISE(ABORT, 'stored verdicts are never deleted'); END;

    CREATE TABLE certificates_v2(
        id INTEGER PRIMARY KEY,
        log_id INTEGER NOT NULL REFERENCES logs(id),
        signer TEXT NOT NULL,
        issued_at TEXT NOT NULL,
        valid INTEGER NOT NULL CHECK (valid IN (0, 1)),
        json TEXT NOT NULL
    );
    INSERT INTO certificates_v2(log_id, signer, issued_at, valid, json)
        SELECT log_id, signer, issued_at,
               CASE WHEN json_valid(json) AND json_extract(json, '$.certificate.verdict') = 'valid' THEN 1 ELSE 0 END,
               json
        FROM certificates ORDER BY log_id, signer;
    DROP TABLE certificates;
    ALTER TABLE certificates_v2 RENAME TO certificates;
    CREATE INDEX certificates_log ON certificates(log_id, signer, id);
    CREATE TRIGGER certificates_fixed BEFORE UPDATE ON certificates
        BEGIN SELECT RAISE(ABORT, 'a certificate never changes: a new verdict or signature is a new certificate'); END;
    CREATE TRIGGER certificates_kept BEFORE DELETE ON certificates
        BEGIN SELECT RAISE(ABORT, 'certificates are never deleted'); END;

    ALTER TABLE tournaments ADD COLUMN owner TEXT;
    CREATE TABLE tournament_keys(
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        signer TEXT NOT NULL,
        PRIMARY KEY(tournament_id, signer)
    );
    INSERT OR IGNORE INTO tournament_keys(tournament_id, signer)
        SELECT DISTINCT tg.tournament_id, c.signer FROM tournament_games tg JOIN certificates c ON c.log_id = tg.log_id;";

/// Migration 2: each stored log gets its identity, computed from its stored bytes one row at a
/// time (the binary encoding of a decoded log, or the bytes as given for one that was not: for
/// those the identity is the digest they were stored under).
fn identity_and_credentials(tx: &Transaction<'_>) -> Result<()> {
    tx.execute_batch(MIGRATION_2_BEFORE)?;
    let mut next = tx.prepare("SELECT id, bytes FROM logs WHERE id > ?1 ORDER BY id LIMIT 1")?;
    let mut copy = tx.prepare(
        "INSERT INTO logs_v2(id, identity, digest, digest_kind, game, ruleset, seat_count, form, bytes, size, records,
                             header_json, source, added_at, counted, origin, token_id)
         SELECT l.id, ?2, l.digest, l.digest_kind, l.game, l.ruleset, l.seat_count, l.form, l.bytes, l.size, l.records,
                l.header_json, l.source, l.added_at, COALESCE(v.valid, 0), 'migrated', NULL
         FROM logs l LEFT JOIN verdicts v ON v.log_id = l.id WHERE l.id = ?1",
    )?;
    let mut after = 0i64;
    while let Some((id, bytes)) =
        next.query_row([after], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))).optional()?
    {
        copy.execute(params![id, identity_of(&bytes).to_hex()])?;
        after = id;
    }
    drop((next, copy));
    tx.execute_batch(MIGRATION_2_AFTER)?;
    Ok(())
}

/// Migration 6, before the logs are copied: the tournament triggers that chose counted games
/// (replaced by `counting.rs`, run by the archive as it writes) and the new logs table.
const MIGRATION_6_BEFORE: &str = "
    DROP TRIGGER IF EXISTS tournament_game_added;
    DROP TRIGGER IF EXISTS tournament_game_certified;
    DROP TRIGGER IF EXISTS tournament_key_trusted;
    DROP TRIGGER IF EXISTS tournament_key_dropped;
    CREATE TABLE logs_v6(
        id INTEGER PRIMARY KEY,
        identity TEXT NOT NULL UNIQUE,
        digest TEXT NOT NULL,
        digest_kind TEXT NOT NULL CHECK (digest_kind IN ('log', 'bytes')),
        game_key TEXT NOT NULL,
        game TEXT,
        ruleset TEXT,
        seat_count INTEGER NOT NULL,
        form TEXT NOT NULL CHECK (form IN ('binary', 'raw')),
        size INTEGER NOT NULL,
        records INTEGER NOT NULL,
        dropped INTEGER NOT NULL DEFAULT 0,
        header_json TEXT,
        source TEXT,
        added_at INTEGER NOT NULL,
        counted INTEGER NOT NULL DEFAULT 0 CHECK (counted IN (0, 1)),
        lead INTEGER NOT NULL DEFAULT 0 CHECK (lead IN (0, 1)),
        origin TEXT NOT NULL CHECK (origin IN ('migrated', 'cli', 'web')),
        token_id INTEGER REFERENCES tokens(id),
        -- Last: a query that reads the other columns never walks the log's bytes.
        bytes BLOB NOT NULL
    );";

/// Migration 6, after the logs are copied: the table in place with its indexes and guards, and
/// the trigger that keeps each tournament's count of entries and valid entries.
const MIGRATION_6_AFTER: &str = "
    DROP TABLE logs;
    ALTER TABLE logs_v6 RENAME TO logs;
    CREATE INDEX logs_game ON logs(game, id);
    CREATE INDEX logs_digest ON logs(digest, id);
    CREATE INDEX logs_added ON logs(added_at);
    CREATE INDEX logs_game_key ON logs(game_key, id);
    CREATE UNIQUE INDEX logs_counted ON logs(game_key) WHERE counted = 1;
    CREATE UNIQUE INDEX logs_lead ON logs(game_key) WHERE lead = 1;
    CREATE TRIGGER logs_fixed BEFORE UPDATE OF identity, digest, digest_kind, game_key, form, bytes, header_json,
                                              records, dropped ON logs
        BEGIN SELECT RAISE(ABORT, 'a stored log never changes: a different log is a new entry'); END;
    CREATE TRIGGER logs_kept BEFORE DELETE ON logs
        BEGIN SELECT RAISE(ABORT, 'stored logs are never deleted'); END;
    CREATE TRIGGER tournament_game_added AFTER INSERT ON tournament_games BEGIN
        UPDATE tournaments SET games = games + 1,
            valid = valid + COALESCE((SELECT valid FROM verdicts WHERE log_id = NEW.log_id), 0)
            WHERE id = NEW.tournament_id;
    END;
    DELETE FROM tournament_counted;
    DELETE FROM player_stats;";

/// Migration 6: each log's game key computed from its stored bytes, one row at a time (bytes
/// that do not decode, stored raw by an early version, are a game of their own: their digest);
/// then every game recounted, the aggregates added up again from the entries that count now, and
/// every tournament's games recounted.
fn games_by_content_and_trust(tx: &Transaction<'_>) -> Result<()> {
    tx.execute_batch(MIGRATION_6_BEFORE)?;
    let mut next = tx.prepare("SELECT id, bytes, digest FROM logs WHERE id > ?1 ORDER BY id LIMIT 1")?;
    let mut copy = tx.prepare(
        "INSERT INTO logs_v6(id, identity, digest, digest_kind, game_key, game, ruleset, seat_count, form, size,
                             records, header_json, source, added_at, origin, token_id, bytes)
         SELECT id, identity, digest, digest_kind, ?2, game, ruleset, seat_count, form, size,
                records, header_json, source, added_at, origin, token_id, bytes
         FROM logs WHERE id = ?1",
    )?;
    let mut after = 0i64;
    while let Some((id, bytes, digest)) = next
        .query_row([after], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?, r.get::<_, String>(2)?)))
        .optional()?
    {
        let key = super::game_key::game_key_of_bytes(&bytes).map_or(digest, |k| k.to_hex());
        copy.execute(params![id, key])?;
        after = id;
    }
    drop((next, copy));
    tx.execute_batch(MIGRATION_6_AFTER)?;
    let keys: Vec<String> = tx
        .prepare("SELECT DISTINCT game_key FROM logs")?
        .query_map([], |r| r.get(0))?
        .collect::<std::result::Result<_, _>>()?;
    // (The counts migration 8 keeps are added up there, from these rows.)
    let mut kept = super::kept::Kept::discarding();
    for key in &keys {
        super::counting::recount_game(Db::Lite(tx), key, &mut kept)?;
    }
    tx.execute_batch(
        "UPDATE players SET games = (SELECT COUNT(DISTINCT s.log_id) FROM seats s JOIN logs l ON l.id = s.log_id
                                     WHERE s.player_id = players.id AND l.lead = 1);",
    )?;
    super::aggregates::add_up_counted(Db::Lite(tx))?;
    let pairs: Vec<(i64, String)> = tx
        .prepare(
            "SELECT DISTINCT tg.tournament_id, l.game_key FROM tournament_games tg JOIN logs l ON l.id = tg.log_id",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<std::result::Result<_, _>>()?;
    for (tid, key) in pairs {
        super::counting::recount_in_tournament(Db::Lite(tx), tid, &key, &mut kept)?;
    }
    Ok(())
}

/// Migration 7: the skeleton of every player and tournament name (see `names::skeleton`).
fn name_skeletons(tx: &Transaction<'_>) -> Result<()> {
    tx.execute_batch(
        "ALTER TABLE players ADD COLUMN skeleton TEXT NOT NULL DEFAULT '';
         ALTER TABLE tournaments ADD COLUMN skeleton TEXT NOT NULL DEFAULT '';",
    )?;
    for table in ["players", "tournaments"] {
        // The table's name is one of these two constants, not input.
        let names: Vec<(i64, String)> = tx
            .prepare(&format!("SELECT id, name FROM {table}"))?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<std::result::Result<_, _>>()?;
        let mut set = tx.prepare(&format!("UPDATE {table} SET skeleton = ?2 WHERE id = ?1"))?;
        for (id, name) in names {
            set.execute(params![id, super::names::skeleton(&name)])?;
        }
    }
    tx.execute_batch(
        "CREATE INDEX players_skeleton ON players(skeleton);
         CREATE INDEX tournaments_skeleton ON tournaments(skeleton);",
    )?;
    Ok(())
}

/// Every entry each tournament counts, as a change that adds it once: `(tournament, entry, 1)`,
/// what `tournaments::keep_standings` and `keep_penalties` take to build their tables from scratch.
pub(super) fn every_counted(c: Db<'_>) -> Result<Vec<(i64, i64, i64)>> {
    c.rows(
        "SELECT tournament_id, log_id, 1 FROM tournament_counted ORDER BY tournament_id, log_id",
        super::db::params![],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
}

/// Migration 8: see `kept` (the tables and the lists' counts), `tournaments::keep_standings` and
/// `publish::keep_roots`, each run over every stored row as over new ones.
fn kept_counts(tx: &Transaction<'_>) -> Result<()> {
    tx.execute_batch(super::kept::MIGRATION_8)?;
    super::kept::count_stored(Db::Lite(tx))?;
    let counted = every_counted(Db::Lite(tx))?;
    super::tournaments::keep_standings(Db::Lite(tx), &counted)?;
    let all: std::collections::BTreeSet<i64> = tx
        .prepare("SELECT id FROM tournaments")?
        .query_map([], |r| r.get(0))?
        .collect::<std::result::Result<_, _>>()?;
    super::publish::keep_roots(Db::Lite(tx), &Default::default(), &all)?;
    Ok(())
}

/// Migration 10: see [`MIGRATIONS`]. The penalties have a table of their own beside
/// `tournament_standings` (whose shape migration 8's code writes, and which stays as it was), kept
/// by `tournaments::keep_penalties` and filled here from every entry each tournament counts.
fn minimum_and_penalties(tx: &Transaction<'_>) -> Result<()> {
    tx.execute_batch(
        "ALTER TABLE tournaments ADD COLUMN min_games INTEGER CHECK (min_games IS NULL OR min_games >= 1);
         CREATE TABLE tournament_penalties(
             tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
             game TEXT NOT NULL,
             ruleset TEXT NOT NULL,
             player_id INTEGER NOT NULL REFERENCES players(id),
             penalties INTEGER NOT NULL,
             penalty_points INTEGER NOT NULL,
             costed INTEGER NOT NULL,
             PRIMARY KEY(tournament_id, game, ruleset, player_id)
         ) WITHOUT ROWID;",
    )?;
    let counted = every_counted(Db::Lite(tx))?;
    super::tournaments::keep_penalties(Db::Lite(tx), &counted)
}

/// Migration 4: see `aggregates` (the tables, then every counted game added up).
fn aggregates_from_rows(tx: &Transaction<'_>) -> Result<()> {
    super::aggregates::build(Db::Lite(tx))
}

/// Applies the migrations the database lacks.
pub(super) fn migrate(conn: &mut Connection, name: &str) -> Result<()> {
    migrate_to(conn, name, SCHEMA_VERSION)
}

/// Applies the migrations the database lacks up to `version`. Foreign keys are not enforced
/// while a migration runs (a table is rebuilt by copying it, dropping it and renaming the
/// copy) and are checked before it commits.
pub(super) fn migrate_to(conn: &mut Connection, name: &str, version: i64) -> Result<()> {
    let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(ArchiveError::TooNew { path: name.to_owned(), found, known: SCHEMA_VERSION });
    }
    if found >= version {
        return Ok(());
    }
    conn.execute_batch("PRAGMA foreign_keys = OFF")?;
    let result = apply(conn, version);
    conn.execute_batch("PRAGMA foreign_keys = ON")?;
    result
}

fn apply(conn: &mut Connection, version: i64) -> Result<()> {
    for (i, migration) in MIGRATIONS.iter().enumerate().take(version.max(0) as usize) {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Another process may have applied it while this one waited for the lock.
        let now: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if now > i as i64 {
            continue;
        }
        match migration {
            Migration::Sql(sql) => tx.execute_batch(sql)?,
            Migration::Code(f) => f(&tx)?,
        }
        let broken: Option<String> = tx.query_row("PRAGMA foreign_key_check", [], |r| r.get(0)).optional()?;
        if let Some(table) = broken {
            return Err(ArchiveError::Corrupt(format!(
                "migration {} would leave a row of {table} pointing at nothing; nothing was changed",
                i + 1
            )));
        }
        // PRAGMA takes no bound parameters; the value is our own constant, not input.
        tx.execute_batch(&format!("PRAGMA user_version = {}", i + 1))?;
        tx.commit()?;
    }
    Ok(())
}
