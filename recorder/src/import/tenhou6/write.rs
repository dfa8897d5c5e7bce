//! Writing riichi logs (seeded or imported) as tenhou.net/6 JSON, the log itself embedded
//! (embedded/).
//!
//! The log is replayed through the engine and every round is written as Tenhou's viewer expects:
//! starting hands, takes (draws and calls) and discards per seat, the dora and ura indicators and
//! the result with Tenhou's score changes (without the riichi deposits). What is not play is
//! written as Tenhou writes it (`Style::Tenhou`): a win's text is the hand's value without honba
//! and sticks (`30符4飜7700点`, `700-1300点`, `2000点∀`, `満貫3000-6000点`), a double ron's honba and
//! sticks go to the winner nearest the discarder, a draw without payments is `全員聴牌` or
//! `全員不聴`, and `sc` holds the results after uma and oka rounded as Tenhou rounds them. Importing
//! the export gives a log that validates with the same results; exporting that import again gives
//! the same bytes. `Style::Before16` writes as Paifu did before issue 15 (the whole gain in the
//! text, exact results in `sc`), so that such files still read back against their embedded log.

use crate::import::record;
use crate::import::{embedded, rules, to_log, yaku, ExportError};
use paifu_core::log::Log;
use paifu_core::mahjong::Tile;
use paifu_core::riichi::{Action, Limit, Payment, Riichi, Score, Yaku};
use paifu_core::Game;
use paifu_core::{RoundResult, Seat};
use serde_json::{json, Value};

/// Tenhou's code of a tile.
fn code(t: Tile) -> i64 {
    i64::from(record::Tile::from_paifu(t).0)
}

fn codes(ts: &[Tile]) -> String {
    ts.iter().map(|t| code(*t).to_string()).collect()
}

#[derive(Default)]
struct RoundOut {
    head: [i64; 3],
    scores: Vec<i64>,
    hands: [Vec<i64>; 4],
    takes: [Vec<Value>; 4],
    discards: [Vec<Value>; 4],
    dora: Vec<i64>,
    ura: Vec<i64>,
    given_dora: bool,
}

/// How the export writes what is not play (result texts, `sc`, draws without payments, a double
/// ron's split, the order of yaku).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// As Tenhou writes it.
    Tenhou,
    /// As Paifu's exports did before issue 15 (read back, never written by `paifu export`).
    Before16,
}

/// Exports a riichi log as tenhou.net/6 JSON, written as Tenhou writes it. Fails on a log that
/// does not validate.
pub fn export(log: &Log<Action>) -> Result<String, ExportError> {
    export_as(log, Style::Tenhou)
}

/// Exports a riichi log as tenhou.net/6 JSON in the given style.
pub(crate) fn export_as(log: &Log<Action>, style: Style) -> Result<String, ExportError> {
    let h = &log.header;
    let rules = Riichi::rules(&h.ruleset, &h.options)?;
    let aka = rules.red_fives > 0;
    let mut g = Riichi::new(rules, 4, h.seed.as_ref())?;
    let mut rounds: Vec<Value> = Vec::new();
    let mut cur: Option<RoundOut> = None;
    let source_order = source_yaku_order(h);
    // A call answered in a claim window: written once the window resolves, if it was made (a
    // ron or a pon may override it): the seat, its take, whether an open kan, its melds before.
    let mut pending: Option<(Seat, Value, bool, usize)> = None;
    for (i, rec) in log.records.iter().enumerate() {
        if cur.is_none() {
            let mut r = RoundOut {
                head: [i64::from(g.kyoku_index()), i64::from(g.honba()), i64::from(g.riichi_sticks())],
                scores: g.scores(),
                ..RoundOut::default()
            };
            if !g.is_imported() {
                let drawn = g.drawn_tile();
                for s in 0..4u8 {
                    let mut hand: Vec<Tile> = g.hand(s).to_vec();
                    if let Some((d, t, _)) = drawn.filter(|(d, _, _)| *d == s) {
                        if let Some(p) = hand.iter().position(|x| *x == t) {
                            hand.remove(p);
                        }
                        r.takes[usize::from(d)].push(json!(code(t)));
                    }
                    r.hands[usize::from(s)] = sorted_codes(&hand);
                }
            }
            cur = Some(r);
        }
        let Some(r) = cur.as_mut() else { continue };
        let before_window = g.claim_window();
        let dora_before = g.dora_indicators();
        let ura_before = g.ura_shown();
        let riichi_before: Vec<bool> = (0..4).map(|s| g.in_riichi(s)).collect();
        let rounds_before = g.results().len();
        let s = rec.seat;
        let su = usize::from(s);
        let hand_before: Vec<Tile> = g.hand(s).to_vec();
        let melds_before = g.melds(s).len();
        g.play_mut(s, &rec.action).map_err(|v| ExportError::Refused { index: i, message: v.message })?;
        match rec.action {
            Action::Deal(tiles) => r.hands[su] = sorted_codes(&tiles),
            Action::Draw(t) => r.takes[su].push(json!(code(t))),
            Action::Dora(t) => {
                r.given_dora = true;
                r.dora.push(code(t));
            }
            Action::Ura(t) => r.ura.push(code(t)),
            Action::Incident(ref inc) => {
                return Err(ExportError::Refused {
                    index: i,
                    message: format!("{inc}: tenhou.net/6 has no form for incidents"),
                })
            }
            Action::Discard { tile, drawn, riichi } => {
                let c = if drawn { 60 } else { code(tile) };
                r.discards[su].push(if riichi { json!(format!("r{c}")) } else { json!(c) });
            }
            Action::Chi(a, b) => {
                if let Some((_, t)) = before_window {
                    pending = Some((s, json!(format!("c{}{}{}", code(t), code(a), code(b))), false, melds_before));
                }
            }
            Action::Pon(a, b) => {
                if let Some((from, t)) = before_window {
                    pending = Some((s, json!(call_string('p', s, from, t, &[a, b])), false, melds_before));
                }
            }
            Action::Minkan(_) => {
                if let Some((from, t)) = before_window {
                    let mut own: Vec<Tile> = hand_before.iter().copied().filter(|x| x.kind() == t.kind()).collect();
                    own.sort_by_key(|x| (x.kind(), x.is_aka()));
                    pending = Some((s, json!(call_string('m', s, from, t, &own)), true, melds_before));
                }
            }
            Action::Kakan(k) => {
                let m = g.melds(s).iter().find(|m| m.base() == k.kind() && m.is_kong()).copied();
                if let Some(m) = m {
                    let added = m.tiles[3];
                    let pon: Vec<Tile> = m.tiles[..3].to_vec();
                    let from = m.from.unwrap_or((s + 3) % 4);
                    let pos = rel_index(s, from);
                    let mut text = String::new();
                    for (j, t) in pon.iter().enumerate() {
                        if j == pos {
                            text.push_str(&format!("k{}", code(added)));
                        }
                        text.push_str(&code(*t).to_string());
                    }
                    if pos >= pon.len() {
                        text.push_str(&format!("k{}", code(added)));
                    }
                    r.discards[su].push(json!(text));
                }
            }
            Action::Ankan(k) => {
                let m = g.melds(s).iter().rev().find(|m| m.base() == k.kind()).copied();
                if let Some(m) = m {
                    let t = m.tiles();
                    r.discards[su].push(json!(format!("{}a{}", codes(&t[..3]), code(t[3]))));
                }
            }
            Action::Tsumo | Action::Ron | Action::Pass | Action::Kyuushu => {}
        }
        if g.claim_window().is_none() && g.results().len() == rounds_before {
            if let Some((c, take, kan, before)) = pending.take() {
                if g.melds(c).len() > before {
                    r.takes[usize::from(c)].push(take);
                    if kan {
                        r.discards[usize::from(c)].push(json!(0));
                    }
                }
            }
        }
        if g.results().len() > rounds_before {
            pending = None;
        }
        if !g.is_imported() && g.results().len() == rounds_before {
            // Seeded games draw inside the engine: a turn with a drawn tile after any record is
            // a new draw (every record of a turn ends that turn).
            if let Some((d, t, _)) = g.drawn_tile() {
                r.takes[usize::from(d)].push(json!(code(t)));
            }
        }
        if g.results().len() > rounds_before {
            let Some(mut r) = cur.take() else { continue };
            let res = g.results().last().cloned().unwrap_or_else(unreachable_result);
            if !r.given_dora {
                r.dora = dora_before.iter().map(|t| code(*t)).collect();
            }
            let won = res.facts.iter().any(|f| f.key == "win");
            let any_riichi_winner = won && g.last_wins().iter().any(|(w, _)| riichi_before[usize::from(*w)]);
            if !r.given_dora && any_riichi_winner {
                r.ura = ura_before.iter().map(|t| code(*t)).collect();
            }
            // Tenhou's changes leave out the deposits of riichi that stood this round.
            let mut tenhou: Vec<i64> = res.deltas.clone();
            for f in &res.facts {
                if f.key == "riichi" {
                    if let Some(s) = f.seat {
                        // The fact is for riichi that stood (a riichi ronned on its discard did not).
                        tenhou[usize::from(s)] += 1000;
                    }
                }
            }
            let kyoku = r.head[0];
            let result = if won {
                let from = before_window.map(|(f, _)| f);
                let wins = g.last_wins().to_vec();
                let shares = win_shares(&wins, from, &tenhou, style);
                let mut out = vec![json!("和了")];
                for (j, (w, sc)) in wins.iter().enumerate() {
                    let who = *w;
                    let from_seat = from.unwrap_or(who);
                    let dealer = (kyoku % 4) as u8;
                    let seat_wind = (who + 4 - dealer) % 4;
                    let round_wind = (kyoku / 4) as u8;
                    let text = match style {
                        Style::Tenhou => win_text(sc),
                        Style::Before16 => win_text_before16(sc, shares[j][usize::from(who)]),
                    };
                    let pao = liable_seat(&res, &wins, j).unwrap_or(who);
                    let mut info = vec![json!(who), json!(from_seat), json!(pao), json!(text)];
                    let mut listed: Vec<&(Yaku, u32)> = sc.yaku.iter().filter(|(_, hn)| *hn > 0).collect();
                    if style == Style::Tenhou {
                        listed.sort_by_key(|(y, _)| tenhou_rank(y.name()));
                    }
                    let mut texts: Vec<String> = listed
                        .into_iter()
                        .map(|(y, hn)| {
                            let ja = yaku::japanese(y.name(), seat_wind, round_wind);
                            if y.is_yakuman() {
                                format!("{ja}(役満)")
                            } else {
                                format!("{ja}({hn}飜)")
                            }
                        })
                        .collect();
                    if style == Style::Tenhou {
                        if let Some(order) = source_order.as_ref().and_then(|o| o.get(&(rounds.len(), j))) {
                            in_source_order(&mut texts, order);
                        }
                    }
                    info.extend(texts.into_iter().map(Value::String));
                    out.push(json!(shares[j]));
                    out.push(Value::Array(info));
                }
                Value::Array(out)
            } else {
                match abort_name(&res) {
                    Some(name) => json!([name]),
                    None => {
                        let nagashi = res.facts.iter().any(|f| f.key == "nagashi_mangan");
                        let tenpai = res.facts.iter().filter(|f| f.key == "tenpai").count();
                        match (nagashi, style) {
                            (true, _) => json!(["流し満貫", tenhou]),
                            // Nobody pays: Tenhou names the draw and gives no changes.
                            (false, Style::Tenhou) if tenpai == 0 => json!(["全員不聴"]),
                            (false, Style::Tenhou) if tenpai == 4 => json!(["全員聴牌"]),
                            (false, _) => json!(["流局", tenhou]),
                        }
                    }
                }
            };
            let mut arr = vec![json!(r.head), json!(r.scores), json!(r.dora), json!(r.ura)];
            for s in 0..4 {
                arr.push(json!(r.hands[s]));
                arr.push(Value::Array(r.takes[s].clone()));
                arr.push(Value::Array(r.discards[s].clone()));
            }
            arr.push(result);
            rounds.push(Value::Array(arr));
        }
    }
    if !g.is_over() {
        return Err(ExportError::Unfinished);
    }
    let exact = g.final_points().map(|p| p as f64 / 1000.0);
    // Tenhou's rounding where the rules have one (not under sanmanten), else the exact results.
    let results = match (style, to_log::tenhou_results(&g)) {
        (Style::Tenhou, Some(t)) => t.map(|r| r as f64),
        _ => exact,
    };
    let scores = g.scores();
    let mut sc = Vec::new();
    for s in 0..4 {
        sc.push(json!(scores[s]));
        sc.push(json!(results[s]));
    }
    let disp = rules::rule_name(h);
    let id = h.source.as_ref().map(|s| s.id.clone()).unwrap_or_default();
    let mut v = json!({
        "ver": 2.3,
        "ref": id,
        "rule": {"disp": disp, "aka": i64::from(aka)},
        "name": h.seats,
        "sc": sc,
        "log": rounds,
    });
    // The log itself (header, record order, claims): importing this file gives this very log.
    v["paifu"] = embedded::write(log);
    Ok(v.to_string())
}

/// Each winner's score changes (Tenhou's convention: deposits of riichi that stood left out).
/// Tenhou gives a double ron's honba and sticks to the winner nearest the discarder in turn
/// order, each other winner its hand's bare ron payment. Before issue 15 Paifu gave the rest to
/// the last winner listed instead.
fn win_shares(wins: &[(Seat, Score)], from: Option<Seat>, tenhou: &[i64], style: Style) -> Vec<Vec<i64>> {
    let nearest = match (style, from) {
        (Style::Tenhou, Some(f)) => wins.iter().map(|(w, _)| *w).min_by_key(|w| (w + 4 - f) % 4),
        _ => wins.last().map(|(w, _)| *w),
    };
    let mut rest: Vec<i64> = tenhou.to_vec();
    let mut out: Vec<Vec<i64>> = vec![Vec::new(); wins.len()];
    for (j, (who, sc)) in wins.iter().enumerate() {
        if Some(*who) == nearest {
            continue;
        }
        let mut d = vec![0i64; 4];
        let p = sc.payment.total();
        d[usize::from(*who)] += p;
        d[usize::from(from.unwrap_or(*who))] -= p;
        for (r, x) in rest.iter_mut().zip(&d) {
            *r -= x;
        }
        out[j] = d;
    }
    if let Some(j) = wins.iter().position(|(w, _)| Some(*w) == nearest) {
        out[j] = rest;
    }
    out
}

/// Tenhou's text of a win: `FU符HAN飜` or the limit's name, then the hand's value without honba
/// and sticks: `7700点` (ron), `700-1300点` (a non-dealer's tsumo: each non-dealer, the dealer),
/// `2000点∀` (a dealer's tsumo: each seat).
fn win_text(sc: &Score) -> String {
    let value = match sc.payment {
        Payment::Ron(p) => format!("{p}点"),
        Payment::Tsumo { dealer, non_dealer } => format!("{non_dealer}-{dealer}点"),
        Payment::TsumoDealer(all) => format!("{all}点∀"),
    };
    format!("{}{value}", limit_name(sc))
}

/// The text Paifu wrote before issue 15: the winner's whole gain, honba and sticks included.
fn win_text_before16(sc: &Score, gain: i64) -> String {
    format!("{}{gain}点", limit_name(sc))
}

/// `30符4飜` below the limits, else the limit's name (`数え役満` for 13 han without a yakuman).
fn limit_name(sc: &Score) -> String {
    match sc.limit {
        Limit::None => format!("{}符{}飜", sc.fu, sc.han),
        Limit::Mangan => "満貫".into(),
        Limit::Haneman => "跳満".into(),
        Limit::Baiman => "倍満".into(),
        Limit::Sanbaiman => "三倍満".into(),
        Limit::Yakuman if sc.yakuman == 0 => "数え役満".into(),
        Limit::Yakuman => "役満".into(),
    }
}

/// The yaku lists of an imported tenhou.net/6 source's wins, by (hand, win): Tenhou's order
/// within a win follows no rule found documented (see docs/import.md), so an imported game's
/// export writes its yaku in its own source's order.
fn source_yaku_order(h: &paifu_core::log::Header) -> Option<std::collections::HashMap<(usize, usize), Vec<String>>> {
    let (source, text) = to_log::embedded_source(h)?;
    if source.format != "tenhou6" {
        return None;
    }
    let json: Value = serde_json::from_str(text).ok()?;
    let mut out = std::collections::HashMap::new();
    for (r, round) in json.get("log")?.as_array()?.iter().enumerate() {
        let Some(result) = round.as_array().and_then(|a| a.last()).and_then(Value::as_array) else { continue };
        for (j, info) in result.iter().skip(2).step_by(2).enumerate() {
            let listed =
                info.as_array().map(|i| i.iter().skip(4).filter_map(Value::as_str).map(str::to_owned).collect());
            if let Some(listed) = listed {
                out.insert((r, j), listed);
            }
        }
    }
    Some(out)
}

/// Puts `texts` in the order of `order` when both hold the same yaku; otherwise leaves them.
fn in_source_order(texts: &mut Vec<String>, order: &[String]) {
    let mut a = texts.clone();
    let mut b = order.to_vec();
    a.sort();
    b.sort();
    if a == b {
        *texts = order.to_vec();
    }
}

/// Where a yaku goes in Tenhou's list: riichi, double riichi, ippatsu and menzen tsumo first, then
/// by Tenhou's yaku id (recorder/data/tenhou-yaku.txt), dora, red fives and ura dora last.
fn tenhou_rank(name: &str) -> (u8, u32) {
    const FIRST: [&str; 4] = ["riichi", "double_riichi", "ippatsu", "menzen_tsumo"];
    const LAST: [&str; 3] = ["dora", "aka_dora", "ura_dora"];
    if let Some(i) = FIRST.iter().position(|n| *n == name) {
        return (0, i as u32);
    }
    if let Some(i) = LAST.iter().position(|n| *n == name) {
        return (2, i as u32);
    }
    let id = yaku::table().ok().and_then(|t| t.iter().find(|y| y.paifu == name)).map_or(u32::MAX, |y| y.id);
    (1, id)
}

/// The seat liable (pao) for win `j` of a hand, from the hand's `liable` facts: with one winner
/// the liable seat; with several, the liable seats go in order to the winners whose hand has a
/// yakuman one can be liable for (big three dragons, big four winds).
fn liable_seat(res: &paifu_core::RoundResult, wins: &[(Seat, Score)], j: usize) -> Option<Seat> {
    let mut liable = res.facts.iter().filter(|f| f.key == "liable").filter_map(|f| f.seat);
    if wins.len() == 1 {
        return liable.next();
    }
    let paoable = |sc: &Score| sc.has(Yaku::Daisangen) || sc.has(Yaku::Daisuushii);
    if !wins.get(j).is_some_and(|(_, sc)| paoable(sc)) {
        return None;
    }
    liable.nth(wins[..j].iter().filter(|(_, sc)| paoable(sc)).count())
}

fn unreachable_result() -> paifu_core::RoundResult {
    paifu_core::RoundResult { round: 0, deltas: vec![0; 4], summary: String::new(), facts: Vec::new() }
}

fn sorted_codes(ts: &[Tile]) -> Vec<i64> {
    let mut v: Vec<i64> = ts.iter().map(|t| code(*t)).collect();
    v.sort_by_key(|c| if *c > 50 { ((*c - 50) * 10 + 5, true) } else { (*c, false) });
    v
}

/// 0 left, 1 across, 2 right: where the discarder sits for the caller.
fn rel_index(caller: Seat, from: Seat) -> usize {
    match (from + 4 - caller) % 4 {
        3 => 0,
        2 => 1,
        _ => 2,
    }
}

/// A pon (`p`) or open kan (`m`) string: the called tile marked at the discarder's position.
fn call_string(letter: char, caller: Seat, from: Seat, called: Tile, own: &[Tile]) -> String {
    let idx = rel_index(caller, from);
    // Open kan from the right is written at the last position.
    let at = if letter == 'm' && idx == 2 { 3 } else { idx };
    let mut out = String::new();
    let mut own_iter = own.iter();
    for j in 0..=own.len() {
        if j == at {
            out.push(letter);
            out.push_str(&code(called).to_string());
        } else if let Some(t) = own_iter.next() {
            out.push_str(&code(*t).to_string());
        }
    }
    out
}

/// Tenhou's name of the abortive draw a round result records (`九種九牌`), if it records one.
pub(crate) fn abort_name(res: &RoundResult) -> Option<&'static str> {
    res.facts.iter().find_map(|f| f.key.strip_prefix("abort:")).map(|k| match k {
        "nine_terminals" => "九種九牌",
        "four_winds" => "四風連打",
        "four_riichi" => "四家立直",
        "four_kans" => "四槓散了",
        _ => "三家和了",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::Bots;
    use paifu_core::Seed;

    fn score(han: u32, fu: u32, limit: Limit, yakuman: u32, payment: Payment) -> Score {
        Score { han, fu, yaku: Vec::new(), yakuman, limit, basic: 0, payment }
    }

    /// Tenhou's texts: ron, a non-dealer's tsumo (non-dealers first), a dealer's tsumo (∀); limit
    /// names; a counted yakuman.
    #[test]
    fn a_win_is_written_with_its_value_without_honba_and_sticks() {
        assert_eq!(win_text(&score(4, 30, Limit::None, 0, Payment::Ron(7700))), "30符4飜7700点");
        let t = Payment::Tsumo { dealer: 1300, non_dealer: 700 };
        assert_eq!(win_text(&score(3, 20, Limit::None, 0, t)), "20符3飜700-1300点");
        assert_eq!(win_text(&score(2, 30, Limit::None, 0, Payment::TsumoDealer(1000))), "30符2飜1000点∀");
        let t = Payment::Tsumo { dealer: 6000, non_dealer: 3000 };
        assert_eq!(win_text(&score(6, 30, Limit::Haneman, 0, t)), "跳満3000-6000点");
        assert_eq!(win_text(&score(5, 30, Limit::Mangan, 0, Payment::Ron(12000))), "満貫12000点");
        assert_eq!(win_text(&score(26, 0, Limit::Yakuman, 1, Payment::TsumoDealer(16000))), "役満16000点∀");
        assert_eq!(win_text(&score(13, 40, Limit::Yakuman, 0, Payment::Ron(32000))), "数え役満32000点");
        assert_eq!(win_text_before16(&score(4, 30, Limit::None, 0, Payment::Ron(7700)), 8700), "30符4飜8700点");
    }

    #[test]
    fn yaku_go_in_tenhous_order() {
        let mut names = vec!["ura_dora", "tanyao", "menzen_tsumo", "aka_dora", "pinfu", "ippatsu", "dora", "riichi"];
        names.sort_by_key(|n| tenhou_rank(n));
        assert_eq!(names, ["riichi", "ippatsu", "menzen_tsumo", "pinfu", "tanyao", "dora", "aka_dora", "ura_dora"]);
    }

    /// A file written as Paifu wrote before issue 15 imports to the log it embeds, as one
    /// written now does; the two differ.
    #[test]
    fn exports_of_before_issue_15_still_read_back() {
        for i in 0..3 {
            let s = Seed::from_text("before 16").child(&format!("g{i}"));
            let mut bots: Vec<Box<dyn crate::Bot<Riichi>>> = (0..4)
                .map(|k| Riichi::bot(if k == i { "random" } else { "greedy" }, &s.child(&format!("b{k}"))).unwrap())
                .collect();
            let rules = Riichi::rules("standard", &Default::default()).unwrap();
            let log = crate::play_game::<Riichi>("standard", rules, s, &mut bots, Default::default()).unwrap();
            let now = export(&log).unwrap();
            let before = export_as(&log, Style::Before16).unwrap();
            assert_ne!(now, before, "game {i}");
            for text in [now, before] {
                let back = super::super::import(&text, text.as_bytes()).unwrap();
                assert_eq!(back.log.digest(), log.digest(), "game {i}");
            }
        }
    }
}
