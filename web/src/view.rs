//! The viewer's drawing of a position, from each game's typed view ([`paifu_core::games::View`]).
//!
//! Each game lays its view out as seats (a box per seat: name, score, rows of tiles, cards or
//! pieces) and a table of what the seats share; the Ta Yü board is drawn as SVG. The leaves
//! (a list of tiles, a river, a meld) are drawn by [`html::value`] from their JSON form.

use crate::html;
use maud::{html, Markup, PreEscaped};
use paifu_core::games::View;
use paifu_core::{hungarian, mcr, riichi, tayu, tzq, Seat};
use serde::Serialize;
use serde_json::Value;

/// The position: seats, the shared table, the board, and the text render where there is one.
/// `bottom` is the seat a table drawn around its centre shows at the bottom (riichi).
#[cfg(test)]
pub(crate) fn position_html(view: &View, bottom: Seat) -> String {
    let (picture, rest) = parts(view, bottom);
    picture.unwrap_or_default() + &rest
}

/// The position in two parts: the picture of the table (riichi, MCR, Hungarian), and the rest
/// (the seats as text, folded when there is a picture; the shared table; the board).
pub(crate) fn parts(view: &View, bottom: Seat) -> (Option<String>, String) {
    let layout = match view {
        View::Tzq(v) => tzq_layout(v),
        View::Riichi(v) => riichi_layout(v, bottom),
        View::Mcr(v) => mcr_layout(v, bottom),
        View::Hungarian(v) => hungarian_layout(v, bottom),
        View::Tayu(v) => tayu_layout(v),
    };
    (layout.picture.clone(), layout.html())
}

/// A position laid out for the page.
struct Layout {
    /// A picture of the whole table, drawn first (riichi); the seats are then folded as text.
    picture: Option<String>,
    seats: Vec<SeatBox>,
    /// What the seats share: label and drawing, in order.
    table: Vec<(String, Markup)>,
    /// A picture of the board.
    board: Option<String>,
    /// The engine's text render.
    text: Option<String>,
}

/// One seat's box.
struct SeatBox {
    name: String,
    score: i64,
    acting: bool,
    /// Label and drawing, in order.
    rows: Vec<(&'static str, Markup)>,
}

const SEAT_COLOURS: [&str; 4] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];

/// Draws any value through its JSON form.
fn shown<T: Serialize + ?Sized>(x: &T) -> Markup {
    PreEscaped(html::value(&serde_json::to_value(x).unwrap_or(Value::Null)))
}

/// Draws a list of tiles, cards or pieces by their notation.
fn notation<T: std::fmt::Display>(items: &[T]) -> Markup {
    shown(&items.iter().map(|x| x.to_string()).collect::<Vec<_>>())
}

/// Text, escaped.
fn text(x: impl std::fmt::Display) -> Markup {
    html! { (x.to_string()) }
}

/// One tile by its notation.
fn tile(t: impl std::fmt::Display) -> Markup {
    PreEscaped(html::tile(&t.to_string()))
}

fn seat_name(name: &Option<String>) -> String {
    name.clone().unwrap_or_else(|| "seat".to_owned())
}

impl Layout {
    fn html(&self) -> String {
        let seats = html! {
            @if !self.seats.is_empty() {
                div.seats { @for (i, s) in self.seats.iter().enumerate() { (s.html(i)) } }
            }
        };
        html! {
            @if self.picture.is_some() {
                details.as-text { summary { "The seats as text" } (seats) }
            } @else {
                (seats)
            }
            @if let Some(svg) = &self.board { h2 { "Board" } (PreEscaped(svg)) }
            @if !self.table.is_empty() {
                h2 { "Table" }
                dl.kv { @for (label, x) in &self.table { dt { (label) } dd { (x) } } }
            }
            @if let Some(t) = &self.text {
                details open[self.seats.is_empty() && self.board.is_none()] { summary { "Text render" } pre { (t) } }
            }
        }
        .into_string()
    }
}

impl SeatBox {
    fn html(&self, index: usize) -> Markup {
        let act = self.acting;
        html! {
            section class={ "seat" @if act { " act" } } style={ "border-top:5px solid " (SEAT_COLOURS[index % SEAT_COLOURS.len()]) }
                aria-label=(self.name) {
                h3 { span { (self.name) @if act { " · to act" } } span { "score " (self.score) } }
                @for (label, x) in &self.rows { div.k { (label) } div { (x) } }
            }
        }
    }
}

/// Tien Zi Que cards drawn as cards.
fn tzq_cards<T: std::fmt::Display>(items: &[T]) -> Markup {
    PreEscaped(html::cards(&items.iter().map(|x| x.to_string()).collect::<Vec<_>>()))
}

fn tzq_layout(v: &tzq::View) -> Layout {
    let seats = v
        .seats
        .iter()
        .map(|s| SeatBox {
            name: seat_name(&s.name),
            score: s.score,
            acting: s.to_act,
            rows: vec![("Hand", tzq_cards(&s.hand)), ("Scoring cards", tzq_cards(&s.kept))],
        })
        .collect();
    let mut table = Vec::new();
    if let Some(c) = v.drawn {
        table.push(("Card drawn".to_owned(), PreEscaped(html::card(&c.to_string()))));
    }
    table.push(("May be chowed".to_owned(), tzq_cards(&v.chowable)));
    table.push(("Discard pile".to_owned(), tzq_cards(&v.discards)));
    table.push(("Cards left in the draw pile".to_owned(), text(v.pile)));
    table.push(("Turn".to_owned(), text(v.turn)));
    if v.over {
        table.push(("The game".to_owned(), text("is over")));
    }
    Layout { picture: None, seats, table, board: None, text: Some(v.text.clone()) }
}

fn riichi_layout(v: &riichi::View, bottom: Seat) -> Layout {
    let seats = v
        .players
        .iter()
        .map(|p| SeatBox {
            name: seat_name(&p.name),
            score: p.score,
            acting: v.to_act.contains(&p.seat),
            rows: vec![
                ("Hand", notation(&p.hand)),
                ("Melds", shown(&p.melds)),
                ("Discards", shown(&p.discards)),
                ("Seat", html! { (p.seat) " (" (crate::table::wind_char(p.wind)) ")" }),
                ("Riichi", text(if p.riichi { "declared" } else { "no" })),
                ("Furiten", text(if p.furiten { "yes" } else { "no" })),
            ],
        })
        .collect();
    let mut table = vec![("Hand".to_owned(), text(crate::table::hand_title(&v.hand, v.honba)))];
    if let Some(t) = v.drawn {
        table.push(("Tile drawn".to_owned(), tile(t)));
    }
    table.push(("Dora indicators".to_owned(), notation(&v.dora_indicators)));
    if let Some(c) = &v.claim {
        table.push(("Discard that may be claimed".to_owned(), html! { (tile(c.tile)) " from seat " (c.from) }));
    }
    table.push(("Tiles left in the wall".to_owned(), text(v.wall)));
    table.push(("Riichi sticks on the table".to_owned(), text(v.riichi_sticks)));
    table.push(("Dealer".to_owned(), html! { "seat " (v.dealer) }));
    table.push(("Dice".to_owned(), html! { (v.dice[0]) " and " (v.dice[1]) }));
    let picture = crate::table::riichi_table(v, bottom);
    Layout { picture: Some(picture), seats, table, board: None, text: None }
}

/// Chinese Official mahjong: each seat's hand, melds, flowers and discards; the table with the
/// claim window and the last win with its fan list.
fn mcr_layout(v: &mcr::View, bottom: Seat) -> Layout {
    let seats = v
        .players
        .iter()
        .map(|p| SeatBox {
            name: seat_name(&p.name),
            score: p.score,
            acting: v.to_act.contains(&p.seat),
            rows: vec![
                ("Hand", notation(&p.hand)),
                ("Melds", shown(&p.melds)),
                ("Flowers", notation(&p.flowers)),
                ("Discards", notation(&p.discards)),
                ("seat", text(p.seat)),
                ("wind", text(p.wind)),
            ],
        })
        .collect();
    let mut table = Vec::new();
    if let Some(t) = v.drawn {
        table.push(("Tile drawn".to_owned(), tile(t)));
    }
    if let Some(c) = &v.claim {
        let what = if c.robbing { "Tile added to a kong (may be robbed)" } else { "Discard that may be claimed" };
        table.push((what.to_owned(), html! { (tile(c.tile)) " from seat " (c.from) }));
    }
    if let Some(w) = &v.last_win {
        let who = |s: Seat| {
            v.players.iter().find(|p| p.seat == s).and_then(|p| p.name.clone()).unwrap_or_else(|| format!("seat {s}"))
        };
        let how = match w.from {
            None => "self-drawn".to_owned(),
            Some(f) => format!("from {}", who(f)),
        };
        table
            .push(("Last win".to_owned(), html! { (who(w.seat)) " on " (tile(w.tile)) " " (how) ", " (w.fan) " fan" }));
        let fans = html! {
            table.rec { tbody { @for f in &w.fans {
                @let n = crate::names::fan(f.name);
                tr data-fan=(f.name) { td { (n.english) " " span.orig lang="zh" { (n.original) } } td.n { (f.fan) @if f.count > 1 { " ×" (f.count) } } }
            } } }
        };
        table.push(("Fan of the last win".to_owned(), fans));
    }
    table.push(("Tiles left in the wall".to_owned(), text(v.wall)));
    for (label, x) in [
        ("Hand", html! { (v.hand) " of " (v.hands) }),
        ("Prevalent wind", text(crate::table::wind_name(v.round_wind))),
        ("Dealer", html! { "seat " (v.dealer) }),
        ("Dice", text(v.dice.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(" "))),
    ] {
        table.push((label.to_owned(), x));
    }
    let picture = crate::table::draw(&crate::table::mcr(v), bottom);
    Layout { picture: Some(picture), seats, table, board: None, text: None }
}

/// Hungarian sets by the names the seed gives them, a kong's kind and whether it is concealed
/// (declared from the hand: it scores double) said beside it.
fn hungarian_sets(melds: &[hungarian::MeldView]) -> Markup {
    use paifu_core::mahjong::MeldKind;
    let named: Vec<Value> = melds
        .iter()
        .map(|m| {
            let kind = match m.kind {
                MeldKind::Chow => "chow",
                MeldKind::Pung => "pong",
                MeldKind::ClaimedKong => "kong (claimed)",
                MeldKind::ConcealedKong => "kong (concealed)",
                MeldKind::AddedKong => "kong (added from the hand)",
            };
            let tiles: Vec<String> = m.tiles.iter().map(|t| t.to_string()).collect();
            serde_json::json!({"kind": kind, "tiles": tiles})
        })
        .collect();
    shown(&named)
}

/// Hungarian mahjong: each seat's hand, laid-out sets, flowers and discards, with what it scored
/// and paid at the last hand's end; the table: the wall, the break, the seating, the claim window
/// and the last hand's result.
fn hungarian_layout(v: &hungarian::View, bottom: Seat) -> Layout {
    let seats = v
        .players
        .iter()
        .map(|p| {
            let mut rows = vec![
                ("Hand", notation(&p.hand)),
                ("Sets laid out", hungarian_sets(&p.melds)),
                ("Flowers", notation(&p.flowers)),
                ("Discards", shown(&p.discards)),
                ("wind", text(p.wind)),
            ];
            if let Some(h) = v.last.as_ref().and_then(|l| l.players.iter().find(|h| h.seat == p.seat)) {
                rows.push(("Last hand", html! { (notation(&h.hand)) (hungarian_sets(&h.melds)) }));
                rows.push(("Scored", shown(&h.lines)));
                let limit = h.limit.as_ref().map(|l| format!(" + {} {}", l.name, l.points)).unwrap_or_default();
                rows.push((
                    "Score",
                    html! { (h.points) " points x" (1u64 << h.doublings.min(62)) (limit) " = " (h.score) },
                ));
                rows.push(("Settlement", text(format!("{:+}", h.settlement))));
            }
            SeatBox { name: seat_name(&p.name), score: p.score, acting: v.to_act.contains(&p.seat), rows }
        })
        .collect();
    let mut table = Vec::new();
    if let Some(t) = v.drawn {
        table.push(("Tile drawn".to_owned(), tile(t)));
    }
    if let Some(c) = &v.claim {
        table.push(("Discard that may be claimed".to_owned(), shown(c)));
    }
    if let Some(l) = &v.last {
        let how = match (l.winner, l.robbed_from) {
            (None, _) => "void: only the dead wall was left".to_owned(),
            (Some(w), Some(r)) => format!("seat {w} won on seat {r}'s discard"),
            (Some(w), None) if l.heavenly => format!("seat {w} won on the dealt hand"),
            (Some(w), None) => format!("seat {w} won on its own draw"),
        };
        table.push((format!("Hand {}", l.hand), text(how)));
    }
    table.push(("Tiles left in the live wall".to_owned(), text(v.wall)));
    for (label, x) in [
        ("Hand", text(v.hand)),
        ("Prevailing wind", text(crate::table::wind_name(v.prevailing))),
        ("East", html! { "seat " (v.east) }),
        ("Loose tiles drawn", text(v.loose_drawn)),
        ("The wall's break", shown(&v.wall_break)),
        ("The seating", shown(&v.seating)),
    ] {
        table.push((label.to_owned(), x));
    }
    let picture = crate::table::draw(&crate::table::hungarian(v), bottom);
    Layout { picture: Some(picture), seats, table, board: None, text: None }
}

fn tayu_layout(v: &tayu::View) -> Layout {
    let seats = v
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| SeatBox {
            name: seat_name(&s.name),
            score: v.scores.get(i).copied().unwrap_or(0),
            acting: v.to_act.iter().any(|&a| usize::from(a) == i),
            rows: vec![("side", shown(&s.side)), ("flood", shown(&s.flood)), ("held", notation(&s.held))],
        })
        .collect();
    let mut table = vec![("Status".to_owned(), text(&v.status))];
    for (label, x) in [
        ("coasts", shown(&v.coasts)),
        ("stack", shown(&v.stack)),
        ("drawable", shown(&v.drawable)),
        ("set_aside", notation(&v.set_aside)),
        ("bids", shown(&v.bids)),
        ("flood", shown(&v.flood)),
        ("over", shown(&v.over)),
    ] {
        table.push((label.to_owned(), x));
    }
    let board =
        html! { (PreEscaped(board_svg(v))) details { summary { "Pieces (data)" } (shown(&v.pieces)) } }.into_string();
    Layout { picture: None, seats, table, board: Some(board), text: Some(v.text.clone()) }
}

/// A picture of the Ta Yü board: each piece in its placer's colour with its channel drawn as
/// water, the open ends and the 2-point coast spaces marked.
pub(crate) fn board_svg(v: &tayu::View) -> String {
    let size = usize::from(v.board.size);
    let cell = 20usize;
    let px = size * cell;
    let centre = |r: usize, c: usize| (c * cell + cell / 2, r * cell + cell / 2);
    let middle = centre(usize::from(v.board.centre[0]), usize::from(v.board.centre[1]));
    // The special 2-point spaces, as notches on each coast.
    let sp = &v.board.special;
    let notches: Vec<(usize, usize)> = [('N', &sp.north), ('E', &sp.east), ('S', &sp.south), ('W', &sp.west)]
        .into_iter()
        .flat_map(|(coast, list)| {
            list.iter().map(|&a| usize::from(a)).filter(|&a| a < size).map(move |at| {
                let mid = at * cell + cell / 2;
                match coast {
                    'N' => (mid, 0),
                    'S' => (mid, px),
                    'W' => (0, mid),
                    _ => (px, mid),
                }
            })
        })
        .collect();
    let on_board = |r: i16, c: i16| {
        let (r, c) = (usize::try_from(r).ok()?, usize::try_from(c).ok()?);
        (r < size && c < size).then_some((r, c))
    };
    // The point where an exit of square (r, c) on `side` meets the square's edge.
    let edge = |r: usize, c: usize, side: tayu::Dir| {
        let (x, y) = centre(r, c);
        match side {
            tayu::Dir::N => (x, y - cell / 2),
            tayu::Dir::S => (x, y + cell / 2),
            tayu::Dir::W => (x - cell / 2, y),
            tayu::Dir::E => (x + cell / 2, y),
        }
    };
    let pieces = v.pieces.iter().filter_map(|p| {
        let colour = p.seat.map_or("#777", |x| SEAT_COLOURS[usize::from(x) % SEAT_COLOURS.len()]);
        let squares: Vec<(usize, usize)> = p.squares.iter().filter_map(|&[r, c]| on_board(r, c)).collect();
        let (r0, c0) = squares.iter().fold((usize::MAX, usize::MAX), |a, &(r, c)| (a.0.min(r), a.1.min(c)));
        let (r1, c1) = squares.iter().fold((0, 0), |a, &(r, c)| (a.0.max(r), a.1.max(c)));
        // The channel: along the piece between its exit squares, then out to each exit.
        let exits: Vec<(usize, usize, tayu::Dir)> =
            p.exits.iter().filter_map(|e| on_board(e.row, e.col).map(|(r, c)| (r, c, e.side))).collect();
        let along = exits.iter().map(|&(r, c, _)| (r, c)).min().zip(exits.iter().map(|&(r, c, _)| (r, c)).max());
        let (x, y) = centre(r0, c0);
        (!squares.is_empty()).then(|| html! {
            rect x=(c0 * cell) y=(r0 * cell) width=((c1 - c0 + 1) * cell) height=((r1 - r0 + 1) * cell) fill=(colour)
                fill-opacity="0.6" stroke="#222" stroke-width="1" {}
            @if let Some((lo, hi)) = along {
                @let ((x1, y1), (x2, y2)) = (centre(lo.0, lo.1), centre(hi.0, hi.1));
                line x1=(x1) y1=(y1) x2=(x2) y2=(y2) stroke="#e8f4ff" stroke-width="5" stroke-linecap="round" {}
            }
            @for &(r, c, side) in &exits {
                @let ((x1, y1), (x2, y2)) = (centre(r, c), edge(r, c, side));
                line x1=(x1) y1=(y1) x2=(x2) y2=(y2) stroke="#e8f4ff" stroke-width="5" {}
            }
            text x=(x) y=(y + 3) font-size="8" font-family="sans-serif" fill="#111" text-anchor="middle" { (p.index) }
        })
    });
    // Open channel ends: where the network can still grow.
    let open: Vec<(usize, usize)> =
        v.open_ends.iter().filter_map(|e| on_board(e.row, e.col).map(|(r, c)| edge(r, c, e.side))).collect();
    let label = format!("The board: {} pieces", v.pieces.len());
    html! {
        svg.board xmlns="http://www.w3.org/2000/svg" viewBox={ "-1 -1 " (px + 2) " " (px + 2) } role="img" aria-label=(label) {
            title { (label) }
            rect x="0" y="0" width=(px) height=(px) fill="#f4f1e8" stroke="#888" {}
            @for at in (1..size).map(|i| i * cell) {
                line x1=(at) y1="0" x2=(at) y2=(px) stroke="#ddd" {}
                line x1="0" y1=(at) x2=(px) y2=(at) stroke="#ddd" {}
            }
            circle cx=(middle.0) cy=(middle.1) r="8" fill="none" stroke="#f2a900" stroke-width="3" {}
            @for (x, y) in notches { circle cx=(x) cy=(y) r="4" fill="#f2a900" { title { "2-point space" } } }
            @for p in pieces { (p) }
            @for (x, y) in open { circle cx=(x) cy=(y) r="3" fill="#0a58ca" { title { "open channel end" } } }
        }
    }
    .into_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use paifu_core::tayu::{Exit, PieceView, Rules, Tayu};
    use paifu_core::{Game, Seed};

    #[test]
    fn the_board_draws_each_piece_its_channel_and_the_open_ends() {
        let game = Tayu::new(Rules::default(), 2, Some(&Seed::from_text("board svg"))).unwrap();
        let mut v = game.view();
        let exit = |row, col, side| Exit { row, col, side };
        v.board.special.north = vec![3, 9, 15];
        v.pieces = vec![PieceView {
            index: 0,
            seat: Some(1),
            pattern: v.pieces.first().map(|p| p.pattern).unwrap_or_else(|| "037".parse().unwrap()),
            row: 9,
            col: 9,
            facing: tayu::Dir::E,
            squares: vec![[9, 9], [9, 10], [9, 11]],
            exits: vec![exit(9, 10, tayu::Dir::N), exit(9, 11, tayu::Dir::E)],
        }];
        v.open_ends = vec![exit(9, 10, tayu::Dir::N)];
        let svg = board_svg(&v);
        // One outline for the piece, a water line along it and one out to each exit.
        assert_eq!(svg.matches("fill-opacity=\"0.6\"").count(), 1);
        assert_eq!(svg.matches("stroke=\"#e8f4ff\"").count(), 3);
        // The exit on the east end reaches the piece's east edge: x = 12 * 20.
        assert!(svg.contains("x2=\"240\" y2=\"190\""), "{svg}");
        assert_eq!(svg.matches("open channel end").count(), 1);
        let specials = [&v.board.special.east, &v.board.special.south, &v.board.special.west]
            .iter()
            .map(|l| l.iter().filter(|&&a| usize::from(a) < usize::from(v.board.size)).count())
            .sum::<usize>();
        assert_eq!(svg.matches("2-point space").count(), 3 + specials);
    }

    /// Each game's position at its deal from `seed`.
    fn five_views(seed: &str) -> Vec<View> {
        let seed = Seed::from_text(seed);
        vec![
            View::of(&tzq::Tzq::new(tzq::Rules::default(), 2, Some(&seed)).unwrap()),
            View::of(&riichi::Riichi::new(riichi::Rules::default(), 4, Some(&seed)).unwrap()),
            View::of(&mcr::Mcr::new(mcr::Rules::default(), 4, Some(&seed)).unwrap()),
            View::of(&hungarian::Hungarian::new(hungarian::Rules::default(), 4, Some(&seed)).unwrap()),
            View::of(&Tayu::new(Rules::default(), 3, Some(&seed)).unwrap()),
        ]
    }

    #[test]
    fn every_game_lays_out_its_seats_and_table() {
        let names = ["Ann".to_owned(), "Bo".to_owned(), "Cy".to_owned(), "Di".to_owned()];
        let mut views = five_views("layout");
        for v in &mut views {
            v.name_seats(&names);
            let h = position_html(v, 0);
            assert!(h.contains("aria-label=\"Ann\"") && h.contains("aria-label=\"Bo\""), "{h}");
            assert!(h.contains("<h2>Table</h2>"), "{h}");
            assert_eq!(h.matches(" to act").count(), v_to_act(v), "{h}");
            // Tiles and cards are drawn as tiles, from their notation.
            match v {
                View::Tayu(_) => {}
                View::Tzq(_) => assert!(h.contains("class=\"card c"), "TZQ's cards as cards: {h}"),
                _ => assert!(h.contains("class=\"t "), "{h}"),
            }
        }
    }

    #[test]
    fn an_mcr_position_shows_flowers_melds_and_the_fan_of_the_last_win() {
        use paifu_core::Game;
        // A seeded deal: the flowers dealt are set aside and drawn as tiles by their notation.
        let g = mcr::Mcr::new(mcr::Rules::default(), 4, Some(&Seed::from_text("mcr layout"))).unwrap();
        let v = g.view();
        let h = position_html(&View::Mcr(v.clone()), 0);
        assert_eq!(h.matches("<div class=\"k\">Flowers</div>").count(), 4, "{h}");
        assert!(v.players.iter().any(|p| !p.flowers.is_empty()), "no flowers in this deal");
        for f in v.players.iter().flat_map(|p| &p.flowers) {
            assert!(h.contains(&format!("title=\"{f}\"")), "{f}: {h}");
        }
        // An imported hand: seat 1 wins on seat 0's white dragon with a mixed straight.
        let rules = mcr::Rules { flowers: false, hands: 1, ..mcr::Rules::default() };
        let mut g = mcr::Mcr::new(rules, 4, None).unwrap();
        let deals = ["8m19m19p19s234567z", "123m456p789s111z5z", "234567m345s66s55z", "22m33m44p55p66p77p8s"];
        for (s, d) in deals.iter().enumerate() {
            g.play_mut(s as u8, &format!("deal {d}").parse().unwrap()).unwrap();
        }
        for (s, a) in [(0, "draw 3p"), (0, "discard 5z"), (2, "pass"), (1, "win")] {
            g.play_mut(s, &a.parse().unwrap()).unwrap();
        }
        let v = g.view();
        let h = position_html(&View::Mcr(v.clone()), 0);
        let w = v.last_win.unwrap();
        assert!(h.contains(&format!("seat 1 on {} from seat 0, {} fan", html::tile("5z"), w.fan)), "{h}");
        assert!(h.contains("Mixed Straight <span class=\"orig\" lang=\"zh\">花龙</span>"), "{h}");
        assert!(w.fans.iter().any(|f| f.name == "mixed_straight"));
        for f in &w.fans {
            assert!(h.contains(&format!("data-fan=\"{}\"", f.name)), "{} missing: {h}", f.name);
        }
    }

    /// The Hungarian layout after a won hand: each seat's flowers, laid-out sets (a kong from
    /// the hand marked concealed), what every hand scored and paid, and the table's wall.
    #[test]
    fn the_hungarian_layout_shows_flowers_sets_and_each_hands_settlement() {
        use paifu_core::hungarian::Hungarian;
        use paifu_recorder::bots::Bots;
        for i in 0..40 {
            let seed = Seed::from_text(&format!("hungarian layout {i}"));
            let mut g = Hungarian::new(hungarian::Rules::default(), 4, Some(&seed)).unwrap();
            let mut bots: Vec<_> =
                (0..4).map(|s| Hungarian::bot("greedy", &seed.child(&s.to_string())).unwrap()).collect();
            // Play until a hand has been won.
            while g.results().iter().all(|r| r.deltas.iter().all(|&d| d == 0)) {
                let seat = g.to_act().iter().next().unwrap();
                let a = bots[usize::from(seat)].act(&g, seat);
                g.play_mut(seat, &a).unwrap();
            }
            let hv = g.view();
            let v = View::of(&g);
            let last = hv.last.as_ref().unwrap();
            let h = position_html(&v, 0);
            for label in
                ["Flowers", "Sets laid out", "Last hand", "Scored", "Settlement", "Tiles left in the live wall"]
            {
                assert!(h.contains(label), "{label}: {h}");
            }
            for p in &last.players {
                assert!(h.contains(&format!("{:+}", p.settlement)), "{}: {h}", p.settlement);
                assert!(h.contains(&format!("= {}", p.score)), "{}: {h}", p.score);
            }
            // Wait for a hand whose sets include a kong from the hand and whose flowers show.
            let concealed = last.players.iter().any(|p| p.melds.iter().any(|m| m.concealed));
            let flowers = hv.players.iter().any(|p| !p.flowers.is_empty());
            if concealed && flowers {
                assert!(h.contains("<span class=\"k\">kong (concealed)</span>"), "{h}");
                let f = hv.players.iter().flat_map(|p| &p.flowers).next().unwrap();
                assert!(h.contains(&format!("title=\"{f}\">{f}</span>")), "{f}: {h}");
                return;
            }
        }
        panic!("no game showed a concealed kong and flowers");
    }

    #[test]
    fn seat_names_are_escaped_in_every_layout() {
        let bad = "<script>alert(1)</script>\"'&".to_owned();
        let names = [bad.clone(), bad.clone(), bad.clone(), bad];
        let mut views = five_views("hostile layout");
        for v in &mut views {
            v.name_seats(&names);
            let h = position_html(v, 0);
            assert!(!h.contains("<script>") && !h.contains("</script>\"'&"), "{h}");
            assert!(h.contains("aria-label=\"&lt;script&gt;alert(1)&lt;/script&gt;&quot;'&amp;\""), "{h}");
        }
    }

    fn v_to_act(v: &View) -> usize {
        match v {
            View::Tzq(v) => v.to_act.len(),
            View::Riichi(v) => v.to_act.len(),
            View::Hungarian(v) => v.to_act.len(),
            View::Mcr(v) => v.to_act.len(),
            View::Tayu(v) => v.to_act.len(),
        }
    }
}
