//! Tables where people play (issue 27): each table's plan (kept as the host wrote it, JSON), its
//! seats (a person's name, or a bot's), the join links of the people's seats (only their blake3
//! is stored: a link is shown once, when it is made, and can be revoked), the parties'
//! commitments to the table's seed, and the table's finished games. The host that plays a table
//! (`arena::tables`) keeps its secrets (its own contribution, the people's revealed ones, the
//! seed) in the table's folder, not here; they are published here, in `reveal`, once the table
//! is over.

use super::db::params;
use super::names::{check_name, NameKind};
use super::{now, Archive, ArchiveError, Result};
use serde::Serialize;

/// The prefix of every join link's secret.
pub const JOIN_PREFIX: &str = "pfj_";

/// How a join secret is stored: blake3 of its text, in hex.
fn join_hash(secret: &str) -> String {
    blake3::hash(secret.as_bytes()).to_hex().to_string()
}

/// A new join secret: `pfj_` and 64 hex digits.
fn new_secret() -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ArchiveError::Randomness(e.to_string()))?;
    Ok(format!("{JOIN_PREFIX}{}", hex::encode(bytes)))
}

/// A seat of a new table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSeat {
    pub name: String,
    /// The bot's name, for a bot's seat; `None` for a person's.
    pub bot: Option<String>,
}

/// A table to open.
#[derive(Clone, Debug)]
pub struct NewTable {
    pub game: String,
    pub ruleset: String,
    /// The host's plan, as JSON.
    pub plan: String,
    /// Where the host keeps the table's files.
    pub folder: String,
    /// The host's commitment to its contribution to the seed (hex).
    pub host_commitment: String,
    /// The token that opened it (its number), if a token did.
    pub opened_by: Option<i64>,
    /// The public URL of the server that hosts it (`paifu serve --public-url`), when several
    /// servers share the archive; `None`: the only one.
    pub host: Option<String>,
    pub seats: Vec<NewSeat>,
}

/// A seat of a table as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableSeat {
    pub seat: u8,
    pub name: String,
    /// The bot's name, for a bot's seat.
    pub bot: Option<String>,
    /// The seat's commitment to its contribution (hex), once it sent one (people only).
    pub commitment: Option<String>,
    /// Whether the seat has a join link that is not revoked (people only).
    pub joinable: bool,
}

/// A table as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableRow {
    pub id: i64,
    pub game: String,
    pub ruleset: String,
    #[serde(skip)]
    pub plan: String,
    /// `waiting`, `playing` or `ended`.
    pub stage: String,
    #[serde(skip)]
    pub folder: String,
    pub host_commitment: String,
    /// The digest of every party's commitment, once all were in.
    pub commitments_digest: Option<String>,
    /// Everything published once the table is over (contributions, seeds), as JSON.
    #[serde(skip)]
    pub reveal: Option<String>,
    #[serde(skip)]
    pub opened_by: Option<i64>,
    pub created_at: i64,
    pub ended_at: Option<i64>,
    /// The public URL of the server that hosts it; `None`: a server without one.
    pub host: Option<String>,
    pub seats: Vec<TableSeat>,
    /// `(number, archive id)` of each finished game, in order.
    pub games: Vec<(u32, i64)>,
}

/// Why a table's seed step was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeedStepRefusal {
    #[error("there is no table {0}")]
    NoTable(i64),
    #[error("seat {0} is not a person's seat of this table")]
    NotAPerson(u8),
    #[error("the table's commitments are closed: a commitment can no longer be sent or changed")]
    Closed,
    #[error("seat {0} committed already, to another contribution: a commitment is never changed")]
    Committed(u8),
}

const TABLE_COLUMNS: &str = "id, game, ruleset, plan, stage, folder, host_commitment, commitments_digest, reveal,
                             opened_by, created_at, ended_at, host";

impl Archive {
    /// Stores a new table and a join secret for each person's seat (answered in seat order:
    /// `None` for a bot's seat). The secrets are in the answer only.
    pub fn create_table(&mut self, t: &NewTable) -> Result<(i64, Vec<Option<String>>)> {
        for s in &t.seats {
            check_name(NameKind::Player, &s.name)?;
        }
        let secrets: Vec<Option<String>> = t
            .seats
            .iter()
            .map(|s| if s.bot.is_none() { new_secret().map(Some) } else { Ok(None) })
            .collect::<Result<_>>()?;
        let at = now();
        let id = self.write(|tx| {
            let id = tx.row(
                "INSERT INTO play_tables(game, ruleset, plan, stage, folder, host_commitment, opened_by, created_at, host)
                 VALUES (?1, ?2, ?3, 'waiting', ?4, ?5, ?6, ?7, ?8) RETURNING id",
                params![t.game, t.ruleset, t.plan, t.folder, t.host_commitment, t.opened_by, at, t.host],
                |r| r.get::<_, i64>(0),
            )?;
            for (seat, (s, secret)) in t.seats.iter().zip(&secrets).enumerate() {
                tx.exec(
                    "INSERT INTO play_seats(table_id, seat, name, bot) VALUES (?1, ?2, ?3, ?4)",
                    params![id, seat as i64, s.name, s.bot],
                )?;
                if let Some(secret) = secret {
                    tx.exec(
                        "INSERT INTO play_joins(hash, table_id, seat, created_at) VALUES (?1, ?2, ?3, ?4)",
                        params![join_hash(secret), id, seat as i64, at],
                    )?;
                }
            }
            Ok(id)
        })?;
        Ok((id, secrets))
    }

    /// The folder a new table will use is known only once its number is: the host names it
    /// after the number and sets it here, before the table is shown to anyone.
    pub fn set_table_folder(&mut self, id: i64, folder: &str) -> Result<()> {
        self.write(|tx| {
            tx.exec("UPDATE play_tables SET folder = ?2 WHERE id = ?1", params![id, folder])?;
            Ok(())
        })
    }

    /// The table and seat a join secret opens; `None` for a secret this archive never made, or
    /// one that was revoked.
    pub fn join_seat(&self, secret: &str) -> Result<Option<(i64, u8)>> {
        let sql = "SELECT table_id, seat FROM play_joins WHERE hash = ?1 AND revoked_at IS NULL";
        let found = self.db().opt(sql, [join_hash(secret)], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?;
        Ok(found.map(|(t, s)| (t, u8::try_from(s).unwrap_or(u8::MAX))))
    }

    /// Revokes every join link of a person's seat; with `reissue`, answers a new one (shown
    /// once, like the first). `None` when the seat is not a person's seat of the table.
    pub fn revoke_joins(&mut self, table: i64, seat: u8, reissue: bool) -> Result<Option<Option<String>>> {
        let secret = if reissue { Some(new_secret()?) } else { None };
        let at = now();
        self.write(|tx| {
            let person: Option<Option<String>> = tx.opt(
                "SELECT bot FROM play_seats WHERE table_id = ?1 AND seat = ?2",
                params![table, i64::from(seat)],
                |r| r.get(0),
            )?;
            if !matches!(person, Some(None)) {
                return Ok(None);
            }
            tx.exec(
                "UPDATE play_joins SET revoked_at = ?3 WHERE table_id = ?1 AND seat = ?2 AND revoked_at IS NULL",
                params![table, i64::from(seat), at],
            )?;
            if let Some(s) = &secret {
                tx.exec(
                    "INSERT INTO play_joins(hash, table_id, seat, created_at) VALUES (?1, ?2, ?3, ?4)",
                    params![join_hash(s), table, i64::from(seat), at],
                )?;
            }
            Ok(Some(secret.clone()))
        })
    }

    /// One table, with its seats and finished games.
    pub fn table(&self, id: i64) -> Result<Option<TableRow>> {
        let sql = format!("SELECT {TABLE_COLUMNS} FROM play_tables WHERE id = ?1");
        let db = self.db();
        let row = db.opt(&sql, [id], |r| {
            Ok(TableRow {
                id: r.get(0)?,
                game: r.get(1)?,
                ruleset: r.get(2)?,
                plan: r.get(3)?,
                stage: r.get(4)?,
                folder: r.get(5)?,
                host_commitment: r.get(6)?,
                commitments_digest: r.get(7)?,
                reveal: r.get(8)?,
                opened_by: r.get(9)?,
                created_at: r.get(10)?,
                ended_at: r.get(11)?,
                host: r.get(12)?,
                seats: Vec::new(),
                games: Vec::new(),
            })
        })?;
        let Some(mut t) = row else { return Ok(None) };
        t.seats = db.rows(
            "SELECT s.seat, s.name, s.bot, s.commitment,
                    EXISTS(SELECT 1 FROM play_joins j WHERE j.table_id = s.table_id AND j.seat = s.seat
                                                        AND j.revoked_at IS NULL)
             FROM play_seats s WHERE s.table_id = ?1 ORDER BY s.seat",
            [id],
            |r| {
                Ok(TableSeat {
                    seat: u8::try_from(r.get::<_, i64>(0)?).unwrap_or(u8::MAX),
                    name: r.get(1)?,
                    bot: r.get(2)?,
                    commitment: r.get(3)?,
                    joinable: r.get(4)?,
                })
            },
        )?;
        t.games = db.rows("SELECT number, log_id FROM play_games WHERE table_id = ?1 ORDER BY number", [id], |r| {
            Ok((u32::try_from(r.get::<_, i64>(0)?).unwrap_or(0), r.get(1)?))
        })?;
        Ok(Some(t))
    }

    /// The numbers of the tables hosted by `host` (a server's public URL; `None`: a server
    /// without one) that are not over, oldest first: the server resumes them, and leaves the
    /// other servers' tables to them.
    pub fn open_tables(&self, host: Option<&str>) -> Result<Vec<i64>> {
        let db = self.db();
        let sql = db.pick(
            "SELECT id FROM play_tables WHERE stage != 'ended' AND host IS ?1 ORDER BY id",
            "SELECT id FROM play_tables WHERE stage != 'ended' AND host IS NOT DISTINCT FROM ?1::TEXT ORDER BY id",
        );
        db.rows(sql, [host], |r| r.get(0))
    }

    /// The table a join secret opens (not revoked) and the public URL of the server that hosts
    /// it (`None` inside: a server without one); `None` for a secret that opens nothing.
    pub fn join_host(&self, secret: &str) -> Result<Option<(i64, Option<String>)>> {
        let sql = "SELECT t.id, t.host FROM play_joins j JOIN play_tables t ON t.id = j.table_id
                   WHERE j.hash = ?1 AND j.revoked_at IS NULL";
        self.db().opt(sql, [join_hash(secret)], |r| Ok((r.get(0)?, r.get(1)?)))
    }

    /// Records a person's commitment to its contribution; refused once the table's commitments
    /// are closed. Sending one again before then replaces it.
    pub fn set_seat_commitment(
        &mut self,
        table: i64,
        seat: u8,
        commitment: &str,
    ) -> Result<std::result::Result<(), SeedStepRefusal>> {
        self.write(|tx| {
            let closed: Option<Option<String>> =
                tx.opt("SELECT commitments_digest FROM play_tables WHERE id = ?1", [table], |r| r.get(0))?;
            match closed {
                None => return Ok(Err(SeedStepRefusal::NoTable(table))),
                Some(Some(_)) => return Ok(Err(SeedStepRefusal::Closed)),
                Some(None) => {}
            }
            // The first commitment holds: the same one again is taken (a page sent it twice), another
            // one is refused.
            let before: Option<(Option<String>, Option<String>)> = tx.opt(
                "SELECT bot, commitment FROM play_seats WHERE table_id = ?1 AND seat = ?2",
                params![table, i64::from(seat)],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            match before {
                None | Some((Some(_), _)) => return Ok(Err(SeedStepRefusal::NotAPerson(seat))),
                Some((None, Some(c))) if c != commitment => return Ok(Err(SeedStepRefusal::Committed(seat))),
                Some(_) => {}
            }
            tx.exec(
                "UPDATE play_seats SET commitment = ?3 WHERE table_id = ?1 AND seat = ?2 AND bot IS NULL",
                params![table, i64::from(seat), commitment],
            )?;
            Ok(Ok(()))
        })
    }

    /// Closes the table's commitments with their digest (once: a second close keeps the first).
    pub fn close_commitments(&mut self, table: i64, digest: &str) -> Result<()> {
        self.write(|tx| {
            tx.exec(
                "UPDATE play_tables SET commitments_digest = ?2 WHERE id = ?1 AND commitments_digest IS NULL",
                params![table, digest],
            )?;
            Ok(())
        })
    }

    /// Moves the table to `stage` (`waiting`, `playing`, `ended`); `reveal` is stored with
    /// `ended`.
    pub fn set_table_stage(&mut self, table: i64, stage: &str, reveal: Option<&str>) -> Result<()> {
        let at = (stage == "ended").then(now);
        self.write(|tx| {
            tx.exec(
                "UPDATE play_tables SET stage = ?2, reveal = COALESCE(?3, reveal), ended_at = COALESCE(?4, ended_at)
                 WHERE id = ?1",
                params![table, stage, reveal, at],
            )?;
            Ok(())
        })
    }

    /// Notes that the table's game `number` is stored as archive entry `log_id`.
    pub fn add_table_game(&mut self, table: i64, number: u32, log_id: i64) -> Result<()> {
        self.write(|tx| {
            tx.exec(
                "INSERT INTO play_games(table_id, number, log_id) VALUES (?1, ?2, ?3)
                 ON CONFLICT(table_id, number) DO UPDATE SET log_id = excluded.log_id",
                params![table, i64::from(number), log_id],
            )?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::db::params;
    use super::super::tests::{on_both_backends, temp_archive, Backend};
    use super::*;

    on_both_backends!(
        a_table_keeps_its_seats_and_only_the_hashes_of_its_join_links,
        commitments_close_once_and_the_table_ends_with_its_reveal,
        each_server_resumes_its_own_tables_and_a_link_names_its_host,
    );

    fn new_table() -> NewTable {
        NewTable {
            game: "riichi".into(),
            ruleset: "tonpuu".into(),
            plan: "{}".into(),
            folder: "/tmp/t".into(),
            host_commitment: "00".repeat(32),
            opened_by: None,
            host: None,
            seats: vec![
                NewSeat { name: "Aiko".into(), bot: None },
                NewSeat { name: "greedy".into(), bot: Some("greedy".into()) },
            ],
        }
    }

    fn a_table_keeps_its_seats_and_only_the_hashes_of_its_join_links(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let (id, secrets) = a.create_table(&new_table()).unwrap();
        let aiko = secrets[0].clone().expect("a person's seat has a link");
        assert!(secrets[1].is_none(), "a bot's seat has none");
        assert!(aiko.starts_with(JOIN_PREFIX) && aiko.len() == 4 + 64);
        assert_eq!(a.join_seat(&aiko).unwrap(), Some((id, 0)));
        assert_eq!(a.join_seat("pfj_nope").unwrap(), None);
        let stored: Vec<String> = a.db().rows("SELECT hash FROM play_joins", params![], |r| r.get(0)).unwrap();
        assert_eq!(stored, vec![join_hash(&aiko)], "the secret itself is stored nowhere");
        let t = a.table(id).unwrap().unwrap();
        assert_eq!(
            (t.stage.as_str(), t.seats.len(), t.seats[0].joinable, t.seats[1].joinable),
            ("waiting", 2, true, false)
        );
        assert_eq!(a.open_tables(None).unwrap(), vec![id]);

        // Revoked: the old link opens nothing; a reissued one opens the seat.
        assert_eq!(a.revoke_joins(id, 1, true).unwrap(), None, "a bot's seat has no link to revoke");
        let again = a.revoke_joins(id, 0, true).unwrap().unwrap().unwrap();
        assert_eq!(a.join_seat(&aiko).unwrap(), None);
        assert_eq!(a.join_seat(&again).unwrap(), Some((id, 0)));
        a.revoke_joins(id, 0, false).unwrap();
        assert_eq!(a.join_seat(&again).unwrap(), None);
        assert!(!a.table(id).unwrap().unwrap().seats[0].joinable);
    }

    fn commitments_close_once_and_the_table_ends_with_its_reveal(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let (id, _) = a.create_table(&new_table()).unwrap();
        assert_eq!(a.set_seat_commitment(id, 1, "ab").unwrap(), Err(SeedStepRefusal::NotAPerson(1)));
        assert_eq!(a.set_seat_commitment(id + 1, 0, "ab").unwrap(), Err(SeedStepRefusal::NoTable(id + 1)));
        a.set_seat_commitment(id, 0, "ab").unwrap().unwrap();
        // The same commitment again is taken; another one is refused: the first holds.
        a.set_seat_commitment(id, 0, "ab").unwrap().unwrap();
        assert_eq!(a.set_seat_commitment(id, 0, "cd").unwrap(), Err(SeedStepRefusal::Committed(0)));
        a.close_commitments(id, "d1").unwrap();
        a.close_commitments(id, "d2").unwrap();
        assert_eq!(a.set_seat_commitment(id, 0, "ef").unwrap(), Err(SeedStepRefusal::Closed));
        let t = a.table(id).unwrap().unwrap();
        assert_eq!((t.seats[0].commitment.as_deref(), t.commitments_digest.as_deref()), (Some("ab"), Some("d1")));
        a.set_table_stage(id, "playing", None).unwrap();
        a.set_table_stage(id, "ended", Some("{\"seed\":1}")).unwrap();
        let t = a.table(id).unwrap().unwrap();
        assert_eq!((t.stage.as_str(), t.reveal.as_deref()), ("ended", Some("{\"seed\":1}")));
        assert!(t.ended_at.is_some());
        assert!(a.open_tables(None).unwrap().is_empty());
    }

    fn each_server_resumes_its_own_tables_and_a_link_names_its_host(b: Backend) {
        let (_place, mut a) = temp_archive(b);
        let (alone, links) = a.create_table(&new_table()).unwrap();
        let on_a = NewTable { host: Some("http://a.example:8080".into()), ..new_table() };
        let (at_a, links_a) = a.create_table(&on_a).unwrap();
        let on_b = NewTable { host: Some("http://b.example".into()), ..new_table() };
        let (at_b, _) = a.create_table(&on_b).unwrap();
        assert_eq!(a.open_tables(None).unwrap(), vec![alone]);
        assert_eq!(a.open_tables(Some("http://a.example:8080")).unwrap(), vec![at_a]);
        assert_eq!(a.open_tables(Some("http://b.example")).unwrap(), vec![at_b]);
        assert!(a.open_tables(Some("http://c.example")).unwrap().is_empty());
        assert_eq!(a.table(at_a).unwrap().unwrap().host.as_deref(), Some("http://a.example:8080"));
        let aiko = links_a[0].clone().unwrap();
        assert_eq!(a.join_host(&aiko).unwrap(), Some((at_a, Some("http://a.example:8080".into()))));
        assert_eq!(a.join_host(links[0].as_ref().unwrap()).unwrap(), Some((alone, None)));
        assert_eq!(a.join_host("pfj_nope").unwrap(), None);
        a.revoke_joins(at_a, 0, false).unwrap();
        assert_eq!(a.join_host(&aiko).unwrap(), None, "a revoked link names no host");
    }
}
