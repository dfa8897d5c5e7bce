//! Paifu's web dashboard: server-rendered pages with inline SVG plots over the archive, a JSON
//! API under `/api/` behind every page, uploads that validate and store a log, and certificate
//! verification. The only crate of Paifu that knows HTTP. Routes: docs/web.md.
//!
//! Reading needs nothing; every request that writes carries a token (see `auth.rs`). No request
//! makes the server panic: every input is checked and bad input answers a 4xx page (or JSON
//! under `/api/`) that says what is wrong, without repeating what was sent. Database work runs
//! on the blocking pool; this server's writes go one at a time through one lock (other
//! processes writing the same archive are waited for by the archive itself). No request can
//! starve the others: connections, the time a request may take to arrive, bodies and the work
//! anyone may ask for are bounded (`limits.rs`).

mod api;
mod auth;
mod data;
mod game_page;
mod hand_end;
mod html;
mod limits;
mod live;
mod names;
mod pages;
mod play_page;
mod table;
mod table_form;
mod tables;
mod tiles;
mod upload;
mod view;
mod viewer;
mod viewer_page;

use actix_web::dev::{Server, ServerHandle};
use actix_web::http::StatusCode;
use actix_web::{middleware, web, App, HttpRequest, HttpResponse, HttpServer, ResponseError};
use paifu_core::cert::{self, SecretKey};
use paifu_recorder::archive::{Archive, ArchiveError};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

pub use limits::Limits;
pub use tables::{check_public_url, TablesSetup};

/// The largest upload accepted by default (8 MiB): far more than any real log.
pub const DEFAULT_MAX_UPLOAD: usize = 8 << 20;
/// The largest other request body accepted by default (16 KiB): the log-in form, JSON bodies.
pub const DEFAULT_MAX_FORM: usize = 16 << 10;

/// How the server runs.
#[derive(Clone)]
pub struct Config {
    /// The archive's database file (created if missing).
    pub db: PathBuf,
    /// The key certificates are signed with; `None` makes a fresh one for this run.
    pub key: Option<SecretKey>,
    /// Largest accepted upload (a log, alone or in the upload form), in bytes; certificate checks
    /// have their own (`Limits::anonymous_body`).
    pub max_upload: usize,
    /// Largest other request body (log-in form, JSON), in bytes.
    pub max_form: usize,
    /// Mark the session cookie `Secure` (sent over HTTPS only): set it when a proxy serves the
    /// dashboard over HTTPS.
    pub secure_cookies: bool,
    /// Games in progress are shown as they were this many seconds ago: records played since
    /// are held back (0: none; for public viewing, say 300).
    pub live_delay_secs: u64,
    /// What no request may take from the others: connections, time, sizes, the work anyone may
    /// ask for (docs/web.md, "Threats and what holds").
    pub limits: Limits,
    /// The tables where people play (docs/play.md): their bots, sandbox and folder.
    pub tables: TablesSetup,
    /// This server's own address when several share the archive (`--public-url`,
    /// docs/deploy.md): the tables it opens are recorded as its, and the other servers send
    /// their seats' requests here. `None`: the only server.
    pub public_url: Option<String>,
}

impl Config {
    pub fn new(db: impl Into<PathBuf>) -> Config {
        Config {
            db: db.into(),
            key: None,
            max_upload: DEFAULT_MAX_UPLOAD,
            max_form: DEFAULT_MAX_FORM,
            secure_cookies: false,
            live_delay_secs: 0,
            limits: Limits::default(),
            tables: TablesSetup::default(),
            public_url: None,
        }
    }
}

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("no randomness for a signing key: {0}")]
    Randomness(getrandom::Error),
    /// The archive would not open (a PostgreSQL URL is shown without its password).
    #[error("{}: {source}", paifu_recorder::archive::shown_location(&.path.to_string_lossy()))]
    Archive { path: PathBuf, source: ArchiveError },
    #[error("the signing key's public half cannot be written as PEM: {0}")]
    Key(String),
    #[error("cannot listen on {addr}: {source}")]
    Listen { addr: String, source: std::io::Error },
    #[error("cannot listen on {0}")]
    NoAddress(String),
    #[error("the server stopped: {0}")]
    Stopped(std::io::Error),
    #[error("the server thread stopped before listening")]
    ThreadGone,
    #[error("the tables could not start: {0}")]
    Tables(String),
}

/// A fresh random signing key.
pub(crate) fn generate_key() -> Result<SecretKey, ServeError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(ServeError::Randomness)?;
    Ok(cert::secret_from_bytes(b))
}

/// The most idle connections kept. Each connection has its own page cache and prepared
/// statements: one closed and opened again under load starts cold, so the pool keeps enough for
/// every request the blocking pool runs at once in a busy moment.
const MAX_IDLE: usize = 64;

/// A few open connections to the archive, reused across requests.
struct Pool {
    path: PathBuf,
    idle: Mutex<Vec<Archive>>,
}

impl Pool {
    fn get(&self) -> Result<Archive, ArchiveError> {
        if let Some(a) = self.idle.lock().ok().and_then(|mut v| v.pop()) {
            return Ok(a);
        }
        Archive::open(&self.path)
    }

    fn put(&self, a: Archive) {
        if let Ok(mut v) = self.idle.lock() {
            if v.len() < MAX_IDLE {
                v.push(a);
            }
        }
    }
}

impl Drop for Pool {
    /// Closes the idle connections on a thread of their own: the server's state is dropped as
    /// the server stops, on a thread that drives actix's runtime, where closing a PostgreSQL
    /// connection (which blocks on the `postgres` client's own runtime) panicked and aborted
    /// the process (`paifu serve --db postgres://...` stopped by Ctrl-C or SIGTERM).
    fn drop(&mut self) {
        let idle = std::mem::take(self.idle.get_mut().unwrap_or_else(|e| e.into_inner()));
        let _ = std::thread::spawn(move || drop(idle)).join();
    }
}

/// What every request handler shares.
pub struct State {
    pool: Pool,
    /// Held while this server writes: its writes queue here rather than in the database.
    writer: Mutex<()>,
    key: SecretKey,
    public_hex: String,
    public_pem: String,
    max_upload: usize,
    max_form: usize,
    secure_cookies: bool,
    live_delay_secs: u64,
    limits: Limits,
    /// The turns of the work anyone may ask for (certificate checks).
    gate: limits::Gate,
    /// Each client address's open connections.
    connections: Arc<limits::PerClient>,
    /// The tables this server hosts.
    tables: Arc<paifu_recorder::arena::tables::Tables>,
    /// This server's public URL (`Config::public_url`).
    public_url: Option<String>,
}

impl State {
    /// Opens (creating and migrating) the archive and sets up the key.
    pub fn new(config: Config) -> Result<State, ServeError> {
        let archive =
            Archive::open(&config.db).map_err(|source| ServeError::Archive { path: config.db.clone(), source })?;
        let key = match config.key {
            Some(k) => k,
            None => generate_key()?,
        };
        let public = key.verifying_key();
        let public_pem = cert::public_to_pem(&public).map_err(|e| ServeError::Key(e.to_string()))?;
        let tables =
            tables::start(&config.db, config.tables, &key, config.public_url.clone()).map_err(ServeError::Tables)?;
        let pool = Pool { path: config.db, idle: Mutex::new(vec![archive]) };
        Ok(State {
            pool,
            writer: Mutex::new(()),
            public_hex: hex::encode(public.to_bytes()),
            public_pem,
            key,
            max_upload: config.max_upload.max(1),
            max_form: config.max_form.max(1),
            secure_cookies: config.secure_cookies,
            live_delay_secs: config.live_delay_secs,
            gate: limits::Gate::new(&config.limits),
            limits: config.limits,
            connections: Arc::default(),
            tables,
            public_url: config.public_url,
        })
    }
}

/// Why a request failed; shown as a page, or as JSON under `/api/`.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    /// No credential, or one that is unknown or revoked.
    #[error("{0}")]
    Unauthorized(String),
    /// A credential whose role or ownership does not allow this.
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    TooLarge(String),
    /// A request (its head or body) that did not arrive in time.
    #[error("{0}")]
    Timeout(String),
    /// One client asks for more than its share: try again after `retry_after` seconds.
    #[error("{message}")]
    TooMany { message: String, retry_after: u64 },
    /// The server has as much of this work as it takes: try again after `retry_after` seconds.
    #[error("{message}")]
    Unavailable { message: String, retry_after: u64 },
    /// Well-formed but refused: not a readable log, a name the archive does not keep.
    #[error("{0}")]
    Unprocessable(String),
    #[error("{0}")]
    Internal(String),
}

impl From<ArchiveError> for WebError {
    fn from(e: ArchiveError) -> WebError {
        match e {
            ArchiveError::Refused { refusal, .. } => WebError::Unprocessable(brief(&refusal.to_string())),
            ArchiveError::Name(n) => WebError::Unprocessable(n.to_string()),
            ArchiveError::NoTournament(t) => WebError::NotFound(format!("there is no tournament {}", brief(&t))),
            ArchiveError::NoLiveGame(_) => WebError::NotFound(e.to_string()),
            e => WebError::Internal(e.to_string()),
        }
    }
}

/// The longest message made from a request's content (a fault quoting a line, a JSON error).
const MAX_MESSAGE: usize = 300;

/// A message cut to [`MAX_MESSAGE`] characters: an answer never echoes much of what was sent.
pub fn brief(s: &str) -> String {
    match s.char_indices().nth(MAX_MESSAGE) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_owned(),
    }
}

impl WebError {
    fn status(&self) -> StatusCode {
        match self {
            WebError::NotFound(_) => StatusCode::NOT_FOUND,
            WebError::BadRequest(_) => StatusCode::BAD_REQUEST,
            WebError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            WebError::Forbidden(_) => StatusCode::FORBIDDEN,
            WebError::Conflict(_) => StatusCode::CONFLICT,
            WebError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            WebError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            WebError::TooMany { .. } => StatusCode::TOO_MANY_REQUESTS,
            WebError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            WebError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            WebError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn title(&self) -> &'static str {
        match self {
            WebError::NotFound(_) => "Not found",
            WebError::BadRequest(_) => "Bad request",
            WebError::Unauthorized(_) => "Log in first",
            WebError::Forbidden(_) => "Not allowed",
            WebError::Conflict(_) => "Already there",
            WebError::TooLarge(_) => "Too large",
            WebError::Timeout(_) => "Too slow",
            WebError::TooMany { .. } => "Too many requests",
            WebError::Unavailable { .. } => "Busy",
            WebError::Unprocessable(_) => "Refused",
            WebError::Internal(_) => "Server error",
        }
    }

    /// When to ask again, in seconds (the `Retry-After` of a 429 or 503).
    fn retry_after(&self) -> Option<u64> {
        match self {
            WebError::TooMany { retry_after, .. } | WebError::Unavailable { retry_after, .. } => Some(*retry_after),
            _ => None,
        }
    }

    /// The status and, for a 429 or 503, its `Retry-After`.
    fn response(&self) -> actix_web::HttpResponseBuilder {
        let mut r = HttpResponse::build(self.status());
        if let Some(secs) = self.retry_after() {
            r.insert_header((actix_web::http::header::RETRY_AFTER, secs.to_string()));
        }
        r
    }
}

/// A [`WebError`] answered as an HTML page.
#[derive(Debug)]
pub struct PageError(pub WebError);

impl std::fmt::Display for PageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<E: Into<WebError>> From<E> for PageError {
    fn from(e: E) -> PageError {
        PageError(e.into())
    }
}

impl ResponseError for PageError {
    fn status_code(&self) -> StatusCode {
        self.0.status()
    }
    fn error_response(&self) -> HttpResponse {
        let body = maud::html! {
            h1 { (self.0.title()) }
            p.fault role="alert" { (self.0.to_string()) }
            @if matches!(self.0, WebError::Unauthorized(_)) {
                p { a.button href="/login" { "Log in with a token" } }
            }
            p { a href="/" { "Back to the overview" } }
        }
        .into_string();
        self.0.response().content_type("text/html; charset=utf-8").body(html::page(self.0.title(), "", &body))
    }
}

/// A [`WebError`] answered as JSON: `{"error": "...", "status": 404}`.
#[derive(Debug)]
pub struct ApiError(pub WebError);

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<E: Into<WebError>> From<E> for ApiError {
    fn from(e: E) -> ApiError {
        ApiError(e.into())
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.0.status()
    }
    fn error_response(&self) -> HttpResponse {
        let mut r = self.0.response();
        if matches!(self.0, WebError::Unauthorized(_)) {
            r.insert_header((actix_web::http::header::WWW_AUTHENTICATE, "Bearer realm=\"paifu\""));
        }
        let mut body = serde_json::json!({ "error": self.0.to_string(), "status": self.0.status().as_u16() });
        if let Some(secs) = self.0.retry_after() {
            body["retry_after"] = secs.into();
        }
        r.json(body)
    }
}

/// Runs `f` with an archive connection on the blocking pool.
pub(crate) async fn with_db<T: Send + 'static>(
    state: &web::Data<State>,
    f: impl FnOnce(&mut Archive) -> Result<T, WebError> + Send + 'static,
) -> Result<T, WebError> {
    on_pool(state, false, f).await
}

/// Runs `f` with an archive connection on the blocking pool, after this server's other writes
/// (one write at a time).
pub(crate) async fn with_writer<T: Send + 'static>(
    state: &web::Data<State>,
    f: impl FnOnce(&mut Archive) -> Result<T, WebError> + Send + 'static,
) -> Result<T, WebError> {
    on_pool(state, true, f).await
}

async fn on_pool<T: Send + 'static>(
    state: &web::Data<State>,
    write: bool,
    f: impl FnOnce(&mut Archive) -> Result<T, WebError> + Send + 'static,
) -> Result<T, WebError> {
    let st = state.clone();
    web::block(move || {
        let _turn = write.then(|| st.writer.lock().unwrap_or_else(|p| p.into_inner()));
        let mut a = st.pool.get()?;
        let r = f(&mut a);
        st.pool.put(a);
        r
    })
    .await
    .map_err(|_| WebError::Internal("the request's worker stopped unexpectedly".into()))?
}

async fn not_found(req: HttpRequest) -> HttpResponse {
    let msg = format!("there is no page at {}", req.path());
    if req.path().starts_with("/api/") {
        ApiError(WebError::NotFound(msg)).error_response()
    } else {
        PageError(WebError::NotFound(msg)).error_response()
    }
}

fn query_error(err: actix_web::error::QueryPayloadError, req: &HttpRequest) -> actix_web::Error {
    let e = WebError::BadRequest(format!("the query string is not understood: {err}"));
    if req.path().starts_with("/api/") {
        ApiError(e).into()
    } else {
        PageError(e).into()
    }
}

/// Registers every route; use with `App::new().app_data(state).configure(paifu_web::routes)`.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.app_data(web::QueryConfig::default().error_handler(query_error))
        .configure(pages::routes)
        .configure(api::routes)
        .configure(live::routes)
        .configure(tables::routes)
        .configure(table_form::routes)
        .default_service(web::to(not_found));
}

/// Shared state for [`routes`], from a configuration.
pub fn state(config: Config) -> Result<web::Data<State>, ServeError> {
    Ok(web::Data::new(State::new(config)?))
}

/// Everything is served by this server; the scripts are this server's files (`/static/viewer.js`,
/// `/static/live.js`, `/static/play.js`: no page has an inline script), the styles inline, and the
/// only requests a script makes are to this server (the viewer's steps, a live game's page asking
/// for new moves, a seat's moves and updates).
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; \
                   form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The server's worker threads (each runs its share of the connections).
const WORKERS: usize = 2;
/// Connections waiting to be accepted, beyond which the system refuses new ones.
const BACKLOG: u32 = 1024;
/// How long an idle kept-alive connection stays open for its next request.
const KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(5);
/// How long a closing connection may take to flush and shut down.
const DISCONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(1);

/// The headers every answer carries (the guard's refusals too).
const SECURITY_HEADERS: [(&str, &str); 3] =
    [("x-content-type-options", "nosniff"), ("referrer-policy", "same-origin"), ("content-security-policy", CSP)];

/// Binds the server to `addr` (port 0 picks a free port) and answers it with the address it is
/// bound to; the server runs once the returned [`Server`] is awaited on an actix runtime.
///
/// `data` is made by [`state`] before the actix runtime starts, never inside it: opening a
/// PostgreSQL archive blocks on the `postgres` client's own runtime, which cannot start on a
/// thread that drives another (the archive is used inside the server only on the blocking pool,
/// [`with_db`]).
pub fn bind(data: web::Data<State>, addr: &str) -> Result<(Server, SocketAddr), ServeError> {
    let limits = data.limits.clone();
    let connections = data.connections.clone();
    let per_client = limits.connections_per_client;
    let server = HttpServer::new(move || {
        App::new()
            .wrap(middleware::Compress::default())
            .wrap(SECURITY_HEADERS.into_iter().fold(middleware::DefaultHeaders::new(), |h, kv| h.add(kv)))
            .wrap(middleware::from_fn(limits::guard))
            .app_data(data.clone())
            .configure(routes)
    })
    .workers(WORKERS)
    // Each worker takes its share of the connections; a client past its own share is refused
    // by the guard (a connection's place among its client's is counted here, when it opens).
    .max_connections(limits.max_connections.div_ceil(WORKERS).max(1))
    .backlog(BACKLOG)
    .client_request_timeout(limits.head_timeout)
    .client_disconnect_timeout(DISCONNECT_TIMEOUT)
    .keep_alive(KEEP_ALIVE)
    // Small writes leave at once: an event of a seat's stream is not held back, under Nagle's
    // algorithm, for the acknowledgement of the one before it (which the other end may delay
    // by 40 ms). actix-web leaves the system's default (Nagle on) unless told; web/tests/nodelay.rs.
    .tcp_nodelay(true)
    .on_connect(move |conn, ext| {
        if let Some(peer) = conn.downcast_ref::<actix_web::rt::net::TcpStream>().and_then(|s| s.peer_addr().ok()) {
            ext.insert(limits::ConnSlot::new(&connections, peer.ip(), per_client));
        }
    })
    .bind(addr)
    .map_err(|source| ServeError::Listen { addr: addr.to_owned(), source })?;
    let bound = server.addrs().first().copied().ok_or_else(|| ServeError::NoAddress(addr.to_owned()))?;
    Ok((server.run(), bound))
}

/// Serves until the process is stopped (Ctrl-C stops it cleanly).
pub fn serve(config: Config, addr: &str, on_ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let data = state(config)?;
    actix_web::rt::System::new().block_on(async move {
        let (server, bound) = bind(data, addr)?;
        on_ready(bound);
        server.await.map_err(ServeError::Stopped)
    })
}

/// A server running on its own thread, for `paifu demo` and tests.
pub struct Running {
    pub addr: SocketAddr,
    handle: ServerHandle,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    /// The base URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops the server and waits for its thread.
    pub fn stop(mut self) {
        self.shutdown();
    }

    /// Waits until the server stops (it stops on Ctrl-C).
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    fn shutdown(&mut self) {
        if let Some(t) = self.thread.take() {
            let h = self.handle.clone();
            let _ = std::thread::spawn(move || actix_web::rt::System::new().block_on(h.stop(true))).join();
            let _ = t.join();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Starts the server on a thread of its own and answers once it is listening.
pub fn spawn(config: Config, addr: &str) -> Result<Running, ServeError> {
    let (tx, rx) = std::sync::mpsc::channel();
    let addr = addr.to_owned();
    let thread = std::thread::spawn(move || {
        let data = match state(config) {
            Ok(d) => d,
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        };
        actix_web::rt::System::new().block_on(async move {
            match bind(data, &addr) {
                Ok((server, bound)) => {
                    let _ = tx.send(Ok((bound, server.handle())));
                    let _ = server.await;
                }
                Err(e) => {
                    let _ = tx.send(Err(e));
                }
            }
        })
    });
    let (addr, handle) = rx.recv().map_err(|_| ServeError::ThreadGone)??;
    Ok(Running { addr, handle, thread: Some(thread) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_error_never_shows_a_urls_password() {
        for (url, user) in [
            ("postgres://paifu:s3cret@db.example:5432/paifu", "paifu:***@db.example"),
            ("postgresql:///paifu?host=/tmp/pg&password=s3cret&port=5433", "password=***"),
        ] {
            let e = ServeError::Archive { path: url.into(), source: ArchiveError::Corrupt("test".into()) };
            let shown = e.to_string();
            assert!(!shown.contains("s3cret"), "{shown}");
            assert!(shown.contains(user) && shown.ends_with("damaged data: test"), "{shown}");
        }
        // A file's path is shown as it is.
        let e = ServeError::Archive { path: "club:s3cret@x.db".into(), source: ArchiveError::Corrupt("t".into()) };
        assert!(e.to_string().starts_with("club:s3cret@x.db: "), "{e}");
    }

    #[test]
    fn the_tables_of_a_postgresql_archive_go_in_a_folder_named_after_the_database_only() {
        let root = |db: &str| TablesSetup::default_root(std::path::Path::new(db));
        assert_eq!(root("postgres://paifu:s3cret@db.example:5432/club"), PathBuf::from("paifu-tables-club"));
        assert_eq!(root("postgresql:///league?host=/tmp/pg&password=s3cret"), PathBuf::from("paifu-tables-league"));
        assert_eq!(root("postgres://db.example"), PathBuf::from("paifu-tables-paifu"));
        assert_eq!(root("data/club.db"), PathBuf::from("data/club.db-tables"));
    }
}
