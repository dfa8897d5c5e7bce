//! The protocol's events and answer reading, and games between mjai.app's reference bots (the
//! Python package `mjai`, the real clients) driven by a small loop of the engine's own.

use super::*;
use crate::arena::process::{BotProcess, Launch};
use paifu_core::log::Options;
use paifu_core::Seed;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

fn game(seed: &str) -> Riichi {
    let rules = Riichi::rules("tenhou", &Options::new()).expect("the tenhou ruleset");
    Riichi::new(rules, 4, Some(&Seed::from_text(seed))).expect("a seeded game")
}

fn names() -> Vec<String> {
    (1..=4).map(|i| format!("bot {i}")).collect()
}

fn begin_all(g: &Riichi, protocols: &mut [Mjai]) -> Vec<Vec<String>> {
    let options = Options::new();
    let names = names();
    protocols
        .iter_mut()
        .enumerate()
        .map(|(s, p)| {
            let table = Table {
                game: "riichi",
                ruleset: "tenhou",
                options: &options,
                names: &names,
                seat: s as Seat,
                number: 1,
            };
            p.begin(&table, g)
        })
        .collect()
}

fn events(line: &str) -> Vec<Value> {
    serde_json::from_str::<Vec<Value>>(line).expect("a line is a JSON array of events")
}

fn tile(s: &str) -> Tile {
    s.parse().expect("a tile")
}

// ---------------------------------------------------------------------------------------------
// Events

#[test]
fn the_first_question_starts_the_hand_with_only_the_seats_own_tiles_shown() {
    let g = game("mjai events");
    let mut ps: Vec<Mjai> = (0..4).map(Mjai::new).collect();
    let begun = begin_all(&g, &mut ps);
    for (s, lines) in begun.iter().enumerate() {
        assert_eq!(lines.len(), 1);
        let start = &events(&lines[0])[0];
        assert_eq!(start["type"], "start_game");
        assert_eq!(start["id"], s);
        assert_eq!(start["names"][3], "bot 4");
    }
    let dealer = g.dealer();
    let (_, drawn, _) = g.drawn_tile().expect("the dealer has drawn");
    for s in 0..4u8 {
        let ev = events(&ps[usize::from(s)].ask(&g, s));
        assert_eq!(ev.len(), 2, "{ev:?}");
        let k = &ev[0];
        assert_eq!(
            (k["type"].as_str(), k["bakaze"].as_str(), k["kyoku"].as_u64()),
            (Some("start_kyoku"), Some("E"), Some(1))
        );
        assert_eq!((k["honba"].as_u64(), k["kyotaku"].as_u64(), k["oya"].as_u64()), (Some(0), Some(0), Some(0)));
        assert_eq!(k["scores"], json!([25000, 25000, 25000, 25000]));
        assert_eq!(k["dora_marker"], json!(pai(g.dora_indicators()[0])));
        for o in 0..4u8 {
            let shown = k["tehais"][usize::from(o)].as_array().expect("a hand");
            assert_eq!(shown.len(), 13);
            if o == s {
                let mut hand = g.hand(o).to_vec();
                if o == dealer {
                    let i = hand.iter().position(|t| *t == drawn).expect("the drawn tile is in the hand");
                    hand.remove(i);
                }
                assert_eq!(shown, &pais(&hand).into_iter().map(Value::from).collect::<Vec<_>>());
            } else {
                assert!(shown.iter().all(|t| t == "?"), "seat {s} sees seat {o}'s hand: {shown:?}");
            }
        }
        let want = if s == dealer { json!(pai(drawn)) } else { json!("?") };
        assert_eq!(ev[1], json!({"type": "tsumo", "actor": dealer, "pai": want}));
        // Asked again with nothing new: an empty list, never the same events twice.
        assert_eq!(ps[usize::from(s)].ask(&g, s), "[]");
    }
}

#[test]
fn red_fives_are_written_as_mjai_writes_them() {
    assert_eq!(pai(tile("0m")), "5mr");
    assert_eq!(pai(tile("0p")), "5pr");
    assert_eq!(pai(tile("0s")), "5sr");
    assert_eq!(pai(tile("5s")), "5s");
    assert_eq!(pai(tile("7z")), "C");
    assert_eq!(Pai::parse("5mr").and_then(Pai::tile), Some(tile("0m")));
}

/// Plays `g` by the first legal action of each seat to act (the lowest seat first), observed by
/// every protocol; stops after `steps` actions or when `stop` says so.
fn play_first(g: &mut Riichi, ps: &mut [Mjai], steps: usize, stop: impl Fn(&Riichi, &Action) -> bool) -> Vec<String> {
    let mut notices = Vec::new();
    for _ in 0..steps {
        let Some(s) = g.to_act().iter().next() else { break };
        let a = g.legal_actions(s)[0].clone();
        g.play_mut(s, &a).expect("a legal action");
        for p in ps.iter_mut() {
            p.observe(s, &a, g, true);
            notices.extend(p.notices());
        }
        if stop(g, &a) {
            break;
        }
    }
    notices
}

#[test]
fn a_discard_then_the_next_draw_is_told_hidden_to_the_others() {
    let mut g = game("mjai events");
    let mut ps: Vec<Mjai> = (0..4).map(Mjai::new).collect();
    begin_all(&g, &mut ps);
    for (s, p) in ps.iter_mut().enumerate() {
        p.ask(&g, s as Seat);
    }
    // The dealer discards; play until the next seat has drawn.
    play_first(&mut g, &mut ps, 10, |g, _| g.drawn_tile().is_some_and(|d| d.0 == 1));
    let (_, t1, _) = g.drawn_tile().expect("seat 1 drew");
    let river = g.river(0);
    assert_eq!(river.len(), 1);
    for s in 0..4u8 {
        let ev = events(&ps[usize::from(s)].ask(&g, s));
        assert_eq!(ev[0]["type"], "dahai");
        assert_eq!((ev[0]["actor"].as_u64(), ev[0]["pai"].as_str()), (Some(0), Some(pai(river[0].tile).as_str())));
        assert_eq!(ev[0]["tsumogiri"], river[0].drawn);
        let last = ev.last().expect("events");
        let want = if s == 1 { pai(t1) } else { "?".to_owned() };
        assert_eq!(last, &json!({"type": "tsumo", "actor": 1, "pai": want}), "seat {s}: {ev:?}");
    }
}

#[test]
fn a_hand_ends_with_its_result_and_end_kyoku_as_a_line_of_its_own() {
    let mut g = game("mjai events");
    let mut ps: Vec<Mjai> = (0..4).map(Mjai::new).collect();
    begin_all(&g, &mut ps);
    let notices = play_first(&mut g, &mut ps, 5000, |g, _| !g.results().is_empty());
    assert_eq!(g.results().len(), 1, "the first hand ended");
    assert_eq!(notices.len(), 4, "one line for each seat");
    for n in &notices {
        let ev = events(n);
        assert_eq!(ev.last(), Some(&json!({"type": "end_kyoku"})));
        let result = &ev[ev.len() - 2];
        assert!(result["type"] == "hora" || result["type"] == "ryukyoku", "{result}");
        let sum: i64 = result["deltas"].as_array().expect("deltas").iter().filter_map(Value::as_i64).sum();
        assert!(sum >= 0, "a result's deltas move points between seats (and the sticks to a winner): {result}");
    }
    // The next question starts the second hand.
    let ev = events(&ps[1].ask(&g, 1));
    assert_eq!(ev[0]["type"], "start_kyoku");
    assert_eq!(ev[0]["scores"], json!(g.scores()));
}

#[test]
fn a_whole_game_of_first_choices_tells_every_seat_the_same_events_apart_from_hidden_tiles() {
    let mut g = game("mjai whole game");
    let mut ps: Vec<Mjai> = (0..4).map(Mjai::new).collect();
    begin_all(&g, &mut ps);
    let mut seen: Vec<Vec<Value>> = vec![Vec::new(); 4];
    let mut steps = 0;
    while let Some(s) = g.to_act().iter().next() {
        let a = g.legal_actions(s)[0].clone();
        g.play_mut(s, &a).expect("a legal action");
        for (i, p) in ps.iter_mut().enumerate() {
            p.observe(s, &a, &g, true);
            for n in p.notices() {
                seen[i].extend(events(&n));
            }
            // Asked every step, as if every seat had a choice: each event once.
            seen[i].extend(events(&p.ask(&g, i as Seat)));
        }
        steps += 1;
        assert!(steps < 100_000, "the game ends");
    }
    let hands = g.results().len();
    for (i, ev) in seen.iter().enumerate() {
        let count = |k: &str| ev.iter().filter(|e| e["type"] == k).count();
        assert_eq!(count("start_kyoku"), hands, "seat {i}");
        assert_eq!(count("end_kyoku"), hands, "seat {i}");
        assert!(count("hora") + count("ryukyoku") >= hands, "seat {i}");
        let hidden = ev.iter().filter(|e| e["type"] == "tsumo" && e["pai"] == "?").count();
        let own = ev.iter().filter(|e| e["type"] == "tsumo" && e["actor"] == i && e["pai"] != "?").count();
        assert_eq!(hidden + own, count("tsumo"), "seat {i}: its own draws shown, the others' hidden");
        assert!(own > 0 && hidden > 0);
    }
    // Every seat is told the same story, only the hidden tiles differ.
    let strip = |ev: &Vec<Value>| -> Vec<Value> {
        ev.iter()
            .map(|e| {
                let mut e = e.clone();
                if e["type"] == "tsumo" {
                    e["pai"] = json!("?");
                }
                if e["type"] == "start_kyoku" {
                    e["tehais"] = json!(null);
                }
                e
            })
            .collect()
    };
    for i in 1..4 {
        assert_eq!(strip(&seen[0]), strip(&seen[i]), "seat {i}");
    }
    // The dahai events are exactly the discards.
    let discards = seen[0].iter().filter(|e| e["type"] == "dahai").count();
    assert!(discards > 4 * hands);
}

// ---------------------------------------------------------------------------------------------
// Answers

/// A game at the dealer's first turn, and its protocols past their first question.
fn at_first_turn(seed: &str) -> (Riichi, Vec<Mjai>) {
    let g = game(seed);
    let mut ps: Vec<Mjai> = (0..4).map(Mjai::new).collect();
    begin_all(&g, &mut ps);
    for (s, p) in ps.iter_mut().enumerate() {
        p.ask(&g, s as Seat);
    }
    (g, ps)
}

fn unreadable(a: Answer<Action>) -> String {
    match a {
        Answer::Unreadable(why) => why,
        other => panic!("read as {other:?}"),
    }
}

#[test]
fn a_discard_is_read_from_the_hand_and_tsumogiri_names_the_drawn_tile() {
    let (g, mut ps) = at_first_turn("mjai answers");
    let (_, drawn, _) = g.drawn_tile().expect("drawn");
    let p = &mut ps[0];
    let line = format!(r#"{{"type":"dahai","actor":0,"pai":"{}","tsumogiri":true}}"#, pai(drawn));
    assert_eq!(p.read(&g, 0, &line), Answer::Action(Action::tsumogiri(drawn)));
    let other = g.hand(0).iter().copied().find(|t| *t != drawn).expect("another tile");
    let line = format!(r#"{{"type":"dahai","actor":0,"pai":"{}","tsumogiri":false}}"#, pai(other));
    assert_eq!(p.read(&g, 0, &line), Answer::Action(Action::discard(other)));
    // The drawn tile written as tsumogiri false, with no other copy in the hand, is that discard.
    if g.hand(0).iter().filter(|t| **t == drawn).count() == 1 {
        let line = format!(r#"{{"type":"dahai","actor":0,"pai":"{}","tsumogiri":false}}"#, pai(drawn));
        assert_eq!(p.read(&g, 0, &line), Answer::Action(Action::tsumogiri(drawn)));
    }
    // tsumogiri of a tile that is not the drawn one.
    let line = format!(r#"{{"type":"dahai","actor":0,"pai":"{}","tsumogiri":true}}"#, pai(other));
    assert!(unreadable(p.read(&g, 0, &line)).contains("not the tile just drawn"));
}

#[test]
fn unreadable_answers_say_why() {
    let (g, mut ps) = at_first_turn("mjai answers");
    let p = &mut ps[0];
    assert!(unreadable(p.read(&g, 0, "dahai 1m")).starts_with("not JSON"));
    assert!(unreadable(p.read(&g, 0, "[1,2]")).contains("JSON object"));
    assert!(unreadable(p.read(&g, 0, r#"{"actor":0}"#)).contains("\"type\""));
    let (_, drawn, _) = g.drawn_tile().expect("drawn");
    let wrong = format!(r#"{{"type":"dahai","actor":2,"pai":"{}","tsumogiri":true}}"#, pai(drawn));
    assert!(unreadable(p.read(&g, 0, &wrong)).contains("\"actor\" is 2, but seat 0 was asked"));
    let absent = ["1m", "2m", "3m", "9p", "E", "C", "5mr"]
        .into_iter()
        .find(|t| !g.hand(0).contains(&Pai::parse(t).and_then(Pai::tile).expect("a tile")))
        .expect("some tile is not in the hand");
    let line = format!(r#"{{"type":"dahai","actor":0,"pai":"{absent}","tsumogiri":false}}"#);
    assert!(unreadable(p.read(&g, 0, &line)).contains(&format!("{absent} is not in seat 0's hand")));
    assert!(unreadable(p.read(&g, 0, r#"{"type":"none"}"#)).contains("none on the seat's own turn"));
    assert!(unreadable(p.read(&g, 0, r#"{"type":"dahai","actor":0,"pai":"0m","tsumogiri":false}"#))
        .contains("not an mjai tile"));
    assert!(unreadable(p.read(&g, 0, r#"{"type":"dahai","actor":0,"pai":"?","tsumogiri":false}"#)).contains("hidden"));
    assert!(unreadable(p.read(&g, 0, r#"{"type":"dahai","actor":0,"pai":"1m"}"#)).contains("tsumogiri"));
    assert!(unreadable(p.read(&g, 0, r#"{"type":"pon","actor":0,"target":1,"pai":"1m","consumed":["1m","1m"]}"#))
        .contains("no discard to call"));
    assert!(unreadable(p.read(&g, 0, r#"{"type":"end_game"}"#)).contains("not an answer"));
    assert!(unreadable(p.read(&g, 0, r#"{"type":"hora","actor":0,"target":3}"#)).contains("target is 3"));
}

#[test]
fn reach_asks_again_with_the_reach_event_then_reads_the_riichi_discard() {
    // Play first choices until some seat may declare riichi on its turn.
    let mut g = game("mjai reach");
    let mut ps: Vec<Mjai> = (0..4).map(Mjai::new).collect();
    begin_all(&g, &mut ps);
    let can_riichi = |g: &Riichi| {
        g.drawn_tile().and_then(|(s, _, _)| {
            g.legal_actions(s).into_iter().find(|a| matches!(a, Action::Discard { riichi: true, .. })).map(|a| (s, a))
        })
    };
    let mut found = None;
    for _ in 0..200_000 {
        if let Some(x) = can_riichi(&g) {
            found = Some(x);
            break;
        }
        let Some(s) = g.to_act().iter().next() else { break };
        // Never riichi, never win: keep the game going.
        let legal = g.legal_actions(s);
        let a = legal
            .iter()
            .find(|a| matches!(a, Action::Discard { riichi: false, .. } | Action::Pass))
            .unwrap_or(&legal[0])
            .clone();
        g.play_mut(s, &a).expect("legal");
        for p in ps.iter_mut() {
            p.observe(s, &a, &g, true);
            p.notices();
        }
    }
    let (s, riichi) = found.expect("some seat may declare riichi in a game of first choices");
    let Action::Discard { tile: t, drawn, .. } = riichi else { unreachable!() };
    for (i, p) in ps.iter_mut().enumerate() {
        p.ask(&g, i as Seat);
    }
    let p = &mut ps[usize::from(s)];
    // Anything but a dahai after reach is refused; the reach is then undone.
    assert_eq!(p.read(&g, s, &format!(r#"{{"type":"reach","actor":{s}}}"#)), Answer::Again);
    assert_eq!(events(&p.ask(&g, s)), vec![json!({"type": "reach", "actor": s})]);
    assert!(unreadable(p.read(&g, s, r#"{"type":"none"}"#)).contains("after reach"));
    assert_eq!(p.read(&g, s, &format!(r#"{{"type":"reach","actor":{s}}}"#)), Answer::Again);
    p.ask(&g, s);
    let line = format!(r#"{{"type":"dahai","actor":{s},"pai":"{}","tsumogiri":{drawn}}}"#, pai(t));
    assert_eq!(p.read(&g, s, &line), Answer::Action(riichi.clone()));
    // Played: the others are told reach then dahai; the declarer only the dahai (it was sent its
    // reach already).
    g.play_mut(s, &riichi).expect("legal");
    for (i, p) in ps.iter_mut().enumerate() {
        p.observe(s, &riichi, &g, true);
        p.notices();
        let ev = events(&p.ask(&g, i as Seat));
        let kinds: Vec<&str> = ev.iter().filter_map(|e| e["type"].as_str()).collect();
        if i == usize::from(s) {
            assert_eq!(kinds[0], "dahai", "{ev:?}");
        } else {
            assert_eq!(&kinds[..2], &["reach", "dahai"], "{ev:?}");
        }
    }
}

#[test]
fn the_reader_never_panics_on_mangled_answers() {
    // Every prefix of some answers, and each with one byte replaced, on the seat's turn and in a
    // claim window: read as something or refused, never a panic.
    let (g, mut ps) = at_first_turn("mjai answers");
    let mut windowed = game("mjai claims");
    while windowed.claim_window().is_none() {
        let s = windowed.to_act().iter().next().expect("the game goes on");
        let a = windowed.legal_actions(s)[0].clone();
        windowed.play_mut(s, &a).expect("legal");
    }
    let answers = [
        r#"{"type":"dahai","actor":0,"pai":"5mr","tsumogiri":false}"#,
        r#"{"type":"chi","actor":1,"target":0,"pai":"3m","consumed":["4m","5m"]}"#,
        r#"{"type":"ankan","actor":0,"consumed":["E","E","E","E"]}"#,
        r#"{"type":"hora","actor":0,"target":0,"pai":"C"}"#,
        r#"{"type":"kakan","actor":0,"pai":"5pr","consumed":["5p","5p","5p"]}"#,
    ];
    let mut read = 0;
    for (pos, seat) in [(&g, 0u8), (&windowed, windowed.to_act().iter().next().expect("a seat"))] {
        let p = &mut ps[usize::from(seat)];
        for a in answers {
            for cut in 0..=a.len() {
                let _ = p.read(pos, seat, &a[..cut]);
                for c in ["\"", "9", "-", "[", "\u{00e9}", "}"] {
                    let mut b = a.as_bytes()[..cut].to_vec();
                    b.extend_from_slice(c.as_bytes());
                    b.extend_from_slice(&a.as_bytes()[(cut + 1).min(a.len())..]);
                    let _ = p.read(pos, seat, &String::from_utf8_lossy(&b));
                    read += 1;
                }
            }
        }
    }
    assert!(read > 1000);
}

#[test]
fn reach_when_riichi_is_not_legal_is_refused() {
    let (g, mut ps) = at_first_turn("mjai answers");
    let riichi = g.legal_actions(0).iter().any(|a| matches!(a, Action::Discard { riichi: true, .. }));
    assert!(!riichi, "a first hand not tenpai for this seed");
    assert!(unreadable(ps[0].read(&g, 0, r#"{"type":"reach","actor":0}"#)).contains("riichi is not legal"));
}

#[test]
fn in_a_claim_window_none_passes_and_calls_are_read_with_their_tiles() {
    // Play first choices until a window asks some seat for a pon or chi.
    let mut g = game("mjai claims");
    let mut ps: Vec<Mjai> = (0..4).map(Mjai::new).collect();
    begin_all(&g, &mut ps);
    let mut found = None;
    for _ in 0..200_000 {
        if let Some((from, t)) = g.claim_window() {
            let call = g.to_act().iter().find_map(|s| {
                g.legal_actions(s).into_iter().find(|a| matches!(a, Action::Pon(..) | Action::Chi(..))).map(|a| (s, a))
            });
            if let Some((s, a)) = call {
                found = Some((s, a, from, t));
                break;
            }
        }
        let Some(s) = g.to_act().iter().next() else { break };
        let a = g.legal_actions(s)[0].clone();
        g.play_mut(s, &a).expect("legal");
        for p in ps.iter_mut() {
            p.observe(s, &a, &g, true);
            p.notices();
        }
    }
    let (s, call, from, t) = found.expect("a call is possible in a game of first choices");
    let p = &mut ps[usize::from(s)];
    assert_eq!(p.read(&g, s, r#"{"type":"none"}"#), Answer::Action(Action::Pass));
    let (kind, a, b) = match call {
        Action::Pon(a, b) => ("pon", a, b),
        Action::Chi(a, b) => ("chi", a, b),
        _ => unreachable!(),
    };
    let line = |target: Seat, claimed: Tile| {
        format!(
            r#"{{"type":"{kind}","actor":{s},"target":{target},"pai":"{}","consumed":["{}","{}"]}}"#,
            pai(claimed),
            pai(a),
            pai(b)
        )
    };
    assert_eq!(p.read(&g, s, &line(from, t)), Answer::Action(call.clone()));
    assert!(unreadable(p.read(&g, s, &line((from + 1) % 4, t))).contains("the discard to call is"));
    let dahai = format!(r#"{{"type":"dahai","actor":{s},"pai":"{}","tsumogiri":false}}"#, pai(a));
    assert!(unreadable(p.read(&g, s, &dahai)).contains("is asked whether it claims"));
    // A call with a tile the seat does not hold.
    let missing = (0..34u8)
        .filter_map(|k| Tile::try_from(k).ok())
        .find(|x| !g.hand(s).contains(x))
        .expect("a tile not in the hand");
    let bad = format!(
        r#"{{"type":"{kind}","actor":{s},"target":{from},"pai":"{}","consumed":["{}","{}"]}}"#,
        pai(t),
        pai(missing),
        pai(b)
    );
    assert!(unreadable(p.read(&g, s, &bad)).contains("are not in seat"));
    // Played, the call is told once the window closes.
    let mut g2 = g.clone();
    g2.play_mut(s, &call).expect("legal");
    let mut ps2 = ps.clone();
    for p in ps2.iter_mut() {
        p.observe(s, &call, &g2, true);
    }
    while g2.claim_window() == Some((from, t)) {
        let Some(o) = g2.to_act().iter().next() else { break };
        g2.play_mut(o, &Action::Pass).expect("a pass");
        for p in ps2.iter_mut() {
            p.observe(o, &Action::Pass, &g2, true);
        }
    }
    if g2.melds(s).len() > g.melds(s).len() {
        let ev = events(&ps2[0].ask(&g2, 0));
        let want = json!({"type": kind, "actor": s, "target": from, "pai": pai(t), "consumed": [pai(a), pai(b)]});
        assert!(ev.contains(&want), "{ev:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// mjai.app's reference bots

/// Where the `mjai` package is imported from: `None` when `python3` imports it as installed,
/// else the folder it was installed into (under the target folder) for the bots' PYTHONPATH.
fn mjai_package() -> &'static Option<PathBuf> {
    static PACKAGE: OnceLock<Option<PathBuf>> = OnceLock::new();
    PACKAGE.get_or_init(|| {
        let imports = |path: Option<&Path>| {
            let mut c = Command::new("python3");
            c.args(["-c", "import mjai.bot.rulebase, mjai.bot.riichibot"]).stdout(Stdio::null()).stderr(Stdio::null());
            if let Some(p) = path {
                c.env("PYTHONPATH", p);
            }
            c.status().is_ok_and(|s| s.success())
        };
        if imports(None) {
            return None;
        }
        // target/debug/deps/paifu_recorder-... -> target/pydeps
        let exe = std::env::current_exe().expect("the test binary's path");
        let target = exe.ancestors().nth(3).expect("the target folder").to_path_buf();
        let dir = target.join("pydeps");
        if !imports(Some(&dir)) {
            let out = Command::new("python3")
                .args(["-m", "pip", "install", "--quiet", "--target"])
                .arg(&dir)
                .arg("mjai==0.2.1")
                .output();
            let ok = out.as_ref().is_ok_and(|o| o.status.success()) && imports(Some(&dir));
            assert!(
                ok,
                "the Python package mjai (mjai.app's reference bots) is needed: `python3 -m pip install mjai==0.2.1` \
                 failed ({})",
                match &out {
                    Ok(o) => String::from_utf8_lossy(&o.stderr).into_owned(),
                    Err(e) => e.to_string(),
                }
            );
        }
        Some(dir)
    })
}

fn bot_command(class: &str) -> String {
    let module = if class == "RulebaseBot" { "rulebase" } else { "riichibot" };
    let run = format!("from mjai.bot.{module} import {class}; {class}(player_id={{seat}}).start()");
    match mjai_package() {
        None => format!("python3 -c '{run}'"),
        Some(dir) => {
            format!("env PYTHONPATH={} python3 -c '{run}'", shlex::try_quote(&dir.to_string_lossy()).expect("a path"))
        }
    }
}

/// What a game between bots came to.
#[derive(Debug, Default)]
struct Played {
    hands: usize,
    decisions: usize,
    /// Decisions other than a pass: discards, calls, riichi, wins.
    moves: usize,
    riichi: usize,
    calls: usize,
    wins: usize,
}

/// Plays a whole game between the bots `classes` (seat order) from `seed`, each bot's standard
/// error kept in `dir`: every answer must be readable and legal.
fn play_bots(seed: &str, classes: [&str; 4], dir: &Path) -> (Riichi, Played) {
    let mut g = game(seed);
    let mut ps: Vec<Mjai> = (0..4).map(Mjai::new).collect();
    let mut bots: Vec<BotProcess> = (0..4u8)
        .map(|s| {
            let err = dir.join(format!("seat-{s}.stderr"));
            let launch = Launch { sandbox: None, stderr: Some(&err) };
            BotProcess::spawn(&bot_command(classes[usize::from(s)]), s, launch).expect("the bot starts")
        })
        .collect();
    let wait = Duration::from_secs(60);
    let exchange = |bots: &mut Vec<BotProcess>, s: usize, line: &str| -> String {
        bots[s].send(line, wait).unwrap_or_else(|e| panic!("seed {seed:?}, seat {s}: {e}"));
        bots[s].answer(wait).unwrap_or_else(|e| panic!("seed {seed:?}, seat {s}: {e} (after {line})"))
    };
    for (s, lines) in begin_all(&g, &mut ps).into_iter().enumerate() {
        for l in lines {
            exchange(&mut bots, s, &l);
        }
    }
    let mut played = Played::default();
    while let Some(s) = g.to_act().iter().next() {
        let i = usize::from(s);
        let mut line = ps[i].ask(&g, s);
        let action = loop {
            let answer = exchange(&mut bots, i, &line);
            played.decisions += 1;
            match ps[i].read(&g, s, &answer) {
                Answer::Action(a) => {
                    if let Err(v) = g.check(s, &a) {
                        panic!("seed {seed:?}: seat {s} answered {answer} to {line}: {a} is refused: {}", v.message)
                    }
                    break a;
                }
                Answer::Again => line = ps[i].ask(&g, s),
                Answer::Unreadable(why) => panic!("seed {seed:?}: seat {s} answered {answer} to {line}: {why}"),
            }
        };
        match action {
            Action::Pass => {}
            Action::Discard { riichi, .. } => {
                played.moves += 1;
                played.riichi += usize::from(riichi);
            }
            Action::Chi(..) | Action::Pon(..) | Action::Minkan(..) | Action::Ankan(..) | Action::Kakan(..) => {
                played.moves += 1;
                played.calls += 1;
            }
            Action::Tsumo | Action::Ron => {
                played.moves += 1;
                played.wins += 1;
            }
            _ => played.moves += 1,
        }
        g.play_mut(s, &action).expect("checked");
        for (o, p) in ps.iter_mut().enumerate() {
            p.observe(s, &action, &g, true);
            for n in p.notices() {
                exchange(&mut bots, o, &n);
            }
        }
        assert!(played.decisions < 200_000, "seed {seed:?}: the game ends");
    }
    for (o, p) in ps.iter_mut().enumerate() {
        for l in p.end(&g) {
            exchange(&mut bots, o, &l);
        }
    }
    drop(bots);
    for (s, class) in classes.iter().enumerate() {
        let path = dir.join(format!("seat-{s}.stderr"));
        let err = std::fs::read_to_string(&path).expect("the stderr file");
        assert!(
            !reports_exception(&err),
            "seed {seed:?}: the bot at seat {s} ({}) reports an exception about the events it was sent:\n{}",
            class,
            err.lines().filter(|l| !l.contains("| INFO")).take(40).collect::<Vec<_>>().join("\n")
        );
    }
    played.hands = g.results().len();
    (g, played)
}

/// Whether a bot's standard error holds the report the mjai `Bot` writes when the events it was
/// sent confuse it (`Exception: ...`).
fn reports_exception(stderr: &str) -> bool {
    stderr.contains("Exception")
}

#[test]
fn a_reference_bot_sent_events_that_confuse_it_reports_an_exception() {
    // The check the games rely on can fail: a draw before any hand began.
    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join("seat-0.stderr");
    let launch = Launch { sandbox: None, stderr: Some(&path) };
    let mut bot = BotProcess::spawn(&bot_command("RulebaseBot"), 0, launch).expect("the bot starts");
    let wait = Duration::from_secs(60);
    bot.send(r#"[{"type":"start_game","names":["a","b","c","d"],"id":0}]"#, wait).expect("sent");
    assert_eq!(bot.answer(Duration::from_secs(60)).expect("an answer"), r#"{"type":"none"}"#);
    bot.send(r#"[{"type":"tsumo","actor":0,"pai":"1m"}]"#, wait).expect("sent");
    assert_eq!(bot.answer(Duration::from_secs(60)).expect("an answer"), r#"{"type":"none"}"#);
    drop(bot);
    let text = std::fs::read_to_string(&path).expect("the stderr file");
    assert!(reports_exception(&text), "{text}");
}

#[test]
fn mjai_app_reference_bots_play_whole_games_with_every_answer_legal() {
    let dir = tempfile::tempdir().expect("a folder");
    let games: [(&str, [&str; 4]); 3] = [
        ("mjai bots 1", ["RulebaseBot"; 4]),
        ("mjai bots 2", ["RulebaseBot", "RiichiBot", "RulebaseBot", "RiichiBot"]),
        ("mjai bots 3", ["RiichiBot", "RulebaseBot", "RiichiBot", "RulebaseBot"]),
    ];
    let mut total = Played::default();
    for (seed, classes) in games {
        let (g, p) = play_bots(seed, classes, dir.path());
        assert!(g.to_act().is_empty(), "seed {seed:?}: the game is over");
        assert!(p.hands >= 8, "seed {seed:?}: an East+South game has at least 8 hands: {p:?}");
        assert_eq!(g.scores().iter().sum::<i64>() + 1000 * i64::from(g.riichi_sticks()), 100_000, "{p:?}");
        eprintln!("seed {seed:?} {classes:?}: {p:?}, scores {:?}", g.scores());
        total.hands += p.hands;
        total.decisions += p.decisions;
        total.moves += p.moves;
        total.riichi += p.riichi;
        total.calls += p.calls;
        total.wins += p.wins;
    }
    eprintln!("in all: {total:?}");
    // The games used the protocol's answers beyond the discard.
    assert!(total.riichi > 0 && total.calls > 0 && total.wins > 0, "{total:?}");
}

// ---------------------------------------------------------------------------------------------
// The events against `paifu export mjai`

/// An event as both sides write it: the fields the protocol and the exporter share, a hand's
/// tiles sorted.
fn comparable(e: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for k in [
        "type",
        "actor",
        "target",
        "pai",
        "consumed",
        "tsumogiri",
        "dora_marker",
        "bakaze",
        "kyoku",
        "honba",
        "kyotaku",
        "oya",
        "scores",
        "deltas",
        "ura_markers",
    ] {
        if let Some(v) = e.get(k) {
            out.insert(k.into(), v.clone());
        }
    }
    if let Some(hands) = e.get("tehais").and_then(Value::as_array) {
        let sorted: Vec<Value> = hands
            .iter()
            .map(|h| {
                let mut h: Vec<String> =
                    h.as_array().into_iter().flatten().filter_map(|t| t.as_str().map(str::to_owned)).collect();
                h.sort();
                json!(h)
            })
            .collect();
        out.insert("tehais".into(), json!(sorted));
    }
    if e["type"] == "reach_accepted" {
        out.remove("scores");
    }
    Value::Object(out)
}

#[test]
fn the_events_are_those_paifu_export_mjai_writes_with_the_others_tiles_hidden() {
    use crate::bots::riichi::Greedy;
    use crate::Bot;
    let mut kans = 0;
    for n in 1..=4 {
        let seed = Seed::from_text(&format!("mjai export {n}"));
        let rules = Riichi::rules("tenhou", &Options::new()).expect("rules");
        let mut bots: Vec<Box<dyn Bot<Riichi>>> = (0..4u8)
            .map(|s| -> Box<dyn Bot<Riichi>> {
                if s % 2 == 0 {
                    Box::new(Greedy)
                } else {
                    crate::bots::random(&seed.child(&format!("bot {s}")))
                }
            })
            .collect();
        let log =
            crate::play_game::<Riichi>("tenhou", rules.clone(), seed, &mut bots, Default::default()).expect("a game");
        let exported: Vec<Value> = crate::import::mjai::export(&log)
            .expect("the export")
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .filter(|e: &Value| e["type"] != "start_game" && e["type"] != "end_game")
            .collect();
        kans += exported.iter().filter(|e| matches!(e["type"].as_str(), Some("ankan" | "kakan" | "daiminkan"))).count();
        let mut g = Riichi::new(rules, 4, Some(&seed)).expect("the game");
        let mut ps: Vec<Mjai> = (0..4).map(Mjai::new).collect();
        begin_all(&g, &mut ps);
        let mut told: Vec<Vec<Value>> = (0..4).map(|i| events(&ps[i].ask(&g, i as Seat))).collect();
        for r in &log.records {
            g.play_mut(r.seat, &r.action).expect("the log replays");
            for (i, p) in ps.iter_mut().enumerate() {
                p.observe(r.seat, &r.action, &g, true);
                for l in p.notices() {
                    told[i].extend(events(&l));
                }
                told[i].extend(events(&p.ask(&g, i as Seat)));
            }
        }
        for (i, ev) in told.iter().enumerate() {
            let mut seen = Mjai::new(i as Seat);
            let want: Vec<Value> = exported
                .iter()
                .map(|e| {
                    seen.push(e.clone());
                    comparable(&seen.pending.pop().expect("pushed"))
                })
                .collect();
            let got: Vec<Value> = ev.iter().map(comparable).collect();
            // The export shows a kan's new indicator right after the kan; the protocol when the
            // engine shows it (Tenhou's rule, as mjai.app's engine: a closed kan's at once, an
            // open or added kan's after the next discard). The same indicators, each hand.
            let (got, got_dora) = apart_dora(got);
            let (want, want_dora) = apart_dora(want);
            assert_eq!(got_dora, want_dora, "seed {n}, seat {i}");
            for (j, (a, b)) in got.iter().zip(&want).enumerate() {
                assert_eq!(
                    a,
                    b,
                    "seed {n}, seat {i}, event {j}: told (left), exported (right); before: {:?}",
                    &got[j.saturating_sub(4)..j]
                );
            }
            assert_eq!(got.len(), want.len(), "seed {n}, seat {i}");
            dora_when_the_engine_shows_it(ev);
        }
    }
    assert!(kans > 0, "the games have kans");
}

/// The events without `dora`, and the indicators each hand showed by `dora`.
fn apart_dora(events: Vec<Value>) -> (Vec<Value>, Vec<Vec<Value>>) {
    let mut dora: Vec<Vec<Value>> = Vec::new();
    let mut rest = Vec::new();
    for e in events {
        if e["type"] == "start_kyoku" {
            dora.push(Vec::new());
        }
        if e["type"] == "dora" {
            if let Some(d) = dora.last_mut() {
                d.push(e["dora_marker"].clone());
            }
        } else {
            rest.push(e);
        }
    }
    (rest, dora)
}

/// A closed kan's indicator comes before the replacement draw; an open or added kan's after the
/// kan's seat's next discard (when the hand goes on that far).
fn dora_when_the_engine_shows_it(events: &[Value]) {
    for (j, e) in events.iter().enumerate() {
        let kind = e["type"].as_str().unwrap_or("");
        if !matches!(kind, "ankan" | "kakan" | "daiminkan") {
            continue;
        }
        let next: Vec<&str> =
            events[j + 1..].iter().filter_map(|e| e["type"].as_str()).take_while(|t| *t != "end_kyoku").collect();
        if kind == "ankan" {
            assert_eq!(next.first(), Some(&"dora"), "{e}: {next:?}");
        } else if let Some(d) = next.iter().position(|t| *t == "dahai") {
            assert_eq!(next.get(d + 1), Some(&"dora"), "{e}: {next:?}");
            assert!(!next[..d].contains(&"dora"), "{e}: {next:?}");
        }
    }
}
