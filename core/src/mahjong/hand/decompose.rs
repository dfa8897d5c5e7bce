//! Every reading of a standard winning part as a pair and concealed sets (riichi's scorer tries
//! each for the best score).

use super::is_standard_win;
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

#[cfg(test)]
mod tests {
    use super::super::counts as c;
    use super::*;

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
