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
