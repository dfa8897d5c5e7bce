//! Shanten: how many tile exchanges a hand is from ready (0) or complete (-1).

use super::YAOCHU;
use crate::mahjong::Counts;

/// Shanten of the concealed part with `melds` open or concealed-kan melds: -1 is a winning
/// hand, 0 tenpai. The minimum over the standard shape, seven pairs and thirteen orphans (the
/// last two only for a hand without melds).
pub fn shanten(c: &Counts, melds: usize) -> i8 {
    let mut best = standard_shanten(c, melds);
    if melds == 0 {
        best = best.min(seven_pairs_shanten(c)).min(thirteen_orphans_shanten(c));
    }
    best
}

pub fn seven_pairs_shanten(c: &Counts) -> i8 {
    let pairs = c.iter().filter(|&&x| x >= 2).count() as i8;
    let kinds = c.iter().filter(|&&x| x >= 1).count() as i8;
    6 - pairs + (7 - kinds).max(0)
}

pub fn thirteen_orphans_shanten(c: &Counts) -> i8 {
    let kinds = YAOCHU.iter().filter(|&&k| c[k] >= 1).count() as i8;
    let pair = YAOCHU.iter().any(|&k| c[k] >= 2);
    13 - kinds - i8::from(pair)
}

/// Shanten of the standard shape (four sets and a pair): the best over every way of reading the
/// tiles of `c` as sets, partial sets (two tiles a set lacks one of) and one pair, of
/// `8 - 2·sets - min(partials, 4 - sets) - pair`, the `melds` counted as sets.
///
/// Sequences never cross a suit, so each suit (and the honours) is read on its own: for each
/// number of sets and with or without the pair, the most partial sets that suit gives; the four
/// groups are then combined. The value only grows with the partial sets, so keeping the most of
/// them for each (sets, pair) loses no reading. This is additive in the groups where one search
/// over the whole hand multiplies them (the bots ask it for every discard they weigh).
pub fn standard_shanten(c: &Counts, melds: usize) -> i8 {
    let mut total = group_table(&c[0..9], true);
    for (from, suited) in [(9, true), (18, true), (27, false)] {
        total = combine(&total, &group_table(&c[from..from + if suited { 9 } else { 7 }], suited));
    }
    let melds = melds.min(4) as i8;
    let mut best = 8;
    for (m, row) in total.iter().enumerate() {
        for (p, &t) in row.iter().enumerate() {
            if t >= 0 {
                let m = m as i8 + melds;
                best = best.min(8 - 2 * m - t.min(4 - m) - p as i8);
            }
        }
    }
    best
}

/// The most sets a group (or a whole hand) holds that [`standard_shanten`] tells apart: five
/// (fifteen tiles) and more are read as five.
const MOST_SETS: usize = 5;

/// For each number of sets (index) and without or with the pair (0, 1): the most partial sets,
/// at most four (more never count), or -1 when no reading gives that many sets and pair.
type Table = [[i8; 2]; MOST_SETS + 1];

const NONE: Table = [[-1; 2]; MOST_SETS + 1];

/// The table of one suit's nine counts (`suited`) or of the seven honours.
fn group_table(counts: &[u8], suited: bool) -> Table {
    let mut c = [0u8; 9];
    c[..counts.len()].copy_from_slice(counts);
    let mut table = NONE;
    group_search(&mut c, counts.len(), suited, 0, 0, 0, 0, &mut table);
    table
}

/// Every reading of `c[from..len]`: sets, then the pair or a partial set, at each kind in turn,
/// the rest of a kind left alone. Partial sets beyond four are not looked for (they never count).
#[allow(clippy::too_many_arguments)]
fn group_search(c: &mut [u8; 9], len: usize, suited: bool, from: usize, m: usize, t: i8, p: usize, table: &mut Table) {
    let mut i = from;
    while i < len && c[i] == 0 {
        i += 1;
    }
    if i == len {
        let cell = &mut table[m.min(MOST_SETS)][p];
        *cell = (*cell).max(t);
        return;
    }
    if c[i] >= 3 {
        c[i] -= 3;
        group_search(c, len, suited, i, m + 1, t, p, table);
        c[i] += 3;
    }
    let run = suited && i + 2 < len;
    if run && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        group_search(c, len, suited, i, m + 1, t, p, table);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
    if c[i] >= 2 {
        c[i] -= 2;
        if p == 0 {
            group_search(c, len, suited, i, m, t, 1, table);
        }
        if t < 4 {
            group_search(c, len, suited, i, m, t + 1, p, table);
        }
        c[i] += 2;
    }
    if suited && t < 4 {
        for gap in [1, 2] {
            if i + gap < len && c[i + gap] > 0 {
                c[i] -= 1;
                c[i + gap] -= 1;
                group_search(c, len, suited, i, m, t + 1, p, table);
                c[i] += 1;
                c[i + gap] += 1;
            }
        }
    }
    let saved = c[i];
    c[i] = 0;
    group_search(c, len, suited, i + 1, m, t, p, table);
    c[i] = saved;
}

/// The table of two groups read together: sets add, partial sets add (up to four), one pair.
fn combine(a: &Table, b: &Table) -> Table {
    let mut out = NONE;
    for (ma, ra) in a.iter().enumerate() {
        for (pa, &ta) in ra.iter().enumerate() {
            if ta < 0 {
                continue;
            }
            for (mb, rb) in b.iter().enumerate() {
                for (pb, &tb) in rb.iter().enumerate() {
                    if tb < 0 || pa + pb > 1 {
                        continue;
                    }
                    let cell = &mut out[(ma + mb).min(MOST_SETS)][pa + pb];
                    *cell = (*cell).max((ta + tb).min(4));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::counts as c;
    use super::*;

    /// The search over the whole hand that [`standard_shanten`] replaced (kept as its reference).
    fn reference(c: &Counts, melds: usize) -> i8 {
        fn dfs(c: &mut Counts, from: usize, m: i8, t: i8, p: bool, best: &mut i8) {
            let mut i = from;
            while i < 34 && c[i] == 0 {
                i += 1;
            }
            if i == 34 {
                *best = (*best).min(8 - 2 * m - t.min(4 - m) - i8::from(p));
                return;
            }
            let suited = i < 27;
            if c[i] >= 3 {
                c[i] -= 3;
                dfs(c, i, m + 1, t, p, best);
                c[i] += 3;
            }
            if suited && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
                c[i] -= 1;
                c[i + 1] -= 1;
                c[i + 2] -= 1;
                dfs(c, i, m + 1, t, p, best);
                c[i] += 1;
                c[i + 1] += 1;
                c[i + 2] += 1;
            }
            if c[i] >= 2 {
                c[i] -= 2;
                if !p {
                    dfs(c, i, m, t, true, best);
                }
                if m + t < 4 {
                    dfs(c, i, m, t + 1, p, best);
                }
                c[i] += 2;
            }
            if suited && m + t < 4 {
                for gap in [1, 2] {
                    if i % 9 + gap <= 8 && c[i + gap] > 0 {
                        c[i] -= 1;
                        c[i + gap] -= 1;
                        dfs(c, i, m, t + 1, p, best);
                        c[i] += 1;
                        c[i + gap] += 1;
                    }
                }
            }
            let saved = c[i];
            c[i] = 0;
            dfs(c, i + 1, m, t, p, best);
            c[i] = saved;
        }
        let mut cc = *c;
        let mut best = 8;
        dfs(&mut cc, 0, melds.min(4) as i8, 0, false, &mut best);
        best
    }

    /// Random hands of every size a player holds (13 or 14 tiles less three a meld), drawn from
    /// one suit, two, or the whole set: the per-suit reading gives the whole search's value.
    #[test]
    fn the_per_suit_reading_equals_the_search_over_the_whole_hand() {
        let mut rng = crate::random::Seed::from_text("shanten").stream("hands");
        let mut differ = Vec::new();
        for n in 0..60_000u64 {
            let melds = (n % 5) as usize;
            let size = 13 + (n / 5 % 2) as usize - 3 * melds;
            let kinds = [9, 18, 34][(n / 10 % 3) as usize];
            let mut c: Counts = [0; 34];
            let mut placed = 0;
            while placed < size {
                let k = rng.below(kinds) as usize;
                if c[k] < 4 {
                    c[k] += 1;
                    placed += 1;
                }
            }
            let (fast, slow) = (standard_shanten(&c, melds), reference(&c, melds));
            if fast != slow {
                differ.push((c, melds, fast, slow));
            }
        }
        assert!(differ.is_empty(), "{} hands differ, e.g. {:?}", differ.len(), &differ[..differ.len().min(5)]);
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
