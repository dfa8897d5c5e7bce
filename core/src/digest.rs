//! blake3 digests: the record chain, seed commitments, and the hex form used in files.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Context strings for blake3's key derivation mode: one per use, so that a digest of one kind
/// can never be mistaken for a digest of another. They are part of the log format (see
/// docs/log-format.md) and never change.
pub(crate) mod context {
    pub(crate) const HEADER: &str = "paifu 2026-11 log header v1";
    pub(crate) const RECORD: &str = "paifu 2026-11 log record v1";
    pub(crate) const SEED_COMMITMENT: &str = "paifu 2026-11 seed commitment v1";
    pub(crate) const SEED_FROM_TEXT: &str = "paifu 2026-11 seed from text v1";
    pub(crate) const CERTIFICATE: &str = "paifu 2026-11 certificate v1";
    /// A header's rule options, as a certificate names them.
    pub(crate) const OPTIONS: &str = "paifu 2026-11 options v1";
    /// A tournament manifest: its signed body, a game's leaf, a node of its Merkle tree.
    pub(crate) const MANIFEST: &str = "paifu 2026-11 manifest v1";
    /// A version 2 manifest's signed body (every field written).
    pub(crate) const MANIFEST_V2: &str = "paifu 2026-11 manifest v2";
    pub(crate) const MANIFEST_LEAF: &str = "paifu 2026-11 manifest leaf v1";
    pub(crate) const MANIFEST_NODE: &str = "paifu 2026-11 manifest node v1";
    /// Fair seeds: a party's commitment, the set of commitments, the match seed.
    pub(crate) const CONTRIBUTION: &str = "paifu 2026-11 contribution v1";
    pub(crate) const COMMITMENTS: &str = "paifu 2026-11 commitments v1";
    pub(crate) const MATCH_SEED: &str = "paifu 2026-11 match seed v1";
}

/// A 32-byte blake3 digest, written as 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// blake3 in key-derivation mode with `context`, over `parts` in order.
    pub fn derive(context: &str, parts: &[&[u8]]) -> Digest {
        let mut h = blake3::Hasher::new_derive_key(context);
        for p in parts {
            h.update(p);
        }
        Digest(*h.finalize().as_bytes())
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({})", self.to_hex())
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// A string is not 64 hex digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected 64 hex digits, got {0:?}")]
pub struct BadHex(pub String);

pub(crate) fn parse_hex32(s: &str) -> Result<[u8; 32], BadHex> {
    let mut out = [0u8; 32];
    if s.len() != 64 {
        return Err(BadHex(s.chars().take(80).collect()));
    }
    hex::decode_to_slice(s, &mut out).map_err(|_| BadHex(s.chars().take(80).collect()))?;
    Ok(out)
}

impl FromStr for Digest {
    type Err = BadHex;
    fn from_str(s: &str) -> Result<Self, BadHex> {
        parse_hex32(s).map(Digest)
    }
}

pub(crate) fn ser_bytes32<S: Serializer>(b: &[u8; 32], s: S) -> Result<S::Ok, S::Error> {
    if s.is_human_readable() {
        s.serialize_str(&hex::encode(b))
    } else {
        b.serialize(s)
    }
}

pub(crate) fn de_bytes32<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 32], D::Error> {
    if d.is_human_readable() {
        let s = String::deserialize(d)?;
        parse_hex32(&s).map_err(serde::de::Error::custom)
    } else {
        <[u8; 32]>::deserialize(d)
    }
}

impl Serialize for Digest {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ser_bytes32(&self.0, s)
    }
}

impl<'de> Deserialize<'de> for Digest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        de_bytes32(d).map(Digest)
    }
}
