//! The end of a hand, shown over the table it ended on, and the end of the game.
//!
//! Riichi, from the engine's settlement ([`paifu_core::riichi::HandEnd`]): each winning hand
//! with its winning tile apart, the yaku by name with their han, fu, dora, red fives and ura dora
//! with the ura indicators revealed; the tenpai hands of an exhaustive draw; an abortive draw
//! named; who paid whom and what for (the hand, honba, riichi sticks); the new scores. MCR: the
//! winning hand drawn, its fan sheet by the official names and the payments (8 + fan from the
//! discarder, 8 from each other player; 8 + fan from each on a self-draw). Hungarian: every
//! player's hand with what it scored, and the settlement pair by pair. Other games: the round's
//! summary and each seat's change. At the game's end, the final standings: places, final scores
//! and, for riichi, the points after uma and oka as the ruleset sets them.
//!
//! Nothing is computed here but sums for the reader: every number is the engine's.

use crate::names;
use crate::table::{hand_title, wind_name};
use crate::tiles::{flower_at, Look, Pose, Row, H, W};
use crate::viewer::Step;
use maud::{html, Markup, PreEscaped};
use paifu_core::games::View;
use paifu_core::mahjong::{Flower, MeldKind, Tile};
use paifu_core::riichi::{self, HandEnd, HandEndKind, MeldView};
use paifu_core::{hungarian, mcr, RoundResult, Seat};

/// Tiles in a row as a picture of their own: the hand, its melds after a gap (a closed kan's
/// outer tiles face down, a claimed tile sideways), the winning tile set apart at the end, the
/// flowers last.
pub(crate) fn strip(hand: &[Tile], melds: &[MeldView], apart: Option<Tile>, label: &str) -> String {
    strip_with(hand, melds, apart, &[], label)
}

fn strip_with(hand: &[Tile], melds: &[MeldView], apart: Option<Tile>, flowers: &[Flower], label: &str) -> String {
    let mut row = Row::new(1, H + 1);
    for &t in hand {
        row.push(t, Pose::Up, Look::PLAIN);
    }
    if let Some(t) = apart {
        row.gap(10);
        row.push(t, Pose::Up, Look::PLAIN);
    }
    for m in melds {
        row.gap(10);
        for (i, &t) in m.tiles.iter().enumerate() {
            let pose = match m.kind {
                MeldKind::ConcealedKong if i == 0 || i == 3 => Pose::Down,
                MeldKind::ConcealedKong => Pose::Up,
                _ if Some(t) == m.called && m.tiles[..i].iter().all(|&x| Some(x) != m.called) => Pose::Side,
                _ => Pose::Up,
            };
            row.push(t, pose, Look::PLAIN);
        }
    }
    if !flowers.is_empty() {
        row.gap(10);
        for &f in flowers {
            row.svg.push_str(&flower_at(f, row.x, 1));
            row.x += W;
        }
    }
    let w = row.x + 1;
    let h = H + 2;
    html! {
        svg.tiles-svg xmlns="http://www.w3.org/2000/svg" viewBox={ "0 0 " (w) " " (h) } width=(w) height=(h)
            role="img" aria-label=(label) font-family="sans-serif" { (PreEscaped(row.svg)) }
    }
    .into_string()
}

/// An abortive draw by the name players use.
pub(crate) fn abort_label(a: riichi::Abort) -> &'static str {
    match a {
        riichi::Abort::NineTerminals => "Nine terminals (kyuushu kyuuhai)",
        riichi::Abort::FourWinds => "Four winds (suufon renda)",
        riichi::Abort::FourRiichi => "Four riichi (suucha riichi)",
        riichi::Abort::FourKans => "Four kans (suukaikan)",
        riichi::Abort::TripleRon => "Triple ron (sanchahou)",
    }
}

/// A hand with one copy of `tile` taken out to be drawn apart (when it holds one).
fn apart(hand: &[Tile], tile: Option<Tile>) -> (Vec<Tile>, Option<Tile>) {
    let mut rest = hand.to_vec();
    let taken = tile.and_then(|t| rest.iter().rposition(|&x| x == t)).map(|i| rest.remove(i));
    (rest, taken)
}

/// A seat's player.
fn who(names: &[String], s: Seat) -> String {
    names.get(usize::from(s)).cloned().unwrap_or_else(|| format!("seat {s}"))
}

/// An engine's sentence with its seats named: `seat 1 wins` Bo wins. One pass over the engine's
/// text: a name is never read again, so a player named `seat 3` cannot rename another seat
/// (names come from uploaded logs). `seat N` with no such seat is left as it is.
pub(crate) fn named(text: &str, names: &[String]) -> String {
    const SEAT: &str = "seat ";
    let mut o = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(SEAT) {
        let after = &rest[at + SEAT.len()..];
        let digits = after.find(|c: char| !c.is_ascii_digit()).unwrap_or(after.len());
        match after[..digits].parse::<usize>().ok().and_then(|i| names.get(i)) {
            Some(n) => {
                o.push_str(&rest[..at]);
                o.push_str(n);
                rest = &after[digits..];
            }
            None => {
                o.push_str(&rest[..at + SEAT.len()]);
                rest = after;
            }
        }
    }
    o.push_str(rest);
    o
}

/// A name for people with the original beside it.
fn name_cell(n: &names::Name) -> Markup {
    html! { (n.english) @if !n.original.is_empty() { " " span.orig lang="ja" { (n.original) } } }
}

/// What a riichi payment was for.
fn payment_for(h: &HandEnd, i: usize) -> String {
    let p = h.payments[i];
    let honba = i64::from(h.honba);
    match (p.from, p.to, &h.how) {
        (Some(_), None, _) => "riichi deposit".into(),
        (None, Some(_), _) => format!(
            "the riichi stick{} on the table",
            if p.points == 1000 { String::new() } else { format!("s ({})", p.points / 1000) }
        ),
        (Some(f), Some(t), HandEndKind::Win { wins }) => {
            let Some(w) = wins.iter().find(|w| w.seat == t) else { return String::new() };
            let first = wins.first().map(|x| x.seat) == Some(t);
            match w.from {
                Some(d) if d == f => {
                    let h = if first { 300 * honba } else { 0 };
                    if h > 0 && p.points > h {
                        format!("ron: the hand {} + {honba} honba {h}", p.points - h)
                    } else {
                        "ron: the hand".into()
                    }
                }
                Some(_) => "liability (pao)".into(),
                None => {
                    let again = h.payments[..i].iter().any(|q| q.from == p.from && q.to == p.to);
                    if again && honba > 0 && p.points == 100 * honba {
                        format!("tsumo: {honba} honba")
                    } else {
                        "tsumo: their share of the hand".into()
                    }
                }
            }
        }
        (Some(_), Some(t), HandEndKind::ExhaustiveDraw { nagashi, .. }) if nagashi.contains(&t) => {
            "nagashi mangan".into()
        }
        (Some(_), Some(_), HandEndKind::ExhaustiveDraw { .. }) => "noten payment to a tenpai hand".into(),
        (Some(_), Some(_), HandEndKind::Chombo { .. }) => "chombo".into(),
        _ => String::new(),
    }
}

/// Each seat's score before, its change and after.
fn scores_table(names: &[String], after: &[i64], deltas: &[i64]) -> Markup {
    html! {
        h3 { "Scores" }
        table.rec.scores {
            thead { tr { th { "Seat" } th { "Player" } th.n { "Before" } th.n { "Change" } th.n { "After" } } }
            tbody {
                @for (s, (&a, &d)) in after.iter().zip(deltas).enumerate() {
                    tr { td { (s) } td { (who(names, s as Seat)) } td.n { (a - d) } td.n { (format!("{d:+}")) } td.n { (a) } }
                }
            }
        }
    }
}

/// The screen for the end of riichi hand `h`.
pub(crate) fn riichi_end(h: &HandEnd, names: &[String]) -> Markup {
    let title = hand_title(&h.hand, h.honba);
    let headline = match &h.how {
        HandEndKind::Win { wins } => wins
            .iter()
            .map(|w| match w.from {
                None => format!("{} wins by tsumo", who(names, w.seat)),
                Some(f) => format!("{} wins by ron on {}'s discard", who(names, w.seat), who(names, f)),
            })
            .collect::<Vec<_>>()
            .join("; "),
        HandEndKind::ExhaustiveDraw { .. } => "Exhaustive draw".to_owned(),
        HandEndKind::AbortiveDraw { abort } => format!("Abortive draw: {}", abort_label(*abort)),
        HandEndKind::Chombo { seat } => {
            format!("Chombo by {}: the hand is annulled and dealt again", who(names, *seat))
        }
    };
    html! {
        section.hand-end #hand-end aria-labelledby="hand-end-title" {
            h2 #hand-end-title { "End of " (title) ": " (headline) }
            @match &h.how {
                HandEndKind::Win { wins } => {
                    @for w in wins {
                        div.win data-seat=(w.seat) {
                            h3 { (who(names, w.seat)) " (seat " (w.seat) ")" }
                            (PreEscaped(strip(&w.hand, &w.melds, Some(w.tile), &format!("the winning hand, won on {}", w.tile))))
                            table.rec.yaku {
                                thead { tr { th { "Yaku" } th.n { "Han" } } }
                                tbody {
                                    @for y in &w.yaku {
                                        tr data-yaku=(y.name) { td { (name_cell(&names::yaku(y.name))) } td.n { (y.han) } }
                                    }
                                }
                            }
                            @let value = if w.yakuman > 0 {
                                format!("{} yakuman", w.yakuman)
                            } else if w.limit != "none" {
                                format!("{} han {} fu, {}", w.han, w.fu, w.limit)
                            } else {
                                format!("{} han {} fu", w.han, w.fu)
                            };
                            p.value { b { (value) } ": " b.points { (w.points) } " points" }
                        }
                    }
                }
                HandEndKind::ExhaustiveDraw { tenpai, nagashi } => {
                    @if tenpai.is_empty() { p { "Nobody was tenpai." } }
                    @for t in tenpai {
                        div.tenpai data-seat=(t.seat) {
                            h3 { (who(names, t.seat)) " (seat " (t.seat) "): tenpai" }
                            (PreEscaped(strip(&t.hand, &t.melds, None, "a tenpai hand")))
                        }
                    }
                    @for &s in nagashi { p { (who(names, s)) " (seat " (s) "): nagashi mangan." } }
                }
                _ => {}
            }
            @if !h.dora_indicators.is_empty() {
                p {
                    "Dora indicators " (PreEscaped(strip(&h.dora_indicators, &[], None, "dora indicators")))
                    @if !h.ura_indicators.is_empty() {
                        " · ura dora indicators " (PreEscaped(strip(&h.ura_indicators, &[], None, "ura dora indicators")))
                    }
                }
            }
            @if h.payments.is_empty() {
                p { "No payments." }
            } @else {
                h3 { "Payments" }
                table.rec.payments {
                    thead { tr { th { "From" } th { "To" } th.n { "Points" } th { "For" } } }
                    tbody {
                        @for (i, p) in h.payments.iter().enumerate() {
                            tr {
                                td { (p.from.map_or_else(|| "the table".to_owned(), |s| who(names, s))) }
                                td { (p.to.map_or_else(|| "the table".to_owned(), |s| who(names, s))) }
                                td.n { (p.points) }
                                td { (payment_for(h, i)) }
                            }
                        }
                    }
                }
            }
            (scores_table(names, &h.scores, &h.deltas))
        }
    }
}

/// MCR's payments for a win of `fan` by `winner`: `from` the discarder (none for a self-draw)
/// pays 8 + fan, each other player 8; on a self-draw each pays 8 + fan. The rows, and the deltas
/// they add up to.
fn mcr_payments(seats: usize, winner: Seat, from: Option<Seat>, fan: u32) -> (Vec<(Seat, i64)>, Vec<i64>) {
    let mut rows = Vec::new();
    let mut d = vec![0i64; seats];
    for s in (0..seats as Seat).filter(|&s| s != winner) {
        let pay = if from.is_none() || from == Some(s) { 8 + i64::from(fan) } else { 8 };
        rows.push((s, pay));
        d[usize::from(s)] -= pay;
        d[usize::from(winner)] += pay;
    }
    (rows, d)
}

/// The end of an MCR hand: the winning hand drawn as it stood (`before`, the table it was won
/// on), the fan sheet, the payments.
fn mcr_end(after: &mcr::View, before: Option<&mcr::View>, results: &[RoundResult], names: &[String]) -> Markup {
    let hand = before.map_or_else(
        || format!("hand {}", after.hand),
        |b| format!("{} wind, hand {}", wind_name(b.round_wind), b.hand),
    );
    let deltas: Vec<i64> = results.iter().fold(vec![0; after.scores.len()], |mut t, r| {
        for (x, d) in t.iter_mut().zip(&r.deltas) {
            *x += d;
        }
        t
    });
    let win = after.last_win.as_ref().filter(|_| deltas.iter().any(|&d| d != 0));
    html! {
        section.hand-end #hand-end aria-labelledby="hand-end-title" {
            @match win {
                Some(w) => {
                    @let how = match w.from {
                        None => "by self-draw".to_owned(),
                        Some(f) => format!("on {}'s tile", who(names, f)),
                    };
                    h2 #hand-end-title { "End of " (hand) ": " (who(names, w.seat)) " wins " (how) }
                    @if let Some(p) = before.and_then(|b| b.players.iter().find(|p| p.seat == w.seat)) {
                        @let (concealed, _) = if w.from.is_none() { apart(&p.hand, Some(w.tile)) } else { (p.hand.clone(), None) };
                        @let melds: Vec<MeldView> = p.melds.iter().map(|m| MeldView { kind: m.kind, tiles: m.tiles.clone(), called: None, from: m.from }).collect();
                        div.win.mcr-win data-seat=(w.seat) {
                            (PreEscaped(strip_with(&concealed, &melds, Some(w.tile), &p.flowers, &format!("the winning hand, won on {}", w.tile))))
                        }
                    }
                    table.rec.fans {
                        thead { tr { th { "Fan" } th.n { "Points" } th.n { "Times" } th.n { "Total" } } }
                        tbody {
                            @for f in &w.fans {
                                tr data-fan=(f.name) {
                                    td { (name_cell(&names::fan(f.name))) }
                                    td.n { (f.fan) } td.n { (f.count) } td.n { (u32::from(f.fan) * u32::from(f.count)) }
                                }
                            }
                        }
                        tfoot { tr { th colspan="3" { "Total" } th.n.total-fan { (w.fan) } } }
                    }
                    @let (rows, expected) = mcr_payments(after.scores.len(), w.seat, w.from, w.fan);
                    h3 { "Payments" }
                    @if expected == deltas {
                        table.rec.payments {
                            thead { tr { th { "From" } th { "To" } th.n { "Points" } th { "For" } } }
                            tbody {
                                @for (s, pay) in &rows {
                                    tr {
                                        td { (who(names, *s)) } td { (who(names, w.seat)) } td.n { (pay) }
                                        td { @if *pay > 8 { "8 + " (w.fan) " fan" @if w.from == Some(*s) { " (the discarder)" } } @else { "8" } }
                                    }
                                }
                            }
                        }
                    } @else {
                        p.note { "The score changes differ from the plain 8 + fan payments (a penalty or a ruleset's own settlement): see the scores below." }
                    }
                }
                None => {
                    h2 #hand-end-title { "End of " (hand) ": a draw, nobody won" }
                    @for r in results { p.summary { (named(&r.summary, names)) } }
                }
            }
            (scores_table(names, &after.scores, &deltas))
        }
    }
}

/// Hungarian settlement pair by pair: each loser pays the winner the winner's score; the losers
/// pay each other the difference of their scores (unless the rules turn that off); every payment
/// East makes or receives is doubled (docs/rules/hungarian.md). The rows `(from, to, points)`
/// when they add up to the engine's settlement, else none.
fn hungarian_pairs(l: &hungarian::SettlementView) -> Option<Vec<(Seat, Seat, i64, bool)>> {
    let w = l.winner?;
    let score = |s: Seat| l.players.iter().find(|p| p.seat == s).map_or(0, |p| p.score);
    let east = l.players.iter().find(|p| p.wind == 'E')?.seat;
    let seats: Vec<Seat> = l.players.iter().map(|p| p.seat).collect();
    for losers_settle in [true, false] {
        let mut rows = Vec::new();
        let mut pay = |from: Seat, to: Seat, amount: i64| {
            if amount > 0 {
                let doubled = from == east || to == east;
                rows.push((from, to, if doubled { amount.saturating_mul(2) } else { amount }, doubled));
            }
        };
        for &s in seats.iter().filter(|&&s| s != w) {
            pay(s, w, score(w));
        }
        if losers_settle {
            let losers: Vec<Seat> = seats.iter().copied().filter(|&s| s != w).collect();
            for (i, &a) in losers.iter().enumerate() {
                for &b in &losers[i + 1..] {
                    match score(a).cmp(&score(b)) {
                        std::cmp::Ordering::Greater => pay(b, a, score(a) - score(b)),
                        std::cmp::Ordering::Less => pay(a, b, score(b) - score(a)),
                        std::cmp::Ordering::Equal => {}
                    }
                }
            }
        }
        let adds_up = l.players.iter().all(|p| {
            let net: i64 = rows
                .iter()
                .map(|r| {
                    if r.1 == p.seat {
                        r.2
                    } else if r.0 == p.seat {
                        -r.2
                    } else {
                        0
                    }
                })
                .sum();
            net == p.settlement
        });
        if adds_up {
            return Some(rows);
        }
    }
    None
}

/// The end of a Hungarian hand: every player's hand with what it scored, the settlement pair by
/// pair, the scores.
fn hungarian_end(after: &hungarian::View, l: &hungarian::SettlementView, names: &[String]) -> Markup {
    let how = match (l.winner, l.robbed_from) {
        (None, _) => "void: only the dead wall was left".to_owned(),
        (Some(w), Some(r)) => format!("{} wins on {}'s discard", who(names, w), who(names, r)),
        (Some(w), None) if l.heavenly => format!("{} wins on the dealt hand", who(names, w)),
        (Some(w), None) => format!("{} wins on their own draw", who(names, w)),
    };
    let deltas: Vec<i64> =
        after.players.iter().map(|p| l.players.iter().find(|h| h.seat == p.seat).map_or(0, |h| h.settlement)).collect();
    html! {
        section.hand-end #hand-end aria-labelledby="hand-end-title" {
            h2 #hand-end-title { "End of hand " (l.hand) ": " (how) }
            @for h in &l.players {
                @let winner = l.winner == Some(h.seat);
                div.hand-score.win[winner] data-seat=(h.seat) {
                    h3 { (who(names, h.seat)) " (" (wind_name(h.wind)) ")" @if winner { " — Mahjong" } }
                    @let (concealed, won_on) = apart(&h.hand, l.tile.filter(|_| winner));
                    @let melds: Vec<MeldView> = h.melds.iter().map(|m| MeldView {
                        kind: if m.concealed { MeldKind::ConcealedKong } else { m.kind }, tiles: m.tiles.clone(), called: None, from: m.from }).collect();
                    (PreEscaped(strip_with(&concealed, &melds, won_on, &h.flowers, "the hand at the end")))
                    table.rec.lines {
                        tbody {
                            @for line in &h.lines {
                                tr data-line=(line.name) { td { (names::hungarian_line(&line.name)) } td.n { @if line.points != 0 { (line.points) } } }
                            }
                            @if let Some(limit) = &h.limit {
                                tr data-line=(limit.name) { td { "Limit hand: " (names::hungarian_line(&limit.name)) } td.n { "+" (limit.points) } }
                            }
                        }
                    }
                    p.value {
                        (h.points) " points"
                        @if h.doublings > 0 { " × " (1u64 << h.doublings.min(62)) }
                        @if let Some(limit) = &h.limit { " + " (limit.points) }
                        " = " b { (h.score) } " · settlement " b { (format!("{:+}", h.settlement)) }
                    }
                }
            }
            @if let Some(rows) = hungarian_pairs(l) {
                h3 { "Settlement, pair by pair" }
                table.rec.pairs {
                    thead { tr { th { "From" } th { "To" } th.n { "Points" } th { "For" } } }
                    tbody {
                        @for (from, to, points, doubled) in &rows {
                            tr {
                                td { (who(names, *from)) } td { (who(names, *to)) } td.n { (points) }
                                td {
                                    @if Some(*to) == l.winner { "the winner's score" } @else { "the difference of their scores" }
                                    @if *doubled { ", doubled for East" }
                                }
                            }
                        }
                    }
                }
            }
            (scores_table(names, &after.scores, &deltas))
        }
    }
}

/// The end of a round of a game without a hand-end view of its own: each result's summary, and
/// each seat's score before, its change and after (`scores`, the scores after the record).
fn round_end(results: &[RoundResult], scores: &[i64], names: &[String]) -> Markup {
    let rounds: Vec<String> = results.iter().map(|r| r.round.to_string()).collect();
    let mut total = vec![0i64; scores.len()];
    for r in results {
        for (t, d) in total.iter_mut().zip(&r.deltas) {
            *t += d;
        }
    }
    html! {
        section.hand-end #hand-end aria-labelledby="hand-end-title" {
            h2 #hand-end-title { "End of round " (rounds.join(" and ")) }
            @for r in results { p.summary { (named(&r.summary, names)) } }
            (scores_table(names, scores, &total))
        }
    }
}

/// Places from final scores: equal scores share a place.
fn places(scores: &[i64]) -> Vec<u32> {
    paifu_core::placements_by_score(scores)
}

/// The end of the game: places, final scores, and for riichi the points after uma and oka (the
/// engine's `rank` and `final_points` facts of the last round).
fn final_screen(s: &Step, scores: &[i64], names: &[String]) -> Markup {
    let facts = s.results.last().map(|r| r.facts.as_slice()).unwrap_or(&[]);
    let fact =
        |seat: usize, key: &str| facts.iter().find(|f| f.seat == Some(seat as Seat) && f.key == key).map(|f| f.value);
    let riichi = matches!(s.view, View::Riichi(_)) && fact(0, "final_points").is_some();
    let by_score = places(scores);
    let mut order: Vec<usize> = (0..scores.len()).collect();
    let place = |i: usize| if riichi { fact(i, "rank").map_or(by_score[i], |r| r as u32) } else { by_score[i] };
    order.sort_by_key(|&i| (place(i), i));
    html! {
        section.final-screen #final aria-labelledby="final-title" {
            h2 #final-title { "Final standings" }
            table.rec.final {
                thead { tr { th.n { "Place" } th { "Player" } th.n { "Final score" } @if riichi { th.n { "Points" } } } }
                tbody {
                    @for i in order {
                        tr data-seat=(i) {
                            td.n { (place(i)) } td { (who(names, i as Seat)) } td.n { (scores[i]) }
                            @if riichi { td.n { (fact(i, "final_points").map(|p| format!("{:+.1}", p as f64 / 1000.0)).unwrap_or_default()) } }
                        }
                    }
                }
            }
            @if let Some(t) = &s.final_terms {
                p.k { "Points: the final score less the return points, plus uma and oka, in thousands (" (t) ")." }
            }
        }
    }
}

/// The scores of a position and whether its game is over.
fn scores_of(v: &View) -> (Vec<i64>, bool) {
    match v {
        View::Tzq(v) => (v.seats.iter().map(|s| s.score).collect(), v.over),
        View::Riichi(v) => (v.scores.clone(), v.over),
        View::Mcr(v) => (v.scores.clone(), v.over),
        View::Hungarian(v) => (v.scores.clone(), v.over),
        View::Tayu(v) => (v.scores.clone(), v.over),
    }
}

/// The screens of a step whose record ended rounds (none otherwise): the hand's end, and at the
/// game's end the final standings.
pub(crate) fn screen(s: &Step, names: &[String]) -> Markup {
    if s.results.is_empty() {
        return html! {};
    }
    let (scores, over) = scores_of(&s.view);
    html! {
        // At the game's end the final standings come first.
        @if over { (final_screen(s, &scores, names)) }
        @match (&s.view, s.ended_table.as_ref()) {
            (View::Riichi(v), _) if v.hand_end.is_some() => {
                @if let Some(h) = &v.hand_end { (riichi_end(h, names)) }
            }
            (View::Mcr(v), before) => {
                @let before = match before { Some(View::Mcr(b)) => Some(b), _ => None };
                (mcr_end(v, before, &s.results, names))
            }
            (View::Hungarian(v), _) if v.last.is_some() => {
                @if let Some(l) = &v.last { (hungarian_end(v, l, names)) }
            }
            _ => (round_end(&s.results, &scores, names))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use paifu_core::riichi::{ShownHand, Transfer, WinView, YakuLine};

    fn ts(s: &str) -> Vec<Tile> {
        paifu_core::mahjong::parse_tiles(s).unwrap()
    }

    fn names() -> Vec<String> {
        ["Ann", "Bo", "Cy", "Di"].map(String::from).to_vec()
    }

    fn win() -> WinView {
        WinView {
            seat: 1,
            from: Some(2),
            tile: "4s".parse().unwrap(),
            hand: ts("234m567m234p88p56s"),
            melds: vec![],
            yaku: vec![
                YakuLine { name: "riichi", han: 1 },
                YakuLine { name: "pinfu", han: 1 },
                YakuLine { name: "aka_dora", han: 1 },
                YakuLine { name: "ura_dora", han: 2 },
            ],
            han: 5,
            fu: 30,
            yakuman: 0,
            limit: "mangan",
            points: 8000,
        }
    }

    #[test]
    fn a_win_shows_its_hand_yaku_value_indicators_payments_and_scores() {
        let h = HandEnd {
            hand: "E3".into(),
            honba: 1,
            how: HandEndKind::Win { wins: vec![win()] },
            payments: vec![
                Transfer { from: Some(1), to: None, points: 1000 },
                Transfer { from: Some(2), to: Some(1), points: 8300 },
                Transfer { from: None, to: Some(1), points: 1000 },
            ],
            deltas: vec![0, 8300, -8300, 0],
            scores: vec![25000, 33300, 16700, 25000],
            dora_indicators: ts("1m"),
            ura_indicators: ts("3p"),
        };
        let o = riichi_end(&h, &names()).into_string();
        assert!(
            o.contains("End of East 3, 1 honba: Bo wins by ron on Cy&#39;s discard")
                || o.contains("End of East 3, 1 honba: Bo wins by ron on Cy's discard"),
            "{o}"
        );
        for (label, han) in [("Riichi", 1), ("All runs (no-points hand)", 1), ("Red fives", 1), ("Ura dora", 2)] {
            assert!(o.contains(&format!("<td>{label} <span class=\"orig\" lang=\"ja\">")), "{label}: {o}");
            assert!(o.contains(&format!("</span></td><td class=\"n\">{han}</td>")), "{label}: {o}");
        }
        assert!(o.contains("pinfu 平和"), "{o}");
        assert!(o.contains("<b>5 han 30 fu, mangan</b>: <b class=\"points\">8000</b> points"), "{o}");
        // The winning tile apart: 13 tiles, a gap, then 4s.
        assert!(o.contains("aria-label=\"the winning hand, won on 4s\""), "{o}");
        assert!(o.contains("translate(323 1)"), "the 14th tile starts after a gap: {o}");
        assert!(o.contains("aria-label=\"ura dora indicators\"") && o.contains("<title>3p</title>"), "{o}");
        // Each payment says what it is for: the deposit, the hand and its honba, the sticks.
        assert!(o.contains("<td>Bo</td><td>the table</td><td class=\"n\">1000</td><td>riichi deposit</td>"), "{o}");
        assert!(
            o.contains("<td>Cy</td><td>Bo</td><td class=\"n\">8300</td><td>ron: the hand 8000 + 1 honba 300</td>"),
            "{o}"
        );
        assert!(
            o.contains("<td>the table</td><td>Bo</td><td class=\"n\">1000</td><td>the riichi stick on the table</td>"),
            "{o}"
        );
        assert!(
            o.contains(
                "<td>2</td><td>Cy</td><td class=\"n\">25000</td><td class=\"n\">-8300</td><td class=\"n\">16700</td>"
            ),
            "{o}"
        );
    }

    #[test]
    fn a_tsumo_with_honba_names_the_honba_rows() {
        let mut w = win();
        w.from = None;
        let h = HandEnd {
            hand: "S1".into(),
            honba: 2,
            how: HandEndKind::Win { wins: vec![w] },
            payments: vec![
                Transfer { from: Some(0), to: Some(1), points: 4000 },
                Transfer { from: Some(2), to: Some(1), points: 2000 },
                Transfer { from: Some(3), to: Some(1), points: 2000 },
                Transfer { from: Some(0), to: Some(1), points: 200 },
                Transfer { from: Some(2), to: Some(1), points: 200 },
                Transfer { from: Some(3), to: Some(1), points: 200 },
            ],
            deltas: vec![-4200, 8600, -2200, -2200],
            scores: vec![20800, 33600, 22800, 22800],
            dora_indicators: ts("1m"),
            ura_indicators: vec![],
        };
        let o = riichi_end(&h, &names()).into_string();
        assert_eq!(o.matches("<td>tsumo: their share of the hand</td>").count(), 3, "{o}");
        assert_eq!(o.matches("<td>tsumo: 2 honba</td>").count(), 3, "{o}");
    }

    #[test]
    fn draws_show_the_tenpai_hands_and_name_the_abort() {
        let mut h = HandEnd {
            hand: "S4".into(),
            honba: 0,
            how: HandEndKind::ExhaustiveDraw {
                tenpai: vec![ShownHand { seat: 3, hand: ts("234m567m234p88p56s"), melds: vec![] }],
                nagashi: vec![],
            },
            payments: vec![Transfer { from: Some(0), to: Some(3), points: 1000 }],
            deltas: vec![-1000, -1000, -1000, 3000],
            scores: vec![24000, 24000, 24000, 28000],
            dora_indicators: ts("7z"),
            ura_indicators: vec![],
        };
        let o = riichi_end(&h, &names()).into_string();
        assert!(o.contains("End of South 4, 0 honba: Exhaustive draw") && o.contains("Di (seat 3): tenpai"), "{o}");
        assert!(o.contains("noten payment to a tenpai hand"), "{o}");
        assert!(!o.contains("ura dora"), "{o}");
        h.how = HandEndKind::AbortiveDraw { abort: riichi::Abort::NineTerminals };
        h.payments.clear();
        let o = riichi_end(&h, &names()).into_string();
        assert!(o.contains("Abortive draw: Nine terminals (kyuushu kyuuhai)") && o.contains("No payments."), "{o}");
    }

    #[test]
    fn a_closed_kan_in_a_shown_hand_has_its_outer_tiles_face_down() {
        let kan = MeldView { kind: MeldKind::ConcealedKong, tiles: ts("1111z"), called: None, from: None };
        let pon =
            MeldView { kind: MeldKind::Pung, tiles: ts("777p"), called: Some("7p".parse().unwrap()), from: Some(2) };
        let s = strip(&ts("11m"), &[kan, pon], None, "x");
        assert_eq!(s.matches("face down").count(), 2, "{s}");
        assert_eq!(s.matches("rotate(-90)").count(), 1, "one claimed tile sideways: {s}");
    }

    #[test]
    fn mcr_payments_are_eight_and_the_fan() {
        let (rows, d) = mcr_payments(4, 1, Some(0), 10);
        assert_eq!(rows, [(0, 18), (2, 8), (3, 8)]);
        assert_eq!(d, [-18, 34, -8, -8]);
        let (rows, d) = mcr_payments(4, 2, None, 8);
        assert_eq!(rows, [(0, 16), (1, 16), (3, 16)]);
        assert_eq!(d, [-16, -16, 48, -16]);
        assert_eq!(named("seat 1 wins on seat 0's 5z", &names()), "Bo wins on Ann's 5z");
    }

    /// Names come from uploaded logs: a name that reads like a seat must not rename another
    /// seat (before, names were put in one seat at a time, and a later pass rewrote an earlier
    /// name: names[3] = "seat 1" made "seat 3 wins" read "Bo wins").
    #[test]
    fn a_name_that_reads_like_a_seat_is_not_renamed() {
        let names: Vec<String> = ["Ann", "Bo", "seat 0", "seat 1"].map(String::from).into();
        assert_eq!(named("seat 3 wins on seat 2's 5z", &names), "seat 1 wins on seat 0's 5z");
        assert_eq!(named("seat 1 pays seat 3", &names), "Bo pays seat 1");
        let names: Vec<String> = ["seat 1", "Bo"].map(String::from).into();
        assert_eq!(named("seat 0 wins", &names), "seat 1 wins");
        // Seats past the table and other numbers are left alone.
        assert_eq!(named("seat 12 and seat 7, seat x, seat ", &names), "seat 12 and seat 7, seat x, seat ");
        assert_eq!(named("seat 1seat 0", &names), "Boseat 1");
    }
}

#[cfg(test)]
mod round_end_tests {
    use super::*;
    use paifu_core::log::Encoding;

    /// A TZQ and a Ta Yü game: the step that ends a round shows its own screen with the
    /// engine's summary and each seat's change, adding up to the scores after it.
    #[test]
    fn other_games_get_a_round_end_screen_from_their_results() {
        let tzq = paifu_recorder::samples::tzq_bytes("round end", ["Ann", "Bo"], Encoding::Binary);
        let tayu = paifu_recorder::samples::game_bytes::<paifu_core::tayu::Tayu>(
            "standard",
            "round end",
            &["Ann", "Bo", "Cy"],
            Encoding::Binary,
        )
        .unwrap();
        for bytes in [tzq, tayu] {
            let first = crate::viewer::step(&bytes, Some(0), None).unwrap();
            let names: Vec<String> = ["Ann", "Bo", "Cy"].map(String::from).to_vec();
            assert!(screen(&first, &names).into_string().is_empty(), "no round ended at the deal");
            // The step on which the first round ends.
            let end = first.round_starts.get(1).map_or(first.steps, |r| r.1);
            let s = crate::viewer::step(&bytes, Some(end), None).unwrap();
            assert!(!s.results.is_empty(), "step {end} ends a round");
            assert!(s.ended_table.is_some(), "the table the round ended on is kept");
            let o = screen(&s, &names).into_string();
            let r = &s.results[0];
            assert!(o.contains(&format!("End of round {}</h2>", r.round)), "{o}");
            let json = serde_json::to_value(&s.view).unwrap();
            for (seat, d) in r.deltas.iter().enumerate() {
                let after = json["scores"][seat].as_i64().unwrap();
                let line =
                    format!("<td class=\"n\">{}</td><td class=\"n\">{d:+}</td><td class=\"n\">{after}</td>", after - d);
                assert!(o.contains(&line), "seat {seat}: {line} in {o}");
            }
            // The last step: the final standings, places by score.
            let last = crate::viewer::step(&bytes, Some(usize::MAX), None).unwrap();
            let o = screen(&last, &names).into_string();
            assert!(o.contains("Final standings") && o.contains("<td class=\"n\">1</td>"), "{o}");
        }
    }
}
