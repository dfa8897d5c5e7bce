//! A tournament as it is published: each game under a stable file name with the certificates of
//! the keys the tournament trusts, as its manifest lists them (docs/report.md). The report
//! (`paifu report`) writes these files and signs the manifest; the dashboard shows the same
//! Merkle root, computed by the same function.

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

impl Archive {
    /// The tournament `name` as a manifest lists it: every entry in it with the certificates of
    /// the keys it trusts, its standings and the Merkle root. `None` when there is no such
    /// tournament.
    pub fn published(&self, name: &str) -> Result<Option<Published>> {
        let Some(info) = self.tournament_info(name)? else { return Ok(None) };
        let standings = self.standings(name)?.unwrap_or_default();
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT l.id, l.identity, l.form, l.digest, l.digest_kind, l.game, l.ruleset, v.valid, v.fault_code,
                    v.final_scores, v.excerpt, ({COUNTS_IN_STANDINGS}),
                    (SELECT group_concat(name, char(31)) FROM (SELECT p.name AS name FROM seats s
                        JOIN players p ON p.id = s.player_id WHERE s.log_id = l.id ORDER BY s.seat))
             FROM tournaments t JOIN tournament_games tg ON tg.tournament_id = t.id
             JOIN logs l ON l.id = tg.log_id JOIN verdicts v ON v.log_id = l.id
             WHERE t.name = ?1"
        ))?;
        let lines: Vec<Line> = st
            .query_map([name], |r| {
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
            })?
            .collect::<std::result::Result<_, _>>()?;
        // Every trusted certificate of the tournament's entries in one pass, oldest first.
        let mut certs = self.conn.prepare_cached(
            "SELECT c.log_id, c.signer, c.json FROM tournaments t
             JOIN tournament_games tg ON tg.tournament_id = t.id
             JOIN certificates c ON c.log_id = tg.log_id
             JOIN tournament_keys k ON k.tournament_id = t.id AND k.signer = c.signer
             WHERE t.name = ?1 ORDER BY c.id",
        )?;
        let mut by_entry: std::collections::HashMap<i64, Vec<(String, String)>> = std::collections::HashMap::new();
        let mut rows = certs.query([name])?;
        while let Some(r) = rows.next()? {
            by_entry.entry(r.get(0)?).or_default().push((r.get(1)?, r.get(2)?));
        }
        let mut games = Vec::with_capacity(lines.len());
        for line in lines {
            let Line { id, identity, digest, digest_kind, game, ruleset, fault, excerpt, seats, .. } = line;
            let file = log_file_name(game.as_deref().unwrap_or(""), &identity, line.binary);
            let blake3 = parse_digest(&identity, "logs.identity")?;
            let log_digest = match digest_kind.as_str() {
                "log" => Some(parse_digest(&digest, "logs.digest")?),
                _ => None,
            };
            let final_scores: Option<Vec<i64>> =
                line.final_scores.as_deref().map(|s| super::parse_json(s, "final scores")).transpose()?;
            let stored = by_entry.remove(&id).unwrap_or_default();
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
            games.push(PublishedGame { id, entry, certificate_texts: texts });
        }
        games.sort_by(|a, b| a.entry.file.cmp(&b.entry.file));
        let root = manifest::merkle_root(&games.iter().map(|g| g.entry.leaf()).collect::<Vec<_>>());
        let terms = self.final_points_terms(name)?;
        Ok(Some(Published { info, games, standings, root, terms }))
    }

    /// How the counted riichi games of a tournament count their final points, per ruleset.
    fn final_points_terms(&self, name: &str) -> Result<BTreeMap<(String, String), Vec<String>>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT DISTINCT l.ruleset, l.header_json
             FROM tournaments t JOIN tournament_games tg ON tg.tournament_id = t.id JOIN logs l ON l.id = tg.log_id
             WHERE t.name = ?1 AND l.game = 'riichi' AND {COUNTS_IN_STANDINGS}"
        ))?;
        let rows: Vec<(Option<String>, Option<String>)> =
            st.query_map([name], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<std::result::Result<_, _>>()?;
        let mut terms: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
        for (ruleset, header) in rows {
            let ruleset = ruleset.unwrap_or_default();
            let Some(header) = header else { continue };
            let header: paifu_core::log::Header = super::parse_json(&header, "a stored header")?;
            let rules = <paifu_core::riichi::Riichi as paifu_core::Game>::rules(&ruleset, &header.options)
                .map_err(|e| ArchiveError::Corrupt(format!("a counted riichi game's options: {}", e.0)))?;
            terms.entry(("riichi".to_owned(), ruleset)).or_default().insert(rules.final_points_terms());
        }
        Ok(terms.into_iter().map(|(k, v)| (k, v.into_iter().collect())).collect())
    }
}

fn parse_digest(text: &str, what: &str) -> Result<Digest> {
    Digest::from_str(text).map_err(|e| ArchiveError::Corrupt(format!("{what}: {e}")))
}
