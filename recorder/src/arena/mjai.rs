//! mjai.app's protocol for riichi (docs/protocol.md, "mjai (riichi)"), so that bots written for
//! mjai.app (github.com/smly/mjai.app) play unchanged.
//!
//! Each line to a bot is a JSON array of the mjai events since its last answer, as the seat sees
//! them: the other seats' starting hands and draws are `"?"`, its own are shown. The bot answers
//! one JSON object per line: `dahai`, `reach` (then it is sent its `reach` event and asked for
//! the discard), `chi`, `pon`, `daiminkan`, `kakan`, `ankan` (with `consumed`), `hora`,
//! `ryukyoku` (nine terminals) or `none` (a claim passed). A seat is asked only when the engine
//! owes a decision of it, as mjai.app asks a bot only when it has a choice.
//!
//! Tiles and event forms are those of the mjai log reader and writer (`import::mjai`). The events
//! are made as the game goes, from each action and the state after it, so that a step costs the
//! same however long the game has been.

use super::protocol::{Answer, Protocol, Table};
use crate::import::mjai::read::{self, Event, Pai};
use crate::import::mjai::write::{pai, pais, reason};
use crate::import::tenhou6::abort_name;
use paifu_core::mahjong::{Meld, Tile};
use paifu_core::riichi::{Action, HandEnd, HandEndKind, Riichi};
use paifu_core::{Game, Seat};
use serde_json::{json, Value};

/// What has been told of the hand so far, to tell what changed after each action.
#[derive(Clone, Debug, Default)]
struct Told {
    /// Hands over.
    results: usize,
    /// Dora indicators told this hand.
    dora: usize,
    /// Where play stood at the last draw told (hands over, discards, tiles in melds): a draw
    /// seen again at the same place is the same draw.
    draw: Option<(usize, usize, usize)>,
    /// A riichi declared whose discard has not passed yet.
    reach: Option<Seat>,
    /// The claim window open after the last action, and the calls answered in it.
    window: Option<(Seat, Tile)>,
    calls: [Option<Action>; 4],
    /// Each seat's concealed tiles, melds and score after the last action.
    hands: [Vec<Tile>; 4],
    melds: [Vec<Meld>; 4],
    scores: [i64; 4],
}

/// One seat's side of mjai.app's protocol.
#[derive(Clone, Debug)]
pub struct Mjai {
    seat: Seat,
    told: Told,
    /// Events for the next question, as this seat sees them.
    pending: Vec<Value>,
    /// Lines to send before the next question (a hand's end, with its `end_kyoku`).
    notices: Vec<String>,
    /// The bot answered `reach`: its discard is owed.
    declared: bool,
    /// This seat was sent its own `reach` event already.
    reach_told: bool,
}

impl Mjai {
    /// The protocol for the bot at `seat`.
    pub fn new(seat: Seat) -> Mjai {
        Mjai {
            seat,
            told: Told::default(),
            pending: Vec::new(),
            notices: Vec::new(),
            declared: false,
            reach_told: false,
        }
    }

    /// Adds an event as this seat sees it: another seat's draw and starting hand hidden.
    fn push(&mut self, mut ev: Value) {
        match ev["type"].as_str() {
            Some("tsumo") if ev["actor"] != json!(self.seat) => ev["pai"] = json!("?"),
            Some("start_kyoku") => {
                if let Some(hands) = ev["tehais"].as_array_mut() {
                    for (s, h) in hands.iter_mut().enumerate() {
                        if s != usize::from(self.seat) {
                            *h = json!(vec!["?"; 13]);
                        }
                    }
                }
            }
            _ => {}
        }
        self.pending.push(ev);
    }

    /// The events of a hand's start: `start_kyoku` and the dealer's draw.
    fn start_hand(&mut self, g: &Riichi) {
        let drawn = g.drawn_tile();
        let tehais: Vec<Vec<String>> = (0..4u8)
            .map(|s| {
                let mut h = g.hand(s).to_vec();
                if let Some((_, t, _)) = drawn.filter(|d| d.0 == s) {
                    if let Some(i) = h.iter().position(|x| *x == t) {
                        h.remove(i);
                    }
                }
                pais(&h)
            })
            .collect();
        let dora = g.dora_indicators();
        let bakaze = ["E", "S", "W", "N"][usize::from(g.round_wind() & 3)];
        self.push(json!({
            "type": "start_kyoku",
            "bakaze": bakaze,
            "kyoku": g.dealer() + 1,
            "honba": g.honba(),
            "kyotaku": g.riichi_sticks(),
            "oya": g.dealer(),
            "scores": g.scores(),
            "dora_marker": dora.first().map(|t| pai(*t)),
            "tehais": tehais,
        }));
        self.told = Told { results: g.results().len(), dora: dora.len().max(1), ..Told::default() };
        self.tell_draw(g);
        self.remember(g);
    }

    /// The draw just made, once.
    fn tell_draw(&mut self, g: &Riichi) {
        if let Some((s, t, _)) = g.drawn_tile() {
            let at = place(g);
            if self.told.draw != Some(at) {
                self.told.draw = Some(at);
                self.push(json!({"type": "tsumo", "actor": s, "pai": pai(t)}));
            }
        }
    }

    /// Keeps what the next action's events are made from.
    fn remember(&mut self, g: &Riichi) {
        for s in 0..4u8 {
            let i = usize::from(s);
            self.told.hands[i].clear();
            self.told.hands[i].extend_from_slice(g.hand(s));
            self.told.melds[i].clear();
            self.told.melds[i].extend_from_slice(g.melds(s));
        }
        let scores = g.scores();
        for (i, s) in scores.iter().take(4).enumerate() {
            self.told.scores[i] = *s;
        }
        self.told.window = g.claim_window();
    }

    /// The events of a hand's end (the results of `g`'s last round): the riichi that stood, the
    /// indicators not told yet, `hora` or `ryukyoku`, `end_kyoku`.
    fn end_hand(&mut self, g: &Riichi, end: Option<&HandEnd>) {
        let Some(end) = end else {
            self.push(json!({"type": "end_kyoku"}));
            return;
        };
        if let Some(r) = self.told.reach.take() {
            if end.payments.iter().any(|p| p.from == Some(r) && p.to.is_none()) {
                let mut scores = self.told.scores;
                scores[usize::from(r & 3)] -= 1000;
                self.push(json!({"type": "reach_accepted", "actor": r, "scores": scores}));
            }
        }
        for d in end.dora_indicators.iter().skip(self.told.dora) {
            self.push(json!({"type": "dora", "dora_marker": pai(*d)}));
        }
        match &end.how {
            HandEndKind::Win { wins } => {
                for w in wins {
                    self.push(json!({
                        "type": "hora",
                        "actor": w.seat,
                        "target": w.from.unwrap_or(w.seat),
                        "pai": pai(w.tile),
                        "ura_markers": pais(&end.ura_indicators),
                        "fu": w.fu,
                        "fan": w.han,
                        "deltas": deltas(end, Some(w.seat)),
                    }));
                }
            }
            HandEndKind::ExhaustiveDraw { nagashi, .. } => {
                let name = if nagashi.is_empty() { "流局" } else { "流し満貫" };
                self.push(json!({"type": "ryukyoku", "reason": reason(name), "deltas": deltas(end, None)}));
            }
            HandEndKind::AbortiveDraw { .. } => {
                let name = g.results().last().and_then(abort_name).unwrap_or("流局");
                self.push(json!({"type": "ryukyoku", "reason": reason(name), "deltas": deltas(end, None)}));
            }
            // mjai has no chombo: the hand ends as a draw with the penalty's payments.
            HandEndKind::Chombo { .. } => {
                self.push(json!({"type": "ryukyoku", "deltas": deltas(end, None)}));
            }
        }
        self.push(json!({"type": "end_kyoku"}));
    }

    /// The event of a call that stood in the window just closed.
    fn call_event(&self, c: Seat, a: Action, from: Seat, tile: Tile) -> Option<Value> {
        let (kind, consumed) = match a {
            Action::Chi(x, y) => ("chi", vec![x, y]),
            Action::Pon(x, y) => ("pon", vec![x, y]),
            Action::Minkan(k) => {
                let own: Vec<Tile> =
                    self.told.hands[usize::from(c & 3)].iter().copied().filter(|t| t.kind() == k.kind()).collect();
                ("daiminkan", own)
            }
            _ => return None,
        };
        Some(json!({"type": kind, "actor": c, "target": from, "pai": pai(tile), "consumed": pais(&consumed)}))
    }

    /// What the answer says, `None` for a `reach` (the discard is asked next).
    fn answer(&mut self, g: &Riichi, seat: Seat, line: &str, declared: bool) -> Result<Option<Action>, String> {
        let v: Value = serde_json::from_str(line.trim()).map_err(|e| format!("not JSON: {e}"))?;
        let Value::Object(m) = &v else { return Err("an mjai answer is a JSON object".into()) };
        let kind = m.get("type").and_then(Value::as_str).ok_or("an mjai answer has a \"type\"")?;
        if let Some(a) = m.get("actor") {
            if a.as_u64() != Some(u64::from(seat)) {
                return Err(format!("{kind}: \"actor\" is {a}, but seat {seat} was asked"));
            }
        }
        let window = g.claim_window();
        let hand = g.hand(seat);
        let drawn = g.drawn_tile().filter(|d| d.0 == seat).map(|d| d.1);
        if declared && kind != "dahai" {
            return Err(format!("{kind}: after reach the bot owes its riichi discard (dahai)"));
        }
        let own_turn = |what: &str| match window {
            None => Ok(()),
            Some((from, t)) => Err(format!(
                "{what} on seat {from}'s {}: seat {seat} is asked whether it claims it (none to pass)",
                pai(t)
            )),
        };
        match kind {
            "none" => {
                return match window {
                    Some(_) => Ok(Some(Action::Pass)),
                    None => Err("none on the seat's own turn: it owes a dahai (or a declaration)".into()),
                }
            }
            "ryukyoku" => {
                own_turn("ryukyoku")?;
                return Ok(Some(Action::Kyuushu));
            }
            _ => {}
        }
        let ev = read::one_event(m).map_err(|e| e.message)?;
        let tile = |p: Pai| p.tile().ok_or_else(|| format!("{kind}: a hidden tile (\"?\") is not an answer"));
        let in_hand = |ts: &[Tile]| holds(hand, ts);
        match ev {
            Event::Reach { .. } => {
                own_turn("reach")?;
                let can = g.legal_actions(seat).iter().any(|a| matches!(a, Action::Discard { riichi: true, .. }));
                if !can {
                    return Err("reach: riichi is not legal now (tenpai, a closed hand, 1000 points and 4 tiles left \
                                in the wall are needed)"
                        .into());
                }
                self.declared = true;
                self.reach_told = true;
                self.pending.push(json!({"type": "reach", "actor": seat}));
                Ok(None)
            }
            Event::Dahai { pai: p, tsumogiri, .. } => {
                own_turn("dahai")?;
                let t = tile(p)?;
                if !in_hand(&[t]) {
                    return Err(format!("dahai: {} is not in seat {seat}'s hand", pai(t)));
                }
                let from_drawn = if tsumogiri {
                    if drawn != Some(t) {
                        return Err(format!("dahai: tsumogiri, but {} is not the tile just drawn", pai(t)));
                    }
                    true
                } else {
                    // mjai.app reads a discard of the drawn tile written as tsumogiri false as
                    // that discard.
                    drawn == Some(t) && hand.iter().filter(|x| **x == t).count() == 1
                };
                Ok(Some(Action::Discard { tile: t, drawn: from_drawn, riichi: declared }))
            }
            Event::Hora { target, pai: p, .. } => match window {
                Some((from, _)) => {
                    // A ron's `pai` is not read: the tile won on is the window's (the reference
                    // bots write the last discard, which on a robbed kan is another tile).
                    if target != from {
                        return Err(format!("hora: the target is {target}, but the tile is seat {from}'s"));
                    }
                    Ok(Some(Action::Ron))
                }
                None => {
                    if target != seat {
                        return Err(format!("hora on the seat's own draw: the target is {target}, not {seat}"));
                    }
                    if let (Some(p), Some(d)) = (p.map(tile).transpose()?, drawn) {
                        if p != d {
                            return Err(format!("hora: {} is not the tile just drawn ({})", pai(p), pai(d)));
                        }
                    }
                    Ok(Some(Action::Tsumo))
                }
            },
            Event::Chi { target, pai: p, consumed, .. }
            | Event::Pon { target, pai: p, consumed, .. }
            | Event::Daiminkan { target, pai: p, consumed, .. } => {
                let Some((from, t)) = window else {
                    return Err(format!("{kind} on the seat's own turn: there is no discard to call"));
                };
                if target != from || tile(p)? != t {
                    return Err(format!("{kind}: the discard to call is seat {from}'s {}", pai(t)));
                }
                let used = consumed.into_iter().map(tile).collect::<Result<Vec<_>, _>>()?;
                if !in_hand(&used) {
                    return Err(format!("{kind}: {} are not in seat {seat}'s hand", pais(&used).join(" ")));
                }
                Ok(Some(match (kind, used.as_slice()) {
                    ("chi", [a, b]) => Action::chi(*a, *b),
                    ("pon", [a, b]) => Action::pon(*a, *b),
                    _ => Action::Minkan(t.deaka()),
                }))
            }
            Event::Ankan { consumed, .. } => {
                own_turn("ankan")?;
                let used = consumed.into_iter().map(tile).collect::<Result<Vec<_>, _>>()?;
                let first = used.first().copied().filter(|f| used.len() == 4 && used.iter().all(|t| t.kind() == f.kind()));
                let Some(f) = first else { return Err("ankan: \"consumed\" is four tiles of one kind".into()) };
                if !in_hand(&used) {
                    return Err(format!("ankan: {} are not in seat {seat}'s hand", pais(&used).join(" ")));
                }
                Ok(Some(Action::Ankan(f.deaka())))
            }
            Event::Kakan { pai: p, .. } => {
                own_turn("kakan")?;
                let t = tile(p)?;
                if !in_hand(&[t]) {
                    return Err(format!("kakan: {} is not in seat {seat}'s hand", pai(t)));
                }
                Ok(Some(Action::Kakan(t.deaka())))
            }
            _ => Err(format!("{kind} is not an answer: a bot answers dahai, reach, chi, pon, daiminkan, kakan, ankan, hora, ryukyoku or none")),
        }
    }
}

/// Whether `hand` holds every tile of `tiles` (as many copies as it names).
fn holds(hand: &[Tile], tiles: &[Tile]) -> bool {
    tiles.iter().all(|t| hand.iter().filter(|x| *x == t).count() >= tiles.iter().filter(|x| *x == t).count())
}

/// Where play stands: hands over, discards made, tiles in melds (each grows between two draws).
fn place(g: &Riichi) -> (usize, usize, usize) {
    let rivers = (0..4u8).map(|s| g.river(s).len()).sum();
    let melded = (0..4u8).map(|s| g.melds(s).iter().map(|m| m.tiles().len()).sum::<usize>()).sum();
    (g.results().len(), rivers, melded)
}

/// Each seat's change from the payments to `to` (`None`: every payment between seats), the
/// riichi deposits apart (mjai counts them at `reach_accepted`).
fn deltas(end: &HandEnd, to: Option<Seat>) -> [i64; 4] {
    let mut d = [0i64; 4];
    for p in &end.payments {
        let Some(w) = p.to else { continue };
        if to.is_some_and(|t| t != w) {
            continue;
        }
        d[usize::from(w & 3)] += p.points;
        if let Some(f) = p.from {
            d[usize::from(f & 3)] -= p.points;
        }
    }
    d
}

fn line(events: &[Value]) -> String {
    Value::Array(events.to_vec()).to_string()
}

impl Protocol<Riichi> for Mjai {
    /// `start_game`; the first question then starts with the first hand's `start_kyoku`. `game`
    /// is the match before its first record.
    fn begin(&mut self, table: &Table<'_>, game: &Riichi) -> Vec<String> {
        *self = Mjai::new(table.seat);
        self.start_hand(game);
        vec![line(&[json!({"type": "start_game", "names": table.names, "id": table.seat})])]
    }

    /// mjai tells no pass at all (a window closes as the call that stood, or nothing), so
    /// `seen` changes nothing here.
    fn observe(&mut self, seat: Seat, action: &Action, game: &Riichi, _seen: bool) {
        let s = usize::from(seat & 3);
        match *action {
            Action::Discard { tile, drawn, riichi } => {
                if riichi {
                    if !(seat == self.seat && self.reach_told) {
                        self.push(json!({"type": "reach", "actor": seat}));
                    }
                    self.told.reach = Some(seat);
                }
                self.push(json!({"type": "dahai", "actor": seat, "pai": pai(tile), "tsumogiri": drawn}));
            }
            Action::Ankan(k) => {
                let used: Vec<Tile> = self.told.hands[s].iter().copied().filter(|t| t.kind() == k.kind()).collect();
                self.push(json!({"type": "ankan", "actor": seat, "consumed": pais(&used)}));
            }
            Action::Kakan(k) => {
                let added = self.told.hands[s].iter().copied().find(|t| t.kind() == k.kind());
                let pon = self.told.melds[s].iter().find(|m| !m.is_kong() && m.base() == k.kind()).copied();
                if let (Some(added), Some(pon)) = (added, pon) {
                    self.push(
                        json!({"type": "kakan", "actor": seat, "pai": pai(added), "consumed": pais(pon.tiles())}),
                    );
                }
            }
            Action::Chi(..) | Action::Pon(..) | Action::Minkan(..) if self.told.window.is_some() => {
                self.told.calls[s] = Some(action.clone());
            }
            _ => {}
        }
        if seat == self.seat {
            self.reach_told = false;
        }
        if game.results().len() > self.told.results {
            let end = game.view().hand_end;
            self.end_hand(game, end.as_ref());
            let events = std::mem::take(&mut self.pending);
            self.notices.push(line(&events));
            if game.to_act().is_empty() {
                self.told.results = game.results().len();
            } else {
                self.start_hand(game);
            }
            return;
        }
        if let Some(r) = self.told.reach.filter(|r| game.in_riichi(*r)) {
            self.told.reach = None;
            self.push(json!({"type": "reach_accepted", "actor": r, "scores": game.scores()}));
        }
        if let Some((from, tile)) = self.told.window.filter(|w| game.claim_window() != Some(*w)) {
            for c in 0..4u8 {
                let Some(a) = self.told.calls[usize::from(c)].take() else { continue };
                if game.melds(c).len() > self.told.melds[usize::from(c)].len() {
                    if let Some(ev) = self.call_event(c, a, from, tile) {
                        self.push(ev);
                    }
                }
            }
        }
        let dora = game.dora_indicators();
        for d in dora.iter().skip(self.told.dora) {
            self.push(json!({"type": "dora", "dora_marker": pai(*d)}));
        }
        self.told.dora = self.told.dora.max(dora.len());
        self.tell_draw(game);
        self.remember(game);
    }

    fn notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    fn ask(&mut self, _game: &Riichi, _seat: Seat) -> String {
        line(&std::mem::take(&mut self.pending))
    }

    fn read(&mut self, game: &Riichi, seat: Seat, line: &str) -> Answer<Action> {
        let declared = std::mem::take(&mut self.declared);
        match self.answer(game, seat, line, declared) {
            Ok(Some(a)) => Answer::Action(a),
            Ok(None) => Answer::Again,
            Err(why) => Answer::Unreadable(why),
        }
    }

    /// `end_game` with the final scores.
    fn end(&mut self, game: &Riichi) -> Vec<String> {
        vec![line(&[json!({"type": "end_game", "scores": game.scores()})])]
    }
}

#[cfg(test)]
mod tests;
