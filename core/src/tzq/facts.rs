//! The facts a TZQ round result carries for statistics (docs/statistics.md).

use super::scoring::Category;
use crate::FactKey;
use std::borrow::Cow;

/// A TZQ fact key: what a fact counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactKind {
    /// Seat: an incident of this kind was recorded for it in the round (1): `incident:timeout`,
    /// ..., `incident:forfeit`, and the game's rule incident by its name.
    Incident(crate::IncidentKind),
    /// Seat: won the round (1).
    Win,
    /// Seat: the winning hand's points.
    Points,
    /// Seat: won by completing the fifth set with a Pong (1).
    WinByPong,
    /// Seat: won by completing the fifth set with a Chow (1).
    WinByChow,
    /// Seat: the points of one scoring category in the winning hand (`category:flush`).
    Category(Category),
    /// Table: the round was drawn (1).
    Drawn,
    /// Table: turns played in the round.
    Turns,
    /// Table: times the discard pile was reshuffled into the draw pile.
    Reshuffles,
}

impl FactKey for FactKind {
    fn key(&self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            FactKind::Incident(k) => k.fact_key(),
            FactKind::Win => "win",
            FactKind::Points => "points",
            FactKind::WinByPong => "win_by_pong",
            FactKind::WinByChow => "win_by_chow",
            FactKind::Category(c) => return Cow::Owned(format!("category:{}", c.key())),
            FactKind::Drawn => "drawn",
            FactKind::Turns => "turns",
            FactKind::Reshuffles => "reshuffles",
        })
    }

    fn parse(text: &str) -> Option<FactKind> {
        if let Some(k) = crate::IncidentKind::from_fact_key("tzq", text) {
            return Some(FactKind::Incident(k));
        }
        Some(match text {
            "win" => FactKind::Win,
            "points" => FactKind::Points,
            "win_by_pong" => FactKind::WinByPong,
            "win_by_chow" => FactKind::WinByChow,
            "drawn" => FactKind::Drawn,
            "turns" => FactKind::Turns,
            "reshuffles" => FactKind::Reshuffles,
            _ => {
                FactKind::Category(Category::ALL.into_iter().find(|c| Some(c.key()) == text.strip_prefix("category:"))?)
            }
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
            FactKind::Points,
            FactKind::WinByPong,
            FactKind::WinByChow,
            FactKind::Drawn,
            FactKind::Turns,
            FactKind::Reshuffles,
        ];
        for k in plain.into_iter().chain(Category::ALL.into_iter().map(FactKind::Category)) {
            assert_eq!(FactKind::parse(&k.key()), Some(k), "{k:?}");
        }
        assert_eq!(FactKind::Category(Category::WhiteFlush).key(), "category:white_flush");
        for bad in ["", "category:", "category:nothing", "Win"] {
            assert_eq!(FactKind::parse(bad), None, "{bad}");
        }
    }
}
