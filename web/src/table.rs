//! A mahjong table as a player sees it, in SVG: four seats around the centre, the chosen seat
//! at the bottom and the others in turn order to its right, across and to its left. Each seat
//! has its hand (the tile just drawn apart; face down when the viewer follows another seat and
//! hides what it did not know), its melds (the claimed tile turned toward the seat it came from,
//! a closed kong with two tiles face down), its flowers, its discards in rows of six (the riichi
//! tile turned, tiles discarded as drawn shaded, tiles claimed by others marked), and on its side
//! of the centre its wind, name, score and riichi stick. The centre holds the hand's name, the
//! counters, the tiles left in the wall and the indicators.
//!
//! Riichi, MCR and Hungarian mahjong are drawn the same way: each view becomes a [`Table`].

use crate::tiles::{flower_at, Look, Pose, Row, H, W};
use maud::{html, PreEscaped};
use paifu_core::mahjong::{Flower, MeldKind, Tile};
use paifu_core::riichi::{self, MeldView};
use paifu_core::{hungarian, mcr, Seat};

/// The picture's size and centre.
const SIZE: i32 = 760;
const C: i32 = SIZE / 2;
/// Half the centre box.
const BOX: i32 = 110;
/// Where a seat's hand stands (its bottom edge) and starts, and where its melds end.
const HAND_BOTTOM: i32 = 732;
const HAND_X: i32 = 110;
const MELDS_END: i32 = 650;
/// The first row of discards: its top, and where a row starts (six tiles centred).
const RIVER_TOP: i32 = C + BOX + 4;
const RIVER_X: i32 = C - 3 * W;
const ROW_STEP: i32 = H + 1;

/// One discard as drawn.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Discard {
    pub tile: Tile,
    pub riichi: bool,
    pub look: Look,
}

/// One seat as drawn.
#[derive(Clone, Debug)]
pub(crate) struct TableSeat {
    pub seat: Seat,
    pub name: String,
    pub wind: char,
    pub score: i64,
    /// The concealed tiles, sorted.
    pub hand: Vec<Tile>,
    /// Concealed tiles not shown: so many drawn face down.
    pub hidden: Option<usize>,
    pub melds: Vec<MeldView>,
    pub flowers: Vec<Flower>,
    pub discards: Vec<Discard>,
    pub riichi: bool,
    pub acting: bool,
}

/// What the claim window is open on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claimable {
    /// The last discard of this seat.
    Discard(Seat),
    /// The tile added to this seat's meld (robbing the kong).
    Kong(Seat, usize),
}

/// A whole table, any ruleset.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    /// `East 1`.
    pub title: String,
    /// Under the title: `1 honba · 0 riichi sticks`.
    pub counters: String,
    pub wall: usize,
    /// The tile the seat on turn has just drawn (drawn apart in its hand).
    pub drawn: Option<Tile>,
    pub indicators: Vec<Tile>,
    /// What the indicators are: `dora indicator`.
    pub indicator_label: &'static str,
    pub claim: Option<Claimable>,
    pub seats: Vec<TableSeat>,
}

/// "East 3" for `E3`.
pub(crate) fn hand_name(hand: &str) -> String {
    let mut c = hand.chars();
    let wind = match c.next() {
        Some(w) => wind_name(w),
        None => return hand.to_owned(),
    };
    if wind.len() == 1 {
        return hand.to_owned();
    }
    format!("{wind} {}", c.as_str())
}

/// `E` East.
pub(crate) fn wind_name(w: char) -> &'static str {
    match w {
        'E' => "East",
        'S' => "South",
        'W' => "West",
        'N' => "North",
        _ => "?",
    }
}

/// "East 3, 1 honba".
pub(crate) fn hand_title(hand: &str, honba: u32) -> String {
    format!("{}, {honba} honba", hand_name(hand))
}

/// A wind letter as its character: `E` 東.
pub(crate) fn wind_char(w: char) -> char {
    match w {
        'E' => '東',
        'S' => '南',
        'W' => '西',
        'N' => '北',
        c => c,
    }
}

/// Where a seat sits as seen from `bottom`: 0 bottom, 1 right, 2 across, 3 left.
pub(crate) fn place(seat: Seat, bottom: Seat) -> u8 {
    (seat + 4 - bottom % 4) % 4
}

/// The outline of the tile that may be claimed.
fn outline(svg: &mut String, x: i32, y: i32, w: i32, h: i32) {
    let r = html! {
        rect.claimable x=(x) y=(y) width=(w) height=(h) rx="3" fill="none" stroke="#f2a900" stroke-width="3" {}
    };
    svg.push_str(&r.into_string());
}

/// The kong whose tile a riichi claim window is open on (robbing a kan, chankan): a kong of
/// the claimed tile's kind among the declarer's melds. No discard of that kind can be the
/// claimed tile then, as all four copies are in the kong.
pub(crate) fn robbed_kong(v: &riichi::View) -> Option<usize> {
    let c = v.claim.as_ref()?;
    let p = v.players.iter().find(|p| p.seat == c.from)?;
    kong_of(&p.melds, c.tile)
}

fn kong_of(melds: &[MeldView], tile: Tile) -> Option<usize> {
    melds.iter().position(|m| {
        matches!(m.kind, MeldKind::AddedKong | MeldKind::ConcealedKong)
            && m.tiles.first().is_some_and(|t| t.kind() == tile.kind())
    })
}

/// Draws a meld from its right end leftwards, answering its left end. The claimed tile lies
/// sideways at the side of the seat it came from: left, middle or right. `robbed`: the tile
/// added to it may be claimed (outlined).
fn meld(svg: &mut String, m: &MeldView, owner: Seat, right: i32, robbed: bool) -> i32 {
    let mut tiles: Vec<Tile> = m.tiles.clone();
    let (pose_of, stacked): (Vec<Pose>, Option<Tile>) = match (m.kind, m.called, m.from) {
        (MeldKind::ConcealedKong, _, _) => (vec![Pose::Down, Pose::Up, Pose::Up, Pose::Down], None),
        (kind, Some(called), Some(from)) => {
            if let Some(i) = tiles.iter().position(|&t| t == called) {
                tiles.remove(i);
            }
            // An added kan's fourth tile lies on the claimed one.
            let added = (kind == MeldKind::AddedKong).then(|| tiles.pop()).flatten();
            let at = match place(from, owner) {
                3 => 0,
                2 => 1,
                _ => tiles.len(),
            };
            tiles.insert(at, called);
            let poses = (0..tiles.len()).map(|i| if i == at { Pose::Side } else { Pose::Up }).collect();
            (poses, added)
        }
        _ => (vec![Pose::Up; tiles.len()], None),
    };
    let width: i32 = pose_of.iter().map(|&p| if p == Pose::Side { H } else { W }).sum();
    let left = right - width;
    let mut row = Row::new(left, HAND_BOTTOM);
    let mut robbed_at = None;
    for (&t, &p) in tiles.iter().zip(&pose_of) {
        row.push(t, p, Look::PLAIN);
        if p == Pose::Side {
            if let Some(a) = stacked {
                row.stack(a);
                robbed_at = Some((row.x - H, HAND_BOTTOM - 2 * W, H, W));
            }
        }
    }
    svg.push_str(&row.svg);
    if robbed {
        let (x, y, w, h) = robbed_at.unwrap_or((left, HAND_BOTTOM - H, width, H));
        outline(svg, x, y, w, h);
    }
    left
}

/// One seat's tiles, drawn as the bottom seat; the caller turns them into place.
fn seat_tiles(t: &Table, p: &TableSeat) -> String {
    let mut svg = String::new();
    // The discards in rows of six; the claim window's tile outlined: the last discard, or the
    // tile added to a kong that may be robbed.
    let claimable = (t.claim == Some(Claimable::Discard(p.seat))).then(|| p.discards.len().saturating_sub(1));
    for (r, chunk) in p.discards.chunks(6).enumerate() {
        let mut row = Row::new(RIVER_X, RIVER_TOP + r as i32 * ROW_STEP + H);
        for (i, d) in chunk.iter().enumerate() {
            let x = row.x;
            let pose = if d.riichi { Pose::Side } else { Pose::Up };
            row.push(d.tile, pose, d.look);
            if claimable == Some(r * 6 + i) {
                let (w, h) = if d.riichi { (H, W) } else { (W, H) };
                outline(&mut row.svg, x, row.bottom - h, w, h);
            }
        }
        svg.push_str(&row.svg);
    }
    // The flowers, in the corner to the right of the river.
    if !p.flowers.is_empty() {
        let flowers = html! {
            g.flowers transform={ "translate(" (C + 3 * W + 8) " " (RIVER_TOP + 2) ") scale(0.75)" } {
                @for (i, &f) in p.flowers.iter().enumerate() {
                    (PreEscaped(flower_at(f, (i as i32 % 4) * W, (i as i32 / 4) * (H + 2))))
                }
            }
        };
        svg.push_str(&flowers.into_string());
    }
    // The hand, the tile just drawn apart (face down when hidden); the melds from the right.
    let mut hand = p.hand.clone();
    let drawn = t.drawn.filter(|_| p.acting).and_then(|d| {
        let i = hand.iter().rposition(|&x| x == d)?;
        Some(hand.remove(i))
    });
    let mut row = Row::new(HAND_X, HAND_BOTTOM);
    for &x in &hand {
        row.push(x, Pose::Up, Look::PLAIN);
    }
    for _ in 0..p.hidden.unwrap_or(0) {
        row.push(Tile::kind_tile(0), Pose::Down, Look::PLAIN);
    }
    if let Some(d) = drawn {
        row.gap(8);
        row.push(d, Pose::Up, Look::PLAIN);
    }
    svg.push_str(&row.svg);
    let mut right = MELDS_END;
    for (i, m) in p.melds.iter().enumerate() {
        right = meld(&mut svg, m, p.seat, right, t.claim == Some(Claimable::Kong(p.seat, i))) - 6;
    }
    // Its side of the centre: riichi stick, wind and name, score.
    let bottom = C + BOX;
    if p.riichi {
        let stick = html! {
            g.stick {
                title { "riichi" }
                rect x=(C - 40) y=(bottom - 48) width="80" height="6" rx="3" fill="#fff" stroke="#333" {}
                circle cx=(C) cy=(bottom - 45) r="2" fill="#d91e18" {}
            }
        };
        svg.push_str(&stick.into_string());
    }
    let name: String = p.name.chars().take(16).collect();
    let label = html! {
        text x=(C) y=(bottom - 24) font-size="14" text-anchor="middle" fill=(if p.acting { "#ffd54a" } else { "#e8efe9" })
            font-weight=[p.acting.then_some("700")] { (wind_char(p.wind)) " " (name) }
        text.score x=(C) y=(bottom - 7) font-size="15" text-anchor="middle" fill="#fff" font-weight="700" { (p.score) }
    };
    svg + &label.into_string()
}

/// The whole table, `bottom` the seat drawn at the bottom.
pub(crate) fn draw(t: &Table, bottom: Seat) -> String {
    let n = t.indicators.len();
    let scale = 0.8;
    let width = (f64::from(n as i32 * W) * scale) as i32;
    let mut dora = Row::new(0, H);
    for &x in &t.indicators {
        dora.push(x, Pose::Up, Look::PLAIN);
    }
    html! {
        svg.table xmlns="http://www.w3.org/2000/svg" viewBox={ "0 0 " (SIZE) " " (SIZE) } role="img"
            aria-labelledby="table-title" font-family="sans-serif" {
            title #table-title { "The table: " (t.title) "; " (t.wall) " tiles left in the wall" }
            rect width=(SIZE) height=(SIZE) rx="14" fill="#2e6b4f" {}
            rect x=(C - BOX) y=(C - BOX) width=(2 * BOX) height=(2 * BOX) rx="8" fill="#1f4d39" stroke="#8fb8a0" {}
            @for p in &t.seats {
                g.seat-tiles data-seat=(p.seat) transform={ "rotate(" (-90 * i32::from(place(p.seat, bottom))) " " (C) " " (C) ")" } {
                    (PreEscaped(seat_tiles(t, p)))
                }
            }
            // The centre: the hand, the counters, the wall, the indicators.
            text #hand-name x=(C) y=(C - 36) font-size="20" text-anchor="middle" fill="#fff" font-weight="700" { (t.title) }
            text x=(C) y=(C - 19) font-size="12" text-anchor="middle" fill="#e8efe9" { (t.counters) }
            text x=(C) y=(C + 56) font-size="12" text-anchor="middle" fill="#e8efe9" { (t.wall) " tiles left" }
            @if n > 0 {
                g.dora transform={ "translate(" (C - width / 2) " " (C - 10) ") scale(" (scale) ")" } {
                    title { (t.indicator_label) "s" }
                    (PreEscaped(&dora.svg))
                }
                text #dora-label x=(C) y=(C + 32) font-size="12" text-anchor="middle" fill="#ffd54a" {
                    (t.indicator_label) @if n > 1 { "s" }
                }
            }
        }
    }
    .into_string()
}

fn name_of(name: &Option<String>, seat: Seat) -> String {
    name.clone().unwrap_or_else(|| format!("seat {seat}"))
}

/// A riichi position as a table.
pub(crate) fn riichi(v: &riichi::View) -> Table {
    let robbed = robbed_kong(v);
    let claim = v.claim.as_ref().map(|c| match robbed {
        Some(i) => Claimable::Kong(c.from, i),
        None => Claimable::Discard(c.from),
    });
    let on_turn = if v.claim.is_none() { v.to_act.first().copied() } else { None };
    Table {
        title: hand_name(&v.hand),
        counters: format!(
            "{} honba · {} riichi stick{}",
            v.honba,
            v.riichi_sticks,
            if v.riichi_sticks == 1 { "" } else { "s" }
        ),
        wall: v.wall,
        drawn: v.drawn,
        indicators: v.dora_indicators.clone(),
        indicator_label: "dora indicator",
        claim,
        seats: v
            .players
            .iter()
            .map(|p| TableSeat {
                seat: p.seat,
                name: name_of(&p.name, p.seat),
                wind: p.wind,
                score: p.score,
                hand: p.hand.clone(),
                hidden: p.hidden,
                melds: p.melds.clone(),
                flowers: vec![],
                discards: p
                    .discards
                    .iter()
                    .map(|d| Discard {
                        tile: d.tile,
                        riichi: d.riichi,
                        look: Look { called: d.called, tsumogiri: d.tsumogiri },
                    })
                    .collect(),
                riichi: p.riichi,
                acting: on_turn == Some(p.seat) || (v.claim.is_some() && v.to_act.contains(&p.seat)),
            })
            .collect(),
    }
}

/// A claimed meld of MCR or Hungarian as riichi's melds are drawn: a pung or kong taken from a
/// discard has its claimed tile turned toward the seat it came from (a chow, always from the
/// left, is drawn upright: which of its tiles was claimed is not recorded).
fn other_meld(kind: MeldKind, tiles: &[Tile], from: Option<Seat>) -> MeldView {
    let called = match kind {
        MeldKind::Pung | MeldKind::ClaimedKong | MeldKind::AddedKong => from.and(tiles.first().copied()),
        _ => None,
    };
    MeldView { kind, tiles: tiles.to_vec(), called, from: called.and(from) }
}

/// An MCR position as a table.
pub(crate) fn mcr(v: &mcr::View) -> Table {
    let claim = v.claim.as_ref().map(|c| {
        let p = v.players.iter().find(|p| p.seat == c.from);
        let melds: Vec<MeldView> =
            p.map(|p| p.melds.iter().map(|m| other_meld(m.kind, &m.tiles, m.from)).collect()).unwrap_or_default();
        match kong_of(&melds, c.tile).filter(|_| c.robbing) {
            Some(i) => Claimable::Kong(c.from, i),
            None => Claimable::Discard(c.from),
        }
    });
    let on_turn = if v.claim.is_none() { v.to_act.first().copied() } else { None };
    Table {
        title: format!("{} wind, hand {}", wind_name(v.round_wind), v.hand),
        counters: format!("hand {} of {}", v.hand, v.hands),
        wall: v.wall,
        drawn: v.drawn,
        indicators: vec![],
        indicator_label: "",
        claim,
        seats: v
            .players
            .iter()
            .map(|p| TableSeat {
                seat: p.seat,
                name: name_of(&p.name, p.seat),
                wind: p.wind,
                score: p.score,
                hand: p.hand.clone(),
                hidden: p.hidden,
                melds: p.melds.iter().map(|m| other_meld(m.kind, &m.tiles, m.from)).collect(),
                flowers: p.flowers.clone(),
                discards: p.discards.iter().map(|&tile| Discard { tile, riichi: false, look: Look::PLAIN }).collect(),
                riichi: false,
                acting: on_turn == Some(p.seat) || (v.claim.is_some() && v.to_act.contains(&p.seat)),
            })
            .collect(),
    }
}

/// A Hungarian position as a table.
pub(crate) fn hungarian(v: &hungarian::View) -> Table {
    let on_turn = if v.claim.is_none() { v.to_act.first().copied() } else { None };
    Table {
        title: format!("{} wind, hand {}", wind_name(v.prevailing), v.hand),
        counters: format!("{} loose tile{} drawn", v.loose_drawn, if v.loose_drawn == 1 { "" } else { "s" }),
        wall: v.wall,
        drawn: v.drawn,
        indicators: vec![],
        indicator_label: "",
        claim: v.claim.as_ref().map(|c| Claimable::Discard(c.from)),
        seats: v
            .players
            .iter()
            .map(|p| TableSeat {
                seat: p.seat,
                name: name_of(&p.name, p.seat),
                wind: p.wind,
                score: p.score,
                hand: p.hand.clone(),
                hidden: p.hidden,
                melds: p
                    .melds
                    .iter()
                    .map(|m| {
                        let kind = if m.concealed { MeldKind::ConcealedKong } else { m.kind };
                        other_meld(kind, &m.tiles, m.from)
                    })
                    .collect(),
                flowers: p.flowers.clone(),
                discards: p
                    .discards
                    .iter()
                    .map(|d| Discard { tile: d.tile, riichi: false, look: Look { called: d.called, tsumogiri: false } })
                    .collect(),
                riichi: false,
                acting: on_turn == Some(p.seat) || (v.claim.is_some() && v.to_act.contains(&p.seat)),
            })
            .collect(),
    }
}

/// The riichi table, `bottom` the seat drawn at the bottom.
pub(crate) fn riichi_table(v: &riichi::View, bottom: Seat) -> String {
    draw(&riichi(v), bottom)
}

#[cfg(test)]
mod tests {
    use super::*;
    use paifu_core::riichi::{ClaimView, DiscardView};

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    fn meld_view(kind: MeldKind, tiles: &str, called: Option<&str>, from: Option<Seat>) -> MeldView {
        let tiles = paifu_core::mahjong::parse_tiles(tiles).unwrap();
        MeldView { kind, tiles, called: called.map(t), from }
    }

    /// The tiles of a meld drawn for seat 0, in order, with their poses.
    fn drawn(m: &MeldView) -> Vec<(String, bool)> {
        let mut svg = String::new();
        meld(&mut svg, m, 0, 600, false);
        svg.split("<g class=\"")
            .skip(1)
            .map(|g| {
                let label = g.split("<title>").nth(1).and_then(|x| x.split('<').next()).unwrap_or("").to_owned();
                (label, g.contains("rotate(-90)"))
            })
            .collect()
    }

    #[test]
    fn the_claimed_tile_turns_toward_the_seat_it_came_from() {
        let side = |s: &str| (s.to_owned(), true);
        let up = |s: &str| (s.to_owned(), false);
        // From the left (seat 3 for seat 0): the first tile turned.
        assert_eq!(drawn(&meld_view(MeldKind::Chow, "345m", Some("4m"), Some(3))), [side("4m"), up("3m"), up("5m")]);
        // From across: the middle; from the right: the last.
        assert_eq!(drawn(&meld_view(MeldKind::Pung, "777p", Some("7p"), Some(2))), [up("7p"), side("7p"), up("7p")]);
        assert_eq!(drawn(&meld_view(MeldKind::Pung, "550s", Some("0s"), Some(1))), [up("5s"), up("5s"), side("0s")]);
        // A closed kan: two of its tiles face down.
        let kan = drawn(&meld_view(MeldKind::ConcealedKong, "1111z", None, None));
        assert_eq!(kan, [up("face down"), up("1z"), up("1z"), up("face down")]);
        // An added kan: the fourth tile lies on the claimed one.
        let added = drawn(&meld_view(MeldKind::AddedKong, "2222m", Some("2m"), Some(2)));
        assert_eq!(added, [up("2m"), side("2m"), side("2m"), up("2m")]);
    }

    fn start() -> riichi::View {
        use paifu_core::Game;
        let seed = paifu_core::Seed::from_text("table");
        let g = paifu_core::riichi::Riichi::new(paifu_core::riichi::Rules::default(), 4, Some(&seed)).unwrap();
        g.view()
    }

    #[test]
    fn the_table_turns_the_chosen_seat_to_the_bottom() {
        assert_eq!([0, 1, 2, 3].map(|s| place(s, 0)), [0, 1, 2, 3]);
        assert_eq!([0, 1, 2, 3].map(|s| place(s, 2)), [2, 3, 0, 1]);
        assert_eq!((hand_title("E3", 1), hand_name("S4")), ("East 3, 1 honba".to_owned(), "South 4".to_owned()));
        let mut v = start();
        v.players[1].discards = vec![
            DiscardView { tile: t("1z"), tsumogiri: false, riichi: false, called: true },
            DiscardView { tile: t("9m"), tsumogiri: true, riichi: true, called: false },
        ];
        v.players[1].riichi = true;
        v.claim = Some(ClaimView { from: 1, tile: t("9m") });
        let svg = riichi_table(&v, 2);
        // Seat 2 at the bottom: seat 1 to its left (a quarter turn three times), seat 0 across.
        assert!(svg.contains("data-seat=\"2\" transform=\"rotate(0 380 380)\""), "{svg}");
        assert!(svg.contains("data-seat=\"1\" transform=\"rotate(-270 380 380)\""), "{svg}");
        assert!(svg.contains("data-seat=\"0\" transform=\"rotate(-180 380 380)\""), "{svg}");
        assert!(svg.contains(">East 1</text>") && svg.contains("0 honba · 0 riichi sticks"), "{svg}");
        assert!(svg.contains(&format!("{} tiles left", v.wall)));
        // The claimed discard marked, the tsumogiri one shaded, the riichi tile turned, the
        // claimable one outlined, the dora indicator labelled.
        assert!(svg.contains("t t-1z dim") && svg.contains("<title>1z (called)</title>"), "{svg}");
        assert!(svg.contains("t t-9m tg") && svg.contains("<title>9m (as drawn)</title>"), "{svg}");
        assert_eq!(svg.matches("class=\"claimable\"").count(), 1);
        assert!(svg.contains(">dora indicator</text>"), "{svg}");
        assert_eq!(svg.matches("<title>riichi</title>").count(), 1);
        let nine = svg.split("<title>9m (as drawn)</title>").next().unwrap();
        assert!(nine.ends_with("rotate(-90)\">"), "the riichi tile lies sideways");
        // Every hand tile and every dora indicator is a tile face.
        let tiles = svg.matches("<g class=\"t ").count();
        let held: usize = v.players.iter().map(|p| p.hand.len()).sum();
        assert_eq!(tiles, held + 2 + v.dora_indicators.len(), "{svg}");
    }

    /// During a chankan window the tile added to the kan is outlined, not the declarer's last
    /// discard.
    #[test]
    fn robbing_a_kan_outlines_the_added_tile() {
        let mut v = start();
        v.players[1].discards = vec![DiscardView { tile: t("3p"), tsumogiri: false, riichi: false, called: false }];
        v.players[1].melds = vec![meld_view(MeldKind::AddedKong, "5555m", Some("5m"), Some(0))];
        v.claim = Some(ClaimView { from: 1, tile: t("5m") });
        assert_eq!(robbed_kong(&v), Some(0));
        let svg = riichi_table(&v, 0);
        assert_eq!(svg.matches("class=\"claimable\"").count(), 1, "{svg}");
        // The outline follows the stacked (added) tile, not the river's 3p.
        let seat1 = svg.split("data-seat=\"1\"").nth(1).unwrap().split("data-seat=\"2\"").next().unwrap();
        let outline = seat1.split("class=\"claimable\"").nth(1).unwrap();
        assert!(outline.contains(&format!("y=\"{}\"", HAND_BOTTOM - 2 * W)), "{outline}");
        assert!(!seat1.split("<title>3p</title>").nth(1).unwrap_or("").starts_with("</g><rect class=\"claimable\""));
        // A discard of another kind is the last discard's window as before.
        v.claim = Some(ClaimView { from: 1, tile: t("3p") });
        assert_eq!(robbed_kong(&v), None);
        let svg = riichi_table(&v, 0);
        let seat1 = svg.split("data-seat=\"1\"").nth(1).unwrap();
        assert!(seat1.split("<title>3p</title>").nth(1).unwrap().starts_with("<rect x="), "{svg}");
        let outline = seat1.split("class=\"claimable\"").nth(1).unwrap();
        assert!(outline.starts_with(" x=\"308\" y=\"494\""), "the river's first tile: {outline}");
    }

    /// Following a seat with the other hands hidden: their tiles face down, as many as they hold.
    #[test]
    fn hidden_hands_are_face_down() {
        use paifu_core::Game;
        let seed = paifu_core::Seed::from_text("table");
        let g = paifu_core::riichi::Riichi::new(paifu_core::riichi::Rules::default(), 4, Some(&seed)).unwrap();
        let v = g.seat_view(0);
        let svg = riichi_table(&v, 0);
        let hidden: usize = v.players.iter().filter_map(|p| p.hidden).sum();
        assert!(hidden >= 39);
        assert_eq!(svg.matches("t back").count(), hidden, "{svg}");
    }

    /// MCR and Hungarian positions are drawn as tables too, flowers beside the rivers.
    #[test]
    fn mcr_and_hungarian_tables_show_flowers() {
        use paifu_core::Game;
        let seed = paifu_core::Seed::from_text("mcr layout");
        let g = paifu_core::mcr::Mcr::new(paifu_core::mcr::Rules::default(), 4, Some(&seed)).unwrap();
        let v = g.view();
        let svg = draw(&mcr(&v), 0);
        let flowers: usize = v.players.iter().map(|p| p.flowers.len()).sum();
        assert!(flowers > 0);
        assert_eq!(svg.matches("class=\"t flower").count(), flowers, "{svg}");
        assert!(svg.contains("East wind, hand 1"), "{svg}");
        let h = paifu_core::hungarian::Hungarian::new(paifu_core::hungarian::Rules::default(), 4, Some(&seed)).unwrap();
        let svg = draw(&hungarian(&h.view()), 0);
        assert!(svg.contains("class=\"seat-tiles\""), "{svg}");
    }
}
