//! `paifu arena` against hostile bots (issue 24, "The arena"): a bot learns only what its seat
//! sees (no seed, no match folder, no network, no other seat's pass, not even through the live
//! view) and cannot stop the match (a bot that does not read, floods its output or its standard
//! error, or leaves processes behind; a game that would never end; a host killed and resumed
//! without its flags). Each test performs the attack with a small Python bot; docs/protocol.md,
//! "Threats and what holds", lists them.

use crate::util::{http_get as get, paifu, spawn_serve, stderr, stdout};
use paifu_core::log::{decode, encode, Encoding, Log, Record};
use paifu_core::{ErrorCode, Game};
use std::io::Read;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const PAIFU: &str = env!("CARGO_BIN_EXE_paifu");

/// The built-in bot's command for `game`.
fn builtin(game: &str, strategy: &str) -> String {
    format!("{PAIFU} bot {game} --strategy {strategy} --seed s{{seat}}")
}

/// Writes a bot script into `dir` and answers the command that runs it with `args`.
fn script(dir: &Path, name: &str, text: &str, args: &str) -> String {
    std::fs::write(dir.join(name), text).unwrap();
    format!("python3 {name} {args}")
}

/// The tail every Python bot below plays with: the first legal action, `ok` to the rest.
const PLAY_FIRST: &str = r#"
for line in sys.stdin:
    m = json.loads(line)
    print(m["legal"][0] if m["type"] == "ask" else "ok", flush=True)
"#;

/// How a host run went: its exit status (`None`: killed, at the deadline or past the memory
/// limit), its peak resident memory (VmHWM, kB), its standard error and how long it took.
struct Run {
    status: Option<ExitStatus>,
    peak_kb: u64,
    stderr: String,
    took: Duration,
    killed: Option<&'static str>,
}

/// Runs `paifu ARGS` in `dir`, watching its peak memory: killed past `deadline` or `limit_mb`.
fn host(args: &[&str], dir: &Path, deadline: Duration, limit_mb: u64) -> Run {
    let start = Instant::now();
    let mut child =
        Command::new(PAIFU).args(args).current_dir(dir).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0;
    let mut killed = None;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            let hwm = text.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next());
            peak_kb = peak_kb.max(hwm.and_then(|v| v.parse().ok()).unwrap_or(0));
        }
        if peak_kb > limit_mb * 1024 {
            killed = Some("memory");
        } else if start.elapsed() > deadline {
            killed = Some("time");
        }
        if killed.is_some() {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run { status, peak_kb, stderr: reader.join().unwrap(), took: start.elapsed(), killed }
}

impl Run {
    fn assert_finished(&self, what: &str) {
        assert!(
            self.status.is_some_and(|s| s.success()),
            "{what}: the match must finish (killed: {:?} after {:?}, peak {} kB): {}",
            self.killed,
            self.took,
            self.peak_kb,
            self.stderr
        );
    }
}

fn tzq_log(path: &Path) -> Log<paifu_core::tzq::Action> {
    decode(&std::fs::read(path).unwrap()).unwrap().0
}

fn validates(dir: &Path, log: &str) {
    let o = paifu(&["validate", log], dir);
    assert_eq!(o.status.code(), Some(0), "{log} validates: {}{}", stdout(&o), stderr(&o));
}

/// The incidents of seat `seat` in a log, by kind.
fn incidents_of<A: std::fmt::Display>(records: &[Record<A>], seat: u8, kind: &str) -> usize {
    records.iter().filter(|r| r.seat == seat && r.action.to_string().starts_with(&format!("incident {kind}"))).count()
}

/// A bot that looks for the match seed everywhere a process of the host's user could, then
/// plays: through its parent's working folder (`/proc/$PPID/cwd`), every process's working
/// folder and root in `/proc`, and the match folder by its absolute path (given on its command
/// line... hidden in the script, so that the command names no path of the host).
const SPY: &str = r#"
import json, os, sys
MATCH = open("where").read().strip()
found = []
def look(path):
    try:
        with open(path) as f:
            found.append("FOUND %s %s" % (path, f.read().strip()))
    except Exception:
        pass
ppid = os.getppid()
name = os.path.basename(MATCH)
look("/proc/%d/cwd/arena.seed" % ppid)
look("/proc/%d/cwd/%s/arena.seed" % (ppid, name))
for pid in os.listdir("/proc"):
    if pid.isdigit():
        for where in ("cwd", "root"):
            base = "/proc/%s/%s" % (pid, where)
            look(base + "/arena.seed")
            look(base + "/" + name + "/arena.seed")
            look(base + MATCH + "/arena.seed")
look(MATCH + "/arena.seed")
look(MATCH + "/reveal.json")
try:
    for f in os.listdir(MATCH):
        found.append("LISTED " + f)
except Exception:
    pass
for line in found:
    print(line, file=sys.stderr)
print("probe done, %d processes seen" % len([p for p in os.listdir("/proc") if p.isdigit()]), file=sys.stderr, flush=True)
"#;

#[test]
fn a_sandboxed_bot_finds_neither_the_seed_nor_the_match_folder() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(p.join("where"), p.join("m").display().to_string()).unwrap();
    let spy = script(p, "spy.py", &format!("{SPY}{PLAY_FIRST}"), "where");
    let bot = builtin("tzq", "random");
    let run = host(
        &["arena", "tzq", "--bot", &spy, "--bot", &bot, "--games", "1", "--out", "m", "-q"],
        p,
        Duration::from_secs(120),
        400,
    );
    run.assert_finished("a spying bot");
    let seed = std::fs::read_to_string(p.join("m/arena.seed")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(p.join("m/arena.seed")).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the seed file is the host's user's alone");
    let said = std::fs::read_to_string(p.join("m/bots/game-0001-seat-0.stderr")).unwrap();
    assert!(said.contains("probe done"), "the spy ran: {said}");
    assert!(!said.contains(seed.trim()), "the bot read the seed: {said}");
    assert!(!said.contains("FOUND") && !said.contains("LISTED"), "the bot reached the match folder: {said}");
    let log = tzq_log(&p.join("m/game-0001.paifu.jsonl"));
    assert_eq!(incidents_of(&log.records, 0, ""), 0, "the spy played every decision itself");
    assert!(!log.header.meta.contains_key("sandbox"), "a sandboxed match says nothing: {:?}", log.header.meta);
}

#[test]
fn a_sandboxed_bot_reaches_no_network() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let net = script(
        p,
        "net.py",
        &format!(
            r#"
import json, socket, sys
try:
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3)
    s.sendall(b"a bot was here\n")
    print("net: connected", file=sys.stderr, flush=True)
except Exception as e:
    print("net: failed: %s" % e, file=sys.stderr, flush=True)
{PLAY_FIRST}"#
        ),
        &port.to_string(),
    );
    let bot = builtin("tzq", "random");
    let run = host(
        &["arena", "tzq", "--bot", &net, "--bot", &bot, "--games", "1", "--out", "m", "-q"],
        p,
        Duration::from_secs(120),
        400,
    );
    run.assert_finished("a bot reaching out");
    let said = std::fs::read_to_string(p.join("m/bots/game-0001-seat-0.stderr")).unwrap();
    assert!(said.contains("net: failed"), "the bot connected to the host's port: {said}");
    assert!(listener.accept().is_err(), "a connection reached the host's listener");
}

#[test]
fn without_bubblewrap_the_match_is_refused_and_no_sandbox_is_said_in_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let bot = builtin("tzq", "random");
    // No bwrap on the PATH: refused before any deal, the package named.
    let o = Command::new(PAIFU)
        .args(["arena", "tzq", "--bot", &bot, "--games", "1", "--out", "m", "-q"])
        .current_dir(p)
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("bubblewrap") && stderr(&o).contains("--no-sandbox"), "{}", stderr(&o));
    assert!(!p.join("m/game-0001.paifu.jsonl").exists(), "nothing played unsandboxed");
    // Opting out: played, and the header says so.
    let o = paifu(&["arena", "tzq", "--bot", &bot, "--games", "1", "--out", "n", "--no-sandbox", "-q"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let log = tzq_log(&p.join("n/game-0001.paifu.jsonl"));
    assert!(log.header.meta["sandbox"].contains("unsandboxed"), "{:?}", log.header.meta);
    validates(p, "n/game-0001.paifu.jsonl");
    let o = paifu(&["show", "n/game-0001.paifu.jsonl"], p);
    assert!(stdout(&o).contains("unsandboxed"), "paifu show shows the header's meta: {}", stdout(&o));
    // The dashboard's game page and the tournament report say so too.
    assert_eq!(paifu(&["keygen", "-o", "ref"], p).status.code(), Some(0));
    let o = paifu(&["ingest", "n/game-0001.paifu.jsonl", "--db", "a.db", "--tournament", "Open"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = paifu(&["report", "--tournament", "Open", "--db", "a.db", "-o", "r", "--key", "ref.key", "-q"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(p.join("r/index.html")).unwrap();
    assert!(html.contains("sandbox: none: the bots ran unsandboxed"), "{html}");
    let server = paifu_web::spawn(paifu_web::Config::new(p.join("a.db")), "127.0.0.1:0").unwrap();
    let (status, page) = get(&server.addr.to_string(), "/games/1");
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("<dt>Sandbox</dt><dd>none: the bots ran unsandboxed"), "{page}");
}

#[test]
fn a_sandboxed_bot_is_held_to_its_memory_and_process_limits() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let greedy = script(
        p,
        "greedy.py",
        &format!(
            r#"
import json, subprocess, sys
try:
    block = bytearray(3 << 30)
    print("memory: got 3 GiB", file=sys.stderr, flush=True)
except MemoryError:
    print("memory: refused", file=sys.stderr, flush=True)
started = []
for i in range(200):
    try:
        started.append(subprocess.Popen(["sleep", "60"]))
    except OSError:
        break
print("processes: %d started" % len(started), file=sys.stderr, flush=True)
{PLAY_FIRST}"#
        ),
        "",
    );
    let bot = builtin("tzq", "random");
    let run = host(
        &[
            "arena",
            "tzq",
            "--bot",
            &greedy,
            "--bot",
            &bot,
            "--games",
            "1",
            "--out",
            "m",
            "--bot-memory-mb",
            "1024",
            "-q",
        ],
        p,
        Duration::from_secs(120),
        400,
    );
    run.assert_finished("a greedy bot");
    let said = std::fs::read_to_string(p.join("m/bots/game-0001-seat-0.stderr")).unwrap();
    assert!(said.contains("memory: refused"), "{said}");
    if rustix_is_root() {
        let n: usize = said
            .lines()
            .find_map(|l| l.strip_prefix("processes: "))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{said}"));
        assert!(n < 64, "{n} processes started: the limit is 64 for the bot's user");
    }
}

/// Seen in CI: mjai.app's bots at seat 0 of one match ended at once while the greedy bot above, at
/// seat 0 of a match running beside it, held its 64 processes: both bots ran as uid 2100000000 +
/// seat, and the process limit counts a user's processes. A bot holding its limit must starve no
/// bot of another match: each bot leases a user of its own for as long as it runs.
#[test]
fn a_bot_holding_its_process_limit_starves_no_bot_of_another_match() {
    if !rustix_is_root() {
        eprintln!("not root: bots run as the host's user, the process limit is the operator's (docs/protocol.md)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let hog = script(
        &a,
        "hog.py",
        r#"
import subprocess, sys, time
held = []
for i in range(200):
    try:
        held.append(subprocess.Popen(["sleep", "600"]))
    except OSError:
        break
print("holding %d" % len(held), file=sys.stderr, flush=True)
time.sleep(600)
"#,
        "",
    );
    let random = builtin("tzq", "random");
    let mut first = Command::new(PAIFU)
        .args(["arena", "tzq", "--bot", &hog, "--bot", &random, "--games", "1", "--out", "m", "--timeout-ms", "600000"])
        .args(["--bot-memory-mb", "1024", "-q"])
        .current_dir(&a)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let said = a.join("m/bots/game-0001-seat-0.stderr");
    let start = Instant::now();
    let held = loop {
        let text = std::fs::read_to_string(&said).unwrap_or_default();
        if let Some(n) = text.lines().find_map(|l| l.strip_prefix("holding ")) {
            break n.trim().parse::<usize>().unwrap();
        }
        assert!(start.elapsed() < Duration::from_secs(120), "the hog never said how many it holds: {text}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let counter = script(
        &b,
        "counter.py",
        &format!(
            r#"
import json, subprocess, sys
started = []
for i in range(40):
    try:
        started.append(subprocess.Popen(["sleep", "60"]))
    except OSError as e:
        print("refused: %s" % e, file=sys.stderr, flush=True)
        break
print("started %d" % len(started), file=sys.stderr, flush=True)
for p in started:
    p.kill()
    p.wait()
{PLAY_FIRST}"#
        ),
        "",
    );
    let run = host(
        &["arena", "tzq", "--bot", &counter, "--bot", &random, "--games", "1", "--out", "m", "-q"],
        &b,
        Duration::from_secs(120),
        400,
    );
    first.kill().unwrap();
    first.wait().unwrap();
    run.assert_finished("the second match");
    let text = std::fs::read_to_string(b.join("m/bots/game-0001-seat-0.stderr")).unwrap();
    assert!(held > 50, "the hog holds nearly its limit of 64 processes: {held}");
    assert!(text.contains("started 40"), "the other match's bot at the same seat starts its processes: {text}");
    let log = tzq_log(&b.join("m/game-0001.paifu.jsonl"));
    assert_eq!(incidents_of(&log.records, 0, ""), 0, "no incident for the second match's bot");
}

/// Whether the tests run as root (then each bot has a user of its own and a process limit).
fn rustix_is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("Uid:")).map(|u| u.split_whitespace().next() == Some("0")))
        .unwrap_or(false)
}

#[test]
fn a_bot_that_never_reads_its_input_cannot_stop_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let deaf = script(p, "deaf.py", "import time\ntime.sleep(100000)\n", "");
    let bot = builtin("tzq", "random");
    let run = host(
        &[
            "arena",
            "tzq",
            "--bot",
            &deaf,
            "--bot",
            &bot,
            "--games",
            "1",
            "--timeout-ms",
            "100",
            "--out",
            "m",
            "--no-sync",
            "-q",
        ],
        p,
        Duration::from_secs(180),
        200,
    );
    run.assert_finished("a bot that never reads");
    assert!(run.peak_kb < 200 * 1024, "the host reached {} kB", run.peak_kb);
    validates(p, "m/game-0001.paifu.jsonl");
    let log = tzq_log(&p.join("m/game-0001.paifu.jsonl"));
    assert!(incidents_of(&log.records, 0, "timeout") > 20, "every decision of the deaf bot is a timeout");
}

#[test]
fn a_bot_that_floods_its_output_leaves_the_host_under_200_mb() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let flood = script(
        p,
        "flood.py",
        "import sys\nline = 'x' * 1000000 + '\\n'\nwhile True:\n    sys.stdout.write(line)\n",
        "",
    );
    let bot = builtin("tzq", "random");
    let run = host(
        &[
            "arena",
            "tzq",
            "--bot",
            &flood,
            "--bot",
            &bot,
            "--games",
            "1",
            "--timeout-ms",
            "100",
            "--out",
            "m",
            "--no-sync",
            "-q",
        ],
        p,
        Duration::from_secs(180),
        200,
    );
    run.assert_finished("a flooding bot");
    assert!(run.peak_kb < 200 * 1024, "the host reached {} kB", run.peak_kb);
    validates(p, "m/game-0001.paifu.jsonl");
    let log = tzq_log(&p.join("m/game-0001.paifu.jsonl"));
    assert!(incidents_of(&log.records, 0, "") > 20, "the flood's lines are incidents, not moves");
}

#[test]
fn a_bot_flooding_its_standard_error_is_kept_to_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let noisy = script(
        p,
        "noisy.py",
        &format!(
            "import json, sys\nchunk = b'e' * (1 << 20)\nfor _ in range(200):\n    sys.stderr.buffer.write(chunk)\n\
             sys.stderr.flush()\n{PLAY_FIRST}"
        ),
        "",
    );
    let bot = builtin("tzq", "random");
    let run = host(
        &["arena", "tzq", "--bot", &noisy, "--bot", &bot, "--games", "1", "--out", "m", "-q"],
        p,
        Duration::from_secs(120),
        200,
    );
    run.assert_finished("a noisy bot");
    assert!(run.peak_kb < 200 * 1024, "the host reached {} kB", run.peak_kb);
    let kept = std::fs::read(p.join("m/bots/game-0001-seat-0.stderr")).unwrap();
    let cap = paifu_recorder::arena::process::STDERR_CAP as usize;
    assert!(kept.len() <= cap + 200, "{} bytes kept", kept.len());
    let tail = String::from_utf8_lossy(&kept[cap..]);
    let dropped = (200usize << 20) - cap;
    assert!(tail.contains(&format!("{dropped} more bytes were not kept")), "the rest is counted: {tail}");
}

#[test]
fn no_process_a_bot_started_outlives_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    // A marker no other process carries: sleep's argument (inside the sandbox the pids differ,
    // so the host's /proc is searched for the marker, not for a pid).
    let marker = format!("86{}.{}", std::process::id(), p.display().to_string().len());
    let leaver = script(
        p,
        "leaver.py",
        &format!(
            r#"
import json, subprocess, sys
marker = sys.argv[1]
for args in (["sleep", marker], ["sh", "-c", "while :; do echo still here >&2; sleep 0.05; done"]):
    subprocess.Popen(args, start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
print("children started", file=sys.stderr, flush=True)
{PLAY_FIRST}"#
        ),
        &marker,
    );
    let bot = builtin("tzq", "random");
    let run = host(
        &["arena", "tzq", "--bot", &leaver, "--bot", &bot, "--games", "1", "--out", "m", "-q"],
        p,
        Duration::from_secs(120),
        200,
    );
    run.assert_finished("a bot leaving processes behind");
    let err = p.join("m/bots/game-0001-seat-0.stderr");
    assert!(std::fs::read_to_string(&err).unwrap().contains("children started"));
    std::thread::sleep(Duration::from_millis(500));
    let size = std::fs::metadata(&err).unwrap().len();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(std::fs::metadata(&err).unwrap().len(), size, "a process of the bot still writes its standard error");
    let me = std::process::id().to_string();
    let alive: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|pid| pid.chars().all(|c| c.is_ascii_digit()) && *pid != me)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).split('\0').any(|w| w == marker))
        })
        .collect();
    assert!(alive.is_empty(), "processes the bot started outlived its game: {alive:?}");
}

/// A riichi bot (Paifu's protocol) that counts the passes and incidents of other seats it is
/// told, and passes whenever it may.
const PASS_COUNTER: &str = r#"
import json, sys
me, others, own = None, 0, 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        me = m["seat"]
    if m["type"] == "ask":
        for e in m["events"]:
            if e["action"] == "pass" or e["action"].startswith("incident"):
                if e["seat"] == me:
                    own += 1
                else:
                    others += 1
        print("pass" if "pass" in m["legal"] else m["legal"][0], flush=True)
        continue
    if m["type"] == "end":
        print("told: others %d own %d" % (others, own), file=sys.stderr, flush=True)
    print("ok", flush=True)
"#;

/// An mjai bot that counts events of other seats that are not calls, discards or draws (a
/// pass would be one), and answers `none` (an incident on its own turn: the host plays for it).
const MJAI_COUNTER: &str = r#"
import json, sys
me = int(sys.argv[1])
odd = 0
known = {"start_game", "start_kyoku", "tsumo", "dahai", "reach", "reach_accepted", "chi", "pon", "daiminkan",
         "kakan", "ankan", "dora", "hora", "ryukyoku", "end_kyoku", "end_game"}
for line in sys.stdin:
    for e in json.loads(line):
        if e.get("type") not in known:
            odd += 1
        if e.get("type") == "end_game":
            print("told: odd %d" % odd, file=sys.stderr, flush=True)
    print('{"type":"none"}', flush=True)
"#;

#[test]
fn passes_of_other_seats_are_never_told_to_a_bot() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let counter = script(p, "counter.py", PASS_COUNTER, "");
    let greedy = builtin("riichi", "greedy");
    let seeds = crate::arena::seed_file(p);
    let mut args = vec![
        "arena",
        "riichi",
        "--bot",
        &counter,
        "--games",
        "1",
        "--out",
        "m",
        "--no-sync",
        "--seed-from",
        &seeds,
        "-q",
    ];
    for _ in 0..3 {
        args.extend(["--bot", &greedy]);
    }
    let o = paifu(&args, p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let log: Log<paifu_core::riichi::Action> =
        decode(&std::fs::read(p.join("m/game-0001.paifu.jsonl")).unwrap()).unwrap().0;
    let passed = log.records.iter().filter(|r| r.seat != 0 && r.action.to_string() == "pass").count();
    assert!(passed > 0, "the other seats passed in the game");
    let said = std::fs::read_to_string(p.join("m/bots/game-0001-seat-0.stderr")).unwrap();
    assert!(said.contains("told: others 0 own"), "{passed} passes of others in the log; the bot says {said}");

    // mjai: nothing but the table's events either.
    let counter = script(p, "mjai_counter.py", MJAI_COUNTER, "{seat}");
    let args =
        ["arena", "riichi", "--protocol", "mjai", "--bot", &counter, "--games", "1", "--out", "j", "--no-sync", "-q"];
    let o = paifu(&args, p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for s in 0..4 {
        let said = std::fs::read_to_string(p.join(format!("j/bots/game-0001-seat-{s}.stderr"))).unwrap();
        assert!(said.contains("told: odd 0"), "seat {s}: {said}");
    }
}

#[test]
fn a_live_poll_mid_game_shows_no_pass_and_the_default_delay_holds_moves_back() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let greedy = builtin("riichi", "greedy");
    let mut host = Command::new(PAIFU)
        .args(["arena", "riichi", "--bot", &greedy, "--games", "8", "--out", "m", "--db", "a.db", "-q"])
        .current_dir(p)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Mid-game: a game's journal holds 100 records, passes among them; the host is killed there,
    // its live rows as a poll would find them.
    let live = p.join("m/live");
    let under_way = || {
        std::fs::read_dir(&live).into_iter().flatten().flatten().any(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            text.lines().count() > 100 && text.matches("\"action\":\"pass\"").count() >= 3
        })
    };
    let start = Instant::now();
    while !under_way() {
        assert!(start.elapsed() < Duration::from_secs(300), "no game under way with passes");
        assert!(host.try_wait().unwrap().is_none(), "the match ended before it was polled");
        std::thread::sleep(Duration::from_millis(5));
    }
    host.kill().unwrap();
    host.wait().unwrap();
    let a = paifu_recorder::archive::Archive::open(&p.join("a.db")).unwrap();
    let id = a.live_games(None).unwrap()[0].id;
    let (all, _) = a.live_replay_log(id, None).unwrap().unwrap();
    let passes = all.lines().filter(|l| l.contains("\"action\":\"pass\"")).count();
    assert!(passes > 0, "passes were played");
    drop(a);

    // The server's default: five minutes behind, so the moves just played are all held back.
    let server = spawn_serve(p, &["--db", "a.db", "--addr", "127.0.0.1:0"]);
    let (status, body) = get(&server.addr, "/api/live");
    drop(server);
    assert_eq!(status, 200, "{body}");
    let j: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(j["delay_secs"], 300);
    assert_eq!(j["games"][0]["records"], 0, "{body}");

    // No delay: the moves so far, without a pass, numbered without gaps, and counted so.
    let server = spawn_serve(p, &["--db", "a.db", "--addr", "127.0.0.1:0", "--live-delay", "0"]);
    let (status, body) = get(&server.addr, &format!("/api/live/{id}"));
    let (_, page) = get(&server.addr, &format!("/live/{id}"));
    drop(server);
    assert_eq!(status, 200, "{body}");
    let j: serde_json::Value = serde_json::from_str(&body).unwrap();
    let moves = j["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| m["action"] != "pass"), "a pass is shown: {body}");
    assert_eq!(j["game"]["records"].as_u64(), Some(moves.len() as u64));
    assert_eq!(moves.len() + passes, all.lines().count() - 1, "every record but the passes is shown");
    let seqs: Vec<u64> = moves.iter().map(|m| m["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, (0..moves.len() as u64).collect::<Vec<_>>(), "the numbers tell of no record left out");
    assert!(!page.contains("<code>pass</code>"), "the page lists a pass");
}

#[test]
fn a_tzq_match_between_first_choice_bots_ends() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let first = builtin("tzq", "first");
    let run = host(
        &["arena", "tzq", "--bot", &first, "--games", "1", "--out", "m", "--no-sync", "-q"],
        p,
        Duration::from_secs(120),
        200,
    );
    run.assert_finished("strategy first");
    validates(p, "m/game-0001.paifu.jsonl");
    let o = paifu(&["show", "m/game-0001.paifu.jsonl"], p);
    assert!(
        stdout(&o).contains("the round is drawn: the draw pile ran out after 3 rebuilds"),
        "rounds end by the ruling: {}",
        stdout(&o)
    );
}

#[test]
fn a_game_at_its_length_bound_is_over_and_a_record_past_it_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    // To 30 points between bots that never make a set: every round is drawn, 0 points, and
    // only the bound ends the match.
    let first = builtin("tzq", "first");
    let run = host(
        &["arena", "tzq", "--ruleset", "to30", "--bot", &first, "--games", "1", "--out", "m", "--no-sync", "-q"],
        p,
        Duration::from_secs(300),
        200,
    );
    run.assert_finished("a match to 30 that nobody scores in");
    let bound = paifu_core::tzq::Tzq::MAX_RECORDS as usize;
    let mut log = tzq_log(&p.join("m/game-0001.paifu.jsonl"));
    assert_eq!(log.records.len(), bound, "the game ends at its bound");
    validates(p, "m/game-0001.paifu.jsonl");
    // One record more: refused, at the record past the bound, with a stable code.
    let mut extra = log.records[bound - 2].clone();
    extra.seq = bound as u32;
    extra.claim = None;
    log.records.push(extra);
    std::fs::write(p.join("long.paifu.jsonl"), encode(&log, Encoding::JsonLines)).unwrap();
    let o = paifu(&["validate", "--json", "long.paifu.jsonl"], p);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    let fault = &v["error"];
    assert_eq!(fault["code"], ErrorCode::AfterGameEnd.as_str(), "{v}");
    assert_eq!(fault["index"], bound, "{v}");
}

#[test]
fn a_resumed_match_keeps_its_archive_tournament_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    assert_eq!(paifu(&["keygen", "-o", "ref"], p).status.code(), Some(0));
    let bot = builtin("tzq", "random");
    let mut host = Command::new(PAIFU)
        .args(["arena", "tzq", "--bot", &bot, "--games", "6", "--out", "m", "--db", "a.db", "--tournament", "Cup"])
        .args(["--key", "ref.key", "-q"])
        .current_dir(p)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed (kill -9) once game 3 is under way: two games stored, one in progress.
    let journal = p.join("m/live/game-0003.paifu.jsonl");
    let start = Instant::now();
    while std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 30 {
        assert!(start.elapsed() < Duration::from_secs(120), "the host never reached game 3");
        assert!(host.try_wait().unwrap().is_none(), "the host ended before it was killed");
        std::thread::sleep(Duration::from_millis(2));
    }
    host.kill().unwrap();
    host.wait().unwrap();

    // Resumed as docs/protocol.md shows it: the folder only.
    let o = paifu(&["arena", "--resume", "m", "-q"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let check = |what: &str| {
        let a = paifu_recorder::archive::Archive::open(&p.join("a.db")).unwrap();
        let s = a.summary().unwrap();
        assert_eq!((s.games, s.valid), (6, 6), "{what}: every game stored: {s:?}");
        assert!(a.live_games(None).unwrap().is_empty(), "{what}: no game left in progress");
        let o = paifu(&["tournament", "list", "--db", "a.db"], p);
        let listed = stdout(&o);
        let line = listed.lines().find(|l| l.contains("Cup")).unwrap_or_else(|| panic!("{listed}"));
        assert!(line.contains("6 games") && line.contains("6 counted"), "{what}: certified by the trusted key: {line}");
    };
    check("resumed");
    // A host killed after writing a game's log but before storing it: the next resume stores it.
    std::fs::remove_file(p.join("a.db")).unwrap();
    let o = paifu(&["arena", "--resume", "m", "-q"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("6 finished before"), "{}", stdout(&o));
    check("stored again");
    let plan = std::fs::read_to_string(p.join("m/arena.json")).unwrap();
    assert!(plan.contains("a.db") && plan.contains("ref.key") && plan.contains("Cup"), "{plan}");
}

/// A bot that reads each file its command names and says on its standard error which it could
/// (a command naming a file shows it to the bot, unless the host hides it).
const READER: &str = r#"
import json, sys
for name in sys.argv[1:]:
    try:
        if open(name, "rb").read():
            print("READ " + name, file=sys.stderr, flush=True)
    except Exception:
        pass
print("looked", file=sys.stderr, flush=True)
"#;

#[test]
fn a_resumed_match_hides_the_archive_and_key_given_again_and_its_contributions_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    assert_eq!(paifu(&["keygen", "-o", "ref"], p).status.code(), Some(0));
    let seeds = crate::arena::seed_file(p);
    std::fs::create_dir(p.join("not-a-db")).unwrap();
    drop(paifu_recorder::archive::Archive::open(&p.join("b.db")).unwrap());
    let reader = script(p, "reader.py", &format!("{READER}{PLAY_FIRST}"), &format!("b.db ref.key {seeds}"));
    let bot = builtin("tzq", "random");
    // The first run stops before any game (its archive cannot be opened): the match is resumed
    // with another archive and a key, and without --seed-from.
    let args = ["arena", "tzq", "--bot", &reader, "--bot", &bot, "--games", "1", "--out", "m", "--no-sync"];
    let o = paifu(&[&args[..], &["--seed-from", &seeds, "--db", "not-a-db", "-q"]].concat(), p);
    assert_ne!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!p.join("m/game-0001.paifu.jsonl").exists());
    let o = paifu(&["arena", "--resume", "m", "--db", "b.db", "--key", "ref.key", "-q"], p);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let said = std::fs::read_to_string(p.join("m/bots/game-0001-seat-0.stderr")).unwrap();
    assert!(said.contains("looked"), "the reader ran: {said}");
    assert!(!said.contains("READ"), "a bot of the resumed match read the host's files: {said}");
}
