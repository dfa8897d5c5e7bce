//! The archive's schema and its migrations.
//!
//! `PRAGMA user_version` holds the number of migrations applied. Migrations are only ever
//! appended: migration N brings a database from version N-1 to N, inside one transaction.

use super::{ArchiveError, Result};
use rusqlite::Connection;

/// Each migration, in order. Never edit one that has shipped; append a new one.
const MIGRATIONS: &[&str] = &[
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
];

/// The schema version this Paifu writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Applies the migrations the database lacks.
pub(super) fn migrate(conn: &mut Connection, name: &str) -> Result<()> {
    let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(ArchiveError::TooNew { path: name.to_owned(), found, known: SCHEMA_VERSION });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        // PRAGMA takes no bound parameters; the value is our own constant, not input.
        tx.execute_batch(&format!("PRAGMA user_version = {}", i + 1))?;
        tx.commit()?;
    }
    Ok(())
}
