//! Games in progress: `/live`, `/live/{id}` and their JSON, through actix-web's test service,
//! over live rows written into an archive as a host writes them.

use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::{test, App};
use paifu_core::log::{encode, header_line, record_line, Encoding, Log};
use paifu_core::tzq;
use paifu_recorder::archive::Archive;
use paifu_recorder::samples::tzq_log;
use paifu_web::{routes, state, Config};

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

/// An hour ago: played long before any delay's cut-off.
fn long_ago() -> i64 {
    now_ms() - 3_600_000
}

struct Live {
    _dir: tempfile::TempDir,
    db: std::path::PathBuf,
    log: Log<tzq::Action>,
    seed: String,
}

impl Live {
    fn new(label: &str) -> Live {
        Live::with_names(label, ["Ann", "Bo"])
    }

    fn with_names(label: &str, names: [&str; 2]) -> Live {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("live.db");
        Archive::open(&db).unwrap();
        let log = tzq_log(label, names);
        let seed = log.header.seed.unwrap().to_hex();
        Live { _dir: dir, db, log, seed }
    }

    fn archive(&self) -> Archive {
        Archive::open(&self.db).unwrap()
    }

    /// Begins the game with its header as written (the seed in it, by mistake, unless
    /// `seedless`) and plays records `0..played[i]` at the times given.
    fn play(&self, key: &str, seedless: bool, times: &[i64]) -> i64 {
        let mut a = self.archive();
        let mut h = self.log.header.clone();
        if seedless {
            h.seed = None;
        }
        let id = a.live_begin(key, &header_line(&h), long_ago()).unwrap();
        for (i, t) in times.iter().enumerate() {
            a.live_record(id, i as u32, &record_line(&self.log.records[i]), *t).unwrap();
        }
        id
    }

    fn config(&self, delay: u64) -> Config {
        let mut c = Config::new(&self.db);
        c.live_delay_secs = delay;
        c
    }
}

macro_rules! app {
    ($config:expr) => {
        test::init_service(App::new().app_data(state($config).unwrap()).configure(routes)).await
    };
}

async fn get(
    app: &impl actix_web::dev::Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error>,
    uri: &str,
) -> (StatusCode, String) {
    let resp = test::call_service(app, test::TestRequest::get().uri(uri).to_request()).await;
    let status = resp.status();
    (status, String::from_utf8(test::read_body(resp).await.to_vec()).unwrap())
}

fn json(b: &str) -> serde_json::Value {
    serde_json::from_str(b).unwrap_or_else(|e| panic!("{e}: {b}"))
}

#[actix_web::test]
async fn a_game_in_progress_is_shown_at_its_latest_position_and_never_with_its_seed() {
    let live = Live::new("live-web/positions");
    let played = 9;
    let id = live.play("arena/game-0001", false, &vec![long_ago(); played]);
    // The whole game stored, to compare the positions with the viewer's of a stored game.
    let stored = live.archive().ingest_bytes(&encode(&live.log, Encoding::Binary), None, None).unwrap().id;
    let app = app!(live.config(0));

    let (status, list) = get(&app, "/live").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert!(list.contains(&format!("<a href=\"/live/{id}\">#{id}</a>")), "{list}");
    assert!(list.contains("Ann, Bo") && list.contains("arena/game-0001"), "{list}");
    assert!(list.contains(&format!("<td class=\"n\">{played}</td>")), "{list}");
    assert!(list.contains("<a href=\"/live\" aria-current=\"page\">Live</a>"), "in the navigation: {list}");
    let (_, overview) = get(&app, "/").await;
    assert!(overview.contains("<a href=\"/live\">Live</a>"), "every page links it");
    let j = json(&get(&app, "/api/live").await.1);
    assert_eq!(j["delay_secs"], 0);
    assert_eq!(j["games"][0]["id"], id);
    assert_eq!(j["games"][0]["seats"], serde_json::json!(["Ann", "Bo"]));
    assert_eq!((j["games"][0]["records"].as_u64(), j["games"][0]["held_back"].as_u64()), (Some(9), Some(0)));

    // The latest position, as the stored game's viewer shows the same step.
    let (status, body) = get(&app, &format!("/api/live/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let j = json(&body);
    let want = json(&get(&app, &format!("/api/games/{stored}/steps/{played}")).await.1);
    assert_eq!(j["position"]["step"], played);
    assert_eq!(j["position"]["steps"], played);
    assert_eq!(j["position"]["view"], want["view"]);
    assert_eq!(j["position"]["last"], want["last"]);
    assert!(j["position"]["fault"].is_null(), "a game in progress is no truncated log: {}", j["position"]["fault"]);
    assert_eq!(j["moves"].as_array().unwrap().len(), played);
    assert_eq!(j["moves"][3]["action"], live.log.records[3].action.to_string());
    // An earlier step, and only the moves after those seen.
    let j = json(&get(&app, &format!("/api/live/{id}?step=4&after=7")).await.1);
    assert_eq!(j["position"]["view"], json(&get(&app, &format!("/api/games/{stored}/steps/4")).await.1)["view"]);
    assert_eq!(j["moves"].as_array().unwrap().iter().map(|m| m["seq"].as_u64().unwrap()).collect::<Vec<_>>(), [7, 8]);

    let (status, page) = get(&app, &format!("/live/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains(&format!("Step <b id=\"step\">{played}</b> of {played}")), "{page}");
    assert!(page.contains(&format!("href=\"/live/{id}?step=0\"")), "the viewer's steps stay live: {page}");
    assert!(!page.contains("id=\"fault\""), "{page}");
    let follow = format!("id=\"live-follow\" data-game=\"{id}\" data-records=\"{played}\" data-every=\"3000\"");
    assert!(page.contains(&follow) && page.contains("<script src=\"/static/live.js\""), "it follows the game: {page}");
    assert_eq!(page.matches("<script").count(), page.matches("<script src=\"/static/").count(), "no inline script");
    assert!(page.contains("<noscript><meta http-equiv=\"refresh\" content=\"10\"></noscript>"), "{page}");
    assert!(page.contains(&format!("<span id=\"moves\">{played}</span> moves so far")), "{page}");
    let (_, earlier) = get(&app, &format!("/live/{id}?step=2&seat=1")).await;
    assert!(earlier.contains("Step <b id=\"step\">2</b>"), "{earlier}");
    // (The viewer's own script fetches steps too; what must be absent is the poll for new moves.)
    assert!(
        !earlier.contains("/static/live.js") && !earlier.contains("live-follow"),
        "a step asked for stays put: {earlier}"
    );

    // The host sent the seed: it is nowhere.
    for uri in ["/live".to_owned(), "/api/live".into(), format!("/live/{id}"), format!("/api/live/{id}")] {
        let (_, b) = get(&app, &uri).await;
        assert!(!b.contains(&live.seed), "{uri} shows the seed");
    }
    let (text, _) = live.archive().live_log(id, None).unwrap().unwrap();
    assert!(!text.contains(&live.seed));
}

#[actix_web::test]
async fn a_delay_holds_back_the_moves_played_since() {
    let live = Live::new("live-web/delay");
    let mut times = vec![long_ago(); 5];
    times.extend([now_ms(); 4]);
    let id = live.play("arena/game-0002", false, &times);
    let app = app!(live.config(300));
    let j = json(&get(&app, &format!("/api/live/{id}")).await.1);
    assert_eq!(j["delay_secs"], 300);
    assert_eq!((j["game"]["records"].as_u64(), j["game"]["held_back"].as_u64()), (Some(5), Some(4)));
    assert_eq!(j["position"]["step"], 5);
    assert_eq!(j["position"]["steps"], 5, "the moves held back are not steps");
    assert_eq!(j["moves"].as_array().unwrap().len(), 5);
    let (_, page) = get(&app, &format!("/live/{id}")).await;
    assert!(page.contains("Shown with a delay of 300 s") && page.contains("held back (4 moves now)"), "{page}");
    assert!(page.contains("Step <b id=\"step\">5</b> of 5"), "{page}");
    // A step past the cut-off shows the last one before it.
    let j = json(&get(&app, &format!("/api/live/{id}?step=8")).await.1);
    assert_eq!(j["position"]["step"], 5);
    let (_, list) = get(&app, "/live").await;
    assert!(list.contains("<td class=\"n\">5 (+4 held back)</td>"), "{list}");
    let j = json(&get(&app, "/api/live").await.1);
    assert_eq!((j["games"][0]["records"].as_u64(), j["games"][0]["held_back"].as_u64()), (Some(5), Some(4)));
    // Without the delay, every move.
    let app = app!(live.config(0));
    let j = json(&get(&app, &format!("/api/live/{id}")).await.1);
    assert_eq!((j["game"]["records"].as_u64(), j["position"]["step"].as_u64()), (Some(9), Some(9)));
    let (_, page) = get(&app, &format!("/live/{id}")).await;
    assert!(!page.contains("id=\"delay\""), "{page}");
}

#[actix_web::test]
async fn a_game_that_ends_leaves_the_live_pages_for_the_games_list() {
    let live = Live::new("live-web/end");
    let n = live.log.records.len();
    let id = live.play("arena/game-0003", false, &vec![long_ago(); n]);
    let app = app!(live.config(0));
    let j = json(&get(&app, &format!("/api/live/{id}")).await.1);
    assert_eq!(j["position"]["step"], n);
    // Its last record played: the game is over on the page, not faulty.
    assert!(j["position"]["fault"].is_null());
    assert!(j["position"]["view"]["to_act"].as_array().unwrap().is_empty());
    let mut a = live.archive();
    a.live_end(id).unwrap();
    let stored = a.ingest_bytes(&encode(&live.log, Encoding::JsonLines), None, None).unwrap();
    let (status, body) = get(&app, &format!("/live/{id}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body.contains(&format!("there is no game in progress #{id}: it has ended")), "{body}");
    let (status, body) = get(&app, &format!("/api/live/{id}")).await;
    assert_eq!((status, json(&body)["status"].as_u64()), (StatusCode::NOT_FOUND, Some(404)));
    let (_, list) = get(&app, "/live").await;
    assert!(list.contains("No game is in progress") && !list.contains(&format!("/live/{id}\"")), "{list}");
    assert!(json(&get(&app, "/api/live").await.1)["games"].as_array().unwrap().is_empty());
    let (_, games) = get(&app, "/games").await;
    assert!(games.contains(&format!("<a href=\"/games/{}\">#{}</a>", stored.id, stored.id)), "{games}");
}

#[actix_web::test]
async fn without_the_seed_the_moves_are_listed() {
    let live = Live::new("live-web/seedless");
    let id = live.play("arena/game-0004", true, &[long_ago(); 6]);
    let app = app!(live.config(0));
    let (status, body) = get(&app, &format!("/api/live/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let j = json(&body);
    assert!(j["position"].is_null());
    assert!(j["note"].as_str().unwrap().contains("only the seed's commitment"), "{j}");
    assert_eq!(j["moves"].as_array().unwrap().len(), 6);
    let (_, page) = get(&app, &format!("/live/{id}")).await;
    assert!(page.contains("id=\"moves-list\"") && page.contains("only the seed's commitment"), "{page}");
    let last = live.log.records[5].action.to_string();
    assert!(page.contains(&format!("<code>{last}</code>")), "{page}");
}

#[actix_web::test]
async fn bad_live_requests_are_clear() {
    let live = Live::new("live-web/bad");
    let id = live.play("arena/game-0005", false, &[long_ago(); 2]);
    let app = app!(live.config(0));
    let (status, body) = get(&app, "/live/abc").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body.contains("is not the number of a game in progress"), "{body}");
    for (uri, says) in [
        (format!("/api/live/{id}?after=x"), "after must be a number of records already seen, not \\\"x\\\""),
        (format!("/api/live/{id}?seat=east"), "seat must be a seat number"),
        (format!("/api/live/{id}?step=soon"), "step must be a number or end"),
    ] {
        let (status, body) = get(&app, &uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}");
        assert!(body.contains(says), "{uri}: {body}");
    }
    let (status, body) = get(&app, &format!("/live/{id}?seat=5")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("seat 5 is not in this game: its seats are 0 to 1"), "{body}");
    let (status, _) = get(&app, "/api/live/999").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// A riichi game's live rows as a host writes them (no seed), with a timeout before one of its
/// passes (as the host records it when a bot is late in a claim window) and one before a
/// discard: the records, as lines.
fn riichi_lines() -> (String, Vec<String>) {
    use paifu_core::log::Record;
    use paifu_core::riichi::{Action, Riichi};
    let log =
        paifu_recorder::samples::game_log::<Riichi>("standard", "live-web/passes", &["Ann", "Bo", "Cy", "Di"]).unwrap();
    let mut h = log.header.clone();
    h.seed = None;
    let timeout = |seat| Record {
        seq: 0,
        seat,
        action: "incident timeout: no answer within 5000 ms".parse::<Action>().unwrap(),
        claim: None,
    };
    let mut records: Vec<Record<Action>> = Vec::new();
    let (mut before_pass, mut before_discard) = (false, false);
    for r in log.records.iter().take(300) {
        let text = r.action.to_string();
        if !before_pass && text == "pass" {
            records.push(timeout(r.seat));
            before_pass = true;
        } else if !before_discard && text.starts_with("discard") {
            records.push(timeout(r.seat));
            before_discard = true;
        }
        records.push(r.clone());
    }
    for (i, r) in records.iter_mut().enumerate() {
        r.seq = i as u32;
    }
    (header_line(&h), records.iter().map(record_line).collect())
}

#[actix_web::test]
async fn a_live_poll_shows_no_pass_nor_an_incident_that_tells_a_seat_was_asked() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("live.db");
    let (header, lines) = riichi_lines();
    let mut a = Archive::open(&db).unwrap();
    let id = a.live_begin("arena/game-0001", &header, long_ago()).unwrap();
    for (i, l) in lines.iter().enumerate() {
        a.live_record(id, i as u32, l, long_ago()).unwrap();
    }
    let passes = lines.iter().filter(|l| l.contains("\"action\":\"pass\"")).count();
    assert!(passes > 10, "the game so far has passes: {passes}");
    let mut config = Config::new(&db);
    config.live_delay_secs = 0;
    let app = app!(config);
    let j = json(&get(&app, &format!("/api/live/{id}")).await.1);
    let moves = j["moves"].as_array().unwrap();
    assert!(moves.iter().all(|m| m["action"] != "pass"), "{j}");
    let incidents: Vec<&serde_json::Value> =
        moves.iter().filter(|m| m["action"].as_str().unwrap().starts_with("incident")).collect();
    assert_eq!(incidents.len(), 1, "the timeout on a seat's own turn is seen, the one in a claim window not: {j}");
    assert_eq!(moves.len(), lines.len() - passes - 1);
    assert_eq!(j["game"]["records"].as_u64(), Some(moves.len() as u64));
    let seqs: Vec<u64> = moves.iter().map(|m| m["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, (0..moves.len() as u64).collect::<Vec<_>>(), "numbered among the moves shown");
    let (_, page) = get(&app, &format!("/live/{id}")).await;
    assert!(!page.contains("<code>pass</code>"), "{page}");
    let (_, list) = get(&app, "/live").await;
    assert!(list.contains(&format!("<td class=\"n\">{}</td>", moves.len())), "{list}");
    // A timeout that is the last record so far may yet be followed by a pass: held until then.
    let n = lines.len() as u32;
    let late = format!("{{\"seq\":{n},\"seat\":2,\"action\":\"incident timeout: no answer within 5000 ms\"}}");
    a.live_record(id, n, &late, long_ago()).unwrap();
    let j = json(&get(&app, &format!("/api/live/{id}")).await.1);
    assert_eq!(j["moves"].as_array().unwrap().len(), moves.len(), "{j}");
}

#[actix_web::test]
async fn hostile_names_come_out_escaped_on_the_live_pages() {
    let hostile = "<script>alert(1)</script>\"'&";
    let text = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;'&amp;";
    let live = Live::with_names("live-web/hostile", [hostile, "Bo"]);
    let shown = live.play(hostile, false, &[long_ago(); 6]);
    let listed = live.play("arena/game-0005", true, &[long_ago(); 6]);
    let app = app!(live.config(0));
    for uri in
        ["/live".to_owned(), format!("/live/{shown}"), format!("/live/{shown}?step=2"), format!("/live/{listed}")]
    {
        let (status, page) = get(&app, &uri).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {page}");
        assert!(!page.contains("<script>alert(1)") && !page.contains("</script>\"'&"), "{uri}: markup: {page}");
        assert!(page.contains(text), "{uri}: the name is shown, escaped: {page}");
    }
    // The list names the host's key (the hostile one too) in code; the moves list, the player.
    let (_, page) = get(&app, "/live").await;
    assert!(page.contains(&format!("<code>{text}</code>")), "{page}");
    let (_, page) = get(&app, &format!("/live/{listed}")).await;
    assert!(page.contains("id=\"moves-list\"") && page.contains(&format!("{text} (0)")), "{page}");
}
