//! Tables where people play beside bots (issue 27, docs/play.md): the API that opens them and
//! the seats people sit down at.
//!
//! - `POST /api/tables` (an organiser's token): opens a table; answers each person's join link,
//!   shown this once (`/play/TOKEN`; the archive keeps only its hash).
//! - `GET /api/tables/{id}`: the table, its seats and finished games; once it is over, every
//!   party's contribution and the seeds, so that anyone can recompute them.
//! - `POST /api/tables/{id}/seats/{seat}/join` (the organiser): a new join link for a person's
//!   seat, every earlier one revoked; `DELETE` the same: revoked, none new.
//! - `GET /api/play/{token}`: what the seat sees now (its view, as the arena sends a bot, its
//!   legal actions, its clock); `POST /api/play/{token}` with `{"action": ...}`: a decision,
//!   checked by the host as it checks a bot's (200 taken, 409 not now or not legal);
//!   `POST /api/play/{token}/seed` with `{"commitment": HEX}`, then `{"contribution": HEX}`:
//!   the seat's share of the seed; `GET /api/play/{token}/events`: the same as server-sent
//!   events, one at each change, with the page's drawing of it.
//! - `GET /play/{token}`: the seat's page (`play_page.rs`).
//!
//! The join token is the seat's credential: an unknown or revoked one answers 404, as does a
//! table this server does not host. No page that carries it in its address sends a `Referer`.
//!
//! Several servers on one archive (docs/deploy.md, "Several servers"): a table is hosted by the
//! server that opened it (its host runs there, its journal is in that server's folder), which
//! the archive records as its public URL (`--public-url`). A seat's request (`/play/TOKEN`,
//! `/api/play/TOKEN...`) that reaches another server is answered with a redirect there (307:
//! the method and body are kept), the path and query unchanged.

use crate::auth::{api_caller, Caller};
use crate::play_page;
use crate::{brief, with_db, with_writer, ApiError, State, WebError};
use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use paifu_core::cert::{self, Certificate, CertificateBody, SecretKey};
use paifu_core::fair::Contribution;
use paifu_core::Digest;
use paifu_recorder::archive::Role;
use paifu_recorder::arena::person::{now_ms, Desk, SeatNow};
use paifu_recorder::arena::sandbox::Sandbox;
use paifu_recorder::arena::tables::{SeedStep, TableError, TableRequest, TableRun, Tables, TablesConfig};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// How the server hosts tables: set by `paifu serve`.
#[derive(Clone, Debug, Default)]
pub struct TablesSetup {
    /// Where the tables' folders go; default: beside the archive, `DB-tables/`.
    pub root: Option<PathBuf>,
    /// The bots people may seat at a table: name -> command (`paifu serve --bot NAME=CMD`).
    pub bots: BTreeMap<String, String>,
    /// The sandbox the bots run in; `None` with `sandboxed` false runs them unsandboxed.
    pub sandbox: Option<Sandbox>,
    /// Each record handed to the system without waiting for the disk (tests).
    pub no_sync: bool,
}

impl TablesSetup {
    /// The folder of the tables of the archive at `db` when none is set: `DB-tables`; for a
    /// PostgreSQL URL, `paifu-tables-DBNAME` in the current folder (never a folder named after
    /// the URL, which may hold a password).
    pub fn default_root(db: &Path) -> PathBuf {
        if let Some(url) = db.to_str().filter(|u| paifu_recorder::archive::is_postgres_url(u)) {
            let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
            let path = after_scheme.split('?').next().unwrap_or("");
            let name: String = path
                .split_once('/')
                .map_or("", |(_, name)| name)
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                .collect();
            return PathBuf::from(format!("paifu-tables-{}", if name.is_empty() { "paifu" } else { &name }));
        }
        let mut name = db.file_name().map(|n| n.to_os_string()).unwrap_or_else(|| "paifu.db".into());
        name.push("-tables");
        db.with_file_name(name)
    }
}

/// Starts hosting the archive's tables (those of this server not over are taken up again);
/// `host`: this server's public URL, when several share the archive.
pub(crate) fn start(
    db: &Path,
    setup: TablesSetup,
    key: &SecretKey,
    host: Option<String>,
) -> Result<Arc<Tables>, String> {
    let key = key.clone();
    let certify = move |report: &paifu_core::replay::Report| -> Option<Certificate> {
        let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        let body = CertificateBody::from_report(report, now, &key.verifying_key())?;
        Some(cert::sign(body, &key))
    };
    let config = TablesConfig {
        db: db.to_owned(),
        root: setup.root.clone().unwrap_or_else(|| TablesSetup::default_root(db)),
        bots: setup.bots,
        sandbox: setup.sandbox,
        certify: Arc::new(certify),
        sync: !setup.no_sync,
        host,
    };
    Tables::start(config).map_err(|e| e.to_string())
}

pub(crate) fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/tables", web::post().to(open))
        .route("/api/tables/{id}", web::get().to(table))
        .route("/api/tables/{id}/seats/{seat}/join", web::post().to(reissue))
        .route("/api/tables/{id}/seats/{seat}/join", web::delete().to(revoke))
        .route("/api/play/{token}", web::get().to(seat))
        .route("/api/play/{token}", web::post().to(act))
        .route("/api/play/{token}/seed", web::post().to(seed))
        .route("/api/play/{token}/events", web::get().to(events))
        .route("/play/{token}", web::get().to(page))
        .route("/static/play.js", web::get().to(crate::play_page::play_js));
}

type Api = Result<HttpResponse, ApiError>;

impl From<TableError> for WebError {
    fn from(e: TableError) -> WebError {
        match e {
            TableError::Field { .. } => WebError::Unprocessable(brief(&e.to_string())),
            TableError::NotNow(m) => WebError::Conflict(brief(&m)),
            TableError::NotFound(m) => WebError::NotFound(m),
            TableError::Archive(a) => a.into(),
            e => WebError::Internal(e.to_string()),
        }
    }
}

/// A table error as the API answers it: a bad field is named (`"field": "seats[3].bot"`).
fn table_error(e: TableError) -> HttpResponse {
    if let TableError::Field { field, message } = &e {
        return HttpResponse::UnprocessableEntity().json(serde_json::json!({
            "error": brief(&format!("{field}: {message}")),
            "field": field,
            "status": 422,
        }));
    }
    actix_web::ResponseError::error_response(&ApiError(e.into()))
}

/// Runs blocking table work (the archive, the files) on the blocking pool.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, TableError> + Send + 'static,
) -> Result<T, TableError> {
    web::block(f).await.map_err(|_| TableError::NotNow("the request's worker stopped unexpectedly".into()))?
}

/// A JSON body of at most `max` bytes.
async fn json_body<T: serde::de::DeserializeOwned>(body: web::Payload, max: usize) -> Result<T, WebError> {
    let bytes = crate::data::read_body(body, max).await?;
    serde_json::from_slice(&bytes)
        .map_err(|e| WebError::Unprocessable(format!("the body is not the JSON expected: {}", brief(&e.to_string()))))
}

/// One seat of a table just opened, as the answer shows it.
#[derive(Serialize)]
pub(crate) struct OpenedSeat {
    pub(crate) name: String,
    /// A person's join link, shown this once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) join: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) bot: Option<String>,
}

/// A table just opened, as the API and the form answer it.
pub(crate) struct OpenedTable {
    pub(crate) id: i64,
    pub(crate) seats: Vec<OpenedSeat>,
    pub(crate) host_commitment: String,
}

/// Opens a table as `request` asks, for `caller` (an organiser): the one path of `POST
/// /api/tables` and of the dashboard's form, every field checked (`Tables::plan_of`), the
/// tournament open to the caller. `Ok(Err(..))`: a field is wrong (the answer names it).
pub(crate) async fn open_for(
    state: &web::Data<State>,
    caller: &Caller,
    request: &TableRequest,
) -> Result<Result<OpenedTable, TableError>, WebError> {
    caller.require(Role::Organiser, "opening a table")?;
    let tables = state.tables.clone();
    // On the blocking pool: checking the names opens the archive, which on PostgreSQL blocks on
    // the client's own runtime (it cannot start on a thread that drives the server's).
    let (checker, req) = (tables.clone(), request.clone());
    let plan = match blocking(move || checker.plan_of(&req)).await {
        Ok(p) => p,
        Err(e) => return Ok(Err(e)),
    };
    if let Some(t) = plan.tournament.clone() {
        tournament_open_to(state, caller, t).await?;
    }
    let bots: Vec<Option<String>> = plan.seats.iter().map(|s| s.bot.clone()).collect();
    let token = caller.token.id;
    let opened = match blocking(move || tables.open_table(plan, Some(token))).await {
        Ok(o) => o,
        Err(e) => return Ok(Err(e)),
    };
    let seats = opened
        .seats
        .into_iter()
        .zip(bots)
        .map(|((name, secret), bot)| OpenedSeat { name, join: secret.map(|s| format!("/play/{s}")), bot })
        .collect();
    Ok(Ok(OpenedTable { id: opened.id, seats, host_commitment: opened.host_commitment.to_hex() }))
}

/// `POST /api/tables`: 201 with the table's number and each person's join link.
async fn open(state: web::Data<State>, req: HttpRequest, body: web::Payload) -> Api {
    let caller = api_caller(&req, &state).await?;
    caller.require(Role::Organiser, "opening a table")?;
    let request: TableRequest = json_body(body, state.max_form).await?;
    let opened = match open_for(&state, &caller, &request).await? {
        Ok(o) => o,
        Err(e) => return Ok(table_error(e)),
    };
    Ok(HttpResponse::Created().insert_header((header::CACHE_CONTROL, "no-store")).json(serde_json::json!({
        "id": opened.id,
        "seats": opened.seats,
        "host_commitment": opened.host_commitment,
    })))
}

/// The tournament a table's games go into: made if missing (owned by the caller, trusting this
/// server's key), refused when it is someone else's.
async fn tournament_open_to(state: &web::Data<State>, caller: &Caller, name: String) -> Result<(), WebError> {
    let token = caller.token.clone();
    let key = state.key.verifying_key();
    with_writer(state, move |a| {
        let (info, _) = a.ensure_tournament(&name, Some(&token.name), &[key])?;
        if !info.accepts_games_from(&token) {
            return Err(WebError::Forbidden(format!(
                "the tournament {:?} is not {:?}'s: its games come from its owner or an admin",
                info.name, token.name
            )));
        }
        Ok(())
    })
    .await
}

fn parse_id(s: &str) -> Result<i64, WebError> {
    s.parse::<i64>()
        .ok()
        .filter(|i| *i > 0)
        .ok_or_else(|| WebError::NotFound(format!("{:?} is not a table's number", brief(s))))
}

/// One seat of a table, as `GET /api/tables/{id}` shows it.
#[derive(Serialize)]
struct SeatInfo {
    seat: u8,
    name: String,
    /// `person` or `bot`.
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    bot: Option<String>,
    /// A person's: whether a join link is valid, and the commitment it sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    joinable: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    commitment: Option<String>,
}

/// `GET /api/tables/{id}`.
async fn table(state: web::Data<State>, id: web::Path<String>) -> Api {
    let id = parse_id(&id)?;
    let row = with_db(&state, move |a| Ok(a.table(id)?)).await?;
    let row = row.ok_or_else(|| WebError::NotFound(format!("there is no table {id}")))?;
    let plan = state.tables.get(id).map(|t| t.plan.clone());
    let seats: Vec<SeatInfo> = row
        .seats
        .iter()
        .map(|s| SeatInfo {
            seat: s.seat,
            name: s.name.clone(),
            kind: if s.bot.is_some() { "bot" } else { "person" },
            bot: s.bot.clone(),
            joinable: s.bot.is_none().then_some(s.joinable),
            commitment: s.commitment.clone(),
        })
        .collect();
    let reveal: Option<serde_json::Value> = row.reveal.as_deref().and_then(|r| serde_json::from_str(r).ok());
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "id": row.id,
        "game": row.game,
        "ruleset": row.ruleset,
        "state": row.stage,
        "games_planned": plan.as_ref().map(|p| p.total_games()),
        "duplicate": plan.as_ref().is_some_and(|p| p.duplicate),
        "tournament": plan.as_ref().and_then(|p| p.tournament.clone()),
        "seats": seats,
        "games": row.games.iter().map(|(_, id)| id).collect::<Vec<_>>(),
        "host_commitment": row.host_commitment,
        "commitments_digest": row.commitments_digest,
        "reveal": reveal,
        "created_at": row.created_at,
        "ended_at": row.ended_at,
        "host": row.host,
    })))
}

/// Whether the caller may change table `id`: the organiser who opened it, or an admin.
async fn may_change(state: &web::Data<State>, caller: &Caller, id: i64) -> Result<(), WebError> {
    caller.require(Role::Organiser, "changing a table's join links")?;
    let row = with_db(state, move |a| Ok(a.table(id)?)).await?;
    let row = row.ok_or_else(|| WebError::NotFound(format!("there is no table {id}")))?;
    if caller.token.may(Role::Admin) || row.opened_by == Some(caller.token.id) {
        return Ok(());
    }
    let opener = match row.opened_by {
        Some(t) => with_db(state, move |a| Ok(a.token(t)?)).await?.map(|t| t.name),
        None => None,
    };
    if opener.as_deref() == Some(caller.token.name.as_str()) {
        return Ok(());
    }
    Err(WebError::Forbidden(format!("table {id} was opened by another organiser: only they or an admin may change it")))
}

fn seat_index(s: &str) -> Result<usize, WebError> {
    s.parse::<usize>().map_err(|_| WebError::NotFound(format!("{:?} is not a seat's number", brief(s))))
}

/// `POST /api/tables/{id}/seats/{seat}/join`: a new join link, the earlier ones revoked.
async fn reissue(state: web::Data<State>, req: HttpRequest, path: web::Path<(String, String)>) -> Api {
    let caller = api_caller(&req, &state).await?;
    let (id, seat) = (parse_id(&path.0)?, seat_index(&path.1)?);
    may_change(&state, &caller, id).await?;
    let tables = state.tables.clone();
    let secret = blocking(move || tables.revoke(id, seat, true)).await?;
    Ok(HttpResponse::Created()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(serde_json::json!({ "join": secret.map(|s| format!("/play/{s}")) })))
}

/// `DELETE /api/tables/{id}/seats/{seat}/join`: every join link of the seat revoked.
async fn revoke(state: web::Data<State>, req: HttpRequest, path: web::Path<(String, String)>) -> Api {
    let caller = api_caller(&req, &state).await?;
    let (id, seat) = (parse_id(&path.0)?, seat_index(&path.1)?);
    may_change(&state, &caller, id).await?;
    let tables = state.tables.clone();
    blocking(move || tables.revoke(id, seat, false)).await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({ "revoked": true })))
}

/// Where a join token's seat is played.
pub(crate) enum Seat<T> {
    /// On this server.
    Here(T),
    /// On another server of the archive: the answer redirects there.
    Elsewhere(HttpResponse),
}

/// The table and plan seat of a join token, or the redirect to the server that hosts its table;
/// 404 for a token that opens nothing (unknown, revoked, or its table is hosted by no server
/// that said where it is).
pub(crate) async fn seat_of(
    state: &web::Data<State>,
    req: &HttpRequest,
    token: &str,
) -> Result<Seat<(Arc<TableRun>, usize)>, WebError> {
    let gone = || WebError::NotFound("this join link opens no seat: it is unknown, or it was revoked".into());
    if !token.starts_with(paifu_recorder::archive::JOIN_PREFIX) || token.len() > 100 {
        return Err(gone());
    }
    let tables = state.tables.clone();
    let secret = token.to_owned();
    if let Some(here) = blocking(move || tables.seat_of(&secret)).await? {
        return Ok(Seat::Here(here));
    }
    let secret = token.to_owned();
    let host = with_db(state, move |a| Ok(a.join_host(&secret)?)).await?.and_then(|(_, host)| host);
    match host {
        Some(url) if Some(&url) != state.public_url.as_ref() => Ok(Seat::Elsewhere(redirect_to(&url, req))),
        _ => Err(gone()),
    }
}

/// 307 to the same path and query on the server at `url` (a browser and any HTTP client repeat
/// the method and body there).
fn redirect_to(url: &str, req: &HttpRequest) -> HttpResponse {
    let rest = req.uri().path_and_query().map_or(req.path(), |p| p.as_str());
    private(HttpResponse::TemporaryRedirect()).insert_header((header::LOCATION, format!("{url}{rest}"))).finish()
}

/// The desk of a join token's seat, or the redirect to its host.
async fn desk_of(state: &web::Data<State>, req: &HttpRequest, token: &str) -> Result<Seat<Arc<Desk>>, WebError> {
    match seat_of(state, req, token).await? {
        Seat::Here((run, k)) => Ok(Seat::Here(
            run.desk(k).ok_or_else(|| WebError::NotFound("this join link opens no person's seat".into()))?,
        )),
        Seat::Elsewhere(r) => Ok(Seat::Elsewhere(r)),
    }
}

/// A public URL as `--public-url` takes it: `http://` or `https://`, a host and maybe a port,
/// nothing after (a seat's page asks for `/api/play/...` on its own origin, so the URL must be
/// the server's origin, not a path under another's); answered without a final `/`.
pub fn check_public_url(text: &str) -> Result<String, String> {
    let url = text.trim().trim_end_matches('/');
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| format!("{text:?}: a public URL begins with http:// or https://"))?;
    let fine = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
    if rest.is_empty() || !rest.chars().all(fine) {
        return Err(format!(
            "{text:?}: a public URL is the server's origin only, scheme://host[:port] (no user, path, query or fragment)"
        ));
    }
    Ok(url.to_owned())
}

/// A seat as `GET /api/play/{token}` answers it.
#[derive(Serialize)]
pub(crate) struct SeatAnswer<'a> {
    table: i64,
    game: &'a str,
    seat: u8,
    state: &'static str,
    view: &'a Option<paifu_core::games::View>,
    legal: &'a [String],
    to_act: bool,
    /// Milliseconds left for the decision asked for, while one is.
    deadline_ms: Option<i64>,
    /// The archive's numbers of the table's finished games.
    games: &'a [i64],
    number: u32,
    games_planned: u32,
    names: &'a [String],
    events: &'a [paifu_recorder::arena::person::Event],
    notice: &'a Option<String>,
    budget_ms: u64,
    fair: &'a paifu_recorder::arena::person::FairNow,
    version: u64,
}

pub(crate) fn answer(now: &SeatNow) -> SeatAnswer<'_> {
    SeatAnswer {
        table: now.table,
        game: &now.game,
        seat: now.seat,
        state: now.stage.as_str(),
        view: &now.view,
        legal: &now.legal,
        to_act: now.to_act,
        deadline_ms: now.deadline_at_ms.map(|d| d.saturating_sub(now_ms()).max(0)),
        games: &now.finished,
        number: now.number,
        games_planned: now.games_planned,
        names: &now.names,
        events: &now.events,
        notice: &now.notice,
        budget_ms: now.budget_ms,
        fair: &now.fair,
        version: now.version,
    }
}

/// Headers every answer about a seat carries: never cached, never a referrer.
fn private(mut r: actix_web::HttpResponseBuilder) -> actix_web::HttpResponseBuilder {
    r.insert_header((header::CACHE_CONTROL, "no-store")).insert_header((header::REFERRER_POLICY, "no-referrer"));
    r
}

/// `GET /api/play/{token}`.
async fn seat(state: web::Data<State>, req: HttpRequest, token: web::Path<String>) -> Api {
    let desk = match desk_of(&state, &req, &token).await? {
        Seat::Here(d) => d,
        Seat::Elsewhere(r) => return Ok(r),
    };
    let now = desk.now();
    Ok(private(HttpResponse::Ok()).json(answer(&now)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionBody {
    action: String,
}

/// `POST /api/play/{token}` with `{"action": ...}`: 200 once the host took it; 409 when it is
/// not the seat's turn or the action is not legal now (the host says why).
async fn act(state: web::Data<State>, req: HttpRequest, token: web::Path<String>, body: web::Payload) -> Api {
    let desk = match desk_of(&state, &req, &token).await? {
        Seat::Here(d) => d,
        Seat::Elsewhere(r) => return Ok(r),
    };
    let b: ActionBody = json_body(body, state.max_form).await?;
    if b.action.len() > 200 {
        return Err(WebError::Unprocessable("an action is at most 200 bytes".into()).into());
    }
    let verdict = match desk.offer(b.action.clone()) {
        Err(why) => return Err(WebError::Conflict(why).into()),
        Ok(rx) => rx.await.unwrap_or_else(|_| Err("the table stopped before it could take the action".into())),
    };
    match verdict {
        Ok(()) => Ok(private(HttpResponse::Ok()).json(serde_json::json!({ "taken": b.action.trim() }))),
        Err(why) => Err(WebError::Conflict(brief(&why)).into()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedBody {
    commitment: Option<String>,
    contribution: Option<String>,
}

/// `POST /api/play/{token}/seed`: the seat's commitment, then (once every commitment is in)
/// its contribution.
async fn seed(state: web::Data<State>, req: HttpRequest, token: web::Path<String>, body: web::Payload) -> Api {
    let (run, k) = match seat_of(&state, &req, &token).await? {
        Seat::Here(s) => s,
        Seat::Elsewhere(r) => return Ok(r),
    };
    let b: SeedBody = json_body(body, state.max_form).await?;
    let read = |name: &str, hex: &str| -> Result<Digest, WebError> {
        hex.parse::<Digest>().map_err(|e| WebError::Unprocessable(format!("{name}: {e} (64 hex digits)")))
    };
    let step = match (&b.commitment, &b.contribution) {
        (Some(c), None) => SeedStep::Commit(read("commitment", c)?),
        (None, Some(v)) => SeedStep::Reveal(Contribution::from(read("contribution", v)?.0)),
        _ => {
            return Err(WebError::Unprocessable(
                "send {\"commitment\": HEX} first, then {\"contribution\": HEX}, one at a time".into(),
            )
            .into())
        }
    };
    let tables = state.tables.clone();
    match blocking(move || tables.seed_step(&run, k, step)).await {
        Ok(()) => Ok(private(HttpResponse::Ok()).json(serde_json::json!({ "ok": true }))),
        Err(e) => Ok(table_error(e)),
    }
}

/// How often an idle event stream says it is alive.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// One server-sent event: the seat as `GET /api/play/{token}` answers it, and the page's
/// drawing of it (`html`).
fn event(now: &SeatNow) -> web::Bytes {
    let mut v = serde_json::to_value(answer(now)).unwrap_or_default();
    let (table, actions) = play_page::drawing(now);
    v["html"] = table.into();
    v["actions_html"] = actions.into();
    web::Bytes::from(format!("event: seat\ndata: {v}\n\n"))
}

/// `GET /api/play/{token}/events`: the seat now, then again at every change.
async fn events(state: web::Data<State>, req: HttpRequest, token: web::Path<String>) -> Api {
    let desk = match desk_of(&state, &req, &token).await? {
        Seat::Here(d) => d,
        Seat::Elsewhere(r) => return Ok(r),
    };
    let rx = desk.watch();
    let stream = futures_util::stream::unfold((rx, true), |(mut rx, first)| async move {
        if !first {
            match actix_web::rt::time::timeout(KEEP_ALIVE, rx.changed()).await {
                Ok(Ok(())) => {}
                // The table is gone: the stream ends (the page reconnects).
                Ok(Err(_)) => return None,
                Err(_) => {
                    return Some((Ok::<_, actix_web::Error>(web::Bytes::from_static(b": alive\n\n")), (rx, false)))
                }
            }
        }
        let now = rx.borrow_and_update().clone();
        Some((Ok(event(&now)), (rx, false)))
    });
    Ok(private(HttpResponse::Ok())
        .insert_header((header::CONTENT_TYPE, "text/event-stream"))
        // Sent as written: a compressed stream would wait for more before it flushes.
        .insert_header((header::CONTENT_ENCODING, "identity"))
        .streaming(stream))
}

/// `GET /play/{token}`: the seat's page.
async fn page(
    state: web::Data<State>,
    req: HttpRequest,
    token: web::Path<String>,
) -> Result<HttpResponse, crate::PageError> {
    match desk_of(&state, &req, &token).await? {
        Seat::Here(desk) => Ok(play_page::page(&desk.now())),
        Seat::Elsewhere(r) => Ok(r),
    }
}

#[cfg(test)]
mod tests {
    use super::check_public_url;

    #[test]
    fn a_public_url_is_an_origin() {
        assert_eq!(check_public_url("http://a.example:8080/").unwrap(), "http://a.example:8080");
        assert_eq!(check_public_url("https://paifu-2.league.example").unwrap(), "https://paifu-2.league.example");
        assert_eq!(check_public_url("http://[::1]:9000").unwrap(), "http://[::1]:9000");
        for bad in
            ["a.example", "ftp://a.example", "http://", "http://a.example/s1", "http://u:p@a.example", "http://a?x=1"]
        {
            assert!(check_public_url(bad).is_err(), "{bad}");
        }
    }
}
