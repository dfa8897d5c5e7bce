//! The facts a Hungarian hand's result carries for statistics (docs/statistics.md,
//! docs/rules/hungarian.md "Statistics facts").

use super::table::{Doubling, Limit, Line};
use crate::FactKey;
use std::borrow::Cow;

/// A Hungarian fact key: what a fact counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactKind {
    /// Seat: an incident of this kind was recorded for it in the round (1): `incident:timeout`,
    /// ..., `incident:forfeit`, and the game's rule incident by its name.
    Incident(crate::IncidentKind),
    /// Seat: won the hand (1).
    Win,
    /// Seat: won on its own draw (1).
    SelfDrawn,
    /// Seat: won on a robbed discard (1).
    Robbed,
    /// Seat: its discard was robbed for the win (1).
    Discarder,
    /// Seat: the winner's points before doubling.
    Points,
    /// Seat: the winner's number of doublings.
    Doublings,
    /// Seat: its hand's score (every player, winner or loser).
    Score,
    /// Seat: how often a figure or premium line counted in its hand (`line:own_flower`).
    Line(Line),
    /// Seat: how often a doubling counted in its hand (`doubling:dragon_set`).
    Doubling(Doubling),
    /// Seat: the winner's limit hand (`limit:green`, 1).
    Limit(Limit),
    /// Seat: played the hand as this wind (`as:E`, 1).
    As(u8),
    /// Seat: its settlement in a won hand, under the wind it played (`settlement:E`).
    Settlement(u8),
    /// Seat: the sets it laid out on a claimed discard.
    Claims,
    /// Table: the hand was void (1).
    Void,
    /// Table: kongs laid out in the hand.
    Kongs,
    /// Table: flowers and seasons laid aside in the hand.
    Flowers,
}

const WINDS: [&str; 4] = ["E", "S", "W", "N"];

impl FactKind {
    const PLAIN: [(FactKind, &'static str); 11] = [
        (FactKind::Win, "win"),
        (FactKind::SelfDrawn, "self_drawn"),
        (FactKind::Robbed, "robbed"),
        (FactKind::Discarder, "discarder"),
        (FactKind::Points, "points"),
        (FactKind::Doublings, "doublings"),
        (FactKind::Score, "score"),
        (FactKind::Claims, "claims"),
        (FactKind::Void, "void"),
        (FactKind::Kongs, "kongs"),
        (FactKind::Flowers, "flowers"),
    ];

    /// Every key, for tests and documentation.
    pub fn all() -> Vec<FactKind> {
        let mut v: Vec<FactKind> = FactKind::PLAIN.iter().map(|(k, _)| *k).collect();
        v.extend(Line::ALL.into_iter().map(FactKind::Line));
        v.extend(Doubling::ALL.into_iter().map(FactKind::Doubling));
        v.extend(Limit::ALL.into_iter().map(FactKind::Limit));
        v.extend((0..4).map(FactKind::As));
        v.extend((0..4).map(FactKind::Settlement));
        v
    }
}

impl FactKey for FactKind {
    fn key(&self) -> Cow<'static, str> {
        match self {
            FactKind::Incident(k) => Cow::Borrowed(k.fact_key()),
            FactKind::Line(l) => Cow::Owned(format!("line:{}", l.name())),
            FactKind::Doubling(d) => Cow::Owned(format!("doubling:{}", d.name())),
            FactKind::Limit(l) => Cow::Owned(format!("limit:{}", l.name())),
            FactKind::As(w) => Cow::Owned(format!("as:{}", WINDS[usize::from(w & 3)])),
            FactKind::Settlement(w) => Cow::Owned(format!("settlement:{}", WINDS[usize::from(w & 3)])),
            plain => Cow::Borrowed(FactKind::PLAIN.iter().find(|(k, _)| k == plain).map_or("", |(_, t)| t)),
        }
    }

    fn parse(text: &str) -> Option<FactKind> {
        if let Some(k) = crate::IncidentKind::from_fact_key("hungarian", text) {
            return Some(FactKind::Incident(k));
        }
        let wind = |w: &str| WINDS.iter().position(|x| *x == w).map(|i| i as u8);
        if let Some(n) = text.strip_prefix("line:") {
            return Line::ALL.into_iter().find(|l| l.name() == n).map(FactKind::Line);
        }
        if let Some(n) = text.strip_prefix("doubling:") {
            return Doubling::ALL.into_iter().find(|d| d.name() == n).map(FactKind::Doubling);
        }
        if let Some(n) = text.strip_prefix("limit:") {
            return Limit::ALL.into_iter().find(|l| l.name() == n).map(FactKind::Limit);
        }
        if let Some(w) = text.strip_prefix("as:") {
            return wind(w).map(FactKind::As);
        }
        if let Some(w) = text.strip_prefix("settlement:") {
            return wind(w).map(FactKind::Settlement);
        }
        FactKind::PLAIN.iter().find(|(_, t)| *t == text).map(|(k, _)| *k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_with_its_text() {
        let all = FactKind::all();
        assert_eq!(all.len(), 11 + Line::ALL.len() + Doubling::ALL.len() + Limit::ALL.len() + 8);
        for k in &all {
            assert_eq!(FactKind::parse(&k.key()), Some(*k), "{}", k.key());
        }
        for bad in ["", "line:", "line:chow", "as:X", "settlement:", "limit:royal", "Win"] {
            assert_eq!(FactKind::parse(bad), None, "{bad}");
        }
    }
}
