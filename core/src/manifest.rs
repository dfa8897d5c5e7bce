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

use crate::cert::{check_ed25519, CertError};
use crate::digest::{context, Digest};
use crate::replay::{Report, Verdict};
use ed25519_dalek::{Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

/// The version of the manifest format this Paifu writes.
pub const MANIFEST_VERSION: u32 = 1;

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
    /// Penalties recorded against the player (rule incidents); left out when none, so that a
    /// manifest without any signs the bytes it signed before penalties were listed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub penalties: u64,
    /// What they cost in score units, when the rulesets set a cost (already in the scores);
    /// left out when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty_points: Option<i64>,
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
    /// The counted games a ranked line needs; lines with fewer have rank 0 and follow the
    /// ranked ones. Left out when the tournament sets no minimum (the body signs as before).
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
    #[error("manifest version {0} is not one this Paifu reads (it reads version {MANIFEST_VERSION})")]
    Version(u32),
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
            version: MANIFEST_VERSION,
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

    fn signing_digest(&self) -> Digest {
        let bytes = postcard::to_stdvec(self).unwrap_or_default();
        Digest::derive(context::MANIFEST, &[&bytes])
    }

    /// Signs it.
    pub fn sign(self, key: &SigningKey) -> Manifest {
        let sig = key.sign(&self.signing_digest().0);
        Manifest { manifest: self, signature: hex::encode(sig.to_bytes()) }
    }
}

impl Manifest {
    /// Checks the version, that `key` signed it, the signature, that the games are in file order
    /// with no file twice, and that the root is theirs.
    pub fn check(&self, key: &VerifyingKey) -> Result<(), ManifestError> {
        let m = &self.manifest;
        if m.version != MANIFEST_VERSION {
            return Err(ManifestError::Version(m.version));
        }
        if m.signer.0 != key.to_bytes() {
            return Err(ManifestError::WrongSigner { signer: m.signer.to_hex(), given: hex::encode(key.to_bytes()) });
        }
        check_ed25519(key, &m.signing_digest(), &self.signature).map_err(|e| match e {
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
