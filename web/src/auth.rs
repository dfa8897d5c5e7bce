//! Who may write: every request that changes the archive carries a token, as
//! `Authorization: Bearer TOKEN` (the API and scripts) or through a session made by logging in
//! with one (the dashboard's forms, which then carry the session's CSRF token too). Reading needs
//! nothing.
//!
//! A token is checked against the archive on every request, so a revoked one is refused from the
//! next request on, sessions made with it too.
//!
//! Sessions are kept in the archive (`paifu_recorder::archive`'s `sessions.rs`), not in this
//! server's memory: every server on the archive answers the same cookie, logging out on one ends
//! the session on all, and a restart logs no one out. The archive keeps only the blake3 of a
//! session's id; its CSRF token is derived from the id. A request with a cookie costs one read
//! of the sessions' primary key, joined to the token.

use crate::{with_db, with_writer, State, WebError};
use actix_web::http::header;
use actix_web::{web, HttpRequest};
use paifu_recorder::archive::{session_csrf, Role, Token};
use std::time::Duration;

/// The session cookie's name.
pub(crate) const SESSION_COOKIE: &str = "paifu_session";
/// How long a session lasts.
pub(crate) const SESSION_LIFE: Duration = Duration::from_secs(8 * 3600);
/// Compares two secrets in time that does not depend on where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// Opens a session for token `token` (its number): answers its id, the cookie.
pub(crate) async fn open_session(state: &web::Data<State>, token: i64) -> Result<String, WebError> {
    let life = SESSION_LIFE.as_secs() as i64;
    with_writer(state, move |a| Ok(a.open_session(token, life)?)).await
}

/// Ends a session on every server of the archive.
pub(crate) async fn close_session(state: &web::Data<State>, id: &str) -> Result<(), WebError> {
    let id = id.to_owned();
    with_writer(state, move |a| Ok(a.close_session(&id).map(|_| ())?)).await
}

/// Whether a cookie's value has the shape of a session's id (64 lowercase hex digits): any
/// other is answered without asking the archive.
fn session_shaped(id: &str) -> bool {
    id.len() == 64 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// How a request proved who it is.
#[derive(Clone, Debug)]
pub(crate) enum Proof {
    /// `Authorization: Bearer TOKEN`.
    Bearer,
    /// A session cookie; forms must carry this CSRF token.
    Session { id: String, csrf: String },
}

/// The bearer of a valid token.
#[derive(Clone, Debug)]
pub(crate) struct Caller {
    pub token: Token,
    pub proof: Proof,
}

impl Caller {
    /// 403 unless the token may do what `role` may.
    pub(crate) fn require(&self, role: Role, what: &str) -> Result<(), WebError> {
        if self.token.may(role) {
            return Ok(());
        }
        Err(WebError::Forbidden(format!(
            "{what} needs a token of role {role} or above; this one ({}) is {}",
            self.token.name, self.token.role
        )))
    }

    /// Who this is, as a page's frame shows them.
    pub(crate) fn viewer(&self) -> crate::html::Viewer {
        crate::html::Viewer { name: self.token.name.clone(), opens_tables: self.token.may(Role::Organiser) }
    }

    /// For a session, that the form carried its CSRF token; a bearer token needs none (a
    /// browser never sends one on its own).
    pub(crate) fn check_csrf(&self, given: Option<&str>) -> Result<(), WebError> {
        match &self.proof {
            Proof::Bearer => Ok(()),
            Proof::Session { csrf, .. } if given.is_some_and(|g| same_secret(g, csrf)) => Ok(()),
            Proof::Session { .. } => Err(WebError::Forbidden(
                "the form's CSRF token is missing or not this session's: reload the form and send it again".into(),
            )),
        }
    }

    /// The CSRF token forms must carry (empty for a bearer token).
    pub(crate) fn csrf(&self) -> &str {
        match &self.proof {
            Proof::Bearer => "",
            Proof::Session { csrf, .. } => csrf,
        }
    }
}

/// The bearer token of a request, if it has an `Authorization` header; an error when the
/// header is there but is not `Bearer TOKEN`.
fn bearer(req: &HttpRequest) -> Result<Option<String>, WebError> {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else { return Ok(None) };
    let text = value.to_str().map_err(|_| WebError::Unauthorized("the Authorization header is not text".into()))?;
    let (scheme, token) = text.split_once(' ').unwrap_or((text, ""));
    if !scheme.eq_ignore_ascii_case("bearer") || token.trim().is_empty() {
        return Err(WebError::Unauthorized("the Authorization header must be: Bearer TOKEN".into()));
    }
    Ok(Some(token.trim().to_owned()))
}

/// The session cookie of a request.
pub(crate) fn session_cookie(req: &HttpRequest) -> Option<String> {
    req.headers().get_all(header::COOKIE).filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).find_map(|c| {
        let (k, v) = c.trim().split_once('=')?;
        (k == SESSION_COOKIE && !v.is_empty()).then(|| v.to_owned())
    })
}

/// The token behind a secret, refused when unknown or revoked.
pub(crate) async fn token_of(state: &web::Data<State>, secret: String) -> Result<Token, WebError> {
    let found = with_db(state, move |a| Ok(a.token_by_secret(&secret)?)).await?;
    match found {
        None => Err(WebError::Unauthorized("this token is not one this archive made".into())),
        Some(t) if t.is_revoked() => Err(WebError::Unauthorized(format!("token {} ({}) was revoked", t.id, t.name))),
        Some(t) => Ok(t),
    }
}

/// Who is calling the API: a bearer token only (cookies are not accepted there, so no page of
/// another site can make a browser write through it).
pub(crate) async fn api_caller(req: &HttpRequest, state: &web::Data<State>) -> Result<Caller, WebError> {
    match bearer(req)? {
        Some(secret) => Ok(Caller { token: token_of(state, secret).await?, proof: Proof::Bearer }),
        None => Err(WebError::Unauthorized(
            "writing needs a token: send Authorization: Bearer TOKEN (paifu token create makes one)".into(),
        )),
    }
}

/// Who is calling a page that writes: a bearer token, or a session (whose forms must then carry
/// its CSRF token, see [`Caller::check_csrf`]).
pub(crate) async fn page_caller(req: &HttpRequest, state: &web::Data<State>) -> Result<Caller, WebError> {
    if let Some(secret) = bearer(req)? {
        return Ok(Caller { token: token_of(state, secret).await?, proof: Proof::Bearer });
    }
    session_caller(req, state).await?.ok_or_else(|| {
        WebError::Unauthorized("writing needs a token: log in with one first (paifu token create makes one)".into())
    })
}

/// The logged-in caller of a page, if any; an error when the session's token was revoked.
pub(crate) async fn session_caller(req: &HttpRequest, state: &web::Data<State>) -> Result<Option<Caller>, WebError> {
    let Some(id) = session_cookie(req).filter(|id| session_shaped(id)) else { return Ok(None) };
    let key = id.clone();
    let Some(s) = with_db(state, move |a| Ok(a.session(&key)?)).await? else { return Ok(None) };
    if s.token.is_revoked() {
        close_session(state, &id).await?;
        return Err(WebError::Unauthorized("the token this session was opened with was revoked: log in again".into()));
    }
    let csrf = session_csrf(&id);
    Ok(Some(Caller { token: s.token, proof: Proof::Session { id, csrf } }))
}

/// Refuses a request that a browser sent from another site (its `Origin` is not this server):
/// a second guard, after SameSite cookies and CSRF tokens, for the forms that use a session.
pub(crate) fn same_origin(req: &HttpRequest) -> Result<(), WebError> {
    let Some(origin) = req.headers().get(header::ORIGIN).and_then(|o| o.to_str().ok()) else { return Ok(()) };
    let host = req.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let origin_host = origin.split_once("://").map_or(origin, |(_, h)| h);
    if origin == "null" || origin_host != host {
        return Err(WebError::Forbidden("the form was sent from another site".into()));
    }
    Ok(())
}

/// The `Set-Cookie` value of a new session.
pub(crate) fn session_set_cookie(id: &str, secure: bool) -> String {
    format!(
        "{SESSION_COOKIE}={id}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}{}",
        SESSION_LIFE.as_secs(),
        if secure { "; Secure" } else { "" }
    )
}

/// The `Set-Cookie` value that ends a session.
pub(crate) fn session_clear_cookie() -> String {
    format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_session_shaped_cookie_is_looked_up() {
        assert!(session_shaped(&"a1".repeat(32)));
        assert!(!session_shaped(&"A1".repeat(32)) && !session_shaped(&"a".repeat(63)) && !session_shaped(""));
        assert!(!session_shaped(&format!("{}'", "a".repeat(63))));
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd") && !same_secret("abc", "ab") && !same_secret("", "a"));
    }

    #[test]
    fn cookies_are_http_only_and_strict() {
        let c = session_set_cookie("x", false);
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Strict") && !c.contains("Secure"));
        assert!(session_set_cookie("x", true).ends_with("; Secure"));
        assert!(session_clear_cookie().contains("Max-Age=0"));
    }
}
