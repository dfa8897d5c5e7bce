//! Tournament manifests: every game of a tournament, each with its digests and certificates,
//! under one Merkle root, with the standings, signed with ed25519 (docs/report.md).
//!
//! A manifest names each game by the file it is published in (relative to the folder of logs),
//! the blake3 of that file, the game digest the validator computes, its verdict and the
//! certificates published with it (each file's blake3). The games are sorted by file name, and
//! each is a leaf of the Merkle tree: `blake3(derive_key("paifu 2026-11 manifest leaf v1",
//! postcard(game)))`. Two nodes combine as `derive_key("paifu 2026-11 manifest node v1", left ‖
//! right)`; a level with an odd number of nodes carries its last one up unchanged (never paired
//! with itself, so no two lists of games share a root). The signature covers
//! `derive_key("paifu 2026-11 manifest v1", postcard(body))`, the root and the standings
//! included.
//!
//! Version 2 adds a tournament's `min_games` and each standings line's `penalties` and
//! `penalty_points`. postcard is not self-describing, so a field left out when empty would let
//! two different bodies share their bytes: a body without any of these fields is version 1 and
//! signs exactly the bytes it signed before they existed (every older report still verifies); a
//! body with any of them is version 2 and signs `derive_key("paifu 2026-11 manifest v2",
//! postcard(body))` with every field written, each line's two and the body's `min_games` last.
//! A version 1 manifest that carries a field of version 2 is refused (it would go unsigned).

use crate::cert::{check_ed25519, CertError};
use crate::digest::{context, Digest};
use crate::replay::{Report, Verdict};
use ed25519_dalek::{Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

/// The newest version of the manifest format this Paifu reads and writes (it reads 1 and 2, and
/// signs a body as version 1 when it has no field of version 2).
pub const MANIFEST_VERSION: u32 = 2;

/// A certificate published with a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestCertificate {
    /// Its file, relative to the folder of logs.
    pub file: String,
    /// blake3 of the file (as `b3sum` prints it).
    pub blake3: Digest,
    /// The signer's public key.
    pub signer: Digest,
}

/// What the validator says of a game, as a manifest states it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestVerdict {
    /// `valid`, `invalid`, or for an excerpt of an unknown game the rounds it covers (as in a
    /// certificate).
    pub verdict: String,
    /// The fault's code, for an invalid log.
    pub fault: Option<String>,
    /// Each seat's final score, for a valid whole game.
    pub final_scores: Option<Vec<i64>>,
}

impl ManifestVerdict {
    /// The verdict of a validator's report.
    pub fn of_report(report: &Report) -> ManifestVerdict {
        match &report.verdict {
            Verdict::Valid(o) => match &o.excerpt {
                Some(e) => ManifestVerdict { verdict: e.to_string(), fault: None, final_scores: None },
                None => {
                    ManifestVerdict { verdict: "valid".into(), fault: None, final_scores: Some(o.final_scores.clone()) }
                }
            },
            Verdict::Invalid(f) => ManifestVerdict {
                verdict: "invalid".into(),
                fault: Some(f.code.as_str().to_owned()),
                final_scores: None,
            },
        }
    }

    /// The verdict as stored by an archive: valid or not, the fault's code, the final scores and
    /// an excerpt's verdict text.
    pub fn stored(
        valid: bool,
        fault: Option<String>,
        final_scores: Option<Vec<i64>>,
        excerpt: Option<String>,
    ) -> ManifestVerdict {
        match (valid, excerpt) {
            (true, Some(e)) => ManifestVerdict { verdict: e, fault: None, final_scores: None },
            (true, None) => ManifestVerdict { verdict: "valid".into(), fault: None, final_scores },
            (false, _) => ManifestVerdict { verdict: "invalid".into(), fault, final_scores: None },
        }
    }
}

impl std::fmt::Display for ManifestVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.fault, &self.final_scores) {
            (Some(code), _) => write!(f, "{} ({code})", self.verdict),
            (None, Some(s)) => write!(f, "{} with final scores {s:?}", self.verdict),
            (None, None) => f.write_str(&self.verdict),
        }
    }
}

/// One game of a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestGame {
    /// Its log file, relative to the folder of logs.
    pub file: String,
    /// blake3 of the log file: the archive's identity of the entry for a binary log.
    pub blake3: Digest,
    /// The game digest (the record chain), when the log decodes.
    pub log_digest: Option<Digest>,
    pub game: String,
    pub ruleset: String,
    pub seats: Vec<String>,
    pub verdict: ManifestVerdict,
    /// Whether the standings count it (valid, and certified valid by a trusted key).
    pub counted: bool,
    /// Its certificates by keys the tournament trusts, oldest first.
    pub certificates: Vec<ManifestCertificate>,
}

impl ManifestGame {
    /// Its leaf in the Merkle tree.
    pub fn leaf(&self) -> Digest {
        // Serialising these plain structs (no maps, no flattening) to a Vec cannot fail.
        let bytes = postcard::to_stdvec(self).unwrap_or_default();
        Digest::derive(context::MANIFEST_LEAF, &[&bytes])
    }
}

/// One line of a tournament's standings, as a manifest signs it (the average place is
/// `placement_sum / games`, exactly).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandingLine {
    pub game: String,
    pub ruleset: String,
    pub rank: u32,
    pub player: String,
    pub games: u64,
    pub firsts: u64,
    pub placement_sum: u64,
    pub total_score: i64,
    /// Riichi: the sum of final results after uma and oka, 1000 to a point.
    pub points: Option<i64>,
    /// Version 2: penalties recorded against the player (rule incidents). Left out of the JSON
    /// when none; signed as the module's documentation says.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub penalties: u64,
    /// Version 2: what they cost in score units, when the rulesets set a cost (already in the
    /// scores). Left out of the JSON when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty_points: Option<i64>,
}

/// A line as version 1 signs it: the fields it had, in order.
#[derive(Serialize)]
struct LineV1<'a> {
    game: &'a str,
    ruleset: &'a str,
    rank: u32,
    player: &'a str,
    games: u64,
    firsts: u64,
    placement_sum: u64,
    total_score: i64,
    points: Option<i64>,
}

impl LineV1<'_> {
    fn of(l: &StandingLine) -> LineV1<'_> {
        LineV1 {
            game: &l.game,
            ruleset: &l.ruleset,
            rank: l.rank,
            player: &l.player,
            games: l.games,
            firsts: l.firsts,
            placement_sum: l.placement_sum,
            total_score: l.total_score,
            points: l.points,
        }
    }
}

/// A body as version 1 signs it (`L`: [`LineV1`]); version 2 signs it with each line's new
/// fields after the old ones, and then `min_games`.
#[derive(Serialize)]
struct Signed<'a, L> {
    version: u32,
    tournament: &'a str,
    issued_at: &'a str,
    signer: &'a Digest,
    trusted_keys: &'a [Digest],
    root: &'a Digest,
    games: &'a [ManifestGame],
    standings: Vec<L>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl StandingLine {
    /// Its rank for reading: the number, or for a line below the manifest's `min_games` (rank
    /// 0) `unranked (N of M games)`.
    pub fn rank_text(&self, min_games: Option<u64>) -> String {
        match min_games {
            Some(m) if self.rank == 0 => format!("unranked ({} of {m} games)", self.games),
            _ => self.rank.to_string(),
        }
    }
}

/// What a manifest states.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestBody {
    pub version: u32,
    pub tournament: String,
    /// When it was signed, RFC 3339 UTC.
    pub issued_at: String,
    /// The signer's public key.
    pub signer: Digest,
    /// The keys whose certificates the tournament's standings accept.
    pub trusted_keys: Vec<Digest>,
    /// The Merkle root over `games`.
    pub root: Digest,
    /// Every game, sorted by file name.
    pub games: Vec<ManifestGame>,
    /// The standings over the counted games, table by table (game and ruleset).
    pub standings: Vec<StandingLine>,
    /// Version 2: the counted games a ranked line needs; lines with fewer have rank 0 and follow
    /// the ranked ones. Left out of the JSON when the tournament sets no minimum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_games: Option<u64>,
}

/// A signed manifest, as written to `manifest.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub manifest: ManifestBody,
    /// ed25519 signature, 128 hex digits.
    pub signature: String,
}

/// Why a manifest does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ManifestError {
    #[error("not a manifest: {0}")]
    Malformed(String),
    #[error("manifest version {0} is not one this Paifu reads (it reads versions 1 to {MANIFEST_VERSION})")]
    Version(u32),
    #[error("the manifest says version 1 but states {0}, a field of version 2 that version 1 does not sign")]
    Version2Fields(String),
    #[error("the manifest was signed by {signer}, not by the key given ({given})")]
    WrongSigner { signer: String, given: String },
    #[error("the manifest's signature does not match its contents: it was changed after signing, or forged")]
    BadSignature,
    #[error("the manifest's root {stated} is not the root of its games ({computed})")]
    WrongRoot { stated: String, computed: String },
    #[error("the manifest's games are not in file order, or a file is listed twice: {0}")]
    Order(String),
}

/// The Merkle root of `leaves`, in order (see the module's documentation).
pub fn merkle_root(leaves: &[Digest]) -> Digest {
    if leaves.is_empty() {
        return Digest::derive(context::MANIFEST_NODE, &[]);
    }
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        let pairs = level.chunks_exact(2);
        let odd = pairs.remainder().first().copied();
        level = pairs.map(|p| Digest::derive(context::MANIFEST_NODE, &[&p[0].0, &p[1].0])).chain(odd).collect();
    }
    level[0]
}

/// The Merkle root of these games.
pub fn root_of(games: &[ManifestGame]) -> Digest {
    merkle_root(&games.iter().map(ManifestGame::leaf).collect::<Vec<_>>())
}

impl ManifestBody {
    /// A body over `games` (sorted here by file name), with its root.
    pub fn new(
        tournament: String,
        issued_at: String,
        signer: &VerifyingKey,
        trusted_keys: Vec<Digest>,
        mut games: Vec<ManifestGame>,
        standings: Vec<StandingLine>,
    ) -> ManifestBody {
        games.sort_by(|a, b| a.file.cmp(&b.file));
        ManifestBody {
            version: 1,
            tournament,
            issued_at,
            signer: Digest(signer.to_bytes()),
            trusted_keys,
            root: root_of(&games),
            games,
            standings,
            min_games: None,
        }
    }

    /// The first field of version 2 it states, if any.
    fn version_2_field(&self) -> Option<String> {
        if let Some(m) = self.min_games {
            return Some(format!("min_games {m}"));
        }
        self.standings.iter().find(|l| l.penalties != 0 || l.penalty_points.is_some()).map(|l| {
            format!(
                "penalties of {} ({}, {})",
                l.player,
                l.penalties,
                l.penalty_points.map_or("none".into(), |p| p.to_string())
            )
        })
    }

    /// Its fields as they are signed, each line as `standings` gives it.
    fn signed<L>(&self, standings: Vec<L>) -> Signed<'_, L> {
        Signed {
            version: self.version,
            tournament: &self.tournament,
            issued_at: &self.issued_at,
            signer: &self.signer,
            trusted_keys: &self.trusted_keys,
            root: &self.root,
            games: &self.games,
            standings,
        }
    }

    /// The bytes its signature covers, with their context, as its `version` says (see the
    /// module's documentation); `None` for a version this Paifu does not read.
    fn signed_parts(&self) -> Option<(&'static str, Vec<u8>)> {
        let v1 = LineV1::of;
        // Serialising these plain structs (no maps, no flattening) to a Vec cannot fail.
        let bytes = match self.version {
            1 => postcard::to_stdvec(&self.signed(self.standings.iter().map(v1).collect())),
            2 => postcard::to_stdvec(&(
                self.signed(self.standings.iter().map(|l| (v1(l), l.penalties, l.penalty_points)).collect()),
                self.min_games,
            )),
            _ => return None,
        };
        let context = if self.version == 1 { context::MANIFEST } else { context::MANIFEST_V2 };
        Some((context, bytes.unwrap_or_default()))
    }

    /// The bytes its signature covers (for tests: two bodies never share them).
    #[cfg(test)]
    fn signed_bytes(&self) -> Vec<u8> {
        self.signed_parts().map(|(c, b)| [c.as_bytes(), &b].concat()).unwrap_or_default()
    }

    fn signing_digest(&self) -> Option<Digest> {
        self.signed_parts().map(|(context, bytes)| Digest::derive(context, &[&bytes]))
    }

    /// Signs it, as version 1 when it states no field of version 2 (the bytes older Paifu
    /// signed), else as version 2.
    pub fn sign(mut self, key: &SigningKey) -> Manifest {
        self.version = if self.version_2_field().is_some() { 2 } else { 1 };
        let digest = self.signing_digest().unwrap_or_default();
        let sig = key.sign(&digest.0);
        Manifest { manifest: self, signature: hex::encode(sig.to_bytes()) }
    }
}

impl Manifest {
    /// Checks the version, that `key` signed it, the signature, that the games are in file order
    /// with no file twice, and that the root is theirs.
    pub fn check(&self, key: &VerifyingKey) -> Result<(), ManifestError> {
        let m = &self.manifest;
        let Some(digest) = m.signing_digest() else { return Err(ManifestError::Version(m.version)) };
        if m.version == 1 {
            if let Some(field) = m.version_2_field() {
                return Err(ManifestError::Version2Fields(field));
            }
        }
        if m.signer.0 != key.to_bytes() {
            return Err(ManifestError::WrongSigner { signer: m.signer.to_hex(), given: hex::encode(key.to_bytes()) });
        }
        check_ed25519(key, &digest, &self.signature).map_err(|e| match e {
            CertError::Malformed(why) => ManifestError::Malformed(why),
            _ => ManifestError::BadSignature,
        })?;
        if let Some(w) = m.games.windows(2).find(|w| w[0].file >= w[1].file) {
            return Err(ManifestError::Order(format!("{} before {}", w[0].file, w[1].file)));
        }
        let computed = root_of(&m.games);
        if computed != m.root {
            return Err(ManifestError::WrongRoot { stated: m.root.to_hex(), computed: computed.to_hex() });
        }
        Ok(())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    pub fn from_json(text: &str) -> Result<Manifest, ManifestError> {
        serde_json::from_str(text).map_err(|e| ManifestError::Malformed(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(i: u8) -> Digest {
        Digest([i; 32])
    }

    fn node(l: Digest, r: Digest) -> Digest {
        Digest::derive(context::MANIFEST_NODE, &[&l.0, &r.0])
    }

    fn game(file: &str, valid: bool) -> ManifestGame {
        ManifestGame {
            file: file.into(),
            blake3: Digest::derive("test", &[file.as_bytes()]),
            log_digest: Some(d(7)),
            game: "tzq".into(),
            ruleset: "standard".into(),
            seats: vec!["A".into(), "B".into()],
            verdict: ManifestVerdict::stored(valid, (!valid).then(|| "illegal_action".into()), Some(vec![3, -3]), None),
            counted: valid,
            certificates: vec![],
        }
    }

    fn key(b: u8) -> SigningKey {
        SigningKey::from_bytes(&[b; 32])
    }

    fn signed(games: Vec<ManifestGame>) -> Manifest {
        let k = key(1);
        ManifestBody::new("Cup".into(), "2026-11-23T00:00:00Z".into(), &k.verifying_key(), vec![], games, vec![])
            .sign(&k)
    }

    #[test]
    fn the_root_pairs_leaves_and_carries_an_odd_one_up() {
        assert_eq!(merkle_root(&[d(1)]), d(1));
        assert_eq!(merkle_root(&[d(1), d(2)]), node(d(1), d(2)));
        assert_eq!(merkle_root(&[d(1), d(2), d(3)]), node(node(d(1), d(2)), d(3)));
        let five = [d(1), d(2), d(3), d(4), d(5)];
        assert_eq!(merkle_root(&five), node(node(node(d(1), d(2)), node(d(3), d(4))), d(5)));
        // An odd leaf is not paired with itself: [a, b, c] and [a, b, c, c] differ.
        assert_ne!(merkle_root(&[d(1), d(2), d(3)]), merkle_root(&[d(1), d(2), d(3), d(3)]));
        assert_ne!(merkle_root(&[]), merkle_root(&[d(0)]));
    }

    #[test]
    fn every_field_of_a_game_is_in_its_leaf() {
        let g = game("a.paifu", true);
        let mut other = g.clone();
        other.verdict.final_scores = Some(vec![0, 0]);
        assert_ne!(g.leaf(), other.leaf());
        other = g.clone();
        other.certificates.push(ManifestCertificate { file: "c".into(), blake3: d(1), signer: d(2) });
        assert_ne!(g.leaf(), other.leaf());
        // The leaf is the encoding's digest, never that of an empty encoding.
        assert_ne!(g.leaf(), Digest::derive(context::MANIFEST_LEAF, &[&[]]));
        assert!(!postcard::to_stdvec(&g).unwrap().is_empty());
    }

    #[test]
    fn a_signed_manifest_checks_and_round_trips_through_json() {
        let m = signed(vec![game("b.paifu", true), game("a.paifu", false)]);
        assert_eq!(m.manifest.games[0].file, "a.paifu", "sorted by file");
        assert_eq!(m.manifest.root, node(m.manifest.games[0].leaf(), m.manifest.games[1].leaf()));
        m.check(&key(1).verifying_key()).unwrap();
        let back = Manifest::from_json(&m.to_json()).unwrap();
        assert_eq!(back, m);
        back.check(&key(1).verifying_key()).unwrap();
    }

    #[test]
    fn any_change_to_a_signed_manifest_is_found() {
        let m = signed(vec![game("a.paifu", true), game("b.paifu", true)]);
        let k = key(1).verifying_key();
        assert!(matches!(m.check(&key(2).verifying_key()), Err(ManifestError::WrongSigner { .. })));
        // A changed game (its scores) changes the signed body.
        let mut changed = m.clone();
        changed.manifest.games[1].verdict.final_scores = Some(vec![4, -4]);
        assert_eq!(changed.check(&k), Err(ManifestError::BadSignature));
        // Re-signed by someone else over a changed game: the root no longer matches.
        let mut forged = changed.manifest.clone();
        forged.signer = Digest(key(3).verifying_key().to_bytes());
        let forged = forged.sign(&key(3));
        assert!(matches!(forged.check(&key(3).verifying_key()), Err(ManifestError::WrongRoot { .. })));
        // A game removed, standings edited, signature garbled.
        let mut removed = m.clone();
        removed.manifest.games.pop();
        assert_eq!(removed.check(&k), Err(ManifestError::BadSignature));
        let mut garbled = m.clone();
        garbled.signature = "zz".into();
        assert!(matches!(garbled.check(&k), Err(ManifestError::Malformed(_))));
        let mut version = m;
        version.manifest.version = 9;
        assert_eq!(version.check(&k), Err(ManifestError::Version(9)));
    }

    #[test]
    fn games_out_of_order_are_refused_even_when_signed() {
        let k = key(1);
        let mut body = ManifestBody::new(
            "Cup".into(),
            "t".into(),
            &k.verifying_key(),
            vec![],
            vec![game("a", true), game("b", true)],
            vec![],
        );
        body.games.swap(0, 1);
        body.root = root_of(&body.games);
        assert!(matches!(body.sign(&k).check(&k.verifying_key()), Err(ManifestError::Order(_))));
    }

    fn line(player: &str, penalties: u64, penalty_points: Option<i64>) -> StandingLine {
        StandingLine {
            game: "riichi".into(),
            ruleset: "tenhou".into(),
            rank: 1,
            player: player.into(),
            games: 2,
            firsts: 1,
            placement_sum: 3,
            total_score: 30_000,
            points: Some(12_000),
            penalties,
            penalty_points,
        }
    }

    fn body(standings: Vec<StandingLine>, min_games: Option<u64>) -> ManifestBody {
        let k = key(1);
        let mut b = ManifestBody::new(
            "Cup".into(),
            "2026-11-26T00:00:00Z".into(),
            &k.verifying_key(),
            vec![],
            vec![game("a.paifu", true)],
            standings,
        );
        b.min_games = min_games;
        b
    }

    /// A report signed by main's `paifu report` before the fields of version 2 existed (two TZQ
    /// games, `paifu simulate tzq --games 2 --seed org28-fixture --names Ann,Bo`).
    const SIGNED_BY_MAIN: &str = include_str!("../data/manifest-v1-signed-by-main.json");

    #[test]
    fn a_report_signed_before_version_2_still_verifies_and_keeps_its_bytes() {
        let m = Manifest::from_json(SIGNED_BY_MAIN).unwrap();
        let k = VerifyingKey::from_bytes(&m.manifest.signer.0).unwrap();
        assert_eq!(m.manifest.version, 1);
        m.check(&k).unwrap();
        // Written again, it is the same JSON (no field of version 2 appears).
        assert_eq!(m.to_json(), SIGNED_BY_MAIN);
        // Any change to it is found.
        let mut changed = m.clone();
        changed.manifest.standings[0].total_score += 1;
        assert_eq!(changed.check(&k), Err(ManifestError::BadSignature));
        // A field of version 2 slipped into it while it still says version 1 is refused, not
        // left unsigned.
        let mut slipped = m.clone();
        slipped.manifest.standings[0].penalties = 1;
        assert!(matches!(slipped.check(&k), Err(ManifestError::Version2Fields(_))), "{:?}", slipped.check(&k));
        let mut slipped = m;
        slipped.manifest.min_games = Some(3);
        assert!(matches!(slipped.check(&k), Err(ManifestError::Version2Fields(_))));
    }

    #[test]
    fn bodies_that_shared_their_signed_bytes_now_differ() {
        // Before version 2, fields skipped when empty: a line's `penalty_points` 4000 (zigzag
        // 8000) and a body's `min_games` 8000 were both written as the bytes `1, 8000` after the
        // last line's points, so one signature held for both.
        let a = body(vec![line("Ann", 0, Some(4_000))], None);
        let b = body(vec![line("Ann", 0, None)], Some(8_000));
        assert_ne!(a, b);
        let k = key(1);
        let signed_a = a.sign(&k);
        let mut moved = b.sign(&k);
        assert_ne!(signed_a.manifest.signed_bytes(), moved.manifest.signed_bytes());
        moved.signature = signed_a.signature.clone();
        assert_eq!(moved.check(&k.verifying_key()), Err(ManifestError::BadSignature));
        // No version 2 body signs the bytes of a version 1 body.
        let v1 = body(vec![line("Ann", 0, None)], None);
        assert_eq!(v1.clone().sign(&k).manifest.version, 1);
        assert_eq!(signed_a.manifest.version, 2);
        assert_ne!(v1.sign(&k).manifest.signed_bytes(), signed_a.manifest.signed_bytes());
    }

    #[test]
    fn a_version_2_report_verifies_and_each_new_field_is_signed() {
        let k = key(1);
        let m = body(vec![line("Ann", 1, Some(8_000)), line("Bo", 0, None)], Some(2)).sign(&k);
        assert_eq!(m.manifest.version, 2);
        m.check(&k.verifying_key()).unwrap();
        let back = Manifest::from_json(&m.to_json()).unwrap();
        assert_eq!(back, m);
        back.check(&k.verifying_key()).unwrap();
        let tampered: [fn(&mut ManifestBody); 6] = [
            |b| b.min_games = Some(3),
            |b| b.min_games = None,
            |b| b.standings[0].penalties = 2,
            |b| b.standings[1].penalties = 1,
            |b| b.standings[0].penalty_points = Some(4_000),
            |b| b.standings[0].penalty_points = None,
        ];
        for (i, t) in tampered.iter().enumerate() {
            let mut changed = m.clone();
            t(&mut changed.manifest);
            assert_eq!(changed.check(&k.verifying_key()), Err(ManifestError::BadSignature), "change {i}");
        }
        // Said to be version 1, its new fields would go unsigned: refused.
        let mut old = m;
        old.manifest.version = 1;
        assert!(matches!(old.check(&k.verifying_key()), Err(ManifestError::Version2Fields(_))));
    }

    #[test]
    fn stored_verdicts_read_as_reports_state_them() {
        let v = ManifestVerdict::stored(true, None, Some(vec![1, 2]), Some("excerpt: rounds East 1".into()));
        assert_eq!((v.verdict.as_str(), v.final_scores), ("excerpt: rounds East 1", None));
        let v = ManifestVerdict::stored(false, Some("truncated".into()), Some(vec![1]), None);
        assert_eq!(v.to_string(), "invalid (truncated)");
        assert_eq!(
            ManifestVerdict::stored(true, None, Some(vec![1, -1]), None).to_string(),
            "valid with final scores [1, -1]"
        );
    }
}
