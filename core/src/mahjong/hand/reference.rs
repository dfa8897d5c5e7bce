//! The algorithms `waits`, `is_win` and `is_standard_win` had before the shape tables, kept as
//! a reference: one suit at a time, greedy set splitting, and waits found by trying each kind.
//! The tests below check that the table-driven versions give the same answers, exhaustively for
//! single parts and on many seeded whole hands.

use crate::mahjong::hand::{is_seven_distinct_pairs, is_thirteen_orphans, YAOCHU};
use crate::mahjong::Counts;

/// Whether nine counts of one suit split into runs and triplets only (greedy is exact: three
/// equal runs are three triplets).
fn suit_sets(a: &[u8]) -> bool {
    let mut c = [0u8; 9];
    c[..a.len()].copy_from_slice(a);
    for i in 0..9 {
        let mut x = c[i];
        if x >= 3 {
            x -= 3;
        }
        if x > 0 {
            if i + 2 >= 9 || c[i + 1] < x || c[i + 2] < x {
                return false;
            }
            c[i + 1] -= x;
            c[i + 2] -= x;
        }
    }
    true
}

fn suit_pair_sets(a: &[u8]) -> bool {
    let mut c = [0u8; 9];
    c[..a.len()].copy_from_slice(a);
    for p in 0..a.len() {
        if c[p] >= 2 {
            c[p] -= 2;
            let ok = suit_sets(&c);
            c[p] += 2;
            if ok {
                return true;
            }
        }
    }
    false
}

fn honor_complete(a: &[u8], with_pair: bool) -> bool {
    let mut pairs = 0;
    for &x in a {
        match x {
            0 | 3 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    pairs == usize::from(with_pair)
}

/// Whether one suit (0-2 suited, 3 honours) is complete: sets only, or sets and one pair.
fn part_complete(c: &Counts, suit: usize, with_pair: bool) -> bool {
    if suit == 3 {
        honor_complete(&c[27..34], with_pair)
    } else {
        let a = &c[suit * 9..suit * 9 + 9];
        if with_pair {
            suit_pair_sets(a)
        } else {
            suit_sets(a)
        }
    }
}

fn suit_sum(c: &Counts, suit: usize) -> u32 {
    let r = if suit == 3 { 27..34 } else { suit * 9..suit * 9 + 9 };
    c[r].iter().map(|&x| u32::from(x)).sum()
}

/// A standard hand (four sets and a pair, minus open melds): 2, 5, 8, 11 or 14 tiles.
pub(super) fn is_standard_win(c: &Counts) -> bool {
    let mut pair_suit = None;
    for s in 0..4 {
        match suit_sum(c, s) % 3 {
            0 => {}
            2 if pair_suit.is_none() => pair_suit = Some(s),
            _ => return false,
        }
    }
    let Some(ps) = pair_suit else { return false };
    (0..4).all(|s| part_complete(c, s, s == ps))
}

/// Any winning shape (the concealed part; `c` holds 14 - 3 x melds tiles).
pub(super) fn is_win(c: &Counts) -> bool {
    is_standard_win(c) || is_seven_distinct_pairs(c) || is_thirteen_orphans(c)
}

/// The kinds that complete a concealed part of 13 - 3 x melds tiles, as a bit mask over kinds.
/// Kinds the part already holds four of are not waits.
pub(super) fn waits(c: &Counts) -> u64 {
    let mut mask = 0u64;
    let total: u32 = c.iter().map(|&x| u32::from(x)).sum();
    if total % 3 != 1 {
        return 0;
    }
    // Suits whose tile count leaves 1 or 2 over three (at most two of each are useful).
    let (mut r1, mut n1) = ([0usize; 4], 0);
    let (mut r2, mut n2) = ([0usize; 4], 0);
    for s in 0..4 {
        match suit_sum(c, s) % 3 {
            0 => {}
            1 => {
                r1[n1] = s;
                n1 += 1;
            }
            _ => {
                r2[n2] = s;
                n2 += 1;
            }
        }
    }
    let suit_waits = |s: usize, with_pair: bool| -> u64 {
        let range = if s == 3 { 27..34 } else { s * 9..s * 9 + 9 };
        let mut m = 0u64;
        let mut cc = *c;
        for k in range {
            if cc[k] >= 4 {
                continue;
            }
            cc[k] += 1;
            if part_complete(&cc, s, with_pair) {
                m |= 1 << k;
            }
            cc[k] -= 1;
        }
        m
    };
    let others_complete = |skip: usize, pair_suit: Option<usize>| -> bool {
        (0..4).filter(|&s| s != skip).all(|s| part_complete(c, s, Some(s) == pair_suit))
    };
    if n1 == 1 && n2 == 0 {
        if others_complete(r1[0], None) {
            mask |= suit_waits(r1[0], true);
        }
    } else if n1 == 0 && n2 == 2 {
        for (a, b) in [(r2[0], r2[1]), (r2[1], r2[0])] {
            if others_complete(a, Some(b)) {
                mask |= suit_waits(a, false);
            }
        }
    }
    if total == 13 {
        // Seven pairs: six pairs and a single.
        let (mut pairs, mut singles, mut single) = (0, 0, 0);
        for (k, &x) in c.iter().enumerate() {
            match x {
                1 => {
                    singles += 1;
                    single = k;
                }
                2 => pairs += 1,
                _ => {}
            }
        }
        if pairs == 6 && singles == 1 {
            mask |= 1 << single;
        }
        // Thirteen orphans.
        if c.iter().enumerate().all(|(k, &x)| x == 0 || YAOCHU.contains(&k)) {
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
    }
    mask
}

#[cfg(test)]
mod tests {
    use crate::mahjong::hand::tables::POW5;
    use crate::mahjong::{counts_of, parse_tiles, tiles_text, Counts, Tile};
    use crate::random::{Seed, Stream};

    fn text(c: &Counts) -> String {
        let tiles: Vec<Tile> =
            (0..34).flat_map(|k| std::iter::repeat_n(Tile::kind_tile(k), usize::from(c[k]))).collect();
        tiles_text(&tiles)
    }

    /// What the checked hands covered.
    #[derive(Default, Debug)]
    struct Seen {
        hands: usize,
        waiting: usize,
        wins: usize,
        /// Waiting hands holding four of a kind.
        waiting_with_four: usize,
    }

    impl Seen {
        /// Compares the three functions with the reference on `c` (counts 0..=4, at most 14).
        fn check(&mut self, c: &Counts) {
            assert!(c.iter().all(|&x| x <= 4) && c.iter().map(|&x| u32::from(x)).sum::<u32>() <= 14, "{c:?}");
            let w = crate::mahjong::hand::waits(c);
            assert_eq!(w, super::waits(c), "waits of {}", text(c));
            let standard = crate::mahjong::hand::is_standard_win(c);
            assert_eq!(standard, super::is_standard_win(c), "is_standard_win of {}", text(c));
            let win = crate::mahjong::hand::is_win(c);
            assert_eq!(win, super::is_win(c), "is_win of {}", text(c));
            self.hands += 1;
            if w != 0 {
                self.waiting += 1;
                if c.contains(&4) {
                    self.waiting_with_four += 1;
                }
            }
            self.wins += usize::from(win);
        }

        /// Checks `c` with `extra` added, when that stays within the domain.
        fn check_with(&mut self, c: &Counts, extra: &str) {
            let e = counts_of(&parse_tiles(extra).unwrap());
            let mut d = *c;
            for k in 0..34 {
                d[k] += e[k];
            }
            if d.iter().all(|&x| x <= 4) && d.iter().map(|&x| u32::from(x)).sum::<u32>() <= 14 {
                self.check(&d);
            }
        }
    }

    /// Every count vector of `kinds` kinds (0..=4 each) with at most 14 tiles.
    fn shapes(kinds: usize) -> impl Iterator<Item = [u8; 9]> {
        (0..POW5[kinds]).filter_map(move |n| {
            let mut d = [0u8; 9];
            for k in 0..kinds {
                d[k] = (n / POW5[k] % 5) as u8;
            }
            (d.iter().map(|&x| u32::from(x)).sum::<u32>() <= 14).then_some(d)
        })
    }

    #[test]
    fn every_single_suit_shape_matches_the_reference() {
        let mut seen = Seen::default();
        for (n, d) in shapes(9).enumerate() {
            // Each shape alone in each suit, and in one of them beside an honour pair, an honour
            // single, an honour triplet, and a pair, a single and a run of another suit.
            for suit in 0..3 {
                let mut c = [0u8; 34];
                c[suit * 9..suit * 9 + 9].copy_from_slice(&d);
                seen.check(&c);
                if suit == n % 3 {
                    let other = ["55", "1", "123"].map(|t| format!("{t}{}", ["p", "s", "m"][suit]));
                    for extra in ["77z", "7z", "111z", &other[0], &other[1], &other[2]] {
                        seen.check_with(&c, extra);
                    }
                }
            }
        }
        assert!(seen.waiting > 100_000 && seen.wins > 10_000 && seen.waiting_with_four > 10_000, "{seen:?}");
    }

    #[test]
    fn every_honour_shape_matches_the_reference() {
        let mut seen = Seen::default();
        for d in shapes(7) {
            let mut c = [0u8; 34];
            c[27..34].copy_from_slice(&d[..7]);
            seen.check(&c);
            for extra in ["55m", "5p", "123s", "19m19p19s"] {
                seen.check_with(&c, extra);
            }
        }
        // Four of an honour is never part of a winning shape.
        assert!(seen.waiting > 1_000 && seen.wins > 500 && seen.waiting_with_four == 0, "{seen:?}");
    }

    /// A kind of `suits` (0-2), or an honour when `honours`.
    fn kind(s: &mut Stream, suits: &[usize], honours: bool) -> usize {
        let pool = 9 * suits.len() + if honours { 7 } else { 0 };
        let i = s.below(pool as u64) as usize;
        if i < 9 * suits.len() {
            suits[i / 9] * 9 + i % 9
        } else {
            27 + i - 9 * suits.len()
        }
    }

    /// `n` tiles drawn from a full wall of the kinds of `suits` and, when `honours`, honours.
    fn drawn(s: &mut Stream, n: usize, suits: &[usize], honours: bool) -> Counts {
        let mut c = [0u8; 34];
        for _ in 0..n {
            loop {
                let k = kind(s, suits, honours);
                if c[k] < 4 {
                    c[k] += 1;
                    break;
                }
            }
        }
        c
    }

    /// `sets` sets and a pair of the kinds of `suits` (and honours), some `forced` kind held four
    /// times when given.
    fn complete(s: &mut Stream, sets: usize, suits: &[usize], honours: bool, forced: Option<usize>) -> Counts {
        loop {
            let mut c = [0u8; 34];
            let mut left = sets;
            if let (Some(k), true) = (forced, sets >= 2) {
                // A triplet and a run through the same kind.
                c[k] += 3;
                let first = (k - (k % 9).min(s.below(3) as usize)).min(k / 9 * 9 + 6);
                for x in first..first + 3 {
                    c[x] += 1;
                }
                left -= 2;
            }
            for _ in 0..left {
                if s.below(5) < 3 {
                    let k = suits[s.below(suits.len() as u64) as usize] * 9 + s.below(7) as usize;
                    for x in k..k + 3 {
                        c[x] += 1;
                    }
                } else {
                    c[kind(s, suits, honours)] += 3;
                }
            }
            c[kind(s, suits, honours)] += 2;
            if c.iter().all(|&x| x <= 4) {
                return c;
            }
        }
    }

    /// Removes a tile at random (one of a kind in hand).
    fn remove_one(s: &mut Stream, c: &mut Counts) {
        let total: u64 = c.iter().map(|&x| u64::from(x)).sum();
        let mut i = s.below(total);
        for x in c.iter_mut() {
            if i < u64::from(*x) {
                *x -= 1;
                return;
            }
            i -= u64::from(*x);
        }
    }

    /// Adds a tile of a kind held fewer than four times.
    fn add_one(s: &mut Stream, c: &mut Counts, suits: &[usize], honours: bool) {
        loop {
            let k = kind(s, suits, honours);
            if c[k] < 4 {
                c[k] += 1;
                return;
            }
        }
    }

    #[test]
    fn random_hands_match_the_reference() {
        let mut s = Seed::from_text("hand waits reference").stream("hands");
        let mut seen = Seen::default();
        let mut tenpai = Seen::default();
        let all: &[usize] = &[0, 1, 2];
        for i in 0..100_000 {
            // Concealed sets beside 4 - sets open melds.
            let sets = [4, 4, 4, 3, 2, 1, 0][i % 7];
            // Which kinds: all, one suit with or without honours, two suits.
            let (suits, honours): (Vec<usize>, bool) = match s.below(6) {
                0..=2 => (all.to_vec(), true),
                3 => (vec![s.below(3) as usize], true),
                4 => (vec![s.below(3) as usize], false),
                _ => {
                    let a = s.below(3) as usize;
                    (vec![a, (a + 1 + s.below(2) as usize) % 3], s.below(2) == 0)
                }
            };
            match s.below(8) {
                0 => {
                    seen.check(&drawn(&mut s, 3 * sets + 1, &suits, honours));
                    seen.check(&drawn(&mut s, 3 * sets + 2, &suits, honours));
                }
                1..=4 => {
                    // A complete hand, a tile short of it (tenpai) and one further off.
                    let forced = (s.below(3) == 0)
                        .then(|| suits[s.below(suits.len() as u64) as usize] * 9 + s.below(9) as usize);
                    let mut c = complete(&mut s, sets, &suits, honours, forced);
                    seen.check(&c);
                    remove_one(&mut s, &mut c);
                    tenpai.check(&c);
                    let mut d = c;
                    remove_one(&mut s, &mut d);
                    add_one(&mut s, &mut d, &suits, honours);
                    seen.check(&d);
                    add_one(&mut s, &mut d, &suits, honours);
                    seen.check(&d);
                }
                5 | 6 => {
                    // Seven pairs, now and then with four of a kind, and its tenpai.
                    let mut kinds: Vec<usize> = (0..34).filter(|&k| k >= 27 || s.below(2) == 0).collect();
                    s.shuffle(&mut kinds);
                    let mut c = [0u8; 34];
                    for &k in &kinds[..7] {
                        c[k] = 2;
                    }
                    if s.below(4) == 0 {
                        c[kinds[0]] = 4;
                        c[kinds[1]] = 0;
                    }
                    seen.check(&c);
                    remove_one(&mut s, &mut c);
                    tenpai.check(&c);
                }
                _ => {
                    // Thirteen orphans, with or without the pair, and a near miss.
                    let mut c = [0u8; 34];
                    for k in super::YAOCHU {
                        c[k] = 1;
                    }
                    c[super::YAOCHU[s.below(13) as usize]] += 1;
                    seen.check(&c);
                    remove_one(&mut s, &mut c);
                    tenpai.check(&c);
                    remove_one(&mut s, &mut c);
                    add_one(&mut s, &mut c, all, true);
                    seen.check(&c);
                }
            }
        }
        assert!(seen.hands > 200_000 && seen.wins > 50_000 && seen.waiting > 15_000, "{seen:?}");
        assert!(tenpai.hands > 80_000 && tenpai.waiting > tenpai.hands * 9 / 10, "{tenpai:?}");
        assert!(tenpai.waiting_with_four > 10_000, "{tenpai:?}");
    }
}
