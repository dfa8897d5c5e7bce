//! How the host talks to a bot: what it sends for each decision and how it reads the answer.
//!
//! Every protocol keeps one rule: each line the host sends gets exactly one line back. Lines
//! that ask for a decision ([`Protocol::ask`]) are answered with the decision; the others
//! ([`Protocol::begin`], [`Protocol::notices`], [`Protocol::end`]) are answered with anything,
//! which the host reads and ignores, so that answers never fall out of step with questions.
//!
//! One protocol value serves one seat: it keeps what that seat has been told so far.

use paifu_core::log::Options;
use paifu_core::{Game, Seat};

/// What a bot's answer to [`Protocol::ask`] comes to.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer<A> {
    /// A decision, to be checked against the legal set before it is played.
    Action(A),
    /// The protocol needs one more exchange before it has a decision (mjai's `reach`, answered
    /// with the event and a request for the discard): the host asks again at once, on the same
    /// clock.
    Again,
    /// The line says nothing the protocol can read; the text says why.
    Unreadable(String),
}

/// The table a bot sits at, as it is told when the game begins.
#[derive(Clone, Debug)]
pub struct Table<'a> {
    pub game: &'a str,
    pub ruleset: &'a str,
    pub options: &'a Options,
    /// One name per seat, in seat order.
    pub names: &'a [String],
    /// The seat this bot plays.
    pub seat: Seat,
    /// The game's number in the match (1-based).
    pub number: u32,
}

/// A way of talking to a bot program for game `G`.
pub trait Protocol<G: Game> {
    /// Lines sent before the first decision (each answer read and ignored).
    fn begin(&mut self, table: &Table<'_>, game: &G) -> Vec<String>;
    /// Notes an action just played (any seat's, incidents and the host's safe actions
    /// included); `game` is the state after it. `seen`: whether this seat sees it at the table
    /// (false for another seat's pass on a claim, and its incidents while a claim window is
    /// open: [`Game::hidden_from_others`]); what it does not see is never told.
    fn observe(&mut self, seat: Seat, action: &G::Action, game: &G, seen: bool);
    /// Lines to send now that are not questions (each answer read and ignored), drained after
    /// each [`Protocol::observe`]. Most protocols have none.
    fn notices(&mut self) -> Vec<String> {
        Vec::new()
    }
    /// The line asking this seat for a decision now (no newline in it).
    fn ask(&mut self, game: &G, seat: Seat) -> String;
    /// Reads the answer to the last [`Protocol::ask`].
    fn read(&mut self, game: &G, seat: Seat, line: &str) -> Answer<G::Action>;
    /// Lines sent once the game is over (each answer read and ignored).
    fn end(&mut self, game: &G) -> Vec<String>;
}

/// The protocols `paifu arena --protocol` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtocolKind {
    /// Paifu's own line protocol, for every game (docs/protocol.md, "The Paifu line protocol").
    Paifu,
    /// mjai.app's protocol, for riichi (docs/protocol.md, "mjai").
    Mjai,
}

impl ProtocolKind {
    pub fn name(self) -> &'static str {
        match self {
            ProtocolKind::Paifu => "paifu",
            ProtocolKind::Mjai => "mjai",
        }
    }
}
