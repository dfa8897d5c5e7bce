//! What each page shows, loaded from the archive. The HTML pages render these; the JSON API
//! serializes them as they are.

use crate::auth::Caller;
use crate::upload;
use crate::{brief, with_db, with_writer, State, WebError};
use actix_multipart::Multipart;
use actix_web::web;
use futures_util::StreamExt as _;
use paifu_analyzer::{metrics, Distribution, Metric};
use paifu_core::cert::{self, Certificate, CertificateBody, PublicKey};
use paifu_recorder::archive::{
    check_name, prepare, Cursor, Filter, GameDetail, GamePage, NameKind, Origin, PlayerRow, Role, Standing, Stored,
    StoredForm, Summary, TournamentInfo, TournamentRow,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Rows per page of the games list.
pub(crate) const PER_PAGE: u32 = 50;

#[derive(Serialize)]
pub(crate) struct Overview {
    pub summary: Summary,
    pub recent: GamePage,
    pub tournaments: Vec<TournamentRow>,
    pub top_players: Vec<PlayerRow>,
    pub public_key: String,
}

pub(crate) async fn overview(state: &web::Data<State>) -> Result<Overview, WebError> {
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
pub(crate) struct GamesQuery {
    pub game: Option<String>,
    pub player: Option<String>,
    pub tournament: Option<String>,
    /// `valid` or `invalid`.
    pub verdict: Option<String>,
    /// Links of earlier versions: page n of `per_page` (past the last page, the last page).
    pub page: Option<u32>,
    pub per_page: Option<u32>,
    /// The games older than this game (a page's "older" link); before `page`.
    pub after: Option<String>,
    /// The games newer than this game (a page's "newer" link); before `after` and `page`.
    pub before: Option<String>,
}

fn nonempty(s: &Option<String>) -> Option<String> {
    s.as_ref().map(|x| x.trim().to_owned()).filter(|x| !x.is_empty())
}

/// A page link's game number.
fn cursor_id(name: &str, v: &str) -> Result<i64, WebError> {
    v.parse::<i64>().ok().filter(|i| *i > 0).ok_or_else(|| {
        WebError::BadRequest(format!("{name} must be a game number (from a page's link), not {:?}", brief(v)))
    })
}

impl GamesQuery {
    /// Where the page starts: `before`, else `after`, else `page`, else the newest games.
    pub(crate) fn cursor(&self) -> Result<Cursor, WebError> {
        Ok(match (nonempty(&self.before), nonempty(&self.after), self.page) {
            (Some(b), _, _) => Cursor::Before(cursor_id("before", &b)?),
            (None, Some(a), _) => Cursor::After(cursor_id("after", &a)?),
            (None, None, Some(p)) => Cursor::Page(p.clamp(1, 1_000_000)),
            (None, None, None) => Cursor::Newest,
        })
    }

    /// The link to the page at `cursor` (`after=ID` or `before=ID`) with the same filters and
    /// page size, under `base` (`/games`, `/api/games`).
    pub(crate) fn link(&self, base: &str, cursor: (&str, i64)) -> String {
        let mut parts = vec![];
        for (k, v) in [
            ("game", &self.game),
            ("player", &self.player),
            ("tournament", &self.tournament),
            ("verdict", &self.verdict),
        ] {
            if let Some(v) = nonempty(v) {
                parts.push(format!("{k}={}", crate::html::url(&v)));
            }
        }
        if let Some(n) = self.per_page.filter(|n| *n != PER_PAGE) {
            parts.push(format!("per_page={n}"));
        }
        parts.push(format!("{}={}", cursor.0, cursor.1));
        format!("{base}?{}", parts.join("&"))
    }

    pub(crate) fn filter(&self) -> Result<Filter, WebError> {
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
pub(crate) struct Games {
    pub filter: Filter,
    pub games: GamePage,
    pub kinds: Vec<String>,
    pub pages: u64,
    /// The API's link to the next older page, when there is one.
    pub next: Option<String>,
    /// The API's link to the next newer page, when there is one.
    pub previous: Option<String>,
}

pub(crate) async fn games(state: &web::Data<State>, q: GamesQuery) -> Result<Games, WebError> {
    let filter = q.filter()?;
    let cursor = q.cursor()?;
    let per_page = q.per_page.unwrap_or(PER_PAGE).clamp(1, 200);
    with_db(state, move |a| {
        let games = a.games_page(&filter, cursor, per_page)?;
        let pages = games.total.div_ceil(u64::from(per_page)).max(1);
        Ok(Games {
            next: games.older.map(|id| q.link("/api/games", ("after", id))),
            previous: games.newer.map(|id| q.link("/api/games", ("before", id))),
            filter,
            games,
            kinds: a.game_kinds()?,
            pages,
        })
    })
    .await
}

pub(crate) fn parse_id(s: &str) -> Result<i64, WebError> {
    s.parse::<i64>()
        .ok()
        .filter(|i| *i > 0)
        .ok_or_else(|| WebError::NotFound(format!("{s:?} is not a game number (games are numbered 1, 2, 3, ...)")))
}

pub(crate) async fn game(state: &web::Data<State>, id: i64) -> Result<GameDetail, WebError> {
    with_db(state, move |a| a.game(id)?.ok_or_else(|| WebError::NotFound(format!("there is no game {id}")))).await
}

/// The stored bytes of a game.
pub(crate) async fn log_bytes(state: &web::Data<State>, id: i64) -> Result<(Vec<u8>, StoredForm), WebError> {
    with_db(state, move |a| a.log_bytes(id)?.ok_or_else(|| WebError::NotFound(format!("there is no game {id}")))).await
}

fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// Signs a certificate for a prepared log's report with the server's key.
fn sign_report(state: &State, report: &paifu_core::replay::Report) -> Option<Certificate> {
    let body = CertificateBody::from_report(report, now_rfc3339(), &state.key.verifying_key())?;
    Some(cert::sign(body, &state.key))
}

/// The latest certificate of a game signed by this server's key.
pub(crate) async fn certificate(state: &web::Data<State>, id: i64) -> Result<String, WebError> {
    let st = state.clone();
    with_db(state, move |a| {
        if let Some(json) = a.certificate(id, &st.public_hex)? {
            return Ok(json);
        }
        if a.log_bytes(id)?.is_none() {
            return Err(WebError::NotFound(format!("there is no game {id}")));
        }
        Err(WebError::NotFound(format!(
            "game {id} has no certificate signed by this server's key yet: an organiser can have it signed \
             (POST /api/games/{id}/certificate with their token)"
        )))
    })
    .await
}

/// What signing on demand did.
pub(crate) struct Signed {
    pub json: String,
    /// False when this server's key had signed the game already (that certificate is answered).
    pub new: bool,
}

/// Signs a certificate of a stored game with this server's key, unless it signed one already:
/// a new certificate is added to the game's history, none is ever replaced. Organisers and
/// admins only.
pub(crate) async fn sign_stored(state: &web::Data<State>, caller: &Caller, id: i64) -> Result<Signed, WebError> {
    caller.require(Role::Organiser, "signing a stored game")?;
    let st = state.clone();
    with_writer(state, move |a| {
        if let Some(json) = a.certificate(id, &st.public_hex)? {
            return Ok(Signed { json, new: false });
        }
        let (bytes, _) = a.log_bytes(id)?.ok_or_else(|| WebError::NotFound(format!("there is no game {id}")))?;
        let report = paifu_recorder::import::source::validate_bytes(&bytes);
        let c = sign_report(&st, &report).ok_or_else(|| {
            WebError::NotFound(format!(
                "game {id} could not be decoded as a log, so it has no digest to certify: {}",
                brief(&report.verdict.fault().map(|f| f.describe()).unwrap_or_default())
            ))
        })?;
        a.add_certificate(id, &c)?;
        Ok(Signed { json: c.to_json(), new: true })
    })
    .await
}

/// Statistics of a player, with the distributions to plot.
#[derive(Serialize)]
pub(crate) struct PlayerPage {
    pub player: PlayerRow,
    pub kinds: Vec<KindStats>,
    pub recent: GamePage,
}

#[derive(Serialize)]
pub(crate) struct KindStats {
    pub game: String,
    pub title: String,
    pub metrics: Vec<Metric>,
    pub placements: BTreeMap<u32, u64>,
    pub distributions: Vec<Distribution>,
}

pub(crate) async fn player(state: &web::Data<State>, name: String) -> Result<PlayerPage, WebError> {
    with_db(state, move |a| {
        let player = a.player(&name)?.ok_or_else(|| WebError::NotFound(format!("there is no player {name:?}")))?;
        let filter = Filter { player: Some(name.clone()), ..Filter::default() };
        // The sums kept at ingest: a row per game kind, however many games the player has.
        let kinds = a
            .player_stats(&name)?
            .iter()
            .map(|(game, b)| KindStats {
                game: game.clone(),
                title: paifu_core::GameKind::from_name(game).map_or_else(|| game.clone(), |k| k.title().to_owned()),
                metrics: metrics(game, b),
                placements: b.placements.clone(),
                distributions: paifu_analyzer::distributions(game, b),
            })
            .collect();
        Ok(PlayerPage { player, kinds, recent: a.list_games(&filter, 1, 20)? })
    })
    .await
}

#[derive(Deserialize)]
pub(crate) struct PlayersQuery {
    pub q: Option<String>,
    pub page: Option<u32>,
}

pub(crate) async fn players(state: &web::Data<State>, q: PlayersQuery) -> Result<Vec<PlayerRow>, WebError> {
    let search = nonempty(&q.q);
    let page = q.page.unwrap_or(1).clamp(1, 100_000);
    with_db(state, move |a| Ok(a.players(search.as_deref(), 100, (page - 1) * 100)?)).await
}

pub(crate) async fn tournaments(state: &web::Data<State>) -> Result<Vec<TournamentRow>, WebError> {
    with_db(state, |a| Ok(a.tournaments()?)).await
}

#[derive(Serialize)]
pub(crate) struct TournamentPage {
    pub name: String,
    /// Its owner and the keys it trusts.
    pub info: TournamentInfo,
    /// Over the games that count: valid, and certified valid by a key it trusts.
    pub standings: Vec<Standing>,
    /// How many of its games count in the standings.
    pub counted: u64,
    /// The Merkle root over its games and their trusted certificates, as `paifu report` signs
    /// it in the tournament's manifest (docs/report.md).
    pub root: String,
    /// How each table with points counts them (riichi: return points, oka, uma), from its
    /// counted games' options.
    pub final_points: Vec<FinalPointsTerms>,
    /// Each table's duplicate games (game and ruleset; none when it has none): each player's mean
    /// rank points with a 95% interval over the complete duplicate sets, and how many sets
    /// (`Archive::duplicate_standings`, the statistic `paifu arena --duplicate` prints).
    pub duplicate: Vec<paifu_analyzer::duplicate::DuplicateTable>,
    pub games: GamePage,
}

/// How one standings table counts final points.
#[derive(Serialize)]
pub(crate) struct FinalPointsTerms {
    pub game: String,
    pub ruleset: String,
    /// Each distinct setting among its counted games.
    pub terms: Vec<String>,
}

pub(crate) async fn tournament(state: &web::Data<State>, name: String) -> Result<TournamentPage, WebError> {
    with_db(state, move |a| {
        let missing = || WebError::NotFound(format!("there is no tournament {:?}", brief(&name)));
        // What is kept as its games are stored: its standings, counts and Merkle root, the same
        // as its manifest's (`Archive::published`), without reading its games.
        let summary = a.tournament_summary(&name)?.ok_or_else(missing)?;
        let (counted, root) = (summary.counted, summary.root.to_hex());
        let filter = Filter { tournament: Some(name.clone()), ..Filter::default() };
        let final_points = summary
            .terms
            .into_iter()
            .map(|((game, ruleset), terms)| FinalPointsTerms { game, ruleset, terms })
            .collect();
        let (info, standings) = (summary.info, summary.standings);
        let duplicate = a.duplicate_standings(&name)?.unwrap_or_default();
        let games = a.list_games(&filter, 1, 50)?;
        Ok(TournamentPage { games, name, info, standings, counted, root, final_points, duplicate })
    })
    .await
}

/// Public keys given as text (PEM or 64 hex digits), each checked.
pub(crate) fn parse_keys(keys: &[String]) -> Result<Vec<PublicKey>, WebError> {
    keys.iter()
        .enumerate()
        .map(|(i, k)| {
            cert::public_from_text(k.trim())
                .map_err(|e| WebError::Unprocessable(format!("trusted key {}: {}", i + 1, brief(&e.to_string()))))
        })
        .collect()
}

/// Makes a tournament owned by the caller (an organiser or admin), trusting `keys`, or this
/// server's key when none are given.
pub(crate) async fn create_tournament(
    state: &web::Data<State>,
    caller: &Caller,
    name: String,
    keys: Option<Vec<String>>,
) -> Result<TournamentInfo, WebError> {
    caller.require(Role::Organiser, "making a tournament")?;
    check_name(NameKind::Tournament, &name).map_err(|e| WebError::Unprocessable(e.to_string()))?;
    let keys = match keys {
        Some(k) => parse_keys(&k)?,
        None => vec![state.key.verifying_key()],
    };
    let owner = caller.token.name.clone();
    with_writer(state, move |a| {
        let (info, made) = a.ensure_tournament(&name, Some(&owner), &keys)?;
        if !made {
            return Err(WebError::Conflict(format!("there is a tournament {:?} already", brief(&name))));
        }
        Ok(info)
    })
    .await
}

/// Sets the keys a tournament trusts: its owner or an admin.
pub(crate) async fn set_tournament_keys(
    state: &web::Data<State>,
    caller: &Caller,
    name: String,
    keys: Vec<String>,
) -> Result<TournamentInfo, WebError> {
    caller.require(Role::Organiser, "setting a tournament's keys")?;
    let keys = parse_keys(&keys)?;
    let token = caller.token.clone();
    with_writer(state, move |a| {
        let info = a
            .tournament_info(&name)?
            .ok_or_else(|| WebError::NotFound(format!("there is no tournament {:?}", brief(&name))))?;
        if !info.accepts_games_from(&token) {
            return Err(not_owner(&info, &token.name));
        }
        Ok(a.set_trusted_keys(&name, &keys)?)
    })
    .await
}

fn not_owner(info: &TournamentInfo, who: &str) -> WebError {
    WebError::Forbidden(match &info.owner {
        Some(o) => {
            format!("the tournament {:?} belongs to {o:?}: only they or an admin may change it, not {who:?}", info.name)
        }
        None => format!("the tournament {:?} has no owner: only an admin may change it", info.name),
    })
}

/// The most fields a form may have.
const MAX_FIELDS: usize = 16;

/// The fields of a multipart form, each capped at `limit` bytes, all together at `limit` and
/// 64 KiB more, and at most [`MAX_FIELDS`] of them.
pub(crate) async fn read_form(
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

/// Reads a raw request body, capped at `limit` bytes (an upload, a form, a table's or a seat's
/// JSON: the errors say "the request's body").
pub(crate) async fn read_body(mut body: web::Payload, limit: usize) -> Result<Vec<u8>, WebError> {
    let mut buf = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| WebError::BadRequest(format!("the request's body could not be read: {e}")))?;
        if buf.len() + chunk.len() > limit {
            return Err(WebError::TooLarge(format!(
                "the request's body is larger than the {limit} bytes this server accepts"
            )));
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf)
}

/// What an upload did.
#[derive(Serialize)]
pub(crate) struct Uploaded {
    pub stored: Stored,
    /// What happened, in a sentence.
    pub message: String,
    pub records: usize,
    pub game: Option<String>,
    pub players: Vec<String>,
    pub fault_text: Option<String>,
    /// This server's certificate of the entry: made now for a new entry, the one it had for
    /// an entry already stored (if any).
    pub certificate: Option<Certificate>,
}

/// Validates and stores an uploaded log for `caller`; signs and stores a certificate of a new
/// entry. Refused (422) when the bytes are not a readable log or a name is not one the archive
/// keeps: the archive is then unchanged. A tournament named must accept games from the caller
/// (its owner or an admin); one that does not exist is made, owned by the caller (an organiser
/// or admin) and trusting this server's key.
pub(crate) async fn upload(
    state: &web::Data<State>,
    caller: &Caller,
    bytes: Vec<u8>,
    source: Option<String>,
    tournament: Option<String>,
) -> Result<Uploaded, WebError> {
    caller.require(Role::Uploader, "uploading")?;
    if bytes.is_empty() {
        return Err(WebError::BadRequest(
            "the upload is empty: choose a Paifu log, or a tenhou.net/6, mjlog or mjai game record".into(),
        ));
    }
    // An empty field names no tournament; any other name is checked as given.
    let tournament = tournament.filter(|t| !t.trim().is_empty());
    if let Some(t) = &tournament {
        check_name(NameKind::Tournament, t).map_err(|e| WebError::Unprocessable(e.to_string()))?;
        caller.require(Role::Organiser, "adding games to a tournament")?;
    }
    // Import (a game record: by its content, as `paifu import` does) and validation take the
    // time; they run before this server's turn to write.
    let (format, not_record, p) = web::block(move || {
        let (format, not_record) = upload::detect(&bytes);
        upload::to_log_bytes(format, bytes).map(|log| (format, not_record, prepare(&log)))
    })
    .await
    .map_err(|_| WebError::Internal("the validator stopped unexpectedly".into()))?
    .map_err(|e| match e {
        upload::UploadError::TooLarge { .. } => WebError::TooLarge(e.to_string()),
        upload::UploadError::Import { .. } => WebError::Unprocessable(brief(&e.to_string())),
    })?;
    if let Some(why) = p.refusal() {
        // Neither a Paifu log nor a game record: say both.
        let why = match not_record {
            Some(n) => format!("{why} (nor a tenhou.net/6, mjlog or mjai game record: {n})"),
            None if format != upload::Format::Paifu => format!("read as {}, imported: {why}", format.name()),
            None => why.to_string(),
        };
        return Err(WebError::Unprocessable(brief(&why)));
    }
    let st = state.clone();
    let token = caller.token.clone();
    with_writer(state, move |a| {
        if let Some(t) = &tournament {
            let (info, _) = a.ensure_tournament(t, Some(&token.name), &[st.key.verifying_key()])?;
            if !info.accepts_games_from(&token) {
                return Err(not_owner(&info, &token.name));
            }
        }
        // The entry and this server's certificate of it are stored in one transaction: a server
        // stopped at any moment leaves no entry it acknowledged unsigned.
        let signed = sign_report(&st, &p.report());
        let stored = a.store_certified(
            &p,
            source.as_deref(),
            signed.as_ref(),
            tournament.as_deref(),
            Origin::Web { token: token.id },
        )?;
        let certificate = match stored.certified_now {
            true => signed,
            false => a.certificate(stored.id, &st.public_hex)?.and_then(|j| Certificate::from_json(&j).ok()),
        };
        let message = match (stored.new, stored.added_to_tournament) {
            (true, _) => format!("stored as game #{}", stored.id),
            (false, true) => format!(
                "the archive already holds this very log as game #{}: the game is unchanged, and now in the tournament",
                stored.id
            ),
            (false, false) => {
                format!("the archive already holds this very log as game #{}: nothing changed", stored.id)
            }
        };
        Ok(Uploaded {
            records: p.records,
            game: p.header.as_ref().map(|h| h.game.clone()),
            players: p.header.as_ref().map(|h| h.seats.clone()).unwrap_or_default(),
            fault_text: stored.fault.as_ref().map(|f| brief(&f.describe())),
            message,
            stored,
            certificate,
        })
    })
    .await
}

/// What a certificate check found.
#[derive(Serialize)]
pub(crate) struct Verified {
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
pub(crate) async fn verify(
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
    // The log given, or else each entry of the game the archive holds (the one that counts
    // first): the certificate holds when it matches one of them.
    let (game_id, result) = {
        let cert = c.clone();
        with_db(state, move |a| {
            let matches =
                "the certificate is genuine and matches the log: replaying it gives the same verdict and scores";
            if let Some(bytes) = log {
                let id = a.entries_of_game(&digest)?.first().map(|e| e.id);
                return Ok((
                    id,
                    cert.verify(&key, &paifu_recorder::import::source::validate_bytes(&bytes))
                        .map(|_| matches.to_owned()),
                ));
            }
            let entries = a.entries_of_game(&digest)?;
            let mut first = None;
            for e in &entries {
                let Some((bytes, _)) = a.log_bytes(e.id)? else { continue };
                match cert.verify(&key, &paifu_recorder::import::source::validate_bytes(&bytes)) {
                    Ok(()) => return Ok((Some(e.id), Ok(matches.to_owned()))),
                    Err(err) => {
                        first.get_or_insert((Some(e.id), Err(err)));
                    }
                }
            }
            Ok(first.unwrap_or_else(|| {
                (
                    None,
                    cert.check_signature(&key).map(|_| {
                        "the signature is genuine; the log was not given and this archive does not hold it, so the \
                         verdict was not replayed"
                            .to_owned()
                    }),
                )
            }))
        })
        .await?
    };
    Ok(match result {
        Ok(message) => Verified { ok: true, message, certificate: Some(c.certificate), game_id },
        Err(e) => Verified { ok: false, message: e.to_string(), certificate: Some(c.certificate), game_id },
    })
}
