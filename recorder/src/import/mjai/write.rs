//! Writing riichi logs (seeded or imported) as full-information mjai JSON Lines: every hand and
//! every draw is shown. The log is first written in tenhou.net/6 form (tenhou6/) and converted
//! back into an imported log, whose records are in the global order of play; each record becomes
//! its mjai event. `start_game` carries `aka_flag`, Tenhou's rule name (`rule`) and the source id
//! (`id`), so that importing the export gives the same header rules and the same records.

use crate::import::positions::PosMap;
use crate::import::record::{self, Outcome};
use crate::import::tenhou6::{self, Style};
use crate::import::{embedded, rules, to_log, ExportError};
use paifu_core::log::Log;
use paifu_core::mahjong::Tile;
use paifu_core::riichi::{Action, Riichi};
use paifu_core::Game;
use paifu_core::Seat;
use serde_json::{json, Value};

/// mjai notation of a tile: `5m`, `5mr` (red five), `E` ... `C`.
pub(crate) fn pai(t: Tile) -> String {
    let c = record::Tile::from_paifu(t).0;
    match c {
        51 => "5mr".into(),
        52 => "5pr".into(),
        53 => "5sr".into(),
        41..=47 => ["E", "S", "W", "N", "P", "F", "C"][(c - 41) as usize].into(),
        _ => format!("{}{}", c % 10, ['m', 'p', 's'][(c / 10 - 1) as usize]),
    }
}

fn pai6(t: record::Tile) -> String {
    pai(t.to_paifu())
}

pub(crate) fn pais(ts: &[Tile]) -> Vec<String> {
    ts.iter().map(|t| pai(*t)).collect()
}

/// mjai's `ryukyoku` reason for a draw named as Tenhou names it (`九種九牌`, `流局`).
pub(crate) fn reason(name: &str) -> &'static str {
    match name {
        "九種九牌" => "kyushukyuhai",
        "四風連打" => "suufonrenda",
        "四家立直" => "suuchariichi",
        "四槓散了" => "suukaikan",
        "三家和了" => "sanchaho",
        "流し満貫" => "nagashimangan",
        _ => "fanpai",
    }
}

/// Exports a riichi log as mjai JSON Lines. Fails on a log that does not validate.
pub fn export(log: &Log<Action>) -> Result<String, ExportError> {
    export_as(log, Style::Tenhou)
}

/// Exports a riichi log as mjai JSON Lines, its results split as the tenhou.net/6 export of
/// that style splits them (a double ron's honba and sticks; tenhou6/write.rs).
pub(crate) fn export_as(log: &Log<Action>, style: Style) -> Result<String, ExportError> {
    let t6 = tenhou6::export_as(log, style)?;
    let g6 = tenhou6::parse(&t6)?;
    let h = log.header.clone();
    let imp = to_log::convert(&g6, h.clone(), &PosMap::default())?;
    if let Some((i, why)) = &imp.refused {
        return Err(ExportError::Refused { index: *i, message: why.clone() });
    }
    let rules = Riichi::rules(&h.ruleset, &h.options)?;
    let aka = rules.red_fives > 0;
    let mut g = Riichi::new(rules, 4, None)?;
    let mut out: Vec<Value> = Vec::new();
    let mut start =
        json!({"type": "start_game", "names": h.seats, "aka_flag": aka, "rule": rules::rule_name(&log.header)});
    if let Some(s) = h.source.as_ref().filter(|s| !s.id.is_empty()) {
        start["id"] = json!(s.id);
    }
    start["paifu"] = embedded::write(log);
    out.push(start);
    let mut deals = 0usize;
    let mut kan_dora: Vec<record::Tile> = Vec::new();
    let mut pending_call: Option<(Seat, Value, usize)> = None;
    let mut pending_reach: Option<Seat> = None;
    for (i, rec) in imp.log.records.iter().enumerate() {
        let ri = g.results().len();
        let round = g6.rounds.get(ri).ok_or(ExportError::PastLastHand(i))?;
        let window = g.claim_window();
        let drawn = g.drawn_tile();
        let hand_before: Vec<Tile> = g.hand(rec.seat).to_vec();
        let melds_before = g.melds(rec.seat).len();
        let s = rec.seat;
        g.play_mut(s, &rec.action).map_err(|v| ExportError::Refused { index: i, message: v.message })?;
        let mut kan = false;
        match rec.action {
            Action::Deal(_) => {
                if deals % 4 == 0 {
                    let k = round.kyoku;
                    let bakaze = ["E", "S", "W", "N"][usize::from(k / 4 % 4)];
                    out.push(json!({
                        "type": "start_kyoku",
                        "bakaze": bakaze,
                        "kyoku": k % 4 + 1,
                        "honba": round.honba,
                        "kyotaku": round.sticks,
                        "oya": k % 4,
                        "scores": round.scores,
                        "dora_marker": round.dora.first().map(|t| pai6(*t)),
                        "tehais": round.hands.iter().map(|h| h.iter().map(|t| pai6(*t)).collect::<Vec<_>>()).collect::<Vec<_>>(),
                    }));
                    kan_dora = round.dora.iter().skip(1).rev().copied().collect();
                }
                deals += 1;
            }
            Action::Dora(_) | Action::Ura(_) | Action::Pass | Action::Tsumo | Action::Ron | Action::Kyuushu => {}
            Action::Incident(ref inc) => {
                return Err(ExportError::Refused {
                    index: i,
                    message: format!("{inc}: mjai has no form for incidents"),
                })
            }
            Action::Draw(t) => out.push(json!({"type": "tsumo", "actor": s, "pai": pai(t)})),
            Action::Discard { tile, drawn, riichi } => {
                if riichi {
                    out.push(json!({"type": "reach", "actor": s}));
                    pending_reach = Some(s);
                }
                out.push(json!({"type": "dahai", "actor": s, "pai": pai(tile), "tsumogiri": drawn}));
            }
            Action::Chi(a, b) => {
                if let Some((from, t)) = window {
                    let ev =
                        json!({"type": "chi", "actor": s, "target": from, "pai": pai(t), "consumed": pais(&[a, b])});
                    pending_call = Some((s, ev, melds_before));
                }
            }
            Action::Pon(a, b) => {
                if let Some((from, t)) = window {
                    let ev =
                        json!({"type": "pon", "actor": s, "target": from, "pai": pai(t), "consumed": pais(&[a, b])});
                    pending_call = Some((s, ev, melds_before));
                }
            }
            Action::Minkan(_) => {
                if let Some((from, t)) = window {
                    let own: Vec<Tile> = hand_before.iter().copied().filter(|x| x.kind() == t.kind()).collect();
                    let ev =
                        json!({"type": "daiminkan", "actor": s, "target": from, "pai": pai(t), "consumed": pais(&own)});
                    pending_call = Some((s, ev, melds_before));
                }
            }
            Action::Kakan(k) => {
                let m = g.melds(s).iter().find(|m| m.base() == k.kind() && m.is_kong()).copied();
                if let Some(m) = m {
                    out.push(
                        json!({"type": "kakan", "actor": s, "pai": pai(m.tiles[3]), "consumed": pais(&m.tiles[..3])}),
                    );
                    kan = true;
                }
            }
            Action::Ankan(k) => {
                let m = g.melds(s).iter().rev().find(|m| m.base() == k.kind()).copied();
                if let Some(m) = m {
                    out.push(json!({"type": "ankan", "actor": s, "consumed": pais(m.tiles())}));
                    kan = true;
                }
            }
        }
        let ended = g.results().len() > ri;
        if g.claim_window().is_none() && !ended {
            // The riichi stands once its discard is not won on, before any call of that discard
            // (a call ends its ippatsu: libriichi's state, replaying the events in order, counts
            // ippatsu for a riichi accepted after the call). Before issue 15 the call came first.
            let accepted =
                pending_reach.take().map(|r| json!({"type": "reach_accepted", "actor": r, "scores": g.scores()}));
            if style == Style::Tenhou {
                out.extend(accepted.clone());
            }
            if let Some((c, ev, before)) = pending_call.take() {
                if g.melds(c).len() > before {
                    out.push(ev);
                    kan = kan || ev_is_kan(&out);
                }
            }
            if style == Style::Before16 {
                out.extend(accepted);
            }
        }
        if kan {
            if let Some(d) = kan_dora.pop() {
                out.push(json!({"type": "dora", "dora_marker": pai6(d)}));
            }
        }
        if ended {
            pending_call = None;
            pending_reach = None;
            while let Some(d) = kan_dora.pop() {
                out.push(json!({"type": "dora", "dora_marker": pai6(d)}));
            }
            let wins = g.last_wins().to_vec();
            match &round.outcome {
                Outcome::Wins(ws) => {
                    let win_pai = window.map(|(_, t)| t).or(drawn.map(|(_, t, _)| t));
                    for w in ws {
                        let sc = wins.iter().find(|(x, _)| *x == w.who).map(|(_, sc)| sc);
                        let yakus: Vec<Value> = w.yaku.iter().flatten().map(|(n, h)| json!([n, h])).collect();
                        let mut ev = json!({
                            "type": "hora",
                            "actor": w.who,
                            "target": w.from,
                            "ura_markers": round.ura.iter().map(|t| pai6(*t)).collect::<Vec<_>>(),
                            "yakus": yakus,
                            "deltas": w.deltas,
                        });
                        if let Some(t) = win_pai {
                            ev["pai"] = json!(pai(t));
                        }
                        if let Some(sc) = sc {
                            ev["fu"] = json!(sc.fu);
                            ev["fan"] = json!(sc.han);
                        }
                        out.push(ev);
                    }
                }
                Outcome::Draw { name, deltas } => out.push(json!({
                    "type": "ryukyoku",
                    "reason": reason(name),
                    "deltas": deltas.unwrap_or_default(),
                })),
            }
            out.push(json!({"type": "end_kyoku"}));
        }
    }
    out.push(json!({"type": "end_game", "scores": g6.final_scores}));
    let mut text = String::new();
    for v in out {
        text.push_str(&v.to_string());
        text.push('\n');
    }
    Ok(text)
}

fn ev_is_kan(out: &[Value]) -> bool {
    out.last().is_some_and(|v| v["type"] == "daiminkan")
}
