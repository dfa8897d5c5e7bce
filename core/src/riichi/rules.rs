//! Riichi rules with every option resolved. Defaults are Tenhou's ranked rules (RULINGS.md);
//! every local rule the seed lists is an option (see docs/rules/riichi.md).

use crate::log::{OptValue, Options};
use crate::SetupError;

/// How a blessing of man (a win on a discard before one's first draw) is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Renhou {
    Off,
    Mangan,
    Yakuman,
}

impl Renhou {
    pub fn name(self) -> &'static str {
        match self {
            Renhou::Off => "off",
            Renhou::Mangan => "mangan",
            Renhou::Yakuman => "yakuman",
        }
    }
}

/// What a chombo (`incident chombo`) costs the offender; either way the hand is annulled and
/// dealt again (docs/rules/riichi.md, "Incidents").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chombo {
    /// A reverse mangan: a non-dealer pays 4000 to the dealer and 2000 to each other player, the
    /// dealer 4000 to each.
    Mangan,
    /// Recorded, no payment.
    Off,
}

impl Chombo {
    pub fn name(self) -> &'static str {
        match self {
            Chombo::Mangan => "mangan",
            Chombo::Off => "none",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Red fives: 0, 3 (one each of 0m 0p 0s) or 4 (two 0p).
    pub red_fives: u8,
    /// Kuitan: open tanyao counts.
    pub kuitan: bool,
    /// Atozuke: a yakuhai set made by a call counts whenever it was called; off (sakizuke) it
    /// counts only when it was the hand's first call.
    pub atozuke: bool,
    /// Pinfu with menzen tsumo (20 fu); off, a tsumo hand is not pinfu.
    pub tsumo_pinfu: bool,
    pub ura_dora: bool,
    pub kan_dora: bool,
    pub kan_ura_dora: bool,
    /// Keishiki tenpai: a tenpai hand without a yaku counts as tenpai at an exhaustive draw.
    pub keishiki_tenpai: bool,
    /// No-ten penalty: 3000 from the no-ten to the tenpai players at an exhaustive draw.
    pub noten_penalty: bool,
    /// No-ten oyanagare: the dealer keeps the seat after an exhaustive draw only when tenpai;
    /// off, the dealer always passes after an exhaustive draw.
    pub noten_oyanagare: bool,
    /// Sanmanten: instead of uma, the fourth pays the first and the third the second their
    /// difference.
    pub sanmanten: bool,
    /// Game length in wind rounds: 1 (East only), 2 (East+South), 4 (East to North).
    pub length: u8,
    /// Sha-nyuu: when nobody has the return points after the last round, play on into the next
    /// wind (sudden death).
    pub extension: bool,
    /// Kiriage mangan: 4 han 30 fu and 3 han 60 fu are mangan.
    pub kiriage_mangan: bool,
    /// Renfuu: a pair of the wind that is both the seat and the round wind is 4 fu (off: 2).
    pub renfuu_4fu: bool,
    /// Rinshan liability: a win on the replacement tile of an open kan is paid by the seat
    /// whose discard was called for that kan, as a ron.
    pub rinshan_pao: bool,
    /// Naki-pinfu: an open hand with no fu beyond the base counts 30 fu (off: 20).
    pub naki_pinfu_30: bool,
    pub renhou: Renhou,
    /// The chombo penalty.
    pub chombo: Chombo,
    /// Liability (pao) for big three dragons / big four winds.
    pub pao_daisangen: bool,
    pub pao_daisuushii: bool,
    /// Several players may win on one discard; off, the first in turn order after the
    /// discarder wins alone (head bump).
    pub double_ron: bool,
    /// Three rons on one discard end the hand in an abortive draw.
    pub triple_ron_abort: bool,
    /// The abortive draws: nine terminals, four winds, four riichi, four kans.
    pub abortive_draws: bool,
    pub nagashi_mangan: bool,
    /// 13 han or more is a (counted) yakuman; off, sanbaiman.
    pub kazoe_yakuman: bool,
    /// Suuankou tanki, kokushi 13-wait, junsei chuuren and daisuushii count double.
    pub double_yakuman: bool,
    pub start_points: i64,
    pub return_points: i64,
    /// Uma by rank, in thousands.
    pub uma: [i64; 4],
    /// The game ends when a player goes below zero.
    pub bust: bool,
    /// Agari-yame: the game ends when the dealer of the last round wins and is then first
    /// with at least the return points.
    pub agari_yame: bool,
    /// An excerpt of an unknown game (options `excerpt`, `start_hand`, `start_honba`,
    /// `start_sticks`, `start_scores`): the hand it starts at and the state stated for it. `None`:
    /// a whole game, from East 1 with the start points.
    pub excerpt: Option<ExcerptStart>,
}

/// Where an excerpt starts: the hand, the counters and the scores its record states.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ExcerptStart {
    /// 0 East, 1 South, 2 West, 3 North.
    pub round_wind: u8,
    /// 0-3: the dealer is seat `kyoku`.
    pub kyoku: u8,
    pub honba: u32,
    /// Riichi sticks on the table.
    pub sticks: u32,
    /// Each seat's points; `None`: the start points.
    pub scores: Option<[i64; 4]>,
}

/// The winds' letters, East first.
pub(crate) const WINDS: [char; 4] = ['E', 'S', 'W', 'N'];

/// A hand as `start_hand` names it: `E1` to `N4`.
pub(crate) fn hand_code(round_wind: u8, kyoku: u8) -> String {
    format!("{}{}", WINDS[usize::from(round_wind & 3)], (kyoku & 3) + 1)
}

fn parse_hand_code(t: &str) -> Option<(u8, u8)> {
    let mut c = t.chars();
    let first = c.next()?;
    let wind = WINDS.iter().position(|&w| w == first)?;
    let n = c.next()?.to_digit(10).filter(|n| (1..=4).contains(n))?;
    c.next().is_none().then_some((wind as u8, n as u8 - 1))
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            red_fives: 3,
            kuitan: true,
            atozuke: true,
            tsumo_pinfu: true,
            ura_dora: true,
            kan_dora: true,
            kan_ura_dora: true,
            keishiki_tenpai: true,
            noten_penalty: true,
            noten_oyanagare: true,
            sanmanten: false,
            length: 2,
            extension: true,
            kiriage_mangan: false,
            renfuu_4fu: true,
            rinshan_pao: false,
            naki_pinfu_30: true,
            renhou: Renhou::Off,
            chombo: Chombo::Mangan,
            pao_daisangen: true,
            pao_daisuushii: true,
            double_ron: true,
            triple_ron_abort: true,
            abortive_draws: true,
            nagashi_mangan: true,
            kazoe_yakuman: true,
            double_yakuman: false,
            start_points: 25000,
            return_points: 30000,
            uma: [20, 10, -10, -20],
            bust: true,
            agari_yame: true,
            excerpt: None,
        }
    }
}

/// Ruleset names: `standard` and its alias `tenhou` (Tenhou ranked rules), `tonpuu` (the same,
/// East only).
pub(crate) const RULESETS: &[&str] = &["standard", "tenhou", "tonpuu"];

/// Every option name, in the order they are documented.
pub(crate) const OPTIONS: &[&str] = &[
    "red_fives",
    "kuitan",
    "atozuke",
    "tsumo_pinfu",
    "ura_dora",
    "kan_dora",
    "kan_ura_dora",
    "keishiki_tenpai",
    "noten_penalty",
    "noten_oyanagare",
    "sanmanten",
    "length",
    "sha_nyuu",
    "kiriage_mangan",
    "renfuu_4fu",
    "rinshan_pao",
    "naki_pinfu_30",
    "renhou",
    "chombo",
    "pao_daisangen",
    "pao_daisuushii",
    "double_ron",
    "triple_ron_abort",
    "abortive_draws",
    "nagashi_mangan",
    "kazoe_yakuman",
    "double_yakuman",
    "start_points",
    "return_points",
    "uma",
    "bust",
    "agari_yame",
    "excerpt",
    "start_hand",
    "start_honba",
    "start_sticks",
    "start_scores",
];

fn bad(key: &str, want: &str, got: &OptValue) -> SetupError {
    SetupError(format!("riichi option {key} takes {want}, not {got}"))
}

impl Rules {
    /// How a game's final points are counted from its final scores under these rules, in words
    /// (the standings show it): the return points, the oka to the top, the uma or sanmanten.
    pub fn final_points_terms(&self) -> String {
        let oka = (self.return_points - self.start_points) * 4;
        let thousands = |v: i64| {
            let s = format!("{:+.1}", v as f64 / 1000.0);
            s.strip_suffix(".0").map_or(s.clone(), str::to_owned)
        };
        let uma = if self.sanmanten {
            "sanmanten (no uma: the fourth pays the first, the third the second, their difference)".to_owned()
        } else {
            format!("uma {}", self.uma.iter().map(|u| format!("{u:+}")).collect::<Vec<_>>().join("/"))
        };
        format!(
            "start {}, return {}, oka {} to the first, {uma}",
            self.start_points,
            self.return_points,
            thousands(oka)
        )
    }

    pub fn named(name: &str) -> Option<Rules> {
        match name {
            "standard" | "tenhou" => Some(Rules::default()),
            "tonpuu" => Some(Rules { length: 1, ..Rules::default() }),
            _ => None,
        }
    }

    /// Applies one option.
    pub fn set(&mut self, key: &str, value: &OptValue) -> Result<(), SetupError> {
        let flag = |v: &OptValue| match v {
            OptValue::Bool(b) => Ok(*b),
            other => Err(bad(key, "true or false", other)),
        };
        let int = |v: &OptValue| match v {
            OptValue::Int(i) => Ok(*i),
            other => Err(bad(key, "an integer", other)),
        };
        match key {
            "red_fives" => {
                let n = int(value)?;
                if ![0, 3, 4].contains(&n) {
                    return Err(bad(key, "0, 3 or 4", value));
                }
                self.red_fives = n as u8;
            }
            "kuitan" => self.kuitan = flag(value)?,
            "atozuke" => self.atozuke = flag(value)?,
            "tsumo_pinfu" => self.tsumo_pinfu = flag(value)?,
            "ura_dora" => self.ura_dora = flag(value)?,
            "kan_dora" => self.kan_dora = flag(value)?,
            "kan_ura_dora" => self.kan_ura_dora = flag(value)?,
            "keishiki_tenpai" => self.keishiki_tenpai = flag(value)?,
            "noten_penalty" => self.noten_penalty = flag(value)?,
            "noten_oyanagare" => self.noten_oyanagare = flag(value)?,
            "sanmanten" => self.sanmanten = flag(value)?,
            "length" => {
                let n = int(value)?;
                if ![1, 2, 4].contains(&n) {
                    return Err(bad(key, "1 (East), 2 (East+South) or 4 (all winds)", value));
                }
                self.length = n as u8;
            }
            "sha_nyuu" => self.extension = flag(value)?,
            "kiriage_mangan" => self.kiriage_mangan = flag(value)?,
            "renfuu_4fu" => self.renfuu_4fu = flag(value)?,
            "rinshan_pao" => self.rinshan_pao = flag(value)?,
            "naki_pinfu_30" => self.naki_pinfu_30 = flag(value)?,
            "renhou" => {
                self.renhou = match value {
                    OptValue::Text(t) if t == "off" => Renhou::Off,
                    OptValue::Text(t) if t == "mangan" => Renhou::Mangan,
                    OptValue::Text(t) if t == "yakuman" => Renhou::Yakuman,
                    other => return Err(bad(key, "\"off\", \"mangan\" or \"yakuman\"", other)),
                }
            }
            "chombo" => {
                self.chombo = match value {
                    OptValue::Text(t) if t == "mangan" => Chombo::Mangan,
                    OptValue::Text(t) if t == "none" => Chombo::Off,
                    other => return Err(bad(key, "\"mangan\" or \"none\"", other)),
                }
            }
            "pao_daisangen" => self.pao_daisangen = flag(value)?,
            "pao_daisuushii" => self.pao_daisuushii = flag(value)?,
            "double_ron" => self.double_ron = flag(value)?,
            "triple_ron_abort" => self.triple_ron_abort = flag(value)?,
            "abortive_draws" => self.abortive_draws = flag(value)?,
            "nagashi_mangan" => self.nagashi_mangan = flag(value)?,
            "kazoe_yakuman" => self.kazoe_yakuman = flag(value)?,
            "double_yakuman" => self.double_yakuman = flag(value)?,
            "start_points" => {
                let n = int(value)?;
                if !(100..=1_000_000).contains(&n) || n % 100 != 0 {
                    return Err(bad(key, "a multiple of 100 from 100 to 1000000", value));
                }
                self.start_points = n;
            }
            "return_points" => {
                let n = int(value)?;
                if !(0..=1_000_000).contains(&n) || n % 100 != 0 {
                    return Err(bad(key, "a multiple of 100 from 0 to 1000000", value));
                }
                self.return_points = n;
            }
            "uma" => {
                let OptValue::Text(t) = value else { return Err(bad(key, "text like \"20,10,-10,-20\"", value)) };
                let parts: Vec<Option<i64>> = t.split(',').map(|p| p.trim().parse::<i64>().ok()).collect();
                if parts.len() != 4 || parts.iter().any(|p| p.is_none_or(|v| v.abs() > 1000)) {
                    return Err(bad(key, "four integers (thousands) like \"20,10,-10,-20\"", value));
                }
                for (i, p) in parts.into_iter().enumerate() {
                    self.uma[i] = p.unwrap_or(0);
                }
            }
            "bust" => self.bust = flag(value)?,
            "agari_yame" => self.agari_yame = flag(value)?,
            "excerpt" => {
                if flag(value)? {
                    self.excerpt.get_or_insert_with(ExcerptStart::default);
                } else {
                    self.excerpt = None;
                }
            }
            "start_hand" => {
                let hand = match value {
                    OptValue::Text(t) => parse_hand_code(t),
                    _ => None,
                };
                let Some((w, k)) = hand else {
                    return Err(bad(key, "a hand like \"S2\" (E, S, W or N and 1-4)", value));
                };
                let e = self.excerpt.get_or_insert_with(ExcerptStart::default);
                (e.round_wind, e.kyoku) = (w, k);
            }
            "start_honba" | "start_sticks" => {
                let n = int(value)?;
                if !(0..=1000).contains(&n) {
                    return Err(bad(key, "an integer from 0 to 1000", value));
                }
                let e = self.excerpt.get_or_insert_with(ExcerptStart::default);
                *(if key == "start_honba" { &mut e.honba } else { &mut e.sticks }) = n as u32;
            }
            "start_scores" => {
                let OptValue::Text(t) = value else {
                    return Err(bad(key, "text like \"25000,25000,25000,25000\"", value));
                };
                let parts: Vec<Option<i64>> = t.split(',').map(|p| p.trim().parse::<i64>().ok()).collect();
                if parts.len() != 4 || parts.iter().any(|p| p.is_none_or(|v| v.abs() > 10_000_000)) {
                    return Err(bad(key, "four integers (points) like \"25000,25000,25000,25000\"", value));
                }
                let mut scores = [0; 4];
                for (s, p) in scores.iter_mut().zip(parts) {
                    *s = p.unwrap_or(0);
                }
                self.excerpt.get_or_insert_with(ExcerptStart::default).scores = Some(scores);
            }
            other => {
                return Err(SetupError(format!("unknown riichi option {other:?}; known: {}", OPTIONS.join(", "))));
            }
        }
        Ok(())
    }

    pub(crate) fn from_options(ruleset: &str, options: &Options) -> Result<Rules, SetupError> {
        let mut r = Rules::named(ruleset)
            .ok_or_else(|| SetupError(format!("unknown riichi ruleset {ruleset:?}; known: {}", RULESETS.join(", "))))?;
        for (k, v) in options {
            r.set(k, v)?;
        }
        // The start options describe an excerpt, which the log must say it is.
        if r.excerpt.is_some() && options.get("excerpt") != Some(&OptValue::Bool(true)) {
            return Err(SetupError(
                "riichi options start_hand, start_honba, start_sticks and start_scores state where an excerpt \
                 starts: they need the option excerpt: true"
                    .into(),
            ));
        }
        Ok(r)
    }

    pub(crate) fn to_options(&self) -> Options {
        let mut o = Options::new();
        let mut b = |k: &str, v: bool| {
            o.insert(k.to_owned(), OptValue::Bool(v));
        };
        b("kuitan", self.kuitan);
        b("atozuke", self.atozuke);
        b("tsumo_pinfu", self.tsumo_pinfu);
        b("ura_dora", self.ura_dora);
        b("kan_dora", self.kan_dora);
        b("kan_ura_dora", self.kan_ura_dora);
        b("keishiki_tenpai", self.keishiki_tenpai);
        b("noten_penalty", self.noten_penalty);
        b("noten_oyanagare", self.noten_oyanagare);
        b("sanmanten", self.sanmanten);
        b("sha_nyuu", self.extension);
        b("kiriage_mangan", self.kiriage_mangan);
        b("renfuu_4fu", self.renfuu_4fu);
        b("rinshan_pao", self.rinshan_pao);
        b("naki_pinfu_30", self.naki_pinfu_30);
        b("pao_daisangen", self.pao_daisangen);
        b("pao_daisuushii", self.pao_daisuushii);
        b("double_ron", self.double_ron);
        b("triple_ron_abort", self.triple_ron_abort);
        b("abortive_draws", self.abortive_draws);
        b("nagashi_mangan", self.nagashi_mangan);
        b("kazoe_yakuman", self.kazoe_yakuman);
        b("double_yakuman", self.double_yakuman);
        b("bust", self.bust);
        b("agari_yame", self.agari_yame);
        o.insert("red_fives".into(), OptValue::Int(i64::from(self.red_fives)));
        o.insert("length".into(), OptValue::Int(i64::from(self.length)));
        o.insert("start_points".into(), OptValue::Int(self.start_points));
        o.insert("return_points".into(), OptValue::Int(self.return_points));
        o.insert("renhou".into(), OptValue::Text(self.renhou.name().into()));
        // Written only when it differs from the default, so that the headers of earlier logs
        // (imported ones are re-derived and compared) stay as they were.
        if self.chombo != Chombo::Mangan {
            o.insert("chombo".into(), OptValue::Text(self.chombo.name().into()));
        }
        o.insert("uma".into(), OptValue::Text(self.uma.iter().map(|u| u.to_string()).collect::<Vec<_>>().join(",")));
        if let Some(e) = &self.excerpt {
            o.extend(e.to_options());
        }
        o
    }
}

impl ExcerptStart {
    /// The options that state this excerpt: `excerpt: true`, and the start options that differ
    /// from East 1, 0 honba, no sticks, the start points.
    pub fn to_options(&self) -> Options {
        let mut o = Options::new();
        o.insert("excerpt".into(), OptValue::Bool(true));
        if (self.round_wind, self.kyoku) != (0, 0) {
            o.insert("start_hand".into(), OptValue::Text(hand_code(self.round_wind, self.kyoku)));
        }
        if self.honba != 0 {
            o.insert("start_honba".into(), OptValue::Int(i64::from(self.honba)));
        }
        if self.sticks != 0 {
            o.insert("start_sticks".into(), OptValue::Int(i64::from(self.sticks)));
        }
        if let Some(s) = self.scores {
            let text = s.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
            o.insert("start_scores".into(), OptValue::Text(text));
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_points_terms_say_what_final_points_count() {
        let r = Rules::default();
        assert_eq!(r.final_points_terms(), "start 25000, return 30000, oka +20 to the first, uma +20/+10/-10/-20");
        let r = Rules { sanmanten: true, start_points: 30000, ..Rules::default() };
        assert!(r.final_points_terms().starts_with("start 30000, return 30000, oka +0 to the first, sanmanten"));
    }

    #[test]
    fn options_round_trip_and_errors() {
        let r = Rules { kuitan: false, renhou: Renhou::Yakuman, uma: [30, 10, -10, -30], ..Rules::default() };
        let back = Rules::from_options("standard", &r.to_options()).unwrap();
        assert_eq!(back, r);
        assert_eq!(Rules::from_options("tenhou", &Options::new()).unwrap(), Rules::default());
        assert_eq!(Rules::from_options("tonpuu", &Options::new()).unwrap().length, 1);
        assert!(Rules::from_options("ema2", &Options::new()).unwrap_err().0.contains("unknown riichi ruleset"));
        let mut o = Options::new();
        o.insert("kuitan".into(), OptValue::Int(1));
        assert!(Rules::from_options("standard", &o).unwrap_err().0.contains("kuitan"));
        let mut o = Options::new();
        o.insert("nonsense".into(), OptValue::Bool(true));
        assert!(Rules::from_options("standard", &o).unwrap_err().0.contains("unknown riichi option"));
        let mut o = Options::new();
        o.insert("red_fives".into(), OptValue::Int(2));
        assert!(Rules::from_options("standard", &o).is_err());
        let mut o = Options::new();
        o.insert("uma".into(), OptValue::Text("1,2,3".into()));
        assert!(Rules::from_options("standard", &o).is_err());
        let mut o = Options::new();
        o.insert("renhou".into(), OptValue::Text("double".into()));
        assert!(Rules::from_options("standard", &o).is_err());
    }

    #[test]
    fn an_excerpt_is_stated_by_its_options_and_needs_excerpt_true() {
        let e =
            ExcerptStart { round_wind: 1, kyoku: 1, honba: 1, sticks: 2, scores: Some([30000, 20000, 24000, 24000]) };
        let o = e.to_options();
        let shown: Vec<String> = o.iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert_eq!(
            shown,
            [
                "excerpt=true",
                "start_hand=\"S2\"",
                "start_honba=1",
                "start_scores=\"30000,20000,24000,24000\"",
                "start_sticks=2"
            ]
        );
        assert_eq!(Rules::from_options("standard", &o).unwrap().excerpt, Some(e.clone()));
        let r = Rules { excerpt: Some(e), ..Rules::default() };
        assert_eq!(Rules::from_options("standard", &r.to_options()).unwrap(), r);
        // Only an imported record can be an excerpt: a seed deals whole games.
        let seeded = super::super::Riichi::new_game(r.clone(), Some(&crate::Seed::from_text("x")));
        assert!(seeded.unwrap_err().0.contains("seeded game"));
        let g = super::super::Riichi::new_game(r, None).unwrap();
        assert_eq!((g.kyoku_index(), g.honba(), g.riichi_sticks()), (5, 1, 2));
        assert_eq!(g.scores, [30000, 20000, 24000, 24000]);
        // From East 1 with the start points: only the flag.
        assert_eq!(ExcerptStart::default().to_options().len(), 1);
        let mut without = o.clone();
        without.remove("excerpt");
        assert!(Rules::from_options("standard", &without).unwrap_err().0.contains("excerpt: true"));
        for (k, v) in [
            ("start_hand", OptValue::Text("S5".into())),
            ("start_hand", OptValue::Text("X1".into())),
            ("start_hand", OptValue::Text("S22".into())),
            ("start_honba", OptValue::Int(-1)),
            ("start_scores", OptValue::Text("1,2,3".into())),
            ("excerpt", OptValue::Int(1)),
        ] {
            let mut bad = o.clone();
            bad.insert(k.into(), v.clone());
            assert!(Rules::from_options("standard", &bad).unwrap_err().0.contains(k), "{k} {v}");
        }
        assert!(Rules::from_options("standard", &Options::new()).unwrap().excerpt.is_none());
    }
}
