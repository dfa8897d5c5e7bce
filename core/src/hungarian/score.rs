//! Scoring a finished hand, every player's, and settling it: pure functions on tile counts.
//!
//! Every player scores the figure table (core/data/hungarian-figures.txt) for its laid-out sets,
//! the sets in its hand, its flowers and its pair; pongs and kongs of dragons or of its own wind
//! double. The winner's hand is read the way that scores most among every reading of it (four
//! sets and a pair in every decomposition, or one of the special hands), adds the premiums, the
//! doublings of its shape and East's, and a limit hand's bonus. A loser's concealed tiles are
//! read the way that scores most: every three of a kind a concealed pong, and its best pair.
//! docs/rules/hungarian.md has the seed's words and a worked example for every line.

use super::rules::{HonoursIn, Rules};
use super::table::{Doubling, Limit, Line, Table};
use crate::mahjong::hand::{
    decompositions, is_seven_distinct_pairs, is_seven_pairs, is_standard_win, Set as DecompSet, YAOCHU,
};
use crate::mahjong::{Counts, Meld, MeldKind};

/// Kinds are 0-33: 0-8 `1m`-`9m`, 9-17 `1p`-`9p`, 18-26 `1s`-`9s`, 27-30 the winds East South
/// West North, 31-33 the dragons white green red.
const WINDS: usize = 27;
const DRAGONS: usize = 31;
/// The green tiles: bamboo 2, 3, 4, 6, 8 and the green dragon.
const GREEN: [usize; 6] = [19, 20, 21, 23, 25, 32];

fn is_end(k: usize) -> bool {
    k >= WINDS || k % 9 == 0 || k % 9 == 8
}

/// A set as the scorer reads it: laid out (exposed, or a concealed kong declared from the hand)
/// or one of a reading of the concealed tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Set {
    /// A run of three from `base`.
    Chow { base: u8 },
    /// Three of a kind; exposed when laid out, or completed with the robbed winning tile.
    Pong { kind: u8, exposed: bool },
    /// Four of a kind; exposed when any of its tiles was robbed (a claimed kong, or a pong laid
    /// out and added to), concealed when declared from the hand.
    Kong { kind: u8, exposed: bool },
}

impl Set {
    /// A laid-out meld as the scorer reads it: a claimed kong, and a pong added to from the hand,
    /// are exposed; a kong declared from the hand is concealed.
    pub fn laid_out(m: &Meld) -> Set {
        let k = m.base() as u8;
        match m.kind {
            MeldKind::Chow => Set::Chow { base: k },
            MeldKind::Pung => Set::Pong { kind: k, exposed: true },
            MeldKind::ClaimedKong | MeldKind::AddedKong => Set::Kong { kind: k, exposed: true },
            MeldKind::ConcealedKong => Set::Kong { kind: k, exposed: false },
        }
    }

    /// The kind of a pong or kong.
    pub fn of_a_kind(self) -> Option<usize> {
        match self {
            Set::Pong { kind, .. } | Set::Kong { kind, .. } => Some(usize::from(kind)),
            Set::Chow { .. } => None,
        }
    }

    /// Adds its tiles to `c`.
    fn add_to(self, c: &mut Counts) {
        match self {
            Set::Chow { base } => {
                for k in usize::from(base)..usize::from(base) + 3 {
                    if let Some(x) = c.get_mut(k) {
                        *x += 1;
                    }
                }
            }
            Set::Pong { kind, .. } => c[usize::from(kind) % 34] += 3,
            Set::Kong { kind, .. } => c[usize::from(kind) % 34] += 4,
        }
    }
}

/// One player's hand at the end.
#[derive(Clone, Copy, Debug)]
pub struct Hand<'a> {
    /// The concealed tiles by kind; the winner's include the winning tile.
    pub concealed: &'a Counts,
    /// The laid-out sets.
    pub melds: &'a [Set],
    /// The flowers and seasons set aside, by number (1-4 the flowers, 5-8 the seasons).
    pub flowers: &'a [u8],
    /// The player's wind: 0 East, 1 South, 2 West, 3 North.
    pub wind: u8,
}

/// How the winner won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Win {
    /// The winning tile's kind.
    pub tile: u8,
    /// Not robbed from a discard (drawn from the wall or a loose tile, or the dealt hand).
    pub self_drawn: bool,
    /// East's win on the dealt hand ("MahJongg az égből").
    pub heavenly: bool,
}

/// How the winner's hand is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Four sets and a pair.
    Standard,
    /// Seven pairs ("Pár-játék").
    SevenPairs,
    /// One of each terminal and honour and any fourteenth tile ("Világcsoda").
    ThirteenWonders,
    /// 1-9 of one suit with the four winds and one more of the suit, or with the three dragons and
    /// a wind pair ("Nagysor").
    BigRun,
}

/// A reading of a winning hand: its sets (the laid-out ones first) and pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    pub shape: Shape,
    pub sets: Vec<Set>,
    /// The pair of a standard hand, the seven of seven pairs, the pair of a big run or of thirteen
    /// wonders when its fourteenth tile makes one.
    pub pairs: Vec<u8>,
}

/// A hand's score.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scored {
    /// The sum of the point lines.
    pub points: i64,
    /// How many doublings (the points are doubled this many times).
    pub doublings: u32,
    /// points x 2^doublings, and a limit hand's bonus.
    pub score: i64,
    /// The point lines, each figure and premium once per occurrence.
    pub lines: Vec<(Line, i64)>,
    /// The doublings by reason, each with its count of doublings.
    pub doubled: Vec<(Doubling, u32)>,
    /// The limit hand and its bonus.
    pub limit: Option<(Limit, i64)>,
    /// The winner's reading (none for a loser).
    pub reading: Option<Reading>,
}

/// A hand that cannot be scored as the winner's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error("the hand is not a winning hand: {0}")]
    NotAWin(String),
}

/// `points` doubled `doublings` times, saturating.
fn doubled(points: i64, doublings: u32) -> i64 {
    if doublings >= 62 {
        return if points > 0 { i64::MAX } else { 0 };
    }
    points.saturating_mul(1i64 << doublings)
}

/// The figure lines and set doublings every player has: laid-out and read sets, pairs, flowers.
fn figures(sets: &[Set], pairs: &[u8], flowers: &[u8], wind: u8, t: &Table, s: &mut Scored) {
    let own_wind = WINDS + usize::from(wind & 3);
    for set in sets {
        let (kong, exposed, kind) = match *set {
            Set::Chow { .. } => continue,
            Set::Pong { kind, exposed } => (false, exposed, usize::from(kind)),
            Set::Kong { kind, exposed } => (true, exposed, usize::from(kind)),
        };
        let line = Line::of_set(kong, exposed, is_end(kind));
        s.lines.push((line, t.points(line)));
        if kind >= DRAGONS {
            s.doubled.push((Doubling::DragonSet, t.doublings(Doubling::DragonSet)));
        } else if kind == own_wind {
            s.doubled.push((Doubling::OwnWindSet, t.doublings(Doubling::OwnWindSet)));
        }
    }
    for &p in pairs {
        let p = usize::from(p);
        let line = if p >= DRAGONS {
            Line::DragonPair
        } else if p == own_wind {
            Line::OwnWindPair
        } else {
            continue;
        };
        s.lines.push((line, t.points(line)));
    }
    for &f in flowers {
        let line = if (f.wrapping_sub(1)) % 4 == wind & 3 { Line::OwnFlower } else { Line::OtherFlower };
        s.lines.push((line, t.points(line)));
    }
}

fn total(mut s: Scored) -> Scored {
    s.points = s.lines.iter().map(|(_, p)| *p).fold(0i64, i64::saturating_add);
    s.doublings = s.doubled.iter().map(|(_, n)| *n).sum();
    let bonus = s.limit.map_or(0, |(_, b)| b);
    s.score = doubled(s.points, s.doublings).saturating_add(bonus);
    s
}

/// A loser's score: its laid-out sets, every three of a kind in its hand as a concealed pong (a
/// four in the hand is a pong and a single), its best pair of its own wind or of a dragon (one:
/// a finished hand has one pair), its flowers; the doublings of its sets.
pub fn score_loser(hand: &Hand, t: &Table) -> Scored {
    let mut sets: Vec<Set> = hand.melds.to_vec();
    let mut pair: Option<u8> = None;
    let own_wind = WINDS + usize::from(hand.wind & 3);
    for (k, &n) in hand.concealed.iter().enumerate() {
        if n >= 3 {
            sets.push(Set::Pong { kind: k as u8, exposed: false });
        } else if n == 2 && (k >= DRAGONS || k == own_wind) && pair.is_none() {
            pair = Some(k as u8);
        }
    }
    let mut s = Scored::default();
    figures(&sets, pair.as_slice(), hand.flowers, hand.wind, t, &mut s);
    total(s)
}

/// Every tile of the hand, concealed and laid out, by kind.
fn all_tiles(hand: &Hand) -> Counts {
    let mut c = *hand.concealed;
    for m in hand.melds {
        m.add_to(&mut c);
    }
    c
}

fn tiles_in(c: &Counts) -> u32 {
    c.iter().map(|&x| u32::from(x)).sum()
}

/// The suits (bits 0-2) and whether honours are among the tiles.
fn suits_of(c: &Counts) -> (u8, bool) {
    let mut suits = 0u8;
    for s in 0..3 {
        if c[9 * s..9 * s + 9].iter().any(|&x| x > 0) {
            suits |= 1 << s;
        }
    }
    (suits, c[WINDS..].iter().any(|&x| x > 0))
}

/// Every reading of a winning hand (empty when it is not one).
pub fn readings(hand: &Hand, win: &Win, rules: &Rules) -> Vec<Reading> {
    let c = hand.concealed;
    let mut out = Vec::new();
    let melds_ok = hand.melds.len() <= 4 && usize::try_from(tiles_in(c)).ok() == Some(14 - 3 * hand.melds.len());
    if !melds_ok {
        return out;
    }
    if is_standard_win(c) {
        for d in decompositions(c) {
            let concealed_sets: Vec<Set> = d
                .sets()
                .iter()
                .map(|s| match *s {
                    DecompSet::Run(k) => Set::Chow { base: k },
                    DecompSet::Triplet(k) => Set::Pong { kind: k, exposed: false },
                })
                .collect();
            // A robbed winning tile completes one group holding its kind: a pong so completed is
            // exposed; completing a chow or the pair changes nothing.
            let elsewhere = d.pair == win.tile
                || concealed_sets
                    .iter()
                    .any(|s| matches!(*s, Set::Chow { base } if (base..base + 3).contains(&win.tile)));
            let mut variants = Vec::new();
            if win.self_drawn || elsewhere {
                variants.push(concealed_sets.clone());
            }
            if !win.self_drawn && concealed_sets.contains(&Set::Pong { kind: win.tile, exposed: false }) {
                let mut v = concealed_sets.clone();
                if let Some(p) = v.iter_mut().find(|s| **s == Set::Pong { kind: win.tile, exposed: false }) {
                    *p = Set::Pong { kind: win.tile, exposed: true };
                }
                variants.push(v);
            }
            for v in variants {
                let mut sets = hand.melds.to_vec();
                sets.extend(v);
                let r = Reading { shape: Shape::Standard, sets, pairs: vec![d.pair] };
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        }
    }
    if !hand.melds.is_empty() {
        return out;
    }
    // Seven pairs: every count even (a four is two pairs only with the option).
    if if rules.seven_pairs_repeat { is_seven_pairs(c) } else { is_seven_distinct_pairs(c) } {
        let pairs = c.iter().enumerate().flat_map(|(k, &x)| std::iter::repeat_n(k as u8, usize::from(x / 2))).collect();
        out.push(Reading { shape: Shape::SevenPairs, sets: Vec::new(), pairs });
    }
    // Thirteen wonders: one of each terminal and honour; the fourteenth tile, whatever it is, is
    // thrown away ("az 1 db kő eldobása után maradó kövek"), so it makes no pair.
    if YAOCHU.iter().all(|&k| c[k] >= 1) {
        out.push(Reading { shape: Shape::ThirteenWonders, sets: Vec::new(), pairs: Vec::new() });
    }
    // Big run: 1-9 of a suit and the four winds and one more of the suit, or 1-9, the three
    // dragons and a pair of one wind.
    for s in 0..3 {
        let suit = &c[9 * s..9 * s + 9];
        if !suit.iter().all(|&x| x >= 1) {
            continue;
        }
        let in_suit: u32 = suit.iter().map(|&x| u32::from(x)).sum();
        let winds = &c[WINDS..DRAGONS];
        let dragons = &c[DRAGONS..];
        let others: u32 =
            (0..3).filter(|&o| o != s).map(|o| c[9 * o..9 * o + 9].iter().map(|&x| u32::from(x)).sum::<u32>()).sum();
        if others != 0 {
            continue;
        }
        if in_suit == 10 && winds.iter().all(|&x| x == 1) && dragons.iter().all(|&x| x == 0) {
            let pair = suit.iter().position(|&x| x == 2).map(|p| (9 * s + p) as u8);
            out.push(Reading { shape: Shape::BigRun, sets: Vec::new(), pairs: pair.into_iter().collect() });
        } else if in_suit == 9
            && dragons.iter().all(|&x| x == 1)
            && winds.iter().filter(|&&x| x == 2).count() == 1
            && winds.iter().all(|&x| x == 0 || x == 2)
        {
            let pair = winds.iter().position(|&x| x == 2).map(|p| (WINDS + p) as u8);
            out.push(Reading { shape: Shape::BigRun, sets: Vec::new(), pairs: pair.into_iter().collect() });
        }
    }
    out
}

/// Whether a hand of 14 tiles (kongs counted as three) is a winning hand.
pub fn is_mahjong(concealed: &Counts, melds: usize, rules: &Rules) -> bool {
    if is_standard_win(concealed) {
        return true;
    }
    if melds > 0 || tiles_in(concealed) != 14 {
        return false;
    }
    let hand = Hand { concealed, melds: &[], flowers: &[], wind: 0 };
    !readings(&hand, &Win { tile: 0, self_drawn: true, heavenly: false }, rules).is_empty()
}

/// Whether a discard of kind `tile` may be claimed for Mahjong by a player whose concealed tiles
/// are `hand` (13 less three per laid-out set): the tile makes a winning hand, and the hand lacks
/// it ("ha az a győzelemhez (Mahjongg) ... hiányzik"). A hand already holding the thirteen
/// wonders lacks nothing: it wins on its own next draw, throwing one tile away.
pub fn completes(hand: &Counts, tile: usize, melds: &[Set], rules: &Rules) -> bool {
    let Some(&n) = hand.get(tile) else { return false };
    if n >= 4 {
        return false;
    }
    let mut c = *hand;
    c[tile] += 1;
    if is_standard_win(&c) {
        return true;
    }
    let h = Hand { concealed: &c, melds, flowers: &[], wind: 0 };
    let had_wonders = YAOCHU.iter().all(|&k| hand[k] >= 1);
    readings(&h, &Win { tile: tile as u8, self_drawn: false, heavenly: false }, rules)
        .iter()
        .any(|r| r.shape != Shape::ThirteenWonders || !had_wonders)
}

/// The limit hand a reading is, if any: the one with the largest bonus.
fn limit_of(reading: &Reading, hand: &Hand, all: &Counts, t: &Table) -> Option<Limit> {
    let mut found: Vec<Limit> = Vec::new();
    let (suits, honours) = suits_of(all);
    let one_suit = suits.count_ones() == 1;
    let suit = suits.trailing_zeros() as usize;
    match reading.shape {
        Shape::BigRun => found.push(Limit::BigRun),
        Shape::ThirteenWonders => found.push(Limit::ThirteenWonders),
        Shape::SevenPairs => found.push(if suits == 0 {
            Limit::SevenPairsHonours
        } else if one_suit && !honours {
            Limit::SevenPairsOneSuit
        } else if all.iter().enumerate().all(|(k, &x)| x == 0 || is_end(k)) {
            Limit::SevenPairsTerminalsHonours
        } else {
            Limit::SevenPairs
        }),
        Shape::Standard => {
            let kinds: Vec<Option<usize>> = reading.sets.iter().map(|s| s.of_a_kind()).collect();
            let pair = reading.pairs.first().map_or(usize::MAX, |&p| usize::from(p));
            // Four pongs (or kongs) and a pair, all odd numbers of one suit.
            let odd = |k: usize| k < WINDS && k / 9 == suit && (k % 9) % 2 == 0;
            if one_suit && !honours && kinds.iter().all(|k| k.is_some_and(odd)) && odd(pair) {
                found.push(Limit::OddOneSuit);
            }
            // 123 345 567 789 of one suit, the pair honours or of that suit.
            let mut bases: Vec<usize> = reading
                .sets
                .iter()
                .filter_map(|s| match *s {
                    Set::Chow { base } => Some(usize::from(base)),
                    _ => None,
                })
                .collect();
            bases.sort_unstable();
            if bases.len() == 4 {
                let s = bases[0] / 9;
                let want = [9 * s, 9 * s + 2, 9 * s + 4, 9 * s + 6];
                if bases == want && (pair >= WINDS || pair / 9 == s) {
                    found.push(Limit::OneSuitRuns);
                }
            }
            // The four winds' sets.
            let mut winds = [false; 4];
            for k in kinds.iter().flatten() {
                if (WINDS..DRAGONS).contains(k) {
                    winds[k - WINDS] = true;
                }
            }
            if winds.iter().all(|&w| w) {
                found.push(if pair >= DRAGONS { Limit::FourFriends } else { Limit::Winds });
            }
        }
    }
    if hand.melds.is_empty() && one_suit && !honours {
        let s = &all[9 * suit..9 * suit + 9];
        if s[0] >= 3 && s[8] >= 3 && s[1..8].iter().all(|&x| x >= 1) {
            found.push(Limit::NineLanterns);
        }
    }
    if all.iter().enumerate().all(|(k, &x)| x == 0 || GREEN.contains(&k)) {
        found.push(Limit::Green);
    }
    // The largest bonus; among equal bonuses the first in the table's order.
    let mut best: Option<Limit> = None;
    for l in Limit::ALL {
        if found.contains(&l) && best.is_none_or(|b| t.bonus(l) > t.bonus(b)) {
            best = Some(l);
        }
    }
    best
}

/// The winner's score for one reading.
fn score_reading(reading: &Reading, hand: &Hand, win: &Win, east: bool, rules: &Rules, t: &Table) -> Scored {
    let mut s = Scored::default();
    figures(&reading.sets, &reading.pairs, hand.flowers, hand.wind, t, &mut s);
    s.lines.push((Line::Mahjong, t.points(Line::Mahjong)));
    if win.self_drawn {
        s.lines.push((Line::NotRobbed, t.points(Line::NotRobbed)));
    }
    if east && rules.east_wins_doubling {
        s.doubled.push((Doubling::EastWins, t.doublings(Doubling::EastWins)));
    }
    let all = all_tiles(hand);
    let (suits, honours) = suits_of(&all);
    if suits == 0 {
        s.doubled.push((Doubling::AllHonours, t.doublings(Doubling::AllHonours)));
    } else if suits.count_ones() == 1 && !honours {
        s.doubled.push((Doubling::PureOneSuit, t.doublings(Doubling::PureOneSuit)));
    } else if suits.count_ones() == 1 {
        // With the option, the honours may only be the pair(s).
        let in_pairs = |k: usize| reading.pairs.iter().filter(|&&p| usize::from(p) == k).count() * 2;
        let ok = rules.honours_in == HonoursIn::Any || (WINDS..34).all(|k| usize::from(all[k]) == in_pairs(k));
        if ok {
            s.doubled.push((Doubling::OneSuitWithHonours, t.doublings(Doubling::OneSuitWithHonours)));
        }
    }
    if win.heavenly {
        s.doubled.push((Doubling::HeavensBlessing, t.doublings(Doubling::HeavensBlessing)));
    }
    s.limit = limit_of(reading, hand, &all, t).map(|l| (l, t.bonus(l)));
    s.reading = Some(reading.clone());
    total(s)
}

/// The winner's score: the reading of the hand that scores most.
pub fn score_winner(hand: &Hand, win: &Win, east: bool, rules: &Rules, t: &Table) -> Result<Scored, ScoreError> {
    let c = hand.concealed;
    if c[usize::from(win.tile) % 34] == 0 || usize::from(win.tile) >= 34 {
        return Err(ScoreError::NotAWin("the winning tile is not among the concealed tiles".into()));
    }
    let mut best: Option<Scored> = None;
    for r in readings(hand, win, rules) {
        let s = score_reading(&r, hand, win, east, rules, t);
        if best.as_ref().is_none_or(|b| s.score > b.score) {
            best = Some(s);
        }
    }
    best.ok_or_else(|| {
        let n = tiles_in(c) as usize + 3 * hand.melds.len();
        ScoreError::NotAWin(if n != 14 {
            format!("it holds {n} tiles (a kong counted as three), not 14")
        } else {
            "its tiles are not four sets and a pair, nor one of the special hands".into()
        })
    })
}

/// The hand's payments: each loser pays the winner the winner's score; losers pay each other
/// the difference of their scores (unless `losers_settle` is off); every payment East makes or
/// receives is doubled. Indexed like `scores`; zero-sum.
pub fn settle(scores: &[i64; 4], winner: usize, east: usize, losers_settle: bool) -> [i64; 4] {
    let mut net = [0i64; 4];
    let mut pay = |from: usize, to: usize, amount: i64| {
        let amount = if from == east || to == east { amount.saturating_mul(2) } else { amount };
        net[from] = net[from].saturating_sub(amount);
        net[to] = net[to].saturating_add(amount);
    };
    for l in (0..4).filter(|&l| l != winner) {
        pay(l, winner, scores[winner]);
    }
    if losers_settle {
        for a in (0..4).filter(|&a| a != winner) {
            for b in (a + 1..4).filter(|&b| b != winner) {
                match scores[a].cmp(&scores[b]) {
                    std::cmp::Ordering::Greater => pay(b, a, scores[a].saturating_sub(scores[b])),
                    std::cmp::Ordering::Less => pay(a, b, scores[b].saturating_sub(scores[a])),
                    std::cmp::Ordering::Equal => {}
                }
            }
        }
    }
    net
}
