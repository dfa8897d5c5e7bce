//! Hungarian rules with every option resolved: the defaults are the seed's and RULINGS.md's, each
//! other common reading an option (docs/rules/hungarian.md, "Options").

use crate::log::{OptValue, Options};
use crate::SetupError;

/// How long a match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Length {
    /// A party: four games (prevailing wind East, South, West, North), each the deal going round
    /// the table once; East keeps the deal while winning.
    Party,
    /// One game: the deal goes round the table once.
    Game,
    /// The seed's "16 pontozott játék": sixteen scored hands, the deal passing after each, so
    /// that every player is East four times.
    Sixteen,
    /// One scored hand (void hands are dealt again first).
    Hand,
}

impl Length {
    pub const ALL: [Length; 4] = [Length::Party, Length::Game, Length::Sixteen, Length::Hand];

    pub fn name(self) -> &'static str {
        match self {
            Length::Party => "party",
            Length::Game => "game",
            Length::Sixteen => "sixteen",
            Length::Hand => "hand",
        }
    }
}

/// Who sits where at the start (seed, II.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seating {
    /// The dice fix East's place, the shuffled wind markers who sits at each place.
    Markers,
    /// "a hely kisorsolása teljesen el is maradhat": the players keep their places (seat order
    /// around the table) and the dice alone pick East.
    Dice,
}

/// Where the winds and dragons may be in a one-suit-with-honours hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HonoursIn {
    /// Anywhere: sets or pair.
    Any,
    /// Only in the pair ("Sárkánnyal, vagy Széllel zárva" read as the closing pair).
    Pair,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub length: Length,
    pub seating: Seating,
    /// Throws of two dice that count the stacks to the break: 2 (East's and the wall owner's,
    /// added) or 1 (East's alone).
    pub break_throws: u8,
    /// Losers settle their differences among themselves.
    pub losers_settle: bool,
    /// East winning is a doubling of the winner's score (the seed's table), on top of East paying
    /// and receiving double.
    pub east_wins_doubling: bool,
    pub honours_in: HonoursIn,
    /// Seven pairs may hold one kind twice (four of a kind as two pairs).
    pub seven_pairs_repeat: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            length: Length::Party,
            seating: Seating::Markers,
            break_throws: 2,
            losers_settle: true,
            east_wins_doubling: true,
            honours_in: HonoursIn::Any,
            seven_pairs_repeat: true,
        }
    }
}

/// Ruleset names: `standard` (a party), `game` (one game), `sixteen` (the seed's sixteen hands),
/// `hand` (one scored hand).
pub(super) const RULESETS: &[&str] = &["standard", "game", "sixteen", "hand"];

/// Every option name, in the order they are documented.
pub(super) const OPTIONS: &[&str] =
    &["length", "seating", "break_throws", "losers_settle", "east_wins_doubling", "honours_in", "seven_pairs_repeat"];

fn bad(key: &str, want: &str, got: &OptValue) -> SetupError {
    SetupError(format!("hungarian option {key} takes {want}, not {got}"))
}

impl Rules {
    pub fn named(name: &str) -> Option<Rules> {
        let length = match name {
            "standard" => Length::Party,
            "game" => Length::Game,
            "sixteen" => Length::Sixteen,
            "hand" => Length::Hand,
            _ => return None,
        };
        Some(Rules { length, ..Rules::default() })
    }

    /// Applies one option.
    pub fn set(&mut self, key: &str, value: &OptValue) -> Result<(), SetupError> {
        let flag = |v: &OptValue| match v {
            OptValue::Bool(b) => Ok(*b),
            other => Err(bad(key, "true or false", other)),
        };
        let text = |v: &OptValue, names: &[&str]| match v {
            OptValue::Text(t) if names.contains(&t.as_str()) => Ok(t.clone()),
            other => {
                let list: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
                Err(bad(key, &list.join(" or "), other))
            }
        };
        match key {
            "length" => {
                let names: Vec<&str> = Length::ALL.iter().map(|l| l.name()).collect();
                let t = text(value, &names)?;
                self.length = Length::ALL.into_iter().find(|l| l.name() == t).unwrap_or(Length::Party);
            }
            "seating" => {
                self.seating =
                    if text(value, &["markers", "dice"])? == "dice" { Seating::Dice } else { Seating::Markers }
            }
            "break_throws" => match value {
                OptValue::Int(n @ (1 | 2)) => self.break_throws = *n as u8,
                other => return Err(bad(key, "1 or 2", other)),
            },
            "losers_settle" => self.losers_settle = flag(value)?,
            "east_wins_doubling" => self.east_wins_doubling = flag(value)?,
            "honours_in" => {
                self.honours_in =
                    if text(value, &["any", "pair"])? == "pair" { HonoursIn::Pair } else { HonoursIn::Any }
            }
            "seven_pairs_repeat" => self.seven_pairs_repeat = flag(value)?,
            other => {
                return Err(SetupError(format!("unknown hungarian option {other:?}; known: {}", OPTIONS.join(", "))));
            }
        }
        Ok(())
    }

    pub fn from_options(ruleset: &str, options: &Options) -> Result<Rules, SetupError> {
        let mut r = Rules::named(ruleset).ok_or_else(|| {
            SetupError(format!("unknown hungarian ruleset {ruleset:?}; known: {}", RULESETS.join(", ")))
        })?;
        for (k, v) in options {
            r.set(k, v)?;
        }
        Ok(r)
    }

    pub fn to_options(&self) -> Options {
        let mut o = Options::new();
        let mut put = |k: &str, v: OptValue| {
            o.insert(k.to_owned(), v);
        };
        put("length", OptValue::Text(self.length.name().into()));
        put(
            "seating",
            OptValue::Text(match self.seating {
                Seating::Markers => "markers".into(),
                Seating::Dice => "dice".into(),
            }),
        );
        put("break_throws", OptValue::Int(i64::from(self.break_throws)));
        put("losers_settle", OptValue::Bool(self.losers_settle));
        put("east_wins_doubling", OptValue::Bool(self.east_wins_doubling));
        put(
            "honours_in",
            OptValue::Text(match self.honours_in {
                HonoursIn::Any => "any".into(),
                HonoursIn::Pair => "pair".into(),
            }),
        );
        put("seven_pairs_repeat", OptValue::Bool(self.seven_pairs_repeat));
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_round_trip_and_errors() {
        let r = Rules {
            length: Length::Sixteen,
            seating: Seating::Dice,
            break_throws: 1,
            losers_settle: false,
            east_wins_doubling: false,
            honours_in: HonoursIn::Pair,
            seven_pairs_repeat: false,
        };
        assert_eq!(Rules::from_options("standard", &r.to_options()).unwrap(), r);
        assert_eq!(Rules::from_options("standard", &Options::new()).unwrap(), Rules::default());
        for (name, length) in
            [("standard", Length::Party), ("game", Length::Game), ("sixteen", Length::Sixteen), ("hand", Length::Hand)]
        {
            assert_eq!(Rules::from_options(name, &Options::new()).unwrap().length, length);
        }
        let e = Rules::from_options("modern", &Options::new()).unwrap_err();
        assert!(e.0.contains("unknown hungarian ruleset \"modern\""), "{e}");
        for (k, v, want) in [
            ("length", OptValue::Text("forever".into()), "\"party\" or \"game\""),
            ("length", OptValue::Int(4), "length takes"),
            ("seating", OptValue::Bool(true), "\"markers\" or \"dice\""),
            ("break_throws", OptValue::Int(3), "1 or 2"),
            ("losers_settle", OptValue::Int(1), "true or false"),
            ("honours_in", OptValue::Text("sets".into()), "\"any\" or \"pair\""),
            ("dead_wall", OptValue::Int(14), "unknown hungarian option \"dead_wall\""),
        ] {
            let mut o = Options::new();
            o.insert(k.into(), v);
            let e = Rules::from_options("standard", &o).unwrap_err();
            assert!(e.0.contains(want), "{k}: {e}");
        }
    }
}
