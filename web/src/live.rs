//! Games in progress (issue 17): `/live` lists them, `/live/{id}` shows one so far in the
//! move-by-move viewer (its latest position, refreshed as moves come in), and `/api/live`,
//! `/api/live/{id}` give the same as JSON.
//!
//! With a delay (`paifu serve --live-delay SECS`, 300 by default), every page and answer shows
//! only the records played at least that long ago and says how many are held back. The seed never
//! reaches a page or an answer: the archive keeps it out of the header it gives, and only the
//! replay that rebuilds positions on the server reads it. Until a game is stored, its moves and
//! counts leave out what nobody at the table sees (a pass on a claim, an incident that tells a
//! seat was asked: `Archive::live_log`), so that a bot in the game learns nothing from them;
//! moves are numbered among those shown.

use crate::html::page_with_scripts;
use crate::viewer::Step;
use crate::viewer_page::{parse_step, steps_body};
use crate::{with_db, ApiError, PageError, State, WebError};
use actix_web::{web, HttpResponse};
use maud::{html, Markup, PreEscaped};
use paifu_core::{GameKind, Seat};
use paifu_recorder::archive::LiveGame;
use serde::{Deserialize, Serialize};

pub(crate) fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/live", web::get().to(list_page))
        .route("/live/{id}", web::get().to(game_page))
        .route("/api/live", web::get().to(list_api))
        .route("/api/live/{id}", web::get().to(game_api))
        .route("/static/live.js", web::get().to(live_js));
}

/// The live pages' script (web/src/live.js): what it follows is in the page (`#live-follow`).
const LIVE_JS: &str = include_str!("live.js");

async fn live_js() -> HttpResponse {
    crate::pages::script(LIVE_JS)
}

/// How often a page showing the latest position asks whether there is a new move, and how often
/// it reloads without script.
const POLL_MS: u32 = 3000;
const REFRESH_SECS: u32 = 10;

/// Milliseconds since the Unix epoch.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The cut-off for a delay of `delay_secs`: records played after it are held back (none with
/// no delay).
fn cut_off(delay_secs: u64, now: i64) -> Option<i64> {
    (delay_secs > 0).then(|| now.saturating_sub(i64::try_from(delay_secs.saturating_mul(1000)).unwrap_or(i64::MAX)))
}

/// How long ago `then` was, in words: `12 s ago`, `3 min ago`, `2 h ago`.
fn ago(then_ms: i64, now_ms: i64) -> String {
    let s = now_ms.saturating_sub(then_ms).max(0) / 1000;
    match s {
        0..=119 => format!("{s} s ago"),
        120..=7199 => format!("{} min ago", s / 60),
        _ => format!("{} h ago", s / 3600),
    }
}

fn parse_live_id(s: &str) -> Result<i64, WebError> {
    s.parse::<i64>().ok().filter(|i| *i > 0).ok_or_else(|| {
        WebError::NotFound(format!("{:?} is not the number of a game in progress (1, 2, 3, ...)", crate::brief(s)))
    })
}

fn gone(id: i64) -> WebError {
    WebError::NotFound(format!(
        "there is no game in progress #{id}: it has ended (a finished game is in the games list once stored) or never began"
    ))
}

/// The live list as the page and the API give it.
#[derive(Serialize)]
struct LiveList {
    /// The delay in seconds: records played less long ago are held back.
    delay_secs: u64,
    /// When this list was made, ms since the Unix epoch.
    now_ms: i64,
    games: Vec<LiveGame>,
}

async fn live_list(state: &web::Data<State>) -> Result<LiveList, WebError> {
    let (delay_secs, now) = (state.live_delay_secs, now_ms());
    let games = with_db(state, move |a| Ok(a.live_games(cut_off(delay_secs, now))?)).await?;
    Ok(LiveList { delay_secs, now_ms: now, games })
}

/// One record of the log so far.
#[derive(Serialize)]
struct Move {
    seq: u32,
    seat: u8,
    player: String,
    action: String,
}

/// A game in progress as its page and the API give it.
#[derive(Serialize)]
struct LiveView {
    delay_secs: u64,
    now_ms: i64,
    game: LiveGame,
    /// The records so far after the `after` asked for (all without one).
    moves: Vec<Move>,
    /// The position asked for (the latest without a step), rebuilt by the engine; `null` when it
    /// cannot be (`note` says why).
    position: Option<Step>,
    note: Option<String>,
}

#[derive(Deserialize)]
struct LiveQuery {
    step: Option<String>,
    seat: Option<String>,
    after: Option<String>,
}

impl LiveQuery {
    fn seat(&self) -> Result<Option<Seat>, WebError> {
        match self.seat.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => t
                .parse()
                .map(Some)
                .map_err(|_| WebError::BadRequest(format!("seat must be a seat number, not {:?}", crate::brief(t)))),
        }
    }

    fn after(&self) -> Result<usize, WebError> {
        match self.after.as_deref().map(str::trim) {
            None | Some("") => Ok(0),
            Some(t) => t.parse().map_err(|_| {
                WebError::BadRequest(format!(
                    "after must be a number of records already seen, not {:?}",
                    crate::brief(t)
                ))
            }),
        }
    }
}

/// Reads game `id` so far and rebuilds the position after `want` records (the latest without
/// one).
async fn live_view(
    state: &web::Data<State>,
    id: i64,
    want: Option<usize>,
    own: Option<Seat>,
    after: usize,
) -> Result<LiveView, WebError> {
    let (delay_secs, now) = (state.live_delay_secs, now_ms());
    let upto = cut_off(delay_secs, now);
    let (game, public, text) = with_db(state, move |a| {
        let game = a.live_game(id, upto)?.ok_or_else(|| gone(id))?;
        let (public, _) = a.live_log(id, upto)?.ok_or_else(|| gone(id))?;
        let (text, _) = a.live_replay_log(id, upto)?.ok_or_else(|| gone(id))?;
        Ok((game, public, text))
    })
    .await?;
    let want = Some(want.unwrap_or(usize::MAX));
    let seats = game.seats.clone();
    let (position, moves) = web::block(move || {
        let moves = moves_of(&public, &seats, after);
        (crate::viewer::live_step(text.as_bytes(), want, own), moves)
    })
    .await
    .map_err(|_| WebError::Internal("the replay stopped unexpectedly".into()))?;
    let (position, note) = match position {
        Ok(s) => (Some(s), None),
        Err(f) if f.code == paifu_core::ErrorCode::MissingSeed => (
            None,
            Some(
                "The host gave only the seed's commitment, so positions cannot be rebuilt before the seed is \
                 revealed at the end: the moves so far are listed instead."
                    .to_owned(),
            ),
        ),
        Err(f) => (None, Some(format!("The log so far cannot be replayed: {}", f.describe()))),
    };
    Ok(LiveView { delay_secs, now_ms: now, game, moves, position, note })
}

/// The records of a log's text after the first `after`, for the moves list, numbered by their
/// place in the text (the records shown: a number never tells of a record left out).
fn moves_of(text: &str, seats: &[String], after: usize) -> Vec<Move> {
    #[derive(Deserialize)]
    struct Line {
        seat: u8,
        action: String,
    }
    text.lines()
        .skip(1)
        .enumerate()
        .skip(after)
        .filter_map(|(i, l)| serde_json::from_str::<Line>(l).ok().map(|l| (i, l)))
        .map(|(i, l)| Move {
            seq: u32::try_from(i).unwrap_or(u32::MAX),
            seat: l.seat,
            player: seats.get(usize::from(l.seat)).cloned().unwrap_or_default(),
            action: l.action,
        })
        .collect()
}

fn kind_title(game: &str) -> &str {
    GameKind::from_name(game).map_or(game, |k| k.title())
}

/// What is held back, in words (nothing with no delay).
fn delay_note(delay_secs: u64, held: u64) -> Markup {
    html! {
        @if delay_secs > 0 {
            p.note #delay {
                "Shown with a delay of " (delay_secs) " s: moves played less than " (delay_secs) " s ago are held back ("
                @match held { 0 => "none now", 1 => "1 move now", n => { (n) " moves now" } }
                ")."
            }
        }
    }
}

/// Reloads the page every [`REFRESH_SECS`] without script.
fn refresh_without_script() -> Markup {
    html! { noscript { meta http-equiv="refresh" content=(REFRESH_SECS); } }
}

async fn list_page(state: web::Data<State>) -> Result<HttpResponse, PageError> {
    let l = live_list(&state).await?;
    let b = html! {
        h1 { "Games in progress" }
        (delay_note(l.delay_secs, l.games.iter().map(|g| g.held_back).sum()))
        @if l.games.is_empty() {
            p.note #none { "No game is in progress. Finished games are in the " a href="/games" { "games list" } " once stored." }
        } @else {
            div.scroll { table #live {
                caption.skip { "Games in progress" }
                thead { tr {
                    th { "Game" } th { "Kind" } th { "Players" } th.n { "Moves" } th { "Last move" } th.wide { "Host's name" }
                } }
                tbody { @for g in &l.games {
                    tr {
                        td { a href={ "/live/" (g.id) } { "#" (g.id) } }
                        td { (kind_title(&g.game)) }
                        td { (g.seats.join(", ")) }
                        td.n { (g.records) @if g.held_back > 0 { " (+" (g.held_back) " held back)" } }
                        td { @if g.records == 0 { "none yet" } @else { (ago(g.updated_ms, l.now_ms)) } }
                        td.wide { code { (g.key) } }
                    }
                } }
            } }
        }
        p.k #live-follow data-every=(REFRESH_SECS * 1000) {
            "This page reloads every " (REFRESH_SECS) " s. The same as JSON: " a href="/api/live" { "/api/live" } "."
        }
        (refresh_without_script())
    };
    Ok(HttpResponse::Ok().content_type("text/html; charset=utf-8").body(page_with_scripts(
        "Games in progress",
        "/live",
        &b.into_string(),
        &["/static/live.js"],
    )))
}

async fn game_page(
    state: web::Data<State>,
    id: web::Path<String>,
    q: web::Query<LiveQuery>,
) -> Result<HttpResponse, PageError> {
    let id = parse_live_id(&id)?;
    let want = parse_step(q.step.as_deref())?;
    let own = q.seat()?;
    let v = live_view(&state, id, want, own, 0).await?;
    let g = &v.game;
    if let Some(seat) = own.filter(|&o| usize::from(o) >= g.seats.len()) {
        return Err(WebError::BadRequest(format!(
            "seat {seat} is not in this game: its seats are 0 to {}",
            g.seats.len().saturating_sub(1)
        ))
        .into());
    }
    let latest = want.is_none();
    let b = html! {
        h1 { a href="/live" { "Live" } ": game #" (id) ", " (kind_title(&g.game)) }
        p #live-status role="status" {
            b { "In progress" } " · " (g.seats.join(", ")) " · " span #moves { (g.records) } " moves so far · "
            @match v.moves.last() {
                Some(m) => { "last move " (ago(g.updated_ms, v.now_ms)) " by " b { (m.player) } ": " code { (m.action) } },
                None => "no move yet",
            }
            " · " a href={ "/api/live/" (id) } { "JSON" }
        }
        (delay_note(v.delay_secs, g.held_back))
        @match &v.position {
            Some(s) => (PreEscaped(steps_body(&format!("/live/{id}"), s, own, &g.seats))),
            None => {
                @if let Some(n) = &v.note { p.note #note { (n) } }
                div.scroll { table #moves-list {
                    thead { tr { th.n { "Record" } th { "Seat" } th { "Action" } } }
                    tbody { @for m in v.moves.iter().rev() {
                        tr { td.n { (m.seq) } td { (m.player) " (" (m.seat) ")" } td { code { (m.action) } } }
                    } }
                } }
            }
        }
        @if latest {
            p.k #live-follow data-game=(id) data-records=(g.records) data-every=(POLL_MS) { "This page shows the latest position and follows the game as it is played (without script, \
                            it reloads every " (REFRESH_SECS) " s)." }
            (refresh_without_script())
        } @else {
            p.k { a href={ "/live/" (id) } { "Follow the game" } " (the latest position, kept up to date)." }
        }
    };
    let scripts: &[&str] = if latest { &["/static/viewer.js", "/static/live.js"] } else { &["/static/viewer.js"] };
    Ok(HttpResponse::Ok().content_type("text/html; charset=utf-8").body(page_with_scripts(
        &format!("Live game #{id}"),
        "/live",
        &b.into_string(),
        scripts,
    )))
}

async fn list_api(state: web::Data<State>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(live_list(&state).await?))
}

async fn game_api(
    state: web::Data<State>,
    id: web::Path<String>,
    q: web::Query<LiveQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_live_id(&id)?;
    let want = parse_step(q.step.as_deref())?;
    let v = live_view(&state, id, want, q.seat()?, q.after()?).await?;
    Ok(HttpResponse::Ok().json(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_cut_offs() {
        assert_eq!(cut_off(0, 10_000), None);
        assert_eq!(cut_off(300, 1_000_000), Some(700_000));
        assert_eq!(cut_off(u64::MAX, 5), Some(5 - i64::MAX), "no overflow");
        assert_eq!(ago(0, 59_999), "59 s ago");
        assert_eq!(ago(0, 180_000), "3 min ago");
        assert_eq!(ago(0, 7_200_000), "2 h ago");
        assert_eq!(ago(10_000, 0), "0 s ago", "a clock behind the move's");
    }

    #[test]
    fn moves_are_read_from_the_records_after_those_seen() {
        let text = "{\"paifu\":1}\n{\"seq\":0,\"seat\":1,\"action\":\"draw\"}\n{\"seq\":1,\"seat\":0,\"action\":\"discard 5b\"}\n";
        let seats = ["Ann".to_owned(), "Bo".to_owned()];
        let all = moves_of(text, &seats, 0);
        assert_eq!(all.iter().map(|m| (m.seq, m.player.as_str())).collect::<Vec<_>>(), [(0, "Bo"), (1, "Ann")]);
        let after = moves_of(text, &seats, 1);
        assert_eq!((after.len(), after[0].action.as_str()), (1, "discard 5b"));
        assert!(moves_of(text, &seats, 5).is_empty());
    }
}
