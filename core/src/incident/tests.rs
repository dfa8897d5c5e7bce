//! The incident notation and the shared rules, then each engine's incidents.

use super::*;

#[test]
fn notation_round_trips() {
    for text in [
        "incident timeout",
        "incident illegal: answered \"discard 9z\"",
        "incident forfeit: timeout: no answer within 5000 ms",
        "incident talk",
        "incident chombo: ron on a tile it was furiten for",
        "incident false_win: declared hu with 6 fan",
    ] {
        let incident = Incident::parse_notation(text).unwrap().unwrap();
        assert_eq!(incident.to_string(), text);
        let bytes = postcard::to_allocvec(&incident).unwrap();
        assert_eq!(postcard::from_bytes::<Incident>(&bytes).unwrap(), incident);
    }
    let spaced = Incident::parse_notation("  incident   garbage :  line was \"\\x01\"  ").unwrap().unwrap();
    assert_eq!(spaced.to_string(), "incident garbage: line was \"\\x01\"");
    assert_eq!(Incident::parse_notation("discard 5m").unwrap(), None);
    assert_eq!(Incident::parse_notation("incidents timeout").unwrap(), None);
}

#[test]
fn bad_notation_is_refused_with_its_reason() {
    let err = |t: &str| Incident::parse_notation(t).unwrap_err();
    assert_eq!(err("incident"), IncidentError::UnknownKind(String::new()));
    assert_eq!(err("incident nap"), IncidentError::UnknownKind("nap".into()));
    assert_eq!(err("incident timeout:"), IncidentError::Empty);
    assert_eq!(err("incident timeout: a\u{7}b"), IncidentError::Control('\u{7}'));
    let long = format!("incident exited: {}", "x".repeat(MAX_DETAIL + 1));
    assert_eq!(err(&long), IncidentError::TooLong(MAX_DETAIL + 1));
    let full = format!("incident exited: {}", "x".repeat(MAX_DETAIL));
    assert_eq!(Incident::parse_notation(&full).unwrap().unwrap().detail.as_str().len(), MAX_DETAIL);
    assert!(err("incident nap").to_string().contains("\"nap\" is not an incident kind"));
    // The binary form refuses what the notation refuses.
    let bytes = postcard::to_allocvec(&(IncidentKind::Timeout, " padded")).unwrap();
    assert!(postcard::from_bytes::<Incident>(&bytes).is_err());
    let bytes = postcard::to_allocvec(&(IncidentKind::Timeout, "x".repeat(MAX_DETAIL + 1))).unwrap();
    assert!(postcard::from_bytes::<Incident>(&bytes).is_err());
}

#[test]
fn kinds_have_one_name_and_one_fact_key() {
    for k in IncidentKind::ALL {
        assert_eq!(IncidentKind::from_name(k.name()), Some(k));
        let game = k.game().unwrap_or("riichi");
        assert_eq!(IncidentKind::from_fact_key(game, k.fact_key()), Some(k));
    }
    assert_eq!(IncidentKind::from_fact_key("riichi", "talk"), None);
    assert_eq!(IncidentKind::from_fact_key("tayu", "incident:budget"), Some(IncidentKind::Budget));
}

#[test]
fn a_host_incident_restricts_the_seat_until_it_acts() {
    let mut s = Incidents::default();
    let safe = || Some("pass");
    assert_eq!(s.screen("riichi", 1, None, &"ron", safe), Ok(false));
    let timeout = Incident::bare(IncidentKind::Timeout);
    assert_eq!(s.screen("riichi", 1, Some(&timeout), &"incident timeout", safe), Ok(true));
    s.record(1, &timeout);
    let refused = s.screen("riichi", 1, None, &"ron", safe).unwrap_err();
    assert_eq!(refused.code, ErrorCode::NotSafeAction);
    assert!(refused.message.contains("pass, not ron"), "{refused}");
    assert!(s.screen("riichi", 1, Some(&timeout), &"incident timeout", safe).is_err());
    assert_eq!(s.screen("riichi", 1, None, &"pass", safe), Ok(false));
    assert_eq!(s.narrow(1, vec!["ron", "pass"], |_| Some("pass")), vec!["pass"]);
    s.acted(1);
    assert_eq!(s.screen("riichi", 1, None, &"ron", safe), Ok(false));
    assert_eq!(s.take_round(), vec![(1, IncidentKind::Timeout)]);
    assert!(s.take_round().is_empty());
}

#[test]
fn rule_incidents_of_another_game_and_chance_moments_are_refused() {
    let s = Incidents::default();
    let talk = Incident::bare(IncidentKind::Talk);
    let v = s.screen("riichi", 0, Some(&talk), &"incident talk", || Some("pass")).unwrap_err();
    assert_eq!(v.message, "talk is a rule incident of tayu, not of riichi");
    let v = s.screen("riichi", 0, Some(&Incident::bare(IncidentKind::Timeout)), &"x", || None::<&str>).unwrap_err();
    assert!(v.message.contains("owes no decision"), "{v}");
}

#[test]
fn forfeited_seats_are_placed_last() {
    let mut s = Incidents::default();
    assert_eq!(s.places(vec![2, 1, 4, 3]), vec![2, 1, 4, 3]);
    s.record(1, &Incident::bare(IncidentKind::Forfeit));
    assert_eq!(s.places(vec![2, 1, 4, 3]), vec![1, 4, 3, 2]);
    s.record(3, &Incident::bare(IncidentKind::Forfeit));
    assert_eq!(s.places(vec![2, 1, 4, 3]), vec![1, 3, 2, 4]);
    // Ties stay ties.
    assert_eq!(s.places(vec![1, 1, 1, 1]), vec![1, 3, 1, 3]);
    assert!(s.forfeited(3) && !s.forfeited(0));
}

// Each engine's incidents.

use crate::hungarian::Hungarian;
use crate::log::Action as _;
use crate::log::{decode, encode, Claim, Encoding, Header, Log, OptValue, Options, Record};
use crate::mcr::Mcr;
use crate::riichi::Riichi;
use crate::tayu::Tayu;
use crate::tzq::Tzq;
use crate::{Game, Seat, Seed};

fn start<G: Game>(ruleset: &str, options: &[(&str, OptValue)], seats: usize, seed: &str) -> (G, Header) {
    let options: Options = options.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    let rules = G::rules(ruleset, &options).unwrap();
    let seed = Seed::from_text(seed);
    let game = G::new(rules.clone(), seats, Some(&seed)).unwrap();
    let names = (0..seats).map(|i| format!("seat {i}")).collect();
    (game, Header::new(G::KIND.name(), ruleset, G::options(&rules), names, seed))
}

/// Plays `action` for `seat` and writes it down with the claims a scorekeeper writes.
fn play<G: Game>(game: &mut G, records: &mut Vec<Record<G::Action>>, seat: Seat, action: G::Action) {
    let before = game.results().len();
    game.play_mut(seat, &action).unwrap_or_else(|v| panic!("{action} of seat {seat}: {v}"));
    let mut claim =
        game.results()[before..].last().map(|r| Claim { round: Some(r.deltas.clone()), final_scores: None });
    if game.is_over() {
        claim.get_or_insert_with(Claim::default).final_scores = Some(game.scores());
    }
    records.push(Record { seq: records.len() as u32, seat, action, claim });
}

/// A random game in which the host records incidents now and then (and seat 1 forfeits at its
/// 30th decision), each followed by the safe action; on the way, every seat to act has a safe
/// action among its legal ones, and after a host incident everything but the safe action is
/// refused. Answers the log, the final state and how many incidents it holds.
fn game_with_incidents<G: Game>(
    ruleset: &str,
    options: &[(&str, OptValue)],
    seats: usize,
    seed: &str,
) -> (Log<G::Action>, G, usize) {
    let (mut game, header) = start::<G>(ruleset, options, seats, seed);
    let mut pick = Seed::from_text(seed).stream("test/incidents");
    let mut records = Vec::new();
    let (mut incidents, mut decisions_of_1) = (0, 0);
    let kinds = [
        IncidentKind::Timeout,
        IncidentKind::Budget,
        IncidentKind::Illegal,
        IncidentKind::Garbage,
        IncidentKind::Exited,
    ];
    while !game.is_over() && records.len() < 40_000 {
        let seat = game.to_act().iter().next().unwrap();
        let legal = game.legal_actions(seat);
        let safe = game.safe_action(seat).expect("a seat to act has a safe action");
        assert!(legal.contains(&safe), "{safe} is not among {legal:?}");
        if seat == 1 {
            decisions_of_1 += 1;
        }
        let forfeited = seat == 1 && decisions_of_1 > 30;
        if forfeited {
            assert_eq!(legal, vec![safe.clone()], "a forfeited seat is offered its safe action only");
            play(&mut game, &mut records, seat, safe);
            continue;
        }
        if seat == 1 && decisions_of_1 == 30 {
            let forfeit =
                G::Action::from_incident(Incident::new(IncidentKind::Forfeit, "exited: broken pipe").unwrap());
            play(&mut game, &mut records, seat, forfeit);
            incidents += 1;
            continue;
        }
        if pick.below(6) == 0 {
            let kind = kinds[pick.below(kinds.len() as u64) as usize];
            play(&mut game, &mut records, seat, G::Action::from_incident(Incident::new(kind, "by the test").unwrap()));
            incidents += 1;
            assert_eq!(game.legal_actions(seat), vec![safe.clone()]);
            if let Some(other) = legal.iter().find(|a| **a != safe) {
                let v = game.validate(seat, other).unwrap_err();
                assert_eq!(v.code, ErrorCode::NotSafeAction, "{v}");
            }
            play(&mut game, &mut records, seat, safe);
            continue;
        }
        let action = legal[pick.below(legal.len() as u64) as usize].clone();
        play(&mut game, &mut records, seat, action);
    }
    assert!(game.is_over(), "the game does not end");
    (Log { header, records }, game, incidents)
}

/// The checks every engine's log with incidents passes: it validates in both encodings with one
/// digest, the binary form decodes to the same log, every incident is a fact of its round, and
/// the forfeited seat is placed after every other.
fn check_log_with_incidents<G: Game>(ruleset: &str, options: &[(&str, OptValue)], seats: usize, seed: &str) {
    let (log, game, incidents) = game_with_incidents::<G>(ruleset, options, seats, seed);
    assert!(incidents > 1, "{incidents} incidents");
    let jsonl = encode(&log, Encoding::JsonLines);
    let binary = encode(&log, Encoding::Binary);
    assert!(String::from_utf8_lossy(&jsonl).contains("\"incident forfeit: exited: broken pipe\""));
    let (back, _) = decode::<G::Action>(&binary).unwrap();
    assert_eq!(back, log);
    let (a, b) = (crate::replay::validate_bytes(&jsonl), crate::replay::validate_bytes(&binary));
    assert!(a.verdict.is_valid(), "{:?}", a.verdict);
    assert!(b.verdict.is_valid(), "{:?}", b.verdict);
    assert_eq!(a.digest, b.digest);
    assert_eq!(a.digest, Some(log.digest()));
    let counted: i64 =
        game.results().iter().flat_map(|r| &r.facts).filter(|f| f.key.starts_with("incident:")).map(|f| f.value).sum();
    assert_eq!(counted, incidents as i64);
    let places = game.placements();
    for s in (0..seats).filter(|&s| s != 1) {
        assert!(places[1] > places[s], "placements {places:?}: the forfeited seat 1 is last");
    }
    // A record after a host incident that is not the safe action is refused by the validator.
    let at = log.records.iter().position(|r| r.action.incident().is_some_and(|i| i.kind.is_host())).unwrap();
    let mut game = crate::replay::setup::<G>(&log.header).unwrap();
    for r in &log.records[..=at] {
        game.play_mut(r.seat, &r.action).unwrap();
    }
    let seat = log.records[at].seat;
    let safe = game.safe_action(seat).unwrap();
    let mut state = game.clone();
    let legal_before = {
        // Everything the seat could do before the incident.
        let mut g = crate::replay::setup::<G>(&log.header).unwrap();
        for r in &log.records[..at] {
            g.play_mut(r.seat, &r.action).unwrap();
        }
        g.legal_actions(seat)
    };
    if let Some(other) = legal_before.into_iter().find(|a| *a != safe) {
        let mut edited = log.clone();
        edited.records[at + 1].action = other;
        edited.records[at + 1].claim = None;
        let report = crate::replay::validate_bytes(&encode(&edited, Encoding::JsonLines));
        let fault = report.verdict.fault().unwrap().clone();
        assert_eq!((fault.code, fault.index), (ErrorCode::NotSafeAction, Some(at + 1)), "{fault}");
    }
    assert!(state.play_mut(seat, &safe).is_ok());
}

#[test]
fn logs_with_incidents_replay_validate_and_keep_their_digest_in_every_game() {
    check_log_with_incidents::<Tzq>("standard", &[("rounds", OptValue::Int(2))], 2, "inc tzq");
    check_log_with_incidents::<Tayu>("standard", &[], 4, "inc tayu 4");
    check_log_with_incidents::<Tayu>("standard", &[], 3, "inc tayu 3");
    check_log_with_incidents::<Riichi>("tonpuu", &[], 4, "inc riichi");
    check_log_with_incidents::<Mcr>("standard", &[("hands", OptValue::Int(2))], 4, "inc mcr");
    check_log_with_incidents::<Hungarian>("hand", &[], 4, "inc hungarian");
}

#[test]
fn the_safe_action_is_always_legal_over_random_games() {
    for i in 0..4 {
        game_with_incidents::<Tzq>("standard", &[("rounds", OptValue::Int(1))], 2, &format!("safe tzq {i}"));
        game_with_incidents::<Tayu>("standard", &[], 2 + i % 3, &format!("safe tayu {i}"));
        game_with_incidents::<Tayu>("faceup", &[], 2, &format!("safe tayu faceup {i}"));
        game_with_incidents::<Riichi>("tonpuu", &[], 4, &format!("safe riichi {i}"));
        game_with_incidents::<Mcr>("standard", &[("hands", OptValue::Int(1))], 4, &format!("safe mcr {i}"));
        game_with_incidents::<Hungarian>("hand", &[], 4, &format!("safe hungarian {i}"));
    }
}

#[test]
fn the_safe_action_discards_the_drawn_tile_and_passes_claims() {
    let (mut g, _) = start::<Riichi>("tonpuu", &[], 4, "safe riichi");
    let (seat, drawn, _) = g.drawn_tile().unwrap();
    assert_eq!(g.safe_action(seat), Some(crate::riichi::Action::tsumogiri(drawn)));
    assert_eq!(g.safe_action((seat + 1) % 4), None);
    // Find a claim window: every seat asked answers pass as its safe action.
    for _ in 0..200 {
        let s = g.to_act().iter().next().unwrap();
        if g.claim_window().is_some() {
            assert_eq!(g.safe_action(s), Some(crate::riichi::Action::Pass));
            return;
        }
        let a = g.safe_action(s).unwrap();
        g.play_mut(s, &a).unwrap();
    }
    panic!("no claim window in 200 safe actions");
}

#[test]
fn a_rule_incident_of_another_game_is_refused() {
    let (g, _) = start::<Riichi>("tonpuu", &[], 4, "other game");
    let seat = g.to_act().iter().next().unwrap();
    let v = g.validate(seat, &"incident talk".parse().unwrap()).unwrap_err();
    assert_eq!(v.message, "talk is a rule incident of tayu, not of riichi");
    let (m, _) = start::<Mcr>("standard", &[], 4, "other game");
    let seat = m.to_act().iter().next().unwrap();
    assert!(m.validate(seat, &"incident chombo".parse().unwrap()).is_err());
    assert!(m.validate((seat + 1) % 4, &"incident timeout".parse().unwrap()).is_err(), "a seat that owes nothing");
}

#[test]
fn talk_passes_the_piece_to_the_next_player_who_places_it() {
    let (mut g, _) = start::<Tayu>("standard", &[], 4, "talk");
    // Draw: then the drawer owes its placement.
    let drawer = g.to_act().iter().next().unwrap();
    let talk: crate::tayu::Action = "incident talk: pointed at a square".parse().unwrap();
    let v = g.validate(drawer, &talk).unwrap_err();
    assert!(v.message.contains("owes no placement"), "{v}");
    let draw = g.safe_action(drawer).unwrap();
    g.play_mut(drawer, &draw).unwrap();
    assert_eq!(g.to_act().iter().collect::<Vec<_>>(), vec![drawer]);
    let placements = g.legal_actions(drawer);
    g.play_mut(drawer, &talk).unwrap();
    let next = (drawer + 1) % 4;
    assert_eq!(g.to_act().iter().collect::<Vec<_>>(), vec![next], "the next player, of the other team");
    assert_eq!(g.legal_actions(next), placements, "it places the same piece");
    let place = g.safe_action(next).unwrap();
    g.play_mut(next, &place).unwrap();
    assert_eq!(g.to_act().iter().collect::<Vec<_>>(), vec![(next + 1) % 4], "then the player after it draws");
    // Two or three players: no teams, no talk rule.
    for seats in [2, 3] {
        let (mut g, _) = start::<Tayu>("standard", &[], seats, "talk few");
        while !matches!(g.legal_actions(g.to_act().iter().next().unwrap()).first(), Some(crate::tayu::Action::Place(_)))
        {
            let s = g.to_act().iter().next().unwrap();
            let a = g.safe_action(s).unwrap();
            g.play_mut(s, &a).unwrap();
        }
        let s = g.to_act().iter().next().unwrap();
        let v = g.validate(s, &talk).unwrap_err();
        assert!(v.message.contains("four-player game"), "{v}");
    }
}

/// Plays `hands` MCR hands with the choices of one stream, a false win of `offender` recorded at
/// its first decision when `false_win` is set.
fn mcr_game(false_win: Option<Seat>, penalty: i64) -> Mcr {
    let (mut g, _) =
        start::<Mcr>("standard", &[("hands", OptValue::Int(1)), ("false_win", OptValue::Int(penalty))], 4, "false win");
    let mut pick = Seed::from_text("false win").stream("pick");
    let mut pending = false_win;
    while !g.is_over() {
        let s = g.to_act().iter().next().unwrap();
        if pending == Some(s) {
            g.play_mut(s, &"incident false_win: declared hu on 5 fan".parse().unwrap()).unwrap();
            pending = None;
            assert!(!g.is_over() && g.to_act().contains(s), "play goes on");
        }
        let legal = g.legal_actions(s);
        let a = legal[pick.below(legal.len() as u64) as usize].clone();
        g.play_mut(s, &a).unwrap();
    }
    g
}

#[test]
fn a_false_win_costs_the_penalty_to_each_other_player_and_play_goes_on() {
    let plain = mcr_game(None, 10);
    let fined = mcr_game(Some(2), 10);
    let d = |g: &Mcr| g.results()[0].deltas.clone();
    let expected: Vec<i64> = d(&plain).iter().enumerate().map(|(s, x)| x + if s == 2 { -30 } else { 10 }).collect();
    assert_eq!(d(&fined), expected);
    assert_eq!(fined.scores(), expected);
    let facts = &fined.results()[0].facts;
    assert!(facts.iter().any(|f| f.seat == Some(2) && f.key == "false_win" && f.value == 1), "{facts:?}");
    assert_eq!(d(&mcr_game(Some(2), 0)), d(&plain), "false_win 0: recorded, no payment");
}

#[test]
fn a_chombo_annuls_the_hand_and_deals_it_again_from_the_seed() {
    for (option, offender, expected) in [
        ("mangan", 1u8, [4000, -8000, 2000, 2000]),
        ("mangan", 0, [-12000, 4000, 4000, 4000]),
        ("none", 1, [0, 0, 0, 0]),
    ] {
        let opts = [("chombo", OptValue::Text(option.into()))];
        let (mut g, _) = start::<Riichi>("tonpuu", &opts, 4, "chombo");
        // Play to a decision of the offender.
        while g.to_act().iter().next() != Some(offender) {
            let s = g.to_act().iter().next().unwrap();
            let a = g.safe_action(s).unwrap();
            g.play_mut(s, &a).unwrap();
        }
        let (dealer, honba, hand) = (g.dealer(), g.honba(), g.kyoku_index());
        let tiles = g.hand(2).to_vec();
        g.play_mut(offender, &"incident chombo: ron without a yaku".parse().unwrap()).unwrap();
        let r = &g.results()[0];
        assert_eq!(r.deltas, expected.to_vec(), "{option} {offender}: {}", r.summary);
        assert_eq!(g.scores(), expected.iter().map(|d| 25000 + d).collect::<Vec<_>>());
        assert!(r.facts.iter().any(|f| f.seat == Some(offender) && f.key == "chombo"), "{:?}", r.facts);
        assert_eq!((g.dealer(), g.honba(), g.kyoku_index()), (dealer, honba, hand), "the same hand again");
        assert_ne!(g.hand(2), &tiles[..], "dealt again");
        // The redeal is the seed's: the same log replays to the same tiles.
        let (mut again, _) = start::<Riichi>("tonpuu", &opts, 4, "chombo");
        while again.to_act().iter().next() != Some(offender) {
            let s = again.to_act().iter().next().unwrap();
            let a = again.safe_action(s).unwrap();
            again.play_mut(s, &a).unwrap();
        }
        again.play_mut(offender, &"incident chombo".parse().unwrap()).unwrap();
        assert_eq!(again.hand(2), g.hand(2));
    }
    // An imported game has no seed to deal again from.
    let imported = Riichi::new(Riichi::rules("standard", &Options::new()).unwrap(), 4, None).unwrap();
    let v = imported.check_chombo(0).unwrap_err();
    assert!(v.message.contains("imported"), "{v}");
}

/// A riichi game played at random (riichi declared whenever it can be) until a riichi stands in
/// the first hand; `None` when the hand ends first.
fn riichi_standing(seed: &str) -> Option<Riichi> {
    let (mut g, _) = start::<Riichi>("tonpuu", &[], 4, seed);
    let mut pick = Seed::from_text(seed).stream("pick");
    while g.results().is_empty() {
        if (0..4).any(|s| g.in_riichi(s)) {
            return Some(g);
        }
        let s = g.to_act().iter().next()?;
        let legal = g.legal_actions(s);
        let a = legal
            .iter()
            .find(|a| matches!(a, crate::riichi::Action::Discard { riichi: true, .. }))
            .cloned()
            .unwrap_or_else(|| legal[pick.below(legal.len() as u64) as usize].clone());
        g.play_mut(s, &a).unwrap();
    }
    None
}

#[test]
fn a_chombo_returns_the_riichi_deposits_of_the_hand() {
    let mut g = (0..50).find_map(|i| riichi_standing(&format!("chombo riichi {i}"))).expect("a riichi in 50 games");
    let rich = (0..4).find(|&s| g.in_riichi(s)).unwrap();
    assert_eq!(g.riichi_sticks(), 1);
    let s = g.to_act().iter().next().unwrap();
    g.play_mut(s, &"incident chombo".parse().unwrap()).unwrap();
    assert_eq!(g.riichi_sticks(), 0);
    let r = &g.results()[0];
    assert_eq!(r.deltas.iter().sum::<i64>(), 0, "deposits returned: the penalty alone moves points ({:?})", r.deltas);
    assert_eq!(r.deltas.iter().filter(|&&d| d < 0).count(), 1, "only the offender pays ({:?})", r.deltas);
    assert!(!g.in_riichi(rich), "a new hand");
}

/// An incident's detail (up to 200 bytes) lives outside the action, behind a box: every action
/// type stays the size of its moves, so that a record, a claim window's answers and an engine's
/// phase are small to copy. (With the detail inline, every engine's action was 202 bytes and a
/// riichi record 256.)
#[test]
fn actions_stay_small() {
    use std::mem::size_of;
    let sizes = [
        ("riichi", size_of::<crate::riichi::Action>(), 16),
        ("mcr", size_of::<crate::mcr::Action>(), 16),
        ("hungarian", size_of::<crate::hungarian::Action>(), 16),
        ("tzq", size_of::<crate::tzq::Action>(), 16),
        ("tayu", size_of::<crate::tayu::Action>(), 16),
    ];
    for (game, size, most) in sizes {
        eprintln!("{game}: an action is {size} bytes");
        assert!(size <= most, "{game}: an action is {size} bytes, more than {most}");
    }
    // A record of a riichi action: seq, seat, action, and the optional claim.
    assert!(size_of::<crate::log::Record<crate::riichi::Action>>() <= 72);
    // The incident itself keeps its detail inline: one allocation per incident record.
    assert_eq!(size_of::<Incident>(), MAX_DETAIL + 2);
}
