//! What the commands print and write: progress bars, files, verdict lines, terminal-safe text.

use crate::error::{Error, Result};
use indicatif::{ProgressBar, ProgressStyle};
use paifu_core::replay::{Report, Verdict};
use paifu_recorder::import::to_log::COMPUTED_KEY;
use std::path::Path;

/// A progress bar on standard error with this template, or a hidden one when `quiet`.
pub(crate) fn progress(len: u64, template: &str, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// A progress bar that says what it counts, its time and the time left.
pub(crate) fn progress_of(len: u64, what: &str, quiet: bool) -> ProgressBar {
    let bar = progress(len, "{msg} {bar:40} {pos}/{len} [{elapsed_precise}, {eta} left]", quiet);
    bar.set_message(what.to_owned());
    bar
}

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
    if let Some(e) = r.verdict.outcome().and_then(|o| o.excerpt.as_ref()) {
        v["excerpt"] = serde_json::json!({"first": e.first, "last": e.last, "verdict": e.to_string()});
        v["scores_after"] = serde_json::to_value(r.verdict.outcome().map(|o| &o.final_scores)).unwrap_or_default();
    }
    if let Some(f) = r.verdict.fault() {
        v["error"] = serde_json::to_value(f).unwrap_or_default();
    }
    v
}

/// One log's verdict as a line of text.
pub(crate) fn report_line(file: &Path, r: &Report) -> String {
    let computed = r.header.as_ref().and_then(|h| h.meta.get(COMPUTED_KEY)).filter(|_| r.verdict.is_valid());
    let line = verdict_line(file, r);
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
}
