//! A bot as a child process: a line to it, a line back, each answer awaited until a deadline.
//!
//! The command is split as a POSIX shell would split words (quotes, escapes; no pipes or
//! variables: for those, give `sh -c '...'`), `{seat}` replaced by the seat number, and run with
//! its standard input and output as the channel. A reader thread turns its output into lines, so
//! that waiting for an answer can end at a deadline; the process is killed when it is dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// The longest line a bot may answer; a longer one is garbage (and the bot is not read further).
pub const MAX_LINE: usize = 1 << 20;

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

/// A running bot.
pub struct BotProcess {
    command: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    /// Set once the output ended or turned to garbage: nothing more will be read.
    done: Option<String>,
}

/// The words of `command` with `{seat}` replaced.
pub fn command_words(command: &str, seat: u8) -> Result<Vec<String>, BotFault> {
    let words = shlex::split(&command.replace("{seat}", &seat.to_string()))
        .filter(|w| !w.is_empty())
        .ok_or_else(|| BotFault::BadCommand(command.to_owned()))?;
    Ok(words)
}

fn read_lines(out: impl Read, tx: mpsc::Sender<Line>) {
    let mut r = BufReader::new(out);
    loop {
        let mut buf = Vec::new();
        let line = match r.by_ref().take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf) {
            Ok(0) => Line::Closed,
            Ok(_) if buf.len() > MAX_LINE => Line::Garbage(format!("a line longer than {MAX_LINE} bytes")),
            Ok(_) => {
                while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                    buf.pop();
                }
                match String::from_utf8(buf) {
                    Ok(s) => Line::Text(s),
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
    /// Starts `command` for `seat`; its standard error goes to `stderr` (a file, or null).
    pub fn spawn(command: &str, seat: u8, stderr: Stdio) -> Result<BotProcess, BotFault> {
        let words = command_words(command, seat)?;
        let (program, args) = words.split_first().ok_or_else(|| BotFault::BadCommand(command.to_owned()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|source| BotFault::Spawn { command: command.to_owned(), source })?;
        let out = child.stdout.take().ok_or_else(|| BotFault::Exited("no standard output".into()))?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || read_lines(out, tx));
        Ok(BotProcess { command: command.to_owned(), stdin: child.stdin.take(), child, lines: rx, done: None })
    }

    /// The command it runs.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) -> Result<(), BotFault> {
        let ended = |e: std::io::Error| BotFault::Exited(format!("its input is closed: {e}"));
        let stdin = self.stdin.as_mut().ok_or_else(|| BotFault::Exited("its input is closed".into()))?;
        stdin.write_all(line.as_bytes()).map_err(ended)?;
        stdin.write_all(b"\n").map_err(ended)?;
        stdin.flush().map_err(ended)
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

    /// Stops the bot: its input is closed, then it is killed and reaped.
    pub fn stop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
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
        BotProcess::spawn(&format!("sh -c '{script}' bot {{seat}}"), 2, Stdio::null()).unwrap()
    }

    const LONG: Duration = Duration::from_secs(20);

    #[test]
    fn a_bot_answers_line_by_line_and_knows_its_seat() {
        let mut b = bot(r#"echo "seat $1"; while read l; do echo "got $l"; done"#);
        assert_eq!(b.answer(LONG).unwrap(), "seat 2");
        b.send("one").unwrap();
        assert_eq!(b.answer(LONG).unwrap(), "got one");
        b.send("two\r").unwrap();
        assert_eq!(b.answer(LONG).unwrap(), "got two", "a CR before the newline is not part of the line");
    }

    #[test]
    fn silence_past_the_deadline_is_a_timeout_and_a_late_answer_is_dropped() {
        let mut b = bot("read l; sleep 1; echo late; read l; echo second");
        b.send("q1").unwrap();
        assert!(matches!(b.answer(Duration::from_millis(50)), Err(BotFault::Timeout(50))));
        // The late answer arrives; it must not answer the next question.
        assert_eq!(b.answer(LONG).unwrap(), "late");
        let mut b = bot("read l; sleep 1; echo late; read l; echo second");
        b.send("q1").unwrap();
        assert!(b.answer(Duration::from_millis(50)).is_err());
        std::thread::sleep(Duration::from_millis(1500));
        assert_eq!(b.drop_late_lines(), 1);
        b.send("q2").unwrap();
        assert_eq!(b.answer(LONG).unwrap(), "second");
    }

    #[test]
    fn a_bot_that_ends_or_answers_garbage_is_told_apart() {
        let mut b = bot("read l; exit 3");
        b.send("q").unwrap();
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
        let e = BotProcess::spawn("/no/such/bot", 0, Stdio::null()).err().unwrap();
        assert!(matches!(e, BotFault::Spawn { .. }), "{e}");
    }
}
