//! Incidents: what a host or a referee records about a seat beside its moves.
//!
//! An incident is a record like any other: its action is the game's `Incident` variant (the last
//! of each engine's action enum, so that older binary logs keep their bytes), written
//! `incident KIND` or `incident KIND: DETAIL`. The kinds:
//!
//! - host incidents, `timeout`, `budget`, `illegal`, `garbage`, `exited`: the seat's answer was
//!   missing or unusable and the host plays the seat's safe action for it ([`crate::Game::safe_action`]),
//!   as the seat's next record. They change nothing in the game;
//! - `forfeit`: the seat gives the game up; every later action of it must be its safe action,
//!   and it is placed after every other seat;
//! - rule incidents, entered by a referee, each with its game's consequence: `talk` (Ta Yü, four
//!   players), `chombo` (riichi), `false_win` (MCR). docs/rules/GAME.md says what each does.
//!
//! This module names no engine and no log type: the log's `Action` trait and the engines use it.

use crate::error::{ErrorCode, Violation};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The longest detail an incident carries, in bytes of UTF-8 (200 characters of ASCII).
pub const MAX_DETAIL: usize = 200;

/// What happened.
// The variant names serve JSON (`false_win`); the binary form is the variant's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IncidentKind {
    /// The seat did not answer within the time for one decision.
    Timeout,
    /// The seat ran out of its time budget for the game.
    Budget,
    /// The seat answered with an action that is not legal now.
    Illegal,
    /// The seat answered with something that is not an action, or not text.
    Garbage,
    /// The seat's program ended.
    Exited,
    /// The seat gives the game up.
    Forfeit,
    /// Ta Yü, four players: a team member talked about the moves.
    Talk,
    /// Riichi: a chombo (a false win, a wrong call, an illegal riichi...): the hand is annulled.
    Chombo,
    /// MCR: a false declaration of a win (诈和).
    FalseWin,
}

impl IncidentKind {
    pub const ALL: [IncidentKind; 9] = [
        IncidentKind::Timeout,
        IncidentKind::Budget,
        IncidentKind::Illegal,
        IncidentKind::Garbage,
        IncidentKind::Exited,
        IncidentKind::Forfeit,
        IncidentKind::Talk,
        IncidentKind::Chombo,
        IncidentKind::FalseWin,
    ];

    /// The name in the notation: `timeout`, ..., `false_win`.
    pub fn name(self) -> &'static str {
        match self {
            IncidentKind::Timeout => "timeout",
            IncidentKind::Budget => "budget",
            IncidentKind::Illegal => "illegal",
            IncidentKind::Garbage => "garbage",
            IncidentKind::Exited => "exited",
            IncidentKind::Forfeit => "forfeit",
            IncidentKind::Talk => "talk",
            IncidentKind::Chombo => "chombo",
            IncidentKind::FalseWin => "false_win",
        }
    }

    pub fn from_name(name: &str) -> Option<IncidentKind> {
        IncidentKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// A host incident: the seat's answer was missing or unusable, its safe action follows.
    pub fn is_host(self) -> bool {
        matches!(
            self,
            IncidentKind::Timeout
                | IncidentKind::Budget
                | IncidentKind::Illegal
                | IncidentKind::Garbage
                | IncidentKind::Exited
        )
    }

    /// The game a rule incident belongs to (its name in headers); `None` for the kinds every
    /// game has (host incidents and `forfeit`).
    pub fn game(self) -> Option<&'static str> {
        match self {
            IncidentKind::Talk => Some("tayu"),
            IncidentKind::Chombo => Some("riichi"),
            IncidentKind::FalseWin => Some("mcr"),
            _ => None,
        }
    }

    /// The statistic fact key it counts as: `incident:timeout`, ..., `incident:forfeit`, and
    /// the rule incidents by their own name (`talk`, `chombo`, `false_win`).
    pub fn fact_key(self) -> &'static str {
        match self {
            IncidentKind::Timeout => "incident:timeout",
            IncidentKind::Budget => "incident:budget",
            IncidentKind::Illegal => "incident:illegal",
            IncidentKind::Garbage => "incident:garbage",
            IncidentKind::Exited => "incident:exited",
            IncidentKind::Forfeit => "incident:forfeit",
            IncidentKind::Talk => "talk",
            IncidentKind::Chombo => "chombo",
            IncidentKind::FalseWin => "false_win",
        }
    }

    /// The kind whose fact key `key` is, among the kinds game `game` has.
    pub fn from_fact_key(game: &str, key: &str) -> Option<IncidentKind> {
        IncidentKind::ALL.into_iter().find(|k| k.fact_key() == key && k.game().is_none_or(|g| g == game))
    }
}

impl fmt::Display for IncidentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An incident's notation or detail was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IncidentError {
    #[error("{0:?} is not an incident kind: write timeout, budget, illegal, garbage, exited, forfeit, talk, chombo or false_win")]
    UnknownKind(String),
    #[error("an incident's detail holds at most {MAX_DETAIL} bytes, not {0}")]
    TooLong(usize),
    #[error("an incident's detail holds no control characters (found {0:?})")]
    Control(char),
    #[error("an incident's detail is empty: leave out the colon")]
    Empty,
    #[error("an incident's detail neither starts nor ends with a space")]
    Untrimmed,
}

/// An incident's free text: at most [`MAX_DETAIL`] bytes, no control characters, no space at
/// either end. Kept inline in the [`Incident`], which the actions box (`incident_variant!`): an
/// incident record costs one allocation, and the other actions do not carry its size.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Detail {
    len: u8,
    bytes: [u8; MAX_DETAIL],
}

impl Detail {
    /// The empty detail (`incident timeout` has it).
    pub const NONE: Detail = Detail { len: 0, bytes: [0; MAX_DETAIL] };

    /// A detail, checked; the empty text gives [`Detail::NONE`].
    pub fn new(text: &str) -> Result<Detail, IncidentError> {
        if text.len() > MAX_DETAIL {
            return Err(IncidentError::TooLong(text.len()));
        }
        if let Some(c) = text.chars().find(|c| c.is_control()) {
            return Err(IncidentError::Control(c));
        }
        if text.trim() != text {
            return Err(IncidentError::Untrimmed);
        }
        let mut bytes = [0; MAX_DETAIL];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Ok(Detail { len: text.len() as u8, bytes })
    }

    pub fn as_str(&self) -> &str {
        // Only `new` makes a detail, from a whole `&str`: the bytes are UTF-8.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl fmt::Debug for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for Detail {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Detail {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // The text is read where it lies (no `String` on the way).
        struct Text;
        impl serde::de::Visitor<'_> for Text {
            type Value = Detail;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an incident's detail")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Detail, E> {
                Detail::new(text).map_err(E::custom)
            }
        }
        d.deserialize_str(Text)
    }
}

/// One incident: its kind and what the host or referee wrote about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Incident {
    pub kind: IncidentKind,
    pub detail: Detail,
}

impl Incident {
    pub fn new(kind: IncidentKind, detail: &str) -> Result<Incident, IncidentError> {
        Ok(Incident { kind, detail: Detail::new(detail)? })
    }

    /// An incident without a detail.
    pub fn bare(kind: IncidentKind) -> Incident {
        Incident { kind, detail: Detail::NONE }
    }

    /// Reads `incident KIND` or `incident KIND: DETAIL`; `Ok(None)` when `text` is not an
    /// incident at all (its first word is not `incident`), so that engines try their own
    /// notation next.
    pub fn parse_notation(text: &str) -> Result<Option<Incident>, IncidentError> {
        let text = text.trim();
        let Some(rest) = text.strip_prefix("incident") else { return Ok(None) };
        if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
            return Ok(None);
        }
        let (kind, detail) = match rest.split_once(':') {
            Some((kind, detail)) => {
                let detail = detail.trim();
                if detail.is_empty() {
                    return Err(IncidentError::Empty);
                }
                (kind.trim(), detail)
            }
            None => (rest.trim(), ""),
        };
        let kind = IncidentKind::from_name(kind).ok_or_else(|| IncidentError::UnknownKind(kind.to_owned()))?;
        Incident::new(kind, detail).map(Some)
    }
}

impl fmt::Display for Incident {
    /// `incident timeout` or `incident illegal: answered "discard 9z"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "incident {}", self.kind)?;
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail.as_str())?;
        }
        Ok(())
    }
}

/// The two methods of `log::Action` for an action enum whose `Incident(Box<Incident>)` variant
/// records incidents (every engine's last variant): written once, expanded in each engine's impl.
///
/// The incident is boxed: with its detail (up to [`MAX_DETAIL`] bytes) inline, every action of
/// the game would be as large as an incident, for the few records that are one.
macro_rules! incident_variant {
    () => {
        fn incident(&self) -> Option<&crate::Incident> {
            match self {
                Self::Incident(i) => Some(&**i),
                _ => None,
            }
        }

        fn from_incident(incident: crate::Incident) -> Self {
            Self::Incident(Box::new(incident))
        }
    };
}
pub(crate) use incident_variant;

/// What an engine keeps about incidents: the forfeited seats, the seats whose next record must
/// be their safe action (after a host incident), and the incidents of the round being played
/// (statistic facts once it ends). Every engine embeds one and routes incidents through it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Incidents {
    forfeited: u8,
    pending: u8,
    round: Vec<(u8, IncidentKind)>,
    /// Penalty payments of the round (each seat's change), added to its result's deltas.
    penalty: Vec<i64>,
}

fn bit(seat: u8) -> u8 {
    1u8.checked_shl(u32::from(seat)).unwrap_or(0)
}

impl Incidents {
    /// Whether `seat` has forfeited.
    pub(crate) fn forfeited(&self, seat: u8) -> bool {
        self.forfeited & bit(seat) != 0
    }

    /// Whether `seat` may only play its safe action now (it forfeited, or a host incident of
    /// it was just recorded).
    pub(crate) fn restricted(&self, seat: u8) -> bool {
        (self.forfeited | self.pending) & bit(seat) != 0
    }

    /// The legal actions of a seat, narrowed to its safe action when it may play nothing else.
    pub(crate) fn narrow<A: Clone>(&self, seat: u8, legal: Vec<A>, safe: impl FnOnce(&[A]) -> Option<A>) -> Vec<A> {
        if self.restricted(seat) {
            safe(&legal).into_iter().collect()
        } else {
            legal
        }
    }

    /// The checks every game makes before its own, for a seat that owes a decision:
    /// `Ok(true)` when the action is an incident the shared rules accept (the engine then checks
    /// what its game says of the kind), `Ok(false)` when it is an ordinary action the engine
    /// checks as usual, and the violation otherwise. `game` is the game's name, `safe` the
    /// seat's safe action now (`None` when the seat owes no decision one could stand for).
    pub(crate) fn screen<A: PartialEq + fmt::Display>(
        &self,
        game: &str,
        seat: u8,
        incident: Option<&Incident>,
        action: &A,
        safe: impl FnOnce() -> Option<A>,
    ) -> Result<bool, Violation> {
        let restricted = self.restricted(seat);
        if incident.is_none() && !restricted {
            // The common case, every ordinary move: nothing to check, nothing written.
            return Ok(false);
        }
        // Written only for a refusal.
        let why = || {
            if self.forfeited(seat) {
                format!("seat {seat} has forfeited: it plays only its safe action")
            } else {
                format!("after a host incident of seat {seat}, its next record is its safe action")
            }
        };
        let Some(incident) = incident else {
            return match safe() {
                Some(s) if s == *action => Ok(false),
                Some(s) => Err(Violation::new(ErrorCode::NotSafeAction, format!("{}, {s}, not {action}", why()))),
                None => Err(Violation::new(ErrorCode::NotSafeAction, format!("{}, and it has none now", why()))),
            };
        };
        if restricted {
            return Err(Violation::new(ErrorCode::NotSafeAction, format!("{}, not another incident", why())));
        }
        if let Some(other) = incident.kind.game().filter(|g| *g != game) {
            return Err(Violation::illegal(format!("{} is a rule incident of {other}, not of {game}", incident.kind)));
        }
        if safe().is_none() {
            return Err(Violation::illegal(format!(
                "seat {seat} owes no decision an incident can stand for now (a chance record is due)"
            )));
        }
        Ok(true)
    }

    /// Records an incident that `screen` and the engine accepted.
    pub(crate) fn record(&mut self, seat: u8, incident: &Incident) {
        if incident.kind.is_host() {
            self.pending |= bit(seat);
        }
        if incident.kind == IncidentKind::Forfeit {
            self.forfeited |= bit(seat);
        }
        self.round.push((seat, incident.kind));
    }

    /// A seat played an ordinary action: its host incident, if any, is answered.
    pub(crate) fn acted(&mut self, seat: u8) {
        self.pending &= !bit(seat);
    }

    /// The incidents of the round that just ended, each a fact `(seat, kind)` with value 1;
    /// the list starts again empty.
    pub(crate) fn take_round(&mut self) -> Vec<(u8, IncidentKind)> {
        std::mem::take(&mut self.round)
    }

    /// Adds a penalty payment (each seat's change) to the round being played.
    pub(crate) fn charge(&mut self, deltas: &[i64]) {
        if self.penalty.len() < deltas.len() {
            self.penalty.resize(deltas.len(), 0);
        }
        for (p, d) in self.penalty.iter_mut().zip(deltas) {
            *p = p.saturating_add(*d);
        }
    }

    /// The round's penalty payments (empty when none); the round starts again without.
    pub(crate) fn take_penalty(&mut self) -> Vec<i64> {
        std::mem::take(&mut self.penalty)
    }

    /// Places with every forfeited seat after every other seat: the seats that did not
    /// forfeit keep their order among themselves, and so do the forfeited ones.
    pub(crate) fn places(&self, places: Vec<u32>) -> Vec<u32> {
        if self.forfeited == 0 {
            return places;
        }
        let key = |s: usize| (self.forfeited(s as u8), places[s]);
        (0..places.len()).map(|s| 1 + (0..places.len()).filter(|&o| key(o) < key(s)).count() as u32).collect()
    }
}

#[cfg(test)]
mod tests;
