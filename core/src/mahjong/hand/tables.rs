//! The standard shape (four sets and a pair) read through per-part shape tables:
//! [`is_standard_win`], [`waits`] and [`is_win`], the checks a replay makes on every discard.

use super::special::{is_seven_distinct_pairs, is_thirteen_orphans, YAOCHU};
use crate::mahjong::Counts;

// Standard shapes are read through two tables built once, on first use: one indexed by a suit's
// nine counts, one by the seven honour counts, each read as a base-5 number (digit k is the count
// of the part's kind k). A hand is complete, or one tile short, part by part, so one entry holds
// everything `is_standard_win` and `waits` need to know about one part. An entry is zero when the
// part is neither complete nor one tile short of complete; otherwise it holds the part's tile
// count modulo 3 (its class) and:
//
// * class 0: `COMPLETE`, the part splits into sets;
// * class 1: in `WAIT_BITS`, the kinds that make it sets and a pair;
// * class 2: `COMPLETE` when it splits into sets and a pair, and in `WAIT_BITS` the kinds that
//   make it sets only.
//
// The tables are filled by enumerating the complete shapes (up to four sets, with or without a
// pair, no count above 4) and, for each, the shapes one tile short of it. A part of a hand holds
// at most 14 tiles, so four sets and a pair are all it can be. Entries are two bytes: the suit
// table has 5^9 of them (3.9 MB), the honour table 5^7 (156 kB).

/// The kinds that complete the part (bit k for its kind k).
const WAIT_BITS: u16 = 0x1ff;
/// The part is complete.
const COMPLETE: u16 = 1 << 9;
/// Where an entry holds the part's class.
const CLASS_SHIFT: u32 = 10;

/// Powers of five.
pub(super) const POW5: [usize; 10] = [1, 5, 25, 125, 625, 3125, 15_625, 78_125, 390_625, 1_953_125];

struct Tables {
    suit: Box<[u16]>,
    honour: Box<[u16]>,
}

static TABLES: std::sync::LazyLock<Tables> =
    std::sync::LazyLock::new(|| Tables { suit: shape_table(9, true), honour: shape_table(7, false) });

/// The table of a part of `kinds` kinds, with or without runs of three consecutive kinds.
fn shape_table(kinds: usize, runs: bool) -> Box<[u16]> {
    // Zeroed memory from the allocator: pages the enumeration never writes are never touched.
    let mut table = vec![0u16; POW5[kinds]];
    let mut counts = [0u8; 9];
    add_shapes(&mut table, &mut counts[..kinds], runs, 0, 0, 0);
    table.into_boxed_slice()
}

/// Marks `counts` (`sets` sets, base-5 number `index`), which is sets only, and the shapes it
/// makes with a pair added; then does the same for every shape with one more set of type `from`
/// or later (the types: a triplet of each kind, then a run from each kind), up to four sets, so
/// that each multiset of sets is visited once.
fn add_shapes(table: &mut [u16], counts: &mut [u8], runs: bool, from: usize, sets: usize, index: usize) {
    mark_complete(table, counts, index, 0);
    for p in 0..counts.len() {
        if counts[p] <= 2 {
            counts[p] += 2;
            mark_complete(table, counts, index + 2 * POW5[p], 2);
            counts[p] -= 2;
        }
    }
    if sets == 4 {
        return;
    }
    let n = counts.len();
    let types = if runs { 2 * n - 2 } else { n };
    for t in from..types {
        if t < n {
            if counts[t] <= 1 {
                counts[t] += 3;
                add_shapes(table, counts, runs, t, sets + 1, index + 3 * POW5[t]);
                counts[t] -= 3;
            }
        } else {
            let k = t - n;
            if counts[k..k + 3].iter().all(|&x| x <= 3) {
                counts[k..k + 3].iter_mut().for_each(|x| *x += 1);
                add_shapes(table, counts, runs, t, sets + 1, index + POW5[k] + POW5[k + 1] + POW5[k + 2]);
                counts[k..k + 3].iter_mut().for_each(|x| *x -= 1);
            }
        }
    }
}

/// Marks a complete shape of class `class` (0 or 2), and each shape one tile short of it as
/// waiting on that tile.
fn mark_complete(table: &mut [u16], counts: &[u8], index: usize, class: u16) {
    table[index] |= COMPLETE | class << CLASS_SHIFT;
    let short = (class + 2) % 3;
    for (k, &x) in counts.iter().enumerate() {
        if x > 0 {
            table[index - POW5[k]] |= 1 << k | short << CLASS_SHIFT;
        }
    }
}

/// One in the low bit of each byte.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;

/// The counts of a hand as the bytes of five words: kinds 1-8 of each suit, the seven honours,
/// and the nines of the three suits. Every byte is a count, 0..=4 within the domain.
///
/// Outside the domain (a count above 4, more than 14 tiles) the arithmetic below wraps instead
/// of panicking, and the answers mean nothing.
struct Words([u64; 5]);

impl Words {
    fn of(c: &Counts) -> Words {
        let word = |from: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&c[from..from + 8]);
            u64::from_le_bytes(b)
        };
        let nines = u64::from(c[8]) | u64::from(c[17]) << 8 | u64::from(c[26]) << 16;
        Words([word(0), word(9), word(18), word(26) >> 8, nines])
    }

    /// The table entry of part `s` (0-2 the suits, 3 the honours).
    fn entry(&self, t: &Tables, s: usize) -> u16 {
        let w = self.0;
        let found = if s < 3 {
            let nine = (w[4] >> (8 * s)) & 0xff;
            t.suit.get(base5(w[s]).wrapping_add(nine as usize * POW5[8]))
        } else {
            t.honour.get(base5(w[3]))
        };
        found.copied().unwrap_or(0)
    }

    fn total(&self) -> u32 {
        byte_sum(self.0.iter().fold(0, |a: u64, &w| a.wrapping_add(w)))
    }

    /// How many kinds are held an odd number of times.
    fn odd(&self) -> u32 {
        byte_sum(self.0.iter().fold(0, |a: u64, &w| a.wrapping_add(w & LOW_BITS)))
    }

    /// How many kinds are held exactly twice.
    fn pairs(&self) -> u32 {
        // For a count 0..=4 (binary 000 to 100), 2 is bit 1 without bit 0.
        byte_sum(self.0.iter().fold(0, |a: u64, &w| a.wrapping_add((w >> 1) & !w & LOW_BITS)))
    }

    /// Whether every tile is a terminal or an honour.
    fn only_yaochu(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) & 0x00ff_ffff_ffff_ff00 == 0
    }
}

/// The base-5 number whose digit k is byte k of `w`.
fn base5(w: u64) -> usize {
    // Each step's sums stay within their lanes: at most 24, then 624, then 5^8 - 1.
    let w = w.wrapping_add((w >> 8).wrapping_mul(5)) & 0x00ff_00ff_00ff_00ff;
    let w = w.wrapping_add((w >> 16).wrapping_mul(25)) & 0x0000_ffff_0000_ffff;
    (w.wrapping_add((w >> 32).wrapping_mul(625)) & 0xffff_ffff) as usize
}

/// The sum of the bytes of `w`, modulo 256.
fn byte_sum(w: u64) -> u32 {
    (w.wrapping_mul(LOW_BITS) >> 56) as u32
}

/// A standard hand (four sets and a pair, minus open melds): 2, 5, 8, 11 or 14 tiles.
pub fn is_standard_win(c: &Counts) -> bool {
    let (t, w) = (&*TABLES, Words::of(c));
    // Every part complete, exactly one of them with the pair.
    let mut paired = 0;
    for s in 0..4 {
        let e = w.entry(t, s);
        if e & COMPLETE == 0 {
            return false;
        }
        paired += e >> CLASS_SHIFT >> 1;
    }
    paired == 1
}

/// The kinds whose pair a standard hand may take: those whose pair leaves every part of the hand
/// (each suit, the honours) splitting into sets. Zero when the hand is not standard
/// ([`is_standard_win`]). Every decomposition's pair is one of them, and each of them is the
/// pair of at least one decomposition. For counts of 0 to 4 each, as every caller has checked
/// (more are no hand; the answer then means nothing, and nothing panics).
pub fn standard_pairs(c: &Counts) -> u64 {
    let (t, w) = (&*TABLES, Words::of(c));
    // Every part complete, exactly one of them with the pair: the pair is in that part.
    let mut paired = None;
    for s in 0..4 {
        let e = w.entry(t, s);
        if e & COMPLETE == 0 {
            return 0;
        }
        if e >> CLASS_SHIFT == 2 {
            if paired.is_some() {
                return 0;
            }
            paired = Some(s);
        }
    }
    let Some(s) = paired else { return 0 };
    let (first, len) = (9 * s, if s < 3 { 9 } else { 7 });
    let mut mask = 0;
    for k in first..first + len {
        if c[k] >= 2 {
            let mut less = Words(w.0);
            // Where kind k's count lies in the words (`Words::of`).
            let (word, byte) = match k {
                8 | 17 | 26 => (4, k / 9),
                _ if k < 27 => (k / 9, k % 9),
                _ => (3, k - 27),
            };
            less.0[word] = less.0[word].wrapping_sub(2 << (8 * byte));
            if less.entry(t, s) & COMPLETE != 0 {
                mask |= 1 << k;
            }
        }
    }
    mask
}

/// Any winning shape (the concealed part; `c` holds 14 - 3 x melds tiles).
pub fn is_win(c: &Counts) -> bool {
    // Seven pairs and thirteen orphans are 14 tiles.
    is_standard_win(c) || (Words::of(c).total() == 14 && (is_seven_distinct_pairs(c) || is_thirteen_orphans(c)))
}

/// The kinds that complete a concealed part of 13 - 3 x melds tiles, as a bit mask over kinds.
/// Kinds the part already holds four of are not waits.
pub fn waits(c: &Counts) -> u64 {
    let w = Words::of(c);
    let total = w.total();
    if total % 3 != 1 {
        return 0;
    }
    let mut mask = standard_waits(&w);
    if total == 13 {
        mask |= special_waits(c, &w);
    }
    mask
}

/// The waits for four sets and a pair.
fn standard_waits(w: &Words) -> u64 {
    let t = &*TABLES;
    // Every part must be complete or one tile short.
    let mut e = [0u16; 4];
    for s in [3, 0, 1, 2] {
        e[s] = w.entry(t, s);
        if e[s] == 0 {
            return 0;
        }
    }
    // The parts of classes 1 and 2 (a bit each).
    let (mut ones, mut twos) = (0u32, 0u32);
    for s in 0..4 {
        match e[s] >> CLASS_SHIFT {
            0 => {}
            1 => ones |= 1 << s,
            _ => twos |= 1 << s,
        }
    }
    let part_waits = |s: u32| u64::from(e[s as usize] & WAIT_BITS) << (9 * s);
    if twos == 0 && ones.count_ones() == 1 {
        // The pair and the last set, or a single waiting for its pair, in one part; the others
        // are sets (class 0 and not zero: complete).
        part_waits(ones.trailing_zeros())
    } else if ones == 0 && twos.count_ones() == 2 {
        // A part short of sets only, beside a complete one with the pair.
        let (a, b) = (twos.trailing_zeros(), 31 - twos.leading_zeros());
        let paired = |s: u32| e[s as usize] & COMPLETE != 0;
        (if paired(b) { part_waits(a) } else { 0 }) | if paired(a) { part_waits(b) } else { 0 }
    } else {
        0
    }
}

/// The waits for seven pairs and thirteen orphans, of a 13-tile hand.
fn special_waits(c: &Counts, w: &Words) -> u64 {
    let mut mask = 0u64;
    // Seven pairs: six pairs and a single (of 13 tiles, one kind held an odd number of times,
    // six exactly twice, leave no room for more).
    if w.odd() == 1 && w.pairs() == 6 {
        if let Some(single) = c.iter().position(|&x| x == 1) {
            mask |= 1 << single;
        }
    }
    // Thirteen orphans.
    if w.only_yaochu() {
        let kinds = YAOCHU.iter().filter(|&&k| c[k] >= 1).count();
        let twos = YAOCHU.iter().filter(|&&k| c[k] == 2).count();
        if kinds == 13 {
            for k in YAOCHU {
                mask |= 1 << k;
            }
        } else if kinds == 12 && twos == 1 {
            if let Some(&k) = YAOCHU.iter().find(|&&k| c[k] == 0) {
                mask |= 1 << k;
            }
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::super::{counts as c, kinds};
    use super::*;

    #[test]
    fn standard_wins() {
        assert!(is_win(&c("123m456p789s11122z")));
        assert!(is_win(&c("11122233344455m")));
        assert!(!is_win(&c("123m456p789s11123z")));
        assert!(is_win(&c("55z")));
        assert!(is_win(&c("11m")));
        assert!(!is_win(&c("12m")));
        assert!(is_win(&c("11123m")));
        assert!(is_win(&c("1122m3344p5566s77z")));
        assert!(is_win(&c("19m19p19s12345677z")));
        assert!(!is_win(&c("1111m3344p5566s77z")));
    }

    #[test]
    fn waits_of_common_shapes() {
        assert_eq!(kinds(waits(&c("23m456p789s11122z"))), "14m");
        assert_eq!(kinds(waits(&c("1112345678999m"))), "123456789m");
        assert_eq!(kinds(waits(&c("13m456p789s11122z"))), "2m");
        assert_eq!(kinds(waits(&c("19m19p19s1234567z"))), "19m19p19s1234567z");
        assert_eq!(kinds(waits(&c("19m19p19s1234566z"))), "7z");
        assert_eq!(kinds(waits(&c("1122m3344p5566s7z"))), "7z");
        assert_eq!(kinds(waits(&c("1m"))), "1m");
        // Four of the wait in hand: no wait.
        assert_eq!(waits(&c("1111m")), 0);
        assert_eq!(kinds(waits(&c("11m22z"))), "1m2z");
        assert_eq!(waits(&c("1357m2468p1357s9m")), 0);
    }

    /// Every entry of the shape tables that is not zero has the class of its part's tile count,
    /// and only what that class can hold.
    #[test]
    fn shape_table_entries_match_their_class() {
        for (table, kinds) in [(&TABLES.suit, 9), (&TABLES.honour, 7)] {
            assert_eq!(table.len(), POW5[kinds]);
            let mut filled = 0;
            for (index, &e) in table.iter().enumerate() {
                if e == 0 {
                    continue;
                }
                filled += 1;
                let digits: Vec<usize> = (0..kinds).map(|k| index / POW5[k] % 5).collect();
                let sum: usize = digits.iter().sum();
                assert!(sum <= 14, "{digits:?}");
                let class = e >> CLASS_SHIFT;
                assert_eq!(usize::from(class), sum % 3, "{digits:?}");
                let waits = e & WAIT_BITS;
                assert_eq!(e, class << CLASS_SHIFT | e & COMPLETE | waits, "{digits:?}");
                assert!(class != 1 || (e & COMPLETE == 0 && waits != 0), "{digits:?}");
                assert!(class != 0 || (e & COMPLETE != 0 && waits == 0), "{digits:?}");
                // A kind held four times never completes the part.
                assert!((0..kinds).all(|k| waits & 1 << k == 0 || digits[k] < 4), "{digits:?}");
            }
            assert!(filled > 1000);
        }
    }
}
