//! Tests of the Hungarian engine: whole matches, and one rule at a time on hand-built positions.

use super::engine::{Hungarian, Phase};
use super::facts::FactKind;
use super::ritual::Break;
use super::rules::{Length, Rules, Seating};
use super::Action;
use crate::error::ErrorCode;
use crate::mahjong::{counts_of, parse_tiles, Flower, MeldKind, Piece, Tile};
use crate::random::Seed;
use crate::t;
use crate::{Game, Seat};

fn game(seed: &str, rules: Rules) -> Hungarian {
    Hungarian::new(rules, 4, Some(&Seed::from_text(seed))).unwrap()
}

/// Every tile drawn is in a hand, a set, a discard not claimed, or laid aside as a flower.
fn check_tiles(g: &Hungarian) {
    let mut n = 0usize;
    for p in &g.hand.players {
        n += p.hand.iter().map(|&x| usize::from(x)).sum::<usize>();
        n += p.melds.iter().map(|m| m.tiles().len()).sum::<usize>();
        n += p.discards.iter().filter(|d| !d.claimed).count();
        n += p.flowers.len();
    }
    assert_eq!(n, g.hand.wall.drawn() + g.hand.wall.replaced(), "{}", g.render());
}

/// Plays a match out: Mahjong whenever legal, else a pick from the seed's stream.
fn play_out(g: &mut Hungarian, seed: &str) -> usize {
    let mut s = Seed::from_text(seed).stream("test/choices");
    let mut moves = 0;
    while !g.is_over() {
        let seat = g.to_act().iter().next().unwrap();
        let legal = g.legal_actions(seat);
        assert!(!legal.is_empty(), "{}", g.render());
        for a in &legal {
            assert!(g.check(seat, a).is_ok());
        }
        let a = if legal.contains(&Action::Mahjong) {
            Action::Mahjong
        } else {
            // Claims half the time, else passes or discards.
            let i = s.below(legal.len() as u64) as usize;
            legal[i].clone()
        };
        g.play_mut(seat, &a).unwrap();
        if !g.is_over() {
            check_tiles(g);
        }
        moves += 1;
        assert!(moves < 200_000, "the match does not end");
    }
    moves
}

#[test]
fn whole_matches_end_zero_sum_in_every_length() {
    for (i, length) in [Length::Hand, Length::Game, Length::Sixteen, Length::Party].into_iter().enumerate() {
        let rules = Rules { length, ..Rules::default() };
        let mut g = game(&format!("match {i}"), rules.clone());
        play_out(&mut g, &format!("choices {i}"));
        let results = g.results();
        let wins =
            results.iter().filter(|r| r.facts.iter().any(|f| f.key_as::<FactKind>() == Some(FactKind::Win))).count();
        for r in results {
            assert_eq!(r.deltas.iter().sum::<i64>(), 0, "{}", r.summary);
        }
        assert_eq!(g.scores().iter().sum::<i64>(), 0);
        let totals: Vec<i64> = (0..4).map(|s| results.iter().map(|r| r.deltas[s]).sum()).collect();
        assert_eq!(totals, g.scores());
        match length {
            Length::Hand => assert_eq!(wins, 1),
            Length::Sixteen => assert_eq!(wins, 16),
            Length::Game => assert_eq!(g.passes, 4),
            Length::Party => assert_eq!(g.passes, 16),
        }
        // The same seed and the same moves give the same match.
        let mut again = game(&format!("match {i}"), rules);
        play_out(&mut again, &format!("choices {i}"));
        assert_eq!(again.results(), g.results());
    }
}

/// A position: East's chair on turn with `hands` by chair (chair 0 East unless moved).
fn position(hands: [&str; 4]) -> Hungarian {
    let mut g = game("position", Rules { seating: Seating::Dice, ..Rules::default() });
    g.east = 0;
    for (c, h) in hands.iter().enumerate() {
        let p = &mut g.hand.players[c];
        p.hand = counts_of(&parse_tiles(h).unwrap());
        p.melds.clear();
        p.flowers.clear();
        p.discards.clear();
    }
    g.hand.fresh = false;
    g.phase = Phase::Turn { chair: 0, drawn: Some(t!(9p)), after_claim: false };
    g
}

fn seat(g: &Hungarian, chair: u8) -> Seat {
    g.seat_of(chair)
}

fn play(g: &mut Hungarian, chair: u8, a: &str) {
    let s = seat(g, chair);
    let a: Action = a.parse().unwrap();
    g.play_mut(s, &a).unwrap_or_else(|v| panic!("chair {chair} {a}: {v}\n{}", g.render()));
}

fn refused(g: &Hungarian, chair: u8, a: &str) -> (ErrorCode, String) {
    let a: Action = a.parse().unwrap();
    let v = g.validate(seat(g, chair), &a).unwrap_err();
    (v.code, v.message)
}

#[test]
fn chow_only_by_the_next_player() {
    // East discards 5m; South and West both hold 4m 6m; West also holds a pair of 5m.
    let mut g = position(["5m123p456p789p11s22s", "46m123p456s789s1z2z", "4556m12p456s789s1z", "123m456p789s1234z"]);
    play(&mut g, 0, "discard 5m");
    assert_eq!(g.legal_actions(seat(&g, 1)), ["chow 4m 6m".parse().unwrap(), Action::Pass]);
    assert!(g.legal_actions(seat(&g, 2)).iter().all(|a| !matches!(a, Action::Chow(..))));
    let (code, msg) = refused(&g, 2, "chow 4m 6m");
    assert_eq!(code, ErrorCode::IllegalAction);
    assert!(msg.contains("only the next player") && msg.contains("across from"), "{msg}");
    // North cannot claim at all: not asked, and a chow from it says why.
    let (code, msg) = refused(&g, 3, "chow 4m 6m");
    assert_eq!(code, ErrorCode::IllegalAction, "{msg}");
    // The pong beats the chow; the ponger then only discards.
    play(&mut g, 1, "chow 4m 6m");
    play(&mut g, 2, "pong");
    assert!(matches!(g.phase, Phase::Turn { chair: 2, after_claim: true, .. }));
    assert_eq!(g.hand.players[2].melds[0].kind, MeldKind::Pung);
    assert!(g.legal_actions(seat(&g, 2)).iter().all(|a| matches!(a, Action::Discard(_))));
    let (_, msg) = refused(&g, 2, "mahjong");
    assert!(msg.contains("must discard"), "{msg}");
    assert!(g.hand.players[0].discards[0].claimed);
    check_tiles(&g);
}

#[test]
fn mahjong_beats_pong_and_the_nearer_mahjong_wins() {
    // South discards 7z. West and North both win on it; East could pong it.
    let mut g = position(["77z123p456p789p11s", "7z123m456m789m1112s", "123m456m789s11s77z", "123p456p789s22s77z"]);
    g.phase = Phase::Turn { chair: 1, drawn: Some(t!(2s)), after_claim: false };
    play(&mut g, 1, "discard 7z");
    for c in [0, 2, 3] {
        assert!(g.to_act().contains(seat(&g, c)));
    }
    play(&mut g, 0, "pong");
    play(&mut g, 3, "mahjong");
    play(&mut g, 2, "mahjong");
    // West is nearer South than North: West wins.
    let r = g.results().last().unwrap();
    assert!(r.facts.iter().any(|f| f.seat == Some(seat(&g, 2)) && f.key_as::<FactKind>() == Some(FactKind::Win)));
    assert!(r.facts.iter().any(|f| f.seat == Some(seat(&g, 1)) && f.key_as::<FactKind>() == Some(FactKind::Discarder)));
    assert_eq!(r.deltas.iter().sum::<i64>(), 0);
    // West won, not East: the deal passed.
    assert_eq!((g.east, g.passes), (1, 1));
}

#[test]
fn a_fourth_tile_joins_a_laid_out_pong_only_from_the_hand() {
    // West has laid out a pong of 5m. East discards the last 5m: West may not add it.
    let mut g = position(["5m123p456p789p11s22s", "123m789p456s789s1z", "1p456p789s11z22z3z", "123p456s78s1234z"]);
    {
        let p = &mut g.hand.players[2];
        p.melds.push(crate::mahjong::Meld::new(MeldKind::Pung, &[t!(5m); 3], Some(t!(5m)), Some(0)).unwrap());
    }
    play(&mut g, 0, "discard 5m");
    assert!(!g.to_act().contains(seat(&g, 2)));
    for a in ["kong", "add 5m"] {
        let (code, msg) = refused(&g, 2, a);
        assert_eq!(code, ErrorCode::IllegalAction, "{a}");
        assert!(msg.contains("cannot be added to a laid-out pong"), "{a}: {msg}");
    }
    // On its own turn, with a 5m from the hand, it may.
    let mut g = position(["123m456p789p11s22s9p", "123m789p456s789s1z", "5m1p456p789s11z22z", "123p456s78s1234z"]);
    g.hand.players[2]
        .melds
        .push(crate::mahjong::Meld::new(MeldKind::Pung, &[t!(5m); 3], Some(t!(5m)), Some(0)).unwrap());
    g.phase = Phase::Turn { chair: 2, drawn: Some(t!(5m)), after_claim: false };
    assert!(g.legal_actions(seat(&g, 2)).contains(&Action::AddedKong(t!(5m))));
    let loose = g.hand.wall.replaced();
    play(&mut g, 2, "add 5m");
    assert_eq!(g.hand.players[2].melds[0].kind, MeldKind::AddedKong);
    assert!(g.hand.wall.replaced() > loose, "a kong draws a loose tile");
    assert!(matches!(g.phase, Phase::Turn { chair: 2, drawn: Some(_), after_claim: false }));
}

#[test]
fn a_discard_can_be_claimed_only_until_the_next_draw() {
    // East discards 7z; West could win on it but passes; South draws; West's late claim fails.
    let mut g = position(["7z123p456p789p11s2s", "1m123m456m789m112s", "123m456m789s11s77z", "123p456p789s1234z"]);
    play(&mut g, 0, "discard 7z");
    assert_eq!(g.legal_actions(seat(&g, 2)), [Action::Mahjong, Action::Pong, Action::Pass]);
    play(&mut g, 2, "pass");
    assert!(matches!(g.phase, Phase::Turn { chair: 1, drawn: Some(_), .. }));
    let (code, msg) = refused(&g, 2, "mahjong");
    assert_eq!(code, ErrorCode::IllegalAction);
    assert!(msg.contains("only until the next player draws") && msg.contains("discarded 7z"), "{msg}");
    // A seat that merely is not on turn gets not_your_turn.
    let (code, _) = refused(&g, 3, "discard 1p");
    assert_eq!(code, ErrorCode::NotYourTurn);
}

#[test]
fn kongs_from_the_hand_and_on_a_discard_draw_a_loose_tile() {
    let mut g = position(["1111m23p456p789p11s", "5m123m456m789m1z2s", "555m456p789s11s3z", "123p456p789s1234z"]);
    assert!(g.legal_actions(seat(&g, 0)).contains(&Action::ConcealedKong(t!(1m))));
    play(&mut g, 0, "kong 1m");
    assert_eq!(g.hand.players[0].melds[0].kind, MeldKind::ConcealedKong);
    assert!(g.hand.wall.replaced() >= 1);
    play(&mut g, 0, "discard 2p");
    // South throws 5m: West kongs it with three from the hand.
    g.phase = Phase::Turn { chair: 1, drawn: Some(t!(2s)), after_claim: false };
    play(&mut g, 1, "discard 5m");
    play(&mut g, 2, "kong");
    assert_eq!(g.hand.players[2].melds[0].kind, MeldKind::ClaimedKong);
    assert!(matches!(g.phase, Phase::Turn { chair: 2, drawn: Some(_), after_claim: false }));
}

#[test]
fn a_hand_with_only_the_dead_wall_left_is_void() {
    let mut g = position(["5m123p456p789p11s22s", "123m789p456s789s1z2z", "1p456p789s11z22z34z", "123p456s78s1234z"]);
    let (before_east, before_hand) = (g.east, g.hand_no);
    while g.hand.wall.left() > 0 {
        g.hand.wall.draw();
    }
    play(&mut g, 0, "discard 5m");
    while !g.to_act().contains(seat(&g, 0)) || g.hand_no == before_hand {
        // Pass any claims.
        let s = g.to_act().iter().next().unwrap();
        if g.hand_no != before_hand {
            break;
        }
        g.play_mut(s, &Action::Pass).unwrap();
    }
    let r = g.results().last().unwrap();
    assert_eq!(r.deltas, [0, 0, 0, 0]);
    assert!(r.facts.iter().any(|f| f.key_as::<FactKind>() == Some(FactKind::Void)));
    assert_eq!((g.east, g.hand_no, g.passes, g.scored), (before_east, before_hand + 1, 0, 0));
}

#[test]
fn heavens_blessing_is_easts_win_on_the_dealt_hand() {
    let mut g = position(["123m456m789m123p55s", "1m123m456m789m112s", "123m456m789s11s77z", "123p456p789s1234z"]);
    g.hand.fresh = true;
    g.phase = Phase::Turn { chair: 0, drawn: None, after_claim: false };
    play(&mut g, 0, "mahjong");
    let r = g.results().last().unwrap();
    let east = seat(&g, 0);
    let has = |k: FactKind| r.facts.iter().any(|f| f.seat == Some(east) && f.key_as::<FactKind>() == Some(k));
    assert!(has(FactKind::Doubling(super::table::Doubling::HeavensBlessing)) && has(FactKind::SelfDrawn));
    // East kept the deal.
    assert_eq!((g.east, g.passes), (0, 0));
    // Not once anything has happened.
    let mut g = position(["123m456m789m123p55s", "1m123m456m789m112s", "123m456m789s11s77z", "123p456p789s1234z"]);
    play(&mut g, 0, "mahjong");
    let r = g.results().last().unwrap();
    assert!(!r
        .facts
        .iter()
        .any(|f| f.key_as::<FactKind>() == Some(FactKind::Doubling(super::table::Doubling::HeavensBlessing))));
}

#[test]
fn flowers_are_replaced_east_first_in_rounds() {
    let mut g = game("flowers", Rules::default());
    // The set in order (1f-8f at 136-143), rearranged: the deal from ring position 0 gives East
    // 1f (position 0) and South 2f (position 4); the loose tiles are 142 (3f) and 143 (a tile),
    // the next pair 140 and 141 (tiles); the other flowers lie deep in the live wall.
    // The first draw in play (position 53, after the 53 tiles dealt) is 4f.
    let mut ring: Vec<Piece> = Piece::set().to_vec();
    for (a, b) in [(0, 136), (4, 137), (142, 138), (143, 100), (140, 101), (141, 102), (53, 139)] {
        ring.swap(a, b);
    }
    let (first, second) = (ring[143], ring[140]);
    g.east = 0;
    g.start_hand(&ring, Break { dice: [1, 1, 1, 1], wall: 0, stack: 0 });
    // East replaces its 1f first and gets 3f, which waits; South replaces 2f with the second loose
    // tile; then East replaces the 3f with the next pair's top tile.
    let east = &g.hand.players[0];
    let south = &g.hand.players[1];
    let nums = |p: &super::engine::Player| p.flowers.iter().map(|f| f.number()).collect::<Vec<_>>();
    assert_eq!(nums(east), [1, 3]);
    assert_eq!(nums(south), [2]);
    let (Piece::Tile(a), Piece::Tile(b)) = (first, second) else { panic!("tiles expected") };
    assert!(south.hand[a.kind()] >= 1 && east.hand[b.kind()] >= 1);
    assert_eq!(g.hand.wall.replaced(), 3);
    // 144 - 2 loose - 14 dead - 53 dealt = 75 after the deal; once the first two loose tiles
    // were used, the next pair was lifted onto the wall's end and a pair of the live wall slid
    // to the dead wall: 73.
    assert_eq!(g.hand.wall.left(), 73);
    let tiles = |p: &super::engine::Player| p.hand.iter().map(|&x| usize::from(x)).sum::<usize>();
    assert_eq!((tiles(east), tiles(south), tiles(&g.hand.players[2]), tiles(&g.hand.players[3])), (14, 13, 13, 13));
    check_tiles(&g);
    // A flower drawn in play is laid aside and replaced at once: East discards, nobody claims,
    // South draws the 4f and gets the next loose tile in its place.
    let f = Flower::numbered(4).unwrap();
    assert!(g.hand.players.iter().all(|p| !p.flowers.contains(&f)));
    let discard = (0..34).find(|&k| g.hand.players[0].hand[k] > 0).map(Tile::kind_tile).unwrap();
    play(&mut g, 0, &format!("discard {discard}"));
    while g.claim_window().is_some() {
        let s = g.to_act().iter().next().unwrap();
        g.play_mut(s, &Action::Pass).unwrap();
    }
    let south = &g.hand.players[1];
    assert_eq!(nums(south), [2, 4]);
    assert_eq!(g.hand.wall.replaced(), 4);
    assert_eq!(tiles(south), 14);
    let Phase::Turn { chair: 1, drawn: Some(d), .. } = g.phase else { panic!("South is on turn: {}", g.render()) };
    assert_eq!(g.hand.wall.drawn(), 54);
    // The fourth loose tile used up the second pair: the third is lifted at once and another
    // pair slides to the dead wall; with South's draw, 73 - 2 - 1.
    assert_eq!(g.hand.wall.left(), 70);
    assert!(south.hand[d.kind()] >= 1);
    check_tiles(&g);
}

#[test]
fn the_deal_passes_and_the_match_ends_as_the_length_says() {
    let mut g = game("length", Rules::default());
    let e0 = g.east;
    g.next_hand(Some(e0));
    assert_eq!((g.east, g.passes, g.scored), (e0, 0, 1), "East keeps the deal while winning");
    g.next_hand(None);
    assert_eq!((g.east, g.passes, g.scored), (e0, 0, 1), "a void hand changes nothing");
    g.next_hand(Some((e0 + 2) % 4));
    assert_eq!((g.east, g.passes), ((e0 + 1) % 4, 1), "the markers move one place to the right");
    for _ in 1..15 {
        let loser_of_the_deal = (g.east + 1) % 4;
        g.next_hand(Some(loser_of_the_deal));
        assert!(!g.is_over());
    }
    assert_eq!((g.passes, g.prevailing_wind()), (15, 3));
    g.next_hand(Some((g.east + 1) % 4));
    assert!(g.is_over());
    // Sixteen hands: the deal passes after every scored hand, East's wins too.
    let mut g = game("length", Rules { length: Length::Sixteen, ..Rules::default() });
    for i in 0..16 {
        assert!(!g.is_over());
        assert_eq!(g.prevailing_wind(), (i / 4) as u8);
        let e = g.east;
        g.next_hand(Some(e));
        assert_eq!(g.east, (e + 1) % 4);
    }
    assert!(g.is_over());
    // One game: four passes.
    let mut g = game("length", Rules { length: Length::Game, ..Rules::default() });
    for _ in 0..4 {
        assert!(!g.is_over());
        g.next_hand(Some((g.east + 1) % 4));
    }
    assert!(g.is_over());
}

#[test]
fn seats_and_winds_follow_the_seating() {
    for i in 0..20 {
        let g = game(&format!("seats {i}"), Rules::default());
        let s = g.seating();
        for seat in 0..4u8 {
            assert_eq!(
                g.wind(seat),
                s.markers[usize::from(seat)],
                "the first East is the seat that drew the East marker"
            );
        }
        assert_eq!(g.to_act().iter().collect::<Vec<_>>(), [g.east()]);
        assert_eq!(g.wind(g.next_seat(g.east())), 1);
        let g = game(&format!("seats {i}"), Rules { seating: Seating::Dice, ..Rules::default() });
        assert_eq!(g.east(), g.seating().east_chair);
        assert_eq!(g.next_seat(3), 0);
    }
}

#[test]
fn a_refused_action_leaves_the_state_untouched() {
    let g = game("refuse", Rules::default());
    let before = g.render();
    let east = g.east();
    for a in ["pong", "chow 1m 2m", "pass", "discard 5z", "kong 1m", "add 1m"] {
        let a: Action = a.parse().unwrap();
        if g.legal_actions(east).contains(&a) {
            continue;
        }
        let err = g.clone().play(east, &a).unwrap_err();
        assert_eq!(err.state.render(), before);
    }
    let other = (0..4).find(|&s| s != east).unwrap();
    assert_eq!(g.validate(other, &Action::Pass).unwrap_err().code, ErrorCode::NotYourTurn);
    assert_eq!(g.validate(7, &Action::Pass).unwrap_err().code, ErrorCode::NotYourTurn);
    assert!(Hungarian::new(Rules::default(), 3, Some(&Seed::from_text("x"))).is_err());
    assert!(Hungarian::new(Rules::default(), 4, None).is_err());
    let _ = Tile::kind_tile(0);
}

#[test]
fn a_game_ends_at_its_length_bound() {
    let rules = Hungarian::rules("standard", &Default::default()).unwrap();
    let g = Hungarian::new(rules, 4, Some(&Seed::from_text("hungarian bound"))).unwrap();
    crate::game::ends_at_its_bound(g, |g| g.length = crate::game::Length(Hungarian::MAX_RECORDS - 1));
}
