//! The riichi match, by concern:
//!
//! - `mod.rs`: the [`Riichi`] struct, the hand's [`Table`], the [`Phase`] of play, and the
//!   dispatch of checks, legal actions and their effects by phase.
//! - `player.rs`: a seat: its concealed tiles and their counts, melds, river, flags, waits.
//! - `wall.rs`: the tile set, the seeded wall, the dice and the deal, the dead wall's dora
//!   indicators and replacement tiles.
//! - `turn.rs`: the seat on turn: discards, riichi, kans, tsumo.
//! - `claims.rs`: claim windows: what each seat may claim, the chi and pon checks and swap-call
//!   bans, which claims stand, calls.
//! - `furiten.rs`: furiten (own discards, a passed winning tile, a passed one in riichi).
//! - `round_end.rs`: wins and their payments (with liability), exhaustive draws (tenpai
//!   payments, nagashi mangan), the round's result.
//! - `abortive.rs`: the abortive draws (nine terminals, four winds, four riichi, four kans,
//!   triple ron).
//! - `match_end.rs`: what follows a round (the next hand or the end), ranking, uma and oka.
//! - `imported.rs`: imported games, whose deals, draws and indicators are records checked for
//!   possibility.
//!
//! What a viewer sees (`render`, `view`) is in `riichi/view.rs`; hand-built positions in
//! `riichi/setup.rs`.

mod abortive;
mod chombo;
mod claims;
mod furiten;
mod imported;
mod match_end;
mod player;
mod round_end;
mod turn;
mod wall;

pub(crate) use claims::ClaimOn;
pub(crate) use imported::Imported;
pub(crate) use player::Player;
pub use player::River;
pub(crate) use wall::WALL_END;

use super::action::Action;
use super::rules::Rules;
use super::score::Score;
use crate::error::Violation;
use crate::mahjong::claim;
use crate::mahjong::{Tile, Wall};
use crate::random::Seed;
use crate::{RoundResult, Seat, SeatSet, SetupError};

pub(crate) use super::rules::WINDS;

#[derive(Clone, Debug)]
pub(crate) enum Phase {
    /// `seat` holds 14 tiles (counting kans as 3) and must act: `drawn` is the tile just drawn
    /// (none after a chi or pon), `rinshan` when it came from the dead wall.
    Turn {
        seat: Seat,
        drawn: Option<Tile>,
        rinshan: bool,
        kuikae: u64,
    },
    /// Seats may claim `tile`, discarded (or added to a kan) by the window's seat.
    Claims {
        tile: Tile,
        on: ClaimOn,
        window: claim::Window<Action>,
    },
    /// Imported games: `seat` records its 13 starting tiles (the dealer first, then in turn).
    Deal {
        seat: Seat,
    },
    /// Imported games: `seat` records the tile it draws (from the dead wall when `rinshan`); it
    /// may first record dora and ura indicators.
    Draw {
        seat: Seat,
        rinshan: bool,
    },
    Over,
}

/// A whole riichi match.
#[derive(Clone, Debug)]
pub struct Riichi {
    pub(crate) rules: Rules,
    /// `None`: an imported game.
    pub(crate) seed: Option<Seed>,
    pub(crate) scores: [i64; 4],
    pub(crate) results: Vec<RoundResult>,
    /// 0 East, 1 South, ...
    pub(crate) round_wind: u8,
    /// 0-3: the dealer is seat `kyoku` (seat 0 is the first dealer).
    pub(crate) kyoku: u8,
    pub(crate) honba: u32,
    pub(crate) sticks: u32,
    /// The wins of the last round that ended in wins, with their scores.
    pub(crate) last_wins: Vec<(Seat, Score)>,
    pub(crate) players: [Player; 4],
    pub(crate) table: Table,
    pub(crate) phase: Phase,
    pub(crate) imported: Imported,
    /// The last hand played to its end (round wind, kyoku, honba), for an excerpt's verdict.
    pub(crate) last_hand: Option<(u8, u8, u32)>,
    /// How the last hand that ended ended, for the view (shared: a clone of the match is cheap).
    pub(crate) last_end: Option<std::sync::Arc<crate::riichi::HandEnd>>,
    /// Forfeits, host incidents owed a safe action, the hand's incidents (core/src/incident.rs).
    pub(crate) incidents: crate::incident::Incidents,
    /// Records played, against the bound (docs/rules/riichi.md, "Length").
    pub(crate) length: crate::game::Length,
    /// Chombos so far in the match: each deal after the n-th is drawn from streams labelled
    /// with `/chombo/n` (none before the first, so games without one deal as they always did).
    pub(crate) chombos: u32,
}

/// The hand being played, besides its seats: the wall and its indicators, and the counters the
/// rules read.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    /// The live wall in draw order, and the dead wall: counted from the wall's end, d0-d3 the
    /// replacement tiles, d4/d6/d8/d10/d12 the dora indicators, d5/d7/... the ura indicators.
    pub(crate) wall: Wall<Tile>,
    pub(crate) dice: (u8, u8),
    /// Dora indicators shown (1 + kan dora shown).
    pub(crate) dora_shown: usize,
    /// Kan dora earned by an open or added kan, shown after the next discard.
    pub(crate) dora_pending: usize,
    pub(crate) kans: u8,
    /// Any call (chi, pon, kan) this hand: ends the first go-around.
    pub(crate) any_call: bool,
    pub(crate) discards_made: u32,
    /// Each seat's score changes this hand.
    pub(crate) deltas: [i64; 4],
}

impl Table {
    /// A table before the first hand.
    fn new() -> Table {
        Table {
            wall: Wall::new(WALL_END),
            dice: (1, 1),
            dora_shown: 1,
            dora_pending: 0,
            kans: 0,
            any_call: false,
            discards_made: 0,
            deltas: [0; 4],
        }
    }
}

impl Riichi {
    /// A new match. Without a seed, an imported game: the deals, draws and indicators are records.
    /// An excerpt (`rules.excerpt`) starts at the hand, with the counters and scores, it states;
    /// only an imported game can be one (a seed deals whole games).
    pub(crate) fn new_game(rules: Rules, seed: Option<&Seed>) -> Result<Riichi, SetupError> {
        let start = rules.excerpt.clone().unwrap_or_default();
        if seed.is_some() && rules.excerpt.is_some() {
            return Err(SetupError(
                "an excerpt (option excerpt) is read from an imported record; a seeded game is dealt whole from East 1"
                    .into(),
            ));
        }
        let mut g = Riichi {
            scores: start.scores.unwrap_or([rules.start_points; 4]),
            rules,
            seed: seed.copied(),
            results: Vec::new(),
            round_wind: start.round_wind & 3,
            kyoku: start.kyoku & 3,
            honba: start.honba,
            sticks: start.sticks,
            last_wins: Vec::new(),
            players: Default::default(),
            table: Table::new(),
            phase: Phase::Over,
            imported: Imported::default(),
            last_hand: None,
            last_end: None,
            incidents: Default::default(),
            length: Default::default(),
            chombos: 0,
        };
        g.start_round();
        Ok(g)
    }

    /// The label of the current hand in stream names: `E1`, `S4`, `W2`...
    pub(crate) fn hand_label(&self) -> String {
        self.hand_name().to_string()
    }

    /// The rounds an excerpt has covered, once it stands between two hands or is over (see
    /// [`crate::Game::excerpt`]).
    pub(crate) fn excerpt_covered(&self) -> Option<crate::Excerpt> {
        let start = self.rules.excerpt.as_ref()?;
        let between = match self.phase {
            Phase::Over => true,
            Phase::Deal { seat } => seat == self.dealer(),
            _ => false,
        };
        let (w, k, h) = self.last_hand.filter(|_| between)?;
        let name =
            |w: u8, k: u8, h: u32| format!("{} {}-{h}", ["East", "South", "West", "North"][usize::from(w & 3)], k + 1);
        Some(crate::Excerpt { first: name(start.round_wind, start.kyoku, start.honba), last: name(w, k, h) })
    }

    /// The current hand's name, to write without allocating: `E1`, `S4`, `W2`...
    fn hand_name(&self) -> impl std::fmt::Display {
        struct Name(char, u8);
        impl std::fmt::Display for Name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}{}", self.0, self.1)
            }
        }
        Name(WINDS[usize::from(self.round_wind & 3)], self.kyoku + 1)
    }

    #[inline]
    pub fn dealer(&self) -> Seat {
        self.kyoku
    }

    #[inline]
    pub(crate) fn seat_wind(&self, seat: Seat) -> u8 {
        (seat + 4 - self.dealer()) % 4
    }

    /// Whether nobody has called and every discard so far is part of the first go-around.
    #[inline]
    fn first_go(&self) -> bool {
        !self.table.any_call && self.table.discards_made < 4
    }

    /// Whether a game is imported (its chance events are records).
    pub fn is_imported(&self) -> bool {
        self.seed.is_none()
    }

    pub(crate) fn check_action(&self, seat: Seat, action: &Action) -> Result<(), Violation> {
        match &self.phase {
            Phase::Over => Err(Violation::illegal("the match is over")),
            Phase::Deal { .. } | Phase::Draw { .. } => self.check_chance(seat, action),
            Phase::Turn { seat: s, drawn, rinshan, kuikae } => {
                if *s != seat {
                    return Err(Violation::new(crate::ErrorCode::NotYourTurn, format!("it is seat {s}'s turn")));
                }
                self.check_turn(seat, *drawn, *rinshan, *kuikae, action)
            }
            Phase::Claims { tile, window, .. } => self.check_claim(seat, *tile, window, action),
        }
    }

    pub(crate) fn legal(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        match &self.phase {
            Phase::Draw { seat: s, .. } => {
                if *s == seat {
                    self.legal_chances(seat, &mut out);
                }
            }
            Phase::Over | Phase::Deal { .. } => {}
            Phase::Turn { seat: s, drawn, .. } => {
                if *s == seat {
                    self.legal_turn(seat, *drawn, &mut out);
                }
            }
            Phase::Claims { tile, window, .. } => {
                if window.asks(seat) {
                    self.legal_claims(seat, *tile, &mut out);
                }
            }
        }
        out
    }

    /// Adds `a` to `out` when it is new and legal (a refusal writes its reason: callers try only
    /// likely candidates).
    fn push_legal(&self, seat: Seat, a: Action, out: &mut Vec<Action>) {
        if !out.contains(&a) && self.check_action(seat, &a).is_ok() {
            out.push(a);
        }
    }

    pub(crate) fn to_act_set(&self) -> SeatSet {
        match &self.phase {
            Phase::Over => SeatSet::EMPTY,
            Phase::Turn { seat, .. } | Phase::Deal { seat } | Phase::Draw { seat, .. } => SeatSet::single(*seat),
            Phase::Claims { window, .. } => window.waiting(),
        }
    }

    pub(crate) fn apply_action(&mut self, seat: Seat, action: &Action) {
        match &mut self.phase {
            Phase::Over => {}
            Phase::Deal { .. } | Phase::Draw { .. } => self.apply_chance(seat, action),
            &mut Phase::Turn { drawn, rinshan, .. } => self.apply_turn(seat, drawn, rinshan, action),
            Phase::Claims { tile, on, window } => {
                window.answer(seat, action.clone());
                if window.is_closed() {
                    let (tile, on, window) = (*tile, *on, window.clone());
                    self.resolve_claims(tile, on, window);
                }
            }
        }
    }
}
