//! Tenhou's rule names (`鳳南喰赤`: lobby, 東 East-only or 南 East-South, 喰 open tanyao, 赤 red
//! fives) and Paifu's ruleset and options, both ways.

use paifu_core::log::{Header, OptValue, Options};

/// A rule set a record may name, with how its games are scored: each seat's start points, the
/// return points and the uma (thousands, first to fourth). Sources: Tenhou's rules page
/// (tenhou.net/man), the World Riichi Championship rules (2022), the EMA Riichi Competition
/// Rules (2016), M-League's published rules, Mahjong Soul's ranked-room rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scoring {
    pub name: &'static str,
    pub start: i64,
    pub ret: i64,
    pub uma: [i64; 4],
}

/// Tenhou's ranked rules (Paifu's defaults).
const TENHOU: Scoring = Scoring { name: "Tenhou", start: 25000, ret: 30000, uma: [20, 10, -10, -20] };

/// The rule sets Paifu knows by name: words a rule name holds (any of them), and the set.
/// Mahjong Soul's final points have no oka and keep 30000 as the mark to end the game, which
/// Paifu's options cannot say apart yet: its start points are used, its final results are
/// counted as Tenhou's.
const KNOWN: &[(&[&str], Scoring)] = &[
    (
        &["M-League", "Mリーグ", "M.LEAGUE"],
        Scoring { name: "M-League", start: 25000, ret: 30000, uma: [30, 10, -10, -30] },
    ),
    (&["WRC"], Scoring { name: "WRC", start: 30000, ret: 30000, uma: [15, 5, -5, -15] }),
    (&["EMA"], Scoring { name: "EMA", start: 30000, ret: 30000, uma: [15, 5, -5, -15] }),
    (
        &[
            "Bronze Room",
            "Silver Room",
            "Gold Room",
            "Jade Room",
            "Throne Room",
            "銅の間",
            "銀の間",
            "金の間",
            "玉の間",
            "王座の間",
        ],
        Scoring { name: "Mahjong Soul", ..TENHOU },
    ),
];

/// Whether a rule name is Tenhou's own (`鳳南喰赤`, `般東喰`, `南喰赤`...): only Tenhou's letters.
fn is_tenhou_name(disp: &str) -> bool {
    !disp.is_empty() && disp.chars().all(|c| "般上特鳳技若銀琥孔雀東南喰赤速祝".contains(c))
}

/// The rule set a rule name names, when Paifu knows it (Tenhou's names, [`KNOWN`]).
pub(crate) fn scoring(disp: &str) -> Option<Scoring> {
    if is_tenhou_name(disp) {
        return Some(TENHOU);
    }
    KNOWN.iter().find(|(words, _)| words.iter().any(|w| disp.contains(w))).map(|(_, s)| *s)
}

/// Each seat's start points under the rule set a rule name names; `None` when it names none
/// Paifu knows (an absent name among them).
pub(crate) fn known_start(disp: &str) -> Option<i64> {
    scoring(disp).map(|s| s.start)
}

/// Whether a rule name is a three-player game's (`三鳳南喰赤`, `3-Player Gold Room`, `Sanma`).
pub(crate) fn three_player(disp: &str) -> bool {
    let lower = disp.to_lowercase();
    disp.contains('三') || ["3-player", "three-player", "3p ", "sanma"].iter().any(|w| lower.contains(w))
}

/// The ruleset and options for a rule name (the red-five flag apart): Tenhou's (`東` East only,
/// `喰` open tanyao), or another's in English or Japanese (`Gold Room East`: East only; open
/// tanyao, as every known rule set but Tenhou's 喰-less lobbies plays it), with the scoring of
/// the rule set it names when that is not Tenhou's.
pub(crate) fn from_rule_name(disp: &str, red_fives: bool) -> (&'static str, Options) {
    let mut o = Options::new();
    if !red_fives {
        o.insert("red_fives".into(), OptValue::Int(0));
    }
    if is_tenhou_name(disp) && !disp.contains('喰') {
        o.insert("kuitan".into(), OptValue::Bool(false));
    }
    let east_only = disp.contains('東') || (disp.contains("East") && !disp.contains("South"));
    let ruleset = if east_only { "tonpuu" } else { "standard" };
    if let Some(s) = scoring(disp).filter(|s| (s.start, s.ret, s.uma) != (TENHOU.start, TENHOU.ret, TENHOU.uma)) {
        o.extend(points_options(s.start, s.ret, s.uma));
    }
    (ruleset, o)
}

/// The options of a scoring: start and return points, uma.
pub(crate) fn points_options(start: i64, ret: i64, uma: [i64; 4]) -> Options {
    let mut o = Options::new();
    o.insert("start_points".into(), OptValue::Int(start));
    o.insert("return_points".into(), OptValue::Int(ret));
    o.insert("uma".into(), OptValue::Text(uma.map(|u| u.to_string()).join(",")));
    o
}

/// Tenhou's rule name for a header: the recorded one (`meta.rule`), or one made from the ruleset
/// and options (`南喰赤`, `東喰`, ...).
pub(crate) fn rule_name(h: &Header) -> String {
    if let Some(r) = h.meta.get("rule") {
        return r.clone();
    }
    let kuitan = !matches!(h.options.get("kuitan"), Some(OptValue::Bool(false)));
    let red = !matches!(h.options.get("red_fives"), Some(OptValue::Int(0)));
    format!(
        "{}{}{}",
        if h.ruleset == "tonpuu" { "東" } else { "南" },
        if kuitan { "喰" } else { "" },
        if red { "赤" } else { "" }
    )
}
