//! The JSON API under `/api/`: the data behind every page.

use crate::auth::api_caller;
use crate::data::{self, GamesQuery, PlayersQuery};
use crate::viewer_page::{parse_step, StepQuery};
use crate::{brief, ApiError, State, WebError};
use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

type Api = Result<HttpResponse, ApiError>;

fn json<T: serde::Serialize>(v: &T) -> Api {
    Ok(HttpResponse::Ok().json(v))
}

pub(crate) fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/overview", web::get().to(overview))
        .route("/api/key", web::get().to(key))
        .route("/api/key.pem", web::get().to(key_pem))
        .route("/api/games", web::get().to(games))
        .route("/api/games/{id}", web::get().to(game))
        .route("/api/games/{id}/certificate", web::get().to(certificate))
        .route("/api/games/{id}/certificate", web::post().to(sign))
        .route("/api/games/{id}/steps/{step}", web::get().to(step))
        .route("/api/games/{id}/view", web::get().to(step_query))
        .route("/api/players", web::get().to(players))
        .route("/api/players/{name}", web::get().to(player))
        .route("/api/tournaments", web::get().to(tournaments))
        .route("/api/tournaments", web::post().to(create_tournament))
        .route("/api/tournaments/{name}", web::get().to(tournament))
        .route("/api/tournaments/{name}/keys", web::put().to(set_keys))
        .route("/api/upload", web::post().to(upload))
        .route("/api/verify", web::post().to(verify));
}

async fn overview(state: web::Data<State>) -> Api {
    json(&data::overview(&state).await?)
}

async fn key(state: web::Data<State>) -> Api {
    json(&serde_json::json!({ "algorithm": "ed25519", "hex": state.public_hex, "pem": state.public_pem }))
}

async fn key_pem(state: web::Data<State>) -> HttpResponse {
    HttpResponse::Ok().content_type("application/x-pem-file").body(state.public_pem.clone())
}

async fn games(state: web::Data<State>, q: web::Query<GamesQuery>) -> Api {
    json(&data::games(&state, q.into_inner()).await?)
}

async fn game(state: web::Data<State>, id: web::Path<String>) -> Api {
    let id = data::parse_id(&id)?;
    json(&data::game(&state, id).await?)
}

async fn certificate(state: web::Data<State>, id: web::Path<String>) -> Api {
    let id = data::parse_id(&id)?;
    let text = data::certificate(&state, id).await?;
    Ok(HttpResponse::Ok().content_type("application/json").body(text))
}

/// Signs the game with this server's key unless it did already: 201 with the new
/// certificate, or 200 with the one it had.
async fn sign(state: web::Data<State>, req: HttpRequest, id: web::Path<String>) -> Api {
    let caller = api_caller(&req, &state).await?;
    let id = data::parse_id(&id)?;
    let signed = data::sign_stored(&state, &caller, id).await?;
    let status = if signed.new { StatusCode::CREATED } else { StatusCode::OK };
    Ok(HttpResponse::build(status).content_type("application/json").body(signed.json))
}

/// A JSON body of at most `max` bytes.
async fn json_body<T: serde::de::DeserializeOwned>(body: web::Payload, max: usize) -> Result<T, WebError> {
    let bytes = data::read_body(body, max).await?;
    serde_json::from_slice(&bytes)
        .map_err(|e| WebError::Unprocessable(format!("the body is not the JSON expected: {}", brief(&e.to_string()))))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTournament {
    name: String,
    /// Public keys (PEM or hex); this server's key when left out.
    trusted_keys: Option<Vec<String>>,
}

/// `{"name": ..., "trusted_keys": [...]}`: a tournament owned by the caller; 201, or 409 when
/// the name is taken.
async fn create_tournament(state: web::Data<State>, req: HttpRequest, body: web::Payload) -> Api {
    let caller = api_caller(&req, &state).await?;
    let t: NewTournament = json_body(body, state.max_form).await?;
    let info = data::create_tournament(&state, &caller, t.name, t.trusted_keys).await?;
    Ok(HttpResponse::Created().json(info))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TrustedKeys {
    trusted_keys: Vec<String>,
}

/// `{"trusted_keys": [...]}`: replaces the keys the tournament trusts (its owner or an admin).
async fn set_keys(state: web::Data<State>, req: HttpRequest, name: web::Path<String>, body: web::Payload) -> Api {
    let caller = api_caller(&req, &state).await?;
    let k: TrustedKeys = json_body(body, state.max_form).await?;
    json(&data::set_tournament_keys(&state, &caller, name.into_inner(), k.trusted_keys).await?)
}

async fn replay_step(state: &web::Data<State>, id: i64, want: Option<usize>, own: Option<paifu_core::Seat>) -> Api {
    let (bytes, form) = data::log_bytes(state, id).await?;
    if form != paifu_recorder::archive::StoredForm::Binary {
        return Err(WebError::NotFound(format!("game {id} could not be decoded as a log, so it has no steps")).into());
    }
    let s = web::block(move || crate::viewer::step(&bytes, want, own))
        .await
        .map_err(|_| WebError::Internal("the replay stopped unexpectedly".into()))?
        .map_err(|f| WebError::NotFound(format!("game {id} cannot be replayed: {}", f.describe())))?;
    json(&s)
}

async fn step(state: web::Data<State>, path: web::Path<(String, String)>) -> Api {
    let (id, step) = path.into_inner();
    let id = data::parse_id(&id)?;
    replay_step(&state, id, parse_step(Some(&step))?, None).await
}

async fn step_query(state: web::Data<State>, id: web::Path<String>, q: web::Query<StepQuery>) -> Api {
    let id = data::parse_id(&id)?;
    replay_step(&state, id, parse_step(q.step())?, q.seat()?).await
}

async fn players(state: web::Data<State>, q: web::Query<PlayersQuery>) -> Api {
    json(&data::players(&state, q.into_inner()).await?)
}

async fn player(state: web::Data<State>, name: web::Path<String>) -> Api {
    json(&data::player(&state, name.into_inner()).await?)
}

async fn tournaments(state: web::Data<State>) -> Api {
    json(&data::tournaments(&state).await?)
}

async fn tournament(state: web::Data<State>, name: web::Path<String>) -> Api {
    json(&data::tournament(&state, name.into_inner()).await?)
}

#[derive(Deserialize)]
struct UploadQuery {
    tournament: Option<String>,
    name: Option<String>,
}

/// The body is the log itself (any content type but multipart), or a multipart form with the
/// file in `log`. Needs a bearer token; the body is read only once the token is accepted.
async fn upload(state: web::Data<State>, req: HttpRequest, body: web::Payload, q: web::Query<UploadQuery>) -> Api {
    let caller = api_caller(&req, &state).await?;
    let multipart = req
        .headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/"));
    let q = q.into_inner();
    let (bytes, name, tournament) = if multipart {
        let mut form = data::read_form(Multipart::new(req.headers(), body), state.max_upload).await?;
        let t = form.remove("tournament").and_then(|(_, b)| String::from_utf8(b).ok());
        let (name, bytes) =
            form.remove("log").ok_or_else(|| WebError::BadRequest("the form has no field \"log\"".into()))?;
        (bytes, name, t.or(q.tournament))
    } else {
        (data::read_body(body, state.max_upload).await?, q.name, q.tournament)
    };
    json(&data::upload(&state, &caller, bytes, name, tournament).await?)
}

/// A multipart form: `certificate` (the JSON), optional `log` and `key`.
async fn verify(state: web::Data<State>, mp: Multipart) -> Api {
    let mut form = data::read_form(mp, state.max_upload).await?;
    let cert = form.remove("certificate").map(|(_, b)| b).unwrap_or_default();
    let log = form.remove("log").map(|(_, b)| b).filter(|b| !b.is_empty());
    let key = form.remove("key").and_then(|(_, b)| String::from_utf8(b).ok());
    let v = data::verify(&state, cert, log, key).await?;
    let status = if v.ok { actix_web::http::StatusCode::OK } else { actix_web::http::StatusCode::UNPROCESSABLE_ENTITY };
    Ok(HttpResponse::build(status).json(v))
}
