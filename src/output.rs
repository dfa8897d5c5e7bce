//! What the commands print and write: progress bars, files, verdict lines, terminal-safe text.

use crate::error::{Error, Result};
use indicatif::{ProgressBar, ProgressStyle};
use paifu_core::cert::wall_checked;
use paifu_core::replay::{Report, Verdict};
use paifu_recorder::import::to_log::COMPUTED_KEY;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Progress of long work on standard error: a bar when standard error is a terminal, otherwise
/// (a log file, a CI job, `2>&1 | cat`) a line now and then, so that piped runs are not silent.
pub(crate) struct Progress {
    bar: ProgressBar,
    lines: Option<Mutex<Lines>>,
}

impl Progress {
    /// Counts `n` more items done.
    pub(crate) fn inc(&self, n: u64) {
        self.bar.inc(n);
        if let Some(lines) = &self.lines {
            let line = lines.lock().ok().and_then(|mut l| l.advance(n, Instant::now()));
            if let Some(line) = line {
                eprintln!("{line}");
            }
        }
    }

    /// Ends the bar (and says how long it took, when progress is written as lines and any
    /// line was written).
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
        if let Some(lines) = &self.lines {
            if let Some(line) = lines.lock().ok().and_then(|l| l.last_line(Instant::now())) {
                eprintln!("{line}");
            }
        }
    }

    /// Runs `f` (which writes to the terminal) with the bar hidden meanwhile.
    pub(crate) fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// No progress shown.
    pub(crate) fn hidden() -> Progress {
        Progress { bar: ProgressBar::hidden(), lines: None }
    }
}

/// A progress bar on standard error with this template (`what` names the work in the lines
/// written when standard error is no terminal), or nothing when `quiet`.
pub(crate) fn progress(len: u64, template: &str, what: &str, quiet: bool) -> Progress {
    if quiet {
        return Progress::hidden();
    }
    if !std::io::stderr().is_terminal() {
        return Progress { bar: ProgressBar::hidden(), lines: Some(Mutex::new(Lines::new(what, len, Instant::now()))) };
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.set_message(what.to_owned());
    Progress { bar, lines: None }
}

/// A progress bar that says what it counts, its time and the time left.
pub(crate) fn progress_of(len: u64, what: &str, quiet: bool) -> Progress {
    progress(len, "{msg} {bar:40} {pos}/{len} [{elapsed_precise}, {eta} left]", what, quiet)
}

/// When progress written as lines says something: not in the first seconds (short work stays
/// silent), then at each further tenth of the work or after a pause, whichever comes first.
struct Lines {
    what: String,
    len: u64,
    done: u64,
    start: Instant,
    last: Option<Instant>,
    tenths: u64,
}

impl Lines {
    /// Nothing is said before this much time has passed.
    const QUIET_FOR: Duration = Duration::from_secs(2);
    /// Without a new tenth, a line at least this often.
    const EVERY: Duration = Duration::from_secs(15);

    fn new(what: &str, len: u64, start: Instant) -> Lines {
        Lines { what: what.to_owned(), len, done: 0, start, last: None, tenths: 0 }
    }

    /// Counts `n` more done at `now`; answers the line to write, if it is time for one.
    fn advance(&mut self, n: u64, now: Instant) -> Option<String> {
        self.done = self.done.saturating_add(n);
        let elapsed = now.saturating_duration_since(self.start);
        let tenths = (self.done.saturating_mul(10)).checked_div(self.len).unwrap_or(10);
        let due = match self.last {
            _ if elapsed < Self::QUIET_FOR => false,
            None => true,
            Some(last) => tenths > self.tenths || now.saturating_duration_since(last) >= Self::EVERY,
        };
        if !due || self.done >= self.len {
            return None;
        }
        self.last = Some(now);
        self.tenths = tenths;
        let left = elapsed.mul_f64((self.len - self.done) as f64 / self.done.max(1) as f64);
        Some(format!(
            "{}: {}/{} ({}%), {} s so far, about {} s left",
            self.what,
            self.done,
            self.len,
            self.done * 100 / self.len.max(1),
            elapsed.as_secs(),
            left.as_secs()
        ))
    }

    /// The closing line at `now`, when any line was written before.
    fn last_line(&self, now: Instant) -> Option<String> {
        self.last?;
        let elapsed = now.saturating_duration_since(self.start).as_secs();
        Some(format!("{}: {}/{} done in {elapsed} s", self.what, self.done, self.len))
    }
}

/// Writes formatted text to standard output. Unlike `print!` it answers an error instead of
/// panicking when the reader has gone away (`paifu show ... | head`); [`crate::run`] ends such a
/// command quietly.
pub(crate) fn write_out(args: std::fmt::Arguments<'_>) -> Result<()> {
    use std::io::Write;
    std::io::stdout().lock().write_fmt(args).map_err(|source| Error::Stdio { stream: "standard output", source })
}

/// `print!` that answers a [`Result`]: see [`write_out`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::write_out(format_args!($($arg)*)) };
}

/// `println!` that answers a [`Result`]: see [`write_out`].
macro_rules! outln {
    () => { $crate::output::write_out(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::write_out(format_args!("{}\n", format_args!($($arg)*))) };
}

pub(crate) use {out, outln};

/// Writes a file, making its folder first if needed.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(Error::io(dir))?;
    }
    std::fs::write(path, bytes).map_err(Error::io(path))
}

/// Makes a folder and its parents.
pub(crate) fn make_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(Error::io(dir))
}

/// Text from a log made safe for a terminal: control characters are shown escaped.
pub(crate) fn printable(s: &str) -> String {
    s.chars().flat_map(|c| if c.is_control() { c.escape_default().collect::<Vec<_>>() } else { vec![c] }).collect()
}

/// One log's verdict as `validate --json` prints it.
pub(crate) fn report_json(file: &Path, r: &Report) -> serde_json::Value {
    let mut v = serde_json::json!({
        "file": file.display().to_string(),
        "valid": r.verdict.is_valid(),
        "game": r.header.as_ref().map(|h| h.game.clone()),
        "digest": r.digest.map(|d| d.to_hex()),
        "records": r.records,
        "final_scores": r.verdict.outcome().filter(|o| o.excerpt.is_none()).map(|o| o.final_scores.clone()),
    });
    if let Some(c) = r.header.as_ref().and_then(|h| h.meta.get(COMPUTED_KEY)) {
        v["computed_not_claimed"] = serde_json::Value::from(c.as_str());
    }
    // An imported game: whether its deals were rebuilt from its platform's own seed and matched.
    if r.header.as_ref().is_some_and(|h| h.source.is_some()) {
        v["wall_checked"] = serde_json::Value::from(wall_checked(r));
    }
    if let Some(e) = r.verdict.outcome().and_then(|o| o.excerpt.as_ref()) {
        v["excerpt"] = serde_json::json!({"first": e.first, "last": e.last, "verdict": e.to_string()});
        v["scores_after"] = serde_json::to_value(r.verdict.outcome().map(|o| &o.final_scores)).unwrap_or_default();
    }
    if let Some(o) = r.verdict.outcome().filter(|o| !o.incidents.is_empty()) {
        v["incidents"] = serde_json::to_value(&o.incidents).unwrap_or_default();
    }
    if let Some(f) = r.verdict.fault() {
        v["error"] = serde_json::to_value(f).unwrap_or_default();
    }
    v
}

/// A valid log's incidents, on its verdict line: `; incidents: #5 seat 1 timeout (no answer), ...`
/// (empty when there are none).
fn incidents_text(r: &Report) -> String {
    let Some(o) = r.verdict.outcome().filter(|o| !o.incidents.is_empty()) else { return String::new() };
    let each: Vec<String> = o
        .incidents
        .iter()
        .map(|i| match i.detail.as_str() {
            "" => format!("#{} seat {} {}", i.index, i.seat, i.kind),
            d => format!("#{} seat {} {} ({})", i.index, i.seat, i.kind, printable(d)),
        })
        .collect();
    format!("; {} incident{}: {}", each.len(), if each.len() == 1 { "" } else { "s" }, each.join(", "))
}

/// One log's verdict as a line of text.
pub(crate) fn report_line(file: &Path, r: &Report) -> String {
    let computed = r.header.as_ref().and_then(|h| h.meta.get(COMPUTED_KEY)).filter(|_| r.verdict.is_valid());
    let mut line = verdict_line(file, r) + &incidents_text(r);
    if wall_checked(r) {
        line += "; wall checked: every deal, draw, indicator and die is the one the source's own seed makes";
    }
    match computed {
        Some(c) => format!("{line}; computed, not claimed: {}", printable(c)),
        None => line,
    }
}

/// [`report_line`] without the computed results.
fn verdict_line(file: &Path, r: &Report) -> String {
    match &r.verdict {
        Verdict::Valid(o) if o.excerpt.is_some() => format!(
            "excerpt  {}  {} records, {}, scores after it {:?}, digest {}",
            file.display(),
            r.records,
            o.excerpt.as_ref().map(|e| e.to_string()).unwrap_or_default(),
            o.final_scores,
            r.digest.map(|d| d.to_hex()).unwrap_or_default()
        ),
        Verdict::Valid(o) => format!(
            "valid    {}  {} records, final scores {:?}, digest {}",
            file.display(),
            r.records,
            o.final_scores,
            r.digest.map(|d| d.to_hex()).unwrap_or_default()
        ),
        Verdict::Invalid(f) => format!("INVALID  {}: {}", file.display(), f.describe()),
    }
}

/// The current time as RFC 3339 UTC, whole seconds.
pub(crate) fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_escapes_control_characters_only() {
        assert_eq!(printable("Aiko\u{1b}[31m\n東"), "Aiko\\u{1b}[31m\\n東");
    }

    #[test]
    fn write_file_makes_the_folder_and_names_the_path_on_failure() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("a/b/c.txt");
        write_file(&p, b"x").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"x");
        let e = write_file(&p.join("under-a-file"), b"x").unwrap_err();
        assert!(e.to_string().contains("c.txt"), "{e}");
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn progress_lines_stay_quiet_at_first_then_speak_at_each_tenth_or_after_a_pause() {
        let t0 = Instant::now();
        let at = |secs: u64| t0 + Duration::from_secs(secs);
        let mut l = Lines::new("simulating", 100, t0);
        assert_eq!(l.advance(5, at(1)), None, "short work stays silent");
        assert_eq!(l.last_line(at(1)), None, "nothing said, nothing to close");
        assert_eq!(l.advance(5, at(3)).as_deref(), Some("simulating: 10/100 (10%), 3 s so far, about 27 s left"));
        assert_eq!(l.advance(5, at(4)), None, "still in the same tenth");
        assert_eq!(l.advance(5, at(5)).as_deref(), Some("simulating: 20/100 (20%), 5 s so far, about 20 s left"));
        assert_eq!(l.advance(1, at(19)), None, "a pause shorter than EVERY");
        assert!(l.advance(1, at(21)).is_some_and(|line| line.starts_with("simulating: 22/100 (22%)")));
        assert_eq!(l.advance(78, at(40)), None, "the end is said by the closing line");
        assert_eq!(l.last_line(at(40)).as_deref(), Some("simulating: 100/100 done in 40 s"));
    }

    #[test]
    fn progress_lines_of_empty_work_do_not_divide_by_zero() {
        let t0 = Instant::now();
        let mut l = Lines::new("importing", 0, t0);
        assert_eq!(l.advance(1, t0 + Duration::from_secs(5)), None);
    }
}
