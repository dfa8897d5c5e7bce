//! Every reading of a standard winning part as a pair and concealed sets (riichi's scorer tries
//! each for the best score).

use super::tables::standard_pairs;
use crate::mahjong::Counts;

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

/// Every decomposition of a standard winning part into a pair and sets.
pub fn decompositions(c: &Counts) -> Vec<Decomp> {
    let mut out = Vec::new();
    for_each_decomposition(c, |d| out.push(*d));
    out
}

/// Every decomposition of a standard winning part, handed to `f` one by one in the order of
/// [`decompositions`] (by the pair's kind, then sets from the lowest kind, a triplet before a
/// run), nothing allocated. Only the pairs that leave sets are tried ([`standard_pairs`]).
pub fn for_each_decomposition(c: &Counts, mut f: impl FnMut(&Decomp)) {
    let mut pairs = standard_pairs(c);
    let mut cc = *c;
    while pairs != 0 {
        let p = pairs.trailing_zeros() as usize;
        pairs &= pairs - 1;
        cc[p] -= 2;
        let mut d = Decomp { pair: p as u8, sets: [Set::Run(0); 4], len: 0 };
        sets_dfs(&mut cc, 0, &mut d, &mut f);
        cc[p] += 2;
    }
}

fn sets_dfs(c: &mut Counts, from: usize, d: &mut Decomp, out: &mut impl FnMut(&Decomp)) {
    let mut i = from;
    while i < 34 && c[i] == 0 {
        i += 1;
    }
    if i == 34 {
        out(d);
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

#[cfg(test)]
mod tests {
    use super::super::counts as c;
    use super::*;

    /// The search as it was before the pairs were chosen by the tables: every kind held twice
    /// tried as the pair.
    fn every_pair_tried(c: &Counts) -> Vec<Decomp> {
        let mut out = Vec::new();
        if !super::super::is_standard_win(c) {
            return out;
        }
        let mut cc = *c;
        for p in 0..34 {
            if cc[p] >= 2 {
                cc[p] -= 2;
                let mut d = Decomp { pair: p as u8, sets: [Set::Run(0); 4], len: 0 };
                sets_dfs(&mut cc, 0, &mut d, &mut |d: &Decomp| out.push(*d));
                cc[p] += 2;
            }
        }
        out
    }

    /// The pairs the tables choose lose no reading and change no order: on random complete
    /// hands of 2 to 14 tiles (sets and a pair, many of one suit so that readings multiply) and
    /// on hands with a tile changed, the readings are those of every pair tried, in its order.
    #[test]
    fn pairs_from_the_tables_keep_every_reading_in_order() {
        let mut s = crate::Seed::from_text("decompositions by table pairs").stream("hands");
        let (mut many, mut refused) = (0, 0);
        for i in 0..30_000 {
            let sets = (i % 5) as usize;
            let span = if i % 3 == 0 { 9 } else { 34 };
            let mut c = [0u8; 34];
            let kind = |s: &mut crate::Stream| s.below(span) as usize;
            let p = kind(&mut s);
            c[p] += 2;
            for _ in 0..sets {
                let k = kind(&mut s);
                if k < 27 && k % 9 <= 6 && s.below(2) == 0 {
                    (k..k + 3).for_each(|x| c[x] += 1);
                } else {
                    c[k] += 3;
                }
            }
            if i % 4 == 3 {
                let from = kind(&mut s);
                if c[from] > 0 {
                    c[from] -= 1;
                    c[kind(&mut s)] += 1;
                }
            }
            if c.iter().any(|&x| x > 4) {
                continue;
            }
            let want = every_pair_tried(&c);
            many += usize::from(want.len() > 1);
            refused += usize::from(want.is_empty());
            assert_eq!(decompositions(&c), want, "{c:?}");
        }
        assert!(many > 500 && refused > 500, "{many} {refused}");
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
}
