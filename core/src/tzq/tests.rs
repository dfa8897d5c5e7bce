use super::*;
use crate::error::ErrorCode;

fn cs(s: &str) -> Vec<Card> {
    cards(s).unwrap()
}

fn act(s: &str) -> Action {
    s.parse().unwrap()
}

/// A position with the given hands, kept cards and discards; every other card is in the draw
/// pile in deck order (`pile_front` first, if given).
#[derive(Default)]
struct Pos {
    hands: [&'static str; 2],
    kept: [&'static str; 2],
    discards: &'static str,
    chowable: &'static str,
    pile_front: &'static str,
    pile_only: Option<usize>,
    turn: Seat,
    drawn: Option<&'static str>,
    rules: Rules,
}

impl Pos {
    fn build(self) -> Tzq {
        let mut rest = standard_deck().unwrap().to_vec();
        let mut used = Vec::new();
        for s in self.hands.iter().chain(self.kept.iter()).chain([&self.discards, &self.pile_front]) {
            used.extend(cs(s));
        }
        for c in &used {
            let i = rest.iter().position(|x| x == c).unwrap_or_else(|| panic!("{c} used twice"));
            rest.remove(i);
        }
        let mut pile = cs(self.pile_front);
        let mut discards = cs(self.discards);
        match self.pile_only {
            // Only this many cards in the pile, the rest goes under the discards.
            Some(n) => {
                let k = n.saturating_sub(pile.len());
                pile.extend(rest.drain(..k));
                let mut d = rest;
                d.extend(discards);
                discards = d;
            }
            None => pile.extend(rest),
        }
        let setup = Setup {
            hands: [cs(self.hands[0]), cs(self.hands[1])],
            kept: [cs(self.kept[0]), cs(self.kept[1])],
            pile,
            discards,
            chowable: cs(self.chowable),
            turn: self.turn,
            drawn: self.drawn.map(|d| d.parse().unwrap()),
            round: 1,
            first: 0,
            scores: [0, 0],
        };
        Tzq::from_setup(setup, self.rules, &Seed::from_text("test")).unwrap()
    }
}

fn refuse(g: &Tzq, seat: Seat, a: &str) -> crate::error::Violation {
    let mut g = g.clone();
    g.play_mut(seat, &act(a)).expect_err("should be refused")
}

#[test]
fn notation_round_trips_and_normalises() {
    for a in ["draw", "discard 5b", "pong 3b 4g 5r keep 4g", "chow 3b 4g take 5r keep 5r"] {
        assert_eq!(act(a).to_string(), a);
    }
    assert_eq!(act("pong 5r 3b 4g keep 4g"), act("pong 3b 4g 5r keep 4g"));
    for bad in ["", "drew", "discard", "discard 5x", "pong 3b 4g keep 3b", "chow 3b 4g 5r keep 5r"] {
        assert!(bad.parse::<Action>().is_err(), "{bad}");
    }
}

#[test]
fn a_deal_gives_five_cards_each_and_the_same_seed_the_same_deal() {
    let a = Tzq::new(Rules::default(), 2, Some(&Seed::from_text("deal"))).unwrap();
    let b = Tzq::new(Rules::default(), 2, Some(&Seed::from_text("deal"))).unwrap();
    let c = Tzq::new(Rules::default(), 2, Some(&Seed::from_text("other"))).unwrap();
    assert_eq!(a.hand(0).len(), 5);
    assert_eq!(a.hand(1).len(), 5);
    assert_eq!(a.pile_len(), 44);
    assert_eq!((a.hand(0), a.hand(1)), (b.hand(0), b.hand(1)));
    assert_ne!((a.hand(0), a.hand(1)), (c.hand(0), c.hand(1)));
    assert!(Tzq::new(Rules::default(), 3, Some(&Seed::from_text("x"))).is_err());
}

#[test]
fn first_turn_offers_only_a_draw() {
    let g = Tzq::new(Rules::default(), 2, Some(&Seed::from_text("first"))).unwrap();
    let seat = g.turn();
    assert_eq!(g.legal_actions(seat), vec![Action::Draw]);
    assert!(g.legal_actions(1 - seat).is_empty());
    assert_eq!(refuse(&g, 1 - seat, "draw").code, ErrorCode::NotYourTurn);
}

#[test]
fn pong_lays_a_set_from_the_hand_and_refills_to_five() {
    let g =
        Pos { hands: ["3b 4g 5r 9w Eb Sb", "1b 1g 2b 2g 7r"], turn: 0, drawn: Some("Sb"), ..Pos::default() }.build();
    let g = g.play(0, &act("pong 3b 4g 5r keep 4g")).unwrap();
    assert_eq!(g.kept(0), cs("4g").as_slice());
    assert_eq!(g.hand(0).len(), 5);
    assert_eq!(g.chowable(), cs("3b 5r").as_slice());
    assert_eq!(g.turn(), 1);
}

#[test]
fn a_set_that_is_not_a_set_is_refused_with_its_cards() {
    let g =
        Pos { hands: ["3b 4g 6r 9w Eb Sb", "1b 1g 2b 2g 7r"], turn: 0, drawn: Some("Sb"), ..Pos::default() }.build();
    let v = refuse(&g, 0, "pong 3b 4g 6r keep 4g");
    assert_eq!(v.code, ErrorCode::IllegalAction);
    assert!(v.message.contains("seat 0 laid 3b-4g-6r, which is not a set"), "{}", v.message);
    // The refused action leaves the state untouched (shakmaty-style play).
    let err = g.clone().play(0, &act("pong 3b 4g 6r keep 4g")).unwrap_err();
    assert_eq!(err.state.hand(0), g.hand(0));
}

#[test]
fn wrap_around_is_not_a_sequence_and_identical_means_same_kind() {
    let g =
        Pos { hands: ["9b 1g 2r Eb Eg Er", "1b 1r 2b 2g 7r"], turn: 0, drawn: Some("Er"), ..Pos::default() }.build();
    assert_eq!(refuse(&g, 0, "pong 1g 2r 9b keep 9b").code, ErrorCode::IllegalAction);
    assert!(g.clone().play(0, &act("pong Eb Eg Er keep Eb")).is_ok());
}

#[test]
fn a_sparrow_stands_for_any_card_but_only_one_per_set() {
    // Seed example (1): a 4 and a Sparrow with a discarded 3.
    let g =
        Pos { hands: ["4b Q 9w Eb Sb", "1b 1g 2b 2g 7r"], discards: "3r", chowable: "3r", turn: 0, ..Pos::default() }
            .build();
    assert!(g.legal_actions(0).contains(&act("chow 4b Q take 3r keep Q")));
    assert!(g.clone().play(0, &act("chow 4b Q take 3r keep 3r")).is_ok());
    // Seed example (2): East and Sparrow, draws a second East: a Pong.
    let g = Pos { hands: ["Eb Q 9w 1b Sb Eg", "1r 1g 2b 2g 7r"], turn: 0, drawn: Some("Eg"), ..Pos::default() }.build();
    assert!(g.clone().play(0, &act("pong Eb Eg Q keep Eb")).is_ok());
    let g = Pos { hands: ["Q Q 5b 1b Sb Eg", "1r 1g 2b 2g 7r"], turn: 0, drawn: Some("Eg"), ..Pos::default() }.build();
    let v = refuse(&g, 0, "pong Q Q 5b keep 5b");
    assert!(v.message.contains("more than one Sparrow"), "{}", v.message);
}

#[test]
fn a_discarded_sparrow_can_never_be_taken() {
    let g =
        Pos { hands: ["4b 5g 9w Eb Sb", "1b 1g 2b 2g 7r"], discards: "Q", chowable: "Q", turn: 0, ..Pos::default() }
            .build();
    let v = refuse(&g, 0, "chow 4b 5g take Q keep 4b");
    assert!(v.message.contains("Sparrow can never be taken"), "{}", v.message);
    assert!(!g.legal_actions(0).iter().any(|a| matches!(a, Action::Chow { .. })));
}

#[test]
fn chow_only_from_the_opponents_last_turn() {
    // 3r was discarded earlier; only 9g was discarded on the opponent's last turn.
    let g = Pos {
        hands: ["4b 5g 9w Eb Sb", "1b 1g 2b 2g 7r"],
        discards: "3r 9g",
        chowable: "9g",
        turn: 0,
        ..Pos::default()
    }
    .build();
    let v = refuse(&g, 0, "chow 4b 5g take 3r keep 4b");
    assert!(v.message.contains("not one of the cards the opponent discarded on their last turn"), "{}", v.message);
    // After a set, either of its two discards may be taken.
    let g = Pos {
        hands: ["4b 5g 9w Eb Sb", "1b 1g 2b 2g 7r"],
        discards: "3r 6g",
        chowable: "3r 6g",
        turn: 0,
        ..Pos::default()
    }
    .build();
    assert!(g.clone().play(0, &act("chow 4b 5g take 3r keep 4b")).is_ok());
    assert!(g.clone().play(0, &act("chow 4b 5g take 6g keep 4b")).is_ok());
}

#[test]
fn one_set_per_turn() {
    let g =
        Pos { hands: ["1b 2b 3b 4g 5g 6g", "1r 1g 2r 2g 7r"], turn: 0, drawn: Some("6g"), ..Pos::default() }.build();
    let g = g.play(0, &act("pong 1b 2b 3b keep 1b")).unwrap();
    // The turn has passed: a second set by seat 0 is out of turn.
    assert_eq!(refuse(&g, 0, "pong 4g 5g 6g keep 4g").code, ErrorCode::NotYourTurn);
    // Drawing twice, or chowing after drawing, is refused too.
    let g = Pos {
        hands: ["1b 2b 3b 4g 5g 6g", "1r 1g 2r 2g 7r"],
        discards: "7b",
        chowable: "7b",
        turn: 0,
        drawn: Some("6g"),
        ..Pos::default()
    }
    .build();
    assert!(refuse(&g, 0, "draw").message.contains("draws twice"));
    assert!(refuse(&g, 0, "chow 5g 6g take 7b keep 7b").message.contains("after drawing"));
}

#[test]
fn discarding_a_card_not_held_is_refused() {
    let g =
        Pos { hands: ["1b 2b 3b 4g 5g 6g", "1r 1g 2r 2g 7r"], turn: 0, drawn: Some("6g"), ..Pos::default() }.build();
    let v = refuse(&g, 0, "discard 9w");
    assert!(v.message.contains("discards 9w, but holds"), "{}", v.message);
}

#[test]
fn the_fifth_set_wins_the_round_at_once() {
    let g = Pos {
        hands: ["Eg Er Sr 9w Sb Nb", "1g 2r 3g 2g 7r"],
        kept: ["Eb Q Q Q", ""],
        turn: 0,
        drawn: Some("Nb"),
        ..Pos::default()
    }
    .build();
    // E E N is not a set, and a card not held cannot be laid: neither ends the round.
    assert!(refuse(&g, 0, "pong Eg Er Nb keep Eg").message.contains("not a set"));
    assert!(refuse(&g, 0, "pong Eg Er Wb keep Eg").message.contains("but holds"));
    let g = g.play(0, &act("pong Eg Er Sr keep Eg")).unwrap_err().state;
    assert_eq!(g.results().len(), 0, "E E S is not a set either");
    let g = g.play(0, &act("discard 9w")).unwrap();
    assert_eq!(g.results().len(), 0);
    // Now a real fifth set: E E E, keeping East: the round ends at once, before any refill.
    let g = Pos {
        hands: ["Eg Er Sr 9w Sb", "1g 2r 3g 2g 7r"],
        kept: ["Rb Q Q Q", ""],
        discards: "Eb",
        chowable: "Eb",
        turn: 0,
        ..Pos::default()
    }
    .build();
    let g = g.play(0, &act("chow Eg Er take Eb keep Eg")).unwrap();
    assert_eq!(g.results().len(), 1);
    // Rb Q Q Q Eg: King 6 + Honours 3 (East, Red Dragon); a Chow, so no Winning Draw.
    assert_eq!(g.results()[0].deltas, vec![9, 0], "{}", g.results()[0].summary);
    assert_eq!(g.round(), 2);
    assert!(g.kept(0).is_empty(), "a new round has begun");
}

#[test]
fn mahjong_scores_the_five_scoring_cards() {
    let g = Pos {
        hands: ["Eg 1r 1w 9w Sb 1b", "1g 2r 3g 2g 7r"],
        kept: ["Eb Q Q Q", ""],
        turn: 0,
        drawn: Some("1b"),
        ..Pos::default()
    }
    .build();
    let g = g.play(0, &act("pong 1r 1w 1b keep 1r")).unwrap();
    let r = &g.results()[0];
    // Eb Q Q Q 1r: Honours 1 + King 6 + Winning Draw 1 = 8.
    assert_eq!(r.deltas, vec![8, 0], "{}", r.summary);
    assert_eq!(g.round(), 2);
    assert_eq!(g.scores(), vec![8, 0]);

    // The same set by Chow: no Winning Draw.
    let g = Pos {
        hands: ["Eg 1r 1w 9w Sb", "1g 2r 3g 2g 7r"],
        kept: ["Eb Q Q Q", ""],
        discards: "1b",
        chowable: "1b",
        turn: 0,
        ..Pos::default()
    }
    .build();
    let g = g.play(0, &act("chow 1r 1w take 1b keep 1r")).unwrap();
    assert_eq!(g.results()[0].deltas, vec![7, 0]);
}

#[test]
fn minimum_points_option_refuses_a_cheap_mahjong() {
    let rules = Rules { min_points: 2, ..Rules::default() };
    let g = Pos {
        hands: ["2g 3r 4w 9w Sb", "1g 2r 3g 6g 8r"],
        kept: ["1b 5g 7r Nb", ""],
        discards: "6b",
        chowable: "6b",
        turn: 0,
        rules: rules.clone(),
        ..Pos::default()
    }
    .build();
    // The legal set 2-3-4 with the discarded... nothing legal here scores 2 from this hand:
    // 1b 5g 7r Nb + any card of 2g 3r 4w is Honours 1 only.
    assert!(g.legal_actions(0).iter().all(|a| !matches!(a, Action::Chow { .. })));
    let g = Pos {
        hands: ["2g 3r 4w 5b Sb", "1g 2r 3g 6g 8r"],
        kept: ["1b 5g 7r Nb", ""],
        discards: "6b",
        chowable: "6b",
        turn: 0,
        rules,
        ..Pos::default()
    }
    .build();
    let v = refuse(&g, 0, "chow 4w 5b take 6b keep 4w");
    assert!(v.message.contains("at least 2"), "{}", v.message);
    assert!(!g.legal_actions(0).contains(&act("chow 4w 5b take 6b keep 4w")));
    // Keeping 5b makes a pair of fives: 2 + Honours 1 = 3, allowed.
    assert!(g.clone().play(0, &act("chow 4w 5b take 6b keep 5b")).is_ok());
}

#[test]
fn an_emptied_pile_is_reshuffled_from_the_discards_after_a_draw() {
    let g = Pos { hands: ["1b 2b 3b 4g 5g", "1r 1g 2r 2g 7r"], pile_only: Some(1), turn: 0, ..Pos::default() }.build();
    let discards_before = g.discard_pile().len();
    let g = g.play(0, &act("draw")).unwrap();
    assert_eq!(g.pile_len(), discards_before);
    assert!(g.discard_pile().is_empty());
}

#[test]
fn a_reshuffle_while_refilling_keeps_the_sets_two_discards() {
    let g = Pos {
        hands: ["1b 2b 3b 4g 5g", "1r 1g 2r 2g 7r"],
        discards: "6g",
        chowable: "6g",
        pile_only: Some(1),
        turn: 0,
        ..Pos::default()
    }
    .build();
    let total = g.discard_pile().len() + g.pile_len();
    let g = g.play(0, &act("chow 4g 5g take 6g keep 6g")).unwrap();
    assert_eq!(g.hand(0).len(), 5);
    assert_eq!(g.discard_pile(), cs("4g 5g").as_slice());
    assert_eq!(g.chowable(), cs("4g 5g").as_slice());
    // 1 pile card and the discards (less the chowed 6g) fed two refill cards.
    assert_eq!(g.pile_len(), total - 1 - 2);
}

#[test]
fn drawn_on_exhaustion_ends_the_round_without_reshuffling() {
    let rules = Rules { drawn_on_exhaustion: true, ..Rules::default() };
    let g = Pos { hands: ["1b 2b 3b 4g 5g", "1r 1g 2r 2g 7r"], pile_only: Some(1), turn: 0, rules, ..Pos::default() }
        .build();
    let g = g.play(0, &act("draw")).unwrap();
    assert_eq!(g.pile_len(), 0);
    let d = g.drawn().unwrap();
    let g = g.play(0, &Action::Discard(d)).unwrap();
    assert_eq!(g.results()[0].deltas, vec![0, 0]);
    assert!(g.results()[0].summary.contains("drawn"));
    assert_eq!(g.round(), 2);
}

fn play_out(rules: Rules, seed: &str) -> Tzq {
    // A simple deterministic policy: lay a set when one is legal, otherwise draw, and discard
    // the oldest card of the hand.
    let mut g = Tzq::new(rules, 2, Some(&Seed::from_text(seed))).unwrap();
    let mut steps = 0;
    while !g.is_over() && steps < 100_000 {
        let seat = g.to_act().iter().next().unwrap();
        let acts = g.legal_actions(seat);
        // Prefer sets so that rounds end.
        let a = acts.iter().find(|a| !matches!(a, Action::Draw | Action::Discard(_))).unwrap_or(&acts[0]).clone();
        g.play_mut(seat, &a).unwrap();
        steps += 1;
    }
    g
}

#[test]
fn a_match_is_four_rounds_with_alternating_starters() {
    for seed in ["match", "match 2", "match 3"] {
        // Record who acts first in each round while playing it out.
        let mut g = Tzq::new(Rules::default(), 2, Some(&Seed::from_text(seed))).unwrap();
        let mut firsts = vec![g.turn()];
        while !g.is_over() {
            let seat = g.to_act().iter().next().unwrap();
            let acts = g.legal_actions(seat);
            let a = acts.iter().find(|a| !matches!(a, Action::Draw | Action::Discard(_))).unwrap_or(&acts[0]).clone();
            let round = g.round();
            g.play_mut(seat, &a).unwrap();
            if g.round() != round && !g.is_over() {
                firsts.push(g.turn());
            }
        }
        assert_eq!(g.results().len(), 4);
        assert_eq!(firsts.len(), 4);
        assert_eq!(firsts[1], 1 - firsts[0], "{seed}: {firsts:?}");
        assert_eq!(firsts[2], firsts[0]);
        assert_eq!(firsts[3], firsts[1]);
        let sum: Vec<i64> = (0..2).map(|s| g.results().iter().map(|r| r.deltas[s]).sum()).collect();
        assert_eq!(g.scores(), sum);
    }
}

/// check accepts exactly the legal actions, among every action that can be written with the
/// cards in play: all discards, all Pongs and Chows of hand cards and nearby cards, every keep,
/// in canonical and in reversed order.
#[test]
fn check_accepts_exactly_the_legal_actions_perft_style() {
    let deck = standard_deck().unwrap();
    let mut positions = 0;
    for seed in 0..12 {
        let mut g = Tzq::new(Rules::default(), 2, Some(&Seed::from_text(&format!("perft {seed}")))).unwrap();
        let mut pick = Seed::from_text("pick").stream(&seed.to_string());
        while !g.is_over() && positions < 4000 {
            let seat = g.turn();
            let legal = g.legal_actions(seat);
            let mut pool: Vec<Card> = g.hand(seat).to_vec();
            pool.extend(g.chowable());
            for _ in 0..3 {
                pool.push(deck[pick.below(deck.len() as u64) as usize]);
            }
            let mut universe: Vec<Action> = vec![Action::Draw];
            universe.extend(deck.iter().map(|&c| Action::Discard(c)));
            for i in 0..pool.len() {
                for j in i + 1..pool.len() {
                    for &take in &pool {
                        for keep in [pool[i], pool[j], take] {
                            universe.push(Action::chow([pool[i], pool[j]], take, keep));
                            universe.push(Action::Chow { hand: [pool[j], pool[i]], take, keep });
                        }
                    }
                    for k in j + 1..pool.len() {
                        for keep in [pool[i], pool[j], pool[k]] {
                            universe.push(Action::pong([pool[i], pool[j], pool[k]], keep));
                            universe.push(Action::Pong { cards: [pool[k], pool[j], pool[i]], keep });
                        }
                    }
                }
            }
            for a in &universe {
                assert_eq!(g.validate(seat, a).is_ok(), legal.contains(a), "{a} at\n{}", g.render());
                assert!(g.validate(1 - seat, a).is_err(), "the other seat never acts");
            }
            for a in &legal {
                assert!(g.validate(seat, a).is_ok());
            }
            positions += 1;
            let a = legal[pick.below(legal.len() as u64) as usize].clone();
            g.play_mut(seat, &a).unwrap();
        }
    }
    assert!(positions > 1000, "{positions}");
}

#[test]
fn playing_to_thirty_ends_when_someone_reaches_it() {
    let g = play_out(Rules { target: 30, ..Rules::default() }, "thirty");
    assert!(g.is_over());
    assert!(g.scores().iter().any(|&s| s >= 30));
    let before_last: Vec<i64> =
        (0..2).map(|s| g.results()[..g.results().len() - 1].iter().map(|r| r.deltas[s]).sum()).collect();
    assert!(before_last.iter().all(|&s| s < 30));
}

#[test]
fn options_are_read_and_unknown_ones_refused() {
    let mut o = Options::new();
    o.insert("min_points".into(), OptValue::Int(2));
    assert_eq!(Tzq::rules("standard", &o).unwrap().min_points, 2);
    assert_eq!(
        Tzq::rules("advanced", &Options::new()).unwrap(),
        Rules { min_points: 2, drawn_on_exhaustion: true, ..Rules::default() }
    );
    assert_eq!(Tzq::rules("to30", &Options::new()).unwrap().target, 30);
    o.insert("colour_blind".into(), OptValue::Bool(true));
    assert!(Tzq::rules("standard", &o).unwrap_err().0.contains("colour_blind"));
    assert!(Tzq::rules("nope", &Options::new()).is_err());
    let mut o = Options::new();
    o.insert("drawn_on_exhaustion".into(), OptValue::Int(1));
    assert!(Tzq::rules("standard", &o).is_err());
    assert_eq!(
        Tzq::rules("standard", &Tzq::options(&Rules::named("advanced").unwrap())).unwrap(),
        Rules::named("advanced").unwrap()
    );
}

#[test]
fn actions_encode_without_maps_chars_or_floats() {
    crate::log::plain::assert_plain_records::<Action>(&[
        "draw",
        "discard 5b",
        "pong 3b 3g 3r keep 3g",
        "chow 3b 4g take 5r keep 5r",
    ]);
}

#[test]
fn a_game_ends_at_its_length_bound() {
    let rules = Tzq::rules("standard", &Default::default()).unwrap();
    let g = Tzq::new(rules, 2, Some(&Seed::from_text("tzq bound"))).unwrap();
    crate::game::ends_at_its_bound(g, |g| g.length = crate::game::Length(Tzq::MAX_RECORDS - 1));
}
