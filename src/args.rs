//! Arguments several commands share: the log encoding, the archive file and the filters that
//! choose games from the archive.

use clap::{Args, ValueEnum};
use paifu_core::log::Encoding;
use paifu_recorder::archive::Filter;

/// The archive used when `--db` is not given.
pub(crate) const DEFAULT_DB: &str = "paifu.db";

/// A log encoding, as `--format` and `--to` name it.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum LogFormat {
    /// JSON Lines, `.paifu.jsonl`: readable and diffable.
    Jsonl,
    /// Compact binary (postcard frames), `.paifu`.
    Binary,
}

impl LogFormat {
    pub fn encoding(self) -> Encoding {
        match self {
            LogFormat::Jsonl => Encoding::JsonLines,
            LogFormat::Binary => Encoding::Binary,
        }
    }
}

/// Which games of the archive a command works on: `stats`, `plot`, `show` and `export` take the
/// same filters. Every filter given must hold; none given selects every game.
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct FilterArgs {
    /// Only games of this kind (tzq, riichi, hungarian, tayu).
    #[arg(long, value_name = "KIND")]
    pub game: Option<String>,
    /// Only games this player played (a name in the log's seats); stats and plot then show this
    /// player's statistics.
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Only games of this tournament (as `paifu ingest --tournament` named it).
    #[arg(long, value_name = "NAME")]
    pub tournament: Option<String>,
    /// Only games stored in the archive at or after this time: a date, YYYY-MM-DD (from
    /// midnight UTC), or an RFC 3339 time such as 2025-05-01T18:30:00+02:00. It is when
    /// `paifu ingest` stored the game, not a date written in the log.
    #[arg(long, value_name = "DATE", value_parser = parse_since)]
    pub since: Option<i64>,
}

impl FilterArgs {
    /// The archive's filter for these arguments (any verdict).
    pub fn filter(&self) -> Filter {
        Filter {
            game: self.game.clone(),
            player: self.player.clone(),
            tournament: self.tournament.clone(),
            valid: None,
            since: self.since,
        }
    }

    /// Whether any filter is given.
    pub fn any(&self) -> bool {
        *self != FilterArgs::default()
    }
}

/// `--since`: a date (`YYYY-MM-DD`, midnight UTC) or an RFC 3339 time (`YYYY-MM-DDTHH:MM:SS`, a
/// fraction of a second ignored, then `Z` or an offset `+HH:MM` / `-HH:MM`; a space may stand for
/// the `T`), as whole seconds since the Unix epoch.
pub(crate) fn parse_since(text: &str) -> Result<i64, BadTime> {
    let bad = |why: &'static str| BadTime { text: text.to_owned(), why };
    let b = text.trim().as_bytes();
    let date = b.get(..10).and_then(date_days).ok_or_else(|| bad("not a date (YYYY-MM-DD)"))?;
    let rest = &b[10..];
    if rest.is_empty() {
        return Ok(date * 86_400);
    }
    if !matches!(rest[0], b'T' | b't' | b' ') || rest.len() < 9 {
        return Err(bad("not a time of day"));
    }
    let clock = &rest[1..9];
    let (h, m, s) = match (number(&clock[0..2]), clock[2], number(&clock[3..5]), clock[5], number(&clock[6..8])) {
        (Some(h), b':', Some(m), b':', Some(s)) if h < 24 && m < 60 && s <= 60 => (h, m, s),
        _ => return Err(bad("not a time of day (HH:MM:SS)")),
    };
    let mut zone = &rest[9..];
    if let Some(frac) = zone.strip_prefix(b".") {
        let digits = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return Err(bad("a fraction of a second needs digits"));
        }
        zone = &frac[digits..];
    }
    let offset = match zone {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => match (number(&[*h1, *h2]), number(&[*m1, *m2])) {
            (Some(oh), Some(om)) if oh < 24 && om < 60 => {
                let o = oh * 3600 + om * 60;
                if *sign == b'-' {
                    -o
                } else {
                    o
                }
            }
            _ => return Err(bad("not a time zone offset (+HH:MM)")),
        },
        _ => return Err(bad("the time needs Z or an offset such as +02:00")),
    };
    Ok(date * 86_400 + h * 3600 + m * 60 + s - offset)
}

/// `--since` is not a date or a time.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?}: {why}; write a date, 2025-05-01, or an RFC 3339 time, 2025-05-01T18:30:00Z")]
pub struct BadTime {
    pub text: String,
    /// What is wrong with it.
    pub why: &'static str,
}

/// Two or more ASCII digits as a number.
fn number(digits: &[u8]) -> Option<i64> {
    digits.iter().try_fold(0i64, |n, d| d.is_ascii_digit().then(|| n * 10 + i64::from(d - b'0')))
}

/// `YYYY-MM-DD` as days since 1970-01-01 (proleptic Gregorian calendar).
fn date_days(b: &[u8]) -> Option<i64> {
    let (y, m, d) = match b {
        [y @ .., b'-', m1, m2, b'-', d1, d2] if y.len() == 4 => {
            (number(y)?, number(&[*m1, *m2])?, number(&[*d1, *d2])?)
        }
        _ => return None,
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let month_days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if !(1..=12).contains(&m) || d < 1 || d > month_days[(m - 1) as usize] {
        return None;
    }
    // Days from civil (H. Hinnant): years counted from March, so the leap day ends a year.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_midnight_utc() {
        assert_eq!(parse_since("1970-01-01"), Ok(0));
        assert_eq!(parse_since("1970-01-02"), Ok(86_400));
        assert_eq!(parse_since("2000-03-01"), Ok(951_868_800));
        assert_eq!(parse_since("2024-02-29"), Ok(1_709_164_800));
        assert_eq!(parse_since("2025-01-01"), Ok(1_735_689_600));
        assert_eq!(parse_since("1969-12-31"), Ok(-86_400));
    }

    #[test]
    fn rfc3339_times_with_their_offset() {
        assert_eq!(parse_since("2025-01-01T00:00:00Z"), Ok(1_735_689_600));
        assert_eq!(parse_since("2025-01-01t01:02:03z"), Ok(1_735_689_600 + 3723));
        assert_eq!(parse_since("2025-01-01 00:00:00.999Z"), Ok(1_735_689_600));
        assert_eq!(parse_since("2025-01-01T02:00:00+02:00"), Ok(1_735_689_600));
        assert_eq!(parse_since("2024-12-31T19:00:00-05:00"), Ok(1_735_689_600));
        // As humantime reads the UTC form.
        let t = humantime::parse_rfc3339("2023-07-14T09:41:27Z").unwrap();
        let secs = t.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
        assert_eq!(parse_since("2023-07-14T09:41:27Z"), Ok(secs));
    }

    #[test]
    fn refuses_what_is_not_a_time() {
        for bad in [
            "",
            "yesterday",
            "2025-1-01",
            "2025-13-01",
            "2023-02-29",
            "2025-04-31",
            "2025-00-10",
            "25-01-01",
            "2025-01-01T",
            "2025-01-01T10:00",
            "2025-01-01T24:00:00Z",
            "2025-01-01T10:00:00",
            "2025-01-01T10:00:00+2",
            "2025-01-01T10:00:00+02:60",
            "2025-01-01T10:00:00.Z",
            "2025-01-01x",
            "２０２５-01-01",
        ] {
            let e = parse_since(bad).expect_err(bad);
            assert!(e.to_string().contains("write a date"), "{bad}: {e}");
        }
    }

    #[test]
    fn filter_args_make_the_archive_filter() {
        let f = FilterArgs {
            game: Some("riichi".into()),
            player: Some("Aiko".into()),
            tournament: Some("Cup".into()),
            since: Some(5),
        };
        assert!(f.any());
        assert!(!FilterArgs::default().any());
        assert_eq!(
            f.filter(),
            Filter {
                game: Some("riichi".into()),
                player: Some("Aiko".into()),
                tournament: Some("Cup".into()),
                valid: None,
                since: Some(5)
            }
        );
    }
}
