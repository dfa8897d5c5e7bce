use super::*;
use paifu_core::riichi::{FactKind as R, Yaku};
use paifu_core::tzq::{Category, FactKind as T};
use paifu_core::{Fact, RoundResult};

fn game(players: [&str; 2], scores: [i64; 2], rounds: Vec<RoundResult>) -> Played {
    Played {
        game: GameKind::Tzq,
        players: players.iter().map(|p| p.to_string()).collect(),
        final_scores: scores.to_vec(),
        placements: paifu_core::placements_by_score(&scores),
        rounds,
    }
}

fn won(round: u32, seat: u8, points: i64, cats: &[(Category, i64)], turns: i64) -> RoundResult {
    let mut deltas = vec![0, 0];
    deltas[usize::from(seat)] = points;
    let mut facts =
        vec![Fact::seat(seat, T::Win, 1), Fact::seat(seat, T::Points, points), Fact::seat(seat, T::WinByPong, 1)];
    facts.extend(cats.iter().map(|(c, p)| Fact::seat(seat, T::Category(*c), *p)));
    facts.push(Fact::table(T::Turns, turns));
    facts.push(Fact::table(T::Reshuffles, 0));
    RoundResult { round, deltas, summary: String::new(), facts }
}

fn drawn(round: u32, turns: i64) -> RoundResult {
    RoundResult {
        round,
        deltas: vec![0, 0],
        summary: String::new(),
        facts: vec![Fact::table(T::Drawn, 1), Fact::table(T::Turns, turns), Fact::table(T::Reshuffles, 1)],
    }
}

#[test]
fn statistics_add_up() {
    let g1 = game(
        ["Ann", "Bo"],
        [5, 0],
        vec![
            won(1, 0, 3, &[(Category::Pair, 2), (Category::Honours, 1)], 10),
            won(2, 0, 2, &[(Category::Pair, 2)], 12),
        ],
    );
    let g2 = game(["Bo", "Cy"], [0, 0], vec![drawn(1, 30)]);
    let a1 = Analysis::of_game(&g1, None);
    let a2 = Analysis::of_game(&g2, None);
    let sum = a1.clone() + a2.clone();
    // Adding in the other order gives the same.
    assert_eq!(sum, a2 + a1);
    let all = &sum.overall.kinds["tzq"];
    assert_eq!((all.games, all.rounds, all.seat_rounds), (2, 3, 6));
    assert_eq!(all.sum("win"), 2);
    assert_eq!(all.sum("drawn"), 1);
    assert_eq!(all.hit("category:pair"), 2);
    assert_eq!(all.sum("category:pair"), 4);
    assert_eq!(all.dists["turns"].get(&30), Some(&1));
    let bo = &sum.players["Bo"].kinds["tzq"];
    assert_eq!((bo.games, bo.rounds, bo.sum("win")), (2, 3, 0));
    // Bo: second in g1, shared first in g2.
    assert_eq!(bo.placements.get(&2), Some(&1));
    assert_eq!(bo.placements.get(&1), Some(&1));
    let ann = &sum.players["Ann"].kinds["tzq"];
    let m = metrics("tzq", ann);
    let get = |k: &str| m.iter().find(|x| x.key == k).unwrap().value;
    assert_eq!(get("wins"), 2.0);
    assert_eq!(get("win_rate"), 1.0);
    assert_eq!(get("average_win_points"), 2.5);
    assert_eq!(get("average_placement"), 1.0);
    assert_eq!(get("category:honours:wins"), 1.0);
    let all_m = metrics("tzq", all);
    assert!((all_m.iter().find(|x| x.key == "average_turns").unwrap().value - 52.0 / 3.0).abs() < 1e-9);
}

#[test]
fn only_one_player_is_kept_when_asked() {
    let g = game(["Ann", "Bo"], [3, 0], vec![won(1, 0, 3, &[(Category::Pair, 3)], 9)]);
    let a = Analysis::of_game(&g, Some("Bo"));
    assert_eq!(a.players.keys().collect::<Vec<_>>(), vec!["Bo"]);
    assert_eq!(a.overall.games(), 1);
}

#[test]
fn riichi_statistics_from_its_facts() {
    let r1 = RoundResult {
        round: 1,
        deltas: vec![7700, -7700, 0, 0],
        summary: String::new(),
        facts: vec![
            Fact::seat(0, R::Win, 1),
            Fact::seat(0, R::Riichi, 1),
            Fact::seat(0, R::Han, 3),
            Fact::seat(0, R::Fu, 40),
            Fact::seat(0, R::Points, 7700),
            Fact::seat(0, R::Yaku(Yaku::Riichi), 1),
            Fact::seat(0, R::Yaku(Yaku::Pinfu), 1),
            Fact::seat(0, R::Yaku(Yaku::Dora), 2),
            Fact::seat(0, R::Yaku(Yaku::UraDora), 1),
            Fact::seat(1, R::DealIn, 1),
            Fact::seat(2, R::Calls, 2),
        ],
    };
    let r2 = RoundResult {
        round: 2,
        deltas: vec![1500, 1500, -1500, -1500],
        summary: String::new(),
        facts: vec![Fact::table(R::ExhaustiveDraw, 1)],
    };
    let g = Played {
        game: GameKind::Riichi,
        players: vec!["A".into(), "B".into(), "C".into(), "D".into()],
        final_scores: vec![34200, 18800, 23500, 23500],
        placements: vec![1, 4, 2, 2],
        rounds: vec![r1, r2],
    };
    let a = Analysis::of_game(&g, None);
    let m = metrics("riichi", &a.players["A"].kinds["riichi"]);
    let get = |k: &str| m.iter().find(|x| x.key == k).map(|x| x.value).unwrap_or(f64::NAN);
    assert_eq!(get("win_rate"), 0.5);
    assert_eq!(get("riichi_rate"), 0.5);
    assert_eq!(get("average_win_value"), 7700.0);
    assert_eq!(get("average_han"), 3.0);
    assert_eq!(get("yaku:pinfu"), 1.0);
    assert_eq!(get("end:ron"), 0.5);
    assert_eq!(get("end:exhaustive_draw"), 0.5);
    let b = metrics("riichi", &a.players["B"].kinds["riichi"]);
    assert_eq!(b.iter().find(|x| x.key == "deal_in_rate").unwrap().value, 0.5);
    assert_eq!(b.iter().find(|x| x.key == "average_deal_in_value").unwrap().value, 7700.0);
    let c = metrics("riichi", &a.players["C"].kinds["riichi"]);
    assert_eq!(c.iter().find(|x| x.key == "call_rate").unwrap().value, 0.5);
    let all = &a.overall.kinds["riichi"];
    assert_eq!(all.seat_rounds, 8);
    assert_eq!(all.dists["fu"].get(&40), Some(&1));
    // Issue 16: dora are not yaku; they have a chart of their own. Labels read as words.
    let d = crate::distributions("riichi", all);
    let dist = |name: &str| d.iter().find(|x| x.name == name).unwrap().values.clone();
    assert_eq!(dist("yaku"), [("Pinfu".to_owned(), 1.0), ("Riichi".to_owned(), 1.0)]);
    assert_eq!(dist("dora"), [("Dora".to_owned(), 1.0), ("Red fives".to_owned(), 0.0), ("Ura dora".to_owned(), 1.0)]);
    assert_eq!(dist("ends"), [("Exhaustive draw".to_owned(), 1.0), ("Ron".to_owned(), 1.0)]);
    // Every place of the table, a place never taken as 0.
    let placements = |p: &str| a.players[p].kinds["riichi"].placements.clone().into_iter().collect::<Vec<_>>();
    assert_eq!(placements("B"), [(1, 0), (2, 0), (3, 0), (4, 1)]);
    assert_eq!(all.placements.iter().map(|(p, n)| (*p, *n)).collect::<Vec<_>>(), [(1, 1), (2, 2), (3, 0), (4, 1)]);
}

#[test]
fn labels_read_as_words() {
    assert_eq!(crate::label("exhaustive_draw"), "Exhaustive draw");
    assert_eq!(crate::label("abort:nine_terminals"), "Abortive draw: nine terminals");
    assert_eq!(crate::label("fan:pure_double_chow"), "Fan: pure double chow");
    assert_eq!(crate::label("30"), "30");
    assert_eq!(crate::label(""), "");
    assert_eq!(crate::label("ägyptisch"), "Ägyptisch");
}

/// The text of each `<text>` element of an SVG with its x position.
fn texts(svg: &str) -> Vec<(f64, String)> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let x = t.split("x=\"").nth(1)?.split('"').next()?.parse().ok()?;
            let body = t.split('>').nth(1)?.split('<').next()?.trim().to_owned();
            Some((x, body))
        })
        .collect()
}

#[test]
fn count_charts_tick_whole_numbers_only() {
    let svg = plot::bars("Wins by han", &[("1".into(), 3.0), ("2".into(), 1.0)], "han", "count");
    let ticks: Vec<String> = texts(&svg).into_iter().map(|(_, t)| t).filter(|t| t.parse::<f64>().is_ok()).collect();
    for want in ["0", "1", "2", "3"] {
        assert!(ticks.iter().any(|t| t == want), "{want} in {ticks:?}");
    }
    assert!(ticks.iter().all(|t| !t.contains('.')), "{ticks:?}");
    // Averages keep their decimals.
    let svg = plot::bars("Settlement", &[("East".into(), 0.5), ("South".into(), 0.25)], "", "points");
    assert!(texts(&svg).iter().any(|(_, t)| t.contains('.')), "{svg}");
    // ... as short decimals, never a float's sum of steps (0.30000000000000004).
    let svg = plot::bars("Average place", &[("Ann".into(), 1.5), ("Bo".into(), 1.5)], "", "place");
    let ticks: Vec<String> = texts(&svg).into_iter().map(|(_, t)| t).filter(|t| t.parse::<f64>().is_ok()).collect();
    assert!(ticks.len() >= 5 && ticks.iter().all(|t| t.len() <= 5), "{ticks:?}");
}

#[test]
fn the_score_chart_keeps_its_legend_off_the_lines_and_marks_each_seat_its_own_way() {
    let r = |d: Vec<i64>| RoundResult { round: 1, deltas: d, summary: String::new(), facts: vec![] };
    let rounds = vec![r(vec![8000, -8000, 0, 0]), r(vec![0, 0, 1000, -1000])];
    let names: Vec<String> = ["Aiko", "Bao", "Chen", "Dana"].map(String::from).to_vec();
    let svg = plot::score_chart(&names, &rounds, 25000, "Scores");
    for n in &names {
        let (x, _) = texts(&svg).into_iter().find(|(_, t)| t == n).unwrap_or_else(|| panic!("{n} in the legend"));
        assert!(x >= 490.0, "{n}'s legend entry at x = {x} is inside the plot");
    }
    // Circles, triangles (polygons), squares and crosses (lines).
    for shape in ["<circle", "<polygon", "<rect", "<line"] {
        assert!(svg.contains(shape), "{shape}");
    }
}

#[test]
fn formats_render() {
    let g = game(["Ann", "B,o"], [3, 0], vec![won(1, 0, 3, &[(Category::Pair, 3)], 9)]);
    let a = Analysis::of_game(&g, None);
    let text = render(&a, Format::Text);
    assert!(text.contains("Tien Zi Que") && text.contains("Win rate"));
    let json: serde_json::Value = serde_json::from_str(&render(&a, Format::Json)).unwrap();
    assert_eq!(json["players"]["Ann"]["tzq"]["metrics"]["wins"], 1.0);
    let csv = render(&a, Format::Csv);
    assert!(csv.starts_with("subject,game,metric,value\n"));
    assert!(csv.contains("\"B,o\",tzq,wins,0"));
    assert_eq!(render(&Analysis::default(), Format::Text), "No valid games match.\n");
    assert!("xml".parse::<Format>().is_err());
}

#[test]
fn plots_are_svg() {
    let rounds = vec![won(1, 0, 3, &[(Category::Pair, 3)], 9), won(2, 1, 5, &[(Category::Flush, 5)], 9)];
    let svg = plot::score_chart(&["Ann".into(), "Bo".into()], &rounds, 0, "Scores <&>");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
    assert!(svg.contains("<title>Scores &lt;&amp;&gt;</title>"));
    assert!(svg.contains("Ann"));
    let bars = plot::bars("Turns", &[("9".into(), 2.0), ("12".into(), 1.0)], "turns", "rounds");
    assert!(bars.contains("<rect"));
    let freq = plot::frequency_bars("Categories", &[("Pair".into(), 3.0), ("Flush".into(), 1.0)]);
    assert!(freq.contains("Pair") && freq.contains("<rect"));
    let mut p = std::collections::BTreeMap::new();
    p.insert(1, 3);
    p.insert(2, 1);
    assert!(plot::placement_chart("Ann", &p).contains("1st"));
    // Riichi-like: everyone starts at 25000; the top player also got 1000 after the last round.
    let r = vec![RoundResult { round: 1, deltas: vec![8000, -8000], summary: String::new(), facts: vec![] }];
    assert_eq!(plot::starting_score(&[34000, 17000], &r), 25000);
    assert_eq!(plot::starting_score(&[3, 5], &rounds), 0);
    // Empty data says so instead of failing.
    assert!(plot::score_chart(&[], &[], 0, "x").contains("no rounds"));
    assert!(plot::bars("x", &[], "", "").contains("no data"));
    assert!(plot::frequency_bars("x", &[]).contains("no data"));
}
