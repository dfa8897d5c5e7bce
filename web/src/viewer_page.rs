//! The move-by-move viewer's page: its stepping (actions, hands, a seat's decisions, a slider,
//! keys), the move that led to the step, the fault where the replay stops, the hand's end and
//! the position. Every step is a plain link; the few lines of script only add keys.

use crate::html::{esc, page};
use crate::{data, PageError, State, WebError};
use actix_web::{web, HttpResponse};
use paifu_core::Seat;
use serde::Deserialize;
use std::fmt::Write as _;

type Page = Result<HttpResponse, PageError>;

#[derive(Deserialize)]
pub(crate) struct StepQuery {
    step: Option<String>,
    seat: Option<String>,
}

impl StepQuery {
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

/// The viewer's keys: ← → a step, Shift+← → or PageUp PageDown or [ ] a hand, ↑ ↓ the chosen
/// seat's decisions, Home End the ends; the slider goes to its step when let go.
pub(crate) const VIEWER_JS: &str = r#"
document.addEventListener('keydown',function(e){
  if(e.altKey||e.ctrlKey||e.metaKey)return;
  var t=e.target&&e.target.tagName;if(t==='INPUT'||t==='SELECT'||t==='TEXTAREA')return;
  var k=e.key,id;
  if(e.shiftKey&&k==='ArrowRight'||k==='PageDown'||k===']')id='next-hand';
  else if(e.shiftKey&&k==='ArrowLeft'||k==='PageUp'||k==='[')id='prev-hand';
  else id={ArrowRight:'next',ArrowLeft:'prev',Home:'first',End:'last',ArrowDown:'next-own',ArrowUp:'prev-own'}[k];
  if(!id)return;var a=document.getElementById(id);
  if(a&&a.href){e.preventDefault();location.href=a.href;}
});
var sl=document.getElementById('slider');
if(sl){sl.addEventListener('change',function(){sl.form.submit();});
  sl.addEventListener('input',function(){var o=document.getElementById('slider-at');if(o)o.textContent=sl.value;});}
"#;

pub(crate) async fn viewer(state: web::Data<State>, id: web::Path<String>, q: web::Query<StepQuery>) -> Page {
    let id = data::parse_id(&id)?;
    let want = parse_step(q.step())?;
    let own = q.seat()?;
    let (bytes, form) = data::log_bytes(&state, id).await?;
    if form != paifu_recorder::archive::StoredForm::Binary {
        return Err(WebError::NotFound(format!(
            "game {id} could not be decoded as a log, so it cannot be stepped through"
        ))
        .into());
    }
    let s = web::block(move || crate::viewer::step(&bytes, want, own))
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
    let b = viewer_body(id, &s, own, &seats);
    Ok(HttpResponse::Ok().content_type("text/html; charset=utf-8").body(page(
        &format!("Game #{id}, step {}", s.step),
        "/games",
        &b,
        Some(VIEWER_JS),
    )))
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
fn fault_html(f: &paifu_core::Fault, step: usize, steps: usize) -> String {
    let mut o = String::from("<div class=\"fault\" id=\"fault\" role=\"alert\">");
    match f.index {
        Some(i) if i == step && i < steps => {
            let _ = write!(
                o,
                "<p><b>The log is invalid at record {i}</b>, the next move from here; the replay stops before it.</p>"
            );
            o.push_str("<table class=\"rec\"><tbody><tr class=\"faulty\">");
            let _ = write!(o, "<th scope=\"row\">Record {i}</th>");
            if let Some(seat) = f.seat {
                let _ = write!(o, "<td>seat {seat}</td>");
            }
            if let Some(a) = &f.action {
                let _ = write!(o, "<td><code id=\"fault-action\">{}</code></td>", esc(a));
            }
            let _ = write!(
                o,
                "<td><code id=\"fault-code\">{}</code></td><td id=\"fault-message\">{}</td></tr></tbody></table>",
                f.code.as_str(),
                esc(&f.message)
            );
        }
        Some(i) if i == step => {
            let _ = write!(
                o,
                "<p>The log is invalid after its last record: <code id=\"fault-code\">{}</code> {}</p>",
                f.code.as_str(),
                esc(&f.message)
            );
        }
        Some(i) => {
            let _ = write!(
                o,
                "<p>The log is invalid: the replay stops at record {i} (<a href=\"?step={i}\">show it</a>): <code id=\"fault-code\">{}</code> {}</p>",
                f.code.as_str(),
                esc(&f.message)
            );
        }
        None => {
            let _ = write!(
                o,
                "<p>The log is invalid: <code id=\"fault-code\">{}</code> {}</p>",
                f.code.as_str(),
                esc(&f.message)
            );
        }
    }
    o + "</div>"
}

/// The viewer's page: its stepping, the move that led here, the fault, the hand's end and the
/// position.
fn viewer_body(id: i64, s: &crate::viewer::Step, own: Option<Seat>, seats: &[String]) -> String {
    let heading = format!("<h1><a href=\"/games/{id}\">Game #{id}</a>: move by move</h1>");
    steps_body(&format!("/games/{id}/view"), &heading, s, own, seats)
}

/// The viewer's page at `base` (its steps are `base?step=N`) under `heading`.
pub(crate) fn steps_body(
    base: &str,
    heading: &str,
    s: &crate::viewer::Step,
    own: Option<Seat>,
    seats: &[String],
) -> String {
    let seat_q = own.map(|o| format!("&amp;seat={o}")).unwrap_or_default();
    let link = |idn: &str, label: &str, to: Option<usize>, rel: &str| match to {
        Some(t) => {
            format!("<a class=\"button\" id=\"{idn}\" {rel} href=\"{base}?step={t}{seat_q}\">{label}</a>")
        }
        None => format!("<span class=\"button off\" id=\"{idn}\" aria-disabled=\"true\">{label}</span>"),
    };
    let n = &s.nav;
    let mut rounds = String::new();
    let current = s.round_starts.iter().rposition(|r| r.1 <= s.step).unwrap_or(0);
    for (i, ((_, start), name)) in s.round_starts.iter().zip(&s.round_names).enumerate() {
        let cur = if i == current { " selected" } else { "" };
        let _ = write!(rounds, "<option value=\"{start}\"{cur}>{}</option>", esc(name));
    }
    let mut seat_options = String::from("<option value=\"\">none (seat 0 at the bottom)</option>");
    for (i, name) in seats.iter().enumerate() {
        let cur = if own == Some(i as Seat) { " selected" } else { "" };
        let _ = write!(seat_options, "<option value=\"{i}\"{cur}>{i}: {}</option>", esc(name));
    }
    let hidden_seat = own.map(|o| format!("<input type=\"hidden\" name=\"seat\" value=\"{o}\">")).unwrap_or_default();
    let mut b = format!(
        "{heading}\
         <nav class=\"viewer-nav\" aria-label=\"Steps\">{}{}<span id=\"pos\" aria-live=\"polite\">Step <b id=\"step\">{}</b> of {}</span>{}{}\
         {}{}{}{}<form method=\"get\" action=\"{base}\"><label class=\"skip\" for=\"round\">Jump to a round</label>\
         <select id=\"round\" name=\"step\" aria-label=\"Jump to a round\">{rounds}</select>{hidden_seat} <button type=\"submit\">Go</button></form></nav>\
         <div class=\"viewer-forms\"><form method=\"get\" action=\"{base}\" class=\"slider\"><label for=\"slider\">Step \
         <output id=\"slider-at\" for=\"slider\">{}</output></label><input type=\"range\" id=\"slider\" name=\"step\" min=\"0\" max=\"{}\" value=\"{}\">\
         {hidden_seat}<button type=\"submit\">Go</button></form>\
         <form method=\"get\" action=\"{base}\"><input type=\"hidden\" name=\"step\" value=\"{}\"><label class=\"skip\" for=\"seat\">Follow a seat</label>\
         <select id=\"seat\" name=\"seat\" aria-label=\"Follow a seat\">{seat_options}</select> <button type=\"submit\">Follow</button></form></div>\
         <p class=\"k\" id=\"keys\">Keys: ← previous, → next step (passes on a claim are skipped); Shift+← Shift+→, PageUp PageDown or [ ] \
         previous or next hand; ↑ ↓ the followed seat's previous or next decision; Home first, End last.</p>",
        link("first", "« First", (s.step > 0).then_some(0), ""),
        link("prev", "← Previous", n.prev, "rel=\"prev\""),
        s.step,
        s.steps,
        link("next", "Next →", n.next, "rel=\"next\""),
        link("last", "Last »", (s.step < n.last).then_some(n.last), ""),
        link("prev-hand", "⇤ Hand", n.prev_hand, ""),
        link("next-hand", "Hand ⇥", n.next_hand, ""),
        if own.is_some() { link("prev-own", "↑ Own decision", n.prev_own, "") } else { String::new() },
        if own.is_some() { link("next-own", "Own decision ↓", n.next_own, "") } else { String::new() },
        s.step,
        n.last,
        s.step,
        s.step,
    );
    let round_name = s.round_names.get(current).cloned().unwrap_or_else(|| format!("Round {}", s.round));
    let _ = write!(b, "<p><b>{}</b>. ", esc(&round_name));
    match &s.last {
        Some(l) => {
            // An incident (docs/protocol.md) is marked: a class, a `!` and a tooltip.
            let (class, mark) = if l.action.starts_with("incident ") {
                (" class=\"incident\" title=\"An incident, recorded by the host or a referee\"", "! ")
            } else {
                ("", "")
            };
            let _ = write!(
                b,
                "Last move: <b>{}</b> (seat {}) <code id=\"action\"{class}>{mark}{}</code>",
                esc(&l.player),
                l.seat,
                esc(&l.action)
            );
            if !s.passes.is_empty() {
                let who: Vec<String> = s.passes.iter().map(|p| format!("seat {p}")).collect();
                let _ = write!(b, ", after {} passed", who.join(" and "));
            }
        }
        None => b.push_str("The deal, before the first move."),
    }
    b.push_str("</p>");
    if let Some(e) = &s.excerpt {
        let _ = write!(b, "<p class=\"note\" id=\"excerpt\">{}</p>", esc(e));
    }
    for e in &s.ended {
        let _ = write!(b, "<p class=\"note\" role=\"status\">Round over: {}</p>", esc(e));
    }
    if let Some(f) = &s.fault {
        b.push_str(&fault_html(f, s.step, s.steps));
    }
    b.push_str(&crate::hand_end::screen(&s.view, &s.results, seats));
    b.push_str(&crate::view::position_html(&s.view, own.unwrap_or(0)));
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use paifu_core::log::{encode, Encoding};
    use paifu_core::riichi::Riichi;

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
        assert!(page.contains("<code id=\"action\" class=\"incident\" title=\"An incident, recorded by the host or a referee\">! incident timeout: no answer</code>"), "{page}");
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
}
