//! Ta Yü: the channel-building board game of seed 002 (see docs/rules/tayu.md).
//!
//! Two players (North-South against East-West), the face-up variant for two, four players in
//! two teams seated alternately, and three players with the bidding and the flood.

mod board;
mod facts;
mod pieces;
mod view;

pub use board::{Board, Mouth, PlaceError};
pub use facts::FactKind;
pub use pieces::{
    parse_board, parse_pieces, pieces, BoardSpec, DataError, Dir, Exit, Pattern, PatternCodeError, Placement,
};

use pieces::{bag, board_spec, COLUMN_HEIGHT, STACK_COLUMNS};
pub use view::{Bid, BoardView, CoastView, Flood, MouthView, PerCoast, PieceView, SeatView, StackColumn, View};

use crate::error::{ErrorCode, Violation};
use crate::game::close_round;
use crate::incident::Incidents;
use crate::log::Action as _;
use crate::log::{NotationError, OptValue, Options};
use crate::random::Seed;
use crate::{placements_by_score, Fact, Game, GameKind, IncidentKind, RoundResult, Seat, SeatSet, SetupError};
use serde::{Deserialize, Serialize};
use std::fmt::{self, Write as _};
use std::str::FromStr;

/// The pair of coasts a seat scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    NorthSouth,
    EastWest,
}

impl Side {
    pub fn coasts(self) -> [Dir; 2] {
        match self {
            Side::NorthSouth => [Dir::N, Dir::S],
            Side::EastWest => [Dir::E, Dir::W],
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::NorthSouth => Side::EastWest,
            Side::EastWest => Side::NorthSouth,
        }
    }

    /// `ns` or `ew`.
    pub fn code(self) -> &'static str {
        match self {
            Side::NorthSouth => "ns",
            Side::EastWest => "ew",
        }
    }

    /// The product of this side's two coasts.
    pub fn product(self, points: &[u32; 4]) -> i64 {
        let [a, b] = self.coasts();
        i64::from(points[a.index()]) * i64::from(points[b.index()])
    }
}

/// The highest bid: 22 x 22, as no coast can be worth more than 19 mouths with three of them
/// on special spaces.
pub(crate) const MAX_BID: u16 = 484;

/// One Ta Yü decision.
///
/// Notation (JSON Lines logs, the command line): `bid 20`, `pass`, `choose ns`, `choose ew`,
/// `draw 3` (the top piece of stack column 3), `place 015 9 8 N` (pattern 015, top-left
/// square row 9 column 8, the pattern's top side facing North).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Three players: bid this score (lower than every earlier bid).
    Bid(u16),
    /// Three players: drop out of the bidding.
    Pass,
    /// Three players: the starting player takes these coasts; the other one gets the others.
    Choose(Side),
    /// Draw the top piece of this stack column (0-15; 0 and 1 nearest the board).
    Draw(u8),
    /// Place one of the pieces the seat holds.
    Place(Placement),
    /// An incident (`incident KIND[: DETAIL]`, core/src/incident.rs), last so that older logs keep
    /// their bytes.
    Incident(Box<crate::Incident>),
}

// Made of pattern bytes that refuse codes outside their range, a bid, and enums, structs and fixed arrays of them; nothing on reading sorts or
// rewrites a value (a set in the wrong order is refused). The test
// `actions_encode_without_maps_chars_or_floats` checks every variant.
impl crate::log::Action for Action {
    const CANONICAL_UNLESS_OVERLONG: bool = true;

    crate::incident::incident_variant!();
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Bid(n) => write!(f, "bid {n}"),
            Action::Pass => f.write_str("pass"),
            Action::Choose(s) => write!(f, "choose {}", s.code()),
            Action::Draw(c) => write!(f, "draw {c}"),
            Action::Place(p) => write!(f, "place {p}"),
            Action::Incident(i) => write!(f, "{i}"),
        }
    }
}

impl FromStr for Action {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Action, NotationError> {
        if let Some(i) = crate::Incident::parse_notation(s)? {
            return Ok(Action::Incident(Box::new(i)));
        }
        let w = crate::log::words(s);
        let usage = || {
            NotationError(format!(
                "{s:?} is not a Ta Yü action: write bid N, pass, choose ns|ew, draw COLUMN, \
                 or place PATTERN ROW COL N|E|S|W"
            ))
        };
        let num = |t: &str, what: &str| t.parse::<u16>().map_err(|_| NotationError(format!("{t:?} is not {what}")));
        let small = |t: &str, what: &str| t.parse::<u8>().map_err(|_| NotationError(format!("{t:?} is not {what}")));
        match w.as_slice() {
            ["bid", n] => Ok(Action::Bid(num(n, "a bid")?)),
            ["pass"] => Ok(Action::Pass),
            ["choose", "ns"] => Ok(Action::Choose(Side::NorthSouth)),
            ["choose", "ew"] => Ok(Action::Choose(Side::EastWest)),
            ["draw", c] => Ok(Action::Draw(small(c, "a stack column")?)),
            ["place", p, r, c, d] => {
                Ok(Action::Place(Placement::new(p.parse()?, small(r, "a row")?, small(c, "a column")?, d.parse()?)))
            }
            _ => Err(usage()),
        }
    }
}

/// Ta Yü rules with every option resolved (RULINGS.md, Ta Yü).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The two-player variant: each player keeps a drawn piece face up and places one of two.
    pub face_up: bool,
    /// While no player has a mouth, a drawn piece with no legal placement is set aside and the
    /// same player draws again (instead of ending the game).
    pub set_aside: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { face_up: false, set_aside: true }
    }
}

/// The ruleset names Ta Yü knows (`hand` is another name for `faceup`).
pub(crate) const RULESETS: &[&str] = &["standard", "faceup", "hand"];

impl Rules {
    pub fn named(name: &str) -> Option<Rules> {
        let d = Rules::default();
        Some(match name {
            "standard" => d,
            "faceup" | "hand" => Rules { face_up: true, ..d },
            _ => return None,
        })
    }
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Three players: `turn` bids or passes; `low` is the lowest bid so far.
    Bidding {
        turn: Seat,
        low: Option<(Seat, u16)>,
        passed: SeatSet,
    },
    /// Three players: the starting player chooses its coasts.
    Choosing {
        turn: Seat,
    },
    /// Face-up variant: each player draws its face-up piece; `left` draws remain.
    Opening {
        turn: Seat,
        left: u8,
    },
    /// `turn` draws.
    Draw {
        turn: Seat,
    },
    /// `turn` places one of the pieces it holds.
    Place {
        turn: Seat,
    },
    Over,
}

/// Why the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The drawn piece (with the face-up variant: neither piece) had a legal placement.
    NoPlacement { seat: Seat, pieces: Vec<Pattern> },
    /// The stack was empty when a player was to draw.
    StackEmpty,
}

/// A whole Ta Yü game.
#[derive(Clone, Debug)]
pub struct Tayu {
    rules: Rules,
    seats: usize,
    board: Board,
    /// The 16 stack columns, column 0 nearest the board, each bottom first.
    stack: Vec<Vec<Pattern>>,
    set_aside: Vec<Pattern>,
    /// The pieces in front of each seat (the face-up piece; the drawn piece while placing).
    held: Vec<Vec<Pattern>>,
    /// Each seat's coasts (none for the flood, and for everyone during the bidding).
    coasts: Vec<Option<Side>>,
    /// Three players: the flood and its bid.
    flood: Option<(Seat, u16)>,
    /// The flood has stopped placing (a player reached the bid).
    flood_out: bool,
    /// The bidding, in order: `Some(bid)` or `None` for a pass.
    bids: Vec<(Seat, Option<u16>)>,
    /// Who opens the bidding (three players).
    opener: Seat,
    /// Three players: which of the two non-flood seats (0 the next clockwise from the flood)
    /// starts, drawn from the seed at setup.
    start_pick: usize,
    starter: Seat,
    phase: Phase,
    placed_by: Vec<Seat>,
    end: Option<End>,
    results: Vec<RoundResult>,
    incidents: Incidents,
    /// Records played, against the bound (docs/rules/tayu.md, "Length").
    length: crate::game::Length,
}

/// An unchecked position, for tests and tools: build one by hand, then [`Tayu::from_setup`]
/// checks that it is a position the pieces and the rules allow.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    pub seats: usize,
    /// The pieces on the board in placing order, each with the seat that placed it.
    pub placed: Vec<(Seat, Placement)>,
    /// The stack: 16 columns, column 0 first, each bottom first (at most 7 pieces each).
    /// Pieces not on the board, in the stack, held or set aside are out of the game.
    pub stack: Vec<Vec<Pattern>>,
    /// The pieces in front of each seat (empty: none anywhere).
    pub held: Vec<Vec<Pattern>>,
    pub set_aside: Vec<Pattern>,
    pub turn: Seat,
    /// Whether `turn` has drawn and now places (else it is to draw).
    pub placing: bool,
    /// Who started the game.
    pub starter: Seat,
    /// Three players: the flood and its bid.
    pub flood: Option<(Seat, u16)>,
    /// Three players: the seat playing North-South (the other non-flood seat plays East-West).
    pub north_south: Seat,
    /// Put the pieces down without the placement rules (only inside the board and not
    /// overlapping), for hand-built scoring and end-of-game positions.
    pub free_board: bool,
}

fn seat_coasts(seats: usize) -> Vec<Option<Side>> {
    (0..seats).map(|s| Some(if s % 2 == 0 { Side::NorthSouth } else { Side::EastWest })).collect()
}

impl Tayu {
    fn empty(rules: Rules, seats: usize) -> Result<Tayu, SetupError> {
        if !(2..=4).contains(&seats) {
            return Err(SetupError(format!("Ta Yü is played by 2, 3 or 4 players, not {seats}")));
        }
        if rules.face_up && seats != 2 {
            return Err(SetupError(format!("the face-up variant is for 2 players, not {seats}")));
        }
        let spec = board_spec().map_err(|e| SetupError(e.to_string()))?;
        pieces().map_err(|e| SetupError(e.to_string()))?;
        Ok(Tayu {
            rules,
            seats,
            board: Board::new(spec.clone()),
            stack: vec![Vec::new(); usize::from(STACK_COLUMNS)],
            set_aside: Vec::new(),
            held: vec![Vec::new(); seats],
            coasts: if seats == 3 { vec![None; 3] } else { seat_coasts(seats) },
            flood: None,
            flood_out: false,
            bids: Vec::new(),
            opener: 0,
            start_pick: 0,
            starter: 0,
            phase: Phase::Over,
            placed_by: Vec::new(),
            end: None,
            results: Vec::new(),
            incidents: Incidents::default(),
            length: Default::default(),
        })
    }

    /// A validated position from a [`Setup`]: no pattern more often than its copies, the
    /// pieces on the board placed legally in order, 16 stack columns of at most 7, the right
    /// number of held pieces, and for three players a flood with a bid.
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<Tayu, SetupError> {
        let mut g = Tayu::empty(rules, setup.seats)?;
        let n = setup.seats;
        let bad = |m: String| Err(SetupError(m));
        if usize::from(setup.turn) >= n || usize::from(setup.starter) >= n {
            return bad(format!("seats are 0 to {}", n - 1));
        }
        if setup.stack.len() != usize::from(STACK_COLUMNS)
            || setup.stack.iter().any(|c| c.len() > usize::from(COLUMN_HEIGHT))
        {
            return bad(format!("the stack has {STACK_COLUMNS} columns of at most {COLUMN_HEIGHT} pieces"));
        }
        let held = if setup.held.is_empty() { vec![Vec::new(); n] } else { setup.held };
        if held.len() != n {
            return bad("one list of held pieces per seat".into());
        }
        for (s, h) in held.iter().enumerate() {
            let want = usize::from(g.rules.face_up) + usize::from(setup.placing && s == usize::from(setup.turn));
            if h.len() != want {
                return bad(format!("seat {s} should hold {want} pieces, not {}", h.len()));
            }
        }
        // No pattern more often than it has copies.
        let mut all: Vec<Pattern> = setup.placed.iter().map(|(_, p)| p.piece).collect();
        all.extend(setup.stack.iter().flatten());
        all.extend(held.iter().flatten());
        all.extend(&setup.set_aside);
        for &(p, copies) in pieces().map_err(|e| SetupError(e.to_string()))? {
            let k = all.iter().filter(|&&q| q == p).count();
            if k > usize::from(copies) {
                return bad(format!("pattern {p} appears {k} times; there are {copies}"));
            }
        }
        for (s, p) in &setup.placed {
            if usize::from(*s) >= n {
                return bad(format!("piece {p} placed by seat {s}, who is not at the table"));
            }
            let placed = if setup.free_board { g.board.put(*p) } else { g.board.place(*p) };
            placed.map_err(|e| SetupError(format!("piece {p} cannot be placed: {e}")))?;
            g.placed_by.push(*s);
        }
        if n == 3 {
            let Some((f, bid)) = setup.flood else {
                return bad("three players need a flood and its bid".into());
            };
            if f >= 3 || setup.north_south >= 3 || f == setup.north_south || bid == 0 || bid > MAX_BID {
                return bad("the flood and the North-South seat must be two different seats, the bid 1 to 484".into());
            }
            g.flood = Some((f, bid));
            g.coasts[usize::from(setup.north_south)] = Some(Side::NorthSouth);
            g.coasts[usize::from(3 - f - setup.north_south)] = Some(Side::EastWest);
            g.update_flood();
            if g.flood_out && setup.turn == f {
                return bad("the flood is to act, but a player has already reached the bid".into());
            }
        } else if setup.flood.is_some() {
            return bad("only a three-player game has a flood".into());
        }
        g.stack = setup.stack;
        g.held = held;
        g.set_aside = setup.set_aside;
        g.starter = setup.starter;
        g.phase = if setup.placing { Phase::Place { turn: setup.turn } } else { Phase::Draw { turn: setup.turn } };
        if !setup.placing && g.stack_empty() {
            return bad("the seat is to draw, but the stack is empty".into());
        }
        Ok(g)
    }

    pub fn rules_in_force(&self) -> &Rules {
        &self.rules
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The seat that placed each piece, in placing order.
    pub fn placed_by(&self) -> &[Seat] {
        &self.placed_by
    }

    /// The pieces in front of a seat.
    pub fn held(&self, seat: Seat) -> &[Pattern] {
        self.held.get(usize::from(seat)).map_or(&[], |v| v.as_slice())
    }

    pub fn set_aside(&self) -> &[Pattern] {
        &self.set_aside
    }

    /// The coasts a seat scores (none for the flood or before the bidding is over).
    pub fn side(&self, seat: Seat) -> Option<Side> {
        self.coasts.get(usize::from(seat)).copied().flatten()
    }

    /// Three players: the flood and its bid, once the bidding is over.
    pub fn flood(&self) -> Option<(Seat, u16)> {
        self.flood
    }

    /// Whether the flood has stopped placing.
    pub fn flood_out(&self) -> bool {
        self.flood_out
    }

    /// The bidding so far: each seat's bid, or `None` for a pass.
    pub fn bids(&self) -> &[(Seat, Option<u16>)] {
        &self.bids
    }

    /// The lowest bid so far, during the bidding.
    pub fn lowest_bid(&self) -> Option<(Seat, u16)> {
        match self.phase {
            Phase::Bidding { low, .. } => low,
            _ => self.flood,
        }
    }

    pub fn starter(&self) -> Seat {
        self.starter
    }

    pub fn end(&self) -> Option<&End> {
        self.end.as_ref()
    }

    /// How many pieces each stack column holds.
    pub fn column_heights(&self) -> Vec<usize> {
        self.stack.iter().map(Vec::len).collect()
    }

    /// Whether a column's top piece shows the engraved circles (public). `None` if empty.
    pub fn column_marked(&self, column: usize) -> Option<bool> {
        self.stack.get(column).and_then(|c| c.last()).map(|p| p.marked())
    }

    /// The columns a player may draw from: the two nearest non-empty ones.
    pub fn drawable(&self) -> Vec<u8> {
        self.stack.iter().enumerate().filter(|(_, c)| !c.is_empty()).map(|(i, _)| i as u8).take(2).collect()
    }

    fn stack_empty(&self) -> bool {
        self.stack.iter().all(Vec::is_empty)
    }

    /// The seat to act, if any.
    pub fn turn(&self) -> Option<Seat> {
        match self.phase {
            Phase::Bidding { turn, .. }
            | Phase::Choosing { turn }
            | Phase::Opening { turn, .. }
            | Phase::Draw { turn }
            | Phase::Place { turn } => Some(turn),
            Phase::Over => None,
        }
    }

    /// Whether the seat to act is placing a piece (else drawing, bidding or choosing).
    pub fn placing(&self) -> bool {
        matches!(self.phase, Phase::Place { .. })
    }

    /// Each coast's points now (by `Dir::index`).
    pub fn coast_points(&self) -> [u32; 4] {
        self.board.coast_points()
    }

    /// The score of a side now: the product of its two coasts.
    pub(crate) fn side_score(&self, side: Side) -> i64 {
        side.product(&self.board.coast_points())
    }

    fn update_flood(&mut self) {
        if let Some((_, bid)) = self.flood {
            let pts = self.board.coast_points();
            if [Side::NorthSouth, Side::EastWest].iter().any(|s| s.product(&pts) >= i64::from(bid)) {
                self.flood_out = true;
            }
        }
    }

    /// The next seat clockwise that places pieces.
    fn next_player(&self, seat: Seat) -> Seat {
        let n = self.seats as u8;
        (1..=n)
            .map(|i| (seat + i) % n)
            .find(|&s| !(self.flood_out && self.flood.is_some_and(|(f, _)| f == s)))
            .unwrap_or(seat)
    }

    /// Whether the flood won: the game is over and both players stayed below the bid.
    pub(crate) fn flood_won(&self) -> bool {
        match self.flood {
            Some((_, bid)) if self.phase == Phase::Over => {
                [Side::NorthSouth, Side::EastWest].iter().all(|&s| self.side_score(s) < i64::from(bid))
            }
            _ => false,
        }
    }

    /// The seats that won, and whether it is a tie between sides (then all of them share the
    /// top score). Empty before the end.
    pub fn winners(&self) -> (Vec<Seat>, bool) {
        if self.phase != Phase::Over {
            return (Vec::new(), false);
        }
        let scores = self.scores();
        let top = scores.iter().copied().max().unwrap_or(0);
        let at_top: Vec<Seat> = (0..self.seats as u8).filter(|&s| scores[usize::from(s)] == top).collect();
        let mut parties: Vec<Option<Side>> = Vec::new();
        for &s in &at_top {
            if !parties.contains(&self.side(s)) {
                parties.push(self.side(s));
            }
        }
        (at_top, parties.len() > 1)
    }

    fn finish_bidding(&mut self, flood: (Seat, u16)) {
        self.flood = Some(flood);
        let f = flood.0;
        let candidates = [(f + 1) % 3, (f + 2) % 3];
        self.starter = candidates[self.start_pick % 2];
        self.phase = Phase::Choosing { turn: self.starter };
    }

    fn finish(&mut self, end: End) {
        self.phase = Phase::Over;
        self.end = Some(end);
        let scores = self.scores();
        let pts = self.board.coast_points();
        let mouths = self.board.mouths();
        let (winners, tie) = self.winners();
        let mut facts = Vec::new();
        for s in 0..self.seats as u8 {
            let i = usize::from(s);
            facts.push(Fact::seat(s, FactKind::Score, scores[i]));
            if let Some(side) = self.side(s) {
                let coasts = side.coasts();
                let m = mouths.iter().filter(|m| coasts.contains(&m.coast)).count();
                let p: u32 = coasts.iter().map(|c| pts[c.index()]).sum();
                facts.push(Fact::seat(s, FactKind::Mouths, m as i64));
                facts.push(Fact::seat(s, FactKind::CoastPoints, i64::from(p)));
                if coasts.iter().any(|c| pts[c.index()] == 0) {
                    facts.push(Fact::seat(s, FactKind::ZeroCoast, 1));
                }
            }
            facts.push(Fact::seat(s, FactKind::Placed, self.placed_by.iter().filter(|&&x| x == s).count() as i64));
            if winners.contains(&s) {
                facts.push(Fact::seat(s, if tie { FactKind::Tie } else { FactKind::Win }, 1));
            }
            if let Some((f, bid)) = self.flood {
                if f == s {
                    facts.push(Fact::seat(s, FactKind::Flood, 1));
                    facts.push(Fact::seat(s, FactKind::Bid, i64::from(bid)));
                }
            }
        }
        facts.push(Fact::table(FactKind::PiecesPlaced, self.board.pieces().len() as i64));
        facts.push(Fact::table(FactKind::SetAside, self.set_aside.len() as i64));
        facts.push(Fact::table(FactKind::Mouths, mouths.len() as i64));
        facts.push(Fact::table(FactKind::SpecialMouths, mouths.iter().filter(|m| m.value == 2).count() as i64));
        facts.push(Fact::table(FactKind::StackLeft, self.stack.iter().map(Vec::len).sum::<usize>() as i64));
        let how = match &self.end {
            Some(End::NoPlacement { seat, pieces }) => {
                facts.push(Fact::table(FactKind::EndNoPlacement, 1));
                let p: Vec<String> = pieces.iter().map(|p| p.to_string()).collect();
                format!("seat {seat} drew a piece that cannot be placed ({})", p.join(", "))
            }
            _ => {
                facts.push(Fact::table(FactKind::EndStackEmpty, 1));
                "the stack is empty".to_owned()
            }
        };
        let coasts = Dir::ALL.map(|d| format!("{} {}", d.coast_name(), pts[d.index()])).join(", ");
        let top = scores.iter().max().copied().unwrap_or(0);
        let names = winners.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" and ");
        let who = if tie {
            format!("a tie between seats {names} with {top}")
        } else if let (Some((f, bid)), true) = (self.flood, self.flood_won()) {
            format!("the flood, seat {f}, wins: both players stayed below its bid of {bid}")
        } else if winners.len() > 1 {
            format!("seats {names} win with {top}")
        } else {
            format!("seat {names} wins with {top}")
        };
        let summary = format!("{how}; coasts {coasts}; {who}");
        self.results.push(RoundResult { round: 1, deltas: scores, summary, facts });
    }

    fn describe_phase(&self) -> String {
        match self.phase {
            Phase::Bidding { turn, low, .. } => match low {
                None => format!("seat {turn} opens the bidding"),
                Some((s, b)) => format!("seat {turn} to bid below {b} (seat {s}) or pass"),
            },
            Phase::Choosing { turn } => format!("seat {turn} starts and chooses North-South or East-West"),
            Phase::Opening { turn, .. } => format!("seat {turn} draws its face-up piece"),
            Phase::Draw { turn } => format!("seat {turn} to draw from column {}", seat_list(&self.drawable())),
            Phase::Place { turn } => {
                let h: Vec<String> = self.held(turn).iter().map(|p| p.to_string()).collect();
                format!("seat {turn} to place {}", h.join(" or "))
            }
            Phase::Over => match &self.end {
                Some(End::NoPlacement { seat, pieces }) => {
                    let p: Vec<String> = pieces.iter().map(|p| p.to_string()).collect();
                    format!("game over: seat {seat}'s {} cannot be placed", p.join(" and "))
                }
                _ => "game over: the stack is empty".to_owned(),
            },
        }
    }

    fn wrong_phase(&self, seat: Seat, action: &Action) -> Violation {
        Violation::illegal(format!("seat {seat} plays {action}, but now {}", self.describe_phase()))
    }
}

fn seat_list<T: fmt::Display>(v: &[T]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" or ")
}

impl Tayu {
    /// Four players: a player who talked about the moves with its partner may be recorded
    /// (`incident talk`) while it holds the piece it drew and owes its placement.
    fn check_talk(&self, seat: Seat) -> Result<(), Violation> {
        if self.seats != 4 {
            return Err(Violation::illegal(format!(
                "talk is a rule of the four-player game (two teams); this game has {} players",
                self.seats
            )));
        }
        match self.phase {
            Phase::Place { turn } if turn == seat && !self.held[usize::from(seat)].is_empty() => Ok(()),
            _ => Err(Violation::illegal(format!(
                "talk is recorded while the player who talked holds its drawn piece, before placing it; seat {seat} owes no placement now"
            ))),
        }
    }

    /// The talk rule (seed 002, line 113): the player loses its turn and hands the piece it drew
    /// to the next player, of the other team, who places it as on a normal turn; that placement
    /// is the receiver's turn, and the player after it draws next.
    fn talk(&mut self, seat: Seat) {
        let next = self.next_player(seat);
        if let Some(piece) = self.held.get_mut(usize::from(seat)).and_then(Vec::pop) {
            if let Some(h) = self.held.get_mut(usize::from(next)) {
                h.push(piece);
            }
        }
        self.phase = Phase::Place { turn: next };
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Action> {
        if self.turn() != Some(seat) {
            return Vec::new();
        }
        match self.phase {
            Phase::Bidding { low, .. } => {
                let top = low.map_or(MAX_BID, |(_, b)| b.saturating_sub(1));
                let mut out: Vec<Action> = (1..=top).map(Action::Bid).collect();
                if low.is_some() {
                    out.push(Action::Pass);
                }
                out
            }
            Phase::Choosing { .. } => vec![Action::Choose(Side::NorthSouth), Action::Choose(Side::EastWest)],
            Phase::Opening { .. } | Phase::Draw { .. } => self.drawable().into_iter().map(Action::Draw).collect(),
            Phase::Place { turn } => {
                let mut pats = self.held(turn).to_vec();
                pats.sort();
                pats.dedup();
                pats.into_iter().flat_map(|p| self.board.legal_placements(p)).map(Action::Place).collect()
            }
            Phase::Over => Vec::new(),
        }
    }

    fn check_move(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        match self.turn() {
            None => return Err(Violation::new(ErrorCode::NotYourTurn, "the game is over")),
            Some(t) if t != seat => {
                return Err(Violation::new(
                    ErrorCode::NotYourTurn,
                    format!("seat {seat} acted, but it is seat {t}'s turn"),
                ))
            }
            Some(_) => {}
        }
        match (self.phase, action) {
            (Phase::Bidding { low, .. }, Action::Bid(b)) => {
                if *b == 0 || *b > MAX_BID {
                    return Err(Violation::illegal(format!("seat {seat} bids {b}; a bid is 1 to {MAX_BID}")));
                }
                match low {
                    Some((s, l)) if *b >= l => Err(Violation::illegal(format!(
                        "seat {seat} bids {b}, but seat {s} has already bid {l}; bid lower or pass"
                    ))),
                    _ => Ok(()),
                }
            }
            (Phase::Bidding { low: None, .. }, Action::Pass) => {
                Err(Violation::illegal(format!("seat {seat} opens the bidding and must bid; it cannot pass")))
            }
            (Phase::Bidding { .. }, Action::Pass) => Ok(()),
            (Phase::Choosing { .. }, Action::Choose(_)) => Ok(()),
            (Phase::Opening { .. } | Phase::Draw { .. }, Action::Draw(c)) => {
                let d = self.drawable();
                if d.contains(c) {
                    Ok(())
                } else {
                    Err(Violation::illegal(format!(
                        "seat {seat} draws from column {c}; only the nearest non-empty columns, {}, may be drawn from",
                        d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" and ")
                    )))
                }
            }
            (Phase::Place { turn }, Action::Place(p)) => {
                if !self.held(turn).contains(&p.piece) {
                    let h: Vec<String> = self.held(turn).iter().map(|p| p.to_string()).collect();
                    return Err(Violation::illegal(format!(
                        "seat {seat} places pattern {}, but holds {}",
                        p.piece,
                        h.join(" and ")
                    )));
                }
                self.board.check(p).map_err(|e| Violation::illegal(format!("seat {seat} cannot place {p}: {e}")))
            }
            (_, a) => Err(self.wrong_phase(seat, a)),
        }
    }

    fn apply_move(&mut self, seat: Seat, action: &Action) {
        let s = usize::from(seat);
        match (self.phase, action) {
            (Phase::Bidding { low, mut passed, .. }, a) => {
                let low = match a {
                    Action::Bid(b) => {
                        self.bids.push((seat, Some(*b)));
                        Some((seat, *b))
                    }
                    _ => {
                        self.bids.push((seat, None));
                        passed.insert(seat);
                        low
                    }
                };
                let active: Vec<Seat> = (0..3u8).filter(|&x| !passed.contains(x)).collect();
                match low {
                    Some(l) if active == [l.0] => self.finish_bidding(l),
                    _ => {
                        let next = (1..=3u8).map(|i| (seat + i) % 3).find(|&x| !passed.contains(x)).unwrap_or(seat);
                        self.phase = Phase::Bidding { turn: next, low, passed };
                    }
                }
            }
            (Phase::Choosing { turn }, Action::Choose(side)) => {
                if let Some((f, _)) = self.flood {
                    for x in 0..3u8 {
                        if x != f {
                            if let Some(c) = self.coasts.get_mut(usize::from(x)) {
                                *c = Some(if x == turn { *side } else { side.other() });
                            }
                        }
                    }
                }
                self.phase = Phase::Draw { turn };
            }
            (Phase::Opening { turn, left }, Action::Draw(c)) => {
                if let Some(p) = self.stack.get_mut(usize::from(*c)).and_then(Vec::pop) {
                    self.held[s].push(p);
                }
                self.phase = if left <= 1 {
                    Phase::Draw { turn: self.starter }
                } else {
                    Phase::Opening { turn: self.next_player(turn), left: left - 1 }
                };
            }
            (Phase::Draw { turn }, Action::Draw(c)) => {
                if let Some(p) = self.stack.get_mut(usize::from(*c)).and_then(Vec::pop) {
                    self.held[s].push(p);
                }
                self.phase = Phase::Place { turn };
                if !self.held[s].iter().any(|&p| self.board.can_place(p)) {
                    if self.rules.set_aside && self.board.mouths().is_empty() {
                        if let Some(p) = self.held[s].pop() {
                            self.set_aside.push(p);
                        }
                        self.phase = Phase::Draw { turn };
                        if self.stack_empty() {
                            self.finish(End::StackEmpty);
                        }
                    } else {
                        let pieces = self.held[s].clone();
                        self.finish(End::NoPlacement { seat, pieces });
                    }
                }
            }
            (Phase::Place { turn }, Action::Place(p)) => {
                if let Some(i) = self.held[s].iter().position(|&q| q == p.piece) {
                    self.held[s].remove(i);
                }
                let _ = self.board.put(*p);
                self.placed_by.push(seat);
                self.update_flood();
                if self.stack_empty() {
                    self.finish(End::StackEmpty);
                } else {
                    self.phase = Phase::Draw { turn: self.next_player(turn) };
                }
            }
            _ => {}
        }
    }
}

/// The safe action among the legal ones: a pass when there is one, else the first.
fn safe_among(legal: &[Action]) -> Option<Action> {
    legal.iter().find(|a| **a == Action::Pass).or(legal.first()).cloned()
}

impl Game for Tayu {
    type Action = Action;
    type Rules = Rules;
    type View = View;
    type Fact = FactKind;
    const KIND: GameKind = GameKind::Tayu;
    const SEATS: std::ops::RangeInclusive<usize> = 2..=4;
    const MAX_RECORDS: u32 = 10_000;

    fn rules(ruleset: &str, options: &Options) -> Result<Rules, SetupError> {
        let mut r = Rules::named(ruleset)
            .ok_or_else(|| SetupError(format!("unknown tayu ruleset {ruleset:?}; known: {}", RULESETS.join(", "))))?;
        for (k, v) in options {
            match k.as_str() {
                "face_up" => r.face_up = v.as_bool(GameKind::Tayu, k)?,
                "set_aside" => r.set_aside = v.as_bool(GameKind::Tayu, k)?,
                other => {
                    return Err(SetupError(format!("unknown tayu option {other:?}; known: face_up, set_aside")));
                }
            }
        }
        Ok(r)
    }

    fn options(rules: &Rules) -> Options {
        let mut o = Options::new();
        o.insert("face_up".into(), OptValue::Bool(rules.face_up));
        o.insert("set_aside".into(), OptValue::Bool(rules.set_aside));
        o
    }

    fn new(rules: Rules, seats: usize, seed: Option<&Seed>) -> Result<Tayu, SetupError> {
        let Some(seed) = seed else {
            return Err(SetupError("Ta Yü logs are replayed from their seed; this one has none".into()));
        };
        let mut g = Tayu::empty(rules, seats)?;
        let mut all = bag().map_err(|e| SetupError(e.to_string()))?;
        seed.stream("tayu/stack").shuffle(&mut all);
        g.stack = all.chunks(usize::from(COLUMN_HEIGHT)).map(<[Pattern]>::to_vec).collect();
        if seats == 3 {
            g.opener = seed.stream("tayu/bidding").below(3) as Seat;
            g.start_pick = seed.stream("tayu/start").below(2) as usize;
            g.phase = Phase::Bidding { turn: g.opener, low: None, passed: SeatSet::EMPTY };
        } else {
            g.starter = seed.stream("tayu/start").below(seats as u64) as Seat;
            g.phase = if g.rules.face_up {
                Phase::Opening { turn: g.starter, left: seats as u8 }
            } else {
                Phase::Draw { turn: g.starter }
            };
        }
        Ok(g)
    }

    fn seat_count(&self) -> usize {
        self.seats
    }

    fn to_act(&self) -> SeatSet {
        self.turn().map_or(SeatSet::EMPTY, SeatSet::single)
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.incidents.narrow(seat, self.legal_moves(seat), safe_among)
    }

    /// A pass in the bidding (bid 1 for the seat that opens it and may not pass), else the
    /// first legal action: `choose ns`, the first column that may be drawn, the first legal
    /// placement (patterns in order, then squares and sides as the board lists them). A piece
    /// that must be set aside is set aside by the draw itself.
    fn safe_action(&self, seat: Seat) -> Option<Action> {
        safe_among(&self.legal_moves(seat))
    }

    fn check(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        if self.incidents.screen("tayu", seat, action.incident(), action, || self.safe_action(seat))? {
            return match action.incident() {
                Some(i) if i.kind == IncidentKind::Talk => self.check_talk(seat),
                _ => Ok(()),
            };
        }
        self.check_move(seat, action)
    }

    fn apply(&mut self, seat: Seat, action: &Action) {
        let before = self.results.len();
        match action {
            Action::Incident(i) => {
                self.incidents.record(seat, i);
                if i.kind == IncidentKind::Talk {
                    self.talk(seat);
                }
            }
            _ => {
                self.incidents.acted(seat);
                self.apply_move(seat, action);
            }
        }
        close_round(&mut self.results, before, &mut self.incidents, FactKind::Incident);
        if self.length.count(Self::MAX_RECORDS) && !self.is_over() {
            self.phase = Phase::Over;
        }
    }

    /// By score; a seat that forfeited after every other.
    fn placements(&self) -> Vec<u32> {
        self.incidents.places(placements_by_score(&self.scores()))
    }

    fn round(&self) -> u32 {
        1
    }

    fn results(&self) -> &[RoundResult] {
        &self.results
    }

    fn into_results(self) -> Vec<RoundResult> {
        self.results
    }

    /// Two players: each its product; four: each seat its team's product; three: each player
    /// its product, and the flood its bid if it won, else 0 (so the highest score wins).
    fn scores(&self) -> Vec<i64> {
        let pts = self.board.coast_points();
        let won = self.flood_won();
        (0..self.seats)
            .map(|s| match self.coasts.get(s).copied().flatten() {
                Some(side) => side.product(&pts),
                None => match self.flood {
                    Some((f, bid)) if usize::from(f) == s && won => i64::from(bid),
                    _ => 0,
                },
            })
            .collect()
    }

    fn render(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(o, "Ta Yü, {} players: {}", self.seats, self.describe_phase());
        let pts = self.board.coast_points();
        let scores = self.scores();
        let _ = writeln!(o, "Coasts: North {}, East {}, South {}, West {}", pts[0], pts[1], pts[2], pts[3]);
        for s in 0..self.seats {
            let role = match (self.coasts.get(s).copied().flatten(), self.flood) {
                (Some(Side::NorthSouth), _) => format!("North-South {} x {}", pts[0], pts[2]),
                (Some(Side::EastWest), _) => format!("East-West {} x {}", pts[1], pts[3]),
                (None, Some((f, bid))) if usize::from(f) == s => {
                    format!("the flood, bid {bid}{}", if self.flood_out { ", stopped placing" } else { "" })
                }
                _ => "no coasts yet".to_owned(),
            };
            let held: Vec<String> = self.held.get(s).into_iter().flatten().map(|p| p.to_string()).collect();
            let _ = write!(o, "Seat {s}: {role} = {}", scores.get(s).copied().unwrap_or(0));
            if !held.is_empty() {
                let _ = write!(o, "; holds {}", held.join(" "));
            }
            o.push('\n');
        }
        if !self.bids.is_empty() {
            let b: Vec<String> = self
                .bids
                .iter()
                .map(|(s, b)| match b {
                    Some(b) => format!("{s}:{b}"),
                    None => format!("{s}:pass"),
                })
                .collect();
            let _ = writeln!(o, "Bidding: {}", b.join(" "));
        }
        let cols: Vec<String> = self
            .stack
            .iter()
            .enumerate()
            .map(|(i, c)| match c.last() {
                None => format!("{i}:-"),
                Some(p) => format!("{i}:{}{}", c.len(), if p.marked() { "@" } else { "" }),
            })
            .collect();
        let _ = writeln!(o, "Stack (column:height, @ = circles on top): {}", cols.join(" "));
        if !self.set_aside.is_empty() {
            let a: Vec<String> = self.set_aside.iter().map(|p| p.to_string()).collect();
            let _ = writeln!(o, "Set aside: {}", a.join(" "));
        }
        let _ = writeln!(
            o,
            "Pieces placed: {}; open channel ends: {}",
            self.board.pieces().len(),
            self.board.open_ends().len()
        );
        o.push_str(&self.board.draw());
        o
    }

    fn view(&self) -> View {
        self.make_view()
    }

    fn seat_view(&self, seat: Seat) -> View {
        self.make_seat_view(seat)
    }
}

#[cfg(test)]
mod tests;
