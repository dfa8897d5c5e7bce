//! A bot as a child process: a line to it, a line back, each within a deadline.
//!
//! The command is split as a POSIX shell would split words (quotes, escapes; no pipes or
//! variables: for those, give `sh -c '...'`), `{seat}` replaced by the seat number, and run with
//! its standard input and output as the channel, in the match's [`Sandbox`] unless the operator
//! opted out. Nothing a bot does can stop the host or grow its memory without bound:
//!
//! - its input is written by a thread of its own, so a bot that does not read cannot block the
//!   host: a line not taken within the deadline is a timeout;
//! - its output is read by a thread into a queue of a few lines ([`QUEUED_LINES`], each at most
//!   [`MAX_LINE`]): a bot that floods it waits for the host, which takes one line per answer;
//! - its standard error is kept up to [`STDERR_CAP`] bytes; the rest is counted, and the count
//!   written at the end of the file;
//! - it runs in a process group of its own (and, sandboxed, a PID namespace of its own): stopping
//!   it kills every process it started.

use super::sandbox::{BotUser, Sandbox};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::Duration;

/// The longest line a bot may answer; a longer one is garbage (and the bot is not read further).
pub const MAX_LINE: usize = 1 << 20;

/// Lines read ahead of the host's questions at most: a bot that writes more waits.
pub const QUEUED_LINES: usize = 4;

/// The bytes of a bot's standard error kept per game; the rest is counted, not kept.
pub const STDERR_CAP: u64 = 1 << 20;

/// What went wrong with a bot, as the arena records it.
#[derive(Debug, thiserror::Error)]
pub enum BotFault {
    #[error("the bot command is empty or its quotes do not close: {0:?}")]
    BadCommand(String),
    #[error("could not start {command:?}: {source}")]
    Spawn { command: String, source: std::io::Error },
    #[error("no answer within {0} ms")]
    Timeout(u128),
    #[error("the bot ended ({0})")]
    Exited(String),
    #[error("the bot answered something that is not a line of text: {0}")]
    Garbage(String),
}

/// One line from the bot's output, or why there are no more.
enum Line {
    Text(String),
    Garbage(String),
    Closed,
}

/// How a bot is started.
#[derive(Clone, Copy, Debug, Default)]
pub struct Launch<'a> {
    /// The sandbox it runs in; `None`: unsandboxed (`--no-sandbox`).
    pub sandbox: Option<&'a Sandbox>,
    /// Where its standard error is kept (the first [`STDERR_CAP`] bytes); `None`: dropped.
    pub stderr: Option<&'a Path>,
}

/// The thread that writes the bot's input: one line at a time, each acknowledged once written.
struct Input {
    lines: Option<SyncSender<Vec<u8>>>,
    written: Receiver<std::io::Result<()>>,
    /// A line was handed over and its write not yet acknowledged.
    busy: bool,
}

impl Input {
    fn new(mut stdin: ChildStdin) -> Input {
        let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(0);
        let (done_tx, done_rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in rx {
                let r = stdin.write_all(&line).and_then(|()| stdin.flush());
                let failed = r.is_err();
                if done_tx.send(r).is_err() || failed {
                    return;
                }
            }
        });
        Input { lines: Some(tx), written: done_rx, busy: false }
    }

    /// Hands `line` to the writer once the one before is written, waiting at most `deadline`.
    fn send(&mut self, line: Vec<u8>, deadline: Duration) -> Result<(), BotFault> {
        let closed = |e: &dyn std::fmt::Display| BotFault::Exited(format!("its input is closed: {e}"));
        if self.busy {
            match self.written.recv_timeout(deadline) {
                Ok(Ok(())) => self.busy = false,
                Ok(Err(e)) => return Err(closed(&e)),
                Err(RecvTimeoutError::Timeout) => return Err(BotFault::Timeout(deadline.as_millis())),
                Err(RecvTimeoutError::Disconnected) => return Err(closed(&"the writer ended")),
            }
        }
        let tx = self.lines.as_ref().ok_or_else(|| closed(&"it was closed"))?;
        tx.send(line).map_err(|_| closed(&"the writer ended"))?;
        self.busy = true;
        Ok(())
    }
}

/// The thread that keeps the bot's standard error: the first [`STDERR_CAP`] bytes, then a count.
fn keep_stderr(err: impl Read + Send + 'static, path: Option<PathBuf>) -> Receiver<u64> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut file = path.and_then(|p| std::fs::OpenOptions::new().create(true).append(true).open(p).ok());
        let mut err = err;
        let mut buf = vec![0u8; 64 << 10];
        let (mut kept, mut dropped) = (0u64, 0u64);
        loop {
            let n = match err.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let room = usize::try_from(STDERR_CAP.saturating_sub(kept)).unwrap_or(usize::MAX).min(n);
            if room > 0 {
                if let Some(f) = file.as_mut() {
                    let _ = f.write_all(&buf[..room]);
                }
                kept += room as u64;
            }
            dropped += (n - room) as u64;
        }
        if dropped > 0 {
            if let Some(f) = file.as_mut() {
                let _ = write!(
                    f,
                    "\n[paifu arena: standard error is kept up to {STDERR_CAP} bytes a game; {dropped} more bytes were \
                     not kept]\n"
                );
            }
        }
        let _ = tx.send(dropped);
    });
    rx
}

/// A running bot.
pub struct BotProcess {
    command: String,
    child: Child,
    input: Option<Input>,
    lines: Receiver<Line>,
    /// Set once the output ended or turned to garbage: nothing more will be read.
    done: Option<String>,
    /// Answers the bytes of standard error not kept, once it closed.
    stderr: Option<Receiver<u64>>,
    /// Bytes of standard error not kept (known once the bot is stopped).
    dropped: u64,
    stopped: bool,
    /// The user it runs as, held until it has been stopped and waited for.
    user: Option<BotUser>,
}

/// The words of `command` with `{seat}` replaced.
pub fn command_words(command: &str, seat: u8) -> Result<Vec<String>, BotFault> {
    let words = shlex::split(&command.replace("{seat}", &seat.to_string()))
        .filter(|w| !w.is_empty())
        .ok_or_else(|| BotFault::BadCommand(command.to_owned()))?;
    Ok(words)
}

fn read_lines(out: impl Read, tx: SyncSender<Line>) {
    let mut r = BufReader::new(out);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let line = match r.by_ref().take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf) {
            Ok(0) => Line::Closed,
            Ok(_) if buf.len() > MAX_LINE => Line::Garbage(format!("a line longer than {MAX_LINE} bytes")),
            Ok(_) => {
                while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                    buf.pop();
                }
                match std::str::from_utf8(&buf) {
                    Ok(s) => Line::Text(s.to_owned()),
                    Err(e) => Line::Garbage(format!("bytes that are not UTF-8 ({e})")),
                }
            }
            Err(e) => Line::Garbage(format!("its output could not be read: {e}")),
        };
        let last = !matches!(line, Line::Text(_));
        if tx.send(line).is_err() || last {
            return;
        }
    }
}

impl BotProcess {
    /// Starts `command` for `seat` as `launch` says.
    pub fn spawn(command: &str, seat: u8, launch: Launch<'_>) -> Result<BotProcess, BotFault> {
        let words = command_words(command, seat)?;
        let (argv, user) = match launch.sandbox {
            Some(s) => s.command(&words).map_err(|source| BotFault::Spawn { command: command.to_owned(), source })?,
            None => (words, None),
        };
        let (program, args) = argv.split_first().ok_or_else(|| BotFault::BadCommand(command.to_owned()))?;
        use std::os::unix::process::CommandExt;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|source| BotFault::Spawn { command: command.to_owned(), source })?;
        let out = child.stdout.take().ok_or_else(|| BotFault::Exited("no standard output".into()))?;
        let (tx, rx) = mpsc::sync_channel(QUEUED_LINES);
        std::thread::spawn(move || read_lines(out, tx));
        let stderr = child.stderr.take().map(|e| keep_stderr(e, launch.stderr.map(Path::to_owned)));
        let input = child.stdin.take().map(Input::new);
        Ok(BotProcess {
            command: command.to_owned(),
            child,
            input,
            lines: rx,
            done: None,
            stderr,
            dropped: 0,
            stopped: false,
            user,
        })
    }

    /// The command it runs.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The process id of the bot's first process (the sandbox's, when sandboxed).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a newline is added), waiting at most `deadline` for the bot to have taken
    /// the line before it (a bot that does not read its input times out).
    pub fn send(&mut self, line: &str, deadline: Duration) -> Result<(), BotFault> {
        let input = self.input.as_mut().ok_or_else(|| BotFault::Exited("its input is closed".into()))?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        input.send(bytes, deadline)
    }

    /// Waits up to `deadline` for the next line.
    pub fn answer(&mut self, deadline: Duration) -> Result<String, BotFault> {
        if let Some(why) = &self.done {
            return Err(BotFault::Exited(why.clone()));
        }
        match self.lines.recv_timeout(deadline) {
            Ok(Line::Text(s)) => Ok(s),
            Ok(Line::Garbage(why)) => {
                self.done = Some(format!("it answered {why} before"));
                Err(BotFault::Garbage(why))
            }
            Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                let status = self.exit_status();
                self.done = Some(status.clone());
                Err(BotFault::Exited(status))
            }
            Err(RecvTimeoutError::Timeout) => Err(BotFault::Timeout(deadline.as_millis())),
        }
    }

    /// Lines that arrived unasked (a late answer to a question whose deadline passed): dropped,
    /// so that they are never read as the answer to the next question. Answers how many.
    pub fn drop_late_lines(&mut self) -> usize {
        let mut n = 0;
        while let Ok(line) = self.lines.try_recv() {
            match line {
                Line::Text(_) => n += 1,
                Line::Garbage(why) => self.done = Some(format!("it answered {why}")),
                Line::Closed => self.done = Some(self.exit_status()),
            }
        }
        n
    }

    /// How the process ended, as far as is known without waiting long.
    fn exit_status(&mut self) -> String {
        for _ in 0..50 {
            match self.child.try_wait() {
                Ok(Some(s)) => return s.to_string(),
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(e) => return format!("its status is unknown: {e}"),
            }
        }
        "it closed its output".into()
    }

    /// Stops the bot: its input is closed, then every process of its group is killed (and,
    /// sandboxed, its PID namespace with them) and reaped; its standard error is closed.
    pub fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        self.input = None;
        let _ = self.child.kill();
        if let Some(pid) = rustix::process::Pid::from_raw(self.child.id() as i32) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
        let _ = self.child.wait();
        // Every writer of its standard error is gone unless a process left the group (only an
        // unsandboxed bot can): it is not waited for long.
        if let Some(rx) = self.stderr.take() {
            self.dropped = rx.recv_timeout(Duration::from_secs(2)).unwrap_or(0);
        }
        self.user = None;
    }

    /// Bytes of its standard error that were not kept (once stopped).
    pub fn stderr_dropped(&self) -> u64 {
        self.dropped
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(script: &str) -> BotProcess {
        BotProcess::spawn(&format!("sh -c '{script}' bot {{seat}}"), 2, Launch::default()).unwrap()
    }

    const LONG: Duration = Duration::from_secs(20);

    #[test]
    fn a_bot_answers_line_by_line_and_knows_its_seat() {
        let mut b = bot(r#"echo "seat $1"; while read l; do echo "got $l"; done"#);
        assert_eq!(b.answer(LONG).unwrap(), "seat 2");
        b.send("one", LONG).unwrap();
        assert_eq!(b.answer(LONG).unwrap(), "got one");
        b.send("two\r", LONG).unwrap();
        assert_eq!(b.answer(LONG).unwrap(), "got two", "a CR before the newline is not part of the line");
    }

    #[test]
    fn silence_past_the_deadline_is_a_timeout_and_a_late_answer_is_dropped() {
        let mut b = bot("read l; sleep 1; echo late; read l; echo second");
        b.send("q1", LONG).unwrap();
        assert!(matches!(b.answer(Duration::from_millis(50)), Err(BotFault::Timeout(50))));
        // The late answer arrives; it must not answer the next question.
        assert_eq!(b.answer(LONG).unwrap(), "late");
        let mut b = bot("read l; sleep 1; echo late; read l; echo second");
        b.send("q1", LONG).unwrap();
        assert!(b.answer(Duration::from_millis(50)).is_err());
        std::thread::sleep(Duration::from_millis(1500));
        assert_eq!(b.drop_late_lines(), 1);
        b.send("q2", LONG).unwrap();
        assert_eq!(b.answer(LONG).unwrap(), "second");
    }

    #[test]
    fn a_bot_that_ends_or_answers_garbage_is_told_apart() {
        let mut b = bot("read l; exit 3");
        b.send("q", LONG).unwrap();
        match b.answer(LONG) {
            Err(BotFault::Exited(why)) => assert!(why.contains('3') || why.contains("closed"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(b.answer(LONG), Err(BotFault::Exited(_))), "and stays ended");
        let mut b = bot(r#"printf "\377\376\n""#);
        assert!(matches!(b.answer(LONG), Err(BotFault::Garbage(why)) if why.contains("UTF-8")));
        let mut b = bot(r#"head -c 1100000 /dev/zero | tr "\000" a; echo"#);
        assert!(matches!(b.answer(LONG), Err(BotFault::Garbage(why)) if why.contains("longer")));
    }

    #[test]
    fn commands_are_split_as_a_shell_splits_words() {
        assert_eq!(command_words("python3 bot.py --seat {seat}", 1).unwrap(), ["python3", "bot.py", "--seat", "1"]);
        assert_eq!(command_words("'my bot' \"a b\"", 0).unwrap(), ["my bot", "a b"]);
        assert!(matches!(command_words("'open", 0), Err(BotFault::BadCommand(_))));
        assert!(matches!(command_words("  ", 0), Err(BotFault::BadCommand(_))));
        let e = BotProcess::spawn("/no/such/bot", 0, Launch::default()).err().unwrap();
        assert!(matches!(e, BotFault::Spawn { .. }), "{e}");
    }

    #[test]
    fn a_bot_that_does_not_read_its_input_times_out_instead_of_blocking_the_host() {
        let mut b = bot("sleep 30");
        let line = "x".repeat(200_000);
        let start = std::time::Instant::now();
        // The first line fills the pipe and is never taken; the next waits for it, at most the
        // deadline.
        b.send(&line, Duration::from_millis(50)).unwrap();
        assert!(matches!(b.send(&line, Duration::from_millis(50)), Err(BotFault::Timeout(50))));
        assert!(matches!(b.send("q", Duration::from_millis(50)), Err(BotFault::Timeout(50))));
        assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    }

    #[test]
    fn standard_error_is_kept_to_the_cap_and_the_rest_counted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("err");
        let launch = Launch { sandbox: None, stderr: Some(&path) };
        let mut b = BotProcess::spawn("sh -c 'head -c 3000000 /dev/zero >&2; echo done'", 0, launch).unwrap();
        assert_eq!(b.answer(LONG).unwrap(), "done");
        b.stop();
        let kept = std::fs::read(&path).unwrap();
        let over = 3_000_000 - STDERR_CAP;
        assert_eq!(b.stderr_dropped(), over);
        assert!(kept[..STDERR_CAP as usize].iter().all(|c| *c == 0));
        let tail = String::from_utf8_lossy(&kept[STDERR_CAP as usize..]).into_owned();
        assert!(tail.contains(&format!("{over} more bytes were not kept")), "{tail}");
    }

    #[test]
    fn stopping_a_bot_kills_the_processes_it_started() {
        let mut b = bot("sleep 1000 & echo $!; wait");
        let pid = b.answer(LONG).unwrap();
        let alive = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .is_ok_and(|s| s.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
        };
        assert!(alive(), "the child runs");
        b.stop();
        let start = std::time::Instant::now();
        while alive() && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!alive(), "the bot's child outlived it");
    }
}
