//! Every route, through actix-web's test service.

use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::{test, App};
use paifu_core::log::Encoding;
use paifu_recorder::archive::Archive;
use paifu_recorder::samples::{tzq_bytes, tzq_log};
use paifu_web::{routes, state, Config};

struct Fixture {
    _dir: tempfile::TempDir,
    config: Config,
    valid_id: i64,
    invalid_id: i64,
    junk_id: i64,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("web.db");
    let mut a = Archive::open(&db).unwrap();
    let names = [["Ann", "Bo"], ["Bo", "Cy Ré"], ["Cy Ré", "Ann"]];
    let mut valid_id = 0;
    for i in 0..6 {
        let s = a
            .ingest_bytes(&tzq_bytes(&format!("http/{i}"), names[i % 3], Encoding::Binary), None, Some("Spring Cup"))
            .unwrap();
        valid_id = s.id;
    }
    let mut bad = tzq_log("http/bad", ["Ann", "Bo"]);
    bad.records.truncate(bad.records.len() / 2);
    let invalid_id = a.ingest_bytes(&paifu_core::log::encode(&bad, Encoding::JsonLines), None, None).unwrap().id;
    let junk_id = a.ingest_bytes(b"not a log", Some("junk.txt"), None).unwrap().id;
    let mut config = Config::new(&db);
    config.max_upload = 64 * 1024;
    Fixture { _dir: dir, config, valid_id, invalid_id, junk_id }
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
    let (s, b) = get(&app, &format!("/games/{}", f.invalid_id)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("class=\"fault\"") && b.contains("truncated"));
    let (s, b) = get(&app, &format!("/games/{}", f.junk_id)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("bad_encoding"));
    let (s, b) = get(&app, &format!("/games/{}/view", f.valid_id)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Step <b id=\"step\">0</b>") && b.contains("class=\"t "), "{b}");
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
    let (s, _) = get(&app, &format!("/games/{}/view", f.junk_id)).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, b) = get(&app, "/players").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("/players/Cy%20R%C3%A9"));
    let (s, b) = get(&app, "/players?q=ann").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Ann") && !b.contains(">Bo<"));
    let (s, b) = get(&app, "/players/Cy%20R%C3%A9").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("<svg") && b.contains("Placements of Cy Ré") && b.contains("Win rate"), "{b}");
    let (s, b) = get(&app, "/tournaments").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Spring Cup"));
    let (s, b) = get(&app, "/tournaments/Spring%20Cup").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("Standings") && b.contains("Average place"));
    let (s, b) = get(&app, "/upload").await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.contains("type=\"file\""));
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
    let (s, _) = get(&app, &format!("/games/{}/certificate", f.junk_id)).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
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
    assert_eq!(j(&b)["games"]["total"], 2);
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
    let (_, b) = get(&app, "/api/players").await;
    assert_eq!(j(&b).as_array().unwrap().len(), 3);
    let (_, b) = get(&app, "/api/players/Ann").await;
    assert_eq!(j(&b)["kinds"][0]["game"], "tzq");
    let (_, b) = get(&app, "/api/tournaments").await;
    assert_eq!(j(&b)[0]["name"], "Spring Cup");
    let (_, b) = get(&app, "/api/tournaments/Spring%20Cup").await;
    assert_eq!(j(&b)["standings"].as_array().unwrap().len(), 3);
    // Certificates: made on demand, signed by the server's key, and the same when asked again.
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
    assert!(paifu_core::validate_bytes(&log).verdict.is_valid());
}

#[actix_web::test]
async fn upload_stores_and_answers_the_verdict() {
    let f = fixture();
    let app = app!(f);
    // A new valid log through the form.
    let bytes = tzq_bytes("http/upload", ["Dee", "Eve"], Encoding::JsonLines);
    let (ct, body) = multipart(&[("log", Some("new.paifu.jsonl"), &bytes), ("tournament", None, b"Autumn")]);
    let req =
        test::TestRequest::post().uri("/upload").insert_header(("content-type", ct)).set_payload(body).to_request();
    let resp = test::call_service(&app, req).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let b = body_text(resp).await;
    assert!(b.contains("id=\"verdict\"") && b.contains("✔ valid") && b.contains("Stored as a new game"), "{b}");
    // The same again through the API: stored once.
    let req = test::TestRequest::post().uri("/api/upload?name=x.paifu.jsonl").set_payload(bytes.clone()).to_request();
    let resp = test::call_service(&app, req).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let v: serde_json::Value = serde_json::from_str(&body_text(resp).await).unwrap();
    assert_eq!(v["stored"]["new"], false);
    assert_eq!(v["stored"]["valid"], true);
    assert!(v["certificate"]["signature"].is_string());
    // A bad file: stored with its fault, and said so.
    let (ct, body) = multipart(&[("log", Some("bad.paifu"), b"\x00\x01garbage")]);
    let req =
        test::TestRequest::post().uri("/upload").insert_header(("content-type", ct)).set_payload(body).to_request();
    let b = body_text(test::call_service(&app, req).await).await;
    assert!(b.contains("✘ invalid") && b.contains("bad_encoding"), "{b}");
    // Too large.
    let big = vec![b'x'; 70 * 1024];
    let (ct, body) = multipart(&[("log", Some("big.paifu"), &big)]);
    let req =
        test::TestRequest::post().uri("/upload").insert_header(("content-type", ct)).set_payload(body).to_request();
    let resp = test::call_service(&app, req).await;
    assert_eq!(resp.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert!(body_text(resp).await.contains("larger than"));
    let req = test::TestRequest::post().uri("/api/upload").set_payload(big).to_request();
    assert_eq!(test::call_service(&app, req).await.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // Empty, missing field, not multipart.
    let req = test::TestRequest::post().uri("/api/upload").to_request();
    assert_eq!(test::call_service(&app, req).await.status(), StatusCode::BAD_REQUEST);
    let (ct, body) = multipart(&[("other", None, b"x")]);
    let req =
        test::TestRequest::post().uri("/upload").insert_header(("content-type", ct)).set_payload(body).to_request();
    assert_eq!(test::call_service(&app, req).await.status(), StatusCode::BAD_REQUEST);
    let req = test::TestRequest::post()
        .uri("/upload")
        .insert_header(("content-type", "text/plain"))
        .set_payload("hi")
        .to_request();
    assert_eq!(test::call_service(&app, req).await.status(), StatusCode::BAD_REQUEST);
    let (_, b) = get(&app, "/tournaments/Autumn").await;
    assert!(b.contains("Dee"));
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
    let req =
        test::TestRequest::post().uri("/upload").insert_header(("content-type", ct)).set_payload(body).to_request();
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
