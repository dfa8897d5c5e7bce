//! The dashboard's form to open a table (`/tables/new`, docs/play.md): for a logged-in
//! organiser, what `POST /api/tables` takes as form fields (game, ruleset, options, number of
//! games, tournament, each seat a person's name or one of the server's `--bot`s), opened by the
//! same code (`tables::open_for`: the same checks and refusals), with the session's CSRF token
//! as every form of the dashboard. The answer shows each person's join link this once.

use crate::auth::{page_caller, same_origin, session_caller, Caller};
use crate::html::{layout, Chrome};
use crate::tables::{open_for, OpenedTable};
use crate::{brief, PageError, State, WebError};
use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use paifu_recorder::archive::Role;
use paifu_recorder::arena::tables::{ClockRequest, SeatRequest, TableError, TableRequest};
use std::collections::HashMap;

/// The form in columns on a wide screen, the seats under them.
const FORM_CSS: &str = "#table-form{display:grid;grid-template-columns:repeat(auto-fit,minmax(250px,1fr));gap:0 16px}\
#table-form p{margin:4px 0}#table-form .seats-form,#table-form>p:last-child{grid-column:1/-1}\
.seats-form caption{text-align:left;font-size:.9em}.seats-form input{width:100%;box-sizing:border-box}";

/// Seats the form offers (the most any game seats).
const SEATS: usize = 4;

type Page = Result<HttpResponse, PageError>;

pub(crate) fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tables/new", web::get().to(form)).route("/tables/new", web::post().to(submit));
}

/// A page of this form's, never cached. The answer, which holds join links, sends no referrer
/// (the form itself must: a browser sends a form from a no-referrer page with `Origin: null`,
/// which the dashboard refuses as another site's).
fn page(status: actix_web::http::StatusCode, caller: &Caller, title: &str, body: &str) -> HttpResponse {
    let viewer = caller.viewer();
    let html = layout(&Chrome { title, active: "/tables/new", user: Some(&viewer), scripts: &[] }, body);
    let mut r = HttpResponse::build(status);
    r.content_type("text/html; charset=utf-8").insert_header((header::CACHE_CONTROL, "no-store"));
    if status == actix_web::http::StatusCode::CREATED {
        r.insert_header((header::REFERRER_POLICY, "no-referrer"));
    }
    r.body(html)
}

/// `GET /tables/new`.
async fn form(req: HttpRequest, state: web::Data<State>) -> Page {
    let Some(caller) = session_caller(&req, &state).await? else {
        let body = html! {
            h1 { "Open a table" }
            p { "Opening a table needs an organiser's token: " a.button href="/login?next=/tables/new" { "Log in" }
                " (or send the table to " code { "POST /api/tables" } ", docs/play.md)." }
        };
        let html = layout(
            &Chrome { title: "Open a table", active: "/tables/new", user: None, scripts: &[] },
            &body.into_string(),
        );
        return Ok(HttpResponse::Ok().content_type("text/html; charset=utf-8").body(html));
    };
    caller.require(Role::Organiser, "opening a table")?;
    let body = form_markup(&state, &caller, &HashMap::new(), None);
    Ok(page(actix_web::http::StatusCode::OK, &caller, "Open a table", &body.into_string()))
}

/// A form field, trimmed; `None` when empty.
fn field<'a>(form: &'a HashMap<String, String>, k: &str) -> Option<&'a str> {
    form.get(k).map(|v| v.trim()).filter(|v| !v.is_empty())
}

/// The request the form's fields make, as `POST /api/tables` would take it. A field that does
/// not read is refused as the API refuses it (named).
fn request_of(form: &HashMap<String, String>) -> Result<TableRequest, TableError> {
    let bad = |f: &str, m: String| TableError::Field { field: f.to_owned(), message: m };
    let options = match field(form, "options") {
        None => Default::default(),
        Some(text) => serde_json::from_str(text).map_err(|e| {
            bad("options", format!("a JSON object of the ruleset's options: {}", brief(&e.to_string())))
        })?,
    };
    let games = match field(form, "games") {
        None => 1,
        Some(g) => g.parse().map_err(|_| bad("games", format!("{:?} is not a number of games", brief(g))))?,
    };
    let decision_ms = match field(form, "decision_s") {
        None => None,
        Some(d) => Some(
            d.parse::<u64>()
                .map_err(|_| bad("clock.decision_ms", format!("{:?} is not a number of seconds", brief(d))))?
                .saturating_mul(1000),
        ),
    };
    let mut seats = Vec::new();
    for k in 0..SEATS {
        let Some(name) = field(form, &format!("seat{k}_name")) else { continue };
        let bot = field(form, &format!("seat{k}_bot")).map(str::to_owned);
        seats.push(SeatRequest { name: name.to_owned(), bot });
    }
    Ok(TableRequest {
        game: field(form, "game").unwrap_or_default().to_owned(),
        ruleset: field(form, "ruleset").unwrap_or("standard").to_owned(),
        options,
        games,
        tournament: field(form, "tournament").map(str::to_owned),
        seats,
        clock: ClockRequest { decision_ms, game_ms: None, reveal_ms: None },
        policy: field(form, "policy").map(str::to_owned),
        duplicate: field(form, "duplicate").is_some(),
    })
}

/// `POST /tables/new`: the table opened, or the form again with what was wrong (422).
async fn submit(req: HttpRequest, state: web::Data<State>, body: web::Payload) -> Page {
    same_origin(&req)?;
    let caller = page_caller(&req, &state).await?;
    let bytes = crate::data::read_body(body, state.max_form).await?;
    let form: HashMap<String, String> = serde_urlencoded::from_bytes(&bytes)
        .map_err(|e| WebError::BadRequest(format!("the form does not read: {}", brief(&e.to_string()))))?;
    caller.check_csrf(form.get("csrf").map(String::as_str))?;
    caller.require(Role::Organiser, "opening a table")?;
    let opened = match request_of(&form) {
        Ok(request) => open_for(&state, &caller, &request).await?,
        Err(e) => Err(e),
    };
    let refused = |e: TableError| {
        let status = match e {
            TableError::Field { .. } => actix_web::http::StatusCode::UNPROCESSABLE_ENTITY,
            _ => actix_web::http::StatusCode::CONFLICT,
        };
        let body = form_markup(&state, &caller, &form, Some(&e));
        page(status, &caller, "Open a table", &body.into_string())
    };
    let opened = match opened {
        Ok(o) => o,
        Err(e) => return Ok(refused(e)),
    };
    let origin = {
        let info = req.connection_info();
        format!("{}://{}", info.scheme(), info.host())
    };
    let body = opened_markup(&opened, &origin);
    Ok(page(actix_web::http::StatusCode::CREATED, &caller, "Table opened", &body.into_string()))
}

/// The answer: each person's join link, shown this once.
fn opened_markup(t: &OpenedTable, origin: &str) -> Markup {
    html! {
        h1 { "Table " (t.id) " is open" }
        p #once role="status" { "Send each person their link, as you would a password: it is shown this once \
            (the archive keeps only its hash). A lost link is replaced with "
            code { "POST /api/tables/" (t.id) "/seats/SEAT/join" } "." }
        table #joins {
            thead { tr { th { "Seat" } th { "Player" } th { "Join link or bot" } } }
            tbody {
                @for (k, s) in t.seats.iter().enumerate() {
                    tr {
                        td { (k) } td { (s.name) }
                        td { @if let Some(j) = &s.join { input.join readonly value={ (origin) (j) } size="60"; }
                             @else if let Some(b) = &s.bot { "bot " code { (b) } } }
                    }
                }
            }
        }
        p.note { "The server's commitment to its share of the seed: " code { (t.host_commitment) }
            ". The table's state: " a href={ "/api/tables/" (t.id) } { "/api/tables/" (t.id) } "." }
        p { a.button href="/tables/new" { "Open another table" } }
    }
}

/// The form, filled with `form`'s values, with the refusal `error` above it.
fn form_markup(state: &State, caller: &Caller, form: &HashMap<String, String>, error: Option<&TableError>) -> Markup {
    let value = |k: &str| form.get(k).cloned().unwrap_or_default();
    let chosen = value("game");
    let bots: Vec<&String> = state.tables.bots().keys().collect();
    let (bad_field, message) = match error {
        Some(TableError::Field { field, message }) => (Some(field.as_str()), brief(message)),
        Some(e) => (None, brief(&e.to_string())),
        None => (None, String::new()),
    };
    html! {
        h1 { "Open a table" }
        p { "People play at the server's tables beside its bots, every game recorded as it is played and stored \
             with the server's certificate (docs/play.md). Each person gets a join link; a bot is one this server \
             was started with (" code { "paifu serve --bot NAME=CMD" } ")." }
        @if error.is_some() {
            div.fault #refused role="alert" data-field=[bad_field] {
                @if let Some(f) = bad_field { b { (f) } ": " } (message)
            }
        }
        style { (maud::PreEscaped(FORM_CSS)) }
        form method="post" action="/tables/new" #table-form {
            input type="hidden" name="csrf" value=(caller.csrf());
            p { label { "Game " select name="game" #game {
                @for kind in paifu_core::games::ENGINES {
                    option value=(kind.name()) selected[chosen == kind.name()] { (kind.title()) }
                }
            } } }
            p { label { "Ruleset " input name="ruleset" #ruleset value=(form.get("ruleset").cloned().unwrap_or_else(|| "standard".into())); } }
            p { label { "Options (JSON, optional) " input name="options" #options size="40" value=(value("options")) placeholder="{}"; } }
            p { label { "Games " input name="games" #games type="number" min="1" max="64" value=(form.get("games").cloned().unwrap_or_else(|| "1".into())); } }
            p { label { "Tournament (optional: one of yours, or a new one) " input name="tournament" #tournament value=(value("tournament")); } }
            p { label { "Seconds a decision (a person's; 30 by default) " input name="decision_s" #decision_s type="number" min="1" value=(value("decision_s")); } }
            table.seats-form {
                caption { "Seats (leave a name empty for a game of fewer)" }
                thead { tr { th { "Seat" } th { "Name" } th { "Who plays" } } }
                tbody {
                    @for k in 0..SEATS {
                        @let bot = value(&format!("seat{k}_bot"));
                        tr {
                            td { (k) }
                            td { input name={ "seat" (k) "_name" } value=(value(&format!("seat{k}_name")))
                                aria-label={ "Seat " (k) ": name" } placeholder="name"; }
                            td { select name={ "seat" (k) "_bot" } aria-label={ "Seat " (k) ": a person or a bot" } {
                                option value="" { "a person" }
                                @for b in &bots { option value=(b) selected[bot == **b] { "bot " (b) } }
                            } }
                        }
                    }
                }
            }
            p { button type="submit" #open { "Open the table" } }
        }
    }
}
