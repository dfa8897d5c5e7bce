//! The 81 fan: their names and numbers in code ([`Fan`]), their values, official names and
//! exclusions from the data file `core/data/mcr-fans.txt` ([`Fan::value`], [`Fan::excludes`]).

use std::fmt;
use std::sync::OnceLock;

macro_rules! fans {
    ($($variant:ident = $name:literal,)*) => {
        /// One of the 81 fan, numbered as in the official table (`Fan::BigFourWinds as u8 + 1`
        /// is 1, `Fan::FlowerTiles` 81).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Fan {
            $($variant,)*
        }

        impl Fan {
            /// Every fan in the table's order.
            pub const ALL: [Fan; 81] = [$(Fan::$variant,)*];

            /// The snake_case English name (`pure_double_chow`), as `paifu score mcr` writes it.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Fan::$variant => $name,)*
                }
            }
        }
    };
}

fans! {
    BigFourWinds = "big_four_winds",
    BigThreeDragons = "big_three_dragons",
    AllGreen = "all_green",
    NineGates = "nine_gates",
    FourKongs = "four_kongs",
    SevenShiftedPairs = "seven_shifted_pairs",
    ThirteenOrphans = "thirteen_orphans",
    AllTerminals = "all_terminals",
    LittleFourWinds = "little_four_winds",
    LittleThreeDragons = "little_three_dragons",
    AllHonors = "all_honors",
    FourConcealedPungs = "four_concealed_pungs",
    PureTerminalChows = "pure_terminal_chows",
    QuadrupleChow = "quadruple_chow",
    FourPureShiftedPungs = "four_pure_shifted_pungs",
    FourPureShiftedChows = "four_pure_shifted_chows",
    ThreeKongs = "three_kongs",
    AllTerminalsAndHonors = "all_terminals_and_honors",
    SevenPairs = "seven_pairs",
    GreaterHonorsAndKnittedTiles = "greater_honors_and_knitted_tiles",
    AllEvenPungs = "all_even_pungs",
    FullFlush = "full_flush",
    PureTripleChow = "pure_triple_chow",
    PureShiftedPungs = "pure_shifted_pungs",
    UpperTiles = "upper_tiles",
    MiddleTiles = "middle_tiles",
    LowerTiles = "lower_tiles",
    PureStraight = "pure_straight",
    ThreeSuitedTerminalChows = "three_suited_terminal_chows",
    PureShiftedChows = "pure_shifted_chows",
    AllFives = "all_fives",
    TriplePung = "triple_pung",
    ThreeConcealedPungs = "three_concealed_pungs",
    LesserHonorsAndKnittedTiles = "lesser_honors_and_knitted_tiles",
    KnittedStraight = "knitted_straight",
    UpperFour = "upper_four",
    LowerFour = "lower_four",
    BigThreeWinds = "big_three_winds",
    MixedStraight = "mixed_straight",
    ReversibleTiles = "reversible_tiles",
    MixedTripleChow = "mixed_triple_chow",
    MixedShiftedPungs = "mixed_shifted_pungs",
    ChickenHand = "chicken_hand",
    LastTileDraw = "last_tile_draw",
    LastTileClaim = "last_tile_claim",
    OutWithReplacementTile = "out_with_replacement_tile",
    RobbingTheKong = "robbing_the_kong",
    TwoConcealedKongs = "two_concealed_kongs",
    AllPungs = "all_pungs",
    HalfFlush = "half_flush",
    MixedShiftedChows = "mixed_shifted_chows",
    AllTypes = "all_types",
    MeldedHand = "melded_hand",
    TwoDragonPungs = "two_dragon_pungs",
    OutsideHand = "outside_hand",
    FullyConcealedHand = "fully_concealed_hand",
    TwoMeldedKongs = "two_melded_kongs",
    LastTile = "last_tile",
    DragonPung = "dragon_pung",
    PrevalentWind = "prevalent_wind",
    SeatWind = "seat_wind",
    ConcealedHand = "concealed_hand",
    AllChows = "all_chows",
    TileHog = "tile_hog",
    DoublePung = "double_pung",
    TwoConcealedPungs = "two_concealed_pungs",
    ConcealedKong = "concealed_kong",
    AllSimples = "all_simples",
    PureDoubleChow = "pure_double_chow",
    MixedDoubleChow = "mixed_double_chow",
    ShortStraight = "short_straight",
    TwoTerminalChows = "two_terminal_chows",
    PungOfTerminalsOrHonors = "pung_of_terminals_or_honors",
    MeldedKong = "melded_kong",
    OneVoidedSuit = "one_voided_suit",
    NoHonors = "no_honors",
    EdgeWait = "edge_wait",
    ClosedWait = "closed_wait",
    SingleWait = "single_wait",
    SelfDrawn = "self_drawn",
    FlowerTiles = "flower_tiles",
}

/// A set of fan, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FanSet(pub u128);

impl FanSet {
    pub const EMPTY: FanSet = FanSet(0);

    pub const fn of(fan: Fan) -> FanSet {
        FanSet(1 << fan as u8)
    }
    pub const fn contains(self, fan: Fan) -> bool {
        self.0 & (1 << fan as u8) != 0
    }
    pub fn insert(&mut self, fan: Fan) {
        self.0 |= 1 << fan as u8;
    }
    pub fn iter(self) -> impl Iterator<Item = Fan> {
        Fan::ALL.into_iter().filter(move |&f| self.contains(f))
    }
}

/// One line of the table as the data file gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FanInfo {
    pub value: u8,
    /// The official English name: `Pure Double Chow`.
    pub english: &'static str,
    /// The Chinese name: `一般高`.
    pub chinese: &'static str,
    pub excludes: FanSet,
}

/// The data file, compiled in.
pub(super) const TABLE_TEXT: &str = include_str!("../../data/mcr-fans.txt");

/// A line of the data file that is not what the table needs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("core/data/mcr-fans.txt, line {line}: {message}")]
pub struct TableError {
    pub line: usize,
    pub message: String,
}

/// Reads the table: 81 lines in the order of [`Fan::ALL`], each with its number and name.
pub(super) fn parse_table(text: &'static str) -> Result<Vec<FanInfo>, TableError> {
    let mut out = Vec::with_capacity(81);
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let err = |message: String| TableError { line: line_no, message };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&'static str> = line.split('|').map(str::trim).collect();
        let [number, value, name, english, chinese, excludes] = fields[..] else {
            return Err(err(format!("{} fields, not 6", fields.len())));
        };
        let Some(&fan) = Fan::ALL.get(out.len()) else {
            return Err(err("more than 81 fan".into()));
        };
        if number != (fan as u8 + 1).to_string() || name != fan.name() {
            return Err(err(format!("fan {number} {name}, where fan {} {} was expected", fan as u8 + 1, fan.name())));
        }
        let value: u8 = value.parse().map_err(|_| err(format!("the value {value:?} is not a number")))?;
        let mut ex = FanSet::EMPTY;
        for n in excludes.split_whitespace() {
            let f =
                Fan::ALL.into_iter().find(|f| f.name() == n).ok_or_else(|| err(format!("no fan is called {n:?}")))?;
            ex.insert(f);
        }
        out.push(FanInfo { value, english, chinese, excludes: ex });
    }
    if out.len() != 81 {
        return Err(TableError { line: text.lines().count(), message: format!("{} fan, not 81", out.len()) });
    }
    Ok(out)
}

/// The table, read once. A data file that does not read is a build error caught by the tests
/// (`the_table_reads`); should it ever happen at run time, every fan is worth 0 and excludes
/// nothing rather than the program stopping.
pub(super) fn table() -> &'static [FanInfo] {
    static TABLE: OnceLock<Vec<FanInfo>> = OnceLock::new();
    TABLE.get_or_init(|| {
        parse_table(TABLE_TEXT).unwrap_or_else(|_| {
            Fan::ALL.iter().map(|_| FanInfo { value: 0, english: "", chinese: "", excludes: FanSet::EMPTY }).collect()
        })
    })
}

impl Fan {
    /// Its number in the official table, 1-81.
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }

    pub fn info(self) -> &'static FanInfo {
        &table()[self as usize]
    }

    /// What one of it is worth.
    pub fn value(self) -> u8 {
        self.info().value
    }

    /// The fan that it makes not count again (non-repeat principle).
    pub fn excludes(self) -> FanSet {
        self.info().excludes
    }

    /// The fan named `name` (snake_case).
    pub fn from_name(name: &str) -> Option<Fan> {
        Fan::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The fan with this Chinese name (as Botzone's records write them; `独听・` before a wait
    /// is allowed, as its calculator writes them).
    pub fn from_chinese(name: &str) -> Option<Fan> {
        let name = name.strip_prefix("独听・").unwrap_or(name);
        Fan::ALL.into_iter().find(|f| f.info().chinese == name)
    }

    /// The fan with this official number (1-81).
    pub fn from_number(n: u8) -> Option<Fan> {
        Fan::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }
}

impl fmt::Display for Fan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads() {
        let t = parse_table(TABLE_TEXT).unwrap();
        assert_eq!(t.len(), 81);
        // The official values, group by group.
        let values: Vec<u8> = t.iter().map(|i| i.value).collect();
        let mut want = vec![88; 7];
        for (v, n) in [(64, 6), (48, 2), (32, 3), (24, 9), (16, 6), (12, 5), (8, 9), (6, 7), (4, 4), (2, 10), (1, 13)] {
            want.extend(std::iter::repeat_n(v, n));
        }
        assert_eq!(values, want);
        assert_eq!(Fan::PureDoubleChow.value(), 1);
        assert_eq!(Fan::PureDoubleChow.number(), 69);
        assert_eq!(Fan::ChickenHand.info().chinese, "无番和");
        assert_eq!(Fan::AllTypes.info().english, "All Types");
        assert!(Fan::FullFlush.excludes().contains(Fan::NoHonors));
        assert!(!Fan::FullFlush.excludes().contains(Fan::HalfFlush));
    }

    #[test]
    fn names_numbers_and_chinese_names_find_their_fan() {
        for f in Fan::ALL {
            assert_eq!(Fan::from_name(f.name()), Some(f));
            assert_eq!(Fan::from_number(f.number()), Some(f));
            assert_eq!(Fan::from_chinese(f.info().chinese), Some(f));
            assert!(!f.excludes().contains(f), "{f} excludes itself");
        }
        assert_eq!(Fan::from_chinese("独听・嵌张"), Some(Fan::ClosedWait));
        assert_eq!((Fan::from_number(0), Fan::from_number(82), Fan::from_name("pinfu")), (None, None, None));
    }

    #[test]
    fn a_broken_table_is_refused_with_its_line() {
        let e = parse_table("# c\n1 | 88 | big_four_winds | x | y | nothing_like_this\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("nothing_like_this"), "{e}");
        let e = parse_table("2 | 88 | big_three_dragons | x | y |\n").unwrap_err();
        assert!(e.message.contains("expected"), "{e}");
        let e = parse_table("1 | 88 | big_four_winds | x\n").unwrap_err();
        assert!(e.message.contains("4 fields"), "{e}");
        let e = parse_table("1 | many | big_four_winds | x | y |\n").unwrap_err();
        assert!(e.message.contains("not a number"), "{e}");
        let e = parse_table("1 | 88 | big_four_winds | x | y |\n").unwrap_err();
        assert!(e.message.contains("1 fan, not 81"), "{e}");
    }
}
