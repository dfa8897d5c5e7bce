//! The MCR ruleset and its options (docs/rules/mcr.md, "Options").

use super::score::ScoreRules;
use crate::log::{OptValue, Options};
use crate::{GameKind, SetupError};

/// Where the tiles are drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WallKind {
    /// One wall around the table, broken by the dice (MCR, the seed).
    Shared,
    /// Each seat draws only from its own 34-tile wall, replacements too (Botzone's duplicate
    /// format): a hand ends when the seat to draw has none left.
    PerSeat,
}

/// The rules in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Play with the eight flowers and seasons (144 tiles); `false`: 136 tiles.
    pub flowers: bool,
    /// Hands in the match: 16 (four rounds of four); fewer for records of single hands.
    pub hands: u32,
    pub wall: WallKind,
    pub score: ScoreRules,
    /// The prevalent wind of the first hand, 0 East .. 3 North (0 for a match; records of a
    /// single hand of another round set it).
    pub prevalent_wind: u8,
    /// The points a player who falsely declares a win (诈和, `incident false_win`) pays each
    /// other player; play goes on (docs/rules/mcr.md, "Incidents"). 0: recorded, no payment.
    pub false_win: i64,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            flowers: true,
            hands: 16,
            wall: WallKind::Shared,
            score: ScoreRules::default(),
            prevalent_wind: 0,
            false_win: 10,
        }
    }
}

const KIND: GameKind = GameKind::Mcr;

impl Rules {
    /// The rules of a ruleset name and options: `standard` (the defaults) or `botzone` (136
    /// tiles, walls per seat, one hand, one concealed and one melded kong worth 5).
    pub fn from_options(ruleset: &str, options: &Options) -> Result<Rules, SetupError> {
        let mut r = match ruleset {
            "standard" => Rules::default(),
            "botzone" => Rules::botzone(),
            other => {
                return Err(SetupError(format!("mcr has no ruleset {other:?}; it has standard and botzone")));
            }
        };
        for (k, v) in options {
            r.set(k, v)?;
        }
        Ok(r)
    }

    /// Botzone's Chinese Standard Mahjong records.
    pub fn botzone() -> Rules {
        Rules {
            flowers: false,
            hands: 1,
            wall: WallKind::PerSeat,
            score: ScoreRules { concealed_and_melded_kong: 5 },
            prevalent_wind: 0,
            false_win: 10,
        }
    }

    /// Sets one option; an unknown option or a bad value is an error that names it.
    pub fn set(&mut self, key: &str, v: &OptValue) -> Result<(), SetupError> {
        match key {
            "flowers" => self.flowers = v.as_bool(KIND, key)?,
            "hands" => {
                let n = v.as_int(KIND, key)?;
                if !(1..=16).contains(&n) {
                    return Err(SetupError(format!("mcr option hands takes 1 to 16, not {n}")));
                }
                self.hands = n as u32;
            }
            "wall" => {
                self.wall = match v {
                    OptValue::Text(t) if t == "shared" => WallKind::Shared,
                    OptValue::Text(t) if t == "per_seat" => WallKind::PerSeat,
                    other => {
                        return Err(SetupError(format!(
                            "mcr option wall takes \"shared\" or \"per_seat\", not {other}"
                        )))
                    }
                }
            }
            "concealed_and_melded_kong" => {
                let n = v.as_int(KIND, key)?;
                if !(0..=88).contains(&n) {
                    return Err(SetupError(format!("mcr option concealed_and_melded_kong takes 0 to 88, not {n}")));
                }
                self.score.concealed_and_melded_kong = n as u8;
            }
            "prevalent_wind" => {
                let n = v.as_int(KIND, key)?;
                if !(0..=3).contains(&n) {
                    return Err(SetupError(format!(
                        "mcr option prevalent_wind takes 0 (East) to 3 (North), not {n}"
                    )));
                }
                self.prevalent_wind = n as u8;
            }
            "false_win" => {
                let n = v.as_int(KIND, key)?;
                if !(0..=1000).contains(&n) {
                    return Err(SetupError(format!("mcr option false_win takes 0 to 1000 points, not {n}")));
                }
                self.false_win = n;
            }
            other => {
                return Err(SetupError(format!(
                    "mcr has no option {other:?}; its options: flowers, hands, wall, concealed_and_melded_kong, prevalent_wind, false_win"
                )))
            }
        }
        Ok(())
    }

    /// The options that describe these rules over the standard ruleset.
    pub fn to_options(&self) -> Options {
        let d = Rules::default();
        let mut o = Options::new();
        if self.flowers != d.flowers {
            o.insert("flowers".into(), OptValue::Bool(self.flowers));
        }
        if self.hands != d.hands {
            o.insert("hands".into(), OptValue::Int(i64::from(self.hands)));
        }
        if self.wall != d.wall {
            o.insert("wall".into(), OptValue::Text("per_seat".into()));
        }
        if self.score != d.score {
            o.insert(
                "concealed_and_melded_kong".into(),
                OptValue::Int(i64::from(self.score.concealed_and_melded_kong)),
            );
        }
        if self.prevalent_wind != d.prevalent_wind {
            o.insert("prevalent_wind".into(), OptValue::Int(i64::from(self.prevalent_wind)));
        }
        if self.false_win != d.false_win {
            o.insert("false_win".into(), OptValue::Int(self.false_win));
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_round_trip_and_bad_ones_are_named() {
        let b = Rules::botzone();
        assert_eq!(Rules::from_options("standard", &b.to_options()).unwrap(), b);
        assert_eq!(Rules::from_options("botzone", &Options::new()).unwrap(), b);
        assert!(Rules::default().to_options().is_empty());
        let bad =
            |k: &str, v: OptValue| Rules::from_options("standard", &Options::from([(k.to_string(), v)])).unwrap_err().0;
        assert!(bad("hands", OptValue::Int(17)).contains("1 to 16"));
        assert!(bad("prevalent_wind", OptValue::Int(4)).contains("0 (East) to 3 (North)"));
        let south = Rules { prevalent_wind: 1, ..Rules::botzone() };
        assert_eq!(Rules::from_options("standard", &south.to_options()).unwrap(), south);
        assert!(bad("wall", OptValue::Text("round".into())).contains("per_seat"));
        assert!(bad("false_win", OptValue::Int(-1)).contains("0 to 1000"));
        let lenient = Rules { false_win: 0, ..Rules::default() };
        assert_eq!(Rules::from_options("standard", &lenient.to_options()).unwrap(), lenient);
        assert!(bad("flowers", OptValue::Int(1)).contains("true or false"));
        assert!(bad("riichi", OptValue::Bool(true)).contains("no option \"riichi\""));
        assert!(Rules::from_options("hk", &Options::new()).unwrap_err().0.contains("no ruleset"));
    }
}
