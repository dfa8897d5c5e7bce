//! The end of a riichi hand on its own screen, from the engine's settlement
//! ([`paifu_core::riichi::HandEnd`]): each winning hand with its winning tile apart, the yaku
//! with their han, fu, dora, red fives and ura dora with the ura indicators revealed; the tenpai
//! hands of an exhaustive draw; an abortive draw named; then who paid whom and the new scores.
//! Nothing is computed here but sums for the reader: every number is the engine's.

use crate::html::esc;
use crate::table::hand_title;
use crate::tiles::{Pose, Row, H};
use paifu_core::mahjong::{MeldKind, Tile};
use paifu_core::riichi::{self, HandEnd, HandEndKind, MeldView};
use paifu_core::{RoundResult, Seat};
use std::fmt::Write as _;

/// Tiles in a row as a picture of their own: the hand, its melds after a gap (a closed kan's
/// outer tiles face down, a claimed tile sideways), the winning tile set apart at the end.
fn strip(hand: &[Tile], melds: &[MeldView], apart: Option<Tile>, label: &str) -> String {
    let mut row = Row::new(1, H + 1);
    for &t in hand {
        row.push(t, Pose::Up, false);
    }
    if let Some(t) = apart {
        row.gap(10);
        row.push(t, Pose::Up, false);
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
            row.push(t, pose, false);
        }
    }
    let w = row.x + 1;
    let h = H + 2;
    format!(
        "<svg class=\"tiles-svg\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" \
         role=\"img\" aria-label=\"{}\" font-family=\"sans-serif\">{}</svg>",
        esc(label),
        row.svg
    )
}

/// A yaku's name for people: `pinfu` Pinfu, `aka_dora` Red fives.
pub(crate) fn yaku_label(name: &str) -> String {
    match name {
        "aka_dora" => "Red fives".to_owned(),
        "ura_dora" => "Ura dora".to_owned(),
        "dora" => "Dora".to_owned(),
        _ => {
            let spaced = name.replace('_', " ");
            let mut c = spaced.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
        }
    }
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

/// The screen for the end of hand `h`; `names` are the seats' players.
pub(crate) fn hand_end_html(h: &HandEnd, names: &[String]) -> String {
    let who = |s: Seat| names.get(usize::from(s)).cloned().unwrap_or_else(|| format!("seat {s}"));
    let mut o = String::new();
    let title = hand_title(&h.hand, h.honba);
    let headline = match &h.how {
        HandEndKind::Win { wins } => wins
            .iter()
            .map(|w| match w.from {
                None => format!("{} wins by tsumo", who(w.seat)),
                Some(f) => format!("{} wins by ron on {}'s discard", who(w.seat), who(f)),
            })
            .collect::<Vec<_>>()
            .join("; "),
        HandEndKind::ExhaustiveDraw { .. } => "Exhaustive draw".to_owned(),
        HandEndKind::AbortiveDraw { abort } => format!("Abortive draw: {}", abort_label(*abort)),
        HandEndKind::Chombo { seat } => format!("Chombo by {}: the hand is annulled and dealt again", who(*seat)),
    };
    let _ = write!(
        o,
        "<section class=\"hand-end\" id=\"hand-end\" aria-labelledby=\"hand-end-title\">\
         <h2 id=\"hand-end-title\">End of {}: {}</h2>",
        esc(&title),
        esc(&headline)
    );
    match &h.how {
        HandEndKind::Win { wins } => {
            for w in wins {
                let _ = write!(
                    o,
                    "<div class=\"win\" data-seat=\"{}\"><h3>{} (seat {})</h3>{}",
                    w.seat,
                    esc(&who(w.seat)),
                    w.seat,
                    strip(&w.hand, &w.melds, Some(w.tile), &format!("the winning hand, won on {}", w.tile))
                );
                o.push_str(
                    "<table class=\"rec yaku\"><thead><tr><th>Yaku</th><th class=\"n\">Han</th></tr></thead><tbody>",
                );
                for y in &w.yaku {
                    let _ = write!(
                        o,
                        "<tr data-yaku=\"{}\"><td>{}</td><td class=\"n\">{}</td></tr>",
                        esc(y.name),
                        esc(&yaku_label(y.name)),
                        y.han
                    );
                }
                let value = if w.yakuman > 0 {
                    format!("{} yakuman", w.yakuman)
                } else if w.limit != "none" {
                    format!("{} han {} fu, {}", w.han, w.fu, w.limit)
                } else {
                    format!("{} han {} fu", w.han, w.fu)
                };
                let _ = write!(
                    o,
                    "</tbody></table><p class=\"value\"><b>{}</b>: <b class=\"points\">{}</b> points</p></div>",
                    esc(&value),
                    w.points
                );
            }
        }
        HandEndKind::ExhaustiveDraw { tenpai, nagashi } => {
            if tenpai.is_empty() {
                o.push_str("<p>Nobody was tenpai.</p>");
            }
            for t in tenpai {
                let _ = write!(
                    o,
                    "<div class=\"tenpai\" data-seat=\"{}\"><h3>{} (seat {}): tenpai</h3>{}</div>",
                    t.seat,
                    esc(&who(t.seat)),
                    t.seat,
                    strip(&t.hand, &t.melds, None, "a tenpai hand")
                );
            }
            for &s in nagashi {
                let _ = write!(o, "<p>{} (seat {s}): nagashi mangan.</p>", esc(&who(s)));
            }
        }
        HandEndKind::AbortiveDraw { .. } | HandEndKind::Chombo { .. } => {}
    }
    if !h.dora_indicators.is_empty() {
        let _ = write!(o, "<p>Dora indicators {}", strip(&h.dora_indicators, &[], None, "dora indicators"));
        if !h.ura_indicators.is_empty() {
            let _ = write!(o, " · ura dora indicators {}", strip(&h.ura_indicators, &[], None, "ura dora indicators"));
        }
        o.push_str("</p>");
    }
    // Who paid whom.
    let party = |s: Option<Seat>| s.map_or_else(|| "the table".to_owned(), &who);
    if h.payments.is_empty() {
        o.push_str("<p>No payments.</p>");
    } else {
        o.push_str("<h3>Payments</h3><table class=\"rec payments\"><thead><tr><th>From</th><th>To</th><th class=\"n\">Points</th><th>For</th></tr></thead><tbody>");
        for p in &h.payments {
            let why = match (p.from, p.to) {
                (Some(_), None) => "riichi deposit",
                (None, Some(_)) => "riichi sticks on the table",
                _ => "",
            };
            let _ = write!(
                o,
                "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td>{why}</td></tr>",
                esc(&party(p.from)),
                esc(&party(p.to)),
                p.points
            );
        }
        o.push_str("</tbody></table>");
    }
    o.push_str("<h3>Scores</h3><table class=\"rec scores\"><thead><tr><th>Seat</th><th>Player</th><th class=\"n\">Before</th><th class=\"n\">Change</th><th class=\"n\">After</th></tr></thead><tbody>");
    for (s, (&after, &d)) in h.scores.iter().zip(&h.deltas).enumerate() {
        let _ = write!(
            o,
            "<tr><td>{s}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{:+}</td><td class=\"n\">{after}</td></tr>",
            esc(&who(s as Seat)),
            after - d,
            d
        );
    }
    o.push_str("</tbody></table></section>");
    o
}

/// The hand-end screen of a position whose record just ended `results` (none: no screen), with
/// the heading of the next hand's table: riichi's from its engine's hand end, any other game's
/// from its round results (the summary, each seat's change and score).
pub(crate) fn screen(view: &paifu_core::games::View, results: &[RoundResult], names: &[String]) -> String {
    if results.is_empty() {
        return String::new();
    }
    let (mut o, next) = match view {
        paifu_core::games::View::Riichi(v) if v.hand_end.is_some() => {
            let h = v.hand_end.as_ref().map(|h| hand_end_html(h, names)).unwrap_or_default();
            (h, (!v.over).then(|| format!("The next hand: {}", hand_title(&v.hand, v.honba))))
        }
        _ => {
            let json = serde_json::to_value(view).unwrap_or_default();
            let scores: Vec<i64> =
                json["scores"].as_array().map(|a| a.iter().filter_map(|x| x.as_i64()).collect()).unwrap_or_default();
            let over = json["over"].as_bool().unwrap_or(false);
            let round = json["round"].as_u64().unwrap_or(0);
            (round_end_html(results, &scores, names), (!over).then(|| format!("The next round: Round {round}")))
        }
    };
    let next = next.unwrap_or_else(|| "The table at the end of the game".to_owned());
    let _ = write!(o, "<h2 id=\"next-hand-title\">{}</h2>", esc(&next));
    o
}

/// The end of a round of a game without a hand-end view of its own: each result's summary, and
/// each seat's score before, its change and after (`scores`, the scores after the record).
fn round_end_html(results: &[RoundResult], scores: &[i64], names: &[String]) -> String {
    let mut o = String::from("<section class=\"hand-end\" id=\"hand-end\" aria-labelledby=\"hand-end-title\">");
    let rounds: Vec<String> = results.iter().map(|r| r.round.to_string()).collect();
    let _ = write!(o, "<h2 id=\"hand-end-title\">End of round {}</h2>", rounds.join(" and "));
    let mut total = vec![0i64; scores.len()];
    for r in results {
        let _ = write!(o, "<p class=\"summary\">{}</p>", esc(&r.summary));
        for (t, d) in total.iter_mut().zip(&r.deltas) {
            *t += d;
        }
    }
    o.push_str("<table class=\"rec scores\"><thead><tr><th>Seat</th><th>Player</th><th class=\"n\">Before</th><th class=\"n\">Change</th><th class=\"n\">After</th></tr></thead><tbody>");
    for (s, (&after, &d)) in scores.iter().zip(&total).enumerate() {
        let name = names.get(s).cloned().unwrap_or_else(|| format!("seat {s}"));
        let _ = write!(
            o,
            "<tr><td>{s}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{d:+}</td><td class=\"n\">{after}</td></tr>",
            esc(&name),
            after - d
        );
    }
    o + "</tbody></table></section>"
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

    #[test]
    fn a_win_shows_its_hand_yaku_value_indicators_payments_and_scores() {
        let win = WinView {
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
        };
        let h = HandEnd {
            hand: "E3".into(),
            honba: 1,
            how: HandEndKind::Win { wins: vec![win] },
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
        let o = hand_end_html(&h, &names());
        assert!(o.contains("End of East 3, 1 honba: Bo wins by ron on Cy&#39;s discard"), "{o}");
        for (label, han) in [("Riichi", 1), ("Pinfu", 1), ("Red fives", 1), ("Ura dora", 2)] {
            assert!(o.contains(&format!("<td>{label}</td><td class=\"n\">{han}</td>")), "{label}: {o}");
        }
        assert!(o.contains("<b>5 han 30 fu, mangan</b>: <b class=\"points\">8000</b> points"), "{o}");
        // The winning tile apart: 13 tiles, a gap, then 4s.
        assert!(o.contains("aria-label=\"the winning hand, won on 4s\""), "{o}");
        assert!(o.contains("translate(323 1)"), "the 14th tile starts after a gap: {o}");
        assert!(o.contains("aria-label=\"ura dora indicators\"") && o.contains("<title>3p</title>"), "{o}");
        assert!(o.contains("<td>Bo</td><td>the table</td><td class=\"n\">1000</td><td>riichi deposit</td>"), "{o}");
        assert!(o.contains("<td>Cy</td><td>Bo</td><td class=\"n\">8300</td>"), "{o}");
        assert!(o.contains("<td>the table</td><td>Bo</td><td class=\"n\">1000</td><td>riichi sticks"), "{o}");
        assert!(
            o.contains(
                "<td>2</td><td>Cy</td><td class=\"n\">25000</td><td class=\"n\">-8300</td><td class=\"n\">16700</td>"
            ),
            "{o}"
        );
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
        let o = hand_end_html(&h, &names());
        assert!(o.contains("End of South 4, 0 honba: Exhaustive draw") && o.contains("Di (seat 3): tenpai"), "{o}");
        assert!(!o.contains("ura dora"), "{o}");
        h.how = HandEndKind::AbortiveDraw { abort: riichi::Abort::NineTerminals };
        h.payments.clear();
        let o = hand_end_html(&h, &names());
        assert!(o.contains("Abortive draw: Nine terminals (kyuushu kyuuhai)") && o.contains("No payments."), "{o}");
        assert_eq!((yaku_label("menzen_tsumo"), yaku_label("dora")), ("Menzen tsumo".to_owned(), "Dora".to_owned()));
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
            assert!(screen(&first.view, &first.results, &names).is_empty(), "no round ended at the deal");
            // The step on which the first round ends.
            let end = first.round_starts.get(1).map_or(first.steps, |r| r.1);
            let s = crate::viewer::step(&bytes, Some(end), None).unwrap();
            assert!(!s.results.is_empty(), "step {end} ends a round");
            let o = screen(&s.view, &s.results, &names);
            let r = &s.results[0];
            assert!(o.contains(&format!("End of round {}</h2>", r.round)), "{o}");
            assert!(o.contains(&format!("<p class=\"summary\">{}</p>", esc(&r.summary))), "{o}");
            let json = serde_json::to_value(&s.view).unwrap();
            for (seat, d) in r.deltas.iter().enumerate() {
                let after = json["scores"][seat].as_i64().unwrap();
                let line =
                    format!("<td class=\"n\">{}</td><td class=\"n\">{d:+}</td><td class=\"n\">{after}</td>", after - d);
                assert!(o.contains(&line), "seat {seat}: {line} in {o}");
            }
        }
    }
}
