//! The riichi table as a player sees it, in SVG: four seats around the centre, the chosen seat
//! at the bottom and the others in turn order to its right, across and to its left. Each seat
//! has its hand (the tile just drawn apart), its melds (the claimed tile turned toward the seat
//! it came from, a closed kan with two tiles face down), its discards in rows of six (the riichi
//! tile turned, tiles claimed by others dimmed), and on its side of the centre its wind, name,
//! score and riichi stick. The centre holds the hand's name and honba, the sticks on the table,
//! the tiles left in the wall and the dora indicators.

use crate::html::esc;
use crate::tiles::{Pose, Row, H, W};
use paifu_core::mahjong::{MeldKind, Tile};
use paifu_core::riichi::{self, MeldView, PlayerView};
use paifu_core::Seat;
use std::fmt::Write as _;

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

/// "East 3" for `E3`.
pub(crate) fn hand_name(hand: &str) -> String {
    let mut c = hand.chars();
    let wind = match c.next() {
        Some('E') => "East",
        Some('S') => "South",
        Some('W') => "West",
        Some('N') => "North",
        _ => return hand.to_owned(),
    };
    format!("{wind} {}", c.as_str())
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

/// Draws a meld from its right end leftwards, answering its left end. The claimed tile lies
/// sideways at the side of the seat it came from: left, middle or right.
fn meld(svg: &mut String, m: &MeldView, owner: Seat, right: i32) -> i32 {
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
    for (&t, &p) in tiles.iter().zip(&pose_of) {
        row.push(t, p, false);
        if p == Pose::Side {
            if let Some(a) = stacked {
                row.stack(a);
            }
        }
    }
    svg.push_str(&row.svg);
    left
}

/// One seat's tiles, drawn as the bottom seat; the caller turns them into place.
fn seat_tiles(v: &riichi::View, p: &PlayerView) -> String {
    let mut svg = String::new();
    // The discards in rows of six; the claim window's tile outlined.
    let claimable = v.claim.as_ref().filter(|c| c.from == p.seat).map(|_| p.discards.len().saturating_sub(1));
    for (r, chunk) in p.discards.chunks(6).enumerate() {
        let mut row = Row::new(RIVER_X, RIVER_TOP + r as i32 * ROW_STEP + H);
        for (i, d) in chunk.iter().enumerate() {
            let x = row.x;
            row.push(d.tile, if d.riichi { Pose::Side } else { Pose::Up }, d.called);
            if claimable == Some(r * 6 + i) {
                let _ = write!(
                    row.svg,
                    "<rect class=\"claimable\" x=\"{}\" y=\"{}\" width=\"{W}\" height=\"{H}\" rx=\"3\" fill=\"none\" stroke=\"#f2a900\" stroke-width=\"3\"/>",
                    x,
                    row.bottom - H
                );
            }
        }
        svg.push_str(&row.svg);
    }
    // The hand, the tile just drawn apart; the melds from the right.
    let mut hand = p.hand.clone();
    let drawn = v.drawn.filter(|_| v.to_act.first() == Some(&p.seat)).and_then(|d| {
        let i = hand.iter().rposition(|&t| t == d)?;
        Some(hand.remove(i))
    });
    let mut row = Row::new(HAND_X, HAND_BOTTOM);
    for &t in &hand {
        row.push(t, Pose::Up, false);
    }
    if let Some(d) = drawn {
        row.gap(8);
        row.push(d, Pose::Up, false);
    }
    svg.push_str(&row.svg);
    let mut right = MELDS_END;
    for m in &p.melds {
        right = meld(&mut svg, m, p.seat, right) - 6;
    }
    // Its side of the centre: riichi stick, wind and name, score.
    let acting = v.to_act.contains(&p.seat);
    let bottom = C + BOX;
    if p.riichi {
        let _ = write!(
            svg,
            "<g class=\"stick\"><title>riichi</title><rect x=\"{}\" y=\"{}\" width=\"80\" height=\"6\" rx=\"3\" fill=\"#fff\" stroke=\"#333\"/>\
             <circle cx=\"{C}\" cy=\"{}\" r=\"2\" fill=\"#d91e18\"/></g>",
            C - 40,
            bottom - 48,
            bottom - 45,
        );
    }
    let name: String = p.name.as_deref().unwrap_or("seat").chars().take(16).collect();
    let _ = write!(
        svg,
        "<text x=\"{C}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" fill=\"{}\"{}>{} {}</text>\
         <text class=\"score\" x=\"{C}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\" fill=\"#fff\" font-weight=\"700\">{}</text>",
        bottom - 24,
        if acting { "#ffd54a" } else { "#e8efe9" },
        if acting { " font-weight=\"700\"" } else { "" },
        wind_char(p.wind),
        esc(&name),
        bottom - 8,
        p.score
    );
    svg
}

/// The whole table, `bottom` the seat drawn at the bottom.
pub(crate) fn riichi_table(v: &riichi::View, bottom: Seat) -> String {
    let title = hand_title(&v.hand, v.honba);
    let mut svg = format!(
        "<svg class=\"table\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {SIZE} {SIZE}\" role=\"img\" \
         aria-labelledby=\"table-title\" font-family=\"sans-serif\"><title id=\"table-title\">The table: {}; {} tiles left in the wall</title>\
         <rect width=\"{SIZE}\" height=\"{SIZE}\" rx=\"14\" fill=\"#2e6b4f\"/>\
         <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"8\" fill=\"#1f4d39\" stroke=\"#8fb8a0\"/>",
        esc(&title),
        v.wall,
        C - BOX,
        C - BOX,
        2 * BOX,
        2 * BOX
    );
    for p in &v.players {
        let turn = -90 * i32::from(place(p.seat, bottom));
        let _ = write!(
            svg,
            "<g class=\"seat-tiles\" data-seat=\"{}\" transform=\"rotate({turn} {C} {C})\">{}</g>",
            p.seat,
            seat_tiles(v, p)
        );
    }
    // The centre: the hand, honba and sticks, the wall, the dora indicators.
    let _ = write!(
        svg,
        "<text id=\"hand-name\" x=\"{C}\" y=\"{}\" font-size=\"18\" text-anchor=\"middle\" fill=\"#fff\" font-weight=\"700\">{}</text>\
         <text x=\"{C}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#e8efe9\">{} honba · {} riichi stick{}</text>\
         <text x=\"{C}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#e8efe9\">{} tiles left</text>",
        C - 34,
        esc(&hand_name(&v.hand)),
        C - 19,
        v.honba,
        v.riichi_sticks,
        if v.riichi_sticks == 1 { "" } else { "s" },
        C + 52,
        v.wall
    );
    let n = v.dora_indicators.len().max(1) as i32;
    let scale = 0.8;
    let width = (f64::from(n * W) * scale) as i32;
    let mut row = Row::new(0, H);
    for &t in &v.dora_indicators {
        row.push(t, Pose::Up, false);
    }
    let _ = write!(
        svg,
        "<g class=\"dora\" transform=\"translate({} {}) scale({scale})\"><title>dora indicators</title>{}</g>",
        C - width / 2,
        C - 10,
        row.svg
    );
    svg + "</svg>"
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
        meld(&mut svg, m, 0, 600);
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

    #[test]
    fn the_table_turns_the_chosen_seat_to_the_bottom() {
        assert_eq!([0, 1, 2, 3].map(|s| place(s, 0)), [0, 1, 2, 3]);
        assert_eq!([0, 1, 2, 3].map(|s| place(s, 2)), [2, 3, 0, 1]);
        assert_eq!((hand_title("E3", 1), hand_name("S4")), ("East 3, 1 honba".to_owned(), "South 4".to_owned()));
        use paifu_core::Game;
        let seed = paifu_core::Seed::from_text("table");
        let g = paifu_core::riichi::Riichi::new(paifu_core::riichi::Rules::default(), 4, Some(&seed)).unwrap();
        let mut v = g.view();
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
        // The claimed discard dimmed, the riichi tile turned, the claimable one outlined.
        assert!(svg.contains("t t-1z dim"), "{svg}");
        assert!(svg.contains("class=\"claimable\""));
        assert_eq!(svg.matches("<title>riichi</title>").count(), 1);
        let nine = svg.split("<title>9m</title>").next().unwrap();
        assert!(nine.ends_with("rotate(-90)\">"), "the riichi tile lies sideways");
        // Every hand tile and every dora indicator is a tile face.
        let tiles = svg.matches("<g class=\"t ").count();
        let held: usize = v.players.iter().map(|p| p.hand.len()).sum();
        assert_eq!(tiles, held + 2 + v.dora_indicators.len(), "{svg}");
    }
}
