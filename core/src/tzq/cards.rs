//! Tien Zi Que cards: kinds, colour codes, notation, and the deck (from data/tzq-deck.txt).

use crate::log::NotationError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// What a card is, apart from its colour code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A number card, 1 to 9.
    Number(u8),
    /// A wind: 0 East, 1 South, 2 West, 3 North.
    Wind(u8),
    /// The Red Dragon.
    Dragon,
    /// Tien Zi Que, the Sparrow (joker in sets).
    Sparrow,
}

impl Kind {
    fn index(self) -> u8 {
        match self {
            Kind::Number(n) => n - 1,
            Kind::Wind(w) => 9 + w,
            Kind::Dragon => 13,
            Kind::Sparrow => 14,
        }
    }

    fn from_index(i: u8) -> Option<Kind> {
        Some(match i {
            0..=8 => Kind::Number(i + 1),
            9..=12 => Kind::Wind(i - 9),
            13 => Kind::Dragon,
            14 => Kind::Sparrow,
            _ => return None,
        })
    }

    /// Winds and the Red Dragon are honours; the Sparrow is not.
    pub(crate) fn is_honour(self) -> bool {
        matches!(self, Kind::Wind(_) | Kind::Dragon)
    }

    pub(crate) fn symbol(self) -> char {
        match self {
            Kind::Number(n) => char::from(b'0' + n),
            Kind::Wind(w) => ['E', 'S', 'W', 'N'][usize::from(w & 3)],
            Kind::Dragon => 'R',
            Kind::Sparrow => 'Q',
        }
    }

    pub fn name(self) -> String {
        match self {
            Kind::Number(n) => n.to_string(),
            Kind::Wind(w) => ["East", "South", "West", "North"][usize::from(w & 3)].to_owned(),
            Kind::Dragon => "Red Dragon".to_owned(),
            Kind::Sparrow => "Sparrow".to_owned(),
        }
    }

    fn from_symbol(c: char) -> Option<Kind> {
        Some(match c {
            '1'..='9' => Kind::Number(c as u8 - b'0'),
            'E' => Kind::Wind(0),
            'S' => Kind::Wind(1),
            'W' => Kind::Wind(2),
            'N' => Kind::Wind(3),
            'R' => Kind::Dragon,
            'Q' => Kind::Sparrow,
            _ => return None,
        })
    }
}

/// A colour code, printed in the card's corner and used only for scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    Blue,
    Green,
    Red,
    White,
    Black,
}

impl Colour {
    pub const ALL: [Colour; 5] = [Colour::Blue, Colour::Green, Colour::Red, Colour::White, Colour::Black];

    pub fn letter(self) -> char {
        match self {
            Colour::Blue => 'b',
            Colour::Green => 'g',
            Colour::Red => 'r',
            Colour::White => 'w',
            Colour::Black => 'k',
        }
    }

    fn from_letter(c: char) -> Option<Colour> {
        Colour::ALL.into_iter().find(|x| x.letter() == c)
    }
}

/// One card: a kind and a colour code, packed in a byte (`kind * 5 + colour`).
///
/// Notation: the kind's symbol and the colour letter, `5b`, `Eg`, `Rr`; the Sparrow is `Q`
/// (all three Sparrows are alike; `Qk` is read too).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Card(u8);

impl Card {
    pub fn new(kind: Kind, colour: Colour) -> Card {
        Card(kind.index() * 5 + colour as u8)
    }

    pub fn kind(self) -> Kind {
        Kind::from_index(self.0 / 5).unwrap_or(Kind::Sparrow)
    }

    pub fn colour(self) -> Colour {
        Colour::ALL[usize::from(self.0 % 5)]
    }

    /// Whether the deck (data/tzq-deck.txt) has a card of this kind and colour.
    pub(crate) fn in_deck(self) -> bool {
        standard_deck().is_ok_and(|d| d.contains(&self))
    }

    pub fn is_sparrow(self) -> bool {
        self.kind() == Kind::Sparrow
    }

    pub fn number(self) -> Option<u8> {
        match self.kind() {
            Kind::Number(n) => Some(n),
            _ => None,
        }
    }
}

impl From<Card> for u8 {
    fn from(c: Card) -> u8 {
        c.0
    }
}

/// A byte that is not the code of a card in the deck (a binary log's byte out of range).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not the code of a card in the deck")]
pub struct CardCodeError(pub u8);

impl TryFrom<u8> for Card {
    type Error = CardCodeError;
    /// Only the codes of cards in the deck (data/tzq-deck.txt) are cards.
    fn try_from(b: u8) -> Result<Card, CardCodeError> {
        let c = Card(b);
        if b < 75 && c.in_deck() {
            Ok(c)
        } else {
            Err(CardCodeError(b))
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_sparrow() {
            f.write_str("Q")
        } else {
            write!(f, "{}{}", self.kind().symbol(), self.colour().letter())
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Card {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Card, NotationError> {
        let bad = || {
            NotationError(format!(
                "{s:?} is not a card: write a number 1-9, a wind E/S/W/N or R (Red Dragon) followed by a colour b/g/r/w, or Q for a Sparrow"
            ))
        };
        let mut ch = s.chars();
        let kind = ch.next().and_then(Kind::from_symbol).ok_or_else(bad)?;
        let colour = match (kind, ch.next()) {
            (Kind::Sparrow, None) | (Kind::Sparrow, Some('k')) => Colour::Black,
            (Kind::Sparrow, Some(_)) => return Err(bad()),
            (_, Some(c)) => Colour::from_letter(c).filter(|&c| c != Colour::Black).ok_or_else(bad)?,
            (_, None) => return Err(bad()),
        };
        if ch.next().is_some() {
            return Err(bad());
        }
        let card = Card::new(kind, colour);
        if !card.in_deck() {
            return Err(NotationError(format!(
                "{s:?} is not a card of the deck (see data/tzq-deck.txt for its colour codes)"
            )));
        }
        Ok(card)
    }
}

/// Cards from space-separated notation, for tests and tools: `cards("3b 4g Q")`.
pub fn cards(s: &str) -> Result<Vec<Card>, NotationError> {
    s.split_whitespace().map(str::parse).collect()
}

/// A card from notation, checked at compile time by the test that uses it: `c!(5b)`, `c!(Q)`.
#[macro_export]
macro_rules! c {
    ($t:tt) => {
        <$crate::tzq::Card as ::std::str::FromStr>::from_str(stringify!($t)).expect("card notation")
    };
}

/// The deck file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("data/tzq-deck.txt line {line}: {message}")]
pub struct DeckError {
    pub line: usize,
    pub message: String,
}

/// Parses a deck description in the format of data/tzq-deck.txt.
pub(crate) fn parse_deck(text: &str) -> Result<Vec<Card>, DeckError> {
    let mut deck = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |message: String| DeckError { line: i + 1, message };
        let mut words = line.split_whitespace();
        let kind_word = words.next().unwrap_or("");
        let mut kc = kind_word.chars();
        let kind = match (kc.next().and_then(Kind::from_symbol), kc.next()) {
            (Some(k), None) => k,
            _ => return Err(err(format!("{kind_word:?} is not a card kind"))),
        };
        for w in words {
            let mut wc = w.chars();
            let colour = match (wc.next().and_then(Colour::from_letter), wc.next()) {
                (Some(c), None) => c,
                _ => return Err(err(format!("{w:?} is not a colour code"))),
            };
            deck.push(Card::new(kind, colour));
        }
    }
    if deck.len() < 20 {
        return Err(DeckError { line: 0, message: format!("the deck has only {} cards", deck.len()) });
    }
    Ok(deck)
}

/// The standard 54-card deck, in data order.
pub fn standard_deck() -> Result<&'static [Card], DeckError> {
    static DECK: OnceLock<Result<Vec<Card>, DeckError>> = OnceLock::new();
    DECK.get_or_init(|| parse_deck(include_str!("../../data/tzq-deck.txt")))
        .as_ref()
        .map(|v| v.as_slice())
        .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_has_54_cards_with_the_ruled_colour_counts() {
        let deck = standard_deck().unwrap();
        assert_eq!(deck.len(), 54);
        let count = |c: Colour| deck.iter().filter(|x| x.colour() == c).count();
        assert_eq!(
            [count(Colour::Blue), count(Colour::Green), count(Colour::Red), count(Colour::White), count(Colour::Black)],
            [14, 14, 14, 9, 3]
        );
        assert_eq!(deck.iter().filter(|c| c.number().is_some()).count(), 36);
        assert_eq!(deck.iter().filter(|c| matches!(c.kind(), Kind::Wind(_))).count(), 12);
        assert_eq!(deck.iter().filter(|c| c.kind() == Kind::Dragon).count(), 3);
        assert_eq!(deck.iter().filter(|c| c.is_sparrow()).count(), 3);
    }

    #[test]
    fn notation_round_trips_every_card() {
        for &c in standard_deck().unwrap() {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        assert_eq!("Qk".parse::<Card>().unwrap(), c!(Q));
        for bad in ["", "0b", "5", "5k", "Ek", "Ew", "Rw", "Qb", "5bb", "X", "10b"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn exactly_the_deck_codes_are_cards() {
        let deck = standard_deck().unwrap();
        let mut valid = 0;
        for b in 0..=255u8 {
            match Card::try_from(b) {
                Ok(c) => {
                    valid += 1;
                    assert!(deck.contains(&c));
                    assert_eq!(c.to_string().parse::<Card>().unwrap(), c, "code {b}");
                }
                Err(_) => assert!(!deck.contains(&Card(b))),
            }
        }
        // 36 numbers, 12 winds, 3 dragons and one Sparrow code.
        assert_eq!(valid, 52);
    }

    #[test]
    fn bad_deck_lines_are_reported_with_their_line() {
        assert_eq!(parse_deck("1 b\nZ b").unwrap_err().line, 2);
        assert_eq!(parse_deck("1 x").unwrap_err().line, 1);
    }
}
