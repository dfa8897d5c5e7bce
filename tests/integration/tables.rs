//! Tables where people play (issue 27, docs/play.md), through the API as any client sits down:
//! people play whole games to the end, each seat seeing only what its seat sees; a server killed
//! mid-game takes the table up again to the same log; and the attacks a person's request can
//! try (another seat's turn, out of turn, an old action again, a revoked link, the seed, a bot
//! command in a request) are each performed and refused.

use crate::util::{spawn_serve, Served};
use paifu_core::fair;
use paifu_recorder::archive::{Archive, Role};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;

use std::time::{Duration, Instant};

const PAIFU: &str = env!("CARGO_BIN_EXE_paifu");

/// A `paifu serve` child over `DIR/t.db`, killed when dropped.
pub(crate) fn serve(dir: &Path, extra: &[&str]) -> Served {
    let mut args = vec!["--db", "t.db", "--addr", "127.0.0.1:0", "--live-delay", "0", "--key", "k.key", "--no-sync"];
    args.extend(extra);
    spawn_serve(dir, &args)
}

/// An organiser's token in a fresh archive at `DIR/t.db`.
pub(crate) fn organiser(dir: &Path) -> String {
    let mut a = Archive::open(&dir.join("t.db")).unwrap();
    a.create_token("org", Role::Organiser).unwrap().secret
}

/// One request; the status and the body as JSON (`Null` when it is not JSON).
pub(crate) fn call(addr: &str, method: &str, path: &str, auth: Option<&str>, body: Option<&Value>) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut s = TcpStream::connect(addr).unwrap();
    let auth = auth.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// Opens a table; its number and each seat's join token (`None` for a bot).
pub(crate) fn open(addr: &str, org: &str, request: Value) -> (i64, Vec<Option<String>>) {
    let (status, v) = call(addr, "POST", "/api/tables", Some(org), Some(&request));
    assert_eq!(status, 201, "{v}");
    let seats = v["seats"].as_array().unwrap();
    let tokens = seats.iter().map(|s| s["join"].as_str().map(|j| j.trim_start_matches("/play/").to_owned())).collect();
    (v["id"].as_i64().unwrap(), tokens)
}

/// Each person's contribution: fixed per seat in these tests.
fn contribution(k: usize) -> [u8; 32] {
    [k as u8 + 11; 32]
}

/// Every person commits, then reveals: the table's seed is fixed and play begins.
fn sit_down(addr: &str, tokens: &[Option<String>]) {
    let people: Vec<(usize, &String)> =
        tokens.iter().enumerate().filter_map(|(k, t)| t.as_ref().map(|t| (k, t))).collect();
    for (k, t) in &people {
        let c = fair::commit(&format!("seat {k}"), &contribution(*k)).to_string();
        let (s, v) = call(addr, "POST", &format!("/api/play/{t}/seed"), None, Some(&json!({ "commitment": c })));
        assert_eq!(s, 200, "{v}");
    }
    for (k, t) in &people {
        let v = hex::encode(contribution(*k));
        let (s, body) = call(addr, "POST", &format!("/api/play/{t}/seed"), None, Some(&json!({ "contribution": v })));
        assert_eq!(s, 200, "{body}");
    }
}

/// Asserts that a seat's view shows no other seat's concealed tiles or cards, nor the tile
/// another seat drew.
fn assert_private(answer: &Value, what: &str) {
    let view = &answer["view"];
    if view.is_null() {
        return;
    }
    let seat = answer["seat"].as_u64().unwrap() as usize;
    assert_eq!(view["seen_by"].as_u64(), Some(seat as u64), "{what}: the view is the seat's own: {view}");
    let mut lists = 0;
    for key in ["players", "seats"] {
        for (i, p) in view[key].as_array().into_iter().flatten().enumerate() {
            lists += 1;
            if i != seat {
                let hand = p["hand"].as_array().map_or(0, Vec::len);
                assert_eq!(hand, 0, "{what}: seat {seat} sees seat {i}'s concealed hand: {p}");
            }
        }
    }
    assert!(lists >= 2, "{what}: the view lists the seats: {view}");
    if !view["drawn"].is_null() {
        let to_act: Vec<u64> = view["to_act"].as_array().unwrap().iter().filter_map(Value::as_u64).collect();
        assert!(to_act.contains(&(seat as u64)), "{what}: seat {seat} sees a tile another seat drew: {view}");
    }
    let text = answer.to_string();
    assert!(!text.contains("\"seed\""), "{what}: no seed is shown to a seat: {text}");
}

/// The action a test player picks: a win when there is one, else a pass, else the first.
fn pick(legal: &[String]) -> String {
    let win = ["tsumo", "ron", "hu", "mahjong", "win"];
    legal
        .iter()
        .find(|a| win.iter().any(|w| a.starts_with(w)))
        .or_else(|| legal.iter().find(|a| *a == "pass"))
        .or_else(|| legal.first())
        .cloned()
        .unwrap()
}

/// What the players did: the decisions taken, and the attacks tried on the way.
#[derive(Default)]
struct Played {
    taken: Vec<(usize, String)>,
    views: usize,
    replays_refused: usize,
    out_of_turn_refused: usize,
}

impl std::fmt::Debug for Played {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} decisions taken, {} views checked, {} replays and {} out-of-turn offers refused",
            self.taken.len(),
            self.views,
            self.replays_refused,
            self.out_of_turn_refused
        )
    }
}

/// The people at `tokens` play until every seat's state is `ended` (or `stop` says so after a
/// decision). On the way, after some decisions, the attacks: the same action sent again, and the
/// action offered by a seat whose turn it is not.
fn play(addr: &str, tokens: &[Option<String>], played: &mut Played, stop: &dyn Fn(&Played) -> bool) -> bool {
    let start = Instant::now();
    // With bots at the table, they play while the people are looked at: a seat seen waiting may be
    // asked by the time a request reaches the host. Without bots nothing moves between the look
    // and the request, and every attack must be refused.
    let with_bots = tokens.iter().any(Option::is_none);
    loop {
        assert!(start.elapsed() < Duration::from_secs(600), "the game did not end: {played:?}");
        let mut ended = 0;
        let mut acted = false;
        let mut asked: Option<(usize, Vec<String>)> = None;
        let mut waiting: Vec<&String> = Vec::new();
        for (k, t) in tokens.iter().enumerate() {
            let Some(t) = t else { continue };
            let (s, v) = call(addr, "GET", &format!("/api/play/{t}"), None, None);
            assert_eq!(s, 200, "{v}");
            played.views += 1;
            assert_private(&v, &format!("seat {k}"));
            match v["state"].as_str() {
                Some("ended") => ended += 1,
                _ if v["to_act"] == json!(true) => {
                    let legal: Vec<String> =
                        v["legal"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_owned()).collect();
                    assert!(!legal.is_empty(), "{v}");
                    asked = Some((k, legal));
                }
                _ => waiting.push(t),
            }
        }
        if ended == tokens.iter().flatten().count() {
            return true;
        }
        if let Some((k, legal)) = asked {
            let t = tokens[k].as_ref().unwrap();
            let action = pick(&legal);
            // Out of turn: a seat that is not asked offers the action (every 7th decision).
            if played.taken.len() % 7 == 3 {
                if let Some(other) = waiting.first() {
                    let (s, v) =
                        call(addr, "POST", &format!("/api/play/{other}"), None, Some(&json!({ "action": action })));
                    if s == 200 && with_bots {
                        // Asked in the meantime, and the words were legal for it: the game goes on
                        // from whatever the host now asks (this turn's seat is looked at again).
                        continue;
                    }
                    assert_eq!(s, 409, "a seat not asked offered {action:?}: {v}");
                    played.out_of_turn_refused += 1;
                }
            }
            let (s, v) = call(addr, "POST", &format!("/api/play/{t}"), None, Some(&json!({ "action": action })));
            assert_eq!(s, 200, "seat {k} plays {action:?}: {v}");
            played.taken.push((k, action.clone()));
            acted = true;
            // The same request again (a replay): refused unless the seat is asked anew.
            if played.taken.len() % 5 == 2 {
                let (_, now) = call(addr, "GET", &format!("/api/play/{t}"), None, None);
                if now["to_act"] == json!(false) {
                    let (s, v) =
                        call(addr, "POST", &format!("/api/play/{t}"), None, Some(&json!({ "action": action })));
                    if s == 200 && with_bots {
                        // The bots played between the look and the send and the seat was asked
                        // anew: the same words are then its answer to the new question.
                        played.taken.push((k, action.clone()));
                    } else {
                        assert_eq!(s, 409, "seat {k}'s {action:?} sent again: {v}");
                        played.replays_refused += 1;
                    }
                }
            }
            if stop(played) {
                return false;
            }
        }
        if !acted {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// The stored game's validity and certificates, by its archive number.
fn stored(dir: &Path, id: i64) -> (bool, usize) {
    let a = Archive::open(&dir.join("t.db")).unwrap();
    let c = rusqlite::Connection::open(dir.join("t.db")).unwrap();
    let valid: bool = c.query_row("SELECT valid FROM verdicts WHERE log_id = ?1", [id], |r| r.get(0)).unwrap();
    (valid, a.certificates(id).unwrap().len())
}

/// After the last game: the table's published contributions make its seed, and the games'
/// logs carry the seeds published.
fn assert_recomputable(dir: &Path, table: &Value, id: i64) {
    let reveal = &table["reveal"];
    let commitments: BTreeMap<String, paifu_core::Digest> = reveal["commitments"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(n, c)| (n.clone(), c.as_str().unwrap().parse().unwrap()))
        .collect();
    let contributions: BTreeMap<String, fair::Contribution> = reveal["contributions"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(n, c)| (n.clone(), hex::decode(c.as_str().unwrap()).unwrap().try_into().unwrap()))
        .collect();
    let seed = fair::seed_of(&commitments, &contributions).unwrap();
    assert_eq!(reveal["match_seed"].as_str(), Some(seed.to_hex().as_str()), "{reveal}");
    let log = std::fs::read_to_string(dir.join(format!("t.db-tables/table-{id}/game-0001.paifu.jsonl"))).unwrap();
    let header: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    let game1 = seed.child("game/1").to_hex();
    assert_eq!(reveal["games"]["game-0001"].as_str(), Some(game1.as_str()), "{reveal}");
    assert!(log.lines().next().unwrap().contains(&game1), "the log's header carries the published seed: {header}");
}

#[test]
fn four_people_play_a_riichi_east_only_game_each_seeing_only_their_seat() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let org = organiser(p);
    let server = serve(p, &[]);
    let addr = server.addr.as_str();
    let seats: Vec<Value> = ["Aiko", "Bao", "Chen", "Dara"].iter().map(|n| json!({ "name": n })).collect();
    let (id, tokens) = open(addr, &org, json!({ "game": "riichi", "ruleset": "tonpuu", "games": 1, "seats": seats }));
    assert!(tokens.iter().all(Option::is_some));
    // Before every share of the seed is in: nothing may be played, and the seed is not known.
    let t0 = tokens[0].as_ref().unwrap();
    let (s, v) = call(addr, "POST", &format!("/api/play/{t0}"), None, Some(&json!({ "action": "pass" })));
    assert_eq!(s, 409, "{v}");
    sit_down(addr, &tokens);
    let (_, table) = call(addr, "GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(table["state"], "playing", "{table}");
    assert!(table["reveal"].is_null(), "nothing that makes the seed is shown while the table plays: {table}");
    let mut played = Played::default();
    assert!(!play(addr, &tokens, &mut played, &|p| p.taken.len() >= 40));
    // A spectator (this server shows every move at once: --live-delay 0) sees the game live,
    // without a pass.
    let (s, live) = call(addr, "GET", "/api/live", None, None);
    assert_eq!(s, 200, "{live}");
    let game = live["games"].as_array().unwrap().iter().find(|g| g.to_string().contains("Aiko")).expect("live").clone();
    let (s, watched) = call(addr, "GET", &format!("/api/live/{}", game["id"]), None, None);
    assert_eq!(s, 200, "{watched}");
    assert!(played.taken.iter().any(|(_, a)| a == "pass"), "passes were played");
    assert!(!watched.to_string().contains("\"pass\""), "a spectator sees no pass: {watched}");
    assert!(play(addr, &tokens, &mut played, &|_| false));
    assert!(played.taken.len() > 40, "{played:?}");
    assert!(played.replays_refused > 0 && played.out_of_turn_refused > 0, "{played:?}");
    let (_, table) = call(addr, "GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(table["state"], "ended", "{table}");
    let games = table["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{table}");
    let (valid, certificates) = stored(p, games[0].as_i64().unwrap());
    assert!(valid, "the game is stored valid");
    assert_eq!(certificates, 1, "with the server's certificate");
    assert_recomputable(p, &table, id);
    eprintln!("riichi: {played:?}");
}

#[test]
fn two_people_play_tzq_and_a_server_killed_mid_game_resumes_the_table_to_the_same_log() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let org = organiser(p);
    let server = serve(p, &[]);
    let addr = server.addr.clone();
    let (id, mut tokens) =
        open(&addr, &org, json!({ "game": "tzq", "games": 1, "seats": [{ "name": "Aiko" }, { "name": "Bao" }] }));
    // A link the organiser reissues: the old one opens nothing from then on.
    let old = tokens[1].clone().unwrap();
    let (s, v) = call(&addr, "POST", &format!("/api/tables/{id}/seats/1/join"), Some(&org), None);
    assert_eq!(s, 201, "{v}");
    tokens[1] = Some(v["join"].as_str().unwrap().trim_start_matches("/play/").to_owned());
    assert_eq!(call(&addr, "GET", &format!("/api/play/{old}"), None, None).0, 404);
    assert_eq!(call(&addr, "POST", &format!("/api/play/{old}"), None, Some(&json!({ "action": "pass" }))).0, 404);
    assert_eq!(call(&addr, "GET", "/api/play/pfj_not-a-token", None, None).0, 404);
    // The seed steps out of order or twice: refused.
    let t0 = tokens[0].clone().unwrap();
    let reveal = json!({ "contribution": hex::encode(contribution(0)) });
    assert_eq!(call(&addr, "POST", &format!("/api/play/{t0}/seed"), None, Some(&reveal)).0, 409);
    let c = fair::commit("seat 0", &contribution(0)).to_string();
    assert_eq!(call(&addr, "POST", &format!("/api/play/{t0}/seed"), None, Some(&json!({ "commitment": c }))).0, 200);
    // The same commitment again is taken (a page that sent it twice); another one is refused.
    assert_eq!(call(&addr, "POST", &format!("/api/play/{t0}/seed"), None, Some(&json!({ "commitment": c }))).0, 200);
    let other = fair::commit("seat 0", &[1u8; 32]).to_string();
    assert_eq!(
        call(&addr, "POST", &format!("/api/play/{t0}/seed"), None, Some(&json!({ "commitment": other }))).0,
        409
    );
    let t1 = tokens[1].clone().unwrap();
    let c1 = fair::commit("seat 1", &contribution(1)).to_string();
    assert_eq!(call(&addr, "POST", &format!("/api/play/{t1}/seed"), None, Some(&json!({ "commitment": c1 }))).0, 200);
    // A contribution other than the one committed to.
    let wrong = json!({ "contribution": hex::encode([0u8; 32]) });
    assert_eq!(call(&addr, "POST", &format!("/api/play/{t0}/seed"), None, Some(&wrong)).0, 422);
    for (k, t) in [(0, &t0), (1, &t1)] {
        let v = json!({ "contribution": hex::encode(contribution(k)) });
        assert_eq!(call(&addr, "POST", &format!("/api/play/{t}/seed"), None, Some(&v)).0, 200);
    }
    // Acting for the other seat by naming it: the body has no such field.
    let (s, v) = call(&addr, "POST", &format!("/api/play/{t0}"), None, Some(&json!({ "action": "pass", "seat": 1 })));
    assert_eq!(s, 422, "{v}");

    let mut played = Played::default();
    let ended = play(&addr, &tokens, &mut played, &|p| p.taken.len() >= 12);
    assert!(!ended, "the game lasts more than 12 decisions");
    drop(server);
    // The journal as the killed server left it: its whole lines are the records played.
    let journal =
        std::fs::read_to_string(p.join(format!("t.db-tables/table-{id}/live/game-0001.paifu.jsonl"))).unwrap();
    let before: Vec<&str> = journal.split_inclusive('\n').filter(|l| l.ends_with('\n')).map(str::trim_end).collect();
    assert!(before.len() > 12, "{journal}");

    let server = serve(p, &[]);
    let addr = server.addr.clone();
    assert!(play(&addr, &tokens, &mut played, &|_| false));
    let log = std::fs::read_to_string(p.join(format!("t.db-tables/table-{id}/game-0001.paifu.jsonl"))).unwrap();
    let after: Vec<&str> = log.lines().collect();
    assert_eq!(after[1..before.len()], before[1..], "the records played before the kill are the log's first");
    assert!(after.len() > before.len());
    let (_, table) = call(&addr, "GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(table["state"], "ended", "{table}");
    let game = table["games"][0].as_i64().unwrap();
    assert_eq!(stored(p, game), (true, 1));
    assert_recomputable(p, &table, id);
    eprintln!("tzq: {played:?}");
}

/// A server started with the bot `greedy` (riichi), its folder and an organiser's token.
fn with_greedy() -> (tempfile::TempDir, String, Served) {
    let dir = tempfile::tempdir().unwrap();
    let org = organiser(dir.path());
    let bot = format!("greedy={PAIFU} bot riichi --strategy greedy --seed s{{seat}}");
    let server = serve(dir.path(), &["--bot", &bot]);
    (dir, org, server)
}

#[test]
fn a_person_plays_beside_three_bots_the_server_was_started_with() {
    let (dir, org, server) = with_greedy();
    let p = dir.path();
    let addr = server.addr.as_str();
    // A bot the server was not started with, a command in the request, bad fields: 422 naming
    // the field; no token, or an uploader's: refused.
    let bad = [
        (
            json!({ "game": "riichi", "seats": [{ "name": "A" }, { "name": "x", "bot": "sh -c 'touch pwned'" }, { "name": "C" }, { "name": "D" }] }),
            "seats[1].bot",
        ),
        (json!({ "game": "chess", "seats": [{ "name": "A" }, { "name": "B" }] }), "game"),
        (
            json!({ "game": "riichi", "ruleset": "blitz", "seats": [{ "name": "A" }, { "name": "B" }, { "name": "C" }, { "name": "D" }] }),
            "ruleset",
        ),
        (json!({ "game": "tzq", "seats": [{ "name": "A" }, { "name": "B" }, { "name": "C" }] }), "seats"),
        (
            json!({ "game": "tzq", "options": { "no_such_option": 1 }, "seats": [{ "name": "A" }, { "name": "B" }] }),
            "options",
        ),
    ];
    for (request, field) in bad {
        let (s, v) = call(addr, "POST", "/api/tables", Some(&org), Some(&request));
        assert_eq!((s, v["field"].as_str()), (422, Some(field)), "{request}: {v}");
    }
    assert!(!p.join("pwned").exists());
    let (s, _) = call(addr, "POST", "/api/tables", None, Some(&json!({ "game": "tzq", "seats": [] })));
    assert_eq!(s, 401);
    let up = Archive::open(&p.join("t.db")).unwrap().create_token("up", Role::Uploader).unwrap().secret;
    let (s, _) = call(addr, "POST", "/api/tables", Some(&up), Some(&json!({ "game": "tzq", "seats": [] })));
    assert_eq!(s, 403);

    let seats = json!([{ "name": "Aiko" }, { "name": "g1", "bot": "greedy" }, { "name": "g2", "bot": "greedy" }, { "name": "g3", "bot": "greedy" }]);
    let (id, tokens) = open(addr, &org, json!({ "game": "riichi", "ruleset": "tonpuu", "seats": seats }));
    assert_eq!(tokens.iter().flatten().count(), 1, "a join link for the person only");
    sit_down(addr, &tokens);
    let mut played = Played::default();
    assert!(play(addr, &tokens, &mut played, &|_| false));
    let (_, table) = call(addr, "GET", &format!("/api/tables/{id}"), None, None);
    let game = table["games"][0].as_i64().unwrap();
    assert_eq!(stored(p, game), (true, 1), "{table}");
    eprintln!("person and bots: {played:?}");
}

/// The one person at a riichi table of three bots plays a whole East round in Chromium: the
/// page takes its share of the seed by itself, the person discards by clicking the drawn tile
/// and passes (or wins) by keys, and the game is stored valid.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_riichi_east_round_by_clicks_and_keys_in_chromium() {
    use crate::web_e2e::{browser_available, connect, press_char, start_driver};
    use fantoccini::Locator;
    if !browser_available() {
        return;
    }
    let (dir, org, server) = with_greedy();
    let p = dir.path();
    let addr = server.addr.clone();
    let seats = json!([{ "name": "Aiko" }, { "name": "g1", "bot": "greedy" }, { "name": "g2", "bot": "greedy" }, { "name": "g3", "bot": "greedy" }]);
    let (id, tokens) = open(&addr, &org, json!({ "game": "riichi", "ruleset": "tonpuu", "seats": seats }));
    let token = tokens[0].clone().unwrap();
    let driver = start_driver();
    let c = connect(&driver).await;
    c.goto(&format!("http://{addr}/play/{token}")).await.unwrap();
    let body = |c: &fantoccini::Client| {
        let c = c.clone();
        async move {
            let v = c
                .execute("return [document.body.dataset.state||'', document.body.dataset.toAct||'', document.body.dataset.version||'']", vec![])
                .await
                .unwrap();
            let s: Vec<String> = v.as_array().unwrap().iter().map(|x| x.as_str().unwrap_or("").to_owned()).collect();
            (s[0].clone(), s[1] == "true", s[2].clone())
        }
    };
    let start = Instant::now();
    let (mut clicks, mut keys) = (0, 0);
    loop {
        assert!(start.elapsed() < Duration::from_secs(400), "the game did not end: {clicks} clicks, {keys} keys");
        let (state, to_act, version) = body(&c).await;
        if state == "ended" {
            break;
        }
        if !to_act {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        let calls = |sel: &'static str| {
            let c = c.clone();
            async move { c.find_all(Locator::Css(sel)).await.unwrap().len() }
        };
        if calls("#calls button[data-key='t']").await > 0 {
            press_char(&c, 't').await;
            keys += 1;
        } else if calls("#calls button[data-key='w']").await > 0 {
            press_char(&c, 'w').await;
            keys += 1;
        } else if calls("#calls button[data-key='s']").await > 0 {
            press_char(&c, 's').await;
            keys += 1;
        } else {
            let tiles = c.find_all(Locator::Css("#hand button.tile:not([disabled])")).await.unwrap();
            tiles.last().expect("a tile to discard").click().await.unwrap();
            clicks += 1;
        }
        let asked = Instant::now();
        while body(&c).await.2 == version {
            assert!(asked.elapsed() < Duration::from_secs(20), "the page did not move on after an action");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    assert!(clicks > 10 && keys > 0, "{clicks} clicks, {keys} keys");
    let (_, table) = call(&addr, "GET", &format!("/api/tables/{id}"), None, None);
    let game = table["games"][0].as_i64().unwrap();
    assert_eq!(stored(p, game), (true, 1), "{table}");
    eprintln!("chromium: {clicks} clicks, {keys} keys");
}

#[test]
fn contributions_made_apart_assemble_into_the_seed_file_the_arena_takes() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let mut printed = BTreeMap::new();
    for name in ["organiser", "alice"] {
        let o = crate::util::paifu(&["contribution", "make", "--name", name, "-o", &format!("{name}.c")], p);
        assert!(o.status.success(), "{}", crate::util::stderr(&o));
        let line = crate::util::stdout(&o);
        let (who, commitment) = line.trim().split_once(": ").unwrap();
        assert_eq!(who, name);
        printed.insert(name.to_owned(), commitment.to_owned());
        let mode = std::fs::metadata(p.join(format!("{name}.c"))).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "a contribution is readable by its owner only");
    }
    // A contribution is never overwritten.
    let o = crate::util::paifu(&["contribution", "make", "--name", "alice", "-o", "alice.c"], p);
    assert!(!o.status.success());
    let o = crate::util::paifu(&["contribution", "assemble", "organiser.c", "alice.c", "-o", "seed.json"], p);
    assert!(o.status.success(), "{}", crate::util::stderr(&o));
    let seed: Value = serde_json::from_str(&std::fs::read_to_string(p.join("seed.json")).unwrap()).unwrap();
    for (name, c) in &printed {
        assert_eq!(seed["commitments"][name].as_str(), Some(c.as_str()), "{seed}");
    }
    let bot = format!("{PAIFU} bot tzq --strategy greedy --seed s{{seat}}");
    let o = crate::util::paifu(
        &["arena", "tzq", "--bot", &bot, "--bot", &bot, "--games", "1", "--seed-from", "seed.json", "--out", "m", "-q"],
        p,
    );
    assert!(o.status.success(), "{}", crate::util::stderr(&o));
    assert!(crate::util::stdout(&o).contains("seed commitments"), "{}", crate::util::stdout(&o));
}

/// Opens a riichi table of one person and three `greedy` bots on `addr`: its number and tokens.
fn open_with_bots(addr: &str, org: &str) -> (i64, Vec<Option<String>>) {
    let seats = json!([{ "name": "Aiko" }, { "name": "g1", "bot": "greedy" }, { "name": "g2", "bot": "greedy" }, { "name": "g3", "bot": "greedy" }]);
    open(addr, org, json!({ "game": "riichi", "ruleset": "tonpuu", "seats": seats }))
}

/// The table, once the server started again over its archive has taken it up: ended, with the
/// reason it was stopped, and its seat refusing the seed steps that would start its bots.
fn assert_stopped(addr: &str, id: i64, tokens: &[Option<String>], reason: &str) {
    let (_, table) = call(addr, "GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(table["state"], "ended", "the table is not taken up again: {table}");
    let why = table["reveal"]["stopped"].as_str().unwrap_or_default();
    assert!(why.contains(reason), "the reason is kept: {table}");
    let t = tokens[0].as_ref().unwrap();
    let c = fair::commit("seat 0", &contribution(0)).to_string();
    let (s, v) = call(addr, "POST", &format!("/api/play/{t}/seed"), None, Some(&json!({ "commitment": c })));
    assert_eq!(s, 409, "{v}");
}

#[test]
fn a_table_opened_with_sandboxed_bots_is_not_played_by_a_server_started_without_the_sandbox() {
    let (dir, org, server) = with_greedy();
    let p = dir.path();
    let (id, tokens) = open_with_bots(&server.addr, &org);
    drop(server);
    let bot = format!("greedy={PAIFU} bot riichi --strategy greedy --seed s{{seat}}");
    let server = serve(p, &["--bot", &bot, "--no-sandbox"]);
    assert_stopped(&server.addr, id, &tokens, "without (paifu serve --no-sandbox)");
}

#[test]
fn a_bot_command_written_into_the_archive_or_missing_from_the_server_is_never_run() {
    let (dir, org, server) = with_greedy();
    let p = dir.path();
    let (id, tokens) = open_with_bots(&server.addr, &org);
    let (other, other_tokens) = open_with_bots(&server.addr, &org);
    drop(server);
    // Whoever can write the archive file puts a command of theirs into the first table's plan.
    let c = rusqlite::Connection::open(p.join("t.db")).unwrap();
    let plan: String = c.query_row("SELECT plan FROM play_tables WHERE id = ?1", [id], |r| r.get(0)).unwrap();
    let mut plan: Value = serde_json::from_str(&plan).unwrap();
    for s in plan["seats"].as_array_mut().unwrap().iter_mut().filter(|s| !s["bot"].is_null()) {
        s["command"] = json!("sh -c 'touch pwned'");
    }
    c.execute("UPDATE play_tables SET plan = ?2 WHERE id = ?1", rusqlite::params![id, plan.to_string()]).unwrap();
    drop(c);
    let bot = format!("greedy={PAIFU} bot riichi --strategy greedy --seed s{{seat}}");
    let server = serve(p, &["--bot", &bot]);
    assert_stopped(&server.addr, id, &tokens, "not the command the table was opened with");
    assert!(!p.join("pwned").exists());
    // The second table, untouched, waits on; then a server started without its bot ends it.
    let (_, table) = call(&server.addr, "GET", &format!("/api/tables/{other}"), None, None);
    assert_eq!(table["state"], "waiting", "{table}");
    drop(server);
    let server = serve(p, &[]);
    assert_stopped(&server.addr, other, &other_tokens, "not one this server was started with");
}

#[test]
fn a_lookalike_or_invisible_seat_or_tournament_name_is_refused_when_the_table_opens() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let org = organiser(p);
    let mut a = Archive::open(&p.join("t.db")).unwrap();
    a.ensure_tournament("Cup", Some("org"), &[]).unwrap();
    a.ingest_bytes(
        &paifu_recorder::samples::tzq_bytes("x", ["Aiko", "Bao"], paifu_core::log::Encoding::JsonLines),
        None,
        None,
    )
    .unwrap();
    drop(a);
    let server = serve(p, &[]);
    let addr = server.addr.as_str();
    let bad = [
        (json!({ "game": "tzq", "seats": [{ "name": "Ai\u{200B}ko" }, { "name": "Chen" }] }), "seats[0].name"),
        (json!({ "game": "tzq", "seats": [{ "name": "Chen" }, { "name": "Вao" }] }), "seats[1].name"),
        (
            json!({ "game": "tzq", "tournament": "Cuр", "seats": [{ "name": "Chen" }, { "name": "Dara" }] }),
            "tournament",
        ),
    ];
    for (request, field) in bad {
        let (s, v) = call(addr, "POST", "/api/tables", Some(&org), Some(&request));
        assert_eq!((s, v["field"].as_str()), (422, Some(field)), "{request}: {v}");
    }
    // The names the archive holds, as they are: taken.
    open(addr, &org, json!({ "game": "tzq", "tournament": "Cup", "seats": [{ "name": "Aiko" }, { "name": "Bao" }] }));
}

/// A person who does not answer (a closed tab, a lost connection) is treated as a bot that does
/// not: at each decision whose time runs out the host records the incident and plays the seat's
/// safe action, and the game goes on to its end, stored valid. With a second a decision and 4.5
/// for the game, the person's first decisions time out and the rest find its game's time spent
/// (`budget`); a bot plays the other seat.
#[test]
fn a_person_who_times_out_gets_the_safe_action_and_an_incident_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let org = organiser(p);
    let bot = format!("r={PAIFU} bot tzq --strategy random --seed s{{seat}}");
    let server = serve(p, &["--bot", &bot]);
    let addr = server.addr.as_str();
    let request = json!({ "game": "tzq", "seats": [{ "name": "Aiko", "bot": "r" }, { "name": "Bao" }],
        "clock": { "decision_ms": 1000, "game_ms": 4500 } });
    let (id, tokens) = open(addr, &org, request);
    sit_down(addr, &tokens);
    // Bao's seat is looked at while it times out: the page says what the host did for it.
    let absent = tokens[1].clone().unwrap();
    let start = Instant::now();
    let mut notice = None;
    let table = loop {
        assert!(start.elapsed() < Duration::from_secs(300), "the game did not end");
        let (_, v) = call(addr, "GET", &format!("/api/play/{absent}"), None, None);
        if let Some(n) = v["notice"].as_str().filter(|n| n.contains("safe action")) {
            notice.get_or_insert_with(|| n.to_owned());
        }
        let (_, table) = call(addr, "GET", &format!("/api/tables/{id}"), None, None);
        if table["state"] == "ended" {
            break table;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(notice.as_deref().is_some_and(|n| n.contains("no answer within 1000 ms")), "{notice:?}");
    let game = table["games"][0].as_i64().unwrap();
    assert_eq!(stored(p, game), (true, 1), "the game is stored valid, with the server's certificate");
    let log = std::fs::read_to_string(p.join(format!("t.db-tables/table-{id}/game-0001.paifu.jsonl"))).unwrap();
    let records: Vec<Value> = log.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect();
    let incidents = |kind: &str| {
        records
            .iter()
            .filter(|r| r["action"].as_str().is_some_and(|a| a.starts_with(&format!("incident {kind}"))))
            .map(|r| r["seat"].as_u64().unwrap())
            .collect::<Vec<_>>()
    };
    let (timeouts, budgets) = (incidents("timeout"), incidents("budget"));
    assert!((2..=4).contains(&timeouts.len()), "Bao's first decisions time out: {log}");
    assert!(!budgets.is_empty(), "then Bao's time for the game is spent: {log}");
    assert!(timeouts.iter().chain(&budgets).all(|s| *s == 1), "only Bao's seat has incidents: {log}");
    let first = |kind: &str| log.find(&format!("incident {kind}")).unwrap();
    assert!(first("timeout") < first("budget"), "{log}");
    // Each incident is followed by the seat's own (safe) action, and the bot played on.
    for (i, r) in records.iter().enumerate() {
        if r["action"].as_str().is_some_and(|a| a.starts_with("incident")) {
            let next = &records[i + 1];
            assert_eq!(next["seat"], r["seat"], "the safe action follows the incident: {next}");
            assert!(!next["action"].as_str().unwrap().starts_with("incident"), "{next}");
        }
    }
    assert!(records.iter().filter(|r| r["seat"] == 0).count() > 5, "{log}");
}

/// What every other seat holds concealed now, from the table's journal replayed with its seed
/// (read from the server's folder: the test is the server's user): the kinds of tile, card or
/// piece, as the log writes them. Only meaningful while the host waits for `me` (nothing moves).
fn others_concealed(dir: &Path, id: i64, me: usize) -> Vec<String> {
    struct Full<'a>(&'a [u8]);
    impl paifu_core::games::Visitor for Full<'_> {
        type Output = Value;
        fn visit<G: paifu_core::games::Registered>(self) -> Value {
            let (log, pos) = paifu_core::log::decode::<G::Action>(self.0).unwrap();
            let mut state: G = paifu_core::replay::setup(&log.header).unwrap();
            for (i, r) in log.records.iter().enumerate() {
                paifu_core::replay::step(&mut state, i, r, &pos).unwrap();
            }
            serde_json::to_value(paifu_core::games::View::of(&state)).unwrap()
        }
    }
    let folder = dir.join(format!("t.db-tables/table-{id}"));
    let seed: paifu_core::Seed = std::fs::read_to_string(folder.join("arena.seed")).unwrap().trim().parse().unwrap();
    let journal = std::fs::read_to_string(folder.join("live/game-0001.paifu.jsonl")).unwrap();
    let mut lines = journal.lines();
    let mut header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    header["seed"] = json!(seed.child("game/1").to_hex());
    let mut whole = header.to_string() + "\n";
    for l in lines {
        whole += l;
        whole.push('\n');
    }
    let game = header["game"].as_str().unwrap().to_owned();
    let view = paifu_core::games::by_name(&game, Full(whole.as_bytes())).unwrap();
    let mut out = Vec::new();
    for key in ["players", "seats"] {
        for (i, p) in view[key].as_array().into_iter().flatten().enumerate() {
            if i == me {
                continue;
            }
            for hand in ["hand", "held"] {
                out.extend(p[hand].as_array().into_iter().flatten().filter_map(|t| t.as_str().map(str::to_owned)));
            }
        }
    }
    out
}

/// Every string a JSON value holds.
fn strings(v: &Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// The faces of every tile, card or piece in the page (hidden parts included): a tile's title
/// or class (`t t-5m`), a card's title (`5b (blue)`).
const FACES_JS: &str = r#"
const f=new Set();
document.querySelectorAll('.t:not(.back)').forEach(e=>{
  if(e.tagName.toLowerCase()==='g'){for(const c of e.classList)if(c.startsWith('t-')||c.startsWith('f-'))f.add(c.slice(2));}
  else f.add((e.getAttribute('title')||e.textContent).trim().split(' ')[0]);
});
document.querySelectorAll('.card').forEach(e=>f.add((e.getAttribute('title')||'').split(' ')[0]));
return [...f];
"#;

/// Whether the page fits its window: nothing to scroll, the actions and the help line above
/// the fold. Answers what overflows, if anything.
async fn overflow(c: &fantoccini::Client) -> Option<String> {
    let v = c
        .execute(
            "const r=s=>{const e=document.querySelector(s);return e?Math.ceil(e.getBoundingClientRect().bottom):0;};\
             return [document.documentElement.scrollHeight,document.documentElement.scrollWidth,innerHeight,innerWidth,\
             r('#actions'),r('#hand'),r('#calls'),r('.keys')]",
            vec![],
        )
        .await
        .unwrap();
    let n: Vec<i64> = v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap_or(0)).collect();
    let (sh, sw, h, w) = (n[0], n[1], n[2], n[3]);
    let below: Vec<&str> = ["#actions", "#hand", "#calls", ".keys"]
        .iter()
        .zip(&n[4..])
        .filter(|(_, b)| **b > h)
        .map(|(s, _)| *s)
        .collect();
    (sh > h || sw > w || !below.is_empty())
        .then(|| format!("page {sw}x{sh} in a window of {w}x{h}; below the fold: {below:?}"))
}

/// The one person at a table of `game` beside `bots` bots plays by clicking in Chromium: a win
/// when offered, else a pass, else a tile, card or piece of its hand (the first that may be
/// played), else the first button. At every decision the page is checked: it holds no face of
/// another seat's concealed tiles (cards, pieces) that the seat cannot see elsewhere, and it
/// fits the window (1366x768, and a phone's 390x844 watching the same seat). With `whole` the
/// game is played to its end and stored valid; else `decisions` are made. `others_hold`: other
/// seats hold concealed pieces while this one is asked (not at Ta Yü).
/// The height in pixels of the tallest call button of a seat's page.
const TALLEST_CALL_JS: &str = "return Math.max(0, ...[...document.querySelectorAll('#calls button.call')]\
    .map(b => b.getBoundingClientRect().height))";

async fn a_person_plays_in_chromium(
    game: &str,
    request: Value,
    strategy: &str,
    whole: bool,
    decisions: usize,
    others_hold: bool,
) {
    use crate::web_e2e::{browser_available, connect_sized, screenshot, start_driver};
    use fantoccini::Locator;
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let org = organiser(p);
    let bot = format!("b={PAIFU} bot {game} --strategy {strategy} --seed s{{seat}}");
    let server = serve(p, &["--bot", &bot]);
    let addr = server.addr.clone();
    let (id, tokens) = open(&addr, &org, request);
    let token = tokens[0].clone().unwrap();
    let driver = start_driver();
    let c = connect_sized(&driver, 1366, 768).await;
    let phone = connect_sized(&driver, 390, 844).await;
    let url = format!("http://{addr}/play/{token}");
    c.goto(&url).await.unwrap();
    phone.goto(&url).await.unwrap();
    let body = |c: &fantoccini::Client| {
        let c = c.clone();
        async move {
            let v = c
                .execute("return [document.body.dataset.state||'', document.body.dataset.toAct||'', document.body.dataset.version||'']", vec![])
                .await
                .unwrap();
            let s: Vec<String> = v.as_array().unwrap().iter().map(|x| x.as_str().unwrap_or("").to_owned()).collect();
            (s[0].clone(), s[1] == "true", s[2].clone())
        }
    };
    let start = Instant::now();
    let (mut made, mut checked) = (0usize, 0usize);
    let mut calls_shown = false;
    loop {
        assert!(start.elapsed() < Duration::from_secs(600), "{game}: the game did not end: {made} decisions");
        let (state, to_act, version) = body(&c).await;
        if state == "ended" || (!whole && made >= decisions) {
            break;
        }
        if !to_act {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        // The host waits for this seat: the journal is the position the page shows.
        let (_, answer) = call(&addr, "GET", &format!("/api/play/{token}"), None, None);
        assert_private(&answer, game);
        let mut seen = std::collections::BTreeSet::new();
        strings(&answer["view"], &mut seen);
        let faces: Vec<String> = serde_json::from_value(c.execute(FACES_JS, vec![]).await.unwrap()).unwrap();
        let concealed = others_concealed(p, id, 0);
        // Ta Yü: a piece is drawn and placed in one turn, so no other seat holds one while this
        // seat is asked (a fact checked here; the page is then checked by the API's view).
        assert!(others_hold || concealed.is_empty(), "{game}: another seat holds {concealed:?}");
        let unseen: std::collections::BTreeSet<String> = concealed.into_iter().filter(|k| !seen.contains(k)).collect();
        // The faces are read as the page draws them: the seat's own concealed ones are all there.
        let mine: Vec<String> = ["players", "seats"]
            .iter()
            .filter_map(|k| answer["view"][k].as_array())
            .flat_map(|l| l.iter().filter(|p| p["seat"].as_u64().unwrap_or(0) == 0).take(1))
            .flat_map(|p| ["hand", "held"].map(|h| p[h].clone()))
            .flat_map(|h| h.as_array().cloned().unwrap_or_default())
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect();
        assert!(mine.iter().all(|t| faces.contains(t)), "{game}: the page shows the seat's own {mine:?}: {faces:?}");
        let leaked: Vec<&String> = faces.iter().filter(|f| unseen.contains(*f)).collect();
        assert!(leaked.is_empty(), "{game}: the page shows {leaked:?}, which only another seat holds");
        checked += unseen.len();
        if let Some(o) = overflow(&c).await {
            screenshot(&c, &format!("play-{game}-overflow")).await;
            panic!("{game} at 1366x768: {o}");
        }
        if made == 1 {
            // The phone follows the same seat.
            let deadline = Instant::now() + Duration::from_secs(10);
            while body(&phone).await.2 != version {
                assert!(Instant::now() < deadline, "{game}: the phone's page does not follow the seat");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            if let Some(o) = overflow(&phone).await {
                screenshot(&phone, &format!("play-{game}-phone-overflow")).await;
                panic!("{game} at 390x844: {o}");
            }
            screenshot(&c, &format!("play-{game}")).await;
            screenshot(&phone, &format!("play-{game}-phone")).await;
        }
        let count = |sel: String| {
            let c = c.clone();
            async move { c.find_all(Locator::Css(&sel)).await.unwrap() }
        };
        // The first time the seat has several calls to choose from: each call's button is one
        // line (its tiles or cards in a row, not a column of them), at both sizes.
        if !calls_shown && count("#calls button.call".to_owned()).await.len() >= 2 {
            calls_shown = true;
            let deadline = Instant::now() + Duration::from_secs(10);
            while body(&phone).await.2 != version {
                assert!(Instant::now() < deadline, "{game}: the phone's page does not follow the seat");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            screenshot(&c, &format!("play-{game}-calls")).await;
            screenshot(&phone, &format!("play-{game}-calls-phone")).await;
            for (size, page) in [("1366x768", &c), ("390x844", &phone)] {
                let tallest = page.execute(TALLEST_CALL_JS, vec![]).await.unwrap().as_f64().unwrap();
                assert!(tallest <= 48.0, "{game} at {size}: a call's button is {tallest} px tall, not one line");
            }
        }
        let mut buttons = Vec::new();
        for sel in [
            "#calls button[data-key='w']",
            "#calls button[data-key='s']",
            "#hand button.tile:not([disabled])",
            "#calls button",
        ] {
            buttons = count(sel.to_owned()).await;
            if !buttons.is_empty() {
                break;
            }
        }
        buttons.first().unwrap_or_else(|| panic!("{game}: nothing to click")).click().await.unwrap();
        made += 1;
        let asked = Instant::now();
        while body(&c).await.2 == version {
            assert!(asked.elapsed() < Duration::from_secs(20), "{game}: the page did not move on after a click");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    assert!(made >= decisions, "{game}: {made} decisions");
    assert!(checked > 0 || !others_hold, "{game}: another seat's concealed pieces were looked for in the page");
    if whole {
        let (_, table) = call(&addr, "GET", &format!("/api/tables/{id}"), None, None);
        let game_id = table["games"][0].as_i64().unwrap();
        assert_eq!(stored(p, game_id), (true, 1), "{table}");
    }
    eprintln!("{game} in chromium: {made} decisions by clicks");
}

fn person_and_bots(game: &str, bots: usize) -> Value {
    let mut seats = vec![json!({ "name": "Aiko" })];
    seats.extend((1..=bots).map(|i| json!({ "name": format!("b{i}"), "bot": "b" })));
    json!({ "game": game, "seats": seats })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_whole_tzq_game_by_clicks_in_chromium() {
    a_person_plays_in_chromium("tzq", person_and_bots("tzq", 1), "random", true, 10, true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_ta_yu_by_clicks_in_chromium() {
    a_person_plays_in_chromium("tayu", person_and_bots("tayu", 1), "random", true, 3, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_mcr_with_flowers_by_clicks_in_chromium() {
    a_person_plays_in_chromium("mcr", person_and_bots("mcr", 3), "random", false, 12, true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_hungarian_by_clicks_in_chromium() {
    a_person_plays_in_chromium("hungarian", person_and_bots("hungarian", 3), "random", false, 12, true).await;
}

/// The riichi seat at 1366x768 and on a phone: everything on one screen, the help line under
/// the hand included (it fell below the fold at 1366x768).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_riichi_seat_fits_a_laptop_and_a_phone_screen_in_chromium() {
    let mut request = person_and_bots("riichi", 3);
    request["ruleset"] = json!("tonpuu");
    a_person_plays_in_chromium("riichi", request, "greedy", false, 6, true).await;
}

/// One request with headers of its own; the status, the head and the body as text.
fn http(addr: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    let extra: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (status, head.to_owned(), body.to_owned())
}

/// A dashboard session for the token: its cookie (`name=value`).
fn log_in(addr: &str, token: &str) -> String {
    let form = format!("token={token}&next=/tables/new");
    let (s, head, _) = http(addr, "POST", "/login", &[("Content-Type", "application/x-www-form-urlencoded")], &form);
    assert_eq!(s, 303, "{head}");
    let line = head.lines().find(|l| l.to_ascii_lowercase().starts_with("set-cookie:")).expect("a session cookie");
    line.split_once(':').unwrap().1.trim().split(';').next().unwrap().to_owned()
}

/// The value of the first `name="NAME" value="..."` in a page.
fn input_value(page: &str, name: &str) -> String {
    let at = page.find(&format!("name=\"{name}\" value=\"")).unwrap_or_else(|| panic!("no {name} in {page}"));
    let rest = &page[at + name.len() + 15..];
    rest[..rest.find('"').unwrap()].to_owned()
}

/// The dashboard's form opens a table as `POST /api/tables` does, by the same code: the same
/// refusals, named; the session's CSRF token required, another site's form refused, an
/// uploader refused; the answer shows the person's join link once, uncached, and it opens the
/// seat.
#[test]
fn an_organiser_opens_a_table_from_the_dashboard_form() {
    let (dir, org, server) = with_greedy();
    let p = dir.path();
    let addr = server.addr.as_str();
    let (s, _, page) = http(addr, "GET", "/tables/new", &[], "");
    assert_eq!(s, 200);
    assert!(page.contains("/login?next=/tables/new"), "not logged in: a link to log in: {page}");
    let cookie = log_in(addr, &org);
    let (s, _, page) = http(addr, "GET", "/tables/new", &[("Cookie", &cookie)], "");
    assert_eq!(s, 200, "{page}");
    assert!(page.contains("<option value=\"greedy\">bot greedy</option>"), "the server's bots are offered: {page}");
    let csrf = input_value(&page, "csrf");
    let form = |csrf: &str, extra: &str| {
        format!(
            "csrf={csrf}&game=riichi&ruleset=tonpuu&games=1&tournament=Club&seat0_name=Aiko&seat0_bot=\
             &seat1_name=g1&seat1_bot=greedy&seat2_name=g2&seat2_bot=greedy&seat3_name=g3&seat3_bot=greedy{extra}"
        )
    };
    let post = |headers: &[(&str, &str)], body: &str| {
        let mut h = vec![("Content-Type", "application/x-www-form-urlencoded")];
        h.extend_from_slice(headers);
        http(addr, "POST", "/tables/new", &h, body)
    };
    // Without the session's CSRF token, or from another site: refused, nothing opened.
    let (s, _, _) = post(&[("Cookie", &cookie)], &form("0000", ""));
    assert_eq!(s, 403);
    let (s, _, _) = post(&[("Cookie", &cookie), ("Origin", "http://evil.example")], &form(&csrf, ""));
    assert_eq!(s, 403);
    assert_eq!(call(addr, "GET", "/api/tables/1", None, None).0, 404, "no table was opened");
    // The API's refusals, named, the form shown again with what was typed.
    for (extra, field) in [
        ("&seat1_bot=sh+-c+touch+pwned", "seats[1].bot"),
        ("&game=chess", "game"),
        ("&ruleset=blitz", "ruleset"),
        ("&options=%7B%22no_such_option%22%3A1%7D", "options"),
        ("&options=not+json", "options"),
        ("&games=0", "games"),
        ("&seat1_name=Ai%E2%80%8Bko", "seats[1].name"),
    ] {
        // A repeated field: the last one counts (serde_urlencoded into a map).
        let (s, _, page) = post(&[("Cookie", &cookie)], &form(&csrf, extra));
        assert_eq!(s, 422, "{extra}: {page}");
        assert!(page.contains(&format!("data-field=\"{field}\"")), "{extra}: the field is named: {page}");
        assert!(page.contains("value=\"Aiko\""), "the form keeps what was typed: {page}");
    }
    assert!(!p.join("pwned").exists());
    assert_eq!(call(addr, "GET", "/api/tables/1", None, None).0, 404, "no table was opened");
    // Opened: the join link shown once, not cached, no referrer.
    let (s, head, page) = post(&[("Cookie", &cookie)], &form(&csrf, ""));
    assert_eq!(s, 201, "{page}");
    let head = head.to_ascii_lowercase();
    assert!(head.contains("cache-control: no-store") && head.contains("referrer-policy: no-referrer"), "{head}");
    let links: Vec<&str> = page.match_indices(&format!("http://{addr}/play/")).map(|(i, _)| &page[i..]).collect();
    assert_eq!(links.len(), 1, "one join link, the person's: {page}");
    let token = links[0].trim_start_matches(&format!("http://{addr}/play/"));
    let token = &token[..token.find('"').unwrap()];
    let (s, seat) = call(addr, "GET", &format!("/api/play/{token}"), None, None);
    assert_eq!((s, seat["seat"].as_u64()), (200, Some(0)), "{seat}");
    let id = seat["table"].as_i64().unwrap();
    let (_, table) = call(addr, "GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(table["tournament"], "Club", "{table}");
    let kinds: Vec<&str> = table["seats"].as_array().unwrap().iter().map(|s| s["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["person", "bot", "bot", "bot"], "{table}");
    // An uploader may not open tables, by the form either.
    let up = Archive::open(&p.join("t.db")).unwrap().create_token("up", Role::Uploader).unwrap().secret;
    let up_cookie = log_in(addr, &up);
    let (s, _, _) = http(addr, "GET", "/tables/new", &[("Cookie", &up_cookie)], "");
    assert_eq!(s, 403);
    let (_, _, up_page) = http(addr, "GET", "/upload", &[("Cookie", &up_cookie)], "");
    let up_csrf = input_value(&up_page, "csrf");
    let (s, _, _) = post(&[("Cookie", &up_cookie)], &form(&up_csrf, ""));
    assert_eq!(s, 403);
}

/// The navigation offers the form that opens a table (`/tables/new`) to a session whose role may
/// open tables (an organiser, an admin), on every page of the dashboard, and not to an uploader
/// nor to someone not logged in (for whom the form answers 403, or asks to log in).
#[test]
fn the_navigation_offers_the_table_form_only_to_those_who_may_open_tables() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let org = organiser(p);
    let (up, admin) = {
        let mut a = Archive::open(&p.join("t.db")).unwrap();
        (a.create_token("up", Role::Uploader).unwrap().secret, a.create_token("boss", Role::Admin).unwrap().secret)
    };
    let server = serve(p, &[]);
    let addr = server.addr.as_str();
    let link = "<a id=\"open-table\" href=\"/tables/new\"";
    let pages = ["/", "/games", "/players", "/tournaments", "/upload", "/verify", "/login", "/tables/new"];
    for (who, cookie, offered) in [
        ("nobody", None, false),
        ("an uploader", Some(log_in(addr, &up)), false),
        ("an organiser", Some(log_in(addr, &org)), true),
        ("an admin", Some(log_in(addr, &admin)), true),
    ] {
        let headers: Vec<(&str, &str)> = cookie.iter().map(|c| ("Cookie", c.as_str())).collect();
        for path in pages {
            let (s, _, page) = http(addr, "GET", path, &headers, "");
            if path == "/tables/new" && who == "an uploader" {
                assert_eq!(s, 403, "{who}: {page}");
            } else {
                assert_eq!(s, 200, "{who} {path}: {page}");
            }
            assert_eq!(page.contains(link), offered, "{who} on {path}: {page}");
        }
    }
}

/// The form in Chromium: an organiser logs in, fills it and opens a table; the answer's join
/// link opens the seat's page. Screenshots at 1366x768 and 390x844 (PAIFU_SCREENSHOTS=1).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_form_in_chromium() {
    use crate::web_e2e::{browser_available, connect_sized, screenshot, start_driver};
    use fantoccini::Locator;
    if !browser_available() {
        return;
    }
    let (_dir, org, server) = with_greedy();
    let addr = server.addr.clone();
    let driver = start_driver();
    for (w, h, suffix) in [(1366, 768, ""), (390, 844, "-phone")] {
        let c = connect_sized(&driver, w, h).await;
        c.goto(&format!("http://{addr}/login?next=/tables/new")).await.unwrap();
        c.find(Locator::Css("#token")).await.unwrap().send_keys(&org).await.unwrap();
        c.find(Locator::Css("#login")).await.unwrap().click().await.unwrap();
        c.wait().for_element(Locator::Css("#table-form")).await.unwrap();
        for (k, name) in ["Aiko", "g1", "g2", "g3"].iter().enumerate() {
            c.find(Locator::Css(&format!("input[name=seat{k}_name]"))).await.unwrap().send_keys(name).await.unwrap();
            if k > 0 {
                let select = c.find(Locator::Css(&format!("select[name=seat{k}_bot]"))).await.unwrap();
                select.select_by_value("greedy").await.unwrap();
            }
        }
        c.find(Locator::Css("#game")).await.unwrap().select_by_value("riichi").await.unwrap();
        c.find(Locator::Css("#ruleset")).await.unwrap().clear().await.unwrap();
        c.find(Locator::Css("#ruleset")).await.unwrap().send_keys("tonpuu").await.unwrap();
        screenshot(&c, &format!("table-form{suffix}")).await;
        c.find(Locator::Css("#open")).await.unwrap().click().await.unwrap();
        let Ok(join) = c.wait().at_most(Duration::from_secs(10)).for_element(Locator::Css("#joins input.join")).await
        else {
            screenshot(&c, &format!("table-refused{suffix}")).await;
            panic!("no join link: {}", c.find(Locator::Css("main")).await.unwrap().text().await.unwrap());
        };
        screenshot(&c, &format!("table-opened{suffix}")).await;
        let link = join.prop("value").await.unwrap().expect("the join link");
        assert!(link.starts_with(&format!("http://{addr}/play/pfj_")), "{link}");
        c.goto(&link).await.unwrap();
        let status = c.wait().for_element(Locator::Css("#status")).await.unwrap().text().await.unwrap();
        assert!(status.contains("Aiko (seat 0)"), "{status}");
        c.close().await.unwrap();
    }
}

/// `paifu arena --duplicate`'s summary: each player's mean rank points over the complete
/// duplicate sets with a 95% interval, and how many sets; the means recomputed here from the
/// match's logs.
#[test]
fn a_duplicate_match_summary_gives_mean_rank_points_with_an_interval_over_its_sets() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let bot = |s: &str| format!("{PAIFU} bot tzq --strategy random --seed {s}");
    let o = crate::util::paifu(
        &[
            "arena",
            "tzq",
            "--bot",
            &bot("a"),
            "--bot",
            &bot("b"),
            "--name",
            "Ann",
            "--name",
            "Bo",
            "--duplicate",
            "--games",
            "3",
            "--out",
            "m",
            "-q",
        ],
        p,
    );
    assert!(o.status.success(), "{}", crate::util::stderr(&o));
    let out = crate::util::stdout(&o);
    assert!(out.contains("duplicate: 3 complete sets of 2 games"), "{out}");
    assert!(out.contains("95% confidence interval over the sets (Student's t, 2 degrees of freedom)"), "{out}");
    // Each player's mean: rank points (1 first, 0 last) averaged over the six games, which is
    // the mean of the three set means (each set has two games).
    let mut points: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for n in 1..=6 {
        let bytes = std::fs::read(p.join(format!("m/game-{n:04}.paifu.jsonl"))).unwrap();
        let report = paifu_core::replay::validate_bytes(&bytes);
        let paifu_core::replay::Verdict::Valid(outcome) = report.verdict else { panic!("game {n} is invalid") };
        for (name, place) in report.header.unwrap().seats.iter().zip(&outcome.placements) {
            points.entry(name.clone()).or_default().push(2.0 - f64::from(*place));
        }
    }
    for (name, xs) in &points {
        assert_eq!(xs.len(), 6, "{name} plays every game");
        let mean = xs.iter().sum::<f64>() / 6.0;
        let line = out.lines().find(|l| l.trim_start().starts_with(&format!("{name}:"))).expect("a line per player");
        assert!(line.contains(&format!("{name}: {mean:.3} ± ")) && line.contains("6 games"), "{line} (mean {mean})");
    }
}

/// A person whose browser lost its contribution after committing cannot reveal it: once the
/// reveals' time is over the table is abandoned (ended, no game played, the seat named), at
/// once when the server is running and at take-up when it was down at the deadline; a share
/// sent after it is refused.
#[test]
fn a_table_whose_shares_are_not_all_revealed_in_time_is_abandoned_without_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let org = organiser(p);
    let server = serve(p, &[]);
    let addr = server.addr.clone();
    let request =
        json!({ "game": "tzq", "seats": [{ "name": "Aiko" }, { "name": "Bao" }], "clock": { "reveal_ms": 1500 } });
    let (s, v) = call(
        &addr,
        "POST",
        "/api/tables",
        Some(&org),
        Some(&json!({ "game": "tzq",
        "seats": [{ "name": "Aiko" }, { "name": "Bao" }], "clock": { "reveal_ms": 10 } })),
    );
    assert_eq!((s, v["field"].as_str()), (422, Some("clock.reveal_ms")), "{v}");
    let commit_both = |addr: &str, tokens: &[Option<String>]| {
        for (k, t) in tokens.iter().enumerate() {
            let c = fair::commit(&format!("seat {k}"), &contribution(k)).to_string();
            let t = t.as_ref().unwrap();
            assert_eq!(
                call(addr, "POST", &format!("/api/play/{t}/seed"), None, Some(&json!({ "commitment": c }))).0,
                200
            );
        }
    };
    let reveal = |addr: &str, tokens: &[Option<String>], k: usize| {
        let t = tokens[k].as_ref().unwrap();
        let v = json!({ "contribution": hex::encode(contribution(k)) });
        call(addr, "POST", &format!("/api/play/{t}/seed"), None, Some(&v))
    };
    // Table A: both commit, only Aiko reveals; Bao's browser lost its share.
    let (a, tokens_a) = open(&addr, &org, request.clone());
    commit_both(&addr, &tokens_a);
    assert_eq!(reveal(&addr, &tokens_a, 0).0, 200);
    let (_, seat) = call(&addr, "GET", &format!("/api/play/{}", tokens_a[1].as_ref().unwrap()), None, None);
    let by = seat["fair"]["reveal_by_ms"].as_i64().expect("the seat is told when the shares are due");
    assert!(by > paifu_recorder::arena::person::now_ms(), "{seat}");
    let (_, page) = {
        let (s, _, page) = http(&addr, "GET", &format!("/play/{}", tokens_a[1].as_ref().unwrap()), &[], "");
        (s, page)
    };
    assert!(page.contains("the table is abandoned and no game is played on it"), "the page says so: {page}");
    let ended = |addr: &str, id: i64| {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let (_, table) = call(addr, "GET", &format!("/api/tables/{id}"), None, None);
            if table["state"] != "waiting" || Instant::now() > deadline {
                return table;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    // What a seat of an abandoned table is shown, and a share sent late: refused, no game begun.
    let check_seat = |addr: &str, id: i64, tokens: &[Option<String>]| {
        let (_, seat) = call(addr, "GET", &format!("/api/play/{}", tokens[0].as_ref().unwrap()), None, None);
        assert_eq!(seat["state"], "ended", "{seat}");
        assert!(seat["notice"].as_str().is_some_and(|n| n.contains("abandoned")), "the seat is told: {seat}");
        let (_, _, page) = http(addr, "GET", &format!("/play/{}", tokens[0].as_ref().unwrap()), &[], "");
        assert!(page.contains("no game was played at it"), "{page}");
        let (s, v) = reveal(addr, tokens, 1);
        assert_eq!(s, 409, "{v}");
        assert!(!p.join(format!("t.db-tables/table-{id}/live/game-0001.paifu.jsonl")).exists());
    };
    let check_table = |table: &Value, awaited: &[&str]| {
        assert_eq!(table["state"], "ended", "{table}");
        assert_eq!(table["games"], json!([]), "no game was played: {table}");
        assert_eq!(table["reveal"]["awaited"], json!(awaited), "{table}");
        assert!(table["reveal"]["match_seed"].is_null(), "no seed is made: {table}");
    };
    // Table A is abandoned by the running server.
    let (b, tokens_b) = open(&addr, &org, request);
    check_table(&ended(&addr, a), &["seat 1"]);
    check_seat(&addr, a, &tokens_a);
    // Table B: both commit; the server stops before the deadline and starts again after it.
    commit_both(&addr, &tokens_b);
    drop(server);
    std::thread::sleep(Duration::from_millis(2000));
    let server = serve(p, &[]);
    let addr = server.addr.clone();
    check_table(&ended(&addr, b), &["seat 0", "seat 1"]);
    check_seat(&addr, b, &tokens_b);
}
