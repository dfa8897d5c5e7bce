//! What no request may take from the others (docs/web.md, "Threats and what holds").
//!
//! - **Connections**: at most [`Limits::max_connections`] at once (split across the workers),
//!   and at most [`Limits::connections_per_client`] from one address; the rest of a client's
//!   connections are answered 429 as soon as their request's head has arrived, and closed.
//! - **Time**: a request's head must arrive within [`Limits::head_timeout`] (actix-web's
//!   `client_request_timeout`, which covers the head only) and its body within
//!   [`Limits::body_timeout`] (enforced here, on the body's stream): 408 and the connection closed.
//! - **Size**: every route has a cap on its body ([`Route::cap`]). A `Content-Length` past it is
//!   answered 413 before one byte of the body is read; a chunked body is counted as it arrives
//!   and refused (413) as soon as it goes past.
//! - **Work anyone may ask for**: checking a certificate (`POST /verify`, `POST /api/verify`)
//!   needs no token, and replays the log it is given. At most [`Limits::anonymous_jobs`] run at
//!   once, [`Limits::anonymous_queue`] more wait (at most [`Limits::anonymous_wait`]), and one
//!   address has at most [`Limits::anonymous_per_client`] running or waiting; past that, 503 or
//!   429 with `Retry-After`. A request's body is read only once it has its turn, so waiting ones
//!   hold no more than a connection.

use crate::{ApiError, PageError, State, WebError};
use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::{header, ConnectionType, Method};
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::{web, HttpMessage, HttpResponse, ResponseError};
use futures_util::Stream;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

/// The bounds every request is held to; `paifu serve`'s flags set them.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest body of a certificate check anyone may ask for (`POST /verify`, `/api/verify`):
    /// the certificate, the log and the key together, in bytes.
    pub anonymous_body: usize,
    /// Certificate checks run at once.
    pub anonymous_jobs: usize,
    /// Certificate checks waiting for their turn; one more is answered 503.
    pub anonymous_queue: usize,
    /// Certificate checks one client address may have running or waiting; one more is answered
    /// 429 (0: no limit per address, for a server behind a proxy, where every client has the
    /// proxy's address).
    pub anonymous_per_client: usize,
    /// How long a certificate check waits for its turn before it is answered 503.
    pub anonymous_wait: Duration,
    /// A request's head (its line and headers) must arrive within this time (408).
    pub head_timeout: Duration,
    /// A request's body must arrive within this time of its head (408).
    pub body_timeout: Duration,
    /// Connections open at once, all workers together; further clients wait in the listen
    /// backlog until one closes.
    pub max_connections: usize,
    /// Connections one client address may have open at once; its further connections are
    /// answered 429 and closed (0: no limit per address).
    pub connections_per_client: usize,
}

/// The default largest body of a certificate check (2 MiB): a day-long riichi match's log is
/// a few hundred KiB.
const DEFAULT_ANONYMOUS_BODY: usize = 2 << 20;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            anonymous_body: DEFAULT_ANONYMOUS_BODY,
            anonymous_jobs: 2,
            anonymous_queue: 16,
            anonymous_per_client: 2,
            anonymous_wait: Duration::from_secs(10),
            head_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(30),
            max_connections: 1024,
            connections_per_client: 256,
        }
    }
}

/// What a multipart form adds to the file it carries (boundaries, field headers, the other
/// fields): an upload form may be this much larger than `--max-upload`.
pub(crate) const FORM_SLACK: usize = 64 << 10;

/// The routes by what their bodies may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Route {
    /// `POST /upload`, `POST /api/upload`: a log (with a token).
    Upload,
    /// `POST /verify`, `POST /api/verify`: a certificate check, which anyone may ask for.
    Anonymous,
    /// Everything else: forms and JSON bodies, and no body at all.
    Form,
}

impl Route {
    /// The route of a request by its method and its path as the router matches it
    /// (percent-decoded, `ServiceRequest::match_info`), never the raw path of its head.
    pub(crate) fn of(method: &Method, path: &str) -> Route {
        match (method, path) {
            (&Method::POST, "/upload" | "/api/upload") => Route::Upload,
            (&Method::POST, "/verify" | "/api/verify") => Route::Anonymous,
            _ => Route::Form,
        }
    }

    /// The largest body the route takes, and the flag that sets it.
    pub(crate) fn cap(self, state: &State) -> (usize, &'static str) {
        match self {
            Route::Upload => (state.max_upload.saturating_add(FORM_SLACK), "--max-upload"),
            Route::Anonymous => (state.limits.anonymous_body, "--anonymous-body"),
            Route::Form => (state.max_form, "--max-form"),
        }
    }
}

/// How many of something each client address has at once.
#[derive(Default)]
pub(crate) struct PerClient {
    counts: Mutex<HashMap<IpAddr, usize>>,
}

/// One of a client's somethings; the count goes down when it is dropped.
pub(crate) struct ClientSlot {
    of: Arc<PerClient>,
    ip: IpAddr,
    /// The client's count with this one.
    pub(crate) count: usize,
}

impl PerClient {
    pub(crate) fn enter(self: &Arc<Self>, ip: IpAddr) -> ClientSlot {
        let mut m = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let n = m.entry(ip).or_insert(0);
        *n += 1;
        ClientSlot { of: self.clone(), ip, count: *n }
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut m = self.of.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = m.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
    }
}

/// A connection's place among its client's connections (kept in the connection's data).
pub(crate) struct ConnSlot {
    slot: ClientSlot,
    cap: usize,
}

impl ConnSlot {
    /// Counts a new connection from `ip` against the cap (0: none).
    pub(crate) fn new(of: &Arc<PerClient>, ip: IpAddr, cap: usize) -> ConnSlot {
        ConnSlot { slot: of.enter(ip), cap }
    }

    fn over(&self) -> bool {
        self.cap > 0 && self.slot.count > self.cap
    }
}

/// The turns of the work anyone may ask for.
pub(crate) struct Gate {
    jobs: tokio::sync::Semaphore,
    waiting: AtomicUsize,
    clients: Arc<PerClient>,
}

/// A turn: the work runs while it is held.
pub(crate) struct Turn<'a> {
    _job: tokio::sync::SemaphorePermit<'a>,
    _client: Option<ClientSlot>,
}

impl Gate {
    pub(crate) fn new(limits: &Limits) -> Gate {
        Gate {
            jobs: tokio::sync::Semaphore::new(limits.anonymous_jobs.max(1)),
            waiting: AtomicUsize::new(0),
            clients: Arc::default(),
        }
    }

    /// A turn for a request from `client`: at once if a job is free, else after the ones
    /// waiting before it; refused when the client has too many, the queue is full or the wait
    /// is too long.
    pub(crate) async fn enter(&self, limits: &Limits, client: Option<IpAddr>) -> Result<Turn<'_>, WebError> {
        let slot = client.map(|ip| self.clients.enter(ip));
        if let Some(s) = &slot {
            if limits.anonymous_per_client > 0 && s.count > limits.anonymous_per_client {
                return Err(WebError::TooMany {
                    message: format!(
                        "this address already has {} certificate checks running or waiting, the most this server \
                         takes from one address (paifu serve --anonymous-per-client): wait for their answers",
                        limits.anonymous_per_client
                    ),
                    retry_after: 5,
                });
            }
        }
        if let Ok(job) = self.jobs.try_acquire() {
            return Ok(Turn { _job: job, _client: slot });
        }
        let wait = limits.anonymous_wait.as_secs().max(1);
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= limits.anonymous_queue {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(WebError::Unavailable {
                message: format!(
                    "this server checks {} certificates at once and {} more are waiting, the most it queues \
                     (paifu serve --anonymous-jobs, --anonymous-queue): try again shortly",
                    limits.anonymous_jobs.max(1),
                    limits.anonymous_queue
                ),
                retry_after: wait,
            });
        }
        // Counted out when the wait ends, and also when this future is dropped during it (the
        // client went away): else each such client would keep a place in the queue for good.
        let waiting = Waiting(&self.waiting);
        let got = actix_web::rt::time::timeout(limits.anonymous_wait, self.jobs.acquire()).await;
        drop(waiting);
        match got {
            Ok(Ok(job)) => Ok(Turn { _job: job, _client: slot }),
            Ok(Err(_)) => Err(WebError::Internal("the queue of certificate checks was closed".into())),
            Err(_) => Err(WebError::Unavailable {
                message: format!(
                    "this certificate check waited {} s for its turn, the longest this server lets one wait \
                     (paifu serve --anonymous-wait): try again shortly",
                    limits.anonymous_wait.as_secs_f64()
                ),
                retry_after: wait,
            }),
        }
    }
}

/// A place in the queue of certificate checks, given back when dropped.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Why a body was cut off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Overrun {
    TooLarge,
    TooSlow,
}

/// A request's body as the guard and the handler share it.
#[derive(Default)]
struct Body {
    /// The body as it arrives; taken by the guard once the handler has answered.
    payload: RefCell<Option<Payload>>,
    /// Read to its end.
    done: Cell<bool>,
    overrun: Cell<Option<Overrun>>,
}

/// The body a handler reads: it ends with an error past `cap` bytes or at its deadline, and
/// the guard is told which.
struct Limited {
    body: Rc<Body>,
    cap: usize,
    seen: usize,
    deadline: Pin<Box<actix_web::rt::time::Sleep>>,
}

impl Stream for Limited {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.body.overrun.get().is_some() || self.body.done.get() {
            return Poll::Ready(None);
        }
        let polled = match self.body.payload.borrow_mut().as_mut() {
            Some(p) => Pin::new(p).poll_next(cx),
            None => Poll::Ready(None),
        };
        match polled {
            Poll::Ready(Some(Ok(chunk))) => {
                self.seen = self.seen.saturating_add(chunk.len());
                if self.seen > self.cap {
                    self.body.overrun.set(Some(Overrun::TooLarge));
                    return Poll::Ready(Some(Err(PayloadError::Overflow)));
                }
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(None) => {
                self.body.done.set(true);
                Poll::Ready(None)
            }
            Poll::Pending => match self.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    self.body.overrun.set(Some(Overrun::TooSlow));
                    Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "the body did not arrive in time",
                    )))))
                }
                Poll::Pending => Poll::Pending,
            },
            err => err,
        }
    }
}

/// A response that keeps the request's unread body until it has been sent. actix-http closes a
/// connection whose request body is unread when its response ends, but drains a chunked body
/// that was dropped, for as long as the client sends it: kept, it is closed.
pub(crate) struct Holding<B> {
    body: B,
    _unread: Option<Payload>,
}

impl<B: MessageBody + Unpin> MessageBody for Holding<B> {
    type Error = B::Error;

    fn size(&self) -> BodySize {
        self.body.size()
    }

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Bytes, Self::Error>>> {
        Pin::new(&mut self.body).poll_next(cx)
    }
}

/// A refusal answered as JSON under `/api/`, as a page elsewhere; the connection is closed after
/// it (whatever the client still sends is not read).
fn refusal(api: bool, e: WebError) -> HttpResponse {
    let mut r = if api { ApiError(e).error_response() } else { PageError(e).error_response() };
    r.head_mut().set_connection_type(ConnectionType::Close);
    for (k, v) in crate::SECURITY_HEADERS {
        r.headers_mut().insert(header::HeaderName::from_static(k), header::HeaderValue::from_static(v));
    }
    r
}

fn refuse(req: ServiceRequest, api: bool, e: WebError) -> ServiceResponse<Holding<BoxBody>> {
    req.into_response(refusal(api, e)).map_body(|_, body| Holding { body, _unread: None })
}

fn content_length(req: &ServiceRequest) -> Option<u64> {
    req.headers().get(header::CONTENT_LENGTH)?.to_str().ok()?.trim().parse().ok()
}

/// The middleware that holds every request to the [`Limits`] (see the module's documentation).
/// The outermost: its refusals come before anything else is done.
pub(crate) async fn guard(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<Holding<BoxBody>>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<State>>().cloned() else {
        return Ok(next.call(req).await?.map_body(|_, b| Holding { body: BoxBody::new(b), _unread: None }));
    };
    // The path as the router matches it, percent-decoded: `/%76erify` reaches the handler of
    // `/verify`, and must be held as it is.
    let path = req.match_info().as_str().to_owned();
    let api = path.starts_with("/api/");
    if req.conn_data::<ConnSlot>().is_some_and(ConnSlot::over) {
        let e = WebError::TooMany {
            message: format!(
                "this address has more than {} connections open to this server, the most it takes from one \
                 address (paifu serve --connections-per-client): close some and try again",
                state.limits.connections_per_client
            ),
            retry_after: 5,
        };
        return Ok(refuse(req, api, e));
    }
    let route = Route::of(req.method(), &path);
    let (cap, flag) = route.cap(&state);
    if let Some(len) = content_length(&req).filter(|&l| l > cap as u64) {
        let e = WebError::TooLarge(format!(
            "the request's body is {len} bytes (its Content-Length); {} {} takes at most {cap} bytes (paifu serve \
             {flag}): nothing of it was read",
            req.method(),
            path
        ));
        return Ok(refuse(req, api, e));
    }
    let turn = match route {
        Route::Anonymous => match state.gate.enter(&state.limits, req.peer_addr().map(|a| a.ip())).await {
            Ok(t) => Some(t),
            Err(e) => return Ok(refuse(req, api, e)),
        },
        _ => None,
    };
    let body = Rc::new(Body { payload: RefCell::new(Some(req.take_payload())), ..Body::default() });
    let limited = Limited {
        body: body.clone(),
        cap,
        seen: 0,
        deadline: Box::pin(actix_web::rt::time::sleep(state.limits.body_timeout)),
    };
    req.set_payload(Payload::Stream { payload: Box::pin(limited) });
    let method = req.method().clone();
    let res = next.call(req).await;
    drop(turn);
    let unread = body.payload.borrow_mut().take().filter(|_| !body.done.get());
    let e = match body.overrun.get() {
        None => return Ok(res?.map_body(|_, b| Holding { body: BoxBody::new(b), _unread: unread })),
        Some(Overrun::TooLarge) => WebError::TooLarge(format!(
            "the request's body went past {cap} bytes, the most {method} {path} takes (paifu serve {flag}); it was \
             refused there and the rest was not read"
        )),
        Some(Overrun::TooSlow) => WebError::Timeout(format!(
            "the request's body did not arrive within {} s of its head (paifu serve --body-timeout): send it at once",
            state.limits.body_timeout.as_secs_f64()
        )),
    };
    // The handler answered what it made of the cut-off body; say why it was cut off instead.
    Ok(res?.into_response(refusal(api, e)).map_body(|_, body| Holding { body, _unread: unread }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    /// A certificate check whose client goes away while it waits for its turn (its future is
    /// dropped) gives its place in the queue back: the queue never fills with checks no one
    /// waits for.
    #[test]
    fn a_check_dropped_while_it_waits_gives_its_place_back() {
        let limits = Limits {
            anonymous_jobs: 1,
            anonymous_queue: 1,
            anonymous_per_client: 0,
            anonymous_wait: Duration::from_secs(60),
            ..Limits::default()
        };
        let gate = Gate::new(&limits);
        actix_web::rt::System::new().block_on(async {
            let Ok(held) = gate.enter(&limits, None).await else { panic!("the first check runs at once") };
            for round in 0..3 {
                let mut waits = Box::pin(gate.enter(&limits, None));
                assert!((&mut waits).now_or_never().is_none(), "round {round}: the check waits for its turn");
                assert_eq!(gate.waiting.load(Ordering::SeqCst), 1, "round {round}");
                drop(waits);
                assert_eq!(gate.waiting.load(Ordering::SeqCst), 0, "round {round}: the dropped check left the queue");
            }
            let next = gate.enter(&limits, None);
            drop(held);
            assert!(next.await.is_ok(), "the queue still takes a check, which gets its turn");
        });
    }
}
