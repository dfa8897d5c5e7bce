//! A tournament as it is published: each game under a stable file name with the certificates of
//! the keys the tournament trusts, as its manifest lists them (docs/report.md). The report
//! (`paifu report`) writes these files and signs the manifest; the dashboard shows the same
//! Merkle root, computed by the same function.

use super::db::{params, Db, Row};
use super::tournaments::{Standing, TournamentInfo, COUNTS_IN_STANDINGS};
use super::{Archive, ArchiveError, Result};
use paifu_core::manifest::{self, ManifestCertificate, ManifestGame, ManifestVerdict, StandingLine};
use paifu_core::Digest;
use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;

/// One game of a tournament, ready to publish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublishedGame {
    /// The entry's number in the archive.
    pub id: i64,
    /// How the manifest lists it.
    pub entry: ManifestGame,
    /// The text of each certificate, in the order of `entry.certificates`.
    pub certificate_texts: Vec<String>,
}

/// A tournament, ready to publish: who owns it, its games (sorted by file name) and standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Published {
    pub info: TournamentInfo,
    pub games: Vec<PublishedGame>,
    pub standings: Vec<Standing>,
    /// The Merkle root over the games' manifest entries.
    pub root: Digest,
    /// For each standings table (game, ruleset) whose lines have points: how its counted games
    /// count final points (riichi: return points, oka, uma), each distinct setting once.
    pub terms: BTreeMap<(String, String), Vec<String>>,
}

impl Published {
    /// The keys the tournament trusts, as digests.
    pub fn trusted_keys(&self) -> Vec<Digest> {
        self.info.trusted_keys.iter().filter_map(|k| Digest::from_str(k).ok()).collect()
    }

    /// The standings as a manifest signs them.
    pub fn standing_lines(&self) -> Vec<StandingLine> {
        self.standings.iter().map(Standing::line).collect()
    }
}

/// The file a published log is written to: its game and the first 16 hex digits of its blake3,
/// so that it never changes when games are added.
pub fn log_file_name(game: &str, identity: &str, binary: bool) -> String {
    let game = if game.is_empty() { "unknown" } else { game };
    let short: String = identity.chars().take(16).collect();
    format!("{game}-{short}.{}", if binary { "paifu" } else { "raw" })
}

/// The file a certificate of that log is written to.
fn certificate_file_name(log_file: &str, blake3: &Digest) -> String {
    let stem = log_file.rsplit_once('.').map_or(log_file, |(s, _)| s);
    format!("{stem}.{}.cert.json", &blake3.to_hex()[..16])
}

impl Standing {
    /// This line as a manifest signs it.
    pub fn line(&self) -> StandingLine {
        StandingLine {
            game: self.game.clone(),
            ruleset: self.ruleset.clone(),
            rank: self.rank,
            player: self.player.clone(),
            games: self.games,
            firsts: self.firsts,
            placement_sum: self.placement_sum,
            total_score: self.total_score,
            points: self.points,
            penalties: self.penalties,
            penalty_points: self.penalty_points,
        }
    }
}

/// One tournament entry as stored, before it is listed.
struct Line {
    id: i64,
    identity: String,
    binary: bool,
    digest: String,
    digest_kind: String,
    game: Option<String>,
    ruleset: Option<String>,
    valid: bool,
    fault: Option<String>,
    final_scores: Option<String>,
    excerpt: Option<String>,
    counted: bool,
    seats: Option<String>,
}

/// The entries of tournament `?1` as a manifest lists them, one row each (`{which}`: all of
/// them, or the one numbered `?2`).
fn lines_sql(c: Db<'_>, which: &str) -> String {
    format!(
        "SELECT l.id, l.identity, l.form, l.digest, l.digest_kind, l.game, l.ruleset, v.valid, v.fault_code,
                v.final_scores, v.excerpt, ({COUNTS_IN_STANDINGS}), {}
         FROM tournament_games tg JOIN logs l ON l.id = tg.log_id JOIN verdicts v ON v.log_id = l.id
         WHERE tg.tournament_id = ?1{which}",
        super::seat_names(c)
    )
}

/// The certificates by keys tournament `?1` trusts of its entries (`{which}`: all, or entry
/// `?2`'s), oldest first.
fn certificates_sql(which: &str) -> String {
    format!(
        "SELECT c.log_id, c.signer, c.json FROM tournament_games tg
         JOIN certificates c ON c.log_id = tg.log_id
         JOIN tournament_keys k ON k.tournament_id = tg.tournament_id AND k.signer = c.signer
         WHERE tg.tournament_id = ?1{which} ORDER BY c.id"
    )
}

fn line(r: &Row<'_>) -> Result<Line> {
    Ok(Line {
        id: r.get(0)?,
        identity: r.get(1)?,
        binary: r.get::<_, String>(2)? == "binary",
        digest: r.get(3)?,
        digest_kind: r.get(4)?,
        game: r.get(5)?,
        ruleset: r.get(6)?,
        valid: r.get::<_, i64>(7)? != 0,
        fault: r.get(8)?,
        final_scores: r.get(9)?,
        excerpt: r.get(10)?,
        counted: r.get::<_, i64>(11)? != 0,
        seats: r.get(12)?,
    })
}

/// Entry `line` as a manifest lists it, with `stored`, its certificates by trusted keys (signer
/// and text, oldest first).
fn published_game(line: Line, stored: Vec<(String, String)>) -> Result<PublishedGame> {
    let Line { id, identity, digest, digest_kind, game, ruleset, fault, excerpt, seats, .. } = line;
    let file = log_file_name(game.as_deref().unwrap_or(""), &identity, line.binary);
    let blake3 = parse_digest(&identity, "logs.identity")?;
    let log_digest = match digest_kind.as_str() {
        "log" => Some(parse_digest(&digest, "logs.digest")?),
        _ => None,
    };
    let final_scores: Option<Vec<i64>> =
        line.final_scores.as_deref().map(|s| super::parse_json(s, "final scores")).transpose()?;
    let mut certificates = Vec::with_capacity(stored.len());
    let mut texts = Vec::with_capacity(stored.len());
    for (signer, text) in stored {
        let blake3 = super::identity_of(text.as_bytes());
        let signer = parse_digest(&signer, "certificates.signer")?;
        certificates.push(ManifestCertificate { file: certificate_file_name(&file, &blake3), blake3, signer });
        texts.push(text);
    }
    let entry = ManifestGame {
        file,
        blake3,
        log_digest,
        game: game.unwrap_or_default(),
        ruleset: ruleset.unwrap_or_default(),
        seats: seats.map(|p| p.split('\u{1f}').map(str::to_owned).collect()).unwrap_or_default(),
        verdict: ManifestVerdict::stored(line.valid, fault, final_scores, excerpt),
        counted: line.counted,
        certificates,
    };
    Ok(PublishedGame { id, entry, certificate_texts: texts })
}

/// Every entry of tournament `tid` as a manifest lists it (in the order of their numbers).
fn published_games(c: Db<'_>, tid: i64) -> Result<Vec<PublishedGame>> {
    let lines: Vec<Line> = c.rows(&lines_sql(c, ""), [tid], line)?;
    // Every trusted certificate of the tournament's entries in one pass, oldest first.
    let mut by_entry: std::collections::HashMap<i64, Vec<(String, String)>> = std::collections::HashMap::new();
    let certs: Vec<(i64, String, String)> =
        c.rows(&certificates_sql(""), [tid], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    for (id, signer, text) in certs {
        by_entry.entry(id).or_default().push((signer, text));
    }
    lines
        .into_iter()
        .map(|line| {
            let stored = by_entry.remove(&line.id).unwrap_or_default();
            published_game(line, stored)
        })
        .collect()
}

/// Entry `id` of tournament `tid` as a manifest lists it.
fn published_entry(c: Db<'_>, tid: i64, id: i64) -> Result<PublishedGame> {
    let line = c.row(&lines_sql(c, " AND tg.log_id = ?2"), params![tid, id], line)?;
    let stored = c.rows(&certificates_sql(" AND tg.log_id = ?2"), params![tid, id], |r| Ok((r.get(1)?, r.get(2)?)))?;
    published_game(line, stored)
}

/// Keeps each tournament's Merkle root (`tournaments.root`) over its entries' manifest leaves
/// (`tournament_games.file`, `.leaf`): computes again the leaf of each (tournament, entry) in
/// `leaves` and of every entry of each tournament in `all`, then the root of each tournament
/// whose leaves it computed, from every leaf in the order of the files (as the manifest lists
/// them). A leaf changes with what the manifest says of its entry: whether it counts in the
/// standings and which certificates by trusted keys it has (the rest of an entry never changes).
pub(super) fn keep_roots(c: Db<'_>, leaves: &BTreeSet<(i64, i64)>, all: &BTreeSet<i64>) -> Result<()> {
    let set = "UPDATE tournament_games SET file = ?3, leaf = ?4 WHERE tournament_id = ?1 AND log_id = ?2";
    for &tid in all {
        for g in published_games(c, tid)? {
            c.exec(set, params![tid, g.id, g.entry.file, g.entry.leaf().0.to_vec()])?;
        }
    }
    for &(tid, id) in leaves.iter().filter(|(t, _)| !all.contains(t)) {
        let g = published_entry(c, tid, id)?;
        c.exec(set, params![tid, id, g.entry.file, g.entry.leaf().0.to_vec()])?;
    }
    let touched: BTreeSet<i64> = all.iter().copied().chain(leaves.iter().map(|(t, _)| *t)).collect();
    for tid in touched {
        // The files sort as bytes on both backends (PostgreSQL's text columns are COLLATE "C").
        let leaves: Vec<Digest> =
            c.rows("SELECT leaf FROM tournament_games WHERE tournament_id = ?1 ORDER BY file, log_id", [tid], |r| {
                let leaf = r.get::<_, Option<Vec<u8>>>(0)?;
                <[u8; 32]>::try_from(leaf.as_deref().unwrap_or_default()).map(Digest).map_err(|_| {
                    ArchiveError::Corrupt(format!("tournament {tid}: an entry's manifest leaf is missing"))
                })
            })?;
        c.exec(
            "UPDATE tournaments SET root = ?2 WHERE id = ?1",
            params![tid, manifest::merkle_root(&leaves).to_hex()],
        )?;
    }
    Ok(())
}

/// What a tournament's page shows of it, read from what is kept: no game is read.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentSummary {
    pub info: TournamentInfo,
    pub standings: Vec<Standing>,
    /// Its entries, and the games its standings count.
    pub games: u64,
    pub counted: u64,
    /// The Merkle root its manifest signs (the same as [`Published::root`]).
    pub root: Digest,
    /// As [`Published::terms`].
    pub terms: BTreeMap<(String, String), Vec<String>>,
}

impl Archive {
    /// The tournament `name` as a manifest lists it: every entry in it with the certificates of
    /// the keys it trusts, its standings and the Merkle root. `None` when there is no such
    /// tournament.
    pub fn published(&self, name: &str) -> Result<Option<Published>> {
        let Some(info) = self.tournament_info(name)? else { return Ok(None) };
        let db = self.db();
        let tid: i64 = db.row("SELECT id FROM tournaments WHERE name = ?1", [name], |r| r.get(0))?;
        let standings = self.standings(name)?.unwrap_or_default();
        let mut games = published_games(db, tid)?;
        games.sort_by(|a, b| a.entry.file.cmp(&b.entry.file));
        let root = manifest::merkle_root(&games.iter().map(|g| g.entry.leaf()).collect::<Vec<_>>());
        let terms = super::tournaments::final_points_terms(db, tid)?;
        Ok(Some(Published { info, games, standings, root, terms }))
    }

    /// The tournament `name` as its page shows it, from the standings, counts and root kept as
    /// its games were stored: the same standings, root and terms as [`Archive::published`],
    /// without reading its games. `None` when there is no such tournament.
    pub fn tournament_summary(&self, name: &str) -> Result<Option<TournamentSummary>> {
        let Some(info) = self.tournament_info(name)? else { return Ok(None) };
        let (tid, games, counted, root): (i64, i64, i64, Option<String>) =
            self.db().row("SELECT id, games, counted, root FROM tournaments WHERE name = ?1", [name], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?;
        let root = parse_digest(root.as_deref().unwrap_or_default(), "tournaments.root")?;
        Ok(Some(TournamentSummary {
            standings: self.standings(name)?.unwrap_or_default(),
            games: games.max(0) as u64,
            counted: counted.max(0) as u64,
            root,
            terms: super::tournaments::final_points_terms(self.db(), tid)?,
            info,
        }))
    }
}

fn parse_digest(text: &str, what: &str) -> Result<Digest> {
    Digest::from_str(text).map_err(|e| ArchiveError::Corrupt(format!("{what}: {e}")))
}
