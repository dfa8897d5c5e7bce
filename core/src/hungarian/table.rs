//! The seed's scoring table as data: figure points, the winner's premiums, the doublings
//! (core/data/hungarian-figures.txt) and the limit hands' bonuses (core/data/hungarian-limits.txt).
//! The names are fixed here; their values come from the files, so that a value can be corrected
//! without touching the engine.

use std::fmt;
use std::sync::OnceLock;

/// A line of the figure table or a premium: what a hand is paid points for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Line {
    ExposedPongSimples,
    ConcealedPongSimples,
    ExposedPongTerminalsHonours,
    ConcealedPongTerminalsHonours,
    ExposedKongSimples,
    ConcealedKongSimples,
    ExposedKongTerminalsHonours,
    ConcealedKongTerminalsHonours,
    OwnFlower,
    OtherFlower,
    OwnWindPair,
    DragonPair,
    /// The winner's 20.
    Mahjong,
    /// The winner's 2 more when the winning tile was not robbed from a discard.
    NotRobbed,
}

impl Line {
    pub const ALL: [Line; 14] = [
        Line::ExposedPongSimples,
        Line::ConcealedPongSimples,
        Line::ExposedPongTerminalsHonours,
        Line::ConcealedPongTerminalsHonours,
        Line::ExposedKongSimples,
        Line::ConcealedKongSimples,
        Line::ExposedKongTerminalsHonours,
        Line::ConcealedKongTerminalsHonours,
        Line::OwnFlower,
        Line::OtherFlower,
        Line::OwnWindPair,
        Line::DragonPair,
        Line::Mahjong,
        Line::NotRobbed,
    ];

    /// Its name in the data file, in `paifu score hungarian` and in statistics.
    pub fn name(self) -> &'static str {
        match self {
            Line::ExposedPongSimples => "exposed_pong_simples",
            Line::ConcealedPongSimples => "concealed_pong_simples",
            Line::ExposedPongTerminalsHonours => "exposed_pong_terminals_honours",
            Line::ConcealedPongTerminalsHonours => "concealed_pong_terminals_honours",
            Line::ExposedKongSimples => "exposed_kong_simples",
            Line::ConcealedKongSimples => "concealed_kong_simples",
            Line::ExposedKongTerminalsHonours => "exposed_kong_terminals_honours",
            Line::ConcealedKongTerminalsHonours => "concealed_kong_terminals_honours",
            Line::OwnFlower => "own_flower",
            Line::OtherFlower => "other_flower",
            Line::OwnWindPair => "own_wind_pair",
            Line::DragonPair => "dragon_pair",
            Line::Mahjong => "mahjong",
            Line::NotRobbed => "not_robbed",
        }
    }

    /// A premium (the winner's) rather than a figure.
    pub fn is_premium(self) -> bool {
        matches!(self, Line::Mahjong | Line::NotRobbed)
    }

    /// The line of a pong or kong: exposed or concealed, simples or terminals and honours.
    pub fn of_set(kong: bool, exposed: bool, terminal_or_honour: bool) -> Line {
        match (kong, exposed, terminal_or_honour) {
            (false, true, false) => Line::ExposedPongSimples,
            (false, false, false) => Line::ConcealedPongSimples,
            (false, true, true) => Line::ExposedPongTerminalsHonours,
            (false, false, true) => Line::ConcealedPongTerminalsHonours,
            (true, true, false) => Line::ExposedKongSimples,
            (true, false, false) => Line::ConcealedKongSimples,
            (true, true, true) => Line::ExposedKongTerminalsHonours,
            (true, false, true) => Line::ConcealedKongTerminalsHonours,
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A doubling of the seed's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Doubling {
    /// A pong or kong of dragons (every player, each set).
    DragonSet,
    /// A pong or kong of the player's own wind (every player, each set).
    OwnWindSet,
    /// East (the banker) won.
    EastWins,
    /// Every tile of one suit, with winds or dragons.
    OneSuitWithHonours,
    /// Every tile of one suit, no honours.
    PureOneSuit,
    /// Only winds and dragons.
    AllHonours,
    /// East wins on the dealt hand.
    HeavensBlessing,
}

impl Doubling {
    pub const ALL: [Doubling; 7] = [
        Doubling::DragonSet,
        Doubling::OwnWindSet,
        Doubling::EastWins,
        Doubling::OneSuitWithHonours,
        Doubling::PureOneSuit,
        Doubling::AllHonours,
        Doubling::HeavensBlessing,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Doubling::DragonSet => "dragon_set",
            Doubling::OwnWindSet => "own_wind_set",
            Doubling::EastWins => "east_wins",
            Doubling::OneSuitWithHonours => "one_suit_with_honours",
            Doubling::PureOneSuit => "pure_one_suit",
            Doubling::AllHonours => "all_honours",
            Doubling::HeavensBlessing => "heavens_blessing",
        }
    }
}

impl fmt::Display for Doubling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A limit hand ("Extra jutalompontok").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Limit {
    /// Nagysor: 1-9 of one suit, the four winds and one more tile of the suit (or the three
    /// dragons and a pair of winds).
    BigRun,
    /// KilencLámpás: 1112345678999 of one suit and one more tile of it.
    NineLanterns,
    /// Páratlan-színjáték: four pongs and a pair of the odd numbers of one suit.
    OddOneSuit,
    /// Egyszínű sor-játék: 123 345 567 789 of one suit and any pair.
    OneSuitRuns,
    /// Pár-játék (szimpla): seven pairs.
    SevenPairs,
    /// Pár-játék (színes): seven pairs of one suit.
    SevenPairsOneSuit,
    /// Pár-játék (sarkos): seven pairs of terminals and honours.
    SevenPairsTerminalsHonours,
    /// Zöld-játék: only green tiles (bamboo 2 3 4 6 8, green dragon).
    Green,
    /// Szelek játéka: four wind sets and any pair.
    Winds,
    /// Pár-játék (honőrös): seven pairs of honours.
    SevenPairsHonours,
    /// Négybarát: four wind sets and a dragon pair.
    FourFriends,
    /// Világcsoda: one of each terminal and honour, and any fourteenth tile.
    ThirteenWonders,
}

impl Limit {
    pub const ALL: [Limit; 12] = [
        Limit::BigRun,
        Limit::NineLanterns,
        Limit::OddOneSuit,
        Limit::OneSuitRuns,
        Limit::SevenPairs,
        Limit::SevenPairsOneSuit,
        Limit::SevenPairsTerminalsHonours,
        Limit::Green,
        Limit::Winds,
        Limit::SevenPairsHonours,
        Limit::FourFriends,
        Limit::ThirteenWonders,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Limit::BigRun => "big_run",
            Limit::NineLanterns => "nine_lanterns",
            Limit::OddOneSuit => "odd_one_suit",
            Limit::OneSuitRuns => "one_suit_runs",
            Limit::SevenPairs => "seven_pairs",
            Limit::SevenPairsOneSuit => "seven_pairs_one_suit",
            Limit::SevenPairsTerminalsHonours => "seven_pairs_terminals_honours",
            Limit::Green => "green",
            Limit::Winds => "winds",
            Limit::SevenPairsHonours => "seven_pairs_honours",
            Limit::FourFriends => "four_friends",
            Limit::ThirteenWonders => "thirteen_wonders",
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A data file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file} line {line}: {message}")]
pub struct DataError {
    pub file: &'static str,
    /// 1-based; 0 for the file as a whole.
    pub line: usize,
    pub message: String,
}

/// Every value of the two files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    lines: [i64; Line::ALL.len()],
    doublings: [u32; Doubling::ALL.len()],
    limits: [i64; Limit::ALL.len()],
}

impl Table {
    /// The points of a line.
    pub fn points(&self, line: Line) -> i64 {
        self.lines[line as usize]
    }

    /// How many doublings a doubling is (x2 to that power).
    pub fn doublings(&self, d: Doubling) -> u32 {
        self.doublings[d as usize]
    }

    /// A limit hand's bonus.
    pub fn bonus(&self, limit: Limit) -> i64 {
        self.limits[limit as usize]
    }

    /// The table from the text of the two files.
    pub fn parse(figures: &str, limits: &str) -> Result<Table, DataError> {
        const FIGURES: &str = "core/data/hungarian-figures.txt";
        const LIMITS: &str = "core/data/hungarian-limits.txt";
        let mut lines = [None; Line::ALL.len()];
        let mut doublings = [None; Doubling::ALL.len()];
        let mut bonus = [None; Limit::ALL.len()];
        for (file, text) in [(FIGURES, figures), (LIMITS, limits)] {
            for (i, raw) in text.lines().enumerate() {
                let line = raw.split('#').next().unwrap_or("").trim();
                if line.is_empty() {
                    continue;
                }
                let err = |message: String| DataError { file, line: i + 1, message };
                let words: Vec<&str> = line.split_whitespace().collect();
                let [what, name, value] = words.as_slice() else {
                    return Err(err(format!(
                        "{line:?}: write a kind (figure, premium, doubling, limit), a name and a number"
                    )));
                };
                let value: i64 = value
                    .parse()
                    .ok()
                    .filter(|v| (0..=100_000).contains(v))
                    .ok_or_else(|| err(format!("{value:?} is not a number from 0 to 100000")))?;
                let slot: &mut Option<i64> = match (file, *what) {
                    (FIGURES, "figure") | (FIGURES, "premium") => {
                        match Line::ALL.iter().position(|l| l.name() == *name && l.is_premium() == (*what == "premium"))
                        {
                            Some(k) => &mut lines[k],
                            None => return Err(err(format!("{what} {name:?} is not one the engine knows"))),
                        }
                    }
                    (FIGURES, "doubling") => match Doubling::ALL.iter().position(|d| d.name() == *name) {
                        Some(k) => &mut doublings[k],
                        None => return Err(err(format!("doubling {name:?} is not one the engine knows"))),
                    },
                    (LIMITS, "limit") => match Limit::ALL.iter().position(|l| l.name() == *name) {
                        Some(k) => &mut bonus[k],
                        None => return Err(err(format!("limit hand {name:?} is not one the engine knows"))),
                    },
                    _ => return Err(err(format!("{what:?} lines do not belong in this file"))),
                };
                if slot.replace(value).is_some() {
                    return Err(err(format!("{what} {name} is given twice")));
                }
            }
        }
        let missing = |file: &'static str, what: &str, name: &str| DataError {
            file,
            line: 0,
            message: format!("{what} {name} is missing"),
        };
        let mut out =
            Table { lines: [0; Line::ALL.len()], doublings: [0; Doubling::ALL.len()], limits: [0; Limit::ALL.len()] };
        for (k, l) in Line::ALL.iter().enumerate() {
            out.lines[k] = lines[k].ok_or_else(|| missing(FIGURES, "figure", l.name()))?;
        }
        for (k, d) in Doubling::ALL.iter().enumerate() {
            let n = doublings[k].ok_or_else(|| missing(FIGURES, "doubling", d.name()))?;
            // At most x2^8 each: a hand's doublings stay far from overflowing its score.
            out.doublings[k] = u32::try_from(n).ok().filter(|&n| n <= 8).ok_or_else(|| DataError {
                file: FIGURES,
                line: 0,
                message: format!("doubling {} is {n}; at most 8", d.name()),
            })?;
        }
        for (k, l) in Limit::ALL.iter().enumerate() {
            out.limits[k] = bonus[k].ok_or_else(|| missing(LIMITS, "limit", l.name()))?;
        }
        Ok(out)
    }
}

/// The table of the data files compiled into Paifu.
pub fn table() -> Result<&'static Table, DataError> {
    static T: OnceLock<Result<Table, DataError>> = OnceLock::new();
    T.get_or_init(|| {
        Table::parse(include_str!("../../data/hungarian-figures.txt"), include_str!("../../data/hungarian-limits.txt"))
    })
    .as_ref()
    .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_hold_the_seeds_values() {
        let t = table().unwrap();
        let pts: Vec<i64> = Line::ALL.iter().map(|&l| t.points(l)).collect();
        assert_eq!(pts, [2, 4, 4, 8, 8, 16, 16, 32, 8, 4, 2, 2, 20, 2]);
        let dbl: Vec<u32> = Doubling::ALL.iter().map(|&d| t.doublings(d)).collect();
        assert_eq!(dbl, [1, 1, 1, 1, 3, 4, 2]);
        let bonus: Vec<i64> = Limit::ALL.iter().map(|&l| t.bonus(l)).collect();
        assert_eq!(bonus, [1000, 1000, 1000, 1000, 1000, 2000, 2000, 2000, 2000, 3000, 3000, 4000]);
    }

    #[test]
    fn bad_files_are_refused_with_the_line() {
        let figures = include_str!("../../data/hungarian-figures.txt");
        let limits = include_str!("../../data/hungarian-limits.txt");
        let e = Table::parse(&format!("{figures}\nfigure own_flower 9\n"), limits).unwrap_err();
        assert!(e.message.contains("given twice") && e.line > 0, "{e}");
        let e = Table::parse(&figures.replace("premium mahjong 20", ""), limits).unwrap_err();
        assert_eq!(e.to_string(), "core/data/hungarian-figures.txt line 0: figure mahjong is missing");
        let e = Table::parse(&figures.replace("figure own_flower 8", "figure own_flower eight"), limits).unwrap_err();
        assert!(e.message.contains("not a number"), "{e}");
        let e = Table::parse(&figures.replace("premium mahjong", "figure mahjong"), limits).unwrap_err();
        assert!(e.message.contains("not one the engine knows"), "{e}");
        let e = Table::parse(figures, &format!("{limits}\nlimit royal_flush 5000\n")).unwrap_err();
        assert!(e.message.contains("royal_flush") && e.file.ends_with("limits.txt"), "{e}");
        let e = Table::parse(figures, &format!("{limits}\nfigure own_flower 8\n")).unwrap_err();
        assert!(e.message.contains("do not belong"), "{e}");
        let e = Table::parse(&figures.replace("doubling all_honours 4", "doubling all_honours 9"), limits).unwrap_err();
        assert!(e.message.contains("at most 8"), "{e}");
        let e = Table::parse(figures, "limit big_run").unwrap_err();
        assert!(e.message.contains("a kind"), "{e}");
    }
}
