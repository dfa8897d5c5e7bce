//! Games in progress (issue 17, "Watch it live"): each is its log so far, held as the host
//! played it: the header line and one line per record, each record with the time it was played
//! (milliseconds since the Unix epoch). The host begins a game ([`Archive::live_begin`]), sends
//! each record as it is played ([`Archive::live_record`]) and ends it ([`Archive::live_end`])
//! before it stores the finished log through the normal ingest; the dashboard reads them
//! ([`Archive::live_games`], [`Archive::live_log`]), up to a cut-off time for a delayed public
//! view.
//!
//! The lines are untrusted text: a header must read as a Paifu header of a game this Paifu
//! knows, with seat names the archive keeps; a record line must read as a record line carrying
//! its own sequence number; no line is longer than the log reader accepts (1 MiB) or holds a
//! line break. A seed in the header (a host should send only its commitment) is taken out of
//! it before anything is stored as the header: the header stored and every text read back
//! carry the commitment only. The seed is kept apart so that the server can rebuild positions
//! ([`Archive::live_replay_log`], for the engine only), and goes with the live rows.

use super::db::{params, Db};
use super::names::{check_name, NameKind};
use super::{Archive, ArchiveError, Result};
use paifu_core::log::{header_line, read_jsonl_header, Claim, Header, MAX_ITEM_BYTES};
use paifu_core::{GameKind, Seed};
use serde::{Deserialize, Serialize};

/// The longest key a host may name a game by.
const MAX_KEY_BYTES: usize = 1024;

/// A game in progress, as the live list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LiveGame {
    /// Its number among the games in progress (never reused, kept when the host begins it again).
    pub id: i64,
    /// The host's name for it (`DIR/game-0003`).
    pub key: String,
    /// The game kind (`riichi`, `tzq`, ...) and ruleset of its header.
    pub game: String,
    pub ruleset: String,
    /// The seat names, in seat order.
    pub seats: Vec<String>,
    /// Records played up to the cut-off asked for (all of them without one).
    pub records: u64,
    /// Records played after the cut-off: held back.
    pub held_back: u64,
    /// When the host began it, milliseconds since the Unix epoch.
    pub started_ms: i64,
    /// When the last record counted in `records` was played (the start when none is).
    pub updated_ms: i64,
}

/// A line of a game in progress that the archive refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LiveRefusal {
    #[error("a live game's key must be 1 to {MAX_KEY_BYTES} bytes without control characters")]
    Key,
    #[error("{what} is {len} bytes long: a line of a log is at most 1 MiB")]
    TooLong { what: String, len: usize },
    #[error("{what} holds a line break at byte {at}: it must be one line")]
    LineBreak { what: String, at: usize },
    #[error("the live game's header is not a Paifu header: {0}")]
    Header(String),
    #[error("the live game's header names the game {0:?}, which this Paifu does not know")]
    UnknownGame(String),
    #[error("record {seq} of live game {id} is not a record line: {why}")]
    Record { id: i64, seq: u32, why: String },
    #[error("the line sent as record {seq} of live game {id} carries sequence number {found}")]
    Seq { id: i64, seq: u32, found: u32 },
    #[error("record {seq} of live game {id} arrives before record {next}: records are sent in order")]
    Gap { id: i64, seq: u32, next: u32 },
    #[error("record {seq} of live game {id} is stored already with a different line: a record never changes")]
    Conflict { id: i64, seq: u32 },
}

/// A record line as the log reader reads it (see `paifu_core::log::record_line`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // Read to check the line; only `seq` is used.
struct RecordLine {
    seq: u32,
    seat: u8,
    action: String,
    #[serde(default)]
    claim: Option<Claim>,
}

/// A message about untrusted text, cut short: an error never repeats much of what was sent.
fn brief(s: &str) -> String {
    match s.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_owned(),
    }
}

/// One line of text, its newline taken off, checked for length and line breaks.
fn one_line<'a>(text: &'a str, what: &str) -> std::result::Result<&'a str, LiveRefusal> {
    let line = text.strip_suffix('\n').unwrap_or(text);
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.len() > MAX_ITEM_BYTES {
        return Err(LiveRefusal::TooLong { what: what.to_owned(), len: line.len() });
    }
    if let Some(at) = line.find(['\n', '\r']) {
        return Err(LiveRefusal::LineBreak { what: what.to_owned(), at });
    }
    Ok(line)
}

/// The header as stored: read, checked, its seed (if the host sent one) taken out and answered
/// apart, its commitment kept (made from the seed when the host sent none).
fn checked_header(text: &str) -> Result<(Header, Option<Seed>)> {
    let line = one_line(text, "the live game's header")?;
    let mut h = read_jsonl_header(line).map_err(|f| LiveRefusal::Header(f.describe()))?;
    if GameKind::from_name(&h.game).is_none() {
        return Err(LiveRefusal::UnknownGame(h.game).into());
    }
    for name in &h.seats {
        check_name(NameKind::Player, name)?;
    }
    h.check_seed().map_err(|f| LiveRefusal::Header(f.describe()))?;
    let seed = h.seed.take();
    if let Some(s) = &seed {
        h.commitment.get_or_insert(s.commitment());
    }
    Ok((h, seed))
}

/// One record of a game in progress as stored: when it was played, its line.
struct Row {
    at: i64,
    line: String,
}

/// The records of live game `id`, in order.
fn rows(db: Db<'_>, id: i64) -> Result<Vec<Row>> {
    db.rows("SELECT at, line FROM live_records WHERE game_id = ?1 ORDER BY seq", [id], |r| {
        Ok(Row { at: r.get(0)?, line: r.get(1)? })
    })
}

/// The first record played after the cut-off `upto_ms` (none without one): the records before
/// it are shown, it and those after are held back (shown in order: a record played before the
/// cut-off after one played after it waits for it).
fn cut(rows: &[Row], upto_ms: Option<i64>) -> usize {
    let upto = upto_ms.unwrap_or(i64::MAX);
    rows.iter().position(|r| r.at > upto).unwrap_or(rows.len())
}

/// Which records the public sees while the game is in progress: not a pass on a claim (nobody
/// at the table sees who passed, docs/protocol.md), nor an incident followed by a pass of its
/// seat (it would tell that the seat was asked), nor an incident that is the last record so far
/// (its pass may follow). The host stored every record; the whole log is public once stored.
fn public(rows: &[Row]) -> Vec<bool> {
    #[derive(Deserialize)]
    struct Seen {
        seat: u8,
        action: String,
    }
    let read: Vec<Option<Seen>> = rows.iter().map(|r| serde_json::from_str::<Seen>(&r.line).ok()).collect();
    let is_pass = |i: usize| read.get(i).and_then(Option::as_ref).is_some_and(|r| r.action == "pass");
    (0..rows.len())
        .map(|i| match &read[i] {
            Some(r) if r.action == "pass" => false,
            Some(r) if r.action.starts_with("incident") => {
                i + 1 < rows.len() && !(is_pass(i + 1) && read[i + 1].as_ref().is_some_and(|n| n.seat == r.seat))
            }
            _ => true,
        })
        .collect()
}

impl Archive {
    /// Begins the game in progress the host calls `key`, from its header line (JSON Lines, as
    /// `paifu_core::log::header_line` writes it), at `at_ms`; answers its number. A key that is
    /// in progress already is begun again under the same number, its records dropped: a
    /// resumed game starts again from its journal and the host sends every record again.
    ///
    /// Refuses a key that is empty, too long or holds control characters, and a header that
    /// does not read as a Paifu header of a known game with seat names the archive keeps. A
    /// seed in the header is taken out of it (see the module's documentation).
    pub fn live_begin(&mut self, key: &str, header_line_text: &str, at_ms: i64) -> Result<i64> {
        if key.is_empty() || key.len() > MAX_KEY_BYTES || key.chars().any(char::is_control) {
            return Err(LiveRefusal::Key.into());
        }
        let (h, seed) = checked_header(header_line_text)?;
        let stored = header_line(&h);
        let seats = serde_json::to_string(&h.seats).map_err(|e| ArchiveError::Corrupt(e.to_string()))?;
        let seed = seed.map(|s| s.to_hex());
        self.write(|tx| {
            let existing: Option<i64> = tx.opt("SELECT id FROM live_games WHERE key = ?1", [key], |r| r.get(0))?;
            match existing {
                Some(id) => {
                    tx.exec("DELETE FROM live_records WHERE game_id = ?1", [id])?;
                    tx.exec(
                        "UPDATE live_games SET game = ?2, ruleset = ?3, seats = ?4, header = ?5, seed = ?6,
                                started_at = ?7, updated_at = ?7 WHERE id = ?1",
                        params![id, h.game, h.ruleset, seats, stored, seed, at_ms],
                    )?;
                    Ok(id)
                }
                None => tx.row(
                    "INSERT INTO live_games(key, game, ruleset, seats, header, seed, started_at, updated_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7) RETURNING id",
                    params![key, h.game, h.ruleset, seats, stored, seed, at_ms],
                    |r| r.get(0),
                ),
            }
        })
    }

    /// Adds record `seq` (0 for the first) of game in progress `id`: its line (JSON Lines, as
    /// `paifu_core::log::record_line` writes it), played at `at_ms`. Sending a record again
    /// with the same line changes nothing; a different line at a stored `seq` is refused, and
    /// so is a record sent before the ones ahead of it, a line that is not a record line, and
    /// one whose sequence number is not `seq`.
    pub fn live_record(&mut self, id: i64, seq: u32, line: &str, at_ms: i64) -> Result<()> {
        let what = format!("record {seq} of live game {id}");
        let line = one_line(line, &what)?;
        let r: RecordLine =
            serde_json::from_str(line).map_err(|e| LiveRefusal::Record { id, seq, why: brief(&e.to_string()) })?;
        if r.seq != seq {
            return Err(LiveRefusal::Seq { id, seq, found: r.seq }.into());
        }
        self.write(|tx| {
            if tx.opt("SELECT 1 FROM live_games WHERE id = ?1", [id], |_| Ok(()))?.is_none() {
                return Err(ArchiveError::NoLiveGame(id));
            }
            let stored: Option<String> =
                tx.opt("SELECT line FROM live_records WHERE game_id = ?1 AND seq = ?2", params![id, seq], |r| r.get(0))?;
            match stored {
                Some(s) if s == line => return Ok(()),
                Some(_) => return Err(LiveRefusal::Conflict { id, seq }.into()),
                None => {}
            }
            let next: i64 = tx.row("SELECT COUNT(*) FROM live_records WHERE game_id = ?1", [id], |r| r.get(0))?;
            if i64::from(seq) != next {
                return Err(LiveRefusal::Gap { id, seq, next: u32::try_from(next).unwrap_or(u32::MAX) }.into());
            }
            tx.exec(
                "INSERT INTO live_records(game_id, seq, line, at) VALUES (?1, ?2, ?3, ?4)",
                params![id, seq, line, at_ms],
            )?;
            // The later of the two (SQLite's two-argument MAX is PostgreSQL's GREATEST).
            tx.exec(
                "UPDATE live_games SET updated_at = CASE WHEN updated_at < ?2 THEN ?2 ELSE updated_at END WHERE id = ?1",
                params![id, at_ms],
            )?;
            Ok(())
        })
    }

    /// Ends game in progress `id`: its live rows go (the host then stores the finished log
    /// through the normal ingest). An id that is not in progress is refused
    /// ([`ArchiveError::NoLiveGame`]).
    pub fn live_end(&mut self, id: i64) -> Result<()> {
        self.write(|tx| {
            tx.exec("DELETE FROM live_records WHERE game_id = ?1", [id])?;
            if tx.exec("DELETE FROM live_games WHERE id = ?1", [id])? == 0 {
                return Err(ArchiveError::NoLiveGame(id));
            }
            Ok(())
        })
    }

    /// Ends the game in progress the host calls `key`, if there is one (a resumed host ends the
    /// live row of a game the killed one finished); answers whether there was.
    pub fn live_end_key(&mut self, key: &str) -> Result<bool> {
        let id: Option<i64> = self.db().opt("SELECT id FROM live_games WHERE key = ?1", [key], |r| r.get(0))?;
        match id {
            Some(id) => self.live_end(id).map(|()| true),
            None => Ok(false),
        }
    }

    /// The games in progress, oldest first, their records counted up to the cut-off `upto_ms`
    /// (records played after it are held back; all are counted without one).
    pub fn live_games(&self, upto_ms: Option<i64>) -> Result<Vec<LiveGame>> {
        let ids: Vec<i64> = self.db().rows("SELECT id FROM live_games ORDER BY id", params![], |r| r.get(0))?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            // A game ended between the two reads is left out.
            out.extend(self.live_game(id, upto_ms)?);
        }
        Ok(out)
    }

    /// One game in progress, its records counted up to the cut-off `upto_ms`; `None` when it
    /// is not in progress (it ended, or never began).
    pub fn live_game(&self, id: i64, upto_ms: Option<i64>) -> Result<Option<LiveGame>> {
        let row =
            self.db().opt("SELECT key, game, ruleset, seats, started_at FROM live_games WHERE id = ?1", [id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            })?;
        let Some((key, game, ruleset, seats, started_ms)) = row else { return Ok(None) };
        let rows = rows(self.db(), id)?;
        let (cut, public) = (cut(&rows, upto_ms), public(&rows));
        let records = public[..cut].iter().filter(|p| **p).count() as u64;
        let held_back = public[cut..].iter().filter(|p| **p).count() as u64;
        let updated_ms = (0..cut).rev().find(|&i| public[i]).map_or(started_ms, |i| rows[i].at);
        Ok(Some(LiveGame {
            id,
            key,
            game,
            ruleset,
            seats: super::parse_json(&seats, "a live game's seats")?,
            records,
            held_back,
            started_ms,
            updated_ms,
        }))
    }

    /// What the public sees of game in progress `id` so far, as JSON Lines text: the header,
    /// without a seed, then the records played at or before `upto_ms` (all of them without a
    /// cut-off, else those before the first played after it) but those the table does not see
    /// (a pass on a claim, an incident that tells a seat was asked: see [`LiveGame`]'s counts);
    /// and the number of such records held back. `None` when it is not in progress.
    pub fn live_log(&self, id: i64, upto_ms: Option<i64>) -> Result<Option<(String, usize)>> {
        self.live_text(id, upto_ms, false)
    }

    /// Every record of game in progress `id` up to the cut-off (passes too), with the seed put
    /// back into the header when the host sent one: for rebuilding positions with the engine on
    /// the server, never to be shown or sent (a seed known before the game ends tells every tile
    /// to come); and the number of records held back.
    pub fn live_replay_log(&self, id: i64, upto_ms: Option<i64>) -> Result<Option<(String, usize)>> {
        self.live_text(id, upto_ms, true)
    }

    fn live_text(&self, id: i64, upto_ms: Option<i64>, whole: bool) -> Result<Option<(String, usize)>> {
        let row = self.db().opt("SELECT header, seed FROM live_games WHERE id = ?1", [id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
        })?;
        let Some((mut text, seed)) = row else { return Ok(None) };
        if let (true, Some(seed)) = (whole, seed) {
            let mut h = read_jsonl_header(&text).map_err(|f| ArchiveError::Corrupt(f.describe()))?;
            h.seed = Some(seed.parse().map_err(|_| ArchiveError::Corrupt(format!("live game {id}'s seed")))?);
            text = header_line(&h);
        }
        let rows = rows(self.db(), id)?;
        let (cut, public) = (cut(&rows, upto_ms), public(&rows));
        let shown = |i: usize| whole || public[i];
        for (_, r) in rows[..cut].iter().enumerate().filter(|(i, _)| shown(*i)) {
            text.push_str(&r.line);
            text.push('\n');
        }
        let held = (cut..rows.len()).filter(|&i| shown(i)).count();
        Ok(Some((text, held)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::db::params;
    use super::super::schema;
    use super::super::tests::{on_both_backends, temp_archive, Backend};
    use super::*;
    use crate::samples::tzq_log;
    use paifu_core::log::{decode, encode, record_line, Encoding};
    use rusqlite::Connection;

    on_both_backends!(
        a_game_is_begun_recorded_and_ended,
        a_record_sent_again_changes_nothing_and_a_different_one_is_refused,
        beginning_a_key_again_replaces_the_game_under_its_number,
        a_cut_off_holds_back_the_records_played_after_it,
        a_header_is_checked_and_its_seed_kept_apart,
    );

    /// A TZQ game's header line as the host writes it (the commitment, no seed), and its record
    /// lines.
    fn game(label: &str) -> (paifu_core::log::Log<paifu_core::tzq::Action>, String, Vec<String>) {
        let log = tzq_log(label, ["Ann", "Bo"]);
        let mut h = log.header.clone();
        h.seed = None;
        let lines = log.records.iter().map(record_line).collect();
        (log.clone(), header_line(&h), lines)
    }

    fn a_game_is_begun_recorded_and_ended(b: Backend) {
        let (_d, mut a) = temp_archive(b);
        let (log, header, lines) = game("live/round-trip");
        let id = a.live_begin("dir/game-0001", &header, 1_000).unwrap();
        assert_eq!(a.live_log(id, None).unwrap(), Some((header.clone(), 0)));
        for (i, l) in lines.iter().enumerate() {
            a.live_record(id, i as u32, l, 2_000 + i as i64).unwrap();
        }
        let g = a.live_game(id, None).unwrap().unwrap();
        assert_eq!(
            g,
            LiveGame {
                id,
                key: "dir/game-0001".into(),
                game: "tzq".into(),
                ruleset: log.header.ruleset.clone(),
                seats: vec!["Ann".into(), "Bo".into()],
                records: lines.len() as u64,
                held_back: 0,
                started_ms: 1_000,
                updated_ms: 2_000 + lines.len() as i64 - 1,
            }
        );
        assert_eq!(a.live_games(None).unwrap(), vec![g]);
        // The log so far is the log as the host wrote it: it decodes to the same records.
        let (text, held) = a.live_log(id, None).unwrap().unwrap();
        assert_eq!(held, 0);
        assert_eq!(text, header.clone() + &lines.concat());
        let (read, _) = decode::<paifu_core::tzq::Action>(text.as_bytes()).unwrap();
        assert_eq!(read.records, log.records);
        assert_eq!(read.header.commitment, log.header.commitment);
        a.live_end(id).unwrap();
        assert_eq!(a.live_log(id, None).unwrap(), None);
        assert!(a.live_games(None).unwrap().is_empty());
        assert!(matches!(a.live_end(id), Err(ArchiveError::NoLiveGame(n)) if n == id));
        assert!(matches!(a.live_record(id, 0, &lines[0], 0), Err(ArchiveError::NoLiveGame(_))));
        // Numbers are never reused: a game begun next is a new one.
        assert!(a.live_begin("dir/game-0002", &header, 5_000).unwrap() > id);
        // No live row is left of the ended game.
        let left: i64 = a.db().row("SELECT COUNT(*) FROM live_records WHERE game_id = ?1", [id], |r| r.get(0)).unwrap();
        assert_eq!(left, 0);
    }

    fn a_record_sent_again_changes_nothing_and_a_different_one_is_refused(b: Backend) {
        let (_d, mut a) = temp_archive(b);
        let (_, header, lines) = game("live/idempotent");
        let id = a.live_begin("k", &header, 0).unwrap();
        a.live_record(id, 0, &lines[0], 10).unwrap();
        a.live_record(id, 1, &lines[1], 20).unwrap();
        // Again, with or without its newline and at another time: nothing changes.
        a.live_record(id, 0, lines[0].trim_end(), 99).unwrap();
        a.live_record(id, 1, &lines[1], 99).unwrap();
        let g = a.live_game(id, None).unwrap().unwrap();
        assert_eq!((g.records, g.updated_ms), (2, 20));
        // Record 1's place holds another line: refused, the stored one kept.
        let e = a.live_record(id, 1, &lines[2].replace("\"seq\":2", "\"seq\":1"), 30).unwrap_err();
        assert!(matches!(e, ArchiveError::Live(LiveRefusal::Conflict { seq: 1, .. })), "{e}");
        assert!(e.to_string().contains("record 1 of live game"), "{e}");
        assert_eq!(a.live_log(id, None).unwrap().unwrap().0, header.clone() + &lines[..2].concat());
        // Out of order, a wrong sequence number, not a record, two lines, too long.
        let e = a.live_record(id, 3, &lines[3], 40).unwrap_err();
        assert!(matches!(e, ArchiveError::Live(LiveRefusal::Gap { seq: 3, next: 2, .. })), "{e}");
        let e = a.live_record(id, 2, &lines[3], 40).unwrap_err();
        assert!(matches!(e, ArchiveError::Live(LiveRefusal::Seq { seq: 2, found: 3, .. })), "{e}");
        let e = a.live_record(id, 2, "{\"seq\":2,\"seat\":0,\"action\":\"draw\",\"extra\":1}", 40).unwrap_err();
        assert!(matches!(e, ArchiveError::Live(LiveRefusal::Record { seq: 2, .. })), "{e}");
        assert!(e.to_string().contains("unknown field"), "{e}");
        let e = a.live_record(id, 2, &(lines[2].clone() + &lines[3]), 40).unwrap_err();
        assert!(matches!(e, ArchiveError::Live(LiveRefusal::LineBreak { .. })), "{e}");
        let long = format!("{{\"seq\":2,\"seat\":0,\"action\":\"{}\"}}", "x".repeat(MAX_ITEM_BYTES));
        let e = a.live_record(id, 2, &long, 40).unwrap_err();
        assert!(matches!(e, ArchiveError::Live(LiveRefusal::TooLong { .. })), "{e}");
        assert_eq!(a.live_game(id, None).unwrap().unwrap().records, 2, "nothing refused was stored");
        a.live_record(id, 2, &lines[2], 50).unwrap();
    }

    fn beginning_a_key_again_replaces_the_game_under_its_number(b: Backend) {
        let (_d, mut a) = temp_archive(b);
        let (_, header, lines) = game("live/first");
        let (_, other, other_lines) = game("live/resumed");
        let id = a.live_begin("dir/game-0003", &header, 0).unwrap();
        let beside = a.live_begin("dir/game-0004", &header, 0).unwrap();
        for (i, l) in lines[..5].iter().enumerate() {
            a.live_record(id, i as u32, l, 10).unwrap();
        }
        a.live_record(beside, 0, &lines[0], 10).unwrap();
        assert_eq!(a.live_begin("dir/game-0003", &other, 100).unwrap(), id);
        let g = a.live_game(id, None).unwrap().unwrap();
        assert_eq!((g.records, g.started_ms, g.updated_ms), (0, 100, 100));
        assert_eq!(a.live_log(id, None).unwrap().unwrap().0, other);
        // The records are sent again from the first; the other game is untouched.
        a.live_record(id, 0, &other_lines[0], 110).unwrap();
        assert_eq!(a.live_game(beside, None).unwrap().unwrap().records, 1);
        assert_eq!(a.live_games(None).unwrap().len(), 2);
    }

    fn a_cut_off_holds_back_the_records_played_after_it(b: Backend) {
        let (_d, mut a) = temp_archive(b);
        let (_, header, lines) = game("live/delay");
        let id = a.live_begin("k", &header, 1_000).unwrap();
        // Played at 1 000, 2 000, ... ms; record 3's clock stepped back.
        let times = [1_000, 2_000, 3_000, 2_500, 5_000, 6_000];
        for (i, t) in times.iter().enumerate() {
            a.live_record(id, i as u32, &lines[i], *t).unwrap();
        }
        let cut = |upto| {
            let (text, held) = a.live_log(id, Some(upto)).unwrap().unwrap();
            let g = a.live_game(id, Some(upto)).unwrap().unwrap();
            assert_eq!((g.records + g.held_back, g.held_back as usize), (6, held));
            (text, held, g.updated_ms)
        };
        assert_eq!(cut(999), (header.clone(), 6, 1_000), "nothing played yet at the cut-off");
        assert_eq!(cut(1_000), (header.clone() + &lines[0], 5, 1_000), "played at the cut-off: shown");
        assert_eq!(cut(2_999), (header.clone() + &lines[..2].concat(), 4, 2_000));
        // Records are shown in order: the one before the cut-off after a later one waits for it.
        assert_eq!(cut(3_000), (header.clone() + &lines[..4].concat(), 2, 2_500));
        assert_eq!(cut(i64::MAX), (header.clone() + &lines[..6].concat(), 0, 6_000));
        assert_eq!(a.live_games(Some(2_999)).unwrap()[0].records, 2);
    }

    fn a_header_is_checked_and_its_seed_kept_apart(b: Backend) {
        let (_d, mut a) = temp_archive(b);
        let log = tzq_log("live/seed", ["Ann", "Bo"]);
        let seed = log.header.seed.unwrap();
        let with_seed = header_line(&log.header);
        assert!(with_seed.contains(&seed.to_hex()));
        let id = a.live_begin("k", &with_seed, 0).unwrap();
        let (text, _) = a.live_log(id, None).unwrap().unwrap();
        assert!(!text.contains(&seed.to_hex()), "{text}");
        let mut public = log.header.clone();
        public.seed = None;
        assert_eq!(text, header_line(&public), "the commitment stays");
        // Nowhere among the live rows a reader reads, but the seed's own column.
        let header: String = a.db().row("SELECT header FROM live_games", params![], |r| r.get(0)).unwrap();
        assert!(!header.contains(&seed.to_hex()));
        // The server's replay gets it back, and the log so far replays.
        for (i, r) in log.records[..4].iter().enumerate() {
            a.live_record(id, i as u32, &record_line(r), 1).unwrap();
        }
        let (replay, _) = a.live_replay_log(id, None).unwrap().unwrap();
        let (read, _) = decode::<paifu_core::tzq::Action>(replay.as_bytes()).unwrap();
        assert_eq!((read.header.seed, &read.records[..]), (Some(seed), &log.records[..4]));
        // A header sent with the seed only gets its commitment.
        let mut only_seed = log.header.clone();
        only_seed.commitment = None;
        let id2 = a.live_begin("k2", &header_line(&only_seed), 0).unwrap();
        let (text, _) = a.live_log(id2, None).unwrap().unwrap();
        assert_eq!(read_jsonl_header(&text).unwrap().commitment, Some(seed.commitment()));

        let refused = |a: &mut Archive, key: &str, h: &str| a.live_begin(key, h, 0).unwrap_err().to_string();
        let e = refused(&mut a, "k3", "{\"not\":\"a header\"}");
        assert!(e.contains("not a Paifu header") && e.contains("\"paifu\""), "{e}");
        let e = refused(&mut a, "k3", &with_seed.replace("\"tzq\"", "\"go\""));
        assert!(e.contains("the game \"go\", which this Paifu does not know"), "{e}");
        let mut wrong = log.header.clone();
        wrong.seed = Some(Seed([7; 32]));
        let e = refused(&mut a, "k3", &header_line(&wrong));
        assert!(e.contains("does not match the commitment"), "{e}");
        let e = refused(&mut a, "k3", &(with_seed.clone() + &record_line(&log.records[0])));
        assert!(e.contains("line break"), "{e}");
        let mut bad_name = log.header.clone();
        bad_name.seats[0] = "Ann\u{7}".into();
        assert!(matches!(a.live_begin("k3", &header_line(&bad_name), 0), Err(ArchiveError::Name(_))));
        for key in ["", "a\nb", &"k".repeat(MAX_KEY_BYTES + 1)] {
            assert!(matches!(a.live_begin(key, &with_seed, 0), Err(ArchiveError::Live(LiveRefusal::Key))));
        }
        assert_eq!(a.live_games(None).unwrap().len(), 2, "nothing refused was begun");
        // Binary bytes are not a header line.
        let bin = String::from_utf8_lossy(&encode(&log, Encoding::Binary)).into_owned();
        assert!(a.live_begin("k3", &bin, 0).is_err());
    }

    #[test]
    fn migration_5_adds_the_live_tables_to_a_schema_4_archive() {
        let dir = tempfile::tempdir().unwrap();
        let schema = |path: &std::path::Path| -> Vec<(String, String, Option<String>)> {
            Connection::open(path)
                .unwrap()
                .prepare("SELECT type, name, sql FROM sqlite_master WHERE name <> 'sqlite_sequence' ORDER BY name")
                .unwrap()
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .unwrap()
                .collect::<std::result::Result<_, _>>()
                .unwrap()
        };
        // A schema-4 archive as migrations 1 to 4 make it.
        let v4 = dir.path().join("v4.db");
        schema::migrate_to(&mut Connection::open(&v4).unwrap(), "v4.db", 4).unwrap();
        // An archive with a game stored at schema 4, as that Paifu stored it.
        let old = dir.path().join("old.db");
        let (log, header, lines) = game("live/migrated");
        let stored_id = {
            let mut c = Connection::open(&old).unwrap();
            schema::migrate_to(&mut c, "old.db", 4).unwrap();
            let p = super::super::prepare(&encode(&log, Encoding::Binary));
            super::super::tests::store_at_schema_5(&c, &p, None, None)
        };
        assert_eq!(schema(&old), schema(&v4));
        assert!(schema(&old).iter().all(|t| !t.1.starts_with("live")));
        let mut a = Archive::open(&old).unwrap();
        assert_eq!(a.schema_version().unwrap(), super::super::SCHEMA_VERSION);
        let live: Vec<String> = schema(&old).into_iter().filter(|t| t.0 == "table").map(|t| t.1).collect();
        assert!(live.contains(&"live_games".to_owned()) && live.contains(&"live_records".to_owned()), "{live:?}");
        let id = a.live_begin("k", &header, 0).unwrap();
        a.live_record(id, 0, &lines[0], 1).unwrap();
        drop(a);
        // Opened again: nothing applied twice, the stored game and the live rows kept.
        let a = Archive::open(&old).unwrap();
        assert_eq!(a.schema_version().unwrap(), super::super::SCHEMA_VERSION);
        assert_eq!(a.live_game(id, None).unwrap().unwrap().records, 1);
        let g = a.game(stored_id).unwrap().unwrap();
        assert!(g.valid && g.counted);
    }
}
