//! Chinese Official mahjong: the conformance simulation (whole matches between bots replay
//! valid, every hand zero-sum) and bad logs refused at the right record.

use paifu_core::log::{Header, OptValue, Options, Positions, Record, Source};
use paifu_core::mcr::{Action, Mcr};
use paifu_core::replay::validate_log;
use paifu_core::{log::Log, replay::Verdict, Digest, ErrorCode, Game, Seed};
use paifu_recorder::bots::Bots;
use paifu_recorder::conformance;

fn conformance_run(games: usize, bots: [&'static str; 4], mutate_every: usize) -> conformance::Counts {
    let rules = Mcr::rules("standard", &Default::default()).unwrap();
    let seed = Seed::from_text(&format!("conformance mcr {bots:?}"));
    let counts = conformance::run_with::<Mcr, String>(
        "standard",
        rules,
        seed,
        games,
        mutate_every,
        |i| bots.iter().enumerate().map(|(s, b)| Mcr::bot(b, &seed.child(&format!("{i}/{s}"))).unwrap()).collect(),
        |_, _, outcome| {
            for r in &outcome.rounds {
                if r.deltas.iter().sum::<i64>() != 0 {
                    return Err(format!("hand {} is not zero-sum: {:?} ({})", r.round, r.deltas, r.summary));
                }
            }
            if outcome.rounds.len() != 16 {
                return Err(format!("{} hands, not 16", outcome.rounds.len()));
            }
            Ok(())
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(counts.games, games);
    assert_eq!(counts.rounds, games * 16);
    assert!(counts.mutations_invalid * 10 >= counts.mutations * 9, "{counts:?}");
    counts
}

#[test]
fn mcr_greedy_bots_play_valid_zero_sum_matches() {
    conformance_run(80, ["greedy", "greedy", "greedy", "random"], 10);
}

#[test]
fn mcr_random_bots_play_valid_zero_sum_matches() {
    conformance_run(50, ["random"; 4], 10);
}

/// An imported hand (no seed): 136 tiles, one hand, the deals then `records`.
fn imported_log(records: &[(u8, &str)]) -> Log<Action> {
    let deals = ["8m19m19p19s234567z", "123m456p789s111z5z", "234567m345s66s55z", "22m33m44p55p66p77p8s"];
    let options =
        Options::from([("flowers".to_string(), OptValue::Bool(false)), ("hands".to_string(), OptValue::Int(1))]);
    let mut header = Header::new(
        "mcr",
        "standard",
        options,
        vec!["a".into(), "b".into(), "c".into(), "d".into()],
        Seed::from_text("unused"),
    );
    header.seed = None;
    header.commitment = None;
    header.source = Some(Source { format: "test".into(), id: "bad logs".into(), digest: Digest([0; 32]) });
    let mut all: Vec<(u8, String)> = deals.iter().enumerate().map(|(s, d)| (s as u8, format!("deal {d}"))).collect();
    all.extend(records.iter().map(|(s, a)| (*s, a.to_string())));
    let records = all
        .iter()
        .enumerate()
        .map(|(i, (s, a))| Record { seq: i as u32, seat: *s, action: a.parse().unwrap(), claim: None })
        .collect();
    Log { header, records }
}

/// The fault of a log: its record index and code.
fn fault(records: &[(u8, &str)]) -> (usize, ErrorCode, String) {
    match validate_log::<Mcr>(&imported_log(records), &Positions::default()) {
        Verdict::Invalid(f) => (f.index.unwrap(), f.code, f.message),
        Verdict::Valid(_) => panic!("valid: {records:?}"),
    }
}

#[test]
fn a_good_imported_hand_validates_with_its_settlement() {
    let log = imported_log(&[(0, "draw 3p"), (0, "discard 5z"), (2, "pass"), (1, "win")]);
    let Verdict::Valid(o) = validate_log::<Mcr>(&log, &Positions::default()) else { panic!() };
    let fan = o.rounds[0].facts.iter().find(|f| f.key == "fan").unwrap().value;
    assert_eq!(o.final_scores, [-(8 + fan), 24 + fan, -8, -8]);
}

#[test]
fn bad_logs_are_refused_at_the_right_record() {
    // Records 0-3 are the deals.
    let (i, code, m) = fault(&[(0, "draw 6s"), (0, "discard 6s"), (2, "chow 7s 8s")]);
    assert_eq!((i, code), (6, ErrorCode::IllegalAction), "{m}");
    assert!(m.contains("only on the discard of the player before"), "{m}");

    let (i, code, m) = fault(&[(0, "draw 3p"), (0, "discard 5z"), (2, "win")]);
    assert_eq!((i, code), (6, ErrorCode::BelowMinimum), "{m}");
    assert!(m.contains("worth 6 fan"), "{m}");

    let (i, code, m) =
        fault(&[(0, "draw 6s"), (0, "discard 6s"), (1, "pass"), (2, "pass"), (1, "draw 2s"), (1, "concealed_kong 1z")]);
    assert_eq!((i, code), (9, ErrorCode::IllegalAction), "{m}");
    assert!(m.contains("a kong is four tiles"), "{m}");

    // A kong of three: seat 2 holds two 6s, so with the discard it would have three.
    let (i, code, m) = fault(&[(0, "draw 6s"), (0, "discard 6s"), (2, "kong 6s")]);
    assert_eq!((i, code), (6, ErrorCode::IllegalAction), "{m}");
    assert!(m.contains("with 2 in its hand: a kong on a discard needs three"), "{m}");

    // A claim after the next player has drawn.
    let (i, code, m) =
        fault(&[(0, "draw 6s"), (0, "discard 6s"), (1, "pass"), (2, "pass"), (1, "draw 2s"), (2, "pung 6s")]);
    assert_eq!((i, code), (9, ErrorCode::NotYourTurn), "{m}");
}

/// The commands on MCR logs, as a user runs them: simulate, validate, show, sign and verify,
/// the archive and its statistics.
#[test]
fn mcr_logs_are_simulated_validated_shown_signed_stored_and_counted() {
    use crate::util::{paifu, stderr, stdout};
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    let o = paifu(
        &["simulate", "mcr", "--games", "2", "--seed", "cli", "--bots", "greedy,greedy,random,greedy", "--out", "logs"],
        p,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = paifu(&["validate", "logs/mcr-0001.paifu.jsonl", "logs/mcr-0002.paifu.jsonl"], p);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("2 logs: 2 valid, 0 invalid"), "{}", stdout(&o));
    let o = paifu(&["show", "logs/mcr-0001.paifu.jsonl"], p);
    let out = stdout(&o);
    assert!(out.starts_with("Chinese Official mahjong (MCR)"), "{out}");
    assert_eq!(out.matches("ends: ").count(), 16, "{out}");
    assert!(out.contains(" fan ") || out.contains("drawn: the wall is empty"), "{out}");
    assert!(paifu(&["keygen", "-o", "ref"], p).status.success());
    assert!(paifu(&["sign", "logs/mcr-0001.paifu.jsonl", "--key", "ref.key", "-o", "c.json"], p).status.success());
    let o = paifu(&["verify", "c.json", "logs/mcr-0001.paifu.jsonl", "--key", "ref.pub"], p);
    assert!(o.status.success() && stdout(&o).contains("certificate OK"), "{}{}", stdout(&o), stderr(&o));
    let o = paifu(&["verify", "c.json", "logs/mcr-0002.paifu.jsonl", "--key", "ref.pub"], p);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let o = paifu(&["ingest", "logs", "--db", "a.db", "--quiet"], p);
    assert!(o.status.success() && stdout(&o).contains("2 stored (2 valid, 0 invalid)"), "{}", stdout(&o));
    let o = paifu(&["stats", "--db", "a.db", "--game", "mcr", "--format", "json"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let text = v.to_string();
    for key in ["average_fan", "self_drawn_share", "discard_share", "win_rate", "average_table_points"] {
        assert!(text.contains(&format!("\"{key}\"")), "{key}: {text}");
    }
}

/// `paifu score mcr`: the contract of issue 13, each refusal with its reason, and the exit status.
#[test]
fn score_mcr_answers_each_line_with_the_fan_or_a_reason() {
    use crate::util::{paifu_with_input, stdout};
    let t = tempfile::tempdir().unwrap();
    let lines = [
        r#"{"id":1,"hand":"123m456p789s111z55z","win":"5z","tsumo":true,"flowers":1}"#,
        r#"{"id":"low","hand":"123m456m11p234s678s","win":"1p"}"#,
        r#"{"id":3,"hand":"123m456p789s111z5z","win":"5z"}"#,
        r#"{"id":4,"hand":"123m456p789s111z55z","win":"5z","colour":"red"}"#,
        r#"{"id":5,"hand":"123m456p789s111z56z","win":"6z"}"#,
        r#"{"id":6,"hand":"123m456p789s111z55z","win":"5z","kong_related":true,"tsumo":true}"#,
    ];
    let o = paifu_with_input(&["score", "mcr"], t.path(), &(lines.join("\n") + "\n"));
    assert_eq!(o.status.code(), Some(1));
    let out: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(out.len(), 6);
    assert_eq!(out[0]["id"], 1);
    assert_eq!(out[0]["ok"], true);
    // Mixed straight 8, all types 6, fully concealed 4, prevalent and seat wind (East) 2 + 2,
    // single wait 1, one flower.
    assert_eq!(out[0]["fan"], 24, "{}", out[0]);
    assert_eq!(out[0]["fans"][0], serde_json::json!({"name": "mixed_straight", "fan": 8, "count": 1}));
    assert_eq!(out[0]["meets_minimum"], true);
    // Scored, but below the minimum: all chows 2, no honours 1, ... under 8.
    assert_eq!(
        (out[1]["id"].as_str(), &out[1]["ok"], &out[1]["meets_minimum"]),
        (Some("low"), &serde_json::json!(true), &serde_json::json!(false))
    );
    let errors: Vec<&str> = out[2..].iter().map(|v| v["error"].as_str().unwrap()).collect();
    assert_eq!(errors, ["invalid_tiles", "bad_input", "not_a_win", "inconsistent"], "{out:?}");
    assert!(out[2..].iter().all(|v| v["ok"] == false && !v["message"].as_str().unwrap().is_empty()));
}
