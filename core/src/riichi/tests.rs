//! Engine tests on hand-built positions ([`Setup`]): each rule in one position built for it.
//!
//! Filler hands hold tiles three apart in each suit and single winds: never tenpai, never able to
//! chi or pon, so only the seats a test is about can act on a discard.

use super::engine::River;
use super::setup::{SeatSetup, Setup, SetupPhase};
use super::*;
use crate::error::ErrorCode;
use crate::mahjong::hand::waits;
use crate::mahjong::{counts_of, parse_tiles, MeldKind};
use crate::t;
use crate::{Game, RoundResult, Seat, SeatSet};

const FA: &str = "147m258p369s1234z";
const FB: &str = "269m147p258s1234z";
const FC: &str = "258m369p147s1234z";

fn ts(s: &str) -> Vec<Tile> {
    parse_tiles(s).unwrap()
}

fn act(s: &str) -> Action {
    s.parse().unwrap()
}

/// `pon:777z:2` (the called tile is the first, taken from seat 2), `chi:345m:3`, `minkan:5555m:1`,
/// `kakan:5555m:1`, `ankan:1111z`.
fn meld(s: &str) -> Meld {
    let parts: Vec<&str> = s.split(':').collect();
    let kind = MeldKind::from_name(parts[0]).unwrap_or(MeldKind::ConcealedKong);
    let tiles = ts(parts[1]);
    let from = parts.get(2).map(|f| f.parse::<u8>().unwrap());
    Meld::new(kind, &tiles, from.map(|_| tiles[0]), from).unwrap()
}

struct Pos {
    hands: [&'static str; 4],
    melds: [&'static [&'static str]; 4],
    rivers: [&'static str; 4],
    /// The next live draws.
    front: &'static str,
    /// The live wall's length (default: every tile left over).
    live: Option<usize>,
    /// Seats whose rivers take the tiles left over when `live` is short (never their waits).
    dump: [bool; 4],
    dora: &'static str,
    /// The next replacement tiles.
    rinshan: &'static str,
    riichi: [bool; 4],
    furiten_riichi: [bool; 4],
    scores: [i64; 4],
    honba: u32,
    sticks: u32,
    round_wind: u8,
    kyoku: u8,
    phase: SetupPhase,
    rules: Rules,
}

impl Default for Pos {
    fn default() -> Self {
        Pos {
            hands: [FA, FB, FC, FA],
            melds: [&[]; 4],
            rivers: [""; 4],
            front: "",
            live: None,
            dump: [true; 4],
            dora: "9z",
            rinshan: "",
            riichi: [false; 4],
            furiten_riichi: [false; 4],
            scores: [25000; 4],
            honba: 0,
            sticks: 0,
            round_wind: 0,
            kyoku: 0,
            phase: SetupPhase::Discarded { from: 0 },
            rules: Rules::default(),
        }
    }
}

impl Pos {
    fn setup(self) -> (Setup, Rules) {
        let mut rest = Riichi::tile_set(&self.rules);
        let mut take = |t: Tile| {
            let i = rest.iter().position(|x| *x == t).unwrap_or_else(|| panic!("no {t} left"));
            rest.remove(i)
        };
        let mut seats: [SeatSetup; 4] = Default::default();
        for s in 0..4 {
            seats[s].hand = ts(self.hands[s]).into_iter().map(&mut take).collect();
            seats[s].melds = self.melds[s].iter().map(|m| meld(m)).collect();
            for m in &seats[s].melds {
                m.tiles().iter().for_each(|&t| {
                    take(t);
                });
            }
            seats[s].river = ts(self.rivers[s])
                .into_iter()
                .map(|t| River { tile: take(t), drawn: false, riichi: false, called: false })
                .collect();
            seats[s].riichi = self.riichi[s];
            seats[s].furiten_riichi = self.furiten_riichi[s];
        }
        let front: Vec<Tile> = ts(self.front).into_iter().map(&mut take).collect();
        // "9z" means: any tile for the dora indicator.
        let dora = if self.dora == "9z" { None } else { Some(take(ts(self.dora)[0])) };
        let rinshan: Vec<Tile> = ts(self.rinshan).into_iter().map(&mut take).collect();
        let kans = seats.iter().flat_map(|s| &s.melds).filter(|m| m.is_kong()).count();
        let mut dead = rinshan;
        while dead.len() < 4 - kans {
            dead.push(rest.remove(0));
        }
        dead.push(dora.unwrap_or_else(|| rest.remove(rest.len() - 1)));
        while dead.len() < 14 {
            dead.push(rest.remove(rest.len() - 1));
        }
        let mut live = front;
        let n = self.live.unwrap_or(live.len() + rest.len());
        while live.len() < n {
            live.push(rest.remove(0));
        }
        // Left-over tiles into the dump seats' rivers, never on their own waits.
        let wait_of: Vec<u64> = seats.iter().map(|s| waits(&counts_of(&s.hand))).collect();
        let mut s = 0;
        for t in rest {
            let mut tries = 0;
            while !self.dump[s] || wait_of[s] & (1 << t.kind()) != 0 {
                s = (s + 1) % 4;
                tries += 1;
                assert!(tries < 8, "no river takes {t}");
            }
            seats[s].river.insert(0, River { tile: t, drawn: false, riichi: false, called: false });
            s = (s + 1) % 4;
        }
        let setup = Setup {
            seats,
            live,
            dead,
            dora_shown: 1,
            dora_pending: 0,
            scores: self.scores,
            round_wind: self.round_wind,
            kyoku: self.kyoku,
            honba: self.honba,
            sticks: self.sticks,
            phase: self.phase,
            seed: crate::Seed::from_text("riichi setup tests"),
        };
        (setup, self.rules)
    }

    fn build(self) -> Riichi {
        let (setup, rules) = self.setup();
        Riichi::from_setup(setup, rules).unwrap_or_else(|e| panic!("{e}"))
    }
}

#[track_caller]
fn play(g: &mut Riichi, seat: Seat, a: &str) {
    if let Err(v) = g.play_mut(seat, &act(a)) {
        panic!("seat {seat} {a}: {}\n{}", v.message, g.render());
    }
}

fn last(g: &Riichi) -> &RoundResult {
    g.results().last().expect("a round ended")
}

fn has_fact(r: &RoundResult, key: &str) -> bool {
    r.facts.iter().any(|f| f.key == key)
}

// ---------------------------------------------------------------- setup validation

#[test]
fn setup_is_checked() {
    let ok = Pos { rivers: ["5z", "", "", ""], ..Pos::default() }.setup();
    assert!(Riichi::from_setup(ok.0.clone(), ok.1.clone()).is_ok());
    // A tile twice (and one missing).
    let mut s = ok.0.clone();
    s.seats[1].hand[0] = s.seats[0].hand[0];
    assert!(Riichi::from_setup(s, ok.1.clone()).unwrap_err().0.contains("136 tiles"));
    // A hand one short.
    let mut s = ok.0.clone();
    let t = s.seats[1].hand.pop().unwrap();
    s.live.push(t);
    assert!(Riichi::from_setup(s, ok.1.clone()).unwrap_err().0.contains("holds 12 tiles"));
    // Red fives per the rules: a position with three red fives is not one of a game without.
    assert!(Riichi::from_setup(ok.0.clone(), Rules { red_fives: 0, ..Rules::default() }).is_err());
    // The dead wall has 14 tiles.
    let mut s = ok.0.clone();
    let t = s.dead.pop().unwrap();
    s.live.push(t);
    assert!(Riichi::from_setup(s, ok.1.clone()).unwrap_err().0.contains("dead wall"));
    // The seat on turn holds 14; its drawn tile is in its hand.
    let mut s = ok.0.clone();
    s.phase = SetupPhase::Turn { seat: 1, drawn: Some(t!(7z)), rinshan: false };
    assert!(Riichi::from_setup(s, ok.1.clone()).unwrap_err().0.contains("should hold 14"));
    // Riichi with an open hand.
    let (s, r) = Pos {
        hands: [FA, "13m456p789s55z", FC, FA],
        melds: [&[], &["pon:222m:0"], &[], &[]],
        riichi: [false, true, false, false],
        ..Pos::default()
    }
    .setup();
    assert!(Riichi::from_setup(s, r).unwrap_err().0.contains("open hand"));
    // A chi from across the table.
    let (s, r) =
        Pos { hands: [FA, "13m456p789s55z", FC, FA], melds: [&[], &["chi:234m:3"], &[], &[]], ..Pos::default() }
            .setup();
    assert!(Riichi::from_setup(s, r).unwrap_err().0.contains("left"));
}

// ---------------------------------------------------------------- liability

/// Seat 1 holds three dragon pons, the third (7z) fed by seat 2.
fn daisangen(phase: SetupPhase, hand: &'static str, rules: Rules) -> Riichi {
    Pos {
        hands: [FA, hand, FC, "147m258p369s1235z"],
        melds: [&[], &["pon:555z:0", "pon:666z:3", "pon:777z:2"], &[], &[]],
        rivers: if matches!(phase, SetupPhase::Discarded { from: 0 }) { ["9p", "", "", ""] } else { [""; 4] },
        honba: 1,
        phase,
        rules,
        ..Pos::default()
    }
    .build()
}

#[test]
fn pao_daisangen_tsumo_is_paid_by_the_feeder() {
    let turn = SetupPhase::Turn { seat: 1, drawn: Some(t!(9p)), rinshan: false };
    let mut g = daisangen(turn, "123m99p", Rules::default());
    play(&mut g, 1, "tsumo");
    let r = last(&g);
    // Yakuman, non-dealer: 32000 and the honba, all from seat 2.
    assert_eq!(r.deltas, [0, 32300, -32300, 0], "{}", r.summary);
    assert!(r.facts.iter().any(|f| f.key == "liable" && f.seat == Some(2)));
    // Without the option, a plain tsumo split: 16000 from the dealer, 8000 from each other.
    let mut g = daisangen(turn, "123m99p", Rules { pao_daisangen: false, ..Rules::default() });
    play(&mut g, 1, "tsumo");
    assert_eq!(last(&g).deltas, [-16100, 32300, -8100, -8100]);
}

#[test]
fn pao_daisangen_ron_is_split_with_the_discarder() {
    let mut g = daisangen(SetupPhase::Discarded { from: 0 }, "123m9p", Rules::default());
    play(&mut g, 1, "ron");
    // Half from the liable seat, half and the honba from the discarder.
    assert_eq!(last(&g).deltas, [-16300, 32300, -16000, 0], "{}", last(&g).summary);
}

#[test]
fn pao_daisuushii_tsumo_and_ron() {
    let winds = |phase, hand: &'static str, river: &'static str| {
        Pos {
            hands: ["147m258p369s5677z", hand, "258m369p147s5667z", "147m258p369s5567z"],
            melds: [&[], &["pon:111z:0", "pon:222z:2", "pon:333z:3", "pon:444z:2"], &[], &[]],
            rivers: [river, "", "", ""],
            phase,
            ..Pos::default()
        }
        .build()
    };
    let mut g = winds(SetupPhase::Turn { seat: 1, drawn: Some(t!(8m)), rinshan: false }, "88m", "");
    play(&mut g, 1, "tsumo");
    assert_eq!(last(&g).deltas, [0, 32000, -32000, 0], "{}", last(&g).summary);
    let mut g = winds(SetupPhase::Discarded { from: 0 }, "8m", "8m");
    play(&mut g, 1, "ron");
    assert_eq!(last(&g).deltas, [-16000, 32000, -16000, 0], "{}", last(&g).summary);
}

#[test]
fn rinshan_liability_option() {
    // Seat 1 calls an open kan on seat 0's 8p and wins on the replacement tile 4p.
    let pos = |rules| Pos {
        hands: ["147m369p369s1234z", "888p234m567s99s23p", FC, "147m369p369s5567z"],
        rivers: ["8p", "", "", ""],
        rinshan: "4p",
        dora: "1z",
        rules,
        ..Pos::default()
    };
    for (on, want) in [(false, [-500, 1100, -300, -300]), (true, [-1000, 1000, 0, 0])] {
        let mut g = pos(Rules { rinshan_pao: on, ..Rules::default() }).build();
        play(&mut g, 1, "minkan 8p");
        play(&mut g, 1, "tsumo");
        // Rinshan 1 han, 30 fu (20 + open kan of simples 8 + tsumo 2): 240 basic.
        assert_eq!(last(&g).deltas, want, "rinshan_pao {on}: {}", last(&g).summary);
    }
}

// ---------------------------------------------------------------- kans

#[test]
fn four_kans_by_two_players_abort_but_not_by_one() {
    // Seat 0 draws its fourth 9p and makes the fourth kan of the hand.
    let mut g = Pos {
        hands: ["7777z147m258p369s1z", "2468m", FC, FA],
        melds: [&[], &["ankan:3333m", "ankan:5555z", "ankan:6666z"], &[], &[]],
        rinshan: "1p",
        phase: SetupPhase::Turn { seat: 0, drawn: Some(t!(7z)), rinshan: false },
        ..Pos::default()
    }
    .build();
    play(&mut g, 0, "ankan 7z");
    play(&mut g, 0, "tsumogiri 1p");
    let r = last(&g);
    assert!(has_fact(r, "abort:four_kans"), "{}", r.summary);
    assert_eq!(r.deltas, [0; 4]);
    assert_eq!((g.dealer(), g.honba()), (0, 1), "an abortive draw repeats the hand");

    // Four kans by one seat: play goes on (suukantsu tenpai).
    let mut g = Pos {
        hands: [FA, "7777z1m", FC, FA],
        melds: [&[], &["ankan:3333m", "ankan:5555z", "ankan:6666z"], &[], &[]],
        rinshan: "1p",
        front: "9p",
        phase: SetupPhase::Turn { seat: 1, drawn: Some(t!(7z)), rinshan: false },
        ..Pos::default()
    }
    .build();
    play(&mut g, 1, "ankan 7z");
    play(&mut g, 1, "tsumogiri 1p");
    assert!(g.results().is_empty());
    assert_eq!(g.to_act(), SeatSet::single(2));
    // And no fifth kan: the kan limit is reached.
    assert_eq!(g.hand(1), &ts("1m")[..]);
}

/// A hand-built position with kans keeps its dead wall's layout: the replacement tiles not yet
/// drawn come next, the indicators stay where they were, and each kan shortens the live wall by
/// one tile.
#[test]
fn a_position_with_kans_keeps_its_dead_wall() {
    let (setup, rules) = Pos {
        hands: ["7777z147m258p369s1z", "2468m", FC, FA],
        melds: [&[], &["ankan:3333m", "ankan:5555z", "ankan:6666z"], &[], &[]],
        rinshan: "1p",
        dora: "4s",
        phase: SetupPhase::Turn { seat: 0, drawn: Some(t!(7z)), rinshan: false },
        ..Pos::default()
    }
    .setup();
    // One replacement tile left (three kans made), then the indicator pairs.
    let (dead, live) = (setup.dead.clone(), setup.live.len());
    assert_eq!(&dead[..2], &ts("1p4s")[..]);
    let mut g = Riichi::from_setup(setup, rules).unwrap();
    assert_eq!((g.dora_indicators(), g.tiles_left()), (vec![dead[1]], live));
    play(&mut g, 0, "ankan 7z");
    assert_eq!(g.drawn_tile(), Some((0, t!(1p), true)));
    assert_eq!(g.tiles_left(), live - 1);
    // A closed kan's dora indicator is shown at once.
    assert_eq!(g.dora_indicators(), vec![dead[1], dead[3]]);
    assert_eq!(g.ura_shown(), vec![dead[2], dead[4]]);
}

#[test]
fn robbing_an_added_kan() {
    let mut g = Pos {
        hands: ["147m58p369s12z2p", "13p456m789m234s55z", FC, "147m369p369s5567z"],
        melds: [&["pon:222p:2"], &[], &[], &[]],
        phase: SetupPhase::Turn { seat: 0, drawn: Some(t!(2p)), rinshan: false },
        ..Pos::default()
    }
    .build();
    play(&mut g, 0, "kakan 2p");
    assert_eq!(g.to_act(), SeatSet::single(1));
    play(&mut g, 1, "ron");
    let r = last(&g);
    assert!(r.facts.iter().any(|f| f.key == "yaku:chankan"), "{}", r.summary);
    assert!(r.summary.contains("robbing the kan"));
}

#[test]
fn a_closed_kan_is_robbed_only_by_thirteen_orphans() {
    // Seat 1 waits on 9m with an ordinary hand, seat 2 with thirteen orphans.
    let mut g = Pos {
        hands: ["9999m147p258s3456z", "78m123p456p789s55z", "1m19p19s12345677z", FA],
        phase: SetupPhase::Turn { seat: 0, drawn: Some(t!(9m)), rinshan: false },
        ..Pos::default()
    }
    .build();
    play(&mut g, 0, "ankan 9m");
    assert_eq!(g.to_act(), SeatSet::single(2), "only the thirteen orphans may rob a closed kan");
    play(&mut g, 2, "ron");
    let r = last(&g);
    assert!(r.facts.iter().any(|f| f.key == "yaku:kokushi"), "{}", r.summary);
    assert_eq!(r.deltas[0], -32000);
}

#[test]
fn closed_kan_after_riichi_only_when_the_waits_stay() {
    // 1113m waits on 2m and 3m; a kan of 1m leaves only 3m: refused.
    let g = Pos {
        hands: [FB, "11113m456p789s567s", FC, FB],
        riichi: [false, true, false, false],
        phase: SetupPhase::Turn { seat: 1, drawn: Some(t!(1m)), rinshan: false },
        ..Pos::default()
    }
    .build();
    let e = g.validate(1, &act("ankan 1m")).unwrap_err();
    assert!(e.message.contains("change its waits"), "{}", e.message);
    assert!(!g.legal_actions(1).contains(&act("ankan 1m")));
    // 111m beside a tanki on 5z: the same wait after the kan: allowed.
    let mut g = Pos {
        hands: [FB, "1111m234p567p789s6z", FC, FB],
        riichi: [false, true, false, false],
        rinshan: "7z",
        phase: SetupPhase::Turn { seat: 1, drawn: Some(t!(1m)), rinshan: false },
        ..Pos::default()
    }
    .build();
    assert!(g.legal_actions(1).contains(&act("ankan 1m")));
    play(&mut g, 1, "ankan 1m");
    // In riichi, only the drawn tile may go.
    assert!(g.validate(1, &act("discard 2p")).is_err());
    play(&mut g, 1, "tsumogiri 7z");
}

// ---------------------------------------------------------------- calls

#[test]
fn swap_calls_are_banned() {
    // Seat 1 chis seat 0's 4m with 2m 3m: the other end of the run, 1m, may not follow (nor 4m).
    let mut g = Pos { hands: [FB, "1235m69p258s567z1z", FC, FA], rivers: ["4m", "", "", ""], ..Pos::default() }.build();
    play(&mut g, 1, "chi 2m 3m");
    let e = g.validate(1, &act("discard 1m")).unwrap_err();
    assert!(e.message.contains("kuikae"), "{}", e.message);
    assert!(!g.legal_actions(1).iter().any(|a| matches!(a, Action::Discard { tile, .. } if tile.kind() == 0)));
    assert!(g.validate(1, &act("discard 5z")).is_ok());
    // A chi that would leave only banned tiles (1m and 4m) is no claim at all.
    let g = Pos {
        hands: [FB, "1234m", FC, FA],
        melds: [&[], &["pon:111s:2", "pon:999s:3", "pon:999p:0"], &[], &[]],
        rivers: ["4m", "", "", ""],
        ..Pos::default()
    }
    .build();
    // Nobody was asked: seat 1 simply drew its next tile.
    assert_eq!((g.melds(1).len(), g.hand(1).len()), (3, 5), "{}", g.render());
}

// ---------------------------------------------------------------- furiten

#[test]
fn permanent_furiten_refuses_ron() {
    // Seat 1 waits on 4s and 7s and has discarded 7s.
    let g = Pos {
        hands: [FA, "234m567m234p88p56s", FB, FC],
        rivers: ["4s", "7s", "", ""],
        dump: [true, false, true, true],
        ..Pos::default()
    }
    .build();
    // Seat 1 is asked (it may chi) but may not ron.
    assert!(g.to_act().contains(1));
    let e = g.validate(1, &act("ron")).unwrap_err();
    assert!(e.message.contains("furiten"), "{}", e.message);
}

/// Seat 2 discards 4s, seat 1 (waiting on 4s and 7s) passes; seats 3 and 0 throw honours, seat 1
/// throws its draw, and seat 2 discards 7s.
fn passed_win(riichi: bool) -> Riichi {
    let mut g = Pos {
        hands: [FA, "234m567m234p88p56s", FB, FC],
        rivers: ["", "", "4s", ""],
        front: "5z6z7z7s",
        riichi: [false, riichi, false, false],
        phase: SetupPhase::Discarded { from: 2 },
        ..Pos::default()
    }
    .build();
    assert!(g.legal_actions(1).contains(&Action::Ron));
    play(&mut g, 1, "pass");
    // Temporary furiten until seat 1's own discard.
    assert!(g.players[1].furiten_temp);
    play(&mut g, 3, "tsumogiri 5z");
    play(&mut g, 0, "tsumogiri 6z");
    play(&mut g, 1, "tsumogiri 7z");
    play(&mut g, 2, "tsumogiri 7s");
    g
}

#[test]
fn temporary_furiten_lasts_until_the_own_discard() {
    let g = passed_win(false);
    assert!(g.to_act().contains(1));
    assert!(g.legal_actions(1).contains(&Action::Ron));
}

#[test]
fn riichi_furiten_lasts_the_hand() {
    let g = passed_win(true);
    assert!(!g.to_act().contains(1), "{}", g.render());
}

// ---------------------------------------------------------------- abortive draws

#[test]
fn nine_terminals() {
    let mut g = Pos {
        hands: ["19m19p19s1234z234m5m", FB, FC, "147m258p369s5567z"],
        phase: SetupPhase::Turn { seat: 0, drawn: Some(t!(4m)), rinshan: false },
        ..Pos::default()
    }
    .build();
    play(&mut g, 0, "kyuushu");
    assert!(has_fact(last(&g), "abort:nine_terminals"));
    assert_eq!((g.dealer(), g.honba()), (0, 1));
    // Off with the abortive draws.
    let g = Pos {
        hands: ["19m19p19s1234z234m5m", FB, FC, "147m258p369s5567z"],
        phase: SetupPhase::Turn { seat: 0, drawn: Some(t!(4m)), rinshan: false },
        rules: Rules { abortive_draws: false, ..Rules::default() },
        ..Pos::default()
    }
    .build();
    assert!(g.validate(0, &Action::Kyuushu).is_err());
}

#[test]
fn four_winds() {
    let mut g = Pos {
        hands: ["147m258p369s2345z", "269m147p258s2345z", "258m369p147s2345z", "147m258p369s5677z1z"],
        rivers: ["1z", "1z", "1z", ""],
        dump: [false; 4],
        phase: SetupPhase::Turn { seat: 3, drawn: Some(t!(1z)), rinshan: false },
        ..Pos::default()
    }
    .build();
    play(&mut g, 3, "tsumogiri 1z");
    assert!(has_fact(last(&g), "abort:four_winds"), "{}", last(&g).summary);
}

#[test]
fn four_riichi() {
    let mut g = Pos {
        hands: [FA, FB, FC, "234m567m234p88p56s6z"],
        riichi: [true, true, true, false],
        scores: [24000, 24000, 24000, 25000],
        sticks: 3,
        phase: SetupPhase::Turn { seat: 3, drawn: Some(t!(6z)), rinshan: false },
        ..Pos::default()
    }
    .build();
    play(&mut g, 3, "riichi tsumogiri 6z");
    let r = last(&g);
    assert!(has_fact(r, "abort:four_riichi"), "{}", r.summary);
    assert_eq!(r.deltas, [0, 0, 0, -1000]);
    assert_eq!(g.riichi_sticks(), 4, "the sticks stay on the table");
    // The view's hand end: the deposit of the fourth is the only payment; the abort is named.
    let h = hand_end(&g);
    assert_eq!(h.how, HandEndKind::AbortiveDraw { abort: Abort::FourRiichi });
    assert_eq!(h.payments, [Transfer { from: Some(3), to: None, points: 1000 }]);
    let json = serde_json::to_value(&h).unwrap();
    assert_eq!((json["end"].as_str(), json["abort"].as_str()), (Some("abortive_draw"), Some("four_riichi")));
}

#[test]
fn triple_ron_aborts_by_default_and_pays_with_the_option() {
    let pos = |rules| Pos {
        hands: ["147m369p369s1234z", "123456789m111s5p", "123789p123456s5p", "234678s345678m5p"],
        rivers: ["0p", "", "", ""],
        riichi: [false, true, true, true],
        rules,
        ..Pos::default()
    };
    let mut g = pos(Rules::default()).build();
    for s in 1..4 {
        play(&mut g, s, "ron");
    }
    assert!(has_fact(last(&g), "abort:triple_ron"));
    assert_eq!(last(&g).deltas, [0; 4]);
    let mut g = pos(Rules { triple_ron_abort: false, ..Rules::default() }).build();
    for s in 1..4 {
        play(&mut g, s, "ron");
    }
    let r = last(&g);
    assert_eq!(r.facts.iter().filter(|f| f.key == "win").count(), 3, "{}", r.summary);
    assert_eq!(r.deltas.iter().sum::<i64>(), 0);
}

// ---------------------------------------------------------------- double ron

/// Seat 2 discards 4s; seat 3 (tanyao, 40 fu: 1300) and seat 1 (tanyao pinfu, 30 fu: 2000) win.
fn double_ron(rules: Rules, scores: [i64; 4]) -> Riichi {
    let mut g = Pos {
        hands: [FA, "234m567m234p88p56s", "269m147p258s1234z", "345p678p678s333m4s"],
        rivers: ["", "", "4s", ""],
        honba: 2,
        sticks: 1,
        scores,
        phase: SetupPhase::Discarded { from: 2 },
        rules,
        ..Pos::default()
    }
    .build();
    play(&mut g, 1, "ron");
    play(&mut g, 3, "ron");
    g
}

#[test]
fn double_ron_honba_and_sticks_to_the_first_in_turn_order() {
    let g = double_ron(Rules::default(), [25000, 25000, 26000, 24000]);
    // Seat 3 follows the discarder: it takes the 600 honba and the stick.
    assert_eq!(last(&g).deltas, [0, 2000, -3900, 2900], "{}", last(&g).summary);
}

#[test]
fn wins_carry_fu_and_points_without_honba_and_sticks() {
    let g = double_ron(Rules::default(), [25000, 25000, 26000, 24000]);
    let r = last(&g);
    let fact = |seat: Seat, key: &str| r.facts.iter().find(|f| f.seat == Some(seat) && f.key == key).map(|f| f.value);
    assert_eq!((fact(1, "fu"), fact(1, "points")), (Some(30), Some(2000)), "{}", r.summary);
    assert_eq!((fact(3, "fu"), fact(3, "points")), (Some(40), Some(1300)), "{}", r.summary);
    assert_eq!(fact(2, "points"), None);
    // A tsumo's points are the sum of the payments: 16000 + 8000 + 8000 for a non-dealer yakuman.
    let turn = SetupPhase::Turn { seat: 1, drawn: Some(t!(9p)), rinshan: false };
    let mut g = daisangen(turn, "123m99p", Rules { pao_daisangen: false, ..Rules::default() });
    play(&mut g, 1, "tsumo");
    let r = last(&g);
    assert!(r.facts.iter().any(|f| f.seat == Some(1) && f.key == "points" && f.value == 32000), "{:?}", r.facts);
    assert!(r.facts.iter().any(|f| f.seat == Some(1) && f.key == "fu"), "{:?}", r.facts);
}

#[test]
fn head_bump_without_double_ron() {
    let g = double_ron(Rules { double_ron: false, ..Rules::default() }, [25000, 25000, 26000, 24000]);
    assert_eq!(last(&g).deltas, [0, 0, -1900, 2900], "{}", last(&g).summary);
}

#[test]
fn busting_ends_the_game() {
    let g = double_ron(Rules::default(), [25000, 25000, 3000, 46000]);
    assert!(g.is_over());
    assert_eq!(g.scores(), [25000, 27000, -900, 48900]);
    // And without the bust rule play goes on.
    let g = double_ron(Rules { bust: false, ..Rules::default() }, [25000, 25000, 3000, 46000]);
    assert!(!g.is_over());
}

// ---------------------------------------------------------------- the last tile

#[test]
fn haitei_tsumo_on_the_last_tile() {
    let mut g = Pos {
        hands: [FA, "234m567m234p88p56s", FB, FC],
        rivers: ["5z", "", "", ""],
        front: "7s",
        live: Some(1),
        dump: [true, false, true, true],
        ..Pos::default()
    }
    .build();
    assert_eq!(g.tiles_left(), 0);
    play(&mut g, 1, "tsumo");
    assert!(last(&g).facts.iter().any(|f| f.key == "yaku:haitei"), "{}", last(&g).summary);
}

#[test]
fn houtei_ron_on_the_last_discard_and_no_calls() {
    let mut g = Pos {
        hands: [FA, "234m567m234p88p56s", FB, FC],
        rivers: ["4s", "", "", ""],
        live: Some(0),
        dump: [true, false, true, true],
        ..Pos::default()
    }
    .build();
    // The next seat could chi 4s with 5s 6s, but not the last discard.
    assert_eq!(g.legal_actions(1), [Action::Pass, Action::Ron]);
    play(&mut g, 1, "ron");
    assert!(last(&g).facts.iter().any(|f| f.key == "yaku:houtei"), "{}", last(&g).summary);
}

// ---------------------------------------------------------------- exhaustive draws

#[test]
fn exhaustive_draw_tenpai_payments() {
    let draw = |rules| {
        Pos {
            hands: [FA, "234m567m234p88p56s", FB, FC],
            live: Some(0),
            dump: [true, false, true, true],
            rules,
            ..Pos::default()
        }
        .build()
    };
    let g = draw(Rules::default());
    let r = &g.results()[0];
    assert!(has_fact(r, "exhaustive_draw"));
    assert_eq!(r.deltas, [-1000, 3000, -1000, -1000]);
    // The dealer was noten: the deal passes, with a counter.
    assert_eq!((g.dealer(), g.honba()), (1, 1));
    let g = draw(Rules { noten_penalty: false, ..Rules::default() });
    assert_eq!(g.results()[0].deltas, [0; 4]);
}

#[test]
fn nagashi_mangan() {
    // Seat 2 (not the dealer) discarded only terminals and honours, none called.
    let g = Pos { rivers: ["", "", "19m19p19s", ""], live: Some(0), dump: [true, true, false, true], ..Pos::default() }
        .build();
    let r = &g.results()[0];
    assert!(has_fact(r, "nagashi_mangan"), "{}", r.summary);
    assert_eq!(r.deltas, [-4000, -2000, 8000, -2000]);
}

// ---------------------------------------------------------------- the match

/// South 4 (the last hand), dealer seat 3, ending in an exhaustive draw with nobody tenpai.
fn last_hand(scores: [i64; 4], sticks: u32, rules: Rules) -> Riichi {
    Pos {
        live: Some(0),
        scores,
        sticks,
        round_wind: 1,
        kyoku: 3,
        phase: SetupPhase::Discarded { from: 3 },
        rules,
        ..Pos::default()
    }
    .build()
}

#[test]
fn west_extension_when_nobody_has_the_return_points() {
    let g = last_hand([25000; 4], 0, Rules::default());
    assert!(!g.is_over());
    assert_eq!((g.round_wind(), g.dealer()), (2, 0), "West 1 follows");
    let g = last_hand([25000; 4], 0, Rules { extension: false, ..Rules::default() });
    assert!(g.is_over());
}

#[test]
fn uma_oka_and_leftover_sticks_to_the_top() {
    let g = last_hand([40000, 30000, 20000, 8000], 2, Rules::default());
    assert!(g.is_over());
    assert_eq!(g.scores(), [42000, 30000, 20000, 8000]);
    assert_eq!(g.final_points(), [52000, 10000, -20000, -42000]);
    let r = last(&g);
    assert!(r.facts.iter().any(|f| f.key == "leftover_sticks" && f.seat == Some(0) && f.value == 2));
    // Sanmanten: the fourth pays the first, the third the second, their differences.
    let g = last_hand([40000, 30000, 20000, 8000], 2, Rules { sanmanten: true, ..Rules::default() });
    assert_eq!(g.final_points(), [12000 + 34000 + 20000, 10000, -20000, -22000 - 34000]);
}

#[test]
fn not_your_turn_in_a_claim_window() {
    let g = Pos { hands: [FA, "234m567m234p88p56s", FB, FC], rivers: ["4s", "", "", ""], ..Pos::default() }.build();
    let e = g.validate(2, &Action::Pass).unwrap_err();
    assert_eq!(e.code, ErrorCode::NotYourTurn);
}

/// The first hand of a seeded match is dealt exactly as docs/rules/riichi.md says, from the
/// streams it names (`riichi/wall/E1/0`, `riichi/dice/E1/0`): the wall, the break, the deal and
/// the dora indicator.
#[test]
fn the_first_hand_is_dealt_from_the_documented_streams() {
    let seed = crate::Seed::from_text("documented deal");
    let rules = Rules::default();
    let g = Riichi::new(rules.clone(), 4, Some(&seed)).unwrap();
    let mut ring = Riichi::tile_set(&rules);
    seed.stream("riichi/wall/E1/0").shuffle(&mut ring);
    let mut dice = seed.stream("riichi/dice/E1/0");
    let s = (dice.die(6) + dice.die(6)) as usize;
    // Seat 0 deals: the wall of seat s - 1 (mod 4) is broken after its s-th stack.
    let start = 34 * ((s + 3) % 4) + 2 * s;
    let live = |i: usize| ring[(start + i) % 136];
    for seat in 0..4usize {
        let mut want: Vec<Tile> = (0..3).flat_map(|r| (0..4).map(move |j| 16 * r + 4 * seat + j)).map(live).collect();
        want.push(live(48 + seat));
        if seat == 0 {
            want.push(live(52));
        }
        let mut got = g.hand(seat as Seat).to_vec();
        want.sort();
        got.sort();
        assert_eq!(got, want, "seat {seat}");
    }
    // The dora indicator: the top of the third stack of the dead wall, counted back from the break.
    assert_eq!(g.dora_indicators(), vec![ring[(start + 130) % 136]]);
}

#[test]
fn actions_encode_without_maps_chars_or_floats() {
    // Every variant of the riichi action enum (14 of them).
    crate::log::plain::assert_plain_records::<Action>(super::NOTATION_EXAMPLES);
}

// ---------------------------------------------------------------- the hand's end in the view

/// The view's hand end after the round that just ended.
fn hand_end(g: &Riichi) -> HandEnd {
    g.view().hand_end.expect("a hand has ended")
}

/// What each seat gained and lost over the payments of a hand's end.
fn paid(h: &HandEnd) -> Vec<i64> {
    let mut d = vec![0i64; 4];
    for t in &h.payments {
        if let Some(f) = t.from {
            d[usize::from(f)] -= t.points;
        }
        if let Some(to) = t.to {
            d[usize::from(to)] += t.points;
        }
    }
    d
}

#[test]
fn a_double_ron_shows_both_wins_and_who_paid_whom() {
    let g = double_ron(Rules::default(), [25000, 25000, 26000, 24000]);
    let h = hand_end(&g);
    assert_eq!((h.hand.as_str(), h.honba), ("E1", 2));
    let HandEndKind::Win { wins } = &h.how else { panic!("{h:?}") };
    // Settled in turn order from the discarder: seat 3 first, with the honba and the stick.
    assert_eq!(wins.iter().map(|w| w.seat).collect::<Vec<_>>(), [3, 1]);
    let w1 = &wins[1];
    assert_eq!((w1.from, w1.tile, w1.fu, w1.points), (Some(2), t!(4s), 30, 2000));
    assert_eq!(w1.hand, ts("234m567m234p88p56s"), "the winning tile is apart");
    let names: Vec<&str> = w1.yaku.iter().map(|y| y.name).collect();
    assert!(names.contains(&"tanyao") && names.contains(&"pinfu"), "{names:?}");
    assert_eq!(w1.han, w1.yaku.iter().map(|y| y.han).sum::<u32>());
    let t = |from, to, points| Transfer { from, to, points };
    assert_eq!(h.payments, [t(Some(2), Some(3), 1900), t(None, Some(3), 1000), t(Some(2), Some(1), 2000)]);
    assert_eq!(h.deltas, last(&g).deltas);
    assert_eq!(paid(&h), h.deltas);
    assert_eq!(h.scores, g.scores());
    assert!(h.ura_indicators.is_empty(), "no winner was in riichi");
    // Its text, as `paifu show --at` prints it.
    let text = h.to_string();
    assert!(text.contains("Seat 1 wins by ron on seat 2: 234567m23488p56s + 4s\n"), "{text}");
    assert!(
        text.contains("Payments: seat 2 -> seat 3 1900, the table -> seat 3 1000, seat 2 -> seat 1 2000\n"),
        "{text}"
    );
    assert!(
        text.contains("30 fu, 2000 points")
            && text.ends_with(&format!("Scores after the hand: {}\n", {
                let s: Vec<String> = g.scores().iter().map(|s| s.to_string()).collect();
                s.join(" ")
            })),
        "{text}"
    );
    // The JSON is additive: the new field is there once a hand has ended, tagged by its end.
    let json = serde_json::to_value(g.view()).unwrap();
    assert_eq!(json["hand_end"]["end"], "win");
    assert_eq!(json["hand_end"]["wins"][1]["tile"], "4s");
    assert_eq!(json["hand_end"]["payments"][1], serde_json::json!({"from": null, "to": 3, "points": 1000}));
}

#[test]
fn a_riichi_tsumo_reveals_the_ura_indicators_and_takes_the_deposit() {
    let mut g = Pos {
        hands: [FA, "234m567m234p88p56s4s", FB, FC],
        rivers: ["", "1z", "", ""],
        riichi: [false, true, false, false],
        phase: SetupPhase::Turn { seat: 1, drawn: Some(t!(4s)), rinshan: false },
        ..Pos::default()
    }
    .build();
    let ura = g.ura_shown()[..1].to_vec();
    let dora = g.dora_indicators();
    assert!(g.view().hand_end.is_none(), "no hand has ended yet");
    assert!(serde_json::to_value(g.view()).unwrap().get("hand_end").is_none());
    play(&mut g, 1, "tsumo");
    let h = hand_end(&g);
    assert_eq!((h.ura_indicators.clone(), h.dora_indicators.clone()), (ura.clone(), dora));
    assert!(h.to_string().contains(&format!("; ura dora indicators: {}\n", ura[0])), "{h}");
    let HandEndKind::Win { wins } = &h.how else { panic!("{h:?}") };
    assert_eq!((wins[0].from, wins[0].tile), (None, t!(4s)));
    assert_eq!(wins[0].hand.len(), 13, "the drawn winning tile is shown apart");
    assert!(wins[0].yaku.iter().any(|y| y.name == "riichi"), "{:?}", wins[0].yaku);
    // A non-dealer's tsumo: the dealer pays more than each other seat.
    let from_dealer = h.payments.iter().find(|t| t.from == Some(0)).unwrap().points;
    let from_other = h.payments.iter().find(|t| t.from == Some(2)).unwrap().points;
    assert!(from_dealer > from_other && h.payments.iter().all(|t| t.to == Some(1)), "{:?}", h.payments);
    assert_eq!(paid(&h), last(&g).deltas);
}

#[test]
fn an_exhaustive_draw_shows_the_tenpai_hands_and_the_noten_payments() {
    let g = Pos {
        hands: [FA, "234m567m234p88p56s", FB, FC],
        live: Some(0),
        dump: [true, false, true, true],
        ..Pos::default()
    }
    .build();
    let h = hand_end(&g);
    let HandEndKind::ExhaustiveDraw { tenpai, nagashi } = &h.how else { panic!("{h:?}") };
    assert_eq!((tenpai.len(), tenpai[0].seat, tenpai[0].hand.clone()), (1, 1, ts("234m567m234p88p56s")));
    assert!(nagashi.is_empty());
    let t = |from, points| Transfer { from: Some(from), to: Some(1), points };
    assert_eq!(h.payments, [t(0, 1000), t(2, 1000), t(3, 1000)]);
    assert_eq!(serde_json::to_value(&h).unwrap()["end"], "exhaustive_draw");
}

/// Over whole random games: every hand's end agrees with its round result (payments add up to
/// the score changes, the wins and their han and fu, the tenpai seats, the abort are the facts').
#[test]
fn every_hand_end_agrees_with_its_round_result() {
    let (mut wins, mut draws) = (0, 0);
    for i in 0..6 {
        // Random play that always wins when it may, so that the games see wins.
        let seed = crate::Seed::from_text(&format!("hand end {i}"));
        let mut g = Riichi::new(Rules::default(), 4, Some(&seed)).unwrap();
        let mut pick = seed.stream("test/pick");
        let mut before = g.scores();
        while !g.is_over() {
            let seat = g.to_act().iter().next().unwrap();
            let legal = g.legal_actions(seat);
            let action = match legal.iter().find(|a| matches!(a, Action::Tsumo | Action::Ron)) {
                Some(win) => win.clone(),
                None => legal[pick.below(legal.len() as u64) as usize].clone(),
            };
            let n = g.results().len();
            g.play_mut(seat, &action).unwrap();
            let Some(r) = g.results()[n..].last() else { continue };
            let h = hand_end(&g);
            assert_eq!((paid(&h), &h.deltas), (r.deltas.clone(), &r.deltas), "{}", r.summary);
            let after: Vec<i64> = before.iter().zip(&r.deltas).map(|(a, d)| a + d).collect();
            assert_eq!(h.scores, after, "{}", r.summary);
            before = after;
            let fact =
                |seat: Seat, key: &str| r.facts.iter().find(|f| f.seat == Some(seat) && f.key == key).map(|f| f.value);
            let seats_with =
                |key: &str| r.facts.iter().filter(|f| f.key == key).filter_map(|f| f.seat).collect::<Vec<Seat>>();
            match &h.how {
                HandEndKind::Win { wins: w } => {
                    wins += 1;
                    assert_eq!(w.iter().map(|w| w.seat).collect::<Vec<_>>(), seats_with("win"));
                    for w in w {
                        assert_eq!(fact(w.seat, "han"), Some(i64::from(w.han)), "{}", r.summary);
                        assert_eq!(fact(w.seat, "fu"), Some(i64::from(w.fu)), "{}", r.summary);
                        let tiles = w.hand.len() + 1 + w.melds.iter().map(|m| m.tiles.len().min(3)).sum::<usize>();
                        assert_eq!(tiles, 14, "{w:?}");
                    }
                }
                HandEndKind::ExhaustiveDraw { tenpai, .. } => {
                    draws += 1;
                    assert_eq!(tenpai.iter().map(|t| t.seat).collect::<Vec<_>>(), seats_with("tenpai"));
                }
                HandEndKind::AbortiveDraw { abort } => {
                    assert!(has_fact(r, &format!("abort:{}", abort.name())), "{}", r.summary);
                }
                HandEndKind::Chombo { seat } => assert_eq!(fact(*seat, "chombo"), Some(1), "{}", r.summary),
            }
        }
    }
    // Random play is seldom tenpai: the wins are checked on real games too
    // (tests/integration/riichi.rs reads every hand end of the real Tenhou games).
    assert!(draws > 0, "{wins} wins, {draws} draws");
}

#[test]
fn a_game_ends_at_its_length_bound() {
    let rules = Riichi::rules("standard", &Default::default()).unwrap();
    let g = Riichi::new(rules, 4, Some(&crate::Seed::from_text("riichi bound"))).unwrap();
    crate::game::ends_at_its_bound(g, |g| g.length = crate::game::Length(Riichi::MAX_RECORDS - 1));
}
