//! Ta Yü pieces: directions, the 28 channel patterns (from data/tayu-pieces.txt), placements
//! and their squares and exits, and the board description (from data/tayu-board.txt).

use crate::log::NotationError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// A direction on the board, and a side of a square: `N` is toward row 0, `W` toward column 0.
/// Also the four coasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Dir {
    N,
    E,
    S,
    W,
}

impl Dir {
    /// Clockwise order.
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// 0 N, 1 E, 2 S, 3 W.
    pub fn index(self) -> usize {
        match self {
            Dir::N => 0,
            Dir::E => 1,
            Dir::S => 2,
            Dir::W => 3,
        }
    }

    pub(crate) fn from_index(i: usize) -> Dir {
        Dir::ALL[i % 4]
    }

    /// Turned clockwise by `quarters` quarter turns.
    pub fn turned(self, quarters: usize) -> Dir {
        Dir::from_index(self.index() + quarters)
    }

    pub(crate) fn opposite(self) -> Dir {
        self.turned(2)
    }

    /// (row, column) step one square this way.
    pub fn delta(self) -> (i16, i16) {
        match self {
            Dir::N => (-1, 0),
            Dir::E => (0, 1),
            Dir::S => (1, 0),
            Dir::W => (0, -1),
        }
    }

    pub fn letter(self) -> char {
        ['N', 'E', 'S', 'W'][self.index()]
    }

    /// The coast's name.
    pub(crate) fn coast_name(self) -> &'static str {
        ["North", "East", "South", "West"][self.index()]
    }

    fn bit(self) -> u8 {
        1 << self.index()
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Dir {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Dir, NotationError> {
        match s {
            "N" | "n" => Ok(Dir::N),
            "E" | "e" => Ok(Dir::E),
            "S" | "s" => Ok(Dir::S),
            "W" | "w" => Ok(Dir::W),
            _ => Err(NotationError(format!("{s:?} is not a direction: write N, E, S or W"))),
        }
    }
}

/// The eight exit positions of a piece lying horizontally (squares 0, 1, 2 from left to
/// right), clockwise from the top-left: which square, which side.
pub(crate) const EXIT_POSITIONS: [(usize, Dir); 8] =
    [(0, Dir::N), (1, Dir::N), (2, Dir::N), (2, Dir::E), (2, Dir::S), (1, Dir::S), (0, Dir::S), (0, Dir::W)];

/// Which of the four sides of the piece (0 top, 1 right end, 2 bottom, 3 left end) exit
/// position `i` is on.
pub(crate) fn exit_side(i: usize) -> usize {
    match i {
        0..=2 => 0,
        3 => 1,
        4..=6 => 2,
        _ => 3,
    }
}

/// A half turn: exit position i goes to i + 4 (mod 8).
pub(crate) fn half_turn(mask: u8) -> u8 {
    mask.rotate_left(4)
}

fn digits(mask: u8) -> Vec<u8> {
    (0..8u8).filter(|i| mask & (1 << i) != 0).collect()
}

/// A channel pattern: the set of three exits of a piece, written in its canonical form (of
/// the two ways a half turn allows, the one whose sorted exit numbers come first).
///
/// Notation: the three exit numbers, for example `015`. Only the canonical form is valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Pattern(u8);

impl Pattern {
    /// The pattern with these exits (bit i = exit position i), if it is a canonical 3-exit mask.
    pub(crate) fn from_mask(mask: u8) -> Option<Pattern> {
        if mask.count_ones() != 3 {
            return None;
        }
        if digits(mask) <= digits(half_turn(mask)) {
            Some(Pattern(mask))
        } else {
            None
        }
    }

    /// Any 3-exit mask, brought to canonical form (a half turn if needed).
    pub fn canonical(mask: u8) -> Option<Pattern> {
        Pattern::from_mask(mask).or_else(|| Pattern::from_mask(half_turn(mask)))
    }

    pub fn mask(self) -> u8 {
        self.0
    }

    /// The exit positions, ascending.
    pub fn exits(self) -> impl Iterator<Item = usize> {
        (0..8).filter(move |i| self.0 & (1 << i) != 0)
    }

    /// On how many of the piece's four sides (two long sides, two ends) it has exits: 1, 2 or 3.
    pub fn sides(self) -> usize {
        let mut s = [false; 4];
        for i in self.exits() {
            s[exit_side(i)] = true;
        }
        s.iter().filter(|&&b| b).count()
    }

    /// Whether the back of the piece carries the engraved circles (exits on three sides).
    pub fn marked(self) -> bool {
        self.sides() == 3
    }
}

/// A byte that is not the code of a pattern (a binary log's byte out of range).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:#010b} is not a canonical Ta Yü pattern")]
pub struct PatternCodeError(pub u8);

impl TryFrom<u8> for Pattern {
    type Error = PatternCodeError;
    fn try_from(m: u8) -> Result<Pattern, PatternCodeError> {
        Pattern::from_mask(m).ok_or(PatternCodeError(m))
    }
}

impl From<Pattern> for u8 {
    fn from(p: Pattern) -> u8 {
        p.0
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in digits(self.0) {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl FromStr for Pattern {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Pattern, NotationError> {
        let bad = || {
            NotationError(format!(
                "{s:?} is not a Ta Yü pattern: write its three exit numbers 0-7 ascending, for example 015"
            ))
        };
        let mut mask = 0u8;
        let mut count = 0;
        let mut last: Option<u32> = None;
        for ch in s.chars() {
            let d = ch.to_digit(10).filter(|&d| d < 8).ok_or_else(bad)?;
            if last.is_some_and(|l| d <= l) {
                return Err(bad());
            }
            last = Some(d);
            mask |= 1 << d;
            count += 1;
        }
        if count != 3 {
            return Err(bad());
        }
        Pattern::from_mask(mask).ok_or_else(|| {
            let c = Pattern::canonical(mask).map(|p| p.to_string()).unwrap_or_default();
            NotationError(format!("{s:?} is the half turn of pattern {c}; write the pattern as {c}"))
        })
    }
}

/// Where and how a piece lies: its pattern, the square of its top-left end (least row, then
/// least column), and which way the pattern's top side (exits 0, 1, 2) faces. Facing N or S
/// the piece lies horizontally (covers `row, col..col+2`); facing E or W vertically
/// (covers `row..row+2, col`). Facing E is the pattern turned a quarter clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placement {
    pub piece: Pattern,
    pub row: u8,
    pub col: u8,
    pub facing: Dir,
}

/// One exit of a placed piece: on side `side` of square (`row`, `col`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Exit {
    pub row: i16,
    pub col: i16,
    pub side: Dir,
}

impl Placement {
    pub fn new(piece: Pattern, row: u8, col: u8, facing: Dir) -> Placement {
        Placement { piece, row, col, facing }
    }

    fn quarters(self) -> usize {
        self.facing.index()
    }

    pub(crate) fn horizontal(self) -> bool {
        self.quarters() % 2 == 0
    }

    /// The square of the piece's k-th square (0, 1, 2 of the pattern lying horizontally).
    fn square_of(self, k: usize) -> (i16, i16) {
        let (r, c) = (i16::from(self.row), i16::from(self.col));
        let along = match self.quarters() {
            0 | 1 => k as i16,
            _ => 2 - k as i16,
        };
        if self.horizontal() {
            (r, c + along)
        } else {
            (r + along, c)
        }
    }

    /// The three squares, top-left first.
    pub fn squares(self) -> [(i16, i16); 3] {
        let (r, c) = (i16::from(self.row), i16::from(self.col));
        if self.horizontal() {
            [(r, c), (r, c + 1), (r, c + 2)]
        } else {
            [(r, c), (r + 1, c), (r + 2, c)]
        }
    }

    /// The three exits on the board.
    pub fn exits(self) -> [Exit; 3] {
        let mut out = [Exit { row: 0, col: 0, side: Dir::N }; 3];
        for (slot, i) in out.iter_mut().zip(self.piece.exits()) {
            let (k, d) = EXIT_POSITIONS[i % 8];
            let (row, col) = self.square_of(k);
            *slot = Exit { row, col, side: d.turned(self.quarters()) };
        }
        out
    }

    /// For each of the three squares (top-left first), the sides that carry an exit, as a
    /// bit mask (bit `Dir::index`).
    pub(crate) fn exit_masks(self) -> [u8; 3] {
        let sq = self.squares();
        let mut m = [0u8; 3];
        for e in self.exits() {
            if let Some(k) = sq.iter().position(|&s| s == (e.row, e.col)) {
                m[k] |= e.side.bit();
            }
        }
        m
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} {}", self.piece, self.row, self.col, self.facing)
    }
}

pub(crate) fn has_side(mask: u8, d: Dir) -> bool {
    mask & d.bit() != 0
}

/// The pieces file or the board file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file} line {line}: {message}")]
pub struct DataError {
    pub file: &'static str,
    pub line: usize,
    pub message: String,
}

/// Parses a pieces description in the format of data/tayu-pieces.txt: each pattern with its
/// number of copies, in file order.
pub fn parse_pieces(text: &str) -> Result<Vec<(Pattern, u8)>, DataError> {
    let file = "data/tayu-pieces.txt";
    let mut out: Vec<(Pattern, u8)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |message: String| DataError { file, line: i + 1, message };
        let w: Vec<&str> = line.split_whitespace().collect();
        let [p, n] = w.as_slice() else {
            return Err(err(format!("{line:?}: write a pattern and its number of copies")));
        };
        let p: Pattern = p.parse().map_err(|e: NotationError| err(e.0))?;
        let n: u8 = n.parse().ok().filter(|&n| n > 0).ok_or_else(|| err(format!("{n:?} is not a number of copies")))?;
        if out.iter().any(|(q, _)| *q == p) {
            return Err(err(format!("pattern {p} is listed twice")));
        }
        out.push((p, n));
    }
    let total: usize = out.iter().map(|(_, n)| usize::from(*n)).sum();
    if total != usize::from(STACK_COLUMNS * COLUMN_HEIGHT) {
        return Err(DataError {
            file,
            line: 0,
            message: format!("{total} pieces; the stack needs {}", STACK_COLUMNS * COLUMN_HEIGHT),
        });
    }
    Ok(out)
}

/// Columns in the stack: two wide, eight deep.
pub(crate) const STACK_COLUMNS: u8 = 16;
/// Pieces in a column.
pub(crate) const COLUMN_HEIGHT: u8 = 7;

/// The patterns and their copies, from data/tayu-pieces.txt.
pub fn pieces() -> Result<&'static [(Pattern, u8)], DataError> {
    static P: OnceLock<Result<Vec<(Pattern, u8)>, DataError>> = OnceLock::new();
    P.get_or_init(|| parse_pieces(include_str!("../../data/tayu-pieces.txt")))
        .as_ref()
        .map(|v| v.as_slice())
        .map_err(Clone::clone)
}

/// All pieces of the bag, pattern by pattern in data order.
pub(crate) fn bag() -> Result<Vec<Pattern>, DataError> {
    Ok(pieces()?.iter().flat_map(|&(p, n)| std::iter::repeat_n(p, usize::from(n))).collect())
}

/// The board: its size, centre and the special 2-point spaces of each coast.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSpec {
    pub size: u8,
    pub centre: (u8, u8),
    /// Per coast (by `Dir::index`), the special positions along it.
    pub special: [Vec<u8>; 4],
}

impl BoardSpec {
    /// What a mouth at this position of this coast is worth: 2 on a special space, else 1.
    pub(crate) fn mouth_value(&self, coast: Dir, pos: u8) -> u32 {
        if self.special[coast.index()].contains(&pos) {
            2
        } else {
            1
        }
    }
}

/// Parses a board description in the format of data/tayu-board.txt.
pub fn parse_board(text: &str) -> Result<BoardSpec, DataError> {
    let file = "data/tayu-board.txt";
    let mut size: Option<u8> = None;
    let mut centre: Option<(u8, u8)> = None;
    let mut special: [Option<Vec<u8>>; 4] = Default::default();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |message: String| DataError { file, line: i + 1, message };
        let num = |t: &str| t.parse::<u8>().map_err(|_| err(format!("{t:?} is not a number")));
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["size", n] => size = Some(num(n)?).filter(|&n| (3..=64).contains(&n)),
            ["centre", r, c] => centre = Some((num(r)?, num(c)?)),
            ["special", coast, pos @ ..] => {
                let d = match *coast {
                    "north" => Dir::N,
                    "east" => Dir::E,
                    "south" => Dir::S,
                    "west" => Dir::W,
                    other => return Err(err(format!("{other:?} is not a coast (north, east, south, west)"))),
                };
                let v = pos.iter().map(|p| num(p)).collect::<Result<Vec<u8>, _>>()?;
                special[d.index()] = Some(v);
            }
            _ => return Err(err(format!("{line:?}: expected size N, centre ROW COL or special COAST POS..."))),
        }
    }
    let bad = |message: &str| DataError { file, line: 0, message: message.to_owned() };
    let size = size.ok_or_else(|| bad("no valid size (3 to 64)"))?;
    let centre = centre.filter(|&(r, c)| r < size && c < size).ok_or_else(|| bad("no centre inside the board"))?;
    let [n, e, s, w] = special;
    let special = [n, e, s, w].map(|v| v.unwrap_or_default());
    if special.iter().flatten().any(|&p| p >= size) {
        return Err(bad("a special space lies beyond the coast"));
    }
    Ok(BoardSpec { size, centre, special })
}

/// The board from data/tayu-board.txt.
pub(crate) fn board_spec() -> Result<&'static BoardSpec, DataError> {
    static B: OnceLock<Result<BoardSpec, DataError>> = OnceLock::new();
    B.get_or_init(|| parse_board(include_str!("../../data/tayu-board.txt"))).as_ref().map_err(Clone::clone)
}
