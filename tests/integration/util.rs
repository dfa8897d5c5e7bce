//! Helpers shared by the integration tests.

use paifu_core::log::Log;
use paifu_core::tzq::{Action, Tzq};
use paifu_core::{Game, Seed};
use paifu_recorder::bots::Bots;
use paifu_recorder::play_game;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs the `paifu` binary built for these tests.
pub(crate) fn paifu(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_paifu")).args(args).current_dir(dir).output().expect("run paifu")
}

/// Runs the `paifu` binary with `input` on its standard input.
pub(crate) fn paifu_with_input(args: &[&str], dir: &Path, input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_paifu"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run paifu");
    child.stdin.take().expect("a pipe").write_all(input.as_bytes()).expect("write standard input");
    child.wait_with_output().expect("paifu ends")
}

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A finished TZQ game between two bots.
pub(crate) fn tzq_game(seed: &str, bots: [&str; 2]) -> Log<Action> {
    let s = Seed::from_text(seed);
    let mut b: Vec<Box<dyn paifu_recorder::Bot<Tzq>>> =
        bots.iter().enumerate().map(|(i, n)| Tzq::bot(n, &s.child(&format!("bot/{i}"))).expect("bot")).collect();
    let rules = Tzq::rules("standard", &Default::default()).expect("rules");
    play_game::<Tzq>("standard", rules, s, &mut b, Default::default()).expect("game")
}

/// The repository's fixtures folder.
pub(crate) fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Game `i` of a seeded riichi series, mixed greedy and random bots (standard rules).
pub(crate) fn riichi_game(series: &str, i: usize) -> Log<paifu_core::riichi::Action> {
    use paifu_core::riichi::Riichi;
    let s = Seed::from_text(series).child(&format!("g{i}"));
    let mut bots: Vec<Box<dyn paifu_recorder::Bot<Riichi>>> = (0..4)
        .map(|k| {
            Riichi::bot(if (i + k) % 3 == 0 { "random" } else { "greedy" }, &s.child(&format!("b{k}"))).expect("bot")
        })
        .collect();
    let rules = Riichi::rules("standard", &Default::default()).expect("rules");
    play_game::<Riichi>("standard", rules, s, &mut bots, Default::default()).expect("game")
}

/// One HTTP GET to `addr`: the status and the body.
pub(crate) fn http_get(addr: &str, path: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default())
}

/// A `paifu serve` started by a test, killed when dropped.
pub(crate) struct Served {
    pub(crate) child: std::process::Child,
    /// `127.0.0.1:PORT`, as the server printed it.
    pub(crate) addr: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `paifu serve ARGS` in `dir`, once it has said where it listens (its first line).
pub(crate) fn spawn_serve(dir: &Path, args: &[&str]) -> Served {
    use std::io::BufRead;
    let child = Command::new(env!("CARGO_BIN_EXE_paifu"))
        .arg("serve")
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut served = Served { child, addr: String::new() };
    let mut line = String::new();
    std::io::BufReader::new(served.child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|a| a.split('/').next()).unwrap_or_else(|| panic!("{line}"));
    served.addr = addr.trim().to_owned();
    served
}
