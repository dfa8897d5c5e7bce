//! Tests of the MCR engine: whole matches played at random, the deal, claims and their
//! priority, and refusals.

use super::*;
use crate::mahjong::Tile;
use crate::Game;

/// Plays a match choosing uniformly among the legal actions (wins first when offered, so hands
/// end in wins as well as draws), checking that `check` accepts each and refuses none of them.
fn random_match(seed: &str, rules: Rules) -> Mcr {
    let seed = Seed::from_text(seed);
    let mut g = Mcr::new(rules, 4, Some(&seed)).unwrap();
    let mut s = seed.stream("test choices");
    let mut steps = 0;
    while !g.is_over() {
        let seat = g.to_act().iter().next().unwrap();
        let legal = g.legal_actions(seat);
        assert!(!legal.is_empty(), "seat {seat} owes a decision but has none\n{}", g.render());
        let a = match legal.iter().find(|a| **a == Action::Win) {
            Some(w) => w.clone(),
            None => legal[s.below(legal.len() as u64) as usize].clone(),
        };
        g.play_mut(seat, &a).unwrap_or_else(|v| panic!("{a} refused: {v}\n{}", g.render()));
        steps += 1;
        assert!(steps < 100_000, "the match does not end");
    }
    g
}

#[test]
fn random_matches_end_with_sixteen_zero_sum_hands() {
    for i in 0..20 {
        let g = random_match(&format!("match {i}"), Rules::default());
        assert_eq!(g.results().len(), 16);
        for r in g.results() {
            assert_eq!(r.deltas.iter().sum::<i64>(), 0, "{}", r.summary);
        }
        assert_eq!(g.scores().iter().sum::<i64>(), 0);
        let tp = g.table_points();
        assert!(tp.iter().sum::<i64>() <= 7, "{tp:?}");
    }
}

#[test]
fn the_deal_gives_the_dealer_fourteen_and_flowers_are_replaced() {
    for i in 0..50 {
        let g = Mcr::new(Rules::default(), 4, Some(&Seed::from_text(&format!("deal {i}")))).unwrap();
        let dealer = g.dealer();
        let mut tiles = 0;
        let mut flowers = 0;
        for s in 0..4u8 {
            let p = &g.players[usize::from(s)];
            assert_eq!(p.hand.len(), if s == dealer { 14 } else { 13 }, "seat {s}");
            tiles += p.hand.len();
            flowers += p.flowers.len();
        }
        // Every piece dealt is either in a hand or set aside as a flower, and the wall holds the rest.
        assert_eq!(tiles + flowers + g.wall_left(), 144);
        assert_eq!(g.to_act(), SeatSet::single(dealer));
    }
}

#[test]
fn seats_change_between_rounds_as_mcr_has_them() {
    let g = random_match("rounds", Rules::default());
    // The dealer of the first hand of each round sits East that round; the places of the
    // first round's players A B C D follow the table.
    assert_eq!(g.results().len(), 16);
    let _ = g;
    assert_eq!(super::engine::ROUND_SEATS_FOR_TESTS, [[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 1, 0], [3, 2, 0, 1]]);
}

/// A single imported hand (no seed): the seats' deals, then the records.
fn imported(deals: [&str; 4]) -> Mcr {
    let rules = Rules { flowers: false, hands: 1, ..Rules::default() };
    let mut g = Mcr::new(rules, 4, None).unwrap();
    for (s, d) in deals.iter().enumerate() {
        g.play_mut(s as Seat, &format!("deal {d}").parse().unwrap()).unwrap_or_else(|v| panic!("deal {s}: {v}"));
    }
    g
}

fn play(g: &mut Mcr, seat: Seat, action: &str) -> Result<(), crate::error::Violation> {
    g.play_mut(seat, &action.parse().unwrap())
}

/// Seat 1 waits on 5z with a mixed straight (well above 8 fan); seat 2 waits on 5z or 6s with
/// a hand worth 6 fan on 5z.
const DEALS: [&str; 4] = ["8m19m19p19s234567z", "123m456p789s111z5z", "234567m345s66s55z", "22m33m44p55p66p77p8s"];

#[test]
fn a_win_on_a_discard_beats_a_pung_and_a_win_below_eight_fan_is_its_own_fault() {
    let mut g = imported(DEALS);
    play(&mut g, 0, "draw 3p").unwrap();
    play(&mut g, 0, "discard 5z").unwrap();
    assert_eq!(g.to_act().iter().collect::<Vec<_>>(), [1, 2]);
    let v = play(&mut g, 2, "win").unwrap_err();
    assert_eq!(v.code, crate::error::ErrorCode::BelowMinimum, "{v}");
    assert!(v.message.contains("worth 6 fan") && v.message.contains("needs 8"), "{v}");
    assert_eq!(g.legal_actions(2), ["pass".parse().unwrap(), "pung 5z".parse().unwrap()]);
    play(&mut g, 2, "pung 5z").unwrap();
    play(&mut g, 1, "win").unwrap();
    assert!(g.is_over());
    let r = &g.results()[0];
    let fan = r.facts.iter().find(|f| f.key == "fan").unwrap().value;
    assert!(fan >= 8, "{}", r.summary);
    assert_eq!(r.deltas, [-(8 + fan), 16 + 8 + fan, -8, -8], "{}", r.summary);
    assert!(r.summary.starts_with("seat 1 wins on 5z on seat 0's discard: mixed_straight 8"), "{}", r.summary);
}

#[test]
fn a_chow_from_across_a_kong_of_three_and_a_claim_after_the_next_draw_are_refused() {
    let mut g = imported(DEALS);
    play(&mut g, 0, "draw 6s").unwrap();
    play(&mut g, 0, "discard 6s").unwrap();
    // Seat 2 may pung the 6s, so it answers; a chow is only for seat 1, the next player.
    let v = play(&mut g, 2, "chow 7s 8s").unwrap_err();
    assert!(v.message.contains("only on the discard of the player before"), "{v}");
    assert!(g.legal_actions(1).contains(&"chow 7s 8s".parse().unwrap()));
    play(&mut g, 1, "pass").unwrap();
    play(&mut g, 2, "pass").unwrap();
    play(&mut g, 1, "draw 2s").unwrap();
    let v = play(&mut g, 2, "pung 6s").unwrap_err();
    assert_eq!(v.code, crate::error::ErrorCode::NotYourTurn, "{v}");
    let v = play(&mut g, 1, "concealed_kong 1z").unwrap_err();
    assert!(v.message.contains("with 3 in its hand: a kong is four tiles"), "{v}");
    let v = play(&mut g, 1, "discard 9m").unwrap_err();
    assert!(v.message.contains("not in its hand"), "{v}");
    // A seeded game's draws come from the seed, not from records.
    let mut seeded = Mcr::new(Rules::default(), 4, Some(&Seed::from_text("x"))).unwrap();
    let dealer = seeded.dealer();
    assert!(seeded.play_mut(dealer, &"draw 1m".parse().unwrap()).unwrap_err().message.contains("come from the seed"));
}

#[test]
fn a_self_drawn_win_is_paid_by_all_three() {
    // Seat 0 holds no white dragon here: one is left in the wall.
    let mut g = imported(["7m8m19m19p19s23467z", DEALS[1], DEALS[2], DEALS[3]]);
    play(&mut g, 0, "draw 6s").unwrap();
    play(&mut g, 0, "discard 6s").unwrap();
    play(&mut g, 1, "pass").unwrap();
    play(&mut g, 2, "pass").unwrap();
    play(&mut g, 1, "draw 5z").unwrap();
    assert!(g.legal_actions(1).contains(&Action::Win));
    play(&mut g, 1, "win").unwrap();
    let r = &g.results()[0];
    let fan = r.facts.iter().find(|f| f.key == "fan").unwrap().value;
    assert_eq!(r.deltas, [-(8 + fan), 3 * (8 + fan), -(8 + fan), -(8 + fan)]);
    assert!(r.facts.iter().any(|f| f.key == "fan:self_drawn" || f.key == "fan:fully_concealed_hand"));
}

#[test]
fn imported_deals_and_draws_are_checked_for_possibility() {
    let rules = Rules { flowers: false, hands: 1, ..Rules::default() };
    let mut g = Mcr::new(rules, 4, None).unwrap();
    g.play_mut(0, &"deal 1111m2222m3333m4m".parse().unwrap()).unwrap();
    let v = g.play_mut(1, &"deal 1m234567m123p111z".parse().unwrap()).unwrap_err();
    assert!(v.message.contains("a fifth 1m"), "{v}");
    let v = g.play_mut(1, &"discard 1m".parse().unwrap()).unwrap_err();
    assert!(v.message.contains("must record its deal"), "{v}");
}

/// The fan of a won hand's result, by name.
fn fan_of(r: &RoundResult, name: &str) -> i64 {
    r.facts.iter().find(|f| f.key == format!("fan:{name}")).map_or(0, |f| f.value)
}

fn total_fan(r: &RoundResult) -> i64 {
    r.facts.iter().find(|f| f.key == "fan").map_or(0, |f| f.value)
}

#[test]
fn a_kong_added_to_a_pung_may_be_robbed_and_the_robbed_seat_pays() {
    // Seat 1 waits on the white dragon with thirteen orphans; seat 0 pungs seat 2's white dragon
    // (seat 1, offered the win, passes) and later adds the fourth, which seat 1 robs.
    let mut g = imported(["234m567m234p56p55z", "119m19p19s123467z", "7p66p88p3456789s5z", "66m222333p44p234s"]);
    for (s, a) in
        [(0, "draw 8m"), (0, "discard 8m"), (1, "draw 9m"), (1, "discard 9m"), (2, "draw 1p"), (2, "discard 5z")]
    {
        play(&mut g, s, a).unwrap_or_else(|v| panic!("{a}: {v}"));
    }
    assert!(g.legal_actions(1).contains(&Action::Win));
    play(&mut g, 1, "pass").unwrap();
    play(&mut g, 0, "pung 5z").unwrap();
    for (s, a) in [(0, "discard 7m"), (1, "draw 9m"), (1, "discard 9m"), (2, "draw 1p"), (2, "discard 1p"), (3, "pass")]
    {
        play(&mut g, s, a).unwrap_or_else(|v| panic!("{a}: {v}"));
    }
    for (s, a) in [(3, "draw 7z"), (3, "discard 7z"), (0, "draw 5z")] {
        play(&mut g, s, a).unwrap_or_else(|v| panic!("{a}: {v}"));
    }
    assert!(g.legal_actions(0).contains(&"added_kong 5z".parse().unwrap()));
    play(&mut g, 0, "added_kong 5z").unwrap();
    // Only a win may claim a tile added to a kong.
    assert_eq!(g.to_act(), SeatSet::single(1));
    assert_eq!(g.legal_actions(1), [Action::Pass, Action::Win]);
    assert_eq!(g.view().claim.map(|c| (c.from, c.robbing)), Some((0, true)));
    play(&mut g, 1, "win").unwrap();
    let r = &g.results()[0];
    assert_eq!(fan_of(r, "robbing_the_kong"), 1, "{}", r.summary);
    assert_eq!(fan_of(r, "last_tile"), 0, "robbing a kong excludes last tile: {}", r.summary);
    assert_eq!(total_fan(r), 88 + 8, "{}", r.summary);
    assert_eq!(r.deltas, [-(8 + 96), 8 + 96 + 16, -8, -8]);
    assert!(r.summary.contains("robbing seat 0's kong"), "{}", r.summary);
    assert!(r.facts.iter().any(|f| f.key == "robbed_kong" && f.seat == Some(1)));
    assert!(r.facts.iter().any(|f| f.key == "deal_in" && f.seat == Some(0)));
}

#[test]
fn a_concealed_kong_cannot_be_robbed_and_draws_a_replacement() {
    let mut g = imported(["234m567m234p6p555z", "119m19p19s123467z", "7p66p88p3456789s6z", "66m222333p44p234s"]);
    play(&mut g, 0, "draw 5z").unwrap();
    play(&mut g, 0, "concealed_kong 5z").unwrap();
    // Seat 1 could win on a white dragon, but a concealed kong is not robbed: seat 0 draws again.
    assert_eq!(g.to_act(), SeatSet::single(0));
    play(&mut g, 0, "draw 8m").unwrap();
    assert_eq!(g.melds(0).len(), 1);
    assert!(g.legal_actions(0).contains(&"discard 8m".parse().unwrap()));
}

#[test]
fn a_win_on_the_fourth_copy_with_the_other_three_visible_counts_last_tile() {
    // Seat 3 pungs seat 0's 9s, so three are in view; seat 0 later discards the fourth and seat 1
    // wins on it (a mixed straight 123m 456p 789s).
    let mut g = imported(["8m19m19p19s234567z", "123m456p78s111z55z", "234567m77p345s66s", "22m33m44p55p66p8p99s"]);
    play(&mut g, 0, "draw 3p").unwrap();
    play(&mut g, 0, "discard 9s").unwrap();
    assert!(g.legal_actions(1).contains(&Action::Win));
    play(&mut g, 1, "pass").unwrap();
    play(&mut g, 3, "pung 9s").unwrap();
    play(&mut g, 3, "discard 8p").unwrap();
    play(&mut g, 0, "draw 9s").unwrap();
    play(&mut g, 0, "discard 9s").unwrap();
    play(&mut g, 1, "win").unwrap();
    let r = &g.results()[0];
    assert_eq!(fan_of(r, "last_tile"), 1, "{}", r.summary);
    assert_eq!(fan_of(r, "mixed_straight"), 1, "{}", r.summary);

    // The same win on the first 9s: two are in seat 3's hand, unseen, so it is not the last tile.
    let mut g = imported(["8m19m19p19s234567z", "123m456p78s111z55z", "234567m77p345s66s", "22m33m44p55p66p8p99s"]);
    play(&mut g, 0, "draw 3p").unwrap();
    play(&mut g, 0, "discard 9s").unwrap();
    play(&mut g, 1, "win").unwrap();
    play(&mut g, 3, "pass").unwrap();
    assert_eq!(fan_of(&g.results()[0], "last_tile"), 0, "{}", g.results()[0].summary);
}

/// Plays an imported hand until `left` tiles are left in the wall, stopping on the turn of the
/// seat that drew: every seat discards what it draws and passes every claim, the draws taken in
/// order from the tiles the deals left, with those of `tail` kept for the final draws.
fn play_until(deals: [&str; 4], tail: &[&str], left: usize) -> Mcr {
    let mut g = imported(deals);
    let mut pool: Vec<Tile> = Vec::new();
    for k in 0..34 {
        let t = Tile::kind_tile(k);
        let dealt: usize =
            deals.iter().map(|d| crate::mahjong::parse_tiles(d).unwrap().iter().filter(|&&x| x == t).count()).sum();
        pool.extend(std::iter::repeat_n(t, 4 - dealt));
    }
    for t in tail {
        let t: Tile = t.parse().unwrap();
        let i = pool.iter().position(|&x| x == t).expect("a copy of each tail tile is left");
        pool.remove(i);
        pool.push(t);
    }
    assert_eq!(pool.len(), 136 - 52);
    let mut pool = pool.into_iter();
    loop {
        let seat = g.to_act().iter().next().unwrap();
        match &g.phase {
            super::engine::Phase::Draw { .. } => {
                let t = pool.next().unwrap();
                g.play_mut(seat, &Action::Draw(crate::mahjong::Piece::Tile(t))).unwrap();
            }
            super::engine::Phase::Turn { drawn: Some(_), .. } if g.wall_left() == left => return g,
            super::engine::Phase::Turn { drawn: Some(t), .. } => {
                let t = *t;
                g.play_mut(seat, &Action::Discard(t)).unwrap();
            }
            super::engine::Phase::Claims { .. } => g.play_mut(seat, &Action::Pass).unwrap(),
            _ => panic!("{}", g.render()),
        }
    }
}

fn to_the_last_draw(deals: [&str; 4], last: &str) -> Mcr {
    play_until(deals, &[last], 0)
}

#[test]
fn a_replacement_that_is_the_wall_s_last_tile_counts_both() {
    // Seat 2 draws the fourth 6s with one tile left, declares a concealed kong, and its
    // replacement, the wall's last tile, completes its hand.
    let deals = ["7m8m19m19p19s23467z", "123m456p789s111z5z", "234567m345s666s5z", "22m33m44p55p66p77p8s"];
    let mut g = play_until(deals, &["6s", "5z"], 1);
    assert_eq!(g.to_act(), SeatSet::single(2));
    play(&mut g, 2, "concealed_kong 6s").unwrap();
    play(&mut g, 2, "draw 5z").unwrap();
    assert_eq!(g.wall_left(), 0);
    play(&mut g, 2, "win").unwrap();
    let r = &g.results()[0];
    assert_eq!(fan_of(r, "out_with_replacement_tile"), 1, "{}", r.summary);
    assert_eq!(fan_of(r, "last_tile_draw"), 1, "{}", r.summary);
    assert_eq!(fan_of(r, "self_drawn"), 0, "{}", r.summary);
}

#[test]
fn the_last_tile_of_the_wall_and_its_discard_count_and_after_it_only_a_win_may_claim() {
    // Seat 3 (seven pairs, waiting on 8s) draws the wall's last tile, an 8s, and wins.
    let deals = ["7m8m19m19p19s23467z", "123m456p789s111z5z", "234567m345s66s55z", "22m33m44p55p66p77p8s"];
    let mut g = to_the_last_draw(deals, "8s");
    assert_eq!(g.to_act(), SeatSet::single(3));
    assert!(g.legal_actions(3).contains(&Action::Win), "{}", g.render());
    play(&mut g, 3, "win").unwrap();
    let r = &g.results()[0];
    assert_eq!(fan_of(r, "last_tile_draw"), 1, "{}", r.summary);
    assert_eq!(fan_of(r, "self_drawn"), 0, "last tile draw excludes self-drawn: {}", r.summary);

    // Seat 3 draws the last tile, a white dragon, and discards it. Seat 2 (two white dragons)
    // may not pung it, but wins on it too (the last tile claim's 8 fan make its hand); seat 1,
    // the nearer to the discarder, takes the win.
    let mut g = to_the_last_draw(deals, "5z");
    play(&mut g, 3, "discard 5z").unwrap();
    assert_eq!(g.to_act().iter().collect::<Vec<_>>(), [1, 2]);
    assert_eq!(g.legal_actions(2), [Action::Pass, Action::Win]);
    play(&mut g, 2, "win").unwrap();
    play(&mut g, 1, "win").unwrap();
    let r = &g.results()[0];
    assert!(r.summary.starts_with("seat 1 wins"), "{}", r.summary);
    assert_eq!(fan_of(r, "last_tile_claim"), 1, "{}", r.summary);
    assert_eq!(r.deltas[3], -(8 + total_fan(r)));

    // Nobody claims the last discard: the hand is drawn, nobody pays.
    let mut g = to_the_last_draw(deals, "9m");
    play(&mut g, 3, "discard 9m").unwrap();
    let r = &g.results()[0];
    assert_eq!(r.deltas, [0, 0, 0, 0]);
    assert!(r.summary.starts_with("drawn"), "{}", r.summary);
}

#[test]
fn a_game_ends_at_its_length_bound() {
    let rules = Mcr::rules("standard", &Default::default()).unwrap();
    let g = Mcr::new(rules, 4, Some(&crate::Seed::from_text("mcr bound"))).unwrap();
    crate::game::ends_at_its_bound(g, |g| g.length = crate::game::Length(Mcr::MAX_RECORDS - 1));
}
