//! Aggregates kept as games are stored, so that a player's page reads a few rows however many
//! games they played (issue 16, "Scale").
//!
//! - `player_stats`: for each player and game kind, the analyzer's [`Block`] (counts and sums,
//!   which add together) over the entries that count (`logs.counted`: valid, one per game, never
//!   an excerpt), as JSON. The statistics of a player are these rows as they are.
//! - `players.games`: the stored entries the player sits in, counted or not (what the players
//!   list shows and orders by, and the count of their games list), and `players.folded`, the
//!   name case-folded, for search by prefix.
//!
//! - `tournaments.games`, `.valid`, `.counted` and `tournament_counted` (the tournament games its
//!   standings count), kept by triggers as games, certificates and trusted keys come and go.
//!
//! A batch gathers what it adds in memory ([`Pending`]) and writes it once per player and game
//! kind before its transaction commits: the aggregates change with the entries, never apart.

use super::db::{params, Db};
use super::{json, parse_json, Result};
use paifu_analyzer::{Analysis, Block};
use paifu_core::replay::Played;
use std::collections::BTreeMap;

/// A name case-folded for search: every character upper-cased, then lower-cased, one character
/// at a time (Unicode's simple mappings, context-free): `Ä` and `ä` fold alike, `ß` and `SS` to
/// `ss`, a final `ς` and `Σ` to `σ`, the Kelvin sign to `k`. Search compares folded prefixes.
pub(super) fn fold_name(name: &str) -> String {
    name.chars().flat_map(char::to_uppercase).flat_map(char::to_lowercase).collect()
}

/// The least string above every string that begins with `prefix` (its last character that can
/// be, one higher), so that the names beginning with `prefix` are the range `prefix..end` of the
/// index (SQLite compares text as UTF-8 bytes, which orders as code points); `None` when there is
/// none (no upper bound is needed).
pub(super) fn prefix_end(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(c) = chars.pop() {
        // The next scalar value: surrogates are not characters.
        let next = if c == '\u{D7FF}' { Some('\u{E000}') } else { char::from_u32(u32::from(c) + 1) };
        if let Some(n) = next {
            chars.push(n);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

/// What a batch adds to the aggregates, written by [`Pending::write`].
#[derive(Default)]
pub(super) struct Pending {
    /// (player, game kind) -> the sums of the counted games the batch stored.
    stats: BTreeMap<(String, String), Block>,
    /// Player -> entries the batch stored with them.
    seats: BTreeMap<String, i64>,
}

impl Pending {
    /// A new entry with these seats (counted or not): one more game for each player at it.
    pub(super) fn entry(&mut self, seats: &[String]) {
        let players: std::collections::BTreeSet<&String> = seats.iter().collect();
        for name in players {
            *self.seats.entry(name.clone()).or_default() += 1;
        }
    }

    /// A game that counts.
    pub(super) fn counted(&mut self, g: &Played) {
        for (name, stats) in Analysis::players_of_game(g, None) {
            for (kind, block) in stats.kinds {
                *self.stats.entry((name.clone(), kind)).or_default() += &block;
            }
        }
    }

    /// Adds what was gathered to the stored aggregates (in the caller's transaction).
    pub(super) fn write(self, conn: Db<'_>) -> Result<()> {
        for (name, n) in &self.seats {
            conn.exec("UPDATE players SET games = games + ?2 WHERE name = ?1", params![name, n])?;
        }
        for ((name, kind), block) in self.stats {
            let pid: i64 = conn.row("SELECT id FROM players WHERE name = ?1", [&name], |r| r.get(0))?;
            let read = "SELECT block FROM player_stats WHERE player_id = ?1 AND game = ?2";
            let mut sum: Block = match conn.opt(read, params![pid, kind], |r| r.get::<_, String>(0))? {
                Some(text) => parse_json(&text, "player statistics")?,
                None => Block::default(),
            };
            sum += &block;
            conn.exec(
                "INSERT INTO player_stats(player_id, game, block) VALUES (?1, ?2, ?3)
                 ON CONFLICT(player_id, game) DO UPDATE SET block = excluded.block",
                params![pid, kind, json(&sum)],
            )?;
        }
        Ok(())
    }
}

/// A player's statistics per game kind, from the aggregates: one row per kind they played.
pub(super) fn player_stats(conn: Db<'_>, name: &str) -> Result<BTreeMap<String, Block>> {
    let rows = conn.rows(
        "SELECT ps.game, ps.block FROM player_stats ps JOIN players p ON p.id = ps.player_id
         WHERE p.name = ?1 ORDER BY ps.game",
        [name],
        |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)),
    )?;
    rows.into_iter().map(|(game, text)| Ok((game, parse_json(&text, "player statistics")?))).collect()
}

/// Migration 4: the aggregates' tables and columns, built from the rows already stored.
pub(super) const MIGRATION_4: &str = "
    ALTER TABLE players ADD COLUMN games INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE players ADD COLUMN folded TEXT NOT NULL DEFAULT '';
    UPDATE players SET games = (SELECT COUNT(DISTINCT s.log_id) FROM seats s WHERE s.player_id = players.id);
    CREATE INDEX players_games ON players(games DESC, name);
    CREATE INDEX players_folded ON players(folded);
    CREATE TABLE player_stats(
        player_id INTEGER NOT NULL REFERENCES players(id),
        game TEXT NOT NULL,
        block TEXT NOT NULL,
        PRIMARY KEY(player_id, game)
    ) WITHOUT ROWID;

    -- Each tournament's entries, valid entries and the games its standings count, kept by the
    -- triggers below as games, certificates and trusted keys are added (or keys taken away).
    ALTER TABLE tournaments ADD COLUMN games INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tournaments ADD COLUMN valid INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tournaments ADD COLUMN counted INTEGER NOT NULL DEFAULT 0;
    -- The tournament games that count in its standings: the entry counts for its game and a key
    -- the tournament trusts certified it valid (`tournaments::COUNTS_IN_STANDINGS`).
    CREATE TABLE tournament_counted(
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        log_id INTEGER NOT NULL REFERENCES logs(id),
        PRIMARY KEY(tournament_id, log_id)
    ) WITHOUT ROWID;
    INSERT INTO tournament_counted(tournament_id, log_id)
        SELECT tg.tournament_id, tg.log_id FROM tournament_games tg
        WHERE EXISTS (SELECT 1 FROM logs l WHERE l.id = tg.log_id AND l.counted = 1)
          AND EXISTS (SELECT 1 FROM certificates c JOIN tournament_keys k ON k.signer = c.signer
                      WHERE c.log_id = tg.log_id AND c.valid = 1 AND k.tournament_id = tg.tournament_id);
    UPDATE tournaments SET
        games = (SELECT COUNT(*) FROM tournament_games tg WHERE tg.tournament_id = tournaments.id),
        valid = (SELECT COUNT(*) FROM tournament_games tg JOIN verdicts v ON v.log_id = tg.log_id
                 WHERE tg.tournament_id = tournaments.id AND v.valid = 1),
        counted = (SELECT COUNT(*) FROM tournament_counted tc WHERE tc.tournament_id = tournaments.id);
    CREATE TRIGGER tournament_counted_add AFTER INSERT ON tournament_counted
        BEGIN UPDATE tournaments SET counted = counted + 1 WHERE id = NEW.tournament_id; END;
    CREATE TRIGGER tournament_counted_remove AFTER DELETE ON tournament_counted
        BEGIN UPDATE tournaments SET counted = counted - 1 WHERE id = OLD.tournament_id; END;
    -- A game added to a tournament (its verdict is stored before).
    CREATE TRIGGER tournament_game_added AFTER INSERT ON tournament_games BEGIN
        UPDATE tournaments SET games = games + 1,
            valid = valid + COALESCE((SELECT valid FROM verdicts WHERE log_id = NEW.log_id), 0)
            WHERE id = NEW.tournament_id;
        INSERT OR IGNORE INTO tournament_counted(tournament_id, log_id)
            SELECT NEW.tournament_id, NEW.log_id
            WHERE EXISTS (SELECT 1 FROM logs l WHERE l.id = NEW.log_id AND l.counted = 1)
              AND EXISTS (SELECT 1 FROM certificates c JOIN tournament_keys k ON k.signer = c.signer
                          WHERE c.log_id = NEW.log_id AND c.valid = 1 AND k.tournament_id = NEW.tournament_id);
    END;
    -- A certificate that says valid, in every tournament of the entry that trusts its signer.
    CREATE TRIGGER tournament_game_certified AFTER INSERT ON certificates WHEN NEW.valid = 1 BEGIN
        INSERT OR IGNORE INTO tournament_counted(tournament_id, log_id)
            SELECT tg.tournament_id, tg.log_id FROM tournament_games tg
            JOIN tournament_keys k ON k.tournament_id = tg.tournament_id AND k.signer = NEW.signer
            WHERE tg.log_id = NEW.log_id
              AND EXISTS (SELECT 1 FROM logs l WHERE l.id = NEW.log_id AND l.counted = 1);
    END;
    -- A key trusted: the tournament's games it certified valid.
    CREATE TRIGGER tournament_key_trusted AFTER INSERT ON tournament_keys BEGIN
        INSERT OR IGNORE INTO tournament_counted(tournament_id, log_id)
            SELECT tg.tournament_id, tg.log_id FROM tournament_games tg
            WHERE tg.tournament_id = NEW.tournament_id
              AND EXISTS (SELECT 1 FROM logs l WHERE l.id = tg.log_id AND l.counted = 1)
              AND EXISTS (SELECT 1 FROM certificates c
                          WHERE c.log_id = tg.log_id AND c.valid = 1 AND c.signer = NEW.signer);
    END;
    -- A key no longer trusted: the games no other key it trusts certified valid.
    CREATE TRIGGER tournament_key_dropped AFTER DELETE ON tournament_keys BEGIN
        DELETE FROM tournament_counted
            WHERE tournament_id = OLD.tournament_id
              AND NOT EXISTS (SELECT 1 FROM certificates c JOIN tournament_keys k ON k.signer = c.signer
                              WHERE c.log_id = tournament_counted.log_id AND c.valid = 1
                                AND k.tournament_id = OLD.tournament_id);
    END;";

/// Migration 4's code: folds every name, and adds up every counted game's statistics.
pub(super) fn build(conn: Db<'_>) -> Result<()> {
    conn.batch(MIGRATION_4)?;
    let names: Vec<(i64, String)> =
        conn.rows("SELECT id, name FROM players", params![], |r| Ok((r.get(0)?, r.get(1)?)))?;
    for (id, name) in names {
        conn.exec("UPDATE players SET folded = ?2 WHERE id = ?1", params![id, fold_name(&name)])?;
    }
    add_up_counted(conn)
}

/// Every counted game's statistics added to the players' (in chunks of 4096 games, so that
/// memory stays flat).
pub(super) fn add_up_counted(conn: Db<'_>) -> Result<()> {
    let mut pending = Pending::default();
    let mut n = 0u32;
    super::counted_games(conn, &super::Filter::default(), |g| {
        pending.counted(&g);
        n += 1;
        if n % 4096 == 0 {
            std::mem::take(&mut pending).write(conn)?;
        }
        Ok(())
    })?;
    pending.write(conn)
}
