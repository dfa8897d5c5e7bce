//! Mahjong tiles drawn as SVG faces: numerals with their suit's character for m/p/s
//! (萬 筒 索), 東 南 西 北 白 發 中 for the honours, a red five marked in red, the back of a tile
//! face down. A tile is a `<g>` placed in a larger picture ([`Row`]), upright, turned sideways
//! (a riichi tile, a claimed tile in a meld) or face down, and dimmed when another seat took it.

use maud::{html, Markup};
use paifu_core::mahjong::{Flower, Tile};

/// A tile's width and height, in the picture's units.
pub(crate) const W: i32 = 24;
pub(crate) const H: i32 = 32;

/// How a tile lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pose {
    Up,
    /// Turned a quarter to the left: as wide as a tile is tall.
    Side,
    /// Face down: its back.
    Down,
}

/// The suits' colours and characters, m p s.
const SUITS: [(&str, &str); 3] = [("#b3261e", "萬"), ("#1d4ed8", "筒"), ("#15803d", "索")];
/// The honours 1z-7z, each with its colour.
const HONOURS: [(&str, &str); 7] = [
    ("東", "#1b1b1b"),
    ("南", "#1b1b1b"),
    ("西", "#1b1b1b"),
    ("北", "#1b1b1b"),
    ("白", ""),
    ("發", "#15803d"),
    ("中", "#b3261e"),
];
/// The honours' corner letters (E S W N, Wh G R), readable where no CJK font is installed.
const CORNERS: [&str; 7] = ["E", "S", "W", "N", "Wh", "G", "R"];
const RED: &str = "#d91e18";

/// How a tile in a river is marked, as players read a river.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Look {
    /// Taken by another seat's call: dimmed, with a corner mark.
    pub called: bool,
    /// Discarded as it was drawn (tsumogiri): a shaded face.
    pub tsumogiri: bool,
}

impl Look {
    pub(crate) const PLAIN: Look = Look { called: false, tsumogiri: false };
    #[cfg(test)]
    pub(crate) const CALLED: Look = Look { called: true, tsumogiri: false };
}

/// The face of `t`, drawn with its top-left corner at the origin, upright.
fn face(t: Tile, look: Look) -> Markup {
    let (fill, stroke) = match (t.is_aka(), look.tsumogiri) {
        (true, _) => ("#ffe9e6", RED),
        (false, true) => ("#dcdcd4", "#8a8a8a"),
        (false, false) => ("#fffdf6", "#8a8a8a"),
    };
    let honour = t.is_honor().then(|| usize::from(t.num() - 1).min(6));
    let (colour, glyph) = SUITS[t.suit().min(2)];
    html! {
        rect x="0.5" y="0.5" width=(W - 1) height=(H - 1) rx="3" fill=(fill) stroke=(stroke)
            stroke-width=[t.is_aka().then_some("1.6")] {}
        @if let Some(i) = honour {
            text x="2.5" y="7.5" font-size="6.5" fill="#555" { (CORNERS[i]) }
            @if HONOURS[i].1.is_empty() {
                // The white dragon: a blank face with a blue frame.
                rect x="5" y="6" width="14" height="20" rx="1" fill="none" stroke="#2563eb" stroke-width="1.5" {}
            } @else {
                text x="12" y="24" font-size="19" text-anchor="middle" fill=(HONOURS[i].1) font-weight="700" { (HONOURS[i].0) }
            }
        } @else {
            text x="12" y="17" font-size="18" text-anchor="middle" fill=(if t.is_aka() { RED } else { colour }) font-weight="700" { (t.num()) }
            text x="12" y="29" font-size="10" text-anchor="middle" fill=(colour) { (glyph) }
            @if t.is_aka() {
                // The red five's mark: a red dot in the corner.
                circle cx="19.5" cy="5" r="2.5" fill=(RED) {}
            }
        }
        @if look.called {
            rect x="0" y="0" width="24" height="32" rx="3" fill="#555" fill-opacity="0.45" {}
            path d="M14 0.5h7a3 3 0 0 1 3 3v7z" fill="#f2a900" {}
        }
    }
}

/// The back of a tile.
fn back() -> Markup {
    html! {
        rect x="0.5" y="0.5" width="23" height="31" rx="3" fill="#d9822b" stroke="#8a5a1e" {}
        rect x="3" y="3" width="18" height="26" rx="2" fill="none" stroke="#f3c38b" {}
    }
}

/// The tile `t` with its top-left corner at (`x`, `y`); a sideways tile is `H` wide and `W` tall.
/// Its class names it (`t t-5m`) and its title gives its notation.
pub(crate) fn tile_at(t: Tile, x: i32, y: i32, pose: Pose, look: Look) -> String {
    let (transform, body) = match pose {
        Pose::Up => (format!("translate({x} {y})"), face(t, look)),
        Pose::Side => (format!("translate({x} {}) rotate(-90)", y + W), face(t, look)),
        Pose::Down => (format!("translate({x} {y})"), back()),
    };
    let down = pose == Pose::Down;
    html! {
        g class={ @if down { "t back" } @else { "t t-" (t) @if look.called { " dim" } @if look.tsumogiri { " tg" } } }
            transform=(transform) {
            title { @if down { "face down" } @else { (t) @if look.tsumogiri { " (as drawn)" } @if look.called { " (called)" } } }
            (body)
        }
    }
    .into_string()
}

/// The flowers 1f-4f (plum, orchid, chrysanthemum, bamboo) and the seasons 5f-8f (spring,
/// summer, autumn, winter), each with its character and its seat number.
const FLOWERS: [(&str, &str); 8] = [
    ("梅", "plum"),
    ("蘭", "orchid"),
    ("菊", "chrysanthemum"),
    ("竹", "bamboo"),
    ("春", "spring"),
    ("夏", "summer"),
    ("秋", "autumn"),
    ("冬", "winter"),
];

/// A flower or season tile with its top-left corner at (`x`, `y`), upright: its character,
/// its seat number in the corner, flowers in green and seasons in blue.
pub(crate) fn flower_at(f: Flower, x: i32, y: i32) -> String {
    let i = usize::from(f.number().clamp(1, 8) - 1);
    let (glyph, name) = FLOWERS[i];
    let colour = if f.is_season() { "#1d4ed8" } else { "#15803d" };
    html! {
        g class={ "t flower f-" (f) } transform={ "translate(" (x) " " (y) ")" } {
            title { (f) " (" (name) ")" }
            rect x="0.5" y="0.5" width=(W - 1) height=(H - 1) rx="3" fill="#fffdf6" stroke="#8a8a8a" {}
            text x="3" y="9" font-size="8" fill=(RED) font-weight="700" { (f.seat_number()) }
            text x="12" y="26" font-size="16" text-anchor="middle" fill=(colour) font-weight="700" { (glyph) }
        }
    }
    .into_string()
}

/// A row of tiles laid left to right along a baseline: upright tiles stand on it, sideways ones
/// lie on it.
pub(crate) struct Row {
    pub(crate) x: i32,
    /// The baseline: the bottom of the row.
    pub(crate) bottom: i32,
    pub(crate) svg: String,
}

impl Row {
    pub(crate) fn new(x: i32, bottom: i32) -> Row {
        Row { x, bottom, svg: String::new() }
    }

    /// The next tile, and the room it takes.
    pub(crate) fn push(&mut self, t: Tile, pose: Pose, look: Look) {
        let (w, h) = if pose == Pose::Side { (H, W) } else { (W, H) };
        self.svg.push_str(&tile_at(t, self.x, self.bottom - h, pose, look));
        self.x += w;
    }

    /// A second sideways tile on the one just pushed (an added kan's fourth tile).
    pub(crate) fn stack(&mut self, t: Tile) {
        self.svg.push_str(&tile_at(t, self.x - H, self.bottom - 2 * W, Pose::Side, Look::PLAIN));
    }

    pub(crate) fn gap(&mut self, g: i32) {
        self.x += g;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    #[test]
    fn faces_carry_their_numeral_suit_honour_and_red_mark() {
        let five = tile_at(t("5m"), 0, 0, Pose::Up, Look::PLAIN);
        assert!(
            five.contains(">5</text>") && five.contains(">萬</text>") && five.contains("<title>5m</title>"),
            "{five}"
        );
        assert!(!five.contains(RED), "a plain five is not red: {five}");
        let red = tile_at(t("0p"), 0, 0, Pose::Up, Look::PLAIN);
        assert!(red.contains(">5</text>") && red.contains(">筒</text>") && red.contains("<circle"), "{red}");
        assert!(red.contains(&format!("fill=\"{RED}\"")) && red.contains("<title>0p</title>"), "{red}");
        for (n, glyph) in [("1z", "東"), ("2z", "南"), ("3z", "西"), ("4z", "北"), ("6z", "發"), ("7z", "中")] {
            assert!(tile_at(t(n), 0, 0, Pose::Up, Look::PLAIN).contains(&format!(">{glyph}</text>")), "{n}");
        }
        let white = tile_at(t("5z"), 0, 0, Pose::Up, Look::PLAIN);
        assert!(white.contains(">Wh</text>") && white.contains("#2563eb"), "the white dragon is a frame: {white}");
        let back = tile_at(t("5z"), 0, 0, Pose::Down, Look::PLAIN);
        assert!(back.contains("face down") && !back.contains("5z") && back.contains("t back"), "{back}");
        assert!(tile_at(t("3s"), 0, 0, Pose::Up, Look::CALLED).contains("t t-3s dim"));
    }

    #[test]
    fn flowers_and_seasons_have_their_character_and_seat_number() {
        let plum = flower_at(Flower::numbered(1).unwrap(), 0, 0);
        assert!(plum.contains(">梅</text>") && plum.contains("<title>1f (plum)</title>") && plum.contains(">1</text>"));
        let winter = flower_at(Flower::numbered(8).unwrap(), 0, 0);
        assert!(winter.contains(">冬</text>") && winter.contains(">4</text>") && winter.contains("#1d4ed8"));
    }

    #[test]
    fn a_row_lays_sideways_tiles_on_its_baseline() {
        let mut r = Row::new(10, 100);
        r.push(t("1m"), Pose::Up, Look::PLAIN);
        r.push(t("2m"), Pose::Side, Look::PLAIN);
        r.stack(t("2m"));
        r.push(t("3m"), Pose::Up, Look::PLAIN);
        assert_eq!(r.x, 10 + W + H + W);
        // Upright: top at 100 - 32; sideways: rotated about its lower-left corner at 100.
        assert!(r.svg.contains("translate(10 68)"), "{}", r.svg);
        assert!(r.svg.contains("translate(34 100) rotate(-90)"), "{}", r.svg);
        assert!(r.svg.contains("translate(34 76) rotate(-90)"), "the stacked tile lies on the first: {}", r.svg);
        assert!(r.svg.contains("translate(66 68)"), "{}", r.svg);
    }
}
