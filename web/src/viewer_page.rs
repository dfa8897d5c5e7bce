//! The move-by-move viewer's page: the table (and the hand's end over it), the followed seat's
//! hand, the stepping (actions, hands, a seat's decisions, a slider, keys, play), the move that
//! led to the step and the fault where the replay stops. Every step is a plain link and every
//! form a plain GET; the script (`viewer.js`) loads steps in place. Built with maud, which
//! escapes every value by default.

use crate::html::page_with_scripts;
use crate::{data, PageError, State, WebError};
use actix_web::{web, HttpResponse};
use maud::{html, Markup, PreEscaped};
use paifu_core::Seat;
use serde::Deserialize;
use std::fmt::Write as _;

type Page = Result<HttpResponse, PageError>;

#[derive(Deserialize)]
pub(crate) struct StepQuery {
    step: Option<String>,
    seat: Option<String>,
    /// `1`: show only what the followed seat knew (the other hands hidden).
    hide: Option<String>,
    /// `viewer`: only the viewer's part of the page (the script's stepping in place).
    part: Option<String>,
}

impl StepQuery {
    pub(crate) fn hide(&self) -> bool {
        matches!(self.hide.as_deref().map(str::trim), Some("1" | "on" | "true" | "yes"))
    }

    pub(crate) fn step(&self) -> Option<&str> {
        self.step.as_deref()
    }

    /// The seat chosen (`?seat=N`), checked against the game's seats later.
    pub(crate) fn seat(&self) -> Result<Option<Seat>, WebError> {
        match self.seat.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => {
                t.parse().map(Some).map_err(|_| WebError::BadRequest(format!("seat must be a seat number, not {t:?}")))
            }
        }
    }
}

/// A step number from the query: a number, or `end`; none for the viewer's default (the first
/// step, or the faulty record of an invalid log).
pub(crate) fn parse_step(s: Option<&str>) -> Result<Option<usize>, WebError> {
    match s.map(str::trim) {
        None | Some("") => Ok(None),
        Some("end") => Ok(Some(usize::MAX)),
        Some(t) => {
            t.parse().map(Some).map_err(|_| WebError::BadRequest(format!("step must be a number or end, not {t:?}")))
        }
    }
}

/// The viewer's script (web/src/viewer.js): keys, stepping in place, play. Pages load it as
/// `/static/viewer.js`; a page that inlines it (the live page) gets the same.
pub(crate) const VIEWER_JS: &str = include_str!("viewer.js");

pub(crate) async fn viewer(state: web::Data<State>, id: web::Path<String>, q: web::Query<StepQuery>) -> Page {
    let id = data::parse_id(&id)?;
    let want = parse_step(q.step())?;
    let own = q.seat()?;
    let hide = q.hide() && own.is_some();
    let fragment = q.part.as_deref() == Some("viewer");
    let (bytes, form) = data::log_bytes(&state, id).await?;
    if form != paifu_recorder::archive::StoredForm::Binary {
        return Err(WebError::NotFound(format!(
            "game {id} could not be decoded as a log, so it cannot be stepped through"
        ))
        .into());
    }
    let w = crate::viewer::Want { step: want, own, hide };
    let s = web::block(move || crate::viewer::step_as(&bytes, w))
        .await
        .map_err(|_| WebError::Internal("the replay stopped unexpectedly".into()))?
        .map_err(|f| WebError::NotFound(format!("game {id} cannot be replayed: {}", f.describe())))?;
    let seats = view_seats(&s.view);
    if let Some(seat) = own.filter(|&o| usize::from(o) >= seats.len()) {
        return Err(WebError::BadRequest(format!(
            "seat {seat} is not in this game: its seats are 0 to {}",
            seats.len().saturating_sub(1)
        ))
        .into());
    }
    let title = format!("Game #{id}, step {}", s.step);
    let heading = html! { h1 { a href={ "/games/" (id) } { "Game #" (id) } ": move by move" } };
    let b = viewer_html(&format!("/games/{id}/view"), heading, &s, own, hide, &seats, &title);
    let html = if fragment {
        b.into_string()
    } else {
        page_with_scripts(&title, "/games", &b.into_string(), &["/static/viewer.js"])
    };
    Ok(HttpResponse::Ok().content_type("text/html; charset=utf-8").body(html))
}

/// The seats' names of a position.
fn view_seats(v: &paifu_core::games::View) -> Vec<String> {
    let json = serde_json::to_value(v).unwrap_or_default();
    let list =
        json.get("players").or_else(|| json.get("seats")).and_then(|l| l.as_array()).cloned().unwrap_or_default();
    list.iter()
        .enumerate()
        .map(|(i, p)| p.get("name").and_then(|n| n.as_str()).map_or_else(|| format!("seat {i}"), str::to_owned))
        .collect()
}

/// The fault of an invalid log where the replay stops, `step` the step shown: the faulty
/// record (the next one from here) highlighted with its seat, action, code and message.
fn fault_html(f: &paifu_core::Fault, step: usize, steps: usize) -> Markup {
    html! {
        div.fault #fault role="alert" {
            @match f.index {
                Some(i) if i == step && i < steps => {
                    p { b { "The log is invalid at record " (i) } ", the next move from here; the replay stops before it." }
                    table.rec { tbody { tr.faulty {
                        th scope="row" { "Record " (i) }
                        @if let Some(seat) = f.seat { td { "seat " (seat) } }
                        @if let Some(a) = &f.action { td { code #fault-action { (a) } } }
                        td { code #fault-code { (f.code.as_str()) } }
                        td #fault-message { (f.message) }
                    } } }
                }
                Some(i) if i == step => {
                    p { "The log is invalid after its last record: " code #fault-code { (f.code.as_str()) } " " (f.message) }
                }
                Some(i) => {
                    p { "The log is invalid: the replay stops at record " (i) " (" a href={ "?step=" (i) } { "show it" } "): "
                        code #fault-code { (f.code.as_str()) } " " (f.message) }
                }
                None => { p { "The log is invalid: " code #fault-code { (f.code.as_str()) } " " (f.message) } }
            }
        }
    }
}

/// The viewer's page at `base` (its steps are `base?step=N`), with no heading, as text (the
/// live page's form).
pub(crate) fn steps_body(base: &str, s: &crate::viewer::Step, own: Option<Seat>, seats: &[String]) -> String {
    viewer_html(base, html! {}, s, own, false, seats, "").into_string()
}

/// A link to step `to` of the viewer at `base` (a disabled button when there is none).
fn step_link(id: &str, label: &str, to: Option<usize>, rel: Option<&str>, link: &dyn Fn(usize) -> String) -> Markup {
    html! {
        @match to {
            Some(t) => a.button #(id) rel=[rel] href=(link(t)) data-step=(t) { (label) },
            None => span.button.off #(id) aria-disabled="true" { (label) },
        }
    }
}

/// The round a step shows: the one a step that ended a round ended (its table is shown), else
/// the one it is in.
fn shown_round(s: &crate::viewer::Step) -> usize {
    let current = s.round_starts.iter().rposition(|r| r.1 <= s.step).unwrap_or(0);
    if s.ended_table.is_some() && !s.results.is_empty() && current > 0 && s.round_starts[current].1 == s.step {
        current - 1
    } else {
        current
    }
}

/// The viewer: the table (with the hand's end over it when the step ended one), the followed
/// seat's hand large for small screens, the stepping and what led here beside it.
pub(crate) fn viewer_html(
    base: &str,
    heading: Markup,
    s: &crate::viewer::Step,
    own: Option<Seat>,
    hide: bool,
    seats: &[String],
    title: &str,
) -> Markup {
    let query = |t: usize| {
        let mut q = format!("{base}?step={t}");
        if let Some(o) = own {
            let _ = write!(q, "&seat={o}");
            if hide {
                q.push_str("&hide=1");
            }
        }
        q
    };
    let n = &s.nav;
    let current = shown_round(s);
    // The round the position is in (the select's choice: Go stays here).
    let position_round = s.round_starts.iter().rposition(|r| r.1 <= s.step).unwrap_or(0);
    let round_name = s.round_names.get(current).cloned().unwrap_or_else(|| format!("Round {}", s.round));
    let bottom = own.unwrap_or(0);
    // A step that ended a round shows the table it ended on, the hand's end over it.
    let table_view = s.ended_table.as_ref().filter(|_| !s.results.is_empty()).unwrap_or(&s.view);
    let (picture, rest) = crate::view::parts(table_view, bottom);
    let ended = crate::hand_end::screen(s, seats);
    let own_hand = picture.as_ref().and_then(|_| own_hand(table_view, bottom));
    html! {
        div #viewer .viewer.has-table[picture.is_some()] data-step=(s.step) data-last=(n.last) data-title=(title) {
            div.v-main {
                div.v-table {
                    @if let Some(svg) = &picture { (PreEscaped(svg)) }
                    @if !ended.0.is_empty() {
                        @if picture.is_some() {
                            details.overlay #overlay open {
                                summary { "The hand's end (close to see the table)" }
                                (ended)
                            }
                        } @else {
                            (ended)
                        }
                    }
                    @if picture.is_none() { (PreEscaped(&rest)) }
                }
                @if let Some(h) = own_hand {
                    div.v-hand aria-label="The followed seat's hand" { (PreEscaped(h)) }
                }
            }
            div.v-side {
                (heading)
                nav.viewer-nav aria-label="Steps" {
                    (step_link("first", "« First", (s.step > 0).then_some(0), None, &query))
                    (step_link("prev", "← Previous", n.prev, Some("prev"), &query))
                    span #pos aria-live="polite" { "Step " b #step { (s.step) } " of " (s.steps) }
                    (step_link("next", "Next →", n.next, Some("next"), &query))
                    (step_link("last", "Last »", (s.step < n.last).then_some(n.last), None, &query))
                    (step_link("prev-hand", "⇤ Hand", n.prev_hand, None, &query))
                    (step_link("next-hand", "Hand ⇥", n.next_hand, None, &query))
                    @if own.is_some() {
                        (step_link("prev-own", "↑ Own decision", n.prev_own, None, &query))
                        (step_link("next-own", "Own decision ↓", n.next_own, None, &query))
                    }
                    span.play hidden {
                        button #play type="button" hidden aria-pressed="false" { "▶ Play" }
                        label { span.skip { "Speed" } select #speed hidden aria-label="Steps a second" {
                            option value="1" { "1 step/s" } option value="2" selected { "2 steps/s" }
                            option value="4" { "4 steps/s" } option value="8" { "8 steps/s" }
                        } }
                    }
                }
                p #where { b { (round_name) } ". "
                    @match &s.last {
                        Some(l) => {
                            "Last move: " b { (l.player) } " (seat " (l.seat) ") "
                            @if l.action.starts_with("incident ") {
                                code #action .incident title="An incident, recorded by the host or a referee" { "! " (l.action) }
                            } @else {
                                code #action { (l.action) }
                            }
                            @if !s.passes.is_empty() {
                                ", after " (s.passes.iter().map(|p| seats.get(usize::from(*p)).cloned().unwrap_or_else(|| format!("seat {p}"))).collect::<Vec<_>>().join(" and ")) " passed"
                            }
                        }
                        None => "The deal, before the first move.",
                    }
                }
                @if let Some(e) = &s.excerpt { p.note #excerpt { (e) } }
                @for e in &s.ended { p.note role="status" { "Round over: " (crate::game_page::summary_text(crate::viewer::game_of(&s.view), e, seats)) } }
                @if let Some(f) = &s.fault { (fault_html(f, s.step, s.steps)) }
                div.viewer-forms {
                    form method="get" action=(base) {
                        label.skip for="round" { "Jump to a round" }
                        select #round name="step" aria-label="Jump to a round" {
                            @for (i, ((_, start), name)) in s.round_starts.iter().zip(&s.round_names).enumerate() {
                                option value=(start) selected[i == position_round] { (name) }
                            }
                        }
                        @if let Some(o) = own { input type="hidden" name="seat" value=(o); }
                        @if hide { input type="hidden" name="hide" value="1"; }
                        " " button type="submit" { "Go" }
                    }
                    form.slider method="get" action=(base) {
                        label for="slider" { "Step " output #slider-at for="slider" { (s.step) } }
                        input type="range" #slider name="step" min="0" max=(n.last) value=(s.step);
                        @if let Some(o) = own { input type="hidden" name="seat" value=(o); }
                        @if hide { input type="hidden" name="hide" value="1"; }
                        button type="submit" { "Go" }
                    }
                    form.follow method="get" action=(base) {
                        input type="hidden" name="step" value=(s.step);
                        label.skip for="seat" { "Follow a seat" }
                        select #seat name="seat" aria-label="Follow a seat" {
                            option value="" { "Follow: nobody (seat 0 at the bottom)" }
                            @for (i, name) in seats.iter().enumerate() {
                                option value=(i) selected[own == Some(i as Seat)] { "Follow " (name) " (seat " (i) ")" }
                            }
                        }
                        label.check { input type="checkbox" #hide name="hide" value="1" checked[hide]; " Only what they knew" }
                        " " button type="submit" { "Follow" }
                    }
                }
                details.keys {
                    summary { "Keys" }
                    p.k #keys { "← previous, → next step (passes on a claim are skipped; hold to run); Shift+← Shift+→, PageUp PageDown or [ ] \
                        previous or next hand; ↑ ↓ the followed seat's previous or next decision; Home first, End last; Space or P play and pause." }
                }
            }
            @if picture.is_some() { div.v-more { (PreEscaped(&rest)) } }
        }
    }
}

/// The followed seat's hand as a strip of large tiles (shown on small screens, where the table's
/// tiles are small): its concealed tiles, the tile just drawn apart, its melds.
fn own_hand(view: &paifu_core::games::View, seat: Seat) -> Option<String> {
    let t = match view {
        paifu_core::games::View::Riichi(v) => crate::table::riichi(v),
        paifu_core::games::View::Mcr(v) => crate::table::mcr(v),
        paifu_core::games::View::Hungarian(v) => crate::table::hungarian(v),
        _ => return None,
    };
    let p = t.seats.iter().find(|p| p.seat == seat)?;
    let mut hand = p.hand.clone();
    let drawn = t.drawn.filter(|_| p.acting).and_then(|d| hand.iter().rposition(|&x| x == d).map(|i| hand.remove(i)));
    Some(crate::hand_end::strip(&hand, &p.melds, drawn, &format!("{}'s hand", p.name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use paifu_core::log::{encode, Encoding};
    use paifu_core::riichi::Riichi;

    /// The viewer of game `id` at step `s`, as the page shows it.
    fn viewer_body(id: i64, s: &crate::viewer::Step, own: Option<Seat>, seats: &[String]) -> String {
        steps_body(&format!("/games/{id}/view"), s, own, seats)
    }

    /// Text as maud writes it in a page.
    fn esc(s: &str) -> String {
        html! { (s) }.into_string()
    }

    /// A riichi log whose first claimed round result is edited: it opens at that record, shown
    /// with its code and message, and the steps after it cannot be reached.
    #[test]
    fn a_log_with_a_wrong_claim_opens_at_its_record() {
        let names = ["Ann", "Bo", "Cy", "Di"];
        let mut log = paifu_recorder::samples::game_log::<Riichi>("standard", "wrong claim", &names).unwrap();
        let at = log.records.iter().position(|r| r.claim.as_ref().is_some_and(|c| c.round.is_some())).unwrap();
        if let Some(round) = log.records[at].claim.as_mut().and_then(|c| c.round.as_mut()) {
            round[0] += 100;
        }
        let bytes = encode(&log, Encoding::Binary);
        let s = crate::viewer::step(&bytes, None, None).unwrap();
        let f = s.fault.as_ref().expect("the replay finds the wrong claim");
        assert_eq!((f.code, f.index, s.step), (paifu_core::ErrorCode::ClaimMismatch, Some(at), at));
        assert_eq!((s.nav.next, s.nav.last), (None, at), "nothing past the faulty record");
        // The position shown is the one before the faulty record: its hand has not ended.
        let json = serde_json::to_value(&s.view).unwrap();
        assert_eq!(json["hand"], "E1", "{json}");
        assert!(json.get("hand_end").is_none());
        // A step asked for past it shows it too.
        assert_eq!(crate::viewer::step(&bytes, Some(at + 10), None).unwrap().step, at);
        let page = viewer_body(1, &s, None, &names.map(String::from));
        assert!(page.contains(&format!("<b>The log is invalid at record {at}</b>")), "{page}");
        assert!(page.contains("<tr class=\"faulty\">"), "{page}");
        assert!(page.contains("<code id=\"fault-code\">claim_mismatch</code>"), "{page}");
        assert!(page.contains(&format!("<td id=\"fault-message\">{}</td>", esc(&f.message))), "{page}");
        let action = log.records[at].action.to_string();
        assert!(page.contains(&format!("<code id=\"fault-action\">{}</code>", esc(&action))), "{page}");
        // The untouched log is valid and opens at its first step.
        let mut good = log.clone();
        if let Some(round) = good.records[at].claim.as_mut().and_then(|c| c.round.as_mut()) {
            round[0] -= 100;
        }
        let s = crate::viewer::step(&encode(&good, Encoding::Binary), None, None).unwrap();
        assert_eq!((s.step, s.fault.is_none()), (0, true));
    }

    #[test]
    fn steps_and_seats_from_the_query_are_checked() {
        let q = |step: Option<&str>, seat: Option<&str>| StepQuery {
            step: step.map(String::from),
            seat: seat.map(String::from),
            hide: None,
            part: None,
        };
        assert_eq!(parse_step(q(None, None).step()).unwrap(), None, "no step: the viewer's default");
        assert_eq!(parse_step(q(Some("end"), None).step()).unwrap(), Some(usize::MAX));
        assert_eq!(parse_step(q(Some(" 12 "), None).step()).unwrap(), Some(12));
        let e = parse_step(q(Some("x"), None).step()).unwrap_err().to_string();
        assert!(e.contains("step must be a number or end, not \"x\""), "{e}");
        assert_eq!(q(None, Some("2")).seat().unwrap(), Some(2));
        assert_eq!(q(None, Some("")).seat().unwrap(), None);
        let e = q(None, Some("east")).seat().unwrap_err().to_string();
        assert!(e.contains("seat must be a seat number, not \"east\""), "{e}");
    }

    #[test]
    fn an_incident_is_marked_where_it_is_the_last_move() {
        use paifu_core::log::{Action as _, Record};
        let mut log = paifu_recorder::samples::tzq_log("incident view", ["Ann", "Bo"]);
        let seat = log.records[0].seat;
        let incident = paifu_core::Incident::new(paifu_core::IncidentKind::Timeout, "no answer").unwrap();
        log.records
            .insert(0, Record { seq: 0, seat, action: paifu_core::tzq::Action::from_incident(incident), claim: None });
        for (i, r) in log.records.iter_mut().enumerate() {
            r.seq = i as u32;
        }
        let bytes = encode(&log, Encoding::Binary);
        let names = ["Ann".to_owned(), "Bo".to_owned()];
        let page = viewer_body(1, &crate::viewer::step(&bytes, Some(1), None).unwrap(), None, &names);
        let code = page.split("<code").find(|c| c.contains("id=\"action\"")).unwrap_or_default();
        assert!(
            code.contains("class=\"incident\"")
                && code.contains(
                    "title=\"An incident, recorded by the host or a referee\">! incident timeout: no answer</code>"
                ),
            "{page}"
        );
        let page = viewer_body(1, &crate::viewer::step(&bytes, Some(2), None).unwrap(), None, &names);
        assert!(page.contains("<code id=\"action\">") && !page.contains("class=\"incident\""), "{page}");
    }

    #[test]
    fn a_truncated_log_says_so_at_its_end() {
        let mut log = paifu_recorder::samples::tzq_log("truncated view", ["Ann", "Bo"]);
        log.records.truncate(7);
        let s = crate::viewer::step(&encode(&log, Encoding::Binary), None, None).unwrap();
        assert_eq!((s.step, s.fault.as_ref().map(|f| f.code)), (7, Some(paifu_core::ErrorCode::Truncated)));
        let page = viewer_body(1, &s, Some(1), &["Ann".to_owned(), "Bo".to_owned()]);
        assert!(page.contains("invalid after its last record: <code id=\"fault-code\">truncated</code>"), "{page}");
        assert!(page.contains("id=\"next-own\""), "a followed seat has its decision buttons: {page}");
    }

    /// Players' names come from the log: every page part escapes them (maud's default, and the
    /// SVG's own escaping), at a hand's end and on the final screen too.
    #[test]
    fn names_from_a_log_are_escaped_everywhere() {
        let names = ["<script>alert(1)</script>", "Bo\"><i>x", "Cy & co", "Di"];
        let log = paifu_recorder::samples::game_log::<Riichi>("standard", "escape", &names).unwrap();
        let bytes = encode(&log, Encoding::Binary);
        let seats: Vec<String> = names.map(String::from).to_vec();
        for at in [Some(30), Some(usize::MAX)] {
            let s = crate::viewer::step(&bytes, at, Some(0)).unwrap();
            let page = viewer_body(1, &s, Some(0), &seats);
            assert!(!page.contains("<script>") && !page.contains("<i>"), "{page}");
            assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{page}");
        }
    }
}
