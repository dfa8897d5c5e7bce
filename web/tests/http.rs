//! Every route, through actix-web's test service.

use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::{test, App};
use paifu_core::cert::{self, CertificateBody};
use paifu_core::log::Encoding;
use paifu_recorder::archive::{prepare, Archive, Origin, Role};
use paifu_recorder::samples::{tzq_bytes, tzq_log};
use paifu_web::{routes, state, Config};

struct Fixture {
    _dir: tempfile::TempDir,
    config: Config,
    valid_id: i64,
    invalid_id: i64,
    /// A valid game stored without a certificate.
    uncertified_id: i64,
    /// Tokens: an uploader, an organiser (olive, who owns "Spring Cup"), another organiser, an
    /// admin, and a revoked organiser token of olive's.
    uploader: String,
    olive: String,
    otto: String,
    admin: String,
    revoked: String,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("web.db");
    let mut a = Archive::open(&db).unwrap();
    let key = cert::secret_from_bytes([42; 32]);
    let mut token = |name: &str, role| a.create_token(name, role).unwrap().secret;
    let (uploader, olive, otto, admin, revoked) = (
        token("uma", Role::Uploader),
        token("olive", Role::Organiser),
        token("otto", Role::Organiser),
        token("root", Role::Admin),
        token("olive", Role::Organiser),
    );
    let revoked_id = a.token_by_secret(&revoked).unwrap().unwrap().id;
    a.revoke_token(revoked_id).unwrap();
    a.ensure_tournament("Spring Cup", Some("olive"), &[key.verifying_key()]).unwrap();
    let names = [["Ann", "Bo"], ["Bo", "Cy Ré"], ["Cy Ré", "Ann"]];
    let mut valid_id = 0;
    for i in 0..6 {
        let p = prepare(&tzq_bytes(&format!("http/{i}"), names[i % 3], Encoding::Binary));
        let s = a.store(&p, None, Some("Spring Cup"), Origin::CommandLine).unwrap();
        let body = CertificateBody::from_report(&p.report(), "2026-01-01T00:00:00Z".into(), &key.verifying_key());
        a.add_certificate(s.id, &cert::sign(body.unwrap(), &key)).unwrap();
        valid_id = s.id;
    }
    let mut bad = tzq_log("http/bad", ["Ann", "Bo"]);
    bad.records.truncate(bad.records.len() / 2);
    let invalid_id = a.ingest_bytes(&paifu_core::log::encode(&bad, Encoding::JsonLines), None, None).unwrap().id;
    let uncertified_id =
        a.ingest_bytes(&tzq_bytes("http/uncertified", ["Dee", "Eve"], Encoding::Binary), None, None).unwrap().id;
    let mut config = Config::new(&db);
    config.max_upload = 64 * 1024;
    config.max_form = 4 * 1024;
    config.key = Some(key);
    Fixture { _dir: dir, config, valid_id, invalid_id, uncertified_id, uploader, olive, otto, admin, revoked }
}

fn bearer(token: &str) -> (&'static str, String) {
    ("authorization", format!("Bearer {token}"))
}

/// A request's status and body.
async fn send(
    app: &impl actix_web::dev::Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error>,
    req: test::TestRequest,
) -> (StatusCode, String) {
    let resp = test::call_service(app, req.to_request()).await;
    let status = resp.status();
    (status, body_text(resp).await)
}

fn json(b: &str) -> serde_json::Value {
    serde_json::from_str(b).unwrap_or_else(|e| panic!("{e}: {b}"))
}

macro_rules! app {
    ($f:expr) => {
        test::init_service(App::new().app_data(state($f.config.clone()).unwrap()).configure(routes)).await
    };
}

async fn body_text(resp: ServiceResponse) -> String {
    String::from_utf8(test::read_body(resp).await.to_vec()).unwrap()
}

async fn get(
    app: &impl actix_web::dev::Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error>,
    uri: &str,
) -> (StatusCode, String) {
    let resp = test::call_service(app, test::TestRequest::get().uri(uri).to_request()).await;
    let status = resp.status();
    (status, body_text(resp).await)
}

fn multipart(fields: &[(&str, Option<&str>, &[u8])]) -> (String, Vec<u8>) {
    let boundary = "----paifutestboundary7MA4YWxk";
    let mut body = Vec::new();
    for (name, filename, data) in fields {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match filename {
            Some(f) => body.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: application/octet-stream\r\n\r\n").as_bytes(),
            ),
            None => body.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes()),
        }
        body.extend_from_slice(data);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[actix_web::test]
async fn pages_answer() {
    let f = fixture();
    let app = app!(f);
    let (s, b) = get(&app, "/").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Archive overview") && b.contains("<b>8</b>Games"), "{b}");
    assert!(b.contains("href=\"/login\""));
    assert!(b.contains("name=\"viewport\""));
    let (s, b) = get(&app, "/games").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("8 games match"));
    let (s, b) = get(&app, "/games?player=Ann&verdict=valid&game=tzq&tournament=Spring+Cup").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("4 games match"), "{b}");
    let (s, b) = get(&app, "/games?per_page=3&page=2").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Page 2 of 3"));
    let (s, b) = get(&app, &format!("/games/{}", f.valid_id)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("valid") && b.contains("<svg") && b.contains("Step through it"));
    // The score chart's numbers: the last round's scores after are the final scores.
    let rounds = b.split("<table class=\"rounds\">").nth(1).expect("the rounds table");
    let last_row = rounds.split("</tbody>").next().unwrap().rsplit("<tr").next().unwrap();
    let last_after: Vec<&str> =
        last_row.split("<span class=\"k\">").skip(1).filter_map(|c| c.split('<').next()).collect();
    let finals: Vec<String> = b
        .split("<h2>Players and result</h2>")
        .nth(1)
        .unwrap()
        .split("</tbody>")
        .next()
        .unwrap()
        .split("<tr>")
        .skip(2)
        .filter_map(|row| row.split("<td class=\"n\">").nth(1)?.split('<').next().map(str::to_owned))
        .collect();
    assert_eq!(last_after.join(" / "), finals.join(" / "), "{b}");
    let (s, b) = get(&app, &format!("/games/{}", f.invalid_id)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("class=\"fault\"") && b.contains("truncated"));
    let (s, b) = get(&app, &format!("/games/{}", f.uncertified_id)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("No certificate yet") && b.contains("the command line"), "{b}");
    let (s, b) = get(&app, &format!("/games/{}/view", f.valid_id)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Step <b id=\"step\">0</b>") && b.contains("class=\"card c"), "{b}");
    let (s, b) = get(&app, &format!("/games/{}/view?step=3", f.valid_id)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Step <b id=\"step\">3</b>") && b.contains("id=\"action\""));
    let (s, b) = get(&app, &format!("/games/{}/view?step=end", f.valid_id)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("id=\"next\" aria-disabled"));
    // An invalid log is viewable up to its fault.
    let (s, b) = get(&app, &format!("/games/{}/view?step=end", f.invalid_id)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Step <b"));
    let (s, b) = get(&app, "/players").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("/players/Cy%20R%C3%A9"));
    let (s, b) = get(&app, "/players?q=ann").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Ann") && !b.contains(">Bo<"));
    let (s, b) = get(&app, "/players/Cy%20R%C3%A9").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("<svg") && b.contains("Placements of Cy Ré") && b.contains("Win rate"), "{b}");
    // Issue 16: every chart has its numbers beside it; the places of the table are all there.
    let charts = b.matches("<figure class=\"chart\"><svg").count();
    assert!(charts >= 2, "{b}");
    assert_eq!(b.matches("<table class=\"numbers\">").count(), charts, "{b}");
    let places = b.split("<table class=\"numbers\">").nth(1).and_then(|t| t.split("</table>").next()).unwrap();
    assert!(places.contains("<tr><td>1</td>") && places.contains("<tr><td>2</td>"), "{places}");
    let (s, b) = get(&app, "/tournaments").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Spring Cup"));
    let (s, b) = get(&app, "/tournaments/Spring%20Cup").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Standings") && b.contains("Average place"));
    assert!(b.contains("6 of 6 games") && b.contains("Owner: olive"), "{b}");
    // Issue 16: a table per game and ruleset, ranked by exact values with the rule said.
    assert_eq!(b.matches("<table class=\"standings\">").count(), 1, "{b}");
    assert!(b.contains(">Tien Zi Que (standard rules)</h3>") && b.contains("Ranked by average place"), "{b}");
    // Without a session the upload page asks for a log-in.
    let (s, b) = get(&app, "/upload").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Uploading needs a token") && !b.contains("type=\"file\""), "{b}");
    let (s, b) = get(&app, "/verify").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Verify a certificate"));
}

#[actix_web::test]
async fn bad_requests_are_clear() {
    let f = fixture();
    let app = app!(f);
    for (uri, code, needle) in [
        ("/games/0", StatusCode::NOT_FOUND, "not a game number"),
        ("/games/abc", StatusCode::NOT_FOUND, "not a game number"),
        ("/games/99999", StatusCode::NOT_FOUND, "there is no game 99999"),
        ("/games/99999999999999999999999", StatusCode::NOT_FOUND, "not a game number"),
        ("/games/1/view?step=-1", StatusCode::BAD_REQUEST, "step must be"),
        ("/games?page=zero", StatusCode::BAD_REQUEST, "query string"),
        ("/games?verdict=maybe", StatusCode::BAD_REQUEST, "verdict must be"),
        ("/players/Nobody", StatusCode::NOT_FOUND, "no player"),
        ("/tournaments/Nothing", StatusCode::NOT_FOUND, "no tournament"),
        ("/nowhere", StatusCode::NOT_FOUND, "no page at /nowhere"),
        ("/api/nowhere", StatusCode::NOT_FOUND, "\"status\":404"),
        ("/api/games/x", StatusCode::NOT_FOUND, "\"error\""),
        ("/api/games?page=-3", StatusCode::BAD_REQUEST, "\"error\""),
    ] {
        let (s, b) = get(&app, uri).await;
        assert_eq!(s, code, "{uri}: {b}");
        assert!(b.contains(needle), "{uri}: {b}");
    }
    // Input that looks like SQL or markup is only data.
    let (s, b) = get(&app, "/games?player=%27%20OR%201%3D1%20--&tournament=%3Cscript%3E").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("0 games match") && !b.contains("<script>"), "{b}");
    // A game this server's key has not signed: no certificate to download, and GET signs none.
    for uri in
        [format!("/games/{}/certificate", f.uncertified_id), format!("/api/games/{}/certificate", f.uncertified_id)]
    {
        let (s, b) = get(&app, &uri).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{uri}");
        assert!(b.contains("no certificate signed by this server"), "{uri}: {b}");
    }
    let (_, b) = get(&app, &format!("/api/games/{}", f.uncertified_id)).await;
    assert_eq!(json(&b)["certificates"], serde_json::json!([]));
}

#[actix_web::test]
async fn api_answers_json() {
    let f = fixture();
    let app = app!(f);
    let j = |b: &str| serde_json::from_str::<serde_json::Value>(b).unwrap();
    let (s, b) = get(&app, "/api/overview").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(j(&b)["summary"]["games"], 8);
    let (_, b) = get(&app, "/api/key").await;
    let key = j(&b);
    assert_eq!(key["hex"].as_str().unwrap().len(), 64);
    assert!(key["pem"].as_str().unwrap().contains("BEGIN PUBLIC KEY"));
    let (s, b) = get(&app, "/api/key.pem").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.starts_with("-----BEGIN PUBLIC KEY"));
    let (_, b) = get(&app, "/api/games?verdict=invalid").await;
    assert_eq!(j(&b)["games"]["total"], 1);
    let (_, b) = get(&app, &format!("/api/games/{}", f.valid_id)).await;
    let g = j(&b);
    assert_eq!(g["valid"], true);
    assert!(!g["rounds"].as_array().unwrap().is_empty());
    let (_, b) = get(&app, &format!("/api/games/{}/steps/2", f.valid_id)).await;
    let st = j(&b);
    assert_eq!(st["step"], 2);
    assert!(st["view"]["seats"].is_array());
    let (_, b) = get(&app, &format!("/api/games/{}/view?step=end", f.valid_id)).await;
    assert_eq!(j(&b)["step"], j(&b)["steps"]);
    assert_eq!(g["counted"], true);
    assert_eq!(g["stored_by"]["origin"], "cli");
    assert_eq!(g["entries"].as_array().unwrap().len(), 1);
    assert_eq!(g["certificates"][0]["valid"], true);
    let (_, b) = get(&app, "/api/players").await;
    assert_eq!(j(&b).as_array().unwrap().len(), 5);
    let (_, b) = get(&app, "/api/players/Ann").await;
    assert_eq!(j(&b)["kinds"][0]["game"], "tzq");
    let (_, b) = get(&app, "/api/tournaments").await;
    assert_eq!(j(&b)[0]["name"], "Spring Cup");
    let (_, b) = get(&app, "/api/tournaments/Spring%20Cup").await;
    assert_eq!(j(&b)["standings"].as_array().unwrap().len(), 3);
    assert_eq!(j(&b)["info"]["owner"], "olive");
    assert_eq!(j(&b)["counted"], 6);
    // The Merkle root paifu report signs (issue 16), on the page and in the JSON.
    let root = Archive::open(&f.config.db).unwrap().published("Spring Cup").unwrap().unwrap().root.to_hex();
    assert_eq!(j(&b)["root"], root.as_str());
    let (_, page) = get(&app, "/tournaments/Spring%20Cup").await;
    assert!(page.contains(&format!("<code id=\"root\">{root}</code>")), "{page}");
    // Certificates: the stored one, signed by the server's key, the same when asked again.
    let (s, c1) = get(&app, &format!("/api/games/{}/certificate", f.valid_id)).await;
    assert_eq!(s, StatusCode::OK);
    let (_, c2) = get(&app, &format!("/games/{}/certificate", f.valid_id)).await;
    assert_eq!(c1, c2);
    let cert = paifu_core::cert::Certificate::from_json(&c1).unwrap();
    assert_eq!(cert.certificate.signer.to_hex(), key["hex"].as_str().unwrap());
    let resp =
        test::call_service(&app, test::TestRequest::get().uri(&format!("/games/{}/log", f.valid_id)).to_request())
            .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let log = test::read_body(resp).await;
    assert!(paifu_core::replay::validate_bytes(&log).verdict.is_valid());
}

#[actix_web::test]
async fn upload_stores_and_answers_the_verdict() {
    let f = fixture();
    let app = app!(f);
    // A new valid log through the form, with a bearer token (an organiser: a new tournament).
    let bytes = tzq_bytes("http/upload", ["Dee", "Eve"], Encoding::JsonLines);
    let (ct, body) = multipart(&[("log", Some("new.paifu.jsonl"), &bytes), ("tournament", None, b"Autumn")]);
    let req = test::TestRequest::post()
        .uri("/upload")
        .insert_header(("content-type", ct))
        .insert_header(bearer(&f.olive))
        .set_payload(body);
    let (s, b) = send(&app, req).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert!(b.contains("id=\"verdict\"") && b.contains("✔ valid") && b.contains("Stored as game #"), "{b}");
    // The same again through the API: the archive says it holds it, and nothing changed.
    let before = json(&get(&app, "/api/overview").await.1)["summary"].clone();
    let req = test::TestRequest::post().uri("/api/upload?name=x.paifu.jsonl").insert_header(bearer(&f.uploader));
    let (s, b) = send(&app, req.set_payload(bytes.clone())).await;
    assert_eq!(s, StatusCode::OK);
    let v = json(&b);
    assert_eq!((v["stored"]["new"].clone(), v["stored"]["valid"].clone()), (false.into(), true.into()));
    assert!(v["message"].as_str().unwrap().contains("nothing changed"), "{b}");
    assert!(v["certificate"]["signature"].is_string());
    let id = v["stored"]["id"].as_i64().unwrap();
    assert_eq!(json(&get(&app, "/api/overview").await.1)["summary"], before);
    let g = json(&get(&app, &format!("/api/games/{id}")).await.1);
    assert_eq!(g["stored_by"]["name"], "olive", "the first uploader stays");
    assert_eq!(g["certificates"].as_array().unwrap().len(), 1);
    let (_, b) = get(&app, "/tournaments/Autumn").await;
    assert!(b.contains("Dee") && b.contains("Owner: olive"), "{b}");
    // Too large.
    let big = vec![b'x'; 70 * 1024];
    let (ct, body) = multipart(&[("log", Some("big.paifu"), &big)]);
    let req = test::TestRequest::post()
        .uri("/upload")
        .insert_header(("content-type", ct))
        .insert_header(bearer(&f.uploader))
        .set_payload(body);
    let (s, b) = send(&app, req).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(b.contains("larger than") && !b.contains("xxxxxxxx"), "{b}");
    let req = test::TestRequest::post().uri("/api/upload").insert_header(bearer(&f.uploader)).set_payload(big);
    assert_eq!(send(&app, req).await.0, StatusCode::PAYLOAD_TOO_LARGE);
    // Empty, missing field, not multipart.
    let req = test::TestRequest::post().uri("/api/upload").insert_header(bearer(&f.uploader));
    assert_eq!(send(&app, req).await.0, StatusCode::BAD_REQUEST);
    let (ct, body) = multipart(&[("other", None, b"x")]);
    let req = test::TestRequest::post()
        .uri("/upload")
        .insert_header(("content-type", ct))
        .insert_header(bearer(&f.uploader))
        .set_payload(body);
    assert_eq!(send(&app, req).await.0, StatusCode::BAD_REQUEST);
    let req = test::TestRequest::post()
        .uri("/upload")
        .insert_header(("content-type", "text/plain"))
        .insert_header(bearer(&f.uploader))
        .set_payload("hi");
    assert_eq!(send(&app, req).await.0, StatusCode::BAD_REQUEST);
}

#[actix_web::test]
async fn what_is_not_a_log_is_refused_and_not_stored() {
    // Issue 12, item 3: non-logs were stored (as bad_encoding) and listed.
    let f = fixture();
    let app = app!(f);
    let before = get(&app, "/api/overview").await.1;
    let mut control = tzq_log("http/names", ["Ann", "Bo"]);
    control.header.seats[0] = "Ann\u{7}".into();
    let control = paifu_core::log::encode(&control, Encoding::JsonLines);
    let long_line = [b"{\"paifu\": 1, \"junk\": \"".as_slice(), &[b'z'; 20_000], b"\"}\n"].concat();
    for (body, needle) in [
        (&b"\x00\x01garbage"[..], "not a readable Paifu log"),
        (&long_line, "not a readable Paifu log"),
        (&control, "seat 0: a player name may not hold control"),
    ] {
        let req = test::TestRequest::post().uri("/api/upload").insert_header(bearer(&f.uploader));
        let (s, b) = send(&app, req.set_payload(body.to_vec())).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
        assert!(json(&b)["error"].as_str().unwrap().contains(needle), "{b}");
        assert!(b.len() < 1_000 && !b.contains("zzzzzzzzzz"), "the answer does not echo the upload: {b}");
        let (ct, form) = multipart(&[("log", Some("bad.paifu"), body)]);
        let req = test::TestRequest::post()
            .uri("/upload")
            .insert_header(("content-type", ct))
            .insert_header(bearer(&f.uploader))
            .set_payload(form);
        let (s, b) = send(&app, req).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(b.contains(needle), "{b}");
    }
    // A tournament name with a control character (the issue's "\u0000"), or too long.
    let good = tzq_bytes("http/good-name", ["Ann", "Bo"], Encoding::Binary);
    for t in ["%00", "Cup%0A", &"x".repeat(81)] {
        let req = test::TestRequest::post().uri(&format!("/api/upload?tournament={t}")).insert_header(bearer(&f.olive));
        let (s, b) = send(&app, req.set_payload(good.clone())).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{t}: {b}");
        assert!(b.contains("a tournament name may"), "{b}");
    }
    let req = test::TestRequest::post().uri("/api/tournaments").insert_header(bearer(&f.olive));
    let (s, b) = send(&app, req.set_payload(r#"{"name": "\u0000"}"#)).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    // Nothing was stored.
    assert_eq!(get(&app, "/api/overview").await.1, before);
}

#[actix_web::test]
async fn writes_need_a_token_and_the_role() {
    // Issue 12, item 3: uploads and the certificate endpoint needed no credential.
    let f = fixture();
    let app = app!(f);
    let log = tzq_bytes("http/auth", ["Fay", "Gus"], Encoding::Binary);
    let (ct, form) = multipart(&[("log", Some("a.paifu"), &log)]);
    let cert_uri = format!("/api/games/{}/certificate", f.uncertified_id);
    // No credential, an unknown one, a malformed header, a revoked token: 401.
    for auth in
        [None, Some("Bearer pft_00".to_owned()), Some("Basic dTpw".to_owned()), Some(format!("Bearer {}", f.revoked))]
    {
        let with = |r: test::TestRequest| match &auth {
            Some(a) => r.insert_header(("authorization", a.as_str())),
            None => r,
        };
        for req in [
            test::TestRequest::post().uri("/api/upload").set_payload(log.clone()),
            test::TestRequest::post().uri(&cert_uri),
            test::TestRequest::post().uri("/api/tournaments").set_payload(r#"{"name": "X"}"#),
            test::TestRequest::put().uri("/api/tournaments/Spring%20Cup/keys").set_payload(r#"{"trusted_keys": []}"#),
        ] {
            let resp = test::call_service(&app, with(req).to_request()).await;
            assert_eq!(resp.status(), StatusCode::UNAUTHORIZED, "{auth:?}");
            assert!(resp.headers().get("www-authenticate").is_some());
            let b = body_text(resp).await;
            assert_eq!(json(&b)["status"], 401, "{b}");
        }
        let req = with(test::TestRequest::post().uri("/upload").insert_header(("content-type", ct.clone())));
        let (s, b) = send(&app, req.set_payload(form.clone())).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
        assert!(b.contains("href=\"/login\""), "{b}");
    }
    let (_, b) = send(&app, test::TestRequest::post().uri("/api/upload").insert_header(bearer(&f.revoked))).await;
    assert!(b.contains("was revoked"), "{b}");
    // Too little role: 403.
    let new_t = br#"{"name": "Mine"}"#.to_vec();
    let no_keys = br#"{"trusted_keys": []}"#.to_vec();
    for (token, req, body, why) in [
        (&f.uploader, test::TestRequest::post().uri(&cert_uri), vec![], "signing a stored game"),
        (
            &f.uploader,
            test::TestRequest::post().uri("/api/upload?tournament=Spring%20Cup"),
            log.clone(),
            "adding games",
        ),
        (&f.uploader, test::TestRequest::post().uri("/api/tournaments"), new_t, "making a tournament"),
        (&f.otto, test::TestRequest::post().uri("/api/upload?tournament=Spring%20Cup"), log.clone(), "belongs to"),
        (&f.otto, test::TestRequest::put().uri("/api/tournaments/Spring%20Cup/keys"), no_keys, "belongs to"),
    ] {
        let (s, b) = send(&app, req.insert_header(bearer(token)).set_payload(body)).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{why}: {b}");
        assert!(b.contains(why), "{b}");
    }
    // Each stored entry says who uploaded it.
    let (s, b) =
        send(&app, test::TestRequest::post().uri("/api/upload").insert_header(bearer(&f.uploader)).set_payload(log))
            .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let id = json(&b)["stored"]["id"].as_i64().unwrap();
    let g = json(&get(&app, &format!("/api/games/{id}")).await.1);
    assert_eq!((g["stored_by"]["origin"].clone(), g["stored_by"]["name"].clone()), ("web".into(), "uma".into()));
    // Signing on demand: an organiser; once, then the same certificate.
    let (s, c1) = send(&app, test::TestRequest::post().uri(&cert_uri).insert_header(bearer(&f.otto))).await;
    assert_eq!(s, StatusCode::CREATED, "{c1}");
    let (s, c2) = send(&app, test::TestRequest::post().uri(&cert_uri).insert_header(bearer(&f.admin))).await;
    assert_eq!((s, &c2), (StatusCode::OK, &c1));
    assert_eq!(get(&app, &cert_uri).await.1, c1);
}

#[actix_web::test]
async fn tournaments_are_made_and_trusted_by_their_organiser() {
    let f = fixture();
    let app = app!(f);
    let other_key = cert::secret_from_bytes([9; 32]).verifying_key();
    let other_hex = hex::encode(other_key.to_bytes());
    let post = |token: &str, body: &str| {
        test::TestRequest::post().uri("/api/tournaments").insert_header(bearer(token)).set_payload(body.to_owned())
    };
    let (s, b) = send(&app, post(&f.otto, r#"{"name": "Otto Open"}"#)).await;
    assert_eq!(s, StatusCode::CREATED, "{b}");
    let server_key = json(&get(&app, "/api/key").await.1)["hex"].clone();
    assert_eq!(json(&b)["owner"], "otto");
    assert_eq!(json(&b)["trusted_keys"], serde_json::json!([server_key]));
    let (s, _) = send(&app, post(&f.olive, r#"{"name": "Otto Open"}"#)).await;
    assert_eq!(s, StatusCode::CONFLICT);
    // Bad bodies: 422 or 413, without the body in the answer.
    for (body, code) in [
        ("{nope".to_owned(), StatusCode::UNPROCESSABLE_ENTITY),
        (r#"{"name": "A", "extra": 1}"#.to_owned(), StatusCode::UNPROCESSABLE_ENTITY),
        (r#"{"name": "B", "trusted_keys": ["not a key"]}"#.to_owned(), StatusCode::UNPROCESSABLE_ENTITY),
        (format!(r#"{{"name": "{}"}}"#, "q".repeat(5_000)), StatusCode::PAYLOAD_TOO_LARGE),
    ] {
        let (s, b) = send(&app, post(&f.otto, &body)).await;
        assert_eq!(s, code, "{b}");
        assert!(b.len() < 600, "{b}");
    }
    // The owner sets the keys; an admin may too; the standings follow.
    let keys = |k: &str| format!(r#"{{"trusted_keys": ["{k}"]}}"#);
    let put = |token: &str, name: &str, body: String| {
        test::TestRequest::put()
            .uri(&format!("/api/tournaments/{name}/keys"))
            .insert_header(bearer(token))
            .set_payload(body)
    };
    let (s, b) = send(&app, put(&f.olive, "Spring%20Cup", keys(&other_hex))).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(json(&b)["trusted_keys"], serde_json::json!([other_hex]));
    let t = json(&get(&app, "/api/tournaments/Spring%20Cup").await.1);
    assert_eq!((t["counted"].clone(), t["standings"].as_array().unwrap().len()), (0.into(), 0));
    let (s, _) = send(&app, put(&f.admin, "Spring%20Cup", keys(server_key.as_str().unwrap()))).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(json(&get(&app, "/api/tournaments/Spring%20Cup").await.1)["counted"], 6);
    let (s, _) = send(&app, put(&f.admin, "Nowhere", keys(&other_hex))).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[actix_web::test]
async fn forged_copies_never_displace_the_genuine_game() {
    // Issue 12, items 1 and 2, over HTTP: a copy of a game with its seed withheld (the same game
    // digest), after the genuine log and before it.
    let f = fixture();
    let app = app!(f);
    let upload = |token: &str, t: &str, bytes: Vec<u8>| {
        test::TestRequest::post()
            .uri(&format!("/api/upload?tournament={t}"))
            .insert_header(bearer(token))
            .set_payload(bytes)
    };
    for (order, tournament) in [("after", "Cup%20A"), ("first", "Cup%20B")] {
        let log = tzq_log(&format!("http/forged/{order}"), ["Hal", "Ivy"]);
        let mut seedless = log.clone();
        seedless.header.seed = None;
        let genuine = paifu_core::log::encode(&log, Encoding::Binary);
        let copy = paifu_core::log::encode(&seedless, Encoding::JsonLines);
        let steps = if order == "after" { [genuine.clone(), copy.clone()] } else { [copy.clone(), genuine.clone()] };
        let mut ids = vec![];
        let mut genuine_cert = None;
        for bytes in steps {
            let (s, b) = send(&app, upload(&f.olive, tournament, bytes.clone())).await;
            assert_eq!(s, StatusCode::OK, "{b}");
            let v = json(&b);
            assert_eq!(v["stored"]["new"], true);
            ids.push(v["stored"]["id"].as_i64().unwrap());
            if bytes == genuine {
                genuine_cert = Some(v["certificate"].clone());
                assert_eq!(v["stored"]["counted"], true);
            } else {
                assert_eq!(v["certificate"]["certificate"]["verdict"], "invalid");
            }
        }
        let genuine_id = if order == "after" { ids[0] } else { ids[1] };
        // The genuine game keeps its verdict and certificate, and shows first.
        let g = json(&get(&app, &format!("/api/games/{genuine_id}")).await.1);
        assert_eq!((g["valid"].clone(), g["counted"].clone()), (true.into(), true.into()));
        let entries: Vec<(i64, bool)> = g["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["id"].as_i64().unwrap(), e["valid"].as_bool().unwrap()))
            .collect();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0], (genuine_id, true));
        let c = json(&get(&app, &format!("/api/games/{genuine_id}/certificate")).await.1);
        assert_eq!(Some(c), genuine_cert);
        let page = get(&app, &format!("/games/{genuine_id}")).await.1;
        assert!(page.contains("Entries of this game") && page.contains("(this one)"), "{page}");
        // Only the genuine game counts in the standings.
        let t = json(&get(&app, &format!("/api/tournaments/{tournament}")).await.1);
        assert_eq!(t["counted"], 1, "{t}");
        assert_eq!(t["standings"].as_array().unwrap().iter().map(|s| s["games"].as_u64().unwrap()).sum::<u64>(), 2);
    }
}

#[actix_web::test]
async fn forms_log_in_with_a_token_and_carry_a_csrf_token() {
    let f = fixture();
    let app = app!(f);
    let form = |body: String| {
        test::TestRequest::post()
            .uri("/login")
            .insert_header(("content-type", "application/x-www-form-urlencoded"))
            .set_payload(body)
    };
    let (s, b) = get(&app, "/login").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("type=\"password\" name=\"token\""));
    // A wrong or revoked token logs nobody in.
    for t in ["pft_nope", f.revoked.as_str()] {
        let resp = test::call_service(&app, form(format!("token={t}&next=%2Fupload")).to_request()).await;
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
        assert!(resp.headers().get("set-cookie").is_none());
    }
    // A good one: a session cookie, HttpOnly and SameSite=Strict, and back where we were.
    let resp = test::call_service(&app, form(format!("token={}&next=%2Fupload", f.olive)).to_request()).await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    assert_eq!(resp.headers().get("location").unwrap(), "/upload");
    let set = resp.headers().get("set-cookie").unwrap().to_str().unwrap().to_owned();
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Strict"), "{set}");
    let cookie = set.split(';').next().unwrap().to_owned();
    // Somewhere else than this site is not where a log-in leads.
    let resp =
        test::call_service(&app, form(format!("token={}&next=https://evil.example/", f.olive)).to_request()).await;
    assert_eq!(resp.headers().get("location").unwrap(), "/");
    let (s, page) = send(&app, test::TestRequest::get().uri("/upload").insert_header(("cookie", cookie.clone()))).await;
    assert_eq!(s, StatusCode::OK);
    assert!(page.contains("Logged in as <b>olive</b>") && page.contains("type=\"file\""), "{page}");
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_owned();
    assert_eq!(csrf.len(), 64);
    let log = tzq_bytes("http/session", ["Jo", "Kim"], Encoding::Binary);
    let post = |csrf: Option<&str>, origin: Option<&str>| {
        let mut fields: Vec<(&str, Option<&str>, &[u8])> = vec![("log", Some("s.paifu"), &log)];
        if let Some(c) = csrf {
            fields.push(("csrf", None, c.as_bytes()));
        }
        let (ct, body) = multipart(&fields);
        let mut r = test::TestRequest::post()
            .uri("/upload")
            .insert_header(("content-type", ct))
            .insert_header(("cookie", cookie.clone()))
            .insert_header(("host", "localhost:8080"));
        if let Some(o) = origin {
            r = r.insert_header(("origin", o));
        }
        r.set_payload(body)
    };
    // Without the CSRF token, with another one, or from another site: 403, nothing stored.
    for (c, o) in [(None, None), (Some("0".repeat(64)), None), (Some(csrf.clone()), Some("http://evil.example"))] {
        let (s, b) = send(&app, post(c.as_deref(), o)).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{b}");
    }
    assert!(json(&get(&app, "/api/games?player=Jo").await.1)["games"]["total"] == 0);
    let (s, b) = send(&app, post(Some(&csrf), Some("http://localhost:8080"))).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert!(b.contains("Stored as game #"), "{b}");
    // The API does not take the cookie.
    let req =
        test::TestRequest::post().uri("/api/upload").insert_header(("cookie", cookie.clone())).set_payload(log.clone());
    assert_eq!(send(&app, req).await.0, StatusCode::UNAUTHORIZED);
    // A signed-in organiser can have a stored game signed from its page.
    let id = f.uncertified_id;
    let (_, page) =
        send(&app, test::TestRequest::get().uri(&format!("/games/{id}")).insert_header(("cookie", cookie.clone())))
            .await;
    assert!(page.contains("id=\"sign\""), "{page}");
    let sign = |c: &str| {
        test::TestRequest::post()
            .uri(&format!("/games/{id}/certificate"))
            .insert_header(("cookie", cookie.clone()))
            .insert_header(("content-type", "application/x-www-form-urlencoded"))
            .set_payload(format!("csrf={c}"))
    };
    assert_eq!(send(&app, sign("bad")).await.0, StatusCode::FORBIDDEN);
    assert_eq!(send(&app, sign(&csrf)).await.0, StatusCode::SEE_OTHER);
    assert_eq!(get(&app, &format!("/api/games/{id}/certificate")).await.0, StatusCode::OK);
    // Revoking the token ends its sessions.
    {
        let mut a = Archive::open(&f.config.db).unwrap();
        let t = a.token_by_secret(&f.olive).unwrap().unwrap();
        a.revoke_token(t.id).unwrap();
    }
    let (s, b) = send(&app, post(Some(&csrf), None)).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{b}");
    // Log out: the cookie is cleared.
    let resp = test::call_service(&app, test::TestRequest::post().uri("/logout").to_request()).await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    assert!(resp.headers().get("set-cookie").unwrap().to_str().unwrap().contains("Max-Age=0"));
}

#[actix_web::test]
async fn verify_checks_certificates() {
    let f = fixture();
    let app = app!(f);
    let (_, cert) = get(&app, &format!("/api/games/{}/certificate", f.valid_id)).await;
    // Against the archived log.
    let (ct, body) = multipart(&[("certificate", None, cert.as_bytes())]);
    let req =
        test::TestRequest::post().uri("/verify").insert_header(("content-type", ct)).set_payload(body).to_request();
    let resp = test::call_service(&app, req).await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(body_text(resp).await.contains("The certificate verifies"));
    // Against another log: refused.
    let other = tzq_bytes("http/other", ["A", "B"], Encoding::Binary);
    let (ct, body) = multipart(&[("certificate", None, cert.as_bytes()), ("log", Some("o.paifu"), &other)]);
    let req =
        test::TestRequest::post().uri("/api/verify").insert_header(("content-type", ct)).set_payload(body).to_request();
    let resp = test::call_service(&app, req).await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let v: serde_json::Value = serde_json::from_str(&body_text(resp).await).unwrap();
    assert_eq!(v["ok"], false);
    let msg = v["message"].as_str().unwrap();
    assert!(msg.contains("digest") || msg.contains("seats"), "{msg}");
    // Tampered.
    let tampered = cert.replacen("\"valid\"", "\"invalid\"", 1);
    let (ct, body) = multipart(&[("certificate_file", Some("c.cert.json"), tampered.as_bytes())]);
    let req =
        test::TestRequest::post().uri("/verify").insert_header(("content-type", ct)).set_payload(body).to_request();
    let resp = test::call_service(&app, req).await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(resp).await.contains("does not verify"));
    // Garbage and a bad key.
    let (ct, body) = multipart(&[("certificate", None, b"{nope")]);
    let req =
        test::TestRequest::post().uri("/api/verify").insert_header(("content-type", ct)).set_payload(body).to_request();
    assert_eq!(test::call_service(&app, req).await.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let (ct, body) = multipart(&[("certificate", None, cert.as_bytes()), ("key", None, b"zz")]);
    let req =
        test::TestRequest::post().uri("/api/verify").insert_header(("content-type", ct)).set_payload(body).to_request();
    assert_eq!(test::call_service(&app, req).await.status(), StatusCode::BAD_REQUEST);
    let (ct, body) = multipart(&[]);
    let req =
        test::TestRequest::post().uri("/verify").insert_header(("content-type", ct)).set_payload(body).to_request();
    assert_eq!(test::call_service(&app, req).await.status(), StatusCode::BAD_REQUEST);
}

#[::core::prelude::v1::test]
fn spawned_server_listens_and_stops() {
    let f = fixture();
    let running = paifu_web::spawn(f.config.clone(), "127.0.0.1:0").unwrap();
    assert_ne!(running.addr.port(), 0);
    let mut s = std::net::TcpStream::connect(running.addr).unwrap();
    use std::io::{Read, Write};
    s.write_all(b"GET /api/key HTTP/1.0\r\nHost: x\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    assert!(out.starts_with("HTTP/1.0 200") || out.starts_with("HTTP/1.1 200"), "{out}");
    running.stop();
}

#[actix_web::test]
async fn odd_requests_never_fail_the_server() {
    let f = fixture();
    let app = app!(f);
    let id = f.valid_id;
    for uri in [
        "/games?page=4294967296".to_owned(),
        "/games?page=0&per_page=0".to_owned(),
        "/games?per_page=100000".to_owned(),
        "/games?page=99999".to_owned(),
        format!("/games/{id}/view?step=99999999999999999999999"),
        format!("/games/{id}/view?step=18446744073709551615"),
        format!("/games/{id}/view?step="),
        "/games/-1/view".to_owned(),
        "/players/%FF%FE".to_owned(),
        "/players/%00".to_owned(),
        "/tournaments/%2F..%2F".to_owned(),
        "/api/games/1/steps/abc".to_owned(),
        "/api/games/1/steps/-5".to_owned(),
        "/api/players?page=0".to_owned(),
        "/games?game=%00&player=%F0%9F%80%84".to_owned(),
        "/games/1/certificate/extra".to_owned(),
    ] {
        let (s, _) = get(&app, &uri).await;
        assert!(s.is_success() || s.is_client_error(), "{uri} answered {s}");
    }
    // Wrong methods.
    let req = test::TestRequest::delete().uri("/games/1").to_request();
    let s = test::call_service(&app, req).await.status();
    assert!(s.is_client_error(), "{s}");
}

/// An excerpt (issue 15) is marked on its page, in the games list and in the viewer, never shown
/// as valid: two rounds cut out of a real Tenhou game (../shared/real-logs, read in place).
#[actix_web::test]
async fn an_excerpt_is_marked_as_one() {
    let f = fixture();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/real-logs/tenhou/2010081709gm-00a9-0000-fe3371ad.json");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["log"] = serde_json::Value::Array(v["log"].as_array().unwrap()[11..13].to_vec());
    let text = v.to_string();
    let imp = paifu_recorder::import::import_text("tenhou", &text, text.as_bytes()).unwrap();
    let id = {
        let mut a = Archive::open(&f.config.db).unwrap();
        a.ingest_bytes(&paifu_core::log::encode(&imp.log, Encoding::Binary), None, None).unwrap().id
    };
    let app = app!(f);
    let said = "excerpt: rounds South 2-1 to South 3-0 of an unknown game";
    let (s, b) = get(&app, &format!("/games/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("✔ excerpt") && !b.contains("✔ valid") && b.contains(said), "{b}");
    let (_, b) = get(&app, &format!("/games/{id}/view?step=end")).await;
    assert!(b.contains(&format!("<p class=\"note\" id=\"excerpt\">{said}</p>")), "{b}");
    let (_, b) = get(&app, "/games?game=riichi").await;
    assert!(b.contains("✔ excerpt"), "{b}");
}

#[actix_web::test]
async fn every_game_is_shown() {
    use paifu_recorder::samples::game_bytes;
    let f = fixture();
    let r = game_bytes::<paifu_core::riichi::Riichi>(
        "tenhou",
        "http/riichi",
        &["Ann", "Bo", "Cy Ré", "Dee"],
        Encoding::Binary,
    )
    .unwrap();
    let t =
        game_bytes::<paifu_core::tayu::Tayu>("standard", "http/tayu", &["Ann", "Bo", "Dee"], Encoding::Binary).unwrap();
    let (rid, tid) = {
        let mut a = Archive::open(&f.config.db).unwrap();
        (a.ingest_bytes(&r, None, None).unwrap().id, a.ingest_bytes(&t, None, None).unwrap().id)
    };
    let app = app!(f);
    for (id, needle) in [(rid, "Riichi mahjong"), (tid, "Ta Yü")] {
        let (s, b) = get(&app, &format!("/games/{id}")).await;
        assert_eq!(s, StatusCode::OK);
        assert!(b.contains(needle) && b.contains("✔ valid"), "{b}");
        for step in ["0", "30", "end"] {
            let (s, b) = get(&app, &format!("/games/{id}/view?step={step}")).await;
            assert_eq!(s, StatusCode::OK, "{id} {step}");
            assert!(b.contains("class=\"seat"), "{id} {step}: {b}");
        }
    }
    // Riichi hands are drawn as tiles; the Ta Yü board as a picture.
    let (_, b) = get(&app, &format!("/games/{rid}/view?step=30")).await;
    assert!(b.contains("class=\"t cm") || b.contains("class=\"t cp") || b.contains("class=\"t cs"), "{b}");
    let (_, b) = get(&app, &format!("/games/{tid}/view?step=40")).await;
    assert!(b.contains("<svg class=\"board\""), "{b}");
    // Every game's statistics on a player's page.
    let (s, b) = get(&app, "/players/Ann").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Tien Zi Que") && b.contains("Riichi mahjong") && b.contains("Ta Yü"), "{b}");
    assert!(b.contains("Deal-in rate") && b.contains("Pieces placed per game"));
    let (_, b) = get(&app, "/games?game=riichi").await;
    assert!(b.contains("1 game matches"));
}

#[actix_web::test]
async fn forms_are_bounded() {
    let f = fixture();
    let app = app!(f);
    let many: Vec<(String, Vec<u8>)> = (0..20).map(|i| (format!("f{i}"), b"x".to_vec())).collect();
    let fields: Vec<(&str, Option<&str>, &[u8])> = many.iter().map(|(n, v)| (n.as_str(), None, v.as_slice())).collect();
    let (ct, body) = multipart(&fields);
    let req = test::TestRequest::post()
        .uri("/upload")
        .insert_header(("content-type", ct))
        .insert_header(bearer(&f.uploader))
        .set_payload(body)
        .to_request();
    let resp = test::call_service(&app, req).await;
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    assert!(body_text(resp).await.contains("more than 16 fields"));
    let chunk = vec![b'y'; 60 * 1024];
    let fields: Vec<(&str, Option<&str>, &[u8])> =
        ["a", "b", "c"].iter().map(|n| (*n, None, chunk.as_slice())).collect();
    let (ct, body) = multipart(&fields);
    let req =
        test::TestRequest::post().uri("/verify").insert_header(("content-type", ct)).set_payload(body).to_request();
    assert_eq!(test::call_service(&app, req).await.status(), StatusCode::PAYLOAD_TOO_LARGE);
}

/// One HTTP/1.1 request on its own connection: the status.
fn raw_post(addr: std::net::SocketAddr, path: &str, token: &str, body: &[u8]) -> u16 {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).and_then(|_| s.write_all(body)).expect("send");
    let mut out = Vec::new();
    s.read_to_end(&mut out).expect("read");
    String::from_utf8_lossy(&out[..out.len().min(16)]).split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0)
}

#[::core::prelude::v1::test]
fn concurrent_uploads_all_succeed() {
    // Issue 12, item 4: of 660 concurrent uploads, 22 answered 500. Here 240 uploads from 24
    // clients at once, every log sent twice (by two clients), into one tournament, while an
    // ingest writes the same archive from another connection.
    let f = fixture();
    let logs: Vec<Vec<u8>> =
        (0..120).map(|i| tzq_bytes(&format!("http/many/{i}"), ["Lu", "Mo"], Encoding::Binary)).collect();
    let running = paifu_web::spawn(f.config.clone(), "127.0.0.1:0").unwrap();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let side = s.spawn(|| {
            let mut a = Archive::open(&f.config.db).unwrap();
            for i in 0..40 {
                a.ingest_bytes(&tzq_bytes(&format!("http/side/{i}"), ["Ny", "Os"], Encoding::Binary), None, None)
                    .unwrap();
            }
        });
        let clients: Vec<_> = (0..24)
            .map(|_| {
                s.spawn(|| {
                    let mut out = vec![];
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if k >= 2 * logs.len() {
                            return out;
                        }
                        let path = "/api/upload?tournament=Spring%20Cup";
                        out.push(raw_post(running.addr, path, &f.olive, &logs[k % logs.len()]));
                    }
                })
            })
            .collect();
        side.join().unwrap();
        clients.into_iter().flat_map(|c| c.join().unwrap()).collect()
    });
    running.stop();
    assert_eq!(statuses.len(), 240);
    assert!(statuses.iter().all(|&s| s == 200), "{:?}", statuses.iter().filter(|&&s| s != 200).collect::<Vec<_>>());
    let a = Archive::open(&f.config.db).unwrap();
    let t = a.tournaments().unwrap().into_iter().find(|t| t.name == "Spring Cup").unwrap();
    assert_eq!((t.games, t.counted), (6 + 120, 6 + 120));
    assert_eq!(a.summary().unwrap().games, 8 + 120 + 40);
}

#[actix_web::test]
async fn names_with_a_slash_work_everywhere() {
    // Issue 16: a player or tournament named "A/B" had no page (the "/" split the path).
    let f = fixture();
    let mut a = Archive::open(&f.config.db).unwrap();
    a.ensure_tournament("Cup 1/2", None, &[]).unwrap();
    let p = prepare(&tzq_bytes("http/slash", ["Ann/Bo", "Dee"], Encoding::Binary));
    let id = a.store(&p, None, Some("Cup 1/2"), Origin::CommandLine).unwrap().id;
    drop(a);
    let app = app!(f);
    let (s, b) = get(&app, &format!("/games/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("href=\"/players/Ann%2FBo\""), "{b}");
    let (s, b) = get(&app, "/players/Ann%2FBo").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert!(b.contains("<h1>Ann/Bo</h1>"), "{b}");
    let (s, b) = get(&app, "/api/players/Ann%2FBo").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(json(&b)["player"]["name"], "Ann/Bo", "{b}");
    let (s, b) = get(&app, "/games?player=Ann%2FBo").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains(&format!("/games/{id}\"")), "{b}");
    let (s, b) = get(&app, "/tournaments/Cup%201%2F2").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert!(b.contains("Cup 1/2"), "{b}");
    let (s, b) = get(&app, "/api/tournaments/Cup%201%2F2").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    // A name that is not there is still a 404, with or without a slash.
    assert_eq!(get(&app, "/players/Ann%2FCy").await.0, StatusCode::NOT_FOUND);
    // Search finds it by the start of its name, in any case, and links to its page.
    for q in ["ann%2F", "ANN%2FB", "Ann%2FBo"] {
        let (s, b) = get(&app, &format!("/players?q={q}")).await;
        assert_eq!(s, StatusCode::OK);
        assert!(b.contains("href=\"/players/Ann%2FBo\"") && !b.contains(">Dee<"), "{q}: {b}");
        let v = json(&get(&app, &format!("/api/players?q={q}")).await.1);
        assert_eq!(v[0]["name"], "Ann/Bo", "{q}: {v}");
        assert_eq!(v.as_array().unwrap().len(), 1, "{q}: {v}");
    }
    assert!(get(&app, "/players?q=nn%2F").await.1.contains("No players match"));
    // Paging links keep the name whole: more of its games, a page at a time.
    let mut a = Archive::open(&f.config.db).unwrap();
    let more: Vec<i64> = (0..4)
        .map(|i| {
            let p = prepare(&tzq_bytes(&format!("http/slash/{i}"), ["Dee", "Ann/Bo"], Encoding::Binary));
            a.store(&p, None, Some("Cup 1/2"), Origin::CommandLine).unwrap().id
        })
        .collect();
    drop(a);
    let (_, b) = get(&app, "/games?player=Ann%2FBo&per_page=2").await;
    assert!(b.contains("Games 1–2 of 5"), "{b}");
    let next = link(&b, "next").expect("an older link");
    assert!(next.contains("player=Ann%2FBo") && next.contains(&format!("after={}", more[2])), "{next}");
    let (_, b) = get(&app, &next).await;
    assert_eq!(listed(&b), [more[1], more[0]]);
    assert!(b.contains("Games 3–4 of 5"), "{b}");
    let prev = link(&b, "prev").expect("a newer link");
    assert!(prev.contains("player=Ann%2FBo"), "{prev}");
    assert_eq!(listed(&get(&app, &prev).await.1), [more[3], more[2]]);
    let (_, b) = get(&app, "/games?tournament=Cup%201%2F2&per_page=2").await;
    let next = link(&b, "next").expect("an older link");
    assert!(next.contains("tournament=Cup%201%2F2"), "{next}");
    assert!(get(&app, &next).await.1.contains("Games 3–4 of 5"));
    // The player's page lists their latest games, and says they are all there.
    let (_, b) = get(&app, "/players/Ann%2FBo").await;
    assert!(b.contains("Games 1–5 of 5") && link(&b, "next").is_none(), "{b}");
    let v = json(&get(&app, "/api/games?player=Ann%2FBo&per_page=2").await.1);
    assert!(v["next"].as_str().unwrap().contains("player=Ann%2FBo&per_page=2&after="), "{v}");
}

/// The `href` of the link with `rel` in a page, decoded from HTML (`&amp;`).
fn link(b: &str, rel: &str) -> Option<String> {
    let at = b.find(&format!("rel=\"{rel}\" href=\""))? + rel.len() + 13;
    Some(b[at..at + b[at..].find('"')?].replace("&amp;", "&"))
}

/// The game numbers a games page lists, in order.
fn listed(b: &str) -> Vec<i64> {
    b.split("<tr><td><a href=\"/games/").skip(1).filter_map(|s| s.split('"').next()?.parse().ok()).collect()
}

#[actix_web::test]
async fn pages_of_games_agree_with_the_count() {
    // Issue 16: `/games?page=31` said "1500 games match" over "No games match." and "Page 31 of 30".
    let f = fixture();
    let app = app!(f);
    let (s, b) = get(&app, "/games?per_page=3&page=4").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("8 games match") && !b.contains("No games match"), "{b}");
    assert!(
        b.contains("Page 3 of 3") && b.contains("Games 7–8 of 8"),
        "an old link past the end shows the last page: {b}"
    );
    assert_eq!(listed(&b).len(), 2);
    // Following "older" from the first page visits every game once, newest first, and the
    // counts shown agree with the rows on each page; "newer" walks back the same pages.
    let mut seen: Vec<i64> = Vec::new();
    let mut pages: Vec<Vec<i64>> = Vec::new();
    let mut next = Some("/games?per_page=3".to_owned());
    while let Some(uri) = next {
        let (s, b) = get(&app, &uri).await;
        assert_eq!(s, StatusCode::OK, "{uri}: {b}");
        let rows = listed(&b);
        let from = seen.len() + 1;
        assert!(b.contains(&format!("Games {from}–{} of 8", from + rows.len() - 1)), "{uri}: {b}");
        seen.extend(&rows);
        pages.push(rows);
        next = link(&b, "next");
        if let Some(n) = &next {
            assert!(n.contains("after=") && !n.split(['?', '&']).any(|p| p.starts_with("page=")), "{n}");
        }
    }
    assert_eq!(seen.len(), 8);
    assert!(seen.windows(2).all(|w| w[0] > w[1]), "{seen:?}");
    let (_, b) = get(&app, &format!("/games?per_page=3&after={}", pages[1][2])).await;
    let back = link(&b, "prev").expect("a newer link");
    assert!(back.contains("before="), "{back}");
    assert_eq!(listed(&get(&app, &back).await.1), pages[1]);
    // The API gives the same pages, with its links.
    let (_, b) = get(&app, "/api/games?per_page=3").await;
    let v = json(&b);
    assert_eq!(v["games"]["total"], 8);
    assert_eq!(v["games"]["first"], 1);
    assert!(v["previous"].is_null(), "{b}");
    let next = v["next"].as_str().expect("a next link").to_owned();
    assert!(next.starts_with("/api/games?") && next.contains(&format!("after={}", pages[0][2])), "{next}");
    let v = json(&get(&app, &next).await.1);
    let ids: Vec<i64> = v["games"]["rows"].as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, pages[1]);
    assert_eq!(v["games"]["first"], 4);
    // A cursor that is not a game number is a bad request, said so.
    let (s, b) = get(&app, "/games?after=soon").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");
}

#[actix_web::test]
async fn the_viewer_follows_a_seat_of_the_game_only() {
    let f = fixture();
    let app = app!(f);
    let (s, b) = get(&app, &format!("/games/{}/view?step=3&seat=1", f.valid_id)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("id=\"next-own\"") && b.contains("&amp;seat=1\""), "{b}");
    let (s, b) = get(&app, &format!("/games/{}/view?seat=7", f.valid_id)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(b.contains("seat 7 is not in this game"), "{b}");
    let (s, b) = get(&app, &format!("/games/{}/view?seat=east", f.valid_id)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(b.contains("seat must be a seat number"), "{b}");
}

/// A name that is markup, in every character HTML treats specially.
const HOSTILE: &str = "<script>alert(1)</script>\"'&";

/// What a page must never hold for [`HOSTILE`]: the name as markup, or its quote closing an
/// attribute.
fn assert_escaped(page: &str, what: &str) {
    assert!(!page.contains("<script>alert(1)"), "{what}: the name came out as markup: {page}");
    assert!(!page.contains("</script>\"'&"), "{what}: the name came out unescaped: {page}");
}

#[actix_web::test]
async fn hostile_names_come_out_escaped() {
    let f = fixture();
    let mut a = Archive::open(&f.config.db).unwrap();
    a.ensure_tournament(HOSTILE, None, &[]).unwrap();
    let p = prepare(&tzq_bytes("http/hostile", [HOSTILE, "Dee"], Encoding::Binary));
    let id = a.store(&p, None, Some(HOSTILE), Origin::CommandLine).unwrap().id;
    drop(a);
    let app = app!(f);
    let text = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;'&amp;";
    let path = "%3Cscript%3Ealert%281%29%3C%2Fscript%3E%22%27%26";
    // The players list, searched for the name and not.
    for uri in ["/players".to_owned(), format!("/players?q={path}")] {
        let (s, b) = get(&app, &uri).await;
        assert_eq!(s, StatusCode::OK, "{uri}: {b}");
        assert_escaped(&b, &uri);
        assert!(b.contains(&format!("<a href=\"/players/{path}\">{text}</a>")), "{uri}: {b}");
    }
    let (_, b) = get(&app, &format!("/players?q={path}")).await;
    assert!(b.contains(&format!("name=\"q\" value=\"{text}\"")), "the search field keeps the name: {b}");
    // The player's page: heading, links, charts' tables, latest games.
    let (s, b) = get(&app, &format!("/players/{path}")).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_escaped(&b, "player page");
    assert!(b.contains(&format!("<h1>{text}</h1>")) && b.contains(&format!("/games?player={path}")), "{b}");
    assert!(b.contains(&format!("/games/{id}\"")), "{b}");
    // The games page filtered by player and by tournament: the filter's fields hold the name.
    let (s, b) = get(&app, &format!("/games?player={path}&tournament={path}")).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_escaped(&b, "games filter");
    assert!(b.contains(&format!("name=\"player\" value=\"{text}\"")), "{b}");
    assert!(b.contains(&format!("name=\"tournament\" value=\"{text}\"")), "{b}");
    assert!(b.contains("1 game matches.") && b.contains(&format!("/games/{id}\"")), "{b}");
    // A name that is not there: the error page names it, escaped.
    for uri in [format!("/players/{path}x"), format!("/tournaments/{path}x")] {
        let (s, b) = get(&app, &uri).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{uri}: {b}");
        assert_escaped(&b, &uri);
        assert!(b.contains("&lt;script&gt;alert(1)"), "{uri}: {b}");
    }
    // The tournaments list and the tournament's page.
    for uri in ["/tournaments".to_owned(), format!("/tournaments/{path}"), "/".to_owned(), format!("/games/{id}")] {
        let (s, b) = get(&app, &uri).await;
        assert_eq!(s, StatusCode::OK, "{uri}: {b}");
        assert_escaped(&b, &uri);
        assert!(b.contains(text), "{uri}: the name is shown: {b}");
    }
}
