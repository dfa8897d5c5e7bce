//! The seeded random stream: every shuffle and die in Paifu comes from here.
//!
//! The algorithm is Paifu's own and specified in docs/log-format.md, so another implementation
//! can reproduce any deal:
//!
//! * A stream is blake3 in keyed mode, key = the 32-byte game seed, input = the UTF-8 bytes of a
//!   *label* that names what the stream is for (for example `tzq/round/1/deal`), read through
//!   blake3's extendable output.
//! * `next_u64` takes the next 8 output bytes as a little-endian integer.
//! * `below(n)` draws an unbiased integer in `0..n` by rejection: with `zone = 2^64 - (2^64 mod
//!   n)`, draw `x = next_u64()` until `x < zone`, then answer `x mod n`.
//! * `shuffle` is Fisher-Yates from the back: for `i` from `len-1` down to `1`, swap element `i`
//!   with element `below(i + 1)`.

use crate::digest::{context, de_bytes32, parse_hex32, ser_bytes32, BadHex, Digest};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A game's 32-byte seed. Written as 64 hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// A seed from free text: 64 hex digits are taken as the seed itself; anything else is
    /// hashed (blake3, derive-key context `paifu 2026-11 seed from text v1`).
    pub fn from_text(text: &str) -> Seed {
        match parse_hex32(text) {
            Ok(b) => Seed(b),
            Err(_) => Seed(Digest::derive(context::SEED_FROM_TEXT, &[text.as_bytes()]).0),
        }
    }

    /// The public commitment to this seed: blake3 derive-key `paifu 2026-11 seed commitment v1`
    /// over the 32 seed bytes.
    pub fn commitment(&self) -> Digest {
        Digest::derive(context::SEED_COMMITMENT, &[&self.0])
    }

    /// A sub-seed, for example the seed of game 7 of a simulated series.
    pub fn child(&self, label: &str) -> Seed {
        let mut s = self.stream(label);
        let mut out = [0u8; 32];
        s.fill(&mut out);
        Seed(out)
    }

    /// The random stream for one purpose.
    pub fn stream(&self, label: &str) -> Stream {
        Stream::new(self, label)
    }

    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({})", self.to_hex())
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl FromStr for Seed {
    type Err = BadHex;
    fn from_str(s: &str) -> Result<Self, BadHex> {
        parse_hex32(s).map(Seed)
    }
}

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ser_bytes32(&self.0, s)
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        de_bytes32(d).map(Seed)
    }
}

/// One labelled random stream of a seed.
pub struct Stream {
    reader: blake3::OutputReader,
    /// Output read ahead of use, one blake3 output block at a time (the stream's bytes are the
    /// same however they are read). One block at a time: blake3's SIMD code (see the workspace
    /// Cargo.toml) hashes several blocks at once only when several are asked for, and a bigger
    /// buffer would make blocks no one reads: a riichi hand's dice stream uses 16 bytes.
    buf: [u8; STREAM_BUF],
    /// Bytes of `buf` already used (`STREAM_BUF` when it is empty).
    pos: usize,
}

const STREAM_BUF: usize = 64;

impl Stream {
    pub fn new(seed: &Seed, label: &str) -> Stream {
        let mut h = blake3::Hasher::new_keyed(&seed.0);
        h.update(label.as_bytes());
        Stream { reader: h.finalize_xof(), buf: [0; STREAM_BUF], pos: STREAM_BUF }
    }

    pub fn fill(&mut self, out: &mut [u8]) {
        let mut done = 0;
        while done < out.len() {
            if self.pos == STREAM_BUF {
                self.reader.fill(&mut self.buf);
                self.pos = 0;
            }
            let n = (out.len() - done).min(STREAM_BUF - self.pos);
            out[done..done + n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
            self.pos += n;
            done += n;
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        // Fast path: eight bytes left in the buffer.
        if let Some(b) = self.buf.get(self.pos..self.pos + 8) {
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            self.pos += 8;
            return u64::from_le_bytes(a);
        }
        let mut b = [0u8; 8];
        self.fill(&mut b);
        u64::from_le_bytes(b)
    }

    /// An unbiased integer in `0..n`. `n == 0` gives 0.
    pub fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        loop {
            let x = self.next_u64();
            // Every x up to 2^64 - n is below the zone (rem = 2^64 mod n < n), so the rejection
            // bound is only computed for the last n - 1 values.
            if x <= u64::MAX - (n - 1) {
                return x % n;
            }
            // 2^64 mod n, computed without overflow.
            let rem = (u64::MAX % n + 1) % n;
            // zone = 2^64 - rem; x < zone  <=>  x <= u64::MAX - rem
            if rem == 0 || x <= u64::MAX - rem {
                return x % n;
            }
        }
    }

    /// Fisher-Yates from the back.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A die: 1..=sides.
    pub fn die(&mut self, sides: u64) -> u64 {
        self.below(sides) + 1
    }
}

#[cfg(test)]
impl Stream {
    /// Changes, inserts or removes one byte of `b` (not empty) at random, a new byte drawn from
    /// `alphabet`: damaged input for the tests of a reader.
    pub(crate) fn mutate(&mut self, b: &mut Vec<u8>, alphabet: &[u8]) {
        let at = self.below(b.len() as u64) as usize;
        let byte = alphabet[self.below(alphabet.len() as u64) as usize];
        match self.below(3) {
            0 => b[at] = byte,
            1 => b.insert(at, byte),
            _ => drop(b.remove(at)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let seed = Seed::from_text("range");
        let mut s = seed.stream("t");
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let v = s.below(7) as usize;
            seen[v] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }

    /// The rejection rule written out plainly, as docs/log-format.md states it.
    fn below_reference(s: &mut Stream, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        let zone = (1u128 << 64) - (1u128 << 64) % u128::from(n);
        loop {
            let x = s.next_u64();
            if u128::from(x) < zone {
                return x % n;
            }
        }
    }

    #[test]
    fn below_matches_the_specified_rejection_rule() {
        let seed = Seed::from_text("reference");
        // Bounds whose zone rejects often, rarely and never, and odd reads between them.
        let ns = [0, 1, 2, 3, 7, 136, 1 << 32, (1 << 63) + 1, u64::MAX / 3 * 2, u64::MAX, 1 << 63];
        let mut a = seed.stream("b");
        let mut b = seed.stream("b");
        for i in 0..4000 {
            let n = ns[i % ns.len()];
            assert_eq!(a.below(n), below_reference(&mut b, n), "draw {i}, n {n}");
            if i % 7 == 0 {
                let (mut x, mut y) = ([0u8; 5], [0u8; 5]);
                a.fill(&mut x);
                b.fill(&mut y);
                assert_eq!(x, y);
            }
        }
        // Reading in pieces gives the same bytes as reading at once.
        let mut whole = [0u8; 600];
        seed.stream("p").fill(&mut whole);
        let mut s = seed.stream("p");
        let mut parts = Vec::new();
        for _ in 0..75 {
            parts.extend_from_slice(&s.next_u64().to_le_bytes());
        }
        assert_eq!(parts, whole);
    }

    #[test]
    fn different_labels_give_different_streams() {
        let seed = Seed::from_text("x");
        assert_ne!(seed.stream("a").next_u64(), seed.stream("b").next_u64());
        assert_eq!(seed.stream("a").next_u64(), seed.stream("a").next_u64());
    }

    #[test]
    fn hex_text_is_the_seed_itself() {
        let hex = "00".repeat(31) + "01";
        assert_eq!(Seed::from_text(&hex).0[31], 1);
        assert_ne!(Seed::from_text("1").0, Seed::from_text("2").0);
    }
}
