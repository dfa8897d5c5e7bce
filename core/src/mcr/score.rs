//! The fan calculator: every reading of a winning hand, the fan of each under the official
//! principles, and the best reading.
//!
//! A hand is read as four sets and a pair (each decomposition of its concealed part beside its
//! melds, and each set the winning tile may have completed), or as one of the special shapes
//! (seven pairs, thirteen orphans, honours and knitted tiles, a knitted straight with a set and
//! a pair). Each reading's fan are found and the principles applied (docs/rules/mcr.md):
//!
//! - non-repeat: a fan implied by another is not counted (`core/data/mcr-fans.txt` lists what
//!   each fan excludes);
//! - non-separation: the sets of a reading are counted as they are, never split again;
//! - non-identical and account-once: sets combine into fan (pure double chow, short straight,
//!   ...) so that each new combination brings in a set not combined before, and a set already
//!   used in a fan of three sets adds at most one combination with the fourth;
//! - high versus low: of the readings, the one worth the most fan counts.

use super::fans::{Fan, FanSet};
use crate::mahjong::hand::{self, decompositions, Knitted};
use crate::mahjong::{Counts, Meld, MeldKind, Tile};

/// A set of a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Set {
    pub kind: SetKind,
    /// The kind of its lowest tile (0..34).
    pub base: u8,
    /// Not exposed: a set of the concealed part (a pung completed by a discard is exposed), or
    /// a concealed kong.
    pub concealed: bool,
    /// Declared: a meld (a claimed chow, pung or kong, or a concealed kong).
    pub declared: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SetKind {
    Chow,
    Pung,
    Kong,
}

impl Set {
    fn is_pung(self) -> bool {
        self.kind != SetKind::Chow
    }
}

/// What the hand alone does not tell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Situation {
    /// Won on a tile the winner drew (else on a discard, or by robbing a kong).
    pub self_drawn: bool,
    /// The winning tile is the last of its kind: the other three are visible (discarded or
    /// melded) (和绝张).
    pub last_tile: bool,
    /// Out with a replacement tile after a kong (self-drawn), or robbing a kong (not).
    pub kong_related: bool,
    /// The last tile of the wall (self-drawn), or the discard after it (not).
    pub wall_last: bool,
    /// 0 East .. 3 North.
    pub seat_wind: u8,
    pub round_wind: u8,
    /// Flowers and seasons the winner has set aside.
    pub flowers: u8,
}

/// The scoring choices the rules leave to the organiser (options of the ruleset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreRules {
    /// What one concealed kong and one melded kong are worth together: 3 (the two fan as the
    /// table has them, 2 + 1; the default) or another value (5 in the calculator Botzone's
    /// records were scored with).
    pub concealed_and_melded_kong: u8,
}

impl Default for ScoreRules {
    fn default() -> Self {
        ScoreRules { concealed_and_melded_kong: 3 }
    }
}

/// A winning hand: its concealed tiles (the winning tile among them), its melds, the winning tile.
#[derive(Clone, Copy, Debug)]
pub struct WinHand<'a> {
    pub concealed: &'a [Tile],
    pub melds: &'a [Meld],
    pub win: Tile,
}

/// Why a hand has no score.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// The tiles are not a hand (wrong count, a fifth copy, a red five, the winning tile not
    /// among them).
    #[error("{0}")]
    BadTiles(String),
    /// The situation contradicts the hand (replacement tile without a kong, ...).
    #[error("{0}")]
    Inconsistent(String),
    /// The tiles are no winning shape.
    #[error(
        "the hand is not complete: no reading as four sets and a pair, seven pairs, thirteen orphans or a knitted hand"
    )]
    NotAWin,
}

impl ScoreError {
    /// The error's name in `paifu score mcr`'s output.
    pub fn code(&self) -> &'static str {
        match self {
            ScoreError::BadTiles(_) => "invalid_tiles",
            ScoreError::Inconsistent(_) => "inconsistent",
            ScoreError::NotAWin => "not_a_win",
        }
    }
}

/// The fan of a hand's best reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// How many times each fan counts, by [`Fan`] number order.
    pub counts: [u8; 81],
    /// The fan without the flowers (what the 8-fan minimum is measured on).
    pub fan: u32,
}

/// The fan a hand needs to be declared a win, flowers not counted.
pub const MINIMUM: u32 = 8;

impl Score {
    /// The fan with the flowers: what the hand is paid.
    pub fn total(&self) -> u32 {
        self.fan + u32::from(self.counts[Fan::FlowerTiles as usize])
    }

    /// Whether the hand reaches the 8-fan minimum (flowers not counted).
    pub fn meets_minimum(&self) -> bool {
        self.fan >= MINIMUM
    }

    /// The fan that count, in table order, with how many times each counts.
    pub fn fans(&self) -> impl Iterator<Item = (Fan, u8)> + '_ {
        // A hand has a handful of the 81: the counts are read eight at a time, each byte that
        // is not 0 giving its top bit, and only those fan are visited.
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let mut present = u128::from(self.counts[80] != 0) << 80;
        for i in 0..10 {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&self.counts[8 * i..8 * i + 8]);
            let w = u64::from_le_bytes(bytes);
            let mut tops = ((w & LOW7).wrapping_add(LOW7) | w) & !LOW7;
            while tops != 0 {
                present |= 1 << (8 * i + tops.trailing_zeros() as usize / 8);
                tops &= tops - 1;
            }
        }
        numbers(FanSet(present)).map(move |i| (Fan::ALL[i], self.counts[i]))
    }

    /// One line: `mixed_straight 8 + all_types 6 + ... = 17`.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = self
            .fans()
            .map(|(f, n)| if n == 1 { format!("{f} {}", f.value()) } else { format!("{f} {}x{n}", f.value()) })
            .collect();
        format!("{} = {}", parts.join(" + "), self.total())
    }
}

/// The fan of one reading, before choosing the best.
#[derive(Clone, Copy)]
struct Tally {
    counts: [u8; 81],
    /// The fan whose count is not 0 (a reading has a handful of the 81: the sums below go
    /// through these only).
    present: FanSet,
}

/// The fan numbers (`Fan as usize`) of a set, in table order.
fn numbers(set: FanSet) -> impl Iterator<Item = usize> {
    let mut bits = set.0;
    std::iter::from_fn(move || {
        let i = bits.trailing_zeros();
        (bits != 0).then(|| {
            bits &= bits - 1;
            i as usize
        })
    })
}

impl Tally {
    fn new() -> Tally {
        Tally { counts: [0; 81], present: FanSet::EMPTY }
    }
    fn add(&mut self, f: Fan, n: u8) {
        self.counts[f as usize] = self.counts[f as usize].saturating_add(n);
        if self.counts[f as usize] > 0 {
            self.present.insert(f);
        }
    }
    fn has(&self, f: Fan) -> bool {
        self.counts[f as usize] > 0
    }
    /// Takes one of `f` away.
    fn take_one(&mut self, f: Fan) {
        let c = &mut self.counts[f as usize];
        *c = c.saturating_sub(1);
        if *c == 0 {
            self.present.0 &= !FanSet::of(f).0;
        }
    }
    /// Applies the non-repeat principle: in table order, each fan the hand has that no fan
    /// before it excluded excludes the fan its line lists. (A fan that is itself excluded
    /// excludes nothing: seven pairs excludes fully concealed hand, which does not then take
    /// self-drawn with it.) A fan the hand lacks excludes nothing, so only those it has are
    /// looked at.
    fn exclude(&mut self) {
        let table = super::fans::table();
        let mut gone = 0u128;
        for i in numbers(self.present) {
            if gone & (1 << i) != 0 {
                self.counts[i] = 0;
                self.present.0 &= !(1 << i);
            } else {
                gone |= table[i].excludes.0;
            }
        }
    }
    /// The value without the flowers.
    fn value(&self, rules: &ScoreRules) -> u32 {
        let table = super::fans::table();
        let mut v = 0;
        for i in numbers(self.present) {
            if i != Fan::FlowerTiles as usize {
                v += u32::from(self.counts[i]) * u32::from(table[i].value);
            }
        }
        // One concealed and one melded kong, if the rules value them otherwise than 2 + 1.
        if self.has(Fan::ConcealedKong) && self.has(Fan::MeldedKong) {
            v = v + u32::from(rules.concealed_and_melded_kong) - 3;
        }
        v
    }
}

const EAST: usize = 27;
const WHITE: usize = 31;

fn suit(k: u8) -> u8 {
    k / 9
}
fn num(k: u8) -> u8 {
    k % 9 + 1
}
fn is_honor(k: u8) -> bool {
    k >= 27
}
fn is_yaochu(k: u8) -> bool {
    is_honor(k) || num(k) == 1 || num(k) == 9
}

/// Sets of tile kinds as bit masks (bit k for kind k), for the fan that ask whether a hand holds
/// only tiles of some kinds.
mod kinds {
    /// The kinds of the suits (0-2) whose number is `lo` to `hi`.
    pub(super) const fn numbered(lo: u8, hi: u8) -> u64 {
        let mut m = 0;
        let mut k = 0;
        while k < 27 {
            let n = k % 9 + 1;
            if n >= lo && n <= hi {
                m |= 1 << k;
            }
            k += 1;
        }
        m
    }
    /// Numbers `nums` (1-9) of suit `suit`.
    const fn of_suit(suit: u32, nums: &[u32]) -> u64 {
        let mut m = 0;
        let mut i = 0;
        while i < nums.len() {
            m |= 1 << (suit * 9 + nums[i] - 1);
            i += 1;
        }
        m
    }
    pub(super) const SUITS: [u64; 3] = [0x1ff, 0x1ff << 9, 0x1ff << 18];
    pub(super) const HONOURS: u64 = 0x7f << 27;
    pub(super) const WINDS: u64 = 0xf << 27;
    pub(super) const DRAGONS: u64 = 0x7 << 31;
    const WHITE: u64 = 1 << 31;
    const GREEN_DRAGON: u64 = 1 << 32;
    pub(super) const TERMINALS: u64 = numbered(1, 1) | numbered(9, 9);
    pub(super) const YAOCHU: u64 = TERMINALS | HONOURS;
    /// 2 3 4 6 8 bamboo and green dragons.
    pub(super) const GREEN: u64 = of_suit(2, &[2, 3, 4, 6, 8]) | GREEN_DRAGON;
    /// 1234589 circles, 245689 bamboo, white dragons.
    pub(super) const REVERSIBLE: u64 = of_suit(1, &[1, 2, 3, 4, 5, 8, 9]) | of_suit(2, &[2, 4, 5, 6, 8, 9]) | WHITE;
}

/// The kinds of each knitted straight ([`Knitted::mask`]).
const KNITTED: [u64; 6] = [
    Knitted::ALL[0].mask(),
    Knitted::ALL[1].mask(),
    Knitted::ALL[2].mask(),
    Knitted::ALL[3].mask(),
    Knitted::ALL[4].mask(),
    Knitted::ALL[5].mask(),
];

/// Scores a winning hand: its best reading.
pub fn score(hand: &WinHand, sit: &Situation, rules: &ScoreRules) -> Result<Score, ScoreError> {
    let h = Prepared::new(hand, sit)?;
    // The best reading; between readings of one value, the one whose wait is an edge, then a
    // closed wait, then a single wait (as the widely used calculator of the reference
    // comparison chooses, docs/rules/mcr.md), else the first found.
    let mut best: Option<((u32, u8), Tally)> = None;
    let mut consider = |t: Tally| {
        let wait =
            [Fan::EdgeWait, Fan::ClosedWait, Fan::SingleWait].iter().position(|&f| t.has(f)).map_or(0, |i| 3 - i as u8);
        let v = (t.value(rules), wait);
        if best.as_ref().is_none_or(|(bv, _)| v > *bv) {
            best = Some((v, t));
        }
    };
    h.standard_readings(sit, &mut consider);
    h.special_readings(sit, &mut consider);
    let ((fan, _), tally) = best.ok_or(ScoreError::NotAWin)?;
    let mut counts = tally.counts;
    counts[Fan::FlowerTiles as usize] = sit.flowers;
    Ok(Score { counts, fan })
}

/// A hand checked and counted once for all its readings.
struct Prepared {
    /// The concealed part, the winning tile included.
    concealed: Counts,
    /// Every tile of the hand, melds included (a kong's four).
    all: Counts,
    melds: [Set; 4],
    meld_count: usize,
    win: u8,
    /// Bit masks of kinds (bit k for kind k), made as the tiles are counted: what the whole
    /// hand holds, what the concealed part holds and holds an odd number of times.
    held: u64,
    concealed_held: u64,
    concealed_odd: u64,
    /// The tile kinds the hand waited on before the winning tile, computed when a wait fan
    /// needs them (`None` until then); only the table's waits when these already hold another
    /// kind than the winning tile (enough to tell it was not the only wait).
    waits: std::cell::Cell<Option<u64>>,
}

impl Prepared {
    fn new(hand: &WinHand, sit: &Situation) -> Result<Prepared, ScoreError> {
        let bad = |m: String| Err(ScoreError::BadTiles(m));
        if hand.melds.len() > 4 {
            return bad(format!("{} melds: a hand has at most four", hand.melds.len()));
        }
        if let Some(t) = hand.concealed.iter().chain(std::iter::once(&hand.win)).find(|t| t.is_aka()) {
            return bad(format!("{t} is a red five; the Chinese Official rules have none"));
        }
        let mut concealed = [0u8; 34];
        let (mut concealed_held, mut concealed_odd) = (0u64, 0u64);
        for t in hand.concealed {
            let k = t.kind();
            concealed[k] += 1;
            concealed_held |= 1 << k;
            concealed_odd ^= 1 << k;
        }
        let mut all = concealed;
        let mut held = concealed_held;
        let mut melds = [Set { kind: SetKind::Chow, base: 0, concealed: false, declared: true }; 4];
        for (i, m) in hand.melds.iter().enumerate() {
            if let Some(t) = m.tiles().iter().find(|t| t.is_aka()) {
                return bad(format!("{t} is a red five; the Chinese Official rules have none"));
            }
            for t in m.tiles() {
                let k = t.kind();
                all[k] += 1;
                held |= 1 << k;
            }
            let kind = match m.kind {
                MeldKind::Chow => SetKind::Chow,
                MeldKind::Pung => SetKind::Pung,
                _ => SetKind::Kong,
            };
            melds[i] = Set { kind, base: m.base() as u8, concealed: m.kind == MeldKind::ConcealedKong, declared: true };
        }
        let want = 14 - 3 * hand.melds.len();
        if hand.concealed.len() != want {
            return bad(format!(
                "{} concealed tiles with {} melds: a winning hand has {want} (the winning tile included)",
                hand.concealed.len(),
                hand.melds.len()
            ));
        }
        if let Some(k) = all.iter().position(|&c| c > 4) {
            return bad(format!("{} tiles of {}; there are four", all[k], Tile::kind_tile(k)));
        }
        let win = hand.win.kind() as u8;
        if concealed[usize::from(win)] == 0 {
            return bad(format!("the winning tile {} is not among the concealed tiles", hand.win));
        }
        if sit.flowers > 8 {
            return bad(format!("{} flowers; there are eight", sit.flowers));
        }
        if sit.seat_wind > 3 || sit.round_wind > 3 {
            return Err(ScoreError::Inconsistent("winds are 0 East .. 3 North".into()));
        }
        let kongs = melds[..hand.melds.len()].iter().filter(|m| m.kind == SetKind::Kong).count();
        if sit.kong_related && sit.self_drawn && kongs == 0 {
            return Err(ScoreError::Inconsistent(
                "out with a replacement tile needs a kong (kong_related with tsumo and no kong)".into(),
            ));
        }
        let w = usize::from(win);
        if sit.kong_related && !sit.self_drawn && all[w] != 1 {
            // The robbed kong holds the other three: the robber holds no other copy.
            return Err(ScoreError::Inconsistent(format!(
                "robbing a kong of {}: the kong holds the other three, so the hand cannot hold another",
                hand.win
            )));
        }
        if sit.last_tile && concealed[w] > 1 {
            return Err(ScoreError::Inconsistent(format!(
                "last tile: the hand holds another {} itself, so the other three cannot all be visible",
                hand.win
            )));
        }
        Ok(Prepared {
            concealed,
            all,
            melds,
            meld_count: hand.melds.len(),
            win,
            held,
            concealed_held,
            concealed_odd,
            waits: std::cell::Cell::new(None),
        })
    }

    fn melds(&self) -> &[Set] {
        &self.melds[..self.meld_count]
    }

    /// The hand before the winning tile.
    fn before_win(&self) -> Counts {
        let mut c = self.concealed;
        c[usize::from(self.win)] -= 1;
        c
    }

    /// Whether the winning tile was the only tile the hand waited on. Waits are counted by
    /// shape: a kind the hand holds four of is still a wait of its shape.
    fn only_wait(&self) -> bool {
        let w = match self.waits.get() {
            Some(w) => w,
            None => {
                // The waits by shape hold the table's: a table wait other than the winning tile
                // settles the question without the special shapes, and is kept as the answer.
                let before = self.before_win();
                let table = hand::waits(&before);
                let w = if table & !(1 << self.win) != 0 {
                    table
                } else {
                    let win = usize::from(self.win);
                    let gone = if self.concealed[win] == 1 { 1 << win } else { 0 };
                    shape_waits_beyond(&before, table, self.concealed_held & !gone)
                };
                self.waits.set(Some(w));
                w
            }
        };
        w == 1 << self.win
    }

    fn fully_concealed(&self) -> bool {
        self.melds().iter().all(|m| m.concealed)
    }

    /// The fan every reading shares: the tiles' colours and numbers, the situation. What kinds
    /// the hand holds is one bit mask, and "only tiles of such kinds" one test against a
    /// constant mask of them ([`kinds`]).
    fn common(&self, sit: &Situation, t: &mut Tally, special: bool) {
        let held = self.held;
        let any = |mask: u64| held & mask != 0;
        let only = |mask: u64| held & !mask == 0;
        let suit_count = kinds::SUITS.iter().filter(|&&m| any(m)).count();
        let honors = any(kinds::HONOURS);
        let winds = any(kinds::WINDS);
        let dragons = any(kinds::DRAGONS);
        // All Green: 2 3 4 6 8 bamboo and green dragons.
        if only(kinds::GREEN) {
            t.add(Fan::AllGreen, 1);
        }
        if only(kinds::TERMINALS) {
            t.add(Fan::AllTerminals, 1);
        } else if only(kinds::HONOURS) {
            t.add(Fan::AllHonors, 1);
        } else if only(kinds::YAOCHU) {
            t.add(Fan::AllTerminalsAndHonors, 1);
        }
        if suit_count == 1 && !honors {
            t.add(Fan::FullFlush, 1);
        } else if suit_count == 1 {
            t.add(Fan::HalfFlush, 1);
        }
        let numbered = |lo: u8, hi: u8| only(kinds::numbered(lo, hi));
        if numbered(7, 9) {
            t.add(Fan::UpperTiles, 1);
        } else if numbered(6, 9) {
            t.add(Fan::UpperFour, 1);
        }
        if numbered(4, 6) {
            t.add(Fan::MiddleTiles, 1);
        }
        if numbered(1, 3) {
            t.add(Fan::LowerTiles, 1);
        } else if numbered(1, 4) {
            t.add(Fan::LowerFour, 1);
        }
        // Reversible: 1234589 circles, 245689 bamboo, white dragons.
        if only(kinds::REVERSIBLE) {
            t.add(Fan::ReversibleTiles, 1);
        }
        if suit_count == 3 && winds && dragons {
            t.add(Fan::AllTypes, 1);
        }
        if !any(kinds::YAOCHU) {
            t.add(Fan::AllSimples, 1);
        }
        if suit_count == 2 {
            t.add(Fan::OneVoidedSuit, 1);
        }
        if !honors {
            t.add(Fan::NoHonors, 1);
        }
        // Tile hog: four of a kind that are not a kong.
        let kongs = self.melds().iter().fold(0u64, |m, s| if s.kind == SetKind::Kong { m | 1 << s.base } else { m });
        let mut hogs = 0;
        let mut kinds_held = held & !kongs;
        while kinds_held != 0 {
            let k = kinds_held.trailing_zeros() as usize;
            kinds_held &= kinds_held - 1;
            hogs += u8::from(self.all[k] == 4);
        }
        if hogs > 0 && !special {
            t.add(Fan::TileHog, hogs);
        }
        // How the hand was won.
        let closed = self.fully_concealed();
        if sit.self_drawn {
            t.add(Fan::SelfDrawn, 1);
            if closed {
                t.add(Fan::FullyConcealedHand, 1);
            }
        } else if closed {
            t.add(Fan::ConcealedHand, 1);
        }
        if !sit.self_drawn && self.meld_count == 4 && self.melds().iter().all(|m| !m.concealed) {
            t.add(Fan::MeldedHand, 1);
        }
        // The last of its kind: as the situation says, or when the hand's own melds show the
        // other three.
        let w = usize::from(self.win);
        if sit.last_tile || self.all[w] - self.concealed[w] == 3 {
            t.add(Fan::LastTile, 1);
        }
        if sit.wall_last {
            t.add(if sit.self_drawn { Fan::LastTileDraw } else { Fan::LastTileClaim }, 1);
        }
        if sit.kong_related {
            t.add(if sit.self_drawn { Fan::OutWithReplacementTile } else { Fan::RobbingTheKong }, 1);
        }
    }

    /// Every reading as four sets and a pair.
    fn standard_readings(&self, sit: &Situation, consider: &mut impl FnMut(Tally)) {
        // The fan every reading shares and whether the hand is nine gates, found at the first
        // reading (a hand of no standard reading needs neither).
        let mut first: Option<(Tally, bool)> = None;
        hand::for_each_decomposition(&self.concealed, |d| {
            let n = self.meld_count + d.sets().len();
            if n != 4 {
                return;
            }
            let (base, nine_gates) = *first.get_or_insert_with(|| {
                let mut t = Tally::new();
                self.common(sit, &mut t, false);
                (t, self.meld_count == 0 && self.is_nine_gates())
            });
            let mut sets = self.melds;
            for (i, s) in d.sets().iter().enumerate() {
                let (kind, b) = match *s {
                    hand::Set::Run(b) => (SetKind::Chow, b),
                    hand::Set::Triplet(b) => (SetKind::Pung, b),
                };
                sets[self.meld_count + i] = Set { kind, base: b, concealed: true, declared: false };
            }
            // Each place the winning tile may have completed: a set of the concealed part, or
            // the pair.
            let w = self.win;
            let mut places = [usize::MAX; 5];
            let mut np = 0;
            if d.pair == w {
                places[np] = 4;
                np += 1;
            }
            for i in self.meld_count..4 {
                let s = sets[i];
                let holds = match s.kind {
                    SetKind::Chow => suit(s.base) == suit(w) && (s.base..s.base + 3).contains(&w),
                    _ => s.base == w,
                };
                if holds && !(0..i).any(|j| j >= self.meld_count && sets[j] == s && places[..np].contains(&j)) {
                    places[np] = i;
                    np += 1;
                }
            }
            for &p in &places[..np] {
                let mut read = sets;
                if p < 4 && !sit.self_drawn && read[p].is_pung() {
                    read[p].concealed = false;
                }
                let mut t = base;
                self.sets_fan(&read, d.pair, sit, &mut t);
                self.wait_fan(&read, p, &mut t);
                if nine_gates {
                    t.add(Fan::NineGates, 1);
                }
                finish(&mut t, nine_gates);
                consider(t);
            }
        });
    }

    /// 1112345678999 of one suit before the winning tile, concealed.
    fn is_nine_gates(&self) -> bool {
        let before = self.before_win();
        (0..3).any(|s| {
            let c = &before[s * 9..s * 9 + 9];
            c == [3, 1, 1, 1, 1, 1, 1, 1, 3] && before.iter().sum::<u8>() == 13
        })
    }

    /// The wait fan of a reading whose winning tile completed `place` (a set's index, or 4 for
    /// the pair), when that tile was the hand's only wait.
    fn wait_fan(&self, sets: &[Set; 4], place: usize, t: &mut Tally) {
        let fan = match place {
            4 => Some(Fan::SingleWait),
            p => {
                let s = sets[p];
                let w = self.win;
                match s.kind {
                    SetKind::Chow if w == s.base + 1 => Some(Fan::ClosedWait),
                    SetKind::Chow if (w == s.base + 2 && num(s.base) == 1) || (w == s.base && num(s.base) == 7) => {
                        Some(Fan::EdgeWait)
                    }
                    _ => None,
                }
            }
        };
        if let Some(f) = fan {
            if self.only_wait() {
                t.add(f, 1);
            }
        }
    }

    /// The fan of a reading's sets and pair.
    fn sets_fan(&self, sets: &[Set; 4], pair: u8, sit: &Situation, t: &mut Tally) {
        let mut chows = [0u8; 4];
        let mut nc = 0;
        let mut suited_pungs = [0u8; 4];
        let mut np = 0;
        let (mut concealed_pungs, mut pungs) = (0, 0);
        let (mut melded_kongs, mut concealed_kongs) = (0u8, 0u8);
        let (mut dragon_pungs, mut wind_pungs) = (0, 0);
        let mut yaochu_pungs = 0u8;
        let (mut seat, mut round) = (false, false);
        for s in sets {
            match s.kind {
                SetKind::Chow => {
                    chows[nc] = s.base;
                    nc += 1;
                }
                SetKind::Pung | SetKind::Kong => {
                    pungs += 1;
                    if s.concealed {
                        concealed_pungs += 1;
                    }
                    if s.kind == SetKind::Kong {
                        if s.concealed {
                            concealed_kongs += 1;
                        } else {
                            melded_kongs += 1;
                        }
                    }
                    let k = usize::from(s.base);
                    if k < 27 {
                        suited_pungs[np] = s.base;
                        np += 1;
                        if is_yaochu(s.base) {
                            yaochu_pungs += 1;
                        }
                    } else if k >= WHITE {
                        dragon_pungs += 1;
                    } else {
                        wind_pungs += 1;
                        let w = (k - EAST) as u8;
                        seat |= w == sit.seat_wind;
                        round |= w == sit.round_wind;
                        if w != sit.seat_wind && w != sit.round_wind {
                            yaochu_pungs += 1;
                        }
                    }
                }
            }
        }
        let pair_k = usize::from(pair);
        // Dragons.
        match dragon_pungs {
            3 => t.add(Fan::BigThreeDragons, 1),
            2 if pair_k >= WHITE => t.add(Fan::LittleThreeDragons, 1),
            2 => t.add(Fan::TwoDragonPungs, 1),
            1 => t.add(Fan::DragonPung, 1),
            _ => {}
        }
        // Winds.
        match wind_pungs {
            4 => t.add(Fan::BigFourWinds, 1),
            3 if (EAST..WHITE).contains(&pair_k) => t.add(Fan::LittleFourWinds, 1),
            3 => t.add(Fan::BigThreeWinds, 1),
            _ => {}
        }
        if wind_pungs >= 3 {
            // The wind pungs of these fan are no pungs of honours besides.
            let others = sets
                .iter()
                .filter(|s| s.is_pung() && (EAST..WHITE).contains(&usize::from(s.base)))
                .filter(|s| {
                    let w = s.base - EAST as u8;
                    w != sit.seat_wind && w != sit.round_wind
                })
                .count() as u8;
            yaochu_pungs -= others;
        }
        if seat {
            t.add(Fan::SeatWind, 1);
        }
        if round {
            t.add(Fan::PrevalentWind, 1);
        }
        if yaochu_pungs > 0 {
            t.add(Fan::PungOfTerminalsOrHonors, yaochu_pungs);
        }
        // Kongs and concealed pungs.
        match melded_kongs + concealed_kongs {
            4 => t.add(Fan::FourKongs, 1),
            3 => t.add(Fan::ThreeKongs, 1),
            2 if concealed_kongs == 2 => t.add(Fan::TwoConcealedKongs, 1),
            2 if melded_kongs == 2 => t.add(Fan::TwoMeldedKongs, 1),
            2 => {
                t.add(Fan::ConcealedKong, 1);
                t.add(Fan::MeldedKong, 1);
            }
            1 if concealed_kongs == 1 => t.add(Fan::ConcealedKong, 1),
            1 => t.add(Fan::MeldedKong, 1),
            _ => {}
        }
        match concealed_pungs {
            4 => t.add(Fan::FourConcealedPungs, 1),
            3 => t.add(Fan::ThreeConcealedPungs, 1),
            2 => t.add(Fan::TwoConcealedPungs, 1),
            _ => {}
        }
        if pungs == 4 {
            t.add(Fan::AllPungs, 1);
        }
        // Whole-hand shapes that depend on the reading.
        let pair_suited = pair_k < 27;
        if nc == 4 && pair_suited {
            t.add(Fan::AllChows, 1);
        }
        // Whether every set and the pair hold a tile of some kinds, each asked of a mask of the
        // sets' lowest kinds: a chow holds a terminal when it starts at 1 or 7, a five when it
        // starts at 3, 4 or 5.
        let (mut chow_bases, mut pung_bases) = (0u64, 0u64);
        for s in sets {
            match s.kind {
                SetKind::Chow => chow_bases |= 1 << s.base,
                _ => pung_bases |= 1 << s.base,
            }
        }
        let pair_bit = 1u64 << pair;
        let within = |chow_ok: u64, pung_ok: u64, pair_ok: u64| {
            chow_bases & !chow_ok == 0 && pung_bases & !pung_ok == 0 && pair_bit & pair_ok != 0
        };
        const OUTSIDE_CHOWS: u64 = kinds::numbered(1, 1) | kinds::numbered(7, 7);
        if within(OUTSIDE_CHOWS, kinds::YAOCHU, kinds::YAOCHU) {
            t.add(Fan::OutsideHand, 1);
        }
        const FIVES: u64 = kinds::numbered(5, 5);
        if within(kinds::numbered(3, 5), FIVES, FIVES) {
            t.add(Fan::AllFives, 1);
        }
        const EVENS: u64 =
            kinds::numbered(2, 2) | kinds::numbered(4, 4) | kinds::numbered(6, 6) | kinds::numbered(8, 8);
        if pungs == 4 && within(0, EVENS, EVENS) {
            t.add(Fan::AllEvenPungs, 1);
        }
        chow_fan(&chows[..nc], pair, t);
        pung_fan(&suited_pungs[..np], t);
    }

    /// The special shapes: seven pairs, thirteen orphans, honours and knitted tiles, a knitted
    /// straight with a set and a pair.
    fn special_readings(&self, sit: &Situation, consider: &mut impl FnMut(Tally)) {
        let c = &self.concealed;
        // Each shape's test runs only when the masks allow it: seven pairs (14 concealed
        // tiles) holds no kind an odd number of times, thirteen orphans only terminals and
        // honours, honours and knitted tiles fourteen kinds, a knitted straight the nine kinds of
        // one of the six.
        let distinct = self.concealed_held.count_ones();
        if self.meld_count == 0 && self.concealed_odd == 0 && hand::is_seven_pairs(c) {
            let mut t = Tally::new();
            self.common(sit, &mut t, false);
            t.add(Fan::SevenPairs, 1);
            let shifted = (0..3).any(|s| (0..3).any(|start| (0..7).all(|i| c[s * 9 + start + i] == 2)));
            if shifted {
                t.add(Fan::SevenShiftedPairs, 1);
            }
            finish(&mut t, false);
            consider(t);
        }
        if self.meld_count == 0 && self.concealed_held & !kinds::YAOCHU == 0 && hand::is_thirteen_orphans(c) {
            let mut t = Tally::new();
            self.common(sit, &mut t, true);
            t.add(Fan::ThirteenOrphans, 1);
            finish(&mut t, false);
            consider(t);
        }
        if self.meld_count == 0 && distinct == 14 && hand::is_honours_and_knitted(c) {
            let mut t = Tally::new();
            self.common(sit, &mut t, true);
            let all_honors = (27..34).all(|k| c[k] == 1);
            t.add(if all_honors { Fan::GreaterHonorsAndKnittedTiles } else { Fan::LesserHonorsAndKnittedTiles }, 1);
            if Knitted::ALL.iter().any(|k| k.kinds().iter().all(|&x| c[x] == 1)) {
                t.add(Fan::KnittedStraight, 1);
            }
            finish(&mut t, false);
            consider(t);
        }
        let knitted = KNITTED.iter().any(|&m| m & !self.concealed_held == 0);
        if self.meld_count <= 1 && knitted && hand::is_knitted_straight_win(c) {
            self.knitted_readings(sit, consider);
        }
    }

    /// A knitted straight with a set and a pair: the straight counts as three chows of no
    /// combination, the set and the pair as in any reading.
    fn knitted_readings(&self, sit: &Situation, consider: &mut impl FnMut(Tally)) {
        let Some((straight, rest)) = hand::knitted_straight(&self.concealed) else {
            return;
        };
        let w = usize::from(self.win);
        // The winning tile completed the straight, or the set or pair beside it.
        let places = [straight.contains(w), rest[w] > 0];
        for d in decompositions(&rest) {
            let set = match (self.meld_count, d.sets().first()) {
                (1, _) => self.melds[0],
                (_, Some(&hand::Set::Run(b))) => Set { kind: SetKind::Chow, base: b, concealed: true, declared: false },
                (_, Some(&hand::Set::Triplet(b))) => {
                    Set { kind: SetKind::Pung, base: b, concealed: true, declared: false }
                }
                _ => continue,
            };
            for (in_straight, _) in places.iter().enumerate().filter(|(_, &p)| p).map(|(i, p)| (i == 0, p)) {
                let mut set = set;
                if !in_straight
                    && !sit.self_drawn
                    && !set.declared
                    && set.is_pung()
                    && set.base == self.win
                    && d.pair != self.win
                {
                    set.concealed = false;
                }
                let mut t = Tally::new();
                self.common(sit, &mut t, false);
                t.add(Fan::KnittedStraight, 1);
                one_set_fan(set, d.pair, sit, &mut t);
                if !in_straight {
                    let place = if d.pair == self.win { 4 } else { 0 };
                    self.wait_fan(&[set; 4], place, &mut t);
                }
                finish(&mut t, false);
                consider(t);
            }
        }
    }
}

/// The fan of the one set (and the pair) beside a knitted straight.
fn one_set_fan(s: Set, pair: u8, sit: &Situation, t: &mut Tally) {
    let k = usize::from(s.base);
    if s.is_pung() {
        if k >= WHITE {
            t.add(Fan::DragonPung, 1);
        } else if k >= EAST {
            let w = (k - EAST) as u8;
            if w == sit.seat_wind {
                t.add(Fan::SeatWind, 1);
            }
            if w == sit.round_wind {
                t.add(Fan::PrevalentWind, 1);
            }
            if w != sit.seat_wind && w != sit.round_wind {
                t.add(Fan::PungOfTerminalsOrHonors, 1);
            }
        } else if is_yaochu(s.base) {
            t.add(Fan::PungOfTerminalsOrHonors, 1);
        }
        if s.kind == SetKind::Kong {
            t.add(if s.concealed { Fan::ConcealedKong } else { Fan::MeldedKong }, 1);
        }
    } else if usize::from(pair) < 27 {
        t.add(Fan::AllChows, 1);
    }
}

/// The waits by shape, the table's found here (tests).
#[cfg(test)]
fn shape_waits(before: &Counts) -> u64 {
    let held = before.iter().enumerate().fold(0u64, |m, (k, &n)| if n > 0 { m | 1 << k } else { m });
    shape_waits_beyond(before, hand::waits(before), held)
}

/// The kinds that complete a hand of 13 - 3 x melds tiles by shape: four sets and a pair
/// (also with a fifth copy of a kind the hand holds four of), seven pairs (a four as two
/// pairs), thirteen orphans and the knitted shapes; `table` is the table's waits
/// (`hand::waits(before)`), which these hold, and `held` the kinds `before` holds.
fn shape_waits_beyond(before: &Counts, table: u64, held: u64) -> u64 {
    let mut w = table;
    // The kinds worth trying beyond the table's waits. Each special shape asks something of the
    // hand before its last tile, checked here once rather than for every kind: seven pairs, one
    // kind held an odd number of times (the wait); the knitted hands, no kind twice, or eight of
    // a knitted straight's nine kinds; thirteen orphans, only terminals and honours; and four of
    // a kind, a fifth copy read by the plain search. Only the kinds held are looked at.
    let (mut total, mut odd, mut fours, mut single) = (0u8, 0u64, 0u64, true);
    let mut rest = held;
    while rest != 0 {
        let k = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let n = before[k];
        total += n;
        if n % 2 == 1 {
            odd |= 1 << k;
        }
        if n == 4 {
            fours |= 1 << k;
        }
        single &= n <= 1;
    }
    let knitted = Knitted::ALL.iter().any(|k| (held & k.mask()).count_ones() >= 8);
    let worth = if single || knitted || held & !kinds::YAOCHU == 0 {
        (1u64 << 34) - 1
    } else {
        (if odd.count_ones() == 1 { odd } else { 0 }) | fours
    };
    let mut tried = worth & !table;
    while tried != 0 {
        let k = tried.trailing_zeros() as usize;
        tried &= tried - 1;
        let mut c = *before;
        c[k] += 1;
        let win = if before[k] == 4 {
            standard_with_five(&mut c, false)
        } else {
            total == 13
                && (hand::is_seven_pairs(&c) || hand::is_honours_and_knitted(&c) || hand::is_thirteen_orphans(&c))
                || (total == 13 || total == 10) && hand::is_knitted_straight_win(&c)
        };
        if win {
            w |= 1 << k;
        }
    }
    w
}

/// Four sets and a pair by a plain search, for counts the shape tables do not take (a kind
/// five times).
fn standard_with_five(c: &mut Counts, paired: bool) -> bool {
    let Some(i) = c.iter().position(|&x| x > 0) else {
        return paired;
    };
    if !paired && c[i] >= 2 {
        c[i] -= 2;
        let ok = standard_with_five(c, true);
        c[i] += 2;
        if ok {
            return true;
        }
    }
    if c[i] >= 3 {
        c[i] -= 3;
        let ok = standard_with_five(c, paired);
        c[i] += 3;
        if ok {
            return true;
        }
    }
    if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        let ok = standard_with_five(c, paired);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
        return ok;
    }
    false
}

/// The last steps of every reading: the non-repeat principle, then the chicken hand.
fn finish(t: &mut Tally, nine_gates: bool) {
    if nine_gates {
        // Nine gates is one suit's 111 and 999 around a run: one of the two pungs of
        // terminals is the shape itself.
        t.take_one(Fan::PungOfTerminalsOrHonors);
    }
    t.exclude();
    if t.present.0 & !FanSet::of(Fan::FlowerTiles).0 == 0 {
        t.add(Fan::ChickenHand, 1);
    }
}

/// The fan of combinations of three or four chows.
fn four_chow_fan(c: &[u8], pair: u8) -> Option<Fan> {
    let mut s = [c[0], c[1], c[2], c[3]];
    s.sort_unstable();
    let same_suit = s.iter().all(|&b| suit(b) == suit(s[0]));
    if same_suit {
        if s.iter().all(|&b| b == s[0]) {
            return Some(Fan::QuadrupleChow);
        }
        for d in [1, 2] {
            if (0..4).all(|i| s[i] == s[0] + d * i as u8) {
                return Some(Fan::FourPureShiftedChows);
            }
        }
        if num(s[0]) == 1 && s[1] == s[0] && s[2] == s[0] + 6 && s[3] == s[2] && pair == s[0] + 4 {
            return Some(Fan::PureTerminalChows);
        }
    }
    // 123 and 789 of two suits, a pair of fives of the third.
    let mut suits_seen = [0u8; 3];
    for &b in &s {
        let bit = match num(b) {
            1 => 1,
            7 => 2,
            _ => return None,
        };
        suits_seen[usize::from(suit(b))] |= bit;
    }
    let full = suits_seen.iter().filter(|&&x| x == 3).count();
    if full == 2 && pair < 27 && num(pair) == 5 && suits_seen[usize::from(suit(pair))] == 0 {
        return Some(Fan::ThreeSuitedTerminalChows);
    }
    None
}

fn three_chow_fan(a: u8, b: u8, c: u8) -> Option<Fan> {
    let mut s = [a, b, c];
    s.sort_unstable();
    let [x, y, z] = s;
    if suit(x) == suit(y) && suit(y) == suit(z) {
        if x == y && y == z {
            return Some(Fan::PureTripleChow);
        }
        if num(x) == 1 && y == x + 3 && z == x + 6 {
            return Some(Fan::PureStraight);
        }
        if (y == x + 1 && z == x + 2) || (y == x + 2 && z == x + 4) {
            return Some(Fan::PureShiftedChows);
        }
        return None;
    }
    if suit(x) == suit(y) || suit(y) == suit(z) || suit(x) == suit(z) {
        return None;
    }
    let mut n = [num(x), num(y), num(z)];
    n.sort_unstable();
    if n == [1, 4, 7] {
        Some(Fan::MixedStraight)
    } else if n[0] == n[2] {
        Some(Fan::MixedTripleChow)
    } else if n[1] == n[0] + 1 && n[2] == n[0] + 2 {
        Some(Fan::MixedShiftedChows)
    } else {
        None
    }
}

fn two_chow_fan(a: u8, b: u8) -> Option<Fan> {
    if a == b {
        Some(Fan::PureDoubleChow)
    } else if num(a) == num(b) {
        Some(Fan::MixedDoubleChow)
    } else if suit(a) == suit(b) && a.abs_diff(b) == 3 {
        Some(Fan::ShortStraight)
    } else if suit(a) == suit(b) && a.abs_diff(b) == 6 {
        Some(Fan::TwoTerminalChows)
    } else {
        None
    }
}

/// Three of three or four sets: all three, or the four but the one at `skip`.
fn trio(sets: &[u8], skip: usize) -> Option<[u8; 3]> {
    match *sets {
        [a, b, c] => Some([a, b, c]),
        [a, b, c, d] => {
            let mut t = [0; 3];
            let mut n = 0;
            for (i, x) in [a, b, c, d].into_iter().enumerate() {
                if i != skip {
                    t[n] = x;
                    n += 1;
                }
            }
            Some(t)
        }
        _ => None,
    }
}

/// Chow combinations: a fan of four, else the best fan of three (with at most one
/// combination of the fourth chow with one of them), else combinations of two where each
/// brings in a chow not combined before (account once).
fn chow_fan(c: &[u8], pair: u8, t: &mut Tally) {
    if c.len() == 4 {
        if let Some(f) = four_chow_fan(c, pair) {
            t.add(f, 1);
            return;
        }
    }
    if c.len() >= 3 {
        let mut best: Option<(u8, Fan, Option<Fan>)> = None;
        for skip in 0..c.len() {
            let Some(trio) = trio(c, skip) else { continue };
            let Some(f) = three_chow_fan(trio[0], trio[1], trio[2]) else { continue };
            let extra = if c.len() == 4 { trio.iter().filter_map(|&x| two_chow_fan(c[skip], x)).min() } else { None };
            let v = f.value() + extra.map_or(0, Fan::value);
            if best.is_none_or(|(bv, bf, _)| v > bv || (v == bv && f < bf)) {
                best = Some((v, f, extra));
            }
            if c.len() == 3 {
                break;
            }
        }
        if let Some((_, f, extra)) = best {
            t.add(f, 1);
            if let Some(e) = extra {
                t.add(e, 1);
            }
            return;
        }
    }
    combine_pairs(c, two_chow_fan, t);
}

/// Combinations of two sets, in table order of their fan, each bringing in a set not
/// combined before: a forest over the sets.
fn combine_pairs(c: &[u8], fan: fn(u8, u8) -> Option<Fan>, t: &mut Tally) {
    let mut edges = [(Fan::FlowerTiles, 0usize, 0usize); 6];
    let mut ne = 0;
    for i in 0..c.len() {
        for j in i + 1..c.len() {
            if let Some(f) = fan(c[i], c[j]) {
                edges[ne] = (f, i, j);
                ne += 1;
            }
        }
    }
    edges[..ne].sort_by_key(|e| e.0);
    let mut group = [0usize, 1, 2, 3];
    for &(f, i, j) in &edges[..ne] {
        let (gi, gj) = (group[i], group[j]);
        if gi != gj {
            for g in group.iter_mut() {
                if *g == gj {
                    *g = gi;
                }
            }
            t.add(f, 1);
        }
    }
}

fn three_pung_fan(a: u8, b: u8, c: u8) -> Option<Fan> {
    let mut s = [a, b, c];
    s.sort_unstable();
    let [x, y, z] = s;
    if suit(x) == suit(z) && suit(y) == suit(x) {
        return (y == x + 1 && z == x + 2).then_some(Fan::PureShiftedPungs);
    }
    if suit(x) == suit(y) || suit(y) == suit(z) || suit(x) == suit(z) {
        return None;
    }
    let mut n = [num(x), num(y), num(z)];
    n.sort_unstable();
    if n[0] == n[2] {
        Some(Fan::TriplePung)
    } else if n[1] == n[0] + 1 && n[2] == n[0] + 2 {
        Some(Fan::MixedShiftedPungs)
    } else {
        None
    }
}

fn two_pung_fan(a: u8, b: u8) -> Option<Fan> {
    (suit(a) != suit(b) && num(a) == num(b)).then_some(Fan::DoublePung)
}

/// Combinations of suited pungs (and kongs), by the same principles as chows.
fn pung_fan(p: &[u8], t: &mut Tally) {
    if p.len() == 4 {
        let mut s = [p[0], p[1], p[2], p[3]];
        s.sort_unstable();
        if s.iter().all(|&b| suit(b) == suit(s[0])) && (0..4).all(|i| s[i] == s[0] + i as u8) {
            t.add(Fan::FourPureShiftedPungs, 1);
            return;
        }
    }
    if p.len() >= 3 {
        let mut best: Option<(u8, Fan, Option<Fan>)> = None;
        for skip in 0..p.len() {
            let Some(trio) = trio(p, skip) else { continue };
            let Some(f) = three_pung_fan(trio[0], trio[1], trio[2]) else { continue };
            let extra = if p.len() == 4 { trio.iter().filter_map(|&x| two_pung_fan(p[skip], x)).min() } else { None };
            let v = f.value() + extra.map_or(0, Fan::value);
            if best.is_none_or(|(bv, _, _)| v > bv) {
                best = Some((v, f, extra));
            }
            if p.len() == 3 {
                break;
            }
        }
        if let Some((_, f, extra)) = best {
            t.add(f, 1);
            if let Some(e) = extra {
                t.add(e, 1);
            }
            return;
        }
    }
    combine_pairs(p, two_pung_fan, t);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The waits by shape as they were found before kinds were filtered: every kind tried.
    fn every_kind_tried(before: &Counts) -> u64 {
        let mut w = hand::waits(before);
        let total: u8 = before.iter().sum();
        for k in 0..34 {
            let mut c = *before;
            c[k] += 1;
            let win = if before[k] == 4 {
                standard_with_five(&mut c, false)
            } else {
                total == 13
                    && (hand::is_seven_pairs(&c) || hand::is_honours_and_knitted(&c) || hand::is_thirteen_orphans(&c))
                    || (total == 13 || total == 10) && hand::is_knitted_straight_win(&c)
            };
            if win {
                w |= 1 << k;
            }
        }
        w
    }

    /// The kinds `shape_waits` skips could never complete a special shape: on hands near each
    /// special shape (pairs, knitted tiles, terminals and honours, fours) and plain ones, of 13
    /// and 10 tiles, the waits are the same as with every kind tried.
    #[test]
    fn shape_waits_skip_only_kinds_that_cannot_win() {
        let mut s = crate::Seed::from_text("mcr shape waits").stream("hands");
        let mut special = 0;
        for i in 0..20_000 {
            let size = if i % 4 == 0 { 10 } else { 13 };
            let pool: Vec<usize> = match i % 5 {
                // Kinds of one knitted straight and the honours.
                0 => Knitted::ALL[s.below(6) as usize].kinds().into_iter().chain(27..34).collect(),
                // Terminals and honours.
                1 => hand::YAOCHU.to_vec(),
                // A few kinds: pairs and fours.
                2 => (0..8).map(|_| s.below(34) as usize).collect(),
                _ => (0..34).collect(),
            };
            let mut c = [0u8; 34];
            let mut n = 0;
            while n < size {
                let k = pool[s.below(pool.len() as u64) as usize];
                let take = if i % 5 == 2 { 2 } else { 1 };
                if c[k] + take <= 4 && n + usize::from(take) <= size {
                    c[k] += take;
                    n += usize::from(take);
                } else if pool.iter().all(|&k| c[k] + 1 > 4) {
                    break;
                } else if c[k] < 4 {
                    c[k] += 1;
                    n += 1;
                }
            }
            let want = every_kind_tried(&c);
            if want & !hand::waits(&c) != 0 {
                special += 1;
            }
            assert_eq!(shape_waits(&c), want, "{c:?}");
        }
        // The hands reach the special shapes' waits, not only the table's.
        assert!(special > 200, "{special}");
    }

    /// The same on hands one tile short of a special shape: thirteen orphans (a pair and twelve
    /// kinds), a knitted straight with a set and a pair (13 tiles) or with a pair (10), honours
    /// and knitted tiles. Each knitted family must reach waits the shape tables do not find
    /// (the tables already find thirteen orphans' waits, so those hands check agreement only).
    #[test]
    fn shape_waits_find_every_special_wait_one_tile_short() {
        let mut s = crate::Seed::from_text("mcr special waits").stream("hands");
        let mut special = [0u32; 4];
        for i in 0..4_000 {
            let family = i % 4;
            let mut c = [0u8; 34];
            let knitted = Knitted::ALL[s.below(6) as usize].kinds();
            match family {
                0 => {
                    hand::YAOCHU.iter().for_each(|&k| c[k] = 1);
                    c[hand::YAOCHU[s.below(13) as usize]] += 1;
                }
                1 | 2 => {
                    knitted.iter().for_each(|&k| c[k] = 1);
                    let pair = loop {
                        let k = s.below(34) as usize;
                        if c[k] + 2 <= 4 {
                            break k;
                        }
                    };
                    c[pair] += 2;
                    if family == 1 {
                        let set = loop {
                            let k = s.below(34) as usize;
                            if c[k] + 3 <= 4 {
                                break k;
                            }
                        };
                        c[set] += 3;
                    }
                }
                _ => {
                    knitted.iter().chain(&[27, 28, 29, 30, 31, 32, 33]).for_each(|&k| c[k] = 1);
                    for _ in 0..2 {
                        let k = loop {
                            let k = s.below(34) as usize;
                            if c[k] > 0 {
                                break k;
                            }
                        };
                        c[k] -= 1;
                    }
                }
            }
            let out = loop {
                let k = s.below(34) as usize;
                if c[k] > 0 {
                    break k;
                }
            };
            c[out] -= 1;
            let want = every_kind_tried(&c);
            if want & !hand::waits(&c) != 0 {
                special[family] += 1;
            }
            assert_eq!(shape_waits(&c), want, "{c:?}");
        }
        assert!(special[1..].iter().all(|&n| n > 100), "{special:?}");
    }
}
