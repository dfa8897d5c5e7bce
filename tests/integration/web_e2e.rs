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
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Whether the browser is there; panics under CI when it is not.
pub(crate) fn browser_available() -> bool {
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

/// chromedriver on a free port, in a process group of its own; on drop the whole group is
/// killed, the Chromium it started with it (killing chromedriver alone left each test's browser
/// running, its parent gone: 19 of them after one run of the suite).
pub(crate) struct Driver {
    child: Child,
    port: u16,
    _profile: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The group's number is chromedriver's own (`process_group(0)` below).
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).stderr(Stdio::null()).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

pub(crate) fn start_driver() -> Driver {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .process_group(0)
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

pub(crate) async fn connect(driver: &Driver) -> Client {
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
    assert!(c.find(Locator::Css(".seat .card")).await.is_ok(), "hands are drawn as cards");
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
    // Choosing it goes there at once (the script sends the form); Go stays there.
    option.click().await.unwrap();
    wait_text(&c, "#step", |t| t == start).await;
    c.find(Locator::Css(".viewer-forms form button")).await.unwrap().click().await.unwrap();
    wait_text(&c, "#step", |t| t == start).await;
    // Round 2's first step is the one that ends round 1: round 1's end is shown over its last
    // position, and the select says where the game is now.
    let src = c.source().await.unwrap();
    assert!(src.contains("<b>Round 1</b>") && src.contains("End of round 1"), "{src}");
    let chosen = c.execute("return document.querySelector('#round').selectedIndex", vec![]).await.unwrap();
    assert_eq!(chosen, serde_json::json!(1));

    // Uploading needs a log-in: the upload page says so; log in with the token.
    c.goto(&format!("{base}/upload")).await.unwrap();
    wait_text(&c, "main", |t| t.contains("Uploading needs a token")).await;
    c.find(Locator::Css("main a[href^='/login']")).await.unwrap().click().await.unwrap();
    let field = c.wait().for_element(Locator::Css("input#token")).await.unwrap();
    field.send_keys(&token).await.unwrap();
    c.find(Locator::Css("button#login")).await.unwrap().click().await.unwrap();
    wait_text(&c, "#who", |t| t.contains("e2e")).await;
    assert!(c.current_url().await.unwrap().path().ends_with("/upload"), "back on the upload page");
    // Logged in, the header says who rather than offering to log in.
    wait_text(&c, "header #account", |t| t == "Logged in: e2e").await;
    c.goto(&format!("{base}/games")).await.unwrap();
    wait_text(&c, "header #account", |t| t == "Logged in: e2e").await;

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
pub(crate) async fn press_char(c: &Client, k: char) {
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

/// A Chromium session with a window of `width` x `height`.
pub(crate) async fn connect_sized(driver: &Driver, width: u32, height: u32) -> Client {
    let profile = driver._profile.path().display().to_string();
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars", format!("--window-size={width},{height}"),
                format!("--user-data-dir={profile}/{width}x{height}"),
            ],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let c = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a Chromium session through chromedriver");
    // The window's size includes its frame: grow it until the page itself is width x height.
    let inner = |c: Client| async move {
        let v = c.execute("return [window.innerWidth, window.innerHeight]", vec![]).await.unwrap();
        (c, v[0].as_u64().unwrap_or(0) as u32, v[1].as_u64().unwrap_or(0) as u32)
    };
    let (c, w, h) = inner(c).await;
    if (w, h) != (width, height) {
        c.set_window_size(width + width.saturating_sub(w), height + height.saturating_sub(h)).await.unwrap();
    }
    c
}

/// Saves a screenshot of the page as `docs/screenshots/NAME.png` when PAIFU_SCREENSHOTS is set
/// (how the screenshots in docs/ are made: `PAIFU_SCREENSHOTS=1 cargo test --test integration
/// web_e2e`).
pub(crate) async fn screenshot(c: &Client, name: &str) {
    if std::env::var_os("PAIFU_SCREENSHOTS").is_none() {
        return;
    }
    let png = c.screenshot().await.expect("a screenshot");
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// Clicks `css` in the viewer, which swaps its whole part (controls included) at every step: an
/// element found just before a swap is stale by the time it is clicked, so find it again.
async fn click_swapped(c: &Client, css: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let clicked = match c.find(Locator::Css(css)).await {
            Ok(e) => e.click().await,
            Err(e) => Err(e),
        };
        match clicked {
            Ok(()) => return,
            Err(e) => assert!(Instant::now() < deadline, "{css} cannot be clicked: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The step shown (read by script: the element may be swapped while it is read).
async fn step_now(c: &Client) -> usize {
    let v = c.execute("return document.getElementById('step').textContent", vec![]).await.unwrap();
    v.as_str().and_then(|t| t.parse().ok()).unwrap_or(0)
}

/// A number the page's script answers.
async fn js_f64(c: &Client, script: &str) -> f64 {
    c.execute(script, vec![]).await.expect("the script runs").as_f64().unwrap_or(f64::NAN)
}

/// The real Tenhou game stored in a fresh archive, with its step numbers: where its first hand
/// ends, and a step in the middle of its first hand.
fn real_riichi_archive(db: &Path) -> (i64, paifu_core::log::Log<paifu_core::riichi::Action>) {
    let real = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/real-logs/tenhou/2010081709gm-00a9-0000-fe3371ad.json");
    let text = std::fs::read_to_string(&real).unwrap();
    let imported = paifu_recorder::import::tenhou6::import(&text, text.as_bytes()).unwrap();
    let mut a = Archive::open(db).unwrap();
    let g =
        a.ingest_bytes(&paifu_core::log::encode(&imported.log, Encoding::Binary), None, Some("Review Cup")).unwrap();
    assert!(g.valid);
    (g.id, imported.log)
}

/// The riichi table at 1366x768: the followed seat's hand is inside the first 768 pixels;
/// stepping with the arrow key changes the table in place (no navigation: the page's own
/// JavaScript state survives, the scroll stays); held keys and the play button step on; a seat
/// followed with "only what they knew" sees the others' hands face down; the hand's end sits
/// over the table it ended on and names that hand; the last step shows the final standings.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_riichi_table_fits_the_screen_and_steps_in_place() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("table.db");
    let (game, _log) = real_riichi_archive(&db);
    let server = paifu_web::spawn(paifu_web::Config::new(&db), "127.0.0.1:0").expect("the server starts");
    let base = server.url();
    let driver = start_driver();
    let c = connect_sized(&driver, 1366, 768).await;

    // Mid-hand, following seat 2: its hand is on screen.
    c.goto(&format!("{base}/games/{game}/view?step=40&seat=2")).await.unwrap();
    wait_text(&c, "#step", |t| t == "40").await;
    assert_eq!(js_f64(&c, "return window.innerWidth").await, 1366.0);
    let bottom = js_f64(
        &c,
        "var b=0;document.querySelectorAll(\"g.seat-tiles[data-seat='2'] g.t\").forEach(function(e){\
         b=Math.max(b,e.getBoundingClientRect().bottom)});return b",
    )
    .await;
    assert!(bottom > 300.0 && bottom <= 768.0, "the followed hand ends at {bottom} px");
    screenshot(&c, "riichi-mid-hand").await;

    // The arrow key: the table changes, the page does not load again, the scroll stays.
    c.execute("window.__kept = 'still here'; window.scrollTo(0, 0); return 1", vec![]).await.unwrap();
    let table_before: String = c.find(Locator::Css("svg.table")).await.unwrap().html(false).await.unwrap();
    press(&c, Key::Right).await;
    let next = wait_text(&c, "#step", |t| t != "40").await;
    let table_after: String = c.find(Locator::Css("svg.table")).await.unwrap().html(false).await.unwrap();
    assert_ne!(table_before, table_after, "step {next} draws another table");
    let kept = c.execute("return window.__kept", vec![]).await.unwrap();
    assert_eq!(kept, serde_json::json!("still here"), "no navigation: the page's state survives");
    assert_eq!(js_f64(&c, "return window.scrollY").await, 0.0);
    assert!(c.current_url().await.unwrap().as_str().contains(&format!("step={next}")), "the address follows");
    // Held: many key presses in a row step on.
    let from: usize = next.parse().unwrap();
    let mut held = KeyActions::new("keyboard".into());
    let right: char = Key::Right.into();
    for _ in 0..12 {
        held = held.then(KeyAction::Down { value: right });
    }
    held = held.then(KeyAction::Up { value: right });
    c.perform_actions(held).await.expect("held key");
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let at = step_now(&c).await;
        if at >= from + 3 {
            break;
        }
        assert!(Instant::now() < deadline, "holding → went only from {from} to {at}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(c.execute("return window.__kept", vec![]).await.unwrap(), serde_json::json!("still here"));
    // Play at 8 steps a second, then pause.
    let at = step_now(&c).await;
    c.execute("document.getElementById('speed').value='8';return 1", vec![]).await.unwrap();
    click_swapped(&c, "#play").await;
    wait_text(&c, "#step", |t| t.parse::<usize>().is_ok_and(|n| n >= at + 4)).await;
    click_swapped(&c, "#play").await;
    wait_text(&c, "#play", |t| t.contains("Play")).await;

    // Only what seat 2 knew: the three other hands face down.
    c.goto(&format!("{base}/games/{game}/view?step=40&seat=2&hide=1")).await.unwrap();
    wait_text(&c, "#step", |t| t == "40").await;
    let backs =
        js_f64(&c, "return document.querySelectorAll(\"g.seat-tiles:not([data-seat='2']) g.t.back\").length").await;
    assert!(backs >= 24.0, "{backs} tiles face down");
    assert_eq!(
        js_f64(&c, "return document.querySelectorAll(\"g.seat-tiles[data-seat='2'] g.t.back\").length").await,
        0.0
    );

    // The first hand's end, over the table it ended on, names the hand that ended.
    c.goto(&format!("{base}/games/{game}/view?step=1")).await.unwrap();
    wait_text(&c, "#step", |t| t == "1").await;
    press_char(&c, ']').await;
    let title = wait_text(&c, "#hand-end-title", |t| !t.is_empty()).await;
    assert!(title.starts_with("End of East 1, 0 honba: "), "{title}");
    assert!(c.find(Locator::Css(".v-table details#overlay[open] #hand-end")).await.is_ok(), "over the table");
    let hand = c.find(Locator::Css("#hand-name")).await.unwrap().text().await.unwrap();
    assert_eq!(hand, "East 1", "the table the hand ended on");
    let where_ = c.find(Locator::Css("#where b")).await.unwrap().text().await.unwrap();
    assert!(where_.starts_with("East 1"), "{where_}");
    for r in rows(&c, "table.payments tbody tr").await {
        assert!(!r[3].is_empty(), "every payment says what it is for: {r:?}");
    }
    screenshot(&c, "riichi-end-of-hand").await;

    // The last step: the final standings with points after uma and oka.
    c.goto(&format!("{base}/games/{game}/view?step=end")).await.unwrap();
    wait_text(&c, "#final-title", |t| t == "Final standings").await;
    let lines = rows(&c, "table.final tbody tr").await;
    assert_eq!(lines.len(), 4);
    assert_eq!(lines.iter().map(|r| r[0].clone()).collect::<Vec<_>>(), ["1", "2", "3", "4"]);
    let points: f64 = lines.iter().map(|r| r[3].trim_start_matches('+').parse::<f64>().unwrap()).sum();
    assert!(points.abs() < 0.05, "points after uma and oka add up to zero: {lines:?}");
    screenshot(&c, "riichi-final").await;
    c.close().await.unwrap();

    // A phone in portrait: no horizontal scroll, the followed hand drawn large under the table.
    let phone = connect_sized(&driver, 390, 844).await;
    phone.goto(&format!("{base}/games/{game}/view?step=40&seat=0")).await.unwrap();
    wait_text(&phone, "#step", |t| t == "40").await;
    let (scroll, inner) = (
        js_f64(&phone, "return document.documentElement.scrollWidth").await,
        js_f64(&phone, "return window.innerWidth").await,
    );
    assert!(scroll <= inner, "scrollWidth {scroll} > innerWidth {inner}");
    let tile =
        js_f64(&phone, "var e=document.querySelector('.v-hand g.t');return e?e.getBoundingClientRect().width:0").await;
    assert!(tile >= 20.0, "the followed hand's tiles are {tile} px wide");
    screenshot(&phone, "riichi-phone").await;
    phone.close().await.unwrap();
    server.stop();
}

/// A finished game of `G` between greedy bots.
fn greedy_game<G: paifu_recorder::bots::Bots>(seed: &str, names: &[&str]) -> paifu_core::log::Log<G::Action> {
    let s = paifu_core::Seed::from_text(seed);
    let mut bots: Vec<Box<dyn paifu_recorder::Bot<G>>> =
        (0..names.len()).map(|i| G::bot("greedy", &s.child(&format!("bot/{i}"))).expect("a greedy bot")).collect();
    let rules = G::rules("standard", &Default::default()).expect("rules");
    let mut log = paifu_recorder::play_game::<G>("standard", rules, s, &mut bots, Default::default()).expect("game");
    log.header.seats = names.iter().map(|n| (*n).to_owned()).collect();
    log
}

/// The step (records played) at which the first won hand of `log` ends.
fn first_win<G: paifu_core::Game>(log: &paifu_core::log::Log<G::Action>) -> usize {
    let mut g: G = paifu_core::replay::setup::<G>(&log.header).expect("set up");
    for (i, r) in log.records.iter().enumerate() {
        let before = g.results().len();
        g.play_mut(r.seat, &r.action).expect("a valid log");
        if g.results()[before..].iter().any(|x| x.deltas.iter().any(|&d| d != 0)) {
            return i + 1;
        }
    }
    panic!("no hand was won");
}

/// MCR and Hungarian games in the browser: the won hand's end shows the winning hand drawn as
/// tiles, MCR's fan by their official names with the 8 + fan payments, Hungarian's scoring lines
/// by name and the settlement pair by pair; their game pages name the players and link each
/// round to the viewer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcr_and_hungarian_hands_are_drawn_and_named() {
    use paifu_core::{hungarian::Hungarian, mcr::Mcr};
    if !browser_available() {
        return;
    }
    let names = ["Aiko", "Bence", "Chen", "Dani"];
    let mcr = greedy_game::<Mcr>("e2e/mcr", &names);
    let hun = greedy_game::<Hungarian>("e2e/hungarian", &names);
    let (mcr_win, hun_win) = (first_win::<Mcr>(&mcr), first_win::<Hungarian>(&hun));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("mahjong.db");
    let (m, h) = {
        let mut a = Archive::open(&db).unwrap();
        let m = a.ingest_bytes(&paifu_core::log::encode(&mcr, Encoding::Binary), None, None).unwrap();
        let h = a.ingest_bytes(&paifu_core::log::encode(&hun, Encoding::Binary), None, None).unwrap();
        assert!(m.valid && h.valid);
        (m.id, h.id)
    };
    let server = paifu_web::spawn(paifu_web::Config::new(&db), "127.0.0.1:0").expect("the server starts");
    let base = server.url();
    let driver = start_driver();
    let c = connect_sized(&driver, 1366, 768).await;

    // MCR: the winning hand, the fan sheet, the payments.
    c.goto(&format!("{base}/games/{m}/view?step={mcr_win}")).await.unwrap();
    let title = wait_text(&c, "#hand-end-title", |t| !t.is_empty()).await;
    assert!(title.contains(" wins ") && names.iter().any(|n| title.contains(n)), "{title}");
    let tiles = js_f64(&c, "return document.querySelectorAll('.mcr-win svg g.t').length").await;
    assert!(tiles >= 14.0, "the winning hand drawn: {tiles} tiles");
    let fans = rows(&c, "table.fans tbody tr").await;
    assert!(!fans.is_empty());
    for f in &fans {
        assert!(!f[0].contains('_') && f[0].chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)), "{f:?}");
    }
    let total: u32 = c.find(Locator::Css("th.total-fan")).await.unwrap().text().await.unwrap().parse().unwrap();
    let pays = rows(&c, "table.payments tbody tr").await;
    assert_eq!(pays.len(), 3, "{pays:?}");
    assert!(pays.iter().any(|p| p[2] == (8 + total).to_string()), "8 + fan from the discarder or each: {pays:?}");
    screenshot(&c, "mcr-hand-end").await;
    // Its game page: rounds by the players' names, linked to the viewer.
    c.goto(&format!("{base}/games/{m}")).await.unwrap();
    wait_text(&c, "h1", |t| t.contains("Chinese Official")).await;
    let heads: Vec<String> = {
        let mut v = Vec::new();
        for th in c.find_all(Locator::Css("table.rounds thead th")).await.unwrap() {
            v.push(th.text().await.unwrap());
        }
        v
    };
    for n in names {
        assert!(heads.iter().any(|h| h == n), "{heads:?}");
    }
    let src = c.source().await.unwrap();
    assert!(!src.contains("seat 0") && !src.contains("last_tile"), "no seat numbers or internal names");
    assert!(c.find(Locator::Css(&format!("table.rounds a.round-link[href^='/games/{m}/view?step=']"))).await.is_ok());

    // Hungarian: every hand with its lines by name, the settlement pair by pair.
    c.goto(&format!("{base}/games/{h}/view?step={hun_win}")).await.unwrap();
    wait_text(&c, "#hand-end-title", |t| t.contains("wins")).await;
    assert_eq!(js_f64(&c, "return document.querySelectorAll('.hand-score').length").await, 4.0);
    let winner_tiles = js_f64(&c, "return document.querySelectorAll('.hand-score.win svg g.t').length").await;
    assert!(winner_tiles >= 14.0, "{winner_tiles}");
    for l in rows(&c, "table.lines tbody tr").await {
        assert!(!l[0].contains('_'), "{l:?}");
    }
    let pairs = rows(&c, "table.pairs tbody tr").await;
    assert!(pairs.len() >= 3, "each loser pays the winner: {pairs:?}");
    screenshot(&c, "hungarian-hand-end").await;
    c.goto(&format!("{base}/games/{h}")).await.unwrap();
    wait_text(&c, "h1", |t| t.contains("Hungarian")).await;
    let src = c.source().await.unwrap();
    assert!(!src.contains("payments ["), "no raw payment arrays");
    c.close().await.unwrap();
    server.stop();
}

/// The other games and the tournament: TZQ's cards drawn as cards, the Ta Yü board, the
/// tournament's standings before its audit; the uncertified game offers no certificate link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_and_the_tournament_in_chromium() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("five.db");
    let (ids, key) = crate::web_crawl::five_games(&db);
    let mut config = paifu_web::Config::new(&db);
    config.key = Some(key);
    let server = paifu_web::spawn(config, "127.0.0.1:0").expect("the server starts");
    let base = server.url();
    let driver = start_driver();
    let c = connect_sized(&driver, 1366, 768).await;
    c.goto(&format!("{base}/games/{}/view?step=9", ids[0])).await.unwrap();
    wait_text(&c, "#step", |t| t == "9").await;
    assert!(js_f64(&c, "return document.querySelectorAll('.seat .card').length").await >= 5.0, "cards as cards");
    screenshot(&c, "tzq").await;
    c.goto(&format!("{base}/games/{}/view?step=20", ids[4])).await.unwrap();
    wait_text(&c, "#step", |t| t == "20").await;
    assert!(c.find(Locator::Css("svg.board")).await.is_ok());
    screenshot(&c, "tayu").await;
    c.goto(&format!("{base}/games/{}/view?step=60", ids[2])).await.unwrap();
    wait_text(&c, "#step", |t| t == "60").await;
    let flowers = js_f64(&c, "return document.querySelectorAll('svg.table g.t.flower').length").await;
    assert!(flowers > 0.0, "the flowers laid out by step 60 are drawn on the table: {flowers}");
    screenshot(&c, "mcr-table").await;
    c.goto(&format!("{base}/tournaments/Crawl%20Cup")).await.unwrap();
    wait_text(&c, "h1", |t| t == "Crawl Cup").await;
    let src = c.source().await.unwrap();
    let (standings, audit) = (src.find("<h2>Standings</h2>").unwrap(), src.find("id=\"audit\"").unwrap());
    assert!(standings < audit && src.find("id=\"root\"").unwrap() > audit, "standings first, then the audit");
    screenshot(&c, "tournament").await;
    // The certified game links its certificate; the other says there is none.
    c.goto(&format!("{base}/games/{}", ids[1])).await.unwrap();
    wait_text(&c, "h1", |t| t.contains("Riichi")).await;
    assert!(c.find(Locator::Css(&format!("a[href='/games/{}/certificate']", ids[1]))).await.is_ok());
    c.goto(&format!("{base}/games/{}", ids[0])).await.unwrap();
    wait_text(&c, "h1", |t| t.contains("Tien Zi Que")).await;
    assert!(c.find(Locator::Css(&format!("a[href='/games/{}/certificate']", ids[0]))).await.is_err());
    wait_text(&c, ".game-links", |t| t.contains("No certificate by this server yet")).await;
    c.close().await.unwrap();
    server.stop();
}

/// A seat's request that fails on the way (the network is gone: `fetch` rejects) does not lock
/// the seat: the page says the request was not sent, the seed step is tried again by itself,
/// and the next click is sent. (Before, the flag that keeps a seat from sending twice stayed
/// set after a rejected request, and the seat was locked without a word.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_that_fails_does_not_lock_the_seat_in_chromium() {
    use crate::tables::{call, open, organiser};
    use serde_json::json;
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let org = organiser(dir.path());
    let mut config = paifu_web::Config::new(dir.path().join("t.db"));
    config.key = Some(paifu_core::cert::secret_from_bytes([5; 32]));
    config.tables.no_sync = true;
    let server = paifu_web::spawn(config, "127.0.0.1:0").expect("the server starts");
    let addr = server.addr.to_string();
    let (_, tokens) = open(&addr, &org, json!({ "game": "tzq", "seats": [{ "name": "Ann" }, { "name": "Bo" }] }));
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let driver = start_driver();
    let c = connect(&driver).await;
    c.goto(&format!("http://{addr}/play/{t0}")).await.unwrap();
    wait_text(&c, "#fair", |t| t.contains("Waiting for the other seats' commitments")).await;
    let offline = "window.realFetch=window.realFetch||window.fetch;\
                   window.fetch=()=>Promise.reject(new TypeError('offline'));";
    c.execute(offline, vec![]).await.unwrap();
    // Bo commits: the page owes its share, and its request fails.
    let share = [12u8; 32];
    let commitment = paifu_core::fair::commit("seat 1", &share).to_string();
    let (s, v) = call(&addr, "POST", &format!("/api/play/{t1}/seed"), None, Some(&json!({ "commitment": commitment })));
    assert_eq!(s, 200, "{v}");
    wait_text(&c, "#notice", |t| t.contains("the seed step was not sent") && t.contains("offline")).await;
    // Back online: the page sends its share again by itself, and Bo's share starts the game.
    c.execute("window.fetch=window.realFetch;", vec![]).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let reveal = json!({ "contribution": hex::encode(share) });
        let (s, v) = call(&addr, "POST", &format!("/api/play/{t1}/seed"), None, Some(&reveal));
        if s == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "the page did not send its share again: {s} {v}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while c.execute("return document.body.dataset.state", vec![]).await.unwrap().as_str() == Some("waiting") {
        assert!(Instant::now() < deadline, "the game did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A move whose request fails: said, and the next one is sent (here a move the server
    // refuses, so that nothing else changes the page meanwhile).
    let click = "const b=document.createElement('button');b.dataset.action='no such move';\
                 document.getElementById('actions').appendChild(b);b.click();";
    c.execute(offline, vec![]).await.unwrap();
    c.execute(click, vec![]).await.unwrap();
    wait_text(&c, "#notice", |t| t.contains("the move was not sent") && t.contains("offline")).await;
    c.execute("window.fetch=window.realFetch;", vec![]).await.unwrap();
    c.execute(click, vec![]).await.unwrap();
    wait_text(&c, "#notice", |t| !t.is_empty() && !t.contains("not sent")).await;
    c.close().await.unwrap();
    server.stop();
}

/// No browser is left running after a test: a driver dropped with its session still open (as
/// a test that fails, or forgets to close it, drops it) takes its Chromium with it. Before the
/// driver had a process group of its own, each such test left its browser running (nine
/// processes for one game at a table), hundreds after a few runs of the suite.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_driver_leaves_no_browser_running() {
    if !browser_available() {
        return;
    }
    let driver = start_driver();
    let profile = driver._profile.path().display().to_string();
    let c = connect(&driver).await;
    c.goto("about:blank").await.unwrap();
    // The processes whose command line names this test's profile (read from /proc).
    let needle = format!("user-data-dir={profile}");
    let running = || {
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
            .filter(|cmd| String::from_utf8_lossy(cmd).contains(&needle))
            .count()
    };
    assert!(running() > 0, "the browser of profile {profile} was found running");
    drop(driver);
    let deadline = Instant::now() + Duration::from_secs(10);
    while running() > 0 {
        assert!(Instant::now() < deadline, "the browser outlived its driver by 10 s");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(c);
}
