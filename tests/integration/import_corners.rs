//! The corners of riichi that real records contain, each found in a real Tenhou game of
//! ../shared/real-logs/tenhou (read in place): the test checks that the corner really happens in
//! that round of the source, and that Paifu's import computes the same score changes. Corners the
//! real games lack (liability payments) are built by hand, with hand-computed expectations.

use paifu_core::log::Positions;
use paifu_core::replay::{validate_log, Outcome as Played, Verdict};
use paifu_core::riichi::Riichi;
use paifu_recorder::import::record::{self, Discard, Outcome, Round};
use paifu_recorder::import::tenhou6;
use paifu_recorder::import::to_log::Imported;
use std::path::PathBuf;

fn real(file: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-logs/tenhou").join(file);
    std::fs::read_to_string(p).unwrap()
}

fn import(text: &str) -> (record::Game, Imported) {
    let g = tenhou6::parse(text).unwrap();
    let imp = tenhou6::import(text, text.as_bytes()).unwrap();
    (g, imp)
}

fn valid(imp: &Imported) -> Played {
    assert!(imp.mismatches.is_empty(), "{:?}", imp.mismatches);
    match validate_log::<Riichi>(&imp.log, &Positions::default()) {
        Verdict::Valid(o) => o,
        Verdict::Invalid(f) => panic!("{f} at {:?}", f.index.map(|i| imp.positions[i].to_string())),
    }
}

/// The round's score changes as Tenhou writes them, with the riichi deposits that stood taken
/// off (Paifu's convention, docs/rules/riichi.md "Round results").
fn source_deltas(r: &Round) -> Vec<i64> {
    let mut d = [0i64; 4];
    match &r.outcome {
        Outcome::Wins(ws) => {
            for w in ws {
                for (x, y) in d.iter_mut().zip(w.deltas) {
                    *x += y;
                }
            }
        }
        Outcome::Draw { deltas, .. } => d = deltas.unwrap_or_default(),
    }
    for s in 0..4u8 {
        let ds = &r.discards[usize::from(s)];
        if let Some(i) = ds.iter().position(|x| matches!(x, Discard::Riichi(_))) {
            let ronned = i + 1 == ds.len()
                && matches!(&r.outcome, Outcome::Wins(ws) if ws.iter().any(|w| w.from == s && w.who != s));
            if !ronned {
                d[usize::from(s)] -= 1000;
            }
        }
    }
    d.to_vec()
}

fn has_fact(o: &Played, round: usize, key: &str) -> bool {
    o.rounds[round].facts.iter().any(|f| f.key == key)
}

/// Imports the game, checks the corner in the source with `in_source`, and Paifu's result for
/// that round (same deltas, and `fact` among its facts).
fn corner(file: &str, round: usize, in_source: impl Fn(&Round) -> bool, fact: &str) -> Played {
    let (g, imp) = import(&real(file));
    let r = &g.rounds[round];
    assert!(in_source(r), "{file} round {round} ({}) does not have the corner: {:?}", r.name(), r.outcome);
    let o = valid(&imp);
    assert_eq!(o.rounds.len(), g.rounds.len(), "{file}");
    assert_eq!(o.rounds[round].deltas, source_deltas(r), "{file} {}", r.name());
    assert!(
        has_fact(&o, round, fact),
        "{file} {}: no {fact} in {:?} ({})",
        r.name(),
        o.rounds[round].facts,
        o.rounds[round].summary
    );
    // Every other round of the game agrees too.
    for (i, r) in g.rounds.iter().enumerate() {
        assert_eq!(o.rounds[i].deltas, source_deltas(r), "{file} {}", r.name());
    }
    o
}

fn yaku_in(r: &Round, name: &str) -> bool {
    matches!(&r.outcome, Outcome::Wins(ws) if ws.iter().any(|w| w.yaku.iter().flatten().any(|(y, _)| y == name)))
}

fn draw_named(r: &Round, name: &str) -> bool {
    matches!(&r.outcome, Outcome::Draw { name: n, .. } if n == name)
}

#[test]
fn double_ron_2020052700gm_75a4695c_east_2_two_honba() {
    let o = corner(
        "2020052700gm-00a9-0000-75a4695c.json",
        2,
        |r| matches!(&r.outcome, Outcome::Wins(ws) if ws.len() == 2 && ws[0].from == ws[1].from && ws[0].who != ws[1].who),
        "ron",
    );
    assert_eq!(o.rounds[2].facts.iter().filter(|f| f.key == "win").count(), 2);
}

#[test]
fn robbing_a_kan_2010081709gm_fe3371ad_east_3() {
    corner("2010081709gm-00a9-0000-fe3371ad.json", 4, |r| yaku_in(r, "槍槓"), "yaku:chankan");
}

#[test]
fn replacement_tile_win_2016052515gm_c4d72066_east_2_two_honba() {
    corner("2016052515gm-00a9-0000-c4d72066.json", 6, |r| yaku_in(r, "嶺上開花"), "yaku:rinshan");
}

#[test]
fn replacement_tile_wins_in_two_more_games() {
    corner("2020080212gm-00a9-0000-82c7d512.json", 4, |r| yaku_in(r, "嶺上開花"), "yaku:rinshan");
    corner("2020052221gm-00a9-0000-6f0524c7.json", 11, |r| yaku_in(r, "嶺上開花"), "yaku:rinshan");
}

#[test]
fn four_riichi_2018040923gm_1833afca_east_3() {
    corner(
        "2018040923gm-00a9-0000-1833afca.json",
        2,
        |r| draw_named(r, "四家立直") && r.discards.iter().all(|d| d.iter().any(|x| matches!(x, Discard::Riichi(_)))),
        "abort:four_riichi",
    );
}

#[test]
fn four_kans_abort_2016052515gm_c4d72066_east_1_two_honba() {
    corner(
        "2016052515gm-00a9-0000-c4d72066.json",
        2,
        |r| {
            let kans = r
                .discards
                .iter()
                .flatten()
                .filter(|d| matches!(d, Discard::AddedKan { .. } | Discard::ClosedKan { .. }))
                .count()
                + r.takes.iter().flatten().filter(|t| matches!(t, record::Take::OpenKan { .. })).count();
            draw_named(r, "四槓散了") && kans == 4
        },
        "abort:four_kans",
    );
}

#[test]
fn nine_terminals_in_three_games() {
    corner("2010112714gm-00a9-0000-d497e395.json", 6, |r| draw_named(r, "九種九牌"), "abort:nine_terminals");
    corner("2011020613gm-00a9-0000-3774f8d1.json", 4, |r| draw_named(r, "九種九牌"), "abort:nine_terminals");
    corner("2018022422gm-00a9-0000-0067d2a4.json", 2, |r| draw_named(r, "九種九牌"), "abort:nine_terminals");
}

#[test]
fn four_winds_2020052221gm_6f0524c7_south_3() {
    corner("2020052221gm-00a9-0000-6f0524c7.json", 9, |r| draw_named(r, "四風連打"), "abort:four_winds");
}

#[test]
fn nagashi_mangan_2019082700gm_63d1f136_east_4() {
    corner("2019082700gm-00a9-0000-63d1f136.json", 3, |r| draw_named(r, "流し満貫"), "nagashi_mangan");
}

#[test]
fn heavenly_hand_and_big_three_dragons() {
    corner("2017040900gm-00a9-0000-af5434e3.json", 1, |r| yaku_in(r, "天和"), "yaku:tenhou");
    corner("2019060813gm-00a9-0000-08bb0ec3.json", 6, |r| yaku_in(r, "大三元"), "yaku:daisangen");
}

#[test]
fn busts_end_the_game_before_its_last_hand() {
    // Each of these games ends with a negative score, in a hand that is not the last by length.
    for file in [
        "2010110100gm-00a9-0000-de3472e8.json",
        "2017040900gm-00a9-0000-af5434e3.json",
        "2019060813gm-00a9-0000-08bb0ec3.json",
        "2020052212gm-00a9-0000-3c7fe026.json",
        "2020080212gm-00a9-0000-82c7d512.json",
        "2020081220gm-00a9-0000-9ee6ab3b.json",
    ] {
        let (g, _) = import(&real(file));
        let last = g.rounds.len() - 1;
        let r = &g.rounds[last];
        let f = g.final_scores.clone().unwrap();
        assert!(f.iter().any(|&x| x < 0), "{file}: {f:?}");
        let o = corner(file, last, |_| true, "rank");
        assert_eq!(o.final_scores, f, "{file}");
        // The game stops there: the scores after the hand have a negative one.
        let after: Vec<i64> = r.scores.iter().zip(&o.rounds[last].deltas).map(|(a, b)| a + b).collect();
        assert!(after.iter().any(|&x| x < 0), "{file} {}: {after:?}", r.name());
        // Not the natural end: before South 4.
        assert!(r.kyoku < 7, "{file}: {}", r.name());
    }
}

#[test]
fn the_west_extension_2020060723gm_58807e27() {
    // Nobody had 30000 after South 4: the game goes on into West until someone has.
    let file = "2020060723gm-00a9-0000-58807e27.json";
    let (g, _) = import(&real(file));
    let west: Vec<usize> = (0..g.rounds.len()).filter(|&i| g.rounds[i].kyoku >= 8).collect();
    assert_eq!(west.len(), 6, "{file}");
    let south4_end: Vec<i64> = {
        let i = west[0] - 1;
        let r = &g.rounds[i];
        r.scores.iter().zip(source_deltas(r)).map(|(a, b)| a + b).collect()
    };
    assert!(south4_end.iter().all(|&x| x < 30000), "{south4_end:?}");
    let o = corner(file, west[0], |r| r.kyoku == 8, "abort:nine_terminals");
    assert_eq!(o.rounds.len(), g.rounds.len());
    assert_eq!(Some(o.final_scores), g.final_scores);
    // And the West extension of another game, ended by a win.
    corner("2011020416gm-00a9-0000-025480d4.json", 9, |r| r.kyoku == 8, "win");
}

// ---- Liability (pao): built by hand, the real games have none. ----

/// East 1: seat 1 holds pairs of the three dragons and calls pon on white (from seat 0), green
/// (from seat 2), then red (from seat 3, across), and draws its 9p tanki: big three dragons by
/// self-draw, 32000, all paid by seat 3, liable for feeding the third dragon set (Tenhou's rule:
/// the other two sets are open). Seat 3 goes to -7000: the game ends (a bust).
pub(super) fn pao_game(deltas: [i64; 4], pao: u8) -> String {
    let round = serde_json::json!([
        [0, 0, 0],
        [25000, 25000, 25000, 25000],
        [21],
        [],
        [12, 14, 16, 18, 21, 23, 25, 27, 32, 34, 36, 38, 45],
        [19, 39],
        [45, 60],
        [11, 12, 13, 22, 29, 31, 39, 45, 45, 46, 46, 47, 47],
        ["p454545", "4646p46", "47p4747", 29],
        [31, 39, 22],
        [12, 14, 16, 18, 21, 23, 25, 27, 32, 34, 36, 38, 46],
        [44, 44, 19],
        [46, 60, 60],
        [12, 14, 16, 18, 21, 23, 25, 27, 32, 34, 36, 43, 47],
        [44, 39],
        [47, 60],
        ["和了", deltas, [1, 1, pao, "役満32000点", "大三元(役満)"]]
    ]);
    let end: Vec<i64> = (0..4).map(|s| 25000 + deltas[s]).collect();
    // The results after uma and oka as Tenhou writes them (thousands), for the liable split's
    // final scores [25000, 57000, 25000, -7000]: second 25000 -> -5 + 10, third -5 - 10,
    // fourth -37 - 20, the top the rest.
    let results = [5.0, 67.0, -15.0, -57.0];
    serde_json::json!({
        "ver": 2.3, "ref": "hand-built-pao", "rule": {"disp": "般南喰赤", "aka": 1},
        "name": ["A", "B", "C", "D"],
        "sc": [end[0], results[0], end[1], results[1], end[2], results[2], end[3], results[3]],
        "log": [round]
    })
    .to_string()
}

#[test]
fn liability_for_big_three_dragons_pays_the_whole_self_draw_and_busts_the_feeder() {
    let (g, imp) = import(&pao_game([0, 32000, 0, -32000], 3));
    let o = valid(&imp);
    assert_eq!(o.rounds.len(), 1);
    assert_eq!(o.rounds[0].deltas, vec![0, 32000, 0, -32000]);
    assert!(o.rounds[0].facts.iter().any(|f| f.key == "liable" && f.seat == Some(3)), "{:?}", o.rounds[0].facts);
    assert!(o.rounds[0].facts.iter().any(|f| f.key == "yaku:daisangen"));
    // Seat 3 is below zero: the game is over after one hand.
    assert_eq!(o.final_scores, vec![25000, 57000, 25000, -7000]);
    assert_eq!(g.final_scores, Some(o.final_scores.clone()));
}

#[test]
fn a_self_draw_split_as_if_nobody_were_liable_is_rejected() {
    // The usual non-dealer yakuman self-draw (8000/16000/8000) instead of the liable seat paying.
    let (_, imp) = import(&pao_game([-16000, 32000, -8000, -8000], 1));
    match validate_log::<Riichi>(&imp.log, &Positions::default()) {
        Verdict::Invalid(f) => {
            assert_eq!(f.code.to_string(), "claim_mismatch", "{f}");
            assert_eq!(f.round, Some(1));
            assert_eq!(f.index, Some(imp.log.records.len() - 1), "{f}");
            assert_eq!(imp.positions[imp.log.records.len() - 1].to_string(), "log[0][16]");
        }
        Verdict::Valid(_) => panic!("a wrong liability split validates"),
    }
}
