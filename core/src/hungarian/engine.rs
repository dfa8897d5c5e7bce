//! The Hungarian table: the state of the match and of the hand being played, dealing a hand from
//! the seed, drawing (with flowers laid aside and replaced), and the match's progress. Turns and
//! claims are in `play.rs`, the end of a hand (scoring, settlement) in `end.rs`.
//!
//! Players are indexed by *chair* (0-3, in turn order: the chair to the right of chair c is
//! c + 1) inside the engine, and by the log's seats outside it; the seating maps one to the other
//! for the whole match.

use super::action::Action;
use super::ritual::{self, Break, Seating, WALL_END};
use super::rules::{Length, Rules};
use super::score::Scored;
use super::table::{table, DataError};
use crate::mahjong::claim::Window;
use crate::mahjong::{Counts, Flower, Meld, Piece, Tile, Wall};
use crate::random::Seed;
use crate::{RoundResult, Seat, SetupError};

/// One discard, and whether it was claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Discard {
    pub(super) tile: Tile,
    pub(super) claimed: bool,
}

/// One player's part of the hand.
#[derive(Clone, Debug)]
pub(super) struct Player {
    /// The concealed tiles by kind.
    pub(super) hand: Counts,
    pub(super) melds: Vec<Meld>,
    pub(super) flowers: Vec<Flower>,
    pub(super) discards: Vec<Discard>,
}

impl Default for Player {
    fn default() -> Player {
        Player { hand: [0; 34], melds: Vec::new(), flowers: Vec::new(), discards: Vec::new() }
    }
}

/// Who owes what.
#[derive(Clone, Debug)]
pub(super) enum Phase {
    /// A player on turn: it has drawn (`drawn`, from the wall or a loose tile), or holds the
    /// dealt 14 (East, nothing drawn), or has just claimed a chow or pong (`after_claim`: it only
    /// discards).
    Turn {
        chair: u8,
        drawn: Option<Tile>,
        after_claim: bool,
    },
    /// The others may claim `from`'s discard.
    Claims {
        from: u8,
        tile: Tile,
        window: Window<Action>,
    },
    Over,
}

/// The hand being played.
#[derive(Clone, Debug)]
pub(super) struct Hand {
    pub(super) wall: Wall<Piece>,
    pub(super) broken: Break,
    /// By chair.
    pub(super) players: [Player; 4],
    /// Nothing has happened since the deal: East may still win on its dealt hand.
    pub(super) fresh: bool,
}

/// One player's hand at the end, as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Shown {
    pub(super) seat: Seat,
    pub(super) wind: u8,
    pub(super) hand: Vec<Tile>,
    pub(super) melds: Vec<Meld>,
    pub(super) flowers: Vec<Flower>,
    pub(super) scored: Scored,
    pub(super) delta: i64,
}

/// How a hand ended: its number, the winner (none for a void hand), the winning tile and where
/// it came from, and every player's hand with its score and payment, by seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Settled {
    pub(super) hand_no: u32,
    pub(super) winner: Option<Seat>,
    pub(super) tile: Option<Tile>,
    /// The seat whose discard was robbed for the win.
    pub(super) robbed_from: Option<Seat>,
    pub(super) heavenly: bool,
    pub(super) players: Vec<Shown>,
}

/// A Hungarian mahjong match.
#[derive(Clone, Debug)]
pub struct Hungarian {
    pub(super) rules: Rules,
    pub(super) seed: Seed,
    pub(super) seating: Seating,
    /// East's chair now.
    pub(super) east: u8,
    /// How often the deal has passed.
    pub(super) passes: u32,
    /// Hands that ended in a win.
    pub(super) scored: u32,
    /// Hands dealt so far, void ones too: the current hand's number (its streams' label).
    pub(super) hand_no: u32,
    /// By seat.
    pub(super) scores: [i64; 4],
    pub(super) results: Vec<RoundResult>,
    /// The last hand's ending, as the viewer shows it.
    pub(super) last: Option<Box<Settled>>,
    pub(super) hand: Hand,
    pub(super) phase: Phase,
    /// Forfeits, host incidents owed a safe action, the hand's incidents (core/src/incident.rs).
    pub(super) incidents: crate::incident::Incidents,
    /// Records played, against the bound (docs/rules/hungarian.md, "Length").
    pub(super) length: crate::game::Length,
}

fn data(e: DataError) -> SetupError {
    SetupError(format!("the Hungarian scoring table cannot be read: {e}"))
}

impl Hungarian {
    /// A new match from a seed: the players are seated and the first hand is dealt.
    pub(super) fn new_match(rules: Rules, seed: &Seed) -> Result<Hungarian, SetupError> {
        table().map_err(data)?;
        let seating = ritual::seat(seed, rules.seating);
        let mut g = Hungarian {
            rules,
            seed: *seed,
            seating,
            east: seating.east_chair,
            passes: 0,
            scored: 0,
            hand_no: 0,
            scores: [0; 4],
            results: Vec::new(),
            last: None,
            hand: Hand {
                wall: Wall::new(WALL_END),
                broken: Break { dice: [0; 4], wall: 0, stack: 0 },
                players: Default::default(),
                fresh: false,
            },
            phase: Phase::Over,
            incidents: Default::default(),
            length: Default::default(),
        };
        g.deal();
        Ok(g)
    }

    /// The seat at a chair.
    pub(super) fn seat_of(&self, chair: u8) -> Seat {
        self.seating.seat_at[usize::from(chair & 3)]
    }

    /// The chair of a seat (seats 0-3).
    pub(super) fn chair_of(&self, seat: Seat) -> u8 {
        self.seating.seat_at.iter().position(|&s| s == seat).unwrap_or(0) as u8
    }

    /// The wind of a chair this hand: 0 East .. 3 North.
    pub(super) fn wind_of(&self, chair: u8) -> u8 {
        (chair + 4 - self.east) % 4
    }

    /// The prevailing wind: the game of the party (0 the East game .. 3 the North game).
    pub fn prevailing_wind(&self) -> u8 {
        let games = match self.rules.length {
            Length::Sixteen => self.scored / 4,
            Length::Hand => 0,
            Length::Party | Length::Game => self.passes / 4,
        };
        (games % 4) as u8
    }

    /// Deals hand `hand_no + 1`: the wall from its stream, the break by its dice, the deal, the
    /// flowers laid aside and replaced in rounds, East first.
    pub(super) fn deal(&mut self) {
        self.hand_no += 1;
        let n = self.hand_no;
        let ring = ritual::ring(&self.seed, &format!("hungarian/hand/{n}/wall"));
        let broken = Break::throw(&mut self.seed.stream(&format!("hungarian/hand/{n}/dice")), self.rules.break_throws);
        self.start_hand(&ring, broken);
    }

    /// Builds the wall of `ring` broken at `broken`, deals, and replaces the flowers.
    pub(super) fn start_hand(&mut self, ring: &[Piece], broken: Break) {
        let mut wall = Wall::new(WALL_END);
        wall.build(ring, broken.start());
        let dealt = ritual::deal(&mut wall);
        self.hand = Hand { wall, broken, players: Default::default(), fresh: true };
        let mut pending = [0usize; 4];
        for (place, pieces) in dealt.iter().enumerate() {
            let chair = (usize::from(self.east) + place) % 4;
            for &p in pieces {
                pending[chair] += usize::from(self.take(chair as u8, p));
            }
        }
        // "Először a Keleti Szél vesz, utána sorrendben a többiek ... Ha ez a vett kő is virág,
        // akkor megvárják, míg mindenki kicserélte és csak akkor vesz újat helyette."
        while pending.iter().any(|&n| n > 0) {
            let mut next = [0usize; 4];
            for place in 0..4u8 {
                let chair = (self.east + place) % 4;
                for _ in 0..pending[usize::from(chair)] {
                    let Some(p) = self.hand.wall.draw_replacement() else { return self.void() };
                    next[usize::from(chair)] += usize::from(self.take(chair, p));
                }
            }
            pending = next;
        }
        self.phase = Phase::Turn { chair: self.east, drawn: None, after_claim: false };
    }

    /// Gives a piece to a chair: a tile into the hand, a flower laid aside (true).
    fn take(&mut self, chair: u8, p: Piece) -> bool {
        let player = &mut self.hand.players[usize::from(chair & 3)];
        match p {
            Piece::Tile(t) => {
                player.hand[t.kind()] += 1;
                false
            }
            Piece::Flower(f) => {
                player.flowers.push(f);
                true
            }
        }
    }

    /// Draws for a chair until a tile comes: each flower is laid aside and replaced by a loose
    /// tile. `first` is the first piece drawn; `None` when the wall could not give one.
    fn draw_until_tile(&mut self, chair: u8, first: Option<Piece>) -> Option<Tile> {
        let mut p = first?;
        loop {
            match p {
                Piece::Tile(t) => {
                    self.hand.players[usize::from(chair & 3)].hand[t.kind()] += 1;
                    return Some(t);
                }
                Piece::Flower(f) => {
                    self.hand.players[usize::from(chair & 3)].flowers.push(f);
                    p = self.hand.wall.draw_replacement()?;
                }
            }
        }
    }

    /// The chair's draw from the wall; a void hand when only the dead wall is left.
    pub(super) fn draw(&mut self, chair: u8) {
        let first = self.hand.wall.draw();
        match self.draw_until_tile(chair, first) {
            Some(t) => self.phase = Phase::Turn { chair, drawn: Some(t), after_claim: false },
            None => self.void(),
        }
    }

    /// The chair's loose tile after a kong.
    pub(super) fn draw_loose(&mut self, chair: u8) {
        let first = self.hand.wall.draw_replacement();
        match self.draw_until_tile(chair, first) {
            Some(t) => self.phase = Phase::Turn { chair, drawn: Some(t), after_claim: false },
            None => self.void(),
        }
    }

    /// Moves the match on after a hand: East keeps the deal after its own win and after a void
    /// hand, else the markers move one place to the right (with `length: sixteen` after every
    /// scored hand); then the next hand is dealt, or the match is over.
    pub(super) fn next_hand(&mut self, winner: Option<u8>) {
        if let Some(w) = winner {
            self.scored += 1;
            if self.rules.length == Length::Sixteen || w != self.east {
                self.east = (self.east + 1) % 4;
                self.passes += 1;
            }
        }
        let over = match self.rules.length {
            Length::Party => self.passes >= 16,
            Length::Game => self.passes >= 4,
            Length::Sixteen => self.scored >= 16,
            Length::Hand => self.scored >= 1,
        };
        if over {
            self.phase = Phase::Over;
        } else {
            self.deal();
        }
    }

    /// The current hand's result number.
    pub(super) fn round_no(&self) -> u32 {
        self.results.len() as u32 + 1
    }
}
