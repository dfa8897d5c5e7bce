//! Counts kept as entries are stored, in the entries' transaction (issue 25), so that every count
//! a page shows is read from a few rows however many games the archive holds.
//!
//! - `list_counts`: for every games list the dashboard can show (a filter of game kind, verdict,
//!   player and tournament, each of which may be "any": a [`List`]), how many entries it holds,
//!   in all (`block` -1) and per block of consecutive entry numbers (`block` = the number shifted
//!   right by [`List::shift`]). The total is a list's count; the blocks place a page deep in it
//!   ("Games 500 001–500 050": the blocks above the page's first game, then that game's block
//!   counted row by row, at most a block's worth) and find where page *n* starts without
//!   skipping rows. A list of one player's games in one tournament keeps only its total (blocks
//!   for every player and tournament pair would outnumber the games); its place is counted from
//!   the rows, as few as that player has in that tournament.
//! - `kept_totals`: the rounds of every entry; the number of players and of tournaments (kept by
//!   triggers as they are made).
//! - `fault_counts`: invalid entries per fault code.
//!
//! The lists' members follow the archive's own rules (`counting.rs`): every entry is in the
//! lists of any player; a player's lists hold the lead entry of each game they sit in (a player
//! in two seats of a game once), so when the lead passes to another entry of the game, that
//! entry takes its place; a tournament's lists hold its entries. A transaction gathers its
//! changes here ([`Kept`]) and writes them once, before it commits (`Archive::write_kept`), with
//! the standings and Merkle roots it changed (`tournaments.rs`, `publish.rs`).

use super::db::{params, Db};
use super::{ArchiveError, Filter, Result};
use std::collections::{BTreeMap, BTreeSet};

/// A games list whose counts are kept: the entries matching a filter of game kind, verdict,
/// player and tournament, each of which may be any.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct List {
    /// The player's number; 0: any player.
    pub(super) player: i64,
    /// The tournament's number; 0: any tournament.
    pub(super) tournament: i64,
    /// The game kind; empty: any kind.
    pub(super) game: String,
    /// 1 valid, 0 invalid, -1 either.
    pub(super) valid: i64,
}

/// The block that holds a list's total.
const TOTAL: i64 = -1;

/// The kept counts' rows written by one statement (`Kept::write_counts`): 6 parameters each, far
/// below either backend's limit, and few distinct statement texts kept prepared.
const ROWS: usize = 64;

/// Blocks of the lists of every player and tournament, and of one player's or tournament's
/// (see [`List::shift`]); in the unit tests, blocks of 8 and 16 entries, so that a few dozen
/// games span many blocks.
const SHIFT_ALL: u32 = if cfg!(test) { 3 } else { 10 };
const SHIFT_PART: u32 = if cfg!(test) { 4 } else { 12 };

impl List {
    /// How many entry numbers a block of this list spans (log 2), or `None` for a list that
    /// keeps only its total. Lists of every player and tournament hold nearly every entry:
    /// small blocks (1 024), so that a page's block is counted quickly; a player's or a
    /// tournament's lists hold a part: larger blocks (4 096), fewer rows.
    pub(super) fn shift(&self) -> Option<u32> {
        match (self.player, self.tournament) {
            (0, 0) => Some(SHIFT_ALL),
            (0, _) | (_, 0) => Some(SHIFT_PART),
            _ => None,
        }
    }

    /// The first entry number past the block that holds entry `id`.
    pub(super) fn block_end(&self, id: i64) -> Option<i64> {
        self.shift().map(|s| ((id >> s) + 1) << s)
    }
}

/// Which kept list a filter shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Listed {
    /// This list.
    Kept(List),
    /// No entry can match (a player or tournament the archive does not have).
    Empty,
    /// A filter no list keeps (by the time entries were stored, the command line's `--since`):
    /// counted from the rows.
    Counted,
}

impl Listed {
    /// The list `filter` shows.
    pub(super) fn of(c: Db<'_>, filter: &Filter) -> Result<Listed> {
        if filter.since.is_some() || filter.game.as_deref() == Some("") {
            return Ok(Listed::Counted);
        }
        let id = |sql: &str, name: &Option<String>| -> Result<Option<i64>> {
            match name {
                None => Ok(Some(0)),
                Some(n) => c.opt(sql, [n], |r| r.get(0)),
            }
        };
        let (Some(player), Some(tournament)) = (
            id("SELECT id FROM players WHERE name = ?1", &filter.player)?,
            id("SELECT id FROM tournaments WHERE name = ?1", &filter.tournament)?,
        ) else {
            return Ok(Listed::Empty);
        };
        Ok(Listed::Kept(List {
            player,
            tournament,
            game: filter.game.clone().unwrap_or_default(),
            valid: filter.valid.map_or(-1, i64::from),
        }))
    }
}

/// What the lists know of an entry.
#[derive(Clone, Debug, Default)]
pub(super) struct Facts {
    pub(super) id: i64,
    pub(super) game: Option<String>,
    pub(super) valid: bool,
    /// Whether it is its game's lead entry (the one a player's list shows).
    pub(super) lead: bool,
    /// The players at it, each once.
    pub(super) players: Vec<i64>,
    /// The tournaments it is in.
    pub(super) tournaments: Vec<i64>,
}

impl Facts {
    /// Entry `id` as stored.
    pub(super) fn read(c: Db<'_>, id: i64) -> Result<Facts> {
        let (game, valid, lead) = super::row(
            c,
            "SELECT l.game, v.valid, l.lead FROM logs l JOIN verdicts v ON v.log_id = l.id WHERE l.id = ?1",
            [id],
            |r| Ok((r.get::<_, Option<String>>(0)?, r.get::<_, i64>(1)? != 0, r.get::<_, i64>(2)? != 0)),
        )?;
        let ids = |sql: &str| -> Result<Vec<i64>> { c.rows(sql, [id], |r| r.get(0)) };
        Ok(Facts {
            id,
            game,
            valid,
            lead,
            players: ids("SELECT DISTINCT player_id FROM seats WHERE log_id = ?1 ORDER BY player_id")?,
            tournaments: ids("SELECT tournament_id FROM tournament_games WHERE log_id = ?1 ORDER BY tournament_id")?,
        })
    }

    /// Each list of `players` (0: any) and `tournaments` (0: any) that holds this entry by its
    /// kind and verdict.
    fn lists(&self, players: &[i64], tournaments: &[i64], mut f: impl FnMut(List)) {
        let games: &[&str] = match self.game.as_deref() {
            // A kind's list; "any" is the empty name, which no kind has.
            Some(g) if !g.is_empty() => &["", g],
            _ => &[""],
        };
        for game in games {
            for valid in [-1, i64::from(self.valid)] {
                for &player in players {
                    for &tournament in tournaments {
                        f(List { player, tournament, game: (*game).to_owned(), valid });
                    }
                }
            }
        }
    }

    /// Any player (0), and each player at it when it leads its game.
    fn list_players(&self) -> Vec<i64> {
        std::iter::once(0).chain(self.players.iter().copied().filter(|_| self.lead)).collect()
    }
}

/// The changes a write transaction makes to what is kept, gathered as it goes and written once
/// before it commits.
#[derive(Default)]
pub(super) struct Kept {
    /// (list, block) -> entries added (or taken away).
    lists: BTreeMap<(List, i64), i64>,
    rounds: i64,
    /// Fault code -> invalid entries added.
    faults: BTreeMap<String, i64>,
    /// (tournament, entry, +1 or -1): the entry now counts in the tournament's standings, or
    /// no longer does.
    pub(super) standings: Vec<(i64, i64, i64)>,
    /// (tournament, entry): its manifest entry may have changed (`publish.rs`).
    pub(super) leaves: BTreeSet<(i64, i64)>,
    /// Tournaments whose every manifest entry may have changed (their trusted keys did).
    pub(super) tournaments: BTreeSet<i64>,
    /// Set while a migration older than the kept counts recounts games: nothing is gathered
    /// (the migration that made these tables counts everything from the rows).
    discard: bool,
}

impl Kept {
    /// A `Kept` that gathers nothing, for migrations from before these counts.
    pub(super) fn discarding() -> Kept {
        Kept { discard: true, ..Kept::default() }
    }

    fn add(&mut self, list: List, id: i64, n: i64) {
        if let Some(s) = list.shift() {
            *self.lists.entry((list.clone(), id >> s)).or_default() += n;
        }
        *self.lists.entry((list, TOTAL)).or_default() += n;
    }

    /// A new entry, with its rounds and, when invalid, its fault's code.
    pub(super) fn entry(&mut self, f: &Facts, rounds: i64, fault: Option<&str>) {
        if self.discard {
            return;
        }
        let tournaments: Vec<i64> = std::iter::once(0).chain(f.tournaments.iter().copied()).collect();
        let mut lists = Vec::new();
        f.lists(&f.list_players(), &tournaments, |l| lists.push(l));
        for l in lists {
            self.add(l, f.id, 1);
        }
        self.rounds += rounds;
        if !f.valid {
            *self.faults.entry(fault.unwrap_or_default().to_owned()).or_default() += 1;
        }
    }

    /// Entry `f` was put in tournament `t`.
    pub(super) fn joined(&mut self, f: &Facts, t: i64) {
        if self.discard {
            return;
        }
        let mut lists = Vec::new();
        f.lists(&f.list_players(), &[t], |l| lists.push(l));
        for l in lists {
            self.add(l, f.id, 1);
        }
        self.leaves.insert((t, f.id));
    }

    /// The lead of a game passed from entry `from` to entry `to` (either may be none): the
    /// players' lists hold `to` instead.
    pub(super) fn lead_moved(&mut self, c: Db<'_>, from: Option<i64>, to: Option<i64>) -> Result<()> {
        if self.discard {
            return Ok(());
        }
        for (id, n) in [(from, -1), (to, 1)] {
            let Some(id) = id else { continue };
            let f = Facts::read(c, id)?;
            let tournaments: Vec<i64> = std::iter::once(0).chain(f.tournaments.iter().copied()).collect();
            let mut lists = Vec::new();
            f.lists(&f.players, &tournaments, |l| lists.push(l));
            for l in lists {
                self.add(l, id, n);
            }
        }
        Ok(())
    }

    /// Entry `id` counts in tournament `t`'s standings now (`n` 1), or no longer (-1).
    pub(super) fn counted_in(&mut self, t: i64, id: i64, n: i64) {
        if self.discard {
            return;
        }
        self.standings.push((t, id, n));
        self.leaves.insert((t, id));
    }

    /// Entry `id` has a new certificate: its manifest entry in each of its tournaments may list it.
    pub(super) fn certified(&mut self, c: Db<'_>, id: i64) -> Result<()> {
        if self.discard {
            return Ok(());
        }
        let ts: Vec<i64> =
            c.rows("SELECT tournament_id FROM tournament_games WHERE log_id = ?1", [id], |r| r.get(0))?;
        self.leaves.extend(ts.into_iter().map(|t| (t, id)));
        Ok(())
    }

    /// Tournament `t` trusts other keys: each of its manifest entries may list other certificates.
    pub(super) fn keys_changed(&mut self, t: i64) {
        if !self.discard {
            self.tournaments.insert(t);
        }
    }

    /// Writes the lists' counts, the rounds and the faults gathered (the standings and roots are
    /// written by their modules).
    pub(super) fn write_counts(&self, c: Db<'_>) -> Result<()> {
        let changed: Vec<(&(List, i64), &i64)> = self.lists.iter().filter(|(_, n)| **n != 0).collect();
        // Many rows to a statement (one round trip to PostgreSQL for up to `ROWS`): each a
        // distinct key (the map's), so that no row is updated twice by one statement.
        for chunk in changed.chunks(ROWS) {
            let values = (0..chunk.len())
                .map(|i| {
                    let k = 6 * i;
                    format!("(?{}, ?{}, ?{}, ?{}, ?{}, ?{})", k + 1, k + 2, k + 3, k + 4, k + 5, k + 6)
                })
                .collect::<Vec<_>>()
                .join(", ");
            let sql = format!(
                "INSERT INTO list_counts(player_id, tournament_id, game, valid, block, n) VALUES {values}
                 ON CONFLICT(player_id, tournament_id, game, valid, block) DO UPDATE SET n = list_counts.n + excluded.n
                 RETURNING player_id, tournament_id, game, valid, block, n"
            );
            let mut p = Vec::with_capacity(6 * chunk.len());
            for ((l, block), n) in chunk {
                p.extend(params![l.player, l.tournament, l.game, l.valid, block, **n]);
            }
            let rows: Vec<(List, i64, i64)> = c.rows(&sql, p, |r| {
                let l = List { player: r.get(0)?, tournament: r.get(1)?, game: r.get(2)?, valid: r.get(3)? };
                Ok((l, r.get(4)?, r.get(5)?))
            })?;
            for (l, block, now) in rows {
                if now < 0 {
                    return Err(ArchiveError::Corrupt(format!("a kept count fell below zero: {l:?}, block {block}")));
                }
                if now == 0 {
                    c.exec(
                        "DELETE FROM list_counts WHERE player_id = ?1 AND tournament_id = ?2 AND game = ?3 AND valid = ?4
                                                       AND block = ?5",
                        params![l.player, l.tournament, l.game, l.valid, block],
                    )?;
                }
            }
        }
        if self.rounds != 0 {
            super::exec(c, "UPDATE kept_totals SET n = n + ?1 WHERE name = 'rounds'", [self.rounds])?;
        }
        for (code, n) in &self.faults {
            super::exec(
                c,
                "INSERT INTO fault_counts(code, n) VALUES (?1, ?2)
                 ON CONFLICT(code) DO UPDATE SET n = fault_counts.n + excluded.n",
                params![code, n],
            )?;
        }
        Ok(())
    }
}

/// How many entries list `l` holds.
pub(super) fn total(c: Db<'_>, l: &List) -> Result<u64> {
    let n: Option<i64> = c.opt(
        "SELECT n FROM list_counts WHERE player_id = ?1 AND tournament_id = ?2 AND game = ?3 AND valid = ?4
                                     AND block = -1",
        params![l.player, l.tournament, l.game, l.valid],
        |r| r.get(0),
    )?;
    Ok(n.unwrap_or(0).max(0) as u64)
}

/// How many entries of list `l` are in the blocks after the one that holds entry `id` (all of
/// them newer than it); `None` for a list that keeps no blocks.
pub(super) fn in_later_blocks(c: Db<'_>, l: &List, id: i64) -> Result<Option<u64>> {
    let Some(s) = l.shift() else { return Ok(None) };
    let n: i64 = super::row(
        c,
        "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM list_counts
         WHERE player_id = ?1 AND tournament_id = ?2 AND game = ?3 AND valid = ?4 AND block > ?5",
        params![l.player, l.tournament, l.game, l.valid, id >> s],
        |r| r.get(0),
    )?;
    Ok(Some(n.max(0) as u64))
}

/// Where the entry `offset` places from the newest of list `l` is: the first entry number past
/// its block, and how many entries of the list the later blocks hold (fewer than `offset`, or
/// as many). `None` for a list that keeps no blocks, or an offset past its end. The blocks are
/// read newest first a few at a time, so that the first pages, the ones asked for most, read a
/// row or two and not one per block of the whole list (1 000 at a million games: 4 ms on
/// PostgreSQL for the home page's newest games).
pub(super) fn locate(c: Db<'_>, l: &List, offset: u64) -> Result<Option<(i64, u64)>> {
    /// Blocks read at a time: the first read covers the first 64 x 1 024 entries of a full list
    /// (3 in the tests, whose blocks are small, so that their deep pages take several reads).
    const STEP: i64 = if cfg!(test) { 3 } else { 64 };
    let Some(s) = l.shift() else { return Ok(None) };
    let mut later = 0u64;
    let mut below = i64::MAX;
    loop {
        let rows: Vec<(i64, i64)> = c.rows(
            "SELECT block, n FROM list_counts WHERE player_id = ?1 AND tournament_id = ?2 AND game = ?3 AND valid = ?4
                                                  AND block >= 0 AND block < ?5
             ORDER BY block DESC LIMIT ?6",
            params![l.player, l.tournament, l.game, l.valid, below, STEP],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        for &(block, n) in &rows {
            let n = n.max(0) as u64;
            if later + n > offset {
                return Ok(Some(((block + 1) << s, later)));
            }
            later += n;
        }
        match rows.last() {
            Some(&(block, _)) if rows.len() as i64 == STEP => below = block,
            _ => return Ok(None),
        }
    }
}

/// A total kept in `kept_totals` (`rounds`, `players`, `tournaments`).
pub(super) fn kept_total(c: Db<'_>, name: &str) -> Result<u64> {
    let n: Option<i64> = c.opt("SELECT n FROM kept_totals WHERE name = ?1", [name], |r| r.get(0))?;
    Ok(n.unwrap_or(0).max(0) as u64)
}

/// Migration 8's tables; the counts are then added up from the stored rows (`schema.rs`).
pub(super) const MIGRATION_8: &str = "
    CREATE TABLE list_counts(
        player_id INTEGER NOT NULL,
        tournament_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        valid INTEGER NOT NULL,
        block INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY(player_id, tournament_id, game, valid, block)
    ) WITHOUT ROWID;
    CREATE TABLE kept_totals(name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
    INSERT INTO kept_totals(name, n) VALUES
        ('rounds', 0),
        ('players', (SELECT COUNT(*) FROM players)),
        ('tournaments', (SELECT COUNT(*) FROM tournaments));
    CREATE TRIGGER players_kept_total AFTER INSERT ON players
        BEGIN UPDATE kept_totals SET n = n + 1 WHERE name = 'players'; END;
    CREATE TRIGGER tournaments_kept_total AFTER INSERT ON tournaments
        BEGIN UPDATE kept_totals SET n = n + 1 WHERE name = 'tournaments'; END;
    CREATE TABLE fault_counts(code TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;

    -- Each tournament's standings, a line per game, ruleset and player over the entries its
    -- standings count, and how its counted riichi games count final points (`tournaments.rs`).
    CREATE TABLE tournament_standings(
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        game TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id),
        games INTEGER NOT NULL,
        firsts INTEGER NOT NULL,
        placement_sum INTEGER NOT NULL,
        total_score INTEGER NOT NULL,
        points INTEGER NOT NULL,
        point_games INTEGER NOT NULL,
        PRIMARY KEY(tournament_id, game, ruleset, player_id)
    ) WITHOUT ROWID;
    CREATE TABLE tournament_terms(
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        ruleset TEXT NOT NULL,
        terms TEXT NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY(tournament_id, ruleset, terms)
    ) WITHOUT ROWID;

    -- Each tournament entry's manifest file name and leaf, and each tournament's Merkle root
    -- over them (`publish.rs`).
    ALTER TABLE tournament_games ADD COLUMN file TEXT;
    ALTER TABLE tournament_games ADD COLUMN leaf BLOB;
    CREATE INDEX tournament_games_leaves ON tournament_games(tournament_id, file, log_id, leaf);
    ALTER TABLE tournaments ADD COLUMN root TEXT;";

/// Migration 8's counts from the stored rows: every entry as a new one would be counted, its
/// tournaments with it, 4 096 entries at a time.
pub(super) fn count_stored(c: Db<'_>) -> Result<()> {
    // (SQLite's: migration 8 runs only there; PostgreSQL's schema begins with these counts.)
    let sql = "SELECT l.id, l.game, v.valid, l.lead, v.rounds, v.fault_code,
                (SELECT group_concat(player_id) FROM (SELECT DISTINCT player_id FROM seats WHERE log_id = l.id)),
                (SELECT group_concat(tournament_id) FROM tournament_games WHERE log_id = l.id)
         FROM logs l JOIN verdicts v ON v.log_id = l.id WHERE l.id > ?1 ORDER BY l.id LIMIT 4096";
    let ids = |text: Option<String>| -> Vec<i64> {
        let mut v: Vec<i64> = text.unwrap_or_default().split(',').filter_map(|s| s.parse().ok()).collect();
        v.sort_unstable();
        v
    };
    let mut after = 0i64;
    let mut kept = Kept::default();
    loop {
        let rows = c.rows(sql, [after], |r| {
            let f = Facts {
                id: r.get(0)?,
                game: r.get(1)?,
                valid: r.get::<_, i64>(2)? != 0,
                lead: r.get::<_, i64>(3)? != 0,
                players: ids(r.get(6)?),
                tournaments: ids(r.get(7)?),
            };
            let fault: Option<String> = r.get(5)?;
            Ok((f, r.get::<_, i64>(4)?, fault))
        })?;
        let Some(last) = rows.last().map(|(f, _, _)| f.id) else { break };
        for (f, rounds, fault) in rows {
            kept.entry(&f, rounds, fault.as_deref());
        }
        after = last;
        if kept.lists.len() > 1 << 18 {
            std::mem::take(&mut kept).write_counts(c)?;
        }
    }
    kept.write_counts(c)
}
