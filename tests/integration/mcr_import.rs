//! Botzone's Chinese Standard Mahjong records imported into MCR logs: a hand written here in the
//! dataset's format (docs/import.md), checked record by record by the engine, its stated fan and
//! scores against Paifu's count; bad records refused where they go wrong.

use crate::util::{paifu, stdout};
use paifu_core::log::Positions;
use paifu_core::mcr::Mcr;
use paifu_core::replay::{validate_log, Verdict};
use paifu_core::ErrorCode;
use paifu_recorder::import::mcr::{botzone, to_log};
use std::fs;

/// Seat 0 deals and discards a white dragon; seat 1 wins on it (a mixed straight) over seat 2's
/// pung. The deals are seats 0-3 of the engine tests (core/src/mcr/tests.rs) in Botzone's tiles.
pub(crate) const HAND: &str = "Match test0001
Wind 0
Player 0 Deal W8 W1 W9 B1 B9 T1 T9 F2 F3 F4 J3 J2 J1
Player 1 Deal W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 F1 J3
Player 2 Deal W2 W3 W4 W5 W6 W7 T3 T4 T5 T6 T6 J3 J3
Player 3 Deal W2 W2 W3 W3 B4 B4 B5 B5 B6 B6 B7 B7 T8
Player 0 Draw B3
Player 0 Play J3
Player 1 Hu J3 Ignore Player 2 Peng J3
Fan 19 花龙*1+五门齐*1+圈风刻*1+门前清*1+单钓将*1
Score -27 43 -8 -8";

fn import(text: &str) -> paifu_recorder::import::mcr::Imported {
    let hands = botzone::read(text).unwrap();
    assert_eq!(hands.len(), 1);
    to_log(&hands[0]).unwrap()
}

#[test]
fn a_botzone_hand_imports_valid_with_its_fan_and_scores_checked() {
    let imp = import(HAND);
    assert!(imp.mismatches.is_empty(), "{:?}", imp.mismatches);
    assert_eq!(imp.refused, None);
    let h = &imp.log.header;
    assert_eq!((h.game.as_str(), h.ruleset.as_str()), ("mcr", "botzone"));
    assert_eq!(h.source.as_ref().unwrap().id, "test0001");
    assert_eq!(h.meta["source"], HAND, "the hand's text is embedded");
    // The deals, the draw and discard, the win, and seat 2's pung set aside.
    let actions: Vec<String> = imp.log.records.iter().map(|r| format!("{} {}", r.seat, r.action)).collect();
    assert_eq!(actions[4..], ["0 draw 3p", "0 discard 5z", "2 pung 5z", "1 win"]);
    assert_eq!(imp.positions[7].to_string(), "line 9");
    let Verdict::Valid(o) = validate_log::<Mcr>(&imp.log, &Positions::default()) else { panic!("invalid") };
    assert_eq!(o.final_scores, [-27, 43, -8, -8]);
}

#[test]
fn a_stated_fan_or_score_that_differs_is_reported_at_its_line() {
    // One fan too many stated: the list and total differ from Paifu's.
    let imp = import(&HAND.replace("Fan 19", "Fan 20"));
    assert_eq!(imp.mismatches.len(), 1);
    let m = imp.mismatches[0].to_string();
    assert!(m.contains("line 10") && m.contains("the source states 20 fan, but Paifu counts 19"), "{m}");
    // The same total with another fan named: the lists differ.
    let imp = import(&HAND.replace("门前清", "不求人"));
    let m = imp.mismatches[0].to_string();
    assert!(m.contains("不求人*1 matches none of Paifu's"), "{m}");
    // A score the settlement does not give: the validator refuses the claim at the win.
    let imp = import(&HAND.replace("Score -27 43 -8 -8", "Score -26 42 -8 -8"));
    let Verdict::Invalid(f) = validate_log::<Mcr>(&imp.log, &Positions::default()) else { panic!("valid") };
    assert_eq!((f.code, f.index), (ErrorCode::ClaimMismatch, Some(7)), "{f}");
}

#[test]
fn bad_botzone_hands_are_refused_at_the_right_line() {
    // A chow from across the table: seat 2 is not the next player after seat 0.
    // (Seat 2 holds two 6s, so the engine asks it about the discard: it may pung, not chow.)
    let upto = HAND.find("Player 0 Draw B3").unwrap();
    let text = format!("{}Player 0 Draw T6\nPlayer 0 Play T6\nPlayer 2 Chi T5\nHuang\nScore 0 0 0 0", &HAND[..upto]);
    let hands = botzone::read(&text).unwrap();
    let imp = to_log(&hands[0]).unwrap();
    let (i, why) = imp.refused.clone().unwrap();
    assert_eq!(imp.positions[i].to_string(), "line 9");
    assert!(why.contains("only on the discard of the player before"), "{why}");
    // A win below 8 fan: seat 2's pung-or-pair wait on the white dragon is worth 6.
    let text = HAND.replace("Player 1 Hu J3 Ignore Player 2 Peng J3", "Player 2 Hu J3");
    let imp = to_log(&botzone::read(&text).unwrap()[0]).unwrap();
    let (i, why) = imp.refused.clone().unwrap();
    assert_eq!(imp.positions[i].to_string(), "line 9");
    assert!(why.starts_with("below_minimum") && why.contains("worth 6 fan"), "{why}");
    // Reading errors name the line.
    for (bad, line, says) in [
        (HAND.replace("Wind 0", "Wind 5"), "line 2", "Wind <0-3>"),
        (HAND.replace("Player 0 Draw B3", "Player 0 Draw X3"), "line 7", "not a Botzone tile"),
        (HAND.replace("Score -27 43 -8 -8", "Score -27 43"), "line 11", "four score changes"),
        (HAND.replace("Player 3 Deal", "Player 2 Deal"), "line 6", "Player 3 Deal"),
    ] {
        let e = botzone::read(&bad).unwrap_err().to_string();
        assert!(e.contains(line) && e.contains(says) && e.contains("match test0001"), "{e}");
    }
}

#[test]
fn paifu_import_botzone_writes_a_log_per_hand_and_says_what_differs() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    let second = HAND.replace("test0001", "test0002").replace("Fan 19", "Fan 18");
    fs::write(p.join("records.txt"), format!("{HAND}\r\n\r\n{}\n", second.replace('\n', "\r\n"))).unwrap();
    let o = paifu(&["import", "botzone", "records.txt", "-o", "out"], p);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("hand test0001 -> out/test0001.paifu.jsonl: 8 records, valid"), "{out}");
    assert!(out.contains("hand test0002: line 22: the source states 18 fan, but Paifu counts 19"), "{out}");
    assert!(out.contains("2 hands: 2 valid, 0 invalid; 1 with a fan count or result that differs"), "{out}");
    let o = paifu(&["validate", "out/test0001.paifu.jsonl"], p);
    assert!(o.status.success(), "{}", stdout(&o));
}

/// An imported hand's log carries the hand: editing a record, even into another legal one, is
/// refused as differing from the source.
#[test]
fn an_edited_imported_hand_is_refused_against_the_source_it_embeds() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    fs::write(p.join("hand.txt"), HAND).unwrap();
    assert!(paifu(&["import", "botzone", "hand.txt", "-o", "out"], p).status.success());
    let log = fs::read_to_string(p.join("out/test0001.paifu.jsonl")).unwrap();
    // Seat 0 discards a red dragon instead: legal, but not what the source says.
    let edited = log.replacen("\"discard 5z\"", "\"discard 7z\"", 1);
    assert_ne!(edited, log);
    fs::write(p.join("out/edited.paifu.jsonl"), edited).unwrap();
    let o = paifu(&["validate", "out/edited.paifu.jsonl"], p);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("source_mismatch") && out.contains("seat 0 discard 7z") && out.contains("line 8"), "{out}");
}

/// The same hand in PMN (python-majiang's notation for mahjongsoft.com's replays), written here.
pub(crate) const PMN: &str = r#"[Event "Paifu test"]
[Site "paifu-test-1"]
[PWind "E"]
[East "Ann"]
[South "Bo"]
[West "Cy"]
[North "Di"]
[Deal "c189d19b19w234r123f c123d456b789w111r3f c234567db34566wr33f c2233d44556677b8wrf"]
[Starting "0 0 0 0"]
[Result "-27 43 -8 -8"]
[Play "T0d3D0r3H1"]
[Fan "None 39/8/1.52/6/1.60/2/1.62/2/1.79/1/1 None None"]"#;

#[test]
fn a_pmn_hand_imports_valid_and_its_fan_by_number_is_checked() {
    use paifu_recorder::import::mcr::pmn;
    let hands =
        pmn::read(&format!("{PMN}\n\n{}", PMN.replace("paifu-test-1", "paifu-test-2").replace("62/2/1", "62/2/2")))
            .unwrap();
    assert_eq!(hands.len(), 2);
    let imp = to_log(&hands[0]).unwrap();
    assert!(imp.mismatches.is_empty(), "{:?}", imp.mismatches);
    assert_eq!(imp.log.header.seats, ["Ann", "Bo", "Cy", "Di"]);
    assert_eq!(imp.log.header.source.as_ref().unwrap().format, "pmn");
    let Verdict::Valid(o) = validate_log::<Mcr>(&imp.log, &Positions::default()) else { panic!("invalid") };
    assert_eq!(o.final_scores, [-27, 43, -8, -8]);
    // Concealed hand stated twice: 21 fan stated, 19 counted.
    let imp = to_log(&hands[1]).unwrap();
    let m = imp.mismatches[0].to_string();
    assert!(m.contains("the source states 21 fan, but Paifu counts 19"), "{m}");
    // Bad notation names its line.
    let e = pmn::read(&PMN.replace("[PWind \"E\"]", "[PWind \"X\"]")).unwrap_err().to_string();
    assert!(e.contains("line 3") && e.contains("E, S, W or N"), "{e}");
    let e = pmn::read(&PMN.replace("T0d3D0r3H1", "T0d3D0r3H")).unwrap_err().to_string();
    assert!(e.contains("line 11") && e.contains("the winner's seat"), "{e}");
}
