//! The riichi-record model every format is read into and converted from: a game as its hands,
//! each seat's takes and discards, the indicators and the results, laid out as tenhou.net/6 lays
//! a round out. Positions inside a game are written as paths in that layout (`log[3][5][7]`:
//! round 3, entry 5 (seat 0's takes), item 7); each format maps them back to its own.
//!
//! Tiles are Tenhou's codes: 11-19 characters (m), 21-29 circles (p), 31-39 bamboo (s), 41-47
//! East South West North White Green Red, 51 52 53 the red fives of m p s.

use super::ImportError;
use paifu_core::mahjong;
use serde_json::Value;

/// A tile in Tenhou's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(pub(crate) u8);

impl Tile {
    pub(crate) fn from_code(code: i64) -> Option<Tile> {
        let ok = matches!(code, 11..=19 | 21..=29 | 31..=39 | 41..=47 | 51..=53);
        if ok {
            Some(Tile(code as u8))
        } else {
            None
        }
    }

    /// Paifu's notation: `5m`, `0p` (red five), `7z`.
    pub(crate) fn notation(self) -> String {
        match self.0 {
            51 => "0m".into(),
            52 => "0p".into(),
            53 => "0s".into(),
            c => {
                let suit = ['m', 'p', 's', 'z'][usize::from(c / 10 - 1).min(3)];
                format!("{}{suit}", c % 10)
            }
        }
    }

    /// Paifu's tile.
    pub(crate) fn to_paifu(self) -> mahjong::Tile {
        match self.0 {
            51..=53 => mahjong::Tile::new(34 + self.0 - 51).unwrap_or(mahjong::Tile::kind_tile(0)),
            c => mahjong::Tile::kind_tile(
                usize::from((c / 10).saturating_sub(1).min(3)) * 9 + usize::from(c % 10).saturating_sub(1),
            ),
        }
    }

    /// The code of Paifu's tile.
    pub(crate) fn from_paifu(t: mahjong::Tile) -> Tile {
        if t.is_aka() {
            return Tile(51 + t.id() - 34);
        }
        let k = t.kind() as u8;
        Tile((k / 9 + 1) * 10 + k % 9 + 1)
    }
}

/// Which seat a called tile came from, relative to the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CalledFrom {
    Left,
    Across,
    Right,
}

impl CalledFrom {
    /// The absolute seat of the discarder, for a caller at `seat`.
    pub(crate) fn seat(self, seat: u8) -> u8 {
        match self {
            CalledFrom::Left => (seat + 3) % 4,
            CalledFrom::Across => (seat + 2) % 4,
            CalledFrom::Right => (seat + 1) % 4,
        }
    }
}

/// One entry of a seat's takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Take {
    Draw(Tile),
    Chi { called: Tile, own: [Tile; 2] },
    Pon { called: Tile, own: [Tile; 2], from: CalledFrom },
    OpenKan { called: Tile, own: [Tile; 3], from: CalledFrom },
}

/// One entry of a seat's discards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Discard {
    Tile(Tile),
    /// The tile just drawn (60).
    Tsumogiri,
    /// A riichi declaration with its discard; `None` discards the drawn tile (`r60`).
    Riichi(Option<Tile>),
    /// An added kan: the tile added to the pon.
    AddedKan {
        added: Tile,
        pon: [Tile; 3],
    },
    ClosedKan {
        tiles: [Tile; 4],
    },
    /// A 0: no discard (after an open kan).
    Nothing,
}

/// One winner's entry of a win result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Win {
    pub deltas: [i64; 4],
    pub who: u8,
    pub from: u8,
    /// The seat liable (pao), equal to `who` when nobody is; `None` when the source does not say
    /// (mjai has no field for it), and then it is not checked.
    pub pao: Option<u8>,
    /// Tenhou's text, e.g. `30符1飜300-500点` or `満貫8000点`.
    pub text: String,
    pub fu: Option<u32>,
    pub han: Option<u32>,
    /// Each yaku's Japanese name and its han (13 for each yakuman); `None` when the source does
    /// not list them (an mjai `hora` without `yakus`), and then they are not checked.
    pub yaku: Option<Vec<(String, u32)>>,
    /// What the source leaves out of this win and Paifu computes instead (`score changes`,
    /// `liable seat`, `fu`, `han`, `yaku`): never read as a claim of nothing. When the score
    /// changes are among them, `deltas` are zeros and are not claimed.
    pub computed: Vec<&'static str>,
}

/// How a round ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Wins(Vec<Win>),
    /// `流局` (exhaustive draw with tenpai payments), `流し満貫`, `全員聴牌`, `全員不聴`, or an
    /// abortive draw: `九種九牌`, `四風連打`, `四家立直`, `四槓散了`, `三家和了`.
    Draw {
        name: String,
        deltas: Option<[i64; 4]>,
    },
}

/// One round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// 0-based: 0-3 East 1-4, 4-7 South 1-4, 8-11 West 1-4.
    pub kyoku: u8,
    pub honba: u32,
    pub sticks: u32,
    pub scores: [i64; 4],
    pub dora: Vec<Tile>,
    pub ura: Vec<Tile>,
    pub hands: [Vec<Tile>; 4],
    pub takes: [Vec<Take>; 4],
    pub discards: [Vec<Discard>; 4],
    pub outcome: Outcome,
}

impl Round {
    /// The round as players name it: `East 2, 1 honba`.
    pub fn name(&self) -> String {
        round_name(self.kyoku, self.honba)
    }
}

/// A round as players name it: `East 2, 1 honba` for `kyoku` 1 (0-based) and `honba` 1.
pub fn round_name(kyoku: u8, honba: u32) -> String {
    let wind = ["East", "South", "West", "North"][usize::from(kyoku / 4).min(3)];
    format!("{wind} {}, {honba} honba", kyoku % 4 + 1)
}

/// A whole game.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// The source's game id (Tenhou's `ref`).
    pub id: String,
    /// Tenhou's display name of the rule, e.g. `鳳南喰赤` (rules.rs).
    pub rule: String,
    pub red_fives: bool,
    pub names: Vec<String>,
    /// Final points per seat (`sc` even entries).
    pub final_scores: Option<Vec<i64>>,
    /// Final results after uma and oka (`sc` odd entries).
    pub final_results: Option<Vec<f64>>,
    /// The fields the source leaves out, each with what its absence means (`ref (the game's id
    /// is unknown: ...)`): said in the log's `meta.absent`.
    pub absent: Vec<String>,
    /// Each seat's points at the game's start, when known: from the rule set the record names
    /// (rules.rs), or as `paifu import --start-points` states them. `None`: unknown, and an
    /// excerpt's table holds what its record states.
    pub start_points: Option<i64>,
    /// Whether `start_points` are stated by whoever imports the record (`paifu import
    /// --start-points`), not by the record: the log's options then state them.
    pub start_points_given: bool,
    pub rounds: Vec<Round>,
    /// The Paifu log a `paifu export` embeds in the source (embedded/), if any, as written.
    pub paifu: Option<Value>,
}

impl Game {
    /// The round a path (`log[3][5][2]`) is in, as players name it.
    fn round_at(&self, path: &str) -> Option<String> {
        let rest = path.strip_prefix("log[")?;
        let ri: usize = rest[..rest.find(']')?].parse().ok()?;
        self.rounds.get(ri).map(Round::name)
    }

    /// An error at a path of this game, in the round the path is in.
    pub(crate) fn error_at(&self, path: &str, message: String) -> ImportError {
        let e = ImportError::new(path, message);
        match self.round_at(path) {
            Some(r) => e.in_round(&r),
            None => e,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_paifu_tiles_map_both_ways() {
        for code in (11..=19).chain(21..=29).chain(31..=39).chain(41..=47).chain(51..=53) {
            let t = Tile::from_code(code).unwrap();
            assert_eq!(Tile::from_paifu(t.to_paifu()), t, "{code}");
            assert_eq!(t.to_paifu().to_string(), t.notation(), "{code}");
        }
        assert_eq!(Tile::from_code(20), None);
        assert_eq!(Tile(53).notation(), "0s");
        assert_eq!(Tile(47).notation(), "7z");
        assert_eq!(CalledFrom::Left.seat(0), 3);
        assert_eq!(round_name(9, 2), "West 2, 2 honba");
    }
}
