//! The HTML pages.

use crate::auth::{self, page_caller, same_origin, session_caller, Caller};
use crate::data::{self, GamesQuery, PlayersQuery};
use crate::html::{self, esc, page, url};
use crate::{PageError, State, WebError};
use actix_multipart::Multipart;
use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use paifu_analyzer::plot;
use paifu_recorder::archive::Role;
use paifu_recorder::archive::{GamePage, GameRow};
use serde::Deserialize;
use std::fmt::Write as _;

type Page = Result<HttpResponse, PageError>;

fn ok(title: &str, active: &str, body: &str) -> Page {
    Ok(HttpResponse::Ok().content_type("text/html; charset=utf-8").body(page(title, active, body, None)))
}

pub(crate) fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(overview))
        .route("/games", web::get().to(games))
        .route("/games/{id}", web::get().to(game))
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
        .route("/logout", web::post().to(logout));
}

/// The hidden field a session's forms carry.
fn csrf_field(caller: &Caller) -> String {
    format!("<input type=\"hidden\" name=\"csrf\" value=\"{}\">", esc(caller.csrf()))
}

/// Who is logged in, with a button to log out.
fn logged_in(caller: &Caller) -> String {
    format!(
        "<form class=\"filters\" method=\"post\" action=\"/logout\"><span id=\"who\">Logged in as <b>{}</b> ({})</span>{}\
         <button type=\"submit\">Log out</button></form>",
        esc(&caller.token.name),
        caller.token.role,
        csrf_field(caller)
    )
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
    format!(
        "<h1>Log in</h1>{}<p>Reading needs nothing. To upload logs, have stored games signed, or make tournaments, log \
         in with a token (made with <code>paifu token create</code>; scripts send it as \
         <code>Authorization: Bearer TOKEN</code> instead). The token is checked on every request: once revoked, it \
         logs nobody in.</p>\
         <form method=\"post\" action=\"/login\"><input type=\"hidden\" name=\"next\" value=\"{}\">\
         <p><label>Token<input type=\"password\" name=\"token\" id=\"token\" autocomplete=\"off\" required></label></p>\
         <p><button type=\"submit\" id=\"login\">Log in</button></p></form>",
        message.map(|m| format!("<div class=\"fault\" role=\"alert\">{}</div>", esc(m))).unwrap_or_default(),
        esc(next)
    )
}

async fn login_form(req: HttpRequest, state: web::Data<State>, q: web::Query<LoginQuery>) -> Page {
    let next = local_path(q.next.as_deref());
    let mut b = login_form_html(&next, None);
    if let Ok(Some(c)) = session_caller(&req, &state).await {
        b.push_str(&logged_in(&c));
    }
    ok("Log in", "/login", &b)
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
                None,
            )))
        }
        Err(e) => return Err(e.into()),
    };
    let (id, _csrf) = state.sessions.open(token.id)?;
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
            state.sessions.close(id);
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

fn game_link(id: i64) -> String {
    format!("<a href=\"/games/{id}\">#{id}</a>")
}

fn player_links(players: &[String]) -> String {
    players.iter().map(|p| format!("<a href=\"/players/{}\">{}</a>", url(p), esc(p))).collect::<Vec<_>>().join(", ")
}

fn games_table(rows: &[GameRow]) -> String {
    if rows.is_empty() {
        return "<p class=\"note\">No games match.</p>".into();
    }
    let mut s = String::from(
        "<div class=\"scroll\"><table><caption class=\"skip\">Games</caption><thead><tr><th>Game</th><th>Kind</th>\
         <th>Players</th><th>Verdict</th><th class=\"n wide\">Rounds</th><th>Final scores</th><th class=\"wide\">Added</th></tr></thead><tbody>",
    );
    for r in rows {
        let scores = r
            .final_scores
            .as_ref()
            .map(|v| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" / "))
            .unwrap_or_default();
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n wide\">{}</td><td>{}</td><td class=\"wide\">{}</td></tr>",
            game_link(r.id),
            esc(r.game.as_deref().unwrap_or("?")),
            player_links(&r.players),
            html::stored_verdict(r.valid, r.fault_code.as_deref(), r.excerpt.as_deref()),
            r.rounds,
            esc(&scores),
            html::time(r.added_at)
        );
    }
    s + "</tbody></table></div>"
}

async fn overview(state: web::Data<State>) -> Page {
    let o = data::overview(&state).await?;
    let s = &o.summary;
    let mut b = String::from("<h1>Archive overview</h1><div class=\"cards\">");
    for (label, n, href) in [
        ("Games", s.games, "/games"),
        ("Valid", s.valid, "/games?verdict=valid"),
        ("Invalid", s.invalid, "/games?verdict=invalid"),
        ("Rounds", s.rounds, "/games"),
        ("Players", s.players, "/players"),
        ("Tournaments", s.tournaments, "/tournaments"),
    ] {
        let _ = write!(b, "<a class=\"card\" href=\"{href}\"><b>{n}</b>{label}</a>");
    }
    b.push_str("</div>");
    if !s.per_game.is_empty() {
        b.push_str("<h2>By game</h2><ul>");
        for (g, n) in &s.per_game {
            let name = g.as_deref().unwrap_or("unreadable");
            let title = paifu_core::GameKind::from_name(name).map_or(name, |k| k.title());
            let _ = write!(b, "<li><a href=\"/games?game={}\">{}</a>: {n}</li>", url(name), esc(title));
        }
        b.push_str("</ul>");
    }
    if !s.faults.is_empty() {
        b.push_str("<h2>Faults of invalid logs</h2><ul>");
        for (code, n) in &s.faults {
            let _ = write!(b, "<li><code>{}</code>: {n}</li>", esc(code));
        }
        b.push_str("</ul>");
    }
    b.push_str("<h2>Latest games</h2>");
    b.push_str(&games_table(&o.recent.rows));
    if !o.tournaments.is_empty() {
        b.push_str("<h2>Tournaments</h2><ul>");
        for t in &o.tournaments {
            let _ = write!(
                b,
                "<li><a href=\"/tournaments/{}\">{}</a> ({} games)</li>",
                url(&t.name),
                esc(&t.name),
                t.games
            );
        }
        b.push_str("</ul>");
    }
    if !o.top_players.is_empty() {
        b.push_str("<h2>Most active players</h2><ul>");
        for p in &o.top_players {
            let _ =
                write!(b, "<li><a href=\"/players/{}\">{}</a> ({} games)</li>", url(&p.name), esc(&p.name), p.games);
        }
        b.push_str("</ul>");
    }
    let _ = write!(
        b,
        "<h2>This server's key</h2><p>Certificates are signed with <code>{}</code> (<a href=\"/api/key\">/api/key</a>).</p>",
        esc(&o.public_key)
    );
    ok("Overview", "/", &b)
}

/// The links to the pages beside a page of games, and where it is: "Games 51–100 of 1234".
fn pager(base: &str, g: &GamePage, pages: u64, q: &GamesQuery) -> String {
    let prev = match g.newer {
        Some(id) => {
            format!("<a class=\"button\" rel=\"prev\" href=\"{}\">← Newer</a>", esc(&q.link(base, ("before", id))))
        }
        None => "<span class=\"button off\" aria-disabled=\"true\">← Newer</span>".into(),
    };
    let next = match g.older {
        Some(id) => {
            format!("<a class=\"button\" rel=\"next\" href=\"{}\">Older →</a>", esc(&q.link(base, ("after", id))))
        }
        None => "<span class=\"button off\" aria-disabled=\"true\">Older →</span>".into(),
    };
    let place = match g.rows.len() as u64 {
        0 => String::new(),
        n => format!("Games {}–{} of {} · ", g.first, g.first + n - 1, g.total),
    };
    format!(
        "<nav class=\"pager\" aria-label=\"Pages\">{prev}<span>{place}Page {} of {pages}</span>{next}</nav>",
        g.page
    )
}

async fn games(state: web::Data<State>, q: web::Query<GamesQuery>) -> Page {
    let q = q.into_inner();
    let g = data::games(&state, q.clone()).await?;
    let sel = |v: &str, cur: &Option<String>| if cur.as_deref() == Some(v) { " selected" } else { "" };
    let mut kinds = String::from("<option value=\"\">any</option>");
    for k in &g.kinds {
        let _ = write!(kinds, "<option value=\"{}\"{}>{}</option>", esc(k), sel(k, &g.filter.game), esc(k));
    }
    let verdict = g.filter.valid.map(|v| if v { "valid" } else { "invalid" }.to_owned());
    let mut b = format!(
        "<h1>Games</h1><form class=\"filters\" method=\"get\" action=\"/games\" role=\"search\">\
         <label>Game<select name=\"game\">{kinds}</select></label>\
         <label>Player<input name=\"player\" value=\"{}\" autocomplete=\"off\"></label>\
         <label>Tournament<input name=\"tournament\" value=\"{}\"></label>\
         <label>Verdict<select name=\"verdict\"><option value=\"\">any</option>\
         <option value=\"valid\"{}>valid</option><option value=\"invalid\"{}>invalid</option></select></label>\
         <button type=\"submit\">Filter</button></form><p>{}</p>",
        esc(g.filter.player.as_deref().unwrap_or("")),
        esc(g.filter.tournament.as_deref().unwrap_or("")),
        sel("valid", &verdict),
        sel("invalid", &verdict),
        match g.games.total {
            1 => "1 game matches.".to_owned(),
            n => format!("{n} games match."),
        }
    );
    b.push_str(&games_table(&g.games.rows));
    b.push_str(&pager("/games", &g.games, g.pages, &q));
    ok("Games", "/games", &b)
}

async fn game(req: HttpRequest, state: web::Data<State>, id: web::Path<String>) -> Page {
    let id = data::parse_id(&id)?;
    let g = data::game(&state, id).await?;
    let caller = session_caller(&req, &state).await.ok().flatten();
    let title = g.game.as_deref().and_then(paifu_core::GameKind::from_name).map_or("Unknown game", |k| k.title());
    let mut b = format!("<h1>Game #{id}: {}</h1>", esc(title));
    let _ = write!(
        b,
        "<p>{}",
        html::stored_verdict(g.valid, g.fault.as_ref().map(|f| f.code.as_str()), g.excerpt.as_deref())
    );
    if g.form == "binary" {
        let _ = write!(b, " · <a class=\"button\" href=\"/games/{id}/view\">Step through it</a>");
    }
    let _ = write!(
        b,
        " · <a href=\"/games/{id}/certificate\" download>Certificate</a> · <a href=\"/games/{id}/log\" download>Log file</a> · <a href=\"/api/games/{id}\">JSON</a></p>"
    );
    if let Some(e) = &g.excerpt {
        let _ = write!(b, "<p class=\"note\" id=\"excerpt\">{}: no final standings</p>", esc(e));
    }
    if let Some(f) = &g.fault {
        let _ = write!(b, "<div class=\"fault\" role=\"alert\"><b>Fault:</b> {}</div>", esc(&f.describe()));
    }
    if g.entries.len() > 1 {
        b.push_str(&entries_table(id, &g.entries));
    } else if g.valid && !g.counted {
        b.push_str("<p class=\"note\">Another entry of this game counts in statistics and standings.</p>");
    }
    b.push_str("<h2>Players and result</h2><div class=\"scroll\"><table><thead><tr><th>Seat</th><th>Player</th><th class=\"n\">Final score</th><th class=\"n\">Place</th></tr></thead><tbody>");
    for s in &g.seats {
        let _ = write!(
            b,
            "<tr><td>{}</td><td><a href=\"/players/{}\">{}</a></td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            s.seat,
            url(&s.player),
            esc(&s.player),
            s.final_score.map_or("—".into(), |x| x.to_string()),
            s.placement.map_or("—".into(), |x| x.to_string())
        );
    }
    b.push_str("</tbody></table></div>");
    if !g.rounds.is_empty() {
        let names: Vec<String> = g.seats.iter().map(|s| s.player.clone()).collect();
        b.push_str("<h2>Scores over the rounds</h2>");
        let start = plot::starting_score(g.final_scores.as_deref().unwrap_or(&[]), &g.rounds);
        b.push_str(&plot::score_chart(&names, &g.rounds, start, &format!("Game #{id}: scores after each round")));
        b.push_str("<h2>Rounds</h2><div class=\"scroll\"><table><thead><tr><th>Round</th><th>Score changes</th><th>Scores after</th><th>What happened</th></tr></thead><tbody>");
        // The chart's numbers: every seat's total after each round.
        let mut totals = vec![start; names.len()];
        for r in &g.rounds {
            let d = r.deltas.iter().map(|x| format!("{x:+}")).collect::<Vec<_>>().join(" / ");
            for (t, x) in totals.iter_mut().zip(&r.deltas) {
                *t += x;
            }
            let after = totals.iter().map(i64::to_string).collect::<Vec<_>>().join(" / ");
            let _ = write!(
                b,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                r.round,
                esc(&d),
                esc(&after),
                esc(&r.summary)
            );
        }
        b.push_str("</tbody></table></div>");
    }
    b.push_str("<h2>Details</h2><dl class=\"kv\">");
    let mut kv = |k: &str, v: String| {
        let _ = write!(b, "<dt>{k}</dt><dd>{v}</dd>");
    };
    kv("Digest", format!("<code>{}</code> ({})", esc(&g.digest), esc(&g.digest_kind)));
    kv("Ruleset", esc(g.ruleset.as_deref().unwrap_or("—")));
    kv("Records", g.records.to_string());
    kv("Size uploaded", format!("{} bytes", g.size));
    kv("Stored as", esc(&g.form));
    kv("Source", esc(g.source.as_deref().unwrap_or("—")));
    kv("Added", html::time(g.added_at));
    kv("Checked by", esc(&g.engine));
    // A match whose bots ran unsandboxed (paifu arena --no-sandbox) says so in its header.
    if let Some(s) = g.header.as_ref().and_then(|h| h["meta"]["sandbox"].as_str()) {
        kv("Sandbox", esc(s));
    }
    kv(
        "Tournaments",
        if g.tournaments.is_empty() {
            "—".into()
        } else {
            g.tournaments
                .iter()
                .map(|t| format!("<a href=\"/tournaments/{}\">{}</a>", url(t), esc(t)))
                .collect::<Vec<_>>()
                .join(", ")
        },
    );
    kv("Identity", format!("<code>{}</code> (blake3 of the stored log)", esc(&g.identity)));
    kv("Stored by", stored_by(&g.stored_by));
    kv("Counts", if g.counted { "yes: in statistics and standings".into() } else { "no".into() });
    b.push_str("</dl>");
    b.push_str(&certificates_html(id, &g.certificates, caller.as_ref(), &state.public_hex));
    ok(&format!("Game #{id}"), "/games", &b)
}

/// The entries of one game side by side: the one that counts first.
fn entries_table(id: i64, entries: &[paifu_recorder::archive::EntryRow]) -> String {
    let mut s = String::from(
        "<h2 id=\"entries\">Entries of this game</h2><p>These logs share the game digest (the same game) but differ \
         in something the validator reads, such as the seed: each is judged and certified on its own, and only a \
         valid one counts.</p><div class=\"scroll\"><table><thead><tr><th>Entry</th><th>Verdict</th><th>Seed</th>\
         <th>Counts</th><th class=\"wide\">Added</th></tr></thead><tbody>",
    );
    for e in entries {
        let link = if e.id == id { format!("<b>#{} (this one)</b>", e.id) } else { game_link(e.id) };
        let _ = write!(
            s,
            "<tr><td>{link}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"wide\">{}</td></tr>",
            html::verdict(e.valid, e.fault_code.as_deref()),
            if e.seed_revealed { "revealed" } else { "secret" },
            if e.counted { "✔ counts" } else { "—" },
            html::time(e.added_at)
        );
    }
    s + "</tbody></table></div>"
}

fn stored_by(s: &paifu_recorder::archive::StoredBy) -> String {
    match (s.origin.as_str(), &s.name, s.token) {
        ("web", Some(name), Some(t)) => format!("{} (token {t}), through the web", esc(name)),
        ("cli", _, _) => "the command line (paifu ingest)".into(),
        ("migrated", _, _) => "not recorded (stored before the archive recorded it)".into(),
        (other, _, _) => esc(other),
    }
}

/// A game's certificates, oldest first, and for an organiser a button to have it signed.
fn certificates_html(
    id: i64,
    certs: &[paifu_recorder::archive::CertificateRow],
    caller: Option<&Caller>,
    server_key: &str,
) -> String {
    let mut s = String::from("<h2 id=\"certificates\">Certificates</h2>");
    if certs.is_empty() {
        s.push_str("<p class=\"note\">No certificate yet.</p>");
    } else {
        s.push_str(
            "<div class=\"scroll\"><table><thead><tr><th>Signed</th><th>Says</th><th>Signer</th></tr></thead><tbody>",
        );
        for c in certs {
            let mine = if c.signer == server_key { " (this server)" } else { "" };
            let _ = write!(
                s,
                "<tr><td>{}</td><td>{}</td><td><code>{}</code>{mine}</td></tr>",
                esc(&c.issued_at),
                if c.valid { "valid" } else { "invalid" },
                esc(&c.signer)
            );
        }
        s.push_str("</tbody></table></div>");
    }
    let signed_here = certs.iter().any(|c| c.signer == server_key);
    if let Some(c) = caller.filter(|c| c.token.may(Role::Organiser) && !signed_here) {
        let _ = write!(
            s,
            "<form method=\"post\" action=\"/games/{id}/certificate\">{}<button type=\"submit\" id=\"sign\">\
             Sign with this server's key</button></form>",
            csrf_field(c)
        );
    }
    s
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

async fn players(state: web::Data<State>, q: web::Query<PlayersQuery>) -> Page {
    let search = q.q.clone().unwrap_or_default();
    let rows = data::players(&state, q.into_inner()).await?;
    let mut b = format!(
        "<h1>Players</h1><form class=\"filters\" method=\"get\" action=\"/players\" role=\"search\">\
         <label>Name begins with<input name=\"q\" value=\"{}\"></label><button type=\"submit\">Search</button></form>",
        esc(&search)
    );
    if rows.is_empty() {
        b.push_str("<p class=\"note\">No players match.</p>");
    } else {
        b.push_str(
            "<div class=\"scroll\"><table><thead><tr><th>Player</th><th class=\"n\">Games</th></tr></thead><tbody>",
        );
        for p in &rows {
            let _ = write!(
                b,
                "<tr><td><a href=\"/players/{}\">{}</a></td><td class=\"n\">{}</td></tr>",
                url(&p.name),
                esc(&p.name),
                p.games
            );
        }
        b.push_str("</tbody></table></div>");
    }
    ok("Players", "/players", &b)
}

async fn player(state: web::Data<State>, name: web::Path<String>) -> Page {
    let name = name.into_inner();
    let p = data::player(&state, name.clone()).await?;
    let mut b = format!(
        "<h1>{}</h1><p>{} games in the archive · <a href=\"/games?player={}\">all their games</a> · <a href=\"/api/players/{}\">JSON</a></p>",
        esc(&name),
        p.player.games,
        url(&name),
        url(&name)
    );
    if p.kinds.is_empty() {
        b.push_str("<p class=\"note\">No valid games yet, so no statistics.</p>");
    }
    for k in &p.kinds {
        let _ = write!(b, "<h2>{}</h2><div class=\"scroll\"><table><tbody>", esc(&k.title));
        // Per-category and per-yaku lines that never happened say nothing; the JSON has them all.
        for m in k.metrics.iter().filter(|m| !(m.key.contains(':') && m.value == 0.0)) {
            let _ =
                write!(b, "<tr><th scope=\"row\">{}</th><td class=\"n\">{}</td></tr>", esc(&m.label), esc(&m.shown()));
        }
        b.push_str("</tbody></table></div><div class=\"plots\">");
        let places: Vec<(String, f64)> = k.placements.iter().map(|(p, n)| (p.to_string(), *n as f64)).collect();
        chart_with_numbers(&mut b, &plot::placement_chart(&name, &k.placements), "Place", "Games", &places);
        for d in &k.distributions {
            if d.values.is_empty() {
                continue;
            }
            let numeric = d.values.iter().all(|(l, _)| l.parse::<i64>().is_ok());
            let svg = match numeric {
                true => plot::bars(&d.title, &d.values, "", "count"),
                false => plot::frequency_bars(&d.title, &d.values),
            };
            chart_with_numbers(&mut b, &svg, "", "", &d.values);
        }
        b.push_str("</div>");
    }
    b.push_str("<h2>Latest games</h2>");
    b.push_str(&games_table(&p.recent.rows));
    // The rest of their games, a page at a time from where this list stops.
    let q =
        GamesQuery { player: Some(p.player.name.clone()), per_page: Some(p.recent.per_page), ..GamesQuery::default() };
    b.push_str(&pager("/games", &p.recent, p.recent.total.div_ceil(u64::from(p.recent.per_page)).max(1), &q));
    ok(&name, "/players", &b)
}

/// A chart with its numbers beside it, in a table, for readers who prefer numbers (and for
/// screen readers): every value the chart draws, none left out.
fn chart_with_numbers(b: &mut String, svg: &str, label: &str, value: &str, values: &[(String, f64)]) {
    let _ = write!(
        b,
        "<figure class=\"chart\">{svg}<details open><summary>Numbers</summary><table class=\"numbers\"><thead><tr><th>{}</th><th class=\"n\">{}</th></tr></thead><tbody>",
        esc(label),
        esc(value)
    );
    for (l, v) in values {
        let shown = if v.fract() == 0.0 { format!("{v:.0}") } else { format!("{v:.2}") };
        let _ = write!(b, "<tr><td>{}</td><td class=\"n\">{shown}</td></tr>", esc(l));
    }
    b.push_str("</tbody></table></details></figure>");
}

async fn tournaments(state: web::Data<State>) -> Page {
    let rows = data::tournaments(&state).await?;
    let mut b = String::from("<h1>Tournaments</h1>");
    if rows.is_empty() {
        b.push_str("<p class=\"note\">No tournaments yet: ingest logs with <code>paifu ingest --tournament NAME</code> or name one when uploading.</p>");
    } else {
        b.push_str("<div class=\"scroll\"><table><thead><tr><th>Tournament</th><th class=\"n\">Games</th><th class=\"n\">Valid</th></tr></thead><tbody>");
        for t in &rows {
            let _ = write!(
                b,
                "<tr><td><a href=\"/tournaments/{}\">{}</a></td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                url(&t.name),
                esc(&t.name),
                t.games,
                t.valid
            );
        }
        b.push_str("</tbody></table></div>");
    }
    ok("Tournaments", "/tournaments", &b)
}

fn recent(g: &GamePage) -> String {
    games_table(&g.rows)
}

async fn tournament(state: web::Data<State>, name: web::Path<String>) -> Page {
    let t = data::tournament(&state, name.into_inner()).await?;
    let mut b = format!(
        "<h1>{}</h1><p>{} games · <a href=\"/games?tournament={}\">all games</a> · <a href=\"/api/tournaments/{}\">JSON</a></p><h2>Standings</h2>",
        esc(&t.name),
        t.games.total,
        url(&t.name),
        url(&t.name)
    );
    let _ = write!(
        b,
        "<p id=\"trust\">The standings count the valid games that a key this tournament trusts certified valid: {} of \
         {} games. Owner: {}. Trusted keys: {}.</p>",
        t.counted,
        t.games.total,
        t.info.owner.as_deref().map(esc).unwrap_or_else(|| "none (admins only)".into()),
        if t.info.trusted_keys.is_empty() {
            "none".into()
        } else {
            t.info.trusted_keys.iter().map(|k| format!("<code>{}</code>", esc(k))).collect::<Vec<_>>().join(", ")
        }
    );
    let _ = write!(
        b,
        "<p>Merkle root of its games and their certificates by trusted keys: <code id=\"root\">{}</code>. \
         <code>paifu report --tournament</code> signs this root in the tournament's manifest, and \
         <code>paifu verify tournament</code> checks every game against it.</p>",
        esc(&t.root)
    );
    if t.standings.is_empty() {
        b.push_str("<p class=\"note\">No game counts yet.</p>");
    } else {
        // One table per game and ruleset: points of different games are never added together.
        let mut start = 0;
        while start < t.standings.len() {
            let first = &t.standings[start];
            let end = start
                + t.standings[start..]
                    .iter()
                    .take_while(|s| s.game == first.game && s.ruleset == first.ruleset)
                    .count();
            let riichi = first.points.is_some();
            let terms = t
                .final_points
                .iter()
                .find(|f| f.game == first.game && f.ruleset == first.ruleset)
                .map(|f| format!(" Here: {}.", esc(&f.terms.join("; "))))
                .unwrap_or_default();
            let title =
                paifu_core::GameKind::from_name(&first.game).map_or(first.game.clone(), |k| k.title().to_owned());
            let _ = write!(
                b,
                "<h2>{} ({} rules)</h2><p class=\"note\">{}{terms}</p><div class=\"scroll\"><table class=\"standings\"><thead><tr><th class=\"n\">Rank</th><th>Player</th><th class=\"n\">Games</th>{}<th class=\"n\">Average place</th><th class=\"n\">Firsts</th><th class=\"n\">Total score</th></tr></thead><tbody>",
                esc(&title),
                esc(&first.ruleset),
                if riichi {
                    "Ranked by points: each game's final score less the return points, plus uma and oka as the \
                     game's ruleset sets them, in thousands; then average place, then firsts."
                } else {
                    "Ranked by average place (exact, not rounded), then firsts, then total score."
                },
                if riichi { "<th class=\"n\">Points</th>" } else { "" }
            );
            for s in &t.standings[start..end] {
                let points =
                    s.points.map(|p| format!("<td class=\"n\">{:+.1}</td>", p as f64 / 1000.0)).unwrap_or_default();
                let _ = write!(
                    b,
                    "<tr><td class=\"n\">{}</td><td><a href=\"/players/{}\">{}</a></td><td class=\"n\">{}</td>{points}<td class=\"n\">{:.3}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                    s.rank,
                    url(&s.player),
                    esc(&s.player),
                    s.games,
                    s.average_placement,
                    s.firsts,
                    s.total_score
                );
            }
            b.push_str("</tbody></table></div>");
            start = end;
        }
    }
    b.push_str("<h2>Games</h2>");
    b.push_str(&recent(&t.games));
    ok(&t.name, "/tournaments", &b)
}

fn upload_form_html(max: usize, caller: Option<&Caller>) -> String {
    let Some(c) = caller else {
        return "<h1>Upload a log</h1><p>Uploading needs a token: <a class=\"button\" href=\"/login?next=/upload\">\
                Log in</a> (or send the log to <code>POST /api/upload</code> with \
                <code>Authorization: Bearer TOKEN</code>).</p>"
            .into();
    };
    let tournament = if c.token.may(Role::Organiser) {
        "<p><label>Tournament (optional: one of yours, or a new one)<input name=\"tournament\" id=\"tournament\"></label></p>"
    } else {
        ""
    };
    format!(
        "<h1>Upload a log</h1>{}<p>Choose a Paifu log (<code>.paifu</code> or <code>.paifu.jsonl</code>, at most {} KiB), \
         or a riichi game record as Tenhou or a bot wrote it: tenhou.net/6 JSON, Tenhou's mjlog XML or mjai JSON Lines \
         (at most 512 KiB; recognised by its content, whatever the file's name, and imported as <code>paifu \
         import</code> does, the record kept inside the log). It is validated, stored in the archive whatever the \
         verdict, and certified with this server's key. A file that is not a readable log or record is refused and \
         not stored, with the format tried and the place at fault.</p>\
         <form method=\"post\" action=\"/upload\" enctype=\"multipart/form-data\">{}\
         <p><label>Log file<input type=\"file\" name=\"log\" id=\"log\" required></label></p>{tournament}\
         <p><button type=\"submit\" id=\"send\">Validate and store</button></p></form>",
        logged_in(c),
        max / 1024,
        csrf_field(c)
    )
}

async fn upload_form(req: HttpRequest, state: web::Data<State>) -> Page {
    let caller = session_caller(&req, &state).await?;
    ok("Upload", "/upload", &upload_form_html(state.max_upload, caller.as_ref()))
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
    let mut b = String::from("<h1>Upload result</h1>");
    let _ = write!(
        b,
        "<p id=\"verdict\" role=\"status\">{}</p>",
        html::verdict(u.stored.valid, u.stored.fault.as_ref().map(|f| f.code.as_str()))
    );
    if let Some(f) = &u.fault_text {
        let _ = write!(b, "<div class=\"fault\">{}</div>", esc(f));
    }
    let _ = write!(
        b,
        "<p id=\"stored\">{} · {} records · players: {}</p><p><a class=\"button\" href=\"/games/{id}\">Open game #{id}</a>",
        esc(&upper_first(&u.message)),
        u.records,
        player_links(&u.players)
    );
    if u.certificate.is_some() {
        let _ = write!(b, " <a class=\"button\" href=\"/games/{id}/certificate\" download>Certificate</a>");
    }
    b.push_str("</p>");
    if u.stored.others > 0 {
        let _ = write!(
            b,
            "<p class=\"note\">The archive holds {} other {} of this game: <a href=\"/games/{id}#entries\">see them side by side</a>.</p>",
            u.stored.others,
            if u.stored.others == 1 { "entry" } else { "entries" }
        );
    }
    b.push_str(&upload_form_html(state.max_upload, Some(&caller)).replacen(
        "<h1>Upload a log</h1>",
        "<h2>Upload another</h2>",
        1,
    ));
    ok("Upload result", "/upload", &b)
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

fn verify_form_html() -> String {
    "<h1>Verify a certificate</h1><p>Give a certificate (<code>.cert.json</code>) and, optionally, the log it is about. \
     Without a log, the archived log with the certified digest is used if the archive holds it. \
     Without a public key, this server's key is assumed.</p>\
     <form method=\"post\" action=\"/verify\" enctype=\"multipart/form-data\">\
     <p><label>Certificate file<input type=\"file\" name=\"certificate_file\"></label></p>\
     <p><label>…or paste it<textarea name=\"certificate\" rows=\"6\" cols=\"60\"></textarea></label></p>\
     <p><label>Log file (optional)<input type=\"file\" name=\"log\"></label></p>\
     <p><label>Signer's public key, PEM or hex (optional)<textarea name=\"key\" rows=\"3\" cols=\"60\"></textarea></label></p>\
     <p><button type=\"submit\">Verify</button></p></form>"
        .into()
}

async fn verify_form() -> Page {
    ok("Verify", "/verify", &verify_form_html())
}

async fn verify(state: web::Data<State>, mp: Multipart) -> Page {
    let mut form = data::read_form(mp, state.max_upload).await?;
    let cert = match form.remove("certificate_file").filter(|(_, b)| !b.is_empty()) {
        Some((_, b)) => b,
        None => form.remove("certificate").map(|(_, b)| b).unwrap_or_default(),
    };
    let log = form.remove("log").map(|(_, b)| b).filter(|b| !b.is_empty());
    let key = text_field(&form, "key");
    let v = data::verify(&state, cert, log, key).await?;
    let mut b = String::from("<h1>Certificate check</h1>");
    let _ = write!(
        b,
        "<p id=\"result\" role=\"status\" class=\"{}\">{}</p><p>{}</p>",
        if v.ok { "ok" } else { "bad" },
        if v.ok { "✔ The certificate verifies." } else { "✘ The certificate does not verify." },
        esc(&v.message)
    );
    if let Some(c) = &v.certificate {
        let _ = write!(
            b,
            "<dl class=\"kv\"><dt>Game</dt><dd>{}</dd><dt>Seats</dt><dd>{}</dd><dt>Log digest</dt><dd><code>{}</code></dd><dt>Verdict</dt><dd>{}</dd><dt>Signed</dt><dd>{}</dd></dl>",
            esc(&c.game),
            esc(&c.seats.join(", ")),
            esc(&c.log_digest.to_hex()),
            esc(&c.verdict),
            esc(&c.issued_at)
        );
    }
    if let Some(id) = v.game_id {
        let _ = write!(b, "<p>The archive holds this log: {}.</p>", game_link(id));
    }
    b.push_str(&verify_form_html().replacen("<h1>Verify a certificate</h1>", "<h2>Verify another</h2>", 1));
    let status = if v.ok { actix_web::http::StatusCode::OK } else { actix_web::http::StatusCode::UNPROCESSABLE_ENTITY };
    Ok(HttpResponse::build(status).content_type("text/html; charset=utf-8").body(page("Verify", "/verify", &b, None)))
}
