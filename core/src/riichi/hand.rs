//! Hand shapes: winning-hand checks and decompositions (standard, seven pairs, thirteen orphans),
//! waits, and shanten.
//!
//! Everything works on tile counts by kind ([`Counts`]); red fives count as plain fives here.

use super::tile::Counts;

/// The 13 terminal and honour kinds.
pub const YAOCHU: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// A concealed set of a decomposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Set {
    /// A run starting at this kind.
    Run(u8),
    /// Three of this kind.
    Triplet(u8),
}

/// One way to read a standard hand: a pair and the concealed sets (open melds are separate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decomp {
    pub pair: u8,
    pub sets: [Set; 4],
    pub len: u8,
}

impl Decomp {
    pub fn sets(&self) -> &[Set] {
        &self.sets[..usize::from(self.len)]
    }
}

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
pub fn is_standard_win(c: &Counts) -> bool {
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

/// Seven different pairs (a four of a kind is not two pairs).
pub fn is_chiitoitsu(c: &Counts) -> bool {
    c.iter().filter(|&&x| x == 2).count() == 7
}

/// Thirteen orphans: every terminal and honour, one of them twice.
pub fn is_kokushi(c: &Counts) -> bool {
    let total: u32 = c.iter().map(|&x| u32::from(x)).sum();
    total == 14 && YAOCHU.iter().all(|&k| c[k] >= 1) && YAOCHU.iter().any(|&k| c[k] == 2)
}

/// Any winning shape (the concealed part; `c` holds 14 - 3 x melds tiles).
pub fn is_win(c: &Counts) -> bool {
    is_standard_win(c) || is_chiitoitsu(c) || is_kokushi(c)
}

/// The kinds that complete a concealed part of 13 - 3 x melds tiles, as a bit mask over kinds.
/// Kinds the part already holds four of are not waits.
pub fn waits(c: &Counts) -> u64 {
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

/// Every decomposition of a standard winning part into a pair and sets.
pub fn decompositions(c: &Counts) -> Vec<Decomp> {
    let mut out = Vec::new();
    if !is_standard_win(c) {
        return out;
    }
    let mut cc = *c;
    for p in 0..34 {
        if cc[p] >= 2 {
            cc[p] -= 2;
            let mut d = Decomp { pair: p as u8, sets: [Set::Run(0); 4], len: 0 };
            sets_dfs(&mut cc, 0, &mut d, &mut out);
            cc[p] += 2;
        }
    }
    out
}

fn sets_dfs(c: &mut Counts, from: usize, d: &mut Decomp, out: &mut Vec<Decomp>) {
    let mut i = from;
    while i < 34 && c[i] == 0 {
        i += 1;
    }
    if i == 34 {
        out.push(*d);
        return;
    }
    if d.len >= 4 {
        return;
    }
    if c[i] >= 3 {
        c[i] -= 3;
        d.sets[usize::from(d.len)] = Set::Triplet(i as u8);
        d.len += 1;
        sets_dfs(c, i, d, out);
        d.len -= 1;
        c[i] += 3;
    }
    if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        d.sets[usize::from(d.len)] = Set::Run(i as u8);
        d.len += 1;
        sets_dfs(c, i, d, out);
        d.len -= 1;
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
}

/// Shanten of the concealed part with `melds` open or concealed-kan melds: -1 is a winning
/// hand, 0 tenpai. The minimum over the standard shape, seven pairs and thirteen orphans (the
/// last two only for a hand without melds).
pub fn shanten(c: &Counts, melds: usize) -> i8 {
    let mut best = standard_shanten(c, melds);
    if melds == 0 {
        best = best.min(chiitoi_shanten(c)).min(kokushi_shanten(c));
    }
    best
}

pub fn chiitoi_shanten(c: &Counts) -> i8 {
    let pairs = c.iter().filter(|&&x| x >= 2).count() as i8;
    let kinds = c.iter().filter(|&&x| x >= 1).count() as i8;
    6 - pairs + (7 - kinds).max(0)
}

pub fn kokushi_shanten(c: &Counts) -> i8 {
    let kinds = YAOCHU.iter().filter(|&&k| c[k] >= 1).count() as i8;
    let pair = YAOCHU.iter().any(|&k| c[k] >= 2);
    13 - kinds - i8::from(pair)
}

pub fn standard_shanten(c: &Counts, melds: usize) -> i8 {
    let mut cc = *c;
    let mut best = 8;
    let m = melds.min(4) as i8;
    shanten_dfs(&mut cc, 0, m, 0, false, &mut best);
    best
}

fn shanten_dfs(c: &mut Counts, from: usize, m: i8, t: i8, p: bool, best: &mut i8) {
    let mut i = from;
    while i < 34 && c[i] == 0 {
        i += 1;
    }
    let value = |m: i8, t: i8, p: bool| 8 - 2 * m - t.min(4 - m) - i8::from(p);
    if i == 34 {
        *best = (*best).min(value(m, t, p));
        return;
    }
    let suited = i < 27;
    if c[i] >= 3 {
        c[i] -= 3;
        shanten_dfs(c, i, m + 1, t, p, best);
        c[i] += 3;
    }
    if suited && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        shanten_dfs(c, i, m + 1, t, p, best);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
    if c[i] >= 2 {
        c[i] -= 2;
        if !p {
            shanten_dfs(c, i, m, t, true, best);
        }
        if m + t < 4 {
            shanten_dfs(c, i, m, t + 1, p, best);
        }
        c[i] += 2;
    }
    if suited && m + t < 4 {
        if i % 9 <= 7 && c[i + 1] > 0 {
            c[i] -= 1;
            c[i + 1] -= 1;
            shanten_dfs(c, i, m, t + 1, p, best);
            c[i] += 1;
            c[i + 1] += 1;
        }
        if i % 9 <= 6 && c[i + 2] > 0 {
            c[i] -= 1;
            c[i + 2] -= 1;
            shanten_dfs(c, i, m, t + 1, p, best);
            c[i] += 1;
            c[i + 2] += 1;
        }
    }
    // Leave the rest of kind i isolated.
    let saved = c[i];
    c[i] = 0;
    shanten_dfs(c, i + 1, m, t, p, best);
    c[i] = saved;
}

#[cfg(test)]
mod tests {
    use super::super::tile::{counts_of, parse_tiles};
    use super::*;

    fn c(s: &str) -> Counts {
        counts_of(&parse_tiles(s).unwrap())
    }

    fn kinds(mask: u64) -> String {
        let tiles: Vec<_> = (0..34).filter(|k| mask & (1 << k) != 0).map(super::super::tile::Tile::kind_tile).collect();
        super::super::tile::tiles_text(&tiles)
    }

    #[test]
    fn standard_wins() {
        assert!(is_win(&c("123m456p789s11122z")));
        assert!(is_win(&c("11122233344455m")));
        assert!(!is_win(&c("123m456p789s11123z")));
        assert!(is_win(&c("55z")));
        assert!(is_win(&c("11m")));
        assert!(!is_win(&c("12m")));
        assert!(is_win(&c("11123m")));
    }

    #[test]
    fn special_shapes() {
        assert!(is_chiitoitsu(&c("1122m3344p5566s77z")));
        assert!(!is_chiitoitsu(&c("1111m3344p5566s77z")));
        assert!(is_kokushi(&c("19m19p19s12345677z")));
        assert!(!is_kokushi(&c("19m19p19s1234567z")));
        assert!(!is_win(&c("1111m3344p5566s77z")));
    }

    #[test]
    fn decompositions_find_every_reading() {
        // 111222333m: three triplets or three runs.
        let d = decompositions(&c("111222333m78999p"));
        assert_eq!(d.len(), 2, "{d:?}");
        let d = decompositions(&c("11223344556677m"));
        assert!(d.len() >= 2);
        assert!(decompositions(&c("1122m3344p5566s77z")).is_empty());
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

    #[test]
    fn shanten_values() {
        assert_eq!(shanten(&c("123m456p789s11122z"), 0), -1);
        assert_eq!(shanten(&c("23m456p789s11122z"), 0), 0);
        assert_eq!(shanten(&c("19m19p19s1234566z"), 0), 0);
        assert_eq!(shanten(&c("1122m3344p5566s7z"), 0), 0);
        assert_eq!(shanten(&c("1357m2468p1357s9m"), 0), 4);
        assert_eq!(shanten(&c("23m"), 3), 1);
        assert_eq!(shanten(&c("2m"), 4), 0);
    }
}
