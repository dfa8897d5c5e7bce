//! Tests of the Hungarian scorer: the rules page's worked examples, and the rules behind them.

use super::rules::{HonoursIn, Rules};
use super::score::{completes, is_mahjong, readings, score_loser, score_winner, settle, Hand, Set, Shape, Win};
use super::score_line;
use super::table::{table, Doubling, Limit, Line};
use crate::mahjong::{counts_of, parse_tiles, Counts};
use serde_json::Value;

const DOC: &str = include_str!("../../../docs/rules/hungarian.md");

/// The rules page's worked examples: each ```` ```json input ```` block and the
/// ```` ```json expected ```` block after it.
fn examples() -> Vec<(Value, Value)> {
    let mut out = Vec::new();
    let mut input: Option<Value> = None;
    let mut lines = DOC.lines();
    while let Some(line) = lines.next() {
        let tag = line.trim();
        if tag != "```json input" && tag != "```json expected" {
            continue;
        }
        let body: String = lines.by_ref().take_while(|l| l.trim() != "```").collect::<Vec<_>>().join("\n");
        let v: Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("bad JSON in the rules page: {e}\n{body}"));
        if tag.ends_with("input") {
            assert!(input.replace(v).is_none(), "two inputs without an expected answer");
        } else {
            out.push((input.take().expect("an expected answer without its input"), v));
        }
    }
    out
}

/// Every field of `want` is in `got` with the same value (objects recursively, lists whole).
fn matches(want: &Value, got: &Value, path: &str) -> Result<(), String> {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            for (k, v) in w {
                let inner = format!("{path}.{k}");
                matches(v, g.get(k).ok_or_else(|| format!("{inner} is missing"))?, &inner)?;
            }
            Ok(())
        }
        _ if want == got => Ok(()),
        _ => Err(format!("{path}: want {want}, got {got}")),
    }
}

#[test]
fn the_worked_examples_score_as_written() {
    let all = examples();
    assert!(all.len() >= 25, "{} examples", all.len());
    let mut failures = Vec::new();
    for (input, want) in &all {
        let answer: Value = serde_json::from_str(&score_line(&input.to_string())).unwrap();
        let id = &input["id"];
        if answer["ok"] != Value::Bool(true) {
            failures.push(format!("{id}: {answer}"));
            continue;
        }
        assert_eq!(answer["id"], *id);
        if let Err(e) = matches(want, &answer, "") {
            failures.push(format!("{id}: {e}\n  answer: {answer}"));
        }
        // Every answer adds up: the points are the lines' sum, the score the doubled points and
        // the bonus, the payments zero-sum.
        for (_, p) in answer["players"].as_object().unwrap() {
            let lines: i64 = p["lines"].as_array().unwrap().iter().map(|l| l["points"].as_i64().unwrap()).sum();
            assert_eq!(lines, p["points"].as_i64().unwrap(), "{id}");
            let bonus = p["limit"]["bonus"].as_i64().unwrap_or(0);
            let d = p["doublings"].as_u64().unwrap() as u32;
            assert_eq!(p["points"].as_i64().unwrap() * (1 << d) + bonus, p["score"].as_i64().unwrap(), "{id}");
        }
        let net: i64 = answer["payments"].as_object().unwrap().values().map(|v| v.as_i64().unwrap()).sum();
        assert_eq!(net, 0, "{id}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every line, doubling and limit hand has a worked example that shows it.
#[test]
fn every_line_doubling_and_limit_has_a_worked_example() {
    let shown: String = examples().iter().map(|(_, want)| want.to_string()).collect();
    for l in Line::ALL {
        assert!(shown.contains(&format!("\"name\":\"{}\"", l.name())), "no worked example shows {l}");
    }
    for d in Doubling::ALL {
        assert!(shown.contains(&format!(" {}\"", d.name())), "no worked example shows the doubling {d}");
    }
    for l in Limit::ALL {
        assert!(shown.contains(&format!("\"name\":\"{}\"", l.name())), "no worked example shows the limit {l}");
    }
}

fn counts(s: &str) -> Counts {
    counts_of(&parse_tiles(s).unwrap())
}

fn kind(s: &str) -> u8 {
    parse_tiles(s).unwrap()[0].kind() as u8
}

fn winner(hand: &str, melds: &[Set], win: &str, self_drawn: bool, wind: u8, rules: &Rules) -> super::score::Scored {
    let c = counts(hand);
    let h = Hand { concealed: &c, melds, flowers: &[], wind };
    score_winner(&h, &Win { tile: kind(win), self_drawn, heavenly: false }, wind == 0, rules, table().unwrap()).unwrap()
}

#[test]
fn a_pong_completed_by_the_robbed_tile_is_exposed_unless_another_group_takes_the_tile() {
    let r = Rules::default();
    // 333m waits with 45m: a robbed 3m completes either 333m (then exposed) or 345m.
    let s = winner("333m345m678p99s111z", &[], "3m", false, 1, &r);
    assert!(s.lines.contains(&(Line::ConcealedPongSimples, 4)), "{:?}", s.lines);
    // Only the pong can take it: exposed.
    let s = winner("333m456m678p99s111z", &[], "3m", false, 1, &r);
    assert!(s.lines.contains(&(Line::ExposedPongSimples, 2)) && !s.lines.contains(&(Line::ConcealedPongSimples, 4)));
    // Self-drawn, it stays concealed.
    let s = winner("333m456m678p99s111z", &[], "3m", true, 1, &r);
    assert!(s.lines.contains(&(Line::ConcealedPongSimples, 4)));
}

#[test]
fn a_loser_reads_its_hand_for_the_most() {
    let t = table().unwrap();
    // Four of a dragon in the hand (no kong declared): a concealed pong and a single, doubled;
    // of the two scoring pairs one counts; 55m scores nothing.
    let c = counts("7777z55z11z55m123p");
    let s = score_loser(&Hand { concealed: &c, melds: &[], flowers: &[4, 5], wind: 0 }, t);
    assert_eq!(
        s.lines,
        vec![
            (Line::ConcealedPongTerminalsHonours, 8),
            (Line::OwnWindPair, 2),
            (Line::OtherFlower, 4),
            (Line::OwnFlower, 8)
        ]
    );
    assert_eq!((s.points, s.doublings, s.score), (22, 1, 44));
    assert_eq!(s.limit, None);
    // North: 1z is not its wind, so the white dragons' pair is the pair that counts.
    let s = score_loser(&Hand { concealed: &c, melds: &[], flowers: &[], wind: 3 }, t);
    assert_eq!(s.lines, vec![(Line::ConcealedPongTerminalsHonours, 8), (Line::DragonPair, 2)]);
}

#[test]
fn settlement_is_zero_sum_east_doubles_and_losers_settle_by_option() {
    // West wins 100; East 10, South 30, North 0 among the losers.
    let scores = [10, 30, 100, 0];
    assert_eq!(settle(&scores, 2, 0, false), [-200, -100, 400, -100]);
    // E-S: E pays 20 x 2; E-N: N pays 10 x 2; S-N: N pays 30.
    assert_eq!(settle(&scores, 2, 0, true), [-200 - 40 + 20, -100 + 40 + 30, 400, -100 - 20 - 30]);
    // The East seat is whichever index is East.
    assert_eq!(settle(&[5, 0, 0, 0], 0, 0, true), [30, -10, -10, -10]);
    assert_eq!(settle(&[5, 0, 0, 0], 0, 2, true), [20, -5, -10, -5]);
    for w in 0..4 {
        for e in 0..4 {
            for ls in [false, true] {
                let n = settle(&[7, 300, 12, 45], w, e, ls);
                assert_eq!(n.iter().sum::<i64>(), 0);
                assert!(n[w] > 0);
            }
        }
    }
}

#[test]
fn the_special_hands_are_read_as_the_seed_says() {
    let r = Rules::default();
    let special = |hand: &str| -> Vec<Shape> {
        let c = counts(hand);
        let h = Hand { concealed: &c, melds: &[], flowers: &[], wind: 0 };
        readings(&h, &Win { tile: 0, self_drawn: true, heavenly: false }, &r).iter().map(|x| x.shape).collect()
    };
    assert_eq!(special("1133m5577p2299s44z"), [Shape::SevenPairs]);
    // Four of a kind as two pairs, with the option (the default) only.
    assert_eq!(special("1111m5577p2299s44z"), [Shape::SevenPairs]);
    let strict = Rules { seven_pairs_repeat: false, ..Rules::default() };
    assert!(!is_mahjong(&counts("1111m5577p2299s44z"), 0, &strict));
    assert!(is_mahjong(&counts("1111m5577p2299s44z"), 0, &r));
    // Thirteen wonders: any fourteenth tile.
    assert_eq!(special("19m19p19s1234567z5p"), [Shape::ThirteenWonders]);
    assert_eq!(special("19m19p19s1234567z7z"), [Shape::ThirteenWonders]);
    // The big run, both ways: with the four winds and one more of the suit, or with the three
    // dragons and a wind pair.
    assert_eq!(special("1234567899p1234z"), [Shape::BigRun]);
    assert_eq!(special("123456789p56733z"), [Shape::BigRun]);
    assert!(special("123456789p1234z5m").is_empty());
    assert!(special("12345678p1234z55p").is_empty());
    // Not from laid-out sets.
    let c = counts("1133m5577p2299s");
    let chow = [Set::Chow { base: 0 }];
    let h = Hand { concealed: &c, melds: &chow, flowers: &[], wind: 0 };
    assert!(readings(&h, &Win { tile: 0, self_drawn: true, heavenly: false }, &r).is_empty());
    // Eleven tiles with one set laid out: four sets and a pair only.
    assert!(is_mahjong(&counts("123m456p789s11z22z2z"), 0, &r));
    assert!(is_mahjong(&counts("456p789s11z22z2z"), 1, &r));
}

#[test]
fn a_discard_is_claimed_for_mahjong_only_when_the_hand_lacks_it() {
    let r = Rules::default();
    // Thirteen wonders already held: the hand lacks nothing.
    let held = counts("19m19p19s1234567z");
    assert!(!completes(&held, usize::from(kind("5m")), &[], &r));
    assert!(!completes(&held, usize::from(kind("1m")), &[], &r));
    // Twelve of them and a stray tile: the missing one completes it, nothing else does.
    let twelve = counts("19m19p19s123456z5m");
    assert!(completes(&twelve, usize::from(kind("7z")), &[], &r));
    assert!(!completes(&twelve, usize::from(kind("6m")), &[], &r));
    // A big run waits on any tile of its suit.
    let run = counts("123456789p1234z");
    for t in ["1p", "5p", "9p"] {
        assert!(completes(&run, usize::from(kind(t)), &[], &r), "{t}");
    }
    assert!(!completes(&run, usize::from(kind("5m")), &[], &r));
    // A standard hand with a set laid out, and no fifth tile.
    let h = counts("456p789s11z22z3z");
    let pong = [Set::Pong { kind: kind("5m"), exposed: true }];
    assert!(!completes(&h, 0, &pong, &r));
    let h = counts("456p789s1z222z");
    assert!(completes(&h, usize::from(kind("1z")), &pong, &r));
    assert!(!completes(&counts("1111m"), 0, &[], &r));
}

#[test]
fn the_options_of_the_shape_doublings() {
    let any = Rules::default();
    let pair = Rules { honours_in: HonoursIn::Pair, ..Rules::default() };
    // Honours only as the pair: one suit with honours under both readings.
    for r in [&any, &pair] {
        let s = winner("123m456m789m234m11z", &[], "2m", true, 1, r);
        assert!(s.doubled.contains(&(Doubling::OneSuitWithHonours, 1)), "{:?}", r.honours_in);
    }
    // East winning, with and without the table's doubling.
    let s = winner("123m456p789s234m11s", &[], "2m", true, 0, &any);
    assert_eq!((s.points, s.doublings, s.score), (22, 1, 44));
    let s = winner("123m456p789s234m11s", &[], "2m", true, 0, &Rules { east_wins_doubling: false, ..any.clone() });
    assert_eq!((s.points, s.doublings, s.score), (22, 0, 22));
}

#[test]
fn not_a_winning_hand() {
    let t = table().unwrap();
    let r = Rules::default();
    let c = counts("123m456p789s11z22z3z");
    let h = Hand { concealed: &c, melds: &[], flowers: &[], wind: 0 };
    let w = Win { tile: kind("3z"), self_drawn: true, heavenly: false };
    let e = score_winner(&h, &w, false, &r, t).unwrap_err();
    assert!(e.to_string().contains("not four sets and a pair"), "{e}");
    let c = counts("123m456p789s11z2z");
    let h = Hand { concealed: &c, melds: &[], flowers: &[], wind: 0 };
    let e = score_winner(&h, &w, false, &r, t).unwrap_err();
    assert!(e.to_string().contains("the winning tile is not among"), "{e}");
    let w = Win { tile: kind("2z"), self_drawn: true, heavenly: false };
    let e = score_winner(&h, &w, false, &r, t).unwrap_err();
    assert!(e.to_string().contains("holds 12 tiles"), "{e}");
}

#[test]
fn score_line_refuses_bad_hands_with_their_codes() {
    let losers =
        r#""S":{"hand":"147m258p369s1234z"},"W":{"hand":"258m369p147s1234z"},"N":{"hand":"369m147p258s1234z"}"#;
    let case = |east: &str, extra: &str| {
        let line = format!(r#"{{"id":7,"winner":"E","win":"1s",{extra}"players":{{"E":{east},{losers}}}}}"#);
        let v: Value = serde_json::from_str(&score_line(&line)).unwrap();
        assert_eq!(v["id"], 7, "{v}");
        (v["error"].as_str().unwrap_or("").to_owned(), v["message"].as_str().unwrap_or("").to_owned())
    };
    let ok = r#"{"hand":"234m567m345p678s11s"}"#;
    assert_eq!(case(ok, "").0, "");
    for (east, extra, code, says) in [
        (r#"{"hand":"234m567m345p678s11x"}"#, "", "invalid_tiles", "unexpected character"),
        (r#"{"hand":"234m067m345p678s11s"}"#, "", "invalid_tiles", "red five"),
        (r#"{"hand":"234m567m345p678s11s","flowers":["9f"]}"#, "", "invalid_tiles", "not a flower"),
        (r#"{"hand":"234m567m345p11s","melds":["chi:135s"]}"#, "", "invalid_tiles", "not a chi"),
        (r#"{"hand":"111s567m345p678s11s"}"#, "", "invalid_tiles", "more than four"),
        (r#"{"hand":"234m567m345p678s12s"}"#, "", "not_a_winning_hand", "not four sets"),
        (r#"{"hand":"234m567m345p678s11s"}"#, r#""heavenly":true,"#, "inconsistent", "heavenly"),
        (r#"{"hand":"234m567m345p678s11s","size":3}"#, "", "bad_input", "unknown field"),
        (r#"{"hand":"234m567m345p678s11s","melds":"chi:123m"}"#, "", "bad_input", "must be a list"),
        (r#"{"hand":"234m567m345p678s11s"}"#, r#""rules":{"length":"forever"},"#, "bad_input", "length"),
        (r#"{"hand":"234m567m345p678s11s"}"#, r#""tenhou":true,"#, "bad_input", "unknown field"),
        (
            r#"{"hand":"234m567m345p678s11s"}"#,
            r#""rules":{"break_throws":1.5},"#,
            "bad_input",
            "rule break_throws: 1.5",
        ),
        (r#"{"hand":"234m567m345p678s11s"}"#, r#""rules":{"losers_settle":[]},"#, "bad_input", "a boolean, an integer"),
    ] {
        let (c, m) = case(east, extra);
        assert_eq!(c, code, "{east} {extra}: {m}");
        assert!(m.contains(says), "{east} {extra}: {m}");
    }
    // The winning tile must be in the winner's hand; a loser holds 13.
    let line = format!(r#"{{"winner":"E","win":"9p","players":{{"E":{ok},{losers}}}}}"#);
    assert!(score_line(&line).contains("\"error\":\"inconsistent\""));
    let line = r#"{"winner":"E","win":"1s","players":{"E":{"hand":"234m567m345p678s11s"},"S":{"hand":"147m258p369s123z"},"W":{"hand":"258m369p147s1234z"},"N":{"hand":"369m147p258s1234z"}}}"#;
    let v: Value = serde_json::from_str(&score_line(line)).unwrap();
    assert_eq!(v["error"], "inconsistent");
    assert!(v["message"].as_str().unwrap().contains("player S holds 12 tiles"), "{v}");
    // Two of one flower; a missing wind; not JSON; not an object.
    let line = r#"{"winner":null,"players":{"E":{"hand":"147m258p369s1234z","flowers":["1f"]},"S":{"hand":"147m258p369s1234z","flowers":["1f"]},"W":{"hand":"258m369p147s1234z"},"N":{"hand":"369m147p258s1234z"}}}"#;
    assert!(score_line(line).contains("\"error\":\"invalid_tiles\""));
    let line = r#"{"winner":null,"players":{"E":{"hand":"147m258p369s1234z"}}}"#;
    assert!(score_line(line).contains("S is missing"));
    assert!(score_line("{").contains("\"error\":\"bad_input\""));
    assert!(score_line("[1]").contains("one JSON object"));
    // A winning tile without a winner.
    let line = r#"{"winner":null,"win":"1m","players":{"E":{"hand":"147m258p369s1234z"},"S":{"hand":"147m258p369s1234z"},"W":{"hand":"258m369p147s1234z"},"N":{"hand":"369m147p258s1234z"}}}"#;
    assert!(score_line(line).contains("\"error\":\"inconsistent\""));
}
