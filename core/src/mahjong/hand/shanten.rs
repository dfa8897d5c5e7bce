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
    use super::super::counts as c;
    use super::*;

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
