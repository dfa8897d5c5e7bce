//! Scoring a winning hand: yaku, yakuman, dora, fu, the han/fu table with its limits, and
//! payments. The rules are in docs/rules/riichi.md.

use super::rules::{Renhou, Rules};
use crate::mahjong::hand::{for_each_decomposition, is_seven_distinct_pairs, is_thirteen_orphans, Set, YAOCHU};
use crate::mahjong::{Counts, Meld, MeldKind, Tile};
use serde::Serialize;
use std::borrow::Cow;
use std::fmt;

/// Every yaku and yakuman Paifu scores, with its snake_case name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Yaku {
    Riichi,
    DoubleRiichi,
    Ippatsu,
    MenzenTsumo,
    Pinfu,
    Tanyao,
    Iipeikou,
    YakuhaiHaku,
    YakuhaiHatsu,
    YakuhaiChun,
    SeatWind,
    RoundWind,
    Rinshan,
    Chankan,
    Haitei,
    Houtei,
    Sanshoku,
    Ittsu,
    Chanta,
    Toitoi,
    SanshokuDoukou,
    Sanankou,
    Sankantsu,
    Shousangen,
    Honroutou,
    Chiitoitsu,
    Honitsu,
    Junchan,
    Ryanpeikou,
    Chinitsu,
    /// Renhou as a mangan (option).
    RenhouMangan,
    Dora,
    AkaDora,
    UraDora,
    // Yakuman.
    Tenhou,
    Chiihou,
    /// Renhou as a yakuman (option).
    Renhou,
    Daisangen,
    Suuankou,
    Kokushi,
    Ryuuiisou,
    Tsuuiisou,
    Shousuushii,
    Daisuushii,
    Suukantsu,
    Chinroutou,
    Chuuren,
}

impl Yaku {
    /// Every yaku, in the order above.
    pub const ALL: [Yaku; 47] = [
        Yaku::Riichi,
        Yaku::DoubleRiichi,
        Yaku::Ippatsu,
        Yaku::MenzenTsumo,
        Yaku::Pinfu,
        Yaku::Tanyao,
        Yaku::Iipeikou,
        Yaku::YakuhaiHaku,
        Yaku::YakuhaiHatsu,
        Yaku::YakuhaiChun,
        Yaku::SeatWind,
        Yaku::RoundWind,
        Yaku::Rinshan,
        Yaku::Chankan,
        Yaku::Haitei,
        Yaku::Houtei,
        Yaku::Sanshoku,
        Yaku::Ittsu,
        Yaku::Chanta,
        Yaku::Toitoi,
        Yaku::SanshokuDoukou,
        Yaku::Sanankou,
        Yaku::Sankantsu,
        Yaku::Shousangen,
        Yaku::Honroutou,
        Yaku::Chiitoitsu,
        Yaku::Honitsu,
        Yaku::Junchan,
        Yaku::Ryanpeikou,
        Yaku::Chinitsu,
        Yaku::RenhouMangan,
        Yaku::Dora,
        Yaku::AkaDora,
        Yaku::UraDora,
        Yaku::Tenhou,
        Yaku::Chiihou,
        Yaku::Renhou,
        Yaku::Daisangen,
        Yaku::Suuankou,
        Yaku::Kokushi,
        Yaku::Ryuuiisou,
        Yaku::Tsuuiisou,
        Yaku::Shousuushii,
        Yaku::Daisuushii,
        Yaku::Suukantsu,
        Yaku::Chinroutou,
        Yaku::Chuuren,
    ];

    pub fn name(self) -> &'static str {
        use Yaku::*;
        match self {
            Riichi => "riichi",
            DoubleRiichi => "double_riichi",
            Ippatsu => "ippatsu",
            MenzenTsumo => "menzen_tsumo",
            Pinfu => "pinfu",
            Tanyao => "tanyao",
            Iipeikou => "iipeikou",
            YakuhaiHaku => "yakuhai_haku",
            YakuhaiHatsu => "yakuhai_hatsu",
            YakuhaiChun => "yakuhai_chun",
            SeatWind => "seat_wind",
            RoundWind => "round_wind",
            Rinshan => "rinshan",
            Chankan => "chankan",
            Haitei => "haitei",
            Houtei => "houtei",
            Sanshoku => "sanshoku",
            Ittsu => "ittsu",
            Chanta => "chanta",
            Toitoi => "toitoi",
            SanshokuDoukou => "sanshoku_doukou",
            Sanankou => "sanankou",
            Sankantsu => "sankantsu",
            Shousangen => "shousangen",
            Honroutou => "honroutou",
            Chiitoitsu => "chiitoitsu",
            Honitsu => "honitsu",
            Junchan => "junchan",
            Ryanpeikou => "ryanpeikou",
            Chinitsu => "chinitsu",
            RenhouMangan => "renhou",
            Dora => "dora",
            AkaDora => "aka_dora",
            UraDora => "ura_dora",
            Tenhou => "tenhou",
            Chiihou => "chiihou",
            Renhou => "renhou",
            Daisangen => "daisangen",
            Suuankou => "suuankou",
            Kokushi => "kokushi",
            Ryuuiisou => "ryuuiisou",
            Tsuuiisou => "tsuuiisou",
            Shousuushii => "shousuushii",
            Daisuushii => "daisuushii",
            Suukantsu => "suukantsu",
            Chinroutou => "chinroutou",
            Chuuren => "chuuren",
        }
    }

    pub fn is_yakuman(self) -> bool {
        self >= Yaku::Tenhou
    }
}

impl fmt::Display for Yaku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The circumstances of a win that the tiles do not show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Situation {
    pub tsumo: bool,
    pub riichi: bool,
    pub double_riichi: bool,
    pub ippatsu: bool,
    pub rinshan: bool,
    pub chankan: bool,
    pub haitei: bool,
    pub houtei: bool,
    pub tenhou: bool,
    pub chiihou: bool,
    pub renhou: bool,
    /// 0 East .. 3 North.
    pub seat_wind: u8,
    pub round_wind: u8,
}

impl Situation {
    pub fn dealer(&self) -> bool {
        self.seat_wind == 0
    }
}

/// A winning hand: the concealed tiles including the winning tile, the melds in call order, the
/// winning tile, and the dora and ura indicators.
#[derive(Clone, Copy, Debug)]
pub struct WinHand<'a> {
    pub concealed: &'a [Tile],
    pub melds: &'a [Meld],
    pub win: Tile,
    pub dora: &'a [Tile],
    pub ura: &'a [Tile],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    None,
    Mangan,
    Haneman,
    Baiman,
    Sanbaiman,
    Yakuman,
}

impl Limit {
    pub fn name(self) -> &'static str {
        match self {
            Limit::None => "none",
            Limit::Mangan => "mangan",
            Limit::Haneman => "haneman",
            Limit::Baiman => "baiman",
            Limit::Sanbaiman => "sanbaiman",
            Limit::Yakuman => "yakuman",
        }
    }
}

/// What the losers pay, before honba and riichi sticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payment {
    Ron(i64),
    /// A non-dealer's tsumo: the dealer pays `dealer`, the others `non_dealer` each.
    Tsumo {
        dealer: i64,
        non_dealer: i64,
    },
    /// A dealer's tsumo: everybody pays `all`.
    TsumoDealer(i64),
}

impl Payment {
    pub fn total(self) -> i64 {
        match self {
            Payment::Ron(p) => p,
            Payment::Tsumo { dealer, non_dealer } => dealer + 2 * non_dealer,
            Payment::TsumoDealer(a) => 3 * a,
        }
    }

    /// The payments with `honba` counters added: 300 each, 100 from each payer on a tsumo.
    pub(crate) fn with_honba(self, honba: u32) -> Payment {
        let h = i64::from(honba) * 100;
        match self {
            Payment::Ron(p) => Payment::Ron(p + 3 * h),
            Payment::Tsumo { dealer, non_dealer } => Payment::Tsumo { dealer: dealer + h, non_dealer: non_dealer + h },
            Payment::TsumoDealer(a) => Payment::TsumoDealer(a + h),
        }
    }
}

fn ceil100(x: i64) -> i64 {
    (x + 99) / 100 * 100
}

/// The payment for basic points `basic`.
pub(crate) fn payment(basic: i64, dealer: bool, tsumo: bool) -> Payment {
    match (dealer, tsumo) {
        (true, false) => Payment::Ron(ceil100(basic * 6)),
        (false, false) => Payment::Ron(ceil100(basic * 4)),
        (true, true) => Payment::TsumoDealer(ceil100(basic * 2)),
        (false, true) => Payment::Tsumo { dealer: ceil100(basic * 2), non_dealer: ceil100(basic) },
    }
}

/// The score of a winning hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// Han including dora (for a yakuman, 13 per yakuman).
    pub han: u32,
    pub fu: u32,
    /// Yaku with their han (yakuman with 13 per count), then dora, aka and ura dora.
    pub yaku: Vec<(Yaku, u32)>,
    /// Number of yakuman (a double yakuman counts 2); 0 for a counted yakuman.
    pub yakuman: u32,
    pub limit: Limit,
    /// Basic points (fu x 2^(han+2), or the limit's).
    pub basic: i64,
    pub payment: Payment,
}

impl Score {
    pub fn has(&self, y: Yaku) -> bool {
        self.yaku.iter().any(|(x, _)| *x == y)
    }
    /// The yakuman count of one yakuman in this score (0 if absent).
    pub(crate) fn yakuman_of(&self, y: Yaku) -> u32 {
        self.yaku.iter().find(|(x, _)| *x == y).map_or(0, |(_, h)| h / 13)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written piece by piece: summaries are made for every win a replay meets.
        for (i, (y, h)) in self.yaku.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{y} {h}")?;
        }
        if self.yakuman > 0 {
            write!(f, " ({}), {}", if self.yakuman > 1 { "multiple yakuman" } else { "yakuman" }, self.payment.total())
        } else {
            write!(f, ": {} han {} fu", self.han, self.fu)?;
            if self.limit != Limit::None {
                write!(f, " {}", self.limit.name())?;
            }
            write!(f, ", {}", self.payment.total())
        }
    }
}

/// Why a hand cannot be scored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error("{0}")]
    InvalidTiles(String),
    #[error("the tiles do not form a winning hand")]
    NotAWinningHand,
    #[error("the hand has no yaku (dora are not yaku)")]
    NoYaku,
    #[error("{0}")]
    Inconsistent(String),
}

impl ScoreError {
    pub fn code(&self) -> &'static str {
        match self {
            ScoreError::InvalidTiles(_) => "invalid_tiles",
            ScoreError::NotAWinningHand => "not_a_winning_hand",
            ScoreError::NoYaku => "no_yaku",
            ScoreError::Inconsistent(_) => "inconsistent",
        }
    }

    /// What `Display` writes, taken without formatting: the fixed messages borrowed (test
    /// `messages_are_what_display_writes`).
    pub fn into_message(self) -> Cow<'static, str> {
        match self {
            ScoreError::InvalidTiles(s) | ScoreError::Inconsistent(s) => Cow::Owned(s),
            ScoreError::NotAWinningHand => Cow::Borrowed("the tiles do not form a winning hand"),
            ScoreError::NoYaku => Cow::Borrowed("the hand has no yaku (dora are not yaku)"),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Wait {
    Ryanmen,
    Kanchan,
    Penchan,
    Tanki,
    Shanpon,
}

#[derive(Clone, Copy)]
struct Group {
    run: bool,
    kan: bool,
    kind: u8,
    /// Concealed for fu and for concealed-triplet counting.
    concealed: bool,
    /// An open meld that is not the hand's first call (for sakizuke).
    late_call: bool,
}

/// A small fixed list of yaku, to avoid allocating per reading.
#[derive(Clone, Copy)]
struct YakuList {
    items: [(Yaku, u32); 24],
    len: usize,
}

impl YakuList {
    fn new() -> Self {
        YakuList { items: [(Yaku::Riichi, 0); 24], len: 0 }
    }
    fn push(&mut self, y: Yaku, h: u32) {
        if self.len < self.items.len() {
            self.items[self.len] = (y, h);
            self.len += 1;
        }
    }
    fn han(&self) -> u32 {
        self.items[..self.len].iter().map(|x| x.1).sum()
    }
    fn as_slice(&self) -> &[(Yaku, u32)] {
        &self.items[..self.len]
    }
}

struct Ctx<'a> {
    rules: &'a Rules,
    sit: &'a Situation,
    closed: bool,
    win: usize,
    all: Counts,
    tanyao: bool,
    /// Number suits present (bit mask) and whether honours are.
    suits: u8,
    honors: bool,
    all_yaochu: bool,
    all_terminals: bool,
    green: bool,
    first_call: Option<usize>,
}

#[derive(Clone, Copy)]
struct Reading {
    yaku: YakuList,
    yakuman: u32,
    han: u32,
    fu: u32,
}

impl Reading {
    fn basic(&self, rules: &Rules, extra_han: u32) -> (i64, Limit) {
        if self.yakuman > 0 {
            return (8000 * i64::from(self.yakuman), Limit::Yakuman);
        }
        basic_points(self.han + extra_han, self.fu, rules)
    }
}

/// Basic points and limit for han and fu.
pub(crate) fn basic_points(han: u32, fu: u32, rules: &Rules) -> (i64, Limit) {
    match han {
        13.. if rules.kazoe_yakuman => (8000, Limit::Yakuman),
        11.. => (6000, Limit::Sanbaiman),
        8..=10 => (4000, Limit::Baiman),
        6 | 7 => (3000, Limit::Haneman),
        5 => (2000, Limit::Mangan),
        _ => {
            let b = i64::from(fu) << (han + 2);
            if b >= 2000 || (rules.kiriage_mangan && ((han == 4 && fu == 30) || (han == 3 && fu == 60))) {
                (2000, Limit::Mangan)
            } else {
                (b, Limit::None)
            }
        }
    }
}

const GREEN: [usize; 6] = [19, 20, 21, 23, 25, 32];

fn is_value_wind_or_dragon(k: usize, sit: &Situation) -> u32 {
    // Fu of a pair: dragons 2, seat wind 2, round wind 2.
    let mut n = 0;
    if k >= 31 {
        n += 1;
    }
    if k == 27 + usize::from(sit.seat_wind) {
        n += 1;
    }
    if k == 27 + usize::from(sit.round_wind) {
        n += 1;
    }
    n
}

/// Scores a winning hand; the best reading wins (most points, then most han, then most fu).
pub fn score(hand: &WinHand, sit: &Situation, rules: &Rules) -> Result<Score, ScoreError> {
    let mut conc: Counts = [0; 34];
    for t in hand.concealed {
        conc[t.kind()] += 1;
    }
    if hand.concealed.len() + 3 * hand.melds.len() != 14 {
        return Err(ScoreError::InvalidTiles(format!(
            "a winning hand has 14 tiles (a kan counts as 3): {} concealed and {} melds make {}",
            hand.concealed.len(),
            hand.melds.len(),
            hand.concealed.len() + 3 * hand.melds.len()
        )));
    }
    if !hand.concealed.contains(&hand.win) {
        return Err(ScoreError::InvalidTiles(format!(
            "the winning tile {} is not among the concealed tiles",
            hand.win
        )));
    }
    let mut all = conc;
    for m in hand.melds {
        for t in m.tiles() {
            all[t.kind()] += 1;
        }
    }
    if let Some(k) = all.iter().position(|&x| x > 4) {
        return Err(ScoreError::InvalidTiles(format!("the hand holds more than four {}", Tile::kind_tile(k))));
    }
    let closed = hand.melds.iter().all(|m| !m.is_open());
    let mut suits = 0u8;
    for s in 0..3 {
        if all[s * 9..s * 9 + 9].iter().any(|&x| x > 0) {
            suits |= 1 << s;
        }
    }
    let honors = all[27..].iter().any(|&x| x > 0);
    let has = |k: usize| all[k] > 0;
    let all_yaochu = (0..34).all(|k| !has(k) || YAOCHU.contains(&k));
    let ctx = Ctx {
        rules,
        sit,
        closed,
        win: hand.win.kind(),
        all,
        tanyao: YAOCHU.iter().all(|&k| all[k] == 0),
        suits,
        honors,
        all_yaochu,
        all_terminals: all_yaochu && !honors,
        green: (0..34).all(|k| !has(k) || GREEN.contains(&k)),
        first_call: hand.melds.iter().position(|m| m.is_open()),
    };

    let mut best: Option<Reading> = None;
    let consider = |r: Reading, best: &mut Option<Reading>| {
        if r.yakuman == 0 && r.yaku.len == 0 {
            return;
        }
        let key = |x: &Reading| {
            let (b, _) = x.basic(rules, 0);
            (x.yakuman, b, x.han, x.fu)
        };
        if best.as_ref().is_none_or(|b| key(&r) > key(b)) {
            *best = Some(r);
        }
    };
    let mut shaped = false;
    if hand.melds.is_empty() && is_thirteen_orphans(&conc) {
        shaped = true;
        let mut yaku = YakuList::new();
        let mut n = 1;
        if rules.double_yakuman && conc[ctx.win] == 2 {
            n = 2;
        }
        yaku.push(Yaku::Kokushi, 13 * n);
        let mut count = n;
        ctx.situational_yakuman(&mut yaku, &mut count);
        consider(Reading { yaku, yakuman: count, han: 13 * count, fu: 0 }, &mut best);
    }
    if hand.melds.is_empty() && is_seven_distinct_pairs(&conc) {
        shaped = true;
        consider(ctx.chiitoitsu(), &mut best);
    }
    // The readings one by one, none kept (a `Vec` of them was an allocation a hand).
    for_each_decomposition(&conc, |d| {
        shaped = true;
        let mut groups: [Group; 4] = [Group { run: false, kan: false, kind: 0, concealed: false, late_call: false }; 4];
        let mut n = 0;
        for s in d.sets() {
            groups[n] = match *s {
                Set::Run(k) => Group { run: true, kan: false, kind: k, concealed: true, late_call: false },
                Set::Triplet(k) => Group { run: false, kan: false, kind: k, concealed: true, late_call: false },
            };
            n += 1;
        }
        let concealed_sets = n;
        for (i, m) in hand.melds.iter().enumerate() {
            if n >= 4 {
                break;
            }
            groups[n] = Group {
                run: m.kind == MeldKind::Chow,
                kan: m.is_kong(),
                kind: m.base() as u8,
                concealed: !m.is_open(),
                late_call: m.is_open() && Some(i) != ctx.first_call,
            };
            n += 1;
        }
        if n != 4 {
            return;
        }
        let w = ctx.win as u8;
        // Every place the winning tile can sit.
        if d.pair == w {
            consider(ctx.standard(&groups, d.pair, Wait::Tanki, None), &mut best);
        }
        for (gi, g) in groups[..concealed_sets].iter().enumerate() {
            if g.run && (g.kind..g.kind + 3).contains(&w) {
                let pos = w - g.kind;
                let num = g.kind % 9;
                let wait = match pos {
                    1 => Wait::Kanchan,
                    0 if num == 6 => Wait::Penchan,
                    2 if num == 0 => Wait::Penchan,
                    _ => Wait::Ryanmen,
                };
                consider(ctx.standard(&groups, d.pair, wait, None), &mut best);
            } else if !g.run && g.kind == w {
                consider(ctx.standard(&groups, d.pair, Wait::Shanpon, Some(gi)), &mut best);
            }
        }
    });
    if !shaped {
        return Err(ScoreError::NotAWinningHand);
    }
    let Some(r) = best else { return Err(ScoreError::NoYaku) };
    let mut yaku = r.yaku;
    let mut extra = 0;
    if r.yakuman == 0 {
        let dora: u32 = hand.dora.iter().map(|d| u32::from(all[d.dora_of().kind()])).sum();
        let aka = hand
            .concealed
            .iter()
            .chain(hand.melds.iter().flat_map(|m| m.tiles().iter()))
            .filter(|t| t.is_aka())
            .count() as u32;
        if dora > 0 {
            yaku.push(Yaku::Dora, dora);
        }
        if aka > 0 {
            yaku.push(Yaku::AkaDora, aka);
        }
        if sit.riichi || sit.double_riichi {
            let ura: u32 = hand.ura.iter().map(|d| u32::from(all[d.dora_of().kind()])).sum();
            if ura > 0 {
                yaku.push(Yaku::UraDora, ura);
            }
        }
        extra = dora + aka + yaku.as_slice().iter().filter(|(y, _)| *y == Yaku::UraDora).map(|x| x.1).sum::<u32>();
    }
    let (basic, limit) = r.basic(rules, extra);
    Ok(Score {
        han: r.han + extra,
        fu: r.fu,
        yaku: yaku.as_slice().to_vec(),
        yakuman: r.yakuman,
        limit,
        basic,
        payment: payment(basic, sit.dealer(), sit.tsumo),
    })
}

impl Ctx<'_> {
    /// Yaku that depend only on how the hand was won.
    fn situational(&self, yaku: &mut YakuList) {
        let s = self.sit;
        if s.double_riichi {
            yaku.push(Yaku::DoubleRiichi, 2);
        } else if s.riichi {
            yaku.push(Yaku::Riichi, 1);
        }
        if s.ippatsu && (s.riichi || s.double_riichi) {
            yaku.push(Yaku::Ippatsu, 1);
        }
        if s.tsumo && self.closed {
            yaku.push(Yaku::MenzenTsumo, 1);
        }
        if s.rinshan {
            yaku.push(Yaku::Rinshan, 1);
        }
        if s.chankan {
            yaku.push(Yaku::Chankan, 1);
        }
        if s.haitei {
            yaku.push(Yaku::Haitei, 1);
        }
        if s.houtei {
            yaku.push(Yaku::Houtei, 1);
        }
        if s.renhou && self.rules.renhou == Renhou::Mangan {
            yaku.push(Yaku::RenhouMangan, 5);
        }
    }

    fn situational_yakuman(&self, yaku: &mut YakuList, count: &mut u32) {
        let s = self.sit;
        if s.tenhou {
            yaku.push(Yaku::Tenhou, 13);
            *count += 1;
        }
        if s.chiihou {
            yaku.push(Yaku::Chiihou, 13);
            *count += 1;
        }
        if s.renhou && self.rules.renhou == Renhou::Yakuman {
            yaku.push(Yaku::Renhou, 13);
            *count += 1;
        }
    }

    /// Yaku from the set of tiles alone (shared by every reading).
    fn tile_yaku(&self, yaku: &mut YakuList, count: &mut u32) {
        if self.honors && self.suits == 0 {
            yaku.push(Yaku::Tsuuiisou, 13);
            *count += 1;
        }
        if self.all_terminals {
            yaku.push(Yaku::Chinroutou, 13);
            *count += 1;
        }
        if self.green {
            yaku.push(Yaku::Ryuuiisou, 13);
            *count += 1;
        }
    }

    fn flush_yaku(&self, yaku: &mut YakuList) {
        if self.suits.count_ones() == 1 {
            let open = u32::from(!self.closed);
            if self.honors {
                yaku.push(Yaku::Honitsu, 3 - open);
            } else {
                yaku.push(Yaku::Chinitsu, 6 - open);
            }
        }
        if self.tanyao && (self.closed || self.rules.kuitan) {
            yaku.push(Yaku::Tanyao, 1);
        }
    }

    fn chiitoitsu(&self) -> Reading {
        let mut yaku = YakuList::new();
        let mut count = 0;
        self.situational_yakuman(&mut yaku, &mut count);
        self.tile_yaku(&mut yaku, &mut count);
        if count > 0 {
            let mut y = YakuList::new();
            for &(k, h) in yaku.as_slice() {
                if k.is_yakuman() {
                    y.push(k, h);
                }
            }
            return Reading { yaku: y, yakuman: count, han: 13 * count, fu: 0 };
        }
        self.situational(&mut yaku);
        yaku.push(Yaku::Chiitoitsu, 2);
        self.flush_yaku(&mut yaku);
        if self.all_yaochu {
            yaku.push(Yaku::Honroutou, 2);
        }
        Reading { yaku, yakuman: 0, han: yaku.han(), fu: 25 }
    }

    fn standard(&self, groups: &[Group; 4], pair: u8, wait: Wait, ron_triplet: Option<usize>) -> Reading {
        let s = self.sit;
        let rules = self.rules;
        let pair = usize::from(pair);
        let mut g = *groups;
        if let Some(i) = ron_triplet {
            if !s.tsumo {
                g[i].concealed = false;
            }
        }
        let triplets = g.iter().filter(|x| !x.run).count();
        let concealed_triplets = g.iter().filter(|x| !x.run && x.concealed).count();
        let kans = g.iter().filter(|x| x.kan).count();
        let dragon_triplets = g.iter().filter(|x| !x.run && x.kind >= 31).count();
        let wind_triplets = g.iter().filter(|x| !x.run && (27..31).contains(&x.kind)).count();

        // Yakuman.
        let mut yaku = YakuList::new();
        let mut count = 0;
        self.situational_yakuman(&mut yaku, &mut count);
        self.tile_yaku(&mut yaku, &mut count);
        if dragon_triplets == 3 {
            yaku.push(Yaku::Daisangen, 13);
            count += 1;
        }
        if concealed_triplets == 4 {
            let n = if rules.double_yakuman && wait == Wait::Tanki { 2 } else { 1 };
            yaku.push(Yaku::Suuankou, 13 * n);
            count += n;
        }
        if wind_triplets == 4 {
            let n = if rules.double_yakuman { 2 } else { 1 };
            yaku.push(Yaku::Daisuushii, 13 * n);
            count += n;
        } else if wind_triplets == 3 && (27..31).contains(&pair) {
            yaku.push(Yaku::Shousuushii, 13);
            count += 1;
        }
        if kans == 4 {
            yaku.push(Yaku::Suukantsu, 13);
            count += 1;
        }
        if self.closed && self.suits.count_ones() == 1 && !self.honors {
            let base = (self.suits.trailing_zeros() as usize) * 9;
            let a = &self.all[base..base + 9];
            let pattern = [3u8, 1, 1, 1, 1, 1, 1, 1, 3];
            if a.iter().zip(pattern.iter()).all(|(x, p)| x >= p) {
                let junsei = {
                    let mut b = [0u8; 9];
                    b.copy_from_slice(a);
                    if (base..base + 9).contains(&self.win) {
                        b[self.win - base] -= 1;
                    }
                    b == pattern
                };
                let n = if rules.double_yakuman && junsei { 2 } else { 1 };
                yaku.push(Yaku::Chuuren, 13 * n);
                count += n;
            }
        }
        if count > 0 {
            let mut y = YakuList::new();
            for &(k, h) in yaku.as_slice() {
                if k.is_yakuman() {
                    y.push(k, h);
                }
            }
            return Reading { yaku: y, yakuman: count, han: 13 * count, fu: 0 };
        }

        let mut yaku = YakuList::new();
        self.situational(&mut yaku);
        let open = u32::from(!self.closed);
        let runs = g.iter().filter(|x| x.run).count();
        let pair_value = is_value_wind_or_dragon(pair, s);
        let pinfu =
            self.closed && runs == 4 && wait == Wait::Ryanmen && pair_value == 0 && (!s.tsumo || rules.tsumo_pinfu);
        if pinfu {
            yaku.push(Yaku::Pinfu, 1);
        }
        self.flush_yaku(&mut yaku);
        if self.closed {
            let mut rk = [0u8; 27];
            for x in g.iter().filter(|x| x.run) {
                rk[usize::from(x.kind)] += 1;
            }
            let pairs: u8 = rk.iter().map(|c| c / 2).sum();
            if pairs >= 2 {
                yaku.push(Yaku::Ryanpeikou, 3);
            } else if pairs == 1 {
                yaku.push(Yaku::Iipeikou, 1);
            }
        }
        for x in g.iter().filter(|x| !x.run) {
            if x.late_call && !rules.atozuke {
                continue;
            }
            let k = usize::from(x.kind);
            match k {
                31 => yaku.push(Yaku::YakuhaiHaku, 1),
                32 => yaku.push(Yaku::YakuhaiHatsu, 1),
                33 => yaku.push(Yaku::YakuhaiChun, 1),
                _ => {}
            }
            if k == 27 + usize::from(s.seat_wind) {
                yaku.push(Yaku::SeatWind, 1);
            }
            if k == 27 + usize::from(s.round_wind) {
                yaku.push(Yaku::RoundWind, 1);
            }
        }
        let has_run = |k: u8| g.iter().any(|x| x.run && x.kind == k);
        if (0..7).any(|n| has_run(n) && has_run(n + 9) && has_run(n + 18)) {
            yaku.push(Yaku::Sanshoku, 2 - open);
        }
        if (0..3).any(|su| has_run(su * 9) && has_run(su * 9 + 3) && has_run(su * 9 + 6)) {
            yaku.push(Yaku::Ittsu, 2 - open);
        }
        let yaochu_kind = |k: usize| YAOCHU.contains(&k);
        let all_groups_yaochu = yaochu_kind(pair)
            && g.iter()
                .all(|x| if x.run { x.kind % 9 == 0 || x.kind % 9 == 6 } else { yaochu_kind(usize::from(x.kind)) });
        if all_groups_yaochu && runs > 0 {
            if self.honors {
                yaku.push(Yaku::Chanta, 2 - open);
            } else {
                yaku.push(Yaku::Junchan, 3 - open);
            }
        }
        if triplets == 4 {
            yaku.push(Yaku::Toitoi, 2);
        }
        if concealed_triplets == 3 {
            yaku.push(Yaku::Sanankou, 2);
        }
        let has_triplet = |k: u8| g.iter().any(|x| !x.run && x.kind == k);
        if (0..9).any(|n| has_triplet(n) && has_triplet(n + 9) && has_triplet(n + 18)) {
            yaku.push(Yaku::SanshokuDoukou, 2);
        }
        if kans == 3 {
            yaku.push(Yaku::Sankantsu, 2);
        }
        if dragon_triplets == 2 && pair >= 31 {
            yaku.push(Yaku::Shousangen, 2);
        }
        if self.all_yaochu {
            yaku.push(Yaku::Honroutou, 2);
        }

        // Fu.
        let fu = if pinfu {
            if s.tsumo {
                20
            } else {
                30
            }
        } else {
            let mut fu = 20u32;
            if self.closed && !s.tsumo {
                fu += 10;
            }
            if s.tsumo {
                fu += 2;
            }
            for x in g.iter().filter(|x| !x.run) {
                let mut f = 2;
                if yaochu_kind(usize::from(x.kind)) {
                    f *= 2;
                }
                if x.concealed {
                    f *= 2;
                }
                if x.kan {
                    f *= 4;
                }
                fu += f;
            }
            fu += match pair_value {
                0 => 0,
                1 => 2,
                _ => {
                    if rules.renfuu_4fu {
                        4
                    } else {
                        2
                    }
                }
            };
            if matches!(wait, Wait::Kanchan | Wait::Penchan | Wait::Tanki) {
                fu += 2;
            }
            if !self.closed && fu == 20 && rules.naki_pinfu_30 {
                fu = 30;
            }
            fu.div_ceil(10) * 10
        };
        Reading { yaku, yakuman: 0, han: yaku.han(), fu }
    }
}

#[cfg(test)]
mod tests;
