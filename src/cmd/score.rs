//! `paifu score`: a referee's calculator, one JSON hand per line in, one result per line out.

use crate::error::{Error, Result, Status};
use clap::Args;
use std::io::Write;

/// The longest input line `paifu score` reads by default (64 KiB; a hand is about 100 bytes).
pub(crate) const MAX_LINE_BYTES: usize = 64 << 10;

/// Answers are written out once this many bytes are waiting.
const ANSWERS_BUFFER: usize = 64 << 10;

#[derive(Args, Debug)]
#[command(after_help = r#"riichi: one JSON object per line (absent fields are false / none / default rules):
  id, hand (concealed tiles with the winning tile: 123m456p789s1234567z, 0m/0p/0s red fives),
  melds ["chi:345m", "pon:777z", "minkan:1111s", "ankan:9999p", "kakan:5555m"], win, tsumo,
  riichi, double_riichi, ippatsu, rinshan, chankan, haitei, houtei, tenhou, chiihou, seat_wind,
  round_wind ("E" "S" "W" "N"), dora, ura (indicator tiles), honba, riichi_sticks, rules.
  Answer: {"id", "ok": true, "han", "fu", "yaku": [{"name", "han"}], "yakuman", "limit",
  "payment", "total"}.

mcr (Chinese Official): id, hand, melds and win as above (no red fives; 1-4z East South
  West North, 5z white, 6z green, 7z red), tsumo, flowers (a count, 0-8), last_tile (the other
  three of the winning tile are visible), kong_related (out with a replacement tile when tsumo,
  robbing a kong otherwise), wall_last (the wall's last tile when tsumo, its discard otherwise),
  seat_wind, round_wind.
  Answer: {"id", "ok": true, "fan" (the total, flowers included), "fans": [{"name", "fan",
  "count"}], "meets_minimum" (8 fan without the flowers)}; errors bad_input, invalid_tiles,
  inconsistent, not_a_win. The fan names are listed in docs/rules/mcr.md.

hungarian (1925): every player's hand of one finished hand, and the settlement:
  id, winner ("E" "S" "W" "N" or null for a void hand), win (the winning tile), self_drawn,
  heavenly, players {"E": {"hand", "melds", "flowers": ["1f", "6f"]}, "S": ..., "W": ..., "N": ...},
  rules (options of docs/rules/hungarian.md, e.g. {"losers_settle": false}).
  Answer: {"id", "ok": true, "players": {"E": {"points", "doublings", "score", "lines":
  [{"name", "points"}], "limit": null or {"name", "bonus"}}, ...}, "payments": {"E": net, ...}}.

Every game answers {"id", "ok": false, "error", "message"} for a hand it cannot score.

Every input line gets its answer, in order: a line longer than --max-line-bytes is answered with
error "too_long" (it is skipped, not read into memory and not echoed), a line that is not UTF-8
with error "bad_input"; the lines after it are scored as usual. Blank lines are skipped.

Exit status: 0 every hand scored, 1 some hand could not be, 2 usage or I/O error.

Examples:
  echo '{"id":1,"hand":"123m456p789s11z22z2z","win":"2z","tsumo":true}' | paifu score riichi
  echo '{"id":2,"hand":"123m456p789s111z55z","win":"5z","tsumo":true,"flowers":1}' | paifu score mcr
  echo '{"id":3,"winner":"E","win":"1s","players":{"E":{"hand":"234m567m345p678s11s"},"S":{"hand":"147m258p369s1234z"},"W":{"hand":"258m369p147s1234z"},"N":{"hand":"369m147p258s1234z"}}}' | paifu score hungarian"#)]
pub struct ScoreArgs {
    /// The game whose hands to score: riichi, mcr (Chinese Official) or hungarian.
    pub game: String,
    /// The longest input line, in bytes; a longer one is answered with an error and skipped.
    #[arg(long, default_value_t = MAX_LINE_BYTES, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=(1 << 30)))]
    pub max_line_bytes: usize,
}

/// One line of input, read with a bound on its length.
#[derive(Debug, PartialEq, Eq)]
enum Line<'a> {
    Text(&'a str),
    /// Longer than the limit: its length in bytes, which were read and dropped.
    TooLong(u64),
    /// Not UTF-8: the offset of the first byte that is not.
    NotUtf8(usize),
}

/// The input, read in large blocks into one buffer: each line is handed out where it lies in
/// the buffer (no copy of it), and a line longer than the limit is read and dropped, never held.
struct Lines<R> {
    input: R,
    buf: Vec<u8>,
    /// The unread part of `buf`.
    start: usize,
    end: usize,
    eof: bool,
}

/// The size of the blocks read (the buffer grows only for a line longer than this).
const INPUT_BLOCK: usize = 256 << 10;

impl<R: std::io::Read> Lines<R> {
    fn new(input: R) -> Lines<R> {
        Lines { input, buf: vec![0; INPUT_BLOCK], start: 0, end: 0, eof: false }
    }

    /// Reads more input after what is unread, moved to the buffer's start; false at the end.
    fn fill(&mut self) -> std::io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        self.buf.copy_within(self.start..self.end, 0);
        self.end -= self.start;
        self.start = 0;
        if self.end == self.buf.len() {
            self.buf.resize(self.buf.len() * 2, 0);
        }
        let n = loop {
            match self.input.read(&mut self.buf[self.end..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        self.end += n;
        self.eof = n == 0;
        Ok(n > 0)
    }

    /// The next line (without its `\n` or `\r\n`), of at most `max` bytes: the rest of a longer
    /// line is read and dropped. `None` at the end of the input.
    fn next(&mut self, max: usize) -> std::io::Result<Option<Line<'_>>> {
        loop {
            let unread = &self.buf[self.start..self.end];
            if let Some(i) = memchr::memchr(b'\n', unread) {
                let at = self.start;
                self.start += i + 1;
                return Ok(Some(line_of(&self.buf[at..at + i], i as u64, max)));
            }
            // A partial line longer than any line kept: drop it to its end.
            if unread.len() > max + 1 {
                let mut len = unread.len() as u64;
                self.start = self.end;
                while self.fill()? {
                    let more = &self.buf[self.start..self.end];
                    match memchr::memchr(b'\n', more) {
                        Some(i) => {
                            self.start += i + 1;
                            return Ok(Some(Line::TooLong(len + i as u64)));
                        }
                        None => {
                            len += more.len() as u64;
                            self.start = self.end;
                        }
                    }
                }
                return Ok(Some(Line::TooLong(len)));
            }
            if !self.fill()? {
                if self.start == self.end {
                    return Ok(None);
                }
                let (at, len) = (self.start, self.end - self.start);
                self.start = self.end;
                return Ok(Some(line_of(&self.buf[at..at + len], len as u64, max)));
            }
        }
    }
}

/// A whole line (`len` bytes, before its `\n`) as read: a `\r` before the `\n` dropped from a
/// line that is otherwise within the limit, then too long, not UTF-8, or its text.
fn line_of(bytes: &[u8], len: u64, max: usize) -> Line<'_> {
    let (bytes, len) = match bytes.split_last() {
        Some((b'\r', rest)) if len <= max as u64 + 1 => (rest, len - 1),
        _ => (bytes, len),
    };
    if len > max as u64 {
        return Line::TooLong(len);
    }
    match std::str::from_utf8(bytes) {
        Ok(t) => Line::Text(t),
        Err(e) => Line::NotUtf8(e.valid_up_to()),
    }
}

/// The answer to a line that could not be scored before it was read as JSON.
fn refusal(out: &mut Vec<u8>, error: &str, message: String) {
    let answer = serde_json::json!({"id": null, "ok": false, "error": error, "message": message});
    // Writing into a Vec cannot fail.
    let _ = serde_json::to_writer(out, &answer);
}

/// `paifu score`: 0 every hand scored, 1 some hand could not be.
pub fn run(a: ScoreArgs) -> Result {
    // Each answer is written into one buffer, handed to the output as it fills.
    let score_line: fn(&str, &mut Vec<u8>) -> bool = match a.game.as_str() {
        "riichi" => paifu_core::riichi::score_line_into,
        "mcr" => paifu_core::mcr::score_line_into,
        "hungarian" => |line, out| {
            let answer = paifu_core::hungarian::score_line(line);
            out.extend_from_slice(answer.as_bytes());
            !answer.contains("\"ok\":false")
        },
        other => {
            return Err(Error::Usage(format!("paifu score knows riichi, mcr and hungarian hands, not {other:?}")));
        }
    };
    let input = |source| Error::Stdio { stream: "standard input", source };
    let output = |source| Error::Stdio { stream: "standard output", source };
    let stdin = std::io::stdin();
    let mut lines = Lines::new(stdin.lock());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = false;
    let mut answers = Vec::with_capacity(ANSWERS_BUFFER + 4096);
    let mut number = 0u64;
    while let Some(line) = lines.next(a.max_line_bytes).map_err(input)? {
        number += 1;
        let ok = match line {
            Line::Text(t) if t.trim().is_empty() => continue,
            Line::Text(t) => score_line(t, &mut answers),
            Line::TooLong(n) => {
                let message = format!(
                    "line {number} is {n} bytes long; lines are at most {} bytes (--max-line-bytes), so it was not read",
                    a.max_line_bytes
                );
                refusal(&mut answers, "too_long", message);
                false
            }
            Line::NotUtf8(at) => {
                refusal(&mut answers, "bad_input", format!("line {number} is not UTF-8 text (byte {at} is not)"));
                false
            }
        };
        failed |= !ok;
        answers.push(b'\n');
        if answers.len() >= ANSWERS_BUFFER {
            out.write_all(&answers).map_err(output)?;
            answers.clear();
        }
    }
    out.write_all(&answers).map_err(output)?;
    out.flush().map_err(output)?;
    Ok(Status::faulty_if(failed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line as read, owned.
    #[derive(Debug, PartialEq, Eq)]
    enum Read {
        Text(String),
        TooLong(u64),
        NotUtf8(usize),
    }

    /// Input handed out `step` bytes a read, so that lines span several reads.
    struct Trickle<'a>(&'a [u8], usize);

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.1.min(out.len()).min(self.0.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn lines_with(input: &[u8], max: usize, step: usize) -> Vec<Read> {
        let mut r = Lines::new(Trickle(input, step));
        std::iter::from_fn(|| {
            r.next(max).unwrap().map(|l| match l {
                Line::Text(t) => Read::Text(t.to_owned()),
                Line::TooLong(n) => Read::TooLong(n),
                Line::NotUtf8(at) => Read::NotUtf8(at),
            })
        })
        .collect()
    }

    fn lines(input: &[u8], max: usize) -> Vec<Read> {
        let all = lines_with(input, max, usize::MAX);
        for step in [1, 2, 3, 4, 7] {
            assert_eq!(lines_with(input, max, step), all, "{step} bytes a read");
        }
        all
    }

    #[test]
    fn lines_are_read_to_the_limit_and_no_further() {
        let text = |s: &str| Read::Text(s.to_owned());
        assert_eq!(lines(b"ab\r\ncdef\n\nxyz", 4), vec![text("ab"), text("cdef"), text(""), text("xyz")]);
        assert_eq!(lines(b"abcde\nok\n", 4), vec![Read::TooLong(5), text("ok")]);
        assert_eq!(lines(b"abcd\r\n", 4), vec![text("abcd")]);
        assert_eq!(lines(b"abcde\r\nx", 4), vec![Read::TooLong(6), text("x")]);
        assert_eq!(lines(b"abcdefgh\r\nx\r", 4), vec![Read::TooLong(9), text("x")]);
        assert_eq!(lines(&[b'a', 0xff, b'\n', b'b'], 4), vec![Read::NotUtf8(1), text("b")]);
        assert_eq!(lines(b"", 4), vec![]);
        assert_eq!(lines(b"\n", 4), vec![text("")]);
        // A long line among short ones, longer than a block, at the end without a newline.
        let mut input = b"ok\n".to_vec();
        input.extend(vec![b'x'; 3 * INPUT_BLOCK + 5]);
        input.extend(b"\nfine\n");
        input.extend(vec![b'y'; INPUT_BLOCK + 1]);
        let want = vec![
            text("ok"),
            Read::TooLong(3 * INPUT_BLOCK as u64 + 5),
            text("fine"),
            Read::TooLong(INPUT_BLOCK as u64 + 1),
        ];
        assert_eq!(lines_with(&input, 100, usize::MAX), want);
        assert_eq!(lines_with(&input, 100, 1000), want);
        // A line longer than a block but within the limit is read whole.
        let long = vec![b'z'; 2 * INPUT_BLOCK + 3];
        let mut input = long.clone();
        input.extend(b"\nend");
        let want = vec![Read::Text(String::from_utf8(long).unwrap()), text("end")];
        assert_eq!(lines_with(&input, 3 * INPUT_BLOCK, 5000), want);
        // The room held is bounded by the limit, whatever a line's length.
        let long = vec![b'x'; 10 * INPUT_BLOCK];
        let mut r = Lines::new(&long[..]);
        assert_eq!(r.next(100).unwrap(), Some(Line::TooLong(10 * INPUT_BLOCK as u64)));
        assert!(r.buf.len() <= 2 * INPUT_BLOCK, "{}", r.buf.len());
    }
}
