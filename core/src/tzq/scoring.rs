//! The TZQ scoring table (seed: "Pontozás"; RULINGS.md, Tien Zi Que, "Scoring").

use super::cards::{Card, Colour, Kind};
use serde::Serialize;
use std::fmt;

/// A scoring category of the seed's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Flöss: five cards of one colour code, blue, green or red. 3.
    Flush,
    /// Fehér Flöss: five white cards. 4.
    WhiteFlush,
    /// Elemek: five cards of five different colour codes. 4.
    Elements,
    /// Verebek Királya: three Sparrows. 6.
    KingOfSparrows,
    /// Vakmerő Sárkány: five consecutive numbers. 6.
    DaringDragon,
    /// Pár: two identical cards. 2 each.
    Pair,
    /// Három egyforma. 5.
    ThreeOfAKind,
    /// Négy egyforma. 10.
    FourOfAKind,
    /// Honőr: 1, 3, 5, 9 for one to four different honours.
    Honours,
    /// Összes Szél: four different winds. 12.
    AllWinds,
    /// Mind Honőr: five honours. 16.
    AllHonours,
    /// Nyerő Húzás: the fifth set made with the Pong action. 1.
    WinningDraw,
}

impl Category {
    /// Every category, in the seed's table order.
    pub const ALL: [Category; 12] = [
        Category::Flush,
        Category::WhiteFlush,
        Category::Elements,
        Category::KingOfSparrows,
        Category::DaringDragon,
        Category::Pair,
        Category::ThreeOfAKind,
        Category::FourOfAKind,
        Category::Honours,
        Category::AllWinds,
        Category::AllHonours,
        Category::WinningDraw,
    ];

    /// The snake_case key used in statistics facts (`category:KEY`).
    pub fn key(self) -> &'static str {
        match self {
            Category::Flush => "flush",
            Category::WhiteFlush => "white_flush",
            Category::Elements => "elements",
            Category::KingOfSparrows => "king_of_sparrows",
            Category::DaringDragon => "daring_dragon",
            Category::Pair => "pair",
            Category::ThreeOfAKind => "three_of_a_kind",
            Category::FourOfAKind => "four_of_a_kind",
            Category::Honours => "honours",
            Category::AllWinds => "all_winds",
            Category::AllHonours => "all_honours",
            Category::WinningDraw => "winning_draw",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Category::Flush => "Flush",
            Category::WhiteFlush => "White Flush",
            Category::Elements => "Elements",
            Category::KingOfSparrows => "King of Sparrows",
            Category::DaringDragon => "Daring Dragon",
            Category::Pair => "Pair",
            Category::ThreeOfAKind => "Three of a kind",
            Category::FourOfAKind => "Four of a kind",
            Category::Honours => "Honours",
            Category::AllWinds => "All Winds",
            Category::AllHonours => "All Honours",
            Category::WinningDraw => "Winning Draw",
        }
    }
}

/// A scored hand: each category that applies with its points.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Score {
    pub items: Vec<(Category, i64)>,
}

impl Score {
    pub fn total(&self) -> i64 {
        self.items.iter().map(|(_, p)| p).sum()
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.items.is_empty() {
            return write!(f, "nothing = 0");
        }
        let parts: Vec<String> = self.items.iter().map(|(c, p)| format!("{} {p}", c.name())).collect();
        write!(f, "{} = {}", parts.join(" + "), self.total())
    }
}

/// Scores a winner's scoring cards. Five-card categories (flushes, Elements, Daring Dragon, All
/// Honours) need five cards; the others apply to any number, which lets bots weigh a partial set.
pub fn score(cards: &[Card], winning_draw: bool) -> Score {
    let mut s = Score::default();
    let five = cards.len() == 5;

    // Colour codes.
    if five {
        let first = cards[0].colour();
        if cards.iter().all(|c| c.colour() == first) {
            match first {
                Colour::Blue | Colour::Green | Colour::Red => s.items.push((Category::Flush, 3)),
                Colour::White => s.items.push((Category::WhiteFlush, 4)),
                Colour::Black => {}
            }
        }
        let mut seen = [false; 5];
        cards.iter().for_each(|c| seen[c.colour() as usize] = true);
        if seen.iter().all(|&x| x) {
            s.items.push((Category::Elements, 4));
        }
    }

    // Identical kinds: the largest group replaces the smaller categories for those cards.
    let mut kinds: Vec<(Kind, usize)> = Vec::new();
    for c in cards {
        match kinds.iter_mut().find(|(k, _)| *k == c.kind()) {
            Some((_, n)) => *n += 1,
            None => kinds.push((c.kind(), 1)),
        }
    }
    kinds.sort();
    for &(k, n) in &kinds {
        match (k, n) {
            (Kind::Sparrow, 3) => s.items.push((Category::KingOfSparrows, 6)),
            (_, 4..) => s.items.push((Category::FourOfAKind, 10)),
            (_, 3) => s.items.push((Category::ThreeOfAKind, 5)),
            (_, 2) => s.items.push((Category::Pair, 2)),
            _ => {}
        }
    }

    // Daring Dragon: five consecutive numbers, whatever their colours.
    if five {
        let mut nums: Vec<u8> = cards.iter().filter_map(|c| c.number()).collect();
        nums.sort_unstable();
        if nums.len() == 5 && nums.windows(2).all(|w| w[1] == w[0] + 1) {
            s.items.push((Category::DaringDragon, 6));
        }
    }

    // Honours.
    let honour_kinds: Vec<Kind> = kinds.iter().map(|&(k, _)| k).filter(|k| k.is_honour()).collect();
    let winds = honour_kinds.iter().filter(|k| matches!(k, Kind::Wind(_))).count();
    if five && cards.iter().all(|c| c.kind().is_honour()) {
        s.items.push((Category::AllHonours, 16));
    } else if winds == 4 {
        s.items.push((Category::AllWinds, 12));
    } else if !honour_kinds.is_empty() {
        let pts = [0, 1, 3, 5, 9][honour_kinds.len().min(4)];
        s.items.push((Category::Honours, pts));
    }

    if winning_draw {
        s.items.push((Category::WinningDraw, 1));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tzq::cards::cards;

    fn total(h: &str) -> i64 {
        score(&cards(h).unwrap(), false).total()
    }

    fn cats(h: &str) -> Vec<Category> {
        score(&cards(h).unwrap(), false).items.iter().map(|x| x.0).collect()
    }

    // The seed's three worked examples ("Példák").
    #[test]
    fn seed_example_1_east_pair_and_king_of_sparrows_is_9() {
        let s = score(&cards("Eb Eg Q Q Q").unwrap(), false);
        assert_eq!(s.total(), 9, "{s}");
        assert_eq!(cats("Eb Eg Q Q Q"), vec![Category::Pair, Category::KingOfSparrows, Category::Honours]);
    }

    #[test]
    fn seed_example_2_two_honours_and_elements_is_7() {
        assert_eq!(total("Eb Rg 3r 7w Q"), 7);
        assert_eq!(cats("Eb Rg 3r 7w Q"), vec![Category::Elements, Category::Honours]);
    }

    #[test]
    fn seed_example_3_west_pair_and_three_ones_is_8() {
        assert_eq!(total("Wb Wg 1r 1w 1b"), 8);
        assert_eq!(cats("Wb Wg 1r 1w 1b"), vec![Category::ThreeOfAKind, Category::Pair, Category::Honours]);
    }

    #[test]
    fn flushes() {
        assert_eq!(cats("1b 3b 5b 7b Eb"), vec![Category::Flush, Category::Honours]);
        assert_eq!(total("1w 3w 5w 7w 9w"), 4);
        assert_eq!(total("1r 3r 5r 7r 9r"), 3);
        assert_eq!(total("1r 3r 5r 7r 9g"), 0);
    }

    #[test]
    fn four_of_a_kind_replaces_three_and_pair() {
        assert_eq!(cats("9b 9g 9r 9w 1b"), vec![Category::FourOfAKind]);
        assert_eq!(total("9b 9g 9r 9w 1b"), 10);
    }

    #[test]
    fn two_different_pairs_score_two_each() {
        assert_eq!(total("2b 2g 5r 5w 8b"), 4);
    }

    #[test]
    fn two_sparrows_are_a_pair_three_are_a_king_only() {
        assert_eq!(total("Q Q 1b 4g 7r"), 2);
        assert_eq!(cats("Q Q Q 1b 4g"), vec![Category::KingOfSparrows]);
    }

    #[test]
    fn daring_dragon_is_five_consecutive_numbers_any_colour() {
        assert_eq!(cats("2b 3g 4r 5w 6b"), vec![Category::DaringDragon]);
        assert_eq!(total("5b 6g 7r 8w 9b"), 6);
        assert_eq!(total("2b 3g 4r 5w 7b"), 0);
        // With the same colour it is also a flush.
        assert_eq!(total("2b 3b 4b 5b 6b"), 9);
    }

    #[test]
    fn honours_count_distinct_kinds() {
        assert_eq!(total("Eb 1g 2r 4w 7b"), 1);
        assert_eq!(total("Eb Sg 2r 4w 7b"), 3);
        assert_eq!(total("Eb Sg Rr 4w 7b"), 5);
        assert_eq!(total("Eb Sg Wr Rg 7b"), 9);
        // Q is not an honour.
        assert_eq!(total("Eb Q 2r 4w 7b"), 1);
        assert_eq!(total("Eb Q 2r 4w 7g"), 5, "with Elements");
    }

    #[test]
    fn all_winds_replaces_honours() {
        assert_eq!(cats("Eb Sg Wr Nb 7w"), vec![Category::AllWinds]);
        assert_eq!(total("Eb Sg Wr Nb 7w"), 12);
    }

    #[test]
    fn all_honours_replaces_honours_and_all_winds() {
        assert_eq!(total("Eb Sg Wr Nb Rw".replace("Rw", "Rg").as_str()), 16);
        // The seed's example: East, East, South, South, Red Dragon: two pairs too.
        assert_eq!(cats("Eb Eg Sb Sg Rr"), vec![Category::Pair, Category::Pair, Category::AllHonours]);
        assert_eq!(total("Eb Eg Sb Sg Rr"), 20);
    }

    #[test]
    fn winning_draw_adds_one() {
        assert_eq!(score(&cards("1b 3g 5r 7w 9b").unwrap(), true).total(), 1);
        assert_eq!(score(&cards("1b 3g 5r 7w 9b").unwrap(), false).total(), 0);
    }
}
