//! Plots as SVG strings (plotters' SVG backend). No I/O: callers write or embed the text.
//!
//! Every function answers an `<svg>` element that scales to its container (`viewBox`, no fixed
//! pixel size in CSS), with a `<title>` for screen readers. Empty data gives a small SVG saying
//! so; a drawing error never panics, it gives an SVG with the error.

use paifu_core::RoundResult;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::collections::BTreeMap;

const W: u32 = 640;
const H: u32 = 360;

/// Seat colours: distinguishable, and readable on white.
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// Text for SVG or HTML, in element content or a double-quoted attribute.
pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Makes plotters' output responsive and labelled.
fn finish(svg: String, title: &str) -> String {
    let t = escape(title);
    let svg = match svg.find("<svg") {
        Some(i) => svg[i..].to_owned(),
        None => svg,
    };
    let svg = svg.replacen(
        "<svg ",
        &format!("<svg role=\"img\" aria-label=\"{t}\" preserveAspectRatio=\"xMidYMid meet\" class=\"plot\" "),
        1,
    );
    // Drop the fixed size so CSS decides; the viewBox keeps the proportions.
    let svg = svg.replacen(&format!("width=\"{W}\" height=\"{H}\""), "", 1);
    match svg.find('>') {
        Some(i) => format!("{}<title>{t}</title>{}", &svg[..=i], &svg[i + 1..]),
        None => svg,
    }
}

fn message_svg(title: &str, message: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"{t}\" class=\"plot\" viewBox=\"0 0 {W} 80\">\
         <title>{t}</title><text x=\"10\" y=\"30\" font-family=\"sans-serif\" font-size=\"16\">{t}</text>\
         <text x=\"10\" y=\"60\" font-family=\"sans-serif\" font-size=\"14\" fill=\"#555\">{m}</text></svg>",
        t = escape(title),
        m = escape(message)
    )
}

type Drawing<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// What plotters answers when a chart cannot be drawn.
type DrawError = DrawingAreaErrorKind<<SVGBackend<'static> as DrawingBackend>::ErrorType>;

fn draw(title: &str, f: impl FnOnce(&Drawing<'_>) -> Result<(), DrawError>) -> String {
    let mut buf = String::new();
    let result = {
        let root = SVGBackend::with_string(&mut buf, (W, H)).into_drawing_area();
        root.fill(&WHITE).and_then(|_| f(&root)).and_then(|_| root.present())
    };
    match result {
        Ok(()) => finish(buf, title),
        Err(e) => message_svg(title, &format!("the chart could not be drawn: {e}")),
    }
}

/// The score every seat started with, from the final scores and the rounds' score changes: the
/// most common `final - sum of changes` (a game may add something after its last round, such as
/// riichi's leftover sticks to the top player, so one seat can differ).
pub fn starting_score(final_scores: &[i64], rounds: &[RoundResult]) -> i64 {
    let starts: Vec<i64> = final_scores
        .iter()
        .enumerate()
        .map(|(s, f)| f - rounds.iter().map(|r| r.deltas.get(s).copied().unwrap_or(0)).sum::<i64>())
        .collect();
    starts.iter().copied().max_by_key(|v| (starts.iter().filter(|x| *x == v).count(), -v)).unwrap_or(0)
}

/// Runs `$body` with `$m`, seat `$s`'s point marker at a point: a shape of its own as well as a
/// colour (circle, triangle, square, cross), so that lines stay apart in grey print and for
/// colour-blind readers.
macro_rules! with_marker {
    ($s:expr, $c:expr, $m:ident => $body:expr) => {
        match $s % 4 {
            0 => {
                let $m = |p| Circle::new(p, 5, $c.filled());
                $body
            }
            1 => {
                let $m = |p| TriangleMarker::new(p, 7, $c.filled());
                $body
            }
            2 => {
                let $m = |p| EmptyElement::at(p) + Rectangle::new([(-5, -5), (5, 5)], $c.filled());
                $body
            }
            _ => {
                let $m = |p| Cross::new(p, 6, $c.stroke_width(3));
                $body
            }
        }
    };
}

/// Each seat's total score after each round (round 0 = the start, `start` points each), one line
/// per seat.
pub fn score_chart(players: &[String], rounds: &[RoundResult], start: i64, title: &str) -> String {
    if players.is_empty() || rounds.is_empty() {
        return message_svg(title, "no rounds were completed");
    }
    let mut lines: Vec<Vec<(i32, i64)>> = vec![vec![(0, start)]; players.len()];
    for (i, r) in rounds.iter().enumerate() {
        for (s, line) in lines.iter_mut().enumerate() {
            let prev = line.last().map_or(start, |p| p.1);
            line.push((i as i32 + 1, prev + r.deltas.get(s).copied().unwrap_or(0)));
        }
    }
    let lo = lines.iter().flatten().map(|p| p.1).min().unwrap_or(0).min(0);
    let hi = lines.iter().flatten().map(|p| p.1).max().unwrap_or(1).max(lo + 1);
    let pad = ((hi - lo) / 10).max(1);
    draw(title, |root| {
        // The legend has a column of its own on the right, so it never covers a line.
        let (plot_area, legend_area) = root.split_horizontally(W - LEGEND_W);
        let mut chart = ChartBuilder::on(&plot_area)
            .caption(title, ("sans-serif", 24))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(60)
            .build_cartesian_2d(0..rounds.len() as i32, (lo - pad)..(hi + pad))?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", 16))
            .axis_desc_style(("sans-serif", 16))
            .x_desc("round")
            .y_desc("score")
            .x_labels(rounds.len().min(20) + 1)
            .draw()?;
        for (s, line) in lines.iter().enumerate() {
            let c = PALETTE[s % PALETTE.len()];
            let style = c.stroke_width(3);
            chart.draw_series(LineSeries::new(line.iter().copied(), style))?;
            with_marker!(s, c, m => chart.draw_series(line.iter().map(|&p| m(p))).map(|_| ()))?;
        }
        for (s, name) in players.iter().enumerate() {
            let c = PALETTE[s % PALETTE.len()];
            let y = 60 + 28 * s as i32;
            legend_area.draw(&PathElement::new(vec![(4, y), (34, y)], c.stroke_width(3)))?;
            with_marker!(s, c, m => legend_area.draw(&m((19, y))))?;
            let shown: String = name.chars().take(14).collect();
            legend_area.draw(&Text::new(shown, (40, y - 9), ("sans-serif", 16).into_font()))?;
        }
        Ok(())
    })
}

/// Room on the right of a line chart for its legend.
const LEGEND_W: u32 = 150;

/// A tick's value with at most three decimals and no trailing zeros: plotters' ticks are sums of
/// steps, `0.30000000000000004` rather than `0.3`.
fn decimal(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// Vertical bars: one per labelled value (histograms of numbers, placements).
pub fn bars(title: &str, values: &[(String, f64)], x_desc: &str, y_desc: &str) -> String {
    if values.is_empty() {
        return message_svg(title, "no data yet");
    }
    let max = values.iter().map(|v| v.1).fold(0.0, f64::max).max(1.0);
    let labels: Vec<String> = values.iter().map(|v| v.0.clone()).collect();
    // Counts are whole: at most one tick per whole number, and labels without decimals.
    let counts = values.iter().all(|v| v.1.fract() == 0.0);
    let y_ticks = if counts { (max * 1.1).floor() as usize + 1 } else { 10 }.min(10);
    draw(title, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 24))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(60)
            .build_cartesian_2d((0..values.len() as i32 - 1).into_segmented(), 0.0..max * 1.1)?;
        let fmt = |v: &SegmentValue<i32>| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => labels.get(*i as usize).cloned().unwrap_or_default(),
            SegmentValue::Last => String::new(),
        };
        chart
            .configure_mesh()
            .label_style(("sans-serif", 16))
            .axis_desc_style(("sans-serif", 16))
            .disable_x_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_labels(values.len().min(30))
            .x_label_formatter(&fmt)
            .y_labels(y_ticks)
            .light_line_style(if counts { TRANSPARENT } else { BLACK.mix(0.1) })
            .y_label_formatter(&|v: &f64| if counts { format!("{v:.0}") } else { decimal(*v) })
            .draw()?;
        chart.draw_series(values.iter().enumerate().map(|(i, (_, v))| {
            let i = i as i32;
            let mut r =
                Rectangle::new([(SegmentValue::Exact(i), 0.0), (SegmentValue::Exact(i + 1), *v)], PALETTE[0].filled());
            r.set_margin(0, 0, 4, 4);
            r
        }))?;
        Ok(())
    })
}

/// Horizontal bars, for named categories (scoring categories, yaku), largest first as given.
pub fn frequency_bars(title: &str, values: &[(String, f64)]) -> String {
    if values.is_empty() {
        return message_svg(title, "no data yet");
    }
    let shown: Vec<&(String, f64)> = values.iter().take(24).collect();
    let n = shown.len() as i32;
    let max = shown.iter().map(|v| v.1).fold(0.0, f64::max).max(1.0);
    let label_width = shown.iter().map(|v| v.0.chars().count()).max().unwrap_or(4).clamp(4, 28) as u32 * 9 + 12;
    draw(title, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 24))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(label_width)
            .build_cartesian_2d(0.0..max * 1.1, (0..n - 1).into_segmented())?;
        let fmt = |v: &SegmentValue<i32>| match v {
            // Largest at the top: row 0 is drawn at the top.
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
                shown.get((n - 1 - *i) as usize).map(|v| v.0.clone()).unwrap_or_default()
            }
            SegmentValue::Last => String::new(),
        };
        chart
            .configure_mesh()
            .label_style(("sans-serif", 16))
            .axis_desc_style(("sans-serif", 16))
            .disable_y_mesh()
            .y_labels(shown.len())
            .y_label_formatter(&fmt)
            .draw()?;
        chart.draw_series(shown.iter().enumerate().map(|(i, (_, v))| {
            let row = n - 1 - i as i32;
            let mut r = Rectangle::new(
                [(0.0, SegmentValue::Exact(row)), (*v, SegmentValue::Exact(row + 1))],
                PALETTE[2].filled(),
            );
            r.set_margin(3, 3, 0, 0);
            r
        }))?;
        Ok(())
    })
}

/// How often a player took each place.
pub fn placement_chart(player: &str, placements: &BTreeMap<u32, u64>) -> String {
    let max_place = placements.keys().max().copied().unwrap_or(0);
    let values: Vec<(String, f64)> =
        (1..=max_place).map(|p| (ordinal(p), placements.get(&p).copied().unwrap_or(0) as f64)).collect();
    bars(&format!("Placements of {player}"), &values, "place", "games")
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
