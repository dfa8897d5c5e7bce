//! The HTML pages.

use crate::auth::{self, page_caller, same_origin, session_caller, Caller};
use crate::data::{self, GamesQuery, PlayersQuery};
use crate::html::{self, page, url};
use crate::{PageError, State, WebError};
use actix_multipart::Multipart;
use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use paifu_analyzer::plot;
use paifu_recorder::archive::Role;
use paifu_recorder::archive::{GamePage, GameRow};
use serde::Deserialize;

type Page = Result<HttpResponse, PageError>;

/// A page for `user` (who is logged in: the header names them rather than offering to log in).
fn ok(user: Option<&crate::html::Viewer>, title: &str, active: &str, body: &str) -> Page {
    let html = crate::html::layout(&crate::html::Chrome { title, active, user, scripts: &[] }, body);
    Ok(HttpResponse::Ok().content_type("text/html; charset=utf-8").body(html))
}

/// Who is logged in on this request's session, if anyone.
async fn user(req: &HttpRequest, state: &web::Data<State>) -> Option<crate::html::Viewer> {
    session_caller(req, state).await.ok().flatten().map(|c| c.viewer())
}

pub(crate) fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(overview))
        .route("/games", web::get().to(games))
        .route("/games/{id}", web::get().to(crate::game_page::game))
        .route("/games/{id}/view", web::get().to(crate::viewer_page::viewer))
        .route("/games/{id}/certificate", web::get().to(certificate))
        .route("/games/{id}/certificate", web::post().to(sign))
        .route("/games/{id}/log", web::get().to(log_file))
        .route("/players", web::get().to(players))
        .route("/players/{name}", web::get().to(player))
        .route("/tournaments", web::get().to(tournaments))
        .route("/tournaments/{name}", web::get().to(tournament))
        .route("/upload", web::get().to(upload_form))
        .route("/upload", web::post().to(upload))
        .route("/verify", web::get().to(verify_form))
        .route("/verify", web::post().to(verify))
        .route("/login", web::get().to(login_form))
        .route("/login", web::post().to(login))
        .route("/logout", web::post().to(logout))
        .route("/static/viewer.js", web::get().to(viewer_js));
}

/// The viewer's script, served by this server (the pages' CSP allows scripts from it).
async fn viewer_js() -> HttpResponse {
    script(crate::viewer_page::VIEWER_JS)
}

/// A script of this server's, as `/static/...` serves it (the pages' CSP allows scripts from
/// this server only, no inline ones).
pub(crate) fn script(js: impl Into<String>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .body(js.into())
}

/// The hidden field a session's forms carry.
fn csrf_field(caller: &Caller) -> String {
    maud::html! { input type="hidden" name="csrf" value=(caller.csrf()); }.into_string()
}

/// Who is logged in, with a button to log out.
fn logged_in(caller: &Caller) -> String {
    use maud::{html, PreEscaped};
    html! {
        form.filters method="post" action="/logout" {
            span #who { "Logged in as " b { (caller.token.name) } " (" (caller.token.role) ")" }
            (PreEscaped(csrf_field(caller)))
            button type="submit" { "Log out" }
        }
    }
    .into_string()
}

/// A form field's text.
fn field_text(form: &std::collections::BTreeMap<String, (Option<String>, Vec<u8>)>, k: &str) -> Option<String> {
    form.get(k).and_then(|(_, v)| std::str::from_utf8(v).ok()).map(str::to_owned)
}

#[derive(Deserialize)]
struct LoginQuery {
    next: Option<String>,
}

/// Where to go after logging in: a path of this site only.
fn local_path(next: Option<&str>) -> String {
    next.filter(|n| n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') && n.len() < 512)
        .unwrap_or("/")
        .to_owned()
}

fn login_form_html(next: &str, message: Option<&str>) -> String {
    use maud::html;
    html! {
        h1 { "Log in" }
        @if let Some(m) = message { div.fault role="alert" { (m) } }
        p { "Reading needs nothing. To upload logs, have stored games signed, or make tournaments, log in with a \
             token (made with " code { "paifu token create" } "; scripts send it as "
            code { "Authorization: Bearer TOKEN" } " instead). The token is checked on every request: once revoked, \
             it logs nobody in." }
        form method="post" action="/login" {
            input type="hidden" name="next" value=(next);
            p { label { "Token" input type="password" name="token" #token autocomplete="off" required; } }
            p { button type="submit" #login { "Log in" } }
        }
    }
    .into_string()
}

async fn login_form(req: HttpRequest, state: web::Data<State>, q: web::Query<LoginQuery>) -> Page {
    let next = local_path(q.next.as_deref());
    let caller = session_caller(&req, &state).await.ok().flatten();
    let b = match &caller {
        Some(c) => maud::html! { h1 { "Logged in" } (maud::PreEscaped(logged_in(c))) }.into_string(),
        None => login_form_html(&next, None),
    };
    ok(caller.as_ref().map(Caller::viewer).as_ref(), "Log in", "/login", &b)
}

#[derive(Deserialize)]
struct LoginForm {
    token: String,
    next: Option<String>,
}

/// Opens a session for a valid token: an HttpOnly, SameSite=Strict cookie.
async fn login(req: HttpRequest, state: web::Data<State>, body: web::Payload) -> Page {
    same_origin(&req)?;
    let bytes = data::read_body(body, state.max_form).await?;
    let form: LoginForm = serde_urlencoded::from_bytes(&bytes)
        .map_err(|_| WebError::BadRequest("the log-in form needs a field token".into()))?;
    let next = local_path(form.next.as_deref());
    let token = match auth::token_of(&state, form.token.trim().to_owned()).await {
        Ok(t) => t,
        Err(WebError::Unauthorized(why)) => {
            return Ok(HttpResponse::Unauthorized().content_type("text/html; charset=utf-8").body(page(
                "Log in",
                "/login",
                &login_form_html(&next, Some(&why)),
            )))
        }
        Err(e) => return Err(e.into()),
    };
    let id = auth::open_session(&state, token.id).await?;
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, next))
        .insert_header((header::SET_COOKIE, auth::session_set_cookie(&id, state.secure_cookies)))
        .finish())
}

async fn logout(req: HttpRequest, state: web::Data<State>, body: web::Payload) -> Page {
    same_origin(&req)?;
    if let Some(c) = session_caller(&req, &state).await.ok().flatten() {
        let bytes = data::read_body(body, state.max_form).await?;
        let form: std::collections::HashMap<String, String> = serde_urlencoded::from_bytes(&bytes).unwrap_or_default();
        c.check_csrf(form.get("csrf").map(String::as_str))?;
        if let auth::Proof::Session { id, .. } = &c.proof {
            auth::close_session(&state, id).await?;
        }
    }
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, "/"))
        .insert_header((header::SET_COOKIE, auth::session_clear_cookie()))
        .finish())
}

/// Signs a stored game with this server's key (organisers and admins), then shows the game.
async fn sign(req: HttpRequest, state: web::Data<State>, id: web::Path<String>, body: web::Payload) -> Page {
    same_origin(&req)?;
    let caller = page_caller(&req, &state).await?;
    let bytes = data::read_body(body, state.max_form).await?;
    let form: std::collections::HashMap<String, String> = serde_urlencoded::from_bytes(&bytes).unwrap_or_default();
    caller.check_csrf(form.get("csrf").map(String::as_str))?;
    let id = data::parse_id(&id)?;
    data::sign_stored(&state, &caller, id).await?;
    Ok(HttpResponse::SeeOther().insert_header((header::LOCATION, format!("/games/{id}#certificates"))).finish())
}

fn game_link(id: i64) -> maud::Markup {
    maud::html! { a href={ "/games/" (id) } { "#" (id) } }
}

/// Links to the players' pages, separated by commas.
fn player_links(players: &[String]) -> maud::Markup {
    maud::html! { @for (i, p) in players.iter().enumerate() { @if i > 0 { ", " } a href={ "/players/" (url(p)) } { (p) } } }
}

fn games_table(rows: &[GameRow]) -> String {
    use maud::{html, PreEscaped};
    if rows.is_empty() {
        return html! { p.note { "No games match." } }.into_string();
    }
    html! {
        div.scroll { table {
            caption.skip { "Games" }
            thead { tr { th { "Game" } th { "Kind" } th { "Players" } th { "Verdict" } th.n.wide { "Rounds" } th { "Final scores" } th.wide { "Added" } } }
            tbody {
                @for r in rows {
                    tr {
                        td { a href={ "/games/" (r.id) } { "#" (r.id) } }
                        td { (r.game.as_deref().and_then(paifu_core::GameKind::from_name).map_or(r.game.as_deref().unwrap_or("?"), |k| k.title())) }
                        td { (player_links(&r.players)) }
                        td { (PreEscaped(html::stored_verdict(r.valid, r.fault_code.as_deref(), r.excerpt.as_deref()))) }
                        td.n.wide { (r.rounds) }
                        td { @if let Some(v) = &r.final_scores { (v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" · ")) } }
                        td.wide { (html::time(r.added_at)) }
                    }
                }
            }
        } }
    }
    .into_string()
}

async fn overview(req: HttpRequest, state: web::Data<State>) -> Page {
    use maud::{html, PreEscaped};
    let o = data::overview(&state).await?;
    let s = &o.summary;
    let cards = [
        ("Games", s.games, "/games"),
        ("Valid", s.valid, "/games?verdict=valid"),
        ("Invalid", s.invalid, "/games?verdict=invalid"),
        ("Rounds", s.rounds, "/games"),
        ("Players", s.players, "/players"),
        ("Tournaments", s.tournaments, "/tournaments"),
    ];
    let b = html! {
        h1 { "Archive overview" }
        div.cards { @for (label, n, href) in cards { a.card href=(href) { b { (n) } (label) } } }
        @if !s.per_game.is_empty() {
            h2 { "By game" }
            ul {
                @for (g, n) in &s.per_game {
                    @let name = g.as_deref().unwrap_or("unreadable");
                    li { a href={ "/games?game=" (url(name)) } { (paifu_core::GameKind::from_name(name).map_or(name, |k| k.title())) } ": " (n) }
                }
            }
        }
        @if !s.faults.is_empty() {
            h2 { "Faults of invalid logs" }
            ul { @for (code, n) in &s.faults { li { code { (code) } ": " (n) } } }
        }
        h2 { "Latest games" }
        (PreEscaped(games_table(&o.recent.rows)))
        @if !o.tournaments.is_empty() {
            h2 { "Tournaments" }
            ul { @for t in &o.tournaments { li { a href={ "/tournaments/" (url(&t.name)) } { (t.name) } " (" (t.games) " games)" } } }
        }
        @if !o.top_players.is_empty() {
            h2 { "Most active players" }
            ul { @for p in &o.top_players { li { a href={ "/players/" (url(&p.name)) } { (p.name) } " (" (p.games) " games)" } } }
        }
        h2 { "This server's key" }
        p { "Certificates are signed with " code { (o.public_key) } " (" a href="/api/key" { "/api/key" } ")." }
    };
    ok(user(&req, &state).await.as_ref(), "Overview", "/", &b.into_string())
}

/// The links to the pages beside a page of games, and where it is: "Games 51–100 of 1234".
fn pager(base: &str, g: &GamePage, pages: u64, q: &GamesQuery) -> maud::Markup {
    maud::html! {
        nav.pager aria-label="Pages" {
            @match g.newer {
                Some(id) => a.button rel="prev" href=(q.link(base, ("before", id))) { "← Newer" },
                None => span.button.off aria-disabled="true" { "← Newer" },
            }
            span {
                @let n = g.rows.len() as u64;
                @if n > 0 { "Games " (g.first) "–" (g.first + n - 1) " of " (g.total) " · " }
                "Page " (g.page) " of " (pages)
            }
            @match g.older {
                Some(id) => a.button rel="next" href=(q.link(base, ("after", id))) { "Older →" },
                None => span.button.off aria-disabled="true" { "Older →" },
            }
        }
    }
}

async fn games(req: HttpRequest, state: web::Data<State>, q: web::Query<GamesQuery>) -> Page {
    use maud::{html, PreEscaped};
    let q = q.into_inner();
    let g = data::games(&state, q.clone()).await?;
    let verdict = g.filter.valid.map(|v| if v { "valid" } else { "invalid" });
    let b = html! {
        h1 { "Games" }
        form.filters method="get" action="/games" role="search" {
            label { "Game" select name="game" {
                option value="" { "any" }
                @for k in &g.kinds { option value=(k) selected[g.filter.game.as_deref() == Some(k.as_str())] { (k) } }
            } }
            label { "Player" input name="player" value=(g.filter.player.as_deref().unwrap_or("")) autocomplete="off"; }
            label { "Tournament" input name="tournament" value=(g.filter.tournament.as_deref().unwrap_or("")); }
            label { "Verdict" select name="verdict" {
                option value="" { "any" }
                option value="valid" selected[verdict == Some("valid")] { "valid" }
                option value="invalid" selected[verdict == Some("invalid")] { "invalid" }
            } }
            button type="submit" { "Filter" }
        }
        p { @if g.games.total == 1 { "1 game matches." } @else { (g.games.total) " games match." } }
        (PreEscaped(games_table(&g.games.rows)))
        (pager("/games", &g.games, g.pages, &q))
    };
    ok(user(&req, &state).await.as_ref(), "Games", "/games", &b.into_string())
}
async fn certificate(state: web::Data<State>, id: web::Path<String>) -> Page {
    let id = data::parse_id(&id)?;
    let json = data::certificate(&state, id).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"game-{id}.cert.json\"")))
        .body(json))
}

async fn log_file(state: web::Data<State>, id: web::Path<String>) -> Page {
    let id = data::parse_id(&id)?;
    let (bytes, form) = data::log_bytes(&state, id).await?;
    let name = match form {
        paifu_recorder::archive::StoredForm::Binary => format!("game-{id}.paifu"),
        paifu_recorder::archive::StoredForm::Raw => format!("game-{id}.raw"),
    };
    Ok(HttpResponse::Ok()
        .content_type("application/octet-stream")
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")))
        .body(bytes))
}

async fn players(req: HttpRequest, state: web::Data<State>, q: web::Query<PlayersQuery>) -> Page {
    let search = q.q.clone().unwrap_or_default();
    let rows = data::players(&state, q.into_inner()).await?;
    let b = maud::html! {
        h1 { "Players" }
        form.filters method="get" action="/players" role="search" {
            label { "Name begins with" input name="q" value=(search); }
            button type="submit" { "Search" }
        }
        @if rows.is_empty() {
            p.note { "No players match." }
        } @else {
            div.scroll { table {
                thead { tr { th { "Player" } th.n { "Games" } } }
                tbody { @for p in &rows { tr { td { a href={ "/players/" (url(&p.name)) } { (p.name) } } td.n { (p.games) } } } }
            } }
        }
    };
    ok(user(&req, &state).await.as_ref(), "Players", "/players", &b.into_string())
}

async fn player(req: HttpRequest, state: web::Data<State>, name: web::Path<String>) -> Page {
    use maud::{html, PreEscaped};
    let name = name.into_inner();
    let p = data::player(&state, name.clone()).await?;
    // The rest of their games, a page at a time from where this list stops.
    let q =
        GamesQuery { player: Some(p.player.name.clone()), per_page: Some(p.recent.per_page), ..GamesQuery::default() };
    let b = html! {
        h1 { (name) }
        p { (p.player.games) " games in the archive · " a href={ "/games?player=" (url(&name)) } { "all their games" }
            " · " a href={ "/api/players/" (url(&name)) } { "JSON" } }
        @if p.kinds.is_empty() { p.note { "No valid games yet, so no statistics." } }
        @for k in &p.kinds {
            h2 { (k.title) }
            div.scroll { table { tbody {
                // Per-category and per-yaku lines that never happened say nothing; the JSON has them all.
                @for m in k.metrics.iter().filter(|m| !(m.key.contains(':') && m.value == 0.0)) {
                    tr { th scope="row" { (m.label) } td.n { (metric_text(m)) } }
                }
            } } }
            div.plots {
                @let places: Vec<(String, f64)> = k.placements.iter().map(|(p, n)| (p.to_string(), *n as f64)).collect();
                (chart_with_numbers(&plot::placement_chart(&name, &k.placements), "Place", "Games", &places))
                @for d in k.distributions.iter().filter(|d| !d.values.is_empty()) {
                    @let numeric = d.values.iter().all(|(l, _)| l.parse::<i64>().is_ok());
                    @let svg = if numeric { plot::bars(&d.title, &d.values, "", "count") } else { plot::frequency_bars(&d.title, &d.values) };
                    (chart_with_numbers(&svg, "", "", &d.values))
                }
            }
        }
        h2 { "Latest games" }
        (PreEscaped(games_table(&p.recent.rows)))
        (pager("/games", &p.recent, p.recent.total.div_ceil(u64::from(p.recent.per_page)).max(1), &q))
    };
    ok(user(&req, &state).await.as_ref(), &name, "/players", &b.into_string())
}

/// A statistic as a number people read: counts whole, shares in percent, averages to two
/// decimals without trailing zeros, whole when they are large (an average score of 43520, not
/// 43520.00).
fn metric_text(m: &paifu_analyzer::Metric) -> String {
    match m.unit {
        paifu_analyzer::Unit::Average if m.value.abs() >= 100.0 => format!("{:.0}", m.value),
        paifu_analyzer::Unit::Average => {
            let s = format!("{:.2}", m.value);
            s.trim_end_matches('0').trim_end_matches('.').to_owned()
        }
        _ => m.shown(),
    }
}

/// A chart with its numbers beside it, in a table, for readers who prefer numbers (and for
/// screen readers): every value the chart draws, none left out. `svg` is the chart as the
/// plotter drew it (its text escaped by the plotter).
fn chart_with_numbers(svg: &str, label: &str, value: &str, values: &[(String, f64)]) -> maud::Markup {
    use maud::{html, PreEscaped};
    html! {
        figure.chart {
            (PreEscaped(svg))
            details open { summary { "Numbers" } table.numbers {
                thead { tr { th { (label) } th.n { (value) } } }
                tbody { @for (l, v) in values {
                    tr { td { (l) } td.n { @if v.fract() == 0.0 { (format!("{v:.0}")) } @else { (format!("{v:.2}")) } } }
                } }
            } }
        }
    }
}

async fn tournaments(req: HttpRequest, state: web::Data<State>) -> Page {
    let rows = data::tournaments(&state).await?;
    let b = maud::html! {
        h1 { "Tournaments" }
        @if rows.is_empty() {
            p.note { "No tournaments yet: ingest logs with " code { "paifu ingest --tournament NAME" } " or name one when uploading." }
        } @else {
            div.scroll { table {
                thead { tr { th { "Tournament" } th.n { "Games" } th.n { "Valid" } } }
                tbody { @for t in &rows {
                    tr { td { a href={ "/tournaments/" (url(&t.name)) } { (t.name) } } td.n { (t.games) } td.n { (t.valid) } }
                } }
            } }
        }
    };
    ok(user(&req, &state).await.as_ref(), "Tournaments", "/tournaments", &b.into_string())
}

fn recent(g: &GamePage) -> String {
    games_table(&g.rows)
}

/// A tournament: its standings first (one table per game and ruleset: points of different
/// games are never added together), then the audit (who owns it, the keys it trusts, the root
/// `paifu report` signs), then its games.
fn tournament_body(t: &data::TournamentPage) -> maud::Markup {
    use maud::{html, PreEscaped};
    let mut tables: Vec<&[paifu_recorder::archive::Standing]> = Vec::new();
    let mut rest = t.standings.as_slice();
    while let Some(first) = rest.first() {
        let n = rest.iter().take_while(|s| s.game == first.game && s.ruleset == first.ruleset).count();
        tables.push(&rest[..n]);
        rest = &rest[n..];
    }
    html! {
        h1 { (t.name) }
        p { (t.games.total) " games · " a href={ "/games?tournament=" (url(&t.name)) } { "all games" }
            " · " a href={ "/api/tournaments/" (url(&t.name)) } { "JSON" } }
        h2 { "Standings" }
        @if tables.is_empty() { p.note { "No game counts yet." } }
        @for lines in &tables {
            @let first = &lines[0];
            @let riichi = first.points.is_some();
            @let title = paifu_core::GameKind::from_name(&first.game).map_or(first.game.clone(), |k| k.title().to_owned());
            @let terms = t.final_points.iter().find(|f| f.game == first.game && f.ruleset == first.ruleset);
            h3.standings-title { (title) " (" (first.ruleset) " rules)" }
            p.note {
                @if riichi {
                    "Ranked by points: each game's final score less the return points, plus uma and oka as the game's \
                     ruleset sets them, in thousands; then average place, then firsts."
                } @else {
                    "Ranked by average place (exact, not rounded), then firsts, then total score."
                }
                @if let Some(f) = terms { " Here: " (f.terms.join("; ")) "." }
                @if let Some(m) = t.info.min_games {
                    " A ranked line needs at least " (m) " counted games; players with fewer follow, unranked."
                }
            }
            div.scroll { table.standings {
                thead { tr {
                    // Penalties beside the games, before the wide columns: on a phone the table
                    // scrolls sideways, and they stay in its first screen.
                    th.n { "Rank" } th { "Player" } th.n { "Games" } th.n { "Penalties" } @if riichi { th.n { "Points" } }
                    th.n { "Average place" } th.n { "Firsts" } th.n { "Total score" }
                } }
                tbody {
                    @for s in lines.iter() {
                        tr.unranked[s.unranked.is_some()] {
                            // The games column shows how many: the cell says the word, its title the whole.
                            td.n { @if let Some(u) = &s.unranked { span title=(u) { "unranked" } } @else { (s.rank) } }
                            td { a href={ "/players/" (url(&s.player)) } { (s.player) } } td.n { (s.games) }
                            td.n.penalties {
                                @if s.penalties > 0 {
                                    b { (s.penalties) }
                                    @match s.penalty_points {
                                        Some(p) => { " (" (-p) ")" }
                                        None => { " (no cost)" }
                                    }
                                }
                            }
                            @if let Some(p) = s.points { td.n { (format!("{:+.1}", p as f64 / 1000.0)) } }
                            td.n { (format!("{:.3}", s.average_placement)) } td.n { (s.firsts) } td.n { (s.total_score) }
                        }
                    }
                }
            } }
            @if lines.iter().any(|s| s.penalties > 0) {
                p.note { "Penalties: the rule incidents recorded against the player in the counted games (riichi's \
                    chombo, MCR's false win, Ta Yü's talk), and in brackets what they cost as the ruleset charges \
                    them at the table (a chombo's reverse mangan, MCR's " code { "false_win" } " points to each \
                    other player; \"no cost\" when the ruleset charges none, as for a talk, which costs a turn); \
                    that cost is already in the scores and points, never taken off twice." }
            }
            @if let Some(d) = t.duplicate.iter().find(|d| d.game == first.game && d.ruleset == first.ruleset) {
                (duplicate_table(&d.summary))
            }
        }
        h2 #audit { "Audit" }
        p #trust {
            "The standings count the valid games that a key this tournament trusts certified valid: "
            (t.counted) " of " (t.games.total) " games. Owner: " (t.info.owner.as_deref().unwrap_or("none (admins only)"))
            ". Trusted keys: "
            @if t.info.trusted_keys.is_empty() { "none" }
            @for (i, k) in t.info.trusted_keys.iter().enumerate() { @if i > 0 { ", " } code { (k) } }
            "."
        }
        p { "Merkle root of its games and their certificates by trusted keys: " code #root { (t.root) } ". "
            code { "paifu report --tournament" } " signs this root in the tournament's manifest, and "
            code { "paifu verify tournament" } " checks every game against it." }
        h2 { "Games" }
        (PreEscaped(recent(&t.games)))
    }
}

/// A table's duplicate games: each player's mean rank points a game with its 95% interval over
/// the complete sets, and how many sets there were (docs/play.md, "Duplicate tables").
fn duplicate_table(d: &paifu_analyzer::duplicate::DuplicateSummary) -> maud::Markup {
    maud::html! {
        h4.duplicate-title { "Duplicate sets" }
        p.note.duplicate-sets {
            (d.sets) " complete set" @if d.sets != 1 { "s" } " of " (d.seats) " games (one deal in every seat rotation)"
            @if d.incomplete > 0 { ", " (d.incomplete) " unfinished, not counted" }
            ". Mean rank points a game (" (d.seats.saturating_sub(1)) " first .. 0 last)"
            @if d.sets >= 2 {
                " with a 95% confidence interval over the sets (Student's t, " (d.sets - 1) " degrees of freedom)."
            } @else { "; no interval from " @if d.sets == 1 { "a single set." } @else { "no set." } }
        }
        @if !d.standings.is_empty() {
            div.scroll { table.standings.duplicate {
                thead { tr { th { "Player" } th.n { "Mean" } th.n { "95% interval" } th.n { "Games" } } }
                tbody {
                    @for s in &d.standings {
                        tr {
                            td { a href={ "/players/" (url(&s.name)) } { (s.name) } }
                            td.n { (format!("{:.3}", s.mean)) }
                            td.n { @if let Some(h) = s.half_width {
                                (format!("± {h:.3} ({:.3} to {:.3})", s.mean - h, s.mean + h))
                            } }
                            td.n { (s.games) }
                        }
                    }
                }
            } }
        }
    }
}

async fn tournament(req: HttpRequest, state: web::Data<State>, name: web::Path<String>) -> Page {
    let t = data::tournament(&state, name.into_inner()).await?;
    ok(user(&req, &state).await.as_ref(), &t.name, "/tournaments", &tournament_body(&t).into_string())
}

fn upload_form_html(max: usize, caller: Option<&Caller>) -> String {
    upload_form_markup(max, caller, "Upload a log", true).into_string()
}

/// The upload form under `heading` (an h1 on its own page, an h2 under a result).
fn upload_form_markup(max: usize, caller: Option<&Caller>, heading: &str, first: bool) -> maud::Markup {
    use maud::{html, PreEscaped};
    html! {
        @if first { h1 { (heading) } } @else { h2 { (heading) } }
        @if let Some(c) = caller {
            (PreEscaped(logged_in(c)))
            p { "Choose a Paifu log (" code { ".paifu" } " or " code { ".paifu.jsonl" } ", at most " (max / 1024)
                " KiB), or a riichi game record as Tenhou or a bot wrote it: tenhou.net/6 JSON, Tenhou's mjlog XML or \
                mjai JSON Lines (at most 512 KiB; recognised by its content, whatever the file's name, and imported as "
                code { "paifu import" } " does, the record kept inside the log). It is validated, stored in the archive \
                whatever the verdict, and certified with this server's key. A file that is not a readable log or \
                record is refused and not stored, with the format tried and the place at fault." }
            form method="post" action="/upload" enctype="multipart/form-data" {
                (PreEscaped(csrf_field(c)))
                p { label { "Log file" input type="file" name="log" #log required; } }
                @if c.token.may(Role::Organiser) {
                    p { label { "Tournament (optional: one of yours, or a new one)" input name="tournament" #tournament; } }
                }
                p { button type="submit" #send { "Validate and store" } }
            }
        } @else {
            p { "Uploading needs a token: " a.button href="/login?next=/upload" { "Log in" } " (or send the log to "
                code { "POST /api/upload" } " with " code { "Authorization: Bearer TOKEN" } ")." }
        }
    }
}

async fn upload_form(req: HttpRequest, state: web::Data<State>) -> Page {
    let caller = session_caller(&req, &state).await?;
    ok(
        caller.as_ref().map(Caller::viewer).as_ref(),
        "Upload",
        "/upload",
        &upload_form_html(state.max_upload, caller.as_ref()),
    )
}

fn text_field(form: &std::collections::BTreeMap<String, (Option<String>, Vec<u8>)>, k: &str) -> Option<String> {
    form.get(k).and_then(|(_, v)| String::from_utf8(v.clone()).ok()).filter(|s| !s.trim().is_empty())
}

async fn upload(req: HttpRequest, state: web::Data<State>, mp: Multipart) -> Page {
    same_origin(&req)?;
    let caller = page_caller(&req, &state).await?;
    let mut form = data::read_form(mp, state.max_upload).await?;
    caller.check_csrf(field_text(&form, "csrf").as_deref())?;
    let tournament = text_field(&form, "tournament");
    let (filename, bytes) = form
        .remove("log")
        .ok_or_else(|| WebError::BadRequest("the form has no file: choose a log file in the field \"log\"".into()))?;
    let u = data::upload(&state, &caller, bytes, filename, tournament).await?;
    let id = u.stored.id;
    let b = {
        use maud::{html, PreEscaped};
        html! {
            h1 { "Upload result" }
            p #verdict role="status" { (PreEscaped(html::verdict(u.stored.valid, u.stored.fault.as_ref().map(|f| f.code.as_str())))) }
            @if let Some(f) = &u.fault_text { div.fault { (f) } }
            p #stored { (upper_first(&u.message)) " · " (u.records) " records · players: " (player_links(&u.players)) }
            p {
                a.button href={ "/games/" (id) } { "Open game #" (id) }
                @if u.certificate.is_some() { " " a.button href={ "/games/" (id) "/certificate" } download { "Certificate" } }
            }
            @if u.stored.others > 0 {
                p.note { "The archive holds " (u.stored.others) " other " (if u.stored.others == 1 { "entry" } else { "entries" })
                    " of this game: " a href={ "/games/" (id) "#entries" } { "see them side by side" } "." }
            }
            (upload_form_markup(state.max_upload, Some(&caller), "Upload another", false))
        }
        .into_string()
    };
    ok(Some(&caller.viewer()), "Upload result", "/upload", &b)
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

fn verify_form_html() -> String {
    verify_form_markup("Verify a certificate", true).into_string()
}

/// The certificate form under `heading` (an h1 on its own page, an h2 under a result).
fn verify_form_markup(heading: &str, first: bool) -> maud::Markup {
    use maud::html;
    html! {
        @if first { h1 { (heading) } } @else { h2 { (heading) } }
        p { "Give a certificate (" code { ".cert.json" } ") and, optionally, the log it is about. Without a log, the \
             archived log with the certified digest is used if the archive holds it. Without a public key, this \
             server's key is assumed." }
        form method="post" action="/verify" enctype="multipart/form-data" {
            p { label { "Certificate file" input type="file" name="certificate_file"; } }
            p { label { "…or paste it" textarea name="certificate" rows="6" cols="60" {} } }
            p { label { "Log file (optional)" input type="file" name="log"; } }
            p { label { "Signer's public key, PEM or hex (optional)" textarea name="key" rows="3" cols="60" {} } }
            p { button type="submit" { "Verify" } }
        }
    }
}

async fn verify_form(req: HttpRequest, state: web::Data<State>) -> Page {
    ok(user(&req, &state).await.as_ref(), "Verify", "/verify", &verify_form_html())
}

async fn verify(req: HttpRequest, state: web::Data<State>, mp: Multipart) -> Page {
    let mut form = data::read_form(mp, state.max_upload).await?;
    let cert = match form.remove("certificate_file").filter(|(_, b)| !b.is_empty()) {
        Some((_, b)) => b,
        None => form.remove("certificate").map(|(_, b)| b).unwrap_or_default(),
    };
    let log = form.remove("log").map(|(_, b)| b).filter(|b| !b.is_empty());
    let key = text_field(&form, "key");
    let v = data::verify(&state, cert, log, key).await?;
    let b = {
        use maud::html;
        html! {
            h1 { "Certificate check" }
            p #result role="status" class=(if v.ok { "ok" } else { "bad" }) {
                (if v.ok { "✔ The certificate verifies." } else { "✘ The certificate does not verify." })
            }
            p { (v.message) }
            @if let Some(c) = &v.certificate {
                dl.kv {
                    dt { "Game" } dd { (c.game) }
                    dt { "Seats" } dd { (c.seats.join(", ")) }
                    dt { "Log digest" } dd { code { (c.log_digest.to_hex()) } }
                    dt { "Verdict" } dd { (c.verdict) }
                    dt { "Signed" } dd { (c.issued_at) }
                }
            }
            @if let Some(id) = v.game_id { p { "The archive holds this log: " (game_link(id)) "." } }
            (verify_form_markup("Verify another", false))
        }
        .into_string()
    };
    let status = if v.ok { actix_web::http::StatusCode::OK } else { actix_web::http::StatusCode::UNPROCESSABLE_ENTITY };
    let who = user(&req, &state).await;
    let chrome = crate::html::Chrome { title: "Verify", active: "/verify", user: who.as_ref(), scripts: &[] };
    Ok(HttpResponse::build(status).content_type("text/html; charset=utf-8").body(crate::html::layout(&chrome, &b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use paifu_analyzer::{Metric, Unit};

    #[test]
    fn statistics_read_as_numbers() {
        let m = |v: f64, u: Unit| metric_text(&Metric::new("k", "label", v, u));
        assert_eq!(m(43520.0, Unit::Average), "43520");
        assert_eq!(m(2.5, Unit::Average), "2.5");
        assert_eq!(m(2.333, Unit::Average), "2.33");
        assert_eq!(m(3.0, Unit::Average), "3");
        assert_eq!(m(12.0, Unit::Count), "12");
        assert_eq!(m(0.25, Unit::Ratio), "25.0%");
    }
}
