//! The facts a riichi round result carries for statistics (docs/statistics.md).

use super::score::Yaku;
use crate::FactKey;
use std::borrow::Cow;

/// A riichi fact key: what a fact counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactKind {
    /// Seat: an incident of this kind was recorded for it in the round (1): `incident:timeout`,
    /// ..., `incident:forfeit`, and the game's rule incident by its name.
    Incident(crate::IncidentKind),
    /// Seat: won the hand (1).
    Win,
    /// Seat: won by self-draw (1).
    Tsumo,
    /// Seat: won on a discard (1).
    Ron,
    /// Seat: its discard was won on (1).
    DealIn,
    /// Seat: pays for another's win under pao (1).
    Liable,
    /// Seat: the win's han.
    Han,
    /// Seat: the win's fu.
    Fu,
    /// Seat: the hand's value before honba and riichi sticks.
    Points,
    /// Seat: the yakuman multiple of a yakuman win.
    Yakuman,
    /// Seat: the han of one yaku in the win (`yaku:pinfu`).
    Yaku(Yaku),
    /// Seat: tenpai at an exhaustive draw (1).
    Tenpai,
    /// Seat: nagashi mangan at an exhaustive draw (1).
    NagashiMangan,
    /// Seat: declared riichi in the hand (1).
    Riichi,
    /// Seat: calls made in the hand.
    Calls,
    /// Seat: riichi sticks left on the table that the top seat takes at the end.
    LeftoverSticks,
    /// Seat: final place, 1 to 4 (ties broken by seat order).
    Rank,
    /// Seat: the final result after uma and oka, in points.
    FinalPoints,
    /// Table: the hand ended in an exhaustive draw (1).
    ExhaustiveDraw,
    /// Table: the hand ended in an abortive draw (1).
    AbortiveDraw,
    /// Table: which abortive draw (`abort:four_winds`).
    Abort(Abort),
}

/// The abortive draws (serialized by their snake_case names, as in the facts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Abort {
    NineTerminals,
    TripleRon,
    FourRiichi,
    FourWinds,
    FourKans,
}

impl Abort {
    pub const ALL: [Abort; 5] =
        [Abort::NineTerminals, Abort::TripleRon, Abort::FourRiichi, Abort::FourWinds, Abort::FourKans];

    /// The snake_case name (`four_winds`).
    pub fn name(self) -> &'static str {
        match self {
            Abort::NineTerminals => "nine_terminals",
            Abort::TripleRon => "triple_ron",
            Abort::FourRiichi => "four_riichi",
            Abort::FourWinds => "four_winds",
            Abort::FourKans => "four_kans",
        }
    }
}

impl FactKind {
    /// The keys without a parameter, with their text.
    const PLAIN: [(FactKind, &'static str); 18] = [
        (FactKind::Win, "win"),
        (FactKind::Tsumo, "tsumo"),
        (FactKind::Ron, "ron"),
        (FactKind::DealIn, "deal_in"),
        (FactKind::Liable, "liable"),
        (FactKind::Han, "han"),
        (FactKind::Fu, "fu"),
        (FactKind::Points, "points"),
        (FactKind::Yakuman, "yakuman"),
        (FactKind::Tenpai, "tenpai"),
        (FactKind::NagashiMangan, "nagashi_mangan"),
        (FactKind::Riichi, "riichi"),
        (FactKind::Calls, "calls"),
        (FactKind::LeftoverSticks, "leftover_sticks"),
        (FactKind::Rank, "rank"),
        (FactKind::FinalPoints, "final_points"),
        (FactKind::ExhaustiveDraw, "exhaustive_draw"),
        (FactKind::AbortiveDraw, "abortive_draw"),
    ];
}

impl FactKey for FactKind {
    fn key(&self) -> Cow<'static, str> {
        match self {
            FactKind::Incident(k) => Cow::Borrowed(k.fact_key()),
            FactKind::Yaku(y) => {
                let mut key = String::with_capacity(5 + y.name().len());
                key.push_str("yaku:");
                key.push_str(y.name());
                Cow::Owned(key)
            }
            FactKind::Abort(a) => Cow::Owned(format!("abort:{}", a.name())),
            plain => Cow::Borrowed(FactKind::PLAIN.iter().find(|(k, _)| k == plain).map_or("", |(_, t)| t)),
        }
    }

    fn parse(text: &str) -> Option<FactKind> {
        if let Some(k) = crate::IncidentKind::from_fact_key("riichi", text) {
            return Some(FactKind::Incident(k));
        }
        if let Some(name) = text.strip_prefix("yaku:") {
            return Yaku::ALL.into_iter().find(|y| y.name() == name).map(FactKind::Yaku);
        }
        if let Some(name) = text.strip_prefix("abort:") {
            return Abort::ALL.into_iter().find(|a| a.name() == name).map(FactKind::Abort);
        }
        FactKind::PLAIN.iter().find(|(_, t)| *t == text).map(|(k, _)| *k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_with_its_text() {
        let all = FactKind::PLAIN
            .iter()
            .map(|(k, _)| *k)
            .chain(Yaku::ALL.into_iter().map(FactKind::Yaku))
            .chain(Abort::ALL.into_iter().map(FactKind::Abort));
        let mut n = 0;
        for k in all {
            let text = k.key();
            let back = FactKind::parse(&text).unwrap_or_else(|| panic!("{text} does not parse"));
            assert_eq!(back.key(), text);
            // Only the two renhou yaku (mangan and yakuman, one option or the other) share a text.
            if back != k {
                assert_eq!(text, "yaku:renhou");
            }
            n += 1;
        }
        assert_eq!(n, 18 + Yaku::ALL.len() + 5);
        for bad in ["", "yaku:", "yaku:nothing", "abort:", "Win", "draw:exhaustive", "call"] {
            assert_eq!(FactKind::parse(bad), None, "{bad}");
        }
    }
}
