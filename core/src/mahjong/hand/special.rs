//! The winning shapes other than four sets and a pair: seven pairs (two readings), thirteen
//! orphans, and the Chinese Official rules' knitted shapes (knitted straight, honours and
//! knitted tiles).

use super::is_standard_win;
use crate::mahjong::Counts;

/// The 13 terminal and honour kinds (yaochu).
pub const YAOCHU: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

fn total(c: &Counts) -> u32 {
    c.iter().map(|&x| u32::from(x)).sum()
}

/// Seven different pairs (riichi: a four of a kind is not two pairs).
pub fn is_seven_distinct_pairs(c: &Counts) -> bool {
    c.iter().filter(|&&x| x == 2).count() == 7
}

/// Seven pairs where a four of a kind counts as two pairs (the Chinese Official rules).
pub fn is_seven_pairs(c: &Counts) -> bool {
    total(c) == 14 && c.iter().all(|&x| x % 2 == 0)
}

/// Thirteen orphans: every terminal and honour, one of them twice.
pub fn is_thirteen_orphans(c: &Counts) -> bool {
    total(c) == 14 && YAOCHU.iter().all(|&k| c[k] >= 1) && YAOCHU.iter().any(|&k| c[k] == 2)
}

/// One of the six knitted straights: 1-4-7 of one suit, 2-5-8 of another and 3-6-9 of the third.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Knitted {
    /// The suits (0 m, 1 p, 2 s) of the tiles numbered 1-4-7, 2-5-8 and 3-6-9.
    suits: [u8; 3],
}

impl Knitted {
    /// The six knitted straights, one for each way to give the three suits the three rows.
    pub const ALL: [Knitted; 6] = [
        Knitted { suits: [0, 1, 2] },
        Knitted { suits: [0, 2, 1] },
        Knitted { suits: [1, 0, 2] },
        Knitted { suits: [1, 2, 0] },
        Knitted { suits: [2, 0, 1] },
        Knitted { suits: [2, 1, 0] },
    ];

    /// The suit (0 m, 1 p, 2 s) of the tiles numbered `n`, `n + 3` and `n + 6` (`n` 1-3).
    pub fn suit_of(self, n: usize) -> usize {
        usize::from(self.suits[(n + 2) % 3])
    }

    /// Its nine kinds, 1-4-7 first.
    pub fn kinds(self) -> [usize; 9] {
        std::array::from_fn(|i| usize::from(self.suits[i / 3]) * 9 + i / 3 + 3 * (i % 3))
    }

    /// Its nine kinds as a bit mask (bit k for kind k).
    pub const fn mask(self) -> u64 {
        let mut m = 0;
        let mut i = 0;
        while i < 9 {
            m |= 1 << (self.suits[i / 3] as usize * 9 + i / 3 + 3 * (i % 3));
            i += 1;
        }
        m
    }

    /// Whether the kind `k` is one of its nine.
    pub fn contains(self, k: usize) -> bool {
        k < 27 && usize::from(self.suits[k % 9 % 3]) == k / 9
    }
}

/// The knitted straight whose nine tiles are all in `c`, and `c` without them. A hand holds at
/// most one: two knitted straights have 15 kinds or more between them.
pub fn knitted_straight(c: &Counts) -> Option<(Knitted, Counts)> {
    Knitted::ALL.into_iter().find(|k| k.kinds().iter().all(|&x| c[x] >= 1)).map(|k| {
        let mut rest = *c;
        for x in k.kinds() {
            rest[x] -= 1;
        }
        (k, rest)
    })
}

/// A knitted straight with a set and a pair, the set possibly a meld (the concealed part then
/// holds the straight and the pair): 14 - 3 x melds tiles.
pub fn is_knitted_straight_win(c: &Counts) -> bool {
    knitted_straight(c).is_some_and(|(_, rest)| matches!(total(&rest), 2 | 5) && is_standard_win(&rest))
}

/// Honours and knitted tiles: fourteen different tiles, each an honour or a tile of one knitted
/// straight (with all seven honours it is the greater form).
pub fn is_honours_and_knitted(c: &Counts) -> bool {
    total(c) == 14
        && c.iter().all(|&x| x <= 1)
        && Knitted::ALL.iter().any(|k| (0..27).all(|x| c[x] == 0 || k.contains(x)))
}

#[cfg(test)]
mod tests {
    use super::super::counts as c;
    use super::*;

    #[test]
    fn seven_pairs_both_ways() {
        assert!(is_seven_distinct_pairs(&c("1122m3344p5566s77z")));
        assert!(!is_seven_distinct_pairs(&c("1111m3344p5566s77z")));
        assert!(is_seven_pairs(&c("1122m3344p5566s77z")));
        assert!(is_seven_pairs(&c("1111m3344p5566s77z")));
        assert!(!is_seven_pairs(&c("1112m3344p5566s77z")));
        assert!(!is_seven_pairs(&c("1122m3344p5566s")));
    }

    #[test]
    fn thirteen_orphans() {
        assert!(is_thirteen_orphans(&c("19m19p19s12345677z")));
        assert!(!is_thirteen_orphans(&c("19m19p19s1234567z")));
        assert!(!is_thirteen_orphans(&c("19m19p11s12345677z")));
    }

    #[test]
    fn knitted_straights_are_the_six_rows_of_suits() {
        let mut all: Vec<usize> = Knitted::ALL.iter().flat_map(|k| k.kinds()).collect();
        // Each suited kind is in exactly two of the six (its suit is given its row twice).
        all.sort_unstable();
        assert_eq!(all, (0..27).flat_map(|k| [k, k]).collect::<Vec<_>>());
        for k in Knitted::ALL {
            assert!((0..34).all(|x| k.contains(x) == k.kinds().contains(&x)), "{k:?}");
            assert!((0..34).all(|x| k.contains(x) == (k.mask() & 1 << x != 0)), "{k:?}");
            for n in 1..=3 {
                assert!(k.kinds().contains(&(k.suit_of(n) * 9 + n - 1)), "{k:?} {n}");
            }
        }
        let k = knitted_straight(&c("147m258p369s")).unwrap().0;
        assert_eq!((k.suit_of(1), k.suit_of(2), k.suit_of(3)), (0, 1, 2));
    }

    #[test]
    fn knitted_straight_wins() {
        let (k, rest) = knitted_straight(&c("147m258p369s789m55z")).unwrap();
        assert_eq!(k.kinds(), [0, 3, 6, 10, 13, 16, 20, 23, 26]);
        assert_eq!(rest, c("789m55z"));
        assert!(is_knitted_straight_win(&c("147m258p369s789m55z")));
        assert!(is_knitted_straight_win(&c("369m147p258s111z22z")));
        // Beside one meld: the straight and a pair.
        assert!(is_knitted_straight_win(&c("147p258s369m11z")));
        assert!(!is_knitted_straight_win(&c("147m258p369s789m56z")));
        assert!(!is_knitted_straight_win(&c("147m258m369s789p55z")));
        assert!(!is_knitted_straight_win(&c("147m258p369s")));
        assert!(knitted_straight(&c("147m258p36s789m55z")).is_none());
    }

    #[test]
    fn honours_and_knitted_tiles() {
        assert!(is_honours_and_knitted(&c("147m258p369s12345z")));
        assert!(is_honours_and_knitted(&c("14m25p369s1234567z")));
        assert!(is_honours_and_knitted(&c("147m58p39s1234567z")));
        // A pair, thirteen tiles, a tile of another row.
        assert!(!is_honours_and_knitted(&c("147m258p369s11234z")));
        assert!(!is_honours_and_knitted(&c("147m258p369s2345z")));
        assert!(!is_honours_and_knitted(&c("147m258p368s12345z")));
        assert!(!is_honours_and_knitted(&c("147m258p39s1p12345z")));
    }
}
