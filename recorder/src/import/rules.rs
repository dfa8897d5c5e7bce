//! Tenhou's rule names (`鳳南喰赤`: lobby, 東 East-only or 南 East-South, 喰 open tanyao, 赤 red
//! fives) and Paifu's ruleset and options, both ways.

use paifu_core::log::{Header, OptValue, Options};

/// The ruleset and options for a Tenhou rule name (the red-five flag apart).
pub(crate) fn from_rule_name(disp: &str, red_fives: bool) -> (&'static str, Options) {
    let mut o = Options::new();
    if !red_fives {
        o.insert("red_fives".into(), OptValue::Int(0));
    }
    if !disp.is_empty() && !disp.contains('喰') {
        o.insert("kuitan".into(), OptValue::Bool(false));
    }
    let ruleset = if disp.contains('東') { "tonpuu" } else { "standard" };
    (ruleset, o)
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
