//! The facts a Ta Yü game result carries for statistics (docs/statistics.md).

use crate::FactKey;
use std::borrow::Cow;

/// A Ta Yü fact key: what a fact counts. Seat facts are about one seat, table facts about the
/// game; `Mouths` is both (a seat's mouths on its coasts, and all mouths on the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactKind {
    /// Seat: an incident of this kind was recorded for it in the round (1): `incident:timeout`,
    /// ..., `incident:forfeit`, and the game's rule incident by its name.
    Incident(crate::IncidentKind),
    /// Seat: its final score.
    Score,
    /// Seat: mouths on its coasts; table: all mouths.
    Mouths,
    /// Seat: the points of its coasts.
    CoastPoints,
    /// Seat: one of its coasts has no points (1).
    ZeroCoast,
    /// Seat: pieces it placed.
    Placed,
    /// Seat: won outright (1).
    Win,
    /// Seat: shares the best score (1).
    Tie,
    /// Seat: is the flood of a three-player game (1).
    Flood,
    /// Seat: the flood's winning bid.
    Bid,
    /// Table: pieces on the board.
    PiecesPlaced,
    /// Table: pieces set aside.
    SetAside,
    /// Table: mouths on special (2-point) spaces.
    SpecialMouths,
    /// Table: pieces left in the stack.
    StackLeft,
    /// Table: the game ended on a piece that could not be placed (1).
    EndNoPlacement,
    /// Table: the game ended with the stack empty (1).
    EndStackEmpty,
}

impl FactKind {
    /// Every key, with its text.
    const ALL: [(FactKind, &'static str); 15] = [
        (FactKind::Score, "score"),
        (FactKind::Mouths, "mouths"),
        (FactKind::CoastPoints, "coast_points"),
        (FactKind::ZeroCoast, "zero_coast"),
        (FactKind::Placed, "placed"),
        (FactKind::Win, "win"),
        (FactKind::Tie, "tie"),
        (FactKind::Flood, "flood"),
        (FactKind::Bid, "bid"),
        (FactKind::PiecesPlaced, "pieces_placed"),
        (FactKind::SetAside, "set_aside"),
        (FactKind::SpecialMouths, "special_mouths"),
        (FactKind::StackLeft, "stack_left"),
        (FactKind::EndNoPlacement, "end_no_placement"),
        (FactKind::EndStackEmpty, "end_stack_empty"),
    ];
}

impl FactKey for FactKind {
    fn key(&self) -> Cow<'static, str> {
        if let FactKind::Incident(k) = self {
            return Cow::Borrowed(k.fact_key());
        }
        Cow::Borrowed(FactKind::ALL.iter().find(|(k, _)| k == self).map_or("", |(_, t)| t))
    }

    fn parse(text: &str) -> Option<FactKind> {
        if let Some(k) = crate::IncidentKind::from_fact_key("tayu", text) {
            return Some(FactKind::Incident(k));
        }
        FactKind::ALL.iter().find(|(_, t)| *t == text).map(|(k, _)| *k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_as_itself() {
        for (k, text) in FactKind::ALL {
            assert_eq!(k.key(), text);
            assert_eq!(FactKind::parse(text), Some(k));
        }
        assert_eq!(FactKind::parse("Score"), None);
    }
}
