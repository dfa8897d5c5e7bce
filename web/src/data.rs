//! What each page shows, loaded from the archive. The HTML pages render these; the JSON API
//! serializes them as they are.

use crate::{with_db, State, WebError};
use actix_multipart::Multipart;
use actix_web::web;
use futures_util::StreamExt as _;
use paifu_analyzer::{metrics, Analysis, Distribution, Metric};
use paifu_core::cert::{self, Certificate, CertificateBody};
use paifu_recorder::archive::{
    prepare, Filter, GameDetail, GamePage, PlayerRow, Standing, Stored, StoredForm, Summary, TournamentRow,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Rows per page of the games list.
pub const PER_PAGE: u32 = 50;

#[derive(Serialize)]
pub struct Overview {
    pub summary: Summary,
    pub recent: GamePage,
    pub tournaments: Vec<TournamentRow>,
    pub top_players: Vec<PlayerRow>,
    pub public_key: String,
}

pub async fn overview(state: &web::Data<State>) -> Result<Overview, WebError> {
    let key = state.public_hex.clone();
    with_db(state, move |a| {
        let mut tournaments = a.tournaments()?;
        tournaments.truncate(10);
        Ok(Overview {
            summary: a.summary()?,
            recent: a.list_games(&Filter::default(), 1, 10)?,
            tournaments,
            top_players: a.players(None, 10, 0)?,
            public_key: key,
        })
    })
    .await
}

/// The games list's query string.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
pub struct GamesQuery {
    pub game: Option<String>,
    pub player: Option<String>,
    pub tournament: Option<String>,
    /// `valid` or `invalid`.
    pub verdict: Option<String>,
    pub page: Option<u32>,
    pub per_page: Option<u32>,
}

fn nonempty(s: &Option<String>) -> Option<String> {
    s.as_ref().map(|x| x.trim().to_owned()).filter(|x| !x.is_empty())
}

impl GamesQuery {
    pub fn filter(&self) -> Result<Filter, WebError> {
        let valid = match nonempty(&self.verdict).as_deref() {
            None | Some("any") => None,
            Some("valid") => Some(true),
            Some("invalid") => Some(false),
            Some(other) => {
                return Err(WebError::BadRequest(format!("verdict must be valid, invalid or any, not {other:?}")))
            }
        };
        Ok(Filter {
            game: nonempty(&self.game),
            player: nonempty(&self.player),
            tournament: nonempty(&self.tournament),
            valid,
            since: None,
        })
    }
}

#[derive(Serialize)]
pub struct Games {
    pub filter: Filter,
    pub games: GamePage,
    pub kinds: Vec<String>,
    pub pages: u64,
}

pub async fn games(state: &web::Data<State>, q: GamesQuery) -> Result<Games, WebError> {
    let filter = q.filter()?;
    let page = q.page.unwrap_or(1).clamp(1, 1_000_000);
    let per_page = q.per_page.unwrap_or(PER_PAGE).clamp(1, 200);
    with_db(state, move |a| {
        let games = a.list_games(&filter, page, per_page)?;
        let pages = games.total.div_ceil(u64::from(per_page)).max(1);
        Ok(Games { filter, games, kinds: a.game_kinds()?, pages })
    })
    .await
}

pub fn parse_id(s: &str) -> Result<i64, WebError> {
    s.parse::<i64>()
        .ok()
        .filter(|i| *i > 0)
        .ok_or_else(|| WebError::NotFound(format!("{s:?} is not a game number (games are numbered 1, 2, 3, ...)")))
}

pub async fn game(state: &web::Data<State>, id: i64) -> Result<GameDetail, WebError> {
    with_db(state, move |a| a.game(id)?.ok_or_else(|| WebError::NotFound(format!("there is no game {id}")))).await
}

/// The stored bytes of a game.
pub async fn log_bytes(state: &web::Data<State>, id: i64) -> Result<(Vec<u8>, StoredForm), WebError> {
    with_db(state, move |a| a.log_bytes(id)?.ok_or_else(|| WebError::NotFound(format!("there is no game {id}")))).await
}

fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// Signs a certificate for a prepared log's report with the server's key.
fn sign_report(state: &State, report: &paifu_core::Report) -> Option<Certificate> {
    let body = CertificateBody::from_report(report, now_rfc3339(), &state.key.verifying_key())?;
    Some(cert::sign(body, &state.key))
}

/// The certificate of a game, signed by this server: stored, or made now (and stored).
pub async fn certificate(state: &web::Data<State>, id: i64) -> Result<String, WebError> {
    let st = state.clone();
    with_db(state, move |a| {
        if let Some(json) = a.certificate(id, &st.public_hex)? {
            return Ok(json);
        }
        let (bytes, _) = a.log_bytes(id)?.ok_or_else(|| WebError::NotFound(format!("there is no game {id}")))?;
        let report = paifu_core::validate_bytes(&bytes);
        let c = sign_report(&st, &report).ok_or_else(|| {
            WebError::NotFound(format!(
                "game {id} could not be decoded as a log, so it has no digest to certify: {}",
                report.verdict.fault().map(|f| f.describe()).unwrap_or_default()
            ))
        })?;
        let json = c.to_json();
        a.put_certificate(id, &st.public_hex, &c.certificate.issued_at, &json)?;
        Ok(json)
    })
    .await
}

/// Statistics of a player, with the distributions to plot.
#[derive(Serialize)]
pub struct PlayerPage {
    pub player: PlayerRow,
    pub kinds: Vec<KindStats>,
    pub recent: GamePage,
}

#[derive(Serialize)]
pub struct KindStats {
    pub game: String,
    pub title: String,
    pub metrics: Vec<Metric>,
    pub placements: BTreeMap<u32, u64>,
    pub distributions: Vec<Distribution>,
}

pub async fn player(state: &web::Data<State>, name: String) -> Result<PlayerPage, WebError> {
    with_db(state, move |a| {
        let player = a.player(&name)?.ok_or_else(|| WebError::NotFound(format!("there is no player {name:?}")))?;
        let filter = Filter { player: Some(name.clone()), ..Filter::default() };
        let mut analysis = Analysis::default();
        a.for_each_game(&filter, |g| analysis.add_game(&g, Some(&name)))?;
        let kinds = analysis
            .players
            .get(&name)
            .map(|s| {
                s.kinds
                    .iter()
                    .map(|(game, b)| KindStats {
                        game: game.clone(),
                        title: paifu_core::GameKind::from_name(game)
                            .map_or_else(|| game.clone(), |k| k.title().to_owned()),
                        metrics: metrics(game, b),
                        placements: b.placements.clone(),
                        distributions: paifu_analyzer::distributions(game, b),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(PlayerPage { player, kinds, recent: a.list_games(&filter, 1, 20)? })
    })
    .await
}

#[derive(Deserialize)]
pub struct PlayersQuery {
    pub q: Option<String>,
    pub page: Option<u32>,
}

pub async fn players(state: &web::Data<State>, q: PlayersQuery) -> Result<Vec<PlayerRow>, WebError> {
    let search = nonempty(&q.q);
    let page = q.page.unwrap_or(1).clamp(1, 100_000);
    with_db(state, move |a| Ok(a.players(search.as_deref(), 100, (page - 1) * 100)?)).await
}

pub async fn tournaments(state: &web::Data<State>) -> Result<Vec<TournamentRow>, WebError> {
    with_db(state, |a| Ok(a.tournaments()?)).await
}

#[derive(Serialize)]
pub struct TournamentPage {
    pub name: String,
    pub standings: Vec<Standing>,
    pub games: GamePage,
}

pub async fn tournament(state: &web::Data<State>, name: String) -> Result<TournamentPage, WebError> {
    with_db(state, move |a| {
        let standings =
            a.standings(&name)?.ok_or_else(|| WebError::NotFound(format!("there is no tournament {name:?}")))?;
        let filter = Filter { tournament: Some(name.clone()), ..Filter::default() };
        Ok(TournamentPage { games: a.list_games(&filter, 1, 50)?, name, standings })
    })
    .await
}

/// The most fields a form may have.
const MAX_FIELDS: usize = 16;

/// The fields of a multipart form, each capped at `limit` bytes, all together at `limit` and
/// 64 KiB more, and at most [`MAX_FIELDS`] of them.
pub async fn read_form(
    mut mp: Multipart,
    limit: usize,
) -> Result<BTreeMap<String, (Option<String>, Vec<u8>)>, WebError> {
    let mut out = BTreeMap::new();
    let mut total = 0usize;
    let mut fields = 0usize;
    while let Some(field) = mp.next().await {
        fields += 1;
        if fields > MAX_FIELDS {
            return Err(WebError::BadRequest(format!("the form has more than {MAX_FIELDS} fields")));
        }
        let mut field = field.map_err(|e| WebError::BadRequest(format!("the form could not be read: {e}")))?;
        let name = field.name().unwrap_or("").to_owned();
        let filename =
            field.content_disposition().and_then(|cd| cd.get_filename()).map(str::to_owned).filter(|f| !f.is_empty());
        let mut buf = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|e| WebError::BadRequest(format!("the form could not be read: {e}")))?;
            if buf.len() + chunk.len() > limit {
                return Err(WebError::TooLarge(format!(
                    "the field {name:?} is larger than the {} bytes this server accepts",
                    limit
                )));
            }
            total += chunk.len();
            if total > limit + (64 << 10) {
                return Err(WebError::TooLarge(format!(
                    "the form is larger than the {limit} bytes this server accepts"
                )));
            }
            buf.extend_from_slice(&chunk);
        }
        out.insert(name, (filename, buf));
    }
    Ok(out)
}

/// Reads a raw request body, capped at `limit` bytes.
pub async fn read_body(mut body: web::Payload, limit: usize) -> Result<Vec<u8>, WebError> {
    let mut buf = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| WebError::BadRequest(format!("the upload could not be read: {e}")))?;
        if buf.len() + chunk.len() > limit {
            return Err(WebError::TooLarge(format!("the upload is larger than the {limit} bytes this server accepts")));
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf)
}

/// What an upload did.
#[derive(Serialize)]
pub struct Uploaded {
    pub stored: Stored,
    pub records: usize,
    pub game: Option<String>,
    pub players: Vec<String>,
    pub fault_text: Option<String>,
    pub certificate: Option<Certificate>,
}

/// Validates and stores an uploaded log; signs and stores its certificate.
pub async fn upload(
    state: &web::Data<State>,
    bytes: Vec<u8>,
    source: Option<String>,
    tournament: Option<String>,
) -> Result<Uploaded, WebError> {
    if bytes.is_empty() {
        return Err(WebError::BadRequest("the upload is empty: choose a .paifu or .paifu.jsonl log file".into()));
    }
    let st = state.clone();
    let tournament = tournament.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty());
    with_db(state, move |a| {
        let p = prepare(&bytes);
        let stored = a.store(&p, source.as_deref(), tournament.as_deref())?;
        let certificate = sign_report(&st, &p.report());
        if let Some(c) = &certificate {
            a.put_certificate(stored.id, &st.public_hex, &c.certificate.issued_at, &c.to_json())?;
        }
        Ok(Uploaded {
            records: p.records,
            game: p.header.as_ref().map(|h| h.game.clone()),
            players: p.header.as_ref().map(|h| h.seats.clone()).unwrap_or_default(),
            fault_text: stored.fault.as_ref().map(|f| f.describe()),
            stored,
            certificate,
        })
    })
    .await
}

/// What a certificate check found.
#[derive(Serialize)]
pub struct Verified {
    /// True when the certificate verifies.
    pub ok: bool,
    pub message: String,
    pub certificate: Option<CertificateBody>,
    /// The archived game the certificate is about, if the archive holds it.
    pub game_id: Option<i64>,
}

/// Checks a certificate: its signature by `key` (PEM or hex; the server's own key when empty),
/// and, against `log` (or the archived log with its digest when no log is given), the digest,
/// verdict and scores.
pub async fn verify(
    state: &web::Data<State>,
    certificate: Vec<u8>,
    log: Option<Vec<u8>>,
    key: Option<String>,
) -> Result<Verified, WebError> {
    let text = String::from_utf8(certificate)
        .map_err(|_| WebError::BadRequest("the certificate is not text (a .cert.json file is expected)".into()))?;
    if text.trim().is_empty() {
        return Err(WebError::BadRequest("no certificate was given: paste it or choose its .cert.json file".into()));
    }
    let key = match key.as_deref().map(str::trim).filter(|k| !k.is_empty()) {
        Some(k) => cert::public_from_text(k).map_err(|e| WebError::BadRequest(format!("the public key: {e}")))?,
        None => state.key.verifying_key(),
    };
    let c = match Certificate::from_json(&text) {
        Ok(c) => c,
        Err(e) => return Ok(Verified { ok: false, message: e.to_string(), certificate: None, game_id: None }),
    };
    let digest = c.certificate.log_digest.to_hex();
    let (game_id, log) = {
        let d = digest.clone();
        let given = log;
        with_db(state, move |a| {
            let id = a.id_of_digest(&d)?;
            let log = match (given, id) {
                (Some(l), _) => Some(l),
                (None, Some(id)) => a.log_bytes(id)?.map(|b| b.0),
                (None, None) => None,
            };
            Ok((id, log))
        })
        .await?
    };
    let result = match &log {
        Some(bytes) => {
            let report = web::block({
                let b = bytes.clone();
                move || paifu_core::validate_bytes(&b)
            })
            .await
            .map_err(|_| WebError::Internal("the validator stopped unexpectedly".into()))?;
            c.verify(&key, &report).map(|_| "the certificate is genuine and matches the log: replaying it gives the same verdict and scores".to_owned())
        }
        None => c.check_signature(&key).map(|_| {
            "the signature is genuine; the log was not given and this archive does not hold it, so the verdict was not replayed"
                .to_owned()
        }),
    };
    Ok(match result {
        Ok(message) => Verified { ok: true, message, certificate: Some(c.certificate), game_id },
        Err(e) => Verified { ok: false, message: e.to_string(), certificate: Some(c.certificate), game_id },
    })
}
