//! Fixture logs with their expected verdicts (fixtures/tzq/expected.json), checked data-driven.
//!
//! The fixtures are made by `build()` below from simulated games, each bad one by one edit a
//! person could make by hand. `fixtures_are_reproducible` checks the committed files are exactly
//! what `build()` makes; run it with PAIFU_BLESS=1 to rewrite them after a deliberate change.

use crate::util::{fixtures_dir, tzq_game};
use paifu_core::log::{self, Encoding, Log};
use paifu_core::replay::{replay, validate_bytes};
use paifu_core::tzq::{Action, Tzq};
use paifu_core::{Game, Seed};
use serde_json::{json, Value};
use std::collections::BTreeMap;

struct Fixture {
    name: String,
    bytes: Vec<u8>,
    expect: Value,
    about: &'static str,
}

fn state_before(log: &Log<Action>, k: usize) -> Tzq {
    if k == 0 {
        return paifu_core::replay::setup(&log.header).unwrap();
    }
    replay::<Tzq>(log, &Default::default(), Some(k - 1)).unwrap().0
}

fn renumber(log: &mut Log<Action>) {
    log.records.iter_mut().enumerate().for_each(|(i, r)| r.seq = i as u32);
}

fn bad(name: &str, log: &Log<Action>, about: &'static str, code: &str, index: Option<usize>) -> Fixture {
    let mut expect = json!({"valid": false, "code": code});
    if let Some(i) = index {
        expect["index"] = json!(i);
        expect["line"] = json!(i + 2);
    }
    Fixture { name: format!("{name}.paifu.jsonl"), bytes: log::encode(log, Encoding::JsonLines), expect, about }
}

fn build() -> Vec<Fixture> {
    let mut out = Vec::new();
    let base = tzq_game("fixtures", ["greedy", "random"]);
    let scores = |l: &Log<Action>| l.records.last().and_then(|r| r.claim.clone()).and_then(|c| c.final_scores).unwrap();
    out.push(Fixture {
        name: "valid-greedy-vs-random.paifu.jsonl".into(),
        bytes: log::encode(&base, Encoding::JsonLines),
        expect: json!({"valid": true, "final_scores": scores(&base)}),
        about: "a whole match, greedy bot against random bot, standard rules",
    });
    out.push(Fixture {
        name: "valid-greedy-vs-random.paifu".into(),
        bytes: log::encode(&base, Encoding::Binary),
        expect: json!({"valid": true, "final_scores": scores(&base)}),
        about: "the same match in the binary encoding",
    });
    {
        let s = Seed::from_text("fixtures advanced");
        let rules = Tzq::rules("advanced", &Default::default()).unwrap();
        let mut bots: Vec<_> = ["greedy", "greedy"]
            .iter()
            .enumerate()
            .map(|(i, b)| <Tzq as paifu_recorder::bots::Bots>::bot(b, &s.child(&i.to_string())).unwrap())
            .collect();
        let adv = paifu_recorder::play_game::<Tzq>("advanced", rules, s, &mut bots, Default::default()).unwrap();
        out.push(Fixture {
            name: "valid-advanced-rules.paifu.jsonl".into(),
            bytes: log::encode(&adv, Encoding::JsonLines),
            expect: json!({"valid": true, "final_scores": scores(&adv)}),
            about: "both advanced rules: 2-point minimum, drawn round when the pile runs out",
        });
    }

    // An illegal set: the first Pong replaced by three hand cards that are not a set.
    let k = base.records.iter().position(|r| matches!(r.action, Action::Pong { .. })).unwrap();
    let st = state_before(&base, k);
    let seat = base.records[k].seat;
    let h = st.hand(seat).to_vec();
    let mut found = None;
    'outer: for i in 0..h.len() {
        for j in i + 1..h.len() {
            for l in j + 1..h.len() {
                let a = Action::pong([h[i], h[j], h[l]], h[i]);
                if st.check(seat, &a).is_err_and(|v| v.message.contains("not a set")) {
                    found = Some(a);
                    break 'outer;
                }
            }
        }
    }
    let mut l = base.clone();
    l.records[k].action = found.unwrap();
    out.push(bad("illegal-set", &l, "a Pong of three cards that are not a set", "illegal_action", Some(k)));

    // A Chow from an old discard: a draw replaced by a chow of a card discarded earlier.
    let (k, st) = (0..base.records.len())
        .filter(|&k| base.records[k].action == Action::Draw)
        .map(|k| (k, state_before(&base, k)))
        .find(|(_, st)| st.discard_pile().iter().any(|c| !c.is_sparrow() && !st.chowable().contains(c)))
        .unwrap();
    let seat = base.records[k].seat;
    let old = *st.discard_pile().iter().find(|c| !c.is_sparrow() && !st.chowable().contains(c)).unwrap();
    let h = st.hand(seat);
    let mut l = base.clone();
    l.records[k].action = Action::chow([h[0], h[1]], old, old);
    out.push(bad(
        "chow-old-discard",
        &l,
        "a Chow of a card discarded before the opponent's last turn",
        "illegal_action",
        Some(k),
    ));

    // A taken Sparrow: a Chow taking a Sparrow the opponent just discarded.
    let mut sparrow = None;
    'games: for g in 0..50 {
        let log = tzq_game(&format!("fixtures sparrow {g}"), ["random", "random"]);
        for k in 0..log.records.len() {
            if log.records[k].action == Action::Draw {
                let st = state_before(&log, k);
                if st.chowable().iter().any(|c| c.is_sparrow()) {
                    sparrow = Some((log, k, st));
                    break 'games;
                }
            }
        }
    }
    let (mut l, k, st) = sparrow.unwrap();
    let seat = l.records[k].seat;
    let h = st.hand(seat);
    let q = *st.chowable().iter().find(|c| c.is_sparrow()).unwrap();
    l.records[k].action = Action::chow([h[0], h[1]], q, h[0]);
    out.push(bad("taken-sparrow", &l, "a Chow taking the Sparrow the opponent discarded", "illegal_action", Some(k)));

    // Two sets in one turn: right after a set, the same seat lays another.
    let k = base.records.iter().position(|r| matches!(r.action, Action::Pong { .. } | Action::Chow { .. })).unwrap();
    let mut l = base.clone();
    let mut second = base.records[k].clone();
    second.claim = None;
    l.records.insert(k + 1, second);
    renumber(&mut l);
    out.push(bad(
        "two-sets-one-turn",
        &l,
        "a second set by the same seat in the same turn",
        "not_your_turn",
        Some(k + 1),
    ));

    // A wrong claimed score: the first round's winner claims one point more.
    let k = base.records.iter().position(|r| r.claim.as_ref().is_some_and(|c| c.round.is_some())).unwrap();
    let mut l = base.clone();
    let claim = l.records[k].claim.as_mut().unwrap().round.as_mut().unwrap();
    let w = claim.iter().position(|&d| d != 0).unwrap_or(0);
    claim[w] += 1;
    out.push(bad(
        "wrong-claimed-score",
        &l,
        "the scorekeeper's round score is one point off",
        "claim_mismatch",
        Some(k),
    ));

    // A tampered record: a discard changed to a card the seat does not hold.
    let k = base.records.iter().position(|r| matches!(r.action, Action::Discard(_))).unwrap();
    let st = state_before(&base, k);
    let seat = base.records[k].seat;
    let missing = *paifu_core::tzq::standard_deck().unwrap().iter().find(|c| !st.hand(seat).contains(c)).unwrap();
    let mut l = base.clone();
    l.records[k].action = Action::Discard(missing);
    out.push(bad(
        "tampered-record",
        &l,
        "a discard changed to a card the seat does not hold",
        "illegal_action",
        Some(k),
    ));

    // Another seat acting.
    let mut l = base.clone();
    l.records[2].seat = 1 - l.records[2].seat;
    out.push(bad("not-your-turn", &l, "a record given to the seat whose turn it is not", "not_your_turn", Some(2)));

    // A dropped record.
    let mut l = base.clone();
    l.records.remove(10);
    out.push(bad("dropped-record", &l, "record 10 deleted", "bad_sequence", Some(10)));

    // A wrong seed for its commitment.
    let mut l = base.clone();
    l.header.seed = Some(Seed::from_text("a different seed"));
    out.push(bad(
        "wrong-seed",
        &l,
        "a seed that does not match the published commitment",
        "seed_commitment_mismatch",
        None,
    ));

    // Truncated: a binary file cut inside its last record, and a log that stops mid-game.
    let mut bin = log::encode(&base, Encoding::Binary);
    bin.truncate(bin.len() - 2);
    out.push(Fixture {
        name: "truncated-file.paifu".into(),
        bytes: bin,
        expect: json!({"valid": false, "code": "truncated", "index": base.records.len() - 1}),
        about: "the binary file cut two bytes short",
    });
    let mut l = base.clone();
    l.records.truncate(40);
    out.push(Fixture {
        name: "truncated-game.paifu.jsonl".into(),
        bytes: log::encode(&l, Encoding::JsonLines),
        expect: json!({"valid": false, "code": "truncated", "index": 40}),
        about: "only the first 40 records: the game is not over",
    });

    // Malformed JSON, an unknown field, an unknown game.
    let text = String::from_utf8(log::encode(&base, Encoding::JsonLines)).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[6] = lines[6].replacen("\"action\":\"", "\"action\":", 1);
    out.push(Fixture {
        name: "malformed-json.paifu.jsonl".into(),
        bytes: (lines.join("\n") + "\n").into_bytes(),
        expect: json!({"valid": false, "code": "bad_encoding", "index": 5, "line": 7}),
        about: "line 7 lost a quote",
    });
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[3] = lines[3].replacen("{", "{\"comment\":\"hm\",", 1);
    out.push(Fixture {
        name: "unknown-field.paifu.jsonl".into(),
        bytes: (lines.join("\n") + "\n").into_bytes(),
        expect: json!({"valid": false, "code": "bad_encoding", "index": 2, "line": 4}),
        about: "a record with a field the format does not have",
    });
    let mut l = base.clone();
    l.header.game = "chess".into();
    out.push(Fixture {
        name: "unknown-game.paifu.jsonl".into(),
        bytes: log::encode(&l, Encoding::JsonLines),
        expect: json!({"valid": false, "code": "unknown_game"}),
        about: "a header naming a game Paifu does not play",
    });
    out
}

fn manifest(fixtures: &[Fixture]) -> String {
    let m: BTreeMap<&str, Value> = fixtures
        .iter()
        .map(|f| {
            let mut e = f.expect.clone();
            e["about"] = json!(f.about);
            (f.name.as_str(), e)
        })
        .collect();
    serde_json::to_string_pretty(&m).unwrap() + "\n"
}

#[test]
fn fixtures_are_reproducible() {
    let dir = fixtures_dir().join("tzq");
    let fx = build();
    if std::env::var_os("PAIFU_BLESS").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        for f in &fx {
            std::fs::write(dir.join(&f.name), &f.bytes).unwrap();
        }
        std::fs::write(dir.join("expected.json"), manifest(&fx)).unwrap();
    }
    for f in &fx {
        let on_disk = std::fs::read(dir.join(&f.name)).unwrap_or_default();
        assert!(on_disk == f.bytes, "fixtures/tzq/{} is stale: rerun with PAIFU_BLESS=1", f.name);
    }
    assert_eq!(std::fs::read_to_string(dir.join("expected.json")).unwrap_or_default(), manifest(&fx));
}

#[test]
fn every_fixture_gets_its_expected_verdict() {
    let dir = fixtures_dir().join("tzq");
    let expected: BTreeMap<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if name == "expected.json" {
            continue;
        }
        let e = expected.get(&name).unwrap_or_else(|| panic!("{name} has no entry in expected.json"));
        let r = validate_bytes(&std::fs::read(&path).unwrap());
        assert_eq!(r.verdict.is_valid(), e["valid"].as_bool().unwrap(), "{name}: {:?}", r.verdict);
        match r.verdict.fault() {
            None => assert_eq!(json!(r.verdict.outcome().unwrap().final_scores), e["final_scores"], "{name}"),
            Some(f) => {
                assert_eq!(f.code.as_str(), e["code"].as_str().unwrap(), "{name}: {}", f.describe());
                assert_eq!(f.index.map(|i| json!(i)).unwrap_or(Value::Null), e["index"], "{name}: {}", f.describe());
                if !e["line"].is_null() {
                    assert_eq!(f.line.map(|i| json!(i)).unwrap_or(Value::Null), e["line"], "{name}: {}", f.describe());
                }
            }
        }
        seen += 1;
    }
    assert_eq!(seen, expected.len(), "every expectation has its file");
    assert!(seen >= 16);
}
