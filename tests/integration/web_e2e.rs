//! End-to-end tests of the dashboard in a real headless Chromium, driven through chromedriver
//! (WebDriver, with fantoccini).
//!
//! Needs Debian's `chromium` and `chromium-driver` (/usr/bin/chromium, /usr/bin/chromedriver).
//! Without them the test fails when the environment variable CI is set, and is skipped (saying
//! why) otherwise.

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use paifu_core::log::Encoding;
use paifu_recorder::archive::{Archive, Role};
use paifu_recorder::samples::{tzq_bytes, tzq_log};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Whether the browser is there; panics under CI when it is not.
fn browser_available() -> bool {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER].into_iter().filter(|p| !Path::new(p).exists()).collect();
    if missing.is_empty() {
        return true;
    }
    let msg = format!(
        "the end-to-end web tests need {} (install with: apt-get install -y chromium chromium-driver)",
        missing.join(" and ")
    );
    if std::env::var_os("CI").is_some() {
        panic!("{msg}");
    }
    eprintln!("SKIPPED: {msg}");
    false
}

/// chromedriver on a free port; killed on drop.
struct Driver {
    child: Child,
    port: u16,
    _profile: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

fn start_driver() -> Driver {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen on port {port} within 20 s");
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver { child, port, _profile: tempfile::tempdir().expect("a profile folder") }
}

async fn connect(driver: &Driver) -> Client {
    let profile = driver._profile.path().display().to_string();
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1000,1400",
                format!("--user-data-dir={profile}"),
            ],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a Chromium session through chromedriver")
}

async fn press(c: &Client, key: Key) {
    let k: char = key.into();
    let actions =
        KeyActions::new("keyboard".into()).then(KeyAction::Down { value: k }).then(KeyAction::Up { value: k });
    c.perform_actions(actions).await.expect("key press");
}

/// Waits until the element's text satisfies `ok`, answering the text.
async fn wait_text(c: &Client, css: &str, ok: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Ok(e) = c.find(Locator::Css(css)).await {
            if let Ok(t) = e.text().await {
                if ok(&t) {
                    return t;
                }
                assert!(Instant::now() < deadline, "{css} still reads {t:?}");
            }
        }
        assert!(Instant::now() < deadline, "no element {css} on {:?}", c.current_url().await.ok());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dashboard_in_chromium() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("e2e.db");
    let token = {
        let mut a = Archive::open(&db).unwrap();
        for i in 0..4 {
            let players = if i % 2 == 0 { ["Akiko", "Bruno"] } else { ["Bruno", "Chen"] };
            a.ingest_bytes(&tzq_bytes(&format!("e2e/{i}"), players, Encoding::Binary), None, Some("E2E Cup")).unwrap();
        }
        a.create_token("e2e", Role::Uploader).unwrap().secret
    };
    let server = paifu_web::spawn(paifu_web::Config::new(&db), "127.0.0.1:0").expect("the server starts");
    let base = server.url();
    let driver = start_driver();
    let c = connect(&driver).await;

    // The overview.
    c.goto(&format!("{base}/")).await.unwrap();
    wait_text(&c, "h1", |t| t == "Archive overview").await;
    let games = c.find(Locator::Css(".cards .card b")).await.unwrap().text().await.unwrap();
    assert_eq!(games, "4");

    // Open a game from the latest games.
    c.find(Locator::Css("table tbody tr td a[href^='/games/']")).await.unwrap().click().await.unwrap();
    wait_text(&c, "h1", |t| t.starts_with("Game #") && t.contains("Tien Zi Que")).await;
    assert!(c.find(Locator::Css("svg.plot")).await.is_ok(), "the game page has its score chart");

    // Step through it with the keyboard.
    c.find(Locator::LinkText("Step through it")).await.unwrap().click().await.unwrap();
    wait_text(&c, "#step", |t| t == "0").await;
    assert!(c.find(Locator::Css(".seat .t")).await.is_ok(), "hands are drawn as tiles");
    press(&c, Key::Right).await;
    wait_text(&c, "#step", |t| t == "1").await;
    let action = wait_text(&c, "#action", |t| !t.is_empty()).await;
    assert!(!action.is_empty());
    press(&c, Key::Right).await;
    wait_text(&c, "#step", |t| t == "2").await;
    press(&c, Key::Left).await;
    wait_text(&c, "#step", |t| t == "1").await;
    press(&c, Key::End).await;
    let last = wait_text(&c, "#step", |t| t != "1").await;
    let total = c.find(Locator::Css("#pos")).await.unwrap().text().await.unwrap();
    assert!(total.ends_with(&format!("of {last}")), "End goes to the last step: {total}");
    press(&c, Key::Home).await;
    wait_text(&c, "#step", |t| t == "0").await;
    // Jump to round 2.
    let option = c.find(Locator::Css("select#round option:nth-child(2)")).await.unwrap();
    let start = option.attr("value").await.unwrap().expect("the option is the round's first step");
    option.click().await.unwrap();
    c.find(Locator::Css(".viewer-nav form button")).await.unwrap().click().await.unwrap();
    wait_text(&c, "#step", |t| t == start).await;
    assert!(c.source().await.unwrap().contains("<b>Round 2</b>"));

    // Uploading needs a log-in: the upload page says so; log in with the token.
    c.goto(&format!("{base}/upload")).await.unwrap();
    wait_text(&c, "main", |t| t.contains("Uploading needs a token")).await;
    c.find(Locator::Css("main a[href^='/login']")).await.unwrap().click().await.unwrap();
    let field = c.wait().for_element(Locator::Css("input#token")).await.unwrap();
    field.send_keys(&token).await.unwrap();
    c.find(Locator::Css("button#login")).await.unwrap().click().await.unwrap();
    wait_text(&c, "#who", |t| t.contains("e2e")).await;
    assert!(c.current_url().await.unwrap().path().ends_with("/upload"), "back on the upload page");

    // Upload a log and see its verdict; then a bad one.
    let upload_dir = tempfile::tempdir().unwrap();
    let good = upload_dir.path().join("fresh.paifu.jsonl");
    std::fs::write(&good, tzq_bytes("e2e/upload", ["Dana", "Emeka"], Encoding::JsonLines)).unwrap();
    let mut broken = tzq_log("e2e/broken", ["Dana", "Emeka"]);
    broken.records.truncate(10);
    let bad = upload_dir.path().join("broken.paifu");
    std::fs::write(&bad, paifu_core::log::encode(&broken, Encoding::Binary)).unwrap();
    for (file, expect) in [(&good, "valid"), (&bad, "invalid")] {
        c.goto(&format!("{base}/upload")).await.unwrap();
        let input = c.wait().for_element(Locator::Css("input#log")).await.unwrap();
        input.send_keys(&file.display().to_string()).await.unwrap();
        c.find(Locator::Css("button#send")).await.unwrap().click().await.unwrap();
        let verdict = wait_text(&c, "#verdict", |t| !t.is_empty()).await;
        assert!(
            verdict.contains(expect) && (expect == "invalid" || !verdict.contains("invalid")),
            "uploading {} shows {verdict:?}",
            file.display()
        );
    }
    let fault = c.find(Locator::Css(".fault")).await.unwrap().text().await.unwrap();
    assert!(fault.contains("truncated"), "{fault}");
    // The session cookie is not readable by scripts (HttpOnly).
    let cookie = c.execute("return document.cookie", vec![]).await.unwrap();
    assert_eq!(cookie, serde_json::json!(""), "the session cookie is HttpOnly");

    // A player's page has plots.
    c.goto(&format!("{base}/players/Bruno")).await.unwrap();
    wait_text(&c, "h1", |t| t == "Bruno").await;
    let plot = c.find(Locator::Css("svg.plot")).await.expect("a plot on the player's page");
    assert!(plot.attr("aria-label").await.unwrap().unwrap_or_default().contains("Placements"));

    // The tournament's standings.
    c.goto(&format!("{base}/tournaments/E2E%20Cup")).await.unwrap();
    wait_text(&c, "h1", |t| t == "E2E Cup").await;
    assert!(c.source().await.unwrap().contains("Standings"));

    c.close().await.unwrap();
    server.stop();
}

/// Presses one key by its character (`]`), or its WebDriver code.
async fn press_char(c: &Client, k: char) {
    let actions =
        KeyActions::new("keyboard".into()).then(KeyAction::Down { value: k }).then(KeyAction::Up { value: k });
    c.perform_actions(actions).await.expect("key press");
}

/// Presses `key` with Shift held.
async fn press_shifted(c: &Client, key: Key) {
    let (shift, k): (char, char) = (Key::Shift.into(), key.into());
    let actions = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: shift })
        .then(KeyAction::Down { value: k })
        .then(KeyAction::Up { value: k })
        .then(KeyAction::Up { value: shift });
    c.perform_actions(actions).await.expect("key press");
}

/// The texts of the cells of each row that `css` finds.
async fn rows(c: &Client, css: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for row in c.find_all(Locator::Css(css)).await.unwrap() {
        let mut cells = Vec::new();
        for cell in row.find_all(Locator::Css("td")).await.unwrap() {
            cells.push(cell.text().await.unwrap());
        }
        out.push(cells);
    }
    out
}

/// A real Tenhou game in the riichi viewer: keys step by action and by hand to the first hand's
/// end, whose yaku, han, fu and payments are the archive's verdict (its round facts and score
/// changes); a log with an edited claim opens at that record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn riichi_viewer_in_chromium() {
    if !browser_available() {
        return;
    }
    let real = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/real-logs/tenhou/2010081709gm-00a9-0000-fe3371ad.json");
    let text = std::fs::read_to_string(&real).unwrap();
    let imported = paifu_recorder::import::tenhou6::import(&text, text.as_bytes()).unwrap();
    let names = imported.log.header.seats.clone();
    let mut bad = paifu_recorder::samples::game_log::<paifu_core::riichi::Riichi>(
        "standard",
        "e2e/bad",
        &["Ann", "Bo", "Cy", "Di"],
    )
    .unwrap();
    let at = bad.records.iter().position(|r| r.claim.as_ref().is_some_and(|c| c.round.is_some())).unwrap();
    if let Some(round) = bad.records[at].claim.as_mut().and_then(|c| c.round.as_mut()) {
        round[1] -= 1000;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("riichi.db");
    let (game, faulty) = {
        let mut a = Archive::open(&db).unwrap();
        let g = a.ingest_bytes(&paifu_core::log::encode(&imported.log, Encoding::Binary), None, None).unwrap();
        assert!(g.valid);
        let b = a.ingest_bytes(&paifu_core::log::encode(&bad, Encoding::Binary), None, None).unwrap();
        assert!(!b.valid);
        (g.id, b.id)
    };
    let server = paifu_web::spawn(paifu_web::Config::new(&db), "127.0.0.1:0").expect("the server starts");
    let base = server.url();
    // The log's verdict: its first round's score changes and the winner's facts.
    let report = paifu_core::replay::validate_bytes(&paifu_core::log::encode(&imported.log, Encoding::Binary));
    let round = report.verdict.outcome().expect("the real game is valid").rounds[0].clone();
    let facts = &round.facts;
    let winner = facts.iter().find(|f| f.key == "win").and_then(|f| f.seat).expect("the first hand is won");
    let fact = |key: &str| facts.iter().find(|f| f.seat == Some(winner) && f.key == key).map(|f| f.value);
    let mut yaku: Vec<(String, String)> = facts
        .iter()
        .filter(|f| f.seat == Some(winner))
        .filter_map(|f| Some((f.key.strip_prefix("yaku:")?.to_owned(), f.value.to_string())))
        .collect();
    yaku.sort();

    let driver = start_driver();
    let c = connect(&driver).await;
    c.goto(&format!("{base}/games/{game}/view")).await.unwrap();
    wait_text(&c, "#step", |t| t == "0").await;
    assert!(c.find(Locator::Css("svg.table g.t")).await.is_ok(), "the table is drawn with tile faces");
    let hand = wait_text(&c, "#hand-name", |t| !t.is_empty()).await;
    assert_eq!(hand, "East 1");
    // A step at a time, and back.
    press(&c, Key::Right).await;
    wait_text(&c, "#step", |t| t == "1").await;
    press(&c, Key::Left).await;
    wait_text(&c, "#step", |t| t == "0").await;
    // The next hand's start is the first hand's end: its own screen.
    press_char(&c, ']').await;
    let end_step = wait_text(&c, "#step", |t| t != "0").await;
    let title = wait_text(&c, "#hand-end-title", |t| !t.is_empty()).await;
    assert!(title.starts_with("End of East 1, 0 honba: ") && title.contains(&names[usize::from(winner)]), "{title}");
    // Its yaku and han are the verdict's facts, its fu and han too.
    let mut shown = Vec::new();
    for row in c.find_all(Locator::Css(".win tr[data-yaku]")).await.unwrap() {
        let name = row.attr("data-yaku").await.unwrap().unwrap();
        let han = row.find(Locator::Css("td.n")).await.unwrap().text().await.unwrap();
        shown.push((name, han));
    }
    shown.sort();
    assert_eq!(shown, yaku);
    let value = c.find(Locator::Css(".win .value")).await.unwrap().text().await.unwrap();
    assert!(value.starts_with(&format!("{} han {} fu", fact("han").unwrap(), fact("fu").unwrap())), "{value}");
    // The payments add up, seat by seat, to the verdict's score changes.
    let mut paid = vec![0i64; names.len()];
    for r in rows(&c, "table.payments tbody tr").await {
        let points: i64 = r[2].parse().unwrap();
        if let Some(s) = names.iter().position(|n| *n == r[0]) {
            paid[s] -= points;
        }
        if let Some(s) = names.iter().position(|n| *n == r[1]) {
            paid[s] += points;
        }
    }
    assert_eq!(paid, round.deltas);
    // Back a hand with Shift+←, forward with PageDown.
    press_shifted(&c, Key::Left).await;
    wait_text(&c, "#step", |t| t == "0").await;
    press(&c, Key::PageDown).await;
    wait_text(&c, "#step", |t| t == end_step).await;
    // Following a seat: it is drawn at the bottom, and ↓ goes to its next decision.
    c.goto(&format!("{base}/games/{game}/view?step=0&seat=2")).await.unwrap();
    wait_text(&c, "#step", |t| t == "0").await;
    let bottom = c.find(Locator::Css("g.seat-tiles[data-seat='2']")).await.unwrap();
    assert_eq!(bottom.attr("transform").await.unwrap().as_deref(), Some("rotate(0 380 380)"));
    press(&c, Key::Down).await;
    let own = wait_text(&c, "#step", |t| t != "0").await;
    let own: usize = own.parse().unwrap();
    assert_eq!(imported.log.records[own].seat, 2, "step {own} is seat 2's decision");

    // The faulty log opens at its faulty record, highlighted with its code.
    c.goto(&format!("{base}/games/{faulty}/view")).await.unwrap();
    wait_text(&c, "#step", |t| t == at.to_string()).await;
    assert_eq!(c.find(Locator::Css("#fault-code")).await.unwrap().text().await.unwrap(), "claim_mismatch");
    assert!(c.find(Locator::Css("#fault tr.faulty")).await.is_ok());
    assert!(c.find(Locator::Css("span#next.off")).await.is_ok(), "no step past the fault");

    c.close().await.unwrap();
    server.stop();
}

/// A game in progress followed in the browser: its page moves on by itself as records come in
/// (the polling script), and says so once the game has ended.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_game_follows_its_moves_in_chromium() {
    use paifu_core::log::{header_line, record_line};
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("live.db");
    let log = tzq_log("e2e/live", ["Akiko", "Bruno"]);
    let mut a = Archive::open(&db).unwrap();
    let id = a.live_begin("arena/game-0001", &header_line(&log.header), 0).unwrap();
    let play = |a: &mut Archive, upto: usize| {
        for (i, r) in log.records[..upto].iter().enumerate() {
            a.live_record(id, i as u32, &record_line(r), 1).unwrap();
        }
    };
    play(&mut a, 3);
    let server = paifu_web::spawn(paifu_web::Config::new(&db), "127.0.0.1:0").expect("the server starts");
    let driver = start_driver();
    let c = connect(&driver).await;
    c.goto(&format!("{}/live", server.url())).await.unwrap();
    wait_text(&c, "h1", |t| t == "Games in progress").await;
    c.find(Locator::Css(&format!("a[href='/live/{id}']"))).await.unwrap().click().await.unwrap();
    wait_text(&c, "#step", |t| t == "3").await;
    // Two moves played: the page shows them without being asked (it polls every 3 s).
    play(&mut a, 5);
    wait_text(&c, "#step", |t| t == "5").await;
    wait_text(&c, "#moves", |t| t == "5").await;
    // The keys still step back through the game so far.
    press(&c, Key::Home).await;
    wait_text(&c, "#step", |t| t == "0").await;
    // Back at the latest position; the game ends: its page says so.
    c.goto(&format!("{}/live/{id}", server.url())).await.unwrap();
    wait_text(&c, "#step", |t| t == "5").await;
    a.live_end(id).unwrap();
    wait_text(&c, "main", |t| t.contains("it has ended")).await;
    c.close().await.unwrap();
    server.stop();
}
