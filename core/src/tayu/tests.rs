use super::*;
use crate::error::ErrorCode;

fn pat(s: &str) -> Pattern {
    s.parse().unwrap()
}

fn pl(s: &str) -> Placement {
    // "015 9 8 N"
    match format!("place {s}").parse::<Action>().unwrap() {
        Action::Place(p) => p,
        _ => unreachable!(),
    }
}

fn act(s: &str) -> Action {
    s.parse().unwrap()
}

fn board(pieces: &[&str]) -> Board {
    let mut b = Board::new(board_spec().unwrap().clone());
    for p in pieces {
        b.put(pl(p)).unwrap();
    }
    b
}

fn exits(p: &str) -> Vec<(i16, i16, Dir)> {
    let mut v: Vec<(i16, i16, Dir)> = pl(p).exits().iter().map(|e| (e.row, e.col, e.side)).collect();
    v.sort();
    v
}

fn empty_stack() -> Vec<Vec<Pattern>> {
    vec![Vec::new(); 16]
}

// ---- pieces ----

#[test]
fn the_28_patterns_derived_from_the_exits_are_the_data_file_with_four_copies_each() {
    // Every 3-subset of the 8 exit positions, identified with its half turn (i -> i + 4).
    let mut derived: Vec<u8> = Vec::new();
    for m in 0u16..256 {
        let m = m as u8;
        if m.count_ones() != 3 {
            continue;
        }
        let turned = m.rotate_left(4);
        if !derived.contains(&m) && !derived.contains(&turned) {
            derived.push(m);
        }
    }
    assert_eq!(derived.len(), 28);
    let data = pieces().unwrap();
    assert_eq!(data.len(), 28);
    for &m in &derived {
        let found = data.iter().filter(|(p, _)| p.mask() == m || p.mask() == m.rotate_left(4)).count();
        assert_eq!(found, 1, "pattern mask {m:08b}");
    }
    assert!(data.iter().all(|&(_, n)| n == 4));
    assert_eq!(bag().unwrap().len(), 112);
}

#[test]
fn one_pattern_has_its_exits_on_one_side_fifteen_on_two_twelve_on_three() {
    // Sides of the horizontal piece: top = exits 0 1 2, right end = 3, bottom = 4 5 6, left end = 7.
    let side = |i: u8| match i {
        0..=2 => 0,
        3 => 1,
        4..=6 => 2,
        _ => 3,
    };
    let mut count = [0; 4];
    for &(p, _) in pieces().unwrap() {
        let mut s: Vec<u8> = (0..8).filter(|i| p.mask() & (1 << i) != 0).map(side).collect();
        s.sort();
        s.dedup();
        count[s.len()] += 1;
        assert_eq!(p.sides(), s.len());
        assert_eq!(p.marked(), s.len() == 3);
    }
    assert_eq!(count, [0, 1, 15, 12]);
    assert_eq!(bag().unwrap().iter().filter(|p| p.marked()).count(), 48);
}

#[test]
fn pattern_notation_is_canonical_and_round_trips() {
    for &(p, _) in pieces().unwrap() {
        assert_eq!(p.to_string().parse::<Pattern>().unwrap(), p);
    }
    // 456 is the half turn of 012.
    let e = "456".parse::<Pattern>().unwrap_err();
    assert!(e.0.contains("012"), "{}", e.0);
    for bad in ["", "01", "0123", "018", "102", "011", "abc"] {
        assert!(bad.parse::<Pattern>().is_err(), "{bad}");
    }
    // The binary form refuses a mask that is not a canonical pattern.
    assert!(postcard::from_bytes::<Pattern>(&[0b0111_0000]).is_err());
    assert!(postcard::from_bytes::<Pattern>(&[0b0000_0111]).is_ok());
}

#[test]
fn action_notation_round_trips() {
    for s in ["bid 20", "pass", "choose ns", "choose ew", "draw 0", "draw 15", "place 015 9 8 N", "place 237 0 18 W"] {
        let a = act(s);
        assert_eq!(a.to_string(), s);
        let bytes = postcard::to_stdvec(&a).unwrap();
        assert_eq!(postcard::from_bytes::<Action>(&bytes).unwrap(), a);
    }
    for bad in ["place 015 9 8 X", "place 015 9 N", "place 561 9 8 N", "draw", "bid -1", "choose nw", "draw 300"] {
        assert!(bad.parse::<Action>().is_err(), "{bad}");
    }
}

#[test]
fn the_four_orientations_turn_the_piece_clockwise() {
    // 037: exit 0 on top of the left square, 3 the right end, 7 the left end.
    assert_eq!(exits("037 9 8 N"), vec![(9, 8, Dir::N), (9, 8, Dir::W), (9, 10, Dir::E)]);
    // A quarter turn clockwise: the left end goes up, the top side faces East.
    assert_eq!(exits("037 8 9 E"), vec![(8, 9, Dir::N), (8, 9, Dir::E), (10, 9, Dir::S)]);
    // A half turn: the left end goes right, the top side faces South.
    assert_eq!(exits("037 9 8 S"), vec![(9, 8, Dir::W), (9, 10, Dir::E), (9, 10, Dir::S)]);
    // Three quarters: the left end goes down, the top side faces West.
    assert_eq!(exits("037 8 9 W"), vec![(8, 9, Dir::N), (10, 9, Dir::S), (10, 9, Dir::W)]);
    assert_eq!(pl("037 8 9 W").squares(), [(8, 9), (9, 9), (10, 9)]);
    assert_eq!(pl("037 9 8 S").squares(), [(9, 8), (9, 9), (9, 10)]);
}

#[test]
fn the_board_data_has_the_centre_and_three_special_spaces_per_coast() {
    let b = board_spec().unwrap();
    assert_eq!(b.size, 19);
    assert_eq!(b.centre, (9, 9));
    for d in Dir::ALL {
        assert_eq!(b.special[d.index()], vec![3, 9, 15]);
        assert_eq!(b.mouth_value(d, 9), 2);
        assert_eq!(b.mouth_value(d, 10), 1);
    }
    assert_eq!(parse_board("size 19\ncentre 9 9\nspecial up 3").unwrap_err().line, 3);
    assert!(parse_board("size 19\ncentre 30 9").is_err());
    assert_eq!(parse_pieces("012 4\n012 4").unwrap_err().line, 2);
    assert!(parse_pieces("012 4").is_err(), "too few pieces for the stack");
}

// ---- placement legality ----

#[test]
fn the_first_piece_must_cover_the_centre_in_any_orientation() {
    let b = board(&[]);
    assert_eq!(b.check(&pl("037 9 10 N")), Err(PlaceError::FirstOffCentre { row: 9, col: 9 }));
    assert_eq!(b.check(&pl("037 5 5 E")), Err(PlaceError::FirstOffCentre { row: 9, col: 9 }));
    for p in ["037 9 7 N", "037 9 8 S", "037 9 9 N", "037 7 9 E", "037 8 9 W", "037 9 9 E", "012 9 8 S"] {
        assert_eq!(b.check(&pl(p)), Ok(()), "{p}");
    }
    // Every orientation of every pattern covering the centre: 3 squares x 4 facings.
    assert_eq!(b.legal_placements(pat("012")).len(), 12);
}

#[test]
fn a_piece_that_meets_an_open_end_with_exits_on_empty_squares_is_allowed() {
    // 037 at the centre: open ends N of 9,8, E of 9,10, W of 9,8.
    let b = board(&["037 9 8 N"]);
    // 037 to the right: its left end meets the centre piece's right end; its other exits face
    // empty squares.
    assert_eq!(b.check(&pl("037 9 11 N")), Ok(()));
    let mut b2 = b.clone();
    b2.place(pl("037 9 11 N")).unwrap();
    assert_eq!(b2.open_ends().len(), 4);
}

#[test]
fn a_piece_must_lie_inside_the_board() {
    let b = board(&["037 0 14 N"]);
    assert_eq!(b.check(&pl("017 0 17 N")), Err(PlaceError::OutsideBoard { row: 0, col: 19 }));
    assert_eq!(b.check(&pl("017 17 18 E")), Err(PlaceError::OutsideBoard { row: 19, col: 18 }));
}

#[test]
fn a_piece_must_lie_on_empty_squares() {
    let b = board(&["037 9 8 N"]);
    assert_eq!(b.check(&pl("037 9 10 N")), Err(PlaceError::Occupied { row: 9, col: 10 }));
}

#[test]
fn a_piece_must_meet_an_open_end() {
    let b = board(&["037 9 8 N"]);
    assert_eq!(b.check(&pl("037 5 5 N")), Err(PlaceError::NotConnected));
}

#[test]
fn no_exit_may_face_a_blank_side() {
    // 013 at the centre: exits on top of 9,8 and 9,9, and the right end; top of 9,10 is blank.
    let b = board(&["013 9 8 N"]);
    // 012 turned to face South above it: its three exits face down; the first two meet the
    // open ends, the third faces the blank top of 9,10.
    assert_eq!(b.check(&pl("012 8 8 S")), Err(PlaceError::ExitAgainstBlank { row: 8, col: 10, side: Dir::S }));
    // 056 meets both open ends with its bottom exits and is blank over the blank side.
    assert_eq!(b.check(&pl("056 8 8 N")), Ok(()));
}

#[test]
fn no_open_end_may_be_blocked() {
    let b = board(&["013 9 8 N"]);
    // 016 above: its bottom exit over 9,8 meets, its blank bottom over 9,9 blocks that end.
    assert_eq!(b.check(&pl("016 8 8 N")), Err(PlaceError::BlocksOpenEnd { row: 9, col: 9, side: Dir::N }));
}

#[test]
fn exits_and_blank_sides_may_face_the_board_edge() {
    // 037 on the North coast: a mouth at column 8, open ends W of 0,8 and E of 0,10.
    let b = board(&["037 0 8 N"]);
    // 017 to its right: the left end meets; two exits face the North edge, and the blank top
    // of 0,13 faces it too.
    assert_eq!(b.check(&pl("017 0 11 N")), Ok(()));
    let mut b2 = b.clone();
    b2.place(pl("017 0 11 N")).unwrap();
    let north: Vec<u8> = b2.mouths().iter().filter(|m| m.coast == Dir::N).map(|m| m.pos).collect();
    assert_eq!(north, vec![8, 11, 12]);
}

#[test]
fn legal_placements_agree_with_check_everywhere() {
    let b = board(&["013 9 8 N", "056 8 8 N"]);
    for &(p, _) in pieces().unwrap() {
        let listed = b.legal_placements(p);
        let mut all = Vec::new();
        for r in 0..19 {
            for c in 0..19 {
                for f in Dir::ALL {
                    let x = Placement::new(p, r, c, f);
                    if b.check(&x).is_ok() {
                        all.push(x);
                    }
                }
            }
        }
        assert_eq!(listed.len(), all.len(), "{p}");
        assert!(all.iter().all(|x| listed.contains(x)));
    }
}

// ---- scoring ----

#[test]
fn the_seeds_scoring_example_north_4_south_5_west_4_east_7() {
    let b = board(&[
        // North: columns 3 (special, 2), 4, 5 = 4.
        "012 0 3 N",
        // South: columns 8, 9 (special, 2), 10 = 4; the next piece adds column 2.
        "012 18 8 S",
        // 037 half turned in the south-west corner: exits S of 18,2 (South), W of 18,0 (West),
        // E of 18,2 (an open end).
        "037 18 0 S",
        // West: rows 4, 5, 6 = 3, plus row 18 above = 4.
        "012 4 0 W",
        // East: rows 8, 9 (special), 10 = 4, and rows 0, 1, 2 = 3.
        "012 8 18 E",
        "012 0 18 E",
    ]);
    assert_eq!(b.coast_points(), [4, 7, 5, 4]);
    let pts = b.coast_points();
    assert_eq!(Side::NorthSouth.product(&pts), 20);
    assert_eq!(Side::EastWest.product(&pts), 28);
    assert_eq!(b.mouths().len(), 3 + 3 + 2 + 3 + 3 + 3);
}

#[test]
fn a_zero_coast_makes_the_product_zero_and_special_spaces_count_two() {
    // North: 9 (special) only; South: 3 and 15 specials via two single mouths; East none.
    let b = board(&["037 0 9 N", "037 18 3 S", "037 18 13 S", "012 14 0 W"]);
    // 037 facing S at 18,3: S of 18,5 (col 5, plain) ... computed by hand below.
    // 037 N at 0,9: N of 0,9 -> North 9 (2). 037 S at 18,3: S of 18,5 -> South 5 (1).
    // 037 S at 18,13: S of 18,15 -> South 15 (2). 012 W at 14,0: West 14, 15 (2), 16 = 4.
    assert_eq!(b.coast_points(), [2, 0, 3, 4]);
    let pts = b.coast_points();
    assert_eq!(Side::NorthSouth.product(&pts), 6);
    assert_eq!(Side::EastWest.product(&pts), 0);
}

// ---- games on hand-built positions ----

fn setup2(placed: &[(Seat, &str)], stack_tops: &[&str]) -> Setup {
    let mut stack = empty_stack();
    for (i, t) in stack_tops.iter().enumerate() {
        stack[i] = vec![pat(t)];
    }
    Setup {
        seats: 2,
        placed: placed.iter().map(|(s, p)| (*s, pl(p))).collect(),
        stack,
        held: vec![Vec::new(), Vec::new()],
        ..Setup::default()
    }
}

/// 012 at the centre with 012 turned upon it: every exit meets another, nothing is open.
const CLOSED: [(Seat, &str); 2] = [(0, "012 9 8 N"), (1, "012 8 8 S")];

#[test]
fn with_no_mouth_an_unplaceable_piece_is_set_aside_and_the_same_player_draws_again() {
    let mut g = Tayu::from_setup(setup2(&CLOSED, &["037", "135"]), Rules::default()).unwrap();
    assert!(g.board().open_ends().is_empty());
    g.play_mut(0, &act("draw 0")).unwrap();
    assert_eq!(g.to_act(), SeatSet::single(0));
    assert_eq!(g.set_aside(), &[pat("037")]);
    assert_eq!(g.legal_actions(0), vec![act("draw 1")]);
    g.play_mut(0, &act("draw 1")).unwrap();
    // The stack is empty now: the game is over.
    assert!(g.is_over());
    assert_eq!(g.end(), Some(&End::StackEmpty));
    assert_eq!(g.results()[0].facts.iter().find(|f| f.key == "set_aside").map(|f| f.value), Some(2));
}

#[test]
fn without_the_set_aside_option_an_unplaceable_piece_ends_the_game() {
    let rules = Rules { set_aside: false, ..Rules::default() };
    let mut g = Tayu::from_setup(setup2(&CLOSED, &["037", "135"]), rules).unwrap();
    g.play_mut(0, &act("draw 1")).unwrap();
    assert!(g.is_over());
    assert_eq!(g.end(), Some(&End::NoPlacement { seat: 0, pieces: vec![pat("135")] }));
    assert_eq!(g.scores(), vec![0, 0]);
    let r = &g.results()[0];
    assert!(r.facts.iter().any(|f| f.key == "end_no_placement" && f.value == 1));
    assert!(r.facts.iter().any(|f| f.key == "tie" && f.seat == Some(0)));
}

#[test]
fn once_someone_has_a_mouth_an_unplaceable_piece_ends_the_game() {
    // Three mouths on the North coast and no open end.
    let mut s = setup2(&[(0, "012 0 3 N")], &["037", "135"]);
    s.free_board = true;
    let mut g = Tayu::from_setup(s, Rules::default()).unwrap();
    g.play_mut(0, &act("draw 0")).unwrap();
    assert!(g.is_over());
    assert!(g.set_aside().is_empty());
    assert_eq!(g.end(), Some(&End::NoPlacement { seat: 0, pieces: vec![pat("037")] }));
    // North 4, South 0: North-South scores 0.
    assert_eq!(g.scores(), vec![0, 0]);
}

#[test]
fn the_drawn_piece_is_the_one_placed_and_turns_alternate() {
    let mut g = Tayu::from_setup(setup2(&[(0, "037 9 8 N")], &["037", "135", "012"]), Rules::default()).unwrap();
    assert_eq!(g.legal_actions(0), vec![act("draw 0"), act("draw 1")]);
    assert_eq!(g.check(0, &act("draw 2")).unwrap_err().code, ErrorCode::IllegalAction);
    g.play_mut(0, &act("draw 0")).unwrap();
    assert_eq!(g.held(0), &[pat("037")]);
    let v = g.check(0, &act("place 135 9 11 N")).unwrap_err();
    assert!(v.message.contains("holds 037"), "{}", v.message);
    let v = g.check(0, &act("place 037 5 5 N")).unwrap_err();
    assert!(v.message.contains("open channel end"), "{}", v.message);
    assert_eq!(g.check(1, &act("place 037 9 11 N")).unwrap_err().code, ErrorCode::NotYourTurn);
    g.play_mut(0, &act("place 037 9 11 N")).unwrap();
    assert_eq!(g.to_act(), SeatSet::single(1));
    assert_eq!(g.placed_by(), &[0, 0]);
    // Column 0 is empty: the nearest two are now 1 and 2.
    assert_eq!(g.legal_actions(1), vec![act("draw 1"), act("draw 2")]);
}

fn setup3(bid: u16, placed: &[&str], held0: &str) -> Setup {
    Setup {
        seats: 3,
        placed: placed.iter().map(|p| (0, pl(p))).collect(),
        stack: empty_stack(),
        held: vec![vec![pat(held0)], Vec::new(), Vec::new()],
        turn: 0,
        placing: true,
        flood: Some((2, bid)),
        north_south: 0,
        free_board: true,
        ..Setup::default()
    }
}

#[test]
fn the_flood_stops_placing_once_a_player_reaches_the_bid() {
    // North 4 (012 on the North coast); 037 near the South coast with an open end E of 17,10.
    let placed = ["012 0 3 N", "037 17 8 N"];
    // 017 turned to face West, standing at column 11: meets at 17,11 and makes a South mouth
    // at column 11, so North-South has 4 x 1 = 4.
    for (bid, out) in [(4, true), (5, false)] {
        let mut s = setup3(bid, &placed, "017");
        s.stack[0] = vec![pat("012"), pat("012")];
        let mut g = Tayu::from_setup(s, Rules::default()).unwrap();
        assert!(!g.flood_out());
        g.play_mut(0, &act("place 017 16 11 W")).unwrap();
        assert_eq!(g.side_score(Side::NorthSouth), 4);
        assert_eq!(g.flood_out(), out, "bid {bid}");
        assert_eq!(g.to_act(), SeatSet::single(1));
        g.play_mut(1, &act("draw 0")).unwrap();
        let a = g.legal_actions(1)[0].clone();
        g.play_mut(1, &a).unwrap();
        // Seat 2, the flood, is skipped once out.
        assert_eq!(g.to_act(), SeatSet::single(if out { 0 } else { 2 }), "bid {bid}");
    }
}

#[test]
fn the_flood_wins_when_both_stay_below_the_bid_and_scores_its_bid() {
    let placed = ["012 0 3 N", "037 17 8 N"];
    // After the placement North-South has 4, East-West 0; the stack is empty, so it ends.
    let mut g = Tayu::from_setup(setup3(30, &placed, "017"), Rules::default()).unwrap();
    g.play_mut(0, &act("place 017 16 11 W")).unwrap();
    assert!(g.is_over());
    assert!(g.flood_won());
    assert_eq!(g.scores(), vec![4, 0, 30]);
    let r = &g.results()[0];
    assert!(r.facts.iter().any(|f| f.key == "win" && f.seat == Some(2)));
    assert!(r.summary.contains("flood"), "{}", r.summary);
    // With a bid of 4 North-South reaches it and wins.
    let mut g = Tayu::from_setup(setup3(4, &placed, "017"), Rules::default()).unwrap();
    g.play_mut(0, &act("place 017 16 11 W")).unwrap();
    assert!(!g.flood_won());
    assert_eq!(g.scores(), vec![4, 0, 0]);
    assert!(g.results()[0].facts.iter().any(|f| f.key == "win" && f.seat == Some(0)));
}

// ---- whole games from a seed ----

fn seeded(seats: usize, rules: Rules, seed: &str) -> Tayu {
    Tayu::new(rules, seats, Some(&Seed::from_text(seed))).unwrap()
}

#[test]
fn the_stack_is_sixteen_columns_of_seven_from_the_seed() {
    let g = seeded(2, Rules::default(), "stack");
    assert_eq!(g.column_heights(), vec![7; 16]);
    assert_eq!(g.drawable(), vec![0, 1]);
    let h = seeded(2, Rules::default(), "stack");
    assert_eq!(g.stack, h.stack);
    assert_ne!(g.stack, seeded(2, Rules::default(), "other").stack);
    // The column tops' circles are those of the top pieces.
    for c in 0..16 {
        assert_eq!(g.column_marked(c), g.stack[c].last().map(|p| p.marked()));
    }
    let mut all: Vec<Pattern> = g.stack.iter().flatten().copied().collect();
    all.sort();
    let mut b = bag().unwrap();
    b.sort();
    assert_eq!(all, b);
    assert!(Tayu::new(Rules::default(), 2, None).is_err());
    assert!(Tayu::new(Rules::default(), 5, Some(&Seed::from_text("x"))).is_err());
}

#[test]
fn drawing_takes_the_top_piece_of_the_chosen_column() {
    let mut g = seeded(2, Rules::default(), "draw");
    let s = g.turn().unwrap();
    let top = *g.stack[1].last().unwrap();
    g.play_mut(s, &act("draw 1")).unwrap();
    assert_eq!(g.held(s), &[top]);
    assert_eq!(g.column_heights()[1], 6);
    // The first piece covers the centre: 3 squares x 4 facings.
    assert_eq!(g.legal_actions(s).len(), 12);
}

#[test]
fn four_players_are_two_teams_seated_alternately() {
    let g = seeded(4, Rules::default(), "four");
    assert_eq!(
        (0..4).map(|s| g.side(s)).collect::<Vec<_>>(),
        vec![Some(Side::NorthSouth), Some(Side::EastWest), Some(Side::NorthSouth), Some(Side::EastWest)]
    );
    let mut g = g;
    let first = g.turn().unwrap();
    let mut order = vec![first];
    for _ in 0..4 {
        let s = g.turn().unwrap();
        let d = g.legal_actions(s)[0].clone();
        g.play_mut(s, &d).unwrap();
        let p = g.legal_actions(s)[0].clone();
        g.play_mut(s, &p).unwrap();
        order.push(g.turn().unwrap());
    }
    let want: Vec<Seat> = (0..5).map(|i| (first + i) % 4).collect();
    assert_eq!(order, want);
}

#[test]
fn three_players_bid_lower_or_pass_and_the_lowest_bidder_is_the_flood() {
    let mut g = seeded(3, Rules::default(), "bidding");
    let a = g.turn().unwrap();
    let (b, c) = ((a + 1) % 3, (a + 2) % 3);
    assert_eq!(g.scores(), vec![0, 0, 0]);
    // The opener must bid, 1 to 484.
    assert!(g.check(a, &act("pass")).is_err());
    assert!(g.check(a, &act("bid 0")).is_err());
    assert!(g.check(a, &act("bid 485")).is_err());
    assert_eq!(g.legal_actions(a).len(), 484);
    g.play_mut(a, &act("bid 20")).unwrap();
    assert!(g.check(b, &act("bid 20")).is_err());
    assert_eq!(g.legal_actions(b).len(), 20);
    g.play_mut(b, &act("bid 15")).unwrap();
    g.play_mut(c, &act("pass")).unwrap();
    // Back to the opener, who may go lower.
    assert_eq!(g.to_act(), SeatSet::single(a));
    assert!(g.check(a, &act("bid 15")).is_err());
    g.play_mut(a, &act("pass")).unwrap();
    assert_eq!(g.flood(), Some((b, 15)));
    // The start goes to one of the other two, who chooses its coasts.
    let s = g.turn().unwrap();
    assert!(s == a || s == c);
    assert_eq!(g.legal_actions(s).len(), 2);
    g.play_mut(s, &act("choose ew")).unwrap();
    assert_eq!(g.side(s), Some(Side::EastWest));
    assert_eq!(g.side(if s == a { c } else { a }), Some(Side::NorthSouth));
    assert_eq!(g.side(b), None);
    assert_eq!(g.turn(), Some(s));
    assert_eq!(g.legal_actions(s), vec![act("draw 0"), act("draw 1")]);
}

#[test]
fn a_passed_player_does_not_bid_again() {
    let mut g = seeded(3, Rules::default(), "bidding");
    let a = g.turn().unwrap();
    let (b, c) = ((a + 1) % 3, (a + 2) % 3);
    g.play_mut(a, &act("bid 30")).unwrap();
    g.play_mut(b, &act("pass")).unwrap();
    g.play_mut(c, &act("bid 25")).unwrap();
    // b has passed: the turn goes to a.
    assert_eq!(g.to_act(), SeatSet::single(a));
    g.play_mut(a, &act("bid 10")).unwrap();
    assert_eq!(g.to_act(), SeatSet::single(c));
    g.play_mut(c, &act("pass")).unwrap();
    assert_eq!(g.flood(), Some((a, 10)));
}

#[test]
fn the_face_up_variant_places_one_of_two_pieces() {
    let rules = Rules::named("faceup").unwrap();
    assert!(Tayu::new(rules.clone(), 4, Some(&Seed::from_text("x"))).is_err());
    let mut g = seeded(2, rules, "faceup");
    let s = g.turn().unwrap();
    let o = 1 - s;
    g.play_mut(s, &act("draw 0")).unwrap();
    assert_eq!(g.turn(), Some(o));
    g.play_mut(o, &act("draw 1")).unwrap();
    assert_eq!(g.held(s).len(), 1);
    assert_eq!(g.held(o).len(), 1);
    assert_eq!(g.turn(), Some(s));
    g.play_mut(s, &act("draw 0")).unwrap();
    let held = g.held(s).to_vec();
    assert_eq!(held.len(), 2);
    let legal = g.legal_actions(s);
    for p in &held {
        assert!(legal.iter().any(|a| matches!(a, Action::Place(x) if x.piece == *p)));
    }
    let keep = held[0];
    let place = legal.iter().find(|a| matches!(a, Action::Place(x) if x.piece == held[1])).unwrap().clone();
    g.play_mut(s, &place).unwrap();
    assert_eq!(g.held(s), &[keep]);
    assert_eq!(g.turn(), Some(o));
}

#[test]
fn options_are_read_and_unknown_ones_refused() {
    let mut o = Options::new();
    o.insert("set_aside".into(), OptValue::Bool(false));
    let r = Tayu::rules("standard", &o).unwrap();
    assert!(!r.set_aside && !r.face_up);
    assert!(Tayu::rules("hand", &Options::new()).unwrap().face_up);
    assert!(Tayu::rules("blitz", &Options::new()).is_err());
    o.insert("colour".into(), OptValue::Bool(true));
    assert!(Tayu::rules("standard", &o).is_err());
    let mut o = Options::new();
    o.insert("face_up".into(), OptValue::Int(1));
    assert!(Tayu::rules("standard", &o).is_err());
    assert_eq!(Tayu::rules("standard", &Tayu::options(&Rules::default())).unwrap(), Rules::default());
}

#[test]
fn random_games_end_and_never_break_the_rules() {
    for seats in 2..=4 {
        for k in 0..3 {
            let mut g = seeded(seats, Rules::default(), &format!("random {seats} {k}"));
            let mut pick = Seed::from_text(&format!("pick {k}")).stream("t");
            let mut n = 0;
            while let Some(s) = g.turn() {
                let legal = g.legal_actions(s);
                assert!(!legal.is_empty(), "{}", g.render());
                let a = legal[pick.below(legal.len() as u64) as usize].clone();
                g.play_mut(s, &a).unwrap();
                n += 1;
                assert!(n < 2000);
            }
            let r = &g.results()[0];
            assert_eq!(r.deltas, g.scores());
            // Every placed piece's exits either meet another exit, face an empty square or are
            // mouths: no exit faces a blank side.
            let b = g.board();
            for e in b.all_exits() {
                let (dr, dc) = e.side.delta();
                if let Some(i) = b.piece_at(e.row + dr, e.col + dc) {
                    let other = b.pieces()[i];
                    assert!(other
                        .exits()
                        .iter()
                        .any(|x| (x.row, x.col, x.side) == (e.row + dr, e.col + dc, e.side.opposite())));
                }
            }
            let _ = g.view();
        }
    }
}

#[test]
fn the_facts_of_a_finished_game_are_counted_by_hand() {
    // North: columns 3 (special), 4, 5 = 4 points from 3 mouths; after 017 a South mouth at
    // column 11 = 1. North-South 4 x 1 = 4 < 30, East-West 0 x 0 = 0: the flood wins.
    let mut g = Tayu::from_setup(setup3(30, &["012 0 3 N", "037 17 8 N"], "017"), Rules::default()).unwrap();
    g.play_mut(0, &act("place 017 16 11 W")).unwrap();
    let facts = &g.results()[0].facts;
    let get = |seat: Option<Seat>, key: &str| facts.iter().find(|f| f.seat == seat && f.key == key).map(|f| f.value);
    assert_eq!(get(Some(0), "score"), Some(4));
    assert_eq!(get(Some(0), "mouths"), Some(4));
    assert_eq!(get(Some(0), "coast_points"), Some(5));
    assert_eq!(get(Some(0), "zero_coast"), None);
    assert_eq!(get(Some(0), "placed"), Some(3));
    assert_eq!(get(Some(0), "win"), None);
    assert_eq!(get(Some(1), "score"), Some(0));
    assert_eq!(get(Some(1), "mouths"), Some(0));
    assert_eq!(get(Some(1), "coast_points"), Some(0));
    assert_eq!(get(Some(1), "zero_coast"), Some(1));
    assert_eq!(get(Some(1), "placed"), Some(0));
    assert_eq!(get(Some(2), "score"), Some(30));
    assert_eq!(get(Some(2), "flood"), Some(1));
    assert_eq!(get(Some(2), "bid"), Some(30));
    assert_eq!(get(Some(2), "win"), Some(1));
    assert_eq!(get(Some(2), "mouths"), None);
    assert_eq!(get(None, "pieces_placed"), Some(3));
    assert_eq!(get(None, "set_aside"), Some(0));
    assert_eq!(get(None, "mouths"), Some(4));
    assert_eq!(get(None, "special_mouths"), Some(1));
    assert_eq!(get(None, "stack_left"), Some(0));
    assert_eq!(get(None, "end_stack_empty"), Some(1));
    assert_eq!(get(None, "end_no_placement"), None);
    assert_eq!(g.results()[0].deltas, vec![4, 0, 30]);
}

#[test]
fn four_player_teams_share_their_product() {
    let mut s = setup2(&[(0, "012 0 3 N"), (1, "012 18 8 S"), (2, "012 4 0 W")], &["037"]);
    s.seats = 4;
    s.held = vec![Vec::new(); 4];
    s.free_board = true;
    let mut g = Tayu::from_setup(s, Rules { set_aside: false, ..Rules::default() }).unwrap();
    // North 4 x South 4 = 16 for seats 0 and 2; East 0 x West 3 = 0 for seats 1 and 3.
    assert_eq!(g.scores(), vec![16, 0, 16, 0]);
    g.play_mut(0, &act("draw 0")).unwrap();
    assert!(g.is_over());
    let facts = &g.results()[0].facts;
    let winners: Vec<Option<Seat>> = facts.iter().filter(|f| f.key == "win").map(|f| f.seat).collect();
    assert_eq!(winners, vec![Some(0), Some(2)]);
    assert!(g.results()[0].summary.contains("seats 0 and 2 win with 16"), "{}", g.results()[0].summary);
}

#[test]
fn hand_built_positions_are_checked() {
    let ok = setup2(&[(0, "037 9 8 N")], &["037"]);
    assert!(Tayu::from_setup(ok.clone(), Rules::default()).is_ok());
    // An illegal placement (not over the centre), unless the board is free.
    let mut s = setup2(&[(0, "037 5 5 N")], &["037"]);
    assert!(Tayu::from_setup(s.clone(), Rules::default()).is_err());
    s.free_board = true;
    assert!(Tayu::from_setup(s, Rules::default()).is_ok());
    // Overlapping pieces, even on a free board.
    let mut s = setup2(&[(0, "037 9 8 N"), (1, "012 9 9 N")], &["037"]);
    s.free_board = true;
    assert!(Tayu::from_setup(s, Rules::default()).is_err());
    // A fifth copy of a pattern.
    let mut s = ok.clone();
    s.stack[0] = vec![pat("037"); 4];
    assert!(Tayu::from_setup(s, Rules::default()).is_err());
    // A drawn piece without placing, and placing without a drawn piece.
    let mut s = ok.clone();
    s.held[0] = vec![pat("012")];
    assert!(Tayu::from_setup(s, Rules::default()).is_err());
    let mut s = ok.clone();
    s.placing = true;
    assert!(Tayu::from_setup(s, Rules::default()).is_err());
    // To draw from an empty stack.
    let mut s = ok.clone();
    s.stack = empty_stack();
    assert!(Tayu::from_setup(s, Rules::default()).is_err());
    // Three players need a flood; two must not have one.
    let mut s = setup3(10, &[], "012");
    s.flood = None;
    assert!(Tayu::from_setup(s, Rules::default()).is_err());
    let mut s = ok;
    s.flood = Some((1, 10));
    assert!(Tayu::from_setup(s, Rules::default()).is_err());
}

#[test]
fn the_view_carries_the_board_the_coasts_and_the_column_marks() {
    // Column 0 shows a three-sided piece (037), column 1 a two-sided one (013).
    let g = Tayu::from_setup(setup2(&[(0, "037 9 8 N")], &["037", "013"]), Rules::default()).unwrap();
    // As the dashboard's API writes it.
    let v = serde_json::to_value(g.view()).unwrap();
    assert_eq!(v["pieces"][0]["pattern"], "037");
    assert_eq!(v["pieces"][0]["squares"], serde_json::json!([[9, 8], [9, 9], [9, 10]]));
    assert_eq!(v["pieces"][0]["exits"].as_array().unwrap().len(), 3);
    assert_eq!(v["open_ends"].as_array().unwrap().len(), 3);
    assert_eq!(v["coasts"]["N"]["points"], 0);
    assert_eq!(v["stack"][0]["marked"], true);
    assert_eq!(v["stack"][1]["marked"], false);
    assert_eq!(v["stack"][2]["marked"], serde_json::Value::Null);
    assert_eq!(v["drawable"], serde_json::json!([0, 1]));
    assert_eq!(v["board"]["special"]["E"], serde_json::json!([3, 9, 15]));
    let text = g.render();
    assert!(text.contains("0:1@ 1:1 2:-"), "{text}");
    // The centre piece with its three exits: W of 9,8 and E of 9,10 drawn as '-'.
    assert!(text.lines().any(|l| l.starts_with("  9 ") && l.contains(".-#####-.")), "{text}");
}

#[test]
fn actions_encode_without_maps_chars_or_floats() {
    crate::log::plain::assert_plain_records::<Action>(&["bid 20", "pass", "choose ns", "draw 3", "place 015 9 8 N"]);
}

#[test]
fn a_game_ends_at_its_length_bound() {
    for seats in 2..=4 {
        let rules = Tayu::rules("standard", &Default::default()).unwrap();
        let g = Tayu::new(rules, seats, Some(&crate::Seed::from_text("tayu bound"))).unwrap();
        crate::game::ends_at_its_bound(g, |g| g.length = crate::game::Length(Tayu::MAX_RECORDS - 1));
    }
}
