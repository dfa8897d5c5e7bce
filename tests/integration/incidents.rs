//! Incidents in a log: `paifu validate`, `show`, `sign` and `verify` show and check them.

use crate::util::{paifu, stderr, stdout, tzq_game};
use paifu_core::log::{encode, Action as _, Claim, Encoding, Log, Record};
use paifu_core::tzq::{Action, Tzq};
use paifu_core::{Game, Incident, IncidentKind};
use std::fs;

/// A TZQ game between greedy bots with a host incident at seat 1's first decision from its third
/// on with a choice (then its safe action), and seat 0 forfeiting at its fifth: every later decision of seat 0 is its safe
/// action.
fn game_with_incidents() -> Log<Action> {
    use paifu_recorder::bots::Bots;
    let played = tzq_game("incidents", ["greedy", "greedy"]);
    let seed = paifu_core::Seed::from_text("incidents");
    let mut bots: Vec<Box<dyn paifu_recorder::Bot<Tzq>>> =
        (0..2).map(|i| Tzq::bot("greedy", &seed.child(&format!("bot/{i}"))).unwrap()).collect();
    let mut game: Tzq = paifu_core::replay::setup(&played.header).unwrap();
    let mut records: Vec<Record<Action>> = Vec::new();
    let mut push = |game: &mut Tzq, seat: u8, action: Action| {
        let before = game.results().len();
        game.play_mut(seat, &action).unwrap();
        let mut claim =
            game.results()[before..].last().map(|r| Claim { round: Some(r.deltas.clone()), final_scores: None });
        if game.is_over() {
            claim.get_or_insert_with(Claim::default).final_scores = Some(game.scores());
        }
        records.push(Record { seq: records.len() as u32, seat, action, claim });
    };
    let mut decisions = [0; 2];
    let mut host_done = false;
    while !game.is_over() && decisions[0] + decisions[1] < 20_000 {
        let seat = game.to_act().iter().next().unwrap();
        decisions[usize::from(seat)] += 1;
        let safe = game.safe_action(seat).unwrap();
        let incident = |kind, detail: &str| Action::from_incident(Incident::new(kind, detail).unwrap());
        if seat == 1 && !host_done && decisions[1] >= 3 && game.legal_actions(1).len() > 1 {
            host_done = true;
            push(&mut game, 1, incident(IncidentKind::Illegal, "answered \"discard 9z\""));
            push(&mut game, 1, safe);
        } else if seat == 0 && decisions[0] == 5 {
            push(&mut game, 0, incident(IncidentKind::Forfeit, "exited"));
            push(&mut game, 0, safe);
        } else if seat == 0 && decisions[0] > 5 {
            push(&mut game, 0, safe);
        } else {
            let action = bots[usize::from(seat)].act(&game, seat);
            push(&mut game, seat, action);
        }
    }
    assert!(game.is_over(), "the game ends");
    Log { header: played.header, records }
}

#[test]
fn validate_show_sign_and_verify_a_log_with_incidents() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    let log = game_with_incidents();
    fs::write(p.join("g.paifu.jsonl"), encode(&log, Encoding::JsonLines)).unwrap();
    fs::write(p.join("g.paifu"), encode(&log, Encoding::Binary)).unwrap();

    let o = paifu(&["validate", "g.paifu.jsonl", "g.paifu"], p);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("; 2 incidents: #"), "{out}");
    assert!(out.contains(" illegal (answered \"discard 9z\")") && out.contains(" forfeit (exited)"), "{out}");
    let digests: Vec<&str> = out.lines().filter_map(|l| l.split("digest ").nth(1)).map(|d| &d[..64]).collect();
    assert_eq!(digests.len(), 2);
    assert_eq!(digests[0], digests[1], "one digest for both encodings");

    let o = paifu(&["validate", "--json", "g.paifu.jsonl"], p);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let incidents = v["incidents"].as_array().unwrap();
    assert_eq!(incidents.len(), 2);
    assert_eq!((incidents[0]["seat"].as_u64(), incidents[0]["kind"].as_str()), (Some(1), Some("illegal")));
    assert_eq!(incidents[1]["kind"], "forfeit");

    let o = paifu(&["show", "g.paifu.jsonl"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("seat 1: ! incident illegal: answered \"discard 9z\""), "{out}");
    assert!(out.contains("Incidents: 2 (1 illegal, 1 forfeit)"), "{out}");

    assert!(paifu(&["keygen", "-o", "ref"], p).status.success());
    let o = paifu(&["sign", "g.paifu.jsonl", "--key", "ref.key"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let cert = "g.paifu.jsonl.cert.json";
    let c: serde_json::Value = serde_json::from_str(&fs::read_to_string(p.join(cert)).unwrap()).unwrap();
    let listed = c["certificate"]["incidents"].as_array().unwrap();
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[1]["detail"], "exited");
    let ok = paifu(&["verify", cert, "g.paifu", "--key", "ref.pub"], p);
    assert_eq!(ok.status.code(), Some(0), "{}{}", stdout(&ok), stderr(&ok));

    // The forfeited seat 0 is placed second whatever its score.
    let verdict = paifu_core::replay::validate_log::<Tzq>(&log, &Default::default());
    assert_eq!(verdict.outcome().unwrap().placements[0], 2);

    // A log whose record after the host incident is not the safe action is refused.
    let at = log.records.iter().position(|r| r.action.incident().is_some()).unwrap();
    let mut edited = log.clone();
    let mut game: Tzq = paifu_core::replay::setup(&edited.header).unwrap();
    for r in &edited.records[..at] {
        game.play_mut(r.seat, &r.action).unwrap();
    }
    let safe = game.safe_action(1).unwrap();
    let other = game.legal_actions(1).into_iter().find(|a| *a != safe).expect("a second legal action");
    edited.records[at + 1].action = other;
    fs::write(p.join("bad.paifu.jsonl"), encode(&edited, Encoding::JsonLines)).unwrap();
    let o = paifu(&["validate", "bad.paifu.jsonl"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains(&format!("record {}", at + 1)) && stdout(&o).contains("not_safe_action"),
        "{}",
        stdout(&o)
    );
}
