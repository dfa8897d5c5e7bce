//! An mjlog's deals checked against the walls its own seed makes.
//!
//! A Tenhou mjlog starts with `<SHUFFLE seed="mt19937ar-sha512-n288-base64,...">`, the seed from
//! which Tenhou's server made every round's wall and dice (shuffle.rs). When a record has one,
//! each round's wall is rebuilt from it, in play order, and every tile the record says the round
//! handed out must be the one at its place in that wall: the dice, each seat's deal, every draw,
//! every dead-wall draw, every dora indicator (the first and each kan's) and the ura indicators
//! of every win. The first that differs refuses the record with `wall_mismatch`, naming the round,
//! the tag, the tile the record has and the tile the seed puts there. So nothing the platform
//! dealt can be edited in an imported Tenhou game, as nothing can in a seeded Paifu game.
//!
//! The check proves that the deal is the one the seed makes; not that the seed was chosen fairly
//! (Tenhou draws it and reveals it only after the game).
//!
//! A record without a seed, or with a seed of another form, is not checked (and the log does not
//! say it was: [`META_KEY`]).

use super::meld::{Meld, TileId};
use super::read::{Positioned, Tag};
use super::shuffle::{Shuffle, Wall, TILES};
use crate::import::record::round_name;
use crate::import::ImportError;
use paifu_core::ErrorCode;
use quick_xml::events::Event;
use quick_xml::Reader;

/// The key of an imported log's header `meta` that says its deals were rebuilt from the source's
/// seed and matched; its value names the algorithm ([`super::shuffle::ALGORITHM`]). Only an import that checked
/// the wall writes it, and the validator's re-import of the embedded source must write it too.
pub const META_KEY: &str = paifu_core::cert::WALL_KEY;

/// How many of the seed's rounds are searched for the first round of an excerpt (a record that
/// does not start at its game's first hand). Real games have far fewer (a long South game has
/// about 20).
const EXCERPT_SEARCH: usize = 64;

/// Whether an import error is a `wall_mismatch`: a record whose seed does not make its deals,
/// which `paifu import` counts as an invalid game (exit 1), not as a file it cannot read.
pub fn is_wall_mismatch(e: &ImportError) -> bool {
    e.message.strip_prefix(ErrorCode::WallMismatch.as_str()).is_some_and(|rest| rest.starts_with(':'))
}

/// The `seed` of the record's `<SHUFFLE>` tag and the tag's byte offset, if it has one before
/// its first hand. The text has been read by `read::parse`, so it is well-formed XML.
fn seed_of(text: &str) -> Option<(u64, String)> {
    let mut reader = Reader::from_str(text);
    loop {
        let byte = reader.buffer_position();
        match reader.read_event() {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => match e.name().as_ref() {
                "SHUFFLE" => {
                    let seed = e.try_get_attribute("seed").ok().flatten()?;
                    return Some((byte, seed.value.to_string()));
                }
                "INIT" => return None,
                _ => {}
            },
            Ok(Event::Eof) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// A tile as messages show it: `5p (tile 53)`, red fives as `0p` when the game has them.
fn show(id: u8, red: bool) -> String {
    format!("{} (tile {id})", TileId(id).to_record(red).notation())
}

/// 1st, 2nd, 3rd, 4th, ...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The round being checked: its wall and how far the record has taken from it.
struct Round {
    wall: Wall,
    name: String,
    /// Draws from the live wall so far.
    draws: usize,
    /// Dead-wall draws so far.
    dead_draws: usize,
    /// Kan dora indicators so far.
    kan_doras: usize,
    /// Seats that declared a kan and have not made its dead-wall draw yet.
    kan_owed: [bool; 4],
}

/// The tags' names, for positions.
fn tag_name(t: &Tag) -> String {
    match t {
        Tag::Draw { seat, tile } => format!("{}{}", ["T", "U", "V", "W"][usize::from(*seat)], tile.0),
        Tag::Init { .. } => "INIT".into(),
        Tag::Dora { .. } => "DORA".into(),
        Tag::Agari { .. } => "AGARI".into(),
        _ => "?".into(),
    }
}

/// What differs in an `<INIT>` from the wall `w`, if anything: the dice, then each seat's deal from
/// the dealer on, then the dora indicator.
fn init_difference(
    w: &Wall,
    dice: [u8; 2],
    dora: TileId,
    dealer: u8,
    hands: &[Vec<TileId>; 4],
    red: bool,
) -> Option<String> {
    if dice != w.dice {
        return Some(format!(
            "the dice are {} and {} (seed=, 0-5 as Tenhou writes them), but the seed throws {} and {}",
            dice[0], dice[1], w.dice[0], w.dice[1]
        ));
    }
    for k in 0..4 {
        let seat = (usize::from(dealer) + k) % 4;
        let dealt: Vec<(usize, u8)> = (0..13).map(|i| (i, w.tiles[Wall::deal_position(k, i)])).collect();
        let held = &hands[seat];
        let missing = dealt.iter().find(|(_, t)| !held.iter().any(|h| h.0 == *t));
        let extra = held.iter().find(|h| !dealt.iter().any(|(_, t)| *t == h.0));
        if let Some(&(i, t)) = missing {
            let has = extra.map(|h| format!("holds {}, which the seed does not deal it, and ", show(h.0, red)));
            return Some(format!(
                "seat {seat}'s deal (hai{seat}) {}lacks {}: the seed deals it that tile as the {} of its 13 (wall \
                 position {})",
                has.unwrap_or_default(),
                show(t, red),
                ordinal(i + 1),
                Wall::deal_position(k, i)
            ));
        }
    }
    let at = Wall::dora_position(0).unwrap_or(5);
    (dora.0 != w.tiles[at]).then(|| {
        format!(
            "the dora indicator is {}, but the seed's wall has {} there (position {at})",
            show(dora.0, red),
            show(w.tiles[at], red)
        )
    })
}

/// A `wall_mismatch` error at a tag, in a round.
fn mismatch(p: &Positioned, round: &str, message: String) -> ImportError {
    ImportError::new(
        format!("<{}> at byte {}", tag_name(&p.tag), p.byte),
        format!("{}: {message}", ErrorCode::WallMismatch),
    )
    .in_round(round)
}

/// Checks the tags of an mjlog against the walls of its seed (the module's doc). `Ok(true)` when
/// the record has a seed of [`super::shuffle::ALGORITHM`] and every tile matches, `Ok(false)` when it has no such
/// seed (nothing is checked). An `excerpt` (a record that need not start at its game's first
/// hand) may start at any of the seed's first rounds; a whole game starts at its first.
pub(crate) fn check(text: &str, tags: &[Positioned], excerpt: bool) -> Result<bool, ImportError> {
    let Some((byte, seed)) = seed_of(text) else { return Ok(false) };
    let mut shuffle = match Shuffle::from_seed(&seed) {
        Ok(Some(s)) => s,
        Ok(None) => return Ok(false),
        Err(e) => return Err(ImportError::new(format!("<SHUFFLE> at byte {byte}"), e.to_string())),
    };
    let mut red = true;
    let mut round: Option<Round> = None;
    for p in tags {
        match &p.tag {
            Tag::Go { rule } => red = rule & 0x02 == 0,
            Tag::Init { kyoku, honba, dice, dora, dealer, hands, .. } => {
                let name = round_name(*kyoku, *honba);
                let differs = |w: &Wall| init_difference(w, *dice, *dora, *dealer, hands, red);
                let mut wall = shuffle.next_wall();
                if round.is_none() && excerpt && differs(&wall).is_some() {
                    // An excerpt's first hand may be any of its game's: look for it further on.
                    if let Ok(Some(mut ahead)) = Shuffle::from_seed(&seed) {
                        for _ in 0..EXCERPT_SEARCH {
                            let w = ahead.next_wall();
                            if differs(&w).is_none() {
                                wall = w;
                                shuffle = ahead;
                                break;
                            }
                        }
                    }
                }
                if let Some(why) = differs(&wall) {
                    let whole = if round.is_none() && excerpt {
                        format!(" (nor is it any of the seed's first {EXCERPT_SEARCH} rounds)")
                    } else {
                        String::new()
                    };
                    return Err(mismatch(p, &name, format!("{why}{whole}")));
                }
                round = Some(Round { wall, name, draws: 0, dead_draws: 0, kan_doras: 0, kan_owed: [false; 4] });
            }
            tag => {
                let Some(r) = round.as_mut() else { continue };
                match tag {
                    Tag::Draw { seat, tile } => {
                        let s = usize::from(*seat);
                        let (at, what) = if std::mem::take(&mut r.kan_owed[s]) {
                            let k = r.dead_draws;
                            r.dead_draws += 1;
                            (Wall::dead_draw_position(k), format!("the {} dead-wall draw", ordinal(k + 1)))
                        } else {
                            let n = r.draws;
                            r.draws += 1;
                            (Wall::draw_position(n, r.dead_draws), format!("the round's {} draw", ordinal(n + 1)))
                        };
                        let Some(at) = at else {
                            return Err(mismatch(
                                p,
                                &r.name,
                                format!(
                                    "seat {s} draws {}, {what}: the seed's wall has no such tile",
                                    show(tile.0, red)
                                ),
                            ));
                        };
                        if tile.0 != r.wall.tiles[at] {
                            return Err(mismatch(
                                p,
                                &r.name,
                                format!(
                                    "seat {s} draws {}, but {what} is {} in the seed's wall (position {at})",
                                    show(tile.0, red),
                                    show(r.wall.tiles[at], red)
                                ),
                            ));
                        }
                    }
                    Tag::Call { seat, meld: Meld::ClosedKan { .. } | Meld::AddedKan { .. } | Meld::OpenKan { .. } } => {
                        r.kan_owed[usize::from(*seat)] = true;
                    }
                    Tag::Dora { tile } => {
                        r.kan_doras += 1;
                        let k = r.kan_doras;
                        let Some(at) = Wall::dora_position(k) else {
                            return Err(mismatch(
                                p,
                                &r.name,
                                format!(
                                    "a {} kan dora indicator, {}: a round has at most 4",
                                    ordinal(k),
                                    show(tile.0, red)
                                ),
                            ));
                        };
                        if tile.0 != r.wall.tiles[at] {
                            return Err(mismatch(
                                p,
                                &r.name,
                                format!(
                                    "the {} kan dora indicator is {}, but the seed's wall has {} there (position {at})",
                                    ordinal(k),
                                    show(tile.0, red),
                                    show(r.wall.tiles[at], red)
                                ),
                            ));
                        }
                    }
                    Tag::Agari { ura, .. } => {
                        for (k, u) in ura.iter().enumerate() {
                            let at = Wall::ura_position(k).filter(|&at| at < TILES);
                            let differs = at.is_none_or(|at| u.0 != r.wall.tiles[at]);
                            if differs {
                                let there = at.map_or("no such indicator".into(), |at| {
                                    format!("{} there (position {at})", show(r.wall.tiles[at], red))
                                });
                                return Err(mismatch(
                                    p,
                                    &r.name,
                                    format!(
                                        "the {} ura indicator (doraHaiUra) is {}, but the seed's wall has {there}",
                                        ordinal(k + 1),
                                        show(u.0, red)
                                    ),
                                ));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::super::read::parse;
    use super::super::shuffle::tests::VALIDATION_SEED;
    use super::*;

    /// The first `n` walls of the validation seed.
    fn walls(n: usize) -> Vec<Wall> {
        let mut s = Shuffle::from_seed(VALIDATION_SEED).unwrap().unwrap();
        (0..n).map(|_| s.next_wall()).collect()
    }

    /// The `<INIT>` of round `kyoku` (dealer `kyoku % 4`) dealt from `w`.
    fn init(w: &Wall, kyoku: u8) -> String {
        let dealer = usize::from(kyoku % 4);
        let mut hands: [Vec<String>; 4] = Default::default();
        for k in 0..4 {
            hands[(dealer + k) % 4] = (0..13).map(|i| w.tiles[Wall::deal_position(k, i)].to_string()).collect();
        }
        format!(
            r#"<INIT seed="{kyoku},0,0,{},{},{}" ten="250,250,250,250" oya="{dealer}" hai0="{}" hai1="{}" hai2="{}" hai3="{}"/>"#,
            w.dice[0],
            w.dice[1],
            w.tiles[5],
            hands[0].join(","),
            hands[1].join(","),
            hands[2].join(","),
            hands[3].join(",")
        )
    }

    /// A record with this seed and these rounds.
    fn record(seed: &str, rounds: &[String]) -> String {
        format!(
            r#"<mjloggm ver="2.3"><SHUFFLE seed="{seed}" ref=""/><GO type="169" lobby="0"/><UN n0="A" n1="B" n2="C" n3="D"/><TAIKYOKU oya="0"/>{}</mjloggm>"#,
            rounds.concat()
        )
    }

    const END: &str = r#"<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0"/>"#;

    /// A round from wall `w` (dealer seat 0) in which each kind of tile a round hands out is
    /// shown: three draws, a closed kan by seat 2 with its kan dora indicator and dead-wall draw,
    /// a draw from the live wall after it, and a win with two ura indicators.
    fn full_round(w: &Wall) -> String {
        let t = |p: usize| w.tiles[p];
        format!(
            r#"{}<T{}/><D{}/><U{}/><E{}/><V{}/><N who="2" m="{}"/><DORA hai="{}"/><V{}/><F{}/><W{}/><AGARI ba="0,0" hai="1" ten="30,1000,0" yaku="1,1" doraHai="{}" doraHaiUra="{},{}" who="3" fromWho="3" sc="250,-3,250,-3,250,-4,250,10"/>"#,
            init(w, 0),
            t(83),
            t(83),
            t(82),
            t(82),
            t(81),
            // A closed kan (of 1m: the tiles named do not matter to the wall).
            0,
            t(7),
            t(1),
            t(1),
            t(80),
            t(5),
            t(4),
            t(6)
        )
    }

    fn checked(text: &str, excerpt: bool) -> Result<bool, ImportError> {
        check(text, &parse(text).unwrap(), excerpt)
    }

    #[test]
    fn a_round_dealt_by_its_seed_passes() {
        let w = walls(1);
        assert_eq!(checked(&record(VALIDATION_SEED, &[full_round(&w[0])]), false), Ok(true));
    }

    #[test]
    fn every_tile_the_round_hands_out_is_checked() {
        let w = &walls(1)[0];
        let good = full_round(w);
        let t = |p: usize| w.tiles[p];
        let dice = format!("0,0,0,{},{},", w.dice[0], w.dice[1]);
        // Each edit swaps one tile (or the dice) for another the wall holds; each is refused at its
        // tag with what the seed puts there.
        let edits: Vec<(String, String, &str)> = vec![
            (dice.clone(), format!("0,0,0,{},{},", (w.dice[0] + 1) % 6, w.dice[1]), "the dice are"),
            (format!("hai2=\"{}", t(127)), format!("hai2=\"{}", t(60)), "seat 2's deal (hai2)"),
            (format!("{dice}{}\"", t(5)), format!("{dice}{}\"", t(60)), "the dora indicator is"),
            (format!("<T{}/>", t(83)), format!("<T{}/>", t(60)), "the round's 1st draw"),
            (format!("<V{}/><F", t(1)), format!("<V{}/><F", t(0)), "the 1st dead-wall draw"),
            (format!("<DORA hai=\"{}\"", t(7)), format!("<DORA hai=\"{}\"", t(9)), "the 1st kan dora indicator"),
            (format!("<W{}/>", t(80)), format!("<W{}/>", t(79)), "the round's 4th draw"),
            (format!("doraHaiUra=\"{},{}\"", t(4), t(6)), format!("doraHaiUra=\"{},{}\"", t(4), t(8)), "the 2nd ura"),
        ];
        for (from, to, says) in edits {
            assert!(good.contains(&from), "{from}");
            let bad = record(VALIDATION_SEED, &[good.replacen(&from, &to, 1)]);
            let e = checked(&bad, false).unwrap_err();
            assert!(is_wall_mismatch(&e), "{e}");
            assert!(e.message.contains(says), "{says}: {e}");
            assert_eq!(e.round.as_deref(), Some("East 1, 0 honba"), "{e}");
        }
    }

    #[test]
    fn a_mismatch_names_the_tag_the_tile_and_the_seeds_tile() {
        let w = &walls(1)[0];
        let good = full_round(w);
        let bad = record(VALIDATION_SEED, &[good.replacen(&format!("<T{}/>", w.tiles[83]), "<T36/>", 1)]);
        let e = checked(&bad, false).unwrap_err();
        let at = bad.find("<T36/>").unwrap();
        assert_eq!(e.position, format!("<T36> at byte {at}"));
        assert_eq!(
            e.message,
            "wall_mismatch: seat 0 draws 1p (tile 36), but the round's 1st draw is 9m (tile 33) in the seed's wall \
             (position 83)"
        );
        // A deal that lacks a tile names both the tile it has and the one the seed deals.
        let hand = good.replacen(&format!("hai2=\"{}", w.tiles[127]), "hai2=\"36", 1);
        let e = checked(&record(VALIDATION_SEED, &[hand]), false).unwrap_err();
        assert!(
            e.message.contains("holds 1p (tile 36), which the seed does not deal it, and lacks 4s (tile 85)"),
            "{e}"
        );
    }

    #[test]
    fn rounds_take_the_seeds_walls_in_turn_and_the_dealer_takes_the_first_tiles() {
        let w = walls(3);
        // East 2: dealer seat 1, the second wall.
        let second = format!("{}{END}", init(&w[1], 1));
        assert_eq!(checked(&record(VALIDATION_SEED, &[full_round(&w[0]), second.clone()]), false), Ok(true));
        // The same rounds in the other order, or a round skipped, are not what the seed deals.
        let e = checked(&record(VALIDATION_SEED, &[second.clone(), full_round(&w[0])]), false).unwrap_err();
        assert!(is_wall_mismatch(&e) && e.round.as_deref() == Some("East 2, 0 honba"), "{e}");
        let third = format!("{}{END}", init(&w[2], 1));
        let e = checked(&record(VALIDATION_SEED, &[full_round(&w[0]), third.clone()]), false).unwrap_err();
        assert!(is_wall_mismatch(&e), "{e}");
        // An excerpt may start at a later round of the seed, and then goes on in turn.
        assert_eq!(checked(&record(VALIDATION_SEED, &[second.clone(), third.clone()]), true), Ok(true));
        assert!(checked(&record(VALIDATION_SEED, &[third, second]), true).is_err());
        // Dealt as if seat 0 were the dealer, East 2's wall does not match.
        let wrong_dealer =
            format!("{}{END}", init(&w[1], 0)).replace("seed=\"0,", "seed=\"1,").replace("oya=\"0\"", "oya=\"1\"");
        assert!(checked(&record(VALIDATION_SEED, &[full_round(&w[0]), wrong_dealer]), false).is_err());
    }

    #[test]
    fn a_record_without_the_seed_is_not_checked_and_a_damaged_seed_is_refused() {
        let w = walls(1);
        let round = full_round(&w[0]);
        assert_eq!(checked(&record("", std::slice::from_ref(&round)), false), Ok(false));
        assert_eq!(checked(&record("mt19937ar-sha512-n288,0123", std::slice::from_ref(&round)), false), Ok(false));
        let no_tag = record(VALIDATION_SEED, std::slice::from_ref(&round))
            .replace(&format!("<SHUFFLE seed=\"{VALIDATION_SEED}\" ref=\"\"/>"), "");
        assert_eq!(checked(&no_tag, false), Ok(false));
        let e = checked(&record("mt19937ar-sha512-n288-base64,AAAA", &[round]), false).unwrap_err();
        assert!(
            !is_wall_mismatch(&e) && e.position.starts_with("<SHUFFLE> at byte") && e.message.contains("2496"),
            "{e}"
        );
    }

    #[test]
    fn more_draws_or_kans_than_the_wall_holds_are_refused() {
        let w = &walls(1)[0];
        // A fifth kan dora indicator.
        let kan = r#"<N who="0" m="0"/>"#;
        let mut round = init(w, 0);
        for k in 0..5 {
            round += &format!(r#"{kan}<DORA hai="{}"/>"#, w.tiles[7 + 2 * k.min(3)]);
        }
        let e = checked(&record(VALIDATION_SEED, &[round + END]), false).unwrap_err();
        assert!(is_wall_mismatch(&e) && e.message.contains("at most 4"), "{e}");
        // A 71st draw.
        let mut round = init(w, 0);
        for n in 0..71 {
            let seat = ["T", "U", "V", "W"][n % 4];
            round += &format!("<{seat}{}/>", w.tiles[83usize.saturating_sub(n).max(14)]);
        }
        let e = checked(&record(VALIDATION_SEED, &[round + END]), false).unwrap_err();
        assert!(
            is_wall_mismatch(&e) && e.message.contains("the round's 71st draw") && e.message.contains("no such tile"),
            "{e}"
        );
    }

    #[test]
    fn only_a_wall_mismatch_is_one() {
        let e = |m: &str| ImportError::new("", m);
        assert!(is_wall_mismatch(&e("wall_mismatch: seat 0 draws")));
        assert!(!is_wall_mismatch(&e("wall_mismatched")));
        assert!(!is_wall_mismatch(&e("claim_mismatch: x")));
        assert_eq!(ordinal(1) + &ordinal(2) + &ordinal(3) + &ordinal(11) + &ordinal(22), "1st2nd3rd11th22nd");
    }
}
