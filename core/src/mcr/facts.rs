//! The facts an MCR hand's result carries for statistics (docs/statistics.md).

use super::fans::Fan;
use crate::FactKey;
use std::borrow::Cow;

/// An MCR fact key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactKind {
    /// Seat: an incident of this kind was recorded for it in the round (1): `incident:timeout`,
    /// ..., `incident:forfeit`, and the game's rule incident by its name.
    Incident(crate::IncidentKind),
    /// Seat: won the hand (1).
    Win,
    /// Seat: the winning hand's fan, flowers included.
    Fan,
    /// Seat: won on a tile it drew (1).
    SelfDrawn,
    /// Seat: won on a discard or by robbing a kong (1).
    OnDiscard,
    /// Seat: won by robbing a kong (1; also counted as `on_discard`).
    RobbedKong,
    /// Seat: discarded the winning tile, or had its kong robbed (1).
    DealIn,
    /// Seat: how many times a fan counted in the winning hand (`fan:mixed_straight`).
    FanKind(Fan),
    /// Table: the hand was drawn (1).
    Drawn,
    /// Table: actions in the hand.
    Turns,
    /// Seat, on the match's last hand: the table points (4, 2, 1, 0) of its final score.
    TablePoints,
}

impl FactKey for FactKind {
    fn key(&self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            FactKind::Incident(k) => k.fact_key(),
            FactKind::Win => "win",
            FactKind::Fan => "fan",
            FactKind::SelfDrawn => "self_drawn",
            FactKind::OnDiscard => "on_discard",
            FactKind::RobbedKong => "robbed_kong",
            FactKind::DealIn => "deal_in",
            FactKind::FanKind(f) => return Cow::Owned(format!("fan:{}", f.name())),
            FactKind::Drawn => "drawn",
            FactKind::Turns => "turns",
            FactKind::TablePoints => "table_points",
        })
    }

    fn parse(text: &str) -> Option<FactKind> {
        if let Some(k) = crate::IncidentKind::from_fact_key("mcr", text) {
            return Some(FactKind::Incident(k));
        }
        Some(match text {
            "win" => FactKind::Win,
            "fan" => FactKind::Fan,
            "self_drawn" => FactKind::SelfDrawn,
            "on_discard" => FactKind::OnDiscard,
            "robbed_kong" => FactKind::RobbedKong,
            "deal_in" => FactKind::DealIn,
            "drawn" => FactKind::Drawn,
            "turns" => FactKind::Turns,
            "table_points" => FactKind::TablePoints,
            _ => FactKind::FanKind(Fan::from_name(text.strip_prefix("fan:")?)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_as_itself() {
        let plain = [
            FactKind::Win,
            FactKind::Fan,
            FactKind::SelfDrawn,
            FactKind::OnDiscard,
            FactKind::RobbedKong,
            FactKind::DealIn,
            FactKind::Drawn,
            FactKind::Turns,
            FactKind::TablePoints,
        ];
        for k in plain.into_iter().chain(Fan::ALL.into_iter().map(FactKind::FanKind)) {
            assert_eq!(FactKind::parse(&k.key()), Some(k), "{k:?}");
        }
        assert_eq!(FactKind::FanKind(Fan::AllTypes).key(), "fan:all_types");
        for bad in ["", "fan:", "fan:pinfu", "Win"] {
            assert_eq!(FactKind::parse(bad), None, "{bad}");
        }
    }
}
