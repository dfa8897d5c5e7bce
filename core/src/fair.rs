//! Fair seeds: a match's seed from contributions that were committed before any was revealed,
//! so that no single party chooses the tiles (docs/protocol.md, "Fair randomness").
//!
//! Every party (the organiser and each participant) picks a secret 32-byte contribution and
//! publishes its commitment, `derive_key("paifu 2026-11 contribution v1", le64(len(name)) ‖ name ‖
//! value)` (the name is bound in, so nobody can present another's commitment as their own). Once
//! every commitment is published, the contributions are revealed to the host, each checked
//! against its commitment, and the seed is `derive_key("paifu 2026-11 match seed v1", for each
//! party in name order: le64(len(name)) ‖ name ‖ value)`. The games' seeds are its children
//! (`Seed::child`), each committed in its log's header before the first deal and revealed after
//! the last.

use crate::digest::{context, Digest};
use crate::random::Seed;
use std::collections::BTreeMap;

/// A party's secret contribution.
pub type Contribution = [u8; 32];

/// Why contributions do not make a seed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FairError {
    #[error("no commitments: a fair seed needs at least one party besides the host's own choice")]
    NoParty,
    #[error("{0:?} committed but did not reveal a contribution")]
    Missing(String),
    #[error("{0:?} revealed a contribution without having committed to one")]
    Uncommitted(String),
    #[error("{name:?} revealed a contribution that is not the one committed to ({commitment})")]
    Mismatch { name: String, commitment: Digest },
}

fn framed<'a>(name: &'a str, value: &'a Contribution, len: &'a [u8; 8]) -> [&'a [u8]; 3] {
    [len, name.as_bytes(), value]
}

/// The commitment `name` publishes to `value`.
pub fn commit(name: &str, value: &Contribution) -> Digest {
    let len = (name.len() as u64).to_le_bytes();
    Digest::derive(context::CONTRIBUTION, &framed(name, value, &len))
}

/// The digest of a set of commitments, to publish before the first deal (and to write into
/// every game's header): once it is out, no commitment can be swapped.
pub fn commitments_digest(commitments: &BTreeMap<String, Digest>) -> Digest {
    let mut parts: Vec<Vec<u8>> = Vec::new();
    for (name, c) in commitments {
        parts.push((name.len() as u64).to_le_bytes().to_vec());
        parts.push(name.as_bytes().to_vec());
        parts.push(c.0.to_vec());
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    Digest::derive(context::COMMITMENTS, &refs)
}

/// The match seed from the revealed contributions, each checked against its commitment: every
/// party that committed must reveal, and only they.
pub fn seed_of(
    commitments: &BTreeMap<String, Digest>,
    reveals: &BTreeMap<String, Contribution>,
) -> Result<Seed, FairError> {
    if commitments.is_empty() {
        return Err(FairError::NoParty);
    }
    if let Some(name) = reveals.keys().find(|n| !commitments.contains_key(*n)) {
        return Err(FairError::Uncommitted(name.clone()));
    }
    let mut h = blake3::Hasher::new_derive_key(context::MATCH_SEED);
    for (name, c) in commitments {
        let value = reveals.get(name).ok_or_else(|| FairError::Missing(name.clone()))?;
        if commit(name, value) != *c {
            return Err(FairError::Mismatch { name: name.clone(), commitment: *c });
        }
        let len = (name.len() as u64).to_le_bytes();
        for part in framed(name, value, &len) {
            h.update(part);
        }
    }
    Ok(Seed(*h.finalize().as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parties(values: &[(&str, u8)]) -> (BTreeMap<String, Digest>, BTreeMap<String, Contribution>) {
        let reveals: BTreeMap<String, Contribution> = values.iter().map(|(n, v)| ((*n).to_owned(), [*v; 32])).collect();
        let commitments = reveals.iter().map(|(n, v)| (n.clone(), commit(n, v))).collect();
        (commitments, reveals)
    }

    #[test]
    fn the_seed_is_fixed_by_every_contribution_and_by_nobody_alone() {
        let (c, r) = parties(&[("organiser", 1), ("alice", 2), ("bob", 3)]);
        let seed = seed_of(&c, &r).unwrap();
        assert_eq!(seed, seed_of(&c, &r).unwrap(), "the same reveals, the same seed");
        // Any one contribution changed (with its commitment) changes the seed.
        for who in ["organiser", "alice", "bob"] {
            let (mut c2, mut r2) = (c.clone(), r.clone());
            r2.insert(who.into(), [9; 32]);
            c2.insert(who.into(), commit(who, &[9; 32]));
            assert_ne!(seed_of(&c2, &r2).unwrap(), seed, "{who}");
        }
        // A known answer, so another implementation can check itself against this one.
        let (c1, r1) = parties(&[("organiser", 0)]);
        let expect = {
            let mut h = blake3::Hasher::new_derive_key("paifu 2026-11 match seed v1");
            h.update(&9u64.to_le_bytes());
            h.update(b"organiser");
            h.update(&[0; 32]);
            *h.finalize().as_bytes()
        };
        assert_eq!(seed_of(&c1, &r1).unwrap().0, expect);
    }

    #[test]
    fn reveals_must_match_their_commitments_and_every_party_must_reveal() {
        let (c, mut r) = parties(&[("organiser", 1), ("alice", 2)]);
        r.insert("alice".into(), [7; 32]);
        assert!(matches!(seed_of(&c, &r), Err(FairError::Mismatch { name, .. }) if name == "alice"));
        let (c, mut r) = parties(&[("organiser", 1), ("alice", 2)]);
        r.remove("alice");
        assert_eq!(seed_of(&c, &r), Err(FairError::Missing("alice".into())));
        let (c, mut r) = parties(&[("organiser", 1)]);
        r.insert("mallory".into(), [5; 32]);
        assert_eq!(seed_of(&c, &r), Err(FairError::Uncommitted("mallory".into())));
        assert_eq!(seed_of(&BTreeMap::new(), &BTreeMap::new()), Err(FairError::NoParty));
    }

    #[test]
    fn a_commitment_binds_its_name_and_the_set_binds_every_commitment() {
        assert_ne!(commit("alice", &[1; 32]), commit("bob", &[1; 32]));
        // The length prefix keeps "ab" + value apart from "a" + "b"-started value.
        assert_ne!(commit("ab", &[0; 32]), commit("a", &[0; 32]));
        let (c, _) = parties(&[("organiser", 1), ("alice", 2)]);
        let mut c2 = c.clone();
        c2.insert("alice".into(), commit("alice", &[3; 32]));
        assert_ne!(commitments_digest(&c), commitments_digest(&c2));
    }
}
