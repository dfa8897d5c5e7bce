//! Writing riichi logs (seeded or imported) as tenhou.net/6 JSON, the log itself embedded
//! (embedded/).
//!
//! The log is replayed through the engine and every round is written as Tenhou's viewer expects:
//! starting hands, takes (draws and calls) and discards per seat, the dora and ura indicators and
//! the result with Tenhou's score changes (without the riichi deposits). Importing the export
//! gives a log that validates with the same results; exporting that import again gives the same
//! bytes.

use crate::import::record;
use crate::import::{embedded, rules, yaku, ExportError};
use paifu_core::log::Log;
use paifu_core::mahjong::Tile;
use paifu_core::riichi::{Action, Limit, Riichi, Score, Yaku};
use paifu_core::Game;
use paifu_core::Seat;
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

/// Exports a riichi log as tenhou.net/6 JSON. Fails on a log that does not validate.
pub fn export(log: &Log<Action>) -> Result<String, ExportError> {
    let h = &log.header;
    let rules = Riichi::rules(&h.ruleset, &h.options)?;
    let aka = rules.red_fives > 0;
    let mut g = Riichi::new(rules, 4, h.seed.as_ref())?;
    let mut rounds: Vec<Value> = Vec::new();
    let mut cur: Option<RoundOut> = None;
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
                let mut out = vec![json!("和了")];
                let mut rest = tenhou.clone();
                let n = wins.len();
                for (j, (w, sc)) in wins.iter().enumerate() {
                    let who = *w;
                    let from_seat = from.unwrap_or(who);
                    // Each winner's share: the last winner in the list takes what is left.
                    let deltas: Vec<i64> = if j + 1 == n {
                        rest.clone()
                    } else {
                        let mut d = vec![0i64; 4];
                        let p = sc.payment.total();
                        d[usize::from(who)] += p;
                        d[usize::from(from_seat)] -= p;
                        for k in 0..4 {
                            rest[k] -= d[k];
                        }
                        d
                    };
                    let dealer = (kyoku % 4) as u8;
                    let seat_wind = (who + 4 - dealer) % 4;
                    let round_wind = (kyoku / 4) as u8;
                    let total = deltas[usize::from(who)];
                    let text = match sc.limit {
                        Limit::None => format!("{}符{}飜{}点", sc.fu, sc.han, total),
                        l => format!(
                            "{}{}点",
                            match l {
                                Limit::Mangan => "満貫",
                                Limit::Haneman => "跳満",
                                Limit::Baiman => "倍満",
                                Limit::Sanbaiman => "三倍満",
                                _ => "役満",
                            },
                            total
                        ),
                    };
                    let pao = liable_seat(&res, &wins, j).unwrap_or(who);
                    let mut info = vec![json!(who), json!(from_seat), json!(pao), json!(text)];
                    for (y, hn) in &sc.yaku {
                        if *hn == 0 {
                            continue;
                        }
                        let ja = yaku::japanese(y.name(), seat_wind, round_wind);
                        let v = if y.is_yakuman() { format!("{ja}(役満)") } else { format!("{ja}({hn}飜)") };
                        info.push(json!(v));
                    }
                    out.push(json!(deltas));
                    out.push(Value::Array(info));
                }
                Value::Array(out)
            } else {
                let abort = res.facts.iter().find_map(|f| f.key.strip_prefix("abort:")).map(|k| match k {
                    "nine_terminals" => "九種九牌",
                    "four_winds" => "四風連打",
                    "four_riichi" => "四家立直",
                    "four_kans" => "四槓散了",
                    _ => "三家和了",
                });
                match abort {
                    Some(name) => json!([name]),
                    None => {
                        let nagashi = res.facts.iter().any(|f| f.key == "nagashi_mangan");
                        json!([if nagashi { "流し満貫" } else { "流局" }, tenhou])
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
    let points = g.final_points();
    let scores = g.scores();
    let mut sc = Vec::new();
    for s in 0..4 {
        sc.push(json!(scores[s]));
        sc.push(json!(points[s] as f64 / 1000.0));
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
